// The Unicode questions Hugging Face's tokenizers ask, answered by utf8proc (categories,
// canonical combining classes, decompositions, compositions, lowercase), so that the answers
// follow Unicode data rather than hand-written tables.  Each predicate names the Rust
// function whose meaning it reproduces.
//
// UTF-8 helpers here assume valid UTF-8: every string inside the tokenizer has been
// sanitised (invalid bytes -> U+FFFD) before it gets here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/text/unicode.h"

namespace attnviz::text::hf::uni {

/// Byte length of the UTF-8 sequence a lead byte starts (1 for ASCII and stray bytes).
inline std::size_t utf8_len(unsigned char lead) {
    return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
}
inline std::size_t utf8_len(char32_t c) {
    return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/// The code point starting at s[i] (valid UTF-8); *len receives its byte length.  No checks,
/// for the inner loops over text already sanitised or validated; unicode::decode is the one
/// that checks.
inline char32_t decode(std::string_view s, std::size_t i, std::size_t* len) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
    const unsigned b0 = p[0];
    if (b0 < 0x80) {
        *len = 1;
        return b0;
    }
    if (b0 < 0xE0) {
        *len = 2;
        return char32_t(((b0 & 0x1F) << 6) | (p[1] & 0x3F));
    }
    if (b0 < 0xF0) {
        *len = 3;
        return char32_t(((b0 & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F));
    }
    *len = 4;
    return char32_t(((b0 & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) |
                    (p[3] & 0x3F));
}

/// The code point that ends at s[end) (valid UTF-8, end > 0); *len receives its length.
char32_t decode_last(std::string_view s, std::size_t end, std::size_t* len);

using unicode::append_utf8;  // the engine's one UTF-8 encoder

/// Number of code points in valid UTF-8.
std::size_t count_chars(std::string_view s);

/// Rust char::is_whitespace and unicode_categories' is_punctuation: the engine's own.
using unicode::is_punctuation;
using unicode::is_whitespace;
/// unicode_categories' is_other: Cc Cf Cn Co Cs (unassigned code points count).
bool is_other(char32_t c);
/// unicode_categories' is_mark_nonspacing: Mn (what BERT's strip_accents removes after NFD).
bool is_mark_nonspacing(char32_t c);
/// unicode-normalization's is_combining_mark: Mn Mc Me (what StripAccents removes).
bool is_combining_mark(char32_t c);
/// Rust char::is_numeric: Nd Nl No.
bool is_numeric(char32_t c);
/// Rust regex's \w: Alphabetic, marks, decimal digits, connector punctuation, ZWJ/ZWNJ.
/// Alphabetic is taken as the letter categories + Nl (utf8proc has no Other_Alphabetic; the
/// few symbols that carry it, such as circled letters, count as non-word characters).
bool is_word_char(char32_t c);
/// ASCII punctuation as Rust's char::is_ascii_punctuation (symbols like $ + < = > ^ ` | ~ too).
inline bool is_ascii_punctuation(char32_t c) {
    return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
           (c >= 0x7B && c <= 0x7E);
}

/// Canonical combining class.
int combining_class(char32_t c);

/// Rust char::to_lowercase: appends the one or more code points of c's lowercase mapping
/// (the simple mapping, plus SpecialCasing's unconditional İ -> i̇); returns how many.
int to_lowercase(char32_t c, char32_t out[3]);

/// The full (recursive) canonical or compatibility decomposition of c into out (c itself
/// when it has none); returns the number of code points (at most 18 in Unicode 15).
int decompose(char32_t c, bool compatibility, char32_t out[32]);

/// The primary composite of a starter and the code point after it, if there is one
/// (Hangul syllables included, composition exclusions excluded).
std::optional<char32_t> compose(char32_t starter, char32_t next);

/// True if NFC/NFD/NFKC/NFKD of s (valid UTF-8) is s itself: most text needs no alignment
/// bookkeeping at all.
bool is_normalized(std::string_view s, bool compose, bool compatibility);

}  // namespace attnviz::text::hf::uni
