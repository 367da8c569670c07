// The computation steps figure: every stage of one head as a labelled card (formula,
// shape, the matrix with its tokens), revealed one step at a time, the current step
// outlined and explained in a banner, and the cells a hovered cell came from highlighted in
// the earlier stages.  In focus mode only the current stage and its inputs are shown, large
// (for the back of a room).  Window, exports and `attnviz export --view steps` draw it.
#pragma once

#include <QImage>
#include <QPointF>
#include <QRectF>

#include <vector>

#include <qcustomplot.h>

#include "ui/classroom/classroom_figure.h"
#include "ui/classroom/steps_model.h"

namespace attnviz::ui {

class StepsFigure : public ClassroomFigure {
  public:
    struct Hit {
        int stage = -1;
        int row = -1;  ///< -1 when not over a cell
        int col = -1;
    };

    void setSnapshot(SnapshotPtr snapshot) override;
    void setOptions(const FigureOptions& options) override;
    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;

    const StepsModel& model() const { return model_; }
    /// Why there is nothing to show (no snapshot, over the budget), or empty.
    QString message() const { return message_; }
    /// The current stage: options.step clamped; the last stage when every stage is shown.
    int currentStep() const;
    bool allShown() const { return options_.step < 0; }
    /// The stages on the canvas, in order.
    const std::vector<int>& shownStages() const { return shown_; }
    bool isRevealed(int stage) const { return allShown() || stage <= currentStep(); }
    /// The matrix of a shown stage, in canvas coordinates (empty if not shown).
    QRectF matrixRect(int stage) const;
    QRectF cellRect(int stage, int row, int col) const;
    bool valuesShown(int stage) const;
    int labelPixelSize() const { return label_px_; }

    /// In a window (hovering lights up provenance, and the banner says so); an export is
    /// not, and keeps no hover hint.
    void setInteractive(bool on) { interactive_ = on; }
    Hit hitTest(const QPointF& pos) const;
    void setHover(int stage, int row, int col);
    Hit hover() const { return hover_; }
    const std::vector<StageRegion>& highlighted() const { return highlights_; }
    /// "Q[3, 5] = 0.214" for the hovered cell, with the tokens.
    QString describe(const Hit& hit) const;

  private:
    struct Card {
        int stage = -1;
        QRectF frame;
        QRectF matrix;
        double cell_w = 0.0;  ///< square, except feature rows that would be thinner than a label
        double cell_h = 0.0;
        bool values = false;
    };
    /// What layout() measures once and every card's placement shares.
    struct CardGrid {
        QRectF area;              ///< where the cards go, between the banner and the legend
        int fpx = 0;              ///< the base font size
        double header_h = 0.0;    ///< a card's formula and name lines
        double label_h = 0.0;     ///< a token label's line
        double widest = 0.0;      ///< the widest token label, query or key
        double widest_key = 0.0;  ///< the widest key label
    };
    void rebuild();
    /// The stages on the canvas: all of them, or in focus mode the current one and its inputs.
    void chooseShownStages();
    /// Label and header sizes every card shares, for cards in `area` (sets row_label_w_).
    CardGrid measureCards(const QRectF& area);
    /// Wraps the current step's banner and places it at `y`; returns the y below it.
    double layoutBanner(double y, double width);
    /// The legend at the bottom of a `width` × `height` figure: its entries on one line, or on
    /// more where the figure is narrower (a presenter's type on a 1280-pixel projector).  Sets
    /// legend_rect_ and legend_at_.
    void layoutLegend(double width, double height);
    /// The mean log cell size of the shown stages in `nc` columns, each stage's size in `cells`.
    double cellScore(const CardGrid& grid, int nc, double col_h, std::vector<double>* cells) const;
    /// The number of columns that gives the largest cells, key labels flat when they fit
    /// (sets rotate_cols_ and col_label_h_).
    int chooseColumns(const CardGrid& grid);
    /// The cards' frames, matrices and cell sizes in `nc` columns (focus: inputs over current).
    void placeCards(const CardGrid& grid, int nc);
    void paintCard(QPainter* p, const Card& card, bool vector) const;
    /// The card's rounded frame: outlined in the accent when current, dashed when hidden.
    void paintCardFrame(QPainter* p, const Card& card) const;
    /// Number, formula, name and shape; returns the header's bottom.
    double paintCardHeader(QPainter* p, const Card& card) const;
    /// The cells, their hatching, the outline and the band of a head's features.
    void paintMatrix(QPainter* p, const Card& card, bool vector) const;
    void paintValues(QPainter* p, const Card& card) const;
    /// Row labels (tokens) and column labels (tokens or the feature count).
    void paintAxisLabels(QPainter* p, const Card& card) const;
    /// Dims what the hovered cell did not use and outlines what it did.
    void paintProvenance(QPainter* p, const Card& card) const;
    QImage stageImage(int stage) const;
    QColor cellColor(const Stage& st, double v, bool masked) const;
    const Card* cardOf(int stage) const;

    SnapshotPtr snapshot_;
    FigureOptions options_;
    StepsModel model_;
    QString message_;
    bool dirty_ = true;
    std::vector<int> shown_;
    std::vector<Card> cards_;
    std::vector<double> max_abs_;  ///< per stage: colour range
    mutable std::vector<QImage> images_;
    mutable QCPColorGradient gradient_;
    mutable int gradient_map_ = -1;
    QSize size_;
    int label_px_ = 13;
    bool interactive_ = false;
    paint::TitleBlock titles_;
    QRectF banner_rect_, legend_rect_;
    /// The top-left corners of the legend's entries: the values' scale, the weights', the
    /// masked cells.
    std::vector<QPointF> legend_at_;
    QString banner_title_, banner_text_;
    double row_label_w_ = 0.0, col_label_h_ = 0.0;
    bool rotate_cols_ = false;
    Hit hover_;
    std::vector<StageRegion> highlights_;
};

}  // namespace attnviz::ui
