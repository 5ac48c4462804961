#!/usr/bin/env python3
"""Large μ-SIMD programs of the shapes that stress loading and the CFG.

usage: bench/big_inputs.py SHAPE N [--gsa] [-o FILE]
       bench/big_inputs.py --list

Shapes (N is the size parameter; the program is a function of SHAPE and N):
  chain N       N if-thens one after another (`bz`, one assignment, `sync`):
                about 4N instructions, a dominator tree N deep, N joins
  diamonds N    N if-then-elses one after another, each assigning a fresh
                variable on both sides that is read after a further if-then
                (definitely assigned, though no definition dominates the read):
                about 11N instructions
  nested-if N   N ifs nested in one another: about 3N instructions, N deep
  nested-loop N N loops nested in one another (counted loops, 2 iterations):
                about 7N instructions, loop nesting N deep
  branches N    N conditional branches into one target (a join with N+1
                predecessors), one assignment between them: about 3N
  straight N    N instructions of straight-line arithmetic on 16 variables
  live N        N variables assigned on both sides of one if-then-else, then
                N if-thens, then the N variables read: every read is
                definitely assigned although no assignment dominates it, and
                each variable stays live across the whole chain: about 7N

--gsa writes the same program in GSA form (what `musimd gsa` would make of
it: γ at the joins of if-thens, μ at loop headers, η at loop exits, a φ at
the join of `branches`), so that the commands that take a GSA program as
written (`emit-llvm`, `analyze`) can be measured without the conversion.
`straight` has no joins: --gsa leaves it as it is.

Every program is valid (`musimd check` accepts it without warnings) and
ends with `stop`; every shape but `branches` places a `sync` at each
reconvergence point and runs under every model. `branches` runs under
`ipdom` and `mimd`; no placement of syncs lets the `sync` model run it (a
join shared by many branches, issue 9). The benchmark
(bench/analysis_scaling.sh) and the `long` test suite (tests/big_inputs.py)
use it.
"""

import argparse
import sys

SHAPES = ("chain", "diamonds", "nested-if", "nested-loop", "branches", "straight", "live")


def chain(n, out):
    out.append("        x = 0")
    for i in range(n):
        out.append("        p = tid < %d" % (i % 64))
        out.append("        bz p, E%d" % i)
        out.append("        x = x + %d" % (i % 7 + 1))
        out.append("E%d:     sync" % i)
    out.append("        mem[tid] = x")


def diamonds(n, out):
    out.append("        s = 0")
    for i in range(n):
        out.append("        p = tid < %d" % (i % 64))
        out.append("        bz p, F%d" % i)
        out.append("        v%d = %d" % (i, i))
        out.append("        jump J%d" % i)
        out.append("F%d:     v%d = tid" % (i, i))
        out.append("J%d:     sync" % i)
        out.append("        q = tid > %d" % (i % 32))
        out.append("        bz q, K%d" % i)
        out.append("        s = s + 1")
        out.append("K%d:     sync" % i)
        out.append("        s = s + v%d" % i)
    out.append("        mem[tid] = s")


def nested_if(n, out):
    out.append("        x = 0")
    for i in range(n):
        out.append("        p = tid < %d" % (n - i))
        out.append("        bz p, E%d" % i)
    out.append("        x = x + 1")
    for i in reversed(range(n)):
        out.append("E%d:     sync" % i)
    out.append("        mem[tid] = x")


def nested_loop(n, out):
    out.append("        x = 0")
    for i in range(n):
        out.append("        i%d = 0" % i)
        out.append("H%d:     p = i%d < 2" % (i, i))
        out.append("        bz p, X%d" % i)
    out.append("        x = x + 1")
    for i in reversed(range(n)):
        out.append("        i%d = i%d + 1" % (i, i))
        out.append("        jump H%d" % i)
        out.append("X%d:     sync" % i)
    out.append("        mem[tid] = x")


def branches(n, out):
    out.append("        x = 0")
    for i in range(n):
        out.append("        p = tid == %d" % i)
        out.append("        bnz p, T")
        out.append("        x = x + 1")
    out.append("T:      sync")
    out.append("        mem[tid] = x")


def straight(n, out):
    for k in range(16):
        out.append("        x%d = tid + %d" % (k, k))
    ops = ("+", "-", "*", "^", "&", "|")
    for i in range(max(n - 32, 0)):
        a, b, c = i % 16, (i * 7 + 3) % 16, (i * 5 + 1) % 16
        out.append("        x%d = x%d %s x%d" % (a, b, ops[i % len(ops)], c))
    for k in range(16):
        out.append("        a = tid + %d" % (64 * k))
        out.append("        mem[a] = x%d" % k)


def chain_gsa(n, out):
    out.append("        x0 = 0")
    for i in range(n):
        out.append("        p%d = tid < %d" % (i, i % 64))
        out.append("        bz p%d, E%d" % (i, i))
        out.append("        t%d = x%d + %d" % (i, i, i % 7 + 1))
        out.append("E%d:     x%d = gamma(p%d, t%d, x%d)" % (i, i + 1, i, i, i))
    out.append("        mem[tid] = x%d" % n)


def diamonds_gsa(n, out):
    out.append("        s0 = 0")
    for i in range(n):
        out.append("        p%d = tid < %d" % (i, i % 64))
        out.append("        bz p%d, F%d" % (i, i))
        out.append("        va%d = %d" % (i, i))
        out.append("        jump J%d" % i)
        out.append("F%d:     vb%d = tid" % (i, i))
        out.append("J%d:     v%d = gamma(p%d, va%d, vb%d)" % (i, i, i, i, i))
        out.append("        q%d = tid > %d" % (i, i % 32))
        out.append("        bz q%d, K%d" % (i, i))
        out.append("        sa%d = s%d + 1" % (i, i))
        out.append("K%d:     sb%d = gamma(q%d, sa%d, s%d)" % (i, i, i, i, i))
        out.append("        s%d = sb%d + v%d" % (i + 1, i, i))
    out.append("        mem[tid] = s%d" % n)


def nested_if_gsa(n, out):
    out.append("        x = 0")
    for i in range(n):
        out.append("        p%d = tid < %d" % (i, n - i))
        out.append("        bz p%d, E%d" % (i, i))
    out.append("        y%d = x + 1" % n)
    for i in reversed(range(n)):
        out.append("E%d:     y%d = gamma(p%d, y%d, x)" % (i, i, i, i + 1))
    out.append("        mem[tid] = y0")


def nested_loop_gsa(n, out):
    # level i: a_i enters, m_i = mu(a_i, b_i) at the header, e_i = eta(p_i, m_i) at the exit;
    # a_{i+1} = m_i; b_i is the value at the latch: e_{i+1}, or m_i + 1 innermost
    out.append("        a0 = 0")
    for i in range(n):
        out.append("        j%d = 0" % i)
        out.append("H%d:     m%d = mu(%s, b%d)" % (i, i, "a0" if i == 0 else "m%d" % (i - 1), i))
        out.append("        k%d = mu(j%d, l%d)" % (i, i, i))
        out.append("        p%d = k%d < 2" % (i, i))
        out.append("        bz p%d, X%d" % (i, i))
    out.append("        b%d = m%d + 1" % (n - 1, n - 1))
    for i in reversed(range(n)):
        out.append("        l%d = k%d + 1" % (i, i))
        out.append("        jump H%d" % i)
        out.append("X%d:     e%d = eta(p%d, m%d)" % (i, i, i, i))
        if i > 0:
            out.append("        b%d = e%d + 0" % (i - 1, i))
    out.append("        mem[tid] = e0")


def branches_gsa(n, out):
    out.append("        x0 = 0")
    for i in range(n):
        out.append("        p%d = tid == %d" % (i, i))
        out.append("        bnz p%d, T" % i)
        out.append("        x%d = x%d + 1" % (i + 1, i))
    out.append("T:      y = phi(%s)" % ", ".join("x%d" % i for i in range(n + 1)))
    out.append("        mem[tid] = y")


def live(n, out):
    out.append("        p = tid & 1")
    out.append("        bz p, E")
    for i in range(n):
        out.append("        v%d = %d" % (i, i))
    out.append("        jump J")
    for i in range(n):
        out.append("%s      v%d = tid + %d" % ("E:" if i == 0 else "  ", i, i))
    out.append("J:      sync")
    out.append("        x = 0")
    for i in range(n):
        out.append("        q = tid < %d" % (i % 64))
        out.append("        bz q, C%d" % i)
        out.append("        x = x + 1")
        out.append("C%d:     sync" % i)
    for i in range(n):
        out.append("        x = x + v%d" % i)
    out.append("        mem[tid] = x")


def live_gsa(n, out):
    out.append("        p = tid & 1")
    out.append("        bz p, E")
    for i in range(n):
        out.append("        a%d = %d" % (i, i))
    out.append("        jump J")
    for i in range(n):
        out.append("%s       b%d = tid + %d" % ("E:" if i == 0 else "  ", i, i))
    for i in range(n):
        out.append("%s       v%d = gamma(p, a%d, b%d)" % ("J:" if i == 0 else "  ", i, i, i))
    out.append("        x0 = 0")
    for i in range(n):
        out.append("        q%d = tid < %d" % (i, i % 64))
        out.append("        bz q%d, C%d" % (i, i))
        out.append("        t%d = x%d + 1" % (i, i))
        out.append("C%d:     x%d = gamma(q%d, t%d, x%d)" % (i, i + 1, i, i, i))
    out.append("        s0 = x%d" % n)
    for i in range(n):
        out.append("        s%d = s%d + v%d" % (i + 1, i, i))
    out.append("        mem[tid] = s%d" % n)


def program(shape, n, gsa=False):
    out = ["# bench/big_inputs.py %s %d%s" % (shape, n, " --gsa" if gsa else ""), ".kernel big", ".threads 64", ".memory zero"]
    if gsa:
        {"chain": chain_gsa, "diamonds": diamonds_gsa, "nested-if": nested_if_gsa,
         "nested-loop": nested_loop_gsa, "branches": branches_gsa, "straight": straight,
         "live": live_gsa}[shape](n, out)
    else:
        {"chain": chain, "diamonds": diamonds, "nested-if": nested_if, "nested-loop": nested_loop,
         "branches": branches, "straight": straight, "live": live}[shape](n, out)
    out.append("        stop")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shape", nargs="?", choices=SHAPES)
    ap.add_argument("n", nargs="?", type=int)
    ap.add_argument("--gsa", action="store_true", help="in GSA form")
    ap.add_argument("-o", "--output")
    ap.add_argument("--list", action="store_true", help="print the shapes")
    a = ap.parse_args()
    if a.list:
        print("\n".join(SHAPES))
        return 0
    if a.shape is None or a.n is None or a.n < 1:
        ap.error("needs SHAPE and N >= 1")
    text = program(a.shape, a.n, a.gsa)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
