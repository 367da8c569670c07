// The "Who writes the answer" tab (issue 38): direct logit attribution in the window against the
// engine's models::attribute_logit, the induction head's share and its source token on the
// shipped attn-only-2l, a distractor typed in, the position chosen, the heads the window knocks
// out (crossed out, knocked out of the attribution, and knocked out from the map's cells), the
// refusal of a post-norm BERT, the figure's text in English and Chinese, the exports, and
// `attnviz export --view dla` (with --ablate).
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QContextMenuEvent>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QThread>
#include <QToolTip>

#include <cmath>
#include <memory>

#include "engine/models/attribution.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "model_view_support.h"
#include "test_support.h"
#include "text_layout.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/i18n/language.h"
#include "ui/model/dla_figure.h"
#include "ui/model/dla_view.h"
#include "ui/render/figure_export.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
/// The guide's `attnviz attribute` example: a random string said twice, cut after its second
/// copy's "P", whose next token "8" the induction head L2H8 writes.
const QString kText = QStringLiteral("q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP");

QString attn_only() {
    return shipped_model(QStringLiteral("attn-only-2l"));
}

QString golden_model(const char* name) {
    return QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/models/") + QLatin1String(name);
}

int threads() {
    return std::max(1, QThread::idealThreadCount());
}

/// The window's pass over `text` on the model of `folder`, as the tabs receive it, with
/// `knocked_out` heads knocked out.
SnapshotPtr pass_over(const QString& folder, const QString& text,
                      const std::map<ModelHead, KnockOut>& knocked_out = {}) {
    ComputeConfig c;
    c.model_folder = folder;
    c.text_a = text;
    c.knocked_out = knocked_out;
    return compute_snapshot(c, 1, nullptr, threads());
}

/// The engine's own attribution of `what` on `text`, with nothing of the window in between.
models::LogitAttribution engine(const ModelPtr& m, const QString& text,
                                const models::LogitTarget& what,
                                const std::vector<models::HeadIntervention>& knocked_out = {}) {
    const models::EncodedText e = models::encode_text(*m, text.toStdString());
    models::AttributionOptions o;
    o.num_threads = threads();
    o.interventions = knocked_out;
    return models::attribute_logit(*m->model, e.input, what, o);
}

std::int64_t token_id(const ModelPtr& m, const char* token) {
    return models::single_token_id(m->tokenizer, token, "token");
}

/// Every number of `got` against `want` within `tol`: the first that differs, or empty.
QString differs(const models::LogitAttribution& got, const models::LogitAttribution& want,
                double tol) {
    const auto check = [&](const QString& what, double a, double b) {
        if (std::isnan(a) && std::isnan(b)) return QString();
        return std::abs(a - b) <= tol ? QString()
                                      : QStringLiteral("%1: %2 against %3")
                                            .arg(what)
                                            .arg(a, 0, 'g', 10)
                                            .arg(b, 0, 'g', 10);
    };
    QStringList problems;
    problems << check(QStringLiteral("total"), got.total, want.total)
             << check(QStringLiteral("embeddings"), got.embeddings, want.embeddings)
             << check(QStringLiteral("constant"), got.constant, want.constant);
    if (got.heads.shape != want.heads.shape || got.by_source.shape != want.by_source.shape)
        return QStringLiteral("shapes differ");
    for (std::size_t i = 0; i < want.heads.data.size(); ++i)
        problems << check(QStringLiteral("head %1").arg(i), got.heads.data[i], want.heads.data[i]);
    for (std::size_t i = 0; i < want.by_source.data.size(); ++i)
        problems << check(QStringLiteral("by_source %1").arg(i), got.by_source.data[i],
                          want.by_source.data[i]);
    for (std::size_t l = 0; l < want.mlps.size(); ++l)
        problems << check(QStringLiteral("mlp %1").arg(l), got.mlps[l], want.mlps[l])
                 << check(QStringLiteral("bias %1").arg(l), got.attention_bias[l],
                          want.attention_bias[l]);
    problems.removeAll(QString());
    return problems.value(0);
}

/// The CSV's rows, split at their commas (its fields hold none).
QList<QStringList> csv_rows(const QString& path) {
    QFile f(path);
    QList<QStringList> out;
    if (!f.open(QIODevice::ReadOnly)) return out;
    for (const QByteArray& line : f.readAll().trimmed().split('\n'))
        out << QString::fromUtf8(line).split(QLatin1Char(','));
    return out;
}

/// Where the CSV's numbers differ from the engine's (beyond 1e-6), or empty.
QString csv_differs(const QString& path, const models::LogitAttribution& want) {
    const QList<QStringList> rows = csv_rows(path);
    const auto H = want.heads.shape[1];
    if (rows.value(0).join(QLatin1Char(',')) != QStringLiteral("component,layer,head,value"))
        return QStringLiteral("header: ") + rows.value(0).join(QLatin1Char(','));
    int heads = 0;
    double sum = 0.0, total = std::nan("");
    for (int k = 1; k < rows.size(); ++k) {
        const QStringList& r = rows[k];
        if (r.size() != 4) return QStringLiteral("row %1 has %2 fields").arg(k).arg(r.size());
        const double v = r[3].toDouble();
        const int l = r[1].toInt() - 1, h = r[2].toInt() - 1;
        double expected = 0.0;
        if (r[0] == QLatin1String("head")) {
            expected = double(want.heads.data[std::size_t(l * H + h)]);
            ++heads;
        } else if (r[0] == QLatin1String("embeddings")) {
            expected = want.embeddings;
        } else if (r[0] == QLatin1String("attention_bias")) {
            expected = want.attention_bias[std::size_t(l)];
        } else if (r[0] == QLatin1String("mlp")) {
            expected = want.mlps[std::size_t(l)];
        } else if (r[0] == QLatin1String("constant")) {
            expected = want.constant;
        } else if (r[0] == QLatin1String("total")) {
            expected = want.total;
        } else {
            return QStringLiteral("row %1: unknown component %2").arg(k).arg(r[0]);
        }
        if (std::abs(v - expected) > 1e-6)
            return QStringLiteral("row %1 (%2): %3 against %4")
                .arg(k)
                .arg(rows[k].join(QLatin1Char(',')))
                .arg(v, 0, 'g', 10)
                .arg(expected, 0, 'g', 10);
        if (r[0] == QLatin1String("total"))
            total = v;
        else
            sum += v;
    }
    if (heads != int(want.heads.numel())) return QStringLiteral("%1 head rows").arg(heads);
    if (!(std::abs(sum - total) <= 1e-5))
        return QStringLiteral("the parts add up to %1, not the total %2").arg(sum).arg(total);
    return {};
}

/// An attribution of the shape of a big model (32 layers of 32 heads, an MLP and an attention
/// bias in each, a 300-token text), with made-up shares: the layout of many small cells.
DlaResult big_model_result() {
    DlaResult r;
    r.model = QStringLiteral("Llama · Llama-3-8B");
    r.text = QStringLiteral("The quick brown fox jumps over the lazy dog. ").repeated(30);
    r.num_layers = r.num_heads = 32;
    const int L = 300;
    for (int t = 0; t < L; ++t)
        r.pieces.push_back(t % 2 ? QStringLiteral(" fox") : QStringLiteral("狐"));
    models::LogitAttribution& a = r.attribution;
    a.what.position = L - 1;
    a.heads = Tensor({32, 32});
    a.by_source = Tensor({32, 32, L});
    for (std::size_t k = 0; k < a.heads.data.size(); ++k)
        a.heads.data[k] = float(std::sin(double(k)) * (k % 97 == 0 ? 12.0 : 0.8));
    for (std::size_t k = 0; k < a.by_source.data.size(); ++k)
        a.by_source.data[k] = a.heads.data[k / L] / float(L);
    for (int l = 0; l < 32; ++l) {
        a.attention_bias.push_back(0.01 * l - 0.1);
        a.mlps.push_back(std::cos(l) * 3.0);
    }
    a.embeddings = -1.25;
    a.constant = 0.5;
    a.total = a.embeddings + a.constant + r.headSum() + r.biasSum() + r.mlpSum();
    r.target = QStringLiteral(" jumps");
    return r;
}

/// The texts a figure draws on a canvas of `size` (fitted as the exports fit it) that leave the
/// canvas or overlap another, described; empty when none do.
QStringList layout_problems(DlaFigure& figure, QSize size) {
    const QSize canvas = fitted_painted_figure_size(figure, size);
    test::TextLayoutDevice device(canvas);
    paint_painted_figure(&device, figure, false);
    QStringList problems = test::texts_outside(device.texts(), canvas);
    problems << test::overlapping_texts(device.texts());
    if (device.texts().size() < 20)
        problems << QStringLiteral("only %1 texts drawn").arg(device.texts().size());
    return problems;
}
}  // namespace

class DlaTest : public test::WindowFixture {
    Q_OBJECT
  private:
    ModelPtr model_;
    SnapshotPtr pass_;

    /// A shown view on the example's pass, attributed once; null when it never shows.
    std::unique_ptr<DlaView> attributedView() {
        return test::shown_model_view<DlaView>(QSize(1200, 700), pass_, model_,
                                               &DlaView::attributed);
    }

  private slots:
    void initTestCase() {
        QVERIFY2(!attn_only().isEmpty(), "the shipped attn-only-2l is missing");
        model_ = open_model(attn_only());
        pass_ = pass_over(attn_only(), kText);
        QVERIFY(pass_ && pass_->model);
    }
    void cleanup() {
        closeWindow();
        install_translations(QStringLiteral("en"));
    }

    void theNumbersAreTheEnginesAtTheLastTokenForTheTopPrediction() {
        auto v = attributedView();
        QVERIFY(v);
        const DlaResult* r = v->result();
        QVERIFY(r);
        const auto L = std::int64_t(pass_->model->encoding.size());
        // The defaults: the last token, and the model's top prediction there.
        QCOMPARE(v->positionCombo()->currentIndex(), int(L - 1));
        QCOMPARE(r->attribution.what.position, L - 1);
        const models::EncodedText e = models::encode_text(*model_, kText.toStdString());
        models::PredictOptions po;
        const models::Prediction p = models::predict(*model_->model, e.input, po);
        const std::int64_t V = p.logits.shape[1];
        const std::int64_t top = models::top_k(p.logits.ptr() + (L - 1) * V, V, 1).front().id;
        QCOMPARE(r->attribution.what.target, top);
        QCOMPARE(top, token_id(model_, "8"));
        QVERIFY(r->predicted);
        QVERIFY2(v->targetIdLabel()->text().contains(QString::number(top)),
                 qPrintable(v->targetIdLabel()->text()));
        models::LogitTarget what;
        what.position = L - 1;
        what.target = top;
        const QString why = differs(r->attribution, engine(model_, kText, what), 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(!r->attribution.what.distractor);
    }

    void theInductionHeadWritesMostOfTheAnswer() {
        auto v = attributedView();
        QVERIFY(v);
        const DlaResult& r = *v->result();
        // The guide's numbers: L2H8 writes 5.71 of the 9.03 logit.
        QCOMPARE(r.topHead(), QPoint(7, 1));
        ATTNVIZ_FUZZY(r.head(1, 7), 5.71, 0.005);
        ATTNVIZ_FUZZY(r.attribution.total, 9.03, 0.005);
        // The parts add up to the total, and the figure says so.
        const double sum = r.attribution.embeddings + r.headSum() + r.biasSum() + r.mlpSum() +
                           r.attribution.constant;
        ATTNVIZ_FUZZY(sum, r.attribution.total, 1e-5);
        QVERIFY(r.hasBias());
        QVERIFY(!r.hasMlp());  // attention-only
        // Drawn in the diverging colour of its share, symmetric around 0.
        QApplication::processEvents();
        const QImage image = v->canvas()->grab().toImage();
        const QRectF cell = v->figure().cellRect(1, 7);
        const QColor want = paint::signed_color(r.head(1, 7), r.scaleLimit());
        const QColor pixel = image.pixelColor(QPoint(int(cell.x()) + 3, int(cell.y()) + 3));
        QVERIFY2(std::abs(pixel.red() - want.red()) <= 2 &&
                     std::abs(pixel.green() - want.green()) <= 2 &&
                     std::abs(pixel.blue() - want.blue()) <= 2,
                 qPrintable(pixel.name() + QStringLiteral(" against ") + want.name()));
        ATTNVIZ_FUZZY(r.scaleLimit(), r.head(1, 7), 1e-12);
    }

    void hoveringTheInductionHeadNamesTheTokenAfterTheEarlierCopy() {
        auto v = attributedView();
        QVERIFY(v);
        // The query's token ("P") said before: the source after it is the answer, "8".
        const std::vector<std::int64_t>& ids = pass_->model->encoding.ids;
        const auto L = int(ids.size());
        int earlier = -1;
        for (int t = 0; t < L - 1; ++t)
            if (ids[std::size_t(t)] == ids[std::size_t(L - 1)]) earlier = t;
        QVERIFY(earlier >= 0);
        const DlaResult& r = *v->result();
        const auto first = r.largestSources(1, 7, 1).front();
        QCOMPARE(first.first, earlier + 1);
        QCOMPARE(r.pieces[std::size_t(first.first)], QStringLiteral("8"));

        QSignalSpy hovered(v.get(), &DlaView::hovered);
        const QPoint at = v->cellCentre(1, 7);
        QVERIFY(!at.isNull());
        QTest::mouseMove(v->canvas(), at);
        QTRY_VERIFY(!hovered.isEmpty());
        const QString tip = v->canvas()->toolTip();
        const QStringList lines = tip.split(QLatin1Char('\n'));
        QVERIFY2(lines.size() >= 3, qPrintable(tip));
        QVERIFY2(lines[0].startsWith(QStringLiteral("Layer 2 · head 8: 5.71")), qPrintable(tip));
        QCOMPARE(
            lines[2],
            QStringLiteral("%1 “8”: %2").arg(earlier + 2).arg(paint::format_cell(first.second)));
        QCOMPARE(v->describe(1, 7), tip);
        QVERIFY(
            hovered.last().at(0).toString().contains(QStringLiteral("%1 “8”").arg(earlier + 2)));
        // The notes under the map list that head's sources; a bias cell says what it is.
        QCOMPARE(v->figure().notedHead(), QPoint(7, 1));
        QVERIFY(v->describe(0, DlaFigure::kBiasColumn)
                    .startsWith(QStringLiteral("Layer 1 · attention-output bias: ")));
        QVERIFY(v->describe(0, DlaFigure::kMlpColumn).isEmpty());  // attention-only
    }

    void aDistractorTurnsItIntoALogitDifference() {
        auto v = attributedView();
        QVERIFY(v);
        const double alone = v->result()->attribution.total;
        QSignalSpy done(v.get(), &DlaView::attributed);
        QTest::keyClicks(v->distractorEdit(), QStringLiteral("s"));
        QVERIFY(done.wait(30000));
        const DlaResult& r = *v->result();
        QCOMPARE(r.attribution.what.distractor.value_or(-1), token_id(model_, "s"));
        QCOMPARE(r.distractor, QStringLiteral("s"));
        models::LogitTarget what = r.attribution.what;
        const models::LogitAttribution want = engine(model_, kText, what);
        const QString why = differs(r.attribution, want, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The difference: logit("8") − logit("s").
        what.distractor.reset();
        const double target_logit = engine(model_, kText, what).total;
        what.target = token_id(model_, "s");
        const double distractor_logit = engine(model_, kText, what).total;
        ATTNVIZ_FUZZY(target_logit, alone, 1e-6);
        ATTNVIZ_FUZZY(r.attribution.total, target_logit - distractor_logit, 1e-5);
        QVERIFY(std::abs(r.attribution.total - alone) > 0.1);
        QVERIFY2(v->figure().titleText().contains(QStringLiteral("logit “8” − logit “s”")),
                 qPrintable(v->figure().titleText()));
        // A text that is no token of the vocabulary: said, and nothing runs.
        QTest::keyClicks(v->distractorEdit(), QStringLiteral("zz"));
        QVERIFY(v->messageLabel()->isVisibleTo(v.get()));
        QVERIFY(v->messageLabel()->text().contains(QStringLiteral("not one token")));
        QVERIFY(!v->run());
    }

    void anotherTokenInFocusIsAttributedThere() {
        auto v = attributedView();
        QVERIFY(v);
        QSignalSpy done(v.get(), &DlaView::attributed);
        // Up from the last token with the keyboard, as the combo is used.
        v->positionCombo()->setFocus();
        QTest::keyClick(v->positionCombo(), Qt::Key_Up);
        QVERIFY(done.wait(30000));
        const auto L = std::int64_t(pass_->model->encoding.size());
        const DlaResult& r = *v->result();
        QCOMPARE(r.attribution.what.position, L - 2);
        // A typed target, with its id shown.
        QTest::keyClicks(v->targetEdit(), QStringLiteral("P"));
        QVERIFY(done.wait(30000));
        QCOMPARE(v->result()->attribution.what.target, token_id(model_, "P"));
        QVERIFY(!v->result()->predicted);
        QCOMPARE(v->targetIdLabel()->text(), QStringLiteral("id %1").arg(token_id(model_, "P")));
        models::LogitTarget what;
        what.position = L - 2;
        what.target = token_id(model_, "P");
        const QString why = differs(v->result()->attribution, engine(model_, kText, what), 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // The window's knock-outs (L2H8 by zeros, L1H4 by its mean): the attribution is the
    // engine's with the same interventions, of the intact model's top prediction "8"; L2H8's
    // share is an exact 0, its cell crossed out, and the figure says which heads are out.  A
    // right-click on a head's cell asks for its knock-out menu, a Ctrl-click toggles it.
    void theWindowsKnockedOutHeadsAreKnockedOutHere() {
        const std::map<ModelHead, KnockOut> knocked{{{1, 7}, KnockOut::Zero},
                                                    {{0, 3}, KnockOut::Mean}};
        auto v = test::shown_model_view<DlaView>(
            QSize(1200, 700), pass_over(attn_only(), kText, knocked), model_, &DlaView::attributed);
        QVERIFY(v);
        const DlaResult& r = *v->result();
        QVERIFY(r.knocked_out == knocked);
        QCOMPARE(r.attribution.what.target, token_id(model_, "8"));
        QVERIFY(r.predicted);
        const models::LogitAttribution want =
            engine(model_, kText, r.attribution.what,
                   {{{1, 7}, models::HeadIntervention::Kind::Zero, nullptr},
                    {{0, 3}, models::HeadIntervention::Kind::Mean, nullptr}});
        const QString why = differs(r.attribution, want, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(r.head(1, 7), 0.0);
        QVERIFY2(r.attribution.total < 4.0, qPrintable(QString::number(r.attribution.total)));
        QVERIFY2(v->figure().captionText().contains(QStringLiteral(
                     "“8”, the intact model's top prediction there · knocked out: layer 1 · "
                     "head 4 (mean), layer 2 · head 8 (zero)")),
                 qPrintable(v->figure().captionText()));
        QVERIFY2(v->describe(1, 7).startsWith(
                     QStringLiteral("Layer 2 · head 8, knocked out (zero): 0.00 of the total")),
                 qPrintable(v->describe(1, 7)));
        QVERIFY(!v->describe(1, 7).contains(QLatin1Char('\n')));  // no sources: it writes nothing
        QVERIFY(v->describe(1, 3).startsWith(QStringLiteral("Layer 2 · head 4: ")));
        // The cross of the Model mosaic over the knocked-out cell, none over its neighbour.
        QApplication::processEvents();
        const QImage image = v->canvas()->grab().toImage();
        const auto crossed = [&](int layer, int head) {
            const QRectF c = v->figure().cellRect(layer, head);
            int red = 0;
            for (int k = 3; k < int(c.width()) - 3; ++k) {
                const QColor px = image.pixelColor(QPoint(int(c.x()) + k, int(c.y()) + k));
                red += px.red() > 150 && px.green() < 90 && px.blue() < 90;
            }
            return red;
        };
        QVERIFY2(crossed(1, 7) > 10, qPrintable(QString::number(crossed(1, 7))));
        QCOMPARE(crossed(1, 6), 0);
        // The map's cells knock heads out as the mosaic's do.
        QSignalSpy menu(v.get(), &DlaView::headMenuRequested);
        QSignalSpy toggled(v.get(), &DlaView::knockOutToggled);
        const QPoint cell = v->cellCentre(1, 5);
        QContextMenuEvent event(QContextMenuEvent::Mouse, cell, v->canvas()->mapToGlobal(cell));
        QApplication::sendEvent(v->canvas(), &event);
        QCOMPARE(menu.size(), 1);
        QCOMPARE(menu.first().at(0).toInt(), 1);
        QCOMPARE(menu.first().at(1).toInt(), 5);
        QTest::mouseClick(v->canvas(), Qt::LeftButton, Qt::ControlModifier, v->cellCentre(0, 2));
        QCOMPARE(toggled.size(), 1);
        QCOMPARE(toggled.first().at(0).toInt(), 0);
        QCOMPARE(toggled.first().at(1).toInt(), 2);
        QTest::mouseClick(v->canvas(), Qt::LeftButton, {}, v->cellCentre(0, 2));
        QTest::mouseClick(v->canvas(), Qt::LeftButton, Qt::ControlModifier,
                          v->cellCentre(0, DlaFigure::kBiasColumn));
        QCOMPARE(toggled.size(), 1);  // a plain click, or the bias's cell: nothing
        // Restored in the window: the intact model's attribution again.
        QSignalSpy done(v.get(), &DlaView::attributed);
        v->setSource(pass_, model_);
        QVERIFY(done.wait(30000));
        QVERIFY(v->result()->knocked_out.empty());
        ATTNVIZ_FUZZY(v->result()->head(1, 7), 5.71, 0.005);
    }

    // The window's pass is recorded with its attention and its knock-outs (ModelPass::stream),
    // and compute_dla reads it instead of a pass of its own: the same numbers within 1e-6 (the
    // mean-knocked head's sources are summed in another order); a record altered on purpose
    // changes them, so the record is what was read; a record of other knock-outs is not read.
    void theWindowsRecordedPassStandsInForAPass() {
        const ModelPass& intact = *pass_->model;
        QVERIFY(intact.stream && intact.stream->has_attention());
        QVERIFY(intact.stream->interventions.empty());
        QCOMPARE(intact.stream->input.ids, intact.encoding.ids);
        const std::map<ModelHead, KnockOut> knocked{{{1, 7}, KnockOut::Zero},
                                                    {{0, 3}, KnockOut::Mean}};
        const SnapshotPtr out = pass_over(attn_only(), kText, knocked);
        QVERIFY(out->model->stream && out->model->stream->has_attention());
        QCOMPARE(out->model->stream->interventions.size(), std::size_t(2));
        const models::EncodedText e = models::encode_text(*model_, kText.toStdString());
        DlaRequest request;
        request.position = std::int64_t(e.input.ids.size()) - 1;
        request.target = token_id(model_, "8");
        for (const auto& [heads, record] :
             {std::pair{std::map<ModelHead, KnockOut>{}, intact.stream.get()},
              std::pair{knocked, out->model->stream.get()}}) {
            request.knocked_out = heads;
            const DlaResult got = compute_dla(*model_, e, kText, request, threads(), {}, record);
            const DlaResult want = compute_dla(*model_, e, kText, request, threads());
            const QString why = differs(got.attribution, want.attribution, 1e-6);
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        // The norm-based maps change what the maps show, not the pass: its record is the same.
        ComputeConfig norm;
        norm.model_folder = attn_only();
        norm.text_a = kText;
        norm.attention = AttentionShown::NormBased;
        const SnapshotPtr normed = compute_snapshot(norm, 1, nullptr, threads());
        QVERIFY(normed->model->norm_based && normed->model->stream);
        QCOMPARE(normed->model->stream->attention[1].data, intact.stream->attention[1].data);
        QCOMPARE(normed->model->stream->residuals.back().data,
                 intact.stream->residuals.back().data);
        // Layer 2's weights zeroed in a copy: its heads' sources are 0, L2H8's were not.
        models::StreamRecord altered = *intact.stream;
        std::fill(altered.attention[1].data.begin(), altered.attention[1].data.end(), 0.0f);
        request.knocked_out.clear();
        const DlaResult read = compute_dla(*model_, e, kText, request, threads(), {}, &altered);
        const DlaResult own = compute_dla(*model_, e, kText, request, threads());
        QCOMPARE(read.largestSources(1, 7, 1).front().second, 0.0);
        QVERIFY(own.largestSources(1, 7, 1).front().second > 1.0);
        QCOMPARE(read.head(1, 7), own.head(1, 7));  // the contexts are the record's, unaltered
        // The same altered record with heads knocked out: not this pass, so not read.
        request.knocked_out = knocked;
        const DlaResult passed = compute_dla(*model_, e, kText, request, threads(), {}, &altered);
        const QString why =
            differs(passed.attribution,
                    compute_dla(*model_, e, kText, request, threads()).attribution, 0.0);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void aPostNormModelIsRefusedWithTheReason() {
        const QString folder = golden_model("bert_mlm_prefix");
        const ModelPtr bert = open_model(folder);
        DlaView v;
        v.resize(900, 600);
        v.setSource(pass_over(folder, QStringLiteral("the cat sat")), bert);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        // A masked LM: no map, the reason said above the saliency offered instead
        // (ui_saliency_test); with Saliency Off nothing computes.
        QVERIFY(v.saliencyOnly());
        QVERIFY(!v.placeholderLabel()->isVisible());
        QVERIFY(!v.canvas()->isVisible());
        QVERIFY(v.noteLabel()->isVisible());
        QVERIFY2(v.noteLabel()->text().contains(QStringLiteral("post-norm")) &&
                     v.noteLabel()->text().contains(QStringLiteral("pre-norm")),
                 qPrintable(v.noteLabel()->text()));
        QVERIFY(!v.isRunning());
        // In Chinese too (the widgets hear of the language through the event loop).
        QVERIFY(install_translations(QStringLiteral("zh_CN")));
        QTRY_VERIFY2(v.noteLabel()->text().contains(QStringLiteral("后归一化")),
                     qPrintable(v.noteLabel()->text()));
        // A model without a language-model head; then none at all.
        install_translations(QStringLiteral("en"));
        QTRY_VERIFY(v.noteLabel()->text().contains(QStringLiteral("post-norm")));
        v.setSource(nullptr, open_model(golden_model("bert_gamma_beta")));
        QVERIFY2(v.placeholderLabel()->text().contains(QStringLiteral("no language-model head")),
                 qPrintable(v.placeholderLabel()->text()));
        v.setSource(nullptr, nullptr);
        QVERIFY(v.placeholderLabel()->text().contains(QStringLiteral("attn-only-2l")));
    }

    void theFigureKeepsItsTextInsideAndApartInBothLanguages() {
        const models::EncodedText e = models::encode_text(*model_, kText.toStdString());
        DlaRequest request;
        request.position = std::int64_t(e.input.ids.size()) - 1;
        DlaResult r = compute_dla(*model_, e, kText, request, threads());
        DlaResult difference = r;
        request.distractor = token_id(model_, "s");
        difference = compute_dla(*model_, e, kText, request, threads());
        DlaResult big = big_model_result();
        // Knocked out: the crossed-out cells' labels and the longer caption and notes.
        request.distractor.reset();
        request.knocked_out = {{{1, 7}, KnockOut::Zero}, {{0, 3}, KnockOut::Mean}};
        DlaResult knocked = compute_dla(*model_, e, kText, request, threads());
        for (const char* language : {"en", "zh_CN"}) {
            QVERIFY(install_translations(QLatin1String(language)));
            // The tab's size on a projector, a narrow tab (the bars go under the map), the
            // exports' default canvas, and Presentation Mode's large font on a short tab (a
            // map of two thin rows: its colour bar's labels must still stand apart).
            for (const QSize size :
                 {QSize(1240, 560), QSize(640, 700), QSize(1600, 1000), QSize(1270, 520)})
                for (const DlaResult* shown : {&r, &difference, &big, &knocked}) {
                    // 32 layers need more rows than a short tab at the projector's font has.
                    if (shown == &big && size.height() == 520) continue;
                    DlaFigure figure;
                    figure.setResult(shown);
                    FigureOptions options;
                    options.font_px = size.width() == 1600 ? 14 : size.height() == 520 ? 26 : 13;
                    figure.setOptions(options);
                    const QStringList problems = layout_problems(figure, size);
                    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 at %2×%3: ")
                                                                .arg(QLatin1String(language))
                                                                .arg(size.width())
                                                                .arg(size.height()) +
                                                            problems.join(QLatin1Char('\n'))));
                }
        }
    }

    void exportsWriteTheFigureAndTheNumbers() {
        DlaView early;
        QSignalSpy failed(&early, &DlaView::failed);
        QVERIFY(!early.exportTo(test::temp_path(QStringLiteral("early.csv"))));
        QCOMPARE(failed.size(), 1);
        QVERIFY(!QFile::exists(test::temp_path(QStringLiteral("early.csv"))));
        auto v = attributedView();
        QVERIFY(v);
        const QString csv = test::temp_path(QStringLiteral("dla.csv"));
        QVERIFY(v->exportTo(csv));
        const QString why = csv_differs(csv, v->result()->attribution);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString path = test::temp_path(QStringLiteral("dla.") + QLatin1String(suffix));
            QVERIFY(v->exportTo(path));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        QVERIFY(!QImage(test::temp_path(QStringLiteral("dla.png"))).isNull());
        QSignalSpy failed_later(v.get(), &DlaView::failed);
        QVERIFY(!v->exportTo(test::temp_path(QStringLiteral("dla.txt"))));
        QCOMPARE(failed_later.size(), 1);
        QVERIFY(!QFile::exists(test::temp_path(QStringLiteral("dla.txt"))));
    }

    void theExportCommandWritesTheEnginesNumbers() {
        const QString m = attn_only();
        const QStringList base{
            QStringLiteral("export"), QStringLiteral("--model"), m,    QStringLiteral("--view"),
            QStringLiteral("dla"),    QStringLiteral("--text"),  kText};
        const QString csv = test::temp_path(QStringLiteral("cli.csv"));
        QFile::remove(csv);
        test::ProcessRun r =
            test::run_attnviz(base + QStringList{QStringLiteral("--target"), QStringLiteral("8"),
                                                 QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0, r.err.constData());
        const auto L = std::int64_t(pass_->model->encoding.size());
        models::LogitTarget what;
        what.position = L - 1;
        what.target = token_id(model_, "8");
        const QString why = csv_differs(csv, engine(model_, kText, what));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The JSON is `attnviz attribute --out-json`'s, byte for byte.
        const QString json = test::temp_path(QStringLiteral("cli.json"));
        const QString reference = test::temp_path(QStringLiteral("attribute.json"));
        r = test::run_attnviz(base + QStringList{QStringLiteral("--position"), QStringLiteral("30"),
                                                 QStringLiteral("--target"), QStringLiteral("q"),
                                                 QStringLiteral("--distractor"),
                                                 QStringLiteral("s"), QStringLiteral("--out"),
                                                 json});
        QVERIFY2(r.status == 0, r.err.constData());
        r = test::run_attnviz({QStringLiteral("attribute"), QStringLiteral("--model"), m,
                               QStringLiteral("--text"), kText, QStringLiteral("--position"),
                               QStringLiteral("30"), QStringLiteral("--target"),
                               QStringLiteral("q"), QStringLiteral("--distractor"),
                               QStringLiteral("s"), QStringLiteral("--out-json"), reference});
        QVERIFY2(r.status == 0, r.err.constData());
        QFile a(json), b(reference);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray got = a.readAll();
        QCOMPARE(got, b.readAll());
        QVERIFY(got.contains("\"position\":30"));
        // The figure in every format; the default target is the top prediction.
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString out = test::temp_path(QStringLiteral("cli.") + QLatin1String(suffix));
            QFile::remove(out);
            r = test::run_attnviz(base + QStringList{QStringLiteral("--out"), out});
            QVERIFY2(r.status == 0, r.err.constData());
            QVERIFY(QFile(out).size() > 1000);
        }
        QVERIFY(!QImage(test::temp_path(QStringLiteral("cli.png"))).isNull());
        QVERIFY(QFile(test::temp_path(QStringLiteral("cli.svg"))).open(QIODevice::ReadOnly));

        // --ablate: the knocked-out model's numbers, `attnviz attribute --ablate`'s JSON.
        const QStringList ablate{QStringLiteral("--ablate"), QStringLiteral("1.4,2.8"),
                                 QStringLiteral("--ablate-mode"), QStringLiteral("mean")};
        QFile::remove(csv);
        r = test::run_attnviz(base + ablate + QStringList{QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0, r.err.constData());
        const models::LogitAttribution knocked =
            engine(model_, kText, what,
                   {{{0, 3}, models::HeadIntervention::Kind::Mean, nullptr},
                    {{1, 7}, models::HeadIntervention::Kind::Mean, nullptr}});
        const QString knocked_why = csv_differs(csv, knocked);
        QVERIFY2(knocked_why.isEmpty(), qPrintable(knocked_why));
        QVERIFY(std::abs(knocked.total - engine(model_, kText, what).total) > 1.0);
        r = test::run_attnviz(base + ablate + QStringList{QStringLiteral("--out"), json});
        QVERIFY2(r.status == 0, r.err.constData());
        r = test::run_attnviz(QStringList{QStringLiteral("attribute"), QStringLiteral("--model"), m,
                                          QStringLiteral("--text"), kText,
                                          QStringLiteral("--target"), QStringLiteral("8"),
                                          QStringLiteral("--out-json"), reference} +
                              ablate);
        QVERIFY2(r.status == 0, r.err.constData());
        QFile c(json), d(reference);
        QVERIFY(c.open(QIODevice::ReadOnly) && d.open(QIODevice::ReadOnly));
        const QByteArray knocked_json = c.readAll();
        QCOMPARE(knocked_json, d.readAll());
        QVERIFY(knocked_json.contains(R"("ablated":[{"layer":1,"head":4,"mode":"mean"})"));
    }

    void badExportInputIsOneLineAndNoFile() {
        const QString none = test::temp_path(QStringLiteral("none.png"));
        const QString m = attn_only();
        const QList<test::BadInput> bad{
            {{QStringLiteral("--model"), golden_model("bert_mlm_prefix"), QStringLiteral("--text"),
              QStringLiteral("the cat")},
             1,
             "post-norm"},
            {{QStringLiteral("--model"), m}, 2, "--text"},
            {{QStringLiteral("--text"), kText}, 2, "--model"},
            {{QStringLiteral("--model"), m, QStringLiteral("--text"), kText,
              QStringLiteral("--target"), QStringLiteral("8sY")},
             2,
             "--target"},
            {{QStringLiteral("--model"), m, QStringLiteral("--text"), kText,
              QStringLiteral("--position"), QStringLiteral("99")},
             2,
             "--position"},
            {{QStringLiteral("--model"), m, QStringLiteral("--text"), kText,
              QStringLiteral("--ablate"), QStringLiteral("3.1")},
             2,
             "--ablate"},
            {{QStringLiteral("--model"), m, QStringLiteral("--text"), kText,
              QStringLiteral("--ablate-mode"), QStringLiteral("mean")},
             2,
             "--ablate-mode needs --ablate"},
        };
        const QString problems = test::refusal_problems(
            {QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("dla")}, bad, none);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    void theTabInTheWindowFollowsTheTextAndCopiesItsFigure() {
        openWindow();
        if (QTest::currentTestFailed()) return;
        QVERIFY(openModel(attn_only()));
        w_->document()->setTextA(kText);
        SETTLE(*w_);
        DlaView* v = w_->views()->dlaView();
        QVERIFY(v);
        QSignalSpy done(v, &DlaView::attributed);
        // Hidden, it waits; shown, it attributes the window's text.
        QTest::qWait(50);
        QVERIFY(done.isEmpty());
        QVERIFY(!v->isRunning());
        w_->views()->setCurrentTab(ViewTabs::DlaTab);
        QCOMPARE(ViewTabs::tabName(ViewTabs::DlaTab), QStringLiteral("dla"));
        QCOMPARE(w_->views()->tabs()->tabText(ViewTabs::DlaTab), QStringLiteral("Who Writes"));
        QVERIFY(!w_->views()->tabs()->tabToolTip(ViewTabs::DlaTab).isEmpty());
        QVERIFY(done.wait(60000));
        QCOMPARE(v->result()->text, kText);
        QCOMPARE(v->result()->topHead(), QPoint(7, 1));
        // Another text: attributed again, at its own last token.
        w_->document()->setTextA(QStringLiteral("abcabc"));
        QVERIFY(done.wait(60000));
        QCOMPARE(v->result()->text, QStringLiteral("abcabc"));
        QCOMPARE(v->result()->attribution.what.position,
                 std::int64_t(snap()->model->encoding.size()) - 1);
        // The window's Copy Figure copies this tab's figure.
        QApplication::clipboard()->clear();
        test::exports_of(*w_)->copyFigure();
        const QImage copied = QApplication::clipboard()->image();
        QVERIFY(!copied.isNull());
        DlaFigure figure;
        figure.setResult(v->result());
        FigureOptions options;
        options.font_px = 14;  // as every export of the tab draws it
        figure.setOptions(options);
        QCOMPARE(copied.size(), 2 * fitted_painted_figure_size(figure, QSize(1600, 1000)));
    }

    // A token box's completer is made on its first focus, not with the model (a large
    // vocabulary's list is tens of milliseconds of the GUI thread): then it has every entry.
    void aTokenBoxCompletesTheVocabularyOnceFocused() {
        auto v = attributedView();
        QVERIFY(v);
        QVERIFY(!v->targetEdit()->completer() && !v->distractorEdit()->completer());
        v->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(v.get()));
        QTest::mouseClick(v->targetEdit(), Qt::LeftButton);
        QVERIFY(v->targetEdit()->hasFocus());
        const QCompleter* c = v->targetEdit()->completer();
        QVERIFY(c && c->model());
        int entries = 0;
        for (std::int64_t id = 0; id < model_->tokenizer.vocab_size(); ++id)
            entries += model_->tokenizer.id_to_token(id).empty() ? 0 : 1;
        QCOMPARE(c->model()->rowCount(), entries);
        QVERIFY(entries > 90);  // attn-only-2l's 98 characters
        QCOMPARE(c->model()->index(1, 0).data().toString(),
                 QString::fromStdString(model_->tokenizer.id_to_token(1)));
        QVERIFY(!v->distractorEdit()->completer());  // not focused yet
    }
};

QTEST_MAIN(DlaTest)
#include "ui_dla_test.moc"
