// The attention layer against golden cases written by tests/golden/make_golden.py with
// torch.nn.MultiheadAttention, plus dropout statistics, intermediates and error messages.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "engine/buffers.h"
#include "engine/io/npy.h"
#include "engine/io/safetensors.h"
#include "engine/layers/attention_core.h"
#include "engine/layers/attention_layer_file.h"
#include "engine/layers/multi_head_attention.h"
#include "engine/ops/random.h"
#include "test_support.h"

using namespace attnviz;

namespace {

constexpr double kAtol = 2e-6;  // float32 against PyTorch's float32
constexpr double kRtol = 1e-5;

QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot open %s", qPrintable(path));
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::string golden_path(const QString& c, const char* file) {
    return (QString::fromStdString(test::golden_dir()) + "/" + c + "/" + file).toStdString();
}

bool exists(const std::string& p) {
    return QFile::exists(QString::fromStdString(p));
}

MultiHeadAttentionOptions options_from_config(const QJsonObject& c) {
    MultiHeadAttentionOptions o;
    o.embed_dim = c["embed_dim"].toInt();
    o.num_heads = c["num_heads"].toInt();
    o.kdim = c["kdim"].toInt();
    o.vdim = c["vdim"].toInt();
    o.bias = c["bias"].toBool();
    o.add_bias_kv = c["add_bias_kv"].toBool();
    o.add_zero_attn = c["add_zero_attn"].toBool();
    o.scoring = scoring_from_name(c["scoring"].toString().toStdString());
    return o;
}

struct GoldenRun {
    MultiHeadAttention mha;
    Tensor query, key, value;
    std::optional<Mask> kpm, attn_mask;
    bool causal;
    AttentionForwardOptions fwd() const {
        AttentionForwardOptions f;
        f.key_padding_mask = kpm ? &*kpm : nullptr;
        f.attn_mask = attn_mask ? &*attn_mask : nullptr;
        f.causal = causal;
        return f;
    }
};

GoldenRun load_golden(const QString& name) {
    const QJsonObject config =
        read_json(QString::fromStdString(test::golden_dir()) + "/" + name + "/config.json");
    GoldenRun run{MultiHeadAttention(options_from_config(config)),
                  {},
                  {},
                  {},
                  {},
                  {},
                  config["causal"].toBool()};
    run.mha.load_state_dict(io::read_safetensors(golden_path(name, "weights.safetensors")));
    run.query = io::read_npy(golden_path(name, "query.npy"));
    run.key = exists(golden_path(name, "key.npy")) ? io::read_npy(golden_path(name, "key.npy"))
                                                   : run.query;
    run.value = exists(golden_path(name, "value.npy"))
                    ? io::read_npy(golden_path(name, "value.npy"))
                    : run.query;
    if (exists(golden_path(name, "key_padding_mask.npy")))
        run.kpm = io::read_npy_mask(golden_path(name, "key_padding_mask.npy"));
    if (exists(golden_path(name, "attn_mask.npy")))
        run.attn_mask = io::read_npy_mask(golden_path(name, "attn_mask.npy"));
    return run;
}

/// Fewer golden cases than make_golden.py writes (27 today) means the folder or its index is
/// missing: a loop over them must not pass by running no case at all.
constexpr int kMinGoldenCases = 25;

QStringList golden_cases() {
    const QJsonObject index = read_json(QString::fromStdString(test::golden_dir()) + "/index.json");
    QStringList names;
    for (const auto& v : index["cases"].toArray())
        names << v.toString();
    return names;
}

template <class Fn>
void expect_invalid(Fn&& fn, const char* needle) {
    try {
        fn();
    } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find(needle) != std::string::npos,
                 qPrintable(QStringLiteral("message '%1' lacks '%2'").arg(e.what(), needle)));
        return;
    }
    QFAIL(qPrintable(QStringLiteral("no std::invalid_argument (expected '%1')").arg(needle)));
}

Tensor random_tensor(Shape s, std::uint64_t seed) {
    Tensor t(std::move(s));
    ops::Random rng(seed);
    for (float& v : t.data)
        v = rng.normal();
    return t;
}

// --- a reference in any precision ----------------------------------------------------------

/// torch.nn.MultiheadAttention's reference path (F.multi_head_attention_forward) written out
/// plainly in the scalar type T: each product a sequential dot product, q scaled by
/// 1/sqrt(d) before q·kᵀ, the masks added, a max-subtracted softmax, then weights·V and the
/// output projection.  With T = double it is the truth the float32 results are measured
/// against; with T = float it is a float32 computation done the way PyTorch does it.
/// Fully masked rows are NaN (PyTorch's behaviour).  `weights`, when given, gets the
/// per-head weights [N, H, L, S'].
template <class T>
std::vector<T> reference_forward(const MultiHeadAttention& mha, const Tensor& query,
                                 const Tensor& key, const Tensor& value,
                                 const AttentionForwardOptions& fwd,
                                 std::vector<T>* weights = nullptr) {
    const MultiHeadAttentionOptions& o = mha.options();
    const auto state = mha.state_dict();
    const std::int64_t E = o.embed_dim, H = o.num_heads, d = o.head_dim();
    const std::int64_t kd = o.key_dim(), vd = o.value_dim();
    const std::int64_t N = query.dim(0), L = query.dim(1), S = key.dim(1);
    const std::int64_t Sp = S + (o.add_bias_kv ? 1 : 0) + (o.add_zero_attn ? 1 : 0);
    auto param = [&](const char* name) -> const Tensor* {
        auto it = state.find(name);
        return it == state.end() ? nullptr : &it->second;
    };
    // The projection weights [E, in] and biases of q, k, v.
    std::vector<const float*> w(3);
    if (const Tensor* packed = param("in_proj_weight")) {
        for (std::int64_t i = 0; i < 3; ++i)
            w[std::size_t(i)] = packed->ptr() + i * E * E;
    } else {
        w = {param("q_proj_weight")->ptr(), param("k_proj_weight")->ptr(),
             param("v_proj_weight")->ptr()};
    }
    const Tensor* b_in = param("in_proj_bias");
    // y[rows, out] = x · wᵀ + b, each element one sequential sum (F.linear).
    auto linear = [](const auto* x, std::int64_t rows, std::int64_t in, const float* weight,
                     const float* bias, std::int64_t out) {
        std::vector<T> y(std::size_t(rows * out));
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < out; ++c) {
                T acc = 0;
                for (std::int64_t i = 0; i < in; ++i)
                    acc += T(x[r * in + i]) * T(weight[c * in + i]);
                y[std::size_t(r * out + c)] = bias ? T(acc + T(bias[c])) : acc;
            }
        return y;
    };
    const std::vector<T> q = linear(query.ptr(), N * L, E, w[0], b_in ? b_in->ptr() : nullptr, E);
    const std::vector<T> k0 =
        linear(key.ptr(), N * S, kd, w[1], b_in ? b_in->ptr() + E : nullptr, E);
    const std::vector<T> v0 =
        linear(value.ptr(), N * S, vd, w[2], b_in ? b_in->ptr() + 2 * E : nullptr, E);
    // K and V as [N, S', E]: the keys, then bias_k / bias_v, then a zero row.
    std::vector<T> k(std::size_t(N * Sp * E), T(0)), v(k.size(), T(0));
    for (std::int64_t n = 0; n < N; ++n) {
        std::copy_n(k0.begin() + n * S * E, S * E, k.begin() + n * Sp * E);
        std::copy_n(v0.begin() + n * S * E, S * E, v.begin() + n * Sp * E);
        if (o.add_bias_kv)
            for (std::int64_t c = 0; c < E; ++c) {
                k[std::size_t((n * Sp + S) * E + c)] = T(param("bias_k")->data[std::size_t(c)]);
                v[std::size_t((n * Sp + S) * E + c)] = T(param("bias_v")->data[std::size_t(c)]);
            }
    }
    const bool dot = o.scoring == Scoring::ScaledDotProduct;
    const T scale = dot ? T(1) / std::sqrt(T(d)) : T(1);
    std::vector<T> concat(std::size_t(N * L * E));
    std::vector<T> s(static_cast<std::size_t>(Sp));
    if (weights) weights->assign(std::size_t(N * H * L * Sp), T(0));
    for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t h = 0; h < H; ++h)
            for (std::int64_t i = 0; i < L; ++i) {
                const T* qi = q.data() + (n * L + i) * E + h * d;
                for (std::int64_t j = 0; j < Sp; ++j) {
                    const T* kj = k.data() + (n * Sp + j) * E + h * d;
                    T acc = 0;
                    for (std::int64_t c = 0; c < d; ++c)
                        acc += dot ? T(qi[c] * scale) * kj[c]
                                   : T(param("additive_v")->data[std::size_t(h * d + c)]) *
                                         std::tanh(qi[c] + kj[c]);
                    if (j < S) {  // the masks cover the S keys only
                        if (fwd.attn_mask) {
                            const Mask& m = *fwd.attn_mask;
                            const std::int64_t at =
                                m.shape.size() == 2 ? i * S + j : ((n * H + h) * L + i) * S + j;
                            acc += T(m.additive_at(std::size_t(at)));
                        }
                        if (fwd.key_padding_mask)
                            acc += T(fwd.key_padding_mask->additive_at(std::size_t(n * S + j)));
                        if (fwd.causal && j > i) acc = -std::numeric_limits<T>::infinity();
                    }
                    s[std::size_t(j)] = acc;
                }
                const T top = *std::max_element(s.begin(), s.end());
                T sum = 0;
                for (T& x : s)
                    sum += (x = std::exp(x - top));  // NaN everywhere when top is -inf
                if (weights)
                    for (std::int64_t j = 0; j < Sp; ++j)
                        (*weights)[std::size_t(((n * H + h) * L + i) * Sp + j)] =
                            s[std::size_t(j)] / sum;
                T* out = concat.data() + (n * L + i) * E + h * d;
                for (std::int64_t c = 0; c < d; ++c) {
                    T acc = 0;
                    for (std::int64_t j = 0; j < Sp; ++j)
                        acc += T(s[std::size_t(j)] / sum) *
                               v[std::size_t((n * Sp + j) * E + h * d + c)];
                    out[c] = acc;
                }
            }
    const Tensor* b_o = param("out_proj.bias");
    return linear(concat.data(), N * L, E, param("out_proj.weight")->ptr(),
                  b_o ? b_o->ptr() : nullptr, E);
}

/// The largest |a - truth| over the elements where the truth is finite.
template <class A>
double max_error(const A& a, const std::vector<double>& truth) {
    double worst = 0.0;
    for (std::size_t i = 0; i < truth.size(); ++i)
        if (std::isfinite(truth[i])) worst = std::max(worst, std::abs(double(a[i]) - truth[i]));
    return worst;
}

/// What attend()'s row observer saw of one head's rows: each row's valid weights, how many
/// (-1 unless the block said causal_tail) and its entropy (NaN when not given).
struct ObservedRows {
    std::vector<std::vector<float>> weights;
    std::vector<std::int64_t> valid;
    std::vector<double> entropy;
};

/// One causal self-attention pass of random q, k, v ([L, H * d] each) through attend(), with
/// every block handed to an observer; `keep`: the weights kept too.
ObservedRows observe_causal_rows(std::int64_t L, std::int64_t H, std::int64_t d, bool keep,
                                 AttentionResult& result) {
    ops::Random rng{std::uint64_t(L)};
    std::vector<float> q(std::size_t(L * H * d)), k(q.size()), v(q.size()), concat(q.size());
    for (std::vector<float>* x : {&q, &k, &v})
        for (float& f : *x)
            f = rng.uniform(-2.0f, 2.0f);
    layers::ProjectedHeads in;
    in.q = q.data();
    in.k = k.data();
    in.v = v.data();
    in.ldq = in.ldk = in.ldv = H * d;
    in.batch = 1;
    in.num_heads = in.num_kv_heads = H;
    in.head_dim = d;
    in.target_len = in.source_len = L;
    const ops::MaskSpec masks{nullptr, nullptr, true, 1, H, L, L, 0};
    ObservedRows seen{std::vector<std::vector<float>>(std::size_t(H * L)),
                      std::vector<std::int64_t>(std::size_t(H * L), -2),
                      std::vector<double>(std::size_t(H * L))};
    // Blocks come from two threads, each (head, row) from one of them.
    const layers::RowObserver observer = [&](std::size_t, const RowBlock& b) {
        for (std::int64_t r = 0; r < b.rows; ++r) {
            const auto at = std::size_t(b.head * L + b.first_row + r);
            seen.weights[at].assign(b.row(r), b.row(r) + b.valid(r));
            seen.valid[at] = b.causal_tail ? b.valid(r) : -1;
            seen.entropy[at] = b.entropy ? b.entropy[r] : std::nan("");
        }
    };
    layers::AttendOptions opt;
    opt.num_threads = 2;
    opt.need_weights = keep;
    opt.observer = &observer;
    layers::attend(in, masks, layers::result_window({}, H, L, L), opt, result, concat.data(),
                   H * d);
    return seen;
}

}  // namespace

class TestAttention : public QObject {
    Q_OBJECT

  private slots:
    /// The row observer of a causal pass (RowBlock's contract): each row holds the keys up to
    /// its query, the kept weights' bit for bit (whose keys after it are exactly 0), with its
    /// entropy from the softmax within 1e-6 (1 + H) of -sum p ln p; and a pass that keeps no
    /// weights (the statistics pass) hands over the same rows and entropies, bit for bit.  In
    /// place at 50 tokens; at 2,100 in blocks of 48 rows over two threads, weights streamed.
    void rowObserverSeesCausalRowsAndTheirEntropy() {
        for (const std::int64_t L : {50, 2100}) {
            const std::int64_t H = 2, d = 8;
            AttentionResult kept, discarded;
            const ObservedRows with = observe_causal_rows(L, H, d, true, kept);
            const ObservedRows without = observe_causal_rows(L, H, d, false, discarded);
            QCOMPARE(kept.weights.shape, (Shape{1, H, L, L}));
            QVERIFY(discarded.weights.empty());
            for (std::int64_t h = 0; h < H; ++h)
                for (std::int64_t i = 0; i < L; ++i) {
                    const auto at = std::size_t(h * L + i);
                    const float* p = kept.weights.ptr() + at * std::size_t(L);
                    const QString where =
                        QStringLiteral("L %1 head %2 row %3").arg(L).arg(h).arg(i);
                    QVERIFY2(with.valid[at] == i + 1 && without.valid[at] == i + 1,
                             qPrintable(where));
                    QVERIFY2(std::memcmp(with.weights[at].data(), p, std::size_t(i + 1) * 4) == 0,
                             qPrintable(where + QStringLiteral(": not the kept weights")));
                    QVERIFY2(with.weights[at] == without.weights[at],
                             qPrintable(where + QStringLiteral(": differs without weights")));
                    // The first key past the row that is not zero, if any (QVERIFY2 builds
                    // its message even when the check passes: not once per key).
                    const std::int64_t stray =
                        std::find_if(p + i + 1, p + L, [](float v) { return v != 0.0f; }) - p;
                    QVERIFY2(stray == L,
                             qPrintable(where + QStringLiteral(" key %1 is not zero").arg(stray)));
                    double ref = 0.0;
                    for (std::int64_t j = 0; j <= i; ++j)
                        if (p[j] > 0.0f) ref -= double(p[j]) * std::log(double(p[j]));
                    QVERIFY2(std::abs(with.entropy[at] - ref) <= 1e-6 * (1.0 + ref),
                             qPrintable(where + QStringLiteral(": entropy %1, expected %2")
                                                    .arg(with.entropy[at], 0, 'g', 10)
                                                    .arg(ref, 0, 'g', 10)));
                    QCOMPARE(without.entropy[at], with.entropy[at]);
                }
        }
    }

    void golden_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("policy");
        QTest::addColumn<int>("threads");
        const QStringList cases = golden_cases();
        QVERIFY(cases.size() >= kMinGoldenCases);
        for (const QString& c : cases)
            for (const char* p : {"nan", "zero", "uniform"})
                for (int threads : {1, 2})
                    QTest::newRow(qPrintable(QStringLiteral("%1/%2/t%3").arg(c, p).arg(threads)))
                        << c << QString::fromLatin1(p) << threads;
    }

    void golden() {
        QFETCH(QString, name);
        QFETCH(QString, policy);
        QFETCH(int, threads);
        GoldenRun run = load_golden(name);
        AttentionForwardOptions fwd = run.fwd();
        fwd.masked_rows = masked_row_policy_from_name(policy.toStdString());
        fwd.num_threads = threads;
        fwd.need_intermediates = threads == 2;
        const AttentionResult r = run.mha.forward(run.query, run.key, run.value, fwd);
        const std::string p = policy.toStdString();
        const Tensor w =
            io::read_npy(golden_path(name, ("expected_" + p + "_weights.npy").c_str()));
        const Tensor mean =
            io::read_npy(golden_path(name, ("expected_" + p + "_mean.npy").c_str()));
        const Tensor out =
            io::read_npy(golden_path(name, ("expected_" + p + "_output.npy").c_str()));
        for (auto [actual, expected, what] : {std::tuple{&r.weights, &w, "weights"},
                                              {&r.mean_weights, &mean, "mean"},
                                              {&r.output, &out, "output"}}) {
            const auto cmp = test::compare_tensors(*actual, *expected, kAtol, kRtol);
            QVERIFY2(cmp.ok, qPrintable(QStringLiteral("%1: %2").arg(what, cmp.message.c_str())));
        }
        QCOMPARE(r.source_length, w.dim(3));
        // Fully masked rows are reported exactly where PyTorch produced NaN rows.
        const Tensor nan_w = io::read_npy(golden_path(name, "expected_nan_weights.npy"));
        const auto S = static_cast<std::size_t>(nan_w.dim(3));
        for (std::size_t row = 0; row < r.fully_masked_rows.size(); ++row)
            QCOMPARE(r.fully_masked_rows[row] != 0, std::isnan(nan_w.data[row * S]));
        if (r.steps) {  // intermediates agree with the returned weights
            const auto H = static_cast<std::size_t>(w.dim(1));
            const auto block = static_cast<std::size_t>(w.dim(2) * w.dim(3));
            QCOMPARE(r.steps->heads.size(), static_cast<std::size_t>(w.dim(0)) * H);
            for (std::size_t t = 0; t < r.steps->heads.size(); ++t) {
                ATTNVIZ_COMPARE_ARRAYS(r.steps->heads[t].dropped.ptr(), r.weights.ptr() + t * block,
                                       block, 0.0);
                ATTNVIZ_COMPARE_ARRAYS(r.steps->heads[t].softmax.ptr(), r.weights.ptr() + t * block,
                                       block, 0.0);
            }
        }
    }

    /// The same threaded forward pass, again and again, gives the same bits.  Every pool
    /// thread calls the GEMM backend at once: Debian's serial OpenBLAS has no locks, and two
    /// threads given one packing buffer drew wrong weights about once in thirty passes of
    /// this layer (22 heads of 7 dimensions), which the GUI's monkey test caught.
    void threaded_forward_is_deterministic() {
        MultiHeadAttentionOptions o;
        o.embed_dim = 154;
        o.num_heads = 22;
        MultiHeadAttention mha(o);
        mha.reset_parameters(3);
        Tensor x({1, 45, 154});
        ops::Random rng(11);
        for (float& v : x.data)
            v = rng.uniform(-1.0f, 1.0f);
        AttentionForwardOptions fwd;
        fwd.num_threads = 2;
        fwd.need_intermediates = true;
        const AttentionResult first = mha.forward(x, x, x, fwd);
        for (int pass = 1; pass < 300; ++pass) {
            const AttentionResult again = mha.forward(x, x, x, fwd);
            QVERIFY2(again.mean_weights.data == first.mean_weights.data &&
                         again.weights.data == first.weights.data &&
                         again.output.data == first.output.data,
                     qPrintable(QStringLiteral("pass %1 differs from the first").arg(pass)));
        }
    }
    /// A causal pass computes only the keys each block of rows sees; with the steps view it
    /// computes every raw score.  Both give the same weights and output (a row's result does
    /// not depend on its block), and every key after a query gets exactly 0.
    void causal_passes_skip_only_masked_keys() {
        MultiHeadAttention mha(MultiHeadAttentionOptions{.embed_dim = 64, .num_heads = 4});
        mha.reset_parameters(11);
        const std::int64_t L = 700;  // several row blocks of 96 Ki floats
        const Tensor x = random_tensor({1, L, 64}, 12);
        AttentionForwardOptions skipped, full;
        skipped.causal = full.causal = true;
        full.need_intermediates = true;
        const AttentionResult a = mha.forward(x, x, x, skipped);
        const AttentionResult b = mha.forward(x, x, x, full);
        for (auto [got, want, what] :
             {std::tuple{&a.weights, &b.weights, "weights"}, {&a.output, &b.output, "output"}}) {
            const auto cmp = test::compare_tensors(*got, *want, 1e-7, 1e-6);
            QVERIFY2(cmp.ok, qPrintable(QStringLiteral("%1: %2").arg(what, cmp.message.c_str())));
        }
        for (std::int64_t h = 0; h < 4; ++h)
            for (std::int64_t i = 0; i < L; ++i)
                for (std::int64_t j = i + 1; j < L; ++j)
                    QCOMPARE(a.weights.data[std::size_t((h * L + i) * L + j)], 0.0f);
    }

    /// Results given back are reused by the next pass of the same size, and what a reused
    /// buffer held before never shows: a causal pass, given back, then a pass without the
    /// mask into the same memory equals that pass into fresh memory, bit for bit.
    void recycled_results_are_reused_and_fully_rewritten() {
        drop_kept_buffers();
        MultiHeadAttentionOptions o;
        o.embed_dim = 64;
        o.num_heads = 4;
        MultiHeadAttention mha(o);
        mha.reset_parameters(5);
        const Tensor x = random_tensor({1, 600, 64}, 8);
        AttentionForwardOptions causal, plain;
        causal.causal = true;
        AttentionResult first = mha.forward(x, x, x, causal);
        const float* weights_memory = first.weights.ptr();
        recycle(first);
        QVERIFY(first.weights.empty());
        QVERIFY(kept_buffer_bytes() >= 600 * 600 * 5 * sizeof(float));  // weights and mean
        const AttentionResult reused = mha.forward(x, x, x, plain);
        QCOMPARE(reused.weights.ptr(), weights_memory);
        drop_kept_buffers();
        QCOMPARE(kept_buffer_bytes(), std::size_t{0});
        const AttentionResult fresh = mha.forward(x, x, x, plain);
        QVERIFY(fresh.weights.data == reused.weights.data);
        QVERIFY(fresh.mean_weights.data == reused.mean_weights.data);
        QVERIFY(fresh.output.data == reused.output.data);
        QVERIFY(reused.weights.data[1] > 0.0f);  // above the diagonal: masked in the causal pass

        // Small buffers are not kept; a buffer is not handed to a much smaller request, which
        // frees what is kept (the sizes have changed).  (The pass's own q, k, v are kept.)
        QVERIFY(kept_buffer_bytes() >= 600 * 64 * 3 * sizeof(float));
        drop_kept_buffers();
        std::vector<float> small = take_buffer(1000);
        release_buffer(small);
        QVERIFY(small.empty());
        QCOMPARE(kept_buffer_bytes(), std::size_t{0});
        std::vector<float> big = take_buffer(std::size_t{1} << 20);
        const float* big_memory = big.data();
        release_buffer(big);
        QCOMPARE(kept_buffer_bytes(), (std::size_t{1} << 20) * sizeof(float));
        QCOMPARE(take_buffer(std::size_t{1} << 20).data(), big_memory);
        big = take_buffer(std::size_t{1} << 20);
        release_buffer(big);
        // (By capacity: malloc may well hand out the freed memory again.)
        QVERIFY(take_buffer(std::size_t{1} << 19).capacity() < (std::size_t{1} << 20));
        QCOMPARE(kept_buffer_bytes(), std::size_t{0});
    }

    /// The float32 result's error against a float64 truth stays within 4x of PyTorch's own
    /// float32 error (its golden output against the same truth) on every torch golden.
    void float32_error_within_4x_of_torch_on_goldens_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("threads");
        const QStringList cases = golden_cases();
        QVERIFY(cases.size() >= kMinGoldenCases);
        for (const QString& c : cases)
            for (int threads : {1, 2})
                QTest::newRow(qPrintable(QStringLiteral("%1/t%2").arg(c).arg(threads)))
                    << c << threads;
    }
    void float32_error_within_4x_of_torch_on_goldens() {
        QFETCH(QString, name);
        QFETCH(int, threads);
        const GoldenRun run = load_golden(name);
        AttentionForwardOptions fwd = run.fwd();
        fwd.masked_rows = MaskedRowPolicy::NaN;  // PyTorch's, as the golden "nan" output
        fwd.num_threads = threads;
        std::vector<double> truth_weights;
        const std::vector<double> truth =
            reference_forward<double>(run.mha, run.query, run.key, run.value, fwd, &truth_weights);
        const AttentionResult r = run.mha.forward(run.query, run.key, run.value, fwd);
        for (auto [what, ours, truth_of] :
             {std::tuple{"output", &r.output, &truth}, {"weights", &r.weights, &truth_weights}}) {
            const Tensor torch_result = io::read_npy(
                golden_path(name, (std::string("expected_nan_") + what + ".npy").c_str()));
            QCOMPARE(torch_result.numel(), truth_of->size());
            QCOMPARE(ours->numel(), truth_of->size());
            const double torch_error = max_error(torch_result.data, *truth_of);
            const double error = max_error(ours->data, *truth_of);
            QVERIFY2(torch_error > 0.0 && torch_error < 1e-4,
                     qPrintable(QStringLiteral("PyTorch's %1 are off by %2")
                                    .arg(QLatin1String(what))
                                    .arg(torch_error)));
            QVERIFY2(error <= 4.0 * torch_error,
                     qPrintable(QStringLiteral("%1: error %2 against float64, PyTorch's %3 (%4x)")
                                    .arg(QLatin1String(what))
                                    .arg(error, 0, 'g', 3)
                                    .arg(torch_error, 0, 'g', 3)
                                    .arg(error / torch_error, 0, 'f', 2)));
        }
    }

    /// Randomly drawn layers (seeded): L, S, the head count and size, kdim, vdim, bias,
    /// add_bias_kv, add_zero_attn, scoring, a key padding mask, causal, threads.  PyTorch is
    /// not there at test time, so the bar is a float32 computation done the way PyTorch's
    /// reference path does it (reference_forward<float>: its float32 error on the goldens is
    /// that of PyTorch within a factor of two either way), measured against the same float64
    /// truth: the layer's output and weights stay within 4x of its error, as they stay within
    /// 4x of PyTorch's own on the goldens.  Inputs are N(0, 1) with PyTorch's initialisation,
    /// as in the goldens; far larger logits make the problem ill-conditioned, and then the
    /// order of a sum alone moves a float32 result's error five-fold.
    void float32_error_within_4x_on_random_shapes() {
        ops::Random draw(2026);
        auto pick = [&](int lo, int hi) {  // uniform in [lo, hi]
            return lo + std::min(hi - lo, int(draw.uniform(0.0f, 1.0f) * float(hi - lo + 1)));
        };
        double worst_ratio = 0.0;
        for (int i = 0; i < 200; ++i) {
            MultiHeadAttentionOptions o;
            o.num_heads = pick(1, 8);
            o.embed_dim = o.num_heads * pick(1, 16);
            o.kdim = pick(0, 1) ? pick(1, 48) : 0;
            o.vdim = pick(0, 1) ? pick(1, 48) : 0;
            o.bias = pick(0, 3) != 0;
            o.add_bias_kv = pick(0, 2) == 0;
            o.add_zero_attn = pick(0, 1) != 0;
            if (pick(0, 5) == 0) o.scoring = Scoring::Additive;
            const std::int64_t N = pick(1, 3), L = pick(1, 40), S = pick(1, 40);
            MultiHeadAttention mha(o);
            // PyTorch's initialisation, with biases that are not zero, so they count.
            mha.reset_parameters(std::uint64_t(i));
            auto state = mha.state_dict();
            for (const char* b : {"in_proj_bias", "out_proj.bias"})
                if (state.count(b)) state[b] = random_tensor(state[b].shape, 100 + i);
            mha.load_state_dict(state);
            const bool self = o.packed_in_proj() && pick(0, 1);
            const Tensor query = random_tensor({N, L, o.embed_dim}, 300 + i);
            const Tensor key = self ? query : random_tensor({N, S, o.key_dim()}, 500 + i);
            const Tensor value = self ? query : random_tensor({N, S, o.value_dim()}, 700 + i);
            const std::int64_t keys = key.dim(1);
            std::optional<Mask> padding;
            if (pick(0, 2) == 0) {  // item n: its last n keys padded
                std::vector<float> pad(std::size_t(N * keys), 0.0f);
                for (std::int64_t n = 0; n < N; ++n)
                    for (std::int64_t j = std::max<std::int64_t>(0, keys - n); j < keys; ++j)
                        pad[std::size_t(n * keys + j)] = 1.0f;
                padding = Mask::boolean({N, keys}, std::move(pad));
            }
            AttentionForwardOptions fwd;
            fwd.masked_rows = MaskedRowPolicy::NaN;
            fwd.key_padding_mask = padding ? &*padding : nullptr;
            fwd.causal = pick(0, 3) == 0;
            fwd.num_threads = pick(1, 2);
            std::vector<double> truth_weights;
            std::vector<float> float_weights;
            const std::vector<double> truth =
                reference_forward<double>(mha, query, key, value, fwd, &truth_weights);
            const std::vector<float> plain =
                reference_forward<float>(mha, query, key, value, fwd, &float_weights);
            const AttentionResult r = mha.forward(query, key, value, fwd);
            const QString layer =
                QStringLiteral(
                    "draw %1: N %2 L %3 S %4 E %5 heads %6 kdim %7 vdim %8 bias %9 bias_kv %10 "
                    "zero_attn %11 %12 padding %13 causal %14 threads %15")
                    .arg(i)
                    .arg(N)
                    .arg(L)
                    .arg(keys)
                    .arg(o.embed_dim)
                    .arg(o.num_heads)
                    .arg(o.key_dim())
                    .arg(o.value_dim())
                    .arg(o.bias)
                    .arg(o.add_bias_kv)
                    .arg(o.add_zero_attn)
                    .arg(QLatin1String(scoring_name(o.scoring)))
                    .arg(padding.has_value())
                    .arg(fwd.causal)
                    .arg(fwd.num_threads);
            const double bars[] = {max_error(plain, truth),
                                   max_error(float_weights, truth_weights)};
            const double errors[] = {max_error(r.output.data, truth),
                                     max_error(r.weights.data, truth_weights)};
            for (int k = 0; k < 2; ++k) {
                const char* what = k == 0 ? "output" : "weights";
                QVERIFY2(bars[k] < 1e-4 && errors[k] < 1e-4,
                         qPrintable(QStringLiteral("%1: %2 off by %3 (ours) and %4 (plain)")
                                        .arg(layer, QLatin1String(what))
                                        .arg(errors[k])
                                        .arg(bars[k])));
                // A result exact in float32 (one key: weights of 1) has nothing to compare.
                if (bars[k] == 0.0 && errors[k] <= 1e-7) continue;
                QVERIFY2(errors[k] <= 4.0 * bars[k],
                         qPrintable(QStringLiteral("%1: %2 error %3 against float64, float32 "
                                                   "bar %4 (%5x)")
                                        .arg(layer, QLatin1String(what))
                                        .arg(errors[k], 0, 'g', 3)
                                        .arg(bars[k], 0, 'g', 3)
                                        .arg(errors[k] / bars[k], 0, 'f', 2)));
                worst_ratio = std::max(worst_ratio, errors[k] / bars[k]);
            }
        }
        qInfo("largest error against the float32 bar: %.2fx", worst_ratio);
    }

    /// Every torch golden's weights file gives the layer of its config (heads from the
    /// config, or from additive_v), whose forward pass is the golden's.
    void layer_from_a_file() {
        const QStringList cases = golden_cases();
        QVERIFY(cases.size() >= kMinGoldenCases);
        for (const QString& c : cases) {
            const QJsonObject config =
                read_json(QString::fromStdString(test::golden_dir()) + "/" + c + "/config.json");
            const std::string path = golden_path(c, "weights.safetensors");
            const MultiHeadAttention layer =
                load_attention_layer(path, config["num_heads"].toInt());
            const MultiHeadAttentionOptions o = layer.options(), want = options_from_config(config);
            QVERIFY2(o.embed_dim == want.embed_dim && o.num_heads == want.num_heads &&
                         o.key_dim() == want.key_dim() && o.value_dim() == want.value_dim() &&
                         o.bias == want.bias && o.add_bias_kv == want.add_bias_kv &&
                         o.scoring == want.scoring,
                     qPrintable(c));
            if (want.scoring == Scoring::Additive)  // the head count is in the file
                QCOMPARE(load_attention_layer(path).options().num_heads, want.num_heads);
            else
                QCOMPARE(load_attention_layer(path).options().num_heads, std::int64_t{1});
            GoldenRun run = load_golden(c);
            AttentionForwardOptions fwd = run.fwd();
            fwd.masked_rows = MaskedRowPolicy::Zero;
            MultiHeadAttention same = layer;
            if (want.add_zero_attn) {  // not in a state_dict: a forward option of the module
                MultiHeadAttentionOptions with = o;
                with.add_zero_attn = true;
                same = MultiHeadAttention(with);
                same.load_state_dict(io::read_safetensors(path));
            }
            const AttentionResult r = same.forward(run.query, run.key, run.value, fwd);
            const Tensor out = io::read_npy(golden_path(c, "expected_zero_output.npy"));
            const auto cmp = test::compare_tensors(r.output, out, kAtol, kRtol);
            QVERIFY2(cmp.ok, qPrintable(c + ": " + QString::fromStdString(cmp.message)));
        }
        // torch's own files in every float dtype, both layouts.
        for (const char* f : {"mha_packed", "mha_f16", "mha_bf16", "mha_f64"}) {
            const std::string path = test::data_dir() + "/io/safetensors/" + f + ".safetensors";
            const MultiHeadAttentionOptions o = load_attention_layer(path, 2).options();
            QVERIFY2(o.embed_dim == 16 && o.packed_in_proj() && o.bias && !o.add_bias_kv, f);
        }
        const MultiHeadAttentionOptions split =
            load_attention_layer(test::data_dir() + "/io/safetensors/mha_separate.safetensors", 2)
                .options();
        QCOMPARE(split.embed_dim, std::int64_t{16});
        QCOMPARE(split.key_dim(), std::int64_t{12});
        QCOMPARE(split.value_dim(), std::int64_t{10});
        QVERIFY(split.bias && split.add_bias_kv);
    }

    /// A file that is not this layer's is refused with a DataError naming the file and,
    /// where one is at fault, the tensor.
    void layer_file_errors() {
        const std::string missing = test::temp_dir() + "/none.safetensors";
        ATTNVIZ_EXPECT_DATA_ERROR(load_attention_layer(missing), missing);
        const std::string not_st = test::data_dir() + "/io/safetensors/bad_npy_file.safetensors";
        ATTNVIZ_EXPECT_DATA_ERROR(load_attention_layer(not_st), not_st);
        const std::string dir = test::fresh_dir("layer_files");
        const auto write = [&](const char* name, const io::TensorMap& m) {
            const std::string path = dir + "/" + name;
            io::write_safetensors(path, m);
            return path;
        };
        const io::TensorMap good =
            io::read_safetensors(golden_path("bias_kv", "weights.safetensors"));
        io::TensorMap m;
        m["encoder.weight"] = random_tensor({8, 8}, 1);
        std::string path = write("other.safetensors", m);
        ATTNVIZ_EXPECT_DATA_ERROR(load_attention_layer(path), path,
                                  "not a torch.nn.MultiheadAttention state_dict");
        m = good;
        m.erase("out_proj.weight");
        path = write("no_out_proj.safetensors", m);
        ATTNVIZ_EXPECT_DATA_ERROR(load_attention_layer(path), path, "out_proj.weight");
        m = good;
        m["in_proj_weight"] = random_tensor({47, 16}, 2);
        path = write("short_in_proj.safetensors", m);
        ATTNVIZ_EXPECT_DATA_ERROR(load_attention_layer(path), path, "'in_proj_weight' [47,16]",
                                  "expected [48,16]");
        m = good;
        m["bias_k"].data[3] = std::numeric_limits<float>::quiet_NaN();
        path = write("nan.safetensors", m);
        ATTNVIZ_EXPECT_DATA_ERROR(load_attention_layer(path), path, "bias_k", "non-finite");
        m = good;
        m["adapter.weight"] = random_tensor({2}, 3);
        path = write("extra.safetensors", m);
        ATTNVIZ_EXPECT_DATA_ERROR(load_attention_layer(path), path, "unexpected tensor",
                                  "'adapter.weight'");
        path = write("good.safetensors", good);
        ATTNVIZ_EXPECT_DATA_ERROR(load_attention_layer(path, 3), path, "embed_dim 16",
                                  "num_heads 3");
        QCOMPARE(load_attention_layer(path, 4).options().num_heads, std::int64_t{4});
    }
    void options_inferred_from_weights() {
        const QStringList cases = golden_cases();
        QVERIFY(cases.size() >= kMinGoldenCases);
        for (const QString& c : cases) {
            const QJsonObject config =
                read_json(QString::fromStdString(test::golden_dir()) + "/" + c + "/config.json");
            const auto state = io::read_safetensors(golden_path(c, "weights.safetensors"));
            const MultiHeadAttentionOptions o =
                options_from_state_dict(state, config["num_heads"].toInt());
            const MultiHeadAttentionOptions want = options_from_config(config);
            QCOMPARE(o.embed_dim, want.embed_dim);
            QCOMPARE(o.key_dim(), want.key_dim());
            QCOMPARE(o.value_dim(), want.value_dim());
            QCOMPARE(o.bias, want.bias);
            QCOMPARE(o.add_bias_kv, want.add_bias_kv);
            QCOMPARE(o.scoring, want.scoring);
        }
    }

    void intermediates_follow_the_formula() {
        GoldenRun run = load_golden("causal");
        AttentionForwardOptions fwd = run.fwd();
        fwd.need_intermediates = true;
        const AttentionResult r = run.mha.forward(run.query, run.key, run.value, fwd);
        const HeadSteps& s = r.steps->heads[5];  // batch item 1, head 1
        const auto L = s.q.dim(0), d = s.q.dim(1), S = s.k.dim(0);
        const double scale = 1.0 / std::sqrt(static_cast<double>(d));
        for (std::int64_t i = 0; i < L; ++i)
            for (std::int64_t j = 0; j < S; ++j) {
                double dotp = 0.0;
                for (std::int64_t c = 0; c < d; ++c)
                    dotp += double(s.q.data[i * d + c]) * s.k.data[j * d + c];
                ATTNVIZ_FUZZY(s.scores.data[i * S + j], dotp, 1e-4);
                ATTNVIZ_FUZZY(s.scaled.data[i * S + j], dotp * scale, 1e-4);
                if (j > i)
                    QVERIFY(std::isinf(s.masked.data[i * S + j]));
                else
                    ATTNVIZ_FUZZY(s.masked.data[i * S + j], s.scaled.data[i * S + j], 0.0);
            }
        for (std::int64_t i = 0; i < L; ++i)
            for (std::int64_t c = 0; c < d; ++c) {
                double ctx = 0.0;
                for (std::int64_t j = 0; j < S; ++j)
                    ctx += double(s.dropped.data[i * S + j]) * s.v.data[j * d + c];
                ATTNVIZ_FUZZY(s.context.data[i * d + c], ctx, 1e-5);
            }
        QCOMPARE(r.steps->concat.shape, (Shape{2, 7, 16}));
    }

    void dropout_statistics() {
        MultiHeadAttentionOptions o;
        o.embed_dim = 32;
        o.num_heads = 4;
        o.dropout = 0.3f;
        MultiHeadAttention mha(o);
        mha.reset_parameters(7);
        const Tensor x = random_tensor({2, 64, 32}, 11);
        AttentionForwardOptions fwd;
        fwd.training = true;
        fwd.dropout_seed = 42;
        fwd.need_intermediates = true;
        const AttentionResult a = mha.forward(x, x, x, fwd);
        std::size_t zeros = 0, total = 0;
        for (const HeadSteps& s : a.steps->heads)
            for (std::size_t i = 0; i < s.softmax.numel(); ++i, ++total) {
                if (s.dropped.data[i] == 0.0f) {
                    ++zeros;
                } else {
                    ATTNVIZ_FUZZY(s.dropped.data[i], s.softmax.data[i] / 0.7, 1e-6);
                }
            }
        const double fraction = double(zeros) / double(total);
        // 32768 draws: the standard deviation of the fraction is 0.0025.
        ATTNVIZ_FUZZY(fraction, 0.3, 0.015);

        const AttentionResult same = mha.forward(x, x, x, fwd);
        ATTNVIZ_COMPARE_TENSORS(same.weights, a.weights, 0.0);
        ATTNVIZ_COMPARE_TENSORS(same.output, a.output, 0.0);
        fwd.num_threads = 2;  // threads do not change the drawn mask (values may round differently)
        const AttentionResult threaded = mha.forward(x, x, x, fwd);
        ATTNVIZ_COMPARE_TENSORS(threaded.weights, a.weights, 1e-6);
        for (std::size_t i = 0; i < a.weights.numel(); ++i)
            QCOMPARE(threaded.weights.data[i] == 0.0f, a.weights.data[i] == 0.0f);

        fwd.dropout_seed = 43;
        const AttentionResult other = mha.forward(x, x, x, fwd);
        QVERIFY(!test::compare_tensors(other.weights, a.weights, 1e-3).ok);

        fwd.training = false;  // eval: no dropout at all
        const AttentionResult eval = mha.forward(x, x, x, fwd);
        for (const HeadSteps& s : eval.steps->heads)
            ATTNVIZ_COMPARE_ARRAYS(s.dropped.ptr(), s.softmax.ptr(), s.softmax.numel(), 0.0);
    }

    void reset_parameters_follows_pytorch_scheme() {
        MultiHeadAttentionOptions o;
        o.embed_dim = 64;
        o.num_heads = 8;
        o.add_bias_kv = true;
        MultiHeadAttention a(o), b(o);
        a.reset_parameters(5);
        b.reset_parameters(5);
        const auto sa = a.state_dict(), sb = b.state_dict();
        for (const auto& [name, t] : sa)
            ATTNVIZ_COMPARE_TENSORS(t, sb.at(name), 0.0);
        b.reset_parameters(6);
        QVERIFY(!test::compare_tensors(b.state_dict().at("in_proj_weight"), sa.at("in_proj_weight"),
                                       1e-3)
                     .ok);
        // xavier_uniform_ over [3E, E]: bound sqrt(6 / (E + 3E)); variance bound^2 / 3.
        const Tensor& w = sa.at("in_proj_weight");
        const double bound = std::sqrt(6.0 / (64 + 192));
        double sq = 0.0;
        for (float v : w.data) {
            QVERIFY(std::abs(v) <= bound);
            sq += double(v) * v;
        }
        ATTNVIZ_FUZZY(sq / double(w.numel()), bound * bound / 3.0, 0.1 * bound * bound / 3.0);
        for (float v : sa.at("in_proj_bias").data)
            QCOMPARE(v, 0.0f);
        for (float v : sa.at("out_proj.bias").data)
            QCOMPARE(v, 0.0f);
        for (float v : sa.at("out_proj.weight").data)
            QVERIFY(std::abs(v) <= 1.0 / 8.0);
        QCOMPARE(sa.at("bias_k").shape, (Shape{1, 1, 64}));
    }

    void state_dict_round_trip_through_safetensors() {
        MultiHeadAttentionOptions o;
        o.embed_dim = 16;
        o.num_heads = 4;
        o.kdim = 6;
        o.vdim = 10;
        MultiHeadAttention a(o);
        a.reset_parameters(3);
        const std::string path = test::temp_dir() + "/mha.safetensors";
        io::write_safetensors(path, a.state_dict());
        MultiHeadAttention b(options_from_state_dict(io::read_safetensors(path), 4));
        b.load_state_dict(io::read_safetensors(path));
        const Tensor q = random_tensor({1, 3, 16}, 1), k = random_tensor({1, 5, 6}, 2),
                     v = random_tensor({1, 5, 10}, 3);
        ATTNVIZ_COMPARE_TENSORS(b.forward(q, k, v).output, a.forward(q, k, v).output, 0.0);
    }

    // Self-attention reads a packed copy of the in-projection.  Re-seeding a layer that had
    // loaded other weights must refresh that copy: the stale copy once kept the loaded weights.
    void reset_after_load_uses_new_weights() {
        MultiHeadAttentionOptions o;
        o.embed_dim = 16;
        o.num_heads = 4;
        MultiHeadAttention loaded(o), fresh(o), other(o);
        other.reset_parameters(11);
        loaded.load_state_dict(other.state_dict());
        loaded.reset_parameters(5);
        fresh.reset_parameters(5);
        const Tensor x = random_tensor({2, 7, 16}, 4);
        const AttentionResult a = loaded.forward(x, x, x), b = fresh.forward(x, x, x);
        ATTNVIZ_COMPARE_TENSORS(a.output, b.output, 0.0);
        ATTNVIZ_COMPARE_TENSORS(a.weights, b.weights, 0.0);
        // and the packed path agrees with the per-projection one (distinct key tensor)
        const Tensor x2 = x;
        ATTNVIZ_COMPARE_TENSORS(fresh.forward(x, x2, x2).output, b.output, 1e-5);
    }

    void bad_options_and_shapes() {
        MultiHeadAttentionOptions o;
        o.embed_dim = 10;
        o.num_heads = 4;
        expect_invalid([&] { MultiHeadAttention m(o); },
                       "embed_dim 10 is not divisible by num_heads 4");
        o.num_heads = 2;
        o.dropout = 1.0f;
        expect_invalid([&] { MultiHeadAttention m(o); }, "dropout must be in [0, 1)");
        o.dropout = std::numeric_limits<float>::quiet_NaN();
        expect_invalid([&] { MultiHeadAttention m(o); }, "dropout");
        o.dropout = 0.0f;
        o.embed_dim = 0;
        expect_invalid([&] { MultiHeadAttention m(o); }, "embed_dim must be positive");

        o.embed_dim = 8;
        MultiHeadAttention mha(o);
        const Tensor x = random_tensor({2, 7, 8}, 1);
        expect_invalid([&] { mha.forward(random_tensor({2, 7, 6}, 1), x, x); }, "query is [2,7,6]");
        expect_invalid([&] { mha.forward(x, random_tensor({2, 7, 9}, 1), x); }, "key is [2,7,9]");
        expect_invalid([&] { mha.forward(x, x, random_tensor({2, 6, 8}, 1)); }, "value is [2,6,8]");
        expect_invalid([&] { mha.forward(Tensor({2, 0, 8}), x, x); }, "has no tokens");
        const Mask kpm = Mask::boolean({2, 9}, std::vector<float>(18, 0.0f));
        AttentionForwardOptions fwd;
        fwd.key_padding_mask = &kpm;
        expect_invalid([&] { mha.forward(x, x, x, fwd); },
                       "key_padding_mask is [2,9] but keys are [2,7]");
        const Mask am = Mask::boolean({7, 6}, std::vector<float>(42, 0.0f));
        fwd = {};
        fwd.attn_mask = &am;
        expect_invalid([&] { mha.forward(x, x, x, fwd); },
                       "attn_mask is [7,6] but should be [7,7] or [4,7,7]");
    }

    void bad_weights() {
        MultiHeadAttentionOptions o;
        o.embed_dim = 8;
        o.num_heads = 2;
        MultiHeadAttention mha(o);
        auto state = mha.state_dict();
        auto missing = state;
        missing.erase("out_proj.weight");
        expect_invalid([&] { mha.load_state_dict(missing); }, "no tensor 'out_proj.weight' [8,8]");
        auto wrong = state;
        wrong["in_proj_weight"] = Tensor({24, 7});
        expect_invalid([&] { mha.load_state_dict(wrong); },
                       "'in_proj_weight' [24,7] does not fit: expected [24,8]");
        auto extra = state;
        extra["bias_k"] = Tensor({1, 1, 8});
        expect_invalid([&] { mha.load_state_dict(extra); }, "unexpected tensor 'bias_k'");
        auto nan = state;
        nan["out_proj.bias"].data[3] = std::numeric_limits<float>::quiet_NaN();
        expect_invalid([&] { mha.load_state_dict(nan); }, "out_proj.bias has a non-finite value");
        // A failed load leaves the previous weights in place.
        ATTNVIZ_COMPARE_TENSORS(mha.state_dict().at("in_proj_weight"), state.at("in_proj_weight"),
                                0.0);
    }

    void memory_estimate_grows_with_heads_and_tokens() {
        MultiHeadAttentionOptions o;
        o.embed_dim = 64;
        o.num_heads = 8;
        const auto small = MultiHeadAttention::estimate_forward_bytes(o, 1, 100, 100, false);
        const auto big = MultiHeadAttention::estimate_forward_bytes(o, 1, 1000, 1000, false);
        QVERIFY(small >= 8u * 100 * 100 * 4);
        QVERIFY(big >= 8u * 1000 * 1000 * 4);
        QVERIFY(MultiHeadAttention::estimate_forward_bytes(o, 1, 100, 100, true) > small);
    }
};

QTEST_APPLESS_MAIN(TestAttention)
#include "test_attention.moc"
