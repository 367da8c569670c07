#include "ui/document/compare_config.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonValue>

#include <cmath>
#include <tuple>

#include "ui/document/attention_document.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, declared as a class so that lupdate
// files them under the same context tr() looks them up in.
struct CompareConfigText {
    Q_DECLARE_TR_FUNCTIONS(Compare)
};

// Phrases the configuration caption already has translated.
QString config_text(const char* source, int n = -1) {
    return QCoreApplication::translate("AttentionConfig", source, nullptr, n);
}

bool dropout_active(const ComputeConfig& c) {
    return c.training && c.dropout > 0.0;
}

/// `self`'s source as few path components as tell it from `other`'s: "B.npy", or
/// "ckpt-2/A.npy" when both files are called A.npy.
QString source_label(const ComputeConfig& self, const ComputeConfig& other) {
    const QStringList mine = QDir::cleanPath(self.model_folder).split(QLatin1Char('/'));
    const QStringList theirs = QDir::cleanPath(other.model_folder).split(QLatin1Char('/'));
    qsizetype n = 1;
    while (n < mine.size() && n <= theirs.size() &&
           mine.mid(mine.size() - n) == theirs.mid(theirs.size() - n))
        ++n;
    return mine.mid(mine.size() - n).join(QLatin1Char('/'));
}
}  // namespace

QString compare_preset_name(ComparePreset p) {
    switch (p) {
        case ComparePreset::Causal:
            return QStringLiteral("causal");
        case ComparePreset::Heads:
            return QStringLiteral("heads");
        case ComparePreset::Dropout:
            return QStringLiteral("dropout");
    }
    return {};
}

bool compare_preset_from_name(const QString& name, ComparePreset* out) {
    for (ComparePreset p : {ComparePreset::Causal, ComparePreset::Heads, ComparePreset::Dropout})
        if (name.compare(compare_preset_name(p), Qt::CaseInsensitive) == 0) {
            *out = p;
            return true;
        }
    return false;
}

ComputeConfig compared_config(const ComputeConfig& a, const CompareChanges& ch) {
    ComputeConfig b = a;
    if (a.usesModel()) {  // the demo layer's settings do not apply to a model
        if (ch.layer) b.layer = *ch.layer;
        if (ch.text) b.text_a = *ch.text;
        if (ch.maps && a.usesMaps()) {
            b.model_folder = *ch.maps;
            b.tokens_file = ch.maps_tokens.value_or(QString());
        }
        return b;
    }
    if (ch.causal) b.causal = *ch.causal;
    if (ch.num_heads) b.num_heads = *ch.num_heads;
    if (ch.training) b.training = *ch.training;
    if (ch.dropout) b.dropout = *ch.dropout;
    if (ch.scoring) b.scoring = *ch.scoring;
    if (ch.masked_rows) b.masked_rows = *ch.masked_rows;
    if (ch.bias) b.bias = *ch.bias;
    if (ch.positional_encoding) b.positional_encoding = *ch.positional_encoding;
    if (ch.weight_seed) b.weight_seed = *ch.weight_seed;
    return b;
}

QString compare_problem(const ComputeConfig& a, const CompareChanges& ch) {
    if ((ch.layer || ch.text) && !a.usesModel())
        return CompareConfigText::tr(
            "Another layer or another sentence needs a trained model: open one with File ▸ "
            "Open Model.");
    if (ch.maps && !a.usesMaps())
        return CompareConfigText::tr(
            "B's attention maps are compared with attention maps: open A's with File ▸ Open "
            "Attention Maps…");
    if (ch.text && a.usesMaps())
        return CompareConfigText::tr(
            "Maps read from a file have no sentence to change: compare them with another "
            "file's maps instead.");
    if (ch.text && ch.text->trimmed().isEmpty())
        return CompareConfigText::tr(
            "B's sentence is empty: type one, or compare the same sentence.");
    if (ch.num_heads && (*ch.num_heads < 1 || *ch.num_heads > AttentionDocument::kMaxHeads ||
                         a.embed_dim % *ch.num_heads != 0))
        return CompareConfigText::tr(
                   "B's %1 heads do not divide embed_dim %2: choose a head count "
                   "that does, or change embed_dim.")
            .arg(*ch.num_heads)
            .arg(a.embed_dim);
    return {};
}

QStringList compare_labels(const ComputeConfig& self, const ComputeConfig& other) {
    QStringList out;
    if (self.usesModel()) {
        if (self.model_folder != other.model_folder) out << source_label(self, other);
        if (self.layer != other.layer) out << config_text("layer %1").arg(self.layer + 1);
        if (self.text_a != other.text_a) {
            const QString t = self.text_a.simplified();
            out << QStringLiteral("“%1”").arg(t.size() > 32 ? t.left(31) + QStringLiteral("…") : t);
        }
        return out;
    }
    if (self.causal != other.causal)
        out << (self.causal ? CompareConfigText::tr("causal mask")
                            : CompareConfigText::tr("no causal mask"));
    if (self.num_heads != other.num_heads) out << config_text("%n head(s)", self.num_heads);
    const bool drop = dropout_active(self), other_drop = dropout_active(other);
    if (drop != other_drop || (drop && self.dropout != other.dropout)) {
        out << (drop ? CompareConfigText::tr("dropout %1 (training, seed %2)")
                           .arg(self.dropout)
                           .arg(self.dropout_seed)
                : self.training ? CompareConfigText::tr("training, no dropout")
                                : CompareConfigText::tr("no dropout (evaluation)"));
    }
    if (self.scoring != other.scoring)
        out << (self.scoring == Scoring::Additive ? config_text("additive scoring")
                                                  : config_text("scaled dot-product"));
    if (self.masked_rows != other.masked_rows)
        out << CompareConfigText::tr("fully masked rows: %1")
                   .arg(QLatin1String(masked_row_policy_name(self.masked_rows)));
    if (self.bias != other.bias)
        out << (self.bias ? CompareConfigText::tr("with bias") : config_text("no bias"));
    if (self.positional_encoding != other.positional_encoding)
        out << (self.positional_encoding ? CompareConfigText::tr("positional encoding")
                                         : config_text("no positional encoding"));
    if (self.weight_seed != other.weight_seed)
        out << config_text("weight seed %1").arg(self.weight_seed);
    return out;
}

QJsonObject compare_to_json(const CompareSettings& s) {
    const CompareChanges& c = s.changes;
    QJsonObject changes;
    if (c.causal) changes[QStringLiteral("causal")] = *c.causal;
    if (c.num_heads) changes[QStringLiteral("num_heads")] = *c.num_heads;
    if (c.training) changes[QStringLiteral("training")] = *c.training;
    if (c.dropout) changes[QStringLiteral("dropout")] = *c.dropout;
    if (c.scoring) changes[QStringLiteral("scoring")] = QLatin1String(scoring_name(*c.scoring));
    if (c.masked_rows)
        changes[QStringLiteral("masked_rows")] =
            QLatin1String(masked_row_policy_name(*c.masked_rows));
    if (c.bias) changes[QStringLiteral("bias")] = *c.bias;
    if (c.positional_encoding)
        changes[QStringLiteral("positional_encoding")] = *c.positional_encoding;
    if (c.weight_seed) changes[QStringLiteral("weight_seed")] = *c.weight_seed;
    if (c.layer) changes[QStringLiteral("layer")] = *c.layer;
    if (c.text) changes[QStringLiteral("text")] = *c.text;
    if (c.head) changes[QStringLiteral("head")] = *c.head;
    if (c.maps) changes[QStringLiteral("maps")] = *c.maps;
    if (c.maps_tokens) changes[QStringLiteral("maps_tokens")] = *c.maps_tokens;
    return QJsonObject{{QStringLiteral("head"), s.head}, {QStringLiteral("changes"), changes}};
}

bool compare_from_json(const QJsonObject& json, CompareSettings* out, QString* error) {
    // The messages are the session reader's own (context "Session"), already translated.
    auto fail = [&](const char* source, const QString& key, const QString& extra = {}) {
        QString m = QCoreApplication::translate("Session", source).arg(key);
        if (!extra.isNull()) m = m.arg(extra);
        if (error) *error = m;
        return false;
    };
    auto whole = [&](const QJsonValue& v, const QString& key, int lo, int hi, int* result) -> bool {
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || d != std::floor(d) || d < lo || d > hi) {
            if (error)
                *error = QCoreApplication::translate("Session",
                                                     "'%1' must be a whole number from %2 to %3")
                             .arg(key)
                             .arg(lo)
                             .arg(hi);
            return false;
        }
        *result = int(d);
        return true;
    };
    auto flag = [&](const QJsonValue& v, const QString& key, std::optional<bool>* result) {
        if (v.isUndefined()) return true;
        if (!v.isBool()) return fail("'%1' is not true or false", key);
        *result = v.toBool();
        return true;
    };

    CompareSettings s;
    const QJsonValue head = json.value(QStringLiteral("head"));
    if (!head.isUndefined() &&
        !whole(head, QStringLiteral("head"), -1, AttentionDocument::kMaxHeads - 1, &s.head))
        return false;
    const QJsonValue changes_value = json.value(QStringLiteral("changes"));
    if (!changes_value.isUndefined() && !changes_value.isObject())
        return fail("'%1' is not an object", QStringLiteral("changes"));
    const QJsonObject ch = changes_value.toObject();
    CompareChanges& c = s.changes;
    if (!flag(ch.value(QStringLiteral("causal")), QStringLiteral("causal"), &c.causal) ||
        !flag(ch.value(QStringLiteral("training")), QStringLiteral("training"), &c.training) ||
        !flag(ch.value(QStringLiteral("bias")), QStringLiteral("bias"), &c.bias) ||
        !flag(ch.value(QStringLiteral("positional_encoding")),
              QStringLiteral("positional_encoding"), &c.positional_encoding))
        return false;
    if (const QJsonValue v = ch.value(QStringLiteral("num_heads")); !v.isUndefined()) {
        int heads = 0;
        if (!whole(v, QStringLiteral("num_heads"), 1, AttentionDocument::kMaxHeads, &heads))
            return false;
        c.num_heads = heads;
    }
    if (const QJsonValue v = ch.value(QStringLiteral("weight_seed")); !v.isUndefined()) {
        int seed = 0;
        if (!whole(v, QStringLiteral("weight_seed"), 0, AttentionDocument::kMaxSeed, &seed))
            return false;
        c.weight_seed = seed;
    }
    for (auto [key, field, hi] : {std::tuple{"layer", &c.layer, AttentionDocument::kMaxLayers - 1},
                                  std::tuple{"head", &c.head, AttentionDocument::kMaxHeads - 1}})
        if (const QJsonValue v = ch.value(QLatin1String(key)); !v.isUndefined()) {
            int n = 0;
            if (!whole(v, QLatin1String(key), 0, hi, &n)) return false;
            *field = n;
        }
    for (auto [key, field] : {std::pair{"text", &c.text}, std::pair{"maps", &c.maps},
                              std::pair{"maps_tokens", &c.maps_tokens}})
        if (const QJsonValue v = ch.value(QLatin1String(key)); !v.isUndefined()) {
            if (!v.isString()) return fail("'%1' is not a string", QLatin1String(key));
            *field = v.toString();
        }
    if (!c.maps) c.maps_tokens.reset();  // a tokens file of no maps changes nothing
    if (const QJsonValue v = ch.value(QStringLiteral("dropout")); !v.isUndefined()) {
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !(d >= 0.0 && d <= AttentionDocument::kMaxDropout)) {
            if (error)
                *error =
                    QCoreApplication::translate("Session", "'%1' must be a number from %2 to %3")
                        .arg(QStringLiteral("dropout"))
                        .arg(0)
                        .arg(AttentionDocument::kMaxDropout);
            return false;
        }
        c.dropout = std::round(d * 1000.0) / 1000.0;
    }
    if (const QJsonValue v = ch.value(QStringLiteral("scoring")); !v.isUndefined()) {
        try {
            if (!v.isString()) throw std::invalid_argument("not a string");
            c.scoring = scoring_from_name(v.toString().toStdString());
        } catch (const std::exception&) {
            return fail("'%1' has an unknown value '%2'", QStringLiteral("scoring"),
                        v.toVariant().toString());
        }
    }
    if (const QJsonValue v = ch.value(QStringLiteral("masked_rows")); !v.isUndefined()) {
        try {
            if (!v.isString()) throw std::invalid_argument("not a string");
            c.masked_rows = masked_row_policy_from_name(v.toString().toStdString());
        } catch (const std::exception&) {
            return fail("'%1' has an unknown value '%2'", QStringLiteral("masked_rows"),
                        v.toVariant().toString());
        }
    }
    *out = s;
    return true;
}

}  // namespace attnviz::ui
