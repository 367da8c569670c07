// Colour maps for attention weights.  QCustomPlot 2.1 has no perceptually uniform presets,
// so the stops of matplotlib's viridis, cividis and magma are defined here (sampled at ten
// evenly spaced points; RGB interpolation between them stays within a few percent of the
// originals).  Grey runs from white (0) to near-black (max) for print.
#pragma once

#include <QColor>
#include <QString>

#include <qcustomplot.h>

#include "ui/document/attention_config.h"

namespace attnviz::ui {

QCPColorGradient make_gradient(Colormap map);
/// Colour of masked cells: clearly outside the map, so a masked cell never reads as a small
/// weight.
QColor masked_cell_color(Colormap map);
/// Colour of the hatching drawn over masked cells.
QColor masked_hatch_color(Colormap map);
/// A readable text colour on top of a cell of colour `background`.
QColor text_color_on(const QColor& background);
/// Translated display name ("Viridis").
QString colormap_display_name(Colormap map);

}  // namespace attnviz::ui
