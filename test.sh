#!/bin/sh
# musimd test suite: Criterion unit tests, the examples against the
# expectations derived from the papers, and golden transcripts of the CLI.
#   ./test.sh            in build/ (what CI runs)
#   ./test.sh --asan     the same under AddressSanitizer + UndefinedBehaviorSanitizer
#                        (in build-asan/, with clang if available)
# Extra arguments go to `meson test` (e.g. ./test.sh unit).
set -eu
cd "$(dirname "$0")"

dir=build
if [ "${1:-}" = "--asan" ]; then
	shift
	dir=build-asan
	if [ ! -f "$dir/build.ninja" ]; then
		CC="${CC:-$(command -v clang || command -v gcc)}" \
			meson setup "$dir" -Db_sanitize=address,undefined -Db_lundef=false
	fi
	export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
	export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
fi
[ -f "$dir/build.ninja" ] || meson setup "$dir"
ninja -C "$dir"

status=0
meson test -C "$dir" --print-errorlogs "$@" || status=$?

# Criterion counts a test whose process leaks as passed: read the log
if [ "$dir" = build-asan ] &&
	grep -qE "ERROR: (Leak|Address)Sanitizer|runtime error:" "$dir/meson-logs/testlog.txt"; then
	grep -E "ERROR: (Leak|Address)Sanitizer|runtime error:" "$dir/meson-logs/testlog.txt" | head
	echo "test.sh: sanitizer reports in $dir/meson-logs/testlog.txt"
	status=1
fi

# Criterion's own summary line, so a reader of the log sees the counts
grep -h "Synthesis:" "$dir/meson-logs/testlog.txt" | tail -n 1 || true
exit $status
