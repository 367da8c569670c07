// Why a model says what it says, from one forward pass: the residual stream as a sum of what
// every part wrote into it, and each part's share of a logit.
//
//  * Residual decomposition.  In a pre-norm transformer the stream entering layer l is the
//    embeddings plus everything each block before it added (Elhage et al. 2021, "A Mathematical
//    Framework for Transformer Circuits", §2): each head's output (its context slice through its
//    slice of the output projection), each layer's attention-output bias and each MLP.
//  * Direct logit attribution (DLA).  The final norm is linear once its scale is frozen at the
//    full stream's value (TransformerLens's `apply_ln_to_stack`), so a logit, or a logit
//    difference, is the sum of each component's dot product with the unembedding direction, plus
//    one constant (the norm's bias through the unembedding).  A head's share splits further by
//    source token: α_ij · (v_j through W_O), since its output is Σ_j α_ij v_j W_O.
//
// Post-norm encoders (BERT, RoBERTa, DistilBERT) normalise the stream between blocks, so it is
// no sum of the blocks' outputs: they are refused with the reason.
//
// With heads knocked out (AttributionOptions::interventions) both are of the knocked-out model:
// its pass, its stream, its logit.  A zero-knocked head writes nothing, so its share is exactly
// 0; a mean-knocked head writes its output's mean over the text's positions at every position,
// so its share is that mean's, split by source as (1/L) Σ_i α_ij · v_j through W_O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/models/model.h"

namespace attnviz::models {

/// One term of the residual stream.
struct StreamComponent {
    enum class Kind {
        Embedding,      ///< the token embedding (with the learned positions, GPT-2)
        Head,           ///< one head's output through its slice of W_O
        AttentionBias,  ///< a layer's attention-output bias
        Mlp,            ///< a layer's MLP output
    };
    Kind kind = Kind::Embedding;
    std::int64_t layer = -1, head = -1;  ///< from 0; -1 where it does not apply
    /// "embed", "L3H4", "L2.attn_bias", "L2.mlp": layers and heads counted from 1.
    std::string name() const;
    bool operator==(const StreamComponent&) const = default;
};

struct AttributionOptions {
    int num_threads = 1;
    PassControl control;
    /// ModelForwardOptions::weight_cache_bytes of the pass (unset: the model's own limit).
    std::optional<std::size_t> weight_cache_bytes;
    /// Heads knocked out of the pass (HeadIntervention::Kind Zero or Mean; attribute_logit
    /// refuses Patch, whose source run's attention it does not have): the parts are those of
    /// the knocked-out model and add up to its logit.
    std::vector<HeadIntervention> interventions;
};

/// The residual stream before layer `layer` (num_layers: after the last layer, before the final
/// norm) at some positions, as a sum of components.
struct Decomposition {
    std::int64_t layer = 0;
    std::vector<std::int64_t> positions;      ///< from 0
    std::vector<StreamComponent> components;  ///< embeddings, then layer by layer
    Tensor parts;                             ///< [positions, components, hidden]
    Tensor stream;                            ///< [positions, hidden]: the pass's own stream
};

/// One forward pass; then each layer's output projection, read one layer at a time.
/// Throws std::invalid_argument for a post-norm model, a layer or position out of range or no
/// positions; what forward() throws.  Components a model does not have (an attention bias, the
/// MLP of an attention-only model) are left out.
Decomposition decompose(const Model& model, const ModelInput& input, std::int64_t layer,
                        const std::vector<std::int64_t>& positions,
                        const AttributionOptions& options = {});

/// What a record of a pass keeps besides its residual stream and contexts.
enum class RecordedParts {
    Stream,  ///< the stream and the contexts: decompose() and attribute_qk() from the record
    /// And every layer's values and attention weights: attribute_logit() from the record too
    /// (a head's share split by source token is α_pj · v_j through W_O).
    StreamAndAttention,
};

/// One pass's residual stream before every layer (and after the last) and every layer's
/// context, at every position: decompose() at any layer and positions of that text without a
/// pass of its own (the window records it once per text, then explains each cell from it).
struct StreamRecord {
    /// Not an aggregate, so that attribute_logit(model, {ids, types}, ...) still means the
    /// text's overload.
    StreamRecord() = default;
    std::vector<Tensor> residuals;  ///< [layers + 1] of [L, hidden]
    std::vector<Tensor> contexts;   ///< [layers] of [L, heads·head_dim]
    /// With RecordedParts::StreamAndAttention, else empty: every layer's values
    /// [L, kv_heads·head_dim] as its attention reads them, and every head's weights
    /// [heads, L, L] (0 where the causal mask hides a key).
    std::vector<Tensor> values, attention;
    ModelInput input;                             ///< the text the pass ran on
    std::vector<HeadIntervention> interventions;  ///< the heads knocked out of it
    std::int64_t tokens() const { return residuals.empty() ? 0 : residuals.front().dim(0); }
    bool has_attention() const { return !attention.empty(); }
    /// Whether this is the record of the pass over `input` with `interventions`: the same ids
    /// and token types, the same heads knocked out the same way (in any order).  A patched
    /// head never matches: its source is another run's.
    bool is_pass_of(const ModelInput& input,
                    const std::vector<HeadIntervention>& interventions) const;
};

/// What a record of `parts` keeps for `tokens` tokens of a model shaped `c`, in bytes (the
/// tensors; the ids and interventions are not counted).
std::size_t stream_record_bytes(const ModelConfig& c, std::int64_t tokens,
                                RecordedParts parts = RecordedParts::Stream);

/// One forward pass (with options.interventions), kept whole.  Throws what decompose() throws
/// for the model, and what forward() throws.
StreamRecord record_stream(const Model& model, const ModelInput& input,
                           const AttributionOptions& options = {},
                           RecordedParts parts = RecordedParts::Stream);

/// Records a pass as it runs and hands everything on to `inner` (may be null), so that a
/// viewer keeps the record of the pass it runs anyway instead of running another
/// (record_stream() is this with no inner sink).  `options` are those the pass runs with: the
/// attention is recorded only when every layer hands its rows (scope.layers empty, or
/// rows_every_layer), else the record holds the stream alone.  Throws std::invalid_argument
/// for a pass it cannot record whole: several variants, or one resumed part-way.
class StreamRecorder final : public AttentionSink {
  public:
    StreamRecorder(const ModelConfig& config, ModelInput input, const ModelForwardOptions& options,
                   RecordedParts parts, AttentionSink* inner = nullptr);
    /// The record, once the pass has run.  Throws std::logic_error when the pass handed over
    /// less than a whole stream (it ended early).
    StreamRecord take();

    void on_layer(std::int64_t layer, AttentionResult&& attention) override;
    bool wants_hidden_states() const override { return inner_ && inner_->wants_hidden_states(); }
    void on_hidden_state(std::int64_t index, const Tensor& hidden) override;
    bool wants_residuals() const override { return true; }
    void on_residual(std::int64_t layer, const Tensor& residual) override;
    bool wants_contexts() const override { return true; }
    void on_context(std::int64_t layer, const Tensor& context) override;
    bool wants_values() const override { return attention_ || (inner_ && inner_->wants_values()); }
    void on_values(std::int64_t layer, const Tensor& values) override;
    bool wants_rows() const override { return attention_ || (inner_ && inner_->wants_rows()); }
    void begin_rows(std::int64_t layer, std::size_t slots) override;
    void on_rows(std::int64_t layer, std::size_t slot, const RowBlock& rows) override;
    void end_rows(std::int64_t layer) override;
    void on_trace(std::int64_t layer, TraceStep step, const float* values, std::int64_t rows,
                  std::int64_t cols) override;

  private:
    bool inner_rows() const { return inner_ && inner_->wants_rows(); }
    StreamRecord record_;
    AttentionSink* inner_;
    bool attention_;  ///< the attention is recorded
    std::int64_t heads_;
};

/// decompose() from a record of the text's pass: the same numbers, no pass.  Throws
/// std::invalid_argument as decompose() does (positions out of the record's tokens).
Decomposition decompose(const Model& model, const StreamRecord& record, std::int64_t layer,
                        const std::vector<std::int64_t>& positions,
                        const AttributionOptions& options = {});

/// What to attribute: logit(target) at `position`, or logit(target) - logit(distractor).
struct LogitTarget {
    std::int64_t position = 0;  ///< from 0
    std::int64_t target = 0;
    std::optional<std::int64_t> distractor;
};

/// Direct logit attribution at one position.
struct LogitAttribution {
    LogitTarget what;
    double total = 0.0;     ///< the logit (difference) the model's head gives
    double constant = 0.0;  ///< the final norm's bias through the unembedding
    double embeddings = 0.0;
    Tensor heads;  ///< [layers, heads]
    /// [layers]: NaN where the model has no attention-output bias / no MLP.
    std::vector<double> attention_bias, mlps;
    /// [layers, heads, tokens]: each head's share split by source token; each row sums to its
    /// entry of `heads`.
    Tensor by_source;
    /// The final norm's frozen scale (1/σ, 1/rms) at the position.
    double norm_scale = 0.0;
};

/// One forward pass, then the parts: embeddings + Σ heads + Σ biases + Σ MLPs + constant =
/// total.  The output projections are read once, before the pass, one layer at a time.
/// Throws DataError for a model without a language-model head (as predict()),
/// std::invalid_argument for a post-norm model, a masked-LM head, a position or token id out
/// of range, a patched head; what forward() throws (a knocked-out head the model lacks).
LogitAttribution attribute_logit(const Model& model, const ModelInput& input,
                                 const LogitTarget& what, const AttributionOptions& options = {});

/// attribute_logit() from a record of the text's pass (RecordedParts::StreamAndAttention) with
/// options.interventions knocked out: the same numbers without a pass, the output projections
/// and the unembedding rows alone.  Only a mean-knocked head's split by source may differ, by
/// a float's rounding: the pass sums its attention's columns thread by thread, the record row
/// by row.  Throws what attribute_logit() throws, and std::invalid_argument for a record
/// without the attention, of another model's shape, or of a pass with other heads knocked out.
LogitAttribution attribute_logit(const Model& model, const StreamRecord& record,
                                 const LogitTarget& what, const AttributionOptions& options = {});

}  // namespace attnviz::models
