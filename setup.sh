#!/bin/sh
# musimd setup: install the Debian packages musimd needs, build it, and run a
# real example (seed 001's sumTriangle). Safe to run again.
set -eu
cd "$(dirname "$0")"

PKGS="build-essential pkg-config flex bison meson ninja-build python3
      libgmp-dev libcriterion-dev libedit-dev mandoc graphviz llvm-16"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

[ -f build/build.ninja ] || meson setup build
ninja -C build

echo
echo "setup: built build/musimd; running examples/sum_triangle.simd:"
build/musimd run examples/sum_triangle.simd
echo
echo "setup: and its divergence analysis (Sampaio 2013, Figure 3.5):"
build/musimd analyze examples/sum_triangle.simd
