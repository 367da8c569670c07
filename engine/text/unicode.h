// The small part of Unicode the tokenizer needs, written out by hand so the engine needs
// no ICU: UTF-8 decoding with replacement of invalid bytes, a coarse character
// classification, and simple (one code point to one code point) lowercasing.
//
// The tables follow Unicode 15 closely enough for tokenizing typed or pasted text; they are
// not a general-purpose Unicode library.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace attnviz::text::unicode {

inline constexpr char32_t kReplacementChar = 0xFFFD;
inline constexpr char32_t kZeroWidthJoiner = 0x200D;
inline constexpr char32_t kVariationSelector16 = 0xFE0F;
inline constexpr char32_t kCombiningKeycap = 0x20E3;

struct Decoded {
    char32_t code_point;
    std::size_t length;  ///< bytes consumed, always >= 1
};

/// Decodes the code point that starts at bytes[pos] (pos < bytes.size()).
/// Invalid input decodes as U+FFFD, one per maximal subpart of an ill-formed sequence
/// (Unicode §3.9, "U+FFFD Substitution of Maximal Subparts", as the WHATWG decoder does):
/// overlong forms (C0, C1, E0 80..9F, F0 80..8F), surrogates (ED A0..BF), values above
/// U+10FFFF (F4 90.., F5..FF), lone continuation bytes and truncated sequences.
/// Examples: "\xC0\xAF" -> FFFD FFFD; "\xED\xA0\x80" -> FFFD FFFD FFFD; "\xE4\xBD" -> FFFD.
Decoded decode(std::string_view bytes, std::size_t pos);

/// Appends the UTF-8 encoding of cp; a surrogate or a value above U+10FFFF appends U+FFFD.
void append_utf8(std::string& out, char32_t cp);

/// The bytes with every invalid UTF-8 subpart replaced by U+FFFD (valid input is unchanged).
std::string sanitize_utf8(std::string_view bytes);

/// How the tokenizer treats a code point.
enum class CharClass : unsigned char {
    Whitespace,         ///< White_Space: ASCII spaces/tabs/newlines, NBSP, U+3000, U+2000..200A...
    Ignorable,          ///< dropped: C0/C1 controls, format characters (U+200B, BOM, bidi marks)
    Joiner,             ///< ZWJ, ZWNJ: kept inside words and emoji sequences, dropped elsewhere
    Mark,               ///< generic combining marks: they extend whatever token precedes them
    VariationSelector,  ///< FE00..FE0F, E0100..E01EF: extend the preceding token
    Tag,                ///< E0020..E007F: extend an emoji (subdivision flags), dropped elsewhere
    Word,               ///< letters, digits and marks of every other script
    Punctuation,        ///< punctuation and symbols: one token each (also U+FFFD)
    Ideograph,          ///< CJK ideographs, kana, hangul, bopomofo: one token each
    Emoji,              ///< emoji that can start or continue a ZWJ sequence
    RegionalIndicator,  ///< 1F1E6..1F1FF: paired into flags
    EmojiModifier,      ///< skin tones 1F3FB..1F3FF: extend a preceding emoji
};

CharClass classify(char32_t cp);

bool is_whitespace(char32_t cp);

/// Decimal digits of ASCII, fullwidth forms, Arabic-Indic, Extended Arabic-Indic, Devanagari.
bool is_decimal_digit(char32_t cp);

/// Simple lowercase mapping for ASCII, Latin-1 Supplement, Latin Extended-A, Latin Extended
/// Additional (Vietnamese), Greek (not polytonic), Cyrillic, Armenian and fullwidth Latin;
/// every other code point maps to itself.  Final-sigma selection is left to the caller.
char32_t to_lower(char32_t cp);

}  // namespace attnviz::text::unicode
