// Axis ticks at integer positions labelled with the tokens themselves.  Only as many labels
// as fit are shown (every k-th token: k up to 5, then a 10-20-50 step), so a 1024-token axis stays
// readable and more labels appear as the user zooms in.
#pragma once

#include <QString>
#include <QVector>

#include <qcustomplot.h>

namespace attnviz::ui {

/// QCustomPlot keeps an axis's tick labels drawn as pixmaps, the last 16 it drew
/// (QCPAxisPainterPrivate's label cache).  A token axis shows more than 16, and every replot
/// then laid each label's text out and drew it again: 2-3 ms of the 10 of a replot of
/// Qwen2.5-0.5B's 14 heads while a generation writes (ui_bench).  This makes `axis` keep as many
/// as an axis `axis_px` long shows `spacing_px` apart, twice over (the labels before and after
/// a new token thins them), and at least QCustomPlot's 16; never fewer than it kept already.
void keep_tick_labels(QCPAxis* axis, double axis_px, double spacing_px);
/// How many tick labels `axis` keeps drawn for its next replot.
int kept_tick_labels(QCPAxis* axis);

/// Label every k-th of a row of cells `spacing` pixels apart, k in 1, 2, 3, 4, 5, 10, 20,
/// 50, ..., so that neighbouring labels stay at least `need` pixels apart.
int label_stride(double spacing, double need);

class TokenTicker : public QCPAxisTicker {
  public:
    /// `labels[i]` is drawn at position i.  `axis` (may be null) provides the pixel length
    /// for thinning; `min_spacing_px` is the space one label needs along the axis.
    void setLabels(QVector<QString> labels) { labels_ = std::move(labels); }
    const QVector<QString>& labels() const { return labels_; }
    void setAxis(QCPAxis* axis) { axis_ = axis; }
    /// The axis length in pixels, known to the figure before QCustomPlot lays it out (the
    /// ticks are generated before the axis rect gets its size).
    void setAxisPixels(double px) { axis_pixels_ = px; }
    void setMinSpacing(double px) { min_spacing_ = px; }

  protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    QVector<QString> createLabelVector(const QVector<double>& ticks, const QLocale& locale,
                                       QChar formatChar, int precision) override;

  private:
    QVector<QString> labels_;
    QCPAxis* axis_ = nullptr;
    double min_spacing_ = 14.0;
    double axis_pixels_ = 0.0;
};

}  // namespace attnviz::ui
