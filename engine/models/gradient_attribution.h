// Attributions read from gradients (Model::gradients): which heads matter without one pass per
// head, and which input tokens.
//
//  * Attribution patching (EAP; Nanda 2023, "Attribution Patching: Activation Patching At
//    Industrial Scale"; Syed, Rager & Conmy 2023, "Attribution Patching Outperforms Automated
//    Circuit Discovery").  Patching head h's output z from the clean run into the corrupted run
//    changes the metric by about (z_clean - z_corrupt) · ∂m/∂z, the gradient taken at the
//    corrupted run: a first-order Taylor estimate of the exact sweep (models/predictions.h,
//    patch_sweep), from two forward passes and one backward for every head at once.  Divided by
//    m_clean - m_corrupt it is the same "fraction restored".
//  * Input saliency.  Gradient × input (Shrikumar et al. 2016; Denil et al. 2014): per token,
//    Σ_e x_e ∂m/∂x_e of its input embedding.  Integrated gradients (Sundararajan, Taly & Yan
//    2017, "Axiomatic Attribution for Deep Networks"): (x - x') · the mean gradient along the
//    straight path from the baseline x' = 0 to x, by the midpoint rule over N steps; by
//    completeness the tokens' attributions sum to m(x) - m(x') up to the rule's error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/models/model.h"
#include "engine/models/predictions.h"

namespace attnviz::models {

struct AttributionPatching {
    double m_clean = 0.0, m_corrupt = 0.0;
    std::int64_t position = 0;  ///< the metric's position, from 0
    /// [layers, heads]: the estimated m_patched - m_corrupt of patching each head at every
    /// position, and as a fraction of m_clean - m_corrupt (NaN when they are equal), as
    /// PatchResult::fraction.
    Tensor estimate, fraction;
    /// [layers, heads, tokens]: the same split by the position patched (sums over tokens to
    /// `fraction`).
    Tensor fraction_by_position;
};

/// EAP of every head (request.heads and batch are ignored: every head comes at once) for the
/// metric logit(target) - logit(distractor) at request.position.  Throws as patch_sweep does.
AttributionPatching attribution_patching(const Model& model, const PatchRequest& request,
                                         const GradientOptions& options = {});

struct Saliency {
    /// 0: gradient × input; N: integrated gradients over N steps from a zero embedding.
    std::int64_t steps = 0;
    double metric = 0.0;         ///< m(x)
    double baseline = 0.0;       ///< m(0) with integrated gradients; NaN for gradient × input
    std::vector<double> tokens;  ///< each token's attribution
    Tensor gradients;  ///< [layers, tokens, heads·head_dim]: ∂m/∂z at x (Model::gradients)
    Tensor embedding_gradients;  ///< [tokens, hidden]: ∂m/∂x0 at x
};

/// Gradient × input (steps 0) or integrated gradients over `steps` steps: steps + 2 passes
/// forward and backward.  Throws std::invalid_argument for steps < 0; what gradients() throws.
Saliency saliency(const Model& model, const ModelInput& input, const GradientMetric& metric,
                  std::int64_t steps, const GradientOptions& options = {});

}  // namespace attnviz::models
