#!/bin/sh
# musimd benchmarks (not part of the test suite). Usage: bench/run.sh [BUILD_DIR]
#
# 1. bench/lcg.simd — 1024 threads in one warp, ~10^8 thread instructions of
#    int64 arithmetic — against its peer bench/native_lcg.c, the same kernel as
#    scalar C (one thread after another) compiled with gcc -O2. The results
#    must agree: the script compares a checksum of Σ.
# 2. bench/lcg_big.simd — the same loop with values of ~100 bits: every
#    operation goes through GMP. Same number of thread instructions.
# Timing with hyperfine (Debian package hyperfine) when present, else `time`.
set -eu
cd "$(dirname "$0")/.."
B="${1:-build}"
[ -x "$B/musimd" ] || { echo "build musimd first (./setup.sh)"; exit 2; }
CC="${CC:-gcc}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
$CC -O2 -o "$tmp/native_lcg" bench/native_lcg.c

# the same checksum of Σ[0..1023] as native_lcg prints (int64 wrap-around)
checksum() {
	python3 -c '
import json, sys
r = json.load(sys.stdin)
s = 0
for t in range(r["threads"]):
    s = (s * 31 + r["shared"][str(t)]) % 2**64
print(s - 2**64 if s >= 2**63 else s)'
}
native="$("$tmp/native_lcg")"
interp="$("$B/musimd" run bench/lcg.simd --json | checksum)"
echo "checksum: native $native, musimd $interp"
[ "$native" = "$interp" ] || { echo "MISMATCH"; exit 1; }

ti="$("$B/musimd" run bench/lcg.simd --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["thread_instructions"])')"
echo "thread instructions per run: $ti"
if command -v hyperfine >/dev/null; then
	hyperfine -N --warmup 2 --runs 20 --export-json "$tmp/h.json" \
		"$tmp/native_lcg" \
		"$B/musimd run bench/lcg.simd --quiet" \
		"$B/musimd run bench/lcg_big.simd --quiet"
	python3 - "$tmp/h.json" "$ti" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
ti = int(sys.argv[2])
nat, small, big = (x["mean"] for x in r)
print("\nsummary (means over 20 runs):")
print("  native -O2            %8.1f ms" % (nat * 1e3))
print("  musimd int64          %8.1f ms  %6.0f M thread instructions/s  %.2fx native"
      % (small * 1e3, ti / small / 1e6, small / nat))
print("  musimd beyond int64   %8.1f ms  %6.0f M thread instructions/s  %.1fx the int64 run"
      % (big * 1e3, ti / big / 1e6, big / small))
PY
else
	echo "(install hyperfine for repeated timings)"
	time "$tmp/native_lcg"
	time "$B/musimd" run bench/lcg.simd --quiet
	time "$B/musimd" run bench/lcg_big.simd --quiet
fi
