#include "ui/model/predictions_figure.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ui/compute/csv.h"
#include "ui/render/figure_export.h"
#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
struct PredictionsText {
    Q_DECLARE_TR_FUNCTIONS(PredictionsFigure)
};

constexpr int kPredictionsPad = 16;
constexpr int kMinFontPx = 8;
}  // namespace

void PredictionsFigure::layout(QSize size) {
    size_ = size;
    const ModelMaps* m = maps();
    guesses_ = m && m->predictions ? token_guesses(*m, *m->predictions) : std::vector<TokenGuess>();
    shown_tokens(m, &tokens_, &generated_);
    // Long texts take smaller type before anything is cut at the canvas's bottom edge.
    for (int px = options_.font_px;; --px) {
        bottom_ = layoutAt(size, px);
        if (bottom_ <= size.height() || px <= kMinFontPx) break;
    }
}

int PredictionsFigure::layoutAt(QSize size, int font_px) {
    font_px_ = font_px;
    FigureOptions options = options_;
    options.font_px = font_px;
    const double top =
        title_.layout(options, titleText(), captionText(), 8, size.width(), kPredictionsPad);
    blocks_.clear();
    summary_.clear();
    summary_rect_ = box_rect_ = message_rect_ = QRect();
    piece_ = -1;
    const ModelMaps* m = maps();
    if (!m || !m->predictions) {
        font_ = figure_font(font_px);
        message_rect_ = QRect(2 * kPredictionsPad, int(top) + kPredictionsPad,
                              size.width() - 4 * kPredictionsPad, QFontMetrics(font_).height() * 3);
        return message_rect_.bottom() + kPredictionsPad;
    }
    // Every text the figure shows, so that the font covers it (Chinese tokens).
    QStringList texts(tokens_.begin(), tokens_.end());
    for (const TokenGuess& g : guesses_)
        texts << g.guess;
    for (const auto& row : m->predictions->top_text)
        for (const QString& t : row)
            texts << readable_piece(t);
    if (m->predictions->causal) summary_ = guesses_summary(*m, guesses_);
    texts << summary_ << prediction_loss_lines(*m);
    font_ = figure_font(font_px, texts);
    const QFontMetrics fm(font_);

    // The rows of tokens: each column as wide as its token or its guess, wrapped at the width.
    const int gutter = kPredictionsPad + 12 +
                       std::max({fm.horizontalAdvance(PredictionStrip::tr("Token")),
                                 fm.horizontalAdvance(PredictionStrip::tr("Guess")),
                                 fm.horizontalAdvance(PredictionStrip::tr("Loss"))});
    const int right = size.width() - kPredictionsPad;
    const int min_w = fm.horizontalAdvance(QStringLiteral("MM")) + 8;
    const int max_w = std::max(min_w, std::min(right - gutter, 14 * fm.averageCharWidth()));
    const int rh = guess_row_height(font_);
    loss_height_ = std::max(6, int(fm.height() * 0.6));
    const int block_h = guesses_.empty() ? rh : 2 * rh + loss_height_ + 4;
    int y = int(top) + 8;
    double x = gutter;
    for (std::size_t k = 0; k < tokens_.size(); ++k) {
        int w = fm.horizontalAdvance(tokens_[k]);
        if (k < guesses_.size()) w = std::max(w, fm.horizontalAdvance(guesses_[k].guess));
        const double cw = std::clamp(w + 10, min_w, max_w);
        if (blocks_.empty() || (x + cw > right && !blocks_.back().columns.empty())) {
            if (!blocks_.empty()) y += block_h + 10;
            blocks_.push_back(Block{k, {}, y});
            x = gutter;
        }
        blocks_.back().columns.emplace_back(x, y, cw, block_h);
        x += cw;
    }
    if (!blocks_.empty()) y += block_h + 6;
    if (!summary_.isEmpty()) {
        const QRect r = fm.boundingRect(QRect(gutter, y, right - gutter, 100000),
                                        Qt::AlignLeft | Qt::TextWordWrap, summary_);
        summary_rect_ = QRect(gutter, y, right - gutter, r.height() + 2);
        y = summary_rect_.bottom() + 1;
    }
    // The box, at most as wide as reads comfortably.
    const ModelPredictions& p = *m->predictions;
    const int token = options_.focus_token;
    piece_ = predictions_piece(*m, token >= 0 && token < m->tokens ? m->pieceOf(token) : -1);
    // With heads knocked out the box sets the two models' lists side by side.
    const int box_w = std::min(size.width() - 2 * kPredictionsPad,
                               (m->intact_predictions ? 110 : 64) * fm.averageCharWidth());
    const int box_h =
        p.causal && piece_ < 0 ? 0 : paint_predictions_box(nullptr, font_, *m, piece_, box_w);
    box_rect_ = QRect(kPredictionsPad, y + 16, box_w, box_h);
    return box_rect_.bottom() + kPredictionsPad;
}

int PredictionsFigure::usedHeight() const {
    return bottom_ < size_.height() ? bottom_ : -1;
}

int PredictionsFigure::usedWidth() const {
    // A short text: as wide as its row of tokens, the box or the title, whichever is wider.
    int right = box_rect_.right();
    for (const Block& b : blocks_)
        if (!b.columns.empty()) right = std::max(right, int(std::ceil(b.columns.back().right())));
    if (options_.show_title) {  // the title and the caption are centred: as wide as their text
        const int px = std::max(6, font_px_);
        const double text =
            std::max(QFontMetricsF(figure_font(px + 5, {title_.title_text}, true))
                         .horizontalAdvance(title_.title_text),
                     QFontMetricsF(figure_font(std::max(6, px - 1), {captionText()}))
                         .horizontalAdvance(captionText()));
        right = std::max(right, int(std::ceil(text)) + kPredictionsPad);
    }
    const int used = right + kPredictionsPad;
    return maps() && maps()->predictions && used < size_.width() ? used : -1;
}

void PredictionsFigure::paint(QPainter* p, bool) const {
    p->fillRect(QRect(QPoint(0, 0), size_), Qt::white);
    FigureOptions options = options_;
    options.font_px = font_px_;
    title_.paint(p, options);
    const ModelMaps* m = maps();
    if (!m || !m->predictions) {
        p->setFont(font_);
        p->setPen(paint::kMuted);
        const QString why =
            !m ? PredictionsText::tr("Open a trained model to see what it predicts.")
               : (m->no_predictions.isEmpty() ? PredictionsBox::tr("No predictions for this model.")
                                              : m->no_predictions);
        p->drawText(message_rect_, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, why);
        return;
    }
    const std::span<const TokenGuess> guesses(guesses_);
    const std::span<const QString> tokens(tokens_);
    for (const Block& b : blocks_) {
        const std::size_t n = b.columns.size();
        GuessRows rows{b.columns,
                       {},
                       tokens.subspan(b.first, n),
                       std::span<const std::uint8_t>(generated_).subspan(b.first, n),
                       -1,
                       loss_height_};
        if (!guesses.empty()) rows.guesses = guesses.subspan(b.first, n);
        paint_guess_rows(p, font_, rows, b.top, size_.width());
    }
    if (!summary_.isEmpty()) {
        p->setFont(font_);
        p->setPen(paint::kMuted);
        p->drawText(summary_rect_, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, summary_);
    }
    if (box_rect_.height() > 0) {
        p->save();
        p->translate(box_rect_.topLeft());
        paint_predictions_box(p, font_, *m, piece_, box_rect_.width());
        p->restore();
    }
}

QString PredictionsFigure::titleText() const {
    if (!options_.title.isEmpty()) return options_.title;
    const ModelMaps* m = maps();
    if (!m) return PredictionsText::tr("What the model predicts");
    if (m->predictions && !m->predictions->causal)
        return PredictionsText::tr("What %1 fills in at each mask").arg(m->name);
    return PredictionsText::tr("What %1 predicts after each token").arg(m->name);
}

QString PredictionsFigure::captionText() const {
    const ModelMaps* m = maps();
    if (!m) return {};
    QStringList parts{PredictionsText::tr("%n token(s)", nullptr, m->tokens)};
    if (!m->knocked_out.empty())
        parts << PredictionsText::tr("heads knocked out: %1").arg(knocked_list(*m));
    return parts.join(QStringLiteral(" · "));
}

QByteArray predictions_csv(const ModelMaps& m) {
    QByteArray out = "position,token,next_token,loss,rank,id,prediction,probability\n";
    if (!m.predictions) return out;
    const ModelPredictions& p = *m.predictions;
    const text::Encoding& e = m.encoding;
    auto piece_text = [&](std::size_t k) {
        return k < e.text.size() ? QString::fromStdString(e.text[k]) : QString();
    };
    for (std::size_t r = 0; r < p.positions.size(); ++r) {
        const auto k = std::size_t(p.positions[r]);
        const bool has_next = p.causal && k + 1 < e.ids.size() && k < p.next_logprob.size();
        const QString next = has_next ? csv_field(piece_text(k + 1)) : QString();
        const QString loss = has_next ? QString::number(-p.next_logprob[k], 'g', 9) : QString();
        for (std::size_t rank = 0; rank < p.top[r].size(); ++rank)
            out += QStringList{QString::number(k + 1),
                               csv_field(piece_text(k)),
                               next,
                               loss,
                               QString::number(rank + 1),
                               QString::number(p.top[r][rank].id),
                               csv_field(p.top_text[r][rank]),
                               QString::number(std::exp(p.top[r][rank].logprob), 'g', 9)}
                       .join(QLatin1Char(','))
                       .toUtf8() +
                   '\n';
    }
    return out;
}

}  // namespace attnviz::ui
