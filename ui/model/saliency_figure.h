// Input saliency as a figure: the text's tokens as a strip of boxes, each coloured on the
// diverging blue–white–red scale by its share of the prediction in focus (logit(target), or the
// logit difference with a distractor, at one position), from gradient × input or integrated
// gradients (models::saliency), the strongest few labelled with their value, and for integrated
// gradients the completeness line: how close the shares come to m(x) − m(baseline).  With heads
// knocked out the gradients are the knocked-out model's, and the caption lists the heads.  The
// Who Writes tab draws it above the attribution (alone for a masked LM, at its [MASK]), and
// `attnviz export --view saliency` draws it alone; the numbers are the engine's, never
// recomputed here.
#pragma once

#include <QFont>
#include <QRectF>
#include <QString>

#include <map>
#include <utility>
#include <vector>

#include "engine/models/attribution.h"
#include "engine/models/gradient_attribution.h"
#include "engine/models/model_folder.h"
#include "engine/pass_control.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/document/attention_config.h"
#include "ui/render/figure_export.h"
#include "ui/render/painted_figure.h"

namespace attnviz::ui {

/// The integrated-gradients steps the tab offers; the default is the middle one.
inline constexpr int kSaliencyStepChoices[] = {16, 64, 256};
inline constexpr int kDefaultSaliencySteps = 64;

/// One saliency and what the figure says about it.
struct SaliencyResult {
    QString model;                ///< model_display_name()
    QString text;                 ///< the text as typed
    std::vector<QString> pieces;  ///< every piece of the text, as the heatmaps label it
    models::LogitTarget what;     ///< the prediction in focus (position from 0)
    QString target, distractor;   ///< vocabulary strings; distractor empty: none
    bool rotary = false;          ///< rotary positions: the baseline is the all-zero input
    /// The heads knocked out of the model whose gradients these are (the caption lists them).
    std::map<ModelHead, KnockOut> knocked_out;
    /// The engine's result without its gradient tensors (the figure never needs them).
    models::Saliency saliency;

    bool integrated() const { return saliency.steps > 0; }
    /// The largest |share|: the colour scale runs from −that to +that.
    double scaleLimit() const;
    /// The tokens of the largest |share|, largest first, at most `count`.
    std::vector<int> strongest(int count) const;
    /// Σ of the shares.
    double sum() const;
};

/// The saliency of `what` on `text` (the model's encoding of `text_shown`), `steps` 0 for
/// gradient × input, N for integrated gradients over N steps (N + 2 passes, each reported to
/// `control`), of the model with `knocked_out`'s heads knocked out as the window's passes
/// knock them out.  Throws UsageError for a knocked-out head the model lacks, and what
/// models::saliency throws.  Any thread.
SaliencyResult compute_saliency(const models::OpenedModel& model, const models::EncodedText& text,
                                const QString& text_shown, const models::LogitTarget& what,
                                std::int64_t steps,
                                const std::map<ModelHead, KnockOut>& knocked_out, int num_threads,
                                const PassControl& control = {});

/// The window's knock-outs of `interventions` (Zero and Mean; `--ablate`'s), as
/// compute_saliency and DlaRequest take them.
std::map<ModelHead, KnockOut> knocked_heads(
    const std::vector<models::HeadIntervention>& interventions);

/// The strip alone as a file's figure (`attnviz export --view saliency`, the Who Writes tab's
/// export for a masked LM): `options` and `size` as the export asks, the format from `path`.
RenderedFigure render_saliency_figure(const SaliencyResult& result, const FigureOptions& options,
                                      const ExportSize& size, const QString& path);

/// Comment lines (# metric, # method, # steps, # baseline, # delta), then position (from 1),
/// token, value: one row per token.
QByteArray saliency_csv(const SaliencyResult& result);

/// What the shares add up to: for integrated gradients "Σ = 9.01 of total − baseline = 9.03
/// (gap 0.2%)", for gradient × input the sum beside the total it need not equal.
QString saliency_sum_text(const SaliencyResult& result);
/// Why the gap is what it is (the tool tip of the sum; a note in the exports): for rotary
/// models, why no step count closes it.  Empty for gradient × input.
QString saliency_gap_text(const SaliencyResult& result);

class SaliencyFigure : public PaintedFigure {
  public:
    void setResult(const SaliencyResult* result) { result_ = result; }
    void setOptions(const FigureOptions& options) { options_ = options; }
    /// In the tab: a one-line heading instead of the title, the caption (if any) small under
    /// it, and no notes (the tab says them in its own widgets).
    void setCompact(bool compact) { compact_ = compact; }
    /// The token framed (from 0; -1: none), e.g. the one under the mouse.
    void setHover(int token) { hover_ = token; }

    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override { return used_height_; }
    int usedWidth() const override { return used_width_; }

    /// After layout(): a token's box (empty for none), and the token at a point (-1: none).
    QRectF boxRect(int token) const;
    int tokenAt(const QPointF& pos) const;
    /// The line that says what the shares add up to.
    QRectF sumRect() const { return sum_; }
    /// What hovering a token says: its position, text and share of the total.
    QString describe(int token) const;

  private:
    QString notesText() const;
    void paintScale(QPainter* p) const;

    const SaliencyResult* result_ = nullptr;
    FigureOptions options_;
    bool compact_ = false;
    QSize size_;
    paint::TitleBlock title_;
    QFont font_, small_, bold_;
    QRectF heading_;             ///< compact: the one-line heading
    QRectF caption_;             ///< compact: the caption under it
    QString caption_text_;       ///< wrapped to caption_'s width
    std::vector<QRectF> boxes_;  ///< one per token
    /// The strongest tokens and where their values are drawn, under their boxes.
    std::vector<std::pair<int, QRectF>> labelled_;
    double label_h_ = 0.0;  ///< a value line under a box
    QRectF scale_;          ///< a horizontal colour bar
    QRectF sum_, notes_;
    QString notes_text_;  ///< wrapped to notes_'s width
    int hover_ = -1;
    int used_height_ = -1, used_width_ = -1;
};

}  // namespace attnviz::ui
