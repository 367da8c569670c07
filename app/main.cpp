// attnviz: the GUI with no arguments, headless subcommands otherwise.
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli.h"

#ifdef ATTNVIZ_WITH_GUI
#include "ui/entry.h"
#endif

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
#ifdef ATTNVIZ_WITH_GUI
    if (!args.empty() && args[0] == "export") return attnviz::ui::run_export_command(argc, argv);
    if (args.empty() || !attnviz::cli::is_subcommand(args[0]))
        return attnviz::ui::run_gui(argc, argv);
#endif
    return attnviz::cli::run(args);
}
