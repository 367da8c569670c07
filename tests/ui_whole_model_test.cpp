// The Steps tab's whole-model mode in the real window (issue 35): the example opens it on the
// shipped GPT-2-style model, the figure shows the engine's trace of the text's last token,
// the sliders change the probabilities it shows (sampling_distribution's), a seeded draw picks
// what sample_next picks and Add appends it to the text (then the new last token is traced),
// a click on a layer's header folds it, the token chooser traces another token, the mode
// switch goes back to one layer (and stops tracing), a masked LM is traced at its [MASK], and
// the demo layer has no such mode.
#include <QComboBox>
#include <QFile>
#include <QImageReader>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTest>
#include <QToolButton>
#include <QXmlStreamReader>

#include "engine/models/token_trace.h"
#include "test_support.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/classroom/model_walk_figure.h"
#include "ui/classroom/steps_view.h"
#include "ui/classroom/whole_model_view.h"
#include "ui/compute/model_trace.h"
#include "ui/document/attention_document.h"
#include "ui/i18n/language.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

class WholeModelTest : public test::WindowFixture {
    Q_OBJECT

    WholeModelView* view() const { return w_->views()->steps()->wholeModel(); }
    ModelWalkFigure* figure() const { return view()->figure(); }
    /// The trace of the latest result, once the window has settled on it.
    const ModelTrace* trace() {
        if (!QTest::qWaitFor([&] { return test::settled(*w_) && snap() && snap()->trace; }, 60000))
            return nullptr;
        QTest::qWait(1);  // the views take the result in this turn of the event loop
        return snap()->trace.get();
    }
    /// Whether the probabilities the figure shows for its candidates are the engine's.
    bool candidatesAre(const ModelTrace& t, const models::SamplingOptions& o) const {
        const std::vector<float>& z = t.trace.logits;
        const models::SamplingDistribution d =
            models::sampling_distribution(z.data(), std::int64_t(z.size()), o);
        if (figure()->candidates().empty()) return false;
        for (const ModelWalkFigure::Candidate& c : figure()->candidates()) {
            double want = 0.0;
            for (std::size_t i = 0; i < d.ids.size(); ++i)
                if (d.ids[i] == c.id) want = d.probability(i);
            if (!(std::abs(c.probability - want) < 1e-12)) return false;
        }
        return true;
    }

  private slots:
    void init() {
        install_translations(QStringLiteral("en"));
        openWindow();
    }
    void cleanup() { closeWindow(); }

    void theExampleWritesOneTokenAtATime() {
        QVERIFY(w_->loadExample(QStringLiteral("writes_one_token")));
        const ModelTrace* t = trace();
        QVERIFY(t);
        QCOMPARE(w_->views()->currentTab(), ViewTabs::StepsTab);
        QVERIFY(find<QToolButton>("stepsWholeModel")->isChecked());
        QVERIFY(find<QToolButton>("stepsWholeModel")->isVisible());
        QVERIFY(view()->isVisible());
        // "Thank yo": <|bos|> and 8 characters; the last one, "o", is traced.
        QCOMPARE(t->trace.position, 8);
        QCOMPARE(t->pieces[8], QStringLiteral("o"));
        QCOMPARE(t->trace.layers, 4);
        QCOMPARE(figure()->walk().layers, 4);
        // The whole model needs no second pass for one layer's steps.
        QVERIFY(!snap()->steps);
        // The prediction the figure shows is the window's own: "u", 94%, as the Predictions
        // box has it from the same model's pass.
        const ModelMaps& maps = *snap()->model;
        QVERIFY(maps.predictions);
        const models::TokenScore best = maps.predictions->top.back().front();
        QCOMPARE(figure()->candidates().front().id, best.id);
        QCOMPARE(figure()->candidates().front().text, QStringLiteral("u"));
        QVERIFY(std::abs(figure()->candidates().front().probability - std::exp(best.logprob)) <
                1e-5);
        QTRY_VERIFY(candidatesAre(*t, {1.0, 0, 1.0}));

        // The sliders: temperature 0.5, then greedy; top-k 2; top-p 0.5.
        auto* temperature = find<QSlider>("walkTemperature");
        auto* scroll = find<QScrollArea>("walkScroll");
        QCOMPARE(scroll->verticalScrollBar()->value(), 0);  // a layer open: taller than the view
        QVERIFY(figure()->predictionRect().top() > scroll->viewport()->height());
        temperature->setValue(50);
        QTRY_COMPARE(w_->document()->figureOptions().temperature, 0.5);
        // The slider's effect is in view: the prediction scrolled up to the viewport.
        QTRY_VERIFY(figure()->predictionRect().top() >= scroll->verticalScrollBar()->value() &&
                    figure()->predictionRect().top() <
                        scroll->verticalScrollBar()->value() + scroll->viewport()->height());
        QTRY_VERIFY(figure()->samplingText().contains(QStringLiteral("0.50")));
        QTRY_VERIFY(candidatesAre(*t, {0.5, 0, 1.0}));
        temperature->setValue(0);
        QTRY_COMPARE(w_->document()->figureOptions().temperature, 0.0);
        QTRY_COMPARE(figure()->candidates().front().probability, 1.0);
        QCOMPARE(figure()->candidates()[1].probability, 0.0);
        temperature->setValue(100);
        find<QSpinBox>("walkTopK")->setValue(2);
        QTRY_COMPARE(w_->document()->figureOptions().top_k, 2);
        QTRY_VERIFY(figure()->candidates()[2].probability == 0.0);
        QTRY_VERIFY(candidatesAre(*t, {1.0, 2, 1.0}));
        find<QSpinBox>("walkTopK")->setValue(0);
        find<QSlider>("walkTopP")->setValue(50);
        QTRY_COMPARE(w_->document()->figureOptions().top_p, 0.5);
        QTRY_VERIFY(candidatesAre(*t, {1.0, 0, 0.5}));
        find<QSlider>("walkTopP")->setValue(100);
        QTRY_COMPARE(w_->document()->figureOptions().top_p, 1.0);

        // A draw with seed 5 picks what sample_next picks, and the seed moves on.
        auto* seed = find<QSpinBox>("walkSeed");
        seed->setValue(5);
        QVERIFY(!find<QPushButton>("walkAppend")->isEnabled());
        find<QPushButton>("walkDraw")->click();
        const std::int64_t drawn = models::sample_next(
            t->trace.logits.data(), std::int64_t(t->trace.logits.size()), {1.0, 0, 1.0}, 5);
        QCOMPARE(w_->document()->figureOptions().drawn, drawn);
        QCOMPARE(seed->value(), 6);
        QTRY_VERIFY(std::any_of(figure()->candidates().begin(), figure()->candidates().end(),
                                [&](const auto& c) { return c.drawn && c.id == drawn; }));
        // Add appends it to the text; the new last token is traced next.
        QTRY_VERIFY(find<QPushButton>("walkAppend")->isEnabled());
        find<QPushButton>("walkAppend")->click();
        QCOMPARE(w_->document()->generated(), (std::vector<qint64>{drawn}));
        QTRY_VERIFY2(
            snap() && snap()->trace && snap()->trace->trace.position == 9,
            qPrintable(QStringLiteral("traced token %1 of %2")
                           .arg(snap() && snap()->trace ? snap()->trace->trace.position : -1)
                           .arg(snap() && snap()->trace ? snap()->trace->pieces.size() : 0)));
        t = trace();
        QCOMPARE(t->trace.id, drawn);
        QCOMPARE(w_->document()->figureOptions().drawn, -1);

        // A click on layer 2's header opens it, another folds it.
        const quint64 before = w_->document()->figureOptions().open_layers;
        QVERIFY(!(before & 2u));
        view()->clickAt(figure()->headerRect(1).center());
        QCOMPARE(w_->document()->figureOptions().open_layers, before | 2u);
        QTRY_VERIFY(figure()->layerOpen(1));
        view()->clickAt(figure()->headerRect(1).center());
        QCOMPARE(w_->document()->figureOptions().open_layers, before);
        find<QToolButton>("walkUnfoldAll")->click();
        QTRY_VERIFY(figure()->layerOpen(3));

        // The token chooser: token 3 ("h") is traced, and Add says why it cannot continue.
        auto* tokens = find<QComboBox>("walkTokenCombo");
        QTRY_COMPARE(tokens->count(), 11);  // the default, then 10 tokens
        tokens->activated(3);               // as a user's choice (item 0 is the default)
        QTRY_VERIFY(snap() && snap()->trace && snap()->trace->trace.position == 2);
        QCOMPARE(trace()->pieces[2], QStringLiteral("h"));
        find<QPushButton>("walkDraw")->click();
        QVERIFY(!find<QPushButton>("walkAppend")->isEnabled());
        QTRY_VERIFY(
            find<QPushButton>("walkAppend")->toolTip().contains(QStringLiteral("last token")));

        // One layer again: the one-layer steps, and no trace asked for.
        find<QToolButton>("stepsOneLayer")->click();
        QVERIFY(!w_->document()->wholeModel());
        QCOMPARE(w_->views()->wantedTrace(), kNoTrace);
        QCOMPARE(w_->compute()->modelTrace(), kNoTrace);
        QTRY_VERIFY(w_->views()->steps()->canvas()->isVisible());
        QVERIFY(!view()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(test::settled(*w_) && snap()->steps, 60000);  // now asked for
        find<QToolButton>("stepsWholeModel")->click();
        QVERIFY(w_->document()->wholeModel());
        QCOMPARE(w_->compute()->modelTrace(), 2);
    }

    // Knocked-out heads change the trace as they change the maps; the figure follows.
    void knockedOutHeadsAreTraced() {
        QVERIFY(w_->loadExample(QStringLiteral("temperature")));
        const ModelTrace* t = trace();
        QVERIFY(t);
        const std::vector<float> intact = t->trace.logits;
        w_->document()->setKnockedOut({{{3, 0}, KnockOut::Zero}, {{3, 1}, KnockOut::Zero}});
        QTRY_VERIFY(snap() && snap()->trace && snap()->trace->trace.logits != intact);
        t = trace();
        const models::TraceVector* c = t->trace.find(3, models::TraceStep::Context);
        QVERIFY(c);
        for (int i = 0; i < 2 * 32; ++i)
            QCOMPARE(c->values[std::size_t(i)], 0.0f);
    }

    // A masked LM is traced at its [MASK], its logits are the filler's, and nothing appends.
    void aMaskedModelIsTracedAtItsMask() {
        QVERIFY(openModel(QString::fromStdString(test::golden_dir() + "/models/bert_mlm_prefix")));
        w_->views()->setCurrentTab(ViewTabs::StepsTab);
        w_->document()->setWholeModel(true);
        w_->document()->setTextA(QStringLiteral("the [MASK] sat"));
        const ModelTrace* t = trace();
        QVERIFY(t);
        QTRY_VERIFY(snap()->trace->pieces.size() > 3);
        t = trace();
        QCOMPARE(t->pieces[std::size_t(t->trace.position)], QStringLiteral("[MASK]"));
        QCOMPARE(t->trace.head, models::LmHeadKind::Masked);
        QVERIFY(t->trace.find(t->trace.layers, models::TraceStep::HeadNorm));
        find<QPushButton>("walkDraw")->click();
        QVERIFY(w_->document()->figureOptions().drawn >= 0);
        QVERIFY(!find<QPushButton>("walkAppend")->isEnabled());
        QTRY_VERIFY(find<QPushButton>("walkAppend")->toolTip().contains(QStringLiteral("[MASK]")));
    }

    // The demo layer has one layer: no mode switch, no trace.
    void theDemoLayerHasNoWholeModel() {
        w_->views()->setCurrentTab(ViewTabs::StepsTab);
        w_->document()->setWholeModel(true);
        SETTLE(*w_);
        QTRY_VERIFY(w_->views()->steps()->canvas()->isVisible());
        QVERIFY(!find<QToolButton>("stepsWholeModel")->isVisible());
        QCOMPARE(w_->compute()->modelTrace(), kNoTrace);
        QVERIFY(!snap()->trace);
    }

    // In Chinese the mode buttons and controls are translated, and a language switch keeps
    // the figure.
    void chinese() {
        QVERIFY(w_->loadExample(QStringLiteral("writes_one_token")));
        QVERIFY(trace());
        QVERIFY(install_translations(QStringLiteral("zh_CN")));
        QTRY_VERIFY(find<QToolButton>("stepsWholeModel")->text() != QStringLiteral("Whole model"));
        QVERIFY(find<QPushButton>("walkDraw")->text() != QStringLiteral("&Draw"));
        QVERIFY(!figure()->walk().empty());
        QVERIFY(figure()->titleText().contains(QStringLiteral("GPT-2")));
        install_translations(QStringLiteral("en"));
    }

    // --- attnviz export --view steps --whole-model ---------------------------------------

    void exportDrawsTheWholeModel_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("file");
        QTest::newRow("png") << QStringList{} << "walk.png";
        QTest::newRow("every layer open, drawn, png")
            << QStringList{"--open-layers", "all", "--draw", "3", "--temperature", "0.7"}
            << "walk_open.png";
        QTest::newRow("svg zh") << QStringList{"--lang", "zh_CN", "--open-layers", "2,4"}
                                << "walk_zh.svg";
        QTest::newRow("pdf token 4")
            << QStringList{"--focus-token", "4", "--top-k", "5"} << "walk.pdf";
    }
    void exportDrawsTheWholeModel() {
        QFETCH(QStringList, options);
        QFETCH(QString, file);
        const QString out = test::temp_path(file);
        QFile::remove(out);
        QProcess p;
        p.start(qEnvironmentVariable("ATTNVIZ_CLI"),
                QStringList{"export", "--model",
                            QString::fromStdString(test::golden_dir()) +
                                "/../../resources/models/char-zh-en-4l",
                            "--text", "Thank yo", "--view", "steps", "--whole-model", "--width",
                            "900", "--height", "600", "--scale", "1", "--out", out} +
                    options);
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        if (file.endsWith(QLatin1String(".png"))) {
            QImageReader reader(out);
            const QSize size = reader.size();
            // As tall as its content: four folded layers and the prediction need more than
            // the 600 asked; every layer open, far more.
            QCOMPARE(size.width(), 900);
            QVERIFY2(size.height() > (options.contains(QStringLiteral("all")) ? 3000 : 900),
                     qPrintable(QString::number(size.height())));
        } else if (file.endsWith(QLatin1String(".svg"))) {
            QXmlStreamReader xml(bytes);
            while (!xml.atEnd())
                xml.readNext();
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
            QVERIFY(bytes.contains("Noto Sans CJK SC"));
            QVERIFY(QString::fromUtf8(bytes).contains(QStringLiteral("层")));
        } else {
            QVERIFY(bytes.startsWith("%PDF"));
        }
    }

    void exportRefusesWhatDoesNotFit_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString model =
            QString::fromStdString(test::golden_dir()) + "/../../resources/models/char-zh-en-4l";
        QTest::newRow("no model") << QStringList{"--text", "ab", "--view", "steps", "--whole-model"}
                                  << "--whole-model needs --model";
        QTest::newRow("not steps") << QStringList{"--model", model, "--text", "ab", "--whole-model"}
                                   << "--whole-model needs --view steps";
        QTest::newRow("draw alone")
            << QStringList{"--model", model, "--text", "ab", "--view", "steps", "--draw", "1"}
            << "--open-layers and --draw need --whole-model";
        QTest::newRow("step") << QStringList{"--model", model,           "--text", "ab", "--view",
                                             "steps",   "--whole-model", "--step", "2"}
                              << "not with --whole-model";
        QTest::newRow("token past the text")
            << QStringList{"--model", model,           "--text",        "ab", "--view",
                           "steps",   "--whole-model", "--focus-token", "9"}
            << "--focus-token 9: the text has 3 tokens";
        QTest::newRow("bad layers")
            << QStringList{"--model", model,           "--text",        "ab", "--view",
                           "steps",   "--whole-model", "--open-layers", "1,x"}
            << "--open-layers needs a whole number";
    }
    void exportRefusesWhatDoesNotFit() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString out = test::temp_path(QStringLiteral("refused.png"));
        QFile::remove(out);
        QProcess p;
        p.start(qEnvironmentVariable("ATTNVIZ_CLI"),
                QStringList{"export"} + args + QStringList{"--out", out});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
        QVERIFY2(err.contains(message), qPrintable(err));
        QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));  // one line
        QVERIFY(!QFile::exists(out));                                 // nothing written
    }
};

QTEST_MAIN(WholeModelTest)
#include "ui_whole_model_test.moc"
