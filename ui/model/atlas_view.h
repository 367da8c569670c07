// The head atlas: every layer × head measured (models::HeadAtlas), as a layers × heads grid
// coloured by one chosen measure and as one sortable table, with the labels the thresholds
// give.  A click on a cell or a row opens that head in the heatmap grid; their context menu
// opens its full map.
#pragma once

#include <QWidget>

#include "ui/compute/attention_snapshot.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;
class QTableWidget;

namespace attnviz::ui {

class AtlasGrid;

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

  signals:
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
    void retranslate();
    void fill();
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
    QRect cellRect(int layer, int head) const;

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
    const models::HeadAtlas* atlas_ = nullptr;
    std::string measure_;
    int left_ = 0, top_ = 0, cell_ = 0;
};

}  // namespace attnviz::ui
