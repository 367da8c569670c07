#include "engine/text/unicode.h"

#include <array>
#include <cstdint>

#include <utf8proc.h>

namespace attnviz::text::unicode {

Decoded decode(std::string_view bytes, std::size_t pos, Utf8Check check) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::size_t n = bytes.size();
    const unsigned b0 = p[pos];
    if (b0 < 0x80) return {static_cast<char32_t>(b0), 1, false};

    // Table 3-7 of the Unicode standard: the lead byte fixes the number of continuation
    // bytes and the allowed range of the first one (excluding overlongs and surrogates).
    const bool strict = check == Utf8Check::Strict;
    std::size_t continuation;
    char32_t cp;
    unsigned lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        continuation = 1;
        cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        continuation = 2;
        cp = b0 & 0x0F;
        if (strict && b0 == 0xE0) lo = 0xA0;
        if (strict && b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        continuation = 3;
        cp = b0 & 0x07;
        if (strict && b0 == 0xF0) lo = 0x90;
        if (strict && b0 == 0xF4) hi = 0x8F;
    } else {
        return {kReplacementChar, 1, true};  // continuation byte, C0, C1, F5..FF
    }
    std::size_t i = pos + 1;
    for (std::size_t k = 0; k < continuation; ++k, ++i) {
        // The bytes accepted so far are the maximal subpart: one U+FFFD replaces them all.
        if (i >= n) return {kReplacementChar, i - pos, true};
        const unsigned b = p[i];
        if (b < lo || b > hi) return {kReplacementChar, i - pos, true};
        cp = (cp << 6) | (b & 0x3F);
        lo = 0x80;
        hi = 0xBF;
    }
    return {cp, i - pos, false};
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
        if (d.replaced)
            append_utf8(out, kReplacementChar);
        else
            out.append(bytes.substr(pos, d.length));
        pos += d.length;
    }
    return out;
}

namespace {

using C = CharClass;

utf8proc_category_t category(char32_t cp) {
    return utf8proc_category(static_cast<utf8proc_int32_t>(cp));
}

const utf8proc_property_t* property(char32_t cp) {
    return utf8proc_get_property(static_cast<utf8proc_int32_t>(cp));
}

bool is_punctuation_category(utf8proc_category_t cat) {
    switch (cat) {
        case UTF8PROC_CATEGORY_PC:
        case UTF8PROC_CATEGORY_PD:
        case UTF8PROC_CATEGORY_PS:
        case UTF8PROC_CATEGORY_PE:
        case UTF8PROC_CATEGORY_PI:
        case UTF8PROC_CATEGORY_PF:
        case UTF8PROC_CATEGORY_PO:
            return true;
        default:
            return false;
    }
}

// The classification from Unicode data (utf8proc): general category, canonical combining
// class, grapheme-break class (Extended_Pictographic, Regional_Indicator, Hangul jamo),
// East Asian width and decomposition type.  The few code points named explicitly are
// characters the tokenizer treats specially (joiners, variation selectors, tags, skin tones).
CharClass classify_uncached(char32_t cp) {
    if (cp > 0x10FFFF) return C::Punctuation;  // not a code point: shown like U+FFFD
    if (is_whitespace(cp)) return C::Whitespace;
    if (cp == 0x200C || cp == kZeroWidthJoiner) return C::Joiner;
    if (cp >= 0xE0020 && cp <= 0xE007F) return C::Tag;                       // tag characters
    if ((cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF))  // VS1..VS256
        return C::VariationSelector;
    if (cp >= 0x1F3FB && cp <= 0x1F3FF) return C::EmojiModifier;  // Fitzpatrick skin tones

    const utf8proc_property_t* p = property(cp);
    switch (p->boundclass) {
        case UTF8PROC_BOUNDCLASS_REGIONAL_INDICATOR:
            return C::RegionalIndicator;
        case UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC:
        case UTF8PROC_BOUNDCLASS_E_ZWG:
            return C::Emoji;
        case UTF8PROC_BOUNDCLASS_L:  // Hangul leading jamo start a syllable ...
        case UTF8PROC_BOUNDCLASS_LV:
        case UTF8PROC_BOUNDCLASS_LVT:
            return C::Ideograph;
        case UTF8PROC_BOUNDCLASS_V:  // ... vowel and trailing jamo continue it
        case UTF8PROC_BOUNDCLASS_T:
            return C::Mark;
        default:
            break;
    }
    // Halfwidth and fullwidth forms behave as the characters they are variants of
    // (Ａ is a letter, ｱ a katakana, ﾞ the combining voiced mark).
    if (p->decomp_type == UTF8PROC_DECOMP_TYPE_WIDE ||
        p->decomp_type == UTF8PROC_DECOMP_TYPE_NARROW) {
        utf8proc_int32_t d[4];
        int boundclass = 0;
        const auto n = utf8proc_decompose_char(
            static_cast<utf8proc_int32_t>(cp), d, 4,
            static_cast<utf8proc_option_t>(UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT), &boundclass);
        if (n == 1 && static_cast<char32_t>(d[0]) != cp)
            return classify_uncached(static_cast<char32_t>(d[0]));
    }

    const auto cat = static_cast<utf8proc_category_t>(p->category);
    switch (cat) {
        case UTF8PROC_CATEGORY_CC:
        case UTF8PROC_CATEGORY_CF:
            return C::Ignorable;
        case UTF8PROC_CATEGORY_CN:
            // emoji-data.txt reserves the unassigned code points of the pictographic blocks
            // (U+1F000..1FFFF) as Extended_Pictographic; utf8proc leaves them out.
            return cp >= 0x1F000 && cp <= 0x1FFFF ? C::Emoji : C::Word;
        case UTF8PROC_CATEGORY_MN:
        case UTF8PROC_CATEGORY_MC:
        case UTF8PROC_CATEGORY_ME: {
            // Generic diacritics (combining acute, overlays, enclosing keycap, kana voicing)
            // attach to whatever precedes them; the vowel signs and points of a script
            // (Arabic fatha, Devanagari matras: fixed-position classes 10..199 or class 0)
            // are word characters of that script.
            const int ccc = p->combining_class;
            if (cat == UTF8PROC_CATEGORY_ME || ccc == 1 || ccc == 8 || ccc >= 200) return C::Mark;
            return C::Word;
        }
        case UTF8PROC_CATEGORY_LO:
        case UTF8PROC_CATEGORY_LM:
        case UTF8PROC_CATEGORY_NL:
        case UTF8PROC_CATEGORY_SO:
            // Wide letters and symbols: CJK ideographs, kana, bopomofo, radicals, enclosed
            // CJK.  (Wide punctuation stays punctuation; wide Latin was handled above.)
            if (utf8proc_charwidth(static_cast<utf8proc_int32_t>(cp)) == 2) return C::Ideograph;
            return cat == UTF8PROC_CATEGORY_SO ? C::Punctuation : C::Word;
        case UTF8PROC_CATEGORY_SM:  // symbols count as punctuation here
        case UTF8PROC_CATEGORY_SC:
        case UTF8PROC_CATEGORY_SK:
            return C::Punctuation;
        default:  // punctuation, else letters, numbers, private use
            return is_punctuation_category(cat) ? C::Punctuation : C::Word;
    }
}

const std::array<CharClass, 128> kAscii = [] {
    std::array<CharClass, 128> t{};
    for (char32_t c = 0; c < 128; ++c)
        t[c] = classify_uncached(c);
    return t;
}();

}  // namespace

CharClass classify(char32_t cp) {
    if (cp < 0x80) return kAscii[cp];
    return classify_uncached(cp);
}

bool is_whitespace(char32_t cp) {
    // White_Space: the separators (Zs, Zl, Zp) and the controls \t..\r and U+0085.
    if (cp < 0x80) return cp == U' ' || (cp >= 0x09 && cp <= 0x0D);
    if (cp == 0x85) return true;
    if (cp > 0x10FFFF) return false;
    const auto cat = category(cp);
    return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL ||
           cat == UTF8PROC_CATEGORY_ZP;
}

bool is_punctuation(char32_t cp) {
    return is_punctuation_category(category(cp));  // utf8proc says Cn above U+10FFFF
}

bool is_decimal_digit(char32_t cp) {
    if (cp < 0x80) return cp >= U'0' && cp <= U'9';
    return cp <= 0x10FFFF && category(cp) == UTF8PROC_CATEGORY_ND;
}

char32_t to_lower(char32_t cp) {
    if (cp < 0x80) return (cp >= U'A' && cp <= U'Z') ? cp + 0x20 : cp;
    if (cp > 0x10FFFF) return cp;
    return static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(cp)));
}

}  // namespace attnviz::text::unicode
