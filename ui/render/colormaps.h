// Colour maps for attention weights, for QCustomPlot (2.1 has no perceptually uniform presets):
// its gradient built from the stops of ui/compute/colour_table.h, and the colours drawn around
// the cells.
#pragma once

#include <QColor>
#include <QString>

#include <qcustomplot.h>

#include "ui/compute/colour_table.h"
#include "ui/document/attention_config.h"

namespace attnviz::ui {

/// The gradient of `map`: the same colours as ColourTable(map), masked (NaN) cells in
/// masked_cell_color(map).
QCPColorGradient make_gradient(Colormap map);
/// Colour of the hatching drawn over masked cells.
QColor masked_hatch_color(Colormap map);
/// A readable text colour on top of a cell of colour `background`.
QColor text_color_on(const QColor& background);
/// Translated display name ("Viridis").
QString colormap_display_name(Colormap map);

}  // namespace attnviz::ui
