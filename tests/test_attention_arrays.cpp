// Attention maps computed elsewhere (engine/io/attention_arrays.h): every layout the tools write
// reads back as the tiny GPT-2 golden's real maps, and every bad file is refused with one line
// naming what is wrong.  Files: tests/data/attention_maps/make_attention_maps.py.
#include <QTest>

#include <cmath>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/io/attention_arrays.h"
#include "engine/io/npy.h"
#include "engine/models/head_atlas.h"
#include "test_support.h"

using namespace attnviz;

namespace {

std::string maps_path(const std::string& name) {
    return test::data_dir() + "/attention_maps/" + name;
}

/// The golden's maps, [layers, heads, L, L], as the model golden stores them.
Tensor golden_maps() {
    return io::read_npy(test::golden_dir() + "/models/gpt2_lmhead/reference/attentions.npy");
}

/// Every layer of `maps` read into one [layers, heads, L, L] tensor.
Tensor read_all(const io::AttentionArrays& maps) {
    Tensor out({maps.layers(), maps.heads(), maps.length(), maps.length()});
    for (std::int64_t l = 0; l < maps.layers(); ++l)
        maps.read_layer(l, out.ptr() + std::size_t(l) * maps.layer_values());
    return out;
}

}  // namespace

class TestAttentionArrays : public QObject {
    Q_OBJECT

  private slots:
    void readsEveryLayout_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("layers");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("npy float32 [layers, heads, L, L]")
            << "maps_f32.npy" << 2 << "float32" << 0.0;
        QTest::newRow("npy float16") << "maps_f16.npy" << 2 << "float16" << 5e-4;
        QTest::newRow("npy [heads, L, L]") << "maps_one_layer.npy" << 1 << "float32" << 0.0;
        QTest::newRow("npy [layers, 1, heads, L, L] (torch.stack of HF)")
            << "maps_hf_stack.npy" << 2 << "float32" << 0.0;
        QTest::newRow("safetensors layer.N [1, heads, L, L]")
            << "maps_hf.safetensors" << 2 << "float32" << 0.0;
        QTest::newRow("safetensors layer.N float16 [heads, L, L]")
            << "maps_f16.safetensors" << 2 << "float16" << 5e-4;
    }
    void readsEveryLayout() {
        QFETCH(QString, file);
        QFETCH(int, layers);
        QFETCH(QString, dtype);
        QFETCH(double, tolerance);
        const io::AttentionArrays maps = io::AttentionArrays::open(maps_path(file.toStdString()));
        QCOMPARE(maps.layers(), std::int64_t(layers));
        QCOMPARE(maps.heads(), std::int64_t(4));
        QCOMPARE(maps.length(), std::int64_t(10));
        QCOMPARE(QString::fromStdString(maps.dtype()), dtype);
        Tensor golden = golden_maps();
        golden.data.resize(std::size_t(layers) * maps.layer_values());
        golden.shape[0] = layers;
        ATTNVIZ_COMPARE_TENSORS(read_all(maps), golden, tolerance);
        // The golden's rows sum to 1 (float16 within its rounding): no warning.
        QCOMPARE(io::validate_attention_arrays(maps), std::string());
        // One head read alone is that head's part of its layer (the full-map window's read).
        const std::int64_t L = maps.length();
        Tensor head({L, L});
        for (std::int64_t l = 0; l < layers; ++l)
            for (std::int64_t h = 0; h < maps.heads(); ++h) {
                maps.read_head(l, h, head.ptr());
                const Tensor expected(
                    {L, L},
                    std::vector<float>(golden.data.begin() + (l * maps.heads() + h) * L * L,
                                       golden.data.begin() + (l * maps.heads() + h + 1) * L * L));
                ATTNVIZ_COMPARE_TENSORS(head, expected, tolerance);
            }
        ATTNVIZ_EXPECT_DATA_ERROR(maps.read_head(0, maps.heads(), head.ptr()),
                                  "head 5 asked for, but the maps have 4 heads");
        ATTNVIZ_EXPECT_DATA_ERROR(
            maps.read_head(layers, 0, head.ptr()),
            "asked for, but the maps have " + std::to_string(layers) + " layers");
    }

    void readHeadNamesTheNaNAsReadLayerDoes() {
        const io::AttentionArrays maps = io::AttentionArrays::open(maps_path("bad_nan.npy"));
        std::vector<float> layer(maps.layer_values());
        std::string from_layer;
        std::int64_t bad_layer = -1;
        for (std::int64_t l = 0; l < maps.layers() && bad_layer < 0; ++l)
            try {
                maps.read_layer(l, layer.data());
            } catch (const DataError& e) {
                from_layer = e.what();
                bad_layer = l;
            }
        QVERIFY(bad_layer >= 0);
        std::vector<float> head(std::size_t(maps.length() * maps.length()));
        int failures = 0;
        for (std::int64_t h = 0; h < maps.heads(); ++h)
            try {
                maps.read_head(bad_layer, h, head.data());
            } catch (const DataError& e) {
                QCOMPARE(std::string(e.what()), from_layer);
                ++failures;
            }
        QCOMPARE(failures, 1);
    }

    void measuresAsTheModelGoldenDoes() {
        // The atlas of the file's maps is the atlas of the golden's: the same measures.
        const io::AttentionArrays maps =
            io::AttentionArrays::open(maps_path("maps_hf.safetensors"));
        std::vector<Tensor> from_file, golden;
        const Tensor all = golden_maps();
        for (std::int64_t l = 0; l < maps.layers(); ++l) {
            Tensor layer({maps.heads(), maps.length(), maps.length()});
            maps.read_layer(l, layer.ptr());
            from_file.push_back(layer);
            golden.push_back(Tensor(
                layer.shape, std::vector<float>(all.data.begin() + std::ptrdiff_t(l) * 400,
                                                all.data.begin() + std::ptrdiff_t(l + 1) * 400)));
        }
        const models::HeadAtlas a = models::measure_heads(from_file, true);
        const models::HeadAtlas b = models::measure_heads(golden, true);
        for (std::int64_t l = 0; l < 2; ++l)
            for (std::int64_t h = 0; h < 4; ++h) {
                QCOMPARE(a.at(l, h).entropy, b.at(l, h).entropy);
                QCOMPARE(a.at(l, h).previous, b.at(l, h).previous);
            }
        // GPT-2 is causal: nothing above the diagonal.
        io::AttentionScan scan;
        scan.add(0, from_file[0].ptr(), 4, 10);
        QVERIFY(scan.causal());
    }

    void readsTokens() {
        const io::AttentionTokens t = io::read_attention_tokens(maps_path("tokens.json"));
        QCOMPARE(t.size(), std::size_t(10));
        QCOMPARE(t.ids.size(), std::size_t(10));
        QCOMPARE(t.ids.front(), std::int64_t(89));
        const io::AttentionTokens list = io::read_attention_tokens(maps_path("tokens_list.json"));
        QCOMPARE(list.text, t.text);
        QVERIFY(list.ids.empty());
        // attnviz's own (tokenize, attend --out-tokens): "text" is what a token shows as.
        const io::AttentionTokens own = io::parse_attention_tokens(
            R"({"ids":[1,2],"tokens":["Ġa","b"],"text":[" a","b"],"offsets":[[0,2],[2,3]],)"
            R"("special":[false,true],"type_ids":[0,0],"input":" ab"})",
            "own.json");
        QCOMPARE(own.text, (std::vector<std::string>{" a", "b"}));
        QCOMPARE(own.offsets.back(), (std::pair<std::int64_t, std::int64_t>(2, 3)));
        QCOMPARE(own.special, (std::vector<std::uint8_t>{0, 1}));
        QCOMPARE(own.input, std::string(" ab"));
        QCOMPARE(io::tokens_beside(maps_path("maps_f32.npy")), maps_path("tokens.json"));
        QCOMPARE(io::tokens_beside(test::temp_dir() + "/A.npy"), std::string());
    }

    void refusesBadInput_data() {
        QTest::addColumn<QString>("maps");
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<QString>("message");
        QTest::newRow("tokens' count against L")
            << "maps_f32.npy"
            << "bad_tokens_9.json"
            << "9 tokens but the maps in " + QString::fromStdString(maps_path("maps_f32.npy")) +
                   " are 10 × 10: one token per row";
        QTest::newRow("ids shorter than tokens") << "maps_f32.npy"
                                                 << "bad_tokens_ids.json"
                                                 << "\"ids\" has 9 entries but \"tokens\" has 10";
        QTest::newRow("NaN") << "bad_nan.npy"
                             << "tokens.json"
                             << "layer 2, head 3, row 5, column 1 is NaN (counted from 1)";
        QTest::newRow("not square") << "bad_not_square.npy"
                                    << "tokens.json"
                                    << "the maps are 10 × 9; each head's map must be square";
        QTest::newRow("one map, no heads")
            << "bad_2d.npy"
            << "tokens.json"
            << "the maps are [10,10]; expected [layers, heads, L, L], [heads, L, L]";
        QTest::newRow("integers") << "bad_int.npy"
                                  << "tokens.json"
                                  << "the maps must be float16 or float32";
        QTest::newRow("Fortran order") << "bad_fortran.npy"
                                       << "tokens.json"
                                       << "Fortran order; save np.ascontiguousarray(maps)";
        QTest::newRow("safetensors names") << "bad_names.safetensors"
                                           << "tokens.json"
                                           << "tensor 'attn.1' is not one of layer.0 ... layer.1";
        QTest::newRow("safetensors shapes") << "bad_layer_shapes.safetensors"
                                            << "tokens.json"
                                            << "layer.1 is [3,10,10] but layer.0 is [4,10,10]";
        QTest::newRow("not an array") << "tokens.json"
                                      << "tokens.json"
                                      << "neither a .npy array";
        QTest::newRow("tokens not JSON") << "maps_f32.npy"
                                         << "maps_f32.npy"
                                         << "not valid JSON";
        QTest::newRow("no such file") << "missing.npy"
                                      << "tokens.json"
                                      << "missing.npy";
    }
    void refusesBadInput() {
        QFETCH(QString, maps);
        QFETCH(QString, tokens);
        QFETCH(QString, message);
        const auto check = [&] {
            const io::AttentionArrays a = io::AttentionArrays::open(maps_path(maps.toStdString()));
            io::check_tokens(a, io::read_attention_tokens(maps_path(tokens.toStdString())),
                             maps_path(tokens.toStdString()));
            return io::validate_attention_arrays(a);
        };
        ATTNVIZ_EXPECT_DATA_ERROR(check(), message.toStdString());
    }

    void checksThatTwoFilesCompare() {
        // The same shape in another layout and dtype compares; each size that differs is named.
        const auto open = [](const char* name) {
            return io::AttentionArrays::open(maps_path(name));
        };
        const io::AttentionArrays a = open("maps_f32.npy");
        io::check_comparable(a, open("maps_f16.safetensors"));  // no throw
        for (const auto& [file, what] :
             {std::pair{"maps_one_layer.npy",
                        "maps_one_layer.npy: its maps are [1, 4, 10, 10] but those of "},
              std::pair{"maps_3_heads.npy",
                        "(heads 3 against 4): two maps compare only with the "
                        "same layers, heads and tokens"},
              std::pair{"maps_9_tokens.npy", "(tokens L 9 against 10)"}}) {
            QString message;
            try {
                io::check_comparable(a, open(file));
            } catch (const DataError& e) {
                message = QString::fromStdString(e.what());
            }
            QVERIFY2(message.contains(QLatin1String(what)), qPrintable(file + (": " + message)));
        }
        // Tokens: the same, or the first of the positions that differ.
        io::AttentionTokens ta = io::read_attention_tokens(maps_path("tokens.json"));
        io::AttentionTokens tb = ta;
        QCOMPARE(io::token_difference(ta, tb, "A.json", "B.json"), std::string());
        tb.text[3] = "x";
        tb.text[7] = "y";
        QCOMPARE(io::token_difference(ta, tb, "A.json", "B.json"),
                 std::string("the tokens of B.json differ from A.json's at 2 of 10 positions "
                             "(first: position 4, 'x' against 'Ę'); the maps are compared "
                             "position by position"));
    }

    void warnsOfRowsNotSummingToOne() {
        const io::AttentionArrays maps = io::AttentionArrays::open(maps_path("rows_not_one.npy"));
        // Not a refusal: the worst row, named.
        QCOMPARE(io::validate_attention_arrays(maps),
                 maps_path("rows_not_one.npy") +
                     ": rows do not all sum to 1: layer 2, head 3, row 7 sums to 0.9 (counted "
                     "from 1)");
        io::AttentionScan scan;
        std::vector<float> layer(maps.layer_values());
        maps.read_layer(0, layer.data());
        scan.add(0, layer.data(), 4, 10);  // 0.995: off by more than 1e-3 too, but less
        QVERIFY(scan.warning("x").find("layer 1, head 2, row 4 sums to 0.995") !=
                std::string::npos);
        QCOMPARE(scan.warning("x", 1e-2), std::string());
    }
};

QTEST_GUILESS_MAIN(TestAttentionArrays)
#include "test_attention_arrays.moc"
