#include "engine/io/weight_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <set>
#include <stdexcept>
#include <system_error>
#include <utility>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/gguf.h"
#include "engine/io/gguf_quants.h"
#include "engine/io/json.h"
#include "engine/io/messages.h"
#include "engine/io/safetensors.h"

namespace attnviz::io {

namespace {

constexpr std::string_view kSingleFile = "model.safetensors";
constexpr std::string_view kIndexFile = "model.safetensors.index.json";
// Index files list one line per tensor: a few hundred kilobytes for the largest models.
constexpr std::size_t kMaxIndexBytes = 100'000'000;

std::string join_path(const std::string& folder, std::string_view file) {
    if (folder.empty()) return std::string(file);
    return folder.back() == '/' ? folder + std::string(file) : folder + "/" + std::string(file);
}

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// True when every row of a transposed block's destination starts a cache line: its 16-float
/// columns can then be written as whole lines.
bool aligned(const float* base, std::int64_t ld) {
    return reinterpret_cast<std::uintptr_t>(base) % 64 == 0 && ld % 16 == 0;
}

/// Writes one 64-byte cache line from `line` (64-byte aligned) to `dst` (64-byte aligned),
/// past the caches where the CPU can: a streamed layer's weights are written once and read
/// by the next product, so reading each line in before overwriting it would double the
/// memory traffic of the conversion.
void store_line(float* dst, const float* line) {
#if defined(__SSE2__)
    for (int k = 0; k < 16; k += 4)
        _mm_stream_ps(dst + k, _mm_load_ps(line + k));
#else
    std::memcpy(dst, line, 64);
#endif
}

/// One opened shard: its mapping and its checked header.
struct Shard {
    std::string file;  // name in the folder
    std::string path;  // for messages
    std::unique_ptr<MappedFile> mapping;
    SafetensorsHeader header;
};

Shard open_shard(const std::string& folder, const std::string& file) {
    Shard s;
    s.file = file;
    s.path = join_path(folder, file);
    s.mapping = MappedFile::open(s.path, "safetensors");
    s.header = parse_safetensors_header(s.mapping->bytes(), s.path);
    return s;
}

enum class Kind { Missing, File, Folder, Other };

// True if a directory entry called `path` exists, even a dangling symbolic link (the Hugging
// Face cache links snapshots to blobs): opening it then says what is wrong with it.
bool entry_exists(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

Kind stat_kind(const std::string& path, int* err = nullptr) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (err) *err = errno;
        return Kind::Missing;
    }
    return S_ISREG(st.st_mode) ? Kind::File : S_ISDIR(st.st_mode) ? Kind::Folder : Kind::Other;
}

std::vector<std::string> list_files(const std::string& folder) {
    std::vector<std::string> out;
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) throw_file_error(ErrorCode::FolderCannotRead, "read model folder", folder, errno);
    while (const dirent* e = ::readdir(dir)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") out.push_back(name);
    }
    ::closedir(dir);
    std::sort(out.begin(), out.end());
    return out;
}

std::string list_text(const std::vector<std::string>& names, std::size_t at_most = 4) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < at_most; ++i)
        out += (i ? ", " : "") + names[i];
    if (names.size() > at_most) out += " and " + std::to_string(names.size() - at_most) + " more";
    return out;
}

/// The files of a folder that hold weights of some format, by kind.
struct WeightFiles {
    std::vector<std::string> pickles, safetensors, others;
    bool empty() const { return pickles.empty() && safetensors.empty() && others.empty(); }
};

WeightFiles weight_files(const std::string& folder) {
    WeightFiles w;
    for (const std::string& f : list_files(folder)) {
        if (stat_kind(join_path(folder, f)) != Kind::File) continue;
        if (ends_with(f, ".bin") || ends_with(f, ".pt") || ends_with(f, ".pth") ||
            f == "pytorch_model.bin.index.json")
            w.pickles.push_back(f);
        else if (ends_with(f, ".safetensors") || f == kIndexFile)
            w.safetensors.push_back(f);
        else if (ends_with(f, ".h5") || ends_with(f, ".msgpack") || ends_with(f, ".gguf") ||
                 ends_with(f, ".onnx"))
            w.others.push_back(f);
    }
    return w;
}

// Why a folder without model.safetensors or its index has no weights we can read.
[[noreturn]] void fail_no_weights(const std::string& folder) {
    const auto [pickles, safetensors, others] = weight_files(folder);
    const std::string where = "model folder '" + folder + "': ";
    if (!safetensors.empty())
        throw DataError(where + "no " + std::string(kSingleFile) + " or " +
                        std::string(kIndexFile) + ", but " + list_text(safetensors) +
                        "; a Hugging Face folder names its weights " + std::string(kSingleFile) +
                        " (rename the file, or open it as a single .safetensors file)");
    if (!pickles.empty())
        throw DataError(
            where + "only PyTorch pickle weights (" + list_text(pickles) +
            "); AttnViz reads safetensors, which cannot run code when loaded.  Convert them once "
            "in Python: model.save_pretrained(folder, safe_serialization=True), or "
            "safetensors.torch.save_file(torch.load(\"pytorch_model.bin\"), "
            "\"model.safetensors\")");
    if (!others.empty())
        throw DataError(where + "no safetensors weights, only " + list_text(others) +
                        " (TensorFlow, Flax, GGUF or ONNX); AttnViz reads " +
                        std::string(kSingleFile) + " or " + std::string(kIndexFile));
    throw DataError(where + "no weights: expected " + std::string(kSingleFile) + " or " +
                    std::string(kIndexFile) + " and its shards");
}

bool plain_file_name(std::string_view s) {
    return !s.empty() && s != "." && s != ".." && s.find('/') == std::string_view::npos &&
           s.find('\\') == std::string_view::npos && s.find('\0') == std::string_view::npos;
}

// "12" for a vector, "[1,466]" (row-major coordinates) otherwise.
std::string index_text(const Shape& shape, std::uint64_t flat) {
    if (shape.size() <= 1) return std::to_string(flat);
    std::vector<std::uint64_t> coords(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        const auto n = static_cast<std::uint64_t>(shape[d]);
        coords[d] = flat % n;
        flat /= n;
    }
    std::string out = "[";
    for (std::size_t d = 0; d < coords.size(); ++d)
        out += (d ? "," : "") + std::to_string(coords[d]);
    return out + "]";
}

// Fixed order for dtype_summary: the common ones first, then the rest by name.
int dtype_rank(std::string_view d) {
    return d == "F32" ? 0 : d == "BF16" ? 1 : d == "F16" ? 2 : d == "F64" ? 3 : 4;
}

}  // namespace

struct WeightStore::State {
    struct Stored {
        TensorEntry entry;
        const char* data = nullptr;  // the tensor's first byte in its mapping
        std::string path;            // its file's path, for messages
        std::uint64_t numel = 0;
        std::string label;      // for messages: "'name'", "'blk.0.attn_q.weight' (Q4_K)" in GGUF
        std::int64_t cols = 1;  // values per row: a 1-D tensor is one row
        std::size_t row_bytes = 0;
        std::int64_t block = 1;  // values per block: a block of a row starts every block_bytes
        std::size_t block_bytes = 0;
        bool quantized = false;               // a GGUF block type: gguf_quants dequantizes it
        std::vector<std::int64_t> row_order;  // GgufSource::row_order

        bool readable() const { return quantized || is_float_dtype(entry.dtype); }
        /// Value c (a multiple of block) of row r as the model reads it.
        const char* at(std::int64_t r, std::int64_t c) const {
            const std::int64_t stored =
                row_order.empty() ? r : row_order[static_cast<std::size_t>(r)];
            return data + static_cast<std::size_t>(stored) * row_bytes +
                   static_cast<std::size_t>(c / block) * block_bytes;
        }
        /// Converts n values (whole blocks) from src; the first non-finite index, or n.
        std::size_t convert(const char* src, float* dst, std::size_t n) const {
            if (quantized)
                return dequantize(static_cast<GgufType>(gguf_type),
                                  reinterpret_cast<const std::byte*>(src), dst,
                                  static_cast<std::int64_t>(n));
            return convert_to_float(entry.dtype, src, dst, n);
        }
        std::uint32_t gguf_type = 0;
    };
    std::string folder;
    std::vector<std::string> files;
    std::vector<std::unique_ptr<MappedFile>> mappings;
    std::shared_ptr<const GgufFile> gguf;  // from_gguf: the file the entries point into
    std::map<std::string, Stored, std::less<>> tensors;
    std::uint64_t parameter_count = 0, data_bytes = 0;

    /// The tensor called `name`; DataError naming the folder if there is none.
    const Stored& stored(std::string_view name) const;

    void add(const Shard& shard, const SafetensorsEntry& e) {
        Stored s;
        s.entry.name = e.name;
        s.entry.dtype = e.dtype;
        s.entry.shape = e.shape;
        s.entry.file = shard.file;
        s.entry.offset = shard.header.data_start + e.begin;
        s.entry.nbytes = e.end - e.begin;
        s.data = shard.mapping->bytes().data() + s.entry.offset;
        s.path = shard.path;
        s.numel = e.numel;
        s.label = in_quotes(e.name);
        s.cols = e.shape.empty() ? 1 : e.shape.back();
        s.block_bytes = static_cast<std::size_t>(s.entry.nbytes) /
                        std::max<std::size_t>(static_cast<std::size_t>(s.numel), 1);
        s.row_bytes = static_cast<std::size_t>(s.cols) * s.block_bytes;
        parameter_count += e.numel;
        data_bytes += s.entry.nbytes;
        tensors.emplace(e.name, std::move(s));
    }
};

ShardIndex parse_shard_index(std::string_view text, const std::string& name) {
    json::Document doc;
    try {
        doc = json::parse(text);
    } catch (const json::ParseError& e) {
        fail(name, std::string("the shard index is not valid JSON: ") + e.what());
    }
    const json::Element root = doc.root();
    if (root.type() != json::Type::OBJECT)
        fail(name,
             std::string("the shard index is ") + json::type_name(root) + ", not a JSON object");
    const auto map = json::find(root, "weight_map");
    if (!map)
        fail(name, "the shard index has no \"weight_map\" (the object naming each tensor's shard)");
    if (map->type() != json::Type::OBJECT)
        fail(name,
             std::string("\"weight_map\" must be an object {tensor name: shard file}, found ") +
                 json::type_name(*map));
    ShardIndex index;
    std::set<std::string> shards;
    for (const auto [tensor, value] : json::Object(*map)) {
        const auto shard = json::as_string(value);
        if (!shard)
            fail(name, "weight_map: tensor " + in_quotes(tensor) + " maps to " +
                           json::type_name(value) + ", not a shard file name");
        if (!plain_file_name(*shard))
            fail(name, "weight_map: tensor " + in_quotes(tensor) + " maps to " +
                           json::quote(*shard) + ", which is not a file name in the model folder");
        index.weight_map.emplace(tensor, *shard);
        shards.emplace(*shard);
    }
    if (index.weight_map.empty()) fail(name, "\"weight_map\" is empty: the index lists no tensors");
    index.shards.assign(shards.begin(), shards.end());
    return index;
}

WeightStore::WeightStore() = default;
WeightStore::WeightStore(const WeightStore&) = default;
WeightStore::WeightStore(WeightStore&&) noexcept = default;
WeightStore& WeightStore::operator=(const WeightStore&) = default;
WeightStore& WeightStore::operator=(WeightStore&&) noexcept = default;
WeightStore::~WeightStore() = default;

WeightStore WeightStore::open_file(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
    Shard shard;
    shard.file = file;
    shard.path = path;
    shard.mapping = MappedFile::open(path, "safetensors");
    shard.header = parse_safetensors_header(shard.mapping->bytes(), path);

    auto state = std::make_shared<State>();
    state->folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    state->files.push_back(file);
    for (const SafetensorsEntry& e : shard.header.tensors)
        state->add(shard, e);
    state->mappings.push_back(std::move(shard.mapping));
    WeightStore store;
    store.state_ = std::move(state);
    return store;
}

WeightStore WeightStore::from_gguf(const GgufFile& file, std::vector<GgufSource> sources) {
    const std::string& path = file.path();
    const std::size_t slash = path.rfind('/');
    auto state = std::make_shared<State>();
    state->folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    state->files.push_back(slash == std::string::npos ? path : path.substr(slash + 1));
    state->gguf = std::make_shared<const GgufFile>(file);
    for (GgufSource& source : sources) {
        const GgufTensorInfo* t = state->gguf->find_tensor(source.tensor);
        if (!t) throw DataError(path + ": no tensor " + in_quotes(source.tensor));
        require_dequantizable(file, *t);
        const GgufTypeLayout layout = *gguf_type_layout(t->type);
        State::Stored s;
        s.entry.name = source.name;
        s.entry.dtype = std::string(layout.name);
        s.entry.shape = t->shape();
        s.entry.file = state->files.front();
        s.entry.offset = file.data_offset() + t->offset;
        s.entry.nbytes = t->nbytes;
        s.data = state->gguf->tensor_data(*t).data();
        s.path = path;
        s.numel = static_cast<std::uint64_t>(t->numel);
        s.label = in_quotes(t->name) + " (" + s.entry.dtype + ")";
        s.cols = t->ne.empty() ? 1 : t->ne[0];
        s.block = layout.block_size;
        s.block_bytes = static_cast<std::size_t>(layout.type_size);
        s.row_bytes = static_cast<std::size_t>(s.cols / s.block) * s.block_bytes;
        s.quantized = !is_float_dtype(s.entry.dtype);
        s.gguf_type = t->type;
        if (!source.row_order.empty()) {
            // A matrix's rows, or a vector's values (llama.cpp permutes q's and k's biases as
            // it does their weights' rows).
            const auto rows = static_cast<std::size_t>(
                s.entry.shape.size() == 2 || s.entry.shape.size() == 1 ? s.entry.shape[0] : 0);
            std::vector<bool> seen(rows);
            bool permutation = source.row_order.size() == rows;
            for (std::size_t r = 0; permutation && r < rows; ++r) {
                const std::int64_t from = source.row_order[r];
                permutation = from >= 0 && static_cast<std::size_t>(from) < rows &&
                              !seen[static_cast<std::size_t>(from)];
                if (permutation) seen[static_cast<std::size_t>(from)] = true;
            }
            if (!permutation)
                throw std::invalid_argument("from_gguf: the row order of " + in_quotes(t->name) +
                                            " " + shape_string(s.entry.shape) +
                                            " is not a permutation of its rows");
            s.row_order = std::move(source.row_order);
        }
        state->parameter_count += s.numel;
        state->data_bytes += s.entry.nbytes;
        if (!state->tensors.emplace(source.name, std::move(s)).second)
            throw std::invalid_argument("from_gguf: two tensors are called " +
                                        in_quotes(source.name));
    }
    WeightStore store;
    store.state_ = std::move(state);
    return store;
}

bool folder_has_weight_files(const std::string& folder) {
    if (stat_kind(folder) != Kind::Folder) return false;
    return !weight_files(folder).empty();
}

WeightStore WeightStore::open_folder(const std::string& folder) {
    int err = 0;
    switch (stat_kind(folder, &err)) {
        case Kind::Missing:
            throw_file_error(ErrorCode::FolderCannotRead, "open model folder", folder, err);
        case Kind::Folder:
            break;
        default:
            throw DataError("'" + folder + "' is not a model folder (a folder holding " +
                            std::string(kSingleFile) + " or " + std::string(kIndexFile) + ")");
    }
    if (entry_exists(join_path(folder, kSingleFile))) {
        WeightStore store = open_file(join_path(folder, kSingleFile));
        std::const_pointer_cast<State>(store.state_)->folder = folder;
        return store;
    }
    const std::string index_path = join_path(folder, kIndexFile);
    if (!entry_exists(index_path)) fail_no_weights(folder);

    const ShardIndex index = parse_shard_index(read_file(index_path, kMaxIndexBytes), index_path);
    std::vector<Shard> shards;
    shards.reserve(index.shards.size());
    for (const std::string& file : index.shards) {
        const std::string path = join_path(folder, file);
        if (!entry_exists(path))
            throw DataError(index_path + ": names shard " + in_quotes(file) +
                            ", which is not in the folder (" + std::to_string(index.shards.size()) +
                            " shards listed)");
        shards.push_back(open_shard(folder, file));
    }

    // Where each tensor really is: every shard's header, indexed or not.
    std::map<std::string_view, std::pair<const Shard*, const SafetensorsEntry*>> held;
    for (const Shard& shard : shards)
        for (const SafetensorsEntry& e : shard.header.tensors) {
            const auto [it, fresh] = held.emplace(e.name, std::pair{&shard, &e});
            if (!fresh)
                throw DataError("model folder '" + folder + "': tensor " + in_quotes(e.name) +
                                " is in two shards, " + it->second.first->file + " and " +
                                shard.file + " (the index maps it to " +
                                (index.weight_map.count(e.name)
                                     ? index.weight_map.at(e.name)
                                     : std::string("neither; it is not listed")) +
                                ")");
        }

    auto state = std::make_shared<State>();
    state->folder = folder;
    for (const auto& [tensor, file] : index.weight_map) {
        const auto it = held.find(tensor);
        if (it == held.end() || it->second.first->file != file)
            throw DataError(index_path + ": maps tensor " + in_quotes(tensor) + " to " + file +
                            ", which does not hold it" +
                            (it == held.end() ? std::string(" (no shard the index names does)")
                                              : " (it is in " + it->second.first->file + ")"));
        state->add(*it->second.first, *it->second.second);
    }
    // Tensors the index does not list stay out (see the header), but were checked above.
    for (Shard& shard : shards) {
        state->files.push_back(shard.file);
        state->mappings.push_back(std::move(shard.mapping));
    }
    WeightStore store;
    store.state_ = std::move(state);
    return store;
}

const TensorEntry* WeightStore::find(std::string_view name) const {
    if (!state_) return nullptr;
    const auto it = state_->tensors.find(name);
    return it == state_->tensors.end() ? nullptr : &it->second.entry;
}

std::vector<std::string> WeightStore::names() const {
    std::vector<std::string> out;
    if (!state_) return out;
    out.reserve(state_->tensors.size());
    for (const auto& [name, s] : state_->tensors)
        out.push_back(name);
    return out;
}

const WeightStore::State::Stored& WeightStore::State::stored(std::string_view name) const {
    const auto it = tensors.find(name);
    if (it == tensors.end())
        throw DataError("model folder '" + folder + "': no tensor " + in_quotes(name) + " in " +
                        list_text(files));
    return it->second;
}

Tensor WeightStore::load(std::string_view name) const {
    if (!state_) throw DataError("no tensor " + in_quotes(name) + ": no weights are open");
    const State::Stored& s = state_->stored(name);
    Tensor t;
    t.shape = s.entry.shape;
    t.data.resize(static_cast<std::size_t>(s.numel));  // fits: its bytes are mapped
    load_into(name, t.data.data(), t.data.size());
    return t;
}

void WeightStore::load_into(std::string_view name, float* out, std::size_t numel) const {
    if (!state_) throw DataError("no tensor " + in_quotes(name) + ": no weights are open");
    const State::Stored& s = state_->stored(name);
    const TensorEntry& e = s.entry;
    if (numel != s.numel)
        throw std::invalid_argument("load_into: tensor " + in_quotes(e.name) + " of shape " +
                                    shape_string(e.shape) + " has " + std::to_string(s.numel) +
                                    " values but the buffer holds " + std::to_string(numel));
    if (!s.readable()) refuse_dtype(&s);
    if (!s.row_order.empty()) {
        load_block(name, 0, e.shape.size() == 2 ? e.shape[0] : 1, out);
        return;
    }
    const std::size_t bad = s.convert(s.data, out, numel);
    if (bad != numel) report_non_finite(&s, out[bad], bad);
}

void WeightStore::refuse_dtype(const void* stored) {
    const auto& s = *static_cast<const State::Stored*>(stored);
    throw DataError(s.path + ": tensor " + s.label + " has dtype " + s.entry.dtype +
                    ", which cannot be read (AttnViz reads F32, F16, BF16 and F64)");
}

void WeightStore::report_non_finite(const void* stored, float v, std::size_t bad) {
    const auto& s = *static_cast<const State::Stored*>(stored);
    const TensorEntry& e = s.entry;
    const std::string where = s.path + ": tensor " + s.label;
    std::string what = v != v ? "NaN" : v > 0 ? "infinity" : "-infinity";
    if (e.dtype == "F64") {
        double d;
        std::memcpy(&d, s.data + 8 * bad, sizeof d);
        if (d == d && d - d == 0.0)  // finite in the file: too large for float32
            what = number_text(d) + " (beyond float32's range)";
    }
    if (!s.row_order.empty() && e.shape.size() == 2) {  // where it is in the file
        const auto cols = static_cast<std::size_t>(s.cols);
        bad = static_cast<std::size_t>(s.row_order[bad / cols]) * cols + bad % cols;
    }
    std::string at = "index " + index_text(e.shape, bad);
    if (e.shape.size() > 1) at += " (flat index " + std::to_string(bad) + ")";
    throw DataError(where + " holds " + what + " at " + at +
                    ", its first value that is not finite");
}

void WeightStore::load_rows(std::string_view name, const std::vector<std::int64_t>& rows,
                            float* out) const {
    if (!state_) throw DataError("no tensor " + in_quotes(name) + ": no weights are open");
    const State::Stored& s = state_->stored(name);
    const TensorEntry& e = s.entry;
    if (e.shape.size() != 2)
        throw std::invalid_argument("load_rows: tensor " + in_quotes(e.name) + " is " +
                                    shape_string(e.shape) + ", not a matrix");
    if (!s.readable()) refuse_dtype(&s);
    const auto cols = static_cast<std::size_t>(e.shape[1]);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::int64_t row = rows[r];
        if (row < 0 || row >= e.shape[0])
            throw std::invalid_argument("row " + std::to_string(row) + " is outside tensor " +
                                        in_quotes(e.name) + " " + shape_string(e.shape));
        float* dst = out + r * cols;
        const std::size_t bad = s.convert(s.at(row, 0), dst, cols);
        if (bad != cols)
            report_non_finite(&s, dst[bad], static_cast<std::size_t>(row) * cols + bad);
    }
}

const std::uint16_t* WeightStore::bf16_rows(std::string_view name, std::int64_t row0,
                                            std::int64_t row1) const {
    if (!state_) throw DataError("no tensor " + in_quotes(name) + ": no weights are open");
    const State::Stored& s = state_->stored(name);
    const TensorEntry& e = s.entry;
    if (e.shape.size() != 2 || e.dtype != "BF16" || s.quantized || !s.row_order.empty())
        return nullptr;
    if (row0 < 0 || row1 < row0 || row1 > e.shape[0])
        throw std::invalid_argument("bf16_rows: rows [" + std::to_string(row0) + ", " +
                                    std::to_string(row1) + ") are outside tensor " +
                                    in_quotes(e.name) + " " + shape_string(e.shape));
    const auto* first = reinterpret_cast<const std::uint16_t*>(s.data) +
                        static_cast<std::size_t>(row0) * static_cast<std::size_t>(s.cols);
    const auto n = static_cast<std::size_t>((row1 - row0) * s.cols);
    // Exponent all ones: infinity or NaN.  A branch-free OR over the block (it vectorises; the
    // product reads the same bytes next, from the cache), then the first one if any.
    std::uint16_t any = 0;
    for (std::size_t i = 0; i < n; ++i)
        any |= static_cast<std::uint16_t>((first[i] & 0x7f80u) == 0x7f80u);
    if (any)
        for (std::size_t i = 0; i < n; ++i)
            if ((first[i] & 0x7f80u) == 0x7f80u) {
                const std::uint32_t bits = std::uint32_t{first[i]} << 16;
                float v;
                std::memcpy(&v, &bits, sizeof v);
                report_non_finite(
                    &s, v, static_cast<std::size_t>(row0) * static_cast<std::size_t>(s.cols) + i);
            }
    return first;
}

namespace {

std::optional<kernels::RowFormat> row_format(std::string_view dtype) {
    using kernels::RowFormat;
    for (int f = 0; f < kernels::kRowFormatCount; ++f)
        if (dtype == kernels::row_format_name(static_cast<RowFormat>(f)))
            return static_cast<RowFormat>(f);
    return std::nullopt;
}

}  // namespace

std::optional<StoredRows> WeightStore::stored_rows(std::string_view name) const {
    if (!state_) return std::nullopt;
    const auto it = state_->tensors.find(name);
    if (it == state_->tensors.end()) return std::nullopt;
    const State::Stored& s = it->second;
    const auto format = row_format(s.entry.dtype);
    if (s.entry.shape.size() != 2 || !format ||
        s.cols % kernels::row_format_block_values(*format) != 0)
        return std::nullopt;
    StoredRows r;
    r.format = *format;
    r.data = reinterpret_cast<const std::byte*>(s.data);
    r.row_bytes = s.row_bytes;
    r.rows = s.entry.shape[0];
    r.cols = s.cols;
    r.order = s.row_order.empty() ? nullptr : s.row_order.data();
    return r;
}

bool WeightStore::quantized() const {
    if (!state_) return false;
    return std::any_of(state_->tensors.begin(), state_->tensors.end(),
                       [](const auto& t) { return t.second.quantized; });
}

void WeightStore::load_block(std::string_view name, std::int64_t row0, std::int64_t row1,
                             float* out, std::int64_t ld, bool transposed) const {
    if (!state_) throw DataError("no tensor " + in_quotes(name) + ": no weights are open");
    const State::Stored& s = state_->stored(name);
    const TensorEntry& e = s.entry;
    if (e.shape.size() > 2)
        throw std::invalid_argument("load_block: tensor " + in_quotes(e.name) + " is " +
                                    shape_string(e.shape) + ", not a matrix or a vector");
    const std::int64_t rows = e.shape.size() == 2 ? e.shape[0] : 1;
    const std::int64_t cols = s.cols;
    if (row0 < 0 || row1 < row0 || row1 > rows)
        throw std::invalid_argument("load_block: rows [" + std::to_string(row0) + ", " +
                                    std::to_string(row1) + ") are outside tensor " +
                                    in_quotes(e.name) + " " + shape_string(e.shape));
    if (!s.readable()) refuse_dtype(&s);
    if (e.shape.size() == 1 && !s.row_order.empty()) {  // a vector whose values are permuted
        if (row1 == row0) return;
        std::vector<float> stored(static_cast<std::size_t>(cols));
        const std::size_t bad = s.convert(s.data, stored.data(), stored.size());
        if (bad != stored.size()) report_non_finite(&s, stored[bad], bad);
        const std::int64_t step = transposed ? (ld == 0 ? 1 : ld) : 1;
        for (std::int64_t i = 0; i < cols; ++i)
            out[i * step] =
                stored[static_cast<std::size_t>(s.row_order[static_cast<std::size_t>(i)])];
        return;
    }
    const auto check = [&](std::size_t bad, std::size_t n, const float* dst, std::int64_t r,
                           std::int64_t c) {
        if (bad != n)
            report_non_finite(&s, dst[bad],
                              static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) +
                                  static_cast<std::size_t>(c) + bad);
    };
    if (!transposed) {
        if (ld == 0) ld = cols;
        for (std::int64_t r = row0; r < row1; ++r) {
            float* dst = out + (r - row0) * ld;
            check(s.convert(s.at(r, 0), dst, static_cast<std::size_t>(cols)),
                  static_cast<std::size_t>(cols), dst, r, 0);
        }
        return;
    }
    if (ld == 0) ld = row1 - row0;
    // A tile of 16 rows x 256 columns (17 KB) is converted row by row, then written column by
    // column: each destination row receives 16 consecutive floats, one cache line.  Its rows
    // are 272 floats apart, not a power of two, so the 16 values of a column fall in
    // different cache sets (2 KB rows made this loop 5x slower).  256 columns are whole
    // blocks of every GGUF type.
    constexpr std::int64_t kTileRows = 16, kTileCols = 256, kStride = kTileCols + 16;
    alignas(64) float tile[kTileRows * kStride];
    for (std::int64_t r0 = row0; r0 < row1; r0 += kTileRows) {
        const std::int64_t nr = std::min(kTileRows, row1 - r0);
        for (std::int64_t c0 = 0; c0 < cols; c0 += kTileCols) {
            const std::int64_t nc = std::min(kTileCols, cols - c0);
            for (std::int64_t i = 0; i < nr; ++i) {
                float* dst = tile + i * kStride;
                check(s.convert(s.at(r0 + i, c0), dst, static_cast<std::size_t>(nc)),
                      static_cast<std::size_t>(nc), dst, r0 + i, c0);
            }
            float* base = out + c0 * ld + (r0 - row0);
            if (nr == kTileRows && aligned(base, ld)) {
                for (std::int64_t c = 0; c < nc; ++c) {
                    alignas(64) float col[kTileRows];
                    for (std::int64_t i = 0; i < kTileRows; ++i)
                        col[i] = tile[i * kStride + c];
                    store_line(base + c * ld, col);
                }
            } else {
                for (std::int64_t c = 0; c < nc; ++c)
                    for (std::int64_t i = 0; i < nr; ++i)
                        base[c * ld + i] = tile[i * kStride + c];
            }
        }
    }
#if defined(__SSE2__)
    _mm_sfence();  // the streaming stores are visible before another thread reads the block
#endif
}

void WeightStore::prefetch(std::string_view name) const noexcept {
    if (!state_) return;
    const auto it = state_->tensors.find(name);
    if (it == state_->tensors.end()) return;
    const State::Stored& s = it->second;
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(s.data) / page * page;
    const auto end = reinterpret_cast<std::uintptr_t>(s.data) + s.entry.nbytes;
    if (end > begin)
        (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_WILLNEED);  // a hint
}

std::string WeightStore::dtype_summary() const {
    if (!state_) return {};
    std::set<std::pair<int, std::string>> seen;
    for (const auto& [name, s] : state_->tensors)
        seen.emplace(dtype_rank(s.entry.dtype), s.entry.dtype);
    std::string out;
    for (const auto& [rank, d] : seen)
        out += (out.empty() ? "" : " + ") + d;
    return out;
}

std::uint64_t WeightStore::parameter_count() const {
    return state_ ? state_->parameter_count : 0;
}

std::uint64_t WeightStore::data_bytes() const {
    return state_ ? state_->data_bytes : 0;
}

std::string WeightStore::folder() const {
    return state_ ? state_->folder : std::string();
}

std::vector<std::string> WeightStore::files() const {
    return state_ ? state_->files : std::vector<std::string>{};
}

}  // namespace attnviz::io
