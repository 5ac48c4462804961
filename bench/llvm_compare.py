#!/usr/bin/env python3
"""Compare musimd's divergence analyses with LLVM 16's uniformity analysis.

usage: bench/llvm_compare.py MUSIMD [FILES...] [--random N] [--seed S]
                             [--size Z] [--unstructured] [--no-examples] [--degree D]
                             [--target amdgpu|nvptx] [--opt OPT] [--keep DIR]
                             [--cases DIR] [--verbose]

For every file (default: examples/*.simd) and N random programs
(`MUSIMD gen --seed S+i --size Z [--unstructured]`, i = 0..N-1; with
--unstructured: break, continue, short-circuit, early exit, loops with
several exits):
  MUSIMD analyze --json --degree D FILE     (affine/polynomial, default D = 2)
  MUSIMD analyze --json --domain simple FILE
  MUSIMD emit-llvm FILE [--target T]
  opt-16 -passes='print<uniformity>' -disable-output FILE.ll
LLVM's verdicts are mapped back to musimd: a definition `%NAME = ...` is the
musimd variable NAME (intermediate values are %BASE$K and are ignored); a
`br i1` terminator is the conditional branch that ends the block, found
through the "; pc A-B, lines L1-L2" comment emit-llvm puts on every block
header (the branch is on line L2). A variable is uniform for musimd when
its class is `constant` or `uniform` (affine, polynomial, ... vary with tid).

Per file it lists, for each musimd analysis:
  less precise: LLVM calls it uniform, musimd does not (each needs a reason);
  more precise: musimd calls it uniform/constant, LLVM calls it divergent
                (e.g. cancellations the affine domain sees).
and at the end a summary table, the totals in both directions, and two
lists, one line per case with the program file (random programs are saved
in --cases DIR), the variable or branch, every analysis's verdict and
LLVM's: every case where LLVM 16 is more precise (with its explanation, or
UNEXPLAINED), and every case where even --domain simple, which has no
arithmetic to cancel the thread id, calls uniform what LLVM calls divergent
(LLVM's imprecision or an unsound verdict: `musimd analyze --verify` tells).
Files that fail to load or convert are listed as skipped.

Both analyses assume reconvergence at the immediate post-dominator, and
both are aware of temporal divergence (values leaving a loop with a
divergent exit: musimd's η, LLVM's "cycles with divergent exit").
LLVM assumes any value may differ between threads unless it proves otherwise.

Exit status: 1 if musimd is less precise than LLVM on a variable or a
branch with no explanation (an entry in KNOWN_BRANCH_REASONS or
KNOWN_VARIABLE_REASONS below, or the LLVM 16 bug recognised automatically),
or if the export does not pass opt-16 (an exporter bug), or if no program
was compared (all skipped); 0 otherwise.
Soundness (musimd vs the semantics) is the job of `musimd analyze
--verify`, not of this script.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Known reasons why musimd may call a branch divergent that LLVM calls
# uniform, keyed by (program, branch): program is the file's basename for
# files ("sum_triangle.simd") or "random:SEED:SIZE" for generated programs;
# branch is the branch's label, else "line N". Each entry says why the
# difference is expected (not a bug in musimd). Empty so far: no such branch
# has been seen on the examples or on random programs.
KNOWN_BRANCH_REASONS = {
    # ("example.simd", "l7"): "why LLVM may call it uniform and musimd not",
}
# The same for variables, keyed by (program, variable).
KNOWN_VARIABLE_REASONS = {
    # ("example.simd", "x.3"): "why LLVM may call it uniform and musimd not",
}

# Recognised automatically (see missed_joins): LLVM 16 calls uniform a phi
# with different incoming values at the immediate post-dominator of a branch
# it itself calls divergent, and everything computed from it. A reduced case
# (nested divergent if-then-else on both sides of a divergent branch: the
# outer join is missed) is in bench/README.md; cf. llvm-project#137277.
MISSED_JOIN = " — LLVM 16 misses a join of its own divergent branch in block %s (llvm-project#137277)"

UNIFORM_CLASSES = {"constant", "uniform"}
SKIP_CLASSES = {"undefined"}  # ⊤ at the fixpoint: no verdict to compare

HEADER_RE = re.compile(
    r'^("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+):\s+; pc (\d+)-(\d+), lines (\d+)-(\d+)')
DEF_RE = re.compile(r'^\s*(DIVERGENT:)?\s*%("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+) = ')
BLOCK_RE = re.compile(r'^BLOCK (.*)$')
BR_RE = re.compile(r'^\s*(DIVERGENT:)?\s*br i1 ')


def unquote(name):
    if name.startswith('"') and name.endswith('"'):
        body = name[1:-1]
        return re.sub(r'\\([0-9A-Fa-f]{2})', lambda m: chr(int(m.group(1), 16)), body)
    return name


def run(cmd, timeout=600):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timeout after %ds" % timeout
    except OSError as e:
        return -1, "", str(e)


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return "(no message)"


def parse_ll(text):
    """Block name → (first_line, last_line), from emit-llvm's header comments."""
    blocks = {}
    for line in text.splitlines():
        m = HEADER_RE.match(line)
        if m:
            blocks[unquote(m.group(1))] = (int(m.group(4)), int(m.group(5)))
    return blocks


NAME = r'(?:"(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)'
LABEL_RE = re.compile(r'^(' + NAME + r'):')
VALDEF_RE = re.compile(r'^\s+%(' + NAME + r') = (.*)$')
USE_RE = re.compile(r'%(' + NAME + r')')
INCOMING_RE = re.compile(r'\[ ([^,\]]+), %(' + NAME + r') \]')


def parse_function(text):
    """The exported function: blocks in order, successors, phis, uses."""
    order, succ, phis, uses, cond = [], {}, {}, {}, {}
    cur = None
    in_fn = False
    for line in text.splitlines():
        if line.startswith("define "):
            in_fn = True
            continue
        if not in_fn:
            continue
        if line.startswith("}"):
            break
        m = LABEL_RE.match(line)
        if m:
            cur = unquote(m.group(1))
            order.append(cur)
            succ[cur], phis[cur] = [], []
            continue
        s = line.strip()
        if cur is None or not s or s.startswith(";"):
            continue
        if s.startswith("br "):
            succ[cur] = [unquote(x) for x in re.findall(r'label %(' + NAME + r')', s)]
            m = re.match(r'br i1 %(' + NAME + r'),', s)
            if m:
                cond[cur] = unquote(m.group(1))
            continue
        m = VALDEF_RE.match(line)
        if m:
            name, rhs = unquote(m.group(1)), m.group(2)
            if rhs.startswith("phi "):
                inc = [(v.strip(), unquote(b)) for v, b in INCOMING_RE.findall(rhs)]
                phis[cur].append((name, inc))
                uses[name] = {unquote(v[1:]) for v, _ in inc if v.startswith("%")}
            else:
                uses[name] = {unquote(x) for x in USE_RE.findall(rhs)}
    return order, succ, phis, uses, cond


def ipdoms(order, succ):
    """Immediate post-dominators (None = the virtual exit), Cooper-Harvey-Kennedy
    on the reverse graph; blocks that reach no exit get an edge to it."""
    EXIT = "\0exit"  # no block has this name
    rsucc = {b: list(succ[b]) for b in order}
    pred = {b: [] for b in order}
    for b in order:
        for t in succ[b]:
            pred.setdefault(t, []).append(b)
    # blocks that can reach a ret
    reach, work = set(), [b for b in order if not succ[b]]
    reach.update(work)
    while work:
        b = work.pop()
        for p in pred.get(b, []):
            if p not in reach:
                reach.add(p)
                work.append(p)
    exits = [b for b in order if not succ[b] or b not in reach]
    # post-order of the reverse graph from the virtual exit
    post, seen = [], set()
    def dfs(start):
        stack = [(start, iter(pred.get(start, [])))]
        seen.add(start)
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                post.append(node)
                stack.pop()
            elif nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(pred.get(nxt, []))))
    for e in exits:
        if e not in seen:
            dfs(e)
    post.append(EXIT)
    num = {b: i for i, b in enumerate(post)}
    ipd = {EXIT: EXIT}
    def rsuccs(b):  # successors in the CFG = predecessors in the reverse graph
        r = [t for t in rsucc[b] if t in num]
        if b in exits:
            r.append(EXIT)
        return r
    def intersect(a, b):
        while a != b:
            while num[a] < num[b]:
                a = ipd[a]
            while num[b] < num[a]:
                b = ipd[b]
        return a
    changed = True
    while changed:
        changed = False
        for b in reversed(post[:-1]):
            new = None
            for s in rsuccs(b):
                if s in ipd:
                    new = s if new is None else intersect(s, new)
            if new is not None and ipd.get(b, "?") != new:
                ipd[b] = new
                changed = True
    return {b: (None if j == EXIT else j) for b, j in ipd.items() if b != EXIT}


def side_preds(succ, b, s, j):
    """The predecessors of join j that the side s of the branch in block b
    reaches without going through j (b itself when s is j: the edge b → j)."""
    if s == j:
        return {b}
    seen, work = {s}, [s]
    while work:
        x = work.pop()
        for t in succ.get(x, []):
            if t != j and t not in seen:
                seen.add(t)
                work.append(t)
    return {x for x in seen if j in succ.get(x, [])}


def two_disjoint_paths(succ, starts, ends, banned):
    """Whether two paths, vertex-disjoint, lead from the two blocks of
    `starts` to the two blocks of `ends` (in either pairing) without
    entering a block of `banned`: a max-flow of 2 on the graph with every
    block split into an in- and an out-node of capacity 1."""
    cap = {}

    def arc(u, v, c=1):
        cap[(u, v)] = cap.get((u, v), 0) + c
        cap.setdefault((v, u), 0)
    nodes = set(succ) | {t for ts in succ.values() for t in ts}
    for x in nodes:
        if x in banned:
            continue
        arc(("in", x), ("out", x))
        for t in succ.get(x, []):
            if t not in banned:
                arc(("out", x), ("in", t))
    for x in starts:
        arc("S", ("in", x))
    for x in ends:
        arc(("out", x), "T")
    adj = {}
    for (u, v) in cap:
        adj.setdefault(u, []).append(v)
    flow = 0
    for _ in range(2):
        prev, work = {"S": None}, ["S"]
        while work and "T" not in prev:
            u = work.pop()
            for v in adj.get(u, []):
                if v not in prev and cap[(u, v)] > 0:
                    prev[v] = u
                    work.append(v)
        if "T" not in prev:
            break
        v = "T"
        while prev[v] is not None:
            u = prev[v]
            cap[(u, v)] -= 1
            cap[(v, u)] += 1
            v = u
        flow += 1
    return flow == 2


def hidden_join(succ, b, j, p1, p2):
    """Whether block j is a join of the branch in block b reached through
    its predecessors p1 and p2 (LLVM's sync dependence): two paths from
    different successors of b, disjoint until j, the one entering j from
    p1, the other from p2 (the edge b → j itself counts as a path)."""
    ss = list(dict.fromkeys(succ.get(b, [])))
    if len(ss) != 2 or p1 == p2:
        return False
    if j in ss:  # one side is the edge b → j: the other reaches the other pred
        if b not in (p1, p2):
            return False
        other, q = (ss[1] if ss[0] == j else ss[0]), (p2 if p1 == b else p1)
        return reaches(succ, other, q, {j, b})
    return two_disjoint_paths(succ, ss, [p1, p2], {j, b})


def reaches(succ, s, t, banned):
    """Whether t is reachable from s without entering a block of banned."""
    seen, work = {s}, [s]
    while work:
        x = work.pop()
        if x == t:
            return True
        for y in succ.get(x, []):
            if y not in seen and y not in banned:
                seen.add(y)
                work.append(y)
    return False


def missed_joins(ll, lvals_all, lbrs):
    """Values LLVM calls uniform although they are phis at a join of a
    branch LLVM itself calls divergent, with different incoming values from
    the two sides of that branch: at the branch's immediate post-dominator,
    or at a block its two sides reach by disjoint paths (LLVM's own sync
    dependence; LLVM 16 misses such joins: llvm-project#137277), and every
    value LLVM calls uniform that depends on one. name → the divergent
    branch's block."""
    order, succ, phis, uses, cond = parse_function(ll)
    if not order:
        return {}, cond
    ipd = ipdoms(order, succ)
    missed = {}
    for b, div in lbrs.items():
        if not div:
            continue
        j = ipd.get(b)
        if j is not None and j in phis:
            sides = [side_preds(succ, b, s, j) for s in succ.get(b, [])]
            for name, inc in phis[j]:
                val = dict((p, v) for v, p in inc)
                # two sides of the branch bring different values into the join
                differ = any(val.get(p1) != val.get(p2)
                             for k, s1 in enumerate(sides) for s2 in sides[k + 1:]
                             for p1 in s1 for p2 in s2 if p1 in val and p2 in val)
                if differ and not lvals_all.get(name, True):
                    missed.setdefault(name, b)
        for jj, plist in phis.items():  # joins other than the ipdom
            if jj == j:
                continue
            for name, inc in plist:
                if name in missed or lvals_all.get(name, True):
                    continue
                if any(v1 != v2 and hidden_join(succ, b, jj, p1, p2)
                       for k, (v1, p1) in enumerate(inc) for v2, p2 in inc[k + 1:]):
                    missed[name] = b
    users = {}
    for v, us in uses.items():
        for u in us:
            users.setdefault(u, []).append(v)
    work = list(missed)
    while work:
        v = work.pop()
        for u in users.get(v, []):
            if u not in missed and not lvals_all.get(u, True):
                missed[u] = missed[v]
                work.append(u)
    return missed, cond


def parse_uniformity(text):
    """LLVM's verdicts: {value name: divergent}, {block name: divergent br i1}."""
    values, branches, lines, every = {}, {}, {}, {}
    block, section = None, None
    for line in text.splitlines():
        m = BLOCK_RE.match(line)
        if m:
            block, section = m.group(1), None
            continue
        s = line.strip()
        if s in ("DEFINITIONS", "TERMINATORS", "END BLOCK"):
            section = s
            continue
        if section == "DEFINITIONS":
            m = DEF_RE.match(line)
            if m:
                name = unquote(m.group(2))
                every[name] = bool(m.group(1))
                if "$" not in name:
                    values[name] = bool(m.group(1))
                    lines[name] = line.replace("DIVERGENT:", "").strip()
        elif section == "TERMINATORS" and block is not None:
            m = BR_RE.match(line)
            if m:
                branches[block] = bool(m.group(1))
    return values, branches, lines, every


class Result:
    def __init__(self, key, path):
        self.key = key            # program key for KNOWN_BRANCH_REASONS
        self.path = path
        self.skipped = None       # reason, when skipped
        self.opt_error = None     # opt-16 rejected the export
        self.nvars = self.nbranches = 0
        self.diff = {}            # analysis → {"var_less": [...], ...}
        self.unknown = []         # less-precise verdicts without a known reason
        # per variable or branch where some analysis differs from LLVM:
        # (kind, name) → {"musimd": {analysis: verdict}, "llvm": verdict,
        #                 "llvm_text": LLVM's line, "why": explanation or None}
        self.cases = {}

    def case(self, kind, name, llvm, text):
        return self.cases.setdefault((kind, name), {"musimd": {}, "llvm": llvm, "llvm_text": text,
                                                    "why": None})


def branch_key(b):
    return b["label"] if b.get("label") else "line %d" % b["line"]


def compare(args, path, key, tmp):
    res = Result(key, path)
    base = os.path.join(tmp, re.sub(r'[^A-Za-z0-9_.-]', '_', key))
    emit = [args.musimd, "emit-llvm", path] + (["--target", args.target] if args.target else [])
    rc, ll, err = run(emit)
    if rc != 0:
        res.skipped = "emit-llvm: " + first_line(err)
        return res
    analyses = [("affine d%d" % args.degree, ["--degree", str(args.degree)]),
                ("simple", ["--domain", "simple"])]
    mus = {}
    for name, opts in analyses:
        rc, out, err = run([args.musimd, "analyze", "--json"] + opts + [path])
        if rc != 0:
            res.skipped = "analyze %s: %s" % (" ".join(opts), first_line(err))
            return res
        try:
            mus[name] = json.loads(out)
        except ValueError as e:
            res.skipped = "analyze %s: bad JSON (%s)" % (" ".join(opts), e)
            return res
    llpath = base + ".ll"
    with open(llpath, "w") as f:
        f.write(ll)
    rc, out, err = run([args.opt, "-passes=print<uniformity>", "-disable-output", llpath])
    text = out + err  # LLVM 16 prints the analysis on stderr
    if args.keep:
        with open(base + ".uniformity.txt", "w") as f:
            f.write(text)
    if rc != 0:
        res.opt_error = first_line(err)
        return res
    blocks = parse_ll(ll)
    lvals, lbrs, ldefs, lall = parse_uniformity(text)
    missed, cond = missed_joins(ll, lall, lbrs)
    br_by_line = {}
    for blk, div in lbrs.items():
        if blk in blocks:
            br_by_line[blocks[blk][1]] = (blk, div)

    for name, _ in analyses:
        j = mus[name]
        d = {"var_less": [], "var_more": [], "br_less": [], "br_more": [], "unmapped": [],
             "explained": 0}
        nv = 0
        for v in j.get("variables", []):
            cls = v.get("class")
            if v["name"] not in lvals or cls in SKIP_CLASSES:
                continue  # parameters (kernel arguments), unexported code
            nv += 1
            m_uni = cls in UNIFORM_CLASSES
            l_div = lvals[v["name"]]
            if m_uni and l_div:
                d["var_more"].append((v["name"], cls, ldefs[v["name"]]))
                res.case("variable", v["name"], "divergent", ldefs[v["name"]])
            elif not m_uni and not l_div:
                why = ""
                c = res.case("variable", v["name"], "uniform", ldefs[v["name"]])
                known = KNOWN_VARIABLE_REASONS.get((key, v["name"]))
                if known:
                    why = " — known: " + known
                elif v["name"] in missed:
                    why = MISSED_JOIN % missed[v["name"]]
                    d["explained"] += 1
                else:
                    res.unknown.append("%s [%s]: variable %s" % (key, name, v["name"]))
                c["why"] = why[3:] if why else None
                d["var_less"].append((v["name"], cls, ldefs[v["name"]] + why))
        nb = 0
        for b in j.get("branches", []):
            hit = br_by_line.get(b["line"])
            if hit is None:
                d["unmapped"].append(branch_key(b))  # e.g. unreachable: not exported
                continue
            nb += 1
            blk, l_div = hit
            where = "%s (line %d, LLVM block %s)" % (branch_key(b), b["line"], blk)
            cname = "%s (line %d, LLVM block %s)" % (branch_key(b), b["line"], blk)
            if b["divergent"] and not l_div:
                c = res.case("branch", cname, "uniform", "block %s" % blk)
                known = KNOWN_BRANCH_REASONS.get((key, branch_key(b)))
                if known:
                    where += " — known: " + known
                elif cond.get(blk) in missed:
                    where += MISSED_JOIN % missed[cond[blk]]
                    d["explained"] += 1
                else:
                    res.unknown.append("%s [%s]: %s" % (key, name, where))
                c["why"] = where[len(cname) + 3:] if where != cname else None
                d["br_less"].append(where)
            elif not b["divergent"] and l_div:
                res.case("branch", cname, "divergent", "block %s" % blk)
                d["br_more"].append(where)
        res.diff[name] = d
        res.nvars, res.nbranches = max(res.nvars, nv), max(res.nbranches, nb)
    # every analysis's verdict on each case
    for name, _ in analyses:
        vcls = {v["name"]: v.get("class") for v in mus[name].get("variables", [])}
        bdiv = {}
        for b in mus[name].get("branches", []):
            hit = br_by_line.get(b["line"])
            if hit:
                bdiv["%s (line %d, LLVM block %s)" % (branch_key(b), b["line"], hit[0])] = \
                    "divergent" if b["divergent"] else "uniform"
        for (kind, cname), c in res.cases.items():
            c["musimd"][name] = vcls.get(cname, "?") if kind == "variable" else bdiv.get(cname, "?")
    return res


def report(res, verbose):
    print("== %s" % res.path)
    if res.skipped:
        print("   skipped: %s" % res.skipped)
        return
    if res.opt_error:
        print("   EXPORT REJECTED by opt-16: %s" % res.opt_error)
        return
    print("   %d variables, %d branches compared" % (res.nvars, res.nbranches))
    for name, d in res.diff.items():
        def show(title, items, fmt):
            if not items:
                return
            print("   [%s] %s (%d):" % (name, title, len(items)))
            for it in items:
                print("      " + fmt(it))
        var_fmt = (lambda t: "%-12s musimd %-15s LLVM: %s" % t) if verbose else \
                  (lambda t: "%-12s musimd %s%s" % (t[0], t[1], t[2][t[2].find(" — "):] if " — " in t[2] else ""))
        show("musimd less precise: LLVM uniform, musimd not — variables", d["var_less"], var_fmt)
        show("musimd more precise: musimd uniform, LLVM divergent — variables", d["var_more"], var_fmt)
        show("musimd less precise: LLVM uniform, musimd divergent — BRANCHES", d["br_less"], str)
        show("musimd more precise: musimd uniform, LLVM divergent — branches", d["br_more"], str)
        if d["unmapped"] and verbose:
            print("   [%s] branches not in the export (unreachable): %s" % (name, ", ".join(d["unmapped"])))
        if not any(d[k] for k in ("var_less", "var_more", "br_less", "br_more")):
            print("   [%s] same verdicts as LLVM" % name)


def counts(results, analyses):
    """Totals in both directions, per analysis."""
    print()
    for a in analyses:
        t = {k: sum(len(r.diff[a][k]) for r in results if a in r.diff)
             for k in ("var_less", "var_more", "br_less", "br_more")}
        print("[%s] musimd more precise (musimd uniform, LLVM 16 divergent): %d variables, %d branches; "
              "LLVM 16 more precise (LLVM uniform, musimd divergent): %d variables, %d branches"
              % (a, t["var_more"], t["br_more"], t["var_less"], t["br_less"]))


def program_file(r, args):
    """A file the case lists can name: the program itself, or a copy of a
    random program in --cases DIR."""
    if args.keep or not r.key.startswith("random"):
        return r.path
    os.makedirs(args.cases, exist_ok=True)
    dst = os.path.join(args.cases, re.sub(r'[^A-Za-z0-9_.-]', '_', r.key) + ".simd")
    shutil.copyfile(r.path, dst)
    return dst


def verdicts(c):
    return ", ".join("%s %s" % (a, v) for a, v in c["musimd"].items())


def list_cases(results, args):
    """Every variable and branch LLVM 16 calls uniform and musimd does not
    (to explain or fix), and every one that --domain simple calls uniform and
    LLVM divergent: the simple domain has no arithmetic that could cancel the
    thread id, so each is LLVM's imprecision or an unsound verdict of
    musimd's (check it with `musimd analyze FILE --verify`)."""
    less, simple_more = [], []
    for r in results:
        for (kind, name), c in sorted(r.cases.items()):
            if c["llvm"] == "uniform":
                less.append((r, kind, name, c))
            elif c["musimd"].get("simple") in UNIFORM_CLASSES:
                simple_more.append((r, kind, name, c))
    if less:
        print("\nLLVM 16 more precise than musimd (%d; each needs an explanation or a fix):" % len(less))
        for r, kind, name, c in less:
            print("  %s: %s %s: musimd %s; LLVM 16 uniform: %s — %s"
                  % (program_file(r, args), kind, name, verdicts(c), c["llvm_text"],
                     c["why"] or "UNEXPLAINED"))
    if simple_more:
        print("\n--domain simple uniform where LLVM 16 is divergent (%d; LLVM's imprecision or an "
              "unsound verdict of musimd's: check with analyze --verify):" % len(simple_more))
        for r, kind, name, c in simple_more:
            print("  %s: %s %s: musimd %s; LLVM 16 divergent: %s"
                  % (program_file(r, args), kind, name, verdicts(c), c["llvm_text"]))


def summary(results, analyses):
    print()
    print("Summary (less = LLVM uniform, musimd not; more = musimd uniform, LLVM divergent)")
    cols = ["program", "vars", "brs"]
    for a in analyses:
        cols += ["%s var less" % a, "var more", "br less", "br more"]
    rows = []
    tot = [0] * (len(cols) - 1)
    for r in results:
        if r.skipped:
            rows.append([r.key, "skipped"] + [""] * (len(cols) - 2))
            continue
        if r.opt_error:
            rows.append([r.key, "opt error"] + [""] * (len(cols) - 2))
            continue
        row = [r.nvars, r.nbranches]
        for a in analyses:
            d = r.diff[a]
            row += [len(d["var_less"]), len(d["var_more"]), len(d["br_less"]), len(d["br_more"])]
        tot = [t + x for t, x in zip(tot, row)]
        rows.append([r.key] + [str(x) for x in row])
    rows.append(["total"] + [str(x) for x in tot])
    w = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(cols)]
    print("| " + " | ".join(c.ljust(w[i]) for i, c in enumerate(cols)) + " |")
    print("|" + "|".join("-" * (x + 2) for x in w) + "|")
    for row in rows:
        print("| " + " | ".join(c.ljust(w[i]) if i == 0 else c.rjust(w[i])
                               for i, c in enumerate(row)) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("musimd")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--random", type=int, default=0, metavar="N", help="N random programs")
    ap.add_argument("--seed", type=int, default=1, metavar="S", help="first seed (default 1)")
    ap.add_argument("--size", type=int, default=60, metavar="Z", help="size of random programs (default 60)")
    ap.add_argument("--unstructured", action="store_true",
                    help="random programs with break, continue, short-circuit, early exit (gen --unstructured)")
    ap.add_argument("--no-examples", action="store_true",
                    help="without FILES: no examples, only the random programs")
    ap.add_argument("--degree", type=int, default=2, help="degree of the polynomial analysis (default 2)")
    ap.add_argument("--target", choices=["amdgpu", "nvptx"], default=None,
                    help="emit-llvm target (default: emit-llvm's, amdgpu)")
    ap.add_argument("--opt", default="opt-16", help="LLVM opt binary (default opt-16)")
    ap.add_argument("--keep", metavar="DIR", help="keep the .ll files and LLVM's verdicts in DIR")
    ap.add_argument("--verbose", "-v", action="store_true", help="show LLVM's definition of each difference")
    ap.add_argument("--cases", metavar="DIR", default=os.path.join(tempfile.gettempdir(), "llvm_compare-cases"),
                    help="where random programs named in the case lists are saved (default %(default)s; "
                         "with --keep: there)")
    args = ap.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = args.files or ([] if args.no_examples else
                           sorted(glob.glob(os.path.join(root, "examples", "*.simd"))))
    analyses = ["affine d%d" % args.degree, "simple"]
    results = []
    with tempfile.TemporaryDirectory(prefix="llvm_compare.") as tmpdir:
        tmp = args.keep or tmpdir
        os.makedirs(tmp, exist_ok=True)
        work = [(f, os.path.basename(f)) for f in files]
        for i in range(args.random):
            seed = args.seed + i
            path = os.path.join(tmp, "random-%d.simd" % seed)
            rc, out, err = run([args.musimd, "gen", "--seed", str(seed), "--size", str(args.size)]
                               + (["--unstructured"] if args.unstructured else []))
            key = "random%s:%d:%d" % ("-u" if args.unstructured else "", seed, args.size)
            if rc != 0:
                r = Result(key, path)
                r.skipped = "gen: " + first_line(err)
                results.append(r)
                report(r, args.verbose)
                continue
            with open(path, "w") as f:
                f.write(out)
            work.append((path, key))
        for path, key in work:
            r = compare(args, path, key, tmp)
            results.append(r)
            report(r, args.verbose)
        # inside the with: list_cases copies random programs from tmp
        summary(results, analyses)
        counts(results, analyses)
        expl = sum(d["explained"] for r in results for d in r.diff.values())
        if expl:
            print("\nless-precise verdicts explained by LLVM 16 missing a join of its own "
                  "divergent branch: %d" % expl)
        list_cases(results, args)
    skipped = [r for r in results if r.skipped]
    if skipped:
        print("\nskipped: " + ", ".join(r.key for r in skipped))
    bad = False
    if len(skipped) == len(results):
        print("\nllvm_compare.py: nothing compared (every program was skipped)")
        bad = True
    opt_err = [r for r in results if r.opt_error]
    if opt_err:
        print("\nexport rejected by %s (an emit-llvm bug): %s" % (args.opt, ", ".join(r.key for r in opt_err)))
        bad = True
    unknown = [u for r in results for u in r.unknown]
    if unknown:
        print("\nmusimd less precise than LLVM with no known reason (marked UNEXPLAINED above; "
              "explain it in KNOWN_BRANCH_REASONS / KNOWN_VARIABLE_REASONS once understood, "
              "or fix musimd): %d verdict(s)" % len(unknown))
        bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
