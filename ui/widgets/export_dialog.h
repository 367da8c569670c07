// Export options for a figure: what to show (for heatmaps the grid, the mean or one head; for
// the steps a head and which stages; for the lines which heads), the format, the size and
// scale (1x/2x/3x for slides), the text size and the title.  It only collects choices; the
// window then calls export_figure(), the same function `attnviz export` calls.
#pragma once

#include <QDialog>

#include "ui/document/attention_config.h"
#include "ui/render/figure_export.h"

class QComboBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;
class QLabel;

namespace attnviz::ui {

class ExportDialog : public QDialog {
    Q_OBJECT
  public:
    ExportDialog(const FigureOptions& current, int num_heads, QWidget* parent = nullptr);

    void setSize(const ExportSize& size);
    void setFontPx(int px);
    FigureOptions figureOptions() const;
    ExportSize exportSize() const;
    ExportFormat format() const;

  private:
    // The constructor's steps, in order.
    void createFormatRow(QFormLayout* form);
    void createViewRows(QFormLayout* form, const FigureOptions& current, int num_heads);
    void createSizeRow(QFormLayout* form);
    void createOutputRows(QFormLayout* form, const FigureOptions& current);
    void createButtons(QFormLayout* form);
    void connectSummary();

    void applyPreset(int index);
    void updateSummary();

    // Item data of the Show combo besides head numbers (>= 0).
    static constexpr int kGrid = -2, kMean = -1, kAllStages = -3, kStagesSoFar = -4,
                         kFocusedStage = -5, kLinesAsShown = -6;

    FigureOptions base_;
    QComboBox* format_ = nullptr;
    QComboBox* view_ = nullptr;
    QComboBox* head_ = nullptr;  ///< steps: whose computation
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QComboBox* presets_ = nullptr;  ///< slide and paper sizes
    QComboBox* scale_ = nullptr;
    QSpinBox* font_ = nullptr;
    QLineEdit* title_ = nullptr;
    QLabel* summary_ = nullptr;
};

}  // namespace attnviz::ui
