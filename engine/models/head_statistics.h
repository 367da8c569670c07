// The statistics pass: what every layer × head does over a whole text, however long, without
// any map.  At 8,192 tokens Qwen2.5-0.5B's 24 × 14 maps are 90 GB of float32; this pass
// reduces each block of attention rows as the attention core produces it (AttentionSink's
// row blocks), so a head's scores exist one block at a time.
//
// For every head it gives the head atlas's measures (engine/models/head_atlas.h, each row
// measured by measure_row; induction stays −1), and two curves over positions:
//   received     the attention key j receives, averaged over the queries that see it
//                (i ≥ j when causal, every query otherwise): the "lost in the middle" curve;
//   first_token  each query's weight on the first token (an attention sink's signature);
// and its whole map pooled into at most kPooledCells × kPooledCells squares, by each square's
// largest weight and by its mean (the Model tab's thumbnail of a text too long to keep its
// maps).  Any one head's full map is then recomputed on demand (head_map), from the residual
// stream the pass may keep for it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/io/json_writer.h"
#include "engine/models/head_atlas.h"
#include "engine/models/model.h"
#include "engine/tensor.h"

namespace attnviz::models {

/// The squares an L × L map is pooled into: `cell` tokens a side (⌈L / max_cells⌉), `cells`
/// of them along each axis (⌈L / cell⌉ ≤ max_cells); the last row and column of squares may be
/// narrower.  With L ≤ max_cells each square is one cell: the pooled map is the map.
struct Pooling {
    std::int64_t length = 0, cell = 1, cells = 0;
    Pooling() = default;
    Pooling(std::int64_t length, std::int64_t max_cells);
    std::int64_t begin(std::int64_t square) const { return square * cell; }
    std::int64_t end(std::int64_t square) const { return std::min(length, (square + 1) * cell); }
    /// The query–key pairs of square (row, column) a query sees: every pair, or with a causal
    /// mask those with key ≤ query (none above the diagonal).
    double visible(std::int64_t row, std::int64_t column, bool causal) const;
};

/// The Model tab's thumbnail size: 64 × 64 squares at most.
inline constexpr std::int64_t kPooledCells = 64;

/// One map pooled into squares ([cells, cells] each, row-major): `mean` the mean weight over the
/// square's visible pairs (masked pairs do not dilute it; 0 where none is visible), `max` the
/// largest weight in it (a one-token stripe stays as bright as it is).
struct PooledMap {
    Pooling pooling;
    std::vector<float> mean, max;
};

/// `map` [L, L] pooled as HeadStatisticsSink pools every head's rows (the mean over heads and
/// the rollout, which no pass hands over row by row).
PooledMap pool_map(const float* map, std::int64_t length, bool causal,
                   std::int64_t max_cells = kPooledCells);

struct HeadStatistics {
    std::int64_t layers = 0, heads = 0, length = 0;
    bool causal = false;
    HeadAtlas atlas;  ///< the measures of every layer × head, labelled
    /// [layers, heads, length] each.
    std::vector<float> received, first_token;

    const float* received_of(std::int64_t layer, std::int64_t head) const {
        return received.data() + std::size_t((layer * heads + head) * length);
    }
    const float* first_token_of(std::int64_t layer, std::int64_t head) const {
        return first_token.data() + std::size_t((layer * heads + head) * length);
    }
    /// Every head's whole map pooled (PooledMap's mean and max): [layers, heads, cells, cells].
    Pooling pooling;
    std::vector<float> pooled_mean, pooled_max;
    const float* pooled_mean_of(std::int64_t layer, std::int64_t head) const {
        return pooled_mean.data() + std::size_t((layer * heads + head) * squares());
    }
    const float* pooled_max_of(std::int64_t layer, std::int64_t head) const {
        return pooled_max.data() + std::size_t((layer * heads + head) * squares());
    }
    std::int64_t squares() const { return pooling.cells * pooling.cells; }
};

/// Reduces the attention rows of a forward pass into HeadStatistics as they are computed
/// (AttentionSink::wants_rows).  Rows may come in any order and from several threads; each
/// slot sums on its own, and a layer's slots are added in slot order when it ends, so the
/// result does not depend on scheduling.  With keep_residuals, the residual stream before
/// every layer is kept too (what head_map() resumes from).
class HeadStatisticsSink : public AttentionSink {
  public:
    /// Each head's map is pooled into at most `pooled_cells` × `pooled_cells` squares;
    /// `special`: the [CLS] and [SEP] among the tokens (their measures are NaN without).
    HeadStatisticsSink(std::int64_t layers, std::int64_t heads, std::int64_t length, bool causal,
                       bool keep_residuals = false, std::int64_t pooled_cells = kPooledCells,
                       SpecialKeys special = {});
    ~HeadStatisticsSink() override;

    void on_layer(std::int64_t, AttentionResult&&) override {}
    bool wants_rows() const override { return true; }
    void begin_rows(std::int64_t layer, std::size_t slot_count) override;
    void on_rows(std::int64_t layer, std::size_t slot, const RowBlock& rows) override;
    void end_rows(std::int64_t layer) override;
    bool wants_residuals() const override { return keep_residuals_; }
    void on_residual(std::int64_t layer, const Tensor& residual) override;

    /// A whole layer's maps [heads, length, length] at once (maps read from a file, or kept
    /// by a pass): its rows as one block per head, on one slot.
    void add_layer(std::int64_t layer, const float* maps);

    /// The statistics of the layers seen so far, labelled.
    HeadStatistics take();
    /// With keep_residuals: the residual stream before each layer ([L, hidden] each).
    std::vector<std::shared_ptr<const Tensor>> take_residuals() { return std::move(residuals_); }

  private:
    struct Sums;
    std::int64_t layers_, heads_, length_;
    bool causal_, keep_residuals_;
    MapLayout layout_;  ///< every head's: self-attention over the length
    HeadStatistics stats_;
    std::vector<std::unique_ptr<Sums>> slots_;
    std::vector<std::shared_ptr<const Tensor>> residuals_;
};

/// The same statistics from full maps: `layers[l]` is [H, L, L] (or [1, H, L, L]), rows summing
/// to 1 over the keys they see.  What a file of maps computed elsewhere gives, and the
/// reference the pass is tested against.
HeadStatistics statistics_from_maps(const std::vector<Tensor>& layers, bool causal,
                                    std::int64_t pooled_cells = kPooledCells,
                                    const SpecialKeys& special = {});

/// `attnviz stats --out-json`: {"tokens": [labels], "layers", "heads_per_layer", "length",
/// "causal", "heads": [{"layer", "head" (from 1), the measures (the atlas's but induction, then
/// max_weight, cls, sep), "labels", "received": [L values], "first_token": [L values]}, ...]}.
/// Numbers as printf's %.6g; a measure that does not exist (NaN) is null.  `tokens` may be
/// empty.  `more`, when given, writes the caller's own members last (stats' timings).
std::string statistics_json(const HeadStatistics& statistics,
                            const std::vector<std::string>& tokens,
                            const std::function<void(io::json::Writer&)>& more = {});

struct StatisticsOptions {
    int num_threads = 1;
    /// Keep the residual stream before every layer (layers × L × hidden floats), so that
    /// head_map() runs one layer instead of every layer below it.
    bool keep_residuals = false;
    std::int64_t pooled_cells = kPooledCells;  ///< HeadStatistics::pooling's largest
    SpecialKeys special;  ///< the [CLS] and [SEP] among the input's tokens (special_keys)
    PassControl control;
    /// The pass's ModelForwardOptions::weight_cache_bytes (unset: the model's own limit).
    std::optional<std::size_t> weight_cache_bytes;
};

struct StatisticsRun {
    HeadStatistics statistics;
    std::vector<std::shared_ptr<const Tensor>> residuals;  ///< with keep_residuals
};

/// Runs `model` once over `input`, keeping no map.
StatisticsRun compute_statistics(const Model& model, const ModelInput& input,
                                 const StatisticsOptions& options = {});

/// Bytes the statistics pass allocates beyond the forward pass's own working set: the curves,
/// the pooled maps and, with keep_residuals, the residual streams.
std::size_t statistics_bytes(const ModelInfo& info, std::int64_t tokens, bool keep_residuals,
                             int threads, std::int64_t pooled_cells = kPooledCells);

/// One head's full map [L, L] over `input`: only that head of that layer is computed, from
/// `residual` (the stream before the layer, as compute_statistics keeps it) or, when null,
/// by running the layers below.
Tensor head_map(const Model& model, const ModelInput& input, std::int64_t layer, std::int64_t head,
                const Tensor* residual = nullptr, int num_threads = 1,
                const PassControl& control = {});

}  // namespace attnviz::models
