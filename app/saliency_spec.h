// `--saliency grad-input|ig:N` and the metric it explains, read in one place for both front
// doors that take it: `attnviz attribute --saliency` and `attnviz export --view saliency`.
#pragma once

#include <cstdint>
#include <string>

#include "engine/models/attribution.h"
#include "engine/models/model.h"

namespace attnviz::cli {

/// The most integrated-gradients steps --saliency takes: each is a pass forwards and back.
inline constexpr std::int64_t kMaxSaliencySteps = 4096;

/// --saliency grad-input|ig:N as models::saliency's steps: 0 for gradient × input, N for
/// integrated gradients.  Throws UsageError (one line naming the option) for anything else.
std::int64_t saliency_steps(const std::string& spec);

/// The metric a LogitAttribution's total is: logit(target), or logit(target) -
/// logit(distractor), at the position.
models::GradientMetric gradient_metric(const models::LogitTarget& what);

}  // namespace attnviz::cli
