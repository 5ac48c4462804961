#!/usr/bin/env python3
"""The SM model's simulation speed (issue 13, deliverable 7; sm-model.md §4):
`musimd sm bench/sm_alu.simd` (64 warps of 32 threads, ALU-bound, the
simulated SM at its integer issue bound) run RUNS times; the median CPU
time (user + system of the child) gives simulated SM-cycles/s, warp
instructions/s and thread instructions/s, the last beside GPGPU-Sim's
published simulation rate (gpgpu_simulation_rate, thread instructions/s:
0.12-0.23 M on Rodinia BFS, sm-model.md §4; it models 80 SMs, caches and
DRAM, so the ratio is not like for like).

Usage: bench/sm_speed.py MUSIMD [RUNS] [FILE] [-- extra musimd sm options]
"""
import json
import os
import resource
import statistics
import subprocess
import sys

GPGPUSIM_RATE = (0.12e6, 0.23e6)


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    if not args:
        raise SystemExit(__doc__)
    musimd = os.path.abspath(args[0])
    runs = int(args[1]) if len(args) > 1 else 5
    prog = args[2] if len(args) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "sm_alu.simd")
    times, stats = [], None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run([musimd, "sm", prog, "--json"] + extra, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0:
            raise SystemExit("musimd sm exit %d: %s" % (r.returncode, r.stderr[-300:]))
        times.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        stats = json.loads(r.stdout)
    t = statistics.median(times)
    cyc, wi, ti = stats["gpu_sim_cycle"], stats["warp_insn"], stats["gpu_sim_insn"]
    print("| program | cycles | warp insn | CPU s (median of %d) | SM-cycles/s | warp insn/s | thread insn/s "
          "| × GPGPU-Sim's rate |" % runs)
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    print("| %s | %d | %d | %.3f | %.2f M | %.2f M | %.1f M | %.0f-%.0f× |"
          % (os.path.basename(prog), cyc, wi, t, cyc / t / 1e6, wi / t / 1e6, ti / t / 1e6,
             ti / t / GPGPUSIM_RATE[1], ti / t / GPGPUSIM_RATE[0]))


if __name__ == "__main__":
    main()
