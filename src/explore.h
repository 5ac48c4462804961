/*
** explore.h — every schedule of a program under one model (explore.md §3,
** §4): a breadth-first search of the state graph, whose states are
** sem_pack's bytes and whose transitions are sem_step's under each enabled
** warp; then the verdict (terminates, terminates-fair, deadlock, livelock,
** unknown) with a shortest counterexample.
*/
#ifndef MUSIMD_EXPLORE_H
#define MUSIMD_EXPLORE_H

#include "sem.h"

typedef enum ExploreVerdict {
	EXPLORE_TERMINATES,      /* every schedule ends with every thread finished (no cycle) */
	EXPLORE_TERMINATES_FAIR, /* some schedules run for ever, none of them fair */
	EXPLORE_DEADLOCK,        /* a reachable state where nothing can step, or a stuck step */
	EXPLORE_LIVELOCK,        /* a fair run that never ends */
	EXPLORE_UNKNOWN,         /* a limit stopped the search */
} ExploreVerdict;

const char *explore_verdict_name(ExploreVerdict v); /* "terminates", "terminates-fair", ... */

/* Defaults of explore.md §4. */
#define EXPLORE_DEFAULT_MAX_STATES 10000000ull
#define EXPLORE_DEFAULT_MAX_MEMORY (4096ull << 20)

typedef struct ExploreProgress {
	uint64_t states, transitions, queued, depth, bytes;
	double seconds;
} ExploreProgress;

typedef struct ExploreOptions {
	SemOptions sem;        /* the program's shape and parameters, the model, and
	                       ** atomic_any: --atomic-order any */
	uint64_t max_states;   /* 0: EXPLORE_DEFAULT_MAX_STATES */
	uint64_t max_memory;   /* bytes for the search (states, graph, queued machines);
	                       ** 0: EXPLORE_DEFAULT_MAX_MEMORY */
	double max_time;       /* seconds; 0: no limit */
	bool no_reduction;     /* expand every choice of every state (no partial-order reduction) */
	bool path_order_both;  /* under a model that reads --path-order (ipdom), the side a
	                       ** divergent branch runs first is a choice too */
	/* called about once a second during a search (NULL: never) */
	void (*progress)(void *ctx, const ExploreProgress *p);
	void *progress_ctx;
} ExploreOptions;

typedef struct ExploreResult {
	ExploreVerdict verdict;
	bool doomed;          /* livelock: no final state can be reached from the cycle */
	uint64_t states, transitions, depth, bytes;
	uint64_t state_bytes; /* the packed states stored, in all (bytes / states: the cost of one) */
	double seconds;
	const char *limit;    /* unknown: "states", "memory", "time" or "lane-orders" (a
	                      ** step with more lane orders than are tried, sem.h) */
	/* the counterexample (deadlock, livelock): the warp chosen at each step,
	** from the initial state; a livelock's cycle is trace[cycle_start..];
	** a deadlock by a stuck step ends with the step that gets stuck */
	int32_t *trace;
	int32_t ntrace;
	int32_t *groups;      /* the alternative of each step (sem_step_group): under its:any
	                      ** the group, an index among the warp's groups that can issue;
	                      ** under ipdom at a branch the side run first (1: taken); plus,
	                      ** with sem.atomic_any, their number times the outcome of the
	                      ** lanes' order; NULL when the choices are warps alone */
	int32_t cycle_start;  /* -1: no cycle */
} ExploreResult;

/* Explore p (loaded, with its cfg) under o->sem.model. NULL when the
** options are refused (errors in d, as sem_new reports them). */
ExploreResult *explore_run(const Program *p, const ExploreOptions *o, Diags *d);
void explore_free(ExploreResult *r);

#endif
