// attnviz: the GUI with no arguments (or a session file / Qt options), headless subcommands
// otherwise.  An unknown word that is not a file is a usage error, never a window.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#endif

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "app/cli.h"

#ifdef ATTNVIZ_WITH_GUI
#include "ui/cli/export_command.h"
#include "ui/entry.h"
#endif

namespace {

// Subcommands that live outside app/: `export` renders with the window's code, so it is
// part of the ui library and joins the command line's tree from here.
#ifdef ATTNVIZ_WITH_GUI
constexpr attnviz::cli::AddCommand kExtensions[] = {attnviz::ui::add_export_command};
#else
constexpr std::span<const attnviz::cli::AddCommand> kExtensions;
#endif

bool opens_gui(const std::vector<std::string>& args) {
    if (args.empty()) return true;
    const std::string& a = args[0];
    if (attnviz::cli::is_subcommand(a, kExtensions)) return false;
    std::error_code ec;
    return a[0] == '-' || a.ends_with(".attnviz") || std::filesystem::exists(a, ec);
}

}  // namespace

int main(int argc, char** argv) {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    // Attention results of up to tens of MB are allocated on every recomputation.  glibc would
    // map each from fresh pages and unmap it on free, so every forward pass paid a page fault
    // per 4 KB (a fifth of a small pass).  Keep such blocks in the heap for reuse; the very
    // large ones (huge pages, engine/layers) are still mapped.
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    const std::vector<std::string> args(argv + 1, argv + argc);
#ifdef ATTNVIZ_WITH_GUI
    if (opens_gui(args)) return attnviz::ui::run_gui(argc, argv);
#else
    (void)opens_gui;
#endif
    return attnviz::cli::run(args, kExtensions);
}
