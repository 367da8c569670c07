#include "ui/model/why_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <numeric>

#include "ui/compute/model_store.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
struct WhyText {
    Q_DECLARE_TR_FUNCTIONS(WhyFigure)
};

constexpr double kWhyPad = 16.0;
/// The longest text the caption quotes whole; a longer one is cut with an ellipsis.
constexpr int kWhyCaptionChars = 60;

QString why_quoted(const QString& token) {
    return WhyText::tr("“%1”").arg(visible_token(token));
}

QString why_head_name(const models::HeadRef& h) {
    return WhyText::tr("L%1H%2").arg(h.layer + 1).arg(h.head + 1);
}

}  // namespace

namespace {
/// The pairs' indices by |value|, largest first, as `attnviz qk` sorts them: NaN (a broken
/// weight) first, it is what the reader must see.
std::vector<std::size_t> pair_order(const models::QkAttribution& a) {
    std::vector<std::size_t> order(a.pairs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto magnitude = [&](std::size_t n) {
        return std::isnan(a.pairs[n]) ? INFINITY : std::abs(a.pairs[n]);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return magnitude(x) > magnitude(y); });
    return order;
}
}  // namespace

std::vector<WhyResult::Bar> WhyResult::bars(int top) const {
    const models::QkAttribution& a = attribution;
    const std::size_t B = a.keys.size();
    const std::vector<std::size_t> sorted = order.size() == a.pairs.size() ? order : pair_order(a);
    const std::size_t shown = std::min(sorted.size(), std::size_t(std::max(1, top)));
    std::vector<Bar> out;
    for (std::size_t n = 0; n < shown; ++n)
        out.push_back({sorted[n] / B, sorted[n] % B, a.pairs[sorted[n]], 0});
    if (shown < sorted.size()) {
        Bar rest;
        for (std::size_t n = shown; n < sorted.size(); ++n)
            rest.value += a.pairs[sorted[n]];
        rest.rest_pairs = std::int64_t(sorted.size() - shown);
        out.push_back(rest);
    }
    return out;
}

namespace {
/// The attribution and what the figure says about it: the model, the text, its pieces.
WhyResult why_result(models::QkAttribution attribution, const models::OpenedModel& m,
                     const models::EncodedText& text, const QString& text_shown, double weight) {
    WhyResult out;
    out.attribution = std::move(attribution);
    out.order = pair_order(out.attribution);
    out.model = model_display_name(m);
    out.text = text_shown;
    out.weight = weight;
    const auto L = text.input.ids.size();
    for (std::size_t t = 0; t < L; ++t)
        out.pieces.push_back(
            t < text.encoding.text.size()
                ? QString::fromStdString(text.encoding.text[t])
                : QString::fromStdString(m.tokenizer.id_to_token(text.input.ids[t])));
    return out;
}

models::AttributionOptions attribution_options(int num_threads, const PassControl& control) {
    models::AttributionOptions options;
    options.num_threads = num_threads;
    options.control = control;
    return options;
}
}  // namespace

WhyResult compute_why(const models::OpenedModel& m, const models::EncodedText& text,
                      const QString& text_shown, const WhyRequest& request, double weight,
                      int num_threads, const PassControl& control) {
    return why_result(models::attribute_qk(*m.model, text.input, request.head, request.query,
                                           request.key, attribution_options(num_threads, control)),
                      m, text, text_shown, weight);
}

WhyStream record_why_stream(const models::OpenedModel& m, models::EncodedText text, int num_threads,
                            const PassControl& control) {
    WhyStream out;
    out.record = std::make_shared<const models::StreamRecord>(
        models::record_stream(*m.model, text.input, attribution_options(num_threads, control)));
    out.text = std::move(text);
    return out;
}

std::shared_ptr<const WhyStream> window_why_stream(const ModelPass& pass) {
    const std::shared_ptr<const models::StreamRecord>& record = pass.stream;
    if (!record || !record->interventions.empty() || record->input.ids != pass.encoding.ids)
        return nullptr;
    auto out = std::make_shared<WhyStream>();
    out->text.encoding = pass.encoding;
    out->text.input = record->input;
    out->record = record;
    return out;
}

WhyResult compute_why(const models::OpenedModel& m, const WhyStream& stream,
                      const QString& text_shown, const WhyRequest& request, double weight,
                      int num_threads, const PassControl& control) {
    return why_result(models::attribute_qk(*m.model, *stream.record, request.head, request.query,
                                           request.key, attribution_options(num_threads, control)),
                      m, stream.text, text_shown, weight);
}

QString why_term_name(const models::QkTerm& t) {
    if (t.constant) return WhyText::tr("biases");
    const models::StreamComponent& c = t.component;
    switch (c.kind) {
        case models::StreamComponent::Kind::Embedding:
            return WhyText::tr("embeddings");
        case models::StreamComponent::Kind::Head:
            return why_head_name({c.layer, c.head});
        case models::StreamComponent::Kind::AttentionBias:
            return WhyText::tr("L%1 attention bias").arg(c.layer + 1);
        case models::StreamComponent::Kind::Mlp:
            return WhyText::tr("L%1 MLP").arg(c.layer + 1);
    }
    return {};
}

QString WhyFigure::termAt(const models::QkTerm& term, std::int64_t position, bool key_side) const {
    const QString at = why_quoted(result_->pieces[std::size_t(position)]);
    return key_side ? WhyText::tr("%1 at %2 (key side)").arg(why_term_name(term), at)
                    : WhyText::tr("%1 at %2 (query side)").arg(why_term_name(term), at);
}

QString WhyFigure::barLabel(int k) const {
    if (!result_ || k < 0 || k >= barCount()) return {};
    const WhyResult::Bar& b = bars_[std::size_t(k)];
    const models::QkAttribution& a = result_->attribution;
    if (b.rest_pairs > 0) return WhyText::tr("the other %1 pairs").arg(b.rest_pairs);
    // The key side first: "what the key holds × what the query looks for".
    return WhyText::tr("%1 × %2").arg(termAt(a.keys[b.key], a.key, true),
                                      termAt(a.queries[b.query], a.query, false));
}

QString WhyFigure::barShare(int k) const {
    if (!result_ || k < 0 || k >= barCount()) return {};
    const double score = result_->attribution.score;
    if (!(std::abs(score) > 1e-12)) return {};
    return WhyText::tr("%1%").arg(std::lround(100.0 * bars_[std::size_t(k)].value / score));
}

double WhyFigure::barValue(int k) const {
    return k >= 0 && k < barCount() ? bars_[std::size_t(k)].value : std::nan("");
}

std::optional<models::HeadRef> WhyFigure::barHead(int k) const {
    if (!result_ || k < 0 || k >= barCount() || bars_[std::size_t(k)].rest_pairs > 0)
        return std::nullopt;
    const models::QkAttribution& a = result_->attribution;
    const WhyResult::Bar& b = bars_[std::size_t(k)];
    for (const models::QkTerm* t : {&a.keys[b.key], &a.queries[b.query]})
        if (!t->constant && t->component.kind == models::StreamComponent::Kind::Head)
            return models::HeadRef{t->component.layer, t->component.head};
    return std::nullopt;
}

QString WhyFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (!result_) return WhyText::tr("Why this attention? QK attribution");
    const models::QkAttribution& a = result_->attribution;
    return WhyText::tr("Why does %1 at %2 (token %3) look at %4 (token %5)?")
        .arg(why_head_name(a.head), why_quoted(result_->pieces[std::size_t(a.query)]))
        .arg(a.query + 1)
        .arg(why_quoted(result_->pieces[std::size_t(a.key)]))
        .arg(a.key + 1);
}

QString WhyFigure::captionText() const {
    if (!result_) return {};
    const WhyResult& r = *result_;
    QString text = r.text;
    if (text.size() > kWhyCaptionChars)
        text = text.left(kWhyCaptionChars - 1) + QStringLiteral("…");
    QString caption = WhyText::tr("%1 · “%2” · score %3")
                          .arg(r.model, text, paint::format_cell(r.attribution.score));
    if (!std::isnan(r.weight))
        caption += WhyText::tr(" · weight %1").arg(QString::number(r.weight, 'f', 3));
    return caption;
}

QString WhyFigure::notesText() const {
    if (!result_) return {};
    return WhyText::tr(
               "Each bar is one pair's part of the score (q · k × %1): a part of the residual "
               "stream at the key times a part at the query, the norms frozen at the whole "
               "stream's scale. Red raises the score, blue lowers it; the bars add up to the "
               "score.")
        .arg(QString::number(result_->attribution.scale, 'g', 4));
}

QString WhyFigure::fittedTitle(double room) const {
    const QString full = titleText();
    if (!result_ || !options_.title.isEmpty()) return full;
    // Beside the maps the pane is narrow: shorter forms that still name the head, the query and
    // the key, each measured in the bold (and, for Chinese, CJK) font the title is drawn in.
    const models::QkAttribution& a = result_->attribution;
    const QString query = why_quoted(result_->pieces[std::size_t(a.query)]);
    const QString key = why_quoted(result_->pieces[std::size_t(a.key)]);
    const QStringList forms{full,
                            WhyText::tr("%1: %2 (token %3) → %4 (token %5)")
                                .arg(why_head_name(a.head), query)
                                .arg(a.query + 1)
                                .arg(key)
                                .arg(a.key + 1),
                            WhyText::tr("%1: %2 (%3) → %4 (%5)")
                                .arg(why_head_name(a.head), query)
                                .arg(a.query + 1)
                                .arg(key)
                                .arg(a.key + 1),
                            // Presenting's large type: the tokens without their positions.
                            WhyText::tr("%1: %2 → %3").arg(why_head_name(a.head), query, key)};
    const int fpx = std::max(6, options_.font_px);
    for (const QString& form : forms)
        if (QFontMetricsF(figure_font(fpx + 5, {form}, true)).horizontalAdvance(form) <= room)
            return form;
    return forms.back();
}

double WhyFigure::barLineHeight() const {
    return std::max(QFontMetricsF(font_).height(), 18.0);
}

double WhyFigure::layoutRows(int shown, double top, double width) {
    bars_ = result_->bars(shown);
    labels_.clear();
    label_h_.clear();
    row_h_.clear();
    const QFontMetricsF fm(font_);
    double widest = 0.0;
    value_w_ = 0.0;
    for (int k = 0; k < barCount(); ++k) {
        widest = std::max(widest, fm.horizontalAdvance(barLabel(k)));
        value_w_ = std::max(value_w_, fm.horizontalAdvance(paint::format_cell(barValue(k)) +
                                                           QStringLiteral("  ") + barShare(k)));
    }
    value_w_ += 8;
    // The labels take what the bars leave them and wrap there; a narrow pane gives the track
    // less (a quarter of the width, at least 60 px) so a label keeps to two or three lines.
    const double track_min = std::clamp(width / 4, 60.0, 120.0);
    label_w_ = std::max(80.0, std::min(widest + 2, width - value_w_ - 16 - track_min));
    // Narrower than kStackedChars characters (a pane beside the maps, presenting's large
    // type), a label beside its bar would wrap a word or two a line, or inside a word: it goes
    // above its bar instead, across the whole width.
    stacked_ = widest + 2 > label_w_ && label_w_ < kStackedChars * fm.averageCharWidth();
    if (stacked_) label_w_ = width;
    double h = 0.0;
    for (int k = 0; k < barCount(); ++k) {
        labels_.push_back(paint::wrap_text(barLabel(k), font_, label_w_));
        label_h_.push_back(std::max(text_height(font_, labels_.back()), fm.height()));
        row_h_.push_back(label_h_.back() + (stacked_ ? barLineHeight() + 12 : 10));
        h += row_h_.back();
    }
    rows_ = QRectF(kWhyPad, top, width, h);
    return h;
}

void WhyFigure::layout(QSize size) {
    size_ = size;
    labels_.clear();
    label_h_.clear();
    row_h_.clear();
    stacked_ = false;
    QStringList texts{titleText(), captionText(), notesText()};
    // The fonts cover every label the figure may draw (the rest's says only a number).
    bars_ = result_ ? result_->bars(top_) : std::vector<WhyResult::Bar>{};
    for (int k = 0; k < barCount(); ++k)
        texts << barLabel(k);
    const int fpx = std::max(6, options_.font_px);
    font_ = figure_font(fpx, texts);
    small_ = figure_font(std::max(6, fpx - 2), texts);
    const double title_room = size.width() - 2 * kWhyPad;
    QString title = fittedTitle(title_room);
    const QFontMetricsF title_fm(figure_font(fpx + 5, {title}, true));
    title_elided_ = title_fm.horizontalAdvance(title) > title_room;
    // At worst (a very long token) an ellipsis, never a line drawn past the edge.
    if (title_elided_) title = paint::elide(title, title_fm, title_room);
    const double y = title_.layout(options_, title, captionText(), 8, size.width(), kWhyPad);
    used_height_ = int(std::ceil(y));
    rows_ = notes_ = QRectF();
    notes_text_.clear();
    if (!result_) return;
    const double width = size.width() - 2 * kWhyPad;
    notes_text_ = paint::wrap_text(notesText(), small_, width);
    const double notes_h = text_height(small_, notes_text_) + 4;
    // The pane does not scroll: fewer pairs, the rest summed, until the rows and the notes fit;
    // when even the fewest do not, the notes give way (the exports keep them).
    int shown = top_;
    double h = layoutRows(shown, y + 8, width);
    while (fit_height_ && shown > std::min(top_, kMinFitted) &&
           y + 8 + h + 12 + notes_h + kWhyPad > size.height())
        h = layoutRows(--shown, y + 8, width);
    if (fit_height_ && y + 8 + h + 12 + notes_h + kWhyPad > size.height()) {
        notes_text_.clear();
        used_height_ = int(std::ceil(rows_.bottom() + kWhyPad));
        return;
    }
    notes_ = QRectF(kWhyPad, rows_.bottom() + 12, width, notes_h);
    used_height_ = int(std::ceil(notes_.bottom() + kWhyPad));
}

QRectF WhyFigure::barRect(int k) const {
    if (k < 0 || k >= int(row_h_.size())) return {};
    double y = rows_.y();
    for (int j = 0; j < k; ++j)
        y += row_h_[std::size_t(j)];
    return QRectF(rows_.x(), y, rows_.width(), row_h_[std::size_t(k)]);
}

int WhyFigure::barAt(const QPointF& pos) const {
    for (int k = 0; k < int(row_h_.size()); ++k)
        if (barRect(k).contains(pos)) return k;
    return -1;
}

void WhyFigure::paint(QPainter* p, bool vector) const {
    (void)vector;  // rectangles and text only: the same on every target
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    title_.paint(p, options_);
    if (!result_ || bars_.empty()) return;
    const QColor text = paint::text_color(options_);
    const QColor muted = options_.high_contrast ? QColor(Qt::black) : paint::kMuted;
    double lo = 0.0, hi = 0.0;
    for (const WhyResult::Bar& b : bars_)
        if (std::isfinite(b.value)) {
            lo = std::min(lo, b.value);
            hi = std::max(hi, b.value);
        }
    if (hi - lo <= 0.0) hi = lo + 1.0;
    // Beside the labels, or (stacked) under each label across the width.
    const double track_x = stacked_ ? rows_.x() : rows_.x() + label_w_ + 8;
    const double track_w = std::max(
        20.0, stacked_ ? rows_.width() - value_w_ - 8 : rows_.width() - label_w_ - 16 - value_w_);
    const auto x_of = [&](double v) { return track_x + (v - lo) / (hi - lo) * track_w; };
    p->setFont(font_);
    for (int k = 0; k < barCount(); ++k) {
        const QRectF row = barRect(k);
        const WhyResult::Bar& b = bars_[std::size_t(k)];
        if (k == hover_) p->fillRect(row, QColor(0xf2, 0xf2, 0xf2));
        p->setPen(b.rest_pairs > 0 ? muted : text);
        const double label_h = label_h_[std::size_t(k)];
        p->drawText(QRectF(row.x(), row.y() + 5, label_w_, stacked_ ? label_h : row.height() - 10),
                    Qt::AlignLeft | Qt::AlignVCenter, labels_[std::size_t(k)]);
        // The line the bar and its value are drawn on.
        const QRectF line =
            stacked_ ? QRectF(row.x(), row.y() + 5 + label_h, row.width(), barLineHeight()) : row;
        const double x0 = x_of(0.0), x1 = x_of(std::isfinite(b.value) ? b.value : 0.0);
        const QRectF bar(std::min(x0, x1), line.center().y() - 8, std::max(1.0, std::abs(x1 - x0)),
                         16);
        const QColor c =
            b.rest_pairs > 0 ? QColor(0xbb, 0xbb, 0xbb) : paint::sign_bar_color(b.value);
        p->fillRect(bar, c);
        if (barHead(k)) {  // a head's bar can be clicked: framed like the maps' links
            p->setPen(QPen(text, 1.0));
            p->setBrush(Qt::NoBrush);
            p->drawRect(bar);
        }
        p->setPen(text);
        p->drawText(QRectF(track_x + track_w + 8, line.y(), value_w_, line.height()),
                    Qt::AlignLeft | Qt::AlignVCenter,
                    paint::format_cell(b.value) + QStringLiteral("  ") + barShare(k));
        if (stacked_) {  // the zero line through the bars only, never across a label
            p->setPen(QPen(muted, 1.0));
            p->drawLine(QPointF(x0, line.top()), QPointF(x0, line.bottom()));
        }
    }
    p->setPen(QPen(muted, 1.0));
    if (!stacked_) p->drawLine(QPointF(x_of(0.0), rows_.top()), QPointF(x_of(0.0), rows_.bottom()));
    p->setFont(small_);
    p->setPen(muted);
    p->drawText(notes_, Qt::AlignLeft | Qt::AlignTop, notes_text_);
}

}  // namespace attnviz::ui
