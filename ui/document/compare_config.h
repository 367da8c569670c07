// Comparing two configurations (the Compare view): configuration B is the document's
// configuration A with a few settings changed.  Only settings that keep embed_dim and the
// input are offered, so A and B attend over the same tokens and their weights can be
// subtracted cell by cell.  Every change left unset follows A: B keeps tracking A while the
// class edits the sentence or A's layer.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

#include "ui/document/attention_config.h"

namespace attnviz::ui {

/// What B changes; an unset field is A's value.  The dropout seed is never changed, so
/// "dropout off vs on" compares the same sample of dropped weights.
struct CompareChanges {
    std::optional<bool> causal;
    std::optional<int> num_heads;
    std::optional<bool> training;
    std::optional<double> dropout;
    std::optional<Scoring> scoring;
    std::optional<MaskedRowPolicy> masked_rows;
    std::optional<bool> bias;
    std::optional<bool> positional_encoding;
    std::optional<int> weight_seed;
    // A trained model: another layer, another sentence, or another head of the same input.
    std::optional<int> layer;     ///< 0-based
    std::optional<QString> text;  ///< B's sentence (text_a)
    std::optional<int> head;      ///< B's head, against the head A shows (0-based)
    // Attention maps read from a file: another file of the same shape (a second checkpoint on
    // the same text), and its tokens file (unset: tokens.json beside it).  Absolute paths.
    std::optional<QString> maps;
    std::optional<QString> maps_tokens;

    bool empty() const { return *this == CompareChanges{}; }
    bool operator==(const CompareChanges&) const = default;
};

/// The Compare view's state, kept in the document and in sessions.
struct CompareSettings {
    CompareChanges changes;
    int head = -1;  ///< -1: the mean over heads; k >= 0: head k of both configurations

    bool operator==(const CompareSettings&) const = default;
};

/// One-click comparisons for a class: each sets A's side and B's.
enum class ComparePreset {
    Causal,   ///< A without the causal mask, B with it
    Heads,    ///< A with 4 heads, B with 8
    Dropout,  ///< A in evaluation mode, B training with dropout, the same dropout seed
};

QString compare_preset_name(ComparePreset p);  ///< "causal" | "heads" | "dropout"
bool compare_preset_from_name(const QString& name, ComparePreset* out);

/// Configuration B: `a` with the changes applied.
ComputeConfig compared_config(const ComputeConfig& a, const CompareChanges& changes);

/// Why B cannot be computed next to A ("B's 6 heads do not divide embed_dim 64"), or empty.
QString compare_problem(const ComputeConfig& a, const CompareChanges& changes);

/// The settings in which `self` differs from `other`, a few words each, in `self`'s terms:
/// {"no causal mask"} against {"causal mask"}; {"4 heads"} against {"8 heads"}; {"layer 2"};
/// {"“The cat sat”"}; {"ckpt-2/A.npy"} for another maps file.  Empty when the two compute the
/// same thing.
QStringList compare_labels(const ComputeConfig& self, const ComputeConfig& other);

/// {"head": -1, "changes": {"causal": true, "num_heads": 8, ...}}; unset changes are left out.
QJsonObject compare_to_json(const CompareSettings& settings);
/// Validates everything; on error returns false with a message naming the key, and leaves
/// `out` untouched.
bool compare_from_json(const QJsonObject& json, CompareSettings* out, QString* error);

}  // namespace attnviz::ui
