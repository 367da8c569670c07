#include "ui/model/model_view.h"

#include <QEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace attnviz::ui {

namespace {
constexpr int kCaption = 22;  ///< the line under the mosaic
}

ModelView::ModelView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("modelView"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, Qt::white);
    setPalette(p);
    setMinimumSize(320, 240);
}

void ModelView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    if (const ModelMaps* m = maps()) {
        const int layer = snapshot_->layer;
        setCurrent(layer_ < 0 ? layer : std::clamp(layer_, 0, m->num_layers - 1),
                   std::clamp(head_, 0, m->num_heads - 1));
    } else {
        layer_ = head_ = hover_layer_ = hover_head_ = -1;
    }
    update();
}

void ModelView::setCurrent(int layer, int head) {
    const ModelMaps* m = maps();
    if (!m) return;
    const int l = std::clamp(layer, 0, m->num_layers - 1),
              h = std::clamp(head, 0, m->num_heads - 1);
    if (l == layer_ && h == head_) return;
    const QRect before = cellRect(layer_, head_).adjusted(-3, -3, 3, 3);
    layer_ = l;
    head_ = h;
    update(before);
    update(cellRect(layer_, head_).adjusted(-3, -3, 3, 3));
}

ModelView::Geometry ModelView::geometry() const {
    Geometry g;
    const ModelMaps* m = maps();
    if (!m || m->num_layers == 0 || m->num_heads == 0) return g;
    const QFontMetrics fm(font());
    g.left = fm.horizontalAdvance(tr("Layer %1").arg(m->num_layers)) + 12;
    g.top = fm.height() + 8;
    const int w = width() - g.left - 8, h = height() - g.top - kCaption - 4;
    const int pitch = std::max(4, std::min(w / m->num_heads, h / m->num_layers));
    g.gap = pitch >= 24 ? 3 : 1;
    g.cell = pitch - g.gap;
    return g;
}

QRect ModelView::cellRect(int layer, int head) const {
    const ModelMaps* m = maps();
    if (!m || layer < 0 || head < 0 || layer >= m->num_layers || head >= m->num_heads) return {};
    const Geometry g = geometry();
    const int pitch = g.cell + g.gap;
    return QRect(g.left + head * pitch, g.top + layer * pitch, g.cell, g.cell);
}

QPoint ModelView::headAt(const QPoint& pos) const {
    const ModelMaps* m = maps();
    if (!m) return QPoint(-1, -1);
    const Geometry g = geometry();
    const int pitch = g.cell + g.gap;
    if (pitch <= 0 || pos.x() < g.left || pos.y() < g.top) return QPoint(-1, -1);
    const int head = (pos.x() - g.left) / pitch, layer = (pos.y() - g.top) / pitch;
    if (head >= m->num_heads || layer >= m->num_layers) return QPoint(-1, -1);
    if (!cellRect(layer, head).contains(pos)) return QPoint(-1, -1);
    return QPoint(head, layer);
}

QString ModelView::describe(int layer, int head) const {
    const ModelMaps* m = maps();
    if (!m || layer < 0 || head < 0) return {};
    // Where the head looks most, over all queries: the key that gets the most attention.
    const int L = m->tokens;
    std::vector<double> to(static_cast<std::size_t>(L), 0.0);
    for (int i = 0; i < L; ++i)
        for (int j = 0; j < L; ++j)
            to[std::size_t(j)] += m->value(layer, head, i, j);
    const int top = int(std::max_element(to.begin(), to.end()) - to.begin());
    QString text = tr("Layer %1 · head %2").arg(layer).arg(head);
    if (m->num_kv_heads > 0 && m->num_kv_heads < m->num_heads)
        text += tr(" (kv head %1)").arg(head / (m->num_heads / m->num_kv_heads));
    if (L > 0)
        text += tr(" — most attended token: “%1” (%2% of the attention)")
                    .arg(m->token_text[std::size_t(top)])
                    .arg(100.0 * to[std::size_t(top)] / double(L), 0, 'f', 1);
    return text;
}

void ModelView::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    p.fillRect(event->rect(), Qt::white);
    const ModelMaps* m = maps();
    if (!m) {
        p.setPen(QColor(90, 90, 90));
        p.drawText(rect().adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Open a trained model (File ▸ Open Model…) to see every layer and head "
                      "at once."));
        return;
    }
    const Geometry g = geometry();
    const int pitch = g.cell + g.gap;
    const QFontMetrics fm(font());
    p.setPen(QColor(60, 60, 60));
    // Head numbers above, layer numbers on the left (every other one when crowded).
    const int label_every =
        std::max(1, (fm.horizontalAdvance(QStringLiteral("00")) + 4) / std::max(1, pitch) + 1);
    for (int h = 0; h < m->num_heads; h += label_every) {
        const QRect r(g.left + h * pitch, 0, std::max(pitch, 16), g.top - 2);
        if (r.intersects(event->rect()))
            p.drawText(r, Qt::AlignLeft | Qt::AlignBottom, QString::number(h));
    }
    const int layer_every = std::max(1, (fm.height() + 2) / std::max(1, pitch) + 1);
    for (int l = 0; l < m->num_layers; l += layer_every) {
        const QRect r(0, g.top + l * pitch, g.left - 6, g.cell);
        if (r.intersects(event->rect()))
            p.drawText(r, Qt::AlignRight | Qt::AlignVCenter, tr("Layer %1").arg(l));
    }
    for (int l = 0; l < m->num_layers; ++l)
        for (int h = 0; h < m->num_heads; ++h) {
            const QRect r = cellRect(l, h);
            if (!r.adjusted(-3, -3, 3, 3).intersects(event->rect())) continue;
            const QImage& img = m->thumbnail(l, h);
            // Shrinking a long input's map: smooth, so a line of strong cells stays visible.
            p.setRenderHint(QPainter::SmoothPixmapTransform, img.width() > r.width());
            p.drawImage(r, img);
        }
    auto frame = [&](int l, int h, const QColor& colour, int width) {
        const QRect r = cellRect(l, h);
        if (r.isEmpty()) return;
        p.setPen(QPen(colour, width));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(-1, -1, 0, 0));
    };
    if (hasFocus()) frame(layer_, head_, QColor(0, 114, 178), 2);
    frame(hover_layer_, hover_head_, QColor(213, 94, 0), 2);
    p.setPen(QColor(90, 90, 90));
    const QRect caption(g.left, g.top + m->num_layers * pitch + 2, width() - g.left - 8, kCaption);
    p.drawText(caption, Qt::AlignLeft | Qt::AlignVCenter,
               tr("%1 · %2 tokens · each head coloured from 0 to its own largest weight; click "
                  "a head to open its layer")
                   .arg(m->name)
                   .arg(m->tokens));
}

void ModelView::setHover(int layer, int head) {
    if (layer == hover_layer_ && head == hover_head_) return;
    const QRect before = cellRect(hover_layer_, hover_head_).adjusted(-3, -3, 3, 3);
    hover_layer_ = layer;
    hover_head_ = head;
    update(before);
    update(cellRect(layer, head).adjusted(-3, -3, 3, 3));
    const QString text = describe(layer, head);
    setToolTip(text);
    emit hovered(text);
}

void ModelView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint at = headAt(event->position().toPoint());
    setHover(at.y(), at.x());
}

void ModelView::mousePressEvent(QMouseEvent* event) {
    const QPoint at = headAt(event->position().toPoint());
    if (at.x() < 0) return;
    setCurrent(at.y(), at.x());
    if (event->button() == Qt::LeftButton) emit activated(at.y(), at.x());
}

void ModelView::leaveEvent(QEvent* event) {
    setHover(-1, -1);
    QWidget::leaveEvent(event);
}

void ModelView::keyPressEvent(QKeyEvent* event) {
    if (!maps()) return QWidget::keyPressEvent(event);
    switch (event->key()) {
        case Qt::Key_Left:
            setCurrent(layer_, head_ - 1);
            break;
        case Qt::Key_Right:
            setCurrent(layer_, head_ + 1);
            break;
        case Qt::Key_Up:
            setCurrent(layer_ - 1, head_);
            break;
        case Qt::Key_Down:
            setCurrent(layer_ + 1, head_);
            break;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            emit activated(layer_, head_);
            return;
        default:
            return QWidget::keyPressEvent(event);
    }
    emit hovered(describe(layer_, head_));
}

void ModelView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) update();
    QWidget::changeEvent(event);
}

}  // namespace attnviz::ui
