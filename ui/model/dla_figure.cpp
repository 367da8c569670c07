#include "ui/model/dla_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/errors.h"
#include "engine/models/predictions.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/render/knock_out_mark.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {
struct DlaText {
    Q_DECLARE_TR_FUNCTIONS(DlaFigure)
};

constexpr double kDlaPad = 16.0;
/// The longest text the caption quotes whole; a longer one is cut with an ellipsis.
constexpr int kDlaCaptionChars = 80;
/// The source pieces the notes and the tool tip list.
constexpr int kNotedSources = 5, kDescribedSources = 6;

QString dla_quoted(const QString& token) {
    return DlaText::tr("“%1”").arg(visible_token(token));
}

}  // namespace

double DlaResult::head(int layer, int h) const {
    return double(
        attribution.heads.data[std::size_t(layer) * std::size_t(num_heads) + std::size_t(h)]);
}

std::optional<KnockOut> DlaResult::knockedOut(int layer, int h) const {
    const auto it = knocked_out.find({layer, h});
    return it == knocked_out.end() ? std::nullopt : std::optional<KnockOut>(it->second);
}

QString knocked_out_text(const std::map<ModelHead, KnockOut>& heads) {
    QStringList parts;
    for (const auto& [head, how] : heads)
        parts << DlaText::tr("layer %1 · head %2 (%3)")
                     .arg(head.first + 1)
                     .arg(head.second + 1)
                     .arg(knock_out_label(how));
    return parts.join(DlaText::tr(", "));
}

double DlaResult::source(int layer, int h, int token) const {
    const std::size_t L = pieces.size();
    return double(attribution.by_source
                      .data[(std::size_t(layer) * std::size_t(num_heads) + std::size_t(h)) * L +
                            std::size_t(token)]);
}

namespace {
bool any_part(const std::vector<double>& parts) {
    return std::any_of(parts.begin(), parts.end(), [](double v) { return !std::isnan(v); });
}
double sum_parts(const std::vector<double>& parts) {
    return std::accumulate(parts.begin(), parts.end(), 0.0,
                           [](double s, double v) { return std::isnan(v) ? s : s + v; });
}
}  // namespace

bool DlaResult::hasBias() const {
    return any_part(attribution.attention_bias);
}

bool DlaResult::hasMlp() const {
    return any_part(attribution.mlps);
}

double DlaResult::headSum() const {
    double s = 0.0;
    for (const float v : attribution.heads.data)
        s += double(v);
    return s;
}

double DlaResult::biasSum() const {
    return sum_parts(attribution.attention_bias);
}

double DlaResult::mlpSum() const {
    return sum_parts(attribution.mlps);
}

double DlaResult::scaleLimit() const {
    double most = 0.0;
    for (const float v : attribution.heads.data)
        if (std::isfinite(v)) most = std::max(most, std::abs(double(v)));
    for (const std::vector<double>* parts : {&attribution.attention_bias, &attribution.mlps})
        for (const double v : *parts)
            if (std::isfinite(v)) most = std::max(most, std::abs(v));
    return most > 0.0 ? most : 1.0;
}

QPoint DlaResult::topHead() const {
    QPoint best(-1, -1);
    double most = -1.0;
    for (int l = 0; l < num_layers; ++l)
        for (int h = 0; h < num_heads; ++h)
            if (std::abs(head(l, h)) > most) {
                most = std::abs(head(l, h));
                best = QPoint(h, l);
            }
    return best;
}

std::vector<std::pair<int, double>> DlaResult::largestSources(int layer, int h, int count) const {
    std::vector<std::pair<int, double>> out;
    for (int t = 0; t < int(pieces.size()); ++t)
        out.emplace_back(t, source(layer, h, t));
    const auto n = std::min<std::size_t>(std::size_t(std::max(0, count)), out.size());
    std::partial_sort(
        out.begin(), out.begin() + std::ptrdiff_t(n), out.end(),
        [](const auto& a, const auto& b) { return std::abs(a.second) > std::abs(b.second); });
    out.resize(n);
    return out;
}

QString dla_unavailable(const models::OpenedModel& m) {
    const QString name = model_display_name(m);
    // In the engine's order: no head, then the norms, then the kind of head.
    switch (m.model->lm_head()) {
        case models::LmHeadKind::None:
            return DlaText::tr(
                       "%1 has no language-model head: there is no logit whose parts "
                       "could be shown.")
                .arg(name);
        case models::LmHeadKind::Causal:
        case models::LmHeadKind::Masked:
            break;
    }
    if (!m.model->info().pre_norm)
        return DlaText::tr(
                   "%1 is a post-norm model: a norm sits between its blocks, so its residual "
                   "stream is no sum of what the heads and MLPs write, and no part's share of a "
                   "logit can be read off. Direct logit attribution needs a pre-norm model "
                   "(GPT-2, Llama, Qwen).")
            .arg(name);
    if (m.model->lm_head() != models::LmHeadKind::Causal)
        return DlaText::tr(
                   "%1 is a masked language model: direct logit attribution reads the "
                   "next-token logit of a causal model.")
            .arg(name);
    return {};
}

std::int64_t top_prediction(const models::OpenedModel& m, const models::ModelInput& input,
                            std::int64_t position, int num_threads, const PassControl& control) {
    control.check();
    models::PredictOptions o;
    o.num_threads = num_threads;
    const models::Prediction p = models::predict(*m.model, input, o);
    const std::int64_t V = p.logits.shape[1];
    return models::top_k(p.logits.ptr() + position * V, V, 1).front().id;
}

DlaResult compute_dla(const models::OpenedModel& m, const models::EncodedText& text,
                      const QString& text_shown, const DlaRequest& request, int num_threads,
                      const PassControl& control, const models::StreamRecord* record) {
    if (const QString why = dla_unavailable(m); !why.isEmpty()) throw DataError(why.toStdString());
    const auto L = std::int64_t(text.input.ids.size());
    if (request.position < 0 || request.position >= L)
        throw std::invalid_argument("position " + std::to_string(request.position + 1) +
                                    " is not one of the text's " + std::to_string(L) + " tokens");
    models::LogitTarget what;
    what.position = request.position;
    what.distractor = request.distractor;
    what.target = request.target
                      ? *request.target
                      : top_prediction(m, text.input, request.position, num_threads, control);
    models::AttributionOptions options;
    options.num_threads = num_threads;
    options.control = control;
    ComputeConfig knocked;  // as the window's passes knock them out
    knocked.knocked_out = request.knocked_out;
    options.interventions = model_knock_outs(knocked, m.model->info());
    // The window's pass when it is this one: its parts without a pass of their own.
    const bool recorded =
        record && record->has_attention() && record->is_pass_of(text.input, options.interventions);
    DlaResult out;
    out.attribution = recorded ? models::attribute_logit(*m.model, *record, what, options)
                               : models::attribute_logit(*m.model, text.input, what, options);
    out.knocked_out = request.knocked_out;
    out.model = model_display_name(m);
    out.text = text_shown;
    out.num_layers = int(m.model->info().num_layers);
    out.num_heads = int(m.model->info().num_heads);
    for (std::int64_t t = 0; t < L; ++t)
        out.pieces.push_back(
            std::size_t(t) < text.encoding.text.size()
                ? QString::fromStdString(text.encoding.text[std::size_t(t)])
                : QString::fromStdString(m.tokenizer.id_to_token(text.input.ids[std::size_t(t)])));
    out.target = QString::fromStdString(m.tokenizer.id_to_token(what.target));
    if (what.distractor)
        out.distractor = QString::fromStdString(m.tokenizer.id_to_token(*what.distractor));
    out.predicted = !request.target || request.predicted;
    return out;
}

QByteArray dla_csv(const DlaResult& r) {
    const models::LogitAttribution& a = r.attribution;
    QByteArray out = "component,layer,head,value\n";
    const auto row = [&](const char* component, int layer, int head, double v) {
        out += QByteArray(component) + ',' +
               (layer > 0 ? QByteArray::number(layer) : QByteArray()) + ',' +
               (head > 0 ? QByteArray::number(head) : QByteArray()) + ',' +
               QByteArray::number(v, 'g', 12) + '\n';
    };
    row("embeddings", 0, 0, a.embeddings);
    for (int l = 0; l < r.num_layers; ++l)
        for (int h = 0; h < r.num_heads; ++h)
            row("head", l + 1, h + 1, r.head(l, h));
    for (int l = 0; l < r.num_layers; ++l) {
        if (!std::isnan(a.attention_bias[std::size_t(l)]))
            row("attention_bias", l + 1, 0, a.attention_bias[std::size_t(l)]);
        if (!std::isnan(a.mlps[std::size_t(l)])) row("mlp", l + 1, 0, a.mlps[std::size_t(l)]);
    }
    row("constant", 0, 0, a.constant);
    row("total", 0, 0, a.total);
    return out;
}

QString DlaFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (!result_) return DlaText::tr("Who writes the answer: direct logit attribution");
    if (!result_->distractor.isEmpty())
        return DlaText::tr("Who writes the answer: logit %1 − logit %2")
            .arg(dla_quoted(result_->target), dla_quoted(result_->distractor));
    return DlaText::tr("Who writes the answer: the logit of %1").arg(dla_quoted(result_->target));
}

QString DlaFigure::captionText() const {
    if (!result_) return {};
    const DlaResult& r = *result_;
    QString text = r.text;
    if (text.size() > kDlaCaptionChars)
        text = text.left(kDlaCaptionChars - 1) + QStringLiteral("…");
    const auto at = std::size_t(r.attribution.what.position);
    const QString token = at < r.pieces.size() ? dla_quoted(r.pieces[at]) : QString();
    const bool knocked = !r.knocked_out.empty();
    const QString target =
        !r.predicted ? dla_quoted(r.target)
        : knocked
            ? DlaText::tr("%1, the intact model's top prediction there").arg(dla_quoted(r.target))
            : DlaText::tr("%1, the model's top prediction there").arg(dla_quoted(r.target));
    QString caption = DlaText::tr("%1 · “%2” · at token %3 %4 · target %5")
                          .arg(r.model, text)
                          .arg(r.attribution.what.position + 1)
                          .arg(token, target);
    if (knocked) caption += DlaText::tr(" · knocked out: %1").arg(knocked_out_text(r.knocked_out));
    return caption;
}

std::vector<DlaFigure::Bar> DlaFigure::bars() const {
    std::vector<Bar> out;
    if (!result_) return out;
    const DlaResult& r = *result_;
    out.push_back({DlaText::tr("Embeddings"), r.attribution.embeddings});
    out.push_back({DlaText::tr("Heads (Σ)"), r.headSum()});
    if (r.hasBias()) out.push_back({DlaText::tr("Attention biases (Σ)"), r.biasSum()});
    if (r.hasMlp()) out.push_back({DlaText::tr("MLPs (Σ)"), r.mlpSum()});
    out.push_back({DlaText::tr("Constant"), r.attribution.constant});
    out.push_back({DlaText::tr("Total"), r.attribution.total, true});
    return out;
}

QString DlaFigure::notesText() const {
    if (!result_) return {};
    const QString scale = QString::number(result_->attribution.norm_scale, 'f', 3);
    if (!result_->knocked_out.empty())
        return DlaText::tr(
                   "Each cell is what one head writes into the logit at this token, read through "
                   "the final norm at its scale for the whole stream (× %1): red raises the "
                   "logit, blue lowers it. The crossed-out heads are knocked out: the parts are "
                   "those of the model without them, and add up to its logit.")
            .arg(scale);
    return DlaText::tr(
               "Each cell is what one head writes into the logit at this token, read through "
               "the final norm at its scale for the whole stream (× %1): red raises the logit, "
               "blue lowers it. The parts add up to the model's own logit.")
        .arg(scale);
}

QString DlaFigure::sourcesText(int layer, int head, int count) const {
    if (!result_ || layer < 0 || head < 0) return {};
    if (result_->knockedOut(layer, head) == KnockOut::Zero)
        return DlaText::tr("Layer %1 · head %2 is knocked out by zeros: it writes nothing.")
            .arg(layer + 1)
            .arg(head + 1);
    QStringList parts;
    for (const auto& [t, v] : result_->largestSources(layer, head, count))
        parts << QStringLiteral("%1 %2 %3")
                     .arg(t + 1)
                     .arg(dla_quoted(result_->pieces[std::size_t(t)]), paint::format_cell(v));
    return DlaText::tr("Layer %1 · head %2 by source token: %3")
        .arg(layer + 1)
        .arg(head + 1)
        .arg(parts.join(QStringLiteral(" · ")));
}

QPoint DlaFigure::notedHead() const {
    if (!result_) return {-1, -1};
    if (hover_.x() >= 0 && hover_.y() >= 0) return hover_;
    return result_->topHead();
}

/// What DlaFigure::layout() measures before it places the map, the bars and the notes.
struct DlaFigure::LayoutPlan {
    QRectF area;                   ///< the canvas under the title
    double left = 0.0, top = 0.0;  ///< the map's layer and column labels
    int extra = 0;                 ///< the strip's columns: bias and MLP
    double strip_gap = 0.0, scale_w = 0.0;
    double bars_min_w = 0.0, bars_max_w = 0.0, bars_h = 0.0;
    double notes_min_w = 0.0, sources_h = 0.0, below = 0.0;  ///< below: the sources and notes
    bool notes = true;  ///< false: a canvas too short for them (Presentation Mode) leaves them out
    double content_right = 0.0, content_bottom = 0.0;  ///< of the map and the bars
};

void DlaFigure::layout(QSize size) {
    size_ = size;
    const std::vector<Bar> parts = bars();
    chooseFonts(parts);
    grid_ = strip_ = scale_ = bars_ = notes_ = sources_ = strip_rect_ = QRectF();
    notes_text_.clear();
    cell_ = 0.0;
    // A long target token on a narrow tab: the title is cut, never drawn past the edge.
    const QFont title_font = figure_font(std::max(6, options_.font_px) + 5, {titleText()}, true);
    const QString title =
        paint::elide(titleText(), QFontMetricsF(title_font), size.width() - 2 * kDlaPad);
    double y = title_.layout(options_, title, captionText(), 8, size.width(), kDlaPad);
    y += layoutStrip(y);
    used_height_ = int(std::ceil(y));
    used_width_ = -1;
    if (!result_ || result_->num_layers <= 0 || result_->num_heads <= 0) return;
    for (const bool notes : {true, false}) {
        LayoutPlan plan;
        plan.notes = notes;
        plan.area =
            QRectF(kDlaPad, y + 4, size.width() - 2 * kDlaPad, size.height() - y - 4 - kDlaPad);
        measureMap(plan);
        measureBars(plan, parts);
        measureNotes(plan);
        placeMapAndBars(plan);
        placeNotes(plan);
        if (used_height_ <= size.height()) break;
    }
    // The map alone need not fill a wide canvas; the title's line still must fit.
    const double title_w = QFontMetricsF(title_font).horizontalAdvance(title);
    used_width_ =
        int(std::ceil(std::max({notes_.right() + kDlaPad, title_w + 2 * kDlaPad + 8, 480.0})));
}

double DlaFigure::layoutStrip(double top) {
    if (!saliency_ || !result_) return 0.0;
    strip_figure_.setResult(saliency_);
    strip_figure_.setCompact(true);
    FigureOptions options = options_;
    options.title.clear();  // a --title names the whole figure, not the strip's heading
    strip_figure_.setOptions(options);
    // As tall as its boxes wrap to at this width; then laid out at that height, which its
    // paint fills.
    strip_figure_.layout(QSize(size_.width(), 4000));
    const int h = std::max(0, strip_figure_.usedHeight());
    strip_figure_.layout(QSize(size_.width(), h));
    strip_rect_ = QRectF(0, top, size_.width(), h);
    return h;
}

void DlaFigure::chooseFonts(const std::vector<Bar>& parts) {
    QStringList texts{titleText(),
                      captionText(),
                      notesText(),
                      DlaText::tr("Layer %1"),
                      DlaText::tr("Bias"),
                      DlaText::tr("MLP"),
                      DlaText::tr("Σ parts = total %1")};
    for (const Bar& b : parts)
        texts << b.label;
    if (result_) {
        for (const QString& t : result_->pieces)
            texts << t;
        texts << result_->model << result_->target << result_->distractor;
        // The crossed-out cells' labels, drawn in the map's font ("均值" in the CJK family).
        if (!result_->knocked_out.empty())
            texts << knock_out_label(KnockOut::Zero) << knock_out_label(KnockOut::Mean);
    }
    const int fpx = std::max(6, options_.font_px);
    font_ = figure_font(fpx, texts);
    small_ = figure_font(std::max(6, fpx - 2), texts);
    bold_ = figure_font(fpx, texts, true);
}

void DlaFigure::measureMap(LayoutPlan& plan) {
    const DlaResult& r = *result_;
    const QFontMetricsF fm(font_), sm(small_);
    // The map's labels: layers on the left, heads (and the strip's columns) on top.
    plan.left = fm.horizontalAdvance(DlaText::tr("Layer %1").arg(r.num_layers)) + 8;
    const QString column_words = DlaText::tr("Bias") + DlaText::tr("MLP");
    plan.top = std::max(fm.height(), line_height(font_, column_words)) + 4;
    plan.extra = int(r.hasBias()) + int(r.hasMlp());
    strip_w_ = plan.extra == 0 ? 0.0
                               : std::max({fm.horizontalAdvance(DlaText::tr("Bias")),
                                           fm.horizontalAdvance(DlaText::tr("MLP")),
                                           sm.horizontalAdvance(QStringLiteral("−00.00"))}) +
                                     10;
    plan.strip_gap = plan.extra > 0 ? 8.0 : 0.0;
    const double limit = r.scaleLimit();
    double tick_w = 0.0;
    for (const double v : {limit, limit / 2, 0.0, -limit / 2, -limit})
        tick_w = std::max(tick_w, sm.horizontalAdvance(paint::format_cell(v)));
    plan.scale_w = 12 + 14 + 6 + tick_w;
}

void DlaFigure::measureBars(LayoutPlan& plan, const std::vector<Bar>& parts) {
    const QFontMetricsF fm(font_), bm(bold_);
    // The bars: label, track, value; the sum under them.
    bar_label_w_ = bar_value_w_ = 0.0;
    QString bar_labels;
    for (const Bar& b : parts) {
        const QFontMetricsF& m = b.total ? bm : fm;
        bar_label_w_ = std::max(bar_label_w_, m.horizontalAdvance(b.label));
        bar_value_w_ = std::max(bar_value_w_, m.horizontalAdvance(paint::format_cell(b.value)));
        bar_labels += b.label;
    }
    bar_value_w_ += 6;
    bar_row_ = std::max(line_height(font_, bar_labels), bm.height()) + 8;
    const QString sum_text =
        DlaText::tr("Σ parts = total %1").arg(paint::format_cell(result_->attribution.total));
    const double sum_h = line_height(small_, sum_text) + 4;
    // The sum line starts at the track and may be longer than it (Chinese at a large font).
    const double sum_w = QFontMetricsF(small_).horizontalAdvance(sum_text) + 4;
    plan.bars_min_w = bar_label_w_ + 8 + std::max(120 + 8 + bar_value_w_, sum_w);
    plan.bars_max_w = std::max(plan.bars_min_w, bar_label_w_ + 8 + 320 + 8 + bar_value_w_);
    plan.bars_h = double(parts.size()) * bar_row_ + 6 + sum_h;
}

void DlaFigure::measureNotes(LayoutPlan& plan) const {
    // The notes are at least this wide, so wrapped here they take at most this height (their
    // lines measured in the fonts they are drawn in: Chinese in the taller CJK family).
    plan.notes_min_w = std::min(plan.area.width(), 560.0);
    const double notes_h =
        plan.notes
            ? text_height(small_, paint::wrap_text(notesText(), small_, plan.notes_min_w)) + 4
            : 0.0;
    // The line is as tall as any head's sources make it, so hovering never clips it: a Chinese
    // piece anywhere in the text is measured with it.
    const QPoint noted = notedHead();
    QString sources = sourcesText(noted.y(), noted.x(), kNotedSources);
    for (const QString& t : result_->pieces)
        if (holds_cjk(t)) {
            sources += t;
            break;
        }
    plan.sources_h = line_height(small_, sources) + 4;
    plan.below = notes_h + plan.sources_h + 12;
}

void DlaFigure::placeMapAndBars(LayoutPlan& plan) {
    const QRectF& area = plan.area;
    // The bars beside the map or under it, whichever leaves the map its larger cells.
    const double H = result_->num_heads, N = result_->num_layers;
    const double map_fixed = plan.left + plan.strip_gap + plan.extra * strip_w_ + 12 + plan.scale_w;
    const auto cell_for = [&](bool bars_beside) {
        const double w = area.width() - map_fixed - (bars_beside ? 32 + plan.bars_min_w : 0.0);
        const double h =
            area.height() - plan.top - plan.below - (bars_beside ? 0.0 : plan.bars_h + 16);
        return std::clamp(std::floor(std::min(w / H, h / N)), 4.0, 64.0);
    };
    // Beside only where the bars fit next to the smallest map.
    const bool room = area.width() - map_fixed - 4 * H - 32 >= plan.bars_min_w;
    const bool beside = room && cell_for(true) >= cell_for(false);
    const double avail_h =
        area.height() - plan.top - plan.below - (beside ? 0.0 : plan.bars_h + 16);
    cell_ = cell_for(beside);
    grid_ = QRectF(area.x() + plan.left, area.y() + plan.top, cell_ * H, cell_ * N);
    strip_ =
        QRectF(grid_.right() + plan.strip_gap, grid_.top(), plan.extra * strip_w_, grid_.height());
    // Tall enough for three tick labels apart (paintScale drops the quarters when short).
    const double tick_h = QFontMetricsF(small_).height() + 2;
    scale_ = QRectF(strip_.right() + 12, grid_.top(), 14,
                    std::max({grid_.height(), std::min(avail_h, 140.0), 2 * tick_h}));
    const double map_right = scale_.x() + plan.scale_w - 12;
    const double map_bottom = std::max(grid_.bottom(), scale_.bottom());
    if (beside) {
        const double x = map_right + 32;
        bars_ = QRectF(x, grid_.top(), std::min(area.right() - x, plan.bars_max_w), plan.bars_h);
    } else {
        bars_ =
            QRectF(area.x(), map_bottom + 16, std::min(area.width(), plan.bars_max_w), plan.bars_h);
    }
    plan.content_right = std::max(map_right, bars_.right());
    plan.content_bottom = std::max(map_bottom, bars_.bottom());
}

void DlaFigure::placeNotes(const LayoutPlan& plan) {
    const QRectF& area = plan.area;
    const double notes_w = std::max(plan.notes_min_w, plan.content_right - area.x());
    sources_ = QRectF(area.x(), plan.content_bottom + 10, notes_w, plan.sources_h);
    notes_text_ = plan.notes ? paint::wrap_text(notesText(), small_, notes_w) : QString();
    notes_ = QRectF(area.x(), sources_.bottom() + 2, notes_w,
                    plan.notes ? text_height(small_, notes_text_) + 4 : 0.0);
    used_height_ = int(std::ceil(notes_.bottom() + kDlaPad));
}

QRectF DlaFigure::cellRect(int layer, int column) const {
    if (!result_ || cell_ <= 0 || layer < 0 || layer >= result_->num_layers) return {};
    const QRectF row(0, grid_.y() + layer * cell_, 0, cell_);
    if (column >= 0 && column < result_->num_heads)
        return QRectF(grid_.x() + column * cell_, row.y(), cell_, cell_);
    const bool bias = result_->hasBias(), mlp = result_->hasMlp();
    if (column == kBiasColumn && bias) return QRectF(strip_.x(), row.y(), strip_w_, cell_);
    if (column == kMlpColumn && mlp)
        return QRectF(strip_.x() + (bias ? strip_w_ : 0.0), row.y(), strip_w_, cell_);
    return {};
}

QPoint DlaFigure::cellAt(const QPointF& pos) const {
    if (!result_ || cell_ <= 0) return {-1, -1};
    const int l = int((pos.y() - grid_.y()) / cell_);
    if (pos.y() < grid_.y() || l < 0 || l >= result_->num_layers) return {-1, -1};
    if (grid_.contains(pos))
        return {std::min(result_->num_heads - 1, int((pos.x() - grid_.x()) / cell_)), l};
    for (const int column : {kBiasColumn, kMlpColumn})
        if (cellRect(l, column).contains(pos)) return {column, l};
    return {-1, -1};
}

QString DlaFigure::describe(int layer, int column) const {
    if (!result_ || !cellRect(layer, column).isValid()) return {};
    const DlaResult& r = *result_;
    const QString total = paint::format_cell(r.attribution.total);
    if (column == kBiasColumn)
        return DlaText::tr("Layer %1 · attention-output bias: %2 of the total %3")
            .arg(layer + 1)
            .arg(paint::format_cell(r.attribution.attention_bias[std::size_t(layer)]), total);
    if (column == kMlpColumn)
        return DlaText::tr("Layer %1 · MLP: %2 of the total %3")
            .arg(layer + 1)
            .arg(paint::format_cell(r.attribution.mlps[std::size_t(layer)]), total);
    const std::optional<KnockOut> knocked = r.knockedOut(layer, column);
    QString text = knocked ? DlaText::tr("Layer %1 · head %2, knocked out (%3): %4 of the total %5")
                                 .arg(layer + 1)
                                 .arg(column + 1)
                                 .arg(knock_out_label(*knocked),
                                      paint::format_cell(r.head(layer, column)), total)
                           : DlaText::tr("Layer %1 · head %2: %3 of the total %4")
                                 .arg(layer + 1)
                                 .arg(column + 1)
                                 .arg(paint::format_cell(r.head(layer, column)), total);
    if (knocked == KnockOut::Zero) return text;  // it writes nothing: no source has a share
    text += QLatin1Char('\n') + DlaText::tr("Its largest source tokens:");
    for (const auto& [t, v] : r.largestSources(layer, column, kDescribedSources))
        text += QStringLiteral("\n%1 %2: %3")
                    .arg(t + 1)
                    .arg(dla_quoted(r.pieces[std::size_t(t)]), paint::format_cell(v));
    return text;
}

void DlaFigure::paint(QPainter* p, bool vector) const {
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    title_.paint(p, options_);
    if (!strip_rect_.isEmpty()) {
        p->save();
        p->translate(strip_rect_.topLeft());
        strip_figure_.paint(p, vector);
        p->restore();
    }
    if (!result_ || cell_ <= 0) return;
    paintGrid(p);
    paintScale(p);
    paintBars(p);
    const QColor muted = options_.high_contrast ? QColor(Qt::black) : paint::kMuted;
    p->setFont(small_);
    p->setPen(paint::text_color(options_));
    const QPoint noted = notedHead();
    const QFontMetricsF sm(small_);
    p->drawText(
        sources_, Qt::AlignLeft | Qt::AlignVCenter,
        paint::elide(sourcesText(noted.y(), noted.x(), kNotedSources), sm, sources_.width()));
    p->setPen(muted);
    p->drawText(notes_, Qt::AlignLeft | Qt::AlignTop, notes_text_);
}

void DlaFigure::paintGrid(QPainter* p) const {
    const DlaResult& r = *result_;
    const QFontMetricsF fm(font_), sm(small_);
    const QColor text = paint::text_color(options_);
    p->setFont(font_);
    p->setPen(text);
    const int head_every = label_stride(cell_, fm.horizontalAdvance(QStringLiteral("88")) + 4);
    const bool words = cell_ >= fm.horizontalAdvance(DlaText::tr("H%1").arg(88)) + 4;
    const double label_y = grid_.y() - fm.height() - 4;
    // Centred on its column in a box as wide as the stride, never clipped to a thin column.
    const double label_w = head_every * cell_;
    for (int h = 0; h < r.num_heads; h += head_every)
        p->drawText(
            QRectF(grid_.x() + (h + 0.5) * cell_ - label_w / 2, label_y, label_w, fm.height()),
            Qt::AlignHCenter | Qt::AlignBottom,
            words ? DlaText::tr("H%1").arg(h + 1) : QString::number(h + 1));
    for (const auto& [column, label] :
         {std::pair{kBiasColumn, DlaText::tr("Bias")}, std::pair{kMlpColumn, DlaText::tr("MLP")}}) {
        const QRectF c = cellRect(0, column);
        if (c.isValid())
            p->drawText(QRectF(c.x(), label_y, c.width(), fm.height()),
                        Qt::AlignHCenter | Qt::AlignBottom, label);
    }
    // Measured as drawn (Chinese in the taller CJK family); a row may be thinner than a line,
    // so each label is centred on its row in a box of its own height, never clipped to the row.
    const double layer_h = line_height(font_, DlaText::tr("Layer %1").arg(88));
    const int layer_every = label_stride(cell_, layer_h);
    for (int l = 0; l < r.num_layers; l += layer_every)
        p->drawText(QRectF(0, grid_.y() + (l + 0.5) * cell_ - layer_h / 2, grid_.x() - 8, layer_h),
                    Qt::AlignRight | Qt::AlignVCenter, DlaText::tr("Layer %1").arg(l + 1));

    const double limit = r.scaleLimit();
    double widest = 0.0;
    for (const float v : r.attribution.heads.data)
        widest = std::max(widest, sm.horizontalAdvance(paint::format_cell(double(v))));
    const bool values = cell_ >= widest + 4 && cell_ >= sm.height() + 2;
    p->setFont(small_);
    const auto fill = [&](const QRectF& c, double v, bool value) {
        const QColor colour = paint::signed_color(v, limit);
        p->fillRect(c, colour);
        if (!value) return;
        p->setPen(text_color_on(colour));
        p->drawText(c, Qt::AlignCenter, paint::format_cell(v));
    };
    for (int l = 0; l < r.num_layers; ++l) {
        // A knocked-out head's mark takes its value's place (its tool tip says the value).
        for (int h = 0; h < r.num_heads; ++h)
            fill(cellRect(l, h), r.head(l, h), values && !r.knockedOut(l, h));
        const bool strip_values = cell_ >= sm.height() + 2;
        if (r.hasBias())
            fill(cellRect(l, kBiasColumn), r.attribution.attention_bias[std::size_t(l)],
                 strip_values);
        if (r.hasMlp())
            fill(cellRect(l, kMlpColumn), r.attribution.mlps[std::size_t(l)], strip_values);
    }
    // Thin white lines between cells keep neighbours of one colour apart.
    p->setPen(QPen(Qt::white, 1.0));
    for (int h = 1; h < r.num_heads; ++h)
        p->drawLine(QPointF(grid_.x() + h * cell_, grid_.top()),
                    QPointF(grid_.x() + h * cell_, grid_.bottom()));
    for (int l = 1; l < r.num_layers; ++l) {
        p->drawLine(QPointF(grid_.left(), grid_.y() + l * cell_),
                    QPointF(grid_.right(), grid_.y() + l * cell_));
        if (!strip_.isEmpty())
            p->drawLine(QPointF(strip_.left(), grid_.y() + l * cell_),
                        QPointF(strip_.right(), grid_.y() + l * cell_));
    }
    if (r.hasBias() && r.hasMlp())
        p->drawLine(QPointF(strip_.x() + strip_w_, strip_.top()),
                    QPointF(strip_.x() + strip_w_, strip_.bottom()));
    p->setFont(small_);  // the marks' labels: covered by the fonts chooseFonts picked
    for (const auto& [head, how] : r.knocked_out)
        paint_knocked_out(p, cellRect(head.first, head.second), how);
    const QRectF hovered = cellRect(hover_.y(), hover_.x());
    if (hovered.isValid()) {
        p->setBrush(Qt::NoBrush);
        p->setPen(QPen(paint::kHighlight, 2.5));
        p->drawRect(hovered.adjusted(1, 1, -1, -1));
    }
}

void DlaFigure::paintScale(QPainter* p) const {
    const double limit = result_->scaleLimit();
    const QColor muted = options_.high_contrast ? QColor(Qt::black) : paint::kMuted;
    // Quarters where their labels stand apart (a short map in Presentation Mode), else halves.
    const double tick_h = QFontMetricsF(small_).height() + 2;
    const double step = scale_.height() / 4 >= tick_h   ? 0.25
                        : scale_.height() / 2 >= tick_h ? 0.5
                                                        : 1.0;
    std::vector<std::pair<double, QString>> ticks;
    for (double t = 0.0; t <= 1.0 + 1e-9; t += step)
        ticks.emplace_back(t, paint::format_cell((2 * t - 1) * limit));
    p->setPen(muted);
    paint::color_bar(
        p, scale_, [limit](double t) { return paint::signed_color((2 * t - 1) * limit, limit); },
        ticks, small_, muted);
}

void DlaFigure::paintBars(QPainter* p) const {
    const std::vector<Bar> parts = bars();
    double lo = 0.0, hi = 0.0;
    for (const Bar& b : parts) {
        lo = std::min(lo, b.value);
        hi = std::max(hi, b.value);
    }
    if (hi - lo <= 0.0) hi = lo + 1.0;
    const double track_x = bars_.x() + bar_label_w_ + 8;
    const double track_w = bars_.width() - bar_label_w_ - 16 - bar_value_w_;
    const auto x_of = [&](double v) { return track_x + (v - lo) / (hi - lo) * track_w; };
    const QColor text = paint::text_color(options_);
    const QColor muted = options_.high_contrast ? QColor(Qt::black) : paint::kMuted;
    double y = bars_.y();
    for (const Bar& b : parts) {
        if (b.total) {  // a rule above the total: the rows above add up to it
            p->setPen(QPen(muted, 1.0));
            p->drawLine(QPointF(bars_.x(), y + 3), QPointF(bars_.right(), y + 3));
            y += 6;
        }
        const QRectF row(bars_.x(), y, bars_.width(), bar_row_);
        p->setFont(b.total ? bold_ : font_);
        p->setPen(text);
        p->drawText(QRectF(row.x(), row.y(), bar_label_w_, row.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, b.label);
        const double x0 = x_of(0.0), x1 = x_of(b.value);
        const QRectF bar(std::min(x0, x1), row.y() + 4, std::max(1.0, std::abs(x1 - x0)),
                         row.height() - 8);
        p->fillRect(bar, paint::sign_bar_color(b.value));
        if (b.total) {
            p->setPen(QPen(text, 1.0));
            p->setBrush(Qt::NoBrush);
            p->drawRect(bar);
        }
        p->setPen(text);
        p->drawText(QRectF(track_x + track_w + 8, row.y(), bar_value_w_, row.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, paint::format_cell(b.value));
        y += bar_row_;
    }
    // Zero, across every row.
    p->setPen(QPen(muted, 1.0));
    p->drawLine(QPointF(x_of(0.0), bars_.y()), QPointF(x_of(0.0), y));
    p->setFont(small_);
    p->setPen(text);
    const DlaResult& r = *result_;
    const double sum =
        r.attribution.embeddings + r.headSum() + r.biasSum() + r.mlpSum() + r.attribution.constant;
    // The engine's parts add up to its total; said with both numbers should they ever not.
    const QString said =
        std::abs(sum - r.attribution.total) <= 1e-3
            ? DlaText::tr("Σ parts = total %1").arg(paint::format_cell(r.attribution.total))
            : DlaText::tr("Σ parts %1 ≠ total %2")
                  .arg(paint::format_cell(sum), paint::format_cell(r.attribution.total));
    p->drawText(QRectF(track_x, y + 2, bars_.right() - track_x, bars_.bottom() - y - 2),
                Qt::AlignLeft | Qt::AlignVCenter, said);
}

}  // namespace attnviz::ui
