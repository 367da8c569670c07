#include "ui/entry.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "ui/classroom/view_tabs.h"
#include "ui/i18n/language.h"
#include "ui/model/shipped_models.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/recovery_keeper.h"

#ifndef ATTNVIZ_VERSION
#define ATTNVIZ_VERSION "0.1.0"
#endif

namespace attnviz::ui {

void set_application_identity() {
    QCoreApplication::setOrganizationName(QStringLiteral("AttnViz"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("attnviz.org"));
    QCoreApplication::setApplicationName(QStringLiteral("AttnViz"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ATTNVIZ_VERSION));
}

namespace {

/// Takes "--lang NAME" / "--lang=NAME" out of `args`.  Returns the name ("" when absent);
/// `*found` tells whether the option was there at all.
QString take_lang_option(QStringList* args, bool* found) {
    *found = false;
    QString value;
    for (int k = 0; k < args->size();) {
        const QString& a = args->at(k);
        if (a == QLatin1String("--lang")) {
            *found = true;
            value = k + 1 < args->size() ? args->at(k + 1) : QString();
            args->remove(k, std::min<qsizetype>(2, args->size() - k));
        } else if (a.startsWith(QLatin1String("--lang="))) {
            *found = true;
            value = a.mid(7);
            args->remove(k);
        } else {
            ++k;
        }
    }
    return value;
}

}  // namespace

int run_gui(int argc, char** argv) {
    set_application_identity();
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("AttnViz"));

    // The language: --lang, else ATTNVIZ_LANG, else the View ▸ Language preference, else the
    // system locale.  The first two hold for this run only.
    QStringList args = QCoreApplication::arguments().mid(1);
    bool has_lang = false;
    QString lang = take_lang_option(&args, &has_lang);
    if (!has_lang) lang = qEnvironmentVariable("ATTNVIZ_LANG");
    if (!lang.isEmpty() && normalize_language(lang).isEmpty()) {
        std::fprintf(stderr, "attnviz: unknown language '%s' (use en, zh_CN or system)\n",
                     lang.toLocal8Bit().constData());
        lang.clear();
    }
    AppSettings settings;
    LanguageSwitcher switcher(&settings);
    switcher.start(lang)->show();
    // For classroom machines and screenshots: ATTNVIZ_EXAMPLE=<id> opens an example at start,
    // ATTNVIZ_PRESENT=1 starts presenting, ATTNVIZ_TAB=<grid|steps|lines|statistics|compare|model>
    // opens that view.  Read here, once, not by the window: a window rebuilt in another
    // language must not open the example again over the class's changes.
    QString example = qEnvironmentVariable("ATTNVIZ_EXAMPLE");
    // Started without a file: the window opens on a trained model AttnViz ships, so the first
    // thing a class sees is heads that learned something (the demo layer is one click away,
    // in the Source box).
    const bool has_file = std::any_of(
        args.begin(), args.end(), [](const QString& a) { return !a.startsWith(QLatin1Char('-')); });
    if (example.isEmpty() && !has_file && !shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
        example = QStringLiteral("learned_heads");
    const bool present = qEnvironmentVariableIntValue("ATTNVIZ_PRESENT") != 0;
    ViewTabs::Tab tab = ViewTabs::GridTab;
    const bool has_tab = ViewTabs::tabFromName(qEnvironmentVariable("ATTNVIZ_TAB"), &tab);
    if (!example.isEmpty() || present || has_tab)
        QTimer::singleShot(0, &switcher, [&switcher, example, present, has_tab, tab] {
            if (!example.isEmpty()) switcher.window()->loadExample(example);
            if (has_tab) switcher.window()->views()->setCurrentTab(tab);
            if (present) switcher.window()->setPresentation(true);
        });
    for (const QString& arg : args) {
        if (arg.startsWith(QLatin1Char('-'))) continue;
        // `attnviz DIR` opens a model folder, `attnviz FILE.attnviz` a session.
        QTimer::singleShot(0, &switcher, [&switcher, arg] {
            if (QFileInfo(arg).isDir())
                switcher.window()->openModel(arg);
            else
                switcher.window()->openSession(arg);
        });
        break;
    }
    RecoveryKeeper recovery(&switcher);  // offers a crashed run's work; a clean exit cleans up
    return app.exec();
}

}  // namespace attnviz::ui
