// The circuits figure: which heads compose, from the weights alone (models::circuit_scores,
// Elhage et al. 2021).  A matrix of the Q-, K- or V-composition of every earlier head (rows)
// into every later head (columns) on a sequential scale, grey where a pair cannot compose
// (the same layer, or a later layer into an earlier one), lines between layers; and each head's
// OV copying score on a diverging −1..+1 scale in two strips along the matrix: right of the
// rows for the rows' heads, under the columns for the columns' heads.  The rows stop before the
// last layer and the columns start at the second (the rest is grey: no head there composes), so
// a 2-layer model's figure is its one block, large.  The Circuits tab, its exports and
// `attnviz export --view circuits` all draw it with this one class.
#pragma once

#include <QFont>
#include <QImage>
#include <QRectF>
#include <QString>

#include "engine/models/circuits.h"
#include "engine/models/model_folder.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/compute/colour_table.h"
#include "ui/render/painted_figure.h"

namespace attnviz::ui {

/// Which reading of the later head: its queries, its keys or its values (the engine's first
/// index of CircuitScores::composition).
enum class Composition { Q = 0, K = 1, V = 2 };

/// "Q", "K" or "V".
QString composition_letter(Composition c);

/// What the figure draws: a model's scores as the engine gave them.
struct CircuitMaps {
    QString model;  ///< model_display_name()
    int num_layers = 0, num_heads = 0;
    models::CircuitScores scores;

    int heads() const { return num_layers * num_heads; }
    /// Head `n` (layer-major, from 0) of `heads`: "L1H4", counting from 1.
    QString headName(int n) const;
    /// Whether head `from` can compose into head `to`: its layer is below.
    bool composes(int from, int to) const;
    /// The engine's score (NaN unless composes()).
    float composition(Composition c, int from, int to) const;
    /// NaN when the head's W_OV is zero or the model has no copying scores.
    double copying(int n) const;
    /// The smallest and largest score of kind `c` over the pairs that compose ({0, 0}: none).
    std::pair<float, float> range(Composition c) const;
};

/// `scores` of `model`, ready to draw.
CircuitMaps make_circuit_maps(const models::OpenedModel& model, models::CircuitScores scores);

/// The scores as CSV, two tables apart by an empty line: "from,to,q,k,v", one row per pair of
/// heads that compose (the earlier head first, layer-major), then "head,copying", one row per
/// head (absent when the model has no copying scores).  Heads as "L1H4"; floats to 9
/// significant digits (they read back bit for bit), "nan" for a zero W_OV.
QByteArray circuits_csv(const CircuitMaps& maps);

class CircuitsFigure : public PaintedFigure {
  public:
    void setMaps(const CircuitMaps* maps) { maps_ = maps; }
    const CircuitMaps* maps() const { return maps_; }
    void setComposition(Composition c) { composition_ = c; }
    Composition composition() const { return composition_; }
    void setOptions(const FigureOptions& options) { options_ = options; }
    /// The pair framed under the mouse, and the one chosen (heads layer-major; -1: none).
    void setHover(int from, int to) { hover_ = {from, to}; }
    void setChosen(int from, int to) { chosen_ = {from, to}; }
    QPoint chosen() const { return chosen_; }

    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override { return used_height_; }
    int usedWidth() const override { return used_width_; }

    /// After layout(): the cell of a pair (empty when it is not drawn: a row of the last layer,
    /// a column of the first), and the pair at a point ((-1, -1) outside the matrix).
    QRectF cellRect(int from, int to) const;
    QPoint pairAt(const QPointF& pos) const;  ///< x: from, y: to
    /// After layout(): a head's cell in a copying strip (a head of the last layer has none on
    /// the right, one of the first none below), and the head at a point (-1: none).
    QRectF copyingRect(int head, bool right_strip) const;
    int copyingHeadAt(const QPointF& pos) const;
    /// "L1H4 → L2H8: K-composition 0.270".
    QString describe(int from, int to) const;
    /// "L1H4: copying score −0.880".
    QString describeCopying(int head) const;
    /// What hovering `pos` says: a pair, a copying score, or nothing.
    QString describeAt(const QPointF& pos) const;
    /// After layout(): the matrix and the notes under it.
    QRectF matrixRect() const { return matrix_; }
    QRectF notesRect() const { return notes_; }
    /// Whether each head has a label of its own (else every layer has one).
    bool headLabels() const { return row_heads_; }

  private:
    enum class ColumnLabels { Flat, Rotated, Layers };
    QString notesText() const;
    /// The title of the columns: the later head reading through its Q, K or V.
    QString columnsTitle() const;
    struct LayoutPlan;
    /// The texts drawn, and fonts that name their families and measure as they draw.
    void chooseFonts(LayoutPlan& plan);
    /// The notes' height wrapped to `width`.
    double notesHeight(const LayoutPlan& plan, double width) const;
    /// The copying strips' side beside cells of side `cell` (0 without copying scores).
    double stripFor(const LayoutPlan& plan, double cell) const;
    /// The labels, titles, colour scale and legend widths around the cells.
    void measure(LayoutPlan& plan);
    /// The side a cell can have with `top` pixels of column labels.
    double fitCell(const LayoutPlan& plan, double top) const;
    /// The cell's side and how the columns are labelled.
    void chooseCell(LayoutPlan& plan);
    /// The matrix, its titles and its copying strips.
    void placeMatrix(LayoutPlan& plan);
    /// The colour bars and their headers, right of the matrix.
    void placeLegend(LayoutPlan& plan);
    /// The notes under everything, and the size used.
    void placeNotes(const LayoutPlan& plan);
    void buildImage();
    void paintLabels(QPainter* p) const;
    void paintMatrix(QPainter* p, bool vector) const;
    void paintStrips(QPainter* p) const;
    void paintScales(QPainter* p) const;
    QColor cellColour(float v) const;

    const CircuitMaps* maps_ = nullptr;
    Composition composition_ = Composition::K;
    FigureOptions options_;
    QSize size_;
    paint::TitleBlock title_;
    QFont font_, small_, bold_;
    int rows_ = 0, cols_ = 0;  ///< heads of layers 1..L-1, and of 2..L
    double cell_ = 0.0, strip_ = 0.0;
    float lo_ = 0.0f, hi_ = 1.0f;  ///< the colour scale
    int decimals_ = 3;             ///< of its ticks
    QRectF matrix_, right_strip_, bottom_strip_, comp_bar_, copy_bar_, notes_;
    QRectF rows_title_, cols_title_, comp_header_, copy_header_;
    QString comp_header_text_, copy_header_text_, notes_text_;
    ColumnLabels column_labels_ = ColumnLabels::Flat;
    bool row_heads_ = true, values_ = false;
    ColourTable table_{Colormap::Viridis};  ///< the matrix's sequential scale
    QImage image_;                          ///< [rows, cols], one pixel a cell
    QPoint hover_{-1, -1}, chosen_{-1, -1};
    int used_height_ = -1, used_width_ = -1;
};

}  // namespace attnviz::ui
