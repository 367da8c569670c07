#include "ui/compute/background_job.h"

#include <QCoreApplication>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "ui/compute/mailbox.h"

namespace attnviz::ui {

namespace detail {

/// What a job and its threads share.  Read and written on the GUI thread only: a thread holds
/// it (by shared_ptr) just to put it into what it posts.
struct JobChannel {
    std::uint64_t ticket = 0;  ///< the work started last; older hand-overs are dropped
    bool running = false;
};

/// One work started: its stop flag, set on the GUI thread (or at the application's end), and
/// its end, which the next work of the same job waits for.
struct JobRun {
    std::atomic<bool> stop{false};

    void end() {
        {
            const std::lock_guard lock(mutex);
            ended = true;
        }
        done.notify_all();
    }
    void waitForEnd() {
        std::unique_lock lock(mutex);
        done.wait(lock, [this] { return ended; });
    }

  private:
    std::mutex mutex;
    std::condition_variable done;
    bool ended = false;
};

QString unexpected_job_error() {
    return QCoreApplication::translate("Compute", "An unexpected error stopped the computation.");
}

}  // namespace detail

namespace {

/// Every job's thread.  A thread that has ended is joined by the next thread to start (never by
/// the GUI thread); at the application's end every thread is stopped and joined.
class Threads {
  public:
    static Threads& instance() {
        static Threads* const threads = new Threads;  // never destroyed: threads may outlive main
        return *threads;
    }

    void spawn(std::shared_ptr<detail::JobRun> job_run, std::function<void()> run) {
        const std::lock_guard lock(mutex_);
        if (!joined_at_exit_) {
            // Called first by ~QApplication (and ~QCoreApplication), before Qt destroys anything.
            qAddPostRoutine([] { Threads::instance().joinAll(); });
            joined_at_exit_ = true;
        }
        const std::uint64_t id = ++last_id_;
        // The new thread waits for this lock before it looks itself up.
        running_.emplace(id,
                         Running{std::move(job_run), std::thread([this, id, run = std::move(run)] {
                                     joinEnded();
                                     run();
                                     ended(id);
                                 })});
    }

    int running() {
        const std::lock_guard lock(mutex_);
        return int(running_.size());
    }

  private:
    struct Running {
        std::shared_ptr<detail::JobRun> run;
        std::thread thread;
    };

    /// On a thread that has run its work: hands its own handle over to be joined.
    void ended(std::uint64_t id) {
        const std::lock_guard lock(mutex_);
        const auto it = running_.find(id);
        if (it == running_.end()) return;  // joinAll has it
        ended_.push_back(std::move(it->second.thread));
        running_.erase(it);
    }

    /// On a new thread: joins the threads that have ended (they are returning, if not gone).
    void joinEnded() {
        std::vector<std::thread> ended;
        {
            const std::lock_guard lock(mutex_);
            ended.swap(ended_);
        }
        for (std::thread& t : ended)
            t.join();
    }

    /// At the application's end, on the GUI thread: stops every thread and waits for it.  The
    /// one join of the GUI thread: a thread must not run on while the objects it may use (Qt's,
    /// the model store's, static ones) are destroyed.  Each stops at its next unit of work.
    void joinAll() {
        std::vector<std::thread> threads;
        {
            const std::lock_guard lock(mutex_);
            for (auto& [id, r] : running_) {
                r.run->stop = true;
                threads.push_back(std::move(r.thread));
            }
            running_.clear();
            for (std::thread& t : ended_)
                threads.push_back(std::move(t));
            ended_.clear();
            joined_at_exit_ = false;  // another application object registers again
        }
        for (std::thread& t : threads)
            t.join();
    }

    std::mutex mutex_;
    std::map<std::uint64_t, Running> running_;
    std::vector<std::thread> ended_;
    std::uint64_t last_id_ = 0;
    bool joined_at_exit_ = false;
};

/// Posts `call` to the GUI thread, to run if the job has not been dropped or restarted since
/// `ticket`; `last`: the work's end, after which the job is no longer running.
void deliver(std::shared_ptr<detail::JobChannel> channel, std::uint64_t ticket,
             std::function<void()> call, bool last) {
    Mailbox::application()->post(
        [channel = std::move(channel), ticket, call = std::move(call), last] {
            if (channel->ticket != ticket) return;
            if (last) channel->running = false;  // before the handler, which may start it again
            call();
        });
}

}  // namespace

void JobControl::post(std::function<void()> call) const {
    deliver(channel_, ticket_, std::move(call), false);
}

void JobControl::end(std::function<void()> call) const {
    deliver(channel_, ticket_, std::move(call), true);
}

BackgroundJob::BackgroundJob() : channel_(std::make_shared<detail::JobChannel>()) {
    Mailbox::application();  // made on the GUI thread, not by the first thread that posts
}

BackgroundJob::~BackgroundJob() {
    drop();
}

void BackgroundJob::cancel() {
    if (run_) run_->stop = true;
}

void BackgroundJob::drop() {
    cancel();
    ++channel_->ticket;
    channel_->running = false;
}

bool BackgroundJob::isRunning() const {
    return channel_->running;
}

int BackgroundJob::runningThreads() {
    return Threads::instance().running();
}

void BackgroundJob::launch(std::function<void(const JobControl&)> body,
                           std::function<void(std::int64_t, std::int64_t)> progressed) {
    drop();
    auto run = std::make_shared<detail::JobRun>();
    JobControl control;
    control.channel_ = channel_;
    control.ticket_ = channel_->ticket;
    control.stop = &run->stop;  // the thread holds `run`, so the pointer lives as long as it
    if (progressed)
        control.progress = [channel = channel_, ticket = channel_->ticket,
                            progressed = std::move(progressed)](std::int64_t done,
                                                                std::int64_t total) {
            deliver(
                channel, ticket, [progressed, done, total] { progressed(done, total); }, false);
        };
    channel_->running = true;
    Threads::instance().spawn(
        run, [run, before = std::move(run_), body = std::move(body), control = std::move(control)] {
            if (before) before->waitForEnd();
            // Even dropped, the work begins: it ends at its first unit, and what it does before
            // (a model opened into the store) is not lost.
            body(control);
            run->end();
        });
    run_ = std::move(run);
}

}  // namespace attnviz::ui
