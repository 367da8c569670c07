#include "ui/widgets/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>
#include <exception>
#include <map>

#include "ui/classroom/compare_view.h"
#include "ui/classroom/examples.h"
#include "ui/classroom/steps_view.h"
#include "ui/classroom/view_tabs.h"
#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/i18n/language.h"
#include "ui/model/model_source.h"
#include "ui/render/heatmap_figure.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/controls_panel.h"
#include "ui/widgets/figure_exports.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/input_panel.h"
#include "ui/widgets/memory_guard.h"
#include "ui/widgets/scope_bar.h"
#include "ui/widgets/session_files.h"

namespace attnviz::ui {

MainWindow::MainWindow(AppSettings* settings, QWidget* parent, AttentionDocument* document)
    : QMainWindow(parent) {
    if (!settings) {
        own_settings_ = std::make_unique<AppSettings>();
        settings = own_settings_.get();
    }
    settings_ = settings;
    setObjectName(QStringLiteral("MainWindow"));

    if (document) {
        doc_ = document;
        doc_->setParent(this);
    } else {
        doc_ = new AttentionDocument(this);
        doc_->setColormap(settings_->defaultColormap());
    }
    compute_ = new ComputeController(this);
    exports_ = new FigureExports(this, settings_);
    models_ = new ModelSource(doc_, settings_, this);
    connect(models_, &ModelSource::failed, this, &MainWindow::showError);
    setAcceptDrops(true);

    inputs_ = new InputPanel(doc_, this);
    controls_ = new ControlsPanel(doc_, this);
    grid_ = new HeatmapGridView(this);
    grid_->setObjectName(QStringLiteral("heatmapGrid"));

    // The left column: the open model described, then the demo layer's controls (disabled,
    // saying why, while a model is the source).
    auto* left = new QWidget(this);
    auto* left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    left_layout->addWidget(models_->infoPanel());
    left_layout->addWidget(controls_, 1);
    auto* controls_scroll = new QScrollArea(this);
    controls_scroll->setWidget(left);
    controls_scroll->setWidgetResizable(true);
    controls_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controls_scroll->setMinimumWidth(controls_->sizeHint().width() + 24);
    controls_scroll->setFrameShape(QFrame::NoFrame);

    auto* right = new QWidget(this);
    auto* right_layout = new QVBoxLayout(right);
    right_layout->setContentsMargins(0, 0, 0, 0);
    right_layout->setSpacing(0);
    right_layout->addWidget(inputs_);
    scope_bar_ = new ScopeBar(doc_, right);
    right_layout->addWidget(scope_bar_);
    views_ = new ViewTabs(doc_, grid_, right);
    right_layout->addWidget(views_, 1);

    splitter_ = new QSplitter(Qt::Horizontal, this);
    splitter_->addWidget(controls_scroll);
    splitter_->addWidget(right);
    splitter_->setStretchFactor(0, 0);
    splitter_->setStretchFactor(1, 1);
    splitter_->setCollapsible(1, false);
    setCentralWidget(splitter_);
    sessions_ = new SessionFiles(this, doc_, settings_, splitter_);
    connect(sessions_, &SessionFiles::titleChanged, this, &MainWindow::updateTitle);

    createActions();
    createMenus();
    createToolBar();
    createStatusBar();
    createClassroomActions();

    // The memory budget: set before the first request; Attention ▸ Memory Budget….
    guard_ = new MemoryGuard(this, doc_, compute_, settings_, scope_bar_);
    connect(guard_, &MemoryGuard::warning, this,
            [this](const QString& message) { statusBar()->showMessage(message, 15000); });
    connect(guard_, &MemoryGuard::budgetChanged, views_->compare(), &CompareView::setMemoryBudget);
    guard_->reloadBudget();
    for (QAction* a : menuBar()->actions())
        if (a->menu() && a->menu()->actions().contains(causal_act_)) {
            a->menu()->addSeparator();
            a->menu()->addAction(guard_->budgetAction());
        }

    // Document -> compute -> grid.
    connect(doc_, &AttentionDocument::computeConfigChanged, this,
            [this] { compute_->request(doc_->computeConfig()); });
    connect(doc_, &AttentionDocument::figureOptionsChanged, this, [this] {
        const FigureOptions o = doc_->figureOptions();
        compute_->setFigureHints(o.colormap, o.scale);
        // New colours: the worker colours the maps, and the grid takes the options with them
        // (resultReady), so the GUI thread never recolours every cell itself.
        const FigureOptions& shown = grid_->figure()->options();
        const bool colours = o.colormap != shown.colormap || o.scale != shown.scale;
        const SnapshotPtr s = compute_->latest();
        recolor_pending_ = colours && s &&
                           std::size_t(s->batch) * (s->heads + 1) * s->target_len * s->source_len >=
                               kRecolorOnWorkerCells &&
                           compute_->recolor();
        if (!recolor_pending_) grid_->setOptions(o);
        syncViewControls();
    });
    connect(doc_, &AttentionDocument::settingsChanged, this, &MainWindow::syncViewControls);
    auto follow_source = [this] {
        const bool model = doc_->computeConfig().usesModel();
        controls_->setModelSource(model);
        inputs_->setModelSource(model);
        scope_bar_->setEnabled(!model);
    };
    connect(doc_, &AttentionDocument::modelFolderChanged, this, follow_source);
    follow_source();
    connect(compute_, &ComputeController::resultReady, this, [this](const SnapshotPtr& s) {
        if (s->model) doc_->setModelHeads(s->model->heads_kept);
        models_->setSnapshot(s);
        if (recolor_pending_) {
            recolor_pending_ = false;
            grid_->setSnapshot(s, compute_->latestMaps(), doc_->figureOptions());
        } else {
            grid_->setSnapshot(s, compute_->latestMaps());
        }
        grid_->setMessage(QString());
        views_->setSnapshot(s, compute_->latestStatistics());
        timing_label_->setText(tr("%1 × %2 tokens · %3 heads · %4 ms")
                                   .arg(s->target_len)
                                   .arg(s->source_len)
                                   .arg(s->heads)
                                   .arg(s->elapsed_ms, 0, 'f', 1));
        syncViewControls();
    });
    connect(compute_, &ComputeController::failed, this, [this](const QString& message) {
        if (recolor_pending_) {
            recolor_pending_ = false;
            grid_->setOptions(doc_->figureOptions());
        }
        grid_->setMessage(message);
        statusBar()->showMessage(message, 8000);
    });
    connect(compute_, &ComputeController::busyChanged, this, [this](bool busy) {
        if (busy) {
            progress_delay_->start();
        } else {
            progress_delay_->stop();
            progress_->hide();
        }
    });
    connect(compute_, &ComputeController::progressChanged, this,
            [this](int percent, const QString& stage) {
                progress_->setValue(percent);
                progress_->setFormat(stage);
            });

    // Grid interactions -> document.
    connect(grid_, &HeatmapGridView::headClicked, this, [this](int head) {
        doc_->setView(head < 0 ? FigureView::Mean : FigureView::Head, std::max(head, 0));
    });
    connect(grid_, &HeatmapGridView::backToGridRequested, this,
            [this] { doc_->setView(FigureView::Grid); });
    connect(grid_, &HeatmapGridView::keyLabelClicked, doc_, &AttentionDocument::toggleMaskedKey);
    connect(grid_, &HeatmapGridView::hovered, hover_label_, &QLabel::setText);
    connect(views_, &ViewTabs::hovered, hover_label_, &QLabel::setText);
    connect(views_, &ViewTabs::failed, this, &MainWindow::showError);
    connect(views_, &ViewTabs::stepsShown, compute_, &ComputeController::setModelSteps);
    connect(views_, &ViewTabs::modelHeadActivated, this, [this](int layer, int head) {
        doc_->setLayer(layer);
        if (head < 0 || head >= doc_->viewableHeads())  // a head without maps: the mean
            doc_->setView(FigureView::Mean, 0);
        else
            doc_->setView(FigureView::Head, head);
        views_->setCurrentTab(ViewTabs::GridTab);
    });
    connect(views_, &ViewTabs::headActivated, this, [this](int head) {
        doc_->setView(FigureView::Head, head);
        views_->setCurrentTab(ViewTabs::GridTab);
    });
    connect(controls_, &ControlsPanel::loadWeightsRequested, exports_,
            &FigureExports::loadWeightsDialog);

    grid_->setOptions(doc_->figureOptions());
    compute_->setFigureHints(doc_->colormap(), doc_->scaleMode());
    compute_->request(doc_->computeConfig());
    restoreLayout();
    // Start on the heatmaps, so the shortcuts work before anything is clicked.
    grid_->setFocusPolicy(Qt::StrongFocus);
    grid_->setFocus();
    updateTitle();
    syncViewControls();
}

MainWindow::~MainWindow() = default;

void MainWindow::openModel(const QString& folder) {
    models_->load(folder);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile()) return;
    const QString path = urls.front().toLocalFile();
    event->acceptProposedAction();
    if (QFileInfo(path).isDir())
        models_->load(path);
    else if (sessions_->maybeSave())
        sessions_->openSession(path);
}

// --- actions ------------------------------------------------------------------------------

void MainWindow::createActions() {
    auto make = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    new_act_ = make(tr("&New Session"), QKeySequence::New, [this] {
        if (sessions_->maybeSave()) sessions_->newSession();
    });
    open_act_ = make(tr("&Open Session…"), QKeySequence::Open, [this] { sessions_->openDialog(); });
    save_act_ = make(tr("&Save Session"), QKeySequence::Save, [this] { sessions_->save(); });
    save_as_act_ =
        make(tr("Save Session &As…"), QKeySequence::SaveAs, [this] { sessions_->saveAs(); });
    export_act_ = make(tr("&Export Figure…"), QKeySequence(tr("Ctrl+E")),
                       [this] { exports_->exportFigureDialog(); });
    export_weights_act_ = make(tr("Export &Weights…"), QKeySequence(tr("Ctrl+Shift+E")),
                               [this] { exports_->exportWeightsDialog(); });
    copy_act_ =
        make(tr("&Copy Figure"), QKeySequence(tr("Ctrl+Shift+C")), [this] { copyFigure(); });
    quit_act_ = make(tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    grid_act_ = make(tr("&All Heads"), QKeySequence(tr("Ctrl+G")),
                     [this] { doc_->setView(FigureView::Grid); });
    mean_act_ = make(tr("&Mean over Heads"), QKeySequence(tr("Ctrl+M")),
                     [this] { doc_->setView(FigureView::Mean); });
    next_head_act_ = make(tr("&Next Head"), QKeySequence(tr("Ctrl+]")), [this] { stepHead(1); });
    prev_head_act_ =
        make(tr("&Previous Head"), QKeySequence(tr("Ctrl+[")), [this] { stepHead(-1); });
    back_act_ = make(tr("&Back to All Heads"), QKeySequence(Qt::Key_Escape),
                     [this] { doc_->setView(FigureView::Grid); });
    reset_zoom_act_ =
        make(tr("&Reset Zoom"), QKeySequence(tr("Ctrl+0")), [this] { grid_->resetZoom(); });

    causal_act_ = make(tr("&Causal Mask"), QKeySequence(tr("Ctrl+K")),
                       [this] { doc_->setCausal(!doc_->causal()); });
    causal_act_->setCheckable(true);
    training_act_ = make(tr("&Training Mode"), QKeySequence(tr("Ctrl+T")),
                         [this] { doc_->setTraining(!doc_->training()); });
    training_act_->setCheckable(true);
    resample_act_ = make(tr("&Resample Dropout"), QKeySequence(tr("Ctrl+R")), [this] {
        if (!doc_->training()) doc_->setTraining(true);
        doc_->resampleDropout();
    });
    clear_masks_act_ = make(tr("C&lear Masked Keys"), QKeySequence(tr("Ctrl+Shift+K")),
                            [this] { doc_->clearMaskedKeys(); });
    load_weights_act_ = make(tr("&Load Weights…"), QKeySequence(tr("Ctrl+L")),
                             [this] { exports_->loadWeightsDialog(); });
    about_act_ = make(tr("&About AttnViz"), QKeySequence(), [this] {
        QMessageBox::about(
            this, tr("About AttnViz"),
            tr("<h3>AttnViz %1</h3><p>Look inside multi-head attention: one heatmap per head, "
               "live masks, dropout and head counts, and figures for slides and papers.</p>"
               "<p>Hover a cell to read it; click a head to enlarge it; click a token label "
               "to mask that key; scroll to zoom and drag to pan.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(new_act_);
    file->addAction(open_act_);
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(models_->openAction());
    file->addMenu(models_->recentMenu());
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
    sessions_->setRecentMenu(recent_menu_);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(grid_act_);
    view->addAction(mean_act_);
    view->addAction(next_head_act_);
    view->addAction(prev_head_act_);
    view->addAction(back_act_);
    view->addSeparator();
    view->addAction(reset_zoom_act_);
    view->addSeparator();
    QMenu* language = create_language_menu(settings_->language(), this);
    view->addMenu(language);
    connect(language, &QMenu::triggered, this, [this](QAction* a) {
        settings_->setLanguage(a->data().toString());
        emit languageRequested(a->data().toString());
    });

    QMenu* attention = menuBar()->addMenu(tr("&Attention"));
    attention->addAction(causal_act_);
    attention->addAction(clear_masks_act_);
    attention->addSeparator();
    attention->addAction(training_act_);
    attention->addAction(resample_act_);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(about_act_);
}

void MainWindow::createToolBar() {
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->addAction(open_act_);
    bar->addAction(save_act_);
    bar->addSeparator();
    models_->addToToolBar(bar);
    bar->addSeparator();
    bar->addAction(export_act_);
    bar->addAction(copy_act_);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Show: "), bar));
    view_combo_ = new QComboBox(bar);
    view_combo_->setObjectName(QStringLiteral("viewCombo"));
    view_combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(view_combo_);
    connect(view_combo_, &QComboBox::activated, this, [this] {
        const int v = view_combo_->currentData().toInt();
        if (v == -2)
            doc_->setView(FigureView::Grid);
        else if (v == -1)
            doc_->setView(FigureView::Mean);
        else
            doc_->setView(FigureView::Head, v);
    });
    item_combo_ = new QComboBox(bar);
    item_combo_->setObjectName(QStringLiteral("batchItemCombo"));
    item_combo_->addItem(tr("Sentence 1"), 0);
    item_combo_->addItem(tr("Sentence 2"), 1);
    item_combo_action_ = bar->addWidget(item_combo_);
    connect(item_combo_, &QComboBox::activated, this,
            [this] { doc_->setBatchItem(item_combo_->currentData().toInt()); });
    bar->addAction(reset_zoom_act_);
    bar->addSeparator();
    bar->addAction(causal_act_);
    bar->addAction(resample_act_);
}

void MainWindow::createStatusBar() {
    hover_label_ = new QLabel(this);
    hover_label_->setObjectName(QStringLiteral("hoverLabel"));
    hover_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    timing_label_ = new QLabel(this);
    timing_label_->setObjectName(QStringLiteral("timingLabel"));
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("computeProgress"));
    progress_->setMaximumWidth(220);
    progress_->setRange(0, 100);
    progress_->setTextVisible(true);
    progress_->hide();
    // Quick updates never flash a progress bar; only work longer than this shows one.
    progress_delay_ = new QTimer(this);
    progress_delay_->setSingleShot(true);
    progress_delay_->setInterval(150);
    connect(progress_delay_, &QTimer::timeout, this, [this] {
        if (compute_->isBusy()) progress_->show();
    });
    statusBar()->addWidget(hover_label_, 1);
    statusBar()->addPermanentWidget(models_->progressWidget());
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(timing_label_);
}

void MainWindow::syncViewControls() {
    // Only the heads whose weights are kept can be shown one by one.
    const int heads = doc_->viewableHeads();
    {
        const QSignalBlocker b(view_combo_);
        if (view_combo_->count() != heads + 2) {
            view_combo_->clear();
            view_combo_->addItem(tr("All heads"), -2);
            view_combo_->addItem(tr("Mean over heads"), -1);
            for (int h = 0; h < heads; ++h)
                view_combo_->addItem(tr("Head %1").arg(h + 1), h);
        }
        const int v = doc_->view() == FigureView::Grid   ? -2
                      : doc_->view() == FigureView::Mean ? -1
                                                         : doc_->viewHead();
        view_combo_->setCurrentIndex(view_combo_->findData(v));
    }
    {
        const QSignalBlocker b(item_combo_);
        item_combo_->setCurrentIndex(doc_->batchItem());
    }
    item_combo_action_->setVisible(doc_->pairMode() == PairMode::PaddedBatch);
    causal_act_->setChecked(doc_->causal());
    training_act_->setChecked(doc_->training());
    back_act_->setEnabled(doc_->view() != FigureView::Grid && !presenting_);
}

void MainWindow::stepHead(int delta) {
    if (views_->currentTab() == ViewTabs::CompareTab) {
        views_->compare()->stepHead(delta);
        return;
    }
    const int heads = doc_->viewableHeads();
    if (heads == 0) return;  // the mean only: no head to step to
    int h =
        doc_->view() == FigureView::Head ? doc_->viewHead() + delta : (delta > 0 ? 0 : heads - 1);
    h = (h + heads) % heads;
    doc_->setView(FigureView::Head, h);
}

void MainWindow::takeOverFrom(const MainWindow& previous) {
    sessions_->takeOver(*previous.sessions_);
    restoreGeometry(previous.saveGeometry());
    restoreState(previous.saveState());
    splitter_->restoreState(previous.splitter_->saveState());
    // The view the class is looking at, and presentation mode (the step, focus and heads are
    // in the document already).
    views_->setCurrentTab(previous.views_->currentTab());
    presentation_act_->setChecked(previous.presenting_);
    updateTitle();
    syncViewControls();
}

// --- errors, title, layout ----------------------------------------------------------------

void MainWindow::showError(const QString& title, const QString& text) {
    last_error_ = text;
    statusBar()->showMessage(text, 10000);
    if (error_box_) error_box_->close();
    // Window-modal and non-blocking: the message is in front, the app keeps running.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    error_box_ = box;
    box->open();
}

void MainWindow::updateTitle() {
    const QString file = sessions_->file();
    const QString name = file.isEmpty() ? tr("Untitled") : QFileInfo(file).fileName();
    setWindowTitle(tr("%1[*] — AttnViz").arg(name));
    setWindowModified(sessions_->isModified());
}

void MainWindow::restoreLayout() {
    const QByteArray geometry = settings_->windowGeometry();
    if (geometry.isEmpty() || !restoreGeometry(geometry)) {
        // A generous default that leaves room around the window.
        QSize size(1480, 940);
        if (const QScreen* screen = QGuiApplication::primaryScreen()) {
            const QSize avail = screen->availableGeometry().size();
            size = size.boundedTo(avail * 0.92);
        }
        resize(size);
        splitter_->setSizes({340, size.width() - 340});
    }
    restoreState(settings_->windowState());
    const QByteArray splitter = settings_->splitterState();
    if (!splitter.isEmpty()) splitter_->restoreState(splitter);
}

void MainWindow::saveLayout() {
    settings_->setWindowGeometry(saveGeometry());
    settings_->setWindowState(saveState());
    settings_->setSplitterState(splitter_->saveState());
    settings_->sync();
}

QString MainWindow::dialogDirectory() const {
    if (const QString file = sessions_->file(); !file.isEmpty())
        return QFileInfo(file).absolutePath();
    return settings_->lastDirectory();
}

void MainWindow::rememberDirectory(const QString& path) {
    settings_->setLastDirectory(QFileInfo(path).absolutePath());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!sessions_->maybeSave()) {
        event->ignore();
        return;
    }
    saveLayout();
    event->accept();
}

// --- sessions (SessionFiles) -------------------------------------------------------------

bool MainWindow::openSession(const QString& path) {
    return sessions_->openSession(path);
}

bool MainWindow::saveSessionTo(const QString& path) {
    return sessions_->saveSessionTo(path);
}

QString MainWindow::currentFile() const {
    return sessions_->file();
}

void MainWindow::setConfirmOnClose(bool on) {
    sessions_->setConfirm(on);
}

// --- files: exports and weights (FigureExports) ------------------------------------------

bool MainWindow::exportFigureTo(const QString& path, const ExportSize& size,
                                const FigureOptions& options) {
    return exports_->exportFigureTo(path, size, options);
}

bool MainWindow::exportWeightsTo(const QString& path) {
    return exports_->exportWeightsTo(path);
}

bool MainWindow::loadWeightsFrom(const QString& path) {
    return exports_->loadWeightsFrom(path);
}

void MainWindow::copyFigure() {
    exports_->copyFigure();
}

// --- the classroom: views, examples, presentation -----------------------------------------

void MainWindow::createClassroomActions() {
    // Ctrl+1..7 switch the views, also in presentation mode.
    const QString names[] = {tr("&Heatmaps"), tr("&Steps"), tr("&Lines"),     tr("S&tatistics"),
                             tr("&Compare"),  tr("&Model"), tr("Head &Atlas")};
    QMenu* view = nullptr;
    for (QAction* a : menuBar()->actions())
        if (a->menu() && a->menu()->actions().contains(grid_act_)) view = a->menu();
    if (view) view->addSeparator();
    for (int k = 0; k < int(std::size(names)); ++k) {
        auto* a = new QAction(names[k], this);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + k)));
        connect(a, &QAction::triggered, this,
                [this, k] { views_->setCurrentTab(ViewTabs::Tab(k)); });
        addAction(a);
        if (view) view->addAction(a);
    }
    presentation_act_ = new QAction(tr("&Presentation Mode"), this);
    presentation_act_->setObjectName(QStringLiteral("presentationAction"));
    presentation_act_->setShortcut(QKeySequence(Qt::Key_F5));
    presentation_act_->setCheckable(true);
    connect(presentation_act_, &QAction::toggled, this, &MainWindow::setPresentation);
    addAction(presentation_act_);
    if (view) {
        view->addSeparator();
        view->addAction(presentation_act_);
    }

    // Keys of presentation mode: only active while presenting, so they never take the arrow
    // keys from a text box.
    auto key = [this](const QList<QKeySequence>& keys, auto slot) {
        auto* a = new QAction(this);
        a->setShortcuts(keys);
        a->setEnabled(false);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        presentation_keys_.push_back(a);
    };
    key({QKeySequence(Qt::Key_Escape)}, [this] { presentation_act_->setChecked(false); });
    key({QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_Space)}, [this] {
        if (views_->currentTab() == ViewTabs::StepsTab)
            views_->steps()->stepBy(1);
        else
            stepHead(1);
    });
    key({QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_Backspace)}, [this] {
        if (views_->currentTab() == ViewTabs::StepsTab)
            views_->steps()->stepBy(-1);
        else
            stepHead(-1);
    });
    key({QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::Key_Down)}, [this] { stepHead(1); });
    key({QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::Key_Up)}, [this] { stepHead(-1); });
    key({QKeySequence(Qt::Key_C)}, [this] { doc_->setCausal(!doc_->causal()); });
    key({QKeySequence(Qt::Key_D)}, [this] {
        if (!doc_->training()) doc_->setTraining(true);
        doc_->resampleDropout();
    });
    key({QKeySequence(Qt::Key_G)}, [this] { doc_->setView(FigureView::Grid); });

    // Examples: each a session in the resources with an explanation for the banner.
    examples_menu_ = new QMenu(tr("E&xamples"), this);
    examples_menu_->setObjectName(QStringLiteral("examplesMenu"));
    std::map<QString, QMenu*> groups;
    bool separated = false;
    for (const Example& e : builtin_examples()) {
        // The examples on trained models after a line: they open a model, not the demo layer.
        if (e.trained && !separated) {
            examples_menu_->addSeparator();
            separated = true;
        }
        QMenu* menu = examples_menu_;
        if (!e.menu_group.isEmpty()) {
            QMenu*& group = groups[e.menu_group];
            if (!group) group = examples_menu_->addMenu(e.menu_group);
            menu = group;
        }
        QAction* a = menu->addAction(e.title);
        a->setData(e.id);
        connect(a, &QAction::triggered, this, [this, id = e.id] {
            if (sessions_->maybeSave()) loadExample(id);
        });
    }
    // Before Help, which stays last.
    const QList<QAction*> menus = menuBar()->actions();
    menuBar()->insertMenu(menus.isEmpty() ? nullptr : menus.last(), examples_menu_);
    // ATTNVIZ_EXAMPLE / ATTNVIZ_PRESENT are read once at start-up, in ui/entry.cpp.
}

FigureOptions MainWindow::currentFigureOptions() const {
    FigureOptions options = doc_->figureOptions();
    options.kind = views_->currentKind();
    if (options.kind == FigureKind::Compare) {
        // The comparison has its own head: the mean, or a head both configurations have.
        const int head = doc_->compare().head;
        options.view = head < 0 ? FigureView::Mean : FigureView::Head;
        options.head = std::max(0, head);
    }
    return options;
}

ViewTabs* MainWindow::views() const {
    return views_;
}

bool MainWindow::loadExample(const QString& id) {
    for (const Example& e : builtin_examples()) {
        if (e.id != id) continue;
        QString error;
        // An example is a new, untitled session: saving asks for a name.
        if (!sessions_->load([&] { return load_session(e.resource, doc_, nullptr, &error); },
                             QString())) {
            showError(tr("Cannot open the example"), error);
            return false;
        }
        ViewTabs::Tab tab = ViewTabs::GridTab;
        if (ViewTabs::tabFromName(e.tab, &tab)) views_->setCurrentTab(tab);
        views_->showExplanation(e.title, e.explanation);
        updateTitle();
        return true;
    }
    return false;
}

int MainWindow::presentationPixelSize() const {
    // Token labels of at least 24 pt, readable from the back of a room.
    return int(std::ceil(24.0 * logicalDpiY() / 72.0));
}

void MainWindow::setPresentation(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    {
        const QSignalBlocker b(presentation_act_);
        presentation_act_->setChecked(on);
    }
    for (QAction* a : presentation_keys_)
        a->setEnabled(on);
    // Everything but the views is an advanced control: hidden while presenting.
    QWidget* controls = splitter_->widget(0);
    if (on) {
        was_maximized_ = isMaximized();
        controls->hide();
        inputs_->hide();
        scope_bar_->hide();
        for (QToolBar* bar : findChildren<QToolBar*>())
            bar->hide();
        menuBar()->hide();
        statusBar()->hide();
        views_->setPresentation(presentationPixelSize());
        // A presentation walks through the steps from the first, and shows one head at a time
        // (every token labelled at 24 pt); G brings all heads back.
        if (doc_->step() < 0) doc_->setStep(0);
        if (doc_->view() == FigureView::Grid) doc_->setView(FigureView::Head, doc_->viewHead());
        showFullScreen();
    } else {
        controls->show();
        inputs_->show();
        scope_bar_->show();
        for (QToolBar* bar : findChildren<QToolBar*>())
            bar->show();
        menuBar()->show();
        statusBar()->show();
        views_->setPresentation(0);
        if (was_maximized_)
            showMaximized();
        else
            showNormal();
    }
    syncViewControls();
    if (QWidget* w = views_->tabs()->currentWidget()) w->setFocus();
}

}  // namespace attnviz::ui
