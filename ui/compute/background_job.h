// The one shape of the window's background work (issue 36): a function run on a thread of its
// own with a PassControl (a stop flag it polls per unit of work, and progress), whose progress,
// result or error is handed to the GUI thread through the application's Mailbox, so that
// ThreadSanitizer sees each hand-over.
//
// A BackgroundJob runs one piece of work at a time.  start() drops the one under way: its stop
// flag is set, and nothing it still hands over is delivered (its ticket is old).  The new work
// begins on its thread once the old one has ended (at its next unit), so two never overlap and
// what the old one posted is queued ahead of what the new one posts.  Nothing here ever waits on
// the GUI thread: dropping or destroying a job returns at once, and the work, which holds only
// what it captured, ends by itself.  The threads still running when the application object is
// destroyed are stopped and joined there (a post routine, before Qt tears anything down), so
// none outlives the objects it may use.
#pragma once

#include <QString>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "engine/pass_control.h"
#include "ui/compute/error_text.h"

namespace attnviz::ui {

namespace detail {
struct JobChannel;
struct JobRun;
/// What an exception that is not a std::exception says.
QString unexpected_job_error();
/// The handler of a work's result (of none, for work that returns void).
template <typename Result>
struct Finished {
    using type = std::function<void(Result)>;
};
template <>
struct Finished<void> {
    using type = std::function<void()>;
};
}  // namespace detail

/// What a job's work gets: the PassControl the engine polls (its stop flag; progress goes to
/// the job's `progressed` handler), and a way to hand anything else to the GUI thread.
class JobControl : public PassControl {
  public:
    /// Runs `call` on the GUI thread, after whatever the work handed over before, unless the job
    /// was dropped, restarted or destroyed by then.  Any thread.
    void post(std::function<void()> call) const;

  private:
    friend class BackgroundJob;
    /// Like post(), for the work's last hand-over: the job is no longer running when it runs.
    void end(std::function<void()> call) const;

    std::shared_ptr<detail::JobChannel> channel_;
    std::uint64_t ticket_ = 0;
};

class BackgroundJob {
  public:
    /// What runs on the GUI thread, each only while the job is the one started last and the
    /// BackgroundJob lives.  Any may be empty.
    template <typename Result>
    struct Handlers {
        typename detail::Finished<Result>::type finished = {};  ///< the work returned
        /// It threw: the exception's message (error_text: translated when the engine gave a code).
        std::function<void(const QString& message)> failed = {};
        std::function<void()> cancelled = {};  ///< it threw Cancelled (cancel())
        /// Each PassControl::report of the work, in order, before its end.
        std::function<void(std::int64_t done, std::int64_t total)> progressed = {};
    };

    /// On the GUI thread, with the application object made.
    BackgroundJob();
    /// Drops the work under way (drop()) and returns at once.
    ~BackgroundJob();
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    /// Runs `work(const JobControl&)` on a thread of its own once the work before it has ended,
    /// dropping that one first.  Exactly one of the
    /// handlers `finished`, `failed` or `cancelled` follows, unless the job is dropped first.
    /// `work` must touch no widget, and nothing of the job's owner unless it holds it by
    /// shared_ptr.
    template <typename Work>
    void start(Work work, Handlers<std::invoke_result_t<Work&, const JobControl&>> handlers = {}) {
        using Result = std::invoke_result_t<Work&, const JobControl&>;
        auto progressed = std::move(handlers.progressed);
        launch(
            [work = std::move(work), h = std::move(handlers)](const JobControl& control) mutable {
                try {
                    if constexpr (std::is_void_v<Result>) {
                        work(control);
                        control.end([f = std::move(h.finished)] {
                            if (f) f();
                        });
                    } else {
                        auto result = std::make_shared<Result>(work(control));
                        control.end([f = std::move(h.finished), result] {
                            if (f) f(std::move(*result));
                        });
                    }
                } catch (const Cancelled&) {
                    control.end([f = std::move(h.cancelled)] {
                        if (f) f();
                    });
                } catch (const std::exception& e) {
                    control.end([f = std::move(h.failed), m = error_text(e)] {
                        if (f) f(m);
                    });
                } catch (...) {  // nothing may leave the thread
                    control.end([f = std::move(h.failed), m = detail::unexpected_job_error()] {
                        if (f) f(m);
                    });
                }
            },
            std::move(progressed));
    }

    /// Sets the work's stop flag: it throws Cancelled at its next unit, and `cancelled` follows
    /// (or `finished`, when it ended first).  Returns at once.
    void cancel();
    /// Sets the work's stop flag and drops everything it still hands over: no handler of it runs
    /// any more.  Returns at once.
    void drop();
    /// Started, and neither its end delivered nor dropped.
    bool isRunning() const;

    /// The jobs' threads, of every BackgroundJob, whose work has not returned yet (tests: to see
    /// abandoned work end).  Any thread.
    static int runningThreads();

  private:
    void launch(std::function<void(const JobControl&)> body,
                std::function<void(std::int64_t, std::int64_t)> progressed);

    std::shared_ptr<detail::JobChannel> channel_;
    std::shared_ptr<detail::JobRun> run_;  ///< the work started last
};

}  // namespace attnviz::ui
