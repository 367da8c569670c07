#include "ui/document/recovery.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

#include "ui/document/attention_document.h"

namespace attnviz::ui {

namespace {
struct RecoveryText {
    Q_DECLARE_TR_FUNCTIONS(Recovery)
};

QString lock_path(const QString& copy) {
    return copy + QStringLiteral(".lock");
}

/// A lock that is never taken over by age: a running instance keeps its copy however long it
/// runs; only a dead owner (QLockFile checks its pid, host and program) makes a lock stale.
std::unique_ptr<QLockFile> try_lock(const QString& copy) {
    auto lock = std::make_unique<QLockFile>(lock_path(copy));
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0)) return nullptr;
    return lock;
}
}  // namespace

RecoveryStore::RecoveryStore(QString directory) : dir_(std::move(directory)) {}

RecoveryStore::~RecoveryStore() = default;

QString RecoveryStore::defaultDirectory() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/recovery");
}

bool RecoveryStore::open(QString* error) {
    if (lock_) return true;
    if (!QDir().mkpath(dir_)) {
        *error = RecoveryText::tr("Cannot create the folder '%1'.").arg(dir_);
        return false;
    }
    // The pid alone may come back after a reboot; with the start time two instances never
    // share a name (a second store of one process, in tests, counts on).
    const QString stem = QDir(dir_).filePath(QStringLiteral("%1-%2")
                                                 .arg(QCoreApplication::applicationPid())
                                                 .arg(QDateTime::currentMSecsSinceEpoch()));
    QString copy;
    for (int n = 0; !lock_ && n < 100; ++n) {
        copy = (n == 0 ? stem : stem + QStringLiteral("-%1").arg(n)) + QLatin1Char('.') +
               QLatin1String(kSessionSuffix);
        if (!QFileInfo::exists(lock_path(copy))) lock_ = try_lock(copy);
    }
    if (!lock_) {
        *error = RecoveryText::tr("Cannot lock '%1'.").arg(lock_path(copy));
        return false;
    }
    copy_ = copy;
    return true;
}

bool RecoveryStore::write(const AttentionDocument& document, const SessionExtras& extras,
                          QString* error) {
    if (!lock_ && !open(error)) return false;
    return save_session(copy_, document, extras, error);
}

void RecoveryStore::removeCopy() {
    if (!copy_.isEmpty()) QFile::remove(copy_);
}

void RecoveryStore::close() {
    removeCopy();
    if (lock_) lock_->unlock();  // removes the lock file
    lock_.reset();
}

QList<RecoveredCopy> RecoveryStore::claimStaleCopies() const {
    QList<RecoveredCopy> copies;
    const QFileInfoList files = QDir(dir_).entryInfoList(
        {QStringLiteral("*.") + QLatin1String(kSessionSuffix)}, QDir::Files, QDir::Time);
    for (const QFileInfo& file : files) {
        const QString path = file.absoluteFilePath();
        if (path == QFileInfo(copy_).absoluteFilePath()) continue;
        std::unique_ptr<QLockFile> lock = try_lock(path);
        if (!lock) continue;  // its instance is running
        copies.append(RecoveredCopy{path, file.lastModified(), std::move(lock)});
    }
    // A lock without a copy: an instance that died with nothing unsaved.
    const QString lock_suffix = QStringLiteral(".lock");
    const QFileInfoList locks = QDir(dir_).entryInfoList(
        {QStringLiteral("*.") + QLatin1String(kSessionSuffix) + lock_suffix}, QDir::Files);
    for (const QFileInfo& file : locks) {
        const QString copy = file.absoluteFilePath().chopped(lock_suffix.size());
        if (QFileInfo::exists(copy)) continue;
        if (std::unique_ptr<QLockFile> lock = try_lock(copy)) lock->unlock();
    }
    return copies;  // newest first: QDir::Time
}

void RecoveryStore::remove(const RecoveredCopy& copy) {
    QFile::remove(copy.path);
    if (copy.lock) copy.lock->unlock();
}

}  // namespace attnviz::ui
