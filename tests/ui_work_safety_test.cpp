// Never lose work, proven on the real window: saving a session and every export write
// atomically, so a write that fails part way (a full disk, simulated with a file-size limit
// that even root cannot write past) leaves the previous file byte for byte and no temporary
// beside it; a failed save keeps the session modified and named as before; the window
// remembers unsaved changes and asks before closing, replacing or resetting them, and
// "Save" followed by a cancelled file dialog keeps the window open.
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

#include <signal.h>
#include <sys/resource.h>

#include "file_support.h"
#include "test_support.h"
#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/document/shipped_models.h"
#include "ui/render/figure_export.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/main_window.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::test::DialogAnswerer;
using attnviz::test::FileSizeLimit;
using attnviz::test::read_all;

namespace {

/// Clicks the standard button `which` of a message box.
std::function<void(QWidget*)> click(QMessageBox::StandardButton which) {
    return [which](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box) {
            w->close();
            return;
        }
        QAbstractButton* b = box->button(which);
        if (b)
            QTest::mouseClick(b, Qt::LeftButton);
        else
            box->reject();
    };
}

}  // namespace

class WorkSafetyTest : public test::WindowFixture {
    Q_OBJECT

  private:
    QTemporaryDir tmp_;

    /// A path in this test function's own folder (the settings live elsewhere).
    QString path(const QString& name) const {
        const QString dir = tmp_.filePath(QString::fromLatin1(QTest::currentTestFunction()));
        QDir().mkpath(dir);
        return dir + QLatin1Char('/') + name;
    }

    /// The window every test starts from: 1200×800, settled.
    void openSmallWindow() { openSettledWindow({{}, QSize(1200, 800), {}}); }
    /// A change through the real widget, as a user makes it.
    void changeSomething() {
        auto* causal = child<QCheckBox>("causalCheck");
        QVERIFY(causal);
        QTest::mouseClick(causal, Qt::LeftButton, {}, QPoint(8, causal->height() / 2));
        QTest::qWait(1);
    }
    void closeErrorDialog() {
        if (QMessageBox* box = w_->errorDialog()) box->close();
        QTest::qWait(1);
    }
    /// The file at `file` is exactly `before`, and the folder holds exactly `listing`.
    static void verifyIntact(const QString& file, const QByteArray& before,
                             const QStringList& listing) {
        QCOMPARE(read_all(file), before);
        QCOMPARE(test::entries(QFileInfo(file).absolutePath()), listing);
    }

  private slots:
    void initTestCase() {
        signal(SIGXFSZ, SIG_IGN);
        QVERIFY(tmp_.isValid());
    }
    void init() { openSmallWindow(); }
    void cleanup() { closeWindow(); }

    // --- atomic writes --------------------------------------------------------------------

    void aSaveThatFailsPartWayKeepsThePreviousSession() {
        const QString file = path(QStringLiteral("full-disk.attnviz"));
        QVERIFY(w_->saveSessionTo(file));
        const QByteArray before = read_all(file);
        QVERIFY(before.size() > 200);
        const QStringList listing =
            test::entries(QFileInfo(path(QStringLiteral("x"))).absolutePath());
        changeSomething();
        QVERIFY(w_->isWindowModified());
        {
            const FileSizeLimit limit(100);
            QVERIFY2(!w_->saveSessionTo(file), "a save past a full disk reported success");
        }
        verifyIntact(file, before, listing);
        QVERIFY(w_->errorDialog());
        QVERIFY2(w_->lastError().contains(QLatin1String("full-disk.attnviz")),
                 qPrintable(w_->lastError()));
        // Still modified: the change is not saved anywhere yet.
        QVERIFY(w_->isWindowModified());
        QCOMPARE(w_->currentFile(), QFileInfo(file).absoluteFilePath());
        closeErrorDialog();
        // With room again the same save goes through.
        QVERIFY(w_->saveSessionTo(file));
        QVERIFY(!w_->isWindowModified());
        AttentionDocument reread;
        QString error;
        QVERIFY2(load_session(file, &reread, nullptr, &error), qPrintable(error));
        QVERIFY(reread.causal());
    }

    void anExportThatFailsPartWayKeepsThePreviousFile_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"figure.png", "figure.svg", "figure.pdf", "weights.csv",
                              "weights.npy", "weights.json"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void anExportThatFailsPartWayKeepsThePreviousFile() {
        QFETCH(QString, name);
        const QString file = path(QStringLiteral("full-disk-") + name);
        const bool weights = name.startsWith(QLatin1String("weights"));
        const ExportSize size{480, 320, 1.0};
        auto write = [&] {
            return weights ? test::export_weights(*w_, file)
                           : test::export_figure(*w_, file, size, w_->currentFigureOptions());
        };
        QVERIFY(write());
        const QByteArray before = read_all(file);
        QVERIFY(before.size() > 200);
        const QStringList listing =
            test::entries(QFileInfo(path(QStringLiteral("x"))).absolutePath());
        changeSomething();  // so a successful write would change the file
        SETTLE(*w_);
        {
            const FileSizeLimit limit(100);
            QVERIFY2(!write(), "an export past a full disk reported success");
        }
        verifyIntact(file, before, listing);
        QVERIFY(w_->errorDialog());
        QVERIFY2(!w_->lastError().isEmpty(), "no message");
        closeErrorDialog();
        QVERIFY(write());
        QVERIFY(read_all(file) != before);
    }

    void aFolderOrAMissingFolderIsRefusedAndNothingChanges() {
        const QString folder = path(QStringLiteral("folder.attnviz"));
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/inside")));
        const QStringList listing =
            test::entries(QFileInfo(path(QStringLiteral("x"))).absolutePath());
        QVERIFY(!w_->saveSessionTo(folder));
        QVERIFY(QFileInfo(folder).isDir());
        QCOMPARE(test::entries(folder), QStringList{QStringLiteral("inside")});
        closeErrorDialog();
        QVERIFY(!w_->saveSessionTo(path(QStringLiteral("missing/s.attnviz"))));
        closeErrorDialog();
        for (const char* name : {"folder.attnviz", "missing/f.png"}) {
            QVERIFY(!test::export_figure(*w_, path(QLatin1String(name)), ExportSize{400, 300, 1.0},
                                         w_->currentFigureOptions()));
            closeErrorDialog();
        }
        QVERIFY(!test::export_weights(*w_, path(QStringLiteral("folder.attnviz"))));
        closeErrorDialog();
        QCOMPARE(test::entries(QFileInfo(path(QStringLiteral("x"))).absolutePath()), listing);
        QVERIFY(w_->currentFile().isEmpty());
    }

    void aReadOnlyFolderIsRefusedAndKeepsThePreviousFile() {
        const QString dir = path(QStringLiteral("readonly"));
        QVERIFY(QDir().mkpath(dir));
        const QString file = dir + QStringLiteral("/s.attnviz");
        QVERIFY(w_->saveSessionTo(file));
        const QByteArray before = read_all(file);
        QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const auto restore = qScopeGuard([&] {
            QFile::setPermissions(
                dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        });
        {
            QFile probe(dir + QStringLiteral("/probe"));
            if (probe.open(QIODevice::WriteOnly)) {
                probe.remove();
                QSKIP(
                    "this user (root) writes into read-only folders; the full-disk cases "
                    "cover a failed write");
            }
        }
        changeSomething();
        QVERIFY(!w_->saveSessionTo(file));
        verifyIntact(file, before, {QStringLiteral("s.attnviz")});
        QVERIFY(w_->isWindowModified());
    }

    // --- unsaved changes ------------------------------------------------------------------

    void changesAreRememberedUntilSaved() {
        QVERIFY(!w_->isWindowModified());
        changeSomething();
        QVERIFY(w_->isWindowModified());
        QVERIFY(w_->windowTitle().contains(QLatin1String("[*]")));
        const QString file = path(QStringLiteral("remembered.attnviz"));
        QVERIFY(w_->saveSessionTo(file));
        QVERIFY(!w_->isWindowModified());
        changeSomething();
        QVERIFY(w_->isWindowModified());
        QVERIFY(w_->openSession(file));
        QTest::qWait(1);
        QVERIFY(!w_->isWindowModified());
        // A refused session changes neither the document nor the flag.
        changeSomething();
        QVERIFY(!w_->openSession(path(QStringLiteral("nothing-here.attnviz"))));
        closeErrorDialog();
        QVERIFY(w_->isWindowModified());
    }

    /// Issue 35: a model or attention maps opened into a new window (the command line, a
    /// drop, File ▸ Open Model…) are what the window shows, not unsaved work: no "Untitled*",
    /// no question on quit, no recovery copy.  In a named session the switch is an edit.
    void openingAModelIntoANewWindowIsNoUnsavedChange() {
        const QString model = ui::shipped_model(QStringLiteral("attn-only-2l"));
        QVERIFY(!model.isEmpty());
        QVERIFY(openModel(model));
        QTest::qWait(1);
        QVERIFY(!w_->isWindowModified());
        w_->setConfirmOnClose(true);
        {
            DialogAnswerer answer(click(QMessageBox::Cancel));
            QVERIFY(w_->close());  // the question would block here until answered
            QCOMPARE(answer.seen, 0);
        }
        openSmallWindow();
        // After an edit, or in a named session, another model is a change to keep.
        changeSomething();
        QVERIFY(w_->isWindowModified());
        QVERIFY(openModel(model));
        QVERIFY(w_->isWindowModified());
        const QString file = path(QStringLiteral("named.attnviz"));
        QVERIFY(w_->saveSessionTo(file));
        QVERIFY(!w_->isWindowModified());
        QVERIFY(openModel(ui::shipped_model(QStringLiteral("char-zh-en-4l"))));
        QTest::qWait(1);
        QVERIFY(w_->isWindowModified());
    }

    void closingAnUnmodifiedWindowDoesNotAsk() {
        w_->setConfirmOnClose(true);
        DialogAnswerer answer(click(QMessageBox::Cancel));
        QVERIFY(w_->close());  // the question would block here until answered
        QCOMPARE(answer.seen, 0);
    }

    void closingAsksAndCancelKeepsTheChanges() {
        w_->setConfirmOnClose(true);
        changeSomething();
        const ComputeConfig changed = w_->document()->computeConfig();
        DialogAnswerer answer(click(QMessageBox::Cancel));
        QVERIFY(!w_->close());
        QCOMPARE(answer.seen, 1);
        QVERIFY2(answer.text.contains(QLatin1String("Save")), qPrintable(answer.text));
        QVERIFY(w_->isVisible());
        QVERIFY(w_->isWindowModified());
        QVERIFY(w_->document()->computeConfig() == changed);
    }

    void closingAsksAndDiscardCloses() {
        w_->setConfirmOnClose(true);
        changeSomething();
        DialogAnswerer answer(click(QMessageBox::Discard));
        QVERIFY(w_->close());
        QCOMPARE(answer.seen, 1);
    }

    void closingAsksAndSaveWritesTheNamedSession() {
        const QString file = path(QStringLiteral("named.attnviz"));
        QVERIFY(w_->saveSessionTo(file));
        w_->setConfirmOnClose(true);
        changeSomething();
        DialogAnswerer answer(click(QMessageBox::Save));
        QVERIFY(w_->close());
        QCOMPARE(answer.seen, 1);
        AttentionDocument reread;
        QString error;
        QVERIFY2(load_session(file, &reread, nullptr, &error), qPrintable(error));
        QVERIFY(reread.causal());
    }

    void saveOfAnUntitledSessionWithTheFileDialogCancelledKeepsTheWindow() {
        w_->setConfirmOnClose(true);
        changeSomething();
        // Save, then Cancel in the file dialog that asks for a name.
        DialogAnswerer* second = nullptr;
        DialogAnswerer answer([&second](QWidget* box) {
            click(QMessageBox::Save)(box);
            // The file dialog opens inside the Save button's handler.
            second = new DialogAnswerer([](QWidget* d) {
                if (auto* fd = qobject_cast<QDialog*>(d))
                    fd->reject();
                else
                    d->close();
            });
            second->setParent(qApp);
        });
        QVERIFY(!w_->close());
        QCOMPARE(answer.seen, 1);
        QVERIFY(second);
        QCOMPARE(second->class_name, QStringLiteral("QFileDialog"));
        QVERIFY(w_->isVisible());
        QVERIFY(w_->isWindowModified());
    }

    void aNewSessionAsksFirst() {
        w_->setConfirmOnClose(true);
        changeSomething();
        const ComputeConfig changed = w_->document()->computeConfig();
        {
            DialogAnswerer answer(click(QMessageBox::Cancel));
            QTest::keyClick(w_.get(), Qt::Key_N, Qt::ControlModifier);
            QCOMPARE(answer.seen, 1);
        }
        QVERIFY(w_->document()->computeConfig() == changed);
        QVERIFY(w_->isWindowModified());
        // A window manager gives the window back its focus when the question closes; the
        // offscreen platform needs to be told.
        QVERIFY(test::activate(*w_));
        {
            DialogAnswerer answer(click(QMessageBox::Discard));
            QTest::keyClick(w_.get(), Qt::Key_N, Qt::ControlModifier);
            QCOMPARE(answer.seen, 1);
        }
        QTest::qWait(1);
        QVERIFY(!w_->document()->causal());
        QVERIFY(!w_->isWindowModified());
        w_->setConfirmOnClose(false);
    }
};

QTEST_MAIN(WorkSafetyTest)
#include "ui_work_safety_test.moc"
