#include "ui/model/patch_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/io/npy.h"
#include "ui/compute/csv.h"
#include "ui/compute/model_store.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {
struct PatchText {
    Q_DECLARE_TR_FUNCTIONS(PatchFigure)
};

const QColor kNotRun(0xdc, 0xdc, 0xdc);  ///< a head the sweep did not reach
constexpr double kPatchPad = 16.0;

QString patch_quoted(const QString& token) {
    return PatchText::tr("“%1”").arg(visible_token(token));
}

/// "−4.785": three decimals and a true minus, as the figure's other numbers.
QString signed_number(double v) {
    QString s = QString::number(v, 'f', 3);
    if (s.startsWith(QLatin1Char('-'))) s.replace(0, 1, QStringLiteral("−"));
    return s;
}

}  // namespace

double PatchMaps::scaleLimit() const {
    double most = 1.0;
    for (const Tensor* t : {&result.fraction, &estimate})
        for (float v : t->data)
            if (std::isfinite(v)) most = std::max(most, std::abs(double(v)));
    return most;
}

void PatchMaps::setEstimate(const models::AttributionPatching& a) {
    estimate = a.fraction;
    estimate_by_position = a.fraction_by_position;
    // The two runs' metric, known before the sweep's first pass says it.
    if (std::isnan(result.m_clean)) {
        result.m_clean = a.m_clean;
        result.m_corrupt = a.m_corrupt;
    }
}

double PatchMaps::shown(int l, int h, bool* estimated) const {
    const std::size_t at = std::size_t(l) * std::size_t(num_heads) + std::size_t(h);
    const double f = result.fraction.data[at];
    // A head run shows what it measured, NaN included (the metric the same on both texts).
    const bool run = !std::isnan(double(result.m_patched.data[at]));
    const bool from_estimate = !run && at < estimate.data.size();
    if (estimated) *estimated = from_estimate;
    return from_estimate ? double(estimate.data[at]) : f;
}

bool PatchMaps::showsEstimates() const {
    bool estimated = false;
    for (int l = 0; l < num_layers && !estimated; ++l)
        for (int h = 0; h < num_heads && !estimated; ++h)
            shown(l, h, &estimated);
    return estimated;
}

PatchAgreement PatchMaps::agreement() const {
    PatchAgreement a;
    if (method != PatchMethod::Exact || estimate.data.size() != result.fraction.data.size())
        return a;
    for (int l = 0; l < num_layers; ++l)
        for (int h = 0; h < num_heads; ++h) {
            const std::size_t at = std::size_t(l) * std::size_t(num_heads) + std::size_t(h);
            const double x = result.fraction.data[at], y = estimate.data[at];
            if (!std::isfinite(x) || !std::isfinite(y)) continue;
            a.heads.emplace_back(h, l);
            a.exact.push_back(x);
            a.estimate.push_back(y);
        }
    a.rho = models::spearman(a.exact, a.estimate);
    return a;
}

const float* PatchMaps::headByPosition() const {
    const auto L = std::size_t(corrupt_tokens.size());
    if (head.layer < 0 || head.head < 0 || L == 0 ||
        estimate_by_position.data.size() != std::size_t(num_layers * num_heads) * L)
        return nullptr;
    return estimate_by_position.ptr() +
           (std::size_t(head.layer) * std::size_t(num_heads) + std::size_t(head.head)) * L;
}

PatchMaps make_patch_maps(const models::OpenedModel& model, const models::PatchRequest& request,
                          const QString& clean_text, const QString& corrupt_text) {
    PatchMaps m;
    m.model = model_display_name(model);
    m.num_layers = int(model.model->info().num_layers);
    m.num_heads = int(model.model->info().num_heads);
    m.clean_text = clean_text;
    m.corrupt_text = corrupt_text;
    const auto text = [&](std::int64_t id) {
        return QString::fromStdString(model.tokenizer.id_to_token(id));
    };
    for (const std::int64_t id : request.clean.ids)
        m.clean_tokens.push_back(text(id));
    for (const std::int64_t id : request.corrupt.ids)
        m.corrupt_tokens.push_back(text(id));
    m.target_id = request.target;
    m.distractor_id = request.distractor;
    m.target = text(request.target);
    m.distractor = text(request.distractor);
    m.total = int(request.heads.empty() ? m.num_layers * m.num_heads : request.heads.size());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    m.result.fraction = Tensor({m.num_layers, m.num_heads}, float(nan));
    m.result.m_patched = m.result.fraction;
    m.result.m_clean = m.result.m_corrupt = nan;
    const auto L = std::int64_t(request.clean.ids.size());
    m.result.position = request.position < 0 ? L + request.position : request.position;
    return m;
}

QByteArray patch_csv(const PatchMaps& m) {
    QByteArray out = "layer,head,fraction,m_patched,m_clean,m_corrupt\n";
    for (int l = 0; l < m.num_layers; ++l)
        for (int h = 0; h < m.num_heads; ++h) {
            const std::size_t at = std::size_t(l) * std::size_t(m.num_heads) + std::size_t(h);
            out += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                       .arg(l + 1)
                       .arg(h + 1)
                       .arg(csv_number(double(m.result.fraction.data[at])),
                            csv_number(double(m.result.m_patched.data[at])),
                            csv_number(m.result.m_clean), csv_number(m.result.m_corrupt))
                       .toUtf8();
        }
    return out;
}

QByteArray patch_npy(const PatchMaps& m) {
    const std::string bytes = io::serialize_npy(m.result.fraction);
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}

QString PatchFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (maps_ && maps_->method == PatchMethod::Attribution)
        return PatchText::tr("Attribution patching: the estimated fraction each head restores");
    return PatchText::tr("Activation patching: the fraction of the metric each head restores");
}

QString PatchFigure::captionText() const {
    if (!maps_) return {};
    const auto L = int(maps_->clean_tokens.size());
    const auto at = std::size_t(std::clamp<std::int64_t>(maps_->result.position, 0, L - 1));
    const QString method =
        maps_->method == PatchMethod::Attribution
            ? PatchText::tr("method: attribution (first-order estimate, every head at once)")
            : PatchText::tr("method: exact (a patched run per head)");
    return PatchText::tr(
               "%1 · clean: “%2” · corrupted: “%3” · metric: logit %4 − logit %5 at "
               "token %6 %7")
               .arg(maps_->model, maps_->clean_text, maps_->corrupt_text,
                    patch_quoted(maps_->target), patch_quoted(maps_->distractor))
               .arg(maps_->result.position + 1)
               .arg(L > 0 ? patch_quoted(maps_->clean_tokens[at]) : QString()) +
           QStringLiteral(" · ") + method;
}

QString PatchFigure::notesText(bool head_maps) const {
    if (!maps_) return {};
    const PatchMaps& m = *maps_;
    const bool estimated = !m.estimate.empty();
    QString progress;
    if (m.method == PatchMethod::Attribution)
        progress = estimated ? PatchText::tr(
                                   "Estimated by attribution patching: two forward passes and a "
                                   "backward pass for every head, to first order. Exact "
                                   "measures each head in a run of its own.")
                             : PatchText::tr(
                                   "Estimating every head: two forward passes and a backward "
                                   "pass; grey: not estimated yet.");
    else if (m.stopped)
        progress = estimated ? PatchText::tr(
                                   "Stopped after %1 of %2 heads; hatched: estimated, "
                                   "not measured.")
                                   .arg(m.done)
                                   .arg(m.total)
                             : PatchText::tr("Stopped after %1 of %2 heads; grey: not run.")
                                   .arg(m.done)
                                   .arg(m.total);
    else if (m.done < m.total)
        progress =
            estimated
                ? PatchText::tr(
                      "Estimated, refining: %1 of %2 heads measured; "
                      "hatched: the attribution estimate, until the sweep "
                      "reaches the head.")
                      .arg(m.done)
                      .arg(m.total)
                : PatchText::tr("%1 of %2 heads run; grey: not run yet.").arg(m.done).arg(m.total);
    else
        progress = PatchText::tr("Every head run (%1).").arg(m.total);
    QString notes =
        PatchText::tr("m = logit %1 − logit %2: clean %3, corrupted %4.")
            .arg(patch_quoted(m.target), patch_quoted(m.distractor))
            .arg(signed_number(m.result.m_clean), signed_number(m.result.m_corrupt)) +
        QLatin1Char('\n') +
        PatchText::tr("Fraction restored = (m patched − m corrupted) / (m clean − m corrupted).") +
        QLatin1Char('\n') + progress;
    if (head_maps)
        notes += QLatin1Char('\n') +
                 PatchText::tr(
                     "Right: the chosen head's attention, rows the queries and columns "
                     "the keys, from 0 (dark) to the larger maximum of the two "
                     "(yellow); grey: the future, masked.");
    if (head_maps && m.headByPosition())
        notes += QLatin1Char('\n') +
                 PatchText::tr(
                     "Under the corrupted text: the chosen head's estimate split by the "
                     "position patched, on the map's scale.");
    return notes;
}

namespace {
// The narrowest scatter and the smallest cells the map gives room to side by side.
constexpr double kScatterMin = 180.0, kCellMin = 18.0;
}  // namespace

/// What PatchFigure::layout() measures before it places the map, the scatter and the head's
/// maps.
struct PatchFigure::LayoutPlan {
    bool head = false;  ///< a chosen head's maps to draw
    QString notes, head_titles;
    QRectF area;  ///< the canvas under the title
    bool strip = false, scatter = false, legend = false;
    double label = 0.0, map_side = 0.0, left = 0.0, top = 0.0, scale_w = 0.0;
    double column = 0.0;  ///< the patching map's share of the width
    double notes_min_w = 0.0, notes_h = 0.0, scatter_w = 0.0, room = 0.0;
    double under = 0.0;  ///< the bottom of the map, scale, legend and scatter
    double notes_w = 0.0, bottom = 0.0;
};

void PatchFigure::layout(QSize size) {
    size_ = size;
    LayoutPlan plan;
    chooseFonts(plan);
    clean_area_ = corrupt_area_ = map_ = scale_ = notes_ = legend_ = strip_ = QRectF();
    plot_.layout({}, 0.0, 0.0, font_, small_);  // none until there is room for it
    notes_text_.clear();
    cell_ = 0.0;
    const double y =
        title_.layout(options_, titleText(), captionText(), 8, size.width(), kPatchPad);
    used_height_ = int(std::ceil(y));
    used_width_ = -1;
    if (!maps_ || maps_->num_layers <= 0 || maps_->num_heads <= 0) return;
    plan.area =
        QRectF(kPatchPad, y + 4, size.width() - 2 * kPatchPad, size.height() - y - 4 - kPatchPad);
    measure(plan);
    placeMap(plan);
    placeNotes(plan);
    if (plan.head) placeHeadMaps(plan);
    used_height_ = int(std::ceil(plan.bottom + kPatchPad));
    // The map alone need not fill a wide canvas; the title's line still must fit.
    const double title_w =
        QFontMetricsF(figure_font(std::max(6, options_.font_px) + 5, {titleText()}, true))
            .horizontalAdvance(titleText());
    const double content = clean_area_.isEmpty()
                               ? std::max({notes_.right(), scale_.right() + 50,
                                           plot_.rect().isEmpty() ? 0.0 : plot_.rect().right()})
                               : corrupt_area_.right();
    used_width_ =
        int(std::ceil(std::max({content + kPatchPad, title_w + 2 * kPatchPad + 8, 480.0})));
}

void PatchFigure::chooseFonts(LayoutPlan& plan) {
    plan.head = maps_ && maps_->head.layer >= 0 && !maps_->head.clean.empty();
    plan.notes = notesText(plan.head);
    agreement_ = maps_ ? maps_->agreement() : PatchAgreement{};
    plot_.setAgreement(&agreement_);
    legend_words_[0] = PatchText::tr("measured (exact)");
    legend_words_[1] = PatchText::tr("estimated (attribution), until measured");
    plan.head_titles = PatchText::tr("Clean text, %1") + PatchText::tr("Corrupted text, %1") +
                       PatchText::tr("layer %1 · head %2");
    // Every text the figure draws, so that the fonts name the family their characters come
    // from (the translations' Chinese as well as the tokens') and measure as they draw.
    QStringList texts{
        maps_ ? maps_->model : QString(), plan.notes,        plan.head_titles,
        PatchText::tr("Layer %1"),        plot_.titleText(), legend_words_[0] + legend_words_[1]};
    if (maps_) {
        for (const QString& t : maps_->clean_tokens)
            texts << t;
        for (const QString& t : maps_->corrupt_tokens)
            texts << t;
        texts << maps_->target << maps_->distractor;
    }
    font_ = figure_font(std::max(6, options_.font_px), texts);
    small_ = figure_font(std::max(6, options_.font_px - 2), texts);
}

void PatchFigure::measure(LayoutPlan& plan) {
    const QRectF& area = plan.area;
    const QFontMetricsF fm(font_), sm(small_);
    head_title_h_ = std::max(fm.lineSpacing(), line_height(font_, plan.head_titles));
    // The chosen head's estimate by position, a strip under its corrupted map's columns.
    plan.strip = plan.head && maps_->headByPosition();
    strip_h_ = plan.strip ? std::max(10.0, sm.height() + 2) + 5 : 0.0;
    // The chosen head's two maps are square and as tall as the room: they take the width that
    // needs (at most 60%), the patching map the rest.
    plan.label = std::min(90.0, fm.horizontalAdvance(QStringLiteral("MMMMMM")));
    plan.map_side = std::max(60.0, area.height() - head_title_h_ - 4 - plan.label - strip_h_);
    plan.left = fm.horizontalAdvance(PatchText::tr("Layer %1").arg(88)) + 8;
    plan.top = fm.height() + 4;
    plan.scale_w =
        12 + 14 + 6 + std::max(sm.horizontalAdvance(QStringLiteral("−0.00")), sm.height() * 1.2);
    const double H = maps_->num_heads;
    plan.scatter = !agreement_.empty();
    double maps_w =
        plan.head ? std::min(area.width() * 0.6, 2 * (plan.map_side + plan.label) + 16) : 0.0;
    // The head's maps give up width for the map and the scatter side by side, down to two
    // maps of about 120 pixels.
    if (plan.head && plan.scatter)
        maps_w = std::max(
            std::min(maps_w, area.width() - 24 -
                                 (plan.left + plan.scale_w + H * kCellMin + 24 + kScatterMin)),
            std::min(maps_w, 2 * 120.0 + 16));
    plan.column = plan.head ? area.width() - maps_w - 24 : area.width();
    // The notes are at least this wide, so wrapped here they take at most this height (their
    // lines measured in the fonts they are drawn in: Chinese in the taller CJK family).
    plan.notes_min_w = std::min(plan.column, 520.0);
    plan.notes_h = text_height(small_, paint::wrap_text(plan.notes, small_, plan.notes_min_w)) + 4;
    // The scatter goes beside the colour bar, or under the map when the cells grow more there;
    // nowhere when either leaves cells too small to read and click.
    plan.scatter_w = plan.scatter ? std::clamp(plan.column * 0.34, kScatterMin, 300.0) : 0.0;
    // The legend goes right under the map: measured at the narrowest it may be laid out.
    plan.legend = maps_->showsEstimates();
    const double legend_min_w = std::min(plan.column, plan.left + plan.scale_w + H * kCellMin);
    const double legend_h = plan.legend ? layoutLegend(QPointF(0, 0), legend_min_w) + 8 : 0.0;
    plan.room = area.height() - plan.top - plan.notes_h - legend_h;  // the cells' height
}

void PatchFigure::placeMap(LayoutPlan& plan) {
    const QRectF& area = plan.area;
    const double H = maps_->num_heads, N = maps_->num_layers;
    const double column = plan.column, left = plan.left, scale_w = plan.scale_w;
    const double beside_cell =
        std::min({(column - left - scale_w - 24 - plan.scatter_w) / H, plan.room / N, 72.0});
    const double below_cell =
        std::min({(column - left - scale_w) / H, (plan.room - plan.scatter_w - 12) / N, 72.0});
    const bool beside = plan.scatter && beside_cell >= 0.8 * below_cell && beside_cell >= 12.0;
    const bool below = plan.scatter && !beside && below_cell >= 12.0;
    cell_ = beside ? beside_cell
                   : (below ? below_cell : std::min((column - left - scale_w) / H, plan.room / N));
    cell_ = std::clamp(std::floor(cell_), 4.0, 72.0);
    map_ = QRectF(area.x() + left, area.y() + plan.top, cell_ * H, cell_ * N);
    scale_ = QRectF(map_.right() + 12, map_.top(), 14,
                    std::max(map_.height(), std::min(plan.room, 140.0)));
    double under = std::max(map_.bottom(), scale_.bottom());
    if (plan.legend)
        under += 8 + layoutLegend(QPointF(area.x(), under + 8),
                                  beside ? map_.right() + scale_w - area.x() : column);
    if (beside) {
        const double x = map_.right() + scale_w + 24;
        plot_.layout(QPointF(x, area.y()), std::min(plan.scatter_w, area.x() + column - x),
                     area.height() - plan.notes_h, font_, small_);
    } else if (below) {
        plot_.layout(QPointF(area.x(), under + 12), std::min(column, 300.0),
                     area.bottom() - under - 12 - plan.notes_h, font_, small_);
    }
    if (!plot_.rect().isEmpty()) under = std::max(under, plot_.rect().bottom());
    plan.under = under;
}

void PatchFigure::placeNotes(LayoutPlan& plan) {
    const QRectF& area = plan.area;
    const double content_w =
        std::max(map_.right() + plan.scale_w, plot_.rect().isEmpty() ? 0.0 : plot_.rect().right()) -
        area.x();
    plan.notes_w = std::max(plan.notes_min_w, content_w);
    notes_text_ = paint::wrap_text(plan.notes, small_, plan.notes_w);
    notes_ = QRectF(area.x(), plan.under + 8, plan.notes_w, text_height(small_, notes_text_) + 4);
    plan.bottom = notes_.bottom();
}

void PatchFigure::placeHeadMaps(LayoutPlan& plan) {
    const QRectF& area = plan.area;
    const double x = area.x() + std::max(plan.column, notes_.width()) + 24;
    const double w = (area.right() - x - 16) / 2;
    if (w > 60) {
        clean_area_ = QRectF(x, area.y(), w, area.height());
        corrupt_area_ = QRectF(x + w + 16, area.y(), w, area.height());
        const double side = std::min(w - plan.label, plan.map_side);
        plan.bottom =
            std::max(plan.bottom, area.y() + head_title_h_ + 4 + side + strip_h_ + plan.label);
        double token_label = 0.0;
        const QRectF cells = headCells(corrupt_area_, maps_->corrupt_tokens, &token_label);
        if (plan.strip && !cells.isEmpty())
            strip_ = QRectF(cells.left(), cells.bottom() + 4, cells.width(), strip_h_ - 5);
    } else {  // no room for the head's maps: no note about them
        notes_text_ = paint::wrap_text(notesText(false), small_, plan.notes_w);
        notes_.setHeight(text_height(small_, notes_text_) + 4);
        plan.bottom = std::max(plan.bottom, notes_.bottom());
    }
}

double PatchFigure::layoutLegend(QPointF top_left, double width) {
    const QFontMetricsF sm(small_);
    const double line = line_height(small_, legend_words_[0] + legend_words_[1]);
    const double swatch = std::round(sm.height() * 0.9);
    double x = top_left.x(), y = top_left.y();
    for (int i = 0; i < 2; ++i) {
        const double text_w =
            std::min(sm.horizontalAdvance(legend_words_[i]) + 2, width - swatch - 6);
        if (i > 0 && x + swatch + 6 + text_w > top_left.x() + width) {  // on a line of its own
            x = top_left.x();
            y += line + 4;
        }
        legend_swatch_[i] = QRectF(x, y + (line - swatch) / 2, swatch * 1.6, swatch);
        legend_text_[i] = QRectF(legend_swatch_[i].right() + 6, y, text_w, line);
        x = legend_text_[i].right() + 18;
    }
    legend_ = QRectF(top_left, QPointF(top_left.x() + width, y + line));
    return legend_.height();
}

QRectF PatchFigure::cellRect(int layer, int head) const {
    if (!maps_ || layer < 0 || head < 0 || layer >= maps_->num_layers || head >= maps_->num_heads ||
        cell_ <= 0)
        return {};
    return QRectF(map_.x() + head * cell_, map_.y() + layer * cell_, cell_, cell_);
}

QPoint PatchFigure::headAt(const QPointF& pos) const {
    if (!maps_ || cell_ <= 0) return {-1, -1};
    if (!map_.contains(pos)) return plot_.headAt(pos);
    const int h = std::min(maps_->num_heads - 1, int((pos.x() - map_.x()) / cell_));
    const int l = std::min(maps_->num_layers - 1, int((pos.y() - map_.y()) / cell_));
    return {h, l};
}

QString PatchFigure::describe(int layer, int head) const {
    if (!maps_ || !cellRect(layer, head).isValid()) return {};
    const QString name = PatchText::tr("Layer %1 · head %2").arg(layer + 1).arg(head + 1);
    const std::size_t at = std::size_t(layer) * std::size_t(maps_->num_heads) + std::size_t(head);
    const double f = maps_->fraction(layer, head);
    const double m = maps_->result.m_patched.data[at];
    const double e = at < maps_->estimate.data.size() ? double(maps_->estimate.data[at])
                                                      : std::numeric_limits<double>::quiet_NaN();
    if (std::isnan(m)) {
        if (!std::isnan(e))
            return PatchText::tr("%1: not run yet; attribution estimates it restores %2")
                .arg(name, paint::format_cell(e));
        return PatchText::tr("%1: not run yet").arg(name);
    }
    if (std::isnan(f))
        return PatchText::tr("%1: m = %2 (the metric is the same on both texts, so no fraction)")
            .arg(name, signed_number(m));
    if (maps_->method == PatchMethod::Attribution)
        return PatchText::tr(
                   "%1: attribution estimates it restores %2 of the metric (m ≈ %3); click to "
                   "see its attention")
            .arg(name, paint::format_cell(f), signed_number(m));
    const QString text =
        PatchText::tr("%1: restores %2 of the metric (m = %3); click to see its attention")
            .arg(name, paint::format_cell(f), signed_number(m));
    if (std::isnan(e)) return text;
    return text + QLatin1Char(' ') +
           PatchText::tr("(attribution estimated %1)").arg(paint::format_cell(e));
}

QString PatchFigure::describeAt(const QPointF& pos) const {
    if (maps_ && cell_ > 0 && !map_.contains(pos)) return plot_.describe(plot_.headAt(pos));
    const QPoint at = headAt(pos);
    return describe(at.y(), at.x());
}

void PatchFigure::paint(QPainter* p, bool vector) const {
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    title_.paint(p, options_);
    if (!maps_ || cell_ <= 0) return;
    paintMap(p);
    paintScale(p);
    paintLegend(p);
    plot_.paint(p, options_, hover_, QPoint(maps_->head.head, maps_->head.layer));
    const PatchHeadMaps& h = maps_->head;
    if (!clean_area_.isEmpty()) {
        float most = 0.0f;
        for (const Tensor* t : {&h.clean, &h.corrupt})
            for (float v : t->data)
                if (std::isfinite(v)) most = std::max(most, v);
        const QString head = PatchText::tr("layer %1 · head %2").arg(h.layer + 1).arg(h.head + 1);
        paintHeadMap(p, clean_area_, h.clean, maps_->clean_tokens,
                     PatchText::tr("Clean text, %1").arg(head), double(most), vector, nullptr);
        paintHeadMap(p, corrupt_area_, h.corrupt, maps_->corrupt_tokens,
                     PatchText::tr("Corrupted text, %1").arg(head), double(most), vector,
                     maps_->headByPosition());
    }
}

namespace {
/// Thin diagonal lines across `r`: a cell that shows the attribution estimate, not yet measured.
/// Lines rather than a pattern brush, so that SVG and PDF draw them too.
void hatch(QPainter* p, const QRectF& r) {
    p->save();
    p->setClipRect(r, Qt::IntersectClip);
    p->setPen(QPen(QColor(0x20, 0x20, 0x20, 110), 1.0));
    const double step = 6.0;
    for (double d = -r.height(); d < r.width(); d += step)
        p->drawLine(QPointF(r.left() + d, r.bottom()), QPointF(r.left() + d + r.height(), r.top()));
    p->restore();
}
}  // namespace

void PatchFigure::paintLegend(QPainter* p) const {
    if (legend_.isEmpty()) return;
    const double limit = maps_->scaleLimit();
    const QColor sample = paint::signed_color(0.6 * limit, limit);
    p->setFont(small_);
    for (int i = 0; i < 2; ++i) {
        p->fillRect(legend_swatch_[i], sample);
        if (i == 1) hatch(p, legend_swatch_[i]);
        p->setPen(QPen(paint::kMuted, 1.0));
        p->setBrush(Qt::NoBrush);
        p->drawRect(legend_swatch_[i]);
        p->setPen(paint::text_color(options_));
        p->drawText(legend_text_[i], Qt::AlignLeft | Qt::AlignVCenter,
                    paint::elide(legend_words_[i], QFontMetricsF(small_), legend_text_[i].width()));
    }
}

void PatchFigure::paintMap(QPainter* p) const {
    const PatchMaps& m = *maps_;
    const QFontMetricsF fm(font_);
    const QColor text = paint::text_color(options_);
    p->setFont(font_);
    p->setPen(text);
    const int head_every = label_stride(cell_, fm.horizontalAdvance(QStringLiteral("88")) + 4);
    const bool words = cell_ >= fm.horizontalAdvance(PatchText::tr("H%1").arg(88)) + 4;
    for (int h = 0; h < m.num_heads; h += head_every)
        p->drawText(QRectF(map_.x() + h * cell_, map_.y() - fm.height() - 4, cell_, fm.height()),
                    Qt::AlignHCenter | Qt::AlignBottom,
                    words ? PatchText::tr("H%1").arg(h + 1) : QString::number(h + 1));
    const int layer_every = label_stride(cell_, fm.height());
    for (int l = 0; l < m.num_layers; l += layer_every)
        p->drawText(QRectF(0, map_.y() + l * cell_, map_.x() - 8, cell_),
                    Qt::AlignRight | Qt::AlignVCenter, PatchText::tr("Layer %1").arg(l + 1));
    const double limit = m.scaleLimit();
    QFont value_font = small_;
    const QFontMetricsF vm(value_font);
    const bool values =
        cell_ >= vm.horizontalAdvance(QStringLiteral("−0.00")) + 6 && cell_ >= vm.height() + 4;
    p->setFont(value_font);
    for (int l = 0; l < m.num_layers; ++l)
        for (int h = 0; h < m.num_heads; ++h) {
            const QRectF r = cellRect(l, h);
            bool estimated = false;
            const double f = m.shown(l, h, &estimated);
            const QColor c = std::isnan(f) ? kNotRun : paint::signed_color(f, limit);
            p->fillRect(r, c);
            if (estimated && !std::isnan(f)) hatch(p, r);
            if (values && !std::isnan(f)) {
                p->setPen(text_color_on(c));
                p->drawText(r, Qt::AlignCenter, paint::format_cell(f));
            }
        }
    // Thin white lines between cells keep neighbours of one colour apart.
    p->setPen(QPen(Qt::white, 1.0));
    for (int h = 1; h < m.num_heads; ++h)
        p->drawLine(QPointF(map_.x() + h * cell_, map_.top()),
                    QPointF(map_.x() + h * cell_, map_.bottom()));
    for (int l = 1; l < m.num_layers; ++l)
        p->drawLine(QPointF(map_.left(), map_.y() + l * cell_),
                    QPointF(map_.right(), map_.y() + l * cell_));
    p->setBrush(Qt::NoBrush);
    const auto frame = [&](int l, int h, const QColor& colour) {
        const QRectF r = cellRect(l, h);
        if (r.isValid()) {
            p->setPen(QPen(colour, 2.5));
            p->drawRect(r.adjusted(1, 1, -1, -1));
        }
    };
    frame(m.head.layer, m.head.head, paint::kAccent);
    frame(hover_.y(), hover_.x(), paint::kHighlight);

    // What the colours are measured against, and how far the sweep got: laid out (wrapped
    // and measured) by layout().
    p->setFont(small_);
    p->setPen(options_.high_contrast ? QColor(Qt::black) : paint::kMuted);
    p->drawText(notes_, Qt::AlignLeft | Qt::AlignTop, notes_text_);
}

void PatchFigure::paintScale(QPainter* p) const {
    const double limit = maps_->scaleLimit();
    const int steps = std::max(2, int(scale_.height()));
    for (int k = 0; k < steps; ++k) {
        const double t = 1.0 - (k + 0.5) / steps;  // top: +limit
        p->fillRect(QRectF(scale_.x(), scale_.y() + k * scale_.height() / steps, scale_.width(),
                           scale_.height() / steps + 0.6),
                    paint::signed_color((2 * t - 1) * limit, limit));
    }
    p->setPen(QPen(paint::kMuted, 1.0));
    p->setBrush(Qt::NoBrush);
    p->drawRect(scale_);
    p->setFont(small_);
    const QFontMetricsF sm(small_);
    for (const double v : {limit, limit / 2, 0.0, -limit / 2, -limit}) {
        const double y = scale_.y() + (limit - v) / (2 * limit) * scale_.height();
        p->drawLine(QPointF(scale_.right(), y), QPointF(scale_.right() + 3, y));
        p->drawText(QRectF(scale_.right() + 5, y - sm.height() / 2, 60, sm.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, paint::format_cell(v));
    }
}

QRectF PatchFigure::headCells(const QRectF& area, const std::vector<QString>& tokens,
                              double* label) const {
    const auto L = int(tokens.size());
    const QFontMetricsF sm(small_);
    double widest = 0;
    for (const QString& t : tokens)
        widest = std::max(widest, sm.horizontalAdvance(visible_token(t)));
    *label = std::min(widest + 6, std::min(90.0, area.width() * 0.3));
    const double side =
        std::min(area.width() - *label, area.height() - head_title_h_ - *label - strip_h_);
    if (L <= 0 || side < 8) return {};
    const double c = side / L;
    return {area.x() + *label, area.y() + head_title_h_ + 4, c * L, c * L};
}

void PatchFigure::paintHeadMap(QPainter* p, const QRectF& area, const Tensor& map,
                               const std::vector<QString>& tokens, const QString& title, double max,
                               bool vector, const float* strip) const {
    const auto L = int(tokens.size());
    if (L <= 0 || map.numel() != std::size_t(L) * std::size_t(L)) return;
    const QFontMetricsF fm(font_), sm(small_);
    p->setFont(font_);
    p->setPen(paint::text_color(options_));
    p->drawText(QRectF(area.x(), area.y(), area.width(), head_title_h_),
                Qt::AlignLeft | Qt::AlignVCenter, paint::elide(title, fm, area.width()));
    QString labels;  // run together, measured as drawn: Chinese in the taller CJK family
    for (const QString& t : tokens)
        labels += visible_token(t);
    double label = 0.0;
    const QRectF cells = headCells(area, tokens, &label);
    if (cells.isEmpty()) return;
    const double c = cells.width() / L;
    QCPColorGradient g = make_gradient(Colormap::Viridis);  // color() is not const
    const QCPRange range(0.0, max > 0 ? max : 1.0);
    const QColor masked = masked_cell_color(Colormap::Viridis);
    const auto colour = [&](int i, int j) {
        const float v = map.data[std::size_t(i) * std::size_t(L) + std::size_t(j)];
        return j > i || !std::isfinite(v) ? masked : QColor(g.color(double(v), range));
    };
    if (vector) {
        for (int i = 0; i < L; ++i)
            for (int j = 0; j < L; ++j)
                p->fillRect(QRectF(cells.x() + j * c, cells.y() + i * c, c + 0.3, c + 0.3),
                            colour(i, j));
    } else {
        QImage image(L, L, QImage::Format_RGB32);
        for (int i = 0; i < L; ++i)
            for (int j = 0; j < L; ++j)
                image.setPixel(j, i, colour(i, j).rgb());
        p->save();
        p->setRenderHint(QPainter::SmoothPixmapTransform, false);
        p->drawImage(cells, image);
        p->restore();
    }
    if (strip)
        paintStrip(p, QRectF(cells.left(), cells.bottom() + 4, cells.width(), strip_h_ - 5), strip,
                   L);
    // Queries on the left, keys underneath (written downwards); every k-th when crowded.
    p->setFont(small_);
    p->setPen(options_.high_contrast ? QColor(Qt::black) : paint::kMuted);
    const int every = label_stride(c, line_height(small_, labels));
    for (int i = 0; i < L; i += every) {
        const QString t = paint::elide(visible_token(tokens[std::size_t(i)]), sm, label - 4);
        // A row may be thinner than a line of text: the label is centred on it, unclipped.
        p->drawText(
            QRectF(area.x(), cells.y() + (i + 0.5) * c - sm.height() / 2, label - 4, sm.height()),
            Qt::AlignRight | Qt::AlignVCenter, t);
        p->save();
        p->translate(cells.x() + (i + 0.5) * c, cells.bottom() + (strip ? strip_h_ : 0.0) + 3);
        p->rotate(90);
        p->drawText(QRectF(0, -sm.height() / 2, label - 4, sm.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, t);
        p->restore();
    }
}

void PatchFigure::paintStrip(QPainter* p, const QRectF& r, const float* values, int L) const {
    const double limit = maps_->scaleLimit(), c = r.width() / L;
    const QFontMetricsF sm(small_);
    const bool numbers =
        c >= sm.horizontalAdvance(QStringLiteral("−0.00")) + 4 && r.height() >= sm.height();
    p->setFont(small_);
    for (int t = 0; t < L; ++t) {
        const QRectF cell(r.x() + t * c, r.y(), c, r.height());
        const double v = values[t];
        const QColor colour = std::isnan(v) ? kNotRun : paint::signed_color(v, limit);
        p->fillRect(cell, colour);
        if (numbers && !std::isnan(v)) {
            p->setPen(text_color_on(colour));
            p->drawText(cell, Qt::AlignCenter, paint::format_cell(v));
        }
    }
    p->setPen(QPen(paint::kMuted, 1.0));
    p->setBrush(Qt::NoBrush);
    p->drawRect(r);
}

}  // namespace attnviz::ui
