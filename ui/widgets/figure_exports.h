// File ▸ Export Figure…, Export Weights…, Copy Figure, and Load Weights…: the window's ways of
// writing results to files (and reading a state_dict in).  Figures are drawn on the GUI thread
// (QCustomPlot is a widget); encoding, writing and computing a comparison's B run off it while
// the window keeps repainting.  A failure shows one dialog, and a file is written whole or not
// at all (figure_export's atomic writes).
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

#include "engine/layers/multi_head_attention.h"
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
    /// Reads the state_dict at `path` off the GUI thread (the engine's load_attention_layer)
    /// and returns at once; the window stays usable.  When the file holds a layer the demo
    /// can run, the document switches to it (embed_dim, bias, scoring, the file); else the
    /// error dialog says why and the document is unchanged.  weightsLoadFinished() tells
    /// which.  A load started meanwhile replaces this one; closing the window drops it.
    /// False (with the dialog) only for an empty path.
    bool loadWeightsFrom(const QString& path);
    bool isLoadingWeights() const { return loading_weights_; }
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
    /// A load of loadWeightsFrom() ended: the document uses the file, or the dialog shows why
    /// not (not emitted for a load that a newer one replaced).
    void weightsLoadFinished(bool loaded);

  private:
    /// Runs `work` on a thread of its own while the GUI thread keeps painting; rethrows
    /// what `work` threw.  `work` must touch no widget.
    template <typename Work>
    void offGuiThread(Work&& work);
    /// Configuration B for a comparison's export (null for other figures).
    SnapshotPtr comparedFor(const SnapshotPtr& snapshot, const FigureOptions& options);

    void finishWeights(std::uint64_t ticket, const QString& path,
                       const std::optional<MultiHeadAttentionOptions>& options,
                       const QString& error);

    int busy_ = 0;
    MainWindow* window_;
    AppSettings* settings_;
    std::uint64_t weights_ticket_ = 0;  ///< the current load; older results are dropped
    bool loading_weights_ = false;
};

}  // namespace attnviz::ui
