#include "ui/model/flow_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

#include "engine/errors.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/error_text.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_trace.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/shipped_models.h"
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"
#include "ui/widgets/wrapping_row_layout.h"

namespace attnviz::ui {

namespace {
/// The slider's steps from kMinThreshold to kMaxThreshold.
constexpr int kSliderSteps = 200;

double slider_threshold(int value) {
    const double t =
        FlowView::kMinThreshold *
        std::pow(FlowView::kMaxThreshold / FlowView::kMinThreshold, double(value) / kSliderSteps);
    // Two significant digits: the label and the file say 0.04, not 0.0397.
    const double scale = std::pow(10.0, std::floor(std::log10(t)) - 1);
    return std::round(t / scale) * scale;
}

int slider_value(double threshold) {
    return int(std::lround(kSliderSteps * std::log(threshold / FlowView::kMinThreshold) /
                           std::log(FlowView::kMaxThreshold / FlowView::kMinThreshold)));
}

/// The figure of `data` and `graph` for `path` (its format from the suffix), as every export
/// draws it.
RenderedFigure render_flow_figure(const FlowData& data, const models::FlowGraph& graph,
                                  const QString& path) {
    FlowFigure figure;
    figure.setData(&data, &graph);
    FigureOptions options;
    options.font_px = 14;
    figure.setOptions(options);
    return render_painted_figure(figure, ExportSize{}, path);
}
}  // namespace

FlowView::FlowView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("flowView"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(8, 6, 8, 4);
    placeholder_ = new QLabel(this);
    placeholder_->setObjectName(QStringLiteral("flowPlaceholder"));
    placeholder_->setWordWrap(true);
    placeholder_->setAlignment(Qt::AlignCenter);
    v->addWidget(placeholder_, 1);
    v->addWidget(createControls());
    auto figure = std::make_unique<FlowFigure>();
    figure_ = figure.get();
    canvas_ = new FigureCanvas(std::move(figure), this);
    canvas_->setObjectName(QStringLiteral("flowCanvas"));
    canvas_->setMouseTracking(true);
    v->addWidget(canvas_, 1);
    connectControls();
    retranslate();
}

FlowView::~FlowView() = default;

/// The token in focus, the threshold, "per head", Export, and the lines that say what is
/// wrong (red) or what is under way.
QWidget* FlowView::createControls() {
    controls_ = new QWidget(this);
    auto* v = new QVBoxLayout(controls_);
    v->setContentsMargins(0, 0, 0, 0);
    auto* row = new WrappingRowLayout;  // one row is wider than a projector when presenting
    position_label_ = new QLabel(controls_);
    position_ = new TokenFocusCombo(QStringLiteral("flowPosition"), controls_);
    threshold_label_ = new QLabel(controls_);
    slider_ = new QSlider(Qt::Horizontal, controls_);
    slider_->setObjectName(QStringLiteral("flowThreshold"));
    slider_->setRange(0, kSliderSteps);
    slider_->setPageStep(kSliderSteps / 10);
    slider_->setValue(slider_value(kDefaultThreshold));
    slider_->setMinimumWidth(160);
    threshold_value_ = new QLabel(controls_);
    threshold_value_->setObjectName(QStringLiteral("flowThresholdValue"));
    per_head_ = new QCheckBox(controls_);
    per_head_->setObjectName(QStringLiteral("flowPerHead"));
    export_ = new QPushButton(controls_);
    export_->setObjectName(QStringLiteral("flowExport"));
    export_->setEnabled(false);
    row->addWidget(position_label_);
    row->addWidget(position_);
    row->addSpacing(12);
    row->addWidget(threshold_label_);
    row->addWidget(slider_, 1);
    row->addWidget(threshold_value_);
    row->addSpacing(12);
    row->addWidget(per_head_);
    // In the row, keeping its room while hidden: the figure does not jump when a pass ends.
    status_ = new QLabel(controls_);
    status_->setObjectName(QStringLiteral("flowStatus"));
    QSizePolicy keep = status_->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    status_->setSizePolicy(keep);
    status_->hide();
    row->addWidget(status_);
    row->addSpacing(12);
    row->addWidget(export_);
    v->addLayout(row);
    message_ = new QLabel(controls_);
    message_->setObjectName(QStringLiteral("flowMessage"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #b2182b;"));
    message_->hide();
    v->addWidget(message_);
    return controls_;
}

/// The token in focus and the threshold redraw from the kept importances; "per head" computes
/// them again; the canvas hovers and clicks.
void FlowView::connectControls() {
    connect(position_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0) return;
        position_->setChosen(index);
        redraw();
    });
    connect(slider_, &QSlider::valueChanged, this, &FlowView::setThresholdFromSlider);
    connect(per_head_, &QCheckBox::toggled, this, [this] { schedule(); });
    connect(export_, &QPushButton::clicked, this, &FlowView::exportDialog);
    connect(canvas_, &FigureCanvas::mouseMoved, this, &FlowView::hoverAt);
    connect(canvas_, &FigureCanvas::mouseLeft, this, [this] { hoverAt(QPointF(-1e6, -1e6)); });
    connect(canvas_, &FigureCanvas::clicked, this, &FlowView::clickAt);
}

void FlowView::retranslate() {
    position_label_->setText(tr("Token in focus:"));
    position_->setToolTip(
        tr("The token whose prediction of the next token the graph explains (default: the "
           "last); clicking a token's dot in the figure chooses it too"));
    threshold_label_->setText(tr("Threshold:"));
    slider_->setToolTip(
        tr("The least importance of a line in the graph: lower shows more of the routes"));
    threshold_value_->setText(QString::number(threshold_, 'g', 3));
    per_head_->setText(tr("Per head"));
    per_head_->setToolTip(
        tr("The attention's lines per head rather than per token through every head "
           "(measures the importances again)"));
    export_->setText(tr("Export…"));
    export_->setToolTip(tr("The figure (PNG, SVG, PDF)"));
    status_->setText(tr("Measuring…"));
    unavailable_ = model_ ? flow_unavailable(*model_) : QString();
    showAvailability();
    fillPositions();
    relayout();  // the figure's title and notes, in the new language
}

void FlowView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    if (event->type() == QEvent::FontChange) relayout();
    QWidget::changeEvent(event);
}

void FlowView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (waiting_) schedule();
}

void FlowView::setSource(SnapshotPtr snapshot, ModelPtr model) {
    // The writer's rows grow the maps a token at a time: the full pass after it is measured.
    if (snapshot && snapshot->model && snapshot->model->provisional && model == model_) return;
    if (model != model_) {
        job_.drop();
        model_ = std::move(model);
        data_.reset();
        graph_.reset();
        ran_.reset();
        figure_->setData(nullptr, nullptr);
        position_->setChosen(-1);
        hover_edge_ = -1;
        hover_node_ = QPoint(-1, -1);
        figure_->setHover(-1, hover_node_);
        export_->setEnabled(false);
        unavailable_ = model_ ? flow_unavailable(*model_) : QString();
        relayout();
    }
    snapshot_ = (snapshot && snapshot->model) ? std::move(snapshot) : nullptr;
    showAvailability();
    fillPositions();
    schedule();
}

void FlowView::showAvailability() {
    const bool usable = model_ && unavailable_.isEmpty();
    if (!model_) {
        const QString shipped = shipped_model_names();
        placeholder_->setText(
            shipped.isEmpty()
                ? tr("Information flow needs a trained pre-norm model: open one (File ▸ Open "
                     "Model…).")
                : tr("Information flow needs a trained pre-norm model: choose one in the Source "
                     "box (built in: %1), or open one (File ▸ Open Model…).")
                      .arg(shipped));
    } else if (!usable) {
        placeholder_->setText(unavailable_);
    }
    placeholder_->setVisible(!usable);
    controls_->setVisible(usable);
    canvas_->setVisible(usable);
}

void FlowView::fillPositions() {
    if (!model_ || !unavailable_.isEmpty() || !snapshot_)
        position_->clearTokens();
    else
        position_->fillTokens(snapshot_->model->encoding, *model_);
}

int FlowView::position() const {
    return position_->currentIndex();
}

void FlowView::schedule() {
    if (!model_ || !unavailable_.isEmpty() || !snapshot_) return;
    const Ran wanted{snapshot_->model->encoding.ids, per_head_->isChecked()};
    if (ran_ == wanted && (data_ || isRunning())) {
        redraw();  // the importances are kept (or on their way): the graph follows the text
        return;
    }
    waiting_ = true;
    if (isVisible()) run();
}

bool FlowView::run() {
    if (!model_ || !unavailable_.isEmpty() || !snapshot_) return false;
    waiting_ = false;
    ran_ = Ran{snapshot_->model->encoding.ids, per_head_->isChecked()};
    ++computations_;
    status_->show();
    const ModelPtr model = model_;
    const ComputeConfig config = snapshot_->config;
    const QString text = snapshot_->model->text_a;
    const bool per_head = ran_->per_head;
    job_.start(
        [model, config, text, per_head](const JobControl& control) {
            const models::EncodedText e = encode_model_text(*model, config);
            return compute_flow(*model, e, text, per_head, worker_threads(), control);
        },
        {.finished = [this](FlowData d) { showData(std::move(d)); },
         .failed = [this](const QString& message) { showFailure(message); }});
    return true;
}

void FlowView::showData(FlowData data) {
    status_->hide();
    message_->hide();
    figure_->setData(nullptr, nullptr);  // before the data it points into goes
    data_ = std::make_shared<const FlowData>(std::move(data));
    export_->setEnabled(true);
    redraw();
    emit computed();
}

void FlowView::showFailure(const QString& message) {
    status_->hide();
    message_->setText(tr("Cannot measure the information flow: %1").arg(message));
    message_->show();
}

void FlowView::redraw() {
    // The figure lets go first: a failure below shows its message, which lays it out at once.
    figure_->setData(nullptr, nullptr);
    graph_.reset();
    const int at = position();
    if (data_ && at >= 0 && at < int(data_->pieces.size())) {
        try {
            graph_ = models::flow_graph(data_->flow, at, threshold_);
        } catch (const std::exception& e) {
            showFailure(error_text(e));
        }
    }
    figure_->setData(graph_ ? data_.get() : nullptr, graph_ ? &*graph_ : nullptr);
    hover_edge_ = -1;
    figure_->setHover(-1, hover_node_);
    relayout();
}

void FlowView::setThresholdFromSlider(int value) {
    threshold_ = slider_threshold(value);
    threshold_value_->setText(QString::number(threshold_, 'g', 3));
    redraw();
}

void FlowView::relayout() {
    // Wide enough for "0.005" and the widest value, so the row does not jump as it moves; in
    // the font it is shown in (presenting enlarges it).
    threshold_value_->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("0.0055")));
    FigureOptions options;
    options.font_px = std::max(9, QFontInfo(font()).pixelSize());
    figure_->setOptions(options);
    canvas_->relayout();
}

void FlowView::hoverAt(const QPointF& pos) {
    const QPoint node = figure_->nodeAt(pos);
    const int edge = node.x() >= 0 ? -1 : figure_->edgeAt(pos);
    if (edge == hover_edge_ && node == hover_node_) return;
    hover_edge_ = edge;
    hover_node_ = node;
    figure_->setHover(edge, node);
    const QString text =
        edge >= 0 ? figure_->describeEdge(edge) : figure_->describeNode(node.x(), node.y());
    canvas_->setToolTip(text);
    emit hovered(QString(text).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    canvas_->update();
}

void FlowView::clickAt(const QPointF& pos) {
    const QPoint node = figure_->nodeAt(pos);
    if (node.x() >= 0) {
        // A token's dot: the graph of its prediction, from the importances kept.
        if (node.y() != position()) position_->setCurrentIndex(node.y());
        return;
    }
    const int edge = figure_->edgeAt(pos);
    if (edge < 0 || !graph_) return;
    const models::FlowEdge& e = graph_->edges[std::size_t(edge)];
    if (e.via == models::FlowEdge::Via::Head || e.via == models::FlowEdge::Via::Attention)
        emit edgeActivated(int(e.to.layer) - 1, int(e.head), int(e.to.position),
                           int(e.from.position));
}

bool FlowView::exportTo(const QString& path) {
    try {
        if (!data_ || !graph_)
            throw UsageError(
                tr("There is no graph yet: there is nothing to export.").toStdString());
        write_atomically(path, encode_figure(render_flow_figure(*data_, *graph_, path)));
        return true;
    } catch (const std::exception& e) {
        emit failed(tr("Cannot export the information flow"), error_text(e));
        return false;
    }
}

void FlowView::copyFigure() {
    if (!data_ || !graph_) {
        emit failed(tr("Cannot copy the figure"),
                    tr("There is no graph yet: there is nothing to copy."));
        return;
    }
    QApplication::clipboard()->setImage(
        render_flow_figure(*data_, *graph_, QStringLiteral("flow.png")).image);
}

void FlowView::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the information flow"), QStringLiteral("flow.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (!path.isEmpty()) exportTo(path);
}

}  // namespace attnviz::ui
