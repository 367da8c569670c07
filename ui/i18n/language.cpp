#include "ui/i18n/language.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QMenu>
#include <QPointer>
#include <QTranslator>

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, declared as a class so that lupdate
// files them under the same context tr() looks them up in.
struct LanguageText {
    Q_DECLARE_TR_FUNCTIONS(LanguageMenu)
};

struct Installed {
    QPointer<QTranslator> qt;
    QPointer<QTranslator> app;
    QString language = QLatin1String(kEnglish);
};

Installed& installed() {
    static Installed state;
    return state;
}

void replace_translator(QPointer<QTranslator>* slot, QTranslator* next) {
    if (*slot) {
        QCoreApplication::removeTranslator(*slot);
        delete slot->data();
    }
    *slot = next;
    if (next) QCoreApplication::installTranslator(next);
}

/// A catalog from the first folder that has it, or null.
QTranslator* load_catalog(const QString& name, const QStringList& dirs) {
    auto* translator = new QTranslator(QCoreApplication::instance());
    for (const QString& dir : dirs)
        if (translator->load(name, dir)) return translator;
    delete translator;
    return nullptr;
}

/// "English" / "简体中文": each language named in itself.
QString native_name(const QString& language) {
    return language == QLatin1String(kChinese) ? QStringLiteral("简体中文")
                                               : QStringLiteral("English");
}
}  // namespace

QString normalize_language(const QString& name) {
    QString n = name.trimmed().toLower();
    n.replace(QLatin1Char('-'), QLatin1Char('_'));
    if (n == QLatin1String("system") || n == QLatin1String("auto") || n == QLatin1String("default"))
        return QLatin1String(kSystemLanguage);
    if (n == QLatin1String("c") || n == QLatin1String("posix") || n.startsWith(QLatin1String("en")))
        return QLatin1String(kEnglish);
    if (n.startsWith(QLatin1String("zh"))) return QLatin1String(kChinese);
    return {};
}

QString resolve_language(const QString& preference, const QStringList& ui_languages) {
    const QString p = normalize_language(preference);
    if (p == QLatin1String(kEnglish) || p == QLatin1String(kChinese)) return p;
    for (const QString& language : ui_languages) {
        const QString n = normalize_language(language);
        if (n == QLatin1String(kEnglish) || n == QLatin1String(kChinese)) return n;
    }
    return QLatin1String(kEnglish);
}

QString resolve_language(const QString& preference) {
    return resolve_language(preference, QLocale::system().uiLanguages());
}

bool install_translations(const QString& language) {
    Installed& state = installed();
    // Qt's own strings are English in the source: only other languages need a catalog.  The
    // installed Qt's catalog matches the running library best; the copy compiled in (when
    // the build machine had one) keeps a self-contained binary Chinese throughout.
    QTranslator* qt = nullptr;
    if (language != QLatin1String(kEnglish))
        qt = load_catalog(
            QStringLiteral("qtbase_") + language,
            {QLibraryInfo::path(QLibraryInfo::TranslationsPath), QStringLiteral(":/i18n")});
    // The English catalog is loaded too: it holds the singular forms of "%n head(s)".
    QTranslator* app =
        load_catalog(QStringLiteral("attnviz_") + language,
                     {QStringLiteral(":/i18n"),
                      QCoreApplication::applicationDirPath() + QStringLiteral("/translations")});
    replace_translator(&state.qt, qt);
    replace_translator(&state.app, app);
    state.language = language;
    return app != nullptr;
}

QString installed_language() {
    return installed().language;
}

QMenu* create_language_menu(const QString& preference, QWidget* parent) {
    auto* menu = new QMenu(LanguageText::tr("Lang&uage"), parent);
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto* group = new QActionGroup(menu);
    group->setExclusive(true);
    struct Item {
        const char* object_name;
        const char* value;
        QString text;
    };
    const Item items[] = {
        {"languageSystem", kSystemLanguage,
         LanguageText::tr("&System (%1)")
             .arg(native_name(resolve_language(QLatin1String(kSystemLanguage))))},
        {"languageEnglish", kEnglish, QStringLiteral("&English")},
        {"languageChinese", kChinese, QStringLiteral("简体中文(&C)")},
    };
    const QString current = normalize_language(preference);
    for (const Item& item : items) {
        QAction* action = menu->addAction(item.text);
        action->setObjectName(QLatin1String(item.object_name));
        action->setData(QLatin1String(item.value));
        action->setCheckable(true);
        action->setChecked(current == QLatin1String(item.value));
        group->addAction(action);
    }
    return menu;
}

}  // namespace attnviz::ui
