// The weights analyses read (Model::attention_weights, Model::readout): float32 copies in
// nn.Linear's [out, in] layout, whatever the file stores, read from the files (a streamed model
// keeps none of them).
#include <stdexcept>

#include "engine/models/transformer.h"

namespace attnviz::models::detail {

namespace {

/// Rows [r0, r1) of a [rows, cols] tensor.
Tensor row_slice(const Tensor& t, Index r0, Index r1) {
    const Index cols = t.rank() > 1 ? t.dim(1) : 1;
    std::vector<float> out(t.data.begin() + r0 * cols, t.data.begin() + r1 * cols);
    return t.rank() > 1 ? Tensor({r1 - r0, cols}, std::move(out))
                        : Tensor({r1 - r0}, std::move(out));
}

}  // namespace

AttentionWeights Transformer::attention_weights(Index layer, AttentionParts parts) const {
    if (layer < 0 || layer >= config_.num_layers)
        throw std::invalid_argument("layer " + std::to_string(layer + 1) + " is not one of the " +
                                    std::to_string(config_.num_layers) + " layers");
    const Index H = config_.num_heads, KV = config_.num_kv_heads, d = config_.head_dim;
    const auto tensors = layer_tensors(layer_params(config_, layer));
    const auto get = [&](Weight LayerWeights::*member) {
        for (std::size_t k = 0; k < kLayerWeightCount; ++k)
            if (kLayerWeights[k] == member) return weights_.as_linear(tensors[k]);
        return Tensor();
    };
    AttentionWeights w;
    w.o = get(&LayerWeights::o_w);
    w.o_bias = get(&LayerWeights::o_b);
    if (parts == AttentionParts::Output) return w;
    const Tensor qkv = get(&LayerWeights::qkv_w), qkv_b = get(&LayerWeights::qkv_b);
    w.q = row_slice(qkv, 0, H * d);
    w.k = row_slice(qkv, H * d, (H + KV) * d);
    w.v = row_slice(qkv, (H + KV) * d, (H + 2 * KV) * d);
    if (!qkv_b.empty()) {
        w.q_bias = row_slice(qkv_b, 0, H * d);
        w.k_bias = row_slice(qkv_b, H * d, (H + KV) * d);
        w.v_bias = row_slice(qkv_b, (H + KV) * d, (H + 2 * KV) * d);
    }
    w.norm_weight = get(&LayerWeights::norm1_w);
    w.norm_bias = get(&LayerWeights::norm1_b);
    w.q_norm = get(&LayerWeights::q_norm);
    w.k_norm = get(&LayerWeights::k_norm);
    w.score_scale = score_scale(layer);
    return w;
}

Readout Transformer::readout(const std::vector<Index>& ids) const {
    if (weights_.lm_head() != LmHeadKind::Causal)
        throw std::invalid_argument(weights_.lm_head() == LmHeadKind::None
                                        ? weights_.lm_head_missing()
                                        : "the readout of a masked-LM head is no norm and no "
                                          "unembedding alone");
    const Index E = config_.hidden_size, V = config_.vocab_size;
    for (const Index id : ids)
        if (id < 0 || id >= V)
            throw std::invalid_argument("token id " + std::to_string(id) +
                                        " is outside the vocabulary of " + std::to_string(V));
    const GlobalParams g = global_params(config_);
    Readout r;
    r.norm_weight = weights_.as_linear({g.final_norm_w});
    r.norm_bias = weights_.as_linear({g.final_norm_b});
    r.norm_eps = config_.norm_eps;
    r.rms = config_.family == Family::Llama;
    r.unembed = Tensor({static_cast<Index>(ids.size()), E});
    weights_.store().load_rows(weights_.unembed_name(), ids, r.unembed.ptr());
    return r;
}

Tensor Transformer::embedding_rows(const std::vector<Index>& ids) const {
    Tensor out({static_cast<Index>(ids.size()), config_.hidden_size});
    weights_.lookup(global_params(config_).word, ids, out.ptr(), false);
    return out;
}

}  // namespace attnviz::models::detail
