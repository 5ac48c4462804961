#!/bin/sh
# musimd setup: install the Debian packages musimd needs, build it, and run a
# real example (seed 001's sumTriangle). Safe to run again.
set -eu
cd "$(dirname "$0")"

PKGS="build-essential pkg-config flex bison meson ninja-build python3
      libgmp-dev libcriterion-dev libedit-dev mandoc man-db graphviz llvm-16
      spin coq ocaml-nox"

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
# musimd and its man pages into /usr/local, so that `man musimd` works
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO meson install -C build --quiet --no-rebuild

echo
echo "setup: built build/musimd; running examples/sum_triangle.simd:"
build/musimd run examples/sum_triangle.simd
echo
echo "setup: and its divergence analysis (Sampaio 2013, Figure 3.5):"
build/musimd analyze examples/sum_triangle.simd
echo
echo "setup: and the REPL on it, scripted (man musimd-repl; 'musimd repl FILE' on a terminal):"
printf 'break l6\nrun\ncontinue\nstep\ninfo stack\n' | build/musimd repl examples/sum_triangle.simd
echo
echo "setup: installed musimd and its man pages: man musimd, man musimd-repl, man musimd-lang, man musimd-analysis"
