#include "ui/widgets/language_switcher.h"

#include "ui/i18n/language.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/main_window.h"

namespace attnviz::ui {

LanguageSwitcher::LanguageSwitcher(AppSettings* settings, QObject* parent)
    : QObject(parent), settings_(settings) {}

LanguageSwitcher::~LanguageSwitcher() {
    delete window_.data();
}

MainWindow* LanguageSwitcher::window() const {
    return window_.data();
}

MainWindow* LanguageSwitcher::start(const QString& override_language) {
    const QString forced = normalize_language(override_language);
    language_ = resolve_language(forced.isEmpty() ? settings_->language() : forced);
    install_translations(language_);
    delete window_.data();
    window_ = buildWindow(nullptr);
    return window_;
}

void LanguageSwitcher::setLanguagePreference(const QString& preference) {
    const QString p = normalize_language(preference);
    if (p.isEmpty()) return;
    settings_->setLanguage(p);
    settings_->sync();
    const QString language = resolve_language(p);
    if (window_ && language == language_) return;
    language_ = language;
    install_translations(language_);
    MainWindow* previous = window_;
    MainWindow* next = buildWindow(previous);
    window_ = next;
    if (previous) {
        // The new window appears before the old one goes, so the application never has no
        // window (and never quits on "last window closed").  The old one is deleted later:
        // this may run inside one of its menu actions.
        if (previous->isVisible()) next->show();
        previous->setConfirmOnClose(false);
        previous->hide();
        previous->deleteLater();
    }
    emit windowReplaced(next);
}

MainWindow* LanguageSwitcher::buildWindow(MainWindow* previous) {
    auto* window = new MainWindow(settings_, nullptr, previous ? previous->document() : nullptr);
    if (previous) window->takeOverFrom(*previous);
    connect(window, &MainWindow::languageRequested, this, &LanguageSwitcher::setLanguagePreference);
    return window;
}

}  // namespace attnviz::ui
