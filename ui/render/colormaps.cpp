#include "ui/render/colormaps.h"

#include <QCoreApplication>

namespace attnviz::ui {

QCPColorGradient make_gradient(Colormap map) {
    QCPColorGradient g;
    g.clearColorStops();
    const std::vector<QRgb> stops = colormap_stops(map);
    const double last = double(stops.size() - 1);
    for (std::size_t i = 0; i < stops.size(); ++i)
        g.setColorStopAt(double(i) / last, QColor(stops[i]));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(ColourTable::kLevels);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(masked_cell_color(map));
    return g;
}

QColor masked_hatch_color(Colormap map) {
    return map == Colormap::Grey ? QColor(0x9a, 0x80, 0x60) : QColor(0xa0, 0xa0, 0xa0);
}

QColor text_color_on(const QColor& background) {
    // Relative luminance (sRGB approximation); white text on dark cells, dark on light.
    const double l =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return l < 0.5 ? QColor(Qt::white) : QColor(0x20, 0x20, 0x20);
}

QString colormap_display_name(Colormap map) {
    switch (map) {
        case Colormap::Viridis:
            return QCoreApplication::translate("Colormap", "Viridis");
        case Colormap::Cividis:
            return QCoreApplication::translate("Colormap", "Cividis");
        case Colormap::Magma:
            return QCoreApplication::translate("Colormap", "Magma");
        case Colormap::Grey:
            return QCoreApplication::translate("Colormap", "Grey (print)");
    }
    return {};
}

}  // namespace attnviz::ui
