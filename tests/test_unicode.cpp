// The one UTF-8 decoder (engine/text/unicode.h) on ill-formed input, under both of its checks:
// every code point, byte length and replacement flag of a whole string, so that a change in
// how a bad byte is replaced shows up as the exact position where it differs.

#include <QTest>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "engine/text/unicode.h"

namespace unicode = attnviz::text::unicode;
using unicode::Utf8Check;

namespace {

constexpr char32_t R = unicode::kReplacementChar;

/// One decoded step: the code point, the bytes it took, and whether it replaces bad bytes.
struct Step {
    char32_t code_point;
    std::size_t length;
    bool replaced;
    bool operator==(const Step&) const = default;
};

/// The whole string, step by step; no check: decode()'s default.
std::vector<Step> decode_all(const std::string& bytes, std::optional<Utf8Check> check) {
    std::vector<Step> steps;
    for (std::size_t pos = 0; pos < bytes.size();) {
        const unicode::Decoded d =
            check ? unicode::decode(bytes, pos, *check) : unicode::decode(bytes, pos);
        steps.push_back({d.code_point, d.length, d.replaced});
        pos += d.length;
    }
    return steps;
}

/// "" if equal, else the first differing step with both values.
QString difference(const std::vector<Step>& got, const std::vector<Step>& want) {
    const auto show = [](const std::vector<Step>& v, std::size_t i) {
        if (i >= v.size()) return QStringLiteral("(end)");
        return QStringLiteral("U+%1 x%2%3")
            .arg(uint(v[i].code_point), 4, 16, QLatin1Char('0'))
            .arg(v[i].length)
            .arg(v[i].replaced ? " replaced" : "");
    };
    for (std::size_t i = 0; i < std::max(got.size(), want.size()); ++i)
        if (i >= got.size() || i >= want.size() || !(got[i] == want[i]))
            return QStringLiteral("step %1: got %2, expected %3")
                .arg(i)
                .arg(show(got, i), show(want, i));
    return {};
}

}  // namespace

Q_DECLARE_METATYPE(std::vector<Step>)

class TestUnicode : public QObject {
    Q_OBJECT

  private slots:
    void decode_data();
    void decode();
    void sanitize_replaces_only_bad_bytes();
};

void TestUnicode::decode_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<std::vector<Step>>("strict");
    QTest::addColumn<std::vector<Step>>("lenient");
    const auto both = [](const char* name, QByteArray bytes, std::vector<Step> steps) {
        QTest::newRow(name) << bytes << steps << steps;
    };
    // The checks agree on well-formed text (a real U+FFFD is not a replacement) ...
    both("ascii, 2, 3, 4 bytes", QByteArray("a\xC3\xA9\xE6\x88\x91\xF0\x9F\x98\x80"),
         {{U'a', 1, false}, {0xE9, 2, false}, {0x6211, 3, false}, {0x1F600, 4, false}});
    both("real U+FFFD", QByteArray("\xEF\xBF\xBD"), {{R, 3, false}});
    both("U+10FFFF", QByteArray("\xF4\x8F\xBF\xBF"), {{0x10FFFF, 4, false}});
    // ... on bytes that cannot start a character, one U+FFFD each ...
    both("lone continuation", QByteArray("\x80"), {{R, 1, true}});
    both("continuations",
         QByteArray("a\x80\xBF"
                    "b"),
         {{U'a', 1, false}, {R, 1, true}, {R, 1, true}, {U'b', 1, false}});
    both("2-byte overlong C0 AF", QByteArray("\xC0\xAF"), {{R, 1, true}, {R, 1, true}});
    both("C1 lead", QByteArray("\xC1\xBF"), {{R, 1, true}, {R, 1, true}});
    both("F5, FE, FF", QByteArray("\xF5\xFE\xFF"), {{R, 1, true}, {R, 1, true}, {R, 1, true}});
    // ... and on truncated sequences: one U+FFFD for the lead and the continuations so far.
    both("truncated 3-byte at end", QByteArray("\xE4\xBD"), {{R, 2, true}});
    both("truncated 3-byte then letter", QByteArray("\xE4\xBDx"), {{R, 2, true}, {U'x', 1, false}});
    both("truncated 4-byte then emoji", QByteArray("\xF0\x9F\x98\xF0\x9F\x98\x80"),
         {{R, 3, true}, {0x1F600, 4, false}});
    both("lead then lead", QByteArray("\xC3\xC3\xA9"), {{R, 1, true}, {0xE9, 2, false}});
    both("bad third byte", QByteArray("\xF0\x9F\x41"), {{R, 2, true}, {U'A', 1, false}});

    // They differ only in the first continuation byte of E0, ED, F0, F4: Strict replaces the
    // lead and every byte after it one by one, Lenient reads the bits.
    QTest::newRow("3-byte overlong E0 80 AF")
        << QByteArray("\xE0\x80\xAF") << std::vector<Step>{{R, 1, true}, {R, 1, true}, {R, 1, true}}
        << std::vector<Step>{{0x2F, 3, false}};
    QTest::newRow("4-byte overlong F0 80 80 AF")
        << QByteArray("\xF0\x80\x80\xAF")
        << std::vector<Step>{{R, 1, true}, {R, 1, true}, {R, 1, true}, {R, 1, true}}
        << std::vector<Step>{{0x2F, 4, false}};
    QTest::newRow("surrogate ED A0 80")
        << QByteArray("\xED\xA0\x80") << std::vector<Step>{{R, 1, true}, {R, 1, true}, {R, 1, true}}
        << std::vector<Step>{{0xD800, 3, false}};
    QTest::newRow("above U+10FFFF: F4 90 80 80")
        << QByteArray("\xF4\x90\x80\x80")
        << std::vector<Step>{{R, 1, true}, {R, 1, true}, {R, 1, true}, {R, 1, true}}
        << std::vector<Step>{{0x110000, 4, false}};
    QTest::newRow("truncated surrogate ED A0")
        << QByteArray("\xED\xA0") << std::vector<Step>{{R, 1, true}, {R, 1, true}}
        << std::vector<Step>{{R, 2, true}};
}

void TestUnicode::decode() {
    QFETCH(QByteArray, bytes);
    QFETCH(std::vector<Step>, strict);
    QFETCH(std::vector<Step>, lenient);
    const std::string s(bytes.constData(), std::size_t(bytes.size()));
    const QString strict_diff = difference(decode_all(s, Utf8Check::Strict), strict);
    QVERIFY2(strict_diff.isEmpty(), qPrintable("Strict: " + strict_diff));
    const QString lenient_diff = difference(decode_all(s, Utf8Check::Lenient), lenient);
    QVERIFY2(lenient_diff.isEmpty(), qPrintable("Lenient: " + lenient_diff));
    // Strict is what decode() does unless told otherwise.
    const QString default_diff = difference(decode_all(s, std::nullopt), strict);
    QVERIFY2(default_diff.isEmpty(), qPrintable("default: " + default_diff));
}

void TestUnicode::sanitize_replaces_only_bad_bytes() {
    const std::string fffd = "\xEF\xBF\xBD";
    // Each maximal subpart becomes one U+FFFD; a U+FFFD already there stays one.
    QCOMPARE(unicode::sanitize_utf8("a\xED\xA0\x80"
                                    "b"),
             "a" + fffd + fffd + fffd + "b");
    QCOMPARE(unicode::sanitize_utf8("\xE4\xBDx"), fffd + "x");
    QCOMPARE(unicode::sanitize_utf8(fffd + "\xC3\xA9"), fffd + "\xC3\xA9");
}

QTEST_GUILESS_MAIN(TestUnicode)
#include "test_unicode.moc"
