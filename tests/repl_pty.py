#!/usr/bin/env python3
"""The REPL on a pseudo-terminal: line editing, history and completion.

Usage: repl_pty.py MUSIMD

Scripted sessions (tests/golden/repl_*) read stdin as plain lines; this test
drives `musimd repl` the way a person does, on a pty, so libedit is active:
tab completion of commands and info subcommands, the empty line repeating
`step`, the up arrow recalling history, Ctrl-A and backspace editing, Ctrl-C
at the prompt and during a long run, and `quit`. Each expectation waits at most 10 s for the text
to appear in what the terminal shows, so a hang fails instead of blocking.
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

    def send(self, s):
        os.write(self.master, s.encode() if isinstance(s, str) else s)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    tmp = tempfile.mkdtemp()
    s = Session([sys.argv[1], "repl", "examples/sum_triangle.simd"])
    checks = 0
    try:
        s.expect("(musimd) ", "the first prompt")
        # completion of a command: "ste" + Tab becomes "step "
        s.send("ste\t\r")
        s.expect("1  l0: s = 0", "step completed from 'ste'")
        s.expect("(musimd) ", "prompt")
        checks += 1
        # an empty line repeats step
        s.send("\r")
        s.expect("2  l1: d = 0", "empty line repeats step")
        s.expect("(musimd) ", "prompt")
        checks += 1
        # the up arrow recalls "step" from the history
        s.send("\x1b[A\r")
        s.expect("3  l2: i = tid", "up arrow recalls step")
        s.expect("(musimd) ", "prompt")
        checks += 1
        # completion of an info subcommand
        s.send("info st\t\r")
        s.expect("warp 0: Π, top first", "info stack completed from 'info st'")
        s.expect("(musimd) ", "prompt")
        checks += 1
        # editing: backspace, then Ctrl-A to the start of the line
        s.send("rint i\x7fi\x01p\r")
        s.expect("t0", "print i after Ctrl-A and backspace")
        s.expect("i       0*", "print i's values")
        s.expect("(musimd) ", "prompt")
        checks += 1
        # Ctrl-C at the prompt gives a fresh prompt; the session goes on
        s.send("watch x\x03")
        s.expect("(musimd) ", "prompt after Ctrl-C")
        s.send("continue\r")
        s.expect("The program finished", "continue after Ctrl-C")
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
        s.send("quit\r")
        rc = s.wait(10)
        if rc != 0:
            raise AssertionError("quit: exit status %d" % rc)
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
