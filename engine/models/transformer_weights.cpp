// Reading a transformer's weights (transformer_weights.h): the names found and checked when the
// model opens, then each tensor converted to float32 (kept, or streamed a block at a time).
#include "engine/models/transformer_weights.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "engine/budget/memory_budget.h"
#include "engine/buffers.h"
#include "engine/errors.h"
#include "engine/kernels/gemm_bf16.h"
#include "engine/ops/parallel.h"

namespace attnviz::models::detail {

namespace {

/// Rows of a streamed [out, in] matrix converted and multiplied at a time: about 8 MB, in the
/// last-level cache when they are multiplied, and at least 256 so that repacking the
/// activations for each block costs little.
Index stream_block_rows(Index in) {
    return std::max<Index>(256, ((Index{8} << 20) / (4 * std::max<Index>(in, 1))) / 64 * 64);
}

/// Rows a streamed F16/BF16 matrix is multiplied as stored for, at most
/// (kernels::row_products_rows).  On Llama-3-8B's shapes the tiles ran at 2.5-2.8× the
/// convert-and-sgemm path at 16 rows, 1.3× at 128, 1.2× at 512 and 0.99-1.04× at 2048
/// (docs/benchmarks.md, "Streamed products"); beyond, sgemm's efficiency on many rows
/// outweighs the conversion.
constexpr Index kStoredProductMaxRows = 2048;

/// ATTNVIZ_STREAM_PRODUCTS=convert: streamed F16/BF16 matrices converted a block at a time as
/// before row_products_rows, for A/B benchmarks in one build.  Decided once.
bool stored_products_allowed() {
    static const bool allowed = [] {
        const char* env = std::getenv("ATTNVIZ_STREAM_PRODUCTS");
        return !(env && std::string_view(env) == "convert");
    }();
    return allowed;
}

/// The stored formats stored_product() multiplies as stored.
bool multiplied_as_stored(kernels::RowFormat f) {
    return f == kernels::RowFormat::F16 || f == kernels::RowFormat::BF16;
}

/// Calls use(format, first row, row bytes, order, count, stack row) for the stored rows of each
/// stacked tensor (q, k and v; gate and up) among rows [a, e) of the stack: `count` rows from
/// stack row `stack row` on, as row_products and row_products_rows read them.
template <class Use>
void each_stored_part(const WeightLayout& l, const std::vector<io::StoredRows>& parts,
                      std::size_t a, std::size_t e, Use&& use) {
    for (std::size_t t = 0; t < parts.size(); ++t) {
        const Index r0 = l.offsets[t], r1 = t + 1 < parts.size() ? l.offsets[t + 1] : l.rows;
        const Index lo = std::max(r0, static_cast<Index>(a));
        const Index hi = std::min(r1, static_cast<Index>(e));
        if (lo >= hi) continue;
        const io::StoredRows& p = parts[t];
        const Index i0 = lo - r0;
        use(p.format, p.order ? p.data : p.data + static_cast<std::size_t>(i0) * p.row_bytes,
            p.row_bytes, p.order ? p.order + i0 : nullptr, hi - lo, lo);
    }
}

/// Output rows of a product read as stored that a thread takes at a time
/// (ops::parallel_for_balanced): about 256 KiB of the widest part's rows, in whole groups of
/// the four rows the kernels multiply together, so a block's start costs its prefetches little.
std::size_t balanced_rows(const std::vector<io::StoredRows>& parts) {
    std::size_t row_bytes = 1;
    for (const io::StoredRows& p : parts)
        row_bytes = std::max(row_bytes, p.row_bytes);
    return std::max<std::size_t>(16, (std::size_t{256} << 10) / row_bytes / 4 * 4);
}

/// Output rows of a multi-row product read as stored (row_products_rows) that a thread takes
/// at a time.  Each block packs the activations again, a cost of rows × k whatever the block's
/// width, so blocks are 512 rows wide, yet at least two a thread, so that a thread that another
/// process holds up still leaves work to the other.  Llama-3-8B's shapes, 98 tokens, 2 threads
/// (`attnviz bench --model`): blocks of balanced_rows' 32 rows 142 GFLOP/s (the packing 22% of
/// the samples), 256 and 512 rows 182-184, 1,024 176, 2,048 164.
std::size_t balanced_rows_of_rows(const std::vector<io::StoredRows>& parts, Index out,
                                  int threads) {
    const auto share =
        static_cast<std::size_t>(out) / (2 * static_cast<std::size_t>(std::max(threads, 1)));
    return std::max(balanced_rows(parts), std::min<std::size_t>(512, (share + 3) / 4 * 4));
}

/// ATTNVIZ_WEIGHT_CACHE, else the default memory budget: the weights are converted once and
/// kept when they fit in it, as a small model's always have been.
std::size_t default_weight_cache_bytes() {
    const std::uint64_t memory = budget::usable_memory_bytes();
    if (const char* env = std::getenv(kWeightCacheEnvironmentVariable); env && *env) {
        if (std::string_view(env) == "0") return 0;
        try {
            return static_cast<std::size_t>(budget::parse_memory_size(env, memory));
        } catch (const std::invalid_argument&) {
            // not a size: the budget decides, as for a variable that is not set
        }
    }
    // The app's own rule: ATTNVIZ_MEMORY_BUDGET when it is a size, else the default.
    return static_cast<std::size_t>(budget::resolve_app_budget("").bytes);
}

}  // namespace

TransformerWeights::TransformerWeights(ModelConfig config, io::WeightStore store,
                                       std::string source)
    : config_(std::move(config)), store_(std::move(store)), source_(std::move(source)) {
    find_prefix();
    check_every_shape();
    find_lm_head();
    rows_readable_ = every_matrix_rows_readable();
    layers_.resize(static_cast<std::size_t>(config_.num_layers));
    cache_limit_ = default_weight_cache_bytes();
    quantized_ = store_.quantized();
}

bool TransformerWeights::every_matrix_rows_readable() const {
    for (Index i = 0; i < config_.num_layers; ++i)
        for (const auto& tensors : layer_tensors(layer_params(config_, i))) {
            if (!is_matrix(tensors)) continue;
            const WeightLayout l = layout(tensors, true);
            if (l.conv1d) return false;
            for (const std::string& name : l.names)
                if (!store_.stored_rows(name)) return false;
        }
    return lm_head_ != LmHeadKind::Causal || store_.stored_rows(unembed_name()).has_value();
}

void TransformerWeights::set_cache_bytes(std::size_t bytes) {
    cache_limit_.store(bytes);
    // Streaming from now on: the converted layers go (a running pass keeps its own).
    if (stream_by_default()) drop_kept_layers();
}

bool TransformerWeights::begin_pass(std::optional<std::size_t> limit) const {
    const bool stream = quantized_ || weight_bytes() > limit.value_or(cache_limit_.load());
    if (stream) drop_kept_layers();
    streamed_since_kept_ = stream;
    return stream;
}

void TransformerWeights::drop_kept_layers() const {
    std::lock_guard lock(load_mutex_);
    for (auto& slot : layers_)
        slot.reset();
}

/// The stored name of a parameter: the family's name under the file's prefix, or the
/// old "gamma"/"beta" spelling of a LayerNorm's weight/bias.
std::optional<std::string> TransformerWeights::resolve(const std::string& name) const {
    return resolve_full(prefix_ + name);
}

/// A name at the file's top level (a head's: lm_head.*, cls.*), with the same aliases.
std::optional<std::string> TransformerWeights::resolve_full(const std::string& full) const {
    if (store_.find(full)) return full;
    auto alias = [&](const char* from, const char* to) -> std::optional<std::string> {
        const std::string f(from);
        if (full.size() > f.size() && full.compare(full.size() - f.size(), f.size(), f) == 0) {
            std::string a = full.substr(0, full.size() - f.size()) + to;
            if (store_.find(a)) return a;
        }
        return std::nullopt;
    };
    if (auto a = alias(".weight", ".gamma")) return a;
    if (auto a = alias(".bias", ".beta")) return a;
    return std::nullopt;
}

void TransformerWeights::find_prefix() {
    const std::string word = global_params(config_).word.name;
    for (const char* p : {"", "bert.", "roberta.", "distilbert.", "transformer.", "model."})
        if (store_.find(std::string(p) + word)) {
            prefix_ = p;
            return;
        }
    throw DataError(source_ + ": the weights have no " + word +
                    " (with or without a bert./roberta./distilbert./transformer./model. "
                    "prefix), so they are not a " +
                    config_.display_name() + " checkpoint as config.json says");
}

void TransformerWeights::check(const Param& p) const {
    if (p.name.empty()) return;
    const auto name = p.top_level ? resolve_full(p.name) : resolve(p.name);
    if (!name) {
        if (p.optional) return;
        throw DataError(source_ + ": tensor '" + prefix_ + p.name +
                        "' is missing (config.json: " + config_.display_name() + " with " +
                        std::to_string(config_.num_layers) + " layers)");
    }
    const io::TensorEntry* e = store_.find(*name);
    if (e->shape != p.shape)
        throw DataError(source_ + ": tensor '" + *name + "' in " + e->file + " is " +
                        shape_string(e->shape) + " but config.json (" + describe_config(config_) +
                        ") needs " + shape_string(p.shape));
}

/// Which head the file holds, its shapes checked against config.json like the layers'.
void TransformerWeights::find_lm_head() {
    if (config_.causal()) {
        lm_head_ = LmHeadKind::Causal;
        Param lm = {"lm_head.weight", {config_.vocab_size, config_.hidden_size}};
        lm.top_level = true;
        if (!config_.tie_word_embeddings && store_.find(lm.name)) {
            check(lm);
            head_params_.decoder = lm;
        }
        return;
    }
    HeadParams h = masked_head_params(config_);
    if (!resolve_full(h.dense_w.name)) {
        lm_head_missing_ =
            source_ + ": this " + config_.display_name() + " checkpoint has no masked-LM head (" +
            h.names + ")" +
            (config_.architecture.empty() ? std::string()
                                          : ": it is a bare " + config_.architecture) +
            "; predictions need it saved with its head (" + h.with_head +
            "); its attention still opens";
        return;
    }
    for (const Param* p : {&h.dense_w, &h.dense_b, &h.norm_w, &h.norm_b})
        check(*p);
    if (resolve_full(h.decoder.name))
        check(h.decoder);
    else
        h.decoder.name.clear();  // tied to the word embeddings, as save_pretrained leaves it
    for (const std::string& b : h.bias_names)
        if (store_.find(b)) {
            h.bias.name = b;
            check(h.bias);
            break;
        }
    head_params_ = std::move(h);
    lm_head_ = LmHeadKind::Masked;
}

void TransformerWeights::check_every_shape() const {
    const GlobalParams g = global_params(config_);
    for (const Param* p : {&g.word, &g.position, &g.token_type, &g.emb_norm_w, &g.emb_norm_b,
                           &g.final_norm_w, &g.final_norm_b})
        check(*p);
    for (Index i = 0; i < config_.num_layers; ++i) {
        for (const auto& tensors : layer_tensors(layer_params(config_, i)))
            for (const Param& p : tensors)
                check(p);
    }
}

/// The stored tensors of `params`, stacked along their first dimension: q, k and v become
/// one projection (one matrix product instead of three), gate and up one MLP input.
/// as_stored: an [out, in] matrix stays so (the unembedding: each vocabulary row is read
/// whole, and a 151,936-wide [in, out] copy would make every row of B a page apart).
WeightLayout TransformerWeights::layout(const std::vector<Param>& params, bool as_stored) const {
    WeightLayout l;
    for (const Param& p : params) {
        if (p.name.empty()) continue;
        const auto name = p.top_level ? resolve_full(p.name) : resolve(p.name);
        if (!name) continue;
        const io::TensorEntry* e = store_.find(*name);
        l.offsets.push_back(l.rows);
        l.rows += e->shape[0];
        l.cols = e->shape.size() > 1 ? e->shape[1] : 1;
        l.conv1d = p.conv1d;
        l.names.push_back(*name);
    }
    // Stored [in, out]: oneDNN's sgemm runs 15-25% faster on a BERT layer's products with
    // the weight in this layout than used transposed (bench/gemm_bench).
    l.transpose = !l.conv1d && l.cols > 1 && !as_stored;
    return l;
}

/// Converts `l` into `w`, reusing w.owned when it has the size already (a streamed layer
/// has its predecessor's shapes): every value is written, nothing is zeroed.  The rows are
/// shared among `threads` threads.
void TransformerWeights::materialise(const WeightLayout& l, Weight& w, int threads) const {
    std::vector<float> buffer = std::move(w.owned);
    w = Weight();
    w.owned = std::move(buffer);
    if (l.empty()) {
        w.owned.clear();
        return;
    }
    const std::size_t n = shape_numel({l.rows, l.cols});
    if (w.owned.size() != n) {
        if (!w.owned.empty()) release_buffer(w.owned);
        w.owned = take_buffer(n);
    }
    w.rows = l.transpose ? l.cols : l.rows;
    w.cols = l.transpose ? l.rows : l.cols;
    w.in_out = l.conv1d || l.transpose;
    float* dst = w.owned.data();
    for (std::size_t t = 0; t < l.names.size(); ++t) {
        const Index r0 = l.offsets[t];
        const Index r1 = t + 1 < l.names.size() ? l.offsets[t + 1] : l.rows;
        const bool matrix = store_.find(l.names[t])->shape.size() == 2;
        ops::parallel_for(
            static_cast<std::size_t>(matrix ? r1 - r0 : 1), threads,
            [&](std::size_t a, std::size_t b) {
                const auto i0 = static_cast<Index>(a), i1 = static_cast<Index>(b);
                if (!matrix)  // a vector: its rows of the stack are its values
                    store_.load_block(l.names[t], 0, 1, dst + r0);
                else if (l.transpose)
                    store_.load_block(l.names[t], i0, i1, dst + r0 + i0, l.rows, true);
                else
                    store_.load_block(l.names[t], i0, i1, dst + (r0 + i0) * l.cols, l.cols);
            });
    }
    w.ptr = w.owned.data();
}

Weight TransformerWeights::load(const Param& p, bool as_stored) const {
    Weight w;
    materialise(layout({p}, as_stored), w, 1);
    return w;
}

Tensor TransformerWeights::as_linear(const std::vector<Param>& tensors) const {
    const WeightLayout l = layout(tensors, true);
    if (l.empty()) return {};
    Weight w;
    materialise(l, w, 1);
    if (!is_matrix(tensors)) return Tensor({l.rows}, std::move(w.owned));
    if (!w.in_out) return Tensor({l.rows, l.cols}, std::move(w.owned));
    // Stored [in, out] (GPT-2's Conv1D): written out as [out, in], in tiles that stay in the
    // cache (element by element, every write is a cache miss: 30 ms for GPT-2 small's c_attn).
    Tensor out({l.cols, l.rows});
    constexpr Index kTile = 32;
    for (Index i0 = 0; i0 < l.rows; i0 += kTile)
        for (Index o0 = 0; o0 < l.cols; o0 += kTile)
            for (Index i = i0; i < std::min(i0 + kTile, l.rows); ++i)
                for (Index o = o0; o < std::min(o0 + kTile, l.cols); ++o)
                    out.ptr()[o * l.rows + i] = w.owned[i * l.cols + o];
    return out;
}

const GlobalWeights& TransformerWeights::globals() const {
    std::call_once(globals_once_, [&] {
        const GlobalParams g = global_params(config_);
        globals_.emb_norm_w = load(g.emb_norm_w);
        globals_.emb_norm_b = load(g.emb_norm_b);
        globals_.final_norm_w = load(g.final_norm_w);
        globals_.final_norm_b = load(g.final_norm_b);
    });
    return globals_;
}

void TransformerWeights::lookup(const Param& p, const std::vector<Index>& ids, float* out,
                                bool add) const {
    if (p.name.empty()) return;
    for (std::size_t t = 0; t < ids.size(); ++t)
        if (ids[t] < 0 || ids[t] >= p.shape[0])
            throw std::invalid_argument(
                "token " + std::to_string(t) + " has " +
                (p.name == global_params(config_).word.name
                     ? "id " + std::to_string(ids[t]) + ", outside the vocabulary of " +
                           std::to_string(p.shape[0]) + " embeddings"
                     : "row " + std::to_string(ids[t]) + ", outside the " +
                           std::to_string(p.shape[0]) + " rows of " + p.name));
    if (!add) {
        store_.load_rows(*resolve(p.name), ids, out);
        return;
    }
    std::vector<float> rows(ids.size() * static_cast<std::size_t>(config_.hidden_size));
    store_.load_rows(*resolve(p.name), ids, rows.data());
    ops::add_inplace(out, rows.data(), rows.size());
}

/// Starts reading layer i's tensors from the disk (they are in the page cache when warm).
void TransformerWeights::prefetch_layer(Index i) const {
    for (const auto& tensors : layer_tensors(layer_params(config_, i)))
        if (is_matrix(tensors))
            for (const Param& q : tensors)
                if (const auto name = resolve(q.name)) store_.prefetch(*name);
}

/// A matrix left in the file: product() converts it a block at a time.  GPT-2's Conv1D
/// weights ([in, out]: a block of outputs is not a block of rows) are converted whole.
void TransformerWeights::stream_matrix(const WeightLayout& l, Weight& w, int threads) const {
    if (l.empty() || l.conv1d || l.cols <= 1) {
        materialise(l, w, threads);
        return;
    }
    release_buffer(w.owned);
    w = Weight();
    w.rows = l.rows;
    w.cols = l.cols;
    auto source = std::make_shared<WeightLayout>(l);
    source->transpose = false;
    w.source = std::move(source);
}

/// Converts layer i's weights into `w` (its buffers reused when they have the sizes).
void TransformerWeights::materialise_layer(Index i, LayerWeights& w, bool stream,
                                           int threads) const {
    const auto tensors = layer_tensors(layer_params(config_, i));
    for (std::size_t k = 0; k < kLayerWeightCount; ++k) {
        Weight& out = w.*kLayerWeights[k];
        const bool matrix = is_matrix(tensors[k]);
        if (matrix && stream)  // left in the file, converted as it is multiplied
            stream_matrix(layout(tensors[k]), out, threads);
        else
            materialise(layout(tensors[k]), out, matrix ? threads : 1);
    }
}

const LayerWeights& TransformerWeights::layer(Index i, bool stream, WeightScratch& scratch,
                                              int threads) const {
    // Generation reads the matrices as stored and keeps no float32 copy for it (the copy would
    // double what the model holds, and cost the first step seconds); the prompt's step
    // converts them a block at a time as a streamed pass does, whether or not a pass has kept
    // them, so that a generation gives the same bits whatever ran before it.
    if (stream || (scratch.generating && rows_readable_)) {
        scratch.held.reset();
        materialise_layer(i, scratch.stream, true, threads);
        // Read the next layer while this one runs; a generation step's pages are those the
        // prompt's pass has just read (and asking again walks every page of the layer).
        if (i + 1 < config_.num_layers && !scratch.row_products) prefetch_layer(i + 1);
        return scratch.stream;
    }
    std::lock_guard lock(load_mutex_);
    auto& slot = layers_[static_cast<std::size_t>(i)];
    if (!slot) {
        auto w = std::make_shared<LayerWeights>();
        materialise_layer(i, *w, false, threads);
        slot = std::move(w);
    }
    scratch.held = slot;
    return *slot;
}

void TransformerWeights::release_stream(WeightScratch& scratch) {
    for (Weight LayerWeights::*member : kLayerWeights)
        release_buffer((scratch.stream.*member).owned);
    scratch.held.reset();
}

std::string TransformerWeights::unembed_name() const {
    const std::string& d = head_params_.decoder.name;
    if (!d.empty()) return head_params_.decoder.top_level ? *resolve_full(d) : *resolve(d);
    return *resolve(global_params(config_).word.name);
}

const HeadWeights& TransformerWeights::head() const {
    std::call_once(head_once_, [&] {
        head_.dense_w = load(head_params_.dense_w);
        head_.dense_b = load(head_params_.dense_b);
        head_.norm_w = load(head_params_.norm_w);
        head_.norm_b = load(head_params_.norm_b);
        const Param tied = {global_params(config_).word.name,
                            {config_.vocab_size, config_.hidden_size}};
        // Streamed weights leave the unembedding in the file: logits() converts it a block
        // of the vocabulary at a time (a 128,256-token head is 2 GB in float32).
        if (!stream_by_default() && !streamed_since_kept_.load())
            head_.unembed =
                load(head_params_.decoder.name.empty() ? tied : head_params_.decoder, true);
        head_.bias = load(head_params_.bias);
    });
    return head_;
}

void TransformerWeights::product(const float* x, Index rows, Index in, const Weight& w,
                                 const Weight& b, Index out, float* y, int threads,
                                 WeightScratch& scratch, Index ldx, Index ldy) const {
    if (rows == 1 && scratch.row_products && row_product(x, in, w, b, out, y, threads, scratch))
        return;
    if (!w.streamed()) {
        ops::linear(x, rows, in, w.ptr, b.ptr, out, y, threads, ldx, ldy, w.in_out);
        return;
    }
    const WeightLayout& l = *w.source;
    if (ldy == 0) ldy = out;
    if (ldx == 0) ldx = in;
    if (bf16_product(x, rows, in, l, b, y, threads, scratch, ldx, ldy)) return;
    if (stored_product(x, rows, in, l, b, y, threads, ldx, ldy)) return;
    stream_blocks(l, in, threads, scratch, [&](Index n0, Index n, const float* buf) {
        ops::linear(x, rows, in, buf, b.empty() ? nullptr : b.ptr + n0, n, y + n0, threads, ldx,
                    ldy, false);
    });
}

void TransformerWeights::stream_blocks(
    const WeightLayout& l, Index in, int threads, WeightScratch& scratch,
    const std::function<void(Index, Index, const float*)>& use) const {
    const Index block = stream_block_rows(in);
    const auto size = static_cast<std::size_t>(std::min(block, l.rows) * in);
    if (scratch.block.size() < size) {
        release_buffer(scratch.block);
        scratch.block = take_buffer(size);
    }
    float* buf = scratch.block.data();
    for (std::size_t t = 0; t < l.names.size(); ++t) {
        const Index r0 = l.offsets[t];
        const Index r1 = t + 1 < l.names.size() ? l.offsets[t + 1] : l.rows;
        for (Index n0 = r0; n0 < r1; n0 += block) {
            const Index n = std::min(block, r1 - n0);
            ops::parallel_for(static_cast<std::size_t>(n), threads,
                              [&](std::size_t a, std::size_t e) {
                                  store_.load_block(l.names[t], n0 - r0 + static_cast<Index>(a),
                                                    n0 - r0 + static_cast<Index>(e),
                                                    buf + static_cast<Index>(a) * in, in);
                              });
            use(n0, n, buf);
        }
    }
}

void TransformerWeights::input_gradient(const float* dy, Index rows, Index out, const Weight& w,
                                        Index in, float* dx, int threads, WeightScratch& scratch,
                                        bool accumulate) const {
    if (!w.streamed()) {
        ops::linear_input_gradient(dy, rows, out, w.ptr, in, dx, threads, w.in_out, accumulate);
        return;
    }
    // dx += dy[:, block] · w[block, :], block by block as product() converts them.
    bool add = accumulate;
    stream_blocks(*w.source, in, threads, scratch, [&](Index n0, Index n, const float* buf) {
        ops::linear_input_gradient(dy + n0, rows, n, buf, in, dx, threads, false, add, out, in);
        add = true;
    });
}

bool TransformerWeights::bf16_product(const float* x, Index rows, Index in, const WeightLayout& l,
                                      const Weight& b, float* y, int threads,
                                      WeightScratch& scratch, Index ldx, Index ldy) const {
    if (rows == 0 || rows > kernels::kBf16MaxRows || !kernels::bf16_products()) return false;
    for (const std::string& name : l.names)
        if (!store_.bf16_rows(name, 0, 0)) return false;
    // Output rows per call: about 1 MB of weights, read from the mapping once.
    const Index nb =
        std::clamp<Index>(((Index{1} << 19) / std::max<Index>(in, 1)) / 64 * 64, 64, 512);
    const std::size_t slots = ops::chunk_count(static_cast<std::size_t>(l.rows), threads);
    if (scratch.partials.size() < slots) scratch.partials.resize(slots);
    for (auto& p : scratch.partials)
        p.resize(std::max(p.size(), kernels::gemm_bf16_scratch(rows, nb)));
    const Index plane = rows * in;
    scratch.parts.resize(static_cast<std::size_t>(3 * plane));
    std::uint16_t* parts = scratch.parts.data();
    ops::parallel_for(static_cast<std::size_t>(rows), threads, [&](std::size_t a, std::size_t e) {
        const auto i0 = static_cast<Index>(a);
        kernels::split_bf16(x + i0 * ldx, static_cast<Index>(e) - i0, in, ldx, parts + i0 * in,
                            plane);
    });
    for (std::size_t t = 0; t < l.names.size(); ++t) {
        const Index r0 = l.offsets[t];
        const Index r1 = t + 1 < l.names.size() ? l.offsets[t + 1] : l.rows;
        ops::parallel_chunks(static_cast<std::size_t>(r1 - r0), threads,
                             [&](std::size_t slot, std::size_t a, std::size_t e) {
                                 float* partial = scratch.partials[slot].data();
                                 const auto end = static_cast<Index>(e);
                                 for (auto n0 = static_cast<Index>(a); n0 < end; n0 += nb) {
                                     const Index n = std::min(nb, end - n0);
                                     kernels::gemm_bf16(parts, plane, rows, in,
                                                        store_.bf16_rows(l.names[t], n0, n0 + n), n,
                                                        in, b.empty() ? nullptr : b.ptr + r0 + n0,
                                                        y + r0 + n0, ldy, partial);
                                 }
                             });
    }
    return true;
}

std::optional<std::vector<io::StoredRows>> TransformerWeights::stored_parts(
    const WeightLayout& l) const {
    std::vector<io::StoredRows> parts;
    parts.reserve(l.names.size());
    for (const std::string& name : l.names) {
        const auto r = store_.stored_rows(name);
        if (!r) return std::nullopt;
        parts.push_back(*r);
    }
    return parts;
}

bool TransformerWeights::stored_product(const float* x, Index rows, Index in, const WeightLayout& l,
                                        const Weight& b, float* y, int threads, Index ldx,
                                        Index ldy) const {
    if (rows == 0 || rows > kStoredProductMaxRows || l.conv1d || l.cols != in ||
        !stored_products_allowed())
        return false;
    const auto parts = stored_parts(l);
    if (!parts || !std::all_of(parts->begin(), parts->end(), [](const io::StoredRows& p) {
            return multiplied_as_stored(p.format);
        }))
        return false;
    // The threads take blocks of the stacked output rows: a block's results do not depend on
    // where it is cut (row_products.h).
    const Index out = l.rows;
    ops::parallel_for_balanced(
        static_cast<std::size_t>(out), threads, balanced_rows_of_rows(*parts, out, threads),
        [&](std::size_t a, std::size_t e) {
            each_stored_part(l, *parts, a, e,
                             [&](kernels::RowFormat f, const std::byte* base, std::size_t row_bytes,
                                 const std::int64_t* order, Index n, Index lo) {
                                 kernels::row_products_rows(f, base, row_bytes, order, n, x, rows,
                                                            ldx, in, y + lo, ldy);
                             });
            if (b.ptr)
                for (Index r = 0; r < rows; ++r)
                    for (auto j = static_cast<Index>(a); j < static_cast<Index>(e); ++j)
                        y[r * ldy + j] += b.ptr[j];
        });
    check_result(l, y, rows, out, ldy);
    return true;
}

bool TransformerWeights::row_product(const float* x, Index in, const Weight& w, const Weight& b,
                                     Index out, float* y, int threads,
                                     WeightScratch& scratch) const {
    // A generation streams its layers (scratch.generating): every matrix it reads as stored
    // is a streamed one, whose source lists its tensors [out, in].
    const WeightLayout* l = w.source.get();
    if (!l || l->conv1d || l->cols != in || l->rows != out) return false;
    const auto parts = stored_parts(*l);
    if (!parts) return false;
    kernels::RowInput& input = scratch.row_input;
    input.reset(x, in);
    for (const io::StoredRows& p : *parts)
        input.prepare(p.format);
    // One pass over the stacked rows (q, k and v; gate and up), shared among the threads in
    // blocks, so a thread whose core is also drawing the window (a generation's step) leaves
    // more of them to the other.
    ops::parallel_for_balanced(
        static_cast<std::size_t>(out), threads, balanced_rows(*parts),
        [&](std::size_t a, std::size_t e) {
            each_stored_part(*l, *parts, a, e,
                             [&](kernels::RowFormat f, const std::byte* base, std::size_t row_bytes,
                                 const std::int64_t* order, Index n, Index lo) {
                                 kernels::row_products(f, base, row_bytes, order, n, input, y + lo);
                             });
            if (b.ptr)
                for (std::size_t i = a; i < e; ++i)
                    y[i] += b.ptr[i];
        });
    check_result(*l, y, 1, out, out);
    return true;
}

void TransformerWeights::check_result(const WeightLayout& l, const float* y, Index rows, Index out,
                                      Index ldy) const {
    // The weights were read as stored, never converted, so never checked: a weight that is not
    // finite (a NaN scale in a GGUF block, say) shows in the result, and converting the rows
    // names it, as any other pass would (DataError).  A non-finite activation, not the weights,
    // leaves the result as a float32 product would.
    for (Index r = 0; r < rows; ++r)
        if (!std::all_of(y + r * ldy, y + r * ldy + out,
                         [](float v) { return std::isfinite(v); })) {
            check_rows(l);
            return;
        }
}

void TransformerWeights::check_rows(const WeightLayout& l) const {
    constexpr Index kRows = 256;
    std::vector<float> buf(static_cast<std::size_t>(kRows * l.cols));
    for (std::size_t t = 0; t < l.names.size(); ++t) {
        const Index n = store_.find(l.names[t])->shape[0];
        for (Index r = 0; r < n; r += kRows)
            store_.load_block(l.names[t], r, std::min(n, r + kRows), buf.data(), l.cols);
    }
}

std::size_t TransformerWeights::weight_bytes() const {
    return static_cast<std::size_t>(store_.parameter_count()) * sizeof(float);
}

std::size_t TransformerWeights::streaming_weight_bytes() const {
    // A layer's vectors (norms, biases) and GPT-2's Conv1D matrices, converted whole; one
    // block of the largest other matrix; the global norms; a block of the unembedding.
    std::uint64_t values = 0, block = 0, widest = 0;
    const LayerParams l = layer_params(config_, 0);
    const auto count = [&](const std::vector<Param>& list) {
        std::uint64_t rows = 0, cols = 1;
        bool conv1d = false;
        for (const Param& p : list) {
            if (p.name.empty() || (p.optional && !resolve(p.name))) continue;
            rows += static_cast<std::uint64_t>(p.shape[0]);
            cols = p.shape.size() > 1 ? static_cast<std::uint64_t>(p.shape[1]) : 1;
            conv1d = p.conv1d;
        }
        if (cols == 1 || conv1d) {
            values += rows * cols;
        } else {
            const auto in = static_cast<Index>(cols);
            widest = std::max(widest, cols);
            block = std::max(block, std::min<std::uint64_t>(
                                        rows, static_cast<std::uint64_t>(stream_block_rows(in))) *
                                        cols);
        }
    };
    for (const auto& tensors : layer_tensors(l))
        count(tensors);
    const GlobalParams g = global_params(config_);
    for (const Param* p : {&g.emb_norm_w, &g.emb_norm_b, &g.final_norm_w, &g.final_norm_b})
        count({*p});
    const auto E = static_cast<std::uint64_t>(config_.hidden_size);  // the unembedding's block
    block =
        std::max(block, std::min<std::uint64_t>(
                            static_cast<std::uint64_t>(config_.vocab_size),
                            static_cast<std::uint64_t>(stream_block_rows(config_.hidden_size))) *
                            E);
    widest = std::max(widest, E);
    values += block;
    std::uint64_t bytes = values * sizeof(float);
    const auto q = resolve(l.qkv_w.front().name);
    const std::uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
    if (q && store_.bf16_rows(*q, 0, 0) && kernels::bf16_products())
        // bf16_product's split activations and partial products
        bytes += 3 * static_cast<std::uint64_t>(kernels::kBf16MaxRows) * widest * 2 +
                 cores * kernels::gemm_bf16_scratch(kernels::kBf16MaxRows, 512) * sizeof(float);
    const auto stored = q ? store_.stored_rows(*q) : std::nullopt;
    if (stored && stored_products_allowed() && multiplied_as_stored(stored->format))
        // stored_product's packed activations, kept by each thread that ran it
        bytes += cores * kernels::row_products_rows_scratch_bytes();
    return static_cast<std::size_t>(std::min<std::uint64_t>(bytes, weight_bytes()));
}

}  // namespace attnviz::models::detail
