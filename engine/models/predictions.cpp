#include "engine/models/predictions.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "engine/errors.h"
#include "engine/ops/parallel.h"
#include "engine/ops/softmax.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;

/// log p(next) from one row of logits.
double logprob_of(const float* row, Index vocab, Index next) {
    return log_softmax(row, vocab)[static_cast<std::size_t>(next)];
}

double metric(const Model& m, const Tensor& final, Index position,
              const std::vector<Index>& columns, int threads) {
    const Tensor c = m.logits(final, {position}, threads, &columns);
    return double(c.data[0]) - double(c.data[1]);
}

}  // namespace

std::vector<double> log_softmax(const float* logits, Index vocab) {
    double top = -std::numeric_limits<double>::infinity();
    for (Index i = 0; i < vocab; ++i)
        top = std::max(top, double(logits[i]));
    double sum = 0.0;
    for (Index i = 0; i < vocab; ++i)
        sum += std::exp(double(logits[i]) - top);
    const double log_sum = top + std::log(sum);
    std::vector<double> out(static_cast<std::size_t>(vocab));
    for (Index i = 0; i < vocab; ++i)
        out[static_cast<std::size_t>(i)] = double(logits[i]) - log_sum;
    return out;
}

std::vector<TokenScore> top_k(const float* logits, Index vocab, Index k) {
    if (k < 1) throw std::invalid_argument("top-k must be at least 1");
    const auto n = static_cast<std::size_t>(std::min(k, vocab));
    // One pass keeps the n best in order (higher logit first, the lower id on a tie): a
    // vocabulary of 151,936 is read once, not sorted.
    std::vector<Index> best;
    best.reserve(n + 1);
    const auto before = [&](Index a, Index b) {
        return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    };
    float threshold = -std::numeric_limits<float>::infinity();
    const auto consider = [&](Index i) {
        if (logits[i] < threshold) return;
        if (best.size() == n && !before(i, best.back())) return;
        best.insert(std::upper_bound(best.begin(), best.end(), i, before), i);
        if (best.size() > n) best.pop_back();
        if (best.size() == n) threshold = logits[best.back()];
    };
    // Blocks of 64 with nothing at or above the threshold are skipped after one vectorised
    // test: after the first blocks, almost all of them.
    constexpr Index kBlock = 64;
    Index i = 0;
    for (; i + kBlock <= vocab; i += kBlock) {
        const float t = threshold;  // a local: the test below is then vectorised
        const float* x = logits + i;
        int hits = 0;
        for (Index j = 0; j < kBlock; ++j)
            hits += x[j] >= t ? 1 : 0;
        if (hits == 0) continue;
        for (Index j = 0; j < kBlock; ++j)
            consider(i + j);
    }
    for (; i < vocab; ++i)
        consider(i);
    // The normaliser with the SIMD softmax: log p = log(softmax(x)[id]).
    thread_local std::vector<float> p;
    p.resize(static_cast<std::size_t>(vocab));
    ops::softmax_row(logits, p.data(), static_cast<std::size_t>(vocab));
    std::vector<TokenScore> out;
    for (const Index id : best) {
        const float q = p[static_cast<std::size_t>(id)];
        // A probability below float's range: the exact value in double.
        out.push_back({id, q > 1e-30f ? std::log(double(q))
                                      : log_softmax(logits, vocab)[static_cast<std::size_t>(id)]});
    }
    return out;
}

double mean_loss(const std::vector<double>& logprob) {
    if (logprob.empty()) return std::numeric_limits<double>::quiet_NaN();
    double sum = 0.0;
    for (const double v : logprob)
        sum -= v;
    return sum / double(logprob.size());
}

std::vector<std::vector<TokenScore>> top_k_rows(const Tensor& logits, Index k, int threads) {
    const Index V = logits.shape.back();
    const auto R = static_cast<Index>(logits.numel() / static_cast<std::size_t>(V));
    std::vector<std::vector<TokenScore>> out(static_cast<std::size_t>(R));
    ops::parallel_for(static_cast<std::size_t>(R), threads, [&](std::size_t r0, std::size_t r1) {
        for (std::size_t r = r0; r < r1; ++r)
            out[r] = top_k(logits.ptr() + static_cast<Index>(r) * V, V, k);
    });
    return out;
}

Tensor lens_logits(const Model& model, const std::vector<Tensor>& residuals,
                   const std::vector<Index>& positions, int threads) {
    const Index E = model.info().hidden_size, V = model.info().vocab_size;
    const auto P = static_cast<Index>(positions.size());
    const Index N = static_cast<Index>(residuals.size()) - 1;
    // Every layer's rows in one product: the unembedding (151,936 × 896 for Qwen2.5-0.5B) is
    // read once, not once per layer, and the product has N·P rows to keep the cores busy.
    Tensor stacked({N * P, E});
    for (Index l = 1; l <= N; ++l) {
        const Tensor& x = residuals[static_cast<std::size_t>(l)];
        for (Index i = 0; i < P; ++i) {
            const Index t = positions[static_cast<std::size_t>(i)];
            if (t < 0 || static_cast<std::size_t>((t + 1) * E) > x.numel())
                throw std::invalid_argument("lens position " + std::to_string(t) +
                                            " is not in the text");
            std::copy_n(x.ptr() + t * E, E, stacked.ptr() + ((l - 1) * P + i) * E);
        }
    }
    std::vector<Index> rows(static_cast<std::size_t>(N * P));
    std::iota(rows.begin(), rows.end(), Index{0});
    Tensor all = model.logits(stacked, rows, threads);
    all.shape = {N, P, V};
    return all;
}

Prediction predict(const Model& model, const ModelInput& input, const PredictOptions& options) {
    if (model.lm_head() == LmHeadKind::None) throw DataError(model.lm_head_missing());
    const auto L = static_cast<Index>(input.ids.size());
    const Index N = model.info().num_layers, V = model.info().vocab_size;
    ModelForwardOptions o;
    o.attention = false;
    o.interventions = options.interventions;
    o.num_threads = options.num_threads;
    StreamSink sink;
    model.forward(input, o, sink);
    Prediction p;
    std::vector<Index> all(static_cast<std::size_t>(L));
    std::iota(all.begin(), all.end(), Index{0});
    if (options.lens) {
        p.lens_positions = options.lens_positions.empty() ? all : options.lens_positions;
        p.lens = lens_logits(model, sink.residuals, p.lens_positions, o.num_threads);
    }
    // The model's own logits are the lens after the last layer when the lens covers every
    // position: one product, so the two agree to the bit.
    if (options.lens && p.lens_positions == all)
        p.logits = Tensor(
            {L, V}, std::vector<float>(p.lens.ptr() + (N - 1) * L * V, p.lens.ptr() + N * L * V));
    else
        p.logits = model.logits(sink.residuals[static_cast<std::size_t>(N)], all, o.num_threads);
    if (model.lm_head() == LmHeadKind::Causal)
        for (Index t = 0; t + 1 < L; ++t)
            p.next_logprob.push_back(
                logprob_of(p.logits.ptr() + t * V, V, input.ids[static_cast<std::size_t>(t + 1)]));
    p.loss = mean_loss(p.next_logprob);
    return p;
}

RowPredictions predict_rows(const Model& model, const Tensor& final_residual,
                            const std::vector<Index>& ids, const std::vector<Index>& rows, Index k,
                            int threads) {
    if (model.lm_head() == LmHeadKind::None) throw DataError(model.lm_head_missing());
    const auto L = static_cast<Index>(ids.size());
    const Index V = model.info().vocab_size;
    const bool causal = model.lm_head() == LmHeadKind::Causal;
    RowPredictions out;
    out.rows = rows;
    if (out.rows.empty()) {
        out.rows.resize(static_cast<std::size_t>(L));
        std::iota(out.rows.begin(), out.rows.end(), Index{0});
    }
    for (const Index r : out.rows)
        if (r < 0 || r >= L)
            throw std::invalid_argument("row " + std::to_string(r) + " is not in the " +
                                        std::to_string(L) + " tokens");
    out.top.resize(out.rows.size());
    // Causal: every row (the loss reads them all); masked: the asked rows only.
    std::vector<Index> need = out.rows;
    if (causal) {
        need.resize(static_cast<std::size_t>(L));
        std::iota(need.begin(), need.end(), Index{0});
        out.next_logprob.resize(static_cast<std::size_t>(std::max<Index>(L - 1, 0)));
    }
    std::vector<std::ptrdiff_t> top_of(static_cast<std::size_t>(L), -1);
    for (std::size_t i = 0; i < out.rows.size(); ++i)
        top_of[static_cast<std::size_t>(out.rows[i])] = static_cast<std::ptrdiff_t>(i);
    // 16 MB of logits at a time: 26 rows of a 151,936-token vocabulary, 4,096 of a small one.
    const Index block = std::max<Index>(1, Index(4) * 1024 * 1024 / std::max<Index>(V, 1));
    for (std::size_t b = 0; b < need.size(); b += static_cast<std::size_t>(block)) {
        const std::vector<Index> part(need.begin() + static_cast<std::ptrdiff_t>(b),
                                      need.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                         need.size(), b + std::size_t(block))));
        const Tensor logits = model.logits(final_residual, part, threads);
        ops::parallel_for(part.size(), threads, [&](std::size_t i0, std::size_t i1) {
            for (std::size_t i = i0; i < i1; ++i) {
                const Index t = part[i];
                const float* row = logits.ptr() + static_cast<Index>(i) * V;
                if (top_of[static_cast<std::size_t>(t)] >= 0)
                    out.top[static_cast<std::size_t>(top_of[static_cast<std::size_t>(t)])] =
                        top_k(row, V, k);
                if (causal && t + 1 < L)
                    out.next_logprob[static_cast<std::size_t>(t)] =
                        logprob_of(row, V, ids[static_cast<std::size_t>(t + 1)]);
            }
        });
    }
    out.loss = mean_loss(out.next_logprob);
    return out;
}

std::vector<HeadRef> parse_head_list(const std::string& spec, const ModelInfo& info,
                                     const char* option) {
    std::vector<HeadRef> out;
    std::stringstream in(spec);
    std::string item;
    while (std::getline(in, item, ',')) {
        const std::size_t dot = item.find('.');
        std::int64_t layer = 0, head = 0;
        bool ok = dot != std::string::npos && dot > 0 && dot + 1 < item.size();
        try {
            if (ok) {
                std::size_t used = 0;
                layer = std::stoll(item.substr(0, dot), &used);
                ok = used == dot;
                head = std::stoll(item.substr(dot + 1), &used);
                ok = ok && used == item.size() - dot - 1;
            }
        } catch (const std::exception&) {
            ok = false;
        }
        if (!ok)
            throw UsageError(std::string(option) + " " + spec +
                             ": expected LAYER.HEAD items such as 2.4,1.7");
        if (layer < 1 || layer > info.num_layers || head < 1 || head > info.num_heads)
            throw UsageError(std::string(option) + ": head " + item +
                             " does not exist: " + info.display_name + " has layers 1-" +
                             std::to_string(info.num_layers) + " of heads 1-" +
                             std::to_string(info.num_heads));
        out.push_back({layer - 1, head - 1});
    }
    if (out.empty()) throw UsageError(std::string(option) + " names no head");
    return out;
}

std::vector<HeadIntervention> ablations(const std::vector<HeadRef>& heads,
                                        HeadIntervention::Kind kind) {
    std::vector<HeadIntervention> out;
    for (const HeadRef& h : heads)
        out.push_back({h, kind, nullptr});
    return out;
}

Index patch_position(const Model& model, const PatchRequest& r) {
    const auto L = static_cast<Index>(r.clean.ids.size());
    if (static_cast<Index>(r.corrupt.ids.size()) != L)
        throw std::invalid_argument(
            "the clean text is " + std::to_string(L) + " tokens and the corrupted one " +
            std::to_string(r.corrupt.ids.size()) + ": patching needs as many tokens in both");
    const Index position = r.position < 0 ? L + r.position : r.position;
    if (position < 0 || position >= L)
        throw std::invalid_argument("position " + std::to_string(r.position) + " is not in the " +
                                    std::to_string(L) + " tokens");
    if (model.lm_head() == LmHeadKind::None) throw DataError(model.lm_head_missing());
    return position;
}

PatchResult patch_sweep(const Model& model, const PatchRequest& r, const PatchProgress& progress) {
    const auto L = static_cast<Index>(r.clean.ids.size());
    const Index position = patch_position(model, r);
    const Index N = model.info().num_layers, H = model.info().num_heads;
    const std::vector<Index> columns = {r.target, r.distractor};
    ModelForwardOptions o;
    o.attention = false;
    o.num_threads = r.num_threads;
    o.control.stop = r.stop;
    o.weight_cache_bytes = r.weight_cache_bytes;
    StreamSink clean(true), corrupt(true);
    model.forward(r.clean, o, clean);
    model.forward(r.corrupt, o, corrupt);
    PatchResult out;
    out.position = position;
    out.m_clean = metric(model, clean.residuals[static_cast<std::size_t>(N)], position, columns,
                         r.num_threads);
    out.m_corrupt = metric(model, corrupt.residuals[static_cast<std::size_t>(N)], position, columns,
                           r.num_threads);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    out.m_patched = Tensor({N, H}, std::vector<float>(static_cast<std::size_t>(N * H), nan));
    out.fraction = out.m_patched;
    std::vector<HeadRef> heads = r.heads;
    if (heads.empty())
        for (Index l = 0; l < N; ++l)
            for (Index h = 0; h < H; ++h)
                heads.push_back({l, h});
    const double span = out.m_clean - out.m_corrupt;
    for (const HeadRef& head : heads)
        if (head.layer < 0 || head.layer >= N || head.head < 0 || head.head >= H)
            throw std::invalid_argument("head " + std::to_string(head.head + 1) + " of layer " +
                                        std::to_string(head.layer + 1) + " does not exist");
    // The heads of one layer go together: B variants of the corrupted text resumed at that
    // layer, so each product sees B·L rows instead of L.
    std::vector<HeadRef> sorted = heads;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const HeadRef& a, const HeadRef& b) { return a.layer < b.layer; });
    const std::size_t most = r.batch > 0 ? static_cast<std::size_t>(r.batch) : sorted.size();
    Index done = 0;
    for (std::size_t i = 0; i < sorted.size();) {
        const Index layer = sorted[i].layer;
        std::size_t j = i;
        while (j < sorted.size() && sorted[j].layer == layer && j - i < most)
            ++j;
        ModelForwardOptions p = o;
        p.resume_layer = layer;
        p.resume_residual = &corrupt.residuals[static_cast<std::size_t>(layer)];
        p.resume_context = corrupt.contexts[static_cast<std::size_t>(layer)].get();
        const auto source = clean.contexts[static_cast<std::size_t>(layer)];
        std::vector<Index> rows;
        for (std::size_t k = i; k < j; ++k) {
            const std::vector<HeadIntervention> patch = {
                {sorted[k], HeadIntervention::Kind::Patch, source}};
            if (j - i == 1)
                p.interventions = patch;
            else
                p.variants.push_back(patch);
            rows.push_back(static_cast<Index>(k - i) * L + position);
        }
        FinalStreamSink sink(N);
        model.forward(r.corrupt, p, sink);
        const Tensor m = model.logits(sink.final, rows, r.num_threads, &columns);
        for (std::size_t k = i; k < j; ++k) {
            const auto at = static_cast<std::size_t>(sorted[k].layer * H + sorted[k].head);
            const std::size_t b = k - i;
            const double v = double(m.data[2 * b]) - double(m.data[2 * b + 1]);
            out.m_patched.data[at] = static_cast<float>(v);
            out.fraction.data[at] =
                span == 0.0 ? nan : static_cast<float>((v - out.m_corrupt) / span);
        }
        done += static_cast<Index>(j - i);
        i = j;
        if (progress && !progress(done, static_cast<Index>(sorted.size()), out)) break;
    }
    return out;
}

}  // namespace attnviz::models
