// The engine's one JSON parser: simdjson (Debian's libsimdjson-dev), held to the strictness
// that files we did not write need.  simdjson parses at gigabytes per second with run-time
// dispatch to the widest SIMD unit, which is what an 11 MB tokenizer.json opened on every
// model load asks for (nlohmann's DOM took ~250 ms for Qwen's; simdjson ~50 ms).
//
// Strict: RFC 8259 as simdjson parses it (no comments, no trailing commas, no NaN, no leading
// zeros, the whole text valid UTF-8), plus two rules of our own: an object may not repeat a
// key and arrays/objects may not nest deeper than Limits::max_depth (so "[[[[..." cannot
// exhaust the stack).  Errors throw ParseError.
//
// Elements are simdjson::dom values; they point into the Document, which must outlive them.
// Writing JSON is json_writer.h's (Writer, and quote(), the one escaper).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "engine/io/json_writer.h"

namespace attnviz::io::json {

using Element = simdjson::dom::element;
using Object = simdjson::dom::object;
using Array = simdjson::dom::array;
using Type = simdjson::dom::element_type;

class ParseError : public std::runtime_error {
  public:
    explicit ParseError(const std::string& what) : std::runtime_error(what) {}
};

struct Limits {
    std::size_t max_depth = 64;  ///< arrays/objects nested deeper than this are an error
};

/// A parsed document: owns the parser whose tape its elements point into.  Movable.
class Document {
  public:
    Document();
    Document(Document&&) noexcept;
    Document& operator=(Document&&) noexcept;
    ~Document();
    Element root() const { return root_; }

  private:
    friend Document parse(std::string_view text, const Limits& limits);
    std::unique_ptr<simdjson::dom::parser> parser_;
    Element root_;
};

/// Parses exactly one JSON value from `text`.
Document parse(std::string_view text, const Limits& limits = {});

/// True if `s` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
bool is_valid_utf8(std::string_view s);

/// "an object", "a string", ... for error messages.
const char* type_name(Element v);

/// The member `key` of an object, or nullopt (also when `v` is not an object).
std::optional<Element> find(Element v, std::string_view key);

/// The value of an integer number (no fraction or exponent) if it fits, else nullopt.
std::optional<std::int64_t> as_int64(Element v);
std::optional<std::uint64_t> as_uint64(Element v);
/// Any number as double, else nullopt.
std::optional<double> as_double(Element v);
std::optional<std::string_view> as_string(Element v);
std::optional<bool> as_bool(Element v);

}  // namespace attnviz::io::json
