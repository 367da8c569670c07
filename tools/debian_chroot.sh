# Sourced by tools/test_package.sh and tools/test_fresh_clone.sh: a fresh Debian 12
# (bookworm, debootstrap's minbase: no TZ, /etc/localtime -> UTC, nothing but apt) in a chroot,
# as a new user's machine is before the README's commands run.
#
#   source tools/debian_chroot.sh
#   debian_chroot_create CACHE_DIR   # sets $root; unmounts and removes it on exit
#   in_root COMMAND...               # runs COMMAND inside, under env -i (PATH, HOME, LANG)
#
# The first call builds the base system with debootstrap from ATTNVIZ_DEBIAN_MIRROR (default
# deb.debian.org) and keeps it as CACHE_DIR/bookworm.tar.gz; every call unpacks a fresh copy.
# Downloaded packages are kept in CACHE_DIR/apt-archives.  Needs root and debootstrap.

debian_mirror=${ATTNVIZ_DEBIAN_MIRROR:-http://deb.debian.org/debian}
debian_chroot_mounts=()

debian_chroot_cleanup() {
  local i
  for ((i = ${#debian_chroot_mounts[@]} - 1; i >= 0; i--)); do
    umount -l "${debian_chroot_mounts[i]}" 2>/dev/null || true
  done
  [[ -n ${root:-} && -d $root ]] && rm -rf --one-file-system "$root"
}

debian_chroot_bind() {
  mkdir -p "$root$2"
  mount "${@:3}" --bind "$1" "$root$2"
  debian_chroot_mounts+=("$root$2")
}

debian_chroot_create() {
  local cache=$1
  local tarball=$cache/bookworm.tar.gz
  [[ $(id -u) -eq 0 ]] || { echo "${0##*/}: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
  command -v debootstrap >/dev/null || { echo "${0##*/}: apt install debootstrap" >&2; exit 2; }
  mkdir -p "$cache/apt-archives/partial"
  if [[ ! -f $tarball ]]; then
    echo "== debootstrap bookworm (once; cached as $tarball)"
    local base
    base=$(mktemp -d "$cache/base.XXXXXX")
    debootstrap --variant=minbase bookworm "$base" "$debian_mirror" >"$cache/debootstrap.log" 2>&1 ||
      { tail -n 20 "$cache/debootstrap.log" >&2; rm -rf "$base"; exit 1; }
    rm -f "$base"/var/cache/apt/archives/*.deb
    tar -C "$base" -czf "$tarball.part" . && mv "$tarball.part" "$tarball"
    rm -rf "$base"
  fi
  root=$(mktemp -d "$cache/root.XXXXXX")
  chmod 755 "$root"  # apt's _apt user reads below it
  trap debian_chroot_cleanup EXIT
  tar -C "$root" -xzf "$tarball"
  mount -t proc proc "$root/proc" && debian_chroot_mounts+=("$root/proc")
  mount -t sysfs sysfs "$root/sys" && debian_chroot_mounts+=("$root/sys")
  debian_chroot_bind /dev /dev
  debian_chroot_bind /dev/pts /dev/pts
  mount -t tmpfs tmpfs "$root/dev/shm" && debian_chroot_mounts+=("$root/dev/shm")
  debian_chroot_bind "$cache/apt-archives" /var/cache/apt/archives
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  echo "deb $debian_mirror bookworm main" >"$root/etc/apt/sources.list"
  # The chroot lives in the build tree, which apt's unprivileged _apt user may not reach.
  echo 'APT::Sandbox::User "root";' >"$root/etc/apt/apt.conf.d/99attnviz-test"
}

in_root() {
  chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
