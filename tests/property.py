#!/usr/bin/env python3
"""Property tests of musimd on random programs (analyses.md §4).

    python3 tests/property.py MUSIMD [--unstructured] [--count N] [--seed S] [--long]
                              [--jobs J] [-v]

Well-structured programs (the default). For each of N seeds S, S+1, ... the
script generates a program with `MUSIMD gen --seed SEED --size Z --depth D
--vars V [--no-...]` (size, depth, variables and flags drawn from the seed,
so a seed always means the same command) and checks:

1. GSA round trip: `MUSIMD gsa F > G`; `MUSIMD check G` is clean; for threads
   1..8, `MUSIMD run F --threads T --json` and `MUSIMD run G --threads T --json`
   end with the same `status` (which must be "ok": the generator promises
   programs that terminate and never get stuck) and the same `shared` memory.
2. Soundness: `MUSIMD analyze G --verify=8 --json` with `--domain simple`,
   `--degree 1`, `--degree 2` (and `--degree 2 --no-cmp-rule` for every third
   seed) exits 0 and reports no violations (`verify.violations` empty), and
   not `"verified": false` where the field exists.
3. Corollary 1: every variable that `--domain simple` calls uniform (or
   constant) is constant or uniform under degree 1 and under degree 2
   (variables compared by name).

Unstructured programs (--unstructured): `MUSIMD gen --unstructured ...`
(break, continue, short-circuit, early exit, loops with several exits; no
syncs: they run under the ipdom and mimd models, not under sync), every
other seed with `--deterministic` (a final memory no schedule can change).
For each seed:

0. The generator's promise: for the thread counts below, `MUSIMD run F
   --model ipdom|mimd --threads T --json` ends with status "ok"; for a
   --deterministic program both models leave the same `shared` memory.
1. GSA round trip: `MUSIMD gsa F > G`, `MUSIMD check G` clean; `MUSIMD run G`
   under both models ends with status "ok", and for a --deterministic
   program with the same `shared` memory as F.
2. Soundness: `MUSIMD analyze G --verify=8 --verify-model ipdom,mimd --json` with
   `--domain simple`, `--degree 1`, `--degree 2` exits 0, reports no
   violations and `"verified": true`, and under ipdom and mimd every run of
   the oracle finished (`verify.models[].unfinished` empty: the program
   terminates under both).
3. Corollary 1, as above.

A quarter of the seeds of either shape add `--calls` (functions, calls
from both sides of a branch, early returns in unstructured ones): such a
program also runs to the end, at one thread count, under every model
(sync for the structured ones, ipdom, mimd, its:rr, its:any, aware, mp, tf,
tf:sandy) and every policy of `MUSIMD policies --policy all`; for a
--deterministic one they all leave the same `shared` memory. Its GSA form
inlines the calls, so the round trip checks the inliner.

Thread counts: 1..8 for every model with --long; the quick suite checks two
of them per seed, T and T + 4 for T = 1 + seed mod 4 (so each count on a
quarter of the seeds: the unit tests of gen run every count on every seed).

A failure prints the seed, the failing command and what went wrong, and
saves the program as /tmp/musimd-prop-SEED.simd (its GSA form next to it as
/tmp/musimd-prop-SEED.gsa.simd; unstructured: musimd-prop-u-SEED...). Exit
status: 0 all passed; 1 some seed failed (the count is printed last); 2 usage
error.

The default count (600 seeds) keeps a run under two minutes on a 2-core
machine; --long runs 20 times as many seeds, with larger programs among them.
"""

import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

DEFAULT_COUNT = 600
CALLS_PCT = 25  # seeds with gen --calls: every model runs them too (every_model)
THREADS = range(1, 9)
UNIFORM = ("uniform", "constant")


class Failure(Exception):
    def __init__(self, cmd, what):
        super().__init__(what)
        self.cmd = cmd
        self.what = what


def quote(args):
    return " ".join(a if a and all(c.isalnum() or c in "-_=./:,+" for c in a) else repr(a) for a in args)


def call(args, timeout=120):
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure(args, "timed out after %d s" % timeout)
    return p


def call_json(args, ok_codes=(0,)):
    p = call(args)
    if p.returncode not in ok_codes:
        raise Failure(args, "exit status %d\n%s" % (p.returncode, p.stderr.strip()[:2000]))
    try:
        j = json.loads(p.stdout)
    except ValueError as e:
        raise Failure(args, "output is not JSON (%s): %s" % (e, p.stdout[:500]))
    if isinstance(j, list):  # analyze prints an array for several files
        j = j[0]
    return j, p.returncode


def gen_args(musimd, seed, long_mode):
    """The generator's command for this seed (deterministic)."""
    r = random.Random(seed * 7919 + 17)
    if long_mode and r.random() < 0.1:
        size = r.randint(400, 2000)
    else:
        size = r.choice([10, 20, 30, 50, 80, 120, 200, 300, 400])
    args = [musimd, "gen", "--seed", str(seed), "--size", str(size),
            "--depth", str(r.randint(1, 5)), "--vars", str(r.randint(1, 10))]
    for flag, pct in (("--no-memory", 8), ("--no-atomics", 10), ("--no-loops", 8)):
        if r.randrange(100) < pct:
            args.append(flag)
    if r.randrange(100) < CALLS_PCT:  # drawn last: the other flags of a seed stay
        args.append("--calls")
    return args


def unstructured_gen_args(musimd, seed, long_mode):
    """The generator's command for unstructured seed SEED (deterministic)."""
    r = random.Random(seed * 6151 + 29)
    if long_mode and r.random() < 0.1:
        size = r.randint(300, 1200)
    else:
        size = r.choice([10, 20, 30, 50, 80, 120, 160, 200])
    args = [musimd, "gen", "--unstructured", "--seed", str(seed), "--size", str(size),
            "--depth", str(r.randint(1, 5)), "--vars", str(r.randint(1, 10))]
    if seed % 2 == 1:
        args.append("--deterministic")
    for flag, pct in (("--no-memory", 8), ("--no-atomics", 10), ("--no-loops", 8)):
        if r.randrange(100) < pct:
            args.append(flag)
    if r.randrange(100) < CALLS_PCT:
        args.append("--calls")
    return args


def every_model(musimd, f, t, skip_sync, det):
    """A program with calls (gen --calls) runs to the end under every model:
    the main ones and every policy of the lab (`policies --policy all`);
    with --deterministic, all of them leave the same shared memory."""
    ref = None
    for model in ("sync", "ipdom", "mimd", "its:rr", "its:any", "aware", "mp", "tf", "tf:sandy"):
        if model == "sync" and skip_sync:
            continue
        a = [musimd, "run", f, "--model", model, "--threads", str(t), "--json"]
        r, _ = call_json(a, ok_codes=(0, 1))
        if r.get("status") != "ok":
            raise Failure(a, "a generated program with calls must run to the end under %s: status %s, error %s"
                          % (model, r.get("status"), json.dumps(r.get("error"))))
        if det and ref is not None:
            diff = shared_diff("--model %s" % ref[0], ref[1], r)
            if diff:
                raise Failure(a, "--deterministic: " + diff)
        ref = ref or (model, r)
    a = [musimd, "policies", f, "--policy", "all", "--threads", str(t), "--json"]
    p = call(a)
    try:
        rows = json.loads(p.stdout)
    except ValueError as e:
        raise Failure(a, "output is not JSON (%s): %s" % (e, p.stdout[:500]))
    bad = [x for x in rows if x.get("status") != "ok"]
    if p.returncode != 0 or bad or not rows:
        raise Failure(a, "exit %d; policies that did not run to the end: %s"
                      % (p.returncode, ", ".join("%s (%s)" % (x.get("policy"), x.get("status")) for x in bad)))


def thread_counts(seed, long_mode):
    """1..8 with --long; else two of them, rotating with the seed (every count
    is checked on a quarter of the seeds)."""
    if long_mode:
        return list(THREADS)
    return sorted({1 + seed % 8, 1 + (seed + 4) % 8})


def classes(j):
    return {v["name"]: v["class"] for v in j.get("variables", [])}


def shared_diff(other, r1, r2):
    """What differs between the shared memory of run r2 and that of run r1
    (described as `other`), or None."""
    if r1.get("shared") != r2.get("shared"):
        s1, s2 = r1.get("shared") or {}, r2.get("shared") or {}
        diff = sorted(set(k for k in set(s1) | set(s2) if s1.get(k) != s2.get(k)), key=int)
        return ("shared memory differs from %s at %s: %s vs %s"
                % (other, ",".join(diff[:8]), [s2.get(k) for k in diff[:8]], [s1.get(k) for k in diff[:8]]))
    return None


def soundness(musimd, g, variants, extra, check_models):
    """Checks 2 and 3 on the GSA form g: analyze --verify with every variant;
    returns nothing, raises Failure."""
    results = []
    for v in variants:
        args = [musimd, "analyze", g, "--verify=8"] + extra + ["--json"] + v
        j, _ = call_json(args, ok_codes=(0,))
        ver = j.get("verify")
        if not isinstance(ver, dict) or "violations" not in ver:
            raise Failure(args, "no verify.violations in the output")
        if ver["violations"]:
            raise Failure(args, "%d violation(s), first: %s"
                          % (len(ver["violations"]), json.dumps(ver["violations"][0])[:1000]))
        if ver.get("verified") is False or (check_models and ver.get("verified") is not True):
            raise Failure(args, "nothing verified: %s" % json.dumps(ver)[:1000])
        for model in check_models:
            entry = [m for m in ver.get("models", []) if m.get("model") == model]
            if not entry:
                raise Failure(args, "verify.models has no %s entry: %s" % (model, json.dumps(ver)[:1000]))
            if entry[0].get("unfinished") or not entry[0].get("finished"):
                raise Failure(args, "runs under %s that did not finish (the program terminates under %s): %s"
                              % (model, model, json.dumps(entry[0])[:1000]))
        results.append((args, classes(j)))

    # 3. Corollary 1: simple U => affine/polynomial uniform or constant
    simple = results[0][1]
    for args, poly in results[1:3]:
        for name, cls in simple.items():
            if cls in UNIFORM and poly.get(name) not in UNIFORM:
                raise Failure(args, "Corollary 1: %s is %s under --domain simple but %s here"
                              % (name, cls, poly.get(name)))


def generate(args, f):
    """Run the generator into file f; returns the program's text."""
    p = call(args)
    if p.returncode != 0:
        raise Failure(args, "exit status %d\n%s" % (p.returncode, p.stderr.strip()))
    with open(f, "w") as out:
        out.write(p.stdout)
    return p.stdout


def to_gsa(musimd, f, g):
    """`gsa F > G` and `check G` clean."""
    args = [musimd, "gsa", f]
    p = call(args)
    if p.returncode != 0:
        raise Failure(args, "exit status %d\n%s" % (p.returncode, p.stderr.strip()[:2000]))
    with open(g, "w") as out:
        out.write(p.stdout)
    args = [musimd, "check", g]
    p = call(args)
    if p.returncode != 0 or ": error:" in p.stderr:
        raise Failure(args, "exit status %d\n%s" % (p.returncode, p.stderr.strip()[:2000]))


def check_structured(musimd, seed, long_mode, f, g, state):
    state["args"] = gen_args(musimd, seed, long_mode)
    state["src"] = generate(state["args"], f)

    # 1. GSA round trip
    to_gsa(musimd, f, g)
    for t in THREADS:
        a1 = [musimd, "run", f, "--threads", str(t), "--json"]
        a2 = [musimd, "run", g, "--threads", str(t), "--json"]
        r1, c1 = call_json(a1, ok_codes=(0, 1))
        r2, c2 = call_json(a2, ok_codes=(0, 1))
        if r1.get("status") != "ok":
            raise Failure(a1, "a generated program must run to the end: status %s, error %s"
                          % (r1.get("status"), json.dumps(r1.get("error"))))
        if r2.get("status") != r1.get("status") or c1 != c2:
            raise Failure(a2, "status %s (exit %d), the original's %s (exit %d): %s"
                          % (r2.get("status"), c2, r1.get("status"), c1, json.dumps(r2.get("error"))))
        diff = shared_diff("the original's", r1, r2)
        if diff:
            raise Failure(a2, diff)

    if "--calls" in state["args"]:
        every_model(musimd, f, 1 + seed % 8, False, False)

    # 2. soundness, 3. Corollary 1
    variants = [["--domain", "simple"], ["--degree", "1"], ["--degree", "2"]]
    if seed % 3 == 0:
        variants.append(["--degree", "2", "--no-cmp-rule"])
    soundness(musimd, g, variants, [], ())


MODELS = ("ipdom", "mimd")


def check_unstructured(musimd, seed, long_mode, f, g, state):
    args = unstructured_gen_args(musimd, seed, long_mode)
    det = "--deterministic" in args
    state["src"] = generate(args, f)
    threads = thread_counts(seed, long_mode)

    # 0. the generator's promise: runs to the end under ipdom and mimd
    ref = {}
    for t in threads:
        for model in MODELS:
            a = [musimd, "run", f, "--model", model, "--threads", str(t), "--json"]
            r, _ = call_json(a, ok_codes=(0, 1))
            if r.get("status") != "ok":
                raise Failure(a, "a generated program must run to the end under ipdom and mimd: "
                              "status %s, error %s" % (r.get("status"), json.dumps(r.get("error"))))
            if det and t in ref:
                diff = shared_diff("--model %s" % ref[t][0], ref[t][1], r)
                if diff:
                    raise Failure(a, "--deterministic: " + diff)
            ref.setdefault(t, (model, r))

    if "--calls" in args:
        every_model(musimd, f, threads[0], True, det)

    # 1. GSA round trip
    to_gsa(musimd, f, g)
    for t in threads:
        for model in MODELS:
            a = [musimd, "run", g, "--model", model, "--threads", str(t), "--json"]
            r, _ = call_json(a, ok_codes=(0, 1))
            if r.get("status") != "ok":
                raise Failure(a, "status %s (the original's: ok), error %s"
                              % (r.get("status"), json.dumps(r.get("error"))))
            if det:
                diff = shared_diff("the original under --model %s" % ref[t][0], ref[t][1], r)
                if diff:
                    raise Failure(a, diff)

    # 2. soundness, 3. Corollary 1
    variants = [["--domain", "simple"], ["--degree", "1"], ["--degree", "2"]]
    soundness(musimd, g, variants, ["--verify-model", ",".join(MODELS)], MODELS)


def check_seed(musimd, seed, long_mode, tmp, unstructured):
    """Run every property on one seed; returns None or (cmd, what, saved program)."""
    tag = "u%d" % seed if unstructured else "%d" % seed
    f = os.path.join(tmp, "p%s.simd" % tag)
    g = os.path.join(tmp, "p%s.gsa.simd" % tag)
    state = {"src": None}
    try:
        (check_unstructured if unstructured else check_structured)(musimd, seed, long_mode, f, g, state)
        return None
    except Failure as e:
        # keep the program (and its GSA form) where the report says
        saved, saved_g = "/tmp/musimd-prop-%s.simd" % tag.replace("u", "u-"), \
            "/tmp/musimd-prop-%s.gsa.simd" % tag.replace("u", "u-")
        src = state["src"]
        if src is not None:
            with open(saved, "w") as out:
                out.write(src)
        if os.path.exists(g):
            shutil.copyfile(g, saved_g)
        cmd = [saved if a == f else saved_g if a == g else a for a in e.cmd]
        return (cmd, e.what, saved if src is not None else None)
    finally:
        for x in (f, g):
            if os.path.exists(x):
                try:
                    os.remove(x)
                except OSError:
                    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("musimd")
    ap.add_argument("--unstructured", action="store_true",
                    help="unstructured programs (gen --unstructured), under ipdom and mimd")
    ap.add_argument("--count", type=int, help="seeds to try (default %d, --long: 20 times that)" % DEFAULT_COUNT)
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--long", action="store_true", help="20 times as many seeds, some larger programs")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2, help="seeds checked in parallel")
    ap.add_argument("-v", "--verbose", action="store_true")
    o = ap.parse_args()
    count = o.count if o.count is not None else DEFAULT_COUNT * (20 if o.long else 1)
    musimd = os.path.abspath(o.musimd) if os.path.sep in o.musimd else o.musimd

    probe = subprocess.run([musimd, "gen", "--seed", "1", "--size", "10"], capture_output=True, text=True)
    if probe.returncode != 0:
        print("property.py: `%s gen` does not work yet (exit %d): %s"
              % (musimd, probe.returncode, probe.stderr.strip()[:300]), file=sys.stderr)
        return 1
    gen_cmd = unstructured_gen_args if o.unstructured else gen_args

    tmp = tempfile.mkdtemp(prefix="musimd-prop-")
    t0 = time.monotonic()
    failed = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o.jobs)) as pool:
            futs = {pool.submit(check_seed, musimd, s, o.long, tmp, o.unstructured): s
                    for s in range(o.seed, o.seed + count)}
            for fut in concurrent.futures.as_completed(futs):
                seed = futs[fut]
                res = fut.result()
                if res is None:
                    if o.verbose:
                        print("seed %d: ok" % seed)
                    continue
                cmd, what, saved = res
                failed.append(seed)
                print("FAIL seed %d: %s\n  command: %s\n  program: %s\n  (generated by: %s)"
                      % (seed, what.replace("\n", "\n    "),
                         quote(cmd), saved or "(not generated)", quote(gen_cmd(musimd, seed, o.long))),
                      flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    dt = time.monotonic() - t0
    print("property.py: %d %sseeds (%d..%d), %d failed, %.1f s"
          % (count, "unstructured " if o.unstructured else "", o.seed, o.seed + count - 1, len(failed), dt))
    if failed:
        print("failed seeds: %s" % " ".join(str(s) for s in sorted(failed)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
