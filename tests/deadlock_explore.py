#!/usr/bin/env python3
"""Algorithm 1 (`musimd deadlock`) against the explorer (issue 12,
deliverable 4): on every example and on random concurrent programs
(`musimd gen --concurrent`), the static verdict (some loop suspected; as
published and with --divergence)
against the exhaustive one (`musimd explore --model ipdom,mimd
--path-order both --atomic-order any`: a deadlock or livelock under ipdom
that is SIMT-induced, i.e. mimd terminates; every side order at a
divergent branch and every order of the lanes at an atomic, as the
thesis's hardware leaves both open).

Programs outside the thesis's assumptions (§3.1: the program terminates
under mimd, and no barrier is divergent), and those the detector refuses
(an irreducible CFG, as policy_scs_trace.simd), are listed apart, not
counted. Prints the confusion matrix and
every false detection and miss; fails on a miss (a SIMT-induced deadlock
the detector does not suspect: the thesis observed none, and the
detector is meant to be conservative), on an explorer search that ends in
`unknown`, and on a crash.

Every program Algorithm 1 suspects (inside the assumptions) is then
transformed by SSDE (`musimd transform ssde`): the result must terminate
under ipdom on every schedule, both path orders and every lane order at
an atomic, not be suspected
again, and (the curated examples, which are race-free) leave the memory
the original leaves under mimd.

An example may say which loops the detector must suspect: `# expect
deadlock: LABEL...` (or `none`).

Usage: deadlock_explore.py MUSIMD EXAMPLES_DIR [--count N] [--first SEED]
       [--json FILE]   (the matrix and the lists, for bench/)
"""
import glob
import json
import os
import subprocess
import sys
import tempfile


def run(argv, timeout=600):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)


TRUTH = {}  # path -> (truth, note): the explorer's verdict does not depend on the detector's flags


def judge(musimd, path, flags):
    """(suspected, truth, note): truth True/False, or None outside the assumptions."""
    dl = run([musimd, "deadlock", path, "--json"] + flags)
    if dl.returncode == 3 and "control-flow graph is irreducible" in dl.stderr:
        # the detector, as every analysis, needs a reducible CFG: listed apart
        return False, None, "refused: an irreducible CFG"
    if dl.returncode not in (0, 1):
        raise RuntimeError("deadlock exit %d: %s" % (dl.returncode, dl.stderr[-400:]))
    d = json.loads(dl.stdout)
    suspected = any(l["suspected"] for l in d["loops"])
    if (dl.returncode == 1) != suspected:
        raise RuntimeError("deadlock: exit %d but suspected=%s" % (dl.returncode, suspected))
    if path not in TRUTH:
        TRUTH[path] = explorer_truth(musimd, path)
    truth, note = TRUTH[path]
    return suspected, truth, note


def explorer_truth(musimd, path):
    ex = run([musimd, "explore", path, "--model", "ipdom,mimd", "--path-order", "both", "--atomic-order", "any",
              "--json"])
    if ex.returncode not in (0, 1):
        raise RuntimeError("explore exit %d: %s" % (ex.returncode, ex.stderr[-400:]))
    res = {r["model"]: r for r in json.loads(ex.stdout)["results"]}
    mimd, ipdom = res["mimd"]["verdict"], res["ipdom"]
    if mimd not in ("terminates", "terminates-fair"):
        return None, "mimd: %s" % mimd
    err = (ipdom.get("counterexample") or {}).get("error") or {}
    if err.get("rule") == "BAR":  # the thesis's second assumption: no divergent barrier
        return None, "ipdom: a divergent barrier"
    return bool(ipdom["simt_induced"]), "ipdom: %s" % ipdom["verdict"]


def ssde_check(musimd, name, path, d):
    """SSDE (musimd transform ssde) on a suspected program inside the
    assumptions: the result loads, terminates under ipdom on every schedule
    and both path orders, is not suspected any more, and (an example) leaves
    the memory the program leaves under mimd.
    Returns a list of failures and the two runs' steps and SIMD efficiency."""
    out = os.path.join(d, "ssde.simd")
    tr = run([musimd, "transform", "ssde", path])
    if tr.returncode != 0:
        return ["%s: transform ssde exit %d: %s" % (name, tr.returncode, tr.stderr[-300:])], None
    with open(out, "w") as f:
        f.write(tr.stdout)
    fails = []
    ex = run([musimd, "explore", out, "--model", "ipdom", "--path-order", "both", "--atomic-order", "any", "--json"])
    if ex.returncode not in (0, 1):
        return ["%s: explore of the transformed program exit %d: %s" % (name, ex.returncode, ex.stderr[-300:])], None
    res = json.loads(ex.stdout)["results"][0]
    v = res["verdict"]
    err = (res.get("counterexample") or {}).get("error") or {}
    if v == "deadlock" and err.get("rule") == "BAR":
        return [], "skipped"  # a divergent barrier: outside what SSDE handles (§4.5)
    if v not in ("terminates", "terminates-fair"):
        fails.append("%s: transformed, ipdom says %s" % (name, v))
    dl = run([musimd, "deadlock", out, "--json"])
    if dl.returncode != 0:
        fails.append("%s: transformed, still suspected (exit %d)" % (name, dl.returncode))
    a = run([musimd, "run", path, "--model", "mimd", "--json"])
    b = run([musimd, "run", out, "--model", "ipdom", "--json"])
    ra, rb = json.loads(a.stdout), json.loads(b.stdout)
    # the memory: on the curated examples, which are race-free (the generated
    # programs may guard one counter with two different locks: racy under mimd)
    if not name.startswith("gen") and ra["status"] == "ok" and rb["status"] == "ok" \
            and ra["shared"] != rb["shared"]:
        fails.append("%s: transformed, memory %s under ipdom, %s before under mimd" % (name, rb["shared"], ra["shared"]))
    if rb["status"] != "ok":
        fails.append("%s: transformed, run under ipdom ends %s" % (name, rb["status"]))
    return fails, (rb["steps"], rb["simd_efficiency"])


def expectations(musimd, path):
    """The `# expect deadlock: LABEL... | none` lines of an example: the
    labels of the loops it must suspect (the rest must not be)."""
    want = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# expect deadlock:"):
                words = line.split(":", 1)[1].split()
                want = set() if words == ["none"] else set(words)
    if want is None:
        return []
    d = json.loads(run([musimd, "deadlock", path, "--json"]).stdout)
    got = {l["label"] for l in d["loops"] if l["suspected"]}
    if got != want:
        return ["%s: # expect deadlock: %s, but musimd deadlock suspects %s"
                % (path, " ".join(sorted(want)) or "none", " ".join(sorted(got)) or "none")]
    return []


def main():
    args = sys.argv[1:]
    musimd, examples = os.path.abspath(args[0]), args[1]
    count, first, out = 40, 1, None
    if "--count" in args:
        count = int(args[args.index("--count") + 1])
    if "--first" in args:
        first = int(args[args.index("--first") + 1])
    if "--json" in args:
        out = args[args.index("--json") + 1]
    cases = [(p, p) for p in sorted(glob.glob(os.path.join(examples, "*.simd")))]
    report, failures = {}, []
    checked = 0
    for _, path in cases:
        f = expectations(musimd, path)
        failures.extend(f)
        with open(path, encoding="utf-8") as fh:
            checked += "# expect deadlock:" in fh.read()
    print("%d examples with # expect deadlock lines checked\n" % checked)
    with tempfile.TemporaryDirectory() as d:
        for seed in range(first, first + count):
            src = os.path.join(d, "gen-%d.simd" % seed)
            with open(src, "w") as f:
                f.write(run([musimd, "gen", "--concurrent", "--seed", str(seed)]).stdout)
            cases.append(("gen --concurrent --seed %d" % seed, src))
        for flags in ([], ["--divergence"]):
            matrix = {"tp": [], "fp": [], "fn": [], "tn": [], "outside": []}
            for name, path in cases:
                try:
                    suspected, truth, note = judge(musimd, path, flags)
                except (RuntimeError, ValueError, KeyError) as e:
                    failures.append("%s: %s" % (name, e))
                    continue
                if "unknown" in note:
                    failures.append("%s: the explorer did not decide (%s)" % (name, note))
                    continue
                key = "outside" if truth is None else \
                    ("tp" if suspected else "fn") if truth else ("fp" if suspected else "tn")
                matrix[key].append("%s (%s, %s)" % (name, "suspected" if suspected else "not suspected", note))
            n = {k: len(v) for k, v in matrix.items()}
            print("musimd deadlock %s against the explorer (ipdom, SIMT-induced), %d programs:"
                  % (" ".join(flags) or "(Algorithm 1 as published)", sum(n.values())))
            print("                      explorer: SIMT-induced   terminates")
            print("  suspected           %22d %12d" % (n["tp"], n["fp"]))
            print("  not suspected       %22d %12d" % (n["fn"], n["tn"]))
            print("  outside the assumptions (mimd does not terminate, a divergent barrier) or refused (irreducible): %d" % n["outside"])
            for k, title in (("fp", "false detections"), ("fn", "misses"), ("outside", "outside the assumptions")):
                if matrix[k] and (k != "outside" or not flags):
                    print("%s:" % title)
                    for line in matrix[k]:
                        print("  " + line)
            print()
            if not flags:  # SSDE on every suspected program inside the assumptions
                transformed = skipped = 0
                for name, path in cases:
                    if not any(name + " (suspected" in e for e in matrix["tp"] + matrix["fp"]):
                        continue
                    f2, how = ssde_check(musimd, name, path, d)
                    failures.extend(f2)
                    skipped += how == "skipped"
                    transformed += how != "skipped"
                print("SSDE: %d suspected programs transformed and checked (ipdom terminates on every "
                      "schedule, not suspected again, the examples' memory of mimd), %d skipped "
                      "(a divergent barrier)\n" % (transformed, skipped))
                if transformed == 0 and skipped > 0:
                    failures.append("SSDE: every suspected program was skipped: nothing checked")
            if n["fn"]:
                failures.append("%s: %d SIMT-induced deadlock(s) not suspected" % (" ".join(flags) or "Algorithm 1", n["fn"]))
            report[" ".join(flags) or "published"] = matrix
    if out:
        with open(out, "w") as f:
            json.dump(report, f, indent=1)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
