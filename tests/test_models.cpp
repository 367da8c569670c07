// The model families against the float64 reference of tests/golden/models/make_models.py
// (written from Hugging Face's modeling code): every layer × head of every case within 1e-5,
// the hidden states, q/k before and after the rotation, the scope (layers, heads, window),
// and a clear DataError for each kind of broken folder.
#include <QTest>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "engine/budget/memory_budget.h"
#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"
#include "engine/io/npy.h"
#include "engine/models/model.h"
#include "engine/models/pass_plan.h"
#include "engine/ops/nn.h"
#include "engine/pass_control.h"
#include "test_support.h"

using namespace attnviz;
namespace fs = std::filesystem;

namespace {

std::string models_dir() {
    return test::golden_dir() + "/models";
}

struct Case {
    std::string name, dir;
};

std::vector<Case> cases() {
    const std::string index = models_dir() + "/index.json";
    const auto doc = io::json::parse(io::read_file(index));
    std::vector<Case> out;
    const auto root = doc.root();
    const auto list = root.is_array() ? root : *io::json::find(root, "cases");
    for (io::json::Element c : io::json::Array(list)) {
        const std::string name(*io::json::as_string(*io::json::find(c, "name")));
        out.push_back({name, models_dir() + "/" + name});
    }
    return out;
}

models::ModelInput input_of(const std::string& dir) {
    models::ModelInput in;
    in.ids = test::read_int64_npy(dir + "/reference/input_ids.npy");
    if (fs::exists(dir + "/reference/token_type_ids.npy"))
        in.token_type_ids = test::read_int64_npy(dir + "/reference/token_type_ids.npy");
    return in;
}

/// Block [b0, b0+rows) x [c0, c0+cols) of head h of a [layers, heads, L, L] reference.
Tensor reference_map(const Tensor& all, std::int64_t layer, std::int64_t h, std::int64_t b0,
                     std::int64_t rows, std::int64_t c0, std::int64_t cols) {
    const std::int64_t H = all.dim(1), L = all.dim(2);
    Tensor out({rows, cols});
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j)
            out.data[static_cast<std::size_t>(i * cols + j)] =
                all.data[static_cast<std::size_t>(((layer * H + h) * L + b0 + i) * L + c0 + j)];
    return out;
}

Tensor head_of(const Tensor& weights, std::int64_t h) {
    const std::int64_t rows = weights.dim(2), cols = weights.dim(3);
    const auto n = static_cast<std::size_t>(rows * cols);
    return Tensor(
        {rows, cols},
        std::vector<float>(weights.data.begin() + static_cast<std::ptrdiff_t>(h * n),
                           weights.data.begin() + static_cast<std::ptrdiff_t>((h + 1) * n)));
}

/// One row per golden case: its folder as "dir".
void every_case() {
    QTest::addColumn<QString>("dir");
    for (const Case& c : cases())
        QTest::newRow(c.name.c_str()) << QString::fromStdString(c.dir);
}

Tensor slice0(const Tensor& t, std::int64_t i) {
    Shape s(t.shape.begin() + 1, t.shape.end());
    const std::size_t n = shape_numel(s);
    return Tensor(s, std::vector<float>(t.data.begin() + static_cast<std::ptrdiff_t>(i * n),
                                        t.data.begin() + static_cast<std::ptrdiff_t>((i + 1) * n)));
}

#define EXPECT_CLOSE(actual, expected, tol, what)                         \
    do {                                                                  \
        const auto r_ = test::compare_tensors(actual, expected, tol);     \
        QVERIFY2(r_.ok, (std::string(what) + ": " + r_.message).c_str()); \
    } while (0)

std::string copy_case(const std::string& name, const std::string& as) {
    const std::string dst = test::temp_dir() + "/" + as;
    fs::remove_all(dst);
    fs::copy(models_dir() + "/" + name, dst, fs::copy_options::recursive);
    return dst;
}

void replace_in_file(const std::string& path, const std::string& from, const std::string& to) {
    std::string s = io::read_file(path);
    const auto at = s.find(from);
    QVERIFY2(at != std::string::npos, ("'" + from + "' not in " + path).c_str());
    s.replace(at, from.size(), to);
    std::ofstream(path, std::ios::binary) << s;
}

void expect_data_error(const std::string& folder, const std::string& needle) {
    try {
        auto m = models::load_model(folder);
        QFAIL(("no error for " + folder + " (expected one mentioning '" + needle + "')").c_str());
    } catch (const DataError& e) {
        const std::string what = e.what();
        QVERIFY2(what.find(needle) != std::string::npos,
                 ("message '" + what + "' does not mention '" + needle + "'").c_str());
    }
}

}  // namespace

class TestModels : public QObject {
    Q_OBJECT
  private slots:
    void normsKeepFloat64AccuracyOnLargeOffsetRows() {
        // A row of 4096 activations around 100 with spread 1: a one-pass float variance
        // would cancel catastrophically; the two-pass norms stay within 1e-5 of float64.
        const std::int64_t dim = 4096;
        std::mt19937 rng(3);
        std::normal_distribution<double> n(100.0, 1.0);
        std::vector<float> x(dim), gamma(dim), beta(dim);
        for (std::int64_t i = 0; i < dim; ++i) {
            x[std::size_t(i)] = float(n(rng));
            gamma[std::size_t(i)] = float(0.5 + 0.001 * double(i % 7));
            beta[std::size_t(i)] = float(0.01 * double(i % 5));
        }
        double mean = 0.0, var = 0.0, ms = 0.0;
        for (const float v : x)
            mean += v, ms += double(v) * v;
        mean /= dim;
        for (const float v : x)
            var += (v - mean) * (v - mean);
        var /= dim;
        ms /= dim;
        std::vector<float> ln = x, rms = x;
        ops::layer_norm(ln.data(), 1, dim, gamma.data(), beta.data(), 1e-12f);
        ops::rms_norm(rms.data(), 1, dim, gamma.data(), 1e-6f);
        // The same bits wherever the row lies: the window and an engine run must agree.
        for (std::size_t shift = 1; shift < 8; ++shift) {
            std::vector<float> moved(shift, 0.0f);
            moved.insert(moved.end(), x.begin(), x.end());
            std::vector<float> moved_rms = moved;
            ops::layer_norm(moved.data() + shift, 1, dim, gamma.data(), beta.data(), 1e-12f);
            ops::rms_norm(moved_rms.data() + shift, 1, dim, gamma.data(), 1e-6f);
            QVERIFY(std::equal(ln.begin(), ln.end(), moved.begin() + std::ptrdiff_t(shift)));
            QVERIFY(std::equal(rms.begin(), rms.end(), moved_rms.begin() + std::ptrdiff_t(shift)));
        }
        for (std::int64_t i = 0; i < dim; ++i) {
            const auto k = std::size_t(i);
            const double want = (x[k] - mean) / std::sqrt(var + 1e-12) * gamma[k] + beta[k];
            QVERIFY2(std::abs(ln[k] - want) < 1e-5, std::to_string(i).c_str());
            const double want_rms = x[k] / std::sqrt(ms + 1e-6) * gamma[k];
            QVERIFY2(std::abs(rms[k] - want_rms) < 1e-5, std::to_string(i).c_str());
        }
    }

    void everyLayerAndHeadMatchesTheReference_data() {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<int>("threads");
        QTest::addColumn<bool>("stream");
        for (const Case& c : cases())
            for (int threads : {1, 2})
                for (bool stream : {false, true})
                    QTest::newRow(
                        (c.name + "/" + std::to_string(threads) + (stream ? "/streamed" : "/kept"))
                            .c_str())
                        << QString::fromStdString(c.dir) << threads << stream;
    }
    void everyLayerAndHeadMatchesTheReference() {
        QFETCH(QString, dir);
        QFETCH(int, threads);
        QFETCH(bool, stream);
        const std::string d = dir.toStdString();
        const auto model = models::load_model(d);
        // No cache: every layer is converted into the pass's one buffer as it runs.
        model->set_weight_cache_bytes(stream ? 0 : std::numeric_limits<std::size_t>::max());
        QCOMPARE(model->weights_stream(), stream);
        const models::ModelInput in = input_of(d);
        models::CollectingSink sink(true);
        models::ModelForwardOptions opt;
        opt.num_threads = threads;
        model->forward(in, opt, sink);
        const Tensor attn = io::read_npy(d + "/reference/attentions.npy");
        const auto& info = model->info();
        QCOMPARE(attn.dim(0), info.num_layers);
        QCOMPARE(attn.dim(1), info.num_heads);
        QCOMPARE(static_cast<std::int64_t>(sink.results.size()), info.num_layers);
        const std::int64_t L = static_cast<std::int64_t>(in.ids.size());
        for (std::int64_t l = 0; l < info.num_layers; ++l) {
            QCOMPARE(sink.layers[static_cast<std::size_t>(l)], l);
            const Tensor& w = sink.results[static_cast<std::size_t>(l)].weights;
            QCOMPARE(w.shape, (Shape{1, info.num_heads, L, L}));
            for (std::int64_t h = 0; h < info.num_heads; ++h)
                EXPECT_CLOSE(head_of(w, h), reference_map(attn, l, h, 0, L, 0, L), 1e-5,
                             "layer " + std::to_string(l) + " head " + std::to_string(h));
        }
        const Tensor hidden = io::read_npy(d + "/reference/hidden_states.npy");
        QCOMPARE(static_cast<std::int64_t>(sink.hidden_states.size()), hidden.dim(0));
        for (std::int64_t i = 0; i < hidden.dim(0); ++i) {
            const auto r = test::compare_tensors(sink.hidden_states[static_cast<std::size_t>(i)],
                                                 slice0(hidden, i), 1e-4, 1e-4);
            QVERIFY2(r.ok, ("hidden state " + std::to_string(i) + ": " + r.message).c_str());
        }
    }

    void streamedWeightsGiveTheKeptWeightsResults_data() { every_case(); }
    void streamedWeightsGiveTheKeptWeightsResults() {
        QFETCH(QString, dir);
        const std::string d = dir.toStdString();
        const auto kept = models::load_model(d);
        const auto streamed = models::load_model(d);
        kept->set_weight_cache_bytes(std::numeric_limits<std::size_t>::max());
        streamed->set_weight_cache_bytes(0);
        QVERIFY(!kept->weights_stream());
        QVERIFY(streamed->weights_stream());
        QCOMPARE(kept->resident_weight_bytes(), kept->weight_bytes());
        QCOMPARE(streamed->resident_weight_bytes(), streamed->streaming_weight_bytes());
        QVERIFY(streamed->streaming_weight_bytes() <= streamed->weight_bytes());
        const models::ModelInput in = input_of(d);
        // The same float32 values, multiplied a block of output rows at a time.
        for (int threads : {1, 2}) {
            const auto r = test::compare_forward_passes(*streamed, *kept, in, threads, 1e-5, 1e-5);
            QVERIFY2(r.ok, r.message.c_str());
        }
        if (kept->lm_head() == models::LmHeadKind::None) return;
        models::ModelForwardOptions opt;
        opt.attention = false;
        models::StreamSink sink;
        kept->forward(in, opt, sink);
        const Tensor& x = sink.residuals.back();
        const std::int64_t L = static_cast<std::int64_t>(in.ids.size());
        const std::vector<std::int64_t> rows = {0, L - 1};
        // The streamed head runs its product a block of the vocabulary at a time.
        EXPECT_CLOSE(streamed->logits(x, rows, 2), kept->logits(x, rows, 2), 1e-5, "logits");
        const std::vector<std::int64_t> columns = {3, 0, kept->info().vocab_size - 1};
        QCOMPARE(streamed->logits(x, rows, 1, &columns).data,
                 kept->logits(x, rows, 1, &columns).data);
        if (!kept->info().causal) return;
        models::GenerateOptions g;
        g.max_new_tokens = 4;
        g.attention = true;
        const models::Generation ga = kept->generate(in.ids, g);
        const models::Generation gb = streamed->generate(in.ids, g);
        QCOMPARE(gb.ids, ga.ids);
        EXPECT_CLOSE(gb.attention, ga.attention, 1e-6, "generation's attention");
    }

    void theCacheLimitSwitchesBetweenKeptAndStreamed() {
        const std::string d = models_dir() + "/qwen2_bias_bf16";
        const auto model = models::load_model(d);
        const models::ModelInput in = input_of(d);
        models::ModelForwardOptions opt;
        models::CollectingSink first, second, third;
        model->set_weight_cache_bytes(model->weight_bytes());  // exactly enough: kept
        QVERIFY(!model->weights_stream());
        model->forward(in, opt, first);
        model->set_weight_cache_bytes(model->weight_bytes() - 1);
        QVERIFY(model->weights_stream());
        model->forward(in, opt, second);
        model->set_weight_cache_bytes(model->weight_bytes());
        model->forward(in, opt, third);
        for (std::size_t l = 0; l < first.results.size(); ++l) {
            EXPECT_CLOSE(second.results[l].weights, first.results[l].weights, 1e-5, "streamed");
            QVERIFY(third.results[l].weights.data == first.results[l].weights.data);
        }
    }

    void aPassNamesItsOwnCacheLimit() {
        // ModelForwardOptions::weight_cache_bytes holds for that pass alone: a streamed pass
        // leaves a model that keeps its weights keeping them, and a pass allowed every weight
        // keeps them on a model that streams.
        const std::string d = models_dir() + "/qwen2_bias_bf16";
        const models::ModelInput in = input_of(d);
        const auto model = models::load_model(d);
        model->set_weight_cache_bytes(std::numeric_limits<std::size_t>::max());
        models::ModelForwardOptions own, streamed;
        streamed.weight_cache_bytes = 0;
        models::CollectingSink first, second, third;
        model->forward(in, own, first);
        model->forward(in, streamed, second);
        QVERIFY(!model->weights_stream());
        QCOMPARE(model->resident_weight_bytes(), model->weight_bytes());
        model->forward(in, own, third);
        QCOMPARE(second.results.size(), first.results.size());
        QCOMPARE(third.results.size(), first.results.size());
        for (std::size_t l = 0; l < first.results.size(); ++l) {
            EXPECT_CLOSE(second.results[l].weights, first.results[l].weights, 1e-5, "streamed");
            QVERIFY(third.results[l].weights.data == first.results[l].weights.data);
        }
        const auto streaming = models::load_model(d);
        streaming->set_weight_cache_bytes(0);
        models::ModelForwardOptions keep;
        keep.weight_cache_bytes = streaming->weight_bytes();  // exactly enough: kept
        models::CollectingSink fourth;
        streaming->forward(in, keep, fourth);
        QVERIFY(streaming->weights_stream());
        QCOMPARE(fourth.results.size(), first.results.size());
        for (std::size_t l = 0; l < first.results.size(); ++l)  // the kept weights' products
            QVERIFY(fourth.results[l].weights.data == first.results[l].weights.data);
    }

    void aPlanKeepsTheWeightsWhenTheyFitBesideTheRest() {
        const std::string d = models_dir() + "/llama_gqa";
        const auto model = models::load_model(d);
        const std::uint64_t streaming = model->streaming_weight_bytes();
        const std::uint64_t kept = model->weight_bytes(), maps = 1000;
        QVERIFY(streaming < kept);
        const auto footprint = [&](const budget::ResultScope&) { return maps + streaming; };
        budget::MemoryBudget budget;
        budget.bytes = maps + kept;  // exactly enough
        models::PassPlan plan = models::plan_pass(*model, footprint, {}, 8, budget);
        QCOMPARE(plan.memory.needed, maps + streaming);
        QCOMPARE(plan.memory.weights, streaming);
        QVERIFY(!plan.weights.stream);
        QCOMPARE(plan.weight_cache_bytes(), model->weight_bytes());
        budget.bytes = maps + kept - 1;
        plan = models::plan_pass(*model, footprint, {}, 8, budget);
        QVERIFY(plan.weights.stream);
        QCOMPARE(plan.weight_cache_bytes(), std::size_t(0));
        budget.bytes = maps + streaming - 1;  // not even streamed
        try {
            models::plan_pass(*model, footprint, {}, 8, budget);
            QFAIL("a pass over the budget was planned");
        } catch (const budget::MemoryBudgetExceeded& e) {
            QCOMPARE(e.plan().needed, maps + streaming);
            QCOMPARE(e.plan().weights, streaming);
            QCOMPARE(e.plan().budget, maps + streaming - 1);
        }
    }

    void aResultScopeIsThePassesAttentionScope() {
        const std::vector<std::int64_t> asked = {0, 2, 5};
        budget::ResultScope s;  // everything
        models::AttentionScope a = models::attention_scope(s, asked, 8, 100);
        QCOMPARE(a.layers, asked);
        QCOMPARE(a.heads, std::int64_t(8));
        QCOMPARE(a.window_begin, std::int64_t(0));
        QCOMPARE(a.window_length, std::int64_t(100));
        s.layers_shown = 2;
        s.heads_shown = 3;
        s.window_start = 95;  // moved back: the window ends at the last token
        s.window_length = 10;
        a = models::attention_scope(s, asked, 8, 100);
        QCOMPARE(a.layers, (std::vector<std::int64_t>{0, 2}));
        QCOMPARE(a.heads, std::int64_t(3));
        QCOMPARE(a.window_begin, std::int64_t(90));
        QCOMPARE(a.window_length, std::int64_t(10));
        s.layers_shown = 7;  // more than were asked for: all of them
        s.heads_shown = 12;  // more than the model has: all of them
        a = models::attention_scope(s, asked, 8, 100);
        QCOMPARE(a.layers, asked);
        QCOMPARE(a.heads, std::int64_t(8));
        s.heads_shown = 0;  // the mean only
        QCOMPARE(models::attention_scope(s, asked, 8, 100).heads, std::int64_t(0));
        QCOMPARE(models::every_layer(3), (std::vector<std::int64_t>{0, 1, 2}));
        QVERIFY(models::every_layer(0).empty());
    }

    void aPassRunsToItsLastKeptLayerUnlessMoreIsWanted() {
        const std::string d = models_dir() + "/llama_gqa";
        const auto model = models::load_model(d);
        const std::int64_t N = model->info().num_layers;
        QCOMPARE(N, std::int64_t(2));
        using Progress = std::vector<std::pair<std::int64_t, std::int64_t>>;
        Progress seen;
        models::ModelForwardOptions opt;
        opt.scope.layers = {0};
        opt.control.progress = [&](std::int64_t done, std::int64_t total) {
            seen.emplace_back(done, total);
        };
        models::CollectingSink kept;
        model->forward(input_of(d), opt, kept);
        QCOMPARE(kept.layers, std::vector<std::int64_t>({0}));
        QCOMPARE(seen, Progress({{1, 1}}));
        // A sink of residual streams takes every layer's: the pass runs them all.
        seen.clear();
        models::StreamSink streams;
        model->forward(input_of(d), opt, streams);
        QCOMPARE(std::int64_t(streams.residuals.size()), N + 1);
        QCOMPARE(seen, Progress({{1, 2}, {2, 2}}));
        // Resumed at layer 1 from the stream before it: one layer, the same last stream.
        seen.clear();
        models::ModelForwardOptions resumed;
        resumed.resume_layer = 1;
        resumed.resume_residual = &streams.residuals[1];
        resumed.control.progress = opt.control.progress;
        models::StreamSink rest;
        model->forward(input_of(d), resumed, rest);
        QCOMPARE(seen, Progress({{1, 1}}));
        QCOMPARE(std::int64_t(rest.residuals.size()), N + 1);
        QVERIFY(rest.residuals[2].data == streams.residuals[2].data);
    }

    void aStopBetweenTheAttentionAndTheMlpIsAnswered() {
        // The pass checks the stop flag before each layer and within it; progress counts layers.
        const std::string d = models_dir() + "/llama_gqa";
        const auto model = models::load_model(d);
        model->set_weight_cache_bytes(0);
        std::atomic<bool> stop{false};
        std::vector<std::int64_t> seen;
        models::ModelForwardOptions opt;
        opt.control.stop = &stop;
        opt.control.progress = [&](std::int64_t done, std::int64_t total) {
            seen.push_back(done);
            QCOMPARE(total, model->info().num_layers);
            if (done == 1) stop = true;
        };
        models::CollectingSink sink;
        QVERIFY_THROWS_EXCEPTION(Cancelled, model->forward(input_of(d), opt, sink));
        QCOMPARE(seen, std::vector<std::int64_t>({1}));
        QCOMPARE(sink.results.size(), std::size_t(1));
    }

    void rotaryStepsShowQAndKBeforeAndAfterTheRotation_data() {
        QTest::addColumn<QString>("dir");
        for (const Case& c : cases())
            if (fs::exists(c.dir + "/reference/layer0_q_post_rope.npy"))
                QTest::newRow(c.name.c_str()) << QString::fromStdString(c.dir);
    }
    void rotaryStepsShowQAndKBeforeAndAfterTheRotation() {
        QFETCH(QString, dir);
        const std::string d = dir.toStdString();
        const auto model = models::load_model(d);
        models::CollectingSink sink;
        models::ModelForwardOptions opt;
        opt.steps_layer = 0;
        opt.scope.layers = {0};
        model->forward(input_of(d), opt, sink);
        QCOMPARE(sink.results.size(), std::size_t{1});
        QVERIFY(sink.results[0].steps.has_value());
        const auto& heads = sink.results[0].steps->heads;
        const auto& info = model->info();
        QCOMPARE(static_cast<std::int64_t>(heads.size()), info.num_heads);
        const Tensor q_pre = io::read_npy(d + "/reference/layer0_q_pre_rope.npy");
        const Tensor q_post = io::read_npy(d + "/reference/layer0_q_post_rope.npy");
        const Tensor k_pre = io::read_npy(d + "/reference/layer0_k_pre_rope.npy");
        const Tensor k_post = io::read_npy(d + "/reference/layer0_k_post_rope.npy");
        const std::int64_t group = info.num_heads / info.num_kv_heads;
        for (std::int64_t h = 0; h < info.num_heads; ++h) {
            const HeadSteps& st = heads[static_cast<std::size_t>(h)];
            QCOMPARE(st.kv_head, h / group);
            const std::string w = "head " + std::to_string(h);
            EXPECT_CLOSE(st.q_unrotated, slice0(q_pre, h), 1e-5, w + " q before rotation");
            EXPECT_CLOSE(st.q, slice0(q_post, h), 1e-5, w + " q after rotation");
            EXPECT_CLOSE(st.k_unrotated, slice0(k_pre, st.kv_head), 1e-5, w + " k before rotation");
            EXPECT_CLOSE(st.k, slice0(k_post, st.kv_head), 1e-5, w + " k after rotation");
        }
    }

    void stepsOfALayerMatchTheReference_data() { every_case(); }
    // The steps view's intermediates for a model: what the projections read, every head's
    // weights and output, the heads side by side and the output projection, against the
    // float64 reference's layer 0.
    void stepsOfALayerMatchTheReference() {
        QFETCH(QString, dir);
        const std::string d = dir.toStdString();
        const auto model = models::load_model(d);
        models::CollectingSink sink;
        models::ModelForwardOptions opt;
        opt.steps_layer = 0;
        model->forward(input_of(d), opt, sink);
        const auto& info = model->info();
        QCOMPARE(static_cast<std::int64_t>(sink.results.size()), info.num_layers);
        QVERIFY(sink.results[0].steps.has_value());
        for (std::size_t l = 1; l < sink.results.size(); ++l)
            QVERIFY(!sink.results[l].steps.has_value());
        const AttentionResult& r = sink.results[0];
        const AttentionSteps& st = *r.steps;
        const Tensor input = io::read_npy(d + "/reference/layer0_attn_input.npy");
        const Tensor concat = io::read_npy(d + "/reference/layer0_attn_concat.npy");
        const Tensor output = io::read_npy(d + "/reference/layer0_attn_output.npy");
        const Tensor attn = io::read_npy(d + "/reference/attentions.npy");
        const std::int64_t L = input.dim(0), H = info.num_heads, hd = info.head_dim;
        QCOMPARE(st.input.shape, (Shape{1, L, input.dim(1)}));
        EXPECT_CLOSE(slice0(st.input, 0), input, 1e-5, "input");
        QCOMPARE(st.concat.shape, (Shape{1, L, H * hd}));
        EXPECT_CLOSE(slice0(st.concat, 0), concat, 1e-5, "concat");
        EXPECT_CLOSE(slice0(r.output, 0), output, 1e-5, "output");
        for (std::int64_t h = 0; h < H; ++h) {
            const HeadSteps& hs = st.heads[static_cast<std::size_t>(h)];
            const std::string w = "head " + std::to_string(h);
            EXPECT_CLOSE(hs.softmax, reference_map(attn, 0, h, 0, L, 0, L), 1e-5, w + " softmax");
            std::vector<float> ctx;
            for (std::int64_t i = 0; i < L; ++i)
                for (std::int64_t c = 0; c < hd; ++c)
                    ctx.push_back(concat.data[static_cast<std::size_t>(i * H * hd + h * hd + c)]);
            EXPECT_CLOSE(hs.context, Tensor({L, hd}, std::move(ctx)), 1e-5, w + " context");
        }
    }

    void aScopeKeepsExactlyThoseCellsOfTheFullMaps_data() { every_case(); }
    void aScopeKeepsExactlyThoseCellsOfTheFullMaps() {
        QFETCH(QString, dir);
        const std::string d = dir.toStdString();
        const auto model = models::load_model(d);
        const models::ModelInput in = input_of(d);
        const std::int64_t L = static_cast<std::int64_t>(in.ids.size());
        const std::int64_t last = model->info().num_layers - 1;
        models::CollectingSink sink;
        models::ModelForwardOptions opt;
        opt.scope.layers = {last};
        opt.scope.heads = 2;
        opt.scope.window_begin = 2;
        opt.scope.window_length = 3;
        model->forward(in, opt, sink);
        QCOMPARE(sink.layers, std::vector<std::int64_t>{last});
        const AttentionResult& r = sink.results[0];
        QCOMPARE(r.weights.shape, (Shape{1, 2, 3, 3}));
        QCOMPARE(r.mean_weights.shape, (Shape{1, 3, 3}));
        const Tensor attn = io::read_npy(d + "/reference/attentions.npy");
        for (std::int64_t h = 0; h < 2; ++h)
            EXPECT_CLOSE(head_of(r.weights, h), reference_map(attn, last, h, 2, 3, 2, 3), 1e-5,
                         "windowed head " + std::to_string(h));
        // The mean covers every head, not only the kept ones.
        Tensor mean({3, 3});
        const std::int64_t H = attn.dim(1);
        for (std::int64_t h = 0; h < H; ++h) {
            const Tensor m = reference_map(attn, last, h, 2, 3, 2, 3);
            for (std::size_t i = 0; i < 9; ++i)
                mean.data[i] += m.data[i] / static_cast<float>(H);
        }
        EXPECT_CLOSE(Tensor({3, 3}, r.mean_weights.data), mean, 1e-5, "windowed mean");
        QVERIFY(L >= 5);
    }

    void badInputsAreRefusedWithTheirSizes() {
        const auto model = models::load_model(models_dir() + "/gpt2_lmhead");
        models::CollectingSink sink;
        models::ModelInput in;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model->forward(in, {}, sink));
        in.ids = {0, model->info().vocab_size};
        try {
            model->forward(in, {}, sink);
            QFAIL("an id outside the vocabulary was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find(std::to_string(model->info().vocab_size)) !=
                         std::string::npos,
                     e.what());
        }
        in.ids.assign(static_cast<std::size_t>(model->info().max_positions + 1), 0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model->forward(in, {}, sink));
        in.ids = {1, 2, 3};
        models::ModelForwardOptions opt;
        opt.scope.layers = {99};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model->forward(in, opt, sink));
        QVERIFY(sink.results.empty());
    }

    void anAttentionOnlyLlamaHasNoMlp() {
        // intermediate_size 0: transformers' MLP has zero-width weights and adds nothing.  The
        // folder's MLP tensors are then not read: layer 1 (before any MLP) is the reference's,
        // layer 2 is not, since the reference's layer-1 MLP changed its input.
        const std::string d = copy_case("llama_gqa", "attention_only");
        std::string cfg = io::read_file(d + "/config.json");
        const auto at = cfg.find("\"intermediate_size\"");
        QVERIFY(at != std::string::npos);
        const auto end = cfg.find_first_of(",}", at);
        std::ofstream(d + "/config.json", std::ios::binary)
            << cfg.substr(0, at) + "\"intermediate_size\": 0" + cfg.substr(end);
        const auto model = models::load_model(d);
        QCOMPARE(model->info().intermediate_size, std::int64_t(0));
        const models::ModelInput in = input_of(models_dir() + "/llama_gqa");
        models::CollectingSink sink;
        model->forward(in, {}, sink);
        QCOMPARE(sink.results.size(), std::size_t(model->info().num_layers));
        const Tensor all = io::read_npy(models_dir() + "/llama_gqa/reference/attentions.npy");
        const std::int64_t L = all.dim(2);
        for (std::int64_t h = 0; h < all.dim(1); ++h)
            EXPECT_CLOSE(head_of(sink.results[0].weights, h), reference_map(all, 0, h, 0, L, 0, L),
                         1e-5, "layer 1 head " + std::to_string(h + 1));
        const auto second = test::compare_tensors(head_of(sink.results[1].weights, 0),
                                                  reference_map(all, 1, 0, 0, L, 0, L), 1e-3);
        QVERIFY2(!second.ok, "layer 2 ignored that the MLP is gone");
        // A negative width is still a lying config.
        std::ofstream(d + "/config.json", std::ios::binary)
            << cfg.substr(0, at) + "\"intermediate_size\": -1" + cfg.substr(end);
        expect_data_error(d, "intermediate_size");
    }

    void brokenFoldersGiveOneClearMessage() {
        expect_data_error(test::temp_dir() + "/does-not-exist", "config.json");
        {
            const std::string d = copy_case("bert_gamma_beta", "no_config");
            fs::remove(d + "/config.json");
            expect_data_error(d, "no config.json");
        }
        {
            const std::string d = copy_case("bert_gamma_beta", "unknown_type");
            replace_in_file(d + "/config.json", "\"model_type\": \"bert\"",
                            "\"model_type\": \"t5\"");
            expect_data_error(d, "model_type \"t5\" is not supported");
        }
        {
            const std::string d = copy_case("bert_gamma_beta", "huge_vocab");
            const std::string cfg = io::read_file(d + "/config.json");
            const auto at = cfg.find("\"vocab_size\"");
            QVERIFY(at != std::string::npos);
            const auto end = cfg.find_first_of(",}", at);
            std::string edited =
                cfg.substr(0, at) + "\"vocab_size\": 1099511627776" + cfg.substr(end);
            std::ofstream(d + "/config.json", std::ios::binary) << edited;
            expect_data_error(d, "vocab_size is 1099511627776");
        }
        {
            const std::string d = copy_case("bert_gamma_beta", "relative");
            replace_in_file(d + "/config.json", "\"position_embedding_type\": \"absolute\"",
                            "\"position_embedding_type\": \"relative_key\"");
            expect_data_error(d, "relative position embeddings are not supported");
        }
        {
            const std::string d = copy_case("llama_gqa", "disagree");
            const std::string cfg = io::read_file(d + "/config.json");
            const auto at = cfg.find("\"intermediate_size\"");
            const auto end = cfg.find_first_of(",}", at);
            std::ofstream(d + "/config.json", std::ios::binary)
                << cfg.substr(0, at) + "\"intermediate_size\": 48" + cfg.substr(end);
            // the first tensor the shapes are checked in: gate_proj (then up_proj, down_proj)
            expect_data_error(d,
                              "tensor 'model.layers.0.mlp.gate_proj.weight' in "
                              "model.safetensors is [64,32] but config.json (hidden size 32, "
                              "4 heads, 2 kv heads, head_dim 8, intermediate 48, vocab 342) "
                              "needs [48,32]");
        }
        {
            const std::string d = copy_case("bert_gamma_beta", "not_json");
            std::ofstream(d + "/config.json", std::ios::binary) << "{\"model_type\": \"bert\",";
            expect_data_error(d, "not valid JSON");
        }
        {
            const std::string d = copy_case("gpt2_bf16", "only_bin");
            for (const auto& e : fs::directory_iterator(d))
                if (e.path().extension() == ".safetensors" ||
                    e.path().filename() == "model.safetensors.index.json")
                    fs::remove(e.path());
            std::ofstream(d + "/pytorch_model.bin", std::ios::binary) << "PK";
            expect_data_error(d, "pytorch_model.bin");
        }
    }
};

QTEST_GUILESS_MAIN(TestModels)
#include "test_models.moc"
