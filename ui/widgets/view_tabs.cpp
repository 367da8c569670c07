#include "ui/widgets/view_tabs.h"

#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QFontInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/classroom/compare_view.h"
#include "ui/classroom/examples.h"
#include "ui/classroom/lines_view.h"
#include "ui/classroom/statistics_view.h"
#include "ui/classroom/steps_view.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/model/atlas_view.h"
#include "ui/model/circuits_view.h"
#include "ui/model/dla_view.h"
#include "ui/model/flow_view.h"
#include "ui/model/lens_view.h"
#include "ui/model/model_view.h"
#include "ui/model/patch_view.h"
#include "ui/model/positions_view.h"
#include "ui/model/qk_view.h"
#include "ui/model/why_panel.h"
#include "ui/render/fonts.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/wrapping_row_layout.h"

namespace attnviz::ui {

namespace {
/// The bytes of the maps `s` holds (the layer's, and every kept layer's of a model): what a
/// hidden view that keeps `s` keeps from being freed.
std::uint64_t maps_bytes(const AttentionSnapshot& s) {
    std::size_t floats = s.weights.numel() + s.mean_weights.numel();
    if (s.model)
        for (const std::vector<Tensor>* kept :
             {&s.model->weights, &s.model->means, &s.model->rollout})
            for (const Tensor& t : *kept)
                floats += t.numel();
    return std::uint64_t(floats) * sizeof(float);
}

const char* const kTabNames[] = {"grid",     "steps", "lines", "statistics", "compare",
                                 "model",    "atlas", "lens",  "patch",      "positions",
                                 "circuits", "dla",   "flow",  "qk"};
}  // namespace

ViewTabs::ViewTabs(AttentionDocument* document, HeatmapGridView* grid, QWidget* parent)
    : QWidget(parent), doc_(document), grid_(grid) {
    setObjectName(QStringLiteral("viewTabs"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(createBanner());
    layout->addWidget(createTabs(), 1);
    retranslate();
    // In this order: where several follow one signal of the document (the model folder, the
    // token focus), the banner and the model tab hear it before the trace is announced.
    connectBanner();
    connectModelTab();
    connectViews();
    connectDocument();
    connectCorpus();
}

/// The banner that explains a loaded example: title, fold and close on the first row, the
/// explanation under them, then the note and Restore button.  Hidden until an example opens.
QWidget* ViewTabs::createBanner() {
    banner_ = new QWidget(this);
    banner_->setObjectName(QStringLiteral("exampleBanner"));
    banner_->setAttribute(Qt::WA_StyledBackground);
    banner_->setStyleSheet(
        QStringLiteral("#exampleBanner { background: #e8f1f8; border-left: 6px solid #0072b2; }"));
    // Title and buttons on the first row, the explanation and the note under them across the
    // whole banner: the text wraps to the banner's width, never to the title's (in a row
    // beside the buttons a word-wrapped label was squeezed to its title's width).
    auto* bl = new QGridLayout(banner_);
    bl->setContentsMargins(12, 6, 6, 6);
    bl->setHorizontalSpacing(6);
    bl->setVerticalSpacing(2);
    banner_title_ = new QLabel(banner_);
    banner_title_->setObjectName(QStringLiteral("exampleTitle"));
    banner_title_->setWordWrap(true);
    QFont bold = banner_title_->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    banner_title_->setFont(bold);
    banner_text_ = new QLabel(banner_);
    banner_text_->setObjectName(QStringLiteral("exampleExplanation"));
    banner_text_->setWordWrap(true);
    banner_text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner_text_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QHBoxLayout* note_row = createBannerNote();
    // The explanation folds away to its title: presenting, the figure needs the room (the
    // teacher tells the story), and one click brings the text back.
    banner_fold_ = new QToolButton(banner_);
    banner_fold_->setObjectName(QStringLiteral("exampleFoldButton"));
    banner_fold_->setAutoRaise(true);
    banner_fold_->setCheckable(true);
    banner_fold_->setChecked(true);
    banner_fold_->setArrowType(Qt::UpArrow);
    banner_close_ = new QToolButton(banner_);
    banner_close_->setAutoRaise(true);
    banner_close_->setText(QStringLiteral("✕"));
    bl->addWidget(banner_title_, 0, 0);
    bl->addWidget(banner_fold_, 0, 1, Qt::AlignTop);
    bl->addWidget(banner_close_, 0, 2, Qt::AlignTop);
    bl->addWidget(banner_text_, 1, 0, 1, 3);
    bl->addLayout(note_row, 2, 0, 1, 3);
    bl->setColumnStretch(0, 1);
    banner_->hide();
    return banner_;
}

/// The banner's row that says the text is the user's own, with its Restore button (hidden).
QHBoxLayout* ViewTabs::createBannerNote() {
    // Once the text is the user's own, the explanation no longer describes the figure.
    auto* note_row = new QHBoxLayout;
    banner_note_ = new QLabel(banner_);
    banner_note_->setObjectName(QStringLiteral("exampleNote"));
    banner_note_->setWordWrap(true);
    banner_note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QFont italic = banner_note_->font();
    italic.setItalic(true);
    banner_note_->setFont(italic);
    banner_restore_ = new QPushButton(banner_);
    banner_restore_->setObjectName(QStringLiteral("restoreExampleButton"));
    note_row->addWidget(banner_note_, 1);
    note_row->addWidget(banner_restore_);
    banner_note_->hide();
    banner_restore_->hide();
    return note_row;
}

/// The tab widget and every view in it, in the order of Tab.
QTabWidget* ViewTabs::createTabs() {
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("viewTabWidget"));
    tabs_->setDocumentMode(true);
    steps_ = new StepsView(doc_, tabs_);
    lines_ = new LinesView(doc_, tabs_);
    stats_ = new StatisticsView(tabs_);
    compare_ = new CompareView(doc_, tabs_);
    // The heatmaps and, beside them, the "Why?" pane: hidden until a cell is Alt-clicked, so
    // the maps keep the whole tab until then.  The Model tab's mosaic has it too (placeIn).
    grid_split_ = why_splitter(grid_, tabs_);
    grid_split_->setObjectName(QStringLiteral("gridSplitter"));
    why_ = new WhyPanel(grid_split_);
    why_->hide();
    grid_split_->addWidget(why_);
    tabs_->addTab(grid_split_, QString());
    tabs_->addTab(steps_, QString());
    tabs_->addTab(lines_, QString());
    tabs_->addTab(stats_, QString());
    tabs_->addTab(compare_, QString());
    tabs_->addTab(createModelTab(), QString());
    atlas_ = new AtlasView(tabs_);
    tabs_->addTab(atlas_, QString());
    lens_ = new LensView(tabs_);
    lens_->setColormap(doc_->figureOptions().colormap);
    tabs_->addTab(lens_, QString());
    patch_ = new PatchView(tabs_);
    tabs_->addTab(patch_, QString());
    positions_ = new PositionsView(doc_, tabs_);
    tabs_->addTab(positions_, QString());
    circuits_ = new CircuitsView(tabs_);
    tabs_->addTab(circuits_, QString());
    dla_ = new DlaView(tabs_);
    tabs_->addTab(dla_, QString());
    flow_ = new FlowView(tabs_);
    tabs_->addTab(flow_, QString());
    qk_ = new QkView(tabs_);
    tabs_->addTab(qk_, QString());
    return tabs_;
}

/// The banner's buttons, and the document's changes that close it or show its note.
void ViewTabs::connectBanner() {
    connect(banner_fold_, &QToolButton::toggled, this, &ViewTabs::foldExplanation);
    connect(banner_close_, &QToolButton::clicked, this, &ViewTabs::hideExplanation);
    connect(banner_restore_, &QPushButton::clicked, this, &ViewTabs::restoreExampleText);
    connect(doc_, &AttentionDocument::modelFolderChanged, this, &ViewTabs::followModelFolder);
    for (auto signal :
         {&AttentionDocument::textAChanged, &AttentionDocument::textBChanged,
          &AttentionDocument::tokenListAChanged, &AttentionDocument::tokenListBChanged})
        connect(doc_, signal, this, &ViewTabs::syncExampleNote);
    connect(doc_, &AttentionDocument::useTokenListChanged, this, &ViewTabs::syncExampleNote);
}

/// The model tab's bar writes the document's token focus and thumbnails, and follows them.
void ViewTabs::connectModelTab() {
    connect(all_layers_, &QPushButton::clicked, this, [this] { doc_->setModelScope(-1, -1); });
    connect(focus_mode_, &QComboBox::activated, this, &ViewTabs::applyTokenFocus);
    connect(focus_token_, &QComboBox::activated, this, &ViewTabs::applyTokenFocus);
    connect(doc_, &AttentionDocument::tokenFocusChanged, this, &ViewTabs::syncTokenFocus);
    connect(thumbnails_, &QComboBox::activated, this,
            [this](int index) { doc_->setModelThumbnails(ModelThumbnails(index)); });
    connect(doc_, &AttentionDocument::modelThumbnailsChanged, this, &ViewTabs::syncTokenFocus);
}

/// The views' own signals, passed on as this widget's; and the change of tab.
void ViewTabs::connectViews() {
    connect(steps_, &StepsView::hovered, this, &ViewTabs::hovered);
    connect(lines_, &LinesView::hovered, this, &ViewTabs::hovered);
    connect(compare_, &CompareView::hovered, this, &ViewTabs::hovered);
    connect(model_, &ModelView::hovered, this, &ViewTabs::hovered);
    connect(model_, &ModelView::activated, this, &ViewTabs::modelHeadActivated);
    connect(atlas_, &AtlasView::activated, this, &ViewTabs::modelHeadActivated);
    connect(atlas_, &AtlasView::fullMapRequested, this, &ViewTabs::fullMapRequested);
    connect(atlas_, &AtlasView::hovered, this, &ViewTabs::hovered);
    connect(atlas_, &AtlasView::failed, this, &ViewTabs::failed);
    connect(lens_, &LensView::hovered, this, &ViewTabs::hovered);
    connect(lens_, &LensView::failed, this, &ViewTabs::failed);
    connect(patch_, &PatchView::hovered, this, &ViewTabs::hovered);
    connect(patch_, &PatchView::failed, this, &ViewTabs::failed);
    connect(positions_, &PositionsView::hovered, this, &ViewTabs::hovered);
    connect(positions_, &PositionsView::failed, this, &ViewTabs::failed);
    connect(positions_, &PositionsView::fullMapRequested, this, &ViewTabs::sourcedFullMapRequested);
    connect(circuits_, &CircuitsView::hovered, this, &ViewTabs::hovered);
    connect(circuits_, &CircuitsView::failed, this, &ViewTabs::failed);
    connect(dla_, &DlaView::hovered, this, &ViewTabs::hovered);
    connect(dla_, &DlaView::failed, this, &ViewTabs::failed);
    connect(flow_, &FlowView::hovered, this, &ViewTabs::hovered);
    connect(flow_, &FlowView::failed, this, &ViewTabs::failed);
    // A line of the flow: its head's whole map in a window at its query (the Flow tab stays),
    // or, for every head of a layer summed, that layer's heads.
    connect(flow_, &FlowView::edgeActivated, this, [this](int layer, int head, int query, int key) {
        if (head >= 0)
            emit fullMapAtQueryRequested(layer, head, query, key);
        else
            emit modelHeadActivated(layer, -1);
    });
    // The maps' cells, Alt-clicked or under the mouse, to the one "Why?" pane.
    connect(grid_, &HeatmapGridView::cellExplainRequested, why_, &WhyPanel::explainCell);
    connect(grid_, &HeatmapGridView::cellHovered, why_, &WhyPanel::followCell);
    connect(model_, &ModelView::cellExplainRequested, why_, &WhyPanel::explainCell);
    connect(model_, &ModelView::cellHovered, why_, &WhyPanel::followCell);
    connect(why_, &WhyPanel::headFocusRequested, this, &ViewTabs::modelHeadActivated);
    connect(why_, &WhyPanel::hovered, this, &ViewTabs::hovered);
    connect(why_, &WhyPanel::failed, this, &ViewTabs::failed);
    connect(stats_, &StatisticsView::headActivated, this, &ViewTabs::headActivated);
    connect(stats_, &StatisticsView::failed, this, &ViewTabs::failed);
    connect(tabs_, &QTabWidget::currentChanged, this, &ViewTabs::followCurrentTab);
}

/// What the tabs announce and draw that follows the document.
void ViewTabs::connectDocument() {
    // The whole model needs no pass of one layer's steps, and one layer no trace.
    connect(doc_, &AttentionDocument::wholeModelChanged, this, &ViewTabs::followWholeModel);
    connect(doc_, &AttentionDocument::tokenFocusChanged, this, &ViewTabs::announceTrace);
    connect(doc_, &AttentionDocument::modelFolderChanged, this, &ViewTabs::announceTrace);
    connect(doc_, &AttentionDocument::figureOptionsChanged, this, &ViewTabs::followFigureOptions);
    connect(doc_, &AttentionDocument::figureOptionsChanged, this,
            [this] { lens_->setColormap(doc_->figureOptions().colormap); });
}

void ViewTabs::connectCorpus() {
    connect(doc_, &AttentionDocument::corpusChanged, this, [this] {
        // Whether a corpus is offered depends on the pass's model: hidden views take it first.
        catchUp(AtlasTab);
        catchUp(QkTab);
        atlas_->setCorpus(doc_->corpus());
        qk_->setCorpus(doc_->corpus());
    });
    const auto follow_head = [this] {
        qk_->setHead(doc_->computeConfig().layer,
                     doc_->view() == FigureView::Head ? doc_->viewHead() : 0);
    };
    connect(doc_, &AttentionDocument::layerChanged, this, follow_head);
    connect(doc_, &AttentionDocument::viewChanged, this, follow_head);
    follow_head();
    connect(atlas_, &AtlasView::headFocused, this, &ViewTabs::focusHead);
    connect(qk_, &QkView::headChosen, this, &ViewTabs::focusHead);
    connect(atlas_, &AtlasView::exampleActivated, this,
            [this](qint64 text, int layer, int head, qint64 query, qint64 key) {
                emit corpusTextRequested(text, layer, head, query, key, false);
            });
    connect(qk_, &QkView::pointActivated, this,
            [this](qint64 text, int layer, int head, qint64 position, bool key) {
                emit corpusTextRequested(text, layer, head, position, -1, key);
            });
    connect(qk_, &QkView::computeRequested, this, &ViewTabs::corpusHeadRequested);
    connect(qk_, &QkView::hovered, this, &ViewTabs::hovered);
    connect(qk_, &QkView::failed, this, &ViewTabs::failed);
}

void ViewTabs::focusHead(int layer, int head) {
    doc_->setLayer(layer);
    if (head < doc_->viewableHeads()) doc_->setView(FigureView::Head, head);
    // A head whose map the pass did not keep: the view follows the choice all the same.
    qk_->setHead(layer, head);
}

void ViewTabs::foldExplanation(bool expanded) {
    banner_text_->setVisible(expanded);
    banner_fold_->setArrowType(expanded ? Qt::UpArrow : Qt::DownArrow);
}

void ViewTabs::restoreExampleText() {
    doc_->setUseTokenList(example_.use_token_list);
    doc_->setTokenListA(example_.token_list_a);
    doc_->setTokenListB(example_.token_list_b);
    doc_->setTextA(example_.text_a);
    doc_->setTextB(example_.text_b);
}

void ViewTabs::followModelFolder(const QString& folder) {
    // An explanation of another source's heads is wrong: it closes.
    if (folder != example_.model_folder) hideExplanation();
}

void ViewTabs::followCurrentTab() {
    catchUp(currentTab());
    // The "Why?" pane goes with the maps shown.
    if (currentTab() == GridTab || currentTab() == ModelTab)
        why_->placeIn(currentTab() == ModelTab ? model_split_ : grid_split_);
    emit hovered(QString());
    emit stepsShown(layerStepsShown());
    emit lensShown(currentTab() == LensTab);
    emit traceWanted(wantedTrace());
    if (QWidget* w = tabs_->currentWidget()) w->setFocus();
}

void ViewTabs::followWholeModel() {
    emit stepsShown(layerStepsShown());
    emit traceWanted(wantedTrace());
}

void ViewTabs::announceTrace() {
    emit traceWanted(wantedTrace());
}

namespace {
/// The Steps tab shows the whole model: the document asks for it and the source is a model.
bool whole_model_shown(const AttentionDocument& doc) {
    const ComputeConfig& c = doc.computeConfig();
    return doc.wholeModel() && c.usesModel() && !c.usesMaps();
}
}  // namespace

int ViewTabs::wantedTrace() const {
    if (currentTab() != StepsTab || !whole_model_shown(*doc_)) return kNoTrace;
    return doc_->figureOptions().focus_token;
}

bool ViewTabs::layerStepsShown() const {
    return currentTab() == StepsTab && !whole_model_shown(*doc_);
}

void ViewTabs::retranslate() {
    tabs_->setTabText(GridTab, tr("Heatmaps"));
    tabs_->setTabToolTip(GridTab, tr("One heatmap per head, and their mean"));
    tabs_->setTabText(StepsTab, tr("Steps"));
    tabs_->setTabToolTip(StepsTab, tr("The computation of one head, step by step"));
    tabs_->setTabText(LinesTab, tr("Lines"));
    tabs_->setTabToolTip(LinesTab, tr("Lines from each query token to each key token"));
    tabs_->setTabText(StatisticsTab, tr("Statistics"));
    tabs_->setTabToolTip(StatisticsTab, tr("What each head does, in numbers"));
    if (tabs_->count() > CompareTab) {
        tabs_->setTabText(CompareTab, tr("Compare"));
        tabs_->setTabToolTip(CompareTab, tr("Two configurations side by side"));
    }
    focus_mode_->setItemText(0, tr("Every map"));
    focus_mode_->setItemText(1, tr("Attention from a token"));
    focus_mode_->setItemText(2, tr("Attention to a token"));
    focus_mode_->setToolTip(
        tr("One token's attention across every layer and head: where it looks (from), or "
           "which tokens look at it (to)"));
    focus_token_->setToolTip(tr("The token in focus"));
    thumbnails_->setItemText(int(ModelThumbnails::WholeMax), tr("Whole text, largest weight"));
    thumbnails_->setItemText(int(ModelThumbnails::WholeMean), tr("Whole text, mean weight"));
    thumbnails_->setItemText(int(ModelThumbnails::Kept), tr("Kept maps"));
    thumbnails_->setToolTip(
        tr("The memory budget kept only some maps: show every layer and head over the whole "
           "text, pooled into squares by their largest or their mean weight, or the kept "
           "maps"));
    all_layers_->setToolTip(
        tr("Compute every layer again (the memory budget may refuse it for this text)"));
    if (tabs_->count() > ModelTab) {
        tabs_->setTabText(ModelTab, tr("Model"));
        tabs_->setTabToolTip(ModelTab, tr("Every layer and head of a trained model at once"));
    }
    if (tabs_->count() > AtlasTab) {
        tabs_->setTabText(AtlasTab, tr("Head Atlas"));
        tabs_->setTabToolTip(AtlasTab, tr("What every head of a trained model does, in numbers"));
    }
    if (tabs_->count() > LensTab) {
        tabs_->setTabText(LensTab, tr("Logit Lens"));
        tabs_->setTabToolTip(LensTab, tr("What a trained model predicts after each of its layers"));
    }
    if (tabs_->count() > PatchTab) {
        tabs_->setTabText(PatchTab, tr("Patching"));
        tabs_->setTabToolTip(PatchTab,
                             tr("Activation patching: which heads carry what the corrupted "
                                "text lost"));
    }
    if (tabs_->count() > PositionsTab) {
        tabs_->setTabText(PositionsTab, tr("Positions"));
        tabs_->setTabToolTip(PositionsTab,
                             tr("Where attention goes over a whole text, however long: the "
                                "attention each position receives, for every head"));
    }
    if (tabs_->count() > CircuitsTab) {
        tabs_->setTabText(CircuitsTab, tr("Circuits"));
        tabs_->setTabToolTip(CircuitsTab,
                             tr("Which heads work together: composition and copying scores from "
                                "the weights alone (Elhage et al. 2021)"));
    }
    if (tabs_->count() > DlaTab) {
        tabs_->setTabText(DlaTab, tr("Who Writes"));
        tabs_->setTabToolTip(DlaTab,
                             tr("Who writes the answer: direct logit attribution splits the "
                                "logit of the next token into what each head, MLP and the "
                                "embeddings wrote into the residual stream"));
    }
    if (tabs_->count() > QkTab) {
        tabs_->setTabText(QkTab, tr("Queries && Keys"));
        tabs_->setTabToolTip(QkTab,
                             tr("Every query and key of a head over a corpus, as dots in one "
                                "plane (AttentionViz): its pattern as geometry"));
    }
    if (tabs_->count() > FlowTab) {
        tabs_->setTabText(FlowTab, tr("Flow"));
        tabs_->setTabToolTip(FlowTab,
                             tr("How information flows to a prediction: the routes through the "
                                "heads and MLPs that matter most (information-flow routes, "
                                "Ferrando & Voita 2024)"));
    }
    banner_close_->setToolTip(tr("Hide the explanation"));
    banner_note_->setText(
        tr("The explanation is about the example's text; the text is now your "
           "own."));
    banner_restore_->setText(tr("Restore the example's text"));
    banner_fold_->setToolTip(tr("Fold the explanation to its title, or unfold it"));
}

QWidget* ViewTabs::createModelTab() {
    auto* page = new QWidget(tabs_);
    auto* v = new QVBoxLayout(page);
    v->setContentsMargins(0, 4, 0, 0);
    v->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 0, 8, 0);
    focus_mode_ = new QComboBox(page);
    focus_mode_->setObjectName(QStringLiteral("focusModeCombo"));
    focus_mode_->addItems({QString(), QString(), QString()});
    focus_token_ = new QComboBox(page);
    focus_token_->setObjectName(QStringLiteral("focusTokenCombo"));
    focus_token_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    focus_token_->setMaxVisibleItems(20);
    bar->addWidget(focus_mode_);
    bar->addWidget(focus_token_);
    // Only some maps kept: the whole text pooled, or the kept maps (items in ModelThumbnails'
    // order).
    thumbnails_ = new QComboBox(page);
    thumbnails_->setObjectName(QStringLiteral("modelThumbnailsCombo"));
    thumbnails_->addItems({QString(), QString(), QString()});
    thumbnails_->hide();
    bar->addWidget(thumbnails_);
    bar->addStretch(1);
    // The memory budget kept only the first layers or heads: a way back to all of them.
    all_layers_ = new QPushButton(page);
    all_layers_->setObjectName(QStringLiteral("allLayersButton"));
    all_layers_->hide();
    bar->addWidget(all_layers_);
    v->addLayout(bar);
    model_ = new ModelView(page);
    model_split_ = why_splitter(model_, page);
    model_split_->setObjectName(QStringLiteral("modelSplitter"));
    v->addWidget(model_split_, 1);
    page->setFocusProxy(model_);
    return page;
}

void ViewTabs::applyTokenFocus() {
    const int mode = focus_mode_->currentIndex();
    doc_->setTokenFocus(mode == 0 ? -1 : std::max(0, focus_token_->currentIndex()), mode == 2);
}

void ViewTabs::syncTokenFocus() {
    if (isStale(ModelTab)) return;  // the mosaic takes the focus with the snapshot, when shown
    const QSignalBlocker block_mode(focus_mode_), block_token(focus_token_);
    const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
    focus_token_->clear();
    if (m)
        for (int k = 0; k < m->tokens; ++k)
            focus_token_->addItem(QStringLiteral("%1 · %2")
                                      .arg(m->first_token + k + 1)
                                      .arg(visible_token(m->token_text[std::size_t(k)])));
    const int token = m && doc_->focusToken() < m->tokens ? doc_->focusToken() : -1;
    all_layers_->setVisible(m && (m->num_layers < m->total_layers || m->heads_kept < m->num_heads));
    if (m) {
        QStringList kept;
        if (m->num_layers < m->total_layers)
            kept << tr("layers 1–%1 of %2").arg(m->num_layers).arg(m->total_layers);
        if (m->heads_kept == 0)
            kept << tr("the means only");
        else if (m->heads_kept < m->num_heads)
            kept << tr("heads 1–%1 of %2").arg(m->heads_kept).arg(m->num_heads);
        all_layers_->setText(tr("Kept: %1. Show all").arg(kept.join(tr(", "))));
    }
    focus_mode_->setEnabled(m != nullptr);
    focus_mode_->setCurrentIndex(token < 0 ? 0 : doc_->focusTo() ? 2 : 1);
    focus_token_->setEnabled(token >= 0);
    focus_token_->setCurrentIndex(std::max(0, token));
    model_->setTokenFocus(token, doc_->focusTo());
    // A token in focus draws the kept maps' strips: the whole text waits until it is cleared.
    const QSignalBlocker block_thumbnails(thumbnails_);
    thumbnails_->setVisible(m && m->pooled);
    thumbnails_->setEnabled(token < 0);
    thumbnails_->setCurrentIndex(int(doc_->modelThumbnails()));
    model_->setThumbnails(doc_->modelThumbnails());
}

void ViewTabs::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void ViewTabs::setSnapshot(SnapshotPtr snapshot,
                           std::shared_ptr<const SnapshotStatistics> statistics) {
    snapshot_ = std::move(snapshot);
    statistics_ = snapshot_ && statistics && statistics->generation == snapshot_->generation
                      ? std::move(statistics)
                      : nullptr;
    // Only the tab in view takes it now (also while the writer extends the maps a token at a
    // time); the others catch up when shown, or soon when what they keep is heavy (the pass
    // after the writer's rows frees it).
    stale_.set();
    catchUp(currentTab());
    if (!releasing_ && heavyStaleTab() >= 0) {
        releasing_ = true;
        QTimer::singleShot(0, this, &ViewTabs::releaseHeavySnapshots);
    }
}

void ViewTabs::catchUp(Tab tab) {
    if (!stale_.test(std::size_t(tab))) return;
    stale_.reset(std::size_t(tab));
    refreshViews(tab);
    if (tab != PositionsTab)  // its view follows the document, not the pass
        held_[std::size_t(tab)] = {
            true, snapshot_ ? maps_bytes(*snapshot_) : 0,
            snapshot_ && snapshot_->model ? snapshot_->model->folder : QString()};
}

int ViewTabs::heavyStaleTab() const {
    // The writer's rows come a token at a time: the pass after them is handed on.
    if (snapshot_ && snapshot_->model && snapshot_->model->provisional) return -1;
    const QString folder = snapshot_ && snapshot_->model ? snapshot_->model->folder : QString();
    for (std::size_t t = 0; t < held_.size(); ++t)
        if (stale_.test(t) && held_[t].any &&
            (held_[t].bytes >= heavy_bytes_ || held_[t].folder != folder))
            return int(t);
    return -1;
}

void ViewTabs::releaseHeavySnapshots() {
    releasing_ = false;
    if (const int tab = heavyStaleTab(); tab >= 0) catchUp(Tab(tab));
    // One tab a turn: the event loop runs between them.
    if (heavyStaleTab() >= 0) {
        releasing_ = true;
        QTimer::singleShot(0, this, &ViewTabs::releaseHeavySnapshots);
    }
}

void ViewTabs::refreshViews(Tab tab) {
    const bool has_model = snapshot_ && snapshot_->model;
    // The model that ran the pass, for the views that run it again (none for maps read from a
    // file).
    const QString folder =
        has_model && !snapshot_->config.usesMaps() ? snapshot_->model->folder : QString();
    const auto runnable = [&] { return folder.isEmpty() ? nullptr : find_model(folder); };
    switch (tab) {
        case GridTab:
            why_->setSource(snapshot_, runnable());
            break;
        case StepsTab:
            steps_->setSnapshot(snapshot_);
            break;
        case LinesTab:
            lines_->setSnapshot(snapshot_);
            break;
        case StatisticsTab:
            refreshStatistics();
            break;
        case CompareTab:
            compare_->setSnapshot(snapshot_);
            break;
        case ModelTab:
            model_->setSnapshot(snapshot_);
            syncTokenFocus();
            why_->setSource(snapshot_, runnable());
            break;
        case AtlasTab:
            atlas_->setSnapshot(snapshot_);
            qk_->setModelFolder(folder);
            break;
        case LensTab:
            lens_->setSnapshot(snapshot_);
            break;
        case PatchTab:
            patch_->setModel(has_model ? find_model(snapshot_->model->folder) : nullptr);
            break;
        case PositionsTab:  // it follows the document, not the pass
            break;
        case CircuitsTab:
            circuits_->setSnapshot(snapshot_);
            circuits_->setModel(runnable());
            break;
        case DlaTab:
            dla_->setSource(snapshot_, runnable());
            break;
        case FlowTab:
            flow_->setSource(snapshot_, runnable());
            break;
        case QkTab:
            qk_->setModelFolder(folder);
            break;
    }
}

void ViewTabs::followFigureOptions() {
    if (currentTab() == StatisticsTab)
        refreshStatistics();
    else
        stale_.set(std::size_t(StatisticsTab));
}

void ViewTabs::refreshStatistics() {
    const int item = doc_->batchItem();
    const bool measured = statistics_ && item >= 0 && item < int(statistics_->items.size());
    stats_->setSnapshot(snapshot_, item, doc_->view() == FigureView::Head ? doc_->viewHead() : -1,
                        measured ? &statistics_->items[std::size_t(item)] : nullptr);
}

ViewTabs::Tab ViewTabs::currentTab() const {
    return Tab(std::max(0, tabs_->currentIndex()));
}

void ViewTabs::setCurrentTab(Tab tab) {
    if (int(tab) < tabs_->count()) tabs_->setCurrentIndex(int(tab));
}

FigureKind ViewTabs::currentKind() const {
    switch (currentTab()) {
        case StepsTab:
            return FigureKind::Steps;
        case LinesTab:
            return FigureKind::Lines;
        case CompareTab:
            return FigureKind::Compare;
        case ModelTab:
            return FigureKind::Model;
        case LensTab:
            return FigureKind::Lens;
        default:
            return FigureKind::Heatmaps;
    }
}

QString ViewTabs::tabName(Tab tab) {
    return QLatin1String(kTabNames[int(tab)]);
}

bool ViewTabs::tabFromName(const QString& name, Tab* out) {
    for (int k = 0; k < int(std::size(kTabNames)); ++k)
        if (name == QLatin1String(kTabNames[k])) {
            *out = Tab(k);
            return true;
        }
    return false;
}

void ViewTabs::setPresentation(int font_px) {
    QFont f = QApplication::font();
    if (font_px > 0) f.setPixelSize(font_px);
    // The grid reads its label size from its own font; the tab bar and table grow too.
    grid_->setFont(f);
    tabs_->tabBar()->setFont(f);
    stats_->setFont(f);
    // The views' own bars (step buttons, head boxes) and the example's explanation too.
    steps_->setFont(f);
    lines_->setFont(f);
    compare_->setFont(f);
    lens_->setFont(f);
    circuits_->setFont(f);
    dla_->setFont(f);
    flow_->setFont(f);
    qk_->setFont(f);
    // Their bars of controls (the rows that wrap) at two thirds of that size, as the Why pane:
    // at the full size each takes two rows of a 1280-pixel projector, which the figures under
    // them need.  Not presenting, the bars take their view's font again.
    QFont bar;
    if (font_px > 0) {
        bar = f;
        bar.setPixelSize(std::max(QFontInfo(QApplication::font()).pixelSize(), font_px * 2 / 3));
    }
    for (WrappingRowLayout* row : tabs_->findChildren<WrappingRowLayout*>())
        for (int k = 0; k < row->count(); ++k)
            if (QWidget* w = row->itemAt(k)->widget()) w->setFont(bar);
    atlas_->setPresentation(font_px > 0 ? bar.pixelSize() : 0);
    why_->setPresentation(font_px);
    banner_text_->setFont(f);
    QFont bold = f;
    bold.setBold(true);
    if (font_px > 0)
        bold.setPixelSize(font_px + font_px / 4);
    else
        bold.setPointSizeF(f.pointSizeF() * 1.15);
    banner_title_->setFont(bold);
    banner_fold_->setChecked(font_px <= 0);
    // After the fonts: the views read their normal label size from them.
    steps_->setPresentation(font_px, font_px > 0);
    lines_->setPresentation(font_px, font_px > 0);
    compare_->setPresentation(font_px, font_px > 0);
    grid_->setOptions(doc_->figureOptions());
}

void ViewTabs::showExplanation(const Example& example) {
    example_id_ = example.id;
    banner_title_->setText(example.title);
    banner_text_->setText(example.explanation);
    example_ = doc_->computeConfig();
    syncExampleNote();
    banner_->show();
}

void ViewTabs::takeExplanationFrom(const ViewTabs& other) {
    if (!other.explanationVisible()) return;
    for (const Example& e : builtin_examples()) {  // translated in this window's language
        if (e.id != other.example_id_) continue;
        showExplanation(e);
        example_ = other.example_;
        syncExampleNote();
        banner_fold_->setChecked(other.banner_fold_->isChecked());
        return;
    }
}

void ViewTabs::syncExampleNote() {
    const ComputeConfig& c = doc_->computeConfig();
    const bool own = c.text_a != example_.text_a || c.text_b != example_.text_b ||
                     c.use_token_list != example_.use_token_list ||
                     c.token_list_a != example_.token_list_a ||
                     c.token_list_b != example_.token_list_b;
    banner_note_->setVisible(own);
    banner_restore_->setVisible(own);
}

void ViewTabs::hideExplanation() {
    banner_->hide();
}

bool ViewTabs::explanationVisible() const {
    return !banner_->isHidden();
}

}  // namespace attnviz::ui
