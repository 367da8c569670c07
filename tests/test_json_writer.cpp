// The one JSON writer (engine/io/json_writer.h): commas and nesting, escaping, numbers in the
// printf formats the outputs have always used, non-finite numbers as null, and every document
// it writes read back by the strict parser (engine/io/json.h).  No raw string literals: moc
// loses the test class after one that holds braces.
#include <QTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "engine/io/json.h"
#include "engine/io/json_writer.h"

using namespace attnviz::io;
using json::Format;
using json::Writer;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

QByteArray bytes(const std::string& s) {
    return QByteArray::fromStdString(s);
}

/// `text` parsed strictly; the parse error as the failure message.
bool parses(const std::string& text, QString* error) {
    try {
        json::parse(text);
        return true;
    } catch (const json::ParseError& e) {
        *error = QString::fromStdString(e.what()) + ": " + QString::fromStdString(text);
        return false;
    }
}

}  // namespace

class TestJsonWriter : public QObject {
    Q_OBJECT

  private slots:
    void nesting_and_commas() {
        Writer w;
        w.begin_object();
        w.key("a").begin_array().value(1).value(2);
        w.begin_object().member("b", nullptr).end_object();
        w.begin_array().end_array();
        w.end_array();
        w.key("c").begin_object().end_object();
        w.member("d", true).member("e", false).member("f", "x");
        w.end_object();
        QCOMPARE(bytes(w.str()),
                 QByteArray("{\"a\":[1,2,{\"b\":null},[]],\"c\":{},\"d\":true,\"e\":false,"
                            "\"f\":\"x\"}"));
        QString error;
        QVERIFY2(parses(w.str(), &error), qPrintable(error));
    }

    void scalar_documents() {
        QCOMPARE(bytes(Writer().value(7).str()), QByteArray("7"));
        QCOMPARE(bytes(Writer().value("s").str()), QByteArray("\"s\""));
        QCOMPARE(bytes(Writer().begin_array().end_array().str()), QByteArray("[]"));
        QCOMPARE(bytes(Writer().value(kNaN).str()), QByteArray("null"));
    }

    void non_finite_numbers_are_null() {
        Writer w;
        w.begin_array();
        for (const double v : {kNaN, kInf, -kInf})
            for (const Format f : {Format::shortest(), Format::general(6), Format::fixed(3)})
                w.value(v, f);
        w.value(static_cast<float>(kNaN)).value(static_cast<float>(kInf));
        w.value(-static_cast<float>(kInf), Format::general(7));
        w.end_array();
        const std::string expected =
            "[null,null,null,null,null,null,null,null,null,null,null,null]";
        QCOMPARE(bytes(w.str()), bytes(expected));
        // The same document as an object's members: the parser reads each as null.
        Writer o;
        o.begin_object().member("nan", kNaN).member("inf", kInf).member("-inf", -kInf);
        o.member("pct", kNaN, Format::fixed(1)).end_object();
        const json::Document d = json::parse(o.str());
        for (const char* k : {"nan", "inf", "-inf", "pct"}) {
            const auto v = json::find(d.root(), k);
            QVERIFY2(v && v->type() == json::Type::NULL_VALUE, k);
        }
    }

    void numbers_as_printf_prints_them() {
        const auto one = [](double v, Format f) { return bytes(Writer().value(v, f).str()); };
        QCOMPARE(one(0.1234567, Format::general(6)), QByteArray("0.123457"));
        QCOMPARE(one(1234567.0, Format::general(6)), QByteArray("1.23457e+06"));
        QCOMPARE(one(1e-5, Format::general(6)), QByteArray("1e-05"));
        QCOMPARE(one(-2.5, Format::general(7)), QByteArray("-2.5"));
        QCOMPARE(one(3.0, Format::fixed(3)), QByteArray("3.000"));
        QCOMPARE(one(0.0004, Format::fixed(3)), QByteArray("0.000"));
        QCOMPARE(one(2.25, Format::fixed(1)), QByteArray("2.2"));  // round half to even, as printf
        QCOMPARE(one(8.0, Format::fixed(0)), QByteArray("8"));
        QCOMPARE(one(0.1, Format::shortest()), QByteArray("0.1"));
        QCOMPARE(one(-0.0, Format::general(6)), QByteArray("-0"));
        // A float's shortest text is its own, not its double's.
        QCOMPARE(bytes(Writer().value(1e-5f).str()), QByteArray("1e-05"));
        QCOMPARE(bytes(Writer().value(1e-5f, Format::general(7)).str()), QByteArray("1e-05"));
        QCOMPARE(bytes(Writer().value(static_cast<double>(1e-5f)).str()),
                 QByteArray("9.999999747378752e-06"));
        // Printed as snprintf prints it, whatever the length.
        for (const double v : {1e300, -1.5e308, 123456789.123456789}) {
            char buf[400];
            std::snprintf(buf, sizeof buf, "%.3f", v);
            QCOMPARE(one(v, Format::fixed(3)), QByteArray(buf));
            std::snprintf(buf, sizeof buf, "%.6g", v);
            QCOMPARE(one(v, Format::general(6)), QByteArray(buf));
        }
        QString error;
        QVERIFY2(parses(Writer().value(1e300, Format::fixed(3)).str(), &error), qPrintable(error));
    }

    void integers_exactly() {
        Writer w;
        w.begin_array()
            .value(std::numeric_limits<std::int64_t>::min())
            .value(std::numeric_limits<std::uint64_t>::max())
            .value(-1)
            .value(static_cast<unsigned char>(200))
            .value(static_cast<std::size_t>(42))
            .end_array();
        QCOMPARE(bytes(w.str()),
                 QByteArray("[-9223372036854775808,18446744073709551615,-1,200,42]"));
        const json::Document d = json::parse(w.str());
        const json::Array a(d.root());
        QCOMPARE(json::as_int64(a.at(0).value_unsafe()),
                 std::optional<std::int64_t>(std::numeric_limits<std::int64_t>::min()));
        QCOMPARE(json::as_uint64(a.at(1).value_unsafe()),
                 std::optional<std::uint64_t>(std::numeric_limits<std::uint64_t>::max()));
    }

    void strings_and_keys_escaped() {
        const std::string nasty = std::string("say \"hi\" \\ /\n\t\r\b\f") + '\0' + "\x01\x1f\x7f";
        const std::string cjk = "我爱自然语言处理 \xF0\x9F\x98\x80";
        Writer w;
        w.begin_object().member(nasty, cjk).member(cjk, nasty).end_object();
        const std::string escaped =
            "\"say \\\"hi\\\" \\\\ /\\u000a\\u0009\\u000d\\u0008\\u000c\\u0000\\u0001\\u001f"
            "\\u007f\"";
        QCOMPARE(bytes(w.str()),
                 bytes("{" + escaped + ":\"" + cjk + "\",\"" + cjk + "\":" + escaped + "}"));
        const json::Document d = json::parse(w.str());
        QCOMPARE(json::as_string(*json::find(d.root(), nasty)),
                 std::optional<std::string_view>(cjk));
        QCOMPARE(json::as_string(*json::find(d.root(), cjk)),
                 std::optional<std::string_view>(nasty));
        QCOMPARE(json::quote(nasty), escaped);
    }

    void invalid_utf8_replaced() {
        // Each byte of a broken sequence becomes U+FFFD; valid neighbours stay.
        const std::string broken = "a\xFF\xC0\xAF\xE6\xB3z";
        const std::string text = Writer().value(broken).str();
        QCOMPARE(bytes(text), QByteArray("\"a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                                         "\xEF\xBF\xBDz\""));
        QString error;
        QVERIFY2(parses(text, &error), qPrintable(error));
    }

    void misuse_throws() {
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Writer().begin_object().value(1));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Writer().begin_array().key("k"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Writer().key("k"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Writer().begin_object().end_array());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Writer().begin_array().end_object());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Writer().begin_object().key("a").key("b"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Writer().begin_object().key("a").end_object());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, Writer().value(1).value(2));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, (void)Writer().begin_array().str());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, (void)Writer().str());
    }

    void take_leaves_an_empty_writer() {
        Writer w;
        QVERIFY(!w.complete());
        w.begin_array().value(1).end_array();
        QVERIFY(w.complete());
        QCOMPARE(bytes(w.take()), QByteArray("[1]"));
        QVERIFY(!w.complete());
        w.begin_object().member("k", 2).end_object();
        QCOMPARE(bytes(w.take()), QByteArray("{\"k\":2}"));
    }
};

QTEST_APPLESS_MAIN(TestJsonWriter)
#include "test_json_writer.moc"
