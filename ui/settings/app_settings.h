// Every preference in one typed place: each key with its default and its validation, read
// and written through QSettings.  No other file names a QSettings key.
#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <memory>

#include "ui/document/attention_config.h"

namespace attnviz::ui {

class AppSettings {
  public:
    static constexpr int kMaxRecentFiles = 10;

    /// The application's QSettings (organisation / application names of the QApplication).
    AppSettings();
    /// An ini file, for tests.
    explicit AppSettings(const QString& ini_path);
    ~AppSettings();

    /// Recently opened sessions, or model folders: absolute paths, most recent first.
    enum class RecentKind { Sessions, Models };
    QStringList recentList(RecentKind kind) const;
    void addRecent(RecentKind kind, const QString& path);  ///< deduplicated
    void removeRecent(RecentKind kind, const QString& path);
    void clearRecent(RecentKind kind);
    QStringList recentFiles() const { return recentList(RecentKind::Sessions); }
    void addRecentFile(const QString& path) { addRecent(RecentKind::Sessions, path); }
    void removeRecentFile(const QString& path) { removeRecent(RecentKind::Sessions, path); }
    void clearRecentFiles() { clearRecent(RecentKind::Sessions); }

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& g);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& s);
    QByteArray splitterState() const;
    void setSplitterState(const QByteArray& s);

    QString lastDirectory() const;
    void setLastDirectory(const QString& dir);

    /// Colour map of new documents.
    Colormap defaultColormap() const;
    void setDefaultColormap(Colormap map);

    /// Figure export defaults: logical size in pixels, scale 1-4 for PNG.
    int exportWidth() const;
    void setExportWidth(int px);
    int exportHeight() const;
    void setExportHeight(int px);
    double exportScale() const;
    void setExportScale(double scale);
    int exportFontPx() const;
    void setExportFontPx(int px);

    /// The memory budget of the window's computations, as typed ("2G", "512M", "60%"), or
    /// empty for the default share of the machine's memory.  ATTNVIZ_MEMORY_BUDGET, when
    /// set, overrides it (budget::resolve_memory_budget).
    QString memoryBudget() const;
    void setMemoryBudget(const QString& size);

    /// Interface language: "system" (follow the system locale), "en" or "zh_CN".
    QString language() const;
    void setLanguage(const QString& language);

    void sync();

  private:
    static QString recentKey(RecentKind kind);
    std::unique_ptr<QSettings> settings_;
};

}  // namespace attnviz::ui
