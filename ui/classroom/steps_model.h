// The computation of one head as a teacher walks through it: softmax(QKᵀ/√d_k + M) V W_O,
// one stage per intermediate the engine filled during its forward pass (StepTensors), with
// the formula, the shape and where each cell came from.  Plain data: the steps figure
// draws it, the tests inspect it, nothing here recomputes the attention.
#pragma once

#include <QString>

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "ui/compute/attention_snapshot.h"

namespace attnviz::ui {

enum class StageId {
    Input,         ///< X (queries' input)
    KeyInput,      ///< X' (keys/values' input; cross-attention only)
    Query,         ///< Q = X W_Q
    Key,           ///< K = X W_K
    QueryRotated,  ///< Q′ = RoPE(Q) (rotary models)
    KeyRotated,    ///< K′ = RoPE(K)
    Value,         ///< V = X W_V
    Scores,        ///< Q Kᵀ
    Scaled,        ///< ÷ √d_k
    Masked,        ///< + M
    Softmax,       ///< softmax over each row
    Dropout,       ///< dropout (identity in eval mode)
    Context,       ///< × V
    Concat,        ///< all heads side by side
    Output,        ///< × W_O = output
};

/// What the rows or columns of a stage's matrix stand for.
enum class StageAxis { Queries, Keys, Model, Head };  ///< tokens, tokens, embed_dim, d_k

struct Stage {
    StageId id = StageId::Input;
    QString formula;      ///< "Q = X W_Q"
    QString name;         ///< "queries"
    QString explanation;  ///< one or two sentences for the class
    int rows = 0;
    int cols = 0;
    StageAxis row_axis = StageAxis::Queries;
    StageAxis col_axis = StageAxis::Model;
    std::vector<float> values;    ///< rows x cols, row-major
    std::vector<uint8_t> masked;  ///< rows x cols, 1 where the mask removed the cell (or empty)
    bool probabilities = false;   ///< weights in [0, 1] (sequential colours), else signed
    int band_begin = -1;          ///< concat: the columns of this head
    int band_end = -1;

    float value(int r, int c) const { return values[std::size_t(r) * cols + c]; }
    bool isMasked(int r, int c) const {
        return !masked.empty() && masked[std::size_t(r) * cols + c] != 0;
    }
    QString shapeText() const;  ///< "9 × 16"
};

struct StepsModel {
    int item = 0;
    int head = 0;
    int heads = 0;
    int embed_dim = 0;
    int head_dim = 0;
    int layer = -1;    ///< a trained model's layer (0-based), -1 for the demo layer
    int kv_head = -1;  ///< the key/value head this head reads (models), -1 for the demo layer
    int kv_heads = 0;  ///< the model's key/value heads (< heads under grouped-query attention)
    QString model_name;
    std::vector<QString> query_tokens;
    std::vector<QString> key_tokens;
    std::vector<Stage> stages;

    bool empty() const { return stages.empty(); }
    int count() const { return int(stages.size()); }
    int indexOf(StageId id) const;                          ///< -1 if absent
    int firstOf(std::initializer_list<StageId> ids) const;  ///< the first present, or -1
    /// The stages the stage is computed from (direct inputs only).
    std::vector<int> inputsOf(int stage) const;
};

/// The stages of head `head` of batch item `item`; for a trained model's snapshot, of the
/// snapshot's layer over the model's pieces (rotary q and k before and after the rotation, the
/// key/value head a grouped-query head reads).  Empty when the snapshot kept no intermediates
/// (over kStepsCellBudget); `why` (optional) then says so.
StepsModel build_steps_model(const AttentionSnapshot& snapshot, int item, int head,
                             QString* why = nullptr);

/// A part of a stage's matrix that a hovered cell came from.
struct StageRegion {
    enum class Kind { Cell, Row, Column, All };
    int stage = -1;
    Kind kind = Kind::All;
    int row = -1;
    int col = -1;
    bool operator==(const StageRegion&) const = default;
};

/// Everything cell (row, col) of `stage` was computed from, back to the input: a score
/// cell (i, j) leads to row i of Q and row j of K and from there to the rows of X; a
/// context cell (i, c) to row i of the weights and column c of V; and so on.
std::vector<StageRegion> provenance(const StepsModel& model, int stage, int row, int col);

}  // namespace attnviz::ui
