#include "engine/models/model_folder.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "engine/errors.h"
#include "engine/io/gguf.h"
#include "engine/io/json.h"
#include "engine/io/json_writer.h"
#include "engine/io/weight_store.h"
#include "engine/models/gguf_model.h"
#include "engine/models/gguf_tokenizer.h"
#include "engine/models/local_models.h"
#include "engine/text/hf/unicode_props.h"

namespace attnviz::models {

namespace {

namespace fs = std::filesystem;
using io::json::quote;

void write_special_tokens(io::json::Writer& w, const text::HfTokenizer& t) {
    w.begin_object();
    for (const auto& [token, id] : t.special_tokens())
        w.member(token, id);
    w.end_object();
}

template <class T>
void write_array(io::json::Writer& w, const std::vector<T>& items) {
    w.begin_array();
    for (const T& item : items)
        w.value(item);
    w.end_array();
}

/// encoding_json's object, with "input" last when there is one.
std::string encoding_object(const text::Encoding& e, std::optional<std::string_view> input) {
    io::json::Writer w;
    w.begin_object();
    write_array(w.key("ids"), e.ids);
    write_array(w.key("tokens"), e.tokens);
    write_array(w.key("text"), e.text);
    w.key("offsets").begin_array();
    for (const auto& [begin, end] : e.offsets)
        w.begin_array().value(begin).value(end).end_array();
    w.end_array();
    w.key("special").begin_array();
    for (const std::uint8_t v : e.special)
        w.value(v != 0);
    w.end_array();
    write_array(w.key("type_ids"), e.type_ids);
    if (input) w.member("input", *input);
    return w.end_object().take();
}

/// The first `count` code points of UTF-8 `text` (already valid: the tokenizer's input).
std::string first_code_points(std::string_view text, std::int64_t count) {
    std::size_t at = 0;
    for (std::int64_t n = 0; n < count && at < text.size(); ++n) {
        ++at;
        while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
            ++at;
    }
    return std::string(text.substr(0, at));
}

/// The longest start of `text`, cut after a whole token, whose encoding fits `max` positions;
/// "" when not even one token fits.  A cut can tokenize differently at its end (a merge that no
/// longer happens), so each candidate is encoded again and a token dropped until it fits.
std::string fitting_start(const text::HfTokenizer& tokenizer, std::string_view text,
                          std::int64_t max) {
    const text::Encoding full = tokenizer.encode(text, std::nullopt, true);
    std::vector<std::int64_t> ends;  // end offset (code points) of each token of the text
    for (std::size_t i = 0; i < full.ids.size(); ++i)
        if (!full.special[i] && full.offsets[i].second > 0) ends.push_back(full.offsets[i].second);
    std::int64_t keep = max - tokenizer.num_special_tokens_to_add(false);
    for (int attempt = 0; attempt < 8 && keep > 0; ++attempt, --keep) {
        const auto k =
            static_cast<std::size_t>(std::min<std::int64_t>(keep, std::int64_t(ends.size())));
        if (k == 0) break;
        std::string start = first_code_points(text, ends[k - 1]);
        if (static_cast<std::int64_t>(tokenizer.encode(start, std::nullopt, true).ids.size()) <=
            max)
            return start;
    }
    return {};
}

}  // namespace

bool is_tokenizer_only(const std::string& path) {
    const std::string folder = resolve_model_path(path);
    // A GGUF file of a vocabulary alone (llama.cpp's ggml-vocab-*.gguf) has no tensors.
    if (is_gguf_file(folder)) return io::GgufFile::open(folder).tensors().empty();
    std::error_code ec;
    if (!fs::is_directory(folder, ec) || io::folder_has_weight_files(folder)) return false;
    for (const char* f : {"tokenizer.json", "vocab.txt", "vocab.json"})
        if (fs::exists(fs::path(folder) / f, ec)) return true;
    return false;
}

OpenedModel open_model_folder(const std::string& path) {
    const std::string folder = resolve_model_path(path);  // an ollama manifest: its GGUF blob
    if (is_tokenizer_only(folder))
        throw DataError(folder +
                        ": a tokenizer without weights (no model.safetensors): attention needs "
                        "a model's weights; `attnviz tokenize --model` reads this folder");
    if (is_gguf_file(folder)) {
        const io::GgufFile f = io::GgufFile::open(folder);
        text::HfTokenizer tokenizer = gguf_tokenizer(f);
        return OpenedModel{load_gguf_model(f), std::move(tokenizer)};
    }
    OpenedModel m{load_model(folder), text::HfTokenizer::from_folder(folder)};
    return m;
}

std::int64_t OpenedTokenizer::max_positions() const {
    if (config.max_positions > 0) return config.max_positions;
    return tokenizer.model_max_length().value_or(0);
}

OpenedTokenizer open_tokenizer_folder(const std::string& path) {
    const std::string folder = resolve_model_path(path);
    if (is_gguf_file(folder)) {
        const io::GgufFile f = io::GgufFile::open(folder);
        TokenizerSideConfig config;
        if (const io::GgufValue* arch = f.find("general.architecture")) {
            config.model_type = std::string(arch->as_string());
            if (const io::GgufValue* n = f.find(config.model_type + ".context_length"))
                config.max_positions = static_cast<std::int64_t>(n->as_uint());
        }
        OpenedTokenizer t{gguf_tokenizer(f), std::move(config), !f.tensors().empty()};
        return t;
    }
    OpenedTokenizer t{text::HfTokenizer::from_folder(folder), read_tokenizer_side_config(folder),
                      io::folder_has_weight_files(folder)};
    return t;
}

text::Encoding encode_pieces(const text::HfTokenizer& tokenizer, std::string_view text,
                             std::optional<std::string_view> text2) {
    if (text.empty()) throw InvalidInput(ErrorCode::EmptyText, {}, "the text is empty");
    if (text2 && text2->empty()) throw std::invalid_argument("the second text is empty");
    text::Encoding e = tokenizer.encode(text, text2, true);
    if (e.ids.empty()) throw InvalidInput(ErrorCode::NoTokens, {}, "the text gives no tokens");
    return e;
}

EncodedText encode_text(const OpenedModel& m, std::string_view text,
                        std::optional<std::string_view> text2) {
    EncodedText out;
    out.encoding = encode_pieces(m.tokenizer, text, text2);
    const auto L = static_cast<std::int64_t>(out.encoding.ids.size());
    // RoBERTa's positions start after its padding index: 514 rows hold 512 tokens.
    const ModelConfig& c = m.model->config();
    const std::int64_t max = c.max_positions - (c.pad_token_id >= 0 ? c.pad_token_id + 1 : 0);
    if (L > max)
        throw TextTooLong(ErrorCode::TextTooLong, m.model->info().display_name, L, max,
                          text2 ? std::string() : fitting_start(m.tokenizer, text, max));
    out.input.ids = out.encoding.ids;
    if (std::any_of(out.encoding.type_ids.begin(), out.encoding.type_ids.end(),
                    [](std::int64_t t) { return t != 0; }))
        out.input.token_type_ids = out.encoding.type_ids;
    return out;
}

namespace {
std::int64_t code_points(std::string_view s) {
    return static_cast<std::int64_t>(text::hf::uni::count_chars(s));
}

/// The bytes `a` and `b` share at their start, cut back to a whole character.
std::size_t common_prefix(std::string_view a, std::string_view b) {
    std::size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n])
        ++n;
    while (n > 0 && n < a.size() && (a[n] & 0xC0) == 0x80)
        --n;
    return n;
}
}  // namespace

std::string continue_encoding(const OpenedModel& m, EncodedText& e, std::string_view text,
                              const std::vector<std::int64_t>& ids) {
    if (ids.empty()) return std::string(text);
    const text::HfTokenizer& tok = m.tokenizer;
    const std::int64_t V = m.model->info().vocab_size;
    for (const std::int64_t id : ids)
        if (id < 0 || id >= V)
            throw InvalidInput(
                ErrorCode::TokenOutsideVocabulary,
                {std::to_string(id), std::to_string(V), m.model->info().display_name},
                "token id " + std::to_string(id) + " is outside the " + std::to_string(V) +
                    "-token vocabulary of " + m.model->info().display_name);
    const auto L = static_cast<std::int64_t>(e.input.ids.size() + ids.size());
    const std::int64_t max = m.model->config().max_positions;
    if (L > max)
        throw TextTooLong(ErrorCode::ContinuationTooLong, m.model->info().display_name, L, max, {});
    // The continuation's text after the prompt's last token, so that a decoder that drops a
    // leading space at the start of a text ("▁Hello") keeps it here.
    std::vector<std::int64_t> run;
    if (!e.input.ids.empty()) run.push_back(e.input.ids.back());
    const std::string context = tok.decode(run);
    const auto after_context = [&](const std::string& decoded, std::size_t count) {
        if (decoded.compare(0, context.size(), context) == 0) return decoded.substr(context.size());
        return tok.decode(std::vector<std::int64_t>(ids.begin(), ids.begin() + count));
    };
    run.insert(run.end(), ids.begin(), ids.end());
    const std::string all = after_context(tok.decode(run), ids.size());
    run.resize(run.size() - ids.size());
    // Each token ends where the continuation decoded up to it stops agreeing with the whole;
    // a token that ends inside a character adds nothing of its own.
    std::vector<std::size_t> ends;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        run.push_back(ids[k]);
        const std::size_t end = k + 1 == ids.size()
                                    ? all.size()
                                    : common_prefix(after_context(tok.decode(run), k + 1), all);
        ends.push_back(std::max(end, ends.empty() ? std::size_t{0} : ends.back()));
    }
    const std::int64_t base = code_points(text);
    const auto specials = tok.special_tokens();
    text::Encoding& enc = e.encoding;
    std::size_t begin = 0;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const std::string piece = all.substr(begin, ends[k] - begin);
        enc.ids.push_back(ids[k]);
        enc.tokens.push_back(tok.id_to_token(ids[k]));
        enc.text.push_back(piece);
        enc.offsets.emplace_back(base + code_points(std::string_view(all).substr(0, begin)),
                                 base + code_points(std::string_view(all).substr(0, ends[k])));
        enc.special.push_back(std::any_of(specials.begin(), specials.end(),
                                          [&](const auto& s) { return s.second == ids[k]; }));
        if (!enc.type_ids.empty()) enc.type_ids.push_back(0);
        if (!enc.sequence.empty()) enc.sequence.push_back(0);
        begin = ends[k];
    }
    // The pieces of one character: each shows it and which piece it is.
    const std::size_t first = enc.ids.size() - ids.size();
    for (std::size_t k = first; k < enc.ids.size();) {
        std::size_t j = k;
        while (j < enc.ids.size() && enc.text[j].empty())
            ++j;
        if (j == enc.ids.size()) {  // a character not finished yet: its pieces as they are
            for (; k < j; ++k)
                enc.text[k] = enc.tokens[k];
            break;
        }
        const std::size_t n = j - k + 1;
        for (std::size_t i = 0; n > 1 && i < n; ++i) {
            enc.text[k + i] =
                enc.text[j] + "[" + std::to_string(i + 1) + "/" + std::to_string(n) + "]";
            if (i + 1 < n) enc.offsets[k + i] = {enc.offsets[j].first, enc.offsets[j].first + 1};
        }
        k = j + 1;
    }
    e.input.ids.insert(e.input.ids.end(), ids.begin(), ids.end());
    if (!e.input.token_type_ids.empty()) e.input.token_type_ids.resize(e.input.ids.size(), 0);
    return std::string(text) + all;
}

std::int64_t single_token_id(const text::HfTokenizer& tokenizer, const std::string& text,
                             const std::string& what) {
    if (text.empty()) throw UsageError(what + " is empty");
    const text::Encoding e = tokenizer.encode(text, std::nullopt, false);
    if (e.ids.size() == 1) return e.ids[0];
    if (const auto id = tokenizer.token_to_id(text)) return *id;
    std::string pieces;
    for (std::size_t i = 0; i < e.tokens.size(); ++i)
        pieces += (i ? " " : "") + quote(e.tokens[i]);
    throw UsageError(what + " " + quote(text) + " is " + std::to_string(e.ids.size()) +
                     " tokens (" + pieces +
                     "), not one: give a text that is exactly one token, or a vocabulary entry");
}

PatchRequest patch_request(const OpenedModel& m, const PatchTexts& texts) {
    PatchRequest r;
    r.target = single_token_id(m.tokenizer, texts.target, "--target");
    r.distractor = single_token_id(m.tokenizer, texts.distractor, "--distractor");
    if (m.model->lm_head() == LmHeadKind::None) throw DataError(m.model->lm_head_missing());
    r.clean = encode_text(m, texts.clean).input;
    r.corrupt = encode_text(m, texts.corrupt).input;
    const auto L = static_cast<std::int64_t>(r.clean.ids.size());
    if (static_cast<std::int64_t>(r.corrupt.ids.size()) != L)
        throw UsageError("--clean is " + std::to_string(L) + " tokens and --corrupt " +
                         std::to_string(r.corrupt.ids.size()) +
                         ": patching needs texts of as many tokens");
    const std::int64_t p = texts.position;
    if (p == 0 || p > L || p < -L)
        throw UsageError("--position " + std::to_string(p) + " is not in the " + std::to_string(L) +
                         " tokens (1 to " + std::to_string(L) + ", or negative from the end)");
    r.position = p < 0 ? L + p : p - 1;
    return r;
}

std::string inspect_json(const OpenedModel& m) {
    const ModelInfo& i = m.model->info();
    io::json::Writer w;
    w.begin_object().member("kind", "model").member("weights", true);
    w.member("model_type", i.model_type).member("architecture", i.display_name);
    w.key("architectures").begin_array();
    if (!i.architecture.empty()) w.value(i.architecture);
    w.end_array();
    w.member("folder", i.folder)
        .member("layers", i.num_layers)
        .member("heads", i.num_heads)
        .member("kv_heads", i.num_kv_heads)
        .member("head_dim", i.head_dim)
        .member("hidden_size", i.hidden_size)
        .member("intermediate_size", i.intermediate_size)
        .member("vocab_size", i.vocab_size)
        .member("max_positions", i.max_positions)
        .member("dtype", i.dtype)
        .member("parameters", i.parameter_count)
        .member("causal", i.causal)
        .member("position_encoding", i.position_encoding)
        .member("tokenizer", m.tokenizer.kind())
        .member("tokenizer_vocab_size", m.tokenizer.vocab_size());
    write_special_tokens(w.key("special_tokens"), m.tokenizer);
    return w.end_object().take();
}

std::string inspect_json(const OpenedTokenizer& t) {
    io::json::Writer w;
    w.begin_object().member("kind", "tokenizer").member("weights", false);
    w.member("message",
             "a tokenizer without weights: tokenize works; attention needs a model's weights");
    w.member("config_json", t.config.present);
    if (!t.config.model_type.empty()) w.member("model_type", t.config.model_type);
    if (t.config.vocab_size > 0) w.member("vocab_size", t.config.vocab_size);
    if (t.max_positions() > 0) w.member("max_positions", t.max_positions());
    w.member("tokenizer", t.tokenizer.kind())
        .member("tokenizer_vocab_size", t.tokenizer.vocab_size());
    write_special_tokens(w.key("special_tokens"), t.tokenizer);
    return w.end_object().take();
}

std::string encoding_json(const text::Encoding& e) {
    return encoding_object(e, std::nullopt);
}

std::string attention_tokens_json(const text::Encoding& e, std::int64_t begin, std::int64_t count,
                                  std::optional<std::string_view> input) {
    const auto n = static_cast<std::int64_t>(e.size());
    if (begin < 0 || count < 0 || begin > n || count > n - begin)
        throw std::invalid_argument("attention_tokens_json: tokens [" + std::to_string(begin) +
                                    ", " + std::to_string(begin + count) + ") of " +
                                    std::to_string(n));
    const auto slice = [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        return v.empty() ? V() : V(v.begin() + begin, v.begin() + begin + count);
    };
    text::Encoding w;
    w.ids = slice(e.ids);
    w.tokens = slice(e.tokens);
    w.text = slice(e.text);
    w.offsets = slice(e.offsets);
    w.special = slice(e.special);
    w.type_ids = slice(e.type_ids);
    return encoding_object(w, input);
}

}  // namespace attnviz::models
