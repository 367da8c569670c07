#include "ui/model/lens_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ui/document/shipped_models.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
struct LensText {
    Q_DECLARE_TR_FUNCTIONS(LensFigure)
};

QString percent(double p) {
    return p >= 0.0995  ? QStringLiteral("%1%").arg(100.0 * p, 0, 'f', 0)
           : p >= 0.001 ? QStringLiteral("%1%").arg(100.0 * p, 0, 'f', 1)
                        : QStringLiteral("<0.1%");
}
}  // namespace

QRectF LensLayout::cellRect(int layer, int position) const {
    if (layer < 0 || position < 0 || layer >= layers || position >= positions) return {};
    return QRectF(cells.x() + position * cell_w, cells.y() + layer * cell_h, cell_w, cell_h);
}

QPoint LensLayout::cellAt(const QPoint& pos) const {
    if (cell_w <= 0.0 || cell_h <= 0.0 || !cells.contains(pos)) return QPoint(-1, -1);
    const int p = int((pos.x() - cells.x()) / cell_w), l = int((pos.y() - cells.y()) / cell_h);
    if (p < 0 || p >= positions || l < 0 || l >= layers) return QPoint(-1, -1);
    return QPoint(p, l);
}

const LensGrid* LensFigure::lens() const {
    return snapshot_ && snapshot_->lens && snapshot_->lens->available() ? snapshot_->lens.get()
                                                                        : nullptr;
}

QString LensFigure::message() const {
    if (!snapshot_ || !snapshot_->model) {
        const QString shipped = shipped_model_names();
        return shipped.isEmpty() ? LensText::tr(
                                       "Open a trained model (File ▸ Open Model…) to see what it "
                                       "predicts after each layer.")
                                 : LensText::tr(
                                       "Choose a trained model in the Source box of the tool bar "
                                       "(built in: %1), or open one (File ▸ Open Model…), to see "
                                       "what it predicts after each layer.")
                                       .arg(shipped);
    }
    if (!snapshot_->lens)
        return snapshot_->model && snapshot_->model->provisional
                   ? LensText::tr("The logit lens follows when the model stops writing.")
                   : LensText::tr("Computing the logit lens…");
    if (const LensGrid& g = *snapshot_->lens; !g.unavailable.isEmpty())
        return g.detail.isEmpty() ? g.unavailable
                                  : g.unavailable + QStringLiteral("\n\n") + g.detail;
    if (snapshot_->lens->positions == 0) return LensText::tr("The text has no tokens.");
    return {};
}

void LensFigure::layout(QSize size) {
    size_ = size;
    grid_ = LensLayout{};
    const LensGrid* g = lens();
    QStringList texts;
    if (g) {
        texts = QStringList(g->tokens.begin(), g->tokens.end());
        for (int l = 0; l < g->num_layers; ++l)
            for (int p = 0; p < g->positions; ++p)
                texts << g->top_text[g->at(l, p)];
    }
    font_ = figure_font(options_.font_px, texts);
    const double top = title_.layout(options_, titleText(), captionText(), 8, size.width(), 16);
    if (!g) {
        grid_.legend = QRect(16, int(top), size.width() - 32, 0);
        return;
    }
    const QFontMetricsF fm(font_);
    const int pad = 16;
    const double label_w =
        std::max(fm.horizontalAdvance(LensText::tr("Layer %1").arg(g->num_layers)),
                 std::max(fm.horizontalAdvance(LensText::tr("Input")),
                          fm.horizontalAdvance(g->causal ? LensText::tr("Next")
                                                         : LensText::tr("Token")))) +
        12;
    const int row_h = int(std::ceil(fm.height())) + 6;
    legend_ = g->causal ? LensText::tr(
                              "Rows: the residual stream after each layer, read through the "
                              "model's own head; the last row is the model's output. Each "
                              "cell: the most likely next token, coloured by its probability. "
                              "Framed in bold: it is the actual next token.")
                        : LensText::tr(
                              "Rows: the residual stream after each layer, read through the "
                              "model's masked-LM head; the last row is the model's output. "
                              "Each cell: the most likely token at that position, coloured by "
                              "its probability. Framed in bold: it is the token there.");
    QFont small = font_;
    small.setPixelSize(std::max(8, options_.font_px - 2));
    label_font_ = small;
    const int legend_w = size.width() - 2 * pad;
    const int legend_h =
        row_h + 4 +
        QFontMetricsF(small)
            .boundingRect(QRectF(0, 0, legend_w, 1e6), Qt::AlignLeft | Qt::TextWordWrap, legend_)
            .toAlignedRect()
            .height();
    const int x0 = pad + int(std::ceil(label_w));
    const int width = std::max(40, size.width() - x0 - pad);
    const int avail = size.height() - int(top) - 2 * row_h - legend_h - 24;
    grid_.layers = g->num_layers;
    grid_.positions = g->positions;
    grid_.cell_w = double(width) / g->positions;
    grid_.cell_h =
        std::clamp(double(avail) / g->num_layers, 14.0, std::max(24.0, 2.4 * fm.height()));
    grid_.tokens = QRect(x0, int(top) + 4, width, row_h);
    grid_.cells =
        QRect(x0, grid_.tokens.bottom() + 1, width, int(std::ceil(grid_.cell_h * g->num_layers)));
    grid_.targets = QRect(x0, grid_.cells.bottom() + 1, width, row_h);
    grid_.legend = QRect(pad, grid_.targets.bottom() + 10, legend_w, legend_h);
    // The cells' tokens fill at most half a cell's height.
    QFont cell =
        figure_font(std::max(7, std::min(options_.font_px, int(grid_.cell_h * 0.55))), texts);
    font_ = cell;
    bold_ = cell;
    bold_.setBold(true);
}

int LensFigure::usedHeight() const {
    const int used = grid_.legend.bottom() + 12;
    return lens() && used < size_.height() ? used : -1;
}

void LensFigure::paint(QPainter* p, bool) const {
    p->fillRect(QRect(QPoint(0, 0), size_), Qt::white);
    title_.paint(p, options_);
    const QColor text = paint::text_color(options_);
    const LensGrid* g = lens();
    if (!g) {
        p->setFont(figure_font(options_.font_px));
        p->setPen(paint::kMuted);
        const QRect area(32, grid_.legend.top() + 16, size_.width() - 64,
                         std::max(40, size_.height() - grid_.legend.top() - 32));
        p->drawText(area, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, message());
        return;
    }
    QCPColorGradient gradient = make_gradient(options_.colormap);  // color() is not const
    const QCPRange unit(0.0, 1.0);
    const double cw = grid_.cell_w, ch = grid_.cell_h;
    // Row labels: layers, and the rows of tokens above and below.
    p->setFont(label_font_);
    p->setPen(text);
    const int label_right = grid_.cells.x() - 6;
    for (int l = 0; l < g->num_layers; ++l) {
        const QRectF r = grid_.cellRect(l, 0);
        p->drawText(QRectF(0, r.y(), label_right, ch), Qt::AlignRight | Qt::AlignVCenter,
                    LensText::tr("Layer %1").arg(l + 1));
    }
    p->setPen(paint::kMuted);
    p->drawText(QRect(0, grid_.tokens.y(), label_right, grid_.tokens.height()),
                Qt::AlignRight | Qt::AlignVCenter, LensText::tr("Input"));
    p->drawText(QRect(0, grid_.targets.y(), label_right, grid_.targets.height()),
                Qt::AlignRight | Qt::AlignVCenter,
                g->causal ? LensText::tr("Next") : LensText::tr("Token"));
    const QFontMetricsF fm(font_), bm(bold_);
    p->setFont(font_);
    for (int k = 0; k < g->positions; ++k) {
        const double x = grid_.cells.x() + k * cw;
        p->setPen(text);
        p->drawText(QRectF(x + 1, grid_.tokens.y(), cw - 2, grid_.tokens.height()), Qt::AlignCenter,
                    paint::elide(visible_token(g->tokens[std::size_t(k)]), fm, cw - 2));
        if (g->targets[std::size_t(k)] >= 0) {
            p->setPen(paint::kMuted);
            p->drawText(QRectF(x + 1, grid_.targets.y(), cw - 2, grid_.targets.height()),
                        Qt::AlignCenter,
                        paint::elide(visible_token(g->target_text[std::size_t(k)]), fm, cw - 2));
        }
    }
    // The cells, then the frames of the hits over them.
    p->setPen(Qt::NoPen);
    for (int l = 0; l < g->num_layers; ++l)
        for (int k = 0; k < g->positions; ++k) {
            const QRectF r = grid_.cellRect(l, k);
            const QColor bg = QColor::fromRgb(gradient.color(g->probability(l, k), unit));
            p->fillRect(r, bg);
            const bool hit = g->hit(l, k);
            p->setFont(hit ? bold_ : font_);
            p->setPen(text_color_on(bg));
            p->drawText(
                r.adjusted(2, 0, -2, 0), Qt::AlignCenter,
                paint::elide(visible_token(g->top_text[g->at(l, k)]), hit ? bm : fm, cw - 4));
        }
    p->setPen(QPen(Qt::white, 1.0));
    for (int k = 1; k < g->positions; ++k) {
        const double x = grid_.cells.x() + k * cw;
        p->drawLine(QPointF(x, grid_.cells.top()),
                    QPointF(x, grid_.cells.top() + ch * g->num_layers));
    }
    for (int l = 1; l < g->num_layers; ++l) {
        const double y = grid_.cells.y() + l * ch;
        p->drawLine(QPointF(grid_.cells.left(), y),
                    QPointF(grid_.cells.left() + cw * g->positions, y));
    }
    p->setBrush(Qt::NoBrush);
    p->setPen(QPen(paint::kHighlight, std::max(2.0, std::min(cw, ch) / 10.0)));
    for (int l = 0; l < g->num_layers; ++l)
        for (int k = 0; k < g->positions; ++k)
            if (g->hit(l, k)) p->drawRect(grid_.cellRect(l, k).adjusted(1.5, 1.5, -1.5, -1.5));
    // The colour bar: probability 0 to 1.
    const QFontMetricsF lm(label_font_);
    p->setFont(label_font_);
    const double bar_h = lm.height();
    const QString zero = QStringLiteral("0"), one = QStringLiteral("1");
    const QString what = LensText::tr("probability of the top-1 token");
    double x = grid_.legend.x();
    const double y = grid_.legend.y();
    p->setPen(paint::kMuted);
    p->drawText(QPointF(x, y + lm.ascent()), zero);
    x += lm.horizontalAdvance(zero) + 4;
    const int steps = 64;
    const double bar_w = 160.0;
    p->setPen(Qt::NoPen);
    for (int s = 0; s < steps; ++s)
        p->fillRect(QRectF(x + s * bar_w / steps, y + 2, bar_w / steps + 0.5, bar_h - 4),
                    QColor::fromRgb(gradient.color((s + 0.5) / steps, unit)));
    x += bar_w + 4;
    p->setPen(paint::kMuted);
    p->drawText(QPointF(x, y + lm.ascent()), one);
    x += lm.horizontalAdvance(one) + 12;
    p->drawText(QPointF(x, y + lm.ascent()), what);
    const QRect text_rect(grid_.legend.x(), int(y + bar_h + 6), grid_.legend.width(),
                          grid_.legend.height());
    p->drawText(text_rect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, legend_);
}

QString LensFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (!snapshot_ || !snapshot_->model) return LensText::tr("Logit lens");
    return LensText::tr("Logit lens of %1: what it predicts after each layer")
        .arg(snapshot_->model->name);
}

QString LensFigure::captionText() const {
    const LensGrid* g = lens();
    if (!g) return {};
    QStringList parts{
        LensText::tr("%1 layers × %2 positions").arg(g->num_layers).arg(g->positions)};
    if (g->positions < g->total_positions)
        parts << LensText::tr("the last %1 of %2 tokens").arg(g->positions).arg(g->total_positions);
    if (!g->knocked_out.empty()) {
        QStringList heads;
        for (const auto& [head, how] : g->knocked_out)
            heads << (how == KnockOut::Mean ? LensText::tr("%1.%2 (mean)")
                                            : QStringLiteral("%1.%2"))
                         .arg(head.first + 1)
                         .arg(head.second + 1);
        parts << LensText::tr("heads knocked out: %1").arg(heads.join(QStringLiteral(", ")));
    }
    return parts.join(QStringLiteral(" · "));
}

QString LensFigure::describe(int layer, int position) const {
    const LensGrid* g = lens();
    if (!g || layer < 0 || position < 0 || layer >= g->num_layers || position >= g->positions)
        return {};
    const auto k = std::size_t(position);
    QString head = LensText::tr("Layer %1 · token %2 “%3”")
                       .arg(layer + 1)
                       .arg(g->first_position + position + 1)
                       .arg(visible_token(g->tokens[k]));
    if (g->targets[k] >= 0)
        head += QStringLiteral(" · ") +
                (g->causal ? LensText::tr("next: “%1”") : LensText::tr("token: “%1”"))
                    .arg(visible_token(g->target_text[k]));
    QStringList lines{head};
    for (int r = 0; r < g->top_k; ++r)
        lines << QStringLiteral("%1. “%2” %3")
                     .arg(r + 1)
                     .arg(visible_token(g->top_text[g->at(layer, position, r)]))
                     .arg(percent(g->probability(layer, position, r)));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace attnviz::ui
