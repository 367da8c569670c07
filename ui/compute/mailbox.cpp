#include "ui/compute/mailbox.h"

#include <QCoreApplication>
#include <QEvent>
#include <QThread>

#if defined(__SANITIZE_THREAD__)
#define ATTNVIZ_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ATTNVIZ_TSAN 1
#endif
#endif

#ifdef ATTNVIZ_TSAN
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace attnviz::ui {

namespace {

/// The receiver's half of a hand-over released at `event`'s construction.
void acquire(QEvent* event) {
#ifdef ATTNVIZ_TSAN
    __tsan_acquire(event);
#else
    (void)event;
#endif
}

QEvent::Type call_event_type() {
    static const auto type = QEvent::Type(QEvent::registerEventType());
    return type;
}

/// One call.  Built (and released to TSan) by the sender; acquired by whoever runs or
/// deletes it: the receiver's event loop, or Qt when the mailbox goes first.
class CallEvent : public QEvent {
  public:
    explicit CallEvent(std::function<void()> f) : QEvent(call_event_type()), call(std::move(f)) {
#ifdef ATTNVIZ_TSAN
        __tsan_release(this);
#endif
    }
    ~CallEvent() override {
        acquire(this);
    }
    std::function<void()> call;
};

}  // namespace

void happens_before(const void* token) {
#ifdef ATTNVIZ_TSAN
    __tsan_release(const_cast<void*>(token));
#else
    (void)token;
#endif
}

void happens_after(const void* token) {
#ifdef ATTNVIZ_TSAN
    __tsan_acquire(const_cast<void*>(token));
#else
    (void)token;
#endif
}

Mailbox::Mailbox(QObject* parent) : QObject(parent) {}

Mailbox* Mailbox::application() {
    // Created from any thread: moved to the GUI thread, deleted with the application.
    static Mailbox* const box = [] {
        auto* b = new Mailbox;
        QCoreApplication* app = QCoreApplication::instance();
        b->moveToThread(app->thread());
        QObject::connect(app, &QObject::destroyed, [b] { delete b; });
        return b;
    }();
    return box;
}

void Mailbox::post(std::function<void()> call) {
    QCoreApplication::postEvent(this, new CallEvent(std::move(call)));
}

void Mailbox::customEvent(QEvent* event) {
    acquire(event);  // before anything of the event is read
    if (event->type() == call_event_type()) static_cast<CallEvent*>(event)->call();
}

}  // namespace attnviz::ui
