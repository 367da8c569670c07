#include "ui/classroom/steps_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <array>
#include <cmath>

#include <qcustomplot.h>

#include "ui/compute/resolved_config.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, as a class so lupdate files them
// under the context tr() looks them up in.
struct StepsText {
    Q_DECLARE_TR_FUNCTIONS(Steps)
};

constexpr double kStepsPad = 12.0;
constexpr double kStepsGap = 12.0;
constexpr int kStepsValueCells = 32 * 32;

}  // namespace

void StepsFigure::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    dirty_ = true;
}

void StepsFigure::setOptions(const FigureOptions& options) {
    if (options.head != options_.head || options.batch_item != options_.batch_item ||
        options.colormap != options_.colormap)
        dirty_ = true;
    options_ = options;
}

int StepsFigure::currentStep() const {
    if (model_.empty()) return -1;
    if (options_.step < 0) return model_.count() - 1;
    return std::min(options_.step, model_.count() - 1);
}

void StepsFigure::rebuild() {
    dirty_ = false;
    hover_ = {};
    highlights_.clear();
    images_.clear();
    max_abs_.clear();
    message_.clear();
    if (!snapshot_) {
        model_ = {};
        message_ = StepsText::tr("Nothing computed yet.");
        return;
    }
    model_ = build_steps_model(*snapshot_, options_.batch_item, options_.head, &message_);
    for (const Stage& st : model_.stages) {
        double m = 0.0;
        for (std::size_t k = 0; k < st.values.size(); ++k)
            if (std::isfinite(st.values[k]) && !(!st.masked.empty() && st.masked[k]))
                m = std::max(m, double(std::abs(st.values[k])));
        max_abs_.push_back(m > 0.0 ? m : 1.0);
    }
    images_.resize(model_.stages.size());
}

QString StepsFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (model_.empty()) return StepsText::tr("Computation steps");
    if (model_.layer >= 0)
        return StepsText::tr(
                   "Inside layer %1, head %2 of %3: softmax(QKᵀ / √d_k + M) V, step by "
                   "step")
            .arg(model_.layer + 1)
            .arg(model_.head + 1)
            .arg(model_.model_name);
    QString t = StepsText::tr("Inside head %1: softmax(QKᵀ / √d_k + M) V, step by step")
                    .arg(model_.head + 1);
    if (snapshot_ && snapshot_->batch > 1)
        t += StepsText::tr(" (sentence %1)").arg(model_.item + 1);
    return t;
}

QString StepsFigure::captionText() const {
    if (!snapshot_) return QString();
    // The steps make the weights α; the map views show ‖α·f(x)‖ meanwhile.
    const QString norm = snapshot_->norm_based
                             ? QLatin1Char('\n') + StepsText::tr(
                                                       "The steps compute the weights "
                                                       "α; the other views show "
                                                       "norm-based ‖α·f(x)‖.")
                             : QString();
    if (model_.layer >= 0) {  // the model's own pieces, whatever the other views group
        QStringList parts{model_.model_name, StepsText::tr("layer %1").arg(model_.layer + 1),
                          StepsText::tr("%n token(s) as the model's tokenizer split them", nullptr,
                                        int(model_.query_tokens.size()))};
        if (model_.kv_heads < model_.heads)
            parts << StepsText::tr("%1 query heads share %2 key/value heads")
                         .arg(model_.heads)
                         .arg(model_.kv_heads);
        return parts.join(QStringLiteral(" · ")) + norm;
    }
    return describe_config(snapshot_->config) + norm;
}

const StepsFigure::Card* StepsFigure::cardOf(int stage) const {
    for (const Card& c : cards_)
        if (c.stage == stage) return &c;
    return nullptr;
}

QRectF StepsFigure::matrixRect(int stage) const {
    const Card* c = cardOf(stage);
    return c ? c->matrix : QRectF();
}

QRectF StepsFigure::cellRect(int stage, int row, int col) const {
    const Card* c = cardOf(stage);
    if (!c) return {};
    return QRectF(c->matrix.left() + col * c->cell_w, c->matrix.top() + row * c->cell_h, c->cell_w,
                  c->cell_h);
}

bool StepsFigure::valuesShown(int stage) const {
    const Card* c = cardOf(stage);
    return c && c->values && isRevealed(stage);
}

void StepsFigure::layout(QSize size) {
    if (dirty_) rebuild();
    size_ = size;
    cards_.clear();
    shown_.clear();
    if (model_.empty()) return;

    const int fpx = std::max(6, options_.font_px);
    label_px_ = fpx;
    const double W = std::max(64, size.width()), H = std::max(64, size.height());
    chooseShownStages();
    double y = titles_.layout(options_, titleText(), captionText(), kStepsPad, W, kStepsPad);
    y = layoutBanner(y, W);
    layoutLegend(W, H);
    const CardGrid grid = measureCards(
        QRectF(kStepsPad, y, W - 2 * kStepsPad, std::max(40.0, legend_rect_.top() - 6 - y)));
    placeCards(grid, chooseColumns(grid));
}

void StepsFigure::chooseShownStages() {
    const int cur = currentStep();
    if (options_.focus && !allShown()) {
        shown_ = model_.inputsOf(cur);
        shown_.push_back(cur);
    } else {
        for (int k = 0; k < model_.count(); ++k)
            shown_.push_back(k);
    }
}

namespace {
constexpr double kRampWidth = 90.0;  ///< a colour scale's ramp in the legend
constexpr double kLegendGap = 28.0;  ///< between two of the legend's entries
/// The legend's words: either end of the values' scale, of the weights', the masked cells.
struct LegendTexts {
    QString values_low = StepsText::tr("values: negative");
    QString values_high = StepsText::tr("positive");
    QString weights_low = StepsText::tr("weights: 0");
    QString weights_high = StepsText::tr("max");
    QString masked = StepsText::tr("masked (−∞ before softmax)");
    /// In `px` pixels, with the families that have every character of them (Chinese).
    QFont font(int px) const {
        return figure_font(std::max(6, px),
                           {values_low, values_high, weights_low, weights_high, masked});
    }
};
/// The legend's entries' widths in `fm`, `lh` their height: the values' scale, the weights',
/// the masked cells.
std::array<double, 3> legend_widths(const LegendTexts& t, const QFontMetricsF& fm, double lh) {
    const auto ramp = [&fm](const QString& low, const QString& high) {
        return fm.horizontalAdvance(low) + 6 + kRampWidth + 6 + fm.horizontalAdvance(high);
    };
    return {ramp(t.values_low, t.values_high), ramp(t.weights_low, t.weights_high),
            lh * 1.6 + 6 + fm.horizontalAdvance(t.masked)};
}
}  // namespace

void StepsFigure::layoutLegend(double width, double height) {
    const LegendTexts words;
    const QFontMetricsF fm(words.font(options_.font_px - 1));
    const double line_h = fm.height() + 8, room = width - 2 * kStepsPad;
    std::vector<QPointF> at;  // x in the line, y the line's number
    double x = 0;
    int line = 0;
    for (const double w : legend_widths(words, fm, fm.height())) {
        if (x > 0 && x + w > room) {
            x = 0;
            ++line;
        }
        at.emplace_back(x, line);
        x += w + kLegendGap;
    }
    const double legend_h = (line + 1) * line_h;
    legend_rect_ = QRectF(kStepsPad, height - kStepsPad - legend_h, room, legend_h);
    legend_at_.clear();
    for (const QPointF& p : at)
        legend_at_.emplace_back(kStepsPad + p.x(), legend_rect_.top() + p.y() * line_h + 4);
}

double StepsFigure::layoutBanner(double y, double width) {
    const int fpx = std::max(6, options_.font_px);
    const QFont banner_title_font = figure_font(fpx + 3, {}, true);
    const QFont banner_font = figure_font(fpx + 1);
    const int cur = currentStep();
    if (allShown()) {
        banner_title_ =
            StepsText::tr("All %1 steps of head %2").arg(model_.count()).arg(model_.head + 1);
        banner_text_ = interactive_ ? StepsText::tr(
                                          "Read from X to the output. Hover a cell "
                                          "to light up the cells it was computed from.")
                                    : StepsText::tr("Read from X to the output.");
    } else {
        const Stage& cs = model_.stages[std::size_t(cur)];
        banner_title_ =
            StepsText::tr("Step %1 of %2:  %3").arg(cur + 1).arg(model_.count()).arg(cs.formula);
        banner_text_ = cs.explanation;
    }
    banner_text_ = paint::wrap_text(banner_text_, banner_font, width - 2 * kStepsPad - 24);
    const double bh =
        line_height(banner_title_font, banner_title_) +
        line_height(banner_font, banner_text_) * (banner_text_.count(QLatin1Char('\n')) + 1) + 14;
    banner_rect_ = QRectF(kStepsPad, y, width - 2 * kStepsPad, bh);
    return y + (bh + kStepsGap);
}

StepsFigure::CardGrid StepsFigure::measureCards(const QRectF& area) {
    CardGrid grid;
    grid.area = area;
    grid.fpx = std::max(6, options_.font_px);
    QStringList tokens(model_.query_tokens.begin(), model_.query_tokens.end());
    tokens.append(QStringList(model_.key_tokens.begin(), model_.key_tokens.end()));
    const QFontMetricsF lfm(figure_font(grid.fpx, tokens));
    grid.label_h = lfm.height();
    auto label_w = [&](const QString& t) {
        return lfm.horizontalAdvance(paint::elide(visible_token(t), lfm, 9.0 * grid.fpx));
    };
    for (const QString& t : tokens)
        grid.widest = std::max(grid.widest, label_w(t));
    for (const QString& t : model_.key_tokens)
        grid.widest_key = std::max(grid.widest_key, label_w(t));
    row_label_w_ = grid.widest + 6;
    QString card_texts;  // every card's header, measured as drawn (CJK lines are taller)
    for (const Stage& st : model_.stages)
        card_texts += st.formula + st.name;
    grid.header_h = line_height(figure_font(grid.fpx + 1, {}, true), card_texts) +
                    line_height(figure_font(std::max(6, grid.fpx - 1)), card_texts) + 8;
    return grid;
}

double StepsFigure::cellScore(const CardGrid& grid, int nc, double col_h,
                              std::vector<double>* cells) const {
    const int P = int(shown_.size());
    const int nr = (P + nc - 1) / nc;
    const double cw = (grid.area.width() - (nc - 1) * kStepsGap) / nc;
    const double ch = (grid.area.height() - (nr - 1) * kStepsGap) / nr;
    double log_sum = 0.0, short_by = 0.0;
    cells->clear();
    for (int k = 0; k < P; ++k) {
        const Stage& st = model_.stages[std::size_t(shown_[std::size_t(k)])];
        const double mw = cw - row_label_w_ - 16;
        const double mh = ch - grid.header_h - col_h - 12;
        short_by = std::min({short_by, mw, mh});
        double c = std::min(mw / st.cols, mh / st.rows);
        c = std::max(c, 0.2);
        if (c >= 3.0) c = std::floor(c);
        cells->push_back(c);
        log_sum += std::log(c);
    }
    // Cards with no room under their headers overlap their text (every step of a model's
    // layer in a 1280 × 800 window): any layout with room wins, else the one short by least.
    if (short_by < 0) return -1e9 + short_by;
    return log_sum / P;
}

int StepsFigure::chooseColumns(const CardGrid& grid) {
    const int P = int(shown_.size());
    const double flat_h = grid.label_h + 6;
    const double rot_h = grid.widest + 8;
    std::vector<double> cells;
    int best_nc = 1;
    for (int attempt = 0; attempt < 2; ++attempt) {
        rotate_cols_ = attempt == 1;
        col_label_h_ = rotate_cols_ ? rot_h : flat_h;
        double best = -1e300;
        for (int nc = 1; nc <= P; ++nc) {
            const double score = cellScore(grid, nc, col_label_h_, &cells);
            if (score > best) {
                best = score;
                best_nc = nc;
            }
        }
        cellScore(grid, best_nc, col_label_h_, &cells);
        // Key labels lie flat when they fit under the columns of the score matrices.
        double key_cell = 1e9;
        for (int k = 0; k < P; ++k)
            if (model_.stages[std::size_t(shown_[std::size_t(k)])].col_axis == StageAxis::Keys)
                key_cell = std::min(key_cell, cells[std::size_t(k)]);
        if (key_cell >= grid.widest_key + 4 || key_cell == 1e9) break;
    }
    return best_nc;
}

void StepsFigure::placeCards(const CardGrid& grid, int nc) {
    const QRectF& area = grid.area;
    const int P = int(shown_.size());
    const int nr = (P + nc - 1) / nc;
    // Focus: the inputs side by side on top, the current stage across the whole width below.
    const bool focus = options_.focus && !allShown() && P > 1;
    const int top_count = focus ? P - 1 : nc;
    const int rows = focus ? 2 : nr;
    const double ch = (area.height() - (rows - 1) * kStepsGap) / rows;
    for (int k = 0; k < P; ++k) {
        Card card;
        card.stage = shown_[std::size_t(k)];
        const Stage& st = model_.stages[std::size_t(card.stage)];
        const bool last = focus && k == P - 1;
        const int per_row = last ? 1 : top_count;
        const double cw = (area.width() - (per_row - 1) * kStepsGap) / per_row;
        const int col = last ? 0 : k % per_row;
        const int row = last ? 1 : k / per_row;
        card.frame = QRectF(area.left() + col * (cw + kStepsGap),
                            area.top() + row * (ch + kStepsGap), cw, ch);
        const double mw_avail = cw - row_label_w_ - 16;
        const double mh_avail = ch - grid.header_h - col_label_h_ - 12;
        double c = std::max(0.2, std::min(mw_avail / st.cols, mh_avail / st.rows));
        if (c >= 3.0) c = std::floor(c);
        card.cell_w = card.cell_h = c;
        // Feature matrices (64 columns for 6 tokens) would be a thin strip: give their rows
        // at least the height of a label so every token stays readable.
        if (st.col_axis != StageAxis::Keys && c < grid.label_h + 2)
            card.cell_h = std::max(c, std::floor(std::min(mh_avail / st.rows, grid.label_h + 2)));
        const double mw = st.cols * card.cell_w, mh = st.rows * card.cell_h;
        card.matrix =
            QRectF(card.frame.left() + 8 + row_label_w_ + std::max(0.0, (mw_avail - mw) / 2),
                   card.frame.top() + grid.header_h + 4, mw, mh);
        const double cell = std::min(card.cell_w, card.cell_h);
        const QFont vf = figure_font(std::clamp(int(cell * 0.3), 7, grid.fpx));
        const QFontMetricsF vfm(vf);
        card.values = options_.values && st.rows * st.cols <= kStepsValueCells &&
                      vfm.horizontalAdvance(QStringLiteral("−0.00")) + 4 <= card.cell_w &&
                      vfm.height() + 2 <= card.cell_h;
        cards_.push_back(card);
    }
}

QColor StepsFigure::cellColor(const Stage& st, double v, bool masked) const {
    if (masked || std::isinf(v)) return masked_cell_color(options_.colormap);
    if (std::isnan(v)) return QColor(0xff, 0x00, 0xff);
    const std::size_t k = std::size_t(&st - model_.stages.data());
    if (st.probabilities) {
        if (gradient_map_ != int(options_.colormap)) {
            gradient_ = make_gradient(options_.colormap);
            gradient_map_ = int(options_.colormap);
        }
        return QColor(gradient_.color(v, QCPRange(0.0, max_abs_[k])));
    }
    return paint::signed_color(v, max_abs_[k]);
}

QImage StepsFigure::stageImage(int stage) const {
    QImage& image = images_[std::size_t(stage)];
    if (!image.isNull()) return image;
    const Stage& st = model_.stages[std::size_t(stage)];
    image = QImage(st.cols, st.rows, QImage::Format_RGB32);
    for (int r = 0; r < st.rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(r));
        for (int c = 0; c < st.cols; ++c)
            line[c] = cellColor(st, st.value(r, c), st.isMasked(r, c)).rgb();
    }
    return image;
}

void StepsFigure::paint(QPainter* p, bool vector) const {
    p->save();
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    const int fpx = std::max(6, options_.font_px);
    const QColor text = paint::text_color(options_);
    if (model_.empty()) {
        p->setPen(paint::kMuted);
        p->setFont(figure_font(fpx + 2));
        p->drawText(QRectF(QPointF(0, 0), QSizeF(size_)).adjusted(40, 40, -40, -40),
                    Qt::AlignCenter | Qt::TextWordWrap, message_);
        p->restore();
        return;
    }
    titles_.paint(p, options_);
    // Banner.
    p->setPen(Qt::NoPen);
    p->setBrush(QColor(0xe8, 0xf1, 0xf8));
    p->drawRoundedRect(banner_rect_, 6, 6);
    p->setBrush(paint::kAccent);
    p->drawRect(QRectF(banner_rect_.topLeft(), QSizeF(6, banner_rect_.height())));
    p->setBrush(Qt::NoBrush);
    const QFont btf = figure_font(fpx + 3, {}, true);
    p->setPen(text);
    p->setFont(btf);
    const QRectF inner = banner_rect_.adjusted(18, 6, -8, -6);
    p->drawText(inner, Qt::AlignLeft | Qt::AlignTop | Qt::TextDontClip, banner_title_);
    p->setFont(figure_font(fpx + 1));
    p->drawText(inner.adjusted(0, line_height(btf, banner_title_) + 2, 0, 0),
                Qt::AlignLeft | Qt::AlignTop | Qt::TextDontClip, banner_text_);

    for (const Card& card : cards_)
        paintCard(p, card, vector);

    // Legend: the two colour scales and the masked cells.
    const LegendTexts words;
    const QFont lf = words.font(fpx - 1);
    const QFontMetricsF lfm(lf);
    p->setFont(lf);
    const double lh = lfm.height();
    auto ramp = [&](const QPointF& at, const QString& low, const QString& high, auto color_at) {
        double x = at.x();
        p->setPen(text);
        p->drawText(QRectF(x, at.y(), lfm.horizontalAdvance(low) + 2, lh), Qt::AlignVCenter, low);
        x += lfm.horizontalAdvance(low) + 6;
        const double w = kRampWidth;
        for (int k = 0; k < 30; ++k) {
            p->fillRect(QRectF(x + k * w / 30, at.y(), w / 30 + 0.5, lh), color_at(k / 29.0));
        }
        p->setPen(QPen(paint::kMuted, 0.5));
        p->drawRect(QRectF(x, at.y(), w, lh));
        x += w + 6;
        p->setPen(text);
        p->drawText(QRectF(x, at.y(), lfm.horizontalAdvance(high) + 2, lh), Qt::AlignVCenter, high);
    };
    ramp(legend_at_[0], words.values_low, words.values_high,
         [](double t) { return paint::signed_color(2 * t - 1, 1.0); });
    QCPColorGradient g = make_gradient(options_.colormap);
    ramp(legend_at_[1], words.weights_low, words.weights_high,
         [&](double t) { return QColor(g.color(t, QCPRange(0, 1))); });
    const QRectF swatch(legend_at_[2], QSizeF(lh * 1.6, lh));
    p->fillRect(swatch, masked_cell_color(options_.colormap));
    paint::hatch(p, swatch, masked_hatch_color(options_.colormap));
    p->setPen(text);
    p->drawText(
        QRectF(swatch.right() + 6, swatch.top(), lfm.horizontalAdvance(words.masked) + 2, lh),
        Qt::AlignVCenter, words.masked);
    p->restore();
}

void StepsFigure::paintCard(QPainter* p, const Card& card, bool vector) const {
    p->save();
    paintCardFrame(p, card);
    const double header_bottom = paintCardHeader(p, card);
    if (!isRevealed(card.stage)) {  // a stage still to come: a question mark in its place
        p->setFont(figure_font(std::max(6, options_.font_px) * 3, {}, true));
        p->setPen(QColor(0xd8, 0xd8, 0xd8));
        p->drawText(card.frame.adjusted(0, header_bottom - card.frame.top(), 0, 0), Qt::AlignCenter,
                    QStringLiteral("?"));
        p->restore();
        return;
    }
    paintMatrix(p, card, vector);
    if (card.values) paintValues(p, card);
    paintAxisLabels(p, card);
    paintProvenance(p, card);
    p->restore();
}

void StepsFigure::paintCardFrame(QPainter* p, const Card& card) const {
    if (!allShown() && card.stage == currentStep()) {
        p->setPen(QPen(paint::kAccent, 3));
        p->setBrush(QColor(0xf3, 0xf8, 0xfc));
    } else if (isRevealed(card.stage)) {
        p->setPen(QPen(QColor(0xc8, 0xc8, 0xc8), 1));
        p->setBrush(Qt::white);
    } else {
        QPen pen(QColor(0xc0, 0xc0, 0xc0), 1, Qt::DashLine);
        p->setPen(pen);
        p->setBrush(QColor(0xfa, 0xfa, 0xfa));
    }
    p->drawRoundedRect(card.frame.adjusted(1, 1, -1, -1), 6, 6);
}

double StepsFigure::paintCardHeader(QPainter* p, const Card& card) const {
    const Stage& st = model_.stages[std::size_t(card.stage)];
    const int fpx = std::max(6, options_.font_px);
    const bool current = !allShown() && card.stage == currentStep();
    const bool revealed = isRevealed(card.stage);
    // Number and formula, then what it is and its shape.
    // A narrow card shrinks its formula (down to the caption's size) before eliding it, and
    // elides the stage's name rather than its shape: "34 × 1" for 34 × 16 says something wrong.
    const QString formula = QStringLiteral("%1.  %2").arg(card.stage + 1).arg(st.formula);
    const double head_w = card.frame.width() - 20;
    QFont hf = figure_font(fpx + 1, {}, true);
    while (hf.pixelSize() > fpx - 1 && QFontMetricsF(hf).horizontalAdvance(formula) > head_w)
        hf.setPixelSize(hf.pixelSize() - 1);
    const QFont sf = figure_font(std::max(6, fpx - 1));
    const QRectF head(card.frame.left() + 10, card.frame.top() + 4, head_w,
                      line_height(hf, formula));
    p->setPen(revealed ? (current ? paint::kAccent : paint::text_color(options_))
                       : QColor(0xa0, 0xa0, 0xa0));
    p->setFont(hf);
    p->drawText(head, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip,
                QFontMetricsF(hf).elidedText(formula, Qt::ElideRight, head.width()));
    p->setFont(sf);
    p->setPen(revealed ? paint::muted_color(options_) : QColor(0xb0, 0xb0, 0xb0));
    const QFontMetricsF sfm(sf);
    const QString shape = QStringLiteral("  ·  ") + st.shapeText();
    const QString name = sfm.elidedText(st.name, Qt::ElideRight,
                                        std::max(0.0, head_w - sfm.horizontalAdvance(shape)));
    const QRectF sub(head.left(), head.bottom(), head.width(), line_height(sf, st.name));
    p->drawText(sub, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip, name + shape);
    return sub.bottom();
}

void StepsFigure::paintMatrix(QPainter* p, const Card& card, bool vector) const {
    const Stage& st = model_.stages[std::size_t(card.stage)];
    const QRectF m = card.matrix;
    if (vector) {
        p->setPen(Qt::NoPen);
        for (int r = 0; r < st.rows; ++r) {
            int c = 0;
            while (c < st.cols) {
                const QColor col = cellColor(st, st.value(r, c), st.isMasked(r, c));
                int end = c + 1;
                while (end < st.cols && cellColor(st, st.value(r, end), st.isMasked(r, end)) == col)
                    ++end;
                p->fillRect(QRectF(m.left() + c * card.cell_w, m.top() + r * card.cell_h,
                                   (end - c) * card.cell_w, card.cell_h)
                                .adjusted(-0.125, -0.125, 0.125, 0.125),
                            col);
                c = end;
            }
        }
    } else {
        p->setRenderHint(QPainter::SmoothPixmapTransform, card.cell_w < 1.0 || card.cell_h < 1.0);
        p->drawImage(m, stageImage(card.stage));
    }
    if (!st.masked.empty() && card.cell_w >= 4.0) {
        for (int r = 0; r < st.rows; ++r)
            for (int c = 0; c < st.cols; ++c)
                if (st.isMasked(r, c))
                    paint::hatch(p, cellRect(card.stage, r, c),
                                 masked_hatch_color(options_.colormap));
    }
    p->setPen(QPen(QColor(0x90, 0x90, 0x90), 0.8));
    p->setBrush(Qt::NoBrush);
    p->drawRect(m);
    if (st.band_begin >= 0) {
        p->setPen(QPen(paint::kAccent, 2.5));
        p->drawRect(QRectF(m.left() + st.band_begin * card.cell_w, m.top() - 2,
                           (st.band_end - st.band_begin) * card.cell_w, m.height() + 4));
    }
}

void StepsFigure::paintValues(QPainter* p, const Card& card) const {
    const Stage& st = model_.stages[std::size_t(card.stage)];
    const int fpx = std::max(6, options_.font_px);
    p->setFont(figure_font(std::clamp(int(std::min(card.cell_w, card.cell_h) * 0.3), 7, fpx)));
    for (int r = 0; r < st.rows; ++r)
        for (int c = 0; c < st.cols; ++c) {
            const double v = st.value(r, c);
            const bool masked = st.isMasked(r, c);
            if (masked && st.id != StageId::Masked) continue;
            p->setPen(text_color_on(cellColor(st, v, masked)));
            p->drawText(cellRect(card.stage, r, c), Qt::AlignCenter,
                        masked ? QStringLiteral("−∞") : paint::format_cell(v));
        }
}

void StepsFigure::paintAxisLabels(QPainter* p, const Card& card) const {
    const Stage& st = model_.stages[std::size_t(card.stage)];
    const int fpx = std::max(6, options_.font_px);
    const QRectF m = card.matrix;
    QStringList all(model_.query_tokens.begin(), model_.query_tokens.end());
    all.append(QStringList(model_.key_tokens.begin(), model_.key_tokens.end()));
    // Token labels shrink to the cells before any is left out (the feature matrices' rows are
    // at least a label high, layout()).
    // Measured in the family each label is drawn in: Chinese in the taller CJK one.
    const QString labels = all.join(QString());
    const QFont lf = label_font_for(
        figure_font(label_px_, all),
        std::min(card.cell_h,
                 st.col_axis == StageAxis::Keys && rotate_cols_ ? card.cell_w : card.cell_h),
        7, labels);
    const QFontMetricsF lfm(lf);
    const double label_h = line_height(lf, labels);
    p->setFont(lf);
    p->setPen(paint::text_color(options_));
    const auto& row_tokens =
        st.row_axis == StageAxis::Keys ? model_.key_tokens : model_.query_tokens;
    const int rstride = label_stride(card.cell_h, label_h);
    for (int r = 0; r < st.rows; r += rstride) {
        const QRectF rr(card.frame.left() + 4, m.top() + r * card.cell_h + card.cell_h / 2 - 20,
                        m.left() - card.frame.left() - 8, 40);
        p->drawText(rr, Qt::AlignRight | Qt::AlignVCenter,
                    paint::elide(visible_token(row_tokens[std::size_t(r)]), lfm, 9.0 * fpx));
    }
    if (st.col_axis == StageAxis::Keys) {
        const int cstride = label_stride(card.cell_w, rotate_cols_ ? label_h : 0.0);
        for (int c = 0; c < st.cols; c += std::max(1, cstride)) {
            const QString t =
                paint::elide(visible_token(model_.key_tokens[std::size_t(c)]), lfm, 9.0 * fpx);
            const double cx = m.left() + c * card.cell_w + card.cell_w / 2;
            if (rotate_cols_) {
                p->save();
                p->translate(cx, m.bottom() + 4);
                p->rotate(-90);
                p->drawText(
                    QRectF(-col_label_h_, -lfm.height() / 2, col_label_h_ - 2, lfm.height()),
                    Qt::AlignRight | Qt::AlignVCenter, t);
                p->restore();
            } else {
                p->drawText(QRectF(cx - card.cell_w / 2 - 40, m.bottom() + 3, card.cell_w + 80,
                                   lfm.height()),
                            Qt::AlignHCenter | Qt::AlignTop, t);
            }
        }
    } else {
        const QFont sf = figure_font(std::max(6, fpx - 1));
        p->setFont(sf);
        p->setPen(paint::muted_color(options_));
        const QString what = st.col_axis == StageAxis::Head
                                 ? StepsText::tr("d_k = %1 features").arg(st.cols)
                                 : StepsText::tr("embed_dim = %1 features").arg(st.cols);
        // Under the matrix and inside its card: a narrow card (every step of a model's layer in
        // a window) elides it.  Its own font's full height: a clipped line loses the
        // underscores of "embed_dim".
        const QFontMetricsF sfm(sf);
        const QRectF inner = card.frame.adjusted(4, 0, -4, 0);
        QString shown = what;
        QRectF r(0, m.bottom() + 3, sfm.horizontalAdvance(what) + 2, line_height(sf, what));
        if (r.width() > inner.width()) {
            shown = paint::elide(what, sfm, inner.width());
            r.setWidth(inner.width());
        }
        r.moveLeft(std::clamp(m.center().x() - r.width() / 2, inner.left(),
                              std::max(inner.left(), inner.right() - r.width())));
        p->drawText(r, Qt::AlignHCenter | Qt::AlignTop | Qt::TextDontClip, shown);
    }
}

void StepsFigure::paintProvenance(QPainter* p, const Card& card) const {
    const QRectF m = card.matrix;
    std::vector<QRectF> parts;
    bool whole = false;
    for (const StageRegion& r : highlights_) {
        if (r.stage != card.stage) continue;
        switch (r.kind) {
            case StageRegion::Kind::Cell:
                parts.push_back(cellRect(card.stage, r.row, r.col));
                break;
            case StageRegion::Kind::Row:
                parts.emplace_back(m.left(), m.top() + r.row * card.cell_h, m.width(), card.cell_h);
                break;
            case StageRegion::Kind::Column:
                parts.emplace_back(m.left() + r.col * card.cell_w, m.top(), card.cell_w,
                                   m.height());
                break;
            case StageRegion::Kind::All:
                whole = true;
                break;
        }
    }
    const bool hovered_here = hover_.stage == card.stage && hover_.row >= 0;
    if (!parts.empty() || hovered_here) {
        QPainterPath dim;
        dim.addRect(m);
        QPainterPath keep;
        for (const QRectF& r : parts)
            keep.addRect(r);
        if (hovered_here) keep.addRect(cellRect(card.stage, hover_.row, hover_.col));
        p->setPen(Qt::NoPen);
        p->setBrush(QColor(255, 255, 255, 150));
        p->drawPath(dim.subtracted(keep));
        p->setBrush(Qt::NoBrush);
        p->setPen(QPen(paint::kHighlight, 2.5));
        for (const QRectF& r : parts)
            p->drawRect(r);
        if (hovered_here) {
            p->setPen(QPen(Qt::black, 2.5));
            p->drawRect(cellRect(card.stage, hover_.row, hover_.col));
        }
    }
    if (whole) {
        p->setPen(QPen(paint::kHighlight, 2.5, Qt::DashLine));
        p->drawRect(m.adjusted(-3, -3, 3, 3));
    }
}

StepsFigure::Hit StepsFigure::hitTest(const QPointF& pos) const {
    Hit hit;
    for (const Card& c : cards_) {
        if (!c.frame.contains(pos)) continue;
        hit.stage = c.stage;
        if (c.matrix.contains(pos) && isRevealed(c.stage) && c.cell_w > 0 && c.cell_h > 0) {
            const Stage& st = model_.stages[std::size_t(c.stage)];
            hit.row = std::clamp(int((pos.y() - c.matrix.top()) / c.cell_h), 0, st.rows - 1);
            hit.col = std::clamp(int((pos.x() - c.matrix.left()) / c.cell_w), 0, st.cols - 1);
        }
        return hit;
    }
    return hit;
}

void StepsFigure::setHover(int stage, int row, int col) {
    hover_ = Hit{stage, row, col};
    highlights_.clear();
    if (stage < 0 || row < 0) return;
    for (const StageRegion& r : provenance(model_, stage, row, col))
        if (isRevealed(r.stage)) highlights_.push_back(r);
}

QString StepsFigure::describe(const Hit& hit) const {
    if (hit.stage < 0 || hit.row < 0 || model_.empty()) return {};
    const Stage& st = model_.stages[std::size_t(hit.stage)];
    auto axis_text = [&](StageAxis a, int k) {
        switch (a) {
            case StageAxis::Queries:
                return StepsText::tr("query “%1”").arg(model_.query_tokens[std::size_t(k)]);
            case StageAxis::Keys:
                return StepsText::tr("key “%1”").arg(model_.key_tokens[std::size_t(k)]);
            case StageAxis::Model:
            case StageAxis::Head:
                return StepsText::tr("feature %1").arg(k);
        }
        return QString();
    };
    const double v = st.value(hit.row, hit.col);
    const QString value = st.isMasked(hit.row, hit.col) && st.id == StageId::Masked
                              ? QStringLiteral("−∞")
                              : (st.isMasked(hit.row, hit.col) ? StepsText::tr("0 (masked)")
                                                               : QString::number(v, 'f', 4));
    return StepsText::tr("%1 [%2, %3] = %4   ·   %5, %6")
        .arg(st.formula)
        .arg(hit.row)
        .arg(hit.col)
        .arg(value, axis_text(st.row_axis, hit.row), axis_text(st.col_axis, hit.col));
}

}  // namespace attnviz::ui
