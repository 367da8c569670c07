// A trained model in the real window: opening a folder off the GUI thread, the model view's
// mosaic against an independent engine run, the layer selector driving the views, a click
// on a head, a folder that fails, a cancelled load, and sessions (version 3) that keep the
// model relative to the session file.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QGroupBox>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "engine/budget/memory_budget.h"
#include "engine/models/attribution.h"
#include "engine/models/head_atlas.h"
#include "engine/models/information_flow.h"
#include "engine/models/model_folder.h"
#include "engine/models/token_views.h"
#include "test_support.h"
#include "ui/classroom/compare_figure.h"
#include "ui/classroom/compare_model.h"
#include "ui/classroom/compare_view.h"
#include "ui/classroom/lines_figure.h"
#include "ui/classroom/lines_view.h"
#include "ui/classroom/statistics_view.h"
#include "ui/classroom/steps_figure.h"
#include "ui/classroom/steps_model.h"
#include "ui/classroom/steps_view.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/model_lens.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/document/shipped_models.h"
#include "ui/model/atlas_view.h"
#include "ui/model/dla_view.h"
#include "ui/model/flow_view.h"
#include "ui/model/model_figure.h"
#include "ui/model/model_source.h"
#include "ui/model/model_view.h"
#include "ui/model/predictions_view.h"
#include "ui/render/colormaps.h"
#include "ui/render/heatmap_figure.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/full_map_window.h"
#include "ui/widgets/knock_out_menu.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/memory_dialogs.h"
#include "ui/widgets/memory_guard.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
constexpr double kTol = 1e-6;

QString golden_model(const char* name) {
    return QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/models/") + QLatin1String(name);
}
/// Every layer's maps for `text`, straight from the engine (no window, no store), on as many
/// threads as the window's worker.
models::CollectingSink engine_run(const QString& folder, const QString& text) {
    const models::OpenedModel m = models::open_model_folder(folder.toStdString());
    const models::EncodedText enc = models::encode_text(m, text.toStdString());
    models::CollectingSink sink;
    models::ModelForwardOptions options;
    options.num_threads = std::max(1, QThread::idealThreadCount());
    m.model->forward(enc.input, options, sink);
    return sink;
}
bool copy_folder(const QString& from, const QString& to) {
    if (!QDir().mkpath(to)) return false;
    for (const QString& f : QDir(from).entryList(QDir::Files))
        if (!QFile::copy(from + QLatin1Char('/') + f, to + QLatin1Char('/') + f)) return false;
    return true;
}
}  // namespace

class ModelWindowTest : public test::WindowFixture {
    Q_OBJECT
  private:
    ModelView* mosaic() { return w_->views()->modelView(); }

  private slots:
    void init() { openSettledWindow(); }
    void cleanup() {
        closeWindow();
        QFile::remove(
            test::temp_path(QStringLiteral("settings.ini")));  // no budget left for the next
    }

    void theModelViewHoldsEveryLayerAndHeadOfTheEngine() {
        const QString folder = golden_model("llama_gqa");
        QVERIFY(openModel(folder));
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        const ModelMaps* m = mosaic()->maps();
        QVERIFY(m);
        const QString text = w_->document()->textA();
        const models::CollectingSink ref = engine_run(folder, text);
        QCOMPARE(m->num_layers, int(ref.results.size()));
        QCOMPARE(m->num_layers, 2);
        QCOMPARE(m->num_heads, 4);
        QCOMPARE(m->num_kv_heads, 2);
        QCOMPARE(int(m->thumbnails.size()), m->num_layers * m->num_heads);
        const int L = m->tokens;
        QCOMPARE(snap()->source_len, L);
        QCOMPARE(snap()->key_tokens.front().size(), std::size_t(L));
        QVERIFY2(snap()->key_tokens.front().front() == QLatin1String("<s>"),
                 qPrintable(snap()->key_tokens.front().front()));
        // Every cell of every head equals the engine's own run, and each thumbnail is that
        // map: its strongest cell has the colour map's top colour, a masked cell grey.
        QCPColorGradient g = make_gradient(Colormap::Viridis);
        const QRgb top = g.color(1.0, QCPRange(0.0, 1.0));
        for (int l = 0; l < m->num_layers; ++l) {
            const Tensor& w = ref.results[std::size_t(l)].weights;
            // (Float sums may differ in the last bit with the buffers' alignment.)
            ATTNVIZ_COMPARE_ARRAYS(m->weights[std::size_t(l)].ptr(), w.ptr(), w.numel(), kTol);
            ATTNVIZ_COMPARE_ARRAYS(m->means[std::size_t(l)].ptr(),
                                   ref.results[std::size_t(l)].mean_weights.ptr(), L * L, kTol);
            for (int h = 0; h < m->num_heads; ++h) {
                const QImage& img = m->thumbnail(l, h);
                QCOMPARE(img.size(), QSize(L, L));
                const float* map = w.ptr() + std::size_t(h) * L * L;
                const std::size_t k = std::size_t(std::max_element(map, map + L * L) - map);
                QCOMPARE(img.pixel(int(k % L), int(k / L)), top);
                QCOMPARE(img.pixel(L - 1, 0), qRgb(236, 236, 236));  // causal: masked
                QVERIFY(!mosaic()->cellRect(l, h).isEmpty());
            }
        }
        // The atlas: read straight off the engine's maps, and one table row per head.
        for (int l = 0; l < m->num_layers; ++l)
            for (int h = 0; h < m->num_heads; ++h) {
                const float* map =
                    ref.results[std::size_t(l)].weights.ptr() + std::size_t(h) * L * L;
                double previous = 0, first = 0;
                for (int i = 1; i < L; ++i) {
                    previous += map[i * L + i - 1];
                    first += map[i * L];
                }
                QVERIFY(std::abs(m->atlas.at(l, h).previous - previous / (L - 1)) < 1e-6);
                QVERIFY(std::abs(m->atlas.at(l, h).first - first / (L - 1)) < 1e-6);
                QVERIFY(m->atlas.at(l, h).induction >= 0.0);
            }
        // Hidden, the Atlas waits for the pass; shown, it has it.
        AtlasView* atlas = w_->views()->atlasView();
        w_->views()->setCurrentTab(ViewTabs::AtlasTab);
        QCOMPARE(atlas->table()->rowCount(), m->num_layers * m->num_heads);
        // The window describes the model and has disabled the demo layer's settings.
        QVERIFY(w_->modelSource()->infoPanel()->isVisible());
        QVERIFY(w_->modelSource()->infoPanel()->text().contains(QLatin1String("LlamaForCausalLM")));
        QVERIFY(!find<QWidget>("embedDimSpin")->isEnabled());
        QVERIFY(find<QWidget>("colormapCombo")->isEnabled());
        // The scope bar states what the model's pass and maps need, against the budget.
        QVERIFY(snap()->estimated_bytes > std::uint64_t(L) * L * 4 * 8 && snap()->budget_bytes > 0);
        QVERIFY2(!find<QLabel>("memoryLabel")->text().contains(QLatin1String("0 B of")),
                 qPrintable(find<QLabel>("memoryLabel")->text()));
        // Typing re-runs the forward pass on the loaded model.
        w_->document()->setTextA(QStringLiteral("the cat the cat"));
        SETTLE(*w_);
        const Tensor again =
            engine_run(folder, QStringLiteral("the cat the cat")).results[1].weights;
        QCOMPARE(snap()->model->weights[1].numel(), again.numel());
        ATTNVIZ_COMPARE_ARRAYS(snap()->model->weights[1].ptr(), again.ptr(), again.numel(), kTol);
    }

    void theLayerSelectorAndAClickDriveTheViews() {
        QVERIFY(openModel(golden_model("llama_gqa")));
        const models::CollectingSink ref =
            engine_run(golden_model("llama_gqa"), w_->document()->textA());
        QCOMPARE(snap()->layer, 0);
        ATTNVIZ_COMPARE_ARRAYS(snap()->weights.ptr(), ref.results[0].weights.ptr(),
                               ref.results[0].weights.numel(), kTol);
        auto* spin = find<QSpinBox>("layerSpin");
        QVERIFY(spin->isEnabled());
        QCOMPARE(spin->minimum(), 1);  // layers count from 1 on screen
        QCOMPARE(spin->maximum(), 2);
        spin->setValue(2);
        SETTLE(*w_);
        QCOMPARE(w_->document()->computeConfig().layer, 1);
        QCOMPARE(snap()->layer, 1);
        ATTNVIZ_COMPARE_ARRAYS(snap()->weights.ptr(), ref.results[1].weights.ptr(),
                               ref.results[1].weights.numel(), kTol);
        QCOMPARE(w_->grid()->snapshot()->weights.data, snap()->weights.data);
        // A click on layer 0, head 3 of the mosaic opens that head in the grid.
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QTest::qWait(1);
        QTest::mouseClick(mosaic(), Qt::LeftButton, {}, mosaic()->cellRect(0, 3).center());
        SETTLE(*w_);
        QCOMPARE(w_->document()->computeConfig().layer, 0);
        QCOMPARE(w_->document()->view(), FigureView::Head);
        QCOMPARE(w_->document()->viewHead(), 3);
        QCOMPARE(w_->views()->currentTab(), ViewTabs::GridTab);
        QCOMPARE(spin->value(), 1);
        // The keyboard moves through the mosaic.
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        mosaic()->setFocus();
        QTest::keyClick(mosaic(), Qt::Key_Down);
        QTest::keyClick(mosaic(), Qt::Key_Left);
        QCOMPARE(mosaic()->current(), QPoint(2, 1));
        QTest::keyClick(mosaic(), Qt::Key_Return);
        SETTLE(*w_);
        QCOMPARE(w_->document()->computeConfig().layer, 1);
        QCOMPARE(w_->document()->viewHead(), 2);
        // A row of the atlas opens its head too.
        w_->views()->setCurrentTab(ViewTabs::AtlasTab);
        QTableWidget* table = w_->views()->atlasView()->table();
        table->sortItems(1, Qt::DescendingOrder);  // by head: row 0 is a head 3
        const int layer = table->item(0, 0)->data(Qt::UserRole).toInt() - 1;  // shown from 1
        QCOMPARE(table->item(0, 1)->data(Qt::UserRole).toInt(), 4);
        emit table->cellClicked(0, 4);
        SETTLE(*w_);
        QCOMPARE(w_->document()->computeConfig().layer, layer);
        QCOMPARE(w_->document()->viewHead(), 3);
        // Back to the demo layer: its settings work again.
        auto* source = find<QComboBox>("sourceCombo");
        // The demo layer, the shipped models, the model opened.
        QCOMPARE(source->count(), 2 + int(shipped_model_folders().size()));
        source->setCurrentIndex(0);
        emit source->activated(0);
        SETTLE(*w_);
        QVERIFY(!w_->document()->computeConfig().usesModel());
        QVERIFY(!snap()->model);
        QVERIFY(find<QWidget>("embedDimSpin")->isEnabled());
        QVERIFY(!spin->isEnabled());
    }

    // The steps of a rotary, grouped-query layer (computed only once the tab is open), and
    // the steps, lines and statistics following the layer selector, against the engine.
    void theStepsLinesAndStatisticsFollowTheLayer() {
        const QString folder = golden_model("llama_gqa");
        QVERIFY(openModel(folder));
        const QString text = w_->document()->textA();
        const models::CollectingSink maps = engine_run(folder, text);
        const models::OpenedModel m = models::open_model_folder(folder.toStdString());
        const models::EncodedText enc = models::encode_text(m, text.toStdString());
        auto steps_of = [&](int layer) {
            models::CollectingSink sink;
            models::ModelForwardOptions options;
            options.scope.layers = {layer};
            options.steps_layer = layer;
            options.num_threads = std::max(1, QThread::idealThreadCount());
            m.model->forward(enc.input, options, sink);
            return std::move(sink.results.at(0));
        };
        auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
            return a.size() == b.size() &&
                   test::compare_arrays(a.data(), b.data(), a.size(), kTol).ok;
        };
        auto* spin = find<QSpinBox>("layerSpin");
        spin->setValue(2);
        SETTLE(*w_);
        QVERIFY(!snap()->steps);  // no second pass while the steps are not shown
        w_->views()->setCurrentTab(ViewTabs::StepsTab);
        QVERIFY(QTest::qWaitFor([&] { return test::settled(*w_) && snap()->steps; }, 30000));
        auto* combo = find<QComboBox>("stepsHeadCombo");
        QCOMPARE(combo->count(), 4);
        QCOMPARE(combo->itemText(3), QStringLiteral("Head 4 · key/value head 2"));
        combo->setCurrentIndex(3);
        emit combo->activated(3);
        QTest::qWait(1);
        const AttentionResult ref = steps_of(1);
        const HeadSteps& hs = ref.steps->heads[3];
        {
            const StepsModel& sm = w_->views()->steps()->figure()->model();
            QCOMPARE(sm.layer, 1);
            QCOMPARE(sm.head, 3);
            QCOMPARE(sm.kv_head, 1);
            auto values = [&](StageId id) {
                const int k = sm.indexOf(id);
                if (k < 0) qFatal("no stage %d", int(id));
                return sm.stages[std::size_t(k)].values;
            };
            QVERIFY(same(values(StageId::Query), hs.q_unrotated.data));
            QVERIFY(same(values(StageId::QueryRotated), hs.q.data));
            QVERIFY(same(values(StageId::Key), hs.k_unrotated.data));
            QVERIFY(same(values(StageId::KeyRotated), hs.k.data));
            QVERIFY(same(values(StageId::Value), hs.v.data));
            QVERIFY(same(values(StageId::Output), ref.output.data));
            QVERIFY(hs.q.data != hs.q_unrotated.data);  // the rotation did something
            // The weights are the maps the heatmaps draw, and equal an independent full pass.
            const std::vector<float> a = values(StageId::Softmax);
            const Tensor& full = maps.results[1].weights;
            const std::size_t LL = a.size();
            ATTNVIZ_COMPARE_ARRAYS(a.data(), full.ptr() + 3 * LL, LL, kTol);
            // A rotated cell comes from its pair of dimensions of the same row, and from X.
            const int qr = sm.indexOf(StageId::QueryRotated), q0 = sm.indexOf(StageId::Query);
            using K = StageRegion::Kind;
            const std::vector<StageRegion> from = provenance(sm, qr, 2, 1);
            const std::vector<StageRegion> expected{{q0, K::Cell, 2, 1},
                                                    {q0, K::Cell, 2, 1 + sm.head_dim / 2},
                                                    {sm.indexOf(StageId::Input), K::Row, 2, -1}};
            QCOMPARE(from.size(), expected.size());
            QVERIFY(std::is_permutation(from.begin(), from.end(), expected.begin()));
            // Q′ K′ᵀ from the rotated stages, by hand.
            const int L = int(sm.query_tokens.size()), d = sm.head_dim;
            const std::vector<float> q = values(StageId::QueryRotated),
                                     k = values(StageId::KeyRotated);
            const std::vector<float> scores = values(StageId::Scores);
            for (int i = 0; i < L; ++i)
                for (int j = 0; j < L; ++j) {
                    double dot = 0.0;
                    for (int c = 0; c < d; ++c)
                        dot +=
                            double(q[std::size_t(i * d + c)]) * double(k[std::size_t(j * d + c)]);
                    QVERIFY(std::abs(dot - double(scores[std::size_t(i * L + j)])) < 1e-4);
                }
        }
        // Layer 1: the steps, the lines and the statistics follow.
        spin->setValue(1);
        QVERIFY(QTest::qWaitFor(
            [&] { return test::settled(*w_) && snap()->steps && snap()->layer == 0; }, 30000));
        QTest::qWait(1);
        QCOMPARE(w_->views()->steps()->figure()->model().layer, 0);
        const AttentionResult ref0 = steps_of(0);
        QVERIFY(same(w_->views()->steps()->figure()->model().stages[1].values,
                     ref0.steps->heads[3].q_unrotated.data));
        const Tensor& w0 = maps.results[0].weights;
        const int H = int(w0.dim(1)), L = int(w0.dim(2));
        auto weight = [&](int h, int i, int j) {
            return w0.data[((std::size_t(h) * L) + i) * L + j];
        };
        w_->views()->setCurrentTab(ViewTabs::LinesTab);
        QTest::qWait(1);
        const auto& lines = w_->views()->lines()->figure()->lines();
        QVERIFY(!lines.empty());
        for (const HeadLine& l : lines)
            QVERIFY(std::abs(l.weight - weight(l.head, l.query, l.key)) < kTol);
        w_->views()->setCurrentTab(ViewTabs::StatisticsTab);
        QTest::qWait(1);
        const auto& stats = w_->views()->statistics()->model()->statistics();
        QCOMPARE(int(stats.size()), H);
        // Measured on the worker, for this very result.
        const auto measured = w_->compute()->latestStatistics();
        QVERIFY(measured && measured->generation == snap()->generation);
        QCOMPARE(measured->items.at(0).size(), stats.size());
        for (int h = 0; h < H; ++h) {
            double previous = 0.0;
            for (int i = 1; i < L; ++i)
                previous += weight(h, i, i - 1);
            QVERIFY(std::abs(stats[std::size_t(h)].previous - previous / (L - 1)) < 1e-6);
        }
    }

    // Compare with a model: two layers, two heads, two sentences, each against the engine.
    void compareTwoLayersTwoHeadsAndTwoSentences() {
        const QString folder = golden_model("llama_gqa");
        QVERIFY(openModel(folder));
        const QString text = w_->document()->textA();
        const models::CollectingSink maps = engine_run(folder, text);
        w_->views()->setCurrentTab(ViewTabs::CompareTab);
        CompareView* cv = w_->views()->compare();
        QTest::qWait(1);
        cv->editor()->show();
        // The demo layer's settings make way for the model's.
        QVERIFY(cv->layerSpin()->isVisibleTo(cv));
        QVERIFY(!cv->causalCombo()->isVisibleTo(cv));
        QCOMPARE(cv->layerSpin()->maximum(), 2);
        QCOMPARE(cv->otherHeadCombo()->count(), 1 + 4);
        auto head_map = [](const models::CollectingSink& run, int layer, int head) {
            const Tensor& w = run.results[std::size_t(layer)].weights;
            const std::size_t LL = std::size_t(w.dim(2) * w.dim(3));
            return std::vector<float>(w.data.begin() + std::ptrdiff_t(head * LL),
                                      w.data.begin() + std::ptrdiff_t((head + 1) * LL));
        };
        auto settled = [&](auto&& ready) {
            return QTest::qWaitFor(
                [&] { return test::settled(*w_) && !cv->isComputing() && ready(); }, 30000);
        };
        auto model = [&]() -> const CompareModel& {
            cv->figure()->layout(QSize(900, 600));
            return cv->figure()->model();
        };
        auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
            return a.size() == b.size() &&
                   test::compare_arrays(a.data(), b.data(), a.size(), kTol).ok;
        };
        // Layer 1 against layer 2, head 2 of each.
        emit cv->headCombo()->activated(cv->headCombo()->findData(1));
        cv->layerSpin()->setValue(2);
        QCOMPARE(w_->document()->compare().changes.layer, std::optional<int>(1));
        QVERIFY(settled([&] { return cv->compared() && cv->compared()->layer == 1; }));
        QVERIFY(same(model().a, head_map(maps, 0, 1)));
        QVERIFY(same(model().b, head_map(maps, 1, 1)));
        QVERIFY(cv->figure()->titleText().contains(QStringLiteral("layer 2")));
        // Head 2 of layer 1 against head 4 of layer 2.
        cv->otherHeadCombo()->setCurrentIndex(cv->otherHeadCombo()->findData(3));
        emit cv->otherHeadCombo()->activated(cv->otherHeadCombo()->currentIndex());
        QCOMPARE(w_->document()->compare().changes.head, std::optional<int>(3));
        QVERIFY(settled([] { return true; }));
        QVERIFY(same(model().a, head_map(maps, 0, 1)));
        QVERIFY(same(model().b, head_map(maps, 1, 3)));
        QVERIFY(cv->figure()->titleText().contains(QStringLiteral("head 4")));
        // Another sentence with as many tokens, same layer and head: position by position.
        const models::OpenedModel m = models::open_model_folder(folder.toStdString());
        auto count = [&](const QString& t) {
            return models::encode_text(m, t.toStdString()).input.ids.size();
        };
        QString other;
        for (const QString& word : {QStringLiteral("dog"), QStringLiteral("bat"),
                                    QStringLiteral("hat"), QStringLiteral("rat")}) {
            const QString t = QString(text).replace(QStringLiteral("cat"), word);
            if (t != text && count(t) == count(text)) {
                other = t;
                break;
            }
        }
        QVERIFY2(!other.isEmpty(), qPrintable(text));
        cv->layerSpin()->setValue(0);  // same as A
        cv->otherHeadCombo()->setCurrentIndex(0);
        emit cv->otherHeadCombo()->activated(0);
        cv->textEdit()->setText(other);
        emit cv->textEdit()->editingFinished();
        QCOMPARE(w_->document()->compare().changes.text, std::optional<QString>(other));
        QVERIFY(settled([&] { return cv->compared() && cv->compared()->config.text_a == other; }));
        const models::CollectingSink b_maps = engine_run(folder, other);
        QVERIFY(same(model().a, head_map(maps, 0, 1)));
        QVERIFY(same(model().b, head_map(b_maps, 0, 1)));
        // A longer sentence: position by position over the longer one; the positions only B
        // has are blank in A and in the difference.
        const QString longer = text + QStringLiteral(" and more words");
        cv->textEdit()->setText(longer);
        emit cv->textEdit()->editingFinished();
        QVERIFY(settled([&] { return cv->compared() && cv->compared()->config.text_a == longer; }));
        const models::CollectingSink long_maps = engine_run(folder, longer);
        const int La = int(count(text)), Lb = int(count(longer));
        QVERIFY(Lb > La);
        const CompareModel& cm = model();
        QCOMPARE(cm.rows, Lb);
        QCOMPARE(cm.a_rows, La);
        QCOMPARE(cm.b_rows, Lb);
        QVERIFY(!cm.sameLength());
        const std::vector<float> a_head = head_map(maps, 0, 1), b_head = head_map(long_maps, 0, 1);
        for (int i = 0; i < Lb; ++i)
            for (int j = 0; j < Lb; ++j) {
                const std::size_t k = cm.index(i, j);
                const float b_ref = b_head[std::size_t(i * Lb + j)];
                QVERIFY(std::abs(cm.b[k] - b_ref) < kTol);
                if (i < La && j < La) {
                    const float a_ref = a_head[std::size_t(i * La + j)];
                    QVERIFY(std::abs(cm.a[k] - a_ref) < kTol);
                    QVERIFY(std::abs(cm.diff[k] - (b_ref - a_ref)) < 2 * kTol);
                } else {
                    QVERIFY(std::isnan(cm.a[k]));
                    QVERIFY(std::isnan(cm.diff[k]));
                }
            }
        QVERIFY(cv->figure()->summaryText().contains(
            QStringLiteral("A's sentence has %1 tokens and B's %2").arg(La).arg(Lb)));
        QVERIFY(cv->figure()->message().isEmpty());
    }

    // Over the memory budget, the dialog offers the first layers; they are the engine's, and
    // a button brings every layer back once the budget allows it.
    /// Over the budget, a model is offered its first layers, the first heads of every layer,
    /// or the means only; each keeps the engine's numbers, and "show all" brings back the rest.
    void theMemoryBudgetOffersFewerLayersHeadsOrTheMeans() {
        qunsetenv(budget::kBudgetEnvironmentVariable);
        const QString folder = golden_model("llama_gqa");
        QVERIFY(openModel(folder));
        const std::uint64_t all = snap()->model->estimated_bytes;
        const models::HeadAtlas full_atlas = snap()->model->atlas;
        const int H = snap()->model->num_heads;
        QCOMPARE(snap()->model->heads_kept, H);
        const models::CollectingSink maps = engine_run(folder, w_->document()->textA());
        const auto over_budget = [&](std::uint64_t bytes) -> OverBudgetDialog* {
            settings_->setMemoryBudget(QString::number(bytes));
            w_->memoryGuard()->reloadBudget();
            if (!QTest::qWaitFor(
                    [&] {
                        const OverBudgetDialog* d = w_->memoryGuard()->overBudgetDialog();
                        return d && d->isVisible();
                    },
                    30000))
                return nullptr;
            return w_->memoryGuard()->overBudgetDialog();
        };
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        auto* more = find<QPushButton>("allLayersButton");
        const auto show_all = [&] {
            settings_->setMemoryBudget(QString());
            w_->memoryGuard()->reloadBudget();
            more->click();
            return QTest::qWaitFor(
                [&] {
                    const SnapshotPtr s = snap();
                    return test::settled(*w_) && s->model && s->model->num_layers == 2 &&
                           s->model->heads_kept == H;
                },
                30000);
        };

        // Fewer layers.
        OverBudgetDialog* dialog = over_budget(all - 1);
        QVERIFY(dialog);
        QVERIFY(dialog->fewerLayersButton()->isVisible());
        QVERIFY(dialog->meanOnlyButton()->isVisible());
        QVERIFY(dialog->windowButton()->isVisible());
        QCOMPARE(dialog->fewerLayersButton()->text(), QStringLiteral("Keep layer 1 only"));
        dialog->fewerLayersButton()->click();
        QVERIFY(QTest::qWaitFor(
            [&] { return test::settled(*w_) && snap()->model && snap()->model->num_layers == 1; },
            30000));
        QCOMPARE(w_->document()->layersShown(), 1);
        QCOMPARE(snap()->model->total_layers, 2);
        QVERIFY(snap()->model->estimated_bytes < all);
        ATTNVIZ_COMPARE_ARRAYS(snap()->model->weights[0].ptr(), maps.results[0].weights.ptr(),
                               maps.results[0].weights.numel(), kTol);
        QCOMPARE(find<QSpinBox>("layerSpin")->maximum(), 1);
        QVERIFY(more->isVisible());
        QVERIFY(show_all());
        QVERIFY(!more->isVisible());
        QCOMPARE(w_->document()->layersShown(), -1);

        // Fewer heads: every layer, the maps of its first heads, the atlas still whole.
        const std::size_t L = std::size_t(snap()->model->tokens);
        const std::uint64_t two_heads_fit = all - std::uint64_t(H - 2) * L * L * 16;
        dialog = over_budget(two_heads_fit);
        QVERIFY(dialog);
        QVERIFY(dialog->fewerHeadsButton()->isVisible());
        dialog->fewerHeadsButton()->click();
        QVERIFY(QTest::qWaitFor(
            [&] { return test::settled(*w_) && snap()->model && snap()->model->heads_kept < H; },
            30000));
        {
            const ModelMaps& m = *snap()->model;
            const int k = m.heads_kept;
            QVERIFY2(k >= 1, "the offer keeps at least one head");
            QCOMPARE(w_->document()->modelHeadsShown(), k);
            QCOMPARE(m.num_layers, 2);
            QVERIFY(m.estimated_bytes <= two_heads_fit);
            for (int l = 0; l < 2; ++l) {
                const AttentionResult& ref = maps.results[std::size_t(l)];
                QCOMPARE(m.weights[std::size_t(l)].numel(), std::size_t(k) * L * L);
                ATTNVIZ_COMPARE_ARRAYS(m.weights[std::size_t(l)].ptr(), ref.weights.ptr(),
                                       std::size_t(k) * L * L, kTol);
                ATTNVIZ_COMPARE_ARRAYS(m.means[std::size_t(l)].ptr(), ref.mean_weights.ptr(), L * L,
                                       kTol);
                for (int h = 0; h < H; ++h) {
                    QCOMPARE(m.thumbnail(l, h).isNull(), h >= k);
                    QCOMPARE(m.hasMaps(h), h < k);
                    // At this budget the weights stream (products in blocks: not bit for bit).
                    QVERIFY(std::abs(m.atlas.at(l, h).entropy - full_atlas.at(l, h).entropy) <
                            1e-5);
                    QCOMPARE(m.atlas.at(l, h).induction, full_atlas.at(l, h).induction);
                }
            }
            QVERIFY(mosaic()->describe(0, H - 1).contains(QLatin1String("not kept")));
            QVERIFY(more->isVisible());
            QVERIFY(more->text().contains(QStringLiteral("heads 1–%1 of %2").arg(k).arg(H)));
            QCOMPARE(w_->document()->viewableHeads(), k);
            QCOMPARE(snap()->heads, k);
        }
        // A click on a head without maps opens its layer's mean.
        QTest::mouseClick(mosaic(), Qt::LeftButton, {}, mosaic()->cellRect(1, H - 1).center());
        QCOMPARE(w_->document()->figureOptions().view, FigureView::Mean);
        QCOMPARE(w_->document()->computeConfig().layer, 1);
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QVERIFY(show_all());
        QCOMPARE(w_->document()->modelHeadsShown(), -1);

        // The means only.
        dialog = over_budget(all - 1);
        QVERIFY(dialog);
        dialog->meanOnlyButton()->click();
        QVERIFY(QTest::qWaitFor(
            [&] { return test::settled(*w_) && snap()->model && snap()->model->heads_kept == 0; },
            30000));
        {
            const ModelMaps& m = *snap()->model;
            QCOMPARE(m.num_layers, 2);
            for (int l = 0; l < 2; ++l) {
                QCOMPARE(m.weights[std::size_t(l)].numel(), std::size_t(0));
                ATTNVIZ_COMPARE_ARRAYS(m.means[std::size_t(l)].ptr(),
                                       maps.results[std::size_t(l)].mean_weights.ptr(), L * L,
                                       kTol);
                QVERIFY(!m.thumbnail(l, m.meanColumn()).isNull());
                QVERIFY(!m.thumbnail(l, m.rolloutColumn()).isNull());
            }
            QVERIFY(mosaic()->describe(0, 0).contains(QLatin1String("means only")));
            QCOMPARE(snap()->heads, 0);
        }
        QVERIFY(show_all());

        // A window: the rows and columns of the kept maps, cut from the whole pass's (the
        // softmax ran over every piece); the atlas and the rollout still of the whole text.
        dialog = over_budget(all - 1);
        QVERIFY(dialog);
        QVERIFY(dialog->windowButton()->isVisible());
        dialog->windowButton()->click();
        QVERIFY(QTest::qWaitFor(
            [&] { return test::settled(*w_) && snap()->model && snap()->model->windowed(); },
            30000));
        {
            const ModelMaps& m = *snap()->model;
            const auto W = std::int64_t(m.pieces), b = std::int64_t(m.first_piece);
            QCOMPARE(W, std::int64_t(w_->document()->windowLength()));
            QVERIFY(W >= 1 && W < std::int64_t(L));
            QCOMPARE(m.text_pieces, int(L));
            QCOMPARE(m.heads_kept, H);
            QCOMPARE(m.num_layers, 2);
            QVERIFY(m.estimated_bytes <= all - 1);
            std::vector<Tensor> means;
            for (const AttentionResult& r : maps.results)
                means.push_back(Tensor({std::int64_t(L), std::int64_t(L)}, r.mean_weights.data));
            const std::vector<Tensor> rollout = models::attention_rollout(means);
            for (int l = 0; l < 2; ++l) {
                const auto k = std::size_t(l);
                const Tensor full({H, std::int64_t(L), std::int64_t(L)},
                                  maps.results[k].weights.data);
                ATTNVIZ_COMPARE_TENSORS(m.weights[k], models::crop_maps(full, b, W), kTol);
                ATTNVIZ_COMPARE_TENSORS(m.means[k], models::crop_maps(means[k], b, W), kTol);
                ATTNVIZ_COMPARE_TENSORS(m.rollout[k], models::crop_maps(rollout[k], b, W), 1e-5);
                for (int h = 0; h < H; ++h)  // the weights may stream here too
                    QVERIFY(std::abs(m.atlas.at(l, h).entropy - full_atlas.at(l, h).entropy) <
                            1e-5);
            }
            // The views count tokens in the whole text, and the steps say why they are absent.
            QCOMPARE(snap()->query_offset, int(b));
            QCOMPARE(snap()->query_total, int(L));
            QCOMPARE(snap()->target_len, int(W));
            ModelFigure figure;
            figure.setSnapshot(snap());
            QVERIFY(figure.captionText().contains(
                QStringLiteral("pieces %1–%2 of %3").arg(b + 1).arg(b + W).arg(L)));
            QString why;
            build_steps_model(*snap(), 0, 0, &why);
            QVERIFY2(why.contains(QLatin1String("window")), qPrintable(why));
        }
        // Words inside the window: grouped from the window's pieces, counted in the text's words.
        w_->document()->setWords(true);
        QVERIFY(QTest::qWaitFor(
            [&] { return test::settled(*w_) && snap()->model && snap()->model->words; }, 30000));
        QVERIFY(snap()->model->windowed());
        QVERIFY(snap()->model->tokens <= snap()->model->pieces);
        QVERIFY(snap()->model->text_tokens < int(L));
        QVERIFY(snap()->model->first_token <= snap()->model->first_piece);
        w_->document()->setWords(false);
        // The scope bar walks a model's window; its heads list, the demo layer's, is hidden.
        QVERIFY(find<QCheckBox>("windowCheck")->isChecked());
        QVERIFY(find<QSlider>("windowSlider")->isVisible());
        QVERIFY(!find<QComboBox>("headsShownCombo")->isVisible());
        // Its Show All brings every token back.
        auto* everything = find<QPushButton>("showEverythingButton");
        QVERIFY(everything->isVisible());
        settings_->setMemoryBudget(QString());
        w_->memoryGuard()->reloadBudget();
        everything->click();
        QVERIFY(QTest::qWaitFor(
            [&] {
                return test::settled(*w_) && snap()->model && !snap()->model->windowed() &&
                       snap()->model->tokens == int(L);
            },
            30000));
        QCOMPARE(w_->document()->windowLength(), 0);
    }

    // A text longer than the model's positions is refused with one message, and the window
    // offers its first tokens; taking the offer leaves the start of the text, which fits.
    void aWindowShowsTheWholeTextPooledInTheModelTab() {
        const QString folder = shipped_model(QStringLiteral("attn-only-2l"));
        if (folder.isEmpty()) QSKIP("the shipped models are not built");
        QVERIFY(openModel(folder));
        // 150 characters: longer than the squares (64), so each square holds 3 tokens.
        QString text;
        while (text.size() < 149)
            text += QStringLiteral("The cat sat on the mat; zK8&pW3!rT6~bN1^ ");
        text.truncate(149);
        w_->document()->setTextA(text);
        SETTLE(*w_);
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QVERIFY(!snap()->model->pooled);  // every map kept: the maps themselves
        auto* combo = find<QComboBox>("modelThumbnailsCombo");
        QVERIFY(!combo->isVisible());
        const models::CollectingSink ref = engine_run(folder, text);
        const int L = snap()->model->text_pieces, H = snap()->model->num_heads;
        QCOMPARE(L, 150);  // <|bos|> and the characters

        // A window of 40 tokens: the mosaic draws every layer and head of the whole text.
        w_->document()->setWindow(30, 40);
        SETTLE(*w_);
        const std::shared_ptr<const ModelMaps> m = snap()->model;
        QVERIFY(m->windowed());
        QVERIFY(m->pooled);
        const PooledModel& p = *m->pooled;
        QCOMPARE(p.pooling.cell, 3);
        QCOMPARE(p.pooling.cells, 50);
        QCOMPARE(p.layers, 2);
        QCOMPARE(mosaic()->shown(), ModelThumbnails::WholeMax);
        QVERIFY(combo->isVisible());
        const std::vector<Tensor> through =
            models::attention_rollout({ref.results[0].mean_weights, ref.results[1].mean_weights});
        for (int l = 0; l < 2; ++l) {
            const AttentionResult& r = ref.results[std::size_t(l)];
            for (const bool max : {true, false}) {
                const ModelThumbnails which =
                    max ? ModelThumbnails::WholeMax : ModelThumbnails::WholeMean;
                std::vector<double> mean_of_heads(std::size_t(50 * 50), 0.0);
                for (int h = 0; h < H; ++h) {
                    const std::vector<double> expected = test::pooled_reference(
                        r.weights.ptr() + std::size_t(h) * L * L, L, 3, true, max);
                    const QString bad =
                        test::squares_differ(p.squares(which, l, h), expected, 1e-6);
                    QVERIFY2(bad.isEmpty(), qPrintable(QStringLiteral("layer %1 head %2 %3: %4")
                                                           .arg(l)
                                                           .arg(h)
                                                           .arg(max ? "max" : "mean", bad)));
                    for (std::size_t k = 0; k < expected.size(); ++k)
                        mean_of_heads[k] += expected[k] / H;
                }
                QString bad = test::squares_differ(p.squares(which, l, H), mean_of_heads, 1e-6);
                QVERIFY2(bad.isEmpty(), qPrintable(bad));
                // The rollout over every piece, as the window's pass runs it along.
                bad = test::squares_differ(
                    p.squares(which, l, H + 1),
                    test::pooled_reference(through[std::size_t(l)].ptr(), L, 3, true, max), 1e-5);
                QVERIFY2(bad.isEmpty(), qPrintable(bad));
            }
        }
        // The view draws those squares: the strongest square of layer 2's head 5 in the
        // colour map's top colour, where it falls in the head's cell.
        const float* squares = p.squares(ModelThumbnails::WholeMax, 1, 4);
        const int top = int(std::max_element(squares, squares + 2500) - squares);
        const QImage& image = m->mosaicImage(1, 4, ModelThumbnails::WholeMax);
        QCOMPARE(image.size(), QSize(50, 50));
        const QRgb top_colour = make_gradient(Colormap::Viridis).color(1.0, QCPRange(0.0, 1.0));
        QCOMPARE(image.pixel(top % 50, top / 50), top_colour);
        const QRect cell = mosaic()->cellRect(1, 4);
        QVERIFY(!cell.isEmpty());
        const QImage drawn = mosaic()->grab().toImage();
        const QPoint at(cell.x() + int((top % 50 + 0.5) * cell.width() / 50.0),
                        cell.y() + int((top / 50 + 0.5) * cell.height() / 50.0));
        // (The kept window's dashed square runs along pieces 31 and 70: 10 and 23.3 squares.)
        for (const double edge : {30.0 / 3, 70.0 / 3}) {
            QVERIFY(std::abs(cell.x() + edge * cell.width() / 50.0 - at.x()) > 2);
            QVERIFY(std::abs(cell.y() + edge * cell.height() / 50.0 - at.y()) > 2);
        }
        QCOMPARE(drawn.pixel(at), top_colour);
        // The dashed square itself: its lower edge (query 70, keys 31–70) light across the
        // head's dark squares, for the dashes' part of its length.
        const double a = cell.x() + 10.0 * cell.width() / 50.0,
                     b = cell.x() + 70.0 / 3 * cell.width() / 50.0;
        const int edge_y = cell.y() + int(std::lround(70.0 / 3 * cell.height() / 50.0));
        int light = 0, along = 0;
        for (int x = int(a) + 1; x < int(b); ++x, ++along)
            for (int y = edge_y - 1; y <= edge_y + 1; ++y)
                if (qGray(drawn.pixel(x, y)) > 150) {
                    ++light;
                    break;
                }
        QVERIFY2(light * 2 > along, qPrintable(QStringLiteral("%1 of %2").arg(light).arg(along)));
        QVERIFY(mosaic()->describe(1, 4).contains(QLatin1String("whole text")));
        // An export draws what the tab shows, and says so.
        ModelFigure figure;
        figure.setSnapshot(snap());
        figure.setOptions(w_->document()->figureOptions());
        figure.layout(QSize(1200, 700));
        QVERIFY2(figure.captionText().contains(QStringLiteral(
                     "Whole text (150 tokens), pooled to 50 × 50 squares of 3 tokens")),
                 qPrintable(figure.captionText()));

        // Back to the kept window's maps: the switch, the view, the export and the session.
        emit combo->activated(int(ModelThumbnails::Kept));
        SETTLE(*w_);
        QCOMPARE(w_->document()->modelThumbnails(), ModelThumbnails::Kept);
        QCOMPARE(mosaic()->shown(), ModelThumbnails::Kept);
        QCOMPARE(mosaic()->cellRect(1, 4).isEmpty(), false);
        const QImage kept = mosaic()->grab().toImage();
        QVERIFY(kept != drawn);
        QCOMPARE(m->thumbnail(1, 4).size(), QSize(40, 40));
        figure.setOptions(w_->document()->figureOptions());
        figure.layout(QSize(1200, 700));
        QVERIFY(!figure.captionText().contains(QLatin1String("Whole text")));
        QCOMPARE(w_->document()
                     ->toJson()
                     .value(QStringLiteral("figure"))
                     .toObject()
                     .value(QStringLiteral("model_thumbnails"))
                     .toString(),
                 QStringLiteral("kept"));
        emit combo->activated(int(ModelThumbnails::WholeMax));
        SETTLE(*w_);
        QCOMPARE(mosaic()->shown(), ModelThumbnails::WholeMax);

        // The first layer kept, no window: the mosaic still has both layers, from the pass.
        w_->document()->setWindow(0, 0);
        w_->document()->setModelScope(1, -1);
        SETTLE(*w_);
        const std::shared_ptr<const ModelMaps> one = snap()->model;
        QCOMPARE(one->num_layers, 1);
        QVERIFY(one->pooled);
        QCOMPARE(one->pooled->layers, 2);
        QCOMPARE(one->atlas.layers(), std::int64_t(2));
        QVERIFY(!mosaic()->cellRect(1, 7).isEmpty());
        const QString bad = test::squares_differ(
            one->pooled->squares(ModelThumbnails::WholeMax, 1, 7),
            test::pooled_reference(ref.results[1].weights.ptr() + std::size_t(7) * L * L, L, 3,
                                   true, true),
            1e-6);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        // Its rollout was not kept over the whole text: hatched.
        QVERIFY(one->mosaicImage(1, H + 1, ModelThumbnails::WholeMax).isNull());
        // A head of the layer not kept opens its full map, from the context menu or a click.
        const QPoint head = mosaic()->cellRect(1, 7).center();
        QContextMenuEvent event(QContextMenuEvent::Mouse, head, mosaic()->mapToGlobal(head));
        QApplication::sendEvent(mosaic(), &event);
        QMenu* menu = w_->knockOutMenu()->lastMenu();
        QVERIFY(menu);
        QCOMPARE(menu->actions().front()->text(), QStringLiteral("Layer 2 · head 8"));
        QAction* open = menu->findChild<QAction*>(QStringLiteral("openFullMapAction"));
        QVERIFY(open);
        open->trigger();
        menu->close();
        QTRY_COMPARE_WITH_TIMEOUT(w_->fullMapWindows().size(), 1, 30000);
        QCOMPARE(w_->fullMapWindows().back()->layer(), 1);
        QCOMPARE(w_->fullMapWindows().back()->head(), 7);
        QTest::mouseClick(mosaic(), Qt::LeftButton, {}, mosaic()->cellRect(1, 2).center());
        QTRY_COMPARE_WITH_TIMEOUT(w_->fullMapWindows().size(), 2, 30000);
        QCOMPARE(w_->fullMapWindows().back()->layer(), 1);
        QCOMPARE(w_->fullMapWindows().back()->head(), 2);
        QCOMPARE(w_->views()->currentTab(), int(ViewTabs::ModelTab));  // not the grid
        // The Atlas's layer 2 (measured, not kept) opens the head's map likewise.
        emit w_->views()->atlasView()->activated(1, 5);
        QTRY_COMPARE_WITH_TIMEOUT(w_->fullMapWindows().size(), 3, 30000);
        QCOMPARE(w_->fullMapWindows().back()->head(), 5);
        QCOMPARE(w_->document()->computeConfig().layer, 0);
        w_->document()->setModelScope(-1, -1);
        SETTLE(*w_);
        QVERIFY(!snap()->model->pooled);

        // The command line draws the same: the whole text pooled unless --thumbnails kept.
        const QString out = test::temp_path(QStringLiteral("whole.svg"));
        for (const char* thumbnails : {"max", "mean", "kept"}) {
            const test::ProcessRun r =
                test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"), folder,
                                   QStringLiteral("--text"), text, QStringLiteral("--window"),
                                   QStringLiteral("32:40"), QStringLiteral("--view"),
                                   QStringLiteral("model"), QStringLiteral("--thumbnails"),
                                   QLatin1String(thumbnails), QStringLiteral("--out"), out});
            QVERIFY2(r.status == 0, r.err.constData());
            QFile svg(out);
            QVERIFY(svg.open(QIODevice::ReadOnly));
            const QString body = QString::fromUtf8(svg.readAll());
            const QString note = QString::fromUtf8(
                thumbnails == std::string("max") ? "pooled to 50 × 50 squares of 3 tokens: the "
                                                   "largest weight in each"
                : thumbnails == std::string("mean")
                    ? "pooled to 50 × 50 squares of 3 tokens: the mean weight"
                    : "pieces 32–71 of 150");
            QVERIFY2(body.contains(note), thumbnails);
        }
        const test::ProcessRun grid =
            test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"), folder,
                               QStringLiteral("--text"), text, QStringLiteral("--thumbnails"),
                               QStringLiteral("kept"), QStringLiteral("--out"), out});
        QCOMPARE(grid.status, 2);
        QVERIFY2(grid.err.contains("--thumbnails needs --view model"), grid.err.constData());
    }

    void aTooLongTextOffersItsFirstTokens() {
        QVERIFY(openModel(golden_model("bert_mlm_prefix")));  // 64 positions
        const QString long_text = QStringLiteral("the cat sat on the mat ").repeated(20);
        w_->document()->setTextA(long_text);
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QMessageBox* box = w_->memoryGuard()->tooLongBox();
                return box && box->isVisible();
            },
            30000));
        QMessageBox* box = w_->memoryGuard()->tooLongBox();
        QVERIFY2(box->text().contains(QStringLiteral("more than the 64 positions")),
                 qPrintable(box->text()));
        QVERIFY2(w_->compute()->lastError().contains(QStringLiteral("positions")),
                 qPrintable(w_->compute()->lastError()));
        auto* keep = box->findChild<QPushButton*>(QStringLiteral("keepFirstTokensButton"));
        QVERIFY(keep);
        QCOMPARE(keep->text(), QStringLiteral("Keep the First 64 Tokens"));
        keep->click();
        QVERIFY(QTest::qWaitFor(
            [&] {
                const SnapshotPtr s = snap();
                // [CLS] + 62 words + [SEP]: exactly the positions, every word whole.
                return test::settled(*w_) && s && s->model && s->model->text_pieces == 64;
            },
            30000));
        const QString kept = w_->document()->textA();
        QVERIFY(long_text.startsWith(kept));
        QVERIFY(kept.size() < long_text.size());
        QVERIFY2(kept.endsWith(QStringLiteral("the")) || kept.endsWith(QStringLiteral("cat")) ||
                     kept.endsWith(QStringLiteral("sat")) || kept.endsWith(QStringLiteral("on")) ||
                     kept.endsWith(QStringLiteral("mat")),
                 qPrintable(kept.right(12)));
        QVERIFY(!w_->memoryGuard()->tooLongBox() || !w_->memoryGuard()->tooLongBox()->isVisible());
    }

    void theExamplesOpenTheShippedModelsOnLearnedHeads() {
        QVERIFY2(!shipped_models_dir().isEmpty(), "no share/attnviz/models beside the test");
        QCOMPARE(shipped_model_folders().size(), qsizetype(3));
        struct Expect {
            const char* id;
            const char* model;
            const char* measure;  // of the head the example shows
            double at_least;
        };
        const Expect examples[] = {{"induction_head", "attn-only-2l", "induction", 0.5},
                                   {"induction_head_zh", "attn-only-zh-en-2l", "induction", 0.5},
                                   {"previous_token", "attn-only-2l", "previous", 0.4},
                                   {"attention_sink", "char-zh-en-4l", "first", 0.5},
                                   {"chinese_poetry", "char-zh-en-4l", nullptr, 0},
                                   {"learned_heads", "attn-only-2l", nullptr, 0}};
        auto* source = find<QComboBox>("sourceCombo");
        for (const Expect& e : examples) {
            QVERIFY2(w_->loadExample(QLatin1String(e.id)), e.id);
            // The result of this example: its model on its text, not the previous example's.
            QVERIFY(QTest::qWaitFor(
                [&] {
                    const ComputeConfig& now = w_->document()->computeConfig();
                    const SnapshotPtr s = snap();
                    return test::settled(*w_) && s && s->model &&
                           s->model->folder == now.model_folder && s->config.text_a == now.text_a;
                },
                60000));
            const ComputeConfig& c = w_->document()->computeConfig();
            QCOMPARE(c.model_folder, shipped_model(QLatin1String(e.model)));
            QVERIFY(is_shipped_model(c.model_folder));
            // The source box names it, and the demo layer is one click away.
            QCOMPARE(source->currentData().toString(), c.model_folder);
            QCOMPARE(source->itemData(0).toString(), QString());
            QVERIFY(w_->views()->explanationVisible());
            QVERIFY(!w_->views()->explanationLabel()->text().isEmpty());
            if (!e.measure) continue;
            // The head shown is what the example says it is, on the window's own maps.
            const ModelMaps& maps = *snap()->model;
            const int layer = c.layer, head = w_->document()->viewHead();
            const models::HeadMeasures& m = maps.atlas.at(layer, head);
            const double value =
                QLatin1String(e.measure) == QLatin1String("induction")  ? m.induction
                : QLatin1String(e.measure) == QLatin1String("previous") ? m.previous
                                                                        : m.first;
            QVERIFY2(value >= e.at_least,
                     (std::string(e.id) + ": " + e.measure + " " + std::to_string(value)).c_str());
        }
        // One click back to the demo layer.
        source->setCurrentIndex(0);
        emit source->activated(0);
        SETTLE(*w_);
        QVERIFY(!w_->document()->computeConfig().usesModel());
        QVERIFY(!snap()->model);
    }

    // The knock-out and logit-lens examples (issue 23) open their tab with their state: the
    // induction heads out, and the second copy's guesses gone from the strip; the lens whose
    // last row is the model's own output.  The counts were measured with attnviz export
    // --view predictions --ablate and are what the examples' explanations say.
    void theKnockOutAndLensExamplesShowWhatTheySay() {
        QVERIFY2(!shipped_models_dir().isEmpty(), "no share/attnviz/models beside the test");
        struct Expect {
            const char* id;
            const char* model;
            ViewTabs::Tab tab;
            int intact_right, knocked_right;  // in the second copy, of `copy` guesses
            int copy;
        };
        const Expect examples[] = {
            {"knock_out", "attn-only-2l", ViewTabs::GridTab, 29, 0, 29},
            {"knock_out_zh", "attn-only-zh-en-2l", ViewTabs::GridTab, 29, 0, 29},
            {"logit_lens", "attn-only-2l", ViewTabs::LensTab, 0, 0, 0},
            {"logit_lens_zh", "char-zh-en-4l", ViewTabs::LensTab, 0, 0, 0}};
        for (const Expect& e : examples) {
            QVERIFY2(w_->loadExample(QLatin1String(e.id)), e.id);
            const bool lens = e.tab == ViewTabs::LensTab;
            QVERIFY(QTest::qWaitFor(
                [&] {
                    const ComputeConfig& now = w_->document()->computeConfig();
                    const SnapshotPtr s = snap();
                    return test::settled(*w_) && s && s->model &&
                           s->model->folder == now.model_folder && s->config.text_a == now.text_a &&
                           (!lens || s->lens);
                },
                60000));
            QCOMPARE(w_->views()->currentTab(), e.tab);
            const ComputeConfig& c = w_->document()->computeConfig();
            QCOMPARE(c.model_folder, shipped_model(QLatin1String(e.model)));
            const ModelMaps& maps = *snap()->model;
            QVERIFY2(maps.predictions, qPrintable(maps.no_predictions));
            if (lens) {
                QVERIFY(c.knocked_out.empty());
                const LensGrid& g = *snap()->lens;
                QVERIFY2(g.available(), qPrintable(g.unavailable));
                QCOMPARE(g.positions, int(maps.encoding.ids.size()));  // every token shown
                // The last row is the model's output: its top token at every position.
                const ModelPredictions& p = *maps.predictions;
                for (int k = 0; k < g.positions; ++k)
                    QCOMPARE(g.top_ids[g.at(g.num_layers - 1, k)],
                             p.top[std::size_t(g.first_position + k)].front().id);
                continue;
            }
            // Layer 2's induction heads 4, 5 and 8, zeroed.
            const std::map<ModelHead, KnockOut> heads = {
                {{1, 3}, KnockOut::Zero}, {{1, 4}, KnockOut::Zero}, {{1, 7}, KnockOut::Zero}};
            QVERIFY(c.knocked_out == heads);
            QVERIFY(maps.knocked_out == heads);
            QVERIFY(maps.intact_predictions);
            const auto [begin, end] = second_copy(maps);
            QVERIFY2(begin > 0, e.id);
            QCOMPARE(end - begin - 1, e.copy);
            auto* strip = w_->findChild<PredictionStrip*>(QStringLiteral("predictionStrip"));
            QVERIFY(strip && strip->isVisible());
            const std::vector<TokenGuess> intact = token_guesses(maps, *maps.intact_predictions);
            QCOMPARE(correct_guesses(intact, begin + 1, end), e.intact_right);
            QCOMPARE(strip->correctGuesses(begin + 1, end), e.knocked_right);
            // The loss on the second copy jumps by more than 3.5 nats per token.
            const double before = mean_loss(*maps.intact_predictions, begin + 1, end),
                         after = mean_loss(*maps.predictions, begin + 1, end);
            QVERIFY2(before < 1.0 && after - before > 3.5,
                     qPrintable(QStringLiteral("%1: %2 -> %3").arg(e.id).arg(before).arg(after)));
            QVERIFY2(
                strip->summary().contains(
                    QStringLiteral("%1 of %2 in the second copy").arg(e.knocked_right).arg(e.copy)),
                qPrintable(strip->summary()));
        }
    }

    /// Issue 35: File ▸ Open Model… opens a GGUF file, or a folder picked by its config.json;
    /// Open Session… on a .gguf opens the model instead of calling it a broken session.
    void openModelTakesAGgufFileOrAFoldersConfig() {
        const QString gguf =
            QFileInfo(QString::fromStdString(test::data_dir() + "/gguf/models/llama_gqa.gguf"))
                .absoluteFilePath();
        const QString folder = QFileInfo(golden_model("llama_gqa")).absoluteFilePath();
        // Answers the file dialog `start` opens by picking `pick` in its folder (again while
        // the dialog has not yet read that folder); any other dialog is closed and fails the
        // open instead of waiting.
        const auto open_through = [&](const std::function<void()>& start, const QString& pick) {
            QSignalSpy done(w_->modelSource(), &ModelSource::loadFinished);
            int picks = 0;
            bool other = false;
            QTimer answer;
            answer.setInterval(20);
            connect(&answer, &QTimer::timeout, this, [&] {
                QWidget* modal = QApplication::activeModalWidget();
                if (!modal || !modal->isVisible()) return;
                auto* dialog = qobject_cast<QFileDialog*>(modal);
                if (!dialog || ++picks > 100) {
                    other = true;
                    modal->close();
                    return;
                }
                dialog->setDirectory(QFileInfo(pick).absolutePath());
                // The name typed into the dialog's own field, as a user does (selectFile leaves
                // a field that has the focus as it is).
                auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
                if (!name) return;
                name->setText(QFileInfo(pick).fileName());
                if (dialog->selectedFiles() != QStringList{pick}) return;  // not read yet
                // Open, as the button does once its checks pass (QFileDialog's are protected).
                static_cast<QDialog*>(dialog)->done(QDialog::Accepted);
            });
            answer.start();
            start();
            answer.stop();
            if (picks == 0 || other) return false;
            if (done.isEmpty() && !done.wait(30000)) return false;
            if (!done.front().front().toBool()) return false;
            return QTest::qWaitFor([&] { return test::settled(*w_) && snap()->model; }, 60000);
        };
        const auto open_model = [&] { find<QAction>("openModelAction")->trigger(); };
        const auto model_path = [&] {
            return QFileInfo(w_->document()->computeConfig().model_folder).absoluteFilePath();
        };

        QVERIFY(open_through(open_model, gguf));
        QCOMPARE(model_path(), gguf);
        QCOMPARE(snap()->model->num_kv_heads, 2);
        QVERIFY(!w_->errorDialog() || !w_->errorDialog()->isVisible());

        QVERIFY(open_through(open_model, folder + QStringLiteral("/config.json")));
        QCOMPARE(model_path(), folder);

        QVERIFY(test::activate(*w_));
        QVERIFY(
            open_through([&] { QTest::keyClick(w_.get(), Qt::Key_O, Qt::ControlModifier); }, gguf));
        QCOMPARE(model_path(), gguf);
        QVERIFY(!w_->errorDialog() || !w_->errorDialog()->isVisible());
    }

    void aFolderThatFailsChangesNothing() {
        QVERIFY(openModel(golden_model("llama_gqa")));
        const QJsonObject before = w_->document()->toJson();
        const QString bad = test::temp_path(QStringLiteral("not-a-model"));
        QVERIFY(QDir().mkpath(bad));
        QFile f(bad + QStringLiteral("/config.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"model_type\": \"llama\", \"hidden_size\": ");  // cut short
        f.close();
        QSignalSpy done(w_->modelSource(), &ModelSource::loadFinished);
        w_->openModel(bad);
        QVERIFY(done.wait(30000));
        QCOMPARE(done.front().front().toBool(), false);
        QVERIFY(w_->errorDialog() && w_->errorDialog()->isVisible());
        QVERIFY2(w_->lastError().contains(QLatin1String("config.json")),
                 qPrintable(w_->lastError()));
        w_->errorDialog()->close();
        QCOMPARE(w_->document()->toJson(), before);
        SETTLE(*w_);
        QVERIFY(snap()->model);
    }

    // File ▸ Models on This Computer lists ollama's models by name:tag and LM Studio's GGUF
    // files; picking one opens the manifest's GGUF blob, the same model as the file.
    void theLocalRunnersModelsAreOneClickAway() {
        const QString home = test::temp_path(QStringLiteral("home"));
        QDir(home).removeRecursively();
        const QString models = home + QStringLiteral("/.ollama/models");
        const QString hex(64, QLatin1Char('b'));
        const QString gguf =
            QString::fromStdString(test::data_dir() + "/gguf/models/llama_gqa.gguf");
        QVERIFY(QDir().mkpath(models + QStringLiteral("/blobs")));
        QVERIFY(QFile::copy(gguf, models + QStringLiteral("/blobs/sha256-") + hex));
        const QString manifest =
            models + QStringLiteral("/manifests/registry.ollama.ai/library/tiny/latest");
        QVERIFY(QDir().mkpath(QFileInfo(manifest).path()));
        QFile m(manifest);
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write(QStringLiteral(R"({"schemaVersion":2,"layers":[{"mediaType":)"
                               R"("application/vnd.ollama.image.model","digest":"sha256:%1",)"
                               R"("size":%2}]})")
                    .arg(hex)
                    .arg(QFileInfo(gguf).size())
                    .toUtf8());
        m.close();
        const QByteArray old_home = qgetenv("HOME");
        const QByteArray old_ollama = qgetenv("OLLAMA_MODELS");
        qputenv("HOME", home.toUtf8());
        qunsetenv("OLLAMA_MODELS");
        QMenu* menu = w_->modelSource()->localMenu();
        emit menu->aboutToShow();
        qputenv("HOME", old_home);
        if (!old_ollama.isEmpty()) qputenv("OLLAMA_MODELS", old_ollama);
        QCOMPARE(menu->actions().size(), 1);
        QAction* tiny = menu->actions().front();
        QCOMPARE(tiny->text(), QStringLiteral("ollama · tiny:latest"));
        QSignalSpy done(w_->modelSource(), &ModelSource::loadFinished);
        tiny->trigger();
        QVERIFY(done.wait(30000));
        QVERIFY(done.front().front().toBool());
        QVERIFY(QTest::qWaitFor([&] { return test::settled(*w_) && snap()->model; }, 60000));
        QCOMPARE(QFileInfo(w_->document()->computeConfig().model_folder).absoluteFilePath(),
                 QFileInfo(manifest).absoluteFilePath());
        QCOMPARE(snap()->model->num_layers, 2);
        QCOMPARE(snap()->model->num_kv_heads, 2);

        // Nothing found: one disabled line says where it looked.
        qputenv("HOME", test::temp_path(QStringLiteral("empty-home")).toUtf8());
        emit menu->aboutToShow();
        qputenv("HOME", old_home);
        QCOMPARE(menu->actions().size(), 1);
        QVERIFY(!menu->actions().front()->isEnabled());
    }

    void aCancelledLoadKeepsTheOldModel() {
        QVERIFY(openModel(golden_model("llama_gqa")));
        // A folder this process has not opened: one it holds opens at once, with no loader
        // to cancel.
        static int copies = 0;
        const QString folder = QString::fromStdString(
            test::fresh_dir("cancelled_roberta_" + std::to_string(++copies)));
        QVERIFY(copy_folder(golden_model("roberta"), folder));
        QVERIFY(!find_model(folder));
        QSignalSpy done(w_->modelSource(), &ModelSource::loadFinished);
        QSignalSpy failed(w_->modelSource(), &ModelSource::failed);
        w_->openModel(folder);
        // The loader hands its result over through the event loop, which has not run since.
        QVERIFY(w_->modelSource()->isLoading());
        QVERIFY(done.isEmpty());
        w_->modelSource()->cancel();
        QVERIFY(!w_->modelSource()->isLoading());
        QCOMPARE(done.size(), 1);
        QCOMPARE(done.front().front().toBool(), false);
        // The loader goes on opening the folder.  Once only the store and this test hold the
        // model, the loader has returned and its result has been delivered: and dropped.
        ModelPtr late;
        QTRY_VERIFY_WITH_TIMEOUT((late = find_model(folder)) && late.use_count() == 2, 30000);
        QCOMPARE(done.size(), 1);
        QVERIFY(failed.isEmpty());
        QCOMPARE(QFileInfo(w_->document()->computeConfig().model_folder).fileName(),
                 QStringLiteral("llama_gqa"));
        SETTLE(*w_);
        QVERIFY(snap()->model);
        QCOMPARE(snap()->config.model_folder, w_->document()->computeConfig().model_folder);
        QVERIFY(!w_->modelSource()->isLoading());
    }

    void exportsFromTheCommandLine() {
        const QString m = golden_model("llama_gqa");
        const QString text = QStringLiteral("The cat sat on the mat. The cat sat on the mat.");
        // The mosaic as a PNG, of the size asked.
        const QString png = test::temp_path(QStringLiteral("mosaic.png"));
        test::ProcessRun r = test::run_attnviz(
            {QStringLiteral("export"), QStringLiteral("--model"), m, QStringLiteral("--text"), text,
             QStringLiteral("--view"), QStringLiteral("model"), QStringLiteral("--width"),
             QStringLiteral("800"), QStringLiteral("--height"), QStringLiteral("500"),
             QStringLiteral("--scale"), QStringLiteral("1"), QStringLiteral("--out"), png});
        QVERIFY2(r.status == 0, r.err.constData());
        // Two layers fill only the top of 800 × 500: the canvas is cut to the content, with
        // no blank band at the bottom (the legend's last line ends within 24 px of it).
        const QImage mosaic = QImage(png).convertToFormat(QImage::Format_RGB32);
        QCOMPARE(mosaic.width(), 800);
        QVERIFY2(mosaic.height() < 450, qPrintable(QString::number(mosaic.height())));
        int last_ink = -1;
        for (int y = 0; y < mosaic.height(); ++y)
            for (int x = 0; x < mosaic.width() && last_ink < y; ++x)
                if (qGray(mosaic.pixel(x, y)) < 200) last_ink = y;
        QVERIFY2(
            mosaic.height() - last_ink <= 24,
            qPrintable(QStringLiteral("ink ends at %1 of %2").arg(last_ink).arg(mosaic.height())));
        // A window of the text: one layer's grid over pieces 3-7, titled with where they lie.
        const QString part = test::temp_path(QStringLiteral("window.svg"));
        r = test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"), m,
                               QStringLiteral("--text"), text, QStringLiteral("--view"),
                               QStringLiteral("grid"), QStringLiteral("--window"),
                               QStringLiteral("3:5"), QStringLiteral("--out"), part});
        QVERIFY2(r.status == 0, r.err.constData());
        {
            QFile svg(part);
            QVERIFY(svg.open(QIODevice::ReadOnly));
            const QString body = QString::fromUtf8(svg.readAll());
            QVERIFY2(body.contains(QStringLiteral("tokens 3–7 of")), qPrintable(body.left(400)));
        }
        // The atlas as CSV: the engine's numbers for this text, heads counted from 1.
        const QString csv = test::temp_path(QStringLiteral("atlas.csv"));
        r = test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"), m,
                               QStringLiteral("--text"), text, QStringLiteral("--view"),
                               QStringLiteral("atlas"), QStringLiteral("--out"), csv});
        QVERIFY2(r.status == 0, r.err.constData());
        const models::CollectingSink ref = engine_run(m, text);
        std::vector<Tensor> maps;
        for (const auto& res : ref.results)
            maps.push_back(res.weights);
        const models::HeadAtlas atlas = models::measure_heads(maps, true);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 2 * 4);
        const QList<QByteArray> row = lines[1 + 1 * 4 + 2].split(',');  // layer 2, head 3
        QCOMPARE(row[0].toInt(), 2);
        QCOMPARE(row[1].toInt(), 3);
        QVERIFY(std::abs(row[7].toDouble() - atlas.at(1, 2).previous) < 1e-5);
        // Keeping the means only (the budget's offer) still measures every head; keeping two
        // heads still draws the whole mosaic.
        const QString csv_means = test::temp_path(QStringLiteral("atlas_means.csv"));
        r = test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"), m,
                               QStringLiteral("--text"), text, QStringLiteral("--view"),
                               QStringLiteral("atlas"), QStringLiteral("--mean-only"),
                               QStringLiteral("--out"), csv_means});
        QVERIFY2(r.status == 0, r.err.constData());
        QFile means_file(csv_means);
        QVERIFY(means_file.open(QIODevice::ReadOnly));
        QCOMPARE(means_file.readAll().trimmed().split('\n'), lines);
        const QString two = test::temp_path(QStringLiteral("two_heads.png"));
        r = test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"), m,
                               QStringLiteral("--text"), text, QStringLiteral("--view"),
                               QStringLiteral("model"), QStringLiteral("--heads-shown"),
                               QStringLiteral("2"), QStringLiteral("--out"), two});
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY(!QImage(two).isNull());
        // A layer it does not have, --view atlas without .csv, --tokens with --model: usage
        // errors (2) with one line; a folder that is no model: 1.  Nothing written.
        const QString none = test::temp_path(QStringLiteral("none.png"));
        for (const QStringList& bad :
             {QStringList{QStringLiteral("--model"), m, QStringLiteral("--layer"),
                          QStringLiteral("3")},
              QStringList{QStringLiteral("--model"), m, QStringLiteral("--view"),
                          QStringLiteral("atlas")},
              QStringList{QStringLiteral("--layer"), QStringLiteral("1")},
              QStringList{QStringLiteral("--view"), QStringLiteral("model")},
              QStringList{QStringLiteral("--words")},
              QStringList{QStringLiteral("--model"), m, QStringLiteral("--focus-token"),
                          QStringLiteral("2")},  // the grid has no token focus
              QStringList{QStringLiteral("--model"), m, QStringLiteral("--heads-shown"),
                          QStringLiteral("2"), QStringLiteral("--view"), QStringLiteral("head:3")},
              QStringList{QStringLiteral("--model"), m, QStringLiteral("--window"),
                          QStringLiteral("1:1"),
                          QStringLiteral("--hide-special")},  // the window holds <s> only
              QStringList{QStringLiteral("--model"), m, QStringLiteral("--view"),
                          QStringLiteral("model"), QStringLiteral("--focus-token"),
                          QStringLiteral("99")}}) {
            r = test::run_attnviz(QStringList{QStringLiteral("export"), QStringLiteral("--text"),
                                              text, QStringLiteral("--out"), none} +
                                  bad);
            QVERIFY2(r.status == 2, qPrintable(bad.join(' ') + QStringLiteral(": ") + r.err));
            QCOMPARE(r.err.count('\n'), 1);
        }
        r = test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"),
                               QString::fromStdString(test::temp_dir()), QStringLiteral("--text"),
                               text, QStringLiteral("--out"), none});
        QCOMPARE(r.status, 1);
        QVERIFY(r.err.contains("config.json"));
        QVERIFY(!QFile::exists(none));
        // One token's attention across the model, as words, exported: the figure says so.
        const QString focus = test::temp_path(QStringLiteral("focus.svg"));
        r = test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"), m,
                               QStringLiteral("--text"), text, QStringLiteral("--view"),
                               QStringLiteral("model"), QStringLiteral("--words"),
                               QStringLiteral("--focus-token"), QStringLiteral("3"),
                               QStringLiteral("--focus-to"), QStringLiteral("--out"), focus});
        QVERIFY2(r.status == 0, r.err.constData());
        QFile svg(focus);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QString body = QString::fromUtf8(svg.readAll());
        QVERIFY(body.contains(QStringLiteral("Attention to “cat” (token 3)")));
        QVERIFY(body.contains(QStringLiteral("key pieces")));
        // One head of layer 2, step by step, rotation and shared key/value head included.
        const QString steps = test::temp_path(QStringLiteral("steps.svg"));
        r = test::run_attnviz({QStringLiteral("export"), QStringLiteral("--model"), m,
                               QStringLiteral("--text"), text, QStringLiteral("--view"),
                               QStringLiteral("steps:4"), QStringLiteral("--layer"),
                               QStringLiteral("2"), QStringLiteral("--out"), steps});
        QVERIFY2(r.status == 0, r.err.constData());
        QFile steps_svg(steps);
        QVERIFY(steps_svg.open(QIODevice::ReadOnly));
        const QString steps_body = QString::fromUtf8(steps_svg.readAll());
        QVERIFY(steps_body.contains(QStringLiteral("Inside layer 2, head 4 of")));
        QVERIFY(steps_body.contains(QStringLiteral("K′ = RoPE(K)")));
        QVERIFY(steps_body.contains(QStringLiteral("4 query heads share 2 key/value heads")));
    }

    void oneTokensAttentionAcrossEveryLayerAndHead() {
        QVERIFY(openModel(golden_model("llama_gqa")));
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        auto* mode = find<QComboBox>("focusModeCombo");
        auto* token = find<QComboBox>("focusTokenCombo");
        const ModelMaps& m = *snap()->model;
        const int L = m.tokens, columns = m.num_heads + 2;
        QVERIFY(mode->isEnabled());
        QVERIFY(!token->isEnabled());
        QCOMPARE(token->count(), L);
        QCPColorGradient g = make_gradient(Colormap::Viridis);
        const QRgb top = g.color(1.0, QCPRange(0.0, 1.0)), grey = qRgb(236, 236, 236);
        for (const bool to : {false, true}) {
            mode->setCurrentIndex(to ? 2 : 1);
            emit mode->activated(to ? 2 : 1);
            token->setCurrentIndex(2);
            emit token->activated(2);
            QCOMPARE(w_->document()->focusToken(), 2);
            QCOMPARE(w_->document()->focusTo(), to);
            QVERIFY(token->isEnabled());
            const std::vector<QImage> strips = focus_strips(m, 2, to);
            QCOMPARE(int(strips.size()), m.num_layers * columns);
            for (int l = 0; l < m.num_layers; ++l)
                for (int c = 0; c < columns; ++c) {
                    // The strongest cell of token 2's row (from) or column (to) is the top
                    // colour; cells the causal model masks are grey.
                    int best = -1;
                    float v = -1.0f;
                    for (int k = 0; k < L; ++k) {
                        const float x = to ? m.columnValue(l, c, k, 2) : m.columnValue(l, c, 2, k);
                        if ((to ? k >= 2 : k <= 2) && x > v) v = x, best = k;
                    }
                    const QImage& s = strips[std::size_t(l * columns + c)];
                    QCOMPARE(s.size(), QSize(L, 1));
                    QCOMPARE(s.pixel(best, 0), top);
                    QCOMPARE(s.pixel(to ? 0 : L - 1, 0), grey);
                }
            QVERIFY(mosaic()->describe(1, 0).contains(QLatin1String("looks at")));
        }
        mode->setCurrentIndex(0);
        emit mode->activated(0);
        QCOMPARE(w_->document()->focusToken(), -1);
        QVERIFY(!token->isEnabled());
        QVERIFY(mosaic()->describe(1, 0).contains(QLatin1String("most attended")));
    }

    // Only the tab shown takes a new pass (issue 38: refreshing every hidden view stalled the
    // GUI thread); a hidden tab catches up when shown.  Who Writes, Flow and Statistics, each
    // shown once on the first text and hidden while another is typed, show the new text's
    // numbers, the engine's, once shown again.
    void aHiddenTabCatchesUpWhenShown() {
        const QString folder = shipped_model(QStringLiteral("attn-only-2l"));
        QVERIFY(!folder.isEmpty());
        QVERIFY(openModel(folder));
        ViewTabs* views = w_->views();
        DlaView* dla = views->dlaView();
        FlowView* flow = views->flowView();
        QSignalSpy attributed(dla, &DlaView::attributed), flowed(flow, &FlowView::computed);
        views->setCurrentTab(ViewTabs::DlaTab);
        QVERIFY(attributed.wait(30000));
        views->setCurrentTab(ViewTabs::FlowTab);
        QVERIFY(flowed.wait(30000));
        views->setCurrentTab(ViewTabs::StatisticsTab);
        const QString first = w_->document()->textA();
        const QString text = QStringLiteral("7Xv2Lm 7Xv2Lm 7X");
        QVERIFY(first != text);
        views->setCurrentTab(ViewTabs::GridTab);
        w_->document()->setTextA(text);
        SETTLE(*w_);
        const auto L = std::int64_t(snap()->model->encoding.size());
        QCOMPARE(snap()->model->text_a, text);
        for (const ViewTabs::Tab tab :
             {ViewTabs::DlaTab, ViewTabs::FlowTab, ViewTabs::StatisticsTab, ViewTabs::ModelTab})
            QVERIFY(views->isStale(tab));
        QVERIFY(!views->isStale(ViewTabs::GridTab));
        QCOMPARE(dla->result()->text, first);  // hidden: still the first text's
        QVERIFY(!dla->isRunning() && !flow->isRunning());
        const ModelPtr model = find_model(folder);
        QVERIFY(model);
        const models::EncodedText e = models::encode_text(*model, text.toStdString());
        QCOMPARE(std::int64_t(e.input.ids.size()), L);

        // Who Writes: the new text's last token, for the model's top prediction there.
        views->setCurrentTab(ViewTabs::DlaTab);
        QVERIFY(!views->isStale(ViewTabs::DlaTab));
        QVERIFY(attributed.wait(30000));
        const DlaResult* r = dla->result();
        QCOMPARE(r->text, text);
        QCOMPARE(r->attribution.what.position, L - 1);
        models::AttributionOptions o;
        o.num_threads = std::max(1, QThread::idealThreadCount());
        const models::LogitAttribution want =
            models::attribute_logit(*model->model, e.input, r->attribution.what, o);
        QVERIFY(std::abs(r->attribution.total - want.total) <= kTol);
        QCOMPARE(r->attribution.heads.data.size(), want.heads.data.size());
        ATTNVIZ_COMPARE_ARRAYS(r->attribution.heads.ptr(), want.heads.ptr(), want.heads.data.size(),
                               kTol);

        // Flow: the importances of the new text.
        views->setCurrentTab(ViewTabs::FlowTab);
        QVERIFY(flowed.wait(30000));
        QCOMPARE(flow->data()->text, text);
        QCOMPARE(flow->position(), int(L - 1));
        models::FlowOptions fo;
        fo.num_threads = o.num_threads;
        const models::InformationFlow importances =
            models::information_flow(*model->model, e.input, fo);
        QCOMPARE(flow->data()->flow.tokens, L);
        QCOMPARE(flow->data()->flow.attention.data.size(), importances.attention.data.size());
        ATTNVIZ_COMPARE_ARRAYS(flow->data()->flow.attention.ptr(), importances.attention.ptr(),
                               importances.attention.data.size(), kTol);

        // Statistics: each head's previous-token score in the new text's maps of layer 1.
        views->setCurrentTab(ViewTabs::StatisticsTab);
        const auto& stats = views->statistics()->model()->statistics();
        const models::CollectingSink maps = engine_run(folder, text);
        const Tensor& w0 = maps.results[0].weights;
        const int H = int(w0.dim(1));
        QCOMPARE(int(w0.dim(2)), int(L));
        QCOMPARE(int(stats.size()), H);
        for (int h = 0; h < H; ++h) {
            double previous = 0.0;
            for (std::int64_t i = 1; i < L; ++i)
                previous += w0.data[std::size_t((h * L + i) * L + i - 1)];
            QVERIFY2(std::abs(stats[std::size_t(h)].previous - previous / double(L - 1)) < kTol,
                     qPrintable(QStringLiteral("head %1: %2 against %3")
                                    .arg(h + 1)
                                    .arg(stats[std::size_t(h)].previous)
                                    .arg(previous / double(L - 1))));
        }
    }

    // An export of a view whose tab is hidden (and has not had the latest pass) draws the
    // latest pass all the same: File ▸ Export draws from the window's result, not the view.
    void anExportOfAHiddenViewDrawsTheLatestText() {
        QVERIFY(openModel(shipped_model(QStringLiteral("attn-only-2l"))));
        ViewTabs* views = w_->views();
        views->setCurrentTab(ViewTabs::LinesTab);
        views->setCurrentTab(ViewTabs::GridTab);
        w_->document()->setTextA(QStringLiteral("9 8 9 8"));
        SETTLE(*w_);
        QVERIFY(views->isStale(ViewTabs::LinesTab) && views->isStale(ViewTabs::ModelTab));
        for (const FigureKind kind : {FigureKind::Lines, FigureKind::Model}) {
            FigureOptions options = w_->document()->figureOptions();
            options.kind = kind;
            const QString svg = test::temp_path(QStringLiteral("hidden-%1.svg").arg(int(kind)));
            QVERIFY(test::export_figure(*w_, svg, ExportSize{900, 600, 1.0}, options));
            QFile f(svg);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray xml = f.readAll();
            if (kind == FigureKind::Lines)  // each 9 and 8 of the text, as a query and a key
                QVERIFY2(xml.count(">9</text>") == 4 && xml.count(">8</text>") == 4,
                         xml.left(1500).constData());
            else  // the mosaic's description names the tokens
                QVERIFY2(xml.contains("8 tokens: &lt;|bos|&gt; | 9 | ␣ | 8 | ␣ | 9 | ␣ | 8</desc>"),
                         xml.left(1500).constData());
        }
        QVERIFY(views->isStale(ViewTabs::LinesTab));  // nothing of the view was needed
    }

    // A hidden view keeps no large result and no other model alive: over the threshold (here
    // any maps) a new pass reaches the hidden tabs shown before too, a turn of the event loop
    // each, and frees the old one; a model opened while a tab is hidden replaces the first
    // there (the store keeps two models, a hidden view no more).
    void aHiddenTabKeepsNoLargeResultOrOtherModelAlive() {
        QVERIFY(openModel(shipped_model(QStringLiteral("attn-only-2l"))));
        ViewTabs* views = w_->views();
        w_->document()->setTextA(QStringLiteral("abc abc"));
        SETTLE(*w_);
        views->setCurrentTab(ViewTabs::AtlasTab);
        views->setCurrentTab(ViewTabs::DlaTab);
        views->setCurrentTab(ViewTabs::GridTab);
        std::weak_ptr<const AttentionSnapshot> old = snap();
        // Below the threshold the hidden tabs wait, keeping the result they showed.
        w_->document()->setTextA(QStringLiteral("xyz xyz"));
        SETTLE(*w_);
        QTest::qWait(10);
        QVERIFY(views->isStale(ViewTabs::AtlasTab) && views->isStale(ViewTabs::DlaTab));
        QVERIFY(!old.expired());
        // Over it, the next pass reaches them and frees both.
        views->setHeavySnapshotBytes(1);
        std::weak_ptr<const AttentionSnapshot> older = old;
        old = snap();
        w_->document()->setTextA(QStringLiteral("xyz xyz xyz"));
        SETTLE(*w_);
        QTRY_VERIFY(!views->isStale(ViewTabs::AtlasTab) && !views->isStale(ViewTabs::DlaTab));
        QTRY_VERIFY(old.expired() && older.expired());
        QVERIFY(views->isStale(ViewTabs::LinesTab));  // never shown: it holds nothing
        // Another model reaches them whatever the threshold.
        views->setHeavySnapshotBytes(ViewTabs::kHeavySnapshotBytes);
        w_->document()->setTextA(QStringLiteral("abc abc"));
        SETTLE(*w_);
        QVERIFY(views->isStale(ViewTabs::DlaTab));
        const QString other = golden_model("llama_gqa");
        QVERIFY(openModel(other));
        QTRY_VERIFY(!views->isStale(ViewTabs::DlaTab));
        QCOMPARE(views->dlaView()->model(), find_model(other));
        QVERIFY(views->isStale(ViewTabs::LinesTab));
    }

    void sessionsKeepTheModelAndTheLayer() {
        // A model below the session's folder is stored relative to it, so both can move.
        const QString dir = test::temp_path(QStringLiteral("session-with-model"));
        QVERIFY(copy_folder(golden_model("llama_gqa"), dir + QStringLiteral("/models/tiny")));
        QVERIFY(openModel(dir + QStringLiteral("/models/tiny")));
        w_->document()->setLayer(1);
        w_->document()->setWords(true);
        w_->document()->setHideSpecial(true);
        CompareChanges compare;  // B: layer 1, head 3, another sentence
        compare.layer = 0;
        compare.head = 2;
        compare.text = QStringLiteral("The dog sat");
        w_->document()->setCompareChanges(compare);
        SETTLE(*w_);
        const QString path = dir + QStringLiteral("/s.attnviz");
        QVERIFY(w_->saveSessionTo(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(root.value(QStringLiteral("version")).toInt(), 3);
        const QJsonObject source = root.value(QStringLiteral("document"))
                                       .toObject()
                                       .value(QStringLiteral("source"))
                                       .toObject();
        QCOMPARE(source.value(QStringLiteral("model_folder")).toString(),
                 QStringLiteral("models/tiny"));
        QCOMPARE(source.value(QStringLiteral("layer")).toInt(), 1);
        QCOMPARE(source.value(QStringLiteral("words")).toBool(), true);
        QCOMPARE(source.value(QStringLiteral("hide_special")).toBool(), true);
        // Moved elsewhere with its model, it still opens on it.
        const QString moved = test::temp_path(QStringLiteral("moved"));
        QVERIFY(QDir().rename(dir, moved));
        w_->document()->setModelFolder(QString());
        w_->document()->setWords(false);
        w_->document()->setHideSpecial(false);
        SETTLE(*w_);
        QVERIFY(w_->openSession(moved + QStringLiteral("/s.attnviz")));
        SETTLE(*w_);
        QCOMPARE(w_->document()->computeConfig().model_folder,
                 QDir::cleanPath(moved + QStringLiteral("/models/tiny")));
        QCOMPARE(snap()->layer, 1);
        QVERIFY(snap()->model);
        QCOMPARE(snap()->model->num_layers, 2);
        QVERIFY(snap()->model->words && snap()->model->hide_special);
        QVERIFY(find<QCheckBox>("wordsCheck")->isChecked());
        QVERIFY(find<QCheckBox>("hideSpecialCheck")->isChecked());
        QCOMPARE(w_->document()->compare().changes, compare);
        // A comparison that names a layer below 0 is refused with the key's name.
        CompareSettings read;
        QString error;
        QVERIFY(!compare_from_json(
            QJsonObject{{QStringLiteral("changes"), QJsonObject{{QStringLiteral("layer"), -1}}}},
            &read, &error));
        QVERIFY(error.contains(QStringLiteral("layer")));
    }

    void wordsHiddenSpecialTokensAndAggregatesInTheWindow() {
        QVERIFY(openModel(golden_model("bert_gamma_beta")));
        w_->document()->setTextA(QStringLiteral("the cats sat singing"));
        SETTLE(*w_);
        const std::shared_ptr<const ModelMaps> pieces = snap()->model;
        // [CLS] the cat ##s sat sing ##ing [SEP]
        QCOMPARE(pieces->tokens, 8);
        QCOMPARE(pieces->pieces, 8);
        const int P = 8, H = pieces->num_heads;
        auto* words_box = find<QCheckBox>("wordsCheck");
        auto* hide_box = find<QCheckBox>("hideSpecialCheck");
        QVERIFY(words_box->isEnabled() && hide_box->isEnabled());

        // Words: a word's row is the mean of its pieces' rows, summed over the key word's pieces.
        words_box->click();
        SETTLE(*w_);
        const std::shared_ptr<const ModelMaps> words = snap()->model;
        QVERIFY(words->words && !words->hide_special);
        QCOMPARE(words->pieces, P);
        QCOMPARE(words->token_text,
                 (std::vector<QString>{"[CLS]", "the", "cats", "sat", "singing", "[SEP]"}));
        QCOMPARE(snap()->key_tokens.front().size(), std::size_t(6));
        const std::vector<std::vector<int>> members{{0}, {1}, {2, 3}, {4}, {5, 6}, {7}};
        auto word_cell = [&](int l, int h, int g, int k) {
            double s = 0.0;
            for (const int i : members[std::size_t(g)])
                for (const int j : members[std::size_t(k)])
                    s += pieces->value(l, h, i, j);
            return s / double(members[std::size_t(g)].size());
        };
        for (int l = 0; l < words->num_layers; ++l)
            for (int h = -1; h < H; ++h)  // -1: the layer's mean
                for (int g = 0; g < 6; ++g)
                    for (int k = 0; k < 6; ++k)
                        QVERIFY(std::abs(words->value(l, h, g, k) - word_cell(l, h, g, k)) < 1e-6);
        QVERIFY(w_->grid()->figure()->captionText().contains(QLatin1String("key pieces")));

        // Special tokens hidden: [CLS] and [SEP] leave, each row is rescaled to sum to 1.
        hide_box->click();
        SETTLE(*w_);
        const std::shared_ptr<const ModelMaps> shown = snap()->model;
        QCOMPARE(shown->token_text, (std::vector<QString>{"the", "cats", "sat", "singing"}));
        for (int l = 0; l < shown->num_layers; ++l)
            for (int h = 0; h < H; ++h)
                for (int g = 0; g < 4; ++g) {
                    double left = 0.0;
                    for (int k = 1; k <= 4; ++k)
                        left += word_cell(l, h, g + 1, k);
                    for (int k = 0; k < 4; ++k)
                        QVERIFY(std::abs(shown->value(l, h, g, k) -
                                         word_cell(l, h, g + 1, k + 1) / left) < 1e-6);
                }

        // The rollout: computed over the pieces, then grouped and renormalised the same way.
        QCOMPARE(shown->rollout.size(), std::size_t(shown->num_layers));
        const std::vector<Tensor> rollout = models::attention_rollout(pieces->means);
        for (int l = 0; l < shown->num_layers; ++l)
            for (int g = 0; g < 4; ++g) {
                double left = 0.0, row = 0.0;
                auto cell = [&](int gg, int kk) {
                    double s = 0.0;
                    for (const int i : members[std::size_t(gg)])
                        for (const int j : members[std::size_t(kk)])
                            s += rollout[std::size_t(l)].data[std::size_t(i * P + j)];
                    return s / double(members[std::size_t(gg)].size());
                };
                for (int k = 1; k <= 4; ++k)
                    left += cell(g + 1, k);
                for (int k = 0; k < 4; ++k) {
                    const double v = shown->rollout[std::size_t(l)].data[std::size_t(g * 4 + k)];
                    QVERIFY(std::abs(v - cell(g + 1, k + 1) / left) < 1e-6);
                    row += v;
                }
                QVERIFY(std::abs(row - 1.0) < 1e-5);
            }

        // The mosaic has the mean and rollout columns; a click on a mean opens it in the grid.
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QTest::qWait(1);
        QVERIFY(!mosaic()->cellRect(1, shown->rolloutColumn()).isEmpty());
        QCOMPARE(shown->thumbnail(1, shown->rolloutColumn()).size(), QSize(4, 4));
        QVERIFY(mosaic()->describe(1, shown->rolloutColumn()).contains(QLatin1String("rollout")));
        QTest::mouseClick(mosaic(), Qt::LeftButton, {},
                          mosaic()->cellRect(1, shown->meanColumn()).center());
        SETTLE(*w_);
        QCOMPARE(w_->document()->computeConfig().layer, 1);
        QCOMPARE(w_->document()->view(), FigureView::Mean);
        QCOMPARE(w_->views()->currentTab(), ViewTabs::GridTab);

        // A pair: the second text's first token is marked, and its sequence kept.
        hide_box->click();
        words_box->click();
        w_->document()->setPairMode(PairMode::CrossAttention);
        w_->document()->setTextB(QStringLiteral("a dog ran"));
        SETTLE(*w_);
        QCOMPARE(snap()->model->secondTextStart(), 8);  // [CLS] 6 pieces [SEP] | a dog ran
        QCOMPARE(snap()->model->token_text[8], QStringLiteral("a"));
        QVERIFY(w_->grid()->figure()->captionText().contains(QLatin1String("second text")));
        QVERIFY(!words_box->isChecked() && !hide_box->isChecked());
    }
};

QTEST_MAIN(ModelWindowTest)
#include "ui_model_test.moc"
