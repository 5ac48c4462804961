#!/usr/bin/env python3
"""Two musimd binaries' `musimd sm` output, compared byte for byte (stdout,
stderr and exit status) on every bench/sm_*.simd and examples/*.simd under
the schedulers, reconvergence models and configurations below: the check
that a change to the SM model's speed (issue 13, deliverable 7) changed no
result. Prints the runs that differ and the count; exit 1 if any differ,
or if some run did not simulate at all (exit status 2 or 3, a usage or
input error that is the same in both binaries, is no comparison; nor is a
crash), so a misspelt option in the lists below cannot pass as identical.
A program the SM model refuses as it stands (exit 3 with no option: the
GSA form, ...) is left out and named; a run a limit stops (exit 4) counts,
it simulated up to the limit.

    python3 bench/sm_identity.py OLD NEW [-j 2] [--quick]
"""
import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SCHEDULERS = ["lrr", "gto", "old", "two_level_active:4:0:1", "glrr", "gto_rotate:100", "gto_rotate:7",
              "bows:gto", "bows:lrr"]
MODELS = ["ipdom", "sync", "aware", "its", "mp", "tf", "mimd"]
# configurations beside the default one: warp counts, latencies, presets,
# the sub-core model off, one scheduler, dual issue, the front end off
CONFIGS = [
    ["--threads", "256"],
    ["--threads", "1024", "--warpsize", "16"],
    ["--set", "-gpgpu_num_sched_per_core=1"],
    ["--set", "-gpgpu_num_sched_per_core=2", "--set", "-gpgpu_sub_core_model=0"],
    ["--set", "-gpgpu_sub_core_model=0"],
    ["--set", "-gpgpu_max_insn_issue_per_warp=2"],
    ["--set", "-gpgpu_max_insn_issue_per_warp=2", "--set", "-gpgpu_dual_issue_diff_exec_units=0"],
    ["--set", "-ptx_opcode_latency_int=1,13,4,5,145,21", "--set", "-ptx_opcode_initiation_int=1,2,2,2,8,4"],
    ["--set", "-ptx_opcode_latency_int=9,13,4,5,145,21", "--set", "-ptx_opcode_initiation_int=3,2,2,2,8,4"],
    ["--set", "-gpgpu_num_int_units=8"],
    ["--set", "-musimd_ibuffer=0"],
    ["--set", "-musimd_cta_threads=64"],
    ["--set", "-musimd_sigma=global"],
    ["--set", "-musimd_gpgpusim_stage_overhead=2"],
    ["--set", "-musimd_regalloc=linear", "--set", "-musimd_max_regs=4"],
    ["--config", "qv100-hw"],
    # Fermi's SMs hold 1536 threads: sm_alu's 2048 run as CTAs of 256
    ["--config", "c2050-aware", "--set", "-musimd_cta_threads=256"],
    ["--config", "gtx480", "--set", "-musimd_cta_threads=256"],
]


def programs():
    return sorted(glob.glob(os.path.join(ROOT, "bench", "sm_*.simd"))) + \
        sorted(glob.glob(os.path.join(ROOT, "examples", "*.simd")))


def refused(binary):
    """The programs `musimd sm` refuses with no option (exit 3), each with
    the first line of its message."""
    out = {}
    for p in programs():
        r = subprocess.run([binary, "sm", p, "--max-steps", "1"], capture_output=True)
        if r.returncode == 3:
            out[p] = r.stderr.decode(errors="replace").splitlines()[0] if r.stderr else ""
    return out


def runs(quick, skip):
    out = []
    for p in programs():
        if p in skip:
            continue
        big = os.path.basename(p) == "sm_alu.simd"
        lim = ["--max-steps", "200000"] if os.path.basename(p) == "infinite_loop.simd" else []
        base = ["sm", p] + lim
        for s in SCHEDULERS:
            out.append(base + ["--json", "--set", "-gpgpu_scheduler=" + s])
        if quick and big:
            continue
        for mo in MODELS:
            out.append(base + ["--json", "--model", mo])
            out.append(base + ["--json", "--model", mo, "--set", "-gpgpu_scheduler=gto"])
        for c in CONFIGS:
            out.append(base + ["--json"] + c)
            if not big:
                out.append(base + ["--json", "--set", "-gpgpu_scheduler=gto"] + c)
        out.append(base)  # the text output
        if not big:
            out.append(base + ["--json", "--trace", "--trace-limit", "0"])
            out.append(base + ["--threads", "512", "--json", "--set", "-gpgpu_scheduler=old"])
    for b in ("4", "16"):
        out.append(["sm", os.path.join(ROOT, "bench", "sm_hashtable.simd"), "--json", "--param", "buckets=" + b])
    return out


def one(binary, args):
    r = subprocess.run([binary] + args, capture_output=True, timeout=600)
    return r.returncode, r.stdout, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="sm_alu.simd under the schedulers only")
    a = ap.parse_args()
    skip = refused(a.new)
    for p, why in sorted(skip.items()):
        print("left out (refused): %s" % why)
    todo = runs(a.quick, skip)
    bad = unrun = 0
    status = {}
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        futs = [(args, ex.submit(one, a.old, args), ex.submit(one, a.new, args)) for args in todo]
        for args, fo, fn in futs:
            o, n = fo.result(), fn.result()
            status[o[0]] = status.get(o[0], 0) + 1
            if any(r[0] not in (0, 1, 4) or not r[1] for r in (o, n)):
                unrun += 1
                print("DID NOT RUN (exit %d/%d): musimd %s" % (o[0], n[0], " ".join(x.replace(ROOT + "/", "") for x in args)))
            if o != n:
                bad += 1
                what = "exit %d/%d" % (o[0], n[0]) if o[0] != n[0] else "stdout" if o[1] != n[1] else "stderr"
                print("DIFFERS (%s): musimd %s" % (what, " ".join(x.replace(ROOT + "/", "") for x in args)))
    print("%d runs compared, %d differ, %d did not run (exit statuses: %s)" %
          (len(todo), bad, unrun, ", ".join("%d: %d" % kv for kv in sorted(status.items()))))
    sys.exit(1 if bad or unrun else 0)


if __name__ == "__main__":
    main()
