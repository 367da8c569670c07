# Sourced by tools/test_all.sh and tools/run_tsan.sh: runs the calling script again under
# `env -i`, with only what a fresh Debian 12 gives a root shell and the README promises (PATH,
# HOME, LANG=C.UTF-8; no TZ, no XDG_*, no PYTHONPATH), so that a green run here is a green run on
# a new user's machine.  Issue 40 was a race that only a bare environment showed: with TZ unset,
# glibc re-reads the time zone on every local-time conversion.
#
# Kept from the caller: CI, TMPDIR, the ATTNVIZ_* knobs the scripts document, and
# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, which some machines set because older OpenBLAS builds
# compute wrong results or crash on their processors without them.
#
#   cd REPO_ROOT; source tools/bare_env.sh && bare_env_exec "$0" "$@"
#
# The caller has changed to the repository's root already; its script lies in tools/.
bare_env_exec() {
  [[ ${ATTNVIZ_BARE_ENV:-} == 1 ]] && return 0
  local script=$PWD/tools/${1##*/}
  shift
  local keep=(
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    "HOME=${HOME:-/root}"
    LANG=C.UTF-8
    ATTNVIZ_BARE_ENV=1
  )
  local name
  for name in CI TMPDIR OPENBLAS_CORETYPE OPENBLAS_L2_SIZE ${!ATTNVIZ_*}; do
    [[ -n ${!name+set} ]] && keep+=("$name=${!name}")
  done
  exec env -i "${keep[@]}" bash "$script" "$@"
}
