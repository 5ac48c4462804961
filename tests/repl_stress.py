#!/usr/bin/env python3
"""Random REPL sessions: every command ends, and the REPL never crashes.

Usage: repl_stress.py MUSIMD [--sessions N] [--seed S] [--long] [--jobs J]

Each session is `musimd repl` on one of the examples with a script of
random commands on stdin: the commands of musimd-repl(1) with arguments
drawn from the program (its labels, variables, parameters, lines), hostile
numbers (0, -1, 2^63 - 1, 2^63, 10^30, ...), memory ranges, the options'
values and garbage, and empty lines (which repeat the last command). A
session must end within its timeout (10 s; every command is bounded by the
step limit and the other limits), with exit status 0 or 1 (1: a command
failed), and never with a crash, a sanitizer report or "out of memory".

The quick run (the default, in ./test.sh) makes 2000 sessions with a step
limit of at most 10^5; --long makes 20 000 with the default limit (10^7)
in a third of them. A MUSIMD built with AddressSanitizer (./test.sh --asan)
runs ten times slower: the quick run then makes the first 200 sessions,
with six times the timeout. Sessions are seeded: a failure prints the seed and
the script, and `--seed S --sessions 1` replays the first one.
Run from the project root.
"""
import os
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

EXAMPLES = "examples"
TIMEOUT = 10.0  # --long: 60 s (sessions of 4194304 threads)

NUMBERS = ["0", "1", "2", "3", "7", "16", "100", "-1", "-5", "4096", "65536",
           "9223372036854775807", "9223372036854775808", "-9223372036854775808",
           "1000000000000000000000000000000", "x", "1.5", "0x10", ""]


def program_words(path):
    """Labels, variables, parameters and the number of lines of an example."""
    labels, names, params = set(), set(), set()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.count("\n") + 1
    for line in text.splitlines():
        code = line.split("#", 1)[0]
        if code.startswith(".param"):
            parts = code.replace("=", " ").split()
            if len(parts) > 1:
                params.add(parts[1])
            continue
        if ":" in code and not code.lstrip().startswith("."):
            head = code.split(":", 1)[0].strip()
            if head and " " not in head and "[" not in head:
                labels.add(head)
        for tok in code.replace(",", " ").replace("=", " ").replace("(", " ").replace(")", " ").replace("[", " ").replace("]", " ").split():
            if tok.isidentifier() and tok not in ("mem", "bz", "bnz", "jump", "sync", "stop", "exit", "barrier"):
                names.add(tok)
    return sorted(labels), sorted(names | params), sorted(params), lines


def command(rng, words, examples, long, steps):
    labels, names, params, lines = words
    num = lambda: rng.choice(NUMBERS)
    small = lambda: str(rng.choice([0, 1, 2, 3, 5, 10, 100, 1000]))
    label = lambda: rng.choice(labels) if labels and rng.random() < 0.8 else rng.choice(["l99", "nosuch", "0", str(lines + 5), num()])
    name = lambda: rng.choice(names) if names and rng.random() < 0.8 else rng.choice(["tid", "ntid", "warpid", "zz", "mem[", num()])
    cell = lambda: rng.choice(["mem[%s]" % num(), "mem[%s..%s]" % (small(), small()), "mem[%s..%s]" % (num(), num()),
                               "mem[0..4095]", "mem[9223372036854775807]", "mem[9223372036854775800..9223372036854775807]",
                               "mem[", "mem[1..]", "mem[..2]", "mem[-1]"])
    c = rng.random()
    if c < 0.22:
        return rng.choice(["step", "s", "st", "next", "n", "stp"]) + rng.choice(["", "", " " + small(), " " + num()])
    if c < 0.30:
        return rng.choice(["continue", "c", "run", "r", "start"])
    if c < 0.38:
        return rng.choice(["back", "goto"]) + rng.choice(["", " " + small(), " " + num()])
    if c < 0.46:
        return rng.choice(["break", "b", "list", "l"]) + rng.choice(["", " " + label(), " " + num()])
    if c < 0.52:
        return "watch " + rng.choice([name(), cell()])
    if c < 0.56:
        return "delete" + rng.choice(["", " 1", " 2 3", " " + num()])
    if c < 0.66:
        return rng.choice(["print", "p"]) + " " + " ".join(rng.choice([name(), cell()]) for _ in range(rng.randint(0, 3)))
    if c < 0.72:
        return "info " + rng.choice(["stack", "threads", "threads all", "warps", "rules", "breakpoints", "program",
                                     "st", "nosuch", "stack " + num(), ""])
    if c < 0.75:
        return "grid" + rng.choice(["", " " + small(), " " + num()])
    if c < 0.78:
        return "analyze" + rng.choice(["", " simple", " affine", " data-only", " " + small(), " 17", " 1000", " 1001", " bogus"])
    if c < 0.82:
        # many threads now and then, as many as keep a run to the step limit
        # under 10^8 thread steps (10^9 with --long, up to the most, 4194304):
        # a spinning loop of 65536 threads takes 30 s for 10^4 steps, bounded
        # but not quick
        big = rng.random() < (0.02 if long else 0.005)
        most, budget = (4194304, 10 ** 9) if long else (100000, 10 ** 8)
        huge = [str(max(64, min(most, budget // steps)))]
        hostile = ["0", "-1", "x", "4194305", "9223372036854775808"]  # refused, or the program's
        return rng.choice(["threads", "warpsize"]) + " " + (rng.choice(huge) if big else rng.choice([small(), "32", "64", "1"] + hostile))
    if c < 0.84:
        return "model " + rng.choice(["sync", "ipdom", "mimd", "simd", ""])
    if c < 0.87:
        p = rng.choice(params) if params and rng.random() < 0.7 else rng.choice(["zz", "n", "c"])
        return "param %s=%s" % (p, rng.choice([small(), num()]))
    if c < 0.89:
        return "data " + rng.choice(["clear", "%s=%s" % (small(), small()), "%s=1,2,3" % num(), "9223372036854775807=1,2", "x"])
    if c < 0.93:
        what = rng.choice(["trace", "bz-polarity", "strict-push", "lane-order", "seed", "max-steps", "max-memory", "bogus"])
        val = {"trace": ["on", "off"], "bz-polarity": ["rules", "mnemonic"], "strict-push": ["on", "off"],
               "lane-order": ["ascending", "descending", "random"], "seed": [small(), num()],
               "max-steps": [small(), str(steps)] + (["100000", "10000000"] if long else []),
               "max-memory": ["1", "16", "64", num()], "bogus": ["x"]}[what]
        val = val + [num()]
        if what == "max-steps":
            # a limit the REPL accepts far above the session's (2^63 - 1) would let
            # a spinning program run to the memory limit, 10^8 steps and more
            cap = max(steps, 10 ** 7 if long else 0)
            val = [v for v in val if not (v.isdigit() and cap < int(v) < 2 ** 63)] or [str(steps)]
        return "set %s %s" % (what, rng.choice(val))
    if c < 0.95:
        return rng.choice(["warp auto", "warp 0", "warp 1", "warp " + num(), "warp"])
    if c < 0.97:
        return rng.choice(["load " + rng.choice(examples), "load examples/nosuch.simd", "reload", "load"])
    if c < 0.985:
        return rng.choice(["help", "help " + rng.choice(["step", "st", "info", "x"]), "h", "set", "# a comment"])
    return rng.choice(["", "", "bogus", "quit"])


def script(rng, words, examples, long, steps):
    n = rng.randint(1, 30)
    return "\n".join(command(rng, words, examples, long, steps) for _ in range(n)) + "\n"


def run_session(musimd, seed, examples, words, long):
    rng = random.Random(seed)
    ex = rng.choice(examples)
    steps = 10000000 if long and rng.random() < 0.33 else rng.choice([100, 1000, 10000, 100000])
    argv = [musimd, "repl", "--max-steps", str(steps), ex]
    if rng.random() < 0.1:
        argv[2:2] = ["--model", rng.choice(["ipdom", "mimd"])]
    stdin = script(rng, words[ex], examples, long, steps)
    t0 = time.time()
    timeout = 6 * TIMEOUT if long else TIMEOUT
    try:
        p = subprocess.run(argv, input=stdin.encode(), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return (seed, argv, stdin, "did not end within %.0f s" % timeout)
    err = p.stderr.decode("utf-8", "replace")
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode not in (0, 1):
        return (seed, argv, stdin, "exit status %d\n%s" % (p.returncode, err[-2000:]))
    for bad in ("Sanitizer", "runtime error:", "out of memory"):
        if bad in err or bad in out:
            return (seed, argv, stdin, "%s:\n%s" % (bad, (err + out)[-3000:]))
    return (seed, None, None, time.time() - t0)


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    musimd = args[0]
    long = "--long" in args
    with open(musimd, "rb") as f:
        sanitized = b"__asan_init" in f.read()
    sessions = 20000 if long else 200 if sanitized else 2000
    global TIMEOUT
    if sanitized:
        TIMEOUT *= 6
    seed = 20260901
    jobs = 2
    i = 1
    while i < len(args):
        if args[i] == "--sessions":
            sessions = int(args[i + 1])
            i += 1
        elif args[i] == "--seed":
            seed = int(args[i + 1])
            i += 1
        elif args[i] == "--jobs":
            jobs = int(args[i + 1])
            i += 1
        i += 1
    examples = sorted(os.path.join(EXAMPLES, f) for f in os.listdir(EXAMPLES) if f.endswith(".simd"))
    words = {ex: program_words(ex) for ex in examples}
    t0 = time.time()
    failures = []
    slowest = 0.0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for s, argv, stdin, what in pool.map(lambda k: run_session(musimd, seed + k, examples, words, long),
                                              range(sessions)):
            if argv is None:
                slowest = max(slowest, what)
                continue
            failures.append(s)
            if len(failures) <= 5:
                fd, path = tempfile.mkstemp(prefix="repl-stress-%d-" % s, suffix=".in")
                with os.fdopen(fd, "w") as f:
                    f.write(stdin)
                print("FAIL seed %d: %s\n  %s < %s" % (s, what, " ".join(argv), path))
    print("repl stress: %d sessions%s, %d failing, slowest %.1f s, %.0f s in all"
          % (sessions, " (sanitized build)" if sanitized else "", len(failures), slowest, time.time() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
