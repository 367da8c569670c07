// The interface language: which catalogs are installed (Qt's own and the app's), how a
// command-line option, the environment, the saved preference and the system locale choose
// one, and the View ▸ Language menu.  Switching at run time rebuilds the window
// (ui/widgets/language_switcher.h).
#pragma once

#include <QString>
#include <QStringList>

class QMenu;
class QWidget;

namespace attnviz::ui {

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

}  // namespace attnviz::ui
