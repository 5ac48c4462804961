#!/usr/bin/env python3
"""AWARE's cures against the explorer (issue 12, deliverable 4): on every
example and on random concurrent programs (`musimd gen --concurrent`)
that terminate under mimd (fairly or not), `--model aware` must terminate
under every fair schedule (terminates or terminates-fair)

  - with the delayed reconvergence points of Algorithm 5, exactly as
    `musimd transform ssde --delays` prints them for --aware-delay
    (ElTantawy 2018, section 5.4.2), and
  - with a timeout (`--aware-timeout`, which the explorer takes as a
    choice that a fair schedule cannot put off for ever; section 5.4.3),

and aware without either must be no worse than ipdom (when ipdom
terminates, so does aware). Programs in GSA form are skipped for the
delays (SSDE takes plain programs). Prints one line per program that
needs a cure (aware alone does not terminate) and fails on any program
where a cure does not work, on an explorer search that ends in `unknown`,
and on a crash.

Usage: aware_explore.py MUSIMD EXAMPLES_DIR [--count N] [--first SEED]
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

ENDS = ("terminates", "terminates-fair")


def run(argv, timeout=600):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)


def verdicts(musimd, path, models, extra):
    r = run([musimd, "explore", path, "--model", models, "--json"] + extra)
    if r.returncode not in (0, 1):
        raise RuntimeError("explore %s exit %d: %s" % (" ".join(extra), r.returncode, (r.stdout + r.stderr)[-400:]))
    return {x["model"]: x["verdict"] for x in json.loads(r.stdout)["results"]}


def check(musimd, path, name, failures):
    """The verdicts of one program; None when mimd does not terminate."""
    base = verdicts(musimd, path, "ipdom,mimd,aware", [])
    if base["mimd"] not in ENDS:
        return None
    got = {"aware": base["aware"]}
    if base["ipdom"] in ENDS and base["aware"] not in ENDS:
        failures.append("%s: ipdom %s but aware %s" % (name, base["ipdom"], base["aware"]))
    dl = run([musimd, "transform", "ssde", "--delays", path])
    if dl.returncode == 0:
        spec = dl.stdout.strip()
        got["delays"] = spec or "-"
        got["aware --aware-delay"] = verdicts(musimd, path, "aware", ["--aware-delay", spec] if spec else [])["aware"]
    elif "GSA form" not in dl.stderr:
        raise RuntimeError("transform ssde --delays exit %d: %s" % (dl.returncode, dl.stderr[-400:]))
    got["aware --aware-timeout"] = verdicts(musimd, path, "aware", ["--aware-timeout", "10"])["aware"]
    for k, v in got.items():
        if k.startswith("aware ") and v not in ENDS:
            failures.append("%s: mimd %s but %s %s (delays %s)" % (name, base["mimd"], k, v, got.get("delays")))
    return got


def main():
    args = sys.argv[1:]
    musimd, examples = os.path.abspath(args[0]), args[1]
    count = int(args[args.index("--count") + 1]) if "--count" in args else 10
    first = int(args[args.index("--first") + 1]) if "--first" in args else 1
    failures = []
    checked = cured = 0
    with tempfile.TemporaryDirectory() as tmp:
        progs = [(os.path.relpath(p), p) for p in sorted(glob.glob(os.path.join(examples, "*.simd")))]
        for seed in range(first, first + count):
            p = os.path.join(tmp, "concurrent-%d.simd" % seed)
            g = run([musimd, "gen", "--concurrent", "--seed", str(seed)])
            if g.returncode != 0:
                raise RuntimeError("gen --concurrent --seed %d: %s" % (seed, g.stderr))
            with open(p, "w", encoding="utf-8") as f:
                f.write(g.stdout)
            progs.append(("gen --concurrent --seed %d" % seed, p))
        for name, path in progs:
            got = check(musimd, path, name, failures)
            if got is None:
                continue
            checked += 1
            if got["aware"] not in ENDS:
                cured += 1
                print("%s: aware %s; %s" % (name, got["aware"],
                                            ", ".join("%s: %s" % (k, v) for k, v in got.items() if k != "aware")))
    for f in failures:
        print("FAIL", f)
    print("aware_explore: %d programs that terminate under mimd, %d need a cure under aware, %d failure(s)"
          % (checked, cured, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
