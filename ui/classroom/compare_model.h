// What the Compare view shows, taken from two finished snapshots (A and B = A with a few
// changes): the weights of one head or of the mean in each, and their difference B − A
// cell by cell, with the numbers a class asks about (the largest change, the average one).
// Nothing is recomputed: both snapshots come from compute_snapshot.
#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

#include "ui/compute/attention_snapshot.h"
#include "ui/document/compare_config.h"

namespace attnviz::ui {

struct CompareModel {
    int item = 0;
    int head = -1;    ///< -1: the mean over heads
    int b_head = -1;  ///< B's head (== head unless B compares another head)
    int rows = 0;     ///< L, queries
    int cols = 0;     ///< S, keys
    /// Each side's own size.  They differ only for two sentences of different lengths: then
    /// rows and cols are the longer ones, and the positions only the longer sentence has are
    /// absent on the other side (blank, with no difference).
    int a_rows = 0, a_cols = 0, b_rows = 0, b_cols = 0;
    std::vector<QString> query_tokens, key_tokens;
    std::vector<QString> b_query_tokens, b_key_tokens;  ///< B's: another sentence's words
    std::vector<float> a, b, diff;  ///< [rows * cols]; diff = b − a (NaN if either is)
    std::vector<std::uint8_t> masked_a, masked_b;  ///< [rows * cols] 1 where the cell was masked
    float max_weight = 0.0f;  ///< largest finite weight of A and B (their shared colour range)
    float max_abs_diff = 0.0f;
    double mean_abs_diff = 0.0;      ///< over the cells where both are finite
    int max_row = -1, max_col = -1;  ///< where |diff| is largest
    int finite_cells = 0;

    bool empty() const { return rows == 0 || cols == 0; }
    bool inA(int i, int j) const { return i < a_rows && j < a_cols; }
    bool inB(int i, int j) const { return i < b_rows && j < b_cols; }
    bool sameLength() const { return a_rows == b_rows && a_cols == b_cols; }
    std::size_t index(int i, int j) const { return std::size_t(i) * cols + j; }
};

/// Query × key cells (per sentence) up to which two configurations are compared: each
/// comparison keeps A, B and B − A of that size, on top of B's own snapshot.
inline constexpr std::size_t kMaxCompareCells = std::size_t(1) << 22;

/// Why inputs of `rows` queries and `cols` keys are too large to compare, or empty.
QString compare_size_problem(std::size_t rows, std::size_t cols);

/// The model for batch item `item` and head `head` (-1: the mean) of A, against head
/// `b_head` of B (-2: the same as A's).  Empty, with `why` set, when the two cannot be
/// compared there: a head that only one configuration has, or inputs of different lengths.
/// Two sentences of a model are compared position by position, over the longer one.
CompareModel build_compare_model(const AttentionSnapshot& a, const AttentionSnapshot& b, int item,
                                 int head, QString* why = nullptr, int b_head = -2);

/// The comparison as CSV, one row per cell: query,key (positions from 1), A's and B's tokens
/// there, a, b and b_minus_a ("nan" where a side has no weight).  `attnviz export --view
/// compare --out FILE.csv` writes it.
QByteArray compare_csv(const CompareModel& model);

/// Checks that B's attention maps (`b`, a compared_config of `a`, both usesMaps()) can be
/// compared with A's: B's tokens fit its maps, and both have the same layers, heads and length.
/// Throws DataError naming the file and what differs.  Returns a warning when the two tokens
/// files spell their tokens differently (io::token_difference), "" when they agree.
std::string check_compared_maps(const ComputeConfig& a, const ComputeConfig& b);

/// Computes configuration B for A's configuration on the calling thread (the compute
/// worker, or `attnviz export`).  Throws UsageError when B cannot be built next to A or the
/// input is too large to compare, and budget::MemoryBudgetExceeded when B is over `budget`
/// (null: ATTNVIZ_MEMORY_BUDGET or the default).
SnapshotPtr compute_compared(const ComputeConfig& a, const CompareChanges& changes,
                             std::uint64_t generation = 1, ComputeCache* cache = nullptr,
                             int num_threads = 1, const budget::MemoryBudget* budget = nullptr);

}  // namespace attnviz::ui
