// Calls handed from one thread to another through Qt's event queue, in a way ThreadSanitizer
// can follow.  Qt locks its queue inside libQt6Core, which Debian does not build with TSan, so
// a QMetaObject::invokeMethod from a worker looks to TSan like a data race on everything it
// carries.  A Mailbox posts an event of its own and, in a TSan build, declares that what the
// sender wrote before post() happens before what the call reads.  In other builds it is a
// queued call like any other.
#pragma once

#include <QObject>

#include <functional>

namespace attnviz::ui {

/// For the hand-overs Qt makes under its own locks, which TSan cannot see (a QThread's quit and
/// its objects' deletion when it finishes): what one thread did before happens_before(token)
/// happens before what another does after happens_after(token).  No-ops outside TSan builds.
void happens_before(const void* token);
void happens_after(const void* token);

class Mailbox : public QObject {
  public:
    /// A mailbox in `parent`'s thread, destroyed with it.
    explicit Mailbox(QObject* parent);

    /// The GUI thread's mailbox, living as long as the application.  Any thread.
    static Mailbox* application();

    /// Runs `call` on the mailbox's thread, from its event loop.  A call still queued when
    /// the mailbox is destroyed is dropped.  Any thread.
    void post(std::function<void()> call);

  protected:
    void customEvent(QEvent* event) override;

  private:
    Mailbox() = default;
};

}  // namespace attnviz::ui
