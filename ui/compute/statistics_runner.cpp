#include "ui/compute/statistics_runner.h"

#include <QFileInfo>

#include "engine/io/attention_arrays.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/worker_threads.h"

namespace attnviz::ui {

namespace {

/// The pass over the model's encoding of the text (and its continuation on the timeline).
PositionStatistics model_statistics(const ComputeConfig& config, const PassControl& control) {
    PositionStatistics out;
    out.source = config.model_folder;
    out.model = open_model(config.model_folder);
    out.name = model_display_name(*out.model);
    const models::EncodedText enc = encode_model_text(*out.model, config);
    const models::ModelInfo& info = out.model->model->info();
    const auto L = std::int64_t(enc.input.ids.size());
    models::StatisticsOptions options;
    options.num_threads = worker_threads();
    options.control = control;
    options.keep_residuals = std::uint64_t(info.num_layers) * std::uint64_t(L) *
                                 std::uint64_t(info.hidden_size) * sizeof(float) <=
                             StatisticsRunner::kResidualBytes;
    models::StatisticsRun run = models::compute_statistics(*out.model->model, enc.input, options);
    out.statistics = std::move(run.statistics);
    out.residuals = std::move(run.residuals);
    out.input = enc.input;
    for (const std::string& t : enc.encoding.text)
        out.tokens.push_back(QString::fromStdString(t));
    return out;
}

/// The same measures of maps read from a file, one layer at a time.
PositionStatistics maps_statistics(const ComputeConfig& config, const PassControl& control) {
    PositionStatistics out;
    out.source = config.model_folder;
    out.name = QFileInfo(config.model_folder).fileName();
    const io::AttentionArrays arrays = io::AttentionArrays::open(config.model_folder.toStdString());
    const QString tokens_path = maps_tokens_file(config);
    out.tokens_file = tokens_path;
    const io::AttentionTokens tokens = io::read_attention_tokens(tokens_path.toStdString());
    io::check_tokens(arrays, tokens, tokens_path.toStdString());
    const std::int64_t H = arrays.heads(), L = arrays.length();
    std::vector<float> layer(arrays.layer_values());
    io::AttentionScan scan;
    std::optional<models::HeadStatisticsSink> sink;
    for (std::int64_t l = 0; l < arrays.layers(); ++l) {
        control.check();
        arrays.read_layer(l, layer.data());
        scan.add(l, layer.data(), H, L);
        // Nothing above the diagonal in the first layer: a causal model's (as run_maps says).
        if (!sink) sink.emplace(arrays.layers(), H, L, scan.causal());
        sink->add_layer(l, layer.data());
        control.report(l + 1, arrays.layers());
    }
    out.statistics = sink->take();
    for (const std::string& t : tokens.text)
        out.tokens.push_back(QString::fromStdString(t));
    return out;
}

}  // namespace

StatisticsRunner::StatisticsRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<PositionStatisticsPtr>();
}

StatisticsRunner::~StatisticsRunner() = default;

void StatisticsRunner::cancel() {
    job_.cancel();  // the pass answers within a layer
}

void StatisticsRunner::start(const ComputeConfig& config) {
    job_.start(
        [config](const JobControl& control) -> PositionStatisticsPtr {
            return std::make_shared<const PositionStatistics>(
                config.usesMaps() ? maps_statistics(config, control)
                                  : model_statistics(config, control));
        },
        {.finished = [this](PositionStatisticsPtr result) { emit finished(result); },
         .failed = [this](const QString& message) { emit failed(message); },
         .cancelled = [this] { emit cancelled(); },
         .progressed = [this](std::int64_t done,
                              std::int64_t total) { emit progressed(done, total); }});
}

}  // namespace attnviz::ui
