#!/usr/bin/env python3
"""Two musimd binaries' `musimd sm` output, compared byte for byte (stdout,
stderr and exit status) on every bench/sm_*.simd and examples/*.simd under
the schedulers, reconvergence models and configurations below: the check
that a change to the SM model's speed (issue 13, deliverable 7) changed no
result. Prints the runs that differ and the count; exit 1 if any differ.

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
    ["--config", "c2050-aware"],
    ["--config", "gtx480"],
]


def programs():
    return sorted(glob.glob(os.path.join(ROOT, "bench", "sm_*.simd"))) + \
        sorted(glob.glob(os.path.join(ROOT, "examples", "*.simd")))


def runs(quick):
    out = []
    for p in programs():
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
    todo = runs(a.quick)
    bad = 0
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        futs = [(args, ex.submit(one, a.old, args), ex.submit(one, a.new, args)) for args in todo]
        for args, fo, fn in futs:
            o, n = fo.result(), fn.result()
            if o != n:
                bad += 1
                what = "exit %d/%d" % (o[0], n[0]) if o[0] != n[0] else "stdout" if o[1] != n[1] else "stderr"
                print("DIFFERS (%s): musimd %s" % (what, " ".join(x.replace(ROOT + "/", "") for x in args)))
    print("%d runs compared, %d differ" % (len(todo), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
