#include "ui/render/colormaps.h"

#include <QCoreApplication>

namespace attnviz::ui {

namespace {
QCPColorGradient from_stops(std::initializer_list<QRgb> stops) {
    QCPColorGradient g;
    g.clearColorStops();
    const double last = double(stops.size() - 1);
    int i = 0;
    for (QRgb rgb : stops)
        g.setColorStopAt(i++ / last, QColor(rgb));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(512);
    return g;
}
}  // namespace

QCPColorGradient make_gradient(Colormap map) {
    QCPColorGradient g;
    switch (map) {
        case Colormap::Viridis:
            g = from_stops({0x440154, 0x482878, 0x3e4989, 0x31688e, 0x26828e, 0x1f9e89, 0x35b779,
                            0x6ece58, 0xb5de2b, 0xfde725});
            break;
        case Colormap::Cividis:
            g = from_stops({0x00224e, 0x123570, 0x3b496c, 0x575d6d, 0x707173, 0x8a8779, 0xa69d75,
                            0xc4b56c, 0xe4cf5b, 0xfee838});
            break;
        case Colormap::Magma:
            g = from_stops({0x000004, 0x180f3d, 0x440f76, 0x721f81, 0x9e2f7f, 0xcd4071, 0xf1605d,
                            0xfd9668, 0xfeca8d, 0xfcfdbf});
            break;
        case Colormap::Grey:
            g = from_stops({0xffffff, 0x111111});
            break;
    }
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(masked_cell_color(map));
    return g;
}

QColor masked_cell_color(Colormap map) {
    // Light neutral grey does not occur in viridis/cividis/magma; on the white-to-black grey
    // map it would, so there masked cells get a faint warm tint plus the hatching.
    return map == Colormap::Grey ? QColor(0xf3, 0xe9, 0xdc) : QColor(0xdc, 0xdc, 0xdc);
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
