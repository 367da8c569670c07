#include "ui/document/shipped_models.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace attnviz::ui {

namespace {
bool is_model_folder(const QString& folder) {
    return QFileInfo::exists(folder + QStringLiteral("/config.json"));
}

struct Shipped {
    QString dir;          ///< absolute, or "" when none is found
    QStringList folders;  ///< its model folders, sorted by name
};

/// Looked up once: the Source box asks on every result, and the folder cannot change while
/// the program runs.
const Shipped& shipped_models() {
    static const Shipped shipped = [] {
        Shipped s;
        const QString env = qEnvironmentVariable("ATTNVIZ_MODELS_DIR");
        const QString dir = !env.isEmpty()
                                ? QFileInfo(env).absoluteFilePath()
                                : QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                                  QStringLiteral("/../share/attnviz/models"));
        if (!QFileInfo(dir).isDir()) return s;
        s.dir = dir;
        for (const QString& name :
             QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            if (is_model_folder(dir + QLatin1Char('/') + name))
                s.folders << dir + QLatin1Char('/') + name;
        return s;
    }();
    return shipped;
}
}  // namespace

QString shipped_models_dir() {
    return shipped_models().dir;
}

QString shipped_model(const QString& name) {
    const Shipped& s = shipped_models();
    for (const QString& folder : s.folders)
        if (QFileInfo(folder).fileName() == name) return folder;
    return {};
}

QStringList shipped_model_folders() {
    return shipped_models().folders;
}

QString shipped_model_names() {
    QStringList names;
    for (const QString& folder : shipped_models().folders)
        names << QFileInfo(folder).fileName();
    return names.join(QStringLiteral(", "));
}

bool is_shipped_model(const QString& folder) {
    return !folder.isEmpty() &&
           shipped_models().folders.contains(QFileInfo(folder).absoluteFilePath());
}

}  // namespace attnviz::ui
