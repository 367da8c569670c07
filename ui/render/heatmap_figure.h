// The one heatmap figure renderer.  Given a snapshot and FigureOptions it lays out a
// QCustomPlot: a title stating the configuration, one QCPColorMap per head (plus the mean)
// with the tokens as tick labels on integer ticks, crisp square cells, masked cells drawn
// distinctly, fully masked rows marked, and a single colour bar.  The window's grid, the
// clipboard, every file export and `attnviz export` all draw through this class.
#pragma once

#include <QImage>
#include <QObject>
#include <QPointF>
#include <QSize>
#include <QString>
#include <QVector>

#include <memory>
#include <vector>

#include <qcustomplot.h>

#include "ui/compute/attention_snapshot.h"
#include "ui/document/attention_config.h"

namespace attnviz::ui {

class TokenTicker;
class PanelOverlay;
class HoverOverlay;
class CrispColorMap;

/// Colour-map data built off the GUI thread: one QCPColorMapData per (item, panel), masked
/// cells NaN, and the coloured image of each for the colour map and scaling the window had
/// when the request was made.  The figure takes each map out (ownership passes to the
/// QCPColorMap); with a matching image the GUI thread never colours a cell itself.
struct PreparedMaps {
    std::uint64_t generation = 0;
    int batch = 0;
    int heads = 0;
    Colormap colormap = Colormap::Viridis;
    ScaleMode scale = ScaleMode::Shared;
    std::vector<std::unique_ptr<QCPColorMapData>> maps;  ///< index n * (heads + 1) + slot
    std::vector<QImage> images;                          ///< same index; S x L pixels
    /// The map of head h (h < 0: the mean) of item n, or null if already taken.
    std::unique_ptr<QCPColorMapData> take(int n, int h);
    QImage image(int n, int h) const;
};

/// The colour range of head h (h < 0: the mean) of item n under a scaling mode.
QCPRange colour_range(const AttentionSnapshot& snapshot, int n, int h, ScaleMode scale);

/// QCPColorMapData for head h (h < 0: mean) of item n: cell (j, i) = weight, NaN if masked.
std::unique_ptr<QCPColorMapData> build_map_data(const AttentionSnapshot& snapshot, int n, int h);
PreparedMaps build_prepared_maps(const AttentionSnapshot& snapshot, Colormap colormap,
                                 ScaleMode scale);

/// What lies under a point of the figure.
struct FigureHit {
    enum class Region { None, Cells, KeyLabels, QueryLabels, PanelTitle };
    Region region = Region::None;
    int panel = -1;
    int head = -1;  ///< -1 for the mean panel
    int row = -1;   ///< query index (Cells, QueryLabels)
    int col = -1;   ///< key index (Cells, KeyLabels)
};

class HeatmapFigure : public QObject {
    Q_OBJECT
  public:
    explicit HeatmapFigure(QCustomPlot* plot);
    ~HeatmapFigure() override;

    void setSnapshot(SnapshotPtr snapshot, std::shared_ptr<PreparedMaps> maps = {});
    SnapshotPtr snapshot() const { return snapshot_; }
    void setOptions(const FigureOptions& options);
    const FigureOptions& options() const { return options_; }
    /// Interactive figures (the window) zoom and pan with the mouse, keep the zoom across
    /// updates and draw the hover highlight; exported figures do none of that.
    void setInteractive(bool on);

    /// Builds or updates every element for a viewport of `size` logical pixels.  The caller
    /// replots (or renders) afterwards.
    void layout(QSize size);

    int panelCount() const { return int(panels_.size()); }
    int panelHead(int panel) const;  ///< -1 for the mean
    QCPAxisRect* panelRect(int panel) const;
    QCPColorMap* panelMap(int panel) const;
    QString panelTitle(int panel) const;
    QVector<QString> keyLabels(int panel) const;    ///< all tick labels of the key axis
    QVector<QString> queryLabels(int panel) const;  ///< all tick labels of the query axis
    QCPColorScale* colorScale() const { return color_scale_; }
    QString titleText() const;
    QString captionText() const;
    /// The colour bar's words: "attention weight", or the norm-based maps'.
    QString scaleLabel() const;
    double cellSize() const { return cell_px_; }
    /// The height the last layout's panels, title and caption take (at most its size): an
    /// export is cut to it instead of leaving bands of white under a row of panels.
    int usedHeight() const { return used_height_; }
    /// True when values are printed inside the cells (single panel, few tokens, room).
    bool valuesShown() const { return values_; }
    /// True when the key labels are drawn vertically (they do not fit under their columns).
    bool keyLabelsRotated() const { return rotate_keys_; }
    int batchItem() const;  ///< the item shown, clamped to the snapshot

    FigureHit hitTest(const QPointF& pos) const;
    /// Highlights query row `row` and key column `col` in every panel (-1: none).  Redraws
    /// only the hover layer.
    void setHighlight(int row, int col);
    int highlightRow() const { return hl_row_; }
    int highlightCol() const { return hl_col_; }
    void resetZoom();
    bool isZoomed() const;

    /// The default figure title for these options ("Attention weights per head").
    static QString defaultTitle(const AttentionSnapshot& snapshot, const FigureOptions& options);

  signals:
    /// Ranges changed by the user (zoom/pan): the view needs a replot.
    void zoomChanged();

  private:
    struct Panel {
        int head = -1;
        QCPAxisRect* rect = nullptr;
        CrispColorMap* map = nullptr;
        QSharedPointer<TokenTicker> x_ticker;
        QSharedPointer<TokenTicker> y_ticker;
        PanelOverlay* overlay = nullptr;
    };
    friend class PanelOverlay;
    friend class HoverOverlay;

    std::vector<int> panelHeads() const;
    void clear();
    void build(const std::vector<int>& heads);
    void updateData();
    void syncRanges(QCPAxis* source, bool horizontal);

    // layout()'s steps, in order.
    struct LayoutPlan;
    /// Refreshes label_cache_ when the tokens or the font size changed.
    void updateLabelCache(int font_px);
    /// Fonts, margins and the room the panels have in a viewport of `size`.
    LayoutPlan measure(QSize size);
    /// The grid shape and cell size, and whether the key labels are rotated.
    void chooseGrid(LayoutPlan& plan);
    /// The tick labels' font and spacing for that cell size; whether values fit in the cells.
    void fitCellText(LayoutPlan& plan);
    /// The title's and caption's fonts and text.
    void placeTitle(const LayoutPlan& plan);
    /// The panels in their grid: margins, sizes, axis fonts, titles and tick labels.
    void placePanels(const LayoutPlan& plan);
    /// The colour bar's margins, fonts and tick count.
    void placeColorScale(const LayoutPlan& plan);

    QCustomPlot* plot_;
    SnapshotPtr snapshot_;
    std::shared_ptr<PreparedMaps> maps_;
    FigureOptions options_;
    bool interactive_ = false;
    bool data_dirty_ = true;

    std::vector<Panel> panels_;
    QCPTextElement* title_ = nullptr;
    QCPTextElement* caption_ = nullptr;
    QCPColorScale* color_scale_ = nullptr;
    QCPLayoutGrid* panel_grid_ = nullptr;
    HoverOverlay* hover_ = nullptr;
    int grid_cols_ = -1;
    int built_l_ = -1, built_s_ = -1;
    double cell_px_ = 0.0;
    int used_height_ = 0;
    bool rotate_keys_ = false;
    bool values_ = false;
    QFont tick_font_;
    QFont value_font_;
    int hl_row_ = -1, hl_col_ = -1;
    struct LabelCache {
        int font_px = -1;
        std::vector<QString> keys, queries;
        QFont font;
        QVector<QString> key_labels, query_labels;
        QString text;  ///< every label run together, for line_height()
        double key_w = 0.0, query_w = 0.0;
    } label_cache_;
    bool syncing_ = false;
};

}  // namespace attnviz::ui
