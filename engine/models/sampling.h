// The choice of each new token as generate() makes it: greedy at temperature 0, else a draw
// from the distribution the sampling options leave (token_trace.h's sampling_distribution).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/models/model.h"
#include "engine/models/token_trace.h"

namespace attnviz::models {

/// Picks the next token of a generation, each draw from its own generator: the same text for
/// the same seed on every platform.
class Sampler {
  public:
    explicit Sampler(const GenerateOptions& o)
        : options_{o.temperature, o.top_k, o.top_p}, random_(o.seed) {}
    std::int64_t pick(const std::vector<float>& logits) {
        const SamplingDistribution d = sampling_distribution(
            logits.data(), static_cast<std::int64_t>(logits.size()), options_);
        return options_.temperature <= 0.0 ? d.ids[0] : d.draw(random_.uniform());
    }

  private:
    SamplingOptions options_;
    SampleGenerator random_;
};

}  // namespace attnviz::models
