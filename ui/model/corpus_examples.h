// A head's top examples over a corpus (models::CorpusHead::examples, HeadVis's "top sequences"):
// one row per cell the head weighs most on a key that is neither the first token nor the query
// itself, with its weight, its text and the tokens around its query and key, the query marked
// blue and the key orange (as the Queries & Keys view colours them).  Activating a row (double
// click, Enter) asks for that text in the main view.
#pragma once

#include <QStyledItemDelegate>
#include <QWidget>

#include <cstdint>

#include "ui/document/corpus_data.h"

class QLabel;
class QTableWidget;

namespace attnviz::ui {

/// The colours of queries and keys, in the scatter and in the examples (Okabe-Ito blue and
/// vermillion: told apart with every kind of colour blindness), and their light tints for chips.
inline constexpr QRgb kQueryColour = 0xff0072b2, kKeyColour = 0xffd55e00;
inline constexpr QRgb kQueryTint = 0xffc6e2f4, kKeyTint = 0xfff6d3bd;

/// Draws an example's context as chips: the item's Qt::UserRole holds the tokens (an empty
/// string stands for the gap between the key's span and the query's), UserRole + 1 the key's
/// index among them and UserRole + 2 the query's.
class ContextDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    static constexpr int kTokens = Qt::UserRole, kKey = Qt::UserRole + 1, kQuery = Qt::UserRole + 2;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

class CorpusExamples : public QWidget {
    Q_OBJECT
  public:
    explicit CorpusExamples(QWidget* parent = nullptr);

    /// The examples of head (layer, head) of `corpus` (from 0); null: none.
    void setHead(CorpusPtr corpus, int layer, int head);
    int layer() const { return layer_; }
    int head() const { return head_; }
    QTableWidget* table() const { return table_; }
    QLabel* titleLabel() const { return title_; }
    /// Activates row `row` (as a double click does).
    void activate(int row);

  signals:
    /// Example row activated: text (from 0), query and key (positions from 0) of the head.
    void exampleActivated(qint64 text, int layer, int head, qint64 query, qint64 key);

  protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    void fill();
    /// The title as tall as its lines at this width: a splitter gives its pane no more than
    /// the pane's minimum, and a wrapped label's is one line.
    void fitTitle();

    CorpusPtr corpus_;
    int layer_ = -1, head_ = -1;
    QLabel* title_;
    QTableWidget* table_;
};

}  // namespace attnviz::ui
