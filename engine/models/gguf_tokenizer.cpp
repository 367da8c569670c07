#include "engine/models/gguf_tokenizer.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/errors.h"
#include "engine/io/json.h"

namespace attnviz::models {

namespace {

using io::GgufFile;
using io::json::quote;

// llama.cpp's token types (llama.h enum llama_token_type).
constexpr std::int64_t kNormal = 1, kUnknown = 2, kControl = 3, kUserDefined = 4;

[[noreturn]] void fail(const GgufFile& f, const std::string& what) {
    throw DataError(f.path() + ": " + what);
}

std::optional<std::int64_t> id_key(const GgufFile& f, const char* key, std::size_t vocab) {
    const io::GgufValue* v = f.find(key);
    if (!v) return std::nullopt;
    const std::uint64_t id = v->as_uint();
    if (id >= vocab)
        fail(f, std::string(key) + " is " + std::to_string(id) + ", outside the " +
                    std::to_string(vocab) + " tokens");
    return static_cast<std::int64_t>(id);
}

std::optional<bool> bool_key(const GgufFile& f, const char* key) {
    if (const io::GgufValue* v = f.find(key)) return v->as_bool();
    return std::nullopt;
}

// Hugging Face's pre-tokenizer for each of llama.cpp's names (the tokenizer.json of the
// models llama.cpp's convert_hf_to_gguf_update.py lists under them).
std::string split(std::string_view regex) {
    return "{\"type\":\"Split\",\"pattern\":{\"Regex\":" + quote(regex) +
           "},\"behavior\":\"Isolated\",\"invert\":false}";
}
constexpr std::string_view kByteLevelNoRegex =
    "{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":false,"
    "\"use_regex\":false}";

struct BpeFlavour {
    std::string normalizer = "null", pre_tokenizer;
    bool ignore_merges = false, add_bos = false;
};

BpeFlavour bpe_flavour(const GgufFile& f, std::string_view pre) {
    BpeFlavour b;
    if (pre == "gpt-2") {
        b.pre_tokenizer =
            "{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,"
            "\"use_regex\":true}";
    } else if (pre == "llama-bpe" || pre == "llama3" || pre == "llama-v3") {
        b.pre_tokenizer =
            "{\"type\":\"Sequence\",\"pretokenizers\":[" +
            split(
                "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| "
                "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+") +
            "," + std::string(kByteLevelNoRegex) + "]}";
        b.ignore_merges = true;
        b.add_bos = true;
    } else if (pre == "qwen2") {
        b.normalizer = "{\"type\":\"NFC\"}";
        b.pre_tokenizer = "{\"type\":\"Sequence\",\"pretokenizers\":[" +
                          split(
                              "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| "
                              "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+") +
                          "," + std::string(kByteLevelNoRegex) + "]}";
    } else if (pre == "default") {
        // llama.cpp's default BPE splits (llama-vocab.cpp), applied one after the other.
        b.pre_tokenizer = "{\"type\":\"Sequence\",\"pretokenizers\":[" +
                          split("[\\p{P}\\$\\+<=>\\^~\\|]+") + "," +
                          split(
                              "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| "
                              "?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)") +
                          "," + split("\\p{N}+") + "," + split("[0-9][0-9][0-9]") + "," +
                          std::string(kByteLevelNoRegex) + "]}";
    } else {
        fail(f, "tokenizer.ggml.pre \"" + std::string(pre) +
                    "\" is not supported (supported: gpt-2, llama-bpe, qwen2, default)");
    }
    return b;
}

// The post-processor adding BOS and/or EOS around each sequence (LlamaTokenizerFast's).
std::string bos_eos_template(const std::vector<std::string_view>& tokens,
                             std::optional<std::int64_t> bos, std::optional<std::int64_t> eos) {
    auto special = [&](std::int64_t id, int type) {
        return "{\"SpecialToken\":{\"id\":" + quote(tokens[std::size_t(id)]) +
               ",\"type_id\":" + std::to_string(type) + "}}";
    };
    auto seq = [](const char* s, int type) {
        return "{\"Sequence\":{\"id\":\"" + std::string(s) +
               "\",\"type_id\":" + std::to_string(type) + "}}";
    };
    std::string single, pair;
    for (int k = 0; k < 2; ++k) {
        std::string& t = k == 0 ? single : pair;
        for (int s = 0; s <= k; ++s) {
            if (!t.empty()) t += ',';
            if (bos) t += special(*bos, s) + ",";
            t += seq(s == 0 ? "A" : "B", s);
            if (eos) t += "," + special(*eos, s);
        }
    }
    std::string specials;
    for (auto id : {bos, eos}) {
        if (!id) continue;
        const std::string tok = quote(tokens[std::size_t(*id)]);
        if (!specials.empty()) specials += ',';
        specials += tok + ":{\"id\":" + tok + ",\"ids\":[" + std::to_string(*id) +
                    "],\"tokens\":[" + tok + "]}";
    }
    return "{\"type\":\"TemplateProcessing\",\"single\":[" + single + "],\"pair\":[" + pair +
           "],\"special_tokens\":{" + specials + "}}";
}

std::size_t code_points(std::string_view s) {
    std::size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
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
        const std::size_t n = code_points(t);
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

/// What the metadata says, as tokenizer.json says it: `head` is the whole file up to the model's
/// fields (its vocabulary and merges left out, its closing braces too), and the vocabulary and
/// merges are lists of views, into the file or into owned (a deque: its strings never move).
struct GgufTokenizerParts {
    std::string head;
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

}  // namespace

GgufTokenizerParts gguf_tokenizer_parts(const GgufFile& f) {
    GgufTokenizerParts parts;
    const std::string model(f.at("tokenizer.ggml.model").as_string());
    const std::vector<std::string_view> tokens = f.at("tokenizer.ggml.tokens").as_string_array();
    if (tokens.empty()) fail(f, "tokenizer.ggml.tokens is empty");
    std::vector<std::int64_t> types(tokens.size(), kNormal);
    if (const io::GgufValue* t = f.find("tokenizer.ggml.token_type")) {
        types = t->as_int_array();
        if (types.size() != tokens.size())
            fail(f, "tokenizer.ggml.token_type has " + std::to_string(types.size()) +
                        " entries for " + std::to_string(tokens.size()) + " tokens");
    }
    const std::size_t V = tokens.size();
    std::optional<std::int64_t> bos = id_key(f, "tokenizer.ggml.bos_token_id", V);
    std::optional<std::int64_t> eos = id_key(f, "tokenizer.ggml.eos_token_id", V);
    const std::optional<std::int64_t> unk = id_key(f, "tokenizer.ggml.unknown_token_id", V);
    id_key(f, "tokenizer.ggml.padding_token_id", V);  // checked; nothing pads here
    const std::optional<bool> add_bos = bool_key(f, "tokenizer.ggml.add_bos_token");
    const std::optional<bool> add_eos = bool_key(f, "tokenizer.ggml.add_eos_token");
    const std::string pre = f.find("tokenizer.ggml.pre")
                                ? std::string(f.at("tokenizer.ggml.pre").as_string())
                                : std::string("default");

    // The vocabulary as the model type spells it: the file's own strings, or BERT's respelled.
    std::vector<std::string_view>& vocab = parts.vocab;
    vocab = tokens;
    std::string normalizer = "null", pre_tokenizer = "null", post = "null", model_json;
    if (model == "gpt2" || model == "llama") {
        parts.bpe = true;
        BpeFlavour b;
        if (model == "gpt2") {
            b = bpe_flavour(f, pre);
            parts.merges = f.at("tokenizer.ggml.merges").as_string_array();
        } else {
            if (pre != "default")
                fail(f, "tokenizer.ggml.pre \"" + pre +
                            "\" is not supported for a SentencePiece (llama) vocabulary "
                            "(only \"default\")");
            std::vector<float> scores(V, 0.0f);
            if (const io::GgufValue* s = f.find("tokenizer.ggml.scores")) {
                scores = s->as_float_array();
                if (scores.size() != V)
                    fail(f, "tokenizer.ggml.scores has " + std::to_string(scores.size()) +
                                " entries for " + std::to_string(V) + " tokens");
            }
            for (std::string& m : spm_merges(tokens, scores))
                parts.merges.push_back(parts.owned.emplace_back(std::move(m)));
            normalizer =
                "{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"Prepend\",\"prepend\":"
                "\"\\u2581\"},{\"type\":\"Replace\",\"pattern\":{\"String\":\" \"},"
                "\"content\":\"\\u2581\"}]}";
            b.add_bos = true;
        }
        if (model == "gpt2") {
            normalizer = b.normalizer;
            pre_tokenizer = b.pre_tokenizer;
        }
        const bool with_bos = add_bos.value_or(b.add_bos) && bos;
        const bool with_eos = add_eos.value_or(false) && eos;
        if (with_bos || with_eos)
            post = bos_eos_template(tokens, with_bos ? bos : std::nullopt,
                                    with_eos ? eos : std::nullopt);
        else if (model == "gpt2")
            post = std::string(kByteLevelNoRegex);
        model_json = "{\"type\":\"BPE\",\"dropout\":null,\"unk_token\":" +
                     (model == "llama" && unk ? quote(tokens[std::size_t(*unk)]) : "null") +
                     ",\"continuing_subword_prefix\":null,\"end_of_word_suffix\":null,"
                     "\"fuse_unk\":" +
                     (model == "llama" ? "true" : "false") +
                     ",\"byte_fallback\":" + (model == "llama" ? "true" : "false") +
                     ",\"ignore_merges\":" + (b.ignore_merges ? "true" : "false");
    } else if (model == "bert") {
        // llama.cpp writes a word start "w" as "▁w" and a continuation "##w" as "w".
        constexpr std::string_view kSpace = "\xE2\x96\x81";
        for (std::size_t i = 0; i < V; ++i) {
            const std::string_view t = tokens[i];
            const bool bracketed = t.size() > 2 && t.front() == '[' && t.back() == ']';
            if (t.substr(0, kSpace.size()) == kSpace)
                vocab[i] = t.substr(kSpace.size());
            else if (types[i] != kControl && !bracketed)
                vocab[i] = parts.owned.emplace_back("##" + std::string(t));
        }
        const std::int64_t cls =
            id_key(f, "tokenizer.ggml.cls_token_id", V).value_or(bos.value_or(101));
        const std::int64_t sep = id_key(f, "tokenizer.ggml.seperator_token_id", V).value_or(102);
        if (std::size_t(std::max(cls, sep)) >= V)
            fail(f, "the [CLS]/[SEP] ids are outside the vocabulary");
        normalizer =
            "{\"type\":\"BertNormalizer\",\"clean_text\":true,\"handle_chinese_chars\":true,"
            "\"strip_accents\":null,\"lowercase\":true}";
        pre_tokenizer = "{\"type\":\"BertPreTokenizer\"}";
        post = "{\"type\":\"BertProcessing\",\"sep\":[" + quote(vocab[std::size_t(sep)]) + "," +
               std::to_string(sep) + "],\"cls\":[" + quote(vocab[std::size_t(cls)]) + "," +
               std::to_string(cls) + "]}";
        model_json =
            "{\"type\":\"WordPiece\",\"unk_token\":" +
            quote(vocab[std::size_t(unk.value_or(100) < std::int64_t(V) ? unk.value_or(100) : 0)]) +
            ",\"continuing_subword_prefix\":\"##\",\"max_input_chars_per_word\":100";
    } else {
        fail(f, "tokenizer.ggml.model \"" + model +
                    "\" is not supported (supported: gpt2, llama, bert)");
    }

    std::string added;
    for (std::size_t i = 0; i < V; ++i) {
        const bool control = types[i] == kControl || (types[i] == kUnknown && model == "llama");
        if (!control && types[i] != kUserDefined) continue;
        if (!added.empty()) added += ',';
        added += "{\"id\":" + std::to_string(i) + ",\"content\":" + quote(vocab[i]) +
                 ",\"single_word\":false,\"lstrip\":false,\"rstrip\":false,\"normalized\":" +
                 (control ? "false" : "true") + ",\"special\":" + (control ? "true" : "false") +
                 "}";
    }
    parts.head = "{\"version\":\"1.0\",\"truncation\":null,\"padding\":null,\"added_tokens\":[" +
                 added + "],\"normalizer\":" + normalizer + ",\"pre_tokenizer\":" + pre_tokenizer +
                 ",\"post_processor\":" + post + ",\"decoder\":null,\"model\":" + model_json;
    sanitize(parts.vocab, parts.owned);
    sanitize(parts.merges, parts.owned);
    return parts;
}

std::string gguf_tokenizer_json(const GgufFile& f) {
    const GgufTokenizerParts parts = gguf_tokenizer_parts(f);
    std::string json = parts.head + ",\"vocab\":{";
    for (std::size_t i = 0; i < parts.vocab.size(); ++i) {
        if (i) json += ',';
        json += quote(parts.vocab[i]) + ":" + std::to_string(i);
    }
    json += '}';
    if (parts.bpe) {
        json += ",\"merges\":[";
        for (std::size_t i = 0; i < parts.merges.size(); ++i) {
            if (i) json += ',';
            json += quote(parts.merges[i]);
        }
        json += ']';
    }
    return json + "}}";
}

text::HfTokenizer gguf_tokenizer(const GgufFile& f) {
    // The same tokenizer.json without its 150,000 tokens and merges written out and parsed
    // again: they go to the reader as the lists they are in the file.
    const GgufTokenizerParts parts = gguf_tokenizer_parts(f);
    return text::HfTokenizer::from_tokenizer_json(parts.head + "}}", f.path(),
                                                  {parts.vocab, parts.merges});
}

}  // namespace attnviz::models
