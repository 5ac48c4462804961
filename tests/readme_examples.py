#!/usr/bin/env python3
"""The output quoted in examples/README.md is what musimd prints.

Usage: readme_examples.py MUSIMD README

The learning path shows commands in ```sh blocks and, after them, the lines
a reader should look at in ```text blocks. Every command line of the sh
blocks before a text block (lines that run musimd, pipelines included; a
text block right after another quotes the same commands) is
run from the project root with MUSIMD's directory first on PATH; each line of
the text block must be a line of their output (stdout or stderr, trailing
blanks ignored). Exit statuses are not checked: some examples fail on
purpose (a stuck program exits 1). Exits 1 listing every quoted line that
no command printed.
"""
import os
import subprocess
import sys


def blocks(lines):
    """Yield (commands, expected lines) for each text block; a text block
    right after another quotes the same commands."""
    cmds, last, i = [], [], 0
    while i < len(lines):
        fence = lines[i].strip()
        if fence in ("```sh", "```text"):
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            body = lines[i + 1:j]
            if fence == "```sh":
                cmds += [l.strip() for l in body if "musimd " in l and not l.lstrip().startswith("#")]
            else:
                last = cmds or last
                yield last, body
                cmds = []
            i = j + 1
            continue
        i += 1


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    musimd, readme = os.path.abspath(sys.argv[1]), sys.argv[2]
    env = dict(os.environ, PATH=os.path.dirname(musimd) + os.pathsep + os.environ["PATH"])
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    nblocks = ncmds = failed = 0
    for cmds, expected in blocks(lines):
        nblocks += 1
        seen = set()
        for c in cmds:
            ncmds += 1
            r = subprocess.run(c, shell=True, capture_output=True, env=env, timeout=120, stdin=subprocess.DEVNULL)
            for out in (r.stdout, r.stderr):
                seen.update(l.rstrip() for l in out.decode("utf-8", "replace").split("\n"))
        for e in expected:
            if e.strip() and e.rstrip() not in seen:
                failed += 1
                print("FAIL: %r is not printed by:\n  %s" % (e, "\n  ".join(cmds) or "(no command)"))
    print("%s: %d quoted blocks, %d commands, %d lines missing" % (readme, nblocks, ncmds, failed))
    return 1 if failed or nblocks == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
