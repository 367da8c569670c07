#include "engine/models/corpus.h"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when Eigen's packet
// max is inlined here, as in head_statistics.cpp: a false positive under -Werror.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "engine/models/head_statistics.h"
#include "engine/models/qk_embedding.h"

namespace attnviz::models {

namespace {

using Index = std::int64_t;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr float kNoBar = -std::numeric_limits<float>::infinity();

/// What label_heads labels, and the measure and threshold each label is about.
struct LabelRule {
    const char* label;
    const char* measure;
    double HeadAtlasThresholds::*threshold;
};
constexpr LabelRule kLabelRules[] = {
    {"previous token", "previous", &HeadAtlasThresholds::previous},
    {"sink", "first", &HeadAtlasThresholds::sink},
    {"self", "self", &HeadAtlasThresholds::self},
    {"induction", "induction", &HeadAtlasThresholds::induction},
    {"broad", "broadness", &HeadAtlasThresholds::broad},
};

}  // namespace

// The types CorpusAnalysis::State holds: a class with external linkage may not hold a type of
// an anonymous namespace once a unity build includes this file (gcc's -Wsubobject-linkage).
namespace corpus_detail {

/// One attention cell an example may be.
struct Cell {
    float weight;
    Index text, query, key;
};
/// Larger weight first; ties to the earlier text, query, key (a total order: the kept cells do
/// not depend on the order the rows came in).
bool better(const Cell& a, const Cell& b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    if (a.text != b.text) return a.text < b.text;
    if (a.query != b.query) return a.query < b.query;
    return a.key < b.key;
}

/// The best k cells offered: a heap whose top is the worst kept.
class TopCells {
  public:
    void reset(std::size_t k) {
        k_ = k;
        heap_.clear();
    }
    /// What a cell's weight must reach to be kept.
    float bar() const { return heap_.size() < k_ ? kNoBar : heap_.front().weight; }
    void offer(const Cell& c) {
        if (heap_.size() < k_) {
            heap_.push_back(c);
            std::push_heap(heap_.begin(), heap_.end(), better);
        } else if (k_ > 0 && better(c, heap_.front())) {
            std::pop_heap(heap_.begin(), heap_.end(), better);
            heap_.back() = c;
            std::push_heap(heap_.begin(), heap_.end(), better);
        }
    }
    const std::vector<Cell>& cells() const { return heap_; }

  private:
    std::size_t k_ = 0;
    std::vector<Cell> heap_;
};

/// Welford's running mean and sum of squared deviations.
struct Running {
    Index n = 0;
    double mean = 0.0, m2 = 0.0;
    void add(double x) {
        ++n;
        const double delta = x - mean;
        mean += delta / double(n);
        m2 += delta * (x - mean);
    }
    MeasureSummary summary() const {
        MeasureSummary s;
        s.texts = n;
        if (n == 0) return s;
        s.mean = mean;
        if (n < 2) return s;
        s.sd = std::sqrt(m2 / double(n - 1));
        const double half = student_t_quantile(0.975, double(n - 1)) * s.sd / std::sqrt(double(n));
        s.low = mean - half;
        s.high = mean + half;
        return s;
    }
};

}  // namespace corpus_detail

namespace {

/// I_x(a, b), the regularized incomplete beta function, by its continued fraction (modified
/// Lentz), on the side of x where it converges fast.
double incomplete_beta(double a, double b, double x) {
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    if (x > (a + 1.0) / (a + b + 2.0)) return 1.0 - incomplete_beta(b, a, 1.0 - x);
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                  a * std::log(x) + b * std::log1p(-x)) /
                         a;
    constexpr double kTiny = 1e-300;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
    d = 1.0 / (std::abs(d) < kTiny ? kTiny : d);
    double f = d;
    for (int m = 1; m <= 500; ++m) {
        for (const double numerator :
             {m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
              -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))}) {
            d = 1.0 + numerator * d;
            d = 1.0 / (std::abs(d) < kTiny ? kTiny : d);
            c = 1.0 + numerator / c;
            if (std::abs(c) < kTiny) c = kTiny;
            f *= c * d;
        }
        if (std::abs(c * d - 1.0) < 1e-15) break;
    }
    return front * f;
}

/// P(T ≤ t) = 1/2 + sign(t) I_{t²/(ν+t²)}(1/2, ν/2) / 2: accurate near 0, where the usual
/// form's 1 − ν/(ν+t²) would round away.
double student_t_cdf(double t, double dof) {
    const double half = 0.5 * incomplete_beta(0.5, 0.5 * dof, t * t / (dof + t * t));
    return t >= 0 ? 0.5 + half : 0.5 - half;
}

/// The keys a row of an L-token text sees.
Index seen_keys(bool causal, Index i, Index L) {
    return causal ? i + 1 : L;
}

}  // namespace

const MeasureSummary& CorpusHead::measure(const std::string& name) const {
    const auto& names = head_measure_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) throw std::invalid_argument("unknown head measure '" + name + "'");
    return measures[std::size_t(it - names.begin())];
}

double student_t_quantile(double p, double dof) {
    if (!(p > 0.0 && p < 1.0) || !(dof > 0.0))
        throw std::invalid_argument("Student's t has no " + std::to_string(p) + "-quantile with " +
                                    std::to_string(dof) + " degrees of freedom");
    double lo = -1.0, hi = 1.0;
    while (student_t_cdf(lo, dof) > p)
        lo *= 2.0;
    while (student_t_cdf(hi, dof) < p)
        hi *= 2.0;
    for (int k = 0; k < 200 && hi - lo > 1e-12 * std::max(1.0, std::abs(hi)); ++k) {
        const double mid = 0.5 * (lo + hi);
        (student_t_cdf(mid, dof) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

/// Everything the analysis sums over texts, and the sink of one text's pass.
struct CorpusAnalysis::State : AttentionSink {
    using Cell = corpus_detail::Cell;
    using TopCells = corpus_detail::TopCells;
    using Running = corpus_detail::Running;

    const Model& model;
    CorpusOptions options;
    Index layers, heads, bins;
    bool causal;

    // Over the texts.
    struct HeadSums {
        std::vector<Running> measures;                ///< head_measure_names()
        std::vector<Index> label_texts, label_agree;  ///< kLabelRules
        std::vector<double> bin_sum;
        std::vector<Index> bin_texts;
        std::vector<Cell> kept;               ///< the best top_k cells so far, best first
        std::vector<CorpusExample> examples;  ///< kept's, with their context
    };
    std::vector<HeadSums> sums;  ///< [layers × heads]
    Index texts = 0, texts_with_repeats = 0, tokens = 0;
    std::vector<QueryKeyReader> readers;
    std::vector<CorpusQueryKeys> qk;

    // One text's pass.
    struct Slot {
        std::vector<double> induction;  ///< [heads]
        std::vector<Index> induction_rows;
        std::vector<TopCells> top;  ///< [heads]
    };
    const CorpusText* text = nullptr;
    Index text_length = 0;
    std::unique_ptr<HeadStatisticsSink> statistics;
    /// The latest earlier position of each token's id (−1: none), and whether the induction
    /// measure reads the row (an earlier occurrence at j < i − 1).
    std::vector<Index> previous_occurrence;
    std::vector<std::uint8_t> repeats;
    std::vector<float> bars;  ///< [layers × heads]: what a cell must reach to be kept
    std::vector<Slot> slots;
    std::vector<double> text_induction;         ///< [layers × heads]; NaN: no row
    std::vector<std::vector<Cell>> text_cells;  ///< [layers × heads]: this text's candidates
    std::vector<std::size_t> qk_before;         ///< each asked head's tokens before this text

    State(const Model& m, CorpusOptions o)
        : model(m),
          options(std::move(o)),
          layers(m.info().num_layers),
          heads(m.info().num_heads),
          bins(options.bins),
          causal(m.info().causal) {
        if (options.top_k < 0 || options.context < 0 || options.bins < 1 ||
            options.qk_max_tokens < 1)
            throw std::invalid_argument(
                "a corpus analysis keeps 0 or more examples with 0 or more tokens of context, "
                "in 1 or more bins, and 1 or more tokens of the asked heads");
        sums.resize(std::size_t(layers * heads));
        for (HeadSums& s : sums) {
            s.measures.resize(head_measure_names().size());
            s.label_texts.assign(std::size(kLabelRules), 0);
            s.label_agree.assign(std::size(kLabelRules), 0);
            s.bin_sum.assign(std::size_t(bins), 0.0);
            s.bin_texts.assign(std::size_t(bins), 0);
        }
        for (const HeadRef& h : options.qk_heads) {
            readers.emplace_back(model, h);
            qk.push_back({h, readers.back().dim(), {}, {}, {}});
        }
    }

    HeadSums& at(Index layer, Index head) { return sums[std::size_t(layer * heads + head)]; }

    // ---- The sink: the statistics pass's rows, teed -----------------------------------------
    void on_layer(std::int64_t, AttentionResult&&) override {}
    bool wants_rows() const override { return true; }
    bool wants_residuals() const override {
        for (const CorpusQueryKeys& q : qk)
            if (Index(q.tokens.size()) < options.qk_max_tokens) return true;
        return false;
    }

    void begin_rows(std::int64_t layer, std::size_t slot_count) override {
        statistics->begin_rows(layer, slot_count);
        slots.resize(slot_count);
        for (Slot& s : slots) {
            s.induction.assign(std::size_t(heads), 0.0);
            s.induction_rows.assign(std::size_t(heads), 0);
            s.top.resize(std::size_t(heads));
            for (TopCells& t : s.top)
                t.reset(std::size_t(options.top_k));
        }
    }

    void on_rows(std::int64_t layer, std::size_t slot, const RowBlock& b) override {
        statistics->on_rows(layer, slot, b);
        Slot& s = slots[slot];
        const auto h = std::size_t(b.head);
        const float committed = bars[std::size_t(layer * heads + b.head)];
        TopCells& top = s.top[h];
        // Only keys up to each query are read: a row's valid weights (RowBlock).
        for (Index r = 0; r < b.rows; ++r) {
            const Index i = b.first_row + r;
            const float* row = b.row(r);
            if (repeats[std::size_t(i)]) {
                double share = 0.0;
                for (Index j = previous_occurrence[std::size_t(i)]; j >= 0;
                     j = previous_occurrence[std::size_t(j)])
                    if (j + 1 < i) share += double(row[j + 1]);
                s.induction[h] += share;
                ++s.induction_rows[h];
            }
            if (options.top_k > 0) offer_row(top, committed, row, i, b.keys);
        }
    }

    /// Row i's cells on keys other than the first and i, to `top` (which keeps the slot's best
    /// of this text), past the bar of the cells kept before this text.
    void offer_row(TopCells& top, float committed, const float* row, Index i, Index L) const {
        const Index seen = seen_keys(causal, i, L);
        for (const auto& [begin, end] :
             {std::pair{Index{1}, std::min(i, seen)}, std::pair{i + 1, seen}}) {
            if (end <= begin) continue;
            const float bar = std::max(committed, top.bar());
            if (Eigen::Map<const Eigen::ArrayXf>(row + begin, end - begin).maxCoeff() < bar)
                continue;
            for (Index j = begin; j < end; ++j)
                if (row[j] >= std::max(committed, top.bar())) top.offer({row[j], texts, i, j});
        }
    }

    void end_rows(std::int64_t layer) override {
        statistics->end_rows(layer);
        for (Index h = 0; h < heads; ++h) {
            double share = 0.0;
            Index rows = 0;
            std::vector<Cell>& cells = text_cells[std::size_t(layer * heads + h)];
            for (const Slot& s : slots) {  // in slot order: the same sums whatever ran them
                share += s.induction[std::size_t(h)];
                rows += s.induction_rows[std::size_t(h)];
                const auto& kept = s.top[std::size_t(h)].cells();
                cells.insert(cells.end(), kept.begin(), kept.end());
            }
            text_induction[std::size_t(layer * heads + h)] = rows ? share / double(rows) : kNaN;
        }
    }

    void on_residual(std::int64_t layer, const Tensor& residual) override {
        for (std::size_t k = 0; k < readers.size(); ++k) {
            if (readers[k].head().layer != layer) continue;
            CorpusQueryKeys& q = qk[k];
            const auto room = std::size_t(options.qk_max_tokens) - qk_before[k];
            if (room == 0) continue;
            readers[k].read(residual, &q.queries, &q.keys, options.num_threads);
            const std::size_t kept =
                (qk_before[k] + std::min<std::size_t>(room, std::size_t(text_length))) *
                std::size_t(q.dim);
            q.queries.resize(kept);
            q.keys.resize(kept);
        }
    }

    // ---- One text ---------------------------------------------------------------------------
    void start(const CorpusText& t) {
        text = &t;
        text_length = Index(t.input.ids.size());
        const Index L = text_length;
        statistics = std::make_unique<HeadStatisticsSink>(layers, heads, L, causal, false, 1);
        previous_occurrence.assign(std::size_t(L), -1);
        repeats.assign(std::size_t(L), 0);
        std::unordered_map<std::int64_t, Index> last;
        for (Index i = 0; i < L; ++i) {
            const auto [it, first] = last.try_emplace(t.input.ids[std::size_t(i)], i);
            if (!first) {
                previous_occurrence[std::size_t(i)] = it->second;
                it->second = i;
            }
            for (Index j = previous_occurrence[std::size_t(i)]; j >= 0 && !repeats[std::size_t(i)];
                 j = previous_occurrence[std::size_t(j)])
                repeats[std::size_t(i)] = j + 1 < i;
        }
        bars.resize(sums.size());
        for (std::size_t k = 0; k < sums.size(); ++k)
            bars[k] = sums[k].kept.empty() || Index(sums[k].kept.size()) < options.top_k
                          ? kNoBar
                          : sums[k].kept.back().weight;
        text_induction.assign(sums.size(), kNaN);
        text_cells.assign(sums.size(), {});
        qk_before.clear();
        for (const CorpusQueryKeys& q : qk)
            qk_before.push_back(q.tokens.size());
    }

    /// A stopped pass: the asked heads' vectors go back to before the text.
    void roll_back() {
        for (std::size_t k = 0; k < qk.size(); ++k) {
            qk[k].queries.resize(qk_before[k] * std::size_t(qk[k].dim));
            qk[k].keys.resize(qk_before[k] * std::size_t(qk[k].dim));
        }
        statistics.reset();
    }

    void commit();
    void commit_head(Index layer, Index head, const HeadMeasures& m, const float* received,
                     bool with_repeats);
    void commit_examples(HeadSums& s, std::vector<Cell> cells);
    CorpusExample example(const Cell& c) const;
    CorpusHead summary(Index layer, Index head) const;
};

void CorpusAnalysis::State::commit() {
    HeadStatistics s = statistics->take();
    statistics.reset();
    const bool with_repeats =
        std::any_of(repeats.begin(), repeats.end(), [](std::uint8_t r) { return r != 0; });
    for (Index l = 0; l < layers; ++l)
        for (Index h = 0; h < heads; ++h)
            s.atlas.at(l, h).induction =
                with_repeats ? text_induction[std::size_t(l * heads + h)] : -1.0;
    label_heads(&s.atlas, options.thresholds);  // the text's own labels, induction too
    for (Index l = 0; l < layers; ++l)
        for (Index h = 0; h < heads; ++h)
            commit_head(l, h, s.atlas.at(l, h), s.received_of(l, h), with_repeats);
    for (std::size_t k = 0; k < qk.size(); ++k) {
        const std::size_t n = qk[k].queries.size() / std::size_t(qk[k].dim) - qk_before[k];
        for (std::size_t p = 0; p < n; ++p)
            qk[k].tokens.push_back({texts, Index(p), text->tokens[p]});
    }
    ++texts;
    texts_with_repeats += with_repeats ? 1 : 0;
    tokens += text_length;
}

void CorpusAnalysis::State::commit_head(Index layer, Index head, const HeadMeasures& m,
                                        const float* received, bool with_repeats) {
    HeadSums& s = at(layer, head);
    const auto& names = head_measure_names();
    const auto exists = [&](const std::string& name) {
        return !std::isnan(head_measure(m, name)) && (name != "induction" || with_repeats);
    };
    for (std::size_t k = 0; k < names.size(); ++k)
        if (exists(names[k])) s.measures[k].add(head_measure(m, names[k]));
    for (std::size_t k = 0; k < std::size(kLabelRules); ++k) {
        if (!exists(kLabelRules[k].measure)) continue;
        ++s.label_texts[k];
        if (std::find(m.labels.begin(), m.labels.end(), kLabelRules[k].label) != m.labels.end())
            ++s.label_agree[k];
    }
    const Index L = text_length;
    std::vector<double> bin(std::size_t(bins), 0.0);
    std::vector<Index> keys(std::size_t(bins), 0);
    for (Index j = 0; j < L; ++j) {
        const auto b = std::size_t(bins * j / L);
        bin[b] += double(received[j]);
        ++keys[b];
    }
    for (std::size_t b = 0; b < bin.size(); ++b)
        if (keys[b] > 0) {
            s.bin_sum[b] += bin[b] / double(keys[b]);
            ++s.bin_texts[b];
        }
    commit_examples(s, std::move(text_cells[std::size_t(layer * heads + head)]));
}

void CorpusAnalysis::State::commit_examples(HeadSums& s, std::vector<Cell> cells) {
    if (cells.empty()) return;
    // The kept cells and this text's, best first: the first top_k stay; only the new ones
    // among them need their context (this text's tokens are gone after it).
    const std::size_t before = s.kept.size();
    cells.insert(cells.begin(), s.kept.begin(), s.kept.end());
    std::vector<std::size_t> order(cells.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return corpus_detail::better(cells[a], cells[b]);
    });
    order.resize(std::min(order.size(), std::size_t(options.top_k)));
    std::vector<Cell> kept;
    std::vector<CorpusExample> examples;
    for (const std::size_t k : order) {
        kept.push_back(cells[k]);
        examples.push_back(k < before ? std::move(s.examples[k]) : example(cells[k]));
    }
    s.kept = std::move(kept);
    s.examples = std::move(examples);
}

CorpusExample CorpusAnalysis::State::example(const Cell& c) const {
    CorpusExample e;
    e.text = c.text;
    e.line = text->line;
    e.query = c.query;
    e.key = c.key;
    e.weight = c.weight;
    const Index W = options.context, L = text_length;
    const auto span = [&](Index begin, Index end) {
        TokenSpan t;
        t.first = begin;
        t.tokens.assign(text->tokens.begin() + begin, text->tokens.begin() + end);
        return t;
    };
    const Index key_begin = std::max<Index>(0, c.key - W), key_end = std::min(L, c.key + W + 1);
    const Index query_begin = std::max<Index>(0, c.query - W),
                query_end = std::min(L, c.query + W + 1);
    // Key before query (causal) or after it (bidirectional): one span when they meet.
    const Index first_begin = std::min(key_begin, query_begin);
    const Index first_end = c.key < c.query ? key_end : query_end;
    const Index second_begin = c.key < c.query ? query_begin : key_begin;
    const Index second_end = std::max(key_end, query_end);
    if (second_begin <= first_end) {
        e.context.push_back(span(first_begin, second_end));
    } else {
        e.context.push_back(span(first_begin, first_end));
        e.context.push_back(span(second_begin, second_end));
    }
    return e;
}

CorpusHead CorpusAnalysis::State::summary(Index layer, Index head) const {
    const HeadSums& s = sums[std::size_t(layer * heads + head)];
    CorpusHead out;
    for (const Running& r : s.measures)
        out.measures.push_back(r.summary());
    // The label the means earn, from the atlas's own rules.
    HeadAtlas one(1, 1);
    HeadMeasures& m = one.at(0, 0);
    m.entropy = out.measure("entropy").mean;
    m.broadness = out.measure("broadness").mean;
    m.mean_distance = out.measure("mean_distance").mean;
    m.first = out.measure("first").mean;
    m.self = out.measure("self").mean;
    m.previous = out.measure("previous").mean;
    m.induction = out.measure("induction").texts > 0 ? out.measure("induction").mean : -1.0;
    label_heads(&one, options.thresholds);
    out.labels = m.labels;
    for (std::size_t k = 0; k < std::size(kLabelRules); ++k) {
        const LabelRule& rule = kLabelRules[k];
        LabelAgreement a;
        a.label = rule.label;
        a.measure = rule.measure;
        a.threshold = options.thresholds.*rule.threshold;
        a.texts = s.label_texts[k];
        a.share = a.texts > 0 ? double(s.label_agree[k]) / double(a.texts) : kNaN;
        a.interval_clears = out.measure(rule.measure).low >= a.threshold;
        out.agreement.push_back(a);
    }
    out.examples = s.examples;
    return out;
}

CorpusAnalysis::CorpusAnalysis(const Model& model, CorpusOptions options)
    : state_(std::make_unique<State>(model, std::move(options))) {}

CorpusAnalysis::~CorpusAnalysis() = default;

void CorpusAnalysis::add(const CorpusText& text) {
    State& s = *state_;
    s.options.control.check();
    if (text.tokens.size() != text.input.ids.size())
        throw std::invalid_argument("a corpus text has " + std::to_string(text.input.ids.size()) +
                                    " ids and " + std::to_string(text.tokens.size()) + " tokens");
    s.start(text);
    ModelForwardOptions forward;
    forward.attention = false;  // rows only: no map is kept, and no logits are computed
    forward.num_threads = s.options.num_threads;
    forward.control.stop = s.options.control.stop;
    forward.weight_cache_bytes = s.options.weight_cache_bytes;
    try {
        s.model.forward(text.input, forward, s);
    } catch (...) {
        s.roll_back();
        throw;
    }
    s.commit();
}

std::int64_t CorpusAnalysis::texts() const {
    return state_->texts;
}

CorpusResult CorpusAnalysis::result() const {
    const State& s = *state_;
    CorpusResult r;
    r.layers = s.layers;
    r.heads = s.heads;
    r.bins = s.bins;
    r.texts = s.texts;
    r.texts_with_repeats = s.texts_with_repeats;
    r.tokens = s.tokens;
    for (Index l = 0; l < s.layers; ++l)
        for (Index h = 0; h < s.heads; ++h) {
            r.per_head.push_back(s.summary(l, h));
            const State::HeadSums& sums = s.sums[std::size_t(l * s.heads + h)];
            for (std::size_t b = 0; b < sums.bin_sum.size(); ++b)
                r.received.push_back(sums.bin_texts[b] > 0
                                         ? float(sums.bin_sum[b] / double(sums.bin_texts[b]))
                                         : std::numeric_limits<float>::quiet_NaN());
        }
    r.qk = s.qk;
    return r;
}

CorpusResult analyse_corpus(const Model& model, std::int64_t count,
                            const std::function<CorpusText(std::int64_t)>& text,
                            const CorpusOptions& options, const std::atomic<bool>* finish) {
    CorpusAnalysis analysis(model, options);
    bool stopped = false;
    for (Index i = 0; i < count && !stopped; ++i) {
        if ((finish && finish->load()) || options.control.stopped()) {
            stopped = true;
            break;
        }
        const CorpusText t = text(i);
        try {
            analysis.add(t);
        } catch (const Cancelled&) {
            stopped = true;
        }
        if (!stopped) options.control.report(i + 1, count);
    }
    CorpusResult r = analysis.result();
    r.partial = stopped;
    return r;
}

std::size_t corpus_bytes(const ModelInfo& info, std::int64_t max_tokens,
                         const CorpusOptions& options) {
    using corpus_detail::Cell;
    using corpus_detail::Running;
    const auto L = std::size_t(std::max<Index>(max_tokens, 1));
    const auto heads = std::size_t(info.num_layers * info.num_heads);
    const auto slots = std::size_t(std::max(options.num_threads, 1));
    const auto K = std::size_t(std::max<Index>(options.top_k, 0));
    const auto W = std::size_t(std::max<Index>(options.context, 0));
    constexpr std::size_t kToken = sizeof(std::string) + 16;  // a token's text, short-string
    std::size_t bytes = statistics_bytes(info, Index(L), false, options.num_threads, 1);
    bytes += L * (sizeof(Index) + 1);                                        // occurrences
    bytes += slots * std::size_t(info.num_heads) * (16 + K * sizeof(Cell));  // slots
    bytes += heads * (sizeof(double) + slots * K * sizeof(Cell));            // the text's
    bytes += heads * (head_measure_names().size() * sizeof(Running) +
                      std::size(kLabelRules) * 2 * sizeof(Index) +
                      std::size_t(options.bins) * (sizeof(double) + sizeof(Index)));
    bytes += heads * K * (sizeof(Cell) + sizeof(CorpusExample) + 2 * (2 * W + 1) * kToken);
    // The asked heads' vectors (and the joint view's points and projections), and the layer's
    // stream one of them is read from.
    const auto d = std::size_t(info.head_dim);
    const auto qk_tokens = std::size_t(options.qk_max_tokens);
    bytes += options.qk_heads.size() *
             (qk_tokens * (4 * d * sizeof(float) + sizeof(CorpusQueryKeys::Token) + 16) +
              qk_tokens * 2 * 2 * 2 * sizeof(float));
    if (!options.qk_heads.empty()) bytes += L * std::size_t(info.hidden_size) * sizeof(float) * 2;
    return bytes;
}

}  // namespace attnviz::models
