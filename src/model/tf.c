/*
** tf.c — reconvergence at thread frontiers, the sorted stack (TF-STACK;
** Diamos et al. 2011, §5.3; seed 002 digest §7.1, §7.3): every block has a
** priority, its place in a reverse post-order (frontier.h), and a warp runs
** the highest-priority block any of its threads is at. Its state is a
** stack of (pc, threads) sorted by the priority of the pc's block, equal
** pcs merged: a divergent branch inserts its sides in order, OR-ing the
** threads of a side into an entry already at its target (rule 2 of §7.1:
** a branch to a lower-priority block goes, in effect, to the highest-
** priority block of its thread frontier), and the top entry issues. So
** threads meet again at the first block of their frontier they share,
** which can be earlier than the immediate post-dominator on unstructured
** code (Figure 1: 6 block executions where the post-dominator stack runs
** 9), and is the post-dominator on structured code.
**
** sync and implicit syncs are no-ops, as under ipdom. A barrier is
** arrived at by the whole warp (the hardware suspends the warp): with
** threads of the warp waiting in another block it cannot complete, which
** the step function reports as a deadlock (the digest's §6.1).
**
** The priorities are a reverse post-order in which every loop's body
** comes before its exits (Block.prio): in a plain one an exit may come
** first, and the threads that left a loop would run ahead of those still
** in it (the paper's Figure 2(c)); on the papers' examples both agree.
**
** Records: (pc) with one lane set, kept sorted by (priority, pc) with one
** record per pc and none empty, so that equal states pack equal.
*/
#include "model.h"

#include <stdlib.h>
#include <string.h>

typedef struct Entry {
	int32_t pc;
} Entry;

static Entry *ent(const Warp *w, int32_t k) { return ctl_rec(w, k); }
static uint64_t *ent_mask(const Warp *w, int32_t k) { return ctl_mask(w, k, 0); }

/* The sort key of pc: its block's priority, then the pc. */
static int64_t key(const Machine *m, int32_t pc)
{
	const Cfg *g = m->cfg;
	if (pc < 0 || pc >= m->prog->nins)
		return INT64_MAX;
	int32_t rank = g->blocks[g->block_of[pc]].prio;
	return (int64_t)(rank >= 0 ? rank : g->nblocks) << 32 | (int64_t)pc;
}

static void swap_records(Warp *w, int32_t a, int32_t b, uint64_t *tmp)
{
	Entry t = *ent(w, a);
	*ent(w, a) = *ent(w, b);
	*ent(w, b) = t;
	bits_copy(tmp, ent_mask(w, a), w->nw);
	bits_copy(ent_mask(w, a), ent_mask(w, b), w->nw);
	bits_copy(ent_mask(w, b), tmp, w->nw);
}

/* Canonical form: no empty entry, sorted by key, one entry per pc (lanes
** OR-ed: the threads meet). Entries are few (at most one per lane): an
** insertion sort, as the hardware's ordered insertion (§7.3). */
static void normalise(Machine *m, Warp *w)
{
	uint64_t *tmp = m->step_active + 2 * w->nw;
	int32_t n = 0;
	for (int32_t k = 0; k < w->ctl.n; k++)
		if (!bits_empty(ent_mask(w, k), w->nw)) {
			if (k != n) {
				*ent(w, n) = *ent(w, k);
				bits_copy(ent_mask(w, n), ent_mask(w, k), w->nw);
			}
			n++;
		}
	w->ctl.n = n;
	for (int32_t i = 1; i < n; i++)
		for (int32_t j = i; j > 0 && key(m, ent(w, j)->pc) < key(m, ent(w, j - 1)->pc); j--)
			swap_records(w, j, j - 1, tmp);
	int32_t out = 0;
	for (int32_t k = 0; k < n; k++) {
		if (out > 0 && ent(w, out - 1)->pc == ent(w, k)->pc) {
			bits_or(ent_mask(w, out - 1), ent_mask(w, k), w->nw);
			continue;
		}
		if (out != k) {
			*ent(w, out) = *ent(w, k);
			bits_copy(ent_mask(w, out), ent_mask(w, k), w->nw);
		}
		out++;
	}
	w->ctl.n = out;
}

/* After a step that may have moved threads to another block: the stack in
** order, and its top issues (the warp is done when it is empty). */
static void settle(Machine *m, Warp *w)
{
	normalise(m, w);
	if (w->ctl.n == 0) {
		bits_clear(w->active, w->nw);
		w->idx_ok = false;
		sem_warp_done(m, w);
		return;
	}
	if (w->pc != ent(w, 0)->pc || !bits_eq(w->active, ent_mask(w, 0), w->nw))
		w->entered = true;
	w->pc = ent(w, 0)->pc;
	sem_set_active(w, ent_mask(w, 0));
}

static void start(Machine *m, Warp *w)
{
	int32_t k = ctl_push(m, w);
	ent(w, k)->pc = 0;
	bits_copy(ent_mask(w, k), w->live, w->nw);
}

/* The top entry moves from `from` to `to`: within its block nothing else
** changes; into another block the stack is sorted again. */
static void go(Machine *m, Warp *w, int32_t from, int32_t to)
{
	sem_take_edge(m, w, from, to, w->active);
	ent(w, 0)->pc = to;
	const Cfg *g = m->cfg;
	if (to >= 0 && to < m->prog->nins && from >= 0 && from < m->prog->nins && g->block_of[to] == g->block_of[from] &&
	    to == from + 1) {
		w->pc = to;
		return;
	}
	settle(m, w);
}

static bool branch(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	uint64_t *jmp = m->step_active + w->nw, *fall = m->step_active + 2 * w->nw;
	if (!sem_split(m, w, pc, ins, jmp, fall))
		return false;
	int32_t L = ins->target;
	if (bits_empty(fall, w->nw) || bits_empty(jmp, w->nw)) {
		bool taken = bits_empty(fall, w->nw);
		*rule = taken ? RULE_BT : RULE_BF;
		go(m, w, pc, taken ? L : pc + 1);
		return true;
	}
	*rule = RULE_BD;
	sem_take_edge(m, w, pc, pc + 1, fall);
	sem_take_edge(m, w, pc, L, jmp);
	int32_t j = ctl_push(m, w); /* may move the records */
	ent(w, j)->pc = L;
	bits_copy(ent_mask(w, j), jmp, w->nw);
	ent(w, 0)->pc = pc + 1;
	bits_copy(ent_mask(w, 0), fall, w->nw);
	settle(m, w);
	return true;
}

static bool finish(Machine *m, Warp *w, int32_t pc, bool stop, Rule *rule)
{
	(void)pc;
	*rule = stop ? RULE_SF : RULE_EX;
	uint64_t *gone = m->step_active + w->nw;
	bits_copy(gone, w->active, w->nw);
	sem_finish_threads(m, w, gone);
	for (int32_t k = 0; k < w->ctl.n; k++)
		bits_andnot(ent_mask(w, k), gone, w->nw);
	settle(m, w);
	return true;
}

/* ---- reading the stack ------------------------------------------------------------ */

static const CtlField fields[] = {{"pc", "pc", .is_set = false}, {"lanes", "lanes", .is_set = true}};

/* Record 0 is the top (the issuing entry); the view lists the bottom first,
** as the other stacks do. */
static void view(const Warp *w, int32_t k, CtlView *v)
{
	int32_t r = w->ctl.n - 1 - k;
	v->pc[0] = ent(w, r)->pc;
	v->set[1] = ent_mask(w, r);
}

/* The entries below the top wait at their blocks: deferred, the next to
** issue first. */
static void pending(const Warp *w, uint64_t *deferred, int32_t *resume_pc, uint64_t *waiting, int32_t *wait_pc)
{
	(void)waiting, (void)wait_pc;
	for (int32_t k = 1; k < w->ctl.n; k++) {
		bits_or(deferred, ent_mask(w, k), w->nw);
		if (*resume_pc < 0)
			*resume_pc = ent(w, k)->pc;
	}
}

static CtlWait lane_held(const Warp *w, int32_t l, int32_t *pc)
{
	for (int32_t k = 1; k < w->ctl.n; k++)
		if (bit_get(ent_mask(w, k), l)) {
			*pc = ent(w, k)->pc;
			return CTL_DEFERRED;
		}
	return CTL_NOT_HELD;
}

const Model model_tf = {
	.name = "tf",
	.summary = "thread frontiers on a sorted stack (Diamos et al. 2011, TF-STACK): the block of "
	           "highest priority (reverse post-order) any thread is at runs, threads meet where "
	           "their pcs do",
	.stack_name = "sorted stack",
	.fields = fields,
	.nfields = 2,
	.pushed_by = -1,
	.rec_size = sizeof(Entry),
	.nmask = 1,
	.start = start,
	.branch = branch,
	.sync = model_sync_nop,
	.finish = finish,
	.go = go,
	.view = view,
	.pending = pending,
	.lane_held = lane_held,
};
