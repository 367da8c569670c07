// Every example as a class sees it (issue 35): in English and Chinese, at 1280×800, at
// 1920×1080 and in Presentation Mode, no label or button shows less than its whole text, no
// column is pushed wider than its splitter gives it, and the figure gets at least half of
// the window's height.

#include <QApplication>
#include <QFile>
#include <QFontInfo>
#include <QGuiApplication>
#include <QMenuBar>
#include <QScreen>
#include <QStatusBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTest>

#include "layout_check.h"
#include "test_support.h"
#include "ui/classroom/examples.h"
#include "ui/document/attention_document.h"
#include "ui/i18n/language.h"
#include "ui/model/predictions_view.h"
#include "ui/render/heatmap_figure.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
/// How the window is shown: a size, or Presentation Mode (full screen).
struct Screen {
    const char* name;
    QSize size;
    bool present;
};
/// The screen is a 1280×800 projector's (tests/ui.cmake): presenting fills it.
constexpr Screen kScreens[] = {{"1280x800", {1280, 800}, false},
                               {"1920x1080", {1920, 1080}, false},
                               {"presenting", {1280, 800}, true}};
}  // namespace

class LayoutTest : public test::WindowFixture {
    Q_OBJECT

    /// The figure's share of the window: the height of the view tab's page.
    double figureShare() const {
        const QWidget* page = w_->views()->tabs()->currentWidget();
        return page ? double(page->height()) / w_->height() : 0.0;
    }

  private slots:
    void zzDiagnose_data() { everyExampleFitsInBothLanguages_data(); }
    void zzDiagnose() {
        QFETCH(QString, language);
        QFETCH(QString, example);
        QFETCH(QSize, size);
        QFETCH(bool, present);
        QVERIFY(install_translations(language));
        openWindow({test::temp_path(QStringLiteral("layout.ini")), size, {}});
        if (QTest::currentTestFailed()) return;
        QVERIFY(w_->loadExample(example));
        SETTLE(*w_);
        if (present) w_->setPresentation(true); else w_->resize(size);
        QTest::qWait(1);
        SETTLE(*w_);
        QApplication::processEvents();
        auto show = [](const char* what, const QWidget* x) {
            qInfo("%-28s min %4d hint %4dx%-4d size %4dx%-4d %s", what, x->minimumWidth(),
                  x->minimumSizeHint().width(), x->minimumSizeHint().height(), x->width(), x->height(),
                  x->metaObject()->className());
        };
        show("window", w_.get());
        qInfo("frame %d,%d %dx%d", w_->frameGeometry().x(), w_->frameGeometry().y(), w_->frameGeometry().width(), w_->frameGeometry().height());
        show("central", w_->centralWidget());
        auto* sp = qobject_cast<QSplitter*>(w_->centralWidget());
        for (int i = 0; i < sp->count(); ++i) show("  split child", sp->widget(i));
        QWidget* right = sp->widget(1);
        for (QObject* o : right->children()) if (auto* x = qobject_cast<QWidget*>(o)) show("    right child", x);
        show("menubar", w_->menuBar());
        show("statusbar", w_->statusBar());
        QTabWidget* t = w_->views()->tabs();
        for (QWidget* x : t->findChildren<QWidget*>()) x->updateGeometry();
        for (QLayout* l : t->findChildren<QLayout*>()) l->invalidate();
        t->updateGeometry();
        QApplication::processEvents();
        QApplication::processEvents();
        show("window after", w_.get());
        show("tabs", t);
        for (int i = 0; i < t->count(); ++i) show(qPrintable("   page " + t->tabText(i)), t->widget(i));
        show("tabbar", t->tabBar());
        std::function<void(const QWidget*, int)> dump = [&](const QWidget* x, int depth) {
            if (depth > 3) return;
            for (QObject* o : x->children()) {
                auto* c = qobject_cast<QWidget*>(o);
                if (!c || c->isWindow() || c->isHidden()) continue;
                qInfo("%*s%s %s min %d hint %d sizehint %d pol %d text '%s'", depth * 2, "", c->metaObject()->className(),
                      qPrintable(c->objectName()), c->minimumWidth(), c->minimumSizeHint().width(),
                      c->sizeHint().width(), int(c->sizePolicy().horizontalPolicy()),
                      qPrintable(c->property("text").toString().left(40)));
                dump(c, depth + 1);
            }
        };
        for (int i = 0; i < t->count(); ++i) {
            qInfo("== %s", qPrintable(t->tabText(i)));
            dump(t->widget(i), 1);
        }
    }
    void cleanup() {
        closeWindow();
        install_translations(QStringLiteral("en"));
    }

    /// A first launch on a screen smaller than the default window (this test's: a 1280×800
    /// projector) opens maximized, not at 92% of the screen
    /// with the figure a quarter of it.  Its size once saved is used as it is.
    void aFirstLaunchOnASmallScreenOpensMaximized() {
        const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
        QVERIFY(screen.width() < 1480 || screen.height() < 940);
        const QString ini = test::temp_path(QStringLiteral("first-launch.ini"));
        QFile::remove(ini);
        makeWindow({ini});
        w_->showAsLaunched();
        QTRY_VERIFY(w_->isMaximized());
        w_->showNormal();
        w_->resize(700, 500);
        QTest::qWait(1);
        QVERIFY(w_->close());  // saves the size
        makeWindow({ini});     // the next launch
        w_->showAsLaunched();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        QVERIFY(!w_->isMaximized());
    }

    void everyExampleFitsInBothLanguages_data() {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("example");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("present");
        for (const char* language : {"en", "zh_CN"}) {
            install_translations(QString::fromLatin1(language));
            for (const Example& e : builtin_examples()) {
#ifdef ATTNVIZ_LAYOUT_FEW_EXAMPLES
                if (e.id != QLatin1String("knock_out") &&
                    e.id != QLatin1String("induction_head_zh"))
                    continue;
#endif
                for (const Screen& s : kScreens)
                    QTest::addRow("%s/%s/%s", language, qPrintable(e.id), s.name)
                        << QString::fromLatin1(language) << e.id << s.size << s.present;
            }
        }
        install_translations(QStringLiteral("en"));
    }

    void everyExampleFitsInBothLanguages() {
        QFETCH(QString, language);
        QFETCH(QString, example);
        QFETCH(QSize, size);
        QFETCH(bool, present);
        QVERIFY(install_translations(language));
        openWindow({test::temp_path(QStringLiteral("layout.ini")), size, {}});
        if (QTest::currentTestFailed()) return;
        QVERIFY(w_->loadExample(example));
        SETTLE(*w_);
        if (present)
            w_->setPresentation(true);  // full screen
        else
            w_->resize(size);
        QTest::qWait(1);
        SETTLE(*w_);
        QApplication::processEvents();

        const QStringList clipped = test::clipped_texts(w_.get());
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QStringLiteral("\n  "))));
        const QStringList wide = test::overwide_areas(w_.get());
        QVERIFY2(wide.isEmpty(), qPrintable(wide.join(QStringLiteral("\n  "))));
        QVERIFY2(figureShare() >= 0.5,
                 qPrintable(QStringLiteral("the figure has %1% of the window's %2 px")
                                .arg(qRound(100 * figureShare()))
                                .arg(w_->height())));
        // One head's map is the figure, not its labels: presenting, a quarter of the screen's
        // height at least (at 1280×800 its rotated token labels once left it 130 px); in a
        // window that shares its height with the banner and the strip, a fifth.
        HeatmapFigure* figure = w_->grid()->figure();
        if (w_->views()->currentTab() == ViewTabs::GridTab && figure->panelCount() == 1) {
            const int map_h = figure->panelRect(0)->rect().height();
            QVERIFY2(map_h >= w_->height() / (present ? 4 : 5),
                     qPrintable(QStringLiteral("the map is %1 px of the window's %2")
                                    .arg(map_h)
                                    .arg(w_->height())));
        }
    }

    /// The strip of guesses under the heatmaps at 70 tokens, in English and Chinese, normal and
    /// presenting: no two of its texts overlap, each lies inside the strip, the caption is
    /// whole, and presenting it is at least 14 px type.
    void theStripOfGuessesStaysLegible_data() {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("example");
        QTest::addColumn<bool>("present");
        for (const bool present : {false, true}) {
            QTest::addRow("en/%s", present ? "presenting" : "window")
                << QStringLiteral("en") << QStringLiteral("induction_head") << present;
            QTest::addRow("zh_CN/%s", present ? "presenting" : "window")
                << QStringLiteral("zh_CN") << QStringLiteral("induction_head_zh") << present;
        }
    }

    void theStripOfGuessesStaysLegible() {
        QFETCH(QString, language);
        QFETCH(QString, example);
        QFETCH(bool, present);
        QVERIFY(install_translations(language));
        openWindow({test::temp_path(QStringLiteral("layout.ini")), QSize(1280, 800), {}});
        if (QTest::currentTestFailed()) return;
        QVERIFY(w_->loadExample(example));
        SETTLE(*w_);
        // 70 tokens or more: the example's text, repeated.
        const QString text = w_->document()->textA();
        QString longer = text;
        while (snap()->source_len < 70) {
            longer += QLatin1Char(' ') + text;
            w_->document()->setTextA(longer);
            SETTLE(*w_);
        }
        if (present) {
            w_->setPresentation(true);
            QTest::qWait(1);
            SETTLE(*w_);
        }
        w_->grid()->setFocus();
        QApplication::processEvents();
        PredictionStrip* strip = w_->grid()->predictionStrip();
        QVERIFY(strip->isVisible());
        if (present) QVERIFY(QFontInfo(strip->font()).pixelSize() >= 14);
        strip->repaint();
        const std::vector<QRectF>& rects = strip->textRects();
        // The row's name, a guess at least, the loss bar's name and the caption.
        QVERIFY2(rects.size() >= 4, qPrintable(QString::number(rects.size())));
        const QRectF inside = QRectF(strip->rect()).adjusted(-0.5, -0.5, 0.5, 0.5);
        for (std::size_t a = 0; a < rects.size(); ++a) {
            QVERIFY2(inside.contains(rects[a]),
                     qPrintable(QStringLiteral("text %1 at %2,%3 %4×%5 leaves the %6×%7 strip")
                                    .arg(a)
                                    .arg(rects[a].x())
                                    .arg(rects[a].y())
                                    .arg(rects[a].width())
                                    .arg(rects[a].height())
                                    .arg(strip->width())
                                    .arg(strip->height())));
            for (std::size_t b = a + 1; b < rects.size(); ++b) {
                const QRectF both = rects[a].intersected(rects[b]);
                QVERIFY2(both.width() < 1.0 || both.height() < 1.0,
                         qPrintable(QStringLiteral("texts %1 and %2 overlap").arg(a).arg(b)));
            }
        }
    }
};

QTEST_MAIN(LayoutTest)
#include "ui_layout_test.moc"
