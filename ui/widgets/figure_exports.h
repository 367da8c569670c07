// File ▸ Export Figure…, Export Weights…, Copy Figure, and Load Weights…: the window's ways of
// writing results to files (and reading a state_dict in).  Figures are drawn on the GUI thread
// (QCustomPlot is a widget); encoding, writing and computing a comparison's B run off it in a
// BackgroundJob while the window stays usable.  A failure shows one dialog, and a file is
// written whole or not at all (figure_export's atomic writes).
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <list>
#include <optional>

#include "engine/layers/multi_head_attention.h"
#include "ui/compute/background_job.h"
#include "ui/document/attention_config.h"
#include "ui/render/figure_export.h"

namespace attnviz::ui {

class AppSettings;
class MainWindow;

class FigureExports : public QObject {
    Q_OBJECT
  public:
    FigureExports(MainWindow* window, AppSettings* settings);
    /// Exports still under way are dropped (their files are still written whole or not at
    /// all); MainWindow::closeEvent waits for them (idle()) instead.
    ~FigureExports() override;

    /// Each draws on the GUI thread and returns at once: false, with the error dialog, when
    /// there is nothing to export or the figure cannot be drawn (an unknown format, a bad
    /// size); else true, and the file is encoded and written off the GUI thread, exportFinished()
    /// following (a failure there shows the dialog first).
    bool exportFigureTo(const QString& path, const ExportSize& size, const FigureOptions& options);
    bool exportWeightsTo(const QString& path);
    /// Reads the state_dict at `path` off the GUI thread (the engine's load_attention_layer)
    /// and returns at once; the window stays usable.  When the file holds a layer the demo
    /// can run, the document switches to it (embed_dim, bias, scoring, the file); else the
    /// error dialog says why and the document is unchanged.  weightsLoadFinished() tells
    /// which.  A load started meanwhile replaces this one; closing the window drops it.
    /// False (with the dialog) only for an empty path.
    bool loadWeightsFrom(const QString& path);
    bool isLoadingWeights() const { return weights_job_.isRunning(); }
    /// Copies the figure shown to the clipboard (a comparison's B computed off the GUI thread
    /// first, when the Compare tab has not got it).
    void copyFigure();

    void exportFigureDialog();
    void exportWeightsDialog();
    void loadWeightsDialog();

    /// True while an export's work runs off the GUI thread (the window waits for it to close).
    bool isBusy() const { return !exports_.empty(); }
    /// Tests: runs on the export's thread before its work (to hold it there).
    static void setWorkerHookForTesting(std::function<void()> hook);

  signals:
    /// The last export under way has ended.
    void idle();
    /// An export that exportFigureTo() or exportWeightsTo() started has ended: `written`, or the
    /// error dialog says why not (and the file is as it was).
    void exportFinished(const QString& path, bool written);
    /// A load of loadWeightsFrom() ended: the document uses the file, or the dialog shows why
    /// not (not emitted for a load that a newer one replaced).
    void weightsLoadFinished(bool loaded);

  private:
    /// One export under way: its work off the GUI thread (a comparison's B, then the writing).
    struct Export {
        QString path;
        QString error_title;  ///< the dialog's, when it fails
        bool figure = false;  ///< a figure's, which shows the busy cursor until it ends
        BackgroundJob job;
    };

    /// Configuration B for a comparison's figure, to compute off the GUI thread (empty for
    /// other figures).  Throws UsageError when the comparison cannot be drawn.
    std::function<SnapshotPtr()> comparedFor(const SnapshotPtr& snapshot,
                                             const FigureOptions& options);
    Export& startExport(const QString& path, const QString& error_title, bool figure);
    /// Encodes and writes the figure drawn off the GUI thread, then ends `e`.
    void writeFigure(Export& e, RenderedFigure figure);
    /// Ends `e`: the status bar or the dialog (`error` set), exportFinished(), idle().
    void endExport(Export& e, const QString& error);
    void copyNow(const SnapshotPtr& snapshot, const SnapshotPtr& compared,
                 const FigureOptions& options, QSize size, double scale);

    void finishWeights(const QString& path, const std::optional<MultiHeadAttentionOptions>& options,
                       const QString& error);

    MainWindow* window_;
    AppSettings* settings_;
    std::list<Export> exports_;  ///< under way, in the order started
    BackgroundJob copy_job_;     ///< Copy Figure's B (a newer copy replaces it)
    BackgroundJob weights_job_;  ///< Load Weights… (a newer load replaces it)
};

}  // namespace attnviz::ui
