#include "app/command_line.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "engine/errors.h"

namespace attnviz::cli {

namespace {

// Help pages fit a 100-column terminal: names and placeholders in the first 30.
constexpr std::size_t kHelpWidth = 100;
constexpr std::size_t kNameColumn = 30;

/// The shortest text that reads back as `v` (0.95, not 0.950000).
std::string format_real(double v) {
    std::array<char, 32> buf{};
    const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    return ec == std::errc() ? std::string(buf.data(), end) : std::to_string(v);
}

/// "help (details)", or just "help".
std::string described(const std::string& help, const std::string& details) {
    return details.empty() ? help : help + " (" + details + ")";
}

/// "a, b or c".
std::string list_of(const std::vector<std::string>& words, const char* last = " or ") {
    std::string out;
    for (std::size_t k = 0; k < words.size(); ++k)
        out += (k == 0 ? "" : k + 1 == words.size() ? last : ", ") + words[k];
    return out;
}

/// The first long name of `names` ("-o,--out" -> "--out"), for messages.
std::string option_name(const CLI::Option* opt) {
    return opt->get_name(false, false);
}

/// An option taking one value, handed to `assign` after the parse (once per occurrence);
/// `assign` throws CLI::ValidationError(name, problem) for a value it refuses.
CLI::Option* add_value(
    CLI::App& app, const std::string& names, const std::string& placeholder,
    const std::string& help,
    std::function<void(const std::string& name, const std::string& value)> assign) {
    auto name = std::make_shared<std::string>();
    CLI::Option* opt = app.add_option(
        names,
        [name, assign = std::move(assign)](const CLI::results_t& values) {
            for (const std::string& v : values)
                assign(*name, v);
            return true;
        },
        help);
    *name = option_name(opt);  // known once CLI11 has split `names`
    opt->option_text(placeholder);
    opt->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    return opt;
}

std::string integer_range(std::int64_t lo, std::int64_t hi) {
    return std::to_string(lo) + " to " + std::to_string(hi);
}

std::string real_range(double lo, double hi, UpperBound upper) {
    return "in [" + format_real(lo) + ", " + format_real(hi) +
           (upper == UpperBound::Excluded ? ")" : "]");
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1,
                               prev[j - 1] + static_cast<std::size_t>(a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

/// Word-wraps `text` to `width` columns, keeping its own line breaks and lines that start
/// with a space.
std::string wrap(const std::string& text, std::size_t width) {
    std::string out, line;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t nl = std::min(text.find('\n', start), text.size());
        const std::string paragraph = text.substr(start, nl - start);
        line.clear();
        if (!paragraph.empty() && paragraph[0] == ' ') {
            line = paragraph;  // laid out already (an indented table)
            out += line;
            if (nl == text.size()) break;
            out += "\n";
            start = nl + 1;
            continue;
        }
        std::size_t k = 0;
        while (k < paragraph.size()) {
            const std::size_t space = std::min(paragraph.find(' ', k), paragraph.size());
            const std::string word = paragraph.substr(k, space - k);
            if (!line.empty() && line.size() + 1 + word.size() > width) {
                out += line + "\n";
                line.clear();
            }
            line += (line.empty() ? "" : " ") + word;
            k = space + 1;
        }
        out += line;
        if (nl == text.size()) break;
        out += "\n";
        start = nl + 1;
    }
    return out;
}

class HelpFormatter final : public CLI::Formatter {
  public:
    HelpFormatter() { column_width(kNameColumn); }

    // The placeholder only: ranges, defaults and "required" are in the description, and
    // which options exclude each other is said in words where it matters.
    std::string make_option_opts(const CLI::Option* opt) const override {
        return opt->get_option_text().empty() ? std::string() : " " + opt->get_option_text();
    }

    std::string make_option_desc(const CLI::Option* opt) const override {
        return wrap(option_description(opt), kHelpWidth - kNameColumn);
    }

    std::string make_description(const CLI::App* app) const override {
        const std::string d = app->get_description();
        return d.empty() ? d : wrap(d, kHelpWidth) + "\n\n";
    }

    // In the list of subcommands, the first sentence of each description.
    std::string make_subcommand(const CLI::App* sub) const override {
        std::string d = sub->get_description();
        if (const auto stop = d.find(". "); stop != std::string::npos) d.resize(stop + 1);
        std::stringstream out;
        CLI::detail::format_help(out, sub->get_name(), wrap(d, kHelpWidth - kNameColumn),
                                 column_width_);
        return out.str();
    }

    std::string make_footer(const CLI::App* app) const override {
        const std::string f = app->get_footer();
        return f.empty() ? f : wrap(f, kHelpWidth) + "\n";
    }

    // One blank line before each group (CLI11 puts two between them, none after the usage).
    std::string make_group(std::string group, bool is_positional,
                           std::vector<const CLI::Option*> opts) const override {
        std::string out = group + ":\n";
        for (const CLI::Option* opt : opts)
            out += make_option(opt, is_positional);
        return out;
    }
    // A blank line after the positionals too, as after every group.
    std::string make_positionals(const CLI::App* app) const override {
        const std::string p = CLI::Formatter::make_positionals(app);
        return p.empty() ? p : p + "\n";
    }
    std::string make_usage(const CLI::App* app, std::string name) const override {
        return CLI::Formatter::make_usage(app, std::move(name)) + "\n";
    }
};

}  // namespace

// ---- CommandContext -------------------------------------------------------------------------

void CommandContext::on_parsed(CLI::App* command, std::function<int()> run,
                               std::function<void()> check) {
    handlers_[command] = CommandHandler{std::move(check), std::move(run)};
}

const CommandHandler* CommandContext::handler(const CLI::App* command) const {
    const auto it = handlers_.find(command);
    return it == handlers_.end() ? nullptr : &it->second;
}

// ---- Parsers --------------------------------------------------------------------------------

std::int64_t parse_integer(const std::string& option, const std::string& text, std::int64_t lo,
                           std::int64_t hi) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw CLI::ValidationError(option, "needs a whole number, got '" + text + "'");
    if (v < lo || v > hi)
        throw CLI::ValidationError(option, "must be between " + std::to_string(lo) + " and " +
                                               std::to_string(hi) + ", got " + text);
    return v;
}

double parse_real(const std::string& option, const std::string& text, double lo, double hi,
                  UpperBound upper) {
    double v = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
        throw CLI::ValidationError(option, "needs a number, got '" + text + "'");
    if (v < lo || v > hi || (upper == UpperBound::Excluded && v == hi))
        throw CLI::ValidationError(option,
                                   "must be " + real_range(lo, hi, upper) + ", got " + text);
    return v;
}

// ---- Options --------------------------------------------------------------------------------

CLI::Option* add_text(CLI::App& app, const std::string& names, std::string* out,
                      const std::string& placeholder, const std::string& help) {
    return add_value(app, names, placeholder, help,
                     [out](const std::string&, const std::string& v) { *out = v; });
}

CLI::Option* add_text(CLI::App& app, const std::string& names, std::optional<std::string>* out,
                      const std::string& placeholder, const std::string& help) {
    return add_value(app, names, placeholder, help,
                     [out](const std::string&, const std::string& v) { *out = v; });
}

CLI::Option* add_flag(CLI::App& app, const std::string& names, bool* out, const std::string& help) {
    CLI::Option* opt = app.add_flag(names, *out, help);
    opt->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    opt->disable_flag_override();
    return opt;
}

CLI::Option* add_integer(CLI::App& app, const std::string& names, std::int64_t* out,
                         std::int64_t lo, std::int64_t hi, const std::string& placeholder,
                         const std::string& help) {
    return add_value(app, names, placeholder,
                     described(help, integer_range(lo, hi) + ", default " + std::to_string(*out)),
                     [=](const std::string& name, const std::string& v) {
                         *out = parse_integer(name, v, lo, hi);
                     });
}

CLI::Option* add_integer(CLI::App& app, const std::string& names, std::optional<std::int64_t>* out,
                         std::int64_t lo, std::int64_t hi, const std::string& placeholder,
                         const std::string& help) {
    return add_value(app, names, placeholder, described(help, integer_range(lo, hi)),
                     [=](const std::string& name, const std::string& v) {
                         *out = parse_integer(name, v, lo, hi);
                     });
}

CLI::Option* add_integer(CLI::App& app, const std::string& names, int* out, int lo, int hi,
                         const std::string& placeholder, const std::string& help) {
    return add_value(app, names, placeholder,
                     described(help, integer_range(lo, hi) + ", default " + std::to_string(*out)),
                     [=](const std::string& name, const std::string& v) {
                         *out = static_cast<int>(parse_integer(name, v, lo, hi));
                     });
}

CLI::Option* add_integer(CLI::App& app, const std::string& names, std::optional<int>* out, int lo,
                         int hi, const std::string& placeholder, const std::string& help) {
    return add_value(app, names, placeholder, described(help, integer_range(lo, hi)),
                     [=](const std::string& name, const std::string& v) {
                         *out = static_cast<int>(parse_integer(name, v, lo, hi));
                     });
}

CLI::Option* add_repeated_integer(CLI::App& app, const std::string& names, std::vector<int>* out,
                                  int lo, int hi, const std::string& placeholder,
                                  const std::string& help) {
    CLI::Option* opt =
        add_value(app, names, placeholder, described(help, integer_range(lo, hi) + "; repeatable"),
                  [=](const std::string& name, const std::string& v) {
                      out->push_back(static_cast<int>(parse_integer(name, v, lo, hi)));
                  });
    // One value per occurrence, every occurrence kept.
    opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    return opt;
}

CLI::Option* add_real(CLI::App& app, const std::string& names, double* out, double lo, double hi,
                      UpperBound upper, const std::string& placeholder, const std::string& help) {
    return add_value(app, names, placeholder,
                     described(help, real_range(lo, hi, upper) + ", default " + format_real(*out)),
                     [=](const std::string& name, const std::string& v) {
                         *out = parse_real(name, v, lo, hi, upper);
                     });
}

CLI::Option* add_real(CLI::App& app, const std::string& names, std::optional<double>* out,
                      double lo, double hi, UpperBound upper, const std::string& placeholder,
                      const std::string& help) {
    return add_value(app, names, placeholder, described(help, real_range(lo, hi, upper)),
                     [=](const std::string& name, const std::string& v) {
                         *out = parse_real(name, v, lo, hi, upper);
                     });
}

namespace {
std::string lowercase(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

template <class Target>
CLI::Option* add_choice_to(CLI::App& app, const std::string& names, Target* out,
                           const std::vector<std::string>& choices, const std::string& help,
                           const std::vector<std::string>& aliases, LetterCase letters,
                           const std::string& fallback) {
    std::string placeholder;
    for (const std::string& c : choices)
        placeholder += (placeholder.empty() ? "" : "|") + c;
    return add_value(
        app, names, placeholder, described(help, fallback.empty() ? "" : "default " + fallback),
        [=](const std::string& name, const std::string& v) {
            const auto same = [&](const std::string& word) {
                return letters == LetterCase::Exact ? word == v : lowercase(word) == lowercase(v);
            };
            if (std::none_of(choices.begin(), choices.end(), same) &&
                std::none_of(aliases.begin(), aliases.end(), same))
                throw CLI::ValidationError(name,
                                           "must be " + list_of(choices) + ", not '" + v + "'");
            *out = v;
        });
}
}  // namespace

CLI::Option* add_choice(CLI::App& app, const std::string& names, std::string* out,
                        const std::vector<std::string>& choices, const std::string& help,
                        const std::vector<std::string>& aliases, LetterCase letters) {
    return add_choice_to(app, names, out, choices, help, aliases, letters, *out);
}

CLI::Option* add_choice(CLI::App& app, const std::string& names, std::optional<std::string>* out,
                        const std::vector<std::string>& choices, const std::string& help,
                        const std::vector<std::string>& aliases, LetterCase letters) {
    return add_choice_to(app, names, out, choices, help, aliases, letters, "");
}

CLI::Option* add_switch(CLI::App& app, const std::string& names, std::optional<bool>* out,
                        const std::string& help) {
    return add_value(
        app, names, "on|off", help, [out](const std::string& name, const std::string& value) {
            const std::string v = lowercase(value);
            if (v == "on" || v == "true" || v == "yes" || v == "1")
                *out = true;
            else if (v == "off" || v == "false" || v == "no" || v == "0")
                *out = false;
            else
                throw CLI::ValidationError(name, "needs on or off, not '" + value + "'");
        });
}

void let_last_repeat_win(CLI::App& command) {
    for (CLI::Option* opt : command.get_options())
        if (opt->get_multi_option_policy() == CLI::MultiOptionPolicy::Throw)
            opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

// ---- Shared option groups -------------------------------------------------------------------

void add_threads_option(CLI::App& app, int* threads) {
    add_integer(app, "--threads", threads, 1, 256, "T", "CPU threads for the computation")
        ->group("Performance");
}

void add_seed_options(CLI::App& app, SeedOptions* seeds, std::int64_t max_seed, SeedUse use) {
    std::string what;
    if (use.weights && use.dropout)
        what =
            "seed of everything random: the weights (when not read from a file) and the "
            "dropout mask, unless --dropout-seed";
    else if (use.weights)
        what = "seed of everything random: the weights this command makes up";
    else
        what =
            "seed of everything random: the dropout mask (the weights are read from a file), "
            "unless --dropout-seed";
    add_integer(app, "--seed", &seeds->seed, 0, max_seed, "S", what)->group("Seeds");
    if (use.dropout)
        add_integer(app, "--dropout-seed", &seeds->dropout_seed, 0, max_seed, "D",
                    "the dropout mask's own seed; default: --seed")
            ->group("Seeds");
}

namespace {
constexpr const char* kMemoryGroup = "Memory budget";

std::pair<std::int64_t, std::int64_t> parse_window(const std::string& name, const std::string& w) {
    const auto parse = [](std::string_view text, std::int64_t* out) {
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
        return ec == std::errc() && end == text.data() + text.size() && !text.empty();
    };
    const auto colon = w.find(':');
    std::int64_t start = -1, length = -1;
    if (colon == std::string::npos || !parse(std::string_view(w).substr(0, colon), &start) ||
        !parse(std::string_view(w).substr(colon + 1), &length) || start < 1 || length < 1)
        throw CLI::ValidationError(name,
                                   "needs START:LEN, a first token (from 1) and a length, "
                                   "e.g. 1:512, not '" +
                                       w + "'");
    return {start - 1, length};  // positions count from 1 for the user, from 0 inside
}
}  // namespace

budget::MemoryBudget MemoryOptions::budget() const {
    try {
        return budget::resolve_memory_budget(memory_budget, "");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

budget::ResultScope MemoryOptions::scope() const {
    budget::ResultScope s;
    if (heads_shown) s.heads_shown = *heads_shown;
    if (mean_only) s.heads_shown = 0;
    if (window) {
        s.window_start = window->first;
        s.window_length = window->second;
    }
    return s;
}

void add_memory_budget_option(CLI::App& app, MemoryOptions* memory) {
    add_value(app, "--memory-budget", "SIZE",
              std::string("refuse (exit 1, naming what fits) a computation that needs more: "
                          "2G, 512M, 1.5GiB, 60% of memory (at least 1 MiB); default: ") +
                  budget::kBudgetEnvironmentVariable +
                  ", else half of the machine's memory (or of its cgroup limit)",
              [memory](const std::string& name, const std::string& v) {
                  // Checked now, so a bad size is a usage error before any file is read.
                  if (v.find_first_not_of(" \t") != std::string::npos) {
                      try {
                          (void)budget::parse_memory_size(v, budget::usable_memory_bytes());
                      } catch (const std::invalid_argument& e) {
                          throw CLI::ValidationError(name, e.what());
                      }
                  }
                  memory->memory_budget = v;
              })
        ->group(kMemoryGroup);
}

void add_memory_options(CLI::App& app, MemoryOptions* memory, int max_heads) {
    add_memory_budget_option(app, memory);
    CLI::Option* heads = add_integer(app, "--heads-shown", &memory->heads_shown, 1, max_heads, "K",
                                     "per-head weights of the first K heads only; the mean "
                                     "still covers every head");
    CLI::Option* mean = add_flag(app, "--mean-only", &memory->mean_only,
                                 "the mean over heads only, no per-head weights");
    heads->excludes(mean);
    CLI::Option* window = add_value(
        app, "--window", "START:LEN",
        "query rows and key columns START..START+LEN-1 (from 1) of the full attention: the "
        "softmax still runs over every key, so a row's kept weights may sum to less than 1",
        [memory](const std::string& name, const std::string& v) {
            memory->window = parse_window(name, v);
        });
    for (CLI::Option* o : {heads, mean, window})
        o->group(kMemoryGroup);
}

std::string memory_options_help() {
    CLI::App sample;
    MemoryOptions memory;
    add_memory_options(sample, &memory, 64);
    const auto formatter = make_help_formatter();
    std::string out;
    for (const CLI::Option* opt : sample.get_options())
        if (opt->get_group() == kMemoryGroup) out += formatter->make_option(opt, false);
    return out;
}

// ---- Help and messages ----------------------------------------------------------------------

std::string option_description(const CLI::Option* opt) {
    const std::string d = opt->get_description();
    if (!opt->get_required()) return d;
    return d.ends_with(')') ? d.substr(0, d.size() - 1) + "; required)" : d + " (required)";
}

std::shared_ptr<CLI::Formatter> make_help_formatter() {
    return std::make_shared<HelpFormatter>();
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best_word;
    std::size_t best = 3;
    for (const std::string& c : candidates) {
        const std::size_t d = edit_distance(word, c);
        if (d < best) best = d, best_word = c;
    }
    return best_word;
}

namespace {
/// The subcommand being parsed, or nullptr at the root.
const CLI::App* selected(const CLI::App& root) {
    const auto subs = root.get_subcommands();
    return subs.empty() ? nullptr : subs.front();
}

std::string unexpected(const std::vector<std::string>& rest, const CLI::App& root,
                       const CLI::App* sub) {
    const std::string first = rest.empty() ? std::string() : rest.front();
    if (!sub && !first.empty() && first[0] != '-') {
        std::vector<std::string> names;
        for (const CLI::App* s : root.get_subcommands({}))
            names.push_back(s->get_name());
        std::sort(names.begin(), names.end());
        const std::string near = nearest(first, names);
        return "unknown command '" + first + "' (" +
               (near.empty() ? "expected " + list_of(names) : "did you mean " + near + "?") + ")";
    }
    if (first.size() > 1 && first[0] == '-') {
        const std::string name = first.substr(0, first.find('='));
        std::vector<std::string> names;
        for (const CLI::Option* opt : (sub ? sub : &root)->get_options())
            if (!opt->get_group().empty())  // hidden options are suggested to nobody
                for (const std::string& l : opt->get_lnames())
                    names.push_back("--" + l);
        const std::string near = nearest(name, names);
        return "unknown option " + name + (near.empty() ? "" : " (did you mean " + near + "?)");
    }
    return "unexpected argument '" + first + "' (options start with --)";
}

/// "name: rest" -> {name, rest}.
std::pair<std::string, std::string> split_name(const std::string& what) {
    const auto colon = what.find(": ");
    if (colon == std::string::npos) return {std::string(), what};
    return {what.substr(0, colon), what.substr(colon + 2)};
}

std::string dashed(std::string name) {
    if (!name.empty() && name[0] != '-') name = (name.size() == 1 ? "-" : "--") + name;
    return name;
}
}  // namespace

std::string describe_parse_error(const CLI::ParseError& error, const CLI::App& root) {
    const std::string what = error.what();
    const CLI::App* sub = selected(root);
    // An unknown option or a stray argument comes first, whatever CLI11 checked before it
    // (it checks required options and values first): the rest may be its consequence.
    if (sub && !sub->remaining().empty()) return unexpected(sub->remaining(), root, sub);
    if (!root.remaining().empty()) return unexpected(root.remaining(), root, nullptr);
    if (dynamic_cast<const CLI::ValidationError*>(&error)) {
        // Our parsers' problems read "NAME problem" ("--threads must be between 1 and 256").
        const auto [name, problem] = split_name(what);
        return name.empty() ? what : name + " " + problem;
    }
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&error)) {
        const auto [name, problem] = split_name(what);
        if (what.ends_with(" missing")) return name + " needs a value";
        if (problem.starts_with("At Most")) return name + " is given twice";
        if (const auto p = what.find(" was given a disallowed flag override");
            p != std::string::npos)
            return dashed(what.substr(0, p)) + " takes no value";
        return what;
    }
    if (dynamic_cast<const CLI::ExcludesError*>(&error)) {
        const auto p = what.find(" excludes ");
        if (p != std::string::npos)
            return "use either " + what.substr(0, p) + " or " + what.substr(p + 10) + ", not both";
    }
    if (dynamic_cast<const CLI::RequiresError*>(&error)) {
        const auto p = what.find(" requires ");
        if (p != std::string::npos) return what.substr(0, p) + " needs " + what.substr(p + 10);
    }
    return what;
}

}  // namespace attnviz::cli
