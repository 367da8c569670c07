// File ▸ Export Figure…, Export Weights…, Copy Figure, and Load Weights…: the window's ways of
// writing results to files (and reading a state_dict in).  Rendering and writing run off the
// GUI thread, which keeps repainting meanwhile; a failure shows one dialog, and a file is
// written whole or not at all (figure_export's atomic writes).
#pragma once

#include <QObject>
#include <QString>

#include "ui/document/attention_config.h"
#include "ui/render/figure_export.h"

namespace attnviz::ui {

class AppSettings;
class MainWindow;

class FigureExports : public QObject {
    Q_OBJECT
  public:
    FigureExports(MainWindow* window, AppSettings* settings);

    /// Each returns false and shows an error dialog on failure.
    bool exportFigureTo(const QString& path, const ExportSize& size, const FigureOptions& options);
    bool exportWeightsTo(const QString& path);
    bool loadWeightsFrom(const QString& path);
    void copyFigure();

    void exportFigureDialog();
    void exportWeightsDialog();
    void loadWeightsDialog();

  private:
    MainWindow* window_;
    AppSettings* settings_;
};

}  // namespace attnviz::ui
