#include "ui/classroom/steps_model.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, as a class so lupdate files them
// under the context tr() looks them up in.
struct StepsModelText {
    Q_DECLARE_TR_FUNCTIONS(Steps)
};

std::vector<float> block(const Tensor& t, std::size_t offset, std::size_t count) {
    if (offset + count > t.numel()) return std::vector<float>(count, 0.0f);
    return std::vector<float>(t.data.begin() + std::ptrdiff_t(offset),
                              t.data.begin() + std::ptrdiff_t(offset + count));
}

Stage make_stage(StageId id, const QString& formula, const QString& name, int rows, int cols,
                 StageAxis row_axis, StageAxis col_axis, std::vector<float> values) {
    Stage s;
    s.id = id;
    s.formula = formula;
    s.name = name;
    s.rows = rows;
    s.cols = cols;
    s.row_axis = row_axis;
    s.col_axis = col_axis;
    s.values = std::move(values);
    return s;
}
}  // namespace

QString Stage::shapeText() const {
    return QStringLiteral("%1 × %2").arg(rows).arg(cols);
}

int StepsModel::indexOf(StageId id) const {
    for (int k = 0; k < count(); ++k)
        if (stages[std::size_t(k)].id == id) return k;
    return -1;
}

int StepsModel::firstOf(std::initializer_list<StageId> ids) const {
    for (StageId id : ids)
        if (const int k = indexOf(id); k >= 0) return k;
    return -1;
}

std::vector<int> StepsModel::inputsOf(int stage) const {
    if (stage < 0 || stage >= count()) return {};
    const int kv = firstOf({StageId::KeyInput, StageId::Input});
    std::vector<int> out;
    switch (stages[std::size_t(stage)].id) {
        case StageId::Input:
        case StageId::KeyInput:
            break;
        case StageId::Query:
            out = {indexOf(StageId::Input)};
            break;
        case StageId::Key:
        case StageId::Value:
            out = {kv};
            break;
        case StageId::QueryRotated:
            out = {indexOf(StageId::Query)};
            break;
        case StageId::KeyRotated:
            out = {indexOf(StageId::Key)};
            break;
        case StageId::Scores:
            out = {firstOf({StageId::QueryRotated, StageId::Query}),
                   firstOf({StageId::KeyRotated, StageId::Key})};
            break;
        case StageId::Scaled:
            out = {indexOf(StageId::Scores)};
            break;
        case StageId::Masked:
            out = {indexOf(StageId::Scaled)};
            break;
        case StageId::Softmax:
            out = {firstOf({StageId::Masked, StageId::Scaled})};
            break;
        case StageId::Dropout:
            out = {indexOf(StageId::Softmax)};
            break;
        case StageId::Context:
            out = {firstOf({StageId::Dropout, StageId::Softmax}), indexOf(StageId::Value)};
            break;
        case StageId::Concat:
            out = {indexOf(StageId::Context)};
            break;
        case StageId::Output:
            out = {indexOf(StageId::Concat)};
            break;
    }
    out.erase(std::remove(out.begin(), out.end(), -1), out.end());
    return out;
}

namespace {

/// The stages both the demo layer and a model end with, in order of the computation.
void add_softmax_stage(StepsModel& m, int L, int S, const HeadSteps& hs) {
    m.stages.push_back(make_stage(StageId::Softmax, QStringLiteral("A = softmax(·)"),
                                  StepsModelText::tr("attention weights"), L, S, StageAxis::Queries,
                                  StageAxis::Keys, hs.softmax.data));
    m.stages.back().explanation = StepsModelText::tr(
        "Softmax along each row: e^s / Σ e^s. Every row now sums to 1, and −∞ becomes "
        "exactly 0. These are the weights the heatmaps show.");
}

void add_context_stage(StepsModel& m, int L, int d, const HeadSteps& hs) {
    m.stages.push_back(make_stage(StageId::Context, QStringLiteral("A V"),
                                  StepsModelText::tr("head output"), L, d, StageAxis::Queries,
                                  StageAxis::Head, hs.context.data));
    m.stages.back().explanation = StepsModelText::tr(
        "Each query's output is the weighted average of the value rows: row i of A times V.");
}

/// All heads side by side (H × d columns), head h's band outlined.
void add_concat_stage(StepsModel& m, int L, int H, int d, int h, std::vector<float> values) {
    m.stages.push_back(make_stage(StageId::Concat,
                                  StepsModelText::tr("concat(head 1 … head %1)").arg(H),
                                  StepsModelText::tr("all heads"), L, H * d, StageAxis::Queries,
                                  StageAxis::Model, std::move(values)));
    m.stages.back().band_begin = h * d;
    m.stages.back().band_end = (h + 1) * d;
    m.stages.back().explanation =
        StepsModelText::tr(
            "The %1 heads' outputs side by side: %1 × %2 = %3 columns. This head's columns are "
            "outlined.")
            .arg(H)
            .arg(d)
            .arg(H * d);
}

/// The masked cells (`mask`, L × S) on the score-shaped stages from the mask on, and the
/// weights' colours.
void finish_stages(StepsModel& m, const std::vector<uint8_t>& mask) {
    for (Stage& st : m.stages) {
        if (st.id == StageId::Masked || st.id == StageId::Softmax || st.id == StageId::Dropout)
            st.masked = mask;
        st.probabilities = st.id == StageId::Softmax || st.id == StageId::Dropout;
        // A stage the engine did not fill (should not happen) shows zeros, not garbage.
        if (st.values.size() != std::size_t(st.rows) * st.cols)
            st.values.assign(std::size_t(st.rows) * st.cols, 0.0f);
    }
}

/// Why a trained model's snapshot has no steps.
QString model_steps_missing(const AttentionSnapshot& s) {
    const std::size_t n = std::size_t(s.model->text_pieces);
    const std::size_t cells = std::size_t(s.model->num_heads) * n * n;
    return s.config.usesMaps()
               ? StepsModelText::tr(
                     "The steps show how a model computes a layer's attention: maps "
                     "read from a file hold only the result. Open the model itself "
                     "(File ▸ Open Model…) to see its steps.")
           : s.model->windowed() ? StepsModelText::tr(
                                       "The steps show a layer's whole computation: they are not "
                                       "kept for a window of the text (Show All, over the "
                                       "heatmaps, brings every token back).")
           : cells > kStepsCellBudget
               ? StepsModelText::tr(
                     "The steps are computed for up to %1 attention cells (heads × "
                     "tokens × tokens); this text has %2. Shorten it to see the steps.")
                     .arg(kStepsCellBudget)
                     .arg(cells)
           : s.model->provisional
               ? StepsModelText::tr(
                     "The steps of layer %1 follow when the model stops "
                     "writing.")
                     .arg(s.layer + 1)
               : StepsModelText::tr("Computing the steps of layer %1…").arg(s.layer + 1);
}

/// One head of a trained model's layer, as its stages read it.
struct ModelHeadSource {
    const StepTensors& t;
    const StepTensors::ModelLayer& ml;
    const HeadSteps& hs;
    int H, h, L, E, d;
    int KV, g;        ///< the key/value heads, and the one this head reads
    QString kv_name;  ///< " (key/value head 2 of 4)" under grouped-query attention, else empty
    QString kv_note;  ///< the sentence saying which heads share it, else empty
    QString prime;    ///< "′" on Q and K for a rotary model
};

ModelHeadSource model_head_source(const StepTensors& t, int head) {
    const StepTensors::ModelLayer& ml = *t.model;
    const int H = int(t.heads.size());
    const int h = std::clamp(head, 0, H - 1);
    const HeadSteps& hs = t.heads[std::size_t(h)];
    const int KV = std::max(1, ml.num_kv_heads), group = std::max(1, H / KV);
    const int g = int(hs.kv_head);
    const bool gqa = KV < H;
    const QString kv_note =
        gqa ? StepsModelText::tr(
                  " Grouped-query attention: the %1 query heads share %2 key/value "
                  "heads, so heads %3 to %4 all read key/value head %5.")
                  .arg(H)
                  .arg(KV)
                  .arg(g * group + 1)
                  .arg((g + 1) * group)
                  .arg(g + 1)
            : QString();
    const QString kv_name =
        gqa ? StepsModelText::tr(" (key/value head %1 of %2)").arg(g + 1).arg(KV) : QString();
    return {t,
            ml,
            hs,
            H,
            h,
            int(ml.tokens.size()),
            int(t.x_query.dim(2)),
            int(hs.q.dim(1)),
            KV,
            g,
            kv_name,
            kv_note,
            ml.rotary ? QStringLiteral("′") : QString()};
}

/// X, then Q, K (and their rotations) and V.
void add_model_projection_stages(StepsModel& m, const ModelHeadSource& x) {
    const StepTensors::ModelLayer& ml = x.ml;
    const HeadSteps& hs = x.hs;
    const int L = x.L, E = x.E, d = x.d;
    m.stages.push_back(make_stage(StageId::Input, QStringLiteral("X"), StepsModelText::tr("input"),
                                  L, E, StageAxis::Queries, StageAxis::Model, x.t.x_query.data));
    m.stages.back().explanation =
        ml.pre_norm
            ? StepsModelText::tr(
                  "Layer %1's input: each token's vector in the residual stream, normalised by "
                  "the layer's first norm, %2 numbers per token.")
                  .arg(ml.layer + 1)
                  .arg(E)
            : StepsModelText::tr(
                  "Layer %1's input: each token's vector as the layer before left it (the "
                  "embeddings for layer 1), %2 numbers per token.")
                  .arg(ml.layer + 1)
                  .arg(E);
    m.stages.push_back(make_stage(StageId::Query, QStringLiteral("Q = X W_Q"),
                                  StepsModelText::tr("queries"), L, d, StageAxis::Queries,
                                  StageAxis::Head, ml.rotary ? hs.q_unrotated.data : hs.q.data));
    m.stages.back().explanation =
        StepsModelText::tr(
            "Each token's query: X times this head's %1 × %2 slice of W_Q (plus a bias where the "
            "model has one), so head_dim = %2 numbers per token.")
            .arg(E)
            .arg(d);
    m.stages.push_back(make_stage(StageId::Key, QStringLiteral("K = X W_K") + x.kv_name,
                                  StepsModelText::tr("keys"), L, d, StageAxis::Keys,
                                  StageAxis::Head, ml.rotary ? hs.k_unrotated.data : hs.k.data));
    m.stages.back().explanation =
        StepsModelText::tr("Each token's key, what it offers to be found by: X times W_K.") +
        x.kv_note;
    if (ml.rotary) {
        m.stages.push_back(make_stage(StageId::QueryRotated, QStringLiteral("Q′ = RoPE(Q)"),
                                      StepsModelText::tr("rotated queries"), L, d,
                                      StageAxis::Queries, StageAxis::Head, hs.q.data));
        m.stages.back().explanation =
            StepsModelText::tr(
                "Rotary positions: dimensions c and c + %1 of token t's query are turned "
                "together by an angle t · θ_c. Compare the rows with Q: the first token is not "
                "turned at all.")
                .arg(d / 2);
        m.stages.push_back(make_stage(StageId::KeyRotated, QStringLiteral("K′ = RoPE(K)"),
                                      StepsModelText::tr("rotated keys"), L, d, StageAxis::Keys,
                                      StageAxis::Head, hs.k.data));
        m.stages.back().explanation = StepsModelText::tr(
            "The same rotation for the keys. Q′ · K′ then depends on how far apart two tokens "
            "are, not on where they stand.");
    }
    m.stages.push_back(make_stage(StageId::Value, QStringLiteral("V = X W_V") + x.kv_name,
                                  StepsModelText::tr("values"), L, d, StageAxis::Keys,
                                  StageAxis::Head, hs.v.data));
    m.stages.back().explanation = StepsModelText::tr(
        "Each token's value, what it passes on when attended to: X times W_V (not rotated).");
}

/// The factor the model really used on the scores (GPT-2 can turn the scaling off or divide
/// by the layer), read from the first score that is not near 0; 1/√d when there is none.
double used_scale(const HeadSteps& hs, int d) {
    for (std::size_t k = 0; k < hs.scores.numel(); ++k)
        if (std::abs(hs.scores.data[k]) > 1e-3f && std::isfinite(hs.scaled.data[k]))
            return double(hs.scaled.data[k]) / double(hs.scores.data[k]);
    return 1.0 / std::sqrt(double(d));
}

/// Q Kᵀ, scaled, and the causal mask where the model has one.
void add_model_score_stages(StepsModel& m, const ModelHeadSource& x) {
    const HeadSteps& hs = x.hs;
    const int L = x.L, d = x.d;
    const QString& prime = x.prime;
    m.stages.push_back(make_stage(StageId::Scores, QStringLiteral("Q%1 K%1ᵀ").arg(prime),
                                  StepsModelText::tr("scores"), L, L, StageAxis::Queries,
                                  StageAxis::Keys, hs.scores.data));
    m.stages.back().explanation = StepsModelText::tr(
        "Every query against every key: the dot product of query row i and key row j, so "
        "similar vectors score high.");
    const double scale = used_scale(hs, d);
    const bool sqrt_d = std::abs(scale * std::sqrt(double(d)) - 1.0) < 1e-4;
    m.stages.push_back(
        make_stage(StageId::Scaled,
                   sqrt_d ? QStringLiteral("Q%1 K%1ᵀ / √%2").arg(prime).arg(d)
                          : QStringLiteral("Q%1 K%1ᵀ × %2").arg(prime).arg(scale, 0, 'g', 4),
                   StepsModelText::tr("scaled scores"), L, L, StageAxis::Queries, StageAxis::Keys,
                   hs.scaled.data));
    m.stages.back().explanation =
        sqrt_d ? StepsModelText::tr(
                     "Divided by √head_dim = √%1 = %2, so that the scores do not grow with "
                     "head_dim and the softmax does not saturate.")
                     .arg(d)
                     .arg(std::sqrt(double(d)), 0, 'g', 3)
               : StepsModelText::tr("Multiplied by %1, as this model's configuration asks.")
                     .arg(scale, 0, 'g', 4);
    if (x.ml.causal) {
        m.stages.push_back(make_stage(StageId::Masked, StepsModelText::tr("+ causal mask"),
                                      StepsModelText::tr("masked scores"), L, L, StageAxis::Queries,
                                      StageAxis::Keys, hs.masked.data));
        m.stages.back().explanation = StepsModelText::tr(
            "A causal model: each token may look only at itself and the tokens before it, so "
            "the mask adds −∞ above the diagonal.");
    }
}

/// × W_O, and what the layer does with it.
void add_model_output_stage(StepsModel& m, const ModelHeadSource& x) {
    const int L = x.L, E = x.E;
    m.stages.push_back(make_stage(StageId::Output, QStringLiteral("concat · W_O"),
                                  StepsModelText::tr("output"), L, E, StageAxis::Queries,
                                  StageAxis::Model, x.t.output.data));
    m.stages.back().explanation =
        (x.ml.mlp
             ? StepsModelText::tr("W_O mixes the heads back into %1 numbers per token. The layer "
                                  "adds this to its input (the residual) and then runs its MLP.")
             : StepsModelText::tr("W_O mixes the heads back into %1 numbers per token. The layer "
                                  "adds this to its input (the residual); this model has no MLP, "
                                  "so that sum goes straight to the next layer."))
            .arg(E);
}

/// A trained model's layer (StepTensors::model): the stages over the model's pieces.
StepsModel build_model_steps(const AttentionSnapshot& s, int head, QString* why) {
    StepsModel m;
    if (!s.steps || !s.steps->model) {
        if (why) *why = model_steps_missing(s);
        return m;
    }
    const ModelHeadSource x = model_head_source(*s.steps, head);
    const int L = x.L;
    m.head = x.h;
    m.heads = x.H;
    m.embed_dim = x.E;
    m.head_dim = x.d;
    m.layer = x.ml.layer;
    m.kv_head = x.g;
    m.kv_heads = x.KV;
    m.model_name = x.ml.name;
    m.query_tokens = m.key_tokens = x.ml.tokens;
    add_model_projection_stages(m, x);
    add_model_score_stages(m, x);
    add_softmax_stage(m, L, L, x.hs);
    add_context_stage(m, L, x.d, x.hs);
    add_concat_stage(m, L, x.H, x.d, x.h, x.t.concat.data);
    add_model_output_stage(m, x);
    std::vector<uint8_t> mask(std::size_t(L) * L, 0);
    if (x.ml.causal)
        for (int i = 0; i < L; ++i)
            for (int j = i + 1; j < L; ++j)
                mask[std::size_t(i) * L + j] = 1;
    finish_stages(m, mask);  // a model has no dropout stage
    return m;
}

/// Why the demo layer's snapshot has no steps.
QString demo_steps_missing(const AttentionSnapshot& s) {
    // Kept heads or a window (the memory budget's offers) keep no steps.
    if (s.windowed() || s.heads < s.num_heads)
        return StepsModelText::tr(
            "The steps are kept only when every head's weights over every "
            "token are: this configuration keeps a part of them to fit the "
            "memory budget (Show All, over the heatmaps, brings them back).");
    return s.steps ? QString()
                   : StepsModelText::tr(
                         "The steps are kept for up to %1 attention cells (items × heads "
                         "× queries × keys); this input has %2. Shorten the sentence "
                         "or use fewer heads.")
                         .arg(kStepsCellBudget)
                         .arg(std::size_t(s.batch) * s.heads * s.target_len * s.source_len);
}

/// One head of one batch item of the demo layer, as its stages read it.
struct DemoHeadSource {
    const StepTensors& t;
    const ComputeConfig& c;
    const HeadSteps& hs;
    int n, h, L, S, E, H, d;
    bool cross;     ///< cross-attention: the keys and values read their own input X′
    bool additive;  ///< additive (Bahdanau) scoring
    QString xk;     ///< what the keys and values read: "X" or "X′"
    QString b;      ///< " + b" with biases, else empty

    /// Item n's [rows, E] block of a [N, rows, E] tensor.
    std::vector<float> itemRows(const Tensor& of, int rows) const {
        return block(of, std::size_t(n) * rows * E, std::size_t(rows) * E);
    }
};

/// X (and X′ for cross-attention), then Q, K and V.
void add_demo_projection_stages(StepsModel& m, const DemoHeadSource& x) {
    const int L = x.L, S = x.S, E = x.E, d = x.d;
    const QString x_what = x.c.positional_encoding
                               ? StepsModelText::tr(
                                     "Each token as a vector of embed_dim = %1 numbers: its "
                                     "embedding plus a positional encoding, one row per token.")
                               : StepsModelText::tr(
                                     "Each token as a vector of embed_dim = %1 numbers (its "
                                     "embedding; positional encoding is off).");
    m.stages.push_back(
        make_stage(StageId::Input,
                   x.cross ? StepsModelText::tr("X (queries' sentence)") : StepsModelText::tr("X"),
                   StepsModelText::tr("input"), L, E, StageAxis::Queries, StageAxis::Model,
                   x.itemRows(x.t.x_query, L)));
    m.stages.back().explanation = x_what.arg(E);
    if (x.cross) {
        m.stages.push_back(make_stage(StageId::KeyInput, StepsModelText::tr("X′ (keys' sentence)"),
                                      StepsModelText::tr("input"), S, E, StageAxis::Keys,
                                      StageAxis::Model, x.itemRows(x.t.x_key, S)));
        m.stages.back().explanation = StepsModelText::tr(
            "Cross-attention: the keys and values come from the second sentence, so it has "
            "its own input matrix X′.");
    }
    m.stages.push_back(make_stage(StageId::Query, QStringLiteral("Q = X W_Q") + x.b,
                                  StepsModelText::tr("queries"), L, d, StageAxis::Queries,
                                  StageAxis::Head, x.hs.q.data));
    m.stages.back().explanation =
        StepsModelText::tr(
            "Each token's query, what it is looking for: X times this head's %1 × %2 slice of "
            "W_Q, so d_k = %2 numbers per token.")
            .arg(E)
            .arg(d);
    m.stages.push_back(make_stage(StageId::Key, QStringLiteral("K = %1 W_K").arg(x.xk) + x.b,
                                  StepsModelText::tr("keys"), S, d, StageAxis::Keys,
                                  StageAxis::Head, x.hs.k.data));
    m.stages.back().explanation = StepsModelText::tr(
        "Each token's key, what it offers to be found by: the same input times W_K.");
    m.stages.push_back(make_stage(StageId::Value, QStringLiteral("V = %1 W_V").arg(x.xk) + x.b,
                                  StepsModelText::tr("values"), S, d, StageAxis::Keys,
                                  StageAxis::Head, x.hs.v.data));
    m.stages.back().explanation = StepsModelText::tr(
        "Each token's value, what it passes on when attended to: the input times W_V.");
}

/// The scores (dot product or additive), scaled, and masked.
void add_demo_score_stages(StepsModel& m, const DemoHeadSource& x) {
    const int L = x.L, S = x.S, d = x.d;
    const bool additive = x.additive;
    m.stages.push_back(make_stage(
        StageId::Scores, additive ? QStringLiteral("w · tanh(q + k)") : QStringLiteral("Q Kᵀ"),
        StepsModelText::tr("scores"), L, S, StageAxis::Queries, StageAxis::Keys, x.hs.scores.data));
    m.stages.back().explanation =
        additive ? StepsModelText::tr(
                       "Additive (Bahdanau) scoring: one learned vector w scores tanh(q + k) for "
                       "every query and key.")
                 : StepsModelText::tr(
                       "Every query against every key: the dot product of query row i and key "
                       "row j, so similar vectors score high.");
    m.stages.push_back(make_stage(StageId::Scaled,
                                  additive ? StepsModelText::tr("(additive: not scaled)")
                                           : QStringLiteral("Q Kᵀ / √%1").arg(d),
                                  StepsModelText::tr("scaled scores"), L, S, StageAxis::Queries,
                                  StageAxis::Keys, x.hs.scaled.data));
    m.stages.back().explanation =
        additive ? StepsModelText::tr("Additive scores are used as they are.")
                 : StepsModelText::tr(
                       "Divided by √d_k = √%1 = %2, so that the scores do not grow with d_k and "
                       "the softmax does not saturate.")
                       .arg(d)
                       .arg(std::sqrt(double(d)), 0, 'g', 3);
    m.stages.push_back(make_stage(StageId::Masked, StepsModelText::tr("+ mask M"),
                                  StepsModelText::tr("masked scores"), L, S, StageAxis::Queries,
                                  StageAxis::Keys, x.hs.masked.data));
    m.stages.back().explanation = StepsModelText::tr(
        "The mask adds −∞ where a query may not look (future tokens with the causal mask, "
        "padding, masked keys), 0 elsewhere.");
}

/// Dropout on the weights: identity unless training with p > 0.
void add_demo_dropout_stage(StepsModel& m, const DemoHeadSource& x) {
    const ComputeConfig& c = x.c;
    const bool dropping = c.training && c.dropout > 0.0;
    m.stages.push_back(make_stage(StageId::Dropout,
                                  dropping ? QStringLiteral("dropout(A), p = %1").arg(c.dropout)
                                           : StepsModelText::tr("dropout(A) = A"),
                                  StepsModelText::tr("weights after dropout"), x.L, x.S,
                                  StageAxis::Queries, StageAxis::Keys, x.hs.dropped.data));
    m.stages.back().explanation =
        dropping ? StepsModelText::tr(
                       "Training mode: each weight is dropped with probability %1 and the rest "
                       "are scaled by 1/(1 − p), so rows no longer sum to exactly 1.")
                       .arg(c.dropout)
                 : StepsModelText::tr("Evaluation mode (or p = 0): dropout changes nothing.");
}

}  // namespace

StepsModel build_steps_model(const AttentionSnapshot& s, int item, int head, QString* why) {
    if (s.model) return build_model_steps(s, head, why);
    StepsModel m;
    if (!s.steps || s.batch == 0 || s.heads == 0) {
        if (why) *why = demo_steps_missing(s);
        return m;
    }
    const StepTensors& t = *s.steps;
    const ComputeConfig& c = s.config;
    const int n = std::clamp(item, 0, s.batch - 1);
    const int h = std::clamp(head, 0, s.heads - 1);
    const int L = s.target_len, S = s.source_len, E = c.embed_dim, H = s.heads, d = E / H;
    const bool cross = !t.x_key.empty();
    const DemoHeadSource x{t,
                           c,
                           t.head(n, h, H),
                           n,
                           h,
                           L,
                           S,
                           E,
                           H,
                           d,
                           cross,
                           c.scoring == Scoring::Additive,
                           cross ? QStringLiteral("X′") : QStringLiteral("X"),
                           c.bias ? QStringLiteral(" + b") : QString()};
    m.item = n;
    m.head = h;
    m.heads = H;
    m.embed_dim = E;
    m.head_dim = d;
    m.query_tokens = s.query_tokens[std::size_t(n)];
    m.key_tokens = s.key_tokens[std::size_t(n)];
    add_demo_projection_stages(m, x);
    add_demo_score_stages(m, x);
    add_softmax_stage(m, L, S, x.hs);
    add_demo_dropout_stage(m, x);
    add_context_stage(m, L, d, x.hs);
    add_concat_stage(m, L, H, d, h, x.itemRows(t.concat, L));
    m.stages.push_back(make_stage(StageId::Output, QStringLiteral("concat · W_O") + x.b,
                                  StepsModelText::tr("output"), L, E, StageAxis::Queries,
                                  StageAxis::Model, x.itemRows(t.output, L)));
    m.stages.back().explanation = StepsModelText::tr(
        "W_O mixes the heads back into one embed_dim vector per token: the layer's output.");

    std::vector<uint8_t> mask(std::size_t(L) * S, 0);
    for (int i = 0; i < L; ++i)
        for (int j = 0; j < S; ++j)
            mask[std::size_t(i) * S + j] = s.is_masked(n, i, j) ? 1 : 0;
    finish_stages(m, mask);
    return m;
}

std::vector<StageRegion> provenance(const StepsModel& m, int stage, int row, int col) {
    std::vector<StageRegion> out;
    if (stage < 0 || stage >= m.count()) return out;
    using K = StageRegion::Kind;
    auto add = [&](auto&& self, StageRegion r) -> void {
        if (r.stage < 0) return;
        if (std::find(out.begin(), out.end(), r) != out.end()) return;
        // A whole matrix already covers any part of it.
        for (const auto& o : out)
            if (o.stage == r.stage && o.kind == K::All) return;
        if (r.kind == K::All)
            out.erase(std::remove_if(out.begin(), out.end(),
                                     [&](const StageRegion& o) { return o.stage == r.stage; }),
                      out.end());
        out.push_back(r);
        const Stage& st = m.stages[std::size_t(r.stage)];
        const std::vector<int> in = m.inputsOf(r.stage);
        auto cell = [](int s, int i, int j) { return StageRegion{s, K::Cell, i, j}; };
        auto rowr = [](int s, int i) { return StageRegion{s, K::Row, i, -1}; };
        auto colr = [](int s, int j) { return StageRegion{s, K::Column, -1, j}; };
        auto all = [](int s) { return StageRegion{s, K::All, -1, -1}; };
        const bool has_row = r.kind == K::Cell || r.kind == K::Row;
        const bool has_col = r.kind == K::Cell || r.kind == K::Column;
        switch (st.id) {
            case StageId::Input:
            case StageId::KeyInput:
                break;
            case StageId::Query:
            case StageId::Key:
            case StageId::Value:
                // Row i of a projection is row i of its input times W.
                self(self, has_row ? rowr(in[0], r.row) : all(in[0]));
                break;
            case StageId::QueryRotated:
            case StageId::KeyRotated: {
                // The rotation turns dimension pairs (c, c + d/2) of the same row.
                const int half = st.cols / 2;
                const int pair = r.col < half ? r.col + half : r.col - half;
                if (r.kind == K::Cell) {
                    self(self, cell(in[0], r.row, r.col));
                    self(self, cell(in[0], r.row, pair));
                } else if (r.kind == K::Column) {
                    self(self, colr(in[0], r.col));
                    self(self, colr(in[0], pair));
                } else {
                    self(self, has_row ? rowr(in[0], r.row) : all(in[0]));
                }
                break;
            }
            case StageId::Scores:
                self(self, has_row ? rowr(in[0], r.row) : all(in[0]));
                self(self, has_col ? rowr(in[1], r.col) : all(in[1]));
                break;
            case StageId::Scaled:
            case StageId::Masked:
            case StageId::Dropout:
                // Elementwise: the same cells of the stage before.
                self(self, StageRegion{in[0], r.kind, r.row, r.col});
                break;
            case StageId::Softmax:
                // A weight depends on every score of its row.
                self(self, has_row ? rowr(in[0], r.row) : all(in[0]));
                break;
            case StageId::Context:
                self(self, has_row ? rowr(in[0], r.row) : all(in[0]));
                self(self, has_col ? colr(in[1], r.col) : all(in[1]));
                break;
            case StageId::Concat:
                if (r.kind == K::Cell) {
                    if (r.col >= st.band_begin && r.col < st.band_end)
                        self(self, cell(in[0], r.row, r.col - st.band_begin));
                } else if (r.kind == K::Row) {
                    self(self, rowr(in[0], r.row));
                } else if (r.kind == K::Column) {
                    if (r.col >= st.band_begin && r.col < st.band_end)
                        self(self, colr(in[0], r.col - st.band_begin));
                } else {
                    self(self, all(in[0]));
                }
                break;
            case StageId::Output:
                // Output row i mixes every column of concat row i.
                self(self, has_row ? rowr(in[0], r.row) : all(in[0]));
                break;
        }
    };
    const Stage& st = m.stages[std::size_t(stage)];
    if (row < 0 || row >= st.rows || col < 0 || col >= st.cols) return out;
    add(add, StageRegion{stage, K::Cell, row, col});
    out.erase(out.begin());  // the hovered cell itself is not a source
    return out;
}

}  // namespace attnviz::ui
