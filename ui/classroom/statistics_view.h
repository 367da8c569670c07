// Head statistics as a sortable table: one row per head (entropy, maximum weight, mean
// attention distance, share of weight on the first token, [CLS], [SEP], itself and the
// previous token).  Clicking a row focuses that head.  The table can be copied for a
// spreadsheet or exported as CSV.  The numbers are the engine's (models::HeadMeasures, as
// snapshot_head_measures gives them); the table only formats them, entropy in bits.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>

#include <string>
#include <vector>

#include "engine/models/head_atlas.h"
#include "ui/compute/snapshot_statistics.h"

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace attnviz::ui {

/// The table as delimited text, for a file (',' : CSV) or a spreadsheet paste ('\t'): a
/// header of column names (head, rows, entropy_bits, max_weight, mean_distance, first, cls,
/// sep, self, previous), one line per head (`stats[h]` is head h, numbered from 1), full float
/// precision, and an empty field where a quantity does not exist.  Data, so the names are not
/// translated.
std::string head_statistics_table(const std::vector<models::HeadMeasures>& stats, char separator);

class HeadStatisticsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Head, Entropy, MaxWeight, Distance, First, Cls, Sep, Self, Previous, Count };
    /// The number a cell shows, unrounded (entropy in bits; the head from 0; NaN where it
    /// does not exist), for sorting and tests.
    static constexpr int ValueRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    /// `stats[h]` is head h's.
    void setStatistics(std::vector<models::HeadMeasures> stats, int focused_head);
    const std::vector<models::HeadMeasures>& statistics() const { return stats_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    std::vector<models::HeadMeasures> stats_;
    int focused_ = -1;
};

class StatisticsView : public QWidget {
    Q_OBJECT
  public:
    explicit StatisticsView(QWidget* parent = nullptr);

    /// `measured`: snapshot_head_measures of that item, made off the GUI thread (null:
    /// measured here).
    void setSnapshot(SnapshotPtr snapshot, int item, int focused_head,
                     const std::vector<models::HeadMeasures>* measured = nullptr);
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
    bool norm_based_ = false;  ///< the snapshot shown has norm-based maps
    QPushButton* copy_ = nullptr;
    QPushButton* export_ = nullptr;
};

}  // namespace attnviz::ui
