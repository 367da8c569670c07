#!/usr/bin/env bash
# The README's test command as a new user meets it: a fresh Debian 12 (debootstrap minbase, in
# a chroot: tools/debian_chroot.sh), a clone of this repository at REV (default HEAD) in it,
# and `bash .ci/run` there as CI runs it: CI=true, no terminal, no standard input, an
# environment of PATH, HOME and LANG=C.UTF-8 only, every package installed by the project's own
# script.  Its output is shown and kept in build/fresh-test/ci.log; the exit status is .ci/run's.
#
#   sudo bash tools/test_fresh_clone.sh [REV]   # needs root (debootstrap, chroot, mounts)
#
# It takes as long as CI does (40-50 min on 2 cores) plus the packages' download on a first
# run (kept in build/fresh-test/apt-archives).
set -euo pipefail
cd "$(dirname "$0")/.."

rev=${1:-HEAD}
commit=$(git rev-parse --verify -q "$rev^{commit}") ||
  { echo "test_fresh_clone: $rev is not a commit of this repository" >&2; exit 2; }
source tools/debian_chroot.sh
cache=$PWD/build/fresh-test
debian_chroot_create "$cache"

echo "== a clone of $commit in the chroot"
git clone -q --no-local . "$root/root/attnviz"
git -C "$root/root/attnviz" checkout -q --detach "$commit"

echo "== CI=true bash .ci/run, in the chroot"
set +e
in_root env CI=true setsid -w bash -c 'cd /root/attnviz && bash .ci/run' </dev/null 2>&1 |
  tee "$cache/ci.log"
status=${PIPESTATUS[0]}
set -e
echo "== .ci/run exited $status (log: $cache/ci.log)"
exit "$status"
