#!/usr/bin/env python3
"""The limits that bound the work of a command (issue 16): --max-time on
run, analyze --verify, explore, sm and the REPL's stepping commands, and
the thread-instruction budget of run.

Usage: limits.py MUSIMD EXAMPLES_DIR

Each check runs a program that never ends with a short --max-time and
asserts that the command stops well within a generous bound (the machine
is shared), says why, and exits with the documented status (cli.md: 4,
inconclusive), never 0 with a partial result presented as complete.
"""
import json
import subprocess
import sys
import tempfile
import time

# --max-time asked for, and how long a command may take beyond it on a
# loaded machine (the clock is read every 4096 steps or 2^22 thread
# instructions: milliseconds here; loading and printing take the rest)
ASKED = 0.5
SLACK = 20.0


def run(musimd, args, stdin=None):
    t0 = time.monotonic()
    p = subprocess.run([musimd] + args, capture_output=True, input=stdin, timeout=300)
    return p, time.monotonic() - t0


def check(name, cond, detail=""):
    if not cond:
        print("FAIL %s %s" % (name, detail))
        return 1
    print("ok   %s" % name)
    return 0


def main():
    musimd, ex = sys.argv[1], sys.argv[2]
    loop = ex + "/infinite_loop.simd"
    spin = ex + "/spin_lock.simd"
    fails = 0

    # run: the 4·10^6-thread infinite loop, stopped by the clock
    p, dt = run(musimd, ["run", loop, "--threads", "4000000", "--quiet", "--max-steps", "1000000000000", "--max-thread-instructions", "1000000000000000", "--max-time", str(ASKED)])
    err = p.stderr.decode()
    fails += check("run --max-time: exit 4", p.returncode == 4, "exit %d" % p.returncode)
    fails += check("run --max-time: ends in time", dt < ASKED + SLACK, "%.1f s" % dt)
    fails += check("run --max-time: says so", "time limit reached" in err and "--max-time" in err, err)
    fails += check("run --max-time: status", "time-limit" in p.stdout.decode(), p.stdout.decode())

    p, dt = run(musimd, ["run", loop, "--threads", "64", "--json", "--max-steps", "1000000000000", "--max-thread-instructions", "1000000000000000", "--max-time", str(ASKED)])
    fails += check("run --max-time --json: exit 4", p.returncode == 4, "exit %d" % p.returncode)
    j = json.loads(p.stdout)
    fails += check("run --max-time --json: status time-limit",
                   j["status"] == "time-limit" and j["error"]["rule"] == "limit", str(j["status"]))

    # run: the work budget is a deterministic limit, like the step limit (exit 1)
    p, dt = run(musimd, ["run", loop, "--threads", "1000", "--json", "--max-thread-instructions", "10000"])
    j = json.loads(p.stdout)
    fails += check("run --max-thread-instructions: exit 1", p.returncode == 1, "exit %d" % p.returncode)
    fails += check("run --max-thread-instructions: stops at the budget",
                   j["status"] == "step-limit" and j["thread_instructions"] == 10000 and j["steps"] == 10
                   and "--max-thread-instructions" in j["error"]["message"], json.dumps(j)[:300])
    # the default budget (10^10) stops a wide infinite loop long before 10^7 steps
    p, dt = run(musimd, ["run", loop, "--threads", "1000000", "--json"])
    j = json.loads(p.stdout)
    fails += check("run: default thread-instruction budget",
                   p.returncode == 1 and j["thread_instructions"] == 10 ** 10 and j["steps"] == 10 ** 4,
                   "exit %d, %s" % (p.returncode, json.dumps(j)[:200]))
    p, _ = run(musimd, ["run", loop, "--max-time", "0"])
    fails += check("run --max-time 0: usage error", p.returncode == 2 and b"--max-time needs" in p.stderr,
                   p.stderr.decode())

    # analyze --verify: the oracle's runs of a spin lock go to the step limit
    p, dt = run(musimd, ["analyze", spin, "--verify=64", "--json", "--max-time", str(ASKED)])
    j = json.loads(p.stdout)
    fails += check("analyze --verify --max-time: exit 4", p.returncode == 4, "exit %d" % p.returncode)
    fails += check("analyze --verify --max-time: ends in time", dt < ASKED + SLACK, "%.1f s" % dt)
    fails += check("analyze --verify --max-time: limit time",
                   j["verify"]["limit"] == "time" and j["verify"]["runs"] < 64 * 6, json.dumps(j["verify"])[:300])
    p, dt = run(musimd, ["analyze", spin, "--verify=64", "--max-time", str(ASKED)])
    fails += check("analyze --verify --max-time: text says inconclusive",
                   p.returncode == 4 and b"inconclusive: the time limit (--max-time)" in p.stdout, p.stdout.decode())
    p, _ = run(musimd, ["analyze", ex + "/sum_triangle.simd", "--verify=4", "--json", "--max-time", "100"])
    j = json.loads(p.stdout)
    fails += check("analyze --verify --max-time: no limit reached",
                   p.returncode == 0 and j["verify"]["limit"] is None, "exit %d" % p.returncode)
    p, _ = run(musimd, ["analyze", ex + "/sum_triangle.simd", "--degree", "65"])
    fails += check("analyze --degree 65: refused", p.returncode == 2 and b"from 0 to 64" in p.stderr,
                   p.stderr.decode())

    # explore: the search itself
    # (a counter that grows for ever: the states never repeat)
    with tempfile.NamedTemporaryFile("w", suffix=".simd") as f:
        f.write(".threads 2\n       x = 0\ntop:   x = x + 1\n       jump top\n")
        f.flush()
        p, dt = run(musimd, ["explore", f.name, "--model", "sync", "--json", "--max-states", "1000000000",
                             "--max-memory", "4096", "--max-time", str(ASKED)])
    j = json.loads(p.stdout)
    fails += check("explore --max-time: unknown, limit time",
                   j["results"][0]["verdict"] == "unknown" and j["results"][0]["limit"] == "time",
                   json.dumps(j)[:300])
    fails += check("explore --max-time: exit 4", p.returncode == 4, "exit %d" % p.returncode)
    fails += check("explore --max-time: ends in time", dt < ASKED + SLACK, "%.1f s" % dt)

    # sm: the machine under the SM model reads the clock too
    p, dt = run(musimd, ["sm", loop, "--json", "--max-steps", "1000000000000", "--max-time", str(ASKED)])
    j = json.loads(p.stdout)
    fails += check("sm --max-time: exit 4", p.returncode == 4, "exit %d" % p.returncode)
    fails += check("sm --max-time: status time-limit", j["status"] == "time-limit", str(j.get("status")))
    fails += check("sm --max-time: ends in time", dt < ASKED + SLACK, "%.1f s" % dt)

    # the REPL: continue stops, the state is kept, and continue goes on
    # (here and above, limits far out of the way: on a fast machine 10^7
    # steps take less than ASKED, and a time check must meet the time limit)
    script = b"set max-time %g\ncontinue\ncontinue\nprint x\n" % ASKED
    p, dt = run(musimd, ["repl", loop, "--threads", "100", "--max-steps", "1000000000000"], stdin=script)
    out = p.stdout.decode()
    fails += check("repl set max-time: continue stops twice",
                   out.count("Stopped by the time limit (set max-time 0.5)") == 2, out)
    fails += check("repl set max-time: ends in time", dt < 2 * ASKED + SLACK, "%.1f s" % dt)
    fails += check("repl set max-time: the state is kept", "error" not in out and p.returncode == 0, out)
    p, dt = run(musimd, ["repl", loop, "--max-steps", "1000000000000", "--max-time", str(ASKED)], stdin=b"run\n")
    fails += check("repl --max-time: run stops", b"Stopped by the time limit" in p.stdout, p.stdout.decode())

    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
