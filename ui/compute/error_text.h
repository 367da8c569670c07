// An engine error in the interface's language: the engine gives the code and arguments of
// the errors a user meets (engine/errors.h ErrorCode), the window says them with tr(); the
// CLI prints the engine's English what().
#pragma once

#include <QString>

#include <exception>

namespace attnviz::ui {

/// The message of `e` in the installed language: translated when it carries an ErrorCode,
/// else its what().
QString error_text(const std::exception& e);

}  // namespace attnviz::ui
