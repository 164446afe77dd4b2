#include "core/model/json_tree.h"

#include <set>

#include <nlohmann/json.hpp>

namespace vmafhip {

const JsonValue *JsonValue::find(const std::string &key) const
{
    for (const Member &m : members_)
        if (m.first == key)
            return &m.second;
    return nullptr;
}

std::string json_pointer_token(const std::string &key)
{
    std::string t;
    for (size_t i = 0; i < key.size() && i < 40; i++)
        t += key[i] == '~' ? "~0" : key[i] == '/' ? "~1" : std::string(1, key[i]);
    return key.size() > 40 ? t + "..." : t;
}

/// The SAX handler (nlohmann::json_sax's interface): values go into the
/// open array or object, the innermost last in `open_`.
class JsonTreeBuilder {
public:
    using Json = nlohmann::json;
    using number_integer_t = Json::number_integer_t;
    using number_unsigned_t = Json::number_unsigned_t;
    using number_float_t = Json::number_float_t;
    using string_t = Json::string_t;
    using binary_t = Json::binary_t;

    JsonTreeBuilder(JsonValue *root, JsonError *err) : root_(root), err_(err) {}

    bool null() { return add(JsonValue()); }
    bool boolean(bool b)
    {
        JsonValue v;
        v.type_ = JsonValue::value_t::boolean;
        v.boolean_ = b;
        return add(std::move(v));
    }
    bool number_integer(number_integer_t n) { return number(static_cast<double>(n), std::to_string(n)); }
    bool number_unsigned(number_unsigned_t n) { return number(static_cast<double>(n), std::to_string(n)); }
    bool number_float(number_float_t d, const string_t &s) { return number(d, s); }
    bool string(string_t &s)
    {
        JsonValue v;
        v.type_ = JsonValue::value_t::string;
        v.text_ = std::move(s);
        return add(std::move(v));
    }
    bool binary(binary_t &) { return fail("binary values are not JSON"); }
    bool start_object(std::size_t) { return open(JsonValue::value_t::object); }
    bool key(string_t &k)
    {
        Open &o = open_.back();
        if (!o.keys.insert(k).second) {
            o.key = k;
            return fail("key given twice");
        }
        o.key = std::move(k);
        return true;
    }
    bool end_object() { return close(); }
    bool start_array(std::size_t) { return open(JsonValue::value_t::array); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &e)
    {
        // "[json.exception.parse_error.101] parse error at line 3, column 7:
        // ...; last read: '<the token, maybe a whole model string>'"
        std::string w = e.what();
        const size_t skip = w.find("] ");
        if (skip != std::string::npos)
            w.erase(0, skip + 2);
        const size_t token = w.find("; last read: '");
        if (token != std::string::npos && w.size() > token + 14 + 60)
            w = w.substr(0, token + 14 + 40) + "...'";
        err_->pointer.clear();
        err_->message = w;
        return false;
    }

private:
    struct Open {
        JsonValue value;
        std::set<std::string> keys; // objects: the keys so far
        std::string key;            // objects: the key of the next value
    };

    bool number(double d, const std::string &text)
    {
        JsonValue v;
        v.type_ = JsonValue::value_t::number;
        v.number_ = d;
        v.text_ = text;
        return add(std::move(v));
    }
    bool open(JsonValue::value_t t)
    {
        if (open_.size() >= JSON_MAX_DEPTH)
            return fail("arrays and objects nested deeper than " + std::to_string(JSON_MAX_DEPTH) + " levels");
        open_.emplace_back();
        open_.back().value.type_ = t;
        return true;
    }
    bool close()
    {
        JsonValue v = std::move(open_.back().value);
        open_.pop_back();
        return add(std::move(v));
    }
    bool add(JsonValue v)
    {
        if (open_.empty()) {
            *root_ = std::move(v);
            return true;
        }
        Open &o = open_.back();
        if (o.value.type_ == JsonValue::value_t::array)
            o.value.elements_.push_back(std::move(v));
        else
            o.value.members_.emplace_back(std::move(o.key), std::move(v));
        return true;
    }
    bool fail(const std::string &what)
    {
        err_->pointer.clear();
        for (const Open &o : open_) {
            err_->pointer += "/";
            err_->pointer += o.value.type_ == JsonValue::value_t::array
                                 ? std::to_string(o.value.elements_.size())
                                 : json_pointer_token(o.key);
        }
        if (err_->pointer.empty())
            err_->pointer = "/";
        err_->message = what;
        return false;
    }

    JsonValue *root_;
    JsonError *err_;
    std::vector<Open> open_;
};

bool json_parse(const std::string &text, JsonValue *out, JsonError *err)
{
    *out = JsonValue();
    JsonTreeBuilder b(out, err);
    return nlohmann::json::sax_parse(text, &b);
}

} // namespace vmafhip
