// The window's commands: the actions with their shortcuts, the File, Edit, View, Attention,
// Examples and Help menus, and the main tool bar with its view and sentence selectors, kept in
// step with the document.  Each action calls the part that does the work: the document, the
// session files, the exports, the model source, the grid or the view tabs.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QComboBox;
class QMainWindow;
class QMenu;

namespace attnviz::ui {

class AppSettings;
class AttentionDocument;
class CorpusSource;
class DocumentHistory;
class FigureExports;
class HeatmapGridView;
class ModelSource;
class SessionFiles;
class ViewTabs;

class WindowActions : public QObject {
    Q_OBJECT
  public:
    struct Parts {
        AttentionDocument* document = nullptr;
        SessionFiles* sessions = nullptr;
        FigureExports* exports = nullptr;
        ModelSource* models = nullptr;
        HeatmapGridView* grid = nullptr;
        ViewTabs* views = nullptr;
        AppSettings* settings = nullptr;
        DocumentHistory* history = nullptr;
        CorpusSource* corpus = nullptr;
    };
    /// Adds the menus, the tool bar and the shortcuts to `window`.
    WindowActions(QMainWindow* window, const Parts& parts);

    /// The selectors and checkable actions follow the document; Back is off while presenting.
    void sync(bool presenting);
    /// The next (+1) or previous (−1) head, in the grid or in the comparison.
    void stepHead(int delta);
    /// View ▸ the last group, where presentation mode's action goes.
    QMenu* viewMenu() const { return view_menu_; }
    /// Attention ▸, where the memory budget's action goes.
    QMenu* attentionMenu() const { return attention_menu_; }

  signals:
    /// View ▸ Language: "system", "en" or "zh_CN", already saved as the preference.
    void languageRequested(const QString& preference);
    /// Examples ▸ an example, once the current session is saved or discarded.
    void exampleRequested(const QString& id);

  private:
    void createActions();
    void createMenus();
    void createToolBar();
    void createViewShortcuts();
    void createExamplesMenu();
    /// Weights | norm-based as the document has it; only weights for maps read from a file.
    void syncAttentionShown();

    QMainWindow* window_;
    Parts p_;
    QMenu* view_menu_ = nullptr;
    QMenu* attention_menu_ = nullptr;
    QComboBox* view_combo_ = nullptr;
    QComboBox* item_combo_ = nullptr;
    QAction* item_combo_action_ = nullptr;

    QAction* new_act_ = nullptr;
    QAction* open_act_ = nullptr;
    QAction* save_act_ = nullptr;
    QAction* save_as_act_ = nullptr;
    QAction* export_act_ = nullptr;
    QAction* export_weights_act_ = nullptr;
    QAction* copy_act_ = nullptr;
    QAction* quit_act_ = nullptr;
    QAction* undo_act_ = nullptr;
    QAction* redo_act_ = nullptr;
    QAction* grid_act_ = nullptr;
    QAction* mean_act_ = nullptr;
    QAction* next_head_act_ = nullptr;
    QAction* prev_head_act_ = nullptr;
    QAction* back_act_ = nullptr;
    QAction* reset_zoom_act_ = nullptr;
    QAction* causal_act_ = nullptr;
    QAction* training_act_ = nullptr;
    QAction* resample_act_ = nullptr;
    QAction* clear_masks_act_ = nullptr;
    QAction* weights_act_ = nullptr;  ///< the map views show the weights…
    QAction* norm_act_ = nullptr;     ///< …or the norm-based maps (AttentionShown)
    QAction* load_weights_act_ = nullptr;
    QAction* about_act_ = nullptr;
};

}  // namespace attnviz::ui
