#include "ui/classroom/model_walk.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/models/model_folder.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, as a class so lupdate files them
// under the context tr() looks them up in.
struct WalkText {
    Q_DECLARE_TR_FUNCTIONS(ModelWalk)
};

using models::TraceStep;

/// What the family decides about the words: read from the config when the model is at hand,
/// else from ModelInfo and the steps present.
struct FamilyWords {
    QString norm = QStringLiteral("LayerNorm");
    QString act = QStringLiteral("GELU");
    bool qk_norm = false;
    bool tied = false;
};

FamilyWords family_words(const ModelTrace& t) {
    FamilyWords w;
    const bool rotary = t.info.position_encoding == "rotary";
    if (t.model && t.model->model) {
        const models::ModelConfig& c = t.model->model->config();
        w.norm = c.family == models::Family::Llama ? QStringLiteral("RMSNorm")
                                                   : QStringLiteral("LayerNorm");
        switch (c.activation) {
            case ops::Activation::Gelu:
            case ops::Activation::GeluNew:
                w.act = QStringLiteral("GELU");
                break;
            case ops::Activation::Silu:
                w.act = QStringLiteral("SiLU");
                break;
            case ops::Activation::Relu:
                w.act = QStringLiteral("ReLU");
                break;
        }
        w.qk_norm = c.qk_norm;
        w.tied = c.tie_word_embeddings;
    } else {
        w.norm = rotary ? QStringLiteral("RMSNorm") : QStringLiteral("LayerNorm");
        w.act = rotary || t.gated ? QStringLiteral("SiLU") : QStringLiteral("GELU");
        w.qk_norm = t.info.model_type == "qwen3";
    }
    return w;
}

double norm_of(const models::TraceVector* v) {
    if (!v) return std::numeric_limits<double>::quiet_NaN();
    double s = 0.0;
    for (float x : v->values)
        s += double(x) * double(x);
    return std::sqrt(s);
}

}  // namespace

QString WalkStage::shapeText() const {
    if (rows <= 1) return QString::number(cols);
    if (probabilities) return WalkText::tr("%1 heads × %2 tokens").arg(rows).arg(cols);
    return WalkText::tr("%1 heads × %2").arg(rows).arg(cols);
}

double WalkStage::norm() const {
    double s = 0.0;
    for (std::size_t k = 0; k < size(); ++k)
        s += double(values[k]) * double(values[k]);
    return std::sqrt(s);
}

float WalkStage::minimum() const {
    return size() ? *std::min_element(values, values + size()) : 0.0f;
}

float WalkStage::maximum() const {
    return size() ? *std::max_element(values, values + size()) : 0.0f;
}

int ModelWalk::stageCount() const {
    int n = 0;
    for (const WalkSection& s : sections)
        n += int(s.stages.size());
    return n;
}

int ModelWalk::sectionOfLayer(int layer) const {
    for (std::size_t k = 0; k < sections.size(); ++k)
        if (sections[k].kind == WalkSection::Kind::Layer && sections[k].layer == layer)
            return int(k);
    return -1;
}

namespace {

struct Words {
    QString formula, name, explanation;
};

/// The formula, name and explanation of `step` in the family's words.
Words words_for(TraceStep step, const ModelWalk& w, const FamilyWords& f, bool has_positions,
                bool has_sum) {
    const QString N = f.norm, A = f.act;
    const QString pos = QString::number(w.position + 1);
    // Post-norm (BERT): attention and the MLP read the residual stream itself.
    const QString in = w.pre_norm ? QStringLiteral("h") : QStringLiteral("x");
    switch (step) {
        case TraceStep::TokenEmbedding:
            return {QStringLiteral("e = W_E[%1]").arg(w.id), WalkText::tr("token embedding"),
                    WalkText::tr("Row %1 of the embedding table: the vector the model starts "
                                 "from for “%2”.")
                        .arg(w.id)
                        .arg(w.token)};
        case TraceStep::PositionEmbedding:
            return {QStringLiteral("p = W_P[pos]"), WalkText::tr("position embedding"),
                    WalkText::tr("A learned vector for position %1, added so that the model "
                                 "knows where the token stands.")
                        .arg(pos)};
        case TraceStep::TokenTypeEmbedding:
            return {QStringLiteral("t = W_T[type]"), WalkText::tr("token type embedding"),
                    WalkText::tr("BERT's segment vector: whether the token is in the first "
                                 "sentence or the second.")};
        case TraceStep::EmbeddingSum:
            return {QStringLiteral("e + p + t"), WalkText::tr("sum of the embeddings"),
                    WalkText::tr("The three vectors added, number by number.")};
        case TraceStep::Embedding:
            if (has_sum)
                return {QStringLiteral("x = %1(e + p + t)").arg(N),
                        WalkText::tr("the residual stream"),
                        WalkText::tr("The sum, normalised: what layer 1 reads. Every layer adds "
                                     "its result to this stream.")};
            if (has_positions)
                return {QStringLiteral("x = e + p"), WalkText::tr("the residual stream"),
                        WalkText::tr("Token plus position: what layer 1 reads. Every layer adds "
                                     "its result to this stream.")};
            return {QStringLiteral("x = W_E[%1]").arg(w.id), WalkText::tr("the residual stream"),
                    w.rotary ? WalkText::tr("Row %1 of the embedding table, and no position "
                                            "vector: positions enter inside attention, where "
                                            "RoPE rotates q and k. Every layer adds its result "
                                            "to this stream.")
                                   .arg(w.id)
                             : WalkText::tr("Row %1 of the embedding table: what layer 1 reads. "
                                            "Every layer adds its result to this stream.")
                                   .arg(w.id)};
        case TraceStep::AttentionNorm:
            return {QStringLiteral("h = %1(x)").arg(N), WalkText::tr("norm before attention"),
                    N == QLatin1String("RMSNorm")
                        ? WalkText::tr("Divided by its root mean square, then scaled: attention "
                                       "reads a vector of a steady size.")
                        : WalkText::tr("Its mean subtracted, divided by its spread, then scaled "
                                       "and shifted: attention reads a vector of a steady size.")};
        case TraceStep::Query:
            return {f.qk_norm ? QStringLiteral("Q = RMSNorm(%1 W_Q)").arg(in)
                              : QStringLiteral("Q = %1 W_Q").arg(in),
                    WalkText::tr("queries"),
                    WalkText::tr("What this token looks for, one query per head (%1 heads).")
                            .arg(w.heads) +
                        (f.qk_norm ? WalkText::tr(" Each head's query is normalised (Qwen3).")
                                   : QString())};
        case TraceStep::Key:
            return {f.qk_norm ? QStringLiteral("K = RMSNorm(%1 W_K)").arg(in)
                              : QStringLiteral("K = %1 W_K").arg(in),
                    WalkText::tr("keys"),
                    WalkText::tr("What this token offers to be found by.") +
                        (w.kv_heads > 0 && w.kv_heads < w.heads
                             ? WalkText::tr(" Grouped-query attention: %1 key heads shared by %2 "
                                            "query heads.")
                                   .arg(w.kv_heads)
                                   .arg(w.heads)
                             : QString())};
        case TraceStep::Value:
            return {QStringLiteral("V = %1 W_V").arg(in), WalkText::tr("values"),
                    WalkText::tr("What this token hands on to the tokens that attend to it.")};
        case TraceStep::QueryRotated:
            return {QStringLiteral("Q′ = RoPE(Q)"), WalkText::tr("rotated queries"),
                    WalkText::tr("Each pair of numbers turned by an angle that grows with the "
                                 "position: this is how the model knows where the token is.")};
        case TraceStep::KeyRotated:
            return {QStringLiteral("K′ = RoPE(K)"), WalkText::tr("rotated keys"),
                    WalkText::tr("The keys turned the same way, so q · k depends on how far "
                                 "apart two tokens are.")};
        case TraceStep::Attention:
            return {QStringLiteral("a = softmax(q · kᵀ / √d)"), WalkText::tr("attention weights"),
                    WalkText::tr("Each head's weights over the tokens: how much of each token's "
                                 "value it takes. Each row sums to 1.") +
                        (w.causal ? WalkText::tr(" Tokens after this one are masked (0).")
                                  : QString())};
        case TraceStep::Context:
            return {QStringLiteral("c = a V"), WalkText::tr("head outputs"),
                    WalkText::tr("Each head's weighted average of the values.")};
        case TraceStep::AttentionOutput:
            return {QStringLiteral("o = concat(c) W_O"), WalkText::tr("attention output"),
                    WalkText::tr("The heads' outputs side by side, projected back to %1 numbers.")
                        .arg(w.hidden)};
        case TraceStep::AttentionResidual:
            return {QStringLiteral("x + Attn(h)"), WalkText::tr("residual add"),
                    WalkText::tr("The attention's output added to the residual stream: a layer "
                                 "only writes a change.")};
        case TraceStep::AttentionResidualNorm:
            return {QStringLiteral("x = %1(x + Attn(x))").arg(N),
                    WalkText::tr("norm after attention"),
                    WalkText::tr("BERT normalises after the add (post-norm).")};
        case TraceStep::MlpNorm:
            return {QStringLiteral("h = %1(x)").arg(N), WalkText::tr("norm before the MLP"),
                    WalkText::tr("The stream normalised again, for the MLP.")};
        case TraceStep::Gate:
            return {QStringLiteral("g = %1 W_gate").arg(in), WalkText::tr("MLP gate"),
                    WalkText::tr("A second projection up that decides how much of each of the "
                                 "%1 features passes.")
                        .arg(w.intermediate)};
        case TraceStep::Up:
            return {QStringLiteral("u = %1 W_up").arg(in), WalkText::tr("MLP up"),
                    WalkText::tr("Up to a wider vector: where the MLP does its work, feature by "
                                 "feature.")};
        case TraceStep::Activation:
            if (w.gated)
                return {QStringLiteral("%1(g) ⊙ u").arg(A), WalkText::tr("gated activation"),
                        WalkText::tr("%1 of the gate times the up projection, number by number: "
                                     "the gate switches features on and off.")
                            .arg(A)};
            return {QStringLiteral("%1(u)").arg(A), WalkText::tr("activation"),
                    WalkText::tr("%1 lets positive numbers through and squashes negative ones "
                                 "towards 0.")
                        .arg(A)};
        case TraceStep::MlpOutput:
            return {QStringLiteral("m = act W_down"), WalkText::tr("MLP down"),
                    WalkText::tr("Back down to %1 numbers.").arg(w.hidden)};
        case TraceStep::MlpResidual:
            return {QStringLiteral("x + MLP(h)"), WalkText::tr("residual add"),
                    WalkText::tr("The MLP's output added to the stream: the layer's output.")};
        case TraceStep::MlpResidualNorm:
            return {QStringLiteral("x = %1(x + MLP(x))").arg(N), WalkText::tr("norm after the MLP"),
                    WalkText::tr("Normalised after the add (post-norm): the layer's output.")};
        case TraceStep::FinalNorm:
            return {QStringLiteral("h = %1(x)").arg(N), WalkText::tr("final norm"),
                    WalkText::tr("The last layer's output normalised once more before the "
                                 "vocabulary is scored.")};
        case TraceStep::HeadTransform:
            return {QStringLiteral("t = x W_T"), WalkText::tr("MLM head: dense layer"),
                    WalkText::tr("The masked-LM head's own projection of the stream.")};
        case TraceStep::HeadActivation:
            return {QStringLiteral("%1(t)").arg(A), WalkText::tr("MLM head: activation"),
                    WalkText::tr("%1, as in the MLPs.").arg(A)};
        case TraceStep::HeadNorm:
            return {QStringLiteral("h = %1(t)").arg(N), WalkText::tr("MLM head: norm"),
                    WalkText::tr("Normalised before the vocabulary is scored.")};
        case TraceStep::Logits:
            return {f.tied ? QStringLiteral("z = h W_Eᵀ") : QStringLiteral("z = h W_U"),
                    WalkText::tr("logits"),
                    (f.tied ? WalkText::tr("One score per vocabulary entry (%1 of them): h "
                                           "against every row of the embedding table.")
                            : WalkText::tr("One score per vocabulary entry (%1 of them): the "
                                           "higher, the more likely."))
                        .arg(w.vocab)};
    }
    return {};
}

WalkStage make_stage(const models::TraceVector& v, const Words& words) {
    WalkStage s;
    s.step = v.step;
    s.layer = v.layer;
    s.formula = words.formula;
    s.name = words.name;
    s.explanation = words.explanation;
    s.values = v.values.data();
    s.rows = int(v.rows);
    s.cols = int(v.cols);
    s.probabilities = v.step == TraceStep::Attention;
    return s;
}

}  // namespace

ModelWalk build_model_walk(const ModelTrace& t) {
    ModelWalk w;
    const models::TokenTrace& tt = t.trace;
    if (tt.vectors.empty()) return w;
    const FamilyWords f = family_words(t);
    w.model_name = t.name;
    w.position = tt.position;
    w.id = tt.id;
    w.pieces = t.pieces;
    w.token = tt.position >= 0 && std::size_t(tt.position) < t.pieces.size()
                  ? t.pieces[std::size_t(tt.position)]
                  : QString();
    w.layers = int(tt.layers);
    w.heads = int(t.info.num_heads);
    w.kv_heads = int(t.info.num_kv_heads);
    w.hidden = int(t.info.hidden_size);
    w.intermediate = int(t.info.intermediate_size);
    w.vocab = t.info.vocab_size;
    w.causal = t.info.causal;
    w.masked_lm = tt.head == models::LmHeadKind::Masked;
    w.rotary =
        t.info.position_encoding == "rotary" || tt.find(0, TraceStep::QueryRotated) != nullptr;
    w.pre_norm = t.info.pre_norm;
    w.gated = t.gated || tt.find(0, TraceStep::Gate) != nullptr;
    w.norm_name = f.norm;
    w.activation_name = f.act;
    if (w.hidden <= 0)
        if (const auto* e = tt.find(-1, TraceStep::Embedding)) w.hidden = int(e->cols);

    const bool has_positions = tt.find(-1, TraceStep::PositionEmbedding) != nullptr;
    const bool has_sum = tt.find(-1, TraceStep::EmbeddingSum) != nullptr;
    // A token embedding that is all the stream is (Llama, Qwen) is shown once.
    const bool embedding_is_token = !has_positions && !has_sum &&
                                    tt.find(-1, TraceStep::TokenTypeEmbedding) == nullptr &&
                                    tt.find(-1, TraceStep::Embedding) != nullptr;

    auto section_for = [&](std::int64_t layer) -> WalkSection& {
        const WalkSection::Kind kind = layer < 0            ? WalkSection::Kind::Embeddings
                                       : layer >= tt.layers ? WalkSection::Kind::Output
                                                            : WalkSection::Kind::Layer;
        if (w.sections.empty() || w.sections.back().kind != kind ||
            (kind == WalkSection::Kind::Layer && w.sections.back().layer != int(layer))) {
            WalkSection s;
            s.kind = kind;
            s.layer = kind == WalkSection::Kind::Layer ? int(layer) : -1;
            s.title = kind == WalkSection::Kind::Embeddings ? WalkText::tr("Embeddings")
                      : kind == WalkSection::Kind::Output   ? WalkText::tr("Output")
                                                          : WalkText::tr("Layer %1").arg(layer + 1);
            w.sections.push_back(std::move(s));
        }
        return w.sections.back();
    };

    bool logits_traced = false;
    for (const models::TraceVector& v : tt.vectors) {
        if (v.values.empty() || v.cols <= 0) continue;
        if (embedding_is_token && v.step == TraceStep::TokenEmbedding) continue;
        if (v.step == TraceStep::Logits) logits_traced = true;
        section_for(v.layer).stages.push_back(
            make_stage(v, words_for(v.step, w, f, has_positions, has_sum)));
    }
    if (!tt.logits.empty()) {
        w.logits = tt.logits.data();
        w.vocab = std::int64_t(tt.logits.size());
        if (!logits_traced) {
            WalkStage s;
            const Words words = words_for(TraceStep::Logits, w, f, has_positions, has_sum);
            s.step = TraceStep::Logits;
            s.layer = tt.layers;
            s.formula = words.formula;
            s.name = words.name;
            s.explanation = words.explanation;
            s.values = tt.logits.data();
            s.cols = int(tt.logits.size());
            section_for(tt.layers).stages.push_back(std::move(s));
        }
    }

    // Each layer's residual stream in and out.
    const models::TraceVector* stream = tt.find(-1, TraceStep::Embedding);
    for (WalkSection& s : w.sections) {
        if (s.kind != WalkSection::Kind::Layer) continue;
        s.norm_in = norm_of(stream);
        const models::TraceVector* out = nullptr;
        for (TraceStep step : {TraceStep::MlpResidualNorm, TraceStep::MlpResidual,
                               TraceStep::AttentionResidualNorm, TraceStep::AttentionResidual})
            if ((out = tt.find(s.layer, step))) break;
        s.norm_out = norm_of(out);
        if (out) stream = out;
    }

    w.prediction_formula = QStringLiteral("p = softmax(z / T)");
    w.prediction_name = w.masked_lm ? WalkText::tr("the model's guesses for this token")
                                    : WalkText::tr("next-token probabilities");
    w.prediction_explanation =
        w.masked_lm ? WalkText::tr(
                          "The logits divided by the temperature T and turned into "
                          "probabilities: the model's guesses for the hidden token.")
                    : WalkText::tr(
                          "The logits divided by the temperature T and turned into "
                          "probabilities. Low T sharpens them, high T flattens them; top-k and "
                          "top-p keep only the likeliest.");
    return w;
}

}  // namespace attnviz::ui
