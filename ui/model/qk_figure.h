// The joint query–key view of one head as a figure (the Queries & Keys tab, AttentionViz's
// scatter): every query and key the head computed over a corpus (CorpusQkView: models::
// joint_query_keys' projection, PCA of the normalised vectors or of their directions), one dot
// each, queries blue and keys orange (colour-blind safe), or coloured by the token's position.
// Both axes share one scale, so distances read alike in every direction.  The tab, its exports
// and `attnviz export --view qk` all draw it with this one class.
#pragma once

#include <QFont>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <vector>

#include "ui/classroom/classroom_figure.h"
#include "ui/document/corpus_data.h"
#include "ui/render/figure_export.h"
#include "ui/render/painted_figure.h"

namespace attnviz::ui {

enum class QkProjection { Pca, Cosine };
enum class QkColouring { Kind, Position };

class QkFigure : public PaintedFigure {
  public:
    /// What is drawn: `view` of head `view->head` of `corpus` (both outlive the figure's use;
    /// null: nothing).
    void setData(const CorpusData* corpus, const CorpusQkView* view) {
        corpus_ = corpus;
        view_ = view;
    }
    void setProjection(QkProjection p) { projection_ = p; }
    void setColouring(QkColouring c) { colouring_ = c; }
    void setOptions(const FigureOptions& options) { options_ = options; }
    /// The point framed (the one under the mouse); -1: none.
    void setHover(int point) { hover_ = point; }

    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override { return used_height_; }

    /// After layout(): the point nearest `pos` within a few pixels (0..n−1 the queries, n..2n−1
    /// the keys), or -1.
    int pointAt(const QPointF& pos) const;
    /// Where point `point` is drawn; a null point for none.
    QPointF pointCentre(int point) const;
    /// Whether point `point` is a key (else a query).
    bool isKey(int point) const;
    /// The token of point `point` (its text and position, from 0).
    const models::CorpusQueryKeys::Token* token(int point) const;
    /// What hovering a point says, as rich text: query or key, its token in its context.
    QString describe(int point) const;
    /// The same in one line of plain text (the status bar).
    QString describePlain(int point) const;
    const QRectF& plotRect() const { return plot_; }

  private:
    const std::vector<float>& points() const;
    std::array<double, 2> explained() const;
    QString axisName(int axis) const;
    /// The tokens around point `point`'s in its text (the points hold the corpus's first tokens
    /// in order): before, itself, after.
    void context(int point, QStringList* before, QString* self, QStringList* after) const;
    QColor colourOf(int point) const;
    void paintLegend(QPainter* p) const;
    void paintAxes(QPainter* p) const;
    /// Every dot: `circles` one circle each (vector), else in batches of round points.
    void paintDots(QPainter* p, bool circles) const;
    double dotRadius() const;

    const CorpusData* corpus_ = nullptr;
    const CorpusQkView* view_ = nullptr;
    QkProjection projection_ = QkProjection::Pca;
    QkColouring colouring_ = QkColouring::Kind;
    FigureOptions options_;
    QSize size_;
    paint::TitleBlock title_;
    QFont font_, small_;
    QRectF plot_, legend_;
    std::vector<QPointF> at_;  ///< each point's place on the canvas
    /// The points by the square of kBucket pixels they fall in, for pointAt().
    std::vector<std::vector<int>> buckets_;
    int columns_ = 0, rows_ = 0;
    std::int64_t max_position_ = 0;
    std::vector<QRgb> position_colours_;  ///< the position colouring's bins, first to last
    int hover_ = -1;
    int used_height_ = -1;
};

/// The figure of head `view` of `corpus` for `path` (its format from the suffix), as every
/// export draws it.  Throws UsageError for an unknown format or size.  GUI thread only.
RenderedFigure render_qk_figure(const CorpusData& corpus, const CorpusQkView& view,
                                QkProjection projection, QkColouring colouring,
                                const FigureOptions& options, const ExportSize& size,
                                const QString& path);

}  // namespace attnviz::ui
