/*
** gen.h — random μ-SIMD programs (analyses.md §4): the
** input of the property tests (soundness oracle, GSA round trip,
** Corollary 1), the LLVM comparison and the analysis benchmarks.
**
** A generated program is plain μ-SIMD (no GSA), structured so that every
** branch reconverges at its immediate post-dominator through a `sync`:
** if-then, if-then-else, and loops with thread-dependent trip counts,
** nested; arithmetic on tid, laneid, parameters and literals; loads,
** stores and atomics on a bounded window of shared memory (`.memory zero`).
** It always terminates, never divides by zero and never gets stuck under
** the sync model, for any thread count.
**
** With `unstructured`, the control flow of real kernels instead (break,
** continue, short-circuit && and ||, early exit and stop, loops with several
** exits, nested loops left from the inner loop): reducible, no sync; it
** terminates without errors under the ipdom and mimd models for any thread
** count and warp size. With `deterministic` (either shape), no atomics and
** no cell shared between a writer and another thread: the final memory is
** the same under every model and schedule. With `calls` (either shape),
** functions f0..f2 after main's stop, called without recursion, sometimes
** from both sides of a branch, unstructured ones returning early too: it
** then runs to the end under every model and policy (sync: structured only).
*/
#ifndef MUSIMD_GEN_H
#define MUSIMD_GEN_H

#include "util.h"

typedef struct GenOptions {
	uint64_t seed;
	int32_t size;       /* approximate number of instructions (default 40) */
	int32_t max_depth;  /* nesting of branches and loops (default 3) */
	int32_t nvars;      /* source variables to draw from (default 6) */
	bool no_memory;     /* no loads or stores */
	bool no_atomics;
	bool no_loops;
	bool unstructured;  /* break, continue, short-circuit, early exit, ... (gen.c) */
	bool deterministic; /* a result no schedule can change (gen.c) */
	bool concurrent;    /* threads that wait for one another instead (gen.c): */
	bool calls;         /* functions (call, ret) too, without recursion (gen.c) */
} GenOptions;

/* Append the program's text to b (deterministic for a given seed).
**
** With `concurrent` (size, depth and vars are not used): 2 or 3 threads in
** warps of 1, 2 or all of them, running a few of the patterns of seed 004
** §2 in a row, some inside a divergent branch: a spin lock (NVCC's
** CAS self-loop), the SIMT-safe lock, a flag one thread sets and the
** others wait for, a ticket lock, an atomic counter, two locks taken in
** thread-dependent orders, a barrier in uniform or in divergent code. They may deadlock or livelock, under some models
** or all: the input of the explorer's property tests. */
void gen_program(Buf *b, const GenOptions *o);

#endif
