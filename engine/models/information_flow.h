// Information-flow routes (Ferrando & Voita 2024, "Information Flow Routes: Automatically
// Interpreting Language Models at Scale", §3): which earlier tokens and blocks the prediction
// at one position is made of, from one forward pass, by attribution instead of patching.
//
//  * Every block's output is a sum of terms.  The stream after layer l's attention at token i
//    is y = x_i + Σ_j z_ij + b_O: i's own residual x_i and, for each source token j, what the
//    heads bring from it, z_ij = Σ_h α^h_ij f_h(x_j) (f_h: the value through the head's slice
//    of the output projection, effective_attention.h), or per head α^h_ij f_h(x_j).  The stream
//    after the MLP is the MLP's output plus the residual it read.
//  * A term's importance is its proximity to the sum, max(0, ‖y‖ − ‖y − z‖), normalised over
//    the block's terms (the output bias b_O is in y but is no term, as in Meta's LLM
//    Transparency Tool; when every proximity is 0 the residual takes it all).  The paper and
//    the tool measure it with the L1 norm; the L2 norm is computed from dot products and Gram
//    matrices, never a vector per (i, j).
//  * The graph of a prediction (the paper's Algorithm 1) is built top-down: from the stream
//    after the last layer at that position, every edge of importance ≥ τ into a node already in
//    the graph, layer by layer down to the embeddings.
//
// Pre-norm models only (GPT-2, Llama, Qwen): a post-norm encoder normalises each block's sum, so
// its terms do not add up to the next stream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/models/model.h"

namespace attnviz::models {

enum class FlowDistance {
    L1,  ///< the paper's and the LLM Transparency Tool's (Manhattan, after Ferrando et al. 2022)
    L2,  ///< Euclidean
};
const char* flow_distance_name(FlowDistance d);  ///< "l1", "l2"

struct FlowOptions {
    FlowDistance distance = FlowDistance::L1;
    /// The attention's terms per (source token, head) rather than per source token.
    bool per_head = false;
    int num_threads = 1;
    PassControl control;
    /// ModelForwardOptions::weight_cache_bytes of the pass (unset: the model's own limit).
    std::optional<std::size_t> weight_cache_bytes;
};

/// Every block's importances at every token, from one pass.  Layers count from 0 here: layer l's
/// blocks read the stream before it (index l, 0 the embeddings) and write the stream after it
/// (index l + 1).
struct InformationFlow {
    std::int64_t layers = 0, heads = 0, tokens = 0;
    FlowDistance distance = FlowDistance::L1;
    bool per_head = false;
    /// [layers, L, terms]: the importance of each term of the stream after layer l's attention
    /// at token i: source j's term in column j (per head: head h's from j in column h·L + j), the
    /// residual x_i in the last column.  Each row sums to 1; a source the mask hides has 0.
    Tensor attention;
    /// [layers, L, 2]: the MLP's output and the residual, in the stream after layer l's MLP;
    /// empty for an attention-only model.
    Tensor mlp;
};

/// Throws std::invalid_argument for a post-norm model; what forward() throws.
InformationFlow information_flow(const Model& model, const ModelInput& input,
                                 const FlowOptions& options = {});

/// A stream of the graph: at `position` (from 0), after layer `layer` (from 1; 0: the
/// embeddings) had its attention or its MLP run.
struct FlowNode {
    enum class After { Embeddings, Attention, Mlp };
    std::int64_t layer = 0, position = 0;
    After after = After::Embeddings;
    const char* after_name() const;  ///< "embeddings", "attention", "mlp"
    auto operator<=>(const FlowNode&) const = default;
};

/// A term of `to`'s block read from `from`.
struct FlowEdge {
    enum class Via {
        Attention,  ///< source token from → to through every head (z_ij)
        Head,       ///< the same through head `head` alone
        Mlp,        ///< the MLP, from the stream after the attention to the layer's output
        Residual,   ///< the stream carried on unchanged
    };
    FlowNode from, to;
    Via via = Via::Attention;
    std::int64_t head = -1;  ///< Head: from 0
    double importance = 0.0;
    /// "attention", "L3H4" (layer and head from 1), "mlp", "residual".
    std::string via_name() const;
};

struct FlowGraph {
    std::int64_t position = 0;  ///< from 0
    double threshold = 0.0;
    std::vector<FlowNode> nodes;  ///< by layer, stage, position
    std::vector<FlowEdge> edges;  ///< from the top layer down, as they are found
};

/// The edges of importance ≥ threshold that reach the stream after the last layer at
/// `position`.  Throws std::invalid_argument for a position outside the tokens or a threshold
/// outside (0, 1].
FlowGraph flow_graph(const InformationFlow& flow, std::int64_t position, double threshold);

/// Bytes information_flow() keeps beyond its pass: the importances, one layer's attention rows
/// and its streams.
std::size_t information_flow_bytes(const ModelConfig& config, std::int64_t tokens, bool per_head);

}  // namespace attnviz::models
