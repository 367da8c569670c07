#include "ui/model/circuits_view.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "engine/budget/memory_budget.h"
#include "engine/errors.h"
#include "engine/ops/map_pyramid.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/error_text.h"
#include "ui/compute/full_map_source.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/shipped_models.h"
#include "ui/render/figure_export.h"
#include "ui/widgets/full_map_window.h"
#include "ui/widgets/wrapping_row_layout.h"
#include "ui/widgets/zoom_heatmap.h"

namespace attnviz::ui {

struct CircuitsView::PairMaps {
    int from = -1, to = -1;
    std::shared_ptr<const ops::MapPyramid> pyramid[2];
    std::vector<QString> tokens;
    bool causal = false;
};

namespace {
/// What circuit_scores keeps while it runs: every head's [head_dim, hidden] left factor
/// (engine/models/circuits.h), the bulk of its memory.
std::uint64_t circuits_bytes(const models::ModelConfig& c) {
    return std::uint64_t(c.num_layers) * std::uint64_t(c.num_heads) * std::uint64_t(c.head_dim) *
           std::uint64_t(c.hidden_size) * sizeof(float);
}

/// The figure of `maps` for `path` (its format from the suffix), as every export draws it.
RenderedFigure render_circuits_figure(const CircuitMaps& maps, Composition c, const QString& path) {
    CircuitsFigure figure;
    figure.setMaps(&maps);
    figure.setComposition(c);
    FigureOptions options;
    options.font_px = 14;
    figure.setOptions(options);
    return render_painted_figure(figure, ExportSize{}, path);
}
}  // namespace

CircuitsView::CircuitsView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("circuitsView"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(8, 6, 8, 4);
    placeholder_ = new QLabel(this);
    placeholder_->setObjectName(QStringLiteral("circuitsPlaceholder"));
    placeholder_->setWordWrap(true);
    placeholder_->setAlignment(Qt::AlignCenter);
    v->addWidget(placeholder_, 1);
    v->addWidget(createControls());
    auto figure = std::make_unique<CircuitsFigure>();
    figure_ = figure.get();
    matrix_ = new FigureCanvas(std::move(figure), this);
    matrix_->setObjectName(QStringLiteral("circuitsMatrix"));
    v->addWidget(matrix_, 1);
    createPairWindow();
    connectControls();
    retranslate();
    setModel(nullptr);
}

CircuitsView::~CircuitsView() = default;

/// Q, K or V; the rotary offset; Compute, or the progress and Cancel; the status; Export.
QWidget* CircuitsView::createControls() {
    controls_ = new QWidget(this);
    auto* bar = new WrappingRowLayout(controls_);  // presenting, one row is wider than a projector
    bar->setContentsMargins(0, 0, 0, 0);
    composition_label_ = new QLabel(controls_);
    composition_ = new QComboBox(controls_);
    composition_->setObjectName(QStringLiteral("circuitsComposition"));
    composition_->addItems({QString(), QString(), QString()});  // in Composition's order
    composition_->setCurrentIndex(int(Composition::K));
    composition_label_->setBuddy(composition_);
    rope_label_ = new QLabel(controls_);
    rope_offset_ = new QSpinBox(controls_);
    rope_offset_->setObjectName(QStringLiteral("circuitsRopeOffset"));
    rope_offset_->setKeyboardTracking(false);  // one computation for "12", not two
    rope_offset_->setValue(1);
    rope_label_->setBuddy(rope_offset_);
    compute_ = new QPushButton(controls_);
    compute_->setObjectName(QStringLiteral("circuitsCompute"));
    progress_ = new QProgressBar(controls_);
    progress_->setObjectName(QStringLiteral("circuitsProgress"));
    cancel_ = new QPushButton(controls_);
    cancel_->setObjectName(QStringLiteral("circuitsCancel"));
    status_ = new QLabel(controls_);
    status_->setObjectName(QStringLiteral("circuitsStatus"));
    status_->setWordWrap(true);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    for (QWidget* w : {static_cast<QWidget*>(composition_), static_cast<QWidget*>(rope_offset_)})
        w->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    export_ = new QPushButton(controls_);
    export_->setObjectName(QStringLiteral("circuitsExport"));
    bar->addWidget(composition_label_);
    bar->addWidget(composition_);
    bar->addSpacing(12);
    bar->addWidget(rope_label_);
    bar->addWidget(rope_offset_);
    bar->addSpacing(12);
    bar->addWidget(compute_);
    bar->addWidget(progress_);
    bar->addWidget(cancel_);
    bar->addWidget(status_, 1);
    bar->addStretch(0);  // keeps the boxes at their size while there is no status
    bar->addWidget(export_);
    return controls_;
}

/// The chosen pair's window: a title, a status line, and the two heads' maps side by side.
/// A window of its own, as the Full Map window: two zoomable maps need more room than the tab
/// leaves beside the matrix, which stays whole.
void CircuitsView::createPairWindow() {
    pair_ = new QWidget(this, Qt::Window);
    pair_->setObjectName(QStringLiteral("circuitsPair"));
    pair_->installEventFilter(this);
    auto* v = new QVBoxLayout(pair_);
    pair_title_ = new QLabel(pair_);
    pair_title_->setObjectName(QStringLiteral("circuitsPairTitle"));
    pair_title_->setWordWrap(true);
    pair_title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QFont bold = pair_title_->font();
    bold.setBold(true);
    pair_title_->setFont(bold);
    v->addWidget(pair_title_);
    pair_status_ = new QLabel(pair_);
    pair_status_->setObjectName(QStringLiteral("circuitsPairStatus"));
    pair_status_->setWordWrap(true);
    pair_status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    v->addWidget(pair_status_);
    auto* maps = new QHBoxLayout;
    for (ZoomHeatmap*& m : pair_maps_) {
        m = new ZoomHeatmap(pair_);
        maps->addWidget(m, 1);
    }
    pair_maps_[0]->setObjectName(QStringLiteral("circuitsEarlierMap"));
    pair_maps_[1]->setObjectName(QStringLiteral("circuitsLaterMap"));
    v->addLayout(maps, 1);
    pair_->resize(1200, 620);  // each map as wide as its caption
}

bool CircuitsView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == pair_) {
        // Closed (or Escape): the pair is no longer chosen, and its maps are not read.
        if (event->type() == QEvent::KeyPress &&
            static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
            pair_->close();
            return true;
        }
        if (event->type() == QEvent::Close) {
            pair_job_.drop();
            chosen_ = QPoint(-1, -1);
            figure_->setChosen(-1, -1);
            matrix_->update();
        }
    }
    return QWidget::eventFilter(watched, event);
}

/// The choices recompute or redraw; the buttons act; the matrix hovers and picks a pair.
void CircuitsView::connectControls() {
    connect(composition_, &QComboBox::currentIndexChanged, this,
            [this](int index) { setComposition(Composition(index)); });
    connect(rope_offset_, &QSpinBox::valueChanged, this, [this] { compute(); });
    connect(compute_, &QPushButton::clicked, this, &CircuitsView::compute);
    connect(cancel_, &QPushButton::clicked, this, &CircuitsView::cancel);
    connect(export_, &QPushButton::clicked, this, &CircuitsView::exportDialog);
    connect(matrix_, &FigureCanvas::mouseMoved, this, &CircuitsView::hoverAt);
    connect(matrix_, &FigureCanvas::mouseLeft, this, [this] { hoverAt(QPointF(-1, -1)); });
    connect(matrix_, &FigureCanvas::clicked, this, &CircuitsView::clickAt);
}

void CircuitsView::retranslate() {
    composition_label_->setText(tr("&Composition:"));
    composition_->setItemText(int(Composition::Q), tr("Q-composition (queries)"));
    composition_->setItemText(int(Composition::K), tr("K-composition (keys)"));
    composition_->setItemText(int(Composition::V), tr("V-composition (values)"));
    composition_->setToolTip(
        tr("How a later head reads what an earlier head writes: through its queries (Q), its "
           "keys (K) or its values (V)"));
    rope_label_->setText(tr("&RoPE offset:"));
    rope_offset_->setToolTip(
        tr("Rotary positions make W_QK depend on the distance between query and key: the "
           "scores take it at this many positions (1: the key just before the query)"));
    compute_->setText(tr("Compute"));
    compute_->setToolTip(tr("Compute the composition and copying scores from the weights"));
    cancel_->setText(tr("Cancel"));
    export_->setText(tr("Export…"));
    export_->setToolTip(tr("The figure (PNG, SVG, PDF) or the scores (CSV)"));
    if (chosen_.x() >= 0 && maps_)
        pair_title_->setText(tr("%1 writes, %2 reads: their attention on the window's text")
                                 .arg(maps_->headName(chosen_.x()), maps_->headName(chosen_.y())));
    syncControls();
    showMaps();  // the figure's title and notes, in the new language
}

void CircuitsView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    if (event->type() == QEvent::FontChange) showMaps();
    QWidget::changeEvent(event);
}

void CircuitsView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // The scores are computed when the tab is first looked at, not for every model opened.
    if (model_ && !maps_ && !isComputing() && status_->text().isEmpty()) compute();
}

void CircuitsView::setModel(ModelPtr model) {
    if (model != model_) {
        job_.drop();
        model_ = std::move(model);
        releaseMaps();
        closePair();
        status_->clear();
        if (model_) {
            const models::ModelConfig& c = model_->model->config();
            rope_offset_->blockSignals(true);
            rope_offset_->setRange(
                0, int(std::clamp<std::int64_t>(c.max_positions - 1, 0, std::int64_t(1) << 24)));
            rope_offset_->setValue(1);
            rope_offset_->blockSignals(false);
        }
        if (model_ && (isVisible() || kept(offset()))) compute();
    }
    syncControls();
    showMaps();
}

void CircuitsView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    syncControls();
    // The pair's maps follow the window's text.
    if (chosen_.x() >= 0 && snapshot_ && snapshot_->generation != pair_generation_) loadPairMaps();
}

void CircuitsView::syncControls() {
    const bool computing = isComputing();
    if (!model_) {
        const bool file = snapshot_ && snapshot_->config.usesMaps();
        const QString shipped = shipped_model_names();
        placeholder_->setText(
            file ? tr("Attention maps read from a file have no weights: the circuits are computed "
                      "from a model's weights. Open one (File ▸ Open Model…).")
            : shipped.isEmpty()
                ? tr("Circuits are computed from a trained model's weights: open one (File ▸ "
                     "Open Model…).")
                : tr("Circuits are computed from a trained model's weights: choose one in the "
                     "Source box (built in: %1), or open one (File ▸ Open Model…).")
                      .arg(shipped));
    }
    placeholder_->setVisible(!model_);
    controls_->setVisible(model_ != nullptr);
    matrix_->setVisible(model_ != nullptr);
    const bool rotary = model_ && model_->model->config().rotary();
    rope_label_->setVisible(rotary);
    rope_offset_->setVisible(rotary);
    rope_offset_->setEnabled(!computing);
    compute_->setVisible(model_ && !maps_ && !computing);
    progress_->setVisible(computing);
    cancel_->setVisible(computing);
    status_->setVisible(!status_->text().isEmpty());
    export_->setEnabled(maps_ != nullptr);
}

std::int64_t CircuitsView::offset() const {
    return model_ && model_->model->config().rotary() ? rope_offset_->value() : 0;
}

std::shared_ptr<const CircuitMaps> CircuitsView::kept(std::int64_t offset) const {
    for (const Kept& k : kept_)
        if (k.offset == offset && !k.model.expired() && k.model.lock() == model_) return k.maps;
    return nullptr;
}

void CircuitsView::keep(std::int64_t offset, std::shared_ptr<const CircuitMaps> maps) {
    // Models closed since are forgotten; the oldest go first.
    std::erase_if(kept_, [](const Kept& k) { return k.model.expired(); });
    kept_.insert(kept_.begin(), Kept{model_, offset, std::move(maps)});
    if (kept_.size() > kKeptScores) kept_.resize(kKeptScores);
}

bool CircuitsView::compute() {
    if (!model_) return false;
    const std::int64_t at = offset();
    if (std::shared_ptr<const CircuitMaps> m = kept(at)) {
        job_.drop();
        status_->clear();
        showScores(std::move(m));
        return true;
    }
    if (isComputing()) return false;
    releaseMaps();
    closePair();
    // Under the budget the window's pass had: an 8B model's factors take gigabytes.
    if (const std::uint64_t needed = circuits_bytes(model_->model->config());
        snapshot_ && snapshot_->budget_bytes > 0 && needed > snapshot_->budget_bytes) {
        endComputing(
            tr("The scores keep %1 of the weights' factors, more than the memory budget "
               "of %2 (Attention ▸ Memory Budget…).")
                .arg(QString::fromStdString(budget::format_bytes(needed)),
                     QString::fromStdString(budget::format_bytes(snapshot_->budget_bytes))));
        showMaps();
        return false;
    }
    ++computations_;
    progress_->setRange(0, int(model_->model->config().num_layers));
    progress_->setValue(0);
    status_->setText(tr("Computing the scores from the weights…"));
    const ModelPtr model = model_;
    // `this` is only used in the handlers, which run on the GUI thread while the job lives.
    job_.start(
        [model, at](const JobControl& control) {
            models::CircuitOptions options;
            options.rope_offset = model->model->config().rotary() ? at : 1;
            options.num_threads = worker_threads();
            options.control = control;
            return std::make_shared<const CircuitMaps>(
                make_circuit_maps(*model, models::circuit_scores(*model->model, options)));
        },
        {.finished =
             [this, at](std::shared_ptr<const CircuitMaps> maps) {
                 keep(at, maps);
                 endComputing(QString());
                 showScores(std::move(maps));
             },
         .failed =
             [this](const QString& message) {
                 endComputing(message);
                 emit failed(tr("Cannot compute the circuits"), message);
             },
         .cancelled = [this] { endComputing(tr("Stopped: Compute starts again.")); },
         .progressed = [this](std::int64_t done,
                              std::int64_t total) { showProgress(done, total); }});
    syncControls();
    return true;
}

void CircuitsView::cancel() {
    job_.cancel();
}

bool CircuitsView::isComputing() const {
    return job_.isRunning();
}

void CircuitsView::showProgress(std::int64_t done, std::int64_t total) {
    progress_->setRange(0, int(total));
    progress_->setValue(int(done));
    status_->setText(
        tr("Computing the scores from the weights: layer %1 of %2…").arg(done).arg(total));
}

void CircuitsView::endComputing(const QString& status) {
    status_->setText(status);
    syncControls();
}

void CircuitsView::releaseMaps() {
    // The figure first: the cache of scores may free these maps, and showing or hiding a
    // control lays the matrix out at once, with whatever the figure holds.
    figure_->setMaps(nullptr);
    maps_.reset();
}

void CircuitsView::showScores(std::shared_ptr<const CircuitMaps> maps) {
    maps_ = std::move(maps);
    figure_->setMaps(maps_.get());  // before syncControls() shows or hides anything
    syncControls();
    showMaps();
    emit computed();
}

void CircuitsView::setComposition(Composition c) {
    if (composition_->currentIndex() != int(c)) {
        composition_->setCurrentIndex(int(c));  // comes back here
        return;
    }
    figure_->setComposition(c);
    showMaps();
    if (hover_.x() >= 0) emit hovered(figure_->describe(hover_.x(), hover_.y()));
}

void CircuitsView::showMaps() {
    figure_->setMaps(maps_.get());
    figure_->setChosen(chosen_.x(), chosen_.y());
    FigureOptions options;
    options.font_px = std::max(9, QFontInfo(font()).pixelSize());
    figure_->setOptions(options);
    matrix_->relayout();
}

void CircuitsView::hoverAt(const QPointF& pos) {
    QPoint at = figure_->pairAt(pos);
    if (at.x() < 0) at = QPoint(figure_->copyingHeadAt(pos), -1);
    const bool pair = at.y() >= 0;
    figure_->setHover(pair ? at.x() : -1, pair ? at.y() : -1);
    if (at == hover_) return;
    hover_ = at;
    const QString text =
        pair ? figure_->describe(at.x(), at.y()) : figure_->describeCopying(at.x());
    matrix_->setToolTip(text);
    emit hovered(text);
    matrix_->update();
}

void CircuitsView::clickAt(const QPointF& pos) {
    const QPoint at = figure_->pairAt(pos);
    if (maps_ && maps_->composes(at.x(), at.y())) choosePair(at.x(), at.y());
}

QPoint CircuitsView::cellCentre(int from, int to) const {
    const QRectF r = figure_->cellRect(from, to);
    return r.isEmpty() ? QPoint() : r.center().toPoint();
}

void CircuitsView::choosePair(int from, int to) {
    if (!maps_ || !maps_->composes(from, to)) return;
    chosen_ = QPoint(from, to);
    showMaps();
    const int H = maps_->num_heads;
    pair_title_->setText(tr("%1 writes, %2 reads: their attention on the window's text")
                             .arg(maps_->headName(from), maps_->headName(to)));
    pair_->setWindowTitle(tr("%1 → %2").arg(maps_->headName(from), maps_->headName(to)));
    pair_->show();
    pair_->raise();
    emit pairChosen(from / H, from % H, to / H, to % H);
    loadPairMaps();
}

void CircuitsView::closePair() {
    pair_job_.drop();
    chosen_ = QPoint(-1, -1);
    pair_->hide();
    for (ZoomHeatmap* m : pair_maps_)
        m->setContent({});
    figure_->setChosen(-1, -1);
    matrix_->update();
}

void CircuitsView::loadPairMaps() {
    pair_job_.drop();
    for (ZoomHeatmap* m : pair_maps_)
        m->setContent({});
    const bool ours =
        snapshot_ && snapshot_->model && model_ &&
        QFileInfo(snapshot_->model->folder).canonicalFilePath() ==
            QFileInfo(QString::fromStdString(model_->model->info().folder)).canonicalFilePath();
    if (!ours) {
        pair_status_->setText(
            tr("Type a text in the input box: the two heads' attention on it shows here."));
        return;
    }
    pair_generation_ = snapshot_->generation;
    FullMapSourcePtr source;
    try {
        source = full_map_source(*snapshot_);
    } catch (const std::exception& e) {
        pair_status_->setText(error_text(e));
        return;
    }
    const int H = maps_->num_heads;
    const int layer[2] = {chosen_.x() / H, chosen_.y() / H};
    const int head[2] = {chosen_.x() % H, chosen_.y() % H};
    for (int k = 0; k < 2; ++k)
        if (const QString why = source->unavailable(layer[k], head[k]); !why.isEmpty()) {
            pair_status_->setText(why);
            return;
        }
    // Both maps and their pyramids, under the budget the window's pass had.
    if (const std::uint64_t needed = 2 * FullMapWindow::neededBytes(*source);
        snapshot_->budget_bytes > 0 && needed > snapshot_->budget_bytes) {
        pair_status_->setText(
            tr("The two maps of %1 × %1 tokens need %2, more than the memory budget of %3 "
               "(Attention ▸ Memory Budget…).")
                .arg(source->length())
                .arg(QString::fromStdString(budget::format_bytes(needed)))
                .arg(QString::fromStdString(budget::format_bytes(snapshot_->budget_bytes))));
        return;
    }
    pair_status_->setText(tr("Reading the two heads' maps…"));
    const int from = chosen_.x(), to = chosen_.y();
    pair_job_.start(
        [source, from, to, layer, head](const JobControl& control) {
            PairMaps p;
            p.from = from;
            p.to = to;
            for (int k = 0; k < 2; ++k) {
                HeadMap m = source->map(layer[k], head[k], control);
                p.tokens = std::move(m.tokens);
                p.causal = m.causal;
                p.pyramid[k] = std::make_shared<const ops::MapPyramid>(
                    std::move(m.weights), ops::PoolMode::Max, ops::MapPyramid::kDefaultTopSide,
                    worker_threads());
            }
            return p;
        },
        {.finished = [this](const PairMaps& p) { showPairMaps(p); },
         .failed = [this](const QString& message) { pair_status_->setText(message); }});
}

void CircuitsView::showPairMaps(const PairMaps& p) {
    if (!maps_ || p.from != chosen_.x() || p.to != chosen_.y()) return;
    pair_status_->setText(tr("Rows: the queries; columns: the keys. Wheel: zoom · drag: pan."));
    // The window's maps, norm-based when its switch says so.
    const QString norm =
        snapshot_ && snapshot_->norm_based ? tr(" · norm-based ‖α·f(x)‖") : QString();
    const QString titles[2] = {
        tr("%1, the earlier head (writes)").arg(maps_->headName(p.from)) + norm,
        tr("%1, the later head (reads)").arg(maps_->headName(p.to)) + norm};
    for (int k = 0; k < 2; ++k)
        pair_maps_[k]->setContent(ZoomMapContent{p.pyramid[k], p.tokens, p.causal, titles[k]});
    emit pairMapsShown();
}

bool CircuitsView::exportTo(const QString& path) {
    try {
        if (!maps_)
            throw UsageError(
                tr("The scores are not computed yet: there is nothing to export.").toStdString());
        if (QFileInfo(path).suffix().toLower() == QLatin1String("csv"))
            write_atomically(path, circuits_csv(*maps_));
        else
            write_atomically(path,
                             encode_figure(render_circuits_figure(*maps_, composition(), path)));
        return true;
    } catch (const std::exception& e) {
        emit failed(tr("Cannot export the circuits"), error_text(e));
        return false;
    }
}

void CircuitsView::copyFigure() {
    if (!maps_) {
        emit failed(tr("Cannot copy the figure"),
                    tr("The scores are not computed yet: there is nothing to copy."));
        return;
    }
    QApplication::clipboard()->setImage(
        render_circuits_figure(*maps_, composition(), QStringLiteral("circuits.png")).image);
}

void CircuitsView::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the circuits"), QStringLiteral("circuits.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table (*.csv)"));
    if (!path.isEmpty()) exportTo(path);
}

}  // namespace attnviz::ui
