#include "tests/common/json.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace testjson {

const Value *Value::get(const std::string &key) const
{
    for (const auto &kv : obj)
        if (kv.first == key)
            return &kv.second;
    return nullptr;
}

const Value &Value::operator[](const std::string &key) const
{
    const Value *v = get(key);
    if (!v)
        throw std::runtime_error("JSON key not found: " + key);
    return *v;
}

namespace {

// nlohmann's ordered_json keeps the key order of the text, which the tests
// compare against libvmaf's logs.
Value convert(const nlohmann::ordered_json &j)
{
    Value v;
    switch (j.type()) {
    case nlohmann::ordered_json::value_t::null:
        v.type = Value::Null;
        break;
    case nlohmann::ordered_json::value_t::boolean:
        v.type = Value::Bool;
        v.b = j.get<bool>();
        break;
    case nlohmann::ordered_json::value_t::number_integer:
    case nlohmann::ordered_json::value_t::number_unsigned:
    case nlohmann::ordered_json::value_t::number_float:
        v.type = Value::Number;
        v.num = j.get<double>();
        break;
    case nlohmann::ordered_json::value_t::string:
        v.type = Value::String;
        v.str = j.get<std::string>();
        break;
    case nlohmann::ordered_json::value_t::array:
        v.type = Value::Array;
        for (const auto &e : j)
            v.arr.push_back(convert(e));
        break;
    case nlohmann::ordered_json::value_t::object:
        v.type = Value::Object;
        for (const auto &kv : j.items())
            v.obj.emplace_back(kv.key(), convert(kv.value()));
        break;
    default:
        throw std::runtime_error("JSON: binary values are not JSON text");
    }
    return v;
}

} // namespace

Value parse(const std::string &text)
{
    try {
        return convert(nlohmann::ordered_json::parse(text));
    } catch (const nlohmann::ordered_json::exception &e) {
        throw std::runtime_error(std::string("JSON: ") + e.what());
    }
}

Value parse_file(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot open " + path);
    std::ostringstream ss;
    ss << f.rdbuf();
    return parse(ss.str());
}

} // namespace testjson
