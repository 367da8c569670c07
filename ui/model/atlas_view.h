// The head atlas: every layer × head measured (models::HeadAtlas), as a layers × heads grid
// coloured by one chosen measure and as one sortable table, with the labels the thresholds
// give.  A click on a cell or a row opens that head in the heatmap grid; their context menu
// opens its full map.
//
// Its corpus mode ("This text | Corpus (N texts)", once File ▸ Open Corpus… measured the model
// shown) shows the same over the corpus (models::CorpusResult): each measure's mean with its
// 95% interval (whiskers in the grid's cells, ± in the table), the labels with the share of
// texts that agree; a click on a head lists its top examples, and an example activated opens
// its text in the main view.
#pragma once

#include <QWidget>

#include <functional>
#include <string>

#include "ui/compute/attention_snapshot.h"
#include "ui/document/corpus_data.h"

class QComboBox;
class QLabel;
class QPushButton;
class QRadioButton;
class QSplitter;
class QTableView;
class QTableWidget;

namespace attnviz::ui {

class AtlasGrid;
class CorpusExamples;
class WrappingRowLayout;

class AtlasView : public QWidget {
    Q_OBJECT
  public:
    explicit AtlasView(QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr snapshot);
    const models::HeadAtlas* atlas() const;
    QTableWidget* table() const { return table_; }
    /// The table's Layer and Head columns, frozen over it: they stay when it scrolls sideways.
    QTableView* frozenColumns() const { return frozen_; }
    QComboBox* measureCombo() const { return measure_; }
    /// The measure the grid colours by: one of models::head_measure_names().
    QString measure() const;
    AtlasGrid* grid() const { return grid_; }
    /// A label's translation ("previous token" → "前一个词元").
    static QString labelText(const std::string& label);
    static QString measureText(const std::string& name);
    static QString measureShort(const std::string& name);  ///< a table column's title
    /// What the grid says while no model is the source: where to find one.
    static QString placeholderText();

    /// The document's corpus (null: none).  Its mode is offered while it measured the model
    /// shown; a new one is shown at once.
    void setCorpus(CorpusPtr corpus);
    /// The corpus shown, when the corpus mode is on; else null.
    const CorpusData* corpus() const;
    bool corpusMode() const;
    /// Switches to the corpus (when it is offered) or to this text.
    void setCorpusMode(bool on);
    QRadioButton* textModeButton() const { return text_mode_; }
    QRadioButton* corpusModeButton() const { return corpus_mode_; }
    /// The corpus mode's list of a head's top examples.
    CorpusExamples* examples() const { return examples_; }
    QLabel* legendLabel() const { return legend_; }
    /// Presenting (`bar_px` > 0, the bars' type): the table, the examples and the footnote at
    /// that size, the table narrowed to Layer, Head, the measure the grid is coloured by and
    /// the labels, the grid's cells and numbers as large as its room allows.  0: as in a window,
    /// the splitter where it was.  (The row of controls is a bar: the view tabs size it.)
    void setPresentation(int bar_px);

  signals:
    /// An example of the corpus mode's list was activated: its text (from 0), and the head's
    /// query and key there (positions from 0).
    void exampleActivated(qint64 text, int layer, int head, qint64 query, qint64 key);
    /// A head clicked in the corpus mode: its examples are listed, and it is the head in focus.
    void headFocused(int layer, int head);
    void activated(int layer, int head);
    /// Open Full Map… from a cell's or a row's context menu.
    void fullMapRequested(int layer, int head);
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);

  protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    void createModeRow(WrappingRowLayout* row);
    void connectGrid();
    void retranslate();
    void fill();
    void fillLegend();
    /// One table row per head of the corpus: means ± half their interval, labels with shares.
    void fillCorpusTable();
    /// The table emptied for `rows` heads: Layer, Head, each measure (its header's tool tip
    /// `tip` of its name) and `labels`.
    void startTable(const QString& labels, int rows,
                    const std::function<QString(const std::string&)>& tip);
    /// Sorted and sized once filled; presenting, the other measures' columns hidden.
    void finishTable();
    void hoverHead(int layer, int head);
    /// A head clicked (grid or table): opened in the heatmaps, or in the corpus mode, its
    /// examples listed.
    void chooseHead(int layer, int head);
    /// Whether the corpus measured the model shown (its mode can be on).
    bool corpusOffered() const;
    void syncModes();
    void exportCsv();
    void activateRow(int row);
    /// The context menu of head (layer, head): Open Full Map….
    void headMenu(int layer, int head, const QPoint& global);
    /// Gives the table the width its columns need, when there is room, until the user moves
    /// the splitter.
    void fitTable();

    SnapshotPtr snapshot_;
    QComboBox* measure_ = nullptr;
    QLabel* measure_label_ = nullptr;
    QLabel* legend_ = nullptr;
    QPushButton* export_ = nullptr;
    AtlasGrid* grid_ = nullptr;
    QTableWidget* table_ = nullptr;
    QTableView* frozen_ = nullptr;
    QSplitter* split_ = nullptr;
    bool user_sized_ = false;  ///< the splitter was moved by hand
    int bar_px_ = 0;           ///< presenting: the bars' type size; else 0
    QList<int> window_sizes_;  ///< the splitter's sizes before presenting
    bool window_user_sized_ = false;
    CorpusPtr corpus_;
    QRadioButton* text_mode_ = nullptr;
    QRadioButton* corpus_mode_ = nullptr;
    CorpusExamples* examples_ = nullptr;
    QSplitter* vertical_ = nullptr;  ///< the grid and table over the corpus's examples
};

/// Freezes the first `count` columns of `table` (Qt's "frozen column" example): a second view
/// of the same model and selection laid over them, which scrolls up and down with the table
/// but never sideways.  Column widths, row heights and sorting follow the table.
class FrozenColumns : public QObject {
    Q_OBJECT
  public:
    FrozenColumns(QTableView* table, int count);
    QTableView* view() const { return frozen_; }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void syncColumns();
    void place();

    QTableView* table_;
    QTableView* frozen_;
    int count_;
    bool closing_ = false;  ///< the table is being destroyed
};

/// The layers × heads grid of one measure.
class AtlasGrid : public QWidget {
    Q_OBJECT
  public:
    explicit AtlasGrid(QWidget* parent = nullptr);
    void setAtlas(const models::HeadAtlas* atlas, const std::string& measure);
    /// The corpus's means instead (null: the atlas's), each with its interval as whiskers.
    void setCorpus(const models::CorpusResult* corpus, const std::string& measure);
    /// The head framed (its examples listed); (-1, -1): none.
    void setSelected(int layer, int head);
    QRect cellRect(int layer, int head) const;
    /// Presenting: cells up to a projector's room, their numbers a quarter of a cell high.
    void setPresentation(bool on);

  signals:
    void activated(int layer, int head);
    void hovered(int layer, int head);
    void menuRequested(int layer, int head, const QPoint& global);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

  private:
    QPoint headAt(const QPoint& pos) const;
    std::int64_t layers() const;
    std::int64_t heads() const;
    /// The value a cell is coloured by, and the interval of a corpus's mean (NaN without).
    double value(std::int64_t layer, std::int64_t head) const;
    std::pair<double, double> interval(std::int64_t layer, std::int64_t head) const;
    /// The interval of a cell's mean as whiskers along its bottom, on the colour scale lo..hi.
    void paintWhiskers(QPainter* p, const QRect& cell, std::pair<double, double> interval,
                       double mean, double lo, double hi, const QColor& colour) const;
    const models::HeadAtlas* atlas_ = nullptr;
    const models::CorpusResult* corpus_ = nullptr;
    std::string measure_;
    QPoint selected_{-1, -1};  ///< (head, layer)
    bool presenting_ = false;
    int left_ = 0, top_ = 0, cell_ = 0;
};

}  // namespace attnviz::ui
