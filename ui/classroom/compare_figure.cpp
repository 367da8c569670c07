#include "ui/classroom/compare_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "ui/compute/resolved_config.h"
#include "ui/render/colormaps.h"
#include "ui/render/fonts.h"
#include "ui/render/token_ticker.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, as a class so lupdate files them under
// the context tr() looks them up in.
struct CompareText {
    Q_DECLARE_TR_FUNCTIONS(Compare)
};

constexpr double kComparePad = 12.0;
constexpr int kCompareValueCells = 24 * 24;
constexpr std::size_t kCompareVectorCells = 128 * 128;
const QColor kUndefined(0xdd, 0xdd, 0xdd);
/// A position only the other sentence has: no token, no weight.
const QColor kAbsent(Qt::white);  // not #f7f7f7: signed_color(0), a difference of zero
const QColor kDiffHatch(0x80, 0x80, 0x80);

/// "+0.12", "−0.05", "0": a difference, always with its sign.
QString format_signed(double v) {
    if (std::isnan(v)) return QStringLiteral("—");
    if (std::abs(v) < 0.005) return QStringLiteral("0");
    const QString s = paint::format_cell(std::abs(v));
    return (v > 0 ? QStringLiteral("+") : QStringLiteral("−")) + s;
}

QString format_precise(double v, bool sign) {
    if (std::isnan(v)) return QStringLiteral("NaN");
    QString s = QString::number(v, 'f', 3);
    if (s.startsWith(QLatin1Char('-')))
        s.replace(0, 1, QStringLiteral("−"));
    else if (sign && v > 0)
        s.prepend(QLatin1Char('+'));
    return s;
}

QStringList token_list(const CompareModel& m) {
    QStringList all(m.query_tokens.begin(), m.query_tokens.end());
    all.append(QStringList(m.key_tokens.begin(), m.key_tokens.end()));
    all.append(QStringList(m.b_key_tokens.begin(), m.b_key_tokens.end()));
    return all;
}
}  // namespace

void CompareFigure::setSnapshot(SnapshotPtr snapshot) {
    a_ = std::move(snapshot);
    dirty_ = true;
}

void CompareFigure::setCompared(SnapshotPtr snapshot) {
    b_ = std::move(snapshot);
    dirty_ = true;
}

void CompareFigure::setProblem(const QString& problem) {
    if (problem == problem_) return;
    problem_ = problem;
    dirty_ = true;
}

void CompareFigure::setOptions(const FigureOptions& options) {
    const int old_head = head();
    const ScaleMode old_scale = options_.scale;
    options_ = options;
    if (head() != old_head || options.batch_item != model_.item || options.scale != old_scale ||
        options.compare_b_head != model_.b_head)
        dirty_ = true;
    // Colours depend on the map and the scale; the cached images go with them.
    images_ = {};
}

int CompareFigure::head() const {
    return options_.view == FigureView::Head ? options_.head : -1;
}

void CompareFigure::rebuild() {
    dirty_ = false;
    hover_ = {};
    images_ = {};
    message_.clear();
    model_ = {};
    if (!problem_.isEmpty()) {
        message_ = problem_;
        return;
    }
    if (!a_ || !b_) {
        message_ = CompareText::tr("Computing configuration B…");
        return;
    }
    model_ = build_compare_model(*a_, *b_, options_.batch_item, head(), &message_,
                                 options_.compare_b_head);
    weight_hi_ = options_.scale == ScaleMode::Unit ? 1.0
                 : model_.max_weight > 0.0f        ? double(model_.max_weight)
                                                   : 1.0;
    diff_hi_ = model_.max_abs_diff > 0.0f ? double(model_.max_abs_diff) : 1.0;
}

QStringList CompareFigure::labels(int panel) const {
    QStringList out = panel == PanelA ? compare_labels(a_->config, b_->config)
                                      : compare_labels(b_->config, a_->config);
    if (otherHead()) {
        const int h = panel == PanelA ? head() : options_.compare_b_head;
        out << (h < 0 ? CompareText::tr("mean over heads") : CompareText::tr("head %1").arg(h + 1));
    }
    return out;
}

bool CompareFigure::otherHead() const {
    return options_.compare_b_head >= -1 && options_.compare_b_head != head();
}

QString CompareFigure::panelTitle(int panel) const {
    if (panel == PanelDiff) return CompareText::tr("Difference B − A");
    if (!a_ || !b_) return panel == PanelA ? QStringLiteral("A") : QStringLiteral("B");
    const QStringList labels = this->labels(panel);
    if (labels.isEmpty()) return panel == PanelA ? QStringLiteral("A") : QStringLiteral("B");
    return (panel == PanelA ? CompareText::tr("A: %1") : CompareText::tr("B: %1"))
        .arg(labels.join(QStringLiteral(", ")));
}

QString CompareFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    if (!a_ || !b_) return CompareText::tr("Comparing two configurations");
    const QStringList la = labels(PanelA), lb = labels(PanelB);
    QString what = la.isEmpty()
                       ? CompareText::tr("A and B are the same configuration")
                       : CompareText::tr("%1  vs  %2")
                             .arg(la.join(QStringLiteral(", ")), lb.join(QStringLiteral(", ")));
    if (!otherHead())
        what += QStringLiteral("  ·  ") + (head() < 0 ? CompareText::tr("mean over heads")
                                                      : CompareText::tr("head %1").arg(head() + 1));
    if (a_->batch > 1)
        what += QStringLiteral("  ·  ") +
                CompareText::tr("sentence %1").arg(std::clamp(options_.batch_item, 0, 1) + 1);
    if (a_->norm_based) what += QStringLiteral("  ·  ") + CompareText::tr("norm-based ‖α·f(x)‖");
    // Capitalised for a title, as the words come from the middle of a sentence; a file's name
    // is spelled as it is.
    if (!what.isEmpty() && a_->config.model_folder == b_->config.model_folder)
        what[0] = what[0].toUpper();
    return what;
}

QString CompareFigure::captionText() const {
    if (!a_) return {};
    QString caption = CompareText::tr("A = %1").arg(describe_config(a_->config));
    if (b_) {
        const QStringList lb = labels(PanelB);
        caption += QLatin1Char('\n') +
                   (lb.isEmpty() ? CompareText::tr("B = A: choose what B changes")
                                 : CompareText::tr("B = A with %1; everything else the same")
                                       .arg(lb.join(QStringLiteral(", "))));
    }
    return caption;
}

QString CompareFigure::summaryText() const {
    if (model_.empty()) return {};
    if (!model_.sameLength())
        return CompareText::tr(
                   "A's sentence has %1 tokens and B's %2: compared position by "
                   "position, the positions only one has are blank.")
                   .arg(model_.a_rows)
                   .arg(model_.b_rows) +
               QLatin1Char('\n') + sharedSummary();
    // Two maps files whose tokens files spell the text differently (two tokenizers).
    if (a_ && a_->config.usesMaps()) {
        int differ = 0;
        for (int i = 0; i < model_.rows; ++i)
            differ += model_.query_tokens[std::size_t(i)] != model_.b_query_tokens[std::size_t(i)];
        if (differ > 0)
            return CompareText::tr(
                       "B's tokens differ from A's at %n position(s): compared position by "
                       "position.",
                       nullptr, differ) +
                   QLatin1Char('\n') + sharedSummary();
    }
    return sharedSummary();
}

QString CompareFigure::sharedSummary() const {
    if (model_.finite_cells == 0) return CompareText::tr("No cell has a weight in both A and B.");
    if (model_.max_abs_diff == 0.0f)
        return CompareText::tr("A and B give exactly the same weights here.");
    const std::size_t k = model_.index(model_.max_row, model_.max_col);
    // Two sentences: "猫/狗" where B has another token at that position.
    auto token = [](const std::vector<QString>& a, const std::vector<QString>& b, int i) {
        const QString ta = a[std::size_t(i)];
        const QString tb = std::size_t(i) < b.size() ? b[std::size_t(i)] : ta;
        return tb == ta ? ta : ta + QLatin1Char('/') + tb;
    };
    const QString query = token(model_.query_tokens, model_.b_query_tokens, model_.max_row);
    const QString key = token(model_.key_tokens, model_.b_key_tokens, model_.max_col);
    if (options_.high_contrast)
        return CompareText::tr("Largest change %1 at “%2” → “%3”   ·   mean |B − A| %4")
            .arg(format_precise(model_.diff[k], true), query, key,
                 format_precise(model_.mean_abs_diff, false));
    return CompareText::tr("Largest change: %1 (from %2 to %3) at query “%4”, key “%5”")
               .arg(format_precise(model_.diff[k], true), format_precise(model_.a[k], false),
                    format_precise(model_.b[k], false), query, key) +
           QStringLiteral("   ·   ") +
           CompareText::tr("mean |B − A| = %1 over %2 cells")
               .arg(format_precise(model_.mean_abs_diff, false))
               .arg(model_.finite_cells);
}

QRectF CompareFigure::cellRect(int panel, int row, int col) const {
    const QRectF& m = matrix_[std::size_t(panel)];
    return QRectF(m.left() + col * cell_, m.top() + row * cell_, cell_, cell_);
}

void CompareFigure::layout(QSize size) {
    if (dirty_) rebuild();
    size_ = size;
    matrix_ = {};
    header_ = {};
    const double W = std::max(64, size.width()), H = std::max(64, size.height());
    const int fpx = std::max(6, options_.font_px);
    label_px_ = fpx;
    // Presenting: the title says what A and B are; the full configurations would take the
    // height the panels need at 24 pt.
    double y =
        titles_.layout(options_, titleText(), options_.high_contrast ? QString() : captionText(),
                       kComparePad, W, kComparePad);
    if (model_.empty()) return;

    const int L = model_.rows, S = model_.cols;
    const QFont label_font = figure_font(fpx, token_list(model_));
    const QFontMetricsF lfm(label_font);
    const QFontMetricsF hfm(figure_font(fpx + 1, {}, true));
    const QFontMetricsF legend_fm(figure_font(std::max(6, fpx - 1)));
    const double gap = std::max(18.0, fpx * 1.2);
    const double header_h = hfm.height() + 6;
    const double legend_h = legend_fm.height() + 8;
    // The summary quotes tokens: a font that has them (Chinese lines are taller).
    const QFont summary_font = figure_font(fpx, token_list(model_));
    summary_text_ = paint::wrap_text(summaryText(), summary_font, W - 2 * kComparePad);
    const double summary_h = QFontMetricsF(summary_font)
                                 .boundingRect(QRectF(0, 0, W - 2 * kComparePad, 1e6),
                                               Qt::AlignHCenter | Qt::AlignTop, summary_text_)
                                 .height();

    double widest_query = 0.0, widest_key = 0.0;
    for (const QString& t : model_.query_tokens)
        widest_query = std::max(
            widest_query, lfm.horizontalAdvance(paint::elide(visible_token(t), lfm, 9.0 * fpx)));
    for (const QString& t : model_.key_tokens)
        widest_key = std::max(
            widest_key, lfm.horizontalAdvance(paint::elide(visible_token(t), lfm, 9.0 * fpx)));
    const double row_label_w = widest_query + 10;

    // The legends may need two lines when the figure is narrow; reserve both.
    const double ramp_w = std::max(80.0, 4.0 * fpx);
    const QString w_left = QStringLiteral("0"), w_right = paint::format_cell(weight_hi_);
    const QString d_left = CompareText::tr("%1 (B lower)").arg(format_signed(-diff_hi_));
    const QString d_right = CompareText::tr("%1 (B higher)").arg(format_signed(diff_hi_));
    const double swatch_w = legend_fm.height() * 1.6;
    const double ab_w = legend_fm.horizontalAdvance(CompareText::tr("A and B:")) + 8 +
                        legend_fm.horizontalAdvance(w_left) + 6 + ramp_w + 6 +
                        legend_fm.horizontalAdvance(w_right) + 24 + swatch_w + 6 +
                        legend_fm.horizontalAdvance(CompareText::tr("masked"));
    const double diff_w = legend_fm.horizontalAdvance(CompareText::tr("B − A:")) + 8 +
                          legend_fm.horizontalAdvance(d_left) + 6 + ramp_w + 6 +
                          legend_fm.horizontalAdvance(d_right);
    const double top = y;
    // Two passes: the legends side by side under their panels if they fit there, else one
    // above the other (which leaves the panels less height).
    for (int pass = 0; pass < 2; ++pass) {
        const bool stacked = pass == 1 || ab_w + diff_w + 2 * gap > W - 2 * kComparePad;
        const double legends_h = stacked ? 2 * legend_h + 4 : legend_h;
        const double bottom = H - kComparePad - summary_h - 8 - legends_h - gap / 2;
        y = top;
        for (int attempt = 0; attempt < 2; ++attempt) {
            rotate_keys_ = attempt == 1;
            col_label_h_ = rotate_keys_ ? widest_key + 8 : lfm.height() + 6;
            const double avail_w = W - 2 * kComparePad - row_label_w - 2 * gap;
            const double avail_h = bottom - (y + header_h) - col_label_h_;
            cell_ = std::max(0.5, std::min(avail_w / (3.0 * S), avail_h / L));
            if (cell_ >= 3.0) cell_ = std::floor(cell_);
            // Key labels lie flat when they fit under their columns.
            if (widest_key + 4 <= cell_) break;
        }
        const double mw = S * cell_, mh = L * cell_;
        // Whatever height the panels leave, split above and below them (a slide, not a page).
        const double block_h = header_h + mh + col_label_h_ + gap / 2 + legends_h + 8 + summary_h;
        y += std::max(0.0, (H - kComparePad - y - block_h) / 2);
        const double content_w = row_label_w + 3 * mw + 2 * gap;
        const double x0 = std::max(kComparePad, (W - content_w) / 2);
        for (int k = 0; k < 3; ++k) {
            const double mx = x0 + row_label_w + k * (mw + gap);
            header_[std::size_t(k)] = QRectF(mx - gap / 2 + 2, y, mw + gap - 4, header_h);
            matrix_[std::size_t(k)] = QRectF(mx, y + header_h, mw, mh);
        }
        row_labels_ = QRectF(x0, y + header_h, row_label_w - 6, mh);

        double ly = y + header_h + mh + col_label_h_ + gap / 2;
        auto centred = [&](double centre, double width) {
            const double left = std::clamp(centre - width / 2, kComparePad,
                                           std::max(kComparePad, W - kComparePad - width));
            return QRectF(left, ly, width, legend_h);
        };
        if (stacked) {
            legend_ab_ = centred(W / 2, ab_w);
            ly += legend_h + 4;
            legend_diff_ = centred(W / 2, diff_w);
            break;
        }
        const QRectF& ma = matrix_[PanelA];
        const QRectF& mb = matrix_[PanelB];
        legend_ab_ = centred((ma.left() + mb.right()) / 2, ab_w);
        legend_diff_ = centred(matrix_[PanelDiff].center().x(), diff_w);
        if (legend_diff_.left() >= legend_ab_.right() + gap / 2) break;
        // Not under their panels: side by side in the middle, if the width allows.
        const double pair_w = ab_w + 2 * gap + diff_w;
        if (pair_w <= W - 2 * kComparePad) {
            legend_ab_.moveLeft((W - pair_w) / 2);
            legend_diff_.moveLeft(legend_ab_.right() + 2 * gap);
            break;
        }
    }

    const QFontMetricsF vfm(figure_font(std::clamp(int(cell_ * 0.28), 7, fpx)));
    // Presenting: numbers too small to read from the back of the room are only clutter.
    const bool readable = !options_.high_contrast || vfm.height() >= 0.6 * fpx;
    values_ = options_.values && readable && L * S <= kCompareValueCells &&
              vfm.horizontalAdvance(QStringLiteral("−0.00")) + 4 <= cell_ &&
              vfm.height() + 2 <= cell_;
    summary_ = QRectF(kComparePad, legend_diff_.bottom() + 8, W - 2 * kComparePad, summary_h);
}

bool CompareFigure::hasCell(int panel, int i, int j) const {
    return panel == PanelA   ? model_.inA(i, j)
           : panel == PanelB ? model_.inB(i, j)
                             : model_.inA(i, j) && model_.inB(i, j);
}

QColor CompareFigure::cellColor(int panel, std::size_t k) const {
    if (!hasCell(panel, int(k / std::size_t(model_.cols)), int(k % std::size_t(model_.cols))))
        return kAbsent;
    if (panel == PanelDiff) {
        const float d = model_.diff[k];
        return std::isnan(d) ? kUndefined : paint::signed_color(d, diff_hi_);
    }
    const bool masked = panel == PanelA ? model_.masked_a[k] : model_.masked_b[k];
    const float v = panel == PanelA ? model_.a[k] : model_.b[k];
    if (masked) return masked_cell_color(options_.colormap);
    if (!std::isfinite(v)) return kUndefined;
    if (gradient_map_ != int(options_.colormap)) {
        gradient_ = make_gradient(options_.colormap);
        gradient_map_ = int(options_.colormap);
    }
    return QColor(gradient_.color(v, QCPRange(0.0, weight_hi_)));
}

QImage CompareFigure::panelImage(int panel) const {
    QImage& image = images_[std::size_t(panel)];
    if (!image.isNull()) return image;
    image = QImage(model_.cols, model_.rows, QImage::Format_RGB32);
    for (int i = 0; i < model_.rows; ++i) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(i));
        for (int j = 0; j < model_.cols; ++j)
            line[j] = cellColor(panel, model_.index(i, j)).rgb();
    }
    return image;
}

void CompareFigure::paint(QPainter* p, bool vector) const {
    p->save();
    p->fillRect(QRectF(QPointF(0, 0), QSizeF(size_)), Qt::white);
    titles_.paint(p, options_);
    const int fpx = std::max(6, options_.font_px);
    if (model_.empty()) {
        p->setPen(options_.high_contrast ? QColor(Qt::black) : paint::kMuted);
        p->setFont(figure_font(fpx + 4, {message_}));
        const double top = titles_.caption.isNull() ? 40.0 : titles_.caption.bottom() + 40.0;
        p->drawText(QRectF(40, top, size_.width() - 80, std::max(40.0, size_.height() - top - 40)),
                    Qt::AlignCenter | Qt::TextWordWrap, message_);
        p->restore();
        return;
    }
    for (int k = 0; k < 3; ++k)
        paintPanel(p, k, vector);

    // Row labels: the query tokens, once, left of A (B and the difference share the rows).
    const QString labels = token_list(model_).join(QString());
    const QFont lf = label_font_for(figure_font(label_px_, token_list(model_)), cell_, 7, labels);
    const QFontMetricsF lfm(lf);
    p->setFont(lf);
    p->setPen(paint::text_color(options_));
    const int rstride = label_stride(cell_, line_height(lf, labels));
    for (int i = 0; i < model_.rows; i += rstride) {
        const QRectF r(row_labels_.left(), row_labels_.top() + i * cell_ + cell_ / 2 - 40,
                       row_labels_.width(), 80);
        // Past the end of A's sentence, B's words.
        const QString& t = i < model_.a_rows ? model_.query_tokens[std::size_t(i)]
                                             : model_.b_query_tokens[std::size_t(i)];
        p->drawText(r, Qt::AlignRight | Qt::AlignVCenter,
                    paint::elide(visible_token(t), lfm, 9.0 * label_px_));
    }
    paintLegend(p);
    p->setFont(figure_font(fpx, token_list(model_)));
    p->setPen(paint::text_color(options_));
    p->drawText(summary_, Qt::AlignHCenter | Qt::AlignTop, summary_text_);
    p->restore();
}

void CompareFigure::paintPanel(QPainter* p, int panel, bool vector) const {
    const QRectF m = matrix_[std::size_t(panel)];
    const int fpx = std::max(6, options_.font_px);
    const QColor text = paint::text_color(options_);
    p->save();

    // Header: what this panel is.
    const QFont hf = figure_font(fpx + 1, {}, true);
    p->setFont(hf);
    p->setPen(panel == PanelDiff ? paint::kAccent : text);
    const QRectF& head = header_[std::size_t(panel)];
    // The title says what A and B are; a panel too narrow for its own says just which it is.
    const QFontMetricsF hfm(hf);
    QString title = panelTitle(panel);
    if (hfm.horizontalAdvance(title) > head.width())
        title = panel == PanelA   ? QStringLiteral("A")
                : panel == PanelB ? QStringLiteral("B")
                                  : CompareText::tr("B − A");
    p->drawText(head, Qt::AlignHCenter | Qt::AlignVCenter,
                hfm.elidedText(title, Qt::ElideRight, head.width()));

    // Cells: rectangles in SVG/PDF, which stay crisp at any zoom, unless there are so many
    // that the file would be huge; then the same image as on screen.
    if (vector && std::size_t(model_.rows) * model_.cols <= kCompareVectorCells) {
        p->setPen(Qt::NoPen);
        for (int i = 0; i < model_.rows; ++i) {
            int j = 0;
            while (j < model_.cols) {
                const QColor c = cellColor(panel, model_.index(i, j));
                int end = j + 1;
                while (end < model_.cols && cellColor(panel, model_.index(i, end)) == c)
                    ++end;
                p->fillRect(
                    QRectF(m.left() + j * cell_, m.top() + i * cell_, (end - j) * cell_, cell_)
                        .adjusted(-0.125, -0.125, 0.125, 0.125),
                    c);
                j = end;
            }
        }
    } else {
        p->setRenderHint(QPainter::SmoothPixmapTransform, cell_ < 1.0);
        p->drawImage(m, panelImage(panel));
    }
    // Masked cells hatched; in the difference, where either side was masked (why a weight
    // went to zero).
    if (cell_ >= 4.0) {
        for (int i = 0; i < model_.rows; ++i)
            for (int j = 0; j < model_.cols; ++j) {
                const std::size_t k = model_.index(i, j);
                const bool ma = model_.masked_a[k], mb = model_.masked_b[k];
                if (panel == PanelA && ma)
                    paint::hatch(p, cellRect(panel, i, j), masked_hatch_color(options_.colormap));
                else if (panel == PanelB && mb)
                    paint::hatch(p, cellRect(panel, i, j), masked_hatch_color(options_.colormap));
                else if (panel == PanelDiff && (ma || mb) && hasCell(panel, i, j))
                    paint::hatch(p, cellRect(panel, i, j), kDiffHatch, 8.0);
            }
    }
    p->setPen(QPen(options_.high_contrast ? QColor(Qt::black) : QColor(0x90, 0x90, 0x90),
                   options_.high_contrast ? 1.5 : 0.8));
    p->setBrush(Qt::NoBrush);
    p->drawRect(m);

    // Values in the cells.
    if (values_) {
        p->setFont(figure_font(std::clamp(int(cell_ * 0.28), 7, fpx)));
        for (int i = 0; i < model_.rows; ++i)
            for (int j = 0; j < model_.cols; ++j) {
                const std::size_t k = model_.index(i, j);
                if (!hasCell(panel, i, j)) continue;
                QString s;
                if (panel == PanelDiff) {
                    s = format_signed(model_.diff[k]);
                } else {
                    if (panel == PanelA ? model_.masked_a[k] : model_.masked_b[k]) continue;
                    s = paint::format_cell(panel == PanelA ? model_.a[k] : model_.b[k]);
                }
                p->setPen(text_color_on(cellColor(panel, k)));
                p->drawText(cellRect(panel, i, j), Qt::AlignCenter, s);
            }
    }

    // Key labels under each panel.
    const QString labels = token_list(model_).join(QString());
    const QFont lf = label_font_for(figure_font(label_px_, token_list(model_)), cell_, 7, labels);
    const QFontMetricsF lfm(lf);
    p->setFont(lf);
    p->setPen(text);
    const int cstride = label_stride(cell_, rotate_keys_ ? line_height(lf, labels) : 0.0);
    // B's own words under B when it has another sentence.
    const auto& keys =
        panel == PanelB && !model_.b_key_tokens.empty() ? model_.b_key_tokens : model_.key_tokens;
    const int own_cols = panel == PanelB ? model_.b_cols : model_.a_cols;
    for (int j = 0; j < std::min(model_.cols, own_cols); j += std::max(1, cstride)) {
        const QString t = paint::elide(visible_token(keys[std::size_t(j)]), lfm, 9.0 * label_px_);
        const double cx = m.left() + j * cell_ + cell_ / 2;
        if (rotate_keys_) {
            p->save();
            p->translate(cx, m.bottom() + 4);
            p->rotate(-90);
            p->drawText(QRectF(-col_label_h_, -lfm.height() / 2, col_label_h_ - 2, lfm.height()),
                        Qt::AlignRight | Qt::AlignVCenter, t);
            p->restore();
        } else {
            p->drawText(QRectF(cx - cell_ / 2 - 40, m.bottom() + 3, cell_ + 80, lfm.height()),
                        Qt::AlignHCenter | Qt::AlignTop, t);
        }
    }

    // The hovered cell, outlined in every panel so the eye finds it in all three.
    if (hover_.row >= 0 && hover_.col >= 0) {
        const QRectF r = cellRect(panel, hover_.row, hover_.col);
        p->setBrush(Qt::NoBrush);
        p->setPen(QPen(Qt::black, 3));
        p->drawRect(r);
        p->setPen(QPen(Qt::white, 1));
        p->drawRect(r.adjusted(2, 2, -2, -2));
    }
    p->restore();
}

void CompareFigure::paintLegend(QPainter* p) const {
    const int fpx = std::max(6, options_.font_px);
    const QFont lf = figure_font(std::max(6, fpx - 1));
    const QFontMetricsF lfm(lf);
    const QColor text = paint::text_color(options_);
    const double ramp_w = std::max(80.0, 4.0 * fpx);
    p->setFont(lf);
    auto draw = [&](QRectF box, const QString& what, const QString& left, const QString& right,
                    auto color_at, bool swatch) {
        double x = box.left();
        const double ly = box.top() + 4, lh = box.height() - 8;
        auto label = [&](const QString& s, bool bold) {
            QFont f = lf;
            f.setBold(bold);
            p->setFont(f);
            p->setPen(text);
            const double w = QFontMetricsF(f).horizontalAdvance(s);
            p->drawText(QRectF(x, box.top(), w + 2, box.height()), Qt::AlignVCenter, s);
            x += w;
        };
        label(what, true);
        x += 8;
        label(left, false);
        x += 6;
        for (int k = 0; k < 40; ++k)
            p->fillRect(QRectF(x + k * ramp_w / 40, ly, ramp_w / 40 + 0.5, lh), color_at(k / 39.0));
        p->setPen(QPen(paint::kMuted, 0.5));
        p->setBrush(Qt::NoBrush);
        p->drawRect(QRectF(x, ly, ramp_w, lh));
        x += ramp_w + 6;
        label(right, false);
        if (swatch) {
            x += 24;
            const QRectF sw(x, ly, lh * 1.6, lh);
            p->fillRect(sw, masked_cell_color(options_.colormap));
            paint::hatch(p, sw, masked_hatch_color(options_.colormap));
            x += sw.width() + 6;
            label(CompareText::tr("masked"), false);
        }
    };
    QCPColorGradient g = make_gradient(options_.colormap);
    draw(
        legend_ab_, CompareText::tr("A and B:"), QStringLiteral("0"),
        paint::format_cell(weight_hi_),
        [&](double t) { return QColor(g.color(t, QCPRange(0, 1))); }, true);
    draw(
        legend_diff_, CompareText::tr("B − A:"),
        CompareText::tr("%1 (B lower)").arg(format_signed(-diff_hi_)),
        CompareText::tr("%1 (B higher)").arg(format_signed(diff_hi_)),
        [](double t) { return paint::signed_color(2 * t - 1, 1.0); }, false);
}

CompareFigure::Hit CompareFigure::hitTest(const QPointF& pos) const {
    if (model_.empty() || cell_ <= 0.0) return {};
    for (int k = 0; k < 3; ++k) {
        const QRectF& m = matrix_[std::size_t(k)];
        if (!m.contains(pos)) continue;
        return Hit{k, std::clamp(int((pos.y() - m.top()) / cell_), 0, model_.rows - 1),
                   std::clamp(int((pos.x() - m.left()) / cell_), 0, model_.cols - 1)};
    }
    return {};
}

void CompareFigure::setHover(Hit hit) {
    hover_ = hit;
}

QString CompareFigure::describe(const Hit& hit) const {
    if (model_.empty() || hit.row < 0 || hit.col < 0 || hit.row >= model_.rows ||
        hit.col >= model_.cols)
        return {};
    const std::size_t k = model_.index(hit.row, hit.col);
    auto weight = [&](float v, bool masked) {
        return masked ? CompareText::tr("%1 (masked)").arg(format_precise(v, false))
                      : format_precise(v, false);
    };
    const bool in_a = model_.inA(hit.row, hit.col), in_b = model_.inB(hit.row, hit.col);
    if (!in_a || !in_b) {  // two sentences of different lengths: one side has no token here
        const auto side = [&](bool in, const std::vector<QString>& q,
                              const std::vector<QString>& key, float v, bool masked) {
            return in ? CompareText::tr("“%1” → “%2” %3")
                            .arg(q[std::size_t(hit.row)], key[std::size_t(hit.col)],
                                 weight(v, masked))
                      : CompareText::tr("no token here");
        };
        return CompareText::tr("A: %1   ·   B: %2")
            .arg(
                side(in_a, model_.query_tokens, model_.key_tokens, model_.a[k], model_.masked_a[k]),
                side(in_b, model_.b_query_tokens, model_.b_key_tokens, model_.b[k],
                     model_.masked_b[k]));
    }
    const QString q = model_.query_tokens[std::size_t(hit.row)];
    const QString key = model_.key_tokens[std::size_t(hit.col)];
    const QString bq = model_.b_query_tokens.at(std::size_t(hit.row));
    const QString bk = model_.b_key_tokens.at(std::size_t(hit.col));
    if (bq != q || bk != key)  // two sentences: B's tokens at the same positions
        return CompareText::tr("A: “%1” → “%2” %3   ·   B: “%4” → “%5” %6   ·   B − A %7")
            .arg(q, key, weight(model_.a[k], model_.masked_a[k]), bq, bk,
                 weight(model_.b[k], model_.masked_b[k]), format_precise(model_.diff[k], true));
    return CompareText::tr("query “%1” → key “%2”:   A %3   ·   B %4   ·   B − A %5")
        .arg(q, key, weight(model_.a[k], model_.masked_a[k]),
             weight(model_.b[k], model_.masked_b[k]), format_precise(model_.diff[k], true));
}

}  // namespace attnviz::ui
