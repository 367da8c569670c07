#include "ui/compute/snapshot_statistics.h"

#include <algorithm>
#include <string>

namespace attnviz::ui {

std::vector<models::HeadMeasures> snapshot_head_measures(const AttentionSnapshot& s, int item) {
    std::vector<models::HeadMeasures> out;
    if (s.batch == 0) return out;
    const int n = std::clamp(item, 0, s.batch - 1);
    models::MapLayout layout;
    layout.keys = s.source_len;
    layout.self_attention = s.config.pair_mode != PairMode::CrossAttention;
    // Every key counts as seen: a masked key's weight is 0, and the Statistics tab shows no
    // measure (broadness) that depends on how many keys a row sees.
    layout.causal = false;
    std::vector<std::string> keys;
    for (const QString& token : s.key_tokens[std::size_t(n)])
        keys.push_back(token.toStdString());
    layout.special = models::special_keys(keys);
    // fully_masked_rows holds every head's rows, kept weights or not (row_fully_masked).
    const auto H = std::size_t(std::max(s.num_heads, s.heads)), L = std::size_t(s.target_len);
    // Norm-based maps are no shares of 1: each row is measured as the shares of its total.
    std::vector<float> shares(s.norm_based ? L * std::size_t(s.source_len) : 0);
    for (int h = 0; h < s.heads; ++h) {
        const float* map = s.weights.ptr() + s.cell(n, h, 0, 0);
        if (s.norm_based) {
            const auto S = std::size_t(s.source_len);
            for (std::size_t i = 0; i < L; ++i) {
                double total = 0.0;
                for (std::size_t j = 0; j < S; ++j)
                    total += double(map[i * S + j]);
                for (std::size_t j = 0; j < S; ++j)
                    shares[i * S + j] = total > 0.0 ? float(double(map[i * S + j]) / total) : 0.0f;
            }
            map = shares.data();
        }
        out.push_back(models::measure_head(
            map, s.target_len, layout,
            s.fully_masked_rows.empty()
                ? nullptr
                : s.fully_masked_rows.data() + (std::size_t(n) * H + std::size_t(h)) * L));
    }
    return out;
}

SnapshotStatistics snapshot_statistics(const AttentionSnapshot& s) {
    SnapshotStatistics out;
    out.generation = s.generation;
    for (int n = 0; n < s.batch; ++n)
        out.items.push_back(snapshot_head_measures(s, n));
    return out;
}

}  // namespace attnviz::ui
