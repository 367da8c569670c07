// What the option groups of `attnviz export` (export_options.h) hand each other while they are
// applied, and the messages they share.  Private to ui/cli/.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <optional>
#include <string>

#include "ui/document/attention_config.h"
#include "ui/document/compare_config.h"
#include "ui/render/figure_export.h"

namespace attnviz::ui {

class AttentionDocument;

// The translation context of the export's messages, declared as a class so that lupdate
// files them under the same context tr() looks them up in.
struct ExportCommandText {
    Q_DECLARE_TR_FUNCTIONS(ExportCommand)
};

/// Throws UsageError with `message`.
[[noreturn]] void usage_error(const QString& message);

/// `value` as a whole number in [lo, hi], else a UsageError naming `option`.
int to_int(const QString& option, const QString& value, int lo, int hi);

/// --scoring's and --b-scoring's words.
Scoring scoring_from_name(const std::string& name);

inline QString qstring(const std::string& s) {
    return QString::fromLocal8Bit(s.data(), static_cast<qsizetype>(s.size()));
}

/// What is exported, once the document holds the configuration.
struct ExportCommand {
    ExportSize size;
    FigureOptions figure;
    QString out;
    QString memory_budget;         ///< --memory-budget as given; empty: the default
    bool atlas = false;            ///< --view atlas: the head atlas as CSV
    bool lens_csv = false;         ///< --view lens with --out FILE.csv: the lens's top-k as CSV
    bool predictions_csv = false;  ///< --view predictions with --out FILE.csv
    bool compare_csv = false;  ///< --view compare with --out FILE.csv: every cell's A, B, B − A
    std::optional<int> draw;   ///< --whole-model --draw SEED
};

/// What a comparison of a trained model or of maps read from a file may change: their layers
/// and heads.
struct ComparedSource {
    QString name;
    int layers = 0;
    int heads = 0;
    bool maps = false;  ///< attention maps read from a file (--attentions)
};

/// The state the apply steps hand each other (apply_arguments calls them in order).
struct Applying {
    AttentionDocument* doc = nullptr;
    ExportCommand cmd;
    QString view;                         ///< --view as given
    std::optional<PairMode> mode;         ///< --mode; its default once the sentences are known
    std::optional<ComparePreset> preset;  ///< --compare
    CompareChanges b_changes;             ///< the --b-... options
    QString b_option;   ///< the first comparison option given, in --help's order, for messages
    bool maps = false;  ///< --attentions
    int num_heads = 0;  ///< --num-heads, then the model's or the maps' own once opened
    std::optional<ComparedSource> compared_source;  ///< null for the demo layer
    std::optional<int> heads_shown;                 ///< --heads-shown; 0 for --mean-only
};

}  // namespace attnviz::ui
