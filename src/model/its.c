/*
** its.c — independent thread scheduling (explore.md §2, Volta-like): every
** thread has its own pc; a warp issues one *group* at a time, the threads
** of the warp at one pc that are not waiting at a barrier, so threads merge
** whenever their pcs meet and no branch waits for its other side. Syncs are
** ignored (NOP). A group reaching a barrier waits there while the others
** run on; the warp waits at the barrier when all its groups do.
**
** The policy picks the group: `rr` the one that issued least recently (a
** fair scheduler; ties go to the lowest pc), `any` every group is a choice
** of the explorer (run and the REPL take the lowest pc). The control state
** is the set of groups, as records (pc, rank, waits) with their lanes, kept
** sorted by (pc, waits) with one record per key, and the ranks (rr only)
** numbered 0 .. n-1 from the least recently issued: equal states pack
** equal.
*/
#include "model.h"

#include <stdlib.h>
#include <string.h>

typedef struct Group {
	int32_t pc;
	int32_t rank;  /* rr: 0 issued least recently; any: 0 */
	int32_t waits; /* 1: arrived at the barrier at pc */
} Group;

/* rank of a group that just issued: above every other until renumbered */
#define JUST_ISSUED INT32_MAX

static Group *grp(const Warp *w, int32_t k) { return ctl_rec(w, k); }
static uint64_t *grp_mask(const Warp *w, int32_t k) { return ctl_mask(w, k, 0); }

/* The record of the group issuing now (at w->pc, not waiting), or -1. */
static int32_t current(const Warp *w)
{
	for (int32_t k = 0; k < w->ctl.n; k++)
		if (grp(w, k)->pc == w->pc && !grp(w, k)->waits)
			return k;
	return -1;
}

static void swap_records(Warp *w, int32_t a, int32_t b, uint64_t *tmp)
{
	Group t = *grp(w, a);
	*grp(w, a) = *grp(w, b);
	*grp(w, b) = t;
	bits_copy(tmp, grp_mask(w, a), w->nw);
	bits_copy(grp_mask(w, a), grp_mask(w, b), w->nw);
	bits_copy(grp_mask(w, b), tmp, w->nw);
}

static bool key_less(const Group *a, const Group *b)
{
	return a->pc != b->pc ? a->pc < b->pc : a->waits < b->waits;
}

/* Canonical form: sorted by (pc, waits), one record per key (lanes OR-ed,
** the lower rank kept), no empty record, ranks renumbered. Groups are
** few (at most the warp's lanes): insertion sort. */
static void normalise(Machine *m, Warp *w, bool rr)
{
	uint64_t *tmp = m->step_active + 2 * w->nw;
	int32_t n = 0;
	for (int32_t k = 0; k < w->ctl.n; k++) /* drop the empty ones */
		if (!bits_empty(grp_mask(w, k), w->nw)) {
			if (k != n) {
				*grp(w, n) = *grp(w, k);
				bits_copy(grp_mask(w, n), grp_mask(w, k), w->nw);
			}
			n++;
		}
	w->ctl.n = n;
	for (int32_t i = 1; i < n; i++)
		for (int32_t j = i; j > 0 && key_less(grp(w, j), grp(w, j - 1)); j--)
			swap_records(w, j, j - 1, tmp);
	int32_t out = 0;
	for (int32_t k = 0; k < n; k++) {
		if (out > 0 && grp(w, out - 1)->pc == grp(w, k)->pc && grp(w, out - 1)->waits == grp(w, k)->waits) {
			bits_or(grp_mask(w, out - 1), grp_mask(w, k), w->nw);
			if (grp(w, k)->rank < grp(w, out - 1)->rank)
				grp(w, out - 1)->rank = grp(w, k)->rank;
			continue;
		}
		if (out != k) {
			*grp(w, out) = *grp(w, k);
			bits_copy(grp_mask(w, out), grp_mask(w, k), w->nw);
		}
		out++;
	}
	w->ctl.n = out;
	/* ranks: 0 .. n-1 in the order of (rank, pc), or all 0 under `any` */
	int32_t small[64];
	int32_t *old = out <= 64 ? small : xmalloc((size_t)out * sizeof *old);
	for (int32_t k = 0; k < out; k++)
		old[k] = grp(w, k)->rank;
	for (int32_t k = 0; k < out; k++) {
		int32_t r = 0;
		if (rr)
			for (int32_t j = 0; j < out; j++)
				r += old[j] < old[k] || (old[j] == old[k] && j < k);
		grp(w, k)->rank = r;
	}
	if (old != small)
		free(old);
}

/* After a step: the canonical form, then the group that issues next. */
static void resched(Machine *m, Warp *w, bool rr)
{
	normalise(m, w, rr);
	int32_t best = -1;
	bool waiting = false;
	for (int32_t k = 0; k < w->ctl.n; k++) {
		if (grp(w, k)->waits) {
			waiting = true;
			continue;
		}
		if (best < 0 || grp(w, k)->rank < grp(w, best)->rank)
			best = k;
	}
	if (best < 0) {
		bits_clear(w->active, w->nw);
		w->idx_ok = false;
		if (waiting)
			sem_warp_status(m, w, WARP_BARRIER);
		else
			sem_warp_done(m, w);
		return;
	}
	if (w->pc != grp(w, best)->pc || !bits_eq(w->active, grp_mask(w, best), w->nw))
		w->entered = true;
	w->pc = grp(w, best)->pc;
	sem_set_active(w, grp_mask(w, best));
}

static void start(Machine *m, Warp *w)
{
	int32_t k = ctl_push(m, w);
	*grp(w, k) = (Group){0, 0, 0};
	bits_copy(grp_mask(w, k), w->live, w->nw);
}

/* The issuing group moves from `from` to `to`. */
static void go_policy(Machine *m, Warp *w, int32_t from, int32_t to, bool rr)
{
	int32_t k = current(w);
	sem_take_edge(m, w, from, to, w->active);
	if (k >= 0) {
		grp(w, k)->pc = to;
		grp(w, k)->rank = JUST_ISSUED;
	}
	w->pc = to;
	resched(m, w, rr);
}

static bool branch_policy(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule, bool rr)
{
	uint64_t *jmp = m->step_active + w->nw, *fall = m->step_active + 2 * w->nw;
	if (!sem_split(m, w, pc, ins, jmp, fall))
		return false;
	int32_t L = ins->target;
	if (bits_empty(fall, w->nw)) {
		*rule = RULE_BT;
		go_policy(m, w, pc, L, rr);
		return true;
	}
	if (bits_empty(jmp, w->nw)) {
		*rule = RULE_BF;
		go_policy(m, w, pc, pc + 1, rr);
		return true;
	}
	*rule = RULE_BD;
	/* both sides leave the block; each becomes a group of its own */
	int32_t k = current(w);
	sem_take_edge(m, w, pc, pc + 1, w->active);
	int32_t j = ctl_push(m, w); /* may move the records: look k up again */
	*grp(w, j) = (Group){L, JUST_ISSUED, 0};
	bits_copy(grp_mask(w, j), jmp, w->nw);
	k = k >= 0 ? k : current(w);
	if (k >= 0) {
		grp(w, k)->pc = pc + 1;
		grp(w, k)->rank = JUST_ISSUED;
		bits_copy(grp_mask(w, k), fall, w->nw);
	}
	w->pc = pc + 1;
	resched(m, w, rr);
	return true;
}

/* A ret to several pcs (rule RS): the issuing group returns to the lowest
** of them, each other return pc gets a group of its own. */
static bool ret_split_policy(Machine *m, Warp *w, int32_t pc, bool rr)
{
	uint64_t *rest = m->step_active + w->nw, *group = m->step_active + 2 * w->nw;
	bits_copy(rest, w->active, w->nw);
	int32_t k = current(w), to, first = -1;
	while (sem_ret_group(m, w, rest, &to, group)) {
		sem_take_edge(m, w, pc, to, group);
		if (first < 0 && k >= 0) {
			first = to;
			grp(w, k)->pc = to;
			grp(w, k)->rank = JUST_ISSUED;
			bits_copy(grp_mask(w, k), group, w->nw);
			continue;
		}
		int32_t j = ctl_push(m, w); /* may move the records */
		*grp(w, j) = (Group){to, JUST_ISSUED, 0};
		bits_copy(grp_mask(w, j), group, w->nw);
	}
	w->pc = first;
	resched(m, w, rr);
	return true;
}

static bool finish_policy(Machine *m, Warp *w, bool stop, Rule *rule, bool rr)
{
	*rule = stop ? RULE_SF : RULE_EX;
	int32_t k = current(w);
	uint64_t *gone = m->step_active + w->nw;
	bits_copy(gone, w->active, w->nw);
	sem_finish_threads(m, w, gone);
	if (k >= 0)
		bits_clear(grp_mask(w, k), w->nw);
	resched(m, w, rr);
	return true;
}

static void barrier_policy(Machine *m, Warp *w, int32_t pc, bool rr)
{
	(void)pc;
	int32_t k = current(w);
	if (k >= 0) {
		grp(w, k)->waits = 1;
		grp(w, k)->rank = JUST_ISSUED;
	}
	resched(m, w, rr);
}

/* Every waiting group goes on after its barrier. */
static void release_policy(Machine *m, Warp *w, bool rr)
{
	sem_warp_status(m, w, WARP_RUN);
	for (int32_t k = 0; k < w->ctl.n; k++) {
		Group *g = grp(w, k);
		if (!g->waits)
			continue;
		sem_take_edge(m, w, g->pc, g->pc + 1, grp_mask(w, k));
		g->pc++;
		g->waits = 0;
	}
	w->pc = -1; /* no group issues until resched picks one */
	resched(m, w, rr);
}

/* ---- the two policies ------------------------------------------------------------ */

static void go_rr(Machine *m, Warp *w, int32_t from, int32_t to) { go_policy(m, w, from, to, true); }
static void go_any(Machine *m, Warp *w, int32_t from, int32_t to) { go_policy(m, w, from, to, false); }
static bool branch_rr(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	return branch_policy(m, w, pc, ins, rule, true);
}
static bool branch_any(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	return branch_policy(m, w, pc, ins, rule, false);
}
static bool finish_rr(Machine *m, Warp *w, int32_t pc, bool stop, Rule *rule)
{
	(void)pc;
	return finish_policy(m, w, stop, rule, true);
}
static bool finish_any(Machine *m, Warp *w, int32_t pc, bool stop, Rule *rule)
{
	(void)pc;
	return finish_policy(m, w, stop, rule, false);
}
static bool ret_split_rr(Machine *m, Warp *w, int32_t pc, Rule *rule)
{
	(void)rule;
	return ret_split_policy(m, w, pc, true);
}
static bool ret_split_any(Machine *m, Warp *w, int32_t pc, Rule *rule)
{
	(void)rule;
	return ret_split_policy(m, w, pc, false);
}
static void barrier_rr(Machine *m, Warp *w, int32_t pc) { barrier_policy(m, w, pc, true); }
static void barrier_any(Machine *m, Warp *w, int32_t pc) { barrier_policy(m, w, pc, false); }
static void release_rr(Machine *m, Warp *w) { release_policy(m, w, true); }
static void release_any(Machine *m, Warp *w) { release_policy(m, w, false); }

/* its:any: the groups that can issue, in the records' order, are the choices. */
static int32_t ngroups(const Warp *w)
{
	int32_t n = 0;
	for (int32_t k = 0; k < w->ctl.n; k++)
		n += !grp(w, k)->waits;
	return n;
}

static void choose(Machine *m, Warp *w, int32_t c)
{
	(void)m;
	for (int32_t k = 0; k < w->ctl.n; k++) {
		if (grp(w, k)->waits)
			continue;
		if (c-- == 0) {
			if (w->pc != grp(w, k)->pc || !bits_eq(w->active, grp_mask(w, k), w->nw))
				w->entered = true;
			w->pc = grp(w, k)->pc;
			sem_set_active(w, grp_mask(w, k));
			return;
		}
	}
}

/* ---- reading the groups ----------------------------------------------------------- */

static const CtlField fields[] = {{"pc", "pc", .is_set = false}, {"lanes", "lanes", .is_set = true}};

static void view(const Warp *w, int32_t k, CtlView *v)
{
	v->pc[0] = grp(w, k)->pc;
	v->set[1] = grp_mask(w, k);
}

/* The other groups: those that can issue are deferred (at the lowest such
** pc), those at a barrier wait there. */
static void pending(const Warp *w, uint64_t *deferred, int32_t *resume_pc, uint64_t *waiting, int32_t *wait_pc)
{
	for (int32_t k = 0; k < w->ctl.n; k++) {
		const Group *g = grp(w, k);
		if (g->waits) {
			bits_or(waiting, grp_mask(w, k), w->nw);
			if (*wait_pc < 0)
				*wait_pc = g->pc;
		} else if (g->pc != w->pc) {
			bits_or(deferred, grp_mask(w, k), w->nw);
			if (*resume_pc < 0)
				*resume_pc = g->pc;
		}
	}
}

static CtlWait lane_held(const Warp *w, int32_t l, int32_t *pc)
{
	for (int32_t k = 0; k < w->ctl.n; k++)
		if (bit_get(grp_mask(w, k), l)) {
			*pc = grp(w, k)->pc;
			return grp(w, k)->waits ? CTL_WAITING : CTL_DEFERRED;
		}
	return CTL_NOT_HELD;
}

#define ITS_COMMON                                                                            \
	.stack_name = "groups", .fields = fields, .nfields = 2, .pushed_by = -1,                  \
	.rec_size = sizeof(Group), .nmask = 1, .lane_pcs = true, .start = start, .view = view,     \
	.pending = pending, .lane_held = lane_held

const Model model_its_rr = {
	.name = "its:rr",
	.summary = "independent thread scheduling: a pc per thread, one group (the threads at a pc) "
	           "issues at a time, the one that issued least recently",
	ITS_COMMON,
	.branch = branch_rr,
	.sync = model_sync_nop,
	.finish = finish_rr,
	.go = go_rr,
	.ret_split = ret_split_rr,
	.barrier = barrier_rr,
	.release = release_rr,
};

const Model model_its_any = {
	.name = "its:any",
	.summary = "independent thread scheduling with every group a choice of the explorer (run: the "
	           "lowest pc first)",
	ITS_COMMON,
	.branch = branch_any,
	.sync = model_sync_nop,
	.finish = finish_any,
	.go = go_any,
	.ret_split = ret_split_any,
	.barrier = barrier_any,
	.release = release_any,
	.ngroups = ngroups,
	.choose = choose,
	.alt_doc = "group",
};
