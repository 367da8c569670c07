// One head's whole map in a zoomable window (issue 24, issue 25): the ZoomHeatmap draws the
// pyramid level whose cells are no smaller than a pixel and the region in view, zooms about the
// cursor, pans by dragging and by the keys, and says "query → key: weight"; the full-map window
// opens from a head's context menu in the Model tab and the Atlas and shows the head's values,
// bit for bit, for a model's pass and for maps read from a file; Alt-click on a cell explains it
// in the "Why?" pane beside the map.
#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

#include "engine/io/attention_arrays.h"
#include "test_support.h"
#include "ui/compute/full_map_source.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/model/atlas_view.h"
#include "ui/model/model_view.h"
#include "ui/model/why_panel.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/widgets/full_map_window.h"
#include "ui/widgets/knock_out_menu.h"
#include "ui/widgets/view_tabs.h"
#include "ui/widgets/zoom_heatmap.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

/// A map of zeros with one weight of 1 at (row, col), and a gentle ramp elsewhere.
Tensor spike_map(std::int64_t L, std::int64_t row, std::int64_t col) {
    Tensor t({L, L});
    for (std::int64_t i = 0; i < L; ++i)
        for (std::int64_t j = 0; j < L; ++j)
            t.data[std::size_t(i * L + j)] = 0.1f * float(j) / float(L);
    t.data[std::size_t(row * L + col)] = 1.0f;
    return t;
}

std::vector<QString> token_names(std::int64_t L) {
    std::vector<QString> out;
    for (std::int64_t k = 0; k < L; ++k)
        out.push_back(QStringLiteral("t%1").arg(k));
    return out;
}

/// The colour the figure gives the map's largest weight.
QRgb top_colour(Colormap map) {
    return make_gradient(map).color(1.0, QCPRange(0.0, 1.0));
}

/// Whether `image` has a pixel of colour `rgb` within the rectangle.
bool has_colour(const QImage& image, const QRect& r, QRgb rgb) {
    for (int y = std::max(0, r.top()); y <= std::min(image.height() - 1, r.bottom()); ++y)
        for (int x = std::max(0, r.left()); x <= std::min(image.width() - 1, r.right()); ++x)
            if ((image.pixel(x, y) & 0xffffff) == (rgb & 0xffffff)) return true;
    return false;
}

/// Where cell (row, col) is drawn.
QPointF cell_centre(const ZoomMapFigure& f, double row, double col) {
    const QRectF r = f.regionRect();
    const double ppc = f.pixelsPerCell();
    return QPointF(r.x() + (col + 0.5 - f.region().x()) * ppc,
                   r.y() + (row + 0.5 - f.region().y()) * ppc);
}

/// Level 0 of `p` against `expected`, bit for bit: the first difference, or "".
QString bits_differ(const ops::MapPyramid& p, const Tensor& expected) {
    if (p.rows() * p.cols() != std::int64_t(expected.numel()))
        return QStringLiteral("%1 x %2 cells, expected %3")
            .arg(p.rows())
            .arg(p.cols())
            .arg(expected.numel());
    for (std::size_t k = 0; k < expected.numel(); ++k)
        if (std::memcmp(p.level(0).values + k, expected.ptr() + k, sizeof(float)) != 0)
            return QStringLiteral("cell %1: %2, expected %3")
                .arg(k)
                .arg(double(p.level(0).values[k]))
                .arg(double(expected.data[k]));
    return {};
}

}  // namespace

class FullMapTest : public test::WindowFixture {
    Q_OBJECT

    /// Opens the context menu of `widget` at `pos` and triggers its Open Full Map….
    void openFullMapFrom(QWidget* widget, const QPoint& pos, const char* menu_name) {
        QContextMenuEvent event(QContextMenuEvent::Mouse, pos, widget->mapToGlobal(pos));
        QApplication::sendEvent(widget, &event);
        QMenu* menu = nullptr;
        QTRY_VERIFY((menu = w_->findChild<QMenu*>(QLatin1String(menu_name))) != nullptr &&
                    menu->isVisible());
        QAction* open = menu->findChild<QAction*>(QStringLiteral("openFullMapAction"));
        QVERIFY(open);
        open->trigger();
        menu->close();
    }

    FullMapWindow* waitForWindow() {
        FullMapWindow* window = nullptr;
        const bool shown = QTest::qWaitFor(
            [&] {
                const auto all = w_->fullMapWindows();
                window = all.isEmpty() ? nullptr : all.back();
                return window && !window->isLoading() &&
                       (window->pyramid() || !window->errorText().isEmpty());
            },
            60000);
        return shown ? window : nullptr;
    }

  private slots:
    void init() { openSettledWindow(); }
    void cleanup() { closeWindow(); }

    void zoomAndPanChangeTheLevelAndTheRegion() {
        ZoomHeatmap view;
        view.resize(900, 760);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const std::int64_t L = 1000;  // levels 1000, 500, 250
        auto pyramid = std::make_shared<const ops::MapPyramid>(spike_map(L, 700, 300));
        QCOMPARE(pyramid->levels(), 3);
        view.setContent({pyramid, token_names(L), false, QStringLiteral("spike")});
        ZoomMapFigure& f = view.figure();
        // Fitted: the whole map, on fewer pixels than cells: level 1 (2 x 2 cells a pixel).
        QImage frame = view.grab().toImage();
        QVERIFY(f.plotRect().height() < 1000 && f.plotRect().height() >= 500);
        QCOMPARE(f.drawnCells().level, 1);
        QCOMPARE(f.drawnCells().rows(), std::int64_t(500));
        QVERIFY(std::abs(f.region().width() - 1000.0) < 1e-6 || f.region().width() > 1000.0);
        // Max pooling keeps the one spike visible, in the top colour, where it is.
        const QPointF spike = cell_centre(f, 700, 300);
        QVERIFY(has_colour(frame, QRect(spike.toPoint() - QPoint(2, 2), QSize(5, 5)),
                           top_colour(Colormap::Viridis)));
        QVERIFY(f.captionText().contains(QStringLiteral("largest weight of 2 × 2 cells")));

        // The wheel zooms in about the cursor: the spike stays under it, level 0 draws.
        for (int k = 0; k < 6; ++k) {
            QWheelEvent wheel(spike, view.mapToGlobal(spike), QPoint(), QPoint(0, 120),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(&view, &wheel);
        }
        frame = view.grab().toImage();
        QCOMPARE(f.drawnCells().level, 0);
        QVERIFY(f.region().width() < 300);
        const QPointF at = f.cellAt(spike);
        QVERIFY2(std::abs(at.x() - 300.5) < 1.0 && std::abs(at.y() - 700.5) < 1.0,
                 qPrintable(QStringLiteral("%1, %2").arg(at.x()).arg(at.y())));
        QVERIFY(f.touchedCells() < std::int64_t(frame.width()) * frame.height());
        QVERIFY(
            view.describeAt(spike).startsWith(QStringLiteral("“t700” → “t300”: 1 (query 701, "
                                                             "key 301)")));
        // Zoomed in far enough, the tokens label the axes.
        view.zoomBy(8.0, spike);
        QVERIFY(view.pixelsPerCell() >= 11.0);
        view.grab();
        QVERIFY(f.region().contains(QPointF(300, 700)));

        // Dragging pans: the map follows the mouse.
        const QRectF before = f.region();
        const QPointF from = f.plotRect().center();
        QTest::mousePress(&view, Qt::LeftButton, {}, from.toPoint());
        QTest::mouseMove(&view, (from + QPointF(120, 0)).toPoint());
        QTest::mouseRelease(&view, Qt::LeftButton, {}, (from + QPointF(120, 0)).toPoint());
        QVERIFY2(std::abs(f.region().x() - (before.x() - 120 / view.pixelsPerCell())) < 1e-6,
                 qPrintable(QStringLiteral("%1 -> %2").arg(before.x()).arg(f.region().x())));
        // The keys: → pans right, − zooms out, 0 fits the whole map again.
        const double x = f.region().x();
        QTest::keyClick(&view, Qt::Key_Right);
        QVERIFY(f.region().x() > x);
        const double ppc = view.pixelsPerCell();
        QTest::keyClick(&view, Qt::Key_Minus);
        QVERIFY(view.pixelsPerCell() < ppc);
        QTest::keyClick(&view, Qt::Key_0);
        view.grab();
        QCOMPARE(f.drawnCells().level, 1);
        QVERIFY(f.region().contains(QRectF(0, 0, 1000, 1000)));

        // Mean pooling on the same map: the spike is averaged with 3 cells of about 0.07.
        view.setContent(
            {std::make_shared<const ops::MapPyramid>(pyramid->map(), ops::PoolMode::Mean),
             token_names(L), false, QStringLiteral("spike")},
            true);
        frame = view.grab().toImage();
        QVERIFY(!has_colour(frame, QRect(spike.toPoint() - QPoint(2, 2), QSize(5, 5)),
                            top_colour(Colormap::Viridis)));
        QVERIFY(f.captionText().contains(QStringLiteral("mean weight of 2 × 2 cells")));
    }

    void theModelTabOpensAHeadsFullMap() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        QVERIFY(openModel(shipped_model(QStringLiteral("attn-only-2l"))));
        w_->document()->setTextA(QStringLiteral("The cat sat on the mat. The cat sat on the mat."));
        SETTLE(*w_);
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        ModelView* mosaic = w_->views()->modelView();
        QTRY_VERIFY(!mosaic->cellRect(1, 3).isEmpty());
        openFullMapFrom(mosaic, mosaic->cellRect(1, 3).center(), "knockOutMenu");
        FullMapWindow* window = waitForWindow();
        QVERIFY(window);
        QVERIFY2(window->errorText().isEmpty(), qPrintable(window->errorText()));
        QCOMPARE(window->layer(), 1);
        QCOMPARE(window->head(), 3);
        QVERIFY(window->isVisible());
        // The head's values, bit for bit, over the tokens the pass shows.
        const ModelMaps& m = *snap()->model;
        const std::int64_t L = m.tokens;
        const Tensor& layer = m.weights[1];
        const Tensor head({L, L}, std::vector<float>(layer.data.begin() + 3 * L * L,
                                                     layer.data.begin() + 4 * L * L));
        const QString bad = bits_differ(*window->pyramid(), head);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        QCOMPARE(window->heatmap()->figure().content().tokens, m.token_text);
        QVERIFY(window->heatmap()->figure().content().causal);
        QVERIFY(window->windowTitle().contains(QStringLiteral("layer 2 · head 4")));
        // The menu key opens the menu of the head the keyboard selected.
        mosaic->setCurrent(0, 2);
        QContextMenuEvent key_menu(QContextMenuEvent::Keyboard, QPoint(1, 1),
                                   mosaic->mapToGlobal(QPoint(1, 1)));
        QApplication::sendEvent(mosaic, &key_menu);
        QVERIFY(w_->knockOutMenu()->lastMenu());
        QVERIFY(w_->knockOutMenu()->lastMenu()->title().isEmpty());
        QCOMPARE(w_->knockOutMenu()->lastMenu()->actions().front()->text(),
                 QStringLiteral("Layer 1 · head 3"));
        w_->knockOutMenu()->lastMenu()->close();
        // Hovering names both tokens and the weight.
        ZoomHeatmap* view = window->heatmap();
        view->grab();
        const QPointF cell = cell_centre(view->figure(), 5, 2);
        QMouseEvent move(QEvent::MouseMove, cell, view->mapToGlobal(cell), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view, &move);
        QCOMPARE(view->toolTip(),
                 QStringLiteral("“%1” → “%2”: %3 (query 6, key 3)")
                     .arg(visible_token(m.token_text[5]), visible_token(m.token_text[2]))
                     .arg(double(head.data[std::size_t(5 * L + 2)]), 0, 'g', 4));
        // The region in view exports as a figure (twice the pixels in a PNG).
        const QString png = test::temp_path(QStringLiteral("full_map.png"));
        QVERIFY(window->exportTo(png));
        const QImage exported(png);
        QCOMPARE(exported.size(), view->size() * 2);
        QVERIFY(window->exportTo(test::temp_path(QStringLiteral("full_map.svg"))));
        QVERIFY(QFileInfo(test::temp_path(QStringLiteral("full_map.svg"))).size() > 1000);
        // Another pooling keeps the same map (level 0 shared) and the view.
        const float* level0 = window->pyramid()->level(0).values;
        const QRectF region = view->figure().region();
        QSignalSpy loaded(window, &FullMapWindow::loaded);
        window->poolCombo()->setCurrentIndex(1);
        emit window->poolCombo()->activated(1);
        QVERIFY(loaded.wait(30000));
        QCOMPARE(window->pyramid()->mode(), ops::PoolMode::Mean);
        QCOMPARE(window->pyramid()->level(0).values, level0);
        QCOMPARE(view->figure().region(), region);
        window->close();
        QTRY_VERIFY(w_->fullMapWindows().isEmpty());

        // Heads the memory budget did not keep are recomputed from the model, that head alone:
        // the same bits as the pass that kept every head.
        const std::vector<QString> tokens = m.token_text;
        w_->document()->setModelScope(-1, 2);
        SETTLE(*w_);
        QCOMPARE(snap()->model->heads_kept, 2);
        window = w_->openFullMap(1, 3);
        QVERIFY(window);
        QTRY_VERIFY_WITH_TIMEOUT(!window->isLoading() && window->pyramid(), 60000);
        const QString recomputed = bits_differ(*window->pyramid(), head);
        QVERIFY2(recomputed.isEmpty(), qPrintable(recomputed));
        QCOMPARE(window->heatmap()->figure().content().tokens, tokens);
        window->close();
        // With a head knocked out, recomputing would leave it in: the window says so.
        w_->document()->knockOut(0, 0, KnockOut::Zero);
        SETTLE(*w_);
        window = w_->openFullMap(1, 3);
        QVERIFY(window);
        QVERIFY2(window->errorText().contains(QStringLiteral("restore them first")),
                 qPrintable(window->errorText()));
        QVERIFY(!window->pyramid());
        window->close();
    }

    /// Alt-click on a cell of a model's full map explains it in the pane beside the map, as on
    /// the heatmaps (the guide's induction cell: L2H8 from the last “P” to the “8” after the
    /// first, score 30.74); a plain drag still pans.  A map of a source of its own says why not.
    void altClickingACellExplainsItBesideTheMap() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        QVERIFY(openModel(shipped_model(QStringLiteral("attn-only-2l"))));
        w_->document()->setTextA(QStringLiteral("q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP"));
        SETTLE(*w_);
        FullMapWindow* window = w_->openFullMap(1, 7);
        QVERIFY(window);
        QTRY_VERIFY_WITH_TIMEOUT(!window->isLoading() && window->pyramid(), 60000);
        QVERIFY(window->statusLabel()->text().contains(QStringLiteral("Alt-click")));
        ZoomHeatmap* view = window->heatmap();
        view->grab();
        WhyPanel* pane = window->whyPanel();
        QVERIFY(!pane->isVisible());
        const QRectF region = view->figure().region();
        QSignalSpy explained(pane, &WhyPanel::explained);
        QTest::mouseClick(view, Qt::LeftButton, Qt::AltModifier,
                          cell_centre(view->figure(), 46, 17).toPoint());
        QVERIFY(pane->isVisible());
        QVERIFY2(explained.wait(60000), qPrintable(pane->messageLabel()->text()));
        const models::QkAttribution& a = pane->result()->attribution;
        QCOMPARE(a.head.layer, 1);
        QCOMPARE(a.head.head, 7);
        QCOMPARE(a.query, 46);
        QCOMPARE(a.key, 17);
        QVERIFY2(std::abs(a.score - 30.74) < 0.01, qPrintable(QString::number(a.score)));
        // The weight the caption gives is the map's, which is the pass's.
        QCOMPARE(float(pane->result()->weight), snap()->model->value(1, 7, 46, 17));
        QCOMPARE(window->pyramid()->level(0).at(46, 17), snap()->model->value(1, 7, 46, 17));
        QVERIFY(view->figure().region().height() >= region.height() - 1e-9);  // no pan
        QTest::qWait(50);
        // ATTNVIZ_SHOTS=DIR keeps it to look at; the test's own folder goes at its end.
        {
            const QString shots = qEnvironmentVariable("ATTNVIZ_SHOTS");
            const QString name = QStringLiteral("full-map-why.png");
            QVERIFY(window->grab().save(shots.isEmpty() ? test::temp_path(name)
                                                        : shots + QLatin1Char('/') + name));
        }

        window->close();

        // The Positions tab's maps are of a pass of their own: Alt-click says so, no pane.
        window = w_->openFullMap(full_map_source(*snap()), 1, 7);
        QVERIFY(window);
        QTRY_VERIFY_WITH_TIMEOUT(!window->isLoading() && window->pyramid(), 60000);
        window->heatmap()->grab();
        QTest::mouseClick(window->heatmap(), Qt::LeftButton, Qt::AltModifier,
                          cell_centre(window->heatmap()->figure(), 46, 17).toPoint());
        QVERIFY(!window->whyPanel()->isVisible());
        QVERIFY2(window->statusLabel()->text().contains(QStringLiteral("own text")),
                 qPrintable(window->statusLabel()->text()));
        window->close();
    }

    void theAtlasOpensAFilesHeadWhateverThePassKept() {
        const QString file =
            QString::fromStdString(test::data_dir() + "/attention_maps/maps_f32.npy");
        QVERIFY(w_->openAttentionMaps(file, QString()));
        QTRY_VERIFY_WITH_TIMEOUT(test::settled(*w_) && snap()->model && snap()->config.usesMaps(),
                                 60000);
        w_->views()->setCurrentTab(ViewTabs::AtlasTab);
        AtlasGrid* grid = w_->views()->findChild<AtlasView*>()->grid();
        QTRY_VERIFY(!grid->cellRect(1, 2).isEmpty());
        openFullMapFrom(grid, grid->cellRect(1, 2).center(), "atlasHeadMenu");
        FullMapWindow* window = waitForWindow();
        QVERIFY(window);
        QVERIFY2(window->errorText().isEmpty(), qPrintable(window->errorText()));
        const io::AttentionArrays arrays = io::AttentionArrays::open(file.toStdString());
        Tensor head({arrays.length(), arrays.length()});
        arrays.read_head(1, 2, head.ptr());
        const QString bad = bits_differ(*window->pyramid(), head);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        QCOMPARE(window->heatmap()->figure().content().tokens.size(), std::size_t(arrays.length()));
        // The Model tab's menu of maps from a file: Open Full Map… and no knock-outs.
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        ModelView* mosaic = w_->views()->modelView();
        QTRY_VERIFY(!mosaic->cellRect(0, 1).isEmpty());
        openFullMapFrom(mosaic, mosaic->cellRect(0, 1).center(), "knockOutMenu");
        QVERIFY(!w_->knockOutMenu()->lastMenu() ||
                !w_->knockOutMenu()->lastMenu()->findChild<QAction*>(
                    QStringLiteral("knockOutZeroAction")));
        QTRY_COMPARE(w_->fullMapWindows().size(), 2);
    }

    void aMapOverTheBudgetIsRefusedWithTheFigures() {
        const auto source = std::make_shared<FunctionMapSource>(
            QStringLiteral("big"), 1, 1, 8192,
            [](int, int, const PassControl&) -> HeadMap { throw std::logic_error("never read"); });
        FullMapWindow window(source, 0, 0, std::uint64_t(64) << 20, Colormap::Viridis, nullptr);
        window.setAttribute(Qt::WA_DeleteOnClose, false);
        QVERIFY(!window.isLoading());
        QVERIFY2(window.errorText().contains(QStringLiteral("needs 427 MiB, more than the memory "
                                                            "budget of 64 MiB")),
                 qPrintable(window.errorText()));
        // A source that fails says why, in the window.
        const auto failing = std::make_shared<FunctionMapSource>(
            QStringLiteral("broken"), 1, 1, 4, [](int, int, const PassControl&) -> HeadMap {
                throw DataError("broken.npy: layer 1, head 1, row 2, column 3 is NaN");
            });
        FullMapWindow second(failing, 0, 0, std::uint64_t(1) << 30, Colormap::Viridis, nullptr);
        second.setAttribute(Qt::WA_DeleteOnClose, false);
        QSignalSpy failed(&second, &FullMapWindow::failed);
        QVERIFY(failed.wait(10000));
        QCOMPARE(second.errorText(),
                 QStringLiteral("broken.npy: layer 1, head 1, row 2, column 3 is NaN"));
        QVERIFY(!second.pyramid());
    }
};

QTEST_MAIN(FullMapTest)
#include "ui_full_map_test.moc"
