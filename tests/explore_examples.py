#!/usr/bin/env python3
"""Check the explorer's verdicts written in the examples.

Usage: explore_examples.py MUSIMD DIR

An example states what `musimd explore` must answer in comment lines

    # expect explore --model M [OPTIONS]: VERDICT [SIMT-induced]

(explore.md §3; derived by hand from the papers, each example says how).
VERDICT is terminates, terminates-fair, deadlock, livelock or unknown;
`SIMT-induced` is written exactly when the verdict is a deadlock or a
livelock that the same program does not have under mimd. Each line runs
`musimd explore FILE --json --model M[,mimd] OPTIONS`, with mimd added so
that the SIMT-induced flag can be computed, with reductions and, as a
cross-check, with --no-reduction: both must give the verdict.
"""
import json
import os
import re
import shlex
import subprocess
import sys

# the options may hold a colon (--model its:any): they end at ": "
EXPECT = re.compile(r"^\s*#\s*expect\s+explore(?P<opts>.*?):\s+(?P<what>.*?)\s*$")
failures = []


def run(musimd, path, opts):
    argv = [musimd, "explore", path, "--json"] + opts
    p = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(p.stdout), p.returncode
    except json.JSONDecodeError:
        failures.append("%s: %s: not JSON: %s" % (path, " ".join(opts), (p.stdout + p.stderr)[:300]))
        return None, p.returncode


def check(musimd, path, n, opts_text, what):
    opts = shlex.split(opts_text)
    if "--model" not in opts:
        failures.append("%s:%d: an explore expectation names no --model" % (path, n))
        return
    i = opts.index("--model")
    model = opts[i + 1]
    words = what.split()
    want = words[0]
    want_simt = "SIMT-induced" in words[1:]
    asked = model if model == "mimd" else model + ",mimd"
    for extra in ([], ["--no-reduction"]):
        o = opts[:i] + ["--model", asked] + opts[i + 2:] + extra
        obj, rc = run(musimd, path, o)
        if obj is None:
            return
        res = {r["model"]: r for r in obj["results"]}
        name = model if model != "its" else "its:rr"
        r = res.get(name)
        if r is None:
            failures.append("%s:%d: no result for %s" % (path, n, name))
            return
        got = r["verdict"]
        simt = r["simt_induced"] is True
        where = "%s:%d (%s%s)" % (path, n, opts_text.strip(), " --no-reduction" if extra else "")
        if got != want or simt != want_simt:
            failures.append("%s: %s%s, want %s%s" % (where, got, " SIMT-induced" if simt else "",
                                                    want, " SIMT-induced" if want_simt else ""))
        else:
            print("ok   %s: %s%s" % (where, got, " SIMT-induced" if simt else ""))


def main():
    musimd, d = sys.argv[1], sys.argv[2]
    checked = 0
    for name in sorted(os.listdir(d)):
        if not name.endswith(".simd"):
            continue
        path = os.path.join(d, name)
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = EXPECT.match(line)
                if m:
                    check(musimd, os.path.relpath(path), n, m.group("opts"), m.group("what"))
                    checked += 1
    if checked < 20:
        failures.append("only %d explore expectations found in %s" % (checked, d))
    for f in failures:
        print("FAIL", f)
    print("explore_examples: %d expectations, %d failure(s)" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
