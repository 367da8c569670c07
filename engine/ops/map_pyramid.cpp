#include "engine/ops/map_pyramid.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>

#include "engine/ops/parallel.h"

namespace attnviz::ops {

namespace {

/// Level-0 cells that cell `i` of a level of `scale` covers along an axis of `size` cells.
float covered(std::int64_t i, std::int64_t scale, std::int64_t size) {
    return float(std::min(scale, size - i * scale));
}

/// Rows [r0, r1) of the level above `below`: each cell the max of its (up to) 2 × 2 children.
void pool_max(const PyramidLevel& below, float* out, std::int64_t cols, std::int64_t r0,
              std::int64_t r1) {
    const std::int64_t full = below.cols / 2;  // cells with two children across
    for (std::int64_t i = r0; i < r1; ++i) {
        const float* a = below.values + 2 * i * below.cols;
        const float* b = 2 * i + 1 < below.rows ? a + below.cols : a;  // odd last row: itself
        float* o = out + i * cols;
        for (std::int64_t j = 0; j < full; ++j)
            o[j] = std::max(std::max(a[2 * j], a[2 * j + 1]), std::max(b[2 * j], b[2 * j + 1]));
        if (full < cols) o[full] = std::max(a[2 * full], b[2 * full]);
    }
}

/// The same, each cell the mean of the level-0 cells it covers.
void pool_mean(const PyramidLevel& below, float* out, std::int64_t cols, std::int64_t r0,
               std::int64_t r1, std::int64_t map_rows, std::int64_t map_cols) {
    const std::int64_t s = below.scale;
    // Children's widths in level-0 cells: all equal but the last column's.
    const float w_last = covered(below.cols - 1, s, map_cols), w = float(s);
    for (std::int64_t i = r0; i < r1; ++i) {
        const float* a = below.values + 2 * i * below.cols;
        const bool pair = 2 * i + 1 < below.rows;
        const float* b = pair ? a + below.cols : a;
        const float ha = covered(2 * i, s, map_rows),
                    hb = pair ? covered(2 * i + 1, s, map_rows) : 0;
        float* o = out + i * cols;
        for (std::int64_t j = 0; j < cols; ++j) {
            const std::int64_t c = 2 * j;
            const bool across = c + 1 < below.cols;
            const float w0 = across ? w : covered(c, s, map_cols);
            const float w1 = !across ? 0.0f : c + 1 == below.cols - 1 ? w_last : w;
            if (across && pair && w1 == w0 && hb == ha) {  // the interior: a plain mean
                o[j] = 0.25f * ((a[c] + a[c + 1]) + (b[c] + b[c + 1]));
                continue;
            }
            const float top = a[c] * w0 + (across ? a[c + 1] * w1 : 0.0f);
            const float bottom = pair ? b[c] * w0 + (across ? b[c + 1] * w1 : 0.0f) : 0.0f;
            o[j] = (top * ha + bottom * hb) / ((ha + hb) * (w0 + w1));
        }
    }
}

}  // namespace

MapPyramid::MapPyramid(Tensor&& map, PoolMode mode, std::int64_t top_side, int num_threads)
    : MapPyramid(std::make_shared<const Tensor>(std::move(map)), mode, top_side, num_threads) {}

MapPyramid::MapPyramid(std::shared_ptr<const Tensor> map, PoolMode mode, std::int64_t top_side,
                       int num_threads)
    : map_(std::move(map)), mode_(mode) {
    if (!map_ || map_->rank() != 2 || map_->empty())
        throw std::invalid_argument("a map pyramid needs a non-empty map [rows, cols], not " +
                                    (map_ ? shape_string(map_->shape) : std::string("none")));
    if (top_side < 1)
        throw std::invalid_argument("a map pyramid's top side must be at least 1, not " +
                                    std::to_string(top_side));
    build(top_side, num_threads);
}

void MapPyramid::build(std::int64_t top_side, int num_threads) {
    const std::int64_t R = map_->dim(0), C = map_->dim(1);
    levels_.push_back(PyramidLevel{R, C, 1, map_->ptr()});
    // The range, in chunks of rows (one pass over the map).
    std::mutex merge;
    max_ = map_->data[0];
    min_ = map_->data[0];
    parallel_for(std::size_t(R), num_threads, [&](std::size_t r0, std::size_t r1) {
        const auto [lo, hi] = std::minmax_element(map_->data.begin() + std::ptrdiff_t(r0 * C),
                                                  map_->data.begin() + std::ptrdiff_t(r1 * C));
        const std::lock_guard lock(merge);
        min_ = std::min(min_, *lo);
        max_ = std::max(max_, *hi);
    });
    pooled_.reserve(64);  // level pointers must not move: at most 63 halvings of an int64
    while (levels_.back().rows > top_side || levels_.back().cols > top_side) {
        const PyramidLevel below = levels_.back();
        const std::int64_t rows = (below.rows + 1) / 2, cols = (below.cols + 1) / 2;
        std::vector<float>& cells = pooled_.emplace_back(std::size_t(rows * cols));
        float* out = cells.data();
        parallel_for(std::size_t(rows), num_threads, [&](std::size_t r0, std::size_t r1) {
            if (mode_ == PoolMode::Max)
                pool_max(below, out, cols, std::int64_t(r0), std::int64_t(r1));
            else
                pool_mean(below, out, cols, std::int64_t(r0), std::int64_t(r1), R, C);
        });
        levels_.push_back(PyramidLevel{rows, cols, below.scale * 2, out});
    }
}

int MapPyramid::level_for(double rows, double cols, double height_px, double width_px) const {
    for (int k = 0; k < levels(); ++k) {
        const double s = double(levels_[std::size_t(k)].scale);
        if (rows / s <= height_px && cols / s <= width_px) return k;
    }
    return levels() - 1;
}

PyramidRegion MapPyramid::query(double row0, double row1, double col0, double col1,
                                double height_px, double width_px) const {
    PyramidRegion r;
    row0 = std::max(row0, 0.0);
    col0 = std::max(col0, 0.0);
    row1 = std::min(row1, double(rows()));
    col1 = std::min(col1, double(cols()));
    if (!(row1 > row0 && col1 > col0)) return r;
    r.level =
        level_for(row1 - row0, col1 - col0, std::max(height_px, 1.0), std::max(width_px, 1.0));
    const PyramidLevel& l = levels_[std::size_t(r.level)];
    const double s = double(l.scale);
    r.row_begin = std::int64_t(std::floor(row0 / s));
    r.col_begin = std::int64_t(std::floor(col0 / s));
    r.row_end = std::min(l.rows, std::int64_t(std::ceil(row1 / s)));
    r.col_end = std::min(l.cols, std::int64_t(std::ceil(col1 / s)));
    return r;
}

}  // namespace attnviz::ops
