#!/usr/bin/env python3
"""Run the examples of the man pages and check their output.

Usage: man_examples.py MUSIMD MANDIR [PAGE...]

Checks every page MANDIR/*.[1-9] (or only the PAGEs named). Run it from the
project root (meson's test 'man-examples' does): examples use paths such
as examples/sum_triangle.simd.

The convention page authors follow
----------------------------------
* A command is a line that starts with "$ " inside a literal display:
  `.Bd -literal` ... `.Ed`, or a one-line `.Dl` display. Commands are run
  wherever they appear in the page, and the EXAMPLES section must contain
  at least one, or the page fails. To show a command that must not be run
  (one that needs a terminal, writes files, needs a tool that may be
  missing), write it without the "$ " prompt, or in running text.
* Each command runs with `sh -c` from the project root, stdin from
  /dev/null, with the directory of MUSIMD first on PATH, so `musimd ...`
  runs the binary under test. Pipes, printf, grep, head etc. are fine; to
  give a program on a pipe, name /dev/stdin as the FILE. Commands should
  not write files.
* The lines after a command in the same display, up to the next "$ " line
  or the end of the display, are its expected output. Each must appear in
  the output, in order: they are a subsequence of the output lines, so a
  page may show an excerpt. Lines are compared after removing trailing
  whitespace; leading whitespace counts. A line that is just "..." marks a
  visible elision and is skipped; blank lines are skipped too. stdout and
  stderr are captured separately and each expected line may match in
  either, in order within its stream: the page may show diagnostics where a
  terminal shows them without depending on how the two streams interleave
  in a pipe.
* The command must exit 0, unless its line ends with a shell comment
  "# exit N" (the shell ignores the comment; this script reads it).
* Write the page as for any reader: `\\-` for the dashes of options,
  `\\(aq` for apostrophes, `\\e` for a backslash (printf 'x\\en'), `\\&` before
  a line that starts with "." or "'", `\\(*S` for Sigma, and so on. In a
  `.Dl` line double quotes are macro quoting and runs of blanks collapse;
  use `.Bd -literal` for commands that need either.

How it reads a page, and why
----------------------------
The page is rendered with `mandoc -T html -O fragment` and the HTML is
parsed with Python's html.parser. mandoc undoes every roff and mdoc escape
exactly as it does for a reader (\\-, \\(aq, \\e, \\&, \\(*S, \\(pp, ...), which
an escape table of our own would only approximate; and HTML keeps the
structure that the terminal formats lose: a literal display is a <pre> in
a <div class="Bd ... Li">, a .Dl display a <div class="Bd ..."> holding one
<code class="Li">, and each section an <h1 class="Sh" id="NAME">. Without
mandoc the test is skipped (exit 77, meson's skip code).

Exit status: 0 every example passed, 1 some example failed (each failure
is printed with its command, the expected lines missing and the actual
output), 77 mandoc is missing, 2 usage error.
"""
import functools
import glob
import html.parser
import os
import re
import shutil
import subprocess
import sys

TIMEOUT = 300  # seconds per command
EXIT_RE = re.compile(r"\s#\s*exit\s+(\d+)\s*$")


class Page(html.parser.HTMLParser):
    """The displays of a page rendered by mandoc -T html: a list of
    (section, [lines])."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.displays = []
        self.section = ""
        self.stack = []  # (tag, classes, record) for open elements
        self.h1 = None  # text of the <h1> being read
        self.pre = None  # text of the literal <pre> being read
        self.dl = None  # state of a possible .Dl <div>

    VOID = {"br", "img", "hr", "meta", "link", "input", "wbr"}

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        parent = self.stack[-1] if self.stack else None
        rec = {"tag": tag, "classes": classes}
        if self.dl is not None and parent is self.dl["div"]:
            self.dl["children"].append(rec)
        self.stack.append(rec)
        if tag == "h1" and "Sh" in classes:
            self.h1 = []
        elif tag == "pre" and parent and parent["tag"] == "div" and "Li" in parent["classes"]:
            self.pre = []
        elif tag == "div" and "Bd" in classes and "Li" not in classes:
            self.dl = {"div": rec, "children": [], "text": [], "outside": []}

    def handle_endtag(self, tag):
        if tag in self.VOID or not self.stack:
            return
        # close up to the matching element (mandoc's HTML is well formed)
        while self.stack:
            rec = self.stack.pop()
            if rec["tag"] == tag:
                break
        if tag == "h1" and self.h1 is not None:
            self.section = " ".join("".join(self.h1).split())
            self.h1 = None
        elif tag == "pre" and self.pre is not None:
            text = "".join(self.pre)
            if text.startswith("\n"):
                text = text[1:]
            self.displays.append((self.section, text.split("\n")))
            self.pre = None
        elif self.dl is not None and rec is self.dl["div"]:
            d = self.dl
            self.dl = None
            kids = d["children"]
            if (len(kids) == 1 and kids[0]["tag"] == "code" and "Li" in kids[0]["classes"]
                    and not "".join(d["outside"]).strip()):
                # .Dl: HTML whitespace is not significant, so collapse it
                self.displays.append((self.section, [" ".join("".join(d["text"]).split())]))

    def handle_data(self, data):
        if self.h1 is not None:
            self.h1.append(data)
        if self.pre is not None:
            self.pre.append(data)
        if self.dl is not None:
            # text directly in the div, beside its one <code>, means it is no .Dl
            top = self.stack[-1] if self.stack else None
            (self.dl["outside"] if top is self.dl["div"] else self.dl["text"]).append(data)


def examples(displays):
    """[(section, command, expected_status, [expected lines])] from the displays."""
    out = []
    for section, lines in displays:
        cur = None
        for line in lines:
            if line.startswith("$ "):
                cmd = line[2:]
                m = EXIT_RE.search(cmd)
                status = int(m.group(1)) if m else 0
                if m:
                    cmd = cmd[: m.start()]
                cur = (section, cmd.rstrip(), status, [])
                out.append(cur)
            elif cur is not None:
                text = line.rstrip()
                if text and text != "...":
                    cur[3].append(text)
    return out


def matches(expected, out_lines, err_lines):
    """True when expected is a subsequence of some interleaving of the two
    streams: each line found in stdout or in stderr, in order within each."""
    out_lines = [l.rstrip() for l in out_lines]
    err_lines = [l.rstrip() for l in err_lines]

    def find(lines, start, text):
        for k in range(start, len(lines)):
            if lines[k] == text:
                return k
        return -1

    @functools.lru_cache(maxsize=None)
    def go(i, a, b):
        if i == len(expected):
            return True
        k = find(out_lines, a, expected[i])
        if k >= 0 and go(i + 1, k + 1, b):
            return True
        k = find(err_lines, b, expected[i])
        return k >= 0 and go(i + 1, a, k + 1)

    return go(0, 0, 0)


def missing(expected, out_lines, err_lines):
    """The expected lines that appear nowhere in the output, for the report
    (when all appear, the order is wrong: say so)."""
    everything = {l.rstrip() for l in out_lines + err_lines}
    gone = [e for e in expected if e not in everything]
    return gone or ["(every line appears, but not in this order)"] + expected


def run_page(page, mandoc, env):
    r = subprocess.run([mandoc, "-T", "html", "-O", "fragment", page], capture_output=True)
    if r.returncode >= 4 or not r.stdout:
        print("%s: mandoc -T html failed (exit %d):\n%s" % (page, r.returncode,
              r.stderr.decode("utf-8", "replace")))
        return 0, 1
    parser = Page()
    parser.feed(r.stdout.decode("utf-8", "replace"))
    parser.close()
    exs = examples(parser.displays)
    failures = 0
    if not any(section == "EXAMPLES" for section, _, _, _ in exs):
        print("%s: FAIL: no runnable example in the EXAMPLES section (a literal display"
              " with a line starting with \"$ \"; see tests/man_examples.py)" % page)
        failures += 1
    for section, cmd, status, expected in exs:
        try:
            p = subprocess.run(["sh", "-c", cmd], stdin=subprocess.DEVNULL, capture_output=True,
                               env=env, timeout=TIMEOUT)
            out = p.stdout.decode("utf-8", "replace")
            err = p.stderr.decode("utf-8", "replace")
            code = p.returncode
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode("utf-8", "replace")
            err = (e.stderr or b"").decode("utf-8", "replace") + "\n(timed out after %d s)" % TIMEOUT
            code = None
        out_lines = out.split("\n")
        err_lines = err.split("\n")
        problems = []
        if code != status:
            problems.append("exit status %s, expected %d" % (code, status))
        if not matches(expected, out_lines, err_lines):
            problems.append("expected lines missing:\n" +
                            "".join("    | %s\n" % l for l in missing(expected, out_lines, err_lines)))
        if problems:
            failures += 1
            print("%s: FAIL (%s): $ %s" % (page, section, cmd))
            for pr in problems:
                print("  " + pr.rstrip("\n"))
            print("  actual stdout:")
            print("".join("    | %s\n" % l for l in out.rstrip("\n").split("\n")), end="")
            if err:
                print("  actual stderr:")
                print("".join("    | %s\n" % l for l in err.rstrip("\n").split("\n")), end="")
        else:
            print("%s: ok: $ %s" % (page, cmd))
    return len(exs), failures


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    musimd = os.path.abspath(args[0])
    mandir = args[1]
    pages = [os.path.join(mandir, p) if os.sep not in p else p for p in args[2:]]
    if not pages:
        pages = sorted(p for p in glob.glob(os.path.join(mandir, "*.[1-9]")))
    if not os.access(musimd, os.X_OK):
        print("man_examples: %s is not an executable" % musimd, file=sys.stderr)
        return 2
    if not pages:
        print("man_examples: no man pages in %s" % mandir, file=sys.stderr)
        return 1
    mandoc = shutil.which("mandoc")
    if not mandoc:
        print("man_examples: mandoc not found: skipped")
        return 77
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(musimd) + os.pathsep + env.get("PATH", "")
    total = failed = 0
    for page in pages:
        n, f = run_page(page, mandoc, env)
        total += n
        failed += f
    print("%d example command%s in %d page%s, %d failure%s" % (
        total, "" if total == 1 else "s", len(pages), "" if len(pages) == 1 else "s",
        failed, "" if failed == 1 else "s"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
