// The classroom figures (computation steps, head lines, comparison) are diagrams rather
// than plots, so they paint themselves with QPainter instead of laying out a QCustomPlot.
// They share this interface so that the window, every file export, the clipboard and
// `attnviz export` draw them through the same code (render/figure_export.cpp), and a few
// drawing helpers so they look like one family with the heatmap grid.
#pragma once

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "ui/compute/attention_snapshot.h"
#include "ui/document/attention_config.h"
#include "ui/render/painted_figure.h"

class QFontMetricsF;
class QPainter;

namespace attnviz::ui {

class ClassroomFigure : public PaintedFigure {
  public:
    virtual void setSnapshot(SnapshotPtr snapshot) = 0;
    /// The second configuration of a figure that compares two (CompareFigure); the other
    /// figures draw one snapshot and ignore it.
    virtual void setCompared(SnapshotPtr snapshot) { (void)snapshot; }
    virtual void setOptions(const FigureOptions& options) = 0;
};

namespace paint {

inline const QColor kText(0x20, 0x20, 0x20);
inline const QColor kMuted(0x66, 0x66, 0x66);
inline const QColor kAccent(0x00, 0x72, 0xb2);     ///< Okabe-Ito blue: the current step
inline const QColor kHighlight(0xd5, 0x5e, 0x00);  ///< Okabe-Ito vermillion: provenance

/// The colour of a figure's text and of its secondary text (black and dark grey in high
/// contrast).
inline QColor text_color(const FigureOptions& options) {
    return options.high_contrast ? QColor(Qt::black) : kText;
}
inline QColor muted_color(const FigureOptions& options) {
    return options.high_contrast ? QColor(0x33, 0x33, 0x33) : kMuted;
}

/// Diverging blue-white-red (ColorBrewer RdBu, colour-blind safe) for signed values,
/// symmetric around 0: v = -max_abs is blue, 0 white, +max_abs red.
QColor signed_color(double v, double max_abs);
/// A bar that raises a value (red) or lowers it (blue), at one strength whatever its length.
inline QColor sign_bar_color(double v) {
    return signed_color(v >= 0 ? 0.8 : -0.8, 1.0);
}
/// The up-to-ten colours heads are drawn in (Okabe-Ito, then Tol's muted), cycling.
QColor head_color(int head);
/// "0.25", "−1.3", "−∞", "<.01".
QString format_cell(double v);
/// `text` broken into lines of at most `width` pixels.
QString wrap_text(const QString& text, const QFont& font, double width);
/// `text` cut to `width` pixels with an ellipsis.
QString elide(const QString& text, const QFontMetricsF& metrics, double width);
/// The title and the caption (the configuration) at the top of a classroom figure, in the
/// same fonts as the heatmap grid's.
struct TitleBlock {
    QRectF title;
    QRectF caption;
    QString title_text;
    QString caption_text;  ///< wrapped
    /// Lays the block out from `top` across `width` (with `pad` either side); returns the
    /// y below it.  Nothing when !options.show_title.
    double layout(const FigureOptions& options, const QString& title, const QString& caption,
                  double top, double width, double pad);
    void paint(QPainter* painter, const FigureOptions& options) const;
};

/// Diagonal hatching inside `rect` on a fixed grid (so neighbouring cells line up).
void hatch(QPainter* painter, const QRectF& rect, const QColor& color, double spacing = 6.0);

/// A vertical colour bar in `bar`: `colour_at(t)` from t = 0 at the bottom to 1 at the top,
/// framed in `frame`, and each tick (t, label) as a mark with its label right of the bar in
/// `font` (the pen's colour for the labels is the caller's).
void color_bar(QPainter* painter, const QRectF& bar,
               const std::function<QColor(double t)>& colour_at,
               const std::vector<std::pair<double, QString>>& ticks, const QFont& font,
               const QColor& frame);

}  // namespace paint

}  // namespace attnviz::ui
