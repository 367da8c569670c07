// What a model predicts as a figure: the tokens with the model's top guess after each one
// (correct guesses marked) and the loss under it, wrapped into as many rows as the width
// needs, then the predictions box at the token in focus (a masked LM: at each mask).  The
// strip and the box are painted by the window's own functions (predictions_view.h);
// `attnviz export --view predictions` and every file export draw this class.
#pragma once

#include <QByteArray>
#include <QFont>
#include <QRect>

#include <vector>

#include "ui/classroom/classroom_figure.h"
#include "ui/model/predictions_view.h"

namespace attnviz::ui {

class PredictionsFigure : public ClassroomFigure {
  public:
    void setSnapshot(SnapshotPtr snapshot) override { snapshot_ = std::move(snapshot); }
    void setOptions(const FigureOptions& options) override { options_ = options; }
    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override;
    int usedWidth() const override;

    /// The piece of the whole text the box shows (options.focus_token's, else the last).
    int boxPiece() const { return piece_; }
    /// One row of tokens: the first token's index and each column's x and width.
    struct Block {
        std::size_t first = 0;
        std::vector<QRectF> columns;
        int top = 0;
    };
    const std::vector<Block>& blocks() const { return blocks_; }

  private:
    /// The layout in `font_px`; the y under the content.
    int layoutAt(QSize size, int font_px);
    const ModelMaps* maps() const { return snapshot_ ? snapshot_->model.get() : nullptr; }
    SnapshotPtr snapshot_;
    FigureOptions options_;
    QSize size_;
    paint::TitleBlock title_;
    QFont font_;
    std::vector<TokenGuess> guesses_;
    std::vector<QString> tokens_;
    std::vector<std::uint8_t> generated_;  ///< per token: the model wrote it
    std::vector<Block> blocks_;
    QString summary_;
    QRect summary_rect_, box_rect_, message_rect_;
    int piece_ = -1, bottom_ = 0, font_px_ = 13, loss_height_ = 6;
};

/// What `maps` predicts as CSV, one row per position and rank:
/// position,token,next_token,loss,rank,id,prediction,probability; position from 1 (every
/// piece of a causal model, each mask of a masked one), loss = −log p(next_token) in nats
/// (empty at the last piece and for a masked LM).
QByteArray predictions_csv(const ModelMaps& maps);

}  // namespace attnviz::ui
