#include "ui/model/model_view.h"

#include <QContextMenuEvent>
#include <QEvent>
#include <QFontMetrics>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

#include "ui/document/shipped_models.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
constexpr int kCaptionMargin = 8;  ///< around the caption under the mosaic
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

void ModelView::setTokenFocus(int token, bool to) {
    // ViewTabs re-states the focus after every snapshot; setSnapshot() made the strips already.
    if (token == focus_token_ && to == focus_to_) return;
    focus_token_ = token;
    focus_to_ = to;
    updateStrips();
    update();
}

void ModelView::setThumbnails(ModelThumbnails choice) {
    if (choice == choice_) return;
    choice_ = choice;
    if (maps()) setCurrent(layer_, head_);  // fewer rows: stay inside
    update();
}

ModelThumbnails ModelView::shown() const {
    const ModelMaps* m = maps();
    return m ? m->shownThumbnails(choice_, focus_token_) : ModelThumbnails::Kept;
}

void ModelView::updateStrips() {
    const ModelMaps* m = maps();
    strips_ =
        m && focus_token_ >= 0 ? focus_strips(*m, focus_token_, focus_to_) : std::vector<QImage>();
}

void ModelView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    updateStrips();
    if (const ModelMaps* m = maps()) {
        const int layer = snapshot_->layer;
        setCurrent(layer_ < 0 ? layer : std::clamp(layer_, 0, m->mosaicLayers(shown()) - 1),
                   std::clamp(head_, 0, m->rolloutColumn()));
    } else {
        layer_ = head_ = hover_layer_ = hover_head_ = -1;
        setHoverPiece(-1);
    }
    update();
}

void ModelView::setCurrent(int layer, int head) {
    const ModelMaps* m = maps();
    if (!m) return;
    const int l = std::clamp(layer, 0, m->mosaicLayers(shown()) - 1),
              h = std::clamp(head, 0, m->rolloutColumn());
    if (l == layer_ && h == head_) return;
    const QRect before = cellRect(layer_, head_).adjusted(-3, -3, 3, 3);
    layer_ = l;
    head_ = h;
    update(before);
    update(cellRect(layer_, head_).adjusted(-3, -3, 3, 3));
}

MosaicLayout ModelView::geometry() const {
    const ModelMaps* m = maps();
    if (!m) return {};
    return layout_mosaic(*m, QRect(0, 0, width(), height() - captionHeight() - 4), font(), shown());
}

QString ModelView::captionText() const {
    const ModelMaps* m = maps();
    if (!m) return {};
    const QString note = whole_text_note(*m, shown());
    // The kept maps are norm-based then; the whole text's pooled squares stay the weights.
    const QString name =
        m->norm_based && note.isEmpty() ? tr("%1 · norm-based ‖α·f(x)‖").arg(m->name) : m->name;
    return note.isEmpty()
               ? tr("%1 · %2 tokens · each map coloured from 0 to its own largest weight; "
                    "click a head to open its layer, right-click it for its full map or to "
                    "knock it out, Alt-click it to ask why it looks where it does")
                     .arg(name)
                     .arg(m->tokens)
               : tr("%1 · %2 · right-click a head for its full map").arg(m->name, note);
}

int ModelView::captionHeight() const {
    // Wrapped to the width it is drawn in, in the font it is drawn in (Chinese lines are taller).
    const int w = std::max(80, width() - 2 * kCaptionMargin);
    return QFontMetrics(font())
               .boundingRect(QRect(0, 0, w, 1 << 20), Qt::TextWordWrap, captionText())
               .height() +
           4;
}

QRect ModelView::cellRect(int layer, int head) const {
    return maps() ? geometry().cellRect(layer, head) : QRect();
}

QPoint ModelView::headAt(const QPoint& pos) const {
    return maps() ? geometry().headAt(pos) : QPoint(-1, -1);
}

QString ModelView::describe(int layer, int head) const {
    const ModelMaps* m = maps();
    if (!m || layer < 0 || head < 0) return {};
    // Where the head looks most, over all queries: the key that gets the most attention.
    const int L = m->tokens;
    const bool rollout = head == m->rolloutColumn();
    const int source = head >= m->num_heads ? -1 : head;
    QString text;
    if (rollout) {
        text = tr("Attention rollout through layer %1: how much each token draws on each input "
                  "token, residual included")
                   .arg(layer + 1);
    } else if (source < 0) {
        text = tr("Layer %1 · mean over its %2 heads").arg(layer + 1).arg(m->num_heads);
    } else {
        text = tr("Layer %1 · head %2").arg(layer + 1).arg(head + 1);
        if (m->num_kv_heads > 0 && m->num_kv_heads < m->num_heads)
            text += tr(" (kv head %1)").arg(head / (m->num_heads / m->num_kv_heads) + 1);
    }
    if (const ModelThumbnails whole = shown(); whole != ModelThumbnails::Kept) {
        // The whole text pooled: where the strongest square of this cell is.
        if (rollout && !m->pooled->has_rollout[std::size_t(layer)])
            return text + tr(" — not over the whole text: the memory budget kept layers 1–%1")
                              .arg(m->num_layers);
        const models::Pooling& g = m->pooled->pooling;
        const float* squares = m->pooled->squares(whole, layer, head);
        const auto n = std::size_t(g.cells * g.cells);
        const auto top = std::size_t(std::max_element(squares, squares + n) - squares);
        const std::int64_t r = std::int64_t(top) / g.cells, c = std::int64_t(top) % g.cells;
        return text + tr(" — whole text: strongest square, queries %1–%2 → keys %3–%4 (%5%)")
                          .arg(g.begin(r) + 1)
                          .arg(g.end(r))
                          .arg(g.begin(c) + 1)
                          .arg(g.end(c))
                          .arg(100.0 * double(squares[top]), 0, 'f', 1);
    }
    if (!m->hasMaps(head))
        return text + (m->heads_kept == 0
                           ? tr(" — not kept: the memory budget keeps the means only (the Atlas "
                                "still measures it)")
                           : tr(" — not kept: the memory budget keeps heads 1–%1 (the Atlas "
                                "still measures it)")
                                 .arg(m->heads_kept));
    if (L <= 0) return text;
    const int t = focus_token_;
    if (t >= 0 && t < L) {  // one token: where it looks most, or who looks at it most
        int best = 0;
        float best_value = -1.0f;
        for (int k = 0; k < L; ++k) {
            const float v =
                focus_to_ ? m->columnValue(layer, head, k, t) : m->columnValue(layer, head, t, k);
            if (v > best_value) best_value = v, best = k;
        }
        const QString other = visible_token(m->token_text[std::size_t(best)]),
                      self = visible_token(m->token_text[std::size_t(t)]);
        return text + (focus_to_ ? tr(" — “%1” looks at “%2” most (%3%)").arg(other, self)
                                 : tr(" — “%1” looks at “%2” most (%3%)").arg(self, other))
                          .arg(100.0 * double(best_value), 0, 'f', 1);
    }
    // Where the map looks most, over all queries: the key that gets the most attention.
    std::vector<double> to(static_cast<std::size_t>(L), 0.0);
    for (int i = 0; i < L; ++i)
        for (int j = 0; j < L; ++j)
            to[std::size_t(j)] += m->columnValue(layer, head, i, j);
    const int top = int(std::max_element(to.begin(), to.end()) - to.begin());
    text += tr(" — most attended token: “%1” (%2% of the attention)")
                .arg(visible_token(m->token_text[std::size_t(top)]))
                .arg(100.0 * to[std::size_t(top)] / double(L), 0, 'f', 1);
    return text;
}

QString ModelView::placeholderText() const {
    const QString shipped = shipped_model_names();
    if (shipped.isEmpty())
        return tr("Open a trained model (File ▸ Open Model…) to see every layer and head at once.");
    return tr("Choose a trained model in the Source box of the tool bar (built in, nothing to "
              "download: %1), or open one (File ▸ Open Model…), to see every layer and head at "
              "once.")
        .arg(shipped);
}

void ModelView::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    p.fillRect(event->rect(), Qt::white);
    const ModelMaps* m = maps();
    if (!m) {
        p.setPen(QColor(90, 90, 90));
        p.drawText(rect().adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap,
                   placeholderText());
        return;
    }
    const MosaicLayout g = geometry();
    paint_mosaic(&p, *m, g, font(), event->rect(), strips_.empty() ? nullptr : &strips_, shown());
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
    // Under the mosaic, across the whole view: the mosaic may be narrower than its caption.
    const QRect caption(kCaptionMargin, g.bottom() + 2, width() - 2 * kCaptionMargin,
                        captionHeight());
    p.drawText(caption, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, captionText());
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
    const QPoint pos = event->position().toPoint();
    const QPoint at = headAt(pos);
    setHover(at.y(), at.x());
    const int token = tokenAt(pos);
    setHoverPiece(token >= 0 ? maps()->pieceOf(token) : -1);
    if (const MapCell c = mapCellAt(pos); c.head >= 0 && c.row >= 0)
        emit cellHovered(c.layer, c.head, c.row, c.col);
}

int ModelView::strongest(int layer, int head, int token, bool to) const {
    const ModelMaps* m = maps();
    int best = 0;
    for (int k = 1; k < m->tokens; ++k)
        if ((to ? m->value(layer, head, k, token) : m->value(layer, head, token, k)) >
            (to ? m->value(layer, head, best, token) : m->value(layer, head, token, best)))
            best = k;
    return best;
}

ModelView::MapCell ModelView::mapCellAt(const QPoint& pos) const {
    const ModelMaps* m = maps();
    const QPoint at = headAt(pos);
    if (!m || at.x() < 0) return {};
    MapCell c{at.y(), at.x() < m->num_heads ? at.x() : -1, -1, -1};
    const int L = m->tokens;
    if (c.head < 0 || shown() != ModelThumbnails::Kept || c.layer >= m->num_layers ||
        !m->hasMaps(c.head) || L <= 0)
        return c;
    const QRect r = cellRect(c.layer, c.head);
    const bool pickable = r.width() >= kPickPixels * L;
    // Every map (and every strip) is drawn over its whole cell, a token per L-th of it.
    const int x = std::clamp((pos.x() - r.left()) * L / r.width(), 0, L - 1);
    const int y = std::clamp((pos.y() - r.top()) * L / r.height(), 0, L - 1);
    if (const int t = focus_token_; t >= 0 && t < L) {  // one token's strip: the other along it
        const int other = pickable ? x : strongest(c.layer, c.head, t, focus_to_);
        c.row = focus_to_ ? other : t;
        c.col = focus_to_ ? t : other;
    } else if (pickable) {
        c.row = y;
        c.col = x;
    } else {  // too small to aim at: the prediction, and where it looks most
        c.row = L - 1;
        c.col = strongest(c.layer, c.head, L - 1, false);
    }
    return c;
}

int ModelView::tokenAt(const QPoint& pos) const {
    const ModelMaps* m = maps();
    // The whole text pooled: a row is a square of pieces, no one token.
    if (!m || focus_token_ >= 0 || m->tokens <= 0 || shown() != ModelThumbnails::Kept) return -1;
    const QPoint at = headAt(pos);
    const QRect r = cellRect(at.y(), at.x());
    if (r.isEmpty()) return -1;
    // Every map is drawn over its whole cell, one row per token shown.
    return std::clamp((pos.y() - r.top()) * m->tokens / r.height(), 0, m->tokens - 1);
}

void ModelView::setHoverPiece(int piece) {
    if (piece == hover_piece_) return;
    hover_piece_ = piece;
    emit pieceHovered(piece);
}

void ModelView::mousePressEvent(QMouseEvent* event) {
    const QPoint at = headAt(event->position().toPoint());
    if (at.x() < 0) return;
    setCurrent(at.y(), at.x());
    if (event->button() != Qt::LeftButton) return;
    if (event->modifiers() & Qt::AltModifier) {  // why this head looks where it does
        const MapCell c = mapCellAt(event->position().toPoint());
        emit cellExplainRequested(c.layer, c.head, c.row, c.col);
        return;
    }
    if (event->modifiers() & Qt::ControlModifier) {  // ⌘ on macOS
        if (at.x() < maps()->num_heads) emit knockOutToggled(at.y(), at.x());
        return;
    }
    activate(at.y(), at.x());
}

void ModelView::contextMenuEvent(QContextMenuEvent* event) {
    // The menu key: the head the keyboard selected, its menu over it.
    const bool keyboard = event->reason() == QContextMenuEvent::Keyboard;
    const QPoint at = keyboard ? current() : headAt(event->pos());
    if (!maps() || at.x() < 0 || at.x() >= maps()->num_heads)
        return QWidget::contextMenuEvent(event);
    setCurrent(at.y(), at.x());
    emit headMenuRequested(
        at.y(), at.x(),
        keyboard ? mapToGlobal(cellRect(at.y(), at.x()).center()) : event->globalPos());
}

void ModelView::activate(int layer, int column) {
    const ModelMaps* m = maps();
    if (!m) return;
    // The rollout belongs to no single layer's grid: it stays here, described by hovering.
    if (column == m->rolloutColumn()) return emit hovered(describe(layer, column));
    // A layer whose maps were not kept (the whole text pooled): the window opens the head's
    // full map, recomputed.
    if (layer >= m->num_layers) return emit activated(layer, column < m->num_heads ? column : -1);
    // A head without maps opens its layer's mean.
    emit activated(layer, column == m->meanColumn() || !m->hasMaps(column) ? -1 : column);
}

void ModelView::leaveEvent(QEvent* event) {
    setHover(-1, -1);
    setHoverPiece(-1);
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
            activate(layer_, head_);
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
