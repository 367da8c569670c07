// `attnviz qk --out-json`'s document, written in one place for both front doors that give it:
// `attnviz qk` and `attnviz export --view why --out F.json`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/models/model_folder.h"
#include "engine/models/qk_attribution.h"

namespace attnviz::cli {

/// head, query and key ({position from 1, id, token}), scale, score, query_terms and key_terms
/// [{name, value}], pairs [{query, key, value}] sorted by |value| (the `top` largest when given,
/// with rest and rest_pairs), one line.
std::string qk_json(const models::OpenedModel& m, const models::ModelInput& input,
                    const models::QkAttribution& a, std::optional<std::int64_t> top);

}  // namespace attnviz::cli
