// Axis ticks at integer positions labelled with the tokens themselves.  Only as many labels
// as fit are shown (every k-th token: k up to 5, then a 10-20-50 step), so a 1024-token axis stays
// readable and more labels appear as the user zooms in.
#pragma once

#include <QString>
#include <QVector>

#include <qcustomplot.h>

namespace attnviz::ui {

/// How many tick labels `axis` keeps drawn as pixmaps for its next replot (QCustomPlot's label
/// cache; TokenTicker::createLabelVector sizes it).
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
    /// The tokens at `ticks`.  QCustomPlot keeps an axis's last 16 tick labels drawn as
    /// pixmaps; a token axis shows more, and every replot then laid each label's text out and
    /// drew it again (2-3 ms of the 10 of a replot of Qwen2.5-0.5B's 14 heads while a
    /// generation writes, ui_bench).  So `axis` (when set) keeps twice the labels made here:
    /// those before and after a new token thins them.
    QVector<QString> createLabelVector(const QVector<double>& ticks, const QLocale& locale,
                                       QChar formatChar, int precision) override;

  private:
    QVector<QString> labels_;
    QCPAxis* axis_ = nullptr;
    double min_spacing_ = 14.0;
    double axis_pixels_ = 0.0;
};

}  // namespace attnviz::ui
