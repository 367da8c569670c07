// A widget that shows one figure that paints itself (steps, lines, comparison, patching): it lays
// the figure out for its own size, paints it with the same code as the exports, and reports the
// mouse so the view around it can hover and click.
#pragma once

#include <QPointF>
#include <QWidget>

#include <memory>

#include "ui/render/painted_figure.h"

namespace attnviz::ui {

class FigureCanvas : public QWidget {
    Q_OBJECT
  public:
    FigureCanvas(std::unique_ptr<PaintedFigure> figure, QWidget* parent = nullptr);
    ~FigureCanvas() override;

    PaintedFigure* figure() const { return figure_.get(); }
    /// Lays the figure out again (after new data or options) and repaints.
    void relayout();

  signals:
    void mouseMoved(const QPointF& pos);
    void mouseLeft();
    void clicked(const QPointF& pos);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    std::unique_ptr<PaintedFigure> figure_;
};

}  // namespace attnviz::ui
