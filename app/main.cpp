// attnviz: one command line (app/cli.h) for the desktop app and the headless subcommands.
// With no subcommand it opens the window, on a model folder or a session if one is given;
// anything the tree does not declare (an unknown option, a word that is neither a
// subcommand nor a file) is a usage error, never a window.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#endif

#include <string>
#include <vector>

#include "app/cli.h"
#include "app/commands.h"
#include "ui/entry.h"

int main(int argc, char** argv) {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    // Attention results of up to tens of MB are allocated on every recomputation.  glibc would
    // map each from fresh pages and unmap it on free, so every forward pass paid a page fault
    // per 4 KB (a fifth of a small pass).  Keep such blocks in the heap for reuse; the very
    // large ones (huge pages, engine/layers) are still mapped.
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    // `export` renders with the window's code, so it is not in the Qt-free attnviz_cli (the
    // fuzzer's): it joins the tree from here.
    constexpr attnviz::cli::AddCommand extensions[] = {attnviz::cli::add_export_command};
    const std::vector<std::string> args(argv + 1, argv + argc);
    return attnviz::cli::run(args, extensions, [&](const attnviz::cli::GuiRequest& request) {
        // QApplication's argv: the program and Qt's own options as Qt spells them; ours were
        // parsed into the request.  The strings outlive the application (it keeps argv).
        std::vector<std::string> qt_args{argv[0]};
        qt_args.insert(qt_args.end(), request.qt_arguments.begin(), request.qt_arguments.end());
        std::vector<char*> qt_argv;
        for (std::string& a : qt_args)
            qt_argv.push_back(a.data());
        qt_argv.push_back(nullptr);
        return attnviz::ui::run_gui(
            static_cast<int>(qt_args.size()), qt_argv.data(),
            attnviz::ui::GuiOptions{request.lang, request.model_folder, request.session,
                                    request.attentions, request.tokens, request.b_attentions,
                                    request.b_tokens});
    });
}
