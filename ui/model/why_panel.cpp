#include "ui/model/why_panel.h"

#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "engine/errors.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/error_text.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/shipped_models.h"
#include "ui/render/figure_export.h"

namespace attnviz::ui {

WhyPanel::WhyPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("whyPanel"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 4);
    v->addWidget(createControls());
    auto figure = std::make_unique<WhyFigure>();
    figure_ = figure.get();
    figure_->setFitHeight(true);  // the canvas does not scroll
    canvas_ = new FigureCanvas(std::move(figure), this);
    canvas_->setObjectName(QStringLiteral("whyCanvas"));
    canvas_->setMouseTracking(true);
    v->addWidget(canvas_, 1);
    connectControls();
    retranslate();
}

WhyPanel::~WhyPanel() = default;

/// The heading and close, then "Follow the mouse" and Export; the sentence under them.
QWidget* WhyPanel::createControls() {
    controls_ = new QWidget(this);
    auto* v = new QVBoxLayout(controls_);
    v->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    heading_ = new QLabel(controls_);
    QFont bold = heading_->font();
    bold.setBold(true);
    heading_->setFont(bold);
    follow_ = new QCheckBox(controls_);
    follow_->setObjectName(QStringLiteral("whyFollow"));
    export_ = new QPushButton(controls_);
    export_->setObjectName(QStringLiteral("whyExport"));
    export_->setEnabled(false);
    close_ = new QToolButton(controls_);
    close_->setObjectName(QStringLiteral("whyClose"));
    close_->setAutoRaise(true);
    close_->setText(QStringLiteral("✕"));
    // Two rows: beside the maps the pane is narrow, and Chinese or a presenter's font is wide.
    row->addWidget(heading_, 1);
    row->addWidget(close_);
    v->addLayout(row);
    auto* tools = new QHBoxLayout;
    tools->addWidget(follow_);
    tools->addStretch(1);
    tools->addWidget(export_);
    v->addLayout(tools);
    message_ = new QLabel(controls_);
    message_->setObjectName(QStringLiteral("whyMessage"));
    message_->setWordWrap(true);
    message_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    v->addWidget(message_);
    return controls_;
}

void WhyPanel::connectControls() {
    connect(export_, &QPushButton::clicked, this, &WhyPanel::exportDialog);
    connect(close_, &QToolButton::clicked, this, [this] {
        job_.drop();
        hide();
    });
    connect(canvas_, &FigureCanvas::mouseMoved, this, &WhyPanel::hoverAt);
    connect(canvas_, &FigureCanvas::mouseLeft, this, [this] { hoverAt(QPointF(-1, -1)); });
    connect(canvas_, &FigureCanvas::clicked, this, &WhyPanel::clickAt);
}

void WhyPanel::retranslate() {
    heading_->setText(tr("Why this attention?"));
    follow_->setText(tr("Follow the mouse"));
    follow_->setToolTip(
        tr("Explain the cell under the mouse as it moves (sweep along a stripe), not only the "
           "one Alt-clicked"));
    export_->setText(tr("Export…"));
    export_->setToolTip(tr("The figure (PNG, SVG, PDF)"));
    close_->setToolTip(tr("Close the pane"));
    canvas_->setToolTip(tr("Click a head's bar to show that head's map"));
    if (!result_ && !isRunning())
        say(tr("Alt-click a cell of a head's map: its score is split into what the query and "
               "the key hold."),
            false);
    relayout();
}

void WhyPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    if (event->type() == QEvent::FontChange) relayout();
    QWidget::changeEvent(event);
}

void WhyPanel::say(const QString& text, bool problem) {
    message_->setText(text);
    message_->setStyleSheet(problem ? QStringLiteral("color: #b2182b;") : QString());
    message_->setVisible(!text.isEmpty());
}

void WhyPanel::setSource(SnapshotPtr snapshot, ModelPtr model) {
    // The writer's rows grow the maps a token at a time: explained again on the full pass.
    if (snapshot && snapshot->model && snapshot->model->provisional && model == model_) return;
    const bool same_text = snapshot_ && snapshot && snapshot_->model && snapshot->model &&
                           snapshot_->model->encoding.ids == snapshot->model->encoding.ids;
    snapshot_ = std::move(snapshot);
    if (model == model_ && same_text) return;
    job_.drop();
    model_ = std::move(model);
    result_.reset();
    ran_.reset();
    figure_->setResult(nullptr);
    export_->setEnabled(false);
    retranslate();
}

bool WhyPanel::following() const {
    return follow_->isChecked();
}

void WhyPanel::followCell(int layer, int head, int row, int col) {
    if (following() && isVisible()) explainCell(layer, head, row, col);
}

void WhyPanel::explainCell(int layer, int head, int row, int col) {
    show();
    const ModelMaps* maps = snapshot_ ? snapshot_->model.get() : nullptr;
    if (!model_ || !maps) {
        job_.drop();
        const QString shipped = shipped_model_names();
        say(shipped.isEmpty()
                ? tr("Why this attention? needs a trained model: the demo layer's weights are "
                     "random, so its scores have no parts worth naming. Open one (File ▸ Open "
                     "Model…).")
                : tr("Why this attention? needs a trained model: the demo layer's weights are "
                     "random, so its scores have no parts worth naming. Choose one in the Source "
                     "box (built in: %1).")
                      .arg(shipped),
            true);
        return;
    }
    if (head < 0 || row < 0 || col < 0 || row >= maps->tokens || col >= maps->tokens) {
        say(tr("Alt-click a cell of one head's map, not of the mean."), true);
        return;
    }
    if (maps->causal && col > row) {
        job_.drop();
        say(tr("The causal mask hides token %1 from token %2: a query never sees a later key, "
               "so that cell has no score to explain. Alt-click a cell on or below the "
               "diagonal.")
                .arg(maps->first_token + col + 1)
                .arg(maps->first_token + row + 1),
            true);
        return;
    }
    WhyRequest request;
    request.head = {layer, head};
    request.query = maps->pieceOf(row);
    request.key = maps->pieceOf(col);
    if (ran_ == request && (result_ || isRunning())) return;  // already shown, or on its way
    const double weight = layer < maps->num_layers && head < maps->heads_kept
                              ? double(maps->value(layer, head, row, col))
                              : std::nan("");
    ran_ = request;
    ++started_;
    say(tr("Explaining L%1H%2 at token %3 → token %4…")
            .arg(layer + 1)
            .arg(head + 1)
            .arg(request.query + 1)
            .arg(request.key + 1),
        false);
    const ModelPtr model = model_;
    const ComputeConfig config = snapshot_->config;
    const QString text = maps->text_a;
    // A request superseded by the next hover is dropped (its result never shown): only the last
    // one the mouse asked for is drawn.
    job_.start(
        [model, config, text, request, weight](const JobControl& control) {
            const models::EncodedText e = encode_model_text(*model, config);
            return compute_why(*model, e, text, request, weight, worker_threads(), control);
        },
        {.finished = [this](WhyResult r) { showResult(std::move(r)); },
         .failed =
             [this](const QString& m) { say(tr("Cannot explain this cell: %1").arg(m), true); }});
}

void WhyPanel::showResult(WhyResult result) {
    result_ = std::move(result);
    figure_->setResult(&*result_);
    export_->setEnabled(true);
    say(QString(), false);
    relayout();
    emit explained();
}

void WhyPanel::relayout() {
    FigureOptions options;
    options.font_px = std::max(9, QFontInfo(font()).pixelSize());
    figure_->setOptions(options);
    canvas_->relayout();
}

void WhyPanel::hoverAt(const QPointF& pos) {
    const int bar = figure_->barAt(pos);
    if (bar == hover_) return;
    hover_ = bar;
    figure_->setHover(bar);
    const QString text =
        bar < 0 ? QString()
                : QStringLiteral("%1: %2 %3")
                      .arg(figure_->barLabel(bar), paint::format_cell(figure_->barValue(bar)),
                           figure_->barShare(bar));
    canvas_->setToolTip(text);
    canvas_->setCursor(figure_->barHead(bar) ? Qt::PointingHandCursor : Qt::ArrowCursor);
    emit hovered(text);
    canvas_->update();
}

void WhyPanel::clickAt(const QPointF& pos) {
    if (const std::optional<models::HeadRef> h = figure_->barHead(figure_->barAt(pos)))
        emit headFocusRequested(int(h->layer), int(h->head));
}

QPoint WhyPanel::barCentre(int k) const {
    const QRectF r = figure_->barRect(k);
    return r.isValid() ? r.center().toPoint() : QPoint();
}

namespace {
/// The figure of `result` for `path` (its format from the suffix), as every export draws it.
RenderedFigure render_why_figure(const WhyResult& result, int top, const QString& path) {
    WhyFigure figure;
    figure.setResult(&result);
    figure.setTop(top);
    FigureOptions options;
    options.font_px = 14;
    figure.setOptions(options);
    return render_painted_figure(figure, ExportSize{}, path);
}
}  // namespace

bool WhyPanel::exportTo(const QString& path) {
    try {
        if (!result_)
            throw UsageError(
                tr("No cell is explained yet: there is nothing to export.").toStdString());
        write_atomically(path, encode_figure(render_why_figure(*result_, figure_->top(), path)));
        return true;
    } catch (const std::exception& e) {
        emit failed(tr("Cannot export the explanation"), error_text(e));
        return false;
    }
}

void WhyPanel::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the explanation"), QStringLiteral("why.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (!path.isEmpty()) exportTo(path);
}

}  // namespace attnviz::ui
