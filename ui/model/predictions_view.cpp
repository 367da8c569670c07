#include "ui/model/predictions_view.h"

#include <QEvent>
#include <QFontInfo>
#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QTextLayout>
#include <QTextOption>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/render/fonts.h"
#include "ui/render/generated_tokens.h"

namespace attnviz::ui {

namespace {
const QColor kRight(0, 140, 100);        // a correct guess (Okabe–Ito bluish green, darker)
const QColor kRightFill(214, 240, 228);  // its cell
const QColor kWrongFill(244, 244, 244);
const QColor kMuted(100, 100, 100);
const QColor kAfterBar(0, 114, 178);     // with heads knocked out
const QColor kBeforeBar(170, 170, 170);  // the intact model
constexpr double kLossTop = 6.0;         // nats: the loss strip's darkest colour

/// The index of `piece` in p.positions, or −1.
int row_of(const ModelPredictions& p, int piece) {
    const auto it = std::lower_bound(p.positions.begin(), p.positions.end(), piece);
    return it != p.positions.end() && *it == piece ? int(it - p.positions.begin()) : -1;
}

/// Loss in nats as a colour, from pale yellow (0) to dark red (kLossTop and above).
QColor loss_colour(double loss) {
    const double t = std::clamp(loss / kLossTop, 0.0, 1.0);
    const QColor a(255, 247, 200), b(160, 20, 30);
    return QColor::fromRgbF(float(a.redF() + t * (b.redF() - a.redF())),
                            float(a.greenF() + t * (b.greenF() - a.greenF())),
                            float(a.blueF() + t * (b.blueF() - a.blueF())));
}

QString nats(double v) {
    return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'f', 2);
}

}  // namespace

QString knocked_list(const ModelMaps& m) {
    QStringList heads;
    for (const auto& [head, how] : m.knocked_out)
        heads << PredictionsBox::tr("L%1 H%2").arg(head.first + 1).arg(head.second + 1);
    return heads.join(QStringLiteral(", "));
}

QString readable_piece(const QString& vocab) {
    QString s = vocab;
    if (s.startsWith(QChar(0x0120)) ||
        s.startsWith(QChar(0x2581)))  // Ġ (byte BPE), ▁ (SentencePiece)
        s[0] = QLatin1Char(' ');
    if (s == QString(QChar(0x010A))) s = QStringLiteral("\n");  // Ċ
    return visible_token(s);
}

std::vector<TokenGuess> token_guesses(const ModelMaps& m, const ModelPredictions& p) {
    std::vector<TokenGuess> out;
    if (!p.causal) return out;
    const auto& ids = m.encoding.ids;
    for (int t = 0; t < m.tokens; ++t) {
        TokenGuess g;
        g.piece = m.pieceOf(t);
        const int r = row_of(p, g.piece);
        if (r >= 0 && !p.top[std::size_t(r)].empty()) {
            const models::TokenScore& top = p.top[std::size_t(r)][0];
            g.guess = readable_piece(p.top_text[std::size_t(r)][0]);
            g.probability = std::exp(top.logprob);
            g.has_next = std::size_t(g.piece) + 1 < ids.size() &&
                         std::size_t(g.piece) < p.next_logprob.size();
            if (g.has_next) {
                g.correct = top.id == ids[std::size_t(g.piece) + 1];
                g.loss = -p.next_logprob[std::size_t(g.piece)];
            }
        }
        out.push_back(g);
    }
    return out;
}

std::pair<int, int> second_copy(const ModelMaps& m) {
    const auto& e = m.encoding;
    std::vector<int> text;  // the pieces that are not special tokens
    for (std::size_t k = 0; k < e.ids.size(); ++k)
        if (k >= e.special.size() || !e.special[k]) text.push_back(int(k));
    const int n = int(text.size());
    // Said twice, or twice with one separator between (a space, a newline), and long enough
    // to be a copy: "haha" or "no no" is a word, not a text the model can look back into.
    constexpr int kMinHalf = 5;
    for (const int gap : {0, 1}) {
        if (n < 2 * kMinHalf + gap || (n - gap) % 2 != 0) continue;
        const int half = (n - gap) / 2;
        bool same = true;
        for (int i = 0; i < half && same; ++i)
            same = e.ids[std::size_t(text[std::size_t(i)])] ==
                   e.ids[std::size_t(text[std::size_t(i + half + gap)])];
        if (same) return {text[std::size_t(half + gap)], text.back() + 1};
    }
    return {-1, -1};
}

double mean_loss(const ModelPredictions& p, int begin, int end) {
    double sum = 0.0;
    int count = 0;
    for (int k = std::max(begin, 1); k < end && std::size_t(k) <= p.next_logprob.size(); ++k) {
        sum -= p.next_logprob[std::size_t(k) - 1];
        ++count;
    }
    return count ? sum / count : std::numeric_limits<double>::quiet_NaN();
}

// --- the strip ------------------------------------------------------------------------------

void shown_tokens(const ModelMaps* m, std::vector<QString>* tokens,
                  std::vector<std::uint8_t>* generated) {
    tokens->clear();
    generated->clear();
    if (!m) return;
    for (int t = 0; t < m->tokens; ++t) {
        tokens->push_back(visible_token(m->token_text[std::size_t(t)]));
        generated->push_back(m->isGenerated(t));
    }
}

int correct_guesses(std::span<const TokenGuess> guesses, int begin, int end) {
    return int(std::count_if(guesses.begin(), guesses.end(), [&](const TokenGuess& g) {
        return g.correct && g.piece + 1 >= begin && g.piece + 1 < end;
    }));
}

QString guesses_summary(const ModelMaps& m, std::span<const TokenGuess> guesses) {
    if (!m.predictions) return {};
    const int predicted = int(std::count_if(guesses.begin(), guesses.end(),
                                            [](const TokenGuess& g) { return g.has_next; }));
    QString text =
        PredictionStrip::tr("Top guess for the next token after each token: %1 of %2 right (green)")
            .arg(correct_guesses(guesses))
            .arg(predicted);
    const auto [begin, end] = second_copy(m);
    if (begin >= 0)
        text += PredictionStrip::tr(", %1 of %2 in the second copy")
                    .arg(correct_guesses(guesses, begin + 1, end))
                    .arg(end - begin - 1);
    text += PredictionStrip::tr(
                " · loss %1 nats/token (the colour under each guess: pale 0, dark red 6 or more)")
                .arg(nats(m.predictions->loss));
    if (!m.knocked_out.empty())
        text += PredictionStrip::tr(" · knocked out: %1").arg(knocked_list(m));
    return text;
}

namespace {
/// A line of text in `font`, tall enough for Chinese, which the taller CJK fallback draws
/// (the font's own metrics are those of its Latin family).
int text_line_height(const QFont& font) {
    const QFontMetrics fm(font);
    return std::max(
        fm.lineSpacing(),
        fm.boundingRect(QRect(0, 0, 1 << 16, 1 << 16), 0, QStringLiteral("猜测")).height());
}
}  // namespace

int guess_row_height(const QFont& font) {
    return text_line_height(font) + 6;
}

int guess_label_stride(const QFontMetrics& fm, std::span<const QRectF> columns,
                       const std::vector<QString>& texts) {
    if (columns.empty() || texts.empty()) return 1;
    double column = 1e9;
    for (const QRectF& c : columns)
        column = std::min(column, c.width());
    // A label is readable from its first two characters and an ellipsis.
    const int ellipsis = fm.horizontalAdvance(QStringLiteral("…"));
    int need = 0;
    for (const QString& t : texts)
        need = std::max(
            need, std::min(fm.horizontalAdvance(t), fm.horizontalAdvance(t.left(2)) + ellipsis));
    return std::max(1, int(std::ceil((need + 4) / std::max(column, 0.5))));
}

namespace {
/// The columns [k, k + stride) as one rectangle of the row at `y`, `height` high.
QRectF label_span(std::span<const QRectF> columns, std::size_t k, int stride, int y, int height) {
    const std::size_t last = std::min(columns.size(), k + std::size_t(stride)) - 1;
    return QRectF(columns[k].left(), y, columns[last].right() - columns[k].left(), height);
}
}  // namespace

int paint_guess_rows(QPainter* p, const QFont& font, const GuessRows& rows, int top, int right) {
    const QFontMetrics fm(font);
    const int rh = guess_row_height(font);
    int y = top;
    QFont bold = font;
    bold.setBold(true);
    p->setFont(font);
    auto label = [&](int at, int height, const QString& text,
                     const QFont& f) {  // in the gutter on the left
        if (rows.columns.empty()) return;
        const int room = int(rows.columns.front().left()) - 6;
        p->setFont(f);
        p->setPen(kMuted);
        if (QFontMetrics(f).horizontalAdvance(text) > room) return;
        const QRect r(0, at, room, height);
        p->drawText(r, Qt::AlignRight | Qt::AlignVCenter, text);
        if (rows.text_rects)
            rows.text_rects->push_back(
                QFontMetrics(f).boundingRect(r, Qt::AlignRight | Qt::AlignVCenter, text));
    };
    auto inside = [&](const QRectF& c) { return c.right() > 0 && c.left() < right; };
    auto generated = [&](std::size_t k) { return k < rows.generated.size() && rows.generated[k]; };
    // Columns narrower than a label: every stride-th is written, over the columns up to the
    // next one (the rest show on hover), so labels never run into each other.
    const auto draw_label = [&](const QRectF& span, const QString& text, const QFontMetrics& m) {
        const QString shown = m.elidedText(text, Qt::ElideRight, int(span.width()) - 2);
        if (shown.isEmpty() || m.horizontalAdvance(shown) > span.width()) return;
        p->drawText(span, Qt::AlignCenter, shown);
        if (rows.text_rects)
            rows.text_rects->push_back(
                QRectF(m.boundingRect(span.toAlignedRect(), Qt::AlignCenter, shown)));
    };
    if (!rows.tokens.empty()) {  // the tokens, above their guesses
        label(y, rh, PredictionStrip::tr("Token"), font);
        const int stride = guess_label_stride(
            fm, rows.columns, std::vector<QString>(rows.tokens.begin(), rows.tokens.end()));
        for (std::size_t k = 0; k < rows.columns.size() && k < rows.tokens.size(); ++k) {
            if (k % std::size_t(stride) != 0) continue;
            const QRectF span = label_span(rows.columns, k, stride, y, rh);
            if (!inside(span)) continue;
            p->setPen(generated(k) ? generated_token_color() : kMuted);
            draw_label(span, rows.tokens[k], fm);
        }
        y += rh;
    }
    if (rows.guesses.empty()) return y;
    label(y, rh, PredictionStrip::tr("Guess"), font);
    const int loss_h = rows.loss_height;
    std::vector<QString> guess_texts;
    for (const TokenGuess& g : rows.guesses)
        guess_texts.push_back(g.guess);
    const int stride = guess_label_stride(QFontMetrics(bold), rows.columns, guess_texts);
    for (std::size_t k = 0; k < rows.columns.size() && k < rows.guesses.size(); ++k) {
        const TokenGuess& g = rows.guesses[k];
        const QRectF c(rows.columns[k].left(), y, rows.columns[k].width(), rh);
        if (!inside(c)) continue;
        const QRectF cell = c.adjusted(0.5, 1, -0.5, -1);
        p->fillRect(cell, g.correct ? kRightFill : kWrongFill);
        if (int(k) == rows.hover) {
            p->setBrush(Qt::NoBrush);
            p->setPen(QPen(QColor(213, 94, 0), 2));
            p->drawRect(cell.adjusted(1, 1, -1, -1));
        }
        if (g.has_next)
            p->fillRect(QRectF(c.left() + 0.5, y + rh, c.width() - 1, loss_h), loss_colour(g.loss));
        if (generated(k))  // a token the model wrote: its guess too
            p->fillRect(QRectF(c.left() + 0.5, y - 1, c.width() - 1, 2), generated_token_color());
    }
    // The words over the coloured cells, once every cell is filled.
    for (std::size_t k = 0; k < rows.columns.size() && k < rows.guesses.size();
         k += std::size_t(stride)) {
        const TokenGuess& g = rows.guesses[k];
        const QRectF span = label_span(rows.columns, k, stride, y, rh).adjusted(0.5, 1, -0.5, -1);
        if (!inside(span)) continue;
        p->setFont(g.correct ? bold : font);
        p->setPen(g.correct ? kRight : (g.has_next ? QColor(60, 60, 60) : kMuted));
        draw_label(span, g.guess, QFontMetrics(p->font()));
    }
    p->setFont(font);
    // The loss bar is thin: its name in type that fits beside it.
    QFont small = font;
    small.setPixelSize(std::clamp(loss_h + 2, 7, std::max(7, QFontInfo(font).pixelSize())));
    label(y + rh - 2, loss_h + 4, PredictionStrip::tr("Loss"), small);
    return y + rh + loss_h + 4;
}

PredictionStrip::PredictionStrip(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("predictionStrip"));
    setMouseTracking(true);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, Qt::white);
    setPalette(pal);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    hide();
}

void PredictionStrip::setSnapshot(const SnapshotPtr& snapshot) {
    snapshot_ = snapshot;
    const ModelMaps* m = snapshot ? snapshot->model.get() : nullptr;
    guesses_ = m && m->predictions ? token_guesses(*m, *m->predictions) : std::vector<TokenGuess>();
    shown_tokens(m, &tokens_, &generated_);
    hover_ = -1;
    setVisible(!guesses_.empty());
    updateGeometry();
    update();
}

void PredictionStrip::setColumns(std::vector<QRectF> columns, bool aligned) {
    if (aligned != aligned_) {
        aligned_ = aligned;
        updateGeometry();
    }
    columns_ = std::move(columns);
    update();
}

int PredictionStrip::correctGuesses(int begin, int end) const {
    return correct_guesses(guesses_, begin, end);
}

QString PredictionStrip::summary() const {
    const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
    return m ? guesses_summary(*m, guesses_) : QString();
}

namespace {
/// `text` wrapped to `width` in `font`, at most `max_lines` lines: the last one shown ends in
/// "…" when more would follow (the strip's caption must not take the figure's room: presenting,
/// its type is large).
QStringList wrapped_lines(const QString& text, const QFont& font, int width, int max_lines) {
    QTextLayout layout(text, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    QStringList lines;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        if (lines.size() + 1 == max_lines) {  // the last one: the rest, elided
            lines << QFontMetrics(font).elidedText(text.mid(line.textStart()).simplified(),
                                                   Qt::ElideRight, width);
            break;
        }
        lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return lines;
}
constexpr int kCaptionLines = 2;
}  // namespace

QSize PredictionStrip::sizeHint() const {
    // The rows (paint_guess_rows from y = 2), then two lines of caption: the rest of a longer
    // one is elided, and shown on hover.
    const int rows = aligned_ ? 1 : 2;
    return QSize(400, 2 + rows * guess_row_height(font()) + 6 + 4 +
                          kCaptionLines * text_line_height(font()) + 6);
}

int PredictionStrip::captionLeft() const {
    return columns_.empty() ? 4 : std::max(4, int(columns_.front().left()));
}

int PredictionStrip::tokenAt(int x) const {
    for (std::size_t k = 0; k < columns_.size() && k < guesses_.size(); ++k)
        if (x >= columns_[k].left() && x < columns_[k].right()) return int(k);
    return -1;
}

void PredictionStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    if (guesses_.empty()) return;
    text_rects_.clear();
    GuessRows rows{columns_, guesses_, {}, generated_, hover_, 6, &text_rects_};
    if (!aligned_) rows.tokens = tokens_;
    const int y = paint_guess_rows(&p, font(), rows, 2, rect().right());
    p.setFont(font());
    p.setPen(kMuted);
    const int left = captionLeft();
    const QFontMetrics fm(font());
    const int line_h = text_line_height(font());
    const QStringList lines = wrapped_lines(summary(), font(), width() - left - 4, kCaptionLines);
    for (int k = 0; k < int(lines.size()); ++k) {
        const QRect line(left, y + k * line_h, width() - left - 4, line_h);
        p.drawText(line, Qt::AlignLeft | Qt::AlignTop, lines[k]);
        text_rects_.push_back(
            QRectF(fm.boundingRect(line, Qt::AlignLeft | Qt::AlignTop, lines[k])));
    }
    caption_shortened_ = lines.join(QLatin1Char(' ')) != summary().simplified();
}

void PredictionStrip::mouseMoveEvent(QMouseEvent* event) {
    const int t = tokenAt(int(event->position().x()));
    if (t == hover_) return;
    hover_ = t;
    update();
    if (t >= 0) {
        const TokenGuess& g = guesses_[std::size_t(t)];
        setToolTip(g.has_next ? tr("After “%1”: the model guesses “%2” (%3%)%4 · loss %5 nats")
                                    .arg(tokens_[std::size_t(t)], g.guess)
                                    .arg(100.0 * g.probability, 0, 'f', 1)
                                    .arg(g.correct ? tr(", right") : QString())
                                    .arg(nats(g.loss))
                              : tr("After the text: the model guesses “%1” (%2%)")
                                    .arg(g.guess)
                                    .arg(100.0 * g.probability, 0, 'f', 1));
    } else {
        setToolTip(caption_shortened_ ? summary() : QString());  // the caption's elided end
    }
    emit pieceHovered(t < 0 ? -1 : guesses_[std::size_t(t)].piece);
}

void PredictionStrip::mousePressEvent(QMouseEvent* event) {
    const int t = tokenAt(int(event->position().x()));
    if (t >= 0 && event->button() == Qt::LeftButton)
        emit pieceClicked(guesses_[std::size_t(t)].piece);
}

void PredictionStrip::leaveEvent(QEvent* event) {
    hover_ = -1;
    update();
    emit pieceHovered(-1);
    QWidget::leaveEvent(event);
}

void PredictionStrip::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) {
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

// --- the box --------------------------------------------------------------------------------

PredictionsBox::PredictionsBox(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("predictionsBox"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void PredictionsBox::setSnapshot(const SnapshotPtr& snapshot) {
    snapshot_ = snapshot;
    updateGeometry();
    update();
}

void PredictionsBox::setFocusPiece(int piece) {
    if (piece == focus_) return;
    focus_ = piece;
    update();
}

void PredictionsBox::setHoverPiece(int piece) {
    if (piece == hover_) return;
    hover_ = piece;
    update();
}

int predictions_piece(const ModelMaps& m, int want) {
    if (!m.predictions || m.predictions->positions.empty()) return -1;
    const int last = m.predictions->positions.back();
    return want >= 0 && row_of(*m.predictions, want) >= 0 ? want : last;
}

int PredictionsBox::shownPiece() const {
    const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
    return m ? predictions_piece(*m, hover_ >= 0 ? hover_ : focus_) : -1;
}

QStringList prediction_loss_lines(const ModelMaps& m) {
    QStringList lines;
    if (!m.predictions || !m.predictions->causal) return lines;
    const ModelPredictions& after = *m.predictions;
    const ModelPredictions* before = m.intact_predictions.get();
    auto line = [&](const QString& span, int begin, int end) {
        const double a = mean_loss(after, begin, end);
        if (std::isnan(a)) return;
        lines << (before ? PredictionsBox::tr("Loss on %1: %2 → %3 nats/token")
                               .arg(span, nats(mean_loss(*before, begin, end)), nats(a))
                         : PredictionsBox::tr("Loss on %1: %2 nats/token").arg(span, nats(a)));
    };
    const int pieces = int(m.encoding.ids.size());
    line(PredictionsBox::tr("the text"), 1, pieces);
    const auto [begin, end] = second_copy(m);
    if (begin >= 0) line(PredictionsBox::tr("the second copy"), begin + 1, end);
    return lines;
}

QStringList PredictionsBox::lossLines() const {
    const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
    return m ? prediction_loss_lines(*m) : QStringList();
}

QStringList PredictionsBox::rows(bool intact) const {
    const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
    QStringList out;
    const ModelPredictions* p = !m       ? nullptr
                                : intact ? m->intact_predictions.get()
                                         : m->predictions.get();
    if (!p) return out;
    auto add = [&](int r) {
        for (std::size_t k = 0; k < p->top[std::size_t(r)].size(); ++k)
            out << QStringLiteral("%1\t%2")
                       .arg(readable_piece(p->top_text[std::size_t(r)][k]))
                       .arg(std::exp(p->top[std::size_t(r)][k].logprob), 0, 'f', 4);
    };
    if (p->causal) {
        if (const int r = row_of(*p, shownPiece()); r >= 0) add(r);
    } else {
        for (std::size_t r = 0; r < p->positions.size(); ++r)
            add(int(r));
    }
    return out;
}

QSize PredictionsBox::sizeHint() const {
    return QSize(260, heightForWidth(width() > 0 ? width() : 260));
}

void PredictionsBox::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (event->oldSize().width() != width() && heightForWidth(width()) != height())
        updateGeometry();  // its lines wrap anew at this width
}

int PredictionsBox::heightForWidth(int width) const {
    const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
    return m ? paint_predictions_box(nullptr, font(), *m, shownPiece(), width) : 0;
}

void PredictionsBox::paintEvent(QPaintEvent*) {
    const ModelMaps* m = snapshot_ ? snapshot_->model.get() : nullptr;
    if (!m) return;
    QPainter p(this);
    paint_predictions_box(&p, font(), *m, shownPiece(), width());
}

namespace {
/// Draws (or, without a painter, only measures) the predictions box line by line from the
/// top; y is where the next line goes.
class PredictionsBoxPainter {
  public:
    PredictionsBoxPainter(QPainter* painter, const QFont& font, const ModelMaps& maps, int width)
        : p_(painter),
          font_(font),
          bold_(font),
          fm_(font),
          line_(fm_.height() + 4),
          maps_(&maps),
          width_(width) {
        bold_.setBold(true);
    }

    /// The whole box at `piece`; returns its height.
    int paint(int piece) {
        if (!maps_->predictions) {
            text(maps_->no_predictions.isEmpty()
                     ? PredictionsBox::tr("No predictions for this model.")
                     : maps_->no_predictions,
                 kMuted);
            return y_;
        }
        const ModelPredictions* before = maps_->intact_predictions.get();
        for (const QString& l : prediction_loss_lines(*maps_))
            text(l, before ? QColor(160, 20, 30) : QColor(40, 40, 40), before != nullptr);
        if (maps_->predictions->causal)
            nextTokenGuesses(piece);
        else
            maskFillers();
        return y_;
    }

  private:
    /// Text across the width, or in a column [x, x + w) of it, wrapped at words.
    void text(const QString& s, const QColor& colour, bool strong = false, int x = 0, int w = -1) {
        if (w < 0) w = width_;
        const QFont f = strong ? bold_ : font_;
        const QRect r = QFontMetrics(f).boundingRect(QRect(0, 0, w, 10000),
                                                     Qt::TextWordWrap | Qt::AlignLeft, s);
        if (p_) {
            p_->setFont(f);
            p_->setPen(colour);
            p_->drawText(QRect(x, y_, w, r.height()), Qt::TextWordWrap | Qt::AlignLeft, s);
        }
        y_ += r.height() + 2;
    }

    /// One list of guesses: the token, a bar as long as its probability, the percentage; the
    /// actual next piece in green with a tick.
    void bars(const ModelPredictions& pr, int r, std::int64_t actual, const QColor& bar, int x = 0,
              int w = -1) {
        if (w < 0) w = width_;
        const int label_w = std::min(w / 3, fm_.horizontalAdvance(QStringLiteral("MMMMMMMM")));
        const int pct_w = fm_.horizontalAdvance(QStringLiteral("100.0%")) + 4;
        const int bar_w = std::max(20, w - label_w - pct_w - 8);
        for (std::size_t k = 0; k < pr.top[std::size_t(r)].size(); ++k) {
            const models::TokenScore& s = pr.top[std::size_t(r)][k];
            const double prob = std::exp(s.logprob);
            const bool right = s.id == actual;
            if (p_) {
                p_->setFont(right ? bold_ : font_);
                p_->setPen(right ? kRight : QColor(40, 40, 40));
                const QString name = readable_piece(pr.top_text[std::size_t(r)][k]) +
                                     (right ? QStringLiteral(" ✓") : QString());
                p_->drawText(QRect(x, y_, label_w, line_), Qt::AlignRight | Qt::AlignVCenter,
                             QFontMetrics(p_->font()).elidedText(name, Qt::ElideRight, label_w));
                const QRectF track(x + label_w + 6, y_ + 3, bar_w, line_ - 6);
                p_->fillRect(track, QColor(240, 240, 240));
                p_->fillRect(
                    QRectF(track.left(), track.top(), std::max(1.0, prob * bar_w), track.height()),
                    right ? kRight : bar);
                p_->setFont(font_);
                p_->setPen(kMuted);
                p_->drawText(QRect(x + label_w + 8 + bar_w, y_, pct_w, line_),
                             Qt::AlignRight | Qt::AlignVCenter,
                             QStringLiteral("%1%").arg(100.0 * prob, 0, 'f', prob < 0.1 ? 1 : 0));
            }
            y_ += line_;
        }
        y_ += 4;
    }

    /// The knocked-out model's list (row r) and the intact model's (row rb, none when < 0):
    /// side by side when the box is wide enough for two (an export), else one under the other
    /// (the window's panel).
    void beforeAfter(int r, int rb, std::int64_t actual) {
        const int gap = fm_.horizontalAdvance(QStringLiteral("MM"));
        const int column = (width_ - gap) / 2;
        const bool side_by_side = column >= 22 * fm_.horizontalAdvance(QLatin1Char('M'));
        const int top = y_;
        text(PredictionsBox::tr("With %1 knocked out:").arg(knocked_list(*maps_)), kAfterBar, false,
             0, side_by_side ? column : width_);
        bars(*maps_->predictions, r, actual, kAfterBar, 0, side_by_side ? column : width_);
        if (rb < 0) return;
        const int bottom = y_;
        if (side_by_side) y_ = top;
        const int x = side_by_side ? column + gap : 0;
        text(PredictionsBox::tr("Intact model:"), kMuted, false, x, side_by_side ? column : width_);
        bars(*maps_->intact_predictions, rb, actual, kBeforeBar, x, side_by_side ? column : width_);
        y_ = std::max(y_, bottom);
    }

    /// A causal model: the top guesses after `piece`.
    void nextTokenGuesses(int piece) {
        const ModelPredictions& after = *maps_->predictions;
        const ModelPredictions* before = maps_->intact_predictions.get();
        const auto& e = maps_->encoding;
        const int r = row_of(after, piece);
        if (r < 0) return;
        const bool last = std::size_t(piece) + 1 >= e.ids.size();
        const std::int64_t actual = last ? -1 : e.ids[std::size_t(piece) + 1];
        const QString here = piece < int(e.text.size())
                                 ? visible_token(QString::fromStdString(e.text[std::size_t(piece)]))
                                 : QString();
        text(last
                 ? PredictionsBox::tr("After the last token, “%1”, the model guesses:").arg(here)
                 : PredictionsBox::tr("After “%1” (position %2) the model guesses (actually “%3”):")
                       .arg(here)
                       .arg(piece + 1)
                       .arg(visible_token(QString::fromStdString(e.text[std::size_t(piece) + 1]))),
             QColor(40, 40, 40), true);
        if (before) {
            beforeAfter(r, row_of(*before, piece), actual);
        } else {
            bars(after, r, actual, kAfterBar);
        }
    }

    /// A masked language model: the fillers of each mask.
    void maskFillers() {
        const ModelPredictions& after = *maps_->predictions;
        const ModelPredictions* before = maps_->intact_predictions.get();
        if (after.positions.empty()) {
            text(PredictionsBox::tr(
                     "A masked language model: put [MASK] or <mask> in the text to see what it "
                     "would fill in."),
                 kMuted);
            return;
        }
        for (std::size_t r = 0; r < after.positions.size(); ++r) {
            const int mask = after.positions[r];
            text(PredictionsBox::tr("Fillers of %1 at piece %2:")
                     .arg(visible_token(
                         QString::fromStdString(maps_->encoding.tokens[std::size_t(mask)])))
                     .arg(mask + 1),
                 QColor(40, 40, 40), true);
            if (before)
                beforeAfter(int(r), r < before->positions.size() ? int(r) : -1, -1);
            else
                bars(after, int(r), -1, kAfterBar);
        }
    }

    QPainter* p_;
    const QFont& font_;
    QFont bold_;
    const QFontMetrics fm_;
    const int line_;
    const ModelMaps* maps_;
    const int width_;
    int y_ = 0;
};
}  // namespace

int paint_predictions_box(QPainter* p, const QFont& font, const ModelMaps& maps, int piece,
                          int width) {
    return PredictionsBoxPainter(p, font, maps, width).paint(piece);
}

void PredictionsBox::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) {
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

}  // namespace attnviz::ui
