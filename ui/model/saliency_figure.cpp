#include "ui/model/saliency_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/model/dla_figure.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
struct SaliencyText {
    Q_DECLARE_TR_FUNCTIONS(SaliencyFigure)
};

constexpr double kSaliencyPad = 16.0;
/// The tokens whose value is written under their box.
constexpr int kLabelled = 3;
/// The longest text the caption quotes whole.
constexpr int kSaliencyCaptionChars = 80;
constexpr double kScaleWidth = 140.0;

QString saliency_quoted(const QString& token) {
    return SaliencyText::tr("“%1”").arg(visible_token(token));
}

QString method_text(const SaliencyResult& r) {
    return r.integrated()
               ? SaliencyText::tr("integrated gradients, %n steps", nullptr, int(r.saliency.steps))
               : SaliencyText::tr("gradient × input");
}

QString metric_text(const SaliencyResult& r) {
    return r.distractor.isEmpty()
               ? SaliencyText::tr("logit %1").arg(saliency_quoted(r.target))
               : SaliencyText::tr("logit %1 − logit %2")
                     .arg(saliency_quoted(r.target), saliency_quoted(r.distractor));
}
}  // namespace

double SaliencyResult::scaleLimit() const {
    double most = 0.0;
    for (const double v : saliency.tokens)
        if (std::isfinite(v)) most = std::max(most, std::abs(v));
    return most > 0.0 ? most : 1.0;
}

std::vector<int> SaliencyResult::strongest(int count) const {
    std::vector<int> order(saliency.tokens.size());
    std::iota(order.begin(), order.end(), 0);
    const auto n = std::min<std::size_t>(std::size_t(std::max(0, count)), order.size());
    std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(n), order.end(),
                      [this](int a, int b) {
                          return std::abs(saliency.tokens[std::size_t(a)]) >
                                 std::abs(saliency.tokens[std::size_t(b)]);
                      });
    order.resize(n);
    return order;
}

double SaliencyResult::sum() const {
    return std::accumulate(saliency.tokens.begin(), saliency.tokens.end(), 0.0);
}

SaliencyResult compute_saliency(const models::OpenedModel& m, const models::EncodedText& text,
                                const QString& text_shown, const models::LogitTarget& what,
                                std::int64_t steps,
                                const std::map<ModelHead, KnockOut>& knocked_out, int num_threads,
                                const PassControl& control) {
    // The metric of the logit attribution's total, as `attnviz attribute --saliency` reads it.
    models::GradientMetric metric;
    metric.kind = what.distractor ? models::GradientMetric::Kind::LogitDifference
                                  : models::GradientMetric::Kind::Logit;
    metric.position = what.position;
    metric.target = what.target;
    metric.distractor = what.distractor.value_or(0);
    models::GradientOptions options;
    options.num_threads = num_threads;
    options.control = control;
    options.head_gradients = false;
    ComputeConfig knocked;  // as the window's passes knock them out
    knocked.knocked_out = knocked_out;
    options.interventions = model_knock_outs(knocked, m.model->info());
    SaliencyResult out;
    out.knocked_out = knocked_out;
    out.saliency = models::saliency(*m.model, text.input, metric, steps, options);
    out.saliency.gradients = Tensor();
    out.saliency.embedding_gradients = Tensor();
    out.model = model_display_name(m);
    out.text = text_shown;
    out.what = what;
    out.rotary = m.model->config().rotary();
    const auto L = text.input.ids.size();
    for (std::size_t t = 0; t < L; ++t)
        out.pieces.push_back(
            t < text.encoding.text.size()
                ? QString::fromStdString(text.encoding.text[t])
                : QString::fromStdString(m.tokenizer.id_to_token(text.input.ids[t])));
    out.target = QString::fromStdString(m.tokenizer.id_to_token(what.target));
    if (what.distractor)
        out.distractor = QString::fromStdString(m.tokenizer.id_to_token(*what.distractor));
    return out;
}

std::map<ModelHead, KnockOut> knocked_heads(
    const std::vector<models::HeadIntervention>& interventions) {
    std::map<ModelHead, KnockOut> out;
    for (const models::HeadIntervention& h : interventions)
        out[{int(h.head.layer), int(h.head.head)}] =
            h.kind == models::HeadIntervention::Kind::Mean ? KnockOut::Mean : KnockOut::Zero;
    return out;
}

RenderedFigure render_saliency_figure(const SaliencyResult& result, const FigureOptions& options,
                                      const ExportSize& size, const QString& path) {
    SaliencyFigure figure;
    figure.setResult(&result);
    figure.setOptions(options);
    return render_painted_figure(figure, size, path);
}

QByteArray saliency_csv(const SaliencyResult& r) {
    const models::Saliency& s = r.saliency;
    const auto number = [](double v) { return QByteArray::number(v, 'g', 12); };
    QByteArray out = "# metric," + number(s.metric) + '\n';
    out += "# method," + QByteArray(r.integrated() ? "ig" : "grad-input") + '\n';
    out += "# steps," + QByteArray::number(s.steps) + '\n';
    if (r.integrated()) {
        out += "# baseline," + number(s.baseline) + '\n';
        out += "# delta," + number(s.delta()) + '\n';
    }
    out += "position,token,value\n";
    for (std::size_t t = 0; t < s.tokens.size(); ++t) {
        // The token quoted as CSV quotes it: commas, quotes and line breaks stay in their field.
        QByteArray token = r.pieces[t].toUtf8();
        token.replace('"', "\"\"");
        out += QByteArray::number(qulonglong(t + 1)) + ",\"" + token + "\"," + number(s.tokens[t]) +
               '\n';
    }
    return out;
}

QString saliency_sum_text(const SaliencyResult& r) {
    const models::Saliency& s = r.saliency;
    if (!r.integrated())
        return SaliencyText::tr("Σ = %1 (the total is %2: gradient × input need not add up to it)")
            .arg(paint::format_cell(r.sum()), paint::format_cell(s.metric));
    const double span = s.metric - s.baseline;
    const double gap = span != 0.0 ? 100.0 * std::abs(s.delta()) / std::abs(span) : 0.0;
    return SaliencyText::tr("Σ = %1 of total − baseline = %2 (gap %3%)")
        .arg(paint::format_cell(r.sum()), paint::format_cell(span),
             QString::number(gap, 'f', gap < 10 ? 1 : 0));
}

QString saliency_gap_text(const SaliencyResult& r) {
    if (!r.integrated()) return {};
    if (r.rotary)
        return SaliencyText::tr(
            "This model has rotary positions, so the baseline is the all-zero input, where every "
            "RMSNorm rescales its input: the metric changes over many orders of magnitude near "
            "it, and no step count resolves that. A large gap here is expected, not an error.");
    return SaliencyText::tr(
        "Integrated gradients add up to the total minus the baseline (the token embeddings "
        "zeroed, the positions kept) up to the error of the %n-step rule; more steps close the "
        "gap.",
        nullptr, int(r.saliency.steps));
}

QString SaliencyFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (!result_) return SaliencyText::tr("Saliency of the input tokens");
    return SaliencyText::tr("Saliency of %1 at %2 %3: %4")
        .arg(metric_text(*result_))
        .arg(result_->what.position + 1)
        .arg(saliency_quoted(result_->pieces[std::size_t(result_->what.position)]),
             method_text(*result_));
}

QString SaliencyFigure::captionText() const {
    if (!result_) return {};
    const QString knocked = result_->knocked_out.empty()
                                ? QString()
                                : SaliencyText::tr("Of the model with heads knocked out: %1")
                                      .arg(knocked_out_text(result_->knocked_out));
    if (compact_) return knocked;
    QString text = result_->text;
    if (text.size() > kSaliencyCaptionChars)
        text = text.left(kSaliencyCaptionChars - 1) + QStringLiteral("…");
    const QString caption = SaliencyText::tr("%1 · “%2”").arg(result_->model, text);
    return knocked.isEmpty() ? caption : caption + QStringLiteral(" · ") + knocked;
}

QString SaliencyFigure::notesText() const {
    if (!result_ || compact_) return {};
    QString notes = SaliencyText::tr(
        "Each box is one input token's share of the prediction, read from the gradient with "
        "respect to its token embedding: red raises it, blue lowers it.");
    if (const QString gap = saliency_gap_text(*result_); !gap.isEmpty())
        notes += (notes.endsWith(QChar(0x3002)) ? QString() : QStringLiteral(" ")) + gap;  // 。
    return notes;
}

void SaliencyFigure::layout(QSize size) {
    size_ = size;
    boxes_.clear();
    labelled_.clear();
    heading_ = caption_ = scale_ = sum_ = notes_ = QRectF();
    notes_text_.clear();
    caption_text_.clear();
    QStringList texts{titleText(), captionText(), notesText()};
    if (result_) {
        for (const QString& t : result_->pieces)
            texts << visible_token(t);
        texts << saliency_sum_text(*result_);
    }
    const int fpx = std::max(6, options_.font_px);
    font_ = figure_font(fpx, texts);
    small_ = figure_font(std::max(6, fpx - 2), texts);
    bold_ = figure_font(fpx, texts, true);
    const QFontMetricsF fm(font_), sm(small_);
    double y = kSaliencyPad / 2;
    if (compact_) {
        const double h = line_height(bold_, titleText());
        heading_ = QRectF(kSaliencyPad, y, size.width() - 2 * kSaliencyPad, h);
        y = heading_.bottom() + 6;
        if (const QString caption = captionText(); !caption.isEmpty()) {
            caption_text_ = paint::wrap_text(caption, small_, heading_.width());
            caption_ = QRectF(kSaliencyPad, heading_.bottom() + 2, heading_.width(),
                              text_height(small_, caption_text_));
            y = caption_.bottom() + 6;
        }
    } else {
        const QFont title_font = figure_font(fpx + 5, {titleText()}, true);
        const QString title =
            paint::elide(titleText(), QFontMetricsF(title_font), size.width() - 2 * kSaliencyPad);
        y = title_.layout(options_, title, captionText(), 8, size.width(), kSaliencyPad) + 6;
    }
    used_height_ = int(std::ceil(y));
    used_width_ = -1;
    if (!result_ || result_->pieces.empty()) return;
    const SaliencyResult& r = *result_;
    const double width = std::max(120.0, size.width() - 2 * kSaliencyPad);

    // The boxes flow left to right and wrap; a row is a box and, under it, the values' line.
    QString all;
    for (const QString& t : r.pieces)
        all += visible_token(t);
    const double box_h = line_height(font_, all) + 8;
    label_h_ = line_height(small_, QStringLiteral("−0.00")) + 2;
    const double row_h = box_h + label_h_ + 4;
    double x = kSaliencyPad, right = kSaliencyPad;
    for (const QString& t : r.pieces) {
        const double w =
            std::min(width, std::max(22.0, fm.horizontalAdvance(visible_token(t)) + 10));
        if (x > kSaliencyPad && x + w > kSaliencyPad + width) {
            x = kSaliencyPad;
            y += row_h;
        }
        boxes_.emplace_back(x, y, w, box_h);
        x += w + 2;
        right = std::max(right, x);
    }
    y += row_h;
    // The strongest few get their value under them, unless it would collide with another's.
    std::vector<QRectF> placed;
    for (const int t : r.strongest(kLabelled)) {
        const QRectF label = [&] {
            const QRectF& b = boxes_[std::size_t(t)];
            const double w =
                sm.horizontalAdvance(paint::format_cell(r.saliency.tokens[std::size_t(t)])) + 4;
            const double cx =
                std::clamp(b.center().x(), kSaliencyPad + w / 2, kSaliencyPad + width - w / 2);
            return QRectF(cx - w / 2, b.bottom() + 1, w, label_h_);
        }();
        if (std::none_of(placed.begin(), placed.end(),
                         [&](const QRectF& p) { return p.intersects(label); })) {
            placed.push_back(label);
            labelled_.emplace_back(t, label);
        }
    }

    // The colour scale, and the sum beside it (under it when the line is too narrow).
    const QString limit = paint::format_cell(r.scaleLimit());
    const double tick_w = sm.horizontalAdvance(QStringLiteral("−") + limit) + 6;
    const double scale_h = std::max(12.0, line_height(small_, limit));
    scale_ = QRectF(kSaliencyPad + tick_w, y + 4, kScaleWidth, scale_h);
    const QString sum = saliency_sum_text(r);
    const double sum_w = fm.horizontalAdvance(sum) + 4;
    const double sum_h = line_height(font_, sum);
    const double after_scale = scale_.right() + tick_w + 16;
    if (after_scale + sum_w <= kSaliencyPad + width)
        sum_ = QRectF(after_scale, scale_.center().y() - sum_h / 2, sum_w, sum_h);
    else
        sum_ = QRectF(kSaliencyPad, scale_.bottom() + 6, std::min(sum_w, width), sum_h);
    right = std::max({right, scale_.right() + tick_w, sum_.right()});
    y = std::max(scale_.bottom(), sum_.bottom()) + 6;
    if (const QString notes = notesText(); !notes.isEmpty()) {
        const double notes_w = std::max(std::min(width, 560.0), right - kSaliencyPad);
        notes_text_ = paint::wrap_text(notes, small_, notes_w);
        notes_ = QRectF(kSaliencyPad, y + 4, notes_w, text_height(small_, notes_text_) + 4);
        y = notes_.bottom();
        right = std::max(right, notes_.right());
    }
    used_height_ = int(std::ceil(y + kSaliencyPad / 2));
    if (!compact_) {
        const double title_w =
            QFontMetricsF(figure_font(fpx + 5, {titleText()}, true)).horizontalAdvance(titleText());
        used_width_ =
            int(std::ceil(std::max({right + kSaliencyPad, title_w + 2 * kSaliencyPad + 8, 480.0})));
    }
}

QRectF SaliencyFigure::boxRect(int token) const {
    return token >= 0 && token < int(boxes_.size()) ? boxes_[std::size_t(token)] : QRectF();
}

int SaliencyFigure::tokenAt(const QPointF& pos) const {
    for (std::size_t t = 0; t < boxes_.size(); ++t)
        if (boxes_[t].contains(pos)) return int(t);
    return -1;
}

QString SaliencyFigure::describe(int token) const {
    if (!result_ || token < 0 || token >= int(result_->saliency.tokens.size())) return {};
    return SaliencyText::tr("Token %1 %2: %3 of the total %4")
        .arg(token + 1)
        .arg(saliency_quoted(result_->pieces[std::size_t(token)]),
             paint::format_cell(result_->saliency.tokens[std::size_t(token)]),
             paint::format_cell(result_->saliency.metric));
}

void SaliencyFigure::paint(QPainter* p, bool vector) const {
    (void)vector;  // rectangles and text only: the same on every target
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    const QColor text = paint::text_color(options_);
    const QColor muted = options_.high_contrast ? QColor(Qt::black) : paint::kMuted;
    if (compact_) {
        p->setFont(bold_);
        p->setPen(text);
        p->drawText(heading_, Qt::AlignLeft | Qt::AlignVCenter,
                    paint::elide(titleText(), QFontMetricsF(bold_), heading_.width()));
        if (!caption_text_.isEmpty()) {
            p->setFont(small_);
            p->setPen(muted);
            p->drawText(caption_, Qt::AlignLeft | Qt::AlignTop, caption_text_);
        }
    } else {
        title_.paint(p, options_);
    }
    if (!result_ || boxes_.empty()) return;
    const SaliencyResult& r = *result_;
    const double limit = r.scaleLimit();
    const QFontMetricsF fm(font_);
    p->setFont(font_);
    for (std::size_t t = 0; t < boxes_.size(); ++t) {
        const QColor colour = paint::signed_color(r.saliency.tokens[t], limit);
        p->fillRect(boxes_[t], colour);
        p->setPen(QPen(QColor(0xd0, 0xd0, 0xd0), 1.0));
        p->setBrush(Qt::NoBrush);
        p->drawRect(boxes_[t]);
        p->setPen(text_color_on(colour));
        p->drawText(boxes_[t], Qt::AlignCenter,
                    paint::elide(visible_token(r.pieces[t]), fm, boxes_[t].width() - 4));
    }
    // The position in focus is underlined: its prediction is the one explained.
    const QRectF focus = boxRect(int(r.what.position));
    if (focus.isValid()) {
        p->setPen(QPen(text, 2.0));
        p->drawLine(QPointF(focus.left(), focus.bottom() + 1),
                    QPointF(focus.right(), focus.bottom() + 1));
    }
    p->setFont(small_);
    p->setPen(text);
    for (const auto& [t, at] : labelled_)
        p->drawText(at, Qt::AlignCenter, paint::format_cell(r.saliency.tokens[std::size_t(t)]));
    const QRectF hovered = boxRect(hover_);
    if (hovered.isValid()) {
        p->setBrush(Qt::NoBrush);
        p->setPen(QPen(paint::kHighlight, 2.5));
        p->drawRect(hovered.adjusted(1, 1, -1, -1));
    }
    paintScale(p);
    p->setFont(font_);
    p->setPen(text);
    p->drawText(sum_, Qt::AlignLeft | Qt::AlignVCenter, saliency_sum_text(r));
    if (!notes_text_.isEmpty()) {
        p->setFont(small_);
        p->setPen(muted);
        p->drawText(notes_, Qt::AlignLeft | Qt::AlignTop, notes_text_);
    }
}

void SaliencyFigure::paintScale(QPainter* p) const {
    const double limit = result_->scaleLimit();
    const int steps = std::max(2, int(scale_.width()));
    for (int k = 0; k < steps; ++k)
        p->fillRect(QRectF(scale_.x() + k * scale_.width() / steps, scale_.y(),
                           scale_.width() / steps + 0.6, scale_.height()),
                    paint::signed_color((2.0 * (k + 0.5) / steps - 1.0) * limit, limit));
    const QColor muted = options_.high_contrast ? QColor(Qt::black) : paint::kMuted;
    p->setPen(QPen(muted, 1.0));
    p->setBrush(Qt::NoBrush);
    p->drawRect(scale_);
    p->setFont(small_);
    const QFontMetricsF sm(small_);
    const QString hi = paint::format_cell(limit), lo = paint::format_cell(-limit);
    const double lo_w = sm.horizontalAdvance(lo) + 2, hi_w = sm.horizontalAdvance(hi) + 2;
    p->drawText(QRectF(scale_.left() - 4 - lo_w, scale_.y(), lo_w, scale_.height()),
                Qt::AlignRight | Qt::AlignVCenter, lo);
    p->drawText(QRectF(scale_.right() + 4, scale_.y(), hi_w, scale_.height()),
                Qt::AlignLeft | Qt::AlignVCenter, hi);
}

}  // namespace attnviz::ui
