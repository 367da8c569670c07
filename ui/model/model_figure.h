// The model view as a figure: a layers × heads mosaic of every head's map.  The window's
// Model tab and every export (file, clipboard, `attnviz export --view model`) lay it out and
// paint it with the same two functions.
#pragma once

#include <QFont>
#include <QImage>
#include <QRect>

#include <vector>

#include "ui/classroom/classroom_figure.h"

class QPainter;

namespace attnviz::ui {

/// Where the mosaic's parts go inside `area`.
/// Columns 0..heads−1 are the heads; after a wider gap come two aggregates per layer:
/// column `heads` the mean over heads, column `heads + 1` the attention rollout through it.
struct MosaicLayout {
    QRect area;
    int left = 0, top = 0, cell = 0, gap = 0;  ///< cells start at (area.x + left, area.y + top)
    int split = 0;                             ///< the extra gap before the aggregates
    int layers = 0, heads = 0;
    int columns() const { return heads + 2; }
    QRect cellRect(int layer, int column) const;
    /// (column, layer) of the cell at `pos`, or (-1, -1).
    QPoint headAt(const QPoint& pos) const;
    int bottom() const { return area.y() + top + layers * (cell + gap); }
};

/// `shown`: the kept maps, or the whole text pooled (ModelMaps::shownThumbnails()), whose
/// rows are every layer the pass measured.
MosaicLayout layout_mosaic(const ModelMaps& maps, const QRect& area, const QFont& font,
                           ModelThumbnails shown = ModelThumbnails::Kept);
/// Layer and head numbers, and every thumbnail intersecting `clip` (a null clip: all), or
/// `images` instead of the thumbnails (layer * columns + column, as focus_strips gives).
void paint_mosaic(QPainter* painter, const ModelMaps& maps, const MosaicLayout& layout,
                  const QFont& font, const QRect& clip = QRect(),
                  const std::vector<QImage>* images = nullptr,
                  ModelThumbnails shown = ModelThumbnails::Kept);
/// What the mosaic of the whole text pooled is ("Whole text (8,192 tokens), pooled to 64 × 64
/// squares of 128 tokens: the largest weight in each"); empty for the kept maps.
QString whole_text_note(const ModelMaps& maps, ModelThumbnails shown);

/// One token's attention in every cell of the mosaic (layer * (heads + 2) + column): from it
/// (row `token` of each map) or, with `to`, to it (column `token`), as a 1 × L strip coloured
/// from 0 to its own largest value; cells a causal model masks are grey.  Empty when `token`
/// is not a shown token.
std::vector<QImage> focus_strips(const ModelMaps& maps, int token, bool to);

class ModelFigure : public ClassroomFigure {
  public:
    void setSnapshot(SnapshotPtr snapshot) override { snapshot_ = std::move(snapshot); }
    void setOptions(const FigureOptions& options) override { options_ = options; }
    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override;

  private:
    SnapshotPtr snapshot_;
    FigureOptions options_;
    QSize size_;
    paint::TitleBlock title_;
    MosaicLayout mosaic_;
    QFont font_;
    std::vector<QImage> strips_;  ///< focus_strips() when options_.focus_token is set
    QString legend_;              ///< under the mosaic, wrapped to its width
    QRect legend_rect_;           ///< from the cells' left edge to the figure's right
    QString legendText() const;
    QFont legendFont() const;
    /// The shown token in focus, or -1.
    int focusToken() const;
    /// What the mosaic draws (ModelMaps::shownThumbnails).
    ModelThumbnails shown() const;
};

}  // namespace attnviz::ui
