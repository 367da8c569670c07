#include "ui/settings/app_settings.h"

#include <QFileInfo>

#include <stdexcept>

#include "engine/budget/memory_budget.h"

namespace attnviz::ui {

namespace {
template <typename T>
struct Entry {
    const char* key;
    T fallback;
    bool (*valid)(const T&);
};

template <typename T>
T get_entry(const QSettings& settings, const Entry<T>& e) {
    const QVariant v = settings.value(QLatin1String(e.key));
    if (!v.isValid() || !v.canConvert<T>()) return e.fallback;
    const T value = v.value<T>();
    return e.valid(value) ? value : e.fallback;
}

template <typename T>
void set_entry(QSettings& settings, const Entry<T>& e, const T& value) {
    if (e.valid(value)) settings.setValue(QLatin1String(e.key), QVariant::fromValue(value));
}

bool any_bytes(const QByteArray&) {
    return true;
}
bool any_string(const QString&) {
    return true;
}
}  // namespace

// The table: key, default, validation.  A stored value that fails validation reads as the
// default, so a hand-edited or stale settings file can never put the app in a bad state.
#define ATTNVIZ_SETTING(name, type, key, fallback, valid) \
    const Entry<type> name {                              \
        key, fallback, valid                              \
    }

AppSettings::AppSettings() : settings_(std::make_unique<QSettings>()) {}

AppSettings::AppSettings(const QString& ini_path)
    : settings_(std::make_unique<QSettings>(ini_path, QSettings::IniFormat)) {}

AppSettings::~AppSettings() = default;

// Recent sessions and recent models: a list of absolute paths, most recent first.
QStringList AppSettings::recentList(RecentKind kind) const {
    static ATTNVIZ_SETTING(kRecent, QStringList, "session/recentFiles", QStringList{},
                           [](const QStringList& l) { return l.size() <= 100; });
    static ATTNVIZ_SETTING(kModels, QStringList, "model/recentFolders", QStringList{},
                           [](const QStringList& l) { return l.size() <= 100; });
    QStringList files = get_entry(*settings_, kind == RecentKind::Sessions ? kRecent : kModels);
    files.removeAll(QString());
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    return files;
}

QString AppSettings::recentKey(RecentKind kind) {
    return kind == RecentKind::Sessions ? QStringLiteral("session/recentFiles")
                                        : QStringLiteral("model/recentFolders");
}

void AppSettings::addRecent(RecentKind kind, const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList files = recentList(kind);
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings_->setValue(recentKey(kind), files);
}

void AppSettings::removeRecent(RecentKind kind, const QString& path) {
    QStringList files = recentList(kind);
    files.removeAll(QFileInfo(path).absoluteFilePath());
    files.removeAll(path);
    settings_->setValue(recentKey(kind), files);
}

void AppSettings::clearRecent(RecentKind kind) {
    settings_->remove(recentKey(kind));
}

namespace {
ATTNVIZ_SETTING(kGeometry, QByteArray, "window/geometry", QByteArray{}, any_bytes);
ATTNVIZ_SETTING(kState, QByteArray, "window/state", QByteArray{}, any_bytes);
ATTNVIZ_SETTING(kSplitter, QByteArray, "window/splitter", QByteArray{}, any_bytes);
ATTNVIZ_SETTING(kLastDir, QString, "session/lastDirectory", QString{}, any_string);
ATTNVIZ_SETTING(kColormap, QString, "figure/defaultColormap", QStringLiteral("viridis"),
                [](const QString& s) {
                    Colormap c;
                    return colormap_from_name(s, &c);
                });
ATTNVIZ_SETTING(kExportWidth, int, "export/width", 1600,
                [](const int& v) { return v >= 64 && v <= 20000; });
ATTNVIZ_SETTING(kExportHeight, int, "export/height", 1000,
                [](const int& v) { return v >= 64 && v <= 20000; });
ATTNVIZ_SETTING(kExportScale, double, "export/scale", 2.0,
                [](const double& v) { return v >= 0.25 && v <= 8.0; });
ATTNVIZ_SETTING(kExportFont, int, "export/fontPx", 14,
                [](const int& v) { return v >= 6 && v <= 96; });
ATTNVIZ_SETTING(kMemoryBudget, QString, "compute/memoryBudget", QString{}, [](const QString& s) {
    if (s.isEmpty()) return true;
    try {
        budget::parse_memory_size(s.toStdString(), budget::usable_memory_bytes());
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
});
ATTNVIZ_SETTING(kLanguage, QString, "ui/language", QStringLiteral("system"), [](const QString& s) {
    return s == QLatin1String("system") || s == QLatin1String("en") || s == QLatin1String("zh_CN");
});
}  // namespace

QByteArray AppSettings::windowGeometry() const {
    return get_entry(*settings_, kGeometry);
}
void AppSettings::setWindowGeometry(const QByteArray& g) {
    set_entry(*settings_, kGeometry, g);
}
QByteArray AppSettings::windowState() const {
    return get_entry(*settings_, kState);
}
void AppSettings::setWindowState(const QByteArray& s) {
    set_entry(*settings_, kState, s);
}
QByteArray AppSettings::splitterState() const {
    return get_entry(*settings_, kSplitter);
}
void AppSettings::setSplitterState(const QByteArray& s) {
    set_entry(*settings_, kSplitter, s);
}
QString AppSettings::lastDirectory() const {
    return get_entry(*settings_, kLastDir);
}
void AppSettings::setLastDirectory(const QString& dir) {
    set_entry(*settings_, kLastDir, dir);
}

Colormap AppSettings::defaultColormap() const {
    Colormap c = Colormap::Viridis;
    colormap_from_name(get_entry(*settings_, kColormap), &c);
    return c;
}
void AppSettings::setDefaultColormap(Colormap map) {
    set_entry(*settings_, kColormap, colormap_name(map));
}

int AppSettings::exportWidth() const {
    return get_entry(*settings_, kExportWidth);
}
void AppSettings::setExportWidth(int px) {
    set_entry(*settings_, kExportWidth, px);
}
int AppSettings::exportHeight() const {
    return get_entry(*settings_, kExportHeight);
}
void AppSettings::setExportHeight(int px) {
    set_entry(*settings_, kExportHeight, px);
}
double AppSettings::exportScale() const {
    return get_entry(*settings_, kExportScale);
}
void AppSettings::setExportScale(double scale) {
    set_entry(*settings_, kExportScale, scale);
}
int AppSettings::exportFontPx() const {
    return get_entry(*settings_, kExportFont);
}
void AppSettings::setExportFontPx(int px) {
    set_entry(*settings_, kExportFont, px);
}

QString AppSettings::memoryBudget() const {
    return get_entry(*settings_, kMemoryBudget);
}
void AppSettings::setMemoryBudget(const QString& size) {
    if (size.trimmed().isEmpty())
        settings_->remove(QLatin1String(kMemoryBudget.key));
    else
        set_entry(*settings_, kMemoryBudget, size.trimmed());
}

QString AppSettings::language() const {
    return get_entry(*settings_, kLanguage);
}
void AppSettings::setLanguage(const QString& language) {
    set_entry(*settings_, kLanguage, language);
}

void AppSettings::sync() {
    settings_->sync();
}

}  // namespace attnviz::ui
