// A progress bar on stderr for the command line's long computations.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include <unistd.h>

namespace attnviz::cli {

/// "layer 12 of 32 [#######             ]" on stderr, redrawn in place, when stderr is a
/// terminal; nothing when it is piped or redirected (scripts and logs get no control codes).
/// The line is erased when the bar goes.  `unit` names what is counted ("layer", "text").
class TerminalProgress {
  public:
    explicit TerminalProgress(std::string note, std::string unit = "layer")
        : on_(::isatty(STDERR_FILENO) == 1), unit_(std::move(unit)) {
        if (on_ && !note.empty()) note_ = " (" + std::move(note) + ")";
    }
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;
    ~TerminalProgress() {
        if (on_ && drawn_) std::fputs("\r\033[K", stderr);
    }
    std::function<void(std::int64_t, std::int64_t)> callback() const {
        if (!on_) return {};
        return [this](std::int64_t done, std::int64_t total) {
            constexpr int kWidth = 24;
            const auto filled = static_cast<int>(kWidth * done / std::max<std::int64_t>(total, 1));
            std::fprintf(stderr, "\r\033[K%s %lld of %lld [%s%s]%s", unit_.c_str(),
                         static_cast<long long>(done), static_cast<long long>(total),
                         std::string(static_cast<std::size_t>(filled), '#').c_str(),
                         std::string(static_cast<std::size_t>(kWidth - filled), ' ').c_str(),
                         note_.c_str());
            std::fflush(stderr);
            drawn_ = true;
        };
    }

  private:
    bool on_;
    std::string unit_, note_;
    mutable bool drawn_ = false;
};

}  // namespace attnviz::cli
