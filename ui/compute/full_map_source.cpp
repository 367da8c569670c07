#include "ui/compute/full_map_source.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

#include "engine/errors.h"
#include "engine/io/attention_arrays.h"
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

/// A model's pass: the maps it kept, over the tokens the views show (words, special tokens
/// hidden, a window: as the pass presents them).  A head it did not keep (the memory budget)
/// is recomputed from the model, that head alone (models::head_map), over every piece of the
/// text: what the pass would have kept, bit for bit, when it kept everything.
class ModelPassSource : public FullMapSource {
  public:
    ModelPassSource(std::shared_ptr<const ModelMaps> maps, ComputeConfig config)
        : maps_(std::move(maps)), config_(std::move(config)) {}
    QString name() const override { return maps_->name; }
    int layers() const override { return maps_->total_layers; }
    int heads() const override { return maps_->num_heads; }
    std::int64_t length() const override { return std::max(maps_->tokens, maps_->text_pieces); }
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
            return out;
        }
        const ModelPtr m = open_model(config_.model_folder);
        const models::EncodedText enc = encode_model_text(*m, config_);
        out.weights =
            models::head_map(*m->model, enc.input, layer, head, nullptr, worker_threads(), control);
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
