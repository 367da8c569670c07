#include "ui/widgets/session_files.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonValue>
#include <QMenu>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>

#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"

namespace attnviz::ui {

SessionFiles::SessionFiles(MainWindow* window, AttentionDocument* document, AppSettings* settings,
                           QSplitter* splitter)
    : QObject(window), window_(window), doc_(document), settings_(settings), splitter_(splitter) {
    // Every edit of the user's input counts, except while a load fills the document; looking
    // around (a head, a step, a layer) does not ask to be saved.  edited() comes first in its
    // event-loop turn: the computation computeConfigChanged starts already sees the edit (a
    // recovery copy written before a long pass must hold it).
    connect(doc_, &AttentionDocument::edited, this, [this] {
        if (loading_ || modified_) return;
        modified_ = true;
        emit titleChanged();
    });
}

void SessionFiles::setRecentMenu(QMenu* menu) {
    recent_menu_ = menu;
    updateRecentMenu();
}

void SessionFiles::updateRecentMenu() {
    if (!recent_menu_) return;
    recent_menu_->clear();
    const QStringList files = settings_->recentFiles();
    for (const QString& path : files) {
        QAction* a = recent_menu_->addAction(QFileInfo(path).fileName());
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (maybeSave()) openSession(path);
        });
    }
    if (!files.isEmpty()) {
        recent_menu_->addSeparator();
        recent_menu_->addAction(tr("Clear List"), this, [this] {
            settings_->clearRecentFiles();
            updateRecentMenu();
        });
    }
    recent_menu_->setEnabled(!files.isEmpty());
}

bool SessionFiles::maybeSave() {
    if (!modified_ || !confirm_) return true;
    const auto answer = QMessageBox::question(
        window_, tr("Unsaved changes"), tr("Save the changes to this session first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) return save();
    return true;
}

bool SessionFiles::load(const std::function<bool()>& fill, const QString& file, bool modified) {
    loading_ = true;
    if (!fill()) {
        loading_ = false;
        return false;
    }
    file_ = file;
    blank_ = false;  // a session or an example: its own setup, which a model would change
    // The document's change signals are coalesced to the next event-loop turn; the session
    // is unmodified once they have been delivered.
    QTimer::singleShot(0, this, [this, modified] {
        loading_ = false;
        modified_ = modified;
        emit titleChanged();
        emit loaded();
    });
    emit titleChanged();
    return true;
}

void SessionFiles::openInto(const std::function<void()>& open) {
    if (!blank_ || !file_.isEmpty() || modified_ || loading_) {
        open();
        return;
    }
    loading_ = true;
    open();
    // After the document's coalesced change signals, which open() has just queued.
    QTimer::singleShot(0, this, [this] { loading_ = false; });
}

void SessionFiles::takeOver(const SessionFiles& other) {
    file_ = other.file_;
    modified_ = other.modified_;
    blank_ = other.blank_;
    confirm_ = other.confirm_;
    emit titleChanged();
}

void SessionFiles::newSession() {
    window_->views()->hideExplanation();
    load(
        [this] {
            doc_->resetToDefaults();
            doc_->setColormap(settings_->defaultColormap());
            return true;
        },
        QString());
}

void SessionFiles::openDialog() {
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Open Session"), window_->dialogDirectory(),
        tr("AttnViz sessions (*.%1);;All files (*)").arg(QLatin1String(kSessionSuffix)));
    // A model picked here (a .gguf under "All files") opens as a model, as when dropped.
    if (!path.isEmpty()) window_->openPath(path);
}

bool SessionFiles::openSession(const QString& path) {
    QString error;
    SessionExtras extras;
    if (!load([&] { return load_session(path, doc_, &extras, &error); },
              QFileInfo(path).absoluteFilePath())) {
        settings_->removeRecentFile(path);
        updateRecentMenu();
        window_->showError(tr("Cannot open session"), error);
        return false;
    }
    applyExtras(extras);
    settings_->addRecentFile(file_);
    window_->rememberDirectory(file_);
    updateRecentMenu();
    window_->statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool SessionFiles::restoreSession(const QString& path) {
    QString error;
    SessionExtras extras;
    // The copy names the session's file; load() takes it once the copy has been read.  A
    // copy is only ever written of unsaved work, so the restored session is modified.
    QString file;
    if (!load(
            [&] {
                if (!load_session(path, doc_, &extras, &error)) return false;
                file = extras.window.value(QStringLiteral("file")).toString();
                return true;
            },
            file, true)) {
        window_->showError(tr("Cannot restore the work"), error);
        return false;
    }
    applyExtras(extras);
    return true;
}

void SessionFiles::applyExtras(const SessionExtras& extras) {
    ViewTabs* views = window_->views();
    views->hideExplanation();
    ViewTabs::Tab tab = ViewTabs::GridTab;
    if (ViewTabs::tabFromName(extras.window.value(QStringLiteral("tab")).toString(), &tab))
        views->setCurrentTab(tab);
    const QJsonValue splitter = extras.window.value(QStringLiteral("splitter"));
    if (splitter.isString())
        splitter_->restoreState(QByteArray::fromBase64(splitter.toString().toLatin1()));
}

SessionExtras SessionFiles::extras(bool recovery) const {
    SessionExtras extras;
    extras.window[QStringLiteral("tab")] = ViewTabs::tabName(window_->views()->currentTab());
    extras.window[QStringLiteral("splitter")] =
        QString::fromLatin1(splitter_->saveState().toBase64());
    if (recovery) {
        extras.window[QStringLiteral("file")] = file_;
        extras.window[QStringLiteral("modified")] = modified_;
    }
    return extras;
}

bool SessionFiles::saveSessionTo(const QString& path) {
    QString error;
    if (!save_session(path, *doc_, extras(), &error)) {
        window_->showError(tr("Cannot save session"), error);
        return false;
    }
    file_ = QFileInfo(path).absoluteFilePath();
    modified_ = false;
    settings_->addRecentFile(file_);
    window_->rememberDirectory(file_);
    updateRecentMenu();
    emit titleChanged();
    window_->statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool SessionFiles::save() {
    return file_.isEmpty() ? saveAs() : saveSessionTo(file_);
}

bool SessionFiles::saveAs() {
    QString path = QFileDialog::getSaveFileName(
        window_, tr("Save Session"),
        file_.isEmpty() ? window_->dialogDirectory() + QStringLiteral("/attention.attnviz") : file_,
        tr("AttnViz sessions (*.%1)").arg(QLatin1String(kSessionSuffix)));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + QLatin1String(kSessionSuffix);
    return saveSessionTo(path);
}

}  // namespace attnviz::ui
