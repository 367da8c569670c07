// Every figure kind (grid, mean, head, steps, lines, compare, model, atlas, lens, predictions,
// patch, positions, full map, dla, circuits, flow), in English and Chinese, at the export's default
// size and at 1280×800 (issue 35): every text item lies inside the canvas and no two overlap.
// Each figure is drawn by the code the exports use (render/figure_export.h) on a device that
// records its text (support/text_layout.h), fed by every built-in example's session: the demo
// layer's and the shipped models' inputs, English and Chinese, knocked-out heads, a
// continuation.

#include <QPainter>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>

#include "engine/models/circuits.h"
#include "engine/models/gradient_attribution.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "engine/ops/map_pyramid.h"
#include "test_support.h"
#include "text_layout.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/classroom/compare_model.h"
#include "ui/classroom/examples.h"
#include "ui/classroom/steps_model.h"
#include "ui/cli/export_command.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/full_map_source.h"
#include "ui/compute/model_lens.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/compute/model_trace.h"
#include "ui/compute/statistics_runner.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/i18n/language.h"
#include "ui/model/atlas_view.h"
#include "ui/model/circuits_figure.h"
#include "ui/model/dla_figure.h"
#include "ui/model/flow_figure.h"
#include "ui/model/patch_figure.h"
#include "ui/model/positions_view.h"
#include "ui/model/predictions_figure.h"
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"
#include "ui/render/zoom_map_figure.h"
#include "ui/widgets/full_map_window.h"
#include "ui/widgets/main_window.h"  // language.h holds a QPointer<MainWindow>

using namespace attnviz;
using namespace attnviz::ui;
using test::DrawnText;
using test::TextLayoutDevice;

namespace {
/// The canvases: the export's default (ExportSize: the Export dialog's and `attnviz export`'s)
/// and a 1280×800 projector's screen.
struct Canvas {
    const char* name;
    QSize size;
};
const Canvas kCanvases[] = {{"default", QSize(ExportSize{}.width, ExportSize{}.height)},
                            {"1280x800", QSize(1280, 800)}};

/// What one figure drew: which figure, its canvas and its texts.
struct Drawn {
    QString figure;
    QSize canvas;
    QList<DrawnText> texts;
};

/// A figure of the heatmaps or a classroom figure, as export_figure() draws it: on the
/// canvas fitted_figure_size() gives.
Drawn draw_figure(const QString& name, const AttentionSnapshot& snapshot,
                  const FigureOptions& options, QSize size,
                  const AttentionSnapshot* compared = nullptr) {
    const QSize canvas = fitted_figure_size(snapshot, options, size, compared);
    TextLayoutDevice device(canvas);
    paint_figure(&device, snapshot, options, canvas, false, compared);
    return {name, canvas, device.texts()};
}

/// A figure that paints itself, as render_painted_figure() draws it.
Drawn draw_painted(const QString& name, PaintedFigure& figure, QSize size) {
    const QSize canvas = fitted_painted_figure_size(figure, size);
    TextLayoutDevice device(canvas);
    paint_painted_figure(&device, figure, false);
    return {name, canvas, device.texts()};
}

/// A widget that paints itself (the atlas's grid), at `size`, as the window shows it.
Drawn draw_widget(const QString& name, QWidget* widget, QSize size) {
    widget->resize(size);
    TextLayoutDevice device(size);
    widget->render(&device, QPoint(), QRegion(), QWidget::DrawChildren);
    return {name, size, device.texts()};
}

/// The document of example `e`, as the Examples menu opens it.
bool open_example(const Example& e, AttentionDocument* doc, QString* error) {
    return load_session(e.resource, doc, nullptr, error);
}

int threads() {
    return std::max(1, QThread::idealThreadCount());
}

/// The Chinese counterpart of the shipped patching example (ui_export_test's).
Example::Patch chinese_patch() {
    return {QStringLiteral("春风不觉晓 & 处处闻啼鸟。春风不觉晓 & 处处闻啼"),
            QStringLiteral("春风不觉晓 & 处处闻啼花。春风不觉晓 & 处处闻啼"), QStringLiteral("鸟"),
            QStringLiteral("花")};
}

/// What the Patching tab shows for one pair of texts: the sweep, its best head's maps on both
/// texts, and attribution patching's estimate.
struct PatchData {
    PatchMaps maps;  ///< swept, without a head chosen
    PatchHeadMaps head;
    models::AttributionPatching estimate;
};

/// Every figure kind of one example's document: its passes computed once, in the language
/// installed (the snapshots hold translated words), then drawn on any canvas as the exports
/// draw them.
class Figures {
  public:
    /// Computes everything; a failure is the test's (QVERIFY).
    Figures(const AttentionDocument& doc, const Example& e) : doc_(doc) {
        const ComputeConfig& config = doc.computeConfig();
        computeSnapshots();
        if (!config.usesModel()) return;
        computePositions();
        if (QTest::currentTestFailed()) return;
        if (!config.usesMaps()) computeWhy();
        if (!e.patch.clean.isEmpty()) patches_.push_back(computePatch(e.patch));
        if (e.id == QLatin1String("induction_head_zh"))
            patches_.push_back(computePatch(chinese_patch()));
    }

    void draw(QSize size, std::vector<Drawn>* out) {
        drawSnapshotKinds(size, out);
        drawPositions(size, out);
        drawWhy(size, out);
        for (const PatchData& p : patches_)
            drawPatch(p, size, out);
    }

  private:
    const ComputeConfig& config() const { return doc_.computeConfig(); }

    /// The snapshot the heatmaps and the classroom figures draw, and the comparison the example
    /// sets up, else one a class would try: the causal mask for the demo layer, the other
    /// layer for a model.
    void computeSnapshots() {
        const bool model = config().usesModel();
        s_ = compute_snapshot(config(), 1, nullptr, threads(), nullptr, model, nullptr,
                              model && !config().usesMaps());
        changes_ = doc_.compare().changes;
        if (changes_.empty()) {
            if (model)
                changes_.layer = config().layer == 0 ? 1 : 0;
            else
                changes_.causal = !config().causal;
        }
        b_ = compute_compared(config(), changes_, 2, nullptr, threads());
        if (!model) return;
        head_ = std::clamp(doc_.figureOptions().head, 0, std::max(0, s_->heads - 1));
        // One head's full map (the full-map window's export of the whole map).
        const FullMapSourcePtr source = full_map_source(*s_);
        if (source && source->unavailable(config().layer, head_).isEmpty()) {
            HeadMap map = source->map(config().layer, head_, PassControl{});
            full_map_.emplace();
            map_length_ = double(map.tokens.size());
            full_map_->setContent({std::make_shared<const ops::MapPyramid>(std::move(map.weights)),
                                   map.tokens, map.causal,
                                   FullMapWindow::tr("%1 · layer %2 · head %3")
                                       .arg(source->name())
                                       .arg(config().layer + 1)
                                       .arg(head_ + 1)});
        }
    }

    /// The kinds that draw a snapshot: the heatmaps and the classroom figures.
    void drawSnapshotKinds(QSize size, std::vector<Drawn>* out) {
        const AttentionSnapshot& s = *s_;
        FigureOptions base = doc_.figureOptions();
        base.kind = FigureKind::Heatmaps;
        base.step = -1;
        base.focus = false;
        const int head = std::clamp(base.head, 0, std::max(0, s.heads - 1));

        FigureOptions o = base;
        o.view = FigureView::Grid;
        out->push_back(draw_figure(QStringLiteral("grid"), s, o, size));
        o.view = FigureView::Mean;
        out->push_back(draw_figure(QStringLiteral("mean"), s, o, size));
        o.view = FigureView::Head;
        o.head = head;
        out->push_back(draw_figure(QStringLiteral("head"), s, o, size));

        if (QString why; !build_steps_model(s, 0, head, &why).empty()) {
            o = base;
            o.kind = FigureKind::Steps;
            o.head = head;
            out->push_back(draw_figure(QStringLiteral("steps"), s, o, size));
            o.step = 2;
            o.focus = true;
            out->push_back(draw_figure(QStringLiteral("steps (focus on a stage)"), s, o, size));
        }
        o = base;
        o.kind = FigureKind::Lines;
        out->push_back(draw_figure(QStringLiteral("lines"), s, o, size));

        o = base;
        o.kind = FigureKind::Compare;
        o.view = FigureView::Mean;
        o.compare_b_head = changes_.head ? *changes_.head : -2;
        out->push_back(draw_figure(QStringLiteral("compare (mean)"), s, o, size, b_.get()));
        if (std::min(s.heads, b_->heads) > 0) {
            o.view = FigureView::Head;
            o.head = 0;
            out->push_back(draw_figure(QStringLiteral("compare (head)"), s, o, size, b_.get()));
        }

        if (!s.model) return;
        o = base;
        o.kind = FigureKind::Model;
        out->push_back(draw_figure(QStringLiteral("model"), s, o, size));
        o.focus_token = s.model->tokens - 1;
        out->push_back(draw_figure(QStringLiteral("model (a token in focus)"), s, o, size));
        if (s.lens && s.lens->unavailable.isEmpty()) {
            o = base;
            o.kind = FigureKind::Lens;
            out->push_back(draw_figure(QStringLiteral("lens"), s, o, size));
        }
        if (s.model->predictions) {
            // As `attnviz export --view predictions`: as wide and as tall as it takes.
            PredictionsFigure predictions;
            predictions.setSnapshot(s_);
            o = base;
            o.kind = FigureKind::Predictions;
            predictions.setOptions(o);
            out->push_back(draw_painted(QStringLiteral("predictions"), predictions, size));
        }

        // The Atlas tab's grid of every layer and head, coloured by the default measure.
        AtlasView atlas;
        atlas.setSnapshot(s_);
        out->push_back(draw_widget(QStringLiteral("atlas"), atlas.grid(), size));

        if (full_map_) {
            const double L = map_length_;
            full_map_->setRegion(QRectF(0, 0, L, L));
            out->push_back(draw_painted(QStringLiteral("full map"), *full_map_, size));
            // Zoomed in until the rows are just tall enough for token labels (11 px).
            full_map_->layout(size);
            const double side =
                std::min(full_map_->plotRect().width(), full_map_->plotRect().height());
            full_map_->setRegion(QRectF(0, 0, std::min(L, side / 11.2), std::min(L, side / 11.2)));
            out->push_back(draw_painted(QStringLiteral("full map (zoomed in)"), *full_map_, size));
        }
    }

    /// A statistics pass over the document's text, as the Positions tab runs it.
    void computePositions() {
        StatisticsRunner runner;
        QSignalSpy finished(&runner, &StatisticsRunner::finished);
        QSignalSpy failed(&runner, &StatisticsRunner::failed);
        runner.start(config());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        stats_ = finished.at(0).at(0).value<PositionStatisticsPtr>();
    }

    /// The Positions tab's plot, both curves.
    void drawPositions(QSize size, std::vector<Drawn>* out) const {
        if (!stats_) return;
        for (const auto curve :
             {PositionsPlotOptions::Curve::Received, PositionsPlotOptions::Curve::FirstToken}) {
            PositionsPlotOptions options;
            options.curve = curve;
            const auto& h = stats_->statistics;
            for (std::int64_t k = 0; k < std::min<std::int64_t>(h.heads, 4); ++k)
                options.heads.push_back({h.layers - 1, k});
            PositionsFigure figure(stats_, options);
            out->push_back(draw_painted(curve == PositionsPlotOptions::Curve::Received
                                            ? QStringLiteral("positions (received)")
                                            : QStringLiteral("positions (first token)"),
                                        figure, size));
        }
    }

    /// The why figures of the document's text: Who Writes (direct logit attribution, for the
    /// top prediction at the last token) and Flow (to that prediction) where the model has
    /// them (not post-norm, with a head), and the Circuits tab's of its weights.
    void computeWhy() {
        const ModelPtr m = open_model(config().model_folder);
        const models::EncodedText e = encode_model_text(*m, config());
        if (dla_unavailable(*m).isEmpty()) {
            DlaRequest request;
            request.position = default_trace_piece(e.encoding, *m);
            dla_ = compute_dla(*m, e, config().text_a, request, threads());
        }
        if (flow_unavailable(*m).isEmpty()) {
            flow_ = compute_flow(*m, e, config().text_a, false, threads());
            // At a threshold low enough for many lines.
            graph_ = models::flow_graph(flow_->flow, default_trace_piece(e.encoding, *m), 0.02);
        }
        models::CircuitOptions o;
        o.num_threads = threads();
        circuits_ = make_circuit_maps(*m, models::circuit_scores(*m->model, o));
    }

    void drawWhy(QSize size, std::vector<Drawn>* out) const {
        FigureOptions options;
        options.font_px = ExportOptions{}.font_size;  // attnviz export's
        if (dla_) {
            DlaFigure figure;
            figure.setResult(&*dla_);
            figure.setOptions(options);
            out->push_back(draw_painted(QStringLiteral("dla"), figure, size));
        }
        if (flow_) {
            FlowFigure figure;
            figure.setData(&*flow_, &graph_);
            figure.setOptions(options);
            out->push_back(draw_painted(QStringLiteral("flow"), figure, size));
        }
        if (circuits_) {
            CircuitsFigure figure;
            figure.setMaps(&*circuits_);
            figure.setOptions(options);
            out->push_back(draw_painted(QStringLiteral("circuits"), figure, size));
            figure.setComposition(Composition::V);
            out->push_back(draw_painted(QStringLiteral("circuits (V)"), figure, size));
        }
    }

    /// The Patching tab's sweep of `p`, its best head's maps, and the estimate.
    PatchData computePatch(const Example::Patch& p) const {
        const QString& folder = config().model_folder;
        const ModelPtr m = open_model(folder);
        models::PatchRequest request =
            models::patch_request(*m, {p.clean.toStdString(), p.corrupt.toStdString(),
                                       p.target.toStdString(), p.distractor.toStdString(), -1});
        request.num_threads = threads();
        PatchData d{make_patch_maps(*m, request, p.clean, p.corrupt), {}, {}};
        d.maps.result = models::patch_sweep(*m->model, request);
        d.maps.done = d.maps.total;
        // The head the window's click would choose: its attention on both texts.
        int best_l = 0, best_h = 0;
        for (int l = 0; l < d.maps.num_layers; ++l)
            for (int h = 0; h < d.maps.num_heads; ++h)
                if (d.maps.fraction(l, h) > d.maps.fraction(best_l, best_h)) best_l = l, best_h = h;
        const auto head_map = [&](const QString& text) {
            ComputeConfig c;
            c.model_folder = folder;
            c.text_a = text;
            c.layer = best_l;
            const SnapshotPtr s = compute_snapshot(c, 1, nullptr, threads());
            const Tensor& w = s->model->weights[std::size_t(best_l)];
            const std::int64_t L = w.shape[1];
            Tensor one({L, L});
            std::copy_n(w.data.begin() + std::ptrdiff_t(best_h * L * L), L * L, one.data.begin());
            return one;
        };
        d.head = {best_l, best_h, head_map(p.clean), head_map(p.corrupt)};
        // Issue 38: attribution patching's estimate.
        d.estimate = models::attribution_patching(*m->model, request);
        return d;
    }

    /// The sweep, a head chosen (its attention on both texts beside the map), the exact sweep
    /// beside the estimate (the scatter; the estimate by position under the chosen head), half
    /// refined (hatched, the legend), and the estimate alone.
    static void drawPatch(const PatchData& d, QSize size, std::vector<Drawn>* out) {
        PatchMaps maps = d.maps;
        FigureOptions options;
        options.font_px = ExportOptions{}.font_size;  // attnviz export's
        PatchFigure figure;
        figure.setMaps(&maps);
        figure.setOptions(options);
        out->push_back(draw_painted(QStringLiteral("patch"), figure, size));
        maps.head = d.head;
        if (maps.head.clean.shape[0] != std::int64_t(maps.clean_tokens.size())) return;
        figure.setMaps(&maps);
        out->push_back(draw_painted(QStringLiteral("patch (a head chosen)"), figure, size));
        maps.setEstimate(d.estimate);
        out->push_back(draw_painted(QStringLiteral("patch (exact and estimate, a head chosen)"),
                                    figure, size));
        maps.head = {};
        out->push_back(draw_painted(QStringLiteral("patch (exact and estimate)"), figure, size));
        const models::PatchResult exact = maps.result;
        for (std::size_t i = exact.fraction.data.size() / 2; i < exact.fraction.data.size(); ++i)
            maps.result.fraction.data[i] = maps.result.m_patched.data[i] = std::nanf("");
        maps.done = maps.total / 2;
        out->push_back(draw_painted(QStringLiteral("patch (refining)"), figure, size));
        maps.method = PatchMethod::Attribution;
        maps.result = models::estimated_patch_result(d.estimate);
        maps.done = maps.total;
        maps.head = d.head;
        out->push_back(
            draw_painted(QStringLiteral("patch (attribution, a head chosen)"), figure, size));
    }

    const AttentionDocument& doc_;
    SnapshotPtr s_, b_;
    CompareChanges changes_;
    int head_ = 0;
    std::optional<ZoomMapFigure> full_map_;
    double map_length_ = 0;
    PositionStatisticsPtr stats_;
    std::optional<DlaResult> dla_;
    std::optional<FlowData> flow_;
    models::FlowGraph graph_;
    std::optional<CircuitMaps> circuits_;
    std::vector<PatchData> patches_;
};
}  // namespace

class FigureTextTest : public QObject {
    Q_OBJECT

    int rows_run_ = 0, rows_ = 0;
    QSet<QString> kinds_drawn_;  ///< "grid", "steps", ... as the rows drew them

  private slots:
    void cleanup() { install_translations(QStringLiteral("en")); }

    /// Every kind was drawn, in both languages, when every row ran (not under a filter).
    void cleanupTestCase() {
        if (rows_ == 0 || rows_run_ != rows_) return;
        const QStringList kinds{
            "grid", "mean",        "head",  "steps",     "lines",    "compare", "model",    "atlas",
            "lens", "predictions", "patch", "positions", "full map", "dla",     "circuits", "flow"};
        for (const char* language : {"en", "zh_CN"})
            for (const QString& kind : kinds)
                QVERIFY2(kinds_drawn_.contains(QLatin1String(language) + QLatin1Char('/') + kind),
                         qPrintable(QStringLiteral("%1 was never drawn in %2")
                                        .arg(kind, QLatin1String(language))));
    }

    // The recording device sees what QPainter draws, through the transform: a label drawn at a
    // known place, a rotated one, a line falling back to the CJK font; and the checks catch a
    // label out of the canvas and two labels on top of each other.
    void theDeviceRecordsTextAndTheChecksCatchDefects() {
        TextLayoutDevice device(QSize(200, 100));
        {
            QPainter p(&device);
            p.setFont(figure_font(20));
            p.drawText(QPointF(10, 30), QStringLiteral("ab"));
            p.translate(100, 90);
            p.rotate(-90);
            p.drawText(QPointF(0, 0), QStringLiteral("up"));
            p.resetTransform();
            p.setFont(figure_font(20, {QStringLiteral("注意")}));
            p.drawText(QPointF(120, 30), QStringLiteral("x注意"));
        }
        const QList<DrawnText>& t = device.texts();
        QCOMPARE(t.size(), 4);  // "x" and "注意" are two runs of two fonts
        QCOMPARE(t[0].text, QStringLiteral("ab"));
        const QFontMetricsF fm(figure_font(20));
        QCOMPARE(t[0].rect.left(), 10.0);
        QVERIFY(qAbs(t[0].rect.top() - (30 - fm.ascent())) < 0.5);
        QVERIFY(qAbs(t[0].rect.width() - fm.horizontalAdvance(QStringLiteral("ab"))) < 0.5);
        QVERIFY2(t[1].rect.height() > t[1].rect.width(), qPrintable(test::describe(t[1])));
        QVERIFY(t[1].rect.bottom() <= 90.5);
        QCOMPARE(t[3].text, QStringLiteral("注意"));
        QVERIFY2(t[3].rect.left() >= t[2].rect.right() - 0.5, qPrintable(test::describe(t[3])));
        QVERIFY2(test::texts_outside(t, device.size()).isEmpty(),
                 qPrintable(test::texts_outside(t, device.size()).join(QLatin1Char('\n'))));
        QVERIFY2(test::overlapping_texts(t).isEmpty(),
                 qPrintable(test::overlapping_texts(t).join(QLatin1Char('\n'))));

        QList<DrawnText> bad = t;
        bad.append({QStringLiteral("cut"), QFont(), QRectF(190, 10, 30, 15)});
        bad.append({QStringLiteral("on ab"), QFont(), t[0].rect.translated(4, 3)});
        const QStringList outside = test::texts_outside(bad, device.size());
        QCOMPARE(outside.size(), 1);
        QVERIFY2(outside[0].contains(QStringLiteral("“cut”")) &&
                     outside[0].contains(QLatin1String("right")),
                 qPrintable(outside[0]));
        const QStringList over = test::overlapping_texts(bad);
        QCOMPARE(over.size(), 1);
        QVERIFY2(
            over[0].contains(QStringLiteral("“ab”")) && over[0].contains(QStringLiteral("“on ab”")),
            qPrintable(over[0]));
    }

    // The captions' and notes' line breaking (paint::wrap_text), in both scripts and at widths
    // from a few characters to a whole line: every line fits (a line of one character may
    // not), nothing is lost or reordered, each line is as full as it can be (the next word or
    // character does not fit), and closing punctuation never starts a line.
    void wrappedTextFitsAndFillsEveryLine_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("cjk");
        QTest::newRow("english") << QStringLiteral(
                                        "Each head scores every key against the query, the "
                                        "scores are scaled by 1/sqrt(d_k), softmaxed over the "
                                        "keys and used to average the values: a weighted sum.")
                                 << false;
        QTest::newRow("chinese") << QStringLiteral(
                                        "每个注意力头用查询给每个键打分（缩放点积），经过软最大"
                                        "化后，得到的权重对值向量加权求和。这就是注意力：它决定"
                                        "每个词从哪些词那里取信息，“看”向哪里。")
                                 << true;
        QTest::newRow("a very long word")
            << QStringLiteral("see supercalifragilisticexpialidocious_and_more_of_it here")
            << false;
    }
    void wrappedTextFitsAndFillsEveryLine() {
        QFETCH(QString, text);
        QFETCH(bool, cjk);
        const QFont font = figure_font(16, {text});
        const QFontMetricsF fm(font);
        const QString closing = QStringLiteral("）)」』”’，。、：；！？》】");
        for (const double width : {40.0, 75.0, 130.0, 260.0, 600.0, 5000.0}) {
            const QString where = QStringLiteral("width %1").arg(width);
            const QStringList lines = paint::wrap_text(text, font, width).split(QLatin1Char('\n'));
            // Lines break at spaces, or inside a word (or a Chinese sentence) too long.
            QCOMPARE(lines.join(QString()).remove(QLatin1Char(' ')),
                     QString(text).remove(QLatin1Char(' ')));
            QVERIFY2(lines.size() == 1 || width < 5000.0, qPrintable(where));
            for (qsizetype k = 0; k < lines.size(); ++k) {
                const QString& line = lines[k];
                QVERIFY2(!line.isEmpty(), qPrintable(where));
                // Closing marks that cannot start the next line hang past the end of this one.
                QString body = line;
                while (body.size() > 1 && closing.contains(body.back()))
                    body.chop(1);
                const auto fits = [&](const QString& t) {
                    return t.size() == 1 || fm.horizontalAdvance(t) <= width;
                };
                QVERIFY2(fits(line) || (body != line && fits(body)),
                         qPrintable(where + QStringLiteral(": “%1” is too wide").arg(line)));
                QVERIFY2(k == 0 || !closing.contains(line[0]),
                         qPrintable(where + QStringLiteral(": “%1” starts a line").arg(line)));
                if (k + 1 == lines.size()) continue;
                // What the next line starts with: a word, or a character in Chinese.  It
                // was left out only because it does not fit, or (Chinese) because closing
                // punctuation after it took it along.
                const QString& next = lines[k + 1];
                const bool carried = cjk && next.size() > 1 && closing.contains(next[1]);
                const QString more =
                    cjk ? line + next[0]
                        : line + QLatin1Char(' ') + next.section(QLatin1Char(' '), 0, 0);
                QVERIFY2(carried || fm.horizontalAdvance(more) > width,
                         qPrintable(where + QStringLiteral(": “%1” would fit").arg(more)));
            }
        }
        QCOMPARE(paint::wrap_text(text, font, 5000.0), text);  // one line when it fits
    }

    void everyFigureKeepsItsTextInsideAndApart_data() {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("example");
        for (const char* language : {"en", "zh_CN"})
            for (const Example& e : builtin_examples())
                QTest::addRow("%s/%s", language, qPrintable(e.id))
                    << QString::fromLatin1(language) << e.id;
        rows_ = 2 * int(builtin_examples().size());
    }

    /// Each row computes its example's passes once (in its language: the snapshots hold
    /// translated words) and draws every figure on each canvas.
    void everyFigureKeepsItsTextInsideAndApart() {
        QFETCH(QString, language);
        QFETCH(QString, example);
        QVERIFY(install_translations(language));
        Example e;
        for (const Example& x : builtin_examples())
            if (x.id == example) e = x;
        AttentionDocument doc;
        QString error;
        QVERIFY2(open_example(e, &doc, &error), qPrintable(error));

        std::vector<Drawn> drawn;
        Figures figures(doc, e);
        if (QTest::currentTestFailed()) return;
        for (const Canvas& c : kCanvases)
            figures.draw(c.size, &drawn);

        ++rows_run_;
        QStringList problems;
        for (const Drawn& d : drawn) {
            kinds_drawn_.insert(language + QLatin1Char('/') +
                                d.figure.section(QLatin1String(" ("), 0, 0));
            const QString where = QStringLiteral("%1 at %2×%3")
                                      .arg(d.figure)
                                      .arg(d.canvas.width())
                                      .arg(d.canvas.height());
            if (d.texts.isEmpty()) problems << where + QStringLiteral(": no text recorded");
            for (const QString& p : test::texts_outside(d.texts, d.canvas))
                problems << where + QStringLiteral(": ") + p;
            for (const QString& p : test::overlapping_texts(d.texts))
                problems << where + QStringLiteral(": ") + p;
        }
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("%1 problems:\n").arg(problems.size()) +
                            problems.mid(0, 40).join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(FigureTextTest)
#include "ui_figure_text_test.moc"
