#include "ui/widgets/window_actions.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QToolBar>
#include <QUndoStack>

#include <iterator>
#include <map>

#include "ui/classroom/compare_view.h"
#include "ui/classroom/examples.h"
#include "ui/document/attention_document.h"
#include "ui/i18n/language.h"
#include "ui/model/corpus_source.h"
#include "ui/model/model_source.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/document_history.h"
#include "ui/widgets/figure_exports.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/session_files.h"
#include "ui/widgets/view_tabs.h"

namespace attnviz::ui {

WindowActions::WindowActions(QMainWindow* window, const Parts& parts)
    : QObject(window), window_(window), p_(parts) {
    createActions();
    createMenus();
    createToolBar();
    createViewShortcuts();
    createExamplesMenu();
}

void WindowActions::createActions() {
    auto make = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, window_);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        window_->addAction(a);
        return a;
    };
    new_act_ = make(tr("&New Session"), QKeySequence::New, [this] {
        if (p_.sessions->maybeSave()) p_.sessions->newSession();
    });
    open_act_ =
        make(tr("&Open Session…"), QKeySequence::Open, [this] { p_.sessions->openDialog(); });
    save_act_ = make(tr("&Save Session"), QKeySequence::Save, [this] { p_.sessions->save(); });
    save_as_act_ =
        make(tr("Save Session &As…"), QKeySequence::SaveAs, [this] { p_.sessions->saveAs(); });
    export_act_ = make(tr("&Export Figure…"), QKeySequence(tr("Ctrl+E")),
                       [this] { p_.exports->exportFigureDialog(); });
    export_weights_act_ = make(tr("Export &Weights…"), QKeySequence(tr("Ctrl+Shift+E")),
                               [this] { p_.exports->exportWeightsDialog(); });
    copy_act_ = make(tr("&Copy Figure"), QKeySequence(tr("Ctrl+Shift+C")),
                     [this] { p_.exports->copyFigure(); });
    quit_act_ = make(tr("&Quit"), QKeySequence::Quit, [this] { window_->close(); });

    undo_act_ = p_.history->stack()->createUndoAction(window_, tr("&Undo"));
    undo_act_->setShortcut(QKeySequence::Undo);
    undo_act_->setObjectName(QStringLiteral("undoAction"));
    redo_act_ = p_.history->stack()->createRedoAction(window_, tr("&Redo"));
    redo_act_->setShortcut(QKeySequence::Redo);
    redo_act_->setObjectName(QStringLiteral("redoAction"));
    window_->addAction(undo_act_);
    window_->addAction(redo_act_);

    grid_act_ = make(tr("&All Heads"), QKeySequence(tr("Ctrl+G")),
                     [this] { p_.document->setView(FigureView::Grid); });
    mean_act_ = make(tr("&Mean over Heads"), QKeySequence(tr("Ctrl+M")),
                     [this] { p_.document->setView(FigureView::Mean); });
    next_head_act_ = make(tr("&Next Head"), QKeySequence(tr("Ctrl+]")), [this] { stepHead(1); });
    prev_head_act_ =
        make(tr("&Previous Head"), QKeySequence(tr("Ctrl+[")), [this] { stepHead(-1); });
    back_act_ = make(tr("&Back to All Heads"), QKeySequence(Qt::Key_Escape),
                     [this] { p_.document->setView(FigureView::Grid); });
    reset_zoom_act_ =
        make(tr("&Reset Zoom"), QKeySequence(tr("Ctrl+0")), [this] { p_.grid->resetZoom(); });

    causal_act_ = make(tr("&Causal Mask"), QKeySequence(tr("Ctrl+K")),
                       [this] { p_.document->setCausal(!p_.document->causal()); });
    causal_act_->setCheckable(true);
    training_act_ = make(tr("&Training Mode"), QKeySequence(tr("Ctrl+T")),
                         [this] { p_.document->setTraining(!p_.document->training()); });
    training_act_->setCheckable(true);
    resample_act_ = make(tr("&Resample Dropout"), QKeySequence(tr("Ctrl+R")), [this] {
        if (!p_.document->training()) p_.document->setTraining(true);
        p_.document->resampleDropout();
    });
    clear_masks_act_ = make(tr("C&lear Masked Keys"), QKeySequence(tr("Ctrl+Shift+K")),
                            [this] { p_.document->clearMaskedKeys(); });
    causal_act_->setObjectName(QStringLiteral("causalAction"));
    training_act_->setObjectName(QStringLiteral("trainingAction"));
    resample_act_->setObjectName(QStringLiteral("resampleAction"));
    clear_masks_act_->setObjectName(QStringLiteral("clearMasksAction"));
    // Weights | norm-based: two exclusive states, each with its shortcut.
    weights_act_ = make(tr("Show Attention &Weights"), QKeySequence(tr("Ctrl+Shift+W")),
                        [this] { p_.document->setAttentionShown(AttentionShown::Weights); });
    norm_act_ = make(tr("Show &Norm-Based Attention"), QKeySequence(tr("Ctrl+Shift+N")),
                     [this] { p_.document->setAttentionShown(AttentionShown::NormBased); });
    auto* shown = new QActionGroup(this);
    for (QAction* a : {weights_act_, norm_act_}) {
        a->setCheckable(true);
        shown->addAction(a);
    }
    weights_act_->setIconText(tr("Weights"));  // the tool bar's words: weights | norm-based
    norm_act_->setIconText(tr("Norm-based"));
    weights_act_->setObjectName(QStringLiteral("attentionWeightsAction"));
    norm_act_->setObjectName(QStringLiteral("attentionNormAction"));
    load_weights_act_ = make(tr("&Load Weights…"), QKeySequence(tr("Ctrl+L")),
                             [this] { p_.exports->loadWeightsDialog(); });
    about_act_ = make(tr("&About AttnViz"), QKeySequence(), [this] {
        QMessageBox::about(
            window_, tr("About AttnViz"),
            tr("<h3>AttnViz %1</h3><p>Look inside multi-head attention: one heatmap per head, "
               "live masks, dropout and head counts, and figures for slides and papers.</p>"
               "<p>Hover a cell to read it; click a head to enlarge it; click a token label "
               "to mask that key; scroll to zoom and drag to pan.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });
}

void WindowActions::createMenus() {
    QMenu* file = window_->menuBar()->addMenu(tr("&File"));
    file->addAction(new_act_);
    file->addAction(open_act_);
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    file->addAction(p_.models->openAction());
    file->addAction(p_.models->openMapsAction());
    file->addAction(p_.models->compareMapsAction());
    if (p_.corpus) {  // heads across a corpus: on the open model
        file->addAction(p_.corpus->openAction());
        file->addAction(p_.corpus->historyAction());
    }
    file->addMenu(p_.models->recentMenu());
    file->addMenu(p_.models->localMenu());
    file->addAction(save_act_);
    file->addAction(save_as_act_);
    file->addSeparator();
    file->addAction(export_act_);
    file->addAction(export_weights_act_);
    file->addAction(copy_act_);
    file->addSeparator();
    file->addAction(load_weights_act_);
    file->addSeparator();
    file->addAction(quit_act_);
    p_.sessions->setRecentMenu(recent);

    QMenu* edit = window_->menuBar()->addMenu(tr("&Edit"));
    edit->addAction(undo_act_);
    edit->addAction(redo_act_);

    QMenu* view = view_menu_ = window_->menuBar()->addMenu(tr("&View"));
    view->addAction(grid_act_);
    view->addAction(mean_act_);
    view->addAction(next_head_act_);
    view->addAction(prev_head_act_);
    view->addAction(back_act_);
    view->addSeparator();
    view->addAction(reset_zoom_act_);
    view->addSeparator();
    QMenu* language = create_language_menu(p_.settings->language(), window_);
    view->addMenu(language);
    connect(language, &QMenu::triggered, this, [this](QAction* a) {
        p_.settings->setLanguage(a->data().toString());
        emit languageRequested(a->data().toString());
    });

    QMenu* attention = attention_menu_ = window_->menuBar()->addMenu(tr("&Attention"));
    attention->addAction(causal_act_);
    attention->addAction(clear_masks_act_);
    attention->addSeparator();
    attention->addAction(training_act_);
    attention->addAction(resample_act_);
    attention->addSeparator();
    attention->addAction(weights_act_);
    attention->addAction(norm_act_);

    QMenu* help = window_->menuBar()->addMenu(tr("&Help"));
    help->addAction(about_act_);
}

void WindowActions::createToolBar() {
    QToolBar* bar = window_->addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->addAction(open_act_);
    bar->addAction(save_act_);
    bar->addSeparator();
    p_.models->addToToolBar(bar);
    bar->addSeparator();
    // Beside the source, before the bar's end that a narrow window folds away.
    bar->addAction(weights_act_);
    bar->addAction(norm_act_);
    bar->addSeparator();
    bar->addAction(export_act_);
    bar->addAction(copy_act_);
    bar->addSeparator();
    // The label and its box in one widget, so that a narrow window folds them into the bar's
    // » menu together (at 1280 px in English it once kept "Show:" and folded its box away).
    auto* chooser = new QWidget(bar);
    chooser->setObjectName(QStringLiteral("viewChooser"));
    auto* row = new QHBoxLayout(chooser);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0);
    row->addWidget(new QLabel(tr(" Show: "), chooser));
    view_combo_ = new QComboBox(chooser);
    view_combo_->setObjectName(QStringLiteral("viewCombo"));
    view_combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    row->addWidget(view_combo_);
    bar->addWidget(chooser);
    connect(view_combo_, &QComboBox::activated, this, [this] {
        const int v = view_combo_->currentData().toInt();
        if (v == -2)
            p_.document->setView(FigureView::Grid);
        else if (v == -1)
            p_.document->setView(FigureView::Mean);
        else
            p_.document->setView(FigureView::Head, v);
    });
    item_combo_ = new QComboBox(bar);
    item_combo_->setObjectName(QStringLiteral("batchItemCombo"));
    item_combo_->addItem(tr("Sentence 1"), 0);
    item_combo_->addItem(tr("Sentence 2"), 1);
    item_combo_action_ = bar->addWidget(item_combo_);
    connect(item_combo_, &QComboBox::activated, this,
            [this] { p_.document->setBatchItem(item_combo_->currentData().toInt()); });
    bar->addAction(reset_zoom_act_);
    bar->addSeparator();
    bar->addAction(causal_act_);
    bar->addAction(resample_act_);
}

void WindowActions::sync(bool presenting) {
    // Only the heads whose weights are kept can be shown one by one.
    const int heads = p_.document->viewableHeads();
    {
        const QSignalBlocker b(view_combo_);
        if (view_combo_->count() != heads + 2) {
            view_combo_->clear();
            view_combo_->addItem(tr("All heads"), -2);
            view_combo_->addItem(tr("Mean over heads"), -1);
            for (int h = 0; h < heads; ++h)
                view_combo_->addItem(tr("Head %1").arg(h + 1), h);
        }
        const int v = p_.document->view() == FigureView::Grid   ? -2
                      : p_.document->view() == FigureView::Mean ? -1
                                                                : p_.document->viewHead();
        view_combo_->setCurrentIndex(view_combo_->findData(v));
    }
    {
        const QSignalBlocker b(item_combo_);
        item_combo_->setCurrentIndex(p_.document->batchItem());
    }
    item_combo_action_->setVisible(p_.document->pairMode() == PairMode::PaddedBatch);
    causal_act_->setChecked(p_.document->causal());
    training_act_->setChecked(p_.document->training());
    // The mask, dropout and clicked keys are the demo layer's: a trained model has its own
    // mask and no dropout, so they would do nothing.
    const bool demo = !p_.document->computeConfig().usesModel();
    for (QAction* a : {causal_act_, training_act_, resample_act_, clear_masks_act_}) {
        a->setEnabled(demo);
        a->setToolTip(demo ? QString()
                           : tr("%1: for the demo layer only (choose “Demo layer” in the Source "
                                "box); a trained model has its own mask and no dropout")
                                 .arg(QString(a->text()).remove(QLatin1Char('&'))));
    }
    back_act_->setEnabled(p_.document->view() != FigureView::Grid && !presenting);
    syncAttentionShown();
}

void WindowActions::syncAttentionShown() {
    // Maps read from a file are the weights someone computed: no values to weigh them by.
    const bool maps = p_.document->computeConfig().usesMaps();
    const bool norm = !maps && p_.document->attentionShown() == AttentionShown::NormBased;
    weights_act_->setChecked(!norm);
    norm_act_->setChecked(norm);
    norm_act_->setEnabled(!maps);
    weights_act_->setToolTip(tr("Show the attention weights α: how much each query reads each "
                                "key (%1)")
                                 .arg(weights_act_->shortcut().toString(QKeySequence::NativeText)));
    norm_act_->setToolTip(
        maps ? tr("Norm-based maps need the model's values: attention maps read from a file "
                  "hold only the weights")
             : tr("Show ‖α·f(x)‖ instead of α: how much each key's value actually moves the "
                  "output (Kobayashi et al. 2020) (%1)")
                   .arg(norm_act_->shortcut().toString(QKeySequence::NativeText)));
}

void WindowActions::stepHead(int delta) {
    if (p_.views->currentTab() == ViewTabs::CompareTab) {
        p_.views->compare()->stepHead(delta);
        return;
    }
    const int heads = p_.document->viewableHeads();
    if (heads == 0) return;  // the mean only: no head to step to
    int h = p_.document->view() == FigureView::Head ? p_.document->viewHead() + delta
                                                    : (delta > 0 ? 0 : heads - 1);
    h = (h + heads) % heads;
    p_.document->setView(FigureView::Head, h);
}

void WindowActions::createViewShortcuts() {
    // Ctrl+1..7 switch the views, also in presentation mode.
    const QString names[] = {tr("&Heatmaps"), tr("&Steps"), tr("&Lines"),     tr("S&tatistics"),
                             tr("&Compare"),  tr("&Model"), tr("Head &Atlas")};
    view_menu_->addSeparator();
    for (int k = 0; k < int(std::size(names)); ++k) {
        auto* a = new QAction(names[k], window_);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + k)));
        connect(a, &QAction::triggered, this,
                [this, k] { p_.views->setCurrentTab(ViewTabs::Tab(k)); });
        window_->addAction(a);
        view_menu_->addAction(a);
    }
}

void WindowActions::createExamplesMenu() {
    // Examples: each a session in the resources with an explanation for the banner.
    auto* examples = new QMenu(tr("E&xamples"), window_);
    examples->setObjectName(QStringLiteral("examplesMenu"));
    std::map<QString, QMenu*> groups;
    bool separated = false;
    for (const Example& e : builtin_examples()) {
        // The examples on trained models after a line: they open a model, not the demo layer.
        if (e.trained && !separated) {
            examples->addSeparator();
            separated = true;
        }
        QMenu* menu = examples;
        if (!e.menu_group.isEmpty()) {
            QMenu*& group = groups[e.menu_group];
            if (!group) group = examples->addMenu(e.menu_group);
            menu = group;
        }
        QAction* a = menu->addAction(e.title);
        a->setData(e.id);
        connect(a, &QAction::triggered, this, [this, id = e.id] {
            if (p_.sessions->maybeSave()) emit exampleRequested(id);
        });
    }
    // Before Help, which stays last.
    const QList<QAction*> menus = window_->menuBar()->actions();
    window_->menuBar()->insertMenu(menus.isEmpty() ? nullptr : menus.last(), examples);
    // ATTNVIZ_EXAMPLE / ATTNVIZ_PRESENT are read once at start-up, in ui/entry.cpp.
}

}  // namespace attnviz::ui
