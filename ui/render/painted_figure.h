// A figure that lays itself out and paints itself with QPainter, so the window, every file
// export and `attnviz export` draw it through the same code (render/figure_export.h,
// render_painted_figure).  The classroom figures (ClassroomFigure) are these, fed a snapshot;
// the patching map is one fed a sweep's result.
#pragma once

#include <QSize>
#include <QString>

class QPainter;

namespace attnviz::ui {

class PaintedFigure {
  public:
    virtual ~PaintedFigure() = default;
    /// Positions everything for a canvas of `size` logical pixels.
    virtual void layout(QSize size) = 0;
    /// Draws the laid-out figure.  `vector`: the target is SVG/PDF, so matrices are drawn as
    /// rectangles that stay crisp at any zoom instead of images that viewers smooth.
    virtual void paint(QPainter* painter, bool vector) const = 0;
    virtual QString titleText() const = 0;
    virtual QString captionText() const = 0;
    /// After layout(): the height the content takes when less than the canvas's (the
    /// exports then cut the canvas there), else -1.
    virtual int usedHeight() const { return -1; }
    /// The same for the width (-1: all of it).
    virtual int usedWidth() const { return -1; }
};

}  // namespace attnviz::ui
