// The colour maps as tables of colours, without QCustomPlot: the worker colours thumbnails
// with them, and render/colormaps.cpp builds the QCPColorGradient the heatmaps use from the
// same stops and level count, so a cell has one colour wherever it is drawn.
//
// matplotlib's viridis, cividis and magma are sampled at ten evenly spaced stops (RGB
// interpolation between them stays within a few percent of the originals); grey runs from
// white (0) to near-black (max) for print.
#pragma once

#include <QColor>
#include <QRgb>

#include <vector>

#include "ui/document/attention_config.h"

namespace attnviz::ui {

/// The map's stops, evenly spaced from 0 to 1.
std::vector<QRgb> colormap_stops(Colormap map);
/// Colour of masked cells: clearly outside the map, so a masked cell never reads as a small
/// weight.
QColor masked_cell_color(Colormap map);

/// `kLevels` colours interpolated in RGB between the stops, and a value's colour within a
/// range, computed as QCPColorGradient 2.1 computes them for the same stops and level count
/// (level i at position i / (kLevels − 1); a value at int((v − lower) · (kLevels − 1) /
/// (upper − lower)), clamped): tests/ui_colour_table_test.cpp checks every level and value
/// against QCustomPlot.  NaN gets masked_cell_color.  Immutable, so any thread may share one.
class ColourTable {
  public:
    static constexpr int kLevels = 512;

    explicit ColourTable(Colormap map);

    QRgb level(int i) const { return levels_[std::size_t(i)]; }
    /// `n` values from `data` into `line` (a QImage scan line).
    void colorize(const double* data, double lower, double upper, QRgb* line, int n) const;

  private:
    std::vector<QRgb> levels_;
    QRgb nan_;
};

}  // namespace attnviz::ui
