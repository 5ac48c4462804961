/*
** sem.h — the semantics of μ-SIMD (semantics.md): machine state and the one
** step function that every driver (runner, tracer, profiler, REPL,
** explorer) uses.
**
** The state is plain data. Lanes are stored structure-of-arrays: for
** variable v and thread t, val[v * nthreads + t] holds the value when it
** fits int64 and big[v][t] the mpz otherwise (Num's two fields, split).
** Each warp is a machine (Θ, Π, pc) of semantics.md §1 over the one shared
** memory Σ; Θ is a bitset over the warp's lanes.
*/
#ifndef MUSIMD_SEM_H
#define MUSIMD_SEM_H

#include "bits.h"
#include "cfg.h"
#include "ir.h"
#include "mem.h"

/* A reconvergence model (model.h): sync, ipdom, mimd. */
typedef struct Model Model;
typedef enum LaneOrder { ORDER_ASCENDING, ORDER_DESCENDING, ORDER_RANDOM } LaneOrder;

/* What one step did: the rule of Table 3.4 that fired, or an extension.
** ORDER RULE: keep sem_rule_name in step. */
typedef enum Rule {
	RULE_SF,  /* stop */
	RULE_BT,  /* branch: every active PE jumps */
	RULE_BF,  /* branch: every active PE falls through */
	RULE_BD,  /* branch: divergent */
	RULE_SS,  /* sync: switch to the deferred PEs */
	RULE_SP,  /* sync: pop and merge */
	RULE_JP,  /* jump */
	RULE_IT,  /* any other instruction: the data rules (a GSA group counts once) */
	RULE_EX,  /* exit (ext) */
	RULE_BAR, /* arrival at a barrier (ext); its release is free */
	RULE_NOP, /* sync where the model ignores it (ipdom, mimd) */
	RULE_CL,  /* call (ext): push the return pc, enter the function */
	RULE_RT,  /* ret (ext): every active thread returns to the same pc */
	RULE_RS,  /* ret (ext): the active threads return to different pcs, a divergence */
	RULE__COUNT
} Rule;

const char *sem_rule_name(Rule r);
/* The model's name; NULL is the default, sync. */
const char *sem_model_name(const Model *model);

typedef enum SemStatus {
	SEM_RUNNING,  /* more steps to go */
	SEM_OK,       /* every warp finished: the result (Θ, Σ) */
	SEM_STUCK,    /* no rule applies (or a race under --races=error) */
	SEM_LIMIT,    /* --max-steps reached */
	SEM_DEADLOCK, /* a barrier that can never complete */
	SEM_TIME_LIMIT, /* SemOptions.deadline passed (--max-time): inconclusive, not a
	                ** failure of the program */
} SemStatus;

/* "running", "ok", "stuck", "step-limit", "deadlock", "time-limit" */
const char *sem_status_name(SemStatus s);

typedef struct ParamSetting {
	const char *name;
	Num value;
} ParamSetting;

typedef struct SemOptions {
	const Model *model;        /* NULL: sync (model.h) */
	int32_t threads, warpsize; /* 0: from .threads/.warpsize, else 4 threads in one warp */
	bool bz_rules;             /* --bz-polarity=rules: bz jumps where v != 0 (Table 3.4 read literally) */
	bool strict_push;          /* push exactly as printed in Table 3.3 */
	bool taken_first;          /* ipdom: run the taken side first (NVIDIA) */
	LaneOrder lane_order;
	uint64_t seed;             /* for ORDER_RANDOM */
	bool atomic_any;           /* explore --atomic-order any: a step whose lanes' order is a
	                           ** choice (explore.md §1) reports its distinct outcomes
	                           ** (StepInfo.norders) */
	bool races_error;
	uint64_t max_steps;        /* 0: default 10^7 (a Machine's opt holds the resolved value) */
	uint64_t max_thread_instructions; /* the work bound beside max_steps: the active
	                           ** threads of every step summed; 0: default 10^10 */
	double deadline;           /* mono_seconds() at which a run stops with
	                           ** SEM_TIME_LIMIT (--max-time); 0: none. Checked
	                           ** every SEM_CLOCK_STEPS steps or SEM_CLOCK_WORK thread
	                           ** instructions, whichever comes first */
	uint64_t max_cells;        /* shared + local cells; 0: default */
	uint64_t max_memory;       /* bytes for the whole state (lanes, cells, values beyond
	                           ** int64); 0: default */
	const ParamSetting *params; /* overrides of .param values */
	int32_t nparams;
	const MemInit *data;       /* extra initial memory (--data), applied after .data */
	int32_t ndata;
	const char *aware_delay;   /* aware: delayed reconvergence points (--aware-delay), or NULL */
	int64_t aware_timeout;     /* aware: a pending reconvergence gives up after this many steps
	                           ** of its warp without an arrival; 0 never; SEM_TIMEOUT_ANY
	                           ** at any step, as a choice (explore.md §1) */
} SemOptions;

#define SEM_TIMEOUT_ANY (-1)

#define SEM_DEFAULT_MAX_STEPS 10000000ull
#define SEM_DEFAULT_MAX_THREAD_INSTRUCTIONS 10000000000ull
/* How often the step function reads the clock when a deadline is set: a
** clock read every 4096 steps or 2^22 thread instructions costs nothing
** measurable and overshoots a deadline by milliseconds. */
#define SEM_CLOCK_STEPS 4096ull
#define SEM_CLOCK_WORK (1ull << 22)
#define SEM_DEFAULT_MAX_CELLS (1ull << 26)
#define SEM_DEFAULT_MAX_MEMORY (2048ull << 20)
#define SEM_MAX_THREADS (1 << 22)

/* ---- the machine ------------------------------------------------------- */

/* A model's control state of one warp (model.h), bottom first: n records
** of rec_size bytes, each with nmask lane sets of the warp's nw words.
** Plain data: copied and freed without the model. */
typedef struct CtlStack {
	int32_t n, cap;
	uint16_t rec_size, nmask;
	unsigned char *recs;  /* cap × rec_size */
	uint64_t *masks;      /* cap × nmask × nw */
} CtlStack;

typedef enum WarpStatus { WARP_RUN, WARP_BARRIER, WARP_DONE } WarpStatus;

/* The lane rows (Machine.val, .def, .spec) end with room for one more
** word of lanes: the data rules read a word of 64 lanes at a time (and
** mask what is not the warp's). */
#define SEM_ROW_PAD 64

typedef struct Warp {
	/* what the scheduler and the cohorts (sem.c) read of every warp, in
	** its first cache line */
	int32_t id;
	int32_t base, size;  /* threads base .. base+size-1 */
	int32_t nw;          /* words per lane bitset */
	int32_t pc;
	WarpStatus status;
	bool entered;        /* the next issue starts a block execution */
	bool idx_ok;         /* cached list of active threads, ascending (valid while idx_ok) */
	int32_t nidx;
	int32_t *idx;
	uint64_t *active;    /* Θ */
	uint64_t *live;      /* threads neither finished nor exited */
	CtlStack ctl;        /* the model's control state (Π, the SIMT stack, ...) */
} Warp;

typedef struct Race {
	int64_t cell;
	int32_t pc;
	int32_t warp;
	int32_t n;
	int32_t *threads; /* lane order */
	Num *values;
} Race;

typedef struct RunError {
	const char *rule; /* "SF", "SP", "BT", "BF", "BD", "MV", "MM", "LD", "ST", "AT", "BP", "TL", "limit", "BAR" */
	char *msg;
	int32_t pc;       /* -1: none */
	int32_t warp;
	int32_t *threads;
	int32_t nthreads;
	char *stack;      /* the warp's stack, rendered */
} RunError;

/* A control edge a step took: the lanes of a warp that left block `from`
** for the start of another (the edge φ and μ read). */
typedef struct SemEdge {
	int32_t warp;
	int32_t from;           /* block */
	const uint64_t *lanes;  /* the warp's lanes that moved */
} SemEdge;

/* What one step did, for tracers, profilers and the soundness oracle. The
** pointers are valid until the next step. */
typedef struct StepInfo {
	uint64_t step;          /* 1-based number of this step */
	int32_t warp;
	int32_t pc;             /* the instruction issued */
	Rule rule;
	const uint64_t *active; /* Θ at the start of the step (warp's lanes) */
	int32_t nactive;
	/* the step's effects, filled when the machine's `effects` is set: the
	** control edges taken (BT BF BD JP, IT or SP into a new block, and the
	** waiting warps' edges when this step released a barrier), and the
	** shared cells written (stores, and atomics that wrote) */
	const SemEdge *edges;
	int32_t nedges;
	const int64_t *stores;
	int32_t nstores;
	/* The order of the lanes at a store or an atomic (rule TL, explore.md §1):
	** its distinct outcomes, 1 when it is no choice (or not asked: neither
	** SemOptions.atomic_any nor an order given to sem_step_group), 0 when
	** there are too many to try (SEM_MAX_ORDER_LANES, SEM_MAX_ORDERS; the
	** step ran in the lane order); the outcome taken (0: the lane order);
	** when order > 0, the active lanes in the order they ran (nactive of
	** them; valid until the next step). */
	int32_t norders, order;
	const int32_t *lanes;
} StepInfo;

/* Bounds of the lane orders tried (explore.md §1): at most this many lanes
** of one atomic on one cell (their orders are simulated one by one), and
** this many distinct outcomes of one step. */
#define SEM_MAX_ORDER_LANES 8
#define SEM_MAX_ORDERS 40320

typedef struct Machine {
	const Program *prog;
	const Cfg *cfg;
	const Model *model;     /* opt.model resolved */
	SemOptions opt;
	int32_t nthreads, warpsize, nwarps; /* warpsize of the program; mimd runs nthreads warps of one */
	int32_t sched_warpsize;             /* lanes per scheduled warp: warpsize, or 1 for mimd */
	int32_t nvars;
	int64_t *val;           /* nvars × nthreads */
	__mpz_struct ***big;    /* per variable: NULL, or nthreads mpz pointers (NULL = small) */
	int32_t *nbig;          /* per variable: lanes holding a big value */
	uint8_t *def;           /* nvars × nthreads: assigned? */
	int32_t *ndef;          /* per variable: lanes assigned */
	int64_t *spec[SPEC__COUNT]; /* per-thread values of tid, laneid, warpid (others uniform) */
	int32_t *from_block;    /* per thread: the block it last came from (φ/μ), -1 at the start */
	/* return stacks (calls, musimd-lang(7)): per thread its depth and
	** ret_cap slots of return pcs, bottom first; ret_cap is the program's
	** longest chain of calls (Cfg.max_call_depth; 0: no calls, no table).
	** ret_to: scratch, the pc each thread of a ret returns to */
	int32_t ret_cap;
	int32_t *ret_depth;     /* nthreads */
	int32_t *ret_stack;     /* nthreads × ret_cap */
	int32_t *ret_to;        /* nthreads */
	int32_t *aware_rpc;     /* per pc: a branch's delayed reconvergence point (--aware-delay),
	                        ** AWARE_NO_DELAY (model.h) elsewhere; NULL without delays */
	const int64_t *clock;   /* a driver that keeps time (the SM model): its cycle, and the
	                        ** AWARE timeout counts cycles, not the warp's steps; NULL */
	int32_t model_alt;      /* the alternative the model's choose made current for the next
	                        ** step, when the model keeps it so (aware); sem_step clears it */
	bool track_edges;       /* the program has φ or μ */
	/* A driver's watch on one variable (the SM's progress watchdog): a
	** step that writes a lane of variable watch_var a different int64 row
	** value or definedness than it had sets watch_changed (the driver
	** clears it). -1: none (sem_new) */
	int32_t watch_var;
	bool watch_changed;
	Mem shared;
	Mem **local;            /* per thread, NULL until used */
	uint64_t cells;         /* initialised cells, shared + local */
	uint64_t fixed_bytes;   /* the lane tables (nvars × nthreads) */
	uint64_t big_bytes;     /* heap bytes of the values beyond int64 */
	uint64_t stack_bytes;   /* heap bytes of the warps' stacks */
	uint64_t heap_bytes;    /* memory pages (local ones too), tables of values beyond
	                        ** int64, race reports: counted as they are allocated */
	uint64_t outside_bytes; /* charged to the same --max-memory budget by the owner
	                        ** of the machine (the REPL's copies for going back) */
	Warp *warps;
	uint64_t *warp_sets;    /* every warp's Θ and live set, side by side (Warp.active,
	                        ** .live point in here): the scheduler's walk over many
	                        ** small warps stays in few cache lines */
	int32_t *warp_idx;      /* every warp's list of active threads (Warp.idx): nthreads */
	uint64_t *runnable;     /* the ready set: a bit per warp whose status is WARP_RUN, */
	uint64_t *runnable_sum; /* and a bit per non-zero word of it (sem_warp_status) */
	int32_t cursor;         /* round robin */
	int32_t nwarps_done;    /* warps whose status is WARP_DONE */
	int32_t arrived;        /* threads waiting at the barrier */
	int32_t nlive;          /* threads neither finished nor exited */
	SemStatus status;
	RunError err;
	/* measures (semantics.md §7) */
	uint64_t steps, thread_instructions;
	/* the step function looks at the limits (max_steps, max_thread_instructions,
	** deadline) only when steps or thread_instructions reach these */
	uint64_t check_steps, check_work;
	uint64_t *visits, *divergences; /* per pc; meaningful for branches */
	uint64_t *block_execs;          /* per block: warp executions */
	uint64_t rule_count[RULE__COUNT];
	int32_t max_depth;
	Race *races;
	int32_t nraces, capraces;
	/* scratch */
	uint64_t *step_active;
	int64_t *tmp;           /* nthreads */
	Num *res;               /* nthreads */
	int32_t *order;         /* nthreads: lanes in lane order */
	int64_t *addr;          /* nthreads */
	MemPage **cellpage;      /* nthreads: the page of the cell of each lane of a store or
	                        ** an atomic, NULL when absent (store_plan in data.c) */
	int32_t *hslot;         /* race detection table */
	int32_t nhslot;
	int32_t *chain;         /* nthreads × 2, made with hslot: the lanes of a store or an
	                        ** atomic chained by cell (chain_cells in data.c) */
	void *gsa_scratch;      /* a GSA group's parallel copy: its values (gsa_cap of them),
	                        ** then whether each is unassigned */
	size_t gsa_cap;
	uint64_t rng;
	/* the step's effects (StepInfo.edges, .stores), recorded when effects
	** is set (by a driver that reads them: the oracle) */
	bool effects;
	SemEdge *fx_edge;
	int32_t fx_nedge, fx_capedge;
	uint64_t *fx_lanes;     /* fx_capedge × the words of a warp's lane set */
	int64_t *fx_cell;
	int32_t fx_ncell, fx_capcell;
	int32_t lane_choice;    /* the outcome of the lane order this step takes (sem_step_group) */
	int32_t norders;        /* the distinct outcomes of this step's lane order (StepInfo.norders) */
	struct LaneOrders *lane_orders; /* the last step's outcomes, kept for its other orders (data.c) */
	/* sem_run's cohorts (sem.c): a warp over the lanes of several, the
	** warps it stands for (and their active threads' counts), and the
	** step before which no cohort is tried
	** (after one failed); made with the first cohort, never copied */
	Warp cohort;
	int32_t *cohort_warps;
	uint64_t cohort_after;
	uint64_t *cohort_split;  /* the lanes of the cohort that jump, then those that fall
	                         ** through (a word past each) */
	bool split_given;        /* a cohort's warps branch: sem_split reads its warp's
	                         ** part of the cohort's split */
	uint64_t cohort_steps;   /* the steps run in cohorts (counted among steps) */
	/* The last cohort, kept while it is the next one (sem.c, kept_cohort):
	** its warps were every runnable warp, all now at kept_pc after a data
	** step or a move; 0 warps: none kept. kept_union: m->cohort is its
	** union of lanes. */
	int32_t kept_k, kept_first, kept_pc;
	int64_t cohort_nlanes;   /* the active lanes of the cohort's warps (sem.c) */
	bool kept_union;
	bool kept_clear;         /* and no warp of it has `entered` set */
	/* Moves of a kept cohort inside a block are not written into its warps:
	** the lazy_k warps of cohort_warps are at lazy_pc, not at their Warp.pc,
	** until flush_lazy (sem.c) writes it, before anything else reads them
	** (0: every Warp.pc is right; sem_run never returns with one pending). */
	int32_t lazy_k, lazy_pc;
	/* sem_run's strips (sem.c, run_strips): per pc, how many data
	** instructions from pc on a strip may run (made with the first try, for
	** machines of STRIP_MIN_LANES threads or more) */
	int32_t *straight;
	uint64_t strip_steps;    /* the steps run in strips (counted among cohort_steps) */
} Machine;

/* Build the initial state (semantics.md §1). Problems with the options
** (unknown --param name, too many threads, ...) go to d as errors and the
** result is NULL. */
Machine *sem_new(const Program *p, const SemOptions *opt, Diags *d);
void sem_free(Machine *m);
/* Deep copy (the REPL's history, the explorer's branching). */
Machine *sem_clone(const Machine *m);
/* The bytes of m counted against --max-memory (outside_bytes not
** included): about what sem_clone allocates. */
static inline uint64_t sem_bytes(const Machine *m) /* inline: a check after every step */
{
	return m->fixed_bytes + m->big_bytes + m->stack_bytes + m->heap_bytes;
}

/* Warp w's status becomes st (every change goes through here: the
** scheduler's ready set follows). Inline: a barrier changes every warp's. */
static inline void sem_warp_status(Machine *m, Warp *w, WarpStatus st)
{
	w->status = st;
	int32_t i = w->id, word = i >> 6;
	if (st == WARP_RUN) {
		m->runnable[word] |= 1ull << (i & 63);
		m->runnable_sum[word >> 6] |= 1ull << (word & 63);
	} else {
		m->runnable[word] &= ~(1ull << (i & 63));
		if (!m->runnable[word])
			m->runnable_sum[word >> 6] &= ~(1ull << (word & 63));
	}
}
/* Rebuild the ready set from the warps' statuses (after setting them all). */
void sem_ready_reset(Machine *m);
/* The next warp the deterministic round-robin scheduler runs, or -1. */
int32_t sem_pick(const Machine *m);
/* THE step function: one warp instruction of warp w (semantics.md §2-§6).
** Returns the machine status afterwards; fills *info when info != NULL. */
SemStatus sem_step(Machine *m, int32_t w, StepInfo *info);
/* sem_step after an alternative of the explorer's choices (explore.md §1),
** alt = g + sem_alternatives(m, w) × k: g under a model whose groups are
** choices (its:any) the group among the warp's groups that can issue, under
** one that reads --path-order (ipdom) at a branch the side run first (1:
** taken first); k the outcome of the lane order of a store or an atomic
** (StepInfo.norders; 0: the lane order; one it does not have gets the step
** stuck, rule TL). alt < 0: the model's own choice and the lane order. */
SemStatus sem_step_group(Machine *m, int32_t w, int32_t alt, StepInfo *info);
/* How many groups or sides the alternative of warp w's next step ranges
** over (sem_step_group): its:any's groups that can issue, 2 at a branch
** under a model that reads --path-order, else 1. */
int32_t sem_alternatives(const Machine *m, int32_t w);
/* The key that tells alternative alt of warp w apart for fairness
** (explore.md §3), before it is chosen: the model's choice_key, else the
** pc of the warp's current group. */
int32_t sem_choice_key(const Machine *m, int32_t w, int32_t alt);
/* sem_pick for drivers that loop: when no warp can run although the
** program has not finished, records the deadlock (status SEM_DEADLOCK). */
int32_t sem_schedule(Machine *m);
/* After warp w made a step: the round robin continues with the next warp
** (drivers that pick and step themselves, like the oracle, call it). */
void sem_advance(Machine *m, int32_t w);
/* Run to the end with the round-robin scheduler, calling hook after every
** step (hook may be NULL). */
typedef void (*SemHook)(void *ctx, const Machine *m, const StepInfo *info);
SemStatus sem_run(Machine *m, SemHook hook, void *ctx);

/* ---- the state as data (state.c) ---------------------------------------- */

/* Append the canonical bytes of m's state (explore.md §3) to b: equal bytes
** for machines of one program and options exactly when their states are
** equal. */
void sem_pack(const Machine *m, Buf *b);
/* Make m's state the one packed in p[0..n) (by sem_pack from a machine of
** the same program and options); false when the bytes are not such a
** state (m is then unusable). Measures are left as they are. */
bool sem_unpack(Machine *m, const void *p, size_t n);
/* Setting the state piece by piece (sem_unpack, debuggers). */
void sem_set_lane(Machine *m, int32_t v, int32_t t, Num value); /* takes value */
void sem_unset_lane(Machine *m, int32_t v, int32_t t);
void sem_put_cell(Machine *m, Mem *mem, int64_t addr, Num value); /* takes value */
Mem *sem_local_mem(Machine *m, int32_t t);
/* A 64-bit hash of n bytes (of sem_pack's output). */
uint64_t sem_hash_bytes(const void *p, size_t n);

/* ---- reading the state ------------------------------------------------- */

/* The operand a φ/μ/γ/η instruction copies in thread t (semantics.md §4),
** NULL when t came by an edge a φ has no operand for. */
const Opnd *sem_gsa_operand(const Machine *m, const Ins *ins, int32_t blk, int32_t t);

/* The value of a special variable (tid, laneid, ...) in thread t. */
int64_t sem_special(const Machine *m, Special s, int32_t t);
/* Value of variable v in thread t (borrowed), false if unassigned. */
bool sem_get(const Machine *m, int32_t v, int32_t t, Num *out);
int32_t sem_stack_depth(const Machine *m, int32_t w);
/* Thread t's return stack (calls): its depth, and its k-th return pc from
** the bottom (0 <= k < depth). */
static inline int32_t sem_ret_depth(const Machine *m, int32_t t)
{
	return m->ret_cap ? m->ret_depth[t] : 0;
}
static inline int32_t sem_ret_pc(const Machine *m, int32_t t, int32_t k)
{
	return m->ret_stack[(size_t)t * (size_t)m->ret_cap + (size_t)k];
}
/* A thread's return stack as "[l4, l9]" (bottom first; "[]" empty). */
void sem_print_ret_stack(Buf *b, const Machine *m, int32_t t);
/* Reports show at most this many stack nodes, top first: a program whose
** branches are not matched by syncs grows Π by a node per iteration. */
#define SEM_STACK_SHOWN 16

/* The warp's stack as the papers write it, top first (at most
** SEM_STACK_SHOWN nodes, then "... (N more)"):
** "(l6, ∅, l15, {0})" for sync, "(l15, ⊥, {0,1}) : ..." for ipdom, where ⊥
** is the virtual exit; "[]" when empty. */
void sem_print_stack(Buf *b, const Machine *m, int32_t w);
/* A thread set as "{0,1,2}" (runs of five or more as "0..9"). */
void sem_print_set(Buf *b, const Machine *m, int32_t w, const uint64_t *set);
/* A lane set of warp w as a bit string, the last lane first: ElTantawy's
** masks, "0101" for lanes 0 and 2. */
void sem_print_bits(Buf *b, const Machine *m, int32_t w, const uint64_t *set);
/* Field i of a control record view (model.h) as the text forms print it. */
struct CtlField;
struct CtlView;
void sem_print_field(Buf *b, const Machine *m, int32_t w, const struct CtlField *f, const struct CtlView *v,
                     int32_t i);

#endif
