#!/usr/bin/env python3
"""The schedule explorer against SPIN (issue 10, deliverable 7).

Usage: explore_spin.py MUSIMD [--programs NAME,...] [--threads 2,3,...] [--cc CC]

For each program of examples/ (default: spin_lock ticket_lock done_flag
producer_consumer two_locks) and each thread count, under the mimd model
(every thread its own warp, the semantics both tools share):

  musimd     `musimd explore FILE --model mimd --threads T --json`, with its
             partial-order reduction (the default) and with --no-reduction;
  SPIN       `musimd emit-promela FILE --threads T > M.pml`, `spin -a M.pml`,
             `cc -O2` of pan.c (the safety search -DNOCLAIM, and the ltl one),
             then the searches tests/promela_spin.py runs to reach the same
             verdict (safety; fair acceptance `-a -f`; unfair `-a`), with
             SPIN's partial-order reduction on (its default);
  SPIN -DNOREDUCE  the fair acceptance search again without partial-order
             reduction, for the states per second of pan's search alone.

Reported, in one run: the verdicts (they must agree), time to verdict from
the source file (CPU time, user + system, of every process involved:
musimd's one command; for SPIN the export, spin -a, the C compiler and the
pan runs), states, states per second of the search alone (musimd's own
clock for the search; pan's "elapsed time"), and bytes per stored state
(musimd: its packed states; pan: its state vector). The ratios are SPIN's
number over musimd's (time) or musimd's over SPIN's (states/s).
"""
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

PROGRAMS = ["spin_lock", "ticket_lock", "done_flag", "producer_consumer", "two_locks"]
PAN_LIMITS = ["-m1000000", "-w24"]


def cpu_run(argv, cwd=None, stdout=subprocess.PIPE):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(argv, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=3600)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def musimd_row(musimd, path, t, reduce):
    argv = [musimd, "explore", path, "--model", "mimd", "--threads", str(t), "--json"]
    if not reduce:
        argv.append("--no-reduction")
    p, cpu = cpu_run(argv)
    r = json.loads(p.stdout)["results"][0]
    sps = r["states"] / r["seconds"] if r["seconds"] > 0 else float("nan")
    return {"verdict": r["verdict"], "cpu": cpu, "states": r["states"], "sps": sps, "bps": r["bytes_per_state"]}


def pan_numbers(out):
    st = re.search(r"(\d+) states, stored", out)
    el = re.search(r"pan: elapsed time ([\d.e+-]+) seconds", out)
    sv = re.search(r"State-vector (\d+) byte", out)
    return (int(st.group(1)) if st else 0, float(el.group(1)) if el else 0.0, int(sv.group(1)) if sv else 0)


def spin_row(musimd, cc, path, t, work):
    total = 0.0
    p, c = cpu_run([musimd, "emit-promela", path, "--threads", str(t)])
    total += c
    if p.returncode != 0:
        return {"verdict": "export failed: " + p.stderr[-200:]}
    with open(os.path.join(work, "M.pml"), "w") as f:
        f.write(p.stdout)
    flags = re.findall(r"-DVECTORSZ=\d+", p.stdout)
    p, c = cpu_run(["spin", "-a", "M.pml"], cwd=work)
    total += c
    builds = {"pan_safety": ["-DNOCLAIM"], "pan": [], "pan_noreduce": ["-DNOREDUCE"]}
    for name, extra in builds.items():
        p, c = cpu_run([cc, "-O2", "-w"] + flags + extra + ["-o", name, "pan.c"], cwd=work)
        if name != "pan_noreduce":
            total += c
        if p.returncode != 0:
            return {"verdict": "pan does not compile: " + p.stderr[-200:]}
    p, c = cpu_run(["./pan_safety"] + PAN_LIMITS, cwd=work)
    total += c
    verdict = None
    if re.search(r"pan:\d+: (assertion violated\s+!\(stuck\)|invalid end state)", p.stdout):
        verdict = "deadlock"
    states = pan_numbers(p.stdout)[0]
    if verdict is None:
        p, c = cpu_run(["./pan", "-a", "-f"] + PAN_LIMITS, cwd=work)
        total += c
        states = max(states, pan_numbers(p.stdout)[0])
        if "acceptance cycle" in p.stdout:
            verdict = "livelock"
    if verdict is None:
        p, c = cpu_run(["./pan", "-a"] + PAN_LIMITS, cwd=work)
        total += c
        verdict = "terminates-fair" if "acceptance cycle" in p.stdout else "terminates"
    # pan's search alone, without its partial-order reduction
    p, _ = cpu_run(["./pan_noreduce", "-a", "-f"] + PAN_LIMITS, cwd=work)
    nst, el, sv = pan_numbers(p.stdout)
    return {"verdict": verdict, "cpu": total, "states": states, "nr_states": nst,
            "sps": nst / el if el > 0 else float("nan"), "bps": sv}


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    musimd = os.path.abspath(args[0])
    programs, threads, cc = PROGRAMS, [2, 3, 4], os.environ.get("CC", "cc")
    i = 1
    while i < len(args):
        if args[i] == "--programs":
            programs = args[i + 1].split(",")
            i += 2
        elif args[i] == "--threads":
            threads = [int(x) for x in args[i + 1].split(",")]
            i += 2
        elif args[i] == "--cc":
            cc = args[i + 1]
            i += 2
        else:
            print("explore_spin.py: unknown argument %r" % args[i], file=sys.stderr)
            return 2
    if not shutil.which("spin"):
        print("explore_spin.py: spin is not installed (setup.sh installs it)", file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print("| program | threads | verdict | musimd s | SPIN s | SPIN/musimd time | musimd states (POR / full) | "
          "SPIN states (POR / full) | musimd states/s (full) | pan states/s (no POR) | musimd/pan states/s | "
          "bytes/state musimd / pan |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    disagree = 0
    for prog in programs:
        path = os.path.join(root, "examples", prog + ".simd")
        for t in threads:
            red = musimd_row(musimd, path, t, True)
            full = musimd_row(musimd, path, t, False)
            with tempfile.TemporaryDirectory() as work:
                sp = spin_row(musimd, cc, path, t, work)
            same = red["verdict"] == full["verdict"] == sp["verdict"]
            disagree += not same
            verdict = red["verdict"] if same else "DISAGREE musimd %s/%s SPIN %s" % (
                red["verdict"], full["verdict"], sp["verdict"])
            if "cpu" not in sp:
                print("| %s | %d | %s | %.3f | - | - | %d / %d | - | %.0f | - | - | %.0f / - |" % (
                    prog, t, verdict, red["cpu"], red["states"], full["states"], full["sps"], full["bps"]))
                continue
            print("| %s | %d | %s | %.3f | %.3f | %.1f× | %d / %d | %d / %d | %.0f | %.0f | %.2f× | %.0f / %d |" % (
                prog, t, verdict, red["cpu"], sp["cpu"], sp["cpu"] / red["cpu"] if red["cpu"] > 0 else float("nan"),
                red["states"], full["states"], sp["states"], sp["nr_states"], full["sps"], sp["sps"],
                full["sps"] / sp["sps"] if sp["sps"] > 0 else float("nan"), full["bps"], sp["bps"]))
            sys.stdout.flush()
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
