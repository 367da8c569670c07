#include "ui/compute/local_time.h"

#include <QCoreApplication>

#include <ctime>
#include <mutex>

namespace attnviz::ui {

// Why: when TZ is unset, every tzset() (Qt calls it before each local-time conversion) finds
// no name to compare with the one it read last, so glibc frees its copy of the zone's name,
// strdup()s "/etc/localtime" again and re-reads the file, under tzset_lock, a lock internal to
// glibc.  Two threads converting times (QDateTime on the GUI thread, QFileInfo in a worker)
// are then safe only by that lock, which ThreadSanitizer cannot see: on a fresh Debian 12 the
// test command failed with a "race" between glibc's free and strdup (issue 40).  With TZ set
// to the same file, glibc sees the name unchanged and returns at once: same zone, no shared
// writes, and no stat() of /etc/localtime per conversion.  The cost: a change of the system's
// zone while the app runs is seen at its next start, as for any program started with TZ set.
void pin_local_time_zone() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (!qEnvironmentVariableIsSet("TZ")) qputenv("TZ", ":/etc/localtime");
        tzset();
    });
}

// Before any thread of ours: QCoreApplication's constructor runs it.
Q_COREAPP_STARTUP_FUNCTION(pin_local_time_zone)

}  // namespace attnviz::ui
