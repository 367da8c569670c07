// A zoomable heatmap of one head's whole map (render/zoom_map_figure.h draws it): the wheel
// zooms about the cursor, dragging pans, + and − zoom, the arrows pan, 0 fits the whole map;
// hovering says "query → key: weight"; Alt-click asks why a cell is what it is (the full-map
// window's "Why?" pane).  Every frame colours at most the widget's pixels, from the level of the
// map's pyramid whose cells are no smaller than a pixel.
#pragma once

#include <QPointF>
#include <QWidget>

#include <optional>

#include "ui/render/zoom_map_figure.h"

namespace attnviz::ui {

class ZoomHeatmap : public QWidget {
    Q_OBJECT
  public:
    /// The most a cell is magnified: a few dozen tokens fill the view.
    static constexpr double kMaxPixelsPerCell = 96.0;

    explicit ZoomHeatmap(QWidget* parent = nullptr);

    /// Shows `content`, fitted (keeps the view when `keep_view` and the map has the same size).
    void setContent(ZoomMapContent content, bool keep_view = false);
    void setColormap(Colormap map);
    ZoomMapFigure& figure() { return figure_; }
    const ZoomMapFigure& figure() const { return figure_; }

    /// The view: the cell (x key, y query, fractional) at the plot's centre, and pixels per cell.
    QPointF center() const { return center_; }
    double pixelsPerCell() const { return ppc_; }
    /// Zooms by `factor` keeping the cell under `anchor` (widget pixels) where it is.
    void zoomBy(double factor, const QPointF& anchor);
    void zoomBy(double factor);  ///< about the plot's centre
    /// Moves the view by `pixels` (the map follows the mouse: dragging right shows what is left).
    void panBy(const QPointF& pixels);
    /// The whole map in view.
    void fit();
    /// Shows cells [x, x + w) × [y, y + h) (keys × queries) as large as they fit.
    void showCells(const QRectF& cells);
    /// "“the” → “cat”: 0.412 (query 12, key 5)" for the cell at `pos`, empty outside the map.
    QString describeAt(const QPointF& pos) const;
    /// The cell at `pos` (x the key, y the query, from 0), or nothing outside the map.
    std::optional<QPoint> cellIndexAt(const QPointF& pos) const;
    /// Marks query row `row` (−1: none) and shows about kFocusCells cells around (row, col).
    void focusCell(int row, int col);
    int markedRow() const { return marked_row_; }
    /// Rows and keys a focused cell shows around it (fewer on a smaller map).
    static constexpr double kFocusCells = 32.0;

  signals:
    void hovered(const QString& text);
    void viewChanged();
    /// A cell was Alt-clicked (a drag pans): explain it.  Query `row`, key `col`, from 0.
    void cellExplainRequested(int row, int col);
    /// The mouse is over a cell (the "Why?" pane follows it when asked to).
    void cellHovered(int row, int col);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    /// Pixels per cell that show the whole map in a widget of `size` (default: this one's).
    double fitPixelsPerCell(QSize size = QSize()) const;
    /// Keeps the zoom within [fit, kMaxPixelsPerCell] and the centre on the map, and hands
    /// the region to the figure.
    void applyView();

    ZoomMapFigure figure_;
    QPointF center_;
    double ppc_ = 1.0;
    bool dragging_ = false;
    QPointF drag_from_;
    std::optional<QPointF> alt_press_;  ///< where an Alt-click began
    int marked_row_ = -1;
};

}  // namespace attnviz::ui
