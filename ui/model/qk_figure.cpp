#include "ui/model/qk_figure.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ui/model/corpus_examples.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
struct QkText {
    Q_DECLARE_TR_FUNCTIONS(QkFigure)
};

constexpr double kQkPad = 16.0;
/// The side of the squares pointAt() sorts the points into, and how near the mouse must be.
constexpr double kBucket = 8.0, kPick = 6.0;
/// Tokens either side of a point's in its hover text.
constexpr int kContext = 6;
/// Dots drawn one circle each on SVG and PDF; more go in as an image.
constexpr std::size_t kVectorDots = 20000;
/// Colour bins of the position colouring (one batch of dots each).
constexpr int kPositionBins = 48;

QColor with_alpha(QColor c, int alpha) {
    c.setAlpha(alpha);
    return c;
}
}  // namespace

const std::vector<float>& QkFigure::points() const {
    return projection_ == QkProjection::Pca ? view_->pca.points : view_->cosine.points;
}

std::array<double, 2> QkFigure::explained() const {
    return projection_ == QkProjection::Pca ? view_->pca.explained : view_->cosine.explained;
}

QString QkFigure::axisName(int axis) const {
    const double share = view_ ? explained()[std::size_t(axis)] : 0.0;
    return (projection_ == QkProjection::Pca
                ? QkText::tr("PCA axis %1 (%2% of the variance)")
                : QkText::tr("Directions, axis %1 (%2% of the variance)"))
        .arg(axis + 1)
        .arg(std::lround(100 * share));
}

QString QkFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (!view_) return QkText::tr("Queries and keys");
    return QkText::tr("Queries and keys of layer %1 · head %2")
        .arg(view_->head.layer + 1)
        .arg(view_->head.head + 1);
}

QString QkFigure::captionText() const {
    if (!view_ || !corpus_) return {};
    const QString from = corpus_->fromHistory() ? QkText::tr("the text box's history")
                                                : QFileInfo(corpus_->source).fileName();
    std::int64_t texts = 0, last = -1;
    for (const models::CorpusQueryKeys::Token& t : view_->tokens)
        if (t.text != last) {
            ++texts;
            last = t.text;
        }
    const QString how =
        projection_ == QkProjection::Pca
            ? QkText::tr(
                  "PCA of both together, the keys moved and scaled to share the queries' "
                  "centre and spread (AttentionViz), which leaves every attention weight "
                  "as it was")
            : QkText::tr(
                  "PCA of their directions: near means a large cosine, whatever the "
                  "lengths");
    return QkText::tr("%1: %n token(s) of %2 texts, each a query and a key · %3", nullptr,
                      int(view_->count))
        .arg(from)
        .arg(texts)
        .arg(how);
}

const models::CorpusQueryKeys::Token* QkFigure::token(int point) const {
    if (!view_ || point < 0 || point >= 2 * view_->count) return nullptr;
    return &view_->tokens[std::size_t(point % view_->count)];
}

bool QkFigure::isKey(int point) const {
    return view_ && point >= view_->count;
}

QColor QkFigure::colourOf(int point) const {
    if (colouring_ == QkColouring::Kind)
        return QColor::fromRgb(isKey(point) ? kKeyColour : kQueryColour);
    if (position_colours_.empty()) return Qt::gray;
    const double t =
        max_position_ > 0 ? double(token(point)->position) / double(max_position_) : 0.0;
    // Binned: one batch of dots per colour.
    return QColor::fromRgb(position_colours_[std::size_t(std::lround(t * (kPositionBins - 1)))]);
}

void QkFigure::layout(QSize size) {
    size_ = size;
    plot_ = legend_ = QRectF();
    at_.clear();
    buckets_.clear();
    columns_ = rows_ = 0;
    const QStringList texts{titleText(),
                            captionText(),
                            axisName(0),
                            axisName(1),
                            QkText::tr("Queries"),
                            QkText::tr("Keys"),
                            QkText::tr("Token position")};
    const int fpx = std::max(6, options_.font_px);
    font_ = figure_font(fpx, texts);
    small_ = figure_font(std::max(6, fpx - 2), texts);
    const QFont title_font = figure_font(fpx + 5, {titleText()}, true);
    const QString title =
        paint::elide(titleText(), QFontMetricsF(title_font), size.width() - 2 * kQkPad);
    const double y = title_.layout(options_, title, captionText(), 8, size.width(), kQkPad);
    used_height_ = int(std::ceil(y));
    if (!view_ || view_->count == 0) return;
    max_position_ = 0;
    for (const models::CorpusQueryKeys::Token& t : view_->tokens)
        max_position_ = std::max(max_position_, t.position);
    QCPColorGradient viridis = make_gradient(Colormap::Viridis);  // color() is not const
    position_colours_.clear();
    for (int k = 0; k < kPositionBins; ++k)
        position_colours_.push_back(viridis.color(double(k) / (kPositionBins - 1), QCPRange(0, 1)));
    // The legend's line, then the plot with an axis name under it and one left of it.
    const double line = line_height(font_, texts.join(QString()));
    const double small_line = line_height(small_, texts.join(QString()));
    legend_ = QRectF(kQkPad, y + 2, size.width() - 2 * kQkPad, line + 6);
    const double left = kQkPad + small_line + 8;
    const double top = legend_.bottom() + 8;
    const double bottom = size.height() - kQkPad - small_line - 6;
    const QRectF area(left, top, size.width() - kQkPad - left, std::max(40.0, bottom - top));
    // One scale for both axes, the points' box centred in the area.
    const std::vector<float>& p = points();
    const auto n = std::size_t(2 * view_->count);
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (std::size_t k = 0; k < n; ++k) {
        x0 = std::min(x0, double(p[2 * k]));
        x1 = std::max(x1, double(p[2 * k]));
        y0 = std::min(y0, double(p[2 * k + 1]));
        y1 = std::max(y1, double(p[2 * k + 1]));
    }
    const double w = std::max(x1 - x0, 1e-12), h = std::max(y1 - y0, 1e-12);
    const double inner = 8.0;
    const double scale = std::min((area.width() - 2 * inner) / w, (area.height() - 2 * inner) / h);
    plot_ =
        QRectF(area.center().x() - w * scale / 2 - inner, area.center().y() - h * scale / 2 - inner,
               w * scale + 2 * inner, h * scale + 2 * inner);
    at_.reserve(n);
    columns_ = int(std::ceil(size.width() / kBucket)) + 1;
    rows_ = int(std::ceil(size.height() / kBucket)) + 1;
    buckets_.assign(std::size_t(columns_ * rows_), {});
    for (std::size_t k = 0; k < n; ++k) {
        // Up is the axis's positive side, as on paper.
        const QPointF q(plot_.left() + inner + (p[2 * k] - x0) * scale,
                        plot_.bottom() - inner - (p[2 * k + 1] - y0) * scale);
        at_.push_back(q);
        const int c = std::clamp(int(q.x() / kBucket), 0, columns_ - 1);
        const int r = std::clamp(int(q.y() / kBucket), 0, rows_ - 1);
        buckets_[std::size_t(r * columns_ + c)].push_back(int(k));
    }
    used_height_ = -1;
}

int QkFigure::pointAt(const QPointF& pos) const {
    if (at_.empty()) return -1;
    const int c = int(pos.x() / kBucket), r = int(pos.y() / kBucket);
    int best = -1;
    double best_d = kPick;
    for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc) {
            const int rr = r + dr, cc = c + dc;
            if (rr < 0 || cc < 0 || rr >= rows_ || cc >= columns_) continue;
            // The last drawn (on top) wins a tie.
            for (const int k : buckets_[std::size_t(rr * columns_ + cc)]) {
                const double d = std::hypot(at_[std::size_t(k)].x() - pos.x(),
                                            at_[std::size_t(k)].y() - pos.y());
                if (d <= best_d) {
                    best_d = d;
                    best = k;
                }
            }
        }
    return best;
}

QPointF QkFigure::pointCentre(int point) const {
    if (point < 0 || std::size_t(point) >= at_.size()) return {};
    return at_[std::size_t(point)];
}

void QkFigure::context(int point, QStringList* before, QString* self, QStringList* after) const {
    const auto n = std::int64_t(view_->count);
    const std::int64_t t = point % n;
    const models::CorpusQueryKeys::Token& me = view_->tokens[std::size_t(t)];
    *self = visible_token(QString::fromStdString(me.token));
    for (std::int64_t k = t - 1; k >= 0 && t - k <= kContext; --k) {
        const models::CorpusQueryKeys::Token& o = view_->tokens[std::size_t(k)];
        if (o.text != me.text) break;
        before->prepend(visible_token(QString::fromStdString(o.token)));
    }
    for (std::int64_t k = t + 1; k < n && k - t <= kContext; ++k) {
        const models::CorpusQueryKeys::Token& o = view_->tokens[std::size_t(k)];
        if (o.text != me.text) break;
        after->append(visible_token(QString::fromStdString(o.token)));
    }
}

QString QkFigure::describe(int point) const {
    const models::CorpusQueryKeys::Token* t = token(point);
    if (!t) return {};
    QStringList before, after;
    QString self;
    context(point, &before, &self, &after);
    const QString colour = QColor::fromRgb(isKey(point) ? kKeyColour : kQueryColour).name();
    const auto escaped = [](const QStringList& list) {
        return list.join(QLatin1Char(' ')).toHtmlEscaped();
    };
    const QString kind = isKey(point) ? QkText::tr("Key") : QkText::tr("Query");
    return QkText::tr("<b>%1</b> “%2” · text %3, token %4<br>%5 <b style=\"color:%6\">%2</b> %7")
        .arg(kind, self.toHtmlEscaped(), QString::number(t->text + 1),
             QString::number(t->position + 1), escaped(before), colour, escaped(after));
}

QString QkFigure::describePlain(int point) const {
    const models::CorpusQueryKeys::Token* t = token(point);
    if (!t) return {};
    QStringList before, after;
    QString self;
    context(point, &before, &self, &after);
    const QString kind = isKey(point) ? QkText::tr("Key") : QkText::tr("Query");
    return QkText::tr("%1 “%2” · text %3, token %4: %5 [%2] %6")
        .arg(kind, self, QString::number(t->text + 1), QString::number(t->position + 1),
             before.join(QLatin1Char(' ')), after.join(QLatin1Char(' ')));
}

void QkFigure::paintLegend(QPainter* p) const {
    const QFontMetricsF fm(font_);
    p->setFont(font_);
    const double mid = legend_.center().y();
    double x = legend_.left();
    if (colouring_ == QkColouring::Kind) {
        for (const bool key : {false, true}) {
            const QString label = key ? QkText::tr("Keys") : QkText::tr("Queries");
            p->setPen(Qt::NoPen);
            p->setBrush(QColor::fromRgb(key ? kKeyColour : kQueryColour));
            p->drawEllipse(QPointF(x + 6, mid), 5, 5);
            p->setPen(paint::text_color(options_));
            const double w = fm.horizontalAdvance(label);
            p->drawText(QRectF(x + 16, legend_.top(), w + 4, legend_.height()),
                        Qt::AlignLeft | Qt::AlignVCenter, label);
            x += 16 + w + 24;
        }
        return;
    }
    // Position: a bar from the first token to the last, named at both ends.
    const QString name = QkText::tr("Token position");
    const QString first = QStringLiteral("1"), last = QString::number(max_position_ + 1);
    p->setPen(paint::text_color(options_));
    const double nw = fm.horizontalAdvance(name);
    p->drawText(QRectF(x, legend_.top(), nw + 4, legend_.height()),
                Qt::AlignLeft | Qt::AlignVCenter, name);
    x += nw + 12;
    const double fw = fm.horizontalAdvance(first);
    p->drawText(QRectF(x, legend_.top(), fw + 2, legend_.height()),
                Qt::AlignLeft | Qt::AlignVCenter, first);
    x += fw + 6;
    const double bar = std::min(240.0, legend_.right() - x - fm.horizontalAdvance(last) - 12);
    QCPColorGradient g = make_gradient(Colormap::Viridis);
    for (int k = 0; k < int(bar); ++k) {
        p->setPen(QColor::fromRgb(g.color(k / std::max(1.0, bar - 1), QCPRange(0, 1))));
        p->drawLine(QPointF(x + k, mid - 5), QPointF(x + k, mid + 5));
    }
    p->setPen(paint::text_color(options_));
    p->drawText(
        QRectF(x + bar + 6, legend_.top(), fm.horizontalAdvance(last) + 4, legend_.height()),
        Qt::AlignLeft | Qt::AlignVCenter, last);
}

void QkFigure::paintAxes(QPainter* p) const {
    p->setPen(QPen(QColor(0xb0, 0xb0, 0xb0), 1));
    p->setBrush(Qt::NoBrush);
    p->drawRect(plot_);
    p->setFont(small_);
    p->setPen(options_.high_contrast ? QColor(Qt::black) : paint::kMuted);
    const double h = line_height(small_, axisName(0) + axisName(1));
    p->drawText(QRectF(plot_.left(), plot_.bottom() + 4, plot_.width(), h),
                Qt::AlignHCenter | Qt::AlignTop, axisName(0));
    p->save();
    p->translate(plot_.left() - 6, plot_.center().y());
    p->rotate(-90);
    p->drawText(QRectF(-plot_.height() / 2, -h, plot_.height(), h),
                Qt::AlignHCenter | Qt::AlignBottom, axisName(1));
    p->restore();
}

void QkFigure::paintDots(QPainter* p, bool circles) const {
    const double radius = dotRadius();
    // Translucent: where many fall together the colour deepens.
    const int alpha = at_.size() > 20000 ? 110 : 170;
    const auto n = int(view_->count);
    if (circles) {
        // One circle each: crisp at any zoom.
        p->setPen(Qt::NoPen);
        for (int k = 0; k < 2 * n; ++k) {
            p->setBrush(with_alpha(colourOf(k), alpha));
            p->drawEllipse(at_[std::size_t(k)], radius, radius);
        }
        return;
    }
    // Round points in batches of one colour: a hundred thousand draw quickly.
    std::vector<std::pair<QRgb, QList<QPointF>>> batches;
    for (int k = 0; k < 2 * n; ++k) {
        const QRgb c = colourOf(k).rgb();
        auto it = std::find_if(batches.begin(), batches.end(),
                               [c](const auto& b) { return b.first == c; });
        if (it == batches.end()) it = batches.insert(batches.end(), {c, {}});
        it->second.append(at_[std::size_t(k)]);
    }
    for (const auto& [c, list] : batches) {
        p->setPen(
            QPen(with_alpha(QColor::fromRgb(c), alpha), 2 * radius, Qt::SolidLine, Qt::RoundCap));
        p->drawPoints(list.constData(), int(list.size()));
    }
}

double QkFigure::dotRadius() const {
    return at_.size() > 20000 ? 1.6 : at_.size() > 4000 ? 2.2 : 3.0;
}

void QkFigure::paint(QPainter* p, bool vector) const {
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    title_.paint(p, options_);
    if (at_.empty()) return;
    paintLegend(p);
    paintAxes(p);
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    if (vector && at_.size() > kVectorDots) {
        // Tens of thousands of circles make an SVG of tens of megabytes: the dots go in as one
        // image of two pixels to the point (as a PNG export), the text and the frame stay vector.
        constexpr int kScale = 2;
        QImage dots(plot_.size().toSize() * kScale, QImage::Format_ARGB32_Premultiplied);
        dots.fill(Qt::transparent);
        QPainter d(&dots);
        d.setRenderHint(QPainter::Antialiasing);
        d.scale(kScale, kScale);
        d.translate(-plot_.topLeft());
        paintDots(&d, false);
        d.end();
        p->drawImage(QRectF(plot_.topLeft(), QSizeF(dots.size()) / kScale), dots);
    } else {
        paintDots(p, vector);
    }
    if (hover_ >= 0 && std::size_t(hover_) < at_.size()) {
        p->setPen(QPen(Qt::black, 1.5));
        p->setBrush(colourOf(hover_));
        p->drawEllipse(at_[std::size_t(hover_)], dotRadius() + 3, dotRadius() + 3);
    }
    p->restore();
}

RenderedFigure render_qk_figure(const CorpusData& corpus, const CorpusQkView& view,
                                QkProjection projection, QkColouring colouring,
                                const FigureOptions& options, const ExportSize& size,
                                const QString& path) {
    QkFigure figure;
    figure.setData(&corpus, &view);
    figure.setProjection(projection);
    figure.setColouring(colouring);
    figure.setOptions(options);
    return render_painted_figure(figure, size, path);
}

}  // namespace attnviz::ui
