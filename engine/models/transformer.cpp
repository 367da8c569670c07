// The model families as one transformer with per-family names and block order:
//  * bert / roberta / distilbert: learned positions (+ token types), post-LayerNorm blocks;
//  * gpt2: learned positions, pre-LayerNorm blocks, Conv1D weights stored [in, out], causal;
//  * llama / qwen2 / qwen3: RMSNorm, rotary positions, grouped-query attention, SwiGLU, causal.
// Q, K and V are one fused projection whatever the file stores, so each layer runs one matrix
// product for them; attention itself is layers::attend, shared with nn.MultiheadAttention.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "engine/buffers.h"
#include "engine/errors.h"
#include "engine/io/weight_store.h"
#include "engine/layers/attention_core.h"
#include "engine/models/model.h"
#include "engine/ops/masks.h"
#include "engine/ops/nn.h"
#include "engine/ops/parallel.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;

/// One parameter of the family's layout: its name without the model prefix and the shape the
/// config implies.  conv1d: GPT-2 stores [in, out]; it is transposed to nn.Linear's [out, in].
struct Param {
    std::string name;
    Shape shape;
    bool conv1d = false;
    bool optional = false;
};

struct LayerParams {
    Param norm1_w, norm1_b, norm2_w, norm2_b;
    std::vector<Param> qkv_w, qkv_b;  ///< q, k, v (or GPT-2's fused c_attn)
    Param q_norm, k_norm;
    Param o_w, o_b;
    std::vector<Param> up_w, up_b;  ///< gated: gate then up
    Param down_w, down_b;
};

/// A weight as the layers read it: in place in the mapped file (F32 checkpoints, no copy) or
/// converted once into `owned` (F16, BF16, unaligned).  Move-only: ptr may point into owned.
struct Weight {
    const float* ptr = nullptr;
    std::vector<float> owned;
    Index rows = 0, cols = 0;  ///< as stored
    bool in_out = false;       ///< stored [in, out] (GPT-2's Conv1D)
    Weight() = default;
    Weight(Weight&&) noexcept = default;
    Weight& operator=(Weight&&) noexcept = default;
    bool empty() const { return ptr == nullptr; }
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

/// Buffers one forward pass reuses from layer to layer.
struct Scratch {
    std::vector<float> qkv, mid;
};

struct GlobalWeights {
    Weight emb_norm_w, emb_norm_b, final_norm_w, final_norm_b;
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
        case Family::Gpt2:
            l.norm1_w = {p + "ln_1.weight", {E}};
            l.norm1_b = {p + "ln_1.bias", {E}};
            l.qkv_w.push_back({p + "attn.c_attn.weight", {E, 3 * E}, true});
            l.qkv_b.push_back({p + "attn.c_attn.bias", {3 * E}});
            l.o_w = {p + "attn.c_proj.weight", {E, E}, true};
            l.o_b = {p + "attn.c_proj.bias", {E}};
            l.norm2_w = {p + "ln_2.weight", {E}};
            l.norm2_b = {p + "ln_2.bias", {E}};
            l.up_w.push_back({p + "mlp.c_fc.weight", {E, I}, true});
            l.up_b.push_back({p + "mlp.c_fc.bias", {I}});
            l.down_w = {p + "mlp.c_proj.weight", {I, E}, true};
            l.down_b = {p + "mlp.c_proj.bias", {E}};
            break;
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

std::string describe_config(const ModelConfig& c) {
    std::string s = "hidden size " + std::to_string(c.hidden_size) + ", " +
                    std::to_string(c.num_heads) + " heads";
    if (c.num_kv_heads != c.num_heads) s += ", " + std::to_string(c.num_kv_heads) + " kv heads";
    s += ", head_dim " + std::to_string(c.head_dim) + ", intermediate " +
         std::to_string(c.intermediate_size) + ", vocab " + std::to_string(c.vocab_size);
    return s;
}

class Transformer final : public Model {
  public:
    Transformer(ModelConfig config, io::WeightStore store, std::string folder)
        : config_(std::move(config)), store_(std::move(store)), folder_(std::move(folder)) {
        find_prefix();
        check_every_shape();
        layers_.resize(static_cast<std::size_t>(config_.num_layers));
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

  private:
    /// The stored name of a parameter: the family's name under the file's prefix, or the
    /// old "gamma"/"beta" spelling of a LayerNorm's weight/bias.
    std::optional<std::string> resolve(const std::string& name) const {
        const std::string full = prefix_ + name;
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
        const auto name = resolve(p.name);
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

    void check_every_shape() const {
        const GlobalParams g = global_params(config_);
        for (const Param* p : {&g.word, &g.position, &g.token_type, &g.emb_norm_w, &g.emb_norm_b,
                               &g.final_norm_w, &g.final_norm_b})
            check(*p);
        for (Index i = 0; i < config_.num_layers; ++i) {
            const LayerParams l = layer_params(config_, i);
            for (const Param* p : {&l.norm1_w, &l.norm1_b, &l.norm2_w, &l.norm2_b, &l.q_norm,
                                   &l.k_norm, &l.o_w, &l.o_b, &l.down_w, &l.down_b})
                check(*p);
            for (const auto* list : {&l.qkv_w, &l.qkv_b, &l.up_w, &l.up_b})
                for (const Param& p : *list)
                    check(p);
        }
    }

    /// Copied (or converted) into buffers of its own on 2 MB pages, matrices stored [in, out]:
    /// reading the products' weights straight from the file mapping (4 KB pages) made a BERT-base
    /// pass 25% slower.
    Weight load(const Param& p) const { return load_all(std::vector<Param>{p}); }

    /// Parameters stacked along their first dimension into one weight: q, k and v become one
    /// projection (one matrix product instead of three), gate and up one MLP input.
    Weight load_all(const std::vector<Param>& params) const {
        Weight w;
        std::vector<std::string> names;
        for (const Param& p : params) {
            if (p.name.empty()) continue;
            const auto name = resolve(p.name);
            if (!name) continue;
            const io::TensorEntry* e = store_.find(*name);
            w.rows += e->shape[0];
            w.cols = e->shape.size() > 1 ? e->shape[1] : 1;
            w.in_out = p.conv1d;
            names.push_back(*name);
        }
        if (names.empty()) return w;
        w.owned = take_buffer(shape_numel({w.rows, w.cols}));
        std::size_t at = 0;
        for (const std::string& name : names) {
            const std::size_t n = shape_numel(store_.find(name)->shape);
            store_.load_into(name, w.owned.data() + at, n);
            at += n;
        }
        if (!w.in_out && w.cols > 1) {
            // Stored [in, out]: oneDNN's sgemm runs 15-25% faster on a BERT layer's products
            // with the weight in this layout than used transposed (bench/gemm_bench).
            std::vector<float> t = take_buffer(shape_numel({w.cols, w.rows}));
            ops::transpose(w.owned.data(), w.rows, w.cols, t.data());
            w.owned = std::move(t);
            std::swap(w.rows, w.cols);
            w.in_out = true;
        }
        w.ptr = w.owned.data();
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

    /// Layer i's float32 weights, read from the files the first time a forward pass needs them.
    const LayerWeights& layer(Index i) const {
        std::lock_guard lock(load_mutex_);
        auto& slot = layers_[static_cast<std::size_t>(i)];
        if (!slot) {
            const LayerParams p = layer_params(config_, i);
            auto w = std::make_unique<LayerWeights>();
            w->norm1_w = load(p.norm1_w);
            w->norm1_b = load(p.norm1_b);
            w->norm2_w = load(p.norm2_w);
            w->norm2_b = load(p.norm2_b);
            w->qkv_w = load_all(p.qkv_w);
            w->qkv_b = load_all(p.qkv_b);
            w->q_norm = load(p.q_norm);
            w->k_norm = load(p.k_norm);
            w->o_w = load(p.o_w);
            w->o_b = load(p.o_b);
            w->up_w = load_all(p.up_w);
            w->up_b = load_all(p.up_b);
            w->down_w = load(p.down_w);
            w->down_b = load(p.down_b);
            slot = std::move(w);
        }
        return *slot;
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

    std::vector<Index> positions(const ModelInput& input) const;
    void embed(const ModelInput& input, const std::vector<Index>& pos, float* x) const;
    void attention(Index layer, const LayerWeights& w, const float* h, Index L,
                   const std::vector<Index>& pos, const ModelForwardOptions& options, bool keep,
                   float* out, AttentionSink& sink, Scratch& scratch) const;
    void mlp(const LayerWeights& w, const float* h, Index L, float* out, int threads,
             Scratch& scratch) const;

    ModelConfig config_;
    io::WeightStore store_;
    std::string folder_;
    std::string prefix_;
    ModelInfo info_;
    std::vector<double> inv_freq_;
    mutable std::mutex load_mutex_;
    mutable std::vector<std::unique_ptr<LayerWeights>> layers_;
    mutable std::once_flag globals_once_;
    mutable GlobalWeights globals_;
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

void Transformer::embed(const ModelInput& input, const std::vector<Index>& pos, float* x) const {
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
    if (!g.emb_norm_w.empty()) norm(x, L, g.emb_norm_w, g.emb_norm_b);
}

void Transformer::attention(Index layer, const LayerWeights& w, const float* h, Index L,
                            const std::vector<Index>& pos, const ModelForwardOptions& options,
                            bool keep, float* out, AttentionSink& sink, Scratch& scratch) const {
    const Index H = config_.num_heads, KV = config_.num_kv_heads, d = config_.head_dim;
    const Index E = config_.hidden_size;
    const Index ld = (H + 2 * KV) * d;
    const int threads = std::max(1, options.num_threads);
    std::vector<float>& qkv = scratch.qkv;  // reused from layer to layer: no re-zeroing
    qkv.resize(static_cast<std::size_t>(L * ld));
    ops::linear(h, L, E, w.qkv_w.ptr, w.qkv_b.ptr, ld, qkv.data(), threads, 0, 0, w.qkv_w.in_out);
    float* q = qkv.data();
    float* k = q + H * d;
    float* v = k + KV * d;
    const float eps = static_cast<float>(config_.norm_eps);
    if (!w.q_norm.empty())
        for (Index hh = 0; hh < H; ++hh)
            ops::rms_norm(q + hh * d, L, d, w.q_norm.ptr, eps, ld);
    if (!w.k_norm.empty())
        for (Index g = 0; g < KV; ++g)
            ops::rms_norm(k + g * d, L, d, w.k_norm.ptr, eps, ld);

    const bool steps = keep && options.steps_layer == layer;
    AttentionForwardOptions window;
    if (keep) {
        window.weights_heads = options.scope.heads;
        window.query_begin = window.key_begin = options.scope.window_begin;
        window.query_count = window.key_count = options.scope.window_length;
    }
    const layers::ResultWindow win = layers::result_window(window, H, L, L);
    AttentionResult result;
    std::vector<float> unrotated;
    if (steps) unrotated.assign(qkv.begin(), qkv.end());
    if (config_.rotary()) {
        ops::apply_rotary(q, L, H, d, ld, pos, inv_freq_);
        ops::apply_rotary(k, L, KV, d, ld, pos, inv_freq_);
    }
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
    float scale = 1.0f;
    if (config_.family != Family::Gpt2 || config_.scale_attn_weights)
        scale = 1.0f / std::sqrt(static_cast<float>(d));
    if (config_.family == Family::Gpt2 && config_.scale_attn_by_inverse_layer_idx)
        scale /= static_cast<float>(layer + 1);
    for (Index r = 0; r < L; ++r)
        for (Index c = 0; c < H * d; ++c)
            q[r * ld + c] *= scale;

    const ops::MaskSpec masks{nullptr, nullptr, config_.causal(), 1, H, L, L, 0};
    std::vector<float> concat(static_cast<std::size_t>(L * H * d));
    layers::ProjectedHeads in;
    in.ldq = in.ldk = in.ldv = ld;
    in.k = k;
    in.v = v;
    in.batch = 1;
    in.num_heads = H;
    in.num_kv_heads = KV;
    in.head_dim = d;
    in.target_len = L;
    in.source_len = L;
    in.score_scale = scale;
    layers::AttendOptions opt;
    opt.masked_rows = options.masked_rows;
    opt.num_threads = threads;
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
    ops::linear(concat.data(), L, H * d, w.o_w.ptr, w.o_b.ptr, E, out, threads, 0, 0, w.o_w.in_out);
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
    ops::linear(h, L, E, w.up_w.ptr, w.up_b.ptr, width, mid.data(), threads, 0, 0, w.up_w.in_out);
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
    ops::linear(mid.data(), L, I, w.down_w.ptr, w.down_b.ptr, E, out, threads, width, E,
                w.down_w.in_out);
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
    const std::vector<Index> pos = positions(input);
    const Index E = config_.hidden_size;
    const int threads = std::max(1, options.num_threads);
    std::vector<float> x(static_cast<std::size_t>(L * E)), h(x.size()), a(x.size());
    Scratch scratch;
    embed(input, pos, x.data());
    const bool hidden = sink.wants_hidden_states();
    if (hidden) sink.on_hidden_state(0, Tensor({L, E}, x));
    const bool pre_norm = config_.pre_norm();
    std::size_t next_kept = 0;
    const auto& kept = options.scope.layers;
    for (Index i = 0; i < config_.num_layers; ++i) {
        bool keep = kept.empty();
        if (!keep && next_kept < kept.size() && kept[next_kept] == i) {
            keep = true;
            ++next_kept;
        }
        const LayerWeights& w = layer(i);
        if (pre_norm) {
            h = x;
            norm(h.data(), L, w.norm1_w, w.norm1_b, threads);
            attention(i, w, h.data(), L, pos, options, keep, a.data(), sink, scratch);
            ops::add_inplace(x.data(), a.data(), x.size());
            if (config_.intermediate_size > 0) {
                h = x;
                norm(h.data(), L, w.norm2_w, w.norm2_b, threads);
                mlp(w, h.data(), L, a.data(), threads, scratch);
                ops::add_inplace(x.data(), a.data(), x.size());
            }
        } else {
            attention(i, w, x.data(), L, pos, options, keep, a.data(), sink, scratch);
            ops::add_inplace(a.data(), x.data(), x.size());
            norm(a.data(), L, w.norm1_w, w.norm1_b, threads);
            mlp(w, a.data(), L, x.data(), threads, scratch);
            ops::add_inplace(x.data(), a.data(), x.size());
            norm(x.data(), L, w.norm2_w, w.norm2_b, threads);
        }
        if (hidden) {
            Tensor out({L, E}, x);
            if (i + 1 == config_.num_layers && !globals().final_norm_w.empty())
                norm(out.ptr(), L, globals().final_norm_w, globals().final_norm_b);
            sink.on_hidden_state(i + 1, out);
        }
        // Nothing after the last kept layer is handed over (the steps view's pass to one layer).
        if (!kept.empty() && next_kept == kept.size() && !hidden) break;
    }
}

std::size_t Transformer::estimate_forward_bytes(Index tokens,
                                                const ModelForwardOptions& options) const {
    const double L = double(tokens), E = double(config_.hidden_size);
    const double H = double(config_.num_heads), KV = double(config_.num_kv_heads);
    const double d = double(config_.head_dim), I = double(config_.intermediate_size);
    const AttentionScope& s = options.scope;
    const double kept_layers =
        s.layers.empty() ? double(config_.num_layers) : double(s.layers.size());
    const double heads = s.heads < 0 ? H : double(s.heads);
    const double rows = s.window_length < 0 ? L - double(s.window_begin) : double(s.window_length);
    double floats = kept_layers * (heads + 1.0) * rows * rows;               // kept maps and means
    floats += L * E * 4 + L * (H + 2 * KV) * d * 2 + L * H * d + L * I * 2;  // activations
    floats += double(std::max(1, options.num_threads)) * 64.0 * 1024.0;      // attention blocks
    if (options.steps_layer >= 0) floats += H * (5 * rows * L + 4 * L * d) + 2 * L * E + L * H * d;
    return static_cast<std::size_t>(floats * sizeof(float) + kept_layers * H * rows + (1 << 20));
}

std::size_t Transformer::weight_bytes() const {
    return static_cast<std::size_t>(store_.parameter_count()) * sizeof(float);
}

}  // namespace

std::unique_ptr<Model> load_model(const std::string& folder) {
    ModelConfig config = read_config(folder);
    io::WeightStore store = io::WeightStore::open_folder(folder);
    return std::make_unique<Transformer>(std::move(config), std::move(store), folder);
}

}  // namespace attnviz::models
