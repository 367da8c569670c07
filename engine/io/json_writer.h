// The engine's one JSON writer: everything the program prints or saves as JSON goes through
// it, so every output is valid RFC 8259 that the strict parser (json.h) reads back.
//
// Contract:
// - Commas and colons are placed by the writer; the caller only opens, names and closes.
//   Misuse (a value where a key is due, a key outside an object, closing what is not open,
//   str() before the outermost value is closed) throws std::logic_error.
// - Keys and strings are escaped as quote() below does: '"' and '\\' with a backslash,
//   control characters and DEL as \u00XX, valid UTF-8 copied as is, each invalid byte
//   written as U+FFFD.
// - A double that is NaN or ±infinity is written as null: JSON has no literal for them.
//   Finite doubles are printed as the Format says (printf's %.Ng or %.Nf, or the shortest
//   text that reads back to the same double), so each output keeps the digits it always had.
// - Integers are printed exactly; bools as true/false.
// - No whitespace is written: one document is one line.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnviz::io::json {

/// `s` as a JSON string literal with quotes: '"' and '\\' escaped with a backslash, every
/// control character and DEL as \u00XX (one form for all of them), other UTF-8 as is, never
/// \u-escaped (as serde_json writes it).  Each invalid UTF-8 byte becomes U+FFFD.  The one
/// escaper: Writer's keys and strings go through it too.
std::string quote(std::string_view s);

/// How Writer::value(double) prints a finite number.
struct Format {
    enum class Style {
        Shortest,  ///< the shortest text that reads back as the same double (std::to_chars)
        General,   ///< printf "%.<digits>g": `digits` significant digits
        Fixed,     ///< printf "%.<digits>f": `digits` digits after the point
    };
    Style style = Style::Shortest;
    int digits = 0;

    static constexpr Format shortest() { return {}; }
    static constexpr Format general(int significant) { return {Style::General, significant}; }
    static constexpr Format fixed(int decimals) { return {Style::Fixed, decimals}; }
};

/// An integer type but bool, char, char8_t, char16_t, char32_t and wchar_t: those hold truth
/// and text, not numbers (std::uint8_t is a number).
template <class T>
concept Integer = std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char> &&
                  !std::same_as<T, char8_t> && !std::same_as<T, char16_t> &&
                  !std::same_as<T, char32_t> && !std::same_as<T, wchar_t>;

/// Writes one JSON document: open, name and close in order; each call returns the writer, so
/// calls chain.  A function that writes part of a document takes the Writer&.
class Writer {
  public:
    Writer& begin_object();
    Writer& end_object();
    Writer& begin_array();
    Writer& end_array();

    /// The next member's name; a value (or an object/array) must follow.
    Writer& key(std::string_view name);

    Writer& value(std::string_view s);
    Writer& value(const char* s) { return value(std::string_view(s)); }
    Writer& value(const std::string& s) { return value(std::string_view(s)); }
    Writer& value(bool b);
    Writer& value(std::nullptr_t);
    /// Finite: as `format` says; NaN and ±infinity: null.
    Writer& value(double v, Format format = Format::shortest());
    /// As value(double), but Format::shortest() is the shortest text that reads back as the
    /// same float (1e-05f as "1e-05", not the double's "9.999999747378752e-06").
    Writer& value(float v, Format format = Format::shortest());

    /// Printed exactly.
    template <Integer T>
    Writer& value(T v) {
        if constexpr (std::signed_integral<T>)
            return signed_integer(static_cast<std::int64_t>(v));
        else
            return unsigned_integer(static_cast<std::uint64_t>(v));
    }

    /// key(name).value(v): one member of an object.
    template <typename T>
    Writer& member(std::string_view name, T&& v) {
        key(name);
        return value(std::forward<T>(v));
    }
    Writer& member(std::string_view name, double v, Format format) {
        key(name);
        return value(v, format);
    }
    Writer& member(std::string_view name, float v, Format format) {
        key(name);
        return value(v, format);
    }

    /// True once one complete value (the document) has been written.
    bool complete() const;
    /// The document written so far; throws std::logic_error unless complete().
    const std::string& str() const;
    /// The document, moved out; the writer is left empty (ready for a new document).
    std::string take();

  private:
    enum class Scope : unsigned char { Object, Array };
    Writer& open(Scope scope);
    Writer& close(Scope scope);
    Writer& signed_integer(std::int64_t v);
    Writer& unsigned_integer(std::uint64_t v);
    /// Writes the comma before a value, checks a value may stand here.
    void before_value();
    void after_value();

    std::string out_;
    std::vector<Scope> open_;
    bool first_ = true;         ///< nothing written yet in the innermost open scope
    bool key_pending_ = false;  ///< key() written, its value not yet
    bool done_ = false;         ///< the outermost value is complete
};

}  // namespace attnviz::io::json
