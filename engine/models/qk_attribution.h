// QK attribution: which parts of the residual stream make a query match a key.
//
// A head's pre-softmax score between query i and key j is q_i · k_j times the model's scale,
// where q_i reads the stream at i and k_j the stream at j.  Below the head's layer the stream is
// a sum of components (attribution.h: the embeddings, every earlier head, attention bias and
// MLP), and once the norms' scales are frozen at the full stream's values everything from the
// stream to q and k is linear: LayerNorm's centring, the projection, Qwen3's q/k norms (their
// scales frozen at the full q and k), the rotation (RoPE rotates each part at its position).  So
// q_i = Σ_a q_a and k_j = Σ_b k_b, and the score is the sum over every pair (a, b) of
// q_a · k_b: the query-side and key-side terms of "A Mathematical Framework for Transformer
// Circuits" (Elhage et al. 2021, §4: Q- and K-composition), with the norms frozen as
// TransformerLens's `apply_ln_to_stack` freezes them.  What is no component of the stream (the
// norm's bias, the projection's bias) is a `const` term on its side.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/models/attribution.h"

namespace attnviz::models {

/// One query-side or key-side term: a component of the stream, or the side's constant.
struct QkTerm {
    StreamComponent component;
    bool constant = false;  ///< the norm's and the projection's biases, not `component`
    /// "embed", "L3H4", "L2.attn_bias", "L2.mlp" (layers and heads from 1), or "const".
    std::string name() const { return constant ? "const" : component.name(); }
};

/// A head's score between one query and one key, split into pairs of terms.
struct QkAttribution {
    HeadRef head;                 ///< from 0
    std::int64_t query = 0;       ///< from 0
    std::int64_t key = 0;         ///< from 0, <= query in a causal model
    double score = 0.0;           ///< what the softmax sees, from the full stream
    double scale = 0.0;           ///< the model's factor on q · k (part of every pair)
    std::vector<QkTerm> queries;  ///< the stream's components below the layer, then any const
    std::vector<QkTerm> keys;     ///< the same on the key side (its const may differ)
    /// [queries × keys] row-major: scale · q_a · k_b.  They add up to `score`.
    std::vector<double> pairs;
    double pair(std::size_t a, std::size_t b) const { return pairs[a * keys.size() + b]; }
};

/// One forward pass (decompose()), then the pairs of head `head` between `query` and `key`.
/// Each side's components are projected once (components × hidden × head_dim) and the pairs
/// are their dot products.  Throws std::invalid_argument for a head, query or key out of range,
/// a key after the query in a causal model (the mask hides it), a post-norm model; what
/// forward() throws.
QkAttribution attribute_qk(const Model& model, const ModelInput& input, HeadRef head,
                           std::int64_t query, std::int64_t key,
                           const AttributionOptions& options = {});

/// The same from a record of the text's pass (record_stream): no pass, so every cell of a text
/// after the first costs the projections alone.
QkAttribution attribute_qk(const Model& model, const StreamRecord& record, HeadRef head,
                           std::int64_t query, std::int64_t key,
                           const AttributionOptions& options = {});

}  // namespace attnviz::models
