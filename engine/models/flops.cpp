#include "engine/models/flops.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "engine/ops/nn.h"

namespace attnviz::models {

double forward_flops(const ModelConfig& c, std::int64_t tokens) {
    const double L = double(tokens), E = double(c.hidden_size), d = double(c.head_dim);
    const double H = double(c.num_heads), KV = double(c.num_kv_heads);
    const double I = double(c.intermediate_size);
    const double mlp_mats = c.family == Family::Llama ? 3.0 : 2.0;
    const double per_layer = 2.0 * L * E * (H + 2.0 * KV) * d  // q, k, v
                             + 2.0 * L * H * d * E             // output projection
                             + 2.0 * 2.0 * L * L * H * d       // scores and contexts
                             + 2.0 * mlp_mats * L * E * I;     // MLP
    return per_layer * double(c.num_layers);
}

double measure_sgemm_gflops(int repeats) {
    double best = 0.0;
    // Shapes of a BERT-base layer at 512 tokens and a square one, with the weight used
    // transposed (nn.Linear's [out, in]) and stored [in, out]: the peak is the best of them.
    const std::int64_t shapes[][3] = {{512, 768, 3072}, {512, 3072, 768}, {1024, 1024, 1024}};
    for (const auto& s : shapes)
        for (const bool in_out : {false, true}) {
            const std::int64_t m = s[0], k = s[1], n = s[2];
            std::vector<float> a(static_cast<std::size_t>(m * k), 0.5f),
                w(static_cast<std::size_t>(n * k), 0.25f), y(static_cast<std::size_t>(m * n));
            const auto product = [&] {
                ops::linear(a.data(), m, k, w.data(), nullptr, n, y.data(), 1, 0, 0, in_out);
            };
            std::vector<double> seconds;
            product();  // warm-up
            for (int r = 0; r < std::max(1, repeats); ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                product();
                seconds.push_back(
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
            std::nth_element(seconds.begin(),
                             seconds.begin() + static_cast<std::ptrdiff_t>(seconds.size() / 2),
                             seconds.end());
            const double median = seconds[seconds.size() / 2];
            best = std::max(best, 2.0 * double(m) * double(k) * double(n) / median / 1e9);
        }
    return best;
}

}  // namespace attnviz::models
