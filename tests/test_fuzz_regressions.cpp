// Replays every input the fuzzers ever crashed on (fuzz/regressions/<target>/) and every seed
// (fuzz/corpus/<target>/) through the fuzzers' own entry functions (fuzz/fuzz_entry.h), in
// the ordinary and the sanitizer builds.  An input may be refused only with the exceptions
// the parsers document; those the entry already catches.  Anything that leaves an entry — a
// broken invariant, any other exception — fails the row named after the file.  A hang fails
// through CTest's timeout; an input slower than kReportSeconds is reported.
//
// Built twice (tests/fuzz_regressions.cmake): test_fuzz_regressions replays the engine's
// targets (fuzz/fuzz_entry.h), test_fuzz_session_regressions, with ATTNVIZ_FUZZ_SESSION, the
// session loader's (fuzz/fuzz_session_entry.h, which needs the ui library).
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QString>
#include <QTest>

#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <typeinfo>

#include "fuzz/fuzz_entry.h"
#ifdef ATTNVIZ_FUZZ_SESSION
#include "fuzz/fuzz_session_entry.h"
#endif

namespace {

// Each file is at most a few hundred kB and parses in milliseconds, also under ASan.  Speed
// is not asserted here (under ASan with ctest -j a loaded machine made it flaky): a hang is
// caught by CTest's timeout, a slow input is reported, and the fuzzers' -timeout=10 and the
// benchmarks measure speed.
constexpr double kReportSeconds = 2.0;

QString fuzz_dir() {
    return QStringLiteral(ATTNVIZ_FUZZ_DIR);
}

// The targets this build replays.
std::span<const attnviz::fuzz::Target> replayed_targets() {
#ifdef ATTNVIZ_FUZZ_SESSION
    return attnviz::fuzz::session_targets();
#else
    return attnviz::fuzz::targets();
#endif
}

const attnviz::fuzz::Target* find_replayed_target(const QString& name) {
    for (const attnviz::fuzz::Target& t : replayed_targets())
        if (t.name == name.toStdString()) return &t;
    return nullptr;
}

QString qstring(std::string_view s) {
    return QString::fromLatin1(s.data(), static_cast<qsizetype>(s.size()));
}

QStringList replayed_names() {
    QStringList names;
    for (const attnviz::fuzz::Target& t : replayed_targets())
        names << qstring(t.name);
    return names;
}

// Every fuzz target, also those the other build of this test replays.
QStringList all_names() {
    QStringList names;
    for (const std::string_view name : attnviz::fuzz::target_names())
        names << qstring(name);
    return names;
}

QStringList subfolders(const QString& path) {
    return QDir(path).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT

  private slots:
    void every_target_has_seeds();
    void no_stray_folders();
    void replay_data();
    void replay();
};

void TestFuzzRegressions::every_target_has_seeds() {
    QVERIFY(!replayed_names().isEmpty());
    for (const QString& name : replayed_names()) {
        const QDir corpus(fuzz_dir() + QStringLiteral("/corpus/") + name);
        QVERIFY2(corpus.exists() && !corpus.entryList(QDir::Files).isEmpty(),
                 qPrintable(QStringLiteral("no seeds in ") + corpus.path()));
    }
}

// A folder named after no target would silently never be replayed (a typo, a renamed target).
void TestFuzzRegressions::no_stray_folders() {
    const QStringList known = all_names();
    for (const QString& name : replayed_names())
        QVERIFY2(known.contains(name),
                 qPrintable(name + QStringLiteral(" is not in target_names()")));
    for (const char* kind : {"corpus", "regressions"})
        for (const QString& folder : subfolders(fuzz_dir() + '/' + QLatin1String(kind)))
            QVERIFY2(known.contains(folder),
                     qPrintable(QStringLiteral("fuzz/%1/%2 names no fuzz target (known: %3)")
                                    .arg(QLatin1String(kind), folder, known.join(", "))));
}

void TestFuzzRegressions::replay_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("path");
    for (const char* kind : {"regressions", "corpus"}) {
        const QString base = fuzz_dir() + '/' + QLatin1String(kind);
        for (const QString& target : replayed_names()) {
            const QDir dir(base + '/' + target);
            for (const QString& file : dir.entryList(QDir::Files, QDir::Name)) {
                const QString row = QLatin1String(kind) + '/' + target + '/' + file;
                QTest::newRow(qPrintable(row)) << target << dir.filePath(file);
            }
        }
    }
}

void TestFuzzRegressions::replay() {
    QFETCH(QString, target);
    QFETCH(QString, path);
    const attnviz::fuzz::Target* t = find_replayed_target(target);
    QVERIFY2(t != nullptr, qPrintable(QStringLiteral("unknown fuzz target ") + target));
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.errorString()));
    const QByteArray bytes = file.readAll();
    std::string failure;
    QElapsedTimer timer;
    timer.start();
    try {
        t->run(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    } catch (const attnviz::fuzz::InvariantViolation& e) {
        failure = std::string("invariant broken: ") + e.what();
    } catch (const std::exception& e) {
        failure = std::string("undocumented exception ") + typeid(e).name() + ": " + e.what();
    } catch (...) {
        failure = "exception of unknown type";
    }
    QVERIFY2(failure.empty(), failure.c_str());
    const double seconds = static_cast<double>(timer.elapsed()) / 1000.0;
    if (seconds > kReportSeconds) qInfo("%s took %.1f s", qPrintable(path), seconds);
}

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "test_fuzz_regressions.moc"
