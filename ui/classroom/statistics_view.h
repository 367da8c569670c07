// Head statistics as a sortable table: one row per head (entropy, maximum weight, mean
// attention distance, share of weight on the first token, [CLS], [SEP], itself and the
// previous token).  Clicking a row focuses that head.  The table can be copied for a
// spreadsheet or exported as CSV.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>

#include <vector>

#include "ui/classroom/head_statistics.h"

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace attnviz::ui {

class HeadStatisticsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Head, Entropy, MaxWeight, Distance, First, Cls, Sep, Self, Previous, Count };
    /// The raw number of a cell (NaN where it does not exist), for sorting and tests.
    static constexpr int ValueRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    void setStatistics(std::vector<HeadStatistics> stats, int focused_head);
    const std::vector<HeadStatistics>& statistics() const { return stats_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    std::vector<HeadStatistics> stats_;
    int focused_ = -1;
};

class StatisticsView : public QWidget {
    Q_OBJECT
  public:
    explicit StatisticsView(QWidget* parent = nullptr);

    /// `measured`: head_statistics of that item, made off the GUI thread (null: measured here).
    void setSnapshot(SnapshotPtr snapshot, int item, int focused_head,
                     const std::vector<HeadStatistics>* measured = nullptr);
    HeadStatisticsModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    /// The head shown in a row of the (sorted) table.
    int headAtRow(int row) const;

    /// Writes the table as CSV (head_statistics_table), atomically: on failure `path` is
    /// untouched and `error` says why.
    bool exportCsv(const QString& path, QString* error) const;
    /// Puts the table on the clipboard, tab-separated, ready to paste into a spreadsheet.
    void copyTable() const;

  signals:
    void headActivated(int head);
    /// The Export button's write failed (the window shows it like its other errors).
    void failed(const QString& title, const QString& text);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void retranslate();

    HeadStatisticsModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* intro_ = nullptr;
    QPushButton* copy_ = nullptr;
    QPushButton* export_ = nullptr;
};

}  // namespace attnviz::ui
