#include "ui/classroom/classroom_figure.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace paint {

QColor signed_color(double v, double max_abs) {
    // ColorBrewer RdBu (7 classes), blue for negative.
    static const QColor stops[] = {QColor(0x21, 0x66, 0xac), QColor(0x67, 0xa9, 0xcf),
                                   QColor(0xd1, 0xe5, 0xf0), QColor(0xf7, 0xf7, 0xf7),
                                   QColor(0xfd, 0xdb, 0xc7), QColor(0xef, 0x8a, 0x62),
                                   QColor(0xb2, 0x18, 0x2b)};
    const double t = std::clamp(max_abs > 0 ? (v / max_abs + 1.0) / 2.0 : 0.5, 0.0, 1.0) * 6.0;
    const int k = std::min(5, int(t));
    const double f = t - k;
    const QColor& a = stops[k];
    const QColor& b = stops[k + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                            float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QColor head_color(int head) {
    // Okabe-Ito without black and yellow (too faint as a thin line on white), then Paul
    // Tol's muted scheme.
    static const QColor colors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00),
                                    QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                    QColor(0x56, 0xb4, 0xe9), QColor(0xe6, 0x9f, 0x00),
                                    QColor(0x88, 0x22, 0x55), QColor(0x44, 0xaa, 0x99),
                                    QColor(0x33, 0x22, 0x88), QColor(0x99, 0x99, 0x33)};
    return colors[std::size_t(std::max(0, head)) % std::size(colors)];
}

QString format_cell(double v) {
    if (std::isnan(v)) return QStringLiteral("NaN");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("+∞") : QStringLiteral("−∞");
    if (v != 0.0 && std::abs(v) < 0.005) return QStringLiteral("<.01");
    QString s = QString::number(v, 'f', std::abs(v) >= 10 ? 1 : 2);
    if (s.startsWith(QLatin1Char('-'))) s.replace(0, 1, QStringLiteral("−"));
    return s;
}

QString wrap_text(const QString& text, const QFont& font, double width) {
    const QFontMetricsF fm(font);
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        // Words, or single characters for scripts written without spaces (Chinese).
        const QStringList words = paragraph.split(QLatin1Char(' '));
        for (const QString& word : words) {
            const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && fm.horizontalAdvance(candidate) > width) {
                lines << line;
                line = word;
            } else {
                line = candidate;
            }
            while (fm.horizontalAdvance(line) > width && line.size() > 1) {
                // The longest head that fits (at least one character): a head's advance
                // grows with its length, so halving finds it in log(n) measures, not n (a
                // caption of 200 Chinese characters was shaped 200 times a line).
                int cut = 1;
                for (int hi = int(line.size()) - 1; cut < hi;) {
                    const int mid = cut + (hi - cut + 1) / 2;
                    if (fm.horizontalAdvance(line.left(mid)) > width)
                        hi = mid - 1;
                    else
                        cut = mid;
                }
                // Closing punctuation never starts a line (a lone "）"): it takes the
                // character before it along.  When that character is the line's first, as in
                // "积），" on a line of two characters, the marks hang past the line's end
                // instead (CJK typesetting's burasage).
                const auto closing = [&](int at) {
                    return at < int(line.size()) &&
                           QStringLiteral("）)」』”’，。、：；！？》】").contains(line[at]);
                };
                int back = cut;
                while (back > 1 && closing(back))
                    --back;
                if (!closing(back))
                    cut = back;
                else
                    while (closing(cut))
                        ++cut;
                if (cut >= int(line.size())) break;  // one character and its marks: the line
                lines << line.left(cut);
                line = line.mid(cut);
            }
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

double TitleBlock::layout(const FigureOptions& o, const QString& title_in,
                          const QString& caption_in, double top, double width, double pad) {
    title = caption = QRectF();
    title_text = title_in;
    caption_text.clear();
    if (!o.show_title) return top;
    const int fpx = std::max(6, o.font_px);
    // Fonts that cover the texts (Chinese in its CJK family, as paint() draws them), and the
    // title measured in the family that draws it: a Chinese title is taller than a Latin line.
    const QFont caption_font = figure_font(std::max(6, fpx - 1), {caption_in});
    double y = top;
    // A title wider than the figure (a model's name at a presenter's type) wraps as the
    // caption does, rather than losing both its ends.
    const QFont title_font = figure_font(fpx + 5, {title_in}, true);
    title_text = wrap_text(title_in, title_font, width - 2 * pad);
    const double th = title_text == title_in ? line_height(title_font, title_in)
                                             : text_height(title_font, title_text);
    title = QRectF(pad, y, width - 2 * pad, th);
    y += th + 2;
    caption_text = wrap_text(caption_in, caption_font, width - 2 * pad);
    // No caption, no empty line for it.
    // Measured as drawn: a line with Chinese in it is taller (the fallback font's line
    // height), and a caption measured in lines of the Latin font would be clipped.
    const QFontMetricsF cfm(caption_font);
    const double ch = caption_in.isEmpty()
                          ? 0.0
                          : std::max(cfm.height() * (caption_text.count(QLatin1Char('\n')) + 1),
                                     cfm.boundingRect(QRectF(0, 0, width - 2 * pad, 1e6),
                                                      Qt::AlignHCenter | Qt::AlignTop, caption_text)
                                         .height());
    caption = QRectF(pad, y, width - 2 * pad, ch);
    return y + ch + 8;
}

void TitleBlock::paint(QPainter* p, const FigureOptions& o) const {
    if (!o.show_title) return;
    const int fpx = std::max(6, o.font_px);
    p->setPen(o.high_contrast ? QColor(Qt::black) : kText);
    p->setFont(figure_font(fpx + 5, {title_text}, true));
    p->drawText(title, Qt::AlignHCenter | Qt::AlignVCenter, title_text);
    p->setPen(o.high_contrast ? QColor(Qt::black) : kMuted);
    p->setFont(figure_font(std::max(6, fpx - 1), {caption_text}));
    p->drawText(caption, Qt::AlignHCenter | Qt::AlignTop, caption_text);
}

void hatch(QPainter* p, const QRectF& r, const QColor& color, double spacing) {
    p->save();
    p->setPen(QPen(color, 1.0));
    p->setClipRect(r, Qt::IntersectClip);
    const double t0 = std::ceil((r.left() + r.top()) / spacing) * spacing;
    for (double t = t0; t < r.right() + r.bottom(); t += spacing) {
        const double xa = std::max(r.left(), t - r.bottom());
        const double xb = std::min(r.right(), t - r.top());
        if (xb > xa) p->drawLine(QPointF(xa, t - xa), QPointF(xb, t - xb));
    }
    p->restore();
}

void color_bar(QPainter* p, const QRectF& bar, const std::function<QColor(double t)>& colour_at,
               const std::vector<std::pair<double, QString>>& ticks, const QFont& font,
               const QColor& frame) {
    // One band per pixel row: smooth at any size, and rectangles in SVG and PDF.
    const int steps = std::max(2, int(bar.height()));
    for (int k = 0; k < steps; ++k)
        p->fillRect(QRectF(bar.x(), bar.y() + k * bar.height() / steps, bar.width(),
                           bar.height() / steps + 0.6),
                    colour_at(1.0 - (k + 0.5) / steps));
    const QPen text = p->pen();
    p->setPen(QPen(frame, 1.0));
    p->setBrush(Qt::NoBrush);
    p->drawRect(bar);
    p->setFont(font);
    const QFontMetricsF fm(font);
    for (const auto& [t, label] : ticks) {
        const double y = bar.bottom() - t * bar.height();
        p->setPen(QPen(frame, 1.0));
        p->drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3, y));
        p->setPen(text);
        // As wide as the label: never clipped to a guessed width.
        p->drawText(QRectF(bar.right() + 5, y - fm.height() / 2, fm.horizontalAdvance(label) + 2,
                           fm.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, label);
    }
}

QString elide(const QString& text, const QFontMetricsF& metrics, double width) {
    return metrics.elidedText(text, Qt::ElideRight, width);
}

}  // namespace paint

}  // namespace attnviz::ui
