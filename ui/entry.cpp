#include "ui/entry.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "engine/errors.h"
#include "ui/cli/export_command.h"
#include "ui/document/attention_document.h"
#include "ui/widgets/main_window.h"

#ifndef ATTNVIZ_VERSION
#define ATTNVIZ_VERSION "0.1.0"
#endif

namespace attnviz::ui {

namespace {
void set_application_identity() {
    QCoreApplication::setOrganizationName(QStringLiteral("AttnViz"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("attnviz.org"));
    QCoreApplication::setApplicationName(QStringLiteral("AttnViz"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ATTNVIZ_VERSION));
}

/// Qt's own catalog and the app's (":/i18n/attnviz_<locale>.qm" when compiled in, or a
/// "translations" folder beside the executable), for the system locale.
void install_translations(QCoreApplication* app) {
    const QLocale locale;
    auto* qt = new QTranslator(app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    auto* own = new QTranslator(app);
    const QStringList dirs{
        QStringLiteral(":/i18n"),
        QCoreApplication::applicationDirPath() + QStringLiteral("/translations"),
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/attnviz/translations")};
    for (const QString& dir : dirs) {
        if (own->load(locale, QStringLiteral("attnviz"), QStringLiteral("_"), dir)) {
            QCoreApplication::installTranslator(own);
            break;
        }
    }
}

// Qt's own notices (e.g. "XDG_RUNTIME_DIR not set" on a headless machine) are not the
// command's business: stderr carries exactly one message, and only on failure.
void quiet_message_handler(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtFatalMsg) {
        std::fprintf(stderr, "attnviz export: %s\n", message.toLocal8Bit().constData());
        std::abort();
    }
}

void print_error(const QString& message) {
    std::fprintf(stderr, "attnviz export: %s\n", message.toLocal8Bit().constData());
}
}  // namespace

int run_gui(int argc, char** argv) {
    set_application_identity();
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("AttnViz"));
    install_translations(&app);
    MainWindow window;
    window.show();
    const QStringList args = QCoreApplication::arguments().mid(1);
    for (const QString& arg : args) {
        if (arg.startsWith(QLatin1Char('-'))) continue;
        QTimer::singleShot(0, &window, [&window, arg] { window.openSession(arg); });
        break;
    }
    return app.exec();
}

int run_export_command(int argc, char** argv) {
    QStringList args;
    for (int k = 2; k < argc; ++k)
        args << QString::fromLocal8Bit(argv[k]);

    // Rendering needs a QApplication (QCustomPlot is a widget) but never a display: use the
    // offscreen platform unless the caller chose one explicitly.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    qInstallMessageHandler(quiet_message_handler);
    set_application_identity();
    int qt_argc = 1;
    char* qt_argv[] = {argv[0], nullptr};
    QApplication app(qt_argc, qt_argv);
    install_translations(&app);

    AttentionDocument document;
    ExportCommand command;
    try {
        command = parse_export_arguments(args, &document);
    } catch (const UsageError& e) {
        print_error(QString::fromStdString(e.what()));
        return 2;
    }
    if (command.help) {
        std::fputs(export_usage().toLocal8Bit().constData(), stdout);
        return 0;
    }
    try {
        run_export(command, document);
    } catch (const UsageError& e) {
        print_error(QString::fromStdString(e.what()));
        return 2;
    } catch (const std::exception& e) {
        print_error(QString::fromStdString(e.what()));
        return 1;
    }
    return 0;
}

}  // namespace attnviz::ui
