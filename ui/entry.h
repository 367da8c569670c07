// The two ways into the Qt front end, called from app/main.cpp.
#pragma once

namespace attnviz::ui {

/// The desktop application.  argv may name a .attnviz session to open.
int run_gui(int argc, char** argv);

/// `attnviz export ...`: the window's figure, headless, through the same document and
/// renderer.  0 on success, 1 on a data or write error, 2 on a usage error; one message on
/// stderr on failure.
int run_export_command(int argc, char** argv);

}  // namespace attnviz::ui
