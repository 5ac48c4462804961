#!/usr/bin/env python3
"""musimd on large inputs: a guard against non-linear time and deep recursion.

    python3 tests/big_inputs.py MUSIMD [--budget SECONDS] [--commands LIST]
                                       [--scale F] [--keep DIR] [-v]

For each shape of bench/big_inputs.py at the size issue 9 names (10^6
instructions for the long if-chains, the diamonds and straight-line code,
10^4 nested ifs, 10^4 nested loops, 10^5 branches into one block, 10^5
variables live across 10^5 if-thens), it runs

    MUSIMD check FILE           must say "FILE: ok (N instructions)", exit 0
    MUSIMD cfg FILE             exit 0; the text at most 300 bytes an instruction
    MUSIMD emit-llvm GSAFILE    on the shape in GSA form (bench/big_inputs.py
                                --gsa): exit 0, a `define` and one `ret`
    MUSIMD gsa FILE             (with --commands ...,gsa) exit 0
    MUSIMD analyze GSAFILE      (with --commands ...,analyze) exit 0

each under a budget of CPU time (default 60 s: a generous guard — a
quadratic pass takes minutes on these inputs, a linear one a few seconds;
the real numbers are in bench/README.md, timing checks belong in
benchmarks; CPU time, so that a busy machine does not fail the test), and
reports the wall-clock and CPU time of every run. A crash (deep recursion
overflowing the stack), a non-zero exit or a run over the budget fails the
test.

--commands takes a comma-separated subset of check,cfg,emit-llvm,gsa,analyze
(default check,cfg,emit-llvm); --scale multiplies every size (e.g. 0.1 for
a quick look). Exit status: 0 all passed, 1 some run failed, 2 usage error.
It is the meson suite `long` (not in ./test.sh's default run):

    meson test -C build --suite long
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "bench", "big_inputs.py")

# shape, N: the sizes of issue 9
CASES = [
    ("chain", 250000),        # 10^6 instructions, a dominator tree 2.5·10^5 deep
    ("diamonds", 90000),      # 10^6 instructions, 9·10^4 variables
    ("straight", 1000000),    # 10^6 instructions in one block
    ("nested-if", 10000),     # 10^4 nested ifs
    ("nested-loop", 10000),   # 10^4 nested loops
    ("branches", 100000),     # 10^5 branches into one block
    ("live", 100000),         # 10^5 variables live across 10^5 if-thens
]
COMMANDS = ("check", "cfg", "emit-llvm", "gsa", "analyze")


def run(musimd, args, budget, out_path):
    """(exit status or None on timeout, wall seconds, CPU seconds, stderr).
    The budget is on CPU time (RLIMIT_CPU: SIGXCPU past it), which other jobs
    on a shared machine hardly change; ten times it in wall-clock time
    catches a run that waits without computing."""
    def limit():
        cpu = int(budget) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(out_path, "wb") as out:
        try:
            p = subprocess.run([musimd] + args, stdout=out, stderr=subprocess.PIPE, timeout=10 * budget,
                               preexec_fn=limit)
        except subprocess.TimeoutExpired:
            return None, time.monotonic() - t0, float("nan"), b""
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return p.returncode, wall, cpu, p.stderr


def tail(path, n=4096):
    with open(path, "rb") as f:
        f.seek(max(os.path.getsize(path) - n, 0))
        return f.read().decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("musimd")
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--commands", default="check,cfg,emit-llvm")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--keep")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    cmds = [c for c in a.commands.split(",") if c]
    if any(c not in COMMANDS for c in cmds) or not cmds:
        ap.error("--commands takes a subset of " + ",".join(COMMANDS))
    work = a.keep or tempfile.mkdtemp(prefix="musimd-big-")
    os.makedirs(work, exist_ok=True)
    failed = 0
    print("%-12s %8s  %-10s %8s %8s  %s" % ("shape", "N", "command", "wall s", "CPU s", "result"))
    for shape, n in CASES:
        n = max(int(n * a.scale), 1)
        plain = os.path.join(work, "%s-%d.simd" % (shape, n))
        gsa = os.path.join(work, "%s-%d.gsa.simd" % (shape, n))
        subprocess.run([sys.executable, GEN, shape, str(n), "-o", plain], check=True)
        subprocess.run([sys.executable, GEN, shape, str(n), "--gsa", "-o", gsa], check=True)
        for cmd in cmds:
            args = {"check": ["check", plain], "cfg": ["cfg", plain], "emit-llvm": ["emit-llvm", gsa],
                    "gsa": ["gsa", plain], "analyze": ["analyze", gsa]}[cmd]
            out = os.path.join(work, "out.txt")
            rc, secs, cpu, err = run(a.musimd, args, a.budget, out)
            problem = None
            if rc is None:
                problem = "over %g s of wall-clock time" % (10 * a.budget)
            elif cpu > a.budget:
                problem = "over the budget of %g s of CPU time" % a.budget
            elif rc < 0:
                problem = "killed by signal %d (a stack overflow is SIGSEGV)" % -rc
            elif rc != 0:
                problem = "exit %d: %s" % (rc, err.decode("utf-8", "replace")[-2000:])
            else:
                size = os.path.getsize(out)
                text = tail(out)
                if cmd == "check":
                    m = re.search(r": ok \((\d+) instructions", text)
                    if not m:
                        problem = "no 'ok (N instructions)': %s" % text[-500:]
                elif cmd == "cfg":
                    with open(plain, encoding="utf-8") as f:
                        nins = sum(1 for line in f if line.strip() and not line.lstrip().startswith(("#", ".")))
                    if size > 300 * nins:
                        problem = "%d bytes of output for %d instructions: not linear" % (size, nins)
                elif cmd == "emit-llvm":
                    with open(out, encoding="utf-8") as f:
                        body = f.read()
                    if "define " not in body or body.count("ret void") != 1:
                        problem = "no kernel with one return in the output"
            if problem:
                failed += 1
            print("%-12s %8d  %-10s %8.2f %8.2f  %s" % (shape, n, cmd, secs, cpu, problem or "ok"), flush=True)
            if a.verbose and problem and os.path.exists(out):
                print(tail(out, 1000))
    if not a.keep:
        for f in os.listdir(work):
            os.unlink(os.path.join(work, f))
        os.rmdir(work)
    print("%d run(s) failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
