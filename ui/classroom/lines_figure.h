// The head view people know from BertViz: the query tokens in a column on the left, the key
// tokens on the right, a line from each query to each key whose opacity is the attention
// weight, one colour per head.  Hovering a token keeps only its lines.  Works the same for
// cross-attention (two different sentences).  Window, exports and `--view lines` draw it.
#pragma once

#include <QPointF>
#include <QRectF>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ui/classroom/classroom_figure.h"

namespace attnviz::ui {

struct HeadLine {
    int head = 0;
    int query = 0;
    int key = 0;
    float weight = 0.0f;
};

/// Weights below this are not drawn (they would be invisible anyway).
inline constexpr float kLineThreshold = 0.01f;

/// At most this many lines are drawn, the strongest: more only darken a solid fill, and
/// drawing them held the GUI thread for minutes (64 heads of 150 tokens with dropout are
/// 144,000 lines over the threshold).
inline constexpr std::size_t kMaxDrawnLines = 10000;

/// The lines of batch item `item`: one per (query, key, head) with weight >= threshold, for
/// the heads whose bit is set in `heads`, only those touching `query` / `key` when >= 0.
/// Masked cells have weight 0 and never get a line.
std::vector<HeadLine> head_lines(const AttentionSnapshot& snapshot, int item, quint64 heads,
                                 float threshold = kLineThreshold, int query = -1, int key = -1);

class LinesFigure : public ClassroomFigure {
  public:
    struct Hit {
        enum class Side { None, Query, Key };
        Side side = Side::None;
        int token = -1;
    };

    void setSnapshot(SnapshotPtr snapshot) override;
    void setOptions(const FigureOptions& options) override;
    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;

    /// The lines currently drawn (after head selection and hover), at most kMaxDrawnLines.
    const std::vector<HeadLine>& lines() const { return lines_; }
    /// Lines over the threshold, drawn or not.
    std::size_t linesOverThreshold() const { return over_threshold_; }
    Hit hitTest(const QPointF& pos) const;
    void setHover(Hit hit);
    Hit hover() const { return hover_; }
    QPointF queryAnchor(int i) const;
    QPointF keyAnchor(int j) const;
    int labelPixelSize() const { return label_px_; }
    QString describe(const Hit& hit) const;

  private:
    void collect();
    // paint()'s layers, back to front.
    /// "Queries" and "Keys" above the columns.
    void paintHeaders(QPainter* painter, const QColor& text) const;
    /// One line per (query, key, head) in lines_, the head's colour, the weight's opacity.
    void paintLines(QPainter* painter) const;
    /// The token columns, the hovered token tinted and masked keys struck through.
    void paintTokens(QPainter* painter, const QColor& text) const;
    /// The legend's first line: each drawn head's colour.
    void paintHeadLegend(QPainter* painter, const QColor& text) const;
    /// The legend's second line: what the opacity means and which lines were left out.
    void paintLegendNote(QPainter* painter, const QColor& text) const;

    SnapshotPtr snapshot_;
    FigureOptions options_;
    QSize size_;
    std::vector<HeadLine> lines_;
    std::size_t over_threshold_ = 0;
    /// The value drawn fully opaque: 1 for weights, the item's largest for norm-based maps.
    float opaque_ = 1.0f;
    Hit hover_;
    int item_ = 0;
    int label_px_ = 13;
    double row_h_ = 0.0, top_ = 0.0;
    double left_x_ = 0.0, right_x_ = 0.0;  ///< where lines start and end
    double left_w_ = 0.0, right_w_ = 0.0;
    paint::TitleBlock titles_;
    QRectF legend_rect_;
};

}  // namespace attnviz::ui
