// The model families as one transformer with per-family names and block order:
//  * bert / roberta / distilbert: learned positions (+ token types), post-LayerNorm blocks;
//  * gpt2: learned positions, pre-LayerNorm blocks, Conv1D weights stored [in, out], causal;
//  * llama / qwen2 / qwen3: RMSNorm, rotary positions, grouped-query attention, SwiGLU, causal.
// Q, K and V are one fused projection whatever the file stores, so each layer runs one matrix
// product for them; attention itself is layers::attend, shared with nn.MultiheadAttention.
//
// The class is in parts, as CTranslate2 keeps its models: the families' weight names
// (weight_layout.h), reading and streaming the weights (transformer_weights.h), the forward
// pass (transformer_forward.cpp), the choice of the next token (sampling.h) and generation
// with a key/value cache (generation.cpp).  This header is the engine's own: the rest of the
// program sees models::Model (model.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/layers/attention_core.h"
#include "engine/models/model.h"
#include "engine/models/transformer_weights.h"
#include "engine/ops/nn.h"
#include "engine/ops/parallel.h"

namespace attnviz::models::detail {

/// Hands the vectors of one token (ModelForwardOptions::trace_position) to the sink as a pass
/// computes them; inert when row < 0.
struct Tracer {
    AttentionSink* sink = nullptr;
    Index row = -1;
    Index layer = -1;
    bool on() const { return row >= 0; }
    /// The token's `rows` × `cols` values.
    void values(TraceStep step, const float* v, Index rows, Index cols) const {
        if (on()) sink->on_trace(layer, step, v, rows, cols);
    }
    /// Row `row` of a [tokens, stride] buffer: `rows` × `cols` values from its start.
    void emit(TraceStep step, const float* buffer, Index stride, Index rows, Index cols) const {
        if (on()) values(step, buffer + row * stride, rows, cols);
    }
    void emit(TraceStep step, const float* buffer, Index width) const {
        emit(step, buffer, width, 1, width);
    }
};

/// Buffers one forward pass reuses from layer to layer: the weights' (WeightScratch), the
/// projections' and the MLP's.
struct Scratch : WeightScratch {
    /// Kept from layer to layer: a fresh buffer would be zero-filled (and its pages faulted
    /// in) at every layer, 29 MB a layer at 8,192 tokens of Qwen2.5-0.5B's shape.
    std::vector<float> qkv, mid, concat;
    Tracer trace;  ///< the pass's traced token (models/token_trace.h)
};

/// What one layer of a pass does, decided before the pass from its options and its sink.
struct LayerPlan {
    Index layer = 0;
    bool keep = false;  ///< its attention weights go to the sink (on_layer)
    bool rows = false;  ///< its attention rows go to the sink (begin_rows, on_rows, end_rows)
    /// One head's pass (scope.only_head): nothing runs after this layer's attention.
    bool ends_pass = false;
};

/// The layers a pass runs and what it hands over besides their attention.
struct ForwardPlan {
    Index first = 0;                ///< the first layer run: 0, or resume_layer
    Index progress_total = 0;       ///< the layers PassControl::report counts to
    bool hidden = false;            ///< the sink takes the hidden states
    bool residuals = false;         ///< the sink takes the residual streams
    std::vector<LayerPlan> layers;  ///< in the order they run; the pass ends after the last
};

/// A forward pass's running state: B copies of L tokens, the residual stream and the buffers
/// its blocks write.
struct PassState {
    Index L = 0, B = 1;
    std::vector<Index> pos;  ///< each token's position
    int threads = 1;
    std::vector<float> x, h, a;  ///< the stream [B L, E], a norm's output, a block's output
    Scratch scratch;
};

/// A generation's key/value cache: per layer, [positions, kv_heads·head_dim] of each.
struct KvCache {
    std::vector<std::vector<float>> k, v;
};

struct GenerationRun;
struct LayerTape;

/// What `attnviz inspect` shows of a transformer: its config's sizes and its weights' types.
ModelInfo model_info(const ModelConfig& config, const std::string& folder,
                     const io::WeightStore& weights);

class Transformer final : public Model {
  public:
    Transformer(ModelConfig config, io::WeightStore store, const std::string& folder);

    const ModelInfo& info() const override { return info_; }
    const ModelConfig& config() const override { return config_; }

    void forward(const ModelInput& input, const ModelForwardOptions& options,
                 AttentionSink& sink) const override;
    std::size_t estimate_forward_bytes(Index tokens,
                                       const ModelForwardOptions& options) const override;
    std::size_t weight_bytes() const override { return weights_.weight_bytes(); }
    std::size_t streaming_weight_bytes() const override {
        return weights_.streaming_weight_bytes();
    }
    void set_weight_cache_bytes(std::size_t bytes) override { weights_.set_cache_bytes(bytes); }
    bool weights_stream() const override { return weights_.stream_by_default(); }
    LmHeadKind lm_head() const override { return weights_.lm_head(); }
    std::string lm_head_missing() const override { return weights_.lm_head_missing(); }
    Tensor logits(const Tensor& residual, const std::vector<Index>& rows, int threads,
                  const std::vector<Index>* columns) const override;
    Generation generate(const std::vector<Index>& prompt,
                        const GenerateOptions& options) const override;
    // What analyses read (transformer_analysis.cpp).
    AttentionWeights attention_weights(Index layer,
                                       AttentionParts parts = AttentionParts::All) const override;
    Readout readout(const std::vector<Index>& ids) const override;
    Tensor embedding_rows(const std::vector<Index>& ids) const override;
    // The backward pass (transformer_backward.cpp).
    Gradients gradients(const ModelInput& input, const GradientMetric& metric,
                        const GradientOptions& options) const override;
    const std::vector<double>& rotary_inv_freq() const override { return inv_freq_; }

  private:
    void norm(float* x, Index rows, const Weight& w, const Weight& b, int threads = 1) const {
        const Index E = config_.hidden_size;
        const auto eps = static_cast<float>(config_.norm_eps);
        ops::parallel_for(static_cast<std::size_t>(rows), threads,
                          [&](std::size_t r0, std::size_t r1) {
                              float* part = x + static_cast<Index>(r0) * E;
                              const auto n = static_cast<Index>(r1 - r0);
                              if (config_.family == Family::Llama)
                                  ops::rms_norm(part, n, E, w.ptr, eps);
                              else
                                  ops::layer_norm(part, n, E, w.ptr, b.ptr, eps);
                          });
    }

    /// norm()'s input gradient over `rows` rows: g from ∂/∂(its output) to ∂/∂x, x its input.
    void norm_backward(const float* x, float* g, Index rows, const Weight& w) const {
        const Index E = config_.hidden_size;
        const auto eps = static_cast<float>(config_.norm_eps);
        if (config_.family == Family::Llama)
            ops::rms_norm_backward(x, g, rows, E, w.ptr, eps);
        else
            ops::layer_norm_backward(x, g, rows, E, w.ptr, eps);
    }

    // The forward pass (transformer_forward.cpp).
    /// Throws std::invalid_argument for what no pass can run: no tokens, a layer or head that
    /// does not exist, interventions that do not fit, a resume or traced token out of range.
    void check_forward(const ModelInput& input, const ModelForwardOptions& options,
                       const AttentionSink& sink) const;
    /// check_forward()'s part for the interventions of a pass over L tokens.
    void check_interventions(Index L, const std::vector<const HeadIntervention*>& every) const;
    /// Each layer's part of the pass (and throws for a one-head pass that would hand over more).
    ForwardPlan plan_forward(const ModelForwardOptions& options, const AttentionSink& sink,
                             Index B) const;
    /// The residual stream entering the first layer run: the embeddings, or resume_residual.
    void start_stream(const ModelInput& input, const ModelForwardOptions& options,
                      PassState& pass) const;
    /// One layer over pass.x; false when the pass ends after its attention.
    bool run_layer(const LayerPlan& step, const LayerWeights& w, PassState& pass,
                   const ModelForwardOptions& options, AttentionSink& sink) const;
    std::vector<Index> positions(const ModelInput& input) const;
    /// The token (+ position, + token type) embeddings' sum, before BERT's embedding norm.
    void embedding_sum(const ModelInput& input, const std::vector<Index>& pos, float* x) const;
    void embed(const ModelInput& input, const std::vector<Index>& pos, float* x,
               const Tracer& trace = {}) const;
    /// q, k and v of `rows` tokens at positions `pos` ([rows, (H + 2 KV) d]): the fused
    /// projection (copied into `projected` when given), qwen3's per-head norms, then the
    /// rotation (the unrotated copy first when `unrotated` is given).
    void project_qkv(const LayerWeights& w, const float* h, Index rows,
                     const std::vector<Index>& pos, int threads, Scratch& scratch,
                     std::vector<float>* unrotated = nullptr,
                     std::vector<float>* projected = nullptr) const;
    /// What q carries so that q·k is the family's score: 1/√d, GPT-2's options.
    float score_scale(Index layer) const;
    /// The attention core's view of this model's heads: B sequences of S tokens attending to
    /// themselves, keys and values with row stride ldkv, queries (set by the caller) ldq.
    layers::ProjectedHeads projected(const float* k, const float* v, Index ldkv, Index ldq, Index B,
                                     Index S, float scale) const {
        layers::ProjectedHeads in;
        in.k = k;
        in.v = v;
        in.ldk = in.ldv = ldkv;
        in.ldq = ldq;
        in.batch = B;
        in.num_heads = config_.num_heads;
        in.num_kv_heads = config_.num_kv_heads;
        in.head_dim = config_.head_dim;
        in.target_len = in.source_len = S;
        in.score_scale = scale;
        return in;
    }
    /// The layer's interventions applied to its context [L, H d].
    void intervene(Index layer, float* concat, Index L,
                   const std::vector<HeadIntervention>& interventions) const;
    /// B copies' contexts [B L, H d]: the pass's interventions, then each copy's variant.
    void intervene_all(Index layer, float* concat, Index L, Index B,
                       const ModelForwardOptions& options) const;
    /// One layer's attention over B copies of L tokens (h: [B L, E]; B > 1 keeps no weights),
    /// its output projection into `out`.
    void attention(const LayerPlan& step, const LayerWeights& w, const float* h, Index L,
                   const std::vector<Index>& pos, const ModelForwardOptions& options, float* out,
                   AttentionSink& sink, Scratch& scratch, Index B = 1) const;
    /// attention() of the layer resume_context holds the context of: its interventions and
    /// the output projection.
    void resumed_attention(Index layer, const LayerWeights& w, Index L,
                           const ModelForwardOptions& options, float* out, AttentionSink& sink,
                           Scratch& scratch, Index B) const;
    /// The steps view's intermediates of the window's rows: each head's q, k, v (before and
    /// after the rotation); the scores and later stages are sized for attend() to fill.
    void capture_steps(AttentionResult& result, const layers::ResultWindow& win, Index L,
                       const std::vector<float>& unrotated, Scratch& scratch) const;
    /// The MLP of L rows of h into `out`; `pre_activation` keeps the up (gate | up) projection.
    void mlp(const LayerWeights& w, const float* h, Index L, float* out, int threads,
             Scratch& scratch, std::vector<float>* pre_activation = nullptr) const;

    // The language-model head (transformer.cpp).
    /// logits() in two halves: the final norm (or the masked-LM transform) over R rows of x,
    /// in place, then the unembedding.
    void head_input(std::vector<float>& x, Index R, int threads, const Tracer& trace = {}) const;
    Tensor unembed(const std::vector<float>& x, Index R, int threads,
                   const std::vector<Index>* columns) const;
    /// logits() with the unembedding left in the file (the weights stream).
    Tensor streamed_logits(const std::vector<float>& x, Index R, const HeadWeights& hw, int threads,
                           const std::vector<Index>* columns) const;

    // The backward pass (transformer_backward.cpp).
    /// One layer forward from x_in into x_out, keeping in `tape` what its backward reads; the
    /// layer's `interventions` change its context as a forward's do.
    void tape_layer(const LayerWeights& w, Index layer, const std::vector<Index>& pos,
                    const float* x_in, float* x_out, LayerTape& tape, int threads, Scratch& scratch,
                    const std::vector<HeadIntervention>& interventions) const;
    /// dx from ∂m/∂(layer output) to ∂m/∂(layer input); dz [L, H d] gets ∂m/∂(context).  The
    /// heads `interventions` replace pass nothing back through their slice (a constant).
    void layer_backward(const LayerWeights& w, Index layer, const std::vector<Index>& pos,
                        const LayerTape& tape, float* dx, float* dz, int threads, Scratch& scratch,
                        const std::vector<HeadIntervention>& interventions) const;
    /// The metric of the final stream x [L, E] and, into dx [L, E], its gradient.
    double head_backward(const std::vector<float>& x, Index L, const GradientMetric& metric,
                         const std::vector<Index>& ids, float* dx, int threads) const;
    /// The unembedding as a streamed matrix (read from the files a block of rows at a time).
    Weight streamed_unembedding() const;

    // Generation (generation.cpp).
    /// One pre-norm block over `n` new tokens at positions [t0, t0 + n), attending to the
    /// cache (which it extends); weights [1, H, n, t0 + n] kept when `weights` is not null.
    void cached_block(Index layer, float* x, Index n, Index t0, KvCache& cache,
                      AttentionResult* weights, int threads, bool stream, Scratch& scratch) const;
    /// The last n ids of the run (at positions t0...) through every layer, their attention
    /// rows kept; returns the stream of the last one.
    Tensor generation_step(GenerationRun& run, Index n, Index t0) const;
    /// A step's logits from its last residual row [1, E]: logits(), or with the step's
    /// one-row products the final norm and the unembedding's rows read as stored.
    Tensor next_logits(const Tensor& last, int threads, Scratch& scratch) const;
    /// The whole text with the knocked-out heads' interventions: the attention of every layer
    /// (kept into the run's attention) or the logits of the last token.
    Tensor intervened_generation_pass(GenerationRun& run, bool keep_attention) const;

    TransformerWeights weights_;
    const ModelConfig& config_ = weights_.config();
    ModelInfo info_;
    std::vector<double> inv_freq_;
};

}  // namespace attnviz::models::detail
