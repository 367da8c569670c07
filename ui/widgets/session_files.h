// The window's session files: New, Open…, Open Recent, Save, Save As…, the unsaved-changes
// flag and the question before it is lost.  A session file holds the document and the
// window's view (session.h); anything that fills the document wholesale (an example, a
// session) goes through load(), so that it does not count as an edit.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

#include "ui/document/session.h"

class QMenu;
class QSplitter;

namespace attnviz::ui {

class AppSettings;
class AttentionDocument;
class MainWindow;

class SessionFiles : public QObject {
    Q_OBJECT
  public:
    SessionFiles(MainWindow* window, AttentionDocument* document, AppSettings* settings,
                 QSplitter* splitter);

    QString file() const { return file_; }
    bool isModified() const { return modified_; }
    /// When false, nothing asks to save (tests, scripted runs).
    void setConfirm(bool on) { confirm_ = on; }
    bool confirms() const { return confirm_; }
    /// The list under File ▸ Open Recent (kept up to date from now on).
    void setRecentMenu(QMenu* menu);

    /// True when the changes are saved, discarded, or there are none; false when cancelled.
    bool maybeSave();
    void newSession();
    void openDialog();
    bool openSession(const QString& path);
    /// Opens a recovery copy (recovery.h) as the work it saved: named after the session
    /// file it continued (empty: untitled) and with unsaved changes.
    bool restoreSession(const QString& path);
    bool saveSessionTo(const QString& path);
    bool save();
    bool saveAs();
    /// Runs `fill`, which sets the whole document, as a load and not an edit: the session is
    /// then unmodified and named `file` (empty: untitled).  False when `fill` fails.
    bool load(const std::function<bool()>& fill, const QString& file, bool modified = false);
    /// Runs `open`, which puts a model, a GGUF file or attention maps into the document, as
    /// opening a file: a blank window (nothing loaded, nothing edited: the command line's
    /// `attnviz MODEL`) stays unmodified, with nothing to save on quit and no recovery copy; in
    /// a session or an example it is an edit like any other.
    void openInto(const std::function<void()>& open);
    /// What a session file keeps of the window: the tab and the splitter, and with
    /// `recovery` also the session's file and its unsaved-changes flag (recovery copies).
    SessionExtras extras(bool recovery = false) const;
    /// Continues the session of `other` (a window rebuilt in another language).
    void takeOver(const SessionFiles& other);

  signals:
    /// The file name or the unsaved-changes flag changed.
    void titleChanged();
    /// A load finished (a session, a new one, an example, a recovery copy): the document is
    /// another piece of work, with a history of its own.
    void loaded();

  private:
    void updateRecentMenu();
    void applyExtras(const SessionExtras& extras);

    MainWindow* window_;
    AttentionDocument* doc_;
    AppSettings* settings_;
    QSplitter* splitter_;
    QMenu* recent_menu_ = nullptr;
    QString file_;
    bool modified_ = false;
    bool loading_ = false;
    /// Nothing loaded yet (no session, example or recovery copy) and nothing edited: a
    /// model opened into it is what the window shows, not unsaved work (openInto).
    bool blank_ = true;
    bool confirm_ = true;
};

}  // namespace attnviz::ui
