#include "ui/model/corpus_examples.h"

#include <QApplication>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QResizeEvent>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

#include "ui/render/fonts.h"

namespace attnviz::ui {

namespace {
constexpr int kExamplesPad = 3, kExamplesGap = 2;

/// A token as a chip shows it; the gap between two spans as an ellipsis.
QString chip_text(const QString& token) {
    return token.isEmpty() ? QStringLiteral("…") : visible_token(token);
}

enum Column { WeightColumn, TextColumn, CellColumn, ContextColumn, ColumnCount };
}  // namespace

void ContextDelegate::paint(QPainter* p, const QStyleOptionViewItem& option,
                            const QModelIndex& index) const {
    QStyleOptionViewItem o = option;
    initStyleOption(&o, index);
    o.text.clear();
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &o, p, o.widget);
    const QStringList tokens = index.data(kTokens).toStringList();
    const int key = index.data(kKey).toInt(), query = index.data(kQuery).toInt();
    const QFont font = figure_font(QFontInfo(option.font).pixelSize(), tokens);
    const QFontMetrics fm(font);
    p->save();
    p->setFont(font);
    p->setClipRect(option.rect);
    double x = option.rect.left() + kExamplesPad;
    const QRect row = option.rect.adjusted(0, 2, 0, -2);
    for (int k = 0; k < tokens.size(); ++k) {
        const QString text = chip_text(tokens[k]);
        const int w = fm.horizontalAdvance(text) + 2 * kExamplesPad;
        const QRectF chip(x, row.top(), w, row.height());
        if (k == key || k == query) {
            p->setPen(Qt::NoPen);
            p->setBrush(QColor::fromRgb(k == key ? kKeyTint : kQueryTint));
            p->drawRoundedRect(chip, 3, 3);
            p->setPen(QPen(QColor::fromRgb(k == key ? kKeyColour : kQueryColour), 1.5));
            p->setBrush(Qt::NoBrush);
            p->drawRoundedRect(chip.adjusted(0.75, 0.75, -0.75, -0.75), 3, 3);
        }
        p->setPen(tokens[k].isEmpty() ? option.palette.color(QPalette::PlaceholderText)
                                      : option.palette.color(QPalette::Text));
        p->drawText(chip, Qt::AlignCenter, text);
        x += w + kExamplesGap;
    }
    p->restore();
}

QSize ContextDelegate::sizeHint(const QStyleOptionViewItem& option,
                                const QModelIndex& index) const {
    const QStringList tokens = index.data(kTokens).toStringList();
    const QFont font = figure_font(QFontInfo(option.font).pixelSize(), tokens);
    const QFontMetrics fm(font);
    int width = 2 * kExamplesPad;
    for (const QString& t : tokens)
        width += fm.horizontalAdvance(chip_text(t)) + 2 * kExamplesPad + kExamplesGap;
    // As tall as the tallest family the tokens fall back to (Chinese is taller than Latin).
    const int height = int(std::ceil(line_height(font, tokens.join(QString())))) + 8;
    return QSize(width, height);
}

CorpusExamples::CorpusExamples(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("corpusExamples"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 4, 0, 0);
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("corpusExamplesTitle"));
    title_->setWordWrap(true);
    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("corpusExamplesTable"));
    table_->setColumnCount(ColumnCount);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setItemDelegateForColumn(ContextColumn, new ContextDelegate(table_));
    table_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    v->addWidget(title_);
    v->addWidget(table_, 1);
    connect(table_, &QTableWidget::cellActivated, this, [this](int row, int) { activate(row); });
    connect(table_, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { activate(row); });
    fill();
}

void CorpusExamples::setHead(CorpusPtr corpus, int layer, int head) {
    corpus_ = std::move(corpus);
    layer_ = corpus_ ? layer : -1;
    head_ = corpus_ ? head : -1;
    fill();
}

void CorpusExamples::activate(int row) {
    if (!corpus_ || row < 0 || row >= table_->rowCount()) return;
    const models::CorpusExample& e = corpus_->result.at(layer_, head_).examples[std::size_t(row)];
    emit exampleActivated(e.text, layer_, head_, e.query, e.key);
}

void CorpusExamples::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) fill();
    if (event->type() == QEvent::FontChange) {
        table_->resizeRowsToContents();
        fitTitle();
    }
    QWidget::changeEvent(event);
}

void CorpusExamples::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitTitle();
}

void CorpusExamples::fitTitle() {
    const int margins =
        layout() ? layout()->contentsMargins().left() + layout()->contentsMargins().right() : 0;
    title_->setMinimumHeight(title_->heightForWidth(std::max(1, width() - margins)));
}

void CorpusExamples::fill() {
    table_->setHorizontalHeaderLabels(
        {tr("Weight"), tr("Text"), tr("Query → key"), tr("Context (query blue, key orange)")});
    const bool shown = corpus_ && layer_ >= 0 && layer_ < corpus_->result.layers && head_ >= 0 &&
                       head_ < corpus_->result.heads;
    table_->setRowCount(0);
    if (!shown) {
        title_->setText(tr("Click a head for its top examples over the corpus."));
        fitTitle();
        return;
    }
    const std::vector<models::CorpusExample>& examples = corpus_->result.at(layer_, head_).examples;
    title_->setText(
        examples.empty()
            ? tr("Layer %1 · head %2 has no example: every weight it gave went to the first "
                 "token or to the query itself.")
                  .arg(layer_ + 1)
                  .arg(head_ + 1)
            : tr("The %n cell(s) where layer %1 · head %2 puts its largest weight on a key that "
                 "is neither the first token nor the query itself. Double-click one to open "
                 "its text with this head in focus.",
                 nullptr, int(examples.size()))
                  .arg(layer_ + 1)
                  .arg(head_ + 1));
    table_->setRowCount(int(examples.size()));
    for (int row = 0; row < int(examples.size()); ++row) {
        const models::CorpusExample& e = examples[std::size_t(row)];
        QStringList tokens;
        int key = -1, query = -1;
        for (const models::TokenSpan& span : e.context) {
            if (!tokens.isEmpty()) tokens << QString();  // the gap between the two spans
            for (std::size_t k = 0; k < span.tokens.size(); ++k) {
                const std::int64_t at = span.first + std::int64_t(k);
                if (at == e.key) key = int(tokens.size());
                if (at == e.query) query = int(tokens.size());
                tokens << QString::fromStdString(span.tokens[k]);
            }
        }
        const QString key_token = key >= 0 ? visible_token(tokens[key]) : QString();
        const QString query_token = query >= 0 ? visible_token(tokens[query]) : QString();
        auto* weight = new QTableWidgetItem(QString::number(double(e.weight), 'f', 3));
        weight->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* text =
            new QTableWidgetItem(e.line > 0 ? tr("%1 (line %2)").arg(e.text + 1).arg(e.line)
                                            : QString::number(e.text + 1));
        auto* cell =
            new QTableWidgetItem(QStringLiteral("%1 → %2").arg(e.query + 1).arg(e.key + 1));
        auto* context = new QTableWidgetItem;
        context->setData(ContextDelegate::kTokens, tokens);
        context->setData(ContextDelegate::kKey, key);
        context->setData(ContextDelegate::kQuery, query);
        const QString tip =
            tr("Text %1: the query at %2 “%3” gives the key at %4 “%5” a weight of %6. "
               "Double-click to open the text.")
                .arg(QString::number(e.text + 1), QString::number(e.query + 1), query_token,
                     QString::number(e.key + 1), key_token,
                     QString::number(double(e.weight), 'f', 3));  // one pass: a token may hold %1
        for (QTableWidgetItem* item : {weight, text, cell, context})
            item->setToolTip(tip);
        table_->setItem(row, WeightColumn, weight);
        table_->setItem(row, TextColumn, text);
        table_->setItem(row, CellColumn, cell);
        table_->setItem(row, ContextColumn, context);
    }
    table_->resizeColumnsToContents();
    table_->resizeRowsToContents();
    fitTitle();
}

}  // namespace attnviz::ui
