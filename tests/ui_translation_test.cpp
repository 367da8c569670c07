// The Chinese and English interface: the catalogs cover every string of ui/ (lupdate is run
// on the sources here, so a new tr() string without a translation fails), the language
// switch rebuilds the window in the other language without losing the document, the
// Chinese interface has a glyph for every character, and `attnviz export` stays English
// unless --lang asks otherwise.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFormLayout>
#include <QGlyphRun>
#include <QGroupBox>
#include <QImageReader>
#include <QLabel>
#include <QLibraryInfo>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRawFont>
#include <QRegularExpression>
#include <QSet>
#include <QSpinBox>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextLayout>
#include <QXmlStreamReader>

#include <memory>

#include "test_support.h"
#include "ui/classroom/examples.h"
#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/i18n/language.h"
#include "ui/render/fonts.h"
#include "ui/render/heatmap_figure.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/language_switcher.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

#ifndef ATTNVIZ_SOURCE_DIR
#error "ATTNVIZ_SOURCE_DIR must name the source tree"
#endif
#ifndef ATTNVIZ_LUPDATE
#define ATTNVIZ_LUPDATE ""
#endif

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const QString kSourceDir = QStringLiteral(ATTNVIZ_SOURCE_DIR);

QString ts_path(const char* language) {
    return kSourceDir +
           QStringLiteral("/resources/translations/attnviz_%1.ts").arg(QLatin1String(language));
}

// --- .ts files ----------------------------------------------------------------------------

struct TsMessage {
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    QString type;       ///< translation type: "", "unfinished", "vanished", "obsolete"
    QStringList forms;  ///< the translation, or each numerus form
    QString key() const { return context + QChar(0x1f) + source + QChar(0x1f) + comment; }
    QString where() const {
        QString s = source;
        s.replace(QLatin1Char('\n'), QLatin1String("\\n"));
        if (s.size() > 90) s = s.left(87) + QLatin1String("...");
        return QStringLiteral("[%1] \"%2\"").arg(context, s);
    }
    bool active() const {
        return type != QLatin1String("vanished") && type != QLatin1String("obsolete");
    }
};

QList<TsMessage> read_ts(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
        return {};
    }
    QList<TsMessage> out;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage* m = nullptr;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == QLatin1String("context")) {
            m = nullptr;
        } else if (name == QLatin1String("name") && !m) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            out.append(TsMessage{});
            m = &out.last();
            m->context = context;
            m->numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
        } else if (m && name == QLatin1String("source")) {
            m->source = xml.readElementText();
        } else if (m && name == QLatin1String("comment")) {
            m->comment = xml.readElementText();
        } else if (m && name == QLatin1String("translation")) {
            m->type = xml.attributes().value(QLatin1String("type")).toString();
            if (!m->numerus) m->forms << xml.readElementText();
        } else if (m && name == QLatin1String("numerusform")) {
            m->forms << xml.readElementText();
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return out;
}

/// %1 ... %99, %L1 and %n, as a sorted list (a translation must use the same ones).
QStringList placeholders(const QString& text) {
    static const QRegularExpression re(QStringLiteral("%L?(\\d{1,2}|n)"));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(0);
    out.sort();
    out.removeDuplicates();
    return out;
}

/// The keyboard mnemonic of a menu or label text ("&File" -> 'f'), or 0.
QChar mnemonic(const QString& text) {
    for (qsizetype k = 0; k + 1 < text.size(); ++k) {
        if (text[k] != QLatin1Char('&')) continue;
        if (text[k + 1] == QLatin1Char('&')) {
            ++k;
            continue;
        }
        if (text[k + 1].isLetterOrNumber()) return text[k + 1].toLower();
    }
    return QChar();
}

/// Every problem of a catalog: untranslated, unfinished, wrong number of plural forms,
/// placeholders or mnemonics that differ from the source.
QStringList catalog_problems(const QList<TsMessage>& messages, int plural_forms) {
    QStringList problems;
    for (const TsMessage& m : messages) {
        if (!m.active()) continue;
        if (m.type == QLatin1String("unfinished")) {
            problems << QStringLiteral("unfinished: %1").arg(m.where());
            continue;
        }
        if (m.forms.isEmpty() || std::any_of(m.forms.begin(), m.forms.end(), [](const QString& f) {
                return f.trimmed().isEmpty();
            })) {
            problems << QStringLiteral("empty translation: %1").arg(m.where());
            continue;
        }
        if (m.numerus && m.forms.size() != plural_forms)
            problems << QStringLiteral("%1 plural forms instead of %2: %3")
                            .arg(m.forms.size())
                            .arg(plural_forms)
                            .arg(m.where());
        for (const QString& form : m.forms) {
            if (placeholders(form) != placeholders(m.source))
                problems << QStringLiteral("placeholders %1 instead of %2: %3")
                                .arg(placeholders(form).join(QLatin1Char(' ')),
                                     placeholders(m.source).join(QLatin1Char(' ')), m.where());
            const QChar key = mnemonic(m.source);
            if (!key.isNull() && mnemonic(form) != key)
                problems
                    << QStringLiteral("mnemonic &%1 lost (\"%2\"): %3").arg(key, form, m.where());
        }
    }
    return problems;
}

QString listing(const QStringList& lines) {
    return QStringLiteral("\n  ") + lines.join(QStringLiteral("\n  "));
}

// --- windows ------------------------------------------------------------------------------

QStringList menu_titles(const MainWindow& w) {
    QStringList out;
    for (QAction* a : w.menuBar()->actions())
        out << a->text();
    return out;
}

QString embed_dim_label(const MainWindow& w) {
    auto* spin = w.findChild<QSpinBox*>(QStringLiteral("embedDimSpin"));
    if (!spin) return QStringLiteral("<no embedDimSpin>");
    auto* form = qobject_cast<QFormLayout*>(spin->parentWidget()->layout());
    auto* label = form ? qobject_cast<QLabel*>(form->labelForField(spin)) : nullptr;
    return label ? label->text() : QStringLiteral("<no label>");
}

QString figure_title(const MainWindow& w) {
    return w.grid()->figure()->titleText();
}

bool has_cjk(const QString& text) {
    for (const QChar c : text)
        if (c.unicode() >= 0x3000 && c.unicode() <= 0x9fff) return true;
    return false;
}

/// The characters of `text` for which `font` (with the system's fallbacks) has no glyph.
QString missing_glyphs(const QFont& font, const QString& text) {
    QString missing;
    QSet<char32_t> seen;
    for (const char32_t ch : text.toUcs4()) {
        if (ch <= 0x20 || seen.contains(ch)) continue;
        seen.insert(ch);
        const QString one = QString::fromUcs4(&ch, 1);
        QTextLayout layout(one, font);
        layout.beginLayout();
        layout.createLine();
        layout.endLayout();
        bool ok = false;
        for (const QGlyphRun& run : layout.glyphRuns())
            for (const quint32 glyph : run.glyphIndexes())
                ok = ok || glyph != 0;
        if (!ok) missing += one;
    }
    return missing;
}

/// Every text a user sees in a window: menus and their actions, labels, group boxes,
/// buttons, combo box items, tabs.  Pairs of (font, text).
QList<std::pair<QFont, QString>> visible_texts(const MainWindow& w) {
    QList<std::pair<QFont, QString>> out;
    const auto strip = [](QString s) { return s.remove(QLatin1Char('&')); };
    for (QAction* menu_action : w.menuBar()->actions()) {
        out.append({w.menuBar()->font(), strip(menu_action->text())});
        if (QMenu* menu = menu_action->menu())
            for (QAction* a : menu->actions())
                if (!a->text().isEmpty()) out.append({menu->font(), strip(a->text())});
    }
    for (const QLabel* l : w.findChildren<QLabel*>())
        if (!l->text().isEmpty()) out.append({l->font(), strip(l->text())});
    for (const QGroupBox* g : w.findChildren<QGroupBox*>())
        out.append({g->font(), strip(g->title())});
    for (const QAbstractButton* b : w.findChildren<QAbstractButton*>())
        if (!b->text().isEmpty()) out.append({b->font(), strip(b->text())});
    for (const QComboBox* c : w.findChildren<QComboBox*>())
        for (int k = 0; k < c->count(); ++k)
            out.append({c->font(), c->itemText(k)});
    for (const QTabBar* t : w.findChildren<QTabBar*>())
        for (int k = 0; k < t->count(); ++k)
            out.append({t->font(), strip(t->tabText(k))});
    return out;
}

/// Labels that would show a literal "&": a mnemonic with no buddy to give it to.
QStringList stray_ampersands(const QWidget& root) {
    QStringList out;
    for (const QLabel* l : root.findChildren<QLabel*>())
        if (!l->buddy() && l->textFormat() != Qt::RichText && !mnemonic(l->text()).isNull() &&
            !Qt::mightBeRichText(l->text()))
            out << l->text();
    return out;
}

}  // namespace

class TranslationTest : public test::WindowFixture {
    Q_OBJECT

  private slots:
    void cleanup() {
        closeWindow();
        install_translations(QString::fromLatin1(kEnglish));
    }

    // (a) The committed catalogs: nothing untranslated, unfinished or inconsistent.
    void chineseCatalogIsComplete() {
        QString error;
        const QList<TsMessage> messages = read_ts(ts_path("zh_CN"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(messages.size() > 100);
        const QStringList problems = catalog_problems(messages, 1);
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("%1 of %2 Chinese strings need work "
                                           "(translate them in resources/translations/"
                                           "attnviz_zh_CN.ts):%3")
                                .arg(problems.size())
                                .arg(messages.size())
                                .arg(listing(problems))));
    }

    void englishCatalogIsComplete() {
        QString error;
        const QList<TsMessage> messages = read_ts(ts_path("en"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList problems = catalog_problems(messages, 2);
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("attnviz_en.ts (the source text, and the singular "
                                           "and plural of each %n string):%1")
                                .arg(listing(problems))));
        // The same strings as the Chinese catalog.
        QSet<QString> zh, en;
        for (const TsMessage& m : read_ts(ts_path("zh_CN"), &error))
            if (m.active()) zh.insert(m.key());
        for (const TsMessage& m : messages)
            if (m.active()) en.insert(m.key());
        QStringList differ;
        for (const QString& key : zh - en)
            differ
                << QStringLiteral("only in zh_CN: %1").arg(QString(key).replace(QChar(0x1f), ' '));
        for (const QString& key : en - zh)
            differ << QStringLiteral("only in en: %1").arg(QString(key).replace(QChar(0x1f), ' '));
        QVERIFY2(differ.isEmpty(), qPrintable(listing(differ)));
    }

    // (a) Strings that were never extracted: lupdate on today's sources must find nothing
    // the committed catalog lacks.  This is what fails when a tr() string is added without
    // running `cmake --build <dir> --target update_translations` and translating it.
    void everySourceStringIsInTheCatalog() {
        const QString lupdate = QStringLiteral(ATTNVIZ_LUPDATE);
        if (lupdate.isEmpty() || !QFile::exists(lupdate))
            QSKIP("lupdate is not installed (Debian: qt6-l10n-tools)");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fresh = dir.filePath(QStringLiteral("attnviz_zh_CN.ts"));
        QProcess p;
        p.setProcessChannelMode(QProcess::SeparateChannels);
        // The same extraction as the update_translations target: every source of ui/, with
        // the include path that lets lupdate resolve the classes' namespaces.
        p.start(lupdate, {QStringLiteral("-I"), kSourceDir, QStringLiteral("-recursive"),
                          kSourceDir + QStringLiteral("/ui"), QStringLiteral("-extensions"),
                          QStringLiteral("cpp,h"), QStringLiteral("-no-obsolete"),
                          QStringLiteral("-locations"), QStringLiteral("none"),
                          QStringLiteral("-source-language"), QStringLiteral("en"),
                          QStringLiteral("-target-language"), QStringLiteral("zh_CN"),
                          QStringLiteral("-ts"), fresh});
        QVERIFY2(p.waitForFinished(120000), "lupdate did not finish");
        const QString out =
            QString::fromLocal8Bit(p.readAllStandardError() + p.readAllStandardOutput());
        QCOMPARE(p.exitCode(), 0);

        // A tr() lupdate cannot place in a class is filed under the wrong context, and the
        // translation never shows at run time even though the catalog "has" it.
        QStringList misplaced;
        for (const QString& line : out.split(QLatin1Char('\n')))
            if (line.contains(QLatin1String("lacks Q_OBJECT")) ||
                line.contains(QLatin1String("Cannot invoke tr()")) ||
                line.contains(QLatin1String("Qualifying with unknown")))
                misplaced << line.trimmed();
        QVERIFY2(misplaced.isEmpty(),
                 qPrintable(QStringLiteral("lupdate cannot tell the context of these tr() calls; "
                                           "call them on a Q_OBJECT class or on a class with "
                                           "Q_DECLARE_TR_FUNCTIONS(Context), written out (no "
                                           "alias):%1")
                                .arg(listing(misplaced))));

        QString error;
        const QList<TsMessage> extracted = read_ts(fresh, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!extracted.isEmpty());
        QSet<QString> committed;
        for (const TsMessage& m : read_ts(ts_path("zh_CN"), &error))
            if (m.active()) committed.insert(m.key());
        QStringList missing;
        QSet<QString> used;
        for (const TsMessage& m : extracted) {
            used.insert(m.key());
            if (m.context.isEmpty()) missing << QStringLiteral("no context: %1").arg(m.where());
            if (!committed.contains(m.key())) missing << m.where();
        }
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("%1 string(s) of ui/ are not in attnviz_zh_CN.ts; run "
                                           "`cmake --build <dir> --target update_translations` "
                                           "and translate them:%2")
                                .arg(missing.size())
                                .arg(listing(missing))));
        int stale = 0;
        for (const QString& key : committed)
            stale += used.contains(key) ? 0 : 1;
        if (stale)
            qWarning("%d translation(s) no longer used by ui/ (update_translations drops them)",
                     stale);
    }

    // The compiled catalogs are in the binary, and they translate.
    void catalogsAreCompiledIn() {
        QVERIFY(QFile::exists(QStringLiteral(":/i18n/attnviz_zh_CN.qm")));
        QVERIFY(QFile::exists(QStringLiteral(":/i18n/attnviz_en.qm")));
        QVERIFY(install_translations(QString::fromLatin1(kChinese)));
        QCOMPARE(installed_language(), QStringLiteral("zh_CN"));
        QCOMPARE(QCoreApplication::translate("attnviz::ui::WindowActions", "&File"),
                 QStringLiteral("文件(&F)"));
        QCOMPARE(QCoreApplication::translate("AttentionConfig", "%n head(s)", nullptr, 4),
                 QStringLiteral("4 个头"));
        // Qt's own strings (standard buttons) come with it when a qtbase catalog exists.
        if (QFile::exists(QLibraryInfo::path(QLibraryInfo::TranslationsPath) +
                          QStringLiteral("/qtbase_zh_CN.qm")) ||
            QFile::exists(QStringLiteral(":/i18n/qtbase_zh_CN.qm")))
            QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"),
                     QStringLiteral("取消"));
        QVERIFY(install_translations(QString::fromLatin1(kEnglish)));
        QCOMPARE(QCoreApplication::translate("AttentionConfig", "%n head(s)", nullptr, 1),
                 QStringLiteral("1 head"));
        QCOMPARE(QCoreApplication::translate("AttentionConfig", "%n head(s)", nullptr, 4),
                 QStringLiteral("4 heads"));
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Cancel"));
    }

    void resolvesTheLanguage() {
        QCOMPARE(normalize_language(QStringLiteral("zh-CN")), QStringLiteral("zh_CN"));
        QCOMPARE(normalize_language(QStringLiteral("zh_Hans_CN")), QStringLiteral("zh_CN"));
        QCOMPARE(normalize_language(QStringLiteral("en_GB")), QStringLiteral("en"));
        QCOMPARE(normalize_language(QStringLiteral("C")), QStringLiteral("en"));
        QCOMPARE(normalize_language(QStringLiteral("System")), QStringLiteral("system"));
        QVERIFY(normalize_language(QStringLiteral("de")).isEmpty());
        const QString system = QStringLiteral("system");
        QCOMPARE(resolve_language(system, {QStringLiteral("zh-CN"), QStringLiteral("zh")}),
                 QStringLiteral("zh_CN"));
        QCOMPARE(resolve_language(system, {QStringLiteral("zh-TW")}), QStringLiteral("zh_CN"));
        QCOMPARE(resolve_language(system, {QStringLiteral("de-DE"), QStringLiteral("zh-CN")}),
                 QStringLiteral("zh_CN"));
        QCOMPARE(resolve_language(system, {QStringLiteral("de-DE")}), QStringLiteral("en"));
        QCOMPARE(resolve_language(system, {}), QStringLiteral("en"));
        QCOMPARE(resolve_language(QStringLiteral("en"), {QStringLiteral("zh-CN")}),
                 QStringLiteral("en"));
        QCOMPARE(resolve_language(QStringLiteral("zh_CN"), {QStringLiteral("en-US")}),
                 QStringLiteral("zh_CN"));
        // A stale or hand-edited preference reads as "follow the system".
        AppSettings settings(test::temp_path(QStringLiteral("lang.ini")));
        QCOMPARE(settings.language(), QStringLiteral("system"));
        settings.setLanguage(QStringLiteral("klingon"));
        QCOMPARE(settings.language(), QStringLiteral("system"));
        settings.setLanguage(QStringLiteral("zh_CN"));
        QCOMPARE(settings.language(), QStringLiteral("zh_CN"));
    }

    // (b) View > Language rebuilds the window in Chinese and back; the document, its unsaved
    // changes and the window's place survive.
    void switchingLanguageKeepsTheDocument() {
        MainWindow* w =
            startSwitcher(QStringLiteral("en"), {test::temp_path(QStringLiteral("switch.ini"))});
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        SETTLE(*w);
        QVERIFY(menu_titles(*w).contains(QStringLiteral("&File")));
        QVERIFY(menu_titles(*w).contains(QStringLiteral("&View")));
        QCOMPARE(embed_dim_label(*w), QStringLiteral("&embed_dim:"));

        AttentionDocument* doc = w->document();
        doc->setTextA(QStringLiteral("我爱自然语言处理"));
        doc->setNumHeads(2);
        doc->setCausal(true);
        doc->setView(FigureView::Head, 1);
        SETTLE(*w);
        QCOMPARE(figure_title(*w), QStringLiteral("Attention weights of head 2 of 2"));
        QVERIFY(w->isWindowModified());
        const QRect geometry = w->geometry();
        w->views()->setCurrentTab(ViewTabs::StepsTab);

        MainWindow* zh = pickLanguage("languageChinese");
        QVERIFY(zh != w);
        QCOMPARE(settings_->language(), QStringLiteral("zh_CN"));
        QCOMPARE(switcher_->language(), QStringLiteral("zh_CN"));
        QCOMPARE(zh->document(), doc);
        QVERIFY(zh->isVisible());
        SETTLE(*zh);
        const QStringList titles = menu_titles(*zh);
        QVERIFY2(titles.contains(QStringLiteral("文件(&F)")), qPrintable(titles.join(' ')));
        QVERIFY2(titles.contains(QStringLiteral("视图(&V)")), qPrintable(titles.join(' ')));
        QCOMPARE(embed_dim_label(*zh), QStringLiteral("嵌入维度 embed_dim(&E)："));
        QCOMPARE(figure_title(*zh), QStringLiteral("第 2 个头的注意力权重（共 2 个头）"));
        QVERIFY(zh->grid()->figure()->captionText().contains(QStringLiteral("2 个头")));
        QVERIFY(zh->windowTitle().contains(QStringLiteral("未命名")));
        // The document is the same object with the same settings, still unsaved.
        QCOMPARE(doc->textA(), QStringLiteral("我爱自然语言处理"));
        QCOMPARE(doc->numHeads(), 2);
        QVERIFY(doc->causal());
        QCOMPARE(doc->view(), FigureView::Head);
        QCOMPARE(doc->viewHead(), 1);
        QVERIFY(zh->isWindowModified());
        QCOMPARE(zh->geometry().size(), geometry.size());
        QCOMPARE(zh->views()->currentTab(), ViewTabs::StepsTab);
        auto* checked = zh->findChild<QAction*>(QStringLiteral("languageChinese"));
        QVERIFY(checked && checked->isChecked());

        MainWindow* en = pickLanguage("languageEnglish");
        QVERIFY(en != zh);
        QCOMPARE(en->document(), doc);
        SETTLE(*en);
        QVERIFY(menu_titles(*en).contains(QStringLiteral("&File")));
        QCOMPARE(embed_dim_label(*en), QStringLiteral("&embed_dim:"));
        QCOMPARE(figure_title(*en), QStringLiteral("Attention weights of head 2 of 2"));
        QVERIFY(en->isWindowModified());
        QCOMPARE(settings_->language(), QStringLiteral("en"));
    }

    void switchingLanguageLeavesASavedSessionUnmodified() {
        MainWindow* w =
            startSwitcher(QStringLiteral("en"), {test::temp_path(QStringLiteral("saved.ini"))});
        w->show();
        SETTLE(*w);
        const QString session = test::temp_path(QStringLiteral("switch.attnviz"));
        QVERIFY(w->saveSessionTo(session));
        QVERIFY(!w->isWindowModified());
        MainWindow* zh = pickLanguage("languageChinese");
        SETTLE(*zh);
        QTest::qWait(50);
        QVERIFY(!zh->isWindowModified());
        QCOMPARE(zh->currentFile(), QFileInfo(session).absoluteFilePath());
        QVERIFY(zh->windowTitle().contains(QStringLiteral("switch.attnviz")));
    }

    /// Issue 35: switching language with an example open translated the window but dropped
    /// the example's explanation; it stays, in the new language, folded as it was.
    void switchingLanguageKeepsTheExamplesExplanation() {
        MainWindow* w =
            startSwitcher(QStringLiteral("en"), {test::temp_path(QStringLiteral("example.ini"))});
        w->show();
        QVERIFY(w->loadExample(QStringLiteral("causal_mask")));
        SETTLE(*w);
        QVERIFY(w->views()->explanationVisible());
        const QString english = w->views()->explanationLabel()->text();
        QVERIFY(!has_cjk(english));

        MainWindow* zh = pickLanguage("languageChinese");
        SETTLE(*zh);
        QVERIFY(zh->views()->explanationVisible());
        QString expected;
        for (const Example& e : builtin_examples())
            if (e.id == QLatin1String("causal_mask")) expected = e.explanation;
        QVERIFY(has_cjk(expected));
        QCOMPARE(zh->views()->explanationLabel()->text(), expected);
        QVERIFY(!zh->views()->explanationNote()->isVisible());  // still the example's text

        MainWindow* en = pickLanguage("languageEnglish");
        SETTLE(*en);
        QVERIFY(en->views()->explanationVisible());
        QCOMPARE(en->views()->explanationLabel()->text(), english);
    }

    // (c) The Chinese interface shows characters, never boxes: every visible text has a
    // glyph for every character in the font it is drawn with (fallbacks included).
    void chineseInterfaceHasGlyphs() {
        MainWindow* w =
            startSwitcher(QStringLiteral("zh_CN"), {test::temp_path(QStringLiteral("glyphs.ini"))});
        w->show();
        SETTLE(*w);
        // The check itself sees a box: no font has a glyph for a private-use code point.
        QVERIFY(!missing_glyphs(w->font(), QString::fromUcs4(U"a\U0010FFFD")).isEmpty());
        QList<std::pair<QFont, QString>> texts = visible_texts(*w);
        const HeatmapFigure* figure = w->grid()->figure();
        texts.append({w->font(), figure->titleText()});
        texts.append({w->font(), figure->captionText()});
        int chinese = 0;
        QStringList boxes;
        for (const auto& [font, text] : texts) {
            if (!has_cjk(text)) continue;
            ++chinese;
            const QString missing = missing_glyphs(font, text);
            if (!missing.isEmpty())
                boxes << QStringLiteral("\"%1\" in %2: no glyph for %3")
                             .arg(text, font.family(), missing);
        }
        QVERIFY2(chinese >= 20, qPrintable(QStringLiteral("only %1 Chinese texts").arg(chinese)));
        // Counted strings (%n) come from the Chinese catalog too: the mean panel's title.
        QCOMPARE(figure->panelTitle(figure->panelCount() - 1), QStringLiteral("4 个头的平均"));
        QVERIFY2(boxes.isEmpty(), qPrintable(listing(boxes)));
        // The figure picks a CJK family for its titles, so SVG and PDF exports name one.
        const QFont title_font = figure_font(20, {figure->titleText()}, true);
        QVERIFY2(missing_glyphs(title_font, figure->titleText()).isEmpty(),
                 qPrintable(title_font.families().join(QLatin1Char(','))));
    }

    // A form row of several widgets gets a label with no buddy, which shows "&" as is.
    void noLabelShowsAnAmpersand() {
        for (const char* language : {kEnglish, kChinese}) {
            MainWindow* w = startSwitcher(QLatin1String(language),
                                          {test::temp_path(QStringLiteral("amp.ini"))});
            QStringList stray = stray_ampersands(*w);
            ExportDialog dialog(FigureOptions{}, 4, w);
            stray << stray_ampersands(dialog);
            QVERIFY2(stray.isEmpty(), qPrintable(listing(stray)));
        }
    }

    // `attnviz export`: English whatever the machine's locale, Chinese with --lang zh_CN.
    void exportCommandIsEnglishUnlessAsked() {
        const QString cli = qEnvironmentVariable("ATTNVIZ_CLI");
        if (cli.isEmpty()) QSKIP("ATTNVIZ_CLI is not set");
        auto run = [&](const QStringList& extra, const QString& out) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("LANG"), QStringLiteral("zh_CN.UTF-8"));
            env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("zh_CN"));
            p.setProcessEnvironment(env);
            p.start(cli,
                    QStringList{QStringLiteral("export"), QStringLiteral("--text"),
                                QStringLiteral("The cat sat on the mat"), QStringLiteral("--width"),
                                QStringLiteral("400"), QStringLiteral("--height"),
                                QStringLiteral("300"), QStringLiteral("--scale"),
                                QStringLiteral("1"), QStringLiteral("--out"), out} +
                        extra);
            p.waitForFinished(120000);
            return std::make_pair(p.exitCode(), QString::fromLocal8Bit(p.readAllStandardError()));
        };
        const QString en_png = test::temp_path(QStringLiteral("export_en.png"));
        auto [code, err] = run({}, en_png);
        QVERIFY2(code == 0, qPrintable(err));
        QCOMPARE(QImageReader(en_png).text(QStringLiteral("Title")),
                 QStringLiteral("Attention weights per head"));
        const QString zh_png = test::temp_path(QStringLiteral("export_zh.png"));
        std::tie(code, err) = run({QStringLiteral("--lang"), QStringLiteral("zh_CN")}, zh_png);
        QVERIFY2(code == 0, qPrintable(err));
        QCOMPARE(QImageReader(zh_png).text(QStringLiteral("Title")),
                 QStringLiteral("各头的注意力权重"));
        std::tie(code, err) = run({QStringLiteral("--lang=xx")}, zh_png);
        QCOMPARE(code, 2);
        QVERIFY(err.contains(QLatin1String("--lang")));
    }
};

QTEST_MAIN(TranslationTest)
#include "ui_translation_test.moc"
