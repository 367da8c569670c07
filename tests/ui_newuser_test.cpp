// What a new user hits (issue 23), driven through the real window: looking around asks
// nothing on close, the demo layer's tool-bar controls while a model is the source, the
// example banner after the source or text changes, the wording, the Atlas table's frozen
// columns, Steps after a language switch, and characters a model does not know.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTranslator>

#include <memory>

#include "test_support.h"
#include "ui/classroom/steps_figure.h"
#include "ui/classroom/steps_model.h"
#include "ui/classroom/steps_view.h"
#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/i18n/language.h"
#include "ui/model/atlas_view.h"
#include "ui/model/model_source.h"
#include "ui/model/model_view.h"
#include "ui/render/heatmap_figure.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/input_panel.h"
#include "ui/widgets/language_switcher.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
/// A language whose layer box reads "第 2 层": the number inside the phrase.
class NumberInsideTranslator : public QTranslator {
  public:
    QString translate(const char* context, const char* source, const char* disambiguation,
                      int n) const override {
        if (QLatin1String(source) == QLatin1String("Layer %1")) return QStringLiteral("第 %1 层");
        return QTranslator::translate(context, source, disambiguation, n);
    }
    bool isEmpty() const override { return false; }
};

/// Answers the next message boxes with `button`, counting them.
class DialogCounter : public QObject {
  public:
    explicit DialogCounter(QMessageBox::StandardButton button) : button_(button) {
        timer_.setInterval(10);
        connect(&timer_, &QTimer::timeout, this, [this] {
            for (QWidget* top : QApplication::topLevelWidgets()) {
                auto* box = qobject_cast<QMessageBox*>(top);
                if (!box || !box->isVisible() || box == answered_) continue;
                answered_ = box;
                ++seen;
                if (QAbstractButton* b = box->button(button_)) b->click();
            }
        });
        timer_.start();
    }
    int seen = 0;

  private:
    QMessageBox::StandardButton button_;
    QTimer timer_;
    QMessageBox* answered_ = nullptr;
};
}  // namespace

class NewUserTest : public test::WindowFixture {
    Q_OBJECT
  private:
    /// The tool bar's button for `action`.
    QWidget* toolButton(QAction* action) {
        auto* bar = find<QToolBar>("mainToolBar");
        QWidget* button = bar->widgetForAction(action);
        if (!button) qFatal("the tool bar has no button for %s", qPrintable(action->text()));
        return button;
    }
    /// Chooses entry `index` of the tool bar's Source box, as a click in its list does.
    void chooseSource(int index) {
        auto* source = find<QComboBox>("sourceCombo");
        source->setCurrentIndex(index);
        emit source->activated(index);
    }
    void typeSentence(const QString& text) {
        auto* edit = find<QLineEdit>("sentenceEdit");
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, text);
        QTest::keyClick(edit, Qt::Key_Return);
    }
    /// Opens a built-in example as Examples ▸ … does and waits for its first result.
    bool openExample(const char* id) {
        if (!w_->loadExample(QLatin1String(id))) return false;
        QTest::qWait(1);
        return QTest::qWaitFor(
            [&] {
                return test::settled(*w_) &&
                       (w_->document()->computeConfig().usesModel() == bool(snap()->model));
            },
            60000);
    }

  private slots:
    void init() {
        openWindow();
        SETTLE(*w_);
    }
    void cleanup() { closeWindow(); }

    // --- "Save the changes?" after only looking around --------------------------------------

    void lookingAroundIsNoEdit() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        // The window a new user sees first: the learned heads of the shipped model.
        QVERIFY(openExample("learned_heads"));
        QTest::qWait(1);
        QVERIFY(!w_->isWindowModified());
        AttentionDocument* doc = w_->document();
        const int layer_before = doc->computeConfig().layer;

        // A click on layer 1, head 4 of the Model tab opens it in the grid (layer and head).
        ModelView* mosaic = w_->views()->modelView();
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QTRY_VERIFY(!mosaic->cellRect(0, 3).isEmpty());
        QTest::mouseClick(mosaic, Qt::LeftButton, {}, mosaic->cellRect(0, 3).center());
        QTRY_COMPARE(doc->computeConfig().layer, 0);
        QVERIFY(layer_before != 0);
        QCOMPARE(doc->view(), FigureView::Head);
        QCOMPARE(doc->viewHead(), 3);
        SETTLE(*w_);
        QVERIFY2(!w_->isWindowModified(), "opening a head marked the session as changed");

        // Back to the grid of every head, then a click on another head's thumbnail.
        doc->setView(FigureView::Grid);
        SETTLE(*w_);
        QCPAxisRect* r = w_->grid()->figure()->panelRect(2);
        QVERIFY(r);
        QTest::mouseClick(w_->grid()->plot(), Qt::LeftButton, {}, r->rect().center());
        QTRY_COMPARE(doc->view(), FigureView::Head);
        SETTLE(*w_);
        QVERIFY2(!w_->isWindowModified(), "clicking a head marked the session as changed");

        // Stepping through the computation steps.
        w_->views()->setCurrentTab(ViewTabs::StepsTab);
        auto* forward = find<QToolButton>("stepForward");
        auto* back = find<QToolButton>("stepBack");
        QTRY_VERIFY(back->isEnabled());
        back->click();  // from every stage at once to the last one
        QTRY_VERIFY(doc->step() >= 0);
        const int step = doc->step();
        back->click();
        QTRY_COMPARE(doc->step(), step - 1);
        QTRY_VERIFY(forward->isEnabled());
        forward->click();
        QTRY_VERIFY(doc->step() != step - 1);
        SETTLE(*w_);
        QTest::qWait(1);
        QVERIFY2(!w_->isWindowModified(), "stepping through Steps marked the session as changed");

        // So closing asks nothing.
        w_->setConfirmOnClose(true);
        {
            DialogCounter answer(QMessageBox::Cancel);
            QVERIFY(w_->close());
            QTest::qWait(50);
            QCOMPARE(answer.seen, 0);
        }
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));

        // The user's own input still counts: a new text asks before it is lost.
        typeSentence(QStringLiteral("abcabc"));
        SETTLE(*w_);
        QTRY_VERIFY(w_->isWindowModified());
        {
            DialogCounter answer(QMessageBox::Cancel);
            QVERIFY(!w_->close());
            QTRY_COMPARE(answer.seen, 1);
        }
        w_->setConfirmOnClose(false);
    }

    void viewStateIsSavedButIsNoEdit() {
        AttentionDocument* doc = w_->document();
        QSignalSpy edited(doc, &AttentionDocument::edited);
        QSignalSpy settings(doc, &AttentionDocument::settingsChanged);
        const QJsonObject edits = doc->editsJson();
        doc->setView(FigureView::Head, 1);
        doc->setStep(2);
        doc->setStepFocus(true);
        doc->setTokenFocus(1, true);
        doc->setLineHeads(1);
        doc->setCompareHead(1);
        QTRY_VERIFY(!settings.isEmpty());
        QCOMPARE(edited.count(), 0);
        QCOMPARE(doc->editsJson(), edits);
        QVERIFY(doc->toJson() != edits);
        // Colours and the user's settings are edits.
        doc->setColormap(Colormap::Magma);
        QTRY_COMPARE(edited.count(), 1);
        QVERIFY(doc->editsJson() != edits);
        doc->setCausal(!doc->causal());
        QTRY_COMPARE(edited.count(), 2);
    }

    // --- the demo layer's tool-bar controls while a model is the source ---------------------

    void demoControlsAreOffWhileAModelIsTheSource() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        const char* names[] = {"causalAction", "resampleAction", "trainingAction",
                               "clearMasksAction"};
        // The demo layer: every control works.
        for (const char* name : names)
            QVERIFY2(find<QAction>(name)->isEnabled(), name);
        QVERIFY(toolButton(find<QAction>("causalAction"))->isEnabled());
        QVERIFY(toolButton(find<QAction>("resampleAction"))->isEnabled());

        QVERIFY(openExample("learned_heads"));
        for (const char* name : names)
            QVERIFY2(!find<QAction>(name)->isEnabled(), name);
        QWidget* causal = toolButton(find<QAction>("causalAction"));
        QWidget* resample = toolButton(find<QAction>("resampleAction"));
        QVERIFY(!causal->isEnabled());
        QVERIFY(!resample->isEnabled());
        QVERIFY2(find<QAction>("causalAction")->toolTip().contains(QLatin1String("demo layer")),
                 qPrintable(find<QAction>("causalAction")->toolTip()));
        // A click does nothing, and Ctrl+K neither.
        const bool causal_before = w_->document()->causal();
        QTest::mouseClick(causal, Qt::LeftButton);
        QTest::keyClick(w_.get(), Qt::Key_K, Qt::ControlModifier);
        QTest::qWait(1);
        QCOMPARE(w_->document()->causal(), causal_before);

        // Back to the demo layer in the Source box: they come back.
        chooseSource(0);
        SETTLE(*w_);
        QVERIFY(!w_->document()->computeConfig().usesModel());
        for (const char* name : names)
            QVERIFY2(find<QAction>(name)->isEnabled(), name);
        QVERIFY(causal->isEnabled());
        QVERIFY(resample->isEnabled());
        QCOMPARE(find<QAction>("causalAction")->toolTip(), QStringLiteral("Causal Mask"));
        QTest::mouseClick(causal, Qt::LeftButton);
        QTRY_COMPARE(w_->document()->causal(), !causal_before);
    }

    // --- the example banner ---------------------------------------------------------------

    void theExampleBannerSaysWhenTheTextIsTheUsers() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        QVERIFY(openExample("induction_head"));
        ViewTabs* views = w_->views();
        QVERIFY(views->explanationVisible());
        QLabel* note = views->explanationNote();
        QPushButton* restore = views->restoreExampleButton();
        QVERIFY(note->isHidden());
        QVERIFY(restore->isHidden());
        const QString example_text = w_->document()->textA();

        // A text of one's own: the banner stays (the example invites it) but says so.
        typeSentence(QStringLiteral("abcdabcd"));
        SETTLE(*w_);
        QCOMPARE(w_->document()->textA(), QStringLiteral("abcdabcd"));
        QVERIFY(views->explanationVisible());
        QVERIFY(note->isVisible());
        QVERIFY2(note->text().contains(QLatin1String("example's text")), qPrintable(note->text()));
        QVERIFY(restore->isVisible());
        // One click brings the example's text back, and the note goes.
        QTest::mouseClick(restore, Qt::LeftButton);
        QCOMPARE(w_->document()->textA(), example_text);
        QTRY_COMPARE(find<QLineEdit>("sentenceEdit")->text(), example_text);
        QVERIFY(note->isHidden());
        QVERIFY(restore->isHidden());

        // Another source: the explanation of this model's heads would be wrong; it closes.
        chooseSource(0);
        SETTLE(*w_);
        QVERIFY(!w_->document()->computeConfig().usesModel());
        QVERIFY(!views->explanationVisible());

        // An example on the demo layer keeps its banner when the model is kept.
        QVERIFY(openExample("learned_heads"));
        QVERIFY(views->explanationVisible());
        QVERIFY(note->isHidden());
    }

    // --- wording ------------------------------------------------------------------------------

    void theLayerBoxReadsInTheUsersLanguage() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        QVERIFY(openExample("learned_heads"));
        auto* layer = find<QSpinBox>("layerSpin");
        w_->document()->setLayer(1);
        QTRY_COMPARE(layer->value(), 2);
        QCOMPARE(layer->text(), QStringLiteral("Layer 2"));
        NumberInsideTranslator chinese;
        QVERIFY(QCoreApplication::installTranslator(&chinese));
        QTest::qWait(1);
        const QString translated = layer->text();
        QCoreApplication::removeTranslator(&chinese);
        QCOMPARE(translated, QStringLiteral("第 2 层"));
        QTest::qWait(1);
        QCOMPARE(layer->text(), QStringLiteral("Layer 2"));
    }

    void anAttentionOnlyModelRunsNoMlp() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        QVERIFY(openExample("learned_heads"));
        w_->views()->setCurrentTab(ViewTabs::StepsTab);
        QVERIFY(QTest::qWaitFor([&] { return test::settled(*w_) && snap()->steps; }, 60000));
        const StepsModel& steps = w_->views()->steps()->figure()->model();
        QVERIFY(!steps.stages.empty());
        const QString last = steps.stages.back().explanation;
        QVERIFY2(last.contains(QLatin1String("no MLP")), qPrintable(last));
        QVERIFY2(!last.contains(QLatin1String("runs its MLP")), qPrintable(last));

        // The bilingual model has MLPs.
        chooseSource(find<QComboBox>("sourceCombo")
                         ->findData(shipped_model(QStringLiteral("char-zh-en-4l"))));
        QVERIFY(QTest::qWaitFor(
            [&] {
                return test::settled(*w_) && snap()->model && snap()->steps &&
                       w_->document()->computeConfig().model_folder.endsWith(
                           QLatin1String("char-zh-en-4l"));
            },
            60000));
        auto last_explanation = [&] {
            const StepsModel& m = w_->views()->steps()->figure()->model();
            return m.stages.empty() ? QString() : m.stages.back().explanation;
        };
        QTRY_VERIFY2(last_explanation().contains(QLatin1String("runs its MLP")),
                     qPrintable(last_explanation()));
    }

    void theEmptyModelTabsNameTheShippedModels() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        QVERIFY(!w_->document()->computeConfig().usesModel());
        for (const QString& text :
             {w_->views()->modelView()->placeholderText(), AtlasView::placeholderText()}) {
            QVERIFY2(text.contains(QLatin1String("Source box")), qPrintable(text));
            QVERIFY2(text.contains(QLatin1String("attn-only-2l")), qPrintable(text));
            QVERIFY2(text.contains(QLatin1String("char-zh-en-4l")), qPrintable(text));
        }
        // The Source box lists them, as the text says.
        auto* source = find<QComboBox>("sourceCombo");
        for (const QString& folder : shipped_model_folders())
            QVERIFY2(source->findData(folder) > 0, qPrintable(folder));
    }

    void theAtlasHasOneName() {
        QTabWidget* tabs = w_->views()->tabs();
        const QString tab = tabs->tabText(ViewTabs::AtlasTab);
        QAction* menu = nullptr;
        for (QAction* a : w_->actions())
            if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_7)) menu = a;
        QVERIFY(menu);
        QCOMPARE(QString(menu->text()).remove(QLatin1Char('&')), tab);
    }

    // --- the Atlas table ------------------------------------------------------------------

    void theAtlasTableKeepsLayerAndHeadInSight() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        // The window's default size (MainWindow::restoreLayout).
        w_->resize(1480, 940);
        QVERIFY(openExample("learned_heads"));
        w_->views()->setCurrentTab(ViewTabs::AtlasTab);
        AtlasView* atlas = w_->views()->atlasView();
        QTableWidget* table = atlas->table();
        QTableView* frozen = atlas->frozenColumns();
        QTRY_COMPARE(table->rowCount(), 16);
        QTest::qWait(1);
        // Every column fits at the default size: none is off-screen.
        int columns = 0;
        for (int c = 0; c < table->columnCount(); ++c)
            columns += table->columnWidth(c);
        QVERIFY2(columns <= table->viewport()->width(),
                 qPrintable(QStringLiteral("%1 px of columns in %2 px")
                                .arg(columns)
                                .arg(table->viewport()->width())));
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);

        // Narrower, the table scrolls sideways and Layer and Head stay where they are.
        QCOMPARE(frozen->model(), table->model());
        QVERIFY(frozen->isVisible());
        QCOMPARE(frozen->width(), table->columnWidth(0) + table->columnWidth(1));
        w_->resize(900, 700);
        QTRY_VERIFY(table->horizontalScrollBar()->maximum() > 0);
        table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
        QTest::qWait(1);
        QVERIFY(table->visualRect(table->model()->index(0, 0)).right() < 0 ||
                table->visualRect(table->model()->index(0, 1)).left() < frozen->width());
        QVERIFY(frozen->isVisible());
        QCOMPARE(frozen->geometry().left(), table->frameWidth());
        const QModelIndex layer = frozen->indexAt(QPoint(4, frozen->rowViewportPosition(0) + 2));
        QCOMPARE(layer.column(), 0);
        QVERIFY(!frozen->isColumnHidden(1));
        QVERIFY(frozen->isColumnHidden(2));
        // Scrolling down moves both together.
        w_->resize(900, 500);
        QTRY_VERIFY(table->verticalScrollBar()->maximum() > 0);
        table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum());
        QCOMPARE(frozen->verticalScrollBar()->value(), table->verticalScrollBar()->value());

        // A click on the frozen Head header sorts the table by head.
        QHeaderView* header = frozen->horizontalHeader();
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                          QPoint(header->sectionViewportPosition(1) + 5, header->height() / 2));
        QTRY_COMPARE(table->horizontalHeader()->sortIndicatorSection(), 1);
        QCOMPARE(table->item(0, 1)->data(Qt::UserRole).toInt(), 1);
        QCOMPARE(table->item(1, 1)->data(Qt::UserRole).toInt(), 1);

        // A click on a frozen cell opens that head, as a click in the table does.
        table->verticalScrollBar()->setValue(0);
        QTest::qWait(1);
        const int row = 1;
        const int want_layer = table->item(row, 0)->data(Qt::UserRole).toInt() - 1;
        const int want_head = table->item(row, 1)->data(Qt::UserRole).toInt() - 1;
        const QRect cell = frozen->visualRect(frozen->model()->index(row, 1));
        QTest::mouseClick(frozen->viewport(), Qt::LeftButton, {}, cell.center());
        QTRY_COMPARE(w_->document()->computeConfig().layer, want_layer);
        QCOMPARE(w_->document()->viewHead(), want_head);
        QCOMPARE(w_->views()->currentTab(), ViewTabs::GridTab);
    }

    // --- characters a model does not know ------------------------------------------------

    void unknownCharactersAreSaidAndTheBilingualModelOffered() {
        if (shipped_model(QStringLiteral("char-zh-en-4l")).isEmpty())
            QSKIP("the shipped models are not built");
        // The English attention-only model, as the window opens.
        QVERIFY(openExample("learned_heads"));
        QLabel* unknown = w_->inputPanel()->unknownLabel();
        QPushButton* bilingual = w_->inputPanel()->bilingualButton();
        QVERIFY(unknown->isHidden());
        QVERIFY(bilingual->isHidden());

        // Twelve Chinese characters: every one is <unk> to it.
        const QString chinese = QStringLiteral("我爱自然语言处理，猫坐着。");
        QCOMPARE(chinese.size(), 13);
        auto* edit = find<QLineEdit>("sentenceEdit");
        edit->setFocus();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Delete);
        QInputMethodEvent event;
        event.setCommitString(chinese.left(12));
        QCoreApplication::sendEvent(edit, &event);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return test::settled(*w_) && snap()->model &&
                       snap()->model->text_a == chinese.left(12);
            },
            60000));
        QVERIFY(unknown->isVisible());
        QVERIFY2(unknown->text().startsWith(
                     QLatin1String("12 of 12 characters are unknown to this model")),
                 qPrintable(unknown->text()));
        QVERIFY(bilingual->isVisible());

        // Mixed: only the Chinese ones.
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("cat "));
        QInputMethodEvent more;
        more.setCommitString(QStringLiteral("猫"));
        QCoreApplication::sendEvent(edit, &more);
        QVERIFY(QTest::qWaitFor(
            [&] { return test::settled(*w_) && snap()->model->text_a == QStringLiteral("cat 猫"); },
            60000));
        QVERIFY2(unknown->text().startsWith(QLatin1String("1 of 4 characters")),
                 qPrintable(unknown->text()));

        // The button opens the bilingual model, which knows them: the warning goes.
        QSignalSpy loaded(w_->modelSource(), &ModelSource::loadFinished);
        QTest::mouseClick(bilingual, Qt::LeftButton);
        QVERIFY(!loaded.isEmpty() || loaded.wait(30000));  // it may already have come
        QVERIFY(loaded.front().front().toBool());
        QVERIFY(QTest::qWaitFor(
            [&] {
                return test::settled(*w_) && snap()->model &&
                       snap()->model->folder.endsWith(QLatin1String("char-zh-en-4l"));
            },
            60000));
        QCOMPARE(snap()->model->unknown_chars, 0);
        QVERIFY(unknown->isHidden());
        QVERIFY(bilingual->isHidden());
        QCOMPARE(w_->document()->textA(), QStringLiteral("cat 猫"));

        // The demo layer has no <unk>: nothing to say.
        chooseSource(0);
        SETTLE(*w_);
        QVERIFY(unknown->isHidden());
    }

    // --- Steps after View ▸ Language --------------------------------------------------------

    void stepsComeBackAfterALanguageSwitch() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        w_.reset();  // this test's windows come from the switcher
        LanguageSwitcher switcher(settings_.get());
        MainWindow* en = switcher.start(QStringLiteral("en"));
        en->setConfirmOnClose(false);
        en->show();
        QVERIFY(QTest::qWaitForWindowExposed(en));
        QVERIFY(en->loadExample(QStringLiteral("learned_heads")));
        en->views()->setCurrentTab(ViewTabs::StepsTab);
        QVERIFY(QTest::qWaitFor(
            [&] {
                const SnapshotPtr s = en->compute()->latest();
                return test::settled(*en) && s && s->model && s->steps;
            },
            60000));
        QVERIFY(en->views()->steps()->figure()->message().isEmpty());

        // View ▸ Language ▸ 简体中文 while the Steps tab is open.
        auto* chinese = en->findChild<QAction*>(QStringLiteral("languageChinese"));
        QVERIFY(chinese);
        QPointer<MainWindow> old(en);
        chinese->trigger();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QVERIFY(old.isNull());
        MainWindow* zh = switcher.window();
        zh->setConfirmOnClose(false);
        QCOMPARE(zh->views()->currentTab(), ViewTabs::StepsTab);
        const bool came = QTest::qWaitFor(
            [&] {
                const SnapshotPtr s = zh->compute()->latest();
                return test::settled(*zh) && s && s->model && s->steps;
            },
            60000);
        const QString message = zh->views()->steps()->figure()->message();
        // Back to English before anything can fail, for the tests after this one.
        auto* english = zh->findChild<QAction*>(QStringLiteral("languageEnglish"));
        QVERIFY(english);
        english->trigger();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        switcher.window()->setConfirmOnClose(false);
        QVERIFY2(came, qPrintable(QStringLiteral("the Steps tab still says: ") + message));
        QVERIFY2(message.isEmpty(), qPrintable(message));
    }
};

QTEST_MAIN(NewUserTest)
#include "ui_newuser_test.moc"
