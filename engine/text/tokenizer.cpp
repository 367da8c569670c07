#include "engine/text/tokenizer.h"

#include <cstdint>
#include <limits>

#include "engine/io/json_writer.h"
#include "engine/text/unicode.h"

namespace attnviz::text {

namespace {

using unicode::CharClass;

constexpr const char* kClsToken = "[CLS]";
constexpr const char* kSepToken = "[SEP]";

// One left-to-right pass over the bytes with at most three code points of look-ahead, so the
// cost is linear in the bytes consumed, and it stops as soon as `limit` tokens are out.
class Tokenizer {
  public:
    Tokenizer(std::string_view text, bool lowercase, std::size_t limit)
        : text_(text), lowercase_(lowercase), limit_(limit) {}

    std::vector<std::string> run() {
        std::size_t pos = 0;
        while (pos < text_.size() && !full()) {
            const Char c = at(pos);
            pos += c.length;
            switch (c.cls) {
                case CharClass::Whitespace:
                    flush_word();
                    break;
                case CharClass::Ignorable:
                case CharClass::Tag:
                    break;  // invisible: removed without splitting the word around it
                case CharClass::Joiner:
                    // Kept only between word characters (ZWNJ in Persian "می‌خواهم").
                    if (!word_.empty() && at(pos).cls == CharClass::Word) append(word_, c.cp);
                    break;
                case CharClass::VariationSelector:
                    if (!word_.empty()) append(word_, c.cp);
                    break;
                case CharClass::Mark:
                    // A mark after whitespace has nothing to combine with; keep it visible.
                    if (word_.empty()) last_ = Last::Letter;
                    append(word_, c.cp);
                    break;
                case CharClass::Word:
                    if (is_keycap_base(c.cp) && keycap_follows(pos)) {
                        flush_word();
                        pos = emit_keycap(c.cp, pos);
                    } else {
                        append_word_char(c.cp);
                    }
                    break;
                case CharClass::Punctuation:
                    if (stays_in_word(c.cp, pos)) {
                        append(word_, c.cp);
                        last_ = Last::Other;
                    } else if (is_keycap_base(c.cp) && keycap_follows(pos)) {
                        flush_word();
                        pos = emit_keycap(c.cp, pos);
                    } else {
                        flush_word();
                        pos = emit_single(c.cp, pos);
                    }
                    break;
                case CharClass::Ideograph:
                    flush_word();
                    pos = emit_single(c.cp, pos);
                    break;
                case CharClass::Emoji:
                case CharClass::RegionalIndicator:
                case CharClass::EmojiModifier:
                    flush_word();
                    pos = emit_emoji(c, pos);
                    break;
            }
        }
        flush_word();
        return std::move(out_);
    }

  private:
    struct Char {
        char32_t cp = 0;
        std::size_t length = 0;  // 0 at the end of the text
        CharClass cls = CharClass::Ignorable;
    };

    enum class Last { None, Letter, Digit, Other };

    Char at(std::size_t pos) const {
        if (pos >= text_.size()) return {};
        const unicode::Decoded d = unicode::decode(text_, pos);
        return {d.code_point, d.length, unicode::classify(d.code_point)};
    }

    bool full() const { return out_.size() >= limit_; }

    void emit(std::string token) {
        if (!full()) out_.push_back(std::move(token));
    }

    void append(std::string& token, char32_t cp) const {
        unicode::append_utf8(token, lowercase_ ? unicode::to_lower(cp) : cp);
    }

    void append_word_char(char32_t cp) {
        const bool digit = unicode::is_decimal_digit(cp);
        if (lowercase_ && cp == 0x03A3) {  // Σ: σ, or ς if it turns out to end the word
            sigma_could_be_final_ = letters_ > 0;
            append(word_, cp);
            sigma_end_ = word_.size();
        } else {
            append(word_, cp);
        }
        if (!digit) ++letters_;
        last_ = digit ? Last::Digit : Last::Letter;
    }

    void flush_word() {
        if (!word_.empty()) {
            if (sigma_could_be_final_ && sigma_end_ == word_.size()) {
                word_.back() = '\x82';  // σ is CF 83, ς is CF 82
            }
            emit(std::move(word_));
            word_.clear();
        }
        last_ = Last::None;
        letters_ = 0;
        sigma_could_be_final_ = false;
        sigma_end_ = 0;
    }

    bool next_is_letter(std::size_t pos) const {
        const Char n = at(pos);
        return n.cls == CharClass::Word && !unicode::is_decimal_digit(n.cp);
    }

    bool next_is_digit(std::size_t pos) const {
        const Char n = at(pos);
        return n.cls == CharClass::Word && unicode::is_decimal_digit(n.cp);
    }

    // An apostrophe between two letters ("don't", "l’homme") and a decimal point between two
    // digits ("3.14") stay inside the word; all other punctuation stands alone.
    bool stays_in_word(char32_t cp, std::size_t next) const {
        if (word_.empty()) return false;
        if ((cp == U'\'' || cp == 0x2019) && last_ == Last::Letter) return next_is_letter(next);
        if (cp == U'.' && last_ == Last::Digit) return next_is_digit(next);
        return false;
    }

    static bool is_keycap_base(char32_t cp) {
        return (cp >= U'0' && cp <= U'9') || cp == U'#' || cp == U'*';
    }

    // "1️⃣" is 1 FE0F 20E3; the variation selector is optional.
    bool keycap_follows(std::size_t pos) const {
        Char n = at(pos);
        if (n.cp == unicode::kVariationSelector16) n = at(pos + n.length);
        return n.cp == unicode::kCombiningKeycap;
    }

    std::size_t emit_keycap(char32_t base, std::size_t pos) {
        std::string token;
        append(token, base);
        Char n = at(pos);
        if (n.cp == unicode::kVariationSelector16) {
            append(token, n.cp);
            pos += n.length;
            n = at(pos);
        }
        append(token, n.cp);  // U+20E3
        pos += n.length;
        pos = absorb_extenders(token, pos, /*emoji=*/true);
        emit(std::move(token));
        return pos;
    }

    // Combining marks and variation selectors belong to the character before them; an
    // emoji also takes skin-tone modifiers and tag characters (subdivision flags).
    std::size_t absorb_extenders(std::string& token, std::size_t pos, bool emoji) const {
        for (;;) {
            const Char n = at(pos);
            const bool extends =
                n.cls == CharClass::Mark || n.cls == CharClass::VariationSelector ||
                (emoji && (n.cls == CharClass::EmojiModifier || n.cls == CharClass::Tag));
            if (!extends) return pos;
            append(token, n.cp);
            pos += n.length;
        }
    }

    std::size_t emit_single(char32_t cp, std::size_t pos) {
        std::string token;
        append(token, cp);
        pos = absorb_extenders(token, pos, /*emoji=*/false);
        emit(std::move(token));
        return pos;
    }

    // One emoji with its modifiers, a flag (two regional indicators), or a ZWJ sequence
    // such as 👩‍💻 (woman, ZWJ, laptop) or 👨‍👩‍👧.
    std::size_t emit_emoji(Char c, std::size_t pos) {
        std::string token;
        for (;;) {
            append(token, c.cp);
            if (c.cls == CharClass::RegionalIndicator) {
                const Char n = at(pos);
                if (n.cls == CharClass::RegionalIndicator) {
                    append(token, n.cp);
                    pos += n.length;
                }
            }
            pos = absorb_extenders(token, pos, /*emoji=*/true);
            const Char joiner = at(pos);
            if (joiner.cp != unicode::kZeroWidthJoiner) break;
            const Char next = at(pos + joiner.length);
            if (next.cls != CharClass::Emoji) break;  // a dangling ZWJ is dropped later
            append(token, joiner.cp);
            pos += joiner.length + next.length;
            c = next;
        }
        emit(std::move(token));
        return pos;
    }

    std::string_view text_;
    bool lowercase_;
    std::size_t limit_;
    std::vector<std::string> out_;

    std::string word_;
    Last last_ = Last::None;
    std::size_t letters_ = 0;
    bool sigma_could_be_final_ = false;
    std::size_t sigma_end_ = 0;
};

}  // namespace

std::vector<std::string> tokenize(std::string_view utf8, const TokenizerOptions& options) {
    constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();
    const std::size_t budget = options.max_tokens == 0 ? kUnlimited : options.max_tokens;
    if (!options.add_special_tokens) return Tokenizer(utf8, options.lowercase, budget).run();

    // [CLS] and [SEP] count towards max_tokens.  At least one text token is always read, so
    // that a text without tokens gives an empty result rather than "[CLS] [SEP]".
    const std::size_t text_budget = budget == kUnlimited ? kUnlimited : budget > 2 ? budget - 2 : 1;
    std::vector<std::string> text_tokens = Tokenizer(utf8, options.lowercase, text_budget).run();
    if (text_tokens.empty()) return {};
    if (budget <= 2) text_tokens.clear();

    std::vector<std::string> tokens;
    tokens.reserve(text_tokens.size() + 2);
    tokens.emplace_back(kClsToken);
    for (auto& t : text_tokens)
        tokens.push_back(std::move(t));
    tokens.emplace_back(kSepToken);
    if (tokens.size() > budget) tokens.resize(budget);  // max_tokens == 1: just "[CLS]"
    return tokens;
}

namespace {

// Adds the piece without its leading and trailing whitespace and invisible characters
// (a BOM at the start of a pasted file, a zero width space), unless nothing is left.
void add_trimmed(std::vector<std::string>& out, std::string_view piece) {
    std::size_t begin = piece.size(), end = 0, pos = 0;
    while (pos < piece.size()) {
        const unicode::Decoded d = unicode::decode(piece, pos);
        const CharClass cls = unicode::classify(d.code_point);
        if (cls != CharClass::Whitespace && cls != CharClass::Ignorable) {
            if (begin == piece.size()) begin = pos;
            end = pos + d.length;
        }
        pos += d.length;
    }
    if (begin < end) out.emplace_back(piece.substr(begin, end - begin));
}

void split_on_byte(std::vector<std::string>& out, std::string_view text, std::string_view seps) {
    std::size_t start = 0;
    for (;;) {
        const std::size_t sep = text.find_first_of(seps, start);
        add_trimmed(out, text.substr(start, sep == std::string_view::npos ? sep : sep - start));
        if (sep == std::string_view::npos) return;
        start = sep + 1;
    }
}

void split_on_whitespace(std::vector<std::string>& out, std::string_view text) {
    std::size_t start = 0, pos = 0;
    while (pos < text.size()) {
        const unicode::Decoded d = unicode::decode(text, pos);
        if (unicode::is_whitespace(d.code_point)) {
            add_trimmed(out, text.substr(start, pos - start));
            start = pos + d.length;
        }
        pos += d.length;
    }
    add_trimmed(out, text.substr(start));
}

}  // namespace

std::vector<std::string> split_token_list(std::string_view list) {
    const std::string text = unicode::sanitize_utf8(list);
    std::vector<std::string> tokens;
    if (text.find_first_of("\r\n") != std::string::npos)
        split_on_byte(tokens, text, "\r\n");
    else if (text.find('|') != std::string::npos)
        split_on_byte(tokens, text, "|");
    else
        split_on_whitespace(tokens, text);
    return tokens;
}

std::string tokens_to_json(const std::vector<std::string>& tokens) {
    io::json::Writer json;
    json.begin_array();
    // Sanitized first: a broken sequence becomes one U+FFFD, as everywhere the app shows text.
    for (const std::string& token : tokens)
        json.value(unicode::sanitize_utf8(token));
    return json.end_array().take();
}

}  // namespace attnviz::text
