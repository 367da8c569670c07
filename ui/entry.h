// The way into the Qt front end, called from app/main.cpp (`attnviz export` joins the
// command line instead: ui/cli/export_command.h).
#pragma once

namespace attnviz::ui {

/// The desktop application.  argv may name a .attnviz session to open.
int run_gui(int argc, char** argv);

/// The organisation, application name and version every QApplication of attnviz carries
/// (the window's, and the one `attnviz export` renders with: ui/cli/export_command.h).
void set_application_identity();

}  // namespace attnviz::ui
