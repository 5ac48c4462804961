#!/usr/bin/env python3
"""What the user reads cites only what the user has.

Usage: doc_references.py MUSIMD SOURCE_ROOT

A clone of musimd has its man pages, docs/, examples/ and sources, but not the
files the project was built from (the specification, the papers' digests in
../shared/). So in every text a user reads -- the --help of every command
(`musimd help COMMAND`), the REPL's help, README.md, examples/README.md, the
man pages and docs/semantics.md -- every file named (a word ending in .md,
.simd, .c, .h, .py, .sh, .l or .y, or a path starting with docs/, examples/,
man/, src/, tests/, bench/ or ../) must exist in the source tree, relative
to the root or to the text's own directory; a bare file name (parser.y in a
listing of grammar/) anywhere in the tree. Placeholders in capitals
(FILE.ll) are not files. Manual references like musimd-lang(7) must name a
page in man/.
"""
import os
import re
import subprocess
import sys

FILE = re.compile(r"(?<![\w/.-])((?:\.\./|\./)?[\w.-]+(?:/[\w.-]*)*\.(?:md|simd|c|h|py|sh|l|y)(?![\w])"
                  r"|(?:\.\./|(?:docs|examples|man|src|tests|bench|fuzz|grammar)/)[\w./-]*)")
# Named on purpose although absent: the man page's example of a missing file;
# pan.c, the verifier `spin -a` generates from emit-promela's model.
ABSENT_ON_PURPOSE = {"nosuchfile.simd", "pan.c"}
MANREF = re.compile(r"\b(musimd[\w-]*)\((\d)\)")


def texts(musimd, root):
    """(name, directory, text) of everything checked."""
    out = []
    main_help = subprocess.run([musimd, "--help"], capture_output=True, text=True).stdout
    out.append(("musimd --help", root, main_help))
    commands = re.findall(r"^  ([a-z][\w-]*) ", main_help.split("Commands:", 1)[1], re.M)
    if len(commands) < 5:
        raise SystemExit("could not read the commands from musimd --help")
    for c in commands:
        p = subprocess.run([musimd, "help", c], capture_output=True, text=True)
        if p.returncode != 0 or not p.stdout.startswith("Usage: musimd " + c):
            raise SystemExit("musimd help %s: exit %d, %r" % (c, p.returncode, p.stdout[:80]))
        out.append(("musimd help " + c, root, p.stdout))
    repl = subprocess.run([musimd, "repl"], input="help\n", capture_output=True, text=True).stdout
    out.append(("musimd repl: help", root, repl))
    for name in ["README.md", "examples/README.md", "docs/semantics.md"] + \
            ["man/" + f for f in sorted(os.listdir(os.path.join(root, "man"))) if re.search(r"\.[1-9]$", f)]:
        path = os.path.join(root, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if name.startswith("man/"):
            text = "\n".join(l for l in text.splitlines() if not l.startswith('.\\"'))  # comments
            text = text.replace("\\&", "").replace("\\-", "-")
        out.append((name, os.path.dirname(path), text))
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    musimd, root = sys.argv[1], os.path.abspath(sys.argv[2])
    pages = {f.rsplit(".", 1)[0] + "(" + f.rsplit(".", 1)[1] + ")"
             for f in os.listdir(os.path.join(root, "man")) if re.search(r"\.[1-9]$", f)}
    names = set()
    for d, _, files in os.walk(root):
        if not os.path.relpath(d, root).startswith(("build", ".git")):
            names.update(files)
    bad = 0
    for name, here, text in texts(musimd, root):
        for n, line in enumerate(text.splitlines(), 1):
            for m in FILE.finditer(line):
                ref = m.group(1).rstrip(".")
                stem = os.path.basename(ref).split(".")[0]
                if "*" in line[m.end():m.end() + 1] or ref in ("../", "./") or ref in ABSENT_ON_PURPOSE \
                        or (stem.isupper() and "/" not in ref) or ("/" not in ref and ref in names):
                    continue
                if not (os.path.exists(os.path.join(root, ref)) or os.path.exists(os.path.join(here, ref))):
                    bad += 1
                    print("%s:%d: '%s' is not in the source tree: %s" % (name, n, ref, line.strip()))
            for m in MANREF.finditer(line):
                if "%s(%s)" % m.groups() not in pages:
                    bad += 1
                    print("%s:%d: no manual %s(%s) in man/" % ((name, n) + m.groups()))
    print("%d references to files or manuals that a clone does not have" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
