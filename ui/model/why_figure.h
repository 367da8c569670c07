// "Why this attention?" as a figure: a head's pre-softmax score between one query and one key
// split into pairs of components (models::attribute_qk), the largest pairs as horizontal bars
// named as a reader says them ("L1H4 at “8” (key side) × embeddings at “P” (query side)"), each
// with its share of the score, the rest summed in one bar, the score and the head's weight at
// the cell in the caption.  The window's panel, its exports and `attnviz export --view why` all
// draw it with this one class; the numbers are the engine's, never recomputed here.
#pragma once

#include <QFont>
#include <QRectF>
#include <QString>

#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "engine/models/model_folder.h"
#include "engine/models/qk_attribution.h"
#include "engine/pass_control.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/render/painted_figure.h"

namespace attnviz::ui {

/// What to explain: the head and the cell, as the engine counts them (from 0; pieces).
struct WhyRequest {
    models::HeadRef head;
    std::int64_t query = 0, key = 0;
    bool operator==(const WhyRequest& o) const {
        return head.layer == o.head.layer && head.head == o.head.head && query == o.query &&
               key == o.key;
    }
};

/// One QK attribution and what the figure says about it.
struct WhyResult {
    QString model;  ///< model_display_name()
    QString text;   ///< the text as typed
    std::vector<QString> pieces;
    models::QkAttribution attribution;
    double weight = std::nan("");  ///< the head's attention weight at the cell; NaN: unknown

    /// One bar: a pair (query term, key term) by index into attribution.queries / keys, or
    /// the rest (`rest_pairs` > 0).
    struct Bar {
        std::size_t query = 0, key = 0;
        double value = 0.0;
        std::int64_t rest_pairs = 0;
    };
    /// The `top` largest pairs by |value| (NaN first), in `attnviz qk`'s order, then the rest
    /// summed when any is left.
    std::vector<Bar> bars(int top) const;
    /// The pairs' indices in that order, sorted once where the attribution is computed
    /// (compute_why, off the GUI thread): a layout asks bars() for fewer and fewer until they
    /// fit, and 24,000 pairs (GPT-2's last layer) take milliseconds to sort.  Empty: bars()
    /// sorts them itself.
    std::vector<std::size_t> order;
};

/// The attribution of `request` on `text` (the model's encoding of `text_shown`).  Throws what
/// models::attribute_qk throws (a post-norm model: the engine's reason, a DataError).  Any
/// thread.
WhyResult compute_why(const models::OpenedModel& model, const models::EncodedText& text,
                      const QString& text_shown, const WhyRequest& request, double weight,
                      int num_threads, const PassControl& control = {});

/// A text's pass on a model, recorded once (models::record_stream, or the window's own pass)
/// with the text's encoding: every cell of the text explained from it without a pass of its
/// own.
struct WhyStream {
    models::EncodedText text;
    std::shared_ptr<const models::StreamRecord> record;  ///< never null
};

/// Records the pass of `text` on `model`.  Throws what models::record_stream throws.  Any
/// thread.
WhyStream record_why_stream(const models::OpenedModel& model, models::EncodedText text,
                            int num_threads, const PassControl& control = {});

/// The window's own pass (ModelPass::stream) as a WhyStream, when it was recorded with no head
/// knocked out: the pane explains the intact model's scores, as compute_why() computes them.
/// Null otherwise.
std::shared_ptr<const WhyStream> window_why_stream(const ModelPass& pass);

/// compute_why() from a recorded pass: the same numbers, the projections alone.
WhyResult compute_why(const models::OpenedModel& model, const WhyStream& stream,
                      const QString& text_shown, const WhyRequest& request, double weight,
                      int num_threads, const PassControl& control = {});

/// A term as a reader names it: "embeddings", "L1H4", "L2 attention bias", "L2 MLP", "biases".
QString why_term_name(const models::QkTerm& term);

class WhyFigure : public PaintedFigure {
  public:
    /// The bars the figure shows at most, besides the rest.
    static constexpr int kDefaultTop = 8;

    void setResult(const WhyResult* result) { result_ = result; }
    void setOptions(const FigureOptions& options) { options_ = options; }
    void setTop(int top) { top_ = std::max(1, top); }
    int top() const { return top_; }
    /// Show as many pairs as fit the height layout() is given (at least kMinFitted, the rest
    /// summed), as the pane beside the maps must; exports keep top() and grow instead.
    void setFitHeight(bool fit) { fit_height_ = fit; }
    static constexpr int kMinFitted = 3;
    /// After layout(): the title had to be cut with an ellipsis (even its short forms).
    bool titleElided() const { return title_elided_; }
    /// After layout(): the labels are above their bars, the figure being too narrow beside.
    bool stacked() const { return stacked_; }
    /// The bar framed (e.g. the one under the mouse); -1: none.
    void setHover(int bar) { hover_ = bar; }

    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override { return used_height_; }

    /// After layout(): how many bars are drawn, bar `k`'s row, the bar at a point (-1: none).
    int barCount() const { return int(bars_.size()); }
    QRectF barRect(int k) const;
    QRectF notesRect() const { return notes_; }
    int barAt(const QPointF& pos) const;
    /// Bar `k`'s label ("L1H4 at “8” (key side) × embeddings at “P” (query side)") and its
    /// share of the score ("33%"; empty when the score is 0).
    QString barLabel(int k) const;
    QString barShare(int k) const;
    double barValue(int k) const;
    /// The head a click on bar `k` focuses: its key side's when that is a head, else its query
    /// side's; nullopt for the rest, embeddings, biases and MLPs.
    std::optional<models::HeadRef> barHead(int k) const;

  private:
    QString termAt(const models::QkTerm& term, std::int64_t position, bool key_side) const;
    QString notesText() const;
    QString fittedTitle(double room) const;
    /// Wraps the bars' labels and stacks their rows from `top`; returns the rows' height.
    double layoutRows(int shown, double top, double width);
    /// A stacked row's line for its bar and value.
    double barLineHeight() const;
    /// Labels narrower than this many characters go above their bars (stacked).
    static constexpr double kStackedChars = 24.0;

    const WhyResult* result_ = nullptr;
    FigureOptions options_;
    int top_ = kDefaultTop;
    int hover_ = -1;
    bool fit_height_ = false;
    bool title_elided_ = false;
    std::vector<WhyResult::Bar> bars_;
    QSize size_;
    paint::TitleBlock title_;
    QFont font_, small_;
    QRectF rows_;                  ///< every bar's row
    QRectF notes_;                 ///< under the bars
    QString notes_text_;           ///< wrapped to notes_'s width
    std::vector<QString> labels_;  ///< wrapped to label_w_
    std::vector<double> row_h_;
    std::vector<double> label_h_;  ///< each row's label, wrapped
    bool stacked_ = false;         ///< labels above their bars
    double label_w_ = 0.0, value_w_ = 0.0;
    int used_height_ = -1;
};

}  // namespace attnviz::ui
