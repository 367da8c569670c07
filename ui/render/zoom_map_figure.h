// One head's whole map, any region of it, drawn from its pyramid (engine/ops/map_pyramid.h):
// the zoomable heatmap of the full-map window (widgets/zoom_heatmap.h) and its exports.  Each
// frame colours one image of at most the plot's device pixels, each pixel the cell of the
// finest pyramid level whose cells are no smaller than a pixel (nearest, never interpolated),
// so a frame costs the same at any zoom on any map.  Token labels appear on both axes once the
// rows are tall enough to read, positions otherwise; a colour bar says what the colours weigh.
#pragma once

#include <QCoreApplication>
#include <QFont>
#include <QImage>
#include <QRect>
#include <QRectF>
#include <QString>

#include <memory>
#include <vector>

#include "engine/ops/map_pyramid.h"
#include "ui/document/attention_config.h"
#include "ui/render/painted_figure.h"

namespace attnviz::ui {

/// What the figure draws: a pyramid of one map and its tokens.
struct ZoomMapContent {
    std::shared_ptr<const ops::MapPyramid> pyramid;
    std::vector<QString> tokens;  ///< one per row (query) and column (key)
    bool causal = false;          ///< cells wholly above the diagonal drawn as masked
    QString title;                ///< "GPT-2 · layer 3 · head 5"
};

class ZoomMapFigure : public PaintedFigure {
    Q_DECLARE_TR_FUNCTIONS(ZoomMapFigure)

  public:
    ZoomMapFigure();
    void setContent(ZoomMapContent content);
    const ZoomMapContent& content() const { return content_; }
    bool hasMap() const { return content_.pyramid != nullptr; }
    void setColormap(Colormap map);
    Colormap colormap() const { return colormap_; }
    /// The region shown, in cells of the map: x the keys (columns), y the queries (rows).  It
    /// is drawn with square cells, centred in the plot.
    void setRegion(const QRectF& cells);
    QRectF region() const { return region_; }

    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;

    /// After layout(): where the map may be drawn, and where the region is.
    QRect plotRect() const { return plot_; }
    QRectF regionRect() const;
    /// The cell (fractional: x key, y query) at a point of the canvas.
    QPointF cellAt(const QPointF& pos) const;
    /// Pixels per cell after layout().
    double pixelsPerCell() const;
    /// The smallest plot the layout leaves for a canvas of `size`: what the widget zooms to.
    static QRect plotFor(QSize size);

    /// What the last paint() drew: the pyramid level and that level's cells.
    const ops::PyramidRegion& drawnCells() const { return drawn_; }
    /// Level-0 cells the last paint() read values of (drawn image pixels map to these).
    std::int64_t touchedCells() const { return drawn_.rows() * drawn_.cols(); }

  private:
    QImage renderImage(QSize pixels, const QRectF& cells) const;
    void paintLabels(QPainter* p) const;
    void paintColorBar(QPainter* p) const;

    ZoomMapContent content_;
    Colormap colormap_ = Colormap::Viridis;
    std::vector<unsigned> lut_;  ///< QRgb per value step, 0 to the map's max
    QRectF region_;
    QRect plot_;
    QSize size_;
    QFont font_, title_font_;
    mutable ops::PyramidRegion drawn_;
    mutable QImage cache_;  ///< the last frame's image, reused while nothing changed
    mutable QRectF cache_cells_;
    mutable bool cache_valid_ = false;
};

}  // namespace attnviz::ui
