/*
** core.c — one SM, cycle by cycle (sm-model.md §1.1 and decisions 1-5):
** each cycle every warp scheduler (warps i ≡ s mod schedulers) tries its
** warps in its policy's order and issues the first that is ready: not at a
** barrier or finished, every register it reads or writes ready (the
** scoreboard: a result is ready `latency` cycles after its producer
** issued — the configured latency is the dependent-issue latency users
** measure, decision 2), and a unit of its kind free (a unit accepts one
** instruction per initiation interval). An issue executes the instruction
** at once through the step function (sem_step, decision 1): the model's
** control rules pick the lanes, the data rules compute, so the issue
** count and the final state are the interpreter's. Cycles in which nothing
** can issue are skipped to the next one where something can, and their
** stall counters are advanced in bulk (decision 3).
**
** Two watchdogs (decision 5): GPGPU-Sim's commit watchdog (every 50 000
** cycles: nothing issued since the last check is a deadlock, the divergent
** barrier's case), and the progress watchdog (-musimd_progress_window
** cycles without a change of the architectural state — a register lane, a
** memory cell, a thread's end, a barrier arrival — while instructions issue
** is a livelock, the SIMT spin lock's case, which GPGPU-Sim never sees).
**
** Memory instructions go to the LD/ST unit (ldst.c): shared-memory bank
** conflicts, coalescing, the L1 with its MSHRs, L2 and DRAM decide how
** long it is held and when the result is ready.
**
** The front end and operand delivery (sm/fetch.c, sm/opcoll.c): a warp
** issues only the instruction its I-buffer holds (refilled by fetch, and
** after a branch elsewhere flushed and refetched: the control hazard), and
** takes an operand collector unit that reads its registers' banks (a
** conflict delays the result; no free unit, no issue). With
** -gpgpu_max_insn_issue_per_warp 2 the issuing warp's next instruction may
** issue in the same cycle (dual issue).
**
** Not modelled yet (the issue's later steps): in the memory system, the
** interconnect and DRAM timing (ldst.c).
*/
#include "core.h"
#include "ldst.h"
#include "opcoll.h"
#include "regalloc.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"

/* The cycle loop is compiled twice, with and without the warp
** scheduler's hooks (cycle_with's constant argument): inline it into both. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

#define SM_WATCHDOG_PERIOD 50000 /* GPGPU-Sim's deadlock check (gpu-sim.cc) */
#define NEVER INT64_MAX

const char *sm_status_name(SmStatus s)
{
	static const char *const n[] = {"ok", "deadlock", "livelock", "stuck", "cycle-limit", "insn-limit", "step-limit",
	                                 "time-limit"};
	return (unsigned)s < sizeof n / sizeof *n ? n[s] : "?";
}

const char *sm_warp_state_name(SmWarpState s)
{
	static const char *const n[WS__COUNT + 1] = {
		"issued",        "not_selected",   "scoreboard",     "structural", "barrier",   "finished",
		"not_resident", "ibuffer_empty", "control_hazard", "collector_busy", "backed_off"};
	return (unsigned)s <= WS_BACKED_OFF ? n[s] : "?";
}

/* ---- units and timing -------------------------------------------------- */

static int32_t unit_latency(const SmConfig *c, const SmIns *s)
{
	int32_t l;
	switch ((SmUnit)s->unit) {
	case UNIT_MEM: l = c->smem_latency; break;
	case UNIT_SFU: l = c->lat_int[SM_DIV]; break;
	default: l = c->lat_int[s->oclass]; break;
	}
	return l + c->stage_overhead;
}

static int32_t unit_interval(const SmConfig *c, const SmIns *s)
{
	switch ((SmUnit)s->unit) {
	case UNIT_MEM: return 1;
	case UNIT_SFU: return c->ii_int[SM_DIV];
	default: return c->ii_int[s->oclass];
	}
}

static int32_t units_of(const SmConfig *c, SmUnit u, int32_t npools)
{
	int32_t n;
	switch (u) {
	case UNIT_INT: n = c->num_int > 0 ? c->num_int : c->num_sp; break; /* Fermi, Pascal: all on SP */
	case UNIT_SFU: n = c->num_sfu; break;
	default: return 1; /* one LD/ST unit per SM, shared by the schedulers */
	}
	n = npools > 1 ? n / npools : n;
	return n > 0 ? n : 1;
}

static ALWAYS_INLINE UnitPool *pool_of(const SmCore *c, int32_t s, SmUnit u)
{
	return c->pool_at[s * UNIT__COUNT + u];
}

/* The first cycle a unit of the pool is free. */
static ALWAYS_INLINE int64_t pool_free(const UnitPool *p)
{
	return p->first_at;
}

/* The pool's first free unit takes an instruction until `until`; the
** unit free first then (the first such in index order). */
static ALWAYS_INLINE void pool_take(UnitPool *p, int64_t until)
{
	p->free_at[p->first] = until;
	if (p->n == 1) { /* (a pool of one: the sub-core model's own units) */
		p->first_at = until;
		return;
	}
	int32_t best = 0;
	for (int32_t i = 1; i < p->n; i++)
		if (p->free_at[i] < p->free_at[best])
			best = i;
	p->first = best;
	p->first_at = p->free_at[best];
}

/* ---- the watchdogs' view of a step ------------------------------------- */

#define SPIN_PCS 8

/* What a warp issued since the last change: up to SPIN_PCS distinct pcs,
** in the order first issued; valid while gen is the Progress's (a reset
** starts a new generation instead of emptying every warp's). */
typedef struct SpinNote {
	uint64_t gen;
	int32_t n;
	int32_t pc[SPIN_PCS];
} SpinNote;

typedef struct Progress {
	int64_t last;            /* cycle of the last change of the architectural state */
	uint64_t gen;            /* changes so far + 1 */
	SpinNote *notes;         /* per warp: what issued since then */
	uint64_t *lanes;         /* nwarps × nw: the lanes active at the warp's last issue */
	int32_t nw;
	/* scratch: a compare-and-swap's destination lanes before its step */
	int64_t *val;
} Progress;

static void progress_init(Progress *g)
{
	g->last = 0;
	g->gen = 1; /* (notes of generation 0: empty) */
}

static ALWAYS_INLINE void progress_reset(Progress *g, int64_t now)
{
	g->last = now;
	g->gen++;
}

/* Warp w's pcs since the last change (how many; NULL when none). */
static const int32_t *progress_pcs(const Progress *g, int32_t w, int32_t *n)
{
	const SpinNote *s = &g->notes[w];
	*n = s->gen == g->gen ? s->n : 0;
	return *n ? s->pc : NULL;
}

static ALWAYS_INLINE void progress_note(Progress *g, int32_t w, int32_t pc, const uint64_t *active)
{
	SpinNote *s = &g->notes[w];
	if (s->gen != g->gen) {
		s->gen = g->gen;
		s->n = 1;
		s->pc[0] = pc;
	} else {
		int32_t i = 0;
		while (i < s->n && s->pc[i] != pc)
			i++;
		if (i == s->n && i < SPIN_PCS)
			s->pc[s->n++] = pc;
	}
	uint64_t *lanes = &g->lanes[(size_t)w * g->nw];
	for (int32_t i = 0; i < g->nw; i++) /* (a word or two: no call) */
		lanes[i] = active[i];
}

/* ---- one run ----------------------------------------------------------- */

/* A warp's class (walk_classes): what its last look found, when that is
** still the answer: finished; an own hazard (the scoreboard, the I-buffer,
** AWARE's ST insert) that has not cleared; structural, waiting for a unit
** of kind CLS_STR + unit. */
enum { CLS_NONE, CLS_FIN, CLS_OWN, CLS_STR };
#define OWN_DIRTY INT64_MIN

/* A scheduler's classes: sets over its list's positions (at most 64). */
typedef struct SchedClasses {
	uint64_t fin, own, str[UNIT__COUNT];
	/* the first cycle an own hazard clears; OWN_DIRTY when a warp left the
	** class since it was exact (own_sb too is stale then): the next walk
	** recomputes both (own_prune) */
	int64_t own_next;
	int32_t own_sb;         /* its own hazards that are the scoreboard's */
	uint64_t recall_seq;    /* the last walk that recalled structural warps and issued nothing */
	int64_t recall_f[UNIT__COUNT]; /* their units' first free cycle in it */
} SchedClasses;

typedef struct Classes {
	uint64_t seq;           /* walks so far */
} Classes;

/* What the cycle loop keeps of a scheduler, together. */
typedef struct SchedRun {
	/* A scheduler that found none of its warps ready sleeps until the
	** first of their hazards clears: nothing another scheduler does can
	** make one ready sooner (it can only keep a shared unit busy longer),
	** except a barrier's release, which starts a new epoch (Run.epoch). */
	int64_t sleep_until;
	uint64_t sleep_epoch;
	uint64_t *counter;      /* the statistic its category counts this cycle (count) */
	int32_t issued_k;       /* active lanes of its issue */
	UnitPool *pool[UNIT__COUNT]; /* the pool it issues to, per unit (pool_of) */
	bool own_pool[UNIT__COUNT];  /* that pool is its alone (look_ahead) */
	/* the warp whose look in the next cycle its issue took (look_ahead), or
	** -1; its walk in that cycle keeps or undoes it (tent_resolve). A run
	** that stops before (a limit, a watchdog) stops in that cycle: the
	** look's state counts no cycle. */
	int32_t tent;
	/* the cycle of its next walk when its issue foresaw that walk asking no
	** warp and issuing nothing (foresee_empty), else -1; with what that
	** walk counts and whether it recalls structural warps */
	int64_t skip;
	uint64_t *skip_counter;
	bool skip_recall;
	SchedClasses cl;        /* the walk by classes */
} SchedRun;

/* What the walks and issues keep of a warp, cache-line aligned (the
** step's lane data evict these lines between two looks at a warp, so a
** look should touch few): what a look reads in the first line with the
** instruction counts an issue adds to, then the stall cycles, the first
** four states' (issued, not selected, scoreboard, structural) in the
** second line. */
typedef struct WarpRun {
	_Alignas(64) int64_t ready_at;       /* when the scoreboard (and its I-buffer) let its instruction at ready_pc issue */
	int64_t since, until;   /* its state since `since` (until `until` for a hazard, after which
	                        ** it was ready: see note_state) */
	uint64_t look;          /* the walk that last set `until` (the walk by classes: until_of) */
	SmWarpState st;
	int32_t ready_pc;       /* the pc ready_at was computed for (-1: none) */
	uint8_t unit;           /* in WS_STRUCTURAL: the unit it waits for */
	uint8_t cls;            /* its class (the walk by classes) */
	SmWarpStats ws;         /* its statistics, into the result's at the end */
} WarpRun;
_Static_assert(offsetof(WarpRun, ws.cycles) == 64, "a warp's look and its counts in one cache line");

typedef struct Run {
	SmCore c;
	SmResult *r;
	Progress g;
	int32_t *order;      /* a scheduler's warps in policy order */
	WarpRun *wr;         /* per warp, each in its own cache line (in wr_mem) */
	void *wr_mem;
	uint8_t ready_unit;  /* the unit of warp_ready's last WS_STRUCTURAL answer */
	SchedRun *sr;        /* per scheduler */
	bool committed;      /* an issue since the last commit-watchdog check */
	int32_t pos;         /* the issuing warp's position in its scheduler's list */
	uint64_t epoch;      /* barrier releases and CTA launches so far (SchedRun's sleep) */
	SmTraceFn *trace;    /* told of every issue, or NULL */
	void *trace_ctx;
	LdSt *ldst;          /* the LD/ST unit and the memory hierarchy (ldst.c) */
	int32_t first;       /* the scheduler that goes first this cycle: now mod schedulers */
	int64_t drain;       /* the last cycle an issued instruction completes */
	bool hooks;          /* the warp scheduler has hooks (WarpSched on_issue, wake; SmCore not_before) */
	/* the front end and operand delivery (sm/fetch.c, sm/opcoll.c) */
	Fetch fetch;
	OpColl oc;
	SmAlloc *alloc;      /* register allocation (sm/regalloc.c): the code run is its; NULL: none */
	/* the walk by classes (walk_classes): on for a rotation policy without
	** hooks, one pc per warp, no spill code */
	bool classes;
	Classes k;
	/* the policy's rotation and greedy warp (WarpSched), NULL: its order
	** (and with walk_every_warp) */
	int32_t (*rotation)(const SmCore *core, int32_t s, int32_t n);
	int32_t (*greedy)(const SmCore *core, int32_t s);
	int8_t rotation_kind; /* the policy's (WarpSched) */
} Run;

static ALWAYS_INLINE void note_state(Run *x, int32_t w, SmWarpState st, int64_t until, bool hooks);

/* The first cycle a unit of scheduler s's pool for u is free (a walk reads
** it as it goes: only the scheduler's own issue changes it meanwhile). */
static ALWAYS_INLINE int64_t unit_free(const Run *x, int32_t s, SmUnit u)
{
	return pool_free(x->sr[s].pool[u]);
}
static void classes_rebuild(Run *x);

/* CTAs take the room there is (cta.c); their warps are ready from now on,
** and sleeping schedulers look at them. */
static void launch(Run *x, bool hooks)
{
	int32_t first = x->c.launched;
	if (cta_launch(&x->c, x->r) == 0)
		return;
	for (int32_t w = first; w < x->c.launched; w++)
		note_state(x, w, WS_NOT_SELECTED, NEVER, hooks);
	x->epoch++;
}

/* When the registers instruction si reads and writes are ready in lanes
** (MP's per-lane scoreboard). */
static int64_t lanes_ready(const SmCore *c, int32_t w, const SmIns *si, const uint64_t *lanes, int32_t size)
{
	int64_t t = 0;
	int32_t regs[LOWER_MAX_SRC + 1], n = 0;
	for (int32_t i = 0; i < si->nsrc; i++)
		regs[n++] = si->src[i];
	if (si->dst >= 0)
		regs[n++] = si->dst;
	for (int32_t i = 0; i < n; i++) {
		const int64_t *r = &c->lane_ready[((size_t)w * (size_t)c->code->nregs + (size_t)regs[i]) * (size_t)c->lanes];
		for (int32_t l = 0; l < size; l++)
			if (bit_get(lanes, l) && r[l] > t)
				t = r[l];
	}
	return t;
}

/* A warp of several splits (MP): the first split in its model's order whose
** lanes' registers are ready and whose unit is free (seed 004 §7.2: any
** split may fill an issue slot). */
static SmWarpState split_ready(const Run *x, int32_t w, int32_t s, int64_t *when)
{
	const SmCore *c = &x->c;
	const Warp *W = &c->m->warps[w];
	const Model *md = c->m->model;
	int32_t n = md->ngroups(W);
	SmWarpState why = WS_SCOREBOARD;
	for (int32_t k = 0; k < n; k++) {
		int32_t pc;
		const uint64_t *lanes;
		md->group(W, k, &pc, &lanes);
		const SmIns *si = &c->code->ins[pc];
		int64_t t = lanes_ready(c, w, si, lanes, W->size);
		if (t > c->now) {
			if (t < *when)
				*when = t;
			continue;
		}
		const UnitPool *p = pool_of(c, s, (SmUnit)si->unit);
		int64_t f = pool_free(p);
		if (f > c->now) {
			if (f < *when)
				*when = f;
			why = WS_STRUCTURAL;
			continue;
		}
		c->alt[w] = k;
		return WS_ISSUED;
	}
	return why;
}

/* Can warp w of scheduler s issue now? WS_ISSUED when it can; else why
** not, and *when the cycle it may (NEVER: not by waiting). hooks: the
** policy has hooks (on_issue, wake, not_before; a constant, so that the
** cycle loop of the policies without them is compiled without them);
** plain: one pc per warp and no spill code (walk_classes). */
static ALWAYS_INLINE SmWarpState warp_ready_(Run *x, int32_t w, int32_t s, int64_t *when, bool hooks, bool plain)
{
	const SmCore *c = &x->c;
	const Warp *W = &c->m->warps[w];
	*when = NEVER;
	if (W->status == WARP_DONE)
		return WS_FINISHED;
	if (W->status == WARP_BARRIER)
		return WS_BARRIER;
	if (MU_UNLIKELY(c->st_hold != NULL) && c->st_hold[w] > c->now) {
		*when = c->st_hold[w]; /* AWARE's ST insert: the front end is busy with the tables */
		return WS_CONTROL;
	}
	if (!plain && c->lane_ready)
		return split_ready(x, w, s, when);
	const SmIns *si = &c->code->ins[W->pc];
	if (!plain && MU_UNLIKELY(c->spill != NULL)) { /* spill code first (sm/regalloc.c) */
		const SpillOp *op = spill_next(c->spill, W, w);
		if (op)
			si = &op->ins;
	}
	if (x->wr[w].ready_pc != W->pc) { /* the scoreboard's answer for this instruction, once */
		const int64_t *ready = &c->reg_ready[(size_t)w * (size_t)c->code->nregs];
		int64_t t = 0;
		for (int32_t i = 0; i < si->nsrc; i++)
			if (ready[si->src[i]] > t)
				t = ready[si->src[i]];
		if (si->dst >= 0 && ready[si->dst] > t) /* WAW */
			t = ready[si->dst];
		/* and when its I-buffer has it (sm/fetch.c): that changes only
		** when the warp issues, which recomputes this */
		if (x->fetch.on && fetch_at(&x->fetch, w, W->pc, c->now) > t)
			t = x->fetch.ready[w];
		x->wr[w].ready_pc = W->pc;
		x->wr[w].ready_at = t;
	}
	if (x->wr[w].ready_at > c->now) {
		if (x->fetch.on && x->fetch.ready[w] > c->now) { /* no instruction yet: GPGPU-Sim's first check */
			*when = x->fetch.ready[w];
			return (SmWarpState)x->fetch.cause[w];
		}
		*when = x->wr[w].ready_at;
		return WS_SCOREBOARD;
	}
	int64_t f = unit_free(x, s, (SmUnit)si->unit);
	if (f > c->now) {
		*when = f;
		x->ready_unit = si->unit; /* (note_state keeps it) */
		return WS_STRUCTURAL;
	}
	int64_t cu = opcoll_free_at(&x->oc, s, (SmUnit)si->unit, c->now); /* a collector unit (sm/opcoll.c) */
	if (cu > c->now) {
		*when = cu;
		return WS_COLLECTOR;
	}
	if (hooks && c->not_before && c->not_before[w] > c->now) { /* its scheduler holds it back (BOWS) */
		*when = c->not_before[w];
		return WS_BACKED_OFF;
	}
	return WS_ISSUED;
}

static ALWAYS_INLINE SmWarpState warp_ready(Run *x, int32_t w, int32_t s, int64_t *when, bool hooks)
{
	return warp_ready_(x, w, s, when, hooks, false);
}

/* warp_ready for a warp of the walk by classes' structural class whose
** unit is free now (the walk asks it): its look found its instruction's
** registers ready and only that unit missing, and nothing but its own
** issue changes its status, pc, scoreboard or I-buffer (nor AWARE's ST
** hold, which it has not: st_hold NULL), so what is left of the answer is
** the collector unit's — without reading the warp (a cache miss here:
** the steps' lane data evict it between two looks). */
static ALWAYS_INLINE SmWarpState warp_ready_freed(Run *x, int32_t w, int32_t s, int64_t *when)
{
	const SmCore *c = &x->c;
	*when = NEVER;
	int64_t cu = opcoll_free_at(&x->oc, s, (SmUnit)x->wr[w].unit, c->now);
	if (cu > c->now) {
		*when = cu;
		return WS_COLLECTOR;
	}
	return WS_ISSUED;
}

/* Did the step change the destination's lanes (a lane's int64 value or
** definedness)? The step tells, watching the variable (Machine.watch_var,
** set before it by watch_dst, cleared after it by dst_changed). */
static ALWAYS_INLINE void watch_dst(Machine *m, int32_t v)
{
	m->watch_var = v;
	m->watch_changed = false;
}

static ALWAYS_INLINE bool dst_changed(Machine *m, int32_t v)
{
	m->watch_var = -1;
	if (v < 0)
		return false;
	return m->nbig[v] > 0 || m->watch_changed; /* values beyond int64: counted as a change */
}

/* A compare-and-swap whose expected value is its destination: that
** value before the step (count_lock_attempts). */
static void save_dst(Run *x, const Warp *W, int32_t v)
{
	const Machine *m = x->c.m;
	size_t base = (size_t)v * (size_t)m->nthreads + (size_t)W->base;
	memcpy(x->g.val, &m->val[base], (size_t)W->size * sizeof *x->g.val);
}

/* A compare-and-swap's lanes are lock attempts; those whose old value
** (now in dst) differs from the expected one (b, read before the step:
** saved with dst when b is dst) failed. */
__attribute__((noinline)) static void count_lock_attempts(Run *x, const Warp *W, const Ins *ins, const StepInfo *info)
{
	const Machine *m = x->c.m;
	x->r->lock_attempts += (uint64_t)info->nactive;
	for (int32_t l = 0; l < W->size; l++) {
		if (!bit_get(info->active, l))
			continue;
		int32_t t = W->base + l;
		Num old, expect = NUM_I(0);
		if (!sem_get(m, ins->dst, t, &old))
			continue;
		if (ins->b.kind == OPND_VAR && ins->b.var == ins->dst)
			expect = NUM_I(x->g.val[l]);
		else if (ins->b.kind == OPND_VAR)
			sem_get(m, ins->b.var, t, &expect);
		else if (ins->b.kind == OPND_SPECIAL)
			expect = NUM_I(sem_special(m, (Special)ins->b.special, t));
		else
			expect = ir_lit(m->prog, &ins->b);
		bool same = !old.z && !expect.z ? old.i == expect.i : old.z && expect.z && !mpz_cmp(old.z, expect.z);
		x->r->lock_failures += !same;
	}
}

/* The latency of si issued now, and in *busy how long its unit stays
** taken: the memory system's for the LD/ST unit (its access prepared),
** else the unit's. Register bank conflicts come on top (opcoll_collect). */
static ALWAYS_INLINE int64_t issue_cost(Run *x, const SmIns *si, int64_t *busy)
{
	const SmCore *c = &x->c;
	if (si->unit == UNIT_MEM) { /* the memory system: its dispatch delay and when the result is ready */
		LdStCost mc = ldst_access(x->ldst, c->now, x->r);
		*busy = mc.busy;
		return mc.latency + c->cfg->stage_overhead;
	}
	*busy = unit_interval(c->cfg, si);
	return unit_latency(c->cfg, si);
}

/* The first free unit of si's pool is taken until now + busy. */
static ALWAYS_INLINE void take_unit(Run *x, int32_t s, const SmIns *si, int64_t busy)
{
	SmCore *c = &x->c;
	pool_take(x->sr[s].pool[si->unit], c->now + busy);
}

/* Issue warp w's next spill instruction (sm/regalloc.c): an issue slot,
** its unit, the LD/ST unit and the memory hierarchy for its access, the
** scoreboard; counted as an instruction. Its values move in spill_reload
** and spill_stored, at the instruction's own step. */
__attribute__((noinline)) static bool issue_spill(Run *x, int32_t w, int32_t s, const SpillOp *op)
{
	SmCore *c = &x->c;
	const Warp *W = &c->m->warps[w];
	SmResult *r = x->r;
	const SmIns *si = &op->ins;
	const uint64_t *lanes = spill_lanes(c->spill, W, w);
	int32_t n = 0;
	for (int32_t k = 0; k < W->nw; k++)
		n += __builtin_popcountll(lanes[k]);
	if (si->unit == UNIT_MEM) {
		bool local = op->kind == SO_LD_LOCAL || op->kind == SO_ST_LOCAL;
		bool store = op->kind == SO_ST_LOCAL || op->kind == SO_ST_SHARED;
		ldst_prepare_spill(x->ldst, W, lanes, local, store, spill_address(c->spill, op, w));
	}
	int64_t busy, lat = issue_cost(x, si, &busy);
	lat += opcoll_collect(&x->oc, s, w, (SmUnit)si->unit, si->src, si->nsrc, c->now);
	if (si->dst >= 0)
		c->reg_ready[(size_t)w * (size_t)c->code->nregs + (size_t)si->dst] = c->now + lat;
	take_unit(x, s, si, busy);
	r->warp_insn++;
	r->thread_insn += (uint64_t)n;
	x->wr[w].ws.warp_insn++;
	x->wr[w].ws.thread_insn += (uint64_t)n;
	x->sr[s].issued_k = n < r->warpsize ? n : r->warpsize;
	r->spill_insn++;
	bool local = op->kind == SO_LD_LOCAL || op->kind == SO_ST_LOCAL;
	switch ((SpillRole)op->role) {
	case SR_RELOAD:
		*(local ? &r->spill_loads : &r->shared_spill_loads) += 1;
		break;
	case SR_STORE:
		*(local ? &r->spill_stores : &r->shared_spill_stores) += 1;
		break;
	case SR_REMAT:
		r->remats++;
		break;
	case SR_SETUP:
		r->spill_setup++;
		break;
	case SR_EXTRA:
		break;
	}
	if (c->now + lat > x->drain)
		x->drain = c->now + lat;
	c->last_issued[s] = w;
	c->last_pos[s] = x->pos;
	x->wr[w].ready_pc = -1;
	r->last_commit = (uint64_t)c->now;
	x->committed = true;
	spill_issued(c->spill, w);
	return true;
}

/* Issue warp w's instruction: false when no rule applied (the machine is
** stuck or deadlocked now) and nothing issued. */
static ALWAYS_INLINE bool issue(Run *x, int32_t w, int32_t s, bool hooks)
{
	SmCore *c = &x->c;
	Machine *m = c->m;
	Warp *W = &m->warps[w];
	if (c->lane_ready) /* MP: the split warp_ready picked issues */
		m->model->choose(m, W, c->alt[w]);
	if (MU_UNLIKELY(c->spill != NULL)) { /* its spill code first, then its spilled operands' values */
		const SpillOp *op = spill_next(c->spill, W, w);
		if (op)
			return issue_spill(x, w, s, op);
		spill_reload(c->spill, m, W);
	}
	int32_t pc = W->pc;
	const SmIns *si = &c->code->ins[pc];
	const Ins *ins = &m->prog->ins[pc];
	if (MU_UNLIKELY(ins->op == OP_ATOMCAS) && ins->dst >= 0)
		save_dst(x, W, ins->dst);
	if (si->unit == UNIT_MEM) /* the addresses, before the step may overwrite them */
		ldst_prepare(x->ldst, m, W, ins);
	int32_t nlive = m->nlive;
	uint64_t steps = m->steps;
	if (hooks && c->sched->on_issue) /* the policy sees it before it executes */
		c->sched->on_issue(c, s, w);
	StepInfo info;
	watch_dst(m, ins->dst);
	sem_step(m, w, &info);
	bool dst_change = dst_changed(m, ins->dst);
	SmResult *r = x->r;
	if (m->steps == steps)
		return false; /* no rule applied (stuck, a barrier that cannot complete): not an issue */
	if (MU_UNLIKELY(c->spill != NULL)) /* a spilled result to spill memory; its stores are next */
		spill_stored(c->spill, m, w, pc, info.active);
	if (x->trace)
		x->trace(x->trace_ctx, c->now, s, m, &info);
	r->warp_insn++;
	r->thread_insn += (uint64_t)info.nactive;
	x->wr[w].ws.warp_insn++;
	x->wr[w].ws.thread_insn += (uint64_t)info.nactive;
	x->sr[s].issued_k = info.nactive < r->warpsize ? info.nactive : r->warpsize;
	int64_t busy, lat = issue_cost(x, si, &busy);
	/* front end and operand delivery (sm/fetch.c, sm/opcoll.c): register
	** bank conflicts delay the result; the I-buffer steps or refills */
	lat += opcoll_collect(&x->oc, s, w, (SmUnit)si->unit, si->src, si->nsrc, c->now);
	if (x->fetch.on)
		fetch_issued(&x->fetch, w, pc, W->status == WARP_DONE ? -1 : W->pc, c->now);
	if (si->dst >= 0)
		c->reg_ready[(size_t)w * (size_t)c->code->nregs + (size_t)si->dst] = c->now + lat;
	if (si->dst >= 0 && c->lane_ready) { /* reserve the destination in the split's lanes */
		int64_t *r = &c->lane_ready[((size_t)w * (size_t)c->code->nregs + (size_t)si->dst) * (size_t)c->lanes];
		for (int32_t l = 0; l < W->size; l++)
			if (bit_get(info.active, l))
				r[l] = c->now + lat;
	}
	take_unit(x, s, si, busy);
	if (MU_UNLIKELY(ins->op == OP_ATOMCAS))
		count_lock_attempts(x, W, ins, &info);
	if (c->st_hold && info.rule == RULE_BD) /* a split goes into the ST (seed 004 §5.3) */
		c->st_hold[w] = c->now + 1 + c->cfg->aware_st_insert;
	if (c->now + lat > x->drain)
		x->drain = c->now + lat;
	c->last_issued[s] = w;
	c->last_pos[s] = x->pos;
	x->wr[w].ready_pc = -1; /* its next instruction (even at the same pc: a loop of one) */
	r->last_commit = (uint64_t)c->now;
	x->committed = true;
	if (info.rule == RULE_BAR)
		x->epoch++; /* a release may make waiting warps ready */
	bool changed = info.nstores > 0 || m->nlive != nlive || info.rule == RULE_BAR ||
	               dst_change;
	if (changed)
		progress_reset(&x->g, c->now);
	else
		progress_note(&x->g, w, pc, info.active);
	if (W->status == WARP_DONE) { /* its CTA may leave, and another come */
		cta_warp_done(c, r, w);
		launch(x, hooks);
		if (x->classes) /* the lists' positions moved */
			classes_rebuild(x);
	}
	return true;
}

/* Threads as {0-31,40}: runs of consecutive threads as ranges. */
static void put_lanes(Buf *b, const uint64_t *set, int32_t nw, int32_t base)
{
	BitIter it = bits_iter(set, nw);
	int32_t first = -1, last = -1;
	bool any = false;
	buf_putc(b, '{');
	for (int32_t i;;) {
		i = bits_iter_next(&it);
		if (i >= 0 && i == last + 1 && first >= 0) {
			last = i;
			continue;
		}
		if (first >= 0) {
			buf_printf(b, "%s%d", any ? "," : "", (int)(base + first));
			if (last > first)
				buf_printf(b, "%s%d", last == first + 1 ? "," : "-", (int)(base + last));
			any = true;
		}
		if (i < 0)
			break;
		first = last = i;
	}
	buf_putc(b, '}');
}

/* A place of the program (ir_print_where), or the virtual exit. */
static void put_pc(Buf *b, const Program *p, int32_t pc)
{
	if (pc < 0 || pc >= p->nins)
		buf_puts(b, "the end");
	else
		ir_print_where(b, p, pc);
}

/* The progress watchdog's report: the warps that kept issuing, their pcs
** and lanes, and whom their model holds back. */
static void explain_livelock(Run *x)
{
	const Machine *m = x->c.m;
	const Program *p = m->prog;
	Buf *b = &x->r->why;
	buf_printf(b, "no register, memory cell, thread end or barrier arrival changed in %lld cycles",
	           (long long)(x->c.now - x->g.last));
	uint64_t *def = xcalloc(2 * (size_t)x->g.nw + 2, sizeof *def), *wait = def + x->g.nw + 1;
	for (int32_t w = 0; w < m->nwarps; w++) {
		int32_t npcs;
		const int32_t *pcs = progress_pcs(&x->g, w, &npcs);
		if (!pcs)
			continue;
		const Warp *W = &m->warps[w];
		buf_printf(b, "\n  warp %d spins at ", (int)w);
		for (int32_t i = 0; i < npcs; i++) {
			if (i)
				buf_puts(b, ", ");
			put_pc(b, p, pcs[i]);
		}
		buf_puts(b, " with threads ");
		put_lanes(b, &x->g.lanes[(size_t)w * x->g.nw], W->nw, W->base);
		if (m->model->pending) {
			int32_t resume = -1, at = -1;
			bits_clear(def, W->nw);
			bits_clear(wait, W->nw);
			m->model->pending(W, def, &resume, wait, &at);
			if (!bits_empty(wait, W->nw)) {
				buf_puts(b, "; threads ");
				put_lanes(b, wait, W->nw, W->base);
				buf_puts(b, " wait for them at ");
				put_pc(b, p, at);
			}
			if (!bits_empty(def, W->nw)) {
				buf_puts(b, "; threads ");
				put_lanes(b, def, W->nw, W->base);
				buf_puts(b, " are deferred to ");
				put_pc(b, p, resume);
			}
		}
	}
	free(def);
}

static void explain_deadlock(Run *x, int64_t since)
{
	const Machine *m = x->c.m;
	Buf *b = &x->r->why;
	buf_printf(b, "nothing committed since cycle %lld (checked every %d cycles)", (long long)since,
	           SM_WATCHDOG_PERIOD);
	if (m->status == SEM_DEADLOCK && m->err.msg)
		buf_printf(b, ": %s", m->err.msg);
	int32_t nbar = 0;
	for (int32_t w = 0; w < m->nwarps; w++)
		nbar += m->warps[w].status == WARP_BARRIER;
	if (nbar)
		buf_printf(b, "\n  %d warp%s wait at a barrier (%d of %d threads arrived)", (int)nbar,
		           nbar == 1 ? "" : "s", (int)m->arrived, (int)m->nlive);
	const SmCore *c = &x->c;
	if (nbar && c->next_cta < c->ncta)
		buf_printf(b, "\n  %d of %d CTAs wait for room on the SM (%d fit at once): the barrier waits for every "
		           "live thread of the kernel, which needs every CTA resident",
		           (int)(c->ncta - c->next_cta), (int)c->ncta, (int)x->r->occupancy_limit.ctas);
}

/* Does warp w's own hazard st, until `until`, still hold, as warp_ready
** would say now? The scoreboard's and the I-buffer's hold until then (only
** the warp's issue changes them); but an issue that put the warp into
** AWARE's ST (st_hold) noted the I-buffer's wait, which warp_ready puts
** after the ST's: until st_hold, ask. */
static ALWAYS_INLINE bool own_hazard_holds(const Run *x, int32_t w, SmWarpState st, int64_t until)
{
	const SmCore *c = &x->c;
	return (st == WS_SCOREBOARD || st == WS_IBUFFER || st == WS_CONTROL) && until > c->now &&
	       !(MU_UNLIKELY(c->st_hold != NULL) && c->st_hold[w] > c->now);
}

/* ---- the walk by classes ------------------------------------------------ */

/* A scheduler's walk asks warp_ready about each warp in policy order until
** one issues. For most warps the answer is the one their last look found,
** and asking again changes nothing but a structural warp's `until`: so
** for the rotation policies (lrr, gto, old, glrr, gto_rotate), with one pc
** per warp and at most 64 warps per scheduler, the walk asks only the
** warps outside these classes, kept as bit sets over the list's positions:
**   - finished: for good;
**   - an own hazard not yet cleared: the scoreboard, the I-buffer, AWARE's
**     ST insert only change at the warp's own issue (at own_next the
**     cleared ones leave the class and are asked again);
**   - structural, waiting for a unit of a kind whose pool is busy: only
**     the warp's issue changes the unit it needs.
** A walk that issues sets the `until` of the structural warps before the
** issuing one, as asking them would; one that issues nothing reached them
** all, which it records once (recall_seq, recall_f) instead of in each
** (until_of). The issues, the stall states and their cycles are those of
** asking every warp. */

#define CLS_MAX 64

static ALWAYS_INLINE int32_t cls_of(const Run *x, int32_t w)
{
	SmWarpState st = x->wr[w].st;
	if (st == WS_STRUCTURAL)
		return CLS_STR + x->wr[w].unit;
	if (own_hazard_holds(x, w, st, x->wr[w].until))
		return CLS_OWN;
	return st == WS_FINISHED ? CLS_FIN : CLS_NONE;
}

static ALWAYS_INLINE uint64_t bit(int32_t p)
{
	return (uint64_t)1 << p;
}

/* The positions [from, to) as a set. */
static ALWAYS_INLINE uint64_t bit_range(int32_t from, int32_t to)
{
	uint64_t below = to >= 64 ? ~(uint64_t)0 : bit(to) - 1;
	return below & ~(bit(from) - 1);
}

/* Warp w joins class cl (in its scheduler's sets). */
static ALWAYS_INLINE void cls_add(Run *x, int32_t w, int32_t cl)
{
	x->wr[w].cls = (uint8_t)cl;
	int32_t p = x->c.pos_of[w];
	if (cl == CLS_NONE || p < 0)
		return;
	SchedClasses *q = &x->sr[x->c.sched_of[w]].cl;
	if (cl == CLS_FIN) {
		q->fin |= bit(p);
	} else if (cl == CLS_OWN) {
		q->own |= bit(p);
		if (x->wr[w].until < q->own_next)
			q->own_next = x->wr[w].until;
		q->own_sb += x->wr[w].st == WS_SCOREBOARD;
	} else {
		q->str[cl - CLS_STR] |= bit(p);
	}
}

/* After a look or an issue set warp w's state: its class again. */
static ALWAYS_INLINE void classify(Run *x, int32_t w)
{
	int32_t was = x->wr[w].cls, cl = cls_of(x, w), p = x->c.pos_of[w];
	x->wr[w].look = x->k.seq;
	if (was == cl && was != CLS_OWN)
		return;
	if (p >= 0 && was != CLS_NONE) {
		SchedClasses *q = &x->sr[x->c.sched_of[w]].cl;
		if (was == CLS_FIN) {
			q->fin &= ~bit(p);
		} else if (was == CLS_OWN) {
			q->own &= ~bit(p);
			q->own_next = OWN_DIRTY;
		} else {
			q->str[was - CLS_STR] &= ~bit(p);
		}
	}
	cls_add(x, w, cl);
}

/* Scheduler s's own hazards that have cleared leave their class; own_next
** and own_sb exact again. */
static void own_prune(Run *x, int32_t s)
{
	SchedClasses *q = &x->sr[s].cl;
	const int32_t *list = &x->c.sched_warps[s * x->c.per];
	q->own_next = NEVER;
	q->own_sb = 0;
	for (uint64_t set = q->own; set; set &= set - 1) {
		int32_t p = __builtin_ctzll(set), w = list[p];
		if (x->wr[w].until <= x->c.now) {
			q->own &= ~bit(p);
			x->wr[w].cls = CLS_NONE;
			continue;
		}
		if (x->wr[w].until < q->own_next)
			q->own_next = x->wr[w].until;
		q->own_sb += x->wr[w].st == WS_SCOREBOARD;
	}
}

/* Every warp's class from its state, over the lists' positions now. */
static void classes_rebuild(Run *x)
{
	for (int32_t s = 0; s < x->c.nsched; s++) {
		SchedClasses *q = &x->sr[s].cl;
		q->fin = q->own = 0;
		for (int u = 0; u < UNIT__COUNT; u++)
			q->str[u] = 0;
		q->own_next = NEVER;
		q->own_sb = 0;
		}
	for (int32_t w = 0; w < x->c.m->nwarps; w++)
		cls_add(x, w, cls_of(x, w));
}

/* Warp w's `until`: the last walk that recalled it without asking set it. */
static ALWAYS_INLINE int64_t until_of(const Run *x, int32_t w)
{
	if (x->classes && x->wr[w].st == WS_STRUCTURAL) {
		const SchedClasses *q = &x->sr[x->c.sched_of[w]].cl;
		if (x->wr[w].look < q->recall_seq)
			return q->recall_f[x->wr[w].unit];
	}
	return x->wr[w].until;
}

static void classes_init(Run *x)
{
	x->k.seq = 1;
	classes_rebuild(x);
}

static bool setup(Run *x, const SmCode *code, const SmConfig *cfg, const SemOptions *so, Diags *d)
{
	SemOptions o = *so;
	if (!o.model)
		o.model = model_find(cfg->reconvergence);
	if (!o.model) {
		diag_error(d, LOC_NONE, "unknown reconvergence model '%s' (-musimd_reconvergence)", cfg->reconvergence);
		return false;
	}
	o.taken_first = o.taken_first || cfg->taken_first;
	/* AWARE's timeout counts cycles here (the delay counter, §5.7):
	** --aware-timeout T or -gpgpu_simd_rec_time_out T */
	if (o.aware_timeout == SEM_TIMEOUT_ANY) {
		diag_error(d, LOC_NONE, "--aware-timeout any is a choice of the explorer; the SM model needs a number "
		           "of cycles (or -gpgpu_simd_rec_time_out)");
		return false;
	}
	if (o.aware_timeout == 0 && o.model == &model_aware)
		o.aware_timeout = cfg->aware_timeout;
	if (!ldst_check(cfg, d))
		return false;
	if (cfg->regalloc != RA_NONE) { /* the SM runs the allocated code and its spill code (sm/regalloc.c) */
		if (o.model->group) {
			diag_error(d, LOC_NONE, "-musimd_regalloc %s: the %s model's splits issue from several pcs at once; "
			           "spill code needs one pc per warp (ipdom, sync, aware, tf, its, mimd)",
			           regallocs[cfg->regalloc].name, o.model->name);
			return false;
		}
		x->alloc = regalloc_build(code, (RaKind)cfg->regalloc, cfg->max_regs, d);
		if (!x->alloc)
			return false;
		code = &x->alloc->code;
	}
	Machine *m = sem_new(code->prog, &o, d);
	if (!m)
		return false;
	SmCore *c = &x->c;
	m->clock = &c->now;
	c->code = code;
	c->cfg = cfg;
	c->m = m;
	c->nsched = cfg->num_sched > 0 ? cfg->num_sched : 1;
	SmResult *r = x->r;
	r->m = m;
	if (x->alloc) {
		c->spill = spill_new(x->alloc, m);
		r->ra_name = regallocs[x->alloc->kind].name;
		r->ra_regs = x->alloc->code.maxlive;
		r->ra_spilled = x->alloc->spilled;
		r->ra_local_slots = x->alloc->nlocal;
		r->ra_shared_slots = x->alloc->nshared;
	}
	if (!cta_setup(c, r, d))
		return false;
	/* a scheduler's list holds the warps of resident CTAs at most */
	int64_t resident = (int64_t)r->occupancy_limit.ctas * (c->cta_threads / (m->sched_warpsize > 0 ? m->sched_warpsize : 1));
	c->per = (int32_t)(resident < m->nwarps ? resident : m->nwarps) + 1;
	c->sched_warps = xmalloc((size_t)c->nsched * (size_t)c->per * sizeof *c->sched_warps);
	c->sched_nwarps = xcalloc((size_t)c->nsched, sizeof *c->sched_nwarps);
	c->last_issued = xmalloc((size_t)c->nsched * sizeof *c->last_issued);
	c->last_pos = xmalloc((size_t)c->nsched * sizeof *c->last_pos);
	for (int32_t s = 0; s < c->nsched; s++)
		c->last_issued[s] = c->last_pos[s] = -1;
	c->reg_ready = xcalloc((size_t)m->nwarps * (size_t)code->nregs + 1, sizeof *c->reg_ready);
	/* (one more, for the first's alignment to a cache line) */
	x->wr_mem = xcalloc((size_t)m->nwarps + 2, sizeof *x->wr);
	x->wr = (WarpRun *)(((uintptr_t)x->wr_mem + 63) & ~(uintptr_t)63);
	for (int32_t w = 0; w < m->nwarps; w++) {
		x->wr[w].ready_pc = -1;
		x->wr[w].st = WS_NOT_RESIDENT; /* until its CTA's launch */
		x->wr[w].until = NEVER;
	}
	if (cfg->aware_st_insert > 0 && (o.model == &model_aware || o.model == &model_mp))
		c->st_hold = xcalloc((size_t)m->nwarps + 1, sizeof *c->st_hold);
	if (m->model->group) {
		c->lanes = 1;
		for (int32_t w = 0; w < m->nwarps; w++)
			if (m->warps[w].size > c->lanes)
				c->lanes = m->warps[w].size;
		c->lane_ready =
			xcalloc((size_t)m->nwarps * (size_t)code->nregs * (size_t)c->lanes + 1, sizeof *c->lane_ready);
		c->alt = xcalloc((size_t)m->nwarps + 1, sizeof *c->alt);
	}
	c->npools = cfg->sub_core ? c->nsched : 1;
	c->pools = xcalloc((size_t)c->npools * UNIT__COUNT, sizeof *c->pools);
	for (int32_t p = 0; p < c->npools; p++)
		for (int32_t u = 0; u < UNIT__COUNT; u++) {
			UnitPool *up = &c->pools[p * UNIT__COUNT + u];
			up->n = units_of(cfg, (SmUnit)u, c->npools);
			up->free_at = xcalloc((size_t)up->n, sizeof *up->free_at);
		}
	c->pool_at = xmalloc((size_t)c->nsched * UNIT__COUNT * sizeof *c->pool_at);
	for (int32_t s = 0; s < c->nsched; s++)
		for (int32_t u = 0; u < UNIT__COUNT; u++) /* one LD/ST unit per SM */
			c->pool_at[s * UNIT__COUNT + u] = &c->pools[(u == UNIT_MEM || c->npools == 1 ? 0 : s) * UNIT__COUNT + u];
	r->warpsize = m->sched_warpsize > 0 ? m->sched_warpsize : 1;
	r->occupancy = xcalloc((size_t)r->warpsize + 1, sizeof *r->occupancy);
	r->nwarps = m->nwarps;
	r->warps = xcalloc((size_t)m->nwarps + 1, sizeof *r->warps);
	x->order = xmalloc(((size_t)c->per + 1) * sizeof *x->order);
	x->sr = xcalloc((size_t)c->nsched, sizeof *x->sr);
	for (int32_t s = 0; s < c->nsched; s++) {
		x->sr[s].tent = -1;
		x->sr[s].skip = -1;
		for (int32_t u = 0; u < UNIT__COUNT; u++) {
			x->sr[s].pool[u] = pool_of(c, s, (SmUnit)u);
			x->sr[s].own_pool[u] = c->nsched == 1 || (c->npools > 1 && u != UNIT_MEM);
		}
	}
	x->epoch = 1;
	int32_t maxnw = 1, maxsize = 1;
	for (int32_t w = 0; w < m->nwarps; w++) {
		if (m->warps[w].nw > maxnw)
			maxnw = m->warps[w].nw;
		if (m->warps[w].size > maxsize)
			maxsize = m->warps[w].size;
	}
	x->g.nw = maxnw;
	x->g.notes = xcalloc((size_t)m->nwarps + 1, sizeof *x->g.notes);
	x->g.lanes = xcalloc((size_t)m->nwarps * (size_t)maxnw + 1, sizeof *x->g.lanes);
	x->g.val = xmalloc((size_t)maxsize * sizeof *x->g.val);
	x->ldst = ldst_new(cfg, m);
	progress_init(&x->g);
	fetch_init(&x->fetch, cfg, m->nwarps, code->nins);
	if (!opcoll_init(&x->oc, cfg, c->nsched, d))
		return false;
	launch(x, true);
	c->result = r;
	Buf why = {0};
	bool ok = warp_sched_setup(c, cfg->scheduler, &why);
	if (!ok)
		diag_error(d, LOC_NONE, "%s", buf_str(&why));
	buf_free(&why);
	r->sched_name = ok ? c->sched->name : NULL;
	x->hooks = ok && (c->sched->on_issue || c->sched->wake || c->not_before);
	x->classes = ok && !x->hooks && c->sched->rotation && !c->lane_ready && !c->spill && c->per - 1 <= CLS_MAX &&
	             !cfg->walk_every_warp;
	if (x->classes)
		classes_init(x);
	if (ok && c->sched->rotation && !cfg->walk_every_warp) {
		x->rotation = c->sched->rotation;
		x->greedy = c->sched->greedy;
		x->rotation_kind = c->sched->rotation_kind;
	}
	return ok;
}

/* Per-warp stall causes, as intervals: a scheduler stops looking at its
** warps once one issues (as GPGPU-Sim's does), so a warp is not looked at
** every cycle. Between two looks its state is the last one seen; a hazard
** (scoreboard, structural) lasts until the cycle it clears, known when it
** was seen, and after that the warp was ready while its scheduler issued
** others: not selected. (Exact in every cycle in which its scheduler did
** not issue: then it looked at all its warps.) */
static ALWAYS_INLINE void close_state(Run *x, int32_t w, int64_t now, bool hooks)
{
	SmWarpStats *ws = &x->wr[w].ws;
	SmWarpState st = x->wr[w].st;
	int64_t since = x->wr[w].since, until = until_of(x, w);
	if (hooks && st == WS_BACKED_OFF) { /* a hazard too, counted apart */
		x->r->backed_off[w] += (uint64_t)((until < now ? until : now) - since);
		ws->cycles[WS_NOT_SELECTED] += (uint64_t)(until < now ? now - until : 0);
		return;
	}
	if ((st == WS_SCOREBOARD || st == WS_STRUCTURAL || st >= WS_IBUFFER) && until < now) {
		ws->cycles[st] += (uint64_t)(until - since);
		ws->cycles[WS_NOT_SELECTED] += (uint64_t)(now - until);
	} else {
		ws->cycles[st] += (uint64_t)(now - since);
	}
}

static ALWAYS_INLINE void note_state(Run *x, int32_t w, SmWarpState st, int64_t until, bool hooks)
{
	int64_t now = x->c.now;
	if (st != x->wr[w].st) {
		close_state(x, w, now, hooks);
		x->wr[w].st = st;
		x->wr[w].since = now;
	}
	x->wr[w].until = until;
	if (st == WS_STRUCTURAL)
		x->wr[w].unit = x->ready_unit;
	if (!hooks && x->classes)
		classify(x, w);
}

/* After warp w issued at now: that cycle, then the hazard its next
** instruction waits for (or ready). */
/* The look scheduler s's walk takes at warp w in the next cycle, taken at
** w's issue now where its answer depends on nothing but w and the
** scheduler's own units — its scoreboard, its I-buffer, a pool no other
** scheduler issues to — and is a hazard that holds then: its state from
** the next cycle on, as that look would note it (the walk's classes then
** pass w by: where a busy unit keeps every other walk from issuing, that
** walk asks no warp at all). Tentative (SchedRun.tent): when that walk
** issues a warp it reaches before w, it never looked at w (tent_resolve). */
static ALWAYS_INLINE void look_ahead(Run *x, int32_t w, int32_t s)
{
	const SmCore *c = &x->c;
	const Warp *W = &c->m->warps[w];
	WarpRun *wr = &x->wr[w];
	const int64_t next = c->now + 1;
	if (c->st_hold || (x->fetch.on && x->fetch.pc[w] != W->pc))
		return; /* AWARE's ST insert, a refetch: warp_ready's order decides */
	const SmIns *si = &c->code->ins[W->pc];
	int64_t f = unit_free(x, s, (SmUnit)si->unit);
	if (f <= next)
		return; /* (its unit free, others may issue before the walk reaches w: not worth it) */
	const int64_t *ready = &c->reg_ready[(size_t)w * (size_t)c->code->nregs];
	int64_t t = 0; /* warp_ready's scoreboard answer (its I-buffer holds the pc) */
	for (int32_t i = 0; i < si->nsrc; i++)
		if (ready[si->src[i]] > t)
			t = ready[si->src[i]];
	if (si->dst >= 0 && ready[si->dst] > t)
		t = ready[si->dst];
	if (x->fetch.on && x->fetch.ready[w] > t)
		t = x->fetch.ready[w];
	wr->ready_pc = W->pc;
	wr->ready_at = t;
	if (t > next) { /* (note_issue left I-buffer waits beyond next to warp_ready: a scoreboard wait) */
		wr->st = WS_SCOREBOARD;
		wr->until = t;
	} else if (x->sr[s].own_pool[si->unit]) {
		wr->st = WS_STRUCTURAL;
		wr->until = f;
		wr->unit = si->unit;
	} else {
		return;
	}
	x->sr[s].tent = w; /* (its state changes from not selected since next, for no cycles yet) */
}

/* Warp w's look_ahead undone: not selected since the cycle after its
** issue, as note_issue left it, and out of its class. */
__attribute__((noinline)) static void tent_undo(Run *x, int32_t w)
{
	WarpRun *wr = &x->wr[w];
	int32_t p = x->c.pos_of[w];
	SchedClasses *q = &x->sr[x->c.sched_of[w]].cl;
	if (p >= 0 && wr->cls == CLS_OWN) {
		q->own &= ~bit(p);
		q->own_next = OWN_DIRTY;
	} else if (p >= 0 && wr->cls >= CLS_STR) {
		q->str[wr->cls - CLS_STR] &= ~bit(p);
	}
	wr->cls = CLS_NONE;
	wr->st = WS_NOT_SELECTED;
	wr->until = NEVER;
}

/* Scheduler s's walk (policy order: list[greedy], then the rotation from
** list[at] without it) issues list[p]: did it reach its tentative warp
** before (look_ahead)? If not, that look never was. */
__attribute__((noinline)) static void tent_resolve(Run *x, int32_t s, int32_t n, int32_t at, int32_t greedy, int32_t p)
{
	int32_t w = x->sr[s].tent, q = x->c.pos_of[w];
	x->sr[s].tent = -1;
	if (!(q == greedy || (p != greedy && (q - at + n) % n < (p - at + n) % n)))
		tent_undo(x, w);
}

static ALWAYS_INLINE void note_issue(Run *x, int32_t w, int32_t s, bool hooks)
{
	int64_t now = x->c.now;
	close_state(x, w, now, hooks);
	x->wr[w].ws.cycles[WS_ISSUED]++;
	const Warp *W = &x->c.m->warps[w];
	x->wr[w].since = now + 1;
	x->wr[w].until = NEVER;
	x->wr[w].st = W->status == WARP_DONE ? WS_FINISHED : W->status == WARP_BARRIER ? WS_BARRIER : WS_NOT_SELECTED;
	if (hooks && x->c.not_before && x->wr[w].st == WS_NOT_SELECTED && x->c.not_before[w] > now + 1) {
		x->wr[w].st = WS_BACKED_OFF; /* its scheduler backed it off at this issue (BOWS) */
		x->wr[w].until = x->c.not_before[w];
	}
	if (x->wr[w].st == WS_NOT_SELECTED && x->fetch.on && x->fetch.ready[w] > now + 1) {
		x->wr[w].st = (SmWarpState)x->fetch.cause[w]; /* waits for its refetch (sm/fetch.c) */
		x->wr[w].until = x->fetch.ready[w];
	}
	if (!hooks && x->classes && x->wr[w].st == WS_NOT_SELECTED)
		look_ahead(x, w, s);
	if (!hooks && x->classes)
		classify(x, w);
}

/* Dual issue (-gpgpu_max_insn_issue_per_warp; scheduler_unit::cycle): after
** warp w issued in scheduler s, its next instructions in the same cycle,
** while each is in the I-buffer and ready (a dependent one is not: the
** scoreboard holds its source) and, with
** -gpgpu_dual_issue_diff_exec_units, goes to another kind of unit than
** the one before. Each is one more step, in order. How many issued. */
static int32_t issue_more(Run *x, int32_t w, int32_t s, int32_t pc, bool hooks)
{
	SmCore *c = &x->c;
	const Warp *W = &c->m->warps[w];
	int32_t issued = 1, k = x->sr[s].issued_k; /* the cycle's Wk: the first issue's lanes */
	uint8_t unit = c->code->ins[pc].unit;
	while (issued < c->cfg->max_insn_issue_per_warp && c->m->status == SEM_RUNNING && W->status == WARP_RUN &&
	       W->pc == pc + 1) {
		int64_t when;
		uint8_t u = c->code->ins[W->pc].unit;
		if ((c->cfg->dual_issue_diff_exec_units && u == unit) || warp_ready(x, w, s, &when, hooks) != WS_ISSUED)
			break;
		pc = W->pc;
		unit = u;
		if (!issue(x, w, s, hooks))
			break;
		issued++;
	}
	x->sr[s].issued_k = k;
	return issued;
}

/* Is warp w's state at its last look still what warp_ready would say now?
** Then that look's answer, its `when` and flags added to the walk's, and
** true. So it is while a hazard of the warp's own (the scoreboard, the
** I-buffer) has not cleared, which only its own issue changes; finished,
** for good; structural while its unit is busy (its next instruction's,
** which only its issue changes). Not at a barrier: another warp's arrival
** releases it. */
static ALWAYS_INLINE bool recalled(Run *x, int32_t w, int32_t s, int64_t *mine, bool *structural, bool *scoreboard)
{
	const SmCore *c = &x->c;
	SmWarpState st = x->wr[w].st;
	int64_t until = x->wr[w].until;
	switch (st) {
	case WS_SCOREBOARD:
	case WS_IBUFFER:
	case WS_CONTROL:
		if (!own_hazard_holds(x, w, st, until))
			return false;
		*scoreboard |= st == WS_SCOREBOARD;
		break;
	case WS_FINISHED:
		return true;
	case WS_STRUCTURAL: {
		SmUnit u = (SmUnit)x->wr[w].unit;
		int64_t f = unit_free(x, s, u);
		if (f <= c->now)
			return false;
		*structural = true;
		x->wr[w].until = until = f;
		break;
	}
	default:
		return false;
	}
	if (until < *mine)
		*mine = until;
	return true;
}

/* Warp w, found ready by scheduler s's walk, issues (and with dual issue
** its next ones): false when the machine stopped instead. */
static ALWAYS_INLINE bool issue_chosen(Run *x, int32_t w, int32_t s, bool hooks)
{
	SmCore *c = &x->c;
	x->pos = c->pos_of[w];
	int32_t pc = c->m->warps[w].pc;
	if (!issue(x, w, s, hooks))
		return false;
	if (c->cfg->max_insn_issue_per_warp > 1 && !c->lane_ready && issue_more(x, w, s, pc, hooks) > 1)
		x->r->dual_issue++;
	else
		x->r->single_issue++;
	note_issue(x, w, s, hooks);
	return true;
}

/* Scheduler s's walk: its warps in policy order (list[greedy], then the
** rotation from list[at] without it), from the `from`th on, until one
** issues (which it returns; else -1). What it finds adds to *mine (the
** first cycle one may issue), *structural and *scoreboard. */
static ALWAYS_INLINE int32_t walk(Run *x, int32_t s, const int32_t *list, int32_t n, int32_t at, int32_t greedy,
                                 int32_t from, int64_t *mine, bool *structural_, bool *scoreboard_, bool hooks)
{
	SmCore *c = &x->c;
	int32_t chosen = -1;
	bool structural = *structural_, scoreboard = *scoreboard_;
	/* a warp's state seen at its last look may still be the answer
	** without asking warp_ready (one pc per warp, the machine running) */
	bool recall = !c->lane_ready && !c->spill && c->m->status == SEM_RUNNING && !c->cfg->walk_every_warp;
	for (int32_t i = 0; i < n && chosen < 0; i++) {
		int32_t p;
		if (i == 0 && greedy >= 0) {
			p = greedy;
		} else {
			p = at;
			at = at + 1 == n ? 0 : at + 1;
			if (p == greedy) {
				p = at;
				at = at + 1 == n ? 0 : at + 1;
			}
		}
		if (i < from)
			continue;
		int32_t w = list[p];
		if (recall && recalled(x, w, s, mine, &structural, &scoreboard))
			continue;
		int64_t when = NEVER;
		/* a machine stopped at a barrier that cannot complete: its warps wait there */
		SmWarpState st = c->m->status == SEM_RUNNING    ? warp_ready(x, w, s, &when, hooks)
		                 : c->m->status == SEM_DEADLOCK ? WS_BARRIER
		                                                : WS_FINISHED;
		if (st == WS_ISSUED) {
			if (issue_chosen(x, w, s, hooks)) {
				chosen = w;
				break;
			}
			st = c->m->status == SEM_DEADLOCK ? WS_BARRIER : WS_FINISHED; /* the machine stopped */
			recall = false;
		}
		structural |= st == WS_STRUCTURAL || st == WS_COLLECTOR;
		scoreboard |= st == WS_SCOREBOARD;
		if (when < *mine)
			*mine = when;
		note_state(x, w, st, when, hooks);
	}
	*structural_ = structural;
	*scoreboard_ = scoreboard;
	return chosen;
}

/* The walk without hooks, out of line: the walk by classes' rare case
** (the machine stopped). */
__attribute__((noinline)) static int32_t walk_unhooked(Run *x, int32_t s, const int32_t *list, int32_t n, int32_t at,
                                                       int32_t greedy, int32_t from, int64_t *mine, bool *structural,
                                                       bool *scoreboard)
{
	return walk(x, s, list, n, at, greedy, from, mine, structural, scoreboard, false);
}

/* The warps of the classes that scheduler s's walk passes before it asks
** list[p] (the recalled structural ones in busy, the own hazards): what
** asking them would have done and found. */
static void walk_passed(Run *x, int32_t s, int32_t n, int32_t at, int32_t greedy, int32_t p, uint64_t busy,
                        int64_t *mine, bool *structural, bool *scoreboard)
{
	const SchedClasses *q = &x->sr[s].cl;
	const int32_t *list = &x->c.sched_warps[s * x->c.per];
	uint64_t passed = 0; /* the greedy warp, then the rotation from at to p */
	if (greedy != p) {
		passed = p >= at ? bit_range(at, p) : bit_range(at, n) | bit_range(0, p);
		if (greedy >= 0)
			passed = (passed & ~bit(greedy)) | bit(greedy);
	}
	for (uint64_t set = passed & busy; set; set &= set - 1) {
		int32_t w = list[__builtin_ctzll(set)];
		x->wr[w].until = unit_free(x, s, (SmUnit)x->wr[w].unit);
		x->wr[w].look = x->k.seq;
		*structural = true;
		if (x->wr[w].until < *mine)
			*mine = x->wr[w].until;
	}
	for (uint64_t set = passed & q->own; set; set &= set - 1) {
		int32_t w = list[__builtin_ctzll(set)];
		*scoreboard |= x->wr[w].st == WS_SCOREBOARD;
		if (x->wr[w].until < *mine)
			*mine = x->wr[w].until;
	}
}

/* The walk by classes (see above): the same walk, asking only the warps
** outside the classes. */
static int32_t walk_classes(Run *x, int32_t s, const int32_t *list, int32_t n, int32_t at, int32_t greedy,
                            int64_t *mine, bool *structural, bool *scoreboard)
{
	SmCore *c = &x->c;
	SchedClasses *q = &x->sr[s].cl;
	const int64_t now = c->now;
	x->k.seq++;
	if (q->own_next <= now) /* (or OWN_DIRTY) */
		own_prune(x, s);
	int64_t own_next = q->own_next;
	bool own_sb = q->own_sb > 0;
	/* the structural warps whose units are busy are recalled */
	uint64_t busy = 0;
	int64_t busy_next = NEVER;
	for (int u = 0; u < UNIT__COUNT; u++) { /* (without branches: free or busy alternate) */
		int64_t f = unit_free(x, s, (SmUnit)u);
		uint64_t b = f > now ? q->str[u] : 0;
		busy |= b;
		busy_next = b && f < busy_next ? f : busy_next;
	}
	uint64_t ask = ~(q->fin | q->own | busy) & bit_range(0, n);
	/* in policy order: the greedy warp, then the rotation from at (the
	** set turned so that at is bit 0) */
	bool first = greedy >= 0 && (ask & bit(greedy));
	if (greedy >= 0)
		ask &= ~bit(greedy);
	uint64_t turned = at == 0 ? ask : ((ask >> at) | (ask << (n - at))) & bit_range(0, n); /* (each once) */
	while (first || turned) {
		int32_t p;
		if (first) {
			first = false;
			p = greedy;
		} else {
			p = at + __builtin_ctzll(turned);
			p = p >= n ? p - n : p;
			turned &= turned - 1;
		}
		int32_t w = list[p];
		int64_t when = NEVER;
		SmWarpState st = x->wr[w].cls >= CLS_STR && !c->st_hold ? warp_ready_freed(x, w, s, &when)
		                                                         : warp_ready_(x, w, s, &when, false, true);
		if (st == WS_ISSUED) {
			if ((busy | q->own) && (p != at || greedy >= 0)) /* (nothing passed else) */
				walk_passed(x, s, n, at, greedy, p, busy, mine, structural, scoreboard);
			if (x->sr[s].tent >= 0)
				tent_resolve(x, s, n, at, greedy, p);
			if (issue_chosen(x, w, s, false))
				return w;
			/* the machine stopped: the rest of the walk as without classes */
			note_state(x, w, c->m->status == SEM_DEADLOCK ? WS_BARRIER : WS_FINISHED, when, false);
			int32_t off = (p - at + n) % n, index = off;
			if (greedy >= 0)
				index = p == greedy ? 0 : 1 + off - ((greedy - at + n) % n < off);
			return walk_unhooked(x, s, list, n, at, greedy, index + 1, mine, structural, scoreboard);
		}
		*structural |= st == WS_STRUCTURAL || st == WS_COLLECTOR;
		*scoreboard |= st == WS_SCOREBOARD;
		if (when < *mine)
			*mine = when;
		note_state(x, w, st, when, false);
	}
	/* nothing issued: every warp was reached, the recalled ones at once */
	if (busy) {
		*structural = true;
		if (busy_next < *mine)
			*mine = busy_next;
		q->recall_seq = x->k.seq;
		for (int u = 0; u < UNIT__COUNT; u++)
			q->recall_f[u] = unit_free(x, s, (SmUnit)u);
	}
	if (own_next < *mine)
		*mine = own_next;
	*scoreboard |= own_sb;
	return -1;
}

/* The statistic scheduler s's category cat counts (count): Wk for an
** issue of k lanes, Stall, W0_Scoreboard, W0_Idle. */
static ALWAYS_INLINE uint64_t *counter_of(Run *x, int32_t s, int32_t cat)
{
	SmResult *r = x->r;
	switch (cat) {
	case -1: return &r->occupancy[x->sr[s].issued_k > 0 ? x->sr[s].issued_k : 0];
	case 0: return &r->stall;
	case 1: return &r->scoreboard;
	default: return &r->idle;
	}
}

/* After scheduler s's walk issued in cycle now: will its walk in the next
** cycle ask no warp (every one finished, on an own hazard that has not
** cleared by then, or structural on a unit of a pool of its own that is
** still busy then: the look-ahead makes the warp that issued one of
** these) and so issue nothing? Then it sleeps until that walk's end
** would have it sleep, and that walk's bookkeeping waits for its cycle
** (empty_walk). Nothing but its own issue changes these classes and
** pools; another scheduler's barrier release or CTA launch starts a new
** epoch, which wakes it for a real walk, as does a stopped machine. */
static ALWAYS_INLINE void foresee_empty(Run *x, int32_t s, int64_t now)
{
	SchedRun *sr = &x->sr[s];
	const SchedClasses *q = &sr->cl;
	const int64_t next = now + 1;
	if (q->own_next <= next) /* (or OWN_DIRTY) */
		return;
	uint64_t str = 0;
	int64_t busy_next = NEVER;
	for (int u = 0; u < UNIT__COUNT; u++) {
		if (!q->str[u])
			continue;
		int64_t f = unit_free(x, s, (SmUnit)u);
		if (!sr->own_pool[u] || f <= next)
			return;
		str |= q->str[u];
		busy_next = f < busy_next ? f : busy_next;
	}
	if (~(q->fin | q->own | str) & bit_range(0, x->c.sched_nwarps[s]))
		return;
	int64_t mine = busy_next < q->own_next ? busy_next : q->own_next;
	sr->skip = next;
	sr->skip_recall = str != 0;
	sr->skip_counter = counter_of(x, s, str ? 0 : q->own_sb > 0 ? 1 : 2);
	sr->sleep_until = mine;
	sr->sleep_epoch = x->epoch;
}

/* Scheduler s's foreseen walk, in its cycle: what walk_classes' walk that
** asks no warp does (the walk's count, the recalled structural warps'
** units), and its end (the look-ahead taken). */
static ALWAYS_INLINE void empty_walk(Run *x, int32_t s)
{
	SchedRun *sr = &x->sr[s];
	x->k.seq++;
	if (sr->skip_recall) {
		sr->cl.recall_seq = x->k.seq;
		for (int u = 0; u < UNIT__COUNT; u++)
			sr->cl.recall_f[u] = unit_free(x, s, (SmUnit)u);
	}
	sr->counter = sr->skip_counter;
	sr->tent = -1;
	sr->skip = -1;
}

/* One cycle's decisions: each scheduler issues its first ready warp. The
** earliest cycle at which a warp may issue, when none did (NEVER: none). */
static ALWAYS_INLINE int64_t cycle_with(Run *x, bool hooks, bool classes)
{
	SmCore *c = &x->c;
	int64_t next = NEVER;
	const int64_t now = c->now; /* (an issue does not move it) */
	const int32_t nsched = c->nsched;
	int32_t s = x->first; /* GPGPU-Sim rotates the first scheduler, one per cycle */
	for (int32_t k = 0; k < nsched; k++, s = s + 1 == nsched ? 0 : s + 1) {
		SchedRun *sr = &x->sr[s];
		if (now < sr->sleep_until && sr->sleep_epoch == x->epoch &&
		    (!classes || sr->skip != now || c->m->status == SEM_RUNNING)) {
			if (classes && sr->skip == now)
				empty_walk(x, s);
			/* (else its counter is the one its walk set) */
			if (sr->sleep_until < next)
				next = sr->sleep_until;
			continue;
		}
		if (classes)
			sr->skip = -1;
		int32_t n = c->sched_nwarps[s];
		const int32_t *list = &c->sched_warps[s * c->per];
		int32_t at = 0, greedy = -1; /* the walk: list[greedy], then the rotation from list[at] without it */
		if (x->rotation) { /* (the tests' walk takes the order) */
			if (x->rotation_kind == WS_ROTATION_AFTER_LAST) { /* rotation_lrr's */
				int32_t start = c->last_pos[s] + 1;
				at = start >= n ? 0 : start;
			} else if (x->rotation_kind != WS_ROTATION_ZERO) {
				at = x->rotation(c, s, n);
			}
			if (x->greedy)
				greedy = x->greedy(c, s);
		} else {
			n = c->sched->order(c, s, list, n, x->order);
			list = x->order;
		}
		int64_t mine = NEVER;
		bool structural = false, scoreboard = false;
		int32_t chosen = classes && c->m->status == SEM_RUNNING
		                         ? walk_classes(x, s, list, n, at, greedy, &mine, &structural, &scoreboard)
		                 : classes ? walk_unhooked(x, s, list, n, at, greedy, 0, &mine, &structural, &scoreboard)
		                           : walk(x, s, list, n, at, greedy, 0, &mine, &structural, &scoreboard, hooks);
		sr->counter = counter_of(x, s, chosen >= 0 ? -1 : structural ? 0 : scoreboard ? 1 : 2);
		if (chosen < 0) {
			sr->tent = -1; /* (the walk reached every warp: its look was taken) */
			if (hooks && c->sched->wake) { /* the policy's order may change by itself */
				int64_t wk = c->sched->wake(c, s);
				mine = wk < mine ? wk : mine;
			}
			sr->sleep_until = mine;
			sr->sleep_epoch = x->epoch;
			if (mine < next)
				next = mine;
		} else if (classes) {
			foresee_empty(x, s, now);
		}
	}
	return next;
}

/* The walk by classes (its own copy, so that the hot loop stays small),
** the policies without hooks (lrr, gto, ...), and those with. */
static int64_t cycle_classes(Run *x)
{
	return cycle_with(x, false, true);
}

static int64_t cycle_plain(Run *x)
{
	return cycle_with(x, false, false);
}

static int64_t cycle_hooked(Run *x)
{
	return cycle_with(x, true, false);
}

/* The scheduler-cycles of the cycles counted: each scheduler's category
** (counter_of) adds to its statistic. */
static ALWAYS_INLINE void count(Run *x, int64_t span)
{
	const SmCore *c = &x->c;
	for (int32_t s = 0; s < c->nsched; s++)
		*x->sr[s].counter += (uint64_t)span;
}

static void run(Run *x)
{
	SmCore *c = &x->c;
	SmResult *r = x->r;
	const SmConfig *cfg = c->cfg;
	Machine *m = c->m;
	int64_t check = SM_WATCHDOG_PERIOD; /* the commit watchdog's next check */
	for (;;) {
		if (m->status == SEM_OK) {
			r->status = SM_OK;
			break;
		}
		if (m->status == SEM_LIMIT) { /* --max-steps: warp instructions, as run counts steps */
			r->status = SM_STEP_LIMIT;
			break;
		}
		if (m->status == SEM_TIME_LIMIT) { /* --max-time: the machine read the clock */
			r->status = SM_TIME_LIMIT;
			break;
		}
		if (m->status == SEM_STUCK) {
			r->status = SM_STUCK;
			if (m->err.msg)
				buf_puts(&r->why, m->err.msg);
			break;
		}
		uint64_t before = r->warp_insn;
		int64_t next = x->hooks ? cycle_hooked(x) : x->classes ? cycle_classes(x) : cycle_plain(x);
		if (m->status != SEM_RUNNING && m->status != SEM_DEADLOCK) {
			count(x, 1); /* finished, stuck or at the step limit: said at the top */
			c->now++;
			continue;
		}
		int64_t span = 1;
		if (r->warp_insn == before && m->status != SEM_OK) {
			/* nothing issued: nothing changes until next */
			int64_t until = next;
			if (cfg->deadlock_detect && check < until)
				until = check;
			if (cfg->max_cycle > 0 && cfg->max_cycle < until)
				until = cfg->max_cycle;
			if (until == NEVER) { /* no watchdog: nothing will ever issue */
				count(x, 1);
				c->now++;
				r->status = SM_DEADLOCK;
				explain_deadlock(x, (int64_t)r->last_commit);
				break;
			}
			span = until - c->now;
			if (span < 1)
				span = 1;
		}
		count(x, span);
		c->now += span;
		x->first = span < c->nsched ? x->first + (int32_t)span : (int32_t)((x->first + span) % c->nsched);
		x->first -= x->first >= c->nsched ? c->nsched : 0;
		if (c->now >= check) {
			/* a check (at most one per span: a span stops at the next check) */
			check += SM_WATCHDOG_PERIOD;
			if (cfg->deadlock_detect && !x->committed) {
				r->status = SM_DEADLOCK;
				explain_deadlock(x, (int64_t)r->last_commit);
				break;
			}
			x->committed = false;
		}
		if (cfg->progress_window > 0 && c->now - x->g.last >= cfg->progress_window && m->status == SEM_RUNNING &&
		    r->warp_insn > 0) {
			r->status = SM_LIVELOCK;
			explain_livelock(x);
			break;
		}
		if (cfg->max_cycle > 0 && c->now >= cfg->max_cycle) {
			r->status = SM_CYCLE_LIMIT;
			break;
		}
		if (cfg->max_insn > 0 && r->thread_insn >= (uint64_t)cfg->max_insn) {
			r->status = SM_INSN_LIMIT;
			break;
		}
	}
	/* the kernel ends when its last instruction completes: the schedulers
	** idle meanwhile (every scheduler-cycle is counted once, expectation 19) */
	r->cycles = (uint64_t)c->now;
	if (r->status == SM_OK && x->drain > c->now) {
		for (int32_t s = 0; s < c->nsched; s++)
			x->sr[s].counter = counter_of(x, s, 2);
		count(x, x->drain - c->now);
		r->cycles = (uint64_t)x->drain;
	}
	for (int32_t w = 0; w < m->nwarps; w++) {
		close_state(x, w, (int64_t)r->cycles, true);
		r->warps[w] = x->wr[w].ws;
	}
	r->rf_conflict_cycles = x->oc.conflict_cycles;
	r->rf_conflict_reads = x->oc.conflict_reads;
	r->ifetches = x->fetch.fetches;
	r->imisses = x->fetch.misses;
	r->iflushes = x->fetch.flushes;
	cta_finish(c, r);
}

static void run_free(Run *x)
{
	SmCore *c = &x->c;
	warp_sched_free(c);
	free(c->sched_warps);
	free(c->sched_nwarps);
	free(c->last_issued);
	free(c->last_pos);
	free(c->reg_ready);
	free(c->st_hold);
	free(c->lane_ready);
	free(c->alt);
	for (int32_t p = 0; c->pools && p < c->npools * UNIT__COUNT; p++)
		free(c->pools[p].free_at);
	free(c->pools);
	free(c->pool_at);
	free(x->order);
	free(x->wr_mem);
	free(x->sr);
	free(x->g.notes);
	free(x->g.lanes);
	free(x->g.val);
	ldst_free(x->ldst);
	fetch_free(&x->fetch);
	opcoll_free(&x->oc);
	cta_free(c);
	spill_free(c->spill);
	regalloc_free(x->alloc);
}

SmResult *sm_run(const SmCode *code, const SmConfig *cfg, const SemOptions *so, Diags *d)
{
	return sm_run_traced(code, cfg, so, NULL, NULL, d);
}

SmResult *sm_run_traced(const SmCode *code, const SmConfig *cfg, const SemOptions *so, SmTraceFn *trace, void *ctx,
                        Diags *d)
{
	Run x = {.trace = trace, .trace_ctx = ctx};
	x.r = xcalloc(1, sizeof *x.r);
	if (!setup(&x, code, cfg, so, d)) {
		run_free(&x);
		sm_result_free(x.r);
		return NULL;
	}
	run(&x);
	run_free(&x);
	return x.r;
}

void sm_result_free(SmResult *r)
{
	if (!r)
		return;
	sem_free(r->m);
	free(r->occupancy);
	free(r->warps);
	free(r->backed_off);
	buf_free(&r->why);
	free(r);
}
