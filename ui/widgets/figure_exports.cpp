#include "ui/widgets/figure_exports.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

#include <algorithm>
#include <exception>
#include <functional>
#include <mutex>

#include "engine/layers/attention_layer_file.h"
#include "ui/classroom/compare_view.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/error_text.h"
#include "ui/document/attention_document.h"
#include "ui/model/circuits_view.h"
#include "ui/model/dla_view.h"
#include "ui/model/flow_view.h"
#include "ui/model/patch_view.h"
#include "ui/model/positions_view.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"

namespace attnviz::ui {

namespace {
// Set by a test's thread, read on the export's: guarded as PatchRunner guards its own.
std::mutex hook_mutex;
std::function<void()> worker_hook;

/// On the export's thread, before its work: the test's hook, if any (called outside the lock,
/// since it may hold the thread for long).
void call_worker_hook() {
    std::function<void()> hook;
    {
        const std::lock_guard lock(hook_mutex);
        hook = worker_hook;
    }
    if (hook) hook();
}
}  // namespace

void FigureExports::setWorkerHookForTesting(std::function<void()> hook) {
    const std::lock_guard lock(hook_mutex);
    worker_hook = std::move(hook);
}

FigureExports::FigureExports(MainWindow* window, AppSettings* settings)
    : QObject(window), window_(window), settings_(settings) {}

FigureExports::~FigureExports() {
    for (const Export& e : exports_)
        if (e.figure) QApplication::restoreOverrideCursor();
}

std::function<SnapshotPtr()> FigureExports::comparedFor(const SnapshotPtr& snapshot,
                                                        const FigureOptions& options) {
    if (options.kind != FigureKind::Compare) return {};
    // B of this A: at once when the Compare tab has it, else a computation of its own.
    return window_->views()->compare()->comparedFor(snapshot);
}

FigureExports::Export& FigureExports::startExport(const QString& path, const QString& error_title,
                                                  bool figure) {
    Export& e = exports_.emplace_back();
    e.path = path;
    e.error_title = error_title;
    e.figure = figure;
    // The window stays usable: a cursor that says it works on, not one that says "wait".
    if (figure) QApplication::setOverrideCursor(Qt::BusyCursor);
    return e;
}

void FigureExports::endExport(Export& e, const QString& error) {
    const QString path = e.path;
    const QString title = e.error_title;
    if (e.figure) QApplication::restoreOverrideCursor();
    // Its job ends here, inside its own last hand-over: nothing of it runs after this.
    exports_.remove_if([&e](const Export& x) { return &x == &e; });
    if (error.isEmpty()) {
        window_->rememberDirectory(path);
        window_->statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)),
                                          5000);
    } else {
        window_->showError(title, error);
    }
    emit exportFinished(path, error.isEmpty());
    if (exports_.empty()) emit idle();
}

void FigureExports::writeFigure(Export& e, RenderedFigure figure) {
    Export* at = &e;  // in exports_ until endExport
    e.job.start(
        [path = e.path, figure = std::move(figure)](const JobControl&) {
            call_worker_hook();
            write_atomically(path, encode_figure(figure));
        },
        {.finished = [this, at] { endExport(*at, QString()); },
         .failed = [this, at](const QString& message) { endExport(*at, message); }});
}

bool FigureExports::exportFigureTo(const QString& path, const ExportSize& size,
                                   const FigureOptions& options) {
    const SnapshotPtr snapshot = window_->compute()->latest();
    if (!snapshot) {
        window_->showError(tr("Cannot export"),
                           tr("There is no figure yet: the attention is still being "
                              "computed or the input has an error."));
        return false;
    }
    const QString title = tr("Cannot export the figure");
    std::function<SnapshotPtr()> compared;
    RenderedFigure figure;
    try {
        compared = comparedFor(snapshot, options);
        if (!compared) figure = render_figure(*snapshot, options, size, path);
    } catch (const std::exception& e) {
        window_->showError(title, error_text(e));
        return false;
    }
    Export& e = startExport(path, title, true);
    if (!compared) {
        writeFigure(e, std::move(figure));
        return true;
    }
    // B first, off the GUI thread; then the figure is drawn here and written off it.
    Export* at = &e;
    e.job.start(
        [compared](const JobControl&) {
            call_worker_hook();
            return compared();
        },
        {.finished =
             [this, at, snapshot, size, options](const SnapshotPtr& b) {
                 RenderedFigure drawn;
                 try {
                     drawn =
                         render_figure(*snapshot, options, size, at->path, std::nullopt, b.get());
                 } catch (const std::exception& ex) {
                     endExport(*at, error_text(ex));
                     return;
                 }
                 writeFigure(*at, std::move(drawn));
             },
         .failed = [this, at](const QString& message) { endExport(*at, message); }});
    return true;
}

void FigureExports::exportFigureDialog() {
    // The Patching tab's figure is its sweep, not the snapshot: the tab exports it itself.
    if (window_->views()->currentTab() == ViewTabs::PatchTab)
        return window_->views()->patchView()->exportDialog();
    if (window_->views()->currentTab() == ViewTabs::PositionsTab)
        return window_->views()->positionsView()->exportDialog();
    if (window_->views()->currentTab() == ViewTabs::CircuitsTab)
        return window_->views()->circuitsView()->exportDialog();
    if (window_->views()->currentTab() == ViewTabs::DlaTab)
        return window_->views()->dlaView()->exportDialog();
    if (window_->views()->currentTab() == ViewTabs::FlowTab)
        return window_->views()->flowView()->exportDialog();
    if (!window_->compute()->latest()) {
        window_->showError(tr("Cannot export"), tr("There is no figure yet."));
        return;
    }
    const FigureOptions current = window_->currentFigureOptions();
    // A comparison offers the heads both configurations have.
    const AttentionDocument* doc = window_->document();
    const int heads =
        doc->computeConfig().usesModel() ? std::max(1, doc->viewableHeads())
        : current.kind == FigureKind::Compare
            ? std::min(doc->numHeads(),
                       compared_config(doc->computeConfig(), doc->compare().changes).num_heads)
            : doc->numHeads();
    ExportDialog dialog(current, heads, window_);
    dialog.setSize(
        ExportSize{settings_->exportWidth(), settings_->exportHeight(), settings_->exportScale()});
    dialog.setFontPx(settings_->exportFontPx());
    if (dialog.exec() != QDialog::Accepted) return;
    const ExportSize size = dialog.exportSize();
    settings_->setExportWidth(size.width);
    settings_->setExportHeight(size.height);
    settings_->setExportScale(size.scale);
    settings_->setExportFontPx(dialog.figureOptions().font_px);
    const QString suffix = figure_format_suffix(dialog.format());
    const QString base = window_->currentFile().isEmpty()
                             ? QStringLiteral("attention")
                             : QFileInfo(window_->currentFile()).completeBaseName();
    QString path = QFileDialog::getSaveFileName(
        window_, tr("Export Figure"),
        window_->dialogDirectory() + QLatin1Char('/') + base + QLatin1Char('.') + suffix,
        tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffix;
    exportFigureTo(path, size, dialog.figureOptions());
}

bool FigureExports::exportWeightsTo(const QString& path) {
    const SnapshotPtr snapshot = window_->compute()->latest();
    if (!snapshot) {
        window_->showError(tr("Cannot export"), tr("There are no weights yet."));
        return false;
    }
    Export& e = startExport(path, tr("Cannot export the weights"), false);
    Export* at = &e;
    e.job.start(
        [snapshot, path](const JobControl&) {
            call_worker_hook();
            export_weights(*snapshot, path);
        },
        {.finished = [this, at] { endExport(*at, QString()); },
         .failed = [this, at](const QString& message) { endExport(*at, message); }});
    return true;
}

void FigureExports::exportWeightsDialog() {
    QString selected;
    const QString path = QFileDialog::getSaveFileName(
        window_, tr("Export Weights"), window_->dialogDirectory() + QStringLiteral("/weights.csv"),
        tr("CSV table (*.csv);;NumPy array [N, H, L, S] (*.npy);;JSON with tokens (*.json)"),
        &selected);
    if (!path.isEmpty()) exportWeightsTo(path);
}

void FigureExports::copyFigure() {
    if (window_->views()->currentTab() == ViewTabs::PatchTab)
        return window_->views()->patchView()->copyFigure();
    if (window_->views()->currentTab() == ViewTabs::CircuitsTab)
        return window_->views()->circuitsView()->copyFigure();
    if (window_->views()->currentTab() == ViewTabs::DlaTab)
        return window_->views()->dlaView()->copyFigure();
    if (window_->views()->currentTab() == ViewTabs::FlowTab)
        return window_->views()->flowView()->copyFigure();
    const SnapshotPtr snapshot = window_->compute()->latest();
    if (!snapshot) return;
    FigureOptions options = window_->currentFigureOptions();
    options.font_px = 14;
    // The grid's own size, so the copy looks like what is on screen, at the screen's scale.
    const QSize size = window_->grid()->size().expandedTo(QSize(640, 400));
    const double scale = std::max(1.0, window_->devicePixelRatioF());
    std::function<SnapshotPtr()> compared;
    try {
        compared = comparedFor(snapshot, options);
    } catch (const std::exception& e) {
        window_->showError(tr("Cannot copy the figure"), error_text(e));
        return;
    }
    if (!compared) return copyNow(snapshot, nullptr, options, size, scale);
    copy_job_.start(
        [compared](const JobControl&) {
            call_worker_hook();
            return compared();
        },
        {.finished = [this, snapshot, options, size,
                      scale](const SnapshotPtr& b) { copyNow(snapshot, b, options, size, scale); },
         .failed =
             [this](const QString& message) {
                 window_->showError(tr("Cannot copy the figure"), message);
             }});
}

void FigureExports::copyNow(const SnapshotPtr& snapshot, const SnapshotPtr& compared,
                            const FigureOptions& options, QSize size, double scale) {
    try {
        copy_figure_to_clipboard(*snapshot, options, size, scale, compared.get());
    } catch (const std::exception& e) {
        window_->showError(tr("Cannot copy the figure"), error_text(e));
        return;
    }
    window_->statusBar()->showMessage(tr("Figure copied to the clipboard"), 3000);
}

void FigureExports::loadWeightsDialog() {
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Load Weights"), window_->dialogDirectory(),
                                     tr("safetensors state_dict (*.safetensors);;All files (*)"));
    if (!path.isEmpty()) loadWeightsFrom(path);
}

bool FigureExports::loadWeightsFrom(const QString& path) {
    if (path.isEmpty()) {
        window_->showError(tr("Cannot load weights"), tr("No file was given."));
        return false;
    }
    window_->statusBar()->showMessage(
        tr("Reading weights from %1…").arg(QFileInfo(path).fileName()));
    // The work holds only the path: a closed window drops its result.
    weights_job_.start(
        [path](const JobControl&) { return load_attention_layer(path.toStdString()).options(); },
        {.finished =
             [this, path](const MultiHeadAttentionOptions& options) {
                 finishWeights(path, options, QString());
             },
         .failed = [this,
                    path](const QString& error) { finishWeights(path, std::nullopt, error); }});
    return true;
}

void FigureExports::finishWeights(const QString& path,
                                  const std::optional<MultiHeadAttentionOptions>& options,
                                  const QString& error) {
    window_->statusBar()->clearMessage();
    const QString name = QFileInfo(path).fileName();
    QString problem = error;
    if (options && !options->packed_in_proj())
        problem = tr("'%1' is a layer with kdim %2 and vdim %3, but the demo layer's keys and "
                     "values have embed_dim (%4).")
                      .arg(name)
                      .arg(options->key_dim())
                      .arg(options->value_dim())
                      .arg(options->embed_dim);
    else if (options && options->add_bias_kv)
        problem = tr("'%1' has bias_k and bias_v, which the demo layer does not have.").arg(name);
    if (!problem.isEmpty()) {
        window_->showError(tr("Cannot load weights"), problem);
        emit weightsLoadFinished(false);
        return;
    }
    // The layer the file describes, so that it runs without a second step.
    AttentionDocument* doc = window_->document();
    if (options->embed_dim != doc->embedDim()) doc->setEmbedDim(int(options->embed_dim));
    doc->setBias(options->bias);
    doc->setScoring(options->scoring);
    if (options->scoring == Scoring::Additive) doc->setNumHeads(int(options->num_heads));
    doc->setWeightsFile(QFileInfo(path).absoluteFilePath());
    window_->rememberDirectory(path);
    window_->statusBar()->showMessage(tr("Loaded weights from %1").arg(name), 4000);
    emit weightsLoadFinished(true);
}

}  // namespace attnviz::ui
