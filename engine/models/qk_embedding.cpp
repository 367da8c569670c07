#include "engine/models/qk_embedding.h"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when Eigen's packets
// are inlined here, as in head_statistics.cpp: a false positive under -Werror.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>

#include "engine/ops/nn.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;
using RowMajorF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Rows [first, first + count) of a [rows, cols] tensor (all of a 1-D one's when it is empty).
Tensor rows_of(const Tensor& t, Index first, Index count) {
    if (t.empty()) return {};
    const Index cols = t.rank() > 1 ? t.dim(1) : 1;
    std::vector<float> out(t.data.begin() + first * cols, t.data.begin() + (first + count) * cols);
    return t.rank() > 1 ? Tensor({count, cols}, std::move(out)) : Tensor({count}, std::move(out));
}

/// The mean of `rows` points, in double.
Eigen::VectorXd mean_of(const float* x, Index rows, Index dim) {
    const Eigen::Map<const RowMajorF> X(x, rows, dim);
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(dim);
    for (Index r = 0; r < rows; ++r)
        mean += X.row(r).transpose().cast<double>();
    return rows > 0 ? Eigen::VectorXd(mean / double(rows)) : mean;
}

/// The points' mean and their mean distance to it.
struct Spread {
    Eigen::VectorXd mean;
    double distance = 0.0;
};

Spread spread_of(const float* x, Index rows, Index dim) {
    const Eigen::Map<const RowMajorF> X(x, rows, dim);
    Spread s;
    s.mean = mean_of(x, rows, dim);
    for (Index r = 0; r < rows; ++r)
        s.distance += (X.row(r).transpose().cast<double>() - s.mean).norm();
    if (rows > 0) s.distance /= double(rows);
    return s;
}

}  // namespace

QueryKeyReader::QueryKeyReader(const Model& model, HeadRef head) : head_(head) {
    const ModelConfig& c = model.config();
    if (head.layer < 0 || head.layer >= c.num_layers || head.head < 0 || head.head >= c.num_heads)
        throw std::invalid_argument("head " + std::to_string(head.layer + 1) + "." +
                                    std::to_string(head.head + 1) + " is not one of the " +
                                    std::to_string(c.num_layers) + " × " +
                                    std::to_string(c.num_heads) + " heads");
    hidden_ = c.hidden_size;
    d_ = c.head_dim;
    pre_norm_ = c.pre_norm();
    rms_ = c.family == Family::Llama;
    rotary_ = c.rotary();
    eps_ = c.norm_eps;
    const AttentionWeights w = model.attention_weights(head.layer);
    const Index kv_head = head.head / (c.num_heads / c.num_kv_heads);
    wq_ = rows_of(w.q, head.head * d_, d_);
    bq_ = rows_of(w.q_bias, head.head * d_, d_);
    wk_ = rows_of(w.k, kv_head * d_, d_);
    bk_ = rows_of(w.k_bias, kv_head * d_, d_);
    if (pre_norm_) {
        norm_weight_ = w.norm_weight;
        norm_bias_ = w.norm_bias;
    }
    q_norm_ = w.q_norm;
    k_norm_ = w.k_norm;
    if (rotary_) inv_freq_ = model.rotary_inv_freq();
}

void QueryKeyReader::read(const Tensor& residual, std::vector<float>* queries,
                          std::vector<float>* keys, int threads) const {
    const Index L = Index(residual.numel()) / hidden_;
    if (L * hidden_ != Index(residual.numel()))
        throw std::invalid_argument("a residual stream of " + std::to_string(residual.numel()) +
                                    " values is no [L, " + std::to_string(hidden_) + "]");
    std::vector<float> x(residual.data);
    const auto eps = float(eps_);
    if (pre_norm_) {
        if (rms_)
            ops::rms_norm(x.data(), L, hidden_, norm_weight_.ptr(), eps);
        else
            ops::layer_norm(x.data(), L, hidden_, norm_weight_.ptr(), norm_bias_.ptr(), eps);
    }
    std::vector<Index> positions(static_cast<std::size_t>(L));
    std::iota(positions.begin(), positions.end(), Index{0});
    for (const auto& [out, w, b, norm] :
         {std::tuple{queries, &wq_, &bq_, &q_norm_}, std::tuple{keys, &wk_, &bk_, &k_norm_}}) {
        const std::size_t at = out->size();
        out->resize(at + std::size_t(L * d_));
        float* y = out->data() + at;
        ops::linear(x.data(), L, hidden_, w->ptr(), b->empty() ? nullptr : b->ptr(), d_, y,
                    threads);
        if (!norm->empty()) ops::rms_norm(y, L, d_, norm->ptr(), eps);
        if (rotary_) ops::apply_rotary(y, L, 1, d_, d_, positions, inv_freq_);
    }
}

Projection2d principal_components_2d(const float* x, std::int64_t rows, std::int64_t dim) {
    Projection2d out;
    out.points.assign(std::size_t(std::max<Index>(rows, 0) * 2), 0.0f);
    out.axes.assign(std::size_t(2 * dim), 0.0);
    if (rows < 2 || dim < 1) return out;
    const Eigen::Map<const RowMajorF> X(x, rows, dim);
    const Eigen::VectorXd mean = mean_of(x, rows, dim);
    // The covariance in double, a block of rows at a time (no double copy of all points).
    constexpr Index kBlock = 4096;
    Eigen::MatrixXd covariance = Eigen::MatrixXd::Zero(dim, dim);
    for (Index r = 0; r < rows; r += kBlock) {
        const Index n = std::min(kBlock, rows - r);
        const Eigen::MatrixXd centred =
            X.middleRows(r, n).cast<double>().rowwise() - mean.transpose();
        covariance.selfadjointView<Eigen::Lower>().rankUpdate(centred.transpose());
    }
    covariance = covariance.selfadjointView<Eigen::Lower>();
    covariance /= double(rows);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(covariance);
    const double total = std::max(covariance.trace(), 0.0);
    Eigen::MatrixXd axes = Eigen::MatrixXd::Zero(dim, 2);
    for (Index a = 0; a < std::min<Index>(2, dim); ++a) {
        Eigen::VectorXd v = eigen.eigenvectors().col(dim - 1 - a);  // ascending eigenvalues
        Index largest = 0;
        v.cwiseAbs().maxCoeff(&largest);
        if (v[largest] < 0) v = -v;
        axes.col(a) = v;
        out.explained[std::size_t(a)] =
            total > 0 ? std::max(eigen.eigenvalues()[dim - 1 - a], 0.0) / total : 0.0;
        for (Index e = 0; e < dim; ++e)
            out.axes[std::size_t(a * dim + e)] = v[e];
    }
    for (Index r = 0; r < rows; r += kBlock) {
        const Index n = std::min(kBlock, rows - r);
        const Eigen::MatrixXd p =
            (X.middleRows(r, n).cast<double>().rowwise() - mean.transpose()) * axes;
        for (Index i = 0; i < n; ++i)
            for (Index a = 0; a < 2; ++a)
                out.points[std::size_t((r + i) * 2 + a)] = float(p(i, a));
    }
    return out;
}

JointQueryKeys joint_query_keys(const std::vector<float>& queries, const std::vector<float>& keys,
                                std::int64_t dim) {
    if (dim <= 0 || queries.size() != keys.size() || queries.size() % std::size_t(dim) != 0)
        throw std::invalid_argument("the joint view needs as many queries as keys of " +
                                    std::to_string(dim) + " values each, not " +
                                    std::to_string(queries.size()) + " and " +
                                    std::to_string(keys.size()) + " values");
    JointQueryKeys out;
    out.dim = dim;
    const Index n = Index(queries.size()) / dim;
    out.count = n;
    const Spread q = spread_of(queries.data(), n, dim), k = spread_of(keys.data(), n, dim);
    const double c = q.distance > 0 && k.distance > 0 ? std::sqrt(k.distance / q.distance) : 1.0;
    const Eigen::VectorXd shift = c * q.mean - k.mean / c;
    out.normalisation.query_scale = c;
    out.normalisation.spread = std::sqrt(q.distance * k.distance);
    out.normalisation.key_shift.assign(shift.data(), shift.data() + dim);

    // Queries then keys, normalised.
    std::vector<float> points(std::size_t(2 * n * dim));
    for (Index r = 0; r < n; ++r)
        for (Index e = 0; e < dim; ++e) {
            const auto at = std::size_t(r * dim + e);
            points[at] = float(c * queries[at]);
            points[std::size_t(n * dim) + at] = float(keys[at] / c + shift[e]);
        }
    out.pca = principal_components_2d(points.data(), 2 * n, dim);

    // Their directions, from the vectors as the head's dot products read them (the scaling
    // changes no direction; the translation would).
    const auto unit = [dim](const float* v, float* to) {
        double norm = 0.0;
        for (Index e = 0; e < dim; ++e)
            norm += double(v[e]) * v[e];
        norm = std::sqrt(norm);
        for (Index e = 0; e < dim; ++e)
            to[e] = norm > 0 ? float(v[e] / norm) : 0.0f;
    };
    for (Index r = 0; r < n; ++r) {
        unit(queries.data() + r * dim, points.data() + r * dim);
        unit(keys.data() + r * dim, points.data() + (n + r) * dim);
    }
    out.cosine = principal_components_2d(points.data(), 2 * n, dim);
    return out;
}

}  // namespace attnviz::models
