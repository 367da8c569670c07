// The local time zone, settled before the window's threads start.
#pragma once

namespace attnviz::ui {

/// With TZ unset (a fresh Debian's environment), names the zone glibc reads by default,
/// TZ=":/etc/localtime", so that glibc keeps its time-zone state instead of rebuilding it on
/// every local-time conversion.  Runs by itself when the QCoreApplication is made, before any
/// thread of ours; later calls do nothing.  An explicit TZ is left as it is.
void pin_local_time_zone();

}  // namespace attnviz::ui
