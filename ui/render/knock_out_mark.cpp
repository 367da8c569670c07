#include "ui/render/knock_out_mark.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace attnviz::ui {

namespace {
struct MarkText {
    Q_DECLARE_TR_FUNCTIONS(KnockOutMark)
};
const QColor kCross(200, 30, 30);
}  // namespace

QString knock_out_label(KnockOut how) {
    return how == KnockOut::Mean ? MarkText::tr("mean", "a head knocked out by its mean")
                                 : MarkText::tr("zero", "a head knocked out by zeros");
}

void paint_knocked_out(QPainter* p, const QRectF& r, KnockOut how) {
    if (r.width() < 3 || r.height() < 3) return;
    p->save();
    p->setRenderHint(QPainter::Antialiasing, true);
    p->setBrush(Qt::NoBrush);
    // A light veil, so the cross reads on every colour map, then the cross with a white edge.
    p->fillRect(r, QColor(255, 255, 255, 90));
    const double w = std::clamp(std::min(r.width(), r.height()) / 14.0, 1.5, 4.0);
    for (const auto& [colour, width] : {std::pair{QColor(Qt::white), w + 2.0}, {kCross, w}}) {
        p->setPen(QPen(colour, width, Qt::SolidLine, Qt::RoundCap));
        p->drawLine(r.topLeft(), r.bottomRight());
        p->drawLine(r.topRight(), r.bottomLeft());
    }
    p->setPen(QPen(kCross, 1.0));
    p->drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
    // The label, when the map leaves room for it.
    QFont font = p->font();
    font.setBold(true);
    font.setPixelSize(std::clamp(int(std::min(r.width(), r.height()) / 4.5), 7, 14));
    const QString label = knock_out_label(how);
    const QFontMetricsF fm(font);
    const double tw = fm.horizontalAdvance(label) + 6, th = fm.height() + 2;
    if (tw < r.width() - 2 && th < r.height() - 2) {
        const QRectF tag(r.center().x() - tw / 2, r.center().y() - th / 2, tw, th);
        p->setFont(font);
        p->setPen(QPen(kCross, 1.0));
        p->setBrush(QColor(255, 255, 255, 235));
        p->drawRoundedRect(tag, 3, 3);
        p->drawText(tag, Qt::AlignCenter, label);
    }
    p->restore();
}

}  // namespace attnviz::ui
