#!/usr/bin/env python3
"""run --json --trace streams its trace and stops it at --trace-limit.

Usage: trace_stream.py MUSIMD

A loop of 1024 threads, 10^5 warp instructions, where the upper half of
the threads loops twice as long. musimd used to hold the whole trace (and
two copies of it): 1.45 GiB for this run. Checked here:
1. with --trace-limit 0 every step is in the trace, the JSON parses, and
   musimd's peak memory stays small (the trace is written as it goes);
2. with the default limit (100000 steps) the trace stops there, the run goes
   on to its end, "trace_complete" is false and the exit status is 4.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile

PROGRAM = """\
.threads 1024
      i = 0
      hi = tid / 512
      lim = hi * 12500
      lim = lim + 12500
loop: p = i < lim
      bz p, out
      i = i + 1
      jump loop
out:  sync
      stop
"""

MAX_RSS_MIB = 64


def run(musimd, path, *opts):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with tempfile.TemporaryFile() as out:
        p = subprocess.run([musimd, "run", path, "--json", "--trace"] + list(opts), stdout=out,
                           stderr=subprocess.PIPE)
        out.seek(0)
        result = json.load(out)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB, the largest child so far
    return p.returncode, p.stderr.decode(), result, (rss if rss > before else before) / 1024


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    musimd = sys.argv[1]
    failed = []
    with tempfile.NamedTemporaryFile("w", suffix=".simd", delete=False) as f:
        f.write(PROGRAM)
    try:
        code, err, r, rss = run(musimd, f.name, "--trace-limit", "0")
        steps = r["steps"]
        if code != 0 or r["status"] != "ok" or steps <= 100000:
            failed.append("--trace-limit 0: exit %d, status %s, %d steps\n%s" % (code, r["status"], steps, err))
        if len(r["trace"]) != steps or r["trace_complete"] is not True or r["trace_limit"] is not None:
            failed.append("--trace-limit 0: %d steps traced of %d, trace_complete %r, trace_limit %r"
                          % (len(r["trace"]), steps, r["trace_complete"], r["trace_limit"]))
        mid = r["trace"][60000]
        if mid["active"] != [[512, 1023]] or mid["stack"][0]["todo"] != [[0, 511]]:
            failed.append("step 60001: active %r, stack %r" % (mid["active"], mid["stack"]))
        if rss > MAX_RSS_MIB:
            failed.append("--trace-limit 0: peak memory %.0f MiB (more than %d: the trace is held)" % (rss, MAX_RSS_MIB))
        print("--trace-limit 0: %d steps traced, peak memory %.1f MiB" % (len(r["trace"]), rss))

        code, err, r, _ = run(musimd, f.name)
        if code != 4 or r["trace_complete"] is not False or r["trace_limit"] != 100000 \
                or len(r["trace"]) != 100000 or r["steps"] != steps or r["status"] != "ok" \
                or "the trace stops after 100000 of %d steps" % steps not in err:
            failed.append("default limit: exit %d, %d steps traced, trace_complete %r, steps %d\n%s"
                          % (code, len(r["trace"]), r["trace_complete"], r["steps"], err))
        print("default limit: %d steps traced of %d, exit %d" % (len(r["trace"]), r["steps"], code))
    finally:
        os.unlink(f.name)
    for x in failed:
        print("FAIL " + x)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
