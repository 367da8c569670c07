// Switching the interface language at run time: the main window is rebuilt around the same
// AttentionDocument rather than retranslated widget by widget, so every string, including
// those set once in constructors and those of views added later, comes back through tr() with
// nothing to keep in step.  The catalogs and the Language menu are ui/i18n/language.h's.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

namespace attnviz::ui {

class AppSettings;
class MainWindow;

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
