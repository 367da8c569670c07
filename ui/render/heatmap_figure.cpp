#include "ui/render/heatmap_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "ui/compute/resolved_config.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/render/generated_tokens.h"
#include "ui/render/knock_out_mark.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const QColor kAxisColor(0x80, 0x80, 0x80);
const QColor kTextColor(0x20, 0x20, 0x20);
const QColor kCaptionColor(0x55, 0x55, 0x55);
const QColor kMarkColor(0xd6, 0x27, 0x28);  // fully masked rows, struck-out labels
constexpr int kMaxVectorCells = 160000;     // above this, vector exports embed an image
constexpr int kMaxValueCells = 24;          // values printed only up to 24 x 24 cells
constexpr int kMinTickPx = 7;               // token labels shrink to this before thinning

// Cell k of an axis is centred on k.  QCPColorMap spans its key range edge-to-edge when the
// map has one cell, and centre-to-centre otherwise.
QCPRange cell_range(int n) {
    return n <= 1 ? QCPRange(-0.5, 0.5) : QCPRange(0, n - 1);
}

QString wrap_parts(const QStringList& parts, const QFontMetricsF& fm, double width) {
    QStringList lines;
    QString line;
    const QString sep = QStringLiteral("  ·  ");
    for (const QString& part : parts) {
        const QString candidate = line.isEmpty() ? part : line + sep + part;
        if (!line.isEmpty() && fm.horizontalAdvance(candidate) > width) {
            lines << line;
            line = part;
        } else {
            line = candidate;
        }
    }
    if (!line.isEmpty()) lines << line;
    return lines.join(QLatin1Char('\n'));
}

QCPRange display_range(std::pair<float, float> r) {
    const double lo = r.first, hi = r.second;
    if (hi - lo > 1e-6) return QCPRange(lo, hi);
    return QCPRange(std::min(0.0, lo), std::max(hi, std::min(0.0, lo) + 1.0));
}

/// The layer's head count (snapshots built by hand in tests may leave num_heads 0).
int model_heads(const AttentionSnapshot& s) {
    return std::max(s.num_heads, s.heads);
}

QString format_value(double v) {
    if (std::isnan(v)) return QStringLiteral("NaN");
    if (v != 0.0 && std::abs(v) < 0.005) return QStringLiteral("<.01");
    return QString::number(v, 'f', 2);
}
}  // namespace

// --- colour-map data ----------------------------------------------------------------------

std::unique_ptr<QCPColorMapData> build_map_data(const AttentionSnapshot& s, int n, int h) {
    const int L = s.target_len, S = s.source_len;
    auto data = std::make_unique<QCPColorMapData>(S, L, cell_range(S), cell_range(L));
    for (int i = 0; i < L; ++i)
        for (int j = 0; j < S; ++j)
            data->setCell(j, i, s.is_masked(n, i, j) ? kNaN : double(s.value(n, h, i, j)));
    return data;
}

QCPRange colour_range(const AttentionSnapshot& s, int n, int h, ScaleMode scale) {
    switch (scale) {
        case ScaleMode::Unit:
            return QCPRange(0.0, 1.0);
        case ScaleMode::PerHead:
            return display_range(s.panel_range(n, h));
        case ScaleMode::Shared:
            break;
    }
    // The data's own range, so structure in near-uniform attention stays visible (the colour
    // bar states the numbers).
    return display_range(s.item_range(n));
}

namespace {
/// The panel coloured exactly as QCPColorMap would colour it (same gradient, same NaN
/// colour), one pixel per cell, query 0 in the top row.
QImage colour_image(const AttentionSnapshot& s, int n, int h, QCPColorGradient& gradient,
                    const QCPRange& range) {
    const int L = s.target_len, S = s.source_len;
    QImage image(S, L, QImage::Format_ARGB32_Premultiplied);
    std::vector<double> row(static_cast<std::size_t>(S));
    for (int i = 0; i < L; ++i) {
        for (int j = 0; j < S; ++j)
            row[std::size_t(j)] = s.is_masked(n, i, j) ? kNaN : double(s.value(n, h, i, j));
        gradient.colorize(row.data(), range, reinterpret_cast<QRgb*>(image.scanLine(i)), S);
    }
    return image;
}
}  // namespace

PreparedMaps build_prepared_maps(const AttentionSnapshot& s, Colormap colormap, ScaleMode scale) {
    PreparedMaps out;
    out.generation = s.generation;
    out.batch = s.batch;
    out.heads = s.heads;
    out.colormap = colormap;
    out.scale = scale;
    QCPColorGradient gradient = make_gradient(colormap);  // this thread's own copy
    for (int n = 0; n < s.batch; ++n)
        for (int slot = 0; slot <= s.heads; ++slot) {
            const int h = slot == s.heads ? -1 : slot;
            out.maps.push_back(build_map_data(s, n, h));
            out.images.push_back(colour_image(s, n, h, gradient, colour_range(s, n, h, scale)));
        }
    return out;
}

QImage PreparedMaps::image(int n, int h) const {
    const std::size_t index = std::size_t(n) * (heads + 1) + (h < 0 ? heads : h);
    return index < images.size() ? images[index] : QImage();
}

std::unique_ptr<QCPColorMapData> PreparedMaps::take(int n, int h) {
    const int slot = h < 0 ? heads : h;
    const std::size_t index = std::size_t(n) * (heads + 1) + slot;
    if (n < 0 || n >= batch || slot > heads || index >= maps.size()) return nullptr;
    return std::move(maps[index]);
}

// --- drawing helpers ----------------------------------------------------------------------

/// A colour map whose cells stay crisp in vector output: in PDF/SVG every cell is a filled
/// rectangle (runs of equal colour merged) instead of an embedded image that viewers smooth.
class CrispColorMap : public QCPColorMap {
  public:
    using QCPColorMap::QCPColorMap;

    /// An image coloured off the GUI thread; drawn instead of QCPColorMap's own while the
    /// map's range and gradient still match it.
    void setPreparedImage(QImage image, const QCPRange& range, const QCPColorGradient& g) {
        prepared_ = std::move(image);
        prepared_range_ = range;
        prepared_gradient_ = g;
    }

  protected:
    void draw(QCPPainter* painter) override {
        QCPColorMapData* d = data();
        if (!d || d->isEmpty() || !keyAxis() || !valueAxis()) return;
        const bool vector = painter->modes().testFlag(QCPPainter::pmVectorized);
        if (vector && d->keySize() * d->valueSize() <= kMaxVectorCells) {
            drawCells(painter, d);
        } else if (!prepared_.isNull() && prepared_.width() == d->keySize() &&
                   prepared_.height() == d->valueSize() && prepared_range_ == dataRange() &&
                   prepared_gradient_ == gradient()) {
            drawPrepared(painter);
        } else {
            QCPColorMap::draw(painter);
        }
    }

  private:
    void drawPrepared(QCPPainter* painter) {
        const int S = prepared_.width(), L = prepared_.height();
        const QCPRange xr = keyAxis()->range(), yr = valueAxis()->range();
        const int j0 = std::clamp(int(std::floor(xr.lower + 0.5)), 0, S - 1);
        const int j1 = std::clamp(int(std::ceil(xr.upper - 0.5)), 0, S - 1);
        const int i0 = std::clamp(int(std::floor(yr.lower + 0.5)), 0, L - 1);
        const int i1 = std::clamp(int(std::ceil(yr.upper - 0.5)), 0, L - 1);
        const double top = valueAxis()->coordToPixel(i0 - 0.5);
        const double bottom = valueAxis()->coordToPixel(i1 + 0.5);
        QImage source = prepared_.copy(j0, i0, j1 - j0 + 1, i1 - i0 + 1);
        if (top > bottom) source.mirror(false, true);  // not reversed: query 0 at the bottom
        const QRectF target = QRectF(QPointF(keyAxis()->coordToPixel(j0 - 0.5), top),
                                     QPointF(keyAxis()->coordToPixel(j1 + 0.5), bottom))
                                  .normalized();
        painter->save();
        // Crisp when cells are bigger than a pixel; filtered when many cells share a pixel,
        // where nearest-neighbour sampling would show an arbitrary subset of them.
        painter->setRenderHint(
            QPainter::SmoothPixmapTransform,
            target.width() < source.width() || target.height() < source.height());
        painter->drawImage(target, source);
        painter->restore();
    }

    void drawCells(QCPPainter* painter, QCPColorMapData* d) {
        QCPColorGradient g = gradient();
        const QCPRange range = dataRange();
        const QColor nan_color = g.nanColor();
        painter->setAntialiasing(false);
        painter->setPen(Qt::NoPen);
        auto color_at = [&](int k, int v) {
            const double z = d->cell(k, v);
            return std::isnan(z) ? nan_color.rgb() : g.color(z, range);
        };
        for (int v = 0; v < d->valueSize(); ++v) {
            const double y0 = valueAxis()->coordToPixel(v - 0.5);
            const double y1 = valueAxis()->coordToPixel(v + 0.5);
            int k = 0;
            while (k < d->keySize()) {
                const QRgb c = color_at(k, v);
                int end = k + 1;
                while (end < d->keySize() && color_at(end, v) == c)
                    ++end;
                const double x0 = keyAxis()->coordToPixel(k - 0.5);
                const double x1 = keyAxis()->coordToPixel(end - 0.5);
                // A quarter pixel of overlap hides the hairline seams viewers draw between
                // abutting antialiased rectangles.
                QRectF r = QRectF(QPointF(x0, y0), QPointF(x1, y1)).normalized();
                r.adjust(-0.125, -0.125, 0.125, 0.125);
                painter->fillRect(r, QColor(c));
                k = end;
            }
        }
    }

    QImage prepared_;
    QCPRange prepared_range_;
    QCPColorGradient prepared_gradient_;
};

/// Hatching over masked cells, red outlines around fully masked rows, values inside the
/// cells when there is room, and a strike through the labels of clicked-masked keys.
class PanelOverlay : public QCPLayerable {
  public:
    PanelOverlay(HeatmapFigure* figure, int panel)
        : QCPLayerable(figure->plot_, QStringLiteral("masks")), figure_(figure), panel_(panel) {}

  protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override {
        applyAntialiasingHint(painter, true, QCP::aeOther);
    }
    QRect clipRect() const override { return figure_->panels_[panel_].rect->outerRect(); }

    void draw(QCPPainter* painter) override {
        const HeatmapFigure::Panel& p = figure_->panels_[panel_];
        if (!figure_->snapshot_) return;
        const View v(*figure_->snapshot_, figure_->batchItem(), p);

        painter->save();
        painter->setClipRect(v.inner);
        drawHatching(painter, v);
        drawMaskedRowOutlines(painter, v);
        drawSecondTextStart(painter, v);
        drawGeneratedStart(painter, v);
        painter->restore();
        drawGeneratedBars(painter, v);
        drawMaskedRowTicks(painter, v);
        if (figure_->values_) drawValues(painter, v, *p.map);
        drawStruckKeys(painter, v, p.x_ticker->labels());
        // A knocked-out head of a model: crossed out, its map still the pattern it computed.
        if (v.s.model && v.head >= 0)
            if (const auto k = v.s.model->knocked_out.find({v.s.layer, v.head});
                k != v.s.model->knocked_out.end())
                paint_knocked_out(painter, QRectF(v.inner), k->second);
    }

  private:
    /// The panel's axes and the cells in view, which every layer of the overlay draws over.
    struct View {
        View(const AttentionSnapshot& snapshot, int item, const HeatmapFigure::Panel& p)
            : s(snapshot),
              n(item),
              head(p.head),
              x(p.rect->axis(QCPAxis::atBottom)),
              y(p.rect->axis(QCPAxis::atLeft)),
              inner(p.rect->rect()) {
            j0 = std::max(0, int(std::floor(x->range().lower + 0.5)));
            j1 = std::min(s.source_len - 1, int(std::ceil(x->range().upper - 0.5)));
            i0 = std::max(0, int(std::floor(y->range().lower + 0.5)));
            i1 = std::min(s.target_len - 1, int(std::ceil(y->range().upper - 0.5)));
            cw = std::abs(x->coordToPixel(1) - x->coordToPixel(0));
            ch = std::abs(y->coordToPixel(1) - y->coordToPixel(0));
        }
        /// Cells ja..jb of query row i, in pixels.
        QRectF cellRect(int i, int ja, int jb) const {
            return QRectF(QPointF(x->coordToPixel(ja - 0.5), y->coordToPixel(i - 0.5)),
                          QPointF(x->coordToPixel(jb + 0.5), y->coordToPixel(i + 0.5)))
                .normalized();
        }

        const AttentionSnapshot& s;
        int n;
        int head;
        QCPAxis* x;
        QCPAxis* y;
        QRect inner;
        int i0 = 0, i1 = 0, j0 = 0, j1 = 0;  ///< the rows and columns in view
        double cw = 0.0, ch = 0.0;           ///< a cell's width and height in pixels
    };

    /// Hatching: one diagonal-line pattern per run of masked cells in a row.
    void drawHatching(QCPPainter* painter, const View& v) const {
        if (v.cw < 3.0 || v.ch < 3.0) return;
        QPen pen(masked_hatch_color(figure_->options_.colormap), 1.0);
        pen.setCosmetic(false);
        painter->setPen(pen);
        const double spacing = 6.0;
        std::vector<QLineF> lines;
        for (int i = v.i0; i <= v.i1; ++i) {
            int j = v.j0;
            while (j <= v.j1) {
                if (!v.s.is_masked(v.n, i, j)) {
                    ++j;
                    continue;
                }
                int end = j;
                while (end + 1 <= v.j1 && v.s.is_masked(v.n, i, end + 1))
                    ++end;
                const QRectF r = v.cellRect(i, j, end);
                // Lines x + y = t, t on a fixed grid so runs in adjacent rows line up.
                const double t0 = std::ceil((r.left() + r.top()) / spacing) * spacing;
                for (double t = t0; t < r.right() + r.bottom(); t += spacing) {
                    const double xa = std::max(r.left(), t - r.bottom());
                    const double xb = std::min(r.right(), t - r.top());
                    if (xb > xa) lines.emplace_back(QPointF(xa, t - xa), QPointF(xb, t - xb));
                }
                j = end + 1;
            }
        }
        painter->drawLines(lines.data(), int(lines.size()));
    }

    /// Fully masked rows: a red outline when rows are tall enough (drawMaskedRowTicks marks
    /// thin ones in the margin).
    static void drawMaskedRowOutlines(QCPPainter* painter, const View& v) {
        QPen mark(kMarkColor, v.ch >= 4.0 ? 2.0 : 1.0);
        painter->setPen(mark);
        painter->setBrush(Qt::NoBrush);
        for (int i = v.i0; i <= v.i1; ++i) {
            if (!v.s.row_fully_masked(v.n, v.head, i)) continue;
            if (v.ch >= 4.0) {
                QRectF r = v.cellRect(i, std::max(v.j0, 0), std::max(v.j1, 0));
                r.setLeft(v.inner.left() + 1);
                r.setRight(v.inner.right() - 0);
                painter->drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
            }
        }
    }

    /// A pair's second text ([CLS] A [SEP] B [SEP]): a dashed line before its first query
    /// and its first key, white on a dark edge so it reads on every colour map.
    static void drawSecondTextStart(QCPPainter* painter, const View& v) {
        const int b = v.s.model ? v.s.model->secondTextStart() : -1;
        if (b <= 0) return;
        const double xx = v.x->coordToPixel(b - 0.5), yy = v.y->coordToPixel(b - 0.5);
        for (const auto& [pen_colour, width, dashed] :
             {std::tuple{QColor(0, 0, 0, 150), 3.5, false},
              std::tuple{QColor(Qt::white), 1.5, true}}) {
            QPen pen(pen_colour, width, dashed ? Qt::DashLine : Qt::SolidLine);
            painter->setPen(pen);
            painter->drawLine(QPointF(xx, v.inner.top()), QPointF(xx, v.inner.bottom()));
            painter->drawLine(QPointF(v.inner.left(), yy), QPointF(v.inner.right(), yy));
        }
    }

    /// The model's own tokens (the generation timeline): an orange line before the first of
    /// them, on a dark edge.
    static void drawGeneratedStart(QCPPainter* painter, const View& v) {
        const int g = v.s.model ? v.s.model->firstGeneratedToken() : -1;
        if (g < 0) return;
        const double xx = v.x->coordToPixel(g - 0.5), yy = v.y->coordToPixel(g - 0.5);
        for (const auto& [pen_colour, width] :
             {std::pair{QColor(0, 0, 0, 150), 4.0}, std::pair{generated_token_color(), 2.0}}) {
            painter->setPen(QPen(pen_colour, width));
            painter->drawLine(QPointF(xx, v.inner.top()), QPointF(xx, v.inner.bottom()));
            painter->drawLine(QPointF(v.inner.left(), yy), QPointF(v.inner.right(), yy));
        }
    }

    /// An orange bar along both axes under the tokens the model wrote, outside the cells.
    static void drawGeneratedBars(QCPPainter* painter, const View& v) {
        const int g = v.s.model ? v.s.model->firstGeneratedToken() : -1;
        if (g < 0) return;
        const double last = v.s.model->tokens - 0.5;
        const QColor c = generated_token_color();
        painter->fillRect(QRectF(QPointF(v.x->coordToPixel(g - 0.5), v.inner.bottom() + 1),
                                 QPointF(v.x->coordToPixel(last), v.inner.bottom() + 4)),
                          c);
        painter->fillRect(QRectF(QPointF(v.inner.left() - 4, v.y->coordToPixel(g - 0.5)),
                                 QPointF(v.inner.left() - 1, v.y->coordToPixel(last))),
                          c);
    }

    /// Fully masked rows too thin for an outline: a red tick in the margin.
    static void drawMaskedRowTicks(QCPPainter* painter, const View& v) {
        if (v.ch >= 4.0) return;
        painter->setPen(QPen(kMarkColor, 2.0));
        for (int i = v.i0; i <= v.i1; ++i)
            if (v.s.row_fully_masked(v.n, v.head, i)) {
                const double yy = v.y->coordToPixel(i);
                painter->drawLine(QPointF(v.inner.left() - 6, yy), QPointF(v.inner.left() - 2, yy));
            }
    }

    /// The weights printed inside the cells, dark or light on their colour.
    void drawValues(QCPPainter* painter, const View& v, const QCPColorMap& map) const {
        painter->save();
        painter->setClipRect(v.inner);
        painter->setFont(figure_->value_font_);
        QCPColorGradient g = map.gradient();
        const QCPRange range = map.dataRange();
        for (int i = v.i0; i <= v.i1; ++i)
            for (int j = v.j0; j <= v.j1; ++j) {
                if (v.s.is_masked(v.n, i, j)) continue;
                const double value = v.s.value(v.n, v.head, i, j);
                const QColor bg = std::isnan(value) ? g.nanColor() : QColor(g.color(value, range));
                painter->setPen(text_color_on(bg));
                painter->drawText(v.cellRect(i, j, j), Qt::AlignCenter, format_value(value));
            }
        painter->restore();
    }

    /// Clicked-masked keys: their labels struck through.
    void drawStruckKeys(QCPPainter* painter, const View& v, const QVector<QString>& labels) const {
        const auto& masked = v.s.config.masked_keys;
        if (masked.empty()) return;
        QCPAxis* x = v.x;
        const QFontMetricsF fm(figure_->tick_font_);
        const double base =
            v.inner.bottom() + x->offset() + x->tickLengthOut() + x->tickLabelPadding() + 1;
        painter->setPen(QPen(kMarkColor, 1.5));
        const QVector<double> ticks = x->tickVector();
        for (double t : ticks) {
            const int j = int(std::lround(t));
            if (j < 0 || j >= labels.size() || !masked.count({v.n, j + v.s.key_offset})) continue;
            const double w = fm.horizontalAdvance(labels[j]);
            const double px = x->coordToPixel(j);
            if (figure_->rotate_keys_)
                painter->drawLine(QPointF(px, base), QPointF(px, base + w));
            else
                painter->drawLine(QPointF(px - w / 2 - 1, base + fm.height() / 2),
                                  QPointF(px + w / 2 + 1, base + fm.height() / 2));
        }
    }

    HeatmapFigure* figure_;
    int panel_;
};

/// The hovered query row and key column, outlined in every panel at once.
class HoverOverlay : public QCPLayerable {
  public:
    explicit HoverOverlay(HeatmapFigure* figure)
        : QCPLayerable(figure->plot_, QStringLiteral("hover")), figure_(figure) {}

  protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override {
        applyAntialiasingHint(painter, false, QCP::aeOther);
    }
    void draw(QCPPainter* painter) override {
        const int row = figure_->hl_row_, col = figure_->hl_col_;
        if ((row < 0 && col < 0) || !figure_->snapshot_) return;
        for (const auto& p : figure_->panels_) {
            QCPAxis* x = p.rect->axis(QCPAxis::atBottom);
            QCPAxis* y = p.rect->axis(QCPAxis::atLeft);
            const QRect inner = p.rect->rect();
            painter->save();
            painter->setClipRect(inner);
            painter->setBrush(QColor(255, 255, 255, 40));
            auto band = [&](QRectF r) {
                painter->setPen(QPen(QColor(0, 0, 0, 150), 1.0));
                painter->drawRect(r.adjusted(-1, -1, 1, 1));
                painter->setPen(QPen(QColor(255, 255, 255, 230), 1.0));
                painter->drawRect(r);
            };
            if (row >= 0 && row < figure_->snapshot_->target_len) {
                const double y0 = y->coordToPixel(row - 0.5), y1 = y->coordToPixel(row + 0.5);
                band(QRectF(QPointF(inner.left() + 1, y0), QPointF(inner.right() - 1, y1))
                         .normalized());
            }
            if (col >= 0 && col < figure_->snapshot_->source_len) {
                const double x0 = x->coordToPixel(col - 0.5), x1 = x->coordToPixel(col + 0.5);
                band(QRectF(QPointF(x0, inner.top() + 1), QPointF(x1, inner.bottom() - 1))
                         .normalized());
            }
            painter->restore();
        }
    }

  private:
    HeatmapFigure* figure_;
};

// --- the figure ---------------------------------------------------------------------------

HeatmapFigure::HeatmapFigure(QCustomPlot* plot) : QObject(plot), plot_(plot) {
    if (!plot_->layer(QStringLiteral("masks")))
        plot_->addLayer(QStringLiteral("masks"), plot_->layer(QStringLiteral("main")),
                        QCustomPlot::limAbove);
    // Every replot clears each paint buffer and the widget's paint composes them all, each
    // the plot's size: one buffer for everything but the hover, redrawn alone as the mouse
    // moves, and one for the hover on top.  Below the default "overlay" layer (itself
    // buffered, and empty here) the hover made four: in a generation on Qwen2.5-0.5B's
    // shape (ui_bench), each token's replot took 10.3-11.1 ms of the GUI thread against
    // 9.1-9.4 now.
    if (QCPLayer* overlay = plot_->layer(QStringLiteral("overlay")))
        overlay->setMode(QCPLayer::lmLogical);
    if (!plot_->layer(QStringLiteral("hover"))) {
        plot_->addLayer(QStringLiteral("hover"), plot_->layer(plot_->layerCount() - 1),
                        QCustomPlot::limAbove);
        plot_->layer(QStringLiteral("hover"))->setMode(QCPLayer::lmBuffered);
    }
    plot_->setBackground(Qt::white);
    plot_->plotLayout()->clear();
    plot_->plotLayout()->setRowSpacing(0);
    plot_->plotLayout()->setColumnSpacing(0);
}

HeatmapFigure::~HeatmapFigure() = default;

void HeatmapFigure::setSnapshot(SnapshotPtr snapshot, std::shared_ptr<PreparedMaps> maps) {
    snapshot_ = std::move(snapshot);
    maps_ = std::move(maps);
    data_dirty_ = true;
}

void HeatmapFigure::setOptions(const FigureOptions& options) {
    if (options.batch_item != options_.batch_item || options.colormap != options_.colormap ||
        options.scale != options_.scale || options.view != options_.view ||
        options.head != options_.head)
        data_dirty_ = true;
    options_ = options;
}

void HeatmapFigure::setInteractive(bool on) {
    interactive_ = on;
    plot_->setInteractions(on ? QCP::Interactions(QCP::iRangeDrag | QCP::iRangeZoom)
                              : QCP::Interactions());
    for (auto& p : panels_) {
        p.rect->setRangeDrag(on ? Qt::Horizontal | Qt::Vertical : Qt::Orientations());
        p.rect->setRangeZoom(on ? Qt::Horizontal | Qt::Vertical : Qt::Orientations());
    }
}

int HeatmapFigure::batchItem() const {
    if (!snapshot_) return 0;
    return std::clamp(options_.batch_item, 0, std::max(0, snapshot_->batch - 1));
}

std::vector<int> HeatmapFigure::panelHeads() const {
    if (!snapshot_) return {};
    const int H = snapshot_->heads;  // the kept heads; with none (the mean only) the mean
    switch (options_.view) {
        case FigureView::Mean:
            return {-1};
        case FigureView::Head:
            if (H == 0) return {-1};
            return {std::clamp(options_.head, 0, H - 1)};
        case FigureView::Grid:
            break;
    }
    std::vector<int> heads;
    for (int h = 0; h < H; ++h)
        heads.push_back(h);
    if (std::max(H, snapshot_->num_heads) > 1 || H == 0) heads.push_back(-1);
    return heads;
}

int HeatmapFigure::panelHead(int panel) const {
    return panel >= 0 && panel < panelCount() ? panels_[panel].head : -1;
}
QCPAxisRect* HeatmapFigure::panelRect(int panel) const {
    return panel >= 0 && panel < panelCount() ? panels_[panel].rect : nullptr;
}
QCPColorMap* HeatmapFigure::panelMap(int panel) const {
    return panel >= 0 && panel < panelCount() ? panels_[panel].map : nullptr;
}
QVector<QString> HeatmapFigure::keyLabels(int panel) const {
    return panel >= 0 && panel < panelCount() ? panels_[panel].x_ticker->labels()
                                              : QVector<QString>();
}
QVector<QString> HeatmapFigure::queryLabels(int panel) const {
    return panel >= 0 && panel < panelCount() ? panels_[panel].y_ticker->labels()
                                              : QVector<QString>();
}

QString HeatmapFigure::panelTitle(int panel) const {
    if (panel < 0 || panel >= panelCount() || !snapshot_) return {};
    const int h = panels_[panel].head;
    const int H = model_heads(*snapshot_);
    QString title = h >= 0                  ? tr("Head %1").arg(h + 1)
                    : snapshot_->norm_based ? tr("%n head(s) together", nullptr, H)
                                            : tr("Mean of %n head(s)", nullptr, H);
    if (snapshot_->model && h >= 0)
        if (const auto k = snapshot_->model->knocked_out.find({snapshot_->layer, h});
            k != snapshot_->model->knocked_out.end())
            title += tr(" · knocked out");
    if (options_.scale == ScaleMode::PerHead) {
        const auto [lo, hi] = snapshot_->panel_range(batchItem(), h);
        title += tr(" (%1–%2)").arg(format_value(lo), format_value(hi));
    }
    return title;
}

QString HeatmapFigure::defaultTitle(const AttentionSnapshot& s, const FigureOptions& o) {
    QString title;
    const int H = model_heads(s);
    const FigureView view = s.heads == 0 ? FigureView::Mean : o.view;
    if (s.norm_based) {  // ‖α f(x)‖: the mean becomes the heads together (effective_attention.h)
        if (view == FigureView::Mean)
            title = tr("Norm-based attention of %n head(s) together", nullptr, H);
        else if (view == FigureView::Head)
            title = tr("Norm-based attention of head %1 of %2")
                        .arg(std::clamp(o.head, 0, s.heads - 1) + 1)
                        .arg(H);
        else if (s.heads < H)
            title = tr("Norm-based attention of the first %1 of %2 heads").arg(s.heads).arg(H);
        else
            title = tr("Norm-based attention per head");
    } else if (view == FigureView::Mean) {
        title = tr("Mean attention weights over %n head(s)", nullptr, H);
    } else if (view == FigureView::Head) {
        title = tr("Attention weights of head %1 of %2")
                    .arg(std::clamp(o.head, 0, s.heads - 1) + 1)
                    .arg(H);
    } else if (s.heads < H) {
        title = tr("Attention weights of the first %1 of %2 heads").arg(s.heads).arg(H);
    } else {
        title = s.heads > 1 ? tr("Attention weights per head") : tr("Attention weights");
    }
    if (s.windowed())
        title += tr(" — tokens %1–%2 of %3")
                     .arg(s.query_offset + 1)
                     .arg(s.query_offset + s.target_len)
                     .arg(s.query_total);
    if (s.batch > 1)
        title += tr(" — sentence %1 of %2")
                     .arg(std::clamp(o.batch_item, 0, s.batch - 1) + 1)
                     .arg(s.batch);
    return title;
}

QString HeatmapFigure::titleText() const {
    if (!snapshot_) return {};
    return options_.title.isEmpty() ? defaultTitle(*snapshot_, options_) : options_.title;
}

QString HeatmapFigure::captionText() const {
    if (!snapshot_) return {};
    const AttentionSnapshot& s = *snapshot_;
    const int n = batchItem();
    QStringList parts{describe_config(s.config)};
    if (s.windowed())
        parts << tr("queries %1–%2 of %3 × keys %4–%5 of %6 (the softmax is over every key)")
                     .arg(s.query_offset + 1)
                     .arg(s.query_offset + s.target_len)
                     .arg(s.query_total)
                     .arg(s.key_offset + 1)
                     .arg(s.key_offset + s.source_len)
                     .arg(s.key_total);
    else
        parts << (s.target_len == s.source_len && s.config.pair_mode != PairMode::CrossAttention
                      ? tr("%n token(s)", nullptr, s.target_len)
                      : tr("%1 queries × %2 keys").arg(s.target_len).arg(s.source_len));
    parts << tr("rows: queries, columns: keys");
    if (s.norm_based)  // two parts: a caption wraps between parts only
        parts << scaleLabel() << tr("how much each key's value moves the output, not the weight α");
    const bool any_masked =
        std::any_of(s.masked.begin() + std::ptrdiff_t(n) * s.target_len * s.source_len,
                    s.masked.begin() + std::ptrdiff_t(n + 1) * s.target_len * s.source_len,
                    [](std::uint8_t m) { return m != 0; });
    if (any_masked) parts << tr("hatched grey: masked");
    if (s.model && s.model->secondTextStart() > 0)
        parts << tr("dashed lines: where the second text begins");
    if (s.model && s.model->firstGeneratedToken() >= 0)
        parts << tr("orange: the tokens the model wrote");
    bool any_full = false;
    for (int i = 0; i < s.target_len && !any_full; ++i)
        for (int h = 0; h < model_heads(s) && !any_full; ++h)
            any_full = s.row_fully_masked(n, h, i);
    if (any_full)
        parts << tr("red outline: fully masked row (%1)")
                     .arg(QLatin1String(masked_row_policy_name(s.config.masked_rows)));
    return parts.join(QLatin1Char('\n'));  // re-wrapped to the figure width in layout()
}

void HeatmapFigure::clear() {
    for (auto& p : panels_)
        delete p.overlay;
    panels_.clear();
    delete hover_;
    hover_ = nullptr;
    plot_->clearPlottables();
    plot_->plotLayout()->clear();
    title_ = caption_ = nullptr;
    color_scale_ = nullptr;
    panel_grid_ = nullptr;
    grid_cols_ = -1;
    built_l_ = built_s_ = -1;
}

void HeatmapFigure::build(const std::vector<int>& heads) {
    clear();
    QCPLayoutGrid* root = plot_->plotLayout();
    int row = 0;
    if (options_.show_title) {
        title_ = new QCPTextElement(plot_);
        title_->setTextColor(kTextColor);
        title_->setLayer(QStringLiteral("axes"));
        root->addElement(row++, 0, title_);
        caption_ = new QCPTextElement(plot_);
        caption_->setTextColor(kCaptionColor);
        caption_->setLayer(QStringLiteral("axes"));
        root->addElement(row++, 0, caption_);
    }
    auto* body = new QCPLayoutGrid;
    root->addElement(row, 0, body);
    body->setRowSpacing(0);
    body->setColumnSpacing(0);
    panel_grid_ = new QCPLayoutGrid;
    panel_grid_->setRowSpacing(0);
    panel_grid_->setColumnSpacing(0);
    body->addElement(1, 1, panel_grid_);
    color_scale_ = new QCPColorScale(plot_);
    color_scale_->setType(QCPAxis::atRight);
    color_scale_->setRangeDrag(false);
    color_scale_->setRangeZoom(false);
    color_scale_->setBarWidth(14);
    body->addElement(1, 2, color_scale_);
    // Empty rows/columns around the content take the spare space, centring the figure.
    body->expandTo(3, 4);

    for (std::size_t k = 0; k < heads.size(); ++k) {
        Panel p;
        p.head = heads[k];
        p.rect = new QCPAxisRect(plot_, true);
        p.rect->setAutoMargins(QCP::msNone);
        p.rect->setSizeConstraintRect(QCPLayoutElement::scrInnerRect);
        for (QCPAxis* axis : p.rect->axes()) {
            axis->grid()->setVisible(false);
            axis->setSubTicks(false);
            axis->setBasePen(QPen(kAxisColor, 0));
            axis->setTickPen(QPen(kAxisColor, 0));
            axis->setTickLength(0, 3);
            axis->setTickLabelPadding(3);
            axis->setLabelPadding(4);
            axis->setTickLabelColor(kTextColor);
            axis->setLabelColor(kTextColor);
        }
        QCPAxis* x = p.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = p.rect->axis(QCPAxis::atLeft);
        QCPAxis* top = p.rect->axis(QCPAxis::atTop);
        p.rect->axis(QCPAxis::atRight)->setVisible(false);
        top->setVisible(true);
        top->setTicks(false);
        top->setTickLabels(false);
        top->setBasePen(Qt::NoPen);
        top->setLabelPadding(4);
        y->setRangeReversed(true);
        p.x_ticker = QSharedPointer<TokenTicker>::create();
        p.y_ticker = QSharedPointer<TokenTicker>::create();
        p.x_ticker->setAxis(x);
        p.y_ticker->setAxis(y);
        x->setTicker(p.x_ticker);
        y->setTicker(p.y_ticker);
        p.map = new CrispColorMap(x, y);
        p.map->setInterpolate(false);
        p.map->setTightBoundary(false);
        p.overlay = new PanelOverlay(this, int(k));
        p.rect->setRangeDrag(interactive_ ? Qt::Horizontal | Qt::Vertical : Qt::Orientations());
        p.rect->setRangeZoom(interactive_ ? Qt::Horizontal | Qt::Vertical : Qt::Orientations());
        p.rect->setRangeZoomFactor(0.85);
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
                [this, x] { syncRanges(x, true); });
        connect(y, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
                [this, y] { syncRanges(y, false); });
        panels_.push_back(p);
    }
    hover_ = new HoverOverlay(this);
    data_dirty_ = true;
}

void HeatmapFigure::syncRanges(QCPAxis* source, bool horizontal) {
    if (syncing_ || !snapshot_) return;
    syncing_ = true;
    // Keep the view on the data: never zoom out past the matrix, never pan off it.
    const int count = horizontal ? snapshot_->source_len : snapshot_->target_len;
    const QCPRange full(-0.5, count - 0.5);
    QCPRange r = source->range();
    if (r.size() > full.size()) r = full;
    if (r.lower < full.lower) r += full.lower - r.lower;
    if (r.upper > full.upper) r -= r.upper - full.upper;
    for (auto& p : panels_) {
        QCPAxis* axis = p.rect->axis(horizontal ? QCPAxis::atBottom : QCPAxis::atLeft);
        axis->setRange(r);
    }
    syncing_ = false;
    emit zoomChanged();
}

void HeatmapFigure::resetZoom() {
    if (!snapshot_) return;
    syncing_ = true;
    for (auto& p : panels_) {
        p.rect->axis(QCPAxis::atBottom)->setRange(-0.5, snapshot_->source_len - 0.5);
        p.rect->axis(QCPAxis::atLeft)->setRange(-0.5, snapshot_->target_len - 0.5);
    }
    syncing_ = false;
}

bool HeatmapFigure::isZoomed() const {
    if (!snapshot_ || panels_.empty()) return false;
    const QCPRange r = panels_.front().rect->axis(QCPAxis::atBottom)->range();
    const QCPRange v = panels_.front().rect->axis(QCPAxis::atLeft)->range();
    return r.size() < snapshot_->source_len - 1e-6 || v.size() < snapshot_->target_len - 1e-6;
}

void HeatmapFigure::updateData() {
    data_dirty_ = false;
    if (!snapshot_) return;
    const AttentionSnapshot& s = *snapshot_;
    const int n = batchItem();
    const QCPColorGradient gradient = make_gradient(options_.colormap);
    const bool per_head = options_.scale == ScaleMode::PerHead;
    const QCPRange shared = colour_range(s, n, -1, per_head ? ScaleMode::Shared : options_.scale);
    const bool maps_fresh = maps_ && maps_->generation == s.generation;
    const bool images_fresh =
        maps_fresh && maps_->colormap == options_.colormap && maps_->scale == options_.scale;

    QVector<QString> keys, queries;
    for (const QString& t : s.key_tokens[n])
        keys << t;
    for (const QString& t : s.query_tokens[n])
        queries << t;

    for (auto& p : panels_) {
        std::unique_ptr<QCPColorMapData> data = maps_fresh ? maps_->take(n, p.head) : nullptr;
        if (!data) data = build_map_data(s, n, p.head);
        p.map->setData(data.release(), false);
        p.map->setGradient(gradient);
        const QCPRange range = per_head ? colour_range(s, n, p.head, ScaleMode::PerHead) : shared;
        p.map->setDataRange(range);
        p.map->setPreparedImage(images_fresh ? maps_->image(n, p.head) : QImage(), range, gradient);
        p.x_ticker->setLabels(keys);
        p.y_ticker->setLabels(queries);
    }
    if (built_l_ != s.target_len || built_s_ != s.source_len || !interactive_) {
        built_l_ = s.target_len;
        built_s_ = s.source_len;
        resetZoom();
    }
    color_scale_->setGradient(gradient);
    if (per_head) {
        color_scale_->setDataRange(QCPRange(0.0, 1.0));
        color_scale_->axis()->setLabel(tr("each head: its min (0) to its max (1)"));
    } else {
        color_scale_->setDataRange(shared);
        color_scale_->axis()->setLabel(scaleLabel());
    }
}

QString HeatmapFigure::scaleLabel() const {
    return snapshot_ && snapshot_->norm_based ? tr("norm-based ‖α·f(x)‖") : tr("attention weight");
}

/// What layout() measures before it places anything (fonts, margins, the room left) and the
/// grid it then chooses: the values its steps hand on to each other.
struct HeatmapFigure::LayoutPlan {
    int L = 0, S = 0, P = 0;  ///< queries, keys, panels
    bool single = false;
    bool presenting_one = false;
    double W = 0.0, H = 0.0;
    int fpx = 0;
    double key_w = 0.0, query_w = 0.0;  ///< the widest labels at the tick font's size
    QFont panel_font, label_font, title_font, caption_font;
    int ml = 0, mr = 0, mt = 0, mb_flat = 0, mb_rot = 0;
    double pad = 0.0;
    QString caption;
    double title_h = 0.0;
    double avail_w = 0.0, avail_h = 0.0;
    double title_w = 0.0;  ///< the widest panel title
    // The grid chosen.
    int nc = 1, nr = 1;
    int mb = 0;
    bool rotate = false;
    double c = 0.0;  ///< the cell size
    int inner_w = 1, inner_h = 1;
    double tick_step_h = 0.0, key_step_w = 0.0;
};

void HeatmapFigure::layout(QSize size) {
    if (!snapshot_) {
        clear();
        return;
    }
    const std::vector<int> heads = panelHeads();
    std::vector<int> current;
    for (const auto& p : panels_)
        current.push_back(p.head);
    if (current != heads || bool(title_) != options_.show_title || !color_scale_) build(heads);
    if (data_dirty_) updateData();

    LayoutPlan plan = measure(size);
    chooseGrid(plan);
    fitCellText(plan);
    placeTitle(plan);
    placePanels(plan);
    placeColorScale(plan);
}

void HeatmapFigure::updateLabelCache(int fpx) {
    // Fonts that cover every token (CJK included), and the labels elided so one long token
    // cannot squeeze the whole figure.  Both only change with the tokens: a new dropout
    // sample or mask of 1024 tokens reuses them.
    const AttentionSnapshot& s = *snapshot_;
    const int n = batchItem();
    LabelCache& lc = label_cache_;
    if (lc.font_px == fpx && lc.keys == s.key_tokens[n] && lc.queries == s.query_tokens[n]) return;
    lc.font_px = fpx;
    lc.keys = s.key_tokens[n];
    lc.queries = s.query_tokens[n];
    QStringList all_tokens(lc.keys.begin(), lc.keys.end());
    all_tokens.append(QStringList(lc.queries.begin(), lc.queries.end()));
    lc.font = figure_font(fpx, all_tokens);
    const QFontMetricsF lfm(lc.font);
    const double max_label = 11.0 * fpx;
    auto elide = [&](const std::vector<QString>& tokens, QVector<QString>* out, double* widest) {
        out->clear();
        *widest = 0.0;
        for (const QString& t : tokens) {
            const QString e = lfm.elidedText(visible_token(t), Qt::ElideRight, max_label);
            *widest = std::max(*widest, lfm.horizontalAdvance(e));
            *out << e;
        }
    };
    elide(lc.keys, &lc.key_labels, &lc.key_w);
    elide(lc.queries, &lc.query_labels, &lc.query_w);
    lc.text = QStringList(lc.key_labels.begin(), lc.key_labels.end()).join(QString()) +
              QStringList(lc.query_labels.begin(), lc.query_labels.end()).join(QString());
}

HeatmapFigure::LayoutPlan HeatmapFigure::measure(QSize size) {
    const AttentionSnapshot& s = *snapshot_;
    LayoutPlan plan;
    plan.L = s.target_len;
    plan.S = s.source_len;
    plan.P = int(panels_.size());
    plan.single = plan.P == 1;
    plan.W = std::max(64, size.width());
    plan.H = std::max(64, size.height());
    plan.fpx = std::max(6, options_.font_px);
    const int fpx = plan.fpx;

    updateLabelCache(fpx);
    const LabelCache& lc = label_cache_;
    tick_font_ = lc.font;
    // Presenting one map: its token labels a little smaller than the text around them (still
    // 16 px or more), since at full size they took the room the map needs on a projector.
    plan.presenting_one = plan.single && fpx > FigureOptions{}.font_px;
    const double tick_scale =
        plan.presenting_one ? std::min(1.0, std::max(16.0, 0.75 * fpx) / double(fpx)) : 1.0;
    if (tick_scale < 1.0) tick_font_.setPixelSize(int(std::lround(fpx * tick_scale)));
    const double key_w = lc.key_w * tick_scale, query_w = lc.query_w * tick_scale;
    plan.key_w = key_w;
    plan.query_w = query_w;
    // Titles, captions and axis words follow the interface language: fonts that cover them
    // (CJK in Chinese), so vector exports name a family that has the glyphs.
    const QStringList words{titleText(), panelTitle(0), scaleLabel()};
    plan.panel_font = figure_font(fpx + 1, words, true);
    plan.label_font = figure_font(fpx, words);
    plan.title_font = figure_font(fpx + 5, words, true);
    plan.caption_font = figure_font(std::max(6, fpx - 1), words);

    // Chinese labels are drawn in the CJK family, taller than the Latin one the font names.
    const double tick_h = line_height(tick_font_, lc.text);
    const double axis_label_h = plan.single ? QFontMetricsF(plan.label_font).height() + 6 : 0.0;
    plan.ml = int(std::ceil(query_w + 3 + 3 + 6 + axis_label_h));
    plan.mr = 10;
    plan.mt = int(std::ceil(QFontMetricsF(plan.panel_font).height() + 8));
    plan.mb_flat = int(std::ceil(tick_h + 3 + 3 + 6 + axis_label_h));
    plan.mb_rot = int(std::ceil(key_w + 3 + 3 + 6 + axis_label_h));
    plan.pad = 10.0;
    const double pad = plan.pad;
    const QFontMetricsF cfm(plan.caption_font);
    const double cb_w = 12 + 14 + 3 + 4 +
                        QFontMetricsF(plan.label_font).horizontalAdvance(QStringLiteral("0.000")) +
                        6 + QFontMetricsF(plan.label_font).height() + 10;

    if (options_.show_title) {
        plan.caption = wrap_parts(captionText().split(QLatin1Char('\n')), cfm, plan.W - 2 * pad);
        plan.title_h = QFontMetricsF(plan.title_font).height() + 10 +
                       cfm.height() * (plan.caption.count(QLatin1Char('\n')) + 1) + 8;
    }
    plan.avail_w = plan.W - 2 * pad - cb_w;
    plan.avail_h = plan.H - plan.title_h - 2 * pad;

    const QFontMetricsF panel_fm(plan.panel_font);
    for (int k = 0; k < plan.P; ++k)
        plan.title_w = std::max(plan.title_w, panel_fm.horizontalAdvance(panelTitle(k)));
    return plan;
}

void HeatmapFigure::chooseGrid(LayoutPlan& plan) {
    // Pick the grid shape with the biggest square cells among those whose panels are as wide
    // as their titles ("Head 4 · knocked out" side by side must not run into each other);
    // rotate key labels only when they do not fit under their columns.
    const int P = plan.P, L = plan.L, S = plan.S, ml = plan.ml, mr = plan.mr, mt = plan.mt;
    const double avail_w = plan.avail_w, avail_h = plan.avail_h;
    int best_nc = 1;
    double best_c = -1.0;
    int mb = plan.mb_flat;
    bool rotate = false;
    for (int attempt = 0; attempt < 2; ++attempt) {
        rotate = attempt == 1;
        mb = rotate ? plan.mb_rot : plan.mb_flat;
        best_c = -1.0;
        bool best_titled = false;
        for (int nc = 1; nc <= P; ++nc) {
            const int nr = (P + nc - 1) / nc;
            const double cw = (avail_w - nc * (ml + mr)) / (double(nc) * S);
            const double ch = (avail_h - nr * (mt + mb)) / (double(nr) * L);
            const double c = std::min(cw, ch);
            // A panel's slot is as wide as its map or its title, whichever is wider.
            const bool titled =
                plan.single || nc * std::max(c * S + ml + mr, plan.title_w + 8) <= avail_w;
            if ((titled && !best_titled) || (titled == best_titled && c > best_c + 1e-9)) {
                best_c = c;
                best_nc = nc;
                best_titled = titled;
            }
        }
        if (!rotate && plan.key_w + 4 <= best_c) break;
    }
    // Presenting one map: rotated labels cost the map a band as tall as the longest token; the
    // labels flat, every few columns, leave it much larger.
    if (plan.presenting_one && rotate) {
        const double flat = std::min((avail_w - (ml + mr)) / double(S),
                                     (avail_h - (mt + plan.mb_flat)) / double(L));
        if (flat > 1.2 * best_c) {
            rotate = false;
            mb = plan.mb_flat;
            best_c = flat;
            best_nc = 1;
        }
    }
    rotate_keys_ = rotate;
    plan.rotate = rotate;
    plan.mb = mb;
    plan.c = std::clamp(best_c, 0.05, 9.0 * plan.fpx);
    cell_px_ = plan.c;
    plan.nc = best_nc;
    plan.inner_w = std::max(1, int(std::floor(plan.c * S)));
    plan.inner_h = std::max(1, int(std::floor(plan.c * L)));
    plan.nr = (P + plan.nc - 1) / plan.nc;
    used_height_ = std::min(
        int(plan.H),
        int(std::ceil(plan.title_h + 2 * plan.pad + plan.nr * (mt + mb + plan.inner_h))) + 6);
}

void HeatmapFigure::fitCellText(LayoutPlan& plan) {
    const LabelCache& lc = label_cache_;
    const double c = plan.c;
    // Every row and column labelled whenever a smaller font fits the cells: thinning only
    // below kMinTickPx.  The margins keep the widths measured at the full size.
    // A larger size asked for (presentation: read from the back of a room) is kept.
    if (plan.fpx <= FigureOptions{}.font_px)
        tick_font_ = label_font_for(tick_font_, c, kMinTickPx, lc.text);
    plan.tick_step_h = line_height(tick_font_, lc.text) + 2;
    plan.key_step_w =
        plan.rotate
            ? plan.tick_step_h
            : lc.key_w * tick_font_.pixelSize() / double(std::max(1, lc.font.pixelSize())) + 8;

    // Values fit in the cells of a single enlarged panel with few tokens.
    const QString sample = QStringLiteral("0.00");
    const int value_px = std::clamp(int(c * 0.3), 6, plan.fpx);
    value_font_ = figure_font(value_px);
    values_ = options_.values && plan.single && plan.L <= kMaxValueCells &&
              plan.S <= kMaxValueCells &&
              QFontMetricsF(value_font_).horizontalAdvance(sample) + 4 <= c &&
              QFontMetricsF(value_font_).height() + 2 <= c;
}

void HeatmapFigure::placeTitle(const LayoutPlan& plan) {
    if (!title_) return;
    title_->setFont(plan.title_font);
    title_->setText(titleText());
    title_->setMargins(QMargins(0, 8, 0, 2));
    caption_->setFont(plan.caption_font);
    caption_->setText(plan.caption);
    caption_->setMargins(QMargins(0, 0, 0, 6));
}

void HeatmapFigure::placePanels(const LayoutPlan& plan) {
    const int P = plan.P, nc = plan.nc, ml = plan.ml, mr = plan.mr, inner_w = plan.inner_w;
    // Panels in a grid of nc columns.
    if (nc != grid_cols_) {
        for (auto& p : panels_)
            if (p.rect->layout() == panel_grid_) panel_grid_->take(p.rect);
        panel_grid_->simplify();
        for (int k = 0; k < P; ++k)
            panel_grid_->addElement(k / nc, k % nc, panels_[k].rect);
        grid_cols_ = nc;
    }
    // Slots wider than their maps where the titles need it (and the width allows it).
    const int title_room =
        plan.single ? 0
                    : std::max(0, std::min(int(std::ceil(plan.title_w + 8)) - (inner_w + ml + mr),
                                           int(plan.avail_w / nc) - (inner_w + ml + mr)));
    const QFontMetricsF panel_fm(plan.panel_font);
    for (int k = 0; k < P; ++k) {
        Panel& p = panels_[k];
        p.rect->setMargins(
            QMargins(ml + title_room / 2, plan.mt, mr + title_room - title_room / 2, plan.mb));
        p.rect->setMinimumSize(inner_w, plan.inner_h);
        p.rect->setMaximumSize(inner_w, plan.inner_h);
        QCPAxis* x = p.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = p.rect->axis(QCPAxis::atLeft);
        QCPAxis* top = p.rect->axis(QCPAxis::atTop);
        x->setTickLabelFont(tick_font_);
        y->setTickLabelFont(tick_font_);
        x->setTickLabelRotation(plan.rotate ? -90.0 : 0.0);
        x->setLabelFont(plan.label_font);
        y->setLabelFont(plan.label_font);
        x->setLabel(plan.single ? tr("Keys") : QString());
        y->setLabel(plan.single ? tr("Queries") : QString());
        top->setLabelFont(plan.panel_font);
        // Never wider than its panel: no shape leaves room for every title at tiny sizes.
        top->setLabel(
            panel_fm.elidedText(panelTitle(k), Qt::ElideRight, inner_w + ml + mr + title_room - 8));
        p.x_ticker->setLabels(label_cache_.key_labels);
        p.y_ticker->setLabels(label_cache_.query_labels);
        p.x_ticker->setMinSpacing(plan.key_step_w);
        p.y_ticker->setMinSpacing(plan.tick_step_h);
        p.x_ticker->setAxisPixels(inner_w);
        p.y_ticker->setAxisPixels(plan.inner_h);
    }
}

void HeatmapFigure::placeColorScale(const LayoutPlan& plan) {
    // The bar spans the cells of the first to the last row of panels; QCPColorScale sizes
    // its own width from the bar and its labels.
    QCPAxis* axis = color_scale_->axis();
    color_scale_->setAutoMargins(QCP::msNone);
    color_scale_->setMargins(QMargins(6, plan.mt, 0, plan.mb));
    axis->setTickLabelFont(plan.label_font);
    axis->setLabelFont(plan.label_font);
    axis->setTickLabelColor(kTextColor);
    axis->setLabelColor(kTextColor);
    axis->setBasePen(QPen(kAxisColor, 0));
    axis->setTickPen(QPen(kAxisColor, 0));
    axis->setSubTickPen(QPen(kAxisColor, 0));
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setNumberPrecision(3);
    // As many ticks as the bar has room for: a bar a few cells high gets two, not five on
    // top of each other.
    const double bar_h = plan.nr * (plan.inner_h + plan.mt + plan.mb) - plan.mt - plan.mb;
    axis->ticker()->setTickCount(
        std::clamp(int(bar_h / (2.0 * QFontMetricsF(plan.label_font).height())), 2, 5));
}

FigureHit HeatmapFigure::hitTest(const QPointF& pos) const {
    FigureHit hit;
    if (!snapshot_) return hit;
    for (int k = 0; k < panelCount(); ++k) {
        const Panel& p = panels_[k];
        const QRect inner = p.rect->rect();
        const QRect outer = p.rect->outerRect();
        if (!outer.contains(pos.toPoint())) continue;
        hit.panel = k;
        hit.head = p.head;
        QCPAxis* x = p.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = p.rect->axis(QCPAxis::atLeft);
        const int col = int(std::lround(x->pixelToCoord(pos.x())));
        const int row = int(std::lround(y->pixelToCoord(pos.y())));
        const bool col_ok = col >= 0 && col < snapshot_->source_len && pos.x() >= inner.left() &&
                            pos.x() <= inner.right();
        const bool row_ok = row >= 0 && row < snapshot_->target_len && pos.y() >= inner.top() &&
                            pos.y() <= inner.bottom();
        if (col_ok && row_ok) {
            hit.region = FigureHit::Region::Cells;
            hit.row = row;
            hit.col = col;
        } else if (col_ok && pos.y() > inner.bottom()) {
            hit.region = FigureHit::Region::KeyLabels;
            hit.col = col;
        } else if (row_ok && pos.x() < inner.left()) {
            hit.region = FigureHit::Region::QueryLabels;
            hit.row = row;
        } else if (pos.y() < inner.top()) {
            hit.region = FigureHit::Region::PanelTitle;
        }
        return hit;
    }
    return hit;
}

void HeatmapFigure::setHighlight(int row, int col) {
    if (row == hl_row_ && col == hl_col_) return;
    hl_row_ = row;
    hl_col_ = col;
    if (QCPLayer* layer = plot_->layer(QStringLiteral("hover"))) layer->replot();
}

}  // namespace attnviz::ui
