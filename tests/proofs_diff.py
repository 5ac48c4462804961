#!/usr/bin/env python3
"""The extracted Coq step function (proofs/coqrun) against musimd's C
interpreter (`musimd run --trace --json`): on every example of the
mechanised fragment (under both bz polarities and with --strict-push) and
on random programs of `musimd gen --no-atomics`, the same rule, pc, active
set and stack at every step, the same outcome (status, stuck rule), the
same final Σ and the same variables of every thread.

The stack bound (proofs/Structured.v): the extracted check says which
programs are structured and their bound (the nesting of their regions);
on every run of a structured program the deepest Π of the Coq run and
musimd's max_stack_depth must both be at most the bound. The structured
examples are listed, so that the predicate is seen not to be vacuous.

usage: proofs_diff.py MUSIMD COQRUN EXAMPLES_DIR [--count N] [--first SEED]

The fragment (proofs/Syntax.v): one warp; copies, unary and binary
operators, loads and stores of shared memory, atominc, bz/bnz/branch,
jump, sync, stop. A program outside it (GSA, local memory, exit, barrier,
the other atomics, several warps) is skipped and counted as skipped.
Exit status 0 when every program in the fragment agrees, 1 otherwise.
"""
import json
import os
import re
import subprocess
import sys

SPECIALS = {"tid": "tid", "T_id": "tid", "Tid": "tid", "laneid": "laneid",
            "warpid": "warpid", "ntid": "ntid", "nwarps": "nwarps",
            "warpsize": "warpsize"}
BINOPS = {"+": "add", "-": "sub", "*": "mul", "×": "mul", "/": "div", "%": "mod",
          "<": "lt", "<=": "le", "≤": "le", ">": "gt", ">=": "ge", "≥": "ge",
          "==": "eq", "!=": "ne", "≠": "ne", "&": "and", "|": "or", "^": "xor",
          "<<": "shl", ">>": "shr", "&&": "land", "||": "lor"}
UNOPS = {"-": "neg", "!": "not", "~": "bnot"}
ID = r"[A-Za-z_][A-Za-z0-9_.']*"
INT = r"-?(?:0[xX][0-9a-fA-F]+|[0-9]+)"
OPND = rf"(?:{ID}|{INT})"
BINRE = "|".join(re.escape(k) for k in sorted(BINOPS, key=len, reverse=True))
STEP_LIMIT = 20000  # infinite_loop.simd runs into it in both


class Outside(Exception):
    """The program is not in the mechanised fragment."""


class Prog:
    def __init__(self):
        self.vars = {}
        self.params = {}
        self.data = []
        self.ins = []          # (words, line)
        self.labels = {}       # name -> pc
        self.first_label = {}  # pc -> name
        self.threads = 4
        self.warpsize = 0
        self.memzero = False

    def var(self, name):
        if name not in self.vars:
            self.vars[name] = len(self.vars)
        return self.vars[name]

    def opnd(self, tok):
        tok = tok.strip()
        if re.fullmatch(INT, tok):
            return "l%d" % int(tok, 0)
        if tok in SPECIALS:
            return "s:" + SPECIALS[tok]
        if re.fullmatch(ID, tok):
            return "v%d" % self.var(tok)
        raise Outside("operand " + tok)


def parse(text):
    p = Prog()
    pending = []
    raw = []
    for lineno, line in enumerate(text.split("\n"), 1):
        line = re.split(r"#|//|;", line, maxsplit=1)[0].strip()
        if not line:
            continue
        if line.startswith("."):
            w = line.split()
            d = w[0]
            if d == ".threads":
                p.threads = int(w[1], 0)
            elif d == ".warpsize":
                p.warpsize = int(w[1], 0)
            elif d == ".memory":
                p.memzero = w[1] == "zero"
            elif d == ".param":
                m = re.fullmatch(rf"\.param\s+({ID})\s*(?:=\s*({INT}))?", line)
                if not m:
                    raise Outside("param " + line)
                p.var(m.group(1))
                if m.group(2) is not None:
                    p.params[m.group(1)] = int(m.group(2), 0)
            elif d == ".data":
                m = re.fullmatch(rf"\.data\s+({INT})\s*:\s*(.*)", line)
                if not m:
                    raise Outside("data " + line)
                a = int(m.group(1), 0)
                for k, v in enumerate(m.group(2).replace(",", " ").split()):
                    p.data.append((a + k, int(v, 0)))
            elif d == ".fill":
                m = re.fullmatch(rf"\.fill\s+({INT})\s*[:,]?\s*({INT})\s*[:,]?\s*({INT})", line)
                if not m:
                    raise Outside("fill " + line)
                a, n, v = (int(g, 0) for g in m.groups())
                p.data += [(a + k, v) for k in range(n)]
            elif d == ".kernel":
                pass
            else:
                raise Outside("directive " + d)
            continue
        while True:
            m = re.match(rf"({ID}|[0-9]+)\s*:\s*(?!=)", line)
            if not m or re.match(rf"{ID}\s*:\s*=", line):
                break
            pending.append(m.group(1))
            line = line[m.end():]
        if not line:
            continue
        pc = len(raw)
        for lab in pending:
            p.labels[lab] = pc
            p.first_label.setdefault(pc, lab)
        pending = []
        raw.append((line, lineno))
    if pending:
        raise Outside("label at the end")
    for line, lineno in raw:
        p.ins.append((stmt(p, line), lineno))
    return p


def target(p, lab):
    lab = lab.strip()
    if lab not in p.labels:
        raise Outside("target " + lab)
    return str(p.labels[lab])


def stmt(p, s):
    s = s.strip()
    m = re.fullmatch(rf"(bz|bnz)\s+({OPND})\s*,\s*({ID}|[0-9]+)", s)
    if m:
        return [m.group(1), p.opnd(m.group(2)), target(p, m.group(3))]
    m = re.fullmatch(rf"branch\s*\(\s*({OPND})\s*,\s*({ID}|[0-9]+)\s*\)", s)
    if m:
        return ["bnz", p.opnd(m.group(1)), target(p, m.group(2))]
    m = re.fullmatch(rf"(?:jump|jmp)\s*\(?\s*({ID}|[0-9]+)\s*\)?", s)
    if m:
        return ["jump", target(p, m.group(1))]
    if s in ("sync", "stop"):
        return [s]
    m = re.fullmatch(rf"(?:mem\s*\[\s*({OPND})\s*\]|↑\s*({OPND}))\s*=\s*({OPND})", s)
    if m:
        return ["store", p.opnd(m.group(1) or m.group(2)), p.opnd(m.group(3))]
    m = re.fullmatch(rf"store\s*\(\s*({OPND})\s*,\s*({OPND})\s*\)", s)
    if m:
        return ["store", p.opnd(m.group(2)), p.opnd(m.group(1))]
    m = re.fullmatch(rf"(load|atominc|const)\s*\(\s*({ID})\s*,\s*({OPND})\s*\)", s)
    if m:
        op = "copy" if m.group(1) == "const" else m.group(1)
        return [op, str(p.var(m.group(2))), p.opnd(m.group(3))]
    m = re.fullmatch(rf"({ID})\s*\(\s*({ID})\s*,\s*({OPND})\s*,\s*({OPND})\s*\)", s)
    if m and m.group(1) in BINOPS.values() or m and m.group(1) in ("min", "max"):
        # the functional form of seed 003: add(d, a, b), lt(d, a, b), ...
        return ["binary", m.group(1), str(p.var(m.group(2))), p.opnd(m.group(3)), p.opnd(m.group(4))]
    m = re.fullmatch(rf"({ID})\s*(?:=|<-|←)\s*(.*)", s)
    if not m:
        raise Outside("statement " + s)
    d, rhs = m.group(1), m.group(2).strip()
    if d in SPECIALS or d in ("mem", "local"):
        raise Outside("statement " + s)
    for form, op in ((rf"mem\s*\[\s*({OPND})\s*\]", "load"), (rf"↓\s*({OPND})", "load"),
                     (rf"atominc\s*\(\s*({OPND})\s*\)", "atominc")):
        mm = re.fullmatch(form, rhs)
        if mm:
            return [op, str(p.var(d)), p.opnd(mm.group(1))]
    mm = re.fullmatch(rf"(min|max)\s*\(\s*({OPND})\s*,\s*({OPND})\s*\)", rhs)
    if mm:
        return ["binary", mm.group(1), str(p.var(d)), p.opnd(mm.group(2)), p.opnd(mm.group(3))]
    mm = re.fullmatch(rf"({OPND})\s*({BINRE})\s*({OPND})", rhs)
    if mm:
        return ["binary", BINOPS[mm.group(2)], str(p.var(d)), p.opnd(mm.group(1)), p.opnd(mm.group(3))]
    mm = re.fullmatch(rf"({OPND})\s*(-[0-9][0-9a-fA-FxX]*)", rhs)  # `a -3` is a - 3
    if mm:
        return ["binary", "sub", str(p.var(d)), p.opnd(mm.group(1)), p.opnd(mm.group(2)[1:])]
    mm = re.fullmatch(rf"([-!~])\s*({OPND})", rhs)
    if mm and not re.fullmatch(INT, rhs):
        return ["unary", UNOPS[mm.group(1)], str(p.var(d)), p.opnd(mm.group(2))]
    if re.fullmatch(OPND, rhs):
        return ["copy", str(p.var(d)), p.opnd(rhs)]
    raise Outside("statement " + s)


def coq_input(p, bz_mnemonic, strict):
    out = ["opts %d %d %d %d %d %d %d" % (bz_mnemonic, strict, p.memzero, p.threads,
                                          p.warpsize or p.threads, len(p.vars), STEP_LIMIT)]
    out += ["init %d %d" % (p.vars[k], v) for k, v in p.params.items()]
    out += ["data %d %d" % av for av in p.data]
    out += ["i " + " ".join(w) for w, _ in p.ins]
    return "\n".join(out) + "\n"


def where(p, pc):
    return p.first_label.get(pc, "@%d" % p.ins[pc][1])


def c_set(ranges):
    return ",".join(str(t) for a, b in ranges for t in range(a, b + 1)) or "-"


def c_stack(st):
    if not st:
        return "[]"
    return ";".join("%s/%s/%s/%s" % (n["l_id"], c_set(n["done"]), n["l_next"], c_set(n["todo"]))
                    for n in st)


def coq_stack(p, s):
    if s == "[]":
        return s
    nodes = []
    for n in s.split(";"):
        lid, done, lnext, todo = n.split("/")
        nodes.append("%s/%s/%s/%s" % (where(p, int(lid)), done, where(p, int(lnext)), todo))
    return ";".join(nodes)


def compare(musimd, coqrun, path, p, flags, bz_mnemonic, strict, shape):
    """None when C and Coq agree, else a description of the first difference.
    shape gets [structured, bound, deepest Π] of the run."""
    c = subprocess.run([musimd, "run", path, "--trace", "--json", "--trace-limit", "0",
                        "--max-steps", str(STEP_LIMIT)] + flags,
                       capture_output=True, text=True, timeout=300)
    try:
        cj = json.loads(c.stdout)
    except ValueError:
        return "musimd gave no JSON (exit %d): %s" % (c.returncode, c.stderr.strip()[:200])
    k = subprocess.run([coqrun], input=coq_input(p, bz_mnemonic, strict),
                       capture_output=True, text=True, timeout=300)
    if k.returncode != 0:
        return "coqrun failed: " + k.stderr.strip()[:200]
    steps, status, mem, vars_ = [], None, {}, {}
    for line in k.stdout.splitlines():
        w = line.split()
        if w[0] == "step":
            steps.append((w[1], int(w[2]), w[3], coq_stack(p, w[4])))
        elif w[0] == "status":
            status = w[1:]
        elif w[0] == "mem":
            mem[int(w[1], 0)] = int(w[2], 0)
        elif w[0] == "var":
            vars_.setdefault(int(w[1]), {})[int(w[2])] = int(w[3], 0)
        elif w[0] == "structured":
            shape[:] = [w[1] == "1", int(w[2]) if w[1] == "1" else None,
                        max(int(w[3]), cj.get("max_stack_depth", 0))]
    if not shape:
        return "coqrun printed no structured line"
    if shape[0] and shape[2] > shape[1]:
        return "stack bound: Π reached depth %d (musimd %s) in a structured program whose bound is %d" \
            % (shape[2], cj.get("max_stack_depth"), shape[1])
    ctrace = cj["trace"]
    for i, (cs, ks) in enumerate(zip(ctrace, steps)):
        cc = (cs["rule"], cs["pc"], c_set(cs["active"]), c_stack(cs["stack"]))
        if cc != ks:
            return "step %d: musimd %s, coq %s" % (i + 1, cc, ks)
    if len(ctrace) != len(steps):
        return "musimd took %d steps, coq %d" % (len(ctrace), len(steps))
    cstatus = cj["status"]
    if status[0] == "ok" or status[0] == "limit":
        want = "ok" if status[0] == "ok" else "step-limit"
        if cstatus != want:
            return "status: musimd %s, coq %s" % (cstatus, status)
    else:
        err = cj.get("error") or {}
        if cstatus != "stuck" or err.get("rule") != status[1]:
            return "status: musimd %s %s, coq %s" % (cstatus, err.get("rule"), status)
    cmem = {int(a): v for a, v in cj.get("shared", {}).items()}
    if cmem != mem:
        diff = sorted(set(cmem.items()) ^ set(mem.items()))[:4]
        return "final Σ differs: %s" % diff
    # musimd lists the variables a thread assigned, not the parameters
    names = {i: n for n, i in p.vars.items() if n not in p.params}
    for th in cj.get("vars", []):
        t = th["tid"]
        kv = {names[x]: v for x, v in vars_.get(t, {}).items() if x in names}
        if th["values"] != kv:
            return "variables of thread %d: musimd %s, coq %s" % (t, th["values"], kv)
    return None


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    musimd, coqrun, exdir = args[:3]
    count, first = 40, 1
    rest = args[3:]
    while rest:
        if rest[0] == "--count":
            count = int(rest[1])
        elif rest[0] == "--first":
            first = int(rest[1])
        else:
            print("unknown option " + rest[0], file=sys.stderr)
            return 2
        rest = rest[2:]
    tmp = os.environ.get("TMPDIR", "/tmp")
    cases = []
    for name in sorted(os.listdir(exdir)):
        if name.endswith(".simd"):
            path = os.path.join(exdir, name)
            cases.append(("example", path, open(path, encoding="utf-8").read()))
    for seed in range(first, first + count):
        g = subprocess.run([musimd, "gen", "--seed", str(seed), "--no-atomics"],
                           capture_output=True, text=True, check=True)
        path = os.path.join(tmp, "proofs_diff_gen_%d_%d.simd" % (os.getpid(), seed))
        with open(path, "w", encoding="utf-8") as f:
            f.write(g.stdout)
        cases.append(("gen", path, g.stdout))
    agreed = {"example": 0, "gen": 0}
    skipped, runs, steps, failed = [], 0, 0, []
    structured = {"example": [], "gen": []}
    bounded_runs = 0
    unstructured = []
    variants = [([], 1, 0), (["--bz-polarity", "rules"], 0, 0), (["--strict-push"], 1, 1)]
    for kind, path, text in cases:
        try:
            p = parse(text)
            if p.warpsize and p.warpsize < p.threads:
                raise Outside("several warps")
        except Outside as e:
            skipped.append("%s (%s)" % (os.path.basename(path), e))
            continue
        ok = True
        shapes = []
        for flags, bzm, strict in (variants if kind == "example" else variants[:1]):
            shape = []
            why = compare(musimd, coqrun, path, p, flags, bzm, strict, shape)
            runs += 1
            if shape:
                shapes.append(shape)
                bounded_runs += shape[0]
            if why:
                ok = False
                failed.append("%s %s: %s" % (os.path.basename(path), " ".join(flags), why))
        if ok:
            agreed[kind] += 1
        if shapes and not shapes[0][0] and kind == "example":
            unstructured.append(os.path.basename(path))
        if shapes and shapes[0][0]:
            structured[kind].append("%s (bound %d, deepest %d)" % (
                os.path.basename(path), shapes[0][1], max(sh[2] for sh in shapes)))
        if kind == "gen":
            os.unlink(path)
    for s in skipped:
        print("skipped (outside the fragment): " + s)
    for f in failed:
        print("DIFFERS: " + f)
    print("structured examples: " + (", ".join(structured["example"]) or "none"))
    print("not structured: " + (", ".join(unstructured) or "none"))
    print("proofs_diff: stack bound: %d examples and %d gen programs structured, "
          "depth within the bound on all %d of their runs"
          % (len(structured["example"]), len(structured["gen"]), bounded_runs))
    print("proofs_diff: %d examples and %d gen programs agree (%d runs compared step by step); "
          "%d programs outside the fragment skipped; %d differences"
          % (agreed["example"], agreed["gen"], runs, len(skipped), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
