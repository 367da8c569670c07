#include "ui/classroom/figure_canvas.h"

#include <QMouseEvent>
#include <QPainter>

namespace attnviz::ui {

FigureCanvas::FigureCanvas(std::unique_ptr<PaintedFigure> figure, QWidget* parent)
    : QWidget(parent), figure_(std::move(figure)) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 240);
}

FigureCanvas::~FigureCanvas() = default;

void FigureCanvas::relayout() {
    figure_->layout(size());
    update();
}

void FigureCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    figure_->paint(&painter, false);
}

void FigureCanvas::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    figure_->layout(size());
}

void FigureCanvas::mouseMoveEvent(QMouseEvent* event) {
    emit mouseMoved(event->position());
}

void FigureCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) emit clicked(event->position());
    QWidget::mousePressEvent(event);
}

void FigureCanvas::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    emit mouseLeft();
}

}  // namespace attnviz::ui
