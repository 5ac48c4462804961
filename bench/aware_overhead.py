#!/usr/bin/env python3
"""The cost of AWARE (issue 12): steps and SIMD efficiency of the spin lock
run as written under --model aware, cured by Algorithm 5's delayed
reconvergence point (`musimd transform ssde --delays`) or by a timeout,
against the same lock written SIMT-safe by hand (ElTantawy's Fig. 3.6,
examples/simt_safe_lock.simd) under ipdom and the SSDE-transformed program
under ipdom, for a range of thread counts in one warp (the thesis: AWARE
with delays performs on par with SSDE). Every run must finish and leave
the hand-fixed program's memory.

Usage: bench/aware_overhead.py MUSIMD [--threads 2,4,8,16] [--timeouts 10,100]
"""
import json
import os
import subprocess
import sys
import tempfile

PROG, FIXED = "examples/spin_lock.simd", "examples/simt_safe_lock.simd"


def run(musimd, path, threads, extra):
    argv = [musimd, "run", path, "--threads", str(threads), "--warpsize", str(threads), "--json"] + extra
    d = json.loads(subprocess.run(argv, capture_output=True, text=True).stdout)
    if d["status"] != "ok":
        raise SystemExit("%s: %s" % (" ".join(argv), d["status"]))
    return d["steps"], d["simd_efficiency"], d["shared"]


def main():
    args = sys.argv[1:]
    musimd = os.path.abspath(args[0])
    threads = [2, 4, 8, 16]
    timeouts = [10, 100]
    if "--threads" in args:
        threads = [int(t) for t in args[args.index("--threads") + 1].split(",")]
    if "--timeouts" in args:
        timeouts = [int(t) for t in args[args.index("--timeouts") + 1].split(",")]
    delays = subprocess.run([musimd, "transform", "ssde", "--delays", PROG], capture_output=True, text=True,
                            check=True).stdout.strip()
    configs = [("aware, delays %s" % delays, PROG, ["--model", "aware", "--aware-delay", delays])]
    configs += [("aware, timeout %d" % t, PROG, ["--model", "aware", "--aware-timeout", str(t)]) for t in timeouts]
    with tempfile.TemporaryDirectory() as d:
        ssde = os.path.join(d, "ssde.simd")
        with open(ssde, "w") as f:
            f.write(subprocess.run([musimd, "transform", "ssde", PROG], capture_output=True, text=True,
                                   check=True).stdout)
        configs.append(("SSDE, ipdom", ssde, ["--model", "ipdom"]))
        print("| run | threads | steps | hand-fixed steps | overhead | SIMD eff. | hand-fixed SIMD eff. |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for t in threads:
            s0, e0, m0 = run(musimd, FIXED, t, ["--model", "ipdom"])
            for name, path, extra in configs:
                s, e, mem = run(musimd, path, t, extra)
                if mem != m0:
                    raise SystemExit("%s, %d threads: memory %s, hand-fixed %s" % (name, t, mem, m0))
                print("| %s | %d | %d | %d | %+.1f %% | %.3f | %.3f |" % (name, t, s, s0, 100.0 * (s - s0) / s0, e, e0))


if __name__ == "__main__":
    main()
