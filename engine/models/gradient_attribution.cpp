// Attribution patching and input saliency from Model::gradients (gradient_attribution.h).
#include "engine/models/gradient_attribution.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

namespace attnviz::models {

namespace {
using Index = std::int64_t;
}  // namespace

AttributionPatching attribution_patching(const Model& model, const PatchRequest& r,
                                         const GradientOptions& options) {
    const Index position = patch_position(model, r);
    const ModelInfo& info = model.info();
    const Index N = info.num_layers, H = info.num_heads, d = info.head_dim;
    const auto L = static_cast<Index>(r.clean.ids.size());
    // The clean run: its contexts and its metric.
    ModelForwardOptions o;
    o.attention = false;
    o.num_threads = options.num_threads;
    o.control = options.control;
    o.weight_cache_bytes = options.weight_cache_bytes;
    o.interventions = options.interventions;  // both runs of the same knocked-out model
    StreamSink clean(true);
    model.forward(r.clean, o, clean);
    const std::vector<Index> columns = {r.target, r.distractor};
    const Tensor z = model.logits(clean.residuals[static_cast<std::size_t>(N)], {position},
                                  options.num_threads, &columns);
    // The corrupted run, forwards and backwards.
    GradientMetric metric;
    metric.kind = GradientMetric::Kind::LogitDifference;
    metric.position = position;
    metric.target = r.target;
    metric.distractor = r.distractor;
    GradientOptions g = options;
    g.head_gradients = true;
    const Gradients corrupt = model.gradients(r.corrupt, metric, g);

    AttributionPatching out;
    out.position = position;
    out.m_clean = double(z.data[0]) - double(z.data[1]);
    out.m_corrupt = corrupt.metric;
    out.estimate = Tensor({N, H});
    out.fraction = Tensor({N, H});
    out.fraction_by_position = Tensor({N, H, L});
    const double span = out.m_clean - out.m_corrupt;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Index Z = H * d;
    for (Index l = 0; l < N; ++l) {
        const float* zc = clean.contexts[static_cast<std::size_t>(l)]->ptr();
        const float* zk = corrupt.contexts.ptr() + l * L * Z;
        const float* gk = corrupt.head_gradients.ptr() + l * L * Z;
        for (Index h = 0; h < H; ++h) {
            double sum = 0.0;
            for (Index t = 0; t < L; ++t) {
                double at = 0.0;  // (z_clean - z_corrupt) · ∂m/∂z at this position
                for (Index c = h * d; c < (h + 1) * d; ++c)
                    at += (double(zc[t * Z + c]) - double(zk[t * Z + c])) * double(gk[t * Z + c]);
                sum += at;
                out.fraction_by_position.data[static_cast<std::size_t>((l * H + h) * L + t)] =
                    static_cast<float>(span == 0.0 ? nan : at / span);
            }
            const auto at = static_cast<std::size_t>(l * H + h);
            out.estimate.data[at] = static_cast<float>(sum);
            out.fraction.data[at] = static_cast<float>(span == 0.0 ? nan : sum / span);
        }
    }
    return out;
}

PatchResult estimated_patch_result(const AttributionPatching& a) {
    PatchResult p;
    p.m_clean = a.m_clean;
    p.m_corrupt = a.m_corrupt;
    p.position = a.position;
    p.fraction = a.fraction;
    p.m_patched = a.estimate;
    for (float& v : p.m_patched.data)
        v = static_cast<float>(a.m_corrupt + double(v));
    return p;
}

namespace {
/// Each value's rank from 0, ties given the mean of the ranks they span.
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<std::pair<double, std::size_t>> sorted;
    sorted.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        sorted.emplace_back(v[i], i);
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> r(v.size());
    for (auto run = sorted.begin(); run != sorted.end();) {
        const double value = run->first;
        const auto end = std::find_if(run, sorted.end(),
                                      [value](const auto& entry) { return entry.first != value; });
        const double first = double(run - sorted.begin()), last = double(end - sorted.begin()) - 1;
        for (auto entry = run; entry != end; ++entry)
            r[entry->second] = 0.5 * (first + last);
        run = end;
    }
    return r;
}
}  // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size())
        throw std::invalid_argument("spearman: " + std::to_string(a.size()) + " values against " +
                                    std::to_string(b.size()));
    for (const std::vector<double>* v : {&a, &b})
        for (std::size_t i = 0; i < v->size(); ++i)
            if (std::isnan((*v)[i]))
                throw std::invalid_argument("spearman: value " + std::to_string(i) + " is NaN");
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    // Ranks have the mean (n - 1) / 2 with or without ties.
    const double mean = (double(a.size()) - 1.0) / 2.0;
    double ab = 0.0, aa = 0.0, bb = 0.0;
    for (std::size_t i = 0; i < ra.size(); ++i) {
        ab += (ra[i] - mean) * (rb[i] - mean);
        aa += (ra[i] - mean) * (ra[i] - mean);
        bb += (rb[i] - mean) * (rb[i] - mean);
    }
    if (aa == 0.0 || bb == 0.0) return std::numeric_limits<double>::quiet_NaN();
    return ab / std::sqrt(aa * bb);
}

namespace {
/// `interventions` with each mean knock-out turned into a patch from `contexts` ([layers,
/// tokens, heads·head_dim], a pass's, interventions applied): its mean held as a constant.
std::vector<HeadIntervention> held_means(const std::vector<HeadIntervention>& interventions,
                                         const Tensor& contexts) {
    std::vector<HeadIntervention> out = interventions;
    std::map<Index, std::shared_ptr<const Tensor>> layers;
    for (HeadIntervention& iv : out) {
        if (iv.kind != HeadIntervention::Kind::Mean) continue;
        std::shared_ptr<const Tensor>& layer = layers[iv.head.layer];
        if (!layer) {
            const Index L = contexts.dim(1), Z = contexts.dim(2);
            const float* from = contexts.ptr() + iv.head.layer * L * Z;
            layer =
                std::make_shared<const Tensor>(Shape{L, Z}, std::vector<float>(from, from + L * Z));
        }
        iv.kind = HeadIntervention::Kind::Patch;
        iv.source = layer;
    }
    return out;
}
}  // namespace

double Saliency::delta() const {
    double sum = 0.0;
    for (const double v : tokens)
        sum += v;
    return sum - (metric - baseline);
}

Saliency saliency(const Model& model, const ModelInput& input, const GradientMetric& metric,
                  Index steps, const GradientOptions& options) {
    if (steps < 0)
        throw std::invalid_argument("integrated gradients need at least one step, not " +
                                    std::to_string(steps));
    // One progress over every pass: pass k of `passes` reports its own layers.
    const Index passes = steps == 0 ? 1 : steps + 2;
    Index pass = 0;
    GradientOptions o = options;
    if (options.control.progress)
        o.control.progress = [&](Index done, Index total) {
            options.control.progress(pass * total + done, passes * total);
        };
    Saliency out;
    out.steps = steps;
    const bool mean_knocked = std::any_of(
        options.interventions.begin(), options.interventions.end(),
        [](const HeadIntervention& iv) { return iv.kind == HeadIntervention::Kind::Mean; });
    // The contexts at x hold the knocked-out heads' means that the path keeps.
    GradientOptions first = o;
    first.head_gradients = options.head_gradients || (steps > 0 && mean_knocked);
    Gradients at = model.gradients(input, metric, first);
    ++pass;
    out.metric = at.metric;
    // The token embeddings are what is attributed; the rest of x0 (learned positions, token
    // types) stays in the baseline, as Captum's LayerIntegratedGradients on the word embeddings.
    const Tensor token = model.embedding_rows(input.ids);
    const Tensor& x = at.embeddings;
    const auto L = static_cast<Index>(input.ids.size());
    const Index E = static_cast<Index>(x.numel()) / L;
    std::vector<double> mean(x.numel(), 0.0);  // ∂m/∂x0, or its mean along the path
    if (steps == 0) {
        for (std::size_t i = 0; i < mean.size(); ++i)
            mean[i] = at.embedding_gradients.data[i];
        out.baseline = std::numeric_limits<double>::quiet_NaN();
    } else {
        // The midpoint rule: α_k = (k + 1/2) / N along x' + α (x - x').
        GradientOptions path = o;
        path.head_gradients = false;
        path.interventions = held_means(options.interventions, at.contexts);
        Tensor scaled(x.shape);
        path.input_embeddings = &scaled;
        const auto along = [&](double alpha) {
            for (std::size_t i = 0; i < x.numel(); ++i)
                scaled.data[i] = static_cast<float>(double(x.data[i]) - double(token.data[i]) +
                                                    alpha * double(token.data[i]));
            return model.gradients(input, metric, path);
        };
        for (Index k = 0; k < steps; ++k, ++pass) {
            const Gradients g = along((double(k) + 0.5) / double(steps));
            for (std::size_t i = 0; i < mean.size(); ++i)
                mean[i] += double(g.embedding_gradients.data[i]) / double(steps);
        }
        out.baseline = along(0.0).metric;
    }
    out.tokens.assign(static_cast<std::size_t>(L), 0.0);
    for (Index t = 0; t < L; ++t)
        for (Index e = 0; e < E; ++e) {
            const auto i = static_cast<std::size_t>(t * E + e);
            out.tokens[static_cast<std::size_t>(t)] += double(token.data[i]) * mean[i];
        }
    if (options.head_gradients) out.gradients = std::move(at.head_gradients);
    out.embedding_gradients = std::move(at.embedding_gradients);
    return out;
}

std::size_t attribution_patching_bytes(const Model& model, Index tokens) {
    const ModelConfig& c = model.config();
    const auto L = static_cast<std::size_t>(tokens);
    const auto N = static_cast<std::size_t>(c.num_layers);
    const auto E = static_cast<std::size_t>(c.hidden_size);
    const auto Z = static_cast<std::size_t>(c.num_heads * c.head_dim);
    ModelForwardOptions clean;
    clean.attention = false;
    GradientMetric metric;
    metric.kind = GradientMetric::Kind::LogitDifference;
    // The clean run's streams and contexts are held through the corrupted run's gradients.
    const std::size_t held =
        ((N + 1) * L * E + N * L * Z + 2 * N * static_cast<std::size_t>(c.num_heads) * (L + 1)) *
        sizeof(float);
    return std::max(model.estimate_forward_bytes(tokens, clean),
                    gradient_bytes(c, tokens, metric, true)) +
           held;
}

std::size_t saliency_bytes(const Model& model, Index tokens, const GradientMetric& metric) {
    const ModelConfig& c = model.config();
    const auto n = static_cast<std::size_t>(tokens * c.hidden_size);
    // The gradients at x are held while each step's pass runs.
    return gradient_bytes(c, tokens, metric, true) + gradient_bytes(c, tokens, metric, false) +
           n * (2 * sizeof(float) + sizeof(double));
}

}  // namespace attnviz::models
