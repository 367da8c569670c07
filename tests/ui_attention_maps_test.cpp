// Attention maps computed elsewhere as the window's source (issue 25): what `attnviz attend`
// writes reads back as the model's own pass (every map, the atlas, the rollout), the real window
// opens such files with every view that needs no model, bad files are refused in a dialog that
// changes nothing, rows that do not sum to 1 are a warning, too big is the budget's refusal,
// and sessions keep the files.  Files: tests/data/attention_maps/make_attention_maps.py.
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include <array>
#include <cmath>

#include "engine/budget/memory_budget.h"
#include "engine/io/attention_arrays.h"
#include "engine/io/npy.h"
#include "engine/models/effective_attention.h"
#include "engine/models/model_folder.h"
#include "engine/text/embedding.h"
#include "test_support.h"
#include "ui/classroom/compare_figure.h"
#include "ui/classroom/compare_view.h"
#include "ui/classroom/lines_figure.h"
#include "ui/classroom/lines_view.h"
#include "ui/classroom/statistics_view.h"
#include "ui/classroom/steps_model.h"
#include "ui/compute/full_map_source.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/snapshot_statistics.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/model/atlas_view.h"
#include "ui/model/model_source.h"
#include "ui/model/model_view.h"
#include "ui/render/heatmap_figure.h"
#include "ui/widgets/document_history.h"
#include "ui/widgets/input_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const QString kText = QStringLiteral("the cat sat on the mat, then the cat sat");

QString gpt2() {
    return QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/models/gpt2_lmhead");
}

QString maps_file(const char* name) {
    return QStringLiteral(ATTNVIZ_TEST_DATA_DIR "/attention_maps/") + QLatin1String(name);
}

budget::MemoryBudget plenty() {
    budget::MemoryBudget b;
    b.bytes = std::uint64_t(1) << 30;
    return b;
}

QString shipped_model() {
    return QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/../../resources/models/attn-only-2l");
}

/// Where `got` (`count` floats) first differs from `want` by more than 1e-6: the index and
/// both values, or empty.
QString first_mismatch(const float* got, const float* want, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k)
        if (!(std::abs(double(got[k]) - double(want[k])) <= 1e-6))
            return QStringLiteral("cell %1: %2, the engine %3").arg(k).arg(got[k]).arg(want[k]);
    return {};
}

/// The largest |a - b| over two lists of tensors of the same shapes, -1 when shapes differ.
double max_diff(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
    if (a.size() != b.size()) return -1.0;
    double d = 0.0;
    for (std::size_t l = 0; l < a.size(); ++l) {
        if (a[l].data.size() != b[l].data.size()) return -1.0;
        for (std::size_t k = 0; k < a[l].data.size(); ++k)
            d = std::max(d, double(std::abs(a[l].data[k] - b[l].data[k])));
    }
    return d;
}

}  // namespace

class AttentionMapsTest : public test::WindowFixture {
    Q_OBJECT
  private:
    /// Opens maps as File ▸ Open Attention Maps… does and waits for their result.
    bool openMaps(const QString& file, const QString& tokens = QString()) {
        if (!w_->openAttentionMaps(file, tokens)) return false;
        QTest::qWait(1);
        return QTest::qWaitFor(
            [&] {
                return test::settled(*w_) && snap()->model && snap()->config.usesMaps() &&
                       snap()->config.model_folder == QFileInfo(file).absoluteFilePath();
            },
            60000);
    }

    /// `attnviz attend` on the golden GPT-2 and kText: the maps' path (tokens.json beside
    /// them), "" when it failed.
    QString attend(const char* folder) {
        const QString dir = QString::fromStdString(test::fresh_dir(folder));
        const test::CliRun run = test::run_cli(
            {QStringLiteral("attend"), QStringLiteral("--model"), gpt2(), QStringLiteral("--text"),
             kText, QStringLiteral("--out-weights"), dir + QStringLiteral("/A.npy"),
             QStringLiteral("--out-tokens"), dir + QStringLiteral("/tokens.json")});
        if (run.status != 0) qWarning("%s", qPrintable(run.err));
        return run.status == 0 ? dir + QStringLiteral("/A.npy") : QString();
    }

    /// The tool bar's button of `action` ("attentionNormAction", "attentionWeightsAction").
    QToolButton* toolButton(const char* action) {
        return qobject_cast<QToolButton*>(
            find<QToolBar>("mainToolBar")->widgetForAction(find<QAction>(action)));
    }

  private slots:
    void init() { openSettledWindow(); }
    void cleanup() { closeWindow(); }

    void attendWritesWhatViewReadsAsTheModelPassHasIt() {
        // attnviz attend writes the maps and tokens; read back, they are the model's own pass:
        // every map, the means, the rollout and every measure of the atlas but induction.
        ComputeConfig from_file;
        from_file.model_folder = attend("roundtrip");  // tokens.json beside it
        QVERIFY(!from_file.model_folder.isEmpty());
        QVERIFY(from_file.usesMaps());
        ComputeConfig model;
        model.model_folder = gpt2();
        model.text_a = kText;
        const auto a = run_maps(from_file, plenty());
        const auto b = run_model(model, 1, plenty());
        QCOMPARE(a->num_layers, b->num_layers);
        QCOMPARE(a->num_heads, b->num_heads);
        QCOMPARE(a->tokens, b->tokens);
        QCOMPARE(a->token_text, b->token_text);
        QCOMPARE(a->causal, b->causal);
        QVERIFY(a->causal);  // GPT-2's maps have nothing above the diagonal
        QVERIFY(a->warning.isEmpty());
        QCOMPARE(max_diff(a->weights, b->weights), 0.0);  // float32 written, float32 read
        QVERIFY(max_diff(a->means, b->means) <= 1e-7);
        QVERIFY(max_diff(a->means, b->means) >= 0.0);
        const double rollout = max_diff(a->rollout, b->rollout);
        QVERIFY2(rollout >= 0.0 && rollout <= 1e-6, qPrintable(QString::number(rollout)));
        for (int l = 0; l < a->num_layers; ++l)
            for (int h = 0; h < a->num_heads; ++h) {
                const models::HeadMeasures& x = a->atlas.at(l, h);
                const models::HeadMeasures& y = b->atlas.at(l, h);
                for (const std::string& name : models::head_measure_names()) {
                    if (name == "induction") continue;
                    QVERIFY2(std::abs(models::head_measure(x, name) -
                                      models::head_measure(y, name)) < 1e-6,
                             name.c_str());
                }
                QCOMPARE(x.induction, -1.0);  // it needs the model: not measured
                QVERIFY(y.induction >= 0.0);
            }
    }

    void wordsFromOffsetsAreTheModelsWords() {
        // attend's tokens with the input they count in: the pieces group into words as the
        // model's own pass groups them.
        const QString maps = attend("words");
        QVERIFY(!maps.isEmpty());
        const QString tokens = QFileInfo(maps).absolutePath() + QStringLiteral("/tokens.json");
        QFile f(tokens);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        json[QStringLiteral("input")] = kText;
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(json).toJson());
        f.close();
        ComputeConfig from_file;
        from_file.model_folder = maps;
        from_file.words = true;
        ComputeConfig model;
        model.model_folder = gpt2();
        model.text_a = kText;
        model.words = true;
        const auto a = present_model(run_maps(from_file, plenty()), from_file);
        const auto b = present_model(run_model(model, 1, plenty()), model);
        QVERIFY(a->words);
        QVERIFY2(a->tokens < a->pieces, "the golden's byte pieces group into fewer words");
        QCOMPARE(a->token_text, b->token_text);
        QCOMPARE(a->token_text.front(), QStringLiteral("the"));
        QCOMPARE(max_diff(a->weights, b->weights), 0.0);
        const double rollout = max_diff(a->rollout, b->rollout);
        QVERIFY2(rollout >= 0.0 && rollout <= 1e-6, qPrintable(QString::number(rollout)));
    }

    void theWindowShowsMapsFromAFile() {
        QVERIFY(openMaps(maps_file("maps_f32.npy")));
        const Tensor golden =
            io::read_npy(ATTNVIZ_TEST_GOLDEN_DIR "/models/gpt2_lmhead/reference/attentions.npy");
        const ModelMaps& m = *snap()->model;
        QCOMPARE(m.num_layers, 2);
        QCOMPARE(m.num_heads, 4);
        QCOMPARE(m.tokens, 10);
        QCOMPARE(snap()->key_tokens.front().front(), QStringLiteral("z"));  // vocab id 89
        for (int layer : {0, 1}) {
            w_->document()->setLayer(layer);
            SETTLE(*w_);
            QCOMPARE(snap()->layer, layer);
            for (int k = 0; k < 400; ++k)
                QCOMPARE(snap()->weights.data[std::size_t(k)],
                         golden.data[std::size_t(layer * 400 + k)]);
        }
        // The tool bar and the panel say what the source is.
        auto* layers = find<QSpinBox>("layerSpin");
        QVERIFY(layers->isEnabled());
        QCOMPARE(layers->maximum(), 2);
        QCOMPARE(find<QComboBox>("sourceCombo")->currentText(), QStringLiteral("maps_f32.npy"));
        QVERIFY(find<QLabel>("modelInfo")->text().contains(QStringLiteral("2 layers · 4 heads")));
        // The input panel shows the file's tokens, not the demo layer's sentence (issue 35).
        QString text;
        for (const QString& t : m.token_text)
            text += t;
        QVERIFY(!text.isEmpty());
        auto* sentence = w_->inputPanel()->sentenceEdit();
        QCOMPARE(sentence->text(), text);
        QVERIFY(!sentence->isEnabled());
        QVERIFY2(find<QLineEdit>("tokenListEdit")
                     ->text()
                     .startsWith(m.token_text.front() + QStringLiteral(" | ")),
                 qPrintable(find<QLineEdit>("tokenListEdit")->text()));
        QCOMPARE(w_->inputPanel()->findChild<QLabel*>(QStringLiteral("tokenCountLabel"))->text(),
                 InputPanel::tr("%n token(s)", nullptr, 10));
        // The steps need the model: they say so.
        QString why;
        QVERIFY(build_steps_model(*snap(), 0, 0, &why).empty());
        QVERIFY2(why.contains(QStringLiteral("read from a file")), qPrintable(why));
        // The atlas without its induction probe colours the grid by another measure.
        w_->views()->setCurrentTab(ViewTabs::AtlasTab);
        QCOMPARE(w_->views()->atlasView()->measure(), QStringLiteral("previous"));
        // The demo layer is one click away, and the maps again after it.
        w_->document()->setModelFolder(QString());
        SETTLE(*w_);
        QVERIFY(!snap()->model);
        QCOMPARE(sentence->text(), w_->document()->textA());
    }

    void badFilesAreRefusedInADialog_data() {
        QTest::addColumn<QString>("maps");
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<QString>("message");
        QTest::newRow("tokens' count against L") << "maps_f32.npy"
                                                 << "bad_tokens_9.json"
                                                 << "9 tokens but the maps in";
        QTest::newRow("NaN") << "bad_nan.npy"
                             << "tokens.json"
                             << "layer 2, head 3, row 5, column 1 is NaN";
        QTest::newRow("shape") << "bad_not_square.npy"
                               << "tokens.json"
                               << "each head's map must be square";
        QTest::newRow("no heads") << "bad_2d.npy"
                                  << "tokens.json"
                                  << "expected [layers, heads";
    }
    void badFilesAreRefusedInADialog() {
        QFETCH(QString, maps);
        QFETCH(QString, tokens);
        QFETCH(QString, message);
        const ComputeConfig before = w_->document()->computeConfig();
        QVERIFY(!w_->openAttentionMaps(maps_file(maps.toUtf8().constData()),
                                       maps_file(tokens.toUtf8().constData())));
        QVERIFY2(w_->lastError().contains(message), qPrintable(w_->lastError()));
        auto* box = w_->findChild<QMessageBox*>(QStringLiteral("errorDialog"));
        QVERIFY(box);
        QCOMPARE(box->windowTitle(), QStringLiteral("Cannot Open the Attention Maps"));
        box->close();
        QVERIFY(w_->document()->computeConfig() == before);  // nothing changed
    }

    void rowsThatDoNotSumToOneAreAWarning() {
        QVERIFY(openMaps(maps_file("rows_not_one.npy"), maps_file("tokens.json")));
        const QString warning = snap()->model->warning;
        QVERIFY2(warning.endsWith(QStringLiteral(
                     "rows do not all sum to 1: layer 2, head 3, row 7 sums to 0.9 (counted from "
                     "1)")),
                 qPrintable(warning));
        QVERIFY(find<QLabel>("modelInfo")->text().contains(QStringLiteral("row 7 sums to 0.9")));
    }

    void hidingATokenKeepsTheFilesWarning() {
        // present_model copies what the pass says whole (ModelPass): the warning too, which
        // was once left behind when the tokens were regrouped.
        QFile in(maps_file("tokens.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject json = QJsonDocument::fromJson(in.readAll()).object();
        QJsonArray special;
        for (int k = 0; k < json.value(QStringLiteral("tokens")).toArray().size(); ++k)
            special.append(k == 0);
        json[QStringLiteral("special")] = special;
        const QString tokens =
            QString::fromStdString(test::fresh_dir("warning_hidden")) + QStringLiteral("/t.json");
        QFile out(tokens);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(json).toJson());
        out.close();
        ComputeConfig c;
        c.model_folder = maps_file("rows_not_one.npy");
        c.tokens_file = tokens;
        c.hide_special = true;
        const auto pieces = run_maps(c, plenty());
        const auto shown = present_model(pieces, c);
        QVERIFY(pieces->warning.contains(QStringLiteral("row 7 sums to 0.9")));
        QCOMPARE(shown->tokens, pieces->tokens - 1);
        QCOMPARE(shown->warning, pieces->warning);
    }

    void keepingOneLayerOfAFileStillMeasuresAndPoolsEveryLayer() {
        // 100 tokens of the shipped attention-only model, written by `attnviz attend`.
        const QString shipped =
            QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/../../resources/models/attn-only-2l");
        QString text;
        while (text.size() < 99)
            text += QStringLiteral("the cat sat on the mat, ");
        text.truncate(99);
        const QString dir = QString::fromStdString(test::fresh_dir("whole_maps"));
        const test::CliRun run = test::run_cli(
            {QStringLiteral("attend"), QStringLiteral("--model"), shipped, QStringLiteral("--text"),
             text, QStringLiteral("--out-weights"), dir + QStringLiteral("/A.npy"),
             QStringLiteral("--out-tokens"), dir + QStringLiteral("/tokens.json")});
        QVERIFY2(run.status == 0, qPrintable(run.err));
        const Tensor maps = io::read_npy((dir + QStringLiteral("/A.npy")).toStdString());
        ComputeConfig c;
        c.model_folder = dir + QStringLiteral("/A.npy");
        c.layers_shown = 1;
        const std::shared_ptr<const ModelMaps> m = run_maps(c, plenty());
        const std::int64_t L = m->text_pieces, H = m->num_heads;
        QCOMPARE(L, std::int64_t(100));
        QCOMPARE(m->num_layers, 1);
        QCOMPARE(m->atlas.layers(), std::int64_t(2));  // every layer read and measured
        QVERIFY(m->pooled);
        QCOMPARE(m->pooled->layers, 2);
        QCOMPARE(m->pooled->pooling.cell, std::int64_t(2));
        for (std::int64_t l = 0; l < 2; ++l)
            for (std::int64_t h = 0; h < H; ++h)
                for (const bool max : {true, false}) {
                    const QString bad = test::squares_differ(
                        m->pooled->squares(
                            max ? ModelThumbnails::WholeMax : ModelThumbnails::WholeMean, int(l),
                            int(h)),
                        test::pooled_reference(maps.ptr() + (l * H + h) * L * L, L, 2, true, max),
                        1e-6);
                    QVERIFY2(bad.isEmpty(), qPrintable(bad));
                }
        // The kept layer's rollout is over every token; the other layer's was not computed.
        QVERIFY(m->pooled->has_rollout[0] && !m->pooled->has_rollout[1]);
        const QString bad = test::squares_differ(
            m->pooled->squares(ModelThumbnails::WholeMax, 0, int(H) + 1),
            test::pooled_reference(m->rollout[0].ptr(), L, 2, true, true), 0.0);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
    }

    void tooBigIsTheBudgetsRefusal() {
        ComputeConfig c;
        c.model_folder = maps_file("maps_f32.npy");
        budget::MemoryBudget tiny;
        tiny.bytes = 1 << 20;
        bool refused = false;
        try {
            run_maps(c, tiny);
        } catch (const budget::MemoryBudgetExceeded& e) {
            refused = true;
            QVERIFY(e.plan().needed > tiny.bytes);
        }
        QVERIFY(refused);
    }

    void twoMapsFilesCompareInTheCompareView() {
        // A: the GPT-2 golden's maps in float32; B: the same maps stored as float16, another
        // file of the same shape.  The Compare view shows A, B and B − A as the files hold them,
        // B's layer and the head compared are the editor's, and a session keeps B's file.
        QVERIFY(openMaps(maps_file("maps_f32.npy")));
        auto* action = find<QAction>("compareMapsAction");
        QVERIFY(action->isEnabled());
        w_->views()->setCurrentTab(ViewTabs::GridTab);
        CompareView* view = w_->views()->compare();
        const QString b_file = maps_file("maps_f16.safetensors");
        QVERIFY(w_->compareWithAttentionMaps(b_file, QString()));
        QCOMPARE(w_->views()->currentTab(), ViewTabs::CompareTab);  // shown at once
        QCOMPARE(*w_->document()->compare().changes.maps, QFileInfo(b_file).absoluteFilePath());
        const io::AttentionArrays a =
            io::AttentionArrays::open(maps_file("maps_f32.npy").toStdString());
        const io::AttentionArrays b = io::AttentionArrays::open(b_file.toStdString());
        // The figure's matrices for layer `la` of A against layer `lb` of B, head h (-1: mean).
        const auto expect = [&](int la, int lb, int h) {
            std::vector<float> ma(a.layer_values()), mb(b.layer_values());
            a.read_layer(la, ma.data());
            b.read_layer(lb, mb.data());
            std::vector<float> diff(100), wa(100), wb(100);
            for (int k = 0; k < 100; ++k) {
                for (int head = 0; head < 4; ++head) {
                    if (h >= 0 && head != h) continue;
                    wa[std::size_t(k)] += ma[std::size_t(head * 100 + k)] / (h < 0 ? 4.0f : 1.0f);
                    wb[std::size_t(k)] += mb[std::size_t(head * 100 + k)] / (h < 0 ? 4.0f : 1.0f);
                }
                diff[std::size_t(k)] = wb[std::size_t(k)] - wa[std::size_t(k)];
            }
            return std::array{wa, wb, diff};
        };
        const auto shows = [&](int la, int lb, int h) {
            return QTest::qWaitFor(
                [&] {
                    const CompareModel& m = view->figure()->model();
                    return test::settled(*w_) && view->compared() &&
                           view->compared()->config.model_folder ==
                               QFileInfo(b_file).absoluteFilePath() &&
                           view->compared()->layer == lb && snap()->layer == la && m.rows == 10 &&
                           m.head == h;
                },
                30000);
        };
        QVERIFY(shows(0, 0, -1));
        {
            const CompareModel& m = view->figure()->model();
            const auto [wa, wb, diff] = expect(0, 0, -1);
            ATTNVIZ_COMPARE_ARRAYS(m.a.data(), wa.data(), 100, 1e-6);
            ATTNVIZ_COMPARE_ARRAYS(m.b.data(), wb.data(), 100, 1e-6);
            ATTNVIZ_COMPARE_ARRAYS(m.diff.data(), diff.data(), 100, 1e-6);
            QVERIFY(m.max_abs_diff > 0.0f);  // float16 rounding: small, not nothing
            QVERIFY(m.max_abs_diff < 1e-3f);
        }
        QVERIFY(view->figure()
                    ->panelTitle(CompareFigure::PanelB)
                    .contains(QStringLiteral("maps_f16.safetensors")));
        QVERIFY(view->figure()
                    ->panelTitle(CompareFigure::PanelA)
                    .contains(QStringLiteral("maps_f32.npy")));
        // The editor: B's file and a button to choose another instead of a sentence.
        QTest::mouseClick(find<QToolButton>("compareEditToggle"), Qt::LeftButton);
        QVERIFY(view->mapsButton()->isVisible());
        QVERIFY(!view->textEdit()->isVisible());
        QCOMPARE(view->mapsFileLabel()->text(), QStringLiteral("maps_f16.safetensors"));
        // B's layer 2 against A's layer 1, head 3 of both, through the editor's widgets.
        view->layerSpin()->setValue(2);
        QCOMPARE(w_->document()->compare().changes.layer.value_or(-1), 1);
        view->headCombo()->setCurrentIndex(view->headCombo()->findData(2));
        emit view->headCombo()->activated(view->headCombo()->currentIndex());
        QVERIFY(shows(0, 1, 2));
        {
            const CompareModel& m = view->figure()->model();
            const auto [wa, wb, diff] = expect(0, 1, 2);
            ATTNVIZ_COMPARE_ARRAYS(m.diff.data(), diff.data(), 100, 1e-6);
            QVERIFY(m.max_abs_diff > 0.1f);  // another layer: really different
        }
        // A session keeps B's file and its layer.
        const QString dir = QString::fromStdString(test::fresh_dir("compare_session"));
        QString error;
        QVERIFY2(save_session(dir + QStringLiteral("/s.attnviz"), *w_->document(), {}, &error),
                 qPrintable(error));
        AttentionDocument restored;
        QVERIFY2(load_session(dir + QStringLiteral("/s.attnviz"), &restored, nullptr, &error),
                 qPrintable(error));
        QVERIFY(restored.compare() == w_->document()->compare());
        // B = A forgets the file.
        QTest::mouseClick(find<QPushButton>("compareResetButton"), Qt::LeftButton);
        QVERIFY(!w_->document()->compare().changes.maps);
        QCOMPARE(view->mapsFileLabel()->text(), QStringLiteral("Same as A (maps_f32.npy)"));

        // Maps that do not fit: a dialog names what differs, and B stays as it was.
        const CompareSettings before = w_->document()->compare();
        QVERIFY(!w_->compareWithAttentionMaps(maps_file("maps_3_heads.npy"), QString()));
        QVERIFY2(w_->lastError().contains(QStringLiteral("(heads 3 against 4)")),
                 qPrintable(w_->lastError()));
        auto* box = w_->findChild<QMessageBox*>(QStringLiteral("errorDialog"));
        QVERIFY(box);
        QCOMPARE(box->windowTitle(), QStringLiteral("Cannot Compare the Attention Maps"));
        box->close();
        QVERIFY(w_->document()->compare() == before);

        // Tokens spelled differently: compared position by position, and the figure says so.
        QVERIFY(w_->compareWithAttentionMaps(maps_file("other_tokens/maps_f32.npy"), QString()));
        QTRY_VERIFY_WITH_TIMEOUT(view->figure()->summaryText().startsWith(
                                     QStringLiteral("B's tokens differ from A's at 1 position")),
                                 30000);
        QCOMPARE(view->figure()->model().max_abs_diff, 0.0f);  // the same maps
        QCOMPARE(view->figure()->model().b_query_tokens[1], QStringLiteral("I"));

        // Back to the demo layer: B's maps go with A's, and the action waits for maps again.
        w_->document()->setModelFolder(QString());
        SETTLE(*w_);
        QVERIFY(!w_->document()->compare().changes.maps);
        QVERIFY(!action->isEnabled());
    }

    void effectiveSwitchShowsTheEnginesNormBasedMaps() {
        // Issue 38: the tool bar's weights | norm-based switch on the shipped model.  The maps
        // the Heatmaps tab and the Model tab show become the engine's ‖α f_h(x)‖ (the mean:
        // ‖Σ_h α f_h(x)‖), the captions say so, Undo and the shortcut switch back and forth.
        QVERIFY(openModel(shipped_model()));
        QAction* norm = find<QAction>("attentionNormAction");
        QAction* weights = find<QAction>("attentionWeightsAction");
        QVERIFY(weights->isChecked() && !norm->isChecked() && norm->isEnabled());
        const HeatmapFigure* figure = w_->grid()->figure();
        const QString weights_title = figure->titleText();
        QCOMPARE(weights_title, QStringLiteral("Attention weights per head"));
        QToolButton* button = toolButton("attentionNormAction");
        QVERIFY(button && button->isVisible());
        QTest::mouseClick(button, Qt::LeftButton);
        SETTLE(*w_);
        QVERIFY(norm->isChecked() && !weights->isChecked());
        QCOMPARE(w_->document()->attentionShown(), AttentionShown::NormBased);
        const SnapshotPtr s = snap();
        QVERIFY(s->norm_based && s->model && s->model->norm_based);

        // The engine on the same text: every layer's norm-based maps.
        const models::OpenedModel m = models::open_model_folder(shipped_model().toStdString());
        const models::EncodedText e = models::encode_text(m, s->config.text_a.toStdString());
        models::CollectingSink engine;
        models::EffectiveAttentionSink effective(*m.model, engine, models::AttentionScope{});
        m.model->forward(e.input, models::EffectiveAttentionSink::pass_options({}), effective);
        QCOMPARE(int(engine.results.size()), 2);
        const auto L = std::size_t(s->model->tokens);
        QCOMPARE(L, e.input.ids.size());
        for (std::size_t l = 0; l < 2; ++l) {
            const AttentionResult& r = engine.results[l];
            QString bad = first_mismatch(s->model->weights[l].ptr(), r.weights.ptr(), 8 * L * L);
            QVERIFY2(bad.isEmpty(), qPrintable(bad));
            bad = first_mismatch(s->model->means[l].ptr(), r.mean_weights.ptr(), L * L);
            QVERIFY2(bad.isEmpty(), qPrintable(bad));
        }
        // What the Heatmaps tab draws is layer 1's: norms, not shares of 1.
        QString bad = first_mismatch(s->weights.ptr(), engine.results[0].weights.ptr(), 8 * L * L);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        QVERIFY(s->item_range(0).second > 1.0f);
        QCOMPARE(figure->titleText(), QStringLiteral("Norm-based attention per head"));
        QVERIFY(figure->captionText().contains(QStringLiteral("norm-based ‖α·f(x)‖\nhow much")));
        QCOMPARE(figure->scaleLabel(), QStringLiteral("norm-based ‖α·f(x)‖"));
        const QString together = figure->panelTitle(figure->panelCount() - 1);
        QVERIFY2(together.startsWith(QStringLiteral("8 head")) &&
                     together.endsWith(QStringLiteral("together")),
                 qPrintable(together));  // the mean's panel: ‖Σ_h α f_h(x)‖
        // The mosaic says so too once shown (hidden, it waits for the pass).
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QVERIFY(w_->views()->modelView()->captionText().contains(QStringLiteral("norm-based")));
        w_->views()->setCurrentTab(ViewTabs::GridTab);

        // Undo puts the weights back; Ctrl+Shift+N the norm-based maps.
        w_->history()->stack()->undo();
        SETTLE(*w_);
        QVERIFY(!snap()->norm_based && weights->isChecked() && !norm->isChecked());
        QCOMPARE(figure->titleText(), weights_title);
        QVERIFY(std::abs(snap()->item_range(0).second) <= 1.0f);
        QTest::keyClick(w_.get(), Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
        SETTLE(*w_);
        QVERIFY(snap()->norm_based && norm->isChecked());
        // A head the budget did not keep: its full map recomputed norm-based, as the engine's.
        w_->document()->setModelScope(-1, 0);
        SETTLE(*w_);
        QCOMPARE(snap()->model->heads_kept, 0);
        const FullMapSourcePtr source = full_map_source(*snap());
        QVERIFY(source->normBased());
        const HeadMap head = source->map(1, 7, PassControl{});
        bad =
            first_mismatch(head.weights.ptr(), engine.results[1].weights.ptr() + 7 * L * L, L * L);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        w_->document()->setModelScope(-1, -1);
        SETTLE(*w_);

        // A click on the state shown keeps it; Ctrl+Shift+W is the weights.
        QTest::mouseClick(toolButton("attentionNormAction"), Qt::LeftButton);
        SETTLE(*w_);
        QVERIFY(snap()->norm_based && norm->isChecked() && !weights->isChecked());
        QTest::keyClick(w_.get(), Qt::Key_W, Qt::ControlModifier | Qt::ShiftModifier);
        SETTLE(*w_);
        QVERIFY(!snap()->norm_based && weights->isChecked() && !norm->isChecked());

        // Maps read from a file are weights: the switch is off, and says why.
        QVERIFY(openMaps(maps_file("maps_f32.npy"), maps_file("tokens.json")));
        w_->document()->setAttentionShown(AttentionShown::NormBased);
        SETTLE(*w_);
        QVERIFY(!snap()->norm_based && !norm->isEnabled() && weights->isChecked());
        QVERIFY2(norm->toolTip().contains(QStringLiteral("read from a file")),
                 qPrintable(norm->toolTip()));
    }

    void effectiveSwitchOnTheDemoLayer() {
        // The demo layer's maps against effective_attention on the same layer and inputs, and
        // the Lines tab's caption.
        QTest::mouseClick(toolButton("attentionNormAction"), Qt::LeftButton);
        SETTLE(*w_);
        const SnapshotPtr s = snap();
        QVERIFY(s->norm_based && !s->model);
        const ComputeConfig& c = s->config;
        text::EmbeddingOptions emb;
        emb.embed_dim = c.embed_dim;
        emb.positional_encoding = c.positional_encoding;  // the window's embeddings: seed 0
        Tensor x = text::embed_tokens(demo_tokens(c).a, emb);
        x.shape.insert(x.shape.begin(), 1);
        MultiHeadAttentionOptions options;
        options.embed_dim = c.embed_dim;
        options.num_heads = c.num_heads;
        options.bias = c.bias;
        options.scoring = c.scoring;
        MultiHeadAttention mha(options);
        mha.reset_parameters(std::uint64_t(c.weight_seed));
        AttentionForwardOptions fwd;
        fwd.weights_heads = -1;
        const AttentionResult r = mha.forward(x, x, x, fwd);
        const models::EffectiveAttention want = models::effective_attention(mha, x, r, fwd);
        QCOMPARE(s->weights.shape, want.heads.shape);
        QString bad = first_mismatch(s->weights.ptr(), want.heads.ptr(), want.heads.numel());
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        bad = first_mismatch(s->mean_weights.ptr(), want.layer.ptr(), want.layer.numel());
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        QVERIFY(first_mismatch(s->weights.ptr(), r.weights.ptr(), r.weights.numel()) != QString());
        // The Statistics tab measures each row of a head's ‖α f(x)‖ as shares of its total.
        const std::vector<models::HeadMeasures> measured = snapshot_head_measures(*s, 0);
        const auto L = std::size_t(s->target_len);
        models::MapLayout layout;
        layout.keys = std::int64_t(L);
        std::vector<float> shares(L * L);
        for (int h = 0; h < s->heads; ++h) {
            const float* map = want.heads.ptr() + std::size_t(h) * L * L;
            for (std::size_t i = 0; i < L; ++i) {
                double total = 0.0;
                for (std::size_t j = 0; j < L; ++j)
                    total += map[i * L + j];
                for (std::size_t j = 0; j < L; ++j)
                    shares[i * L + j] = float(map[i * L + j] / total);
            }
            const models::HeadMeasures m =
                models::measure_head(shares.data(), std::int64_t(L), layout, nullptr);
            QVERIFY(std::abs(measured[std::size_t(h)].max_weight - m.max_weight) <= 1e-6);
            QVERIFY(std::abs(measured[std::size_t(h)].entropy - m.entropy) <= 1e-6);
            QVERIFY(m.max_weight <= 1.0);
        }
        // File ▸ Export Weights… writes these maps, and says what they are.
        const QString json = test::temp_path(QStringLiteral("norm_weights.json"));
        QVERIFY(test::export_weights(*w_, json));
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(root[QStringLiteral("config")].toObject()[QStringLiteral("attention")].toString(),
                 QStringLiteral("norm"));
        const double cell =
            root[QStringLiteral("items")][0][QStringLiteral("weights")][1][2][3].toDouble();
        QVERIFY(std::abs(cell - double(want.heads.data[(1 * L + 2) * L + 3])) <= 1e-6);
        w_->views()->setCurrentTab(ViewTabs::StatisticsTab);
        SETTLE(*w_);
        QVERIFY(find<QLabel>("statisticsIntro")->text().contains(QStringLiteral("Norm-based")));
        w_->views()->setCurrentTab(ViewTabs::LinesTab);
        SETTLE(*w_);
        QVERIFY(w_->views()->lines()->figure()->titleText().contains(QStringLiteral("‖α·f(x)‖")));
    }

    void effectiveSwitchRoundTripsWithTheSession() {
        // Saved and read back; a session written before the switch reads as the weights, and
        // a word that is neither is refused with the key's name.
        w_->document()->setAttentionShown(AttentionShown::NormBased);
        const QString path = test::temp_path(QStringLiteral("norm.attnviz"));
        QString error;
        QVERIFY2(save_session(path, *w_->document(), {}, &error), qPrintable(error));
        AttentionDocument read;
        QVERIFY2(load_session(path, &read, nullptr, &error), qPrintable(error));
        QCOMPARE(read.attentionShown(), AttentionShown::NormBased);
        // The window opening it shows norm-based maps, and its switch says so.
        w_->document()->setAttentionShown(AttentionShown::Weights);
        SETTLE(*w_);
        QVERIFY(w_->openSession(path));
        SETTLE(*w_);
        QVERIFY(snap()->norm_based && find<QAction>("attentionNormAction")->isChecked());
        QJsonObject json = read.toJson();
        QJsonObject source = json.value(QStringLiteral("source")).toObject();
        QCOMPARE(source.value(QStringLiteral("attention")).toString(), QStringLiteral("norm"));
        source.remove(QStringLiteral("attention"));
        json[QStringLiteral("source")] = source;
        QVERIFY2(read.fromJson(json, &error), qPrintable(error));
        QCOMPARE(read.attentionShown(), AttentionShown::Weights);
        source[QStringLiteral("attention")] = QStringLiteral("normal");
        json[QStringLiteral("source")] = source;
        QVERIFY(!read.fromJson(json, &error));
        QVERIFY2(error.contains(QStringLiteral("'attention'")), qPrintable(error));
    }

    void sessionsKeepTheMapsBesideThem() {
        const QString dir = QString::fromStdString(test::fresh_dir("session"));
        QVERIFY(
            QFile::copy(maps_file("maps_f16.safetensors"), dir + QStringLiteral("/m.safetensors")));
        QVERIFY(QFile::copy(maps_file("tokens_list.json"), dir + QStringLiteral("/words.json")));
        QVERIFY(
            openMaps(dir + QStringLiteral("/m.safetensors"), dir + QStringLiteral("/words.json")));
        w_->document()->setLayer(1);
        SETTLE(*w_);
        QString error;
        QVERIFY2(save_session(dir + QStringLiteral("/s.attnviz"), *w_->document(), {}, &error),
                 qPrintable(error));
        QFile f(dir + QStringLiteral("/s.attnviz"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray saved = f.readAll();
        QVERIFY2(saved.contains("\"model_folder\": \"m.safetensors\""), saved.constData());
        QVERIFY(saved.contains("\"tokens_file\": \"words.json\""));
        AttentionDocument doc;
        QVERIFY2(load_session(dir + QStringLiteral("/s.attnviz"), &doc, nullptr, &error),
                 qPrintable(error));
        QCOMPARE(doc.computeConfig().model_folder, dir + QStringLiteral("/m.safetensors"));
        QCOMPARE(doc.computeConfig().tokens_file, dir + QStringLiteral("/words.json"));
        QCOMPARE(doc.computeConfig().layer, 1);
    }
};

QTEST_MAIN(AttentionMapsTest)
#include "ui_attention_maps_test.moc"
