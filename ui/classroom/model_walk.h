// A model's whole forward pass at one token as a teacher walks through it: the embeddings,
// each layer's norm, Q, K, V, attention, output projection, residual adds and MLP, then the
// final norm, the logits and the softmax the next token is drawn from.  One stage per vector
// the engine's own pass handed over (models::TokenTrace), with its formula in the words of the
// model's family (LayerNorm or RMSNorm, GELU or a SiLU-gated MLP, learned positions or RoPE,
// pre-norm or BERT's post-norm), what it is, and its shape.  Plain data: the model-walk figure
// draws it, the tests inspect it, nothing here recomputes the pass.
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

#include "engine/models/token_trace.h"
#include "ui/compute/model_trace.h"

namespace attnviz::ui {

struct WalkStage {
    models::TraceStep step = models::TraceStep::Embedding;
    std::int64_t layer = -1;  ///< the trace's layer: -1 embeddings, 0.. layers, layers: output
    QString formula;          ///< "h = LayerNorm(x)"
    QString name;             ///< "norm before attention"
    QString explanation;      ///< one or two sentences for the class
    /// The vector: the trace's own values (never a copy), [rows, cols] row-major.  rows > 1:
    /// one row per head (Q, K, V, the context; the attention: heads × tokens).
    const float* values = nullptr;
    int rows = 1;
    int cols = 0;
    bool probabilities = false;  ///< the attention weights: in [0, 1]

    float value(int row, int col) const { return values[std::size_t(row) * cols + col]; }
    std::size_t size() const { return std::size_t(rows) * std::size_t(cols); }
    /// "768", "12 heads × 64", "12 heads × 9 tokens".
    QString shapeText() const;
    double norm() const;  ///< ‖x‖ over every value
    float minimum() const;
    float maximum() const;
};

struct WalkSection {
    enum class Kind { Embeddings, Layer, Output };
    Kind kind = Kind::Embeddings;
    int layer = -1;  ///< Layer: from 0
    QString title;   ///< "Embeddings", "Layer 3", "Output"
    std::vector<WalkStage> stages;
    /// Layer: ‖x‖ of the residual stream entering and leaving it (NaN when not traced).
    double norm_in = 0.0;
    double norm_out = 0.0;
};

struct ModelWalk {
    QString model_name;
    QString token;              ///< the traced piece, as shown
    std::int64_t position = 0;  ///< from 0
    std::int64_t id = 0;
    std::vector<QString> pieces;
    int layers = 0;
    int heads = 0;
    int kv_heads = 0;
    int hidden = 0;
    int intermediate = 0;  ///< the MLP's inner width (0: no MLP)
    std::int64_t vocab = 0;
    bool causal = true;
    bool masked_lm = false;  ///< BERT's masked-LM head: the logits are of the token here
    bool rotary = false;
    bool pre_norm = true;
    bool gated = false;
    QString norm_name;        ///< "LayerNorm", "RMSNorm"
    QString activation_name;  ///< "GELU", "SiLU", "ReLU"
    std::vector<WalkSection> sections;
    /// The logits ([vocab], the trace's own), null when the model has no LM head.
    const float* logits = nullptr;
    /// The prediction's formula and words (the figure's last panel).
    QString prediction_formula;  ///< "p = softmax(z / T)"
    QString prediction_name;     ///< "next-token probabilities"
    QString prediction_explanation;

    bool empty() const { return sections.empty(); }
    int stageCount() const;
    /// The section of layer `layer` (from 0), or -1.
    int sectionOfLayer(int layer) const;
};

/// The walk through `trace`.  Which stages appear follows the steps the trace holds; their
/// words follow the model's family (its config when trace.model is set, else ModelInfo).
ModelWalk build_model_walk(const ModelTrace& trace);

}  // namespace attnviz::ui
