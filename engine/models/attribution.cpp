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

/// What the components need of one pass, kept at a few positions only: the residual stream
/// before every layer and after the last and every layer's context, [P, ·] each.  For the split
/// by source (`through` set) also the positions' attention rows [P, heads, L] and each token's
/// value along each head's direction [L, heads], taken as the pass hands them over.  Never
/// [layers, L, hidden]: the largest is layers × L × heads floats.
class PositionSink : public AttentionSink {
  public:
    PositionSink(std::vector<Index> positions, const ModelConfig& c, Index tokens,
                 const HeadDirections* through)
        : positions_(std::move(positions)),
          through_(through),
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
    void begin_rows(std::int64_t layer, std::size_t) override {
        const Index P = static_cast<Index>(positions_.size());
        rows[static_cast<std::size_t>(layer)] = Tensor({P, heads_, tokens_});
    }
    void on_rows(std::int64_t layer, std::size_t, const RowBlock& b) override {
        Tensor& t = rows[static_cast<std::size_t>(layer)];
        for (std::size_t p = 0; p < positions_.size(); ++p) {
            const Index r = positions_[p];
            if (r < b.first_row || r >= b.first_row + b.rows) continue;
            // Blocks come from several threads, each (position, head) from one of them.
            std::copy_n(b.weights + (r - b.first_row) * b.keys, std::min(b.keys, tokens_),
                        t.ptr() + (static_cast<Index>(p) * heads_ + b.head) * tokens_);
        }
    }

    std::vector<Tensor> residuals;  ///< [layers + 1] of [P, hidden]
    std::vector<Tensor> contexts;   ///< [layers] of [P, heads·head_dim]
    std::vector<Tensor> along;      ///< [layers] of [L, heads]: v_j · through[l][h]
    std::vector<Tensor> rows;       ///< [layers] of [P, heads, L]

  private:
    Tensor pick(const Tensor& x) const {
        const Index width = x.dim(1);
        Tensor out({static_cast<Index>(positions_.size()), width});
        for (std::size_t p = 0; p < positions_.size(); ++p)
            std::copy_n(x.ptr() + positions_[p] * width, width,
                        out.ptr() + static_cast<Index>(p) * width);
        return out;
    }
    std::vector<Index> positions_;
    const HeadDirections* through_;
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
    model.forward(input, forward, sink);
}

/// out[e] += Σ_c context[c] · o[e, h·d + c]: head h's output through its slice of W_O [E, H·d].
void add_head_output(const Tensor& o, const float* context, Index head, Index d, double* out) {
    const Index E = o.dim(0), Hd = o.dim(1);
    for (Index e = 0; e < E; ++e) {
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

Decomposition decompose(const Model& model, const ModelInput& input, std::int64_t layer,
                        const std::vector<std::int64_t>& positions,
                        const AttributionOptions& options) {
    require_pre_norm(model);
    const ModelConfig& c = model.config();
    if (layer < 0 || layer > c.num_layers)
        throw std::invalid_argument("layer " + std::to_string(layer + 1) + " is not one of the " +
                                    std::to_string(c.num_layers) + " layers (or " +
                                    std::to_string(c.num_layers + 1) + ", after the last)");
    check_positions(positions, static_cast<Index>(input.ids.size()));
    PositionSink s(positions, c, static_cast<Index>(input.ids.size()), nullptr);
    run_pass(model, input, options, s);

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

    PositionSink s({what.position}, c, L, &through);
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
            // α_pj · (v_j · W_O^hᵀ direction) · scale.
            const float* alpha = s.rows[at].ptr() + h * L;
            const float* along = s.along[at].ptr() + h;
            for (Index j = 0; j < L; ++j)
                out.by_source.ptr()[(l * H + h) * L + j] =
                    static_cast<float>(alpha[j] * along[j * H] * scale);
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
