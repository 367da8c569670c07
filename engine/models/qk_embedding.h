// The joint query–key view of one head (AttentionViz, Yeh et al., IEEE VIS 2023): every query
// and every key vector the head computes over a corpus, in one space, projected to 2D.
//
// The vectors are those the attention reads: the residual stream before the head's layer
// through the layer's norm (pre-norm families), the head's rows of the q and k projections
// with their biases, Qwen3's q/k norms, the rotation at the token's position (RoPE); not the
// score scale.  Under grouped-query attention a query head's keys are its key/value head's.
//
// Normalisation (AttentionViz §4.1: two free parameters of attention).  With q̄, k̄ the means
// and s_q, s_k the mean distances of the queries and keys to their own mean:
//   queries  q' = c q,      keys  k' = k / c + (c q̄ − k̄ / c),      c = √(s_k / s_q).
// Scaling queries by c and keys by 1/c leaves every q·k unchanged; translating the keys adds
// q'·t to each of a query's scores, which its softmax ignores.  So the head's attention is
// exactly the same, and queries and keys now share a centre (c q̄) and a spread (√(s_q s_k)).
//
// Projections to 2D, each deterministic (no random start) and linear:
//   pca     the principal components of the 2n normalised points together (centred on their
//           mean), each axis signed so that its largest component is positive;
//   cosine  the same of the points' directions x / |x| (before the keys' translation, which
//           changes angles): there ‖q̂ − k̂‖² = 2 − 2 cos θ, so a key near a query is one the
//           query's dot product favours up to the key's length, whatever the norms of the
//           vectors; the Euclidean view mixes length and direction.
// UMAP and t-SNE (AttentionViz's own) are left out: no C or C++ implementation is packaged
// (Debian has umap-learn, Python, and R's uwot), and both are random and slow at 100,000
// points; the two linear views say how much of the variance they show.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/models/model.h"

namespace attnviz::models {

/// Rebuilds one head's queries and keys from the residual stream before its layer.
class QueryKeyReader {
  public:
    /// Reads the layer's weights once (Model::attention_weights).  std::invalid_argument for a
    /// head the model does not have.
    QueryKeyReader(const Model& model, HeadRef head);
    HeadRef head() const { return head_; }
    std::int64_t dim() const { return d_; }
    /// `residual` [L, hidden] (AttentionSink::on_residual before the head's layer, one text):
    /// appends its L queries to `queries` and L keys to `keys` ([L, dim] each, row-major).
    void read(const Tensor& residual, std::vector<float>* queries, std::vector<float>* keys,
              int threads = 1) const;

  private:
    HeadRef head_;
    std::int64_t hidden_, d_;
    bool pre_norm_, rms_, rotary_;
    double eps_;
    Tensor norm_weight_, norm_bias_;  ///< empty for post-norm families
    Tensor wq_, bq_, wk_, bk_;        ///< the head's rows [d, hidden] and biases [d] (or empty)
    Tensor q_norm_, k_norm_;          ///< [d] or empty
    std::vector<double> inv_freq_;
};

/// A projection of `rows` points to 2D.
struct Projection2d {
    std::vector<float> points;          ///< [rows, 2]
    std::array<double, 2> explained{};  ///< each axis's share of the points' total variance
    std::vector<double> axes;           ///< [2, dim]: the unit directions projected on
};

/// The principal components of `x` ([rows, dim], row-major): the points centred on their mean
/// and projected on the covariance's two leading eigenvectors (Eigen's SelfAdjointEigenSolver,
/// in double), each signed so that its largest component is positive.  One point or none:
/// zeros.
Projection2d principal_components_2d(const float* x, std::int64_t rows, std::int64_t dim);

struct QkNormalisation {
    double query_scale = 1.0;      ///< c: queries × c, keys × 1/c
    std::vector<float> key_shift;  ///< c q̄ − k̄ / c, added to the scaled keys
    double spread = 0.0;           ///< the shared mean distance to the centre, √(s_q s_k)
};

/// The joint view of n queries and n keys ([n, dim] each): points 0..n−1 are the queries,
/// n..2n−1 the keys, in both projections.
struct JointQueryKeys {
    std::int64_t count = 0, dim = 0;
    QkNormalisation normalisation;
    Projection2d pca, cosine;
};
JointQueryKeys joint_query_keys(const std::vector<float>& queries, const std::vector<float>& keys,
                                std::int64_t dim);

}  // namespace attnviz::models
