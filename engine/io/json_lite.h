// A small strict JSON parser (RFC 8259) for the headers of files we did not write.
//
// Strict: one value and nothing but whitespace after it; no comments, no trailing commas,
// no NaN/Infinity, no leading zeros, no raw control characters in strings; strings must be
// valid UTF-8 and \u escapes must pair their surrogates; an object may not repeat a key.
// Bounded: nesting depth is limited (so a hostile "[[[[..." cannot exhaust the stack) and the
// work is linear in the input.  Numbers are kept as written; integer accessors check range.
// Errors throw json::ParseError with the byte offset of the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::io::json {

class ParseError : public std::runtime_error {
  public:
    ParseError(const std::string& what, std::size_t offset)
        : std::runtime_error(what + " at byte " + std::to_string(offset)), offset_(offset) {}
    std::size_t offset() const { return offset_; }

  private:
    std::size_t offset_;
};

struct Limits {
    std::size_t max_depth = 64;  ///< arrays/objects nested deeper than this are an error
};

struct Member;

struct Value {
    enum class Type { Null, Bool, Number, String, Array, Object };

    Type type = Type::Null;
    bool boolean = false;
    std::string text;             ///< String: the decoded UTF-8; Number: the literal as written
    std::vector<Value> items;     ///< Array elements
    std::vector<Member> members;  ///< Object members in document order; keys are unique

    // Defined below, once Member is complete.
    Value();
    Value(const Value&);
    Value(Value&&) noexcept;
    Value& operator=(const Value&);
    Value& operator=(Value&&) noexcept;
    ~Value();

    bool is_null() const { return type == Type::Null; }
    bool is_bool() const { return type == Type::Bool; }
    bool is_number() const { return type == Type::Number; }
    bool is_string() const { return type == Type::String; }
    bool is_array() const { return type == Type::Array; }
    bool is_object() const { return type == Type::Object; }

    /// "an object", "a string", ... for error messages.
    const char* type_name() const;

    /// The member called `key`, or nullptr (also when this is not an object).
    const Value* find(std::string_view key) const;

    /// True for a number written without fraction or exponent ("12", "-3"; not "1.0", "1e3").
    bool is_integer() const;
    /// The integer value if is_integer() and it fits, else nullopt.
    std::optional<std::int64_t> as_int64() const;
    std::optional<std::uint64_t> as_uint64() const;
};

struct Member {
    std::string key;
    Value value;
};

inline Value::Value() = default;
inline Value::Value(const Value&) = default;
inline Value::Value(Value&&) noexcept = default;
inline Value& Value::operator=(const Value&) = default;
inline Value& Value::operator=(Value&&) noexcept = default;
inline Value::~Value() = default;

/// Parses exactly one JSON value from `text`.
Value parse(std::string_view text, const Limits& limits = {});

/// `s` as a JSON string literal with quotes; escapes '"', '\\' and control characters and
/// leaves other UTF-8 as is (as serde_json does).  `s` must be valid UTF-8.
std::string quote(std::string_view s);

/// True if `s` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
bool is_valid_utf8(std::string_view s);

}  // namespace attnviz::io::json
