// Opening and loading model weights (engine/io/weight_store.h), one thread.
//
//   weights_bench [--dir D] [--params N] [--repeats 5] [--keep]
//
// Writes a BERT-base-like model.safetensors (word embeddings, 12 layers of attention and MLP
// weights: 110 M parameters, 440 MB as F32) into D/f32/, the same tensors as BF16 into D/bf16/
// and as F16 into D/f16/ (unless they are already there with the right size), then measures
// with a warm page cache (every file is read once first):
//   * open:  WeightStore::open_folder (mmap + header checks), median of the repeats;
//   * load:  every tensor through load() (allocates, as a model loading its weights does) and
//            through load_into() one reused buffer (conversion only, no page faults on the
//            output), GB/s of float32 written and of file bytes read; and open + load_into
//            together (a fresh mapping's first touch costs page-table work);
//   * convert: convert_to_float from one in-memory buffer (no mmap), each dtype, and the
//            portable F16 loop beside the F16C one.
// Prints one JSON line per measurement.  The files are removed at the end unless --keep.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "engine/io/safetensors.h"
#include "engine/io/weight_store.h"

namespace {

namespace io = attnviz::io;
using Clock = std::chrono::steady_clock;

struct Options {
    std::string dir = (std::filesystem::temp_directory_path() / "attnviz_weights_bench").string();
    int repeats = 5;
    bool keep = false;
};

struct TensorSpec {
    std::string name;
    std::vector<std::int64_t> shape;
    std::uint64_t numel() const {
        std::uint64_t n = 1;
        for (const auto d : shape)
            n *= static_cast<std::uint64_t>(d);
        return n;
    }
};

// bert-base-uncased's parameters, by name and shape (109.5 M).
std::vector<TensorSpec> bert_base() {
    std::vector<TensorSpec> t;
    const std::int64_t h = 768, ff = 3072;
    t.push_back({"bert.embeddings.word_embeddings.weight", {30522, h}});
    t.push_back({"bert.embeddings.position_embeddings.weight", {512, h}});
    t.push_back({"bert.embeddings.token_type_embeddings.weight", {2, h}});
    t.push_back({"bert.embeddings.LayerNorm.weight", {h}});
    t.push_back({"bert.embeddings.LayerNorm.bias", {h}});
    for (int l = 0; l < 12; ++l) {
        const std::string p = "bert.encoder.layer." + std::to_string(l) + ".";
        for (const char* m : {"attention.self.query", "attention.self.key", "attention.self.value",
                              "attention.output.dense"}) {
            t.push_back({p + m + ".weight", {h, h}});
            t.push_back({p + m + ".bias", {h}});
        }
        t.push_back({p + "attention.output.LayerNorm.weight", {h}});
        t.push_back({p + "attention.output.LayerNorm.bias", {h}});
        t.push_back({p + "intermediate.dense.weight", {ff, h}});
        t.push_back({p + "intermediate.dense.bias", {ff}});
        t.push_back({p + "output.dense.weight", {h, ff}});
        t.push_back({p + "output.dense.bias", {h}});
        t.push_back({p + "output.LayerNorm.weight", {h}});
        t.push_back({p + "output.LayerNorm.bias", {h}});
    }
    t.push_back({"bert.pooler.dense.weight", {h, h}});
    t.push_back({"bert.pooler.dense.bias", {h}});
    return t;
}

std::size_t itemsize(const std::string& dtype) {
    return dtype == "F32" ? 4 : dtype == "F64" ? 8 : 2;
}

// Values in [-0.5, 0.5) with every mantissa bit used; exact in each dtype after rounding.
std::uint32_t f32_bits(std::uint64_t i) {
    const float v = static_cast<float>((i * 2654435761u) % 1000003u) / 1000003.0f - 0.5f;
    std::uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
}

void write_file(const std::string& path, const std::vector<TensorSpec>& tensors,
                const std::string& dtype) {
    const std::size_t item = itemsize(dtype);
    std::string header = "{\"__metadata__\":{\"format\":\"pt\"}";
    std::uint64_t offset = 0;
    for (const TensorSpec& t : tensors) {
        header += ",\"" + t.name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":[";
        for (std::size_t i = 0; i < t.shape.size(); ++i)
            header += (i ? "," : "") + std::to_string(t.shape[i]);
        const std::uint64_t end = offset + t.numel() * item;
        header +=
            "],\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(end) + "]}";
        offset = end;
    }
    header += "}";
    header.append((8 - header.size() % 8) % 8, ' ');
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const std::uint64_t n = header.size();
    out.write(reinterpret_cast<const char*>(&n), 8);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    std::vector<char> chunk;
    for (const TensorSpec& t : tensors) {
        chunk.resize(t.numel() * item);
        for (std::uint64_t i = 0; i < t.numel(); ++i) {
            const std::uint32_t b = f32_bits(i);
            if (item == 4) {
                std::memcpy(chunk.data() + 4 * i, &b, 4);
            } else if (dtype == "BF16") {
                const auto h = static_cast<std::uint16_t>(b >> 16);
                std::memcpy(chunk.data() + 2 * i, &h, 2);
            } else {  // F16: finite patterns of both signs (exponent bit 0 cleared: <= 30)
                const auto h = static_cast<std::uint16_t>((i * 7919u) & 0xFBFFu);
                std::memcpy(chunk.data() + 2 * i, &h, 2);
            }
        }
        out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    }
    if (!out) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::exit(1);
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double seconds(const std::function<void()>& f) {
    const auto t0 = Clock::now();
    f();
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median_seconds(int repeats, const std::function<void()>& f) {
    std::vector<double> t;
    for (int r = 0; r < repeats; ++r)
        t.push_back(seconds(f));
    return median(t);
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--dir" && i + 1 < argc)
            opt.dir = argv[++i];
        else if (a == "--repeats" && i + 1 < argc)
            opt.repeats = std::max(1, std::atoi(argv[++i]));
        else if (a == "--keep")
            opt.keep = true;
        else {
            std::fprintf(stderr, "usage: %s [--dir D] [--repeats 5] [--keep]\n", argv[0]);
            return 2;
        }
    }
    const std::vector<TensorSpec> tensors = bert_base();
    std::uint64_t params = 0;
    for (const TensorSpec& t : tensors)
        params += t.numel();

    for (const std::string dtype : {"F32", "BF16", "F16"}) {
        const std::string folder = opt.dir + "/" + dtype;
        const std::string path = folder + "/model.safetensors";
        std::filesystem::create_directories(folder);
        std::error_code ec;
        const auto size = std::filesystem::file_size(path, ec);
        if (ec || size < params * itemsize(dtype)) write_file(path, tensors, dtype);
        const double file_bytes = static_cast<double>(std::filesystem::file_size(path));

        // Warm the page cache: every byte read once.
        io::WeightStore warm = io::WeightStore::open_folder(folder);
        for (const std::string& name : warm.names())
            (void)warm.load(name);

        const double open_s =
            median_seconds(opt.repeats, [&] { (void)io::WeightStore::open_folder(folder); });
        const io::WeightStore store = io::WeightStore::open_folder(folder);
        const std::vector<std::string> names = store.names();
        const double load_s = median_seconds(opt.repeats, [&] {
            for (const std::string& name : names)
                (void)store.load(name);
        });
        std::vector<float> buffer;
        const double into_s = median_seconds(opt.repeats, [&] {
            for (const std::string& name : names) {
                const auto* e = store.find(name);
                std::size_t n = 1;
                for (const auto d : e->shape)
                    n *= static_cast<std::size_t>(d);
                buffer.resize(std::max(buffer.size(), n));
                store.load_into(name, buffer.data(), n);
            }
        });
        // What a model pays on a warm cache: a fresh mapping (its page-table entries are made
        // on first touch) converted into buffers it already has.
        const double fresh_s = median_seconds(opt.repeats, [&] {
            const io::WeightStore fresh = io::WeightStore::open_folder(folder);
            for (const std::string& name : names) {
                const auto* e = fresh.find(name);
                std::size_t n = 1;
                for (const auto d : e->shape)
                    n *= static_cast<std::size_t>(d);
                fresh.load_into(name, buffer.data(), n);
            }
        });
        const double out_bytes = static_cast<double>(params) * 4.0;
        std::printf(
            "{\"dtype\":\"%s\",\"tensors\":%zu,\"parameters\":%llu,\"file_mb\":%.1f,"
            "\"open_ms\":%.3f,\"load_s\":%.4f,\"load_gbps_out\":%.2f,\"load_gbps_in\":%.2f,"
            "\"load_into_s\":%.4f,\"load_into_gbps_out\":%.2f,\"load_into_gbps_in\":%.2f,"
            "\"open_and_load_into_s\":%.4f}\n",
            dtype.c_str(), names.size(), static_cast<unsigned long long>(params), file_bytes / 1e6,
            open_s * 1e3, load_s, out_bytes / load_s / 1e9, file_bytes / load_s / 1e9, into_s,
            out_bytes / into_s / 1e9, file_bytes / into_s / 1e9, fresh_s);
        std::fflush(stdout);
    }

    // Conversion alone from in-memory buffers of 32 M values (128 MB of float32 out).
    const std::size_t n = std::size_t(32) << 20;
    std::vector<std::uint32_t> f32(n);
    std::vector<std::uint16_t> bf16(n), f16(n);
    std::vector<double> f64(n);
    for (std::size_t i = 0; i < n; ++i) {
        f32[i] = f32_bits(i);
        bf16[i] = static_cast<std::uint16_t>(f32[i] >> 16);
        f16[i] = static_cast<std::uint16_t>((i * 7919u) & 0xFBFFu);
        f64[i] = static_cast<double>(i % 1000) / 1000.0;
    }
    std::vector<float> dst(n, 0.0f);
    const auto report = [&](const char* what, std::size_t in_item, const std::function<void()>& f) {
        f();  // warm-up
        const double s = median_seconds(opt.repeats, f);
        std::printf(
            "{\"convert\":\"%s\",\"values\":%zu,\"ms\":%.2f,\"gbps_out\":%.2f,"
            "\"gbps_in\":%.2f}\n",
            what, n, s * 1e3, double(n) * 4 / s / 1e9, double(n) * in_item / s / 1e9);
        std::fflush(stdout);
    };
    report("F32", 4, [&] { io::convert_to_float("F32", f32.data(), dst.data(), n); });
    report("BF16", 2, [&] { io::convert_to_float("BF16", bf16.data(), dst.data(), n); });
    report("F16", 2, [&] { io::convert_to_float("F16", f16.data(), dst.data(), n); });
    report("F16 portable", 2, [&] { io::detail::convert_f16_portable(f16.data(), dst.data(), n); });
    report("F64", 8, [&] { io::convert_to_float("F64", f64.data(), dst.data(), n); });
    report("memcpy", 4, [&] { std::memcpy(dst.data(), f32.data(), n * 4); });

    if (!opt.keep) std::filesystem::remove_all(opt.dir);
    return 0;
}
