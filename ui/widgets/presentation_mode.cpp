#include "ui/widgets/presentation_mode.h"

#include <QAction>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include <cmath>
#include <utility>

#include "ui/classroom/steps_view.h"
#include "ui/document/attention_document.h"
#include "ui/widgets/view_tabs.h"

namespace attnviz::ui {

PresentationMode::PresentationMode(QMainWindow* window, AttentionDocument* document,
                                   ViewTabs* views, QList<QWidget*> hidden,
                                   std::function<void(int)> step_head, QMenu* menu)
    : QObject(window),
      window_(window),
      doc_(document),
      views_(views),
      hidden_(std::move(hidden)),
      step_head_(std::move(step_head)) {
    action_ = new QAction(tr("&Presentation Mode"), window);
    action_->setObjectName(QStringLiteral("presentationAction"));
    action_->setShortcut(QKeySequence(Qt::Key_F5));
    action_->setCheckable(true);
    connect(action_, &QAction::toggled, this, &PresentationMode::setActive);
    window->addAction(action_);
    if (menu) {
        menu->addSeparator();
        menu->addAction(action_);
    }

    auto key = [this](const QList<QKeySequence>& keys, auto slot) {
        auto* a = new QAction(window_);
        a->setShortcuts(keys);
        a->setEnabled(false);
        connect(a, &QAction::triggered, this, slot);
        window_->addAction(a);
        keys_.push_back(a);
    };
    key({QKeySequence(Qt::Key_Escape)}, [this] { action_->setChecked(false); });
    // Through the steps on the Steps tab, else through the heads.
    const auto step = [this](int delta) {
        if (views_->currentTab() == ViewTabs::StepsTab)
            views_->steps()->stepBy(delta);
        else
            step_head_(delta);
    };
    key({QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_Space)}, [step] { step(1); });
    key({QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_Backspace)}, [step] { step(-1); });
    key({QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::Key_Down)}, [this] { step_head_(1); });
    key({QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::Key_Up)}, [this] { step_head_(-1); });
    key({QKeySequence(Qt::Key_C)}, [this] { doc_->setCausal(!doc_->causal()); });
    key({QKeySequence(Qt::Key_D)}, [this] {
        if (!doc_->training()) doc_->setTraining(true);
        doc_->resampleDropout();
    });
    key({QKeySequence(Qt::Key_G)}, [this] { doc_->setView(FigureView::Grid); });
}

int PresentationMode::pixelSize() const {
    // Token labels of at least 24 pt, readable from the back of a room.
    return int(std::ceil(24.0 * window_->logicalDpiY() / 72.0));
}

void PresentationMode::setActive(bool on) {
    if (on == active_) return;
    active_ = on;
    {
        const QSignalBlocker b(action_);
        action_->setChecked(on);
    }
    for (QAction* a : keys_)
        a->setEnabled(on);
    // Everything but the views is an advanced control: hidden while presenting.
    QList<QWidget*> bars = hidden_;
    for (QToolBar* bar : window_->findChildren<QToolBar*>())
        bars << bar;
    bars << window_->menuBar() << window_->statusBar();
    if (on) {
        was_maximized_ = window_->isMaximized();
        for (QWidget* w : bars)
            w->hide();
        views_->setPresentation(pixelSize());
        // A presentation walks through the steps from the first, and shows one head at a time
        // (every token labelled at 24 pt); G brings all heads back.
        if (doc_->step() < 0) doc_->setStep(0);
        if (doc_->view() == FigureView::Grid) doc_->setView(FigureView::Head, doc_->viewHead());
        window_->showFullScreen();
    } else {
        for (QWidget* w : bars)
            w->show();
        views_->setPresentation(0);
        if (was_maximized_)
            window_->showMaximized();
        else
            window_->showNormal();
    }
    emit changed(on);
    if (QWidget* w = views_->tabs()->currentWidget()) w->setFocus();
}

}  // namespace attnviz::ui
