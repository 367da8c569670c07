#include "engine/models/head_statistics.h"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when Eigen's packet
// log is inlined here (the intrinsics' undefined "source" operand), as in engine/ops/nn.cpp: a
// false positive that would fail -Werror builds on AVX-512 machines.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "engine/io/json.h"

namespace attnviz::models {

namespace {
using Eigen::Index;

enum Measure { Entropy, Broad, BroadRows, Distance, First, Self, Previous, MeasureCount };
}  // namespace

/// One slot's running sums: per head the measures' sums over rows, and the attention each key
/// received; and the slot's scratch.
struct HeadStatisticsSink::Sums {
    std::vector<std::array<double, MeasureCount>> measures;  ///< [heads]
    std::vector<double> received;                            ///< [heads, length]
    std::vector<float> terms;                                ///< a row's p ln p, [length]
    std::vector<float> columns;                              ///< a block's column sums
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

/// Σ x_j · j over j in [begin, end) (positions as floats, exact up to 2^24).
double chunked_moment(const float* x, const float* positions, Index begin, Index end) {
    constexpr Index kChunk = 256;
    double total = 0;
    for (Index c = begin; c < end; c += kChunk) {
        const Index n = std::min(kChunk, end - c);
        total += double((Eigen::Map<const Eigen::ArrayXf>(x + c, n) *
                         Eigen::Map<const Eigen::ArrayXf>(positions + c, n))
                            .sum());
    }
    return total;
}

}  // namespace

HeadStatisticsSink::HeadStatisticsSink(std::int64_t layers, std::int64_t heads, std::int64_t length,
                                       bool causal, bool keep_residuals)
    : layers_(layers),
      heads_(heads),
      length_(length),
      causal_(causal),
      keep_residuals_(keep_residuals) {
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
    positions_.resize(std::size_t(length));
    for (std::size_t j = 0; j < positions_.size(); ++j)
        positions_[j] = float(j);
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
        s->terms.resize(std::size_t(length_));
        s->columns.resize(std::size_t(length_));
    }
}

void HeadStatisticsSink::on_rows(std::int64_t layer, std::size_t slot, const RowBlock& b) {
    if (b.keys != length_ || b.head < 0 || b.head >= heads_ || b.first_row < 0 ||
        b.first_row + b.rows > length_ || slot >= slots_.size())
        throw std::invalid_argument("a block of attention rows does not fit the statistics of " +
                                    std::to_string(length_) + " tokens");
    Sums& sums = *slots_[slot];
    auto& m = sums.measures[std::size_t(b.head)];
    float* first_token = stats_.first_token.data() + (layer * heads_ + b.head) * length_;
    const float* pos = positions_.data();
    const Index L = length_;
    // Column sums in float over at most kColumnRows rows at a time, then added to the slot's
    // double sums: vector speed, and no float sum ever runs long enough to lose precision.
    constexpr Index kColumnRows = 32;
    double* received = sums.received.data() + b.head * length_;
    Eigen::Map<Eigen::ArrayXf> columns(sums.columns.data(), L);
    Index widest = 0;  // the columns the rows since the last flush reached
    const auto flush = [&] {
        for (Index j = 0; j < widest; ++j)
            received[j] += double(columns[j]);
        columns.head(widest).setZero();
        widest = 0;
    };
    columns.setZero();
    for (Index r = 0; r < b.rows; ++r) {
        if (r % kColumnRows == 0) flush();
        const Index i = b.first_row + r;
        const float* row = b.weights + r * b.keys;
        const Index keys = causal_ ? i + 1 : L;
        const Eigen::Map<const Eigen::ArrayXf> p(row, keys);
        // −Σ p ln p: each term in float, vectorized (p ln p of a weight is exact to a few
        // ulps), summed by chunked_sum as every sum below.  ln(p + FLT_MIN) makes 0 ln 0 be 0
        // without a select, which Eigen 3.4 does not vectorize; any weight above 1e-31 is
        // unchanged by the addition, and those below add nothing that shows.
        Eigen::Map<Eigen::ArrayXf> terms(sums.terms.data(), keys);
        terms = p * (p + std::numeric_limits<float>::min()).log();
        const double e = -chunked_sum(terms.data(), keys);
        // Σ_j p_j |i − j| = i·Σ_{j≤i} p_j − Σ_{j≤i} j p_j + Σ_{j>i} j p_j − i·Σ_{j>i} p_j
        const Index left = i + 1;
        double distance = double(i) * chunked_sum(row, left) - chunked_moment(row, pos, 0, left);
        if (keys > left)
            distance += chunked_moment(row, pos, left, keys) -
                        double(i) * chunked_sum(row + left, keys - left);
        m[Entropy] += e;
        if (keys > 1) {
            m[Broad] += e / std::log(double(keys));
            m[BroadRows] += 1;
        }
        m[Distance] += distance;
        m[Self] += row[i];
        if (i > 0) {
            m[First] += row[0];
            m[Previous] += row[i - 1];
        }
        columns.head(keys) += p;
        widest = std::max(widest, keys);
        first_token[i] = row[0];
    }
    flush();
}

void HeadStatisticsSink::end_rows(std::int64_t layer) {
    const double L = double(length_);
    for (std::int64_t h = 0; h < heads_; ++h) {
        std::array<double, MeasureCount> t{};
        for (const auto& s : slots_)  // in slot order: the same sums whatever ran them
            for (int k = 0; k < MeasureCount; ++k)
                t[std::size_t(k)] += s->measures[std::size_t(h)][std::size_t(k)];
        HeadMeasures& m = stats_.atlas.at(layer, h);
        m.entropy = t[Entropy] / L;
        m.broadness = t[BroadRows] > 0 ? t[Broad] / t[BroadRows] : 0.0;
        m.mean_distance = t[Distance] / L;
        m.self = t[Self] / L;
        m.first = length_ > 1 ? t[First] / (L - 1) : 0.0;
        m.previous = length_ > 1 ? t[Previous] / (L - 1) : 0.0;
        float* received = stats_.received.data() + (layer * heads_ + h) * length_;
        for (std::int64_t j = 0; j < length_; ++j) {
            double sum = 0;
            for (const auto& s : slots_)
                sum += s->received[std::size_t(h * length_ + j)];
            received[j] = float(sum / (causal_ ? double(length_ - j) : L));
        }
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

HeadStatistics statistics_from_maps(const std::vector<Tensor>& layers, bool causal) {
    if (layers.empty()) return {};
    const Tensor& front = layers.front();
    const std::int64_t L = front.dim(front.rank() - 1);
    const std::int64_t H = L > 0 ? std::int64_t(front.numel()) / (L * L) : 0;
    HeadStatisticsSink sink(std::int64_t(layers.size()), H, L, causal);
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
    return statistics_from_maps(layers, causal).atlas;
}

std::string statistics_json(const HeadStatistics& s, const std::vector<std::string>& tokens) {
    std::string out = "{\"tokens\":[";
    for (std::size_t i = 0; i < tokens.size(); ++i)
        out += (i ? "," : "") + io::json::quote(tokens[i]);
    out += "],\"layers\":" + std::to_string(s.layers) +
           ",\"heads_per_layer\":" + std::to_string(s.heads) +
           ",\"length\":" + std::to_string(s.length) +
           ",\"causal\":" + (s.causal ? "true" : "false") + ",\"heads\":[";
    char buf[32];
    const auto number = [&](double v) {
        std::snprintf(buf, sizeof buf, "%.6g", v);
        return std::string(buf);
    };
    const auto curve = [&](const float* v) {
        std::string c = "[";
        for (std::int64_t j = 0; j < s.length; ++j)
            c += (j ? "," : "") + number(double(v[j]));
        return c + "]";
    };
    for (std::int64_t l = 0; l < s.layers; ++l)
        for (std::int64_t h = 0; h < s.heads; ++h) {
            const HeadMeasures& m = s.atlas.at(l, h);
            out += (l || h ? ",{" : "{");
            out += "\"layer\":" + std::to_string(l + 1) + ",\"head\":" + std::to_string(h + 1);
            for (const std::string& name : head_measure_names())
                if (name != "induction")  // not measured by this pass
                    out += ",\"" + name + "\":" + number(head_measure(m, name));
            out += ",\"labels\":[";
            for (std::size_t k = 0; k < m.labels.size(); ++k)
                out += (k ? "," : "") + io::json::quote(m.labels[k]);
            out += "],\"received\":" + curve(s.received_of(l, h)) +
                   ",\"first_token\":" + curve(s.first_token_of(l, h)) + "}";
        }
    return out + "]}";
}

StatisticsRun compute_statistics(const Model& model, const ModelInput& input,
                                 const StatisticsOptions& options) {
    const ModelInfo& info = model.info();
    HeadStatisticsSink sink(info.num_layers, info.num_heads, std::int64_t(input.ids.size()),
                            info.causal, options.keep_residuals);
    ModelForwardOptions forward;
    forward.attention = false;  // rows only: no map is ever kept
    forward.num_threads = options.num_threads;
    forward.control = options.control;
    model.forward(input, forward, sink);
    StatisticsRun run;
    run.residuals = sink.take_residuals();
    run.statistics = sink.take();
    return run;
}

std::size_t statistics_bytes(const ModelInfo& info, std::int64_t tokens, bool keep_residuals,
                             int threads) {
    const auto L = std::size_t(std::max<std::int64_t>(tokens, 0));
    const auto heads = std::size_t(info.num_heads), layers = std::size_t(info.num_layers);
    std::size_t bytes = 2 * layers * heads * L * sizeof(float);               // curves
    bytes += std::size_t(std::max(threads, 1)) * heads * L * sizeof(double);  // slots
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
