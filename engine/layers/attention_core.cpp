#include "engine/layers/attention_core.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/buffers.h"
#include "engine/kernels/attention.h"
#include "engine/ops/dropout.h"
#include "engine/ops/parallel.h"

namespace attnviz::layers {

namespace {
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MutMap = Eigen::Map<RowMat>;
using Stride = Eigen::OuterStride<>;
using ConstStrided = Eigen::Map<const RowMat, 0, Stride>;
using MutStrided = Eigen::Map<RowMat, 0, Stride>;
using Eigen::Index;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

/// The softmax of rows [i0, i0 + rows) of a causally masked [L, Sp] score matrix, of which
/// only keys j <= i are read: row i over its own keys [0, i], the rest exactly 0 as exp(-inf)
/// gives (NaN when a NaN made the row NaN), so that a row's result does not depend on its
/// block.  A fully masked row is done again over every key (all -inf), for its policy.
void causal_softmax_rows(float* p, Index rows, Index Sp, Index i0, MaskedRowPolicy policy,
                         std::uint8_t* fully_masked) {
    for (Index i = 0; i < rows; ++i) {
        float* row = p + i * Sp;
        const Index keys = std::min(Sp, i0 + i + 1);
        if (ops::softmax_rows(row, 1, static_cast<std::size_t>(keys), policy, fully_masked + i) ==
            0) {
            std::fill(row + keys, row + Sp,
                      row[0] == row[0] ? 0.0f : std::numeric_limits<float>::quiet_NaN());
        } else {
            std::fill(row, row + Sp, kNegInf);
            ops::softmax_rows(row, 1, static_cast<std::size_t>(Sp), policy, fully_masked + i);
        }
    }
}

}  // namespace

ResultWindow result_window(const AttentionForwardOptions& fwd, Index H, Index L, Index Sp) {
    auto range = [](const char* what, const char* things, Index begin, Index count, Index size,
                    Index* b, Index* c) {
        if (begin < 0 || begin >= size || count == 0 || count < -1 ||
            (count > 0 && count > size - begin))
            throw std::invalid_argument(
                std::string(what) + " window from " + std::to_string(begin) + " of length " +
                std::to_string(count) + " does not fit " + std::to_string(size) + " " + things);
        *b = begin;
        *c = count < 0 ? size - begin : count;
    };
    if (fwd.weights_heads < -1 || fwd.weights_heads > H)
        throw std::invalid_argument("weights_heads " + std::to_string(fwd.weights_heads) +
                                    " is not in [-1, " + std::to_string(H) + "]");
    ResultWindow w{};
    w.heads = fwd.weights_heads < 0 ? H : fwd.weights_heads;
    range("query", "queries", fwd.query_begin, fwd.query_count, L, &w.q0, &w.rows);
    range("key", "keys", fwd.key_begin, fwd.key_count, Sp, &w.k0, &w.cols);
    w.full_columns = w.k0 == 0 && w.cols == Sp;
    return w;
}

// 384 KiB of weights per head and block: the block's scores are written, masked, normalised
// and multiplied with V while they are in L2, and the mean over heads stays beside them.  The
// keys and values are packed once per head (kernels/attention.h), so a small block repacks
// nothing.  Blocks are whole tiles of the kernels (24 rows) when they can be.
constexpr Index kBlockFloats = Index{96} * 1024;
constexpr Index kBlockRowMultiple = 24;
// Past 2,048 keys the blocks keep 48 rows (and grow past 384 KiB): each block reads every
// head's packed keys and values once, from L3 when they no longer fit L2, so 12 rows a block
// at 8,192 keys left the products waiting on them.  Measured: a 4,096-token layer (512 wide,
// 8 heads, one thread) 370-386 ms against 408-410 with 24 rows; a statistics pass over 8,192
// tokens of Qwen2.5-0.5B's shapes (2 threads) 32.2 s against 35.5-37.2 s with 12 rows, and
// 34.3-34.4 s with 32 or 64.
constexpr Index kMinBlockRows = 48;
// Kept weights beyond this are streamed past the caches (a core's L2 is 1-2 MiB).
constexpr std::size_t kStreamBytes = std::size_t{4} << 20;

Index rows_per_block(Index rows, Index Sp, Index N, int threads) {
    Index r =
        std::clamp<Index>(std::max(kBlockFloats / std::max<Index>(Sp, 1), kMinBlockRows), 1, rows);
    if (threads > 1 && N < threads) r = std::min(r, (rows * N + threads - 1) / threads);
    if (r > kBlockRowMultiple && r < rows) r -= r % kBlockRowMultiple;
    return std::max<Index>(r, 1);
}

std::size_t packed_heads_floats(Index N, Index kv_heads, Index Sp, Index head_dim) {
    const kernels::Isa isa = kernels::best_isa();
    return static_cast<std::size_t>(N * kv_heads) *
           (kernels::packed_keys_floats(isa, Sp, head_dim) +
            kernels::packed_values_floats(isa, Sp, head_dim));
}

std::size_t observer_slots(Index batch, Index rows, Index source_len, int threads) {
    const Index rpb = rows_per_block(rows, source_len, batch, threads);
    return ops::chunk_count(static_cast<std::size_t>(batch * ((rows + rpb - 1) / rpb)), threads);
}

Tensor copy_block(const float* src, Index rows, Index cols, Index ld) {
    Tensor t({rows, cols});
    MutMap(t.ptr(), rows, cols) = ConstStrided(src, rows, cols, Stride(ld));
    return t;
}

void size_stages(HeadSteps& st, Index rows, Index cols, Index head_dim) {
    for (Tensor* m : {&st.scores, &st.scaled, &st.masked, &st.softmax, &st.dropped})
        *m = Tensor({rows, cols});
    st.context = Tensor({rows, head_dim});
}

void attend(const ProjectedHeads& in, const ops::MaskSpec& masks, const ResultWindow& win,
            const AttendOptions& opt, AttentionResult& result, float* concat, Index ld_concat) {
    const Index N = in.batch, H = in.num_heads, d = in.head_dim, Sp = in.source_len;
    const Index L = in.target_len;
    const Index h0 = opt.first_head, h1 = opt.last_head < 0 ? in.num_heads : opt.last_head;
    if (h0 < 0 || h1 > in.num_heads || h0 >= h1)
        throw std::invalid_argument("heads [" + std::to_string(h0) + ", " + std::to_string(h1) +
                                    ") are not among " + std::to_string(in.num_heads));
    const Index group = in.num_kv_heads > 0 ? H / in.num_kv_heads : 1;
    const Index Lw = win.rows, q0 = win.q0, Hk = win.heads, Cw = win.cols, k0 = win.k0;
    const int threads = std::max(1, opt.num_threads);
    const bool dot = in.additive_v == nullptr;
    const float* qp = in.q;
    const float* kp = in.k;
    const float* vp = in.v;
    const Index ldq = in.ldq, ldk = in.ldk, ldv = in.ldv;

    result.source_length = Sp;
    const auto heads_total = static_cast<std::size_t>(N * H);
    if (opt.need_weights) {
        if (Hk > 0) result.weights = take_tensor({N, Hk, Lw, Cw});
        result.mean_weights = take_tensor({N, Lw, Cw});
    }
    result.fully_masked_rows.assign(heads_total * static_cast<std::size_t>(Lw), 0);
    const bool dropout_on = opt.dropout > 0.0f;
    const float inv_h = 1.0f / static_cast<float>(h1 - h0);

    // Every key/value head packed once for the kernels, and reused by every row block and
    // every query head of its group; only those of the heads computed, kv heads [g0, g1).
    const kernels::Isa isa = kernels::best_isa();
    const Index g0 = h0 / group, Hkv = (h1 - 1) / group + 1 - g0;
    const auto pk = dot ? kernels::packed_keys_floats(isa, Sp, d) : std::size_t{0};
    const auto pv = kernels::packed_values_floats(isa, Sp, d);
    // Every float is written by the packing: no need to zero them first.
    const std::unique_ptr<float[]> packed_k(new float[static_cast<std::size_t>(N * Hkv) * pk]);
    const std::unique_ptr<float[]> packed_v(new float[static_cast<std::size_t>(N * Hkv) * pv]);
    ops::parallel_for(
        static_cast<std::size_t>(N * Hkv), threads, [&](std::size_t i0, std::size_t i1) {
            for (std::size_t i = i0; i < i1; ++i) {
                const Index n = static_cast<Index>(i) / Hkv, g = g0 + static_cast<Index>(i) % Hkv;
                if (dot)
                    kernels::pack_keys(isa, kp + n * Sp * ldk + g * d, ldk, Sp, d,
                                       packed_k.get() + i * pk);
                kernels::pack_values(isa, vp + n * Sp * ldv + g * d, ldv, Sp, d,
                                     packed_v.get() + i * pv);
            }
        });

    // Query rows go in blocks small enough that a block's weights stay in cache from the
    // score product through mask, softmax, dropout, the product with V and the mean: each
    // weight is written to memory once.  A work item is (batch item, row block) with every head
    // inside it, so the mean over heads is summed where it is computed and no two threads ever
    // write the same rows.
    const Index rpb = rows_per_block(Lw, Sp, N, threads);
    // Weights larger than the caches are computed in per-thread scratch and streamed out with
    // non-temporal stores once a block is done (as is the mean, summed in scratch): memory sees
    // each written once and never read.  Smaller ones are computed in place and stay in cache
    // for whoever reads them next.  A head whose weights are not kept (or whose kept columns
    // are a window) is computed in scratch either way.
    const bool stream = static_cast<double>(N * (Hk + 1) * Lw * Cw) * sizeof(float) >=
                        static_cast<double>(kStreamBytes);
    const bool need_scratch = stream || !opt.need_weights || Hk < H || !win.full_columns;
    const Index blocks_per_item = (Lw + rpb - 1) / rpb;
    // A causal mask sets every key after a query to -inf whatever its score: the scores, the
    // softmax and the product with V stop at the last key a block's rows see (about half the
    // work of a causal model).  Not with bias_k or zero-attention columns (never masked, after
    // the keys), nor for the steps view, which shows every raw score.
    const bool causal_skip = masks.causal && masks.extra_columns == 0 && dot && !result.steps;
    // With the causal skip a block's work grows with its rows' positions: blocks are taken
    // first, last, second, second to last, ... so that each thread's contiguous share of them
    // holds as much work as another's (a fixed order: the same thread count, the same sums).
    const auto blocks = static_cast<std::size_t>(N * blocks_per_item);
    const auto block_order = [&](std::size_t k) {
        return !causal_skip ? k : k % 2 == 0 ? k / 2 : blocks - 1 - k / 2;
    };
    ops::parallel_chunks(blocks, threads, [&](std::size_t slot, std::size_t b0, std::size_t b1) {
        // Written before they are read: no need to zero them.
        std::unique_ptr<float[]> scratch, head_sum;
        if (need_scratch) scratch.reset(new float[static_cast<std::size_t>(rpb * Sp)]);
        if (stream && opt.need_weights)
            head_sum.reset(new float[static_cast<std::size_t>(rpb * Cw)]);
        for (std::size_t k = b0; k < b1; ++k) {
            const std::size_t b = block_order(k);
            const Index n = static_cast<Index>(b) / blocks_per_item;
            const Index r0 = (static_cast<Index>(b) % blocks_per_item) * rpb;  // in window
            const Index i0 = q0 + r0;                                          // absolute
            const Index rows = std::min(rpb, Lw - r0);
            const auto cells = static_cast<std::size_t>(rows * Sp);
            // With causal_skip, keys [live, Sp) are masked for every row of the block: their
            // scores are neither computed nor masked, and their weights are written as 0.
            const Index live = causal_skip ? std::min(Sp, i0 + rows) : Sp;
            float* mean =
                opt.need_weights ? result.mean_weights.ptr() + (n * Lw + r0) * Cw : nullptr;
            float* head_total = stream ? head_sum.get() : mean;
            for (Index h = h0; h < h1; ++h) {
                const auto t = static_cast<std::size_t>(n * H + h);
                const Index g = h / group;
                const Index kh_index = h - h0;  // among the kept heads
                const bool keep_head = opt.need_weights && kh_index < Hk;
                float* kept = keep_head
                                  ? result.weights.ptr() + ((n * Hk + kh_index) * Lw + r0) * Cw
                                  : nullptr;
                float* p = keep_head && win.full_columns && !stream ? kept : scratch.get();
                MutMap scores(p, rows, Sp);
                const ConstStrided qh(qp + (n * Lw + r0) * ldq + h * d, rows, d, Stride(ldq));
                const ConstStrided kh(kp + n * Sp * ldk + g * d, Sp, d, Stride(ldk));
                const auto packed = static_cast<std::size_t>(n * Hkv + g - g0);
                if (dot) {  // q already carries the scale
                    kernels::attention_scores(isa, qh.data(), ldq, rows, d,
                                              packed_k.get() + packed * pk, live, p, Sp);
                } else {
                    const float* w = in.additive_v + h * d;
                    for (Index i = 0; i < rows; ++i)
                        for (Index j = 0; j < Sp; ++j) {
                            float sum = 0.0f;
                            for (Index c = 0; c < d; ++c)
                                sum += w[c] * std::tanh(qh(i, c) + kh(j, c));
                            scores(i, j) = sum;
                        }
                }
                HeadSteps* steps = result.steps ? &result.steps->heads[t] : nullptr;
                const auto keep = [&](Tensor& stage) {
                    std::copy_n(p, cells, stage.ptr() + static_cast<std::size_t>(r0 * Sp));
                };
                if (steps) {
                    keep(steps->scaled);
                    keep(steps->scores);
                    if (dot)  // the raw q.k before the scale folded into q
                        for (std::size_t c = 0; c < cells; ++c)
                            steps->scores.data[static_cast<std::size_t>(r0 * Sp) + c] /=
                                in.score_scale;
                }
                if (masks.any()) masks.apply(p, n, h, i0, rows, live);
                if (steps) keep(steps->masked);
                std::uint8_t* fully_masked = result.fully_masked_rows.data() +
                                             t * static_cast<std::size_t>(Lw) +
                                             static_cast<std::size_t>(r0);
                if (causal_skip)
                    causal_softmax_rows(p, rows, Sp, i0, opt.masked_rows, fully_masked);
                else
                    ops::softmax_rows(p, static_cast<std::size_t>(rows),
                                      static_cast<std::size_t>(Sp), opt.masked_rows, fully_masked);
                if (steps) keep(steps->softmax);
                if (opt.observer) (*opt.observer)(slot, RowBlock{n, h, i0, rows, Sp, p});
                if (dropout_on)  // one stream per (batch item, head, absolute query row):
                                 // independent of blocking and of the window
                    for (Index i = 0; i < rows; ++i)
                        ops::dropout_inplace(
                            p + i * Sp, static_cast<std::size_t>(Sp), opt.dropout, opt.dropout_seed,
                            t * static_cast<std::size_t>(L) + static_cast<std::size_t>(i0 + i));
                if (steps) keep(steps->dropped);
                MutStrided ctx(concat + (n * Lw + r0) * ld_concat + h * d, rows, d,
                               Stride(ld_concat));
                kernels::attention_context(isa, p, Sp, rows, live, packed_v.get() + packed * pv, d,
                                           ctx.data(), ld_concat);
                if (steps) MutMap(steps->context.ptr() + r0 * d, rows, d) = ctx;
                if (kept && p != kept && stream && head_total)  // one pass for both
                    kernels::stream_and_add_rows(isa, p + k0, Sp, rows, Cw, kept, Cw, head_total,
                                                 Cw, h > h0);
                else {
                    if (kept && p != kept)
                        kernels::store_rows(isa, p + k0, Sp, rows, Cw, 1.0f, kept, Cw, stream);
                    if (head_total)
                        kernels::add_rows(isa, p + k0, Sp, rows, Cw, head_total, Cw, h > h0);
                }
            }
            if (mean) kernels::store_rows(isa, head_total, Cw, rows, Cw, inv_h, mean, Cw, stream);
        }
    });
}

}  // namespace attnviz::layers
