#!/usr/bin/env python3
"""SPIN on the Promela models `musimd emit-promela` writes (explore.md §5).

Usage: promela_spin.py MUSIMD EXAMPLES_DIR [--random N] [--jobs J] [--keep DIR]

1. Verdicts. For every example line `# expect explore --model mimd
   [OPTIONS]: VERDICT`, the model of `emit-promela FILE OPTIONS` goes
   through SPIN with the commands of musimd(1) (emit-promela):
       spin -a M.pml
       cc -DNOCLAIM -o pan pan.c; ./pan -m1000000      stuck: deadlock
       cc -o pan pan.c; ./pan -a -f -m1000000           acceptance cycle: livelock
       ./pan -a -m1000000                               acceptance cycle: terminates-fair,
                                                        else terminates
   and SPIN's verdict must be the expected one.
2. Random programs. N random programs (`gen --deterministic --no-atomics`, 2 threads: a
   final memory no schedule can change) are run with `run --model mimd`;
   their model, with an assertion that Σ ends as `run` left it, must pass
   pan's safety search (no stuck step, no assertion) on every schedule; a
   model whose run leaves int32 (`!(int32_overflow)`) is counted, not failed.
   N random programs with atomics (`gen --unstructured`, 2 threads; they
   terminate under mimd on every schedule, their loops counting up): SPIN's
   verdict must be terminates (or a counted int32 overflow).
3. No crash. Every example and N random programs with atomics
   (`gen --unstructured`) give exit 0 and a model `spin -a` accepts, or
   exit 3 with a FILE:LINE:COL diagnostic.

Exits 77 (meson's skip) when spin or a C compiler is missing.
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

# the options end at the first colon that is not inside a word (--model its:any)
EXPECT = re.compile(r"^\s*#\s*expect\s+explore\s+(?P<opts>(?:[^:]|:(?=\S))*):\s*(?P<verdict>\S+)(?P<rest>.*)$")
# emit-promela takes the machine options of `run`; the explorer's others do not apply to it
MACHINE_OPTS = {"--threads", "--warpsize", "--param", "--data"}
# The search depth of musimd(1)'s commands would allocate 50 MB of stack and
# their 2^24-slot hash table 128 MB, for every run of pan; these models are
# tiny: a smaller stack and table (a deeper search fails as unknown, loudly).
PAN_LIMITS = ["-m100000", "-w18"]


def sh(cmd, cwd, timeout=300):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def cflags(model):
    m = re.search(r"-DVECTORSZ=\d+", model)
    return [m.group(0)] if m else []


def pan_errors(out):
    m = re.search(r"errors: (\d+)", out)
    return int(m.group(1)) if m else None


def truncated(out):
    """pan cut its search short (a depth or memory bound): no verdict."""
    return re.search(r"max search depth too small|out of memory|-DMEMLIM|Search not completed", out) \
        and pan_errors(out) == 0


def spin_verdict(cc, model, workdir):
    """SPIN's answer for a model: terminates, terminates-fair, deadlock,
    livelock, or 'overflow' / 'unknown: why'."""
    with open(os.path.join(workdir, "M.pml"), "w") as f:
        f.write(model)
    r = sh(["spin", "-a", "M.pml"], workdir)
    if r.returncode != 0 or not os.path.exists(os.path.join(workdir, "pan.c")):
        return "unknown: spin -a failed: " + (r.stdout + r.stderr)[-400:]
    flags = cflags(model)
    for name, extra in (("pan_safety", ["-DNOCLAIM"]), ("pan", [])):
        r = sh([cc, "-O0", "-w"] + flags + extra + ["-o", name, "pan.c"], workdir)
        if r.returncode != 0:
            return "unknown: %s does not compile: %s" % (name, r.stderr[-400:])
    safety = sh(["./pan_safety"] + PAN_LIMITS, workdir).stdout
    if truncated(safety):
        return "unknown: the safety search did not complete: " + safety[-400:]
    # pan's "unreached" listing quotes the assertions too: read its error lines only
    if re.search(r"assertion violated\s+!\(int32_overflow\)", safety):
        return "overflow"
    if re.search(r"pan:\d+: (assertion violated\s+!\(stuck\)|invalid end state)", safety):
        return "deadlock"
    if pan_errors(safety) != 0:
        return "unknown: safety: " + safety[-400:]
    fair = sh(["./pan", "-a", "-f"] + PAN_LIMITS, workdir).stdout
    if truncated(fair):
        return "unknown: the fair search did not complete: " + fair[-400:]
    if "acceptance cycle" in fair:
        return "livelock"
    if pan_errors(fair) != 0:
        return "unknown: fair: " + fair[-400:]
    unfair = sh(["./pan", "-a"] + PAN_LIMITS, workdir).stdout
    if truncated(unfair):
        return "unknown: the search did not complete: " + unfair[-400:]
    if "acceptance cycle" in unfair:
        return "terminates-fair"
    if pan_errors(unfair) != 0:
        return "unknown: " + unfair[-400:]
    return "terminates"


def expectations(examples):
    """(file, line, emit options, expected verdict) of every mimd explore line."""
    out = []
    for name in sorted(os.listdir(examples)):
        if not name.endswith(".simd"):
            continue
        path = os.path.join(examples, name)
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = EXPECT.match(line)
                if not m:
                    continue
                words = m.group("opts").split()
                if "--model" not in words or words[words.index("--model") + 1] != "mimd":
                    continue
                opts, i = [], 0
                while i < len(words):
                    if words[i] in MACHINE_OPTS:
                        opts += words[i:i + 2]
                    i += 2 if words[i].startswith("--") and i + 1 < len(words) and \
                        not words[i + 1].startswith("--") else 1
                out.append((path, n, opts, m.group("verdict")))
    return out


def check_verdict(musimd, cc, item, keep):
    path, line, opts, want = item
    r = subprocess.run([musimd, "emit-promela", path] + opts, capture_output=True, text=True)
    where = "%s:%d (emit-promela %s)" % (path, line, " ".join(opts) or "-")
    if r.returncode != 0:
        return False, "FAIL %s: exit %d\n%s" % (where, r.returncode, r.stderr)
    with tempfile.TemporaryDirectory(dir=keep) as d:
        got = spin_verdict(cc, r.stdout, d)
        if keep:
            shutil.copy(os.path.join(d, "M.pml"), os.path.join(keep, "%s_%d.pml" % (os.path.basename(path)[:-5], line)))
    if got == want:
        return True, "ok   %s: %s" % (where, got)
    return False, "FAIL %s: SPIN says %s, the example expects %s" % (where, got, want)


def final_memory_check(model, shared, base, n):
    """The model with a process that asserts Σ's final contents."""
    conds = ["sigma[%d] == %s" % (a - base, v if v >= 0 else "(%d)" % v)
             for a, v in sorted(shared.items()) if base <= a < base + n]
    if not conds:
        return None
    return model + "\nactive proctype final_memory()\n{\n\t(nfin == NT);\n\tassert(%s)\n}\n" % \
        " &&\n\t       ".join(conds)


def check_data(musimd, cc, seed, gsa):
    """A deterministic random program (or its GSA form, whose φ, μ, γ and η
    the model copies): SPIN's final Σ on every schedule is run's."""
    gen = subprocess.run([musimd, "gen", "--seed", str(seed), "--deterministic", "--size", "30",
                          "--no-atomics"], capture_output=True, text=True).stdout
    if gsa:
        gen = subprocess.run([musimd, "gsa", "/dev/stdin"], input=gen, capture_output=True, text=True).stdout
        seed = "%d (gsa)" % seed
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "p.simd")
        with open(src, "w") as f:
            f.write(gen)
        run = subprocess.run([musimd, "run", src, "--model", "mimd", "--threads", "2", "--json"],
                             capture_output=True, text=True)
        import json
        res = json.loads(run.stdout) if run.stdout.startswith("{") else None
        em = subprocess.run([musimd, "emit-promela", src, "--threads", "2"], capture_output=True, text=True)
        if em.returncode == 3:
            return "skip", "seed %s: emit-promela refuses it: %s" % (seed, em.stderr.splitlines()[0] if em.stderr else "")
        if em.returncode != 0 or res is None:
            return "fail", "seed %s: emit-promela exit %d / run %s\n%s" % (seed, em.returncode, run.returncode, em.stderr)
        m = re.search(r"int sigma\[(\d+)\];\s*/\* Σ\[(\d+)\.\.", em.stdout)
        shared = {int(k): v for k, v in res["shared"].items()}
        model = final_memory_check(em.stdout, shared, int(m.group(2)), int(m.group(1))) if m else None
        if model is None:
            return "skip", "seed %s: no shared memory to compare" % seed
        if res["status"] != "ok":
            return "skip", "seed %s: run ends %s" % (seed, res["status"])
        with open(os.path.join(d, "M.pml"), "w") as f:
            f.write(model)
        r = sh(["spin", "-a", "M.pml"], d)
        if r.returncode != 0:
            return "fail", "seed %s: spin -a: %s" % (seed, r.stdout + r.stderr)
        r = sh([cc, "-O0", "-w", "-DNOCLAIM"] + cflags(model) + ["-o", "pan", "pan.c"], d)
        if r.returncode != 0:
            return "fail", "seed %s: pan.c: %s" % (seed, r.stderr[-400:])
        out = sh(["./pan"] + PAN_LIMITS, d).stdout
        if re.search(r"assertion violated\s+!\(int32_overflow\)", out):
            return "overflow", "seed %s: a value leaves int32" % seed
        if pan_errors(out) == 0 and not truncated(out):
            return "ok", "seed %s: final memory as run's on every schedule" % seed
        return "fail", "seed %s: %s" % (seed, out[-600:])


def check_random_verdict(musimd, cc, seed):
    """A random program with atomics (gen --unstructured: it terminates under
    mimd on every schedule, its loops counting up): SPIN must say terminates."""
    gen = subprocess.run([musimd, "gen", "--seed", str(seed), "--unstructured", "--size", "40"],
                         capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "p.simd")
        with open(src, "w") as f:
            f.write(gen)
        em = subprocess.run([musimd, "emit-promela", src, "--threads", "2"], capture_output=True, text=True)
        if em.returncode == 3:
            return "skip", "seed %s: emit-promela refuses it" % seed
        if em.returncode != 0:
            return "fail", "seed %s: emit-promela exit %d\n%s" % (seed, em.returncode, em.stderr)
        got = spin_verdict(cc, em.stdout, d)
    if got in ("terminates", "overflow"):
        return got, "seed %s: %s" % (seed, got)
    return "fail", "seed %d (gen --unstructured --size 40, 2 threads): SPIN says %s" % (seed, got)


def check_no_crash(musimd, path):
    """None, or what went wrong: emit-promela must exit 0 with a model spin
    accepts, or 3 with a diagnostic."""
    r = subprocess.run([musimd, "emit-promela", path], capture_output=True, text=True)
    if r.returncode == 3 and re.search(r": error: ", r.stderr):
        return None
    if r.returncode != 0:
        return "%s: emit-promela exit %d\n%s" % (path, r.returncode, r.stderr[-600:])
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "M.pml"), "w") as f:
            f.write(r.stdout)
        s = sh(["spin", "-a", "M.pml"], d)
    if s.returncode != 0 or "rror" in s.stdout:
        return "%s: spin -a rejects the model:\n%s" % (path, (s.stdout + s.stderr)[-600:])
    return None


def tally(futures, what, good):
    """Print the kinds of (kind, message) results and every failure; the
    number of failures, one more when no result was good."""
    counts, failed = {}, 0
    for f in futures:
        kind, msg = f.result()
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "fail":
            print("FAIL " + msg)
            failed += 1
    print("%d %s: %s" % (len(futures), what, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    if futures and counts.get(good, 0) == 0:
        print("FAIL: none of the %s was %s" % (what, good))
        failed += 1
    return failed


def main():
    args = sys.argv[1:]
    nrandom, jobs, keep = 4, 2, None
    for opt in ("--random", "--jobs", "--keep"):
        if opt in args:
            i = args.index(opt)
            val = args[i + 1]
            del args[i:i + 2]
            if opt == "--random":
                nrandom = int(val)
            elif opt == "--jobs":
                jobs = int(val)
            else:
                keep = os.path.abspath(val)
                os.makedirs(keep, exist_ok=True)
    if len(args) != 2:
        print(__doc__)
        return 2
    musimd, examples = os.path.abspath(args[0]), args[1]
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if not shutil.which("spin") or not cc:
        print("skipped: %s not found (Debian: apt-get install spin gcc)" %
              ("spin" if not shutil.which("spin") else "a C compiler"))
        return 77
    items = expectations(examples)
    with tempfile.TemporaryDirectory() as d:
        # every task in one pool: the compilations of pan keep both cores busy
        paths = [os.path.join(examples, f) for f in sorted(os.listdir(examples)) if f.endswith(".simd")]
        for seed in range(1, nrandom + 1):
            p = os.path.join(d, "u%d.simd" % seed)
            with open(p, "w") as f:
                f.write(subprocess.run([musimd, "gen", "--seed", str(seed), "--unstructured", "--size", "60"],
                                       capture_output=True, text=True).stdout)
            paths.append(p)
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            verdicts = [pool.submit(check_verdict, musimd, cc, it, keep) for it in items]
            data = [pool.submit(check_data, musimd, cc, seed, gsa)
                    for seed in range(1, nrandom + 1) for gsa in (False, True)]
            loose = [pool.submit(check_random_verdict, musimd, cc, seed) for seed in range(1, nrandom + 1)]
            crashes = [pool.submit(check_no_crash, musimd, p) for p in paths]
            failed = 0
            for f in verdicts:
                ok, msg = f.result()
                print(msg)
                failed += not ok
            print("%d mimd verdicts checked with SPIN, %d failing" % (len(items), failed))
            failed += tally(data, "random deterministic programs and their GSA forms", "ok")
            failed += tally(loose, "random programs with atomics", "terminates")
            bad = [f.result() for f in crashes if f.result()]
            for err in bad:
                print("FAIL " + err)
            print("%d programs through emit-promela and spin -a, %d failing" % (len(paths), len(bad)))
            failed += len(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
