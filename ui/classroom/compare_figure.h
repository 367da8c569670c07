// The comparison figure: configuration A and configuration B (A with a few changes) side by
// side as heatmaps of the same head (or of the mean) in one shared colour range, and their
// difference B − A in a diverging colour map symmetric around zero, each with its own
// colour bar; titles say what A and B are, and a line states the largest and the average
// change.  Hovering a cell outlines it in all three panels.  The window, every export and
// `attnviz export --view compare` draw it.
#pragma once

#include <QImage>
#include <QPointF>
#include <QRectF>

#include <array>

#include <qcustomplot.h>

#include "ui/classroom/classroom_figure.h"
#include "ui/classroom/compare_model.h"

namespace attnviz::ui {

class CompareFigure : public ClassroomFigure {
  public:
    enum Panel { PanelA, PanelB, PanelDiff };
    struct Hit {
        int panel = -1;
        int row = -1;
        int col = -1;
    };

    /// Configuration A.
    void setSnapshot(SnapshotPtr snapshot) override;
    /// Configuration B, computed for A's configuration.
    void setCompared(SnapshotPtr snapshot) override;
    /// Shown instead of the panels when not empty: why B cannot be computed.
    void setProblem(const QString& problem);
    /// options.view == Head compares options.head; any other view compares the means.
    void setOptions(const FigureOptions& options) override;
    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;

    const CompareModel& model() const { return model_; }
    /// Why nothing is compared (no B yet, a head only one side has), or empty.
    QString message() const { return message_; }
    /// The head compared: -1 for the mean.
    int head() const;
    QString panelTitle(int panel) const;
    QRectF matrixRect(int panel) const { return matrix_[std::size_t(panel)]; }
    QRectF cellRect(int panel, int row, int col) const;
    double cellSize() const { return cell_; }
    bool valuesShown() const { return values_; }
    bool keyLabelsRotated() const { return rotate_keys_; }
    int labelPixelSize() const { return label_px_; }
    /// "Largest change: +0.41 at query “it”, key “cat” · mean |B − A| = 0.083 (100 cells)".
    QString summaryText() const;
    QString sharedSummary() const;  ///< the largest and the mean difference

    Hit hitTest(const QPointF& pos) const;
    void setHover(Hit hit);
    Hit hover() const { return hover_; }
    /// "query “cat” → key “mat”:  A 0.214  ·  B 0.000  ·  B − A −0.214" for a hovered cell.
    QString describe(const Hit& hit) const;

  private:
    /// What sets a panel's configuration apart (compare_labels, and the head when B compares
    /// another head).
    QStringList labels(int panel) const;
    bool otherHead() const;
    void rebuild();
    QColor cellColor(int panel, std::size_t k) const;
    /// Whether a panel has cell (i, j): A and B where their sentence has tokens, the
    /// difference where both have (two sentences of different lengths leave the rest blank).
    bool hasCell(int panel, int i, int j) const;
    QImage panelImage(int panel) const;
    void paintPanel(QPainter* p, int panel, bool vector) const;
    void paintLegend(QPainter* p) const;

    SnapshotPtr a_, b_;
    FigureOptions options_;
    CompareModel model_;
    QString message_;
    QString problem_;
    bool dirty_ = true;
    QSize size_;
    paint::TitleBlock titles_;
    std::array<QRectF, 3> matrix_{};
    std::array<QRectF, 3> header_{};
    mutable std::array<QImage, 3> images_{};
    mutable QCPColorGradient gradient_;
    mutable int gradient_map_ = -1;
    double cell_ = 0.0;
    double weight_hi_ = 1.0;  ///< top of A's and B's colour range
    double diff_hi_ = 1.0;    ///< the difference's colour range is [-diff_hi_, diff_hi_]
    bool values_ = false;
    bool rotate_keys_ = false;
    int label_px_ = 13;
    double col_label_h_ = 0.0;
    QRectF row_labels_;
    QRectF legend_ab_, legend_diff_, summary_;
    QString summary_text_;
    Hit hover_;
};

}  // namespace attnviz::ui
