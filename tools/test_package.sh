#!/usr/bin/env bash
# Installs the Debian package into a fresh Debian 12 (bookworm) chroot and uses it as a new user
# would: apt resolves its Depends (so a missing one shows here), `attnviz --version` runs, the
# command line writes a PNG of the shipped model, and under Xvfb the window opens on the
# shipped model and on a double-clicked session.
#
#   bash tools/setup.sh package            # makes build/package/attnviz_<version>_<arch>.deb
#   sudo bash tools/test_package.sh [DEB]  # needs root (debootstrap, chroot, mounts)
#
# The first run builds the base system with debootstrap from ATTNVIZ_DEBIAN_MIRROR (default
# deb.debian.org) and keeps it as build/package-test/bookworm.tar.gz; every run unpacks a
# fresh copy of it.  Downloaded packages are kept in build/package-test/apt-archives.  The
# window's screenshots are left in build/package-test/ (window*.xwd, and .png when ImageMagick's
# convert is on the host).
set -euo pipefail
cd "$(dirname "$0")/.."

deb=${1:-}
if [[ -z $deb ]]; then
  deb=$(ls -t build/package/attnviz_*.deb 2>/dev/null | head -n 1 || true)
  [[ -n $deb ]] || { echo "test_package: no build/package/attnviz_*.deb (run: bash tools/setup.sh package)" >&2; exit 2; }
fi
[[ -f $deb ]] || { echo "test_package: $deb: no such file" >&2; exit 2; }
source tools/debian_chroot.sh
cache=$PWD/build/package-test
start=$SECONDS
step() { echo "== [$((SECONDS - start)) s] $*"; }

step "a fresh Debian 12 (tools/debian_chroot.sh)"
debian_chroot_create "$cache"
cp "$deb" "$root/tmp/"

step "apt install ./$(basename "$deb") (its Depends only, no Recommends)"
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" >"$cache/install.log" 2>&1 ||
  { tail -n 30 "$cache/install.log" >&2; exit 1; }

fail() { echo "test_package: FAILED: $*" >&2; exit 1; }

step "attnviz --version"
version=$(in_root attnviz --version) || fail "attnviz --version exited $?"
echo "$version"
[[ $version == *"$(dpkg-deb -f "$deb" Version)"* ]] || fail "--version does not say $(dpkg-deb -f "$deb" Version)"

step "attnviz export of the shipped model"
in_root sh -c 'cd /tmp && attnviz export --model /usr/share/attnviz/models/attn-only-2l --text "ab ab" --view model --out m.png' ||
  fail "attnviz export exited $?"
[[ $(head -c 8 "$root/tmp/m.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "m.png is not a PNG"
echo "m.png: $(stat -c %s "$root/tmp/m.png") bytes"
cp "$root/tmp/m.png" "$cache/m.png"

step "the desktop integration is registered (dpkg triggers)"
[[ -f $root/usr/share/mime/application/x-attnviz-session.xml ]] ||
  fail "shared-mime-info did not register application/x-attnviz-session"
for f in /usr/share/applications/org.attnviz.AttnViz.desktop \
         /usr/share/metainfo/org.attnviz.AttnViz.metainfo.xml \
         /usr/share/icons/hicolor/scalable/apps/org.attnviz.AttnViz.svg \
         /usr/share/icons/hicolor/48x48/apps/org.attnviz.AttnViz.png \
         /usr/share/attnviz/examples/induction_head.attnviz \
         /usr/share/attnviz/corpora/fortunes_en.txt \
         /usr/share/doc/attnviz/copyright \
         /usr/share/man/man1/attnviz.1.gz \
         /usr/share/bash-completion/completions/attnviz; do
  [[ -f $root$f ]] || fail "$f is not installed"
done

step "Xvfb, xwininfo, xwd and the desktop database (for the window test only)"
in_root apt-get install -y -qq --no-install-recommends xvfb xauth x11-utils x11-apps desktop-file-utils \
  >>"$cache/install.log" 2>&1 || { tail -n 30 "$cache/install.log" >&2; exit 1; }
in_root update-desktop-database /usr/share/applications
grep -q '^application/x-attnviz-session=.*org.attnviz.AttnViz.desktop' "$root/usr/share/applications/mimeinfo.cache" ||
  fail "the desktop database does not open application/x-attnviz-session with AttnViz"

# Starts the app under Xvfb with the arguments the desktop file's Exec gives it, waits for its
# main window (title "<document> — AttnViz"), keeps it running a few seconds more so that a
# failing model load would show, takes a screenshot and closes it.
window_test() {
  local name=$1 title=$2 exec_args=$3
  in_root xvfb-run -a -s "-screen 0 1400x900x24" sh -c '
    attnviz '"$exec_args"' >/tmp/'"$name"'.log 2>&1 &
    pid=$!
    for i in $(seq 1 60); do
      xwininfo -root -tree 2>/dev/null | grep -q "'"$title"'" && break
      kill -0 $pid 2>/dev/null || { echo "attnviz exited before its window opened" >&2; exit 1; }
      sleep 1
    done
    xwininfo -root -tree | grep "'"$title"'" || { echo "no window titled '"$title"' after 60 s" >&2; exit 1; }
    sleep 5
    kill -0 $pid 2>/dev/null || { echo "attnviz exited after its window opened" >&2; exit 1; }
    xwd -root -silent >/tmp/'"$name"'.xwd
    kill $pid; wait $pid 2>/dev/null || true' || { cat "$root/tmp/$name.log" >&2; fail "window test $name"; }
  if grep -qi "error\|fail\|cannot" "$root/tmp/$name.log"; then
    cat "$root/tmp/$name.log" >&2
    fail "attnviz reported a problem on stderr ($name)"
  fi
  cp "$root/tmp/$name.xwd" "$cache/$name.xwd"
  command -v convert >/dev/null && convert "xwd:$cache/$name.xwd" "$cache/$name.png" || true
}

step "the window opens on the shipped model (first launch)"
window_test window "Untitled — AttnViz" ""
step "a double-clicked session opens (Exec=attnviz %f)"
exec_line=$(grep '^Exec=' "$root/usr/share/applications/org.attnviz.AttnViz.desktop")
[[ $exec_line == "Exec=attnviz %f" ]] || fail "unexpected $exec_line"
window_test session "induction_head.attnviz — AttnViz" /usr/share/attnviz/examples/induction_head.attnviz

step "passed: $deb installs and runs on a fresh Debian 12"
