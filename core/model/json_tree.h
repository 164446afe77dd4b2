// JSON text to a plain tree, for the model loader. Built from the events of
// nlohmann-json's SAX parser rather than its document type: that type's
// destructor allocates (a flattening stack for nested values), so running
// out of memory while a document is dropped would terminate the process,
// where the library must report -ENOMEM. Nesting is capped, so that the
// tree's recursive destructor has a bounded depth.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace vmafhip {

class JsonValue {
public:
    enum class value_t { null, boolean, number, string, array, object };
    using Member = std::pair<std::string, JsonValue>;

    value_t type() const { return type_; }
    bool is_null() const { return type_ == value_t::null; }
    bool is_boolean() const { return type_ == value_t::boolean; }
    bool is_number() const { return type_ == value_t::number; }

    bool boolean() const { return boolean_; }
    double number() const { return number_; }
    /// A string's value, or a number as the file spells it.
    const std::string &text() const { return text_; }

    /// Arrays: the elements.
    size_t size() const { return elements_.size(); }
    bool empty() const { return elements_.empty(); }
    const JsonValue &operator[](size_t i) const { return elements_[i]; }
    /// Objects: the members in file order.
    const std::vector<Member> &members() const { return members_; }
    /// The member named key, or nullptr.
    const JsonValue *find(const std::string &key) const;

private:
    friend class JsonTreeBuilder;
    value_t type_ = value_t::null;
    bool boolean_ = false;
    double number_ = 0;
    std::string text_;
    std::vector<JsonValue> elements_;
    std::vector<Member> members_;
};

/// Deepest nesting of arrays and objects accepted (libvmaf's models use 4).
constexpr int JSON_MAX_DEPTH = 64;

/// Why parsing failed: `pointer` (RFC 6901) where, empty for a syntax error
/// (then `message` has the line and column).
struct JsonError {
    std::string pointer, message;
};

/// Parse text into *out. Keys must be unique in each object. Throws
/// std::bad_alloc only. @return true, or false with *err set.
bool json_parse(const std::string &text, JsonValue *out, JsonError *err);

/// A key as a JSON pointer token (RFC 6901), cut after 40 characters.
std::string json_pointer_token(const std::string &key);

} // namespace vmafhip
