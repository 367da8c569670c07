// Recovery copies: what the open document holds, kept in the app's data folder so that a
// killed app (the OOM killer, a power cut, a driver's crash) loses nothing.  A copy is an
// ordinary .attnviz session (session.h), written atomically, one per running instance:
//
//   <AppDataLocation>/recovery/<pid>-<start ms>.attnviz        the copy
//   <AppDataLocation>/recovery/<pid>-<start ms>.attnviz.lock   a QLockFile held while running
//
// A copy whose lock no running process holds was left by an instance that died; the next
// launch claims it (takes its lock, so that two instances never offer the same one) and
// offers to restore it.  A clean exit removes the instance's copy and its lock.
#pragma once

#include <QDateTime>
#include <QList>
#include <QLockFile>
#include <QString>

#include <memory>

#include "ui/document/session.h"

namespace attnviz::ui {

class AttentionDocument;

/// A copy left by an instance that is no longer running, locked by the one that claimed it.
struct RecoveredCopy {
    QString path;
    QDateTime saved;  ///< when it was last written
    std::shared_ptr<QLockFile> lock;
};

class RecoveryStore {
  public:
    /// The copies of `directory` (created when needed).
    explicit RecoveryStore(QString directory = defaultDirectory());
    /// Leaves the copy where it is: only close() (a clean exit) removes it.
    ~RecoveryStore();
    RecoveryStore(const RecoveryStore&) = delete;
    RecoveryStore& operator=(const RecoveryStore&) = delete;

    /// <AppDataLocation>/recovery.
    static QString defaultDirectory();
    QString directory() const { return dir_; }

    /// Takes this instance's copy name and holds its lock.  False with a message when the
    /// folder cannot be written.
    bool open(QString* error);
    bool isOpen() const { return lock_ != nullptr; }
    /// This instance's copy (after open()).
    QString copyPath() const { return copy_; }

    /// Writes the document (as a session, atomically) to this instance's copy.
    bool write(const AttentionDocument& document, const SessionExtras& extras, QString* error);
    /// Removes this instance's copy (there is nothing unsaved to keep); the lock stays.
    void removeCopy();
    /// A clean exit: removes this instance's copy and its lock.
    void close();

    /// Claims every copy whose owner is no longer running (their locks are now held by the
    /// caller), newest first.  Copies of running instances, including this one, are left.
    QList<RecoveredCopy> claimStaleCopies() const;
    /// Removes a claimed copy and its lock (restored or discarded).
    static void remove(const RecoveredCopy& copy);

  private:
    QString dir_;
    QString copy_;
    std::unique_ptr<QLockFile> lock_;
};

}  // namespace attnviz::ui
