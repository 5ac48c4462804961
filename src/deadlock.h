/*
** deadlock.h — static detection of SIMT-induced deadlocks: ElTantawy's
** Algorithm 1 (seed 004 §3.3; the definitions of its Listing 1, §3.2).
**
** A loop may deadlock a SIMT machine when its exit condition depends on a
** shared-memory read inside the loop and a write that may redefine that
** cell lies where a thread of the same warp cannot run while others are
** still in the loop: reachable from the reconvergence point of the loop's
** exits (before a barrier), or on a path parallel to the loop (the other
** side of a branch whose one side holds the loop). The analysis runs on the
** program's own CFG, with the backward slices of the exit conditions taken
** in its GSA form (one definition per variable: the slice follows the
** operands, γ/η predicates and the branches each block is control
** dependent on), and reports in the user's lines.
** It is the thesis's conservative detector: it may suspect a loop that
** cannot deadlock (a false detection), and assumes what the thesis does
** (§3.1): the program terminates under mimd and its barriers are not
** divergent. `musimd explore` decides exactly, for given thread counts.
*/
#ifndef MUSIMD_DEADLOCK_H
#define MUSIMD_DEADLOCK_H

#include "ir.h"

/* Where a write lies relative to the loop (Listing 1). */
typedef enum DlWhere {
	DL_REACHABLE, /* reachable from the reconvergence point of Exits(L), before a barrier */
	DL_PARALLEL,  /* on the other side of a branch one side of which holds the loop */
} DlWhere;

/* A write of RedefWrites(L): a store or atomic that may alias a read of ShrdReads(L). */
typedef struct DlWrite {
	int32_t pc;       /* the write (GSA program) */
	int32_t read_pc;  /* the first shared read of the loop it may redefine */
	DlWhere where;
	int32_t branch_pc; /* DL_PARALLEL: a branch of ParaBrSet(L, BB(write)) */
} DlWrite;

/* How far a loop gets through the filters of Table 3.2's funnel. */
typedef enum DlStage {
	DL_NOT_MEMORY,   /* no exit condition depends on shared memory */
	DL_NO_LOOP_READ, /* ... only on shared reads outside the loop body */
	DL_NOT_REDEFINED, /* ... on reads in the loop, but no write may redefine them */
	DL_SUSPECTED,    /* RedefWrites(L) ≠ ∅: potential SIMT-induced deadlock */
} DlStage;

typedef struct DlLoop {
	int32_t loop;       /* index in the program's Cfg.loops */
	int32_t header_pc;  /* first instruction of the loop header */
	int32_t *exit_conds; /* ExitConds(L): branches in L with a successor outside */
	int32_t nexit;
	int32_t rpc;        /* reconvergence point of Exits(L); -1: the end of the program */
	int32_t *reads;     /* ShrdReads(L): loads and atomics in L the exits depend on */
	int32_t nreads;
	DlWrite *writes;    /* RedefWrites(L) */
	int32_t nwrites;
	DlStage stage;
	/* Algorithms 2 and 3 (§4.2): SSDE moves the loop's reconvergence to
	** safe_pc (a pc; the program's nins: its end) when ssde is set: the loop
	** is suspected, or (by_conflict) it encloses a transformed loop whose
	** safe point lies outside it. */
	int32_t safe_pc;
	bool ssde, by_conflict;
	/* Algorithm 2 simplified for AWARE (§5.6): the writes reachable from the
	** loop's reconvergence point only (AWARE's FIFO runs parallel paths) */
	int32_t aware_pc;
} DlLoop;

typedef struct DlResult {
	DlLoop *loops;      /* in the order of the headers */
	int32_t nloops;
	/* Table 3.2's funnel: loops whose exits may diverge (all, without the
	** divergence analysis), depend on shared memory, on a shared read in
	** the loop, and that may be redefined (suspected) */
	int32_t ndivergent, nmemory, nloopread, nsuspected;
} DlResult;

/* Algorithms 1 to 3 on program p (p->cfg set; pcs in the result are p's),
** whose GSA form is gsa (gsa_build(p), or p itself when p is in GSA form):
** the slices are taken there. branch_divergent (per pc of gsa, NULL for
** the thesis's algorithm): a divergence analysis's verdicts
** (AnaResult.branch_divergent, sound under every model): a loop whose exit
** conditions are all uniform never lets some threads of a warp leave while
** others stay, so no thread waits after it (its reachable writes do not
** count: the thesis's remedy for its BH-FC false detection, §3.5), and a
** uniform branch cannot put a loop and a write on parallel paths of one
** warp. (A loop with a uniform exit still deadlocks when the writer is
** deferred on the other side of a divergent branch: the done flag.)
** Each loop's slice walks the instructions it reaches; the reachable and
** parallel sets are computed only for the loops that get that far (each a
** walk of the blocks between a branch and its reconvergence point), and
** Algorithm 3 compares every pair of loops until nothing moves. */
DlResult *dl_detect(const Program *p, const Program *gsa, const bool *branch_divergent);
/* The whole detection from a program: its GSA form built (conversion
** errors go to d: NULL), with the affine analysis's branch verdicts when
** divergence. */
DlResult *dl_run(const Program *p, bool divergence, Diags *d);
void dl_free(DlResult *r);
/* Algorithm 5 (AWARE's delayed reconvergence, §5.6): per pc of p, for each
** conditional branch whose reconvergence point moves, the new point (a pc;
** nins: the end of the program), else -1. The exit branches of the loops
** r suspects start at their loop's aware_pc, every other branch at its
** immediate post-dominator; then a branch's point is moved past the points
** of the branches on the paths from its successors to it, until nothing
** moves. Free with free(). */
int32_t *dl_aware_points(const Program *p, const DlResult *r);
const char *dl_stage_name(DlStage s); /* "not-memory", ..., "suspected" */

#endif
