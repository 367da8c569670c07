#include "ui/model/patch_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/io/npy.h"
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
constexpr double kPad = 16.0;

QString quoted(const QString& token) {
    return PatchText::tr("“%1”").arg(visible_token(token));
}

/// "−4.785": three decimals and a true minus, as the figure's other numbers.
QString signed_number(double v) {
    QString s = QString::number(v, 'f', 3);
    if (s.startsWith(QLatin1Char('-'))) s.replace(0, 1, QStringLiteral("−"));
    return s;
}

QString number(double v) {
    if (std::isnan(v)) return QStringLiteral("nan");
    return QString::number(v, 'g', 7);
}
}  // namespace

double PatchMaps::scaleLimit() const {
    double most = 1.0;
    for (float v : result.fraction.data)
        if (std::isfinite(v)) most = std::max(most, std::abs(double(v)));
    return most;
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
                       .arg(number(double(m.result.fraction.data[at])),
                            number(double(m.result.m_patched.data[at])), number(m.result.m_clean),
                            number(m.result.m_corrupt))
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
    return PatchText::tr("Activation patching: the fraction of the metric each head restores");
}

QString PatchFigure::captionText() const {
    if (!maps_) return {};
    const auto L = int(maps_->clean_tokens.size());
    const auto at = std::size_t(std::clamp<std::int64_t>(maps_->result.position, 0, L - 1));
    return PatchText::tr(
               "%1 · clean: “%2” · corrupted: “%3” · metric: logit %4 − logit %5 at "
               "token %6 %7")
        .arg(maps_->model, maps_->clean_text, maps_->corrupt_text, quoted(maps_->target),
             quoted(maps_->distractor))
        .arg(maps_->result.position + 1)
        .arg(L > 0 ? quoted(maps_->clean_tokens[at]) : QString());
}

QString PatchFigure::notesText(bool head_maps) const {
    if (!maps_) return {};
    const PatchMaps& m = *maps_;
    QString progress;
    if (m.stopped)
        progress =
            PatchText::tr("Stopped after %1 of %2 heads; grey: not run.").arg(m.done).arg(m.total);
    else if (m.done < m.total)
        progress = PatchText::tr("%1 of %2 heads run; grey: not run yet.").arg(m.done).arg(m.total);
    else
        progress = PatchText::tr("Every head run (%1).").arg(m.total);
    QString notes =
        PatchText::tr("m = logit %1 − logit %2: clean %3, corrupted %4.")
            .arg(quoted(m.target), quoted(m.distractor))
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
    return notes;
}

void PatchFigure::layout(QSize size) {
    size_ = size;
    const bool head = maps_ && maps_->head.layer >= 0 && !maps_->head.clean.empty();
    const QString notes = notesText(head);
    const QString head_titles = PatchText::tr("Clean text, %1") +
                                PatchText::tr("Corrupted text, %1") +
                                PatchText::tr("layer %1 · head %2");
    // Every text the figure draws, so that the fonts name the family their characters come
    // from (the translations' Chinese as well as the tokens') and measure as they draw.
    QStringList texts{maps_ ? maps_->model : QString(), notes, head_titles,
                      PatchText::tr("Layer %1")};
    if (maps_) {
        for (const QString& t : maps_->clean_tokens)
            texts << t;
        for (const QString& t : maps_->corrupt_tokens)
            texts << t;
        texts << maps_->target << maps_->distractor;
    }
    font_ = figure_font(std::max(6, options_.font_px), texts);
    small_ = figure_font(std::max(6, options_.font_px - 2), texts);
    clean_area_ = corrupt_area_ = map_ = scale_ = notes_ = QRectF();
    notes_text_.clear();
    cell_ = 0.0;
    const double y = title_.layout(options_, titleText(), captionText(), 8, size.width(), kPad);
    used_height_ = int(std::ceil(y));
    used_width_ = -1;
    if (!maps_ || maps_->num_layers <= 0 || maps_->num_heads <= 0) return;
    const QRectF area(kPad, y + 4, size.width() - 2 * kPad, size.height() - y - 4 - kPad);
    const QFontMetricsF fm(font_), sm(small_);
    head_title_h_ = std::max(fm.lineSpacing(), line_height(font_, head_titles));
    // The chosen head's two maps are square and as tall as the room: they take the width that
    // needs (at most 60%), the patching map the rest.
    const double label = std::min(90.0, fm.horizontalAdvance(QStringLiteral("MMMMMM")));
    const double map_side = std::max(60.0, area.height() - head_title_h_ - 4 - label);
    const double maps_w = head ? std::min(area.width() * 0.6, 2 * (map_side + label) + 16) : 0.0;
    const double column = head ? area.width() - maps_w - 24 : area.width();
    const double left = fm.horizontalAdvance(PatchText::tr("Layer %1").arg(88)) + 8;
    const double top = fm.height() + 4;
    const double scale_w =
        12 + 14 + 6 + std::max(sm.horizontalAdvance(QStringLiteral("−0.00")), sm.height() * 1.2);
    // The notes are at least this wide, so wrapped here they take at most this height (their
    // lines measured in the fonts they are drawn in: Chinese in the taller CJK family).
    const double notes_min_w = std::min(column, 520.0);
    const double notes_h = text_height(small_, paint::wrap_text(notes, small_, notes_min_w)) + 4;
    const double H = maps_->num_heads, N = maps_->num_layers;
    cell_ = std::min((column - left - scale_w) / H, (area.height() - top - notes_h) / N);
    cell_ = std::clamp(std::floor(cell_), 4.0, 72.0);
    map_ = QRectF(area.x() + left, area.y() + top, cell_ * H, cell_ * N);
    scale_ = QRectF(map_.right() + 12, map_.top(), 14,
                    std::max(map_.height(), std::min(area.height() - top - notes_h, 140.0)));
    const double notes_w = std::max(notes_min_w, map_.right() + scale_w - area.x());
    notes_text_ = paint::wrap_text(notes, small_, notes_w);
    notes_ = QRectF(area.x(), std::max(map_.bottom(), scale_.bottom()) + 8, notes_w,
                    text_height(small_, notes_text_) + 4);
    double bottom = notes_.bottom();
    if (head) {
        const double x = area.x() + std::max(column, notes_.width()) + 24;
        const double w = (area.right() - x - 16) / 2;
        if (w > 60) {
            clean_area_ = QRectF(x, area.y(), w, area.height());
            corrupt_area_ = QRectF(x + w + 16, area.y(), w, area.height());
            const double side = std::min(w - label, map_side);
            bottom = std::max(bottom, area.y() + head_title_h_ + 4 + side + label);
        } else {  // no room for the head's maps: no note about them
            notes_text_ = paint::wrap_text(notesText(false), small_, notes_w);
            notes_.setHeight(text_height(small_, notes_text_) + 4);
            bottom = std::max(bottom, notes_.bottom());
        }
    }
    used_height_ = int(std::ceil(bottom + kPad));
    // The map alone need not fill a wide canvas; the title's line still must fit.
    const double title_w =
        QFontMetricsF(figure_font(std::max(6, options_.font_px) + 5, {titleText()}, true))
            .horizontalAdvance(titleText());
    const double content = clean_area_.isEmpty() ? std::max(notes_.right(), scale_.right() + 50)
                                                 : corrupt_area_.right();
    used_width_ = int(std::ceil(std::max({content + kPad, title_w + 2 * kPad + 8, 480.0})));
}

QRectF PatchFigure::cellRect(int layer, int head) const {
    if (!maps_ || layer < 0 || head < 0 || layer >= maps_->num_layers || head >= maps_->num_heads ||
        cell_ <= 0)
        return {};
    return QRectF(map_.x() + head * cell_, map_.y() + layer * cell_, cell_, cell_);
}

QPoint PatchFigure::headAt(const QPointF& pos) const {
    if (!maps_ || cell_ <= 0 || !map_.contains(pos)) return {-1, -1};
    const int h = std::min(maps_->num_heads - 1, int((pos.x() - map_.x()) / cell_));
    const int l = std::min(maps_->num_layers - 1, int((pos.y() - map_.y()) / cell_));
    return {h, l};
}

QString PatchFigure::describe(int layer, int head) const {
    if (!maps_ || !cellRect(layer, head).isValid()) return {};
    const QString name = PatchText::tr("Layer %1 · head %2").arg(layer + 1).arg(head + 1);
    const double f = maps_->fraction(layer, head);
    const double m =
        maps_->result.m_patched
            .data[std::size_t(layer) * std::size_t(maps_->num_heads) + std::size_t(head)];
    if (std::isnan(m)) return PatchText::tr("%1: not run yet").arg(name);
    if (std::isnan(f))
        return PatchText::tr("%1: m = %2 (the metric is the same on both texts, so no fraction)")
            .arg(name, signed_number(m));
    return PatchText::tr("%1: restores %2 of the metric (m = %3); click to see its attention")
        .arg(name, paint::format_cell(f), signed_number(m));
}

void PatchFigure::paint(QPainter* p, bool vector) const {
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    title_.paint(p, options_);
    if (!maps_ || cell_ <= 0) return;
    paintMap(p);
    paintScale(p);
    const PatchHeadMaps& h = maps_->head;
    if (!clean_area_.isEmpty()) {
        float most = 0.0f;
        for (const Tensor* t : {&h.clean, &h.corrupt})
            for (float v : t->data)
                if (std::isfinite(v)) most = std::max(most, v);
        const QString head = PatchText::tr("layer %1 · head %2").arg(h.layer + 1).arg(h.head + 1);
        paintHeadMap(p, clean_area_, h.clean, maps_->clean_tokens,
                     PatchText::tr("Clean text, %1").arg(head), double(most), vector);
        paintHeadMap(p, corrupt_area_, h.corrupt, maps_->corrupt_tokens,
                     PatchText::tr("Corrupted text, %1").arg(head), double(most), vector);
    }
}

void PatchFigure::paintMap(QPainter* p) const {
    const PatchMaps& m = *maps_;
    const QFontMetricsF fm(font_);
    const QColor text = options_.high_contrast ? QColor(Qt::black) : paint::kText;
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
            const double f = m.fraction(l, h);
            const QColor c = std::isnan(f) ? kNotRun : paint::signed_color(f, limit);
            p->fillRect(r, c);
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

void PatchFigure::paintHeadMap(QPainter* p, const QRectF& area, const Tensor& map,
                               const std::vector<QString>& tokens, const QString& title, double max,
                               bool vector) const {
    const auto L = int(tokens.size());
    if (L <= 0 || map.numel() != std::size_t(L) * std::size_t(L)) return;
    const QFontMetricsF fm(font_), sm(small_);
    p->setFont(font_);
    p->setPen(options_.high_contrast ? QColor(Qt::black) : paint::kText);
    p->drawText(QRectF(area.x(), area.y(), area.width(), head_title_h_),
                Qt::AlignLeft | Qt::AlignVCenter, paint::elide(title, fm, area.width()));
    double widest = 0;
    QString labels;  // run together, measured as drawn: Chinese in the taller CJK family
    for (const QString& t : tokens) {
        widest = std::max(widest, sm.horizontalAdvance(visible_token(t)));
        labels += visible_token(t);
    }
    const double label = std::min(widest + 6, std::min(90.0, area.width() * 0.3));
    const double side = std::min(area.width() - label, area.height() - head_title_h_ - label);
    if (side < 8) return;
    const double c = side / L;
    const QRectF cells(area.x() + label, area.y() + head_title_h_ + 4, c * L, c * L);
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
        p->translate(cells.x() + (i + 0.5) * c, cells.bottom() + 3);
        p->rotate(90);
        p->drawText(QRectF(0, -sm.height() / 2, label - 4, sm.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, t);
        p->restore();
    }
}

}  // namespace attnviz::ui
