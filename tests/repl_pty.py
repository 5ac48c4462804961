#!/usr/bin/env python3
"""The REPL on a pseudo-terminal: line editing, history and completion.

Usage: repl_pty.py MUSIMD

Scripted sessions (tests/golden/repl_*) read stdin as plain lines; this test
drives `musimd repl` the way a person does, on a pty, so libedit is active:
tab completion of commands, info subcommands, print's variables and break's
labels, the empty line repeating `step`, the up arrow recalling history,
Ctrl-A and backspace editing, Ctrl-C at the prompt and during a long run,
next or grid, `quit`, and `repl -` (the program from a pipe, the commands
from the terminal). Each expectation waits at most 10 s for the text to
appear in what the terminal shows, so a hang fails instead of blocking.
Run from the project root.
"""
import os
import pty
import re
import select
import shutil
import sys
import tempfile
import time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")


class Session:
    def __init__(self, argv):
        env = dict(os.environ, TERM="xterm", HOME="/nonexistent", LC_ALL="C.UTF-8")
        # pty.fork makes the pty the child's controlling terminal, so Ctrl-C
        # sends SIGINT as it does for a person at a terminal
        pid, self.master = pty.fork()
        if pid == 0:
            try:
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid = pid
        self.rc = None
        self.seen = b""   # everything the terminal showed
        self.mark = 0     # expectations look after this point of the text without escapes

    def poll(self):
        if self.rc is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.rc = os.waitstatus_to_exitcode(status)
        return self.rc

    def wait(self, timeout):
        deadline = time.time() + timeout
        while self.poll() is None and time.time() < deadline:
            self.read_some(0.1)
        return self.rc

    def kill(self):
        if self.poll() is None:
            os.kill(self.pid, 9)

    def read_some(self, timeout):
        r, _, _ = select.select([self.master], [], [], timeout)
        if not r:
            return False
        try:
            data = os.read(self.master, 4096)
        except OSError:
            return False
        self.seen += data
        return bool(data)

    def expect(self, text, what):
        want = text.encode()
        deadline = time.time() + 10
        while True:
            plain = ANSI.sub(b"", self.seen)
            i = plain.find(want, self.mark)
            if i >= 0:
                self.mark = i + len(want)  # the next expectation looks after this match
                return
            left = deadline - time.time()
            if left <= 0 or (not self.read_some(left) and self.poll() is not None):
                tail = plain[self.mark:].decode("utf-8", "replace")
                raise AssertionError("%s: did not see %r; the terminal shows:\n%s" % (what, text, tail))

    def shown(self, start):
        """What the terminal showed (without escapes) from mark `start` to the current mark."""
        return ANSI.sub(b"", self.seen)[start:self.mark].decode("utf-8", "replace")

    def send(self, s):
        os.write(self.master, s.encode() if isinstance(s, str) else s)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    tmp = tempfile.mkdtemp()
    s = Session([sys.argv[1], "repl", "examples/sum_triangle.simd"])
    # (keys to send, texts to see in order, what is checked); each ends at a prompt
    steps = [
        ("ste\t\r", ["1  l0: s = 0"], "Tab completes 'ste' to step"),
        ("\r", ["2  l1: d = 0"], "an empty line repeats step"),
        ("\x1b[A\r", ["3  l2: i = tid"], "the up arrow recalls step"),
        ("info st\t\r", ["warp 0: Π, top first"], "Tab completes 'info st' to info stack"),
        ("rint i\x7fi\x01p\r", ["t0", "i       0*"], "backspace and Ctrl-A edit 'print i'"),
        ("watch x\x03", [], "Ctrl-C at the prompt drops the line"),
        ("st\r", ["l3: x = tid + 1"], "st is step, as in gdb"),
        ("continue\r", ["The program finished"], "the session goes on after Ctrl-C"),
        ("model its:le\t\r", ["model its:lee"], "Tab completes a policy of the lab"),
    ]
    checks = 0
    try:
        s.expect("(musimd) ", "the first prompt")
        for keys, texts, what in steps:
            s.send(keys)
            for t in texts:
                s.expect(t, what)
            s.expect("(musimd) ", what + " (then a prompt)")
            checks += 1
        # Tab after print offers the variables, the special variables and
        # mem[ (not the labels); after break, the labels
        start = s.mark
        s.send("print \t\t")
        s.expect("mem[", "Tab Tab after print lists mem[")
        s.send("d\r")
        s.expect("d ", "print d (typed after the list)")
        s.expect("(musimd) ", "prompt")
        listed = s.shown(start)
        for want in ("tid", "warpsize"):
            if want not in listed:
                raise AssertionError("print Tab Tab: %r not offered:\n%s" % (want, listed))
        if "l15" in listed:
            raise AssertionError("print Tab Tab offers labels:\n%s" % listed)
        checks += 1
        start = s.mark
        s.send("break l1\t\t")
        s.expect("l19", "Tab Tab after break l1 lists the labels")
        s.send("5\r")
        s.expect("Breakpoint 1 at l15", "break l15 (typed after the list)")
        s.expect("(musimd) ", "prompt")
        if "mem[" in s.shown(start):
            raise AssertionError("break Tab Tab offers mem[:\n%s" % s.shown(start))
        s.send("p x\t\r")
        s.expect("x ", "p (print's abbreviation) completes variables too")
        s.expect("(musimd) ", "prompt")
        s.send("delete\r")
        s.expect("(musimd) ", "prompt")
        checks += 1
        # Ctrl-C stops a long run; the state stays and the session goes on
        with open(os.path.join(tmp, "forever.simd"), "w") as f:
            f.write(".threads 4\nl0: i = 0\nl1: i = i + 1\nl2: jump l1\n")
        s.send("load %s/forever.simd\r" % tmp)
        s.expect("=> l0: i = 0", "load a program that never stops")
        s.send("set max-steps 1000000000000\r")
        s.expect("(musimd) ", "prompt")
        s.send("continue\r")
        time.sleep(0.5)
        s.send("\x03")
        s.expect("Interrupted after", "Ctrl-C during continue")
        s.send("info program\r")
        s.expect("status running", "the interrupted run can go on")
        s.expect("(musimd) ", "prompt")
        checks += 1
        # ... and a long `next N` (one step at a time outside branches)
        s.send("next 1000000000000\r")
        time.sleep(0.5)
        s.send("\x03")
        s.expect("Interrupted after", "Ctrl-C during next N")
        s.expect("(musimd) ", "prompt")
        checks += 1
        # ... and a long grid (replayed from a checkpoint)
        s.send("set max-steps 3000000\r")
        s.expect("(musimd) ", "prompt")
        s.send("run\r")
        s.expect("reached the step limit", "a run to the step limit")
        s.expect("(musimd) ", "prompt")
        s.send("grid 3000000\r")
        s.expect("✓", "the grid starts")
        s.send("\x03")
        s.expect("the grid stopped early: interrupted", "Ctrl-C during grid")
        s.expect("(musimd) ", "prompt")
        checks += 1
        s.send("quit\r")
        rc = s.wait(10)
        if rc != 0:
            raise AssertionError("quit: exit status %d" % rc)
        checks += 1
        # `repl -`: the program from a pipe, the commands from the terminal
        s = Session(["sh", "-c", "printf '.threads 2\\nx = tid\\nstop\\n' | exec \"$0\" repl -q -",
                     sys.argv[1]])
        s.expect("<stdin>: 2 threads in 1 warp of 2", "repl - loads standard input")
        s.expect("(musimd) ", "then prompts on the terminal")
        s.send("step\r")
        s.expect("x = tid", "a command typed on the terminal")
        s.send("reload\r")
        s.expect("was not read from a file", "reload of <stdin> is refused")
        s.send("quit\r")
        rc = s.wait(10)
        if rc != 0:
            raise AssertionError("repl -: exit status %d" % rc)
        checks += 1
    except Exception as e:  # noqa: BLE001 - report any failure with the transcript
        print("FAIL:", e)
        s.kill()
        return 1
    shutil.rmtree(tmp, ignore_errors=True)
    print("repl on a pty: %d checks passed" % checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
