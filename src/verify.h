/*
** verify.h — the soundness oracle (analyses.md §4): run the GSA program
** with the semantics (model sync, thread counts 1..K) and check every read
** of a variable against the analysis' verdict.
**
** The oracle drives sem_step itself (sem_pick, then the step), so it sees
** each instruction before it executes, with the warp's active set:
** - an ordinary instruction reads its operands, address and predicate in
**   every active PE; the values are checked over all the active PEs;
** - a GSA group (φ/μ/γ/η at a block start, after the implicit sync) reads,
**   per PE, γ's predicate and selected operand, μ/φ's operand of the edge
**   the PE arrived by, η's operand; these reads are checked per group of PEs
**   that took the same edge into the block at the same step (PEs deferred by
**   BD keep the step of that BD), so η's read of d.1 in sumTriangle (1, 2,
**   3, 4 in threads 0..3, which left the loop in different iterations) is
**   not a violation;
** - a branch classified uniform must never fire BD.
** A read of v is a violation when v is classified constant/uniform and the
** checked PEs see different values (or not that constant), or v has known
** coefficients a_k and no values of its unknown (⊥) lower coefficients fit
** every observed (tid, value) pair. A run that gets stuck or reaches the
** step limit is not a violation (it is counted).
** Corollary 1 (simple U ⇒ poly uniform) is checked by verify_corollary1.
*/
#ifndef MUSIMD_VERIFY_H
#define MUSIMD_VERIFY_H

#include "ana.h"
#include "sem.h"

typedef struct Violation {
	int32_t pc;        /* the instruction that read the value (or the branch) */
	int32_t var;       /* the variable read, -1 for a branch that fired BD */
	int32_t nthreads;  /* threads of the run */
	int32_t n;         /* PEs involved */
	int32_t *threads;  /* their tids */
	Num *values;       /* the values they saw (owned); NULL for a BD */
	char *msg;         /* one line, e.g. "d.3 classified uniform (0·T + ⊥): threads {0,1} see 1, 2" */
} Violation;

typedef struct VerifyResult {
	int32_t runs;          /* runs performed (one per thread count) */
	int32_t stuck;         /* runs that did not finish with status ok */
	uint64_t reads;        /* reads checked */
	Violation *v;
	int32_t nv, capv;
} VerifyResult;

typedef struct VerifyOptions {
	int32_t max_threads;   /* K: thread counts 1..K (default 8) */
	SemOptions sem;        /* base options: params, data, max_steps, warpsize (0: the
	                       ** program's .warpsize, else one warp of the run's threads) */
	int32_t max_violations; /* stop collecting after this many (0: 100) */
} VerifyOptions;

/* Check r (computed on gsa) against runs of gsa. Option errors (an unknown
** --param name) go to d and the result is NULL. */
VerifyResult *verify_run(const Program *gsa, const AnaResult *r, const VerifyOptions *o, Diags *d);
void verify_free(VerifyResult *v);

/* Corollary 1: every variable the simple result calls uniform must be
** constant or uniform in the poly result. Violations are appended to out
** (pc -1 there). Returns the number found. */
int32_t verify_corollary1(const AnaResult *simple, const AnaResult *poly, VerifyResult *out);

#endif
