#include "ui/compute/model_lens.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "engine/models/predictions.h"
#include "ui/compute/csv.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"

namespace attnviz::ui {

namespace {
using Index = std::int64_t;

struct LensText {
    Q_DECLARE_TR_FUNCTIONS(ModelLens)
};

/// The lens's logits are [layers, positions, vocab] floats: a long text's positions go through
/// in chunks of at most this many bytes, so Qwen's 151,936 tokens × 24 layers stay bounded.
constexpr double kLensChunkBytes = 64.0 * 1024 * 1024;

/// The residual stream after each layer at the text's last `keep` positions only: a long
/// text's every row of every layer is not kept for the few the lens reads.
class LastRowsSink : public models::AttentionSink {
  public:
    explicit LastRowsSink(Index keep) : keep_(keep) {}
    void on_layer(Index, AttentionResult&&) override {}
    bool wants_residuals() const override { return true; }
    void on_residual(Index layer, const Tensor& x) override {
        const Index E = x.shape.back(), rows = Index(x.numel()) / E;
        if (residuals.size() <= std::size_t(layer)) residuals.resize(std::size_t(layer) + 1);
        residuals[std::size_t(layer)] = Tensor(
            {keep_, E}, std::vector<float>(x.ptr() + (rows - keep_) * E, x.ptr() + rows * E));
    }
    std::vector<Tensor> residuals;  ///< [layers + 1] of [keep, hidden]

  private:
    Index keep_;
};

}  // namespace

double LensGrid::probability(int layer, int position, int rank) const {
    return std::exp(top_logprob[at(layer, position, rank)]);
}

QByteArray LensGrid::to_csv() const {
    QByteArray out = "layer,position,token,rank,id,prediction,probability\n";
    for (int l = 0; l < num_layers; ++l)
        for (int p = 0; p < positions; ++p)
            for (int r = 0; r < top_k; ++r) {
                const std::size_t i = at(l, p, r);
                out += QStringList{QString::number(l + 1),
                                   QString::number(first_position + p + 1),
                                   csv_field(tokens[std::size_t(p)]),
                                   QString::number(r + 1),
                                   QString::number(top_ids[i]),
                                   csv_field(top_text[i]),
                                   QString::number(std::exp(top_logprob[i]), 'g', 9)}
                           .join(QLatin1Char(','))
                           .toUtf8() +
                       '\n';
            }
    return out;
}

LensPtr compute_lens(const ComputeConfig& c, int num_threads, const PassControl* control) {
    auto grid = std::make_shared<LensGrid>();
    if (c.usesMaps()) {
        grid->unavailable = LensText::tr(
            "These attention maps were read from a file, without the model that made them: the "
            "logit lens needs a model folder with its language-model head.");
        return grid;
    }
    const ModelPtr m = open_model(c.model_folder);
    const models::Model& model = *m->model;
    const models::ModelInfo& info = model.info();
    grid->name = model_display_name(*m);
    if (model.lm_head() == models::LmHeadKind::None) {
        grid->unavailable =
            LensText::tr("%1 has no language-model head, so there is no logit lens to show.")
                .arg(grid->name);
        grid->detail = QString::fromStdString(model.lm_head_missing());
        return grid;
    }
    const models::EncodedText enc = encode_model_text(*m, c);
    const auto L = Index(enc.input.ids.size());
    const Index N = info.num_layers, V = info.vocab_size;
    const Index P = std::min<Index>(L, kLensMaxPositions);
    grid->num_layers = int(N);
    grid->positions = int(P);
    grid->first_position = int(L - P);
    grid->total_positions = int(L);
    grid->top_k = int(std::min<Index>(kLensTopK, V));
    grid->causal = model.lm_head() == models::LmHeadKind::Causal;

    // One pass keeps the residual stream after every layer; the head reads it in chunks.
    models::ModelForwardOptions options;
    options.attention = false;
    options.num_threads = std::max(1, num_threads);
    if (control) options.control = *control;
    // The knocked-out heads: the lens shows what the model predicts without them.
    options.interventions = model_knock_outs(c, info);
    grid->knocked_out = c.knocked_out;
    LastRowsSink sink(P);
    model.forward(enc.input, options, sink);

    std::unordered_map<Index, QString> texts;
    const auto text_of = [&](Index id) -> const QString& {
        auto [it, added] = texts.try_emplace(id);
        if (added) it->second = token_label(m->tokenizer, id);
        return it->second;
    };
    for (Index p = 0; p < P; ++p) {
        const Index t = L - P + p;
        grid->tokens.push_back(QString::fromStdString(enc.encoding.text[std::size_t(t)]));
        const Index target = grid->causal ? (t + 1 < L ? enc.input.ids[std::size_t(t + 1)] : -1)
                                          : enc.input.ids[std::size_t(t)];
        grid->targets.push_back(target);
        grid->target_text.push_back(target >= 0 ? text_of(target) : QString());
    }
    const std::size_t cells = std::size_t(N * P * grid->top_k);
    grid->top_ids.resize(cells);
    grid->top_logprob.resize(cells);
    grid->top_text.resize(cells);
    const Index chunk =
        std::clamp<Index>(Index(kLensChunkBytes / (4.0 * double(N) * double(V))), 1, P);
    for (Index first = 0; first < P; first += chunk) {
        if (control) control->check();
        const Index C = std::min(chunk, P - first);
        std::vector<Index> positions;  // rows of the kept residuals
        for (Index i = 0; i < C; ++i)
            positions.push_back(first + i);
        Tensor lens = models::lens_logits(model, sink.residuals, positions, options.num_threads);
        lens.shape = {N * C, V};
        const auto tops = models::top_k_rows(lens, grid->top_k, options.num_threads);
        for (Index l = 0; l < N; ++l)
            for (Index i = 0; i < C; ++i) {
                const auto& top = tops[std::size_t(l * C + i)];
                for (int r = 0; r < grid->top_k; ++r) {
                    const std::size_t at = grid->at(int(l), int(first + i), r);
                    grid->top_ids[at] = top[std::size_t(r)].id;
                    grid->top_logprob[at] = top[std::size_t(r)].logprob;
                    grid->top_text[at] = text_of(top[std::size_t(r)].id);
                }
            }
    }
    return grid;
}

}  // namespace attnviz::ui
