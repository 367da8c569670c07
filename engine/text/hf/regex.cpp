#include "engine/text/hf/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "engine/text/hf/unicode_props.h"

namespace attnviz::text::hf {

struct Regex::Code {
    pcre2_code* code = nullptr;
    ~Code() { pcre2_code_free(code); }
};

namespace {

/// Oniguruma's \s is White_Space, PCRE2's (with UCP) is Z + \t\n\v\f\r: only U+0085 differs.
/// \s outside a class becomes [\s\x{85}], \S becomes [^\s\x{85}], \s inside a class gets
/// \x{85} beside it.  Everything else is passed through unchanged.
std::string translate(std::string_view p) {
    std::string out;
    out.reserve(p.size() + 16);
    bool in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\' && i + 1 < p.size()) {
            const char n = p[i + 1];
            if (n == 's') {
                out += in_class ? "\\s\\x{85}" : "[\\s\\x{85}]";
            } else if (n == 'S' && !in_class) {
                out += "[^\\s\\x{85}]";
            } else {
                out += c;
                out += n;
            }
            ++i;
            continue;
        }
        if (!in_class && c == '[') {
            in_class = true;
            out += c;
            // A ']' right after '[' or '[^' is a literal member, not the end of the class.
            if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
            if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];
            continue;
        }
        if (in_class && c == ']') in_class = false;
        out += c;
    }
    return out;
}

struct MatchScratch {
    pcre2_match_context* context = nullptr;
    pcre2_jit_stack* jit_stack = nullptr;
    MatchScratch() {
        context = pcre2_match_context_create(nullptr);
        // The default 32 KB JIT stack is too small for \s+(?!\S) on long runs of spaces.
        jit_stack = pcre2_jit_stack_create(32 * 1024, 8 * 1024 * 1024, nullptr);
        if (context && jit_stack) pcre2_jit_stack_assign(context, nullptr, jit_stack);
    }
    ~MatchScratch() {
        pcre2_jit_stack_free(jit_stack);
        pcre2_match_context_free(context);
    }
};

std::string pcre2_message(int code) {
    PCRE2_UCHAR buf[256];
    pcre2_get_error_message(code, buf, sizeof buf);
    return reinterpret_cast<const char*>(buf);
}

/// PCRE2's compiled form of `pcre2_pattern`, JIT-compiled where the platform has a JIT
/// (otherwise interpreted).  A bad pattern throws "<what> <source>: <PCRE2's message>", with
/// the offset of the error if `say_offset`.
std::shared_ptr<const Regex::Code> compile_pcre2(std::string_view pcre2_pattern,
                                                 std::string_view what, std::string_view source,
                                                 bool say_offset) {
    int error = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* code =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pcre2_pattern.data()), pcre2_pattern.size(),
                      PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
    if (!code)
        throw std::runtime_error(std::string(what) + " " + std::string(source) + ": " +
                                 pcre2_message(error) +
                                 (say_offset ? " at offset " + std::to_string(offset) : ""));
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
    auto owned = std::make_shared<Regex::Code>();
    owned->code = code;
    return owned;
}

}  // namespace

Regex Regex::compile(std::string_view pattern) {
    Regex r;
    r.code_ = compile_pcre2(translate(pattern), "bad regular expression", pattern, true);
    r.pattern_ = std::string(pattern);
    return r;
}

Regex Regex::literal(std::string_view literal) {
    // Backslash before every ASCII punctuation character: in PCRE2 that is always the
    // character itself.  Letters, digits, spaces and non-ASCII stand for themselves.
    std::string p;
    p.reserve(literal.size() * 2);
    for (const char c : literal) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x80 && uni::is_ascii_punctuation(u)) p += '\\';
        p += c;
    }
    Regex r;
    // The escaped form goes to PCRE2 as it is: translate() must not touch a literal "\s".
    r.code_ = compile_pcre2(p, "bad string pattern", literal, false);
    r.pattern_ = std::string(literal);
    return r;
}

void Regex::find_all(std::string_view text,
                     std::vector<std::pair<std::size_t, std::size_t>>& out) const {
    out.clear();
    thread_local MatchScratch scratch;
    pcre2_match_data* md = pcre2_match_data_create_from_pattern(code_->code, nullptr);
    if (!md) throw std::runtime_error("out of memory for a regular expression match");
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    const std::size_t n = text.size();
    std::size_t last_end = 0;
    bool have_last = false;
    std::size_t last_match_end = 0;
    std::uint32_t options = 0;
    while (last_end <= n) {
        const int rc = pcre2_match(code_->code, subject, n, last_end, options, md, scratch.context);
        options = PCRE2_NO_UTF_CHECK;  // checked once by the first call
        if (rc == PCRE2_ERROR_NOMATCH) break;
        if (rc < 0) {
            pcre2_match_data_free(md);
            throw std::runtime_error("regular expression " + pattern_ +
                                     " failed: " + pcre2_message(rc));
        }
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
        const std::size_t s = ov[0];
        const std::size_t e = ov[1] < ov[0] ? ov[0] : ov[1];  // \K can put the end first
        if (e == s && have_last && last_match_end == e) {
            last_end +=
                last_end < n ? uni::utf8_len(static_cast<unsigned char>(text[last_end])) : 1;
            continue;
        }
        last_end = e;
        have_last = true;
        last_match_end = e;
        out.emplace_back(s, e);
    }
    pcre2_match_data_free(md);
}

}  // namespace attnviz::text::hf
