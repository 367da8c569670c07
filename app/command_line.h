// The building blocks of attnviz's command line, on CLI11: typed options whose problems are
// one-line usage errors in the project's words, the option groups several subcommands share
// (memory budget, threads, seeds), and the context a subcommand registers its work in.
// Qt-free: app/cli.cpp builds the tree from these and the app/*_command.cpp subcommands.
//
// A subcommand is one function, e.g.
//
//   void add_inspect_command(CLI::App& app, CommandContext& ctx) {
//       auto o = std::make_shared<InspectOptions>();
//       CLI::App* sub = app.add_subcommand("inspect", "One model folder, as JSON");
//       add_text(*sub, "--model", &o->folder, "DIR", "a Hugging Face model folder")->required();
//       ctx.on_parsed(sub, [o] { inspect_model(o->folder, std::cout); return 0; });
//   }
//
// Options are parsed into plain values (no conversion is left for later); rules between
// options that need no file go into the `check` of on_parsed, so a parse without running
// (the fuzzer, parse_command_line) applies them too.  Errors are thrown: CLI::ParseError
// or attnviz::UsageError (exit 2), DataError or std::invalid_argument (exit 1).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/budget/memory_budget.h"

namespace attnviz::cli {

/// What a subcommand does once its options are parsed.
struct CommandHandler {
    /// Rules between options that read no file; throws UsageError.  May be empty.
    std::function<void()> check;
    /// The command; returns the exit status (0), throws on failure.
    std::function<int()> run;
};

/// Shared by every add_*_command of one command line.
class CommandContext {
  public:
    /// Registers what `command` (a subcommand of the tree) does when it is the one given.
    void on_parsed(CLI::App* command, std::function<int()> run, std::function<void()> check = {});
    /// The handler of `command`; nullptr if it registered none.
    const CommandHandler* handler(const CLI::App* command) const;

  private:
    std::map<const CLI::App*, CommandHandler> handlers_;
};

/// Adds one subcommand (with its options and handler) to the tree.
using AddCommand = void (*)(CLI::App& app, CommandContext& ctx);

// ---- Options --------------------------------------------------------------------------------
// `names` is CLI11's "--name" or "-n,--name"; `placeholder` stands for the value in the help
// ("FILE", "K"); `help` says what it is.  The help adds the range, the choices and the
// default (the target's value at declaration, for non-optional targets).  Every option may
// be given once: a repeated option is a usage error (except add_repeated_integer).

/// A string, taken as given (it may be empty or start with '-').
CLI::Option* add_text(CLI::App& app, const std::string& names, std::string* out,
                      const std::string& placeholder, const std::string& help);
CLI::Option* add_text(CLI::App& app, const std::string& names, std::optional<std::string>* out,
                      const std::string& placeholder, const std::string& help);

/// A flag: present or not; "--flag=value" is a usage error.
CLI::Option* add_flag(CLI::App& app, const std::string& names, bool* out, const std::string& help);

/// A whole number (decimal digits with an optional '-') in [lo, hi].
CLI::Option* add_integer(CLI::App& app, const std::string& names, std::int64_t* out,
                         std::int64_t lo, std::int64_t hi, const std::string& placeholder,
                         const std::string& help);
CLI::Option* add_integer(CLI::App& app, const std::string& names, std::optional<std::int64_t>* out,
                         std::int64_t lo, std::int64_t hi, const std::string& placeholder,
                         const std::string& help);
CLI::Option* add_integer(CLI::App& app, const std::string& names, int* out, int lo, int hi,
                         const std::string& placeholder, const std::string& help);
CLI::Option* add_integer(CLI::App& app, const std::string& names, std::optional<int>* out, int lo,
                         int hi, const std::string& placeholder, const std::string& help);

/// A whole number that may be given several times ("--mask-key 1 --mask-key 3").
CLI::Option* add_repeated_integer(CLI::App& app, const std::string& names, std::vector<int>* out,
                                  int lo, int hi, const std::string& placeholder,
                                  const std::string& help);

/// Whether a real range includes its upper end.
enum class UpperBound { Included, Excluded };

/// A finite number in [lo, hi] (or [lo, hi) when `upper` is Excluded).
CLI::Option* add_real(CLI::App& app, const std::string& names, double* out, double lo, double hi,
                      UpperBound upper, const std::string& placeholder, const std::string& help);
CLI::Option* add_real(CLI::App& app, const std::string& names, std::optional<double>* out,
                      double lo, double hi, UpperBound upper, const std::string& placeholder,
                      const std::string& help);

/// Whether a choice's letters must match exactly or in any case.
enum class LetterCase { Exact, Any };

/// One of `choices` (shown in the help and in the error), or one of `aliases` (accepted
/// silently, e.g. an old spelling).  *out keeps the word as given.
CLI::Option* add_choice(CLI::App& app, const std::string& names, std::string* out,
                        const std::vector<std::string>& choices, const std::string& help,
                        const std::vector<std::string>& aliases = {},
                        LetterCase letters = LetterCase::Exact);
CLI::Option* add_choice(CLI::App& app, const std::string& names, std::optional<std::string>* out,
                        const std::vector<std::string>& choices, const std::string& help,
                        const std::vector<std::string>& aliases = {},
                        LetterCase letters = LetterCase::Exact);

/// on|off (also true/false, yes/no, 1/0, in any case).
CLI::Option* add_switch(CLI::App& app, const std::string& names, std::optional<bool>* out,
                        const std::string& help);

/// Parsers behind the options, for values that arrive some other way: each throws
/// CLI::ValidationError(option, problem) with the sentences the options use.
std::int64_t parse_integer(const std::string& option, const std::string& text, std::int64_t lo,
                           std::int64_t hi);
double parse_real(const std::string& option, const std::string& text, double lo, double hi,
                  UpperBound upper);

/// For a subcommand whose scripts repeat options: from now on the last of a repeated option
/// wins instead of being a usage error (repeatable options keep every value).  `export` has
/// always worked so.
void let_last_repeat_win(CLI::App& command);

// ---- Shared option groups -------------------------------------------------------------------

/// --threads T: the engine's worker threads.
void add_threads_option(CLI::App& app, int* threads);

/// The seeds.  One meaning everywhere: --seed S seeds everything random in a run (the
/// weights a command makes up, and the dropout mask), --dropout-seed D gives the dropout
/// mask a seed of its own.
struct SeedOptions {
    std::int64_t seed = 0;
    std::optional<std::int64_t> dropout_seed;
    std::int64_t dropout() const { return dropout_seed.value_or(seed); }
};
/// What is random in a subcommand, for the help: the weights it makes up, its dropout mask.
struct SeedUse {
    bool weights = true;
    bool dropout = true;
};
/// --seed, and --dropout-seed when `use.dropout`; both in [0, max_seed].
void add_seed_options(CLI::App& app, SeedOptions* seeds, std::int64_t max_seed, SeedUse use);

/// The memory budget and what to keep of a result (README "Limits").
struct MemoryOptions {
    std::string memory_budget;  ///< --memory-budget SIZE as given; "" for the default
    std::optional<int> heads_shown;
    bool mean_only = false;
    std::optional<std::pair<std::int64_t, std::int64_t>> window;  ///< START, LEN

    /// --memory-budget, else ATTNVIZ_MEMORY_BUDGET, else the default (never the window's
    /// setting: a script behaves the same everywhere).  UsageError for a bad variable.
    budget::MemoryBudget budget() const;
    /// --heads-shown / --mean-only / --window as a ResultScope.
    budget::ResultScope scope() const;
};
/// Only --memory-budget SIZE (commands that keep no per-head results).
void add_memory_budget_option(CLI::App& app, MemoryOptions* memory);
/// --memory-budget, --heads-shown K (1..max_heads), --mean-only, --window START:LEN.
void add_memory_options(CLI::App& app, MemoryOptions* memory, int max_heads);

/// The help text of the memory options, as `attnviz --help` shows it.
std::string memory_options_help();

// ---- Help and messages ----------------------------------------------------------------------

/// The formatter of every help page: options grouped, each with its placeholder, and the
/// description (with range and default) wrapped beside it.
std::shared_ptr<CLI::Formatter> make_help_formatter();

/// An option's description as the help shows it: with its range and default, and marked
/// required when it is (the man page says the same, app/cli_docs.cpp).
std::string option_description(const CLI::Option* opt);

/// One line for a CLI11 parse error of `app` (the root; the subcommand being parsed, if any,
/// is found in it), in the project's words: "unknown option --bogus (did you mean
/// --causal?)", "--threads needs a value", "--seed is given twice", ...
std::string describe_parse_error(const CLI::ParseError& error, const CLI::App& app);

/// The closest of `candidates` to `word` (edit distance below 3), or "".
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace attnviz::cli
