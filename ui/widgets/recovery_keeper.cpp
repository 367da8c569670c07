#include "ui/widgets/recovery_keeper.h"

#include <QDate>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>

#include "ui/document/attention_document.h"
#include "ui/widgets/language_switcher.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/memory_guard.h"

namespace attnviz::ui {

namespace {
QString shortened(const QString& text) {
    constexpr int kShown = 60;
    const QString simple = text.simplified();
    return simple.size() > kShown ? simple.left(kShown - 1) + QChar(0x2026) : simple;
}
}  // namespace

RecoveryKeeper::RecoveryKeeper(LanguageSwitcher* switcher, const QString& directory,
                               QObject* parent)
    : QObject(parent), switcher_(switcher), store_(directory) {
    timer_ = new QTimer(this);
    timer_->setSingleShot(true);
    timer_->setInterval(kSaveDelayMs);
    connect(timer_, &QTimer::timeout, this, &RecoveryKeeper::saveNow);
    QString error;
    if (!store_.open(&error))
        std::fprintf(stderr, "attnviz: no recovery copy: %s\n", error.toLocal8Bit().constData());
    bind(switcher_->window());
    connect(switcher_, &LanguageSwitcher::windowReplaced, this, &RecoveryKeeper::bind);
    QTimer::singleShot(0, this, &RecoveryKeeper::offer);
}

RecoveryKeeper::~RecoveryKeeper() {
    store_.close();
    // An offer left unanswered releases its claim: the copy is offered again next time.
    offered_ = {};
}

void RecoveryKeeper::bind(MainWindow* window) {
    for (const QMetaObject::Connection& c : connections_)
        disconnect(c);
    connections_.clear();
    window_ = window;
    if (!window) return;
    // Not restarted by each change: continuous typing still writes every kSaveDelayMs.
    auto later = [this] {
        if (!timer_->isActive()) timer_->start();
    };
    connections_ << connect(window->document(), &AttentionDocument::settingsChanged, this, later)
                 << connect(window, &MainWindow::sessionChanged, this, later)
                 << connect(window->memoryGuard(), &MemoryGuard::longComputationStarting, this,
                            [this] { saveNow(); });
}

void RecoveryKeeper::saveNow() {
    timer_->stop();
    if (!window_ || !store_.isOpen()) return;
    if (!window_->hasUnsavedChanges()) {
        store_.removeCopy();
        emit saved(false);
        return;
    }
    QString error;
    if (!store_.write(*window_->document(), window_->recoveryExtras(), &error)) {
        window_->statusBar()->showMessage(error, 8000);
        return;
    }
    emit saved(true);
}

QString RecoveryKeeper::describe(const AttentionDocument& doc) {
    const ComputeConfig& c = doc.computeConfig();
    QStringList parts;
    if (c.use_token_list)
        parts << tr("the tokens “%1”").arg(shortened(c.token_list_a));
    else
        parts << tr("the text “%1”").arg(shortened(c.text_a));
    if (c.pair_mode != PairMode::Single)
        parts << tr("the second text “%1”")
                     .arg(shortened(c.use_token_list ? c.token_list_b : c.text_b));
    parts << (c.usesModel() ? tr("the model %1").arg(QFileInfo(c.model_folder).fileName())
                            : tr("the demo layer (%n head(s))", nullptr, c.num_heads));
    if (!c.masked_keys.empty()) parts << tr("%n masked key(s)", nullptr, int(c.masked_keys.size()));
    if (!doc.compare().changes.empty()) {
        const QStringList b = compare_labels(compared_config(c, doc.compare().changes), c);
        parts << (b.isEmpty() ? tr("a comparison")
                              : tr("a comparison (%1)").arg(b.join(QStringLiteral(", "))));
    }
    return parts.join(tr(", "));
}

void RecoveryKeeper::offer() {
    if (!window_) return;
    QList<RecoveredCopy> copies = store_.claimStaleCopies();
    if (copies.isEmpty()) return;
    // The newest; older ones are released and offered at a later start.
    for (qsizetype k = 1; k < copies.size(); ++k)
        copies[k].lock->unlock();
    offered_ = copies.front();
    AttentionDocument held;
    QString error;
    if (!load_session(offered_.path, &held, nullptr, &error)) {
        // Not a session (cut short before QSaveFile existed, or from a newer AttnViz): a
        // copy nothing can restore is only in the way.
        std::fprintf(stderr, "attnviz: removing an unreadable recovery copy: %s\n",
                     error.toLocal8Bit().constData());
        RecoveryStore::remove(offered_);
        offered_ = {};
        return;
    }
    // Today's time, or the date and time of an older day.
    const QLocale locale;
    const QString when = offered_.saved.date() == QDate::currentDate()
                             ? locale.toString(offered_.saved.time(), QLocale::ShortFormat)
                             : locale.toString(offered_.saved, QLocale::ShortFormat);
    auto* box = new QMessageBox(
        QMessageBox::Question, tr("Restore Unsaved Work"),
        tr("AttnViz did not close properly. Restore the work saved at %1?").arg(when),
        QMessageBox::NoButton, window_);
    box->setObjectName(QStringLiteral("recoveryDialog"));
    box->setInformativeText(tr("It holds: %1.").arg(describe(held)));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    QPushButton* restore = box->addButton(tr("&Restore"), QMessageBox::AcceptRole);
    restore->setObjectName(QStringLiteral("restoreButton"));
    QPushButton* discard = box->addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    discard->setObjectName(QStringLiteral("discardButton"));
    box->setDefaultButton(restore);
    box->setEscapeButton(discard);
    connect(restore, &QPushButton::clicked, this, [this] { answer(true); });
    connect(discard, &QPushButton::clicked, this, [this] { answer(false); });
    offer_ = box;
    box->open();
}

void RecoveryKeeper::answer(bool restore) {
    if (offered_.path.isEmpty()) return;
    if (restore && window_ && window_->restoreSession(offered_.path)) {
        // The work is this instance's now: its copy takes over from the old one, which stays
        // (claimed) until then, in case the restored work's first pass is what kills the
        // app.  After the load's own signals, so the copy holds the restored work.
        QTimer::singleShot(0, this, [this] {
            saveNow();
            RecoveryStore::remove(offered_);
            offered_ = {};
        });
        return;
    }
    // Discarded; or not restorable, and then kept for a later start.
    if (!restore) RecoveryStore::remove(offered_);
    offered_ = {};
}

}  // namespace attnviz::ui
