#!/usr/bin/env python3
"""The cost of the three cures of SIMT-induced deadlock (issue 12): per
example that deadlocks under a reconvergence stack, steps (warp
instructions) and SIMD efficiency of

  - SSDE: `musimd transform ssde` run under ipdom,
  - AWARE with Algorithm 5's delayed reconvergence points
    (`musimd transform ssde --delays`; none when Algorithm 5 moves none),
  - AWARE with a timeout (--aware-timeout T for each T of --timeouts),

against the same computation fixed by hand (bench/fixed/*.simd, each a
SIMT-safe rewrite in the thesis's manner) under ipdom, one warp of each
thread count (the thesis: SSDE costs 8.2-10.9 % over a manual fix, AWARE
with delays is on par). Before timing anything it checks with the
explorer that every hand-fixed twin terminates under ipdom on every
schedule and both path orders (2 threads), and every run must end and
leave the hand-fixed program's memory.

Usage: bench/deadlock_cures.py MUSIMD [--timeouts 10,100] [--max-threads N]
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, the example as written, its hand-fixed twin, thread counts)
PAIRS = [
    ("spin lock", "examples/spin_lock.simd", "examples/simt_safe_lock.simd", [2, 4, 8, 16]),
    ("ticket lock", "examples/ticket_lock.simd", "bench/fixed/ticket_lock.simd", [2, 4, 8, 16]),
    ("nested locks", "examples/nested_locks.simd", "bench/fixed/nested_locks.simd", [2, 4, 8]),
    ("lock with break", "examples/lock_break.simd", "bench/fixed/lock_break.simd", [2, 4, 8]),
    ("done flag", "examples/done_flag.simd", "bench/fixed/done_flag.simd", [2, 4, 8]),
    ("mutual flags", "examples/mutual_flags.simd", "bench/fixed/mutual_flags.simd", [2, 4, 8]),
    ("wait/signal (BH-ST)", "examples/wait_signal.simd", "examples/wait_signal_safe.simd", [2]),
]


def out(argv):
    r = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    if r.returncode not in (0, 1):
        raise SystemExit("%s: exit %d\n%s" % (" ".join(argv), r.returncode, r.stderr))
    return r.stdout


def run(musimd, path, threads, extra):
    argv = [musimd, "run", path, "--threads", str(threads), "--warpsize", str(threads), "--json"] + extra
    d = json.loads(out(argv))
    if d["status"] != "ok":
        raise SystemExit("%s: %s" % (" ".join(argv), d["status"]))
    return d["steps"], d["simd_efficiency"], d["shared"]


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    musimd = os.path.abspath(args[0])
    timeouts = [10, 100]
    if "--timeouts" in args:
        timeouts = [int(t) for t in args[args.index("--timeouts") + 1].split(",")]
    most = int(args[args.index("--max-threads") + 1]) if "--max-threads" in args else 1 << 30
    for name, prog, fixed, _ in PAIRS:
        v = json.loads(out([musimd, "explore", fixed, "--threads", "2", "--model", "ipdom",
                            "--path-order", "both", "--json"]))
        verdict = v["results"][0]["verdict"]
        if verdict not in ("terminates", "terminates-fair"):
            raise SystemExit("%s: the hand-fixed %s does not terminate under ipdom: %s" % (name, fixed, verdict))
    print("| program | threads | hand-fixed steps (SIMD eff.) | SSDE | AWARE, delays | "
          + " | ".join("AWARE, timeout %d" % t for t in timeouts) + " |")
    print("|---|---:|---:|---:|---:|" + "---:|" * len(timeouts))
    measured = 0
    with tempfile.TemporaryDirectory() as d:
        for name, prog, fixed, threads in PAIRS:
            ssde = os.path.join(d, "ssde.simd")
            with open(ssde, "w") as f:
                f.write(out([musimd, "transform", "ssde", prog]))
            delays = out([musimd, "transform", "ssde", "--delays", prog]).strip()
            configs = [(ssde, ["--model", "ipdom"]),
                       (prog, ["--model", "aware"] + (["--aware-delay", delays] if delays else []))]
            configs += [(prog, ["--model", "aware", "--aware-timeout", str(t)]) for t in timeouts]
            for t in threads:
                if t > most:
                    continue
                s0, e0, m0 = run(musimd, fixed, t, ["--model", "ipdom"])
                cells = ["%d (%.3f)" % (s0, e0)]
                for path, extra in configs:
                    s, e, mem = run(musimd, path, t, extra)
                    if mem != m0:
                        raise SystemExit("%s, %d threads, %s: memory %s, hand-fixed %s"
                                         % (name, t, " ".join(extra), mem, m0))
                    cells.append("%+.1f %% (%.3f)" % (100.0 * (s - s0) / s0, e))
                measured += 1
                label = name + (", delays %s" % delays if delays and t == threads[0] else "")
                print("| %s | %d | %s |" % (label, t, " | ".join(cells)))

    if measured == 0:
        raise SystemExit("no run measured (--max-threads below every thread count)")


if __name__ == "__main__":
    main()
