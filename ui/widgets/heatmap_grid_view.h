// The heatmap grid on screen: a QCustomPlot drawn by HeatmapFigure, plus what only a window
// has — hover read-outs with the hovered row and column highlighted in every head, clicking
// a head to enlarge it, clicking a token label to mask that key, wheel zoom and drag pan; and
// under a causal model's maps the strip of its predictions, aligned with the token axis.
#pragma once

#include <QElapsedTimer>
#include <QWidget>

#include <cstdint>
#include <memory>

#include "ui/compute/attention_snapshot.h"
#include "ui/document/attention_config.h"

class QCustomPlot;
class QLabel;
class QMouseEvent;

namespace attnviz::ui {

class HeatmapFigure;
class PredictionStrip;
struct PreparedMaps;
struct FigureHit;

class HeatmapGridView : public QWidget {
    Q_OBJECT
  public:
    explicit HeatmapGridView(QWidget* parent = nullptr);
    ~HeatmapGridView() override;

    void setSnapshot(SnapshotPtr snapshot, std::shared_ptr<PreparedMaps> maps = {});
    /// Both at once, laid out and drawn once (maps coloured for these options).
    void setSnapshot(SnapshotPtr snapshot, std::shared_ptr<PreparedMaps> maps,
                     const FigureOptions& options);
    void setOptions(const FigureOptions& options);
    /// A message drawn over the grid (errors, "no tokens"); empty hides it.
    void setMessage(const QString& message);

    HeatmapFigure* figure() const { return figure_; }
    QCustomPlot* plot() const { return plot_; }
    /// Under a causal model's maps: its top guess after every token and the loss on each.
    PredictionStrip* predictionStrip() const { return strip_; }
    SnapshotPtr snapshot() const;
    /// Generation of the snapshot last drawn (after the replot finished).
    std::uint64_t paintedGeneration() const { return painted_generation_; }
    /// Text describing the hovered cell (also shown as tooltip).
    QString hoverText() const { return hover_text_; }
    /// Hover at a point in plot coordinates, as a mouse move would.
    void hoverAt(const QPointF& pos);
    /// Click at a point in plot coordinates, as a left click would.
    void clickAt(const QPointF& pos);
    void resetZoom();
    /// A right click at a point in plot coordinates: a model's head asks for its menu.
    void contextMenuAt(const QPointF& pos);

  signals:
    void hovered(const QString& text);
    /// A head (or -1 for the mean) was clicked in the grid.
    void headClicked(int head);
    /// A key label was clicked: toggle masking of key `key` of batch item `item`.
    void keyLabelClicked(int item, int key);
    /// A model's head (layer, head) asks for its knock-out menu (a right click), or for its
    /// zero knock-out toggled (Ctrl-click, ⌘-click).
    void headMenuRequested(int layer, int head, const QPoint& global);
    void knockOutToggled(int layer, int head);
    /// Double click in an enlarged head: back to the grid.
    void backToGridRequested();
    /// The grid was redrawn for snapshot `generation`.
    void repainted(std::uint64_t generation);
    /// A model's query row (a cell or its label) is under the mouse: the piece of the whole
    /// text whose prediction that token stands for (ModelMaps::pieceOf); −1 when none is, or
    /// the mouse left.  The predictions box follows it.
    void pieceHovered(int piece);
    /// A model head's cell at shown query token `row`, key token `col` was Alt-clicked (a plain
    /// click enlarges the head, Ctrl-click knocks it out): explain it (the "Why?" pane).
    void cellExplainRequested(int layer, int head, int row, int col);
    /// The mouse is over a model head's cell (the "Why?" pane follows it when asked to).
    void cellHovered(int layer, int head, int row, int col);

  private:
    void relayout();
    /// The strip's columns under the panels' token axis (after every replot).
    void alignStrip();
    QString describe(const FigureHit& hit) const;
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void setHoverPiece(int piece);

    QCustomPlot* plot_ = nullptr;
    HeatmapFigure* figure_ = nullptr;
    QLabel* message_ = nullptr;
    PredictionStrip* strip_ = nullptr;
    std::uint64_t painted_generation_ = 0;
    QString hover_text_;
    int hover_piece_ = -1;  ///< pieceHovered()'s last
    QPoint press_pos_;
    bool pressed_ = false;
    QElapsedTimer enlarged_;
};

}  // namespace attnviz::ui
