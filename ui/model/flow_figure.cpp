#include "ui/model/flow_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "engine/errors.h"
#include "ui/compute/model_store.h"
#include "ui/render/fonts.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {
struct FlowText {
    Q_DECLARE_TR_FUNCTIONS(FlowFigure)
};

constexpr double kFlowPad = 16.0;
/// The longest text the caption quotes whole; a longer one is cut with an ellipsis.
constexpr int kFlowCaptionChars = 80;
/// Points sampled along each line for the mouse.
constexpr int kSamples = 16;
/// The widest a token label may be before it is cut, in pixels: longer pieces thin the labels
/// less than they would if measured whole.
constexpr double kLabelCap = 56.0;

// Okabe-Ito, as the rest of the figures: blue for attention, bluish green for the MLP, grey for
// the stream carried on.
const QColor kAttention(0x00, 0x72, 0xb2);
const QColor kMlp(0x00, 0x9e, 0x73);
const QColor kResidual(0x99, 0x99, 0x99);

using models::FlowEdge;
using models::FlowNode;

QString flow_quoted(const QString& token) {
    return FlowText::tr("“%1”").arg(visible_token(token));
}

QString importance_text(double v) {
    return QString::number(v, 'f', 2);
}

double distance_to_segment(const QPointF& p, const QPointF& a, const QPointF& b) {
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}
}  // namespace

QString flow_unavailable(const models::OpenedModel& m) {
    if (m.model->info().pre_norm) return {};
    return FlowText::tr(
               "%1 is a post-norm model: a norm sits between its blocks, so a block's output is "
               "no sum of the terms it read, and no term's share of it can be measured. "
               "Information flow needs a pre-norm model (GPT-2, Llama, Qwen).")
        .arg(model_display_name(m));
}

FlowData compute_flow(const models::OpenedModel& m, const models::EncodedText& text,
                      const QString& text_shown, bool per_head, int num_threads,
                      const PassControl& control) {
    if (const QString why = flow_unavailable(m); !why.isEmpty()) throw DataError(why.toStdString());
    models::FlowOptions options;
    options.per_head = per_head;
    options.num_threads = num_threads;
    options.control = control;
    FlowData out;
    out.flow = models::information_flow(*m.model, text.input, options);
    out.model = model_display_name(m);
    out.text = text_shown;
    out.ids = text.input.ids;
    for (std::size_t t = 0; t < text.input.ids.size(); ++t)
        out.pieces.push_back(
            t < text.encoding.text.size()
                ? QString::fromStdString(text.encoding.text[t])
                : QString::fromStdString(m.tokenizer.id_to_token(text.input.ids[t])));
    return out;
}

int FlowFigure::rowCount() const {
    if (!data_) return 0;
    return 1 + int(data_->flow.layers) * (data_->hasMlp() ? 2 : 1);
}

int FlowFigure::rowOf(const FlowNode& n) const {
    if (n.after == FlowNode::After::Embeddings || n.layer == 0) return 0;
    const int per = data_ && data_->hasMlp() ? 2 : 1;
    return 1 + int(n.layer - 1) * per + (n.after == FlowNode::After::Mlp ? 1 : 0);
}

QString FlowFigure::rowLabel(int row) const {
    if (row == 0) return FlowText::tr("Embeddings");
    if (!data_ || !data_->hasMlp()) return FlowText::tr("Layer %1").arg(row);
    const int layer = (row - 1) / 2 + 1;
    return (row - 1) % 2 == 0 ? FlowText::tr("Layer %1 · attention").arg(layer)
                              : FlowText::tr("Layer %1 · MLP").arg(layer);
}

QString FlowFigure::piece(std::int64_t position) const {
    if (!data_ || position < 0 || std::size_t(position) >= data_->pieces.size()) return {};
    return data_->pieces[std::size_t(position)];
}

QString FlowFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (!data_ || !graph_) return FlowText::tr("Information flow");
    return FlowText::tr("Information flow to the prediction after token %1 %2")
        .arg(graph_->position + 1)
        .arg(flow_quoted(piece(graph_->position)));
}

QString FlowFigure::captionText() const {
    if (!data_ || !graph_) return {};
    QString text = data_->text;
    if (text.size() > kFlowCaptionChars)
        text = text.left(kFlowCaptionChars - 1) + QStringLiteral("…");
    const QString terms =
        data_->flow.per_head ? FlowText::tr("per head") : FlowText::tr("heads summed per token");
    return FlowText::tr("%1 · “%2” · edges of importance ≥ %3 · %4")
        .arg(data_->model, text, QString::number(graph_->threshold, 'g', 3), terms);
}

QString FlowFigure::notesText() const {
    if (!data_) return {};
    return FlowText::tr(
        "Each line is a term of a block's output: what a token brings through the attention, "
        "the MLP's output, or the stream carried on. Its width is its importance, its share of "
        "the sum (Ferrando & Voita 2024); the graph keeps every line at or above the threshold "
        "that reaches the prediction. Click a token's dot to explain its prediction, a line to "
        "see its head's map.");
}

QColor FlowFigure::edgeColor(const FlowEdge& e) const {
    switch (e.via) {
        case FlowEdge::Via::Attention:
            return kAttention;
        case FlowEdge::Via::Head:
            return paint::head_color(int(e.head));
        case FlowEdge::Via::Mlp:
            return kMlp;
        case FlowEdge::Via::Residual:
            break;
    }
    return kResidual;
}

double FlowFigure::columnX(std::int64_t position) const {
    return plot_.x() + (double(position) + 0.5) * column_;
}

double FlowFigure::rowY(int row) const {
    return plot_.bottom() - row * row_;
}

QPainterPath FlowFigure::edgePath(const FlowEdge& e) const {
    const QPointF a(columnX(e.from.position), rowY(rowOf(e.from)));
    const QPointF b(columnX(e.to.position), rowY(rowOf(e.to)));
    QPainterPath path(a);
    const double dy = b.y() - a.y();
    if (e.via == FlowEdge::Via::Mlp) {
        // Beside the residual it runs with: a bow to the right.
        const double bow = std::max(6.0, column_ * 0.45);
        path.cubicTo(a + QPointF(bow, dy / 3), b + QPointF(bow, -dy / 3), b);
    } else if (e.via == FlowEdge::Via::Residual || e.from.position == e.to.position) {
        path.lineTo(b);
    } else {
        // Heads from one token to another apart by a little, so each shows.
        const double off = e.via == FlowEdge::Via::Head && data_
                               ? (double(e.head) - (double(data_->flow.heads) - 1) / 2) *
                                     std::min(2.0, column_ / 8)
                               : 0.0;
        path.cubicTo(QPointF(a.x() + off, a.y() + dy * 0.55),
                     QPointF(b.x() + off, b.y() - dy * 0.55), b);
    }
    return path;
}

void FlowFigure::layout(QSize size) {
    size_ = size;
    curves_.clear();
    column_ = row_ = 0.0;
    plot_ = legend_ = tokens_ = notes_ = QRectF();
    QStringList texts{titleText(),
                      captionText(),
                      notesText(),
                      FlowText::tr("Embeddings"),
                      FlowText::tr("Layer %1 · attention"),
                      FlowText::tr("Attention"),
                      FlowText::tr("MLP"),
                      FlowText::tr("Residual"),
                      FlowText::tr("The prediction")};
    if (data_)
        for (const QString& t : data_->pieces)
            texts << t;
    const int fpx = std::max(6, options_.font_px);
    font_ = figure_font(fpx, texts);
    small_ = figure_font(std::max(6, fpx - 2), texts);
    bold_ = figure_font(std::max(6, fpx - 2), texts, true);
    const QFont title_font = figure_font(fpx + 5, {titleText()}, true);
    const QString title =
        paint::elide(titleText(), QFontMetricsF(title_font), size.width() - 2 * kFlowPad);
    const double y = title_.layout(options_, title, captionText(), 8, size.width(), kFlowPad);
    used_height_ = int(std::ceil(y));
    used_width_ = -1;
    if (!data_ || !graph_ || data_->pieces.empty()) return;
    const QRectF area(kFlowPad, y + 2, size.width() - 2 * kFlowPad,
                      size.height() - y - 2 - kFlowPad);
    const QFontMetricsF fm(font_), sm(small_);
    const int rows = rowCount();
    const auto L = std::int64_t(data_->pieces.size());

    // The legend's line, the notes under everything (wrapped to the canvas, measured in the
    // fonts they are drawn in: Chinese in the taller CJK family).
    QString legend_words = FlowText::tr("Attention") + FlowText::tr("The prediction");
    const double legend_h = line_height(font_, legend_words) + 6;
    notes_text_ = paint::wrap_text(notesText(), small_, area.width());
    double notes_h = text_height(small_, notes_text_) + 4;

    // Labels: the rows on the left, the tokens (and their numbers) under the plot.
    label_w_ = 0.0;
    for (int r = 0; r < rows; ++r)
        label_w_ = std::max(label_w_, fm.horizontalAdvance(rowLabel(r)));
    label_w_ += 10;
    QString pieces_run;
    double widest = sm.horizontalAdvance(QString::number(L)) + 6;
    for (const QString& t : data_->pieces) {
        pieces_run += t;
        widest = std::max(widest, std::min(kLabelCap, sm.horizontalAdvance(visible_token(t))) + 6);
    }
    const double token_h =
        line_height(small_, pieces_run) + line_height(small_, QStringLiteral("0"));
    const double plot_top = area.y() + legend_h + 16;
    // The token labels sit under the dots and under the lowest row's label (taller in Chinese).
    const double token_gap = std::max(12.0, line_height(font_, rowLabel(0)) / 2 + 4);
    double plot_bottom = area.bottom() - notes_h - 8 - token_h - token_gap;
    // Short of height (a presenter's type on a 1280 × 800 screen), the rows keep a line for
    // their labels before the notes under the graph keep theirs: the notes go where that
    // gives the rows their lines.
    const double rows_need = (rows - 1) * line_height(font_, rowLabel(rows - 1));
    if (plot_bottom - plot_top < rows_need && plot_bottom + notes_h - plot_top >= rows_need) {
        plot_bottom += notes_h;
        notes_text_.clear();
        notes_h = 0.0;
    }
    // A little room either side of the dots for the widest line and the MLP's bow.
    plot_ = QRectF(area.x() + label_w_ + 6, plot_top, area.width() - label_w_ - 6,
                   std::max(20.0, plot_bottom - plot_top));
    column_ = plot_.width() / double(L);
    row_ = rows > 1 ? plot_.height() / (rows - 1) : 0.0;
    stride_ = label_stride(column_, widest);
    radius_ = std::clamp(std::min(column_, row_ > 0 ? row_ : column_) * 0.22, 2.0, 6.0);
    max_width_ = std::clamp(std::min(column_ * 0.9, row_ * 0.25), 3.0, 18.0);
    legend_ = QRectF(area.x(), area.y(), area.width(), legend_h);
    tokens_ = QRectF(area.x(), plot_.bottom() + token_gap, area.width(), token_h);
    notes_ = QRectF(area.x(), tokens_.bottom() + 8, area.width(), notes_h);
    for (const FlowEdge& e : graph_->edges) {
        Curve c;
        c.width = std::max(1.0, e.importance * max_width_);
        const QPainterPath path = edgePath(e);
        for (int k = 0; k <= kSamples; ++k)
            c.points.push_back(path.pointAtPercent(double(k) / kSamples));
        curves_.push_back(std::move(c));
    }
    used_height_ = int(std::ceil(notes_.bottom() + kFlowPad));
}

int FlowFigure::edgeAt(const QPointF& pos) const {
    if (!graph_) return -1;
    int best = -1;
    double best_d = 1e9;
    for (std::size_t k = 0; k < curves_.size(); ++k) {
        const Curve& c = curves_[k];
        double d = 1e9;
        for (std::size_t s = 1; s < c.points.size(); ++s)
            d = std::min(d, distance_to_segment(pos, c.points[s - 1], c.points[s]));
        // Within the line or 4 pixels of it; the thinner wins a tie (it is drawn on top).
        if (d <= c.width / 2 + 4 && (d < best_d || (d == best_d && best >= 0 &&
                                                    c.width < curves_[std::size_t(best)].width))) {
            best = int(k);
            best_d = d;
        }
    }
    return best;
}

QPoint FlowFigure::nodeAt(const QPointF& pos) const {
    if (!data_ || column_ <= 0) return {-1, -1};
    const auto t = std::int64_t(std::floor((pos.x() - plot_.x()) / column_));
    if (t < 0 || t >= std::int64_t(data_->pieces.size())) return {-1, -1};
    for (int r = 0; r < rowCount(); ++r) {
        const QPointF c(columnX(t), rowY(r));
        if (std::hypot(pos.x() - c.x(), pos.y() - c.y()) <= std::max(radius_ + 3, 6.0))
            return {r, int(t)};
    }
    return {-1, -1};
}

QPointF FlowFigure::nodeCentre(int row, int position) const {
    if (!data_ || column_ <= 0 || row < 0 || row >= rowCount() || position < 0 ||
        position >= int(data_->pieces.size()))
        return {};
    return {columnX(position), rowY(row)};
}

QPointF FlowFigure::edgePoint(int edge) const {
    if (edge < 0 || std::size_t(edge) >= curves_.size()) return {};
    // From the middle outwards: the first point where the mouse picks this line, not one it
    // runs beside.
    const std::vector<QPointF>& points = curves_[std::size_t(edge)].points;
    // A point the mouse picks within a pixel either way: never one on the edge of a tie.
    const auto picks = [&](const QPointF& p) {
        for (const QPointF d : {QPointF(0, 0), QPointF(1, 0), QPointF(-1, 0), QPointF(0, 1),
                                QPointF(0, -1), QPointF(0.5, 0.5)})
            if (edgeAt(p + d) != edge || nodeAt(p + d).x() >= 0) return false;
        return true;
    };
    for (int d = 0; d <= kSamples / 2; ++d)
        for (const int k : {kSamples / 2 - d, kSamples / 2 + d})
            if (picks(points[std::size_t(k)].toPoint())) return points[std::size_t(k)].toPoint();
    return points[kSamples / 2];
}

QString FlowFigure::describeEdge(int edge) const {
    if (!data_ || !graph_ || edge < 0 || std::size_t(edge) >= graph_->edges.size()) return {};
    const FlowEdge& e = graph_->edges[std::size_t(edge)];
    const QString importance = importance_text(e.importance);
    const auto token = [this](std::int64_t t) {
        return FlowText::tr("token %1 %2").arg(t + 1).arg(flow_quoted(piece(t)));
    };
    switch (e.via) {
        case FlowEdge::Via::Head:
            return FlowText::tr("L%1H%2 · %3 → %4, layer %5: importance %6")
                .arg(e.to.layer)
                .arg(e.head + 1)
                .arg(token(e.from.position), token(e.to.position))
                .arg(e.to.layer)
                .arg(importance);
        case FlowEdge::Via::Attention:
            return FlowText::tr("Attention · %1 → %2, layer %3: importance %4")
                .arg(token(e.from.position), token(e.to.position))
                .arg(e.to.layer)
                .arg(importance);
        case FlowEdge::Via::Mlp:
            return FlowText::tr("MLP · %1, layer %2: importance %3")
                .arg(token(e.to.position))
                .arg(e.to.layer)
                .arg(importance);
        case FlowEdge::Via::Residual:
            break;
    }
    return FlowText::tr("Residual · %1, %2 → %3: importance %4")
        .arg(token(e.to.position), rowLabel(rowOf(e.from)), rowLabel(rowOf(e.to)), importance);
}

QString FlowFigure::describeNode(int row, int position) const {
    if (nodeCentre(row, position).isNull()) return {};
    QString text = FlowText::tr("Token %1 %2 · %3")
                       .arg(position + 1)
                       .arg(flow_quoted(piece(position)), rowLabel(row));
    if (graph_ && position != graph_->position)
        text += QLatin1Char('\n') + FlowText::tr("Click: the flow to the prediction after it");
    return text;
}

void FlowFigure::paint(QPainter* p, bool vector) const {
    (void)vector;  // lines and text only: the same on every target
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    title_.paint(p, options_);
    if (!data_ || !graph_ || column_ <= 0) return;
    p->setRenderHint(QPainter::Antialiasing, true);
    paintLegend(p);
    paintGrid(p);
    paintEdges(p);
    paintLabels(p);
    p->setFont(small_);
    p->setPen(options_.high_contrast ? QColor(Qt::black) : paint::kMuted);
    p->drawText(notes_, Qt::AlignLeft | Qt::AlignTop, notes_text_);
}

void FlowFigure::paintLegend(QPainter* p) const {
    const QFontMetricsF fm(font_);
    const QColor text = paint::text_color(options_);
    std::vector<std::pair<QString, QColor>> entries;
    if (data_->flow.per_head) {
        std::set<std::int64_t> heads;
        for (const FlowEdge& e : graph_->edges)
            if (e.via == FlowEdge::Via::Head) heads.insert(e.head);
        for (const std::int64_t h : heads)
            entries.emplace_back(FlowText::tr("H%1").arg(h + 1), paint::head_color(int(h)));
    } else {
        entries.emplace_back(FlowText::tr("Attention"), kAttention);
    }
    if (data_->hasMlp()) entries.emplace_back(FlowText::tr("MLP"), kMlp);
    entries.emplace_back(FlowText::tr("Residual"), kResidual);
    double x = legend_.x();
    const double mid = legend_.center().y();
    p->setFont(font_);
    for (const auto& [label, colour] : entries) {
        const double w = 22 + 6 + fm.horizontalAdvance(label);
        if (x + w > legend_.right()) break;
        p->setPen(QPen(colour, 4.0, Qt::SolidLine, Qt::RoundCap));
        p->drawLine(QPointF(x, mid), QPointF(x + 22, mid));
        p->setPen(text);
        p->drawText(QRectF(x + 28, legend_.y(), w - 28, legend_.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, label);
        x += w + 18;
    }
    const QString predicted = FlowText::tr("The prediction");
    const double w = 2 * radius_ + 10 + fm.horizontalAdvance(predicted);
    if (x + w <= legend_.right()) {
        p->setPen(QPen(paint::kHighlight, 2.5));
        p->setBrush(Qt::white);
        p->drawEllipse(QPointF(x + radius_ + 2, mid), radius_ + 2, radius_ + 2);
        p->setPen(text);
        p->drawText(QRectF(x + 2 * radius_ + 10, legend_.y(), w, legend_.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, predicted);
    }
}

void FlowFigure::paintGrid(QPainter* p) const {
    const auto L = std::int64_t(data_->pieces.size());
    const QColor text = paint::text_color(options_);
    // The token in focus's column, faintly: the prediction the graph explains.
    const double x = columnX(graph_->position);
    p->fillRect(QRectF(x - column_ / 2, plot_.top() - radius_ - 4, column_,
                       plot_.height() + 2 * radius_ + 8),
                QColor(0xfd, 0xe8, 0xd8));
    // Layer rules and labels, thinned when the rows are closer than a line.
    p->setFont(font_);
    const double label_h = line_height(font_, rowLabel(rowCount() - 1));
    const int every = label_stride(row_ > 0 ? row_ : label_h + 1, label_h);
    for (int r = 0; r < rowCount(); ++r) {
        p->setPen(QPen(QColor(0xe4, 0xe4, 0xe4), 1.0));
        p->drawLine(QPointF(plot_.left(), rowY(r)), QPointF(plot_.right(), rowY(r)));
        if (r % every != 0 && r != rowCount() - 1) continue;
        if (r == rowCount() - 1 && r % every != 0 && every > 1 &&
            (rowCount() - 1) % every < every / 2 + 1)
            continue;  // too near the last labelled row
        p->setPen(text);
        p->drawText(QRectF(0, rowY(r) - label_h / 2, plot_.left() - 10, label_h),
                    Qt::AlignRight | Qt::AlignVCenter, rowLabel(r));
    }
    // Every stream as a small grey dot, when the dots stand apart; the graph's in black.
    p->setPen(Qt::NoPen);
    if (column_ >= 5 && row_ >= 5) {
        p->setBrush(QColor(0xc8, 0xc8, 0xc8));
        for (int r = 0; r < rowCount(); ++r)
            for (std::int64_t t = 0; t < L; ++t)
                p->drawEllipse(QPointF(columnX(t), rowY(r)), radius_ * 0.5, radius_ * 0.5);
    }
}

void FlowFigure::paintEdges(QPainter* p) const {
    const std::vector<FlowEdge>& edges = graph_->edges;
    // The widest first, so a thin line is never hidden under a wide one.
    std::vector<std::size_t> order(edges.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return edges[a].importance > edges[b].importance;
    });
    p->setBrush(Qt::NoBrush);
    for (const std::size_t k : order) {
        QColor c = edgeColor(edges[k]);
        c.setAlpha(int(k) == hover_edge_ ? 255 : 200);
        p->setPen(QPen(c, curves_[k].width, Qt::SolidLine, Qt::RoundCap));
        p->drawPath(edgePath(edges[k]));
    }
    if (hover_edge_ >= 0 && std::size_t(hover_edge_) < edges.size()) {
        const auto k = std::size_t(hover_edge_);
        p->setPen(QPen(paint::kHighlight, 1.5, Qt::DashLine));
        p->drawPath(edgePath(edges[k]));
    }
    // The graph's streams, the prediction ringed.
    p->setPen(QPen(Qt::white, 1.0));
    p->setBrush(paint::text_color(options_));
    for (const FlowNode& n : graph_->nodes)
        p->drawEllipse(QPointF(columnX(n.position), rowY(rowOf(n))), radius_, radius_);
    const QPointF top(columnX(graph_->position), rowY(rowCount() - 1));
    p->setPen(QPen(paint::kHighlight, 2.5));
    p->setBrush(Qt::NoBrush);
    p->drawEllipse(top, radius_ + 3, radius_ + 3);
    const QPointF hovered = nodeCentre(hover_node_.x(), hover_node_.y());
    if (!hovered.isNull()) {
        p->setPen(QPen(paint::kAccent, 2.0));
        p->drawEllipse(hovered, radius_ + 2, radius_ + 2);
    }
}

void FlowFigure::paintLabels(QPainter* p) const {
    const auto L = int(data_->pieces.size());
    const QFontMetricsF sm(small_), bm(bold_);
    const QColor text = paint::text_color(options_);
    const QColor muted = options_.high_contrast ? QColor(Qt::black) : paint::kMuted;
    const double piece_h = tokens_.height() - line_height(small_, QStringLiteral("0"));
    const double box = stride_ * column_;
    // The token in focus always, in bold; the others every stride_-th where they leave it room.
    const int focus = int(graph_->position);
    const QString focus_label = paint::elide(visible_token(piece(focus)), bm, 2 * kLabelCap);
    const double focus_w = std::max(bm.horizontalAdvance(focus_label),
                                    bm.horizontalAdvance(QString::number(focus + 1))) +
                           6;
    for (int t = 0; t < L; t += stride_) {
        if (t == focus) continue;
        const double x = columnX(t);
        if (std::abs(x - columnX(focus)) < (box + focus_w) / 2) continue;
        p->setFont(small_);
        p->setPen(text);
        p->drawText(QRectF(x - box / 2, tokens_.y(), box, piece_h), Qt::AlignHCenter | Qt::AlignTop,
                    paint::elide(visible_token(piece(t)), sm, std::min(box - 2, kLabelCap)));
        p->setPen(muted);
        p->drawText(QRectF(x - box / 2, tokens_.y() + piece_h, box, tokens_.height() - piece_h),
                    Qt::AlignHCenter | Qt::AlignTop, QString::number(t + 1));
    }
    const double x = columnX(focus);
    // Kept on the canvas when the token in focus is the first or the last.
    const double left = std::clamp(x - focus_w / 2, tokens_.left(),
                                   std::max(tokens_.left(), tokens_.right() - focus_w));
    const QRectF r(left, tokens_.y(), focus_w, piece_h);
    p->setFont(bold_);
    p->setPen(paint::kHighlight);
    p->drawText(r, Qt::AlignHCenter | Qt::AlignTop, focus_label);
    p->drawText(QRectF(r.x(), r.bottom(), r.width(), tokens_.height() - piece_h),
                Qt::AlignHCenter | Qt::AlignTop, QString::number(focus + 1));
}

}  // namespace attnviz::ui
