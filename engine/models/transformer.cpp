// The model families as one transformer with per-family names and block order:
//  * bert / roberta / distilbert: learned positions (+ token types), post-LayerNorm blocks;
//  * gpt2: learned positions, pre-LayerNorm blocks, Conv1D weights stored [in, out], causal;
//  * llama / qwen2 / qwen3: RMSNorm, rotary positions, grouped-query attention, SwiGLU, causal.
// Q, K and V are one fused projection whatever the file stores, so each layer runs one matrix
// product for them; attention itself is layers::attend, shared with nn.MultiheadAttention.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "engine/budget/memory_budget.h"
#include "engine/buffers.h"
#include "engine/errors.h"
#include "engine/io/weight_store.h"
#include "engine/kernels/gemm_bf16.h"
#include "engine/layers/attention_core.h"
#include "engine/models/model.h"
#include "engine/models/token_trace.h"
#include "engine/ops/masks.h"
#include "engine/ops/nn.h"
#include "engine/ops/parallel.h"

namespace attnviz::models {

namespace {

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

struct WeightLayout;

/// A weight as the layers read it: converted to float32 into `owned` (kept by the model, or a
/// pass's streaming buffer reused from layer to layer).  Move-only: ptr points into owned.
struct Weight {
    const float* ptr = nullptr;
    std::vector<float> owned;
    /// A streamed matrix (ptr null): its tensors, converted a block of rows at a time by
    /// Transformer::product just before the block is multiplied.
    std::shared_ptr<const WeightLayout> source;
    Index rows = 0, cols = 0;  ///< as stored
    bool in_out = false;       ///< stored [in, out] (GPT-2's Conv1D)
    Weight() = default;
    Weight(Weight&&) noexcept = default;
    Weight& operator=(Weight&&) noexcept = default;
    bool empty() const { return ptr == nullptr && !source; }
    bool streamed() const { return ptr == nullptr && source; }
    Index in_features() const { return in_out ? rows : cols; }
    Index out_features() const { return in_out ? cols : rows; }
};

struct LayerWeights {
    Weight norm1_w, norm1_b, norm2_w, norm2_b;
    Weight qkv_w, qkv_b;  ///< q, k and v stacked (GPT-2: its one c_attn)
    Weight q_norm, k_norm;
    Weight o_w, o_b;
    Weight up_w, up_b;  ///< gated: gate and up stacked
    Weight down_w, down_b;
};

/// Every weight of a layer, in one order: the loops over a layer's weights (shapes,
/// conversion, streaming, prefetch, memory, release) walk this list and layer_tensors().
constexpr Weight LayerWeights::*kLayerWeights[] = {
    &LayerWeights::norm1_w, &LayerWeights::norm1_b, &LayerWeights::norm2_w, &LayerWeights::norm2_b,
    &LayerWeights::qkv_w,   &LayerWeights::qkv_b,   &LayerWeights::q_norm,  &LayerWeights::k_norm,
    &LayerWeights::o_w,     &LayerWeights::o_b,     &LayerWeights::up_w,    &LayerWeights::up_b,
    &LayerWeights::down_w,  &LayerWeights::down_b};
constexpr std::size_t kLayerWeightCount = std::size(kLayerWeights);

/// The stored tensors each of kLayerWeights is made of, in its order (stacked along their
/// first dimension: q, k and v; gate and up).
std::array<std::vector<Param>, kLayerWeightCount> layer_tensors(const LayerParams& p) {
    return {{{p.norm1_w},
             {p.norm1_b},
             {p.norm2_w},
             {p.norm2_b},
             p.qkv_w,
             p.qkv_b,
             {p.q_norm},
             {p.k_norm},
             {p.o_w},
             {p.o_b},
             p.up_w,
             p.up_b,
             {p.down_w},
             {p.down_b}}};
}

/// A matrix (multiplied, streamed when the weights stream), not a vector (norms, biases).
bool is_matrix(const std::vector<Param>& tensors) {
    return !tensors.empty() && tensors.front().shape.size() == 2;
}

/// Buffers one forward pass reuses from layer to layer.  When the weights stream, `stream`
/// holds the running layer's float32 weights (each layer converted into the same buffers);
/// otherwise `held` keeps the model's converted layer alive while the pass reads it.
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

struct Scratch {
    std::vector<float> qkv, mid;
    Tracer trace;              ///< the pass's traced token (models/token_trace.h)
    std::vector<float> block;  ///< a streamed matrix's rows being multiplied
    /// BF16 weights multiplied as stored (kernels/gemm_bf16.h): the activations' three parts,
    /// and each thread's three partial products.
    std::vector<std::uint16_t> parts;
    std::vector<std::vector<float>> partials;
    LayerWeights stream;
    std::shared_ptr<const LayerWeights> held;
};

/// Where a weight's float32 values come from: stored tensors stacked along their first
/// dimension (q, k, v; gate, up), and whether it is written [in, out].
struct WeightLayout {
    std::vector<std::string> names;
    std::vector<Index> offsets;  ///< each tensor's first row in the stack
    Index rows = 0, cols = 0;    ///< as stored, stacked
    bool conv1d = false;         ///< stored [in, out] already (GPT-2's Conv1D)
    bool transpose = false;      ///< an [out, in] matrix written [in, out]
    bool empty() const { return names.empty(); }
};

/// Rows of a streamed [out, in] matrix converted and multiplied at a time: about 8 MB, in the
/// last-level cache when they are multiplied, and at least 256 so that repacking the
/// activations for each block costs little.
Index stream_block_rows(Index in) {
    return std::max<Index>(256, ((Index{8} << 20) / (4 * std::max<Index>(in, 1))) / 64 * 64);
}

struct GlobalWeights {
    Weight emb_norm_w, emb_norm_b, final_norm_w, final_norm_b;
};

/// The language-model head as the products read it: unembed is [hidden, vocab] (in_out).
struct HeadWeights {
    Weight dense_w, dense_b, norm_w, norm_b, unembed, bias;
};

/// A generation's key/value cache: per layer, [positions, kv_heads·head_dim] of each.
struct KvCache {
    std::vector<std::vector<float>> k, v;
};

std::string layer_prefix(const ModelConfig& c, Index i) {
    const std::string n = std::to_string(i);
    switch (c.family) {
        case Family::Bert:
            return "encoder.layer." + n + ".";
        case Family::DistilBert:
            return "transformer.layer." + n + ".";
        case Family::Gpt2:
            return "h." + n + ".";
        case Family::Llama:
            return "layers." + n + ".";
    }
    return {};
}

LayerParams layer_params(const ModelConfig& c, Index i) {
    const std::string p = layer_prefix(c, i);
    const Index E = c.hidden_size, H = c.num_heads, KV = c.num_kv_heads, d = c.head_dim;
    const Index I = c.intermediate_size;
    LayerParams l;
    auto lin = [&](const std::string& name, Index out, Index in, bool bias, Param* w, Param* b) {
        *w = {p + name + ".weight", {out, in}};
        if (bias) *b = {p + name + ".bias", {out}};
    };
    switch (c.family) {
        case Family::Bert: {
            Param w, b;
            for (const char* n : {"query", "key", "value"}) {
                lin(std::string("attention.self.") + n, E, E, true, &w, &b);
                l.qkv_w.push_back(w);
                l.qkv_b.push_back(b);
            }
            lin("attention.output.dense", E, E, true, &l.o_w, &l.o_b);
            l.norm1_w = {p + "attention.output.LayerNorm.weight", {E}};
            l.norm1_b = {p + "attention.output.LayerNorm.bias", {E}};
            lin("intermediate.dense", I, E, true, &w, &b);
            l.up_w.push_back(w);
            l.up_b.push_back(b);
            lin("output.dense", E, I, true, &l.down_w, &l.down_b);
            l.norm2_w = {p + "output.LayerNorm.weight", {E}};
            l.norm2_b = {p + "output.LayerNorm.bias", {E}};
            break;
        }
        case Family::DistilBert: {
            Param w, b;
            for (const char* n : {"q_lin", "k_lin", "v_lin"}) {
                lin(std::string("attention.") + n, E, E, true, &w, &b);
                l.qkv_w.push_back(w);
                l.qkv_b.push_back(b);
            }
            lin("attention.out_lin", E, E, true, &l.o_w, &l.o_b);
            l.norm1_w = {p + "sa_layer_norm.weight", {E}};
            l.norm1_b = {p + "sa_layer_norm.bias", {E}};
            lin("ffn.lin1", I, E, true, &w, &b);
            l.up_w.push_back(w);
            l.up_b.push_back(b);
            lin("ffn.lin2", E, I, true, &l.down_w, &l.down_b);
            l.norm2_w = {p + "output_layer_norm.weight", {E}};
            l.norm2_b = {p + "output_layer_norm.bias", {E}};
            break;
        }
        case Family::Gpt2: {
            const auto conv1d = [&](const char* name, Index in, Index out) {
                return c.linear_weights ? Param{p + name, {out, in}}
                                        : Param{p + name, {in, out}, true};
            };
            l.norm1_w = {p + "ln_1.weight", {E}};
            l.norm1_b = {p + "ln_1.bias", {E}};
            l.qkv_w.push_back(conv1d("attn.c_attn.weight", E, 3 * E));
            l.qkv_b.push_back({p + "attn.c_attn.bias", {3 * E}});
            l.o_w = conv1d("attn.c_proj.weight", E, E);
            l.o_b = {p + "attn.c_proj.bias", {E}};
            l.norm2_w = {p + "ln_2.weight", {E}};
            l.norm2_b = {p + "ln_2.bias", {E}};
            l.up_w.push_back(conv1d("mlp.c_fc.weight", E, I));
            l.up_b.push_back({p + "mlp.c_fc.bias", {I}});
            l.down_w = conv1d("mlp.c_proj.weight", I, E);
            l.down_b = {p + "mlp.c_proj.bias", {E}};
            break;
        }
        case Family::Llama: {
            l.norm1_w = {p + "input_layernorm.weight", {E}};
            const Index outs[3] = {H * d, KV * d, KV * d};
            const char* names[3] = {"q_proj", "k_proj", "v_proj"};
            for (int k = 0; k < 3; ++k) {
                Param w, b;
                lin(std::string("self_attn.") + names[k], outs[k], E, c.attention_bias, &w, &b);
                l.qkv_w.push_back(w);
                if (c.attention_bias) l.qkv_b.push_back(b);
            }
            lin("self_attn.o_proj", E, H * d, c.o_proj_bias, &l.o_w, &l.o_b);
            if (c.qk_norm) {
                l.q_norm = {p + "self_attn.q_norm.weight", {d}};
                l.k_norm = {p + "self_attn.k_norm.weight", {d}};
            }
            // Attention only (intermediate_size 0): the file's zero-width MLP weights and the
            // norm before them change nothing, so they are neither read nor required.
            if (I == 0) break;
            l.norm2_w = {p + "post_attention_layernorm.weight", {E}};
            for (const char* n : {"mlp.gate_proj", "mlp.up_proj"}) {
                Param w, b;
                lin(n, I, E, c.mlp_bias, &w, &b);
                l.up_w.push_back(w);
                if (c.mlp_bias) l.up_b.push_back(b);
            }
            lin("mlp.down_proj", E, I, c.mlp_bias, &l.down_w, &l.down_b);
            break;
        }
    }
    return l;
}

struct GlobalParams {
    Param word, position, token_type, emb_norm_w, emb_norm_b, final_norm_w, final_norm_b;
};

GlobalParams global_params(const ModelConfig& c) {
    const Index E = c.hidden_size;
    GlobalParams g;
    switch (c.family) {
        case Family::Bert:
        case Family::DistilBert:
            g.word = {"embeddings.word_embeddings.weight", {c.vocab_size, E}};
            g.position = {"embeddings.position_embeddings.weight", {c.max_positions, E}};
            if (c.family == Family::Bert && c.type_vocab_size > 0)
                g.token_type = {"embeddings.token_type_embeddings.weight", {c.type_vocab_size, E}};
            g.emb_norm_w = {"embeddings.LayerNorm.weight", {E}};
            g.emb_norm_b = {"embeddings.LayerNorm.bias", {E}};
            break;
        case Family::Gpt2:
            g.word = {"wte.weight", {c.vocab_size, E}};
            g.position = {"wpe.weight", {c.max_positions, E}};
            g.final_norm_w = {"ln_f.weight", {E}};
            g.final_norm_b = {"ln_f.bias", {E}};
            break;
        case Family::Llama:
            g.word = {"embed_tokens.weight", {c.vocab_size, E}};
            g.final_norm_w = {"norm.weight", {E}};
            break;
    }
    return g;
}

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
HeadParams masked_head_params(const ModelConfig& c) {
    const Index E = c.hidden_size, V = c.vocab_size;
    HeadParams h;
    std::string dense, norm;
    if (c.family == Family::DistilBert) {
        dense = "vocab_transform";
        norm = "vocab_layer_norm";
        h.decoder = {"vocab_projector.weight", {V, E}};
        h.bias_names = {"vocab_projector.bias"};
        h.activation = c.activation;
        h.names = "vocab_transform, vocab_layer_norm, vocab_projector";
        h.with_head = "DistilBertForMaskedLM";
    } else if (c.model_type == "roberta") {
        dense = "lm_head.dense";
        norm = "lm_head.layer_norm";
        h.decoder = {"lm_head.decoder.weight", {V, E}};
        h.bias_names = {"lm_head.bias", "lm_head.decoder.bias"};
        h.activation = ops::Activation::Gelu;  // RobertaLMHead: gelu whatever hidden_act says
        h.names = "lm_head.*";
        h.with_head = "RobertaForMaskedLM";
    } else {
        dense = "cls.predictions.transform.dense";
        norm = "cls.predictions.transform.LayerNorm";
        h.decoder = {"cls.predictions.decoder.weight", {V, E}};
        h.bias_names = {"cls.predictions.bias", "cls.predictions.decoder.bias"};
        h.activation = c.activation;  // BertPredictionHeadTransform: config.hidden_act
        h.names = "cls.predictions.*";
        h.with_head = "BertForMaskedLM";
    }
    h.dense_w = {dense + ".weight", {E, E}};
    h.dense_b = {dense + ".bias", {E}};
    h.norm_w = {norm + ".weight", {E}};
    h.norm_b = {norm + ".bias", {E}};
    h.bias = {"", {V}};
    for (Param* q : {&h.dense_w, &h.dense_b, &h.norm_w, &h.norm_b, &h.decoder, &h.bias})
        q->top_level = true;
    return h;
}

std::string describe_config(const ModelConfig& c) {
    std::string s = "hidden size " + std::to_string(c.hidden_size) + ", " +
                    std::to_string(c.num_heads) + " heads";
    if (c.num_kv_heads != c.num_heads) s += ", " + std::to_string(c.num_kv_heads) + " kv heads";
    s += ", head_dim " + std::to_string(c.head_dim) + ", intermediate " +
         std::to_string(c.intermediate_size) + ", vocab " + std::to_string(c.vocab_size);
    return s;
}

/// The choice of the next token (sampling_distribution: greedy at temperature 0), drawn with
/// its own generator: the same text for the same seed on every platform.
class Sampler {
  public:
    explicit Sampler(const GenerateOptions& o)
        : options_{o.temperature, o.top_k, o.top_p}, random_(o.seed) {}
    Index pick(const std::vector<float>& logits) {
        const SamplingDistribution d =
            sampling_distribution(logits.data(), static_cast<Index>(logits.size()), options_);
        return options_.temperature <= 0.0 ? d.ids[0] : d.draw(random_.uniform());
    }

  private:
    SamplingOptions options_;
    SampleGenerator random_;
};

/// ATTNVIZ_WEIGHT_CACHE, else the default memory budget: the weights are converted once and
/// kept when they fit in it, as a small model's always have been.
std::size_t default_weight_cache_bytes() {
    const std::uint64_t memory = budget::usable_memory_bytes();
    if (const char* env = std::getenv(kWeightCacheEnvironmentVariable); env && *env) {
        if (std::string_view(env) == "0") return 0;
        try {
            return static_cast<std::size_t>(budget::parse_memory_size(env, memory));
        } catch (const std::invalid_argument&) {
            // not a size: the budget decides, as for a variable that is not set
        }
    }
    // The app's own rule: ATTNVIZ_MEMORY_BUDGET when it is a size, else the default.
    return static_cast<std::size_t>(budget::resolve_app_budget("").bytes);
}

class Transformer final : public Model {
  public:
    Transformer(ModelConfig config, io::WeightStore store, std::string folder)
        : config_(std::move(config)), store_(std::move(store)), folder_(std::move(folder)) {
        find_prefix();
        check_every_shape();
        find_lm_head();
        layers_.resize(static_cast<std::size_t>(config_.num_layers));
        cache_limit_ = default_weight_cache_bytes();
        info_.model_type = config_.model_type;
        info_.display_name = config_.display_name();
        info_.architecture = config_.architecture;
        info_.folder = folder_;
        info_.num_layers = config_.num_layers;
        info_.num_heads = config_.num_heads;
        info_.num_kv_heads = config_.num_kv_heads;
        info_.head_dim = config_.head_dim;
        info_.hidden_size = config_.hidden_size;
        info_.intermediate_size = config_.intermediate_size;
        info_.vocab_size = config_.vocab_size;
        info_.max_positions = config_.max_positions;
        info_.dtype = store_.dtype_summary();
        info_.parameter_count = store_.parameter_count();
        info_.causal = config_.causal();
        info_.pre_norm = config_.pre_norm();
        info_.position_encoding = config_.rotary() ? "rotary" : "learned";
        if (config_.rotary()) {
            inv_freq_ = ops::rope_inv_freq(config_.rope_theta, config_.head_dim);
            const RopeScaling& r = config_.rope_scaling;
            if (r.type == "llama3")
                ops::rope_llama3_scaling(inv_freq_, r.factor, r.low_freq_factor, r.high_freq_factor,
                                         r.original_max_position_embeddings);
        }
    }

    const ModelInfo& info() const override { return info_; }
    const ModelConfig& config() const override { return config_; }

    void forward(const ModelInput& input, const ModelForwardOptions& options,
                 AttentionSink& sink) const override;
    std::size_t estimate_forward_bytes(Index tokens,
                                       const ModelForwardOptions& options) const override;
    std::size_t weight_bytes() const override;
    std::size_t streaming_weight_bytes() const override;
    void set_weight_cache_bytes(std::size_t bytes) override {
        cache_limit_.store(bytes);
        if (!weights_stream()) return;
        // Streaming from now on: the converted layers go (a running pass keeps its own).
        std::lock_guard lock(load_mutex_);
        for (auto& slot : layers_)
            slot.reset();
    }
    bool weights_stream() const override { return weight_bytes() > cache_limit_.load(); }
    LmHeadKind lm_head() const override { return lm_head_; }
    std::string lm_head_missing() const override { return lm_head_missing_; }
    Tensor logits(const Tensor& residual, const std::vector<Index>& rows, int threads,
                  const std::vector<Index>* columns) const override;
    Generation generate(const std::vector<Index>& prompt,
                        const GenerateOptions& options) const override;

  private:
    /// The stored name of a parameter: the family's name under the file's prefix, or the
    /// old "gamma"/"beta" spelling of a LayerNorm's weight/bias.
    std::optional<std::string> resolve(const std::string& name) const {
        return resolve_full(prefix_ + name);
    }
    /// A name at the file's top level (a head's: lm_head.*, cls.*), with the same aliases.
    std::optional<std::string> resolve_full(const std::string& full) const {
        if (store_.find(full)) return full;
        auto alias = [&](const char* from, const char* to) -> std::optional<std::string> {
            const std::string f(from);
            if (full.size() > f.size() && full.compare(full.size() - f.size(), f.size(), f) == 0) {
                std::string a = full.substr(0, full.size() - f.size()) + to;
                if (store_.find(a)) return a;
            }
            return std::nullopt;
        };
        if (auto a = alias(".weight", ".gamma")) return a;
        if (auto a = alias(".bias", ".beta")) return a;
        return std::nullopt;
    }

    void find_prefix() {
        const std::string word = global_params(config_).word.name;
        for (const char* p : {"", "bert.", "roberta.", "distilbert.", "transformer.", "model."})
            if (store_.find(std::string(p) + word)) {
                prefix_ = p;
                return;
            }
        throw DataError(folder_ + ": the weights have no " + word +
                        " (with or without a bert./roberta./distilbert./transformer./model. "
                        "prefix), so they are not a " +
                        config_.display_name() + " checkpoint as config.json says");
    }

    void check(const Param& p) const {
        if (p.name.empty()) return;
        const auto name = p.top_level ? resolve_full(p.name) : resolve(p.name);
        if (!name) {
            if (p.optional) return;
            throw DataError(folder_ + ": tensor '" + prefix_ + p.name +
                            "' is missing (config.json: " + config_.display_name() + " with " +
                            std::to_string(config_.num_layers) + " layers)");
        }
        const io::TensorEntry* e = store_.find(*name);
        if (e->shape != p.shape)
            throw DataError(folder_ + ": tensor '" + *name + "' in " + e->file + " is " +
                            shape_string(e->shape) + " but config.json (" +
                            describe_config(config_) + ") needs " + shape_string(p.shape));
    }

    /// Which head the file holds, its shapes checked against config.json like the layers'.
    void find_lm_head() {
        if (config_.causal()) {
            lm_head_ = LmHeadKind::Causal;
            Param lm = {"lm_head.weight", {config_.vocab_size, config_.hidden_size}};
            lm.top_level = true;
            if (!config_.tie_word_embeddings && store_.find(lm.name)) {
                check(lm);
                head_params_.decoder = lm;
            }
            return;
        }
        HeadParams h = masked_head_params(config_);
        if (!resolve_full(h.dense_w.name)) {
            lm_head_missing_ =
                folder_ + ": this " + config_.display_name() +
                " checkpoint has no masked-LM head (" + h.names + ")" +
                (config_.architecture.empty() ? std::string()
                                              : ": it is a bare " + config_.architecture) +
                "; predictions need it saved with its head (" + h.with_head +
                "); its attention still opens";
            return;
        }
        for (const Param* p : {&h.dense_w, &h.dense_b, &h.norm_w, &h.norm_b})
            check(*p);
        if (resolve_full(h.decoder.name))
            check(h.decoder);
        else
            h.decoder.name.clear();  // tied to the word embeddings, as save_pretrained leaves it
        for (const std::string& b : h.bias_names)
            if (store_.find(b)) {
                h.bias.name = b;
                check(h.bias);
                break;
            }
        head_params_ = std::move(h);
        lm_head_ = LmHeadKind::Masked;
    }

    void check_every_shape() const {
        const GlobalParams g = global_params(config_);
        for (const Param* p : {&g.word, &g.position, &g.token_type, &g.emb_norm_w, &g.emb_norm_b,
                               &g.final_norm_w, &g.final_norm_b})
            check(*p);
        for (Index i = 0; i < config_.num_layers; ++i) {
            for (const auto& tensors : layer_tensors(layer_params(config_, i)))
                for (const Param& p : tensors)
                    check(p);
        }
    }

    /// The stored tensors of `params`, stacked along their first dimension: q, k and v become
    /// one projection (one matrix product instead of three), gate and up one MLP input.
    /// as_stored: an [out, in] matrix stays so (the unembedding: each vocabulary row is read
    /// whole, and a 151,936-wide [in, out] copy would make every row of B a page apart).
    WeightLayout layout(const std::vector<Param>& params, bool as_stored = false) const {
        WeightLayout l;
        for (const Param& p : params) {
            if (p.name.empty()) continue;
            const auto name = p.top_level ? resolve_full(p.name) : resolve(p.name);
            if (!name) continue;
            const io::TensorEntry* e = store_.find(*name);
            l.offsets.push_back(l.rows);
            l.rows += e->shape[0];
            l.cols = e->shape.size() > 1 ? e->shape[1] : 1;
            l.conv1d = p.conv1d;
            l.names.push_back(*name);
        }
        // Stored [in, out]: oneDNN's sgemm runs 15-25% faster on a BERT layer's products with
        // the weight in this layout than used transposed (bench/gemm_bench).
        l.transpose = !l.conv1d && l.cols > 1 && !as_stored;
        return l;
    }

    /// Converts `l` into `w`, reusing w.owned when it has the size already (a streamed layer
    /// has its predecessor's shapes): every value is written, nothing is zeroed.  The rows are
    /// shared among `threads` threads.
    void materialise(const WeightLayout& l, Weight& w, int threads) const {
        std::vector<float> buffer = std::move(w.owned);
        w = Weight();
        w.owned = std::move(buffer);
        if (l.empty()) {
            w.owned.clear();
            return;
        }
        const std::size_t n = shape_numel({l.rows, l.cols});
        if (w.owned.size() != n) {
            if (!w.owned.empty()) release_buffer(w.owned);
            w.owned = take_buffer(n);
        }
        w.rows = l.transpose ? l.cols : l.rows;
        w.cols = l.transpose ? l.rows : l.cols;
        w.in_out = l.conv1d || l.transpose;
        float* dst = w.owned.data();
        for (std::size_t t = 0; t < l.names.size(); ++t) {
            const Index r0 = l.offsets[t];
            const Index r1 = t + 1 < l.names.size() ? l.offsets[t + 1] : l.rows;
            const bool matrix = store_.find(l.names[t])->shape.size() == 2;
            ops::parallel_for(
                static_cast<std::size_t>(matrix ? r1 - r0 : 1), threads,
                [&](std::size_t a, std::size_t b) {
                    const auto i0 = static_cast<Index>(a), i1 = static_cast<Index>(b);
                    if (!matrix)  // a vector: its rows of the stack are its values
                        store_.load_block(l.names[t], 0, 1, dst + r0);
                    else if (l.transpose)
                        store_.load_block(l.names[t], i0, i1, dst + r0 + i0, l.rows, true);
                    else
                        store_.load_block(l.names[t], i0, i1, dst + (r0 + i0) * l.cols, l.cols);
                });
        }
        w.ptr = w.owned.data();
    }

    Weight load(const Param& p, bool as_stored = false) const {
        Weight w;
        materialise(layout({p}, as_stored), w, 1);
        return w;
    }

    const GlobalWeights& globals() const {
        std::call_once(globals_once_, [&] {
            const GlobalParams g = global_params(config_);
            globals_.emb_norm_w = load(g.emb_norm_w);
            globals_.emb_norm_b = load(g.emb_norm_b);
            globals_.final_norm_w = load(g.final_norm_w);
            globals_.final_norm_b = load(g.final_norm_b);
        });
        return globals_;
    }

    /// Rows `ids` of an embedding table, converted from the file: a lookup reads only those
    /// rows, so a 150,000-token vocabulary costs nothing until it is used.
    void lookup(const Param& p, const std::vector<Index>& ids, float* out, bool add) const {
        if (p.name.empty()) return;
        for (std::size_t t = 0; t < ids.size(); ++t)
            if (ids[t] < 0 || ids[t] >= p.shape[0])
                throw std::invalid_argument(
                    "token " + std::to_string(t) + " has " +
                    (p.name == global_params(config_).word.name
                         ? "id " + std::to_string(ids[t]) + ", outside the vocabulary of " +
                               std::to_string(p.shape[0]) + " embeddings"
                         : "row " + std::to_string(ids[t]) + ", outside the " +
                               std::to_string(p.shape[0]) + " rows of " + p.name));
        if (!add) {
            store_.load_rows(*resolve(p.name), ids, out);
            return;
        }
        std::vector<float> rows(ids.size() * static_cast<std::size_t>(config_.hidden_size));
        store_.load_rows(*resolve(p.name), ids, rows.data());
        ops::add_inplace(out, rows.data(), rows.size());
    }

    /// Starts reading layer i's tensors from the disk (they are in the page cache when warm).
    void prefetch_layer(Index i) const {
        for (const auto& tensors : layer_tensors(layer_params(config_, i)))
            if (is_matrix(tensors))
                for (const Param& q : tensors)
                    if (const auto name = resolve(q.name)) store_.prefetch(*name);
    }

    /// A matrix left in the file: product() converts it a block at a time.  GPT-2's Conv1D
    /// weights ([in, out]: a block of outputs is not a block of rows) are converted whole.
    void stream_matrix(const WeightLayout& l, Weight& w, int threads) const {
        if (l.empty() || l.conv1d || l.cols <= 1) {
            materialise(l, w, threads);
            return;
        }
        release_buffer(w.owned);
        w = Weight();
        w.rows = l.rows;
        w.cols = l.cols;
        auto source = std::make_shared<WeightLayout>(l);
        source->transpose = false;
        w.source = std::move(source);
    }

    /// Converts layer i's weights into `w` (its buffers reused when they have the sizes).
    void materialise_layer(Index i, LayerWeights& w, int threads) const {
        const auto tensors = layer_tensors(layer_params(config_, i));
        for (std::size_t k = 0; k < kLayerWeightCount; ++k) {
            Weight& out = w.*kLayerWeights[k];
            const bool matrix = is_matrix(tensors[k]);
            if (matrix && weights_stream())  // left in the file, converted as it is multiplied
                stream_matrix(layout(tensors[k]), out, threads);
            else
                materialise(layout(tensors[k]), out, matrix ? threads : 1);
        }
    }

    /// Layer i's float32 weights for a pass.  Kept (converted the first time a pass needs
    /// them) while every weight fits the cache limit; otherwise streamed: converted into the
    /// pass's own buffer, which the next layer overwrites.
    const LayerWeights& layer(Index i, Scratch& scratch, int threads) const {
        if (weights_stream()) {
            scratch.held.reset();
            materialise_layer(i, scratch.stream, threads);
            if (i + 1 < config_.num_layers) prefetch_layer(i + 1);  // read while this one runs
            return scratch.stream;
        }
        std::lock_guard lock(load_mutex_);
        auto& slot = layers_[static_cast<std::size_t>(i)];
        if (!slot) {
            auto w = std::make_shared<LayerWeights>();
            materialise_layer(i, *w, threads);
            slot = std::move(w);
        }
        scratch.held = slot;
        return *slot;
    }

    /// Gives a pass's streamed layer back to the kept buffers (the next pass takes them).
    static void release_stream(Scratch& scratch) {
        for (Weight LayerWeights::*member : kLayerWeights)
            release_buffer((scratch.stream.*member).owned);
        scratch.held.reset();
    }

    /// The stored name of the unembedding: the decoder, or the tied word embeddings.
    std::string unembed_name() const {
        const std::string& d = head_params_.decoder.name;
        if (!d.empty()) return head_params_.decoder.top_level ? *resolve_full(d) : *resolve(d);
        return *resolve(global_params(config_).word.name);
    }

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

    /// The head's weights, read from the files the first time predictions need them.
    const HeadWeights& head() const {
        std::call_once(head_once_, [&] {
            head_.dense_w = load(head_params_.dense_w);
            head_.dense_b = load(head_params_.dense_b);
            head_.norm_w = load(head_params_.norm_w);
            head_.norm_b = load(head_params_.norm_b);
            const Param tied = {global_params(config_).word.name,
                                {config_.vocab_size, config_.hidden_size}};
            // Streamed weights leave the unembedding in the file: logits() converts it a block
            // of the vocabulary at a time (a 128,256-token head is 2 GB in float32).
            if (!weights_stream())
                head_.unembed =
                    load(head_params_.decoder.name.empty() ? tied : head_params_.decoder, true);
            head_.bias = load(head_params_.bias);
        });
        return head_;
    }

    /// q, k and v of `rows` tokens at positions `pos` ([rows, (H + 2 KV) d]): the fused
    /// projection, qwen3's per-head norms, then the rotation (the unrotated copy first when
    /// `unrotated` is given).
    void project_qkv(const LayerWeights& w, const float* h, Index rows,
                     const std::vector<Index>& pos, int threads, Scratch& scratch,
                     std::vector<float>* unrotated = nullptr) const;
    /// y[rows, out] = x · wᵀ + b, as ops::linear; a streamed w is converted into
    /// scratch.block a block of output rows at a time, each block multiplied while it is
    /// still in the cache (converting a whole 8B layer first wrote and read 870 MB more).
    void product(const float* x, Index rows, Index in, const Weight& w, const Weight& b, Index out,
                 float* y, int threads, Scratch& scratch, Index ldx = 0, Index ldy = 0) const;
    /// product() of a streamed BF16 matrix multiplied as the file stores it, on AMX
    /// (kernels/gemm_bf16.h); false, having done nothing, where that is not available.
    bool bf16_product(const float* x, Index rows, Index in, const WeightLayout& l, const Weight& b,
                      float* y, int threads, Scratch& scratch, Index ldx, Index ldy) const;
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
    /// One pre-norm block over `n` new tokens at positions [t0, t0 + n), attending to the
    /// cache (which it extends); weights [1, H, n, t0 + n] kept when `weights` is not null.
    /// logits() with the unembedding left in the file (the weights stream).
    Tensor streamed_logits(const std::vector<float>& x, Index R, const HeadWeights& hw, int threads,
                           const std::vector<Index>* columns) const;
    void cached_block(Index layer, float* x, Index n, Index t0, KvCache& cache,
                      AttentionResult* weights, int threads, Scratch& scratch) const;

    std::vector<Index> positions(const ModelInput& input) const;
    /// logits() in two halves: the final norm (or the masked-LM transform) over R rows of x,
    /// in place, then the unembedding.
    void head_input(std::vector<float>& x, Index R, int threads, const Tracer& trace = {}) const;
    Tensor unembed(const std::vector<float>& x, Index R, int threads,
                   const std::vector<Index>* columns) const;
    void embed(const ModelInput& input, const std::vector<Index>& pos, float* x,
               const Tracer& trace = {}) const;
    /// One layer's attention over B copies of L tokens (h: [B L, E]; B > 1 keeps no weights).
    void attention(Index layer, const LayerWeights& w, const float* h, Index L,
                   const std::vector<Index>& pos, const ModelForwardOptions& options, bool keep,
                   bool hand_rows, float* out, AttentionSink& sink, Scratch& scratch,
                   Index B = 1) const;
    void mlp(const LayerWeights& w, const float* h, Index L, float* out, int threads,
             Scratch& scratch) const;

    ModelConfig config_;
    io::WeightStore store_;
    std::string folder_;
    std::string prefix_;
    ModelInfo info_;
    std::vector<double> inv_freq_;
    mutable std::mutex load_mutex_;
    mutable std::vector<std::shared_ptr<const LayerWeights>> layers_;
    std::atomic<std::size_t> cache_limit_{0};
    mutable std::once_flag globals_once_;
    mutable GlobalWeights globals_;
    LmHeadKind lm_head_ = LmHeadKind::None;
    std::string lm_head_missing_;
    HeadParams head_params_;
    mutable std::once_flag head_once_;
    mutable HeadWeights head_;
};

std::vector<Index> Transformer::positions(const ModelInput& input) const {
    const auto L = static_cast<Index>(input.ids.size());
    std::vector<Index> pos(static_cast<std::size_t>(L));
    if (config_.pad_token_id >= 0) {
        // RoBERTa: create_position_ids_from_input_ids: pads get padding_idx, the others count
        // from padding_idx + 1.
        Index seen = 0;
        for (Index t = 0; t < L; ++t) {
            const bool pad = input.ids[static_cast<std::size_t>(t)] == config_.pad_token_id;
            if (!pad) ++seen;
            pos[static_cast<std::size_t>(t)] =
                pad ? config_.pad_token_id : config_.pad_token_id + seen;
        }
    } else {
        for (Index t = 0; t < L; ++t)
            pos[static_cast<std::size_t>(t)] = t;
    }
    const Index last = L ? *std::max_element(pos.begin(), pos.end()) : 0;
    if (last >= config_.max_positions)
        throw std::invalid_argument(
            std::to_string(L) + " tokens are more than " + config_.display_name() +
            " takes: it has " + std::to_string(config_.max_positions) + " positions" +
            (config_.pad_token_id >= 0 ? " (RoBERTa's start after the padding index)" : ""));
    return pos;
}

void Transformer::embed(const ModelInput& input, const std::vector<Index>& pos, float* x,
                        const Tracer& trace) const {
    const GlobalParams p = global_params(config_);
    const auto L = static_cast<Index>(input.ids.size());
    lookup(p.word, input.ids, x, false);
    lookup(p.position, pos, x, true);
    if (!p.token_type.name.empty()) {
        std::vector<Index> types = input.token_type_ids;
        if (types.empty()) types.assign(static_cast<std::size_t>(L), 0);
        if (static_cast<Index>(types.size()) != L)
            throw std::invalid_argument("token_type_ids has " + std::to_string(types.size()) +
                                        " entries for " + std::to_string(L) + " tokens");
        lookup(p.token_type, types, x, true);
    }
    const GlobalWeights& g = globals();
    if (trace.on()) {  // each part of the sum at the traced token, as the lookups give them
        const auto t = static_cast<std::size_t>(trace.row);
        const Index E = config_.hidden_size;
        std::vector<float> part(static_cast<std::size_t>(E));
        lookup(p.word, {input.ids[t]}, part.data(), false);
        trace.values(TraceStep::TokenEmbedding, part.data(), 1, E);
        if (!p.position.name.empty()) {
            lookup(p.position, {pos[t]}, part.data(), false);
            trace.values(TraceStep::PositionEmbedding, part.data(), 1, E);
        }
        if (!p.token_type.name.empty()) {
            lookup(p.token_type, {input.token_type_ids.empty() ? 0 : input.token_type_ids[t]},
                   part.data(), false);
            trace.values(TraceStep::TokenTypeEmbedding, part.data(), 1, E);
        }
        if (!g.emb_norm_w.empty()) trace.emit(TraceStep::EmbeddingSum, x, E);
    }
    if (!g.emb_norm_w.empty()) norm(x, L, g.emb_norm_w, g.emb_norm_b);
    trace.emit(TraceStep::Embedding, x, config_.hidden_size);
}

void Transformer::project_qkv(const LayerWeights& w, const float* h, Index rows,
                              const std::vector<Index>& pos, int threads, Scratch& scratch,
                              std::vector<float>* unrotated) const {
    std::vector<float>& qkv = scratch.qkv;
    const Index H = config_.num_heads, KV = config_.num_kv_heads, d = config_.head_dim;
    const Index ld = (H + 2 * KV) * d;
    qkv.resize(static_cast<std::size_t>(rows * ld));
    product(h, rows, config_.hidden_size, w.qkv_w, w.qkv_b, ld, qkv.data(), threads, scratch);
    float* q = qkv.data();
    float* k = q + H * d;
    const float eps = static_cast<float>(config_.norm_eps);
    if (!w.q_norm.empty())
        for (Index hh = 0; hh < H; ++hh)
            ops::rms_norm(q + hh * d, rows, d, w.q_norm.ptr, eps, ld);
    if (!w.k_norm.empty())
        for (Index g = 0; g < KV; ++g)
            ops::rms_norm(k + g * d, rows, d, w.k_norm.ptr, eps, ld);
    if (unrotated) unrotated->assign(qkv.begin(), qkv.end());
    const Tracer& trace = scratch.trace;
    trace.emit(TraceStep::Query, q, ld, H, d);
    trace.emit(TraceStep::Key, k, ld, KV, d);
    trace.emit(TraceStep::Value, k + KV * d, ld, KV, d);
    if (config_.rotary()) {
        ops::apply_rotary(q, rows, H, d, ld, pos, inv_freq_);
        ops::apply_rotary(k, rows, KV, d, ld, pos, inv_freq_);
        trace.emit(TraceStep::QueryRotated, q, ld, H, d);
        trace.emit(TraceStep::KeyRotated, k, ld, KV, d);
    }
}

float Transformer::score_scale(Index layer) const {
    float scale = 1.0f;
    if (config_.family != Family::Gpt2 || config_.scale_attn_weights)
        scale = 1.0f / std::sqrt(static_cast<float>(config_.head_dim));
    if (config_.family == Family::Gpt2 && config_.scale_attn_by_inverse_layer_idx)
        scale /= static_cast<float>(layer + 1);
    return scale;
}

void Transformer::intervene(Index layer, float* concat, Index L,
                            const std::vector<HeadIntervention>& interventions) const {
    const Index H = config_.num_heads, d = config_.head_dim, width = H * d;
    for (const HeadIntervention& iv : interventions) {
        if (iv.head.layer != layer) continue;
        float* col = concat + iv.head.head * d;
        switch (iv.kind) {
            case HeadIntervention::Kind::Zero:
                for (Index r = 0; r < L; ++r)
                    std::fill_n(col + r * width, d, 0.0f);
                break;
            case HeadIntervention::Kind::Mean: {
                std::vector<double> mean(static_cast<std::size_t>(d), 0.0);
                for (Index r = 0; r < L; ++r)
                    for (Index c = 0; c < d; ++c)
                        mean[static_cast<std::size_t>(c)] += col[r * width + c];
                for (Index r = 0; r < L; ++r)
                    for (Index c = 0; c < d; ++c)
                        col[r * width + c] =
                            static_cast<float>(mean[static_cast<std::size_t>(c)] / double(L));
                break;
            }
            case HeadIntervention::Kind::Patch: {
                const Tensor& src = *iv.source;
                const float* from = src.ptr() + iv.head.head * d;
                for (Index r = 0; r < L; ++r)
                    std::copy_n(from + r * width, d, col + r * width);
                break;
            }
        }
    }
}

void Transformer::intervene_all(Index layer, float* concat, Index L, Index B,
                                const ModelForwardOptions& options) const {
    const Index rows = L * config_.num_heads * config_.head_dim;
    for (Index b = 0; b < B; ++b) {
        intervene(layer, concat + b * rows, L, options.interventions);
        if (!options.variants.empty())
            intervene(layer, concat + b * rows, L, options.variants[static_cast<std::size_t>(b)]);
    }
}

void Transformer::attention(Index layer, const LayerWeights& w, const float* h, Index L,
                            const std::vector<Index>& pos, const ModelForwardOptions& options,
                            bool keep, bool hand_rows, float* out, AttentionSink& sink,
                            Scratch& scratch, Index B) const {
    const Index H = config_.num_heads, KV = config_.num_kv_heads, d = config_.head_dim;
    const Index E = config_.hidden_size;
    const Index ld = (H + 2 * KV) * d;
    const int threads = std::max(1, options.num_threads);
    if (options.resume_context && layer == options.resume_layer) {
        // The context of this layer is known (the run being resumed): only the interventions
        // and the output projection are left.
        const Tensor& c = *options.resume_context;
        if (c.numel() != static_cast<std::size_t>(L * H * d))
            throw std::invalid_argument("resume_context has " + std::to_string(c.numel()) +
                                        " values for " + std::to_string(L) + " tokens × " +
                                        std::to_string(H * d));
        std::vector<float> all(static_cast<std::size_t>(B) * c.numel());
        for (Index b = 0; b < B; ++b)
            std::copy(c.data.begin(), c.data.end(), all.begin() + b * L * H * d);
        intervene_all(layer, all.data(), L, B, options);
        if (sink.wants_contexts()) sink.on_context(layer, Tensor({B * L, H * d}, all));
        product(all.data(), B * L, H * d, w.o_w, w.o_b, E, out, threads, scratch);
        return;
    }
    std::vector<float>& qkv = scratch.qkv;  // reused from layer to layer: no re-zeroing
    keep = keep && B == 1;
    hand_rows = hand_rows && B == 1;
    const Index only = keep || hand_rows ? options.scope.only_head : -1;  // checked by forward()
    const bool steps = keep && options.steps_layer == layer && only < 0;
    std::vector<float> unrotated;
    std::vector<Index> pos_all = pos;
    for (Index b = 1; b < B; ++b)
        pos_all.insert(pos_all.end(), pos.begin(), pos.end());
    project_qkv(w, h, B * L, pos_all, threads, scratch, steps ? &unrotated : nullptr);
    float* q = qkv.data();
    float* k = q + H * d;
    float* v = k + KV * d;

    AttentionForwardOptions window;
    if (keep) {
        window.weights_heads = only < 0 ? options.scope.heads : options.scope.heads == 0 ? 0 : 1;
        window.query_begin = window.key_begin = options.scope.window_begin;
        window.query_count = window.key_count = options.scope.window_length;
    }
    const layers::ResultWindow win = layers::result_window(window, H, L, L);
    AttentionResult result;
    if (steps) {
        const Index Lw = win.rows;
        result.steps.emplace();
        result.steps->heads.resize(static_cast<std::size_t>(H));
        for (Index hh = 0; hh < H; ++hh) {
            HeadSteps& st = result.steps->heads[static_cast<std::size_t>(hh)];
            const Index g = hh / (H / KV);
            st.kv_head = g;
            st.q = layers::copy_block(q + win.q0 * ld + hh * d, Lw, d, ld);
            st.k = layers::copy_block(k + g * d, L, d, ld);
            st.v = layers::copy_block(v + g * d, L, d, ld);
            if (config_.rotary()) {
                st.q_unrotated =
                    layers::copy_block(unrotated.data() + win.q0 * ld + hh * d, Lw, d, ld);
                st.k_unrotated = layers::copy_block(unrotated.data() + H * d + g * d, L, d, ld);
            }
            layers::size_stages(st, Lw, L, d);
        }
    }
    const float scale = score_scale(layer);
    for (Index r = 0; r < B * L; ++r)
        for (Index c = 0; c < H * d; ++c)
            q[r * ld + c] *= scale;

    const ops::MaskSpec masks{nullptr, nullptr, config_.causal(), B, H, L, L, 0};
    std::vector<float> concat(static_cast<std::size_t>(B * L * H * d));
    layers::ProjectedHeads in = projected(k, v, ld, ld, B, L, scale);
    layers::AttendOptions opt;
    opt.masked_rows = options.masked_rows;
    opt.num_threads = threads;
    if (only >= 0) {
        opt.first_head = only;
        opt.last_head = only + 1;
    }
    layers::RowObserver observer;
    // The traced token's row of every head (each head's block writes its own slice).
    const Tracer& trace = scratch.trace;
    std::vector<float> traced_row(trace.on() ? static_cast<std::size_t>(H * L) : 0);
    if (hand_rows) sink.begin_rows(layer, static_cast<std::size_t>(threads));
    if (hand_rows || trace.on()) {
        observer = [&](std::size_t slot, const RowBlock& block) {
            if (hand_rows) sink.on_rows(layer, slot, block);
            const Index t = trace.row;
            if (t >= block.first_row && t < block.first_row + block.rows)
                std::copy_n(block.weights + (t - block.first_row) * block.keys, block.keys,
                            traced_row.data() + block.head * L);
        };
        opt.observer = &observer;
    }
    // Every query row feeds the next layer; only the window's rows are kept.  Rows outside it
    // are attended without weights.
    auto run = [&](Index r0, Index rows, bool with_weights, AttentionResult& res) {
        if (rows <= 0) return;
        AttentionForwardOptions part;
        part.query_begin = r0;
        part.query_count = rows;
        if (with_weights) {
            part.weights_heads = window.weights_heads;
            part.key_begin = window.key_begin;
            part.key_count = window.key_count;
        }
        in.q = q + r0 * ld;
        opt.need_weights = with_weights;
        layers::attend(in, masks, layers::result_window(part, H, L, L), opt, res,
                       concat.data() + r0 * H * d, H * d);
    };
    if (keep) {
        AttentionResult before, after;
        run(0, win.q0, false, before);
        run(win.q0, win.rows, true, result);
        run(win.q0 + win.rows, L - win.q0 - win.rows, false, after);
    } else {
        AttentionResult discarded;
        run(0, L, false, discarded);
    }
    if (hand_rows) sink.end_rows(layer);
    trace.values(TraceStep::Attention, traced_row.data(), H, L);
    if (only >= 0) {  // the pass ends here (forward()): the other heads' contexts are missing
        if (keep) sink.on_layer(layer, std::move(result));
        return;
    }
    intervene_all(layer, concat.data(), L, B, options);
    if (sink.wants_contexts()) sink.on_context(layer, Tensor({B * L, H * d}, concat));
    trace.emit(TraceStep::Context, concat.data(), H * d, H, d);
    product(concat.data(), B * L, H * d, w.o_w, w.o_b, E, out, threads, scratch);
    trace.emit(TraceStep::AttentionOutput, out, E);
    if (steps) {  // every row: the steps view shows the whole layer
        result.steps->input = Tensor({1, L, E}, std::vector<float>(h, h + L * E));
        result.steps->concat = Tensor({1, L, H * d}, std::move(concat));
        result.output = Tensor({1, L, E}, std::vector<float>(out, out + L * E));
    }
    if (keep) sink.on_layer(layer, std::move(result));
}

void Transformer::mlp(const LayerWeights& w, const float* h, Index L, float* out, int threads,
                      Scratch& scratch) const {
    const Index E = config_.hidden_size, I = config_.intermediate_size;
    const bool gated = config_.family == Family::Llama;
    const Index width = gated ? 2 * I : I;
    std::vector<float>& mid = scratch.mid;
    mid.resize(static_cast<std::size_t>(L * width));
    product(h, L, E, w.up_w, w.up_b, width, mid.data(), threads, scratch);
    const Tracer& trace = scratch.trace;
    if (gated) trace.emit(TraceStep::Gate, mid.data(), width, 1, I);
    trace.emit(TraceStep::Up, mid.data() + (gated ? I : 0), width, 1, I);
    // Activation (and the gate) row by row over the threads: at a few hundred tokens the
    // erf/exp of the intermediate are a tenth of the pass.
    ops::parallel_for(static_cast<std::size_t>(L), threads, [&](std::size_t r0, std::size_t r1) {
        for (auto r = static_cast<Index>(r0); r < static_cast<Index>(r1); ++r) {
            float* g = mid.data() + r * width;
            ops::activate(g, static_cast<std::size_t>(I), config_.activation);
            if (gated)  // down(act(gate(h)) * up(h)): gate is the first I columns
                for (Index c = 0; c < I; ++c)
                    g[c] *= g[I + c];
        }
    });
    trace.emit(TraceStep::Activation, mid.data(), width, 1, I);
    product(mid.data(), L, I, w.down_w, w.down_b, E, out, threads, scratch, width, E);
    trace.emit(TraceStep::MlpOutput, out, E);
}

void Transformer::forward(const ModelInput& input, const ModelForwardOptions& options,
                          AttentionSink& sink) const {
    const auto L = static_cast<Index>(input.ids.size());
    if (L == 0) throw std::invalid_argument("the input has no tokens");
    for (Index l : options.scope.layers)
        if (l < 0 || l >= config_.num_layers)
            throw std::invalid_argument(
                "layer " + std::to_string(l) + " does not exist: " + config_.display_name() +
                " has layers 0 to " + std::to_string(config_.num_layers - 1));
    if (options.scope.heads < -1 || options.scope.heads > config_.num_heads)
        throw std::invalid_argument("heads kept " + std::to_string(options.scope.heads) +
                                    " is not in [-1, " + std::to_string(config_.num_heads) + "]");
    const Index H = config_.num_heads, E = config_.hidden_size;
    const Index B = options.variants.empty() ? 1 : static_cast<Index>(options.variants.size());
    if (B > 1 && (options.attention || sink.wants_hidden_states()))
        throw std::invalid_argument(
            "a pass over several variants hands over no attention or hidden states");
    std::vector<const HeadIntervention*> every;
    for (const HeadIntervention& iv : options.interventions)
        every.push_back(&iv);
    for (const auto& v : options.variants)
        for (const HeadIntervention& iv : v)
            every.push_back(&iv);
    for (const HeadIntervention* p : every) {
        const HeadIntervention& iv = *p;
        if (iv.head.layer < 0 || iv.head.layer >= config_.num_layers || iv.head.head < 0 ||
            iv.head.head >= H)
            throw std::invalid_argument("head " + std::to_string(iv.head.head) + " of layer " +
                                        std::to_string(iv.head.layer) +
                                        " does not exist: " + config_.display_name() + " has " +
                                        std::to_string(config_.num_layers) + " layers of " +
                                        std::to_string(H) + " heads");
        if (iv.kind == HeadIntervention::Kind::Patch &&
            (!iv.source ||
             iv.source->numel() != static_cast<std::size_t>(L * H * config_.head_dim)))
            throw std::invalid_argument("patching needs the source run's context of " +
                                        std::to_string(L) +
                                        " tokens: the texts must have as many tokens");
    }
    const Index first = options.resume_residual ? options.resume_layer : 0;
    if (first < 0 || first >= config_.num_layers)
        throw std::invalid_argument("resume_layer " + std::to_string(first) + " is not a layer");
    const Index traced = options.trace_position;
    if (traced >= L || traced < -1)
        throw std::invalid_argument("token " + std::to_string(traced + 1) + " is not one of the " +
                                    std::to_string(L) + " tokens");
    if (traced >= 0 && (B > 1 || options.scope.only_head >= 0))
        throw std::invalid_argument("a traced pass runs one variant of the text with every head");
    const std::vector<Index> pos = positions(input);
    const int threads = std::max(1, options.num_threads);
    const auto one = static_cast<std::size_t>(L * E);
    std::vector<float> x(static_cast<std::size_t>(B) * one), h(x.size()), a(x.size());
    Scratch scratch;
    Tracer& trace = scratch.trace;
    trace = Tracer{&sink, traced, -1};
    if (options.resume_residual) {
        if (options.resume_residual->numel() != one)
            throw std::invalid_argument("resume_residual has " +
                                        std::to_string(options.resume_residual->numel()) +
                                        " values for " + std::to_string(L) + " tokens");
        std::copy(options.resume_residual->data.begin(), options.resume_residual->data.end(),
                  x.begin());
    } else {
        embed(input, pos, x.data(), trace);
    }
    for (Index b = 1; b < B; ++b)  // every variant starts from the same stream
        std::copy_n(x.begin(), one, x.begin() + static_cast<std::ptrdiff_t>(b * L * E));
    const Index R = B * L;  // rows of every product
    const bool hidden = sink.wants_hidden_states() && first == 0;
    const bool residuals = sink.wants_residuals();
    if (hidden) sink.on_hidden_state(0, Tensor({L, E}, x));
    const bool pre_norm = config_.pre_norm();
    std::size_t next_kept = 0;
    const auto& kept = options.scope.layers;
    // Every layer's rows, for a sink that wants them: no layer after the kept ones is skipped.
    const bool every_rows = options.scope.rows_every_layer && sink.wants_rows();
    const bool streams = residuals || sink.wants_contexts() || every_rows;
    // The layers this pass runs: up to the last kept one when nothing after it is wanted.
    const Index last = (!kept.empty() && !hidden && !streams)
                           ? std::min(kept.back() + 1, config_.num_layers)
                           : config_.num_layers;
    const Index only = options.scope.only_head;
    if (only >= 0 && (only >= H || kept.empty() || hidden || streams || B > 1))
        throw std::invalid_argument(
            only >= H ? "head " + std::to_string(only) + " does not exist: " +
                            config_.display_name() + " has " + std::to_string(H) + " heads"
                      : std::string("a pass of one head ends after its last kept layer: it "
                                    "hands over nothing else"));
    if (sink.wants_rows() && B > 1)
        throw std::invalid_argument("a pass over several variants hands over no attention rows");
    for (Index i = first; i < config_.num_layers; ++i) {
        options.control.check();
        if (residuals) sink.on_residual(i, Tensor({R, E}, x));
        bool in_scope = kept.empty();
        if (!in_scope && next_kept < kept.size() && kept[next_kept] == i) {
            in_scope = true;
            ++next_kept;
        }
        const bool keep = in_scope && options.attention;
        const bool rows = (in_scope || every_rows) && sink.wants_rows();
        // One head's pass (scope.only_head) stops after the attention of its last layer.
        const bool last_attention = only >= 0 && next_kept == kept.size();
        const LayerWeights& w = layer(i, scratch, threads);
        options.control.check();  // converting a streamed layer takes as long as running it
        trace.layer = i;
        if (pre_norm) {
            h = x;
            norm(h.data(), R, w.norm1_w, w.norm1_b, threads);
            trace.emit(TraceStep::AttentionNorm, h.data(), E);
            attention(i, w, h.data(), L, pos, options, keep, rows, a.data(), sink, scratch, B);
            if (last_attention) {
                options.control.report(i + 1 - first, last - first);
                break;
            }
            ops::add_inplace(x.data(), a.data(), x.size());
            trace.emit(TraceStep::AttentionResidual, x.data(), E);
            options.control.check();  // a layer of an 8B model is seconds long
            if (config_.intermediate_size > 0) {
                h = x;
                norm(h.data(), R, w.norm2_w, w.norm2_b, threads);
                trace.emit(TraceStep::MlpNorm, h.data(), E);
                mlp(w, h.data(), R, a.data(), threads, scratch);
                ops::add_inplace(x.data(), a.data(), x.size());
                trace.emit(TraceStep::MlpResidual, x.data(), E);
            }
        } else {
            attention(i, w, x.data(), L, pos, options, keep, rows, a.data(), sink, scratch, B);
            if (last_attention) {
                options.control.report(i + 1 - first, last - first);
                break;
            }
            ops::add_inplace(a.data(), x.data(), x.size());
            trace.emit(TraceStep::AttentionResidual, a.data(), E);
            norm(a.data(), R, w.norm1_w, w.norm1_b, threads);
            trace.emit(TraceStep::AttentionResidualNorm, a.data(), E);
            options.control.check();
            mlp(w, a.data(), R, x.data(), threads, scratch);
            ops::add_inplace(x.data(), a.data(), x.size());
            trace.emit(TraceStep::MlpResidual, x.data(), E);
            norm(x.data(), R, w.norm2_w, w.norm2_b, threads);
            trace.emit(TraceStep::MlpResidualNorm, x.data(), E);
        }
        if (hidden) {
            Tensor out({L, E}, x);
            if (i + 1 == config_.num_layers && !globals().final_norm_w.empty())
                norm(out.ptr(), L, globals().final_norm_w, globals().final_norm_b);
            sink.on_hidden_state(i + 1, out);
        }
        options.control.report(i + 1 - first, last - first);
        // Nothing after the last kept layer is handed over (the steps view's pass to one layer).
        if (!kept.empty() && next_kept == kept.size() && !hidden && !streams) break;
    }
    if (trace.on() && lm_head_ != LmHeadKind::None) {  // the head at the traced token
        trace.layer = config_.num_layers;
        std::vector<float> row(x.begin() + traced * E, x.begin() + (traced + 1) * E);
        Tracer at = trace;
        at.row = 0;
        head_input(row, 1, threads, at);
        const Tensor z = unembed(row, 1, threads, nullptr);
        trace.values(TraceStep::Logits, z.ptr(), 1, config_.vocab_size);
    }
    if (residuals) sink.on_residual(config_.num_layers, Tensor({R, E}, std::move(x)));
    release_stream(scratch);
}

Tensor Transformer::logits(const Tensor& residual, const std::vector<Index>& rows, int threads,
                           const std::vector<Index>* columns) const {
    if (lm_head_ == LmHeadKind::None) throw DataError(lm_head_missing_);
    const Index E = config_.hidden_size;
    if (residual.numel() % static_cast<std::size_t>(E) != 0)
        throw std::invalid_argument("the residual stream is not [tokens, " + std::to_string(E) +
                                    "]");
    const auto L = static_cast<Index>(residual.numel() / static_cast<std::size_t>(E));
    const auto R = static_cast<Index>(rows.size());
    std::vector<float> x(static_cast<std::size_t>(R * E));
    for (Index r = 0; r < R; ++r) {
        const Index t = rows[static_cast<std::size_t>(r)];
        if (t < 0 || t >= L)
            throw std::invalid_argument("position " + std::to_string(t) + " is not in the " +
                                        std::to_string(L) + " tokens");
        std::copy_n(residual.ptr() + t * E, E, x.data() + r * E);
    }
    head_input(x, R, threads);
    return unembed(x, R, threads, columns);
}

void Transformer::head_input(std::vector<float>& x, Index R, int threads,
                             const Tracer& trace) const {
    const Index E = config_.hidden_size;
    const HeadWeights& hw = head();
    if (lm_head_ == LmHeadKind::Causal) {
        const GlobalWeights& g = globals();
        norm(x.data(), R, g.final_norm_w, g.final_norm_b, threads);
        trace.emit(TraceStep::FinalNorm, x.data(), E);
    } else {
        std::vector<float> t(x.size());
        ops::linear(x.data(), R, E, hw.dense_w.ptr, hw.dense_b.ptr, E, t.data(), threads, 0, 0,
                    hw.dense_w.in_out);
        trace.emit(TraceStep::HeadTransform, t.data(), E);
        ops::activate(t.data(), t.size(), head_params_.activation);
        trace.emit(TraceStep::HeadActivation, t.data(), E);
        ops::layer_norm(t.data(), R, E, hw.norm_w.ptr, hw.norm_b.ptr,
                        static_cast<float>(config_.norm_eps));
        trace.emit(TraceStep::HeadNorm, t.data(), E);
        x = std::move(t);
    }
}

Tensor Transformer::unembed(const std::vector<float>& x, Index R, int threads,
                            const std::vector<Index>* columns) const {
    const Index E = config_.hidden_size, V = config_.vocab_size;
    const HeadWeights& hw = head();
    const Weight& u = hw.unembed;  // [V, E] as stored
    if (u.empty()) return streamed_logits(x, R, hw, threads, columns);
    if (columns) {
        const auto C = static_cast<Index>(columns->size());
        Tensor out({R, C});
        for (Index c = 0; c < C; ++c) {
            const Index id = (*columns)[static_cast<std::size_t>(c)];
            if (id < 0 || id >= V)
                throw std::invalid_argument("token id " + std::to_string(id) +
                                            " is outside the vocabulary of " + std::to_string(V));
            for (Index r = 0; r < R; ++r) {
                double sum = hw.bias.empty() ? 0.0 : double(hw.bias.ptr[id]);
                for (Index e = 0; e < E; ++e)
                    sum += double(x[static_cast<std::size_t>(r * E + e)]) *
                           double(u.in_out ? u.ptr[e * V + id] : u.ptr[id * E + e]);
                out.data[static_cast<std::size_t>(r * C + c)] = static_cast<float>(sum);
            }
        }
        return out;
    }
    Tensor out = take_tensor({R, V});  // every value is written: no zero fill
    ops::linear(x.data(), R, E, u.ptr, hw.bias.empty() ? nullptr : hw.bias.ptr, V, out.ptr(),
                threads, 0, 0, u.in_out);
    return out;
}

void Transformer::product(const float* x, Index rows, Index in, const Weight& w, const Weight& b,
                          Index out, float* y, int threads, Scratch& scratch, Index ldx,
                          Index ldy) const {
    if (!w.streamed()) {
        ops::linear(x, rows, in, w.ptr, b.ptr, out, y, threads, ldx, ldy, w.in_out);
        return;
    }
    const WeightLayout& l = *w.source;
    if (ldy == 0) ldy = out;
    if (ldx == 0) ldx = in;
    if (bf16_product(x, rows, in, l, b, y, threads, scratch, ldx, ldy)) return;
    const Index block = stream_block_rows(in);
    const auto size = static_cast<std::size_t>(std::min(block, l.rows) * in);
    if (scratch.block.size() < size) {
        release_buffer(scratch.block);
        scratch.block = take_buffer(size);
    }
    float* buf = scratch.block.data();
    for (std::size_t t = 0; t < l.names.size(); ++t) {
        const Index r0 = l.offsets[t];
        const Index r1 = t + 1 < l.names.size() ? l.offsets[t + 1] : l.rows;
        for (Index n0 = r0; n0 < r1; n0 += block) {
            const Index n = std::min(block, r1 - n0);
            ops::parallel_for(static_cast<std::size_t>(n), threads,
                              [&](std::size_t a, std::size_t e) {
                                  store_.load_block(l.names[t], n0 - r0 + static_cast<Index>(a),
                                                    n0 - r0 + static_cast<Index>(e),
                                                    buf + static_cast<Index>(a) * in, in);
                              });
            ops::linear(x, rows, in, buf, b.empty() ? nullptr : b.ptr + n0, n, y + n0, threads, ldx,
                        ldy, false);
        }
    }
}

bool Transformer::bf16_product(const float* x, Index rows, Index in, const WeightLayout& l,
                               const Weight& b, float* y, int threads, Scratch& scratch, Index ldx,
                               Index ldy) const {
    if (rows == 0 || rows > kernels::kBf16MaxRows || !kernels::bf16_products()) return false;
    for (const std::string& name : l.names)
        if (!store_.bf16_rows(name, 0, 0)) return false;
    // Output rows per call: about 1 MB of weights, read from the mapping once.
    const Index nb =
        std::clamp<Index>(((Index{1} << 19) / std::max<Index>(in, 1)) / 64 * 64, 64, 512);
    const std::size_t slots = ops::chunk_count(static_cast<std::size_t>(l.rows), threads);
    if (scratch.partials.size() < slots) scratch.partials.resize(slots);
    for (auto& p : scratch.partials)
        p.resize(std::max(p.size(), kernels::gemm_bf16_scratch(rows, nb)));
    const Index plane = rows * in;
    scratch.parts.resize(static_cast<std::size_t>(3 * plane));
    std::uint16_t* parts = scratch.parts.data();
    ops::parallel_for(static_cast<std::size_t>(rows), threads, [&](std::size_t a, std::size_t e) {
        const auto i0 = static_cast<Index>(a);
        kernels::split_bf16(x + i0 * ldx, static_cast<Index>(e) - i0, in, ldx, parts + i0 * in,
                            plane);
    });
    for (std::size_t t = 0; t < l.names.size(); ++t) {
        const Index r0 = l.offsets[t];
        const Index r1 = t + 1 < l.names.size() ? l.offsets[t + 1] : l.rows;
        ops::parallel_chunks(static_cast<std::size_t>(r1 - r0), threads,
                             [&](std::size_t slot, std::size_t a, std::size_t e) {
                                 float* partial = scratch.partials[slot].data();
                                 const auto end = static_cast<Index>(e);
                                 for (auto n0 = static_cast<Index>(a); n0 < end; n0 += nb) {
                                     const Index n = std::min(nb, end - n0);
                                     kernels::gemm_bf16(parts, plane, rows, in,
                                                        store_.bf16_rows(l.names[t], n0, n0 + n), n,
                                                        in, b.empty() ? nullptr : b.ptr + r0 + n0,
                                                        y + r0 + n0, ldy, partial);
                                 }
                             });
    }
    return true;
}

Tensor Transformer::streamed_logits(const std::vector<float>& x, Index R, const HeadWeights& hw,
                                    int threads, const std::vector<Index>* columns) const {
    const Index E = config_.hidden_size, V = config_.vocab_size;
    const std::string name = unembed_name();
    if (columns) {  // only those rows of the unembedding, as the kept path reads them
        const auto C = static_cast<Index>(columns->size());
        for (Index id : *columns)
            if (id < 0 || id >= V)
                throw std::invalid_argument("token id " + std::to_string(id) +
                                            " is outside the vocabulary of " + std::to_string(V));
        std::vector<float> u(static_cast<std::size_t>(C * E));
        store_.load_rows(name, *columns, u.data());
        Tensor out({R, C});
        for (Index c = 0; c < C; ++c) {
            const Index id = (*columns)[static_cast<std::size_t>(c)];
            for (Index r = 0; r < R; ++r) {
                double sum = hw.bias.empty() ? 0.0 : double(hw.bias.ptr[id]);
                for (Index e = 0; e < E; ++e)
                    sum += double(x[static_cast<std::size_t>(r * E + e)]) *
                           double(u[static_cast<std::size_t>(c * E + e)]);
                out.data[static_cast<std::size_t>(r * C + c)] = static_cast<float>(sum);
            }
        }
        return out;
    }
    // The unembedding as any streamed matrix: converted a block of rows at a time, or
    // multiplied as stored (BF16 on AMX).
    Weight u;
    u.rows = V;
    u.cols = E;
    auto source = std::make_shared<WeightLayout>();
    source->names = {name};
    source->offsets = {0};
    source->rows = V;
    source->cols = E;
    u.source = std::move(source);
    Tensor out = take_tensor({R, V});
    Scratch scratch;
    product(x.data(), R, E, u, hw.bias, V, out.ptr(), threads, scratch);
    release_buffer(scratch.block);
    return out;
}

void Transformer::cached_block(Index layer, float* x, Index n, Index t0, KvCache& cache,
                               AttentionResult* weights, int threads, Scratch& scratch) const {
    const Index H = config_.num_heads, KV = config_.num_kv_heads, d = config_.head_dim;
    const Index E = config_.hidden_size, ld = (H + 2 * KV) * d, kvw = KV * d;
    const LayerWeights& w = this->layer(layer, scratch, threads);
    std::vector<float> h(x, x + n * E), a(static_cast<std::size_t>(n * E));
    norm(h.data(), n, w.norm1_w, w.norm1_b, threads);
    std::vector<Index> pos(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
        pos[static_cast<std::size_t>(i)] = t0 + i;
    std::vector<float>& qkv = scratch.qkv;
    project_qkv(w, h.data(), n, pos, threads, scratch);
    std::vector<float>& K = cache.k[static_cast<std::size_t>(layer)];
    std::vector<float>& Vc = cache.v[static_cast<std::size_t>(layer)];
    const float scale = score_scale(layer);
    for (Index i = 0; i < n; ++i) {
        float* row = qkv.data() + i * ld;
        std::copy_n(row + H * d, kvw, K.data() + (t0 + i) * kvw);
        std::copy_n(row + H * d + kvw, kvw, Vc.data() + (t0 + i) * kvw);
        for (Index c = 0; c < H * d; ++c)
            row[c] *= scale;
    }
    const Index S = t0 + n;
    layers::ProjectedHeads in = projected(K.data(), Vc.data(), kvw, ld, 1, S, scale);
    in.q = qkv.data();
    const ops::MaskSpec masks{nullptr, nullptr, true, 1, H, S, S, 0};
    AttentionForwardOptions part;
    part.query_begin = t0;
    part.query_count = n;
    layers::AttendOptions opt;
    opt.num_threads = threads;
    opt.need_weights = weights != nullptr;
    AttentionResult discarded;
    std::vector<float> concat(static_cast<std::size_t>(n * H * d));
    layers::attend(in, masks, layers::result_window(part, H, S, S), opt,
                   weights ? *weights : discarded, concat.data(), H * d);
    product(concat.data(), n, H * d, w.o_w, w.o_b, E, a.data(), threads, scratch);
    ops::add_inplace(x, a.data(), a.size());
    if (config_.intermediate_size > 0) {
        std::copy_n(x, n * E, h.data());
        norm(h.data(), n, w.norm2_w, w.norm2_b, threads);
        mlp(w, h.data(), n, a.data(), threads, scratch);
        ops::add_inplace(x, a.data(), a.size());
    }
}

Generation Transformer::generate(const std::vector<Index>& prompt,
                                 const GenerateOptions& options) const {
    if (!config_.causal())
        throw std::invalid_argument("generation needs a causal language model; " +
                                    config_.display_name() + " is a masked language model");
    const auto P = static_cast<Index>(prompt.size());
    if (P == 0) throw std::invalid_argument("the prompt has no tokens");
    if (options.max_new_tokens < 1)
        throw std::invalid_argument("max_new_tokens must be at least 1");
    const Index T = P + options.max_new_tokens;
    if (T > config_.max_positions)
        throw std::invalid_argument(
            std::to_string(P) + " prompt tokens and " + std::to_string(options.max_new_tokens) +
            " new ones are more than the " + std::to_string(config_.max_positions) +
            " positions of " + config_.display_name());
    for (const HeadIntervention& iv : options.interventions)
        if (iv.kind == HeadIntervention::Kind::Patch)
            throw std::invalid_argument(
                "generation takes knocked-out heads (zero, mean), not "
                "patched ones");
    const bool intervened = !options.interventions.empty();
    const Index N = config_.num_layers, H = config_.num_heads, E = config_.hidden_size;
    const Index V = config_.vocab_size;
    const int threads = std::max(1, options.num_threads);
    KvCache cache;
    const auto kv = static_cast<std::size_t>(T * config_.num_kv_heads * config_.head_dim);
    if (!intervened) {
        cache.k.assign(static_cast<std::size_t>(N), std::vector<float>(kv));
        cache.v.assign(static_cast<std::size_t>(N), std::vector<float>(kv));
    }
    Generation g;
    if (options.attention) g.attention = Tensor({N, H, T, T});
    std::vector<float> step_logits;
    Scratch scratch;
    Sampler sampler(options);

    std::vector<Index> ids = prompt;
    // A new token is one row: for a small model the pool's wake-ups cost more than the rows
    // of its products, so its steps run on the calling thread (a step of char-zh-en-4l: 1.35
    // ms on two threads, 0.23 ms on one); a large one streams its weights on every thread.
    const int step_threads = weight_bytes() >= (std::size_t{64} << 20) ? threads : 1;
    // Each new token's step for on_step: the logits it was chosen from, then its rows.
    const bool stepped = options.on_step && !intervened;
    GenerationStep handed;
    // The last n ids (at positions t0...) through every layer, their attention rows kept;
    // returns the stream of the last one.
    const auto step = [&](Index n, Index t0) {
        const int run_threads = n == 1 ? step_threads : threads;
        ModelInput in;
        in.ids.assign(ids.end() - n, ids.end());
        std::vector<Index> pos(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i)
            pos[static_cast<std::size_t>(i)] = t0 + i;
        std::vector<float> x(static_cast<std::size_t>(n * E));
        embed(in, pos, x.data());
        // The prompt's step is not a new token's: its rows are forward()'s.
        const bool hand = stepped && t0 >= P && !g.stopped;
        const Index S = t0 + n;
        if (hand) handed.attention = Tensor({N, H, S});
        for (Index l = 0; l < N; ++l) {
            AttentionResult r;
            cached_block(l, x.data(), n, t0, cache, options.attention || hand ? &r : nullptr,
                         run_threads, scratch);
            if (hand)
                for (Index h = 0; h < H; ++h)
                    std::copy_n(r.weights.ptr() + h * S, S,
                                handed.attention.ptr() + (l * H + h) * S);
            if (options.attention)
                for (Index h = 0; h < H; ++h)
                    for (Index i = 0; i < n; ++i)
                        std::copy_n(r.weights.ptr() + (h * n + i) * S, S,
                                    g.attention.ptr() + ((l * H + h) * T + t0 + i) * T);
            if (options.attention || hand) recycle(r);
        }
        if (hand) {
            handed.position = t0;
            handed.id = ids[static_cast<std::size_t>(t0)];
            options.on_step(std::move(handed));
            handed = GenerationStep();
        }
        return Tensor({1, E}, std::vector<float>(x.end() - E, x.end()));
    };
    // The whole text with the knocked-out heads' interventions: the attention of every layer
    // (kept into g.attention) or only the last stream.
    const auto intervened_pass = [&](bool keep_attention) {
        ModelInput in;
        in.ids = ids;
        ModelForwardOptions o;
        o.attention = keep_attention;
        o.interventions = options.interventions;
        o.num_threads = threads;
        if (!keep_attention) {
            FinalStreamSink sink(N);
            forward(in, o, sink);
            return logits(sink.final, {static_cast<Index>(ids.size()) - 1}, threads, nullptr);
        }
        CollectingSink sink;
        forward(in, o, sink);
        const auto S = static_cast<Index>(ids.size());
        for (std::size_t k = 0; k < sink.results.size(); ++k)
            for (Index h = 0; h < H; ++h)
                for (Index i = 0; i < S; ++i)
                    std::copy_n(sink.results[k].weights.ptr() + (h * S + i) * S, S,
                                g.attention.ptr() + ((sink.layers[k] * H + h) * T + i) * T);
        return Tensor();
    };
    // The prompt in one pass, then one token at a time.
    Index t0 = 0, n = P;
    for (;;) {
        const Tensor last =
            intervened ? intervened_pass(false)
                       : logits(step(n, t0), {0}, n == 1 ? step_threads : threads, nullptr);
        const Index next = sampler.pick(last.data);
        if (stepped) handed.logits = Tensor({V}, last.data);
        if (options.keep_logits)
            step_logits.insert(step_logits.end(), last.data.begin(), last.data.end());
        g.ids.push_back(next);
        ids.push_back(next);
        g.eos = std::find(options.eos_ids.begin(), options.eos_ids.end(), next) !=
                options.eos_ids.end();
        g.stopped = options.on_token && !options.on_token(next);
        if (g.eos || g.stopped || static_cast<Index>(g.ids.size()) == options.max_new_tokens) break;
        t0 += n;
        n = 1;
    }
    const auto steps = static_cast<Index>(g.ids.size());
    if (options.keep_logits) g.logits = Tensor({steps, V}, std::move(step_logits));
    if (stepped && !g.stopped && !options.attention) step(1, P + steps - 1);  // the last rows
    if (options.attention) {
        // The last token's own row: one more step, without its logits.
        const Index total = P + steps;
        if (intervened)
            intervened_pass(true);
        else
            step(1, total - 1);
        Tensor cropped({N, H, total, total});
        for (Index lh = 0; lh < N * H; ++lh)
            for (Index i = 0; i < total; ++i)
                std::copy_n(g.attention.ptr() + (lh * T + i) * T, total,
                            cropped.ptr() + (lh * total + i) * total);
        g.attention = std::move(cropped);
    }
    return g;
}

std::size_t Transformer::estimate_forward_bytes(Index tokens,
                                                const ModelForwardOptions& options) const {
    const double L = double(tokens), E = double(config_.hidden_size);
    const double H = double(config_.num_heads), KV = double(config_.num_kv_heads);
    const double d = double(config_.head_dim), I = double(config_.intermediate_size);
    const AttentionScope& s = options.scope;
    // Without attention no map is kept (a statistics pass sees its rows in blocks).
    const double kept_layers = !options.attention ? 0.0
                               : s.layers.empty() ? double(config_.num_layers)
                                                  : double(s.layers.size());
    const double heads = s.only_head >= 0 ? (s.heads == 0 ? 0.0 : 1.0)
                         : s.heads < 0    ? H
                                          : double(s.heads);
    const double rows = s.window_length < 0 ? L - double(s.window_begin) : double(s.window_length);
    double floats = kept_layers * (heads + 1.0) * rows * rows;               // kept maps and means
    floats += L * E * 4 + L * (H + 2 * KV) * d * 2 + L * H * d + L * I * 2;  // activations
    // attend(): per thread a block's scores and its head sum; every kv head's packed keys and
    // values.
    const int threads = std::max(1, options.num_threads);
    floats += double(threads) * 2.0 *
              double(layers::rows_per_block(std::max<Index>(1, Index(rows)), tokens, 1, threads) *
                     tokens);
    floats +=
        double(layers::packed_heads_floats(1, config_.num_kv_heads, tokens, config_.head_dim));
    if (options.steps_layer >= 0) floats += H * (5 * rows * L + 4 * L * d) + 2 * L * E + L * H * d;
    return static_cast<std::size_t>(floats * sizeof(float) + kept_layers * H * rows + (1 << 20));
}

std::size_t Transformer::weight_bytes() const {
    return static_cast<std::size_t>(store_.parameter_count()) * sizeof(float);
}

std::size_t Transformer::streaming_weight_bytes() const {
    // A layer's vectors (norms, biases) and GPT-2's Conv1D matrices, converted whole; one
    // block of the largest other matrix; the global norms; a block of the unembedding.
    std::uint64_t values = 0, block = 0, widest = 0;
    const LayerParams l = layer_params(config_, 0);
    const auto count = [&](const std::vector<Param>& list) {
        std::uint64_t rows = 0, cols = 1;
        bool conv1d = false;
        for (const Param& p : list) {
            if (p.name.empty() || (p.optional && !resolve(p.name))) continue;
            rows += static_cast<std::uint64_t>(p.shape[0]);
            cols = p.shape.size() > 1 ? static_cast<std::uint64_t>(p.shape[1]) : 1;
            conv1d = p.conv1d;
        }
        if (cols == 1 || conv1d) {
            values += rows * cols;
        } else {
            const auto in = static_cast<Index>(cols);
            widest = std::max(widest, cols);
            block = std::max(block, std::min<std::uint64_t>(
                                        rows, static_cast<std::uint64_t>(stream_block_rows(in))) *
                                        cols);
        }
    };
    for (const auto& tensors : layer_tensors(l))
        count(tensors);
    const GlobalParams g = global_params(config_);
    for (const Param* p : {&g.emb_norm_w, &g.emb_norm_b, &g.final_norm_w, &g.final_norm_b})
        count({*p});
    const auto E = static_cast<std::uint64_t>(config_.hidden_size);  // the unembedding's block
    block =
        std::max(block, std::min<std::uint64_t>(
                            static_cast<std::uint64_t>(config_.vocab_size),
                            static_cast<std::uint64_t>(stream_block_rows(config_.hidden_size))) *
                            E);
    widest = std::max(widest, E);
    values += block;
    std::uint64_t bytes = values * sizeof(float);
    const auto q = resolve(l.qkv_w.front().name);
    if (q && store_.bf16_rows(*q, 0, 0) && kernels::bf16_products())
        // bf16_product's split activations and partial products
        bytes += 3 * static_cast<std::uint64_t>(kernels::kBf16MaxRows) * widest * 2 +
                 std::max(1u, std::thread::hardware_concurrency()) *
                     kernels::gemm_bf16_scratch(kernels::kBf16MaxRows, 512) * sizeof(float);
    return static_cast<std::size_t>(std::min<std::uint64_t>(bytes, weight_bytes()));
}

}  // namespace

std::unique_ptr<Model> load_model(const std::string& folder) {
    ModelConfig config = read_config(folder);
    io::WeightStore store = io::WeightStore::open_folder(folder);
    return std::make_unique<Transformer>(std::move(config), std::move(store), folder);
}

std::unique_ptr<Model> make_transformer(ModelConfig config, io::WeightStore weights,
                                        const std::string& source) {
    return std::make_unique<Transformer>(std::move(config), std::move(weights), source);
}

}  // namespace attnviz::models
