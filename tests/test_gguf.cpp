// GGUF reading (engine/io/gguf.h) against what llama.cpp's own reader, gguf-py, reads from
// files its writer wrote (tests/data/gguf/make_gguf_files.py), and hand-made files that lie.

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/gguf.h"
#include "engine/io/gguf_quants.h"
#include "engine/io/json.h"
#include "engine/io/npy.h"
#include "engine/io/weight_store.h"
#include "engine/models/gguf_model.h"
#include "engine/models/gguf_tokenizer.h"
#include "engine/models/model_folder.h"
#include "engine/ops/nn.h"
#include "test_support.h"

using namespace attnviz;
using io::GgufFile;
using io::GgufValueType;

namespace {

std::string gguf_dir() {
    return test::data_dir() + "/gguf/";
}

// A GGUF file written by hand, one field at a time, for the files no writer would make.
class Builder {
  public:
    Builder& u32(std::uint32_t v) { return raw(&v, 4); }
    Builder& u64(std::uint64_t v) { return raw(&v, 8); }
    Builder& str(std::string_view s) {
        u64(s.size());
        bytes += s;
        return *this;
    }
    Builder& header(std::uint64_t tensors, std::uint64_t kvs, std::uint32_t version = 3) {
        bytes += "GGUF";
        return u32(version).u64(tensors).u64(kvs);
    }
    Builder& kv_u32(std::string_view key, std::uint32_t v) {
        return str(key).u32(static_cast<std::uint32_t>(GgufValueType::UInt32)).u32(v);
    }
    Builder& kv_str(std::string_view key, std::string_view v) {
        return str(key).u32(static_cast<std::uint32_t>(GgufValueType::String)).str(v);
    }
    Builder& kv_strs(std::string_view key, const std::vector<std::string>& v) {
        str(key).u32(static_cast<std::uint32_t>(GgufValueType::Array));
        u32(static_cast<std::uint32_t>(GgufValueType::String)).u64(v.size());
        for (const std::string& s : v)
            str(s);
        return *this;
    }
    /// A tensor info: name, ne (ggml order), type, offset.
    Builder& tensor(std::string_view name, std::vector<std::uint64_t> ne, std::uint32_t type,
                    std::uint64_t offset) {
        str(name).u32(static_cast<std::uint32_t>(ne.size()));
        for (std::uint64_t n : ne)
            u64(n);
        return u32(type).u64(offset);
    }
    Builder& pad(std::size_t alignment = 32) {
        while (bytes.size() % alignment)
            bytes += '\0';
        return *this;
    }
    Builder& data(std::size_t n) {
        bytes.append(n, '\x11');
        return *this;
    }
    std::string bytes;

  private:
    Builder& raw(const void* p, std::size_t n) {
        bytes.append(static_cast<const char*>(p), n);
        return *this;
    }
};

// Two F32 tensors of 4 values, the second after the first: a well-formed file.
Builder two_tensors(std::uint64_t second_offset = 32, std::string_view second_name = "b") {
    Builder b;
    b.header(2, 1).kv_str("general.architecture", "test");
    b.tensor("a", {4}, 0, 0).tensor(second_name, {4}, 0, second_offset).pad().data(64);
    return b;
}

GgufFile parse(const Builder& b) {
    return GgufFile::parse(b.bytes, "bad.gguf");
}

std::string value_text(const io::GgufValue& v, GgufValueType t, std::size_t i = 0) {
    switch (t) {
        case GgufValueType::Float32:
        case GgufValueType::Float64: {
            const double d = v.is_array() ? v.as_double_array()[i] : v.as_double();
            return std::to_string(d);
        }
        case GgufValueType::Bool:
            return v.is_array() ? "" : (v.as_bool() ? "true" : "false");
        case GgufValueType::String:
            return std::string(v.is_array() ? v.as_string_array()[i] : v.as_string());
        case GgufValueType::UInt64:
            return std::to_string(v.is_array() ? static_cast<std::uint64_t>(v.as_double_array()[i])
                                               : v.as_uint());
        default:
            return std::to_string(v.is_array() ? v.as_int_array()[i] : v.as_int());
    }
}

// The JSON value gguf-py read, in the same text form as value_text.
std::string expected_text(io::json::Element e, GgufValueType t) {
    switch (t) {
        case GgufValueType::Float32:
        case GgufValueType::Float64:
            return std::to_string(
                std::strtod(std::string(*io::json::as_string(e)).c_str(), nullptr));
        case GgufValueType::Bool:
            return *io::json::as_bool(e) ? "true" : "false";
        case GgufValueType::String:
            return std::string(*io::json::as_string(e));
        case GgufValueType::UInt64:
            return std::to_string(*io::json::as_uint64(e));
        default:
            return std::to_string(*io::json::as_int64(e));
    }
}

// Every layer's and head's map of `model` on `ids` against a [layers, heads, L, L] reference,
// within `tol`; the first difference named.
void expect_maps(const models::Model& model, const std::vector<std::int64_t>& ids,
                 const Tensor& want, double tol) {
    models::ModelInput in;
    in.ids = ids;
    models::CollectingSink sink;
    model.forward(in, models::ModelForwardOptions{}, sink);
    const auto L = static_cast<std::int64_t>(ids.size());
    QCOMPARE(want.shape, (Shape{model.info().num_layers, model.info().num_heads, L, L}));
    QCOMPARE(std::int64_t(sink.results.size()), model.info().num_layers);
    double worst = 0;
    for (std::size_t l = 0; l < sink.results.size(); ++l) {
        const Tensor& got = sink.results[l].weights;  // [1, heads, L, L]
        const std::size_t n = static_cast<std::size_t>(model.info().num_heads * L * L);
        QCOMPARE(got.numel(), n);
        const auto r = test::compare_arrays(got.ptr(), want.ptr() + l * n, n, tol);
        QVERIFY2(r.ok, qPrintable(QString("layer %1: %2").arg(l).arg(r.message.c_str())));
        worst = std::max(worst, r.max_abs_diff);
    }
    qInfo("largest difference %.3g", worst);
}

}  // namespace

class TestGguf : public QObject {
    Q_OBJECT

  private slots:
    void reads_what_gguf_py_reads_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("v3, every value type") << "metadata_v3.gguf";
        QTest::newRow("v2, alignment 64") << "align64_v2.gguf";
    }
    void reads_what_gguf_py_reads() {
        QFETCH(QString, file);
        const std::string name = file.toStdString();
        const auto doc = io::json::parse(io::read_file(gguf_dir() + "expected.json"));
        const auto want = *io::json::find(doc.root(), name);
        const GgufFile f = GgufFile::open(gguf_dir() + name);
        QCOMPARE(f.version(),
                 std::uint32_t(*io::json::as_uint64(*io::json::find(want, "version"))));
        QCOMPARE(f.alignment(),
                 std::uint32_t(*io::json::as_uint64(*io::json::find(want, "alignment"))));
        QCOMPARE(f.data_offset(), *io::json::as_uint64(*io::json::find(want, "data_offset")));

        const io::json::Array keys = *io::json::find(want, "metadata");
        QCOMPARE(f.metadata().size(), keys.size());
        std::size_t k = 0;
        for (io::json::Element e : keys) {
            const io::GgufKeyValue& kv = f.metadata()[k++];
            QCOMPARE(kv.key, std::string(*io::json::as_string(*io::json::find(e, "key"))));
            const auto type =
                static_cast<GgufValueType>(*io::json::as_uint64(*io::json::find(e, "type")));
            QCOMPARE(kv.value.type(), type);
            QCOMPARE(f.find(kv.key), &kv.value);
            const io::json::Element value = *io::json::find(e, "value");
            if (type != GgufValueType::Array) {
                QCOMPARE(value_text(kv.value, type), expected_text(value, type));
                continue;
            }
            const auto elem = static_cast<GgufValueType>(
                *io::json::as_uint64(*io::json::find(e, "element_type")));
            QCOMPARE(kv.value.element_type(), elem);
            const io::json::Array items = value;
            QCOMPARE(kv.value.size(), items.size());
            std::size_t i = 0;
            for (io::json::Element item : items) {
                if (elem == GgufValueType::Bool) {
                    // No accessor reads bool arrays (no key of llama.cpp's holds one): the
                    // stored bytes are 0 or 1.
                    QCOMPARE(kv.value.size(), items.size());
                } else if (elem == GgufValueType::UInt64) {
                    const std::uint64_t got =
                        static_cast<std::uint64_t>(kv.value.as_double_array()[i]);
                    QCOMPARE(got, *io::json::as_uint64(item));
                } else {
                    QCOMPARE(value_text(kv.value, elem, i), expected_text(item, elem));
                }
                ++i;
            }
        }

        const io::json::Array tensors = *io::json::find(want, "tensors");
        QCOMPARE(f.tensors().size(), tensors.size());
        std::size_t t = 0;
        for (io::json::Element e : tensors) {
            const io::GgufTensorInfo& info = f.tensors()[t++];
            QCOMPARE(info.name, std::string(*io::json::as_string(*io::json::find(e, "name"))));
            QCOMPARE(info.type, std::uint32_t(*io::json::as_uint64(*io::json::find(e, "type"))));
            std::vector<std::int64_t> ne;
            for (io::json::Element n : io::json::Array(*io::json::find(e, "ne")))
                ne.push_back(*io::json::as_int64(n));
            QCOMPARE(info.ne, ne);
            QCOMPARE(info.offset, *io::json::as_uint64(*io::json::find(e, "offset")));
            QCOMPARE(info.nbytes, *io::json::as_uint64(*io::json::find(e, "nbytes")));
            QCOMPARE(f.find_tensor(info.name), &info);
            QCOMPARE(f.tensor_data(info).size(), std::size_t(info.nbytes));
        }
    }

    void bool_arrays_and_shapes() {
        const GgufFile f = GgufFile::open(gguf_dir() + "metadata_v3.gguf");
        // Bool arrays are not integers: a request for them names the key and both types.
        ATTNVIZ_EXPECT_DATA_ERROR(f.at("a.bool").as_int_array(), "metadata_v3.gguf", "'a.bool'",
                                  "array of bool", "expected an array of integers");
        ATTNVIZ_EXPECT_DATA_ERROR(f.at("t.str").as_uint(), "'t.str'", "is string");
        ATTNVIZ_EXPECT_DATA_ERROR(f.at("t.i8").as_uint(), "'t.i8'", "negative");
        ATTNVIZ_EXPECT_DATA_ERROR(f.at("t.u64").as_int(), "'t.u64'", "fits int64");
        ATTNVIZ_EXPECT_DATA_ERROR(f.at("no.such.key"), "metadata_v3.gguf",
                                  "no metadata key 'no.such.key'");
        QCOMPARE(f.at("t.u64").as_uint(), std::uint64_t(18446744073709551615ull));
        QCOMPARE(f.at("a.f32").as_float_array(), (std::vector<float>{0.5f, -1.25f, 3e38f}));
        QCOMPARE(f.find_tensor("m.3d")->shape(), (Shape{2, 3, 4}));
        QCOMPARE(f.find_tensor("m.3d")->numel, std::int64_t(24));
        QCOMPARE(f.find_tensor("m.q8_0")->shape(), (Shape{3, 64}));
        QCOMPARE(f.find_tensor("m.q8_0")->nbytes, std::uint64_t(3 * 2 * 34));
        QCOMPARE(io::gguf_type_name(12), std::string("Q4_K"));
        QCOMPARE(io::gguf_type_name(4), std::string("type 4"));  // Q4_2, removed from ggml
        QVERIFY(f.find_tensor("absent") == nullptr);
        QVERIFY(f.find("absent") == nullptr);
    }

    void the_file_in_memory_reads_as_mapped() {
        const std::string bytes = io::read_file(gguf_dir() + "align64_v2.gguf");
        const GgufFile a = GgufFile::parse(bytes, "x.gguf");
        const GgufFile b = GgufFile::open(gguf_dir() + "align64_v2.gguf");
        QCOMPARE(a.path(), std::string("x.gguf"));
        QCOMPARE(a.tensors().size(), b.tensors().size());
        for (std::size_t i = 0; i < a.tensors().size(); ++i)
            QCOMPARE(a.tensor_data(a.tensors()[i]), b.tensor_data(b.tensors()[i]));
        // The data of x is the 7 float32 values at the 64-aligned data section.
        const io::GgufTensorInfo& x = *b.find_tensor("x");
        QCOMPARE(b.data_offset() % 64, std::uint64_t(0));
        QCOMPARE(b.tensor_data(x).data(), bytes.size() ? b.tensor_data(x).data() : nullptr);
        QCOMPARE(std::string(b.tensor_data(x)), bytes.substr(b.data_offset() + x.offset, 28));
        // A copy shares the mapping and stays valid after the original is gone.
        GgufFile copy;
        {
            const GgufFile c = GgufFile::open(gguf_dir() + "align64_v2.gguf");
            copy = c;
        }
        QCOMPARE(copy.at("t.name").as_string(), std::string_view("aligned"));
    }

    void a_well_formed_hand_made_file() {
        const GgufFile f = parse(two_tensors());
        QCOMPARE(f.tensors().size(), std::size_t(2));
        QCOMPARE(f.data_offset() % 32, std::uint64_t(0));
        QCOMPARE(f.tensor_data(f.tensors()[1]),
                 std::string_view("\x11\x11\x11\x11\x11\x11\x11\x11"
                                  "\x11\x11\x11\x11\x11\x11\x11\x11"));
        // No tensors at all: the header alone is a file (a vocabulary-only GGUF is close).
        Builder b;
        b.header(0, 1).kv_str("general.architecture", "test");
        QCOMPARE(parse(b).tensors().size(), std::size_t(0));
    }

    void every_truncation_is_refused() {
        const std::string bytes = io::read_file(gguf_dir() + "metadata_v3.gguf");
        const GgufFile whole = GgufFile::parse(bytes, "whole.gguf");
        std::uint64_t data_end = 0;
        for (const auto& t : whole.tensors())
            data_end = std::max(data_end, whole.data_offset() + t.offset + t.nbytes);
        for (std::size_t n = 0; n < bytes.size(); ++n) {
            bool refused = false;
            std::string msg;
            try {
                GgufFile::parse(bytes.substr(0, n), "cut.gguf");
            } catch (const DataError& e) {
                refused = true;
                msg = e.what();
            }
            QVERIFY2(refused == (n < data_end), qPrintable(QString::number(n)));
            if (refused) QVERIFY2(msg.rfind("cut.gguf: ", 0) == 0, msg.c_str());
        }
    }

    void files_that_lie_are_refused_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("phrases");
        auto row = [](const char* name, const Builder& b, QStringList phrases) {
            QTest::newRow(name) << QByteArray(b.bytes.data(), qsizetype(b.bytes.size())) << phrases;
        };
        row("not GGUF", Builder().u64(0), {"not a GGUF file"});
        row("version 1", Builder().header(0, 0, 1), {"version 1 is not supported"});
        row("version 4", Builder().header(0, 0, 4), {"version 4 is not supported"});
        row("big-endian", Builder().header(0, 0, 0x03000000), {"big-endian"});
        {
            Builder b;
            b.header(0, 0).bytes.resize(13);
            row("truncated header", b, {"truncated", "the tensor count"});
        }
        {
            Builder b;
            b.header(std::uint64_t(1) << 60, 0);
            row("2^60 tensors", b, {"claims 1152921504606846976 tensors"});
        }
        {
            Builder b;
            b.header(0, std::uint64_t(1) << 60);
            row("2^60 key/values", b, {"claims 1152921504606846976 metadata key/values"});
        }
        {
            Builder b;
            b.header(0, 1).str("k").u32(8).u64(1000).bytes += "short";
            row("string length past the end", b, {"'k'", "1000 bytes, past the end"});
        }
        {
            Builder b;
            b.header(0, 1).u64(std::uint64_t(1) << 62).data(16);
            row("key length past the end", b, {"key of metadata entry 0", "past the end"});
        }
        {
            Builder b;
            b.header(0, 1).str("k").u32(9).u32(4).u64(std::uint64_t(1) << 60);
            row("array of 2^60", b, {"'k' claims 1152921504606846976 elements of uint32"});
        }
        {
            Builder b;
            b.header(0, 1).str("k").u32(9).u32(9).u64(1).u32(4).u64(0);
            row("array of arrays", b, {"'k' is an array of arrays"});
        }
        {
            Builder b;
            b.header(0, 1).str("k").u32(13).u32(0);
            row("unknown value type", b, {"'k' has unknown value type 13"});
        }
        {
            Builder b;
            b.header(0, 2).kv_u32("k", 1).kv_u32("k", 2);
            row("repeated key", b, {"metadata key 'k' appears twice"});
        }
        {
            Builder b;
            b.header(1, 0).tensor("w", {32}, 99, 0).pad().data(64);
            row("unknown tensor type", b, {"tensor 'w' has unknown type 99"});
        }
        {
            Builder b;
            b.header(1, 0).tensor("w", {1, 1, 1, 1, 1}, 0, 0).pad().data(32);
            row("five dimensions", b, {"'w' has 5 dimensions"});
        }
        {
            Builder b;
            b.header(1, 0).tensor("w", {33}, 2, 0).pad().data(64);
            row("partial block", b, {"'w' is Q4_0 with rows of 33 values", "block of 32"});
        }
        {
            Builder b;
            b.header(1, 0)
                .tensor("w", {std::uint64_t(1) << 20, std::uint64_t(1) << 20}, 0, 0)
                .pad()
                .data(32);
            row("too many elements", b, {"'w'", "past the end"});
        }
        {
            Builder b;
            b.header(1, 0).tensor("w", {std::uint64_t(1) << 62, 4}, 0, 0).pad().data(32);
            row("elements beyond int64", b, {"'w' has more elements than int64 can count"});
        }
        row("repeated tensor name", two_tensors(32, "a"), {"tensor name 'a' appears twice"});
        row("lying offset", two_tensors(4096), {"tensor 'b'", "4096", "runs past the end"});
        row("overlapping tensors", two_tensors(0), {"tensors 'a'", "'b'", "overlap"});
        {
            // An empty tensor between two that overlap hides nothing (found by fuzz_gguf).
            Builder b;
            b.header(3, 0)
                .tensor("a", {16}, 0, 0)
                .tensor("empty", {0}, 0, 32)
                .tensor("b", {4}, 0, 32)
                .pad()
                .data(64);
            row("overlap around an empty tensor", b,
                {"tensors 'a' (bytes 0..64) and 'b' (from byte 32) overlap"});
        }
        row("misaligned tensor", two_tensors(16), {"'b' is misaligned", "16", "alignment 32"});
        {
            Builder b;
            b.header(1, 1).kv_u32("general.alignment", 48).tensor("w", {4}, 0, 0).pad(48).data(48);
            row("alignment 48", b, {"general.alignment is 48, not a power of two"});
        }
        {
            Builder b;
            b.header(1, 1).kv_u32("general.alignment", 0).tensor("w", {4}, 0, 0).data(48);
            row("alignment 0", b, {"general.alignment is 0"});
        }
        {
            Builder b;
            b.header(1, 1).kv_str("general.alignment", "32").tensor("w", {4}, 0, 0).pad().data(32);
            row("alignment as a string", b, {"general.alignment is string, expected uint32"});
        }
        {
            // The data section starts at the next multiple of 32, which the file never reaches.
            Builder b;
            b.header(1, 0).tensor("w", {0}, 0, 0);
            row("data section past the end", b, {"truncated", "data section would start"});
        }
    }
    void files_that_lie_are_refused() {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, phrases);
        try {
            GgufFile::parse(std::string_view(bytes.constData(), std::size_t(bytes.size())),
                            "bad.gguf");
            QFAIL("accepted");
        } catch (const DataError& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.startsWith("bad.gguf: "), qPrintable(msg));
            QVERIFY2(!msg.contains('\n'), qPrintable(msg));
            for (const QString& p : phrases)
                QVERIFY2(msg.contains(p), qPrintable(msg));
        }
    }

    void dequantizes_as_gguf_py_data() {
        QTest::addColumn<QString>("type");
        for (const char* t : {"F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q2_K",
                              "Q3_K", "Q4_K", "Q5_K", "Q6_K"})
            QTest::newRow(t) << t;
    }
    void dequantizes_as_gguf_py() {
        QFETCH(QString, type);
        const GgufFile f = GgufFile::open(gguf_dir() + "quants.gguf");
        const io::GgufTensorInfo* stored = f.find_tensor(type.toStdString());
        const io::GgufTensorInfo* expected = f.find_tensor(type.toStdString() + ".expected");
        QVERIFY(stored && expected);
        QCOMPARE(io::gguf_type_name(stored->type), type.toStdString());
        QCOMPARE(expected->type, std::uint32_t(0));
        QVERIFY(io::gguf_can_dequantize(stored->type));
        const Tensor got = io::load_gguf_tensor(f, *stored);
        const Tensor want = io::load_gguf_tensor(f, *expected);
        QCOMPARE(got.shape, (Shape{2, 512}));
        QCOMPARE(want.shape, got.shape);
        // Bit for bit: the first differing index with both values.
        for (std::size_t i = 0; i < got.numel(); ++i) {
            std::uint32_t a = 0, b = 0;
            std::memcpy(&a, &got.data[i], 4);
            std::memcpy(&b, &want.data[i], 4);
            if (a != b)
                QFAIL(qPrintable(QString("index %1: got %2 (0x%3), gguf-py %4 (0x%5)")
                                     .arg(i)
                                     .arg(double(got.data[i]), 0, 'g', 9)
                                     .arg(a, 8, 16, QChar('0'))
                                     .arg(double(want.data[i]), 0, 'g', 9)
                                     .arg(b, 8, 16, QChar('0'))));
        }
        // The same through the plain per-buffer function, on one row (a whole number of
        // blocks) at an odd address.
        const auto layout = *io::gguf_type_layout(stored->type);
        const std::string_view bytes = f.tensor_data(*stored);
        std::string shifted = " " + std::string(bytes.substr(0, bytes.size() / 2));
        std::vector<float> row(512);
        io::dequantize(stored->ggml_type(), reinterpret_cast<const std::byte*>(shifted.data() + 1),
                       row.data(), 512);
        QVERIFY(std::memcmp(row.data(), want.data.data(), 512 * 4) == 0);
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            io::dequantize(stored->ggml_type(), reinterpret_cast<const std::byte*>(bytes.data()),
                           row.data(), layout.block_size == 1 ? -1 : 31));
    }

    void other_types_are_refused_by_name() {
        const GgufFile f = GgufFile::open(gguf_dir() + "quants.gguf");
        for (const char* t : {"IQ2_XXS", "TQ1_0"}) {
            const io::GgufTensorInfo* info = f.find_tensor(t);
            QVERIFY(info);
            QVERIFY(!io::gguf_can_dequantize(info->type));
            ATTNVIZ_EXPECT_DATA_ERROR(io::load_gguf_tensor(f, *info), "quants.gguf",
                                      "tensor '" + std::string(t) + "' is " + t, "cannot read");
        }
        for (std::uint32_t t : {9u, 15u, 24u, 28u})
            QVERIFY(!io::gguf_can_dequantize(t));
        std::vector<float> small(3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 io::dequantize_tensor(f, *f.find_tensor("Q8_0"), small.data(), 3));
    }

    void a_nan_scale_is_reported() {
        // One Q8_0 block whose float16 scale is NaN (0x7E00), one with infinity (0x7C00).
        for (std::uint16_t d : {std::uint16_t(0x7E00), std::uint16_t(0x7C00)}) {
            Builder b;
            b.header(1, 0).tensor("w", {32}, 8, 0).pad();
            b.bytes += static_cast<char>(d & 0xFF);
            b.bytes += static_cast<char>(d >> 8);
            b.bytes.append(32, '\x01');
            const GgufFile f = GgufFile::parse(b.bytes, "nan.gguf");
            ATTNVIZ_EXPECT_DATA_ERROR(io::load_gguf_tensor(f, f.tensors()[0]), "nan.gguf",
                                      "tensor 'w' (Q8_0) holds", "at index 0");
        }
    }

    void models_equal_their_hugging_face_checkpoint_data() {
        QTest::addColumn<QString>("gguf_case");
        for (const char* c : {"llama_gqa", "qwen2_bias_bf16", "qwen3_qknorm", "gpt2_lmhead"})
            QTest::newRow(c) << c;
    }
    void models_equal_their_hugging_face_checkpoint() {
        // The file holds the checkpoint's own values (F32, F16, BF16); the maps must be the
        // Hugging Face golden's, so llama's Q/K permutation has to be undone.
        QFETCH(QString, gguf_case);
        const std::string c = gguf_case.toStdString();
        const std::string golden = test::golden_dir() + "/models/" + c + "/reference/";
        const GgufFile f = GgufFile::open(gguf_dir() + "models/" + c + ".gguf");
        const auto model = models::load_gguf_model(f);
        const auto hf = models::load_model(test::golden_dir() + "/models/" + c);
        QCOMPARE(model->info().model_type, hf->info().model_type);
        QCOMPARE(model->info().num_layers, hf->info().num_layers);
        QCOMPARE(model->info().num_heads, hf->info().num_heads);
        QCOMPARE(model->info().num_kv_heads, hf->info().num_kv_heads);
        QCOMPARE(model->info().head_dim, hf->info().head_dim);
        QCOMPARE(model->info().intermediate_size, hf->info().intermediate_size);
        QCOMPARE(model->info().vocab_size, hf->info().vocab_size);
        QCOMPARE(model->config().rope_theta, hf->config().rope_theta);
        QCOMPARE(model->config().norm_eps, hf->config().norm_eps);
        QCOMPARE(model->info().folder, f.path());
        expect_maps(*model, test::read_int64_npy(golden + "input_ids.npy"),
                    io::read_npy(golden + "attentions.npy"), 1e-5);
    }

    // llama.cpp's converter permutes the biases of q and k as it does their weights: a llama
    // file with attention biases gives the checkpoint's maps only when both are put back.
    void llama_biases_are_put_back_with_their_rows() {
        const GgufFile f = GgufFile::open(gguf_dir() + "models/llama_bias.gguf");
        const auto model = models::load_gguf_model(f);
        QVERIFY(model->config().attention_bias);
        const std::string golden = test::golden_dir() + "/models/llama_gqa/reference/";
        expect_maps(*model, test::read_int64_npy(golden + "input_ids.npy"),
                    io::read_npy(gguf_dir() + "models/llama_bias.attentions.npy"), 1e-5);
    }

    void quantized_models_equal_the_reference_on_their_weights_data() {
        QTest::addColumn<QString>("gguf_case");
        QTest::addColumn<QString>("type");
        for (auto [c, t] : {std::pair{"llama_gqa", "Q8_0"},
                            {"llama_gqa", "Q4_0"},
                            {"qwen2_bias_bf16", "Q5_1"},
                            {"qwen3_qknorm", "Q4_1"},
                            {"gpt2_lmhead", "Q5_0"}})
            QTest::newRow((std::string(c) + "." + t).c_str()) << c << t;
    }
    void quantized_models_equal_the_reference_on_their_weights() {
        // The float64 reference forward on the weights gguf-py dequantizes from the file.
        QFETCH(QString, gguf_case);
        QFETCH(QString, type);
        const std::string stem =
            gguf_dir() + "models/" + gguf_case.toStdString() + "." + type.toStdString();
        const GgufFile f = GgufFile::open(stem + ".gguf");
        const auto model = models::load_gguf_model(f);
        QVERIFY2(model->info().dtype.find(type.toStdString()) != std::string::npos,
                 model->info().dtype.c_str());
        expect_maps(*model,
                    test::read_int64_npy(test::golden_dir() + "/models/" + gguf_case.toStdString() +
                                         "/reference/input_ids.npy"),
                    io::read_npy(stem + ".attentions.npy"), 1e-5);
    }

    void store_conversions_agree_bit_for_bit_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"llama_gqa.Q4_0", "qwen2_bias_bf16.Q5_1", "gpt2_lmhead.Q5_0"})
            QTest::newRow(f) << f;
        QTest::newRow("quants") << "../quants";
    }
    void store_conversions_agree_bit_for_bit() {
        // Every way a model reads a GGUF tensor from the store (whole, a block of rows, a
        // block written [in, out] as kept layers are, chosen rows as embeddings are) gives
        // dequantize_tensor's values (gguf-py's, bit for bit), with the rows in the order the
        // source asks (here reversed, for every matrix).
        QFETCH(QString, file);
        const GgufFile f = GgufFile::open(gguf_dir() + "models/" + file.toStdString() + ".gguf");
        std::vector<io::GgufSource> sources;
        for (const io::GgufTensorInfo& t : f.tensors()) {
            if (!io::gguf_can_dequantize(t.type) || t.ne.size() > 2) continue;
            io::GgufSource s{"m." + t.name, t.name, {}};
            if (t.ne.size() == 2)
                for (std::int64_t r = t.ne[1]; r-- > 0;)
                    s.row_order.push_back(r);
            sources.push_back(std::move(s));
        }
        QVERIFY(sources.size() > 2);
        const io::WeightStore store = io::WeightStore::from_gguf(f, sources);
        const auto same = [](const float* got, const float* want, std::size_t n,
                             const std::string& what) {
            if (std::memcmp(got, want, n * sizeof(float)) == 0) return true;
            for (std::size_t i = 0; i < n; ++i)
                if (std::memcmp(got + i, want + i, sizeof(float)) != 0)
                    qWarning("%s: index %zu: %.9g, dequantized %.9g", what.c_str(), i,
                             double(got[i]), double(want[i]));
            return false;
        };
        for (const io::GgufSource& s : sources) {
            const io::GgufTensorInfo& t = *f.find_tensor(s.tensor);
            const io::TensorEntry* e = store.find(s.name);
            QVERIFY(e);
            QCOMPARE(e->dtype, io::gguf_type_name(t.type));
            QCOMPARE(e->shape, t.shape());
            QCOMPARE(e->nbytes, t.nbytes);
            const Tensor file_order = io::load_gguf_tensor(f, t);
            const std::int64_t rows = t.ne.size() == 2 ? t.ne[1] : 1, cols = t.ne[0];
            Tensor want = file_order;
            if (t.ne.size() == 2)
                for (std::int64_t r = 0; r < rows; ++r)
                    std::copy_n(file_order.ptr() + (rows - 1 - r) * cols, cols,
                                want.ptr() + r * cols);
            QVERIFY(same(store.load(s.name).ptr(), want.ptr(), want.numel(), s.tensor + " load"));
            const std::vector<std::int64_t> picked = {rows - 1, 0, rows / 2};
            std::vector<float> block(want.numel() + picked.size() * static_cast<std::size_t>(cols));
            const std::int64_t r0 = rows / 3;
            store.load_block(s.name, r0, rows, block.data());
            QVERIFY(same(block.data(), want.ptr() + r0 * cols, (rows - r0) * cols,
                         s.tensor + " block"));
            if (t.ne.size() != 2) continue;
            store.load_block(s.name, 0, rows, block.data(), 0, true);
            Tensor back(Shape{rows, cols});
            ops::transpose(block.data(), cols, rows, back.ptr());
            QVERIFY(same(back.ptr(), want.ptr(), want.numel(), s.tensor + " transposed"));
            store.load_rows(s.name, picked, block.data());
            for (std::size_t k = 0; k < picked.size(); ++k)
                QVERIFY(same(block.data() + k * cols, want.ptr() + picked[k] * cols, cols,
                             s.tensor + " row " + std::to_string(picked[k])));
        }
        // A row order that is no permutation, and a tensor the file lacks, are refused.
        std::vector<io::GgufSource> bad = {sources.front()};
        bad.front().row_order.assign(bad.front().row_order.size(), 0);
        if (!bad.front().row_order.empty())
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, io::WeightStore::from_gguf(f, bad));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::from_gguf(f, {{"x", "absent", {}}}),
                                  "no tensor 'absent'");
    }

    void streamed_weights_give_the_kept_weights_maps_data() {
        QTest::addColumn<QString>("file");
        for (const char* f :
             {"llama_gqa", "llama_gqa.Q8_0", "llama_gqa.Q4_0", "qwen2_bias_bf16.Q5_1",
              "qwen3_qknorm.Q4_1", "gpt2_lmhead", "gpt2_lmhead.Q5_0"})
            QTest::newRow(f) << f;
    }
    void streamed_weights_give_the_kept_weights_maps() {
        // No weight cache: each layer's tensors are dequantized a block of rows at a time as
        // the layer runs (llama's Q/K rows reordered as they are read).  The float32 weights
        // are the kept ones bit for bit (store_conversions_agree_bit_for_bit); the products
        // then run [out, in] a block at a time rather than [in, out] whole, whose kernels may
        // round the last bit differently (as for safetensors, test_models), so the maps
        // agree within 1e-6.
        QFETCH(QString, file);
        const std::string stem = file.toStdString();
        const GgufFile f = GgufFile::open(gguf_dir() + "models/" + stem + ".gguf");
        const auto kept = models::load_gguf_model(f);
        const auto streamed = models::load_gguf_model(f);
        kept->set_weight_cache_bytes(std::numeric_limits<std::size_t>::max());
        streamed->set_weight_cache_bytes(0);
        // Quantized blocks stay as stored whatever the limit: they are dequantized a block at
        // a time as a layer runs, never kept as float32.
        const bool quantized = stem.find('.') != std::string::npos;
        QCOMPARE(kept->weights_stream(), quantized);
        QVERIFY(streamed->weights_stream());
        // Memory: float32 for every value the file holds, kept; one layer's vectors and a block
        // of its largest matrix, streamed: the same as the Hugging Face checkpoint's.
        std::uint64_t values = 0;
        for (const io::GgufTensorInfo& t : f.tensors())
            values += static_cast<std::uint64_t>(t.numel);
        QCOMPARE(kept->weight_bytes(), values * sizeof(float));
        QCOMPARE(kept->resident_weight_bytes(),
                 quantized ? kept->streaming_weight_bytes() : kept->weight_bytes());
        QCOMPARE(streamed->resident_weight_bytes(), streamed->streaming_weight_bytes());
        QVERIFY(streamed->streaming_weight_bytes() < streamed->weight_bytes());
        const std::string hf_dir = test::golden_dir() + "/models/" + stem.substr(0, stem.find('.'));
        const auto hf = models::load_model(hf_dir);
        const auto& info = kept->info();
        if (info.model_type != "gpt2") {
            // The BF16 and F16 checkpoints' products read their rows as stored (on AMX, or
            // kernels::row_products_rows), with buffers for the activations (split, or packed
            // per thread) that the GGUF file's blocks do not need.
            if (hf->info().dtype == "BF16" || hf->info().dtype == "F16")
                QVERIFY(streamed->streaming_weight_bytes() < hf->streaming_weight_bytes());
            else
                QCOMPARE(streamed->streaming_weight_bytes(), hf->streaming_weight_bytes());
        } else {
            // GGUF holds GPT-2's Conv1D weights [out, in], so they stream by blocks of rows
            // instead of being converted whole: a layer's vectors, ln_f, and a block of the
            // largest matrix (fewer rows than a block here) or of the unembedding (a block is
            // at least 256 rows and about 8 MB).
            const std::int64_t E = info.hidden_size, I = info.intermediate_size;
            QVERIFY(3 * E <= 256 && I <= 256);
            const std::int64_t vectors = 4 * E + 3 * E + E + I + E;
            const std::int64_t largest = std::max(3 * E, I) * E;
            const std::int64_t head =
                std::min<std::int64_t>(
                    info.vocab_size, std::max<std::int64_t>(256, ((8 << 20) / (4 * E)) / 64 * 64)) *
                E;
            QCOMPARE(streamed->streaming_weight_bytes(),
                     static_cast<std::size_t>(vectors + std::max(largest, head) + 2 * E) *
                         sizeof(float));
            QVERIFY(streamed->streaming_weight_bytes() < hf->streaming_weight_bytes());
        }
        models::ModelInput in;
        in.ids = test::read_int64_npy(hf_dir + "/reference/input_ids.npy");
        for (int threads : {1, 2}) {
            const auto r = test::compare_forward_passes(*streamed, *kept, in, threads, 1e-6, 1e-5);
            QVERIFY2(r.ok, r.message.c_str());
            qInfo("%d threads: largest difference %.3g", threads, r.max_abs_diff);
        }
    }

    void a_corrupt_scale_is_refused_when_its_layer_runs_data() {
        QTest::addColumn<bool>("stream");
        QTest::newRow("kept") << false;
        QTest::newRow("streamed") << true;
    }
    void a_corrupt_scale_is_refused_when_its_layer_runs() {
        // A NaN float16 scale in layer 1's Q projection, in the block that starts the file's
        // row 1 (which llama's unpermutation reads as row head_dim / 2).  Opening reads no
        // tensor: the file opens, layer 0 runs, and layer 1 is refused naming the tensor, its
        // type and where the scale is in the file.
        std::string bytes = io::read_file(gguf_dir() + "models/llama_gqa.Q8_0.gguf");
        const GgufFile good = GgufFile::parse(bytes, "good.gguf");
        const io::GgufTensorInfo* q = good.find_tensor("blk.1.attn_q.weight");
        QVERIFY(q);
        QCOMPARE(io::gguf_type_name(q->type), std::string("Q8_0"));
        const std::uint64_t row_bytes = q->nbytes / static_cast<std::uint64_t>(q->ne[1]);
        const std::uint64_t at = good.data_offset() + q->offset + row_bytes;
        bytes[at] = '\x00';
        bytes[at + 1] = '\x7E';
        const GgufFile f = GgufFile::parse(bytes, "corrupt.gguf");
        QFETCH(bool, stream);
        const auto model = models::load_gguf_model(f);
        model->set_weight_cache_bytes(stream ? 0 : std::numeric_limits<std::size_t>::max());
        models::ModelInput in;
        in.ids = {1, 2, 3, 4};
        models::CollectingSink sink;
        ATTNVIZ_EXPECT_DATA_ERROR(model->forward(in, models::ModelForwardOptions{}, sink),
                                  "corrupt.gguf: tensor 'blk.1.attn_q.weight' (Q8_0) holds NaN",
                                  "at index [1,0] (flat index " + std::to_string(q->ne[0]) + ")");
        QCOMPARE(sink.results.size(), std::size_t(1));
        // Asked again, it is refused again (nothing half-converted is kept).
        models::CollectingSink again;
        ATTNVIZ_EXPECT_DATA_ERROR(model->forward(in, models::ModelForwardOptions{}, again),
                                  "blk.1.attn_q.weight");
    }

    void generation_reads_the_blocks_as_stored_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("tolerance");
        // The float files' steps differ from a pass's products only in the order of the float
        // sums (measured 1.1e-7 to 1.9e-7 of the largest logit); the quantized files' in the
        // activation's int8 rounding as well (row_products.h), as llama.cpp's do: measured
        // 0.84% (Q5_1) to 1.7% (Q5_0) of the largest logit on these 32-wide models, the same
        // tokens.
        for (const auto& [f, tol] :
             std::initializer_list<std::pair<const char*, double>>{{"llama_gqa", 1e-5},
                                                                   {"qwen2_bias_bf16", 1e-5},
                                                                   {"llama_gqa.Q8_0", 3e-2},
                                                                   {"llama_gqa.Q4_0", 3e-2},
                                                                   {"qwen2_bias_bf16.Q5_1", 3e-2},
                                                                   {"qwen3_qknorm.Q4_1", 3e-2},
                                                                   {"gpt2_lmhead.Q5_0", 3e-2}})
            QTest::newRow(f) << f << tol;
    }
    void generation_reads_the_blocks_as_stored() {
        QFETCH(QString, file);
        QFETCH(double, tolerance);
        const GgufFile f = GgufFile::open(gguf_dir() + "models/" + file.toStdString() + ".gguf");
        const auto model = models::load_gguf_model(f);
        models::GenerateOptions o;
        o.max_new_tokens = 12;
        o.keep_logits = true;
        o.num_threads = 2;
        models::GenerateOptions as_pass = o;
        as_pass.stored_products = false;
        const std::vector<std::int64_t> prompt = {5, 9, 2, 7, 3};
        const models::Generation g = model->generate(prompt, o);
        const models::Generation p = model->generate(prompt, as_pass);
        QCOMPARE(g.ids, p.ids);
        const auto V = static_cast<std::size_t>(model->info().vocab_size);
        float largest = 0.0f, diff = 0.0f, prompt_diff = 0.0f;
        for (std::size_t i = 0; i < p.logits.data.size(); ++i) {
            largest = std::max(largest, std::fabs(p.logits.data[i]));
            const float d = std::fabs(g.logits.data[i] - p.logits.data[i]);
            diff = std::max(diff, d);
            if (i < V) prompt_diff = std::max(prompt_diff, d);
        }
        // The prompt's logits come from a pass's products either way: streamed blocks (a
        // generation keeps no float32 copy) or the kept weights, equal within float32
        // rounding; the quantized files always stream, so they are the same bits.
        QVERIFY(prompt_diff <= 1e-6f * largest);
        qInfo("largest logit %.4g, largest difference %.3g (%.2g of it)", double(largest),
              double(diff), double(diff / largest));
        QVERIFY(diff > 0.0f);  // the steps did read the stored rows
        QVERIFY2(diff <= tolerance * largest, qPrintable(QString::number(diff / largest)));
    }

    void a_corrupt_scale_is_refused_by_a_generation_step() {
        // A one-token prompt's step reads every weight as stored: a NaN scale in layer 1's Q
        // projection makes its rows non-finite, and converting them names it.
        std::string bytes = io::read_file(gguf_dir() + "models/llama_gqa.Q8_0.gguf");
        const GgufFile good = GgufFile::parse(bytes, "good.gguf");
        const io::GgufTensorInfo* q = good.find_tensor("blk.1.attn_q.weight");
        QVERIFY(q);
        const std::uint64_t at = good.data_offset() + q->offset;
        bytes[at] = '\x00';
        bytes[at + 1] = '\x7E';
        const GgufFile f = GgufFile::parse(bytes, "corrupt.gguf");
        const auto model = models::load_gguf_model(f);
        models::GenerateOptions o;
        o.max_new_tokens = 2;
        ATTNVIZ_EXPECT_DATA_ERROR(model->generate({3}, o),
                                  "corrupt.gguf: tensor 'blk.1.attn_q.weight' (Q8_0) holds NaN");
    }

    void models_that_cannot_be_read() {
        // Hand-edited copies of a good file: the architecture, a stray tensor, RoPE scaling.
        const std::string bytes = io::read_file(gguf_dir() + "models/llama_gqa.gguf");
        auto replaced = [&](const std::string& from, const std::string& to) {
            std::string b = bytes;
            const std::size_t at = b.find(from);
            b.replace(at, from.size(), to);
            return GgufFile::parse(b, "edited.gguf");
        };
        // "llama" -> "bloom" keeps every length; the keys then name bloom.* too.
        {
            std::string b = bytes;
            for (std::size_t at = b.find("llama"); at != std::string::npos;
                 at = b.find("llama", at))
                b.replace(at, 5, "bloom");
            ATTNVIZ_EXPECT_DATA_ERROR(models::load_gguf_model(GgufFile::parse(b, "edited.gguf")),
                                      "edited.gguf",
                                      "general.architecture \"bloom\" is not supported");
        }
        ATTNVIZ_EXPECT_DATA_ERROR(
            models::load_gguf_model(replaced("blk.1.ffn_up.weight", "blk.1.ffn_xx.weight")),
            "edited.gguf", "tensor 'blk.1.ffn_xx.weight' is not one of");
        ATTNVIZ_EXPECT_DATA_ERROR(
            models::load_gguf_model(replaced("llama.block_count", "llama.block_cOunt")),
            "edited.gguf", "no metadata key 'llama.block_count'");
        ATTNVIZ_EXPECT_DATA_ERROR(
            models::load_gguf_model(replaced("blk.1.attn_v.weight", "rope_freqs.weight__")),
            "edited.gguf", "rope_freqs");
    }

    void tokenizers_give_hugging_face_ids_data() {
        QTest::addColumn<QString>("vocab");
        for (const char* v : {"bert-bge", "gpt-2", "qwen2", "llama-spm"})
            QTest::newRow(v) << v;
    }
    void tokenizers_give_hugging_face_ids() {
        // llama.cpp's test vocabularies with the ids Hugging Face's tokenizers gave
        // (add_special_tokens=False), as llama.cpp's tests/test-tokenizer-0.cpp reads them.
        QFETCH(QString, vocab);
        const std::string base = gguf_dir() + "vocab/ggml-vocab-" + vocab.toStdString() + ".gguf";
        const GgufFile f = GgufFile::open(base);
        const text::HfTokenizer t = models::gguf_tokenizer(f);
        const std::string inp = io::read_file(base + ".inp");
        const std::string out = io::read_file(base + ".out");
        const std::string sep = "\n__ggml_vocab_test__\n";
        std::vector<std::string> texts;
        for (std::size_t at = 0;;) {
            const std::size_t next = inp.find(sep, at);
            if (next == std::string::npos) break;
            texts.push_back(inp.substr(at, next - at));
            at = next + sep.size();
        }
        std::vector<std::string> lines;
        for (std::size_t at = 0; at < out.size();) {
            const std::size_t nl = out.find('\n', at);
            lines.push_back(out.substr(at, nl - at));
            at = nl == std::string::npos ? out.size() : nl + 1;
        }
        QCOMPARE(texts.size(), lines.size());
        QVERIFY(texts.size() > 30);
        int failures = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const text::Encoding e = t.encode(texts[i], std::nullopt, false);
            std::string got;
            for (std::int64_t id : e.ids)
                got += (got.empty() ? "" : " ") + std::to_string(id);
            std::string want = lines[i];
            while (!want.empty() && want.back() == ' ')
                want.pop_back();
            while (!want.empty() && want.front() == ' ')
                want.erase(0, 1);
            if (got != want) {
                ++failures;
                qWarning("text %zu %s: got [%s] want [%s]", i, io::json::quote(texts[i]).c_str(),
                         got.c_str(), want.c_str());
            }
        }
        QCOMPARE(failures, 0);
    }

    void lists_give_the_tokenizer_the_json_gives_data() { tokenizers_give_hugging_face_ids_data(); }
    void lists_give_the_tokenizer_the_json_gives() {
        // The tokenizer opens from the metadata's lists (no tokenizer.json text); written out as
        // tokenizer.json and read back, the same metadata gives the same tokenizer.
        QFETCH(QString, vocab);
        const std::string base = gguf_dir() + "vocab/ggml-vocab-" + vocab.toStdString() + ".gguf";
        const GgufFile f = GgufFile::open(base);
        const text::HfTokenizer lists = models::gguf_tokenizer(f);
        const text::HfTokenizer json =
            text::HfTokenizer::from_tokenizer_json(models::gguf_tokenizer_json(f), base);
        QCOMPARE(lists.vocab_size(), json.vocab_size());
        QCOMPARE(lists.special_tokens(), json.special_tokens());
        QCOMPARE(lists.kind(), json.kind());
        for (std::int64_t id = 0; id < json.vocab_size(); id += 97)
            QCOMPARE(lists.id_to_token(id), json.id_to_token(id));
        const std::string inp = io::read_file(base + ".inp");
        for (const std::string_view text : {std::string_view(inp).substr(0, 4000),
                                            std::string_view("Hello world 123 \xE7\x8C\xAB")})
            for (const bool special : {false, true})
                QCOMPARE(lists.encode(text, std::nullopt, special).ids,
                         json.encode(text, std::nullopt, special).ids);
    }

    void lists_read_odd_tokens_as_the_json_does() {
        // A token that is not UTF-8 reads as a JSON round trip makes it (U+FFFD for the bad
        // byte); a token given twice is refused either way.
        const auto vocabulary = [](const std::vector<std::string>& tokens,
                                   const std::vector<std::string>& merges) {
            Builder b;
            b.header(0, 4)
                .kv_str("tokenizer.ggml.model", "gpt2")
                .kv_str("tokenizer.ggml.pre", "gpt-2")
                .kv_strs("tokenizer.ggml.tokens", tokens)
                .kv_strs("tokenizer.ggml.merges", merges);
            return b;
        };
        const Builder odd = vocabulary({"a", "b", "ab", "\xC3", "c\xFF"}, {"a b"});
        const GgufFile f = parse(odd);
        const text::HfTokenizer lists = models::gguf_tokenizer(f);
        const text::HfTokenizer json =
            text::HfTokenizer::from_tokenizer_json(models::gguf_tokenizer_json(f), "odd");
        QCOMPARE(lists.token_to_id("\xEF\xBF\xBD"), std::optional<std::int64_t>(3));
        QCOMPARE(lists.token_to_id("c\xEF\xBF\xBD"), json.token_to_id("c\xEF\xBF\xBD"));
        QCOMPARE(lists.encode("ab").ids, json.encode("ab").ids);
        QCOMPARE(lists.encode("ab").ids, std::vector<std::int64_t>{2});
        const GgufFile twice = parse(vocabulary({"a", "b", "a"}, {}));
        for (const bool from_lists : {true, false}) {
            bool refused = false;
            try {
                if (from_lists)
                    (void)models::gguf_tokenizer(twice);
                else
                    (void)text::HfTokenizer::from_tokenizer_json(models::gguf_tokenizer_json(twice),
                                                                 "twice");
            } catch (const DataError& e) {
                refused = QString::fromUtf8(e.what()).contains(from_lists ? "twice" : "duplicate");
            }
            QVERIFY(refused);
        }
    }

    void the_command_line_opens_gguf_files() {
        // --model FILE.gguf wherever a model folder works: the same ids as the Hugging Face
        // folder the file was converted from, and the same maps (--out-weights).
        const QString text = "The cat sat on the mat. Then the dog ran to the house!";
        for (const char* c : {"llama_gqa", "qwen2_bias_bf16", "gpt2_lmhead"}) {
            const QString gguf = QString::fromStdString(gguf_dir() + "models/" + c + ".gguf");
            const QString folder = QString::fromStdString(test::golden_dir() + "/models/" + c);
            const test::CliRun a = test::run_cli({"tokenize", "--model", gguf, "--text", text});
            const test::CliRun b = test::run_cli({"tokenize", "--model", folder, "--text", text});
            QCOMPARE(a.status, 0);
            QCOMPARE(b.status, 0);
            const auto ids = [](const QString& json) {
                const auto doc = io::json::parse(json.toStdString());
                std::vector<std::int64_t> out;
                for (io::json::Element e : io::json::Array(*io::json::find(doc.root(), "ids")))
                    out.push_back(*io::json::as_int64(e));
                return out;
            };
            QCOMPARE(ids(a.out), ids(b.out));
            const QString wa = QString::fromStdString(test::temp_dir() + "/" + c + "_gguf.npy");
            const QString wb = QString::fromStdString(test::temp_dir() + "/" + c + "_hf.npy");
            QCOMPARE(test::run_cli({"attend", "--model", gguf, "--text", text, "--out-weights", wa})
                         .status,
                     0);
            QCOMPARE(
                test::run_cli({"attend", "--model", folder, "--text", text, "--out-weights", wb})
                    .status,
                0);
            const Tensor x = io::read_npy(wa.toStdString());
            const Tensor y = io::read_npy(wb.toStdString());
            QCOMPARE(x.shape, y.shape);
            const auto r = test::compare_arrays(x.ptr(), y.ptr(), x.numel(), 1e-5);
            QVERIFY2(r.ok, r.message.c_str());
        }
        const test::CliRun inspect =
            test::run_cli({"inspect", "--model",
                           QString::fromStdString(gguf_dir() + "models/llama_gqa.Q4_0.gguf")});
        QCOMPARE(inspect.status, 0);
        QVERIFY2(inspect.out.contains("\"dtype\":\"F32 + Q4_0\""), qPrintable(inspect.out));
        // A vocabulary alone tokenizes and is no model; a lying file is one line and exit 1.
        const QString vocab = QString::fromStdString(gguf_dir() + "vocab/ggml-vocab-gpt-2.gguf");
        const test::CliRun tok =
            test::run_cli({"tokenize", "--model", vocab, "--text", "Hello world"});
        QCOMPARE(tok.status, 0);
        QVERIFY2(tok.out.contains("\"ids\":[15496,995]"), qPrintable(tok.out));
        const test::CliRun no_model =
            test::run_cli({"attend", "--model", vocab, "--text", "Hello", "--out-weights",
                           QString::fromStdString(test::temp_dir() + "/x.npy")});
        QCOMPARE(no_model.status, 1);
        QVERIFY2(no_model.err.contains("a tokenizer without weights"), qPrintable(no_model.err));
        const std::string bad = test::temp_dir() + "/lying.gguf";
        std::string bytes = io::read_file(gguf_dir() + "models/gpt2_lmhead.gguf");
        bytes.resize(bytes.size() / 2);
        io::write_file_atomically(bad, bytes);
        const test::CliRun lying =
            test::run_cli({"inspect", "--model", QString::fromStdString(bad)});
        QCOMPARE(lying.status, 1);
        QVERIFY2(lying.err.contains("lying.gguf") && lying.err.contains("past the end") &&
                     lying.err.trimmed().count('\n') == 0,
                 qPrintable(lying.err));
    }

    void the_command_line_streams_gguf_weights() {
        // ATTNVIZ_WEIGHT_CACHE=0: the same maps, bit for bit; a NaN scale in layer 1 is one
        // line naming the tensor, exit 1, and no file written.
        const QString text = "The cat sat on the mat.";
        const QString gguf =
            QString::fromStdString(gguf_dir() + "models/qwen2_bias_bf16.Q5_1.gguf");
        const QString kept = QString::fromStdString(test::temp_dir() + "/gguf_kept.npy");
        const QString streamed = QString::fromStdString(test::temp_dir() + "/gguf_streamed.npy");
        const QStringList args = {"attend", "--model",   gguf, "--text",
                                  text,     "--threads", "2",  "--out-weights"};
        test::CliRun r = test::run_cli(args + QStringList{kept});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        qputenv(models::kWeightCacheEnvironmentVariable, "0");
        r = test::run_cli(args + QStringList{streamed});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const Tensor a = io::read_npy(kept.toStdString());
        const Tensor b = io::read_npy(streamed.toStdString());
        QCOMPARE(b.shape, a.shape);
        QVERIFY(a.data == b.data);

        std::string bytes = io::read_file(gguf.toStdString());
        const GgufFile good = GgufFile::parse(bytes, "good.gguf");
        const io::GgufTensorInfo* up = good.find_tensor("blk.1.ffn_up.weight");
        QVERIFY(up);
        QCOMPARE(io::gguf_type_name(up->type), std::string("Q5_1"));
        const std::uint64_t at = good.data_offset() + up->offset;  // the first block's d
        bytes[at] = '\x00';
        bytes[at + 1] = '\x7C';  // +infinity
        const std::string bad = test::temp_dir() + "/inf_scale.gguf";
        io::write_file_atomically(bad, bytes);
        const QString never = QString::fromStdString(test::temp_dir() + "/never.npy");
        for (const char* cache : {"0", ""}) {
            qputenv(models::kWeightCacheEnvironmentVariable, cache);
            r = test::run_cli({"attend", "--model", QString::fromStdString(bad), "--text", text,
                               "--out-weights", never});
            QCOMPARE(r.status, 1);
            QVERIFY2(r.err.contains("inf_scale.gguf: tensor 'blk.1.ffn_up.weight' (Q5_1) holds") &&
                         r.err.trimmed().count('\n') == 0,
                     qPrintable(r.err));
            QVERIFY(!QFile::exists(never));
        }
        qunsetenv(models::kWeightCacheEnvironmentVariable);
    }

    void unreadable_paths() {
        ATTNVIZ_EXPECT_DATA_ERROR(GgufFile::open(gguf_dir() + "absent.gguf"), "cannot open",
                                  "absent.gguf");
        ATTNVIZ_EXPECT_DATA_ERROR(GgufFile::open(gguf_dir()), "cannot read");
        const std::string empty = test::temp_dir() + "/empty.gguf";
        io::write_file_atomically(empty, "");
        ATTNVIZ_EXPECT_DATA_ERROR(GgufFile::open(empty), "empty (0 bytes), not a GGUF file");
    }
};

QTEST_GUILESS_MAIN(TestGguf)
#include "test_gguf.moc"
