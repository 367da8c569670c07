// Knocking a model's heads out from the views: the context menu of a head (Open Full Map…,
// Knock Out (Zero), Knock Out (Mean), Restore, Restore All Heads) and Ctrl-click (⌘-click)
// toggling a zero knock-out.  The Model tab's mosaic and the heatmap grid of a model's layer ask
// for them; the document does the rest (every view recomputes from its config).
#pragma once

#include <QObject>
#include <QPointer>

class QMenu;
class QPoint;
class QWidget;

namespace attnviz::ui {

class AttentionDocument;

class KnockOutMenu : public QObject {
    Q_OBJECT
  public:
    KnockOutMenu(AttentionDocument* document, QWidget* parent);

    /// Builds the menu of head (layer, head), both from 0, and pops it up at `global` without
    /// blocking; it deletes itself once closed.  For maps read from a file (no pass to knock
    /// heads out of) it holds Open Full Map… only.
    QMenu* popup(int layer, int head, const QPoint& global);
    /// The menu popped up last, while it is open (tests trigger its actions).
    QMenu* lastMenu() const { return menu_; }
    /// Ctrl-click: knocks the head out by zeros, or restores it.
    void toggle(int layer, int head);

  signals:
    /// Open Full Map…: the head's whole map in a window of its own (FullMapWindow).
    void fullMapRequested(int layer, int head);

  private:
    AttentionDocument* doc_;
    QWidget* parent_;
    QPointer<QMenu> menu_;
};

}  // namespace attnviz::ui
