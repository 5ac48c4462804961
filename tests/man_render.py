#!/usr/bin/env python3
"""The man pages as man(1) shows them: through groff, not only mandoc.

Usage: man_render.py MANDIR

mandoc -Tlint (the man-lint test) does not see what groff's mdoc macros do
with a word that happens to be a macro name: in a macro line such as
`.%T SIMD Re-Convergence At Thread Frontiers`, groff reads `At` as the
AT&T-version macro and swallows the rest of the page. So for every page:

1. groff -mandoc -ww prints no warning;
2. the page as `man -l` (else groff) renders it has every `.Sh` title of the
   source, in order;
3. groff's and mandoc's renderings have the same words, in the same order
   (when mandoc is installed): a word one of them takes for a macro shows up
   as a difference.

Exit 77 (skipped) without groff.
"""
import difflib
import os
import re
import shutil
import subprocess
import sys

WIDTH = "78"


def groff(page, *extra):
    return subprocess.run(["groff", "-k", "-mandoc", "-Tutf8", "-rLL=%sn" % WIDTH, "-P-cbu"] + list(extra) + [page],
                          capture_output=True)


def as_man_shows(page):
    """The text `MANWIDTH=80 man -l PAGE` prints, or groff's when there is no man."""
    if shutil.which("man"):
        env = dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat", MAN_KEEP_FORMATTING="")
        p = subprocess.run(["man", "-l", page], capture_output=True, env=env)
        if p.returncode == 0 and p.stdout:
            return p.stdout.decode("utf-8", "replace")
    return groff(page).stdout.decode("utf-8", "replace")


def plain(text):
    """Overstrikes (bold, underline) removed."""
    return re.sub(r".\x08", "", text)


def section_titles(page):
    titles = []
    with open(page, encoding="utf-8") as f:
        for line in f:
            if line.startswith(".Sh "):
                titles.append(line[4:].strip().replace("\\&", "").strip('"'))
    return titles


def words(text):
    lines = plain(text).splitlines()[1:-1]  # the header and footer lines differ by design
    t = "\n".join(lines)
    t = re.sub(r"[-\u2010\u2011]\s*\n\s*", "", t)  # groff hyphenates at the end of a line
    t = re.sub(r"[-\u2010\u2011]", "", t)
    return re.findall(r"\w+", t)


def check(page):
    problems = []
    p = groff(page, "-ww", "-z")
    warnings = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode != 0 or warnings:
        problems.append("groff -ww:\n" + warnings)
    shown = [l.strip() for l in plain(as_man_shows(page)).splitlines()]
    at = 0
    for title in section_titles(page):
        try:
            at = shown.index(title, at) + 1
        except ValueError:
            problems.append("section %s is missing from the rendered page (or out of order)" % title)
    if shutil.which("mandoc"):
        g = words(groff(page).stdout.decode("utf-8", "replace"))
        m = words(subprocess.run(["mandoc", "-Tutf8", "-Owidth=" + WIDTH, page],
                                 capture_output=True).stdout.decode("utf-8", "replace"))
        sm = difflib.SequenceMatcher(None, m, g, autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op != "equal":
                problems.append("mandoc and groff differ (%s):\n  mandoc: ...%s...\n  groff:  ...%s..." %
                                (op, " ".join(m[max(0, i1 - 4):i2 + 4])[:300],
                                 " ".join(g[max(0, j1 - 4):j2 + 4])[:300]))
    return problems


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if not shutil.which("groff"):
        print("groff not found: skipped")
        return 77
    d = sys.argv[1]
    pages = sorted(os.path.join(d, f) for f in os.listdir(d) if re.search(r"\.[1-9]$", f))
    failed = 0
    for page in pages:
        problems = check(page)
        if problems:
            failed += 1
            print("FAIL %s" % page)
            for pr in problems:
                print("  " + pr.replace("\n", "\n  "))
        else:
            print("ok   %s" % page)
    print("%d pages, %d failing" % (len(pages), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
