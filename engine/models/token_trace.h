// The whole forward pass at one token, as a teacher walks through it: the embeddings, every
// layer's norm, Q, K and V, attention row, context, output projection, residual adds and MLP
// (gate, up, activation, down), then the final norm and the logits.  Every vector is the one
// the engine's own pass computed (the forward pass hands it over as it goes: nothing is
// recomputed), so the numbers a class sees are the numbers of the maps and the predictions.
// And the sampling of the next token from those logits: temperature, top-k, top-p and a
// seeded draw, the same code generate() samples with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/models/model.h"
#include "engine/pass_control.h"
#include "engine/tensor.h"

namespace attnviz::models {

/// The name of a step for files and tests: "token_embedding", "attention_norm", "gate", ...
const char* trace_step_name(TraceStep step);

struct TraceVector {
    TraceStep step = TraceStep::Embedding;
    /// The layer (from 0) the vector belongs to; -1: the embeddings; the model's layer count:
    /// the head after the last layer (final norm, logits).
    std::int64_t layer = -1;
    /// [rows, cols], row-major: 1 × width for a vector; heads × head_dim for Q, K, V and the
    /// context; heads × keys for the attention row (each head's weights over every key, zero
    /// past the token in a causal model).
    std::int64_t rows = 1, cols = 0;
    std::vector<float> values;
};

struct TokenTrace {
    std::int64_t position = 0;  ///< the traced token, from 0
    std::int64_t id = 0;        ///< its id
    std::int64_t layers = 0;
    LmHeadKind head = LmHeadKind::None;
    std::vector<TraceVector> vectors;  ///< in the order of the pass
    /// [vocab]: the logits at the token (Model::logits of the final residual), empty when the
    /// model has no language-model head.  Causal: the next token; masked: the token there.
    std::vector<float> logits;

    /// The vector of `step` in `layer`, or null.
    const TraceVector* find(std::int64_t layer, TraceStep step) const;
};

/// Runs one forward pass of `input` and keeps every vector at `position`.  Throws as
/// Model::forward does, and std::invalid_argument for a position outside the input.
/// With `interventions`, the pass of a model with those heads knocked out.
TokenTrace trace_token(const Model& model, const ModelInput& input, std::int64_t position,
                       const std::vector<HeadIntervention>& interventions = {}, int threads = 1,
                       const PassControl& control = {});

/// How the next token is chosen from logits: temperature 0 is greedy (the highest logit,
/// the lowest id on a tie); otherwise softmax(logits / temperature), then the top_k most likely
/// (0: all), then the smallest prefix of them whose probability reaches top_p.
struct SamplingOptions {
    double temperature = 1.0;
    std::int64_t top_k = 0;
    double top_p = 1.0;
};

/// The candidates the options leave, most likely first, with their probabilities after
/// temperature, top-k and top-p (renormalised over the candidates: they sum to 1).
struct SamplingDistribution {
    std::vector<std::int64_t> ids;
    std::vector<double> weights;  ///< exp((logit - max) / temperature), unnormalised
    double total = 0.0;           ///< sum of weights
    double probability(std::size_t i) const { return weights[i] / total; }
    /// The candidate a uniform u in [0, 1) picks: the first whose cumulative weight passes
    /// u · total.
    std::int64_t draw(double u) const;
};
SamplingDistribution sampling_distribution(const float* logits, std::int64_t vocab,
                                           const SamplingOptions& options);

/// One draw of the next token from `logits` as the whole-model view makes it: the argmax at
/// temperature 0, else the candidate SampleGenerator(seed)'s first uniform picks.
std::int64_t sample_next(const float* logits, std::int64_t vocab, const SamplingOptions& options,
                         std::uint64_t seed);

/// The generator generate() samples with (splitmix64, uniform from the top 53 bits): the same
/// draws for the same seed on every platform.
class SampleGenerator {
  public:
    explicit SampleGenerator(std::uint64_t seed) : state_(seed) {}
    double uniform();

  private:
    std::uint64_t state_;
};

}  // namespace attnviz::models
