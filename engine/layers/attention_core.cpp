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
#include "engine/kernels/softmax.h"
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

/// -sum p ln p over a row's weights (0 ln 0 = 0): a fully masked row's entropy, after its policy.
double entropy_of(const float* p, Index n) {
    double h = 0.0;
    for (Index j = 0; j < n; ++j)
        h -= p[j] > 0.0f || p[j] != p[j] ? double(p[j]) * std::log(double(p[j])) : 0.0;
    return h;
}

/// The softmax of one row in place over its first `keys` scores (the rest, a causal tail, is
/// left as it is) and, with `entropy`, the row's entropy from the same exp pass.  A fully masked
/// row is done again over all Sp keys (all -inf), for its policy.  True when it was.
bool row_softmax(float* row, Index keys, Index Sp, MaskedRowPolicy policy, double* entropy) {
    const auto n = static_cast<std::size_t>(keys);
    if (entropy ? kernels::softmax_entropy_row(row, row, n, entropy)
                : kernels::softmax_row(row, row, n))
        return false;
    std::fill(row, row + Sp, kNegInf);
    ops::softmax_rows(row, 1, static_cast<std::size_t>(Sp), policy);
    if (entropy) *entropy = entropy_of(row, Sp);
    return true;
}

/// Keys [from, to) of a causal row that were not computed: exactly 0 as exp(-inf) gives (NaN
/// when a NaN made the row NaN), so that a row's weights do not depend on its block.
void fill_causal_tail(float* row, Index from, Index to) {
    if (from < to)
        std::fill(row + from, row + to,
                  row[0] == row[0] ? 0.0f : std::numeric_limits<float>::quiet_NaN());
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

namespace {

/// Query heads [h0, h1) that attend() computes.
struct HeadRange {
    Index h0, h1;
};

HeadRange checked_heads(const ProjectedHeads& in, const AttendOptions& opt) {
    const Index h0 = opt.first_head, h1 = opt.last_head < 0 ? in.num_heads : opt.last_head;
    if (h0 < 0 || h1 > in.num_heads || h0 >= h1)
        throw std::invalid_argument("heads [" + std::to_string(h0) + ", " + std::to_string(h1) +
                                    ") are not among " + std::to_string(in.num_heads));
    return {h0, h1};
}

/// Every key/value head packed once for the kernels, and reused by every row block and every
/// query head of its group; only those of the heads computed, kv heads [g0, g0 + Hkv).
struct PackedKv {
    kernels::Isa isa{};
    Index group = 1, g0 = 0, Hkv = 0;
    std::size_t pk = 0, pv = 0;  ///< floats per packed head (no keys for additive scoring)
    std::unique_ptr<float[]> keys, values;

    /// Packed head of batch item n, kv head g.
    std::size_t index(Index n, Index g) const { return static_cast<std::size_t>(n * Hkv + g - g0); }
};

/// Packed head i (batch item i / Hkv, kv head g0 + i % Hkv): its keys (scaled dot products
/// only) and its values.
void pack_kv_head(const ProjectedHeads& in, PackedKv& kv, std::size_t i) {
    const Index d = in.head_dim, Sp = in.source_len;
    const Index n = static_cast<Index>(i) / kv.Hkv, g = kv.g0 + static_cast<Index>(i) % kv.Hkv;
    if (in.additive_v == nullptr)
        kernels::pack_keys(kv.isa, in.k + n * Sp * in.ldk + g * d, in.ldk, Sp, d,
                           kv.keys.get() + i * kv.pk);
    kernels::pack_values(kv.isa, in.v + n * Sp * in.ldv + g * d, in.ldv, Sp, d,
                         kv.values.get() + i * kv.pv);
}

PackedKv pack_kv_heads(const ProjectedHeads& in, HeadRange heads, int threads) {
    const Index N = in.batch, d = in.head_dim, Sp = in.source_len;
    const bool dot = in.additive_v == nullptr;
    PackedKv kv;
    kv.isa = kernels::best_isa();
    kv.group = in.num_kv_heads > 0 ? in.num_heads / in.num_kv_heads : 1;
    kv.g0 = heads.h0 / kv.group;
    kv.Hkv = (heads.h1 - 1) / kv.group + 1 - kv.g0;
    kv.pk = dot ? kernels::packed_keys_floats(kv.isa, Sp, d) : std::size_t{0};
    kv.pv = kernels::packed_values_floats(kv.isa, Sp, d);
    // Every float is written by the packing: no need to zero them first.
    kv.keys.reset(new float[static_cast<std::size_t>(N * kv.Hkv) * kv.pk]);
    kv.values.reset(new float[static_cast<std::size_t>(N * kv.Hkv) * kv.pv]);
    ops::parallel_for(static_cast<std::size_t>(N * kv.Hkv), threads,
                      [&](std::size_t i0, std::size_t i1) {
                          for (std::size_t i = i0; i < i1; ++i)
                              pack_kv_head(in, kv, i);
                      });
    return kv;
}

/// How the window's query rows are cut into work items, and where their weights are computed.
struct BlockLayout {
    Index rows_per_block = 1, blocks_per_item = 0;
    std::size_t blocks = 0;     ///< work items: (batch item, row block)
    bool stream = false;        ///< kept weights are streamed past the caches
    bool need_scratch = false;  ///< some head is computed in per-thread scratch
    bool causal_skip = false;   ///< keys after a block's last row are skipped

    /// With the causal skip a block's work grows with its rows' positions: blocks are taken
    /// first, last, second, second to last, ... so that each thread's contiguous share of them
    /// holds as much work as another's (a fixed order: the same thread count, the same sums).
    std::size_t block(std::size_t k) const {
        return !causal_skip ? k : k % 2 == 0 ? k / 2 : blocks - 1 - k / 2;
    }
};

/// What one call of attend() works from: its arguments, the heads it computes, the packed
/// keys and values, and its blocks.
struct AttendPass {
    const ProjectedHeads& in;
    const ops::MaskSpec& masks;
    const ResultWindow& win;
    const AttendOptions& opt;
    AttentionResult& result;
    float* concat;
    Index ld_concat;
    HeadRange heads;
    int threads;
    bool dot;
    PackedKv kv{};         ///< filled by pack_kv_heads()
    BlockLayout layout{};  ///< filled by block_layout()
};

BlockLayout block_layout(const AttendPass& a) {
    const Index N = a.in.batch, H = a.in.num_heads, Sp = a.in.source_len;
    const Index Lw = a.win.rows, Hk = a.win.heads, Cw = a.win.cols;
    BlockLayout b;
    // Query rows go in blocks small enough that a block's weights stay in cache from the
    // score product through mask, softmax, dropout, the product with V and the mean: each
    // weight is written to memory once.  A work item is (batch item, row block) with every head
    // inside it, so the mean over heads is summed where it is computed and no two threads ever
    // write the same rows.
    b.rows_per_block = rows_per_block(Lw, Sp, N, a.threads);
    // Weights larger than the caches are computed in per-thread scratch and streamed out with
    // non-temporal stores once a block is done (as is the mean, summed in scratch): memory sees
    // each written once and never read.  Smaller ones are computed in place and stay in cache
    // for whoever reads them next.  A head whose weights are not kept (or whose kept columns
    // are a window) is computed in scratch either way.
    b.stream = static_cast<double>(N * (Hk + 1) * Lw * Cw) * sizeof(float) >=
               static_cast<double>(kStreamBytes);
    b.need_scratch = b.stream || !a.opt.need_weights || Hk < H || !a.win.full_columns;
    b.blocks_per_item = (Lw + b.rows_per_block - 1) / b.rows_per_block;
    // A causal mask sets every key after a query to -inf whatever its score: the scores, the
    // softmax and the product with V stop at the last key a block's rows see (about half the
    // work of a causal model).  Not with bias_k or zero-attention columns (never masked, after
    // the keys), nor for the steps view, which shows every raw score.
    b.causal_skip = a.masks.causal && a.masks.extra_columns == 0 && a.dot && !a.result.steps;
    b.blocks = static_cast<std::size_t>(N * b.blocks_per_item);
    return b;
}

/// One work item: window rows [r0, r0 + rows) of batch item n, absolute rows from i0.
struct BlockRows {
    std::size_t slot;  ///< the observer's slot
    Index n, r0, i0, rows;
    /// Keys [live, Sp) are masked for every row (causal skip): their scores are neither
    /// computed nor masked, and their weights are written as 0 only where they are kept.
    Index live;
    float* scratch;     ///< rows x Sp of the thread's own, or null
    float* head_total;  ///< where the heads' kept columns are summed, or null
    double* entropy;    ///< [rows] for the observer, or null
};

/// The scores of head h for the block's rows into p (rows x Sp).
void compute_scores(const AttendPass& a, const BlockRows& blk, Index h, float* p) {
    const ProjectedHeads& in = a.in;
    const Index d = in.head_dim, Sp = in.source_len, rows = blk.rows, g = h / a.kv.group;
    const ConstStrided qh(in.q + (blk.n * a.win.rows + blk.r0) * in.ldq + h * d, rows, d,
                          Stride(in.ldq));
    if (a.dot) {  // q already carries the scale
        kernels::attention_scores(a.kv.isa, qh.data(), in.ldq, rows, d,
                                  a.kv.keys.get() + a.kv.index(blk.n, g) * a.kv.pk, blk.live, p,
                                  Sp);
        return;
    }
    MutMap scores(p, rows, Sp);
    const ConstStrided kh(in.k + blk.n * Sp * in.ldk + g * d, Sp, d, Stride(in.ldk));
    const float* w = in.additive_v + h * d;
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < Sp; ++j) {
            float sum = 0.0f;
            for (Index c = 0; c < d; ++c)
                sum += w[c] * std::tanh(qh(i, c) + kh(j, c));
            scores(i, j) = sum;
        }
}

/// The block's rows of p copied into a stage of the steps view.
void keep_stage(Tensor& stage, const float* p, const BlockRows& blk, Index Sp) {
    std::copy_n(p, static_cast<std::size_t>(blk.rows * Sp),
                stage.ptr() + static_cast<std::size_t>(blk.r0 * Sp));
}

/// The scores as the steps view shows them: scaled, and raw (without the scale q carries).
void keep_scores(const AttendPass& a, const BlockRows& blk, HeadSteps& steps, const float* p) {
    const Index Sp = a.in.source_len;
    keep_stage(steps.scaled, p, blk, Sp);
    keep_stage(steps.scores, p, blk, Sp);
    if (a.dot) {  // the raw q.k before the scale folded into q
        const auto cells = static_cast<std::size_t>(blk.rows * Sp);
        for (std::size_t c = 0; c < cells; ++c)
            steps.scores.data[static_cast<std::size_t>(blk.r0 * Sp) + c] /= a.in.score_scale;
    }
}

/// Where the block's rows of head t (batch item x head) record whether they were fully masked.
std::uint8_t* fully_masked_of(const AttendPass& a, const BlockRows& blk, std::size_t t) {
    return a.result.fully_masked_rows.data() + t * static_cast<std::size_t>(a.win.rows) +
           static_cast<std::size_t>(blk.r0);
}

/// The softmax of the block's rows of head t, recording fully masked rows (and the rows'
/// entropies for the observer).  With the causal skip, row i only over its own keys [0, i],
/// then zeros up to `live`, which the product with V reads; the keys after are left as they
/// are (RowBlock's causal tail).
void softmax_block(const AttendPass& a, const BlockRows& blk, std::size_t t, float* p) {
    const Index Sp = a.in.source_len;
    std::uint8_t* fully_masked = fully_masked_of(a, blk, t);
    for (Index i = 0; i < blk.rows; ++i) {
        float* row = p + i * Sp;
        const Index keys = a.layout.causal_skip ? std::min(Sp, blk.i0 + i + 1) : Sp;
        fully_masked[i] =
            row_softmax(row, keys, Sp, a.opt.masked_rows, blk.entropy ? blk.entropy + i : nullptr);
        if (!fully_masked[i]) fill_causal_tail(row, keys, blk.live);
    }
}

/// With the causal skip, the keys after the block's last one, [live, Sp), as 0 in rows that
/// were not fully masked: for the weights kept or summed, never for a statistics pass.
void fill_causal_tails(const AttendPass& a, const BlockRows& blk, std::size_t t, float* p) {
    const Index Sp = a.in.source_len;
    const std::uint8_t* fully_masked = fully_masked_of(a, blk, t);
    for (Index i = 0; i < blk.rows; ++i)
        if (!fully_masked[i]) fill_causal_tail(p + i * Sp, blk.live, Sp);
}

/// Dropout with one stream per (batch item, head, absolute query row): independent of
/// blocking and of the window.
void dropout_block(const AttendPass& a, const BlockRows& blk, std::size_t t, float* p) {
    const Index Sp = a.in.source_len;
    for (Index i = 0; i < blk.rows; ++i)
        ops::dropout_inplace(
            p + i * Sp, static_cast<std::size_t>(Sp), a.opt.dropout, a.opt.dropout_seed,
            t * static_cast<std::size_t>(a.in.target_len) + static_cast<std::size_t>(blk.i0 + i));
}

/// Head h's kept columns of p stored into its kept weights (when p is not them already) and
/// added to the block's sum over heads.
void store_weights(const AttendPass& a, const BlockRows& blk, Index h, const float* p,
                   float* kept) {
    const kernels::Isa isa = a.kv.isa;
    const Index Sp = a.in.source_len, Cw = a.win.cols, k0 = a.win.k0, rows = blk.rows;
    const bool stream = a.layout.stream, first = h == a.heads.h0;
    float* head_total = blk.head_total;
    if (kept && p != kept && stream && head_total) {  // one pass for both
        kernels::stream_and_add_rows(isa, p + k0, Sp, rows, Cw, kept, Cw, head_total, Cw, !first);
        return;
    }
    if (kept && p != kept) kernels::store_rows(isa, p + k0, Sp, rows, Cw, 1.0f, kept, Cw, stream);
    if (head_total) kernels::add_rows(isa, p + k0, Sp, rows, Cw, head_total, Cw, !first);
}

/// Head h over the block's rows: scores, masks, softmax, dropout, the product with V into
/// concat, and the weights kept and summed.
void attend_head(const AttendPass& a, const BlockRows& blk, Index h) {
    const Index Sp = a.in.source_len, d = a.in.head_dim, rows = blk.rows, r0 = blk.r0;
    const Index Lw = a.win.rows, Hk = a.win.heads;
    const auto t = static_cast<std::size_t>(blk.n * a.in.num_heads + h);
    const Index kh_index = h - a.heads.h0;  // among the kept heads
    const bool keep_head = a.opt.need_weights && kh_index < Hk;
    float* kept = keep_head
                      ? a.result.weights.ptr() + ((blk.n * Hk + kh_index) * Lw + r0) * a.win.cols
                      : nullptr;
    float* p = keep_head && a.win.full_columns && !a.layout.stream ? kept : blk.scratch;
    compute_scores(a, blk, h, p);
    HeadSteps* steps = a.result.steps ? &a.result.steps->heads[t] : nullptr;
    if (steps) keep_scores(a, blk, *steps, p);
    if (a.masks.any()) a.masks.apply(p, blk.n, h, blk.i0, rows, blk.live);
    if (steps) keep_stage(steps->masked, p, blk, Sp);
    softmax_block(a, blk, t, p);
    if (steps) keep_stage(steps->softmax, p, blk, Sp);
    if (a.opt.observer)
        (*a.opt.observer)(blk.slot, RowBlock{blk.n, h, blk.i0, rows, Sp, p, a.layout.causal_skip,
                                             fully_masked_of(a, blk, t), blk.entropy});
    if (a.layout.causal_skip && (kept || blk.head_total)) fill_causal_tails(a, blk, t, p);
    if (a.opt.dropout > 0.0f) dropout_block(a, blk, t, p);
    if (steps) keep_stage(steps->dropped, p, blk, Sp);
    MutStrided ctx(a.concat + (blk.n * Lw + r0) * a.ld_concat + h * d, rows, d,
                   Stride(a.ld_concat));
    kernels::attention_context(a.kv.isa, p, Sp, rows, blk.live,
                               a.kv.values.get() + a.kv.index(blk.n, h / a.kv.group) * a.kv.pv, d,
                               ctx.data(), a.ld_concat);
    if (steps) MutMap(steps->context.ptr() + r0 * d, rows, d) = ctx;
    store_weights(a, blk, h, p, kept);
}

/// Work item b (batch item, row block): every computed head, then their mean.
void attend_block(const AttendPass& a, std::size_t slot, std::size_t b, float* scratch,
                  float* head_sum, double* entropy) {
    const BlockLayout& l = a.layout;
    const Index Lw = a.win.rows, Cw = a.win.cols, Sp = a.in.source_len;
    const Index n = static_cast<Index>(b) / l.blocks_per_item;
    const Index r0 = (static_cast<Index>(b) % l.blocks_per_item) * l.rows_per_block;  // in window
    const Index i0 = a.win.q0 + r0;                                                   // absolute
    const Index rows = std::min(l.rows_per_block, Lw - r0);
    const Index live = l.causal_skip ? std::min(Sp, i0 + rows) : Sp;
    float* mean = a.opt.need_weights ? a.result.mean_weights.ptr() + (n * Lw + r0) * Cw : nullptr;
    const BlockRows blk{slot, n, r0, i0, rows, live, scratch, l.stream ? head_sum : mean, entropy};
    for (Index h = a.heads.h0; h < a.heads.h1; ++h)
        attend_head(a, blk, h);
    if (mean) {
        const float inv_h = 1.0f / static_cast<float>(a.heads.h1 - a.heads.h0);
        kernels::store_rows(a.kv.isa, blk.head_total, Cw, rows, Cw, inv_h, mean, Cw, l.stream);
    }
}

}  // namespace

void attend(const ProjectedHeads& in, const ops::MaskSpec& masks, const ResultWindow& win,
            const AttendOptions& opt, AttentionResult& result, float* concat, Index ld_concat) {
    const HeadRange heads = checked_heads(in, opt);
    const Index N = in.batch, Lw = win.rows, Cw = win.cols, Hk = win.heads;
    result.source_length = in.source_len;
    if (opt.need_weights) {
        if (Hk > 0) result.weights = take_tensor({N, Hk, Lw, Cw});
        result.mean_weights = take_tensor({N, Lw, Cw});
    }
    result.fully_masked_rows.assign(static_cast<std::size_t>(N * in.num_heads * Lw), 0);

    const int threads = std::max(1, opt.num_threads);
    const bool dot = in.additive_v == nullptr;
    AttendPass a{in, masks, win, opt, result, concat, ld_concat, heads, threads, dot};
    a.kv = pack_kv_heads(in, heads, a.threads);
    a.layout = block_layout(a);
    const Index rpb = a.layout.rows_per_block;
    ops::parallel_chunks(
        a.layout.blocks, a.threads, [&](std::size_t slot, std::size_t b0, std::size_t b1) {
            // Written before they are read: no need to zero them.
            std::unique_ptr<float[]> scratch, head_sum;
            std::unique_ptr<double[]> entropy;
            if (a.layout.need_scratch)
                scratch.reset(new float[static_cast<std::size_t>(rpb * in.source_len)]);
            if (a.layout.stream && opt.need_weights)
                head_sum.reset(new float[static_cast<std::size_t>(rpb * Cw)]);
            if (opt.observer) entropy.reset(new double[static_cast<std::size_t>(rpb)]);
            for (std::size_t k = b0; k < b1; ++k)
                attend_block(a, slot, a.layout.block(k), scratch.get(), head_sum.get(),
                             entropy.get());
        });
}

}  // namespace attnviz::layers
