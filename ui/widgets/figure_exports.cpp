#include "ui/widgets/figure_exports.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QPointer>
#include <QStatusBar>
#include <QThreadPool>

#include <exception>
#include <functional>
#include <thread>

#include "engine/layers/attention_layer_file.h"
#include "ui/classroom/compare_view.h"
#include "ui/classroom/view_tabs.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/mailbox.h"
#include "ui/document/attention_document.h"
#include "ui/model/patch_view.h"
#include "ui/model/positions_view.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/main_window.h"

namespace attnviz::ui {

namespace {
std::function<void()>& worker_hook() {
    static std::function<void()> hook;
    return hook;
}
}  // namespace

void FigureExports::setWorkerHookForTesting(std::function<void()> hook) {
    worker_hook() = std::move(hook);
}

template <typename Work>
void FigureExports::offGuiThread(Work&& work) {
    // No widget is touched on the worker: figures are drawn on the GUI thread before, and
    // the work only encodes, computes or writes.  Input is held back while the loop runs,
    // so nothing changes under it; a close request waits for the end (MainWindow::closeEvent).
    QEventLoop loop;
    Mailbox box(nullptr);  // this thread's: the worker's "done"
    std::exception_ptr failure;
    ++busy_;
    std::thread worker([&] {
        try {
            if (worker_hook()) worker_hook()();
            work();
        } catch (...) {
            failure = std::current_exception();
        }
        box.post([&loop] { loop.quit(); });
    });
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    worker.join();
    if (--busy_ == 0) emit idle();
    if (failure) std::rethrow_exception(failure);
}

FigureExports::FigureExports(MainWindow* window, AppSettings* settings)
    : QObject(window), window_(window), settings_(settings) {}

SnapshotPtr FigureExports::comparedFor(const SnapshotPtr& snapshot, const FigureOptions& options) {
    if (options.kind != FigureKind::Compare) return nullptr;
    // B of this A, computed off the GUI thread when the Compare tab has not got it.
    const std::function<SnapshotPtr()> compute = window_->views()->compare()->comparedFor(snapshot);
    SnapshotPtr compared;
    offGuiThread([&] { compared = compute(); });
    return compared;
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
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const SnapshotPtr compared = comparedFor(snapshot, options);
        const RenderedFigure figure =
            render_figure(*snapshot, options, size, path, std::nullopt, compared.get());
        offGuiThread([&] { write_atomically(path, encode_figure(figure)); });
        QApplication::restoreOverrideCursor();
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        window_->showError(tr("Cannot export the figure"), QString::fromStdString(e.what()));
        return false;
    }
    window_->rememberDirectory(path);
    window_->statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void FigureExports::exportFigureDialog() {
    // The Patching tab's figure is its sweep, not the snapshot: the tab exports it itself.
    if (window_->views()->currentTab() == ViewTabs::PatchTab)
        return window_->views()->patchView()->exportDialog();
    if (window_->views()->currentTab() == ViewTabs::PositionsTab)
        return window_->views()->positionsView()->exportDialog();
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
    try {
        offGuiThread([&] { export_weights(*snapshot, path); });
    } catch (const std::exception& e) {
        window_->showError(tr("Cannot export the weights"), QString::fromStdString(e.what()));
        return false;
    }
    window_->rememberDirectory(path);
    window_->statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
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
    const SnapshotPtr snapshot = window_->compute()->latest();
    if (!snapshot) return;
    FigureOptions options = window_->currentFigureOptions();
    options.font_px = 14;
    // The grid's own size, so the copy looks like what is on screen, at the screen's scale.
    const QSize size = window_->grid()->size().expandedTo(QSize(640, 400));
    try {
        const SnapshotPtr compared = comparedFor(snapshot, options);
        copy_figure_to_clipboard(*snapshot, options, size,
                                 std::max(1.0, window_->devicePixelRatioF()), compared.get());
    } catch (const std::exception& e) {
        window_->showError(tr("Cannot copy the figure"), QString::fromStdString(e.what()));
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
    const std::uint64_t ticket = ++weights_ticket_;
    loading_weights_ = true;
    window_->statusBar()->showMessage(
        tr("Reading weights from %1…").arg(QFileInfo(path).fileName()));
    // The task holds only the path and a guarded pointer: a closed window drops its result.
    QPointer<FigureExports> self(this);
    static const char pool_hand_over = 0;  // QThreadPool hands the task over under Qt's locks
    std::function<void()> task = [self, ticket, path] {
        happens_after(&pool_hand_over);
        std::optional<MultiHeadAttentionOptions> options;
        QString error;
        try {
            options = load_attention_layer(path.toStdString()).options();
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        } catch (...) {
            error = QStringLiteral("%1: an unknown error").arg(path);
        }
        Mailbox::application()->post([self, ticket, path, options, error] {
            if (self) self->finishWeights(ticket, path, options, error);
        });
    };
    happens_before(&pool_hand_over);
    QThreadPool::globalInstance()->start(std::move(task));
    return true;
}

void FigureExports::finishWeights(std::uint64_t ticket, const QString& path,
                                  const std::optional<MultiHeadAttentionOptions>& options,
                                  const QString& error) {
    if (ticket != weights_ticket_) return;  // a newer load replaced this one
    loading_weights_ = false;
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
