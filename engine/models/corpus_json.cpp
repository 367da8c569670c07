// `attnviz corpus`'s JSON files (corpus.h): heads.json and each asked head's qk_L_H.json.
// Layers, heads, texts and positions count from 1, as everything a user reads.
#include "engine/io/json_writer.h"
#include "engine/models/corpus.h"
#include "engine/models/qk_embedding.h"

namespace attnviz::models {

namespace {

constexpr auto kNumber = io::json::Format::general(6);

void write_measure(io::json::Writer& w, const MeasureSummary& m) {
    w.begin_object()
        .member("mean", m.mean, kNumber)
        .member("low", m.low, kNumber)
        .member("high", m.high, kNumber)
        .member("sd", m.sd, kNumber)
        .member("texts", m.texts)
        .end_object();
}

void write_example(io::json::Writer& w, const CorpusExample& e) {
    w.begin_object()
        .member("text", e.text + 1)
        .member("line", e.line)
        .member("query", e.query + 1)
        .member("key", e.key + 1)
        .member("weight", double(e.weight), kNumber);
    w.key("context").begin_array();
    for (const TokenSpan& span : e.context) {
        w.begin_object().member("first", span.first + 1).key("tokens").begin_array();
        for (const std::string& t : span.tokens)
            w.value(t);
        w.end_array().end_object();
    }
    w.end_array().end_object();
}

void write_head(io::json::Writer& w, const CorpusHead& head, std::int64_t layer,
                std::int64_t index) {
    w.begin_object().member("layer", layer + 1).member("head", index + 1);
    w.key("measures").begin_object();
    const auto& names = head_measure_names();
    for (std::size_t k = 0; k < names.size(); ++k) {
        w.key(names[k]);
        write_measure(w, head.measures[k]);
    }
    w.end_object();
    w.key("labels").begin_array();
    for (const std::string& label : head.labels)
        w.value(label);
    w.end_array();
    w.key("agreement").begin_array();
    for (const LabelAgreement& a : head.agreement)
        w.begin_object()
            .member("label", a.label)
            .member("measure", a.measure)
            .member("threshold", a.threshold, kNumber)
            .member("share", a.share, kNumber)
            .member("texts", a.texts)
            .member("interval_clears", a.interval_clears)
            .end_object();
    w.end_array();
    w.key("examples").begin_array();
    for (const CorpusExample& e : head.examples)
        write_example(w, e);
    w.end_array().end_object();
}

}  // namespace

std::string corpus_json(const CorpusResult& r, const std::function<void(io::json::Writer&)>& more) {
    io::json::Writer w;
    w.begin_object()
        .member("layers", r.layers)
        .member("heads_per_layer", r.heads)
        .member("bins", r.bins)
        .member("texts", r.texts)
        .member("texts_with_repeats", r.texts_with_repeats)
        .member("tokens", r.tokens)
        .member("partial", r.partial)
        .member("interval", "t95");
    if (more) more(w);
    w.key("heads").begin_array();
    for (std::int64_t l = 0; l < r.layers; ++l)
        for (std::int64_t h = 0; h < r.heads; ++h)
            write_head(w, r.at(l, h), l, h);
    w.end_array();
    return w.end_object().take() + "\n";
}

std::string query_keys_json(const CorpusQueryKeys& qk, const JointQueryKeys& joint) {
    io::json::Writer w;
    w.begin_object()
        .member("layer", qk.head.layer + 1)
        .member("head", qk.head.head + 1)
        .member("tokens", joint.count)
        .member("dim", joint.dim);
    w.key("normalisation")
        .begin_object()
        .member("query_scale", joint.normalisation.query_scale, kNumber)
        .member("spread", joint.normalisation.spread, kNumber);
    w.key("key_shift").begin_array();
    for (const float v : joint.normalisation.key_shift)
        w.value(double(v), kNumber);
    w.end_array().end_object();
    for (const auto& [name, p] : {std::pair{"pca", &joint.pca}, std::pair{"cosine", &joint.cosine}})
        w.key(name)
            .begin_object()
            .key("explained")
            .begin_array()
            .value(p->explained[0], kNumber)
            .value(p->explained[1], kNumber)
            .end_array()
            .end_object();
    w.key("points").begin_array();
    for (const char* kind : {"query", "key"})
        for (const CorpusQueryKeys::Token& t : qk.tokens)
            w.begin_object()
                .member("kind", kind)
                .member("token", t.token)
                .member("text", t.text + 1)
                .member("position", t.position + 1)
                .end_object();
    w.end_array();
    return w.end_object().take() + "\n";
}

}  // namespace attnviz::models
