// File ▸ Export Figure…, Export Weights…, Copy Figure, and Load Weights…: the window's ways of
// writing results to files (and reading a state_dict in).  Figures are drawn on the GUI thread
// (QCustomPlot is a widget); encoding, writing and computing a comparison's B run off it while
// the window keeps repainting.  A failure shows one dialog, and a file is written whole or not
// at all (figure_export's atomic writes).
#pragma once

#include <QObject>
#include <QString>

#include <functional>

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

    /// True while an export's work runs on its thread (the window waits for it to close).
    bool isBusy() const { return busy_ > 0; }
    /// Tests: runs on the export's thread before its work (to hold it there).
    static void setWorkerHookForTesting(std::function<void()> hook);

  signals:
    /// The last export's thread has ended.
    void idle();

  private:
    /// Runs `work` on a thread of its own while the GUI thread keeps painting; rethrows
    /// what `work` threw.  `work` must touch no widget.
    template <typename Work>
    void offGuiThread(Work&& work);
    /// Configuration B for a comparison's export (null for other figures).
    SnapshotPtr comparedFor(const SnapshotPtr& snapshot, const FigureOptions& options);

    int busy_ = 0;
    MainWindow* window_;
    AppSettings* settings_;
};

}  // namespace attnviz::ui
