// attnviz's command line: one CLI11 tree with the desktop app's options at its root and
// every subcommand below it, generated --help, man page and bash completion, one-line
// errors.  The subcommands themselves are in app/*_command.cpp (export, which links the Qt
// front end, is passed in as an extension by app/main.cpp); their building blocks in
// app/command_line.h.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "app/command_line.h"

namespace attnviz::cli {

/// What the desktop app is asked to open: `attnviz [--lang NAME] [Qt options] [PATH]`.
struct GuiRequest {
    std::string lang;          ///< --lang as given (en, zh_CN, system, ...); "" when absent
    std::string model_folder;  ///< PATH, or the folder of PATH when it is a file of a model
    std::string session;       ///< PATH when it is a .attnviz session
    /// `attnviz view --attentions A --tokens T`: attention maps computed elsewhere, checked
    /// (shapes, tokens, NaN) before the window opens; tokens "" for tokens.json beside them.
    std::string attentions, tokens;
    /// `attnviz view --b-attentions B --b-tokens T`: maps compared with them (the Compare tab),
    /// checked against them; "" for none.
    std::string b_attentions, b_tokens;
    /// Qt's options as Qt reads them ("-platform", "offscreen", "-reverse"), for
    /// QApplication's argv: it sees nothing else of the command line.
    std::vector<std::string> qt_arguments;
};

/// Starts the desktop app on a request; returns its exit status.
using RunGui = std::function<int(const GuiRequest&)>;

/// Runs `attnviz <args...>` (the arguments after the program's name): the desktop app
/// through `run_gui`, a subcommand, or prints the help or the version.  Returns the exit
/// status: 0 success, 1 data error (bad file, bad shape, failed write, over the memory
/// budget), 2 usage error.  On failure exactly one line goes to stderr,
/// "attnviz <subcommand>: <what is wrong>".  Without `run_gui` the desktop app is a usage
/// error.
int run(const std::vector<std::string>& args, std::span<const AddCommand> extensions = {},
        const RunGui& run_gui = {});

/// A command line parsed but not run.
struct ParsedCommandLine {
    enum class Kind {
        Command,  ///< a subcommand with valid options: `run` would start it
        Gui,      ///< no subcommand: `run` would open the desktop app on `gui`
        Help,     ///< --help (or `help`), --man, --completion: `output` is the page
        Version,  ///< --version: `output` is the line
        Error,    ///< a usage error: `output` is the one line run() prints
    };
    Kind kind = Kind::Error;
    int status = 2;       ///< what run() returns without running a command: 0 or 2
    std::string command;  ///< the subcommand, "" at the root
    std::string output;
    /// For a Command: its options as one canonical argument list (the subcommand, then
    /// "--name" and the value, in declaration order, first long names), which parses to
    /// itself.  For the Gui: the root's options so, then "--" and PATH if given.
    std::vector<std::string> canonical;
    GuiRequest gui;  ///< for the Gui
};

/// Parses and checks `args` as run() would, without running anything: the parse-only
/// entry of the `options` fuzzer.  Refusals are returned, never thrown; any exception that
/// leaves it is a bug.
ParsedCommandLine parse_command_line(const std::vector<std::string>& args,
                                     std::span<const AddCommand> extensions = {});

}  // namespace attnviz::cli
