#include "engine/text/unicode.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace attnviz::text::unicode {

Decoded decode(std::string_view bytes, std::size_t pos) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::size_t n = bytes.size();
    const unsigned b0 = p[pos];
    if (b0 < 0x80) return {static_cast<char32_t>(b0), 1};

    // Table 3-7 of the Unicode standard: the lead byte fixes the number of continuation
    // bytes and the allowed range of the first one (excluding overlongs and surrogates).
    std::size_t continuation;
    char32_t cp;
    unsigned lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        continuation = 1;
        cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        continuation = 2;
        cp = b0 & 0x0F;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        continuation = 3;
        cp = b0 & 0x07;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else {
        return {kReplacementChar, 1};  // continuation byte, C0, C1, F5..FF
    }
    std::size_t i = pos + 1;
    for (std::size_t k = 0; k < continuation; ++k, ++i) {
        // The bytes accepted so far are the maximal subpart: one U+FFFD replaces them all.
        if (i >= n) return {kReplacementChar, i - pos};
        const unsigned b = p[i];
        if (b < lo || b > hi) return {kReplacementChar, i - pos};
        cp = (cp << 6) | (b & 0x3F);
        lo = 0x80;
        hi = 0xBF;
    }
    return {cp, i - pos};
}

void append_utf8(std::string& out, char32_t cp) {
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacementChar;
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::string sanitize_utf8(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size());
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        const Decoded d = decode(bytes, pos);
        if (d.code_point == kReplacementChar)
            append_utf8(out, kReplacementChar);
        else
            out.append(bytes.substr(pos, d.length));
        pos += d.length;
    }
    return out;
}

namespace {

struct Range {
    char32_t first;
    char32_t last;
    CharClass cls;
};

using C = CharClass;

// Non-ASCII code points that are not word characters, sorted and disjoint; everything not
// listed (Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari and their marks, Thai, private
// use...) is a word character.
constexpr Range kRanges[] = {
    {0x0080, 0x0084, C::Ignorable},
    {0x0085, 0x0085, C::Whitespace},
    {0x0086, 0x009F, C::Ignorable},
    {0x00A0, 0x00A0, C::Whitespace},
    {0x00A1, 0x00A9, C::Punctuation},  // ¡ ¢ £ ¤ ¥ ¦ § ¨ ©
    {0x00AB, 0x00AC, C::Punctuation},  // « ¬
    {0x00AD, 0x00AD, C::Ignorable},    // soft hyphen
    {0x00AE, 0x00B1, C::Punctuation},  // ® ¯ ° ±
    {0x00B4, 0x00B4, C::Punctuation},
    {0x00B6, 0x00B8, C::Punctuation},  // ¶ · ¸
    {0x00BB, 0x00BB, C::Punctuation},
    {0x00BF, 0x00BF, C::Punctuation},
    {0x00D7, 0x00D7, C::Punctuation},
    {0x00F7, 0x00F7, C::Punctuation},
    {0x0300, 0x036F, C::Mark},
    {0x037E, 0x037E, C::Punctuation},  // Greek question mark
    {0x0387, 0x0387, C::Punctuation},
    {0x0483, 0x0489, C::Mark},
    {0x055A, 0x055F, C::Punctuation},  // Armenian
    {0x0589, 0x058A, C::Punctuation},
    {0x05BE, 0x05BE, C::Punctuation},  // Hebrew
    {0x05C0, 0x05C0, C::Punctuation},
    {0x05C3, 0x05C3, C::Punctuation},
    {0x05C6, 0x05C6, C::Punctuation},
    {0x05F3, 0x05F4, C::Punctuation},
    {0x0600, 0x0605, C::Ignorable},    // Arabic number signs (format)
    {0x0609, 0x060D, C::Punctuation},  // ، and friends
    {0x061B, 0x061B, C::Punctuation},  // ؛
    {0x061C, 0x061C, C::Ignorable},    // Arabic letter mark
    {0x061D, 0x061F, C::Punctuation},  // ؟
    {0x066A, 0x066D, C::Punctuation},
    {0x06D4, 0x06D4, C::Punctuation},
    {0x06DD, 0x06DD, C::Ignorable},
    {0x070F, 0x070F, C::Ignorable},
    {0x08E2, 0x08E2, C::Ignorable},
    {0x0964, 0x0965, C::Punctuation},  // Devanagari danda
    {0x0970, 0x0970, C::Punctuation},
    {0x0E3F, 0x0E3F, C::Punctuation},  // Thai baht
    {0x0E4F, 0x0E4F, C::Punctuation},
    {0x0E5A, 0x0E5B, C::Punctuation},
    {0x1100, 0x115F, C::Ideograph},  // Hangul leading jamo
    {0x1160, 0x11FF, C::Mark},       // Hangul vowel and trailing jamo
    {0x1680, 0x1680, C::Whitespace},
    {0x180E, 0x180E, C::Ignorable},
    {0x1AB0, 0x1AFF, C::Mark},
    {0x1DC0, 0x1DFF, C::Mark},
    {0x2000, 0x200A, C::Whitespace},
    {0x200B, 0x200B, C::Ignorable},  // zero width space
    {0x200C, 0x200D, C::Joiner},
    {0x200E, 0x200F, C::Ignorable},
    {0x2010, 0x2027, C::Punctuation},
    {0x2028, 0x2029, C::Whitespace},
    {0x202A, 0x202E, C::Ignorable},
    {0x202F, 0x202F, C::Whitespace},
    {0x2030, 0x203B, C::Punctuation},
    {0x203C, 0x203C, C::Emoji},  // ‼
    {0x203D, 0x2048, C::Punctuation},
    {0x2049, 0x2049, C::Emoji},  // ⁉
    {0x204A, 0x205E, C::Punctuation},
    {0x205F, 0x205F, C::Whitespace},
    {0x2060, 0x206F, C::Ignorable},    // word joiner, invisible operators, bidi isolates
    {0x20A0, 0x20CF, C::Punctuation},  // currency
    {0x20D0, 0x20FF, C::Mark},         // incl. the combining keycap 20E3
    {0x2122, 0x2122, C::Emoji},        // ™
    {0x2139, 0x2139, C::Emoji},
    {0x2190, 0x2193, C::Punctuation},
    {0x2194, 0x2199, C::Emoji},
    {0x219A, 0x21A8, C::Punctuation},
    {0x21A9, 0x21AA, C::Emoji},
    {0x21AB, 0x2319, C::Punctuation},  // arrows, mathematical operators, technical
    {0x231A, 0x231B, C::Emoji},
    {0x231C, 0x2327, C::Punctuation},
    {0x2328, 0x2328, C::Emoji},
    {0x2329, 0x23CE, C::Punctuation},
    {0x23CF, 0x23CF, C::Emoji},
    {0x23D0, 0x23E8, C::Punctuation},
    {0x23E9, 0x23F3, C::Emoji},
    {0x23F4, 0x23F7, C::Punctuation},
    {0x23F8, 0x23FA, C::Emoji},
    {0x23FB, 0x24C1, C::Punctuation},  // control pictures, OCR, enclosed alphanumerics ①
    {0x24C2, 0x24C2, C::Emoji},
    {0x24C3, 0x25A9, C::Punctuation},  // box drawing, blocks, geometric shapes
    {0x25AA, 0x25AB, C::Emoji},
    {0x25AC, 0x25B5, C::Punctuation},
    {0x25B6, 0x25B6, C::Emoji},
    {0x25B7, 0x25BF, C::Punctuation},
    {0x25C0, 0x25C0, C::Emoji},
    {0x25C1, 0x25FA, C::Punctuation},
    {0x25FB, 0x25FE, C::Emoji},
    {0x25FF, 0x25FF, C::Punctuation},
    {0x2600, 0x27BF, C::Emoji},  // miscellaneous symbols, dingbats
    {0x27C0, 0x27FF, C::Punctuation},
    {0x2900, 0x2933, C::Punctuation},
    {0x2934, 0x2935, C::Emoji},
    {0x2936, 0x2B04, C::Punctuation},
    {0x2B05, 0x2B07, C::Emoji},
    {0x2B08, 0x2B1A, C::Punctuation},
    {0x2B1B, 0x2B1C, C::Emoji},
    {0x2B1D, 0x2B4F, C::Punctuation},
    {0x2B50, 0x2B50, C::Emoji},
    {0x2B51, 0x2B54, C::Punctuation},
    {0x2B55, 0x2B55, C::Emoji},
    {0x2B56, 0x2BFF, C::Punctuation},
    {0x2E00, 0x2E7F, C::Punctuation},  // supplemental punctuation
    {0x2E80, 0x2FFF, C::Ideograph},    // radicals, Kangxi, description characters
    {0x3000, 0x3000, C::Whitespace},   // ideographic space
    {0x3001, 0x3004, C::Punctuation},  // 、 。
    {0x3005, 0x3007, C::Ideograph},    // 々 〆 〇
    {0x3008, 0x3020, C::Punctuation},  // 「 」 【 】 〜 ...
    {0x3021, 0x3029, C::Ideograph},
    {0x302A, 0x302F, C::Mark},
    {0x3030, 0x3030, C::Emoji},
    {0x3031, 0x3035, C::Ideograph},
    {0x3036, 0x3037, C::Punctuation},
    {0x3038, 0x303C, C::Ideograph},
    {0x303D, 0x303D, C::Emoji},
    {0x303E, 0x303F, C::Punctuation},
    {0x3040, 0x3098, C::Ideograph},  // hiragana
    {0x3099, 0x309A, C::Mark},       // combining (han)dakuten
    {0x309B, 0x3296, C::Ideograph},  // katakana, bopomofo, compatibility jamo, enclosed CJK
    {0x3297, 0x3297, C::Emoji},
    {0x3298, 0x3298, C::Ideograph},
    {0x3299, 0x3299, C::Emoji},
    {0x329A, 0x4DBF, C::Ideograph},    // CJK compatibility, Extension A
    {0x4DC0, 0x4DFF, C::Punctuation},  // Yijing hexagram symbols
    {0x4E00, 0x9FFF, C::Ideograph},    // CJK Unified Ideographs
    {0xA960, 0xA97F, C::Ideograph},    // Hangul jamo extended-A
    {0xAC00, 0xD7AF, C::Ideograph},    // Hangul syllables
    {0xD7B0, 0xD7FF, C::Mark},         // Hangul jamo extended-B
    {0xF900, 0xFAFF, C::Ideograph},    // CJK compatibility ideographs
    {0xFE00, 0xFE0F, C::VariationSelector},
    {0xFE10, 0xFE1F, C::Punctuation},  // vertical forms
    {0xFE20, 0xFE2F, C::Mark},
    {0xFE30, 0xFE6F, C::Punctuation},  // CJK compatibility forms, small form variants
    {0xFEFF, 0xFEFF, C::Ignorable},    // BOM / zero width no-break space
    {0xFF01, 0xFF0F, C::Punctuation},  // ！ ＂ ＃ ... ／
    {0xFF1A, 0xFF20, C::Punctuation},  // ： ； ＜ ＝ ＞ ？ ＠
    {0xFF3B, 0xFF40, C::Punctuation},
    {0xFF5B, 0xFF65, C::Punctuation},  // ｛ ｜ ｝ ～ and halfwidth CJK punctuation
    {0xFF66, 0xFF9D, C::Ideograph},    // halfwidth katakana
    {0xFF9E, 0xFF9F, C::Mark},         // halfwidth (han)dakuten
    {0xFFA0, 0xFFDC, C::Ideograph},    // halfwidth hangul
    {0xFFE0, 0xFFEE, C::Punctuation},  // fullwidth ￥ ￡ and halfwidth symbols
    {0xFFF9, 0xFFFB, C::Ignorable},
    {0xFFFC, 0xFFFD, C::Punctuation},  // object replacement, replacement character
    {0x110BD, 0x110BD, C::Ignorable},
    {0x110CD, 0x110CD, C::Ignorable},
    {0x13430, 0x1343F, C::Ignorable},
    {0x16FE0, 0x16FFF, C::Ideograph},
    {0x17000, 0x18CFF, C::Ideograph},  // Tangut, Khitan
    {0x1AFF0, 0x1B16F, C::Ideograph},  // kana supplement and extensions
    {0x1BCA0, 0x1BCA3, C::Ignorable},
    {0x1D173, 0x1D17A, C::Ignorable},
    {0x1F000, 0x1F1E5, C::Emoji},  // mahjong, cards, enclosed alphanumeric supplement
    {0x1F1E6, 0x1F1FF, C::RegionalIndicator},
    {0x1F200, 0x1F3FA, C::Emoji},
    {0x1F3FB, 0x1F3FF, C::EmojiModifier},
    {0x1F400, 0x1FAFF, C::Emoji},
    {0x1FB00, 0x1FBFF, C::Punctuation},  // legacy computing symbols
    {0x20000, 0x3FFFF, C::Ideograph},    // Extensions B..I, compatibility supplement
    {0xE0001, 0xE0001, C::Ignorable},
    {0xE0020, 0xE007F, C::Tag},
    {0xE0100, 0xE01EF, C::VariationSelector},
};

constexpr bool ranges_sorted_and_disjoint() {
    for (std::size_t i = 0; i < std::size(kRanges); ++i) {
        if (kRanges[i].first > kRanges[i].last) return false;
        if (i > 0 && kRanges[i - 1].last >= kRanges[i].first) return false;
    }
    return kRanges[0].first >= 0x80;
}
static_assert(ranges_sorted_and_disjoint(), "kRanges must be sorted, disjoint and non-ASCII");

constexpr std::array<CharClass, 128> make_ascii_table() {
    std::array<CharClass, 128> t{};
    for (unsigned c = 0; c < 128; ++c) {
        if (c == ' ' || (c >= 0x09 && c <= 0x0D))
            t[c] = C::Whitespace;
        else if (c < 0x20 || c == 0x7F)
            t[c] = C::Ignorable;
        else if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
            t[c] = C::Word;
        else
            t[c] = C::Punctuation;
    }
    return t;
}
constexpr std::array<CharClass, 128> kAscii = make_ascii_table();

}  // namespace

CharClass classify(char32_t cp) {
    if (cp < 0x80) return kAscii[cp];
    // First range whose last code point is >= cp.
    const auto* end = std::end(kRanges);
    const auto* it = std::lower_bound(std::begin(kRanges), end, cp,
                                      [](const Range& r, char32_t c) { return r.last < c; });
    if (it != end && it->first <= cp) return it->cls;
    return C::Word;
}

bool is_whitespace(char32_t cp) {
    return classify(cp) == C::Whitespace;
}

bool is_decimal_digit(char32_t cp) {
    return (cp >= U'0' && cp <= U'9') || (cp >= 0xFF10 && cp <= 0xFF19) ||
           (cp >= 0x0660 && cp <= 0x0669) || (cp >= 0x06F0 && cp <= 0x06F9) ||
           (cp >= 0x0966 && cp <= 0x096F);
}

namespace {

// Upper/lower case pairs laid out as (even upper, odd lower) or (odd upper, even lower).
constexpr bool is_pair_upper(char32_t cp, char32_t first, char32_t last) {
    return cp >= first && cp <= last && ((cp - first) % 2 == 0);
}

}  // namespace

char32_t to_lower(char32_t cp) {
    if (cp < 0x80) return (cp >= U'A' && cp <= U'Z') ? cp + 0x20 : cp;
    // Latin-1 Supplement: À..Þ except ×.
    if (cp >= 0xC0 && cp <= 0xDE) return cp == 0xD7 ? cp : cp + 0x20;
    if (cp < 0x100) return cp;
    // Latin Extended-A.
    if (cp <= 0x17F) {
        if (cp == 0x130) return U'i';  // İ (simple mapping)
        if (cp == 0x178) return 0xFF;  // Ÿ
        if (is_pair_upper(cp, 0x100, 0x12F) || is_pair_upper(cp, 0x132, 0x137) ||
            is_pair_upper(cp, 0x139, 0x148) || is_pair_upper(cp, 0x14A, 0x177) ||
            is_pair_upper(cp, 0x179, 0x17E))
            return cp + 1;
        return cp;
    }
    // Greek and Coptic.
    if (cp >= 0x370 && cp <= 0x3FF) {
        if (cp == 0x370 || cp == 0x372 || cp == 0x376) return cp + 1;
        if (cp == 0x37F) return 0x3F3;
        if (cp == 0x386) return 0x3AC;
        if (cp >= 0x388 && cp <= 0x38A) return cp + 37;
        if (cp == 0x38C) return 0x3CC;
        if (cp == 0x38E || cp == 0x38F) return cp + 63;
        if ((cp >= 0x391 && cp <= 0x3A1) || (cp >= 0x3A3 && cp <= 0x3AB)) return cp + 0x20;
        if (cp == 0x3CF) return 0x3D7;
        if (is_pair_upper(cp, 0x3D8, 0x3EF)) return cp + 1;
        if (cp == 0x3F4) return 0x3B8;
        if (cp == 0x3F7 || cp == 0x3FA) return cp + 1;
        if (cp == 0x3F9) return 0x3F2;
        if (cp >= 0x3FD) return cp - 0x82;  // Ͻ Ͼ Ͽ -> ͻ ͼ ͽ
        return cp;
    }
    // Cyrillic and Cyrillic Supplement.
    if (cp >= 0x400 && cp <= 0x52F) {
        if (cp <= 0x40F) return cp + 0x50;
        if (cp <= 0x42F) return cp + 0x20;
        if (cp == 0x4C0) return 0x4CF;
        if (is_pair_upper(cp, 0x460, 0x481) || is_pair_upper(cp, 0x48A, 0x4BF) ||
            is_pair_upper(cp, 0x4C1, 0x4CE) || is_pair_upper(cp, 0x4D0, 0x52F))
            return cp + 1;
        return cp;
    }
    // Armenian.
    if (cp >= 0x531 && cp <= 0x556) return cp + 0x30;
    // Latin Extended Additional (Vietnamese and others).
    if (cp >= 0x1E00 && cp <= 0x1EFF) {
        if (cp == 0x1E9E) return 0xDF;  // ẞ
        if (is_pair_upper(cp, 0x1E00, 0x1E95) || is_pair_upper(cp, 0x1EA0, 0x1EFF)) return cp + 1;
        return cp;
    }
    // Fullwidth Latin.
    if (cp >= 0xFF21 && cp <= 0xFF3A) return cp + 0x20;
    return cp;
}

}  // namespace attnviz::text::unicode
