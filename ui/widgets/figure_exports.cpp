#include "ui/widgets/figure_exports.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

#include <exception>
#include <functional>
#include <thread>

#include "engine/io/safetensors.h"
#include "ui/classroom/compare_view.h"
#include "ui/classroom/view_tabs.h"
#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
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
    std::exception_ptr failure;
    ++busy_;
    std::thread worker([&] {
        try {
            if (worker_hook()) worker_hook()();
            work();
        } catch (...) {
            failure = std::current_exception();
        }
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
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
    io::TensorMap tensors;
    try {
        tensors = io::read_safetensors(path.toStdString());
    } catch (const std::exception& e) {
        window_->showError(tr("Cannot load weights"), QString::fromStdString(e.what()));
        return false;
    }
    // Take embed_dim from the file, so a matching layer is ready without a second step.
    int embed_dim = 0;
    for (const char* name : {"in_proj_weight", "q_proj_weight", "out_proj.weight"}) {
        const auto it = tensors.find(name);
        if (it != tensors.end() && it->second.rank() == 2) {
            embed_dim = int(it->second.dim(1));
            break;
        }
    }
    if (embed_dim <= 0) {
        window_->showError(
            tr("Cannot load weights"),
            tr("'%1' has no in_proj_weight, q_proj_weight or out_proj.weight: it is not "
               "an nn.MultiheadAttention state_dict.")
                .arg(QFileInfo(path).fileName()));
        return false;
    }
    if (embed_dim != window_->document()->embedDim()) window_->document()->setEmbedDim(embed_dim);
    window_->document()->setWeightsFile(QFileInfo(path).absoluteFilePath());
    window_->rememberDirectory(path);
    window_->statusBar()->showMessage(tr("Loaded weights from %1").arg(QFileInfo(path).fileName()),
                                      4000);
    return true;
}

}  // namespace attnviz::ui
