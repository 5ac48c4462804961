#!/usr/bin/env python3
"""The explorer against SPIN on random concurrent programs (issue 10,
deliverable 6): for each seed, `musimd gen --concurrent` (spin locks, the
SIMT-safe lock, flags, ticket locks, atomic counters, barriers, some under
a divergent branch), then `musimd explore --model mimd` and SPIN on
`musimd emit-promela`'s model (the searches of tests/promela_spin.py):
the verdicts must agree.

Usage: explore_spin_random.py MUSIMD [--count N] [--first SEED]

Exits 77 (meson's skip) when spin or a C compiler is missing.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from promela_spin import spin_verdict  # noqa: E402  (the SPIN side, shared)


def main():
    args = sys.argv[1:]
    musimd = os.path.abspath(args[0])
    count, first = 12, 1
    if "--count" in args:
        count = int(args[args.index("--count") + 1])
    if "--first" in args:
        first = int(args[args.index("--first") + 1])
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not shutil.which("spin") or not cc:
        print("skip: spin or a C compiler is missing (setup.sh installs them)")
        return 77
    agree, skipped, failures = 0, 0, []
    for seed in range(first, first + count):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "p.simd")
            gen = subprocess.run([musimd, "gen", "--concurrent", "--seed", str(seed)],
                                 capture_output=True, text=True, check=True).stdout
            with open(src, "w") as f:
                f.write(gen)
            ex = subprocess.run([musimd, "explore", src, "--model", "mimd", "--json"],
                                capture_output=True, text=True, timeout=600)
            mine = json.loads(ex.stdout)["results"][0]["verdict"]
            em = subprocess.run([musimd, "emit-promela", src], capture_output=True, text=True)
            if em.returncode != 0:
                failures.append("seed %d: emit-promela exit %d: %s" % (seed, em.returncode, em.stderr[-300:]))
                continue
            theirs = spin_verdict(cc, em.stdout, d)
        if theirs.startswith("unknown") or theirs == "overflow" or mine == "unknown":
            skipped += 1
            print("skip seed %d: musimd %s, SPIN %s" % (seed, mine, theirs[:80]))
        elif theirs != mine:
            failures.append("seed %d (gen --concurrent): musimd explore says %s, SPIN %s" % (seed, mine, theirs))
        else:
            agree += 1
            print("ok   seed %d: %s" % (seed, mine))
    for f in failures:
        print("FAIL " + f)
    print("explore_spin_random: %d agree, %d skipped, %d disagree" % (agree, skipped, len(failures)))
    if agree == 0:
        print("FAIL: no verdict compared")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
