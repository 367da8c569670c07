#include "engine/models/gguf_tokenizer.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/errors.h"
#include "engine/io/json.h"
#include "engine/io/messages.h"
#include "engine/text/hf/unicode_props.h"

namespace attnviz::models {

namespace {

using io::GgufFile;
using io::json::quote;
using io::json::Writer;

// llama.cpp's token types (llama.h enum llama_token_type).
constexpr std::int64_t kNormal = 1, kUnknown = 2, kControl = 3, kUserDefined = 4;

/// SentencePiece's word start "▁" (U+2581).
constexpr std::string_view kWordStart = "\xE2\x96\x81";

std::optional<std::int64_t> id_key(const GgufFile& f, const char* key, std::size_t vocab) {
    const io::GgufValue* v = f.find(key);
    if (!v) return std::nullopt;
    const std::uint64_t id = v->as_uint();
    if (id >= vocab)
        io::fail(f.path(), std::string(key) + " is " + std::to_string(id) + ", outside the " +
                               std::to_string(vocab) + " tokens");
    return static_cast<std::int64_t>(id);
}

std::optional<bool> bool_key(const GgufFile& f, const char* key) {
    if (const io::GgufValue* v = f.find(key)) return v->as_bool();
    return std::nullopt;
}

void byte_level(Writer& w, bool trim_offsets, bool use_regex) {
    w.begin_object()
        .member("type", "ByteLevel")
        .member("add_prefix_space", false)
        .member("trim_offsets", trim_offsets)
        .member("use_regex", use_regex)
        .end_object();
}

struct BpeFlavour {
    /// Split regexes applied one after the other before a byte-level step without its own
    /// regex; none: GPT-2's byte-level pre-tokenizer with its regex.
    std::vector<std::string_view> splits;
    bool nfc = false, ignore_merges = false, add_bos = false;
};

void write_pre_tokenizer(Writer& w, const BpeFlavour& b) {
    if (b.splits.empty()) return byte_level(w, true, true);
    w.begin_object().member("type", "Sequence").key("pretokenizers").begin_array();
    for (const std::string_view regex : b.splits) {
        w.begin_object().member("type", "Split").key("pattern").begin_object();
        w.member("Regex", regex).end_object();
        w.member("behavior", "Isolated").member("invert", false).end_object();
    }
    byte_level(w, false, false);
    w.end_array().end_object();
}

// Hugging Face's pre-tokenizer for each of llama.cpp's names (the tokenizer.json of the
// models llama.cpp's convert_hf_to_gguf_update.py lists under them).
BpeFlavour bpe_flavour(const GgufFile& f, std::string_view pre) {
    BpeFlavour b;
    if (pre == "gpt-2") {
        return b;  // GPT-2's own byte-level regex
    } else if (pre == "llama-bpe" || pre == "llama3" || pre == "llama-v3") {
        b.splits = {
            "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| "
            "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"};
        b.ignore_merges = true;
        b.add_bos = true;
    } else if (pre == "qwen2") {
        b.nfc = true;
        b.splits = {
            "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| "
            "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"};
    } else if (pre == "default") {
        // llama.cpp's default BPE splits (llama-vocab.cpp), applied one after the other.
        b.splits = {"[\\p{P}\\$\\+<=>\\^~\\|]+",
                    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)",
                    "\\p{N}+", "[0-9][0-9][0-9]"};
    } else {
        io::fail(f.path(), "tokenizer.ggml.pre \"" + std::string(pre) +
                               "\" is not supported (supported: gpt-2, llama-bpe, qwen2, default)");
    }
    return b;
}

// The post-processor adding BOS and/or EOS around each sequence (LlamaTokenizerFast's).
void write_bos_eos_template(Writer& w, const std::vector<std::string_view>& tokens,
                            std::optional<std::int64_t> bos, std::optional<std::int64_t> eos) {
    const auto special = [&](std::int64_t id, int type) {
        w.begin_object().key("SpecialToken").begin_object();
        w.member("id", tokens[std::size_t(id)]).member("type_id", type).end_object().end_object();
    };
    const auto sequence = [&](const char* id, int type) {
        w.begin_object().key("Sequence").begin_object();
        w.member("id", id).member("type_id", type).end_object().end_object();
    };
    w.begin_object().member("type", "TemplateProcessing");
    for (int k = 0; k < 2; ++k) {
        w.key(k == 0 ? "single" : "pair").begin_array();
        for (int s = 0; s <= k; ++s) {
            if (bos) special(*bos, s);
            sequence(s == 0 ? "A" : "B", s);
            if (eos) special(*eos, s);
        }
        w.end_array();
    }
    w.key("special_tokens").begin_object();
    for (auto id : {bos, eos}) {
        if (!id) continue;
        const std::string_view token = tokens[std::size_t(*id)];
        w.key(token).begin_object().member("id", token);
        w.key("ids").begin_array().value(*id).end_array();
        w.key("tokens").begin_array().value(token).end_array().end_object();
    }
    w.end_object().end_object();
}

// The byte offset of code point `k` of `s`.
std::size_t byte_offset(std::string_view s, std::size_t k) {
    std::size_t at = 0;
    for (std::size_t n = 0; n < k; ++n) {
        ++at;
        while (at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80)
            ++at;
    }
    return at;
}

// transformers' SentencePieceExtractor.extract with scores: every split of every piece into
// two pieces of the vocabulary is a merge, ranked by the whole piece's score (higher first,
// ties in vocabulary order, then by the ids of the two halves).
std::vector<std::string> spm_merges(const std::vector<std::string_view>& tokens,
                                    const std::vector<float>& scores) {
    std::unordered_map<std::string_view, std::int64_t> ids;
    ids.reserve(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i)
        ids.emplace(tokens[i], std::int64_t(i));
    struct Merge {
        float score;
        std::int64_t piece, left, right;
        std::size_t cut;
    };
    std::vector<Merge> merges;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string_view t = tokens[i];
        const std::size_t n = text::hf::uni::count_chars(t);
        std::vector<Merge> local;
        for (std::size_t k = 1; k < n; ++k) {
            const std::size_t at = byte_offset(t, k);
            const auto l = ids.find(t.substr(0, at));
            const auto r = ids.find(t.substr(at));
            if (l != ids.end() && r != ids.end())
                local.push_back({scores[i], std::int64_t(i), l->second, r->second, at});
        }
        std::sort(local.begin(), local.end(), [](const Merge& a, const Merge& b) {
            return a.left != b.left ? a.left < b.left : a.right < b.right;
        });
        merges.insert(merges.end(), local.begin(), local.end());
    }
    std::stable_sort(merges.begin(), merges.end(),
                     [](const Merge& a, const Merge& b) { return a.score > b.score; });
    std::vector<std::string> out;
    out.reserve(merges.size());
    for (const Merge& m : merges) {
        const std::string_view t = tokens[std::size_t(m.piece)];
        out.push_back(std::string(t.substr(0, m.cut)) + " " + std::string(t.substr(m.cut)));
    }
    return out;
}

/// What the metadata says, as tokenizer.json says it: `head` has written the whole file up to
/// the model's vocabulary and merges, and stands inside "model"; the vocabulary and merges are
/// lists of views, into the file or into owned (a deque: its strings never move).
struct GgufTokenizerParts {
    Writer head;
    bool bpe = false;  ///< a BPE with merges (gpt2, llama), else WordPiece (bert)
    std::vector<std::string_view> vocab, merges;
    std::deque<std::string> owned;
};

/// What a JSON round trip makes of each string (io::json::quote: every byte of an invalid UTF-8
/// sequence becomes U+FFFD), so that the lists give the tokenizer the JSON text gives.  Valid
/// strings, all of them in practice, stay as they are.
void sanitize(std::vector<std::string_view>& strings, std::deque<std::string>& owned) {
    for (std::string_view& s : strings)
        if (!io::json::is_valid_utf8(s)) {
            const io::json::Document d = io::json::parse(quote(s));
            owned.emplace_back(*io::json::as_string(d.root()));
            s = owned.back();
        }
}

/// The tokenizer metadata of a GGUF file, checked.
struct GgufVocabMeta {
    std::string model;  ///< tokenizer.ggml.model
    std::vector<std::string_view> tokens;
    std::vector<std::int64_t> types;  ///< llama.cpp's token type of each token
    std::optional<std::int64_t> bos, eos, unk;
    std::optional<bool> add_bos, add_eos;
    std::string pre;  ///< tokenizer.ggml.pre, "default" when absent
    bool gpt2 = false, llama = false, bert = false;
};

GgufVocabMeta read_vocab_meta(const GgufFile& f) {
    GgufVocabMeta m;
    m.model = std::string(f.at("tokenizer.ggml.model").as_string());
    m.tokens = f.at("tokenizer.ggml.tokens").as_string_array();
    if (m.tokens.empty()) io::fail(f.path(), "tokenizer.ggml.tokens is empty");
    m.types.assign(m.tokens.size(), kNormal);
    if (const io::GgufValue* t = f.find("tokenizer.ggml.token_type")) {
        m.types = t->as_int_array();
        if (m.types.size() != m.tokens.size())
            io::fail(f.path(), "tokenizer.ggml.token_type has " + std::to_string(m.types.size()) +
                                   " entries for " + std::to_string(m.tokens.size()) + " tokens");
    }
    const std::size_t V = m.tokens.size();
    m.bos = id_key(f, "tokenizer.ggml.bos_token_id", V);
    m.eos = id_key(f, "tokenizer.ggml.eos_token_id", V);
    m.unk = id_key(f, "tokenizer.ggml.unknown_token_id", V);
    id_key(f, "tokenizer.ggml.padding_token_id", V);  // checked; nothing pads here
    m.add_bos = bool_key(f, "tokenizer.ggml.add_bos_token");
    m.add_eos = bool_key(f, "tokenizer.ggml.add_eos_token");
    m.pre = f.find("tokenizer.ggml.pre") ? std::string(f.at("tokenizer.ggml.pre").as_string())
                                         : std::string("default");
    m.gpt2 = m.model == "gpt2";
    m.llama = m.model == "llama";
    m.bert = m.model == "bert";
    return m;
}

/// What the model type decides beyond the vocabulary: the BPE flavour, BERT's [CLS] and [SEP].
struct ModelChoices {
    BpeFlavour b;
    std::int64_t cls = 0, sep = 0;
};

/// SentencePiece (llama): merges made from the pieces and their scores.
void read_llama_merges(const GgufFile& f, const GgufVocabMeta& m, GgufTokenizerParts& parts) {
    const std::size_t V = m.tokens.size();
    if (m.pre != "default")
        io::fail(f.path(), "tokenizer.ggml.pre \"" + m.pre +
                               "\" is not supported for a SentencePiece (llama) vocabulary "
                               "(only \"default\")");
    std::vector<float> scores(V, 0.0f);
    if (const io::GgufValue* s = f.find("tokenizer.ggml.scores")) {
        scores = s->as_float_array();
        if (scores.size() != V)
            io::fail(f.path(), "tokenizer.ggml.scores has " + std::to_string(scores.size()) +
                                   " entries for " + std::to_string(V) + " tokens");
    }
    for (std::string& merge : spm_merges(m.tokens, scores))
        parts.merges.push_back(parts.owned.emplace_back(std::move(merge)));
}

/// WordPiece (bert): the vocabulary respelled as BERT spells it, and [CLS]/[SEP] checked.
void read_bert_vocab(const GgufFile& f, const GgufVocabMeta& m, GgufTokenizerParts& parts,
                     ModelChoices& c) {
    const std::size_t V = m.tokens.size();
    // llama.cpp writes a word start "w" as "▁w" and a continuation "##w" as "w".
    for (std::size_t i = 0; i < V; ++i) {
        const std::string_view t = m.tokens[i];
        const bool bracketed = t.size() > 2 && t.front() == '[' && t.back() == ']';
        if (t.substr(0, kWordStart.size()) == kWordStart)
            parts.vocab[i] = t.substr(kWordStart.size());
        else if (m.types[i] != kControl && !bracketed)
            parts.vocab[i] = parts.owned.emplace_back("##" + std::string(t));
    }
    c.cls = id_key(f, "tokenizer.ggml.cls_token_id", V).value_or(m.bos.value_or(101));
    c.sep = id_key(f, "tokenizer.ggml.seperator_token_id", V).value_or(102);
    if (std::size_t(std::max(c.cls, c.sep)) >= V)
        io::fail(f.path(), "the [CLS]/[SEP] ids are outside the vocabulary");
}

/// The vocabulary as the model type spells it (the file's own strings, or BERT's respelled)
/// and the merges, into parts.
ModelChoices read_model(const GgufFile& f, const GgufVocabMeta& m, GgufTokenizerParts& parts) {
    parts.vocab = m.tokens;
    ModelChoices c;
    if (m.gpt2) {
        parts.bpe = true;
        c.b = bpe_flavour(f, m.pre);
        parts.merges = f.at("tokenizer.ggml.merges").as_string_array();
    } else if (m.llama) {
        parts.bpe = true;
        read_llama_merges(f, m, parts);
        c.b.add_bos = true;
    } else if (m.bert) {
        read_bert_vocab(f, m, parts, c);
    } else {
        io::fail(f.path(), "tokenizer.ggml.model \"" + m.model +
                               "\" is not supported (supported: gpt2, llama, bert)");
    }
    return c;
}

/// The control, unknown (llama) and user-defined tokens.
void write_added_tokens(Writer& w, const GgufVocabMeta& m,
                        const std::vector<std::string_view>& vocab) {
    w.key("added_tokens").begin_array();
    for (std::size_t i = 0; i < vocab.size(); ++i) {
        const bool control = m.types[i] == kControl || (m.types[i] == kUnknown && m.llama);
        if (!control && m.types[i] != kUserDefined) continue;
        w.begin_object()
            .member("id", i)
            .member("content", vocab[i])
            .member("single_word", false)
            .member("lstrip", false)
            .member("rstrip", false)
            .member("normalized", !control)
            .member("special", control)
            .end_object();
    }
    w.end_array();
}

void write_normalizer(Writer& w, const GgufVocabMeta& m, const BpeFlavour& b) {
    w.key("normalizer");
    if (m.bert) {
        w.begin_object()
            .member("type", "BertNormalizer")
            .member("clean_text", true)
            .member("handle_chinese_chars", true)
            .member("strip_accents", nullptr)
            .member("lowercase", true)
            .end_object();
    } else if (m.llama) {
        // SentencePiece's: "▁" before the text and for every space.
        w.begin_object().member("type", "Sequence").key("normalizers").begin_array();
        w.begin_object().member("type", "Prepend").member("prepend", kWordStart).end_object();
        w.begin_object().member("type", "Replace").key("pattern").begin_object();
        w.member("String", " ").end_object().member("content", kWordStart).end_object();
        w.end_array().end_object();
    } else if (b.nfc) {
        w.begin_object().member("type", "NFC").end_object();
    } else {
        w.value(nullptr);
    }
}

void write_post_processor(Writer& w, const GgufVocabMeta& m, const ModelChoices& c,
                          const std::vector<std::string_view>& vocab) {
    w.key("post_processor");
    const bool with_bos = !m.bert && m.add_bos.value_or(c.b.add_bos) && m.bos;
    const bool with_eos = !m.bert && m.add_eos.value_or(false) && m.eos;
    if (m.bert) {
        w.begin_object().member("type", "BertProcessing");
        w.key("sep").begin_array().value(vocab[std::size_t(c.sep)]).value(c.sep).end_array();
        w.key("cls").begin_array().value(vocab[std::size_t(c.cls)]).value(c.cls).end_array();
        w.end_object();
    } else if (with_bos || with_eos) {
        write_bos_eos_template(w, m.tokens, with_bos ? m.bos : std::nullopt,
                               with_eos ? m.eos : std::nullopt);
    } else if (m.gpt2) {
        byte_level(w, false, false);
    } else {
        w.value(nullptr);
    }
}

/// The model's members before its vocabulary and merges.
void write_model_head(Writer& w, const GgufVocabMeta& m, const BpeFlavour& b,
                      const std::vector<std::string_view>& vocab) {
    const std::int64_t V = std::int64_t(vocab.size());
    if (m.bert) {
        const std::int64_t unk_id = m.unk.value_or(100) < V ? m.unk.value_or(100) : 0;
        w.member("type", "WordPiece")
            .member("unk_token", vocab[std::size_t(unk_id)])
            .member("continuing_subword_prefix", "##")
            .member("max_input_chars_per_word", 100);
        return;
    }
    w.member("type", "BPE").member("dropout", nullptr).key("unk_token");
    if (m.llama && m.unk)
        w.value(m.tokens[std::size_t(*m.unk)]);
    else
        w.value(nullptr);
    w.member("continuing_subword_prefix", nullptr)
        .member("end_of_word_suffix", nullptr)
        .member("fuse_unk", m.llama)
        .member("byte_fallback", m.llama)
        .member("ignore_merges", b.ignore_merges);
}

}  // namespace

GgufTokenizerParts gguf_tokenizer_parts(const GgufFile& f) {
    GgufTokenizerParts parts;
    const GgufVocabMeta m = read_vocab_meta(f);
    const ModelChoices c = read_model(f, m, parts);

    Writer& w = parts.head;
    w.begin_object().member("version", "1.0").member("truncation", nullptr);
    w.member("padding", nullptr);
    write_added_tokens(w, m, parts.vocab);
    write_normalizer(w, m, c.b);
    w.key("pre_tokenizer");
    if (m.bert)
        w.begin_object().member("type", "BertPreTokenizer").end_object();
    else if (m.gpt2)
        write_pre_tokenizer(w, c.b);
    else
        w.value(nullptr);
    write_post_processor(w, m, c, parts.vocab);
    w.member("decoder", nullptr).key("model").begin_object();
    write_model_head(w, m, c.b, parts.vocab);
    sanitize(parts.vocab, parts.owned);
    sanitize(parts.merges, parts.owned);
    return parts;
}

std::string gguf_tokenizer_json(const GgufFile& f) {
    GgufTokenizerParts parts = gguf_tokenizer_parts(f);
    Writer& w = parts.head;
    w.key("vocab").begin_object();
    for (std::size_t i = 0; i < parts.vocab.size(); ++i)
        w.member(parts.vocab[i], i);
    w.end_object();
    if (parts.bpe) {
        w.key("merges").begin_array();
        for (const std::string_view merge : parts.merges)
            w.value(merge);
        w.end_array();
    }
    return w.end_object().end_object().take();
}

text::HfTokenizer gguf_tokenizer(const GgufFile& f) {
    // The same tokenizer.json without its 150,000 tokens and merges written out and parsed
    // again: they go to the reader as the lists they are in the file.
    GgufTokenizerParts parts = gguf_tokenizer_parts(f);
    return text::HfTokenizer::from_tokenizer_json(parts.head.end_object().end_object().take(),
                                                  f.path(), {parts.vocab, parts.merges});
}

}  // namespace attnviz::models
