#include "engine/models/head_atlas.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "engine/ops/random.h"

namespace attnviz::models {

const std::vector<std::string>& head_measure_names() {
    static const std::vector<std::string> names{"entropy", "broadness", "mean_distance", "first",
                                                "self",    "previous",  "induction"};
    return names;
}

double head_measure(const HeadMeasures& m, const std::string& name) {
    if (name == "entropy") return m.entropy;
    if (name == "broadness") return m.broadness;
    if (name == "mean_distance") return m.mean_distance;
    if (name == "first") return m.first;
    if (name == "self") return m.self;
    if (name == "previous") return m.previous;
    if (name == "induction") return m.induction;
    throw std::invalid_argument("unknown head measure '" + name + "'");
}

std::string HeadAtlas::to_csv() const {
    std::ostringstream out;
    out.precision(6);
    out << "layer,head";
    for (const std::string& n : head_measure_names())
        out << ',' << n;
    out << ",labels\n";
    for (std::int64_t l = 0; l < layers_; ++l)
        for (std::int64_t h = 0; h < heads_; ++h) {
            const HeadMeasures& m = at(l, h);
            out << l + 1 << ',' << h + 1;
            for (const std::string& n : head_measure_names())
                out << ',' << head_measure(m, n);
            out << ',';
            for (std::size_t k = 0; k < m.labels.size(); ++k)
                out << (k ? "+" : "") << m.labels[k];
            out << '\n';
        }
    return out.str();
}

void label_heads(HeadAtlas* atlas, const HeadAtlasThresholds& t) {
    for (std::int64_t l = 0; l < atlas->layers(); ++l)
        for (std::int64_t h = 0; h < atlas->heads(); ++h) {
            HeadMeasures& m = atlas->at(l, h);
            m.labels.clear();
            if (m.previous >= t.previous) m.labels.push_back("previous token");
            if (m.first >= t.sink) m.labels.push_back("sink");
            if (m.self >= t.self) m.labels.push_back("self");
            if (m.induction >= t.induction) m.labels.push_back("induction");
            if (m.broadness >= t.broad) m.labels.push_back("broad");
        }
}

std::vector<std::int64_t> induction_sequence(std::int64_t first, std::int64_t period,
                                             std::int64_t low, std::int64_t high,
                                             std::uint64_t seed) {
    if (period < 2 || high - low < 2)
        throw std::invalid_argument(
            "an induction sequence needs a period of 2 or more tokens "
            "from a range of 2 or more ids");
    ops::Random rng(seed);
    std::vector<std::int64_t> once;
    for (std::int64_t k = 0; k < period; ++k)
        once.push_back(low +
                       std::int64_t(rng.uniform(0.0f, 1.0f) * float(high - low)) % (high - low));
    std::vector<std::int64_t> ids{first >= 0 ? first : once.front()};
    for (int copy = 0; copy < 2; ++copy)
        ids.insert(ids.end(), once.begin(), once.end());
    return ids;
}

double induction_score(const float* p, std::int64_t L, std::int64_t period) {
    double sum = 0;
    std::int64_t rows = 0;
    // Query i of the second copy: its earlier occurrence is i − period, the token after it
    // i − period + 1.
    for (std::int64_t i = std::max<std::int64_t>(L - period, period); i < L; ++i, ++rows)
        sum += p[std::size_t(i * L + (i - period + 1))];
    return rows ? sum / double(rows) : 0.0;
}

void add_induction_scores(const Model& model, std::int64_t bos, HeadAtlas* atlas,
                          std::int64_t period, std::uint64_t seed, int num_threads,
                          const HeadAtlasThresholds& thresholds) {
    const ModelInfo& info = model.info();
    period = std::min(period, (info.max_positions - 1) / 2);
    // Ordinary tokens: above the first few ids, which are special or bytes in most vocabularies.
    const std::int64_t low = std::min<std::int64_t>(info.vocab_size / 4, 256);
    ModelInput input;
    input.ids = induction_sequence(bos, period, low, info.vocab_size, seed);
    CollectingSink sink;
    ModelForwardOptions options;
    options.num_threads = num_threads;
    model.forward(input, options, sink);
    const std::int64_t L = std::int64_t(input.ids.size()), H = atlas->heads();
    for (std::size_t k = 0; k < sink.results.size(); ++k) {
        const Tensor& w = sink.results[k].weights;
        for (std::int64_t h = 0; h < H; ++h)
            atlas->at(sink.layers[k], h).induction =
                induction_score(w.ptr() + std::size_t(h * L * L), L, period);
    }
    label_heads(atlas, thresholds);
}

}  // namespace attnviz::models
