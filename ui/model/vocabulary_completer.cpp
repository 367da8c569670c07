#include "ui/model/vocabulary_completer.h"

#include <QCompleter>
#include <QStringList>
#include <QStringListModel>

namespace attnviz::ui {

QCompleter* vocabulary_completer(const models::OpenedModel* model, QObject* parent) {
    QStringList vocabulary;
    if (model) {
        const std::int64_t V = model->tokenizer.vocab_size();
        vocabulary.reserve(qsizetype(V));
        for (std::int64_t id = 0; id < V; ++id) {
            const std::string t = model->tokenizer.id_to_token(id);
            if (!t.empty()) vocabulary << QString::fromStdString(t);
        }
    }
    auto* c = new QCompleter(parent);
    c->setModel(new QStringListModel(vocabulary, c));  // goes with the completer
    c->setFilterMode(Qt::MatchContains);
    c->setCaseSensitivity(Qt::CaseSensitive);
    c->setMaxVisibleItems(15);
    return c;
}

std::optional<std::int64_t> vocabulary_token(const models::OpenedModel& model,
                                             const QString& typed) {
    try {
        return models::single_token_id(model.tokenizer, typed.toStdString(), "token");
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace attnviz::ui
