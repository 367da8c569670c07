// The encode pipeline (tokenizers/src/tokenizer/mod.rs: encode_single_sequence, do_tokenize,
// PreTokenizedString::into_encoding with OffsetType::Char, post_process) and display text.
#include "engine/text/hf/hf_tokenizer.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "engine/errors.h"
#include "engine/text/hf/tokenizer_impl.h"
#include "engine/text/hf/unicode_props.h"
#include "engine/text/unicode.h"

namespace attnviz::text {

using hf::EncToken;
using hf::EncTokens;

namespace {

/// BytesToCharOffsetConverter (pre_tokenizer.rs): byte offsets to code point offsets, with
/// its fallbacks at the end of the text kept.
class CharOffsets {
  public:
    explicit CharOffsets(std::string_view text) : char_of_(text.size()) {
        std::uint32_t c = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (i > 0 && (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++c;
            char_of_[i] = c;
        }
    }
    std::pair<std::int64_t, std::int64_t> convert(std::size_t b, std::size_t e) const {
        const std::size_t n = char_of_.size();
        if (b < n && e < n) return {char_of_[b], char_of_[e]};
        if (b < n) {
            const std::int64_t last = e >= 1 && e - 1 < n ? char_of_[e - 1] : char_of_[b] + 1;
            return {char_of_[b], last + 1};
        }
        // Rust leaves offsets it cannot map in bytes.
        return {static_cast<std::int64_t>(b), static_cast<std::int64_t>(e)};
    }

  private:
    std::vector<std::uint32_t> char_of_;
};

/// Byte start of every code point of a valid UTF-8 text, plus its length at the end.
std::vector<std::size_t> char_starts(std::string_view text) {
    std::vector<std::size_t> starts;
    starts.reserve(text.size() + 1);
    for (std::size_t i = 0; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
    starts.push_back(text.size());
    return starts;
}

std::string substring(std::string_view text, const std::vector<std::size_t>& starts, std::int64_t b,
                      std::int64_t e) {
    const auto n = static_cast<std::int64_t>(starts.size()) - 1;
    b = std::clamp<std::int64_t>(b, 0, n);
    e = std::clamp<std::int64_t>(e, b, n);
    return std::string(
        text.substr(starts[static_cast<std::size_t>(b)],
                    starts[static_cast<std::size_t>(e)] - starts[static_cast<std::size_t>(b)]));
}

/// The byte a "<0xE7>" byte-fallback token stands for, or -1.
int fallback_byte(std::string_view t) {
    if (t.size() != 6 || t.substr(0, 3) != "<0x" || t[5] != '>') return -1;
    int v = 0;
    for (const char c : t.substr(3, 2)) {
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

/// True for a token made only of SentencePiece's space marker U+2581 ("▁", "▁▁").
bool only_metaspace(std::string_view t) {
    if (t.empty() || t.size() % 3 != 0) return false;
    for (std::size_t i = 0; i < t.size(); i += 3)
        if (t.substr(i, 3) != "\xE2\x96\x81") return false;
    return true;
}

using Impl = HfTokenizer::Impl;

/// Each text encoded (a pair's second text after the first), its tokens numbered with the
/// text they came from.
std::vector<EncTokens> encode_texts(const Impl& m, const std::vector<std::string>& texts) {
    std::vector<EncTokens> encodings;
    try {
        for (std::size_t i = 0; i < texts.size(); ++i)
            encodings.push_back(m.encode_sequence(texts[i], static_cast<std::uint32_t>(i)));
    } catch (const DataError&) {
        throw;
    } catch (const std::runtime_error& e) {
        // PCRE2 giving up on a pathological text (its match limits).
        throw DataError(m.name + ": " + e.what());
    }
    for (std::size_t i = 0; i < encodings.size(); ++i)
        for (EncToken& t : encodings[i]) {
            t.sequence = static_cast<std::int32_t>(i);
            t.type_id = static_cast<std::uint32_t>(i);
        }
    return encodings;
}

/// The tokens of every encoding in order, moved into one list.
EncTokens concatenate(std::vector<EncTokens>& encodings) {
    EncTokens all;
    for (EncTokens& e : encodings)
        for (EncToken& t : e)
            all.push_back(std::move(t));
    return all;
}

/// Every column of the encoding; the display text only sized.
Encoding encoding_columns(const Impl& m, const EncTokens& all) {
    Encoding out;
    const std::size_t n = all.size();
    out.ids.reserve(n);
    out.tokens.reserve(n);
    out.text.resize(n);
    out.offsets.reserve(n);
    out.special.reserve(n);
    out.type_ids.reserve(n);
    out.sequence.reserve(n);
    for (const EncToken& t : all) {
        out.ids.push_back(t.id);
        out.tokens.push_back(t.added ? m.token_string(t.id) : t.value);
        out.offsets.emplace_back(t.begin, t.end);
        out.special.push_back(t.special);
        out.type_ids.push_back(t.type_id);
        out.sequence.push_back(t.sequence);
    }
    return out;
}

/// What a byte token shows of a character: piece k of n (1 of 1: a whole character).
struct Segment {
    char32_t c;
    int k, n;
};

/// The characters of the byte-level and byte-fallback tokens of an encoding.
struct ByteSegments {
    std::vector<std::vector<Segment>> segments;  ///< per token
    std::vector<bool> byteish;                   ///< per token: it is bytes
};

/// Byte-level and byte-fallback tokens may hold part of a character; the bytes of consecutive
/// model tokens of one text are decoded together so that every piece of a split character can
/// say which piece it is.
class ByteRun {
  public:
    explicit ByteRun(std::vector<std::vector<Segment>>& segments) : segments_(segments) {}

    void append(std::size_t token, const std::string& bytes) {
        run_ += bytes;
        run_token_.insert(run_token_.end(), bytes.size(), token);
    }

    /// Decodes the run into its tokens' segments and starts a new one.
    void decode() {
        for (std::size_t pos = 0; pos < run_.size();) {
            const auto d = unicode::decode(run_, pos, unicode::Utf8Check::Lenient);
            const std::size_t end = pos + d.length;
            const auto starts_piece = [&](std::size_t b) {
                return b == pos || run_token_[b] != run_token_[b - 1];
            };
            int count = 0;
            for (std::size_t b = pos; b < end; ++b)
                count += starts_piece(b);
            int k = 0;
            for (std::size_t b = pos; b < end; ++b)
                if (starts_piece(b)) {
                    // Ill-formed bytes: a whole U+FFFD for each token they touch.
                    segments_[run_token_[b]].push_back(d.replaced
                                                           ? Segment{d.code_point, 1, 1}
                                                           : Segment{d.code_point, ++k, count});
                }
            pos = end;
        }
        run_.clear();
        run_token_.clear();
    }

  private:
    std::vector<std::vector<Segment>>& segments_;
    std::string run_;                     // the bytes of consecutive byte tokens of one text
    std::vector<std::size_t> run_token_;  // the token each byte of `run_` came from
};

/// The bytes a model token of a text stands for into `bytes`; false when it is not bytes.
bool token_bytes(const Impl& m, const EncToken& t, std::string& bytes) {
    bool ok = !t.added && t.sequence >= 0;
    bytes.clear();
    if (ok && m.byte_level) {
        for (std::size_t p = 0; p < t.value.size() && ok;) {
            std::size_t len;
            const int b = hf::char_to_byte(hf::uni::decode(t.value, p, &len));
            ok = b >= 0;
            bytes.push_back(static_cast<char>(b));
            p += len;
        }
    } else if (ok && m.byte_fallback && fallback_byte(t.value) >= 0) {
        bytes.push_back(static_cast<char>(fallback_byte(t.value)));
    } else {
        ok = false;
    }
    return ok;
}

ByteSegments decode_byte_tokens(const Impl& m, const EncTokens& all) {
    const std::size_t n = all.size();
    ByteSegments out{std::vector<std::vector<Segment>>(n), std::vector<bool>(n, false)};
    ByteRun run(out.segments);
    std::int32_t last_sequence = -2;
    std::string bytes;
    for (std::size_t i = 0; i < n; ++i) {
        const EncToken& t = all[i];
        const bool ok = token_bytes(m, t, bytes);
        if (!ok || t.sequence != last_sequence) run.decode();
        if (!ok) continue;
        last_sequence = t.sequence;
        out.byteish[i] = true;
        run.append(i, bytes);
    }
    run.decode();
    return out;
}

/// A token's characters with "[k/n]" after each piece of a split one.
std::string split_char_label(const std::vector<Segment>& segments) {
    std::string label;
    for (const Segment& s : segments) {
        hf::uni::append_utf8(label, s.c);
        if (s.n > 1) label += "[" + std::to_string(s.k) + "/" + std::to_string(s.n) + "]";
    }
    return label;
}

/// The display text of every token: the input behind its offsets, or what it says itself.
void fill_display_text(Encoding& out, const EncTokens& all, const ByteSegments& bytes,
                       const std::vector<std::string>& texts) {
    std::vector<std::vector<std::size_t>> starts;
    for (const std::string& s : texts)
        starts.push_back(char_starts(s));
    for (std::size_t i = 0; i < all.size(); ++i) {
        const EncToken& t = all[i];
        if (t.sequence < 0) {
            out.text[i] = t.value;
            continue;
        }
        const auto seq = static_cast<std::size_t>(t.sequence);
        const std::vector<Segment>& segments = bytes.segments[i];
        bool split_char = false;
        for (const Segment& s : segments)
            split_char = split_char || s.n > 1 || s.c == 0xFFFD;
        if (bytes.byteish[i] && split_char) {
            out.text[i] = split_char_label(segments);
            continue;
        }
        if (!t.added && only_metaspace(t.value)) {
            // A lone "▁" stands for a space even where the offsets point at the word after it
            // (the one Prepend/Metaspace inserted shares the alignment of the first character).
            out.text[i] = std::string(hf::uni::count_chars(t.value), ' ');
            continue;
        }
        std::string shown = substring(texts[seq], starts[seq], t.begin, t.end);
        if (shown.empty()) {
            // Nothing of the input behind it (an inserted "▁", offsets trimmed away): show what
            // the token says, decoded if it is bytes.
            if (bytes.byteish[i])
                for (const Segment& s : segments)
                    hf::uni::append_utf8(shown, s.c);
            else
                shown = out.tokens[i];
        }
        out.text[i] = std::move(shown);
    }
}

}  // namespace

// ---- Impl -------------------------------------------------------------------------------

std::string HfTokenizer::Impl::token_string(std::uint32_t id) const {
    if (const hf::AddedToken* t = added.token(id)) return t->content;
    return std::string(model->vocab().token(id));
}

EncTokens HfTokenizer::Impl::encode_sequence(std::string_view text, std::uint32_t type_id) const {
    hf::PreTokenizedString p = added.extract_and_normalize(normalizer.get(), text);
    if (pre_tokenizer) pre_tokenizer->pre_tokenize(p);
    std::vector<hf::ModelToken> found;
    for (hf::Split& s : p.splits) {
        if (s.tokens) continue;
        found.clear();
        model->tokenize(s.normalized.get(), found);
        std::vector<hf::SplitToken> tokens;
        tokens.reserve(found.size());
        for (const auto& t : found)
            tokens.push_back({t.id, t.begin, t.end, false});
        s.tokens = std::move(tokens);
    }

    const CharOffsets chars(text);
    EncTokens out;
    for (const hf::Split& s : p.splits) {
        const std::size_t shift = s.normalized.offsets_original().first;
        for (const hf::SplitToken& t : *s.tokens) {
            EncToken e;
            e.id = t.id;
            std::size_t b = t.begin, end = t.end;
            if (const auto o = s.normalized.normalized_to_original(t.begin, t.end)) {
                b = shift + o->first;
                end = shift + o->second;
            }
            std::tie(e.begin, e.end) = chars.convert(b, end);
            if (t.added) {
                // Token::value of an added token is the text it matched (lstrip spaces too).
                e.value = s.normalized.get();
                e.added = true;
                const hf::AddedToken* a = added.token(t.id);
                e.special = a && a->special ? 1 : 0;
            } else {
                e.value = std::string(model->vocab().token(t.id));
            }
            e.type_id = type_id;
            out.push_back(std::move(e));
        }
    }
    return out;
}

// ---- HfTokenizer ------------------------------------------------------------------------

HfTokenizer::HfTokenizer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HfTokenizer::HfTokenizer(HfTokenizer&&) noexcept = default;
HfTokenizer& HfTokenizer::operator=(HfTokenizer&&) noexcept = default;
HfTokenizer::~HfTokenizer() = default;

HfTokenizer HfTokenizer::from_folder(const std::string& folder) {
    return HfTokenizer(hf::load_folder(folder));
}

HfTokenizer HfTokenizer::from_tokenizer_json(std::string_view json, const std::string& name) {
    return HfTokenizer(hf::load_tokenizer_json(json, name));
}

HfTokenizer HfTokenizer::from_tokenizer_json(std::string_view json, const std::string& name,
                                             const ModelLists& lists) {
    return HfTokenizer(hf::load_tokenizer_json(json, name, &lists));
}

Encoding HfTokenizer::encode(std::string_view text, std::optional<std::string_view> pair,
                             bool add_special_tokens) const {
    const Impl& m = *impl_;
    std::vector<std::string> texts{unicode::sanitize_utf8(text)};
    if (pair) texts.push_back(unicode::sanitize_utf8(*pair));

    std::vector<EncTokens> encodings = encode_texts(m, texts);
    if (m.post_processor) m.post_processor->process(encodings, add_special_tokens);
    const EncTokens all = concatenate(encodings);
    Encoding out = encoding_columns(m, all);
    fill_display_text(out, all, decode_byte_tokens(m, all), texts);
    return out;
}

std::string HfTokenizer::kind() const {
    return impl_->kind;
}

std::int64_t HfTokenizer::vocab_size() const {
    std::uint64_t limit = impl_->model->vocab().id_limit();
    for (const auto& [id, t] : impl_->added.tokens())
        limit = std::max<std::uint64_t>(limit, std::uint64_t(id) + 1);
    return static_cast<std::int64_t>(limit);
}

std::vector<std::pair<std::string, std::int64_t>> HfTokenizer::special_tokens() const {
    std::set<std::pair<std::int64_t, std::string>> found;
    for (const auto& [id, t] : impl_->added.tokens())
        if (t.special) found.emplace(id, t.content);
    if (impl_->post_processor) {
        std::vector<std::pair<std::string, std::uint32_t>> more;
        impl_->post_processor->special_tokens(more);
        for (const auto& [token, id] : more)
            found.emplace(id, token);
    }
    std::vector<std::pair<std::string, std::int64_t>> out;
    for (const auto& [id, token] : found)
        out.emplace_back(token, id);
    return out;
}

std::optional<std::int64_t> HfTokenizer::token_to_id(std::string_view token) const {
    if (const auto id = impl_->added.find(token)) return *id;
    if (const auto id = impl_->model->vocab().find(token)) return *id;
    return std::nullopt;
}

std::string HfTokenizer::id_to_token(std::int64_t id) const {
    if (id < 0 || id > std::int64_t(UINT32_MAX)) return {};
    return impl_->token_string(static_cast<std::uint32_t>(id));
}

std::optional<std::int64_t> HfTokenizer::bos_id() const {
    if (impl_->post_processor)
        if (const auto id = impl_->post_processor->first_special()) return *id;
    if (impl_->config_bos) return *impl_->config_bos;
    return std::nullopt;
}

std::optional<std::int64_t> HfTokenizer::unk_id() const {
    const hf::Model* m = impl_->model.get();
    std::optional<std::string> unk;
    if (const auto* w = dynamic_cast<const hf::WordPieceModel*>(m))
        unk = w->unk_token;
    else if (const auto* l = dynamic_cast<const hf::WordLevelModel*>(m))
        unk = l->unk_token;
    else if (const auto* b = dynamic_cast<const hf::BpeModel*>(m))
        unk = b->unk_token;
    return unk ? token_to_id(*unk) : std::nullopt;
}

std::string HfTokenizer::decode(const std::vector<std::int64_t>& ids) const {
    const Impl& m = *impl_;
    const bool wordpiece = m.kind.rfind("WordPiece", 0) == 0;
    std::string bytes;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::int64_t id = ids[i];
        const std::string token = id >= 0 && id <= std::int64_t(UINT32_MAX)
                                      ? m.token_string(static_cast<std::uint32_t>(id))
                                      : std::string();
        if (token.empty()) {
            bytes += "<id " + std::to_string(id) + ">";
            continue;
        }
        if (m.added.token(static_cast<std::uint32_t>(id))) {
            bytes += token;
        } else if (m.byte_level) {
            for (std::size_t p = 0; p < token.size();) {
                std::size_t len;
                const int b = hf::char_to_byte(hf::uni::decode(token, p, &len));
                bytes.push_back(static_cast<char>(b >= 0 ? b : '?'));
                p += len;
            }
        } else if (m.byte_fallback && fallback_byte(token) >= 0) {
            bytes.push_back(static_cast<char>(fallback_byte(token)));
        } else if (wordpiece) {
            if (token.rfind("##", 0) == 0)
                bytes += token.substr(2);
            else
                bytes += (bytes.empty() ? "" : " ") + token;
        } else {
            std::string t = token;
            for (std::size_t p; (p = t.find("\xE2\x96\x81")) != std::string::npos;)
                t.replace(p, 3, " ");
            bytes += t;
        }
    }
    return unicode::sanitize_utf8(bytes);
}

std::optional<std::int64_t> HfTokenizer::model_max_length() const {
    return impl_->model_max_length;
}

std::int64_t HfTokenizer::num_special_tokens_to_add(bool pair) const {
    return impl_->post_processor
               ? static_cast<std::int64_t>(impl_->post_processor->added_tokens(pair))
               : 0;
}

}  // namespace attnviz::text
