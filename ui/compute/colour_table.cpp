#include "ui/compute/colour_table.h"

#include <cmath>

namespace attnviz::ui {

std::vector<QRgb> colormap_stops(Colormap map) {
    switch (map) {
        case Colormap::Viridis:
            return {0x440154, 0x482878, 0x3e4989, 0x31688e, 0x26828e,
                    0x1f9e89, 0x35b779, 0x6ece58, 0xb5de2b, 0xfde725};
        case Colormap::Cividis:
            return {0x00224e, 0x123570, 0x3b496c, 0x575d6d, 0x707173,
                    0x8a8779, 0xa69d75, 0xc4b56c, 0xe4cf5b, 0xfee838};
        case Colormap::Magma:
            return {0x000004, 0x180f3d, 0x440f76, 0x721f81, 0x9e2f7f,
                    0xcd4071, 0xf1605d, 0xfd9668, 0xfeca8d, 0xfcfdbf};
        case Colormap::Grey:
            return {0xffffff, 0x111111};
    }
    return {0xffffff, 0x111111};
}

QColor masked_cell_color(Colormap map) {
    // Light neutral grey does not occur in viridis/cividis/magma; on the white-to-black grey
    // map it would, so there masked cells get a faint warm tint plus the hatching.
    return map == Colormap::Grey ? QColor(0xf3, 0xe9, 0xdc) : QColor(0xdc, 0xdc, 0xdc);
}

ColourTable::ColourTable(Colormap map) : nan_(masked_cell_color(map).rgba()) {
    const std::vector<QRgb> stops = colormap_stops(map);
    const double last = double(stops.size() - 1);
    levels_.resize(std::size_t(kLevels));
    for (int i = 0; i < kLevels; ++i) {
        const double position = i * (1.0 / double(kLevels - 1));
        // The first stop at or after `position` (stop k sits at k / last), as QMap::lowerBound
        // finds it among QCustomPlot's stops.
        std::size_t high = 0;
        while (high < stops.size() && double(high) / last < position)
            ++high;
        QRgb c;
        if (high == stops.size()) {
            c = QColor(stops.back()).rgba();
        } else if (high == 0) {
            c = QColor(stops.front()).rgba();
        } else {
            const QRgb lo = stops[high - 1], hi = stops[high];
            const double lo_at = double(high - 1) / last, hi_at = double(high) / last;
            const double t = (position - lo_at) / (hi_at - lo_at);
            // qRgb(int, int, int) truncates, as QCustomPlot's conversion from double does.
            c = qRgb(int((1 - t) * qRed(lo) + t * qRed(hi)),
                     int((1 - t) * qGreen(lo) + t * qGreen(hi)),
                     int((1 - t) * qBlue(lo) + t * qBlue(hi)));
        }
        levels_[std::size_t(i)] = c;
    }
}

void ColourTable::colorize(const double* data, double lower, double upper, QRgb* line,
                           int n) const {
    const double to_index = (kLevels - 1) / (upper - lower);
    for (int i = 0; i < n; ++i) {
        const double v = data[i];
        if (std::isnan(v)) {
            line[i] = nan_;
            continue;
        }
        int index = int((v - lower) * to_index);
        if (index < 0) index = 0;
        if (index >= kLevels) index = kLevels - 1;
        line[i] = levels_[std::size_t(index)];
    }
}

}  // namespace attnviz::ui
