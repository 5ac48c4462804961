#!/usr/bin/env python3
"""The interpreter against native code (issue 11; bench/README.md §3).

    python3 bench/interp.py [BUILD/musimd] [--reps N] [--quick] [--only NAME,...]

Compiles the native twins of bench/interp/*.simd (scalar C, one thread
after another, gcc -O2; the structure-of-arrays twin of the uniform loop
with -O3 -march=native), checks that every twin leaves the same memory as
musimd (a checksum of Σ), then times pairs of runs interleaved (A, B, A,
B, ...) and prints the median of the ratios of their CPU times (user +
system of the child, from wait4): on a machine shared with other work the
ratio of two runs taken side by side is what stays put, not the times.
Then the cost per thread instruction from 1 to 2^20 threads, and peak
memory against what --max-memory accounts. Not part of the test suite.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
D = os.path.join(HERE, "interp")


def run(cmd, capture=False, stdin=None):
    """Run cmd; (cpu seconds, stdout bytes or their count, exit status)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
    if stdin:
        p.stdin.write(stdin)
        p.stdin.close()
    out, n = [], 0
    while True:
        b = p.stdout.read(1 << 20)
        if not b:
            break
        n += len(b)
        if capture:
            out.append(b)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime, (b"".join(out) if capture else n), p.returncode


def peak_rss(cmd):
    """Peak resident memory of cmd in KiB (GNU time's %M: the child's own,
    not the forking Python's), and its exit status."""
    with tempfile.NamedTemporaryFile("r") as f:
        p = subprocess.run(["/usr/bin/time", "-o", f.name, "-f", "%M", *cmd],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return int(f.read().split()[-1]), p.returncode


def checksum_json(j, ncells):
    sh = json.loads(j)["shared"]
    s = 0
    for a in range(ncells):
        s = (s * 31 + sh.get(str(a), 0)) % 2**64
    return s - 2**64 if s >= 2**63 else s


def pair(a, b, reps, stdin_a=None):
    """Median ratio cpu(a)/cpu(b) over reps interleaved pairs, and the medians."""
    ra, rb, q = [], [], []
    for _ in range(reps):
        ta = run(a, stdin=stdin_a)[0]
        tb = run(b)[0]
        ra.append(ta)
        rb.append(tb)
        q.append(ta / max(tb, 1e-6))
    return statistics.median(q), statistics.median(ra), statistics.median(rb)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("musimd", nargs="?", default="build/musimd")
    ap.add_argument("--reps", type=int, default=5, help="pairs per ratio (default 5)")
    ap.add_argument("--quick", action="store_true", help="3 pairs, scaling to 2^18 only")
    ap.add_argument("--only", default="", help="comma-separated rows: uniform,divergent,memory,"
                    "warps,mimd,gsa,trace,repl,scaling,memory-peak")
    o = ap.parse_args()
    M = os.path.abspath(o.musimd)
    reps = 3 if o.quick else o.reps
    only = set(o.only.split(",")) if o.only else None
    want = lambda k: only is None or k in only
    cc = os.environ.get("CC", "gcc")
    tmp = tempfile.mkdtemp(prefix="musimd-bench-")
    try:
        nat = {}
        for name, flags, src in [
            ("lcg", ["-O2"], os.path.join(HERE, "native_lcg.c")),
            ("lcg_soa", ["-O3", "-march=native"], os.path.join(D, "lcg_soa.c")),
            ("divergent", ["-O2"], os.path.join(D, "divergent.c")),
            ("affine", ["-O2"], os.path.join(D, "affine.c")),
            ("scattered", ["-O2"], os.path.join(D, "scattered.c")),
            ("histogram", ["-O2"], os.path.join(D, "histogram.c")),
            ("barrier", ["-O2"], os.path.join(D, "barrier.c")),
        ]:
            nat[name] = os.path.join(tmp, name)
            subprocess.run([cc, *flags, "-I", D, "-o", nat[name], src], check=True)
        lcg = os.path.join(HERE, "lcg.simd")
        simd = {k: os.path.join(D, k + ".simd") for k in
                ("divergent", "affine", "scattered", "histogram", "barrier")}
        simd["lcg"] = lcg
        gsa = os.path.join(tmp, "divergent_gsa.simd")
        with open(gsa, "wb") as f:
            f.write(subprocess.run([M, "gsa", simd["divergent"]], check=True,
                                   stdout=subprocess.PIPE).stdout)
        simd["divergent_gsa"] = gsa

        # the checksums: every twin leaves musimd's memory
        cells = {"lcg": 1024, "lcg_soa": 1024, "divergent": 1024, "affine": 8192,
                 "scattered": 65536, "histogram": 2048, "barrier": 1024}
        checks = [(k, simd.get(k, lcg), []) for k in cells]
        checks += [("barrier", simd["barrier"], ["--warpsize", "1024"]),
                   ("divergent", simd["divergent"], ["--model", "mimd", "--max-steps", "1000000000"]),
                   ("divergent", simd["divergent_gsa"], [])]
        bad = False
        for k, f, extra in checks:
            if k == "lcg":
                # native_lcg prints the checksum over the threads' cells as
                # s*31 + Σ[t] (the same formula)
                pass
            n = int(subprocess.run([nat[k]], stdout=subprocess.PIPE, check=True).stdout)
            j = subprocess.run([M, "run", f, "--json", *extra], stdout=subprocess.PIPE).stdout
            c = checksum_json(j, cells[k])
            ok = c == n
            bad |= not ok
            print("checksum %-10s %-22s native %21d musimd %21d %s" %
                  (k, os.path.basename(f) + (" " + " ".join(extra) if extra else ""), n, c,
                   "ok" if ok else "MISMATCH"))
        if bad:
            sys.exit("checksums differ")

        q = lambda f, *extra: [M, "run", f, "--quiet", *extra]
        rows = []

        def row(label, r, target):
            rows.append((label, r[0], target))
            print("%-58s %8.2fx   (%.3f s / %.3f s)  target %s" % (label, r[0], r[1], r[2], target),
                  flush=True)

        print("\nmedian CPU-time ratios of %d paired runs:" % reps)
        if want("uniform"):
            row("uniform int64 loop / native -O2 scalar", pair(q(lcg), [nat["lcg"]], reps), "<= 1.5")
            row("uniform int64 loop / SoA -O3 -march=native", pair(q(lcg), [nat["lcg_soa"]], reps), "<= 8")
        if want("divergent"):
            row("divergent (tid trip counts, nested if) / native -O2",
                pair(q(simd["divergent"]), [nat["divergent"]], reps), "<= 3")
        if want("memory"):
            for k in ("affine", "scattered", "histogram"):
                row("shared memory, %s / native -O2" % k, pair(q(simd[k]), [nat[k]], reps), "<= 5")
        if want("warps"):
            row("256 warps of 4, barrier loop / one warp of 1024",
                pair(q(simd["barrier"]), q(simd["barrier"], "--warpsize", "1024"), reps), "<= 3")
        if want("mimd"):
            row("divergent --model mimd / --model sync",
                pair(q(simd["divergent"], "--model", "mimd", "--max-steps", "1000000000"),
                     q(simd["divergent"]), reps), "<= 3")
        if want("gsa"):
            row("divergent from its GSA form / plain form",
                pair(q(simd["divergent_gsa"]), q(simd["divergent"]), reps), "<= 1.5")
        if want("trace"):
            for f, label in [(lcg, "lcg, 10^5 steps x 1024 threads"),
                             (simd["divergent"], "divergent, 1.65*10^6 steps x <= 64 thr")]:
                a = [M, "run", f, "--json", "--trace", "--trace-limit", "0"]
                b = [M, "run", f, "--json"]
                row("run --json --trace / run --json (%s)" % label, pair(a, b, reps), "<= 10")
                nbytes = run(a)[1]
                rss = peak_rss(a)[0]
                print("    trace: %.1f MB of output, peak RSS %.1f MiB" % (nbytes / 1e6, rss / 1024))
        if want("repl"):
            row("repl: continue / run (lcg)",
                pair([M, "repl", lcg], q(lcg), reps, stdin_a=b"continue\nquit\n"), "<= 1.2")

        if want("scaling"):
            print("\ncost per thread instruction, lcg.simd, 2^24 loop iterations in all "
                  "(warps of min(T, 1024); ratio: paired with a run of 1024 threads):")
            top = 18 if o.quick else 20
            ref = None
            for e in range(0, top + 1, 2):
                T = 1 << e
                n = max(1, (1 << 24) // T)
                def cmd(T, n):
                    return [M, "run", lcg, "--quiet", "--threads", str(T), "--warpsize",
                            str(min(T, 1024)), "--param", "n=%d" % n, "--max-steps", "1000000000"]
                ti = lambda T, n: 8 * n * T + 5 * T  # the loop's 8 instructions, the rest
                ratios, costs = [], []
                for _ in range(3 if e >= 16 else reps):
                    t = run(cmd(T, n))[0]
                    r = run(cmd(1024, (1 << 24) // 1024))[0]
                    c = t / ti(T, n)
                    costs.append(c)
                    ratios.append(c / (r / ti(1024, (1 << 24) // 1024)))
                print("  threads 2^%-2d  n %-8d  %7.2f ns per thread instruction  %6.2fx 1024 threads"
                      % (e, n, statistics.median(costs) * 1e9, statistics.median(ratios)), flush=True)
                if e == 20:
                    rows.append(("cost per thread instruction, 2^20 / 1024 threads",
                                 statistics.median(ratios), "<= 2"))

        if want("memory-peak"):
            print("\npeak memory against --max-memory 64 (MiB; the run stops at the budget):")
            prog = os.path.join(tmp, "sparse.simd")
            with open(prog, "w") as f:
                f.write(".threads 262144\n.warpsize 32\n.memory zero\n       i = 0\n"
                        "loop:  a = tid * 4096\n       a = a + i\n       mem[a] = i\n"
                        "       i = i + 1\n       jump loop\n")
            for label, cmd in [
                ("262144 threads, lcg (lane tables)",
                 [M, "run", lcg, "--quiet", "--threads", "262144", "--warpsize", "32",
                  "--param", "n=4", "--max-memory", "64"]),
                ("262144 threads, a page per thread until the budget",
                 [M, "run", prog, "--quiet", "--max-memory", "64"]),
            ]:
                rss, rc = peak_rss(cmd)
                r = rss / 1024 / 64
                print("  %-52s peak RSS %7.1f MiB = %5.2fx --max-memory (exit %d)" %
                      (label, rss / 1024, r, rc))
                rows.append(("peak RSS / --max-memory: " + label, r, "<= 2"))

        print("\nsummary:")
        for label, r, target in rows:
            lim = float(target.split()[-1])
            print("  %-66s %8.2fx  %-7s %s" % (label, r, target, "met" if r <= lim else "NOT met"))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
