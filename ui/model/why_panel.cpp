#include "ui/model/why_panel.h"

#include <QApplication>
#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
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

QSplitter* why_splitter(QWidget* view, QWidget* parent) {
    auto* splitter = new QSplitter(Qt::Horizontal, parent);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(view);
    splitter->setStretchFactor(0, 3);  // and the pane's 2: the maps keep the wider part
    splitter->setFocusProxy(view);
    return splitter;
}

WhyPanel::WhyPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("whyPanel"));
    setMinimumWidth(kMinimumWidth);
    QSizePolicy policy = sizePolicy();
    policy.setHorizontalStretch(2);  // as a stretch factor of the splitter it is in
    setSizePolicy(policy);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 4);
    v->addWidget(createControls());
    auto figure = std::make_unique<WhyFigure>();
    figure_ = figure.get();
    figure_->setFitHeight(true);  // the canvas does not scroll
    canvas_ = new FigureCanvas(std::move(figure), this);
    canvas_->setObjectName(QStringLiteral("whyCanvas"));
    canvas_->setMouseTracking(true);
    // Narrow beside a 1280-pixel window's maps: the figure stacks its labels over its bars.
    canvas_->setMinimumSize(kMinimumWidth - 12, 160);
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
        dropRequest();
        stream_job_.drop();
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

void WhyPanel::placeIn(QSplitter* splitter) {
    if (!splitter || parentWidget() == splitter) return;
    const bool open = !isHidden();
    splitter->addWidget(this);  // takes it from the splitter it was in
    setVisible(open);
}

void WhyPanel::setPresentation(int font_px) {
    QFont f = QApplication::font();
    // Two thirds of the presenting size (16 pt): at 24 pt its sentences would not fit beside
    // the maps, whose share of the screen keeps one head's map a quarter of its height.
    if (font_px > 0) f.setPixelSize(std::max(QFontInfo(f).pixelSize(), font_px * 2 / 3));
    setFont(f);
    const QScreen* s = screen();
    setMaximumWidth(font_px > 0 && s ? std::max(minimumWidth(), s->geometry().width() * 3 / 10)
                                     : QWIDGETSIZE_MAX);
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
    dropRequest();
    stream_job_.drop();
    stream_.reset();
    model_ = std::move(model);
    result_.reset();
    ran_.reset();
    figure_->setResult(nullptr);
    export_->setEnabled(false);
    retranslate();
    // The window's own pass explains every cell when it was recorded; else, open, the new
    // text's pass is recorded now, so that its first cell is explained at once.
    stream_ = snapshot_ && snapshot_->model ? window_why_stream(*snapshot_->model) : nullptr;
    if (!stream_ && isVisible()) recordStream();
}

bool WhyPanel::following() const {
    return follow_->isChecked();
}

void WhyPanel::followCell(int layer, int head, int row, int col) {
    if (following() && isVisible()) explainCell(layer, head, row, col);
}

void WhyPanel::followPieces(int layer, int head, std::int64_t query, std::int64_t key,
                            double weight) {
    if (following() && isVisible()) explainPieces(layer, head, query, key, weight);
}

bool WhyPanel::sayWhyNot() {
    const ModelMaps* maps = snapshot_ ? snapshot_->model.get() : nullptr;
    if (model_ && maps) return false;
    dropRequest();
    const QString shipped = shipped_model_names();
    if (maps)  // maps read from a file: a model made them, but its weights are not here
        say(tr("Why this attention? needs the weights of the model that made these maps: maps "
               "read from a file hold the weights of attention, not what they were computed "
               "from. Open the model itself (File ▸ Open Model…)."),
            true);
    else
        say(shipped.isEmpty()
                ? tr("Why this attention? needs a trained model: the demo layer's weights are "
                     "random, so its scores have no parts worth naming. Open one (File ▸ Open "
                     "Model…).")
                : tr("Why this attention? needs a trained model: the demo layer's weights are "
                     "random, so its scores have no parts worth naming. Choose one in the Source "
                     "box (built in: %1).")
                      .arg(shipped),
            true);
    return true;
}

void WhyPanel::sayMasked(std::int64_t query_shown, std::int64_t key_shown) {
    dropRequest();
    say(tr("The causal mask hides token %1 from token %2: a query never sees a later key, "
           "so that cell has no score to explain. Alt-click a cell on or below the "
           "diagonal.")
            .arg(key_shown)
            .arg(query_shown),
        true);
}

void WhyPanel::explainCell(int layer, int head, int row, int col) {
    show();
    if (sayWhyNot()) return;
    const ModelMaps* maps = snapshot_->model.get();
    if (head < 0) {
        say(tr("Alt-click a cell of one head's map, not of the mean."), true);
        return;
    }
    if (row < 0 || col < 0 || row >= maps->tokens || col >= maps->tokens) {
        // The Model tab's squares of the whole text, or a head whose map was not kept.
        say(tr("This map is not drawn cell by cell here: open the head's full map (right-click "
               "it, Open Full Map…) and Alt-click a cell there."),
            true);
        return;
    }
    if (maps->causal && col > row) {
        sayMasked(maps->first_token + row + 1, maps->first_token + col + 1);
        return;
    }
    const double weight = layer < maps->num_layers && head < maps->heads_kept
                              ? double(maps->value(layer, head, row, col))
                              : std::nan("");
    explain({{layer, head}, maps->pieceOf(row), maps->pieceOf(col)}, weight);
}

void WhyPanel::explainPieces(int layer, int head, std::int64_t query, std::int64_t key,
                             double weight) {
    show();
    if (sayWhyNot()) return;
    const ModelMaps* maps = snapshot_->model.get();
    if (head < 0 || query < 0 || key < 0 || query >= maps->text_pieces ||
        key >= maps->text_pieces) {
        say(tr("Alt-click a cell of one head's map, not of the mean."), true);
        return;
    }
    if (maps->causal && key > query) {
        sayMasked(query + 1, key + 1);
        return;
    }
    explain({{layer, head}, query, key}, weight);
}

void WhyPanel::explain(const WhyRequest& request, double weight) {
    if (ran_ == request && (result_ || isRunning())) return;  // already shown, or on its way
    ran_ = request;
    ++started_;
    say(tr("Explaining L%1H%2 at token %3 → token %4…")
            .arg(request.head.layer + 1)
            .arg(request.head.head + 1)
            .arg(request.query + 1)
            .arg(request.key + 1),
        false);
    // The text's first cell: its pass is recorded first (or is being recorded already), and
    // this cell explained from it when it comes.
    if (!stream_ && (stream_job_.isRunning() || recordStream())) {
        job_.drop();
        waiting_ = {request, weight};
        return;
    }
    startExplaining(request, weight);
}

void WhyPanel::startExplaining(const WhyRequest& request, double weight) {
    waiting_.reset();
    const ModelPtr model = model_;
    const ComputeConfig config = snapshot_->config;
    const QString text = snapshot_->model->text_a;
    const std::shared_ptr<const WhyStream> stream = stream_;
    // A request superseded by the next hover is dropped (its result never shown): only the last
    // one the mouse asked for is drawn.
    job_.start(
        [model, config, text, request, weight, stream](const JobControl& control) {
            if (stream)
                return compute_why(*model, *stream, text, request, weight, worker_threads(),
                                   control);
            const models::EncodedText e = encode_model_text(*model, config);
            return compute_why(*model, e, text, request, weight, worker_threads(), control);
        },
        {.finished = [this](WhyResult r) { showResult(std::move(r)); },
         .failed =
             [this](const QString& m) { say(tr("Cannot explain this cell: %1").arg(m), true); }});
}

bool WhyPanel::recordStream() {
    const ModelMaps* maps = snapshot_ ? snapshot_->model.get() : nullptr;
    if (!model_ || !maps ||
        models::stream_record_bytes(model_->model->config(),
                                    std::int64_t(maps->encoding.ids.size())) > kMaxStreamBytes)
        return false;
    const ModelPtr model = model_;
    const ComputeConfig config = snapshot_->config;
    stream_job_.start(
        [model, config](const JobControl& control) {
            return record_why_stream(*model, encode_model_text(*model, config), worker_threads(),
                                     control);
        },
        {.finished =
             [this](WhyStream s) {
                 stream_ = std::make_shared<const WhyStream>(std::move(s));
                 if (waiting_) startExplaining(waiting_->first, waiting_->second);
             },
         .failed =
             [this](const QString& m) {
                 // Said only when a cell waits: a recording ahead of any click fails silently,
                 // and the click's own attribution says why.
                 if (!waiting_) return;
                 waiting_.reset();
                 say(tr("Cannot explain this cell: %1").arg(m), true);
             }});
    return true;
}

void WhyPanel::dropRequest() {
    job_.drop();
    waiting_.reset();
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
