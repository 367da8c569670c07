#include "ui/document/session.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

#include "ui/document/attention_document.h"
#include "ui/document/corpus_data.h"
#include "ui/document/shipped_models.h"

namespace attnviz::ui {

namespace {
// The translation context of this file's messages, declared as a class so that lupdate
// files them under the same context tr() looks them up in.
struct SessionText {
    Q_DECLARE_TR_FUNCTIONS(Session)
};
constexpr qint64 kMaxSessionBytes = 64 * 1024 * 1024;

/// Writes all of `bytes` to a file opened Unbuffered.  Buffered, a QSaveFile reports success
/// when the disk fills while commit() flushes (Qt 6.4 takes the short write for a complete
/// one) and replaces the previous file with a truncated copy; unbuffered, the short write
/// shows here, before commit(), and the previous file stays.
bool write_fully(QSaveFile& file, const QByteArray& bytes) {
    for (qsizetype done = 0; done < bytes.size();) {
        const qint64 n = file.write(bytes.constData() + done, bytes.size() - done);
        if (n <= 0) return false;
        done += qsizetype(n);
    }
    return true;
}

// Qt's JSON reader (6.4) drops a U+FEFF that begins a string, as if it were the file's byte
// order mark: a token list or a text that starts with one would not read back.  Escaped, the
// reader keeps it; so it is written escaped, and a raw one in an older file is escaped before
// parsing (after the file's own leading mark, which is only the encoding's).
constexpr QByteArrayView kRawBom("\xEF\xBB\xBF");
constexpr QByteArrayView kEscapedBom("\\ufeff");

QByteArray escape_boms(QByteArray json) {
    return json.replace(kRawBom, kEscapedBom);
}

QByteArray read_json_bytes(QByteArray bytes) {
    if (bytes.startsWith(kRawBom)) bytes.remove(0, kRawBom.size());
    return escape_boms(std::move(bytes));
}

/// `object` with the files named by `keys` that lie below `dir` relative to it, so that a session
/// and the files beside it can be moved together.
QJsonObject relative_files(QJsonObject object, std::initializer_list<QString> keys,
                           const QDir& dir) {
    for (const QString& key : keys) {
        const QString file = object.value(key).toString();
        if (file.isEmpty()) continue;
        const QString rel = dir.relativeFilePath(file);
        if (!rel.startsWith(QLatin1String(".."))) object[key] = rel;
    }
    return object;
}

/// `object` with the relative files named by `keys` made absolute against `dir`; a value that
/// is no string is left for the document to refuse.
QJsonObject absolute_files(QJsonObject object, std::initializer_list<QString> keys,
                           const QDir& dir) {
    for (const QString& key : keys) {
        const QJsonValue file = object.value(key);
        if (file.isString() && !file.toString().isEmpty() &&
            QFileInfo(file.toString()).isRelative())
            object[key] = QDir::cleanPath(dir.absoluteFilePath(file.toString()));
    }
    return object;
}
}  // namespace

bool save_session(const QString& path, const AttentionDocument& document,
                  const SessionExtras& extras, QString* error) {
    QJsonObject doc_json = document.toJson();
    // A weights file beside the session is stored relative to it, so the pair can be moved.
    QJsonObject layer = doc_json.value(QStringLiteral("layer")).toObject();
    const QString weights = layer.value(QStringLiteral("weights_file")).toString();
    if (!weights.isEmpty()) {
        const QDir dir = QFileInfo(path).absoluteDir();
        const QString rel = dir.relativeFilePath(weights);
        if (!rel.startsWith(QLatin1String(".."))) layer[QStringLiteral("weights_file")] = rel;
        doc_json[QStringLiteral("layer")] = layer;
    }
    // So is a model folder below the session's folder (version 3), attention maps and their
    // tokens file, and the maps B is compared with.
    const QDir dir = QFileInfo(path).absoluteDir();
    doc_json[QStringLiteral("source")] =
        relative_files(doc_json.value(QStringLiteral("source")).toObject(),
                       {QStringLiteral("model_folder"), QStringLiteral("tokens_file")}, dir);
    QJsonObject compare = doc_json.value(QStringLiteral("compare")).toObject();
    compare[QStringLiteral("changes")] =
        relative_files(compare.value(QStringLiteral("changes")).toObject(),
                       {QStringLiteral("maps"), QStringLiteral("maps_tokens")}, dir);
    doc_json[QStringLiteral("compare")] = compare;
    QJsonObject root{{QStringLiteral("format"), QLatin1String(kSessionFormat)},
                     {QStringLiteral("version"), kSessionVersion},
                     {QStringLiteral("generator"),
                      QStringLiteral("AttnViz %1").arg(QCoreApplication::applicationVersion())},
                     {QStringLiteral("document"), doc_json}};
    if (!extras.window.isEmpty()) root[QStringLiteral("window")] = extras.window;
    if (const auto& corpus = document.corpus())
        root[QStringLiteral("corpus")] = corpus_to_json(*corpus);

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        *error = SessionText::tr("Cannot write '%1': %2").arg(path, file.errorString());
        return false;
    }
    if (!write_fully(file, escape_boms(QJsonDocument(root).toJson(QJsonDocument::Indented))) ||
        !file.commit()) {
        *error = SessionText::tr("Cannot write '%1': %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool load_session(const QString& path, AttentionDocument* document, SessionExtras* extras,
                  QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = SessionText::tr("Cannot open '%1': %2").arg(path, file.errorString());
        return false;
    }
    if (file.size() > kMaxSessionBytes) {
        *error = SessionText::tr("'%1' is too large to be an AttnViz session.").arg(path);
        return false;
    }
    QJsonParseError parse_error;
    const QJsonDocument json =
        QJsonDocument::fromJson(read_json_bytes(file.readAll()), &parse_error);
    if (json.isNull() || !json.isObject()) {
        *error = SessionText::tr("'%1' is not a valid session file: %2")
                     .arg(path, json.isNull() ? parse_error.errorString()
                                              : SessionText::tr("the top level is not an object"));
        return false;
    }
    const QJsonObject root = json.object();
    if (root.value(QStringLiteral("format")).toString() != QLatin1String(kSessionFormat)) {
        *error = SessionText::tr("'%1' is not an AttnViz session (no \"format\": \"%2\").")
                     .arg(path, QLatin1String(kSessionFormat));
        return false;
    }
    const QJsonValue version = root.value(QStringLiteral("version"));
    if (!version.isDouble() || version.toInt() < 1) {
        *error = SessionText::tr("'%1' has no valid session version.").arg(path);
        return false;
    }
    if (version.toInt() > kSessionVersion) {
        *error = SessionText::tr(
                     "'%1' was written by a newer AttnViz (session version %2; this version "
                     "reads up to %3).")
                     .arg(path)
                     .arg(version.toInt())
                     .arg(kSessionVersion);
        return false;
    }
    QJsonObject doc_json = root.value(QStringLiteral("document")).toObject();
    QJsonObject layer = doc_json.value(QStringLiteral("layer")).toObject();
    const QString weights = layer.value(QStringLiteral("weights_file")).toString();
    if (!weights.isEmpty() && QFileInfo(weights).isRelative()) {
        layer[QStringLiteral("weights_file")] =
            QFileInfo(path).absoluteDir().absoluteFilePath(weights);
        doc_json[QStringLiteral("layer")] = layer;
    }
    QJsonObject source = doc_json.value(QStringLiteral("source")).toObject();
    const QString model = source.value(QStringLiteral("model_folder")).toString();
    if (!model.isEmpty() && QFileInfo(model).isRelative()) {
        // A built-in example (":/examples/...") names a shipped model; a session file, a
        // folder relative to itself or, when it has none, a shipped model: the examples
        // installed in share/attnviz/examples are the built-in ones, and name theirs so.
        const bool resource = path.startsWith(QLatin1String(":/"));
        const QString shipped = shipped_models_dir();
        const QDir base =
            resource && !shipped.isEmpty() ? QDir(shipped) : QFileInfo(path).absoluteDir();
        QString folder = QDir::cleanPath(base.absoluteFilePath(model));
        if (!resource && !QFileInfo::exists(folder) && !shipped_model(model).isEmpty())
            folder = shipped_model(model);
        source[QStringLiteral("model_folder")] = folder;
        doc_json[QStringLiteral("source")] = source;
    }
    const QDir dir = QFileInfo(path).absoluteDir();
    if (doc_json.value(QStringLiteral("source")).isObject())
        doc_json[QStringLiteral("source")] =
            absolute_files(doc_json.value(QStringLiteral("source")).toObject(),
                           {QStringLiteral("tokens_file")}, dir);
    if (QJsonObject compare = doc_json.value(QStringLiteral("compare")).toObject();
        compare.value(QStringLiteral("changes")).isObject()) {
        compare[QStringLiteral("changes")] =
            absolute_files(compare.value(QStringLiteral("changes")).toObject(),
                           {QStringLiteral("maps"), QStringLiteral("maps_tokens")}, dir);
        doc_json[QStringLiteral("compare")] = compare;
    }
    QString message;
    // Heads across a corpus (optional: older sessions have none), checked before anything
    // changes.
    CorpusPtr corpus;
    if (root.contains(QStringLiteral("corpus")) &&
        !(corpus = corpus_from_json(root.value(QStringLiteral("corpus")).toObject(), &message))) {
        *error = SessionText::tr("'%1': %2").arg(path, message);
        return false;
    }
    if (!document->fromJson(doc_json, &message)) {
        *error = SessionText::tr("'%1': %2").arg(path, message);
        return false;
    }
    document->setCorpus(std::move(corpus));
    if (extras) extras->window = root.value(QStringLiteral("window")).toObject();
    return true;
}

}  // namespace attnviz::ui
