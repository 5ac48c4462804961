#!/usr/bin/env python3
"""The names of the Coq development (proofs/Syntax.v, printed by the
extracted `coqrun --names`) against those of the C code: the rules
(enum Rule in src/sem.h, rule_names in src/sem.c), the opcodes (enum Op in
src/ir.h, ir_op_name in src/ir.c) and the binary operators (enum BinOp in
src/num.h, binop_names in src/num.c), in the same order, so that the two
cannot drift apart silently.

usage: proofs_names.py SOURCE_ROOT COQRUN
"""
import re
import subprocess
import sys


def c_enum(text, name, prefix):
    m = re.search(r"typedef enum %s \{(.*?)\}" % name, text, re.S)
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    names = [w.strip() for w in body.split(",") if w.strip()]
    names = [n.split("=")[0].strip() for n in names]
    return [n[len(prefix):].lower() for n in names if not n.endswith("__COUNT")]


def c_strings(text, array, size):
    m = re.search(r"%s\[%s\] = \{(.*?)\};" % (re.escape(array), size), text, re.S)
    return re.findall(r'"([^"]*)"', re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S))


def main():
    root, coqrun = sys.argv[1], sys.argv[2]
    src = lambda f: open("%s/src/%s" % (root, f), encoding="utf-8").read()
    out = subprocess.run([coqrun, "--names"], capture_output=True, text=True, check=True).stdout
    coq = {"rule": [], "opcode": [], "binop": []}
    for line in out.splitlines():
        kind, name = line.split()
        coq[kind].append(name)
    checks = [
        ("rules (enum Rule, src/sem.h)", [n.upper() for n in c_enum(src("sem.h"), "Rule", "RULE_")],
         coq["rule"]),
        ("rules (sem_rule_name, src/sem.c)", c_strings(src("sem.c"), "rule_names", "RULE__COUNT"), coq["rule"]),
        ("opcodes (enum Op, src/ir.h)", c_enum(src("ir.h"), "Op", "OP_"), coq["opcode"]),
        ("opcodes (ir_op_name, src/ir.c)", c_strings(src("ir.c"), "names", "OP__COUNT"), coq["opcode"]),
        ("binary operators (enum BinOp, src/num.h)", c_enum(src("num.h"), "BinOp", "BIN_"),
         coq["binop"]),
        ("binary operators (num_binop_name, src/num.c)", c_strings(src("num.c"), "binop_names", "BIN__COUNT"),
         coq["binop"]),
    ]
    bad = 0
    for what, c, k in checks:
        if c != k:
            bad += 1
            print("proofs_names: %s differ:\n  C:   %s\n  Coq: %s" % (what, c, k))
    print("proofs_names: %d of %d name tables agree (%d rules, %d opcodes, %d binary operators)"
          % (len(checks) - bad, len(checks), len(coq["rule"]), len(coq["opcode"]), len(coq["binop"])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
