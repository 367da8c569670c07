// The patching figure: a layers × heads map of the fraction of the metric each head restores
// (models::patch_sweep, or attribution patching's estimate of it), on a diverging blue–white–red
// scale centred on 0, heads not run in grey.  While the exact sweep refines the estimate, a head
// it has not reached shows the estimate hatched, and a scatter beside the map compares the two
// for the heads it has (patch_agreement_figure.h).  Once a head is chosen, its attention on the
// clean and the corrupted text side by side, with its estimate split by the position patched
// under the corrupted one.  The Patching tab, its exports and `attnviz export --view patch` all
// draw it with this one class.
#pragma once

#include <QFont>
#include <QRectF>
#include <QString>

#include <vector>

#include "engine/models/gradient_attribution.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/compute/patch_head_maps.h"
#include "ui/compute/patch_method.h"
#include "ui/model/patch_agreement_figure.h"
#include "ui/render/painted_figure.h"

namespace attnviz::ui {

/// What the figure draws: a sweep's result (complete or not) and what it was asked.
struct PatchMaps {
    PatchMethod method = PatchMethod::Exact;
    QString model;  ///< model_display_name()
    int num_layers = 0, num_heads = 0;
    models::PatchResult result;  ///< fraction and m_patched NaN where a head was not run
    int done = 0, total = 0;     ///< heads run, heads asked
    bool stopped = false;        ///< cancelled before every head ran
    QString clean_text, corrupt_text;
    std::vector<QString> clean_tokens, corrupt_tokens;  ///< the pieces, as the model sees them
    QString target, distractor;                         ///< the tokens, vocabulary strings
    std::int64_t target_id = 0, distractor_id = 0;
    PatchHeadMaps head;  ///< the chosen head's maps; layer < 0: none
    /// Attribution patching's fractions, [layers, heads], and split by the position patched,
    /// [layers, heads, tokens] (empty: not estimated yet).  With Attribution they are the map;
    /// with Exact a head's cell shows its estimate until the sweep reaches it.
    Tensor estimate, estimate_by_position;

    float fraction(int l, int h) const {
        return result.fraction.data[std::size_t(l) * std::size_t(num_heads) + std::size_t(h)];
    }
    /// The estimate of attribution patching (with Attribution also the result).
    void setEstimate(const models::AttributionPatching& a);
    /// What a head's cell shows: its fraction once run, else its estimate (`*estimated` set
    /// true), else NaN.
    double shown(int l, int h, bool* estimated = nullptr) const;
    /// Some cell shows an estimate (an exact sweep has not reached every head).
    bool showsEstimates() const;
    /// With Exact: the heads run that have an estimate too, both values, and Spearman's ρ of
    /// the two (empty with Attribution: one method only).
    PatchAgreement agreement() const;
    /// The chosen head's estimate by position patched (nullptr: none), as many as its tokens.
    const float* headByPosition() const;
    /// The largest |fraction| run or estimated, at least 1: the colour scale runs from −that to
    /// +that, the same while the sweep refines the estimate.
    double scaleLimit() const;
};

/// What the figure shows of a sweep of `request` on `model` before its first head (every
/// fraction NaN): the model's name and sizes, the texts and their tokens, the two tokens.
PatchMaps make_patch_maps(const models::OpenedModel& model, const models::PatchRequest& request,
                          const QString& clean_text, const QString& corrupt_text);

/// The fractions as CSV: layer, head (from 1), fraction, m_patched, m_clean, m_corrupt; "nan"
/// for a head not run.
QByteArray patch_csv(const PatchMaps& maps);
/// The fractions as a float32 .npy [layers, heads] (NaN: not run), as `attnviz patch --out`.
QByteArray patch_npy(const PatchMaps& maps);

class PatchFigure : public PaintedFigure {
  public:
    void setMaps(const PatchMaps* maps) { maps_ = maps; }
    void setOptions(const FigureOptions& options) { options_ = options; }
    /// The head framed in the map (from 0; -1: none), e.g. the one under the mouse.
    void setHover(int layer, int head) { hover_ = {head, layer}; }

    void layout(QSize size) override;
    void paint(QPainter* painter, bool vector) const override;
    QString titleText() const override;
    QString captionText() const override;
    int usedHeight() const override { return used_height_; }
    int usedWidth() const override { return used_width_; }

    /// After layout(): the rectangle of a head's cell, and the head (x) and layer (y) at a point
    /// of its cell or of its dot in the scatter ((-1, -1) elsewhere).
    QRectF cellRect(int layer, int head) const;
    QPoint headAt(const QPointF& pos) const;
    /// "Layer 1 · head 6: restores 0.93 of the metric (m = 2.41)".
    QString describe(int layer, int head) const;
    /// What hovering `pos` says: a dot's head and both its values, a cell's describe(), or
    /// nothing.
    QString describeAt(const QPointF& pos) const;
    /// After layout(): the scatter of exact against estimated fractions (its rect() empty when
    /// there is none), and what it plots.
    const PatchAgreementPlot& agreementPlot() const { return plot_; }
    const PatchAgreement& agreement() const { return agreement_; }
    /// After layout(): the legend of measured against estimated cells (empty: none estimated),
    /// and the chosen head's strip by position patched (empty: none).
    QRectF legendRect() const { return legend_; }
    QRectF positionStripRect() const { return strip_; }
    /// After layout(): the rectangle the notes under the map (the metric, the fraction's
    /// formula, the progress) take, as tall as their wrapped lines are drawn (empty: no map).
    QRectF notesRect() const { return notes_; }
    /// The notes as they are drawn: wrapped into lines, and their font.
    QString notesLines() const { return notes_text_; }
    QFont notesFont() const { return small_; }

  private:
    /// The notes under the map, unwrapped: one paragraph a line (`head_maps`: with the one
    /// about the chosen head's maps).
    QString notesText(bool head_maps) const;
    void paintMap(QPainter* p) const;
    void paintScale(QPainter* p) const;
    void paintLegend(QPainter* p) const;
    /// A head's map in `area`, `strip_h` kept under its cells for the strip by position
    /// (drawn when `strip` is given: a value a token).
    void paintHeadMap(QPainter* p, const QRectF& area, const Tensor& map,
                      const std::vector<QString>& tokens, const QString& title, double max,
                      bool vector, const float* strip) const;
    /// The chosen head's estimate by position patched, `L` values, across `r`.
    void paintStrip(QPainter* p, const QRectF& r, const float* values, int L) const;
    /// The cells of a head's map drawn in `area` (title above, `strip_h_` and the key labels
    /// below, the query labels left: `*label` wide); empty when there is no room.
    QRectF headCells(const QRectF& area, const std::vector<QString>& tokens, double* label) const;
    /// The legend's items laid out from `top_left` within `width`: the two swatches and their
    /// words; its height.
    double layoutLegend(QPointF top_left, double width);
    struct LayoutPlan;
    /// The texts drawn, and fonts that name their families and measure as they draw.
    void chooseFonts(LayoutPlan& plan);
    /// The labels, the scale, the head's maps' share of the width, the notes and the legend.
    void measure(LayoutPlan& plan);
    /// The cells' side, the map, its scale, the legend and the scatter beside or under them.
    void placeMap(LayoutPlan& plan);
    /// The notes under the map and the scatter.
    void placeNotes(LayoutPlan& plan);
    /// The chosen head's clean and corrupted maps, right of the rest, when there is room.
    void placeHeadMaps(LayoutPlan& plan);

    const PatchMaps* maps_ = nullptr;
    FigureOptions options_;
    QSize size_;
    paint::TitleBlock title_;
    QFont font_, small_;
    QRectF map_;     ///< the cells
    QRectF scale_;   ///< the colour bar
    QRectF notes_;   ///< m_clean, m_corrupt and the progress, under the map
    QRectF legend_;  ///< measured and estimated swatches, above the notes
    /// The legend's two items: swatch, words and their rectangle (hatched: the second).
    QRectF legend_swatch_[2], legend_text_[2];
    QString legend_words_[2];
    PatchAgreement agreement_;          ///< maps_->agreement(), for plot_
    PatchAgreementPlot plot_;           ///< the scatter (rect() empty: none)
    double strip_h_ = 0.0;              ///< kept under each head map for the strip
    QRectF strip_;                      ///< the strip by position under the corrupted map
    QString notes_text_;                ///< notesText() wrapped to notes_'s width
    double head_title_h_ = 0.0;         ///< the line of a chosen head's map's title
    QRectF clean_area_, corrupt_area_;  ///< the chosen head's maps (empty: none)
    double cell_ = 0.0;
    QPoint hover_{-1, -1};  ///< (head, layer), as headAt()
    int used_height_ = -1, used_width_ = -1;
};

}  // namespace attnviz::ui
