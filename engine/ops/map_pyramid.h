// A multi-resolution pyramid of one attention map [rows, cols], so a viewer draws any part of
// an 8,192 × 8,192 map by touching no more cells than the screen has pixels.
//
// Level 0 is the map itself, bit for bit (shared, never copied).  Each next level pools 2 × 2
// cells of the one below: cell (i, j) of level k covers level 0's rows [i·2^k, (i+1)·2^k) and
// columns [j·2^k, (j+1)·2^k), cut at the map's edge.  Max pooling (the default) keeps a single
// strong weight visible however far out the view is; mean pooling keeps the mass.  A mean cell
// is the mean of the level-0 cells it covers: its 2 × 2 children are weighted by how many they
// cover, so a cell on an odd edge is not pulled towards its neighbours.  Levels stop at the
// first that fits in top_side × top_side.
//
// NaN: max pooling keeps the larger of two values as std::max does, so a NaN may be dropped;
// the maps the app shows are checked finite before they get here.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/tensor.h"

namespace attnviz::ops {

enum class PoolMode { Max, Mean };

/// Cells of one pyramid level, row-major.
struct PyramidLevel {
    std::int64_t rows = 0, cols = 0;
    std::int64_t scale = 1;  ///< level-0 cells per side of one cell: 2^level
    const float* values = nullptr;
    float at(std::int64_t i, std::int64_t j) const { return values[i * cols + j]; }
};

/// What to draw for a region: a block of one level's cells.
struct PyramidRegion {
    int level = 0;
    std::int64_t row_begin = 0, row_end = 0;  ///< in the level's cells
    std::int64_t col_begin = 0, col_end = 0;
    std::int64_t rows() const { return row_end - row_begin; }
    std::int64_t cols() const { return col_end - col_begin; }
};

class MapPyramid {
  public:
    static constexpr std::int64_t kDefaultTopSide = 256;

    /// Builds the levels of `map` ([rows, cols], taken without a copy).  Throws
    /// std::invalid_argument for a map that is not 2-D or is empty, or top_side < 1.
    MapPyramid(std::shared_ptr<const Tensor> map, PoolMode mode = PoolMode::Max,
               std::int64_t top_side = kDefaultTopSide, int num_threads = 1);
    MapPyramid(Tensor&& map, PoolMode mode = PoolMode::Max, std::int64_t top_side = kDefaultTopSide,
               int num_threads = 1);

    PoolMode mode() const { return mode_; }
    std::int64_t rows() const { return levels_.front().rows; }
    std::int64_t cols() const { return levels_.front().cols; }
    int levels() const { return int(levels_.size()); }
    const PyramidLevel& level(int k) const { return levels_.at(std::size_t(k)); }
    /// The map itself: level 0 (another pyramid of it, of another mode, can share it).
    const std::shared_ptr<const Tensor>& map() const { return map_; }
    /// The largest and smallest value of the map.
    float max_value() const { return max_; }
    float min_value() const { return min_; }

    /// The finest level whose cells are no smaller than one pixel when `rows` × `cols` level-0
    /// cells are drawn on `height_px` × `width_px` pixels: the smallest k with
    /// rows / 2^k <= height_px and cols / 2^k <= width_px (the top level when none is).
    int level_for(double rows, double cols, double height_px, double width_px) const;

    /// The cells to draw level-0 region [row0, row1) × [col0, col1) (fractional, clipped to the
    /// map) onto `height_px` × `width_px` pixels: at level_for(), the level's cells that
    /// overlap the region.  At most height_px + 2 rows and width_px + 2 columns of cells (a
    /// partial cell at each edge), whatever the zoom.  Empty when the region misses the map.
    PyramidRegion query(double row0, double row1, double col0, double col1, double height_px,
                        double width_px) const;

  private:
    void build(std::int64_t top_side, int num_threads);

    std::shared_ptr<const Tensor> map_;
    PoolMode mode_;
    std::vector<std::vector<float>> pooled_;  ///< levels 1..: their cells
    std::vector<PyramidLevel> levels_;
    float max_ = 0.0f, min_ = 0.0f;
};

}  // namespace attnviz::ops
