#include "ui/render/token_ticker.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {
/// The label cache is a protected member of the axis's protected painter: reached through
/// pointers to members named in derived classes, which nothing constructs.
struct AxisPainterAccess : QCPAxis {
    static QCPAxisPainterPrivate* of(QCPAxis* axis) {
        return axis->*(&AxisPainterAccess::mAxisPainter);
    }
};
struct LabelCacheAccess : QCPAxisPainterPrivate {
    static auto& of(QCPAxis* axis) {
        return AxisPainterAccess::of(axis)->*(&LabelCacheAccess::mLabelCache);
    }
};
}  // namespace

int kept_tick_labels(QCPAxis* axis) {
    return int(LabelCacheAccess::of(axis).count());
}

int label_stride(double spacing, double need) {
    if (spacing <= 0.0) return 1 << 20;
    for (int k = 1; k <= 5; ++k)
        if (k * spacing >= need) return k;
    for (int m = 10; m < (1 << 20); m *= 10)
        for (const int f : {1, 2, 5})
            if (f * m * spacing >= need) return f * m;
    return 1 << 20;
}

double TokenTicker::getTickStep(const QCPRange& range) {
    double pixels = axis_pixels_;
    if (pixels <= 0.0 && axis_ && axis_->axisRect())
        pixels = axis_->orientation() == Qt::Horizontal ? axis_->axisRect()->width()
                                                        : axis_->axisRect()->height();
    if (pixels <= 0.0 || range.size() <= 0.0) return 1.0;
    return label_stride(pixels / range.size(), min_spacing_);
}

int TokenTicker::getSubTickCount(double) {
    return 0;
}

QVector<double> TokenTicker::createTickVector(double tickStep, const QCPRange& range) {
    QVector<double> ticks;
    const int step = std::max(1, int(std::lround(tickStep)));
    const int first = std::max(0, int(std::ceil(range.lower - 1e-9)));
    const int last = std::min(int(labels_.size()) - 1, int(std::floor(range.upper + 1e-9)));
    for (int i = (first + step - 1) / step * step; i <= last; i += step)
        ticks << double(i);
    return ticks;
}

QVector<QString> TokenTicker::createLabelVector(const QVector<double>& ticks, const QLocale&, QChar,
                                                int) {
    QVector<QString> out;
    out.reserve(ticks.size());
    for (double t : ticks) {
        const int i = int(std::lround(t));
        out << (i >= 0 && i < labels_.size() ? labels_[i] : QString());
    }
    if (axis_) {
        // Only ever more: a smaller bound made QCache drop many labels at once
        // (QCache::trim() from this code, on a cache QCustomPlot's library fills), and
        // ui_monkey_test under ASan read a freed node there once.  QCustomPlot itself drops
        // one label per label it adds.
        auto& cache = LabelCacheAccess::of(axis_);
        if (2 * out.size() > cache.maxCost()) cache.setMaxCost(2 * out.size());
    }
    return out;
}

}  // namespace attnviz::ui
