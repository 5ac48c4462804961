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
** every observed (tid, value) pair; a read outside a loop that assigns v,
** when the loop's exits are divergent (ana_read_divergent), is divergent
** whatever v's class and is not checked. A run that gets stuck or reaches
** the step limit is not a violation: it is listed with its reason.
**
** Models (docs/analyses.md §4): under sync and ipdom the PEs checked
** together are those of a warp in one step, as above (under ipdom the GSA
** group is the IT step of the block; no implicit sync). Under mimd every
** thread runs alone, so reads are matched by dynamic instance: the same
** instruction, in the same iteration of every loop around it (each thread
** counts the back edges it took since it entered each loop), by threads of
** the same warp of the program's warp size; they are checked at the end of
** the run. A thread whose load read a shared cell that another thread
** stored between their two reads of one instance (a race under mimd: the
** lock step the analyses assume for memory is gone) is not checked from
** then on.
** Corollary 1 (simple U ⇒ poly uniform) is checked by verify_corollary1.
*/
#ifndef MUSIMD_VERIFY_H
#define MUSIMD_VERIFY_H

#include "ana.h"
#include "model.h"
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

/* A run that did not finish (under one model, with one thread count). */
typedef struct VerifyUnfinished {
	int32_t threads;
	const char *status;  /* sem_status_name, or "oracle-limit" */
	char *rule;          /* the stuck rule ("MM", "LD", "limit", ...), or NULL */
	char *msg;           /* the run's error message, with where (label and line) */
	bool gsa_only;       /* the program itself finished; only its GSA form did not */
} VerifyUnfinished;

/* What the oracle did under one model. */
typedef struct VerifyModel {
	const Model *model;
	int32_t runs;        /* thread counts tried */
	int32_t finished;    /* runs that ended with status ok and were checked */
	uint64_t reads;      /* reads checked */
	VerifyUnfinished *un;
	int32_t nun, capun;
	bool applicable;     /* some run of the program finished under this model */
} VerifyModel;

typedef struct VerifyResult {
	int32_t runs;          /* runs performed (thread counts × models) */
	int32_t stuck;         /* runs that did not finish with status ok */
	uint64_t reads;        /* reads checked */
	Violation *v;
	int32_t nv, capv;
	VerifyModel models[MODEL_COUNT]; /* in the order of models[]; nmodels used */
	int32_t nmodels;
	bool verified;         /* some run finished and was checked */
	int32_t *counts;       /* the thread counts tried */
	int32_t ncounts;
	bool timed_out;        /* the deadline (VerifyOptions.sem.deadline, --max-time)
	                       ** stopped a run: the runs after it were not made, and the
	                       ** verdict is inconclusive */
} VerifyResult;

/* --verify-model: which models the oracle runs the program under, bit i
** for models[i] (ORDER MODELS). */
enum {
	VERIFY_SYNC = 1 << 0,
	VERIFY_IPDOM = 1 << 1,
	VERIFY_MIMD = 1 << 2,
	VERIFY_ALL = (1 << MODEL_COUNT) - 1,
};

/* Where the oracle is: run `run` (0-based) of at most `total` (thread
** counts × models asked for), under `model` with `threads` threads, after
** `seconds` of the oracle. */
typedef struct VerifyProgress {
	int32_t run, total;
	const Model *model;
	int32_t threads;
	double seconds;
} VerifyProgress;

typedef struct VerifyOptions {
	int32_t max_threads;   /* K: thread counts 1..K (default 8), and the program's .threads */
	SemOptions sem;        /* base options: params, data, max_steps, warpsize (0: the
	                       ** program's .warpsize, else one warp of the run's threads) */
	int32_t max_violations; /* stop collecting after this many (0: 100) */
	unsigned models;       /* VERIFY_* bits; 0: every model (VERIFY_ALL, those under
	                       ** which the program never finishes are skipped) */
	const Program *orig;   /* the program the GSA form was built from, or NULL: it runs
	                       ** first, and a run it does not finish is not checked */
	uint64_t max_reads;    /* mimd: reads the oracle may keep per run (0: 4000000) */
	/* called before each run (may be NULL): a long oracle (--verify=K with K
	** large, runs that go to their step limit) can say how far it is */
	void (*progress)(void *ctx, const VerifyProgress *p);
	void *progress_ctx;
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
