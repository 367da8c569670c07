// Direct logit attribution as a figure ("Who writes the answer"): a layers × heads map of what
// each head writes into one logit (or a logit difference) at one position, on a diverging
// blue–white–red scale centred on 0, each layer's attention bias and MLP as a strip beside it,
// and bars for the embeddings, the sums, the constant and the total they add up to
// (models::attribute_logit).  Heads knocked out of the window's pass (or --ablate) are knocked
// out of the attribution too, and drawn crossed out as the Model mosaic draws them.  The tab, its
// exports and `attnviz export --view dla` all draw it with this one class, the exports with the
// tab's saliency strip (SaliencyFigure) under the title when it shows one; the numbers are the
// engine's, never recomputed here.
#pragma once

#include <QFont>
#include <QPoint>
#include <QRectF>
#include <QString>

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "engine/models/attribution.h"
#include "engine/models/model_folder.h"
#include "engine/pass_control.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/document/attention_config.h"
#include "ui/model/saliency_figure.h"
#include "ui/render/painted_figure.h"

namespace attnviz::ui {

/// What to attribute: positions and ids as the engine counts them (from 0).
struct DlaRequest {
    std::int64_t position = 0;
    std::optional<std::int64_t> target;  ///< unset: the model's top prediction at `position`
    std::optional<std::int64_t> distractor;
    /// The target given is the model's top prediction there (the figure says so).
    bool predicted = false;
    /// Heads knocked out of the pass: the attribution is of the model without them.  The
    /// target the request leaves unset stays the intact model's top prediction, so knocking a
    /// head out shows what it did for the same token.
    std::map<ModelHead, KnockOut> knocked_out;
    bool operator==(const DlaRequest&) const = default;
};

/// One attribution and what the figure says about it.
struct DlaResult {
    QString model;  ///< model_display_name()
    QString text;   ///< the text as typed
    int num_layers = 0, num_heads = 0;
    std::vector<QString> pieces;  ///< every piece of the text, as the heatmaps label it
    models::LogitAttribution attribution;
    QString target, distractor;                 ///< vocabulary strings; distractor empty: none
    bool predicted = false;                     ///< the target is the model's top prediction there
    std::map<ModelHead, KnockOut> knocked_out;  ///< the request's

    double head(int layer, int head) const;
    /// How head (layer, head) is knocked out; nullopt: it is not.
    std::optional<KnockOut> knockedOut(int layer, int head) const;
    /// Head (layer, head)'s share from source piece `token`.
    double source(int layer, int head, int token) const;
    bool hasBias() const;
    bool hasMlp() const;
    double headSum() const;
    double biasSum() const;  ///< 0 without attention biases
    double mlpSum() const;   ///< 0 without MLPs
    /// The largest |share| of a head, an attention bias or an MLP: the colour scale runs from
    /// −that to +that.
    double scaleLimit() const;
    /// (head, layer) of the largest |share|; (-1, -1) without heads.
    QPoint topHead() const;
    /// Head (layer, head)'s largest source pieces by |share|, at most `count`: (piece, share).
    std::vector<std::pair<int, double>> largestSources(int layer, int head, int count) const;
};

/// Why `model` has no direct logit attribution, in the interface's language (no language-model
/// head, a masked-LM head, a post-norm model); empty when it has one.
QString dla_unavailable(const models::OpenedModel& model);

/// The model's most likely next token at `position` of `input` (one pass).  Any thread.
std::int64_t top_prediction(const models::OpenedModel& model, const models::ModelInput& input,
                            std::int64_t position, int num_threads,
                            const PassControl& control = {});

/// The attribution of `request` on `text` (the model's encoding of `text_shown`): one pass, and
/// one more (of the intact model) to find the target when the request has none.  `record`
/// (may be null): the window's own pass (ModelPass::stream), read instead of a pass when it is
/// of this text with the request's heads knocked out and holds the attention (the same
/// numbers: models::attribute_logit).  Throws DataError (dla_unavailable's reason),
/// UsageError for a knocked-out head the model lacks, and what models::attribute_logit
/// throws.  Any thread.
DlaResult compute_dla(const models::OpenedModel& model, const models::EncodedText& text,
                      const QString& text_shown, const DlaRequest& request, int num_threads,
                      const PassControl& control = {},
                      const models::StreamRecord* record = nullptr);

/// One row per part: component (embeddings, head, attention_bias, mlp, constant, total),
/// layer and head from 1 (empty where they do not apply), value; the parts before `total` add
/// up to it.
QByteArray dla_csv(const DlaResult& result);

/// "Layer 2 · head 8 (zero), layer 1 · head 3 (mean)": the heads knocked out, in the
/// interface's language; empty for none.
QString knocked_out_text(const std::map<ModelHead, KnockOut>& heads);

class DlaFigure : public PaintedFigure {
  public:
    void setResult(const DlaResult* result) { result_ = result; }
    void setOptions(const FigureOptions& options) { options_ = options; }
    /// The saliency strip drawn under the title, above the map, as the tab shows it (null:
    /// none, as in the tab, which draws the strip on a canvas of its own).
    void setSaliency(const SaliencyResult* saliency) { saliency_ = saliency; }
    /// The cell framed, e.g. the one under the mouse (head from 0, kBiasColumn or kMlpColumn;
    /// -1: none); a head's cell also picks the head whose source pieces the notes list.
    void setHover(int layer, int column) { hover_ = {column, layer}; }

    static constexpr int kBiasColumn = -2, kMlpColumn = -3;

    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override { return used_height_; }
    int usedWidth() const override { return used_width_; }

    /// After layout(): a cell's rectangle (column: a head from 0, kBiasColumn or kMlpColumn;
    /// empty when the model has no such part), and the (column, layer) at a point ((-1, -1)
    /// outside the cells).
    QRectF cellRect(int layer, int column) const;
    QPoint cellAt(const QPointF& pos) const;
    /// What hovering a cell says: the part and its share of the total; for a head, its largest
    /// source pieces, largest first.  Empty outside the cells.
    QString describe(int layer, int column) const;
    /// The head whose source pieces the notes list: the one hovered, else the largest.
    QPoint notedHead() const;

  private:
    struct Bar {
        QString label;
        double value = 0.0;
        bool total = false;
    };
    std::vector<Bar> bars() const;
    QString notesText() const;
    QString sourcesText(int layer, int head, int count) const;
    struct LayoutPlan;
    /// Fonts that name the families of every text the figure draws, and measure as they draw.
    void chooseFonts(const std::vector<Bar>& parts);
    /// The map's labels, its bias/MLP strip and the colour scale's width.
    void measureMap(LayoutPlan& plan);
    /// The bars' labels, values, rows and the room they take.
    void measureBars(LayoutPlan& plan, const std::vector<Bar>& parts);
    /// The notes' and the sources line's heights at the narrowest the notes may be.
    void measureNotes(LayoutPlan& plan) const;
    /// The cells' side, the map, strip and scale, and the bars beside or under them.
    void placeMapAndBars(LayoutPlan& plan);
    /// The sources line and the notes under everything, and the height used.
    void placeNotes(const LayoutPlan& plan);
    void paintGrid(QPainter* p) const;
    void paintScale(QPainter* p) const;
    void paintBars(QPainter* p) const;
    /// The strip's height at the canvas's width, from `top`; 0 without one.
    double layoutStrip(double top);

    const DlaResult* result_ = nullptr;
    const SaliencyResult* saliency_ = nullptr;
    SaliencyFigure strip_figure_;  ///< draws saliency_ in strip_rect_
    QRectF strip_rect_;
    FigureOptions options_;
    QSize size_;
    paint::TitleBlock title_;
    QFont font_, small_, bold_;
    QRectF grid_;         ///< the heads' cells
    QRectF strip_;        ///< the attention biases' and MLPs' cells, right of the heads
    QRectF scale_;        ///< the colour bar
    QRectF bars_;         ///< the parts as bars, with their labels and values
    QRectF sources_;      ///< one line: notedHead()'s largest source pieces
    QRectF notes_;        ///< under everything
    QString notes_text_;  ///< wrapped to notes_'s width
    double cell_ = 0.0, strip_w_ = 0.0, bar_row_ = 0.0, bar_label_w_ = 0.0, bar_value_w_ = 0.0;
    QPoint hover_{-1, -1};
    int used_height_ = -1, used_width_ = -1;
};

}  // namespace attnviz::ui
