#include "ui/widgets/heatmap_grid_view.h"

#include <QLabel>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <QApplication>
#include <QElapsedTimer>

#include <cmath>
#include <functional>

#include <qcustomplot.h>

#include "ui/model/predictions_view.h"
#include "ui/render/heatmap_figure.h"

namespace attnviz::ui {

namespace {
/// Relays resizes so the figure is laid out for the new size before QCustomPlot replots.
class ResizingPlot : public QCustomPlot {
  public:
    using QCustomPlot::QCustomPlot;
    std::function<void(QSize)> on_resize;

  protected:
    void resizeEvent(QResizeEvent* event) override {
        if (on_resize) on_resize(event->size());
        QCustomPlot::resizeEvent(event);
    }
    void leaveEvent(QEvent* event) override {
        QCustomPlot::leaveEvent(event);
        if (on_leave) on_leave();
    }

  public:
    std::function<void()> on_leave;
};

QString fmt(double v) {
    if (std::isnan(v)) return QStringLiteral("NaN");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("+∞") : QStringLiteral("−∞");
    return QString::number(v, 'f', 4);
}
}  // namespace

HeatmapGridView::HeatmapGridView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* plot = new ResizingPlot(this);
    plot_ = plot;
    plot_->setObjectName(QStringLiteral("heatmapPlot"));
    plot_->setMinimumSize(320, 240);
    plot_->setMouseTracking(true);
    plot_->setAttribute(Qt::WA_Hover);
    layout->addWidget(plot_);
    strip_ = new PredictionStrip(this);
    layout->addWidget(strip_);
    figure_ = new HeatmapFigure(plot_);
    figure_->setInteractive(true);
    plot->on_resize = [this](QSize size) {
        if (figure_->snapshot()) figure_->layout(size);
    };
    plot->on_leave = [this] {
        figure_->setHighlight(-1, -1);
        hover_text_.clear();
        emit hovered(QString());
        setHoverPiece(-1);
    };
    message_ = new QLabel(plot_);
    message_->setObjectName(QStringLiteral("gridMessage"));
    message_->setWordWrap(true);
    message_->setAlignment(Qt::AlignCenter);
    message_->setStyleSheet(QStringLiteral(
        "QLabel { background: rgba(255, 244, 229, 235); color: #7a3b00; border: 1px solid "
        "#f0b070; border-radius: 6px; padding: 8px 14px; }"));
    message_->hide();

    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot_, &QWidget::customContextMenuRequested, this,
            [this](const QPoint& pos) { contextMenuAt(QPointF(pos)); });
    connect(plot_, &QCustomPlot::mouseMove, this, &HeatmapGridView::onMouseMove);
    connect(plot_, &QCustomPlot::mousePress, this, &HeatmapGridView::onMousePress);
    connect(plot_, &QCustomPlot::mouseRelease, this, &HeatmapGridView::onMouseRelease);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* e) {
        // The second click of a double click that enlarged a head must not undo it.
        if (enlarged_.isValid() && enlarged_.elapsed() < QApplication::doubleClickInterval() + 100)
            return;
        const FigureHit hit = figure_->hitTest(e->position());
        if (figure_->panelCount() == 1 && hit.region == FigureHit::Region::Cells)
            emit backToGridRequested();
    });
    connect(figure_, &HeatmapFigure::zoomChanged, this,
            [this] { plot_->replot(QCustomPlot::rpQueuedReplot); });
    connect(plot_, &QCustomPlot::afterReplot, this, [this] {
        if (figure_->snapshot()) {
            alignStrip();
            painted_generation_ = figure_->snapshot()->generation;
            emit repainted(painted_generation_);
        }
    });
}

HeatmapGridView::~HeatmapGridView() = default;

SnapshotPtr HeatmapGridView::snapshot() const {
    return figure_->snapshot();
}

void HeatmapGridView::setSnapshot(SnapshotPtr snapshot, std::shared_ptr<PreparedMaps> maps) {
    strip_->setSnapshot(snapshot);
    figure_->setSnapshot(std::move(snapshot), std::move(maps));
    relayout();
}

void HeatmapGridView::setSnapshot(SnapshotPtr snapshot, std::shared_ptr<PreparedMaps> maps,
                                  const FigureOptions& options) {
    FigureOptions o = options;
    o.font_px = QFontInfo(font()).pixelSize();
    figure_->setOptions(o);
    setSnapshot(std::move(snapshot), std::move(maps));
}

void HeatmapGridView::setOptions(const FigureOptions& options) {
    FigureOptions o = options;
    o.font_px = QFontInfo(font()).pixelSize();
    figure_->setOptions(o);
    relayout();
}

void HeatmapGridView::relayout() {
    figure_->layout(plot_->size());
    plot_->replot(QCustomPlot::rpImmediateRefresh);
}

void HeatmapGridView::alignStrip() {
    const SnapshotPtr s = figure_->snapshot();
    if (strip_->isHidden() || !s || figure_->panelCount() == 0) return;
    const int L = s->source_len;
    std::vector<QRectF> columns;
    const int dx = plot_->x() - strip_->x();  // the plot's x in the strip
    if (figure_->panelCount() == 1) {         // under the map's own columns, zoomed or not
        QCPAxis* x = figure_->panelRect(0)->axis(QCPAxis::atBottom);
        for (int j = 0; j < L; ++j) {
            const double a = x->coordToPixel(j - 0.5), b = x->coordToPixel(j + 0.5);
            columns.emplace_back(std::min(a, b) + dx, 0.0, std::abs(b - a), 1.0);
        }
        strip_->setColumns(std::move(columns), true);
        return;
    }
    // A grid of heads: the strip spans the panels, a column per token, its tokens above.
    double left = 1e9, right = -1e9;
    for (int k = 0; k < figure_->panelCount(); ++k) {
        const QRect r = figure_->panelRect(k)->rect();
        left = std::min(left, double(r.left()));
        right = std::max(right, double(r.right()));
    }
    const double w = L > 0 ? (right - left) / L : 0.0;
    for (int j = 0; j < L; ++j)
        columns.emplace_back(left + j * w + dx, 0.0, w, 1.0);
    strip_->setColumns(std::move(columns), false);
}

void HeatmapGridView::resetZoom() {
    figure_->resetZoom();
    plot_->replot();
}

void HeatmapGridView::setMessage(const QString& message) {
    message_->setText(message);
    message_->setVisible(!message.isEmpty());
    if (!message.isEmpty()) {
        const int w = std::min(plot_->width() - 40, 560);
        message_->setFixedWidth(std::max(200, w));
        message_->adjustSize();
        message_->move((plot_->width() - message_->width()) / 2, 16);
        message_->raise();
    }
}

QString HeatmapGridView::describe(const FigureHit& hit) const {
    const SnapshotPtr s = figure_->snapshot();
    if (!s || hit.panel < 0) return {};
    const int n = figure_->batchItem();
    const QString head = hit.head < 0
                             ? tr("mean of %n head(s)", nullptr, std::max(s->num_heads, s->heads))
                             : tr("head %1").arg(hit.head + 1);
    // Positions in the whole sequence (a window shows part of it); shown from 1.
    const int query = hit.row + s->query_offset, key = hit.col + s->key_offset;
    const int query_shown = query + 1, key_shown = key + 1;
    switch (hit.region) {
        case FigureHit::Region::Cells: {
            const QString q = s->query_tokens[n][hit.row];
            const QString k = s->key_tokens[n][hit.col];
            QString text = tr("%1 · query %2 “%3” → key %4 “%5” · weight %6")
                               .arg(head)
                               .arg(query_shown)
                               .arg(q)
                               .arg(key_shown)
                               .arg(k)
                               .arg(fmt(s->value(n, hit.head, hit.row, hit.col)));
            if (const auto score = s->score(n, hit.head, hit.row, hit.col))
                text += tr(" · raw score %1").arg(fmt(*score));
            else if (hit.head >= 0)
                text += tr(" · raw score not kept for this size");
            if (s->is_masked(n, hit.row, hit.col)) text += tr(" · masked");
            if (s->row_fully_masked(n, hit.head, hit.row))
                text += tr(" · row fully masked (%1)")
                            .arg(QLatin1String(masked_row_policy_name(s->config.masked_rows)));
            // What the "Why?" pane answers, for a trained model's head.
            if (s->model && hit.head >= 0) text += tr(" · Alt-click: why this attention?");
            return text;
        }
        case FigureHit::Region::KeyLabels:
            return tr("key %1 “%2” — click to %3 this key")
                .arg(key_shown)
                .arg(s->key_tokens[n][hit.col])
                .arg(s->config.masked_keys.count({n, key}) ? tr("unmask") : tr("mask"));
        case FigureHit::Region::QueryLabels:
            if (s->config.pair_mode == PairMode::CrossAttention)
                return tr("query %1 “%2”").arg(query_shown).arg(s->query_tokens[n][hit.row]);
            return tr("query %1 “%2” — click to %3 this token as a key")
                .arg(query_shown)
                .arg(s->query_tokens[n][hit.row])
                .arg(s->config.masked_keys.count({n, query}) ? tr("unmask") : tr("mask"));
        case FigureHit::Region::PanelTitle:
            return figure_->panelCount() > 1 ? tr("%1 — click to enlarge").arg(head)
                                             : tr("%1 — double-click to go back").arg(head);
        case FigureHit::Region::None:
            break;
    }
    return {};
}

void HeatmapGridView::hoverAt(const QPointF& pos) {
    const FigureHit hit = figure_->hitTest(pos);
    int row = -1, col = -1;
    if (hit.region == FigureHit::Region::Cells) {
        row = hit.row;
        col = hit.col;
    } else if (hit.region == FigureHit::Region::KeyLabels) {
        col = hit.col;
    } else if (hit.region == FigureHit::Region::QueryLabels) {
        row = hit.row;
    }
    figure_->setHighlight(row, col);
    const SnapshotPtr s = figure_->snapshot();
    const ModelMaps* m = s ? s->model.get() : nullptr;
    setHoverPiece(m && row >= 0 && row < m->tokens ? m->pieceOf(row) : -1);
    if (m && hit.region == FigureHit::Region::Cells && hit.head >= 0)
        emit cellHovered(s->layer, hit.head, row, col);
    const QString text = describe(hit);
    if (text != hover_text_) {
        hover_text_ = text;
        emit hovered(text);
    }
    plot_->setCursor(hit.region == FigureHit::Region::KeyLabels ||
                             (hit.region == FigureHit::Region::QueryLabels &&
                              figure_->snapshot()->config.pair_mode != PairMode::CrossAttention) ||
                             (hit.region != FigureHit::Region::None && figure_->panelCount() > 1)
                         ? Qt::PointingHandCursor
                         : Qt::CrossCursor);
}

void HeatmapGridView::setHoverPiece(int piece) {
    if (piece == hover_piece_) return;
    hover_piece_ = piece;
    emit pieceHovered(piece);
}

void HeatmapGridView::clickAt(const QPointF& pos) {
    const FigureHit hit = figure_->hitTest(pos);
    const SnapshotPtr s = figure_->snapshot();
    if (!s || hit.panel < 0) return;
    const int n = figure_->batchItem();
    switch (hit.region) {
        case FigureHit::Region::KeyLabels:  // in positions of the whole sequence
            emit keyLabelClicked(n, hit.col + s->key_offset);
            break;
        case FigureHit::Region::QueryLabels:
            // In self-attention (and a batch) query i is also key i.
            if (s->config.pair_mode != PairMode::CrossAttention)
                emit keyLabelClicked(n, hit.row + s->query_offset);
            break;
        case FigureHit::Region::Cells:
        case FigureHit::Region::PanelTitle:
            if (figure_->panelCount() > 1) {
                enlarged_.start();
                emit headClicked(hit.head);
            }
            break;
        case FigureHit::Region::None:
            break;
    }
}

namespace {
/// The model's head under a hit, or -1 (the demo layer, the mean, outside the maps).
int model_head(const AttentionSnapshot* s, const FigureHit& hit) {
    return s && s->model && hit.head >= 0 &&
                   (hit.region == FigureHit::Region::Cells ||
                    hit.region == FigureHit::Region::PanelTitle)
               ? hit.head
               : -1;
}
}  // namespace

void HeatmapGridView::contextMenuAt(const QPointF& pos) {
    const SnapshotPtr s = figure_->snapshot();
    const int head = model_head(s.get(), figure_->hitTest(pos));
    if (head >= 0) emit headMenuRequested(s->layer, head, plot_->mapToGlobal(pos.toPoint()));
}

void HeatmapGridView::onMouseMove(QMouseEvent* event) {
    hoverAt(event->position());
    if (!hover_text_.isEmpty() && !pressed_)
        QToolTip::showText(event->globalPosition().toPoint(), hover_text_, plot_);
    else
        QToolTip::hideText();
}

void HeatmapGridView::onMousePress(QMouseEvent* event) {
    pressed_ = event->button() == Qt::LeftButton;
    press_pos_ = event->pos();
}

void HeatmapGridView::onMouseRelease(QMouseEvent* event) {
    const bool click = pressed_ && event->button() == Qt::LeftButton &&
                       (event->pos() - press_pos_).manhattanLength() <= 3;
    pressed_ = false;
    if (click && (event->modifiers() & Qt::AltModifier)) {
        const SnapshotPtr s = figure_->snapshot();
        const FigureHit hit = figure_->hitTest(event->position());
        if (s && hit.region == FigureHit::Region::Cells)
            emit cellExplainRequested(s->layer, hit.head, hit.row, hit.col);
        return;
    }
    if (click && (event->modifiers() & Qt::ControlModifier)) {  // ⌘ on macOS
        const SnapshotPtr s = figure_->snapshot();
        const int head = model_head(s.get(), figure_->hitTest(event->position()));
        if (head >= 0) emit knockOutToggled(s->layer, head);
        return;
    }
    if (click) clickAt(event->position());
}

}  // namespace attnviz::ui
