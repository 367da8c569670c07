// The language-model heads, the logit lens, head ablation, activation patching and
// generation with a key/value cache, against the float64 reference of
// tests/golden/models/hf_reference.py (written from transformers' modeling code) on every tiny
// checkpoint with a head; and the classroom demonstration on the shipped attn-only-2l: knock
// out the induction head and the model can no longer continue a repeated string.
#include <QTest>

#include <cmath>
#include <filesystem>
#include <random>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"
#include "engine/io/npy.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "test_support.h"

using namespace attnviz;
using models::HeadIntervention;
using Index = std::int64_t;
namespace json = io::json;

namespace {

std::string case_dir(const std::string& name) {
    return test::golden_dir() + "/models/" + name;
}

/// The cases whose checkpoint has a language-model head (index.json's lm_head).
std::vector<std::pair<std::string, std::string>> head_cases() {
    const json::Document doc =
        json::parse(io::read_file(test::golden_dir() + "/models/index.json"));
    std::vector<std::pair<std::string, std::string>> out;
    for (json::Element c : json::Array(*json::find(doc.root(), "cases"))) {
        const auto head = json::as_string(*json::find(c, "lm_head"));
        if (head)
            out.emplace_back(std::string(*json::as_string(*json::find(c, "name"))),
                             std::string(*head));
    }
    return out;
}

models::ModelInput input_of(const std::string& dir) {
    models::ModelInput in;
    in.ids = test::read_int64_npy(dir + "/reference/input_ids.npy");
    if (std::filesystem::exists(dir + "/reference/token_type_ids.npy"))
        in.token_type_ids = test::read_int64_npy(dir + "/reference/token_type_ids.npy");
    return in;
}

std::vector<Index> ids_of(json::Element v) {
    std::vector<Index> out;
    for (json::Element e : json::Array(v))
        out.push_back(*json::as_int64(e));
    return out;
}

/// Logits within 1e-4 × max(1, |logit|), the tolerance for float32 against float64.
QString logits_mismatch(const Tensor& got, const Tensor& want) {
    if (got.numel() != want.numel())
        return QStringLiteral("%1 values, expected %2").arg(got.numel()).arg(want.numel());
    for (std::size_t i = 0; i < got.numel(); ++i) {
        const double g = got.data[i], w = want.data[i];
        if (!(std::abs(g - w) <= 1e-4 * std::max(1.0, std::abs(w))))
            return QStringLiteral("index %1: %2, expected %3").arg(i).arg(g).arg(w);
    }
    return {};
}

#define CHECK_LOGITS(got, want, what)                                                 \
    do {                                                                              \
        const QString m_ = logits_mismatch(got, want);                                \
        QVERIFY2(m_.isEmpty(), qPrintable(QString::fromStdString(what) + ": " + m_)); \
    } while (0)

/// The mean next-token loss over positions [from, L - 1) of `ids`.
double loss_over(const models::Prediction& p, std::size_t from) {
    double sum = 0.0;
    for (std::size_t t = from; t < p.next_logprob.size(); ++t)
        sum -= p.next_logprob[t];
    return sum / double(p.next_logprob.size() - from);
}

}  // namespace

class TestPredictions : public QObject {
    Q_OBJECT
  private slots:
    void cases_data() {
        QTest::addColumn<QString>("name");
        const auto cases = head_cases();
        QVERIFY(cases.size() >= 9);
        for (const auto& [name, head] : cases)
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }

    // Logits, the lens, both ablations and a patching sweep against the reference.
    void cases() {
        QFETCH(QString, name);
        const std::string dir = case_dir(name.toStdString());
        const auto model = models::load_model(dir);
        const models::ModelInput in = input_of(dir);
        const auto L = static_cast<Index>(in.ids.size());
        const Index N = model->info().num_layers, H = model->info().num_heads;
        const Index V = model->info().vocab_size;
        QVERIFY(model->lm_head() != models::LmHeadKind::None);

        models::PredictOptions po;
        po.lens = true;
        po.num_threads = 2;
        const models::Prediction p = models::predict(*model, in, po);
        QCOMPARE(p.logits.shape, (Shape{L, V}));
        CHECK_LOGITS(p.logits, io::read_npy(dir + "/reference/logits.npy"), "logits");
        const Tensor lens = io::read_npy(dir + "/reference/lens_logits.npy");
        QCOMPARE(p.lens.shape, (Shape{N, L, V}));
        for (Index l = 0; l < N; ++l) {
            Tensor want({L, V},
                        std::vector<float>(lens.ptr() + l * L * V, lens.ptr() + (l + 1) * L * V));
            Tensor got({L, V}, std::vector<float>(p.lens.ptr() + l * L * V,
                                                  p.lens.ptr() + (l + 1) * L * V));
            CHECK_LOGITS(got, want, "lens after layer " + std::to_string(l + 1));
            // Lens top-5 ids and log-probabilities at every position.
            for (Index t = 0; t < L; ++t) {
                const auto top = models::top_k(got.ptr() + t * V, V, 5);
                const auto ref = models::top_k(want.ptr() + t * V, V, 5);
                for (std::size_t k = 0; k < 5; ++k) {
                    QCOMPARE(top[k].id, ref[k].id);
                    QVERIFY(std::abs(top[k].logprob - ref[k].logprob) < 1e-4);
                }
            }
        }
        // The lens after the last layer is the model's own output, to the bit.
        QVERIFY(std::equal(p.logits.data.begin(), p.logits.data.end(),
                           p.lens.data.begin() + (N - 1) * L * V));

        // The window's blockwise summary equals the whole logits' top-10 and next-token
        // log-probabilities: every row (causal), or the asked rows (masked LM).  Within 1e-5:
        // here the whole logits come from the lens's product over every layer's rows.
        {
            models::StreamSink stream;
            models::ModelForwardOptions fo;
            fo.attention = false;
            model->forward(in, fo, stream);
            const bool causal = model->lm_head() == models::LmHeadKind::Causal;
            const std::vector<Index> asked =
                causal ? std::vector<Index>{} : std::vector<Index>{0, L - 1};
            const models::RowPredictions rp = models::predict_rows(
                *model, stream.residuals[std::size_t(N)], in.ids, asked, 10, 2);
            QCOMPARE(rp.rows.size(), causal ? std::size_t(L) : std::size_t(2));
            for (std::size_t i = 0; i < rp.rows.size(); ++i) {
                const auto want = models::top_k(p.logits.ptr() + rp.rows[i] * V, V, 10);
                QCOMPARE(rp.top[i].size(), want.size());
                for (std::size_t k = 0; k < want.size(); ++k) {
                    QCOMPARE(rp.top[i][k].id, want[k].id);
                    QVERIFY(std::abs(rp.top[i][k].logprob - want[k].logprob) < 1e-5);
                }
            }
            QCOMPARE(rp.next_logprob.size(), p.next_logprob.size());
            for (std::size_t t = 0; t < p.next_logprob.size(); ++t)
                QVERIFY(std::abs(rp.next_logprob[t] - p.next_logprob[t]) < 1e-5);
            QCOMPARE(std::isnan(rp.loss), !causal);
            if (causal) QVERIFY(std::abs(rp.loss - p.loss) < 1e-5);
        }

        const json::Document iv = json::parse(io::read_file(dir + "/reference/interventions.json"));
        std::vector<models::HeadRef> heads;
        for (json::Element h : json::Array(*json::find(iv.root(), "ablate"))) {
            const auto pair = ids_of(h);
            heads.push_back({pair[0], pair[1]});
        }
        for (const auto& [kind, file] :
             {std::pair{HeadIntervention::Kind::Zero, "ablate_zero_logits.npy"},
              std::pair{HeadIntervention::Kind::Mean, "ablate_mean_logits.npy"}}) {
            models::PredictOptions ab;
            ab.interventions = models::ablations(heads, kind);
            const models::Prediction a = models::predict(*model, in, ab);
            CHECK_LOGITS(a.logits, io::read_npy(dir + "/reference/" + file), std::string(file));
            QVERIFY(a.logits.data != p.logits.data);
        }

        const json::Element patch = *json::find(iv.root(), "patch");
        models::PatchRequest pr;
        pr.clean = in;
        pr.corrupt = in;
        pr.clean.ids = ids_of(*json::find(patch, "clean_ids"));
        pr.corrupt.ids = ids_of(*json::find(patch, "corrupt_ids"));
        pr.target = *json::as_int64(*json::find(patch, "target"));
        pr.distractor = *json::as_int64(*json::find(patch, "distractor"));
        pr.num_threads = 2;
        const models::PatchResult r = models::patch_sweep(*model, pr);
        // A head at a time gives what a layer's heads batched in one pass give.
        models::PatchRequest one = pr;
        one.batch = 1;
        const models::PatchResult single = models::patch_sweep(*model, one);
        for (std::size_t i = 0; i < r.m_patched.numel(); ++i)
            QVERIFY(std::abs(single.m_patched.data[i] - r.m_patched.data[i]) <
                    1e-5 * std::max(1.0f, std::abs(r.m_patched.data[i])));
        const double m_clean = *json::as_double(*json::find(patch, "m_clean"));
        const double m_corrupt = *json::as_double(*json::find(patch, "m_corrupt"));
        QVERIFY2(std::abs(r.m_clean - m_clean) < 1e-4 * std::max(1.0, std::abs(m_clean)),
                 qPrintable(QStringLiteral("m_clean %1, expected %2").arg(r.m_clean).arg(m_clean)));
        QVERIFY(std::abs(r.m_corrupt - m_corrupt) < 1e-4 * std::max(1.0, std::abs(m_corrupt)));
        const Tensor m_patched = io::read_npy(dir + "/reference/patch_m.npy");
        QCOMPARE(r.m_patched.shape, (Shape{N, H}));
        for (Index i = 0; i < N * H; ++i) {
            const double g = r.m_patched.data[std::size_t(i)], w = m_patched.data[std::size_t(i)];
            QVERIFY2(std::abs(g - w) < 1e-4 * std::max(1.0, std::abs(w)),
                     qPrintable(QStringLiteral("head %1: m %2, expected %3").arg(i).arg(g).arg(w)));
            const double f = (w - m_corrupt) / (m_clean - m_corrupt);
            QVERIFY(std::abs(r.fraction.data[std::size_t(i)] - f) <
                    1e-3 * std::max(1.0, std::abs(f)));
        }
    }

    // Greedy continuation with the key/value cache: each step's token is the reference's
    // argmax, the logits match, and the attention of the final sequence equals a plain pass.
    void greedyGeneration_data() { cases_data(); }
    void greedyGeneration() {
        QFETCH(QString, name);
        const std::string dir = case_dir(name.toStdString());
        const auto model = models::load_model(dir);
        const json::Document iv = json::parse(io::read_file(dir + "/reference/interventions.json"));
        const auto gen = json::find(iv.root(), "generate");
        if (!gen) {
            QVERIFY(model->lm_head() == models::LmHeadKind::Masked);
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model->generate(input_of(dir).ids, {}));
            return;
        }
        models::GenerateOptions o;
        o.max_new_tokens = *json::as_int64(*json::find(*gen, "max_new_tokens"));
        o.eos_ids = model->config().eos_token_ids;
        o.attention = true;
        o.keep_logits = true;
        o.num_threads = 2;
        const std::vector<Index> prompt = ids_of(*json::find(*gen, "prompt_ids"));
        const models::Generation g = model->generate(prompt, o);
        QCOMPARE(g.ids, ids_of(*json::find(*gen, "ids")));
        QCOMPARE(g.eos, std::string(*json::as_string(*json::find(*gen, "finish"))) == "eos");
        const Tensor ref_logits = io::read_npy(dir + "/reference/generate_logits.npy");
        CHECK_LOGITS(g.logits, ref_logits, "generation logits");
        // A new token's products read the weights as stored (kernels/row_products.h); as a
        // pass multiplies them, the same tokens and logits within float32 rounding.
        models::GenerateOptions as_pass = o;
        as_pass.stored_products = false;
        const models::Generation passed = model->generate(prompt, as_pass);
        QCOMPARE(passed.ids, g.ids);
        const auto same = test::compare_arrays(g.logits.ptr(), passed.logits.ptr(),
                                               passed.logits.numel(), 2e-5, 2e-5);
        QVERIFY2(same.ok, ("stored against a pass's products: " + same.message).c_str());
        const Tensor ref_maps = io::read_npy(dir + "/reference/generate_attentions.npy");
        const auto r =
            test::compare_arrays(g.attention.ptr(), ref_maps.ptr(), ref_maps.numel(), 1e-5, 0.0);
        QVERIFY2(r.ok, r.message.c_str());
        // The cache changes nothing: the maps equal the engine's own pass over the sequence.
        models::ModelInput all;
        all.ids = prompt;
        all.ids.insert(all.ids.end(), g.ids.begin(), g.ids.end());
        models::CollectingSink sink;
        model->forward(all, {}, sink);
        const auto T = static_cast<Index>(all.ids.size());
        const Index H = model->info().num_heads;
        for (std::size_t l = 0; l < sink.results.size(); ++l) {
            const auto c = test::compare_arrays(g.attention.ptr() + l * H * T * T,
                                                sink.results[l].weights.ptr(),
                                                std::size_t(H * T * T), 1e-6, 0.0);
            QVERIFY2(c.ok, ("layer " + std::to_string(l) + ": " + c.message).c_str());
        }
        // After eos in the prompt's place, the generation stops at the eos it picks.
        if (const auto after = json::find(iv.root(), "generate_after_eos")) {
            const models::Generation e =
                model->generate(ids_of(*json::find(*after, "prompt_ids")), o);
            QCOMPARE(e.ids, ids_of(*json::find(*after, "ids")));
            QCOMPARE(e.eos, std::string(*json::as_string(*json::find(*after, "finish"))) == "eos");
        }
        // Sampling: the same seed, the same text; another seed is allowed to differ.
        models::GenerateOptions s = o;
        s.temperature = 0.8;
        s.top_k = 40;
        s.top_p = 0.95;
        s.seed = 7;
        s.eos_ids.clear();
        QCOMPARE(model->generate(prompt, s).ids, model->generate(prompt, s).ids);

        // on_token sees every token as it is chosen; returning false stops there.
        std::vector<Index> seen;
        models::GenerateOptions cb = o;
        cb.eos_ids.clear();
        cb.on_token = [&](std::int64_t id) {
            seen.push_back(id);
            return seen.size() < 2;
        };
        const models::Generation two = model->generate(prompt, cb);
        QVERIFY(two.stopped);
        QCOMPARE(two.ids, seen);
        QCOMPARE(two.ids.size(), std::size_t(2));
        QCOMPARE(two.attention.shape[2], Index(prompt.size()) + 2);

        // on_step hands each new token's rows and the logits it came from, without
        // options.attention: the rows are the pass's over the whole text (torch's too), the
        // logits those keep_logits keeps; the last token gets its rows, a stopped one none.
        std::vector<models::GenerationStep> steps;
        models::GenerateOptions st = o;
        st.attention = false;
        st.on_step = [&](models::GenerationStep&& step) { steps.push_back(std::move(step)); };
        const models::Generation stepped = model->generate(prompt, st);
        QCOMPARE(stepped.ids, g.ids);
        QVERIFY(stepped.attention.empty());
        QCOMPARE(steps.size(), g.ids.size());
        const Index N = model->info().num_layers, V = model->info().vocab_size;
        for (std::size_t k = 0; k < steps.size(); ++k) {
            const models::GenerationStep& step = steps[k];
            const Index q = Index(prompt.size() + k);
            QCOMPARE(step.position, q);
            QCOMPARE(step.id, g.ids[k]);
            QCOMPARE(step.attention.shape, (Shape{N, H, q + 1}));
            const auto lg = test::compare_arrays(step.logits.ptr(), g.logits.ptr() + Index(k) * V,
                                                 std::size_t(V), 1e-6, 0.0);
            QVERIFY2(lg.ok, ("step " + std::to_string(k) + " logits: " + lg.message).c_str());
            for (Index lh = 0; lh < N * H; ++lh) {
                const auto row = test::compare_arrays(step.attention.ptr() + lh * (q + 1),
                                                      ref_maps.ptr() + (lh * T + q) * T,
                                                      std::size_t(q + 1), 1e-5, 0.0);
                QVERIFY2(row.ok, ("step " + std::to_string(k) + " layer*head " +
                                  std::to_string(lh) + ": " + row.message)
                                     .c_str());
            }
        }
        steps.clear();
        st.on_token = cb.on_token;
        seen.clear();
        QVERIFY(model->generate(prompt, st).stopped);
        QCOMPARE(steps.size(), std::size_t(1));  // the first token's; the stopped one has none

        // With heads knocked out, each token is the argmax of predict() with the same
        // interventions on the text so far (golden-checked above), and the maps are the
        // ablated pass's.
        const json::Document ivs =
            json::parse(io::read_file(dir + "/reference/interventions.json"));
        std::vector<models::HeadRef> heads;
        for (json::Element h : json::Array(*json::find(ivs.root(), "ablate")))
            heads.push_back({ids_of(h)[0], ids_of(h)[1]});
        for (const auto kind : {HeadIntervention::Kind::Zero, HeadIntervention::Kind::Mean}) {
            models::GenerateOptions ab = o;
            ab.eos_ids.clear();
            ab.max_new_tokens = std::min<Index>(o.max_new_tokens, 4);
            ab.interventions = models::ablations(heads, kind);
            bool stepped_ablated = false;
            ab.on_step = [&](models::GenerationStep&&) { stepped_ablated = true; };
            const models::Generation a = model->generate(prompt, ab);
            QCOMPARE(Index(a.ids.size()), ab.max_new_tokens);
            QVERIFY(!stepped_ablated);  // its rows change as the text grows
            models::ModelInput text;
            text.ids = prompt;
            models::PredictOptions po;
            po.interventions = ab.interventions;
            for (std::size_t t = 0; t < a.ids.size(); ++t) {
                const models::Prediction p = models::predict(*model, text, po);
                const Index last = Index(text.ids.size()) - 1;
                const auto best = models::top_k(p.logits.ptr() + last * V, V, 1);
                QCOMPARE(a.ids[t], best[0].id);
                text.ids.push_back(a.ids[t]);
            }
            models::ModelForwardOptions fo;
            fo.interventions = ab.interventions;
            models::CollectingSink ablated;
            model->forward(text, fo, ablated);
            const auto total = Index(text.ids.size());
            const Index heads_n = model->info().num_heads;
            QCOMPARE(a.attention.shape, (Shape{model->info().num_layers, heads_n, total, total}));
            for (std::size_t l = 0; l < ablated.results.size(); ++l) {
                const auto c =
                    test::compare_arrays(a.attention.ptr() + l * heads_n * total * total,
                                         ablated.results[l].weights.ptr(),
                                         std::size_t(heads_n * total * total), 1e-6, 0.0);
                QVERIFY2(c.ok, ("ablated layer " + std::to_string(l) + ": " + c.message).c_str());
            }
        }
        models::GenerateOptions patched = o;
        patched.interventions = {{{0, 0}, HeadIntervention::Kind::Patch, nullptr}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model->generate(prompt, patched));
    }

    // A generation's tokens appended to the prompt's encoding read as the tokenizer reads the
    // whole text, where it splits the text at the same place: the same labels (pieces of a
    // character "猫[1/3]" included) and offsets into the prompt and its continuation.
    void continuedEncodingsReadAsTheWholeText_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"gpt2_lmhead", "llama_gqa", "qwen2_bias_bf16", "llama3_rope_sharded"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void continuedEncodingsReadAsTheWholeText() {
        QFETCH(QString, name);
        const auto m = models::open_model_folder(case_dir(name.toStdString()));
        const std::string prompt = "Hello", more = " 猫 cat world";
        const models::EncodedText whole = models::encode_text(m, prompt + more);
        models::EncodedText e = models::encode_text(m, prompt);
        const std::size_t P = e.input.ids.size();
        QVERIFY(std::equal(e.input.ids.begin(), e.input.ids.end(), whole.input.ids.begin()));
        const std::vector<Index> ids(whole.input.ids.begin() + std::ptrdiff_t(P),
                                     whole.input.ids.end());
        QCOMPARE(models::continue_encoding(m, e, prompt, ids), prompt + more);
        QCOMPARE(e.input.ids, whole.input.ids);
        QCOMPARE(e.encoding.ids, whole.encoding.ids);
        QCOMPARE(e.encoding.tokens, whole.encoding.tokens);
        QCOMPARE(e.encoding.text, whole.encoding.text);
        QCOMPARE(e.encoding.offsets, whole.encoding.offsets);
        // An id the model lacks, and more tokens than its positions.
        models::EncodedText bad = models::encode_text(m, prompt);
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            models::continue_encoding(m, bad, prompt, {m.model->info().vocab_size}));
        QVERIFY_THROWS_EXCEPTION(
            models::TextTooLong,
            models::continue_encoding(
                m, bad, prompt,
                std::vector<Index>(std::size_t(m.model->info().max_positions), ids[0])));
    }

    void aCheckpointWithoutItsHead() {
        for (const char* name : {"bert_gamma_beta", "bert_f16_sharded"}) {
            const auto model = models::load_model(case_dir(name));
            QVERIFY(model->lm_head() == models::LmHeadKind::None);
            ATTNVIZ_EXPECT_DATA_ERROR(models::predict(*model, input_of(case_dir(name)), {}),
                                      "no masked-LM head", "cls.predictions");
            // Attention still works.
            models::CollectingSink sink;
            model->forward(input_of(case_dir(name)), {}, sink);
            QCOMPARE(Index(sink.results.size()), model->info().num_layers);
        }
    }

    void badInterventions() {
        const auto model = models::load_model(case_dir("gpt2_lmhead"));
        const models::ModelInput in = input_of(case_dir("gpt2_lmhead"));
        models::PredictOptions o;
        o.interventions = models::ablations({{0, 4}}, HeadIntervention::Kind::Zero);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::predict(*model, in, o));
        o.interventions = models::ablations({{2, 0}}, HeadIntervention::Kind::Mean);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::predict(*model, in, o));
        models::PatchRequest pr;
        pr.clean = in;
        pr.corrupt = in;
        pr.corrupt.ids.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::patch_sweep(*model, pr));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::top_k(nullptr, 0, 0));
        models::GenerateOptions g;
        g.max_new_tokens = 64;  // past the 64 positions with the prompt
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model->generate(in.ids, g));
    }

    // The classroom demonstration: <|bos|> + R + R with R 50 random characters.  The shipped
    // attention-only model continues the second copy; zero-ablating its best induction head
    // (layer 2, head 8) raises the loss there by at least a nat per token, a random other
    // layer-2 head much less.
    void knockingOutTheInductionHead() {
        const auto m =
            models::open_model_folder(test::golden_dir() + "/../../resources/models/attn-only-2l");
        const std::int64_t bos = *m.tokenizer.bos_id();
        const std::string alphabet =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        std::mt19937_64 rng(3);
        std::string r;
        for (int i = 0; i < 50; ++i)
            r += alphabet[rng() % alphabet.size()];
        const text::Encoding e = m.tokenizer.encode(r + r, std::nullopt, false);
        models::ModelInput in;
        in.ids.push_back(bos);
        in.ids.insert(in.ids.end(), e.ids.begin(), e.ids.end());
        QCOMPARE(in.ids.size(), std::size_t(101));
        const std::size_t second = 51;  // predictions of tokens 52..100: the second copy
        const double base = loss_over(models::predict(*m.model, in, {}), second);
        models::PredictOptions o;
        o.interventions = models::ablations({{1, 7}}, HeadIntervention::Kind::Zero);
        const double induction = loss_over(models::predict(*m.model, in, o), second);
        QVERIFY2(induction - base >= 1.0,
                 qPrintable(QStringLiteral("loss %1 -> %2").arg(base).arg(induction)));
        double worst_other = 0.0;
        for (Index h : {0, 2, 5}) {
            o.interventions = models::ablations({{1, h}}, HeadIntervention::Kind::Zero);
            const double other = loss_over(models::predict(*m.model, in, o), second);
            worst_other = std::max(worst_other, other - base);
        }
        qInfo(
            "second-copy loss %.3f nats/token; induction head out: %.3f; worst other layer-2 head: "
            "+%.3f",
            base, induction, worst_other);
        QVERIFY2(worst_other < 0.5 * (induction - base),
                 qPrintable(QStringLiteral("induction +%1, another head +%2")
                                .arg(induction - base)
                                .arg(worst_other)));
    }
};

QTEST_APPLESS_MAIN(TestPredictions)
#include "test_predictions.moc"
