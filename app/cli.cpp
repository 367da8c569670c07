#include "app/cli.h"

#include <cstdio>
#include <functional>
#include <new>
#include <stdexcept>

#include "app/commands.h"
#include "engine/errors.h"
#include "engine/kernels/gemm.h"
#include "engine/kernels/softmax.h"

#ifndef ATTNVIZ_VERSION
#define ATTNVIZ_VERSION "0.1.0"
#endif

namespace attnviz::cli {

namespace {

/// The subcommands of app/, in the order the help lists them.
constexpr AddCommand kCommands[] = {add_attend_command,  add_tokenize_command, add_inspect_command,
                                    add_bench_command,   add_predict_command,  add_patch_command,
                                    add_generate_command};

const CLI::App* selected(const CLI::App& root) {
    const auto subs = root.get_subcommands();
    return subs.empty() ? nullptr : subs.front();
}

const CLI::App* find_subcommand(const CLI::App& root, const std::string& name) {
    for (const CLI::App* sub : root.get_subcommands({}))
        if (sub->get_name() == name) return sub;
    return nullptr;
}

std::string prefix(const std::string& command) {
    return command.empty() ? "attnviz: " : "attnviz " + command + ": ";
}

/// One line: the prefix, the message with any line breaks flattened, for usage errors the
/// page that explains.
std::string error_line(const std::string& command, std::string message, bool usage) {
    for (char& c : message)
        if (c == '\n' || c == '\r') c = ' ';
    if (message.empty()) message = "failed";
    if (usage && message.find("--help") == std::string::npos)
        message += " (see attnviz " + (command.empty() ? "" : command + " ") + "--help)";
    return prefix(command) + message + "\n";
}

/// The arguments as CLI11 should see them.  `help [SUBCOMMAND]` is `[SUBCOMMAND] --help`.
/// "--name=" with nothing after the '=' is an empty value, as "--name ''" is (CLI11 would
/// take the next argument instead); a value that merely looks so is left alone.
std::vector<std::string> normalize(std::vector<std::string> args, const CLI::App& root) {
    if (!args.empty() && args.front() == "help") {
        args.erase(args.begin());
        args.push_back("--help");
    }
    const CLI::App* sub = args.empty() ? nullptr : find_subcommand(root, args.front());
    if (!sub) return args;
    std::vector<std::string> out{args.front()};
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto eq = a.find('=');
        const std::string name = a.substr(0, eq);
        const CLI::Option* opt =
            a.size() > 1 && a[0] == '-' ? sub->get_option_no_throw(name) : nullptr;
        const bool takes_value = opt && opt->get_items_expected_max() != 0;
        if (takes_value && eq == std::string::npos) {
            out.push_back(a);
            if (i + 1 < args.size()) out.push_back(args[++i]);  // its value, whatever it is
        } else if (takes_value && eq + 1 == a.size()) {
            out.push_back(name);
            out.emplace_back();
        } else {
            out.push_back(a);
        }
    }
    return out;
}

/// The options of `sub` as given, canonically: declaration order, first long name, each
/// value as a separate argument.
std::vector<std::string> canonical_arguments(const CLI::App& sub) {
    std::vector<std::string> out{sub.get_name()};
    for (const CLI::Option* opt : sub.get_options()) {
        if (opt == sub.get_help_ptr() || opt->count() == 0) continue;
        const std::string name = opt->get_name(false, false);
        if (opt->get_items_expected_max() == 0) {  // a flag
            out.push_back(name);
            continue;
        }
        for (const std::string& v : opt->results()) {
            out.push_back(name);
            out.push_back(v);
        }
    }
    return out;
}

bool help_asked(const CLI::App& app) {
    if (const CLI::Option* h = app.get_help_ptr(); h && h->count() > 0) return true;
    const CLI::App* sub = selected(app);
    return sub && help_asked(*sub);
}

std::vector<std::string> subcommand_names(const CLI::App& root) {
    std::vector<std::string> names;
    for (const CLI::App* sub : root.get_subcommands({}))
        names.push_back(sub->get_name());
    return names;
}

struct CommandLine {
    CommandContext ctx;
    std::unique_ptr<CLI::App> root;
};

ParsedCommandLine parse(CommandLine& line, const std::vector<std::string>& given) {
    CLI::App& root = *line.root;
    ParsedCommandLine p;
    std::vector<std::string> args = normalize(given, root);
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11's order
    const auto command = [&] {
        const CLI::App* sub = selected(root);
        return sub ? sub->get_name() : std::string();
    };
    const auto help = [&] {
        p.kind = ParsedCommandLine::Kind::Help;
        p.status = 0;
        p.command = command();
        p.output = root.help();
        return p;
    };
    try {
        root.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        return help();
    } catch (const CLI::CallForAllHelp&) {
        return help();
    } catch (const CLI::CallForVersion& e) {
        p.kind = ParsedCommandLine::Kind::Version;
        p.status = 0;
        p.output = std::string(e.what()) + "\n";
        return p;
    } catch (const CLI::ParseError& e) {
        // --help wins over a problem with the other options.
        if (help_asked(root)) return help();
        p.command = command();
        p.output = error_line(p.command, describe_parse_error(e, root), true);
        return p;
    }
    p.command = command();
    const CLI::App* sub = selected(root);
    if (!sub) {
        std::string names;
        for (const std::string& n : subcommand_names(root))
            names += (names.empty() ? "" : ", ") + n;
        p.output = error_line("", "give a subcommand: " + names, true);
        return p;
    }
    const CommandHandler* handler = line.ctx.handler(sub);
    if (!handler || !handler->run)
        throw std::logic_error("attnviz " + p.command + " registered no handler");
    if (handler->check) {
        try {
            handler->check();
        } catch (const UsageError& e) {
            p.output = error_line(p.command, e.what(), true);
            return p;
        }
    }
    p.kind = ParsedCommandLine::Kind::Command;
    p.status = 0;
    p.canonical = canonical_arguments(*sub);
    return p;
}

CommandLine make(std::span<const AddCommand> extensions) {
    CommandLine line;
    line.root = make_command_line(line.ctx, extensions);
    return line;
}

}  // namespace

std::unique_ptr<CLI::App> make_command_line(CommandContext& ctx,
                                            std::span<const AddCommand> extensions) {
    auto root = std::make_unique<CLI::App>(
        "attnviz: multi-head attention, heatmap by heatmap.  With no argument it opens the "
        "desktop app (attnviz FILE.attnviz opens a session); the subcommands below run "
        "without a display.  Options use PyTorch's names.",
        "attnviz");
    // Set before the subcommands are added: they inherit the formatter and the help flag.
    root->formatter(make_help_formatter());
    root->set_help_flag("-h,--help", "print this help and exit");
    // The version, and what the products and the softmax run on here: a bug report or a
    // benchmark says which machine path it came from.
    root->set_version_flag(
        "--version", std::function<std::string()>([] {
            return std::string("attnviz ") + ATTNVIZ_VERSION + "\nmatrix products: " +
                   kernels::gemm_backend_description(kernels::gemm_backend()) +
                   "\nsoftmax: " + kernels::isa_name(kernels::best_isa());
        }),
        "print the version, the matrix-product backend and the SIMD path, and exit");
    root->require_subcommand(0, 1);
    root->footer(
        "Run attnviz SUBCOMMAND --help for its options.\n"
        "\n"
        "Exit status: 0 success, 1 data error (a file that is missing, broken or lies about "
        "its sizes, shapes that do not fit, an unwritable output, a computation over the "
        "memory budget), 2 usage error.  On failure one line on stderr names the problem.\n"
        "\n"
        "Memory: a computation that needs more than the memory budget is refused before "
        "anything is allocated (exit 1), naming what fits instead.  attend and export keep "
        "less of the result when asked, each a slice of the full one:\n" +
        memory_options_help());
    for (const AddCommand add : kCommands)
        add(*root, ctx);
    for (const AddCommand add : extensions)
        add(*root, ctx);
    return root;
}

ParsedCommandLine parse_command_line(const std::vector<std::string>& args,
                                     std::span<const AddCommand> extensions) {
    CommandLine line = make(extensions);
    return parse(line, args);
}

bool is_subcommand(const std::string& word, std::span<const AddCommand> extensions) {
    if (word == "help" || word == "--help" || word == "-h" || word == "--version") return true;
    CommandContext ctx;
    const auto root = make_command_line(ctx, extensions);
    return find_subcommand(*root, word) != nullptr;
}

int run(const std::vector<std::string>& args, std::span<const AddCommand> extensions) {
    CommandLine line = make(extensions);
    const ParsedCommandLine p = parse(line, args);
    if (p.kind != ParsedCommandLine::Kind::Command) {
        std::fputs(p.output.c_str(), p.kind == ParsedCommandLine::Kind::Error ? stderr : stdout);
        return p.status;
    }
    std::string failure;
    int status = 1;
    try {
        return line.ctx.handler(selected(*line.root))->run();
    } catch (const UsageError& e) {
        failure = error_line(p.command, e.what(), true);
        status = 2;
    } catch (const CLI::ParseError& e) {  // a handler parsing a value of its own
        failure = error_line(p.command, describe_parse_error(e, *line.root), true);
        status = 2;
    } catch (const std::bad_alloc&) {
        failure = error_line(p.command, "out of memory", false);
    } catch (const std::exception& e) {  // DataError, std::invalid_argument, ...
        failure = error_line(p.command, e.what(), false);
    }
    std::fputs(failure.c_str(), stderr);
    return status;
}

}  // namespace attnviz::cli
