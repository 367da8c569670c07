#include "engine/models/token_trace.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnviz::models {

namespace {

using Index = std::int64_t;

/// Keeps the vectors of the traced token in the order they come.
class TraceSink : public AttentionSink {
  public:
    explicit TraceSink(TokenTrace& out) : out_(out) {}
    void on_layer(Index, AttentionResult&&) override {}
    void on_trace(Index layer, TraceStep step, const float* values, Index rows,
                  Index cols) override {
        if (step == TraceStep::Logits) {
            out_.logits.assign(values, values + rows * cols);
            return;
        }
        out_.vectors.push_back(
            TraceVector{step, layer, rows, cols, std::vector<float>(values, values + rows * cols)});
    }

  private:
    TokenTrace& out_;
};

}  // namespace

const char* trace_step_name(TraceStep step) {
    switch (step) {
        case TraceStep::TokenEmbedding:
            return "token_embedding";
        case TraceStep::PositionEmbedding:
            return "position_embedding";
        case TraceStep::TokenTypeEmbedding:
            return "token_type_embedding";
        case TraceStep::EmbeddingSum:
            return "embedding_sum";
        case TraceStep::Embedding:
            return "embedding";
        case TraceStep::AttentionNorm:
            return "attention_norm";
        case TraceStep::Query:
            return "query";
        case TraceStep::Key:
            return "key";
        case TraceStep::Value:
            return "value";
        case TraceStep::QueryRotated:
            return "query_rotated";
        case TraceStep::KeyRotated:
            return "key_rotated";
        case TraceStep::Attention:
            return "attention";
        case TraceStep::Context:
            return "context";
        case TraceStep::AttentionOutput:
            return "attention_output";
        case TraceStep::AttentionResidual:
            return "attention_residual";
        case TraceStep::AttentionResidualNorm:
            return "attention_residual_norm";
        case TraceStep::MlpNorm:
            return "mlp_norm";
        case TraceStep::Gate:
            return "gate";
        case TraceStep::Up:
            return "up";
        case TraceStep::Activation:
            return "activation";
        case TraceStep::MlpOutput:
            return "mlp_output";
        case TraceStep::MlpResidual:
            return "mlp_residual";
        case TraceStep::MlpResidualNorm:
            return "mlp_residual_norm";
        case TraceStep::FinalNorm:
            return "final_norm";
        case TraceStep::HeadTransform:
            return "head_transform";
        case TraceStep::HeadActivation:
            return "head_activation";
        case TraceStep::HeadNorm:
            return "head_norm";
        case TraceStep::Logits:
            return "logits";
    }
    return "?";
}

const TraceVector* TokenTrace::find(Index layer, TraceStep step) const {
    for (const TraceVector& v : vectors)
        if (v.layer == layer && v.step == step) return &v;
    return nullptr;
}

TokenTrace trace_token(const Model& model, const ModelInput& input, Index position,
                       const std::vector<HeadIntervention>& interventions, int threads,
                       const PassControl& control) {
    const auto L = static_cast<Index>(input.ids.size());
    if (position < 0 || position >= L)
        throw std::invalid_argument("token " + std::to_string(position + 1) +
                                    " is not one of the " + std::to_string(L) + " tokens");
    TokenTrace out;
    out.position = position;
    out.id = input.ids[static_cast<std::size_t>(position)];
    out.layers = model.info().num_layers;
    out.head = model.lm_head();
    ModelForwardOptions options;
    options.attention = false;  // no maps: the traced rows come from the pass itself
    options.trace_position = position;
    options.interventions = interventions;
    options.num_threads = std::max(1, threads);
    options.control = control;
    TraceSink sink(out);
    model.forward(input, options, sink);
    return out;
}

SamplingDistribution sampling_distribution(const float* logits, Index vocab,
                                           const SamplingOptions& o) {
    if (vocab <= 0) throw std::invalid_argument("there are no logits to sample from");
    SamplingDistribution out;
    if (o.temperature <= 0.0) {  // greedy: the argmax, the lowest id on a tie
        out.ids = {static_cast<Index>(std::max_element(logits, logits + vocab) - logits)};
        out.weights = {1.0};
        out.total = 1.0;
        return out;
    }
    // (logit, id) side by side: sorting them is several times faster than sorting ids by an
    // indirect key, which matters at a 150,000-token vocabulary under a dragged slider.
    std::vector<std::pair<float, Index>> sorted(static_cast<std::size_t>(vocab));
    for (Index i = 0; i < vocab; ++i)
        sorted[static_cast<std::size_t>(i)] = {logits[i], i};
    const auto by_logit = [](const std::pair<float, Index>& a, const std::pair<float, Index>& b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
    };
    const Index keep = o.top_k > 0 ? std::min(o.top_k, vocab) : vocab;
    if (keep < vocab) {
        std::nth_element(sorted.begin(), sorted.begin() + keep, sorted.end(), by_logit);
        sorted.resize(static_cast<std::size_t>(keep));
    }
    std::sort(sorted.begin(), sorted.end(), by_logit);
    std::vector<Index> order(sorted.size());
    for (std::size_t i = 0; i < sorted.size(); ++i)
        order[i] = sorted[i].second;
    const double top = sorted[0].first;
    std::vector<double> p(order.size());
    double sum = 0.0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        p[i] = std::exp((sorted[i].first - top) / o.temperature);
        sum += p[i];
    }
    if (o.top_p < 1.0) {  // the smallest prefix whose probability reaches top_p
        double mass = 0.0;
        std::size_t n = 0;
        while (n < p.size() && mass < o.top_p * sum)
            mass += p[n++];
        n = std::max<std::size_t>(n, 1);
        p.resize(n);
        order.resize(n);
        sum = mass > 0.0 ? mass : p[0];
    }
    out.ids = std::move(order);
    out.weights = std::move(p);
    out.total = sum;
    return out;
}

Index SamplingDistribution::draw(double u) const {
    const double target = u * total;
    double acc = 0.0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        acc += weights[i];
        if (target < acc) return ids[i];
    }
    return ids.back();
}

Index sample_next(const float* logits, Index vocab, const SamplingOptions& options,
                  std::uint64_t seed) {
    const SamplingDistribution d = sampling_distribution(logits, vocab, options);
    if (options.temperature <= 0.0) return d.ids[0];
    SampleGenerator random(seed);
    return d.draw(random.uniform());
}

double SampleGenerator::uniform() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
}

}  // namespace attnviz::models
