#include "ui/classroom/head_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace attnviz::ui {

std::vector<HeadStatistics> head_statistics(const AttentionSnapshot& s, int item) {
    std::vector<HeadStatistics> out;
    if (s.batch == 0) return out;
    const int n = std::clamp(item, 0, s.batch - 1);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto& keys = s.key_tokens[std::size_t(n)];
    std::vector<int> cls, sep;
    for (int j = 0; j < s.source_len; ++j) {
        if (keys[std::size_t(j)] == QLatin1String("[CLS]")) cls.push_back(j);
        if (keys[std::size_t(j)] == QLatin1String("[SEP]")) sep.push_back(j);
    }
    const bool self_attention = s.config.pair_mode != PairMode::CrossAttention;
    for (int h = 0; h < s.heads; ++h) {
        HeadStatistics st;
        st.head = h;
        int prev_rows = 0;
        for (int i = 0; i < s.target_len; ++i) {
            if (s.row_fully_masked(n, h, i)) continue;
            ++st.rows;
            double entropy = 0.0, mx = 0.0, dist = 0.0;
            for (int j = 0; j < s.source_len; ++j) {
                const double p = s.weight(n, h, i, j);
                if (!(p > 0.0)) continue;
                entropy -= p * std::log2(p);
                mx = std::max(mx, p);
                dist += p * std::abs(i - j);
            }
            st.entropy += entropy;
            st.max_weight += mx;
            st.mean_distance += dist;
            st.first += s.weight(n, h, i, 0);
            for (int j : cls)
                st.cls += s.weight(n, h, i, j);
            for (int j : sep)
                st.sep += s.weight(n, h, i, j);
            if (self_attention && i < s.source_len) st.self += s.weight(n, h, i, i);
            if (i >= 1 && i - 1 < s.source_len) {
                st.previous += s.weight(n, h, i, i - 1);
                ++prev_rows;
            }
        }
        const double r = st.rows > 0 ? st.rows : nan;
        st.entropy /= r;
        st.max_weight /= r;
        st.mean_distance /= r;
        st.first /= r;
        st.cls = cls.empty() ? nan : st.cls / r;
        st.sep = sep.empty() ? nan : st.sep / r;
        st.self = self_attention ? st.self / r : nan;
        st.previous = prev_rows > 0 ? st.previous / prev_rows : nan;
        out.push_back(st);
    }
    return out;
}

std::string head_statistics_table(const std::vector<HeadStatistics>& stats, char separator) {
    std::string out;
    const char* const names[] = {"head",  "rows", "entropy_bits", "max_weight", "mean_distance",
                                 "first", "cls",  "sep",          "self",       "previous"};
    for (const char* name : names) {
        if (name != names[0]) out += separator;
        out += name;
    }
    out += '\n';
    char buffer[32];
    const auto number = [&](double v) {
        out += separator;
        if (std::isnan(v)) return;
        std::snprintf(buffer, sizeof buffer, "%.9g", v);
        out += buffer;
    };
    for (const HeadStatistics& s : stats) {
        out += std::to_string(s.head + 1);
        out += separator;
        out += std::to_string(s.rows);
        for (double v :
             {s.entropy, s.max_weight, s.mean_distance, s.first, s.cls, s.sep, s.self, s.previous})
            number(v);
        out += '\n';
    }
    return out;
}

}  // namespace attnviz::ui
