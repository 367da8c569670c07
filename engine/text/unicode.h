// The small part of Unicode the demo tokenizer needs: UTF-8 decoding with replacement of
// invalid bytes, a coarse character classification, and simple (one code point to one code
// point) lowercasing.  The Hugging Face tokenizers (hf/) use its decoder, encoder and the
// whitespace and punctuation predicates too.  Classification and case come from utf8proc's
// Unicode data (Debian's libutf8proc, Unicode 15), not from tables of our own.
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
    bool replaced;       ///< the bytes were ill-formed: code_point is the U+FFFD standing for them
};

/// Which multi-byte sequences decode() accepts.  Both replace the same lone bytes (80..C1,
/// F5..FF) and truncated sequences; they differ only in the first continuation byte.
enum class Utf8Check : unsigned char {
    /// Well-formed UTF-8 only (Unicode Table 3-7): text from outside.
    Strict,
    /// A lead byte C2..F4 and as many 80..BF bytes as it announces, decoded bit for bit, so
    /// 3- and 4-byte overlongs, surrogates and values up to U+13FFFF come out as numbers:
    /// what HfTokenizer's display of byte-level tokens shows for the bytes they spell.
    Lenient,
};

/// Decodes the code point that starts at bytes[pos] (pos < bytes.size()).
/// Invalid input decodes as U+FFFD, one per maximal subpart of an ill-formed sequence
/// (Unicode §3.9, "U+FFFD Substitution of Maximal Subparts", as the WHATWG decoder does):
/// overlong forms (C0, C1, E0 80..9F, F0 80..8F), surrogates (ED A0..BF), values above
/// U+10FFFF (F4 90.., F5..FF), lone continuation bytes and truncated sequences.
/// Examples: "\xC0\xAF" -> FFFD FFFD; "\xED\xA0\x80" -> FFFD FFFD FFFD; "\xE4\xBD" -> FFFD.
/// With Utf8Check::Lenient, "\xED\xA0\x80" -> D800 and "\xE0\x80\x80" -> 0000 instead.
Decoded decode(std::string_view bytes, std::size_t pos, Utf8Check check = Utf8Check::Strict);

/// Appends the UTF-8 encoding of cp; a surrogate or a value above U+10FFFF appends U+FFFD.
void append_utf8(std::string& out, char32_t cp);

/// The bytes with every invalid UTF-8 subpart replaced by U+FFFD (valid input is unchanged).
std::string sanitize_utf8(std::string_view bytes);

/// How the tokenizer treats a code point (the Unicode property deciding it in brackets).
enum class CharClass : unsigned char {
    Whitespace,  ///< [White_Space] ASCII spaces/tabs/newlines, NEL, NBSP, U+3000, U+2000..200A
    Ignorable,   ///< [Cc, Cf] dropped: controls, format characters (U+200B, BOM, bidi marks)
    Joiner,      ///< ZWJ, ZWNJ: kept inside words and emoji sequences, dropped elsewhere
    Mark,        ///< generic combining marks [Me, or combining class 1, 8 or >= 200] and
                 ///< Hangul vowel/trailing jamo: they extend whatever token precedes them
    VariationSelector,  ///< FE00..FE0F, E0100..E01EF: extend the preceding token
    Tag,                ///< E0020..E007F: extend an emoji (subdivision flags), dropped elsewhere
    Word,               ///< letters, digits, script-specific marks (Arabic fatha, Devanagari
                        ///< matras), private use, unassigned code points
    Punctuation,        ///< [P*, S*] punctuation and symbols: one token each (also U+FFFD)
    Ideograph,          ///< [wide Lo, Lm, Nl, So] CJK ideographs, kana, hangul, bopomofo,
                        ///< radicals: one token each
    Emoji,              ///< [Extended_Pictographic] emoji that can start or continue a ZWJ
                        ///< sequence (also ©, ®, ™, ‼)
    RegionalIndicator,  ///< 1F1E6..1F1FF: paired into flags
    EmojiModifier,      ///< skin tones 1F3FB..1F3FF: extend a preceding emoji
};

/// Halfwidth and fullwidth forms take the class of the character they are a variant of.
CharClass classify(char32_t cp);

/// The White_Space property (Z* categories, \t..\r, U+0085), as Rust's char::is_whitespace.
bool is_whitespace(char32_t cp);

/// General category P* (Pc Pd Ps Pe Pi Pf Po), as the unicode_categories crate's
/// is_punctuation.  Symbols (S*) are not included.
bool is_punctuation(char32_t cp);

/// Decimal digits of every script (general category Nd).
bool is_decimal_digit(char32_t cp);

/// The simple lowercase mapping of UnicodeData.txt (İ -> i, ẞ -> ß); code points without one
/// map to themselves.  Final-sigma selection is left to the caller.
char32_t to_lower(char32_t cp);

}  // namespace attnviz::text::unicode
