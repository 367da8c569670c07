// The logit lens as a figure: a layers × positions grid, each cell the lens's top-1 token
// coloured by its probability, a bold frame where it is the token to guess.  The window's
// Logit Lens tab and every export (file, clipboard, `attnviz export --view lens`) lay it out
// and paint it with this one class.
#pragma once

#include <QFont>
#include <QPoint>
#include <QRect>

#include "ui/classroom/classroom_figure.h"
#include "ui/compute/model_lens.h"

namespace attnviz::ui {

/// Where the grid's parts go.
struct LensLayout {
    QRect cells;  ///< the grid of cells, layer 1 at the top
    int layers = 0, positions = 0;
    double cell_w = 0.0, cell_h = 0.0;
    QRect tokens;   ///< the row of input tokens above the grid
    QRect targets;  ///< the row of tokens to guess under it
    QRect legend;   ///< colour bar and explanation
    QRectF cellRect(int layer, int position) const;
    /// (position, layer) of the cell at `pos`, or (-1, -1).
    QPoint cellAt(const QPoint& pos) const;
};

class LensFigure : public ClassroomFigure {
  public:
    void setSnapshot(SnapshotPtr snapshot) override { snapshot_ = std::move(snapshot); }
    void setOptions(const FigureOptions& options) override { options_ = options; }
    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override;

    const LensGrid* lens() const;
    const LensLayout& grid() const { return grid_; }
    /// What hovering a cell says: the layer, the position and its token, the token to guess,
    /// and the lens's top 5 with their probabilities.
    QString describe(int layer, int position) const;
    /// What the figure says instead of a grid: no model, the lens still computing, or why
    /// this model has none.  Empty when there is a grid.
    QString message() const;

  private:
    SnapshotPtr snapshot_;
    FigureOptions options_;
    QSize size_;
    paint::TitleBlock title_;
    LensLayout grid_;
    QFont font_, bold_, label_font_;
    QString legend_;
};

}  // namespace attnviz::ui
