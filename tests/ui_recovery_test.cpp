// Nothing lost when the app dies (issue 26): the recovery store (one copy per running
// instance, written atomically, stale once its owner is dead, removed by a clean exit), the
// keeper in a real window (written after a change and before a long pass, one copy through a
// language switch), and the real attnviz binary killed with SIGKILL, then the offer and the
// restored work.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

#include "file_support.h"
#include "test_support.h"
#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/document/recovery.h"
#include "ui/document/shipped_models.h"
#include "ui/entry.h"
#include "ui/i18n/language.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/language_switcher.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/memory_guard.h"
#include "ui/widgets/recovery_keeper.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

QStringList files_in(const QString& dir) {
    return QDir(dir).entryList(QDir::Files, QDir::Name);
}

/// The session a copy holds, or an empty object.
QJsonObject read_copy(const QString& path) {
    return QJsonDocument::fromJson(test::read_all(path)).object();
}

QString text_a_of(const QString& path) {
    return read_copy(path)
        .value(QStringLiteral("document"))
        .toObject()
        .value(QStringLiteral("input"))
        .toObject()
        .value(QStringLiteral("text_a"))
        .toString();
}

/// Gives `copy` the lock a dead instance leaves behind: a QLockFile's own format, naming
/// the pid of a process that has ended (QLockFile then finds its owner gone, as after
/// SIGKILL).  Call it once the store that wrote `copy` is gone.
void orphan_lock(const QString& copy, const QString& scratch) {
    QProcess done;
    done.start(QStringLiteral("true"), {});
    QVERIFY(done.waitForStarted(10000));
    const qint64 dead_pid = done.processId();
    QVERIFY(done.waitForFinished(10000));
    QVERIFY(dead_pid > 0);
    QByteArray bytes;
    {
        QLockFile probe(scratch + QStringLiteral("/probe.lock"));
        QVERIFY(probe.tryLock(0));
        bytes = test::read_all(scratch + QStringLiteral("/probe.lock"));
    }
    QVERIFY(bytes.startsWith(QByteArray::number(QCoreApplication::applicationPid()) + '\n'));
    bytes = QByteArray::number(dead_pid) + bytes.mid(bytes.indexOf('\n'));
    QFile f(copy + QStringLiteral(".lock"));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), qint64(bytes.size()));
}

}  // namespace

class RecoveryTest : public test::WindowFixture {
    Q_OBJECT
  private slots:
    void initTestCase();
    void cleanup() { closeWindow(); }
    void storeWritesOneSessionPerInstance();
    void staleOnlyWhenTheOwnerIsDead();
    void cleanExitRemovesTheCopy();
    void keeperWritesAfterChangesAndBeforeLongPasses();
    void longPassesAreThoseNearTheBudget();
    void languageSwitchKeepsOneCopy();
    void offerRestoresAndDiscardRemoves();
    void killedAppIsOfferedAtTheNextLaunch();

  private:
    QTemporaryDir tmp_;
};

void RecoveryTest::initTestCase() {
    QVERIFY(tmp_.isValid());
    set_application_identity();
}

void RecoveryTest::storeWritesOneSessionPerInstance() {
    const QString dir = tmp_.filePath(QStringLiteral("store"));
    RecoveryStore a(dir), b(dir);
    QString error;
    QVERIFY2(a.open(&error), qPrintable(error));
    QVERIFY2(b.open(&error), qPrintable(error));
    QVERIFY(a.copyPath() != b.copyPath());
    AttentionDocument doc;
    doc.setTextA(QStringLiteral("first instance"));
    QVERIFY2(a.write(doc, {}, &error), qPrintable(error));
    doc.setTextA(QStringLiteral("second instance"));
    QVERIFY2(b.write(doc, {}, &error), qPrintable(error));
    // Each copy is a whole session of its own instance's document.
    AttentionDocument back;
    QVERIFY2(load_session(a.copyPath(), &back, nullptr, &error), qPrintable(error));
    QCOMPARE(back.textA(), QStringLiteral("first instance"));
    QVERIFY2(load_session(b.copyPath(), &back, nullptr, &error), qPrintable(error));
    QCOMPARE(back.textA(), QStringLiteral("second instance"));
    // Written atomically: only the copies and their locks, no temporary left behind.
    QCOMPARE(files_in(dir).size(), qsizetype(4));
    // Running instances never offer each other's copies.
    QVERIFY(a.claimStaleCopies().isEmpty());
    QVERIFY(b.claimStaleCopies().isEmpty());
    a.close();
    b.close();
}

void RecoveryTest::staleOnlyWhenTheOwnerIsDead() {
    const QString dir = tmp_.filePath(QStringLiteral("stale"));
    QString error;
    auto dead = std::make_unique<RecoveryStore>(dir);
    QVERIFY(dead->open(&error));
    AttentionDocument doc;
    doc.setTextA(QStringLiteral("lost work"));
    QVERIFY(dead->write(doc, {}, &error));
    const QString copy = dead->copyPath();
    dead.reset();  // no clean exit: the copy stays
    QVERIFY(QFileInfo::exists(copy));
    orphan_lock(copy, tmp_.path());
    QVERIFY(QFileInfo::exists(copy + QStringLiteral(".lock")));

    RecoveryStore next(dir), other(dir);
    QVERIFY(next.open(&error));
    QVERIFY(other.open(&error));
    {
        const QList<RecoveredCopy> claimed = next.claimStaleCopies();
        QCOMPARE(claimed.size(), qsizetype(1));
        QCOMPARE(QFileInfo(claimed.front().path).absoluteFilePath(),
                 QFileInfo(copy).absoluteFilePath());
        // Claimed: a second instance starting meanwhile does not offer it too.
        QVERIFY(other.claimStaleCopies().isEmpty());
    }
    // Released unanswered: offered again.
    const QList<RecoveredCopy> again = other.claimStaleCopies();
    QCOMPARE(again.size(), qsizetype(1));
    RecoveryStore::remove(again.front());
    QVERIFY(!QFileInfo::exists(copy));
    QVERIFY(!QFileInfo::exists(copy + QStringLiteral(".lock")));
    // A dead instance that had nothing unsaved leaves only its lock: the next start clears it.
    {
        RecoveryStore quiet(dir);
        QVERIFY(quiet.open(&error));
        AttentionDocument empty;
        QVERIFY(quiet.write(empty, {}, &error));
        const QString quiet_copy = quiet.copyPath();
        quiet.removeCopy();
        QFile::remove(quiet_copy + QStringLiteral(".lock"));  // the store lets go below
        orphan_lock(quiet_copy, tmp_.path());
        QVERIFY(next.claimStaleCopies().isEmpty());
        QVERIFY(!QFileInfo::exists(quiet_copy + QStringLiteral(".lock")));
    }
    next.close();
    other.close();
    QCOMPARE(files_in(dir), QStringList());
}

void RecoveryTest::cleanExitRemovesTheCopy() {
    const QString dir = tmp_.filePath(QStringLiteral("clean"));
    QString error;
    RecoveryStore store(dir);
    QVERIFY(store.open(&error));
    AttentionDocument doc;
    QVERIFY(store.write(doc, {}, &error));
    QCOMPARE(files_in(dir).size(), qsizetype(2));
    store.removeCopy();  // nothing unsaved: the copy goes, the instance keeps its name
    QCOMPARE(files_in(dir).size(), qsizetype(1));
    QVERIFY(store.write(doc, {}, &error));
    store.close();
    QCOMPARE(files_in(dir), QStringList());
}

void RecoveryTest::keeperWritesAfterChangesAndBeforeLongPasses() {
    const QString dir = tmp_.filePath(QStringLiteral("keeper"));
    MainWindow* w =
        startSwitcher(QStringLiteral("en"), {tmp_.filePath(QStringLiteral("keeper.ini"))});
    auto keeper = std::make_unique<RecoveryKeeper>(switcher_.get(), dir);
    const QString copy = keeper->store().copyPath();
    QVERIFY(!copy.isEmpty());
    QTest::qWait(1);
    QVERIFY(!QFileInfo::exists(copy));  // nothing unsaved yet

    // A few seconds after a change.
    w->document()->setTextA(QStringLiteral("typed before the crash"));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(copy), 4 * RecoveryKeeper::kSaveDelayMs);
    QCOMPARE(text_a_of(copy), QStringLiteral("typed before the crash"));

    // Before a long computation: written before beforeLongComputation() returns.
    w->document()->setTextA(QStringLiteral("typed just before a long pass"));
    QTest::qWait(1);  // the document's coalesced signals
    QCOMPARE(text_a_of(copy), QStringLiteral("typed before the crash"));
    w->memoryGuard()->beforeLongComputation(MemoryGuard::LongComputation::PatchingSweep);
    QCOMPARE(text_a_of(copy), QStringLiteral("typed just before a long pass"));
    // The copy remembers the session's state for the restore.
    const QJsonObject window = read_copy(copy).value(QStringLiteral("window")).toObject();
    QCOMPARE(window.value(QStringLiteral("modified")).toBool(), true);

    // Saved: nothing is unsaved, so no copy.
    QVERIFY(w->saveSessionTo(tmp_.filePath(QStringLiteral("saved.attnviz"))));
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(copy), 4 * RecoveryKeeper::kSaveDelayMs);
    keeper.reset();  // a clean exit
    QCOMPARE(files_in(dir), QStringList());
}

void RecoveryTest::longPassesAreThoseNearTheBudget() {
    makeWindow({tmp_.filePath(QStringLiteral("long.ini"))});
    MemoryGuard* guard = w_->memoryGuard();
    ComputeConfig c = w_->document()->computeConfig();
    c.model_folder.clear();
    c.text_a = QStringLiteral("a short sentence");
    // The demo layer: its estimate (at least the figure's 8 MiB) against a quarter of the
    // budget.
    settings_->setMemoryBudget(QStringLiteral("1G"));
    guard->reloadBudget();
    QVERIFY(!guard->isLongPass(c));
    settings_->setMemoryBudget(QStringLiteral("16M"));
    guard->reloadBudget();
    QVERIFY(guard->isLongPass(c));
    // A model never run yet reads all its weights: long whatever the budget.
    c.model_folder = tmp_.filePath(QStringLiteral("some-model"));
    settings_->setMemoryBudget(QStringLiteral("1G"));
    guard->reloadBudget();
    QVERIFY(guard->isLongPass(c));
    // Each long pass the window starts is announced before the request.
    QSignalSpy announced(guard, &MemoryGuard::longComputationStarting);
    settings_->setMemoryBudget(QStringLiteral("16M"));
    guard->reloadBudget();  // the same configuration again, over a new budget
    w_->document()->setTextA(QStringLiteral("another short sentence"));
    QTRY_VERIFY(announced.size() >= 1);
}

void RecoveryTest::languageSwitchKeepsOneCopy() {
    const QString dir = tmp_.filePath(QStringLiteral("language"));
    startSwitcher(QStringLiteral("en"), {tmp_.filePath(QStringLiteral("language.ini"))});
    RecoveryKeeper keeper(switcher_.get(), dir);
    const QString copy = keeper.store().copyPath();
    switcher_->window()->document()->setTextA(QStringLiteral("before the switch"));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(copy), 4 * RecoveryKeeper::kSaveDelayMs);
    MainWindow* old = switcher_->window();
    switcher_->setLanguagePreference(QStringLiteral("zh_CN"));
    QVERIFY(switcher_->window() != old);
    switcher_->window()->setConfirmOnClose(false);
    // The rebuilt window's changes go to the same copy: one copy, one lock.
    switcher_->window()->document()->setTextA(QStringLiteral("after the switch"));
    QTRY_COMPARE_WITH_TIMEOUT(text_a_of(copy), QStringLiteral("after the switch"),
                              4 * RecoveryKeeper::kSaveDelayMs);
    QCOMPARE(files_in(dir).size(), qsizetype(2));
    switcher_->window()->memoryGuard()->beforeLongComputation(
        MemoryGuard::LongComputation::Generation);
    QCOMPARE(files_in(dir).size(), qsizetype(2));
    switcher_->setLanguagePreference(QStringLiteral("en"));
}

void RecoveryTest::offerRestoresAndDiscardRemoves() {
    const QString dir = tmp_.filePath(QStringLiteral("offer"));
    QString error;
    // Two crashed runs: the newest is offered first.
    QStringList copies;
    for (const char* text : {"older work", "newer work"}) {
        QString copy;
        {
            RecoveryStore crashed(dir);
            QVERIFY(crashed.open(&error));
            AttentionDocument doc;
            doc.setTextA(QLatin1String(text));
            CompareChanges causal;
            causal.causal = true;
            doc.setCompareChanges(causal);
            doc.toggleMaskedKey(0, 1);
            SessionExtras extras;
            extras.window[QStringLiteral("modified")] = true;
            extras.window[QStringLiteral("file")] = tmp_.filePath(QStringLiteral("lesson.attnviz"));
            QVERIFY(crashed.write(doc, extras, &error));
            copy = crashed.copyPath();
        }
        orphan_lock(copy, tmp_.path());
        copies << copy;
        // The newer one a minute later.
        QFile f(copy);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(copies.size() * 60),
                              QFileDevice::FileModificationTime));
    }

    startSwitcher(QStringLiteral("en"), {tmp_.filePath(QStringLiteral("offer.ini"))});
    {
        RecoveryKeeper keeper(switcher_.get(), dir);
        QTRY_VERIFY(keeper.offerDialog());
        QMessageBox* box = keeper.offerDialog();
        QCOMPARE(box->objectName(), QStringLiteral("recoveryDialog"));
        QVERIFY2(box->text().contains(QStringLiteral("did not close properly")),
                 qPrintable(box->text()));
        const QString holds = box->informativeText();
        QVERIFY2(holds.contains(QStringLiteral("“newer work”")), qPrintable(holds));
        QVERIFY2(holds.contains(QStringLiteral("1 masked key")), qPrintable(holds));
        QVERIFY2(holds.contains(QStringLiteral("a comparison (causal mask)")), qPrintable(holds));
        box->findChild<QPushButton*>(QStringLiteral("restoreButton"))->click();
        MainWindow* w = switcher_->window();
        QTRY_COMPARE(w->document()->textA(), QStringLiteral("newer work"));
        QCOMPARE(w->document()->compare().changes.causal, std::optional<bool>(true));
        QVERIFY(w->document()->isKeyMasked(0, 1));
        // Unsaved work of the session it continued.
        QCOMPARE(w->currentFile(), tmp_.filePath(QStringLiteral("lesson.attnviz")));
        QTRY_VERIFY(w->hasUnsavedChanges());
        QVERIFY(!QFileInfo::exists(copies[1]));
        // The work is this instance's copy now; the older one waits for the next start.
        QTRY_VERIFY(QFileInfo::exists(keeper.store().copyPath()));
        QCOMPARE(text_a_of(keeper.store().copyPath()), QStringLiteral("newer work"));
        QVERIFY(QFileInfo::exists(copies[0]));
    }
    // The next start: the older copy, discarded.
    {
        RecoveryKeeper keeper(switcher_.get(), dir);
        QTRY_VERIFY(keeper.offerDialog());
        QVERIFY(keeper.offerDialog()->informativeText().contains(QStringLiteral("older work")));
        keeper.offerDialog()->findChild<QPushButton*>(QStringLiteral("discardButton"))->click();
        QVERIFY(!QFileInfo::exists(copies[0]));
    }
    QCOMPARE(files_in(dir), QStringList());
}

void RecoveryTest::killedAppIsOfferedAtTheNextLaunch() {
    const QString cli = qEnvironmentVariable("ATTNVIZ_CLI");
    QVERIFY2(QFileInfo(cli).isExecutable(), "ATTNVIZ_CLI names no attnviz binary (run by ctest)");
    const QString model = shipped_model(QStringLiteral("attn-only-2l"));
    QVERIFY2(!model.isEmpty(), "no share/attnviz/models beside the test");
    // The app's own folders, apart from the user's.
    const QString home = tmp_.filePath(QStringLiteral("home"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("ATTNVIZ_LANG"), QStringLiteral("en"));
    // The edits: a comparison example, then the model given on the command line (opening a
    // model is an edit of the example's untitled session).
    env.insert(QStringLiteral("ATTNVIZ_EXAMPLE"), QStringLiteral("compare_causal"));
    const QString dir = home + QStringLiteral("/data/AttnViz/AttnViz/recovery");

    QProcess app;
    app.setProcessEnvironment(env);
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    app.start(cli, {model});
    QVERIFY2(app.waitForStarted(30000), qPrintable(app.errorString()));
    // The copy appears, holding the edits.
    QString copy;
    QVERIFY(QTest::qWaitFor(
        [&] {
            const QStringList names =
                QDir(dir).entryList({QStringLiteral("*.attnviz")}, QDir::Files);
            if (names.size() != 1) return false;
            copy = QDir(dir).filePath(names.front());
            const QJsonObject doc = read_copy(copy).value(QStringLiteral("document")).toObject();
            return doc.value(QStringLiteral("source"))
                       .toObject()
                       .value(QStringLiteral("model_folder"))
                       .toString() == model;
        },
        120000));
    QVERIFY(copy.contains(QString::number(app.processId())));
    QCOMPARE(text_a_of(copy), QStringLiteral("The cat sat on the mat because it was tired"));
    ::kill(pid_t(app.processId()), SIGKILL);
    QVERIFY(app.waitForFinished(30000));
    QCOMPARE(app.exitStatus(), QProcess::CrashExit);
    QVERIFY(QFileInfo::exists(copy));

    // The next launch, on the same data folder (this process's own: its environment now
    // names it, as the app's did).
    qputenv("XDG_DATA_HOME", (home + QStringLiteral("/data")).toLocal8Bit());
    QCOMPARE(RecoveryStore::defaultDirectory(), dir);
    startSwitcher(QStringLiteral("en"), {home + QStringLiteral("/next.ini")})->show();
    RecoveryKeeper keeper(switcher_.get());
    QTRY_VERIFY(keeper.offerDialog());
    const QString holds = keeper.offerDialog()->informativeText();
    QVERIFY2(holds.contains(QStringLiteral("the model attn-only-2l")), qPrintable(holds));
    QVERIFY2(holds.contains(QStringLiteral("“The cat sat on the mat because it was tired”")),
             qPrintable(holds));
    QVERIFY2(holds.contains(QStringLiteral("a comparison")), qPrintable(holds));
    keeper.offerDialog()->findChild<QPushButton*>(QStringLiteral("restoreButton"))->click();
    MainWindow* w = switcher_->window();
    QTRY_COMPARE(w->document()->computeConfig().model_folder, model);
    QCOMPARE(w->document()->textA(), QStringLiteral("The cat sat on the mat because it was tired"));
    QCOMPARE(w->document()->compare().changes.causal, std::optional<bool>(true));
    QTRY_VERIFY(w->hasUnsavedChanges());
    QVERIFY(!QFileInfo::exists(copy));
    // The restored work is safe again, in this instance's copy.
    QTRY_VERIFY(QFileInfo::exists(keeper.store().copyPath()));
    QTRY_VERIFY_WITH_TIMEOUT(!w->compute()->isBusy(), 60000);
    qunsetenv("XDG_DATA_HOME");
}

QTEST_MAIN(RecoveryTest)
#include "ui_recovery_test.moc"
