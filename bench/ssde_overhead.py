#!/usr/bin/env python3
"""The cost of SSDE (issue 12): steps and SIMD efficiency of the program
`musimd transform ssde` makes, against the same lock written SIMT-safe by
hand (ElTantawy's Fig. 3.6, examples/simt_safe_lock.simd), under ipdom,
for a range of thread counts in one warp (the thesis: SSDE costs 8.2-10.9 %
over a manual fix on its kernels).

Usage: bench/ssde_overhead.py MUSIMD [--threads 2,4,8,16]
"""
import json
import os
import subprocess
import sys
import tempfile

PAIRS = [("spin lock", "examples/spin_lock.simd", "examples/simt_safe_lock.simd")]


def run(musimd, path, threads):
    r = subprocess.run([musimd, "run", path, "--model", "ipdom", "--threads", str(threads),
                        "--warpsize", str(threads), "--json"], capture_output=True, text=True)
    d = json.loads(r.stdout)
    if d["status"] != "ok":
        raise SystemExit("%s with %d threads: %s" % (path, threads, d["status"]))
    return d["steps"], d["simd_efficiency"], d["shared"]


def main():
    args = sys.argv[1:]
    musimd = os.path.abspath(args[0])
    threads = [2, 4, 8, 16]
    if "--threads" in args:
        threads = [int(t) for t in args[args.index("--threads") + 1].split(",")]
    print("| program | threads | SSDE steps | hand-fixed steps | overhead | SSDE SIMD eff. | hand-fixed SIMD eff. |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as d:
        for name, prog, fixed in PAIRS:
            out = os.path.join(d, "ssde.simd")
            with open(out, "w") as f:
                f.write(subprocess.run([musimd, "transform", "ssde", prog], capture_output=True,
                                       text=True, check=True).stdout)
            for t in threads:
                s1, e1, m1 = run(musimd, out, t)
                s2, e2, m2 = run(musimd, fixed, t)
                if m1 != m2:
                    raise SystemExit("%s, %d threads: memory %s after SSDE, %s hand-fixed" % (name, t, m1, m2))
                print("| %s | %d | %d | %d | %+.1f %% | %.3f | %.3f |"
                      % (name, t, s1, s2, 100.0 * (s1 - s2) / s2, e1, e2))


if __name__ == "__main__":
    main()
