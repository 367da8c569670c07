// Which heads work together, from the weights alone ("A Mathematical Framework for Transformer
// Circuits", Elhage et al. 2021, "Composition" and "Copying / Primitive Instruction"), as
// TransformerLens computes them (HookedTransformer.all_composition_scores,
// utils.composition_scores; its row-vector convention, x · W):
//
//  * Each head's W_OV = W_V W_O and W_QK = W_Q W_Kᵀ [hidden, hidden]; a query head reads key and
//    value head h / (heads / kv_heads).
//  * Composition of an earlier head 1 into a later head 2 (head 1's layer below head 2's):
//        Q: ‖W_OV¹ W_QK²‖_F / (‖W_OV¹‖_F ‖W_QK²‖_F),   K: with (W_QK²)ᵀ,   V: with W_OV².
//  * A head's OV copying score: Σλ / Σ|λ| (real part) over the eigenvalues of W_E W_OV W_U,
//    positive when the head copies the tokens it attends to into the prediction.
//  * The norms are folded in as TransformerLens's fold_layer_norm does: the scale of the norm a
//    head reads through multiplies the hidden side of its W_Q, W_K, W_V, and with LayerNorm
//    (GPT-2) their mean over hidden is taken out (the norm's output has none); the final norm's
//    scale (and LayerNorm's centring) goes into W_U.  Qwen3's q/k norms scale W_Q's and W_K's
//    head_dim side.  Post-norm encoders (BERT) have no norm on a head's input (theirs act on the
//    stream between blocks): their scores are of the weights as stored.
//  * Rotary models: W_QK depends on the distance between query and key; it is taken at a
//    relative offset D (query position − key position), W_Q R(D) W_Kᵀ, R(D) the rotation
//    ops::apply_rotary applies at position D.
//
// Nothing [hidden, hidden] is formed: every norm is one of a [head_dim, head_dim] product,
// through the Gram matrices' square roots (‖A·W_Kᵀ‖ = ‖A·R_Kᵀ‖ when R_Kᵀ R_K = W_Kᵀ W_K), and
// the copying score's eigenvalues are those of W_O (W_U W_E) W_V [head_dim, head_dim], the
// nonzero eigenvalues of a product AB being those of BA.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/models/model.h"

namespace attnviz::models {

struct CircuitOptions {
    /// Rotary models: query position − key position of W_QK (1: the key just before the
    /// query).  Ignored for learned positions.
    std::int64_t rope_offset = 1;
    int num_threads = 1;
    /// Polled between layers and blocks of the vocabulary; progress after each layer.
    PassControl control;
};

struct CircuitScores {
    std::int64_t layers = 0, heads = 0;       ///< N = layers × heads, layer-major
    std::optional<std::int64_t> rope_offset;  ///< rotary models: the offset W_QK is taken at
    bool folded_norms = false;                ///< pre-norm: the norms' scales folded in
    /// [3, N, N]: Q-, K- and V-composition of head i into head j; NaN unless i's layer is below
    /// j's.  0 where a head's matrix is zero.
    Tensor composition;
    /// [N]: each head's OV copying score (NaN for a zero W_OV); empty without a causal LM head.
    std::vector<double> copying;
    std::string copying_missing;  ///< why `copying` is empty
};

/// Reads every layer's attention weights once (and, for copying, the embedding and the
/// unembedding in blocks of rows) and keeps every head's [head_dim, hidden] left factor:
/// layers × heads × head_dim × hidden floats (77 MB for Qwen2.5-0.5B, 2 GB for Llama-3-8B).
/// Throws std::invalid_argument for a rope_offset outside [0, max_positions); Cancelled when
/// stopped; what the weight reads throw.
CircuitScores circuit_scores(const Model& model, const CircuitOptions& options = {});

}  // namespace attnviz::models
