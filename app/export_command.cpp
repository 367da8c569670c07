// `attnviz export`: the window's figure, headless.  Its options are declared and applied
// together in ui/cli/ (attnviz_export), which renders through the Qt front end; this is where
// the executable joins it to the tree.  Kept out of attnviz_cli, which is Qt-free (the
// fuzzer's): app/main.cpp passes it as an extension.
#include "ui/cli/export_command.h"
#include "app/commands.h"

namespace attnviz::cli {

void add_export_command(CLI::App& app, CommandContext& ctx) {
    ui::add_export_command(app, ctx);
}

}  // namespace attnviz::cli
