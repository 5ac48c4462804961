/*
** aware.c — ElTantawy's adaptive warp reconvergence, AWARE (explore.md §2;
** seed 004 digest §5): instead of a stack, a warp keeps a splits table (ST)
** of the groups of threads that can run, (PC, RPC, mask, R-Index), and a
** reconvergence table (RT) of the points where groups wait for each other,
** (PC, RPC, reconvergence mask, pending mask, R-Index). A FIFO orders the
** splits: the one at its front issues until its next branch, reconvergence
** point or barrier, and is then queued again at the tail, so every path
** makes progress and none waits for a sibling that cannot.
**
** A divergent branch moves its split to a free RT entry waiting at the
** branch's reconvergence point (its immediate post-dominator, or the
** delayed point --aware-delay gives) and puts a split per side into the ST,
** the taken side in the first free slot, the not-taken side queued first
** (§5.3). Three special cases: a side that goes straight to the point has
** arrived at once; a branch that does not diverge adds nothing; a branch
** whose point is the split's own reconvergence point adds no RT entry.
** A split arriving at its reconvergence point leaves the ST and takes its
** threads out of the entry's pending mask; an entry with nothing pending
** becomes a split again, at the FIFO's tail. A split that reaches a barrier
** is blocked (BL) past it; the warp waits at the barrier when all its
** splits do (§5.5). With --aware-timeout, an entry some threads have
** reached gives up after T steps of the warp without an arrival: the
** arrived threads go on as a split of their own (§5.7); with
** --aware-timeout any, it may give up at any step, as an alternative of
** the explorer's choice (choose, choice_key).
**
** The records of both tables live in the warp's CtlStack, the ST entries
** first by slot, then the RT entries by index; slots and indices are the
** first free ones, FIFO positions are numbered from 0 (the front): equal
** states pack equal.
*/
#include "model.h"

#include <stdlib.h>
#include <string.h>

enum { ST, RT, DEAD };

/* timer of an RT entry: no arrival yet (or no timeout); an arrival, and
** the timeout is a choice (--aware-timeout any); else the steps of the
** warp since the last arrival (--aware-timeout T) */
#define TIMER_OFF (-1)
#define TIMER_ANY (-2)

typedef struct Entry {
	int32_t table;  /* ST, RT, or DEAD until the records are compacted */
	int32_t slot;   /* ST slot, RT index */
	int32_t pc;     /* ST: the split's next instruction; RT: the reconvergence point */
	int32_t rpc;    /* ST: where the split reconverges; RT: the next point out; -1: ⊥ */
	int32_t rindex; /* the RT entry of the point rpc, or -1 */
	int32_t fifo;   /* ST: place in the FIFO, 0 the front; RT: -1 */
	int32_t bl;     /* ST: blocked at a barrier (its pc is past it) */
	int32_t timer;  /* RT: TIMER_OFF, TIMER_ANY or steps (cycles, m->clock) since the last arrival */
	int32_t since;  /* RT, with m->clock: the cycle of the last arrival (its low 32 bits); else 0 */
} Entry;

/* mask 0: an ST entry's active mask, an RT entry's reconvergence mask;
** mask 1: an RT entry's pending mask (the threads that have not arrived) */
static Entry *ent(const Warp *w, int32_t k) { return ctl_rec(w, k); }
static uint64_t *ent_mask(const Warp *w, int32_t k) { return ctl_mask(w, k, 0); }
static uint64_t *ent_pending(const Warp *w, int32_t k) { return ctl_mask(w, k, 1); }

static bool is_st(const Warp *w, int32_t k) { return ent(w, k)->table == ST; }
static bool is_rt(const Warp *w, int32_t k) { return ent(w, k)->table == RT; }

/* The record of RT entry index, or -1. */
static int32_t rt_record(const Warp *w, int32_t index)
{
	for (int32_t k = 0; index >= 0 && k < w->ctl.n; k++)
		if (is_rt(w, k) && ent(w, k)->slot == index)
			return k;
	return -1;
}

/* The first slot of table t no live record holds. */
static int32_t free_slot(const Warp *w, int32_t t)
{
	int32_t n = w->ctl.n;
	uint64_t small[4];
	int32_t nw = bits_words(n + 1);
	uint64_t *used = nw <= 4 ? small : xmalloc((size_t)nw * sizeof *used);
	bits_clear(used, nw);
	for (int32_t k = 0; k < n; k++)
		if (ent(w, k)->table == t && ent(w, k)->slot <= n)
			bit_set(used, ent(w, k)->slot);
	int32_t s = bits_next(used, n + 1, 0, false);
	if (used != small)
		free(used);
	return s;
}

/* One past the last FIFO position in use. */
static int32_t fifo_end(const Warp *w)
{
	int32_t end = 0;
	for (int32_t k = 0; k < w->ctl.n; k++)
		if (is_st(w, k) && ent(w, k)->fifo >= end)
			end = ent(w, k)->fifo + 1;
	return end;
}

/* The ST record at the front of the FIFO, or -1. */
static int32_t front(const Warp *w)
{
	int32_t f = -1;
	for (int32_t k = 0; k < w->ctl.n; k++)
		if (is_st(w, k) && (f < 0 || ent(w, k)->fifo < ent(w, f)->fifo))
			f = k;
	return f;
}

/* A new entry of table t in its first free slot, its masks empty (the
** caller fills them: ctl_push may move the records); an ST entry is queued
** at the FIFO's tail. Returns its record. */
static int32_t add(Machine *m, Warp *w, int32_t t, int32_t pc, int32_t rpc, int32_t rindex)
{
	int32_t slot = free_slot(w, t), fifo = t == ST ? fifo_end(w) : -1;
	int32_t k = ctl_push(m, w);
	*ent(w, k) = (Entry){t, slot, pc, rpc, rindex, fifo, 0, TIMER_OFF, 0};
	return k;
}

/* A new split with the lanes of mask 0 of record src (or of lanes). */
static int32_t add_split(Machine *m, Warp *w, int32_t pc, int32_t rpc, int32_t rindex, int32_t src,
                         const uint64_t *lanes)
{
	int32_t k = add(m, w, ST, pc, rpc, rindex);
	bits_copy(ent_mask(w, k), src >= 0 ? ent_mask(w, src) : lanes, w->nw);
	return k;
}

static void requeue(Warp *w, int32_t k)
{
	ent(w, k)->fifo = fifo_end(w);
}

static bool intersects(const uint64_t *a, const uint64_t *b, int32_t nw)
{
	for (int32_t j = 0; j < nw; j++)
		if (a[j] & b[j])
			return true;
	return false;
}

/* An RT entry's pending mask changed: its timer starts again when some of
** its threads have arrived (a pending-mask update resets it, §5.7). */
static void rt_updated(const Machine *m, Warp *w, int32_t r)
{
	Entry *e = ent(w, r);
	if (bits_eq(ent_mask(w, r), ent_pending(w, r), w->nw) || m->opt.aware_timeout == 0)
		e->timer = TIMER_OFF;
	else
		e->timer = m->opt.aware_timeout == SEM_TIMEOUT_ANY ? TIMER_ANY : 0;
	if (m->clock && e->timer == 0)
		e->since = (int32_t)(uint32_t)*m->clock;
}

/* The threads in lanes reach RT entry index. */
static void arrive_lanes(const Machine *m, Warp *w, int32_t index, const uint64_t *lanes)
{
	int32_t r = rt_record(w, index);
	if (r < 0)
		return; /* the virtual exit: nobody waits there */
	bits_andnot(ent_pending(w, r), lanes, w->nw);
	rt_updated(m, w, r);
}

/* RT entry r gives up waiting: the threads that have arrived go on as a
** split from its point to the next one out, at the FIFO's tail; those
** still pending are all it waits for now. */
static void time_out(Machine *m, Warp *w, int32_t r)
{
	Entry e = *ent(w, r);
	int32_t k = add_split(m, w, e.pc, e.rpc, e.rindex, r, NULL);
	bits_andnot(ent_mask(w, k), ent_pending(w, r), w->nw);
	bits_copy(ent_mask(w, r), ent_pending(w, r), w->nw);
	ent(w, r)->timer = TIMER_OFF;
}

/* Reconvergence (§5.3): splits at their reconvergence point arrive, entries
** with nothing pending become splits, splits without threads go; until
** nothing changes. */
static void reconverge(Machine *m, Warp *w)
{
	for (bool changed = true; changed;) {
		changed = false;
		for (int32_t k = 0; k < w->ctl.n; k++) {
			Entry *e = ent(w, k);
			if (e->table == ST && bits_empty(ent_mask(w, k), w->nw)) {
				e->table = DEAD;
				changed = true;
			} else if (e->table == ST && !e->bl && e->rpc >= 0 && e->pc == e->rpc) {
				e->table = DEAD;
				arrive_lanes(m, w, e->rindex, ent_mask(w, k));
				changed = true;
			} else if (e->table == RT && bits_empty(ent_pending(w, k), w->nw)) {
				e->table = DEAD;
				if (!bits_empty(ent_mask(w, k), w->nw)) {
					Entry r = *e;
					add_split(m, w, r.pc, r.rpc, r.rindex, k, NULL);
				}
				changed = true;
			}
		}
	}
}

static void swap_records(Warp *w, int32_t a, int32_t b)
{
	Entry t = *ent(w, a);
	*ent(w, a) = *ent(w, b);
	*ent(w, b) = t;
	for (int32_t i = 0; i < 2; i++) {
		uint64_t *x = ctl_mask(w, a, i), *y = ctl_mask(w, b, i);
		for (int32_t j = 0; j < w->nw; j++) {
			uint64_t v = x[j];
			x[j] = y[j];
			y[j] = v;
		}
	}
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

static bool rec_less(const Entry *a, const Entry *b)
{
	return a->table != b->table ? a->table < b->table : a->slot < b->slot;
}

/* Canonical form: the dead records out, the ST by slot then the RT by
** index, FIFO positions 0 .. n-1. Tables are small (at most a record per
** lane and table): insertion sort. */
static void normalise(Warp *w)
{
	int32_t n = 0;
	for (int32_t k = 0; k < w->ctl.n; k++) {
		if (ent(w, k)->table == DEAD)
			continue;
		if (k != n) {
			*ent(w, n) = *ent(w, k);
			bits_copy(ent_mask(w, n), ent_mask(w, k), w->nw);
			bits_copy(ent_pending(w, n), ent_pending(w, k), w->nw);
		}
		n++;
	}
	w->ctl.n = n;
	for (int32_t i = 1; i < n; i++)
		for (int32_t j = i; j > 0 && rec_less(ent(w, j), ent(w, j - 1)); j--)
			swap_records(w, j, j - 1);
	/* positions are distinct: their ranks are the new ones (mostly they
	** are 0 .. nst-1 already) */
	int32_t nst = 0, top = -1;
	while (nst < n && is_st(w, nst)) {
		top = ent(w, nst)->fifo > top ? ent(w, nst)->fifo : top;
		nst++;
	}
	if (top == nst - 1)
		return;
	int64_t small[64];
	int64_t *key = nst <= 64 ? small : xmalloc((size_t)nst * sizeof *key);
	for (int32_t k = 0; k < nst; k++)
		key[k] = (int64_t)ent(w, k)->fifo << 32 | k;
	qsort(key, (size_t)nst, sizeof *key, cmp_i64);
	for (int32_t r = 0; r < nst; r++)
		ent(w, (int32_t)(key[r] & 0xffffffff))->fifo = r;
	if (key != small)
		free(key);
}

/* After the control state changed: reconvergence, then the split at the
** FIFO's front issues (a blocked one goes to the tail unfetched, §5.5);
** the warp waits at the barrier when every split is blocked, and is done
** when none is left. */
static void settle(Machine *m, Warp *w)
{
	reconverge(m, w);
	normalise(w);
	int32_t nst = 0, nbl = 0;
	for (int32_t k = 0; k < w->ctl.n; k++)
		if (is_st(w, k)) {
			nst++;
			nbl += ent(w, k)->bl != 0;
		}
	if (nst == 0 || nbl == nst) {
		bits_clear(w->active, w->nw);
		w->idx_ok = false;
		if (nst == 0)
			sem_warp_done(m, w);
		else
			sem_warp_status(m, w, WARP_BARRIER);
		return;
	}
	if (ent(w, front(w))->bl) {
		while (ent(w, front(w))->bl)
			requeue(w, front(w));
		normalise(w);
	}
	int32_t f = front(w);
	if (!bits_eq(w->active, ent_mask(w, f), w->nw)) {
		sem_set_active(w, ent_mask(w, f));
		w->entered = true; /* another split issues */
	}
	w->pc = ent(w, f)->pc;
}

/* The timeout choose made current (--aware-timeout any) fires; whether
** one did. */
static bool chosen_timeout(Machine *m, Warp *w)
{
	int32_t c = m->model_alt;
	m->model_alt = 0;
	for (int32_t k = 0; c > 0 && k < w->ctl.n; k++)
		if (is_rt(w, k) && ent(w, k)->timer == TIMER_ANY && --c == 0) {
			time_out(m, w, k);
			return true;
		}
	return false;
}

/* A step of the warp begins: the timeout chosen for it fires first; with
** --aware-timeout T every entry some threads have reached counts the step
** (an arrival in it sets the count back to 0). With a clock (the SM model)
** the count is the cycles since the last arrival, and an entry whose T
** cycles ran out before this step gives up now. Whether the tables may
** have changed. */
static bool begin_step(Machine *m, Warp *w)
{
	bool changed = chosen_timeout(m, w);
	if (m->opt.aware_timeout > 0)
		for (int32_t k = 0; k < w->ctl.n; k++)
			if (is_rt(w, k) && ent(w, k)->timer >= 0) {
				Entry *e = ent(w, k);
				if (m->clock) { /* the hardware's delay counter, T = 1 cycle (§5.7) */
					uint32_t d = (uint32_t)*m->clock - (uint32_t)e->since;
					e->timer = d > INT32_MAX ? INT32_MAX : (int32_t)d;
					/* it ran out at cycle since + T, before this step: its
					** split is queued behind the front one, as then */
					if (e->timer >= m->opt.aware_timeout)
						time_out(m, w, k);
				} else {
					e->timer++;
				}
				changed = true;
			}
	return changed;
}

/* ... and ends: reconvergence, the entries that have counted T steps
** without an arrival give up (§5.7), then the next split. */
static void end_step(Machine *m, Warp *w)
{
	reconverge(m, w);
	int64_t T = m->opt.aware_timeout;
	for (int32_t k = 0; T > 0 && k < w->ctl.n; k++)
		if (is_rt(w, k) && ent(w, k)->timer >= T)
			time_out(m, w, k);
	settle(m, w);
}

/* The whole warp, bound for the exit. */
static void start(Machine *m, Warp *w)
{
	add_split(m, w, 0, -1, -1, -1, w->live);
}

/* The front split moves from `from` to `to`; after a branch it is queued
** again (§5.4: every branch, so that a spinning split lets the others
** run). */
static void move_front(Machine *m, Warp *w, int32_t from, int32_t to, bool branch)
{
	bool changed = begin_step(m, w);
	int32_t f = front(w);
	bool rotate = branch || m->model == &model_mp; /* MP: round robin at every instruction */
	sem_take_edge(m, w, from, to, w->active);
	ent(w, f)->pc = to;
	if (!changed && !rotate && to != ent(w, f)->rpc) {
		w->pc = to; /* the split goes on: nothing else moves */
		return;
	}
	if (rotate)
		requeue(w, f);
	end_step(m, w);
}

/* IT, JP (a branch), and a sync (NOP). */
static void go(Machine *m, Warp *w, int32_t from, int32_t to)
{
	move_front(m, w, from, to, m->prog->ins[from].op == OP_JUMP);
}

/* A branch's reconvergence point: the delayed one, or the immediate
** post-dominator. */
static int32_t reconvergence_point(const Machine *m, int32_t pc)
{
	if (m->aware_rpc && m->aware_rpc[pc] != AWARE_NO_DELAY)
		return m->aware_rpc[pc];
	return cfg_ipdom_pc(m->cfg, pc);
}

static bool rule_branch(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	uint64_t *jmp = m->step_active + w->nw, *fall = m->step_active + 2 * w->nw;
	if (!sem_split(m, w, pc, ins, jmp, fall))
		return false;
	int32_t L = ins->target;
	if (bits_empty(fall, w->nw) || bits_empty(jmp, w->nw)) {
		/* no divergence: the split goes on, from the FIFO's tail */
		bool taken = bits_empty(fall, w->nw);
		*rule = taken ? RULE_BT : RULE_BF;
		move_front(m, w, pc, taken ? L : pc + 1, true);
		return true;
	}
	*rule = RULE_BD;
	begin_step(m, w);
	int32_t f = front(w), R = reconvergence_point(m, pc);
	sem_take_edge(m, w, pc, pc + 1, w->active);
	Entry s = *ent(w, f);
	int32_t at = s.rindex; /* the RT entry the sides reconverge at */
	ent(w, f)->table = DEAD;
	if (R != s.rpc) { /* else the split's own point: no new entry */
		int32_t r = add(m, w, RT, R, s.rpc, s.rindex);
		bits_copy(ent_mask(w, r), ent_mask(w, f), w->nw);
		bits_copy(ent_pending(w, r), ent_mask(w, f), w->nw);
		at = ent(w, r)->slot;
	}
	/* a side at the point has arrived; the taken side takes the first free
	** slot, the not-taken side is queued first */
	int32_t t = -1, n = -1;
	if (L != R)
		t = add_split(m, w, L, R, at, -1, jmp);
	else
		arrive_lanes(m, w, at, jmp);
	if (pc + 1 != R)
		n = add_split(m, w, pc + 1, R, at, -1, fall);
	else
		arrive_lanes(m, w, at, fall);
	if (t >= 0 && n >= 0) {
		ent(w, n)->fifo = ent(w, t)->fifo;
		ent(w, t)->fifo++;
	}
	end_step(m, w);
	return true;
}

/* stop and exit alike: the executing threads leave every entry (a pending
** mask that changes is an update, §5.7). */
static bool rule_finish(Machine *m, Warp *w, int32_t pc, bool stop, Rule *rule)
{
	(void)pc;
	*rule = stop ? RULE_SF : RULE_EX;
	begin_step(m, w);
	uint64_t *gone = m->step_active + w->nw;
	bits_copy(gone, w->active, w->nw);
	sem_finish_threads(m, w, gone);
	for (int32_t k = 0; k < w->ctl.n; k++) {
		bits_andnot(ent_mask(w, k), gone, w->nw);
		if (is_rt(w, k) && intersects(ent_pending(w, k), gone, w->nw)) {
			bits_andnot(ent_pending(w, k), gone, w->nw);
			rt_updated(m, w, k);
		}
	}
	end_step(m, w);
	return true;
}

/* The front split arrives at the barrier at pc: blocked, past it, at the
** FIFO's tail (§5.5). */
static void barrier(Machine *m, Warp *w, int32_t pc)
{
	begin_step(m, w);
	int32_t f = front(w);
	ent(w, f)->bl = 1;
	ent(w, f)->pc = pc + 1;
	requeue(w, f);
	end_step(m, w);
	if (w->status == WARP_BARRIER)
		w->pc = pc;
}

/* The barrier completes: the blocked splits go on after it. */
static void release(Machine *m, Warp *w)
{
	sem_warp_status(m, w, WARP_RUN);
	for (int32_t k = 0; k < w->ctl.n; k++) {
		Entry *e = ent(w, k);
		if (e->table != ST || !e->bl)
			continue;
		e->bl = 0;
		sem_take_edge(m, w, e->pc - 1, e->pc, ent_mask(w, k));
	}
	settle(m, w);
}

/* ---- the timeout as a choice (--aware-timeout any) ------------------------------ */

/* The entries that can time out now: some threads have arrived. */
static int32_t ngroups(const Warp *w)
{
	int32_t n = 1; /* 0: the front split steps, no timeout */
	for (int32_t k = 0; k < w->ctl.n; k++)
		n += is_rt(w, k) && ent(w, k)->timer == TIMER_ANY;
	return n;
}

/* Alternative k ≥ 1: the k-th entry that can time out does so first. The
** state is left alone until the step: the explorer asks every
** alternative's key of one state. */
static void choose(Machine *m, Warp *w, int32_t k)
{
	(void)w;
	m->model_alt = k;
}

/* A timeout is told apart by its entry's RT index. */
static int32_t choice_key(const Warp *w, int32_t c)
{
	for (int32_t k = 0; c > 0 && k < w->ctl.n; k++)
		if (is_rt(w, k) && ent(w, k)->timer == TIMER_ANY && --c == 0)
			return -2 - ent(w, k)->slot;
	return w->pc;
}

/* ---- MP: every split is an alternative (seed 004 §7.2) --------------------------- */

/* The k-th split that can issue (not blocked at a barrier) in FIFO order:
** its record, or -1. Between steps the positions are 0 .. splits-1. */
static int32_t nth_split(const Warp *w, int32_t k)
{
	for (int32_t pos = 0; pos < w->ctl.n; pos++)
		for (int32_t r = 0; r < w->ctl.n; r++)
			if (is_st(w, r) && ent(w, r)->fifo == pos) {
				if (!ent(w, r)->bl && k-- == 0)
					return r;
				break;
			}
	return -1;
}

static int32_t ngroups_mp(const Warp *w)
{
	int32_t n = 0;
	for (int32_t k = 0; k < w->ctl.n; k++)
		n += is_st(w, k) && !ent(w, k)->bl;
	return n;
}

/* Split k issues next: it goes to the FIFO's front. */
static void choose_mp(Machine *m, Warp *w, int32_t k)
{
	(void)m;
	int32_t r = nth_split(w, k);
	if (r < 0 || r == front(w))
		return;
	int32_t at = ent(w, r)->fifo; /* the ones ahead of it move back by one */
	for (int32_t q = 0; q < w->ctl.n; q++)
		if (is_st(w, q) && ent(w, q)->fifo < at)
			ent(w, q)->fifo++;
	ent(w, r)->fifo = 0;
	if (!bits_eq(w->active, ent_mask(w, r), w->nw)) {
		sem_set_active(w, ent_mask(w, r));
		w->entered = true;
	}
	w->pc = ent(w, r)->pc;
}

/* A split is told apart by its ST slot. */
static int32_t choice_key_mp(const Warp *w, int32_t k)
{
	int32_t r = nth_split(w, k);
	return r < 0 ? w->pc : ent(w, r)->slot;
}

static void group_mp(const Warp *w, int32_t k, int32_t *pc, const uint64_t **lanes)
{
	int32_t r = nth_split(w, k);
	*pc = r < 0 ? w->pc : ent(w, r)->pc;
	*lanes = r < 0 ? w->active : ent_mask(w, r);
}

/* ---- reading the tables ------------------------------------------------------------ */

enum { F_SLOT, F_PC, F_RPC, F_MASK, F_RINDEX, F_FIFO, F_BL };
enum { R_INDEX, R_PC, R_RPC, R_REC, R_PENDING, R_RINDEX, R_DELAY };

static const CtlField st_fields[] = {
	[F_SLOT] = {"slot", "slot", .is_num = true, .detail = true},
	[F_PC] = {"pc", "PC", .is_set = false},
	[F_RPC] = {"rpc", "RPC", .is_set = false},
	[F_MASK] = {"mask", "active mask", .is_set = true, .bits = true},
	[F_RINDEX] = {"rindex", "R-Index", .is_num = true},
	[F_FIFO] = {"fifo", "FIFO", .is_num = true, .detail = true},
	[F_BL] = {"bl", "BL", .is_num = true, .detail = true},
};

static const CtlField rt_fields[] = {
	[R_INDEX] = {"index", "index", .is_num = true},
	[R_PC] = {"pc", "PC", .is_set = false},
	[R_RPC] = {"rpc", "RPC", .is_set = false},
	[R_REC] = {"reconvergence", "reconvergence mask", .is_set = true, .bits = true},
	[R_PENDING] = {"pending", "pending mask", .is_set = true, .bits = true},
	[R_RINDEX] = {"rindex", "R-Index", .is_num = true},
	[R_DELAY] = {"delay", "delay", .is_num = true, .detail = true},
};

static const CtlTable tables[] = {
	{"ST", "ST", "splits table", st_fields, 7, F_FIFO},
	{"RT", "RT", "reconvergence table", rt_fields, 7, -1},
};

static int32_t table_of(const Warp *w, int32_t k)
{
	return is_rt(w, k) ? 1 : 0;
}

static void view(const Warp *w, int32_t k, CtlView *v)
{
	const Entry *e = ent(w, k);
	if (e->table == ST) {
		v->pc[F_SLOT] = e->slot;
		v->pc[F_PC] = e->pc;
		v->pc[F_RPC] = e->rpc;
		v->set[F_MASK] = ent_mask(w, k);
		v->pc[F_RINDEX] = e->rindex;
		v->pc[F_FIFO] = e->fifo;
		v->pc[F_BL] = e->bl;
	} else {
		v->pc[R_INDEX] = e->slot;
		v->pc[R_PC] = e->pc;
		v->pc[R_RPC] = e->rpc;
		v->set[R_REC] = ent_mask(w, k);
		v->set[R_PENDING] = ent_pending(w, k);
		v->pc[R_RINDEX] = e->rindex;
		v->pc[R_DELAY] = e->timer;
	}
}

/* Besides the front split: the other splits (deferred, the next in the
** FIFO resumes first), and the threads that wait at the front split's
** reconvergence point (or at the first point some have reached). */
static void pending(const Warp *w, uint64_t *deferred, int32_t *resume_pc, uint64_t *waiting, int32_t *wait_pc)
{
	int32_t f = front(w), next = -1, r = -1;
	if (f < 0)
		return;
	for (int32_t k = 0; k < w->ctl.n; k++) {
		if (is_st(w, k) && k != f) {
			bits_or(deferred, ent_mask(w, k), w->nw);
			if (next < 0 || ent(w, k)->fifo < ent(w, next)->fifo)
				next = k;
		} else if (is_rt(w, k) && !bits_eq(ent_mask(w, k), ent_pending(w, k), w->nw)) {
			if (r < 0 || ent(w, k)->slot == ent(w, f)->rindex)
				r = k;
		}
	}
	if (next >= 0)
		*resume_pc = ent(w, next)->pc;
	if (r >= 0) {
		bits_copy(waiting, ent_mask(w, r), w->nw);
		bits_andnot(waiting, ent_pending(w, r), w->nw);
		*wait_pc = ent(w, r)->pc;
	}
}

/* A lane is in one split (deferred, or at the barrier before its pc) or
** has arrived at one reconvergence point (waiting). */
static CtlWait lane_held(const Warp *w, int32_t l, int32_t *pc)
{
	for (int32_t k = 0; k < w->ctl.n; k++) {
		const Entry *e = ent(w, k);
		if (e->table == ST && bit_get(ent_mask(w, k), l)) {
			*pc = e->bl ? e->pc - 1 : e->pc;
			return e->bl ? CTL_AT_BARRIER : CTL_DEFERRED;
		}
		if (e->table == RT && bit_get(ent_mask(w, k), l) && !bit_get(ent_pending(w, k), l)) {
			*pc = e->pc;
			return CTL_WAITING;
		}
	}
	return CTL_NOT_HELD;
}

const Model model_aware = {
	.name = "aware",
	.summary = "ElTantawy's adaptive warp reconvergence: a splits table and a reconvergence "
	           "table, the splits issued first in, first out; --aware-delay, --aware-timeout",
	.stack_name = "ST and RT",
	.pushed_by = -1,
	.rec_size = sizeof(Entry),
	.nmask = 2,
	.tables = tables,
	.ntables = 2,
	.table_of = table_of,
	.alt_doc = "K, where K ≥ 1: the K-th reconvergence point some threads reached gives up first",
	.start = start,
	.branch = rule_branch,
	.sync = model_sync_nop,
	.finish = rule_finish,
	.go = go,
	.barrier = barrier,
	.release = release,
	.ngroups = ngroups,
	.choose = choose,
	.choice_key = choice_key,
	.view = view,
	.pending = pending,
	.lane_held = lane_held,
	.reconvergence_pc = reconvergence_point,
};

const Model model_mp = {
	.name = "mp",
	.summary = "ElTantawy's multi-path IPDOM: AWARE's tables, any split may issue at any "
	           "instruction (round robin; the SM model picks a ready one), reconvergence at the "
	           "immediate post-dominator",
	.stack_name = "ST and RT",
	.pushed_by = -1,
	.rec_size = sizeof(Entry),
	.nmask = 2,
	.tables = tables,
	.ntables = 2,
	.table_of = table_of,
	.alt_doc = "K: the K-th split in FIFO order (0 the front) issues",
	.start = start,
	.branch = rule_branch,
	.sync = model_sync_nop,
	.finish = rule_finish,
	.go = go,
	.barrier = barrier,
	.release = release,
	.ngroups = ngroups_mp,
	.choose = choose_mp,
	.choice_key = choice_key_mp,
	.group = group_mp,
	.view = view,
	.pending = pending,
	.lane_held = lane_held,
};

/* ---- --aware-delay ----------------------------------------------------------------- */

/* The instruction text[0..n) names, "LABEL" or "@LINE" (the first
** instruction on that line), as the traces print it; -1 after an error. */
static int32_t find_where(const Program *p, const char *spec, const char *text, size_t n, Diags *d)
{
	char *w = xstrndup(text, n);
	int32_t pc = -1;
	long long line;
	if (w[0] == '@' && str_to_ll(w + 1, 1, INT32_MAX, &line)) {
		for (int32_t i = 0; i < p->nins && pc < 0; i++)
			if (p->ins[i].loc.line == line)
				pc = i;
		if (pc < 0)
			diag_error(d, LOC_NONE, "--aware-delay %s: no instruction starts on line %lld of %s", spec, line,
			           p->path);
	} else {
		int32_t l = n ? ir_find_label(p, w) : -1;
		if (l >= 0 && p->labels[l].ins >= 0) {
			pc = p->labels[l].ins;
		} else {
			Suggest g;
			suggest_init(&g, w, n);
			for (int32_t i = 0; i < p->nlabels; i++)
				if (p->labels[i].ins >= 0)
					suggest_add(&g, p->labels[i].name);
			Buf b = {0};
			if (g.n)
				buf_puts(&b, "; ");
			suggest_print(&g, &b, "");
			diag_error(d, LOC_NONE,
			           "--aware-delay %s: '%s' is not a label of %s (a place is a LABEL or @LINE)%s", spec,
			           w, p->path, buf_str(&b));
			buf_free(&b);
		}
	}
	free(w);
	return pc;
}

bool aware_resolve_delays(const Program *p, const char *spec, int32_t *rpc, Diags *d)
{
	const Cfg *g = p->cfg;
	int errs = d->nerrors;
	for (int32_t pc = 0; pc < p->nins; pc++)
		rpc[pc] = AWARE_NO_DELAY;
	for (const char *s = spec;;) {
		size_t n = strcspn(s, ",");
		char *entry = xstrndup(s, n);
		const char *colon = strchr(entry, ':');
		if (!colon || colon == entry || !colon[1]) {
			diag_error(d, LOC_NONE,
			           "--aware-delay needs BRANCH:POINT[,BRANCH:POINT...] (each a LABEL or @LINE), "
			           "not '%s'", entry);
		} else {
			int32_t at = find_where(p, entry, entry, (size_t)(colon - entry), d);
			int32_t to = find_where(p, entry, colon + 1, strlen(colon + 1), d);
			if (at >= 0 && to >= 0) {
				const Block *blk = &g->blocks[g->block_of[at]];
				int32_t br = blk->last;
				Op op = (Op)p->ins[br].op;
				if (op != OP_BZ && op != OP_BNZ) {
					Buf i = {0};
					ir_print_ins(&i, p, &p->ins[br]);
					diag_error(d, p->ins[at].loc,
					           "--aware-delay %s: the block of this instruction ends with '%s', not a "
					           "conditional branch",
					           entry, buf_str(&i));
					buf_free(&i);
				} else if (rpc[br] != AWARE_NO_DELAY) {
					diag_error(d, p->ins[br].loc, "--aware-delay %s: this branch is given a point twice",
					           entry);
				} else if (g->block_of[to] == g->block_of[br] ||
				           !cfg_postdominates(g, g->block_of[to], g->block_of[br])) {
					diag_error(d, p->ins[to].loc,
					           "--aware-delay %s: a reconvergence point must post-dominate its branch "
					           "(line %d): some path from it to the end misses this one",
					           entry, p->ins[br].loc.line);
				} else {
					rpc[br] = to;
				}
			}
		}
		free(entry);
		if (!s[n])
			break;
		s += n + 1;
	}
	return d->nerrors == errs;
}
