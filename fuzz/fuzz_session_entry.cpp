#include "fuzz/fuzz_session_entry.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QString>
#include <QTemporaryDir>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/budget/memory_budget.h"
#include "engine/errors.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/resolved_config.h"
#include "ui/document/attention_config.h"
#include "ui/document/attention_document.h"
#include "ui/document/compare_config.h"
#include "ui/document/session.h"

namespace attnviz::fuzz {

namespace {

using ui::AttentionDocument;
using ui::CompareSettings;
using ui::ComputeConfig;
using ui::FigureOptions;

constexpr const char* kTarget = "session";

// Configurations up to this size are also computed, as the window does right after opening a
// session; bigger ones would only make each run slower, not reach other code.
constexpr std::size_t kComputeTokens = 16;
constexpr int kComputeEmbedDim = 32;
constexpr std::size_t kComputeCells = std::size_t(1) << 12;  // N * H * L * S

[[noreturn]] void violated(const std::string& what) {
    throw InvariantViolation(std::string(kTarget) + ": " + what);
}

void check(bool ok, const char* what) {
    if (!ok) violated(what);
}

// The loader reads a file (the size limit and the relative weights path depend on it), so
// every input goes through one scratch file, in a folder removed at exit.
const QTemporaryDir& scratch_dir() {
    static const QTemporaryDir dir;
    if (!dir.isValid())
        throw std::runtime_error("fuzz_session: no scratch folder: " +
                                 dir.errorString().toStdString());
    return dir;
}

void write_file(const QString& path, std::string_view bytes) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()))
        throw std::runtime_error("fuzz_session: cannot write " + path.toStdString() + ": " +
                                 file.errorString().toStdString());
}

// Once per process and only when the host (the regression test) has none: the document's
// coalesced signals are posted events, which need an application object but no display.
void ensure_application() {
    if (QCoreApplication::instance()) return;
    static int argc = 1;
    static char name[] = "fuzz_session";
    static char* argv[] = {name, nullptr};
    // Never deleted: libFuzzer ends the process with exit(), and Qt's own globals may already
    // be gone when static destructors would run.  Reachable, so LeakSanitizer is silent.
    static QCoreApplication* app = new QCoreApplication(argc, argv);
    (void)app;
}

// The weights path goes through QDir on save and load; "a/./w" comes back as "a/w".
ComputeConfig comparable(ComputeConfig c) {
    if (!c.weights_file.isEmpty()) c.weights_file = QDir::cleanPath(c.weights_file);
    return c;
}

// What every accepted session must give, whatever the file said.
void check_settings(const AttentionDocument& doc) {
    const ComputeConfig& c = doc.computeConfig();
    const FigureOptions& f = doc.figureOptions();
    check(c.embed_dim >= AttentionDocument::kMinEmbedDim &&
              c.embed_dim <= AttentionDocument::kMaxEmbedDim,
          "embed_dim outside its range");
    check(c.num_heads >= 1 && c.num_heads <= AttentionDocument::kMaxHeads,
          "num_heads outside its range");
    check(c.embed_dim % c.num_heads == 0, "num_heads does not divide embed_dim");
    check(
        std::isfinite(c.dropout) && c.dropout >= 0.0 && c.dropout <= AttentionDocument::kMaxDropout,
        "dropout outside [0, kMaxDropout]");
    check(c.dropout_seed >= 0 && c.weight_seed >= 0, "a negative seed");
    for (const auto& [item, key] : c.masked_keys)
        check(item >= 0 && key >= 0, "a masked key with a negative index");
    check(f.head >= 0 && f.head < c.num_heads, "the shown head is not one of the heads");
    check(f.batch_item == 0 || (f.batch_item == 1 && c.pair_mode == ui::PairMode::PaddedBatch),
          "batch_item names an item the pair mode does not have");
    check(f.step >= -1 && f.step <= AttentionDocument::kMaxStep, "step outside its range");
    check(doc.compare().head >= -1 && doc.compare().head < AttentionDocument::kMaxHeads,
          "the compared head is outside its range");
    check(doc.validationMessage().isEmpty(), "a validation message after a successful load");
}

// The window computes what it opened: a configuration the loader accepts must either compute
// or be refused with a message, and the snapshot must have the shape the settings promise.
void check_compute(const ComputeConfig& c, const ui::TokenSequences& tokens) {
    const bool single = c.pair_mode == ui::PairMode::Single;
    const bool batch = c.pair_mode == ui::PairMode::PaddedBatch;
    const std::size_t n = batch ? 2 : 1;
    const std::size_t l = batch ? std::max(tokens.a.size(), tokens.b.size()) : tokens.a.size();
    const std::size_t s = single ? l : batch ? l : tokens.b.size();
    if (!c.weights_file.isEmpty() || l > kComputeTokens || s > kComputeTokens ||
        c.embed_dim > kComputeEmbedDim || n * std::size_t(c.num_heads) * l * s > kComputeCells)
        return;

    ui::SnapshotPtr snap;
    try {
        snap = ui::compute_snapshot(c, 1);
    } catch (const DataError&) {
        return;
    } catch (const UsageError&) {
        return;
    } catch (const std::invalid_argument&) {
        return;
    }
    check(snap != nullptr, "compute_snapshot returned nothing");
    // What the memory budget's scope keeps: the first heads, a window of queries and keys.
    const budget::ResultScope scope = c.scope();
    const budget::AxisWindow qw = budget::window_on(scope, std::int64_t(l));
    const budget::AxisWindow kw = budget::window_on(scope, std::int64_t(s));
    const int kept = scope.kept_heads(c.num_heads);
    check(snap->batch == int(n) && snap->num_heads == c.num_heads && snap->heads == kept &&
              snap->query_total == int(l) && snap->key_total == int(s),
          "the snapshot's N, H, L or S differ from the settings and tokens");
    check(snap->target_len == qw.count && snap->source_len == kw.count &&
              snap->query_offset == qw.begin && snap->key_offset == kw.begin,
          "the snapshot's window is not the one the settings ask for");
    const std::size_t rows = n * std::size_t(snap->target_len);
    const std::size_t row_cells = rows * std::size_t(snap->source_len);
    check(snap->weights.data.size() == std::size_t(kept) * row_cells &&
              snap->mean_weights.data.size() == row_cells && snap->masked.size() == row_cells &&
              snap->fully_masked_rows.size() == std::size_t(c.num_heads) * rows,
          "a snapshot buffer has the wrong size");
    // A row sums to 1 in evaluation unless the window cuts keys off it.
    const bool whole_rows = (!c.training || c.dropout == 0.0) && kw.count == std::int64_t(s);
    for (int b = 0; b < snap->batch; ++b)
        for (int h = -1; h < snap->heads; ++h)  // -1: the mean over every head
            for (int i = 0; i < snap->target_len; ++i) {
                if (snap->row_fully_masked(b, h, i)) continue;
                double sum = 0.0;
                for (int j = 0; j < snap->source_len; ++j) {
                    const float w = snap->value(b, h, i, j);
                    check(std::isfinite(w) && w >= 0.0f, "a weight is negative, NaN or infinite");
                    check(!snap->is_masked(b, i, j) || w == 0.0f, "a masked cell has weight");
                    sum += w;
                }
                check(!whole_rows || std::abs(sum - 1.0) < 1e-4, "a row's weights do not sum to 1");
            }
}

Outcome session(std::string_view input) {
    ensure_application();
    const QTemporaryDir& dir = scratch_dir();
    const QString file = dir.filePath(QStringLiteral("fuzz.attnviz"));
    write_file(file, input);

    // A document away from its defaults, so that "untouched" cannot pass by chance.
    AttentionDocument doc;
    doc.setPairMode(ui::PairMode::CrossAttention);
    doc.setTextA(QStringLiteral("before the fuzzed session"));
    doc.setEmbedDim(24);
    doc.setNumHeads(3);
    doc.setCausal(true);
    doc.setDropout(0.5);
    doc.setMaskedKeys({{0, 1}});
    doc.setColormap(ui::Colormap::Grey);
    doc.setView(ui::FigureView::Head, 2);
    doc.setLineHeads(5);
    ui::CompareChanges changes;  // (designated initializers would warn about the rest)
    changes.causal = false;
    changes.num_heads = 1;
    doc.setCompareChanges(changes);
    doc.setCompareHead(1);
    QCoreApplication::sendPostedEvents(&doc);
    const ComputeConfig compute_before = doc.computeConfig();
    const FigureOptions figure_before = doc.figureOptions();
    const CompareSettings compare_before = doc.compare();
    const QString message_before = doc.validationMessage();
    int settings_changed = 0;
    QObject::connect(&doc, &AttentionDocument::settingsChanged, [&] { ++settings_changed; });

    const QJsonObject marker{{QStringLiteral("before"), true}};
    ui::SessionExtras extras{marker};
    QString error;
    const bool loaded = ui::load_session(file, &doc, &extras, &error);
    QCoreApplication::sendPostedEvents(&doc);
    if (!loaded) {
        check(!error.isEmpty(), "refused without a message");
        check(doc.computeConfig() == compute_before && doc.figureOptions() == figure_before &&
                  doc.compare() == compare_before && doc.validationMessage() == message_before,
              "a refused session changed the document");
        check(extras.window == marker, "a refused session changed the window's extras");
        check(settings_changed == 0, "a refused session signalled a change");
        return Outcome::Rejected;
    }
    check(settings_changed == 1, "an opened session did not signal one coalesced change");
    check_settings(doc);
    const ui::TokenSequences tokens = ui::resolve_tokens(doc.computeConfig());
    (void)ui::describe_config(doc.computeConfig());

    // Whatever was opened can be saved and opens again as it was.
    const QString again = dir.filePath(QStringLiteral("again.attnviz"));
    if (!ui::save_session(again, doc, extras, &error))
        violated("an opened session cannot be saved: " + error.toStdString());
    AttentionDocument reopened;
    ui::SessionExtras reopened_extras;
    if (!ui::load_session(again, &reopened, &reopened_extras, &error))
        violated("a saved session does not open: " + error.toStdString());
    check(comparable(reopened.computeConfig()) == comparable(doc.computeConfig()),
          "save and reopen changed the compute settings");
    check(reopened.figureOptions() == doc.figureOptions(),
          "save and reopen changed the figure settings");
    check(reopened.compare() == doc.compare(), "save and reopen changed the comparison");
    check(reopened_extras.window == extras.window, "save and reopen changed the window's extras");

    check_compute(doc.computeConfig(), tokens);
    // The Compare view computes configuration B next to A when B is possible.
    const CompareSettings& compare = doc.compare();
    if (!compare.changes.empty() &&
        ui::compare_problem(doc.computeConfig(), compare.changes).isEmpty())
        check_compute(ui::compared_config(doc.computeConfig(), compare.changes), tokens);
    return Outcome::Accepted;
}

constexpr std::array<Target, 1> kSessionTargets = {{{"session", session}}};

}  // namespace

Outcome run_session(std::string_view input) {
    return session(input);
}

std::span<const Target> session_targets() {
    return kSessionTargets;
}

}  // namespace attnviz::fuzz
