// JSON for the tests (goldens, the logs vmafhip writes), read with nlohmann
// json and handed to the tests as a plain tree.
// Numbers keep full double precision; null is kept as its own type.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace testjson {

struct Value {
    enum Type { Null, Bool, Number, String, Array, Object } type = Null;
    bool b = false;
    double num = 0;
    std::string str;
    std::vector<Value> arr;
    std::vector<std::pair<std::string, Value>> obj; // keeps key order

    const Value *get(const std::string &key) const;
    const Value &operator[](const std::string &key) const; // throws if absent
};

/// Parse text; throws std::runtime_error with the offset on bad input.
Value parse(const std::string &text);
/// Read and parse a file; throws on I/O errors.
Value parse_file(const std::string &path);

} // namespace testjson
