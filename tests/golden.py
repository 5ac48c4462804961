#!/usr/bin/env python3
"""Golden transcripts of the musimd command line.

Usage: golden.py MUSIMD DIR [--update] [NAME...]

Each DIR/NAME.cmd holds the arguments of one musimd invocation (one line,
shell quoting; lines starting with # are comments); DIR/NAME.out the
expected transcript: stdout, then "--- stderr", stderr, then "--- exit N".
When DIR/NAME.in exists it is the command's stdin (REPL sessions), else
stdin is empty.
Commands run in the current directory (the project root), so file names in
messages are relative. --update rewrites the .out files: review the diff
(git diff tests/golden) before committing it.
"""
import difflib
import os
import shlex
import subprocess
import sys


# A transcript that takes longer is a hang (every golden command takes well
# under a second): it fails instead of blocking the suite.
TIMEOUT = 60


def transcript(musimd, args, stdin):
    try:
        p = subprocess.run([musimd] + args, capture_output=True, input=stdin, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "--- did not end within %d s\n" % TIMEOUT
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    return "%s--- stderr\n%s--- exit %d\n" % (out, err, p.returncode)


def main():
    argv = sys.argv[1:]
    update = "--update" in argv
    argv = [a for a in argv if a != "--update"]
    if len(argv) < 2:
        print(__doc__)
        return 2
    musimd, d, names = argv[0], argv[1], argv[2:]
    if not names:
        names = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".cmd"))
    failed = 0
    for name in names:
        with open(os.path.join(d, name + ".cmd"), encoding="utf-8") as f:
            lines = [l for l in f.read().splitlines() if l.strip() and not l.lstrip().startswith("#")]
        args = shlex.split(lines[0]) if lines else []
        inp = os.path.join(d, name + ".in")
        stdin = open(inp, "rb").read() if os.path.exists(inp) else b""
        got = transcript(musimd, args, stdin)
        outp = os.path.join(d, name + ".out")
        if update:
            with open(outp, "w", encoding="utf-8") as f:
                f.write(got)
            print("updated %s" % name)
            continue
        try:
            with open(outp, encoding="utf-8") as f:
                want = f.read()
        except FileNotFoundError:
            want = ""
        if got == want:
            print("ok   %s" % name)
        else:
            failed += 1
            print("FAIL %s: musimd %s" % (name, " ".join(shlex.quote(a) for a in args)))
            sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                       name + ".out", "actual"))
    print("%d golden transcripts, %d failing" % (len(names), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
