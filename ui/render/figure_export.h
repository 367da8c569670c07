// One export function, many front doors: the window's Export dialog, the clipboard action
// and `attnviz export` all call these.  Each renders the figure with HeatmapFigure on an
// off-screen QCustomPlot of exactly the requested size (so the layout is the same whatever
// the window looks like) and writes the file atomically with QSaveFile: a failed export
// leaves nothing behind.
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

#include <optional>

class QPaintDevice;

#include "ui/compute/attention_snapshot.h"
#include "ui/document/attention_config.h"
#include "ui/render/painted_figure.h"

namespace attnviz::ui {

enum class ExportFormat { Png, Svg, Pdf };
enum class WeightsFormat { Csv, Npy, Json };

struct ExportSize {
    int width = 1600;  ///< logical pixels (PDF: points)
    int height = 1000;
    double scale = 2.0;  ///< PNG only: output is width*scale x height*scale pixels
};

inline constexpr int kMinExportSide = 64;
inline constexpr int kMaxExportSide = 20000;
inline constexpr double kMaxExportScale = 8.0;

/// Writes `bytes` to `path` through QSaveFile: complete or not at all.  Throws DataError
/// naming the path and the reason.
void write_atomically(const QString& path, const QByteArray& bytes);

/// From the file name's suffix (.png/.svg/.pdf, any case).
std::optional<ExportFormat> figure_format_for(const QString& path);
std::optional<WeightsFormat> weights_format_for(const QString& path);
QString figure_format_suffix(ExportFormat format);

/// Throws UsageError when the size or scale is out of range.
void validate_export_size(const ExportSize& size);

// `compared`: configuration B of a comparison (options.kind == Compare), computed for the
// configuration of `snapshot` (A); the other figures ignore it.  A comparison without it
// throws UsageError.

/// The figure as an image of size*scale pixels.
/// `size`, or as much of its height as the figure's content takes (a mosaic of few layers).
QSize fitted_figure_size(const AttentionSnapshot& snapshot, const FigureOptions& options,
                         QSize size, const AttentionSnapshot* compared = nullptr);
QImage render_figure_image(const AttentionSnapshot& snapshot, const FigureOptions& options,
                           QSize size, double scale, const AttentionSnapshot* compared = nullptr);
QByteArray render_figure_svg(const AttentionSnapshot& snapshot, const FigureOptions& options,
                             QSize size, const AttentionSnapshot* compared = nullptr);
QByteArray render_figure_pdf(const AttentionSnapshot& snapshot, const FigureOptions& options,
                             QSize size, const AttentionSnapshot* compared = nullptr);

/// The title the figure states (heatmaps, steps, lines or comparison, after options.kind).
QString figure_title(const AttentionSnapshot& snapshot, const FigureOptions& options,
                     const AttentionSnapshot* compared = nullptr);

/// A figure drawn and not yet encoded: a raster image (PNG) or the finished document (SVG,
/// PDF).  Drawing builds widgets (QCustomPlot), so render_figure() runs on the GUI thread
/// only; encode_figure() and write_atomically() use none and may run on any thread.
struct RenderedFigure {
    ExportFormat format = ExportFormat::Png;
    QImage image;      ///< PNG: the pixels
    QString title;     ///< PNG: the text chunk's title
    QByteArray bytes;  ///< SVG, PDF: the file
};

/// The figure for `path` in `format` (default: from the suffix).  Throws UsageError
/// (unknown format, bad size).  GUI thread only.
RenderedFigure render_figure(const AttentionSnapshot& snapshot, const FigureOptions& options,
                             const ExportSize& size, const QString& path,
                             std::optional<ExportFormat> format = std::nullopt,
                             const AttentionSnapshot* compared = nullptr);
/// A figure that paints itself (the patching map), laid out for `size` and cut to the width
/// and height its content takes, for `path` in `format` (default: from the suffix).  Throws
/// UsageError (unknown format, bad size).  GUI thread only.
RenderedFigure render_painted_figure(PaintedFigure& figure, const ExportSize& size,
                                     const QString& path,
                                     std::optional<ExportFormat> format = std::nullopt);
/// The canvas render_painted_figure() gives `figure` for `size`: the size, cut to the width
/// and height its content takes.  The figure is left laid out for it.
QSize fitted_painted_figure_size(PaintedFigure& figure, QSize size);

/// The figure painted on any paint device as the exports paint it, on a canvas of `size`
/// logical pixels (a size fitted_figure_size() gave; `vector`: as on SVG and PDF).  For a
/// device that records what is drawn: the tests read the figure's text layout through it.
/// GUI thread only.
void paint_figure(QPaintDevice* device, const AttentionSnapshot& snapshot,
                  const FigureOptions& options, QSize size, bool vector,
                  const AttentionSnapshot* compared = nullptr);
/// The same for a figure that paints itself, laid out (fitted_painted_figure_size()).
void paint_painted_figure(QPaintDevice* device, const PaintedFigure& figure, bool vector);

/// The file's bytes.  Throws DataError when the PNG cannot be encoded.  Any thread.
QByteArray encode_figure(const RenderedFigure& figure);

/// Writes the figure to `path` in `format` (default: from the suffix).  Throws UsageError
/// (unknown format, bad size) or DataError (cannot write); the target is then untouched.
void export_figure(const AttentionSnapshot& snapshot, const FigureOptions& options,
                   const ExportSize& size, const QString& path,
                   std::optional<ExportFormat> format = std::nullopt,
                   const AttentionSnapshot* compared = nullptr);

/// Puts the figure on the clipboard as an image (and as SVG for vector-aware programs).
void copy_figure_to_clipboard(const AttentionSnapshot& snapshot, const FigureOptions& options,
                              QSize size, double scale,
                              const AttentionSnapshot* compared = nullptr);

/// The weights themselves: CSV (one row per item, head and query; "mean" rows too), NPY
/// ([N, H, L, S] float32) or JSON (tokens, configuration, weights, mean, masks).
void export_weights(const AttentionSnapshot& snapshot, const QString& path,
                    std::optional<WeightsFormat> format = std::nullopt);
QByteArray weights_csv(const AttentionSnapshot& snapshot);
QByteArray weights_json(const AttentionSnapshot& snapshot);

}  // namespace attnviz::ui
