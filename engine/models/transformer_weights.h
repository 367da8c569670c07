// A transformer's weights as its passes read them.  Opening finds every tensor of the family's
// layout (weight_layout.h) in the files and checks its shape against config.json; nothing is
// read.  A pass then converts each layer to float32 as it first runs it: kept in the model for
// the passes after it when the pass's weight-cache limit holds every weight, otherwise
// streamed, every layer converted into the pass's own buffers and each large matrix a block of
// rows at a time just before the block is multiplied.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/io/weight_store.h"
#include "engine/kernels/row_products.h"
#include "engine/models/config.h"
#include "engine/models/model.h"
#include "engine/models/weight_layout.h"

namespace attnviz::models::detail {

/// Where a weight's float32 values come from: stored tensors stacked along their first
/// dimension (q, k, v; gate, up), and whether it is written [in, out].
struct WeightLayout {
    std::vector<std::string> names;
    std::vector<Index> offsets;  ///< each tensor's first row in the stack
    Index rows = 0, cols = 0;    ///< as stored, stacked
    bool conv1d = false;         ///< stored [in, out] already (GPT-2's Conv1D)
    bool transpose = false;      ///< an [out, in] matrix written [in, out]
    bool empty() const { return names.empty(); }
};

/// A weight as the layers read it: converted to float32 into `owned` (kept by the model, or a
/// pass's streaming buffer reused from layer to layer).  Move-only: ptr points into owned.
struct Weight {
    const float* ptr = nullptr;
    std::vector<float> owned;
    /// A streamed matrix (ptr null): its tensors, converted a block of rows at a time by
    /// TransformerWeights::product just before the block is multiplied.
    std::shared_ptr<const WeightLayout> source;
    Index rows = 0, cols = 0;  ///< as stored
    bool in_out = false;       ///< stored [in, out] (GPT-2's Conv1D)
    Weight() = default;
    Weight(Weight&&) noexcept = default;
    Weight& operator=(Weight&&) noexcept = default;
    bool empty() const { return ptr == nullptr && !source; }
    bool streamed() const { return ptr == nullptr && source; }
    Index in_features() const { return in_out ? rows : cols; }
    Index out_features() const { return in_out ? cols : rows; }
};

struct LayerWeights {
    Weight norm1_w, norm1_b, norm2_w, norm2_b;
    Weight qkv_w, qkv_b;  ///< q, k and v stacked (GPT-2: its one c_attn)
    Weight q_norm, k_norm;
    Weight o_w, o_b;
    Weight up_w, up_b;  ///< gated: gate and up stacked
    Weight down_w, down_b;
};

/// Every weight of a layer, in one order: the loops over a layer's weights (shapes,
/// conversion, streaming, prefetch, memory, release) walk this list and layer_tensors().
constexpr Weight LayerWeights::*kLayerWeights[] = {
    &LayerWeights::norm1_w, &LayerWeights::norm1_b, &LayerWeights::norm2_w, &LayerWeights::norm2_b,
    &LayerWeights::qkv_w,   &LayerWeights::qkv_b,   &LayerWeights::q_norm,  &LayerWeights::k_norm,
    &LayerWeights::o_w,     &LayerWeights::o_b,     &LayerWeights::up_w,    &LayerWeights::up_b,
    &LayerWeights::down_w,  &LayerWeights::down_b};
static_assert(std::size(kLayerWeights) == kLayerWeightCount);

struct GlobalWeights {
    Weight emb_norm_w, emb_norm_b, final_norm_w, final_norm_b;
};

/// The language-model head as the products read it: unembed as stored, [vocab, hidden].
struct HeadWeights {
    Weight dense_w, dense_b, norm_w, norm_b, unembed, bias;
};

/// The weight buffers one pass reuses from layer to layer.  When the weights stream, `stream`
/// holds the running layer's float32 weights (each layer converted into the same buffers);
/// otherwise `held` keeps the model's converted layer alive while the pass reads it.
struct WeightScratch {
    std::vector<float> block;  ///< a streamed matrix's rows being multiplied
    /// BF16 weights multiplied as stored (kernels/gemm_bf16.h): the activations' three parts,
    /// and each thread's three partial products.
    std::vector<std::uint16_t> parts;
    std::vector<std::vector<float>> partials;
    /// A generation step's: one-row products read the weights as stored
    /// (kernels/row_products.h) instead of their float32 copies or converted blocks.
    bool row_products = false;
    kernels::RowInput row_input;
    /// A generation's passes (when every matrix is stored as rows row_products reads): the
    /// layers stream, kept or not, and a new token's steps read the matrices as stored.
    bool generating = false;
    LayerWeights stream;
    std::shared_ptr<const LayerWeights> held;
};

class TransformerWeights {
  public:
    /// Finds every tensor of `config`'s layout in `store`; throws DataError naming `source`
    /// and the tensor that is missing or has another shape.
    TransformerWeights(ModelConfig config, io::WeightStore store, std::string source);

    const ModelConfig& config() const { return config_; }
    const io::WeightStore& store() const { return store_; }
    LmHeadKind lm_head() const { return lm_head_; }
    const std::string& lm_head_missing() const { return lm_head_missing_; }
    /// The masked-LM head's activation (its transform's).
    ops::Activation head_activation() const { return head_params_.activation; }

    /// Model::weight_bytes, Model::streaming_weight_bytes.
    std::size_t weight_bytes() const;
    std::size_t streaming_weight_bytes() const;
    /// The model's own limit (Model::set_weight_cache_bytes): a lower one drops the kept layers.
    void set_cache_bytes(std::size_t bytes);
    /// True when every layer matrix and the unembedding are stored as rows row_products reads
    /// (not GPT-2's Conv1D, not F64): a generation needs none of them in float32.
    bool rows_readable() const { return rows_readable_; }
    /// True when the model's own limit streams the weights, or they are quantized: a GGUF
    /// file's blocks stay as stored and are dequantized a block at a time as they are used.
    bool stream_by_default() const { return quantized_ || weight_bytes() > cache_limit_.load(); }
    /// Whether a pass under `limit` (ModelForwardOptions::weight_cache_bytes; unset: the
    /// model's own) streams.  One that streams drops the kept layers first: its plan counts
    /// none (a pass running keeps the layer it holds).
    bool begin_pass(std::optional<std::size_t> limit) const;

    /// Layer i's float32 weights for a pass: the kept ones (converted the first time a pass
    /// needs them), or, when the pass streams, converted into its own buffers, which the next
    /// layer overwrites.
    const LayerWeights& layer(Index i, bool stream, WeightScratch& scratch, int threads) const;
    /// Gives a pass's streamed layer back to the kept buffers (the next pass takes them).
    static void release_stream(WeightScratch& scratch);
    /// The embeddings' and the final norms, read the first time a pass needs them.
    const GlobalWeights& globals() const;
    /// The head's weights, read from the files the first time predictions need them.  The
    /// unembedding is converted and kept when the model's own limit keeps the weights and no
    /// pass has streamed them since the layers were last kept; else it stays in the file.
    const HeadWeights& head() const;
    /// The stored name of the unembedding: the decoder, or the tied word embeddings.
    std::string unembed_name() const;

    /// Rows `ids` of an embedding table, converted from the file (added to `out` with `add`):
    /// a lookup reads only those rows, so a 150,000-token vocabulary costs nothing until it is
    /// used.  Throws std::invalid_argument for an id outside the table.
    void lookup(const Param& p, const std::vector<Index>& ids, float* out, bool add) const;

    /// The stored tensors of one weight (a layer_tensors() entry, stacked along their first
    /// dimension) in float32, a matrix as nn.Linear keeps it, [out, in], whatever the file
    /// stores; a vector as [n].  Empty when the file has none of them.  Read from the files each
    /// time: for analyses of the weights (Model::attention_weights), not for passes.
    Tensor as_linear(const std::vector<Param>& tensors) const;

    /// y[rows, out] = x · wᵀ + b, as ops::linear; a streamed w stored as F16 or BF16 rows is
    /// multiplied as stored (kernels::row_products_rows), any other is converted into
    /// scratch.block a block of output rows at a time, each block multiplied while it is
    /// still in the cache (converting a whole 8B layer first wrote and read 870 MB more).
    /// One row with scratch.row_products (a generation step) reads w as the file stores it
    /// (kernels/row_products.h), when its format allows.
    void product(const float* x, Index rows, Index in, const Weight& w, const Weight& b, Index out,
                 float* y, int threads, WeightScratch& scratch, Index ldx = 0, Index ldy = 0) const;

    /// dx[rows, in] = dy[rows, out] · w (+= with `accumulate`): product()'s input gradient,
    /// a streamed w converted a block of rows at a time as product() converts it.
    void input_gradient(const float* dy, Index rows, Index out, const Weight& w, Index in,
                        float* dx, int threads, WeightScratch& scratch,
                        bool accumulate = false) const;

  private:
    std::optional<std::string> resolve(const std::string& name) const;
    std::optional<std::string> resolve_full(const std::string& full) const;
    void find_prefix();
    void check(const Param& p) const;
    void find_lm_head();
    void check_every_shape() const;
    bool every_matrix_rows_readable() const;
    WeightLayout layout(const std::vector<Param>& params, bool as_stored = false) const;
    void materialise(const WeightLayout& l, Weight& w, int threads) const;
    Weight load(const Param& p, bool as_stored = false) const;
    void prefetch_layer(Index i) const;
    void stream_matrix(const WeightLayout& l, Weight& w, int threads) const;
    void materialise_layer(Index i, LayerWeights& w, bool stream, int threads) const;
    void drop_kept_layers() const;
    /// A streamed matrix's rows converted into scratch.block a block at a time, each block
    /// handed to `use(first row, rows, values)` while it is still in the cache.
    void stream_blocks(const WeightLayout& l, Index in, int threads, WeightScratch& scratch,
                       const std::function<void(Index, Index, const float*)>& use) const;
    /// product() of a streamed BF16 matrix multiplied as the file stores it, on AMX
    /// (kernels/gemm_bf16.h); false, having done nothing, where that is not available.
    bool bf16_product(const float* x, Index rows, Index in, const WeightLayout& l, const Weight& b,
                      float* y, int threads, WeightScratch& scratch, Index ldx, Index ldy) const;
    /// Each of l's tensors as stored rows (io::StoredRows), or nullopt when one is not.
    std::optional<std::vector<io::StoredRows>> stored_parts(const WeightLayout& l) const;
    /// product() of a streamed matrix whose tensors are all F16 or BF16 rows, multiplied as
    /// stored (kernels::row_products_rows), for up to kStoredProductMaxRows rows; false, having
    /// done nothing, otherwise (or with ATTNVIZ_STREAM_PRODUCTS=convert).
    bool stored_product(const float* x, Index rows, Index in, const WeightLayout& l,
                        const Weight& b, float* y, int threads, Index ldx, Index ldy) const;
    /// product() of one row x[in] by a streamed w's rows as stored; false, having done nothing,
    /// when a tensor's format is not one row_products reads.
    bool row_product(const float* x, Index in, const Weight& w, const Weight& b, Index out,
                     float* y, int threads, WeightScratch& scratch) const;

    /// Converts every row of l's tensors (in blocks, discarded): a DataError naming the first
    /// value that is not finite, if there is one.
    void check_rows(const WeightLayout& l) const;
    /// check_rows(l) when y[rows, out] (row stride ldy), computed from l's rows as stored, holds
    /// a value that is not finite.
    void check_result(const WeightLayout& l, const float* y, Index rows, Index out,
                      Index ldy) const;

    ModelConfig config_;
    io::WeightStore store_;
    std::string source_;
    std::string prefix_;
    mutable std::mutex load_mutex_;
    mutable std::vector<std::shared_ptr<const LayerWeights>> layers_;
    /// A pass streamed since the layers were last kept: the head leaves its unembedding in
    /// the file (that pass's plan counted no kept weights).
    mutable std::atomic<bool> streamed_since_kept_{false};
    std::atomic<std::size_t> cache_limit_{0};
    bool quantized_ = false;      ///< store_.quantized(), asked once
    bool rows_readable_ = false;  ///< every_matrix_rows_readable(), asked once
    mutable std::once_flag globals_once_;
    mutable GlobalWeights globals_;
    LmHeadKind lm_head_ = LmHeadKind::None;
    std::string lm_head_missing_;
    HeadParams head_params_;
    mutable std::once_flag head_once_;
    mutable HeadWeights head_;
};

}  // namespace attnviz::models::detail
