// The weights of a Hugging Face model folder, memory-mapped: `model.safetensors`, or
// `model.safetensors.index.json` and the shards its weight_map names (what
// `save_pretrained(safe_serialization=True)` writes).
//
// Opening reads and checks only the headers (every check of engine/io/safetensors.h: lying
// headers, overlaps, gaps, trailing data, the 100 MB header limit) and maps each file
// read-only (MAP_PRIVATE); no weight is copied, so opening a 1 GB checkpoint costs
// milliseconds.  load() converts one tensor to float32 when a model asks for it.
//
// Sharded folders follow transformers: the index's weight_map is the list of tensors.
// Every shard it names must exist and hold the tensors mapped to it; a tensor may be in only
// one shard (even when the index names only one of them).  A shard may hold tensors the index
// does not list: they are checked like every other, but left out of names(), find(),
// parameter_count() and data_bytes(), as transformers leaves them out of the model.
// The index's "metadata" (total_size) is not checked: writers compute it differently.
//
// Failures throw attnviz::DataError naming the file and the problem.  A WeightStore is
// read-only after opening: copies share the mappings, and load()/load_into() may run from
// several threads at once.  A mapped file that another program truncates while it is open
// makes a later load() fault (SIGBUS), as with any mmap reader; the checkpoint files of a
// model folder are not rewritten in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/kernels/row_products.h"
#include "engine/tensor.h"

namespace attnviz::io {

class GgufFile;  // engine/io/gguf.h

struct TensorEntry {
    std::string name;  ///< as in the file ("bert.encoder.layer.0.attention.self.query.weight")
    /// "F32", "F16", "BF16", "F64" (others are listed; load() refuses them), or a GGUF
    /// file's type ("Q4_K"; from_gguf admits only those it can convert)
    std::string dtype;
    Shape shape;
    std::string file;  ///< the shard's file name ("model-00001-of-00002.safetensors")
    std::uint64_t offset = 0, nbytes = 0;  ///< in that file (offset counts from byte 0)
};

/// One tensor of a GGUF file as a model reads it (WeightStore::from_gguf).
struct GgufSource {
    std::string name;    ///< the name the model reads ("layers.0.self_attn.q_proj.weight")
    std::string tensor;  ///< the file's tensor ("blk.0.attn_q.weight")
    /// Empty: the rows as stored.  Else a permutation of a matrix's rows: its row r is the
    /// file's row row_order[r] (llama.cpp's interleaved Q/K rows put back as they are read);
    /// of a vector, its values (the Q/K biases, which the converter permutes alike).
    std::vector<std::int64_t> row_order;
};

/// A 2-D tensor's rows as the file stores them, for products that read them without a float32
/// copy (kernels/row_products.h).  Valid while the store (or a copy of it) lives.
struct StoredRows {
    kernels::RowFormat format = kernels::RowFormat::F32;
    const std::byte* data = nullptr;  ///< the tensor's first stored row
    std::size_t row_bytes = 0;
    std::int64_t rows = 0, cols = 0;
    /// Row r as the model reads it is stored row order[r] (GgufSource::row_order); null: row r.
    const std::int64_t* order = nullptr;
};

/// A model.safetensors.index.json, parsed and checked on its own (no file is opened).
struct ShardIndex {
    std::map<std::string, std::string> weight_map;  ///< tensor name -> shard file name
    std::vector<std::string> shards;                ///< the distinct shard files, sorted
};

/// Parses the text of a model.safetensors.index.json; `name` is the path for messages.
/// Requires a JSON object with a "weight_map" object of strings; each shard must be a plain
/// file name in the folder (no '/', '\\', "." or ".."), and the map may not be empty.
/// Throws DataError.
ShardIndex parse_shard_index(std::string_view text, const std::string& name);

/// True if `folder` holds a file of weights in any format (safetensors, PyTorch pickles,
/// TensorFlow, Flax, GGUF, ONNX), readable here or not.  A folder without any holds a
/// tokenizer at most.
bool folder_has_weight_files(const std::string& folder);

class WeightStore {
  public:
    /// A Hugging Face model folder: `model.safetensors` (preferred when both are present, as
    /// transformers does), else `model.safetensors.index.json` and its shards.  A folder with
    /// only PyTorch pickles (*.bin, *.pt, *.pth) or no weights at all is a DataError that says
    /// so.
    static WeightStore open_folder(const std::string& folder);
    /// One .safetensors file.
    static WeightStore open_file(const std::string& path);
    /// Tensors of a GGUF file, left in its mapping (the store shares it with `file`) and
    /// converted to float32 as any other store's are: a block of rows when a layer runs, each
    /// row dequantized whole (GGUF rows are whole blocks).  Entries carry the model's names,
    /// the file's type names as dtype ("Q4_K") and the tensors' shapes; messages name the
    /// file's tensors ("x.gguf: tensor 'blk.1.attn_q.weight' (Q8_0) holds NaN at ...").
    /// Reads no tensor data.  DataError for a tensor the file does not hold or of a type
    /// gguf_quants cannot convert; std::invalid_argument for a row_order that is not a
    /// permutation of the tensor's rows, or two sources with one name.
    static WeightStore from_gguf(const GgufFile& file, std::vector<GgufSource> tensors);

    WeightStore();
    WeightStore(const WeightStore&);
    WeightStore(WeightStore&&) noexcept;
    WeightStore& operator=(const WeightStore&);
    WeightStore& operator=(WeightStore&&) noexcept;
    ~WeightStore();

    /// The entry called `name`, or nullptr.
    const TensorEntry* find(std::string_view name) const;
    /// Every tensor name, sorted.
    std::vector<std::string> names() const;
    /// The tensor as float32 (F16/BF16/F64 converted, GGUF types dequantized; F32 copied).  Throws
    /// DataError naming the file and tensor if it is absent, holds a NaN or infinity (with the
    /// index of the first one; also an F64 value beyond float32's range), or has a dtype that
    /// cannot be read (I8, U8, BOOL, ...).
    Tensor load(std::string_view name) const;
    /// Converts into caller memory, which must hold exactly the tensor's numel floats
    /// (std::invalid_argument with both sizes otherwise); same checks as load().
    void load_into(std::string_view name, float* out, std::size_t numel) const;

    /// Rows `rows` of a 2-D tensor as float32 into `out` (rows.size() x columns), with the
    /// checks of load() on those rows only: an embedding lookup converts what it reads.
    /// Throws std::invalid_argument for a tensor that is not 2-D or a row out of range.
    void load_rows(std::string_view name, const std::vector<std::int64_t>& rows, float* out) const;
    /// The seam every storage type plugs into: rows [row0, row1) of a tensor (a 1-D tensor is
    /// one row) materialised as float32 into caller memory, with the checks of load() on those
    /// rows only.  As stored, row r goes to out + (r - row0) * ld; `transposed`, its value c
    /// goes to out[c * ld + (r - row0)] (an nn.Linear [out, in] weight written [in, out], in
    /// tiles that stay in the cache).  ld 0 means the row length (the block's row count when
    /// transposed).  Disjoint row ranges of one tensor may be converted from several threads
    /// at once: a layer is streamed in by every thread.  Throws std::invalid_argument for a
    /// range outside the tensor or a tensor of more than 2 dimensions.
    void load_block(std::string_view name, std::int64_t row0, std::int64_t row1, float* out,
                    std::int64_t ld = 0, bool transposed = false) const;
    /// Rows [row0, row1) of a 2-D BF16 tensor as the file stores them (row r at the result +
    /// (r − row0) × columns), for products that read bfloat16 themselves
    /// (kernels/gemm_bf16.h), after the checks of load_block on those rows (a DataError naming
    /// the first value that is not finite).  nullptr when the tensor is not such rows: another
    /// dtype, or a GGUF store's.  Throws std::invalid_argument for a range outside the tensor.
    const std::uint16_t* bf16_rows(std::string_view name, std::int64_t row0,
                                   std::int64_t row1) const;
    /// The rows of a 2-D tensor as stored, when row_products reads its format (F32, F16, BF16,
    /// and the GGUF block types but the IQ/TQ ones); std::nullopt otherwise (F64, integers, a
    /// vector, a name the store does not hold).  Reads and checks nothing: a caller whose
    /// product comes out non-finite calls load_block on those rows, which names the value.
    std::optional<StoredRows> stored_rows(std::string_view name) const;
    /// True when some tensor is a GGUF block type (Q4_K, Q8_0, ...): such weights stay in
    /// their format in memory and are dequantized a block at a time (TransformerWeights).
    bool quantized() const;
    /// Asks the kernel to start reading the tensor's bytes from the disk (madvise WILLNEED)
    /// and returns at once: a streamed layer prefetches the next one while it computes, so a
    /// cold read overlaps the products.  Unknown names are ignored; never throws.
    void prefetch(std::string_view name) const noexcept;
    /// "BF16", or "F32 + BF16" when mixed (dtypes in a fixed order: F32, BF16, F16, F64,
    /// then others by name); "" for a store without tensors.
    std::string dtype_summary() const;
    /// The sum of every listed tensor's numel.
    std::uint64_t parameter_count() const;
    /// The sum of every listed tensor's nbytes (as stored, before conversion: quantized).
    std::uint64_t data_bytes() const;
    /// The folder opened, or the folder holding the file open_file() opened.
    std::string folder() const;
    /// The files mapped, in the order they were opened (file names, not paths).
    std::vector<std::string> files() const;

  private:
    [[noreturn]] static void report_non_finite(const void* stored, float value, std::size_t index);
    [[noreturn]] static void refuse_dtype(const void* stored);
    struct State;
    std::shared_ptr<const State> state_;
};

}  // namespace attnviz::io
