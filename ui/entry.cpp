#include "ui/entry.h"

#include <QApplication>
#include <QIcon>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "ui/document/shipped_models.h"
#include "ui/i18n/language.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/language_switcher.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/recovery_keeper.h"
#include "ui/widgets/view_tabs.h"

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

int run_gui(int argc, char** argv, const GuiOptions& options) {
    set_application_identity();
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("AttnViz"));
    // The installed menu entry and icon (packaging/): Wayland docks match the window to them.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.attnviz.AttnViz"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("org.attnviz.AttnViz")));

    // The language: --lang, else ATTNVIZ_LANG, else the View ▸ Language preference, else the
    // system locale.  The first two hold for this run only.  --lang was checked by the
    // command line; the variable is checked here.
    QString lang = QString::fromStdString(options.lang);
    if (lang.isEmpty()) lang = qEnvironmentVariable("ATTNVIZ_LANG");
    if (!lang.isEmpty() && normalize_language(lang).isEmpty()) {
        std::fprintf(stderr, "attnviz: unknown language '%s' (use en, zh_CN or system)\n",
                     lang.toLocal8Bit().constData());
        lang.clear();
    }
    AppSettings settings;
    LanguageSwitcher switcher(&settings);
    switcher.start(lang)->showAsLaunched();
    // For classroom machines and screenshots: ATTNVIZ_EXAMPLE=<id> opens an example at start,
    // ATTNVIZ_PRESENT=1 starts presenting, ATTNVIZ_TAB=<grid|steps|lines|statistics|compare|model>
    // opens that view.  Read here, once, not by the window: a window rebuilt in another
    // language must not open the example again over the class's changes.
    QString example = qEnvironmentVariable("ATTNVIZ_EXAMPLE");
    // Started without a file: the window opens on a trained model AttnViz ships, so the first
    // thing a class sees is heads that learned something (the demo layer is one click away,
    // in the Source box).
    const QString model = QString::fromLocal8Bit(options.model_folder.c_str());
    const QString session = QString::fromLocal8Bit(options.session.c_str());
    const QString attentions = QString::fromLocal8Bit(options.attentions.c_str());
    const QString tokens = QString::fromLocal8Bit(options.tokens.c_str());
    const QString b_attentions = QString::fromLocal8Bit(options.b_attentions.c_str());
    const QString b_tokens = QString::fromLocal8Bit(options.b_tokens.c_str());
    const bool has_file = !model.isEmpty() || !session.isEmpty() || !attentions.isEmpty();
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
    if (has_file)
        QTimer::singleShot(
            0, &switcher, [&switcher, model, session, attentions, tokens, b_attentions, b_tokens] {
                if (!attentions.isEmpty()) {
                    if (switcher.window()->openAttentionMaps(attentions, tokens) &&
                        !b_attentions.isEmpty())
                        switcher.window()->compareWithAttentionMaps(b_attentions, b_tokens);
                } else if (!model.isEmpty())
                    switcher.window()->openModel(model);
                else
                    switcher.window()->openSession(session);
            });
    RecoveryKeeper recovery(&switcher);  // offers a crashed run's work; a clean exit cleans up
    return app.exec();
}

}  // namespace attnviz::ui
