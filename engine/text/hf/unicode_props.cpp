#include "engine/text/hf/unicode_props.h"

#include <cstdlib>

#include <utf8proc.h>

namespace attnviz::text::hf::uni {

namespace {

utf8proc_category_t category(char32_t c) {
    return utf8proc_category(static_cast<utf8proc_int32_t>(c));
}

}  // namespace

char32_t decode_last(std::string_view s, std::size_t end, std::size_t* len) {
    std::size_t start = end - 1;
    while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80)
        --start;
    return decode(s, start, len);
}

std::size_t count_chars(std::string_view s) {
    std::size_t n = 0;
    for (const char ch : s)
        n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
    return n;
}

bool is_other(char32_t c) {
    switch (category(c)) {
        case UTF8PROC_CATEGORY_CC:
        case UTF8PROC_CATEGORY_CF:
        case UTF8PROC_CATEGORY_CN:
        case UTF8PROC_CATEGORY_CO:
        case UTF8PROC_CATEGORY_CS:
            return true;
        default:
            return false;
    }
}

bool is_mark_nonspacing(char32_t c) {
    return c >= 0x300 && category(c) == UTF8PROC_CATEGORY_MN;
}

bool is_combining_mark(char32_t c) {
    if (c < 0x300) return false;
    const auto cat = category(c);
    return cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC ||
           cat == UTF8PROC_CATEGORY_ME;
}

bool is_numeric(char32_t c) {
    if (c < 0x80) return c >= '0' && c <= '9';
    const auto cat = category(c);
    return cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL ||
           cat == UTF8PROC_CATEGORY_NO;
}

bool is_word_char(char32_t c) {
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    if (c == 0x200C || c == 0x200D) return true;  // Join_Control
    switch (category(c)) {
        case UTF8PROC_CATEGORY_LU:
        case UTF8PROC_CATEGORY_LL:
        case UTF8PROC_CATEGORY_LT:
        case UTF8PROC_CATEGORY_LM:
        case UTF8PROC_CATEGORY_LO:
        case UTF8PROC_CATEGORY_NL:
        case UTF8PROC_CATEGORY_MN:
        case UTF8PROC_CATEGORY_MC:
        case UTF8PROC_CATEGORY_ME:
        case UTF8PROC_CATEGORY_ND:
        case UTF8PROC_CATEGORY_PC:
            return true;
        default:
            return false;
    }
}

int combining_class(char32_t c) {
    if (c < 0x300) return 0;
    return utf8proc_get_property(static_cast<utf8proc_int32_t>(c))->combining_class;
}

int to_lowercase(char32_t c, char32_t out[3]) {
    if (c < 0x80) {
        out[0] = (c >= 'A' && c <= 'Z') ? c + 32 : c;
        return 1;
    }
    // SpecialCasing.txt's one unconditional multi-character lowercase mapping, which Rust's
    // char::to_lowercase applies and utf8proc's simple mapping does not.
    if (c == 0x130) {
        out[0] = 'i';
        out[1] = 0x307;
        return 2;
    }
    out[0] = static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c)));
    return 1;
}

int decompose(char32_t c, bool compatibility, char32_t out[32]) {
    utf8proc_int32_t buf[32];
    int boundclass = 0;
    const utf8proc_option_t options =
        static_cast<utf8proc_option_t>(UTF8PROC_DECOMPOSE | (compatibility ? UTF8PROC_COMPAT : 0));
    const utf8proc_ssize_t n =
        utf8proc_decompose_char(static_cast<utf8proc_int32_t>(c), buf, 32, options, &boundclass);
    if (n <= 0 || n > 32) {
        out[0] = c;
        return 1;
    }
    for (utf8proc_ssize_t i = 0; i < n; ++i)
        out[i] = static_cast<char32_t>(buf[i]);
    return static_cast<int>(n);
}

std::optional<char32_t> compose(char32_t starter, char32_t next) {
    utf8proc_int32_t buf[2] = {static_cast<utf8proc_int32_t>(starter),
                               static_cast<utf8proc_int32_t>(next)};
    // utf8proc composes only primary composites (its table leaves out the exclusions).
    const utf8proc_ssize_t n = utf8proc_normalize_utf32(buf, 2, UTF8PROC_COMPOSE);
    if (n == 1) return static_cast<char32_t>(buf[0]);
    return std::nullopt;
}

bool is_normalized(std::string_view s, bool compose_form, bool compatibility) {
    bool ascii = true;
    for (const char ch : s)
        ascii = ascii && static_cast<unsigned char>(ch) < 0x80;
    if (ascii) return true;
    int options = UTF8PROC_STABLE | (compose_form ? UTF8PROC_COMPOSE : UTF8PROC_DECOMPOSE);
    if (compatibility) options |= UTF8PROC_COMPAT;
    utf8proc_uint8_t* out = nullptr;
    const utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                                            static_cast<utf8proc_ssize_t>(s.size()), &out,
                                            static_cast<utf8proc_option_t>(options));
    const bool same = n >= 0 && static_cast<std::size_t>(n) == s.size() &&
                      std::string_view(reinterpret_cast<const char*>(out), s.size()) == s;
    std::free(out);
    return same;
}

}  // namespace attnviz::text::hf::uni
