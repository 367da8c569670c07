#!/usr/bin/env bash
# One entry point for a fresh Debian 12 / Ubuntu machine:
#   bash tools/setup.sh run    install what is missing, build, start the app
#   bash tools/setup.sh test   install what is missing, build, run every test (also under
#                              the sanitizers) and every fuzzer briefly: tools/test_all.sh
#   bash tools/setup.sh build  install what is missing, build (the app and the tests)
#   bash tools/setup.sh package install what is missing, build the Debian package
#                              build/package/attnviz_<version>_<arch>.deb and check it with
#                              lintian; install it with: sudo apt install ./build/package/attnviz_*.deb
# Packages are checked first, so apt is only called when something is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case $mode in
  run|test|build|package) ;;
  *) echo "usage: bash tools/setup.sh run|test|build|package" >&2; exit 2 ;;
esac

packages=(
  g++ cmake ninja-build pkg-config
  qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
  libgl-dev libeigen3-dev libopenblas-pthread-dev libdnnl-dev libqcustomplot-dev
  libsimdjson-dev libutf8proc-dev libpcre2-dev libcli11-dev
  fonts-noto-cjk
  librsvg2-bin desktop-file-utils appstream shared-mime-info
)
# The sanitizer build and the fuzzers: clang, its runtimes (ASan, UBSan, libFuzzer) and
# llvm-symbolizer, which gives their reports file:line stacks.
# The PDF export test rasterises with poppler's pdftoppm.  lld links the test programs
# several times faster than GNU ld (cmake/ProjectOptions.cmake, ATTNVIZ_LLD).
[[ $mode == test ]] && packages+=(clang libclang-rt-14-dev llvm-14 lld poppler-utils)
# The package: CPack's DEB generator (dpkg-shlibdeps computes its Depends, `file` finds the
# binaries), lintian; tools/test_package.sh installs it into a debootstrap chroot.
[[ $mode == package ]] && packages+=(dpkg-dev file fakeroot lintian debootstrap)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs=$(nproc 2>/dev/null || echo 2)
case $mode in
  run)
    # The app alone (with its translations): the tests are built by `test` and `build`.
    cmake --preset release >/dev/null
    cmake --build --preset release -j "$jobs" --target attnviz
    exec ./build/release/app/attnviz
    ;;
  build)
    cmake --preset release >/dev/null
    cmake --build --preset release -j "$jobs"
    ;;
  package)
    # The `package` preset: a portable binary (no -march=native) under /usr, without the tests.
    cmake --preset package >/dev/null
    cmake --build --preset package -j "$jobs"
    rm -f build/package/attnviz_*.deb
    cpack --preset package
    deb=$(ls build/package/attnviz_*.deb)
    # Errors fail; the warnings left are listed with their reasons in the README.
    lintian --fail-on error "$deb" || exit 1
    echo "== $deb: install it with  sudo apt install ./$deb"
    echo "== test it in a fresh Debian 12 chroot with  sudo bash tools/test_package.sh"
    ;;
  test)
    # The release build and its tests, the sanitizer build and its tests, a short run of
    # every fuzzer (ATTNVIZ_FUZZ_SECONDS each, default 20): tools/test_all.sh.
    ATTNVIZ_BUILD_JOBS=${ATTNVIZ_BUILD_JOBS:-$jobs} exec bash tools/test_all.sh
    ;;
esac
