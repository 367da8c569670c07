// Normalizers and pre-tokenizers (tokenizers/src/normalizers/*.rs, pre_tokenizers/*.rs).
#include <utility>

#include "engine/text/hf/components.h"
#include "engine/text/hf/unicode_props.h"

namespace attnviz::text::hf {

// ---- normalizers ------------------------------------------------------------------------

void UnicodeNormalizer::normalize(NormalizedString& s) const {
    if (compose) {
        if (compatibility)
            s.nfkc();
        else
            s.nfc();
    } else {
        if (compatibility)
            s.nfkd();
        else
            s.nfd();
    }
}

void StripAccentsNormalizer::normalize(NormalizedString& s) const {
    s.filter([](char32_t c) { return !uni::is_combining_mark(c); });
}

void StripNormalizer::normalize(NormalizedString& s) const {
    if (left && right) {
        s.lrstrip(true, true);
    } else {
        if (left) s.lrstrip(true, false);
        if (right) s.lrstrip(false, true);
    }
}

namespace {

// bert.rs: \t \n \r are whitespace, not control characters.
bool bert_whitespace(char32_t c) {
    return c == '\t' || c == '\n' || c == '\r' || uni::is_whitespace(c);
}
bool bert_control(char32_t c) {
    if (c == '\t' || c == '\n' || c == '\r') return false;
    return uni::is_other(c);
}
// bert.rs is_chinese_char: the CJK blocks BERT's original code names (its own list, not a
// Unicode property).
bool is_chinese_char(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
           (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}
bool bert_punctuation(char32_t c) {
    return uni::is_ascii_punctuation(c) || uni::is_punctuation(c);
}

}  // namespace

void BertNormalizer::normalize(NormalizedString& s) const {
    if (clean_text) {
        s.filter([](char32_t c) { return !(c == 0 || c == 0xFFFD || bert_control(c)); });
        s.map([](char32_t c) { return bert_whitespace(c) ? char32_t(' ') : c; });
    }
    if (handle_chinese_chars) {
        std::vector<Change> changes;
        changes.reserve(s.len());
        const std::string& text = s.get();
        for (std::size_t i = 0; i < text.size();) {
            std::size_t len;
            const char32_t c = uni::decode(text, i, &len);
            i += len;
            if (is_chinese_char(c)) {
                changes.push_back({' ', 0});
                changes.push_back({c, 1});
                changes.push_back({' ', 1});
            } else {
                changes.push_back({c, 0});
            }
        }
        s.transform(changes, 0);
    }
    if (strip_accents.value_or(lowercase)) {
        s.nfd();
        s.filter([](char32_t c) { return !uni::is_mark_nonspacing(c); });
    }
    if (lowercase) s.lowercase();
}

void ReplaceNormalizer::normalize(NormalizedString& s) const {
    s.replace(find_matches(s.get(), pattern), content);
}

void NmtNormalizer::normalize(NormalizedString& s) const {
    s.filter([](char32_t c) {
        return !((c >= 0x01 && c <= 0x08) || c == 0x0B || (c >= 0x0E && c <= 0x1F) || c == 0x7F ||
                 c == 0x8F || c == 0x9F);
    });
    s.map([](char32_t c) -> char32_t {
        switch (c) {
            case 0x09:
            case 0x0A:
            case 0x0C:
            case 0x0D:
            case 0x1680:
            case 0x200B:
            case 0x200C:
            case 0x200D:
            case 0x200E:
            case 0x200F:
            case 0x2028:
            case 0x2029:
            case 0x2581:
            case 0xFEFF:
            case 0xFFFD:
                return ' ';
            default:
                return c;
        }
    });
}

// ---- pre-tokenizers ---------------------------------------------------------------------

namespace {

void split_by(PreTokenizedString& p, bool (*pred)(char32_t), SplitBehavior behavior) {
    p.split([&](NormalizedString&& s, std::vector<Split>& out) {
        for (auto& piece : s.split(find_matches(s.get(), pred), behavior))
            out.push_back({std::move(piece), std::nullopt});
    });
}

}  // namespace

void BertPreTokenizer::pre_tokenize(PreTokenizedString& p) const {
    split_by(p, uni::is_whitespace, SplitBehavior::Removed);
    split_by(p, bert_punctuation, SplitBehavior::Isolated);
}

void WhitespacePreTokenizer::pre_tokenize(PreTokenizedString& p) const {
    // Rust regex \w+|[^\w\s]+, inverted and removed: the runs of word characters and the runs
    // of other non-space characters are the pieces; whitespace goes.  Computed with the same
    // character classes instead of a regex (PCRE2's \w is not Rust's).
    p.split([](NormalizedString&& s, std::vector<Split>& out) {
        const std::string& text = s.get();
        std::vector<PatternMatch> matches;
        if (text.empty()) {
            matches.push_back({0, 0, false});
        } else {
            std::size_t prev = 0;
            std::size_t i = 0;
            while (i < text.size()) {
                std::size_t len;
                const char32_t c = uni::decode(text, i, &len);
                if (uni::is_whitespace(c) && !uni::is_word_char(c)) {
                    i += len;
                    continue;
                }
                const bool word = uni::is_word_char(c);
                const std::size_t start = i;
                i += len;
                while (i < text.size()) {
                    const char32_t d = uni::decode(text, i, &len);
                    const bool same = word ? uni::is_word_char(d)
                                           : !uni::is_word_char(d) && !uni::is_whitespace(d);
                    if (!same) break;
                    i += len;
                }
                if (prev != start) matches.push_back({prev, start, false});
                matches.push_back({start, i, true});
                prev = i;
            }
            if (prev != text.size()) matches.push_back({prev, text.size(), false});
        }
        invert(matches);
        for (auto& piece : s.split(std::move(matches), SplitBehavior::Removed))
            out.push_back({std::move(piece), std::nullopt});
    });
}

void WhitespaceSplitPreTokenizer::pre_tokenize(PreTokenizedString& p) const {
    split_by(p, uni::is_whitespace, SplitBehavior::Removed);
}

void PunctuationPreTokenizer::pre_tokenize(PreTokenizedString& p) const {
    split_by(p, bert_punctuation, behavior);
}

void DigitsPreTokenizer::pre_tokenize(PreTokenizedString& p) const {
    split_by(p, uni::is_numeric,
             individual_digits ? SplitBehavior::Isolated : SplitBehavior::Contiguous);
}

void CharDelimiterPreTokenizer::pre_tokenize(PreTokenizedString& p) const {
    const char32_t d = delimiter;
    p.split([d](NormalizedString&& s, std::vector<Split>& out) {
        auto matches = find_matches(s.get(), [d](char32_t c) { return c == d; });
        for (auto& piece : s.split(std::move(matches), SplitBehavior::Removed))
            out.push_back({std::move(piece), std::nullopt});
    });
}

void SplitPreTokenizer::pre_tokenize(PreTokenizedString& p) const {
    p.split([this](NormalizedString&& s, std::vector<Split>& out) {
        auto matches = find_matches(s.get(), pattern);
        if (invert) hf::invert(matches);
        for (auto& piece : s.split(std::move(matches), behavior))
            out.push_back({std::move(piece), std::nullopt});
    });
}

const std::array<char32_t, 256>& byte_to_char() {
    // bytes_char(): printable bytes stand for themselves, the others for 256, 257, ...
    static const std::array<char32_t, 256> table = [] {
        std::array<char32_t, 256> t{};
        const auto printable = [](int b) {
            return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        };
        int n = 0;
        for (int b = 0; b < 256; ++b)
            t[b] = printable(b) ? char32_t(b) : char32_t(256 + n++);
        return t;
    }();
    return table;
}

int char_to_byte(char32_t c) {
    static const std::array<int, 324> inverse = [] {
        std::array<int, 324> t;
        t.fill(-1);
        const auto& fwd = byte_to_char();
        for (int b = 0; b < 256; ++b)
            t[fwd[b]] = b;
        return t;
    }();
    return c < inverse.size() ? inverse[c] : -1;
}

void ByteLevelPreTokenizer::pre_tokenize(PreTokenizedString& p) const {
    static const Regex gpt2 = Regex::compile(
        R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)");
    p.split([this](NormalizedString&& s, std::vector<Split>& out) {
        if (add_prefix_space && (s.get().empty() || s.get()[0] != ' ')) s.prepend(" ");
        if (use_regex) {
            for (auto& piece : s.split(find_matches(s.get(), gpt2), SplitBehavior::Isolated))
                out.push_back({std::move(piece), std::nullopt});
        } else {
            out.push_back({std::move(s), std::nullopt});
        }
    });
    const auto& table = byte_to_char();
    p.normalize([&table](NormalizedString& s) {
        const std::string& text = s.get();
        std::vector<Change> changes;
        changes.reserve(text.size());
        for (std::size_t i = 0; i < text.size();) {
            const std::size_t len = uni::utf8_len(static_cast<unsigned char>(text[i]));
            for (std::size_t k = 0; k < len; ++k)
                changes.push_back({table[static_cast<unsigned char>(text[i + k])], k > 0 ? 1 : 0});
            i += len;
        }
        s.transform(changes, 0);
    });
}

void MetaspacePreTokenizer::pre_tokenize(PreTokenizedString& p) const {
    std::string rep;
    uni::append_utf8(rep, replacement);
    p.split([&](NormalizedString&& s, std::vector<Split>& out) {
        s.replace(find_matches(s.get(), [](char32_t c) { return c == ' '; }), rep);
        const bool starts = s.get().compare(0, rep.size(), rep) == 0;
        switch (prepend_scheme) {
            case Prepend::Always:
                if (!starts) s.prepend(rep);
                break;
            case Prepend::First:
                if (!starts && s.offsets_original().first == 0) s.prepend(rep);
                break;
            case Prepend::Never:
                break;
        }
        if (split) {
            const char32_t r = replacement;
            auto matches = find_matches(s.get(), [r](char32_t c) { return c == r; });
            for (auto& piece : s.split(std::move(matches), SplitBehavior::MergedWithNext))
                out.push_back({std::move(piece), std::nullopt});
        } else {
            out.push_back({std::move(s), std::nullopt});
        }
    });
}

}  // namespace attnviz::text::hf
