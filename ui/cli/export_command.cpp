// `attnviz export`: the window's figure, headless, through the same document and renderer.
// The subcommand declares its groups of options (export_options.h, each declared beside how
// it is applied); apply_arguments applies them to an AttentionDocument in the order the
// document needs, whose rules (heads that divide embed_dim, a comparison that changes
// something, ...) give the usage errors; run_export computes and writes.
#include "ui/cli/export_command.h"

#include <QApplication>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "engine/errors.h"
#include "engine/models/predictions.h"
#include "engine/models/token_trace.h"
#include "ui/classroom/compare_model.h"
#include "ui/classroom/steps_model.h"
#include "ui/cli/export_applying.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/model_lens.h"
#include "ui/compute/model_snapshot.h"
#include "ui/compute/model_trace.h"
#include "ui/compute/worker_threads.h"
#include "ui/document/attention_document.h"
#include "ui/entry.h"
#include "ui/i18n/language.h"
#include "ui/model/predictions_figure.h"
#include "ui/render/figure_export.h"

namespace attnviz::ui {

void usage_error(const QString& message) {
    throw UsageError(message.toStdString());
}

int to_int(const QString& option, const QString& value, int lo, int hi) {
    bool ok = false;
    const int v = value.toInt(&ok);
    if (!ok || v < lo || v > hi)
        usage_error(ExportCommandText::tr("%1 needs a whole number from %2 to %3, not '%4'")
                        .arg(option)
                        .arg(lo)
                        .arg(hi)
                        .arg(value));
    return v;
}

Scoring scoring_from_name(const std::string& name) {
    return name == "additive" ? Scoring::Additive : Scoring::ScaledDotProduct;
}

namespace {

/// Puts the options into `doc` and returns the figure to export.  Throws UsageError
/// (translated) for options that do not go together: the first rule broken, in this order.
ExportCommand apply_arguments(const ExportOptions& a, AttentionDocument* doc) {
    Applying s;
    s.doc = doc;
    // What maps straight onto the document and the figure, in the order the document takes
    // it (a text set later would clear the masked keys, which come last).
    a.ExportFigure::apply_settings(s);
    a.ExportInput::apply_settings(s);
    a.ExportLayer::apply_settings(s);
    a.ExportMasks::apply_settings(s);
    a.ExportMemory::apply_settings(s);
    a.ExportComparison::apply_settings(s);
    // The source (a model or maps bring their own tokens and heads), then what depends on it.
    a.ExportModel::apply_source(a, s);
    a.ExportInput::apply_sentences(s);
    a.ExportLayer::apply_heads(s);
    a.ExportMemory::apply_scope(a, s);
    a.ExportLayer::apply_seeds(s);
    a.ExportMasks::apply_keys(s);
    // The view, then the options that need one.
    a.ExportFigure::apply_view(a, s);
    a.ExportModel::apply_view_options(a, s);
    a.ExportComparison::check_view(s);
    a.ExportFigure::apply_view_options(s);
    a.ExportModel::apply_generation(a, s);  // runs the model: last
    return s.cmd;
}

/// Computes on this thread, renders, writes.  Throws DataError / UsageError /
/// std::invalid_argument.
void run_export(const ExportCommand& command, const AttentionDocument& document) {
    // The command line's budget: --memory-budget, else ATTNVIZ_MEMORY_BUDGET, else the
    // default (the window's own setting is not read: a script gives the same answer anywhere).
    budget::MemoryBudget memory;
    try {
        memory = budget::resolve_memory_budget(command.memory_budget.toStdString(), "");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    // A PNG is drawn on a canvas of its own (and QCustomPlot's buffer of the same size).
    if (figure_format_for(command.out) == ExportFormat::Png) {
        const double w = std::ceil(command.size.width * command.size.scale);
        const double h = std::ceil(command.size.height * command.size.scale);
        const auto canvas = std::uint64_t(2 * 4 * w * h);
        if (canvas > memory.bytes)
            throw DataError(
                ExportCommandText::tr("a PNG of %1 x %2 pixels needs %3, more than the memory "
                                      "budget of %4; use a smaller --width, --height or --scale")
                    .arg(w)
                    .arg(h)
                    .arg(QString::fromStdString(budget::format_bytes(canvas)),
                         QString::fromStdString(budget::describe_budget(memory)))
                    .toStdString());
    }
    ComputeConfig config = document.computeConfig();
    // A figure of one layer needs the layers up to it only (the compared layer included).
    if (config.usesModel() && command.figure.kind != FigureKind::Model && !command.atlas)
        config.layers_shown =
            std::max(config.layer, document.compare().changes.layer.value_or(0)) + 1;
    SnapshotPtr snapshot;
    try {
        snapshot = compute_snapshot(
            config, 1, nullptr, worker_threads(), &memory,
            command.figure.kind == FigureKind::Steps && !command.figure.whole_model, nullptr,
            command.figure.kind == FigureKind::Lens, nullptr,
            command.figure.whole_model ? command.figure.focus_token : kNoTrace);
    } catch (const budget::MemoryBudgetExceeded& e) {
        if (!config.usesModel()) throw;
        budget::MemoryPlan plan = e.plan();  // no --layers here: only the budget can help
        plan.fewer_layers.reset();
        throw budget::MemoryBudgetExceeded(plan, e.budget());
    }
    FigureOptions options = command.figure;  // with the draw
    if (command.figure.whole_model && !snapshot->trace)
        throw DataError("the model's pass at the token was not traced");
    if (command.figure.whole_model && command.draw) {
        if (!snapshot->trace || snapshot->trace->trace.logits.empty())
            throw DataError(snapshot->model ? snapshot->model->no_predictions.toStdString()
                                            : std::string("there are no logits to draw from"));
        const std::vector<float>& z = snapshot->trace->trace.logits;
        options.drawn = models::sample_next(
            z.data(), std::int64_t(z.size()),
            {command.figure.temperature, command.figure.top_k, command.figure.top_p},
            std::uint64_t(*command.draw));
    }
    if (command.figure.kind == FigureKind::Steps && !command.figure.whole_model) {
        QString why;
        if (build_steps_model(*snapshot, command.figure.batch_item, command.figure.head, &why)
                .empty())
            throw DataError(why.toStdString());
    }
    if (const int t = command.figure.focus_token; t >= 0 && t >= snapshot->model->tokens)
        throw UsageError(ExportCommandText::tr("--focus-token %1: the text has %2 tokens")
                             .arg(t + 1)
                             .arg(snapshot->model->tokens)
                             .toStdString());
    if (command.atlas) {
        write_atomically(command.out, QByteArray::fromStdString(snapshot->model->atlas.to_csv()));
        return;
    }
    if (command.figure.kind == FigureKind::Lens) {
        if (const LensGrid& g = *snapshot->lens; !g.unavailable.isEmpty())
            throw DataError((g.unavailable + QLatin1Char(' ') + g.detail).trimmed().toStdString());
        if (command.lens_csv) {
            write_atomically(command.out, snapshot->lens->to_csv());
            return;
        }
    }
    if (command.figure.kind == FigureKind::Predictions) {
        const ModelMaps& m = *snapshot->model;
        if (!m.predictions) throw DataError(m.no_predictions.toStdString());
        if (command.predictions_csv) return write_atomically(command.out, predictions_csv(m));
        // Drawn as a figure that fits its content: as wide and as tall as it takes.
        PredictionsFigure figure;
        figure.setSnapshot(snapshot);
        figure.setOptions(command.figure);
        return write_atomically(
            command.out, encode_figure(render_painted_figure(figure, command.size, command.out)));
    }
    SnapshotPtr compared;
    if (command.figure.kind == FigureKind::Compare) {
        compared = compute_compared(snapshot->config, document.compare().changes, 2, nullptr,
                                    worker_threads(), &memory);
        // Nothing to draw (sentences of different lengths): the reason, not an empty figure.
        QString why;
        const int head = command.figure.view == FigureView::Head ? command.figure.head : -1;
        const CompareModel model =
            build_compare_model(*snapshot, *compared, command.figure.batch_item, head, &why,
                                command.figure.compare_b_head);
        if (model.empty()) throw UsageError(why.toStdString());
        if (command.compare_csv) return write_atomically(command.out, compare_csv(model));
    }
    export_figure(*snapshot, options, command.size, command.out, std::nullopt, compared.get());
}

// Qt's own notices (e.g. "XDG_RUNTIME_DIR not set" on a headless machine) are not the
// command's business: stderr carries exactly one message, and only on failure.
void quiet_message_handler(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtFatalMsg) {
        std::fprintf(stderr, "attnviz export: %s\n", message.toLocal8Bit().constData());
        std::abort();
    }
}

}  // namespace

void add_export_command(CLI::App& app, cli::CommandContext& ctx) {
    auto options = std::make_shared<ExportOptions>();
    CLI::App* sub = app.add_subcommand(
        "export",
        "Renders the same figure as the window (heatmaps, the computation steps, lines, a "
        "comparison) to PNG, SVG or PDF, without a display.  Configuration A is the window's "
        "controls; --view compare adds a configuration B.");
    sub->footer(
        "An option given twice takes the last value (--mask-key adds each).\n"
        "\n"
        "Examples:\n"
        "  attnviz export --text \"The cat sat on the mat\" --embed-dim 32 --num-heads 4 "
        "--causal --out cat.png\n"
        "  attnviz export --text \"The cat sat on the mat\" --view compare --compare causal "
        "--out causal.pdf\n"
        "  attnviz export --attentions ckpt1/A.npy --b-attentions ckpt2/A.npy --view compare "
        "--layer 2 --out ckpt.pdf\n"
        "  attnviz export --model resources/models/attn-only-2l --view patch --clean TEXT "
        "--corrupt TEXT --target T --distractor D --out patch.pdf\n"
        "  attnviz export --model resources/models/attn-only-2l --text "
        "\"q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Q\" --view predictions "
        "--ablate 2.4,2.5,2.8 --out knocked.pdf");
    // The groups in the order --help lists them.
    ExportOptions& a = *options;
    a.ExportInput::declare(*sub);
    a.ExportModel::declare(*sub);
    a.ExportLayer::declare(*sub);
    a.ExportMasks::declare(*sub);
    a.ExportFigure::declare(*sub);
    a.ExportComparison::declare(*sub);
    a.ExportPatching::declare(*sub);
    a.ExportCircuits::declare(*sub);
    a.ExportSaliency::declare(*sub);
    a.ExportFlow::declare(*sub);
    a.ExportWhy::declare(*sub);
    a.ExportCorpus::declare(*sub);
    a.ExportMemory::declare(*sub);
    // Scripts (and ui_compare_test) give a base command line and append to it: the last
    // --text wins, as it always has for export.
    cli::let_last_repeat_win(*sub);
    ctx.on_parsed(
        sub,
        [options] {
            render_export(*options);
            return 0;
        },
        [options] { options->ExportFigure::check_language(); });
}

void render_export(const ExportOptions& a) {
    a.ExportFigure::check_language();
    // Rendering needs a QApplication (QCustomPlot is a widget) but never a display: use the
    // offscreen platform unless the caller chose one explicitly.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    qInstallMessageHandler(quiet_message_handler);
    set_application_identity();
    char program[] = "attnviz";
    int qt_argc = 1;
    char* qt_argv[] = {program, nullptr};
    QApplication app(qt_argc, qt_argv);
    // Figures from the command line are English, the same on every machine, unless --lang
    // asks otherwise (the window's exports follow the interface language instead).
    install_translations(a.lang ? normalize_language(qstring(*a.lang))
                                : QString::fromLatin1(kEnglish));
    a.ExportFigure::check_effective(a);  // the views that return below draw no map
    // Before patching's, which refuses --target, --distractor and --position elsewhere.
    // Flow's first: any other view refuses --threshold and --per-head.
    if (a.ExportFlow::apply(a)) return;
    if (a.ExportDla::apply(a)) return;
    if (a.ExportSaliency::apply(a)) return;
    // Before Why's, which refuses --head elsewhere.
    if (a.ExportCorpus::apply(a)) return;
    if (a.ExportWhy::apply(a)) return;
    if (a.ExportPatching::apply(a)) return;
    if (a.ExportCircuits::apply(a)) return;
    AttentionDocument document;
    const ExportCommand command = apply_arguments(a, &document);
    run_export(command, document);
}

}  // namespace attnviz::ui
