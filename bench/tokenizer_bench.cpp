// Opening Hugging Face tokenizers and encoding with them (engine/text/hf/hf_tokenizer.h).
//
//   tokenizer_bench [--folder DIR]... [--repeats 5] [--tokens 10000]
//
// For each folder (default: the qwen2, gpt2 and bert-uncased folders of tests/data/tokenizers;
// Qwen's is the 11 MB tokenizer.json whose opening must stay under 300 ms) it measures, with a
// warm page cache (every file is read once first):
//   * open:   HfTokenizer::from_folder, median of the repeats (wall time and this thread's CPU
//             time, which other jobs on the machine disturb less);
//   * encode: a mixed English/Chinese/code text of at least --tokens tokens, once on a fresh
//             tokenizer (BPE word cache empty) and then the median of the repeats (cache warm),
//             as tokens per second.
// Prints one JSON line per measurement.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <time.h>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/text/hf/hf_tokenizer.h"

namespace {

using attnviz::text::HfTokenizer;
using Clock = std::chrono::steady_clock;

/// CPU time of this thread: on a machine shared with other jobs it varies less than wall time.
double cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return 1000.0 * static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e6;
}

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

void warm_page_cache(const std::string& folder) {
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        if (entry.is_regular_file()) (void)attnviz::io::read_file(entry.path().string());
}

std::string sample_text() {
    return "The quick brown fox jumps over the lazy dog; it's 3.14159 past 12:00, isn't it? "
           "我爱自然语言处理，注意力机制让模型关注重要的词。 "
           "def softmax(x):\n    return np.exp(x - x.max()) / np.exp(x - x.max()).sum()\n"
           "Attention(Q, K, V) = softmax(QKᵀ / √d_k) V — naïve café, emoji "
           "🙂👍🏽.\n\n";
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> folders;
    int repeats = 5;
    long tokens = 10000;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--folder" && i + 1 < argc) {
            folders.push_back(argv[++i]);
        } else if (a == "--repeats" && i + 1 < argc) {
            repeats = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--tokens" && i + 1 < argc) {
            tokens = std::max(1L, std::atol(argv[++i]));
        } else {
            std::fprintf(stderr,
                         "usage: tokenizer_bench [--folder DIR]... [--repeats N] [--tokens N]\n");
            return 2;
        }
    }
    if (folders.empty())
        for (const char* name : {"qwen2", "gpt2", "bert-uncased"})
            folders.push_back(std::string(ATTNVIZ_TOKENIZER_DATA_DIR) + "/" + name);

    try {
        for (const std::string& folder : folders) {
            warm_page_cache(folder);
            std::vector<double> open_ms, open_cpu_ms;
            for (int r = 0; r < repeats; ++r) {
                const auto t0 = Clock::now();
                const double c0 = cpu_ms();
                const HfTokenizer t = HfTokenizer::from_folder(folder);
                open_cpu_ms.push_back(cpu_ms() - c0);
                open_ms.push_back(ms_since(t0));
            }
            const HfTokenizer tok = HfTokenizer::from_folder(folder);
            std::printf(
                "{\"bench\":\"open\",\"folder\":\"%s\",\"kind\":\"%s\",\"vocab_size\":%lld,"
                "\"repeats\":%d,\"median_ms\":%.1f,\"min_ms\":%.1f,\"median_cpu_ms\":%.1f}\n",
                folder.c_str(), tok.kind().c_str(), static_cast<long long>(tok.vocab_size()),
                repeats, median(open_ms), *std::min_element(open_ms.begin(), open_ms.end()),
                median(open_cpu_ms));

            // Grow the text until it holds the requested number of tokens.
            std::string text;
            std::size_t n = 0;
            while (static_cast<long>(n) < tokens) {
                text += sample_text();
                n = tok.encode(text, std::nullopt, false).size();
            }
            const HfTokenizer fresh = HfTokenizer::from_folder(folder);
            const auto c0 = Clock::now();
            const std::size_t cold_tokens = fresh.encode(text).size();
            const double cold_ms = ms_since(c0);
            std::vector<double> warm_ms;
            for (int r = 0; r < repeats; ++r) {
                const auto t0 = Clock::now();
                (void)tok.encode(text);
                warm_ms.push_back(ms_since(t0));
            }
            const double warm = median(warm_ms);
            std::printf(
                "{\"bench\":\"encode\",\"folder\":\"%s\",\"tokens\":%zu,\"bytes\":%zu,"
                "\"cold_ms\":%.1f,\"median_ms\":%.1f,\"tokens_per_s\":%.0f}\n",
                folder.c_str(), cold_tokens, text.size(), cold_ms, warm,
                warm > 0 ? 1000.0 * static_cast<double>(cold_tokens) / warm : 0.0);
        }
    } catch (const attnviz::DataError& e) {
        std::fprintf(stderr, "tokenizer_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
