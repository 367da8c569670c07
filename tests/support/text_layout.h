// A figure's text layout, for the tests that check that every text a figure draws lies inside
// its canvas and that no two texts overlap, in both languages and at every size (issue 35).
// TextLayoutDevice is a paint device that draws nothing: its engine records every text item
// QPainter hands it (each run of one font: a CJK fallback run is an item of its own, with its
// own, taller, metrics) as a rectangle on the canvas.  Any figure painted through QPainter
// reports its text layout this way, with nothing figure-specific in the figure.
#pragma once

#include <QFont>
#include <QList>
#include <QPaintDevice>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>

namespace attnviz::test {

/// One text item as drawn: its characters, its font and the rectangle it takes on the canvas
/// (from its baseline: ascent above, descent below, its advance wide, through the painter's
/// transform; a rotated label's bounding box).
struct DrawnText {
    QString text;
    QFont font;
    QRectF rect;
};

class TextLayoutEngine;

/// A canvas of `size` logical pixels at 96 dpi (as a PNG at scale 1) that records texts.
class TextLayoutDevice : public QPaintDevice {
  public:
    explicit TextLayoutDevice(QSize size);
    ~TextLayoutDevice() override;
    QPaintEngine* paintEngine() const override;
    QSize size() const { return size_; }
    /// Every text item drawn so far, in drawing order (blank ones left out).
    const QList<DrawnText>& texts() const;

  protected:
    int metric(PaintDeviceMetric metric) const override;

  private:
    QSize size_;
    std::unique_ptr<TextLayoutEngine> engine_;
};

/// "“Head 4 · knocked out” [12.0, 30.5 84.2×17.0]": enough to find the text.
QString describe(const DrawnText& text);

/// The texts of `texts` that reach outside the canvas `canvas` by more than `tolerance`
/// pixels, each described with the edge it crosses; empty when all are inside.
QStringList texts_outside(const QList<DrawnText>& texts, QSize canvas, double tolerance = 1.0);

/// The pairs of `texts` whose rectangles overlap by more than `tolerance` pixels both across
/// and down (touching edges are fine), each described with both texts; empty when none do.
/// Items of one run of text (a line that falls back to a CJK font for some characters) sit
/// side by side and touch without overlapping.
QStringList overlapping_texts(const QList<DrawnText>& texts, double tolerance = 1.0);

}  // namespace attnviz::test
