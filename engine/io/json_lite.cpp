#include "engine/io/json_lite.h"

#include <charconv>
#include <cstdio>
#include <unordered_set>

namespace attnviz::io::json {

namespace {

// Length of the UTF-8 sequence starting at s[i], or 0 if it is malformed there.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80) return 1;
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;  // overlong
        if (c == 0xED) hi = 0x9F;  // UTF-16 surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;  // overlong
        if (c == 0xF4) hi = 0x8F;  // beyond U+10FFFF
    } else {
        return 0;
    }
    if (s.size() - i < len) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < len; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return len;
}

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

class Parser {
  public:
    Parser(std::string_view text, const Limits& limits) : s_(text), limits_(limits) {}

    Value parse_document() {
        skip_whitespace();
        Value v = parse_value(0);
        skip_whitespace();
        if (pos_ != s_.size()) fail("unexpected " + describe_here() + " after the JSON value");
        return v;
    }

  private:
    std::string_view s_;
    Limits limits_;
    std::size_t pos_ = 0;

    [[noreturn]] void fail(const std::string& what) const { throw ParseError(what, pos_); }

    bool at_end() const { return pos_ >= s_.size(); }
    char peek() const { return s_[pos_]; }

    std::string describe_here() const {
        if (at_end()) return "end of text";
        const auto c = static_cast<unsigned char>(peek());
        char buf[16];
        if (c >= 0x20 && c < 0x7F)
            std::snprintf(buf, sizeof buf, "'%c'", c);
        else
            std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
        return buf;
    }

    void skip_whitespace() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            ++pos_;
    }

    void expect(char c, const char* context) {
        if (at_end() || peek() != c)
            fail(std::string("expected '") + c + "' " + context + ", found " + describe_here());
        ++pos_;
    }

    Value parse_value(std::size_t depth) {
        if (at_end()) fail("expected a value, found end of text");
        switch (peek()) {
            case '{':
                return parse_object(depth + 1);
            case '[':
                return parse_array(depth + 1);
            case '"': {
                Value v;
                v.type = Value::Type::String;
                v.text = parse_string();
                return v;
            }
            case 't':
                return parse_literal("true", Value::Type::Bool, true);
            case 'f':
                return parse_literal("false", Value::Type::Bool, false);
            case 'n':
                return parse_literal("null", Value::Type::Null, false);
            default:
                if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return parse_number();
                fail("expected a value, found " + describe_here());
        }
    }

    void check_depth(std::size_t depth) const {
        if (depth > limits_.max_depth)
            fail("nesting deeper than " + std::to_string(limits_.max_depth) + " levels");
    }

    Value parse_object(std::size_t depth) {
        check_depth(depth);
        Value v;
        v.type = Value::Type::Object;
        ++pos_;  // '{'
        skip_whitespace();
        if (!at_end() && peek() == '}') {
            ++pos_;
            return v;
        }
        std::unordered_set<std::string> keys;
        for (;;) {
            skip_whitespace();
            if (at_end() || peek() != '"')
                fail("expected a string key in an object, found " + describe_here());
            const std::size_t key_pos = pos_;
            std::string key = parse_string();
            if (!keys.insert(key).second)
                throw ParseError("duplicate key " + quote(key) + " in an object", key_pos);
            skip_whitespace();
            expect(':', "after an object key");
            skip_whitespace();
            Value member = parse_value(depth);
            v.members.push_back(Member{std::move(key), std::move(member)});
            skip_whitespace();
            if (!at_end() && peek() == ',') {
                ++pos_;
                continue;
            }
            expect('}', "or ',' after an object member");
            return v;
        }
    }

    Value parse_array(std::size_t depth) {
        check_depth(depth);
        Value v;
        v.type = Value::Type::Array;
        ++pos_;  // '['
        skip_whitespace();
        if (!at_end() && peek() == ']') {
            ++pos_;
            return v;
        }
        for (;;) {
            skip_whitespace();
            v.items.push_back(parse_value(depth));
            skip_whitespace();
            if (!at_end() && peek() == ',') {
                ++pos_;
                continue;
            }
            expect(']', "or ',' after an array element");
            return v;
        }
    }

    Value parse_literal(std::string_view word, Value::Type type, bool b) {
        if (s_.substr(pos_, word.size()) != word)
            fail("expected a value, found " + describe_here());
        pos_ += word.size();
        Value v;
        v.type = type;
        v.boolean = b;
        return v;
    }

    static bool is_digit(char c) { return c >= '0' && c <= '9'; }

    Value parse_number() {
        const std::size_t start = pos_;
        if (peek() == '-') ++pos_;
        if (at_end() || !is_digit(peek())) fail("expected a digit in a number");
        if (peek() == '0') {
            ++pos_;
            if (!at_end() && is_digit(peek())) fail("leading zero in a number");
        } else {
            while (!at_end() && is_digit(peek()))
                ++pos_;
        }
        if (!at_end() && peek() == '.') {
            ++pos_;
            if (at_end() || !is_digit(peek())) fail("expected a digit after '.' in a number");
            while (!at_end() && is_digit(peek()))
                ++pos_;
        }
        if (!at_end() && (peek() == 'e' || peek() == 'E')) {
            ++pos_;
            if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
            if (at_end() || !is_digit(peek())) fail("expected a digit in a number's exponent");
            while (!at_end() && is_digit(peek()))
                ++pos_;
        }
        Value v;
        v.type = Value::Type::Number;
        v.text = std::string(s_.substr(start, pos_ - start));
        return v;
    }

    std::uint32_t parse_hex4() {
        if (s_.size() - pos_ < 4) fail("truncated \\u escape");
        std::uint32_t cp = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = s_[pos_ + static_cast<std::size_t>(k)];
            cp <<= 4;
            if (c >= '0' && c <= '9')
                cp |= static_cast<std::uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                cp |= static_cast<std::uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                cp |= static_cast<std::uint32_t>(c - 'A' + 10);
            else
                fail("invalid hex digit in a \\u escape");
        }
        pos_ += 4;
        return cp;
    }

    std::string parse_string() {
        ++pos_;  // opening quote
        std::string out;
        for (;;) {
            if (at_end()) fail("unterminated string");
            const auto c = static_cast<unsigned char>(peek());
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (c < 0x20) fail("raw control character in a string (must be escaped)");
            if (c == '\\') {
                ++pos_;
                if (at_end()) fail("unterminated string");
                const char e = peek();
                ++pos_;
                switch (e) {
                    case '"':
                        out += '"';
                        break;
                    case '\\':
                        out += '\\';
                        break;
                    case '/':
                        out += '/';
                        break;
                    case 'b':
                        out += '\b';
                        break;
                    case 'f':
                        out += '\f';
                        break;
                    case 'n':
                        out += '\n';
                        break;
                    case 'r':
                        out += '\r';
                        break;
                    case 't':
                        out += '\t';
                        break;
                    case 'u': {
                        const std::size_t esc_pos = pos_ - 2;
                        std::uint32_t cp = parse_hex4();
                        if (cp >= 0xDC00 && cp <= 0xDFFF)
                            throw ParseError("unpaired low surrogate in a \\u escape", esc_pos);
                        if (cp >= 0xD800 && cp <= 0xDBFF) {
                            if (s_.substr(pos_, 2) != "\\u")
                                throw ParseError("unpaired high surrogate in a \\u escape",
                                                 esc_pos);
                            pos_ += 2;
                            const std::uint32_t low = parse_hex4();
                            if (low < 0xDC00 || low > 0xDFFF)
                                throw ParseError("high surrogate not followed by a low one",
                                                 esc_pos);
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        }
                        append_utf8(out, cp);
                        break;
                    }
                    default:
                        --pos_;
                        fail("invalid escape '\\" + std::string(1, e) + "'");
                }
                continue;
            }
            const std::size_t len = utf8_sequence_length(s_, pos_);
            if (len == 0) fail("invalid UTF-8 in a string");
            out.append(s_.substr(pos_, len));
            pos_ += len;
        }
    }
};

}  // namespace

const char* Value::type_name() const {
    switch (type) {
        case Type::Null:
            return "null";
        case Type::Bool:
            return "a boolean";
        case Type::Number:
            return "a number";
        case Type::String:
            return "a string";
        case Type::Array:
            return "an array";
        case Type::Object:
            return "an object";
    }
    return "a value";
}

const Value* Value::find(std::string_view key) const {
    for (const Member& m : members)
        if (m.key == key) return &m.value;
    return nullptr;
}

bool Value::is_integer() const {
    return type == Type::Number && text.find_first_of(".eE") == std::string::npos;
}

std::optional<std::int64_t> Value::as_int64() const {
    if (!is_integer()) return std::nullopt;
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

std::optional<std::uint64_t> Value::as_uint64() const {
    if (!is_integer() || text.front() == '-') return std::nullopt;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

Value parse(std::string_view text, const Limits& limits) {
    return Parser(text, limits).parse_document();
}

std::string quote(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += ch;
                }
        }
    }
    out += '"';
    return out;
}

bool is_valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

}  // namespace attnviz::io::json
