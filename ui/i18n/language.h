// The interface language: which catalogs are installed (Qt's own and the app's), how a
// command-line option, the environment, the saved preference and the system locale choose
// one, the View ▸ Language menu, and switching at run time.
//
// Switching rebuilds the main window around the same AttentionDocument rather than
// retranslating widget by widget: every string, including those set once in constructors
// and those of views added later, comes back through tr() with nothing to keep in step.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

class QMenu;
class QWidget;

namespace attnviz::ui {

class AppSettings;
class MainWindow;

/// The languages the interface ships in, named as their catalogs are (attnviz_<name>.qm).
inline constexpr char kEnglish[] = "en";
inline constexpr char kChinese[] = "zh_CN";
/// The preference that follows the system locale.
inline constexpr char kSystemLanguage[] = "system";

/// "system", "en" or "zh_CN" for the ways people spell them ("zh", "zh-CN", "zh_Hans_CN",
/// "en_US", "C", "System"); an empty string when the name is not one we ship.
QString normalize_language(const QString& name);

/// The catalog for a preference ("system", "en" or "zh_CN").  "system" takes the first of
/// `ui_languages` that we ship (any Chinese locale gets Simplified Chinese: it is what a
/// Chinese reader reads best of what we have), else English.
QString resolve_language(const QString& preference, const QStringList& ui_languages);
/// The same with the system's languages (QLocale::system().uiLanguages(), which on Linux
/// follows LANGUAGE, LC_ALL, LC_MESSAGES and LANG).
QString resolve_language(const QString& preference);

/// Installs Qt's own catalog (qtbase_<language>: standard buttons, file dialogs) and the
/// app's (":/i18n/attnviz_<language>.qm") in place of any installed before, so widgets
/// built from now on are in `language`.  Returns false when the app's catalog is missing.
bool install_translations(const QString& language);
/// The language install_translations() last installed ("en" before any call).
QString installed_language();

/// The View ▸ Language submenu: System, English, 简体中文, with `preference` checked.  Each
/// action's data() is the preference it selects.  Language names are in their own language,
/// so a user lost in the wrong one can still find theirs.
QMenu* create_language_menu(const QString& preference, QWidget* parent);

/// Owns the main window and rebuilds it when the language changes: the new window adopts
/// the document (every setting, the text, the view), the session file name, the unsaved
/// changes flag and the window layout, and the old one goes away without asking to save.
class LanguageSwitcher : public QObject {
    Q_OBJECT
  public:
    /// `settings` keeps the preference and is shared with every window; not owned.
    explicit LanguageSwitcher(AppSettings* settings, QObject* parent = nullptr);
    ~LanguageSwitcher() override;

    /// Installs the catalogs and builds the first window (not shown).  `override_language`
    /// (a --lang option or ATTNVIZ_LANG) wins over the saved preference for this run only.
    MainWindow* start(const QString& override_language = QString());

    /// The current window (null before start()).  Not inline, so including this header does
    /// not need MainWindow's.
    MainWindow* window() const;
    /// The language in use: "en" or "zh_CN".
    QString language() const { return language_; }

    /// What the Language menu does: saves `preference` ("system", "en" or "zh_CN") and, when
    /// the language it resolves to differs from the current one, installs its catalogs and
    /// rebuilds the window.
    void setLanguagePreference(const QString& preference);

  signals:
    /// A new window replaced the old one (which is deleted on the next event-loop turn).
    void windowReplaced(MainWindow* window);

  private:
    MainWindow* buildWindow(MainWindow* previous);

    AppSettings* settings_;
    QPointer<MainWindow> window_;
    QString language_;
};

}  // namespace attnviz::ui
