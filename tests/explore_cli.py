#!/usr/bin/env python3
"""musimd explore --json (cli.md): the shape of the result and the verdicts
of the paper patterns, through the command line.

Usage: explore_cli.py MUSIMD
"""
import json
import subprocess
import sys

VERDICTS = {"terminates", "terminates-fair", "deadlock", "livelock", "unknown"}
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def explore(musimd, *args):
    p = subprocess.run([musimd, "explore", "--json"] + list(args), capture_output=True, text=True, timeout=120)
    try:
        return p.returncode, json.loads(p.stdout)
    except json.JSONDecodeError as e:
        failures.append("%s: not JSON (%s): %r" % (" ".join(args), e, p.stdout[:200]))
        return p.returncode, None


def result_shape(res, what):
    keys = ["model", "options", "verdict", "doomed", "simt_induced", "states", "transitions", "depth",
            "seconds", "limit", "counterexample"]
    for k in keys:
        check(k in res, "%s: key %s missing" % (what, k))
    check(res.get("verdict") in VERDICTS, "%s: verdict %r" % (what, res.get("verdict")))
    ce = res.get("counterexample")
    if res.get("verdict") in ("deadlock", "livelock"):
        check(isinstance(ce, dict) and isinstance(ce.get("steps"), list) and ce["steps"],
              "%s: a %s without its steps" % (what, res.get("verdict")))
        if isinstance(ce, dict):
            for i, s in enumerate(ce.get("steps", [])):
                for k in ("step", "warp", "label", "pc", "line", "rule", "active", "stack"):
                    check(k in s, "%s: step %d lacks %s" % (what, i, k))
            if res["verdict"] == "livelock":
                cs = ce.get("cycle_start")
                check(isinstance(cs, int) and 0 <= cs < len(ce.get("steps", [])),
                      "%s: cycle_start %r" % (what, cs))
    else:
        check(ce is None, "%s: a counterexample for %s" % (what, res.get("verdict")))


def by_model(obj):
    return {r["model"]: r for r in obj["results"]}


def main():
    musimd = sys.argv[1]
    # the spin lock of one warp (seed 004 §2.2): SIMT-induced livelock, terminates-fair under mimd
    rc, o = explore(musimd, "examples/spin_lock.simd", "--threads", "2")
    if o:
        check(rc == 1, "spin lock: exit %d, want 1" % rc)
        check(o["threads"] == 2 and o["warpsize"] == 2, "spin lock: shape %r" % ((o["threads"], o["warpsize"]),))
        m = by_model(o)
        check(list(m) == ["sync", "ipdom", "mimd"], "spin lock: models %r" % list(m))
        for name, r in m.items():
            result_shape(r, "spin lock " + name)
        for name in ("sync", "ipdom"):
            check(m[name]["verdict"] == "livelock" and m[name]["doomed"] is True and m[name]["simt_induced"] is True,
                  "spin lock %s: %r" % (name, (m[name]["verdict"], m[name]["doomed"], m[name]["simt_induced"])))
        check(m["mimd"]["verdict"] == "terminates-fair" and m["mimd"]["simt_induced"] is None,
              "spin lock mimd: %r" % m["mimd"]["verdict"])
    # the divergent barrier (T4): deadlock with the run's error, not under mimd
    rc, o = explore(musimd, "examples/barrier_divergent.simd", "--model", "ipdom,mimd")
    if o:
        m = by_model(o)
        check(list(m) == ["ipdom", "mimd"], "barrier: models %r" % list(m))
        r = m.get("ipdom", {})
        result_shape(r, "barrier ipdom")
        check(r.get("verdict") == "deadlock" and r.get("simt_induced") is True, "barrier ipdom: %r" % r.get("verdict"))
        err = (r.get("counterexample") or {}).get("error") or {}
        check(err.get("rule") == "BAR" and err.get("label") == "l3", "barrier ipdom error: %r" % err)
        check(m.get("mimd", {}).get("verdict") == "terminates", "barrier mimd")
    # a limit: unknown, exit 4, the limit named
    rc, o = explore(musimd, "examples/spin_lock.simd", "--model", "mimd", "--max-states", "20")
    if o:
        r = o["results"][0]
        check(rc == 4 and r["verdict"] == "unknown" and r["limit"] == "states",
              "limit: exit %d, %r" % (rc, (r["verdict"], r["limit"])))
    # --atomic-order any (explore.md §1): the option in the result, the election's other order
    # in the schedule (W.K) and in the counterexample's first step (lane_order)
    rc, o = explore(musimd, "examples/leader_flag.simd", "--model", "sync,mimd", "--atomic-order", "any")
    if o:
        m = by_model(o)
        r = m.get("sync", {})
        result_shape(r, "leader sync")
        check(rc == 1 and r.get("verdict") == "livelock" and r.get("simt_induced") is True,
              "leader --atomic-order any: exit %d, %r" % (rc, r.get("verdict")))
        check(all(x["options"].get("atomic_order") == "any" for x in m.values()),
              "leader: options %r" % [x["options"] for x in m.values()])
        check((r.get("schedule") or "").startswith("0.1,"), "leader: schedule %r" % r.get("schedule"))
        steps = (r.get("counterexample") or {}).get("steps") or [{}]
        check(steps[0].get("lane_order") == [1, 0] and all("lane_order" not in x for x in steps[1:]),
              "leader: lane orders %r" % [x.get("lane_order") for x in steps])
    rc, o = explore(musimd, "examples/leader_flag.simd", "--model", "sync")
    if o:
        r = o["results"][0]
        check(rc == 0 and r["verdict"] == "terminates" and r["options"].get("atomic_order") == "ascending",
              "leader ascending: exit %d, %r" % (rc, (r["verdict"], r["options"])))
    rc, o = explore(musimd, "examples/atominc.simd", "--model", "sync", "--atomic-order", "any", "--threads", "9")
    if o:
        r = o["results"][0]
        check(rc == 4 and r["verdict"] == "unknown" and r["limit"] == "lane-orders",
              "lane-orders limit: exit %d, %r" % (rc, (r["verdict"], r["limit"])))
    # several files: an array, in order
    rc, o = explore(musimd, "examples/uniform_true.simd", "examples/if_else.simd", "--model", "sync")
    if o is not None:
        check(isinstance(o, list) and [x["file"] for x in o] == ["examples/uniform_true.simd", "examples/if_else.simd"],
              "two files: %r" % o)
        check(rc == 0, "two terminating files: exit %d" % rc)
    for f in failures:
        print("FAIL:", f)
    print("explore_cli: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
