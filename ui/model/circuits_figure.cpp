#include "ui/model/circuits_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/compute/colour_table.h"
#include "ui/compute/csv.h"
#include "ui/compute/model_store.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {
struct CircuitsText {
    Q_DECLARE_TR_FUNCTIONS(CircuitsFigure)
};

constexpr double kCircuitsPad = 16.0;
constexpr double kBarWidth = 14.0;
/// Above this many cells an SVG or PDF gets the matrix as one image: a rectangle a cell would
/// make a 336 × 336 matrix a file of megabytes.
constexpr int kVectorCells = 64 * 64;

/// "0.270", "−0.880": three decimals (or `decimals`) and a true minus.
QString three_decimals(double v, int decimals = 3) {
    QString s = QString::number(v, 'f', decimals);
    if (s.startsWith(QLatin1Char('-'))) s.replace(0, 1, QStringLiteral("−"));
    return s;
}

/// 9 significant digits: a float reads back bit for bit.
constexpr int kExactDigits = 9;

/// `rect` grown about its centre to at least `side` pixels each way, so that a frame stays
/// visible on cells of a few pixels.
QRectF at_least(const QRectF& rect, double side) {
    const double w = std::max(rect.width(), side), h = std::max(rect.height(), side);
    return QRectF(rect.center().x() - w / 2, rect.center().y() - h / 2, w, h);
}
}  // namespace

QString composition_letter(Composition c) {
    return c == Composition::Q   ? QStringLiteral("Q")
           : c == Composition::K ? QStringLiteral("K")
                                 : QStringLiteral("V");
}

QString CircuitMaps::headName(int n) const {
    return QStringLiteral("L%1H%2").arg(n / num_heads + 1).arg(n % num_heads + 1);
}

bool CircuitMaps::composes(int from, int to) const {
    return from >= 0 && to >= 0 && from < heads() && to < heads() &&
           from / num_heads < to / num_heads;
}

float CircuitMaps::composition(Composition c, int from, int to) const {
    if (!composes(from, to)) return std::numeric_limits<float>::quiet_NaN();
    const auto N = std::size_t(heads());
    return scores.composition.data[(std::size_t(c) * N + std::size_t(from)) * N + std::size_t(to)];
}

double CircuitMaps::copying(int n) const {
    if (n < 0 || std::size_t(n) >= scores.copying.size())
        return std::numeric_limits<double>::quiet_NaN();
    return scores.copying[std::size_t(n)];
}

std::pair<float, float> CircuitMaps::range(Composition c) const {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (int from = 0; from < heads(); ++from)
        for (int to = (from / num_heads + 1) * num_heads; to < heads(); ++to) {
            const float v = composition(c, from, to);
            if (!std::isfinite(v)) continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    return lo <= hi ? std::pair{lo, hi} : std::pair{0.0f, 0.0f};
}

CircuitMaps make_circuit_maps(const models::OpenedModel& model, models::CircuitScores scores) {
    CircuitMaps m;
    m.model = model_display_name(model);
    m.num_layers = int(scores.layers);
    m.num_heads = int(scores.heads);
    m.scores = std::move(scores);
    return m;
}

QByteArray circuits_csv(const CircuitMaps& m) {
    QByteArray out = "from,to,q,k,v\n";
    for (int from = 0; from < m.heads(); ++from)
        for (int to = 0; to < m.heads(); ++to) {
            if (!m.composes(from, to)) continue;
            out += QStringLiteral("%1,%2,%3,%4,%5\n")
                       .arg(m.headName(from), m.headName(to),
                            csv_number(m.composition(Composition::Q, from, to), kExactDigits),
                            csv_number(m.composition(Composition::K, from, to), kExactDigits),
                            csv_number(m.composition(Composition::V, from, to), kExactDigits))
                       .toUtf8();
        }
    if (m.scores.copying.empty()) return out;
    out += "\nhead,copying\n";
    for (int n = 0; n < m.heads(); ++n)
        out += QStringLiteral("%1,%2\n")
                   .arg(m.headName(n), csv_number(m.copying(n), kExactDigits))
                   .toUtf8();
    return out;
}

QString CircuitsFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    return CircuitsText::tr("%1-composition between heads, from the weights alone")
        .arg(composition_letter(composition_));
}

QString CircuitsFigure::captionText() const {
    if (!maps_) return {};
    QStringList parts{
        maps_->model,
        CircuitsText::tr("%1 layers × %2 heads").arg(maps_->num_layers).arg(maps_->num_heads)};
    if (maps_->scores.folded_norms) parts << CircuitsText::tr("the norms' scales folded in");
    if (maps_->scores.rope_offset)
        parts
            << CircuitsText::tr("rotary: W_QK at query − key = %1").arg(*maps_->scores.rope_offset);
    return parts.join(QStringLiteral(" · "));
}

QString CircuitsFigure::columnsTitle() const {
    switch (composition_) {
        case Composition::Q:
            return CircuitsText::tr("Later head, reading with its queries");
        case Composition::K:
            return CircuitsText::tr("Later head, reading with its keys");
        case Composition::V:
            break;
    }
    return CircuitsText::tr("Later head, reading with its values");
}

QString CircuitsFigure::notesText() const {
    if (!maps_) return {};
    if (maps_->num_layers < 2)
        return CircuitsText::tr("%1 has one layer: no head reads another head's output.")
            .arg(maps_->model);
    QString what;
    switch (composition_) {
        case Composition::Q:
            what = CircuitsText::tr(
                "Q-composition: how strongly the later head's queries read what the earlier "
                "head writes, ‖W_OV¹ W_QK²‖ / (‖W_OV¹‖ ‖W_QK²‖), from the weights alone (Elhage "
                "et al. 2021).");
            break;
        case Composition::K:
            what = CircuitsText::tr(
                "K-composition: how strongly the later head's keys read what the earlier head "
                "writes, ‖W_OV¹ (W_QK²)ᵀ‖ / (‖W_OV¹‖ ‖W_QK²‖), from the weights alone (Elhage et "
                "al. 2021). An induction head's keys read what a previous-token head wrote.");
            break;
        case Composition::V:
            what = CircuitsText::tr(
                "V-composition: how strongly the later head's values read what the earlier "
                "head writes, ‖W_OV¹ W_OV²‖ / (‖W_OV¹‖ ‖W_OV²‖), from the weights alone (Elhage "
                "et al. 2021).");
            break;
    }
    QString notes = what + QLatin1Char('\n');
    // Two layers: every cell drawn composes, so there is no grey to explain.
    notes += maps_->num_layers > 2
                 ? CircuitsText::tr(
                       "Grey: pairs that cannot compose (the same layer, or a later layer into "
                       "an earlier one). The colours run from the smallest to the largest "
                       "score.")
                 : CircuitsText::tr("The colours run from the smallest to the largest score.");
    if (maps_->scores.copying.empty())
        notes +=
            QLatin1Char('\n') + CircuitsText::tr("No copying scores: %1")
                                    .arg(QString::fromStdString(maps_->scores.copying_missing));
    else
        notes += QLatin1Char('\n') +
                 CircuitsText::tr(
                     "Copying score (the strips, −1 to +1): Σλ / Σ|λ| over the eigenvalues of "
                     "W_E W_OV W_U; near +1 the head copies the token it attends to into the "
                     "prediction.");
    return notes;
}

/// What CircuitsFigure::layout() measures before it places the matrix, legend and notes.
struct CircuitsFigure::LayoutPlan {
    QString notes, rows_title, cols_title, copy_label;
    QRectF area;  ///< the canvas under the title
    int px = 0;   ///< the font's pixel size
    bool copying = false;
    double notes_min_w = 0.0;
    double label_w = 0.0, lh = 0.0, title_h = 0.0, copy_label_h = 0.0, row_label_w = 0.0;
    double value_w = 0.0, value_h = 0.0, legend_w = 0.0;
    double beside = 0.0;  ///< the width beside the cells: titles, labels, strips, legend
    double top = 0.0;     ///< the column labels' height
    double bottom = 0.0, right = 0.0;  ///< of the matrix and its strips with their labels
    double legend_bottom = 0.0, content_right = 0.0;
};

void CircuitsFigure::layout(QSize size) {
    size_ = size;
    LayoutPlan plan;
    chooseFonts(plan);
    matrix_ = right_strip_ = bottom_strip_ = comp_bar_ = copy_bar_ = notes_ = QRectF();
    rows_title_ = cols_title_ = comp_header_ = copy_header_ = QRectF();
    notes_text_.clear();
    image_ = QImage();
    rows_ = cols_ = 0;
    cell_ = strip_ = 0.0;
    const double y =
        title_.layout(options_, titleText(), captionText(), 8, size.width(), kCircuitsPad);
    used_height_ = int(std::ceil(y));
    used_width_ = -1;
    if (!maps_ || maps_->num_layers < 1 || maps_->num_heads < 1) return;
    rows_ = cols_ = (maps_->num_layers - 1) * maps_->num_heads;
    plan.area = QRectF(kCircuitsPad, y + 4, size.width() - 2 * kCircuitsPad,
                       size.height() - y - 4 - kCircuitsPad);
    plan.notes_min_w = std::min(plan.area.width(), 520.0);
    if (rows_ == 0) {  // one layer: the notes say why there is nothing to draw
        notes_text_ = paint::wrap_text(plan.notes, small_, plan.notes_min_w);
        notes_ = QRectF(plan.area.x(), plan.area.y(), plan.notes_min_w,
                        notesHeight(plan, plan.notes_min_w));
        used_height_ = int(std::ceil(notes_.bottom() + kCircuitsPad));
        used_width_ = int(std::ceil(std::max(notes_.right() + kCircuitsPad, 480.0)));
        return;
    }
    measure(plan);
    chooseCell(plan);
    placeMatrix(plan);
    placeLegend(plan);
    placeNotes(plan);
    buildImage();
}

void CircuitsFigure::chooseFonts(LayoutPlan& plan) {
    plan.notes = notesText();
    plan.rows_title = CircuitsText::tr("Earlier head, writing");
    plan.cols_title = columnsTitle();
    plan.copy_label = CircuitsText::tr("Copying");
    comp_header_text_ = CircuitsText::tr("%1-composition").arg(composition_letter(composition_));
    copy_header_text_ = CircuitsText::tr("Copying score");
    // Every text the figure draws, so that the fonts name the family their characters come
    // from (the translations' Chinese) and measure as they draw.
    const QStringList texts{maps_ ? maps_->model : QString(),
                            plan.notes,
                            plan.rows_title,
                            plan.cols_title,
                            plan.copy_label,
                            comp_header_text_,
                            copy_header_text_,
                            captionText()};
    plan.px = std::max(6, options_.font_px);
    font_ = figure_font(plan.px, texts);
    small_ = figure_font(std::max(6, plan.px - 2), texts);
    bold_ = figure_font(plan.px, texts, true);
}

double CircuitsFigure::notesHeight(const LayoutPlan& plan, double width) const {
    return text_height(small_, paint::wrap_text(plan.notes, small_, width)) + 4;
}

double CircuitsFigure::stripFor(const LayoutPlan& plan, double cell) const {
    if (!plan.copying) return 0.0;
    return cell >= plan.value_w && cell >= plan.value_h ? std::max(plan.value_w, plan.value_h)
                                                        : std::clamp(cell, 8.0, 20.0);
}

void CircuitsFigure::measure(LayoutPlan& plan) {
    const QFontMetricsF fm(font_), sm(small_);
    plan.copying = !maps_->scores.copying.empty();
    const bool copying = plan.copying;
    for (int n = 0; n < maps_->heads(); ++n)
        plan.label_w = std::max(plan.label_w, fm.horizontalAdvance(maps_->headName(n)));
    plan.lh = line_height(font_, QStringLiteral("L88H88"));
    plan.title_h = line_height(bold_, plan.rows_title + plan.cols_title);
    plan.copy_label_h = copying ? line_height(small_, plan.copy_label) : 0.0;
    plan.row_label_w =
        std::max(plan.label_w, copying ? sm.horizontalAdvance(plan.copy_label) : 0.0) + 6;
    plan.value_w = sm.horizontalAdvance(QStringLiteral("−0.00")) + 6;
    plan.value_h = line_height(small_, QStringLiteral("0.00")) + 4;
    const auto [lo, hi] = maps_->range(composition_);
    lo_ = lo;
    hi_ = hi > lo ? hi : lo + 1e-6f;
    // Enough decimals that the scale's three ticks differ (random weights give a narrow range).
    decimals_ = std::clamp(int(std::ceil(-std::log10(double(hi_) - double(lo_)))) + 2, 3, 6);
    const double tick_w = std::max(sm.horizontalAdvance(QStringLiteral("−1.00")),
                                   sm.horizontalAdvance(three_decimals(double(hi_), decimals_)));
    const double bar_w = kBarWidth + 5 + tick_w;
    plan.legend_w = std::max(
        bar_w, std::min(130.0, std::max(sm.horizontalAdvance(comp_header_text_),
                                        copying ? sm.horizontalAdvance(copy_header_text_) : 0.0)));
    plan.beside =
        plan.title_h + 4 + plan.row_label_w + 4 + 6 + 4 + plan.copy_label_h + 16 + plan.legend_w;
}

double CircuitsFigure::fitCell(const LayoutPlan& plan, double top) const {
    const QRectF& area = plan.area;
    // The notes' reserve only grows (so the cells only shrink and the notes only narrow),
    // until it holds the notes as wrapped beside the cells it leaves.
    double cell = 0.0, notes_h = notesHeight(plan, area.width());
    for (int k = 0; k < 8; ++k) {
        double strip = plan.copying ? 14.0 : 0.0;
        for (int s = 0; s < 2; ++s) {  // the strips follow the cells: twice settles it
            const double w = area.width() - plan.beside - strip;
            const double h =
                area.height() - (plan.title_h + 4 + top + 4) - (6 + strip) - (10 + notes_h);
            cell = std::max(0.0, std::min({w / cols_, h / rows_, 72.0}));
            if (cell >= 4) cell = std::floor(cell);
            strip = stripFor(plan, cell);
        }
        const double needed = notesHeight(
            plan, std::clamp(plan.beside + strip + cols_ * cell, plan.notes_min_w, area.width()));
        if (needed <= notes_h) break;
        notes_h = needed;
    }
    return cell;
}

void CircuitsFigure::chooseCell(LayoutPlan& plan) {
    // Column labels across when a cell is wide enough, else written upwards, else one a layer.
    plan.top = plan.lh + 4;
    column_labels_ = ColumnLabels::Flat;
    double cell = fitCell(plan, plan.top);
    if (cell < plan.label_w + 4) {
        plan.top = plan.label_w + 4;
        cell = fitCell(plan, plan.top);
        column_labels_ = ColumnLabels::Rotated;
        if (cell < plan.lh) {
            plan.top = plan.lh + 4;
            cell = fitCell(plan, plan.top);
            column_labels_ = ColumnLabels::Layers;
        }
    }
    cell_ = cell;
    strip_ = stripFor(plan, cell_);
    row_heads_ = cell_ >= plan.lh;
    values_ = cell_ >= plan.value_w && cell_ >= plan.value_h;
}

void CircuitsFigure::placeMatrix(LayoutPlan& plan) {
    const QRectF& area = plan.area;
    const double x0 = area.x() + plan.title_h + 4 + plan.row_label_w + 4;
    const double y0 = area.y() + plan.title_h + 4 + plan.top + 4;
    matrix_ = QRectF(x0, y0, cols_ * cell_, rows_ * cell_);
    const double cols_title_w =
        std::min(QFontMetricsF(bold_).horizontalAdvance(plan.cols_title) + 2, area.right() - x0);
    cols_title_ = QRectF(x0, area.y(), std::max(matrix_.width(), cols_title_w), plan.title_h);
    rows_title_ =
        QRectF(area.x(), y0, plan.title_h, matrix_.height() + (plan.copying ? 6 + strip_ : 0.0));
    plan.bottom = matrix_.bottom();
    plan.right = matrix_.right();
    if (plan.copying) {
        right_strip_ = QRectF(matrix_.right() + 6, y0, strip_, matrix_.height());
        bottom_strip_ = QRectF(x0, matrix_.bottom() + 6, matrix_.width(), strip_);
        // The bottom strip's label, beside it, may be taller than the strip.
        plan.bottom = bottom_strip_.center().y() + std::max(strip_, plan.copy_label_h) / 2;
        plan.right = right_strip_.right() + 4 + plan.copy_label_h;
    }
}

void CircuitsFigure::placeLegend(LayoutPlan& plan) {
    // The legend: the composition's colour bar above the copying score's, each under its
    // header; the ticks' numbers reach half a line past each bar's ends.
    const bool copying = plan.copying;
    const double y0 = matrix_.top();
    const double legend_x = plan.right + 16;
    const QString comp_header = paint::wrap_text(comp_header_text_, small_, plan.legend_w);
    const QString copy_header = paint::wrap_text(copy_header_text_, small_, plan.legend_w);
    const double comp_hh = text_height(small_, comp_header);
    const double copy_hh = copying ? text_height(small_, copy_header) : 0.0;
    const double slh = QFontMetricsF(small_).height();
    const double room = std::max(plan.bottom, matrix_.bottom()) - y0;
    const double bars = copying ? 2 : 1;
    const double bar_h =
        std::clamp((room - comp_hh - copy_hh - bars * (4 + slh)) / bars, 40.0, 200.0);
    comp_header_ = QRectF(legend_x, y0, plan.legend_w, comp_hh);
    comp_bar_ = QRectF(legend_x, comp_header_.bottom() + 4 + slh / 2, kBarWidth, bar_h);
    plan.legend_bottom = comp_bar_.bottom() + slh / 2;
    if (copying) {
        copy_header_ = QRectF(legend_x, plan.legend_bottom + 12, plan.legend_w, copy_hh);
        copy_bar_ = QRectF(legend_x, copy_header_.bottom() + 4 + slh / 2, kBarWidth, bar_h);
        plan.legend_bottom = copy_bar_.bottom() + slh / 2;
    }
    comp_header_text_ = comp_header;
    copy_header_text_ = copy_header;
    plan.content_right = legend_x + plan.legend_w;
}

void CircuitsFigure::placeNotes(const LayoutPlan& plan) {
    const QRectF& area = plan.area;
    const double notes_w =
        std::clamp(plan.content_right - area.x(), plan.notes_min_w, area.width());
    notes_text_ = paint::wrap_text(plan.notes, small_, notes_w);
    notes_ = QRectF(area.x(), std::max(plan.bottom, plan.legend_bottom) + 10, notes_w,
                    text_height(small_, notes_text_) + 4);
    used_height_ = int(std::ceil(notes_.bottom() + kCircuitsPad));
    // The matrix alone need not fill a wide canvas; the title's line still must fit.
    const double title_w =
        QFontMetricsF(figure_font(plan.px + 5, {titleText()}, true)).horizontalAdvance(titleText());
    used_width_ = int(std::ceil(
        std::max({plan.content_right + kCircuitsPad, notes_.right() + kCircuitsPad,
                  cols_title_.right() + kCircuitsPad, title_w + 2 * kCircuitsPad + 8, 480.0})));
}

void CircuitsFigure::buildImage() {
    const int H = maps_->num_heads;
    image_ = QImage(cols_, rows_, QImage::Format_RGB32);
    std::vector<double> row(static_cast<std::size_t>(cols_));
    for (int r = 0; r < rows_; ++r) {
        for (int c = 0; c < cols_; ++c)
            row[std::size_t(c)] = double(maps_->composition(composition_, r, H + c));
        table_.colorize(row.data(), double(lo_), double(hi_),
                        reinterpret_cast<QRgb*>(image_.scanLine(r)), cols_);
    }
}

QColor CircuitsFigure::cellColour(float v) const {
    QRgb rgb = 0;
    const double d = double(v);
    table_.colorize(&d, double(lo_), double(hi_), &rgb, 1);
    return QColor::fromRgb(rgb);
}

QRectF CircuitsFigure::cellRect(int from, int to) const {
    if (!maps_ || cell_ <= 0) return {};
    const int c = to - maps_->num_heads;
    if (from < 0 || from >= rows_ || c < 0 || c >= cols_) return {};
    return QRectF(matrix_.x() + c * cell_, matrix_.y() + from * cell_, cell_, cell_);
}

QPoint CircuitsFigure::pairAt(const QPointF& pos) const {
    if (!maps_ || cell_ <= 0 || !matrix_.contains(pos)) return {-1, -1};
    const int r = std::min(rows_ - 1, int((pos.y() - matrix_.y()) / cell_));
    const int c = std::min(cols_ - 1, int((pos.x() - matrix_.x()) / cell_));
    return {r, maps_->num_heads + c};
}

QRectF CircuitsFigure::copyingRect(int head, bool right_strip) const {
    if (!maps_ || strip_ <= 0) return {};
    if (right_strip)
        return head >= 0 && head < rows_
                   ? QRectF(right_strip_.x(), matrix_.y() + head * cell_, strip_, cell_)
                   : QRectF();
    const int c = head - maps_->num_heads;
    return c >= 0 && c < cols_ ? QRectF(matrix_.x() + c * cell_, bottom_strip_.y(), cell_, strip_)
                               : QRectF();
}

int CircuitsFigure::copyingHeadAt(const QPointF& pos) const {
    if (!maps_ || strip_ <= 0) return -1;
    if (right_strip_.contains(pos))
        return std::min(rows_ - 1, int((pos.y() - matrix_.y()) / cell_));
    if (bottom_strip_.contains(pos))
        return maps_->num_heads + std::min(cols_ - 1, int((pos.x() - matrix_.x()) / cell_));
    return -1;
}

QString CircuitsFigure::describe(int from, int to) const {
    if (!maps_ || from < 0 || to < 0 || from >= maps_->heads() || to >= maps_->heads()) return {};
    if (!maps_->composes(from, to))
        return CircuitsText::tr(
                   "%1 → %2: no composition (a head reads only what the layers below it wrote)")
            .arg(maps_->headName(from), maps_->headName(to));
    return CircuitsText::tr("%1 → %2: %3-composition %4")
        .arg(maps_->headName(from), maps_->headName(to), composition_letter(composition_),
             three_decimals(double(maps_->composition(composition_, from, to))));
}

QString CircuitsFigure::describeCopying(int head) const {
    if (!maps_ || head < 0 || head >= maps_->heads()) return {};
    const double v = maps_->copying(head);
    if (std::isnan(v))
        return CircuitsText::tr("%1: no copying score (its W_OV is zero)")
            .arg(maps_->headName(head));
    return CircuitsText::tr("%1: copying score %2").arg(maps_->headName(head), three_decimals(v));
}

QString CircuitsFigure::describeAt(const QPointF& pos) const {
    const QPoint pair = pairAt(pos);
    if (pair.x() >= 0) return describe(pair.x(), pair.y());
    return describeCopying(copyingHeadAt(pos));
}

void CircuitsFigure::paint(QPainter* p, bool vector) const {
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    title_.paint(p, options_);
    if (!maps_) return;
    if (rows_ > 0 && cell_ > 0) {
        paintMatrix(p, vector);
        paintLabels(p);
        if (strip_ > 0) paintStrips(p);
        paintScales(p);
    }
    p->setFont(small_);
    p->setPen(options_.high_contrast ? QColor(Qt::black) : paint::kMuted);
    p->drawText(notes_, Qt::AlignLeft | Qt::AlignTop, notes_text_);
}

void CircuitsFigure::paintMatrix(QPainter* p, bool vector) const {
    const int H = maps_->num_heads;
    if (vector && rows_ * cols_ <= kVectorCells) {
        // Rectangles stay crisp at any zoom of an SVG or PDF.
        for (int r = 0; r < rows_; ++r)
            for (int c = 0; c < cols_; ++c)
                p->fillRect(cellRect(r, H + c), QColor::fromRgb(image_.pixel(c, r)));
    } else {
        p->save();
        p->setRenderHint(QPainter::SmoothPixmapTransform, false);
        p->drawImage(matrix_, image_);
        p->restore();
    }
    // Thin white lines between cells large enough to need them; thicker ones between layers.
    if (cell_ >= 8) {
        p->setPen(QPen(Qt::white, 1.0));
        for (int k = 1; k < cols_; ++k)
            p->drawLine(QPointF(matrix_.x() + k * cell_, matrix_.top()),
                        QPointF(matrix_.x() + k * cell_, matrix_.bottom()));
        for (int k = 1; k < rows_; ++k)
            p->drawLine(QPointF(matrix_.left(), matrix_.y() + k * cell_),
                        QPointF(matrix_.right(), matrix_.y() + k * cell_));
    }
    p->setPen(QPen(Qt::white, cell_ >= 8 ? 3.0 : 1.5));
    for (int k = H; k < cols_; k += H) {
        p->drawLine(QPointF(matrix_.x() + k * cell_, matrix_.top()),
                    QPointF(matrix_.x() + k * cell_, matrix_.bottom()));
        p->drawLine(QPointF(matrix_.left(), matrix_.y() + k * cell_),
                    QPointF(matrix_.right(), matrix_.y() + k * cell_));
    }
    if (values_) {
        p->setFont(small_);
        for (int r = 0; r < rows_; ++r)
            for (int to = H; to < maps_->heads(); ++to) {
                const float v = maps_->composition(composition_, r, to);
                if (!std::isfinite(v)) continue;
                p->setPen(text_color_on(cellColour(v)));
                p->drawText(cellRect(r, to), Qt::AlignCenter, paint::format_cell(double(v)));
            }
    }
    p->setBrush(Qt::NoBrush);
    const auto frame = [&](QPoint pair, const QColor& colour) {
        const QRectF r = cellRect(pair.x(), pair.y());
        if (r.isEmpty()) return;
        p->setPen(QPen(colour, 2.5));
        p->drawRect(at_least(r.adjusted(1, 1, -1, -1), 7));
    };
    frame(chosen_, paint::kAccent);
    frame(hover_, paint::kHighlight);
}

void CircuitsFigure::paintLabels(QPainter* p) const {
    const int H = maps_->num_heads, layers = maps_->num_layers;
    const QColor text = paint::text_color(options_);
    const QFontMetricsF fm(font_), bm(bold_);
    // The axes' titles: the rows' written upwards beside their labels.
    p->setFont(bold_);
    p->setPen(text);
    const QString cols_title = columnsTitle();
    p->drawText(
        cols_title_,
        (bm.horizontalAdvance(cols_title) <= matrix_.width() ? Qt::AlignHCenter : Qt::AlignLeft) |
            Qt::AlignVCenter,
        paint::elide(cols_title, bm, cols_title_.width()));
    p->save();
    p->translate(rows_title_.left(), rows_title_.bottom());
    p->rotate(-90);
    p->drawText(QRectF(0, 0, rows_title_.height(), rows_title_.width()), Qt::AlignCenter,
                paint::elide(CircuitsText::tr("Earlier head, writing"), bm, rows_title_.height()));
    p->restore();

    p->setFont(font_);
    const double lh = fm.height();
    const double label_right = matrix_.left() - 4;
    const double label_left = rows_title_.right() + 4;
    if (row_heads_) {
        for (int r = 0; r < rows_; ++r)
            p->drawText(
                QRectF(label_left, matrix_.y() + r * cell_, label_right - label_left, cell_),
                Qt::AlignRight | Qt::AlignVCenter, maps_->headName(r));
    } else {
        const int every = label_stride(H * cell_, lh);
        for (int l = 0; l < layers - 1; l += every)
            p->drawText(QRectF(label_left, matrix_.y() + (l + 0.5) * H * cell_ - lh / 2,
                               label_right - label_left, lh),
                        Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("L%1").arg(l + 1));
    }
    const double label_bottom = matrix_.top() - 4;
    const double label_top = cols_title_.bottom() + 4;
    switch (column_labels_) {
        case ColumnLabels::Flat:
            for (int c = 0; c < cols_; ++c)
                p->drawText(
                    QRectF(matrix_.x() + c * cell_, label_top, cell_, label_bottom - label_top),
                    Qt::AlignHCenter | Qt::AlignBottom, maps_->headName(H + c));
            break;
        case ColumnLabels::Rotated:
            for (int c = 0; c < cols_; ++c) {
                p->save();
                p->translate(matrix_.x() + (c + 0.5) * cell_, label_bottom);
                p->rotate(-90);
                p->drawText(QRectF(0, -lh / 2, label_bottom - label_top, lh),
                            Qt::AlignLeft | Qt::AlignVCenter, maps_->headName(H + c));
                p->restore();
            }
            break;
        case ColumnLabels::Layers: {
            const int every =
                label_stride(H * cell_, fm.horizontalAdvance(QStringLiteral("L88")) + 6);
            for (int l = 1; l < layers; l += every) {
                const double centre = matrix_.x() + (l - 0.5) * H * cell_;
                p->drawText(QRectF(centre - 40, label_top, 80, label_bottom - label_top),
                            Qt::AlignHCenter | Qt::AlignBottom, QStringLiteral("L%1").arg(l + 1));
            }
            break;
        }
    }
}

void CircuitsFigure::paintStrips(QPainter* p) const {
    const int H = maps_->num_heads;
    const QColor none = masked_cell_color(Colormap::Viridis);
    p->setFont(small_);
    const auto head_cell = [&](int n, bool right_strip) {
        const QRectF cell = copyingRect(n, right_strip);
        const double v = maps_->copying(n);
        const QColor colour = std::isnan(v) ? none : paint::signed_color(v, 1.0);
        p->fillRect(cell, colour);
        if (values_ && !std::isnan(v)) {
            p->setPen(text_color_on(colour));
            p->drawText(cell, Qt::AlignCenter, paint::format_cell(v));
        }
    };
    for (int r = 0; r < rows_; ++r)
        head_cell(r, true);
    for (int n = H; n < maps_->heads(); ++n)
        head_cell(n, false);
    // Lines between the cells, as in the matrix, and between the layers.
    p->setPen(QPen(Qt::white, 1.0));
    const int every = cell_ >= 8 ? 1 : H;
    for (int k = every; k < rows_; k += every) {
        p->drawLine(QPointF(right_strip_.left(), matrix_.y() + k * cell_),
                    QPointF(right_strip_.right(), matrix_.y() + k * cell_));
        p->drawLine(QPointF(matrix_.x() + k * cell_, bottom_strip_.top()),
                    QPointF(matrix_.x() + k * cell_, bottom_strip_.bottom()));
    }
    // Their label: written downwards right of the rows' strip, and left of the columns'.
    const QString label = CircuitsText::tr("Copying");
    const QFontMetricsF sm(small_);
    p->setPen(options_.high_contrast ? QColor(Qt::black) : paint::kMuted);
    const double lh = line_height(small_, label);
    p->save();
    p->translate(right_strip_.right() + 4 + lh, right_strip_.top());
    p->rotate(90);
    p->drawText(QRectF(0, 0, right_strip_.height(), lh), Qt::AlignCenter,
                paint::elide(label, sm, right_strip_.height()));
    p->restore();
    const double h = std::max(strip_, lh);
    p->drawText(QRectF(rows_title_.right() + 4, bottom_strip_.center().y() - h / 2,
                       matrix_.left() - 4 - rows_title_.right() - 4, h),
                Qt::AlignRight | Qt::AlignVCenter, label);
}

void CircuitsFigure::paintScales(QPainter* p) const {
    const QColor muted = options_.high_contrast ? QColor(Qt::black) : paint::kMuted;
    const QFontMetricsF sm(small_);
    const auto bar = [&](const QRectF& r, const QString& header_text, const QRectF& header,
                         auto colour_at, const std::vector<std::pair<double, QString>>& ticks) {
        p->setFont(small_);
        p->setPen(paint::text_color(options_));
        p->drawText(header, Qt::AlignLeft | Qt::AlignTop, header_text);
        const int steps = std::max(2, int(r.height()));
        for (int k = 0; k < steps; ++k) {
            const double t = 1.0 - (k + 0.5) / steps;  // the top is the largest
            p->fillRect(
                QRectF(r.x(), r.y() + k * r.height() / steps, r.width(), r.height() / steps + 0.6),
                colour_at(t));
        }
        p->setPen(QPen(muted, 1.0));
        p->setBrush(Qt::NoBrush);
        p->drawRect(r);
        for (const auto& [t, label] : ticks) {
            const double y = r.bottom() - t * r.height();
            p->drawLine(QPointF(r.right(), y), QPointF(r.right() + 3, y));
            p->drawText(QRectF(r.right() + 5, y - sm.height() / 2, 80, sm.height()),
                        Qt::AlignLeft | Qt::AlignVCenter, label);
        }
    };
    const double lo = double(lo_), hi = double(hi_);
    bar(comp_bar_, comp_header_text_, comp_header_,
        [&](double t) { return cellColour(float(lo + t * (hi - lo))); },
        {{0.0, three_decimals(lo, decimals_)},
         {0.5, three_decimals((lo + hi) / 2, decimals_)},
         {1.0, three_decimals(hi, decimals_)}});
    if (!copy_bar_.isEmpty())
        bar(copy_bar_, copy_header_text_, copy_header_,
            [](double t) { return paint::signed_color(2 * t - 1, 1.0); },
            {{0.0, paint::format_cell(-1.0)},
             {0.5, paint::format_cell(0.0)},
             {1.0, paint::format_cell(1.0)}});
}

}  // namespace attnviz::ui
