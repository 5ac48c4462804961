#!/bin/sh
# analysis_speed.sh [MUSIMD] — how the divergence analyses scale, next to LLVM's.
#
# For generated programs of about 10^3, 10^4 and 10^5 instructions
# (`musimd gen --size`), converted once with `musimd gsa`, it times on the
# GSA program, in the same run:
#   musimd analyze --domain simple      (analysis output to /dev/null)
#   musimd analyze --degree 1
#   musimd analyze --degree 2
#   opt-16 -passes='print<uniformity>' -disable-output   on `musimd emit-llvm`'s IR
# with hyperfine when installed (its markdown tables are kept in the work
# directory), else a loop timed with `date +%s%N`; then prints one markdown
# table: instructions, GSA instructions, simple ms, deg1 ms, deg2 ms, opt-16 ms.
#
# Environment: SIZES (default "1000 10000 100000"), SEED (default 1),
# RUNS (default 5), OPT (default opt-16), KEEP=DIR to keep the programs.
set -eu

MUSIMD=${1:-build-main/musimd}
SIZES=${SIZES:-"1000 10000 100000"}
SEED=${SEED:-1}
RUNS=${RUNS:-5}
OPT=${OPT:-opt-16}

if [ -n "${KEEP:-}" ]; then
	work=$KEEP
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/analysis_speed.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi

# Instructions of a μ-SIMD text: lines that are not blank, comments or directives.
count_ins() {
	grep -cvE '^[[:space:]]*(#|//|;|\.|$)' "$1" || true
}

# mean wall time in ms of a shell command, without hyperfine
time_loop() {
	i=0 total=0
	while [ "$i" -lt "$RUNS" ]; do
		t0=$(date +%s%N)
		sh -c "$1" >/dev/null 2>&1
		t1=$(date +%s%N)
		total=$((total + t1 - t0))
		i=$((i + 1))
	done
	echo $((total / RUNS / 1000000))
}

have_hyperfine=no
command -v hyperfine >/dev/null 2>&1 && have_hyperfine=yes

rows=""
for size in $SIZES; do
	prog=$work/gen-$size.simd
	gsa=$work/gen-$size.gsa.simd
	ll=$work/gen-$size.ll
	"$MUSIMD" gen --seed "$SEED" --size "$size" >"$prog"
	"$MUSIMD" gsa "$prog" >"$gsa"
	"$MUSIMD" emit-llvm "$gsa" >"$ll"
	n=$(count_ins "$prog")
	ng=$(count_ins "$gsa")
	c_simple="$MUSIMD analyze --domain simple $gsa"
	c_deg1="$MUSIMD analyze --degree 1 $gsa"
	c_deg2="$MUSIMD analyze --degree 2 $gsa"
	c_opt="$OPT -passes=print<uniformity> -disable-output $ll" # hyperfine -N: no shell
	c_opt_sh="$OPT -passes='print<uniformity>' -disable-output $ll"
	if [ "$have_hyperfine" = yes ]; then
		hyperfine -N --style none --warmup 1 --runs "$RUNS" --ignore-failure \
			--export-json "$work/hf-$size.json" --export-markdown "$work/hf-$size.md" \
			-n simple "$c_simple" -n deg1 "$c_deg1" -n deg2 "$c_deg2" -n opt-16 "$c_opt" \
			>/dev/null
		ms=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["results"]
print(" ".join("%.1f" % (x["mean"] * 1000) for x in r))' "$work/hf-$size.json")
	else
		ms="$(time_loop "$c_simple") $(time_loop "$c_deg1") $(time_loop "$c_deg2") $(time_loop "$c_opt_sh")"
	fi
	set -- $ms
	rows="$rows| $n | $ng | $1 | $2 | $3 | $4 |
"
done

echo "musimd: $MUSIMD; seed $SEED; mean of $RUNS runs ($( [ "$have_hyperfine" = yes ] && echo hyperfine || echo 'date loop'))"
echo
echo "| instructions | GSA instructions | simple ms | deg1 ms | deg2 ms | opt-16 ms |"
echo "|---:|---:|---:|---:|---:|---:|"
printf '%s' "$rows"
