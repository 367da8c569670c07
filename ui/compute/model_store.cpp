#include "ui/compute/model_store.h"

#include <QDir>
#include <QFileInfo>

#include <deque>
#include <mutex>
#include <utility>

namespace attnviz::ui {

namespace {

constexpr std::size_t kKeptModels = 2;

QString key_of(const QString& folder) {
    const QFileInfo info(folder);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

struct Store {
    std::mutex mutex;
    std::deque<std::pair<QString, ModelPtr>> models;  // most recently used first

    ModelPtr find(const QString& key) {
        for (auto it = models.begin(); it != models.end(); ++it)
            if (it->first == key) {
                auto entry = *it;
                models.erase(it);
                models.push_front(entry);
                return entry.second;
            }
        return nullptr;
    }
    void keep(const QString& key, ModelPtr model) {
        for (auto it = models.begin(); it != models.end(); ++it)
            if (it->first == key) {
                models.erase(it);
                break;
            }
        models.emplace_front(key, std::move(model));
        while (models.size() > kKeptModels)
            models.pop_back();
    }
};

Store& store() {
    static Store s;
    return s;
}

}  // namespace

ModelPtr find_model(const QString& folder) {
    if (folder.isEmpty()) return nullptr;
    std::lock_guard lock(store().mutex);
    return store().find(key_of(folder));
}

void keep_model(const QString& folder, ModelPtr model) {
    std::lock_guard lock(store().mutex);
    store().keep(key_of(folder), std::move(model));
}

ModelPtr open_model(const QString& folder) {
    if (ModelPtr m = find_model(folder)) return m;
    // Opened outside the lock (it reads files); two threads may both open it, and the
    // second to finish is kept: both are the same model.
    auto opened = std::make_shared<models::OpenedModel>(
        models::open_model_folder(QFile::encodeName(folder).toStdString()));
    ModelPtr model = std::move(opened);
    keep_model(folder, model);
    return model;
}

QString model_display_name(const models::OpenedModel& model) {
    const models::ModelInfo& info = model.model->info();
    const QString name = QFileInfo(QString::fromStdString(info.folder)).fileName();
    const QString family = QString::fromStdString(info.display_name);
    return name.isEmpty() ? family : QStringLiteral("%1 · %2").arg(family, name);
}

}  // namespace attnviz::ui
