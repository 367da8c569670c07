#include "ui/classroom/model_walk_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "engine/models/predictions.h"
#include "engine/models/token_trace.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, as a class so lupdate files them
// under the context tr() looks them up in.
struct WalkFigureText {
    Q_DECLARE_TR_FUNCTIONS(ModelWalk)
};

using TextItem = ModelWalkFigure::TextItem;

constexpr int kCandidates = 10;
/// A wrapped vector takes at most this many lines before its cells get narrower.
constexpr int kMaxStripLines = 12;

/// A text item at (x, y) no wider than `max_w` (elided), measured in the font that draws it.
TextItem place(const QString& text, const QFont& font, double x, double y, double max_w,
               const QColor& color, int flags = Qt::AlignLeft | Qt::AlignTop) {
    const QFontMetricsF fm(font);
    QString shown = text;
    if (!text.contains(QLatin1Char('\n')) && fm.horizontalAdvance(text) > max_w)
        shown = fm.elidedText(text, Qt::ElideRight, std::max(0.0, max_w));
    double w = 0.0;
    for (const QString& line : shown.split(QLatin1Char('\n')))
        w = std::max(w, fm.horizontalAdvance(line));
    w = std::min(std::ceil(w) + 1.0, std::max(0.0, max_w));
    return TextItem{QRectF(x, y, w, text_height(font, shown)), shown, font, flags, color, false};
}

/// The same, its right edge at `right`.
TextItem place_right(const QString& text, const QFont& font, double right, double y, double max_w,
                     const QColor& color) {
    TextItem t = place(text, font, 0, y, max_w, color, Qt::AlignRight | Qt::AlignTop);
    t.rect.moveRight(right);
    return t;
}

void draw_text(QPainter* p, const TextItem& t) {
    p->setFont(t.font);
    p->setPen(t.color);
    if (t.rotated) {
        p->save();
        p->translate(t.rect.left(), t.rect.bottom());
        p->rotate(-90);
        p->drawText(QRectF(0, 0, t.rect.height(), t.rect.width()), t.flags | Qt::TextDontClip,
                    t.text);
        p->restore();
        return;
    }
    p->drawText(t.rect, t.flags | Qt::TextDontClip, t.text);
}

QString walk_percent(double p) {
    if (p > 0.0 && p < 0.0005) return QStringLiteral("<0.1 %");
    return QStringLiteral("%1 %").arg(p * 100.0, 0, 'f', 1);
}

int font_px_of(const FigureOptions& o) {
    return std::max(6, o.font_px);
}

}  // namespace

// --- data --------------------------------------------------------------------------------

void ModelWalkFigure::setSnapshot(SnapshotPtr snapshot) {
    setTrace(snapshot ? snapshot->trace : nullptr);
}

void ModelWalkFigure::setTrace(std::shared_ptr<const ModelTrace> trace) {
    if (trace == trace_) return;
    trace_ = std::move(trace);
    dirty_ = true;
}

void ModelWalkFigure::setOptions(const FigureOptions& options) {
    if (options.colormap != options_.colormap) {
        for (auto& section : images_)
            for (QImage& image : section)
                image = QImage();
    }
    options_ = options;
}

bool ModelWalkFigure::layerOpen(int layer) const {
    return (options_.open_layers >> std::min(layer, 63)) & 1u;
}

void ModelWalkFigure::rebuild() {
    dirty_ = false;
    dist_logits_ = nullptr;  // another trace's logits may sit where the last ones were
    cards_valid_ = false;
    hover_ = {};
    message_.clear();
    walk_ = trace_ ? build_model_walk(*trace_) : ModelWalk{};
    if (walk_.empty())
        message_ = trace_ ? WalkFigureText::tr("The pass kept no vectors at this token.")
                          : WalkFigureText::tr("Computing the whole model at this token…");
    max_abs_.assign(walk_.sections.size(), {});
    images_.assign(walk_.sections.size(), {});
    for (std::size_t s = 0; s < walk_.sections.size(); ++s) {
        for (const WalkStage& st : walk_.sections[s].stages) {
            double m = 0.0;
            for (std::size_t k = 0; k < st.size(); ++k)
                if (std::isfinite(st.values[k])) m = std::max(m, double(std::abs(st.values[k])));
            max_abs_[s].push_back(m > 0.0 ? m : 1.0);
        }
        images_[s].resize(walk_.sections[s].stages.size());
    }
    // The ten highest logits (the lowest id first on a tie), once per trace: the sliders only
    // change their probabilities.
    top_ids_.clear();
    if (walk_.logits)
        for (const models::TokenScore& t : models::top_k(walk_.logits, walk_.vocab, kCandidates))
            top_ids_.push_back(t.id);
}

const WalkStage& ModelWalkFigure::stageOf(int section, int stage) const {
    return walk_.sections[std::size_t(section)].stages[std::size_t(stage)];
}

const ModelWalkFigure::Card* ModelWalkFigure::cardOf(int section, int stage) const {
    for (const Card& c : cards_)
        if (c.section == section && c.stage == stage) return &c;
    return nullptr;
}

// --- words -------------------------------------------------------------------------------

QString ModelWalkFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (walk_.empty()) return WalkFigureText::tr("The whole model, step by step");
    const QString token = visible_token(walk_.token);
    if (walk_.masked_lm)
        return WalkFigureText::tr("How %1 fills in “%2” at position %3, step by step")
            .arg(walk_.model_name, token)
            .arg(walk_.position + 1);
    if (walk_.logits)
        return WalkFigureText::tr("How %1 picks the token after “%2”, step by step")
            .arg(walk_.model_name, token);
    return WalkFigureText::tr("%1 at “%2”, step by step").arg(walk_.model_name, token);
}

QString ModelWalkFigure::captionText() const {
    if (walk_.empty()) return QString();
    QStringList parts{
        walk_.model_name,
        WalkFigureText::tr("token %1 of %2").arg(walk_.position + 1).arg(walk_.pieces.size()),
        WalkFigureText::tr("%n layer(s)", nullptr, walk_.layers),
        WalkFigureText::tr("%1 numbers per token").arg(walk_.hidden)};
    if (walk_.vocab > 0) parts << WalkFigureText::tr("%1 vocabulary entries").arg(walk_.vocab);
    parts << walk_.norm_name + QStringLiteral(", ") + walk_.activation_name +
                 (walk_.rotary ? QStringLiteral(", RoPE") : QString());
    return parts.join(QStringLiteral(" · "));
}

QString ModelWalkFigure::samplingText() const {
    QStringList parts;
    if (options_.temperature <= 0.0)
        parts << WalkFigureText::tr("T = 0 (greedy: always the likeliest)");
    else
        parts << QStringLiteral("T = %1").arg(options_.temperature, 0, 'f', 2);
    parts << (options_.top_k > 0 ? QStringLiteral("top-k = %1").arg(options_.top_k)
                                 : WalkFigureText::tr("top-k off"));
    parts << (options_.top_p < 1.0 ? QStringLiteral("top-p = %1").arg(options_.top_p, 0, 'f', 2)
                                   : WalkFigureText::tr("top-p off"));
    return parts.join(QStringLiteral(" · "));
}

QString ModelWalkFigure::where(const WalkStage& st) const {
    if (st.layer < 0) return WalkFigureText::tr("Embeddings");
    if (st.layer >= walk_.layers) return WalkFigureText::tr("Output");
    return WalkFigureText::tr("Layer %1").arg(st.layer + 1);
}

// --- layout ------------------------------------------------------------------------------

int ModelWalkFigure::usedHeight() const {
    if (walk_.empty()) return -1;
    return int(std::ceil(natural_height_));
}

int ModelWalkFigure::naturalHeight(int width) {
    layout(QSize(width, std::max(64, size_.height())));
    return usedHeight();
}

void ModelWalkFigure::layout(QSize size) {
    if (dirty_) rebuild();
    size_ = size;
    const LayoutKey key{std::max(64, size.width()),
                        font_px_of(options_),
                        walk_.layers > 0 ? options_.open_layers : 0,
                        options_.show_title,
                        options_.high_contrast,
                        options_.title};
    if (!cards_valid_ || !(key == key_)) {
        key_ = key;
        layoutCards(key.width);
        cards_valid_ = true;
    }
    layoutPrediction();
}

void ModelWalkFigure::layoutCards(double W) {
    headers_.clear();
    cards_.clear();
    section_texts_.clear();
    const int fpx = font_px_of(options_);
    pad_ = std::max(12.0, fpx * 0.8);
    const QColor text = paint::text_color(options_);
    const QColor muted = paint::muted_color(options_);
    // The title is one line (TitleBlock): a shorter wording when the full one is too wide for
    // the canvas, then elided.
    QString title = titleText();
    const QFont title_font = figure_font(fpx + 5, {title}, true);
    if (QFontMetricsF(title_font).horizontalAdvance(title) > W - 2 * pad_ && !walk_.empty() &&
        options_.title.isEmpty())
        title =
            walk_.masked_lm ? WalkFigureText::tr("How %1 fills in a token").arg(walk_.model_name)
            : walk_.logits ? WalkFigureText::tr("How %1 picks the next token").arg(walk_.model_name)
                           : WalkFigureText::tr("%1, step by step").arg(walk_.model_name);
    const QFont short_font = figure_font(fpx + 5, {title}, true);
    title = QFontMetricsF(short_font).elidedText(title, Qt::ElideRight, W - 2 * pad_ - 2);
    double y = titles_.layout(options_, title, captionText(), pad_, W, pad_);
    if (walk_.empty()) {
        prediction_top_ = y;
        return;
    }

    // One gutter for every strip, so that they line up: head numbers and line offsets.
    const QFont label_font = figure_font(std::max(7, fpx - 2));
    const QFontMetricsF lfm(label_font);
    gutter_ = 0.0;
    for (const WalkSection& s : walk_.sections)
        for (const WalkStage& st : s.stages)
            gutter_ = std::max(
                gutter_, lfm.horizontalAdvance(st.rows > 1 ? QStringLiteral("h%1").arg(st.rows)
                                                           : QString::number(st.cols)));
    gutter_ = std::ceil(gutter_) + 8;

    const QFont head_font = figure_font(fpx + 2, {}, true);
    const QFont section_font = figure_font(fpx + 3, {}, true);
    const QFont summary_font = figure_font(fpx);
    const double gap = std::max(8.0, fpx * 0.6);
    for (std::size_t s = 0; s < walk_.sections.size(); ++s) {
        const WalkSection& sec = walk_.sections[s];
        double indent = 0.0;
        if (sec.kind == WalkSection::Kind::Layer) {
            Header h;
            h.layer = sec.layer;
            const bool open = layerOpen(sec.layer);
            const QString label =
                (open ? QStringLiteral("▾  ") : QStringLiteral("▸  ")) + sec.title;
            QString summary =
                std::isfinite(sec.norm_in) && std::isfinite(sec.norm_out)
                    ? WalkFigureText::tr("‖x‖ %1 → %2")
                          .arg(paint::format_cell(sec.norm_in), paint::format_cell(sec.norm_out))
                    : QString();
            const QString steps = WalkFigureText::tr("%n step(s)", nullptr, int(sec.stages.size()));
            summary = summary.isEmpty() ? steps : summary + QStringLiteral("  ·  ") + steps;
            const double hh =
                std::max(line_height(head_font, label), line_height(summary_font, summary)) + 10;
            h.rect = QRectF(pad_, y, W - 2 * pad_, hh);
            const double x0 = h.rect.left() + 10, right = h.rect.right() - 10;
            TextItem t = place(label, head_font, x0, y + 5, right - x0, text);
            t.rect.moveTop(y + (hh - t.rect.height()) / 2);
            h.texts.push_back(t);
            const double sx = t.rect.right() + fpx * 1.5;
            if (right - sx > 3 * fpx) {
                TextItem u = place(summary, summary_font, sx, y, right - sx, muted);
                u.rect.moveTop(y + (hh - u.rect.height()) / 2);
                h.texts.push_back(u);
            }
            headers_.push_back(std::move(h));
            y += hh + gap / 2;
            if (!open) continue;
            indent = std::round(fpx * 0.8);
        } else {
            TextItem t = place(sec.title, section_font, pad_, y, W - 2 * pad_, text);
            section_texts_.push_back(t);
            y = t.rect.bottom() + 4;
        }
        for (std::size_t k = 0; k < sec.stages.size(); ++k) {
            Card card;
            card.section = int(s);
            card.stage = int(k);
            y = layoutCard(card, pad_ + indent, y, W - 2 * pad_ - indent) + gap / 2;
            cards_.push_back(std::move(card));
        }
        y += gap / 2;
    }
    prediction_top_ = y;
}

double ModelWalkFigure::layoutCard(Card& card, double x, double y, double w) {
    const double x0 = x + 10, iw = w - 20;
    double yy = layoutCardHeader(card, x0, iw, y + 6) + 6;
    yy = layoutStrip(card, x0, iw, yy);
    layoutRowLabels(card);
    if (stageOf(card.section, card.stage).probabilities) yy = layoutTokenLabels(card);
    card.frame = QRectF(x, y, w, yy + 8 - y);
    return card.frame.bottom();
}

double ModelWalkFigure::layoutCardHeader(Card& card, double x0, double iw, double yy) {
    const WalkStage& st = stageOf(card.section, card.stage);
    const int fpx = font_px_of(options_);
    const QColor text = paint::text_color(options_);
    const QColor muted = paint::muted_color(options_);
    const QFont formula_font = figure_font(fpx + 1, {}, true);
    const QFont name_font = figure_font(fpx, {st.name});
    const QFont small_font = figure_font(std::max(7, fpx - 1), {st.explanation});
    const double right = x0 + iw;

    // Formula and name on the left, shape, norm and range on the right (or under them when
    // the line is too short).
    QString stats = st.shapeText();
    if (st.probabilities)
        stats += QStringLiteral("  ·  ") +
                 WalkFigureText::tr("max %1").arg(paint::format_cell(st.maximum()));
    else
        stats += QStringLiteral("  ·  ‖x‖ = %1  ·  %2 … %3")
                     .arg(paint::format_cell(st.norm()), paint::format_cell(st.minimum()),
                          paint::format_cell(st.maximum()));
    TextItem f = place(st.formula, formula_font, x0, yy, iw, text);
    const QFontMetricsF nfm(name_font), sfm(small_font);
    const double name_x = f.rect.right() + fpx;
    const double name_w = nfm.horizontalAdvance(st.name) + 1;
    const double stats_w = sfm.horizontalAdvance(stats) + 1;
    TextItem n, s;
    double line_h = f.rect.height();
    if (name_x + name_w + fpx + stats_w <= right) {  // everything on one line
        n = place(st.name, name_font, name_x, yy, name_w, text);
        s = place_right(stats, small_font, right, yy, stats_w, muted);
        line_h = std::max({line_h, n.rect.height(), s.rect.height()});
        yy += line_h;
    } else if (name_x + name_w <= right) {  // stats on a line of their own
        n = place(st.name, name_font, name_x, yy, name_w, text);
        line_h = std::max(line_h, n.rect.height());
        yy += line_h;
        s = place(stats, small_font, x0, yy, iw, muted);
        yy = s.rect.bottom();
    } else {  // narrow: one line each
        yy = f.rect.bottom();
        n = place(st.name, name_font, x0, yy, iw, text);
        yy = n.rect.bottom();
        s = place(stats, small_font, x0, yy, iw, muted);
        yy = s.rect.bottom();
    }
    // Text of different sizes on one line shares its baseline area: centred vertically.
    if (n.rect.top() == f.rect.top()) n.rect.moveTop(f.rect.top() + (line_h - n.rect.height()) / 2);
    if (s.rect.top() == f.rect.top()) s.rect.moveTop(f.rect.top() + (line_h - s.rect.height()) / 2);
    card.texts = {f, n, s};
    if (!st.explanation.isEmpty()) {
        const QString wrapped = paint::wrap_text(st.explanation, small_font, iw);
        TextItem e = place(wrapped, small_font, x0, yy + 2, iw, muted);
        card.texts.push_back(e);
        yy = e.rect.bottom();
    }
    return yy;
}

double ModelWalkFigure::layoutStrip(Card& card, double x0, double iw, double yy) {
    const WalkStage& st = stageOf(card.section, card.stage);
    const int fpx = font_px_of(options_);
    const double avail = std::max(8.0, iw - gutter_);
    const double row_h = std::max(3.0, std::round(fpx * 0.75));
    if (st.rows > 1 || st.probabilities) {  // one row per head
        card.lines = st.rows;
        card.per_line = st.cols;
        const double max_w = st.probabilities ? 4.0 * fpx : double(fpx);
        card.cell_w = std::clamp(std::floor(avail / st.cols), 1.0, max_w);
        if (card.cell_w * st.cols > avail) card.cell_w = avail / st.cols;
        card.cell_h = st.rows <= 16 ? row_h : std::max(2.0, std::floor(row_h * 16 / st.rows));
        if (st.probabilities) card.cell_h = std::max(card.cell_h, std::round(fpx * 0.9));
    } else {  // a vector: wrapped into lines of cells
        const double min_w = std::max(3.0, std::round(fpx / 4.0));
        card.cell_w = std::clamp(std::floor(avail / st.cols), min_w, double(fpx));
        auto lines_at = [&](double cw) {
            const int per = std::max(1, int(avail / cw));
            return std::pair<int, int>(per, (st.cols + per - 1) / per);
        };
        while (lines_at(card.cell_w).second > kMaxStripLines && card.cell_w > 1.0)
            card.cell_w -= 1.0;
        std::tie(card.per_line, card.lines) = lines_at(card.cell_w);
        if (card.lines == 1) card.per_line = st.cols;
        card.cell_h = card.lines == 1
                          ? std::round(fpx * 1.2)
                          : std::max(2.0, std::min(row_h, std::floor(fpx * 8.0 / card.lines)));
    }
    card.strip = QRectF(x0 + gutter_, yy, card.per_line * card.cell_w, card.lines * card.cell_h);
    return card.strip.bottom();
}

void ModelWalkFigure::layoutRowLabels(Card& card) {
    const WalkStage& st = stageOf(card.section, card.stage);
    const bool heads = st.rows > 1 || st.probabilities;
    if (!heads && card.lines <= 1) return;
    const QFont label_font = figure_font(std::max(7, font_px_of(options_) - 2));
    const int stride = label_stride(card.cell_h, QFontMetricsF(label_font).height());
    for (int r = 0; r < card.lines; r += stride) {
        const QString label =
            heads ? QStringLiteral("h%1").arg(r + 1) : QString::number(r * card.per_line);
        TextItem t = place_right(label, label_font, card.strip.left() - 4, 0, gutter_ - 6,
                                 paint::muted_color(options_));
        t.rect.moveTop(card.strip.top() + (r + 0.5) * card.cell_h - t.rect.height() / 2);
        // A label may not stick out of the strip's ends (it would meet the text above).
        t.rect.moveTop(
            std::clamp(t.rect.top(), card.strip.top() - 2,
                       std::max(card.strip.top() - 2, card.strip.bottom() + 2 - t.rect.height())));
        if (t.rect.top() < card.strip.top() - 2 || t.rect.bottom() > card.strip.bottom() + 2)
            continue;
        card.texts.push_back(t);
    }
}

double ModelWalkFigure::layoutTokenLabels(Card& card) {
    const WalkStage& st = stageOf(card.section, card.stage);
    const int fpx = font_px_of(options_);
    QStringList tokens;
    for (const QString& piece : walk_.pieces)
        tokens << visible_token(piece);
    const QFont tf = figure_font(std::max(7, fpx - 2), tokens);
    const QFont tf_bold = figure_font(std::max(7, fpx - 2), tokens, true);
    const QFontMetricsF tfm(tf_bold);
    const double max_label = 6.0 * fpx;
    double widest = 0.0;
    for (const QString& t : tokens)
        widest =
            std::max(widest, tfm.horizontalAdvance(tfm.elidedText(t, Qt::ElideRight, max_label)));
    const bool rotate = widest + 4 > card.cell_w;
    const double need = rotate ? line_height(tf_bold, tokens.join(QString())) : widest + 6;
    const int cstride = label_stride(card.cell_w, need);
    const int traced = int(walk_.position);
    const double top = card.strip.bottom() + 3;
    double bottom = top;
    for (int c = 0; c < st.cols && c < tokens.size(); ++c) {
        const bool here = c == traced;
        if (!here && c % cstride != 0) continue;
        // Leave out a label that would touch the traced token's.
        if (!here && std::abs(c - traced) * card.cell_w < need) continue;
        const QFont& font = here ? tf_bold : tf;
        TextItem t = place(tokens[c], font, 0, 0, max_label,
                           here ? paint::kAccent : paint::text_color(options_));
        const double cx = card.strip.left() + (c + 0.5) * card.cell_w;
        if (rotate) {
            t.rotated = true;
            t.flags = Qt::AlignRight | Qt::AlignVCenter;
            t.rect = QRectF(cx - t.rect.height() / 2, top, t.rect.height(), t.rect.width());
        } else {
            t.flags = Qt::AlignHCenter | Qt::AlignTop;
            t.rect.moveTo(cx - t.rect.width() / 2, top);
        }
        bottom = std::max(bottom, t.rect.bottom());
        card.texts.push_back(t);
    }
    return bottom;
}

void ModelWalkFigure::layoutPrediction() {
    candidates_.clear();
    bar_rows_.clear();
    bars_.clear();
    prediction_texts_.clear();
    prediction_rect_ = QRectF();
    const double W = std::max(64, size_.width());
    double y = prediction_top_;
    if (walk_.empty()) {
        natural_height_ = y + pad_;
        return;
    }
    const int fpx = font_px_of(options_);
    const QColor muted = paint::muted_color(options_);
    if (!walk_.logits) {
        TextItem t =
            place(paint::wrap_text(WalkFigureText::tr("This model has no language-model head: "
                                                      "it scores no tokens."),
                                   figure_font(fpx), W - 2 * pad_),
                  figure_font(fpx), pad_, y, W - 2 * pad_, muted);
        prediction_texts_.push_back(t);
        natural_height_ = t.rect.bottom() + pad_;
        return;
    }
    updateDistribution();
    const double shown_p = collectCandidates();

    const double x0 = pad_ + 10, iw = W - 2 * pad_ - 20;
    const double top = y;
    y = layoutPredictionHeading(x0, iw, y);
    y = layoutCandidateBars(x0, iw, y);
    const std::int64_t rest =
        std::int64_t(dist_.ids.size()) - std::count_if(candidates_.begin(), candidates_.end(),
                                                       [](const Candidate& c) { return c.kept; });
    const QString rest_text = rest > 0 ? WalkFigureText::tr("The other %1 candidates share %2.")
                                             .arg(rest)
                                             .arg(walk_percent(std::max(0.0, 1.0 - shown_p)))
                                       : WalkFigureText::tr("No other token is left to draw from.");
    const QFont small_font = figure_font(std::max(7, fpx - 1), {walk_.prediction_explanation});
    TextItem r =
        place(paint::wrap_text(rest_text, small_font, iw), small_font, x0, y + 4, iw, muted);
    prediction_texts_.push_back(r);
    y = r.rect.bottom() + 8;
    prediction_rect_ = QRectF(pad_, top, W - 2 * pad_, y - top);
    natural_height_ = y + pad_;
}

void ModelWalkFigure::updateDistribution() {
    // Sorting a large vocabulary is most of a slider's step: once per sampling setting.
    const models::SamplingOptions sampling{
        options_.temperature, std::int64_t(std::max(0, options_.top_k)), options_.top_p};
    if (dist_logits_ != walk_.logits || dist_options_.temperature != sampling.temperature ||
        dist_options_.top_k != sampling.top_k || dist_options_.top_p != sampling.top_p) {
        dist_ = models::sampling_distribution(walk_.logits, walk_.vocab, sampling);
        dist_logits_ = walk_.logits;
        dist_options_ = sampling;
    }
}

double ModelWalkFigure::collectCandidates() {
    // The ten highest logits, and the drawn token when it is not among them.
    std::vector<qint64> shown = top_ids_;
    if (options_.drawn >= 0 && options_.drawn < walk_.vocab &&
        std::find(shown.begin(), shown.end(), options_.drawn) == shown.end())
        shown.push_back(options_.drawn);
    double shown_p = 0.0;
    for (qint64 id : shown) {
        Candidate c;
        c.id = id;
        c.text = visible_token(trace_->text(id));
        c.logit = walk_.logits[id];
        for (std::size_t i = 0; i < dist_.ids.size(); ++i)
            if (dist_.ids[i] == id) {
                c.kept = true;
                c.probability = dist_.probability(i);
                break;
            }
        c.drawn = id == options_.drawn;
        const auto top = std::find(top_ids_.begin(), top_ids_.end(), id);
        if (top != top_ids_.end()) {
            c.rank = int(top - top_ids_.begin()) + 1;
        } else {
            c.rank = 1;
            for (std::int64_t k = 0; k < walk_.vocab; ++k)
                if (walk_.logits[k] > c.logit || (walk_.logits[k] == c.logit && k < id)) ++c.rank;
        }
        shown_p += c.probability;
        candidates_.push_back(c);
    }
    return shown_p;
}

double ModelWalkFigure::layoutPredictionHeading(double x0, double iw, double y) {
    const int fpx = font_px_of(options_);
    const QColor text = paint::text_color(options_);
    const QFont formula_font = figure_font(fpx + 1, {}, true);
    const QFont name_font = figure_font(fpx, {walk_.prediction_name});
    const QFont small_font = figure_font(std::max(7, fpx - 1), {walk_.prediction_explanation});
    const double right = x0 + iw;
    TextItem f = place(walk_.prediction_formula, formula_font, x0, y + 6, iw, text);
    prediction_texts_.push_back(f);
    const double name_x = f.rect.right() + fpx;
    if (right - name_x > 3 * fpx) {
        TextItem n = place(walk_.prediction_name, name_font, name_x, y + 6, right - name_x, text);
        n.rect.moveTop(f.rect.top() + (f.rect.height() - n.rect.height()) / 2);
        prediction_texts_.push_back(n);
        y = std::max(f.rect.bottom(), n.rect.bottom());
    } else {
        TextItem n = place(walk_.prediction_name, name_font, x0, f.rect.bottom(), iw, text);
        prediction_texts_.push_back(n);
        y = n.rect.bottom();
    }
    TextItem e = place(paint::wrap_text(walk_.prediction_explanation, small_font, iw), small_font,
                       x0, y + 2, iw, paint::muted_color(options_));
    prediction_texts_.push_back(e);
    y = e.rect.bottom() + 4;
    const QFont sampling_font = figure_font(fpx, {samplingText()}, true);
    TextItem sl =
        place(paint::wrap_text(samplingText(), sampling_font, iw), sampling_font, x0, y, iw, text);
    prediction_texts_.push_back(sl);
    return sl.rect.bottom() + 6;
}

double ModelWalkFigure::layoutCandidateBars(double x0, double iw, double y) {
    const int fpx = font_px_of(options_);
    const QColor text = paint::text_color(options_);
    const QColor cut = QColor(0xa0, 0xa0, 0xa0);
    const double right = x0 + iw;
    QStringList texts;
    for (const Candidate& c : candidates_)
        texts << c.text;
    const QFont label_font = figure_font(fpx, texts);
    const QFont label_bold = figure_font(fpx, texts, true);

    // The token's text right-aligned in a column, the bar on a 0–100 % scale, the percentage
    // after the bar's column, the drawn token's mark after that.
    const QFontMetricsF bfm(label_bold);
    double label_w = 0.0;
    for (const Candidate& c : candidates_)
        label_w = std::max(label_w, bfm.horizontalAdvance(c.text));
    label_w = std::min(std::ceil(label_w) + 4, iw * 0.3);
    const QString mark = WalkFigureText::tr("◀ drawn");
    const QFont mark_font = figure_font(fpx, {mark}, true);
    const double pct_w = bfm.horizontalAdvance(QStringLiteral("100.0 %")) + 4;
    const double mark_w = QFontMetricsF(mark_font).horizontalAdvance(mark) + 4;
    const double bar_x = x0 + label_w + fpx * 0.6;
    const double bar_w = std::max(20.0, right - bar_x - pct_w - mark_w - 2 * fpx);
    const double row_h =
        std::ceil(std::max({line_height(label_bold, texts.join(QString())), fpx * 1.5})) + 4;
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
        const Candidate& c = candidates_[i];
        if (i == std::size_t(kCandidates) && i < candidates_.size()) {  // the drawn, further down
            TextItem dots = place(QStringLiteral("⋮"), label_font, x0, y, label_w,
                                  paint::muted_color(options_), Qt::AlignRight | Qt::AlignTop);
            dots.rect.moveRight(x0 + label_w);
            prediction_texts_.push_back(dots);
            y = dots.rect.bottom();
        }
        const QRectF row(x0, y, iw, row_h);
        bar_rows_.push_back(row);
        bars_.push_back(QRectF(bar_x, y + 3, bar_w, row_h - 6));
        const QColor color = c.drawn ? paint::kAccent : c.kept ? text : cut;
        TextItem l =
            place_right(c.text, c.drawn ? label_bold : label_font, x0 + label_w, y, label_w, color);
        l.rect.moveTop(y + (row_h - l.rect.height()) / 2);
        prediction_texts_.push_back(l);
        const QString pct = c.kept ? walk_percent(c.probability) : QStringLiteral("0 %");
        TextItem pt = place(pct, c.drawn ? label_bold : label_font, bar_x + bar_w + fpx * 0.6, y,
                            pct_w, color);
        pt.rect.moveTop(y + (row_h - pt.rect.height()) / 2);
        prediction_texts_.push_back(pt);
        if (c.drawn) {
            TextItem m = place(mark, mark_font, bar_x + bar_w + fpx * 0.6 + pct_w + fpx * 0.4, y,
                               mark_w, paint::kAccent);
            m.rect.moveTop(y + (row_h - m.rect.height()) / 2);
            prediction_texts_.push_back(m);
        }
        y += row_h;
    }
    return y;
}

// --- painting ----------------------------------------------------------------------------

QColor ModelWalkFigure::cellColor(const WalkStage& st, float v, int section, int stage) const {
    if (std::isnan(v)) return QColor(0xff, 0x00, 0xff);
    const double m = max_abs_[std::size_t(section)][std::size_t(stage)];
    if (st.probabilities) {
        static thread_local QCPColorGradient gradient;
        static thread_local int gradient_map = -1;
        if (gradient_map != int(options_.colormap)) {
            gradient = make_gradient(options_.colormap);
            gradient_map = int(options_.colormap);
        }
        return QColor(gradient.color(v, QCPRange(0.0, m)));
    }
    return paint::signed_color(v, m);
}

const QImage& ModelWalkFigure::stripImage(const Card& card) const {
    QImage& image = images_[std::size_t(card.section)][std::size_t(card.stage)];
    if (!image.isNull() && image.width() == card.per_line && image.height() == card.lines)
        return image;
    const WalkStage& st = stageOf(card.section, card.stage);
    image = QImage(card.per_line, card.lines, QImage::Format_RGB32);
    image.fill(Qt::white);
    const bool masked_after = st.probabilities && walk_.causal;
    const QRgb masked = masked_cell_color(options_.colormap).rgb();
    for (int line = 0; line < card.lines; ++line) {
        auto* px = reinterpret_cast<QRgb*>(image.scanLine(line));
        for (int c = 0; c < card.per_line; ++c) {
            const std::size_t k = std::size_t(line) * std::size_t(card.per_line) + std::size_t(c);
            if (k >= st.size()) break;
            const int col = int(k % std::size_t(st.cols));
            px[c] = masked_after && col > walk_.position
                        ? masked
                        : cellColor(st, st.values[k], card.section, card.stage).rgb();
        }
    }
    return image;
}

void ModelWalkFigure::paint(QPainter* p, bool vector) const {
    p->save();
    p->fillRect(QRectF(QPointF(0, 0),
                       QSizeF(size_.width(), std::max<double>(size_.height(), natural_height_))),
                Qt::white);
    const int fpx = font_px_of(options_);
    if (walk_.empty()) {
        p->setPen(paint::kMuted);
        p->setFont(figure_font(fpx + 2, {message_}));
        p->drawText(QRectF(QPointF(0, 0), QSizeF(size_)).adjusted(40, 40, -40, -40),
                    Qt::AlignCenter | Qt::TextWordWrap, message_);
        p->restore();
        return;
    }
    titles_.paint(p, options_);
    const QRectF clip = p->hasClipping() ? p->clipBoundingRect() : QRectF();
    auto visible = [&](const QRectF& r) { return clip.isNull() || clip.intersects(r); };

    for (const TextItem& t : section_texts_)
        draw_text(p, t);
    for (const Header& h : headers_) {
        if (!visible(h.rect)) continue;
        const bool open = layerOpen(h.layer);
        p->setPen(QPen(open ? paint::kAccent : QColor(0xc8, 0xc8, 0xc8), open ? 1.5 : 1.0));
        p->setBrush(open ? QColor(0xe8, 0xf1, 0xf8) : QColor(0xf4, 0xf4, 0xf4));
        p->drawRoundedRect(h.rect.adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
        for (const TextItem& t : h.texts)
            draw_text(p, t);
    }
    // An open layer's cards hang from a line in the layer's colour: where the layer ends.
    for (const Header& h : headers_) {
        if (!layerOpen(h.layer)) continue;
        double bottom = h.rect.bottom();
        const int s = walk_.sectionOfLayer(h.layer);
        for (const Card& c : cards_)
            if (c.section == s) bottom = c.frame.bottom();
        p->setPen(QPen(paint::kAccent, 2));
        p->drawLine(QPointF(h.rect.left() + 4, h.rect.bottom()),
                    QPointF(h.rect.left() + 4, bottom));
    }
    for (const Card& card : cards_)
        if (visible(card.frame)) paintCard(p, card, vector);

    // The prediction.
    if (!prediction_rect_.isEmpty() && visible(prediction_rect_)) {
        p->setPen(QPen(paint::kAccent, 2));
        p->setBrush(QColor(0xf7, 0xfa, 0xfd));
        p->drawRoundedRect(prediction_rect_.adjusted(1, 1, -1, -1), 6, 6);
        for (std::size_t i = 0; i < candidates_.size(); ++i) {
            const Candidate& c = candidates_[i];
            const QRectF& bar = bars_[i];
            p->setPen(Qt::NoPen);
            p->setBrush(QColor(0xee, 0xee, 0xee));
            p->drawRect(bar);
            if (c.kept && c.probability > 0) {
                p->setBrush(c.drawn ? paint::kAccent
                                    : (options_.high_contrast ? QColor(0x55, 0x55, 0x55)
                                                              : QColor(0x8f, 0xb4, 0xd6)));
                p->drawRect(QRectF(bar.left(), bar.top(),
                                   std::max(1.0, bar.width() * c.probability), bar.height()));
            }
            if (c.drawn || (hover_.kind == Hit::Kind::Candidate && hover_.id == c.id)) {
                p->setBrush(Qt::NoBrush);
                p->setPen(QPen(c.drawn ? paint::kAccent : QColor(Qt::black), 2));
                p->drawRect(bar_rows_[i].adjusted(-4, 0, 4, 0));
            }
        }
        for (const TextItem& t : prediction_texts_)
            draw_text(p, t);
    } else {
        for (const TextItem& t : prediction_texts_)
            draw_text(p, t);
    }
    p->restore();
}

void ModelWalkFigure::paintCard(QPainter* p, const Card& card, bool vector) const {
    const WalkStage& st = stageOf(card.section, card.stage);
    p->save();
    p->setPen(QPen(QColor(0xd0, 0xd0, 0xd0), 1));
    p->setBrush(Qt::white);
    p->drawRoundedRect(card.frame.adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    const QRectF& m = card.strip;
    if (vector) {
        // Runs of one colour as one rectangle each: crisp at any zoom, a sane file size.
        p->setPen(Qt::NoPen);
        const QImage& image = stripImage(card);
        for (int line = 0; line < card.lines; ++line) {
            const auto* px = reinterpret_cast<const QRgb*>(image.constScanLine(line));
            const int n = std::min<int>(
                card.per_line,
                int(std::max<std::ptrdiff_t>(
                    0, std::ptrdiff_t(st.size()) - std::ptrdiff_t(line) * card.per_line)));
            int c = 0;
            while (c < n) {
                int end = c + 1;
                while (end < n && px[end] == px[c])
                    ++end;
                p->fillRect(QRectF(m.left() + c * card.cell_w, m.top() + line * card.cell_h,
                                   (end - c) * card.cell_w, card.cell_h)
                                .adjusted(-0.125, -0.125, 0.125, 0.125),
                            QColor(px[c]));
                c = end;
            }
        }
    } else {
        p->setRenderHint(QPainter::SmoothPixmapTransform, false);
        p->drawImage(m, stripImage(card));
    }
    p->setPen(QPen(QColor(0x90, 0x90, 0x90), 0.8));
    p->setBrush(Qt::NoBrush);
    // The outline follows the last line of a wrapped vector, which may be short.
    const int last = int(st.size()) - (card.lines - 1) * card.per_line;
    if (card.lines > 1 && last < card.per_line && st.rows == 1) {
        const double lx = m.left() + last * card.cell_w, by = m.bottom() - card.cell_h;
        const QPointF pts[] = {m.topLeft(),
                               m.topRight(),
                               QPointF(m.right(), by),
                               QPointF(lx, by),
                               QPointF(lx, m.bottom()),
                               m.bottomLeft(),
                               m.topLeft()};
        p->drawPolyline(pts, int(std::size(pts)));
    } else {
        p->drawRect(m);
    }
    if (st.probabilities && walk_.position < st.cols) {
        p->setPen(QPen(paint::kAccent, 2));
        p->drawRect(QRectF(m.left() + walk_.position * card.cell_w, m.top() - 2, card.cell_w,
                           m.height() + 4));
    }
    if (hover_.kind == Hit::Kind::Cell && hover_.section == card.section &&
        hover_.stage == card.stage) {
        p->setPen(QPen(Qt::black, 2));
        p->drawRect(cellRect(card.section, card.stage, hover_.row, hover_.col));
    }
    for (const TextItem& t : card.texts)
        draw_text(p, t);
    p->restore();
}

// --- geometry and hovering ---------------------------------------------------------------

QRectF ModelWalkFigure::headerRect(int layer) const {
    for (const Header& h : headers_)
        if (h.layer == layer) return h.rect;
    return {};
}

QRectF ModelWalkFigure::stripRect(int section, int stage) const {
    const Card* c = cardOf(section, stage);
    return c ? c->strip : QRectF();
}

QRectF ModelWalkFigure::cellRect(int section, int stage, int row, int col) const {
    const Card* c = cardOf(section, stage);
    if (!c) return {};
    const WalkStage& st = stageOf(section, stage);
    const std::size_t k = std::size_t(row) * std::size_t(st.cols) + std::size_t(col);
    const int line = int(k / std::size_t(c->per_line)), at = int(k % std::size_t(c->per_line));
    return QRectF(c->strip.left() + at * c->cell_w, c->strip.top() + line * c->cell_h, c->cell_w,
                  c->cell_h);
}

QRectF ModelWalkFigure::candidateRect(qint64 id) const {
    for (std::size_t i = 0; i < candidates_.size(); ++i)
        if (candidates_[i].id == id) return bar_rows_[i];
    return {};
}

QRectF ModelWalkFigure::candidateBar(qint64 id) const {
    for (std::size_t i = 0; i < candidates_.size(); ++i)
        if (candidates_[i].id == id) return bars_[i];
    return {};
}

std::vector<TextItem> ModelWalkFigure::textItems() const {
    std::vector<TextItem> out;
    if (options_.show_title) {
        const int fpx = font_px_of(options_);
        out.push_back(TextItem{titles_.title, titles_.title_text,
                               figure_font(fpx + 5, {titles_.title_text}, true), 0, paint::kText,
                               false});
        if (!titles_.caption_text.isEmpty())
            out.push_back(TextItem{titles_.caption, titles_.caption_text,
                                   figure_font(std::max(6, fpx - 1), {titles_.caption_text}), 0,
                                   paint::kMuted, false});
    }
    out.insert(out.end(), section_texts_.begin(), section_texts_.end());
    for (const Header& h : headers_)
        out.insert(out.end(), h.texts.begin(), h.texts.end());
    for (const Card& c : cards_)
        out.insert(out.end(), c.texts.begin(), c.texts.end());
    out.insert(out.end(), prediction_texts_.begin(), prediction_texts_.end());
    return out;
}

bool ModelWalkFigure::cellAt(const Card& card, const QPointF& pos, int* row, int* col) const {
    if (!card.strip.contains(pos) || card.cell_w <= 0 || card.cell_h <= 0) return false;
    const WalkStage& st = stageOf(card.section, card.stage);
    const int line = std::clamp(int((pos.y() - card.strip.top()) / card.cell_h), 0, card.lines - 1);
    const int at =
        std::clamp(int((pos.x() - card.strip.left()) / card.cell_w), 0, card.per_line - 1);
    const std::size_t k = std::size_t(line) * std::size_t(card.per_line) + std::size_t(at);
    if (k >= st.size()) return false;
    *row = int(k / std::size_t(st.cols));
    *col = int(k % std::size_t(st.cols));
    return true;
}

ModelWalkFigure::Hit ModelWalkFigure::hitTest(const QPointF& pos) const {
    Hit hit;
    for (const Header& h : headers_)
        if (h.rect.contains(pos)) {
            hit.kind = Hit::Kind::LayerHeader;
            hit.layer = h.layer;
            return hit;
        }
    for (const Card& c : cards_) {
        if (!c.frame.contains(pos)) continue;
        int row = -1, col = -1;
        if (cellAt(c, pos, &row, &col)) {
            hit.kind = Hit::Kind::Cell;
            hit.section = c.section;
            hit.stage = c.stage;
            hit.layer = int(stageOf(c.section, c.stage).layer);
            hit.row = row;
            hit.col = col;
        }
        return hit;
    }
    for (std::size_t i = 0; i < candidates_.size(); ++i)
        if (bar_rows_[i].contains(pos)) {
            hit.kind = Hit::Kind::Candidate;
            hit.id = candidates_[i].id;
            return hit;
        }
    return hit;
}

QString ModelWalkFigure::describe(const Hit& hit) const {
    switch (hit.kind) {
        case Hit::Kind::None:
            return {};
        case Hit::Kind::LayerHeader: {
            const int s = walk_.sectionOfLayer(hit.layer);
            if (s < 0) return {};
            const WalkSection& sec = walk_.sections[std::size_t(s)];
            return (layerOpen(hit.layer) ? WalkFigureText::tr("%1: click to fold it")
                                         : WalkFigureText::tr("%1: click to open it"))
                       .arg(sec.title) +
                   QStringLiteral(" · ") +
                   WalkFigureText::tr("‖x‖ %1 → %2")
                       .arg(paint::format_cell(sec.norm_in), paint::format_cell(sec.norm_out));
        }
        case Hit::Kind::Cell: {
            if (hit.section < 0 || std::size_t(hit.section) >= walk_.sections.size()) return {};
            const WalkSection& sec = walk_.sections[std::size_t(hit.section)];
            if (hit.stage < 0 || std::size_t(hit.stage) >= sec.stages.size()) return {};
            const WalkStage& st = sec.stages[std::size_t(hit.stage)];
            if (hit.row < 0 || hit.row >= st.rows || hit.col < 0 || hit.col >= st.cols) return {};
            const QString value = QString::number(double(st.value(hit.row, hit.col)), 'g', 7);
            const QString head =
                where(st) + QStringLiteral(" · ") + st.name + QStringLiteral(" · ");
            if (st.probabilities) {
                const QString token = std::size_t(hit.col) < walk_.pieces.size()
                                          ? visible_token(walk_.pieces[std::size_t(hit.col)])
                                          : QString();
                return head + WalkFigureText::tr("head %1 → “%2” (token %3) = %4")
                                  .arg(hit.row + 1)
                                  .arg(token)
                                  .arg(hit.col + 1)
                                  .arg(value);
            }
            if (st.rows > 1)
                return head + WalkFigureText::tr("head %1 [%2] = %3")
                                  .arg(hit.row + 1)
                                  .arg(hit.col)
                                  .arg(value);
            if (st.step == models::TraceStep::Logits && trace_)
                return head + QStringLiteral("[%1] “%2” = %3")
                                  .arg(hit.col)
                                  .arg(visible_token(trace_->text(hit.col)))
                                  .arg(value);
            return head + QStringLiteral("[%1] = %2").arg(hit.col).arg(value);
        }
        case Hit::Kind::Candidate:
            for (const Candidate& c : candidates_) {
                if (c.id != hit.id) continue;
                QString s = WalkFigureText::tr("“%1” (id %2): %3 · logit %4 · rank %5")
                                .arg(c.text)
                                .arg(c.id)
                                .arg(c.kept ? walk_percent(c.probability) : QStringLiteral("0 %"))
                                .arg(QString::number(c.logit, 'g', 6))
                                .arg(c.rank);
                if (!c.kept) s += WalkFigureText::tr(" · cut off by top-k / top-p");
                if (c.drawn) s += WalkFigureText::tr(" · drawn");
                return s;
            }
            return {};
    }
    return {};
}

}  // namespace attnviz::ui
