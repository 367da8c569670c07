#include "ui/document/corpus_data.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QtEndian>

#include <cmath>
#include <cstring>
#include <set>

#include "ui/compute/csv.h"
#include "ui/document/shipped_models.h"

namespace attnviz::ui {

namespace {
// The translation context of the messages a broken session's corpus gives.
struct CorpusText {
    Q_DECLARE_TR_FUNCTIONS(Corpus)
};

constexpr int kCorpusJsonVersion = 1;

QJsonValue number(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

double read_number(const QJsonValue& v) {
    return v.isDouble() ? v.toDouble() : std::nan("");
}

QString encode_floats(const std::vector<float>& values) {
    QByteArray bytes(qsizetype(values.size() * sizeof(quint32)), Qt::Uninitialized);
    for (std::size_t k = 0; k < values.size(); ++k) {
        quint32 u = 0;
        std::memcpy(&u, &values[k], sizeof u);
        qToLittleEndian(u, bytes.data() + k * sizeof u);
    }
    return QString::fromLatin1(bytes.toBase64());
}

bool decode_floats(const QJsonValue& v, std::size_t count, std::vector<float>* out) {
    const QByteArray bytes = QByteArray::fromBase64(v.toString().toLatin1());
    if (!v.isString() || std::size_t(bytes.size()) != count * sizeof(quint32)) return false;
    out->resize(count);
    for (std::size_t k = 0; k < count; ++k) {
        const quint32 u = qFromLittleEndian<quint32>(bytes.constData() + k * sizeof u);
        std::memcpy(&(*out)[k], &u, sizeof u);
    }
    return true;
}

QJsonArray strings(const std::vector<std::string>& list) {
    QJsonArray a;
    for (const std::string& s : list)
        a.append(QString::fromStdString(s));
    return a;
}

QJsonObject head_json(const models::CorpusHead& h) {
    QJsonArray measures;
    for (const models::MeasureSummary& m : h.measures)
        measures.append(QJsonArray{number(m.mean), number(m.low), number(m.high), number(m.sd),
                                   qint64(m.texts)});
    QJsonArray agreement;
    for (const models::LabelAgreement& a : h.agreement)
        agreement.append(QJsonArray{QString::fromStdString(a.label),
                                    QString::fromStdString(a.measure), a.threshold, a.share,
                                    qint64(a.texts), a.interval_clears});
    QJsonArray examples;
    for (const models::CorpusExample& e : h.examples) {
        QJsonArray spans;
        for (const models::TokenSpan& s : e.context)
            spans.append(QJsonArray{qint64(s.first), strings(s.tokens)});
        examples.append(QJsonArray{qint64(e.text), qint64(e.line), qint64(e.query), qint64(e.key),
                                   double(e.weight), spans});
    }
    return {{QStringLiteral("measures"), measures},
            {QStringLiteral("labels"), strings(h.labels)},
            {QStringLiteral("agreement"), agreement},
            {QStringLiteral("examples"), examples}};
}

QJsonObject qk_json(const CorpusQkView& v) {
    QJsonArray text, position, token;
    for (const models::CorpusQueryKeys::Token& t : v.tokens) {
        text.append(qint64(t.text));
        position.append(qint64(t.position));
        token.append(QString::fromStdString(t.token));
    }
    return {{QStringLiteral("layer"), qint64(v.head.layer)},
            {QStringLiteral("head"), qint64(v.head.head)},
            {QStringLiteral("count"), qint64(v.count)},
            {QStringLiteral("pca"), encode_floats(v.pca.points)},
            {QStringLiteral("pca_explained"), QJsonArray{v.pca.explained[0], v.pca.explained[1]}},
            {QStringLiteral("cosine"), encode_floats(v.cosine.points)},
            {QStringLiteral("cosine_explained"),
             QJsonArray{v.cosine.explained[0], v.cosine.explained[1]}},
            {QStringLiteral("text"), text},
            {QStringLiteral("position"), position},
            {QStringLiteral("token"), token}};
}

/// Reads a corpus object, failing at the first thing that is not as corpus_to_json writes it.
class Reader {
  public:
    explicit Reader(QString* error) : error_(error) {}
    bool failed() const { return failed_; }
    bool fail(const QString& what) {
        if (!failed_) *error_ = CorpusText::tr("the corpus is damaged (%1)").arg(what);
        failed_ = true;
        return false;
    }
    std::int64_t integer(const QJsonObject& o, const char* key, std::int64_t lo, std::int64_t hi) {
        const QJsonValue v = o.value(QLatin1String(key));
        const auto n = std::int64_t(v.toDouble(-1.0));
        if (!v.isDouble() || double(n) != v.toDouble() || n < lo || n > hi) {
            fail(QLatin1String(key));
            return lo;
        }
        return n;
    }
    std::int64_t integer(const QJsonValue& v, std::int64_t lo, std::int64_t hi, const char* what) {
        const auto n = std::int64_t(v.toDouble(-1.0));
        if (!v.isDouble() || double(n) != v.toDouble() || n < lo || n > hi) {
            fail(QLatin1String(what));
            return lo;
        }
        return n;
    }
    std::vector<std::string> strings(const QJsonValue& v, const char* what) {
        std::vector<std::string> out;
        if (!v.isArray()) fail(QLatin1String(what));
        for (const QJsonValue& s : v.toArray()) {
            if (!s.isString()) fail(QLatin1String(what));
            out.push_back(s.toString().toStdString());
        }
        return out;
    }

    models::CorpusHead head(const QJsonObject& o, std::int64_t texts) {
        models::CorpusHead h;
        const QJsonArray measures = o.value(QStringLiteral("measures")).toArray();
        if (measures.size() != qsizetype(models::head_measure_names().size())) fail("measures");
        for (const QJsonValue& m : measures) {
            const QJsonArray a = m.toArray();
            if (a.size() != 5) fail("measures");
            h.measures.push_back({read_number(a.at(0)), read_number(a.at(1)), read_number(a.at(2)),
                                  read_number(a.at(3)), integer(a.at(4), 0, texts, "measures")});
        }
        h.labels = strings(o.value(QStringLiteral("labels")), "labels");
        for (const QJsonValue& v : o.value(QStringLiteral("agreement")).toArray()) {
            const QJsonArray a = v.toArray();
            if (a.size() != 6 || !a.at(0).isString() || !a.at(1).isString() ||
                !a.at(2).isDouble() || !a.at(3).isDouble() || !a.at(5).isBool())
                fail("agreement");
            h.agreement.push_back({a.at(0).toString().toStdString(),
                                   a.at(1).toString().toStdString(), a.at(2).toDouble(),
                                   a.at(3).toDouble(), integer(a.at(4), 0, texts, "agreement"),
                                   a.at(5).toBool()});
        }
        constexpr std::int64_t kFar = std::int64_t(1) << 40;
        for (const QJsonValue& v : o.value(QStringLiteral("examples")).toArray()) {
            const QJsonArray a = v.toArray();
            if (a.size() != 6 || !a.at(4).isDouble() || !a.at(5).isArray()) {
                fail("examples");
                continue;
            }
            models::CorpusExample e;
            e.text = integer(a.at(0), 0, std::max<std::int64_t>(texts - 1, 0), "examples");
            e.line = integer(a.at(1), 0, kFar, "examples");
            e.query = integer(a.at(2), 0, kFar, "examples");
            e.key = integer(a.at(3), 0, e.query, "examples");
            e.weight = float(a.at(4).toDouble());
            for (const QJsonValue& s : a.at(5).toArray()) {
                const QJsonArray span = s.toArray();
                if (span.size() != 2) fail("examples");
                e.context.push_back(
                    {integer(span.at(0), 0, kFar, "examples"), strings(span.at(1), "examples")});
            }
            h.examples.push_back(std::move(e));
        }
        return h;
    }

    CorpusQkView qk(const QJsonObject& o, const models::CorpusResult& r, std::int64_t texts) {
        CorpusQkView v;
        v.head.layer = integer(o, "layer", 0, std::max<std::int64_t>(r.layers - 1, 0));
        v.head.head = integer(o, "head", 0, std::max<std::int64_t>(r.heads - 1, 0));
        v.count = integer(o, "count", 0, std::int64_t(1) << 30);
        const auto points = std::size_t(4 * v.count);
        if (!decode_floats(o.value(QStringLiteral("pca")), points, &v.pca.points) ||
            !decode_floats(o.value(QStringLiteral("cosine")), points, &v.cosine.points))
            fail("qk points");
        for (const auto& [key, p] :
             {std::pair{"pca_explained", &v.pca}, std::pair{"cosine_explained", &v.cosine}}) {
            const QJsonArray a = o.value(QLatin1String(key)).toArray();
            if (a.size() != 2) fail(key);
            p->explained = {a.at(0).toDouble(), a.at(1).toDouble()};
        }
        const QJsonArray text = o.value(QStringLiteral("text")).toArray(),
                         position = o.value(QStringLiteral("position")).toArray(),
                         token = o.value(QStringLiteral("token")).toArray();
        if (text.size() != v.count || position.size() != v.count || token.size() != v.count)
            fail("qk tokens");
        for (qsizetype k = 0; k < text.size() && !failed_; ++k)
            v.tokens.push_back(
                {integer(text.at(k), 0, std::max<std::int64_t>(texts - 1, 0), "qk tokens"),
                 integer(position.at(k), 0, std::int64_t(1) << 30, "qk tokens"),
                 token.at(k).toString().toStdString()});
        return v;
    }

  private:
    QString* error_;
    bool failed_ = false;
};

/// The texts a session keeps of a corpus too large to keep whole: those of its examples and
/// of its points.
std::set<std::int64_t> referenced_texts(const CorpusData& c) {
    std::set<std::int64_t> used;
    for (const models::CorpusHead& h : c.result.per_head)
        for (const models::CorpusExample& e : h.examples)
            used.insert(e.text);
    for (const CorpusQkView& v : c.qk)
        for (const models::CorpusQueryKeys::Token& t : v.tokens)
            used.insert(t.text);
    return used;
}
}  // namespace

const CorpusQkView* CorpusData::qkView(std::int64_t layer, std::int64_t head) const {
    for (const CorpusQkView& v : qk)
        if (v.head.layer == layer && v.head.head == head) return &v;
    return nullptr;
}

bool CorpusData::hasMeasuredTexts() const {
    const auto n = std::size_t(result.texts);
    if (texts.size() < n) return false;
    for (std::size_t k = 0; k < n; ++k)
        if (texts[k].isNull()) return false;
    return true;
}

bool CorpusData::isOf(const QString& folder) const {
    if (folder.isEmpty() || model_folder.isEmpty()) return false;
    const QFileInfo a(folder), b(model_folder);
    if (a.canonicalFilePath() == b.canonicalFilePath() && a.exists()) return true;
    // A shipped model measured elsewhere (a session from another machine) is the same model.
    return is_shipped_model(folder) && a.fileName() == b.fileName() &&
           !QFileInfo::exists(model_folder);
}

QJsonObject corpus_to_json(const CorpusData& c) {
    const models::CorpusResult& r = c.result;
    QJsonArray heads;
    for (const models::CorpusHead& h : r.per_head)
        heads.append(head_json(h));
    QJsonArray received;
    for (const float v : r.received)
        received.append(number(double(v)));
    QJsonArray qk;
    for (const CorpusQkView& v : c.qk)
        qk.append(qk_json(v));
    qint64 bytes = 0;
    for (const QString& t : c.texts)
        bytes += t.size() * 2;
    const bool whole = bytes <= kSessionTextBytes;
    const std::set<std::int64_t> used = whole ? std::set<std::int64_t>{} : referenced_texts(c);
    QJsonArray texts;
    for (std::size_t k = 0; k < c.texts.size(); ++k)
        texts.append(whole || used.count(std::int64_t(k)) ? QJsonValue(c.texts[k])
                                                          : QJsonValue(QJsonValue::Null));
    return {{QStringLiteral("version"), kCorpusJsonVersion},
            {QStringLiteral("source"), c.source},
            {QStringLiteral("format"), c.format},
            {QStringLiteral("model_folder"), c.model_folder},
            {QStringLiteral("texts_given"), qint64(c.texts_given)},
            {QStringLiteral("truncated"), qint64(c.truncated)},
            {QStringLiteral("layers"), qint64(r.layers)},
            {QStringLiteral("heads"), qint64(r.heads)},
            {QStringLiteral("bins"), qint64(r.bins)},
            {QStringLiteral("texts_measured"), qint64(r.texts)},
            {QStringLiteral("texts_with_repeats"), qint64(r.texts_with_repeats)},
            {QStringLiteral("tokens"), qint64(r.tokens)},
            {QStringLiteral("partial"), r.partial},
            {QStringLiteral("per_head"), heads},
            {QStringLiteral("received"), received},
            {QStringLiteral("qk"), qk},
            {QStringLiteral("texts"), texts}};
}

CorpusPtr corpus_from_json(const QJsonObject& json, QString* error) {
    Reader in(error);
    constexpr std::int64_t kFar = std::int64_t(1) << 40;
    if (in.integer(json, "version", 1, kCorpusJsonVersion) > kCorpusJsonVersion || in.failed())
        return nullptr;
    auto c = std::make_shared<CorpusData>();
    if (!json.value(QStringLiteral("source")).isString() ||
        !json.value(QStringLiteral("format")).isString() ||
        !json.value(QStringLiteral("model_folder")).isString() ||
        !json.value(QStringLiteral("partial")).isBool())
        in.fail(QStringLiteral("source"));
    c->source = json.value(QStringLiteral("source")).toString();
    c->format = json.value(QStringLiteral("format")).toString();
    c->model_folder = json.value(QStringLiteral("model_folder")).toString();
    c->texts_given = in.integer(json, "texts_given", 0, kFar);
    c->truncated = in.integer(json, "truncated", 0, c->texts_given);
    models::CorpusResult& r = c->result;
    r.layers = in.integer(json, "layers", 1, 1 << 16);
    r.heads = in.integer(json, "heads", 1, 1 << 16);
    r.bins = in.integer(json, "bins", 1, 1 << 16);
    r.texts = in.integer(json, "texts_measured", 0, c->texts_given);
    r.texts_with_repeats = in.integer(json, "texts_with_repeats", 0, r.texts);
    r.tokens = in.integer(json, "tokens", 0, kFar);
    r.partial = json.value(QStringLiteral("partial")).toBool();
    if (in.failed()) return nullptr;
    const QJsonArray heads = json.value(QStringLiteral("per_head")).toArray();
    if (heads.size() != r.layers * r.heads) in.fail(QStringLiteral("per_head"));
    for (const QJsonValue& h : heads)
        r.per_head.push_back(in.head(h.toObject(), c->texts_given));
    const QJsonArray received = json.value(QStringLiteral("received")).toArray();
    if (received.size() != r.layers * r.heads * r.bins) in.fail(QStringLiteral("received"));
    for (const QJsonValue& v : received)
        r.received.push_back(float(read_number(v)));
    for (const QJsonValue& v : json.value(QStringLiteral("qk")).toArray())
        c->qk.push_back(in.qk(v.toObject(), r, c->texts_given));
    const QJsonArray texts = json.value(QStringLiteral("texts")).toArray();
    if (texts.size() != c->texts_given) in.fail(QStringLiteral("texts"));
    for (const QJsonValue& t : texts) {
        if (!t.isString() && !t.isNull()) in.fail(QStringLiteral("texts"));
        c->texts.push_back(t.isString() ? t.toString() : QString());
    }
    if (in.failed()) return nullptr;
    return c;
}

QByteArray corpus_atlas_csv(const models::CorpusResult& r) {
    QString out = QStringLiteral("layer,head");
    const std::vector<std::string>& names = models::head_measure_names();
    for (const std::string& n : names) {
        const QString name = QString::fromStdString(n);
        out += QStringLiteral(",%1,%1_low,%1_high,%1_texts").arg(name);
    }
    out += QStringLiteral(",labels");
    const std::vector<models::LabelAgreement>& rules =
        r.per_head.empty() ? std::vector<models::LabelAgreement>{} : r.per_head.front().agreement;
    for (const models::LabelAgreement& a : rules) {
        const QString label =
            QString::fromStdString(a.label).replace(QLatin1Char(' '), QLatin1Char('_'));
        out += QStringLiteral(",%1_share,%1_interval_clears").arg(label);
    }
    out += QLatin1Char('\n');
    const auto cell = [](double v) {
        return std::isfinite(v) ? QString::number(v, 'g', 9) : QString();
    };
    for (std::int64_t l = 0; l < r.layers; ++l)
        for (std::int64_t h = 0; h < r.heads; ++h) {
            const models::CorpusHead& head = r.at(l, h);
            out += QStringLiteral("%1,%2").arg(l + 1).arg(h + 1);
            for (const models::MeasureSummary& m : head.measures)
                out += QStringLiteral(",%1,%2,%3,%4")
                           .arg(cell(m.mean), cell(m.low), cell(m.high))
                           .arg(m.texts);
            QStringList labels;
            for (const std::string& s : head.labels)
                labels << QString::fromStdString(s);
            out += QLatin1Char(',') + csv_field(labels.join(QLatin1Char(';')));
            for (const models::LabelAgreement& a : head.agreement)
                out += QStringLiteral(",%1,%2").arg(cell(a.share)).arg(a.interval_clears ? 1 : 0);
            out += QLatin1Char('\n');
        }
    return out.toUtf8();
}

QByteArray qk_points_csv(const CorpusQkView& v) {
    QString out = QStringLiteral("kind,text,position,token,pca_x,pca_y,cosine_x,cosine_y\n");
    const auto n = std::size_t(v.count);
    for (std::size_t p = 0; p < 2 * n; ++p) {
        const models::CorpusQueryKeys::Token& t = v.tokens[p % n];
        // Joined, not arg()ed: a token may hold "%1".
        const auto x = [](float f) { return QString::number(double(f), 'g', 9); };
        out += (p < n ? QLatin1String("query,") : QLatin1String("key,")) +
               QString::number(t.text + 1) + QLatin1Char(',') + QString::number(t.position + 1) +
               QLatin1Char(',') + csv_field(QString::fromStdString(t.token)) + QLatin1Char(',') +
               x(v.pca.points[2 * p]) + QLatin1Char(',') + x(v.pca.points[2 * p + 1]) +
               QLatin1Char(',') + x(v.cosine.points[2 * p]) + QLatin1Char(',') +
               x(v.cosine.points[2 * p + 1]) + QLatin1Char('\n');
    }
    return out.toUtf8();
}

CorpusQkView make_qk_view(const models::CorpusQueryKeys& qk) {
    models::JointQueryKeys joint = models::joint_query_keys(qk.queries, qk.keys, qk.dim);
    CorpusQkView v;
    v.head = qk.head;
    v.count = joint.count;
    v.pca = std::move(joint.pca);
    v.cosine = std::move(joint.cosine);
    v.pca.axes.clear();
    v.cosine.axes.clear();
    v.tokens = qk.tokens;
    return v;
}

}  // namespace attnviz::ui
