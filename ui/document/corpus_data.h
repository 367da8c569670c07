// Heads across a corpus, as the window keeps them (issue 39): the engine's CorpusResult
// (models::analyse_corpus: every head's measures with their intervals, labels with their
// agreement, top examples), the joint query–key views computed from its vectors
// (models::joint_query_keys), and the texts measured, so that an example or a point opens its
// text.  The AttentionDocument holds one, shared and never changed once made; a session saves
// it under "corpus" (corpus_to_json / corpus_from_json), and sessions without one load as before.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/models/corpus.h"
#include "engine/models/qk_embedding.h"

namespace attnviz::ui {

/// One head's joint view of its queries and keys, without the vectors it was made from.
struct CorpusQkView {
    models::HeadRef head;
    std::int64_t count = 0;  ///< n: points 0..n−1 are the queries, n..2n−1 their keys
    /// models::JointQueryKeys' projections: points [2n, 2] and each axis's share of the
    /// variance (the axes themselves are not kept).
    models::Projection2d pca, cosine;
    std::vector<models::CorpusQueryKeys::Token> tokens;  ///< [n]
};

struct CorpusData {
    /// The file read (absolute); empty for the texts the text box held (its history).
    QString source;
    QString format;                ///< models::corpus_format_name
    QString model_folder;          ///< absolute: the model measured
    std::int64_t texts_given = 0;  ///< texts in the file (or the history)
    std::int64_t truncated = 0;    ///< of the measured, texts cut to the model's positions
    /// What the engine measured; its qk vectors are dropped once `qk` holds their views.
    models::CorpusResult result;
    std::vector<CorpusQkView> qk;
    /// The texts given, in order ([texts_given]); null where a session kept only those an
    /// example or a point opens (a corpus over kSessionTextBytes).
    std::vector<QString> texts;

    bool fromHistory() const { return source.isEmpty(); }
    /// The view of head (layer, head), from 0; null when it has none.
    const CorpusQkView* qkView(std::int64_t layer, std::int64_t head) const;
    /// Every text measured is kept (a new view of a head can be computed from them).
    bool hasMeasuredTexts() const;
    /// Whether the corpus measured the model of `folder` (any spelling of it).
    bool isOf(const QString& folder) const;
};
using CorpusPtr = std::shared_ptr<const CorpusData>;

/// Texts up to this many bytes in all are saved whole in a session; beyond, only those an
/// example or a point refers to (a view of another head then reads the file again).
inline constexpr qint64 kSessionTextBytes = 8 * 1024 * 1024;

/// The session's "corpus" object: every number exactly (doubles as JSON numbers, NaN as null;
/// the points as base64 of little-endian float32).
QJsonObject corpus_to_json(const CorpusData& corpus);
/// The corpus `json` holds, checked whole; null and `error` set when it is not one.
CorpusPtr corpus_from_json(const QJsonObject& json, QString* error);

/// The corpus atlas as a table: per head (from 1) each measure's mean, interval and texts,
/// the labels and each label's agreement.  `attnviz export --view atlas --texts` writes it.
QByteArray corpus_atlas_csv(const models::CorpusResult& result);
/// One head's points: kind, text and position (from 1), token, then the PCA's x and y and the
/// directions' (cosine) x and y: the numbers of `attnviz corpus`'s qk_L_H.npy and
/// qk_L_H_cosine.npy, row for row.
QByteArray qk_points_csv(const CorpusQkView& view);
/// The view of `qk` (joint_query_keys of its vectors).
CorpusQkView make_qk_view(const models::CorpusQueryKeys& qk);

}  // namespace attnviz::ui
