// QK attribution (qk_attribution.h).
#include "engine/models/qk_attribution.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/ops/nn.h"
#include "engine/ops/parallel.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;

/// 1 / sqrt(mean((x - m)²) + eps), with m = mean(x) for a LayerNorm (`centred`) and 0 for an
/// RMSNorm: the scale a norm multiplies its input by.
template <class T>
double inverse_norm(const T* x, Index n, bool centred, double eps) {
    double mean = 0.0;
    if (centred) {
        for (Index e = 0; e < n; ++e)
            mean += x[e];
        mean /= static_cast<double>(n);
    }
    double var = 0.0;
    for (Index e = 0; e < n; ++e)
        var += (x[e] - mean) * (x[e] - mean);
    return 1.0 / std::sqrt(var / static_cast<double>(n) + eps);
}

/// One side of the score (q at the query or k at the key), for one head.
struct SideInput {
    const Tensor* projection = nullptr;  ///< w.q or w.k, [heads·d, hidden]
    const Tensor* bias = nullptr;        ///< its bias, or empty
    const Tensor* head_norm = nullptr;   ///< w.q_norm or w.k_norm, or empty
    Index first_row = 0;                 ///< the head's rows: [first_row, first_row + d)
};

/// The side's vectors, each [d] as the score reads it (rotated): one per component of the
/// decomposition, then the constant where the side has one, then the full stream's as the
/// model computes it.
struct Side {
    std::vector<float> rows;  ///< [terms + 1, d]
    Index terms = 0;
    bool constant = false;
    const float* term(Index t, Index d) const { return rows.data() + t * d; }
    const float* full(Index d) const { return rows.data() + terms * d; }
};

Side project_side(const Decomposition& dec, Index p, const AttentionWeights& w, const SideInput& in,
                  const Model& model, int threads) {
    const ModelConfig& c = model.config();
    const Index E = c.hidden_size, d = c.head_dim;
    const Index C = static_cast<Index>(dec.components.size());
    const bool rms = c.family == Family::Llama;
    const float* x = dec.stream.ptr() + p * E;
    const double norm_scale = inverse_norm(x, E, !rms, c.norm_eps);

    // The head's rows of the projection with the frozen norm folded in (TransformerLens's
    // fold_ln): F = W diag(γ) · scale, each row centred for a LayerNorm (its mean subtraction is
    // linear), so F c is a component's share of the projection's input.
    std::vector<double> folded(static_cast<std::size_t>(d * E));
    for (Index r = 0; r < d; ++r) {
        const float* row = in.projection->ptr() + (in.first_row + r) * E;
        double* f = folded.data() + r * E;
        double mean = 0.0;
        for (Index e = 0; e < E; ++e) {
            f[e] = static_cast<double>(row[e]) * w.norm_weight.ptr()[e] * norm_scale;
            mean += f[e];
        }
        if (!rms)
            for (Index e = 0; e < E; ++e)
                f[e] -= mean / static_cast<double>(E);
    }
    // F transposed, [E, d]: each of the d sums still adds its E products in order (the same
    // numbers), but side by side, vectorised, instead of one chain of additions after another.
    std::vector<double> across(folded.size());
    for (Index r = 0; r < d; ++r)
        for (Index e = 0; e < E; ++e)
            across[static_cast<std::size_t>(e * d + r)] =
                folded[static_cast<std::size_t>(r * E + e)];
    const auto project = [&](const float* v, double* out) {
        std::fill(out, out + d, 0.0);
        for (Index e = 0; e < E; ++e) {
            const double ve = v[e];
            const double* f = across.data() + e * d;
            for (Index r = 0; r < d; ++r)
                out[r] += f[r] * ve;
        }
    };

    Side side;
    side.constant = !w.norm_bias.empty() || !in.bias->empty();
    side.terms = C + (side.constant ? 1 : 0);
    const Index T = side.terms;
    std::vector<double> rows(static_cast<std::size_t>((T + 1) * d), 0.0);
    double* full = rows.data() + T * d;
    ops::parallel_for(static_cast<std::size_t>(C), threads, [&](std::size_t k0, std::size_t k1) {
        for (auto k = static_cast<Index>(k0); k < static_cast<Index>(k1); ++k)
            project(dec.parts.ptr() + (p * C + k) * E, rows.data() + k * d);
    });
    project(x, full);
    if (side.constant) {
        // W β + b: what the side reads whatever the stream holds.
        double* constant = rows.data() + C * d;
        for (Index r = 0; r < d; ++r) {
            double s = in.bias->empty() ? 0.0 : in.bias->ptr()[in.first_row + r];
            if (!w.norm_bias.empty()) {
                const float* row = in.projection->ptr() + (in.first_row + r) * E;
                for (Index e = 0; e < E; ++e)
                    s += static_cast<double>(row[e]) * w.norm_bias.ptr()[e];
            }
            constant[r] = s;
            full[r] += s;
        }
    }
    // Qwen3's per-head RMSNorm, its scale frozen at the full vector's.
    if (!in.head_norm->empty()) {
        const double scale = inverse_norm(full, d, false, c.norm_eps);
        for (Index t = 0; t <= T; ++t)
            for (Index r = 0; r < d; ++r)
                rows[static_cast<std::size_t>(t * d + r)] *= in.head_norm->ptr()[r] * scale;
    }
    side.rows.assign(rows.begin(), rows.end());
    if (c.rotary()) {
        const Index position = dec.positions[static_cast<std::size_t>(p)];
        ops::apply_rotary(side.rows.data(), T + 1, 1, d, d,
                          std::vector<Index>(static_cast<std::size_t>(T + 1), position),
                          model.rotary_inv_freq());
    }
    return side;
}

std::vector<QkTerm> terms_of(const Decomposition& dec, bool constant) {
    std::vector<QkTerm> out;
    for (const StreamComponent& c : dec.components)
        out.push_back({c, false});
    if (constant) out.push_back({{}, true});
    return out;
}

void check_request(const ModelConfig& c, const ModelInfo& info, HeadRef head, Index query,
                   Index key, Index tokens) {
    if (head.layer < 0 || head.layer >= c.num_layers || head.head < 0 || head.head >= c.num_heads)
        throw std::invalid_argument(
            "head " + std::to_string(head.layer + 1) + "." + std::to_string(head.head + 1) +
            " does not exist: " + info.display_name + " has layers 1-" +
            std::to_string(c.num_layers) + " of heads 1-" + std::to_string(c.num_heads));
    for (const auto& [p, what] : {std::pair{query, "query"}, std::pair{key, "key"}})
        if (p < 0 || p >= tokens)
            throw std::invalid_argument(std::string(what) + " position " + std::to_string(p + 1) +
                                        " is not one of the " + std::to_string(tokens) + " tokens");
    if (c.causal() && key > query)
        throw std::invalid_argument("key " + std::to_string(key + 1) + " comes after query " +
                                    std::to_string(query + 1) +
                                    ": the causal mask hides it, so the head gives it no score");
}

/// The pairs of head `head` between the decomposition's two positions (query, key).
QkAttribution attribute_decomposed(const Model& model, const Decomposition& dec, HeadRef head,
                                   const AttributionOptions& options) {
    const ModelConfig& c = model.config();
    const Index query = dec.positions[0], key = dec.positions[1];
    const AttentionWeights w = model.attention_weights(head.layer);
    const Index d = c.head_dim, kv_head = head.head / (c.num_heads / c.num_kv_heads);
    const Side q = project_side(dec, 0, w, {&w.q, &w.q_bias, &w.q_norm, head.head * d}, model,
                                options.num_threads);
    const Side k = project_side(dec, 1, w, {&w.k, &w.k_bias, &w.k_norm, kv_head * d}, model,
                                options.num_threads);

    QkAttribution out;
    out.head = head;
    out.query = query;
    out.key = key;
    out.scale = w.score_scale;
    out.queries = terms_of(dec, q.constant);
    out.keys = terms_of(dec, k.constant);
    const auto dot = [&](const float* a, const float* b) {
        double s = 0.0;
        for (Index r = 0; r < d; ++r)
            s += static_cast<double>(a[r]) * b[r];
        return out.scale * s;
    };
    out.score = dot(q.full(d), k.full(d));
    out.pairs.resize(static_cast<std::size_t>(q.terms * k.terms));
    for (Index a = 0; a < q.terms; ++a)
        for (Index b = 0; b < k.terms; ++b)
            out.pairs[static_cast<std::size_t>(a * k.terms + b)] = dot(q.term(a, d), k.term(b, d));
    return out;
}

}  // namespace

QkAttribution attribute_qk(const Model& model, const ModelInput& input, HeadRef head,
                           std::int64_t query, std::int64_t key,
                           const AttributionOptions& options) {
    check_request(model.config(), model.info(), head, query, key,
                  static_cast<Index>(input.ids.size()));
    return attribute_decomposed(model, decompose(model, input, head.layer, {query, key}, options),
                                head, options);
}

QkAttribution attribute_qk(const Model& model, const StreamRecord& record, HeadRef head,
                           std::int64_t query, std::int64_t key,
                           const AttributionOptions& options) {
    check_request(model.config(), model.info(), head, query, key, record.tokens());
    return attribute_decomposed(model, decompose(model, record, head.layer, {query, key}, options),
                                head, options);
}

}  // namespace attnviz::models
