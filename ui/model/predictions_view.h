// A model's predictions beside its attention (ModelMaps::predictions, computed on the worker):
// the strip under a causal model's heatmaps (its top guess after every token, marked where it
// is the actual next token, and the loss on each token), and the predictions box of the model
// panel (the 10 most likely next tokens at the position in focus, or at each mask of a masked
// LM; with heads knocked out, before → after and the change in loss).  Neither computes
// anything: they read and show what the pass predicted.
#pragma once

#include <QFontMetrics>
#include <QRectF>
#include <QWidget>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "ui/compute/attention_snapshot.h"

namespace attnviz::ui {

/// A vocabulary string as a reader sees it: "Ġcat" / "▁cat" → " cat", then visible_token().
QString readable_piece(const QString& vocab);

/// The heads `maps` ran with knocked out: "L2 H8, L1 H3".
QString knocked_list(const ModelMaps& maps);

/// What a causal model guessed after one shown token (read at its last piece).
struct TokenGuess {
    int piece = -1;          ///< in the whole text, 0-based
    QString guess;           ///< the top guess, readable
    double probability = 0;  ///< of the top guess
    bool has_next = false;   ///< the text goes on after this piece
    bool correct = false;    ///< the guess is the actual next piece
    double loss = 0;         ///< −log p(actual next piece), with has_next
};
/// One guess per shown token of `maps` (empty when `p` is not a causal model's).
std::vector<TokenGuess> token_guesses(const ModelMaps& maps, const ModelPredictions& p);

/// The text's second copy when it is one string said twice (special tokens aside): the pieces
/// [begin, end) of the whole text; (−1, −1) otherwise.
std::pair<int, int> second_copy(const ModelMaps& maps);
/// The mean loss on the pieces [begin, end), each predicted from the pieces before it; NaN
/// when none is predicted.
double mean_loss(const ModelPredictions& p, int begin, int end);

/// The shown tokens of `maps` (none when null) as the strip writes them, and which of them the
/// model wrote (generation timeline).
void shown_tokens(const ModelMaps* maps, std::vector<QString>* tokens,
                  std::vector<std::uint8_t>* generated);
/// Correct guesses among `guesses` whose next piece lies in [begin, end) of the whole text.
int correct_guesses(std::span<const TokenGuess> guesses, int begin = 0, int end = 1 << 30);
/// The strip's caption: "12 of 39 next tokens guessed · loss 0.31 nats/token …".
QString guesses_summary(const ModelMaps& maps, std::span<const TokenGuess> guesses);

/// The strip's rows, as the window's strip and PredictionsFigure paint them: the tokens (when
/// `tokens` is not empty) above their guesses, the guesses (when `guesses` is not empty), a
/// cell each at `columns`' x, and the loss under each; the rows' names in the gutter left of
/// the first column.
struct GuessRows {
    std::span<const QRectF> columns;  ///< x and width of each token's column
    std::span<const TokenGuess> guesses;
    std::span<const QString> tokens;
    /// Per column, 1 where the model wrote the token (generation timeline): its token and its
    /// guess marked in generated_token_color(); empty: none.
    std::span<const std::uint8_t> generated;
    int hover = -1;       ///< the column framed as hovered
    int loss_height = 6;  ///< the loss bar under the guesses
    /// When set, receives the rectangle of every text drawn (tests check none overlap).
    std::vector<QRectF>* text_rects = nullptr;
};
/// The height of one row of the strip in `font`.
int guess_row_height(const QFont& font);
/// 1 when every column is wide enough for a label in `fm` (its first two characters and an
/// ellipsis at least); else k: every k-th column is labelled, over the k columns from it.
int guess_label_stride(const QFontMetrics& fm, std::span<const QRectF> columns,
                       const std::vector<QString>& texts);
/// Paints `rows` from `top`, skipping columns outside [0, right); returns the y below them.
/// Labels never overlap: columns too narrow for theirs are labelled every k-th
/// (guess_label_stride), the others show their guess on hover.
int paint_guess_rows(QPainter* painter, const QFont& font, const GuessRows& rows, int top,
                     int right);

/// The piece the predictions box shows for `want` (−1: the last predicted one), or −1.
int predictions_piece(const ModelMaps& maps, int want);
/// "Loss on the text: 0.31 → 2.05 nats/token", one line per span (whole text, second copy).
QStringList prediction_loss_lines(const ModelMaps& maps);
/// Draws (or only measures, with a null painter) the predictions box of `maps` at `piece`
/// (predictions_piece) in `font`, `width` wide, from the painter's (0, 0); returns its height.
int paint_predictions_box(QPainter* painter, const QFont& font, const ModelMaps& maps, int piece,
                          int width);

/// The strip under a causal model's heatmaps: one column per shown token, aligned with the
/// heatmap's token axis by HeatmapGridView (setColumns).
class PredictionStrip : public QWidget {
    Q_OBJECT
  public:
    explicit PredictionStrip(QWidget* parent = nullptr);

    /// Shows the model's predictions (hidden for the demo layer and models without them).
    void setSnapshot(const SnapshotPtr& snapshot);
    /// Where each shown token's column is, in this widget's x; `aligned`: under the heatmap's
    /// own columns (else spread over the width, with the tokens written above the guesses).
    void setColumns(std::vector<QRectF> columns, bool aligned);
    const std::vector<TokenGuess>& guesses() const { return guesses_; }
    /// Correct guesses among the shown tokens whose next piece lies in [begin, end) of the
    /// whole text (the default: all).
    int correctGuesses(int begin = 0, int end = 1 << 30) const;
    /// The caption's text: "12 of 39 next tokens guessed · loss 0.31 nats/token …".
    QString summary() const;
    /// The shown token under x, or −1.
    int tokenAt(int x) const;
    QSize sizeHint() const override;
    /// Where the last paint drew text (row names, tokens, guesses, the caption), for tests.
    const std::vector<QRectF>& textRects() const { return text_rects_; }

  signals:
    /// Hovering a column (−1: left), clicking it: the piece the predictions box should show.
    void pieceHovered(int piece);
    void pieceClicked(int piece);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    /// Where the caption starts: under the first column.
    int captionLeft() const;

    SnapshotPtr snapshot_;
    std::vector<TokenGuess> guesses_;
    std::vector<QString> tokens_;
    std::vector<std::uint8_t> generated_;  ///< per token: the model wrote it (generation timeline)
    std::vector<QRectF> columns_;
    std::vector<QRectF> text_rects_;
    bool caption_shortened_ = false;  ///< the caption's end elided: the whole of it on hover
    bool aligned_ = false;
    int hover_ = -1;
};

/// The predictions box: the top-10 at the piece in focus (causal) or at each mask (masked LM),
/// with probability bars; with heads knocked out the intact model's beside them and the loss
/// before → after.
class PredictionsBox : public QWidget {
    Q_OBJECT
  public:
    explicit PredictionsBox(QWidget* parent = nullptr);

    void setSnapshot(const SnapshotPtr& snapshot);
    /// The piece in focus (of the whole text); −1: the last one.
    void setFocusPiece(int piece);
    /// Hovering shows another piece until the mouse leaves (−1: back to the focus).
    void setHoverPiece(int piece);
    int shownPiece() const;
    /// "loss 0.31 → 2.05 nats/token", one line per span (whole text, second copy).
    QStringList lossLines() const;
    /// What the box lists, first the knocked-out model's then (with knock-outs) the intact
    /// model's: one "token probability" line per guess, for tests and the clipboard.
    QStringList rows(bool intact) const;
    /// At the box's width once it has one: a scroll area sizes its content from size hints,
    /// not heightForWidth, and a header wrapped at a narrower width takes more lines.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return QSize(120, sizeHint().height()); }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

  protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    SnapshotPtr snapshot_;
    int focus_ = -1, hover_ = -1;
};

}  // namespace attnviz::ui
