// The memory-mapped weights of Hugging Face model folders (engine/io/weight_store.h): single
// files and sharded folders, what load() converts, and one test per way a folder can be
// broken, each with the file it names and the problem it states.  The test writes every
// folder itself; torch-written files come from tests/data/io/safetensors (make_io_cases.py).

#include <QDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/safetensors.h"
#include "engine/io/weight_store.h"
#include "test_support.h"

using namespace attnviz;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

void write(const std::string& path, const std::string& bytes) {
    io::write_file_atomically(path, bytes);
}

std::string le64(std::uint64_t v) {
    std::string s;
    for (int i = 0; i < 8; ++i)
        s += static_cast<char>((v >> (8 * i)) & 0xFF);
    return s;
}

template <typename T>
std::string raw(const std::vector<T>& values) {
    std::string s(values.size() * sizeof(T), '\0');
    if (!values.empty()) std::memcpy(s.data(), values.data(), s.size());
    return s;  // the test machines are little-endian, as the format is
}

std::uint16_t to_bf16(float v) {
    return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(v) >> 16);  // exact values only
}

// Exact for the small values the tests use (normal halves with few mantissa bits) and inf.
std::uint16_t to_f16(float v) {
    const std::uint32_t b = std::bit_cast<std::uint32_t>(v);
    const std::uint16_t sign = static_cast<std::uint16_t>((b >> 16) & 0x8000u);
    if (std::isinf(v)) return sign | 0x7C00u;
    if (v == 0.0f) return sign;
    const int exponent = static_cast<int>((b >> 23) & 0xFF) - 127 + 15;
    return static_cast<std::uint16_t>(sign | (exponent << 10) | ((b >> 13) & 0x3FF));
}

struct Spec {
    std::string name, dtype;
    Shape shape;
    std::string bytes;
};

Spec f32(std::string name, Shape shape, std::vector<float> v) {
    return {std::move(name), "F32", std::move(shape), raw(v)};
}
Spec bf16(std::string name, Shape shape, const std::vector<float>& v) {
    std::vector<std::uint16_t> h;
    for (const float x : v)
        h.push_back(to_bf16(x));
    return {std::move(name), "BF16", std::move(shape), raw(h)};
}
Spec f16(std::string name, Shape shape, const std::vector<float>& v) {
    std::vector<std::uint16_t> h;
    for (const float x : v)
        h.push_back(to_f16(x));
    return {std::move(name), "F16", std::move(shape), raw(h)};
}
Spec f64(std::string name, Shape shape, std::vector<double> v) {
    return {std::move(name), "F64", std::move(shape), raw(v)};
}

// A safetensors file laid out as the reference writes it: header padded to 8 bytes, the
// tensors' data contiguous in the order given.
std::string st_bytes(const std::vector<Spec>& specs, const std::string& metadata = "") {
    std::string header = "{" + metadata;
    std::string data;
    for (const Spec& s : specs) {
        if (header.size() > 1) header += ',';
        header += "\"" + s.name + "\":{\"dtype\":\"" + s.dtype + "\",\"shape\":[";
        for (std::size_t i = 0; i < s.shape.size(); ++i)
            header += (i ? "," : "") + std::to_string(s.shape[i]);
        header += "],\"data_offsets\":[" + std::to_string(data.size()) + "," +
                  std::to_string(data.size() + s.bytes.size()) + "]}";
        data += s.bytes;
    }
    header += "}";
    header.append((8 - header.size() % 8) % 8, ' ');
    return le64(header.size()) + header + data;
}

// weight_map text for an index.
std::string index_json(const std::vector<std::pair<std::string, std::string>>& map) {
    std::string out = "{\"metadata\":{\"total_size\":12345},\"weight_map\":{";
    for (std::size_t i = 0; i < map.size(); ++i)
        out += (i ? "," : "") + std::string("\"") + map[i].first + "\":\"" + map[i].second + "\"";
    return out + "}}";
}

constexpr const char* kShard1 = "model-00001-of-00002.safetensors";
constexpr const char* kShard2 = "model-00002-of-00002.safetensors";

// A sharded folder: a and b in shard 1, c in shard 2, listed by the index.
std::string sharded_folder(const std::string& name) {
    const std::string dir = test::fresh_dir(name);
    write(dir + "/" + kShard1, st_bytes({f32("a", {2}, {1, 2}), bf16("b", {3}, {0.5f, -1, 4})}));
    write(dir + "/" + kShard2, st_bytes({f16("c", {2, 2}, {1, -2, 0.25f, 8})}));
    write(dir + "/model.safetensors.index.json",
          index_json({{"a", kShard1}, {"b", kShard1}, {"c", kShard2}}));
    return dir;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

}  // namespace

class TestWeightStore : public QObject {
    Q_OBJECT

  private slots:
    void opensAModelSafetensorsFolder() {
        const std::string dir = test::fresh_dir("single");
        const std::string bytes =
            st_bytes({f32("w", {2, 3}, {1, 2, 3, 4, 5, 6}), bf16("x.bias", {2}, {0.5f, -3}),
                      f16("h", {3}, {1, -0.5f, 1024}), f64("d", {}, {0.1})},
                     "\"__metadata__\":{\"format\":\"pt\"}");
        write(dir + "/model.safetensors", bytes);
        write(dir + "/config.json", "{}");
        const io::WeightStore store = io::WeightStore::open_folder(dir);

        QCOMPARE(store.names(), (std::vector<std::string>{"d", "h", "w", "x.bias"}));
        QCOMPARE(store.folder(), dir);
        QCOMPARE(store.files(), std::vector<std::string>{"model.safetensors"});
        QCOMPARE(store.parameter_count(), std::uint64_t(6 + 2 + 3 + 1));
        QCOMPARE(store.data_bytes(), std::uint64_t(24 + 4 + 6 + 8));
        QCOMPARE(store.dtype_summary(), std::string("F32 + BF16 + F16 + F64"));
        QVERIFY(store.find("nope") == nullptr);
        QVERIFY(store.find("__metadata__") == nullptr);

        // The entry says where the bytes are in the file.
        const io::TensorEntry* w = store.find("w");
        QVERIFY(w);
        QCOMPARE(w->name, std::string("w"));
        QCOMPARE(w->dtype, std::string("F32"));
        QCOMPARE(w->shape, Shape({2, 3}));
        QCOMPARE(w->file, std::string("model.safetensors"));
        QCOMPARE(w->nbytes, std::uint64_t(24));
        float first = 0;
        std::memcpy(&first, bytes.data() + w->offset, 4);
        QCOMPARE(first, 1.0f);
        QCOMPARE(store.find("x.bias")->offset, w->offset + 24);

        const Tensor tw = store.load("w");
        QCOMPARE(tw.shape, Shape({2, 3}));
        QCOMPARE(tw.data, std::vector<float>({1, 2, 3, 4, 5, 6}));
        QCOMPARE(store.load("x.bias").data, std::vector<float>({0.5f, -3}));
        QCOMPARE(store.load("h").data, std::vector<float>({1, -0.5f, 1024}));
        const Tensor d = store.load("d");
        QCOMPARE(d.shape, Shape{});
        QCOMPARE(d.data, std::vector<float>{0.1f});  // F64 rounded to nearest float

        std::vector<float> buffer(3, -7.0f);
        store.load_into("h", buffer.data(), buffer.size());
        QCOMPARE(buffer, std::vector<float>({1, -0.5f, 1024}));
        try {
            store.load_into("h", buffer.data(), 2);
            QFAIL("load_into took a buffer of the wrong size");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("tensor 'h' of shape [3] has 3 values but the "
                                                "buffer holds 2") != std::string::npos,
                     e.what());
        }
        ATTNVIZ_EXPECT_DATA_ERROR(store.load("nope"), "model folder '" + dir + "'",
                                  "no tensor 'nope' in model.safetensors");
    }

    // What torch wrote, through the mapping, is what the whole-file reader gives, bit for bit.
    void agreesWithTheFileReaderOnTorchFiles_data() {
        QTest::addColumn<QString>("file");
        for (const char* f :
             {"mha_packed.safetensors", "mha_separate.safetensors", "mha_f64.safetensors",
              "mha_f16.safetensors", "mha_bf16.safetensors", "unicode_names.safetensors",
              "extra_fields.safetensors", "empty.safetensors"})
            QTest::newRow(f) << QString(f);
    }
    void agreesWithTheFileReaderOnTorchFiles() {
        QFETCH(QString, file);
        const std::string path = test::data_dir() + "/io/safetensors/" + file.toStdString();
        const io::TensorMap expected = io::read_safetensors(path);
        const io::WeightStore store = io::WeightStore::open_file(path);
        QCOMPARE(store.names().size(), expected.size());
        QCOMPARE(store.folder(), test::data_dir() + "/io/safetensors");
        std::uint64_t params = 0;
        for (const auto& [name, t] : expected) {
            const Tensor got = store.load(name);
            QCOMPARE(got.shape, t.shape);
            QVERIFY2(same_bits(got.data, t.data), name.c_str());
            params += t.numel();
        }
        QCOMPARE(store.parameter_count(), params);
    }

    void shardedFolders() {
        const std::string dir = sharded_folder("sharded");
        const io::WeightStore store = io::WeightStore::open_folder(dir);
        QCOMPARE(store.names(), (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(store.files(), (std::vector<std::string>{kShard1, kShard2}));
        QCOMPARE(store.find("a")->file, std::string(kShard1));
        QCOMPARE(store.find("c")->file, std::string(kShard2));
        QCOMPARE(store.load("a").data, std::vector<float>({1, 2}));
        QCOMPARE(store.load("b").data, std::vector<float>({0.5f, -1, 4}));
        const Tensor c = store.load("c");
        QCOMPARE(c.shape, Shape({2, 2}));
        QCOMPARE(c.data, std::vector<float>({1, -2, 0.25f, 8}));
        QCOMPARE(store.parameter_count(), std::uint64_t(9));
        QCOMPARE(store.data_bytes(), std::uint64_t(8 + 6 + 8));
        QCOMPARE(store.dtype_summary(), std::string("F32 + BF16 + F16"));
    }

    // As transformers: model.safetensors wins over an index beside it.
    void preferModelSafetensorsOverAnIndex() {
        const std::string dir = sharded_folder("both");
        write(dir + "/model.safetensors", st_bytes({f32("only", {1}, {3})}));
        const io::WeightStore store = io::WeightStore::open_folder(dir);
        QCOMPARE(store.names(), std::vector<std::string>{"only"});
    }

    // A shard may hold tensors the index does not list: checked, but not part of the model
    // (transformers loads only what the weight_map names).
    void tensorsTheIndexDoesNotListAreLeftOut() {
        const std::string dir = test::fresh_dir("unlisted");
        write(dir + "/" + kShard1, st_bytes({f32("a", {2}, {1, 2}), f32("extra", {1}, {9})}));
        write(dir + "/model.safetensors.index.json", index_json({{"a", kShard1}}));
        const io::WeightStore store = io::WeightStore::open_folder(dir);
        QCOMPARE(store.names(), std::vector<std::string>{"a"});
        QVERIFY(store.find("extra") == nullptr);
        QCOMPARE(store.parameter_count(), std::uint64_t(2));
        ATTNVIZ_EXPECT_DATA_ERROR(store.load("extra"), "no tensor 'extra'");

        // ... but they are checked like every other tensor.
        write(dir + "/" + kShard1,
              st_bytes({f32("a", {2}, {1, 2}), {"extra", "F32", {2}, std::string(4, '\0')}}));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), dir + "/" + kShard1 + ": ",
                                  "tensor 'extra' data_offsets [8,12] do not match shape [2]");
    }

    void pickleOnlyFoldersSaySo_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"pytorch_model.bin", "weights.pt", "checkpoint.pth",
                              "pytorch_model-00001-of-00002.bin"})
            QTest::newRow(f) << QString(f);
    }
    void pickleOnlyFoldersSaySo() {
        QFETCH(QString, file);
        const std::string dir = test::fresh_dir("pickles");
        write(dir + "/config.json", "{}");
        write(dir + "/" + file.toStdString(), "PK\x03\x04 not really a zip");
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), "model folder '" + dir + "'",
                                  "only PyTorch pickle weights (" + file.toStdString() + ")",
                                  "AttnViz reads safetensors", "safe_serialization=True",
                                  "safetensors.torch.save_file");
    }

    // The Hugging Face cache links snapshot files to blobs: links work, and a dangling one is
    // reported as what it is, not as a folder without weights.
    void symbolicLinks() {
        const std::string blobs = test::fresh_dir("blobs");
        write(blobs + "/abc123", st_bytes({f32("w", {1}, {7})}));
        const std::string dir = test::fresh_dir("snapshot");
        QCOMPARE(::symlink((blobs + "/abc123").c_str(), (dir + "/model.safetensors").c_str()), 0);
        QCOMPARE(io::WeightStore::open_folder(dir).load("w").data, std::vector<float>{7});
        QDir(QString::fromStdString(blobs)).removeRecursively();
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir),
                                  "cannot open '" + dir + "/model.safetensors': No such file");
    }

    void foldersWithoutWeights() {
        const std::string empty = test::fresh_dir("no_weights");
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(empty),
                                  "model folder '" + empty + "': no weights",
                                  "model.safetensors or model.safetensors.index.json");
        write(empty + "/config.json", "{}");
        write(empty + "/tokenizer.json", "{}");
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(empty), "no weights");

        const std::string other = test::fresh_dir("other_name");
        write(other + "/adapter_model.safetensors", st_bytes({f32("a", {1}, {1})}));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(other),
                                  "no model.safetensors or model.safetensors.index.json, but "
                                  "adapter_model.safetensors");

        const std::string tf = test::fresh_dir("tensorflow");
        write(tf + "/tf_model.h5", "HDF");
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(tf), "only tf_model.h5");

        const std::string missing = test::temp_dir() + "/not_there";
        ATTNVIZ_EXPECT_DATA_ERROR(
            io::WeightStore::open_folder(missing),
            "cannot open model folder '" + missing + "': No such file or directory");
        const std::string file = empty + "/config.json";
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(file),
                                  "'" + file + "' is not a model folder");
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_file(empty + "/nothing.safetensors"),
                                  "cannot open '" + empty + "/nothing.safetensors'");
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_file(empty), "Is a directory");
    }

    void brokenShards() {
        // Truncated: the header promises more bytes than the file holds.
        const std::string dir = sharded_folder("truncated");
        const std::string shard = dir + "/" + kShard1;
        const std::string good = io::read_file(shard);
        write(shard, good.substr(0, good.size() - 3));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), shard + ": ",
                                  "tensor 'b' data_offsets [8,14] run past the end of the data",
                                  "truncated?");
        // Cut inside the header.
        write(shard, good.substr(0, 20));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), shard + ": ",
                                  "is larger than the file", "truncated");
        // Empty.
        write(shard, "");
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir),
                                  shard + ": the file is empty (0 bytes)");
        // Not safetensors at all.
        write(shard, "{\"this is\": \"a JSON file, not safetensors\"}\n");
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), shard + ": header length",
                                  "not a safetensors file");
        write(shard, io::read_file(test::data_dir() + "/io/safetensors/bad_not_json.safetensors"));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir),
                                  shard + ": the header is not valid JSON");
        // The reader's layout checks apply to every shard.
        write(shard,
              io::read_file(test::data_dir() + "/io/safetensors/bad_offsets_overlap.safetensors"));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), shard + ": ", "overlap");
        write(shard,
              io::read_file(test::data_dir() + "/io/safetensors/bad_offsets_gap.safetensors"));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), shard + ": ",
                                  "gap in the data");
        write(shard,
              io::read_file(test::data_dir() + "/io/safetensors/bad_trailing_data.safetensors"));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), shard + ": ", "trailing data");
        write(shard,
              io::read_file(test::data_dir() + "/io/safetensors/bad_duplicate_names.safetensors"));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), shard + ": ",
                                  "duplicate key \"a\"");
    }

    // The 100 MB header limit holds before anything is parsed (a sparse file: no 100 MB write).
    void refusesHeadersOver100MB() {
        const std::string path = test::fresh_dir("big_header") + "/model.safetensors";
        write(path, le64(100'000'001) + "{");
        const int fd = ::open(path.c_str(), O_WRONLY);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, 8 + 100'000'001 + 8), 0);
        ::close(fd);
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_file(path),
                                  path + ": header length 100000001 exceeds the 100 MB limit");
    }

    void brokenIndexes_data() {
        QTest::addColumn<QString>("index");
        QTest::addColumn<QString>("phrase");
        QTest::newRow("not JSON") << "weight_map = {}"
                                  << "the shard index is not valid JSON";
        QTest::newRow("truncated JSON") << "{\"weight_map\": {\"a\": \"x"
                                        << "the shard index is not valid JSON";
        QTest::newRow("not an object") << "[1, 2]"
                                       << "the shard index is an array, not a JSON object";
        QTest::newRow("no weight_map") << "{\"metadata\": {\"total_size\": 8}}"
                                       << "has no \"weight_map\"";
        QTest::newRow("weight_map not an object")
            << "{\"weight_map\": [\"a\"]}"
            << "\"weight_map\" must be an object {tensor name: shard file}, found an array";
        QTest::newRow("shard not a string") << "{\"weight_map\": {\"a\": 1}}"
                                            << "tensor 'a' maps to a number, not a shard";
        QTest::newRow("shard outside the folder")
            << "{\"weight_map\": {\"a\": \"../model.safetensors\"}}"
            << "tensor 'a' maps to \"../model.safetensors\", which is not a file name in the "
               "model folder";
        QTest::newRow("absolute shard") << "{\"weight_map\": {\"a\": \"/etc/passwd\"}}"
                                        << "which is not a file name in the model folder";
        QTest::newRow("empty shard name") << "{\"weight_map\": {\"a\": \"\"}}"
                                          << "which is not a file name";
        QTest::newRow("empty weight_map") << "{\"weight_map\": {}}"
                                          << "\"weight_map\" is empty";
        QTest::newRow("repeated tensor")
            << QString("{\"weight_map\": {\"a\": \"%1\", \"a\": \"%2\"}}").arg(kShard1, kShard2)
            << "duplicate key \"a\"";
        QTest::newRow("shard missing")
            << QString(
                   "{\"weight_map\": {\"a\": \"%1\", \"z\": \"model-00003-of-00003.safetensors\"}}")
                   .arg(kShard1)
            << "names shard 'model-00003-of-00003.safetensors', which is not in the folder";
        QTest::newRow("tensor in another shard")
            << QString(
                   "{\"weight_map\": {\"a\": \"%1\", \"b\": \"%1\", \"c\": \"%1\", "
                   "\"d\": \"%2\"}}")
                   .arg(kShard1, kShard2)
            << QString("maps tensor 'c' to %1, which does not hold it (it is in %2)")
                   .arg(kShard1, kShard2);
        QTest::newRow("tensor in no shard")
            << QString("{\"weight_map\": {\"a\": \"%1\", \"q\": \"%2\"}}").arg(kShard1, kShard2)
            << QString(
                   "maps tensor 'q' to %1, which does not hold it (no shard the index names does)")
                   .arg(kShard2);
    }
    void brokenIndexes() {
        QFETCH(QString, index);
        QFETCH(QString, phrase);
        const std::string dir = sharded_folder("broken_index");
        const std::string path = dir + "/model.safetensors.index.json";
        write(path, index.toStdString());
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), path + ": ",
                                  phrase.toStdString());
        // The same text without files gives the same message (when it is about the text).
        if (!phrase.contains("shard '") && !phrase.contains("does not hold"))
            ATTNVIZ_EXPECT_DATA_ERROR(io::parse_shard_index(index.toStdString(), "i.json"),
                                      "i.json: ", phrase.toStdString());
    }

    // One tensor in two shards is an error even when the index names only one of them.
    void aTensorInTwoShards() {
        const std::string dir = sharded_folder("twice");
        write(dir + "/" + kShard2,
              st_bytes({f16("c", {2, 2}, {1, -2, 0.25f, 8}), f32("a", {2}, {5, 6})}));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir),
                                  "model folder '" + dir + "': tensor 'a' is in two shards, " +
                                      kShard1 + " and " + kShard2 + " (the index maps it to " +
                                      kShard1 + ")");
        // Neither listed in the index: still refused (which one would be meant?).
        write(dir + "/" + kShard2,
              st_bytes({f16("c", {2, 2}, {1, -2, 0.25f, 8}), f32("zz", {1}, {5})}));
        write(dir + "/" + kShard1, st_bytes({f32("a", {2}, {1, 2}), bf16("b", {3}, {0.5f, -1, 4}),
                                             f32("zz", {1}, {5})}));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir), "tensor 'zz' is in two shards",
                                  "neither; it is not listed");
    }

    void parsesIndexesFromText() {
        const io::ShardIndex index = io::parse_shard_index(
            index_json({{"b", kShard2}, {"a", kShard1}, {"c", kShard1}}), "index.json");
        QCOMPARE(index.weight_map.size(), std::size_t(3));
        QCOMPARE(index.weight_map.at("b"), std::string(kShard2));
        QCOMPARE(index.shards, (std::vector<std::string>{kShard1, kShard2}));
    }

    void nonFiniteWeightsAreFoundAtLoad() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::string dir = test::fresh_dir("nonfinite");
        std::vector<float> big(5000, 0.5f);
        big[4321] = -kInf;  // past the first conversion block
        write(dir + "/model.safetensors",
              st_bytes({f32("w", {2, 3}, {1, 2, 3, 4, 5, nan}), bf16("b", {3}, {1, -kInf, 2}),
                        f16("h", {2}, {kInf, 1}), f64("d", {2}, {1.0, 1e300}),
                        f32("big", {5000}, big), f32("fine", {2}, {1, 2})}));
        const io::WeightStore store = io::WeightStore::open_folder(dir);  // opening reads no data
        const std::string path = dir + "/model.safetensors";
        ATTNVIZ_EXPECT_DATA_ERROR(store.load("w"),
                                  path + ": tensor 'w' holds NaN at index [1,2] (flat index 5)");
        ATTNVIZ_EXPECT_DATA_ERROR(store.load("b"),
                                  path + ": tensor 'b' holds -infinity at index 1");
        ATTNVIZ_EXPECT_DATA_ERROR(store.load("h"), "tensor 'h' holds infinity at index 0");
        ATTNVIZ_EXPECT_DATA_ERROR(store.load("d"),
                                  "tensor 'd' holds 1e+300 (beyond float32's range) at index 1");
        ATTNVIZ_EXPECT_DATA_ERROR(store.load("big"), "tensor 'big' holds -infinity at index 4321");
        std::vector<float> out(6);
        ATTNVIZ_EXPECT_DATA_ERROR(store.load_into("w", out.data(), out.size()), "holds NaN");
        QCOMPARE(store.load("fine").data, std::vector<float>({1, 2}));
    }

    void loadsOnlyTheRowsAnEmbeddingLookupNeeds() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::string dir = test::fresh_dir("rows");
        write(dir + "/model.safetensors",
              st_bytes({f32("e", {3, 2}, {1, 2, 3, 4, 5, 6}),
                        bf16("b", {3, 2}, {1, 2, 3, nan, 5, 6}), f32("v", {2}, {1, 2})}));
        const io::WeightStore store = io::WeightStore::open_folder(dir);
        std::vector<float> out(6, -1.0f);
        store.load_rows("e", {2, 0, 2}, out.data());
        QCOMPARE(out, std::vector<float>({5, 6, 1, 2, 5, 6}));
        out.assign(4, -1.0f);
        store.load_rows("b", {2, 0}, out.data());  // row 1 holds the NaN: never read
        QCOMPARE(out, std::vector<float>({5, 6, 1, 2}));
        ATTNVIZ_EXPECT_DATA_ERROR(store.load_rows("b", {1}, out.data()),
                                  "tensor 'b' holds NaN at index [1,1] (flat index 3)");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.load_rows("e", {3}, out.data()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.load_rows("e", {-1}, out.data()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.load_rows("v", {0}, out.data()));
    }

    void bf16RowsAreTheFilesBytesChecked() {
        // kernels/gemm_bf16.h multiplies BF16 rows as the file stores them.
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::string dir = test::fresh_dir("bf16_rows");
        write(dir + "/model.safetensors",
              st_bytes({bf16("b", {3, 2}, {1, 2, 3, nan, 5, -6}), f32("e", {2, 2}, {1, 2, 3, 4}),
                        bf16("v", {2}, {1, 2})}));
        const io::WeightStore store = io::WeightStore::open_folder(dir);
        const std::uint16_t* rows = store.bf16_rows("b", 2, 3);  // row 1 holds the NaN
        QVERIFY(rows != nullptr);
        QCOMPARE(rows[0], std::uint16_t{0x40a0});  // 5.0f's high half
        QCOMPARE(rows[1], std::uint16_t{0xc0c0});  // -6.0f's
        QCOMPARE(store.bf16_rows("b", 0, 1)[1], std::uint16_t{0x4000});
        QVERIFY(store.bf16_rows("b", 0, 0) != nullptr);  // an empty range: a probe
        ATTNVIZ_EXPECT_DATA_ERROR(store.bf16_rows("b", 0, 2),
                                  "tensor 'b' holds NaN at index [1,1] (flat index 3)");
        QVERIFY(store.bf16_rows("e", 0, 1) == nullptr);  // float32: converted instead
        QVERIFY(store.bf16_rows("v", 0, 1) == nullptr);  // not a matrix
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.bf16_rows("b", 2, 4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.bf16_rows("b", -1, 1));
    }

    void materialisesBlocksAsStoredAndTransposed_data() {
        QTest::addColumn<QString>("dtype");
        for (const char* d : {"F32", "BF16", "F16"})
            QTest::newRow(d) << d;
    }
    void materialisesBlocksAsStoredAndTransposed() {
        QFETCH(QString, dtype);
        // 37 x 1100: rows and columns that are not multiples of the 16 x 512 tiles.
        const std::int64_t R = 37, C = 1100;
        std::vector<float> v(static_cast<std::size_t>(R * C));
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = static_cast<float>(static_cast<int>(i % 97) - 48) * 0.25f;  // exact in all three
        const std::string dir = test::fresh_dir("blocks_" + dtype.toStdString());
        const auto spec = dtype == "F32"    ? f32("w", {R, C}, v)
                          : dtype == "BF16" ? bf16("w", {R, C}, v)
                                            : f16("w", {R, C}, v);
        write(dir + "/model.safetensors", st_bytes({spec, bf16("n", {3}, {1, 2, 3})}));
        const io::WeightStore store = io::WeightStore::open_folder(dir);
        const std::vector<float> all = store.load("w").data;
        QVERIFY(same_bits(all, v));
        // As stored, rows [5, 30) into a buffer with a wider row stride.
        const std::int64_t ld = C + 3;
        std::vector<float> out(static_cast<std::size_t>(25 * ld), -7.0f);
        store.load_block("w", 5, 30, out.data(), ld);
        for (std::int64_t r = 0; r < 25; ++r) {
            for (std::int64_t c = 0; c < C; ++c)
                QCOMPARE(out[static_cast<std::size_t>(r * ld + c)],
                         v[static_cast<std::size_t>((r + 5) * C + c)]);
            QCOMPARE(out[static_cast<std::size_t>(r * ld + C)], -7.0f);  // the gap stays
        }
        // Transposed, two row ranges into columns of one [C, R] buffer (as two threads do).
        std::vector<float> t(static_cast<std::size_t>(C * R), -7.0f);
        store.load_block("w", 0, 17, t.data(), R, true);
        store.load_block("w", 17, R, t.data() + 17, R, true);
        for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t r = 0; r < R; ++r)
                QCOMPARE(t[static_cast<std::size_t>(c * R + r)],
                         v[static_cast<std::size_t>(r * C + c)]);
        // A vector is one row.
        std::vector<float> n(3);
        store.load_block("n", 0, 1, n.data());
        QCOMPARE(n, std::vector<float>({1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.load_block("w", 30, 38, t.data()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.load_block("w", 3, 2, t.data()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.load_block("n", 0, 2, t.data()));
    }

    void blocksFindNonFiniteValuesInTheirRowsOnly() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::string dir = test::fresh_dir("block_nonfinite");
        std::vector<float> v(4 * 600, 1.0f);
        v[2 * 600 + 555] = nan;  // row 2, in the second tile of columns
        write(dir + "/model.safetensors", st_bytes({bf16("w", {4, 600}, v)}));
        const io::WeightStore store = io::WeightStore::open_folder(dir);
        std::vector<float> out(4 * 600);
        store.load_block("w", 0, 2, out.data());
        store.load_block("w", 3, 4, out.data(), 0, true);
        for (const bool transposed : {false, true})
            ATTNVIZ_EXPECT_DATA_ERROR(store.load_block("w", 1, 4, out.data(), 0, transposed),
                                      "tensor 'w' holds NaN at index [2,555] (flat index 1755)");
    }

    void unreadableDtypesAreListedButRefusedAtLoad_data() {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<int>("itemsize");
        QTest::newRow("I8") << "I8" << 1;
        QTest::newRow("U8") << "U8" << 1;
        QTest::newRow("BOOL") << "BOOL" << 1;
        QTest::newRow("I64") << "I64" << 8;
        QTest::newRow("F8_E4M3") << "F8_E4M3" << 1;
        QTest::newRow("C64") << "C64" << 8;
    }
    void unreadableDtypesAreListedButRefusedAtLoad() {
        QFETCH(QString, dtype);
        QFETCH(int, itemsize);
        const std::string d = dtype.toStdString();
        const std::string dir = test::fresh_dir("dtypes");
        write(dir + "/model.safetensors",
              st_bytes({f32("w", {2}, {1, 2}),
                        {"ids", d, {3}, std::string(3 * std::size_t(itemsize), '\1')}}));
        const io::WeightStore store = io::WeightStore::open_folder(dir);
        QVERIFY(store.find("ids"));
        QCOMPARE(store.find("ids")->dtype, d);
        QCOMPARE(store.dtype_summary(), "F32 + " + d);
        QCOMPARE(store.parameter_count(), std::uint64_t(5));
        ATTNVIZ_EXPECT_DATA_ERROR(store.load("ids"), dir + "/model.safetensors: tensor 'ids'",
                                  "has dtype " + d + ", which cannot be read",
                                  "F32, F16, BF16 and F64");
        QCOMPARE(store.load("w").data, std::vector<float>({1, 2}));
        // The whole-file reader cannot list, so it refuses the file.
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_safetensors(dir + "/model.safetensors"),
                                  "has dtype " + d + ", which cannot be read");
    }

    // Sub-byte dtypes (F4, F6) must fill whole bytes, as the reference requires.
    void subByteDtypes() {
        const std::string dir = test::fresh_dir("f4");
        write(dir + "/model.safetensors", st_bytes({{"q", "F4", {4}, std::string(2, '\0')}}));
        QCOMPARE(io::WeightStore::open_folder(dir).find("q")->nbytes, std::uint64_t(2));
        write(dir + "/model.safetensors", st_bytes({{"q", "F4", {3}, std::string(2, '\0')}}));
        ATTNVIZ_EXPECT_DATA_ERROR(io::WeightStore::open_folder(dir),
                                  "tensor 'q' of shape [3] and F4 does not fill a whole number "
                                  "of bytes");
    }

    // Every F16 bit pattern: F16C (when the CPU has it), the portable path and the textbook
    // formula agree; NaNs only as NaN (F16C quiets signalling NaNs).  Odd lengths and
    // unaligned sources for every dtype.
    void conversionPathsAgree() {
        std::vector<std::uint16_t> all(65536);
        for (std::uint32_t i = 0; i < 65536; ++i)
            all[i] = static_cast<std::uint16_t>(i);
        std::vector<float> fast(65536), portable(65536);
        const std::size_t fast_bad = io::convert_to_float("F16", all.data(), fast.data(), 65536);
        const std::size_t portable_bad =
            io::detail::convert_f16_portable(all.data(), portable.data(), 65536);
        QCOMPARE(fast_bad, std::size_t(0x7C00));  // +inf is the first non-finite pattern
        QCOMPARE(portable_bad, std::size_t(0x7C00));
        for (std::uint32_t i = 0; i < 65536; ++i) {
            const int sign = (i >> 15) ? -1 : 1;
            const int exponent = (i >> 10) & 0x1F, mantissa = i & 0x3FF;
            const double want = exponent == 0 ? sign * std::ldexp(mantissa, -24)
                                : exponent == 31
                                    ? (mantissa ? std::nan("") : sign * HUGE_VAL)
                                    : sign * std::ldexp(1024 + mantissa, exponent - 25);
            for (const float got : {fast[i], portable[i]}) {
                const bool ok = std::isnan(want) ? std::isnan(got)
                                                 : double(got) == want &&
                                                       std::signbit(got) == std::signbit(want);
                QVERIFY2(ok, qPrintable(QString("F16 bits 0x%1: got %2 (fast %3), expected %4")
                                            .arg(i, 4, 16, QChar('0'))
                                            .arg(double(got), 0, 'g', 9)
                                            .arg(double(fast[i]), 0, 'g', 9)
                                            .arg(want, 0, 'g', 9)));
            }
        }

        // Lengths around the vector widths and the block size, from an odd address.
        for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(9),
                                    std::size_t(2047), std::size_t(2049)}) {
            std::vector<float> values(n);
            for (std::size_t i = 0; i < n; ++i)
                values[i] = float(int(i % 97) - 48) * 0.25f;
            for (const char* dtype : {"F32", "F64", "F16", "BF16"}) {
                std::string bytes = "x";  // one byte in: unaligned
                for (const float v : values) {
                    if (dtype == std::string("F32")) bytes += raw(std::vector<float>{v});
                    if (dtype == std::string("F64")) bytes += raw(std::vector<double>{v});
                    if (dtype == std::string("F16"))
                        bytes += raw(std::vector<std::uint16_t>{to_f16(v)});
                    if (dtype == std::string("BF16"))
                        bytes += raw(std::vector<std::uint16_t>{to_bf16(v)});
                }
                std::vector<float> out(n, -1.0f);
                QCOMPARE(io::convert_to_float(dtype, bytes.data() + 1, out.data(), n), n);
                QVERIFY2(out == values, qPrintable(QString("%1, n = %2").arg(dtype).arg(n)));
            }
        }
    }

    // load() is const and touches nothing shared: threads may load at once.
    void loadsFromSeveralThreads() {
        const std::string dir = test::fresh_dir("threads");
        std::vector<float> values(100'000);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = float(i % 128) / 4.0f;  // exact in BF16 too
        write(dir + "/model.safetensors",
              st_bytes({f32("a", {100'000}, values), bf16("b", {100'000}, values)}));
        const io::WeightStore store = io::WeightStore::open_folder(dir);
        std::vector<int> ok(4, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                bool all = true;
                for (int k = 0; k < 20; ++k)
                    all = all && store.load(t % 2 ? "a" : "b").data == values;
                ok[std::size_t(t)] = all;
            });
        for (std::thread& th : threads)
            th.join();
        QCOMPARE(ok, std::vector<int>(4, 1));
    }

    // Copies share the mappings; a copy outlives the original.  A moved-from store is empty.
    void copiesShareAndMovesEmpty() {
        const std::string dir = sharded_folder("copies");
        auto original = std::make_unique<io::WeightStore>(io::WeightStore::open_folder(dir));
        const io::WeightStore copy = *original;
        QCOMPARE(copy.find("a"), original->find("a"));  // the same entry, not a duplicate
        io::WeightStore moved = std::move(*original);
        QVERIFY(original->names().empty());
        QCOMPARE(original->parameter_count(), std::uint64_t(0));
        ATTNVIZ_EXPECT_DATA_ERROR(original->load("a"), "no weights are open");
        original.reset();
        QCOMPARE(copy.load("c").data, std::vector<float>({1, -2, 0.25f, 8}));
        QCOMPARE(moved.load("a").data, std::vector<float>({1, 2}));
        QCOMPARE(io::WeightStore().dtype_summary(), std::string());
    }
};

QTEST_APPLESS_MAIN(TestWeightStore)
#include "test_weight_store.moc"
