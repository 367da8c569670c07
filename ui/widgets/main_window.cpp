#include "ui/widgets/main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/classroom/compare_view.h"
#include "ui/classroom/examples.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/error_text.h"
#include "ui/compute/full_map_source.h"
#include "ui/compute/generation_runner.h"
#include "ui/compute/resolved_config.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/document/shipped_models.h"
#include "ui/model/corpus_source.h"
#include "ui/model/dla_view.h"
#include "ui/model/generation_panel.h"
#include "ui/model/model_panel.h"
#include "ui/model/model_source.h"
#include "ui/model/model_view.h"
#include "ui/model/patch_view.h"
#include "ui/model/predictions_view.h"
#include "ui/model/qk_view.h"
#include "ui/render/heatmap_figure.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/controls_panel.h"
#include "ui/widgets/document_history.h"
#include "ui/widgets/figure_exports.h"
#include "ui/widgets/full_map_window.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/input_panel.h"
#include "ui/widgets/knock_out_menu.h"
#include "ui/widgets/memory_guard.h"
#include "ui/widgets/presentation_mode.h"
#include "ui/widgets/scope_bar.h"
#include "ui/widgets/session_files.h"
#include "ui/widgets/view_tabs.h"
#include "ui/widgets/window_actions.h"

namespace attnviz::ui {

namespace {
/// A QScrollArea sizes its widget from the widget's minimum size alone, ignoring the height
/// its word-wrapped labels need at the width they get: a label that wraps to more lines once
/// the column narrows (the generated text, in Chinese) was squeezed instead of scrolled.  This
/// one keeps the widget at least as tall as its layout needs at the viewport's width.
class WrappingScrollArea : public QScrollArea {
  public:
    using QScrollArea::QScrollArea;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == widget() && event->type() == QEvent::LayoutRequest) fitWidget();
        return QScrollArea::eventFilter(watched, event);
    }
    void resizeEvent(QResizeEvent* event) override {
        QScrollArea::resizeEvent(event);
        fitWidget();
    }

  private:
    void fitWidget() {
        QWidget* w = widget();
        if (!w || !w->layout() || !w->layout()->hasHeightForWidth()) return;
        const int needed = w->layout()->totalHeightForWidth(viewport()->width());
        if (needed != w->minimumHeight()) w->setMinimumHeight(needed);
    }
};
}  // namespace

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
    createParts();
    QWidget* controls = createLayout();
    createActions(controls);
    connectCompute();
    connectGrid();
    connectViews();

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

/// The document's helpers, the worker, the exports, the models, the panels and the grid.
void MainWindow::createParts() {
    doc_->setTokenResolver(resolve_tokens);
    compute_ = new ComputeController(this);
    compute_->setMapPreparer([](const AttentionSnapshot& s, Colormap colormap, ScaleMode scale) {
        return std::make_shared<PreparedMaps>(build_prepared_maps(s, colormap, scale));
    });
    exports_ = new FigureExports(this, settings_);
    models_ = new ModelSource(doc_, settings_, this);
    connect(models_, &ModelSource::failed, this, &MainWindow::showError);
    setAcceptDrops(true);

    inputs_ = new InputPanel(doc_, this);
    controls_ = new ControlsPanel(doc_, this);
    grid_ = new HeatmapGridView(this);
    grid_->setObjectName(QStringLiteral("heatmapGrid"));
}

/// The left column (the model's panel or the demo's controls, scrolled) beside the text, the
/// scope bar and the views; the session files, which keep the splitter.  Returns the column.
QWidget* MainWindow::createLayout() {
    // The left column: the open model described and its own panel (focus, knocked-out heads,
    // predictions) while a model is the source; else the demo layer's controls.
    auto* left = new QWidget(this);
    auto* left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    left_layout->addWidget(models_->infoPanel());
    model_panel_ = new ModelPanel(doc_, left);
    left_layout->addWidget(model_panel_);
    left_layout->addWidget(controls_, 1);
    auto* controls_scroll = new WrappingScrollArea(this);
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
    connect(sessions_, &SessionFiles::titleChanged, this, &MainWindow::sessionChanged);
    models_->setOpener(
        [this](const std::function<void()>& change) { sessions_->openInto(change); });
    return controls_scroll;
}

/// The menus and their actions, the history, presentation mode, the status bar and the memory
/// budget.  `controls`: the left column, which presentation mode hides.
void MainWindow::createActions(QWidget* controls) {
    WindowActions::Parts parts;
    parts.document = doc_;
    parts.sessions = sessions_;
    parts.exports = exports_;
    parts.models = models_;
    parts.grid = grid_;
    parts.views = views_;
    parts.settings = settings_;
    history_ = new DocumentHistory(doc_, this);
    connect(sessions_, &SessionFiles::loaded, history_, &DocumentHistory::clear);
    parts.history = history_;
    corpus_ = new CorpusSource(this, doc_, compute_, history_);
    parts.corpus = corpus_;
    actions_ = new WindowActions(this, parts);
    connect(actions_, &WindowActions::languageRequested, this, &MainWindow::languageRequested);
    connect(actions_, &WindowActions::exampleRequested, this, &MainWindow::loadExample);
    presentation_ = new PresentationMode(
        this, doc_, views_, {controls, inputs_, scope_bar_},
        [this](int delta) { actions_->stepHead(delta); }, actions_->viewMenu());
    connect(presentation_, &PresentationMode::changed, this, &MainWindow::syncViewControls);
    createStatusBar();

    // The memory budget: set before the first request; Attention ▸ Memory Budget….
    guard_ = new MemoryGuard(this, doc_, compute_, settings_, scope_bar_);
    connect(guard_, &MemoryGuard::warning, this,
            [this](const QString& message) { statusBar()->showMessage(message, 15000); });
    connect(guard_, &MemoryGuard::budgetChanged, views_->compare(), &CompareView::setMemoryBudget);
    // Two maps files: B is chosen from the File menu or the Compare view's editor, and shown.
    connect(models_, &ModelSource::comparedMapsOpened, this,
            [this] { views_->setCurrentTab(ViewTabs::CompareTab); });
    connect(views_->compare(), &CompareView::chooseMapsRequested, models_->compareMapsAction(),
            &QAction::trigger);
    guard_->reloadBudget();
    actions_->attentionMenu()->addSeparator();
    actions_->attentionMenu()->addAction(guard_->budgetAction());
}

/// Document -> compute -> grid, and the writer's rows into the maps.
void MainWindow::connectCompute() {
    connect(doc_, &AttentionDocument::computeConfigChanged, this, &MainWindow::requestComputation);
    connect(doc_, &AttentionDocument::figureOptionsChanged, this, &MainWindow::applyFigureOptions);
    connect(doc_, &AttentionDocument::settingsChanged, this, &MainWindow::syncViewControls);
    connect(doc_, &AttentionDocument::modelFolderChanged, this, &MainWindow::followSource);
    followSource();
    // The writer's rows extend the maps while it writes; a full pass follows when it stops.
    GenerationRunner* writer = model_panel_->generation()->runner();
    compute_->setGenerationFeed(writer->feed());
    connect(writer, &GenerationRunner::ended, compute_, &ComputeController::settle);
    connect(compute_, &ComputeController::resultReady, this, &MainWindow::showResult);
    connect(compute_, &ComputeController::failed, this, &MainWindow::showComputeFailure);
    connect(compute_, &ComputeController::busyChanged, this, &MainWindow::showBusy);
    connect(compute_, &ComputeController::progressChanged, this,
            [this](int percent, const QString& stage) {
                progress_->setValue(percent);
                progress_->setFormat(stage);
            });
}

void MainWindow::requestComputation() {
    // A long pass is announced (the recovery copy is written) before it starts.
    if (!compute_->lastRequest() || !(*compute_->lastRequest() == doc_->computeConfig()))
        guard_->aboutToCompute(doc_->computeConfig());
    compute_->request(doc_->computeConfig());
}

void MainWindow::applyFigureOptions() {
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
}

/// A model, attention maps or the demo layer: the panels that go with it.
void MainWindow::followSource() {
    const bool model = doc_->computeConfig().usesModel();
    controls_->setModelSource(model);
    model_panel_->setVisible(model);
    inputs_->setModelSource(model);
    // Attention maps read from a file come with their tokens: there is no text to type.
    const bool maps = doc_->computeConfig().usesMaps();
    inputs_->setEnabled(!maps);
    inputs_->setToolTip(maps ? tr("The tokens are those of the attention maps' tokens file.")
                             : QString());
}

void MainWindow::showResult(const SnapshotPtr& s) {
    if (s->model) doc_->setModelHeads(s->model->heads_kept);
    std::vector<std::string> file_tokens;  // attention maps: the tokens file's, on show
    if (s->model && s->config.usesMaps())
        for (const QString& t : s->model->token_text)
            file_tokens.push_back(t.toStdString());
    inputs_->showFileTokens(file_tokens);
    models_->setSnapshot(s);
    // Characters the model reads as <unk>: said under the tokens, with the bilingual model.
    const QString bilingual = shipped_model(QStringLiteral("char-zh-en-4l"));
    inputs_->setUnknownCharacters(s->model ? s->model->unknown_chars : 0,
                                  s->model ? s->model->text_chars : 0,
                                  s->model && !bilingual.isEmpty() &&
                                      QFileInfo(s->model->folder).absoluteFilePath() != bilingual);
    if (recolor_pending_) {
        recolor_pending_ = false;
        grid_->setSnapshot(s, compute_->latestMaps(), doc_->figureOptions());
    } else {
        grid_->setSnapshot(s, compute_->latestMaps());
    }
    grid_->setMessage(QString());
    if (s->model && !s->model->warning.isEmpty() && s->model->warning != maps_warning_) {
        maps_warning_ = s->model->warning;  // said once per file, not on every layer
        statusBar()->showMessage(tr("Warning: %1").arg(maps_warning_), 15000);
    }
    views_->setSnapshot(s, compute_->latestStatistics());
    model_panel_->setSnapshot(s);
    // Mean only (the memory budget's offer) keeps no head: "mean of 8 heads", not "0 heads".
    const int all_heads = std::max(s->num_heads, s->heads);
    const QString heads = s->heads == 0          ? tr("mean of %n head(s)", nullptr, all_heads)
                          : s->heads < all_heads ? tr("%1 of %2 heads").arg(s->heads).arg(all_heads)
                                                 : tr("%n head(s)", nullptr, all_heads);
    timing_label_->setText(tr("%1 × %2 tokens · %3 · %4 ms")
                               .arg(s->target_len)
                               .arg(s->source_len)
                               .arg(heads)
                               .arg(s->elapsed_ms, 0, 'f', 1));
    syncViewControls();
}

void MainWindow::showComputeFailure(const QString& message) {
    if (recolor_pending_) {
        recolor_pending_ = false;
        grid_->setOptions(doc_->figureOptions());
    }
    grid_->setMessage(message);
    statusBar()->showMessage(message, 8000);
}

void MainWindow::showBusy(bool busy) {
    if (busy) {
        progress_delay_->start();
    } else {
        progress_delay_->stop();
        progress_->hide();
        cancel_compute_->hide();
    }
}

/// Grid interactions -> document; knocking heads out and whole maps, from any map.
void MainWindow::connectGrid() {
    connect(grid_, &HeatmapGridView::headClicked, this, [this](int head) {
        doc_->setView(head < 0 ? FigureView::Mean : FigureView::Head, std::max(head, 0));
    });
    connect(grid_, &HeatmapGridView::backToGridRequested, this,
            [this] { doc_->setView(FigureView::Grid); });
    connect(grid_, &HeatmapGridView::keyLabelClicked, doc_, &AttentionDocument::toggleMaskedKey);
    connect(grid_, &HeatmapGridView::hovered, hover_label_, &QLabel::setText);
    // Knocking a model's heads out, from the grid of a layer, the Model tab or Who Writes.
    knock_out_ = new KnockOutMenu(doc_, this);
    connect(grid_, &HeatmapGridView::headMenuRequested, knock_out_, &KnockOutMenu::popup);
    connect(grid_, &HeatmapGridView::knockOutToggled, knock_out_, &KnockOutMenu::toggle);
    connect(views_->modelView(), &ModelView::headMenuRequested, knock_out_, &KnockOutMenu::popup);
    connect(views_->modelView(), &ModelView::knockOutToggled, knock_out_, &KnockOutMenu::toggle);
    connect(views_->dlaView(), &DlaView::headMenuRequested, knock_out_, &KnockOutMenu::popup);
    connect(views_->dlaView(), &DlaView::knockOutToggled, knock_out_, &KnockOutMenu::toggle);
    // A head's whole map, zoomable, from its context menu (grid, Model tab, Atlas).
    connect(knock_out_, &KnockOutMenu::fullMapRequested, this,
            qOverload<int, int>(&MainWindow::openFullMap));
    connect(views_, &ViewTabs::fullMapRequested, this,
            qOverload<int, int>(&MainWindow::openFullMap));
    connect(views_, &ViewTabs::sourcedFullMapRequested, this,
            qOverload<FullMapSourcePtr, int, int>(&MainWindow::openFullMap));
    // A line of the Flow: the head's map around the query the line arrives at.
    connect(views_, &ViewTabs::fullMapAtQueryRequested, this,
            [this](int layer, int head, int query, int key) {
                if (FullMapWindow* w = openFullMap(layer, head)) w->showQuery(query, key);
            });
    // The strip under the maps chooses the position the predictions box shows.
    connect(grid_->predictionStrip(), &PredictionStrip::pieceHovered, model_panel_->predictions(),
            &PredictionsBox::setHoverPiece);
    connect(grid_->predictionStrip(), &PredictionStrip::pieceClicked, model_panel_->predictions(),
            &PredictionsBox::setFocusPiece);
    // So does hovering a row (a query token) of any map, of a layer or of the Model tab.
    connect(grid_, &HeatmapGridView::pieceHovered, model_panel_->predictions(),
            &PredictionsBox::setHoverPiece);
    connect(views_->modelView(), &ModelView::pieceHovered, model_panel_->predictions(),
            &PredictionsBox::setHoverPiece);
}

/// The views' requests: hover text, errors, what the worker must add, heads to show.
void MainWindow::connectViews() {
    connect(views_, &ViewTabs::hovered, hover_label_, &QLabel::setText);
    connect(views_, &ViewTabs::failed, this, &MainWindow::showError);
    connect(views_, &ViewTabs::stepsShown, compute_, &ComputeController::setModelSteps);
    connect(views_, &ViewTabs::lensShown, compute_, &ComputeController::setModelLens);
    connect(views_, &ViewTabs::traceWanted, compute_, &ComputeController::setModelTrace);
    compute_->setModelTrace(views_->wantedTrace());
    compute_->setModelSteps(views_->layerStepsShown());
    connect(views_, &ViewTabs::modelHeadActivated, this, &MainWindow::showModelHead);
    connect(views_, &ViewTabs::headActivated, this, [this](int head) {
        doc_->setView(FigureView::Head, head);
        views_->setCurrentTab(ViewTabs::GridTab);
    });
    // Heads across a corpus: measured, shown in the Atlas; an example or a point opens its text.
    connect(corpus_, &CorpusSource::failed, this, &MainWindow::showError);
    connect(corpus_, &CorpusSource::measured, this, [this](bool, bool head_run) {
        if (!head_run) views_->setCurrentTab(ViewTabs::AtlasTab);
    });
    connect(corpus_, &CorpusSource::headRunChanged, views_->qkView(), &QkView::setComputing);
    connect(views_, &ViewTabs::corpusTextRequested, corpus_, &CorpusSource::openText);
    connect(views_, &ViewTabs::corpusHeadRequested, corpus_, &CorpusSource::measureHead);
    connect(inputs_, &InputPanel::bilingualModelRequested, this,
            [this] { models_->load(shipped_model(QStringLiteral("char-zh-en-4l"))); });
    connect(controls_, &ControlsPanel::loadWeightsRequested, exports_,
            &FigureExports::loadWeightsDialog);
}

void MainWindow::showModelHead(int layer, int head) {
    // A layer measured but not kept (the Atlas of a pass that keeps the first layers):
    // the head's map, recomputed, rather than a kept layer's heatmaps.
    const SnapshotPtr s = compute_->latest();
    if (s && s->model && layer >= s->model->num_layers) {
        if (head >= 0) openFullMap(layer, head);
        return;
    }
    doc_->setLayer(layer);
    if (head < 0 || head >= doc_->viewableHeads())  // a head without maps: the mean
        doc_->setView(FigureView::Mean, 0);
    else
        doc_->setView(FigureView::Head, head);
    views_->setCurrentTab(ViewTabs::GridTab);
}

MainWindow::~MainWindow() = default;

void MainWindow::openModel(const QString& folder) {
    models_->load(folder);
}

bool MainWindow::openAttentionMaps(const QString& file, const QString& tokens) {
    return models_->openMaps(file, tokens);
}

FullMapWindow* MainWindow::openFullMap(int layer, int head) {
    const SnapshotPtr s = compute_->latest();
    FullMapSourcePtr source;
    try {
        source = s ? full_map_source(*s) : nullptr;
    } catch (const std::exception& e) {
        showError(tr("Cannot show the full map"), error_text(e));
        return nullptr;
    }
    if (!source) {
        showError(tr("Cannot show the full map"),
                  tr("Full maps are those of a trained model or of attention maps read from a "
                     "file: open one (File ▸ Open Model…, File ▸ Open Attention Maps…)."));
        return nullptr;
    }
    FullMapWindow* window = openFullMap(source, layer, head);
    // The window's pass and its model: Alt-click there explains a cell, as on the maps here.
    window->setWhySource(
        s, s->model && !s->config.usesMaps() ? find_model(s->model->folder) : nullptr);
    return window;
}

FullMapWindow* MainWindow::openFullMap(FullMapSourcePtr source, int layer, int head) {
    auto* window = new FullMapWindow(std::move(source), layer, head, compute_->memoryBudget().bytes,
                                     doc_->colormap(), this);
    connect(window, &FullMapWindow::headFocusRequested, this, &MainWindow::showModelHead);
    window->show();
    return window;
}

QList<FullMapWindow*> MainWindow::fullMapWindows() const {
    return findChildren<FullMapWindow*>(QString(), Qt::FindDirectChildrenOnly);
}

bool MainWindow::compareWithAttentionMaps(const QString& file, const QString& tokens) {
    return models_->compareMaps(file, tokens);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile()) return;
    event->acceptProposedAction();
    openPath(urls.front().toLocalFile());
}

void MainWindow::openPath(const QString& path) {
    if (QFileInfo(path).isDir() || path.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive) ||
        is_attention_maps_path(path))
        models_->load(path);
    else if (sessions_->maybeSave())
        sessions_->openSession(path);
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
    // A model's pass stops at its next layer: a big model's layer takes seconds, not minutes.
    cancel_compute_ = new QPushButton(tr("Cancel"), this);
    cancel_compute_->setObjectName(QStringLiteral("cancelComputeButton"));
    cancel_compute_->setToolTip(tr("Stop the computation (the heatmaps keep what they show)"));
    cancel_compute_->hide();
    connect(cancel_compute_, &QPushButton::clicked, compute_, &ComputeController::cancel);
    connect(progress_delay_, &QTimer::timeout, this, [this] {
        if (!compute_->isBusy()) return;
        progress_->show();
        cancel_compute_->show();
    });
    statusBar()->addWidget(hover_label_, 1);
    statusBar()->addPermanentWidget(models_->progressWidget());
    statusBar()->addPermanentWidget(corpus_->progressWidget());
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_compute_);
    statusBar()->addPermanentWidget(timing_label_);
}

void MainWindow::takeOverFrom(const MainWindow& previous) {
    sessions_->takeOver(*previous.sessions_);
    restoreGeometry(previous.saveGeometry());
    restoreState(previous.saveState());
    splitter_->restoreState(previous.splitter_->saveState());
    // The view the class is looking at, and presentation mode (the step, focus and heads are
    // in the document already).
    views_->setCurrentTab(previous.views_->currentTab());
    views_->takeExplanationFrom(*previous.views_);
    presentation_->setActive(previous.presentation_->active());
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
            // A screen smaller than that (a 1280×800 projector, a small laptop): the window
            // opens maximized (showAsLaunched), so the figure gets every pixel.
            opens_maximized_ = avail.width() < size.width() || avail.height() < size.height();
            size = size.boundedTo(avail * 0.92);
        }
        resize(size);
        splitter_->setSizes({340, size.width() - 340});
    }
    restoreState(settings_->windowState());
    const QByteArray splitter = settings_->splitterState();
    if (!splitter.isEmpty()) splitter_->restoreState(splitter);
}

void MainWindow::showAsLaunched() {
    if (!opens_maximized_) {
        show();
        return;
    }
    // The screen's whole work area first: where no window manager maximizes (a bare X
    // server, some kiosks), the window still fills the screen.
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        setGeometry(screen->availableGeometry());
    showMaximized();
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
    // An export's thread still works with this window's results: close once it has ended.
    if (exports_->isBusy()) {
        event->ignore();
        if (!close_when_idle_) {
            close_when_idle_ = true;
            connect(exports_, &FigureExports::idle, this, &QWidget::close,
                    Qt::ConnectionType(Qt::QueuedConnection | Qt::SingleShotConnection));
        }
        return;
    }
    close_when_idle_ = false;
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

bool MainWindow::restoreSession(const QString& path) {
    return sessions_->restoreSession(path);
}

SessionExtras MainWindow::recoveryExtras() const {
    return sessions_->extras(true);
}

bool MainWindow::hasUnsavedChanges() const {
    return sessions_->isModified();
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

void MainWindow::syncViewControls() {
    actions_->sync(presentation_->active());
}

bool MainWindow::isPresenting() const {
    return presentation_->active();
}

void MainWindow::setPresentation(bool on) {
    presentation_->setActive(on);
}

int MainWindow::presentationPixelSize() const {
    return presentation_->pixelSize();
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
        views_->showExplanation(e);
        if (!e.patch.clean.isEmpty())
            views_->patchView()->setInputs(e.patch.clean, e.patch.corrupt, e.patch.target,
                                           e.patch.distractor, doc_->computeConfig().model_folder);
        if (e.plays) model_panel_->generation()->startPlaying();
        if (!e.corpus.isEmpty()) {
            const QString corpus = CorpusSource::shippedCorpus(e.corpus);
            if (corpus.isEmpty())
                showError(tr("Cannot open the example's corpus"),
                          tr("The corpus %1 that AttnViz ships is missing.").arg(e.corpus));
            else
                corpus_->openExampleCorpus(corpus);
        }
        updateTitle();
        return true;
    }
    return false;
}

}  // namespace attnviz::ui
