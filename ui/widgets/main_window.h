// The main window: inputs on top, controls on the left, the views in the middle.  It lays
// them out and wires the AttentionDocument to the panels, the compute worker and the views.
// Its other jobs are parts of their own: the menus, tool bar and shortcuts (WindowActions),
// presentation mode (PresentationMode), session files (SessionFiles), exports and weight
// loading (FigureExports), the source of the attention (ModelSource) and the memory budget
// (MemoryGuard).  Errors are reported in
// (window-modal, non-blocking) message boxes; the app keeps running.
#pragma once

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include <cstddef>
#include <memory>

#include "ui/compute/full_map_source.h"
#include "ui/document/attention_config.h"
#include "ui/document/session.h"
#include "ui/render/figure_export.h"

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QMessageBox;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTimer;

namespace attnviz::ui {

class AppSettings;
class AttentionDocument;
class ComputeController;
class CorpusSource;
class ControlsPanel;
class FigureExports;
class PresentationMode;
class SessionFiles;
class WindowActions;
class HeatmapGridView;
class InputPanel;
class DocumentHistory;
class KnockOutMenu;
class FullMapWindow;
class ModelPanel;
class MemoryGuard;
class ModelSource;
class ScopeBar;
class ViewTabs;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    /// `settings` may be null (the application's QSettings are used).  `document`, when
    /// given, is adopted (reparented) instead of a new one: a window rebuilt in another
    /// language (LanguageSwitcher) keeps every setting of the one it replaces.
    explicit MainWindow(AppSettings* settings = nullptr, QWidget* parent = nullptr,
                        AttentionDocument* document = nullptr);
    ~MainWindow() override;

    AttentionDocument* document() const { return doc_; }
    ComputeController* compute() const { return compute_; }
    HeatmapGridView* grid() const { return grid_; }
    InputPanel* inputPanel() const { return inputs_; }
    ControlsPanel* controlsPanel() const { return controls_; }
    /// In the left column while a model is the source: focus, knock-outs, predictions.
    ModelPanel* modelPanel() const { return model_panel_; }
    /// Over the views: whose weights are kept, the window of tokens, memory against budget.
    ScopeBar* scopeBar() const { return scope_bar_; }
    /// The memory budget: over-budget dialog with its offers, the budget's setting.
    MemoryGuard* memoryGuard() const { return guard_; }
    /// The tabs of the centre: grid, steps, lines, statistics, compare, model.
    ViewTabs* views() const;
    /// The source: demo layer or trained model (File ▸ Open Model…, the tool bar's selectors).
    ModelSource* modelSource() const { return models_; }
    /// A head's knock-out menu and Ctrl-click, for the grid and the Model tab.
    KnockOutMenu* knockOutMenu() const { return knock_out_; }
    /// Edit ▸ Undo / Redo over the document's edits.
    DocumentHistory* history() const { return history_; }
    /// File ▸ Open Corpus… and Corpus from History: heads across a corpus.
    CorpusSource* corpusSource() const { return corpus_; }
    /// Opens a model folder off the GUI thread (as File ▸ Open Model… does).
    void openModel(const QString& folder);
    /// Opens attention maps computed elsewhere with their tokens (empty: tokens.json beside
    /// them), as File ▸ Open Attention Maps… does; false (a dialog said why) when they cannot be.
    bool openAttentionMaps(const QString& file, const QString& tokens);
    /// Head `head` of layer `layer` (both from 0) of the shown pass or maps, whole, in a window
    /// of its own (Open Full Map… on a head).  Null (a dialog said why) when there is none.
    FullMapWindow* openFullMap(int layer, int head);
    /// The same from a source of its own (the Positions tab's statistics pass).
    FullMapWindow* openFullMap(FullMapSourcePtr source, int layer, int head);
    /// The full-map windows open.
    QList<FullMapWindow*> fullMapWindows() const;
    /// Makes other attention maps configuration B and shows the Compare view, as File ▸ Compare
    /// With Attention Maps… does; false (a dialog said why) when they do not fit the maps open.
    bool compareWithAttentionMaps(const QString& file, const QString& tokens);

    /// Opens a built-in example (builtin_examples()) as an untitled session and shows its
    /// explanation.  False (with an error dialog) if it cannot be read.
    bool loadExample(const QString& id);
    /// Presentation mode: full screen, large labels, high contrast, controls hidden,
    /// keyboard-driven (arrows, Page Up/Down, C, D, G; Esc leaves).
    void setPresentation(bool on);
    bool isPresenting() const;
    int presentationPixelSize() const;
    /// The document's figure options for the figure the current view shows (for exports).
    FigureOptions currentFigureOptions() const;

    /// Each returns false and shows an error dialog on failure.
    /// Shows the window as the app starts it: maximized on a first launch on a screen smaller
    /// than the default window, else at its saved or default size.
    void showAsLaunched();
    bool openSession(const QString& path);
    /// A file or folder as the user names it (dropped, or picked in Open Session…): a model
    /// folder, a .gguf file or attention maps open as a model; anything else as a session.
    /// Unsaved changes are asked about before a session replaces them.
    void openPath(const QString& path);
    bool saveSessionTo(const QString& path);
    /// Opens a recovery copy as unsaved work (SessionFiles::restoreSession).
    bool restoreSession(const QString& path);
    /// What a recovery copy keeps besides the document: the view, the session's file and
    /// its unsaved-changes flag.
    SessionExtras recoveryExtras() const;
    bool hasUnsavedChanges() const;
    /// Start an export and return at once: false (with the error dialog) when it cannot start,
    /// else FigureExports::exportFinished follows once the file is written off the GUI thread.
    bool exportFigureTo(const QString& path, const ExportSize& size, const FigureOptions& options);
    bool exportWeightsTo(const QString& path);
    /// Starts reading a demo layer's file off the GUI thread: true once started (false for an
    /// empty path); the outcome comes with FigureExports::weightsLoadFinished.
    bool loadWeightsFrom(const QString& path);
    void copyFigure();

    QString currentFile() const;
    /// The text of the last error shown (also in the dialog).
    QString lastError() const { return last_error_; }
    /// The error dialog currently open, if any.
    QMessageBox* errorDialog() const { return error_box_; }
    /// A window-modal, non-blocking error dialog (and the status bar); the app keeps running.
    void showError(const QString& title, const QString& text);
    /// Where file dialogs start: the session's folder, else the last one used.
    QString dialogDirectory() const;
    void rememberDirectory(const QString& path);
    /// When false, closing never asks to save (tests, scripted runs).
    void setConfirmOnClose(bool on);
    /// Continues the session of `previous` (whose document this window adopted): file name,
    /// unsaved-changes flag and layout.  State a view keeps outside the document belongs here.
    void takeOverFrom(const MainWindow& previous);

  signals:
    /// View ▸ Language: "system", "en" or "zh_CN", already saved as the preference.
    void languageRequested(const QString& preference);
    /// The session's file or its unsaved-changes flag changed.
    void sessionChanged();

  protected:
    void closeEvent(QCloseEvent* event) override;
    /// A model folder or a session file dropped on the window opens.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    // The constructor's steps, in order.
    void createParts();
    QWidget* createLayout();
    void createActions(QWidget* controls);
    void connectCompute();
    void connectGrid();
    void connectViews();
    // What the document, the worker and the views ask of the window.
    void requestComputation();
    void applyFigureOptions();
    void followSource();
    void showResult(const SnapshotPtr& s);
    void showComputeFailure(const QString& message);
    void showBusy(bool busy);
    void showModelHead(int layer, int head);
    void createStatusBar();
    void restoreLayout();
    void saveLayout();
    void updateTitle();
    void syncViewControls();

    std::unique_ptr<AppSettings> own_settings_;
    AppSettings* settings_ = nullptr;
    AttentionDocument* doc_ = nullptr;
    ComputeController* compute_ = nullptr;
    InputPanel* inputs_ = nullptr;
    ControlsPanel* controls_ = nullptr;
    ModelPanel* model_panel_ = nullptr;
    HeatmapGridView* grid_ = nullptr;
    QSplitter* splitter_ = nullptr;
    ViewTabs* views_ = nullptr;
    ScopeBar* scope_bar_ = nullptr;
    MemoryGuard* guard_ = nullptr;
    ModelSource* models_ = nullptr;
    KnockOutMenu* knock_out_ = nullptr;
    DocumentHistory* history_ = nullptr;
    CorpusSource* corpus_ = nullptr;
    FigureExports* exports_ = nullptr;
    bool close_when_idle_ = false;  ///< a close waits for an export's thread
    /// Cells (items × (heads + 1) × queries × keys) from which new colours are made on the
    /// worker instead of the GUI thread.
    static constexpr std::size_t kRecolorOnWorkerCells = std::size_t(1) << 20;
    bool recolor_pending_ = false;  ///< the grid waits for maps in the new colours
    SessionFiles* sessions_ = nullptr;
    WindowActions* actions_ = nullptr;
    PresentationMode* presentation_ = nullptr;
    bool opens_maximized_ = false;  ///< see showAsLaunched()

    QLabel* hover_label_ = nullptr;
    QLabel* timing_label_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_compute_ = nullptr;
    QTimer* progress_delay_ = nullptr;

    QString last_error_;
    QString maps_warning_;  ///< the attention maps' warning last shown (rows not summing to 1)
    QPointer<QMessageBox> error_box_;
};

}  // namespace attnviz::ui
