#include "engine/io/json.h"

#include <unordered_set>
#include <vector>

namespace attnviz::io::json {

namespace {

/// simdjson accepts repeated keys; a header or config that says two things is refused.
void check_unique_keys(Element v) {
    if (v.type() == Type::ARRAY) {
        for (Element item : Array(v))
            if (item.type() == Type::ARRAY || item.type() == Type::OBJECT) check_unique_keys(item);
        return;
    }
    if (v.type() != Type::OBJECT) return;
    const Object obj(v);
    const std::size_t n = obj.size();
    std::unordered_set<std::string_view> seen;
    std::vector<std::string_view> few;
    if (n > 16) seen.reserve(n);
    for (auto [key, value] : obj) {
        bool repeated;
        if (n > 16) {
            repeated = !seen.insert(key).second;
        } else {
            repeated = false;
            for (std::string_view k : few)
                repeated = repeated || k == key;
            few.push_back(key);
        }
        if (repeated) throw ParseError("duplicate key " + quote(key) + " in an object");
        if (value.type() == Type::ARRAY || value.type() == Type::OBJECT) check_unique_keys(value);
    }
}

void append_escaped(std::string& out, char32_t c) {
    static const char* hex = "0123456789abcdef";
    out += "\\u00";
    out += hex[(c >> 4) & 0xF];
    out += hex[c & 0xF];
}

}  // namespace

Document::Document() = default;
Document::Document(Document&&) noexcept = default;
Document& Document::operator=(Document&&) noexcept = default;
Document::~Document() = default;

Document parse(std::string_view text, const Limits& limits) {
    Document doc;
    doc.parser_ = std::make_unique<simdjson::dom::parser>();
    // simdjson's max_depth counts nested arrays/objects exactly as Limits does (a max_depth of
    // 65 let 65 levels through).
    if (auto err = doc.parser_->allocate(std::max<std::size_t>(text.size(), 64), limits.max_depth))
        throw ParseError(std::string("cannot parse JSON: ") + simdjson::error_message(err));
    auto result = doc.parser_->parse(text.data(), text.size(), true);
    if (result.error() == simdjson::DEPTH_ERROR)
        throw ParseError("arrays and objects nested deeper than " +
                         std::to_string(limits.max_depth));
    if (result.error()) throw ParseError(simdjson::error_message(result.error()));
    doc.root_ = result.value_unsafe();
    check_unique_keys(doc.root_);
    return doc;
}

std::string quote(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            // Copy a valid sequence whole; an invalid byte becomes U+FFFD.
            std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            if (i + len <= s.size() && is_valid_utf8(s.substr(i, len)) && c >= 0xC2) {
                out.append(s.substr(i, len));
                i += len;
            } else {
                out += "\xEF\xBF\xBD";
                ++i;
            }
            continue;
        }
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
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
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            default:
                if (c < 0x20 || c == 0x7F)
                    append_escaped(out, c);
                else
                    out += static_cast<char>(c);
        }
        ++i;
    }
    out += '"';
    return out;
}

bool is_valid_utf8(std::string_view s) {
    return simdjson::validate_utf8(s.data(), s.size());
}

const char* type_name(Element v) {
    switch (v.type()) {
        case Type::NULL_VALUE:
            return "null";
        case Type::BOOL:
            return "a boolean";
        case Type::INT64:
        case Type::UINT64:
        case Type::DOUBLE:
            return "a number";
        case Type::STRING:
            return "a string";
        case Type::ARRAY:
            return "an array";
        case Type::OBJECT:
            return "an object";
    }
    return "a value";
}

std::optional<Element> find(Element v, std::string_view key) {
    if (v.type() != Type::OBJECT) return std::nullopt;
    Element out;
    if (Object(v).at_key(key).get(out)) return std::nullopt;
    return out;
}

std::optional<std::int64_t> as_int64(Element v) {
    std::int64_t out;
    if (v.type() == Type::DOUBLE || v.get_int64().get(out)) return std::nullopt;
    return out;
}

std::optional<std::uint64_t> as_uint64(Element v) {
    std::uint64_t out;
    if (v.type() == Type::DOUBLE || v.get_uint64().get(out)) return std::nullopt;
    return out;
}

std::optional<double> as_double(Element v) {
    double out;
    if (v.get_double().get(out)) return std::nullopt;
    return out;
}

std::optional<std::string_view> as_string(Element v) {
    std::string_view out;
    if (v.get_string().get(out)) return std::nullopt;
    return out;
}

std::optional<bool> as_bool(Element v) {
    bool out;
    if (v.get_bool().get(out)) return std::nullopt;
    return out;
}

}  // namespace attnviz::io::json
