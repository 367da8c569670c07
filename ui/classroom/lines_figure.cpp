#include "ui/classroom/lines_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "ui/compute/resolved_config.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, as a class so lupdate files them
// under the context tr() looks them up in.
struct LinesText {
    Q_DECLARE_TR_FUNCTIONS(Lines)
};
constexpr double kLinesPad = 14.0;
/// More lines than this are drawn thin and flat-ended (see paint()).
constexpr std::size_t kDenseLines = 1000;
}  // namespace

std::vector<HeadLine> head_lines(const AttentionSnapshot& s, int item, quint64 heads,
                                 float threshold, int query, int key) {
    std::vector<HeadLine> out;
    if (s.batch == 0) return out;
    const int n = std::clamp(item, 0, s.batch - 1);
    for (int h = 0; h < s.heads; ++h) {
        if (h < 64 && !(heads >> h & 1u)) continue;
        for (int i = 0; i < s.target_len; ++i) {
            if (query >= 0 && i != query) continue;
            for (int j = 0; j < s.source_len; ++j) {
                if (key >= 0 && j != key) continue;
                const float w = s.weight(n, h, i, j);
                if (s.is_masked(n, i, j) || !(w >= threshold)) continue;
                out.push_back(HeadLine{h, i, j, w});
            }
        }
    }
    return out;
}

void LinesFigure::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    hover_ = {};
}

void LinesFigure::setOptions(const FigureOptions& options) {
    options_ = options;
}

QString LinesFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (snapshot_ && snapshot_->norm_based)
        return LinesText::tr("How much each key moves each query's output: norm-based ‖α·f(x)‖");
    // A model's pair is one sequence ([CLS] A [SEP] B [SEP]), not cross-attention.
    if (snapshot_ && snapshot_->config.pair_mode == PairMode::CrossAttention && !snapshot_->model)
        return LinesText::tr("Where each query token looks in the other sentence");
    return LinesText::tr("Where each token looks: one line per query, key and head");
}

QString LinesFigure::captionText() const {
    return snapshot_ ? describe_config(snapshot_->config) : QString();
}

void LinesFigure::collect() {
    lines_.clear();
    over_threshold_ = 0;
    if (!snapshot_) return;
    const int q = hover_.side == Hit::Side::Query ? hover_.token : -1;
    const int k = hover_.side == Hit::Side::Key ? hover_.token : -1;
    // Norm-based maps are not shares of 1: opacity and threshold relative to the largest.
    opaque_ = 1.0f;
    if (snapshot_->norm_based) {
        float top = 0.0f;
        for (int h = 0; h < snapshot_->heads; ++h)
            top = std::max(top, snapshot_->panel_range(item_, h).second);
        if (top > 0.0f) opaque_ = top;
    }
    lines_ = head_lines(*snapshot_, item_, options_.line_heads, kLineThreshold * opaque_, q, k);
    over_threshold_ = lines_.size();
    if (lines_.size() > kMaxDrawnLines) {
        const auto stronger = [](const HeadLine& a, const HeadLine& b) {
            return a.weight > b.weight;
        };
        std::nth_element(lines_.begin(), lines_.begin() + std::ptrdiff_t(kMaxDrawnLines),
                         lines_.end(), stronger);
        lines_.resize(kMaxDrawnLines);
    }
    // Lighter lines first, so the strong ones are drawn on top.
    std::stable_sort(lines_.begin(), lines_.end(),
                     [](const HeadLine& a, const HeadLine& b) { return a.weight < b.weight; });
}

void LinesFigure::layout(QSize size) {
    size_ = size;
    if (!snapshot_) return;
    const AttentionSnapshot& s = *snapshot_;
    item_ = std::clamp(options_.batch_item, 0, std::max(0, s.batch - 1));
    const double W = std::max(64, size.width()), H = std::max(64, size.height());
    const int fpx = std::max(6, options_.font_px);
    const double y = titles_.layout(options_, titleText(), captionText(), kLinesPad, W, kLinesPad);
    // Below the columns, a two-line legend: the heads' colours, then what opacity means.
    const double legend_line = QFontMetricsF(figure_font(fpx)).height() + 4;
    const double legend_h = 2 * legend_line;
    const auto& qt = s.query_tokens[std::size_t(item_)];
    const auto& kt = s.key_tokens[std::size_t(item_)];
    const int rows = std::max<int>(int(qt.size()), int(kt.size()));
    const double header_h = QFontMetricsF(figure_font(fpx, {}, true)).height() + 10;
    const double avail = std::max(1.0, H - kLinesPad - legend_h - 10 - y - header_h);
    // Tokens are what this view is about: labels grow up to nearly twice the base size
    // when there is room (a slide with a short sentence) and shrink, down to 7 px, before
    // rows overlap, so a long sentence still fits.  Presenting, the labels never go below
    // the presentation size (24 pt): rows pack tighter instead.
    const int min_px = options_.high_contrast ? fpx : 7;
    label_px_ = std::max(fpx + 3, int(std::lround(fpx * 1.8)));
    while (label_px_ > min_px &&
           QFontMetricsF(figure_font(label_px_)).height() * 1.5 * rows > avail)
        --label_px_;
    const double lh = QFontMetricsF(figure_font(label_px_)).height();
    row_h_ = std::max(1.0, std::min(avail / std::max(1, rows), lh * 2.2));
    // Headers, columns and legend form one block in the middle of the free height, so the
    // legend stays next to the lines it explains.
    const double block = header_h + row_h_ * rows + 10 + legend_h;
    top_ = y + std::max(0.0, (H - kLinesPad - y - block) / 2) + header_h;
    legend_rect_ = QRectF(kLinesPad, top_ + row_h_ * rows + 10, W - 2 * kLinesPad, legend_h);
    QStringList all(qt.begin(), qt.end());
    all.append(QStringList(kt.begin(), kt.end()));
    const QFontMetricsF lfm(figure_font(label_px_, all));
    left_w_ = right_w_ = 0.0;
    for (const QString& t : qt)
        left_w_ = std::max(left_w_, lfm.horizontalAdvance(visible_token(t)));
    for (const QString& t : kt)
        right_w_ = std::max(right_w_, lfm.horizontalAdvance(visible_token(t)));
    left_w_ = std::min(left_w_ + 16, W * 0.3);
    right_w_ = std::min(right_w_ + 16, W * 0.3);
    // The lines get the middle; the columns sit close enough that the eye follows a line.
    const double span = std::min(W - 2 * kLinesPad - left_w_ - right_w_, std::max(260.0, W * 0.42));
    const double total = left_w_ + span + right_w_;
    const double x0 = (W - total) / 2;
    left_x_ = x0 + left_w_;
    right_x_ = left_x_ + span;
    collect();
}

QPointF LinesFigure::queryAnchor(int i) const {
    return QPointF(left_x_, top_ + (i + 0.5) * row_h_);
}

QPointF LinesFigure::keyAnchor(int j) const {
    return QPointF(right_x_, top_ + (j + 0.5) * row_h_);
}

void LinesFigure::paint(QPainter* p, bool) const {
    p->save();
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    if (!snapshot_) {
        p->restore();
        return;
    }
    const QColor text = paint::text_color(options_);
    titles_.paint(p, options_);
    paintHeaders(p, text);
    paintLines(p);
    paintTokens(p, text);
    paintHeadLegend(p, text);
    paintLegendNote(p, text);
    p->restore();
}

void LinesFigure::paintHeaders(QPainter* p, const QColor& text) const {
    const bool cross = snapshot_->config.pair_mode == PairMode::CrossAttention;
    const QFont hf = figure_font(std::max(6, options_.font_px), {}, true);
    p->setFont(hf);
    p->setPen(options_.high_contrast ? text : paint::kMuted);
    const double hy = top_ - QFontMetricsF(hf).height() - 8;
    const double hh = QFontMetricsF(hf).height();
    // Each header has the room from the edge of the figure to its column.
    p->drawText(QRectF(kLinesPad, hy, left_x_ - kLinesPad, hh), Qt::AlignRight | Qt::AlignVCenter,
                cross ? LinesText::tr("Queries (sentence 1)") : LinesText::tr("Queries"));
    p->drawText(QRectF(right_x_ + 6, hy, size_.width() - kLinesPad - right_x_ - 6, hh),
                Qt::AlignLeft | Qt::AlignVCenter,
                cross ? LinesText::tr("Keys (sentence 2)") : LinesText::tr("Keys"));
}

void LinesFigure::paintLines(QPainter* p) const {
    // Lines: the colour of the head, opacity the weight.
    p->setRenderHint(QPainter::Antialiasing, true);
    // Lines are what costs: a 1.2 px round-capped line takes the raster engine 0.6 ms, a
    // flat-capped one 0.2 ms, a 1 px one 0.05 ms.  So ends are flat (they meet the labels
    // anyway), lines that would be barely over a pixel are drawn at one, and so is a dense
    // fan of thousands between rows a few pixels apart, presenting too.
    const bool dense = lines_.size() > kDenseLines;
    double width = options_.high_contrast ? std::clamp(row_h_ * 0.1, 3.0, 6.0)
                                          : std::clamp(row_h_ * 0.06, 1.2, 3.5);
    if (dense || width < 1.5) width = 1.0;
    for (const HeadLine& l : lines_) {
        QColor c = paint::head_color(l.head);
        c.setAlphaF(std::clamp(double(l.weight / opaque_), 0.0, 1.0));
        p->setPen(QPen(c, width, Qt::SolidLine, Qt::FlatCap));
        p->drawLine(queryAnchor(l.query), keyAnchor(l.key));
    }
}

void LinesFigure::paintTokens(QPainter* p, const QColor& text) const {
    // Tokens; the hovered one on a tinted background, masked keys struck through.
    const AttentionSnapshot& s = *snapshot_;
    const auto& qt = s.query_tokens[std::size_t(item_)];
    const auto& kt = s.key_tokens[std::size_t(item_)];
    QStringList all(qt.begin(), qt.end());
    all.append(QStringList(kt.begin(), kt.end()));
    const QFont lf = figure_font(label_px_, all);
    const QFontMetricsF lfm(lf);
    p->setFont(lf);
    auto token = [&](const QString& t, const QRectF& r, Qt::Alignment align, bool hovered,
                     bool struck) {
        if (hovered) {
            p->setPen(Qt::NoPen);
            p->setBrush(QColor(0xff, 0xe8, 0xb0));
            p->drawRoundedRect(r.adjusted(-2, 1, 2, -1), 4, 4);
            p->setBrush(Qt::NoBrush);
        }
        p->setPen(struck ? QColor(0xa0, 0xa0, 0xa0) : text);
        const QString e = lfm.elidedText(visible_token(t), Qt::ElideRight, r.width() - 4);
        p->drawText(r.adjusted(2, 0, -2, 0), align | Qt::AlignVCenter, e);
        if (struck) {
            const double w = lfm.horizontalAdvance(e);
            const double x = align & Qt::AlignRight ? r.right() - 2 - w : r.left() + 2;
            p->setPen(QPen(QColor(0xd6, 0x27, 0x28), 1.5));
            p->drawLine(QPointF(x, r.center().y()), QPointF(x + w, r.center().y()));
        }
    };
    for (int i = 0; i < int(qt.size()); ++i) {
        const QPointF a = queryAnchor(i);
        token(qt[std::size_t(i)], QRectF(a.x() - left_w_, a.y() - row_h_ / 2, left_w_ - 6, row_h_),
              Qt::AlignRight, hover_.side == Hit::Side::Query && hover_.token == i, false);
    }
    for (int j = 0; j < int(kt.size()); ++j) {
        const QPointF a = keyAnchor(j);
        const bool struck = s.config.masked_keys.count({item_, j + s.key_offset}) > 0 ||
                            (s.config.pair_mode == PairMode::PaddedBatch &&
                             kt[std::size_t(j)] == QLatin1String("[PAD]"));
        token(kt[std::size_t(j)], QRectF(a.x() + 6, a.y() - row_h_ / 2, right_w_ - 6, row_h_),
              Qt::AlignLeft, hover_.side == Hit::Side::Key && hover_.token == j, struck);
    }
}

void LinesFigure::paintHeadLegend(QPainter* p, const QColor& text) const {
    // Legend, centred under the columns: which colour is which head (as many as fit on
    // the line), then what the opacity means (paintLegendNote).
    const int fpx = std::max(6, options_.font_px);
    const QFont gf = figure_font(fpx);
    const QFontMetricsF gfm(gf);
    p->setFont(gf);
    const double line_h = legend_rect_.height() / 2;
    const double swatch = std::max(18.0, fpx * 1.4);  // the length of a head's sample line
    std::vector<std::pair<int, double>> items;        // head, width of its entry
    double total = 0.0;
    for (int h = 0; h < snapshot_->heads; ++h) {
        if (h < 64 && !(options_.line_heads >> h & 1u)) continue;
        const double w =
            swatch + 6 + gfm.horizontalAdvance(LinesText::tr("head %1").arg(h + 1)) + 18;
        if (total + w - 18 > legend_rect_.width()) break;
        items.emplace_back(h, w);
        total += w;
    }
    double x = legend_rect_.center().x() - std::max(0.0, total - 18) / 2;
    const double ly = legend_rect_.top() + line_h / 2;
    for (const auto& [h, w] : items) {
        p->setPen(
            QPen(paint::head_color(h), std::max(4.0, fpx / 5.0), Qt::SolidLine, Qt::RoundCap));
        p->drawLine(QPointF(x, ly), QPointF(x + swatch, ly));
        p->setPen(text);
        p->drawText(QRectF(x + swatch + 6, legend_rect_.top(), w - swatch - 6, line_h),
                    Qt::AlignVCenter, LinesText::tr("head %1").arg(h + 1));
        x += w;
    }
}

void LinesFigure::paintLegendNote(QPainter* p, const QColor& text) const {
    // In the legend's font, which paintHeadLegend set.
    const double line_h = legend_rect_.height() / 2;
    const QString note =
        snapshot_->heads == 0
            ? LinesText::tr(
                  "Only the mean over heads was kept within the memory budget: there "
                  "are no head lines to draw.")
        : snapshot_->norm_based
            ? LinesText::tr("opacity = ‖α·f(x)‖ from 0 to its largest, %1 (%2 of %3 lines drawn)")
                  .arg(double(opaque_), 0, 'g', 3)
                  .arg(lines_.size())
                  .arg(over_threshold_)
        : lines_.size() < over_threshold_
            ? LinesText::tr("opacity = attention weight (the %1 strongest of %2 lines drawn)")
                  .arg(lines_.size())
                  .arg(over_threshold_)
            : LinesText::tr("opacity = attention weight (lines under %1 omitted)")
                  .arg(double(kLineThreshold));
    p->setPen(options_.high_contrast ? text : paint::kMuted);
    p->drawText(
        QRectF(legend_rect_.left(), legend_rect_.top() + line_h, legend_rect_.width(), line_h),
        Qt::AlignHCenter | Qt::AlignVCenter, note);
}

LinesFigure::Hit LinesFigure::hitTest(const QPointF& pos) const {
    Hit hit;
    if (!snapshot_ || row_h_ <= 0) return hit;
    const int row = int(std::floor((pos.y() - top_) / row_h_));
    const auto& qt = snapshot_->query_tokens[std::size_t(item_)];
    const auto& kt = snapshot_->key_tokens[std::size_t(item_)];
    if (pos.x() >= left_x_ - left_w_ && pos.x() <= left_x_ + 4 && row >= 0 && row < int(qt.size()))
        return Hit{Hit::Side::Query, row};
    if (pos.x() >= right_x_ - 4 && pos.x() <= right_x_ + right_w_ && row >= 0 &&
        row < int(kt.size()))
        return Hit{Hit::Side::Key, row};
    return hit;
}

void LinesFigure::setHover(Hit hit) {
    hover_ = hit;
    collect();
}

QString LinesFigure::describe(const Hit& hit) const {
    if (!snapshot_ || hit.side == Hit::Side::None) return {};
    const AttentionSnapshot& s = *snapshot_;
    // The strongest line of each shown head for the hovered token.
    QStringList parts;
    for (int h = 0; h < s.heads; ++h) {
        if (h < 64 && !(options_.line_heads >> h & 1u)) continue;
        int best = -1;
        float w = -1.0f;
        const int count = hit.side == Hit::Side::Query ? s.source_len : s.target_len;
        for (int k = 0; k < count; ++k) {
            const int i = hit.side == Hit::Side::Query ? hit.token : k;
            const int j = hit.side == Hit::Side::Query ? k : hit.token;
            if (s.is_masked(item_, i, j)) continue;
            if (s.weight(item_, h, i, j) > w) {
                w = s.weight(item_, h, i, j);
                best = k;
            }
        }
        if (best < 0) continue;
        const QString other = hit.side == Hit::Side::Query
                                  ? s.key_tokens[std::size_t(item_)][std::size_t(best)]
                                  : s.query_tokens[std::size_t(item_)][std::size_t(best)];
        parts << LinesText::tr("head %1 → “%2” %3").arg(h + 1).arg(other).arg(double(w), 0, 'f', 2);
    }
    const QString token = hit.side == Hit::Side::Query
                              ? s.query_tokens[std::size_t(item_)][std::size_t(hit.token)]
                              : s.key_tokens[std::size_t(item_)][std::size_t(hit.token)];
    return (hit.side == Hit::Side::Query ? LinesText::tr("“%1” looks most at: %2")
                                         : LinesText::tr("“%1” is looked at most by: %2"))
        .arg(token, parts.join(QStringLiteral("  ·  ")));
}

}  // namespace attnviz::ui
