#include "app/cli.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>

#include "app/cli_docs.h"
#include "app/commands.h"
#include "engine/errors.h"
#include "engine/io/attention_arrays.h"
#include "engine/kernels/gemm.h"
#include "engine/kernels/softmax.h"

#ifndef ATTNVIZ_VERSION
#define ATTNVIZ_VERSION "0.1.0"
#endif

namespace attnviz::cli {

namespace {

/// The subcommands of app/, in the order the help lists them.
constexpr AddCommand kCommands[] = {
    add_attend_command,    add_tokenize_command, add_inspect_command,  add_bench_command,
    add_predict_command,   add_patch_command,    add_generate_command, add_stats_command,
    add_corpus_command,    add_attribute_command, add_qk_command,      add_circuits_command,
    add_flow_command};

constexpr const char* kGuiGroup = "Desktop app";
constexpr const char* kQtGroup = "Qt options (one dash, as Qt spells them, or two)";

/// Qt's own command-line options, which QApplication reads from argv (Qt 6's QApplication
/// and QGuiApplication documentation; the X11 ones from its xcb platform).  Declared so
/// that they are known, not guessed, and so that the help, the man page and the completion
/// list them.
struct QtOption {
    const char* name;
    const char* placeholder;  ///< nullptr for a flag
    const char* help;
    bool joined = false;  ///< Qt reads the value only as -name=VALUE
};
constexpr QtOption kQtOptions[] = {
    {"platform", "NAME[:OPTIONS]", "the platform plugin: xcb, wayland, offscreen, ..."},
    {"platformpluginpath", "DIR", "where to look for platform plugins"},
    {"platformtheme", "NAME", "the platform theme"},
    {"plugin", "NAME", "an additional plugin to load (repeatable)"},
    {"qmljsdebugger", "PORT", "the QML debugger's port", true},
    {"style", "STYLE", "the widget style, e.g. Fusion"},
    {"stylesheet", "FILE", "a Qt style sheet"},
    {"widgetcount", nullptr, "at exit, print how many widgets were left undestroyed"},
    {"reverse", nullptr, "right-to-left layout"},
    {"session", "ID", "restore the session manager's session ID"},
    {"qwindowgeometry", "GEOMETRY", "the window's geometry, e.g. 1280x800+0+0"},
    {"qwindowicon", "FILE", "the window's icon"},
    {"qwindowtitle", "TITLE", "the window's title"},
    {"display", "DISPLAY", "X11: the X server's display"},
    {"geometry", "GEOMETRY", "X11: the same as -qwindowgeometry"},
    {"title", "TITLE", "X11: the same as -qwindowtitle"},
    {"nograb", nullptr, "X11: never grab the mouse or the keyboard"},
    {"dograb", nullptr, "X11: grab even when running in a debugger"},
    {"sync", nullptr, "X11: synchronous X calls, for debugging"},
};

/// The root's own options: the desktop app's, and the hidden ones that write the man page
/// and the completion at build time, and the Markdown reference (docs/cli.md).
struct RootArguments {
    std::optional<std::string> lang;
    std::optional<std::string> path;
    bool man = false;
    std::optional<std::string> completion;
    bool markdown = false;
};

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

/// "-platform" (Qt's spelling of its options) as "--platform"; anything else as given.
std::string long_spelling(const std::string& a, const CLI::App& root) {
    if (a.size() < 3 || a[0] != '-' || a[1] == '-') return a;
    const CLI::Option* opt = root.get_option_no_throw("-" + a.substr(0, a.find('=')));
    return opt && opt->get_group() == kQtGroup ? "-" + a : a;
}

/// The arguments as CLI11 should see them.  `help [SUBCOMMAND]` is `[SUBCOMMAND] --help`;
/// Qt's options are spelled with two dashes.  "--name=" with nothing after the '=' is an
/// empty value, as "--name ''" is (CLI11 would take the next argument instead); the
/// argument after an option that takes a value is its value, whatever it looks like.
std::vector<std::string> normalize(std::vector<std::string> args, const CLI::App& root) {
    if (!args.empty() && args.front() == "help") {
        args.erase(args.begin());
        args.push_back("--help");
    }
    std::vector<std::string> out;
    const CLI::App* current = &root;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--") {  // the rest are positional
            out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
            break;
        }
        if (current == &root) {
            if (const CLI::App* sub = find_subcommand(root, args[i])) {
                out.push_back(args[i]);
                current = sub;
                continue;
            }
        }
        const std::string a = current == &root ? long_spelling(args[i], root) : args[i];
        const auto eq = a.find('=');
        const std::string name = a.substr(0, eq);
        const CLI::Option* opt =
            a.size() > 1 && a[0] == '-' ? current->get_option_no_throw(name) : nullptr;
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

/// The options of `app` as given, canonically: declaration order, first long name, each
/// value as a separate argument; a positional last, after "--".
std::vector<std::string> canonical_arguments(const CLI::App& app) {
    std::vector<std::string> out, positional;
    for (const CLI::Option* opt : app.get_options()) {
        if (opt == app.get_help_ptr() || opt == app.get_version_ptr() || opt->count() == 0)
            continue;
        if (opt->get_lnames().empty() && opt->get_snames().empty()) {
            positional = opt->results();
            continue;
        }
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
    if (!positional.empty()) {
        out.emplace_back("--");
        out.insert(out.end(), positional.begin(), positional.end());
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

/// Qt's options that were given, as Qt reads them: "-platform" "offscreen", "-reverse",
/// "-qmljsdebugger=port:9"; in the order of kQtOptions, a repeated one in its own order.
std::vector<std::string> qt_arguments(const CLI::App& root) {
    std::vector<std::string> out;
    for (const QtOption& q : kQtOptions) {
        const CLI::Option* opt = root.get_option_no_throw(std::string("--") + q.name);
        if (!opt || opt->count() == 0) continue;
        const std::string name = std::string("-") + q.name;
        if (!q.placeholder) {
            out.push_back(name);
            continue;
        }
        for (const std::string& v : opt->results()) {
            if (q.joined) {
                out.push_back(name + "=" + v);
            } else {
                out.push_back(name);
                out.push_back(v);
            }
        }
    }
    return out;
}

/// The first of the root's own options that was given, "" if none.
std::string given_root_option(const CLI::App& root) {
    for (const CLI::Option* opt : root.get_options())
        if (opt != root.get_help_ptr() && opt->count() > 0)
            return opt->get_lnames().empty() ? opt->get_name() : opt->get_name(false, false);
    return {};
}

std::string lowercase(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// Puts PATH into `request` as what it is: a model folder, a file of one (its config.json,
/// its weights), or a session.  Returns the usage error otherwise, "" when it fits.
std::string open_path(const std::string& path, const CLI::App& root, GuiRequest* request) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status)) {
        // A word that names no file is more likely a subcommand mistyped than a file.
        if (path.find_first_of("/.") == std::string::npos) {
            std::vector<std::string> names = subcommand_names(root);
            std::sort(names.begin(), names.end());
            const std::string near = nearest(path, names);
            return "unknown command '" + path + "' (" +
                   (near.empty() ? "no subcommand, file or folder of that name"
                                 : "did you mean " + near + "?") +
                   ")";
        }
        return "no such file or folder '" + path + "'";
    }
    if (fs::is_directory(status)) {
        request->model_folder = path;
        return {};
    }
    const fs::path file(path);
    const std::string suffix = lowercase(file.extension().string());
    if (suffix == ".attnviz") {
        request->session = path;
        return {};
    }
    if (suffix == ".gguf") {  // a GGUF model (llama.cpp, ollama, LM Studio) is one file
        request->model_folder = path;
        return {};
    }
    const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
    if ((suffix == ".json" || suffix == ".safetensors") &&
        fs::is_regular_file(folder / "config.json", ec)) {
        request->model_folder = folder.string();
        return {};
    }
    return "'" + path +
           "' is neither a model folder, a file of one (config.json, *.safetensors), a .gguf "
           "model nor a .attnviz session";
}

const char* const kDescription =
    "attnviz: multi-head attention, heatmap by heatmap.  Without a subcommand it opens the "
    "desktop app, on PATH if given: a Hugging Face model folder (or its config.json or "
    "weights), a .gguf model file or a .attnviz session.  The subcommands below run without a "
    "display.  "
    "Options use PyTorch's names.";

const char* const kExitStatus =
    "0 success, 1 data error (a file that is missing, broken or lies about its sizes, shapes "
    "that do not fit, an unwritable output, a computation over the memory budget), 2 usage "
    "error, 130 corpus stopped by Ctrl-C (its partial result written).  On failure one line "
    "on stderr names the problem.";

const char* const kMemory =
    "a computation that needs more than the memory budget is refused before anything is "
    "allocated (exit 1), naming what fits instead.  attend and export keep less of the "
    "result when asked, each a slice of the full one";

const char* const kEnvironment =
    "  ATTNVIZ_LANG: the desktop app's language when --lang is not given.\n"
    "  ATTNVIZ_MEMORY_BUDGET: the memory budget when --memory-budget is not given.\n"
    "  QT_QPA_PLATFORM: Qt's platform plugin (export uses offscreen unless it is set).";

struct CommandLine {
    CommandContext ctx;
    RootArguments root_arguments;
    std::unique_ptr<CLI::App> root;
    GuiRequest view;  ///< what `attnviz view` opens the desktop app on, once checked
};

/// `attnviz view --attentions A --tokens T`: the desktop app on attention maps computed
/// elsewhere.  The files are checked here, before any window: bad data exits 1 with one line;
/// rows that do not sum to 1 are a warning on stderr.  run() then opens the window.
void add_view_command(CLI::App& app, CommandContext& ctx, GuiRequest* request) {
    CLI::App* sub = app.add_subcommand(
        "view",
        "Open the desktop app on attention maps computed elsewhere (Hugging Face "
        "output_attentions, TransformerLens, attnviz attend --out-weights --out-tokens)");
    add_text(*sub, "--attentions", &request->attentions, "A.npy",
             "the maps: float32 or float16 [layers, heads, L, L] or [heads, L, L] (.npy), or "
             "one tensor per layer named layer.N, [heads, L, L] (.safetensors)")
        ->required();
    add_text(*sub, "--tokens", &request->tokens, "T.json",
             "the tokens: a JSON list of strings or {\"tokens\": [...], \"ids\": [...]}; "
             "default: tokens.json beside the maps");
    add_text(*sub, "--b-attentions", &request->b_attentions, "B.npy",
             "maps to compare with --attentions (the Compare tab opens on A, B and B - A): "
             "another file with the same layers, heads and tokens count, e.g. another checkpoint "
             "on the same text; tokens spelled differently are a warning");
    add_text(*sub, "--b-tokens", &request->b_tokens, "T.json",
             "the tokens of --b-attentions; default: tokens.json beside them");
    ctx.on_parsed(sub, [request] {
        if (!request->b_tokens.empty() && request->b_attentions.empty())
            throw UsageError("--b-tokens needs --b-attentions");
        // Each file as the window reads it: shapes, tokens that fit, NaN; rows not summing to 1
        // are a warning.  `option` names the tokens option for the message.
        const auto check = [](const std::string& maps_path, std::string* tokens,
                              const char* option) {
            io::AttentionArrays maps = io::AttentionArrays::open(maps_path);
            if (tokens->empty()) *tokens = io::tokens_beside(maps_path);
            if (tokens->empty())
                throw UsageError(std::string(option) +
                                 " is required: there is no tokens.json beside " + maps_path);
            io::AttentionTokens read = io::read_attention_tokens(*tokens);
            io::check_tokens(maps, read, *tokens);
            const std::string warning = io::validate_attention_arrays(maps);
            if (!warning.empty())
                std::fputs(("attnviz view: warning: " + warning + "\n").c_str(), stderr);
            return std::pair{std::move(maps), std::move(read)};
        };
        const auto [maps, tokens] = check(request->attentions, &request->tokens, "--tokens");
        if (request->b_attentions.empty()) return 0;
        const auto [b_maps, b_tokens] =
            check(request->b_attentions, &request->b_tokens, "--b-tokens");
        io::check_comparable(maps, b_maps);
        const std::string differ =
            io::token_difference(tokens, b_tokens, request->tokens, request->b_tokens);
        if (!differ.empty())
            std::fputs(("attnviz view: warning: " + differ + "\n").c_str(), stderr);
        return 0;
    });
}

/// --lang, PATH and Qt's options: the desktop app's; --man, --completion, --markdown: hidden.
void add_root_options(CLI::App& root, RootArguments* a) {
    add_choice(root, "--lang", &a->lang, {"en", "zh_CN", "system"},
               "the desktop app's language for this run; default: ATTNVIZ_LANG, else the "
               "View > Language setting, else the system's",
               {"zh", "zh-CN", "zh_Hans", "en_US", "en-US", "en_GB", "auto", "default"},
               LetterCase::Any)
        ->group(kGuiGroup);
    add_text(root, "PATH", &a->path, "",
             "a model folder (or its config.json or weights) or a .attnviz session to open")
        ->group(kGuiGroup);
    for (const QtOption& q : kQtOptions) {
        const std::string name = std::string("--") + q.name;
        const std::string help = std::string(q.help) + "; also -" + q.name;
        CLI::Option* opt = q.placeholder ? root.add_option(name, help)->option_text(q.placeholder)
                                         : root.add_flag(name, help);
        // Qt reads them, and takes what it takes: repeats are Qt's business.
        opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->group(kQtGroup);
    }
    add_flag(root, "--man", &a->man, "print the manual page (roff) and exit")->group("");
    add_choice(root, "--completion", &a->completion, {"bash"},
               "print the shell's completion script and exit")
        ->group("");
    add_flag(root, "--markdown", &a->markdown,
             "print the command-line reference (Markdown) and exit")
        ->group("");
}

DocText doc_text() {
    return DocText{.version = ATTNVIZ_VERSION,
                   .exit_status = kExitStatus,
                   .memory = "A" + std::string(kMemory).substr(1) +
                             ": see the Memory budget options of attend and export.",
                   .environment = kEnvironment,
                   .gui_group = kGuiGroup,
                   .qt_group = kQtGroup};
}

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
        const std::vector<std::string> rest = root.remaining();
        if (p.command.empty() && line.root_arguments.path && !rest.empty() &&
            !rest.front().starts_with('-'))
            p.output = error_line(
                "", "the desktop app opens one PATH, not also '" + rest.front() + "'", true);
        else
            p.output = error_line(p.command, describe_parse_error(e, root), true);
        return p;
    }
    const RootArguments& r = line.root_arguments;
    if (r.man || r.completion || r.markdown) {
        p.kind = ParsedCommandLine::Kind::Help;
        p.status = 0;
        p.output = r.man        ? man_page(root, doc_text())
                   : r.markdown ? markdown_reference(root, doc_text())
                                : bash_completion(root, doc_text());
        return p;
    }
    const CLI::App* sub = selected(root);
    if (!sub) {
        p.canonical = canonical_arguments(root);
        p.gui.lang = r.lang.value_or("");
        if (r.path) {
            if (std::string why = open_path(*r.path, root, &p.gui); !why.empty()) {
                p.output = error_line("", why, true);
                return p;
            }
        }
        p.gui.qt_arguments = qt_arguments(root);
        p.kind = ParsedCommandLine::Kind::Gui;
        p.status = 0;
        return p;
    }
    p.command = command();
    if (const std::string option = given_root_option(root); !option.empty()) {
        p.command.clear();
        p.output = error_line(
            "", option + " is for the desktop app: it does not go with attnviz " + sub->get_name(),
            true);
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
    p.canonical.insert(p.canonical.begin(), sub->get_name());
    return p;
}

/// The whole tree: the root ("attnviz": the desktop app's options, --help, --version), the
/// subcommands of app/ and then each of `extensions`, all registering their handlers in
/// `line.ctx`.
void build(CommandLine& line, std::span<const AddCommand> extensions) {
    line.root = std::make_unique<CLI::App>(kDescription, "attnviz");
    CLI::App& root = *line.root;
    // Set before the subcommands are added: they inherit the formatter and the help flag.
    root.formatter(make_help_formatter());
    root.set_help_flag("-h,--help", "print this help and exit");
    // The version, and what the products and the softmax run on here: a bug report or a
    // benchmark says which machine path it came from.
    root.set_version_flag(
        "--version", std::function<std::string()>([] {
            return std::string("attnviz ") + ATTNVIZ_VERSION + "\nmatrix products: " +
                   kernels::gemm_backend_description(kernels::gemm_backend()) +
                   "\nsoftmax: " + kernels::isa_name(kernels::best_isa());
        }),
        "print the version, the matrix-product backend and the SIMD path, and exit");
    root.require_subcommand(0, 1);
    add_root_options(root, &line.root_arguments);
    root.footer(std::string("Run attnviz SUBCOMMAND --help for its options.\n\nExit status: ") +
                kExitStatus + "\n\nEnvironment:\n" + kEnvironment + "\n\nMemory: " + kMemory +
                ":\n" + memory_options_help());
    for (const AddCommand add : kCommands)
        add(root, line.ctx);
    add_view_command(root, line.ctx, &line.view);
    for (const AddCommand add : extensions)
        add(root, line.ctx);
}

}  // namespace

ParsedCommandLine parse_command_line(const std::vector<std::string>& args,
                                     std::span<const AddCommand> extensions) {
    CommandLine line;
    build(line, extensions);
    return parse(line, args);
}

int run(const std::vector<std::string>& args, std::span<const AddCommand> extensions,
        const RunGui& run_gui) {
    CommandLine line;
    build(line, extensions);
    const ParsedCommandLine p = parse(line, args);
    if (p.kind == ParsedCommandLine::Kind::Gui) {
        if (run_gui) return run_gui(p.gui);
        std::fputs(error_line("", "this build has no desktop app: give a subcommand", true).c_str(),
                   stderr);
        return 2;
    }
    if (p.kind != ParsedCommandLine::Kind::Command) {
        std::fputs(p.output.c_str(), p.kind == ParsedCommandLine::Kind::Error ? stderr : stdout);
        return p.status;
    }
    std::string failure;
    int status = 1;
    try {
        const int ran = line.ctx.handler(selected(*line.root))->run();
        if (ran != 0 || p.command != "view") return ran;
        if (!run_gui) throw UsageError("this build has no desktop app to view the maps in");
        return run_gui(line.view);  // the maps were checked: the window opens on them
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
