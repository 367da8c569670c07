// The head atlas: every layer × head measured (models::HeadAtlas), as a layers × heads grid
// coloured by one chosen measure and as one sortable table, with the labels the thresholds
// give.  A click on a cell or a row opens that head in the heatmap grid.
#pragma once

#include <QWidget>

#include "ui/compute/attention_snapshot.h"

class QComboBox;
class QLabel;
class QPushButton;
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
    QComboBox* measureCombo() const { return measure_; }
    /// The measure the grid colours by: one of models::head_measure_names().
    QString measure() const;
    AtlasGrid* grid() const { return grid_; }
    /// A label's translation ("previous token" → "前一个词元").
    static QString labelText(const std::string& label);
    static QString measureText(const std::string& name);
    static QString measureShort(const std::string& name);  ///< a table column's title

  signals:
    void activated(int layer, int head);
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void retranslate();
    void fill();
    void exportCsv();

    SnapshotPtr snapshot_;
    QComboBox* measure_ = nullptr;
    QLabel* measure_label_ = nullptr;
    QLabel* legend_ = nullptr;
    QPushButton* export_ = nullptr;
    AtlasGrid* grid_ = nullptr;
    QTableWidget* table_ = nullptr;
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

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

  private:
    QPoint headAt(const QPoint& pos) const;
    const models::HeadAtlas* atlas_ = nullptr;
    std::string measure_;
    int left_ = 0, top_ = 0, cell_ = 0;
};

}  // namespace attnviz::ui
