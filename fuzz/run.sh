#!/bin/sh
# fuzz/run.sh — build the libFuzzer targets and fuzz one of them.
#
#   fuzz/run.sh parse|run|repl|gsa|explore|sm_config|llvm [SECONDS [extra libFuzzer flags...]]
#
# Builds build-fuzz/ with clang, ASan and UBSan (configured on first use),
# seeds fuzz/corpus-TARGET/ with examples/*.simd and fuzz/regress/* (sm_config:
# fuzz/regress/*.config), and
# runs build-fuzz/fuzz/fuzz_TARGET for SECONDS (default 600) in this one process
# (one core; libFuzzer's -jobs=1 would fork a child logging to fuzz-0.log).
# Crashers land in fuzz/ as crash-*, leak-*, timeout-*, oom-*: minimise
# one with `build-fuzz/fuzz/fuzz_TARGET -minimize_crash=1 -runs=10000 FILE`,
# fix the bug, and add the input to fuzz/regress/.
set -eu
cd "$(dirname "$0")/.."

target=${1:-}
case "$target" in
parse|run|repl|gsa|explore|sm_config|llvm) ;;
*) echo "usage: fuzz/run.sh parse|run|repl|gsa|explore|sm_config|llvm [SECONDS [libFuzzer flags...]]" >&2; exit 2 ;;
esac
secs=${2:-600}
[ $# -ge 2 ] && shift 2 || shift $#

if [ ! -f build-fuzz/build.ninja ]; then
	CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false
fi
ninja -C build-fuzz "fuzz/fuzz_$target" >/dev/null

corpus=fuzz/corpus-$target
mkdir -p "$corpus"
if [ "$target" = sm_config ]; then
	cp fuzz/regress/*.config "$corpus"/
else
	cp examples/*.simd "$corpus"/
	cp fuzz/regress/* "$corpus"/ 2>/dev/null || true
fi
# the parser's corpus is full of valid programs: a good start for run and repl
if [ "$target" != parse ] && [ -d fuzz/corpus-parse ]; then
	cp -n fuzz/corpus-parse/* "$corpus"/ 2>/dev/null || true
fi

# UBSan reports are bugs too: make them fatal so libFuzzer saves the input.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

dict=fuzz/musimd.dict
[ "$target" = sm_config ] && dict=fuzz/sm_config.dict

exec "build-fuzz/fuzz/fuzz_$target" \
	-dict="$dict" -only_ascii=0 \
	-max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	-max_total_time="$secs" -print_final_stats=1 \
	-artifact_prefix=fuzz/ \
	"$@" "$corpus"
