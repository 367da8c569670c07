// Residual decomposition and direct logit attribution (attribution.h).
#include "engine/models/attribution.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "engine/errors.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;

/// W_O^hᵀ · direction for every layer and query head, [layers][heads · head_dim]: what a head's
/// context (or a source token's value) is dotted with to give its share of a logit.
using HeadDirections = std::vector<std::vector<double>>;

/// How each head of a pass is knocked out, [layers][heads]: a head knocked out twice writes
/// nothing if either is Zero (the mean of zeros is zero).  Heads the model lacks are left for
/// forward() to refuse.
using KnockOuts = std::vector<std::vector<std::optional<HeadIntervention::Kind>>>;

KnockOuts knock_outs_of(const std::vector<HeadIntervention>& interventions, const ModelConfig& c) {
    KnockOuts out(
        static_cast<std::size_t>(c.num_layers),
        std::vector<std::optional<HeadIntervention::Kind>>(static_cast<std::size_t>(c.num_heads)));
    for (const HeadIntervention& iv : interventions) {
        const HeadRef& h = iv.head;
        if (h.layer < 0 || h.layer >= c.num_layers || h.head < 0 || h.head >= c.num_heads) continue;
        auto& kind = out[static_cast<std::size_t>(h.layer)][static_cast<std::size_t>(h.head)];
        if (kind != HeadIntervention::Kind::Zero) kind = iv.kind;
    }
    return out;
}

/// Rows `positions` of x [L, width], in that order: [P, width].
Tensor pick_rows(const Tensor& x, const std::vector<Index>& positions) {
    const Index width = x.dim(1);
    Tensor out({static_cast<Index>(positions.size()), width});
    for (std::size_t p = 0; p < positions.size(); ++p)
        std::copy_n(x.ptr() + positions[p] * width, width,
                    out.ptr() + static_cast<Index>(p) * width);
    return out;
}

/// What the components need of one pass, kept at a few positions only: the residual stream
/// before every layer and after the last and every layer's context, [P, ·] each.  For the split
/// by source (`through` set) also the positions' attention rows [P, heads, L] and each token's
/// value along each head's direction [L, heads], taken as the pass hands them over, and for a
/// mean-knocked head its attention's column means [L] (its output is their mix of the values).
/// Never [layers, L, hidden]: the largest is layers × L × heads floats.
class PositionSink : public AttentionSink {
  public:
    PositionSink(std::vector<Index> positions, const ModelConfig& c, Index tokens,
                 const HeadDirections* through, const KnockOuts* knocked = nullptr)
        : positions_(std::move(positions)),
          through_(through),
          knocked_(knocked),
          heads_(c.num_heads),
          kv_heads_(c.num_kv_heads),
          head_dim_(c.head_dim),
          tokens_(tokens) {
        const auto layers = static_cast<std::size_t>(c.num_layers);
        residuals.resize(layers + 1);
        contexts.resize(layers);
        if (through_) {
            along.resize(layers);
            rows.resize(layers);
            column_means.resize(layers);
        }
    }
    void on_layer(std::int64_t, AttentionResult&&) override {}
    bool wants_residuals() const override { return true; }
    void on_residual(std::int64_t layer, const Tensor& x) override {
        residuals[static_cast<std::size_t>(layer)] = pick(x);
    }
    bool wants_contexts() const override { return true; }
    void on_context(std::int64_t layer, const Tensor& c) override {
        contexts[static_cast<std::size_t>(layer)] = pick(c);
    }
    bool wants_values() const override { return through_ != nullptr; }
    void on_values(std::int64_t layer, const Tensor& v) override {
        // Query head h reads key/value head h / (heads / kv_heads) (grouped-query attention).
        const Index H = heads_, KV = kv_heads_, d = head_dim_, group = H / KV;
        const std::vector<double>& g = (*through_)[static_cast<std::size_t>(layer)];
        Tensor t({tokens_, H});
        for (Index j = 0; j < tokens_; ++j)
            for (Index h = 0; h < H; ++h) {
                const float* vj = v.ptr() + j * KV * d + (h / group) * d;
                double dot = 0.0;
                for (Index k = 0; k < d; ++k)
                    dot += vj[k] * g[static_cast<std::size_t>(h * d + k)];
                t.ptr()[j * H + h] = static_cast<float>(dot);
            }
        along[static_cast<std::size_t>(layer)] = std::move(t);
    }
    bool wants_rows() const override { return through_ != nullptr; }
    void begin_rows(std::int64_t layer, std::size_t slots) override {
        const Index P = static_cast<Index>(positions_.size());
        rows[static_cast<std::size_t>(layer)] = Tensor({P, heads_, tokens_});
        // One sum per slot: a slot's calls never overlap, a head's rows come from several.
        column_sums_.assign(means_in(layer) ? slots : 0,
                            std::vector<double>(static_cast<std::size_t>(heads_ * tokens_)));
    }
    void on_rows(std::int64_t layer, std::size_t slot, const RowBlock& b) override {
        Tensor& t = rows[static_cast<std::size_t>(layer)];
        const Index keys = std::min(b.keys, tokens_);
        for (std::size_t p = 0; p < positions_.size(); ++p) {
            const Index r = positions_[p];
            if (r < b.first_row || r >= b.first_row + b.rows) continue;
            // Blocks come from several threads, each (position, head) from one of them.
            std::copy_n(b.weights + (r - b.first_row) * b.keys, keys,
                        t.ptr() + (static_cast<Index>(p) * heads_ + b.head) * tokens_);
        }
        if (knocked(layer, b.head) != HeadIntervention::Kind::Mean) return;
        double* sums = column_sums_[slot].data() + b.head * tokens_;
        for (Index r = 0; r < b.rows; ++r)
            for (Index j = 0; j < keys; ++j)
                sums[j] += b.weights[r * b.keys + j];
    }
    void end_rows(std::int64_t layer) override {
        if (column_sums_.empty()) return;
        Tensor means({heads_, tokens_});
        for (std::size_t i = 0; i < means.numel(); ++i) {
            double s = 0.0;
            for (const std::vector<double>& slot : column_sums_)
                s += slot[i];
            means.data[i] = static_cast<float>(s / static_cast<double>(tokens_));
        }
        column_means[static_cast<std::size_t>(layer)] = std::move(means);
        column_sums_.clear();
    }
    /// How head (layer, head) is knocked out of the pass; nullopt: it is not.
    std::optional<HeadIntervention::Kind> knocked(Index layer, Index head) const {
        if (!knocked_) return std::nullopt;
        return (*knocked_)[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)];
    }

    std::vector<Tensor> residuals;  ///< [layers + 1] of [P, hidden]
    std::vector<Tensor> contexts;   ///< [layers] of [P, heads·head_dim]
    std::vector<Tensor> along;      ///< [layers] of [L, heads]: v_j · through[l][h]
    std::vector<Tensor> rows;       ///< [layers] of [P, heads, L]
    /// [layers] of [heads, L]: Σ_i α_ij / L, where the layer has a mean-knocked head.
    std::vector<Tensor> column_means;

  private:
    bool means_in(Index layer) const {
        for (Index h = 0; h < heads_; ++h)
            if (knocked(layer, h) == HeadIntervention::Kind::Mean) return true;
        return false;
    }
    Tensor pick(const Tensor& x) const { return pick_rows(x, positions_); }
    std::vector<Index> positions_;
    const HeadDirections* through_;
    const KnockOuts* knocked_;
    std::vector<std::vector<double>> column_sums_;  ///< [slots][heads · L] of the layer
    Index heads_, kv_heads_, head_dim_, tokens_;
};

void require_pre_norm(const Model& model) {
    if (!model.config().pre_norm())  // the model's, not the request's: a data error
        throw DataError(
            model.config().display_name() +
            " is a post-norm model: a norm sits between its blocks, so its residual stream is no "
            "sum of their outputs (decomposition and logit attribution need GPT-2, Llama or "
            "Qwen)");
}

void check_positions(const std::vector<Index>& positions, Index tokens) {
    if (positions.empty()) throw std::invalid_argument("no positions to decompose");
    for (const Index p : positions)
        if (p < 0 || p >= tokens)
            throw std::invalid_argument("position " + std::to_string(p + 1) +
                                        " is not one of the " + std::to_string(tokens) + " tokens");
}

void run_pass(const Model& model, const ModelInput& input, const AttributionOptions& options,
              PositionSink& sink) {
    ModelForwardOptions forward;
    forward.attention = false;
    forward.scope.rows_every_layer = sink.wants_rows();
    forward.num_threads = options.num_threads;
    forward.control = options.control;
    forward.weight_cache_bytes = options.weight_cache_bytes;
    forward.interventions = options.interventions;
    model.forward(input, forward, sink);
}

/// out[e] += Σ_c context[c] · o[e, h·d + c]: head h's output through its slice of W_O [E, H·d].
void add_head_output(const Tensor& o, const float* context, Index head, Index d, double* out) {
    const Index E = o.dim(0), Hd = o.dim(1);
    // Eight rows' sums side by side: each still adds its d products in order (the same numbers),
    // but eight chains of additions run at once instead of one waiting on the next.
    constexpr Index kRows = 8;
    Index first = 0;
    for (; first + kRows <= E; first += kRows) {
        double s[kRows] = {};
        const float* rows = o.ptr() + first * Hd + head * d;
        for (Index c = 0; c < d; ++c) {
            const auto x = static_cast<double>(context[head * d + c]);
            for (Index k = 0; k < kRows; ++k)
                s[k] += x * rows[k * Hd + c];
        }
        for (Index k = 0; k < kRows; ++k)
            out[first + k] += s[k];
    }
    for (Index e = first; e < E; ++e) {
        const float* row = o.ptr() + e * Hd + head * d;
        double s = 0.0;
        for (Index c = 0; c < d; ++c)
            s += static_cast<double>(context[head * d + c]) * row[c];
        out[e] += s;
    }
}

double dot(const std::vector<double>& a, const float* b) {
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += a[i] * b[i];
    return s;
}

}  // namespace

std::string StreamComponent::name() const {
    switch (kind) {
        case Kind::Embedding:
            return "embed";
        case Kind::Head:
            return "L" + std::to_string(layer + 1) + "H" + std::to_string(head + 1);
        case Kind::AttentionBias:
            return "L" + std::to_string(layer + 1) + ".attn_bias";
        case Kind::Mlp:
            return "L" + std::to_string(layer + 1) + ".mlp";
    }
    return {};
}

namespace {

void check_layer(const ModelConfig& c, Index layer) {
    if (layer < 0 || layer > c.num_layers)
        throw std::invalid_argument("layer " + std::to_string(layer + 1) + " is not one of the " +
                                    std::to_string(c.num_layers) + " layers (or " +
                                    std::to_string(c.num_layers + 1) + ", after the last)");
}

/// What decompose() reads of a pass at its positions, [P, ·] each: the residual stream before
/// layers 0..layer and the contexts of the layers below it.
struct KeptStream {
    const std::vector<Tensor>& residuals;
    const std::vector<Tensor>& contexts;
};

/// decompose()'s components from the stream kept at its positions.
Decomposition decompose_kept(const Model& model, std::int64_t layer,
                             const std::vector<std::int64_t>& positions, const KeptStream& s,
                             const AttributionOptions& options) {
    const ModelConfig& c = model.config();
    // Each layer's vectors [P, E] in double, in order; its weights read one layer at a time.
    const Index P = static_cast<Index>(positions.size()), E = c.hidden_size;
    const Index H = c.num_heads, d = c.head_dim;
    const auto size = static_cast<std::size_t>(P * E);
    Decomposition out;
    out.layer = layer;
    out.positions = positions;
    out.stream = s.residuals[static_cast<std::size_t>(layer)];
    std::vector<std::vector<double>> vectors;
    vectors.emplace_back(s.residuals[0].data.begin(), s.residuals[0].data.end());
    out.components.push_back({StreamComponent::Kind::Embedding, -1, -1});
    for (Index l = 0; l < layer; ++l) {
        const auto at = static_cast<std::size_t>(l);
        options.control.check();  // reading an 8B model's projections takes seconds
        const AttentionWeights w = model.attention_weights(l, AttentionParts::Output);
        // What the layer's attention added, so that the MLP is the rest of the layer's step.
        std::vector<double> attention(size, 0.0);
        for (Index h = 0; h < H; ++h) {
            std::vector<double> v(size, 0.0);
            for (Index p = 0; p < P; ++p)
                add_head_output(w.o, s.contexts[at].ptr() + p * H * d, h, d, v.data() + p * E);
            for (std::size_t i = 0; i < size; ++i)
                attention[i] += v[i];
            vectors.push_back(std::move(v));
            out.components.push_back({StreamComponent::Kind::Head, l, h});
        }
        if (!w.o_bias.empty()) {
            std::vector<double> v(size);
            for (std::size_t i = 0; i < size; ++i)
                v[i] = w.o_bias.data[i % static_cast<std::size_t>(E)];
            for (std::size_t i = 0; i < size; ++i)
                attention[i] += v[i];
            vectors.push_back(std::move(v));
            out.components.push_back({StreamComponent::Kind::AttentionBias, l, -1});
        }
        if (c.intermediate_size > 0) {
            // x_{l+1} - x_l - attention: what the MLP added.
            const float* next = s.residuals[at + 1].ptr();
            const float* here = s.residuals[at].ptr();
            std::vector<double> v(size);
            for (std::size_t i = 0; i < size; ++i)
                v[i] = static_cast<double>(next[i]) - here[i] - attention[i];
            vectors.push_back(std::move(v));
            out.components.push_back({StreamComponent::Kind::Mlp, l, -1});
        }
    }
    const Index C = static_cast<Index>(out.components.size());
    out.parts = Tensor({P, C, E});
    for (Index k = 0; k < C; ++k)
        for (Index p = 0; p < P; ++p)
            for (Index e = 0; e < E; ++e)
                out.parts.ptr()[(p * C + k) * E + e] =
                    static_cast<float>(vectors[static_cast<std::size_t>(k)][p * E + e]);
    return out;
}

}  // namespace

Decomposition decompose(const Model& model, const ModelInput& input, std::int64_t layer,
                        const std::vector<std::int64_t>& positions,
                        const AttributionOptions& options) {
    require_pre_norm(model);
    const ModelConfig& c = model.config();
    check_layer(c, layer);
    check_positions(positions, static_cast<Index>(input.ids.size()));
    PositionSink s(positions, c, static_cast<Index>(input.ids.size()), nullptr);
    run_pass(model, input, options, s);
    return decompose_kept(model, layer, positions, {s.residuals, s.contexts}, options);
}

std::size_t stream_record_bytes(const ModelConfig& c, std::int64_t tokens) {
    const Index per_token =
        (c.num_layers + 1) * c.hidden_size + c.num_layers * c.num_heads * c.head_dim;
    return sizeof(float) * static_cast<std::size_t>(std::max<Index>(tokens, 0) * per_token);
}

StreamRecord record_stream(const Model& model, const ModelInput& input,
                           const AttributionOptions& options) {
    require_pre_norm(model);
    const auto L = static_cast<Index>(input.ids.size());
    std::vector<Index> every(static_cast<std::size_t>(L));
    for (Index p = 0; p < L; ++p)
        every[static_cast<std::size_t>(p)] = p;
    check_positions(every, L);
    PositionSink s(std::move(every), model.config(), L, nullptr);
    run_pass(model, input, options, s);
    return {std::move(s.residuals), std::move(s.contexts)};
}

Decomposition decompose(const Model& model, const StreamRecord& record, std::int64_t layer,
                        const std::vector<std::int64_t>& positions,
                        const AttributionOptions& options) {
    require_pre_norm(model);
    const ModelConfig& c = model.config();
    check_layer(c, layer);
    const auto width = [](const std::vector<Tensor>& t) {
        return t.empty() ? 0 : t.front().dim(1);
    };
    if (record.residuals.size() != static_cast<std::size_t>(c.num_layers + 1) ||
        record.contexts.size() != static_cast<std::size_t>(c.num_layers) ||
        width(record.residuals) != c.hidden_size ||
        (c.num_layers > 0 && width(record.contexts) != c.num_heads * c.head_dim))
        throw std::invalid_argument(
            "the record holds " + std::to_string(record.contexts.size()) + " layers of width " +
            std::to_string(width(record.residuals)) + " but " + c.display_name() + " has " +
            std::to_string(c.num_layers) + " of width " + std::to_string(c.hidden_size));
    check_positions(positions, record.tokens());
    // As a pass's PositionSink keeps them: the record's rows at the positions.
    std::vector<Tensor> residuals, contexts;
    for (Index l = 0; l <= layer; ++l)
        residuals.push_back(pick_rows(record.residuals[static_cast<std::size_t>(l)], positions));
    for (Index l = 0; l < layer; ++l)
        contexts.push_back(pick_rows(record.contexts[static_cast<std::size_t>(l)], positions));
    return decompose_kept(model, layer, positions, {residuals, contexts}, options);
}

LogitAttribution attribute_logit(const Model& model, const ModelInput& input,
                                 const LogitTarget& what, const AttributionOptions& options) {
    // No head, no logit: said first, as predict says it.
    if (model.lm_head() == LmHeadKind::None) throw DataError(model.lm_head_missing());
    require_pre_norm(model);
    if (model.lm_head() != LmHeadKind::Causal)
        throw std::invalid_argument("logit attribution needs a causal language-model head");
    const ModelConfig& c = model.config();
    const Index L = static_cast<Index>(input.ids.size());
    check_positions({what.position}, L);
    const Index V = c.vocab_size;
    for (const Index id : {what.target, what.distractor.value_or(0)})
        if (id < 0 || id >= V)
            throw std::invalid_argument("token id " + std::to_string(id) +
                                        " is outside the vocabulary of " + std::to_string(V));
    for (const HeadIntervention& iv : options.interventions)
        if (iv.kind == HeadIntervention::Kind::Patch)
            throw std::invalid_argument(
                "logit attribution takes knocked-out heads (zero, mean), not patched ones");

    const Index N = c.num_layers, H = c.num_heads, E = c.hidden_size, d = c.head_dim;
    // The unembedding direction u (the target's row, minus the distractor's) through the
    // frozen final norm (TransformerLens's apply_ln_to_stack): a component c adds
    // scale · (u ⊙ w − mean(u ⊙ w)) · c for LayerNorm, which subtracts the mean, and
    // scale · (u ⊙ w) · c for RMSNorm; the norm's bias adds u · b once.
    std::vector<Index> ids{what.target};
    if (what.distractor) ids.push_back(*what.distractor);
    const Readout r = model.readout(ids);
    std::vector<double> u(static_cast<std::size_t>(E)), direction(u.size());
    double direction_mean = 0.0;
    for (Index e = 0; e < E; ++e) {
        u[e] = r.unembed.ptr()[e] - (what.distractor ? r.unembed.ptr()[E + e] : 0.0);
        direction[e] = u[e] * r.norm_weight.ptr()[e];
        direction_mean += direction[e] / static_cast<double>(E);
    }
    if (!r.rms)
        for (double& v : direction)
            v -= direction_mean;

    // The direction does not depend on the pass: each head's W_O^hᵀ · direction and each
    // attention bias's share (before the scale) come first, one layer's weights at a time, so
    // the pass can project the values as it hands them over.
    LogitAttribution out;
    out.what = what;
    out.attention_bias.assign(static_cast<std::size_t>(N),
                              std::numeric_limits<double>::quiet_NaN());
    out.mlps = out.attention_bias;
    HeadDirections through(static_cast<std::size_t>(N));
    for (Index l = 0; l < N; ++l) {
        options.control.check();
        const AttentionWeights w = model.attention_weights(l, AttentionParts::Output);
        std::vector<double>& g = through[static_cast<std::size_t>(l)];
        g.assign(static_cast<std::size_t>(H * d), 0.0);
        for (Index e = 0; e < E; ++e) {
            const float* o = w.o.ptr() + e * H * d;
            for (Index k = 0; k < H * d; ++k)
                g[static_cast<std::size_t>(k)] += direction[e] * o[k];
        }
        if (!w.o_bias.empty())
            out.attention_bias[static_cast<std::size_t>(l)] = dot(direction, w.o_bias.ptr());
    }

    const KnockOuts knocked = knock_outs_of(options.interventions, c);
    PositionSink s({what.position}, c, L, &through, &knocked);
    run_pass(model, input, options, s);

    // The final norm's scale at the position, frozen: 1/σ (LayerNorm) or 1/rms (RMSNorm).
    const float* x = s.residuals[static_cast<std::size_t>(N)].ptr();
    double mean = 0.0;
    if (!r.rms)
        for (Index e = 0; e < E; ++e)
            mean += x[e] / static_cast<double>(E);
    double var = 0.0;
    for (Index e = 0; e < E; ++e)
        var += (x[e] - mean) * (x[e] - mean) / static_cast<double>(E);
    const double scale = 1.0 / std::sqrt(var + r.norm_eps);
    out.norm_scale = scale;
    if (!r.norm_bias.empty())
        for (Index e = 0; e < E; ++e)
            out.constant += u[e] * r.norm_bias.ptr()[e];
    // The logit itself, u · norm(x) in double: the parts must add up to it.
    double total = out.constant;
    for (Index e = 0; e < E; ++e)
        total += u[e] * r.norm_weight.ptr()[e] * (x[e] - mean) * scale;
    out.total = total;

    // A head's share is scale · (W_O^hᵀ · direction) · context_h; the MLP's what the layer's
    // step along the direction leaves after its attention.
    out.embeddings = scale * dot(direction, s.residuals[0].ptr());
    out.heads = Tensor({N, H});
    out.by_source = Tensor({N, H, L});
    for (Index l = 0; l < N; ++l) {
        const auto at = static_cast<std::size_t>(l);
        const std::vector<double>& g = through[at];
        double attention = 0.0;
        for (Index h = 0; h < H; ++h) {
            const float* context = s.contexts[at].ptr() + h * d;
            double share = 0.0;
            for (Index k = 0; k < d; ++k)
                share += g[static_cast<std::size_t>(h * d + k)] * context[k];
            out.heads.ptr()[l * H + h] = static_cast<float>(share * scale);
            attention += share * scale;
            // By source: head h's output is Σ_j α_pj v_j through W_O^h, so token j's share is
            // α_pj · (v_j · W_O^hᵀ direction) · scale; mean-knocked, the mean over the
            // positions i of Σ_j α_ij v_j, so α_pj becomes the column's mean; zero-knocked,
            // nothing (its share is an exact 0 already: its context is).
            const std::optional<HeadIntervention::Kind> how = s.knocked(l, h);
            float* row = out.by_source.ptr() + (l * H + h) * L;
            if (how == HeadIntervention::Kind::Zero) {
                std::fill_n(row, L, 0.0f);
                continue;
            }
            const float* alpha = how == HeadIntervention::Kind::Mean
                                     ? s.column_means[at].ptr() + h * L
                                     : s.rows[at].ptr() + h * L;
            const float* along = s.along[at].ptr() + h;
            for (Index j = 0; j < L; ++j)
                row[j] = static_cast<float>(alpha[j] * along[j * H] * scale);
        }
        double& bias = out.attention_bias[at];
        if (!std::isnan(bias)) {
            bias *= scale;
            attention += bias;
        }
        if (c.intermediate_size > 0)
            out.mlps[at] = scale * (dot(direction, s.residuals[at + 1].ptr()) -
                                    dot(direction, s.residuals[at].ptr())) -
                           attention;
    }
    return out;
}

}  // namespace attnviz::models
