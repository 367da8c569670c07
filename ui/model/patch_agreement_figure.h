// How well attribution patching agrees with the exact sweep: a small scatter the patching figure
// draws beside its map once both exist, x each head's exact fraction, y its estimate, one dot a
// head, the diagonal where they would agree, and Spearman's ρ (models::spearman) in its title.
#pragma once

#include <QFont>
#include <QPoint>
#include <QRectF>
#include <QString>

#include <vector>

#include "ui/classroom/classroom_figure.h"

class QPainter;

namespace attnviz::ui {

/// The heads both methods have a finite fraction for, in layer-then-head order.
struct PatchAgreement {
    std::vector<QPoint> heads;            ///< (head, layer), from 0
    std::vector<double> exact, estimate;  ///< x and y
    double rho = 0.0;  ///< Spearman's rank correlation (NaN: fewer than two heads, or constant)
    bool empty() const { return heads.empty(); }
};

/// The scatter, laid out in a rectangle of the patching figure and painted there.
class PatchAgreementPlot {
  public:
    void setAgreement(const PatchAgreement* agreement) { agreement_ = agreement; }
    /// Places the plot at `top_left`, `width` wide (its title wrapped to that) and at most
    /// `max_height` tall, in `font` (its title) and `small` (ticks, axes); returns the height it
    /// takes (0: no room, nothing drawn).
    double layout(QPointF top_left, double width, double max_height, const QFont& font,
                  const QFont& small);
    /// `hover` and `chosen` (head, layer) are ringed.
    void paint(QPainter* p, const FigureOptions& options, QPoint hover, QPoint chosen) const;

    /// After layout(): all of it (empty: not drawn), and the square of the dots.
    QRectF rect() const { return rect_; }
    QRectF plotRect() const { return plot_; }
    /// The dot of `head` (x) of `layer` (y) (a null point when it has none).
    QPointF dotCentre(QPoint head) const;
    /// The head (x) and layer (y) of the dot under `pos`, or (-1, -1).
    QPoint headAt(const QPointF& pos) const;
    /// "L2H8: exact 0.744, attribution 0.640"; empty for a head without a dot.
    QString describe(QPoint head) const;
    /// "Exact against attribution", and on a line of its own "Spearman ρ = 0.976 (16 heads)",
    /// as drawn (unwrapped).
    QString titleText() const;

  private:
    /// Where the value `v` falls along the plot's side, from its lower end.
    double along(double v) const;

    const PatchAgreement* agreement_ = nullptr;
    QFont font_, small_;
    QRectF rect_, plot_;
    QString title_;  ///< titleText(), wrapped to the width
    double title_h_ = 0.0;
    double lo_ = 0.0, hi_ = 1.0;  ///< both axes' range
};

}  // namespace attnviz::ui
