#include "text_layout.h"

#include <QPaintEngine>
#include <QPainter>
#include <QTextItem>
#include <QTransform>

#include <algorithm>

namespace attnviz::test {

/// Draws nothing; keeps the transform QPainter hands over and records each text item.  It
/// claims every feature, so QPainter hands it text items as they are (no emulation through
/// paths or images), and the transform through updateState().
class TextLayoutEngine : public QPaintEngine {
  public:
    TextLayoutEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}
    bool begin(QPaintDevice*) override {
        transform_ = QTransform();
        return true;
    }
    bool end() override { return true; }
    void updateState(const QPaintEngineState& changed) override {
        if (changed.state() & QPaintEngine::DirtyTransform) transform_ = changed.transform();
    }
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {
    }
    void drawPath(const QPainterPath&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawRects(const QRectF*, int) override {}
    void drawLines(const QLineF*, int) override {}
    void drawEllipse(const QRectF&) override {}
    void drawPoints(const QPointF*, int) override {}
    void drawTextItem(const QPointF& p, const QTextItem& item) override {
        const QString text = item.text();
        if (text.trimmed().isEmpty() || item.width() <= 0) return;
        const QRectF local(p.x(), p.y() - item.ascent(), item.width(),
                           item.ascent() + item.descent());
        texts_.append(DrawnText{text, item.font(), transform_.mapRect(local)});
    }
    Type type() const override { return QPaintEngine::User; }

    QList<DrawnText> texts_;

  private:
    QTransform transform_;
};

TextLayoutDevice::TextLayoutDevice(QSize size)
    : size_(size), engine_(std::make_unique<TextLayoutEngine>()) {}

TextLayoutDevice::~TextLayoutDevice() = default;

QPaintEngine* TextLayoutDevice::paintEngine() const {
    return engine_.get();
}

const QList<DrawnText>& TextLayoutDevice::texts() const {
    return engine_->texts_;
}

int TextLayoutDevice::metric(PaintDeviceMetric metric) const {
    constexpr int dpi = 96;
    switch (metric) {
        case PdmWidth:
            return size_.width();
        case PdmHeight:
            return size_.height();
        case PdmWidthMM:
            return qRound(size_.width() * 25.4 / dpi);
        case PdmHeightMM:
            return qRound(size_.height() * 25.4 / dpi);
        case PdmNumColors:
            return INT_MAX;
        case PdmDepth:
            return 32;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return dpi;
        default:
            return QPaintDevice::metric(metric);
    }
}

QString describe(const DrawnText& t) {
    QString shown = t.text.left(60);
    shown.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return QStringLiteral("“%1” [%2, %3 %4×%5, %6 %7 px]")
        .arg(shown)
        .arg(t.rect.x(), 0, 'f', 1)
        .arg(t.rect.y(), 0, 'f', 1)
        .arg(t.rect.width(), 0, 'f', 1)
        .arg(t.rect.height(), 0, 'f', 1)
        .arg(t.font.family())
        .arg(t.font.pixelSize() > 0 ? double(t.font.pixelSize()) : t.font.pointSizeF());
}

QStringList texts_outside(const QList<DrawnText>& texts, QSize canvas, double tolerance) {
    QStringList out;
    for (const DrawnText& t : texts) {
        QStringList edges;
        if (t.rect.left() < -tolerance) edges << QStringLiteral("left");
        if (t.rect.top() < -tolerance) edges << QStringLiteral("top");
        if (t.rect.right() > canvas.width() + tolerance) edges << QStringLiteral("right");
        if (t.rect.bottom() > canvas.height() + tolerance) edges << QStringLiteral("bottom");
        if (!edges.isEmpty())
            out << QStringLiteral("%1 crosses the %2 edge of %3×%4")
                       .arg(describe(t), edges.join(QLatin1Char('/')))
                       .arg(canvas.width())
                       .arg(canvas.height());
    }
    return out;
}

QStringList overlapping_texts(const QList<DrawnText>& texts, double tolerance) {
    QStringList out;
    for (qsizetype a = 0; a < texts.size(); ++a)
        for (qsizetype b = a + 1; b < texts.size(); ++b) {
            const QRectF both = texts[a].rect.intersected(texts[b].rect);
            if (both.width() > tolerance && both.height() > tolerance)
                out << QStringLiteral("%1 overlaps %2 by %3×%4")
                           .arg(describe(texts[a]), describe(texts[b]))
                           .arg(both.width(), 0, 'f', 1)
                           .arg(both.height(), 0, 'f', 1);
        }
    return out;
}

}  // namespace attnviz::test
