// A trained transformer behind one interface: forward(token ids, options, sink) runs the whole
// stack once and hands each layer's attention to the sink as it is computed, so a viewer
// never recomputes the math to draw it and never holds more layers than it asked for.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/layers/multi_head_attention.h"
#include "engine/models/config.h"
#include "engine/pass_control.h"
#include "engine/tensor.h"

namespace attnviz::io {
class WeightStore;
}

namespace attnviz::models {

/// What `attnviz inspect` prints and the window's model panel shows.
struct ModelInfo {
    std::string model_type;    ///< "qwen2"
    std::string display_name;  ///< "Qwen2"
    std::string architecture;  ///< "Qwen2ForCausalLM" (config's architectures[0]), may be empty
    std::string folder;
    std::int64_t num_layers = 0, num_heads = 0, num_kv_heads = 0, head_dim = 0;
    std::int64_t hidden_size = 0, intermediate_size = 0, vocab_size = 0, max_positions = 0;
    std::string dtype;                  ///< of the stored weights: "BF16", "F32 + F16"
    std::uint64_t parameter_count = 0;  ///< every tensor the files hold
    bool causal = false;
    bool pre_norm = false;          ///< attention reads the residual stream after a norm
    std::string position_encoding;  ///< "learned", "rotary"
};

struct ModelInput {
    std::vector<std::int64_t> ids;
    std::vector<std::int64_t> token_type_ids;  ///< empty: all 0 (BERT pairs set 1 for B)
};

/// Which part of the attention is handed to the sink.  Per-head maps grow with
/// layers × heads × tokens², so a long input can keep fewer layers, fewer heads or a window.
struct AttentionScope {
    std::vector<std::int64_t> layers;  ///< kept layers, ascending; empty: every layer
    /// Per-head maps of heads [0, heads) (-1: every head, 0: the mean only); the mean is
    /// always over every head.
    std::int64_t heads = -1;
    /// Rows and columns [window_begin, window_begin + window_length) of each map (-1: to the
    /// end).  The softmax still runs over every key.
    std::int64_t window_begin = 0;
    std::int64_t window_length = -1;
    /// >= 0: only this head's attention is computed in the kept layers (weights [1, 1, rows,
    /// cols] when heads != 0, the mean is that head's map).  The other heads' contexts are not
    /// computed, so the pass ends after the last kept layer: nothing after it may be wanted
    /// (hidden states, residuals, contexts).  One head of an 8,192-token text is a fourteenth
    /// of the layer's attention.
    std::int64_t only_head = -1;
    /// Hand every layer's attention rows to a sink that wants_rows(), kept or not: the pass
    /// then runs every layer (the statistics of a whole model whose maps keep a few layers).
    bool rows_every_layer = false;
};

/// One query head of one layer (both from 0).
struct HeadRef {
    std::int64_t layer = 0, head = 0;
    bool operator==(const HeadRef&) const = default;
};

/// A change to a head's output: its slice of the attention context (A·V for that query head,
/// before the output projection; under grouped-query attention the query head's own slice).
struct HeadIntervention {
    enum class Kind {
        Zero,   ///< the slice set to 0
        Mean,   ///< replaced at every position by its mean over the positions of this text
        Patch,  ///< replaced by `source`'s slice (activation patching)
    };
    HeadRef head;
    Kind kind = Kind::Zero;
    /// Patch: the same layer's context of another run of as many tokens, [L, heads·head_dim]
    /// (AttentionSink::on_context).
    std::shared_ptr<const Tensor> source;
};

/// The vectors a pass hands over at one token (ModelForwardOptions::trace_position), in the
/// order it computes them; which ones a model has depends on its family.
enum class TraceStep {
    TokenEmbedding,      ///< the token's row of the embedding table
    PositionEmbedding,   ///< learned positions (GPT-2, BERT)
    TokenTypeEmbedding,  ///< BERT's segment embedding
    EmbeddingSum,        ///< their sum, before the embeddings' norm (BERT)
    Embedding,           ///< the residual stream entering layer 1
    AttentionNorm,       ///< pre-norm: the norm before attention
    Query,               ///< [heads, head_dim] (after Qwen3's q-norm, before any rotation)
    Key,                 ///< [kv heads, head_dim]
    Value,               ///< [kv heads, head_dim]
    QueryRotated,        ///< RoPE applied
    KeyRotated,
    Attention,              ///< [heads, tokens]: each head's weights over every key
    Context,                ///< [heads, head_dim]: weights × V, before the output projection
    AttentionOutput,        ///< × W_O (+ bias)
    AttentionResidual,      ///< the residual stream + the attention's output
    AttentionResidualNorm,  ///< post-norm: its norm (BERT)
    MlpNorm,                ///< pre-norm: the norm before the MLP
    Gate,                   ///< gated MLPs (Llama, Qwen): the gate projection
    Up,                     ///< the up projection (GPT-2, BERT: the first MLP layer)
    Activation,             ///< act(up), or act(gate) × up
    MlpOutput,              ///< the down projection
    MlpResidual,            ///< the residual stream + the MLP's output: the layer's output
    MlpResidualNorm,        ///< post-norm: its norm, the layer's output (BERT)
    FinalNorm,              ///< causal: the final norm
    HeadTransform,          ///< masked LM: the head's dense layer
    HeadActivation,         ///< masked LM: its activation
    HeadNorm,               ///< masked LM: its norm
    Logits,                 ///< [vocab]
};

struct ModelForwardOptions {
    AttentionScope scope;
    /// false: no layer's attention weights are computed or handed over (interventions,
    /// residual streams and logits only: faster).
    bool attention = true;
    std::vector<HeadIntervention> interventions;
    /// Resume a pass: run layers [resume_layer, layers) from `resume_residual`, the residual
    /// stream before that layer as on_residual gave it, without the embeddings or the layers
    /// below.  With `resume_context` (that layer's context in the same run), the layer's
    /// attention is not computed again either: its interventions apply to that context.
    std::int64_t resume_layer = 0;
    const Tensor* resume_residual = nullptr;
    const Tensor* resume_context = nullptr;
    /// Several variants of the text in one pass (B = variants.size() > 1 copies, copy b with
    /// variants[b]'s interventions on top of `interventions`): the products see B·L rows.
    /// Hands over no attention; residuals and contexts come as [B·L, ...].
    std::vector<std::vector<HeadIntervention>> variants;
    /// The layer whose intermediates (q, k before and after the rotation, v, scores, ...)
    /// are handed over as AttentionResult::steps; -1: none.
    std::int64_t steps_layer = -1;
    MaskedRowPolicy masked_rows = MaskedRowPolicy::Zero;
    /// >= 0: every vector of the pass at this token is handed to AttentionSink::on_trace
    /// (models/token_trace.h); one variant only.
    std::int64_t trace_position = -1;
    int num_threads = 1;
    /// Polled before every layer (the pass throws Cancelled when stopped); its progress is
    /// called after every layer, as (layers done, layers the pass runs).
    PassControl control;
    /// The most bytes of converted float32 weights this pass lets the model keep: when
    /// Model::weight_bytes() is more, every layer streams from the files and the layers the
    /// model kept go (this pass's plan counts none); otherwise each layer is converted once
    /// and kept for the passes after it.  Unset: the model's own limit
    /// (Model::set_weight_cache_bytes).  plan_pass (models/pass_plan.h) sets it from a budget.
    std::optional<std::size_t> weight_cache_bytes;
};

/// Receives a forward pass's results as they are computed.
class AttentionSink {
  public:
    virtual ~AttentionSink() = default;
    /// One kept layer's attention: weights [1, heads kept, rows, cols], mean_weights
    /// [1, rows, cols], fully_masked_rows, steps when it is the steps layer.
    virtual void on_layer(std::int64_t layer, AttentionResult&& attention) = 0;
    /// The hidden states [L, hidden]: index 0 the embeddings, i the output of layer i (the
    /// last one after the final norm where the model has one), as Hugging Face's
    /// output_hidden_states.  Only called when wants_hidden_states().
    virtual bool wants_hidden_states() const { return false; }
    virtual void on_hidden_state(std::int64_t /*index*/, const Tensor& /*hidden*/) {}
    /// The residual stream [L, hidden] before layer `layer` (0: the embeddings' output) and,
    /// for layer == layers, after the last layer, before any final norm.  Model::logits()
    /// reads it.  Only called when wants_residuals().
    virtual bool wants_residuals() const { return false; }
    virtual void on_residual(std::int64_t /*layer*/, const Tensor& /*residual*/) {}
    /// A layer's context [L, heads·head_dim], interventions applied, before the output
    /// projection.  Only called when wants_contexts().
    virtual bool wants_contexts() const { return false; }
    virtual void on_context(std::int64_t /*layer*/, const Tensor& /*context*/) {}
    /// Statistics over texts too long for their maps: every layer of the scope hands its
    /// attention rows block by block as they are computed (whether or not its weights are kept,
    /// and with options.attention false too), so no map need exist.  Only when wants_rows().
    virtual bool wants_rows() const { return false; }
    /// Before a layer's rows: on_rows is then called with slots in [0, slots).
    virtual void begin_rows(std::int64_t /*layer*/, std::size_t /*slots*/) {}
    /// From several threads at once; calls with the same slot never overlap.
    virtual void on_rows(std::int64_t /*layer*/, std::size_t /*slot*/, const RowBlock& /*rows*/) {}
    /// After a layer's last on_rows.
    virtual void end_rows(std::int64_t /*layer*/) {}
    /// A layer's values [L, kv_heads·head_dim] (after their bias), as its attention reads them:
    /// a head's output is Σ_j α_ij v_j through its slice of the output projection, so a
    /// source token's share needs them (models/attribution.h).  One variant only; only called
    /// when wants_values().
    virtual bool wants_values() const { return false; }
    virtual void on_values(std::int64_t /*layer*/, const Tensor& /*values*/) {}
    /// With options.trace_position: one vector of the pass at that token, [rows, cols]
    /// (layer -1: the embeddings; layers: the head after the last layer).
    virtual void on_trace(std::int64_t /*layer*/, TraceStep /*step*/, const float* /*values*/,
                          std::int64_t /*rows*/, std::int64_t /*cols*/) {}
};

/// Keeps what a pass needs for predictions and interventions: every residual stream and
/// every layer's context, no attention.
class StreamSink : public AttentionSink {
  public:
    explicit StreamSink(bool keep_contexts = false) : contexts_(keep_contexts) {}
    void on_layer(std::int64_t, AttentionResult&&) override {}
    bool wants_residuals() const override { return true; }
    void on_residual(std::int64_t layer, const Tensor& x) override {
        if (residuals.size() <= static_cast<std::size_t>(layer))
            residuals.resize(static_cast<std::size_t>(layer) + 1);
        residuals[static_cast<std::size_t>(layer)] = x;
    }
    bool wants_contexts() const override { return contexts_; }
    void on_context(std::int64_t layer, const Tensor& c) override {
        if (contexts.size() <= static_cast<std::size_t>(layer))
            contexts.resize(static_cast<std::size_t>(layer) + 1);
        contexts[static_cast<std::size_t>(layer)] = std::make_shared<const Tensor>(c);
    }
    std::vector<Tensor> residuals;  ///< [layers + 1]; a resumed pass fills the upper ones
    std::vector<std::shared_ptr<const Tensor>> contexts;

  private:
    bool contexts_;
};

/// Keeps only the residual stream after the last layer: what the language-model head reads.
class FinalStreamSink : public AttentionSink {
  public:
    explicit FinalStreamSink(std::int64_t layers) : layers_(layers) {}
    void on_layer(std::int64_t, AttentionResult&&) override {}
    bool wants_residuals() const override { return true; }
    void on_residual(std::int64_t layer, const Tensor& x) override {
        if (layer == layers_) final = x;
    }
    Tensor final;

  private:
    std::int64_t layers_;
};

/// A layer's attention weights in float32, matrices [out, in] as nn.Linear keeps them, for what
/// is computed from the weights and the residual stream (attribution.h, circuits.h).  Query head
/// h reads rows [h·d, (h+1)·d) of q and its key/value head h / (heads / kv_heads); its output
/// goes through columns [h·d, (h+1)·d) of o.
struct AttentionWeights {
    Tensor q, k, v;                 ///< [heads·d, hidden], [kv_heads·d, hidden] twice
    Tensor q_bias, k_bias, v_bias;  ///< [heads·d], [kv_heads·d] twice; empty where none
    Tensor o;                       ///< [hidden, heads·d]
    Tensor o_bias;                  ///< [hidden]; empty where none
    /// The norm attention reads the stream through (pre-norm models), [hidden]; the bias is
    /// empty for RMSNorm.
    Tensor norm_weight, norm_bias;
    Tensor q_norm, k_norm;  ///< Qwen3's per-head RMSNorm on q and k, [d]; empty otherwise
    /// What q·k is multiplied by before the softmax (1/√d; GPT-2's options).
    double score_scale = 1.0;
};

/// What Model::attention_weights reads: everything, or the output projection alone (what the
/// heads write into the stream, a quarter of the bytes, read by attribution.h on every request).
enum class AttentionParts { All, Output };

/// What a causal head reads the last residual stream with: the final norm and some rows of
/// the unembedding.
struct Readout {
    Tensor norm_weight, norm_bias;  ///< [hidden]; the bias is empty for RMSNorm
    double norm_eps = 0.0;
    bool rms = false;  ///< RMSNorm (Llama, Qwen), else LayerNorm (GPT-2)
    Tensor unembed;    ///< [ids, hidden]: the rows asked for
};

/// The scalar a backward pass differentiates (Model::gradients), read from the head's logits.
struct GradientMetric {
    enum class Kind {
        Logit,            ///< logit(target) at `position`
        LogitDifference,  ///< logit(target) - logit(distractor) at `position`
        LogProb,          ///< log p(target) at `position` (log-softmax over the vocabulary)
        /// Causal heads: the mean over t in [span_begin, span_end) of -log p(ids[t + 1]),
        /// the language-model loss of that span (span_end at most tokens - 1).
        SpanLoss,
    };
    Kind kind = Kind::Logit;
    std::int64_t position = 0;  ///< from 0
    std::int64_t target = 0, distractor = 0;
    std::int64_t span_begin = 0, span_end = 0;
};

/// An upper bound of the bytes Model::gradients allocates at `tokens` tokens (weights not
/// counted: Model::streaming_weight_bytes or weight_bytes), for memory budgets.
std::size_t gradient_bytes(const ModelConfig& config, std::int64_t tokens,
                           const GradientMetric& metric, bool head_gradients);

struct GradientOptions {
    int num_threads = 1;
    PassControl control;  ///< polled before every layer, forwards and backwards
    /// ModelForwardOptions::weight_cache_bytes of the pass (unset: the model's own limit).
    std::optional<std::size_t> weight_cache_bytes;
    /// [tokens, hidden]: run from these input embeddings instead of the ids' (integrated
    /// gradients' scaled inputs); the ids still choose the targets of SpanLoss.
    const Tensor* input_embeddings = nullptr;
    bool head_gradients = true;  ///< fill Gradients::contexts and head_gradients
    /// Heads knocked out (or patched) in both passes, as ModelForwardOptions::interventions
    /// changes the forward: the metric and every gradient are the changed model's.  The slice
    /// a head is given is a constant, so nothing flows back through it into its q, k and v (a
    /// zero-knocked head passes no gradient on; a mean-knocked head's mean, over this pass's
    /// positions, is held as it is).  Its head_gradients entry stays ∂m/∂(the slice used).
    std::vector<HeadIntervention> interventions;
};

/// One forward and one backward pass (Model::gradients): the metric, and its gradient with
/// respect to every head's output and to the input embeddings.
struct Gradients {
    double metric = 0.0;
    /// [layers, tokens, heads·head_dim]: each head's output z (its slice of the context, A·V
    /// before the output projection, as HeadIntervention reads it; interventions applied) and
    /// ∂metric/∂z.
    Tensor contexts, head_gradients;
    /// [tokens, hidden]: the input embeddings x0 (the sum entering the first layer, before
    /// BERT's embedding norm) and ∂metric/∂x0.
    Tensor embeddings, embedding_gradients;
};

/// The language-model head a checkpoint has, read from its own weights.
enum class LmHeadKind {
    None,    ///< a bare encoder (BertModel): attention only
    Causal,  ///< final norm, then lm_head or the tied embeddings: next-token logits
    Masked,  ///< the MLM head (transform, norm, decoder + bias): logits at [MASK]
};

/// A new token's step of generate(), handed to GenerateOptions::on_step.
struct GenerationStep {
    std::int64_t position = 0;  ///< the token's position in the prompt and new tokens
    std::int64_t id = 0;
    Tensor logits;  ///< [vocab]: the logits it was chosen from (those of the position before it)
    /// [layers, heads, position + 1]: each head's attention row of this token (the query) over
    /// every token up to it, float32: the row forward() gives for it on the same text.
    Tensor attention;
};

struct GenerateOptions {
    std::int64_t max_new_tokens = 32;
    double temperature = 0.0;  ///< 0: greedy
    std::int64_t top_k = 0;    ///< 0: every token
    double top_p = 1.0;
    std::uint64_t seed = 0;
    std::vector<std::int64_t> eos_ids;  ///< stop after one of these (it is kept)
    bool attention = false;             ///< keep each layer's attention rows
    bool keep_logits = false;           ///< keep each step's next-token logits
    int num_threads = 1;
    /// A new token's products read the weights as the file stores them (BF16, F16, GGUF
    /// blocks: kernels/row_products.h), not their float32 copies: a step reads each weight once,
    /// so its time is the bytes it reads.  False multiplies as a pass does, for comparisons
    /// (ATTNVIZ_ROW_PRODUCTS=off does too).
    bool stored_products = true;
    /// Heads knocked out (Zero or Mean; not Patch).  A head's mean over the text's positions
    /// changes as the text grows, so with any of them every step runs the whole text again
    /// (no key/value cache): the tokens are those the ablated model predicts from the text so
    /// far, as forward() with these interventions gives them.
    std::vector<HeadIntervention> interventions;
    /// Called with each new token as soon as it is chosen (on the calling thread); returning
    /// false stops the generation there (Generation::stopped), the token kept.
    std::function<bool(std::int64_t id)> on_token;
    /// Called (on the calling thread) for each new token once its own step's layers have run,
    /// before that step's logits: where it came from and its attention rows, so a viewer can
    /// extend the maps it drew rather than run the text again.  The last token gets one more
    /// step (without logits) for its rows; a token on_token stopped at gets none.  Not called
    /// with interventions: every step runs the whole text, whose rows change as it grows.
    std::function<void(GenerationStep&&)> on_step;
};

struct Generation {
    std::vector<std::int64_t> ids;  ///< the new tokens
    bool eos = false;               ///< stopped at an eos token (else at the length)
    bool stopped = false;           ///< on_token asked to stop
    /// With options.attention: [layers, heads, total, total] of prompt + new tokens (the last
    /// token's row too), float32; zeros above the diagonal.
    Tensor attention;
    /// With options.keep_logits: [new tokens, vocab], the logits each token was chosen from.
    Tensor logits;
};

/// Keeps everything it is given.
class CollectingSink : public AttentionSink {
  public:
    explicit CollectingSink(bool keep_hidden_states = false) : keep_hidden_(keep_hidden_states) {}
    void on_layer(std::int64_t layer, AttentionResult&& attention) override {
        layers.push_back(layer);
        results.push_back(std::move(attention));
    }
    bool wants_hidden_states() const override { return keep_hidden_; }
    void on_hidden_state(std::int64_t, const Tensor& hidden) override {
        hidden_states.push_back(hidden);
    }
    std::vector<std::int64_t> layers;
    std::vector<AttentionResult> results;
    std::vector<Tensor> hidden_states;

  private:
    bool keep_hidden_;
};

/// The environment variable that sets a model's weight cache (Model::set_weight_cache_bytes):
/// "0" streams every layer of every model; a size ("4G") keeps the weights when they fit.
inline constexpr const char* kWeightCacheEnvironmentVariable = "ATTNVIZ_WEIGHT_CACHE";

class Model {
  public:
    virtual ~Model() = default;
    virtual const ModelInfo& info() const = 0;
    virtual const ModelConfig& config() const = 0;
    /// Runs every layer once.  Throws std::invalid_argument on ids outside the vocabulary, more
    /// tokens than the model has positions, an empty input or a scope that does not fit, and
    /// DataError when a weight read on first use turns out broken (NaN, truncated).
    virtual void forward(const ModelInput& input, const ModelForwardOptions& options,
                         AttentionSink& sink) const = 0;
    /// An upper bound of the bytes forward() allocates for `tokens` tokens (results kept by a
    /// CollectingSink included; weights not: weight_bytes()).
    virtual std::size_t estimate_forward_bytes(std::int64_t tokens,
                                               const ModelForwardOptions& options) const = 0;
    /// Bytes the float32 weights take once every layer has run (when they are kept).
    virtual std::size_t weight_bytes() const = 0;
    /// Bytes the weights take while they stream: one layer's float32 buffer (every layer is
    /// converted into it as it runs), the global norms, a block of the unembedding.
    virtual std::size_t streaming_weight_bytes() const = 0;
    /// The model's own limit on the converted float32 weights it may keep between passes, for
    /// the passes that name none (ModelForwardOptions::weight_cache_bytes), generate() and the
    /// head's unembedding.  When weight_bytes() is more, every layer streams from the mapped
    /// files (a BF16 8B model runs in a gigabyte) and the layers kept so far are dropped;
    /// otherwise each is converted once and kept.  Set when the model opens:
    /// ATTNVIZ_WEIGHT_CACHE (a size; "0" streams every model), else the default memory budget.
    /// Thread-safe; a running pass finishes as it started.
    virtual void set_weight_cache_bytes(std::size_t bytes) = 0;
    /// True when the layers stream under the model's own limit (weight_bytes() is above it).
    virtual bool weights_stream() const = 0;
    /// What the weights take now: streaming_weight_bytes() or weight_bytes().
    std::size_t resident_weight_bytes() const {
        return weights_stream() ? streaming_weight_bytes() : weight_bytes();
    }

    virtual LmHeadKind lm_head() const = 0;
    /// Why lm_head() is None, as a message ("… has no masked-LM head (cls.predictions.*) …").
    virtual std::string lm_head_missing() const = 0;
    /// The head's logits [rows, vocab_size] of a residual stream [L, hidden] (on_residual) at
    /// `rows`: the final norm and the unembedding (causal), or the MLM head (masked).  With
    /// `columns`, only those vocabulary ids ([rows, columns]).  Throws DataError naming the
    /// missing head when lm_head() is None.
    virtual Tensor logits(const Tensor& residual, const std::vector<std::int64_t>& rows,
                          int threads = 1,
                          const std::vector<std::int64_t>* columns = nullptr) const = 0;
    /// Layer `layer`'s attention weights (from 0), read from the files: a streamed model keeps
    /// none of them.  std::invalid_argument for a layer that does not exist.  With
    /// AttentionParts::Output only o and o_bias are filled.
    virtual AttentionWeights attention_weights(
        std::int64_t layer, AttentionParts parts = AttentionParts::All) const = 0;
    /// The final norm and the unembedding rows `ids` of a causal head.  std::invalid_argument
    /// for an id outside the vocabulary, or a model without a causal head.
    virtual Readout readout(const std::vector<std::int64_t>& ids) const = 0;
    /// Rows `ids` of the token embedding table, [ids, hidden] (W_E: no positions, no token
    /// types), read from the files.  std::invalid_argument for an id outside the vocabulary.
    virtual Tensor embedding_rows(const std::vector<std::int64_t>& ids) const = 0;
    /// The rotary inverse frequencies [head_dim / 2] that ops::apply_rotary takes (scaled as
    /// the config's rope_scaling says); empty for learned positions.
    virtual const std::vector<double>& rotary_inv_freq() const = 0;
    /// The metric of one pass over `input` and its gradients, by reverse-mode differentiation
    /// in float32 (layers walked backwards, each recomputed from its input: the weights
    /// stream as a forward's do).  Throws DataError for a model without a language-model
    /// head, std::invalid_argument for a metric that does not fit the input or the head (a
    /// position or id out of range, SpanLoss on a masked LM); what forward() throws.
    virtual Gradients gradients(const ModelInput& input, const GradientMetric& metric,
                                const GradientOptions& options = {}) const = 0;
    /// Continues `prompt` with a key/value cache: each new token is one row of attention per
    /// head.  Causal models only (std::invalid_argument otherwise).
    virtual Generation generate(const std::vector<std::int64_t>& prompt,
                                const GenerateOptions& options) const = 0;
};

/// Opens a Hugging Face model folder: config.json and its safetensors weights.  Only headers
/// are read; every tensor's presence and shape are checked against the config here, and the
/// data are read layer by layer on first use.  Throws DataError naming the file and the
/// problem.
std::unique_ptr<Model> load_model(const std::string& folder);

/// The transformer of `config` on weights from elsewhere (a GGUF file's, mapped onto the
/// Hugging Face names); `source` names them in messages and ModelInfo::folder.
std::unique_ptr<Model> make_transformer(ModelConfig config, io::WeightStore weights,
                                        const std::string& source);

}  // namespace attnviz::models
