#include "engine/models/gguf_model.h"

#include <sys/stat.h>
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json_writer.h"
#include "engine/io/messages.h"
#include "engine/io/weight_store.h"

namespace attnviz::models {

namespace {

using io::GgufFile;

constexpr const char* kArchitectures[] = {"llama", "qwen2", "qwen3", "gpt2"};

std::string architecture(const GgufFile& f) {
    const std::string arch(f.at("general.architecture").as_string());
    for (const char* a : kArchitectures)
        if (arch == a) return arch;
    io::fail(f.path(), "general.architecture \"" + arch +
                           "\" is not supported (supported: llama, qwen2, qwen3, gpt2)");
}

// llama.cpp's per-layer names -> the Hugging Face names the Transformer reads (no prefix).
const std::map<std::string, std::string>& llama_layer_names() {
    static const std::map<std::string, std::string> m = {
        {"attn_norm.weight", "input_layernorm.weight"},
        {"ffn_norm.weight", "post_attention_layernorm.weight"},
        {"attn_q.weight", "self_attn.q_proj.weight"},
        {"attn_q.bias", "self_attn.q_proj.bias"},
        {"attn_k.weight", "self_attn.k_proj.weight"},
        {"attn_k.bias", "self_attn.k_proj.bias"},
        {"attn_v.weight", "self_attn.v_proj.weight"},
        {"attn_v.bias", "self_attn.v_proj.bias"},
        {"attn_output.weight", "self_attn.o_proj.weight"},
        {"attn_output.bias", "self_attn.o_proj.bias"},
        {"attn_q_norm.weight", "self_attn.q_norm.weight"},
        {"attn_k_norm.weight", "self_attn.k_norm.weight"},
        {"ffn_gate.weight", "mlp.gate_proj.weight"},
        {"ffn_gate.bias", "mlp.gate_proj.bias"},
        {"ffn_up.weight", "mlp.up_proj.weight"},
        {"ffn_up.bias", "mlp.up_proj.bias"},
        {"ffn_down.weight", "mlp.down_proj.weight"},
        {"ffn_down.bias", "mlp.down_proj.bias"},
    };
    return m;
}

const std::map<std::string, std::string>& gpt2_layer_names() {
    static const std::map<std::string, std::string> m = {
        {"attn_norm.weight", "ln_1.weight"},          {"attn_norm.bias", "ln_1.bias"},
        {"ffn_norm.weight", "ln_2.weight"},           {"ffn_norm.bias", "ln_2.bias"},
        {"attn_qkv.weight", "attn.c_attn.weight"},    {"attn_qkv.bias", "attn.c_attn.bias"},
        {"attn_output.weight", "attn.c_proj.weight"}, {"attn_output.bias", "attn.c_proj.bias"},
        {"ffn_up.weight", "mlp.c_fc.weight"},         {"ffn_up.bias", "mlp.c_fc.bias"},
        {"ffn_down.weight", "mlp.c_proj.weight"},     {"ffn_down.bias", "mlp.c_proj.bias"},
    };
    return m;
}

std::optional<std::string> hf_name(const std::string& arch, const std::string& name) {
    const bool gpt2 = arch == "gpt2";
    if (name == "token_embd.weight") return gpt2 ? "wte.weight" : "embed_tokens.weight";
    if (gpt2 && name == "position_embd.weight") return "wpe.weight";
    if (name == "output_norm.weight") return gpt2 ? "ln_f.weight" : "norm.weight";
    if (gpt2 && name == "output_norm.bias") return "ln_f.bias";
    if (name == "output.weight") return "lm_head.weight";
    if (name.rfind("blk.", 0) != 0) return std::nullopt;
    const std::size_t dot = name.find('.', 4);
    if (dot == std::string::npos) return std::nullopt;
    const std::string layer = name.substr(4, dot - 4);
    if (layer.empty() ||
        !std::all_of(layer.begin(), layer.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const auto& names = gpt2 ? gpt2_layer_names() : llama_layer_names();
    const auto it = names.find(name.substr(dot + 1));
    if (it == names.end()) return std::nullopt;
    return (gpt2 ? "h." : "layers.") + layer + "." + it->second;
}

std::uint64_t uint_key(const GgufFile& f, const std::string& key) {
    return f.at(key).as_uint();
}

std::optional<std::uint64_t> optional_uint(const GgufFile& f, const std::string& key) {
    if (const io::GgufValue* v = f.find(key)) return v->as_uint();
    return std::nullopt;
}

// A number of the config.  float32 values (llama.cpp writes eps and freq_base as
// float32) are written as the shortest decimal that reads back as the same float: the value
// the converter was given (1e-05, not 9.99999974738e-06), as in the checkpoint's config.json.
void real(io::json::Writer& w, const char* name, const io::GgufValue& v) {
    w.key(name);
    if (v.type() == io::GgufValueType::Float32)
        w.value(static_cast<float>(v.as_double()));
    else
        w.value(v.as_double());
}

// llama.cpp's converter reorders each head's rows of q and k from Hugging Face's halves
// (j, j + d/2) to interleaved pairs (2j, 2j + 1); this is the stored row of each row of the
// Hugging Face matrix, which the weight store reads in that order.
std::vector<std::int64_t> unpermuted_rows(std::int64_t rows, std::int64_t heads) {
    const std::int64_t d = rows / heads;
    std::vector<std::int64_t> order(static_cast<std::size_t>(rows));
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t i = 0; i < d / 2; ++i)
            for (int half = 0; half < 2; ++half)
                order[static_cast<std::size_t>(h * d + half * (d / 2) + i)] = h * d + 2 * i + half;
    return order;
}

}  // namespace

ModelConfig gguf_model_config(const GgufFile& f) {
    const std::string arch = architecture(f);
    const auto key = [&](const char* k) { return arch + "." + k; };
    if (f.find_tensor("rope_freqs.weight"))
        io::fail(f.path(),
                 "rope_freqs.weight (RoPE frequency factors, as for Llama 3.1 scaling) is not "
                 "supported");
    if (const io::GgufValue* s = f.find(key("rope.scaling.type")); s && s->as_string() != "none")
        io::fail(f.path(), key("rope.scaling.type") + " \"" + std::string(s->as_string()) +
                               "\" is not supported (only unscaled rotary embeddings)");
    const io::GgufTensorInfo* embd = f.find_tensor("token_embd.weight");
    if (!embd || embd->ne.size() != 2) io::fail(f.path(), "no 2-D tensor token_embd.weight");
    io::json::Writer j;
    j.begin_object().member("model_type", arch);
    j.member("vocab_size", embd->ne[1]);
    if (const io::GgufValue* eos = f.find("tokenizer.ggml.eos_token_id"))
        j.member("eos_token_id", eos->as_uint());
    const bool untied = f.find_tensor("output.weight") != nullptr;
    if (arch == "gpt2") {
        j.member("n_embd", uint_key(f, key("embedding_length")));
        j.member("n_layer", uint_key(f, key("block_count")));
        j.member("n_head", uint_key(f, key("attention.head_count")));
        j.member("n_positions", uint_key(f, key("context_length")));
        if (auto ff = optional_uint(f, key("feed_forward_length"))) j.member("n_inner", *ff);
        real(j, "layer_norm_epsilon", f.at(key("attention.layer_norm_epsilon")));
        j.member("tie_word_embeddings", !untied);
    } else {
        const std::uint64_t hidden = uint_key(f, key("embedding_length"));
        const std::uint64_t heads = uint_key(f, key("attention.head_count"));
        j.member("hidden_size", hidden);
        j.member("num_hidden_layers", uint_key(f, key("block_count")));
        j.member("num_attention_heads", heads);
        if (auto kv = optional_uint(f, key("attention.head_count_kv")))
            j.member("num_key_value_heads", *kv);
        const auto k_len = optional_uint(f, key("attention.key_length"));
        const auto v_len = optional_uint(f, key("attention.value_length"));
        if (k_len && v_len && *k_len != *v_len)
            io::fail(f.path(), "keys of " + std::to_string(*k_len) + " and values of " +
                                   std::to_string(*v_len) +
                                   " dimensions per head are not supported");
        if (k_len) j.member("head_dim", *k_len);
        const std::uint64_t head_dim = k_len ? *k_len : heads ? hidden / heads : 0;
        if (auto rot = optional_uint(f, key("rope.dimension_count")); rot && *rot != head_dim)
            io::fail(f.path(), key("rope.dimension_count") + " is " + std::to_string(*rot) +
                                   " but heads have " + std::to_string(head_dim) +
                                   " dimensions: partial rotary embeddings are not supported");
        j.member("intermediate_size", uint_key(f, key("feed_forward_length")));
        j.member("max_position_embeddings", uint_key(f, key("context_length")));
        real(j, "rms_norm_eps", f.at(key("attention.layer_norm_rms_epsilon")));
        if (const io::GgufValue* base = f.find(key("rope.freq_base"))) real(j, "rope_theta", *base);
        j.member("hidden_act", "silu");
        j.member("tie_word_embeddings", !untied);
        if (arch != "qwen2") {
            j.member("attention_bias", f.find_tensor("blk.0.attn_q.bias") != nullptr);
            j.member("mlp_bias", f.find_tensor("blk.0.ffn_up.bias") != nullptr);
        }
    }
    ModelConfig c = parse_config(j.end_object().take(), f.path() + " (metadata)");
    c.architecture = "GGUF " + arch;
    c.linear_weights = true;  // llama.cpp writes GPT-2's Conv1D weights as [out, in]
    return c;
}

std::unique_ptr<Model> load_gguf_model(const GgufFile& f) {
    ModelConfig config = gguf_model_config(f);
    const std::string arch = config.model_type;
    std::vector<io::GgufSource> sources;
    for (const io::GgufTensorInfo& t : f.tensors()) {
        auto name = hf_name(arch, t.name);
        if (!name)
            io::fail(f.path(), "tensor '" + t.name + "' is not one of llama.cpp's " + arch +
                                   " tensors that AttnViz reads");
        io::GgufSource source{std::move(*name), t.name, {}};
        const Shape shape = t.shape();
        // The converter permutes q's and k's biases with their weights' rows.
        const bool q =
            source.name.ends_with("q_proj.weight") || source.name.ends_with("q_proj.bias");
        const bool k =
            source.name.ends_with("k_proj.weight") || source.name.ends_with("k_proj.bias");
        if (arch == "llama" && (shape.size() == 2 || shape.size() == 1) && (q || k)) {
            const std::int64_t heads = q ? config.num_heads : config.num_kv_heads;
            if (shape[0] % (2 * heads) != 0)
                io::fail(f.path(), "tensor '" + t.name + "' has " + std::to_string(shape[0]) +
                                       " rows, not a whole number of heads of even size");
            source.row_order = unpermuted_rows(shape[0], heads);
        }
        sources.push_back(std::move(source));
    }
    io::WeightStore store = io::WeightStore::from_gguf(f, std::move(sources));
    return make_transformer(std::move(config), std::move(store), f.path());
}

bool is_gguf_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".gguf") == 0) return true;
    try {
        return io::read_file_head(path, 4).bytes == "GGUF";
    } catch (const DataError&) {
        return false;
    }
}

}  // namespace attnviz::models
