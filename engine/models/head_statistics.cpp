#include "engine/models/head_statistics.h"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when Eigen's packet
// max is inlined here (the intrinsics' undefined "source" operand), as in engine/ops/nn.cpp: a
// false positive that would fail -Werror builds on AVX-512 machines.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Core>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/io/json_writer.h"

namespace attnviz::models {

namespace {
using Eigen::Index;
}  // namespace

/// One slot's running sums: per head the measures' sums over rows, and the attention each key
/// received; and the slot's scratch.
struct HeadStatisticsSink::Sums {
    std::vector<HeadMeasureSums> measures;  ///< [heads]
    std::vector<double> received;           ///< [heads, length]
    std::vector<double> square_sums;        ///< [heads, cells, cells]
    std::vector<float> square_max;          ///< [heads, cells, cells]
    /// The column sums and maxima of the rows since the last flush (ColumnPool): zero
    /// between flushes.
    std::vector<float> columns, column_max;
};

namespace {

/// Σ x over n floats, exact to float rounding within each chunk of 256 (Eigen's vectorized
/// sum) and in double across chunks: an 8,192-key row loses nothing that matters, and the
/// sums run at the vector units' speed.
double chunked_sum(const float* x, Index n) {
    constexpr Index kChunk = 256;
    double total = 0;
    for (Index c = 0; c < n; c += kChunk)
        total += double(Eigen::Map<const Eigen::ArrayXf>(x + c, std::min(kChunk, n - c)).sum());
    return total;
}

/// Where pool_rows() sums one map's rows: float column sums and maxima, zero between calls
/// ([length] each), and the double sums per key (`received`, may be null) and per square.
struct PoolTarget {
    float* columns;
    float* column_max;
    double* received;
    double* square_sums;  ///< [cells, cells]
    float* square_max;    ///< [cells, cells]
};

/// Rows [first_row, first_row + rows) of one map (row r at weights + r · length, its first
/// `causal ? i + 1 : length` weights seen), summed and pooled as they come:
/// `per_row(i, row, keys)` adds each row to the float column sums and maxima (t.columns,
/// t.column_max) and takes whatever else it measures in the same pass; they are flushed every
/// kColumnRows rows, and whenever the rows enter another row of squares, into double sums per
/// key and per square: vector speed, and no float sum runs long enough to lose precision.
/// A template, so that the measures and the sums are one loop (as an object called per row,
/// the reduction ran 35% slower: bench/stats_sink_bench).
template <class PerRow>
void pool_rows(const Pooling& g, bool causal, Index first_row, Index rows, const float* weights,
               const PoolTarget& t, PerRow&& per_row) {
    constexpr Index kColumnRows = 32;
    const Index L = g.length;
    Eigen::Map<Eigen::ArrayXf> columns(t.columns, L), column_max(t.column_max, L);
    Index widest = 0, pending = 0, square_row = 0;
    const auto flush = [&] {
        if (widest == 0) return;
        if (t.received)
            for (Index j = 0; j < widest; ++j)
                t.received[j] += double(columns[j]);
        double* sums = t.square_sums + square_row * g.cells;
        float* maxima = t.square_max + square_row * g.cells;
        for (Index c = 0; c < g.cells && g.begin(c) < widest; ++c) {
            const Index b = g.begin(c), n = std::min(g.end(c), widest) - b;
            sums[c] += chunked_sum(t.columns + b, n);
            maxima[c] = std::max(maxima[c], column_max.segment(b, n).maxCoeff());
        }
        columns.head(widest).setZero();
        column_max.head(widest).setZero();
        widest = 0;
        pending = 0;
    };
    for (Index r = 0; r < rows; ++r) {
        const Index i = first_row + r;
        if (pending == kColumnRows || i / g.cell != square_row) {
            flush();
            square_row = i / g.cell;
        }
        const Index keys = causal ? i + 1 : L;
        per_row(i, weights + r * L, keys);
        widest = std::max(widest, keys);
        ++pending;
    }
    flush();
}

/// The mean over each square's visible pairs, from the squares' sums.
void square_means(const Pooling& g, bool causal, const double* sums, float* mean) {
    for (Index r = 0; r < g.cells; ++r)
        for (Index c = 0; c < g.cells; ++c) {
            const double n = g.visible(r, c, causal);
            mean[r * g.cells + c] = n > 0 ? float(sums[r * g.cells + c] / n) : 0.0f;
        }
}

}  // namespace

Pooling::Pooling(std::int64_t length_, std::int64_t max_cells) : length(length_) {
    if (length_ <= 0 || max_cells <= 0)
        throw std::invalid_argument("cannot pool " + std::to_string(length_) + " tokens into " +
                                    std::to_string(max_cells) + " squares");
    cell = (length_ + max_cells - 1) / max_cells;
    cells = (length_ + cell - 1) / cell;
}

double Pooling::visible(std::int64_t row, std::int64_t column, bool causal) const {
    const double rows = double(end(row) - begin(row)), cols = double(end(column) - begin(column));
    if (!causal || column < row) return rows * cols;
    if (column > row) return 0.0;
    return rows * (rows + 1) / 2;  // on the diagonal: query k of the square sees k + 1 keys
}

PooledMap pool_map(const float* map, std::int64_t length, bool causal, std::int64_t max_cells) {
    PooledMap out;
    out.pooling = Pooling(length, max_cells);
    const Pooling& g = out.pooling;
    const auto squares = std::size_t(g.cells * g.cells);
    std::vector<double> sums(squares, 0.0);
    std::vector<float> columns(std::size_t(length), 0.0f), column_max(std::size_t(length), 0.0f);
    out.max.assign(squares, 0.0f);
    pool_rows(g, causal, 0, length, map,
              PoolTarget{columns.data(), column_max.data(), nullptr, sums.data(), out.max.data()},
              [&](Index, const float* row, Index keys) {
                  const Eigen::Map<const Eigen::ArrayXf> p(row, keys);
                  Eigen::Map<Eigen::ArrayXf> sums_in(columns.data(), keys),
                      maxima(column_max.data(), keys);
                  sums_in += p;
                  maxima = maxima.max(p);
              });
    out.mean.resize(squares);
    square_means(g, causal, sums.data(), out.mean.data());
    return out;
}

HeadStatisticsSink::HeadStatisticsSink(std::int64_t layers, std::int64_t heads, std::int64_t length,
                                       bool causal, bool keep_residuals, std::int64_t pooled_cells,
                                       SpecialKeys special)
    : layers_(layers),
      heads_(heads),
      length_(length),
      causal_(causal),
      keep_residuals_(keep_residuals),
      layout_{length, causal, true, std::move(special)} {
    if (layers <= 0 || heads <= 0 || length <= 0)
        throw std::invalid_argument("statistics need at least one layer, head and token");
    stats_.layers = layers;
    stats_.heads = heads;
    stats_.length = length;
    stats_.causal = causal;
    stats_.atlas = HeadAtlas(layers, heads);
    const auto cells = std::size_t(layers * heads * length);
    stats_.received.assign(cells, 0.0f);
    stats_.first_token.assign(cells, 0.0f);
    stats_.pooling = Pooling(length, pooled_cells);
    const auto squares = std::size_t(layers * heads * stats_.squares());
    stats_.pooled_mean.assign(squares, 0.0f);
    stats_.pooled_max.assign(squares, 0.0f);
}

HeadStatisticsSink::~HeadStatisticsSink() = default;

void HeadStatisticsSink::begin_rows(std::int64_t layer, std::size_t slot_count) {
    if (layer < 0 || layer >= layers_)
        throw std::invalid_argument("layer " + std::to_string(layer) + " is not among " +
                                    std::to_string(layers_));
    while (slots_.size() < slot_count)
        slots_.push_back(std::make_unique<Sums>());
    for (auto& s : slots_) {
        s->measures.assign(std::size_t(heads_), {});
        s->received.assign(std::size_t(heads_ * length_), 0.0);
        s->square_sums.assign(std::size_t(heads_ * stats_.squares()), 0.0);
        s->square_max.assign(std::size_t(heads_ * stats_.squares()), 0.0f);
        s->columns.assign(std::size_t(length_), 0.0f);
        s->column_max.assign(std::size_t(length_), 0.0f);
    }
}

void HeadStatisticsSink::on_rows(std::int64_t layer, std::size_t slot, const RowBlock& b) {
    // A causal block holds no more than the keys a causal map's measures read.
    if (b.keys != length_ || b.head < 0 || b.head >= heads_ || b.first_row < 0 ||
        b.first_row + b.rows > length_ || slot >= slots_.size() || (b.causal_tail && !causal_))
        throw std::invalid_argument("a block of attention rows does not fit the statistics of " +
                                    std::to_string(length_) + " tokens");
    Sums& sums = *slots_[slot];
    auto& m = sums.measures[std::size_t(b.head)];
    float* first_token = stats_.first_token.data() + (layer * heads_ + b.head) * length_;
    const auto squares = std::size_t(b.head * stats_.squares());
    const PoolTarget target{sums.columns.data(), sums.column_max.data(),
                            sums.received.data() + b.head * length_,
                            sums.square_sums.data() + squares, sums.square_max.data() + squares};
    pool_rows(stats_.pooling, causal_, b.first_row, b.rows, b.weights, target,
              [&](Index i, const float* row, Index keys) {
                  // The softmax's entropy where it is over the very keys measured (a fully masked
                  // row's covers every key, which its measures do not read).
                  const Index r = i - b.first_row;
                  const double* entropy = b.entropy && b.valid(r) == keys ? b.entropy + r : nullptr;
                  m.add(measure_row(row, i, layout_, target.columns, target.column_max, entropy));
                  first_token[i] = row[0];
              });
}

void HeadStatisticsSink::end_rows(std::int64_t layer) {
    const double L = double(length_);
    for (std::int64_t h = 0; h < heads_; ++h) {
        HeadMeasureSums t;
        for (const auto& s : slots_)  // in slot order: the same sums whatever ran them
            t += s->measures[std::size_t(h)];
        stats_.atlas.at(layer, h) = t.means();
        float* received = stats_.received.data() + (layer * heads_ + h) * length_;
        for (std::int64_t j = 0; j < length_; ++j) {
            double sum = 0;
            for (const auto& s : slots_)
                sum += s->received[std::size_t(h * length_ + j)];
            received[j] = float(sum / (causal_ ? double(length_ - j) : L));
        }
        const auto n = std::size_t(stats_.squares()), at = std::size_t(h) * n;
        std::vector<double> square_sums(n, 0.0);
        float* max = stats_.pooled_max.data() + std::size_t(layer * heads_) * n + at;
        std::fill_n(max, n, 0.0f);
        for (const auto& s : slots_)
            for (std::size_t k = 0; k < n; ++k) {
                square_sums[k] += s->square_sums[at + k];
                max[k] = std::max(max[k], s->square_max[at + k]);
            }
        square_means(stats_.pooling, causal_, square_sums.data(),
                     stats_.pooled_mean.data() + std::size_t(layer * heads_) * n + at);
    }
}

void HeadStatisticsSink::on_residual(std::int64_t layer, const Tensor& residual) {
    if (layer >= layers_) return;  // after the last layer: no head reads it
    if (residuals_.size() < std::size_t(layers_)) residuals_.resize(std::size_t(layers_));
    residuals_[std::size_t(layer)] = std::make_shared<const Tensor>(residual);
}

void HeadStatisticsSink::add_layer(std::int64_t layer, const float* maps) {
    const std::int64_t L = length_;
    begin_rows(layer, 1);
    for (std::int64_t h = 0; h < heads_; ++h)
        on_rows(layer, 0, RowBlock{0, h, 0, L, L, maps + std::size_t(h * L * L)});
    end_rows(layer);
}

HeadStatistics HeadStatisticsSink::take() {
    label_heads(&stats_.atlas);
    slots_.clear();
    return std::move(stats_);
}

HeadStatistics statistics_from_maps(const std::vector<Tensor>& layers, bool causal,
                                    std::int64_t pooled_cells, const SpecialKeys& special) {
    if (layers.empty()) return {};
    const Tensor& front = layers.front();
    const std::int64_t L = front.dim(front.rank() - 1);
    const std::int64_t H = L > 0 ? std::int64_t(front.numel()) / (L * L) : 0;
    HeadStatisticsSink sink(std::int64_t(layers.size()), H, L, causal, false, pooled_cells,
                            special);
    for (std::size_t l = 0; l < layers.size(); ++l) {
        if (std::int64_t(layers[l].numel()) != H * L * L)
            throw std::invalid_argument("layer " + std::to_string(l) + " holds " +
                                        shape_string(layers[l].shape) + ", not [" +
                                        std::to_string(H) + ", " + std::to_string(L) + ", " +
                                        std::to_string(L) + "]");
        sink.add_layer(std::int64_t(l), layers[l].ptr());
    }
    return sink.take();
}

HeadAtlas measure_heads(const std::vector<Tensor>& layers, bool causal) {
    // The measures do not depend on the pooling: one square spares the pooled maps nobody reads
    // (the window's maps, extended by each generated token, are measured anew every token).
    return statistics_from_maps(layers, causal, 1).atlas;
}

std::string statistics_json(const HeadStatistics& s, const std::vector<std::string>& tokens,
                            const std::function<void(io::json::Writer&)>& more) {
    constexpr auto number = io::json::Format::general(6);
    // The atlas's measures but induction (this pass does not measure it), then the Statistics
    // tab's.
    std::vector<std::string> measures;
    for (const std::string& name : head_measure_names())
        if (name != "induction") measures.push_back(name);
    measures.insert(measures.end(), {"max_weight", "cls", "sep"});
    io::json::Writer out;
    out.begin_object().key("tokens").begin_array();
    for (const std::string& token : tokens)
        out.value(token);
    out.end_array()
        .member("layers", s.layers)
        .member("heads_per_layer", s.heads)
        .member("length", s.length)
        .member("causal", s.causal)
        .key("heads")
        .begin_array();
    const auto curve = [&](const char* name, const float* v) {
        out.key(name).begin_array();
        for (std::int64_t j = 0; j < s.length; ++j)
            out.value(double(v[j]), number);
        out.end_array();
    };
    for (std::int64_t l = 0; l < s.layers; ++l)
        for (std::int64_t h = 0; h < s.heads; ++h) {
            const HeadMeasures& m = s.atlas.at(l, h);
            out.begin_object().member("layer", l + 1).member("head", h + 1);
            for (const std::string& name : measures)
                out.member(name, head_measure(m, name), number);
            out.key("labels").begin_array();
            for (const std::string& label : m.labels)
                out.value(label);
            out.end_array();
            curve("received", s.received_of(l, h));
            curve("first_token", s.first_token_of(l, h));
            out.end_object();
        }
    out.end_array();
    if (more) more(out);
    return out.end_object().take();
}

StatisticsRun compute_statistics(const Model& model, const ModelInput& input,
                                 const StatisticsOptions& options) {
    const ModelInfo& info = model.info();
    HeadStatisticsSink sink(info.num_layers, info.num_heads, std::int64_t(input.ids.size()),
                            info.causal, options.keep_residuals, options.pooled_cells,
                            options.special);
    ModelForwardOptions forward;
    forward.attention = false;  // rows only: no map is ever kept
    forward.num_threads = options.num_threads;
    forward.control = options.control;
    forward.weight_cache_bytes = options.weight_cache_bytes;
    model.forward(input, forward, sink);
    StatisticsRun run;
    run.residuals = sink.take_residuals();
    run.statistics = sink.take();
    return run;
}

std::size_t statistics_bytes(const ModelInfo& info, std::int64_t tokens, bool keep_residuals,
                             int threads, std::int64_t pooled_cells) {
    const auto L = std::size_t(std::max<std::int64_t>(tokens, 0));
    const auto heads = std::size_t(info.num_heads), layers = std::size_t(info.num_layers);
    const auto squares =
        L > 0 ? std::size_t(Pooling(std::int64_t(L), pooled_cells).cells) : std::size_t(0);
    const auto slots = std::size_t(std::max(threads, 1));
    std::size_t bytes = 2 * layers * heads * L * sizeof(float);                     // curves
    bytes += 2 * layers * heads * squares * squares * sizeof(float);                // pooled maps
    bytes += slots * heads * L * sizeof(double);                                    // slots' curves
    bytes += slots * heads * squares * squares * (sizeof(double) + sizeof(float));  // squares
    bytes += slots * 3 * L * sizeof(float);                                         // rows, columns
    if (keep_residuals) bytes += layers * L * std::size_t(info.hidden_size) * sizeof(float);
    return bytes;
}

Tensor head_map(const Model& model, const ModelInput& input, std::int64_t layer, std::int64_t head,
                const Tensor* residual, int num_threads, const PassControl& control) {
    ModelForwardOptions options;
    options.scope.layers = {layer};
    options.scope.only_head = head;
    options.scope.heads = 0;  // the mean of one head is its map: nothing else is allocated
    options.num_threads = num_threads;
    options.control = control;
    if (residual) {
        options.resume_layer = layer;
        options.resume_residual = residual;
    }
    CollectingSink sink;
    model.forward(input, options, sink);
    if (sink.results.size() != 1)
        throw std::logic_error("a one-head pass handed over " +
                               std::to_string(sink.results.size()) + " layers");
    Tensor map = std::move(sink.results.front().mean_weights);
    const std::int64_t L = std::int64_t(input.ids.size());
    map.shape = {L, L};
    return map;
}

}  // namespace attnviz::models
