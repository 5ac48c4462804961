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
#include "frontier.h"

#include <stdlib.h>
#include <string.h>

typedef struct Entry {
	int32_t pc;
} Entry;

static Entry *ent(const Warp *w, int32_t k) { return ctl_rec(w, k); }
static uint64_t *ent_mask(const Warp *w, int32_t k) { return ctl_mask(w, k, 0); }

/* The sort key of pc: its block's priority, then the pc (tf:layout: the
** pc, program order). */
static int64_t key(const Machine *m, int32_t pc)
{
	const Cfg *g = m->cfg;
	if (pc < 0 || pc >= m->prog->nins)
		return INT64_MAX;
	if (m->model == &model_tf_layout)
		return pc;
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
	model_finish_lanes(m, w, stop, rule);
	settle(m, w);
	return true;
}

/* A ret to several pcs (rule RS): the top entry splits into an entry per
** return pc, inserted in priority order as a branch's sides are. */
static bool ret_split(Machine *m, Warp *w, int32_t pc, Rule *rule)
{
	(void)rule;
	uint64_t *rest = m->step_active + w->nw, *group = m->step_active + 2 * w->nw;
	bits_copy(rest, ent_mask(w, 0), w->nw);
	bits_clear(ent_mask(w, 0), w->nw); /* dropped by settle */
	int32_t to;
	while (sem_ret_group(m, w, rest, &to, group)) {
		sem_take_edge(m, w, pc, to, group);
		int32_t j = ctl_push(m, w);
		ent(w, j)->pc = to;
		bits_copy(ent_mask(w, j), group, w->nw);
	}
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

/* TF-STACK's entry points, with a name and a summary (tf, tf:layout). */
#define TF_STACK(NAME, SUMMARY)                                                                            \
	{                                                                                                  \
		.name = NAME, .summary = SUMMARY, .stack_name = "sorted stack", .fields = fields,          \
		.nfields = 2, .pushed_by = -1, .rec_size = sizeof(Entry), .nmask = 1, .start = start,      \
		.branch = branch, .sync = model_sync_nop, .finish = finish, .go = go,                      \
		.ret_split = ret_split, .view = view, .pending = pending, .lane_held = lane_held,          \
	}

const Model model_tf = TF_STACK("tf", "thread frontiers on a sorted stack (Diamos et al. 2011, TF-STACK): the block of "
                                      "highest priority (reverse post-order) any thread is at runs, threads meet where "
                                      "their pcs do");

/* TF-STACK with the priorities in program order (the layout a Min-PC
** scheduler follows): the "wrong priorities" of the paper's Figure 2(c)
** when a loop's exit test is laid out above a block of its body (seed 002
** digest §6.1, §11.2 D3). */
const Model model_tf_layout =
	TF_STACK("tf:layout", "tf with the priorities in program order instead of reverse post-order (Diamos et al. "
	                      "2011, Figure 2(c): threads can leave a loop ahead of the others)");

/* ---- TF-SANDY ------------------------------------------------------------------------ */
/*
** Thread frontiers on Intel's Sandybridge (Diamos et al. 2011 §5.1, TF-SANDY;
** seed 002 digest §7.2): every thread has a pc of its own (PTPC) and the
** warp a pc (WPC); a thread is enabled when its pc is the warp's. The code
** is taken to be laid out in priority order (the compiler's job, §5.1), so
** "the next block" is the next in that order. The hardware cannot find the
** highest-priority block where a thread waits, so the compiler makes every
** block end a conservative branch (rule 2 of §7.1): the warp goes to the
** highest-priority block among the targets its enabled threads take and the
** block's thread frontier (Algorithm 1), whether or not a thread waits
** there. A block reached with no enabled thread still issues, instruction
** by instruction with no active lane, and then falls into the next block in
** priority order. These zero-lane instructions are the overhead the paper
** measures (MCX: 3.8% slower than PDOM).
**
** Records: first, one per block, constant: the first pc of the
** highest-priority block of its frontier and of the next block in priority
** order (-1: none); then the threads' pcs as in TF-STACK, (pc) with the
** lanes at it, sorted by priority, one per pc. The warp's pc is w->pc.
*/

typedef struct SEntry {
	int32_t kind; /* 0: a block's constants; 1: the threads at pc a */
	int32_t a;    /* block: its frontier's first block's pc; threads: their pc */
	int32_t b;    /* block: the next block's pc in priority order */
} SEntry;

static SEntry *sent(const Warp *w, int32_t k) { return ctl_rec(w, k); }
static int32_t sandy_first(const Machine *m) { return m->cfg->nblocks; }

static void sandy_start(Machine *m, Warp *w)
{
	const Cfg *g = m->cfg;
	Frontiers *f = frontiers_build(g, FRONTIER_RPO);
	for (int32_t b = 0; b < g->nblocks; b++) {
		int32_t k = ctl_push(m, w);
		SEntry *e = sent(w, k);
		int32_t r = f->rank[b];
		e->a = f->start[b] < f->start[b + 1] ? g->blocks[f->set[f->start[b]]].first : -1;
		e->b = r >= 0 && r + 1 < f->norder ? g->blocks[f->order[r + 1]].first : -1;
	}
	frontiers_free(f);
	int32_t k = ctl_push(m, w);
	*sent(w, k) = (SEntry){1, 0, 0};
	bits_copy(ctl_mask(w, k, 0), w->live, w->nw);
}

/* The threads' records in canonical form (as normalise, from record first). */
static void sandy_normalise(Machine *m, Warp *w)
{
	uint64_t *tmp = m->step_active + 2 * w->nw;
	int32_t first = sandy_first(m), n = first;
	for (int32_t k = first; k < w->ctl.n; k++)
		if (!bits_empty(ctl_mask(w, k, 0), w->nw)) {
			if (k != n) {
				*sent(w, n) = *sent(w, k);
				bits_copy(ctl_mask(w, n, 0), ctl_mask(w, k, 0), w->nw);
			}
			n++;
		}
	w->ctl.n = n;
	for (int32_t i = first + 1; i < n; i++)
		for (int32_t j = i; j > first && key(m, sent(w, j)->a) < key(m, sent(w, j - 1)->a); j--) {
			SEntry t = *sent(w, j);
			*sent(w, j) = *sent(w, j - 1);
			*sent(w, j - 1) = t;
			bits_copy(tmp, ctl_mask(w, j, 0), w->nw);
			bits_copy(ctl_mask(w, j, 0), ctl_mask(w, j - 1, 0), w->nw);
			bits_copy(ctl_mask(w, j - 1, 0), tmp, w->nw);
		}
	int32_t out = first;
	for (int32_t k = first; k < n; k++) {
		if (out > first && sent(w, out - 1)->a == sent(w, k)->a) {
			bits_or(ctl_mask(w, out - 1, 0), ctl_mask(w, k, 0), w->nw);
			continue;
		}
		if (out != k) {
			*sent(w, out) = *sent(w, k);
			bits_copy(ctl_mask(w, out, 0), ctl_mask(w, k, 0), w->nw);
		}
		out++;
	}
	w->ctl.n = out;
}

/* The record of the threads at pc, or -1. */
static int32_t sandy_at(const Machine *m, const Warp *w, int32_t pc)
{
	for (int32_t k = sandy_first(m); k < w->ctl.n; k++)
		if (sent(w, k)->a == pc)
			return k;
	return -1;
}

/* The warp's pc becomes wpc and the threads there are enabled; past the last
** block with threads still waiting (the frontier missed a loop's exit,
** digest §5.5's caveat), the warp goes to the highest-priority one. */
static void sandy_settle(Machine *m, Warp *w, int32_t wpc)
{
	sandy_normalise(m, w);
	int32_t first = sandy_first(m);
	if (w->ctl.n == first) {
		bits_clear(w->active, w->nw);
		w->idx_ok = false;
		sem_warp_done(m, w);
		return;
	}
	if (wpc < 0)
		wpc = sent(w, first)->a;
	int32_t k = sandy_at(m, w, wpc);
	uint64_t *lanes = m->step_active + 2 * w->nw;
	if (k >= 0)
		bits_copy(lanes, ctl_mask(w, k, 0), w->nw);
	else
		bits_clear(lanes, w->nw);
	if (w->pc != wpc || !bits_eq(w->active, lanes, w->nw))
		w->entered = true;
	w->pc = wpc;
	sem_set_active(w, lanes);
}

/* Where the warp goes at the end of the block of pc: with enabled threads,
** the highest-priority of their targets (to, and alt when >= 0) and the
** block's frontier; with none, the next block in priority order. */
static int32_t sandy_next(const Machine *m, const Warp *w, int32_t pc, bool enabled, int32_t to, int32_t alt)
{
	const SEntry *c = sent(w, m->cfg->block_of[pc]);
	if (!enabled)
		return c->b;
	int32_t best = to;
	if (alt >= 0 && (best < 0 || key(m, alt) < key(m, best)))
		best = alt;
	if (c->a >= 0 && (best < 0 || key(m, c->a) < key(m, best)))
		best = c->a;
	return best >= 0 ? best : c->b;
}

static void sandy_go(Machine *m, Warp *w, int32_t from, int32_t to)
{
	bool enabled = !bits_empty(w->active, w->nw);
	sem_take_edge(m, w, from, to, w->active);
	int32_t k = sandy_at(m, w, from);
	if (k >= 0 && enabled)
		sent(w, k)->a = to;
	if (to == from + 1 && to < m->prog->nins && m->cfg->block_of[to] == m->cfg->block_of[from]) {
		w->pc = to; /* on in the block: no new block execution */
		sandy_settle(m, w, to);
		return;
	}
	sandy_settle(m, w, sandy_next(m, w, from, enabled, to, -1));
}

static bool sandy_branch(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	uint64_t *jmp, *fall;
	int split = model_branch_split(m, w, pc, ins, rule, &jmp, &fall);
	if (split != 0)
		return split > 0;
	int32_t L = ins->target;
	int32_t k = sandy_at(m, w, pc);
	int32_t j = ctl_push(m, w); /* may move the records */
	*sent(w, j) = (SEntry){1, L, 0};
	bits_copy(ctl_mask(w, j, 0), jmp, w->nw);
	sent(w, k)->a = pc + 1;
	bits_copy(ctl_mask(w, k, 0), fall, w->nw);
	sandy_settle(m, w, sandy_next(m, w, pc, true, pc + 1, L));
	return true;
}

/* A ret to several pcs (rule RS): a record per return pc; the warp goes to
** the highest-priority of them and the block's frontier, as after a branch. */
static bool sandy_ret_split(Machine *m, Warp *w, int32_t pc, Rule *rule)
{
	(void)rule;
	uint64_t *rest = m->step_active + w->nw, *group = m->step_active + 2 * w->nw;
	int32_t k = sandy_at(m, w, pc), to, best = -1;
	bits_copy(rest, w->active, w->nw);
	bits_andnot(ctl_mask(w, k, 0), rest, w->nw);
	while (sem_ret_group(m, w, rest, &to, group)) {
		sem_take_edge(m, w, pc, to, group);
		int32_t j = ctl_push(m, w);
		*sent(w, j) = (SEntry){1, to, 0};
		bits_copy(ctl_mask(w, j, 0), group, w->nw);
		if (best < 0 || key(m, to) < key(m, best))
			best = to;
	}
	sandy_settle(m, w, sandy_next(m, w, pc, true, best, -1));
	return true;
}

static bool sandy_finish(Machine *m, Warp *w, int32_t pc, bool stop, Rule *rule)
{
	*rule = stop ? RULE_SF : RULE_EX;
	bool enabled = !bits_empty(w->active, w->nw);
	uint64_t *gone = m->step_active + w->nw;
	bits_copy(gone, w->active, w->nw);
	sem_finish_threads(m, w, gone);
	for (int32_t k = sandy_first(m); k < w->ctl.n; k++)
		bits_andnot(ctl_mask(w, k, 0), gone, w->nw);
	sandy_settle(m, w, sandy_next(m, w, pc, enabled, -1, -1));
	return true;
}

static const CtlField sandy_block_fields[] = {
	{"block", "block", .is_num = true, .detail = true},
	{"frontier", "frontier", .is_set = false, .detail = true},
	{"next", "next", .is_set = false, .detail = true},
};
static const CtlField sandy_thread_fields[] = {{"pc", "pc", .is_set = false}, {"lanes", "lanes", .is_set = true}};
static const CtlTable sandy_tables[] = {
	{"blocks", "blocks", "the blocks' conservative targets (frontier, next in priority order)",
	 sandy_block_fields, 3, -1},
	{"threads", "PTPC", "the threads' pcs", sandy_thread_fields, 2, -1},
};

static int32_t sandy_table_of(const Warp *w, int32_t k) { return sent(w, k)->kind; }

static void sandy_view(const Warp *w, int32_t k, CtlView *v)
{
	const SEntry *e = sent(w, k);
	if (e->kind == 0) {
		v->pc[0] = k;
		v->pc[1] = e->a;
		v->pc[2] = e->b;
	} else {
		v->pc[0] = e->a;
		v->set[1] = ctl_mask(w, k, 0);
	}
}

/* The threads at another pc than the warp's wait for it: deferred. */
static void sandy_pending(const Warp *w, uint64_t *deferred, int32_t *resume_pc, uint64_t *waiting, int32_t *wait_pc)
{
	(void)waiting, (void)wait_pc;
	for (int32_t k = 0; k < w->ctl.n; k++) {
		const SEntry *e = sent(w, k);
		if (e->kind != 1 || e->a == w->pc)
			continue;
		bits_or(deferred, ctl_mask(w, k, 0), w->nw);
		if (*resume_pc < 0)
			*resume_pc = e->a;
	}
}

static CtlWait sandy_lane_held(const Warp *w, int32_t l, int32_t *pc)
{
	for (int32_t k = 0; k < w->ctl.n; k++) {
		const SEntry *e = sent(w, k);
		if (e->kind == 1 && e->a != w->pc && bit_get(ctl_mask(w, k, 0), l)) {
			*pc = e->a;
			return CTL_DEFERRED;
		}
	}
	return CTL_NOT_HELD;
}

const Model model_tf_sandy = {
	.name = "tf:sandy",
	.summary = "thread frontiers on Sandybridge (Diamos et al. 2011, TF-SANDY): a pc per thread "
	           "and one per warp; every block ends in a conservative branch to the highest-priority "
	           "block of its frontier, which issues even with no thread there (zero-lane "
	           "instructions)",
	.stack_name = "PTPCs",
	.pushed_by = -1,
	.rec_size = sizeof(SEntry),
	.nmask = 1,
	.lane_pcs = true,
	.tables = sandy_tables,
	.ntables = 2,
	.table_of = sandy_table_of,
	.start = sandy_start,
	.branch = sandy_branch,
	.sync = model_sync_nop,
	.finish = sandy_finish,
	.go = sandy_go,
	.ret_split = sandy_ret_split,
	.view = sandy_view,
	.pending = sandy_pending,
	.lane_held = sandy_lane_held,
};
