// `attnviz flow --out-json`'s document, written in one place for both front doors that give it:
// `attnviz flow` and `attnviz export --view flow --out F.json` (and the Flow tab's export).
#pragma once

#include <string>
#include <vector>

#include "engine/models/information_flow.h"

namespace attnviz::cli {

/// position, threshold, distance, per_head, layers, tokens (`tokens`: the encoding's pieces);
/// nodes and edges with layers and positions from 1 (`attnviz flow --help` describes them).
std::string flow_graph_json(const std::vector<std::string>& tokens,
                            const models::InformationFlow& flow, const models::FlowGraph& g);

}  // namespace attnviz::cli
