// One-row products (engine/kernels/row_products.h) over a matrix set far bigger than the
// caches, as a generation step reads a model's weights: for every format, rows of k = 896
// and k = 4864 (Qwen2.5-0.5B's widths; the K-quants' 256-value blocks do not divide 896),
// split over 1 and 2 threads.  Beside each product, in the same run, a plain streaming read
// of the same bytes (64-byte loads summed) gives the memory's read bandwidth: the products
// are bandwidth-bound, so their ratio to it is the figure that matters.
//
//   row_products_bench [--mb 640] [--runs 5] [--format Q4_0]...
//
// Runs alternate the read and the product, so that a noisy neighbour on a shared machine
// slows both alike; medians are reported.  Formats without a kernel are listed as such.
//
//   row_products_bench --rows 16,64,128 [--runs 5] [--threads 2] [--format BF16]...
//
// The multi-row products (row_products_rows) instead, as a streamed prompt's products run them:
// M activation rows by Llama-3-8B's matrices ([4096 -> 14336], [14336 -> 4096],
// [4096 -> 6144]) in BF16 (or F16, F32), beside the engine's sgemm (ops::linear) on the same
// weights converted to float32 in advance, and on weights converted a block of ~8 MB at a time
// just before each block's product (what TransformerWeights::product did for every streamed
// matrix).  GFLOP/s of wall time and per CPU-second, medians of alternated runs.
//   row_products_bench --rows 98 --offset 40   the weights 40 bytes past a cache line, as in a
//                                               safetensors file whose header ends there
// GCC 12's AVX-512 intrinsics trip -Wmaybe-uninitialized (PR 105593; see
// engine/kernels/softmax_avx512.cpp).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <new>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <time.h>

#include "engine/io/safetensors.h"
#include "engine/kernels/row_products.h"
#include "engine/ops/nn.h"
#include "engine/ops/parallel.h"

namespace {

namespace kernels = attnviz::kernels;
using kernels::RowFormat;

struct Options {
    std::size_t megabytes = 640;
    int runs = 5;
    bool huge_pages = false;
    std::vector<RowFormat> formats;
    std::vector<std::int64_t> rows;  ///< --rows: the multi-row products' mode
    int threads = 2;
    std::size_t offset = 0;  ///< --offset: the weights' start past a 64-byte boundary (rows mode)
};

[[noreturn]] void usage(const char* argv0) {
    std::fprintf(stderr,
                 "usage: %s [--mb N] [--runs N] [--huge-pages] [--format NAME]...\n"
                 "       %s --rows M[,M...] [--runs N] [--threads N] [--offset BYTES] [--format "
                 "F32|F16|BF16]...\n",
                 argv0, argv0);
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--huge-pages") {
            o.huge_pages = true;
            continue;
        }
        if (i + 1 >= argc) usage(argv[0]);
        const std::string flag = argv[i], value = argv[++i];
        if (flag == "--mb") {
            o.megabytes = std::strtoul(value.c_str(), nullptr, 10);
        } else if (flag == "--runs") {
            o.runs = std::atoi(value.c_str());
        } else if (flag == "--offset") {
            o.offset = std::strtoul(value.c_str(), nullptr, 10);
            if (o.offset >= 64 || o.offset % 4 != 0) usage(argv[0]);
        } else if (flag == "--threads") {
            o.threads = std::atoi(value.c_str());
        } else if (flag == "--rows") {
            for (std::size_t at = 0; at < value.size();) {
                const std::size_t comma = std::min(value.find(',', at), value.size());
                o.rows.push_back(std::strtoll(value.substr(at, comma - at).c_str(), nullptr, 10));
                if (o.rows.back() <= 0) usage(argv[0]);
                at = comma + 1;
            }
        } else if (flag == "--format") {
            bool found = false;
            for (int f = 0; f < kernels::kRowFormatCount; ++f)
                if (value == kernels::row_format_name(static_cast<RowFormat>(f))) {
                    o.formats.push_back(static_cast<RowFormat>(f));
                    found = true;
                }
            if (!found) usage(argv[0]);
        } else {
            usage(argv[0]);
        }
    }
    if (o.megabytes == 0 || o.runs <= 0 || o.threads <= 0) usage(argv[0]);
    if (!o.rows.empty()) {
        if (o.formats.empty()) o.formats.push_back(RowFormat::BF16);
        for (const RowFormat f : o.formats)
            if (kernels::row_format_quantized(f)) usage(argv[0]);
    }
    if (o.formats.empty())
        for (int f = 0; f < kernels::kRowFormatCount; ++f)
            o.formats.push_back(static_cast<RowFormat>(f));
    return o;
}

/// The matrix set's memory, on 4 KiB pages as a file mapping of the weights would be, or on
/// transparent huge pages (--huge-pages) as the engine's own large buffers (engine/buffers.h):
/// a streaming read over 4 KiB pages pays a page walk per page, which costs a virtual machine
/// a third of its bandwidth.
class Buffer {
  public:
    Buffer(std::size_t size, bool huge) : size_(size) {
        constexpr std::size_t kHuge = std::size_t{2} << 20;
        const std::size_t rounded = (size + kHuge - 1) / kHuge * kHuge;
        data_ = static_cast<std::uint8_t*>(std::aligned_alloc(kHuge, rounded));
        if (!data_) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (huge) madvise(data_, rounded, MADV_HUGEPAGE);
#else
        (void)huge;
#endif
    }
    ~Buffer() {
        std::free(data_);
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    std::uint8_t* data() {
        return data_;
    }
    std::size_t size() const {
        return size_;
    }

  private:
    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

/// xorshift64: random bytes at memory speed.
struct Random {
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    std::uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
};

/// Where a block keeps its float16 scales (and minimums), as GGUF lays them out: random bytes
/// are valid quants, but a scale must be finite.
std::vector<std::size_t> half_fields(RowFormat f) {
    switch (f) {
        case RowFormat::Q4_1:
        case RowFormat::Q5_1:
        case RowFormat::Q4_K:
        case RowFormat::Q5_K:
            return {0, 2};
        case RowFormat::Q2_K:
            return {80, 82};
        case RowFormat::Q3_K:
            return {108};
        case RowFormat::Q6_K:
            return {208};
        default:
            return {0};
    }
}

/// Random valid values of format f over the whole buffer (random bytes already): floats of
/// magnitude in [0.5, 1), block scales near 2^-7.
void make_valid(RowFormat f, Buffer& buffer, Random& random) {
    std::uint8_t* p = buffer.data();
    const std::size_t size = buffer.size();
    const auto put16 = [&](std::size_t at, std::uint16_t v) { std::memcpy(p + at, &v, 2); };
    if (f == RowFormat::F32) {
        for (std::size_t at = 0; at + 4 <= size; at += 4) {
            const auto v = static_cast<std::uint32_t>(random.next());
            const std::uint32_t bits = (v & 0x807FFFFFu) | 0x3F000000u;
            std::memcpy(p + at, &bits, 4);
        }
    } else if (f == RowFormat::F16 || f == RowFormat::BF16) {
        const std::uint16_t keep = f == RowFormat::F16 ? 0x83FF : 0x807F;
        const std::uint16_t half = f == RowFormat::F16 ? 0x3800 : 0x3F00;
        for (std::size_t at = 0; at + 2 <= size; at += 2)
            put16(at, static_cast<std::uint16_t>((random.next() & keep) | half));
    } else {
        const std::size_t block = kernels::row_format_block_bytes(f);
        const std::vector<std::size_t> fields = half_fields(f);
        for (std::size_t at = 0; at + block <= size; at += block)
            for (const std::size_t field : fields)
                put16(at + field, static_cast<std::uint16_t>(0x2000 | (random.next() & 0x3FF)));
    }
}

/// The streaming read: the sum of the bytes [p, p + n) as 64-bit words, 64 bytes a step.
std::uint64_t stream_read(const std::uint8_t* p, std::size_t n) {
    std::size_t i = 0;
    std::uint64_t total = 0;
#if defined(__AVX512F__)
    __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
    for (; i + 256 <= n; i += 256) {
        a = _mm512_add_epi64(a, _mm512_loadu_si512(p + i));
        b = _mm512_add_epi64(b, _mm512_loadu_si512(p + i + 64));
        c = _mm512_add_epi64(c, _mm512_loadu_si512(p + i + 128));
        d = _mm512_add_epi64(d, _mm512_loadu_si512(p + i + 192));
    }
    total = static_cast<std::uint64_t>(
        _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a, b), _mm512_add_epi64(c, d))));
#elif defined(__AVX2__)
    __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
    for (; i + 128 <= n; i += 128) {
        a = _mm256_add_epi64(a, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)));
        b = _mm256_add_epi64(b, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32)));
        c = _mm256_add_epi64(c, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 64)));
        d = _mm256_add_epi64(d, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 96)));
    }
    alignas(32) std::uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes),
                       _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(c, d)));
    total = lanes[0] + lanes[1] + lanes[2] + lanes[3];
#endif
    for (; i + 8 <= n; i += 8) {
        std::uint64_t v;
        std::memcpy(&v, p + i, 8);
        total += v;
    }
    return total;
}

double seconds(const std::function<void()>& fn) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Result {
    double product_gbs = 0, read_gbs = 0;
    double ratio = 0;  ///< median over runs of read time / product time (adjacent runs)
};

/// The product of rows [0, rows) by x and the streaming read of the same bytes, on `threads`
/// threads (rows split alike), alternated `runs` times.
Result measure(RowFormat f, const std::uint8_t* base, std::size_t row_bytes, std::int64_t rows,
               const kernels::RowInput& x, int threads, int runs) {
    std::vector<float> y(static_cast<std::size_t>(rows));
    std::vector<std::uint64_t> sums(static_cast<std::size_t>(threads));
    const auto bytes_of = [&](std::size_t b, std::size_t e) { return (e - b) * row_bytes; };
    const auto product = [&] {
        attnviz::ops::parallel_for(
            static_cast<std::size_t>(rows), threads, [&](std::size_t b, std::size_t e) {
                kernels::row_products(f, reinterpret_cast<const std::byte*>(base) + b * row_bytes,
                                      row_bytes, nullptr, static_cast<std::int64_t>(e - b), x,
                                      y.data() + b);
            });
    };
    const auto read = [&] {
        attnviz::ops::parallel_chunks(static_cast<std::size_t>(rows), threads,
                                      [&](std::size_t chunk, std::size_t b, std::size_t e) {
                                          sums[chunk] +=
                                              stream_read(base + b * row_bytes, bytes_of(b, e));
                                      });
    };
    const double total = static_cast<double>(bytes_of(0, static_cast<std::size_t>(rows)));
    std::vector<double> product_gbs, read_gbs, ratios;
    product();  // page in and warm the pool
    for (int r = 0; r < runs; ++r) {
        const double t_read = seconds(read), t_product = seconds(product);
        read_gbs.push_back(total / t_read / 1e9);
        product_gbs.push_back(total / t_product / 1e9);
        ratios.push_back(t_read / t_product);
    }
    if (sums[0] == 42 && y[0] == 42.0f) std::puts("");  // keep both results alive
    return {median(product_gbs), median(read_gbs), median(ratios)};
}

// --- the multi-row products ------------------------------------------------------------------

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// Wall and CPU seconds of fn.
struct Timing {
    double wall = 0, cpu = 0;
};
Timing timed(const std::function<void()>& fn) {
    const double c0 = cpu_seconds();
    const double wall = seconds(fn);
    return {wall, cpu_seconds() - c0};
}

/// The rows TransformerWeights converts and multiplies at a time (its stream_block_rows).
std::int64_t stream_block_rows(std::int64_t in) {
    return std::max<std::int64_t>(256, ((std::int64_t{8} << 20) / (4 * in)) / 64 * 64);
}

const char* dtype_of(RowFormat f) {
    return f == RowFormat::F32 ? "F32" : f == RowFormat::F16 ? "F16" : "BF16";
}

/// One shape: the weight [out, in] in format f (random, valid), its float32 copy, and M rows
/// of activations; the three products alternated `runs` times on `threads` threads.
void measure_rows(RowFormat f, std::int64_t in, std::int64_t out,
                  const std::vector<std::int64_t>& ms, int threads, int runs, std::size_t offset,
                  Random& random) {
    const std::size_t bytes = kernels::row_format_block_bytes(f);
    const std::size_t row_bytes = static_cast<std::size_t>(in) * bytes;
    Buffer weights(row_bytes * static_cast<std::size_t>(out) + offset, false);
    for (std::size_t at = 0; at + 8 <= weights.size(); at += 8) {
        const std::uint64_t v = random.next();
        std::memcpy(weights.data() + at, &v, 8);
    }
    make_valid(f, weights, random);
    // A safetensors file's tensors start wherever its header ends (a multiple of 8 bytes).
    std::uint8_t* const start = weights.data() + offset;
    const auto* base = reinterpret_cast<const std::byte*>(start);
    const auto count = static_cast<std::size_t>(in * out);
    std::vector<float> converted(count), block;
    attnviz::io::convert_to_float(dtype_of(f), start, converted.data(), count);
    const std::int64_t block_rows = std::min(out, stream_block_rows(in));
    block.resize(static_cast<std::size_t>(block_rows * in));
    for (const std::int64_t m : ms) {
        std::vector<float> x(static_cast<std::size_t>(m * in)),
            y(static_cast<std::size_t>(m * out));
        for (float& v : x)
            v = static_cast<float>(static_cast<std::int64_t>(random.next() % 2001) - 1000) /
                1000.0f;
        const auto rows = [&] {
            attnviz::ops::parallel_for(
                static_cast<std::size_t>(out), threads, [&](std::size_t b, std::size_t e) {
                    kernels::row_products_rows(f, base + b * row_bytes, row_bytes, nullptr,
                                               static_cast<std::int64_t>(e - b), x.data(), m, in,
                                               in, y.data() + b, out);
                });
        };
        const auto sgemm = [&] {
            attnviz::ops::linear(x.data(), m, in, converted.data(), nullptr, out, y.data(),
                                 threads);
        };
        const auto streamed = [&] {
            for (std::int64_t n0 = 0; n0 < out; n0 += block_rows) {
                const std::int64_t n = std::min(block_rows, out - n0);
                attnviz::ops::parallel_for(
                    static_cast<std::size_t>(n), threads, [&](std::size_t b, std::size_t e) {
                        attnviz::io::convert_to_float(
                            dtype_of(f), start + (static_cast<std::size_t>(n0) + b) * row_bytes,
                            block.data() + b * static_cast<std::size_t>(in),
                            (e - b) * static_cast<std::size_t>(in));
                    });
                attnviz::ops::linear(x.data(), m, in, block.data(), nullptr, n, y.data() + n0,
                                     threads, in, out);
            }
        };
        const std::function<void()> fns[3] = {rows, sgemm, streamed};
        std::vector<double> wall[3], cpu[3];
        for (const auto& fn : fns)
            fn();  // warm the pool, the packing buffers and the caches' view of x
        for (int r = 0; r < runs; ++r)
            for (int i = 0; i < 3; ++i) {
                const Timing t = timed(fns[i]);
                wall[i].push_back(t.wall);
                cpu[i].push_back(t.cpu);
            }
        const double flop =
            2.0 * static_cast<double>(m) * static_cast<double>(in) * static_cast<double>(out) / 1e9;
        std::printf("%-4s %5lld %5lld %5lld %-6s |", dtype_of(f), static_cast<long long>(in),
                    static_cast<long long>(out), static_cast<long long>(m),
                    kernels::row_products_rows_isa(f));
        for (int i = 0; i < 3; ++i)
            std::printf(" %7.1f %7.1f |", flop / median(wall[i]), flop / median(cpu[i]));
        std::printf(" %5.2f %5.2f\n", median(wall[1]) / median(wall[0]),
                    median(wall[2]) / median(wall[0]));
        std::fflush(stdout);
    }
}

int rows_mode(const Options& o) {
    std::printf(
        "row_products_rows on %d threads against the engine's sgemm (ops::linear) on float32 "
        "weights converted in advance, and on weights converted a block of ~8 MB at a time "
        "(the streamed path); GFLOP/s per wall second and per CPU-second, medians of %d "
        "alternated runs; x: sgemm's and the streamed path's time over row_products_rows'; "
        "weights %zu bytes past a 64-byte boundary; tiles %s (ATTNVIZ_ROW_TILES)\n",
        o.threads, o.runs, o.offset, kernels::row_products_rows_tiles());
    std::printf("%-4s %5s %5s %5s %-6s | %15s | %15s | %15s | %11s\n", "type", "in", "out", "M",
                "isa", "rows  wall cpu", "sgemm wall cpu", "conv wall cpu", "x sgemm conv");
    Random random;
    const std::int64_t shapes[][2] = {{4096, 14336}, {14336, 4096}, {4096, 6144}};
    for (const RowFormat f : o.formats)
        for (const auto& shape : shapes)
            measure_rows(f, shape[0], shape[1], o.rows, o.threads, o.runs, o.offset, random);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    if (!o.rows.empty()) return rows_mode(o);
    const std::size_t target = o.megabytes << 20;
    // Room for the largest set: whole rows of at least `target` bytes.
    Buffer buffer(target + 4864 * 4, o.huge_pages);
    Random random;
    for (std::size_t at = 0; at + 8 <= buffer.size(); at += 8) {
        const std::uint64_t v = random.next();
        std::memcpy(buffer.data() + at, &v, 8);
    }
    std::vector<float> values(4864);
    for (float& v : values)
        v = static_cast<float>(static_cast<std::int64_t>(random.next() % 2001) - 1000) / 1000.0f;

    std::printf(
        "row_products over %zu MB of rows (%s pages), median of %d runs; read = "
        "streaming read of the same bytes; ratio = median of read time / product time\n",
        o.megabytes, o.huge_pages ? "huge" : "4 KiB", o.runs);
    std::printf("%-5s %5s %-7s | %9s %9s %6s | %9s %9s %6s\n", "type", "k", "isa", "1T GB/s",
                "read", "ratio", "2T GB/s", "read", "ratio");
    for (const RowFormat f : o.formats) {
        make_valid(f, buffer, random);
        for (const std::int64_t k : {std::int64_t{896}, std::int64_t{4864}}) {
            const char* name = kernels::row_format_name(f);
            if (k % kernels::row_format_block_values(f) != 0) {
                std::printf("%-5s %5lld (k is not a whole number of blocks)\n", name,
                            static_cast<long long>(k));
                continue;
            }
            const std::size_t row_bytes =
                static_cast<std::size_t>(k / kernels::row_format_block_values(f)) *
                kernels::row_format_block_bytes(f);
            const auto rows = static_cast<std::int64_t>((target + row_bytes - 1) / row_bytes);
            kernels::RowInput x;
            x.reset(values.data(), k);
            x.prepare(f);
            try {
                const Result one = measure(f, buffer.data(), row_bytes, rows, x, 1, o.runs);
                const Result two = measure(f, buffer.data(), row_bytes, rows, x, 2, o.runs);
                std::printf("%-5s %5lld %-7s | %9.1f %9.1f %5.0f%% | %9.1f %9.1f %5.0f%%\n", name,
                            static_cast<long long>(k), kernels::row_products_isa(f),
                            one.product_gbs, one.read_gbs, 100 * one.ratio, two.product_gbs,
                            two.read_gbs, 100 * two.ratio);
            } catch (const std::exception& e) {
                std::printf("%-5s %5lld %s\n", name, static_cast<long long>(k), e.what());
            }
            std::fflush(stdout);
        }
    }
    return 0;
}
