#include "ui/compute/full_map_source.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

#include "engine/errors.h"
#include "engine/io/attention_arrays.h"
#include "engine/models/effective_attention.h"
#include "engine/models/head_statistics.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/compute/worker_threads.h"

namespace attnviz::ui {

QString FullMapSource::unavailable(int layer, int head) const {
    if (layer < 0 || layer >= layers() || head < 0 || head >= heads())
        return FullMapText::tr("There is no head %1 of layer %2 here.")
            .arg(head + 1)
            .arg(layer + 1);
    return {};
}

std::uint64_t FullMapSource::mapBytes() const {
    return std::uint64_t(length()) * std::uint64_t(length()) * sizeof(float);
}

namespace {

/// Head `head` of layer `layer` alone, norm-based (models/effective_attention.h): its weights
/// from a pass of that head (as models::head_map), made ‖α_ij f_h(x_j)‖ by the engine as for a
/// layer of that one head: its key/value head's values and its columns of the output
/// projection.
Tensor norm_based_head_map(const models::Model& model, const models::ModelInput& input, int layer,
                           int head, int threads, const PassControl& control) {
    struct Sink : models::CollectingSink {
        std::int64_t layer = 0;
        Tensor values;
        bool wants_values() const override { return true; }
        void on_values(std::int64_t l, const Tensor& v) override {
            if (l == layer) values = v;
        }
    } sink;
    sink.layer = layer;
    models::ModelForwardOptions options;
    options.scope.layers = {layer};
    options.scope.only_head = head;
    options.scope.heads = 0;  // the mean of one head is its map
    options.num_threads = threads;
    options.control = control;
    model.forward(input, options, sink);
    if (sink.results.size() != 1 || sink.values.empty())
        throw std::logic_error("a one-head pass handed over no map or no values");
    const models::ModelInfo& info = model.info();
    const std::int64_t L = std::int64_t(input.ids.size()), d = info.head_dim;
    const std::int64_t H = info.num_heads, kv = info.num_kv_heads, E = info.hidden_size;
    const std::int64_t g = head / (H / kv);
    const Tensor o = model.attention_weights(layer, models::AttentionParts::Output).o;
    Tensor v({L, d}), o_h({E, d});
    for (std::int64_t r = 0; r < L; ++r)
        std::copy_n(sink.values.ptr() + r * kv * d + g * d, d, v.ptr() + r * d);
    for (std::int64_t e = 0; e < E; ++e)
        std::copy_n(o.ptr() + e * H * d + std::int64_t(head) * d, d, o_h.ptr() + e * d);
    const models::SourceGram gram(v.ptr(), L, 1, o_h, 1, threads);
    Tensor out({L, L});
    models::effective_maps(gram, sink.results.front().mean_weights.ptr(), L, L, 0, out.ptr(), 1,
                           nullptr, threads);
    return out;
}

/// A model's pass: the maps it kept, over the tokens the views show (words, special tokens
/// hidden, a window: as the pass presents them).  A head it did not keep (the memory budget)
/// is recomputed from the model, that head alone (models::head_map, or norm_based_head_map
/// when the pass's maps are norm-based), over every piece of the text: what the pass would
/// have kept, bit for bit, when it kept everything.
class ModelPassSource : public FullMapSource {
  public:
    ModelPassSource(std::shared_ptr<const ModelMaps> maps, ComputeConfig config)
        : maps_(std::move(maps)), config_(std::move(config)) {}
    QString name() const override { return maps_->name; }
    int layers() const override { return maps_->total_layers; }
    int heads() const override { return maps_->num_heads; }
    std::int64_t length() const override { return std::max(maps_->tokens, maps_->text_pieces); }
    bool normBased() const override { return maps_->norm_based; }
    bool kept(int layer, int head) const {
        return layer < maps_->num_layers && head < maps_->heads_kept;
    }
    QString unavailable(int layer, int head) const override {
        if (QString why = FullMapSource::unavailable(layer, head); !why.isEmpty()) return why;
        if (!kept(layer, head) && !maps_->knocked_out.empty())
            return FullMapText::tr(
                       "Layer %1, head %2: the memory budget did not keep its map, "
                       "and it is recomputed without knocked-out heads: restore "
                       "them first, or raise the memory budget.")
                .arg(layer + 1)
                .arg(head + 1);
        return {};
    }
    HeadMap map(int layer, int head, const PassControl& control) const override {
        if (const QString why = unavailable(layer, head); !why.isEmpty())
            throw DataError(why.toStdString());
        control.check();
        HeadMap out;
        out.causal = maps_->causal;
        if (kept(layer, head)) {
            const std::int64_t L = maps_->tokens;
            const Tensor& w = maps_->weights[std::size_t(layer)];  // [heads_kept, L, L]
            const auto begin = w.data.begin() + std::ptrdiff_t(head) * L * L;
            out.weights = Tensor({L, L}, std::vector<float>(begin, begin + L * L));
            out.tokens = maps_->token_text;
            for (int t = 0; t < maps_->tokens; ++t)
                out.pieces.push_back(maps_->pieceOf(t));
            return out;
        }
        const ModelPtr m = open_model(config_.model_folder);
        const models::EncodedText enc = encode_model_text(*m, config_);
        out.weights = maps_->norm_based ? norm_based_head_map(*m->model, enc.input, layer, head,
                                                              worker_threads(), control)
                                        : models::head_map(*m->model, enc.input, layer, head,
                                                           nullptr, worker_threads(), control);
        for (const std::string& t : enc.encoding.text)
            out.tokens.push_back(QString::fromStdString(t));
        return out;
    }

  private:
    std::shared_ptr<const ModelMaps> maps_;
    ComputeConfig config_;
};

/// Attention maps in a file: one head read from it (AttentionArrays::read_head), whatever part
/// of them the window's pass kept.
class MapsFileSource : public FullMapSource {
  public:
    MapsFileSource(QString file, QString tokens, int layers, int heads, std::int64_t length,
                   bool causal)
        : file_(std::move(file)),
          tokens_(std::move(tokens)),
          layers_(layers),
          heads_(heads),
          length_(length),
          causal_(causal) {}
    QString name() const override { return QFileInfo(file_).fileName(); }
    int layers() const override { return layers_; }
    int heads() const override { return heads_; }
    std::int64_t length() const override { return length_; }
    HeadMap map(int layer, int head, const PassControl& control) const override {
        const std::string path = QFile::encodeName(file_).toStdString();
        const io::AttentionArrays arrays = io::AttentionArrays::open(path);
        const std::string tokens_path = QFile::encodeName(tokens_).toStdString();
        const io::AttentionTokens tokens = io::read_attention_tokens(tokens_path);
        io::check_tokens(arrays, tokens, tokens_path);
        control.check();
        const std::int64_t L = arrays.length();
        HeadMap out;
        out.weights = Tensor({L, L});
        arrays.read_head(layer, head, out.weights.ptr());
        for (const std::string& t : tokens.text)
            out.tokens.push_back(QString::fromStdString(t));
        out.causal = causal_;
        return out;
    }

  private:
    QString file_, tokens_;
    int layers_, heads_;
    std::int64_t length_;
    bool causal_;
};

}  // namespace

FullMapSourcePtr full_map_source(const AttentionSnapshot& snapshot) {
    const std::shared_ptr<const ModelMaps>& maps = snapshot.model;
    if (!maps) return nullptr;
    if (snapshot.config.usesMaps())
        return maps_file_source(snapshot.config.model_folder, maps_tokens_file(snapshot.config),
                                maps->total_layers, maps->num_heads, maps->text_pieces,
                                maps->causal);
    return std::make_shared<ModelPassSource>(maps, snapshot.config);
}

FullMapSourcePtr maps_file_source(const QString& file, const QString& tokens, int layers, int heads,
                                  std::int64_t length, bool causal) {
    return std::make_shared<MapsFileSource>(file, tokens, layers, heads, length, causal);
}

}  // namespace attnviz::ui
