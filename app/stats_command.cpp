// `attnviz stats`: what every layer × head of a model does over a long text (8,192 tokens and
// more), from the statistics pass: no map is kept, so memory does not grow with L².
#include <memory>
#include <optional>
#include <string>

#include "app/commands.h"
#include "app/model_commands.h"
#include "engine/errors.h"
#include "engine/io/file_util.h"

namespace attnviz::cli {

namespace {

struct StatsOptions {
    std::string folder;
    std::optional<std::string> text, text_file;
    std::string out_json, out_npy, out_first, out_csv, map, out_map;
    MemoryOptions memory;
    int threads = 1;
};

int stats(const StatsOptions& o) {
    if (o.text.has_value() == o.text_file.has_value())
        throw UsageError("give the text with --text or --text-file (one of them)");
    StatsRequest r;
    r.folder = o.folder;
    r.text = o.text ? *o.text : io::read_file(*o.text_file);
    r.budget = o.memory.budget();
    r.threads = o.threads;
    r.out_json = o.out_json;
    r.out_npy = o.out_npy;
    r.out_first = o.out_first;
    r.out_csv = o.out_csv;
    r.map = o.map;
    r.out_map = o.out_map;
    stats_with_model(r);
    return 0;
}

}  // namespace

void add_stats_command(CLI::App& app, CommandContext& ctx) {
    auto o = std::make_shared<StatsOptions>();
    CLI::App* sub = app.add_subcommand(
        "stats",
        "What every layer x head of a model does over a whole text, however long: entropy, "
        "mean distance, attention to the first token, to itself and to the previous token, "
        "the attention each position receives and each query puts on the first token. No map "
        "is kept, so memory does not grow with the square of the length.");
    sub->footer(
        "Example:\n  attnviz stats --model DIR --text-file book.txt --out-json s.json "
        "--out-npy received.npy");
    add_text(*sub, "--model", &o->folder, "DIR|FILE.gguf", "a Hugging Face model folder or GGUF")
        ->required();
    add_text(*sub, "--text", &o->text, "TEXT", "the text (UTF-8)");
    add_text(*sub, "--text-file", &o->text_file, "F", "the text from a UTF-8 file");
    add_text(*sub, "--out-json", &o->out_json, "S.json",
             "tokens; per head (layer, head from 1) the measures, labels, received and "
             "first_token curves");
    add_text(*sub, "--out-npy", &o->out_npy, "R.npy",
             "float32 [layers, heads, L]: the attention each position receives, averaged over "
             "the queries that see it");
    add_text(*sub, "--out-first", &o->out_first, "F.npy",
             "float32 [layers, heads, L]: each query's attention on the first token");
    add_text(*sub, "--out-csv", &o->out_csv, "S.csv", "the head atlas's CSV: one line per head");
    add_text(*sub, "--map", &o->map, "L.H",
             "one head (layer.head, from 1) whose full map is recomputed after the pass");
    add_text(*sub, "--out-map", &o->out_map, "M.npy", "float32 [L, L]: that head's map");
    add_memory_budget_option(*sub, &o->memory);
    add_integer(*sub, "--threads", &o->threads, 1, 1024, "T", "threads of the pass");
    ctx.on_parsed(sub, [o] { return stats(*o); });
}

}  // namespace attnviz::cli
