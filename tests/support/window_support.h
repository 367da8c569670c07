// For the GUI tests that drive a real MainWindow: opening one, and waiting until what it
// shows is the result of its current settings.  Header-only, because the shared test
// library does not link the Qt front end.
#pragma once

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>
#include <utility>

#include "test_support.h"
#include "ui/compute/compute_controller.h"
#include "ui/model/generation_panel.h"
#include "ui/model/model_panel.h"
#include "ui/model/model_source.h"
#include "ui/model/patch_view.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/figure_exports.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/language_switcher.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"

/// Lets the document's coalesced signals fire, then waits for the worker and the repaint
/// (the bound only matters when a test fails; big inputs under sanitizers take a while).
#define SETTLE(w)                                                     \
    do {                                                              \
        QTest::qWait(1);                                              \
        QTRY_VERIFY_WITH_TIMEOUT(::attnviz::test::settled(w), 60000); \
    } while (false)

namespace attnviz::test {

/// The worker is idle, a result exists and the grid has painted that result.
inline bool settled(ui::MainWindow& w) {
    const ui::ComputeController* c = w.compute();
    // The model writing or its timeline playing changes the document at every token.
    const ui::GenerationPanel* g = w.modelPanel()->generation();
    // An example's patching sweep fills its tab (and its messages) as it runs.
    const ui::PatchView* p = w.views()->patchView();
    return !c->isBusy() && !c->isSettling() && c->latest() &&
           w.grid()->paintedGeneration() == c->latest()->generation && !g->isWriting() &&
           !g->isPlaying() && !p->isRunning();
}

/// Makes `w` the active window (shortcuts such as Ctrl+N go there) and waits until it is.
/// The offscreen platform activates through a queued event and has no WindowActivation
/// capability, so QTest::qWaitForWindowActive would only wait for the window's exposure.
inline bool activate(QWidget& w, int timeout_ms = 5000) {
    w.activateWindow();
    QElapsedTimer t;
    t.start();
    while (QApplication::activeWindow() != &w && t.elapsed() < timeout_ms)
        QTest::qWait(1);
    return QApplication::activeWindow() == &w;
}

/// A MainWindow on `settings` (each test its own file), shown at `size` and active, that
/// does not ask about unsaved changes when the test closes it; null if it never shows.
inline std::unique_ptr<ui::MainWindow> open_window(ui::AppSettings* settings,
                                                   QSize size = QSize(1400, 900)) {
    auto w = std::make_unique<ui::MainWindow>(settings);
    w->setConfirmOnClose(false);
    // The worked examples replay what the model wrote at a reading pace (7 s for 22 tokens);
    // the tests see every step at any pace (ui_generation_test), so need not sit through it.
    w->modelPanel()->generation()->setPlayStep(10);
    w->resize(size);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get()) || !activate(*w)) return nullptr;
    return w;
}

/// The window's File ▸ Export/Load part.
inline ui::FigureExports* exports_of(ui::MainWindow& w) {
    return w.findChild<ui::FigureExports*>();
}

/// Load Weights… on `path`, which reads the file off the GUI thread, and waits for its end:
/// true when the document switched to the file, false when the window refused it.
inline bool load_weights(ui::MainWindow& w, const QString& path) {
    ui::FigureExports* exports = exports_of(w);
    if (!exports) return false;
    QSignalSpy done(exports, &ui::FigureExports::weightsLoadFinished);
    if (!w.loadWeightsFrom(path)) return false;
    // The result comes through the event loop, never before this wait.
    return done.wait(60000) && done.front().front().toBool();
}

/// Exports the figure to `path` as File ▸ Export Figure… does, which writes it off the GUI
/// thread, and waits for its end: true when the file was written, false when the window refused
/// or the write failed (the error dialog says why, either way).
inline bool export_figure(ui::MainWindow& w, const QString& path, const ui::ExportSize& size,
                          const ui::FigureOptions& options) {
    ui::FigureExports* exports = exports_of(w);
    if (!exports) return false;
    QSignalSpy done(exports, &ui::FigureExports::exportFinished);
    if (!w.exportFigureTo(path, size, options)) return false;
    // The end comes through the event loop, never before this wait.
    return done.wait(60000) && done.front().at(1).toBool();
}

/// The same for File ▸ Export Weights….
inline bool export_weights(ui::MainWindow& w, const QString& path) {
    ui::FigureExports* exports = exports_of(w);
    if (!exports) return false;
    QSignalSpy done(exports, &ui::FigureExports::exportFinished);
    if (!w.exportWeightsTo(path)) return false;
    return done.wait(60000) && done.front().at(1).toBool();
}

/// What a window test opens: the settings file (default: settings.ini in the test's
/// temporary folder), the window's size, and what to set on the settings before the window
/// reads them.  Written {file}, {file, size, prepare} or {{}, size, prepare}.
struct WindowSetup {
    WindowSetup(QString file = {}, QSize window_size = QSize(1400, 900),
                std::function<void(ui::AppSettings&)> before_window = {})
        : settings_file(std::move(file)), size(window_size), prepare(std::move(before_window)) {}
    QString settings_file;
    QSize size;
    std::function<void(ui::AppSettings&)> prepare;
};

/// The fixture the window tests share: a MainWindow on a settings file of its own.  A test
/// class derives from it (with its own Q_OBJECT) and calls openWindow() or openSettledWindow()
/// from its init() slot (or makeWindow() or startSwitcher() where the test shows the window
/// itself) and closeWindow() from cleanup(); the fixture has no slots, since QTest would run
/// them as tests of every class.
class WindowFixture : public QObject {
  protected:
    // Declared in this order so that the windows go before the settings they point to.
    std::unique_ptr<ui::AppSettings> settings_;
    std::unique_ptr<ui::LanguageSwitcher> switcher_;
    std::unique_ptr<ui::MainWindow> w_;

    /// Opens w_ as `setup` says; fails the test function when it never shows.
    void openWindow(const WindowSetup& setup = {}) {
        openSettings(setup);
        w_ = open_window(settings_.get(), setup.size);
        QVERIFY2(w_, "the window never showed");
    }
    /// openWindow(), then, when it showed, SETTLE: what a test's init() does when each test
    /// starts from the window's first result.
    void openSettledWindow(const WindowSetup& setup = {}) {
        openWindow(setup);
        if (QTest::currentTestFailed()) return;
        SETTLE(*w_);
    }
    /// w_ on the settings `setup` names, not shown (the test shows it as it means to) and not
    /// asking about unsaved changes when it closes; `setup.size` is not used.
    void makeWindow(const WindowSetup& setup = {}) {
        openSettings(setup);
        w_ = std::make_unique<ui::MainWindow>(settings_.get());
        w_->setConfirmOnClose(false);
    }
    /// A LanguageSwitcher (switcher_) on the settings `setup` names, and its first window in
    /// `language`, not shown and not asking about unsaved changes when it closes: what View ▸
    /// Language does, started as the app starts.  w_ stays empty; the switcher owns its windows.
    ui::MainWindow* startSwitcher(const QString& language, const WindowSetup& setup = {}) {
        openSettings(setup);
        switcher_ = std::make_unique<ui::LanguageSwitcher>(settings_.get());
        ui::MainWindow* window = switcher_->start(language);
        window->setConfirmOnClose(false);
        return window;
    }
    /// Switches switcher_'s window through its own View ▸ Language menu (the action called
    /// `action_name`), as a user would, and returns the window that replaced it; the old one
    /// is deleted by then.
    ui::MainWindow* pickLanguage(const char* action_name) {
        ui::MainWindow* before = switcher_->window();
        auto* action = before->findChild<QAction*>(QLatin1String(action_name));
        if (!action) qFatal("no action %s", action_name);
        QPointer<ui::MainWindow> old(before);
        action->trigger();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        if (switcher_->window() != before && !old.isNull())
            qFatal("the old window was not deleted");
        return switcher_->window();
    }
    /// The windows closed (without asking about unsaved changes) and their settings released.
    void closeWindow() {
        w_.reset();
        switcher_.reset();
        settings_.reset();
    }
    /// The window's child widget (or other object) called `name`, or null.
    template <typename T>
    T* child(const char* name) const {
        return w_->findChild<T*>(QLatin1String(name));
    }
    /// The window's child widget called `name`; the test stops when there is none.
    template <typename T>
    T* find(const char* name) const {
        T* widget = child<T>(name);
        if (!widget) qFatal("no widget %s", name);
        return widget;
    }
    /// The window's latest result.
    ui::SnapshotPtr snap() const { return w_->compute()->latest(); }
    /// Opens a model folder as File ▸ Open Model… does and waits for the load and its maps.
    bool openModel(const QString& folder) {
        QSignalSpy done(w_->modelSource(), &ui::ModelSource::loadFinished);
        w_->openModel(folder);
        if (done.isEmpty() && !done.wait(30000)) return false;
        if (!done.front().front().toBool()) return false;
        QTest::qWait(1);
        return QTest::qWaitFor([&] { return settled(*w_) && snap()->model; }, 60000);
    }

  private:
    /// Whatever was open closed, then settings_ on the file `setup` names (default:
    /// settings.ini in the test's temporary folder), prepared as it says.
    void openSettings(const WindowSetup& setup) {
        closeWindow();
        settings_ = std::make_unique<ui::AppSettings>(
            setup.settings_file.isEmpty() ? temp_path(QStringLiteral("settings.ini"))
                                          : setup.settings_file);
        if (setup.prepare) setup.prepare(*settings_);
    }
};

/// Answers the next modal dialog the window opens (a blocking QMessageBox::question or a
/// file dialog) from inside its event loop.  `answer` gets the dialog; what it saw stays
/// in `seen` for the test to check afterwards.
class DialogAnswerer : public QObject {
  public:
    explicit DialogAnswerer(std::function<void(QWidget*)> answer) : answer_(std::move(answer)) {
        timer_.setInterval(20);
        connect(&timer_, &QTimer::timeout, this, [this] {
            QWidget* modal = QApplication::activeModalWidget();
            if (!modal || !modal->isVisible()) return;
            timer_.stop();
            ++seen;
            if (auto* box = qobject_cast<QMessageBox*>(modal)) text = box->text();
            class_name = QLatin1String(modal->metaObject()->className());
            answer_(modal);
        });
        timer_.start();
    }
    int seen = 0;
    QString text;
    QString class_name;

  private:
    std::function<void(QWidget*)> answer_;
    QTimer timer_;
};

}  // namespace attnviz::test
