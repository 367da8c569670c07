// Where each family keeps its weights: the tensor names and shapes config.json implies for a
// layer, for the embeddings and for the language-model head.  Names and shapes only: which of
// them a file holds, and reading them, is TransformerWeights' (transformer_weights.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/models/config.h"
#include "engine/ops/nn.h"
#include "engine/tensor.h"

namespace attnviz::models::detail {

using Index = std::int64_t;

/// One parameter of the family's layout: its name without the model prefix and the shape the
/// config implies.  conv1d: GPT-2 stores [in, out] (unless ModelConfig::linear_weights), not
/// nn.Linear's [out, in].
struct Param {
    std::string name;
    Shape shape;
    bool conv1d = false;
    bool optional = false;
    bool top_level = false;  ///< named without the base model's prefix (a head's weights)
};

struct LayerParams {
    Param norm1_w, norm1_b, norm2_w, norm2_b;
    std::vector<Param> qkv_w, qkv_b;  ///< q, k, v (or GPT-2's fused c_attn)
    Param q_norm, k_norm;
    Param o_w, o_b;
    std::vector<Param> up_w, up_b;  ///< gated: gate then up
    Param down_w, down_b;
};

/// The weights of a layer as the products read them (LayerWeights, transformer_weights.h).
inline constexpr std::size_t kLayerWeightCount = 14;

/// The stored tensors each of a layer's weights is made of, in kLayerWeights' order (stacked
/// along their first dimension: q, k and v; gate and up).
std::array<std::vector<Param>, kLayerWeightCount> layer_tensors(const LayerParams& p);

/// A matrix (multiplied, streamed when the weights stream), not a vector (norms, biases).
bool is_matrix(const std::vector<Param>& tensors);

/// Layer i's parameters under the family's names.
LayerParams layer_params(const ModelConfig& c, Index i);

struct GlobalParams {
    Param word, position, token_type, emb_norm_w, emb_norm_b, final_norm_w, final_norm_b;
};

GlobalParams global_params(const ModelConfig& c);

/// The language-model head's parameters, named as the file names them at its top level (no
/// base-model prefix).  decoder empty: tied to the word embeddings.
struct HeadParams {
    Param dense_w, dense_b, norm_w, norm_b, decoder, bias;
    std::vector<std::string> bias_names;  ///< where the decoder's bias may be stored
    ops::Activation activation = ops::Activation::Gelu;
    const char* names = "";      ///< for the message when the file has no head
    const char* with_head = "";  ///< transformers' class that saves it
};

/// The masked-LM head of an encoder family: BertForMaskedLM's cls.predictions, RoBERTa's
/// lm_head, DistilBERT's vocab_* layers.
HeadParams masked_head_params(const ModelConfig& c);

/// "hidden size 768, 12 heads, head_dim 64, ...": the sizes a shape message cites.
std::string describe_config(const ModelConfig& c);

}  // namespace attnviz::models::detail
