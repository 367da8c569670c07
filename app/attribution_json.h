// `attnviz attribute --out-json`'s document, written in one place for both front doors that
// give it: `attnviz attribute` and `attnviz export --view dla --out F.json` (and its saliency
// part for `attnviz export --view saliency --out F.json`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/commands.h"
#include "engine/models/attribution.h"
#include "engine/models/gradient_attribution.h"
#include "engine/models/model_folder.h"

namespace attnviz::cli {

/// position (from 1), target and distractor ({id, token}), total, constant, embeddings,
/// norm_scale, heads [layers][heads], attention_bias and mlps [layers] (null where the model has
/// none), the saliency's fields (null without `saliency`), and `ablated` [{layer, head, mode}]
/// (from 1) when `a` is of a model with heads knocked out; one line.
std::string attribution_json(const models::OpenedModel& m, const models::LogitAttribution& a,
                             const std::optional<models::Saliency>& saliency = std::nullopt,
                             const std::vector<models::HeadIntervention>& ablated = {});

/// --ablate and --ablate-mode as the interventions of `attnviz attribute` and `attnviz export
/// --view dla`.  Throws UsageError for a head `info`'s model lacks or --ablate-mode alone.
std::vector<models::HeadIntervention> ablation_options(const AblateOptions& o,
                                                       const models::ModelInfo& info);

/// position (from 1), target, distractor, total (the metric), the saliency's fields and
/// `ablated` (with heads knocked out), with the keys and numbers of attribution_json(), one line.
std::string saliency_json(const models::OpenedModel& m, const models::LogitTarget& what,
                          const models::Saliency& saliency,
                          const std::vector<models::HeadIntervention>& ablated = {});

}  // namespace attnviz::cli
