// What each head of a snapshot does, in numbers a class can compare: the engine's measures
// (models::measure_head) of each kept head's map.  Measured on the worker, so that showing them
// never walks every cell on the GUI thread; the Statistics tab only formats them.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/models/head_atlas.h"
#include "ui/compute/attention_snapshot.h"

namespace attnviz::ui {

/// One entry per kept head of batch item `item` (clamped to the batch), in head order: its
/// fully masked rows left out, [CLS] and [SEP] read from the key tokens, "itself" only in
/// self-attention.  Norm-based maps (snapshot.norm_based) are measured row by row as the
/// shares of the row's total.
std::vector<models::HeadMeasures> snapshot_head_measures(const AttentionSnapshot& snapshot,
                                                         int item);

/// The Statistics tab's numbers for a snapshot: snapshot_head_measures of each batch item.
struct SnapshotStatistics {
    std::uint64_t generation = 0;
    std::vector<std::vector<models::HeadMeasures>> items;  ///< per batch item, per head
};

/// snapshot_head_measures of every batch item.
SnapshotStatistics snapshot_statistics(const AttentionSnapshot& snapshot);

}  // namespace attnviz::ui
