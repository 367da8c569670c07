// The saliency strip of the Who Writes tab (issue 38): gradient × input and integrated gradients
// chosen in the tab's combo against the engine's models::saliency, on the guide's `attnviz
// attribute` example on attn-only-2l; a new request dropping the one under way, Cancel; the
// strip's text in English and Chinese; the strip following heads knocked out in the window (the
// knocked-out model's, as its caption says) and in the tab's exports and `attnviz export --view
// dla --saliency`; a masked LM's strip alone at its [MASK]; `attnviz export --view saliency`
// against the engine and `attnviz attribute --saliency`, with --ablate too, and its bad input.
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <cmath>
#include <memory>

#include "engine/models/gradient_attribution.h"
#include "engine/models/model_folder.h"
#include "model_view_support.h"
#include "test_support.h"
#include "text_layout.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/document/shipped_models.h"
#include "ui/i18n/language.h"
#include "ui/model/dla_figure.h"
#include "ui/model/dla_view.h"
#include "ui/model/saliency_figure.h"
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
/// The guide's `attnviz attribute` example: its next token "8" is written by the induction head.
const QString kText = QStringLiteral("q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP");

QString attn_only() {
    return shipped_model(QStringLiteral("attn-only-2l"));
}

int threads() {
    return std::max(1, QThread::idealThreadCount());
}

std::int64_t token_id(const ModelPtr& m, const char* token) {
    return models::single_token_id(m->tokenizer, token, "token");
}

/// The engine's saliency of logit(target) at `position` of `text`, with `knocked` heads knocked
/// out, with nothing of the window between.
models::Saliency engine(const ModelPtr& m, std::int64_t position, std::int64_t target,
                        std::int64_t steps,
                        const std::vector<models::HeadIntervention>& knocked = {},
                        const QString& text = kText) {
    const models::EncodedText e = models::encode_text(*m, text.toStdString());
    models::GradientMetric metric;
    metric.kind = models::GradientMetric::Kind::Logit;
    metric.position = position;
    metric.target = target;
    models::GradientOptions o;
    o.num_threads = threads();
    o.interventions = knocked;
    return models::saliency(*m->model, e.input, metric, steps, o);
}

/// The guide's knock-outs: the induction head L2H8 by zeros, the previous-token head L1H4 by its
/// mean (from 0), as the window and the engine say them.
const std::map<ModelHead, KnockOut> kKnocked = {{{1, 7}, KnockOut::Zero}, {{0, 3}, KnockOut::Mean}};
std::vector<models::HeadIntervention> knocked_interventions() {
    return {{{1, 7}, models::HeadIntervention::Kind::Zero, nullptr},
            {{0, 3}, models::HeadIntervention::Kind::Mean, nullptr}};
}

/// The first token whose share differs from the engine's by more than `tol`, or empty.
QString differs(const std::vector<double>& got, const std::vector<double>& want, double tol) {
    if (got.size() != want.size())
        return QStringLiteral("%1 tokens against %2").arg(got.size()).arg(want.size());
    for (std::size_t t = 0; t < want.size(); ++t)
        if (!(std::abs(got[t] - want[t]) <= tol))
            return QStringLiteral("token %1: %2 against %3")
                .arg(t + 1)
                .arg(got[t], 0, 'g', 10)
                .arg(want[t], 0, 'g', 10);
    return {};
}

/// The token of the largest |share|.
int strongest(const std::vector<double>& v) {
    int best = 0;
    for (int t = 1; t < int(v.size()); ++t)
        if (std::abs(v[std::size_t(t)]) > std::abs(v[std::size_t(best)])) best = t;
    return best;
}

/// The CSV's comment lines as a map, and its rows' values.
struct Csv {
    QMap<QString, double> comments;
    QStringList header;
    std::vector<double> values;
};
Csv read_csv(const QString& path) {
    Csv out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return out;
    for (const QByteArray& line : f.readAll().trimmed().split('\n')) {
        const QString s = QString::fromUtf8(line);
        if (s.startsWith(QLatin1String("# "))) {
            const QStringList kv = s.mid(2).split(QLatin1Char(','));
            out.comments[kv.value(0)] = kv.value(1).toDouble();
        } else if (out.header.isEmpty()) {
            out.header = s.split(QLatin1Char(','));
        } else {
            out.values.push_back(s.section(QLatin1Char(','), -1).toDouble());
        }
    }
    return out;
}

/// What of `figure`'s text, painted on `canvas` as it is laid out, falls outside or overlaps.
QStringList drawn_text_problems(const PaintedFigure& figure, QSize canvas) {
    test::TextLayoutDevice device(canvas);
    paint_painted_figure(&device, figure, false);
    QStringList problems = test::texts_outside(device.texts(), canvas);
    problems << test::overlapping_texts(device.texts());
    return problems;
}

QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}
}  // namespace

class SaliencyTest : public QObject {
    Q_OBJECT
  private:
    ModelPtr model_;
    SnapshotPtr pass_;
    std::int64_t L_ = 0;

    /// A shown view on the example's pass, attributed once; null when it never shows.
    std::unique_ptr<DlaView> attributedView() {
        return test::shown_model_view<DlaView>(QSize(1200, 760), pass_, model_,
                                               &DlaView::attributed);
    }

  private slots:
    void initTestCase() {
        QVERIFY2(!attn_only().isEmpty(), "the shipped attn-only-2l is missing");
        model_ = open_model(attn_only());
        ComputeConfig c;
        c.model_folder = attn_only();
        c.text_a = kText;
        pass_ = compute_snapshot(c, 1, nullptr, threads());
        QVERIFY(pass_ && pass_->model);
        L_ = std::int64_t(pass_->model->encoding.size());
    }
    void cleanup() { install_translations(QStringLiteral("en")); }

    void gradientTimesInputFillsTheStripWithTheEnginesNumbers() {
        auto v = attributedView();
        QVERIFY(v);
        // Off by default: no strip, nothing computing.
        QCOMPARE(v->saliencyMethodCombo()->currentIndex(), int(DlaView::SaliencyOff));
        QVERIFY(!v->saliencyCanvas()->isVisible());
        QVERIFY(!v->saliency());
        QSignalSpy ready(v.get(), &DlaView::saliencyReady);
        v->saliencyMethodCombo()->setFocus();
        QTest::keyClick(v->saliencyMethodCombo(), Qt::Key_Down);
        QCOMPARE(v->saliencyMethodCombo()->currentIndex(), int(DlaView::GradientTimesInput));
        QVERIFY(!v->saliencyStepsCombo()->isVisible());  // steps are integrated gradients'
        QVERIFY(ready.wait(60000));
        const SaliencyResult* r = v->saliency();
        QVERIFY(r);
        QVERIFY(v->saliencyCanvas()->isVisible());
        QVERIFY(!v->saliencyProgress()->isVisible());
        // The tab's prediction in focus: the last token, its top prediction "8".
        QCOMPARE(r->what.position, L_ - 1);
        QCOMPARE(r->what.target, token_id(model_, "8"));
        QCOMPARE(r->saliency.steps, std::int64_t(0));
        const models::Saliency want = engine(model_, L_ - 1, token_id(model_, "8"), 0);
        const QString why = differs(r->saliency.tokens, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        ATTNVIZ_FUZZY(r->saliency.metric, v->result()->attribution.total, 1e-5);
        // The strongest token, as the engine ranks it, is the figure's first labelled one.
        const int top = strongest(want.tokens);
        qInfo("gradient × input: strongest token %d \"%s\" %.4f", top + 1,
              qPrintable(r->pieces[std::size_t(top)]), want.tokens[std::size_t(top)]);
        QCOMPARE(r->strongest(1).front(), top);
        // Its box is drawn in its diverging colour, and hovering it says its value.
        QApplication::processEvents();
        const QRectF box = v->saliencyFigure().boxRect(top);
        QVERIFY(box.isValid());
        const QImage image = v->saliencyCanvas()->grab().toImage();
        const QColor colour = paint::signed_color(want.tokens[std::size_t(top)], r->scaleLimit());
        const QColor pixel = image.pixelColor(QPoint(int(box.x()) + 2, int(box.y()) + 2));
        QVERIFY2(std::abs(pixel.red() - colour.red()) <= 2 &&
                     std::abs(pixel.green() - colour.green()) <= 2 &&
                     std::abs(pixel.blue() - colour.blue()) <= 2,
                 qPrintable(pixel.name() + QStringLiteral(" against ") + colour.name()));
        QSignalSpy hovered(v.get(), &DlaView::hovered);
        QTest::mouseMove(v->saliencyCanvas(), box.center().toPoint());
        QTRY_VERIFY(!hovered.isEmpty());
        QCOMPARE(v->saliencyCanvas()->toolTip(),
                 QStringLiteral("Token %1 “%2”: %3 of the total %4")
                     .arg(top + 1)
                     .arg(visible_token(r->pieces[std::size_t(top)]),
                          paint::format_cell(want.tokens[std::size_t(top)]),
                          paint::format_cell(want.metric)));
        // Off again: the strip goes.
        QTest::keyClick(v->saliencyMethodCombo(), Qt::Key_Up);
        QVERIFY(!v->saliency());
        QVERIFY(!v->saliencyCanvas()->isVisible());
    }

    void integratedGradientsAtSixteenStepsAddUpToTheTotal() {
        auto v = attributedView();
        QVERIFY(v);
        QSignalSpy ready(v.get(), &DlaView::saliencyReady);
        // Integrated gradients (64 steps by default), then 16: the 64-step job is dropped.
        v->saliencyMethodCombo()->setCurrentIndex(DlaView::IntegratedGradients);
        QVERIFY(v->saliencyStepsCombo()->isVisible());
        QCOMPARE(v->saliencyStepsCombo()->currentText(), QStringLiteral("64"));
        QVERIFY(v->isComputingSaliency());
        QVERIFY(v->saliencyProgress()->isVisible());
        QVERIFY(v->saliencyCancelButton()->isVisible());
        v->saliencyStepsCombo()->setFocus();
        QTest::keyClick(v->saliencyStepsCombo(), Qt::Key_Up);
        QCOMPARE(v->saliencyStepsCombo()->currentText(), QStringLiteral("16"));
        QVERIFY(ready.wait(60000));
        QTest::qWait(100);
        QCOMPARE(ready.size(), 1);  // only the 16-step result arrived
        const SaliencyResult* r = v->saliency();
        QVERIFY(r);
        QCOMPARE(r->saliency.steps, std::int64_t(16));
        const models::Saliency want = engine(model_, L_ - 1, token_id(model_, "8"), 16);
        const QString why = differs(r->saliency.tokens, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        ATTNVIZ_FUZZY(r->saliency.baseline, want.baseline, 1e-6);
        ATTNVIZ_FUZZY(r->saliency.delta(), want.delta(), 1e-6);
        const int top = strongest(want.tokens);
        qInfo(
            "integrated gradients (16): strongest token %d \"%s\" %.4f; Σ %.4f, total %.4f, "
            "baseline %.4f, delta %.4g",
            top + 1, qPrintable(r->pieces[std::size_t(top)]), want.tokens[std::size_t(top)],
            r->sum(), want.metric, want.baseline, want.delta());
        QCOMPARE(r->strongest(1).front(), top);
        // The completeness line, with the gap; its tool tip says why there is one.
        const QString sum = saliency_sum_text(*r);
        const double span = want.metric - want.baseline;
        QVERIFY2(sum.startsWith(QStringLiteral("Σ = %1 of total − baseline = %2 (gap ")
                                    .arg(paint::format_cell(r->sum()), paint::format_cell(span))),
                 qPrintable(sum));
        QVERIFY(r->rotary);  // attn-only-2l is a Llama: its gap is explained as such
        QTest::mouseMove(v->saliencyCanvas(), v->saliencyFigure().sumRect().center().toPoint());
        QTRY_COMPARE(v->saliencyCanvas()->toolTip(), saliency_gap_text(*r));
        QVERIFY(v->saliencyCanvas()->toolTip().contains(QStringLiteral("rotary")));
    }

    void aNewRequestOrCancelDropsTheOneUnderWay() {
        auto v = attributedView();
        QVERIFY(v);
        QSignalSpy ready(v.get(), &DlaView::saliencyReady);
        v->saliencyMethodCombo()->setCurrentIndex(DlaView::IntegratedGradients);
        v->saliencyStepsCombo()->setCurrentIndex(2);  // 256 steps: long enough to interrupt
        QVERIFY(v->isComputingSaliency());
        // Another token in focus: the attribution runs again, then the saliency there.
        QSignalSpy attributed(v.get(), &DlaView::attributed);
        v->positionCombo()->setFocus();
        QTest::keyClick(v->positionCombo(), Qt::Key_Up);
        QVERIFY(attributed.wait(60000));
        QVERIFY(v->isComputingSaliency());
        QVERIFY(ready.wait(120000));
        QCOMPARE(ready.size(), 1);
        QCOMPARE(v->saliency()->what.position, L_ - 2);
        QCOMPARE(v->saliency()->what.target, v->result()->attribution.what.target);
        // Cancel: the progress goes, no strip comes.
        v->saliencyStepsCombo()->setCurrentIndex(1);
        QVERIFY(v->isComputingSaliency());
        QTest::mouseClick(v->saliencyCancelButton(), Qt::LeftButton);
        QTRY_VERIFY(!v->isComputingSaliency());
        QTRY_VERIFY(!v->saliencyProgress()->isVisible());
        QTest::qWait(100);
        QCOMPARE(ready.size(), 1);
        QVERIFY(!v->saliency());
    }

    // Heads knocked out in the window: the strip follows (a new pass handed over, as the window
    // hands it when a head is knocked out): the knocked-out model's gradients, a mean-knocked
    // head's mean held, for the same target, and its caption names the heads in English and
    // Chinese.  The tab's exports draw it with the map, one figure.
    void theStripFollowsTheKnockedOutHeadsAndIsExportedWithTheMap() {
        auto v = attributedView();
        QVERIFY(v);
        QSignalSpy ready(v.get(), &DlaView::saliencyReady);
        v->saliencyMethodCombo()->setFocus();
        QTest::keyClick(v->saliencyMethodCombo(), Qt::Key_Down);
        QVERIFY(ready.wait(60000));
        QVERIFY(v->saliency()->knocked_out.empty());
        QVERIFY(v->saliencyFigure().captionText().isEmpty());
        const std::vector<double> intact = v->saliency()->saliency.tokens;
        ComputeConfig c;
        c.model_folder = attn_only();
        c.text_a = kText;
        c.knocked_out = kKnocked;
        v->setSource(compute_snapshot(c, 1, nullptr, threads()), model_);
        QVERIFY(ready.wait(60000));  // the attribution, then the strip
        QCOMPARE(v->result()->head(1, 7), 0.0);
        const SaliencyResult* r = v->saliency();
        QVERIFY(r);
        QCOMPARE(r->knocked_out, kKnocked);
        QCOMPARE(r->what.target, token_id(model_, "8"));  // the intact model's prediction
        const models::Saliency want =
            engine(model_, L_ - 1, token_id(model_, "8"), 0, knocked_interventions());
        QString why = differs(r->saliency.tokens, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The logit the strip splits is the map's total: one knocked-out model.
        ATTNVIZ_FUZZY(r->saliency.metric, v->result()->attribution.total, 1e-5);
        qInfo("knocked out: logit %.4f (intact %.4f); strongest token %d %.4f", want.metric,
              engine(model_, L_ - 1, token_id(model_, "8"), 0).metric, strongest(want.tokens) + 1,
              want.tokens[std::size_t(strongest(want.tokens))]);
        QVERIFY2(!differs(intact, want.tokens, 0.1).isEmpty(), "the strip did not move");
        QCOMPARE(v->saliencyFigure().captionText(),
                 QStringLiteral("Of the model with heads knocked out: layer 1 · head 4 (mean), "
                                "layer 2 · head 8 (zero)"));
        QVERIFY(install_translations(QStringLiteral("zh_CN")));
        QCOMPARE(
            v->saliencyFigure().captionText(),
            QStringLiteral("敲除以下头后的模型：第 1 层 · 头 4（均值）、第 2 层 · 头 8（置零）"));
        install_translations(QStringLiteral("en"));
        // Integrated gradients follow too: the mean held along the path.
        QTest::keyClick(v->saliencyMethodCombo(), Qt::Key_Down);
        QCOMPARE(v->saliencyMethodCombo()->currentIndex(), int(DlaView::IntegratedGradients));
        v->saliencyStepsCombo()->setFocus();
        QTest::keyClick(v->saliencyStepsCombo(), Qt::Key_Up);
        QCOMPARE(v->saliencyStepsCombo()->currentText(), QStringLiteral("16"));
        QVERIFY(ready.wait(60000));
        r = v->saliency();
        QVERIFY(r && r->saliency.steps == 16);
        const models::Saliency ig =
            engine(model_, L_ - 1, token_id(model_, "8"), 16, knocked_interventions());
        why = differs(r->saliency.tokens, ig.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        ATTNVIZ_FUZZY(r->saliency.baseline, ig.baseline, 1e-6);
        // The exported figure is the map's with the strip above it: taller by the strip.
        const QString png = test::temp_path(QStringLiteral("with-strip.png"));
        QVERIFY(v->exportTo(png));
        DlaFigure figure;
        figure.setResult(v->result());
        FigureOptions options;
        options.font_px = 14;  // as every export of the tab draws it
        figure.setOptions(options);
        const QSize alone = fitted_painted_figure_size(figure, QSize(1600, 1000));
        figure.setSaliency(r);
        const QSize with = fitted_painted_figure_size(figure, QSize(1600, 1000));
        QVERIFY2(
            with.height() > alone.height() + 60,
            qPrintable(QStringLiteral("%1 against %2").arg(with.height()).arg(alone.height())));
        QCOMPARE(QImage(png).size(), 2 * with);
        // Its text stays inside and apart, the strip's caption and the map's crosses' labels
        // too, in both languages.
        for (const char* language : {"en", "zh_CN"}) {
            QVERIFY(install_translations(QLatin1String(language)));
            const QStringList problems =
                drawn_text_problems(figure, fitted_painted_figure_size(figure, QSize(1600, 1000)));
            QVERIFY2(problems.isEmpty(), qPrintable(QLatin1String(language) + QStringLiteral(": ") +
                                                    problems.join(QLatin1Char('\n'))));
        }
        install_translations(QStringLiteral("en"));
        // Off: the exports draw the map alone again.
        v->saliencyMethodCombo()->setFocus();
        QTest::keyClick(v->saliencyMethodCombo(), Qt::Key_Home);
        QCOMPARE(v->saliencyMethodCombo()->currentIndex(), int(DlaView::SaliencyOff));
        QVERIFY(v->exportTo(png));
        QCOMPARE(QImage(png).size(), 2 * alone);
    }

    // A masked LM (BERT) has no attribution: the tab says why and offers the strip alone, at
    // the text's [MASK] for the model's top filler there, with the engine's numbers (and, with
    // learned positions, integrated gradients complete); a knock-out moves it; the tab exports
    // the strip; its text stays inside and apart in English and Chinese.
    void aMaskedLanguageModelGetsTheSaliencyAtItsMask() {
        const QString folder = test::golden_model("bert_mlm_prefix");
        const ModelPtr bert = open_model(folder);
        const QString text = QStringLiteral("the cat [MASK] on the mat");
        ComputeConfig c;
        c.model_folder = folder;
        c.text_a = text;
        const SnapshotPtr pass = compute_snapshot(c, 1, nullptr, threads());
        QVERIFY(pass && pass->model && pass->model->predictions);
        const std::vector<std::int64_t>& ids = pass->model->encoding.ids;
        const auto mask =
            std::int64_t(std::find(ids.begin(), ids.end(), *bert->tokenizer.token_to_id("[MASK]")) -
                         ids.begin());
        QCOMPARE(mask, std::int64_t(3));  // [CLS] the cat [MASK]
        const ModelPredictions& p = *pass->model->predictions;
        QCOMPARE(p.positions, std::vector<int>{int(mask)});
        const std::int64_t filler = p.top.front().front().id;
        DlaView v;
        v.resize(1200, 760);
        v.setSource(pass, bert);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QVERIFY(v.saliencyOnly());
        QVERIFY(v.noteLabel()->isVisible());
        QVERIFY(v.noteLabel()->text().contains(QStringLiteral("[MASK]")));
        QVERIFY(!v.placeholderLabel()->isVisible());
        QVERIFY(!v.canvas()->isVisible());
        QVERIFY(v.saliencyCanvas()->isVisible());  // the strip's place, its heading alone
        QCOMPARE(v.positionCombo()->currentIndex(), int(mask));
        QVERIFY(!v.exportButton()->isEnabled());

        QSignalSpy ready(&v, &DlaView::saliencyReady);
        v.saliencyMethodCombo()->setFocus();
        QTest::keyClick(v.saliencyMethodCombo(), Qt::Key_Down);
        QVERIFY(ready.wait(60000));
        const SaliencyResult* r = v.saliency();
        QVERIFY(r);
        QCOMPARE(r->what.position, mask);
        QCOMPARE(r->what.target, filler);
        models::Saliency want = engine(bert, mask, filler, 0, {}, text);
        QString why = differs(r->saliency.tokens, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        qInfo("BERT at [MASK] → \"%s\": strongest token %d \"%s\" %.4f of %.4f",
              qPrintable(r->target), strongest(want.tokens) + 1,
              qPrintable(r->pieces[std::size_t(strongest(want.tokens))]),
              want.tokens[std::size_t(strongest(want.tokens))], want.metric);
        QVERIFY(v.exportButton()->isEnabled());
        // The tab's exports are the strip's: its CSV and its figure.
        const QString csv = test::temp_path(QStringLiteral("bert-saliency.csv"));
        QVERIFY(v.exportTo(csv));
        const Csv got = read_csv(csv);
        why = differs(got.values, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const QString png = test::temp_path(QStringLiteral("bert-saliency.png"));
        QVERIFY(v.exportTo(png));
        QVERIFY(!QImage(png).isNull());

        // Integrated gradients over 16 steps: complete, BERT's positions staying in the baseline.
        QTest::keyClick(v.saliencyMethodCombo(), Qt::Key_Down);
        QVERIFY(!v.exportButton()->isEnabled());  // nothing to export until it arrives
        v.saliencyStepsCombo()->setFocus();
        QTest::keyClick(v.saliencyStepsCombo(), Qt::Key_Up);
        QVERIFY(ready.wait(60000));
        r = v.saliency();
        QVERIFY(r && r->saliency.steps == 16);
        want = engine(bert, mask, filler, 16, {}, text);
        why = differs(r->saliency.tokens, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY2(std::abs(r->saliency.delta()) <= 0.01 * std::abs(want.metric - want.baseline),
                 qPrintable(saliency_sum_text(*r)));

        // A head knocked out in the window: the knocked-out model's, for the same filler.
        c.knocked_out = {{{0, 1}, KnockOut::Zero}};
        v.setSource(compute_snapshot(c, 1, nullptr, threads()), bert);
        QVERIFY(ready.wait(60000));
        r = v.saliency();
        QVERIFY(r && r->saliency.steps == 16);
        QCOMPARE(r->what.target, filler);
        QCOMPARE(r->knocked_out, c.knocked_out);
        want = engine(bert, mask, filler, 16,
                      {{{0, 1}, models::HeadIntervention::Kind::Zero, nullptr}}, text);
        why = differs(r->saliency.tokens, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));

        // The note and the strip in both languages: nothing clipped or overlapping.
        for (const char* language : {"en", "zh_CN"}) {
            QVERIFY(install_translations(QLatin1String(language)));
            QApplication::processEvents();
            if (QLatin1String(language) == QLatin1String("zh_CN"))
                QTRY_VERIFY2(v.noteLabel()->text().contains(QStringLiteral("后归一化")),
                             qPrintable(v.noteLabel()->text()));
            // The note wraps whole within the tab (no line cut off).
            QTRY_VERIFY2(
                v.noteLabel()->height() >= v.noteLabel()->heightForWidth(v.noteLabel()->width()),
                qPrintable(QStringLiteral("%1: note %2 px tall, needs %3")
                               .arg(QLatin1String(language))
                               .arg(v.noteLabel()->height())
                               .arg(v.noteLabel()->heightForWidth(v.noteLabel()->width()))));
            const QSize canvas = v.saliencyCanvas()->size();
            SaliencyFigure figure;
            figure.setResult(r);
            figure.setCompact(true);
            FigureOptions options;
            options.font_px = std::max(9, QFontInfo(v.font()).pixelSize());
            figure.setOptions(options);
            figure.layout(canvas);
            const QStringList problems = drawn_text_problems(figure, canvas);
            QVERIFY2(problems.isEmpty(), qPrintable(QLatin1String(language) + QStringLiteral(": ") +
                                                    problems.join(QLatin1Char('\n'))));
        }
    }

    void theStripKeepsItsTextInsideAndApartInBothLanguages() {
        const models::EncodedText e = models::encode_text(*model_, kText.toStdString());
        models::LogitTarget what;
        what.position = L_ - 1;
        what.target = token_id(model_, "8");
        const SaliencyResult grad = compute_saliency(*model_, e, kText, what, 0, {}, threads());
        what.distractor = token_id(model_, "s");
        const SaliencyResult ig = compute_saliency(*model_, e, kText, what, 16, {}, threads());
        for (const char* language : {"en", "zh_CN"}) {
            QVERIFY(install_translations(QLatin1String(language)));
            for (const QSize size : {QSize(1240, 300), QSize(520, 400), QSize(1600, 1000)})
                for (const SaliencyResult* shown : {&grad, &ig})
                    for (const bool compact : {true, false}) {
                        SaliencyFigure figure;
                        figure.setResult(shown);
                        figure.setCompact(compact);
                        FigureOptions options;
                        options.font_px = size.width() == 1600 ? 14 : 13;
                        figure.setOptions(options);
                        const QSize canvas = fitted_painted_figure_size(figure, size);
                        test::TextLayoutDevice device(canvas);
                        paint_painted_figure(&device, figure, false);
                        QStringList problems = test::texts_outside(device.texts(), canvas);
                        problems << test::overlapping_texts(device.texts());
                        if (device.texts().size() < int(shown->pieces.size()))
                            problems << QStringLiteral("only %1 texts").arg(device.texts().size());
                        QVERIFY2(problems.isEmpty(),
                                 qPrintable(QStringLiteral("%1 %2×%3 compact %4: ")
                                                .arg(QLatin1String(language))
                                                .arg(size.width())
                                                .arg(size.height())
                                                .arg(compact) +
                                            problems.join(QLatin1Char('\n'))));
                    }
        }
    }

    void theExportCommandWritesTheEnginesAndAttributesNumbers() {
        const QString m = attn_only();
        const QStringList base{QStringLiteral("export"),
                               QStringLiteral("--model"),
                               m,
                               QStringLiteral("--view"),
                               QStringLiteral("saliency"),
                               QStringLiteral("--text"),
                               kText,
                               QStringLiteral("--target"),
                               QStringLiteral("8")};
        // Gradient × input by default, as CSV.
        const QString csv = test::temp_path(QStringLiteral("saliency.csv"));
        QFile::remove(csv);
        test::ProcessRun r = test::run_attnviz(base + QStringList{QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0, r.err.constData());
        Csv got = read_csv(csv);
        QCOMPARE(got.header.join(QLatin1Char(',')), QStringLiteral("position,token,value"));
        models::Saliency want = engine(model_, L_ - 1, token_id(model_, "8"), 0);
        QString why = differs(got.values, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        ATTNVIZ_FUZZY(got.comments.value(QStringLiteral("metric")), want.metric, 1e-6);
        // Integrated gradients over 16 steps, as CSV, and as JSON beside attribute's.
        QFile::remove(csv);
        r = test::run_attnviz(base + QStringList{QStringLiteral("--saliency"),
                                                 QStringLiteral("ig:16"), QStringLiteral("--out"),
                                                 csv});
        QVERIFY2(r.status == 0, r.err.constData());
        got = read_csv(csv);
        want = engine(model_, L_ - 1, token_id(model_, "8"), 16);
        why = differs(got.values, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        ATTNVIZ_FUZZY(got.comments.value(QStringLiteral("baseline")), want.baseline, 1e-6);
        ATTNVIZ_FUZZY(got.comments.value(QStringLiteral("delta")), want.delta(), 1e-6);
        const QString json = test::temp_path(QStringLiteral("saliency.json"));
        const QString reference = test::temp_path(QStringLiteral("attribute.json"));
        r = test::run_attnviz(base + QStringList{QStringLiteral("--saliency"),
                                                 QStringLiteral("ig:16"), QStringLiteral("--out"),
                                                 json});
        QVERIFY2(r.status == 0, r.err.constData());
        r = test::run_attnviz({QStringLiteral("attribute"), QStringLiteral("--model"), m,
                               QStringLiteral("--text"), kText, QStringLiteral("--target"),
                               QStringLiteral("8"), QStringLiteral("--saliency"),
                               QStringLiteral("ig:16"), QStringLiteral("--out-json"), reference});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject a = read_json(json), b = read_json(reference);
        for (const char* key :
             {"position", "target", "distractor", "saliency_method", "saliency_steps"})
            QVERIFY2(a.value(QLatin1String(key)) == b.value(QLatin1String(key)), key);
        // attribute's total is the logit attribution's, ours the backward pass's metric: the
        // same logit from two passes, equal to float precision.
        ATTNVIZ_FUZZY(a.value(QStringLiteral("total")).toDouble(),
                      b.value(QStringLiteral("total")).toDouble(), 1e-5);
        for (const char* key : {"saliency_baseline", "saliency_delta"})
            ATTNVIZ_FUZZY(a.value(QLatin1String(key)).toDouble(),
                          b.value(QLatin1String(key)).toDouble(), 1e-6);
        const QJsonArray sa = a.value(QStringLiteral("saliency")).toArray(),
                         sb = b.value(QStringLiteral("saliency")).toArray();
        QCOMPARE(sa.size(), qsizetype(L_));
        QCOMPARE(sb.size(), sa.size());
        for (qsizetype t = 0; t < sa.size(); ++t)
            ATTNVIZ_FUZZY(sa[t].toDouble(), sb[t].toDouble(), 1e-6);
        // The figure in every format.
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString out =
                test::temp_path(QStringLiteral("saliency.") + QLatin1String(suffix));
            QFile::remove(out);
            r = test::run_attnviz(base + QStringList{QStringLiteral("--saliency"),
                                                     QStringLiteral("ig:16"),
                                                     QStringLiteral("--out"), out});
            QVERIFY2(r.status == 0, r.err.constData());
            QVERIFY(QFile(out).size() > 1000);
        }
        QVERIFY(!QImage(test::temp_path(QStringLiteral("saliency.png"))).isNull());

        // --view dla --saliency: the strip above the map, one figure, taller than the map
        // alone; its JSON is `attnviz attribute --saliency`'s, byte for byte.
        QStringList dla = base;
        dla[4] = QStringLiteral("dla");
        const QString alone = test::temp_path(QStringLiteral("dla-alone.png"));
        const QString with = test::temp_path(QStringLiteral("dla-strip.png"));
        r = test::run_attnviz(dla + QStringList{QStringLiteral("--out"), alone});
        QVERIFY2(r.status == 0, r.err.constData());
        r = test::run_attnviz(dla + QStringList{QStringLiteral("--saliency"),
                                                QStringLiteral("ig:16"), QStringLiteral("--ablate"),
                                                QStringLiteral("2.8"), QStringLiteral("--out"),
                                                with});
        QVERIFY2(r.status == 0, r.err.constData());
        QCOMPARE(QImage(with).width(), QImage(alone).width());
        QVERIFY(QImage(with).height() > QImage(alone).height() + 100);
        r = test::run_attnviz(dla + QStringList{QStringLiteral("--saliency"),
                                                QStringLiteral("ig:16"), QStringLiteral("--out"),
                                                json});
        QVERIFY2(r.status == 0, r.err.constData());
        QFile a_file(json), b_file(reference);
        QVERIFY(a_file.open(QIODevice::ReadOnly) && b_file.open(QIODevice::ReadOnly));
        QCOMPARE(a_file.readAll(), b_file.readAll());

        // With --ablate: the knocked-out model's saliency, the engine's with the same knock-out;
        // --view dla's .json is attribute's with the same options, byte for byte.
        const QStringList ablate{QStringLiteral("--ablate"), QStringLiteral("2.8")};
        QFile::remove(csv);
        r = test::run_attnviz(base + ablate + QStringList{QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0, r.err.constData());
        want = engine(model_, L_ - 1, token_id(model_, "8"), 0,
                      {{{1, 7}, models::HeadIntervention::Kind::Zero, nullptr}});
        got = read_csv(csv);
        why = differs(got.values, want.tokens, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        ATTNVIZ_FUZZY(got.comments.value(QStringLiteral("metric")), want.metric, 1e-6);
        r = test::run_attnviz(dla + ablate +
                              QStringList{QStringLiteral("--saliency"), QStringLiteral("ig:16"),
                                          QStringLiteral("--out"), json});
        QVERIFY2(r.status == 0, r.err.constData());
        r = test::run_attnviz({QStringLiteral("attribute"), QStringLiteral("--model"), m,
                               QStringLiteral("--text"), kText, QStringLiteral("--target"),
                               QStringLiteral("8"), QStringLiteral("--saliency"),
                               QStringLiteral("ig:16"), QStringLiteral("--ablate"),
                               QStringLiteral("2.8"), QStringLiteral("--out-json"), reference});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject knocked = read_json(json);
        QCOMPARE(knocked, read_json(reference));
        QCOMPARE(knocked.value(QStringLiteral("ablated")).toArray().size(), qsizetype(1));
        const models::Saliency ig =
            engine(model_, L_ - 1, token_id(model_, "8"), 16,
                   {{{1, 7}, models::HeadIntervention::Kind::Zero, nullptr}});
        const QJsonArray shares = knocked.value(QStringLiteral("saliency")).toArray();
        QCOMPARE(shares.size(), qsizetype(L_));
        for (qsizetype t = 0; t < shares.size(); ++t)
            ATTNVIZ_FUZZY(shares[t].toDouble(), ig.tokens[std::size_t(t)],
                          1e-6 * std::max(1.0, std::abs(ig.tokens[std::size_t(t)])));
    }

    void badExportInputIsOneLineAndNoFile() {
        const QString none = test::temp_path(QStringLiteral("none.png"));
        const QString m = attn_only();
        const QStringList model_text{QStringLiteral("--model"), m, QStringLiteral("--text"), kText};
        const QList<test::BadInput> bad{
            {model_text + QStringList{QStringLiteral("--saliency"), QStringLiteral("ig:0")}, 2,
             "--saliency"},
            {model_text + QStringList{QStringLiteral("--saliency"), QStringLiteral("smoothgrad")},
             2, "--saliency"},
            {{QStringLiteral("--model"), m}, 2, "--text"},
            {model_text + QStringList{QStringLiteral("--target"), QStringLiteral("8sY")}, 2,
             "--target"},
            {model_text + QStringList{QStringLiteral("--position"), QStringLiteral("99")}, 2,
             "--position"},
        };
        const QString problems = test::refusal_problems(
            {QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("saliency")}, bad,
            none);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        // --saliency on a view without a strip; with --view dla, not into its CSV.
        const QList<test::BadInput> other{
            {QStringList{QStringLiteral("--view"), QStringLiteral("grid"),
                         QStringLiteral("--saliency"), QStringLiteral("grad-input")} +
                 model_text,
             2, "--saliency needs --view saliency or dla"}};
        QString wrong = test::refusal_problems({QStringLiteral("export")}, other, none);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        const QList<test::BadInput> dla{
            {model_text + QStringList{QStringLiteral("--saliency"), QStringLiteral("grad-input")},
             2, "--view saliency"},
            {model_text + QStringList{QStringLiteral("--saliency"), QStringLiteral("ig:0")}, 2,
             "--saliency"}};
        wrong = test::refusal_problems(
            {QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("dla")}, dla,
            test::temp_path(QStringLiteral("none.csv")));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        // A knocked-out head the model lacks.
        const QList<test::BadInput> knocked{
            {model_text + QStringList{QStringLiteral("--ablate"), QStringLiteral("3.1")}, 2,
             "--ablate"}};
        wrong = test::refusal_problems(
            {QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("saliency")},
            knocked, test::temp_path(QStringLiteral("none.json")));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }
};

QTEST_MAIN(SaliencyTest)
#include "ui_saliency_test.moc"
