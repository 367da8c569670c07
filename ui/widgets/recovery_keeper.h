// Nothing lost when the app dies: the running app's side of the recovery copies
// (ui/document/recovery.h).  While there are unsaved changes, the open document is written
// to this instance's copy a few seconds after a change and right before a long computation
// (MemoryGuard::longComputationStarting); once nothing is unsaved the copy goes.  At start
// it offers the newest copy a dead instance left (Restore / Discard).  It follows the window
// through language switches (the document and the copy stay the same), and its destruction
// at a clean exit removes the copy.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include "ui/document/recovery.h"

class QMessageBox;
class QTimer;

namespace attnviz::ui {

class AttentionDocument;
class LanguageSwitcher;
class MainWindow;

class RecoveryKeeper : public QObject {
    Q_OBJECT
  public:
    /// How long after a change the copy is written (continuous typing writes this often).
    static constexpr int kSaveDelayMs = 3000;

    /// Keeps the copy of `switcher`'s window (started already) in `directory`, and offers a
    /// dead instance's copy on the next event-loop turn.
    explicit RecoveryKeeper(LanguageSwitcher* switcher,
                            const QString& directory = RecoveryStore::defaultDirectory(),
                            QObject* parent = nullptr);
    /// A clean exit: the copy and its lock are removed.
    ~RecoveryKeeper() override;

    const RecoveryStore& store() const { return store_; }
    /// The offer while it is open.
    QMessageBox* offerDialog() const { return offer_; }

    /// Writes the copy now when there are unsaved changes, else removes it.
    void saveNow();

    /// What a copy holds, for the offer: "the text “…”, the model attn-only-2l, 2 masked
    /// keys, a comparison (causal mask)".
    static QString describe(const AttentionDocument& document);

  signals:
    /// The copy was written (or removed: `written` false).
    void saved(bool written);

  private:
    void bind(MainWindow* window);
    void offer();
    void answer(bool restore);

    LanguageSwitcher* switcher_;
    RecoveryStore store_;
    QPointer<MainWindow> window_;
    QTimer* timer_ = nullptr;
    QList<QMetaObject::Connection> connections_;
    QPointer<QMessageBox> offer_;
    RecoveredCopy offered_;
};

}  // namespace attnviz::ui
