// The model view: a layers × heads mosaic of every head's attention, one small image each,
// coloured on the compute worker (ModelMaps::thumbnails).  It paints images only, so 24 × 14
// heads stay smooth; hovering names the head, a click or Enter opens that layer's heads in the
// heatmap grid, and the arrow keys move through layers and heads.  Ctrl-click or the context
// menu knocks a head out (KnockOutMenu); knocked-out heads are drawn crossed out.  Alt-click
// asks the "Why?" pane about a cell of a head's map (mapCellAt says which).
#pragma once

#include <QWidget>

#include "ui/compute/attention_snapshot.h"
#include "ui/model/model_figure.h"

namespace attnviz::ui {

class ModelView : public QWidget {
    Q_OBJECT
  public:
    explicit ModelView(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    /// One token's attention in every cell (FigureOptions::focus_token); −1: the maps.
    void setTokenFocus(int token, bool to);
    /// With only some maps kept: the whole text pooled, or the kept maps
    /// (FigureOptions::model_thumbnails).
    void setThumbnails(ModelThumbnails choice);
    /// What the mosaic draws now (ModelMaps::shownThumbnails).
    ModelThumbnails shown() const;
    const ModelMaps* maps() const { return snapshot_ ? snapshot_->model.get() : nullptr; }
    /// The column under the keyboard's selection: (layer, column), (-1, -1) with no model;
    /// columns past the heads are the layer's mean and rollout (ModelMaps::meanColumn()).
    QPoint current() const { return QPoint(head_, layer_); }
    void setCurrent(int layer, int head);
    /// The rectangle a head's thumbnail is drawn in (empty when there is none).
    QRect cellRect(int layer, int head) const;
    /// The line under the mosaic (the model, the tokens, what a click does), wrapped to the
    /// view's width, and the height it takes.
    QString captionText() const;
    int captionHeight() const;
    /// The head at a point in widget coordinates, or (-1, -1).
    QPoint headAt(const QPoint& pos) const;  ///< x = head, y = layer
    /// "Layer 3 · head 7 — …": what hovering a head says.
    QString describe(int layer, int head) const;
    /// What the view says while no model is the source: where to find one.
    QString placeholderText() const;

    /// A cell of a head's map, as the heatmap grid counts it (shown tokens, from 0).
    struct MapCell {
        int layer = -1, head = -1, row = -1, col = -1;
    };
    /// The cell Alt-click at `pos` explains.  Where a map's cells are at least kPickPixels
    /// wide, the one under the mouse; on a token's strips, that token and the one under the
    /// mouse; smaller, the last token (the prediction) and the key it looks at most (on a
    /// strip, the token and where it looks most, or who looks at it most).  Head −1: the
    /// mean or the rollout; row −1: no cells here (the whole text pooled, a head not kept).
    MapCell mapCellAt(const QPoint& pos) const;
    static constexpr int kPickPixels = 6;

  signals:
    void hovered(const QString& text);
    /// A click or Enter on a head: show that layer's heads, this one selected (head −1: the
    /// layer's mean column); of a layer not kept (the whole text pooled), its full map.
    void activated(int layer, int head);
    /// The context menu of a head (not the mean or rollout): knock it out or restore it.
    void headMenuRequested(int layer, int head, const QPoint& global);
    /// Ctrl-click (⌘-click) on a head: toggle its zero knock-out.
    void knockOutToggled(int layer, int head);
    /// A row (query token) of a head's map, or of a layer's mean or rollout, is under the
    /// mouse: the piece of the whole text whose prediction that token stands for
    /// (ModelMaps::pieceOf); −1 when none is (between the maps, a token in focus draws strips
    /// instead), or the mouse left.  The predictions box follows it.
    void pieceHovered(int piece);
    /// Alt-click on a head's map: explain mapCellAt() (the "Why?" pane).
    void cellExplainRequested(int layer, int head, int row, int col);
    /// The mouse is over mapCellAt(), a head's cell (the pane follows it when asked to).
    void cellHovered(int layer, int head, int row, int col);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    MosaicLayout geometry() const;
    void setHover(int layer, int head);
    /// The query token under `pos` in its map, or −1.
    int tokenAt(const QPoint& pos) const;
    void setHoverPiece(int piece);
    /// Where head (layer, head) looks most from token `token`, or (`to`) who looks at it most.
    int strongest(int layer, int head, int token, bool to) const;
    void activate(int layer, int column);
    void updateStrips();

    SnapshotPtr snapshot_;
    int layer_ = -1, head_ = -1;              ///< keyboard selection
    int hover_layer_ = -1, hover_head_ = -1;  ///< under the mouse
    int hover_piece_ = -1;                    ///< pieceHovered()'s last
    int focus_token_ = -1;
    bool focus_to_ = false;
    ModelThumbnails choice_ = ModelThumbnails::WholeMax;
    std::vector<QImage> strips_;  ///< focus_strips() while a token is in focus
};

}  // namespace attnviz::ui
