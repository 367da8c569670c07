#include "ui/render/zoom_map_figure.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <cmath>

#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {

constexpr int kTitle = 36;                 ///< the title's band
constexpr int kLeft = 150;                 ///< row labels and the axis title
constexpr int kBottom = 124;               ///< column labels, the axis title and the caption
constexpr int kZoomRight = 96;             ///< the colour bar and its values
constexpr int kSteps = 1024;               ///< colours of the scale
constexpr double kMinLabelSpacing = 11.0;  ///< pixels per row below which positions replace tokens
constexpr QRgb kOutside = 0xffffffff;      ///< past the map's edge: the page

QString short_number(double v) {
    return QString::number(v, 'g', 3);
}

/// A round step of positions (1, 2, 5 × 10^k) at least `min_px` apart at `ppc` pixels a cell.
std::int64_t tick_step(double ppc, double min_px) {
    for (std::int64_t decade = 1;; decade *= 10)
        for (std::int64_t m : {1, 2, 5})
            if (double(m * decade) * ppc >= min_px || m * decade > (std::int64_t(1) << 40))
                return m * decade;
}

}  // namespace

ZoomMapFigure::ZoomMapFigure() {
    setColormap(Colormap::Viridis);
    font_ = figure_font(12);
    title_font_ = figure_font(16, {}, true);
}

void ZoomMapFigure::setContent(ZoomMapContent content) {
    content_ = std::move(content);
    QStringList texts;
    for (const QString& t : content_.tokens)
        texts << t;
    font_ = figure_font(12, texts);
    title_font_ = figure_font(16, {content_.title}, true);
    if (content_.pyramid) {
        const double rows = double(content_.pyramid->rows()),
                     cols = double(content_.pyramid->cols());
        if (region_.isEmpty()) region_ = QRectF(0, 0, cols, rows);
    }
    cache_valid_ = false;
}

void ZoomMapFigure::setColormap(Colormap map) {
    colormap_ = map;
    QCPColorGradient g = make_gradient(map);
    lut_.resize(kSteps);
    for (int k = 0; k < kSteps; ++k)
        lut_[std::size_t(k)] = g.color(double(k) / (kSteps - 1), QCPRange(0.0, 1.0));
    cache_valid_ = false;
}

void ZoomMapFigure::setRegion(const QRectF& cells) {
    if (cells == region_) return;
    region_ = cells;
    cache_valid_ = false;
}

QRect ZoomMapFigure::plotFor(QSize size) {
    return QRect(kLeft, kTitle, std::max(16, size.width() - kLeft - kZoomRight),
                 std::max(16, size.height() - kTitle - kBottom));
}

void ZoomMapFigure::layout(QSize size) {
    size_ = size;
    plot_ = plotFor(size);
}

double ZoomMapFigure::pixelsPerCell() const {
    if (region_.isEmpty()) return 1.0;
    return std::min(plot_.width() / region_.width(), plot_.height() / region_.height());
}

QRectF ZoomMapFigure::regionRect() const {
    const double ppc = pixelsPerCell();
    const QSizeF s(region_.width() * ppc, region_.height() * ppc);
    return QRectF(QPointF(plot_.center().x() + 0.5 - s.width() / 2,
                          plot_.center().y() + 0.5 - s.height() / 2),
                  s);
}

QPointF ZoomMapFigure::cellAt(const QPointF& pos) const {
    const QRectF r = regionRect();
    const double ppc = pixelsPerCell();
    return QPointF(region_.x() + (pos.x() - r.x()) / ppc, region_.y() + (pos.y() - r.y()) / ppc);
}

QImage ZoomMapFigure::renderImage(QSize pixels, const QRectF& cells) const {
    const ops::MapPyramid& p = *content_.pyramid;
    const int W = pixels.width(), H = pixels.height();
    drawn_ = p.query(cells.top(), cells.bottom(), cells.left(), cells.right(), H, W);
    const ops::PyramidLevel& level = p.level(drawn_.level);
    const double s = double(level.scale);
    // Each pixel's cell of the level, or -1 past the map's edge: nearest, never interpolated.
    const auto indices = [s](int n, double from, double span, std::int64_t size) {
        std::vector<std::int64_t> out(static_cast<std::size_t>(n));
        for (int k = 0; k < n; ++k) {
            const double c = from + (k + 0.5) * span / n;
            out[std::size_t(k)] = c < 0.0 || c >= double(size) ? -1 : std::int64_t(c / s);
        }
        return out;
    };
    const std::vector<std::int64_t> cols = indices(W, cells.left(), cells.width(), p.cols());
    const std::vector<std::int64_t> rows = indices(H, cells.top(), cells.height(), p.rows());
    const float top = p.max_value() > 0.0f ? p.max_value() : 1.0f;
    const float to_step = float(kSteps - 1) / top;
    const QRgb masked = masked_cell_color(colormap_).rgb();
    const bool causal = content_.causal && p.rows() == p.cols();
    QImage image(W, H, QImage::Format_RGB32);
    for (int y = 0; y < H; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        const std::int64_t i = rows[std::size_t(y)];
        if (i < 0) {
            std::fill_n(line, W, kOutside);
            continue;
        }
        const float* values = level.values + i * level.cols;
        for (int x = 0; x < W; ++x) {
            const std::int64_t j = cols[std::size_t(x)];
            if (j < 0) {
                line[x] = kOutside;
            } else if (causal && j > i) {  // every cell of it above the diagonal
                line[x] = masked;
            } else {
                const int k = int(std::max(values[j], 0.0f) * to_step + 0.5f);
                line[x] = lut_[std::size_t(std::min(k, kSteps - 1))];
            }
        }
    }
    return image;
}

void ZoomMapFigure::paint(QPainter* p, bool /*vector*/) const {
    p->save();
    p->fillRect(QRect(QPoint(0, 0), size_), Qt::white);
    p->setPen(QColor(30, 30, 30));
    p->setFont(title_font_);
    p->drawText(QRect(12, 0, size_.width() - 24, kTitle), Qt::AlignLeft | Qt::AlignVCenter,
                titleText());
    if (!hasMap()) {
        p->restore();
        return;
    }
    const QRectF r = regionRect();
    // The image at the target's own resolution (a 2x PNG export gets twice the pixels), so no
    // pixel is ever smoothed across cells.
    const QTransform t = p->deviceTransform();
    const double scale = std::max(1.0, std::hypot(t.m11(), t.m12()));
    const QSize pixels(std::max(1, int(std::lround(r.width() * scale))),
                       std::max(1, int(std::lround(r.height() * scale))));
    if (!cache_valid_ || cache_.size() != pixels || cache_cells_ != region_) {
        cache_ = renderImage(pixels, region_);
        cache_cells_ = region_;
        cache_valid_ = true;
    }
    p->setRenderHint(QPainter::SmoothPixmapTransform, false);
    p->drawImage(r, cache_);
    // The map's edge, where it shows.
    const double ppc = pixelsPerCell();
    const ops::MapPyramid& pyr = *content_.pyramid;
    const QRectF map_rect(r.x() - region_.x() * ppc, r.y() - region_.y() * ppc, pyr.cols() * ppc,
                          pyr.rows() * ppc);
    p->setPen(QPen(QColor(120, 120, 120), 1));
    p->setBrush(Qt::NoBrush);
    p->drawRect(map_rect.intersected(r));
    paintLabels(p);
    paintColorBar(p);
    p->setFont(font_);
    p->setPen(QColor(90, 90, 90));
    p->drawText(QRect(12, size_.height() - 26, size_.width() - 24, 22),
                Qt::AlignLeft | Qt::AlignVCenter, captionText());
    p->restore();
}

void ZoomMapFigure::paintLabels(QPainter* p) const {
    const QRectF r = regionRect();
    const double ppc = pixelsPerCell();
    const std::int64_t L_rows = content_.pyramid->rows(), L_cols = content_.pyramid->cols();
    const bool tokens =
        ppc >= kMinLabelSpacing && std::int64_t(content_.tokens.size()) == std::max(L_rows, L_cols);
    const auto visible = [](double from, double span, std::int64_t size) {
        return std::pair(std::max<std::int64_t>(0, std::int64_t(std::floor(from))),
                         std::min<std::int64_t>(size, std::int64_t(std::ceil(from + span))));
    };
    const auto [i0, i1] = visible(region_.y(), region_.height(), L_rows);
    const auto [j0, j1] = visible(region_.x(), region_.width(), L_cols);
    // The tokens in view, run together: measured in the families they are drawn in (Chinese
    // in the CJK one, taller than the Latin one), so their lines do not run into each other.
    QString shown_tokens;
    if (tokens)
        for (std::int64_t k = std::min(i0, j0); k < std::max(i1, j1); ++k)
            shown_tokens += visible_token(content_.tokens[std::size_t(k)]);
    const QFont label = tokens ? label_font_for(font_, ppc, 9, shown_tokens) : font_;
    const QFontMetricsF fm(label);
    p->setFont(label);
    p->setPen(QColor(40, 40, 40));
    const double row_width = kLeft - 34, col_height = kBottom - 58;
    // Every token while their lines fit the rows, else every k-th (the rest on hover).
    const std::int64_t step =
        tokens ? label_stride(ppc, line_height(label, shown_tokens)) : tick_step(ppc, 48.0);
    const auto text_of = [&](std::int64_t k) {
        return tokens ? fm.elidedText(visible_token(content_.tokens[std::size_t(k)]),
                                      Qt::ElideRight, row_width)
                      : QString::number(k + 1);
    };
    const auto shown = [&](std::int64_t k) {
        return tokens ? k % step == 0 : (k + 1) % step == 0 || k == 0;
    };
    // Rows: queries, down the left edge.
    for (std::int64_t i = i0; i < i1; ++i) {
        if (!shown(i)) continue;
        const double y = r.y() + (double(i) + 0.5 - region_.y()) * ppc;
        if (y < r.top() - 1 || y > r.bottom() + 1) continue;
        p->drawText(QRectF(r.left() - row_width - 8, y - ppc / 2 - 10, row_width, ppc + 20),
                    Qt::AlignRight | Qt::AlignVCenter, text_of(i));
        if (!tokens) p->drawLine(QPointF(r.left() - 5, y), QPointF(r.left(), y));
    }
    // Columns: keys, along the bottom edge, read upwards.
    for (std::int64_t j = j0; j < j1; ++j) {
        if (!shown(j)) continue;
        const double x = r.x() + (double(j) + 0.5 - region_.x()) * ppc;
        if (x < r.left() - 1 || x > r.right() + 1) continue;
        if (!tokens) {
            p->drawLine(QPointF(x, r.bottom()), QPointF(x, r.bottom() + 5));
            p->drawText(QRectF(x - 40, r.bottom() + 6, 80, 18), Qt::AlignHCenter | Qt::AlignTop,
                        text_of(j));
            continue;
        }
        p->save();
        p->translate(x, r.bottom() + 6);
        p->rotate(-90);
        p->drawText(QRectF(-col_height, -ppc / 2 - 10, col_height, ppc + 20),
                    Qt::AlignRight | Qt::AlignVCenter,
                    fm.elidedText(visible_token(content_.tokens[std::size_t(j)]), Qt::ElideRight,
                                  col_height));
        p->restore();
    }
    // The axes' titles.
    p->setFont(font_);
    p->setPen(QColor(70, 70, 70));
    const QString query = tr("Query (row)"), key = tr("Key (column)");
    p->save();
    p->translate(14, plot_.center().y());
    p->rotate(-90);
    p->drawText(QRectF(-150, -10, 300, 20), Qt::AlignCenter, query);
    p->restore();
    const double key_y = tokens ? r.bottom() + col_height + 10 : r.bottom() + 28;
    p->drawText(QRectF(plot_.left(), key_y, plot_.width(), 20), Qt::AlignCenter, key);
}

void ZoomMapFigure::paintColorBar(QPainter* p) const {
    const QRect bar(plot_.right() + 18, plot_.top() + 4, 14, std::min(plot_.height() - 8, 320));
    QImage strip(1, kSteps, QImage::Format_RGB32);
    for (int k = 0; k < kSteps; ++k)
        strip.setPixel(0, kSteps - 1 - k, lut_[std::size_t(k)]);
    p->setRenderHint(QPainter::SmoothPixmapTransform, true);
    p->drawImage(bar, strip);
    p->setRenderHint(QPainter::SmoothPixmapTransform, false);
    p->setPen(QColor(120, 120, 120));
    p->drawRect(bar);
    p->setFont(font_);
    p->setPen(QColor(40, 40, 40));
    const double top = content_.pyramid->max_value() > 0.0f ? content_.pyramid->max_value() : 1.0;
    for (int k = 0; k <= 4; ++k) {
        const double y = bar.bottom() - bar.height() * k / 4.0;
        p->drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
        p->drawText(QRectF(bar.right() + 7, y - 9, kZoomRight - 36, 18),
                    Qt::AlignLeft | Qt::AlignVCenter, short_number(top * k / 4.0));
    }
}

QString ZoomMapFigure::titleText() const {
    return content_.title;
}

QString ZoomMapFigure::captionText() const {
    if (!hasMap()) return {};
    const ops::MapPyramid& p = *content_.pyramid;
    const auto first = [](double from) {
        return std::max<std::int64_t>(1, std::llround(from) + 1);
    };
    const auto last = [](double to, std::int64_t size) {
        return std::clamp<std::int64_t>(std::llround(to), 1, size);
    };
    QString text = tr("Queries %1–%2 × keys %3–%4 of %5 tokens")
                       .arg(first(region_.top()))
                       .arg(last(region_.bottom(), p.rows()))
                       .arg(first(region_.left()))
                       .arg(last(region_.right(), p.cols()))
                       .arg(std::max(p.rows(), p.cols()));
    const std::int64_t s = p.level(drawn_.level).scale;
    if (s > 1)
        text += p.mode() == ops::PoolMode::Max
                    ? tr(" · each pixel: the largest weight of %1 × %1 cells").arg(s)
                    : tr(" · each pixel: the mean weight of %1 × %1 cells").arg(s);
    text +=
        tr(" · colours from 0 to the map's largest weight, %1").arg(short_number(p.max_value()));
    return text;
}

}  // namespace attnviz::ui
