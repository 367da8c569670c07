#include "ui/widgets/zoom_heatmap.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "ui/render/fonts.h"

namespace attnviz::ui {

ZoomHeatmap::ZoomHeatmap(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("zoomHeatmap"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(360, 300);
    figure_.layout(size());
}

void ZoomHeatmap::setContent(ZoomMapContent content, bool keep_view) {
    const bool same = keep_view && figure_.hasMap() && content.pyramid &&
                      content.pyramid->rows() == figure_.content().pyramid->rows() &&
                      content.pyramid->cols() == figure_.content().pyramid->cols();
    figure_.setContent(std::move(content));
    if (same)
        applyView();
    else
        fit();
}

void ZoomHeatmap::setColormap(Colormap map) {
    figure_.setColormap(map);
    update();
}

double ZoomHeatmap::fitPixelsPerCell(QSize size) const {
    if (!figure_.hasMap()) return 1.0;
    const QRect plot = ZoomMapFigure::plotFor(size.isValid() ? size : this->size());
    const auto& p = *figure_.content().pyramid;
    return std::min(plot.width() / double(p.cols()), plot.height() / double(p.rows()));
}

void ZoomHeatmap::applyView() {
    figure_.layout(size());
    if (figure_.hasMap()) {
        const auto& p = *figure_.content().pyramid;
        const double least = fitPixelsPerCell();
        ppc_ = std::clamp(ppc_, least, std::max(least, kMaxPixelsPerCell));
        const QRect plot = figure_.plotRect();
        const double w = plot.width() / ppc_, h = plot.height() / ppc_;
        // The centre stays where the map is in view: at the fitted zoom, the map's centre.
        const double cols = double(p.cols()), rows = double(p.rows());
        const auto keep = [](double c, double half, double size) {
            return half * 2 >= size ? size / 2 : std::clamp(c, half, size - half);
        };
        center_ = QPointF(keep(center_.x(), w / 2, cols), keep(center_.y(), h / 2, rows));
        figure_.setRegion(QRectF(center_.x() - w / 2, center_.y() - h / 2, w, h));
    }
    update();
    emit viewChanged();
}

void ZoomHeatmap::fit() {
    if (figure_.hasMap()) {
        const auto& p = *figure_.content().pyramid;
        center_ = QPointF(p.cols() / 2.0, p.rows() / 2.0);
    }
    ppc_ = fitPixelsPerCell();
    applyView();
}

void ZoomHeatmap::showCells(const QRectF& cells) {
    figure_.layout(size());
    const QRect plot = figure_.plotRect();
    ppc_ = std::min(plot.width() / cells.width(), plot.height() / cells.height());
    center_ = cells.center();
    applyView();
}

void ZoomHeatmap::zoomBy(double factor, const QPointF& anchor) {
    if (!figure_.hasMap()) return;
    const QPointF before = figure_.cellAt(anchor);
    ppc_ *= factor;
    applyView();
    // Keep the cell under the anchor where it was.
    const QPointF after = figure_.cellAt(anchor);
    center_ += before - after;
    applyView();
}

void ZoomHeatmap::zoomBy(double factor) {
    zoomBy(factor, QRectF(figure_.plotRect()).center());
}

void ZoomHeatmap::panBy(const QPointF& pixels) {
    if (!figure_.hasMap()) return;
    center_ -= pixels / ppc_;
    applyView();
}

std::optional<QPoint> ZoomHeatmap::cellIndexAt(const QPointF& pos) const {
    if (!figure_.hasMap() || !figure_.regionRect().contains(pos)) return std::nullopt;
    const QPointF c = figure_.cellAt(pos);
    const auto& p = *figure_.content().pyramid;
    const auto i = std::int64_t(std::floor(c.y())), j = std::int64_t(std::floor(c.x()));
    if (i < 0 || j < 0 || i >= p.rows() || j >= p.cols()) return std::nullopt;
    return QPoint(int(j), int(i));
}

void ZoomHeatmap::focusCell(int row, int col) {
    marked_row_ = row;
    if (!figure_.hasMap() || row < 0) return update();
    const auto& p = *figure_.content().pyramid;
    const double side = std::min({kFocusCells, double(p.rows()), double(p.cols())});
    // applyView() keeps the region on the map: near an edge the cell is off centre.
    showCells(QRectF(col + 0.5 - side / 2, row + 0.5 - side / 2, side, side));
}

QString ZoomHeatmap::describeAt(const QPointF& pos) const {
    const std::optional<QPoint> cell = cellIndexAt(pos);
    if (!cell) return {};
    const auto& p = *figure_.content().pyramid;
    const std::int64_t i = cell->y(), j = cell->x();
    const float w = p.level(0).at(i, j);
    const auto& tokens = figure_.content().tokens;
    const auto token = [&](std::int64_t k) {
        return k < std::int64_t(tokens.size()) ? visible_token(tokens[std::size_t(k)])
                                               : QString::number(k + 1);
    };
    QString text = tr("“%1” → “%2”: %3 (query %4, key %5)")
                       .arg(token(i), token(j))
                       .arg(double(w), 0, 'g', 4)
                       .arg(i + 1)
                       .arg(j + 1);
    const ops::PyramidLevel& shown = p.level(figure_.drawnCells().level);
    if (shown.scale > 1) {
        const float pooled = shown.at(i / shown.scale, j / shown.scale);
        text += p.mode() == ops::PoolMode::Max
                    ? tr(" · this pixel: the largest of %1 × %1 cells, %2")
                          .arg(shown.scale)
                          .arg(double(pooled), 0, 'g', 4)
                    : tr(" · this pixel: the mean of %1 × %1 cells, %2")
                          .arg(shown.scale)
                          .arg(double(pooled), 0, 'g', 4);
    }
    return text;
}

void ZoomHeatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    figure_.layout(size());
    figure_.paint(&p, false);
    if (hasFocus()) {
        p.setPen(QPen(QColor(0, 114, 178), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect().adjusted(1, 1, -1, -1));
    }
    if (marked_row_ >= 0 && figure_.hasMap()) {  // the query asked for, framed across the map
        const QRectF shown = figure_.regionRect();
        const double ppc = figure_.pixelsPerCell();
        const double y = shown.y() + (marked_row_ - figure_.region().y()) * ppc;
        const QRectF row(shown.x(), y, shown.width(), std::max(ppc, 2.0));
        if (row.intersects(shown)) {
            p.setPen(QPen(QColor(213, 94, 0), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(row.intersected(shown.adjusted(-1, -1, 1, 1)));
        }
    }
}

void ZoomHeatmap::resizeEvent(QResizeEvent* event) {
    // Whole at the old size (the size is the new one by now): whole at the new one too, as when
    // the "Why?" pane opens beside the map.
    const bool fitted = ppc_ <= fitPixelsPerCell(event->oldSize()) * 1.0001 || !figure_.hasMap();
    QWidget::resizeEvent(event);
    if (fitted)
        fit();
    else
        applyView();
}

void ZoomHeatmap::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0.0) return QWidget::wheelEvent(event);
    zoomBy(std::pow(1.25, steps), event->position());
    event->accept();
}

void ZoomHeatmap::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    if (event->modifiers() & Qt::AltModifier) {  // a question, not a drag
        alt_press_ = event->position();
        return;
    }
    dragging_ = true;
    drag_from_ = event->position();
    setCursor(Qt::ClosedHandCursor);
}

void ZoomHeatmap::mouseMoveEvent(QMouseEvent* event) {
    if (dragging_) {
        panBy(event->position() - drag_from_);
        drag_from_ = event->position();
    }
    const QString text = describeAt(event->position());
    setToolTip(text);
    emit hovered(text);
    if (const std::optional<QPoint> cell = cellIndexAt(event->position()))
        emit cellHovered(cell->y(), cell->x());
}

void ZoomHeatmap::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && alt_press_) {
        const bool click = (event->position() - *alt_press_).manhattanLength() <= 3;
        alt_press_.reset();
        if (const std::optional<QPoint> cell = cellIndexAt(event->position()); click && cell)
            emit cellExplainRequested(cell->y(), cell->x());
        return;
    }
    if (event->button() == Qt::LeftButton && dragging_) {
        dragging_ = false;
        unsetCursor();
    }
    QWidget::mouseReleaseEvent(event);
}

void ZoomHeatmap::keyPressEvent(QKeyEvent* event) {
    const QRect plot = figure_.plotRect();
    const double dx = plot.width() / 8.0, dy = plot.height() / 8.0;
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            return zoomBy(1.5);
        case Qt::Key_Minus:
        case Qt::Key_Underscore:
            return zoomBy(1 / 1.5);
        case Qt::Key_0:
        case Qt::Key_Home:
            return fit();
        case Qt::Key_Left:
            return panBy(QPointF(dx, 0));
        case Qt::Key_Right:
            return panBy(QPointF(-dx, 0));
        case Qt::Key_Up:
            return panBy(QPointF(0, dy));
        case Qt::Key_Down:
            return panBy(QPointF(0, -dy));
        default:
            return QWidget::keyPressEvent(event);
    }
}

void ZoomHeatmap::leaveEvent(QEvent* event) {
    emit hovered(QString());
    QWidget::leaveEvent(event);
}

}  // namespace attnviz::ui
