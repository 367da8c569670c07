// Where the window's attention comes from: the demo layer or a trained model folder.  It owns
// File ▸ Open Model…, the recent models, the loader (a BackgroundJob: the window stays usable, a
// load can be cancelled, a failure changes nothing), the source and layer selectors of the tool bar
// and the panel that describes the open model.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>

#include "ui/compute/attention_snapshot.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QPushButton;
class QSpinBox;
class QToolBar;
class QWidget;

namespace attnviz::ui {

class AppSettings;
class AttentionDocument;

/// What File ▸ Open Model… opens for a picked file: a model folder's config.json stands for
/// its folder; anything else (a .gguf file) for itself.
QString model_path_of(const QString& picked);

class ModelSource : public QObject {
    Q_OBJECT
  public:
    ModelSource(AttentionDocument* document, AppSettings* settings, QWidget* window);
    ~ModelSource() override;

    QAction* openAction() const { return open_act_; }
    /// File ▸ Open Attention Maps…: an array of maps computed elsewhere, then its tokens.
    QAction* openMapsAction() const { return maps_act_; }
    /// File ▸ Compare With Attention Maps…: B's maps for the Compare view, while maps are open.
    QAction* compareMapsAction() const { return compare_maps_act_; }
    QMenu* recentMenu() const { return recent_menu_; }
    /// The models of local runners (ollama, LM Studio) found in their default folders, listed
    /// when the menu opens (models::find_local_models).
    QMenu* localMenu() const { return local_menu_; }
    /// "Source: [Demo layer | model]  Layer: [n]  [ ] Words  [ ] Hide special tokens" for the
    /// tool bar.
    void addToToolBar(QToolBar* bar);
    /// The open model described (architecture, layers, heads, ...); hidden on the demo layer.
    QLabel* infoPanel() const { return info_; }
    /// The status bar's "Opening … [Cancel]".
    QWidget* progressWidget() const { return progress_; }

    /// How an opened model or attention maps go into the document: `change` runs inside
    /// `opener`.  The window passes SessionFiles::openInto, so that opening one into an
    /// untitled window with nothing unsaved is not an unsaved change.  Default: as it is.
    using Opener = std::function<void(const std::function<void()>& change)>;
    void setOpener(Opener opener) { opener_ = std::move(opener); }

    /// Opens `folder` off the GUI thread; when it is open the document switches to it (the
    /// window keeps what it had until then).  A failure is reported by failed().
    void load(const QString& folder);
    /// Checks attention maps and their tokens (`tokens` empty: tokens.json beside them) and
    /// makes them the source; a problem is reported by failed() and changes nothing.
    bool openMaps(const QString& file, const QString& tokens);
    /// Checks attention maps and their tokens (`tokens` empty: tokens.json beside them) as
    /// openMaps does, and against the maps open (the same layers, heads and tokens count), and
    /// makes them configuration B of the Compare view; comparedMapsOpened() follows.  A problem
    /// is reported by failed() and changes nothing.
    bool compareMaps(const QString& file, const QString& tokens);
    /// Abandons the load under way (not waited for: its result is dropped); the document keeps
    /// its source.
    void cancel();
    bool isLoading() const { return loader_.isRunning(); }
    /// Follows a result: the layer selector's range, the info panel.
    void setSnapshot(const SnapshotPtr& snapshot);

  signals:
    void failed(const QString& title, const QString& text);
    /// A load finished (opened or failed) or was cancelled.
    void loadFinished(bool opened);
    /// compareMaps() made the maps configuration B: time to show the Compare view.
    void comparedMapsOpened();

  private:
    void openDialog();
    void openMapsDialog();
    void compareMapsDialog();
    /// Asks for a maps file and, when there is no tokens.json beside it, its tokens file; false
    /// when the user cancelled.
    bool chooseMaps(const QString& title, QString* file, QString* tokens);
    void finish(const QString& folder, ModelPtr model, const QString& error);
    void sync();
    void updateRecentMenu();
    void updateLocalMenu();
    void retranslate();
    bool eventFilter(QObject* watched, QEvent* event) override;

    AttentionDocument* doc_;
    AppSettings* settings_;
    QWidget* window_;
    QAction* open_act_ = nullptr;
    QAction* maps_act_ = nullptr;
    QAction* compare_maps_act_ = nullptr;
    /// The last result's maps when they were read from a file: their layers for the layer
    /// selector and their description for the info panel.
    std::shared_ptr<const ModelMaps> maps_;
    QString maps_tokens_;  ///< their tokens file ("" tokens.json beside them)
    /// Whether their tokens group into words (offsets into an input) and mark special tokens.
    bool maps_words_ = false, maps_special_ = false;
    QMenu* recent_menu_ = nullptr;
    QMenu* local_menu_ = nullptr;
    QComboBox* source_combo_ = nullptr;
    QSpinBox* layer_spin_ = nullptr;
    QCheckBox* words_box_ = nullptr;
    QCheckBox* hide_special_box_ = nullptr;
    QLabel* info_ = nullptr;
    QWidget* progress_ = nullptr;
    QLabel* progress_label_ = nullptr;
    QPushButton* cancel_button_ = nullptr;
    BackgroundJob loader_;    ///< a load replaced or cancelled is dropped, not waited for
    QString loading_folder_;  ///< absolute: the folder loader_ opens
    QString last_model_;      ///< the model the source combo offers besides the demo layer
    Opener opener_ = [](const std::function<void()>& change) { change(); };
};

}  // namespace attnviz::ui
