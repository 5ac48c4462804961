#!/bin/sh
# analysis_scaling.sh [MUSIMD] — how loading, GSA conversion and the
# divergence analyses scale from 10^3 to 10^6 instructions, next to LLVM 16's
# uniformity analysis on the same program.
#
# For each size N (SIZES, default "1000 10000 100000 1000000") it generates
#   P = `MUSIMD gen --seed SEED --size N`     (plain program)
#   G = `MUSIMD gsa P`                        (its GSA form)
#   L = `MUSIMD emit-llvm G`                  (G as an LLVM 16 AMDGPU kernel)
# and times, in one run, interleaved round by round (RUNS rounds after one
# warm-up round), each whole command with its output discarded:
#   check     MUSIMD check P
#   gsa       MUSIMD gsa P
#   analyze   MUSIMD analyze $ANALYZE_ARGS G
#   opt-16    OPT -passes='require<uniformity>' -disable-output L
# The time of a run is the CPU time (user + system) of the process, which
# other jobs on a shared machine disturb far less than the wall-clock time;
# the table gives the median of the rounds in ms, the time per instruction
# of P in µs (constant when the growth is linear), and opt-16's time divided
# by each musimd command's (the target of issue 9: analyze ≥ 5× at every
# size). WALL=1 uses wall-clock time instead.
#
# Environment: SIZES, SEED (default 1), RUNS (default 5), OPT (default
# opt-16), ANALYZE_ARGS (default empty: the affine analysis of degree 2),
# WALL, KEEP=DIR to keep the programs and the raw times (times.json).
set -eu

MUSIMD=${1:-build/musimd}
SIZES=${SIZES:-"1000 10000 100000 1000000"}
SEED=${SEED:-1}
RUNS=${RUNS:-5}
OPT=${OPT:-opt-16}
ANALYZE_ARGS=${ANALYZE_ARGS:-}
WALL=${WALL:-0}

command -v "$OPT" >/dev/null 2>&1 || { echo "analysis_scaling.sh: $OPT not found (OPT=...)" >&2; exit 2; }
if [ -n "${KEEP:-}" ]; then
	work=$KEEP
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/analysis_scaling.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi

for size in $SIZES; do
	"$MUSIMD" gen --seed "$SEED" --size "$size" >"$work/gen-$size.simd"
	"$MUSIMD" gsa "$work/gen-$size.simd" >"$work/gen-$size.gsa.simd"
	"$MUSIMD" emit-llvm "$work/gen-$size.gsa.simd" >"$work/gen-$size.ll"
done

python3 - "$MUSIMD" "$OPT" "$work" "$RUNS" "$WALL" "$ANALYZE_ARGS" $SIZES <<'EOF'
import json, os, resource, shlex, statistics, subprocess, sys, time

musimd, opt, work, runs, wall, analyze_args = sys.argv[1:7]
sizes = [int(s) for s in sys.argv[7:]]
runs, wall = int(runs), wall == "1"

def count_ins(path):
    n = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if s and not s.startswith(("#", "//", ";", ".")):
                n += 1
    return n

def commands(size):
    p = os.path.join(work, "gen-%d.simd" % size)
    g = os.path.join(work, "gen-%d.gsa.simd" % size)
    l = os.path.join(work, "gen-%d.ll" % size)
    return [("check", [musimd, "check", p]),
            ("gsa", [musimd, "gsa", p]),
            ("analyze", [musimd, "analyze"] + shlex.split(analyze_args) + [g]),
            ("opt-16", [opt, "-passes=require<uniformity>", "-disable-output", l])]

def timed(argv):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("analysis_scaling.sh: exit %d: %s" % (p.returncode, " ".join(map(shlex.quote, argv))))
    if wall:
        return t1 - t0
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)

raw = {}
rows = []
for size in sizes:
    cmds = commands(size)
    times = {name: [] for name, _ in cmds}
    for rnd in range(runs + 1):
        for name, argv in cmds:
            t = timed(argv)
            if rnd > 0:  # round 0 warms the caches
                times[name].append(t)
    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    n = count_ins(os.path.join(work, "gen-%d.simd" % size))
    ng = count_ins(os.path.join(work, "gen-%d.gsa.simd" % size))
    raw[size] = {"instructions": n, "gsa_instructions": ng, "ms": times}
    rows.append((n, ng, med))

with open(os.path.join(work, "times.json"), "w") as f:
    json.dump(raw, f, indent=1)

print("musimd: %s; opt: %s; seed from gen; median of %d interleaved rounds; %s time"
      % (musimd, opt, runs, "wall-clock" if wall else "CPU (user+sys)"))
print("commands for N instructions (P = gen --size N, G = gsa P, L = emit-llvm G):")
for name, argv in commands(sizes[0]):
    print("  %-8s %s" % (name, " ".join(shlex.quote(a) for a in argv).replace("gen-%d" % sizes[0], "gen-N")))
print()
print("| instructions | GSA instructions | check ms | gsa ms | analyze ms | opt-16 ms "
      "| check µs/ins | gsa µs/ins | analyze µs/ins | opt-16 / check | opt-16 / gsa | opt-16 / analyze |")
print("|" + "---:|" * 12)
for n, ng, m in rows:
    print("| %d | %d | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f× | %.2f× | %.2f× |" % (
        n, ng, m["check"], m["gsa"], m["analyze"], m["opt-16"],
        1000 * m["check"] / n, 1000 * m["gsa"] / n, 1000 * m["analyze"] / n,
        m["opt-16"] / m["check"], m["opt-16"] / m["gsa"], m["opt-16"] / m["analyze"]))
EOF
