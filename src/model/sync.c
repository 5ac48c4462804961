/*
** sync.c — the papers' synchronisation stack Π (semantics.md §2, §4):
** rules BT/BF/BD with split and push, SS/SP, SF, and exit resuming
** deferred work.
*/
#include "model.h"

#include <stdlib.h>

/* A node of Π: (l_id, Θ_done, l_next, Θ_todo). done_pc remembers the sync
** where Θ_done are parked (needed when exit empties Θ; semantics.md §4).
** Its sets are the record's masks 0 (Θ_done) and 1 (Θ_todo). */
typedef struct SyncNode {
	int32_t lid, lnext, done_pc;
} SyncNode;

static SyncNode *node(const Warp *w, int32_t k) { return ctl_rec(w, k); }
static uint64_t *node_done(const Warp *w, int32_t k) { return ctl_mask(w, k, 0); }
static uint64_t *node_todo(const Warp *w, int32_t k) { return ctl_mask(w, k, 1); }

static void push_node(Machine *m, Warp *w, int32_t lid, int32_t lnext, const uint64_t *todo)
{
	int32_t k = ctl_push(m, w);
	*node(w, k) = (SyncNode){lid, lnext, -1};
	bits_copy(node_todo(w, k), todo, w->nw);
}

/* push(Π, Θ_j, pc, L) of Table 3.3, generalised (semantics.md §2): a branch
** that finds its own node on top merges Θ_j into that node's Θ_todo (this
** accumulates the PEs leaving a loop), keeping its Θ_done; otherwise a new
** node is pushed. The printed equations (--strict-push) also demand an
** empty Θ_done on top; returns false where they have no case. */
static bool push(Machine *m, Warp *w, const uint64_t *todo, int32_t pc, int32_t L)
{
	int32_t top = w->ctl.n - 1;
	if (m->opt.strict_push && top >= 0 && !bits_empty(node_done(w, top), w->nw))
		return false;
	if (top >= 0 && node(w, top)->lid == pc && node(w, top)->lnext == L)
		bits_or(node_todo(w, top), todo, w->nw);
	else
		push_node(m, w, pc, L, todo);
	return true;
}

static void stuck_push(Machine *m, Warp *w, int32_t pc, Rule r)
{
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	Buf b = {0};
	ir_print_where(&b, m->prog, node(w, w->ctl.n - 1)->lid);
	char *lid = buf_steal(&b);
	sem_error(m, SEM_STUCK, sem_rule_name(r), pc, w->id, idx, n,
	          "push has no equation: the top node, pushed by %s, has a non-empty Θ_done "
	          "(Table 3.3 as printed; the generalised push of the default handles it)",
	          lid);
	free(lid);
}

/* A uniform branch that finds its own node on top: push merges ∅ into
** its Θ_todo, so BT or BF is go alone (the steady state of a loop's test). */
static bool rule_uniform(Machine *m, Warp *w, int32_t pc, const Ins *ins, bool jump, Rule *rule)
{
	int32_t top = w->ctl.n - 1;
	if (top < 0 || node(w, top)->lid != pc || node(w, top)->lnext != ins->target ||
	    (m->opt.strict_push && !bits_empty(node_done(w, top), w->nw)))
		return false;
	*rule = jump ? RULE_BT : RULE_BF;
	model_go_along(m, w, pc, jump ? ins->target : pc + 1);
	return true;
}

/* BT / BF / BD (Table 3.4, with split and push above). Uniform branches
** push too, so that every sync finds a node to pop. */
static bool rule_branch(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	uint64_t *jmp = m->step_active + w->nw, *fall = m->step_active + 2 * w->nw;
	if (!sem_split(m, w, pc, ins, jmp, fall))
		return false;
	int32_t L = ins->target;
	bool none_fall = bits_empty(fall, w->nw); /* first rule wins: an empty Θ takes BT */
	if ((none_fall || bits_empty(jmp, w->nw)) && rule_uniform(m, w, pc, ins, none_fall, rule))
		return true; /* the branch's own node on top: push merges ∅ */
	if (none_fall) {
		*rule = RULE_BT;
		if (!push(m, w, fall /* ∅ */, pc, L)) {
			stuck_push(m, w, pc, RULE_BT);
			return false;
		}
		model_go_along(m, w, pc, L);
	} else if (bits_empty(jmp, w->nw)) {
		*rule = RULE_BF;
		if (!push(m, w, jmp /* ∅ */, pc, L)) {
			stuck_push(m, w, pc, RULE_BF);
			return false;
		}
		sem_take_edge(m, w, pc, pc + 1, w->active);
		w->pc = pc + 1;
	} else {
		*rule = RULE_BD;
		if (!push(m, w, jmp, pc, L)) {
			stuck_push(m, w, pc, RULE_BD);
			return false;
		}
		/* both groups leave the branch's block; the deferred ones keep the
		** edge they will take at SS */
		sem_take_edge(m, w, pc, pc + 1, w->active);
		sem_set_active(w, fall);
		w->pc = pc + 1;
	}
	return true;
}

/* Whether a sync now fires SP (the top node has no deferred PEs left: pop
** and merge Θ_done), rather than SS or getting stuck on an empty stack. */
static bool sync_pops(const Warp *w)
{
	int32_t top = w->ctl.n - 1;
	return top >= 0 && bits_empty(node_todo(w, top), w->nw);
}

/* SS / SP. At an implicit sync (a block starting with γ or η) SP also runs
** the block's GSA group and continues after it (semantics.md §4). */
static bool rule_sync(Machine *m, Warp *w, int32_t pc, int32_t ngsa, Rule *rule)
{
	int32_t top = w->ctl.n - 1;
	if (top < 0) {
		int32_t n;
		const int32_t *idx = sem_active_list(m, w, &n);
		sem_error(m, SEM_STUCK, "SP", pc, w->id, idx, n,
		          "%s with an empty synchronisation stack: no branch to reconverge",
		          ngsa ? "implicit sync (γ/η block)" : "sync");
		return false;
	}
	uint64_t *todo = node_todo(w, top), *done = node_done(w, top);
	if (!sync_pops(w)) {
		/* SS: the arrived PEs wait (Θ_done), the deferred ones resume at l_next */
		*rule = RULE_SS;
		bits_or(done, w->active, w->nw);
		node(w, top)->done_pc = pc;
		sem_set_active(w, todo);
		bits_clear(todo, w->nw);
		w->pc = node(w, top)->lnext;
		w->entered = true;
		return true;
	}
	/* SP: pop, Θ := Θ_done ∪ Θ, continue after the sync */
	*rule = RULE_SP;
	uint64_t *saved = m->step_active + w->nw;
	bits_copy(saved, w->active, w->nw);
	bits_or(w->active, done, w->nw);
	w->idx_ok = false;
	if (ngsa > 0 && !sem_gsa_group(m, w, pc, ngsa)) {
		sem_set_active(w, saved);
		return false;
	}
	w->ctl.n--;
	int32_t next = pc + (ngsa > 0 ? ngsa : 1);
	sem_take_edge(m, w, pc + (ngsa > 0 ? ngsa - 1 : 0), next, w->active);
	w->pc = next;
	return true;
}

/* exit: the executing PEs terminate; with Θ empty the warp resumes deferred
** work (semantics.md §4). */
static void rule_exit(Machine *m, Warp *w)
{
	sem_finish_threads(m, w, w->active);
	bits_clear(w->active, w->nw);
	w->idx_ok = false;
	while (w->ctl.n > 0) {
		int32_t top = w->ctl.n - 1;
		uint64_t *todo = node_todo(w, top), *done = node_done(w, top);
		if (!bits_empty(todo, w->nw)) {
			sem_set_active(w, todo);
			bits_clear(todo, w->nw);
			w->pc = node(w, top)->lnext;
			w->entered = true;
			return;
		}
		if (!bits_empty(done, w->nw)) {
			sem_set_active(w, done);
			bits_clear(done, w->nw);
			w->pc = node(w, top)->done_pc;
			w->entered = true;
			return;
		}
		w->ctl.n--;
	}
	sem_warp_done(m, w);
}

/* SF needs Π = []; EX as above. */
static bool rule_finish(Machine *m, Warp *w, int32_t pc, bool stop, Rule *rule)
{
	if (!stop) {
		*rule = RULE_EX;
		rule_exit(m, w);
		return true;
	}
	*rule = RULE_SF;
	if (w->ctl.n > 0) {
		int32_t n;
		const int32_t *idx = sem_active_list(m, w, &n);
		sem_error(m, SEM_STUCK, "SF", pc, w->id, idx, n,
		          "stop with a non-empty synchronisation stack (rule SF needs Π = [])");
		return false;
	}
	sem_finish_threads(m, w, w->live);
	sem_warp_done(m, w);
	return true;
}

/* A ret whose threads return to different pcs (rule RS): a divergence with
** a side per return pc, handled as BD handles its two sides. The side that
** returns to the lowest pc runs on; each other side is deferred in a node
** of its own (l_id the ret, l_next its return pc), the next side on top, so
** that the sides meet at the next syncs as nested branches' sides do: one
** sync per extra side. */
static bool rule_ret_split(Machine *m, Warp *w, int32_t pc, Rule *rule)
{
	(void)rule;
	int32_t nw = w->nw, n = 0, to;
	uint64_t *rest = m->step_active + nw, *group = m->step_active + 2 * nw;
	bits_copy(rest, w->active, nw);
	int32_t *pcs = xmalloc((size_t)bits_count(rest, nw) * sizeof *pcs);
	uint64_t *sides = xmalloc((size_t)bits_count(rest, nw) * (size_t)nw * sizeof *sides);
	while (sem_ret_group(m, w, rest, &to, group)) {
		pcs[n] = to;
		bits_copy(sides + (size_t)n * (size_t)nw, group, nw);
		sem_take_edge(m, w, pc, to, group);
		n++;
	}
	for (int32_t i = n - 1; i >= 1; i--)
		push_node(m, w, pc, pcs[i], sides + (size_t)i * (size_t)nw);
	sem_set_active(w, sides);
	w->pc = pcs[0];
	free(pcs);
	free(sides);
	return true;
}

/* ---- reading Π ---------------------------------------------------------------- */

static const CtlField fields[] = {
	{"l_id", "l_id", .is_set = false}, {"done", "Θ_done", .is_set = true}, {"l_next", "l_next", .is_set = false}, {"todo", "Θ_todo", .is_set = true},
};

static void view(const Warp *w, int32_t k, CtlView *v)
{
	v->pc[0] = node(w, k)->lid;
	v->set[1] = node_done(w, k);
	v->pc[2] = node(w, k)->lnext;
	v->set[3] = node_todo(w, k);
}

static void pending(const Warp *w, uint64_t *deferred, int32_t *resume_pc, uint64_t *waiting, int32_t *wait_pc)
{
	if (w->ctl.n == 0)
		return;
	int32_t k = w->ctl.n - 1;
	bits_copy(deferred, node_todo(w, k), w->nw);
	*resume_pc = node(w, k)->lnext;
	bits_copy(waiting, node_done(w, k), w->nw);
	*wait_pc = node(w, k)->done_pc;
}

static CtlWait lane_held(const Warp *w, int32_t l, int32_t *pc)
{
	for (int32_t k = w->ctl.n - 1; k >= 0; k--) {
		if (bit_get(node_todo(w, k), l)) {
			*pc = node(w, k)->lnext;
			return CTL_DEFERRED;
		}
		if (bit_get(node_done(w, k), l)) {
			*pc = node(w, k)->done_pc;
			return CTL_WAITING;
		}
	}
	return CTL_NOT_HELD;
}

/* The group of an implicit sync runs only if this step is SP, with Θ ∪ Θ_done. */
static bool gsa_lanes(const Warp *w, uint64_t *out)
{
	if (!sync_pops(w))
		return false;
	const uint64_t *done = node_done(w, w->ctl.n - 1);
	for (int32_t j = 0; j < w->nw; j++)
		out[j] = w->active[j] | done[j];
	return true;
}

/* A loop branch visited again merges into the node its first visit pushed
** (push above): its region ends when that node pops. */
static int32_t region_depth(const Warp *w, int32_t pc)
{
	int32_t depth = w->ctl.n;
	if (depth > 0 && node(w, depth - 1)->lid == pc)
		depth--;
	return depth;
}

const Model model_sync = {
	.name = "sync",
	.summary = "the papers' rules: a synchronisation stack Π of (l_id, Θ_done, l_next, Θ_todo)",
	.stack_name = "Π",
	.fields = fields,
	.nfields = 4,
	.pushed_by = 0,
	.rec_size = sizeof(SyncNode),
	.nmask = 2,
	.honours_sync = true,
	.cohorts = true,
	.branch = rule_branch,
	.sync = rule_sync,
	.finish = rule_finish,
	.go = model_go_along, /* JP, IT: Θ moves on, Π stays */
	.go_cohort = model_go_along_cohort,
	.uniform_branch = rule_uniform,
	.ret_split = rule_ret_split,
	.view = view,
	.pending = pending,
	.lane_held = lane_held,
	.gsa_lanes = gsa_lanes,
	.region_depth = region_depth,
};
