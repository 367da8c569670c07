// Presentation mode (F5): full screen, the views alone with labels of at least 24 pt and high
// contrast, everything else hidden, and keys a class can drive it with: arrows, Space,
// Page Up/Down step through the heads or the computation's steps, C toggles the causal mask,
// D draws new dropout, G shows every head, Esc leaves.  The keys act only while presenting,
// so they never take the arrows from a text box.
#pragma once

#include <QList>
#include <QObject>

#include <functional>

class QAction;
class QMainWindow;
class QMenu;
class QWidget;

namespace attnviz::ui {

class AttentionDocument;
class ViewTabs;

class PresentationMode : public QObject {
    Q_OBJECT
  public:
    /// `hidden`: the panels hidden while presenting (tool bars, menu bar and status bar are
    /// hidden too).  `step_head` steps through the heads (+1 / −1).  The action goes at the
    /// end of `menu`.
    PresentationMode(QMainWindow* window, AttentionDocument* document, ViewTabs* views,
                     QList<QWidget*> hidden, std::function<void(int)> step_head, QMenu* menu);

    bool active() const { return active_; }
    void setActive(bool on);
    /// The views' label size while presenting: 24 pt at the screen's resolution.
    int pixelSize() const;

  signals:
    void changed(bool active);

  private:
    QMainWindow* window_;
    AttentionDocument* doc_;
    ViewTabs* views_;
    QList<QWidget*> hidden_;
    std::function<void(int)> step_head_;
    QAction* action_ = nullptr;
    QList<QAction*> keys_;
    bool active_ = false;
    bool was_maximized_ = false;
};

}  // namespace attnviz::ui
