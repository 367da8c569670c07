#include "engine/models/config.h"

#include <cmath>
#include <filesystem>
#include <optional>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"

namespace attnviz::models {

namespace {

namespace json = io::json;

// Bounds well beyond every published checkpoint, so a lying config fails here with a clear
// message instead of asking for terabytes later.
constexpr std::int64_t kMaxVocab = std::int64_t{1} << 24;
constexpr std::int64_t kMaxHidden = 65536;
constexpr std::int64_t kMaxLayers = 1024;
constexpr std::int64_t kMaxHeads = 1024;
constexpr std::int64_t kMaxPositions = std::int64_t{1} << 24;

class Reader {
  public:
    Reader(json::Element root, std::string name) : root_(root), name_(std::move(name)) {}

    [[noreturn]] void fail(const std::string& what) const { throw DataError(name_ + ": " + what); }

    std::optional<json::Element> get(std::string_view key) const {
        auto v = json::find(root_, key);
        if (v && v->is_null()) return std::nullopt;
        return v;
    }

    /// The first of `keys` present, as an integer in [lo, hi].
    std::optional<std::int64_t> integer(std::initializer_list<std::string_view> keys,
                                        std::int64_t lo, std::int64_t hi) const {
        for (std::string_view key : keys) {
            auto v = get(key);
            if (!v) continue;
            const auto i = json::as_int64(*v);
            const auto u = json::as_uint64(*v);
            if (!i && !u)
                fail(std::string(key) + " must be an integer, found " + json::type_name(*v));
            if (!i || *i < lo || *i > hi)
                fail(std::string(key) + " is " + (i ? std::to_string(*i) : std::to_string(*u)) +
                     ", outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
            return *i;
        }
        return std::nullopt;
    }
    std::int64_t required(std::initializer_list<std::string_view> keys, std::int64_t lo,
                          std::int64_t hi) const {
        if (auto v = integer(keys, lo, hi)) return *v;
        fail("has no " + std::string(*keys.begin()));
    }
    std::optional<double> real(std::string_view key) const {
        auto v = get(key);
        if (!v) return std::nullopt;
        const auto d = json::as_double(*v);
        if (!d || !std::isfinite(*d)) fail(std::string(key) + " must be a number");
        return d;
    }
    std::optional<std::string> string(std::string_view key) const {
        auto v = get(key);
        if (!v) return std::nullopt;
        const auto s = json::as_string(*v);
        if (!s) fail(std::string(key) + " must be a string, found " + json::type_name(*v));
        return std::string(*s);
    }
    std::optional<bool> boolean(std::string_view key) const {
        auto v = get(key);
        if (!v) return std::nullopt;
        const auto b = json::as_bool(*v);
        if (!b) fail(std::string(key) + " must be true or false, found " + json::type_name(*v));
        return b;
    }
    json::Element root() const { return root_; }

  private:
    json::Element root_;
    std::string name_;
};

void read_activation(const Reader& r, std::string_view key, const std::string& fallback,
                     ModelConfig& c) {
    const std::string name = r.string(key).value_or(fallback);
    try {
        c.activation = ops::activation_from_name(name);
    } catch (const std::invalid_argument& e) {
        r.fail(std::string(key) + ": " + e.what());
    }
}

void read_encoder(const Reader& r, ModelConfig& c) {
    if (c.model_type == "distilbert") {
        c.family = Family::DistilBert;
        c.hidden_size = r.required({"dim", "hidden_size"}, 1, kMaxHidden);
        c.num_layers = r.required({"n_layers", "num_hidden_layers"}, 1, kMaxLayers);
        c.num_heads = r.required({"n_heads", "num_attention_heads"}, 1, kMaxHeads);
        c.intermediate_size = r.required({"hidden_dim", "intermediate_size"}, 1, kMaxHidden * 8);
        c.norm_eps = 1e-12;  // DistilBERT's LayerNorms are built with eps=1e-12
        read_activation(r, "activation", "gelu", c);
    } else {
        c.family = Family::Bert;
        c.hidden_size = r.required({"hidden_size"}, 1, kMaxHidden);
        c.num_layers = r.required({"num_hidden_layers"}, 1, kMaxLayers);
        c.num_heads = r.required({"num_attention_heads"}, 1, kMaxHeads);
        c.intermediate_size = r.required({"intermediate_size"}, 1, kMaxHidden * 8);
        c.type_vocab_size = r.integer({"type_vocab_size"}, 0, 1 << 16).value_or(2);
        c.norm_eps = r.real("layer_norm_eps").value_or(1e-12);
        read_activation(r, "hidden_act", "gelu", c);
        const std::string positions = r.string("position_embedding_type").value_or("absolute");
        if (positions != "absolute")
            r.fail("position_embedding_type is \"" + positions +
                   "\": relative position embeddings are not supported (only \"absolute\")");
        if (c.model_type == "roberta")
            c.pad_token_id = r.integer({"pad_token_id"}, 0, kMaxVocab).value_or(1);
    }
    c.max_positions = r.required({"max_position_embeddings"}, 1, kMaxPositions);
}

void read_gpt2(const Reader& r, ModelConfig& c) {
    c.family = Family::Gpt2;
    c.hidden_size = r.required({"n_embd", "hidden_size"}, 1, kMaxHidden);
    c.num_layers = r.required({"n_layer", "num_hidden_layers"}, 1, kMaxLayers);
    c.num_heads = r.required({"n_head", "num_attention_heads"}, 1, kMaxHeads);
    c.intermediate_size = r.integer({"n_inner"}, 1, kMaxHidden * 8).value_or(4 * c.hidden_size);
    c.max_positions = r.required({"n_positions", "max_position_embeddings"}, 1, kMaxPositions);
    c.norm_eps = r.real("layer_norm_epsilon").value_or(1e-5);
    read_activation(r, "activation_function", "gelu_new", c);
    c.scale_attn_weights = r.boolean("scale_attn_weights").value_or(true);
    c.scale_attn_by_inverse_layer_idx =
        r.boolean("scale_attn_by_inverse_layer_idx").value_or(false);
    c.tie_word_embeddings = r.boolean("tie_word_embeddings").value_or(true);
}

void read_llama(const Reader& r, ModelConfig& c) {
    c.family = Family::Llama;
    c.hidden_size = r.required({"hidden_size"}, 1, kMaxHidden);
    c.num_layers = r.required({"num_hidden_layers"}, 1, kMaxLayers);
    c.num_heads = r.required({"num_attention_heads"}, 1, kMaxHeads);
    c.num_kv_heads = r.integer({"num_key_value_heads"}, 1, kMaxHeads).value_or(c.num_heads);
    c.head_dim = r.integer({"head_dim"}, 2, 4096).value_or(0);
    // 0: an attention-only model (no MLP, as interpretability work trains them); transformers
    // builds its MLP with zero-width weights, whose output is zero.
    c.intermediate_size = r.required({"intermediate_size"}, 0, kMaxHidden * 16);
    c.max_positions = r.integer({"max_position_embeddings"}, 1, kMaxPositions).value_or(2048);
    c.norm_eps = r.real("rms_norm_eps").value_or(1e-6);
    read_activation(r, "hidden_act", "silu", c);
    c.rope_theta = r.real("rope_theta").value_or(10000.0);
    if (c.rope_theta <= 1.0) r.fail("rope_theta must be greater than 1");
    c.tie_word_embeddings = r.boolean("tie_word_embeddings").value_or(false);
    if (c.model_type == "qwen2") {
        c.attention_bias = true;  // Qwen2 always has q/k/v biases and none on o_proj
        if (r.boolean("use_sliding_window").value_or(false))
            r.fail("use_sliding_window is true: sliding-window attention is not supported");
    } else {
        c.attention_bias = r.boolean("attention_bias").value_or(false);
        c.o_proj_bias = c.attention_bias;  // llama and qwen3: every projection
        c.mlp_bias = r.boolean("mlp_bias").value_or(false);
    }
    c.qk_norm = c.model_type == "qwen3";
    if (c.model_type == "qwen3" && r.boolean("use_sliding_window").value_or(false))
        r.fail("use_sliding_window is true: sliding-window attention is not supported");
    if (auto scaling = r.get("rope_scaling")) {
        if (!scaling->is_object()) r.fail("rope_scaling must be an object or null");
        const Reader s(*scaling, "");
        std::string type = s.string("rope_type").value_or(s.string("type").value_or("default"));
        if (type == "llama3") {
            c.rope_scaling.type = type;
            auto need = [&](std::string_view key) {
                auto v = s.real(key);
                if (!v || *v <= 0)
                    r.fail("rope_scaling." + std::string(key) + " must be a positive number");
                return *v;
            };
            c.rope_scaling.factor = need("factor");
            c.rope_scaling.low_freq_factor = need("low_freq_factor");
            c.rope_scaling.high_freq_factor = need("high_freq_factor");
            c.rope_scaling.original_max_position_embeddings =
                need("original_max_position_embeddings");
            if (c.rope_scaling.high_freq_factor <= c.rope_scaling.low_freq_factor)
                r.fail("rope_scaling.high_freq_factor must be larger than low_freq_factor");
        } else if (type != "default") {
            r.fail("rope_scaling type \"" + type +
                   "\" is not supported (only \"llama3\" and the default rotation)");
        }
    }
}

}  // namespace

std::string ModelConfig::display_name() const {
    if (model_type == "bert") return "BERT";
    if (model_type == "roberta") return "RoBERTa";
    if (model_type == "distilbert") return "DistilBERT";
    if (model_type == "gpt2") return "GPT-2";
    if (model_type == "llama") return "Llama";
    if (model_type == "qwen2") return "Qwen2";
    if (model_type == "qwen3") return "Qwen3";
    return model_type;
}

const std::vector<std::string>& supported_model_types() {
    static const std::vector<std::string> types = {"bert",  "roberta", "distilbert", "gpt2",
                                                   "llama", "qwen2",   "qwen3"};
    return types;
}

namespace {
/// config.json's text as a JSON object; DataError naming `name` otherwise.
json::Document parse_object(std::string_view text, const std::string& name) {
    json::Document doc;
    try {
        doc = json::parse(text);
    } catch (const json::ParseError& e) {
        throw DataError(name + ": not valid JSON: " + e.what());
    }
    if (!doc.root().is_object())
        throw DataError(name + ": expected a JSON object, found " + json::type_name(doc.root()));
    return doc;
}
}  // namespace

ModelConfig parse_config(std::string_view text, const std::string& name) {
    const json::Document doc = parse_object(text, name);
    const Reader r(doc.root(), name);
    ModelConfig c;
    c.model_type = r.string("model_type").value_or("");
    if (c.model_type.empty()) r.fail("has no model_type, so the architecture is unknown");
    if (auto arch = r.get("architectures"); arch && arch->is_array()) {
        for (json::Element a : json::Array(*arch))
            if (auto s = json::as_string(a)) {
                c.architecture = std::string(*s);
                break;
            }
    }
    const auto& types = supported_model_types();
    if (std::find(types.begin(), types.end(), c.model_type) == types.end()) {
        std::string list;
        for (const auto& t : types)
            list += (list.empty() ? "" : ", ") + t;
        r.fail("model_type \"" + c.model_type + "\" is not supported (supported: " + list + ")");
    }
    if (c.model_type == "gpt2")
        read_gpt2(r, c);
    else if (c.model_type == "llama" || c.model_type == "qwen2" || c.model_type == "qwen3")
        read_llama(r, c);
    else
        read_encoder(r, c);
    c.vocab_size = r.required({"vocab_size"}, 1, kMaxVocab);
    if (const auto eos = r.get("eos_token_id")) {
        if (eos->is_array()) {
            for (json::Element e : json::Array(*eos)) {
                const auto id = json::as_int64(e);
                if (!id || *id < 0)
                    r.fail(std::string("eos_token_id must hold ids, found ") + json::type_name(e));
                c.eos_token_ids.push_back(*id);
            }
        } else {
            c.eos_token_ids.push_back(*r.integer({"eos_token_id"}, 0, kMaxVocab));
        }
    }
    if (c.num_kv_heads == 0) c.num_kv_heads = c.num_heads;
    if (c.head_dim == 0) {
        if (c.hidden_size % c.num_heads != 0)
            r.fail("hidden size " + std::to_string(c.hidden_size) + " is not divisible by " +
                   std::to_string(c.num_heads) + " attention heads");
        c.head_dim = c.hidden_size / c.num_heads;
    }
    if (c.num_heads % c.num_kv_heads != 0)
        r.fail(std::to_string(c.num_heads) + " attention heads cannot share " +
               std::to_string(c.num_kv_heads) +
               " key/value heads (num_key_value_heads must divide num_attention_heads)");
    if (c.rotary() && c.head_dim % 2 != 0)
        r.fail("head_dim " + std::to_string(c.head_dim) + " is odd; rotary embeddings need pairs");
    return c;
}

TokenizerSideConfig read_tokenizer_side_config(const std::string& folder) {
    TokenizerSideConfig out;
    const std::string path = (std::filesystem::path(folder) / "config.json").string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return out;
    const std::string text = io::read_file(path, std::size_t(16) << 20);
    const json::Document doc = parse_object(text, path);
    const Reader r(doc.root(), path);
    out.present = true;
    out.model_type = r.string("model_type").value_or("");
    out.vocab_size = r.integer({"vocab_size"}, 1, kMaxVocab).value_or(0);
    out.max_positions =
        r.integer({"max_position_embeddings", "n_positions"}, 1, kMaxPositions).value_or(0);
    return out;
}

ModelConfig read_config(const std::string& folder) {
    const std::string path = (std::filesystem::path(folder) / "config.json").string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw DataError(folder +
                        ": no config.json; a Hugging Face model folder has config.json "
                        "beside its weights");
    return parse_config(io::read_file(path, std::size_t(16) << 20), path);
}

}  // namespace attnviz::models
