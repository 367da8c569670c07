// A Hugging Face config.json, read into the few numbers a forward pass needs, for the
// families AttnViz computes: encoders with post-LayerNorm (bert, roberta, distilbert), GPT-2,
// and decoders with RMSNorm and rotary embeddings (llama, qwen2, qwen3).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ops/nn.h"

namespace attnviz::models {

enum class Family { Bert, DistilBert, Gpt2, Llama };

struct RopeScaling {
    std::string type;  ///< "" (none) or "llama3"
    double factor = 1.0, low_freq_factor = 1.0, high_freq_factor = 4.0;
    double original_max_position_embeddings = 8192.0;
};

struct ModelConfig {
    std::string model_type;    ///< as written: "bert", "roberta", "qwen2", ...
    std::string architecture;  ///< architectures[0] when present ("BertForMaskedLM")
    Family family = Family::Bert;

    std::int64_t hidden_size = 0;
    std::int64_t num_layers = 0;
    std::int64_t num_heads = 0;
    std::int64_t num_kv_heads = 0;  ///< == num_heads unless grouped-query attention
    std::int64_t head_dim = 0;      ///< config's head_dim, else hidden_size / num_heads
    std::int64_t intermediate_size = 0;
    std::int64_t vocab_size = 0;
    std::int64_t max_positions = 0;
    std::int64_t type_vocab_size = 0;  ///< token types (BERT); 0 when the model has none
    std::int64_t pad_token_id = -1;    ///< RoBERTa's padding_idx (positions start after it)
    double norm_eps = 1e-12;           ///< layer_norm_eps / layer_norm_epsilon / rms_norm_eps
    ops::Activation activation = ops::Activation::Gelu;

    // Rotary families.
    double rope_theta = 10000.0;
    RopeScaling rope_scaling;
    bool attention_bias = false;  ///< q/k/v (and for llama o) projections carry biases
    bool o_proj_bias = false;
    bool mlp_bias = false;
    bool qk_norm = false;  ///< qwen3: RMSNorm per head on q and k before the rotation
    bool tie_word_embeddings = false;
    std::vector<std::int64_t> eos_token_ids;  ///< eos_token_id: one id or a list

    // GPT-2.
    bool scale_attn_weights = true;
    bool scale_attn_by_inverse_layer_idx = false;
    /// The weights are nn.Linear's [out, in] (a GGUF file), not Conv1D's [in, out].
    bool linear_weights = false;

    bool causal() const { return family == Family::Gpt2 || family == Family::Llama; }
    bool rotary() const { return family == Family::Llama; }
    /// The norm before attention and MLP (GPT-2, Llama) rather than after them (BERT).
    bool pre_norm() const { return family == Family::Gpt2 || family == Family::Llama; }
    /// "BERT", "RoBERTa", "GPT-2", "Qwen2", ... for titles.
    std::string display_name() const;
};

/// The model types load_model() opens, in the order the messages list them.
const std::vector<std::string>& supported_model_types();

/// Parses config.json text; `name` (the file) is used in messages.  Throws DataError naming the
/// file and the problem: not JSON, no or an unknown model_type, a missing or out-of-range
/// field, relative position embeddings, sliding-window attention, heads that do not divide.
ModelConfig parse_config(std::string_view json_text, const std::string& name);
ModelConfig read_config(const std::string& folder);

/// What a tokenizer's user wants of config.json, read without the layer sizes a forward pass
/// needs: a tokenizer-only folder (AutoTokenizer.save_pretrained) often has a config.json with
/// model_type and vocab_size alone, or none.
struct TokenizerSideConfig {
    bool present = false;            ///< the folder has a config.json
    std::string model_type;          ///< "" when absent
    std::int64_t vocab_size = 0;     ///< 0 when absent
    std::int64_t max_positions = 0;  ///< max_position_embeddings / n_positions; 0 when absent
};
/// Throws DataError for a config.json that is not a JSON object or has a field of the wrong
/// type; a missing file or field is no error.
TokenizerSideConfig read_tokenizer_side_config(const std::string& folder);

}  // namespace attnviz::models
