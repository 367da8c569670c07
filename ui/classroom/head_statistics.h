// What each head does, in numbers a class can compare: how spread out its attention is
// (entropy), how peaked (maximum weight), how far it looks (mean distance), and how much of
// its weight goes to the first token, [CLS], [SEP], the token itself and the one before.
// Plain functions on a snapshot, so a test can check them against its own computation.
#pragma once

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

#include "ui/compute/attention_snapshot.h"

namespace attnviz::ui {

/// Averages over the query rows of one head that are not fully masked.  Shares are in
/// [0, 1] (of the row's weight, which after dropout need not sum to 1); NaN where a
/// quantity does not exist (no [CLS] among the keys, "itself" in cross-attention).
struct HeadStatistics {
    int head = 0;
    int rows = 0;                ///< query rows averaged over
    double entropy = 0.0;        ///< -Σ p log2 p, in bits (0 = one key, log2 S = uniform)
    double max_weight = 0.0;     ///< the row's largest weight
    double mean_distance = 0.0;  ///< Σ p |i - j|, in tokens
    double first = 0.0;          ///< weight on key 0
    double cls = 0.0;            ///< weight on keys "[CLS]"
    double sep = 0.0;            ///< weight on keys "[SEP]"
    double self = 0.0;           ///< weight on key i (self-attention only)
    double previous = 0.0;       ///< weight on key i - 1 (rows i >= 1)
};

/// The statistics view's numbers for a snapshot (head_statistics of each batch item),
/// measured on the worker so that showing them never walks every cell on the GUI thread.
struct SnapshotStatistics {
    std::uint64_t generation = 0;
    std::vector<std::vector<HeadStatistics>> items;  ///< per batch item, one entry per head
};

/// One entry per head of batch item `item`.
std::vector<HeadStatistics> head_statistics(const AttentionSnapshot& snapshot, int item);

/// The table as delimited text, for a file (',' : CSV) or a spreadsheet paste ('\t'): a
/// header of column names (head, rows, entropy_bits, max_weight, mean_distance, first, cls,
/// sep, self, previous), one line per head (numbered from 1), full float precision, and an
/// empty field where a quantity does not exist.  Data, so the names are not translated.
std::string head_statistics_table(const std::vector<HeadStatistics>& stats, char separator);

}  // namespace attnviz::ui
