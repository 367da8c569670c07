#include "ui/widgets/document_history.h"

#include <QUndoCommand>
#include <QUndoStack>

#include <utility>

#include "ui/document/attention_document.h"

namespace attnviz::ui {

namespace {
/// `base` with every value of `edits` written over it, section by section.
QJsonObject merged(QJsonObject base, const QJsonObject& edits) {
    for (auto it = edits.begin(); it != edits.end(); ++it) {
        if (!it->isObject() || !base.value(it.key()).isObject()) {
            base[it.key()] = *it;
            continue;
        }
        QJsonObject section = base.value(it.key()).toObject();
        const QJsonObject e = it->toObject();
        for (auto k = e.begin(); k != e.end(); ++k)
            section[k.key()] = *k;
        base[it.key()] = section;
    }
    return base;
}
}  // namespace

class DocumentHistory::Edit : public QUndoCommand {
  public:
    enum { kTypingId = 0x4174 };
    Edit(DocumentHistory* history, QJsonObject before, QJsonObject after)
        : history_(history), before_(std::move(before)), after_(std::move(after)) {
        const QStringList keys = changed_json_keys(before_, after_);
        // Typing in one box, or the tokens of one generation arriving one by one.
        typing_ = keys.size() == 1 && (keys[0] == QLatin1String("input/text_a") ||
                                       keys[0] == QLatin1String("input/text_b") ||
                                       keys[0] == QLatin1String("source/generated"))
                      ? keys[0]
                      : QString();
        setText(describe(keys));
    }
    int id() const override { return typing_.isEmpty() ? -1 : kTypingId; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* e = static_cast<const Edit*>(other);
        if (e->typing_ != typing_) return false;
        after_ = e->after_;
        return true;
    }
    const QJsonObject& before() const { return before_; }
    const QJsonObject& after() const { return after_; }
    void undo() override { history_->apply(before_); }
    // The first redo is the edit that was just made: the document is there already.
    void redo() override {
        if (done_) history_->apply(after_);
        done_ = true;
    }

  private:
    static QString describe(const QStringList& keys) {
        auto only = [&](const char* key) {
            return keys.size() == 1 && keys[0] == QLatin1String(key);
        };
        if (only("source/knocked_out")) return DocumentHistory::tr("Knock Out Heads");
        if (only("input/text_a") || only("input/text_b")) return DocumentHistory::tr("Typing");
        if (only("source/generated")) return DocumentHistory::tr("Generate");
        if (keys.contains(QLatin1String("source/generated")) &&
            keys.contains(QLatin1String("input/text_a")))
            return DocumentHistory::tr("Keep Generated Text");
        if (keys.contains(QLatin1String("source/model_folder")))
            return DocumentHistory::tr("Change Source");
        if (only("masks/masked_keys")) return DocumentHistory::tr("Mask Keys");
        return DocumentHistory::tr("Change Settings");
    }

    DocumentHistory* history_;
    QJsonObject before_, after_;
    QString typing_;  ///< the text box typed in, or empty
    bool done_ = false;
};

DocumentHistory::DocumentHistory(AttentionDocument* document, QObject* parent)
    : QObject(parent), doc_(document), stack_(new QUndoStack(this)), last_(document->editsJson()) {
    // Each step holds the document twice (shared between neighbours): a bound keeps a long
    // session's long texts from piling up.
    stack_->setUndoLimit(kUndoLimit);
    connect(doc_, &AttentionDocument::edited, this, &DocumentHistory::recordEdit);
}

void DocumentHistory::clear() {
    stack_->clear();
    last_ = doc_->editsJson();
}

QStringList DocumentHistory::texts() const {
    QStringList out;
    const auto add = [&out](const QJsonObject& edits) {
        const QString t = edits.value(QStringLiteral("input"))
                              .toObject()
                              .value(QStringLiteral("text_a"))
                              .toString();
        if (!t.trimmed().isEmpty() && !out.contains(t)) out << t;
    };
    for (int k = 0; k < stack_->count(); ++k) {
        const auto* e = static_cast<const Edit*>(stack_->command(k));
        add(e->before());
        add(e->after());
    }
    // The text now last, even when an earlier step held it too.
    const QString now = doc_->textA();
    out.removeAll(now);
    if (!now.trimmed().isEmpty()) out << now;
    return out;
}

void DocumentHistory::recordEdit() {
    QJsonObject now = doc_->editsJson();
    if (now == last_) return;  // undo or redo applied it, or nothing the history keeps
    QJsonObject before = std::exchange(last_, now);
    stack_->push(new Edit(this, std::move(before), std::move(now)));
}

void DocumentHistory::apply(const QJsonObject& edits) {
    QString error;
    // The view state stays as it is: the head and layer in focus are no edit.
    if (doc_->fromJson(merged(doc_->toJson(), edits), &error)) last_ = doc_->editsJson();
}

}  // namespace attnviz::ui
