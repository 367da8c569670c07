// The Circuits tab (issue 38): the composition scores it draws against the engine's
// circuit_scores, the induction circuit of the shipped model, Q / K / V switched without a new
// computation (and the scores kept per model and offset), the hover text, a click on a pair
// showing both heads' maps of the window's text, the exports, `attnviz export --view circuits`
// against `attnviz circuits`, bad input, and the tab in the window.
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <array>
#include <cmath>
#include <map>
#include <memory>

#include "engine/io/npy.h"
#include "engine/models/circuits.h"
#include "engine/models/model_folder.h"
#include "model_view_support.h"
#include "test_support.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/colour_table.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/model/circuits_figure.h"
#include "ui/model/circuits_view.h"
#include "ui/widgets/view_tabs.h"
#include "ui/widgets/zoom_heatmap.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
constexpr int kHeads = 8;  // attn-only-2l: 2 layers × 8 heads
constexpr int kL1H4 = 3, kL2H4 = kHeads + 3, kL2H5 = kHeads + 4, kL2H8 = kHeads + 7;
constexpr double kTolerance = 1e-6;

/// Where `got` differs from the engine's scores by more than kTolerance (NaN only where the
/// engine has NaN), else empty.
QString differs(const CircuitMaps& got, const models::CircuitScores& want) {
    const int N = got.heads();
    if (want.composition.shape != std::vector<std::int64_t>{3, N, N})
        return QStringLiteral("the shapes differ");
    for (int kind = 0; kind < 3; ++kind)
        for (int from = 0; from < N; ++from)
            for (int to = 0; to < N; ++to) {
                const float w = want.composition.data[std::size_t((kind * N + from) * N + to)];
                const float g = got.composition(Composition(kind), from, to);
                if ((std::isnan(w) && std::isnan(g)) ||
                    std::abs(double(g) - double(w)) <= kTolerance)
                    continue;
                return QStringLiteral("kind %1, %2 → %3: %4 against the engine's %5")
                    .arg(kind)
                    .arg(got.headName(from), got.headName(to))
                    .arg(g)
                    .arg(w);
            }
    for (int n = 0; n < N; ++n)
        if (std::abs(got.copying(n) - want.copying[std::size_t(n)]) > kTolerance)
            return QStringLiteral("copying of %1: %2 against %3")
                .arg(got.headName(n))
                .arg(got.copying(n))
                .arg(want.copying[std::size_t(n)]);
    return {};
}

/// The head whose `kind` composition into `to` is largest.
int strongest_into(const CircuitMaps& m, Composition kind, int to) {
    int best = -1;
    for (int from = 0; from < m.heads(); ++from)
        if (m.composes(from, to) &&
            (best < 0 || m.composition(kind, from, to) > m.composition(kind, best, to)))
            best = from;
    return best;
}

/// The CSV's two tables: pairs "from,to" → {q, k, v}, and head → copying.
struct CsvTables {
    std::map<QString, std::array<double, 3>> pairs;
    std::map<QString, double> copying;
    QString error;
};

CsvTables read_csv(const QByteArray& bytes) {
    CsvTables t;
    const QList<QByteArray> blocks = bytes.split('\n');
    int table = 0;
    for (const QByteArray& line : blocks) {
        if (line.isEmpty()) {
            ++table;
            continue;
        }
        const QList<QByteArray> f = line.split(',');
        if (f[0] == "from" || f[0] == "head") continue;
        if (table == 0 && f.size() == 5)
            t.pairs[QString::fromUtf8(f[0] + "," + f[1])] = {f[2].toDouble(), f[3].toDouble(),
                                                             f[4].toDouble()};
        else if (table == 1 && f.size() == 2)
            t.copying[QString::fromUtf8(f[0])] = f[1].toDouble();
        else if (t.error.isEmpty())
            t.error = QStringLiteral("unexpected line '%1'").arg(QString::fromUtf8(line));
    }
    return t;
}

/// Where the CSV differs from the engine's scores, else empty.
QString csv_differs(const CsvTables& csv, const models::CircuitScores& want) {
    if (!csv.error.isEmpty()) return csv.error;
    const int H = int(want.heads), N = int(want.layers * want.heads);
    const auto name = [H](int n) { return QStringLiteral("L%1H%2").arg(n / H + 1).arg(n % H + 1); };
    int pairs = 0;
    for (int from = 0; from < N; ++from)
        for (int to = (from / H + 1) * H; to < N; ++to, ++pairs) {
            const auto at = csv.pairs.find(name(from) + QLatin1Char(',') + name(to));
            if (at == csv.pairs.end())
                return QStringLiteral("no row %1,%2").arg(name(from), name(to));
            for (int kind = 0; kind < 3; ++kind) {
                const double w = want.composition.data[std::size_t((kind * N + from) * N + to)];
                if (std::abs(at->second[std::size_t(kind)] - w) > kTolerance)
                    return QStringLiteral("%1,%2 kind %3: %4 against %5")
                        .arg(name(from), name(to))
                        .arg(kind)
                        .arg(at->second[std::size_t(kind)])
                        .arg(w);
            }
        }
    if (int(csv.pairs.size()) != pairs)
        return QStringLiteral("%1 pair rows, not %2").arg(csv.pairs.size()).arg(pairs);
    if (int(csv.copying.size()) != N)
        return QStringLiteral("%1 copying rows, not %2").arg(csv.copying.size()).arg(N);
    for (int n = 0; n < N; ++n)
        if (std::abs(csv.copying.at(name(n)) - want.copying[std::size_t(n)]) > kTolerance)
            return QStringLiteral("copying of %1").arg(name(n));
    return {};
}

QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
}  // namespace

class TestCircuits : public test::WindowFixture {
    Q_OBJECT
  private:
    QString folder_;
    ModelPtr model_;
    models::CircuitScores engine_;

    /// A Circuits tab on the shipped model, shown, its scores drawn; null when they never are.
    std::unique_ptr<CircuitsView> shownView() {
        auto v = std::make_unique<CircuitsView>();
        v->resize(1200, 900);
        QSignalSpy computed(v.get(), &CircuitsView::computed);
        v->setModel(model_);
        v->show();
        if (!QTest::qWaitForWindowExposed(v.get())) return nullptr;
        if (computed.isEmpty() && !computed.wait(60000)) return nullptr;
        return v->maps() ? std::move(v) : nullptr;
    }

  private slots:
    void initTestCase() {
        folder_ = shipped_model(QStringLiteral("attn-only-2l"));
        QVERIFY2(!folder_.isEmpty(), "the shipped attn-only-2l is missing");
        model_ = open_model(folder_);
        models::CircuitOptions o;
        o.num_threads = std::max(1, QThread::idealThreadCount());
        engine_ = models::circuit_scores(*model_->model, o);
    }
    void cleanup() { closeWindow(); }

    void theMatrixIsTheEnginesAndTheInductionCircuitStandsOut() {
        auto v = shownView();
        QVERIFY(v);
        QCOMPARE(v->composition(), Composition::K);  // the induction circuit's
        const CircuitMaps& m = *v->maps();
        QCOMPARE(m.num_layers, 2);
        QCOMPARE(m.num_heads, kHeads);
        const QString why = differs(m, engine_);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The previous-token head L1H4 feeds each induction head most (docs/guide.md).
        for (const int to : {kL2H8, kL2H4, kL2H5})
            QVERIFY2(strongest_into(m, Composition::K, to) == kL1H4,
                     qPrintable(m.headName(strongest_into(m, Composition::K, to))));
        QVERIFY(std::abs(m.composition(Composition::K, kL1H4, kL2H8) - 0.270) < 5e-4);
        QVERIFY(std::abs(m.composition(Composition::K, kL1H4, kL2H4) - 0.189) < 5e-4);
        QVERIFY(std::abs(m.composition(Composition::K, kL1H4, kL2H5) - 0.147) < 5e-4);
        // Its cell is the brightest of the scale, and the weakest pair's the darkest.
        QApplication::processEvents();
        const QImage image = v->matrixView()->grab().toImage();
        const ColourTable viridis(Colormap::Viridis);
        const auto pixel = [&](int from, int to) {
            const QRectF r = v->figure().cellRect(from, to);
            return image.pixelColor(QPoint(int(r.x()) + 3, int(r.y()) + 3));
        };
        const auto near = [](const QColor& a, QRgb b) {
            return std::abs(a.red() - qRed(b)) <= 2 && std::abs(a.green() - qGreen(b)) <= 2 &&
                   std::abs(a.blue() - qBlue(b)) <= 2;
        };
        QVERIFY2(near(pixel(kL1H4, kL2H8), viridis.level(ColourTable::kLevels - 1)),
                 qPrintable(pixel(kL1H4, kL2H8).name()));
        int weakest_from = 0, weakest_to = kHeads;
        for (int from = 0; from < kHeads; ++from)
            for (int to = kHeads; to < 2 * kHeads; ++to)
                if (m.composition(Composition::K, from, to) <
                    m.composition(Composition::K, weakest_from, weakest_to))
                    weakest_from = from, weakest_to = to;
        QVERIFY2(near(pixel(weakest_from, weakest_to), viridis.level(0)),
                 qPrintable(pixel(weakest_from, weakest_to).name()));
        // Every pair of the 2-layer model composes: the matrix is its one block.
        QVERIFY(v->figure().cellRect(0, kHeads).isValid());
        QVERIFY(v->figure().cellRect(kHeads, kL2H8).isEmpty());  // no row for layer 2
        QVERIFY(v->figure().headLabels());
    }

    void switchingQKVRedrawsWithoutComputingAgain() {
        auto v = shownView();
        QVERIFY(v);
        QCOMPARE(v->computations(), 1);
        QCOMPARE(v->figure().describe(kL1H4, kL2H8),
                 QStringLiteral("L1H4 → L2H8: K-composition 0.270"));
        const QRectF cell = v->figure().cellRect(kL1H4, kL2H8);
        const auto corner = [&] {
            QApplication::processEvents();
            return v->matrixView()->grab().toImage().pixelColor(
                QPoint(int(cell.x()) + 3, int(cell.y()) + 3));
        };
        const QColor k_colour = corner();
        // Up from K is Q, and V is two down.
        v->compositionCombo()->setFocus();
        QTest::keyClick(v->compositionCombo(), Qt::Key_Up);
        QCOMPARE(v->composition(), Composition::Q);
        QVERIFY(v->figure().describe(kL1H4, kL2H8).contains(QStringLiteral("Q-composition")));
        QVERIFY(corner() != k_colour);
        QTest::keyClick(v->compositionCombo(), Qt::Key_Down);
        QTest::keyClick(v->compositionCombo(), Qt::Key_Down);
        QCOMPARE(v->composition(), Composition::V);
        QCOMPARE(v->figure().titleText(),
                 QStringLiteral("V-composition between heads, from the weights alone"));
        QCOMPARE(v->computations(), 1);
        QVERIFY(!v->isComputing());
        // Another model and back: the scores were kept.
        QSignalSpy computed(v.get(), &CircuitsView::computed);
        v->setModel(nullptr);
        QVERIFY(!v->maps());
        v->setModel(model_);
        QCOMPARE(computed.size(), 1);
        QCOMPARE(v->computations(), 1);
        QVERIFY2(differs(*v->maps(), engine_).isEmpty(), "the kept scores differ");
        // attn-only-2l is rotary: another offset is another computation, then kept too.
        QVERIFY(v->ropeOffsetBox()->isVisibleTo(v.get()));
        QCOMPARE(v->ropeOffsetBox()->value(), 1);
        v->ropeOffsetBox()->setValue(3);
        QCOMPARE(v->computations(), 2);
        QVERIFY(computed.wait(60000));
        QCOMPARE(*v->maps()->scores.rope_offset, std::int64_t(3));
        models::CircuitOptions o;
        o.rope_offset = 3;
        const QString why = differs(*v->maps(), models::circuit_scores(*model_->model, o));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        v->ropeOffsetBox()->setValue(1);
        QCOMPARE(v->computations(), 2);
        QCOMPARE(*v->maps()->scores.rope_offset, std::int64_t(1));
    }

    void scoresOverTheMemoryBudgetAreNotComputed() {
        CircuitsView v;
        v.resize(1000, 700);
        auto s = std::make_shared<AttentionSnapshot>();
        s->budget_bytes = 64 * 1024;  // attn-only-2l keeps 2 × 8 × 16 × 128 floats: 128 KiB
        v.setSnapshot(s);
        v.setModel(model_);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QCOMPARE(v.computations(), 0);
        QVERIFY(!v.isComputing());
        QVERIFY(!v.maps());
        QVERIFY2(v.statusLabel()->text().contains(QStringLiteral("memory budget")),
                 qPrintable(v.statusLabel()->text()));
        QVERIFY(v.computeButton()->isVisibleTo(&v));
        // A budget that holds them: Compute computes.
        s->budget_bytes = 1024 * 1024;
        QSignalSpy computed(&v, &CircuitsView::computed);
        QTest::mouseClick(v.computeButton(), Qt::LeftButton);
        QCOMPARE(v.computations(), 1);
        QVERIFY(computed.wait(60000));
        QVERIFY(v.maps());
    }

    void hoverSaysThePairAndItsScore() {
        auto v = shownView();
        QVERIFY(v);
        QSignalSpy hovered(v.get(), &CircuitsView::hovered);
        QTest::mouseMove(v->matrixView(), v->cellCentre(kL1H4, kL2H8));
        QTRY_VERIFY(!hovered.isEmpty());
        QCOMPARE(hovered.last().at(0).toString(),
                 QStringLiteral("L1H4 → L2H8: K-composition 0.270"));
        QCOMPARE(v->matrixView()->toolTip(), QStringLiteral("L1H4 → L2H8: K-composition 0.270"));
        // A head's copying score, in its strip under the columns.
        const QRectF strip = v->figure().copyingRect(kL2H8, false);
        QVERIFY(strip.isValid());
        QTest::mouseMove(v->matrixView(), strip.center().toPoint());
        QTRY_COMPARE(hovered.last().at(0).toString(), QStringLiteral("L2H8: copying score 1.000"));
        QCOMPARE(v->figure().describeCopying(kL1H4), QStringLiteral("L1H4: copying score −0.880"));
    }

    void aClickOnAPairShowsBothHeadsMaps() {
        auto v = shownView();
        QVERIFY(v);
        QSignalSpy chosen(v.get(), &CircuitsView::pairChosen);
        QSignalSpy shown(v.get(), &CircuitsView::pairMapsShown);
        // Without the window's text: the pair is said, and why there are no maps.
        QTest::mouseClick(v->matrixView(), Qt::LeftButton, {}, v->cellCentre(kL1H4, kL2H8));
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.at(0), (QList<QVariant>{0, 3, 1, 7}));
        QVERIFY(v->pairPanel()->isVisible() && v->pairPanel()->isWindow());
        QCOMPARE(v->figure().chosen(), QPoint(kL1H4, kL2H8));
        QVERIFY2(v->pairTitle()->text().contains(QStringLiteral("L1H4")) &&
                     v->pairTitle()->text().contains(QStringLiteral("L2H8")),
                 qPrintable(v->pairTitle()->text()));
        QVERIFY2(v->pairStatus()->text().contains(QStringLiteral("Type a text")),
                 qPrintable(v->pairStatus()->text()));
        QVERIFY(!v->pairMap(0)->figure().hasMap());

        // The window's pass on a repeated string: both heads' maps, as the pass computed them.
        ComputeConfig c;
        c.model_folder = folder_;
        c.text_a = QStringLiteral("q7Xv2LmR9tBw4ZkP q7Xv2LmR9tBw4ZkP");
        const SnapshotPtr s =
            compute_snapshot(c, 1, nullptr, std::max(1, QThread::idealThreadCount()));
        QVERIFY(s && s->model && s->model->heads_kept == kHeads);
        v->setSnapshot(s);
        QVERIFY(shown.wait(30000));  // the chosen pair follows the window's text
        QTest::mouseClick(v->matrixView(), Qt::LeftButton, {}, v->cellCentre(kL1H4, kL2H4));
        QCOMPARE(chosen.size(), 2);
        QCOMPARE(chosen.at(1), (QList<QVariant>{0, 3, 1, 3}));
        QVERIFY(shown.wait(30000));
        const auto L = std::size_t(s->model->tokens);
        for (int k = 0; k < 2; ++k) {
            const ZoomHeatmap* map = v->pairMap(k);
            QVERIFY(map->figure().hasMap());
            const Tensor& got = *map->figure().content().pyramid->map();
            QCOMPARE(got.numel(), L * L);
            const Tensor& weights = s->model->weights[std::size_t(k)];  // [H, L, L]
            const auto c2 = test::compare_arrays(got.ptr(), weights.ptr() + 3 * L * L, L * L, 1e-6);
            QVERIFY2(c2.ok, c2.message.c_str());
            QCOMPARE(map->figure().content().tokens.size(), L);
        }
        QVERIFY(v->pairMap(1)->figure().content().title.contains(QStringLiteral("L2H4")));
        // Escape closes the pair's window, and the pair is no longer framed.
        QTest::keyClick(v->pairPanel(), Qt::Key_Escape);
        QVERIFY(!v->pairPanel()->isVisible());
        QCOMPARE(v->figure().chosen(), QPoint(-1, -1));
    }

    void exportsWriteTheFigureAndTheScores() {
        QTemporaryDir dir;
        {
            CircuitsView early;
            QSignalSpy failed(&early, &CircuitsView::failed);
            QVERIFY(!early.exportTo(dir.filePath(QStringLiteral("early.csv"))));
            QCOMPARE(failed.size(), 1);
            QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("early.csv"))));
        }
        auto v = shownView();
        QVERIFY(v);
        QSignalSpy failed(v.get(), &CircuitsView::failed);
        const QString csv = dir.filePath(QStringLiteral("circuits.csv"));
        QVERIFY(v->exportTo(csv));
        const QString why = csv_differs(read_csv(read_all(csv)), engine_);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString path = dir.filePath(QStringLiteral("circuits.") + QLatin1String(suffix));
            QVERIFY(v->exportTo(path));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        QVERIFY(read_all(dir.filePath(QStringLiteral("circuits.svg")))
                    .contains("K-composition between heads"));
        QVERIFY(failed.isEmpty());
        QVERIFY(!v->exportTo(dir.filePath(QStringLiteral("circuits.txt"))));
        QCOMPARE(failed.size(), 1);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("circuits.txt"))));
    }

    void theCommandLineWritesTheEnginesScores() {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("c.csv"));
        const auto base = QStringList{QStringLiteral("export"), QStringLiteral("--model"), folder_,
                                      QStringLiteral("--view"), QStringLiteral("circuits")};
        test::ProcessRun r = test::run_attnviz(base + QStringList{QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0, r.err.constData());
        const CsvTables tables = read_csv(read_all(csv));
        QString why = csv_differs(tables, engine_);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The same numbers as `attnviz circuits`'s array.
        const QString npy = dir.filePath(QStringLiteral("k.npy"));
        r = test::run_attnviz({QStringLiteral("circuits"), QStringLiteral("--model"), folder_,
                               QStringLiteral("--out-json"), dir.filePath(QStringLiteral("c.json")),
                               QStringLiteral("--out-npy"), npy});
        QVERIFY2(r.status == 0, r.err.constData());
        models::CircuitScores from_cli = engine_;
        from_cli.composition = io::read_npy(npy.toStdString());
        why = csv_differs(tables, from_cli);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The figure, in each format and composition.
        for (const QString& tail :
             {QStringLiteral("k.png"), QStringLiteral("q.svg"), QStringLiteral("v.pdf")}) {
            const QString out = dir.filePath(tail);
            r = test::run_attnviz(base + QStringList{QStringLiteral("--composition"), tail.left(1),
                                                     QStringLiteral("--out"), out});
            QVERIFY2(r.status == 0, r.err.constData());
            QVERIFY(QFileInfo(out).size() > 1000);
        }
        QVERIFY(read_all(dir.filePath(QStringLiteral("q.svg")))
                    .contains("Q-composition between heads"));
    }

    void badInputIsOneLineAndNoFile() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("bad.png"));
        QFile npy(dir.filePath(QStringLiteral("maps.npy")));
        QVERIFY(npy.open(QIODevice::WriteOnly));
        const std::string bytes = io::serialize_npy(Tensor({1, 1, 2, 2}, 0.5f));
        npy.write(bytes.data(), qint64(bytes.size()));
        npy.close();
        const QString gpt2 = QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/models/gpt2_lmhead");
        const QList<test::BadInput> cases{
            {{"--model", folder_, "--view", "circuits", "--composition", "x"}, 2, "--composition"},
            {{"--model", npy.fileName(), "--view", "circuits"}, 1, "config.json"},
            {{"--model", folder_, "--composition", "k"}, 2, "--view circuits"},
            {{"--model", gpt2, "--view", "circuits", "--rope-offset", "2"}, 2, "learned positions"},
            {{"--model", folder_, "--view", "circuits", "--rope-offset", "100000"},
             2,
             "--rope-offset"},
            {{"--view", "circuits"}, 2, "--model"},
            {{"--model", folder_, "--view", "circuits", "--text", "abc"}, 2, "--text"},
        };
        const QString problems = test::refusal_problems({QStringLiteral("export")}, cases, out);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        const test::ProcessRun help = test::run_attnviz({"export", "--help"});
        QVERIFY(help.out.contains("head,copying"));
        QVERIFY(help.out.contains("--composition"));
    }

    void theTabInTheWindowShowsTheSourcesCircuits() {
        openSettledWindow();
        if (QTest::currentTestFailed()) return;
        CircuitsView* v = w_->views()->circuitsView();
        QVERIFY(v->placeholder()->isVisibleTo(v));  // the demo layer has no weights to read
        QCOMPARE(w_->views()->tabs()->tabText(ViewTabs::CircuitsTab), QStringLiteral("Circuits"));
        QVERIFY(openModel(folder_));
        w_->document()->setTextA(QStringLiteral("q7Xv2LmR9tBw4ZkP q7Xv2LmR9tBw4ZkP"));
        SETTLE(*w_);
        QCOMPARE(v->computations(), 0);  // not before the tab is looked at
        QSignalSpy computed(v, &CircuitsView::computed);
        w_->views()->setCurrentTab(ViewTabs::CircuitsTab);
        QVERIFY(computed.wait(60000));
        QVERIFY(!v->placeholder()->isVisibleTo(v));
        QVERIFY2(differs(*v->maps(), engine_).isEmpty(), "the tab's scores differ");
        QSignalSpy shown(v, &CircuitsView::pairMapsShown);
        QTest::mouseClick(v->matrixView(), Qt::LeftButton, {}, v->cellCentre(kL1H4, kL2H8));
        QVERIFY(shown.wait(30000));
        const Tensor& got = *v->pairMap(1)->figure().content().pyramid->map();
        const Tensor& weights = snap()->model->weights[1];
        const auto L = std::size_t(snap()->model->tokens);
        const auto c = test::compare_arrays(got.ptr(), weights.ptr() + 7 * L * L, L * L, 1e-6);
        QVERIFY2(c.ok, c.message.c_str());
    }
};

QTEST_MAIN(TestCircuits)
#include "ui_circuits_test.moc"
