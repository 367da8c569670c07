// The Positions tab: the statistics pass over the document's text runs when the tab is shown,
// its curves are the engine's (against the measures of the model's full maps), the heads and
// the curve picked redraw the plot, the exports write the figure and the CSV, a changed text
// starts a new pass, Cancel stops one, maps read from a file give the same curves, and a
// text the model cannot take is said in the tab without a dialog.
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "engine/io/npy.h"
#include "engine/models/head_statistics.h"
#include "engine/models/model_folder.h"
#include "qcustomplot.h"
#include "test_support.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/model/positions_view.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const QString kText = QStringLiteral(
    "春眠不觉晓，处处闻啼鸟。The cat sat on the mat, and the cat looked at the birds.");

/// Every layer's maps of the model's pass over `ids`, [H, L, L] each.
std::vector<Tensor> full_maps(const models::Model& model, const std::vector<std::int64_t>& ids) {
    models::CollectingSink sink;
    models::ModelInput input;
    input.ids = ids;
    model.forward(input, {}, sink);
    std::vector<Tensor> maps;
    for (AttentionResult& r : sink.results)
        maps.push_back(std::move(r.weights));
    return maps;
}

bool wait_computed(QSignalSpy& spy) {
    return spy.count() > 0 || spy.wait(60000);
}

/// The values of graph `g` of the plot.
std::vector<double> graph_values(QCustomPlot* plot, int g) {
    std::vector<double> out;
    for (auto it = plot->graph(g)->data()->constBegin(); it != plot->graph(g)->data()->constEnd();
         ++it)
        out.push_back(it->value);
    return out;
}

}  // namespace

class TestPositions : public QObject {
    Q_OBJECT
  private slots:
    void curvesAreTheMeasuresOfTheFullMaps() {
        AttentionDocument doc;
        doc.setModelFolder(shipped_model(QStringLiteral("char-zh-en-4l")));
        doc.setTextA(kText);
        PositionsView view(&doc);
        view.resize(1200, 700);
        QSignalSpy computed(&view, &PositionsView::computed);
        view.show();  // shown: the pass starts by itself
        QVERIFY(wait_computed(computed));
        QCOMPARE(computed.takeFirst().at(0).toBool(), true);
        const PositionStatisticsPtr s = view.statistics();
        QVERIFY(s);
        // The reference: the maps the model's ordinary pass keeps, measured directly.
        const auto model =
            models::load_model(shipped_model(QStringLiteral("char-zh-en-4l")).toStdString());
        const models::HeadStatistics expected =
            models::statistics_from_maps(full_maps(*model, s->input.ids), true);
        QCOMPARE(s->statistics.length, std::int64_t(s->input.ids.size()));
        QCOMPARE(s->tokens.size(), qsizetype(s->input.ids.size()));
        QCOMPARE(view.headList()->count(), int(expected.layers * expected.heads));

        // One head: the plot's line is its curve; the dashed line the mean of every head.
        view.setHeads({{3, 1}});
        QCustomPlot* plot = view.plot();
        QCOMPARE(plot->graphCount(), 2);
        const std::int64_t L = expected.length;
        std::vector<double> line = graph_values(plot, 1);
        QCOMPARE(std::int64_t(line.size()), L);
        for (std::int64_t j = 0; j < L; ++j)
            QVERIFY(std::abs(line[std::size_t(j)] - expected.received_of(3, 1)[j]) < 1e-5);
        std::vector<double> mean = graph_values(plot, 0);
        double sum = 0;
        for (std::int64_t l = 0; l < expected.layers; ++l)
            for (std::int64_t h = 0; h < expected.heads; ++h)
                sum += expected.received_of(l, h)[5];
        QVERIFY(std::abs(mean[5] - sum / double(expected.layers * expected.heads)) < 1e-5);

        // The other curve: each query's attention on the first token.
        view.curveCombo()->setCurrentIndex(1);
        line = graph_values(plot, 1);
        for (std::int64_t j = 0; j < L; ++j)
            QVERIFY(std::abs(line[std::size_t(j)] - expected.first_token_of(3, 1)[j]) < 1e-6);

        // Ticking a head in the list adds its line.
        QListWidgetItem* item = view.headList()->item(0);  // layer 1, head 1
        item->setCheckState(Qt::Checked);
        QCOMPARE(plot->graphCount(), 3);

        // The exports: the figure in three formats, the curves as CSV.
        QTemporaryDir dir;
        for (const char* name : {"p.png", "p.svg", "p.pdf", "p.csv"})
            QVERIFY2(view.exportTo(dir.filePath(name)), name);
        QImage png(dir.filePath("p.png"));
        QVERIFY(png.width() >= 1600);
        QFile pdf(dir.filePath("p.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QFile csv(dir.filePath("p.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), int(L + 1));
        QCOMPARE(lines[0], QStringLiteral("position,token,L1H1,L4H2"));
        const QStringList row = lines[3].split(',');  // position 3
        QVERIFY(std::abs(row.last().toDouble() - expected.first_token_of(3, 1)[2]) < 1e-6);
        // An unwritable path: failed(), nothing written.
        QSignalSpy failed(&view, &PositionsView::failed);
        QVERIFY(!view.exportTo(dir.filePath("no/such/folder/p.png")));
        QCOMPARE(failed.count(), 1);

        // A head's whole map, recomputed for it alone from the residual stream the pass kept:
        // the full pass's map of that head.
        QVERIFY(!s->residuals.empty());
        const std::vector<Tensor> maps = full_maps(*model, s->input.ids);
        const FullMapSourcePtr source = view.fullMapSource();
        QCOMPARE(source->layers(), 4);
        QCOMPARE(source->length(), L);
        const HeadMap head = source->map(3, 1, PassControl{});
        QCOMPARE(head.weights.shape, (Shape{L, L}));
        QVERIFY(head.causal);
        QCOMPARE(head.tokens.size(), std::size_t(L));
        for (std::int64_t k = 0; k < L * L; ++k)
            QVERIFY(std::abs(head.weights.data[std::size_t(k)] -
                             maps[3].data[std::size_t(L * L + k)]) < 1e-6f);
        // A double-click on a head in the list asks for its full map.
        QSignalSpy asked(&view, &PositionsView::fullMapRequested);
        view.headList()->setCurrentRow(13);  // layer 4, head 2
        QVERIFY(view.fullMapButton()->isEnabled());
        QTest::mouseClick(view.fullMapButton(), Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(1).toInt(), 3);
        QCOMPARE(asked.at(0).at(2).toInt(), 1);

        // A new text: a new pass, over the new tokens.
        const std::int64_t before = s->statistics.length;
        doc.setTextA(kText + kText);
        QVERIFY(computed.wait(60000));
        QVERIFY(view.statistics()->statistics.length > before);
    }

    void cancelStopsThePassAndComputeRunsItAgain() {
        AttentionDocument doc;
        doc.setModelFolder(shipped_model(QStringLiteral("char-zh-en-4l")));
        doc.setTextA(kText);
        PositionsView view(&doc);
        QSignalSpy computed(&view, &PositionsView::computed);
        QCoreApplication::processEvents();  // the document's coalesced change first
        view.compute();
        QVERIFY(view.isRunning());
        QVERIFY(view.cancelButton()->isEnabled());
        view.cancel();
        QVERIFY(computed.wait(60000));
        // Cancelled within a layer, or finished first: either way it ran and it stopped.
        QVERIFY(!view.isRunning());
        QVERIFY(view.computeButton()->isEnabled());
        computed.clear();
        QTest::mouseClick(view.computeButton(), Qt::LeftButton);
        QVERIFY(computed.wait(60000));
        QCOMPARE(computed.takeFirst().at(0).toBool(), true);
        QVERIFY(view.statistics());
    }

    void mapsFromAFileGiveTheSameCurves() {
        const auto model =
            models::load_model(shipped_model(QStringLiteral("attn-only-2l")).toStdString());
        const std::vector<std::int64_t> ids{0, 5, 9, 17, 5, 9, 17, 22, 31, 5, 9};
        const std::vector<Tensor> maps = full_maps(*model, ids);
        const std::int64_t H = maps[0].dim(1), L = std::int64_t(ids.size());
        Tensor all({std::int64_t(maps.size()), H, L, L});
        for (std::size_t l = 0; l < maps.size(); ++l)
            std::copy(maps[l].data.begin(), maps[l].data.end(),
                      all.data.begin() + std::ptrdiff_t(l * std::size_t(H * L * L)));
        QTemporaryDir dir;
        const QString file = dir.filePath("maps.npy"), tokens = dir.filePath("tokens.json");
        io::write_npy(file.toStdString(), all);
        QFile t(tokens);
        QVERIFY(t.open(QIODevice::WriteOnly));
        QStringList names;
        for (std::size_t k = 0; k < ids.size(); ++k)
            names << QStringLiteral("\"t%1\"").arg(k);
        t.write(("[" + names.join(',') + "]").toUtf8());
        t.close();
        AttentionDocument doc;
        doc.setAttentionMaps(file, tokens);
        PositionsView view(&doc);
        QSignalSpy computed(&view, &PositionsView::computed);
        QCoreApplication::processEvents();  // the document's coalesced change first
        view.compute();
        QVERIFY(computed.wait(60000));
        const PositionStatisticsPtr s = view.statistics();
        QVERIFY2(s, qPrintable(view.statusLabel()->text()));
        QVERIFY(!s->model);  // no model: a head's map is read, not recomputed
        QCOMPARE(s->tokens.at(3), QStringLiteral("t3"));
        const models::HeadStatistics expected = models::statistics_from_maps(maps, true);
        for (std::size_t k = 0; k < expected.received.size(); ++k)
            QCOMPARE(s->statistics.received[k], expected.received[k]);
        QCOMPARE(s->statistics.atlas.at(1, 2).entropy, expected.atlas.at(1, 2).entropy);
        // A head's whole map is that head of the file.
        const HeadMap head = view.fullMapSource()->map(1, 2, PassControl{});
        QVERIFY(std::equal(head.weights.data.begin(), head.weights.data.end(),
                           maps[1].data.begin() + std::ptrdiff_t(2 * L * L)));
    }

    void aTextTheModelCannotTakeIsSaidInTheTab() {
        AttentionDocument doc;
        doc.setModelFolder(shipped_model(QStringLiteral("char-zh-en-4l")));
        QString long_text;
        for (int k = 0; k < 20; ++k)
            long_text += kText;  // past the model's 256 positions
        doc.setTextA(long_text);
        PositionsView view(&doc);
        QSignalSpy computed(&view, &PositionsView::computed);
        QSignalSpy failed(&view, &PositionsView::failed);
        view.compute();
        QVERIFY(computed.wait(60000));
        QCOMPARE(computed.takeFirst().at(0).toBool(), false);
        QCOMPARE(failed.count(), 0);  // the window says it already: no second dialog
        QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("256")),
                 qPrintable(view.statusLabel()->text()));
        QVERIFY(!view.statistics());
    }
};

QTEST_MAIN(TestPositions)
#include "ui_positions_test.moc"
