// The Logit Lens tab: LensFigure drawn at the tab's size (the same figure the exports draw),
// a tool tip with the lens's top 5 over each cell, and the top-k as CSV.  The lens itself is
// computed on the compute worker (ComputeController::setModelLens) while the tab is shown.
#pragma once

#include <QWidget>

#include "ui/compute/attention_snapshot.h"
#include "ui/model/lens_figure.h"

class QLabel;
class QPushButton;

namespace attnviz::ui {

class LensCanvas;

class LensView : public QWidget {
    Q_OBJECT
  public:
    explicit LensView(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setColormap(Colormap colormap);
    const LensFigure& figure() const { return figure_; }
    const LensGrid* lens() const { return figure_.lens(); }
    /// The canvas the figure is drawn on (its cells are at figure().grid()).
    QWidget* canvas() const;
    /// What hovering (layer, position) says, as the tool tip shows it.
    QString describe(int layer, int position) const { return figure_.describe(layer, position); }
    QPushButton* exportCsvButton() const { return export_; }
    /// Writes the top-k as CSV (LensGrid::to_csv) atomically; false and failed() otherwise.
    bool exportCsvTo(const QString& path);

  signals:
    void hovered(const QString& text);
    void failed(const QString& title, const QString& text);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    friend class LensCanvas;
    void retranslate();
    void relayout();
    void exportCsv();

    SnapshotPtr snapshot_;
    FigureOptions options_;
    LensFigure figure_;
    LensCanvas* canvas_ = nullptr;
    QLabel* note_ = nullptr;
    QPushButton* export_ = nullptr;
};

}  // namespace attnviz::ui
