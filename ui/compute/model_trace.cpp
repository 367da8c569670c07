#include "ui/compute/model_trace.h"

#include <algorithm>

#include "engine/models/model_folder.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_store.h"

namespace attnviz::ui {

QString ModelTrace::text(std::int64_t id) const {
    return model ? token_label(model->tokenizer, id) : QStringLiteral("<id %1>").arg(id);
}

int default_trace_piece(const text::Encoding& encoding, const models::OpenedModel& model) {
    const std::vector<std::int64_t>& ids = encoding.ids;
    const auto L = int(ids.size());
    if (model.model->lm_head() == models::LmHeadKind::Masked) {
        // A masked LM predicts at its [MASK]: the first one, else the last word's piece.
        for (const char* mask : {"[MASK]", "<mask>"})
            if (const auto id = model.tokenizer.token_to_id(mask))
                for (int t = 0; t < L; ++t)
                    if (ids[std::size_t(t)] == *id) return t;
    }
    // The last piece the text itself has (not a template's [SEP] or </s>).
    for (int t = L - 1; t >= 0; --t)
        if (std::size_t(t) >= encoding.sequence.size() || encoding.sequence[std::size_t(t)] >= 0)
            return t;
    return L - 1;
}

std::shared_ptr<const ModelTrace> model_trace(const ComputeConfig& c, int token,
                                              const ModelMaps& shown, int num_threads,
                                              const PassControl* control) {
    const ModelPtr m = open_model(c.model_folder);
    const models::EncodedText enc = encode_model_text(*m, c);
    const models::ModelInfo& info = m->model->info();
    // The shown token's prediction is read at its last piece (words group pieces).
    const int piece = token >= 0 && token < shown.tokens ? shown.pieceOf(token)
                                                         : default_trace_piece(enc.encoding, *m);
    auto out = std::make_shared<ModelTrace>();
    out->trace = models::trace_token(*m->model, enc.input, piece, model_knock_outs(c, info),
                                     std::max(1, num_threads), control ? *control : PassControl{});
    out->info = info;
    out->gated = m->model->config().family == models::Family::Llama;
    out->name = shown.name;
    out->pieces.reserve(enc.input.ids.size());
    for (std::size_t t = 0; t < enc.input.ids.size(); ++t)
        out->pieces.push_back(t < enc.encoding.text.size()
                                  ? QString::fromStdString(enc.encoding.text[t])
                                  : token_label(m->tokenizer, enc.input.ids[t]));
    out->model = m;
    return out;
}

}  // namespace attnviz::ui
