// The Flow tab (issue 38): information-flow routes in the window against the engine's
// models::information_flow and models::flow_graph on the shipped attn-only-2l, the threshold
// slider redrawing from the kept importances without a pass, a click on a token's dot focusing
// it, an edge's hover text and click (its head's full map opens at its query), the refusal of a
// post-norm BERT, the figure's text in English and Chinese, the exports, and `attnviz export
// --view flow` against `attnviz flow`.
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTabWidget>
#include <QTest>
#include <QThread>

#include <cmath>
#include <memory>

#include "engine/models/information_flow.h"
#include "engine/models/model_folder.h"
#include "model_view_support.h"
#include "test_support.h"
#include "text_layout.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/i18n/language.h"
#include "ui/model/flow_figure.h"
#include "ui/model/flow_view.h"
#include "ui/render/figure_export.h"
#include "ui/widgets/full_map_window.h"
#include "ui/widgets/view_tabs.h"
#include "ui/widgets/zoom_heatmap.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;
using models::FlowEdge;

namespace {
/// The guide's `attnviz flow` example ($T): a random string said twice, cut after its second
/// copy's "P"; the induction head reads token 18, the "8" after the first "P".
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

SnapshotPtr pass_over(const QString& folder, const QString& text) {
    ComputeConfig c;
    c.model_folder = folder;
    c.text_a = text;
    return compute_snapshot(c, 1, nullptr, threads());
}

/// The engine's importances of `text`, with nothing of the window in between.
models::InformationFlow engine(const ModelPtr& m, const QString& text, bool per_head) {
    const models::EncodedText e = models::encode_text(*m, text.toStdString());
    models::FlowOptions o;
    o.per_head = per_head;
    o.num_threads = threads();
    return models::information_flow(*m->model, e.input, o);
}

/// Where two graphs differ (edges in order, importances beyond `tol`), or empty.
QString differs(const models::FlowGraph& got, const models::FlowGraph& want, double tol) {
    if (got.position != want.position) return QStringLiteral("position %1").arg(got.position);
    if (got.nodes != want.nodes) return QStringLiteral("the nodes differ");
    if (got.edges.size() != want.edges.size())
        return QStringLiteral("%1 edges against %2").arg(got.edges.size()).arg(want.edges.size());
    for (std::size_t k = 0; k < want.edges.size(); ++k) {
        const FlowEdge &a = got.edges[k], &b = want.edges[k];
        if (a.from != b.from || a.to != b.to || a.via != b.via || a.head != b.head)
            return QStringLiteral("edge %1: %2 against %3")
                .arg(k)
                .arg(QString::fromStdString(a.via_name()), QString::fromStdString(b.via_name()));
        if (!(std::abs(a.importance - b.importance) <= tol))
            return QStringLiteral("edge %1: importance %2 against %3")
                .arg(k)
                .arg(a.importance, 0, 'g', 10)
                .arg(b.importance, 0, 'g', 10);
    }
    return {};
}

/// The index of the edge (from → to, via, head) in `g`, or -1.
int find_edge(const models::FlowGraph& g, std::int64_t from, std::int64_t to, FlowEdge::Via via,
              std::int64_t head = -1) {
    for (std::size_t k = 0; k < g.edges.size(); ++k) {
        const FlowEdge& e = g.edges[k];
        if (e.from.position == from && e.to.position == to && e.via == via && e.head == head &&
            e.to.layer == 2)
            return int(k);
    }
    return -1;
}

QStringList layout_problems(FlowFigure& figure, QSize size) {
    const QSize canvas = fitted_painted_figure_size(figure, size);
    test::TextLayoutDevice device(canvas);
    paint_painted_figure(&device, figure, false);
    QStringList problems = test::texts_outside(device.texts(), canvas);
    problems << test::overlapping_texts(device.texts());
    if (device.texts().size() < 15)
        problems << QStringLiteral("only %1 texts drawn").arg(device.texts().size());
    return problems;
}
}  // namespace

class FlowTest : public test::WindowFixture {
    Q_OBJECT
  private:
    ModelPtr model_;
    SnapshotPtr pass_;

    /// A shown view on the example's pass, computed once; null when it never shows.
    std::unique_ptr<FlowView> computedView() {
        return test::shown_model_view<FlowView>(QSize(1200, 700), pass_, model_,
                                                &FlowView::computed);
    }

    /// The window on attn-only-2l over the example's text.
    void openOnTheExample() {
        openWindow();
        if (QTest::currentTestFailed()) return;
        QVERIFY(openModel(attn_only()));
        w_->document()->setTextA(kText);
        SETTLE(*w_);
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

    void theGraphIsTheEnginesAtTheLastToken() {
        auto v = computedView();
        QVERIFY(v);
        const auto L = int(pass_->model->encoding.size());
        QCOMPARE(v->position(), L - 1);
        QCOMPARE(v->threshold(), 0.04);
        QCOMPARE(v->computations(), 1);
        const models::InformationFlow flow = engine(model_, kText, false);
        const models::FlowGraph want = models::flow_graph(flow, L - 1, 0.04);
        QVERIFY(v->graph());
        const QString why = differs(*v->graph(), want, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // `attnviz flow`'s example: 28 edges, the strongest into the prediction from token 18.
        QCOMPARE(int(want.edges.size()), 28);
        const int induction = find_edge(*v->graph(), 17, L - 1, FlowEdge::Via::Attention);
        QVERIFY(induction >= 0);
        ATTNVIZ_FUZZY(v->graph()->edges[std::size_t(induction)].importance, 0.2375, 5e-4);
        // The engine's property the widths rest on: a block's terms sum to 1 (spot checks).
        const models::InformationFlow& kept = v->data()->flow;
        const auto terms = kept.attention.shape[2];
        for (const auto& [layer, token] :
             {std::pair{0, 17}, std::pair{1, L - 1}, std::pair{1, 3}}) {
            double sum = 0.0;
            for (std::int64_t t = 0; t < terms; ++t)
                sum += double(
                    kept.attention.data[(std::size_t(layer) * std::size_t(L) + std::size_t(token)) *
                                            std::size_t(terms) +
                                        std::size_t(t)]);
            ATTNVIZ_FUZZY(sum, 1.0, 1e-5);
        }
    }

    void theSliderChangesTheEdgesWithoutAPass() {
        auto v = computedView();
        QVERIFY(v);
        const auto before = v->graph()->edges.size();
        const int computations = v->computations();
        // Up a page at a time with the keyboard, as the slider is used.
        v->thresholdSlider()->setFocus();
        QTest::keyClick(v->thresholdSlider(), Qt::Key_PageUp);
        QTest::keyClick(v->thresholdSlider(), Qt::Key_PageUp);
        QVERIFY(v->threshold() > 0.06);
        QVERIFY2(v->graph()->edges.size() < before,
                 qPrintable(QStringLiteral("%1 edges at %2, %3 at 0.04")
                                .arg(v->graph()->edges.size())
                                .arg(v->threshold())
                                .arg(before)));
        QCOMPARE(v->computations(), computations);
        QVERIFY(!v->isRunning());
        const models::FlowGraph want =
            models::flow_graph(v->data()->flow, v->position(), v->threshold());
        const QString why = differs(*v->graph(), want, 0.0);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // Down to the slider's end: more edges than at the default.
        QTest::keyClick(v->thresholdSlider(), Qt::Key_Home);
        QCOMPARE(v->threshold(), FlowView::kMinThreshold);
        QVERIFY(v->graph()->edges.size() > before);
        QCOMPARE(v->computations(), computations);
    }

    void clickingATokensDotFocusesIt() {
        auto v = computedView();
        QVERIFY(v);
        const int computations = v->computations();
        QApplication::processEvents();
        const QPointF dot = v->figure().nodeCentre(0, 17);
        QVERIFY(!dot.isNull());
        QTest::mouseClick(v->canvas(), Qt::LeftButton, {}, dot.toPoint());
        QCOMPARE(v->position(), 17);
        QCOMPARE(v->positionCombo()->currentIndex(), 17);
        QCOMPARE(v->graph()->position, 17);
        QCOMPARE(v->computations(), computations);
        const QString why =
            differs(*v->graph(), models::flow_graph(v->data()->flow, 17, v->threshold()), 0.0);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY2(v->figure().titleText().contains(QStringLiteral("token 18 “8”")),
                 qPrintable(v->figure().titleText()));
    }

    void anEdgeSaysWhatItCarriesAndOpensItsHead() {
        auto v = computedView();
        QVERIFY(v);
        const auto L = int(pass_->model->encoding.size());
        QApplication::processEvents();
        const int k = find_edge(*v->graph(), 17, L - 1, FlowEdge::Via::Attention);
        QVERIFY(k >= 0);
        const QPoint middle = v->figure().edgePoint(k).toPoint();
        QVERIFY2(v->figure().edgeAt(middle) == k, qPrintable(QStringLiteral("edge %1 at (%2, %3)")
                                                                 .arg(v->figure().edgeAt(middle))
                                                                 .arg(middle.x())
                                                                 .arg(middle.y())));
        QSignalSpy hovered(v.get(), &FlowView::hovered);
        // From a corner first: a move to where the last test's cursor was would be no move.
        QTest::mouseMove(v->canvas(), QPoint(2, 2));
        QTest::mouseMove(v->canvas(), middle);
        QTRY_VERIFY(!hovered.isEmpty());
        QCOMPARE(v->canvas()->toolTip(),
                 QStringLiteral("Attention · token 18 “8” → token 47 “P”, layer 2: importance "
                                "0.24"));
        // Per head: the importances again (one more pass), the induction head's own line.
        QSignalSpy done(v.get(), &FlowView::computed);
        QTest::mouseClick(v->perHeadBox(), Qt::LeftButton);
        QVERIFY(done.wait(60000));
        QCOMPARE(v->computations(), 2);
        QVERIFY(v->data()->flow.per_head);
        const QString why = differs(
            *v->graph(), models::flow_graph(engine(model_, kText, true), L - 1, 0.04), 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QApplication::processEvents();
        const int h = find_edge(*v->graph(), 17, L - 1, FlowEdge::Via::Head, 7);
        QVERIFY(h >= 0);
        QCOMPARE(v->figure().describeEdge(h),
                 QStringLiteral("L2H8 · token 18 “8” → token 47 “P”, layer 2: importance %1")
                     .arg(QString::number(v->graph()->edges[std::size_t(h)].importance, 'f', 2)));
        QSignalSpy activated(v.get(), &FlowView::edgeActivated);
        const QPoint at = v->figure().edgePoint(h).toPoint();
        QCOMPARE(v->figure().edgeAt(at), h);
        QTest::mouseClick(v->canvas(), Qt::LeftButton, {}, at);
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated[0][0].toInt(), 1);
        QCOMPARE(activated[0][1].toInt(), 7);
        QCOMPARE(activated[0][2].toInt(), L - 1);
    }

    void aPostNormModelIsRefusedWithTheReason() {
        const QString folder = golden_model("bert_mlm_prefix");
        FlowView v;
        v.resize(900, 600);
        v.setSource(pass_over(folder, QStringLiteral("the cat sat")), open_model(folder));
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QVERIFY(v.placeholderLabel()->isVisible());
        QVERIFY2(v.placeholderLabel()->text().contains(QStringLiteral("post-norm")),
                 qPrintable(v.placeholderLabel()->text()));
        QVERIFY(!v.thresholdSlider()->isVisible());
        QVERIFY(!v.run());
        QCOMPARE(v.computations(), 0);
        QVERIFY(install_translations(QStringLiteral("zh_CN")));
        QTRY_VERIFY2(v.placeholderLabel()->text().contains(QStringLiteral("后归一化")),
                     qPrintable(v.placeholderLabel()->text()));
    }

    void theFigureKeepsItsTextInsideAndApartInBothLanguages() {
        const QString fifty = QStringLiteral(
            "The cat sat on the mat and then the cat sat on the mat again, and the dog "
            "watched the cat from the door while it rained outside all day long.");
        std::vector<std::pair<FlowData, models::FlowGraph>> shown;
        for (const auto& [text, per_head] :
             {std::pair{kText, false}, std::pair{kText, true}, std::pair{fifty, false}}) {
            const models::EncodedText e = models::encode_text(*model_, text.toStdString());
            FlowData d = compute_flow(*model_, e, text, per_head, threads());
            const auto at = std::int64_t(d.pieces.size()) - 1;
            models::FlowGraph g = models::flow_graph(d.flow, at, 0.02);
            shown.emplace_back(std::move(d), std::move(g));
        }
        QVERIFY(shown.back().first.pieces.size() >= 40);
        for (const char* language : {"en", "zh_CN"}) {
            QVERIFY(install_translations(QLatin1String(language)));
            for (const QSize size : {QSize(1240, 560), QSize(800, 600), QSize(1600, 1000)})
                for (const auto& [data, graph] : shown) {
                    FlowFigure figure;
                    figure.setData(&data, &graph);
                    FigureOptions options;
                    options.font_px = size.width() == 1600 ? 14 : 13;
                    figure.setOptions(options);
                    const QStringList problems = layout_problems(figure, size);
                    QVERIFY2(problems.isEmpty(),
                             qPrintable(QStringLiteral("%1 at %2×%3, %4 tokens: ")
                                            .arg(QLatin1String(language))
                                            .arg(size.width())
                                            .arg(size.height())
                                            .arg(data.pieces.size()) +
                                        problems.join(QLatin1Char('\n'))));
                }
        }
    }

    void exportsWriteTheFigure() {
        FlowView early;
        QSignalSpy failed(&early, &FlowView::failed);
        QVERIFY(!early.exportTo(test::temp_path(QStringLiteral("early.png"))));
        QCOMPARE(failed.size(), 1);
        QVERIFY(!QFile::exists(test::temp_path(QStringLiteral("early.png"))));
        auto v = computedView();
        QVERIFY(v);
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString path = test::temp_path(QStringLiteral("flow.") + QLatin1String(suffix));
            QVERIFY(v->exportTo(path));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        QVERIFY(!QImage(test::temp_path(QStringLiteral("flow.png"))).isNull());
        QSignalSpy failed_later(v.get(), &FlowView::failed);
        QVERIFY(!v->exportTo(test::temp_path(QStringLiteral("flow.txt"))));
        QCOMPARE(failed_later.size(), 1);
        QVERIFY(!QFile::exists(test::temp_path(QStringLiteral("flow.txt"))));
    }

    void theExportCommandWritesTheFlowCommandsGraph() {
        const QString m = attn_only();
        const QStringList base{
            QStringLiteral("export"), QStringLiteral("--model"), m,    QStringLiteral("--view"),
            QStringLiteral("flow"),   QStringLiteral("--text"),  kText};
        for (const QStringList& extra :
             {QStringList{}, QStringList{QStringLiteral("--position"), QStringLiteral("18"),
                                         QStringLiteral("--threshold"), QStringLiteral("0.02"),
                                         QStringLiteral("--per-head")}}) {
            const QString json = test::temp_path(QStringLiteral("cli.json"));
            const QString reference = test::temp_path(QStringLiteral("flow.json"));
            QFile::remove(json);
            test::ProcessRun r =
                test::run_attnviz(base + extra + QStringList{QStringLiteral("--out"), json});
            QVERIFY2(r.status == 0, r.err.constData());
            r = test::run_attnviz(QStringList{QStringLiteral("flow"), QStringLiteral("--model"), m,
                                              QStringLiteral("--text"), kText} +
                                  extra + QStringList{QStringLiteral("--out-json"), reference});
            QVERIFY2(r.status == 0, r.err.constData());
            QFile a(json), b(reference);
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            const QByteArray got = a.readAll();
            QCOMPARE(got, b.readAll());
            QVERIFY(got.contains(extra.isEmpty() ? "\"position\":47" : "\"position\":18"));
        }
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString out = test::temp_path(QStringLiteral("cli.") + QLatin1String(suffix));
            QFile::remove(out);
            const test::ProcessRun r =
                test::run_attnviz(base + QStringList{QStringLiteral("--out"), out});
            QVERIFY2(r.status == 0, r.err.constData());
            QVERIFY(QFile(out).size() > 1000);
        }
        QVERIFY(!QImage(test::temp_path(QStringLiteral("cli.png"))).isNull());
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
              QStringLiteral("--threshold"), QStringLiteral("0")},
             2,
             "--threshold"},
            {{QStringLiteral("--model"), m, QStringLiteral("--text"), kText,
              QStringLiteral("--threshold"), QStringLiteral("1.5")},
             2,
             "--threshold"},
            {{QStringLiteral("--model"), m, QStringLiteral("--text"), kText,
              QStringLiteral("--position"), QStringLiteral("99")},
             2,
             "--position"},
            {{QStringLiteral("--model"), m, QStringLiteral("--text"), kText,
              QStringLiteral("--target"), QStringLiteral("8")},
             2,
             "--target"},
        };
        const QString problems = test::refusal_problems(
            {QStringLiteral("export"), QStringLiteral("--view"), QStringLiteral("flow")}, bad,
            none);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        // The flow's options on another view.
        const test::ProcessRun r = test::run_attnviz(
            {QStringLiteral("export"), QStringLiteral("--model"), m, QStringLiteral("--view"),
             QStringLiteral("dla"), QStringLiteral("--text"), kText, QStringLiteral("--per-head"),
             QStringLiteral("--out"), none});
        QCOMPARE(r.status, 2);
        QVERIFY(!QFile::exists(none));
    }

    /// A head's line opens that head's full map at the line's query: zoomed in around it (the
    /// map is larger than what the window shows of it), the query's row marked, the key the line
    /// comes from in view.
    void anEdgeOpensItsHeadsMapAtItsQuery() {
        openOnTheExample();
        if (QTest::currentTestFailed()) return;
        FlowView* v = w_->views()->flowView();
        QSignalSpy done(v, &FlowView::computed);
        w_->views()->setCurrentTab(ViewTabs::FlowTab);
        QVERIFY(done.wait(60000));
        QTest::mouseClick(v->perHeadBox(), Qt::LeftButton);
        QVERIFY(done.wait(60000));
        QApplication::processEvents();
        const int L = int(snap()->model->encoding.size());
        const int h = find_edge(*v->graph(), 17, L - 1, FlowEdge::Via::Head, 7);
        QVERIFY(h >= 0);
        QTest::mouseClick(v->canvas(), Qt::LeftButton, {}, v->figure().edgePoint(h).toPoint());
        QTRY_COMPARE(w_->fullMapWindows().size(), 1);
        FullMapWindow* window = w_->fullMapWindows().front();
        QCOMPARE(window->layer(), 1);
        QCOMPARE(window->head(), 7);
        QTRY_VERIFY_WITH_TIMEOUT(!window->isLoading() && window->pyramid(), 60000);
        const ZoomHeatmap* map = window->heatmap();
        QCOMPARE(window->rowOfPiece(L - 1), L - 1);  // one piece a token
        QCOMPARE(map->markedRow(), L - 1);
        const QRectF shown = map->figure().region();
        QVERIFY2(shown.height() < L - 1,
                 qPrintable(QStringLiteral("%1 rows in view of %2").arg(shown.height()).arg(L)));
        QVERIFY2(shown.top() <= L - 1 && shown.bottom() >= L && shown.left() <= 17 &&
                     shown.right() >= 18,
                 qPrintable(QStringLiteral("rows %1–%2, keys %3–%4")
                                .arg(shown.top())
                                .arg(shown.bottom())
                                .arg(shown.left())
                                .arg(shown.right())));
        QTest::qWait(50);
        // ATTNVIZ_SHOTS=DIR keeps it to look at; the test's own folder goes at its end.
        {
            const QString shots = qEnvironmentVariable("ATTNVIZ_SHOTS");
            const QString name = QStringLiteral("flow-full-map.png");
            QVERIFY(window->grab().save(shots.isEmpty() ? test::temp_path(name)
                                                        : shots + QLatin1Char('/') + name));
        }
        // The tab stays: the map is a window of its own.
        QCOMPARE(w_->views()->currentTab(), ViewTabs::FlowTab);
        window->close();
    }

    void theTabInTheWindowFollowsTheText() {
        openOnTheExample();
        if (QTest::currentTestFailed()) return;
        FlowView* v = w_->views()->flowView();
        QVERIFY(v);
        QSignalSpy done(v, &FlowView::computed);
        QTest::qWait(50);
        QVERIFY(done.isEmpty());  // hidden, it waits
        QCOMPARE(v->computations(), 0);
        w_->views()->setCurrentTab(ViewTabs::FlowTab);
        QCOMPARE(ViewTabs::tabName(ViewTabs::FlowTab), QStringLiteral("flow"));
        QCOMPARE(w_->views()->tabs()->tabText(ViewTabs::FlowTab), QStringLiteral("Flow"));
        QVERIFY(!w_->views()->tabs()->tabToolTip(ViewTabs::FlowTab).isEmpty());
        QVERIFY(done.wait(60000));
        QCOMPARE(v->data()->text, kText);
        w_->document()->setTextA(QStringLiteral("abcabc"));
        QVERIFY(done.wait(60000));
        QCOMPARE(v->data()->text, QStringLiteral("abcabc"));
        QCOMPARE(v->graph()->position, std::int64_t(snap()->model->encoding.size()) - 1);
    }
};

QTEST_MAIN(FlowTest)
#include "ui_flow_test.moc"
