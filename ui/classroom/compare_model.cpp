#include "ui/classroom/compare_model.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>
#include <cmath>

#include "engine/errors.h"
#include "engine/io/attention_arrays.h"
#include "ui/compute/csv.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/resolved_config.h"
#include "ui/render/figure_export.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, as a class so lupdate files them under
// the context tr() looks them up in.
struct CompareModelText {
    Q_DECLARE_TR_FUNCTIONS(Compare)
};
}  // namespace

QString compare_size_problem(std::size_t rows, std::size_t cols) {
    if (rows * cols <= kMaxCompareCells) return {};
    return CompareModelText::tr(
               "%1 × %2 tokens are too many to compare (at most %3 cells): "
               "shorten the text.")
        .arg(rows)
        .arg(cols)
        .arg(kMaxCompareCells);
}

CompareModel build_compare_model(const AttentionSnapshot& a, const AttentionSnapshot& b, int item,
                                 int head, QString* why, int b_head) {
    auto refuse = [&](const QString& message) {
        if (why) *why = message;
        return CompareModel{};
    };
    // Two sentences of a model, or two maps files whose tokens may be spelled differently:
    // position by position, over the longer one.
    const bool two_inputs =
        a.model && b.model &&
        (a.config.text_a != b.config.text_a || a.config.model_folder != b.config.model_folder);
    if (a.batch != b.batch ||
        (!two_inputs && (a.target_len != b.target_len || a.source_len != b.source_len ||
                         a.query_tokens != b.query_tokens || a.key_tokens != b.key_tokens)))
        return refuse(CompareModelText::tr("A and B were computed for different inputs."));
    if (b_head == -2) b_head = head;
    if (b_head >= b.heads)
        return refuse(CompareModelText::tr("B has no head %1: it has %2 heads.")
                          .arg(b_head + 1)
                          .arg(b.heads));
    if (a.batch == 0 || a.target_len == 0 || a.source_len == 0)
        return refuse(CompareModelText::tr("Nothing computed yet."));
    const int rows = std::max(a.target_len, b.target_len);
    const int cols = std::max(a.source_len, b.source_len);
    if (const QString big = compare_size_problem(std::size_t(rows), std::size_t(cols));
        !big.isEmpty())
        return refuse(big);
    if (head >= a.heads || (head >= b.heads && b_head == head)) {
        const bool only_b = head >= a.heads && head < b.heads;
        const bool only_a = head < a.heads && head >= b.heads;
        const int both = std::min(a.heads, b.heads);
        const QString range = both == 1 ? CompareModelText::tr("head 1")
                                        : CompareModelText::tr("heads 1 to %1").arg(both);
        if (only_b)
            return refuse(CompareModelText::tr("Head %1 exists only in B: A has %2 heads. "
                                               "Compare the mean, or %3.")
                              .arg(head + 1)
                              .arg(a.heads)
                              .arg(range));
        if (only_a)
            return refuse(CompareModelText::tr("Head %1 exists only in A: B has %2 heads. "
                                               "Compare the mean, or %3.")
                              .arg(head + 1)
                              .arg(b.heads)
                              .arg(range));
        return refuse(
            CompareModelText::tr("Neither A nor B has a head %1. Compare the mean, or %2.")
                .arg(head + 1)
                .arg(range));
    }
    if (why) why->clear();

    CompareModel m;
    m.item = std::clamp(item, 0, a.batch - 1);
    m.head = head;
    m.rows = rows;
    m.cols = cols;
    m.a_rows = a.target_len;
    m.a_cols = a.source_len;
    m.b_rows = b.target_len;
    m.b_cols = b.source_len;
    // Tokens as long as the longer sentence: empty where a side has none.
    const auto padded = [](std::vector<QString> tokens, int size) {
        tokens.resize(std::size_t(size));
        return tokens;
    };
    m.query_tokens = padded(a.query_tokens[std::size_t(m.item)], rows);
    m.key_tokens = padded(a.key_tokens[std::size_t(m.item)], cols);
    m.b_head = b_head;
    m.b_query_tokens = padded(b.query_tokens[std::size_t(m.item)], rows);
    m.b_key_tokens = padded(b.key_tokens[std::size_t(m.item)], cols);
    const std::size_t count = std::size_t(m.rows) * m.cols;
    m.a.resize(count);
    m.b.resize(count);
    m.diff.resize(count);
    m.masked_a.resize(count);
    m.masked_b.resize(count);
    double sum = 0.0;
    for (int i = 0; i < m.rows; ++i)
        for (int j = 0; j < m.cols; ++j) {
            const std::size_t k = m.index(i, j);
            const bool in_a = m.inA(i, j), in_b = m.inB(i, j);
            const float va = in_a ? a.value(m.item, head, i, j) : std::nanf("");
            const float vb = in_b ? b.value(m.item, b_head, i, j) : std::nanf("");
            m.a[k] = va;
            m.b[k] = vb;
            m.masked_a[k] = in_a && a.is_masked(m.item, i, j);
            m.masked_b[k] = in_b && b.is_masked(m.item, i, j);
            for (float v : {va, vb})
                if (std::isfinite(v)) m.max_weight = std::max(m.max_weight, v);
            if (!std::isfinite(va) || !std::isfinite(vb)) {
                m.diff[k] = std::nanf("");
                continue;
            }
            const float d = vb - va;
            m.diff[k] = d;
            sum += std::abs(double(d));
            ++m.finite_cells;
            if (m.max_row < 0 || std::abs(d) > m.max_abs_diff) {
                m.max_abs_diff = std::abs(d);
                m.max_row = i;
                m.max_col = j;
            }
        }
    m.mean_abs_diff = m.finite_cells > 0 ? sum / m.finite_cells : 0.0;
    return m;
}

QByteArray compare_csv(const CompareModel& m) {
    QByteArray out =
        "query,key,a_query_token,a_key_token,b_query_token,b_key_token,a,b,b_minus_a\n";
    const auto number = [](float v) {
        return std::isfinite(v) ? QString::number(v, 'g', 9) : QStringLiteral("nan");
    };
    const auto token = [](const std::vector<QString>& tokens, int k) {
        return std::size_t(k) < tokens.size() ? csv_field(tokens[std::size_t(k)]) : QString();
    };
    for (int i = 0; i < m.rows; ++i)
        for (int j = 0; j < m.cols; ++j) {
            const std::size_t k = m.index(i, j);
            out += QStringList{QString::number(i + 1),
                               QString::number(j + 1),
                               m.inA(i, j) ? token(m.query_tokens, i) : QString(),
                               m.inA(i, j) ? token(m.key_tokens, j) : QString(),
                               m.inB(i, j) ? token(m.b_query_tokens, i) : QString(),
                               m.inB(i, j) ? token(m.b_key_tokens, j) : QString(),
                               number(m.a[k]),
                               number(m.b[k]),
                               number(m.diff[k])}
                       .join(QLatin1Char(','))
                       .toUtf8() +
                   '\n';
        }
    return out;
}

std::string check_compared_maps(const ComputeConfig& a, const ComputeConfig& b) {
    const auto path = [](const QString& p) { return QFile::encodeName(p).toStdString(); };
    const io::AttentionArrays maps_a = io::AttentionArrays::open(path(a.model_folder));
    const io::AttentionArrays maps_b = io::AttentionArrays::open(path(b.model_folder));
    const std::string tokens_a = path(maps_tokens_file(a)), tokens_b = path(maps_tokens_file(b));
    const io::AttentionTokens a_tokens = io::read_attention_tokens(tokens_a);
    const io::AttentionTokens b_tokens = io::read_attention_tokens(tokens_b);
    io::check_tokens(maps_b, b_tokens, tokens_b);
    io::check_comparable(maps_a, maps_b);
    return io::token_difference(a_tokens, b_tokens, tokens_a, tokens_b);
}

SnapshotPtr compute_compared(const ComputeConfig& a, const CompareChanges& changes,
                             std::uint64_t generation, ComputeCache* cache, int num_threads,
                             const budget::MemoryBudget* budget) {
    const QString problem = compare_problem(a, changes);
    if (!problem.isEmpty()) throw UsageError(problem.toStdString());
    // Two maps files: shapes that do not fit are the files' fault (DataError), named at once.
    if (changes.maps) check_compared_maps(a, compared_config(a, changes));
    // Before B's forward pass: the longer sentence bounds both sides of every item.
    std::size_t rows = 0, cols = 0;
    if (a.usesModel()) {  // the model's pieces, pair included
        rows = cols = std::size_t(model_tokens(compared_config(a, changes)).size());
    } else {
        const TokenSequences tokens = resolve_tokens(a);
        rows = cols = tokens.a.size();
        if (a.pair_mode == PairMode::CrossAttention) cols = tokens.b.size();
        if (a.pair_mode == PairMode::PaddedBatch) rows = cols = std::max(rows, tokens.b.size());
    }
    if (const QString big = compare_size_problem(rows, cols); !big.isEmpty())
        throw UsageError(big.toStdString());
    return compute_snapshot(compared_config(a, changes), generation, cache, num_threads, budget);
}

}  // namespace attnviz::ui
