// The way into the Qt front end, called from app/main.cpp once the command line is parsed
// (app/cli.h; `attnviz export` renders through ui/cli/export_command.h instead).
#pragma once

#include <string>

namespace attnviz::ui {

/// What the desktop app opens on, as the command line parsed it.
struct GuiOptions {
    /// --lang as given (en, zh_CN, system, ...); "" for ATTNVIZ_LANG, else the View ▸
    /// Language preference, else the system's.
    std::string lang;
    std::string model_folder;  ///< a model folder to open; "" for none
    std::string session;       ///< a .attnviz session to open; "" for none
    /// `attnviz view`: attention maps computed elsewhere and their tokens ("" for tokens.json
    /// beside them), checked by the command line already.
    std::string attentions, tokens;
    /// `attnviz view --b-attentions`: maps compared with those (the Compare tab opens), and
    /// their tokens ("" for tokens.json beside them); "" for none.
    std::string b_attentions, b_tokens;
};

/// The desktop application.  argv holds the program's name and Qt's own options
/// (-platform, -style, ...), which QApplication reads; the rest of the command line was
/// parsed into `options` already.
int run_gui(int argc, char** argv, const GuiOptions& options);

/// The organisation, application name and version every QApplication of attnviz carries
/// (the window's, and the one `attnviz export` renders with: ui/cli/export_command.h).
void set_application_identity();

}  // namespace attnviz::ui
