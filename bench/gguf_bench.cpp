// GGUF models against the same model's BF16 safetensors, in one run: opening, and forward
// passes with the weights kept and streamed.
//
//   gguf_bench [--dir D] [--tokens 128] [--threads 2] [--repeats 5] [--passes 3] [--open-only 1]
//
// D holds what bench/gguf_checkpoint.py writes (Qwen2.5-0.5B's shapes, random weights):
// q4_k_m.gguf (~400 MB, the types llama-quantize's Q4_K_M gives that model), q8_0.gguf and
// bf16/ (config.json + model.safetensors).  With a warm page cache (each file read once first):
//   * open: GgufFile::open + load_gguf_model (header, metadata, tensor infos), and
//           open_model_folder (the same plus the 151,936-token tokenizer from the metadata),
//           beside open_model_folder on bf16/ (whose folder has no tokenizer: model only);
//           median of --repeats;
//   * forward: a pass over --tokens random ids, attention maps collected as the window does,
//           for each model in turn (interleaved, so the machine's load falls on all alike):
//           "first" (the kept weights converted as the layers run), then the median of
//           --passes "kept" passes, then the median of --passes "streamed" passes
//           (set_weight_cache_bytes(0): every layer converted again as it runs); and each
//           GGUF median as a multiple of the BF16 one;
//   * dequantize: each type's largest tensor dequantized a row at a time, one thread.
// Prints one JSON line per measurement.  A benchmark, never a test.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/io/gguf.h"
#include "engine/io/gguf_quants.h"
#include "engine/models/gguf_model.h"
#include "engine/models/gguf_tokenizer.h"
#include "engine/models/model.h"
#include "engine/models/model_folder.h"

namespace {

namespace models = attnviz::models;
using Clock = std::chrono::steady_clock;

struct Options {
    std::string dir = "/tmp/attnviz-bench/qwen2.5-0.5b-shapes";
    int tokens = 128, threads = 2, repeats = 5, passes = 3;
    bool open_only = false;  ///< --open-only 1: the open measurements, nothing else
};

double seconds_of(const std::function<void()>& f) {
    const auto t0 = Clock::now();
    f();
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

double median_of(int n, const std::function<void()>& f) {
    std::vector<double> t;
    for (int i = 0; i < n; ++i)
        t.push_back(seconds_of(f));
    return median(t);
}

void read_once(const std::string& path) {  // into the page cache
    std::ifstream in(path, std::ios::binary);
    std::vector<char> buf(1 << 20);
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
    }
}

/// Every layer's maps are computed and handed over, as for the window; only their size is kept.
struct MapsSink : models::AttentionSink {
    std::size_t values = 0;
    void on_layer(std::int64_t, attnviz::AttentionResult&& r) override {
        values += r.weights.numel();
    }
};

struct Case {
    std::string name, path;
    std::unique_ptr<models::Model> model;
    std::vector<double> kept, streamed;
    double first = 0;
};

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--dir")
            o.dir = v;
        else if (k == "--tokens")
            o.tokens = std::atoi(v.c_str());
        else if (k == "--threads")
            o.threads = std::atoi(v.c_str());
        else if (k == "--repeats")
            o.repeats = std::atoi(v.c_str());
        else if (k == "--passes")
            o.passes = std::atoi(v.c_str());
        else if (k == "--open-only")
            o.open_only = std::atoi(v.c_str()) != 0;
        else {
            std::fprintf(stderr, "gguf_bench: unknown option %s\n", k.c_str());
            return 2;
        }
    }
    const std::string q4 = o.dir + "/q4_k_m.gguf", q8 = o.dir + "/q8_0.gguf",
                      bf16 = o.dir + "/bf16";
    try {
        for (const std::string& p : {q4, q8, bf16 + "/model.safetensors"})
            read_once(p);

        for (const std::string& p : {q4, q8}) {
            const double model_only = median_of(o.repeats, [&] {
                const auto f = attnviz::io::GgufFile::open(p);
                (void)models::load_gguf_model(f);
            });
            const double with_tokenizer =
                median_of(o.repeats, [&] { (void)models::open_model_folder(p); });
            // The tokenizer alone, from the metadata of the file open.
            const auto f = attnviz::io::GgufFile::open(p);
            const double tokenizer = median_of(o.repeats, [&] { (void)models::gguf_tokenizer(f); });
            std::printf(
                "{\"bench\":\"open\",\"file\":\"%s\",\"model_ms\":%.1f,"
                "\"model_and_tokenizer_ms\":%.1f,\"tokenizer_ms\":%.1f}\n",
                p.c_str(), model_only * 1e3, with_tokenizer * 1e3, tokenizer * 1e3);
        }
        if (o.open_only) return 0;
        // Dequantization alone, one thread, one row at a time into a reused buffer (as a
        // streamed block is converted): the largest tensor of each type, values per second.
        for (const std::string& p : {q4, q8}) {
            const auto f = attnviz::io::GgufFile::open(p);
            std::map<std::uint32_t, const attnviz::io::GgufTensorInfo*> largest;
            for (const auto& t : f.tensors())
                if (!largest[t.type] || largest[t.type]->numel < t.numel) largest[t.type] = &t;
            for (const auto& entry : largest) {  // clang 14 cannot capture bindings
                const std::uint32_t type = entry.first;
                const attnviz::io::GgufTensorInfo* t = entry.second;
                const std::string_view bytes = f.tensor_data(*t);
                const std::int64_t cols = t->ne[0], rows = t->numel / cols;
                const std::size_t row_bytes = bytes.size() / static_cast<std::size_t>(rows);
                std::vector<float> row(static_cast<std::size_t>(cols));
                const double s = median_of(o.repeats, [&] {
                    for (std::int64_t r = 0; r < rows; ++r)
                        (void)attnviz::io::dequantize(
                            t->ggml_type(),
                            reinterpret_cast<const std::byte*>(bytes.data()) +
                                static_cast<std::size_t>(r) * row_bytes,
                            row.data(), cols);
                });
                std::printf(
                    "{\"bench\":\"dequantize\",\"type\":\"%s\",\"tensor\":\"%s\","
                    "\"values\":%lld,\"gvalues_per_s\":%.2f}\n",
                    attnviz::io::gguf_type_name(type).c_str(), t->name.c_str(),
                    static_cast<long long>(t->numel), static_cast<double>(t->numel) / s / 1e9);
            }
        }
        const double st = median_of(o.repeats, [&] { (void)models::load_model(bf16); });
        std::printf("{\"bench\":\"open\",\"file\":\"%s\",\"model_ms\":%.1f}\n", bf16.c_str(),
                    st * 1e3);
        std::fflush(stdout);

        std::vector<Case> cases;
        cases.push_back({"bf16", bf16, models::load_model(bf16), {}, {}, 0});
        cases.push_back(
            {"q4_k_m", q4, models::load_gguf_model(attnviz::io::GgufFile::open(q4)), {}, {}, 0});
        cases.push_back(
            {"q8_0", q8, models::load_gguf_model(attnviz::io::GgufFile::open(q8)), {}, {}, 0});
        std::mt19937 rng(7);
        models::ModelInput in;
        for (int i = 0; i < o.tokens; ++i)
            in.ids.push_back(static_cast<std::int64_t>(rng() % 151936));
        models::ModelForwardOptions opt;
        opt.num_threads = o.threads;
        const auto pass = [&](Case& c) {
            MapsSink sink;
            return seconds_of([&] { c.model->forward(in, opt, sink); });
        };
        for (Case& c : cases) {
            c.model->set_weight_cache_bytes(std::numeric_limits<std::size_t>::max());
            c.first = pass(c);
        }
        for (int i = 0; i < o.passes; ++i)
            for (Case& c : cases)
                c.kept.push_back(pass(c));
        for (Case& c : cases)
            c.model->set_weight_cache_bytes(0);
        for (int i = 0; i < o.passes; ++i)
            for (Case& c : cases)
                c.streamed.push_back(pass(c));
        const double kept0 = median(cases[0].kept), streamed0 = median(cases[0].streamed);
        for (Case& c : cases) {
            const double k = median(c.kept), s = median(c.streamed);
            std::printf(
                "{\"bench\":\"forward\",\"model\":\"%s\",\"dtype\":\"%s\",\"tokens\":%d,"
                "\"threads\":%d,\"first_ms\":%.0f,\"kept_ms\":%.0f,\"streamed_ms\":%.0f,"
                "\"kept_vs_bf16\":%.2f,\"streamed_vs_bf16\":%.2f,\"streaming_weight_mb\":%.1f}\n",
                c.name.c_str(), c.model->info().dtype.c_str(), o.tokens, o.threads, c.first * 1e3,
                k * 1e3, s * 1e3, k / kept0, s / streamed0,
                static_cast<double>(c.model->streaming_weight_bytes()) / 1e6);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gguf_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
