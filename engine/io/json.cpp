#include "engine/io/json.h"

#include <algorithm>
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

/// `text` with every integer literal too long for 64 bits written with a fraction ("…656" →
/// "…656.0"), or nullopt if it has none.  transformers writes its VERY_LARGE_INTEGER (1e30) as
/// `model_max_length`; that is valid JSON, but simdjson's DOM refuses integers past 64 bits,
/// and reads the same literal with a fraction as the nearest double, which is what such a value
/// means.  Strings are skipped (escapes included), so no string's content changes.
std::optional<std::string> widen_big_integers(std::string_view text) {
    std::string out;
    bool changed = false;
    std::size_t copied = 0;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
            ++i;
            continue;
        }
        const bool sign = c == '-';
        if (!sign && !(c >= '0' && c <= '9')) {
            ++i;
            continue;
        }
        std::size_t j = i + (sign ? 1 : 0);
        const std::size_t digits_begin = j;
        while (j < text.size() && text[j] >= '0' && text[j] <= '9')
            ++j;
        const std::string_view digits = text.substr(digits_begin, j - digits_begin);
        const bool integer =
            j >= text.size() || (text[j] != '.' && text[j] != 'e' && text[j] != 'E');
        // Past uint64 (or int64 when negative): longer, or as long and larger.
        const std::string_view limit = sign ? "9223372036854775808" : "18446744073709551615";
        if (integer &&
            (digits.size() > limit.size() || (digits.size() == limit.size() && digits > limit))) {
            out.append(text.substr(copied, j - copied));
            out += ".0";
            copied = j;
            changed = true;
        }
        // Skip the rest of the number (fraction, exponent) so its digits are not re-read.
        while (j < text.size() &&
               (text[j] == '.' || text[j] == 'e' || text[j] == 'E' || text[j] == '+' ||
                text[j] == '-' || (text[j] >= '0' && text[j] <= '9')))
            ++j;
        i = std::max(j, i + 1);
    }
    if (!changed) return std::nullopt;
    out.append(text.substr(copied));
    return out;
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
    if (result.error() == simdjson::NUMBER_ERROR) {
        // Only on failure: the common file pays nothing for the scan.
        if (const auto widened = widen_big_integers(text)) {
            doc.parser_ = std::make_unique<simdjson::dom::parser>();
            if (auto err = doc.parser_->allocate(widened->size(), limits.max_depth))
                throw ParseError(std::string("cannot parse JSON: ") + simdjson::error_message(err));
            result = doc.parser_->parse(widened->data(), widened->size(), true);
        }
    }
    if (result.error() == simdjson::DEPTH_ERROR)
        throw ParseError("arrays and objects nested deeper than " +
                         std::to_string(limits.max_depth));
    if (result.error()) throw ParseError(simdjson::error_message(result.error()));
    doc.root_ = result.value_unsafe();
    check_unique_keys(doc.root_);
    return doc;
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
