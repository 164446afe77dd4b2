#include "tests/common/json.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

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

struct Parser {
    const std::string &s;
    size_t i = 0;

    [[noreturn]] void fail(const char *what)
    {
        throw std::runtime_error(std::string("JSON: ") + what + " at offset " + std::to_string(i));
    }
    void ws()
    {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
            i++;
    }
    bool lit(const char *w)
    {
        size_t n = std::char_traits<char>::length(w);
        if (s.compare(i, n, w) == 0) {
            i += n;
            return true;
        }
        return false;
    }
    std::string string()
    {
        if (s[i] != '"')
            fail("expected string");
        i++;
        std::string out;
        while (i < s.size() && s[i] != '"') {
            if (s[i] == '\\') {
                i++;
                if (i >= s.size())
                    fail("bad escape");
                char c = s[i];
                out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
            } else {
                out += s[i];
            }
            i++;
        }
        if (i >= s.size())
            fail("unterminated string");
        i++;
        return out;
    }
    Value value()
    {
        ws();
        if (i >= s.size())
            fail("unexpected end");
        Value v;
        char c = s[i];
        if (c == '{') {
            v.type = Value::Object;
            i++;
            ws();
            if (s[i] == '}') {
                i++;
                return v;
            }
            for (;;) {
                ws();
                std::string k = string();
                ws();
                if (s[i++] != ':')
                    fail("expected ':'");
                v.obj.emplace_back(k, value());
                ws();
                if (s[i] == ',') {
                    i++;
                    continue;
                }
                if (s[i] == '}') {
                    i++;
                    return v;
                }
                fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.type = Value::Array;
            i++;
            ws();
            if (s[i] == ']') {
                i++;
                return v;
            }
            for (;;) {
                v.arr.push_back(value());
                ws();
                if (s[i] == ',') {
                    i++;
                    continue;
                }
                if (s[i] == ']') {
                    i++;
                    return v;
                }
                fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            v.type = Value::String;
            v.str = string();
            return v;
        }
        if (lit("null"))
            return v;
        if (lit("true")) {
            v.type = Value::Bool;
            v.b = true;
            return v;
        }
        if (lit("false")) {
            v.type = Value::Bool;
            return v;
        }
        const char *start = s.c_str() + i;
        char *end = nullptr;
        v.num = std::strtod(start, &end);
        if (end == start)
            fail("bad value");
        v.type = Value::Number;
        i += static_cast<size_t>(end - start);
        return v;
    }
};

} // namespace

Value parse(const std::string &text)
{
    Parser p{text};
    Value v = p.value();
    p.ws();
    if (p.i != text.size())
        p.fail("trailing characters");
    return v;
}

Value parse_file(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot open " + path);
    std::stringstream ss;
    ss << f.rdbuf();
    return parse(ss.str());
}

} // namespace testjson
