#include "engine/models/head_atlas.h"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when Eigen's packet
// log and max are inlined here (the intrinsics' undefined "source" operand), as in
// engine/ops/nn.cpp: a false positive that would fail -Werror builds on AVX-512 machines.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "engine/ops/random.h"

namespace attnviz::models {

namespace {
using Eigen::Index;

/// What one pass over a row's weights sums (row_pass).
struct RowSums {
    double plogp = 0;         ///< Σ p ln p
    float max = 0;            ///< max p
    double left = 0;          ///< Σ_{j < split} p_j
    double left_moment = 0;   ///< Σ_{j < split} j p_j
    double right = 0;         ///< Σ_{j ≥ split} p_j
    double right_moment = 0;  ///< Σ_{j ≥ split} j p_j
};

/// Every sum the measures take of one row, and (kPool) the row added to the pooling's float
/// column sums and maxima, in one pass over p[0, n) (each weight loaded once; six passes
/// before, 2.9 cycles a weight, bench/stats_sink_bench).  In float within chunks of 256 (vector
/// lanes), in double across them: an 8,192-key row loses nothing that matters.
/// ln(p + FLT_MIN) makes 0 ln 0 be 0 without a select: any weight above 1e-31 is unchanged by
/// the addition, and those below add nothing that shows.  Positions are exact in float up to
/// 2^24 keys.  Without kEntropy (the softmax gave it) no logarithm is taken: the logarithm was
/// 3/4 of the statistics pass's reduction (0.89 against 0.25 ns a weight, bench/stats_sink_bench).
template <bool kPool, bool kEntropy>
RowSums row_pass(const float* p, Index n, Index split, float* columns, float* column_max) {
    namespace ei = Eigen::internal;
    using Packet = ei::packet_traits<float>::type;
    constexpr Index W = ei::packet_traits<float>::size;
    constexpr Index kChunk = 256;
    const Packet tiny = ei::pset1<Packet>(std::numeric_limits<float>::min());
    const Packet step = ei::pset1<Packet>(float(W));
    RowSums out;
    Packet mx = ei::pset1<Packet>(0.0f);
    float mx_tail = 0.0f;
    // [begin, end) is one side of the split: its sum and moment go to (sum, moment).
    const auto side = [&](Index begin, Index end, double& sum, double& moment) {
        for (Index c = begin; c < end; c += kChunk) {
            const Index stop = std::min(c + kChunk, end);
            Packet e = ei::pset1<Packet>(0.0f), t = e, m = e;
            Packet position = ei::plset<Packet>(float(c));
            Index j = c;
            for (; j + W <= stop; j += W, position = ei::padd(position, step)) {
                const Packet x = ei::ploadu<Packet>(p + j);
                if constexpr (kEntropy) e = ei::padd(e, ei::pmul(x, ei::plog(ei::padd(x, tiny))));
                t = ei::padd(t, x);
                m = ei::pmadd(x, position, m);
                mx = ei::pmax(mx, x);
                if constexpr (kPool) {
                    ei::pstoreu(columns + j, ei::padd(ei::ploadu<Packet>(columns + j), x));
                    ei::pstoreu(column_max + j, ei::pmax(ei::ploadu<Packet>(column_max + j), x));
                }
            }
            float es = ei::predux(e), ts = ei::predux(t), ms = ei::predux(m);
            for (; j < stop; ++j) {
                const float x = p[j];
                if constexpr (kEntropy) es += x * std::log(x + std::numeric_limits<float>::min());
                ts += x;
                ms += x * float(j);
                mx_tail = std::max(mx_tail, x);
                if constexpr (kPool) {
                    columns[j] += x;
                    column_max[j] = std::max(column_max[j], x);
                }
            }
            out.plogp += double(es);
            sum += double(ts);
            moment += double(ms);
        }
    };
    side(0, std::min(split, n), out.left, out.left_moment);
    side(std::min(split, n), n, out.right, out.right_moment);
    out.max = std::max(ei::predux_max(mx), mx_tail);
    return out;
}

/// row_pass, pooling when there are columns to pool into.
template <bool kEntropy>
RowSums row_sums(const float* p, Index n, Index split, float* columns, float* column_max) {
    return columns && column_max ? row_pass<true, kEntropy>(p, n, split, columns, column_max)
                                 : row_pass<false, kEntropy>(p, n, split, nullptr, nullptr);
}

/// Σ row[j] over the keys in `keys` that the row sees; empty when there are no such keys.
std::optional<double> share(const float* row, const std::vector<std::int64_t>& keys,
                            std::int64_t seen) {
    if (keys.empty()) return std::nullopt;
    double sum = 0;
    for (const std::int64_t j : keys)
        if (j >= 0 && j < seen) sum += double(row[j]);
    return sum;
}

}  // namespace

SpecialKeys special_keys(const std::vector<std::string>& tokens) {
    SpecialKeys out;
    for (std::size_t j = 0; j < tokens.size(); ++j) {
        if (tokens[j] == "[CLS]") out.cls.push_back(std::int64_t(j));
        if (tokens[j] == "[SEP]") out.sep.push_back(std::int64_t(j));
    }
    return out;
}

RowMeasures measure_row(const float* row, std::int64_t i, const MapLayout& layout, float* columns,
                        float* column_max, const double* entropy) {
    const std::int64_t seen = layout.seen(i);
    const RowSums r = entropy ? row_sums<false>(row, seen, i + 1, columns, column_max)
                              : row_sums<true>(row, seen, i + 1, columns, column_max);
    RowMeasures out;
    out.entropy = entropy ? *entropy : -r.plogp;
    out.max_weight = double(r.max);
    // Σ_j p_j |i − j| = i·Σ_{j≤i} p_j − Σ_{j≤i} j p_j + Σ_{j>i} j p_j − i·Σ_{j>i} p_j
    const double at = double(i);
    out.distance = at * r.left - r.left_moment + r.right_moment - at * r.right;
    if (seen > 1) out.broadness = out.entropy / std::log(double(seen));
    if (seen > 0 && (i > 0 || !layout.self_attention)) out.first = double(row[0]);
    out.cls = share(row, layout.special.cls, seen);
    out.sep = share(row, layout.special.sep, seen);
    if (layout.self_attention && i < seen) out.self = double(row[i]);
    if (i > 0 && i - 1 < seen) out.previous = double(row[i - 1]);
    return out;
}

double HeadMeasureSums::Mean::value() const {
    return rows > 0 ? sum / double(rows) : std::numeric_limits<double>::quiet_NaN();
}

void HeadMeasureSums::add(const RowMeasures& row) {
    ++rows_;
    entropy_.add(row.entropy);
    max_weight_.add(row.max_weight);
    distance_.add(row.distance);
    broadness_.add(row.broadness);
    first_.add(row.first);
    cls_.add(row.cls);
    sep_.add(row.sep);
    self_.add(row.self);
    previous_.add(row.previous);
}

HeadMeasureSums& HeadMeasureSums::operator+=(const HeadMeasureSums& o) {
    rows_ += o.rows_;
    for (auto [mine, theirs] :
         {std::pair{&entropy_, &o.entropy_}, std::pair{&broadness_, &o.broadness_},
          std::pair{&max_weight_, &o.max_weight_}, std::pair{&distance_, &o.distance_},
          std::pair{&first_, &o.first_}, std::pair{&cls_, &o.cls_}, std::pair{&sep_, &o.sep_},
          std::pair{&self_, &o.self_}, std::pair{&previous_, &o.previous_}}) {
        mine->sum += theirs->sum;
        mine->rows += theirs->rows;
    }
    return *this;
}

HeadMeasures HeadMeasureSums::means() const {
    HeadMeasures m;
    m.rows = rows_;
    m.entropy = entropy_.value();
    m.broadness = broadness_.value();
    m.max_weight = max_weight_.value();
    m.mean_distance = distance_.value();
    m.first = first_.value();
    m.cls = cls_.value();
    m.sep = sep_.value();
    m.self = self_.value();
    m.previous = previous_.value();
    return m;
}

HeadMeasures measure_head(const float* weights, std::int64_t rows, const MapLayout& layout,
                          const std::uint8_t* fully_masked) {
    HeadMeasureSums sums;
    for (std::int64_t i = 0; i < rows; ++i)
        if (!fully_masked || !fully_masked[i])
            sums.add(measure_row(weights + std::size_t(i * layout.keys), i, layout));
    return sums.means();
}

const std::vector<std::string>& head_measure_names() {
    static const std::vector<std::string> names{"entropy", "broadness", "mean_distance", "first",
                                                "self",    "previous",  "induction"};
    return names;
}

double head_measure(const HeadMeasures& m, const std::string& name) {
    if (name == "entropy") return m.entropy;
    if (name == "broadness") return m.broadness;
    if (name == "mean_distance") return m.mean_distance;
    if (name == "first") return m.first;
    if (name == "self") return m.self;
    if (name == "previous") return m.previous;
    if (name == "induction") return m.induction;
    if (name == "max_weight") return m.max_weight;
    if (name == "cls") return m.cls;
    if (name == "sep") return m.sep;
    throw std::invalid_argument("unknown head measure '" + name + "'");
}

std::string HeadAtlas::to_csv() const {
    std::ostringstream out;
    out.precision(6);
    out << "layer,head";
    for (const std::string& n : head_measure_names())
        out << ',' << n;
    out << ",labels\n";
    for (std::int64_t l = 0; l < layers_; ++l)
        for (std::int64_t h = 0; h < heads_; ++h) {
            const HeadMeasures& m = at(l, h);
            out << l + 1 << ',' << h + 1;
            for (const std::string& n : head_measure_names())
                out << ',' << head_measure(m, n);
            out << ',';
            for (std::size_t k = 0; k < m.labels.size(); ++k)
                out << (k ? "+" : "") << m.labels[k];
            out << '\n';
        }
    return out.str();
}

void label_heads(HeadAtlas* atlas, const HeadAtlasThresholds& t) {
    for (std::int64_t l = 0; l < atlas->layers(); ++l)
        for (std::int64_t h = 0; h < atlas->heads(); ++h) {
            HeadMeasures& m = atlas->at(l, h);
            m.labels.clear();
            if (m.previous >= t.previous) m.labels.push_back("previous token");
            if (m.first >= t.sink) m.labels.push_back("sink");
            if (m.self >= t.self) m.labels.push_back("self");
            if (m.induction >= t.induction) m.labels.push_back("induction");
            if (m.broadness >= t.broad) m.labels.push_back("broad");
        }
}

std::vector<std::int64_t> induction_sequence(std::int64_t first, std::int64_t period,
                                             std::int64_t low, std::int64_t high,
                                             std::uint64_t seed) {
    if (period < 2 || high - low < 2)
        throw std::invalid_argument(
            "an induction sequence needs a period of 2 or more tokens "
            "from a range of 2 or more ids");
    ops::Random rng(seed);
    std::vector<std::int64_t> once;
    for (std::int64_t k = 0; k < period; ++k)
        once.push_back(low +
                       std::int64_t(rng.uniform(0.0f, 1.0f) * float(high - low)) % (high - low));
    std::vector<std::int64_t> ids{first >= 0 ? first : once.front()};
    for (int copy = 0; copy < 2; ++copy)
        ids.insert(ids.end(), once.begin(), once.end());
    return ids;
}

double induction_score(const float* p, std::int64_t L, std::int64_t period) {
    double sum = 0;
    std::int64_t rows = 0;
    // Query i of the second copy: its earlier occurrence is i − period, the token after it
    // i − period + 1.
    for (std::int64_t i = std::max<std::int64_t>(L - period, period); i < L; ++i, ++rows)
        sum += p[std::size_t(i * L + (i - period + 1))];
    return rows ? sum / double(rows) : 0.0;
}

void add_induction_scores(const Model& model, std::int64_t bos, HeadAtlas* atlas,
                          std::int64_t period, std::uint64_t seed, int num_threads,
                          const HeadAtlasThresholds& thresholds) {
    const ModelInfo& info = model.info();
    period = std::min(period, (info.max_positions - 1) / 2);
    // Ordinary tokens: above the first few ids, which are special or bytes in most vocabularies.
    const std::int64_t low = std::min<std::int64_t>(info.vocab_size / 4, 256);
    ModelInput input;
    input.ids = induction_sequence(bos, period, low, info.vocab_size, seed);
    CollectingSink sink;
    ModelForwardOptions options;
    options.num_threads = num_threads;
    model.forward(input, options, sink);
    const std::int64_t L = std::int64_t(input.ids.size()), H = atlas->heads();
    for (std::size_t k = 0; k < sink.results.size(); ++k) {
        const Tensor& w = sink.results[k].weights;
        for (std::int64_t h = 0; h < H; ++h)
            atlas->at(sink.layers[k], h).induction =
                induction_score(w.ptr() + std::size_t(h * L * L), L, period);
    }
    label_heads(atlas, thresholds);
}

}  // namespace attnviz::models
