#include "ui/model/patch_agreement_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
struct AgreementText {
    Q_DECLARE_TR_FUNCTIONS(PatchFigure)
};

QString x_label() {
    return AgreementText::tr("exact fraction");
}
QString y_label() {
    return AgreementText::tr("attribution estimate");
}
}  // namespace

QString PatchAgreementPlot::titleText() const {
    if (!agreement_) return {};
    const auto n = int(agreement_->heads.size());
    const QString heading = AgreementText::tr("Exact against attribution");
    if (std::isnan(agreement_->rho))
        return heading + QLatin1Char('\n') + AgreementText::tr("%n head(s) measured", nullptr, n);
    return heading + QLatin1Char('\n') +
           AgreementText::tr("Spearman ρ = %1 (%n head(s))", nullptr, n)
               .arg(QString::number(agreement_->rho, 'f', 3));
}

double PatchAgreementPlot::layout(QPointF top_left, double width, double max_height,
                                  const QFont& font, const QFont& small) {
    rect_ = plot_ = QRectF();
    if (!agreement_ || agreement_->empty()) return 0.0;
    font_ = font;
    small_ = small;
    // One range for both axes, so that the diagonal is where the two agree; 0 always in it.
    double a = 0.0, b = 0.0;
    for (const std::vector<double>* v : {&agreement_->exact, &agreement_->estimate})
        for (const double x : *v) {
            a = std::min(a, x);
            b = std::max(b, x);
        }
    if (b - a < 1e-6) b = a + 1.0;
    lo_ = a - 0.08 * (b - a);
    hi_ = b + 0.08 * (b - a);
    const QFontMetricsF sm(small_);
    const double tick_w = std::max({sm.horizontalAdvance(paint::format_cell(a)),
                                    sm.horizontalAdvance(paint::format_cell(b)),
                                    sm.horizontalAdvance(QStringLiteral("0.00"))});
    const double axis_h = line_height(small_, x_label() + y_label());
    const double left = axis_h + 4 + tick_w + 6;
    const double bottom = sm.height() + 2 + axis_h + 2;
    title_ = paint::wrap_text(titleText(), font_, width);
    title_h_ = text_height(font_, title_);
    const double side = std::min(width - left - 6, max_height - title_h_ - 6 - bottom);
    if (side < 60) return 0.0;
    plot_ = QRectF(top_left.x() + left, top_left.y() + title_h_ + 6, side, side);
    rect_ = QRectF(top_left, QSizeF(width, title_h_ + 6 + side + bottom));
    return rect_.height();
}

double PatchAgreementPlot::along(double v) const {
    return (v - lo_) / (hi_ - lo_) * plot_.width();
}

QPointF PatchAgreementPlot::dotCentre(QPoint head) const {
    if (!agreement_ || plot_.isEmpty()) return {};
    for (std::size_t i = 0; i < agreement_->heads.size(); ++i)
        if (agreement_->heads[i] == head)
            return {plot_.left() + along(agreement_->exact[i]),
                    plot_.bottom() - along(agreement_->estimate[i])};
    return {};
}

QPoint PatchAgreementPlot::headAt(const QPointF& pos) const {
    if (!agreement_ || plot_.isEmpty() || !plot_.adjusted(-8, -8, 8, 8).contains(pos))
        return {-1, -1};
    // The nearest dot within reach of the pointer: dots of heads that agree may overlap.
    const double reach = std::max(6.0, QFontMetricsF(small_).height() * 0.5);
    QPoint best(-1, -1);
    double nearest = reach * reach;
    for (const QPoint head : agreement_->heads) {
        const QPointF d = dotCentre(head) - pos;
        const double r2 = d.x() * d.x() + d.y() * d.y();
        if (r2 <= nearest) {
            nearest = r2;
            best = head;
        }
    }
    return best;
}

QString PatchAgreementPlot::describe(QPoint head) const {
    if (!agreement_) return {};
    for (std::size_t i = 0; i < agreement_->heads.size(); ++i)
        if (agreement_->heads[i] == head)
            return AgreementText::tr("L%1H%2: exact %3, attribution %4")
                .arg(head.y() + 1)
                .arg(head.x() + 1)
                .arg(QString::number(agreement_->exact[i], 'f', 3),
                     QString::number(agreement_->estimate[i], 'f', 3));
    return {};
}

void PatchAgreementPlot::paint(QPainter* p, const FigureOptions& options, QPoint hover,
                               QPoint chosen) const {
    if (!agreement_ || plot_.isEmpty()) return;
    const QColor text = paint::text_color(options);
    const QColor muted = options.high_contrast ? QColor(Qt::black) : paint::kMuted;
    p->save();
    p->setRenderHint(QPainter::Antialiasing, true);
    p->setFont(font_);
    p->setPen(text);
    p->drawText(QRectF(rect_.x(), rect_.y(), rect_.width(), title_h_), Qt::AlignLeft | Qt::AlignTop,
                title_);

    p->setPen(QPen(muted, 1.0));
    p->setBrush(Qt::NoBrush);
    p->drawRect(plot_);
    // Where the two would agree, and the zero lines.
    p->setPen(QPen(muted, 1.0, Qt::DashLine));
    p->drawLine(plot_.bottomLeft(), plot_.topRight());
    p->setPen(QPen(QColor(0xcc, 0xcc, 0xcc), 1.0));
    const double zero = along(0.0);
    p->drawLine(QPointF(plot_.left() + zero, plot_.top()),
                QPointF(plot_.left() + zero, plot_.bottom()));
    p->drawLine(QPointF(plot_.left(), plot_.bottom() - zero),
                QPointF(plot_.right(), plot_.bottom() - zero));

    // Ticks at both ends of the values and at 0, each where it does not crowd another.
    p->setFont(small_);
    const QFontMetricsF sm(small_);
    const double first = lo_ + 0.08 / 1.16 * (hi_ - lo_), last = hi_ - 0.08 / 1.16 * (hi_ - lo_);
    std::vector<double> ticks{first, last};
    const double gap = sm.horizontalAdvance(QStringLiteral("−0.00")) + 6;
    if (along(0.0) - along(first) > gap && along(last) - along(0.0) > gap) ticks.push_back(0.0);
    const double axis_h = line_height(small_, x_label() + y_label());
    p->setPen(QPen(muted, 1.0));
    for (const double v : ticks) {
        const QString label = paint::format_cell(v);
        const double x = plot_.left() + along(v), y = plot_.bottom() - along(v);
        p->drawLine(QPointF(x, plot_.bottom()), QPointF(x, plot_.bottom() + 3));
        p->drawLine(QPointF(plot_.left() - 3, y), QPointF(plot_.left(), y));
        p->drawText(QRectF(x - gap / 2, plot_.bottom() + 2, gap, sm.height()),
                    Qt::AlignHCenter | Qt::AlignTop, label);
        p->drawText(QRectF(plot_.left() - 4 - gap, y - sm.height() / 2, gap - 1, sm.height()),
                    Qt::AlignRight | Qt::AlignVCenter, label);
    }
    p->drawText(QRectF(plot_.left(), plot_.bottom() + 2 + sm.height() + 2, plot_.width(), axis_h),
                Qt::AlignHCenter | Qt::AlignTop, paint::elide(x_label(), sm, plot_.width()));
    p->save();
    p->translate(rect_.left(), plot_.center().y());
    p->rotate(-90);
    p->drawText(QRectF(-plot_.height() / 2, 0, plot_.height(), axis_h),
                Qt::AlignHCenter | Qt::AlignTop, paint::elide(y_label(), sm, plot_.height()));
    p->restore();

    const double r = std::max(3.0, sm.height() * 0.22);
    QColor dot = options.high_contrast ? QColor(Qt::black) : paint::kAccent;
    dot.setAlpha(190);
    p->setPen(Qt::NoPen);
    p->setBrush(dot);
    for (const QPoint head : agreement_->heads)
        p->drawEllipse(dotCentre(head), r, r);
    const auto ring = [&](QPoint head, const QColor& colour) {
        const QPointF c = dotCentre(head);
        if (c.isNull()) return;
        p->setPen(QPen(colour, 2.0));
        p->setBrush(Qt::NoBrush);
        p->drawEllipse(c, r + 3, r + 3);
    };
    ring(chosen, text);
    ring(hover, paint::kHighlight);
    p->restore();
}

}  // namespace attnviz::ui
