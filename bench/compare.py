#!/usr/bin/env python3
"""Two musimd binaries on the same commands, interleaved: the minimum CPU
time (user + system of the child) of N runs of each, and new / old.

    python3 bench/compare.py OLD NEW [-n 5] [--cmd 'run --quiet FILE' ...]

Without --cmd, the rows of bench/README.md's third round (interp.py's
workloads). On a machine shared with other work the minimum is steadier than
the median: load only ever adds time.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
D = os.path.join(HERE, "interp")


def cpu(cmd, allow_fail):
    """CPU seconds of cmd. A run that did not do its work stops the
    comparison instead of timing it: a usage or input error, a crash, and,
    unless allow_fail, a run that failed (exit 1: a limit stopped it, a
    deadlock, a stuck rule), whose time is that of a shorter run."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    if rc not in ((0, 1) if allow_fail else (0,)):
        sys.exit("compare.py: %s exited with %d:\n%s" % (" ".join(cmd), rc, err.decode(errors="replace")))
    return ru.ru_utime + ru.ru_stime, rc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("-n", type=int, default=5, help="runs of each (default 5)")
    ap.add_argument("--cmd", action="append", help="musimd arguments, split at spaces")
    ap.add_argument("--allow-fail", action="store_true",
                    help="time runs that end in failure (exit 1) too, as programs that deadlock do")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cmds = a.cmd
        if not cmds:
            gsa = os.path.join(tmp, "divergent_gsa.simd")
            with open(gsa, "wb") as f:
                f.write(subprocess.run([a.new, "gsa", os.path.join(D, "divergent.simd")],
                                       check=True, capture_output=True).stdout)
            div = os.path.join(D, "divergent.simd")
            bar = os.path.join(D, "barrier.simd")
            cmds = ["run --quiet " + os.path.join(HERE, "lcg.simd"),
                    "run --quiet " + div,
                    "run --quiet --model mimd --max-steps 1000000000 " + div,
                    "run --quiet " + gsa,
                    "run --quiet " + bar,
                    "run --quiet --warpsize 1024 " + bar,
                    "run --quiet " + os.path.join(D, "affine.simd"),
                    "run --json " + div,
                    "run --json --trace --trace-limit 0 " + div]
        print("%8s %8s %7s  %s" % ("old s", "new s", "new/old", "musimd ..."))
        for c in cmds:
            args = c.split()
            best = [float("inf"), float("inf")]
            rcs = set()
            for _ in range(a.n):
                for j, m in enumerate((a.old, a.new)):
                    t, rc = cpu([m] + args, a.allow_fail)
                    best[j] = min(best[j], t)
                    rcs.add(rc)
            note = "" if rcs == {0} else "  (exit status %s)" % "/".join(map(str, sorted(rcs)))
            print("%8.3f %8.3f %6.2fx  %s%s" % (best[0], best[1], best[1] / best[0], c.replace(tmp + "/", ""), note))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
