// Information-flow routes (information_flow.h).
#include "engine/models/information_flow.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <tuple>

#include "engine/errors.h"
#include "engine/models/effective_attention.h"
#include "engine/models/vector_sums.h"
#include "engine/ops/gemm.h"
#include "engine/ops/parallel.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;

/// Query rows per unit of work (units go to the threads in a zigzag, so that the long rows at
/// the end of a causal text are shared out): under L1 few, so that a source's vectors stay in
/// the cache for all of them; under L2 more, for the products with every value.
constexpr Index kL1Rows = 16, kL2Rows = 64;

double norm_of(const float* a, Index n, FlowDistance p) {
    return p == FlowDistance::L2 ? std::sqrt(detail::dot(a, a, n))
                                 : detail::l1_distance(a, a, 0.0f, n);
}

/// max(0, ‖y‖ − ‖y − z‖) under L2 from ‖y‖, y·z and ‖z‖², as (2 y·z − ‖z‖²) / (‖y‖ + ‖y − z‖):
/// no cancellation between two close norms when z is small.
double l2_proximity(double y_norm, double yz, double z2) {
    const double distance = std::sqrt(std::max(0.0, y_norm * y_norm - 2.0 * yz + z2));
    const double sum = y_norm + distance;
    return sum > 0.0 ? std::max(0.0, (2.0 * yz - z2) / sum) : 0.0;
}

/// Proximities [n] (the residual's last) to importances: over their sum, or the residual
/// takes 1 when every proximity is 0 (the block changed nothing that points anywhere).
void normalise(const double* prox, Index n, float* out) {
    double total = 0.0;
    for (Index k = 0; k < n; ++k)
        total += prox[k];
    for (Index k = 0; k < n; ++k)
        out[k] = total > 0.0 ? static_cast<float>(prox[k] / total) : k + 1 == n ? 1.0f : 0.0f;
}

/// Computes each layer's importances from what the pass hands over, as it goes: the stream
/// before the layer, its values, every head's attention rows and its context.  It keeps one
/// layer of them.
class FlowSink final : public AttentionSink {
  public:
    FlowSink(const Model& model, const FlowOptions& options, Index tokens, InformationFlow& out)
        : model_(model),
          c_(model.config()),
          o_(options),
          L_(tokens),
          H_(c_.num_heads),
          terms_(options.per_head ? c_.num_heads * tokens : tokens),
          out_(out) {}

    void on_layer(std::int64_t, AttentionResult&&) override {}
    bool wants_residuals() const override { return true; }
    void on_residual(std::int64_t layer, const Tensor& x) override {
        if (layer > 0 && !out_.mlp.empty()) mlp_block(layer - 1, x);
        if (layer < c_.num_layers) before_ = x;
    }
    bool wants_values() const override { return true; }
    void on_values(std::int64_t, const Tensor& v) override { values_ = v; }
    bool wants_rows() const override { return true; }
    void begin_rows(std::int64_t, std::size_t) override {
        alpha_.assign(static_cast<std::size_t>(H_ * L_ * L_), 0.0f);
    }
    void on_rows(std::int64_t, std::size_t, const RowBlock& b) override {
        // Each (head, rows) block comes from one thread: disjoint writes.  A row's valid
        // weights only: the rest (a causal tail) stays 0.
        for (Index r = 0; r < b.rows; ++r) {
            float* to = alpha_.data() + (b.first_row + r) * L_ * H_ + b.head;
            for (Index j = 0; j < std::min(b.valid(r), L_); ++j)
                to[j * H_] = b.row(r)[j];
        }
    }
    bool wants_contexts() const override { return true; }
    void on_context(std::int64_t layer, const Tensor& context) override {
        attention_block(layer, context);
    }

  private:
    /// Every head's weight of query i on key j, side by side.
    const float* alpha(Index i, Index j) const { return alpha_.data() + (i * L_ + j) * H_; }
    void attention_block(Index layer, const Tensor& context);
    void rows_l1(Index i0, Index n, const std::vector<float>& writes,
                 std::vector<double>& prox) const;
    void rows_l2(Index i0, Index n, const SourceGram& gram, const Tensor& o,
                 std::vector<double>& prox, std::vector<float>& scratch) const;
    void mlp_block(Index layer, const Tensor& after);

    const Model& model_;
    const ModelConfig& c_;
    const FlowOptions& o_;
    const Index L_, H_, terms_;
    InformationFlow& out_;
    Tensor before_, values_;
    std::vector<float> alpha_;             ///< [L (queries), L (keys), H]
    std::vector<float> mid_;               ///< [L, E]: the stream after the attention
    std::vector<double> y_norm_, x_prox_;  ///< [L]: ‖y_i‖, the residual's proximity
};

void FlowSink::attention_block(Index layer, const Tensor& context) {
    const Index E = c_.hidden_size, Hd = H_ * c_.head_dim, L = L_;
    const AttentionWeights w = model_.attention_weights(layer, AttentionParts::Output);
    const int threads = std::max(1, o_.num_threads);
    // y = x + C W_Oᵀ + b_O; the residual's proximity is ‖y‖ − ‖y − x‖ = ‖y‖ − ‖C W_Oᵀ + b_O‖.
    mid_.assign(static_cast<std::size_t>(L * E), 0.0f);
    y_norm_.assign(static_cast<std::size_t>(L), 0.0);
    x_prox_.assign(static_cast<std::size_t>(L), 0.0);
    ops::parallel_for(static_cast<std::size_t>(L), threads, [&](std::size_t b, std::size_t e) {
        const auto i0 = static_cast<Index>(b), n = static_cast<Index>(e - b);
        float* y = mid_.data() + i0 * E;
        ops::gemm(context.ptr() + i0 * Hd, n, Hd, w.o.ptr(), E, y, true);
        for (Index i = i0; i < i0 + n; ++i) {
            float* yi = mid_.data() + i * E;
            if (!w.o_bias.empty())
                for (Index k = 0; k < E; ++k)
                    yi[k] += w.o_bias.ptr()[k];
            const double added = norm_of(yi, E, o_.distance);
            const float* xi = before_.ptr() + i * E;
            for (Index k = 0; k < E; ++k)
                yi[k] += xi[k];
            y_norm_[static_cast<std::size_t>(i)] = norm_of(yi, E, o_.distance);
            x_prox_[static_cast<std::size_t>(i)] =
                std::max(0.0, y_norm_[static_cast<std::size_t>(i)] - added);
        }
    });
    const bool l1 = o_.distance == FlowDistance::L1;
    std::vector<float> writes;  // L1: f_h(x_j) [L, H, E]
    SourceGram gram;            // L2: their Gram matrices
    if (l1) {
        writes.resize(static_cast<std::size_t>(L * H_ * E));
        ops::parallel_for(static_cast<std::size_t>(L), threads, [&](std::size_t b, std::size_t e) {
            head_writes(values_.ptr(), static_cast<Index>(b), static_cast<Index>(e - b),
                        c_.num_kv_heads, w.o, H_, writes.data() + static_cast<Index>(b) * H_ * E);
        });
    } else {
        gram = SourceGram(values_.ptr(), L, c_.num_kv_heads, w.o, H_, threads);
    }
    const Index block = l1 ? kL1Rows : kL2Rows, blocks = (L + block - 1) / block;
    const auto units = static_cast<Index>(std::min<Index>(threads, blocks));
    ops::parallel_chunks(
        static_cast<std::size_t>(units), threads, [&](std::size_t unit, std::size_t, std::size_t) {
            std::vector<double> prox(static_cast<std::size_t>(block * (terms_ + 1)));
            std::vector<float> scratch;
            for (Index k = 0; k < blocks; ++k) {
                // Zigzag: unit u takes blocks u, 2U - 1 - u, 2U + u, ...
                const Index round = k / units, at = k % units;
                if ((round % 2 == 0 ? at : units - 1 - at) != static_cast<Index>(unit)) continue;
                const Index i0 = k * block, n = std::min(block, L - i0);
                std::fill(prox.begin(), prox.end(), 0.0);
                if (l1)
                    rows_l1(i0, n, writes, prox);
                else
                    rows_l2(i0, n, gram, w.o, prox, scratch);
                for (Index r = 0; r < n; ++r) {
                    double* row = prox.data() + r * (terms_ + 1);
                    row[terms_] = x_prox_[static_cast<std::size_t>(i0 + r)];
                    normalise(row, terms_ + 1,
                              out_.attention.ptr() + (layer * L + i0 + r) * (terms_ + 1));
                }
            }
        });
    values_ = Tensor();
}

void FlowSink::rows_l1(Index i0, Index n, const std::vector<float>& writes,
                       std::vector<double>& prox) const {
    const Index E = c_.hidden_size;
    // Source by source, so that its [H, E] vectors stay in the cache for every row of the block.
    for (Index j = 0; j < L_; ++j) {
        const float* u = writes.data() + j * H_ * E;
        for (Index r = 0; r < n; ++r) {
            const Index i = i0 + r;
            const float* a = alpha(i, j);
            if (std::all_of(a, a + H_, [](float v) { return v == 0.0f; }))
                continue;  // a source the mask hides brings nothing
            const float* y = mid_.data() + i * E;
            const double y_norm = y_norm_[static_cast<std::size_t>(i)];
            double* row = prox.data() + r * (terms_ + 1);
            if (o_.per_head) {
                for (Index h = 0; h < H_; ++h)
                    if (a[h] != 0.0f)
                        row[h * L_ + j] =
                            std::max(0.0, y_norm - detail::l1_distance(y, u + h * E, a[h], E));
            } else {  // z_ij = Σ_h α^h_ij f_h(x_j)
                row[j] = std::max(0.0, y_norm - detail::l1_distance_of_sum(y, u, a, H_, E));
            }
        }
    }
}

void FlowSink::rows_l2(Index i0, Index n, const SourceGram& gram, const Tensor& o,
                       std::vector<double>& prox, std::vector<float>& scratch) const {
    const Index E = c_.hidden_size, d = c_.head_dim, Hd = H_ * d, L = L_;
    const Index group = H_ / c_.num_kv_heads, width = c_.num_kv_heads * d;
    // y·f_h(x_j) = (W_O[:, h]ᵀ y) · v_j: the rows' streams into each head's value space, then
    // one product per head with every value, [n, L].
    scratch.resize(static_cast<std::size_t>(n * Hd + n * L));
    float* p = scratch.data();
    float* s = p + n * Hd;
    ops::gemm(mid_.data() + i0 * E, n, E, o.ptr(), Hd, p);
    std::vector<double> yz(o_.per_head ? 0 : static_cast<std::size_t>(n * L), 0.0);
    for (Index h = 0; h < H_; ++h) {
        ops::gemm(p + h * d, n, d, values_.ptr() + (h / group) * d, L, s, true, Hd, width);
        for (Index r = 0; r < n; ++r) {
            const Index i = i0 + r;
            const double y_norm = y_norm_[static_cast<std::size_t>(i)];
            for (Index j = 0; j < L; ++j) {
                const double a = alpha(i, j)[h];
                if (a == 0.0) continue;
                if (o_.per_head) {
                    prox[static_cast<std::size_t>(r * (terms_ + 1) + h * L + j)] =
                        l2_proximity(y_norm, a * s[r * L + j], a * a * gram.at(j, h, h));
                } else {
                    yz[static_cast<std::size_t>(r * L + j)] += a * s[r * L + j];
                }
            }
        }
    }
    if (o_.per_head) return;
    for (Index r = 0; r < n; ++r) {
        const Index i = i0 + r;
        for (Index j = 0; j < L; ++j) {
            const double z2 = gram.combined_squared(j, alpha(i, j), 1);
            if (z2 > 0.0 || std::isnan(z2))
                prox[static_cast<std::size_t>(r * (terms_ + 1) + j)] =
                    l2_proximity(y_norm_[static_cast<std::size_t>(i)],
                                 yz[static_cast<std::size_t>(r * L + j)], z2);
        }
    }
}

void FlowSink::mlp_block(Index layer, const Tensor& after) {
    const Index E = c_.hidden_size;
    ops::parallel_for(static_cast<std::size_t>(L_), std::max(1, o_.num_threads),
                      [&](std::size_t b, std::size_t e) {
                          std::vector<float> m(static_cast<std::size_t>(E));
                          for (auto i = static_cast<Index>(b); i < static_cast<Index>(e); ++i) {
                              const float* y = after.ptr() + i * E;
                              const float* x = mid_.data() + i * E;
                              for (Index k = 0; k < E; ++k)
                                  m[static_cast<std::size_t>(k)] = y[k] - x[k];
                              const double y_norm = norm_of(y, E, o_.distance);
                              // y − m is the residual and y − x the MLP's output.
                              const double prox[2] = {
                                  std::max(0.0, y_norm - norm_of(x, E, o_.distance)),
                                  std::max(0.0, y_norm - norm_of(m.data(), E, o_.distance))};
                              normalise(prox, 2, out_.mlp.ptr() + (layer * L_ + i) * 2);
                          }
                      });
}

}  // namespace

const char* flow_distance_name(FlowDistance d) {
    return d == FlowDistance::L1 ? "l1" : "l2";
}

InformationFlow information_flow(const Model& model, const ModelInput& input,
                                 const FlowOptions& options) {
    const ModelConfig& c = model.config();
    if (!c.pre_norm())  // the model's, not the request's: a data error
        throw DataError(
            c.display_name() +
            " is a post-norm model: a norm sits between its blocks, so a block's output is no "
            "sum of terms (information flow needs GPT-2, Llama or Qwen)");
    const auto L = static_cast<Index>(input.ids.size());
    InformationFlow out;
    out.layers = c.num_layers;
    out.heads = c.num_heads;
    out.tokens = L;
    out.distance = options.distance;
    out.per_head = options.per_head;
    const Index terms = (options.per_head ? c.num_heads * L : L) + 1;
    out.attention = Tensor({c.num_layers, L, terms});
    if (c.intermediate_size > 0) out.mlp = Tensor({c.num_layers, L, 2});
    FlowSink sink(model, options, L, out);
    ModelForwardOptions forward;
    forward.attention = false;
    forward.scope.rows_every_layer = true;
    forward.num_threads = options.num_threads;
    forward.control = options.control;
    forward.weight_cache_bytes = options.weight_cache_bytes;
    model.forward(input, forward, sink);
    return out;
}

const char* FlowNode::after_name() const {
    switch (after) {
        case After::Embeddings:
            return "embeddings";
        case After::Attention:
            return "attention";
        case After::Mlp:
            return "mlp";
    }
    return "";
}

std::string FlowEdge::via_name() const {
    switch (via) {
        case Via::Attention:
            return "attention";
        case Via::Head:
            return "L" + std::to_string(to.layer) + "H" + std::to_string(head + 1);
        case Via::Mlp:
            return "mlp";
        case Via::Residual:
            return "residual";
    }
    return {};
}

FlowGraph flow_graph(const InformationFlow& flow, std::int64_t position, double threshold) {
    const Index L = flow.tokens, N = flow.layers;
    if (position < 0 || position >= L)
        throw std::invalid_argument("position " + std::to_string(position + 1) +
                                    " is not one of the " + std::to_string(L) + " tokens");
    if (!(threshold > 0.0 && threshold <= 1.0))
        throw std::invalid_argument("the threshold must be in (0, 1], not " +
                                    std::to_string(threshold));
    using After = FlowNode::After;
    const bool has_mlp = !flow.mlp.empty();
    const Index terms = flow.attention.dim(2) - 1;
    const auto output = [&](Index layer, Index i) {
        return FlowNode{layer, i,
                        layer == 0 ? After::Embeddings
                        : has_mlp  ? After::Mlp
                                   : After::Attention};
    };
    FlowGraph g;
    g.position = position;
    g.threshold = threshold;
    std::set<FlowNode> nodes{output(N, position)};
    std::set<Index> reached{position};  // the layer's outputs in the graph
    for (Index l = N; l >= 1; --l) {
        std::set<Index> mids;  // the streams after layer l's attention in the graph
        if (has_mlp) {
            for (const Index i : reached) {
                const float* m = flow.mlp.ptr() + ((l - 1) * L + i) * 2;
                const FlowNode from{l, i, After::Attention}, to = output(l, i);
                for (const auto& [via, importance] : {std::pair{FlowEdge::Via::Mlp, m[0]},
                                                      std::pair{FlowEdge::Via::Residual, m[1]}})
                    if (importance >= threshold) {
                        g.edges.push_back({from, to, via, -1, importance});
                        mids.insert(i);
                    }
            }
        } else {
            mids = reached;
        }
        std::set<Index> below;
        for (const Index i : mids) {
            const FlowNode to{l, i, After::Attention};
            nodes.insert(to);
            const float* row = flow.attention.ptr() + ((l - 1) * L + i) * (terms + 1);
            for (Index k = 0; k < terms; ++k)
                if (row[k] >= threshold) {
                    const Index j = k % L, h = flow.per_head ? k / L : -1;
                    g.edges.push_back(
                        {output(l - 1, j), to,
                         flow.per_head ? FlowEdge::Via::Head : FlowEdge::Via::Attention, h,
                         row[k]});
                    below.insert(j);
                }
            if (row[terms] >= threshold) {
                g.edges.push_back({output(l - 1, i), to, FlowEdge::Via::Residual, -1, row[terms]});
                below.insert(i);
            }
        }
        for (const Index j : below)
            nodes.insert(output(l - 1, j));
        reached = std::move(below);
    }
    g.nodes.assign(nodes.begin(), nodes.end());
    std::stable_sort(g.nodes.begin(), g.nodes.end(), [](const FlowNode& a, const FlowNode& b) {
        return std::tie(a.layer, a.after, a.position) < std::tie(b.layer, b.after, b.position);
    });
    return g;
}

std::size_t information_flow_bytes(const ModelConfig& c, std::int64_t tokens, bool per_head) {
    const auto L = static_cast<std::size_t>(tokens);
    const auto N = static_cast<std::size_t>(c.num_layers),
               H = static_cast<std::size_t>(c.num_heads);
    const auto E = static_cast<std::size_t>(c.hidden_size);
    const std::size_t terms = (per_head ? H * L : L) + 1;
    const std::size_t importances = N * L * (terms + 2) * sizeof(float);
    const std::size_t layer = H * L * L * sizeof(float)    // attention rows
                              + 4 * L * E * sizeof(float)  // streams, values, context
                              + L * H * std::max(E * sizeof(float), H * sizeof(double));
    return importances + layer;
}

}  // namespace attnviz::models
