#include "ui/model/shipped_models.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace attnviz::ui {

namespace {
bool is_model_folder(const QString& folder) {
    return QFileInfo::exists(folder + QStringLiteral("/config.json"));
}
}  // namespace

QString shipped_models_dir() {
    const QString env = qEnvironmentVariable("ATTNVIZ_MODELS_DIR");
    if (!env.isEmpty())
        return QFileInfo(env).isDir() ? QFileInfo(env).absoluteFilePath() : QString();
    const QString beside = QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                           QStringLiteral("/../share/attnviz/models"));
    return QFileInfo(beside).isDir() ? beside : QString();
}

QString shipped_model(const QString& name) {
    const QString dir = shipped_models_dir();
    if (dir.isEmpty() || name.isEmpty()) return {};
    const QString folder = QDir::cleanPath(dir + QLatin1Char('/') + name);
    return is_model_folder(folder) ? folder : QString();
}

QStringList shipped_model_folders() {
    const QString dir = shipped_models_dir();
    QStringList out;
    if (dir.isEmpty()) return out;
    for (const QString& name : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (is_model_folder(dir + QLatin1Char('/') + name)) out << dir + QLatin1Char('/') + name;
    return out;
}

bool is_shipped_model(const QString& folder) {
    const QString dir = shipped_models_dir();
    return !dir.isEmpty() && !folder.isEmpty() && QFileInfo(folder).absolutePath() == dir &&
           is_model_folder(folder);
}

}  // namespace attnviz::ui
