#include "ui/compute/resolved_config.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>

#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"

namespace attnviz::ui {

namespace {
// The translation context of the description, as the document's own notes have it.
struct ResolvedConfigText {
    Q_DECLARE_TR_FUNCTIONS(AttentionConfig)
};

}  // namespace

TokenSequences resolve_tokens(const ComputeConfig& config) {
    if (config.usesModel()) {  // the model's own tokens; none when it cannot be opened
        TokenSequences out;
        try {
            for (const QString& t : model_tokens(config))
                out.a.push_back(t.toStdString());
        } catch (const std::exception&) {
        }
        return out;
    }
    return demo_tokens(config);
}

QString describe_config(const ComputeConfig& c) {
    QStringList parts;
    if (c.usesModel()) {
        const ModelPtr m = find_model(c.model_folder);
        parts << (m ? model_display_name(*m) : QFileInfo(c.model_folder).fileName());
        parts << ResolvedConfigText::tr("layer %1").arg(c.layer + 1);
        parts << token_view_notes(c);
        return parts.join(QStringLiteral(" · "));
    }
    switch (c.pair_mode) {
        case PairMode::Single:
            parts << ResolvedConfigText::tr("Self-attention");
            break;
        case PairMode::CrossAttention:
            parts << ResolvedConfigText::tr("Cross-attention");
            break;
        case PairMode::PaddedBatch:
            parts << ResolvedConfigText::tr("Padded batch");
            break;
    }
    parts << ResolvedConfigText::tr("%n head(s)", nullptr, c.num_heads);
    parts << ResolvedConfigText::tr("embed_dim %1").arg(c.embed_dim);
    parts << (c.scoring == Scoring::Additive ? ResolvedConfigText::tr("additive scoring")
                                             : ResolvedConfigText::tr("scaled dot-product"));
    if (!c.bias) parts << ResolvedConfigText::tr("no bias");
    if (c.causal) parts << ResolvedConfigText::tr("causal");
    if (!c.masked_keys.empty())
        parts << ResolvedConfigText::tr("%n key(s) masked", nullptr, int(c.masked_keys.size()));
    if (c.training && c.dropout > 0.0)
        parts << ResolvedConfigText::tr("dropout %1 (train, seed %2)")
                     .arg(c.dropout)
                     .arg(c.dropout_seed);
    else if (c.dropout > 0.0)
        parts << ResolvedConfigText::tr("dropout %1 (eval: off)").arg(c.dropout);
    if (!c.weights_file.isEmpty())
        parts << ResolvedConfigText::tr("weights %1")
                     .arg(c.weights_file.section(QLatin1Char('/'), -1));
    else
        parts << ResolvedConfigText::tr("weight seed %1").arg(c.weight_seed);
    if (!c.positional_encoding) parts << ResolvedConfigText::tr("no positional encoding");
    if (c.heads_shown == 0)
        parts << ResolvedConfigText::tr("mean only");
    else if (c.heads_shown > 0 && c.heads_shown < c.num_heads)
        parts << ResolvedConfigText::tr("first %1 of %2 heads kept")
                     .arg(c.heads_shown)
                     .arg(c.num_heads);
    return parts.join(QStringLiteral(" · "));
}

}  // namespace attnviz::ui
