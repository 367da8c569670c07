// The classroom views, driven through the real window: the computation steps (stages,
// shapes, the softmax stage against the grid's weights, stepping, provenance on hover), the
// head lines (one line per query, key and head above the threshold), the head statistics on
// maps whose answers are known by construction, presentation mode, every built-in example,
// and `attnviz export --view steps|lines`.
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImageReader>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "test_support.h"
#include "ui/classroom/examples.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/classroom/lines_figure.h"
#include "ui/classroom/lines_view.h"
#include "ui/classroom/statistics_view.h"
#include "ui/classroom/steps_figure.h"
#include "ui/classroom/steps_model.h"
#include "ui/classroom/steps_view.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/snapshot_statistics.h"
#include "ui/document/attention_document.h"
#include "ui/model/dla_view.h"
#include "ui/model/flow_view.h"
#include "ui/render/heatmap_figure.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/controls_panel.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/input_panel.h"
#include "ui/widgets/knock_out_menu.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
ComputeConfig config(PairMode mode, int heads) {
    ComputeConfig c;
    c.pair_mode = mode;
    c.text_a = QStringLiteral("The cat sat on the mat");
    c.text_b = QStringLiteral("猫坐在垫子上");
    c.embed_dim = 32;
    c.num_heads = heads;
    return c;
}

struct StageShape {
    StageId id;
    int rows, cols;
};
}  // namespace

class ClassroomTest : public test::WindowFixture {
    Q_OBJECT

  private:
    StepsView* steps() { return w_->views()->steps(); }
    LinesView* lines() { return w_->views()->lines(); }

  private slots:
    void init() { openSettledWindow(); }
    void cleanup() { closeWindow(); }

    // --- computation steps -------------------------------------------------------------

    void stepsHaveEveryStageWithItsShape_data() {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("heads");
        QTest::newRow("self, 4 heads") << int(PairMode::Single) << 4;
        QTest::newRow("self, 1 head") << int(PairMode::Single) << 1;
        QTest::newRow("cross, 8 heads") << int(PairMode::CrossAttention) << 8;
    }
    void stepsHaveEveryStageWithItsShape() {
        QFETCH(int, mode);
        QFETCH(int, heads);
        const ComputeConfig c = config(PairMode(mode), heads);
        const SnapshotPtr s = compute_snapshot(c, 1);
        QVERIFY(s->steps);
        const int L = 6, E = 32, d = E / heads;
        const bool cross = PairMode(mode) == PairMode::CrossAttention;
        const int S = s->source_len;
        QCOMPARE(s->target_len, L);
        std::vector<StageShape> expected{{StageId::Input, L, E}};
        if (cross) expected.push_back({StageId::KeyInput, S, E});
        for (StageShape sh : std::initializer_list<StageShape>{{StageId::Query, L, d},
                                                               {StageId::Key, S, d},
                                                               {StageId::Value, S, d},
                                                               {StageId::Scores, L, S},
                                                               {StageId::Scaled, L, S},
                                                               {StageId::Masked, L, S},
                                                               {StageId::Softmax, L, S},
                                                               {StageId::Dropout, L, S},
                                                               {StageId::Context, L, d},
                                                               {StageId::Concat, L, E},
                                                               {StageId::Output, L, E}})
            expected.push_back(sh);
        const StepsModel m = build_steps_model(*s, 0, heads - 1);
        QCOMPARE(m.count(), cross ? 13 : 12);
        for (int k = 0; k < m.count(); ++k) {
            const Stage& st = m.stages[std::size_t(k)];
            QCOMPARE(int(st.id), int(expected[std::size_t(k)].id));
            QCOMPARE(st.rows, expected[std::size_t(k)].rows);
            QCOMPARE(st.cols, expected[std::size_t(k)].cols);
            QCOMPARE(st.values.size(), std::size_t(st.rows) * st.cols);
            QVERIFY(!st.formula.isEmpty());
            QVERIFY(!st.explanation.isEmpty());
        }
        // Scaling: the scaled scores are the raw scores over sqrt(d_k).
        const Stage& raw = m.stages[std::size_t(m.indexOf(StageId::Scores))];
        const Stage& scaled = m.stages[std::size_t(m.indexOf(StageId::Scaled))];
        std::vector<float> expect(raw.values.size());
        for (std::size_t k = 0; k < expect.size(); ++k)
            expect[k] = raw.values[k] / std::sqrt(float(d));
        ATTNVIZ_COMPARE_ARRAYS(scaled.values.data(), expect.data(), expect.size(), 1e-5);
    }

    void softmaxStageEqualsTheGridWeights() {
        AttentionDocument* doc = w_->document();
        for (int head : {0, 2}) {
            doc->setView(FigureView::Head, head);
            SETTLE(*w_);
            w_->views()->setCurrentTab(ViewTabs::StepsTab);
            const StepsModel& m = steps()->figure()->model();
            QCOMPARE(m.head, head);
            const Stage& st = m.stages[std::size_t(m.indexOf(StageId::Softmax))];
            // What the grid draws: the snapshot its figure holds.
            const SnapshotPtr shown = w_->grid()->figure()->snapshot();
            QVERIFY(shown);
            std::vector<float> grid(std::size_t(st.rows) * st.cols);
            for (int i = 0; i < st.rows; ++i)
                for (int j = 0; j < st.cols; ++j)
                    grid[std::size_t(i) * st.cols + j] = shown->weight(0, head, i, j);
            ATTNVIZ_COMPARE_ARRAYS(st.values.data(), grid.data(), grid.size(), 1e-6);
        }
        // In training mode the grid shows the weights after dropout: the dropout stage.
        doc->setDropout(0.3);
        doc->setTraining(true);
        SETTLE(*w_);
        const StepsModel& m = steps()->figure()->model();
        const Stage& dropped = m.stages[std::size_t(m.indexOf(StageId::Dropout))];
        const SnapshotPtr shown = w_->grid()->figure()->snapshot();
        std::vector<float> grid;
        for (int i = 0; i < dropped.rows; ++i)
            for (int j = 0; j < dropped.cols; ++j)
                grid.push_back(shown->weight(0, m.head, i, j));
        ATTNVIZ_COMPARE_ARRAYS(dropped.values.data(), grid.data(), grid.size(), 1e-6);
        int zeros = 0;
        for (float v : dropped.values)
            zeros += v == 0.0f;
        QVERIFY2(zeros > 0, "dropout 0.3 in training mode dropped no weight");
    }

    void stepsStepWithButtonsAndArrowKeys() {
        AttentionDocument* doc = w_->document();
        w_->views()->setCurrentTab(ViewTabs::StepsTab);
        QCOMPARE(doc->step(), -1);  // every stage at once
        auto* forward = w_->findChild<QToolButton*>(QStringLiteral("stepForward"));
        auto* back = w_->findChild<QToolButton*>(QStringLiteral("stepBack"));
        auto* label = w_->findChild<QLabel*>(QStringLiteral("stepLabel"));
        QVERIFY(forward && back && label);
        // From "every stage", Back goes to the last one; forward then starts over.
        back->click();
        QTRY_COMPARE(doc->step(), 11);
        doc->setStep(0);
        QTRY_COMPARE(steps()->figure()->currentStep(), 0);
        QVERIFY(label->text().contains(QStringLiteral("1")));
        QVERIFY(!back->isEnabled());
        forward->click();
        QTRY_COMPARE(doc->step(), 1);
        QWidget* canvas = steps()->canvas();
        canvas->setFocus();
        QTest::keyClick(canvas, Qt::Key_Right);
        QTest::keyClick(canvas, Qt::Key_Right);
        QTRY_COMPARE(doc->step(), 3);
        QTest::keyClick(canvas, Qt::Key_Left);
        QTRY_COMPARE(doc->step(), 2);
        QTRY_COMPARE(steps()->figure()->currentStep(), 2);
        // Stages after the current one are not revealed yet.
        QVERIFY(steps()->figure()->isRevealed(2));
        QVERIFY(!steps()->figure()->isRevealed(3));
        // Focus: only the current stage (K = X W_K) and its input (X).
        doc->setStepFocus(true);
        QTRY_COMPARE(steps()->figure()->shownStages(), (std::vector<int>{0, 2}));
    }

    void hoveringAScoreLightsUpItsQueryAndKeyRows() {
        w_->views()->setCurrentTab(ViewTabs::StepsTab);
        w_->document()->setStep(-1);
        QTest::qWait(1);
        StepsFigure* f = steps()->figure();
        const int scores = f->model().indexOf(StageId::Scores);
        const int q = f->model().indexOf(StageId::Query);
        const int k = f->model().indexOf(StageId::Key);
        const QRectF cell = f->cellRect(scores, 2, 4);
        QVERIFY(!cell.isEmpty());
        steps()->hoverAt(cell.center());
        QCOMPARE(f->hover().stage, scores);
        QCOMPARE(f->hover().row, 2);
        QCOMPARE(f->hover().col, 4);
        const auto& h = f->highlighted();
        auto has = [&](int stage, StageRegion::Kind kind, int row, int col) {
            return std::find(h.begin(), h.end(), StageRegion{stage, kind, row, col}) != h.end();
        };
        QVERIFY(has(q, StageRegion::Kind::Row, 2, -1));
        QVERIFY(has(k, StageRegion::Kind::Row, 4, -1));
        QVERIFY(has(f->model().indexOf(StageId::Input), StageRegion::Kind::Row, 2, -1));
        QVERIFY(steps()->hoverText().contains(QStringLiteral("cat")) ||
                steps()->hoverText().contains(QStringLiteral("sat")));
        // A context cell (i, c): row i of the weights and column c of V.
        const std::vector<StageRegion> ctx =
            provenance(f->model(), f->model().indexOf(StageId::Context), 1, 3);
        QVERIFY(std::find(ctx.begin(), ctx.end(),
                          StageRegion{f->model().indexOf(StageId::Dropout), StageRegion::Kind::Row,
                                      1, -1}) != ctx.end());
        QVERIFY(std::find(ctx.begin(), ctx.end(),
                          StageRegion{f->model().indexOf(StageId::Value), StageRegion::Kind::Column,
                                      -1, 3}) != ctx.end());
    }

    // --- head lines --------------------------------------------------------------------

    void headViewDrawsOneLinePerQueryKeyAndHead() {
        AttentionDocument* doc = w_->document();
        w_->views()->setCurrentTab(ViewTabs::LinesTab);
        const SnapshotPtr s = snap();
        auto count = [&](quint64 heads, int query) {
            std::size_t n = 0;
            for (int h = 0; h < s->heads; ++h)
                for (int i = 0; i < s->target_len; ++i)
                    for (int j = 0; j < s->source_len; ++j)
                        if ((heads >> h & 1u) && (query < 0 || i == query) &&
                            s->weights.data[s->cell(0, h, i, j)] >= kLineThreshold)
                            ++n;
            return n;
        };
        QCOMPARE(lines()->figure()->lines().size(), count(~quint64(0), -1));
        QVERIFY(lines()->figure()->lines().size() > 0);
        // Untick head 2: its lines go.
        QCheckBox* box = lines()->headBox(1);
        QVERIFY(box && box->isChecked());
        box->click();
        QTRY_COMPARE(doc->lineHeads() & 2u, quint64(0));
        // The view follows the document's coalesced change signal.
        QTRY_COMPARE(lines()->figure()->lines().size(), count(~quint64(2), -1));
        for (const HeadLine& l : lines()->figure()->lines())
            QVERIFY(l.head != 1);
        // Hover the third query token: only its lines.
        const QPointF anchor = lines()->figure()->queryAnchor(2);
        lines()->hoverAt(anchor - QPointF(10, 0));
        QCOMPARE(lines()->figure()->lines().size(), count(~quint64(2), 2));
        for (const HeadLine& l : lines()->figure()->lines())
            QCOMPARE(l.query, 2);
        QVERIFY(!lines()->hoverText().isEmpty());
    }

    void headViewWorksForCrossAttention() {
        AttentionDocument* doc = w_->document();
        doc->setPairMode(PairMode::CrossAttention);
        SETTLE(*w_);
        const SnapshotPtr s = snap();
        QVERIFY(s->target_len != s->source_len);
        std::size_t n = 0;
        for (float v : s->weights.data)
            n += v >= kLineThreshold;
        QCOMPARE(head_lines(*s, 0, ~quint64(0)).size(), n);
        w_->views()->setCurrentTab(ViewTabs::LinesTab);  // collected once shown
        QTest::qWait(1);
        QCOMPARE(lines()->figure()->lines().size(), n);
        // A key anchor for the last key of the other sentence exists on the right.
        QVERIFY(lines()->figure()->keyAnchor(s->source_len - 1).x() >
                lines()->figure()->queryAnchor(0).x());
    }

    // --- statistics --------------------------------------------------------------------

    // Maps whose statistics are known by construction: one key a row has an entropy of
    // 0 bits, every key alike log2 S bits (ln S nats in the engine); a fully masked row counts
    // nowhere; [CLS] and [SEP] are read where they stand among the keys, not assumed at the
    // ends.
    void statisticsOfMapsWithKnownAnswers() {
        constexpr int H = 3, S = 6, L = S, kMaskedRow = 3;
        AttentionSnapshot s;
        s.batch = 1;
        s.heads = s.num_heads = H;
        s.target_len = s.query_total = L;
        s.source_len = s.key_total = S;
        const std::vector<QString> keys{QStringLiteral("a"),     QStringLiteral("[CLS]"),
                                        QStringLiteral("[SEP]"), QStringLiteral("b"),
                                        QStringLiteral("[SEP]"), QStringLiteral("c")};
        s.query_tokens = {keys};
        s.key_tokens = {keys};
        s.weights = Tensor({1, H, L, S});
        s.masked.assign(std::size_t(L * S), 0);
        s.fully_masked_rows.assign(std::size_t(H * L), 0);
        const auto at = [&](int h, int i, int j) -> float& {
            return s.weights.data[s.cell(0, h, i, j)];
        };
        for (int h = 0; h < H; ++h)
            for (int i = 0; i < L; ++i) {
                if (i == kMaskedRow) {
                    // As the "uniform" policy leaves it: counted, it would give heads 0 and 2
                    // some entropy.
                    s.fully_masked_rows[std::size_t(h * L + i)] = 1;
                    for (int j = 0; j < S; ++j) {
                        s.masked[std::size_t(i * S + j)] = 1;
                        at(h, i, j) = 1.0f / S;
                    }
                } else if (h == 0) {
                    at(h, i, std::max(i - 1, 0)) = 1.0f;  // the previous key; row 0 itself
                } else if (h == 1) {
                    for (int j = 0; j < S; ++j)
                        at(h, i, j) = 1.0f / S;  // every key alike
                } else {
                    at(h, i, 1) = 1.0f;  // the [CLS] key
                }
            }
        const auto stats = snapshot_head_measures(s, 0);
        QCOMPARE(int(stats.size()), H);
        constexpr double tol = 1e-6;
        // Rows 0, 1, 2, 4 and 5; for the previous key (and the first, which row 0's own
        // weight on key 0 would be too) rows 1, 2, 4 and 5.
        for (const models::HeadMeasures& st : stats)
            QCOMPARE(st.rows, std::int64_t(L - 1));
        const models::HeadMeasures& previous = stats[0];
        ATTNVIZ_FUZZY(previous.entropy, 0.0, tol);
        ATTNVIZ_FUZZY(previous.max_weight, 1.0, tol);
        ATTNVIZ_FUZZY(previous.mean_distance, 4.0 / 5, tol);
        ATTNVIZ_FUZZY(previous.first, 1.0 / 4, tol);  // row 1
        ATTNVIZ_FUZZY(previous.cls, 1.0 / 5, tol);    // row 2
        ATTNVIZ_FUZZY(previous.sep, 1.0 / 5, tol);    // row 5 (row 3 is masked)
        ATTNVIZ_FUZZY(previous.self, 1.0 / 5, tol);   // row 0
        ATTNVIZ_FUZZY(previous.previous, 1.0, tol);
        const models::HeadMeasures& uniform = stats[1];
        ATTNVIZ_FUZZY(uniform.entropy, std::log(double(S)), tol);
        ATTNVIZ_FUZZY(uniform.max_weight, 1.0 / S, tol);
        // Σ_j |i - j| over the 6 keys is 15, 11, 9, 11 and 15 for rows 0, 1, 2, 4 and 5.
        ATTNVIZ_FUZZY(uniform.mean_distance, (15.0 + 11 + 9 + 11 + 15) / S / 5, tol);
        ATTNVIZ_FUZZY(uniform.first, 1.0 / S, tol);
        ATTNVIZ_FUZZY(uniform.cls, 1.0 / S, tol);
        ATTNVIZ_FUZZY(uniform.sep, 2.0 / S, tol);  // two [SEP] keys
        ATTNVIZ_FUZZY(uniform.self, 1.0 / S, tol);
        ATTNVIZ_FUZZY(uniform.previous, 1.0 / S, tol);
        const models::HeadMeasures& cls = stats[2];
        ATTNVIZ_FUZZY(cls.entropy, 0.0, tol);
        ATTNVIZ_FUZZY(cls.max_weight, 1.0, tol);
        ATTNVIZ_FUZZY(cls.mean_distance, (1.0 + 0 + 1 + 3 + 4) / 5, tol);
        ATTNVIZ_FUZZY(cls.first, 0.0, tol);
        ATTNVIZ_FUZZY(cls.cls, 1.0, tol);
        ATTNVIZ_FUZZY(cls.sep, 0.0, tol);
        ATTNVIZ_FUZZY(cls.self, 1.0 / 5, tol);      // row 1
        ATTNVIZ_FUZZY(cls.previous, 1.0 / 4, tol);  // row 2
        // The table shows entropy in bits, and "—" where a quantity does not exist.
        HeadStatisticsModel table;
        table.setStatistics(stats, -1);
        const auto shown = [&](int head, int column, int role) {
            return table.index(head, column).data(role);
        };
        ATTNVIZ_FUZZY(
            shown(1, HeadStatisticsModel::Entropy, HeadStatisticsModel::ValueRole).toDouble(),
            std::log2(double(S)), tol);
        QCOMPARE(shown(1, HeadStatisticsModel::Entropy, Qt::DisplayRole).toString(),
                 QStringLiteral("2.58"));
        QCOMPARE(shown(0, HeadStatisticsModel::Entropy, Qt::DisplayRole).toString(),
                 QStringLiteral("0.00"));
        QCOMPARE(shown(2, HeadStatisticsModel::Cls, Qt::DisplayRole).toString(),
                 QStringLiteral("100.0 %"));
        QCOMPARE(shown(2, HeadStatisticsModel::Head, Qt::DisplayRole).toString(),
                 QStringLiteral("Head 3"));
        // "Itself" does not exist in cross-attention, nor [CLS] and [SEP] among other keys.
        AttentionSnapshot cross = s;
        cross.config.pair_mode = PairMode::CrossAttention;
        QVERIFY(std::isnan(snapshot_head_measures(cross, 0)[1].self));
        AttentionSnapshot plain = s;
        plain.key_tokens = {std::vector<QString>(std::size_t(S), QStringLiteral("a"))};
        QVERIFY(std::isnan(snapshot_head_measures(plain, 0)[1].cls));
        QVERIFY(std::isnan(snapshot_head_measures(plain, 0)[1].sep));
        table.setStatistics(snapshot_head_measures(plain, 0), -1);
        QCOMPARE(shown(1, HeadStatisticsModel::Cls, Qt::DisplayRole).toString(),
                 QStringLiteral("—"));
        // Computed: with special tokens [CLS] and [SEP] are among the keys, without not.
        ComputeConfig c = config(PairMode::Single, 2);
        c.special_tokens = true;
        const models::HeadMeasures special = snapshot_head_measures(*compute_snapshot(c, 1), 0)[0];
        QVERIFY(!std::isnan(special.cls) && !std::isnan(special.sep));
        c.special_tokens = false;
        const models::HeadMeasures none = snapshot_head_measures(*compute_snapshot(c, 1), 0)[0];
        QVERIFY(std::isnan(none.cls) && std::isnan(none.sep));
    }

    void statisticsTableSortsAndFocusesAHead() {
        w_->views()->setCurrentTab(ViewTabs::StatisticsTab);
        StatisticsView* view = w_->views()->statistics();
        QTableView* table = view->table();
        QCOMPARE(table->model()->rowCount(), w_->document()->numHeads());
        // Sorted by entropy, descending: the column reads from high to low.
        table->sortByColumn(HeadStatisticsModel::Entropy, Qt::DescendingOrder);
        double last = 1e9;
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            const double v = table->model()
                                 ->index(r, HeadStatisticsModel::Entropy)
                                 .data(HeadStatisticsModel::ValueRole)
                                 .toDouble();
            QVERIFY(v <= last);
            last = v;
        }
        // Clicking a row focuses its head in the grid.
        const int head = view->headAtRow(1);
        const QRect rect = table->visualRect(table->model()->index(1, 1));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
        QTRY_COMPARE(w_->document()->view(), FigureView::Head);
        QCOMPARE(w_->document()->viewHead(), head);
        QCOMPARE(w_->views()->currentTab(), ViewTabs::GridTab);
    }

    // The CSV export and the clipboard copy hold the model's numbers; a failed export
    // reports why, in the window's error dialog, and leaves the previous file as it was.
    void statisticsTableExportsAndCopies() {
        w_->views()->setCurrentTab(ViewTabs::StatisticsTab);
        StatisticsView* view = w_->views()->statistics();
        const auto& stats = view->model()->statistics();
        QCOMPARE(int(stats.size()), w_->document()->numHeads());
        const QString path = test::temp_path(QStringLiteral("stats.csv"));
        QString error;
        QVERIFY2(view->exportCsv(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + int(stats.size()));
        QCOMPARE(lines[0], QStringLiteral("head,rows,entropy_bits,max_weight,mean_distance,first,"
                                          "cls,sep,self,previous"));
        for (std::size_t h = 0; h < stats.size(); ++h) {
            const QStringList fields = lines[int(h) + 1].split(',');
            QCOMPARE(fields.size(), 10);
            QCOMPARE(fields[0].toInt(), int(h) + 1);
            QCOMPARE(fields[1].toLongLong(), stats[h].rows);
            ATTNVIZ_FUZZY(fields[2].toDouble(), stats[h].entropy / std::log(2.0), 1e-7);  // bits
            ATTNVIZ_FUZZY(fields[3].toDouble(), stats[h].max_weight, 1e-7);
            ATTNVIZ_FUZZY(fields[4].toDouble(), stats[h].mean_distance, 1e-7);
            ATTNVIZ_FUZZY(fields[8].toDouble(), stats[h].self, 1e-7);
            QVERIFY(fields[6].isEmpty());  // no [CLS] in the demo sentence
        }
        QTest::mouseClick(view->findChild<QPushButton*>(QStringLiteral("statisticsCopyButton")),
                          Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text().split('\n').first(),
                 QString(lines[0]).replace(',', '\t'));

        // Into a folder that does not exist: an error, and no file appears.
        const QString bad = test::temp_path(QStringLiteral("no/such/folder/stats.csv"));
        QVERIFY(!view->exportCsv(bad, &error));
        QVERIFY(error.contains(QStringLiteral("stats.csv")));
        QVERIFY(!QFile::exists(bad));
        // Over a file that cannot be replaced (its folder is read-only): the old file stays.
        const QString dir = test::temp_path(QStringLiteral("readonly"));
        QDir().mkpath(dir);
        QFile old(dir + QStringLiteral("/stats.csv"));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("previous");
        old.close();
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::ExeOwner);
        const bool refused = !view->exportCsv(old.fileName(), &error);
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (refused) {  // root may write anywhere; then there is nothing to check
            QVERIFY(old.open(QIODevice::ReadOnly));
            QCOMPARE(old.readAll(), QByteArray("previous"));
        }
        // The window shows a view's failure in its error dialog.
        emit view->failed(QStringLiteral("t"), QStringLiteral("because"));
        QCOMPARE(w_->lastError(), QStringLiteral("because"));
    }

    // --- presentation mode -------------------------------------------------------------

    void presentationModeHidesControlsAndUsesLargeLabels() {
        AttentionDocument* doc = w_->document();
        w_->setPresentation(true);
        QTest::qWait(50);
        QVERIFY(w_->isPresenting());
        QVERIFY(!w_->controlsPanel()->isVisible());
        QVERIFY(!w_->inputPanel()->isVisible());
        QVERIFY(!w_->menuBar()->isVisible());
        // 24 pt at the screen's resolution, and never less than 24 pt at 96 dpi.
        const int px = w_->presentationPixelSize();
        QVERIFY(px * 72.0 / w_->logicalDpiY() >= 24.0 - 1e-9);
        SETTLE(*w_);
        QCOMPARE(w_->grid()->figure()->options().font_px, px);
        // Token labels: the presentation size, or three quarters of it (16 px at least) on a
        // single map, whose labels would otherwise take the room the map needs.
        HeatmapFigure* figure = w_->grid()->figure();
        const int tick_px =
            figure->panelRect(0)->axis(QCPAxis::atLeft)->tickLabelFont().pixelSize();
        QVERIFY2(tick_px >= (figure->panelCount() == 1 ? std::max(16, px * 3 / 4) : px),
                 qPrintable(QString::number(tick_px)));
        w_->views()->setCurrentTab(ViewTabs::StepsTab);
        QVERIFY(steps()->figure()->labelPixelSize() >= px);
        w_->views()->setCurrentTab(ViewTabs::LinesTab);
        QVERIFY(lines()->figure()->labelPixelSize() >= px);

        // Keyboard-driven: C toggles the causal mask, Page Down changes the head, Right steps.
        const bool causal = doc->causal();
        QTest::keyClick(w_.get(), Qt::Key_C);
        QTRY_COMPARE(doc->causal(), !causal);
        QTest::keyClick(w_.get(), Qt::Key_PageDown);
        QTRY_COMPARE(doc->view(), FigureView::Head);
        w_->views()->setCurrentTab(ViewTabs::StepsTab);
        const int step = doc->step();
        QTest::keyClick(w_.get(), Qt::Key_Right);
        QTRY_VERIFY(doc->step() != step);
        const int seed = doc->dropoutSeed();
        QTest::keyClick(w_.get(), Qt::Key_D);
        QTRY_VERIFY(doc->dropoutSeed() != seed);
        QVERIFY(doc->training());

        // Esc leaves, and everything comes back.
        QTest::keyClick(w_.get(), Qt::Key_Escape);
        QTRY_VERIFY(!w_->isPresenting());
        QTRY_VERIFY(w_->controlsPanel()->isVisible());
        QVERIFY(w_->inputPanel()->isVisible());
        QVERIFY(steps()->figure()->labelPixelSize() < px);

        // An example's explanation folds to its title while presenting (the figure needs
        // the room), unfolds on a click, and is whole again after presenting.
        QVERIFY(w_->loadExample(QStringLiteral("causal_mask")));
        QLabel* text = w_->views()->explanationLabel();
        auto* fold = w_->views()->findChild<QToolButton*>(QStringLiteral("exampleFoldButton"));
        QVERIFY(fold);
        QTRY_VERIFY(text->isVisible());
        w_->setPresentation(true);
        QTRY_VERIFY(!text->isVisible());
        QVERIFY(w_->views()->explanationVisible());
        QTest::mouseClick(fold, Qt::LeftButton);
        QTRY_VERIFY(text->isVisible());
        QTest::mouseClick(fold, Qt::LeftButton);
        QTRY_VERIFY(!text->isVisible());
        w_->setPresentation(false);
        QTRY_VERIFY(text->isVisible());
    }

    // --- examples ----------------------------------------------------------------------

    void everyExampleLoadsAndComputes() {
        const auto examples = builtin_examples();
        QVERIFY(examples.size() >= 9);
        for (const Example& e : examples) {
            QVERIFY2(QFile::exists(e.resource), qPrintable(e.resource));
            QVERIFY2(w_->loadExample(e.id), qPrintable(w_->lastError()));
            SETTLE(*w_);
            QVERIFY2(w_->compute()->lastError().isEmpty(), qPrintable(e.id));
            QVERIFY(w_->views()->explanationVisible());
            QCOMPARE(w_->views()->explanationLabel()->text(), e.explanation);
            QVERIFY(!e.explanation.isEmpty());
            QVERIFY(w_->currentFile().isEmpty());
            const SnapshotPtr s = snap();
            if (e.id == QLatin1String("padding_mask")) {
                QCOMPARE(s->batch, 2);
                QVERIFY(s->is_masked(1, 0, s->source_len - 1));  // [PAD] key of the short one
            } else if (e.id == QLatin1String("causal_mask")) {
                QVERIFY(s->config.causal && s->is_masked(0, 0, 1));
            } else if (e.id == QLatin1String("cross_attention")) {
                QCOMPARE(s->config.pair_mode, PairMode::CrossAttention);
                QCOMPARE(w_->views()->currentTab(), ViewTabs::LinesTab);
            } else if (e.id.startsWith(QLatin1String("heads_"))) {
                QCOMPARE(s->heads, e.id.mid(6).toInt());
            } else if (e.id == QLatin1String("dropout")) {
                QVERIFY(s->config.training && s->config.dropout > 0.0);
            } else if (e.id == QLatin1String("self_attention")) {
                QCOMPARE(w_->views()->currentTab(), ViewTabs::StepsTab);
                QCOMPARE(w_->document()->step(), 0);
            } else if (e.id == QLatin1String("why_induction")) {
                whyExampleExplainsItsCell();
            } else if (e.id == QLatin1String("who_writes")) {
                whoWritesExampleShowsTheInductionHead();
            } else if (e.id == QLatin1String("information_flow")) {
                flowExampleRoutesThroughTheCopy();
            }
        }
    }

  private:
    // Issue 38's examples, on the shipped attn-only-2l: what their explanations say (the
    // numbers are docs/guide.md's `attnviz qk`, `attribute` and `flow` on the same string).
    void whyExampleExplainsItsCell() {
        QCOMPARE(w_->views()->currentTab(), ViewTabs::GridTab);
        QCOMPARE(w_->document()->viewHead(), 7);
        // The cell the explanation names: the head's largest weight in the last row.
        const SnapshotPtr s = snap();
        QVERIFY(s && s->model);
        const ModelMaps& maps = *s->model;
        QCOMPARE(maps.tokens, 47);
        QCOMPARE(maps.first_token, 0);
        int best = 0;
        for (int k = 1; k < maps.tokens; ++k)
            if (s->weight(0, 7, 46, k) > s->weight(0, 7, 46, best)) best = k;
        QCOMPARE(best, 17);  // key 18, the "8" after the first "P"
        QVERIFY2(std::abs(s->weight(0, 7, 46, 17) - 0.92) < 0.01,
                 qPrintable(QString::number(s->weight(0, 7, 46, 17))));
    }
    void whoWritesExampleShowsTheInductionHead() {
        QCOMPARE(w_->views()->currentTab(), ViewTabs::DlaTab);
        DlaView* dla = w_->views()->dlaView();
        QTRY_VERIFY_WITH_TIMEOUT(dla->result() && !dla->isRunning(), 60000);
        const DlaResult& r = *dla->result();
        QCOMPARE(r.target, QStringLiteral("8"));
        QVERIFY(r.predicted);
        QVERIFY2(std::abs(r.attribution.total - 9.03) < 0.005,
                 qPrintable(QString::number(r.attribution.total)));
        QVERIFY2(std::abs(r.head(1, 7) - 5.71) < 0.005, qPrintable(QString::number(r.head(1, 7))));
        QCOMPARE(r.topHead(), QPoint(7, 1));
        // As the explanation says: right-click L2H8's cell, Knock Out (Zero).  Its share is
        // then an exact 0, crossed out, and the logit of the same "8" falls to 3.04.
        QSignalSpy done(dla, &DlaView::attributed);
        const QPoint cell = dla->cellCentre(1, 7);
        QContextMenuEvent menu_event(QContextMenuEvent::Mouse, cell,
                                     dla->canvas()->mapToGlobal(cell));
        QApplication::sendEvent(dla->canvas(), &menu_event);
        QMenu* menu = w_->knockOutMenu()->lastMenu();
        QVERIFY(menu);
        QAction* zero = menu->findChild<QAction*>(QStringLiteral("knockOutZeroAction"));
        QVERIFY(zero);
        zero->trigger();
        menu->close();
        QVERIFY(w_->document()->isKnockedOut(1, 7));
        QVERIFY(done.wait(60000));
        const DlaResult& k = *dla->result();
        QVERIFY(k.knockedOut(1, 7) == KnockOut::Zero);
        QCOMPARE(k.target, QStringLiteral("8"));
        QCOMPARE(k.head(1, 7), 0.0);
        QVERIFY2(std::abs(k.attribution.total - 3.04) < 0.005,
                 qPrintable(QString::number(k.attribution.total)));
        QVERIFY(dla->figure().describe(1, 7).contains(QStringLiteral("knocked out (zero)")));
        w_->document()->restoreAllHeads();
        QVERIFY(done.wait(60000));
        QVERIFY2(std::abs(dla->result()->attribution.total - 9.03) < 0.005,
                 qPrintable(QString::number(dla->result()->attribution.total)));
    }
    void flowExampleRoutesThroughTheCopy() {
        QCOMPARE(w_->views()->currentTab(), ViewTabs::FlowTab);
        FlowView* flow = w_->views()->flowView();
        QTRY_VERIFY_WITH_TIMEOUT(flow->graph() != nullptr, 60000);
        // Into the last "P" in layer 2 the strongest edge comes from the "8" after the first
        // "P", and into that "8" in layer 1 from that "P".
        const auto strongest_into = [&](std::int64_t layer, std::int64_t position) {
            const models::FlowEdge* best = nullptr;
            for (const models::FlowEdge& edge : flow->graph()->edges)
                if (edge.to.layer == layer && edge.to.position == position &&
                    (!best || edge.importance > best->importance))
                    best = &edge;
            return best ? best->from.position : -1;
        };
        QCOMPARE(flow->graph()->position, 46);
        QCOMPARE(strongest_into(2, 46), 17);
        QCOMPARE(strongest_into(1, 17), 16);
    }

  private slots:
    void sessionKeepsTheClassroomState() {
        AttentionDocument* doc = w_->document();
        doc->setStep(4);
        doc->setStepFocus(true);
        doc->setLineHeads(0b1010);
        w_->views()->setCurrentTab(ViewTabs::LinesTab);
        const QString path = test::temp_path(QStringLiteral("classroom.attnviz"));
        QVERIFY(w_->saveSessionTo(path));
        w_->views()->setCurrentTab(ViewTabs::GridTab);
        doc->resetToDefaults();
        QCOMPARE(doc->step(), -1);
        QVERIFY(w_->openSession(path));
        QCOMPARE(doc->step(), 4);
        QVERIFY(doc->stepFocus());
        QCOMPARE(doc->lineHeads(), quint64(0b1010));
        QCOMPARE(w_->views()->currentTab(), ViewTabs::LinesTab);
    }

    // --- attnviz export ----------------------------------------------------------------

    void exportCommandDrawsStepsAndLines_data() {
        QTest::addColumn<QStringList>("view");
        QTest::addColumn<QString>("file");
        QTest::newRow("steps png") << QStringList{"--view", "steps"} << "steps.png";
        QTest::newRow("steps svg") << QStringList{"--view", "steps"} << "steps_all.svg";
        QTest::newRow("steps:2 step 8 focus svg")
            << QStringList{"--view", "steps:2", "--step", "8", "--focus"} << "steps.svg";
        QTest::newRow("lines png") << QStringList{"--view", "lines"} << "lines.png";
        QTest::newRow("lines heads svg")
            << QStringList{"--view", "lines", "--heads", "1,3"} << "lines.svg";
    }
    void exportCommandDrawsStepsAndLines() {
        QFETCH(QStringList, view);
        QFETCH(QString, file);
        const QString out = test::temp_path(file);
        QFile::remove(out);
        QProcess p;
        p.start(qEnvironmentVariable("ATTNVIZ_CLI"),
                QStringList{"export", "--text", "The cat sat on the mat", "--embed-dim", "32",
                            "--num-heads", "4", "--width", "900", "--height", "600", "--scale", "1",
                            "--out", out} +
                    view);
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY(QFile::exists(out));
        if (file.endsWith(QLatin1String(".png"))) {
            QImageReader reader(out);
            QCOMPARE(reader.format(), QByteArray("png"));
            QCOMPARE(reader.size(), QSize(900, 600));
            const QImage image = reader.read();
            QVERIFY(!image.isNull());
            // Not a blank page: some pixels are far from white.
            int dark = 0;
            for (int y = 0; y < image.height(); y += 3)
                for (int x = 0; x < image.width(); x += 3)
                    dark += qGray(image.pixel(x, y)) < 128;
            QVERIFY(dark > 200);
        } else {
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray svg = f.readAll();
            QVERIFY(svg.contains("<svg"));
            QVERIFY(svg.contains("</svg>"));
            QVERIFY(svg.contains("mat"));
            QVERIFY(!svg.contains("Hover"));  // a file has no mouse: no hover hint
        }
    }

    void exportCommandRefusesStepsOptionsElsewhere() {
        QProcess p;
        p.start(qEnvironmentVariable("ATTNVIZ_CLI"),
                QStringList{"export", "--text", "a b", "--step", "3", "--out",
                            test::temp_path(QStringLiteral("x.png"))});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--view steps"));
    }
};

QTEST_MAIN(ClassroomTest)
#include "ui_classroom_test.moc"
