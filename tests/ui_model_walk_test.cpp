// The whole model at one token (issue 35): the model-walk figure on real traces of the shipped
// models and of every family's tiny golden checkpoint.  The stages each family shows and their
// order, the hovered cell's value against the trace, the prediction's probabilities against
// models::sampling_distribution under temperature, top-k and top-p, folding, the drawn token,
// and the text layout in English and Chinese (inside the canvas, no overlaps).  Set
// ATTNVIZ_WALK_SHOTS to a folder to get the PNGs a reviewer looks at.
#include <QCoreApplication>
#include <QDir>
#include <QHash>
#include <QImage>
#include <QPainter>
#include <QTest>
#include <QTranslator>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <numeric>

#include "engine/models/model_folder.h"
#include "engine/models/token_trace.h"
#include "test_support.h"
#include "text_layout.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/classroom/model_walk.h"
#include "ui/classroom/model_walk_figure.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_trace.h"
#include "ui/render/figure_factory.h"
#include "ui/render/fonts.h"

using namespace attnviz;
using namespace attnviz::ui;
using models::TraceStep;
using Kind = ModelWalkFigure::Hit::Kind;

namespace {

std::string golden_model(const std::string& name) {
    return test::golden_dir() + "/models/" + name;
}
std::string shipped_model(const std::string& name) {
    return test::golden_dir() + "/../../resources/models/" + name;
}

/// The first [MASK] of a masked LM's input, else its last token.
int default_position(const models::OpenedModel& m, const models::ModelInput& input) {
    if (m.model->lm_head() == models::LmHeadKind::Masked)
        for (const char* mask : {"[MASK]", "<mask>"})
            if (const auto id = m.tokenizer.token_to_id(mask))
                for (std::size_t t = 0; t < input.ids.size(); ++t)
                    if (input.ids[t] == *id) return int(t);
    return int(input.ids.size()) - 1;
}

/// The trace of `folder`'s pass over its golden input (or `text`) at `position` (-1: the
/// first [MASK] of a masked LM, else the last token), as the window's compute side builds it.
std::shared_ptr<ModelTrace> make_trace(const std::string& folder, const std::string& text = {},
                                       int position = -1) {
    auto opened = std::make_shared<models::OpenedModel>(models::open_model_folder(folder));
    models::ModelInput input;
    if (text.empty() && std::filesystem::exists(folder + "/reference/input_ids.npy")) {
        input.ids = test::read_int64_npy(folder + "/reference/input_ids.npy");
        if (std::filesystem::exists(folder + "/reference/token_type_ids.npy"))
            input.token_type_ids = test::read_int64_npy(folder + "/reference/token_type_ids.npy");
    } else {
        input =
            models::encode_text(*opened, text.empty() ? "The cat sat on the mat. The cat" : text)
                .input;
    }
    // A masked LM is traced at a [MASK], as a teacher types it: the golden input has none, so
    // one of its words becomes one.
    if (opened->model->lm_head() == models::LmHeadKind::Masked && input.ids.size() > 3)
        if (const auto mask = opened->tokenizer.token_to_id("[MASK]");
            mask && std::find(input.ids.begin(), input.ids.end(), *mask) == input.ids.end())
            input.ids[input.ids.size() / 2] = *mask;
    if (position < 0) position = default_position(*opened, input);
    auto out = std::make_shared<ModelTrace>();
    out->trace = models::trace_token(*opened->model, input, position);
    out->info = opened->model->info();
    out->gated = opened->model->config().family == models::Family::Llama &&
                 opened->model->config().intermediate_size > 0;
    out->name = QString::fromStdString(out->info.display_name);
    for (std::int64_t id : input.ids)
        out->pieces.push_back(token_label(opened->tokenizer, id));
    out->model = opened;
    return out;
}

FigureOptions walk_options(int font_px = 13) {
    FigureOptions o;
    o.kind = FigureKind::Steps;
    o.whole_model = true;
    o.font_px = font_px;
    o.open_layers = ~quint64(0);
    return o;
}

std::vector<TraceStep> steps_of(const WalkSection& s) {
    std::vector<TraceStep> out;
    for (const WalkStage& st : s.stages)
        out.push_back(st.step);
    return out;
}

QString names(const std::vector<TraceStep>& steps) {
    QStringList out;
    for (TraceStep s : steps)
        out << QString::fromLatin1(models::trace_step_name(s));
    return out.join(QLatin1Char(','));
}

const WalkStage* find_stage(const ModelWalk& w, int layer, TraceStep step, int* section = nullptr,
                            int* stage = nullptr) {
    for (std::size_t s = 0; s < w.sections.size(); ++s)
        for (std::size_t k = 0; k < w.sections[s].stages.size(); ++k) {
            const WalkStage& st = w.sections[s].stages[k];
            if (st.layer == layer && st.step == step) {
                if (section) *section = int(s);
                if (stage) *stage = int(k);
                return &st;
            }
        }
    return nullptr;
}

/// The number after the last " = " of a hover text.
double value_in(const QString& text) {
    const qsizetype at = text.lastIndexOf(QStringLiteral(" = "));
    return at < 0 ? std::nan("") : text.mid(at + 3).toDouble();
}

/// Chinese for the figure's words: the names a class reads first, and every other message
/// of the context behind a Chinese prefix (wider, and drawn with the taller CJK font), so the
/// layout is tried as the Chinese catalog will draw it.
class ChineseWalk : public QTranslator {
  public:
    bool isEmpty() const override { return false; }
    QString translate(const char* context, const char* source, const char* disambiguation,
                      int n) const override {
        (void)disambiguation;
        if (qstrcmp(context, "ModelWalk") != 0) return {};
        static const QHash<QString, QString> words{
            {QStringLiteral("Embeddings"), QStringLiteral("嵌入")},
            {QStringLiteral("Output"), QStringLiteral("输出")},
            {QStringLiteral("Layer %1"), QStringLiteral("第 %1 层")},
            {QStringLiteral("token embedding"), QStringLiteral("词元嵌入")},
            {QStringLiteral("position embedding"), QStringLiteral("位置嵌入")},
            {QStringLiteral("the residual stream"), QStringLiteral("残差流")},
            {QStringLiteral("norm before attention"), QStringLiteral("注意力前的归一化")},
            {QStringLiteral("queries"), QStringLiteral("查询")},
            {QStringLiteral("keys"), QStringLiteral("键")},
            {QStringLiteral("values"), QStringLiteral("值")},
            {QStringLiteral("attention weights"), QStringLiteral("注意力权重")},
            {QStringLiteral("head outputs"), QStringLiteral("各头的输出")},
            {QStringLiteral("attention output"), QStringLiteral("注意力输出")},
            {QStringLiteral("residual add"), QStringLiteral("残差相加")},
            {QStringLiteral("norm before the MLP"), QStringLiteral("MLP 前的归一化")},
            {QStringLiteral("MLP up"), QStringLiteral("MLP 升维")},
            {QStringLiteral("activation"), QStringLiteral("激活")},
            {QStringLiteral("MLP down"), QStringLiteral("MLP 降维")},
            {QStringLiteral("final norm"), QStringLiteral("最终归一化")},
            {QStringLiteral("logits"), QStringLiteral("对数几率")},
            {QStringLiteral("next-token probabilities"), QStringLiteral("下一个词元的概率")},
            {QStringLiteral("◀ drawn"), QStringLiteral("◀ 抽中")},
            {QStringLiteral("How %1 picks the token after “%2”, step by step"),
             QStringLiteral("%1 如何一步步选出“%2”之后的词元")},
            {QStringLiteral("%n step(s)"), QStringLiteral("%n 步")},
            {QStringLiteral("%n layer(s)"), QStringLiteral("%n 层")},
        };
        QString out = words.value(QString::fromUtf8(source));
        if (out.isEmpty()) out = QStringLiteral("中文：") + QString::fromUtf8(source);
        if (n >= 0) out.replace(QStringLiteral("%n"), QString::number(n));
        return out;
    }
};

struct Language {
    explicit Language(bool chinese) {
        if (chinese) QCoreApplication::installTranslator(&translator);
    }
    ~Language() { QCoreApplication::removeTranslator(&translator); }
    ChineseWalk translator;
};

/// The figure's text as QPainter draws it, on a canvas of the figure's natural height.
QList<test::DrawnText> drawn_texts(ModelWalkFigure& f, int width, QSize* canvas) {
    const int h = f.naturalHeight(width);
    *canvas = QSize(width, h);
    f.layout(*canvas);
    test::TextLayoutDevice device(*canvas);
    QPainter p(&device);
    f.paint(&p, false);
    p.end();
    return device.texts();
}

void save_shot(ModelWalkFigure& f, int width, const QString& name) {
    const QString dir = qEnvironmentVariable("ATTNVIZ_WALK_SHOTS");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    const int h = f.naturalHeight(width);
    f.layout(QSize(width, h));
    QImage image(width, h, QImage::Format_RGB32);
    QPainter p(&image);
    f.paint(&p, false);
    p.end();
    image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

}  // namespace

class ModelWalkTest : public QObject {
    Q_OBJECT

  private slots:
    // --- the stages ----------------------------------------------------------------------
    void stagesFollowTheFamily_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("embeddings");
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QString>("output");
        QTest::newRow("attn-only-2l")
            << QString::fromStdString(shipped_model("attn-only-2l")) << "embedding"
            << "attention_norm,query,key,value,query_rotated,key_rotated,attention,context,"
               "attention_output,attention_residual"
            << "final_norm,logits";
        QTest::newRow("gpt2_lmhead")
            << QString::fromStdString(golden_model("gpt2_lmhead"))
            << "token_embedding,position_embedding,embedding"
            << "attention_norm,query,key,value,attention,context,attention_output,"
               "attention_residual,mlp_norm,up,activation,mlp_output,mlp_residual"
            << "final_norm,logits";
        QTest::newRow("llama_gqa")
            << QString::fromStdString(golden_model("llama_gqa")) << "embedding"
            << "attention_norm,query,key,value,query_rotated,key_rotated,attention,context,"
               "attention_output,attention_residual,mlp_norm,gate,up,activation,mlp_output,"
               "mlp_residual"
            << "final_norm,logits";
        QTest::newRow("qwen3_qknorm")
            << QString::fromStdString(golden_model("qwen3_qknorm")) << "embedding"
            << "attention_norm,query,key,value,query_rotated,key_rotated,attention,context,"
               "attention_output,attention_residual,mlp_norm,gate,up,activation,mlp_output,"
               "mlp_residual"
            << "final_norm,logits";
        QTest::newRow("bert_mlm_prefix")
            << QString::fromStdString(golden_model("bert_mlm_prefix"))
            << "token_embedding,position_embedding,token_type_embedding,embedding_sum,embedding"
            << "query,key,value,attention,context,attention_output,attention_residual,"
               "attention_residual_norm,up,activation,mlp_output,mlp_residual,mlp_residual_norm"
            << "head_transform,head_activation,head_norm,logits";
    }
    void stagesFollowTheFamily() {
        QFETCH(QString, folder);
        QFETCH(QString, embeddings);
        QFETCH(QString, layer);
        QFETCH(QString, output);
        const auto trace = make_trace(folder.toStdString());
        const ModelWalk w = build_model_walk(*trace);
        QCOMPARE(w.layers, int(trace->trace.layers));
        QCOMPARE(int(w.sections.size()), w.layers + 2);
        QCOMPARE(w.sections.front().kind, WalkSection::Kind::Embeddings);
        QCOMPARE(names(steps_of(w.sections.front())), embeddings);
        for (int l = 0; l < w.layers; ++l) {
            const WalkSection& s = w.sections[std::size_t(l + 1)];
            QCOMPARE(s.kind, WalkSection::Kind::Layer);
            QCOMPARE(s.layer, l);
            QCOMPARE(s.title, QStringLiteral("Layer %1").arg(l + 1));  // from 1
            QCOMPARE(names(steps_of(s)), layer);
            QVERIFY(std::isfinite(s.norm_in) && std::isfinite(s.norm_out));
        }
        QCOMPARE(w.sections.back().kind, WalkSection::Kind::Output);
        QCOMPARE(names(steps_of(w.sections.back())), output);
        // Every stage shows the engine's own numbers: the trace's vector itself, its shape.
        for (const WalkSection& s : w.sections)
            for (const WalkStage& st : s.stages) {
                if (st.step == TraceStep::Logits && !trace->trace.find(st.layer, st.step)) {
                    QCOMPARE(st.values, trace->trace.logits.data());
                    QCOMPARE(std::size_t(st.cols), trace->trace.logits.size());
                    continue;
                }
                const models::TraceVector* v = trace->trace.find(st.layer, st.step);
                QVERIFY(v);
                QCOMPARE(st.values, v->values.data());
                QCOMPARE(st.rows, int(v->rows));
                QCOMPARE(st.cols, int(v->cols));
                QVERIFY2(!st.formula.isEmpty() && !st.name.isEmpty() && !st.explanation.isEmpty(),
                         qPrintable(st.name));
            }
    }

    void wordsFollowTheFamily() {
        {
            const ModelWalk w = build_model_walk(*make_trace(golden_model("gpt2_lmhead")));
            QCOMPARE(w.norm_name, QStringLiteral("LayerNorm"));
            QCOMPARE(find_stage(w, 0, TraceStep::AttentionNorm)->formula,
                     QStringLiteral("h = LayerNorm(x)"));
            QCOMPARE(find_stage(w, 0, TraceStep::Query)->formula, QStringLiteral("Q = h W_Q"));
            QCOMPARE(find_stage(w, 0, TraceStep::Activation)->formula, QStringLiteral("GELU(u)"));
            QCOMPARE(find_stage(w, -1, TraceStep::Embedding)->formula, QStringLiteral("x = e + p"));
            QVERIFY(!w.masked_lm && w.causal);
        }
        {
            const auto trace = make_trace(golden_model("llama_gqa"));
            const ModelWalk w = build_model_walk(*trace);
            QCOMPARE(find_stage(w, 0, TraceStep::AttentionNorm)->formula,
                     QStringLiteral("h = RMSNorm(x)"));
            QCOMPARE(find_stage(w, 0, TraceStep::Activation)->formula,
                     QStringLiteral("SiLU(g) ⊙ u"));
            QCOMPARE(find_stage(w, 0, TraceStep::QueryRotated)->formula,
                     QStringLiteral("Q′ = RoPE(Q)"));
            // Grouped-query attention: fewer key heads than query heads, and said so.
            const WalkStage* k = find_stage(w, 0, TraceStep::Key);
            QCOMPARE(k->rows, int(trace->info.num_kv_heads));
            QVERIFY(k->rows < find_stage(w, 0, TraceStep::Query)->rows);
            QVERIFY(k->explanation.contains(QStringLiteral("Grouped-query")));
            QCOMPARE(k->shapeText(),
                     QStringLiteral("%1 heads × %2").arg(k->rows).arg(trace->info.head_dim));
            QVERIFY(find_stage(w, -1, TraceStep::Embedding)->explanation.contains("RoPE"));
        }
        {
            const ModelWalk w = build_model_walk(*make_trace(golden_model("qwen3_qknorm")));
            QCOMPARE(find_stage(w, 0, TraceStep::Query)->formula,
                     QStringLiteral("Q = RMSNorm(h W_Q)"));
            QCOMPARE(find_stage(w, 0, TraceStep::Key)->formula,
                     QStringLiteral("K = RMSNorm(h W_K)"));
        }
        {
            const auto trace = make_trace(golden_model("bert_mlm_prefix"));
            const ModelWalk w = build_model_walk(*trace);
            QVERIFY(w.masked_lm && !w.causal && !w.pre_norm);
            QCOMPARE(find_stage(w, 0, TraceStep::Query)->formula, QStringLiteral("Q = x W_Q"));
            QCOMPARE(find_stage(w, 0, TraceStep::AttentionResidualNorm)->formula,
                     QStringLiteral("x = LayerNorm(x + Attn(x))"));
            // The masked-LM head at the [MASK], and the title says which token it fills in.
            QCOMPARE(w.token, QStringLiteral("[MASK]"));
            ModelWalkFigure f;
            f.setTrace(trace);
            f.setOptions(walk_options());
            f.layout(QSize(1280, 800));
            QVERIFY2(f.titleText().contains(QStringLiteral("[MASK]")), qPrintable(f.titleText()));
            QVERIFY(f.titleText().contains(QStringLiteral("position %1").arg(w.position + 1)));
        }
        // The factory draws the walk for the steps kind's whole-model option.
        FigureOptions o = walk_options();
        QVERIFY(dynamic_cast<ModelWalkFigure*>(make_classroom_figure(o).get()));
        o.whole_model = false;
        QVERIFY(!dynamic_cast<ModelWalkFigure*>(make_classroom_figure(o).get()));
    }

    // --- hovering ------------------------------------------------------------------------
    void hoverShowsTheTracedValue_data() {
        QTest::addColumn<QString>("folder");
        QTest::newRow("gpt2_lmhead") << QString::fromStdString(golden_model("gpt2_lmhead"));
        QTest::newRow("llama_gqa") << QString::fromStdString(golden_model("llama_gqa"));
        QTest::newRow("attn-only-2l") << QString::fromStdString(shipped_model("attn-only-2l"));
    }
    void hoverShowsTheTracedValue() {
        QFETCH(QString, folder);
        const auto trace = make_trace(folder.toStdString());
        ModelWalkFigure f;
        f.setTrace(trace);
        f.setOptions(walk_options());
        f.layout(QSize(1280, 800));
        f.layout(QSize(1280, f.naturalHeight(1280)));
        const ModelWalk& w = f.walk();
        int checked = 0;
        for (std::size_t s = 0; s < w.sections.size(); ++s)
            for (std::size_t k = 0; k < w.sections[s].stages.size(); ++k) {
                const WalkStage& st = w.sections[s].stages[k];
                // A cell in the middle and the last one: a wrapped vector's last line too.
                for (auto [row, col] :
                     {std::pair{st.rows / 2, st.cols / 2}, std::pair{st.rows - 1, st.cols - 1}}) {
                    const QRectF cell = f.cellRect(int(s), int(k), row, col);
                    QVERIFY(!cell.isEmpty());
                    const auto hit = f.hitTest(cell.center());
                    QCOMPARE(hit.kind, Kind::Cell);
                    QCOMPARE(hit.section, int(s));
                    QCOMPARE(hit.stage, int(k));
                    QCOMPARE(hit.row, row);
                    QCOMPARE(hit.col, col);
                    const QString text = f.describe(hit);
                    const double expected = trace->trace.find(st.layer, st.step)
                                                ? trace->trace.find(st.layer, st.step)
                                                      ->values[std::size_t(row) * st.cols + col]
                                                : trace->trace.logits[std::size_t(col)];
                    const double got = value_in(text);
                    QVERIFY2(std::abs(got - expected) <= 1e-6 * std::max(1.0, std::abs(expected)),
                             qPrintable(QStringLiteral("%1: expected %2").arg(text).arg(expected)));
                    ++checked;
                }
            }
        QVERIFY(checked > 20);
        // The words of a hover text: where, what, which cell, from 1 for layers and heads.
        int s = -1, k = -1;
        const WalkStage* up = find_stage(w, 1, TraceStep::AttentionOutput, &s, &k);
        QVERIFY(up);
        const QString text = f.describe(f.hitTest(f.cellRect(s, k, 0, 17).center()));
        QVERIFY2(text.startsWith(QStringLiteral("Layer 2 · attention output · [17] = ")),
                 qPrintable(text));
        const WalkStage* a = find_stage(w, 0, TraceStep::Attention, &s, &k);
        const QString at = f.describe(f.hitTest(f.cellRect(s, k, 1, 0).center()));
        QVERIFY2(
            at.startsWith(QStringLiteral("Layer 1 · attention weights · head 2 → “%1” (token 1)")
                              .arg(visible_token(trace->pieces[0]))),
            qPrintable(at));
        QCOMPARE(a->cols, int(trace->pieces.size()));
    }

    // --- the prediction ------------------------------------------------------------------
    void candidatesFollowTheSampling() {
        const auto trace = make_trace(golden_model("gpt2_lmhead"));
        ModelWalkFigure f;
        f.setTrace(trace);
        FigureOptions o = walk_options();
        const float* z = trace->trace.logits.data();
        const auto V = std::int64_t(trace->trace.logits.size());
        double top_at_low = 0.0, top_at_high = 0.0;
        struct Case {
            double t;
            int k;
            double p;
        };
        for (Case c : {Case{1.0, 0, 1.0}, Case{0.5, 0, 1.0}, Case{2.0, 0, 1.0}, Case{1.0, 5, 1.0},
                       Case{1.0, 0, 0.5}, Case{1.0, 1, 1.0}, Case{0.0, 0, 1.0}}) {
            o.temperature = c.t;
            o.top_k = c.k;
            o.top_p = c.p;
            f.setOptions(o);
            f.layout(QSize(1280, 800));
            const auto dist = models::sampling_distribution(z, V, {c.t, c.k, c.p});
            const auto& cands = f.candidates();
            QCOMPARE(int(cands.size()), int(std::min<std::int64_t>(10, V)));
            int kept = 0;
            for (const auto& cand : cands) {
                double expected = 0.0;
                for (std::size_t i = 0; i < dist.ids.size(); ++i)
                    if (dist.ids[i] == cand.id) expected = dist.probability(i);
                QVERIFY2(std::abs(cand.probability - expected) <= 1e-12,
                         qPrintable(QStringLiteral("T %1 k %2 p %3 id %4: %5 vs %6")
                                        .arg(c.t)
                                        .arg(c.k)
                                        .arg(c.p)
                                        .arg(cand.id)
                                        .arg(cand.probability)
                                        .arg(expected)));
                QCOMPARE(cand.kept, expected > 0.0);
                kept += cand.kept;
                QCOMPARE(cand.text, visible_token(trace->text(cand.id)));
            }
            // Highest logit first.
            for (std::size_t i = 1; i < cands.size(); ++i)
                QVERIFY(cands[i - 1].logit >= cands[i].logit);
            if (c.k == 1 || c.t == 0.0) {  // one candidate left, certain
                QCOMPARE(kept, 1);
                QCOMPARE(cands[0].probability, 1.0);
                QVERIFY(!cands[1].kept);
                QCOMPARE(cands[1].probability, 0.0);
            }
            if (c.k == 5) QCOMPARE(kept, 5);
            if (c.t == 0.5) top_at_low = cands[0].probability;
            if (c.t == 2.0) top_at_high = cands[0].probability;
            QVERIFY(f.samplingText().contains(c.t > 0 ? QStringLiteral("T = %1").arg(c.t, 0, 'f', 2)
                                                      : QStringLiteral("T = 0")));
        }
        // A low temperature sharpens the distribution, a high one flattens it.
        QVERIFY2(top_at_low > top_at_high,
                 qPrintable(QStringLiteral("%1 vs %2").arg(top_at_low).arg(top_at_high)));
        // The bars: a click on one names its token.
        const auto& cands = f.candidates();
        const QRectF row = f.candidateRect(cands[2].id);
        const auto hit = f.hitTest(row.center());
        QCOMPARE(hit.kind, Kind::Candidate);
        QCOMPARE(hit.id, cands[2].id);
        QVERIFY(f.describe(hit).contains(cands[2].text));
    }

    void samplingChangesKeepTheLayers() {
        const auto trace = make_trace(golden_model("gpt2_lmhead"));
        ModelWalkFigure f;
        f.setTrace(trace);
        FigureOptions o = walk_options();
        f.setOptions(o);
        f.layout(QSize(1280, 800));
        const QRectF header = f.headerRect(1);
        const QRectF strip = f.stripRect(2, 3);
        const QRectF prediction = f.predictionRect();
        o.temperature = 0.3;
        o.top_k = 3;
        f.setOptions(o);
        f.layout(QSize(1280, 800));
        QCOMPARE(f.headerRect(1), header);
        QCOMPARE(f.stripRect(2, 3), strip);
        QCOMPARE(f.predictionRect().top(), prediction.top());
        QVERIFY(f.samplingText().contains(QStringLiteral("top-k = 3")));
    }

    void theDrawnTokenIsHighlighted() {
        const auto trace = make_trace(golden_model("gpt2_lmhead"));
        const float* z = trace->trace.logits.data();
        const auto V = std::int64_t(trace->trace.logits.size());
        FigureOptions o = walk_options();
        o.temperature = 1.5;
        const auto dist = models::sampling_distribution(z, V, {o.temperature, 0, 1.0});
        models::SampleGenerator gen(7);
        o.drawn = dist.draw(gen.uniform());
        ModelWalkFigure f;
        f.setTrace(trace);
        f.setOptions(o);
        f.layout(QSize(1280, 800));
        int drawn = 0;
        for (const auto& c : f.candidates())
            if (c.drawn) {
                ++drawn;
                QCOMPARE(c.id, o.drawn);
            }
        QCOMPARE(drawn, 1);
        const auto hit = f.hitTest(f.candidateRect(o.drawn).center());
        QCOMPARE(hit.kind, Kind::Candidate);
        QCOMPARE(hit.id, o.drawn);
        // Its bar is drawn in the accent colour; another kept bar is not.
        f.layout(QSize(1280, f.naturalHeight(1280)));
        QImage image(1280, f.naturalHeight(1280), QImage::Format_RGB32);
        {
            QPainter p(&image);
            f.paint(&p, false);
        }
        const QRectF bar = f.candidateBar(o.drawn);
        QCOMPARE(image.pixelColor(bar.topLeft().toPoint() + QPoint(1, int(bar.height() / 2))),
                 paint::kAccent);
        for (const auto& c : f.candidates())
            if (!c.drawn && c.kept) {
                const QRectF other = f.candidateBar(c.id);
                QVERIFY(image.pixelColor(other.topLeft().toPoint() +
                                         QPoint(1, int(other.height() / 2))) != paint::kAccent);
                break;
            }
        // A drawn token outside the ten likeliest gets a row of its own, last.
        std::vector<std::int64_t> order(static_cast<std::size_t>(V));
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [z](auto a, auto b) { return z[a] > z[b]; });
        o.drawn = order[20];
        f.setOptions(o);
        f.layout(QSize(1280, 800));
        QCOMPARE(int(f.candidates().size()), 11);
        QCOMPARE(f.candidates().back().id, o.drawn);
        QVERIFY(f.candidates().back().drawn);
        QCOMPARE(f.candidates().back().rank, 21);
    }

    // --- folding -------------------------------------------------------------------------
    void foldingALayerShortensTheFigure() {
        const auto trace = make_trace(golden_model("llama_gqa"));
        ModelWalkFigure f;
        f.setTrace(trace);
        FigureOptions o = walk_options();
        f.setOptions(o);
        const int open = f.naturalHeight(1280);
        o.open_layers = ~quint64(0) & ~quint64(1);  // layer 1 folded
        f.setOptions(o);
        const int folded = f.naturalHeight(1280);
        QVERIFY2(folded < open, qPrintable(QStringLiteral("%1 vs %2").arg(folded).arg(open)));
        // A folded layer is its header alone: none of its cells on the canvas.
        const int s = f.walk().sectionOfLayer(0);
        QVERIFY(f.stripRect(s, 0).isNull());
        QVERIFY(!f.stripRect(s + 1, 0).isNull());
        const QRectF header = f.headerRect(0);
        QVERIFY(!header.isEmpty());
        const auto hit = f.hitTest(header.center());
        QCOMPARE(hit.kind, Kind::LayerHeader);
        QCOMPARE(hit.layer, 0);
        QVERIFY(f.describe(hit).contains(QStringLiteral("open")));
        o.open_layers = 0;
        f.setOptions(o);
        QVERIFY(f.naturalHeight(1280) < folded);
        QCOMPARE(f.hitTest(f.headerRect(1).center()).layer, 1);
    }

    // --- presentation --------------------------------------------------------------------
    void textStaysInsideInBothLanguages_data() {
        QTest::addColumn<bool>("chinese");
        QTest::addColumn<int>("font_px");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("text");
        const QString zh = QString::fromStdString(shipped_model("char-zh-en-4l"));
        const QString en = QString::fromStdString(shipped_model("attn-only-2l"));
        for (bool chinese : {false, true})
            for (int px : {13, 24}) {
                const char* lang = chinese ? "zh_CN" : "en";
                QTest::addRow("%s/%dpx/char-zh-en-4l", lang, px)
                    << chinese << px << zh << QStringLiteral("床前明月光，疑是地上霜。举头望明");
                QTest::addRow("%s/%dpx/attn-only-2l", lang, px)
                    << chinese << px << en
                    << QStringLiteral("The cat sat on the mat. The cat sat on the");
                QTest::addRow("%s/%dpx/bert_mlm_prefix", lang, px)
                    << chinese << px << QString::fromStdString(golden_model("bert_mlm_prefix"))
                    << QString();
            }
    }
    void textStaysInsideInBothLanguages() {
        QFETCH(bool, chinese);
        QFETCH(int, font_px);
        QFETCH(QString, folder);
        QFETCH(QString, text);
        Language language(chinese);
        const auto trace = make_trace(folder.toStdString(), text.toStdString());
        ModelWalkFigure f;
        f.setTrace(trace);
        FigureOptions o = walk_options(font_px);
        o.open_layers = 0b101;  // layers 1 and 3 open
        o.high_contrast = font_px > 20;
        o.temperature = 0.8;
        o.top_k = 5;
        const auto dist = models::sampling_distribution(
            trace->trace.logits.data(), std::int64_t(trace->trace.logits.size()), {0.8, 5, 1.0});
        o.drawn = dist.ids.size() > 1 ? dist.ids[1] : dist.ids[0];
        f.setOptions(o);
        if (chinese)
            QVERIFY2(f.titleText().contains(QStringLiteral("中文")) ||
                         f.titleText().contains(QStringLiteral("如何")),
                     qPrintable(f.titleText()));
        for (int width : {1280, 800}) {
            QSize canvas;
            const QList<test::DrawnText> texts = drawn_texts(f, width, &canvas);
            QVERIFY(texts.size() > 30);
            const QStringList outside = test::texts_outside(texts, canvas);
            QVERIFY2(outside.isEmpty(), qPrintable(outside.join(QLatin1Char('\n'))));
            const QStringList overlaps = test::overlapping_texts(texts);
            QVERIFY2(overlaps.isEmpty(), qPrintable(overlaps.mid(0, 8).join(QLatin1Char('\n'))));
        }
        const QString name =
            QStringLiteral("%1_%2px_%3")
                .arg(chinese ? QStringLiteral("zh") : QStringLiteral("en"))
                .arg(font_px)
                .arg(QString::fromLatin1(QTest::currentDataTag()).section(QLatin1Char('/'), 2));
        save_shot(f, 1280, name);
    }

    void vectorOutputDrawsTheSameFigure() {
        const auto trace = make_trace(shipped_model("attn-only-2l"), "abc abc ab");
        ModelWalkFigure f;
        f.setTrace(trace);
        f.setOptions(walk_options());
        const int h = f.naturalHeight(1000);
        f.layout(QSize(1000, h));
        QImage raster(1000, h, QImage::Format_RGB32), vector(1000, h, QImage::Format_RGB32);
        {
            QPainter p(&raster);
            f.paint(&p, false);
        }
        {
            QPainter p(&vector);
            f.paint(&p, true);
        }
        // The cells as rectangles land where the image's pixels do.
        int s = -1, k = -1;
        find_stage(f.walk(), 0, TraceStep::Query, &s, &k);
        for (int c : {0, 5, 15}) {
            const QPoint at = f.cellRect(s, k, 3, c).center().toPoint();
            QCOMPARE(vector.pixelColor(at), raster.pixelColor(at));
        }
    }
};

QTEST_MAIN(ModelWalkTest)
#include "ui_model_walk_test.moc"
