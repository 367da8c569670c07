// safetensors reading and writing (engine/io/safetensors.h) and the strict JSON parser behind
// it (engine/io/json.h), against torch nn.MultiheadAttention state_dicts laid out as
// safetensors.torch.save_file writes them (tests/data/io/make_io_cases.py).

#include <QDir>
#include <QFileInfo>
#include <QTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"
#include "engine/io/npy.h"
#include "engine/io/safetensors.h"
#include "test_support.h"

using namespace attnviz;

namespace {

std::string st_dir() {
    return test::data_dir() + "/io/safetensors/";
}
std::string st_path(const std::string& file) {
    return st_dir() + file;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

std::string le64(std::uint64_t v) {
    std::string s;
    for (int i = 0; i < 8; ++i)
        s += static_cast<char>((v >> (8 * i)) & 0xFF);
    return s;
}

std::string f32_bytes(std::initializer_list<float> values) {
    std::string s;
    for (const float v : values) {
        const auto bits = std::bit_cast<std::uint32_t>(v);
        for (int i = 0; i < 4; ++i)
            s += static_cast<char>((bits >> (8 * i)) & 0xFF);
    }
    return s;
}

// A safetensors file from header text (padded to 8 bytes with spaces) and data.
std::string st_file(std::string header, const std::string& data) {
    header.append((8 - header.size() % 8) % 8, ' ');
    return le64(header.size()) + header + data;
}

// An independent binary16 decoder for the exhaustive check: the textbook formula.
double half_reference(std::uint16_t h) {
    const int sign = (h >> 15) ? -1 : 1;
    const int exponent = (h >> 10) & 0x1F;
    const int mantissa = h & 0x3FF;
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);
    if (exponent == 31)
        return mantissa ? std::numeric_limits<double>::quiet_NaN()
                        : sign * std::numeric_limits<double>::infinity();
    return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

}  // namespace

class TestSafetensors : public QObject {
    Q_OBJECT

  private slots:
    // What torch wrote, read back with torch's own float32 values (exactly).
    void readsTorchStateDicts_data() {
        QTest::addColumn<QString>("file");
        for (const char* f :
             {"mha_packed.safetensors", "mha_separate.safetensors", "mha_f64.safetensors",
              "mha_f16.safetensors", "mha_bf16.safetensors", "mixed_dtypes.safetensors"})
            QTest::newRow(f) << QString(f);
    }
    void readsTorchStateDicts() {
        QFETCH(QString, file);
        const io::TensorMap tensors = io::read_safetensors(st_path(file.toStdString()));
        const QDir ref_dir(QString::fromStdString(st_path("ref/" + file.toStdString())));
        std::set<std::string> expected_names;
        for (const QString& npy : ref_dir.entryList({"*.npy"}, QDir::Files)) {
            const std::string name = npy.chopped(4).toStdString();
            expected_names.insert(name);
            const auto it = tensors.find(name);
            QVERIFY2(it != tensors.end(), name.c_str());
            const Tensor expected = io::read_npy(ref_dir.filePath(npy).toStdString());
            ATTNVIZ_COMPARE_TENSORS(it->second, expected, 0.0);
        }
        std::set<std::string> names;
        for (const auto& [name, t] : tensors)
            names.insert(name);
        QVERIFY(names == expected_names);
    }

    void readsBothMultiheadAttentionLayouts() {
        const io::TensorMap packed = io::read_safetensors(st_path("mha_packed.safetensors"));
        QCOMPARE(packed.at("in_proj_weight").shape, Shape({48, 16}));
        QCOMPARE(packed.at("in_proj_bias").shape, Shape({48}));
        QCOMPARE(packed.at("out_proj.weight").shape, Shape({16, 16}));
        QCOMPARE(packed.at("out_proj.bias").shape, Shape({16}));

        const io::SafetensorsContents separate =
            io::read_safetensors_contents(st_path("mha_separate.safetensors"));
        QCOMPARE(separate.tensors.at("q_proj_weight").shape, Shape({16, 16}));
        QCOMPARE(separate.tensors.at("k_proj_weight").shape, Shape({16, 12}));
        QCOMPARE(separate.tensors.at("v_proj_weight").shape, Shape({16, 10}));
        QCOMPARE(separate.tensors.at("bias_k").shape, Shape({1, 1, 16}));
        QCOMPARE(separate.metadata, (std::map<std::string, std::string>{{"format", "pt"}}));
    }

    void convertsNarrowFloatsExactly() {
        const io::TensorMap t = io::read_safetensors(st_path("mixed_dtypes.safetensors"));
        const std::vector<float>& h = t.at("f16_special").data;
        QCOMPARE(h[2], std::ldexp(1.0f, -24));  // smallest subnormal
        QCOMPARE(h[3], std::ldexp(1023.0f, -24));
        QVERIFY(h[1] == 0.0f && std::signbit(h[1]));
        QCOMPARE(h[5], 65504.0f);
        QCOMPARE(h[7], std::numeric_limits<float>::infinity());
        QCOMPARE(h[8], -std::numeric_limits<float>::infinity());
        QVERIFY(std::isnan(h[9]));
        QVERIFY(std::isnan(t.at("bf16_special").data[7]));
        QCOMPARE(t.at("f32_scalar").shape, Shape{});
        QCOMPARE(t.at("f32_scalar").data, std::vector<float>{4.5f});
        QCOMPARE(t.at("f32_empty").shape, Shape({2, 0, 3}));
    }

    // All 65536 half and bfloat16 bit patterns against an independent decoder.
    void convertsEveryHalfAndBfloat16Value() {
        std::string data;
        for (std::uint32_t i = 0; i < 65536; ++i) {
            data += static_cast<char>(i & 0xFF);
            data += static_cast<char>(i >> 8);
        }
        for (const char* dtype : {"F16", "BF16"}) {
            const std::string header = std::string("{\"x\":{\"dtype\":\"") + dtype +
                                       "\",\"shape\":[256,256],\"data_offsets\":[0,131072]}}";
            const Tensor x =
                io::parse_safetensors(st_file(header, data), "all.safetensors").at("x");
            for (std::uint32_t i = 0; i < 65536; ++i) {
                const float got = x.data[i];
                const double want = dtype == std::string("F16")
                                        ? half_reference(static_cast<std::uint16_t>(i))
                                        : double(std::bit_cast<float>(i << 16));
                const bool ok = std::isnan(want) ? std::isnan(got)
                                                 : (double(got) == want &&
                                                    std::signbit(got) == std::signbit(want));
                QVERIFY2(ok, qPrintable(QString("%1 bits 0x%2: got %3, expected %4")
                                            .arg(dtype)
                                            .arg(i, 4, 16, QChar('0'))
                                            .arg(double(got), 0, 'g', 9)
                                            .arg(want, 0, 'g', 9)));
            }
        }
    }

    void readsUnusualButValidHeaders() {
        const io::TensorMap u = io::read_safetensors(st_path("unicode_names.safetensors"));
        QCOMPARE(u.size(), std::size_t(3));
        QCOMPARE(u.at("\xD0\xBA\xD0\xBB\xD1\x8E\xD1\x87").data, std::vector<float>{1.0f});  // ключ
        QCOMPARE(u.at("emoji_\xF0\x9F\x98\x80").data, std::vector<float>{2.0f});
        QCOMPARE(u.at("q\"uote\\slash/tab\t").data, std::vector<float>{3.0f});

        const io::TensorMap extra = io::read_safetensors(st_path("extra_fields.safetensors"));
        QCOMPARE(extra.at("w").data, std::vector<float>({-1.0f, 0.25f}));

        QVERIFY(io::read_safetensors(st_path("empty.safetensors")).empty());
    }

    // Our writer lays files out exactly as safetensors.torch.save_file does.
    void serializeMatchesTheReferenceLayout() {
        for (const char* file :
             {"mha_packed.safetensors", "mha_separate.safetensors", "empty.safetensors"}) {
            const std::string path = st_path(file);
            const io::SafetensorsContents c = io::read_safetensors_contents(path);
            QCOMPARE(QByteArray::fromStdString(io::serialize_safetensors(c.tensors, c.metadata)),
                     QByteArray::fromStdString(io::read_file(path)));
        }
        // The format's own examples (the Rust crate's serialization tests).
        const io::TensorMap attn{{"attn.0", Tensor({1, 2, 3}, {0, 1, 2, 3, 4, 5})}};
        QCOMPARE(io::serialize_safetensors(attn),
                 st_file(R"({"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}})",
                         f32_bytes({0, 1, 2, 3, 4, 5})));
        QCOMPARE(io::serialize_safetensors({}), le64(8) + "{}      ");
        QCOMPARE(io::serialize_safetensors({}, {{"framework", "pt"}}),
                 le64(40) + R"({"__metadata__":{"framework":"pt"}})" + "     ");
    }

    void roundTrips() {
        io::TensorMap tensors;
        tensors["scalar"] = Tensor({}, std::vector<float>{std::numeric_limits<float>::quiet_NaN()});
        tensors["empty"] = Tensor({0});
        tensors["empty_3d"] = Tensor({3, 0, 2});
        tensors["one"] = Tensor({1}, std::vector<float>{-0.0f});
        Tensor big({2, 3, 4});
        for (std::size_t i = 0; i < big.numel(); ++i)
            big.data[i] = std::cos(float(i)) * 1e3f;
        big.data[5] = std::numeric_limits<float>::infinity();
        big.data[6] = std::numeric_limits<float>::denorm_min();
        tensors["layers.0.self_attn.in_proj_weight"] = big;
        tensors["name with \"quotes\", \\ and \x01 control"] = Tensor({2}, {1.0f, 2.0f});
        tensors["\xE6\xB3\xA8\xE6\x84\x8F"] = Tensor({1}, std::vector<float>{3.0f});  // 注意
        const std::map<std::string, std::string> metadata{
            {"format", "pt"}, {"note", "line 1\nline \"2\""}, {"", ""}};

        const std::string dir = test::fresh_dir("roundtrip");
        const std::string path = dir + "/w.safetensors";
        io::write_safetensors(path, tensors, metadata);
        QCOMPARE(test::entries(dir), QStringList{"w.safetensors"});

        const io::SafetensorsContents back = io::read_safetensors_contents(path);
        QCOMPARE(back.metadata, metadata);
        QCOMPARE(back.tensors.size(), tensors.size());
        for (const auto& [name, t] : tensors) {
            const auto it = back.tensors.find(name);
            QVERIFY2(it != back.tensors.end(), name.c_str());
            QCOMPARE(it->second.shape, t.shape);
            QVERIFY2(same_bits(it->second.data, t.data), name.c_str());
        }

        // The header is padded to 8 bytes, so the data section is aligned.
        const std::string bytes = io::read_file(path);
        std::uint64_t n = 0;
        std::memcpy(&n, bytes.data(), 8);
        QCOMPARE(n % 8, std::uint64_t(0));
        QCOMPARE(bytes[8 + n - 1] == '}' || bytes[8 + n - 1] == ' ', true);
        // And writing what we read gives the same bytes.
        QCOMPARE(io::serialize_safetensors(back.tensors, back.metadata), bytes);
    }

    void refusesBadFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("phrase");
        QTest::newRow("empty") << "bad_empty.safetensors"
                               << "too short for a safetensors file";
        QTest::newRow("short") << "bad_short.safetensors"
                               << "too short for a safetensors file";
        QTest::newRow("header length larger than file")
            << "bad_header_length_larger.safetensors"
            << "header length 1000 is larger than the file (72 bytes after the length field)";
        QTest::newRow("header length 2^63")
            << "bad_header_length_huge.safetensors"
            << "header length 9223372036854775808 is larger than the file";
        QTest::newRow("not json") << "bad_not_json.safetensors"
                                  << "the header is not valid JSON";
        QTest::newRow("json syntax") << "bad_json_syntax.safetensors"
                                     << "the header is not valid JSON";
        QTest::newRow("not an object") << "bad_not_object.safetensors"
                                       << "not a JSON object";
        QTest::newRow("a .npy file") << "bad_npy_file.safetensors"
                                     << "header length";
        QTest::newRow("missing dtype") << "bad_missing_dtype.safetensors"
                                       << "has no 'dtype'";
        QTest::newRow("missing shape") << "bad_missing_shape.safetensors"
                                       << "has no 'shape'";
        QTest::newRow("missing offsets") << "bad_missing_offsets.safetensors"
                                         << "has no 'data_offsets'";
        QTest::newRow("entry not an object") << "bad_entry_not_object.safetensors"
                                             << "tensor 'a' must be an object";
        QTest::newRow("offsets out of range")
            << "bad_offsets_out_of_range.safetensors"
            << "tensor 'a' data_offsets [0,4096] run past the end of the data";
        QTest::newRow("offsets reversed") << "bad_offsets_reversed.safetensors"
                                          << "data_offsets [16,0] end before they begin";
        QTest::newRow("offsets not a pair") << "bad_offsets_not_pair.safetensors"
                                            << "must be an array [begin, end]";
        QTest::newRow("offsets negative") << "bad_offsets_negative.safetensors"
                                          << "must be non-negative integers";
        QTest::newRow("offsets overlap")
            << "bad_offsets_overlap.safetensors"
            << "tensors 'a' data_offsets [0,16] and 'b' data_offsets [8,24] overlap";
        QTest::newRow("same range twice") << "bad_offsets_duplicate_range.safetensors"
                                          << "overlap";
        QTest::newRow("offsets size mismatch")
            << "bad_offsets_mismatch.safetensors"
            << "tensor 'in_proj_weight' data_offsets [0,4096] do not match shape [96,32] of F32 "
               "(12288 bytes)";
        QTest::newRow("gap") << "bad_offsets_gap.safetensors"
                             << "gap in the data";
        QTest::newRow("trailing data")
            << "bad_trailing_data.safetensors"
            << "trailing data: the last 16 bytes of the file belong to no tensor";
        QTest::newRow("truncated") << "bad_truncated.safetensors"
                                   << "truncated";
        QTest::newRow("unsupported dtype")
            << "bad_unsupported_dtype.safetensors"
            << "tensor 'position_ids' has dtype I64, which cannot be read";
        QTest::newRow("unknown dtype") << "bad_unknown_dtype.safetensors"
                                       << "tensor 'a' has unknown dtype 'Q7'";
        QTest::newRow("duplicate names") << "bad_duplicate_names.safetensors"
                                         << "duplicate key \"a\"";
        QTest::newRow("metadata not strings")
            << "bad_metadata_not_strings.safetensors"
            << "__metadata__ must be an object of strings, but 'epoch' is a number";
        QTest::newRow("metadata not an object") << "bad_metadata_not_object.safetensors"
                                                << "__metadata__ must be an object";
        QTest::newRow("negative dimension") << "bad_shape_negative.safetensors"
                                            << "negative dimension -1";
        QTest::newRow("float dimension") << "bad_shape_float.safetensors"
                                         << "not an integer";
        QTest::newRow("shape overflow") << "bad_shape_overflow.safetensors"
                                        << "(more than 2^64 bytes)";
        QTest::newRow("invalid UTF-8")
            << "bad_invalid_utf8.safetensors"
            << "the header is not valid JSON: The input is not valid UTF-8";
        QTest::newRow("lone surrogate") << "bad_lone_surrogate.safetensors"
                                        << "the header is not valid JSON";
        QTest::newRow("deep nesting") << "bad_deep_nesting.safetensors"
                                      << "nested deeper than 64";
    }
    void refusesBadFiles() {
        QFETCH(QString, file);
        QFETCH(QString, phrase);
        const std::string path = st_path(file.toStdString());
        const std::string p = phrase.toStdString();
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_safetensors(path), path + ": ", p);
        ATTNVIZ_EXPECT_DATA_ERROR(io::parse_safetensors(io::read_file(path), "w.safetensors"),
                                  "w.safetensors: ", p);
    }

    void refusesOversizedHeaders() {
        // The reference's 100 MB limit, checked before the header is parsed.
        const std::string bytes = le64(100'000'001) + std::string(100'000'001, ' ');
        ATTNVIZ_EXPECT_DATA_ERROR(
            io::parse_safetensors(bytes, "big.safetensors"),
            "big.safetensors: header length 100000001 exceeds the 100 MB limit");
    }

    void reportsMissingFilesAndFolders() {
        const std::string missing = test::temp_dir() + "/nothing/w.safetensors";
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_safetensors(missing),
                                  "cannot open '" + missing + "': No such file or directory");
        const std::string folder = test::fresh_dir("x.safetensors");
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_safetensors(folder), "cannot read '" + folder + "'",
                                  "Is a directory");
    }

    void failedWritesLeaveNothingBehind() {
        const std::string dir = test::fresh_dir("failed_writes");
        const io::TensorMap good{{"w", Tensor({2}, {1.0f, 2.0f})}};

        const std::string in_missing = dir + "/out/w.safetensors";
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_safetensors(in_missing, good),
                                  "cannot write '" + in_missing + "': No such file or directory");
        QVERIFY(test::entries(dir).isEmpty());

        const std::string folder = dir + "/w.safetensors";
        QDir().mkpath(QString::fromStdString(folder));
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_safetensors(folder, good),
                                  "cannot write '" + folder + "': Is a directory");
        QCOMPARE(test::entries(dir), QStringList{"w.safetensors"});
        QVERIFY(test::entries(folder).isEmpty());
        QDir(QString::fromStdString(folder)).removeRecursively();

        const std::string path = dir + "/w.safetensors";
        io::write_safetensors(path, good);
        const std::string original = io::read_file(path);
        Tensor broken({2, 2}, 1.0f);
        broken.data.pop_back();
        ATTNVIZ_EXPECT_DATA_ERROR(
            io::write_safetensors(path, {{"x", broken}}),
            "cannot write '" + path + "': tensor 'x' of shape [2,2] holds 3 values");
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_safetensors(path, {{"__metadata__", Tensor({1})}}),
                                  "may not be called '__metadata__'");
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_safetensors(path, {{"bad\xFF", Tensor({1})}}),
                                  "tensor name is not valid UTF-8");
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_safetensors(path, good, {{"k", "\xC0\xAF"}}),
                                  "metadata value is not valid UTF-8");
        QCOMPARE(io::read_file(path), original);
        QCOMPARE(test::entries(dir), QStringList{"w.safetensors"});
    }

    // Every truncation and many corruptions of a real file end in a value or a DataError.
    void survivesTruncationAndCorruption() {
        const std::string good = io::read_file(st_path("mha_separate.safetensors"));
        std::uint64_t header_len = 0;
        std::memcpy(&header_len, good.data(), 8);
        const auto attempt = [&](const std::string& bytes) {
            try {
                (void)io::parse_safetensors(bytes, "fuzz.safetensors");
            } catch (const DataError&) {
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QString("non-DataError: %1").arg(e.what())));
            }
        };
        for (std::size_t n = 0; n < good.size(); n += (n < 8 + header_len + 64 ? 1 : 61))
            attempt(good.substr(0, n));
        for (std::size_t i = 0; i < 8 + header_len; ++i) {
            for (const unsigned char v : {0x00, 0x01, 0x20, 0x22, 0x2C, 0x2D, 0x30, 0x39, 0x3A,
                                          0x5B, 0x5D, 0x7B, 0x7D, 0x80, 0xFF}) {
                std::string bad = good;
                bad[i] = static_cast<char>(v);
                attempt(bad);
            }
        }
    }

    // ---- the JSON parser on its own

    void jsonParsesValidDocuments() {
        namespace json = io::json;
        const json::Document doc = json::parse(
            " {\"a\" : [1, -2, 3.5e-3, true, false, null, {}], \"b\":{\"c\":\"\\u00e9\\ud834\\udd1e"
            "\\\"\\\\\\/\\b\\f\\n\\r\\t\"}, \"\":0 }\r\n");
        const json::Element v = doc.root();
        QVERIFY(v.type() == json::Type::OBJECT);
        QCOMPARE(json::Object(v).size(), std::size_t(3));
        const auto a = json::find(v, "a");
        QVERIFY(a && a->type() == json::Type::ARRAY && json::Array(*a).size() == 7);
        const json::Array items(*a);
        QCOMPARE(json::as_int64(items.at(0).value()), std::optional<std::int64_t>(1));
        QCOMPARE(json::as_int64(items.at(1).value()), std::optional<std::int64_t>(-2));
        QVERIFY(!json::as_uint64(items.at(1).value()));
        QVERIFY(!json::as_int64(items.at(2).value()));  // 3.5e-3 is not an integer
        QCOMPARE(json::as_double(items.at(2).value()), std::optional<double>(3.5e-3));
        QCOMPARE(json::as_bool(items.at(3).value()), std::optional<bool>(true));
        QVERIFY(items.at(5).value().type() == json::Type::NULL_VALUE);
        QCOMPARE(json::as_string(*json::find(*json::find(v, "b"), "c")),
                 std::optional<std::string_view>("\xC3\xA9\xF0\x9D\x84\x9E\"\\/\b\f\n\r\t"));
        QVERIFY(json::find(v, "").has_value());
        QVERIFY(!json::find(v, "zz").has_value());
        // Integers written with a fraction or exponent are not integers.
        QVERIFY(!json::as_int64(json::parse("1.0").root()));
        QVERIFY(!json::as_int64(json::parse("1e3").root()));

        QCOMPARE(json::as_uint64(json::parse("18446744073709551615").root()),
                 std::optional<std::uint64_t>(18446744073709551615ull));
        QVERIFY(!json::as_int64(json::parse("18446744073709551615").root()));
        QCOMPARE(json::as_int64(json::parse("-9223372036854775808").root()),
                 std::optional<std::int64_t>(std::numeric_limits<std::int64_t>::min()));
        QVERIFY(!json::as_int64(json::parse("9223372036854775808").root()));
        // An integer past 64 bits is valid JSON: transformers writes its VERY_LARGE_INTEGER as
        // model_max_length in tokenizer_config.json.  It reads as the nearest double, never as
        // an integer; strings that look like one are left alone, and so is a uint64 beside it.
        const json::Document big = json::parse(
            "{\"model_max_length\": 1000000000000000019884624838656, \"s\": "
            "\"123456789012345678901234567890 \\\" 99999999999999999999999\", \"n\": "
            "-9223372036854775809, \"u\": 18446744073709551615, \"v\": 18446744073709551616, "
            "\"f\": [123456789012345678901234567890.5e-3, 1e30]}");
        const json::Element b = big.root();
        QCOMPARE(json::as_double(*json::find(b, "model_max_length")), std::optional<double>(1e30));
        QVERIFY(!json::as_int64(*json::find(b, "model_max_length")));
        QVERIFY(!json::as_uint64(*json::find(b, "model_max_length")));
        QCOMPARE(json::as_string(*json::find(b, "s")),
                 std::optional<std::string_view>(
                     "123456789012345678901234567890 \" 99999999999999999999999"));
        QCOMPARE(json::as_double(*json::find(b, "n")),
                 std::optional<double>(-9223372036854775809.0));
        QCOMPARE(json::as_uint64(*json::find(b, "u")),
                 std::optional<std::uint64_t>(18446744073709551615ull));
        QCOMPARE(json::as_double(*json::find(b, "v")),
                 std::optional<double>(18446744073709551616.0));
        QVERIFY(!json::as_uint64(*json::find(b, "v")));
        QCOMPARE(json::as_double(json::Array(*json::find(b, "f")).at(0).value()),
                 std::optional<double>(123456789012345678901234567890.5e-3));
        QCOMPARE(json::as_double(json::parse("-123456789012345678901234567890").root()),
                 std::optional<double>(-123456789012345678901234567890.0));
        QCOMPARE(json::as_string(json::parse("\"\xE2\x82\xAC\"").root()),
                 std::optional<std::string_view>("\xE2\x82\xAC"));  // raw UTF-8

        // 64 levels are allowed, 65 are not.
        QVERIFY(json::parse(std::string(64, '[') + std::string(64, ']')).root().type() ==
                json::Type::ARRAY);
        QVERIFY_THROWS_EXCEPTION(json::ParseError,
                                 json::parse(std::string(65, '[') + std::string(65, ']')));
        QVERIFY_THROWS_EXCEPTION(json::ParseError, json::parse(std::string(100000, '[')));
    }

    // Every row is refused; the phrases are simdjson's messages (and ours for repeated keys and
    // depth), which carry no byte offset.
    void jsonRefusesInvalidDocuments_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("phrase");
        const QString structure = "improper structure";
        const QString number = "Problem while parsing a number";
        const QString string = "Problem while parsing a string";
        const QString utf8 = "The input is not valid UTF-8";
        QTest::newRow("empty") << QByteArray("") << "no JSON found";
        QTest::newRow("whitespace") << QByteArray("  ") << "no JSON found";
        QTest::newRow("two values") << QByteArray("{} {}") << structure;
        QTest::newRow("trailing comma object") << QByteArray("{\"a\":1,}") << structure;
        QTest::newRow("trailing comma array") << QByteArray("[1,]") << structure;
        QTest::newRow("missing colon") << QByteArray("{\"a\" 1}") << structure;
        QTest::newRow("single quotes") << QByteArray("{'a':1}") << structure;
        QTest::newRow("unquoted key") << QByteArray("{a:1}") << structure;
        QTest::newRow("leading zero") << QByteArray("01") << number;
        QTest::newRow("bare minus") << QByteArray("-") << number;
        QTest::newRow("dot without digits") << QByteArray("1.") << number;
        QTest::newRow("exponent without digits") << QByteArray("1e+") << number;
        QTest::newRow("beyond double") << QByteArray("1e400") << number;
        QTest::newRow("plus sign") << QByteArray("+1") << structure;
        QTest::newRow("NaN") << QByteArray("NaN") << structure;
        QTest::newRow("Infinity") << QByteArray("[Infinity]") << structure;
        QTest::newRow("True") << QByteArray("True") << structure;
        QTest::newRow("truncated literal") << QByteArray("tru") << "atom";
        QTest::newRow("comment") << QByteArray("{} // x") << structure;
        QTest::newRow("unterminated string") << QByteArray("\"abc") << "never closed";
        QTest::newRow("raw newline") << QByteArray("\"a\nb\"") << "must be escaped";
        QTest::newRow("raw tab") << QByteArray("\"a\tb\"") << "must be escaped";
        QTest::newRow("bad escape") << QByteArray("\"\\x41\"") << string;
        QTest::newRow("short \\u") << QByteArray("\"\\u12\"") << string;
        QTest::newRow("bad hex") << QByteArray("\"\\u12G4\"") << string;
        QTest::newRow("lone low surrogate") << QByteArray("\"\\udc00\"") << string;
        QTest::newRow("lone high surrogate") << QByteArray("\"\\ud800x\"") << string;
        QTest::newRow("high then non-low") << QByteArray("\"\\ud800\\u0041\"") << string;
        QTest::newRow("invalid UTF-8") << QByteArray("\"\xFF\"") << utf8;
        QTest::newRow("overlong UTF-8") << QByteArray("\"\xC0\xAF\"") << utf8;
        QTest::newRow("UTF-8 surrogate") << QByteArray("\"\xED\xA0\x80\"") << utf8;
        QTest::newRow("truncated UTF-8") << QByteArray("\"\xE2\x82\"") << utf8;
        QTest::newRow("beyond U+10FFFF") << QByteArray("\"\xF4\x90\x80\x80\"") << utf8;
        QTest::newRow("invalid UTF-8 outside strings") << QByteArray("[1] \xFF") << utf8;
        QTest::newRow("duplicate key") << QByteArray("{\"a\":1,\"a\":2}") << "duplicate key";
        QTest::newRow("duplicate after escape")
            << QByteArray("{\"a\":1,\"\\u0061\":2}") << "duplicate key \"a\"";
        QTest::newRow("duplicate in a wide object")
            << QByteArray(
                   "{\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,"
                   "\"k8\":8,\"k9\":9,\"k10\":0,\"k11\":1,\"k12\":2,\"k13\":3,\"k14\":4,"
                   "\"k15\":5,\"k16\":6,\"k3\":7}")
            << "duplicate key \"k3\"";
        QTest::newRow("duplicate deep inside")
            << QByteArray("[{\"x\":[{\"b\":1,\"b\":1}]}]") << "duplicate key \"b\"";
        QTest::newRow("65 levels")
            << (QByteArray(65, '[') + QByteArray(65, ']')) << "nested deeper than 64";
        QTest::newRow("unclosed object") << QByteArray("{\"a\":1") << structure;
        QTest::newRow("unclosed array") << QByteArray("[1,2") << structure;
        QTest::newRow("nul byte") << QByteArray("{}\0", 3) << structure;
    }
    void jsonRefusesInvalidDocuments() {
        QFETCH(QByteArray, text);
        QFETCH(QString, phrase);
        try {
            io::json::parse(std::string_view(text.constData(), std::size_t(text.size())));
            QFAIL("parsed without error");
        } catch (const io::json::ParseError& e) {
            QVERIFY2(QString(e.what()).contains(phrase), e.what());
        }
    }

    void jsonQuoteRoundTrips() {
        for (const std::string& s :
             {std::string(""), std::string("plain"), std::string("q\"b\\s/\b\f\n\r\t"),
              std::string("\x01\x1f\x7f", 3), std::string("\xF0\x9F\x98\x80 \xC3\xA9")}) {
            const std::string q = io::json::quote(s);
            QCOMPARE(io::json::as_string(io::json::parse(q).root()),
                     std::optional<std::string_view>(s));
        }
        QCOMPARE(io::json::quote("a\"\x01"), std::string("\"a\\\"\\u0001\""));
        QVERIFY(io::json::is_valid_utf8("\xE6\xB3\xA8"));
        QVERIFY(!io::json::is_valid_utf8("\xE6\xB3"));
    }
};

QTEST_APPLESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
