#include "ui/model/model_figure.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QLocale>
#include <QPainter>

#include <algorithm>

#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/render/knock_out_mark.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {
struct MosaicText {
    Q_DECLARE_TR_FUNCTIONS(ModelFigure)
};
}  // namespace

QRect MosaicLayout::cellRect(int layer, int column) const {
    if (layer < 0 || column < 0 || layer >= layers || column >= columns() || cell <= 0) return {};
    const int pitch = cell + gap;
    return QRect(area.x() + left + column * pitch + (column >= heads ? split : 0),
                 area.y() + top + layer * pitch, cell, cell);
}

QPoint MosaicLayout::headAt(const QPoint& pos) const {
    const int pitch = cell + gap;
    if (pitch <= 0) return QPoint(-1, -1);
    int x = pos.x() - area.x() - left;
    const int y = pos.y() - area.y() - top;
    if (x >= heads * pitch) x -= split;
    if (x < 0 || y < 0) return QPoint(-1, -1);
    const int column = x / pitch, layer = y / pitch;
    if (!cellRect(layer, column).contains(pos)) return QPoint(-1, -1);
    return QPoint(column, layer);
}

MosaicLayout layout_mosaic(const ModelMaps& maps, const QRect& area, const QFont& font,
                           ModelThumbnails shown) {
    MosaicLayout g;
    g.area = area;
    g.layers = maps.mosaicLayers(shown);
    g.heads = maps.num_heads;
    if (g.layers == 0 || g.heads == 0) return g;
    const QFontMetrics fm(font);
    g.left = fm.horizontalAdvance(MosaicText::tr("Layer %1").arg(g.layers)) + 12;
    g.top = fm.height() + 8;
    const int w = area.width() - g.left - 8, h = area.height() - g.top - 4;
    // columns cells and a third of one for the gap before the aggregates
    const int pitch = std::max(4, std::min(3 * w / (3 * g.columns() + 1), h / g.layers));
    g.gap = pitch >= 24 ? 3 : 1;
    g.cell = pitch - g.gap;
    g.split = std::max(4, pitch / 3);
    return g;
}

std::vector<QImage> focus_strips(const ModelMaps& m, int token, bool to) {
    std::vector<QImage> out;
    const int L = m.tokens;
    if (token < 0 || token >= L) return out;
    QCPColorGradient gradient = make_gradient(Colormap::Viridis);
    const int columns = m.num_heads + 2;
    std::vector<double> values(static_cast<std::size_t>(L));
    const QRgb grey = qRgb(236, 236, 236);
    for (int l = 0; l < m.num_layers; ++l)
        for (int c = 0; c < columns; ++c) {
            if (!m.hasMaps(c)) {  // a head the budget did not keep
                out.emplace_back();
                continue;
            }
            double hi = 0.0;
            for (int k = 0; k < L; ++k) {
                values[std::size_t(k)] =
                    double(to ? m.columnValue(l, c, k, token) : m.columnValue(l, c, token, k));
                hi = std::max(hi, values[std::size_t(k)]);
            }
            // Scaled to [0, 1] here: colorize() multiplies by (levels - 1) / hi, which can put
            // the strongest cell itself one level below the top colour; hi / hi is exactly 1.
            if (hi > 0.0)
                for (double& v : values)
                    v /= hi;
            QImage strip(L, 1, QImage::Format_RGB32);
            auto* line = reinterpret_cast<QRgb*>(strip.scanLine(0));
            gradient.colorize(values.data(), QCPRange(0.0, 1.0), line, L);
            if (m.causal)  // from: keys after the token; to: queries before it
                for (int k = 0; k < L; ++k)
                    if (to ? k < token : k > token) line[k] = grey;
            out.push_back(std::move(strip));
        }
    return out;
}

QString whole_text_note(const ModelMaps& m, ModelThumbnails shown) {
    if (shown == ModelThumbnails::Kept || !m.pooled) return {};
    const models::Pooling& g = m.pooled->pooling;
    return (shown == ModelThumbnails::WholeMax
                ? MosaicText::tr("Whole text (%1 tokens), pooled to %2 × %2 squares of %3 "
                                 "tokens: the largest weight in each")
                : MosaicText::tr("Whole text (%1 tokens), pooled to %2 × %2 squares of %3 "
                                 "tokens: the mean weight over what each query sees"))
        .arg(QLocale().toString(m.text_pieces))
        .arg(g.cells)
        .arg(g.cell);
}

void paint_mosaic(QPainter* p, const ModelMaps& m, const MosaicLayout& g, const QFont& font,
                  const QRect& clip, const std::vector<QImage>* images, ModelThumbnails shown) {
    const int pitch = g.cell + g.gap;
    const QFontMetrics fm(font);
    p->setFont(font);
    p->setPen(QColor(60, 60, 60));
    auto visible = [&](const QRect& r) { return clip.isNull() || r.intersects(clip); };
    // Head numbers above, layer names on the left (every k-th when crowded).
    const int head_every = label_stride(pitch, fm.horizontalAdvance(QStringLiteral("00")) + 4);
    for (int h = 0; h < g.heads; h += head_every) {
        const QRect r(g.area.x() + g.left + h * pitch, g.area.y(), std::max(pitch, 16), g.top - 2);
        const QString label = pitch >= fm.horizontalAdvance(MosaicText::tr("Head %1").arg(99)) + 8
                                  ? MosaicText::tr("Head %1").arg(h + 1)
                                  : QString::number(h + 1);
        if (visible(r)) p->drawText(r, Qt::AlignLeft | Qt::AlignBottom, label);
    }
    const bool room = pitch >= fm.horizontalAdvance(MosaicText::tr("Rollout")) + 4 &&
                      pitch >= fm.horizontalAdvance(MosaicText::tr("Mean")) + 4;
    const QString names[2] = {room ? MosaicText::tr("Mean") : MosaicText::tr("M", "mean"),
                              room ? MosaicText::tr("Rollout") : MosaicText::tr("R", "rollout")};
    for (int a = 0; a < 2; ++a) {
        const QRect cell = g.cellRect(0, g.heads + a);
        const QRect r(cell.x(), g.area.y(), std::max(pitch, 16), g.top - 2);
        if (visible(r)) p->drawText(r, Qt::AlignLeft | Qt::AlignBottom, names[a]);
    }
    // Layers and heads count from 1, as the heatmap grid's "Head 1" does.
    const int layer_every = label_stride(pitch, fm.height() + 2);
    for (int l = 0; l < g.layers; l += layer_every) {
        const QRect r(g.area.x(), g.area.y() + g.top + l * pitch, g.left - 6, g.cell);
        if (visible(r))
            p->drawText(r, Qt::AlignRight | Qt::AlignVCenter,
                        MosaicText::tr("Layer %1").arg(l + 1));
    }
    for (int l = 0; l < g.layers; ++l)
        for (int h = 0; h < g.columns(); ++h) {
            const QRect r = g.cellRect(l, h);
            if (!visible(r.adjusted(-3, -3, 3, 3))) continue;
            const QImage& img =
                images ? (*images)[std::size_t(l) * std::size_t(g.columns()) + std::size_t(h)]
                       : m.mosaicImage(l, h, shown);
            if (img.isNull()) {  // not kept (the memory budget): an empty, hatched cell
                p->fillRect(r, QColor(244, 244, 244));
                p->fillRect(r, QBrush(QColor(210, 210, 210), Qt::BDiagPattern));
                continue;
            }
            // Shrinking a long input's map: smooth, so a line of strong cells stays visible.
            p->setRenderHint(QPainter::SmoothPixmapTransform, img.width() > r.width());
            p->drawImage(r, img);
            if (shown != ModelThumbnails::Kept && m.windowed() && r.width() >= 16) {
                // Where the kept window lies in the whole text: a dashed square.
                const models::Pooling& pooling = m.pooled->pooling;
                const double scale = double(r.width()) / double(pooling.cell * pooling.cells);
                const double a = m.first_piece * scale, b = (m.first_piece + m.pieces) * scale;
                p->setPen(QPen(QColor(255, 255, 255, 200), 1, Qt::DashLine));
                p->setBrush(Qt::NoBrush);
                p->drawRect(QRectF(r.x() + a, r.y() + a, b - a, b - a));
            }
            if (h < g.heads)
                if (const auto k = m.knocked_out.find({l, h}); k != m.knocked_out.end())
                    paint_knocked_out(p, QRectF(r), k->second);
        }
}

void ModelFigure::layout(QSize size) {
    size_ = size;
    QStringList tokens;
    if (snapshot_ && snapshot_->model)
        for (const QString& t : snapshot_->model->token_text)
            tokens << t;
    font_ = figure_font(options_.font_px, tokens);
    const double y = title_.layout(options_, titleText(), captionText(), 8, size.width(), 16);
    if (!snapshot_ || !snapshot_->model) return;
    strips_ = focusToken() >= 0
                  ? focus_strips(*snapshot_->model, options_.focus_token, options_.focus_to)
                  : std::vector<QImage>();
    // The legend runs under the mosaic from its cells' left edge (which the row labels
    // decide, not the height); its wrapped height decides how tall the mosaic may be.
    legend_ = legendText();
    const QRect area(16, int(y) + 8, size.width() - 32, size.height() - int(y) - 16);
    const int left = area.x() + layout_mosaic(*snapshot_->model, area, font_, shown()).left;
    const int width = std::max(100, size.width() - left - 16);
    legend_rect_ = QRect(left, 0, width,
                         QFontMetrics(legendFont())
                             .boundingRect(QRect(0, 0, width, 100000),
                                           Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, legend_)
                             .height());
    mosaic_ = layout_mosaic(*snapshot_->model, area.adjusted(0, 0, 0, -legend_rect_.height()),
                            font_, shown());
    legend_rect_.moveTop(mosaic_.bottom() + 4);
}

int ModelFigure::usedHeight() const {
    if (!snapshot_ || !snapshot_->model) return -1;
    // The mosaic's width decides its cells: a model of few layers leaves the rest blank.
    const int used = legend_rect_.bottom() + 16;
    return used < size_.height() ? used : -1;
}

void ModelFigure::paint(QPainter* painter, bool) const {
    painter->fillRect(QRect(QPoint(0, 0), size_), Qt::white);
    title_.paint(painter, options_);
    if (!snapshot_ || !snapshot_->model) return;
    paint_mosaic(painter, *snapshot_->model, mosaic_, font_, QRect(),
                 strips_.empty() ? nullptr : &strips_, shown());
    painter->setFont(legendFont());
    painter->setPen(paint::kMuted);
    painter->drawText(legend_rect_, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, legend_);
}

QFont ModelFigure::legendFont() const {
    QFont small = font_;
    small.setPixelSize(std::max(8, options_.font_px - 2));
    return small;
}

QString ModelFigure::legendText() const {
    QString text = focusToken() < 0
                       ? MosaicText::tr(
                             "Rows: layers. Columns: heads, then the layer's mean over heads and "
                             "the attention rollout through it (residual included). Each map "
                             "coloured from 0 (dark) to its own largest weight (yellow); grey: "
                             "masked.")
                   : options_.focus_to
                       ? MosaicText::tr(
                             "Rows: layers. Columns: heads, mean, rollout. In each cell, left to "
                             "right: every query token's attention to this one, coloured from 0 "
                             "to the cell's largest (yellow); grey: masked.")
                       : MosaicText::tr(
                             "Rows: layers. Columns: heads, mean, rollout. In each cell, left to "
                             "right: this token's attention to every key token, coloured from 0 "
                             "to the cell's largest (yellow); grey: masked.");
    if (snapshot_ && snapshot_->model && snapshot_->model->norm_based)
        text += QLatin1Char(' ') +
                (shown() != ModelThumbnails::Kept
                     ? MosaicText::tr("Norm-based ‖α·f(x)‖ is shown in the kept maps; the whole "
                                      "text's squares are of the weights.")
                     : MosaicText::tr("Norm-based: each head's ‖α·f(x)‖, how much each key's "
                                      "value moves the output; Mean: the heads together; the "
                                      "rollout runs through the weights."));
    if (snapshot_ && snapshot_->model && !snapshot_->model->knocked_out.empty())
        text += QLatin1Char(' ') + MosaicText::tr(
                                       "Crossed out: a head knocked out of the model's pass "
                                       "(its output replaced by zeros or by its mean); the "
                                       "layers above it and the predictions change.");
    if (shown() != ModelThumbnails::Kept)
        text +=
            QLatin1Char(' ') + MosaicText::tr(
                                   "%1. Mean: the heads' squares averaged. Hatched: a rollout the "
                                   "pass did not have over the whole text.")
                                   .arg(whole_text_note(*snapshot_->model, shown()));
    else if (snapshot_ && snapshot_->model &&
             snapshot_->model->heads_kept < snapshot_->model->num_heads)
        text += QLatin1Char(' ') + MosaicText::tr(
                                       "Hatched: a head whose maps the memory budget "
                                       "did not keep.");
    if (shown() != ModelThumbnails::Kept && snapshot_->model->windowed())
        text +=
            QLatin1Char(' ') + MosaicText::tr("Dashed: the kept window, tokens %1–%2.")
                                   .arg(snapshot_->model->first_piece + 1)
                                   .arg(snapshot_->model->first_piece + snapshot_->model->pieces);
    return text;
}

ModelThumbnails ModelFigure::shown() const {
    return snapshot_ && snapshot_->model
               ? snapshot_->model->shownThumbnails(options_.model_thumbnails, focusToken())
               : ModelThumbnails::Kept;
}

QString ModelFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (!snapshot_ || !snapshot_->model) return MosaicText::tr("Every layer and head");
    const ModelMaps& m = *snapshot_->model;
    const QString norm = m.norm_based ? MosaicText::tr(" · norm-based") : QString();
    if (const int t = focusToken(); t >= 0) {
        const QString token = visible_token(m.token_text[std::size_t(t)]);
        return (options_.focus_to
                    ? MosaicText::tr("Attention to “%1” (token %2) in every layer and head of %3")
                    : MosaicText::tr(
                          "Attention from “%1” (token %2) in every layer and head of %3"))
                   .arg(token)
                   .arg(m.first_token + t + 1)  // in the whole text
                   .arg(m.name) +
               norm;
    }
    return MosaicText::tr("Every layer and head of %1").arg(m.name) + norm;
}

int ModelFigure::focusToken() const {
    const int t = options_.focus_token;
    return snapshot_ && snapshot_->model && t >= 0 && t < snapshot_->model->tokens ? t : -1;
}

QString ModelFigure::captionText() const {
    if (!snapshot_ || !snapshot_->model) return {};
    const ModelMaps& m = *snapshot_->model;
    QStringList tokens;
    for (const QString& t : m.token_text)
        tokens << visible_token(t);
    if (shown() != ModelThumbnails::Kept)  // over the model's pieces, every one
        return MosaicText::tr("%1 layers × %2 heads").arg(m.pooled->layers).arg(m.num_heads) +
               QStringLiteral(" · ") + whole_text_note(m, shown());
    QStringList parts{MosaicText::tr("%1 layers × %2 heads · %3 tokens: %4")
                          .arg(m.num_layers)
                          .arg(m.num_heads)
                          .arg(m.tokens)
                          .arg(tokens.join(QStringLiteral(" | ")))};
    if (m.total_layers > m.num_layers)
        parts << MosaicText::tr("layers 1–%1 of %2 kept (memory budget)")
                     .arg(m.num_layers)
                     .arg(m.total_layers);
    if (m.windowed())
        parts << MosaicText::tr(
                     "pieces %1–%2 of %3: the softmax, the atlas and the rollout are "
                     "over every piece")
                     .arg(m.first_piece + 1)
                     .arg(m.first_piece + m.pieces)
                     .arg(m.text_pieces);
    if (m.heads_kept == 0)
        parts << MosaicText::tr("the means only kept (memory budget)");
    else if (m.heads_kept < m.num_heads)
        parts << MosaicText::tr("heads 1–%1 of %2 kept (memory budget)")
                     .arg(m.heads_kept)
                     .arg(m.num_heads);
    parts << token_view_notes(snapshot_->config);
    return parts.join(QStringLiteral(" · "));
}

}  // namespace attnviz::ui
