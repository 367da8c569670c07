// Edit ▸ Undo / Redo over the document: every edit of the user's input (AttentionDocument::
// edited(): the text, the layer's settings, masks, the source, the knocked-out heads…) becomes
// a command holding the document's edits before and after it (editsJson()).  View state (the
// head, the layer in focus, the step) is no edit and is left as it is by undo.  Typing in the
// same text box merges into one command; opening a session starts a new history.
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QStringList>

class QUndoStack;

namespace attnviz::ui {

class AttentionDocument;

class DocumentHistory : public QObject {
    Q_OBJECT
  public:
    /// The steps kept: the oldest go first.
    static constexpr int kUndoLimit = 100;
    explicit DocumentHistory(AttentionDocument* document, QObject* parent = nullptr);

    QUndoStack* stack() const { return stack_; }
    /// Forgets every command: the document as it is now is where the history starts.
    void clear();
    /// The texts the text box held over the steps kept, oldest first, each once, the text now
    /// last: a small corpus (File ▸ Corpus from History).
    QStringList texts() const;

  private:
    class Edit;
    void recordEdit();
    /// Sets the document's edits to `edits`, keeping its view state; not recorded again.
    void apply(const QJsonObject& edits);

    AttentionDocument* doc_;
    QUndoStack* stack_;
    QJsonObject last_;  ///< the document's edits after the last command
};

}  // namespace attnviz::ui
