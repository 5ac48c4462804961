#!/usr/bin/env python3
"""Check every example program against the expectations in its comments.

Usage: examples.py MUSIMD FILE_OR_DIR...

An expectation is a comment line of the example:

    # expect[ OPTIONS]: ASSERTION

OPTIONS are extra `musimd run` options (for example `--strict-push` or
`--model ipdom`); the program runs once per distinct OPTIONS, with
`--json --trace`. Lines `# expect explore --model M [OPTIONS]: VERDICT
[SIMT-induced]` are the schedule explorer's (explore.md §3): this script
leaves them to tests/explore_examples.py (`musimd explore`, with and
without reduction) and tests/promela_spin.py (the mimd ones, with SPIN);
`# expect deadlock: LABEL... | none` lines to tests/deadlock_explore.py.
Lines `# expect policies OPTIONS: KEY VALUE` run `musimd policies FILE
--json OPTIONS` (the policy lab, musimd(1) POLICIES) and check KEY of every
row it prints (one per --policy): a number (DLP and the other ratios to
0.005), a word (status, verdict), or a dotted path (memory.affine).
The expectations come from the papers' digests (each example says where),
never from musimd's own output. ASSERTION is one of:

    status ok | stuck | step-limit | deadlock  [rule R] [at WHERE]
    shared[A..B] = V V ...        (- = never initialised)
    shared[A] = V
    NAME = V0 V1 ...              value of variable NAME in threads 0, 1, ... (- = unassigned)
    profile WHERE: visits V, divergences D
    blocks WHERE: N               warp executions of the block starting at WHERE
    blocks total: N
    rules at WHERE: R R ...       the rules fired at WHERE, in order
    at WHERE#K: active {..}[, stack STACK]
                                  the K-th step at WHERE (1-based): Θ when it began,
                                  and the stack when it began, papers' notation, top first
    steps N | thread_instructions N | max_stack_depth N | races N
    race cell C: threads T,T.. values V,V..
    exit N                        exit status (default: 0 for ok, else 1)

WHERE is a label, or @LINE for an unlabelled instruction.
"""
import json
import os
import re
import subprocess
import sys

# the options end at the first colon that is not inside a word (its:any)
EXPECT = re.compile(r"^\s*#\s*expect(?P<opts>(?:[^:]|:(?=\S))*):\s*(?P<what>.*?)\s*$")


def fmt_set(ranges):
    """A set of threads as run --json writes it, [[first, last], ...]."""
    xs = [t for first, last in ranges for t in range(first, last + 1)]
    return "{" + ",".join(str(x) for x in xs) + "}" if xs else "∅"


def fmt_stack(stack, model):
    if not stack:
        return "[]"
    parts = []
    for n in stack:
        if "l_id" in n:
            parts.append("(%s, %s, %s, %s)" % (n["l_id"], fmt_set(n["done"]), n["l_next"], fmt_set(n["todo"])))
        else:
            parts.append("(%s, %s, %s)" % (n["pc"] or "⊥", n["rpc"] or "⊥", fmt_set(n["mask"])))
    return " : ".join(parts)


def where_of(entry):
    return [w for w in (entry.get("label"), "@%d" % entry["line"]) if w]


def values_of(text):
    return [v for v in text.split()]


class Failure(Exception):
    pass


def check(assertion, res, rc):
    """Raise Failure with a message if the assertion does not hold."""
    a = assertion
    m = re.fullmatch(r"status (\S+)(?: rule (\S+))?(?: at (\S+))?", a)
    if m:
        st, rule, at = m.groups()
        if res["status"] != st:
            raise Failure("status is %s, expected %s%s" % (res["status"], st,
                          (" (error: %s)" % res["error"]["message"]) if res.get("error") else ""))
        if rule and (res["error"] or {}).get("rule") != rule:
            raise Failure("rule is %s, expected %s" % ((res["error"] or {}).get("rule"), rule))
        if at:
            e = res["error"] or {}
            got = [w for w in (e.get("label"), "@%s" % e.get("line")) if w]
            if at not in got:
                raise Failure("error at %s, expected at %s" % (got, at))
        return
    m = re.fullmatch(r"exit (\d+)", a)
    if m:
        if rc != int(m.group(1)):
            raise Failure("exit status %d, expected %s" % (rc, m.group(1)))
        return
    m = re.fullmatch(r"shared\[(\d+)(?:\.\.(\d+))?\]\s*=\s*(.*)", a)
    if m:
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        want = values_of(m.group(3))
        if len(want) != hi - lo + 1:
            raise Failure("malformed expectation: %d values for %d cells" % (len(want), hi - lo + 1))
        got = [str(res["shared"].get(str(x), "-")) for x in range(lo, hi + 1)]
        if got != want:
            raise Failure("shared[%d..%d] = %s, expected %s" % (lo, hi, " ".join(got), " ".join(want)))
        return
    m = re.fullmatch(r"profile (\S+):\s*visits (\d+), divergences (\d+)", a)
    if m:
        w, v, d = m.group(1), int(m.group(2)), int(m.group(3))
        rows = [p for p in res["profile"] if w in where_of(p)]
        if not rows:
            raise Failure("no conditional branch at %s" % w)
        if (rows[0]["visits"], rows[0]["divergences"]) != (v, d):
            raise Failure("profile %s: visits %d, divergences %d; expected visits %d, divergences %d"
                          % (w, rows[0]["visits"], rows[0]["divergences"], v, d))
        return
    m = re.fullmatch(r"blocks (\S+):\s*(\d+)", a)
    if m:
        w, n = m.group(1), int(m.group(2))
        if w == "total":
            got = sum(b["executions"] for b in res["blocks"])
        else:
            rows = [b for b in res["blocks"] if w in where_of(b)]
            if not rows:
                raise Failure("no block starts at %s" % w)
            got = rows[0]["executions"]
        if got != n:
            raise Failure("blocks %s: %d executions, expected %d" % (w, got, n))
        return
    m = re.fullmatch(r"rules at (\S+):\s*(.*)", a)
    if m:
        w, want = m.group(1), m.group(2).split()
        got = [s["rule"] for s in res.get("trace", []) if w in where_of(s)]
        if got != want:
            raise Failure("rules at %s: %s, expected %s" % (w, " ".join(got), " ".join(want)))
        return
    m = re.fullmatch(r"at (\S+)#(\d+):\s*active (\{[^}]*\}|∅)(?:, stack (.*))?", a)
    if m:
        w, k, act, stack = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        trace = res.get("trace", [])
        hits = [i for i, s in enumerate(trace) if w in where_of(s)]
        if len(hits) < k:
            raise Failure("%s executed %d times, expected at least %d" % (w, len(hits), k))
        i = hits[k - 1]
        step = trace[i]
        if fmt_set(step["active"]) != act.replace(" ", ""):
            raise Failure("at %s#%d: active %s, expected %s" % (w, k, fmt_set(step["active"]), act))
        if stack is not None:
            prev = [s for s in trace[:i] if s["warp"] == step["warp"]]
            before = fmt_stack(prev[-1]["stack"], res["model"]) if prev else "[]"
            if before != stack.strip():
                raise Failure("at %s#%d: stack %s, expected %s" % (w, k, before, stack.strip()))
        return
    m = re.fullmatch(r"(steps|thread_instructions|max_stack_depth|races)\s+(\d+)", a)
    if m:
        key, n = m.group(1), int(m.group(2))
        got = len(res["races"]) if key == "races" else res[key]
        if got != n:
            raise Failure("%s = %d, expected %d" % (key, got, n))
        return
    m = re.fullmatch(r"race cell (\d+):\s*threads ([\d,]+) values ([-\d,]+)", a)
    if m:
        cell = int(m.group(1))
        threads = [int(x) for x in m.group(2).split(",")]
        vals = [int(x) for x in m.group(3).split(",")]
        for r in res["races"]:
            if r["cell"] == cell and r["threads"] == threads and r["values"] == vals:
                return
        raise Failure("no race on cell %d with threads %s values %s (races: %s)"
                      % (cell, threads, vals, res["races"]))
    m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_.']*)\s*=\s*(.*)", a)
    if m:
        name, want = m.group(1), values_of(m.group(2))
        got = [str(t["values"].get(name, "-")) for t in res["vars"]]
        if got != want:
            raise Failure("%s = %s, expected %s" % (name, " ".join(got), " ".join(want)))
        return
    raise Failure("cannot read this expectation")


def check_policies(assertion, rows):
    """KEY VALUE against every row of `musimd policies --json`."""
    m = re.fullmatch(r"([A-Za-z_][\w.]*)\s+(.+)", assertion)
    if not m:
        raise Failure("cannot read this expectation")
    key, want = m.group(1), m.group(2)
    for row in rows:
        got = row
        for part in key.split("."):
            if not isinstance(got, dict) or part not in got:
                raise Failure("no key %s in the row of %s" % (key, row.get("policy")))
            got = got[part]
        try:
            ok = abs(float(got) - float(want)) <= 0.005 if isinstance(got, float) else str(got) == want
        except ValueError:
            ok = False
        if not ok:
            raise Failure("%s under %s is %s, expected %s" % (key, row["policy"], got, want))


def run_policies(musimd, path, opts):
    cmd = [musimd, "policies", path, "--json"] + opts.split()
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout), p.returncode, p.stderr
    except json.JSONDecodeError:
        raise Failure("`%s` printed no JSON (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr))


def run(musimd, path, opts):
    cmd = [musimd, "run", path, "--json", "--trace"] + opts.split()
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout), p.returncode, p.stderr
    except json.JSONDecodeError:
        raise Failure("`%s` printed no JSON (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr))


def check_file(musimd, path):
    groups = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = EXPECT.match(line)
            if m and m.group("opts").split()[:1] in (["explore"], ["deadlock"]):
                # the explorer's verdicts and the static detector's: other scripts check them
                continue
            if m:
                groups.setdefault(m.group("opts").strip(), []).append((n, m.group("what")))
    if not groups:
        return 0, ["%s: no expectations" % path]
    failures = []
    count = 0
    for opts, items in groups.items():
        if opts.split()[:1] == ["policies"]:
            try:
                rows, rc, err = run_policies(musimd, path, opts.split(None, 1)[1] if " " in opts else "")
            except Failure as e:
                failures.append("%s: %s" % (path, e))
                continue
            for n, what in items:
                count += 1
                try:
                    if re.fullmatch(r"exit \d+", what):
                        if rc != int(what.split()[1]):
                            raise Failure("exit status %d, expected %s" % (rc, what.split()[1]))
                    else:
                        check_policies(what, rows)
                except Failure as e:
                    failures.append("%s:%d: expect %s: %s\n    %s" % (path, n, opts, what, e))
            continue
        try:
            res, rc, err = run(musimd, path, opts)
        except Failure as e:
            failures.append("%s: %s" % (path, e))
            continue
        default_rc = 0 if res["status"] == "ok" else 1
        has_exit = any(re.fullmatch(r"exit \d+", w) for _, w in items)
        if not has_exit and rc != default_rc:
            failures.append("%s: `run %s` exited %d, expected %d\n%s" % (path, opts, rc, default_rc, err))
        for n, what in items:
            count += 1
            try:
                check(what, res, rc)
            except Failure as e:
                failures.append("%s:%d: expect%s: %s\n    %s" % (path, n, (" " + opts) if opts else "", what, e))
    return count, failures


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    musimd = sys.argv[1]
    files = []
    for arg in sys.argv[2:]:
        if os.path.isdir(arg):
            files += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".simd"))
        else:
            files.append(arg)
    total, bad = 0, 0
    for path in files:
        count, failures = check_file(musimd, path)
        total += count
        if failures:
            bad += 1
            for f in failures:
                print("FAIL " + f)
        else:
            print("ok   %s (%d expectations)" % (path, count))
    print("%d example files, %d expectations, %d file(s) failing" % (len(files), total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
