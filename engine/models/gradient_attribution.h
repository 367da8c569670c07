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
//  * Input saliency, of each token's embedding (its row of W_E; the learned positions and
//    token types are not attributed: they stay in the baseline, as with Captum's
//    LayerIntegratedGradients on the word embeddings).  Gradient × input (Shrikumar et al.
//    2016; Denil et al. 2014): per token, Σ_e w_e ∂m/∂x0_e of its token embedding w.
//    Integrated gradients (Sundararajan, Taly & Yan 2017, "Axiomatic Attribution for Deep
//    Networks"): w · the mean gradient along the straight path from the baseline, the token
//    embeddings zeroed, to the input, by the midpoint rule over N steps.  By completeness the
//    tokens' attributions sum to m(x) - m(baseline) up to the rule's error, which Saliency
//    reports (Captum's convergence delta).  With learned positions (GPT-2, BERT, RoBERTa,
//    DistilBERT) the path is smooth: 64 steps are complete within 0.13% on every golden.
//    Rotary models (Llama, Qwen) have no positions in x0: their baseline is the all-zero input,
//    where every RMSNorm is scale-invariant down to α ≈ √(eps / mean x²), so m(αx) changes at
//    scales from 1 to 1e-10 and no 64-step rule resolves it (the delta says so).
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
/// metric logit(target) - logit(distractor) at request.position; options.interventions knock
/// heads out of both runs.  Throws as patch_sweep does.
AttributionPatching attribution_patching(const Model& model, const PatchRequest& request,
                                         const GradientOptions& options = {});

/// The estimate in the exact sweep's terms: the same fractions, m_patched = m_corrupt +
/// estimate, every head present.
PatchResult estimated_patch_result(const AttributionPatching& attribution);

/// Spearman's rank correlation of `a` and `b`: Pearson's correlation of their ranks, tied values
/// given the mean of their ranks (how well EAP ranks the heads as the exact sweep does).  NaN for
/// fewer than two pairs or when either side is constant.  Throws std::invalid_argument for sizes
/// that differ or a NaN value.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

struct Saliency {
    /// 0: gradient × input; N: integrated gradients over N steps.
    std::int64_t steps = 0;
    double metric = 0.0;  ///< m(x)
    /// m(baseline), the token embeddings zeroed, with integrated gradients; NaN for gradient ×
    /// input.
    double baseline = 0.0;
    std::vector<double> tokens;  ///< each token's attribution
    /// Integrated gradients' completeness gap, Σ tokens - (metric - baseline); NaN for
    /// gradient × input.
    double delta() const;
    Tensor gradients;  ///< [layers, tokens, heads·head_dim]: ∂m/∂z at x (Model::gradients)
    Tensor embedding_gradients;  ///< [tokens, hidden]: ∂m/∂x0 at x
};

/// Gradient × input (steps 0) or integrated gradients over `steps` steps: steps + 2 passes
/// forward and backward.  With options.interventions, of the model with those heads knocked
/// out: a mean-knocked head keeps its mean at x all along the path and at the baseline, so the
/// path runs through one function and completeness holds as for the intact model.  Throws
/// std::invalid_argument for steps < 0; what gradients() throws.
Saliency saliency(const Model& model, const ModelInput& input, const GradientMetric& metric,
                  std::int64_t steps, const GradientOptions& options = {});

/// Upper bounds of the bytes attribution_patching and saliency allocate at `tokens` tokens
/// (weights not counted), for memory budgets.
std::size_t attribution_patching_bytes(const Model& model, std::int64_t tokens);
std::size_t saliency_bytes(const Model& model, std::int64_t tokens, const GradientMetric& metric);

}  // namespace attnviz::models
