/*
** ipdom.c — the hardware SIMT stack (semantics.md §5): entries (pc, rpc,
** mask); a divergent branch turns the top entry into the one waiting at the
** branch's immediate post-dominator and pushes a side each; entries pop,
** at no cost, when they reach their reconvergence point or lose all their
** threads. Syncs are ignored (NOP).
*/
#include "model.h"

/* An entry: (pc, rpc, mask); rpc -1 is the virtual exit. The mask is the
** record's lane set 0. */
typedef struct IpdomEntry {
	int32_t pc, rpc;
} IpdomEntry;

static IpdomEntry *ent(const Warp *w, int32_t k) { return ctl_rec(w, k); }
static uint64_t *ent_mask(const Warp *w, int32_t k) { return ctl_mask(w, k, 0); }

static void ipdom_push(Machine *m, Warp *w, int32_t pc, int32_t rpc, const uint64_t *mask)
{
	int32_t k = ctl_push(m, w);
	*ent(w, k) = (IpdomEntry){pc, rpc};
	bits_copy(ent_mask(w, k), mask, w->nw);
}

/* The whole warp, bound for the exit. */
static void start(Machine *m, Warp *w)
{
	ipdom_push(m, w, 0, -1, w->live);
}

/* Pop (free of cost) entries that reached their reconvergence point or lost
** all their threads; the warp then runs the new top. */
static void settle(Machine *m, Warp *w)
{
	bool popped = false;
	while (w->ctl.n > 0) {
		IpdomEntry *e = ent(w, w->ctl.n - 1);
		if (e->pc != e->rpc && !bits_empty(ent_mask(w, w->ctl.n - 1), w->nw))
			break;
		w->ctl.n--;
		popped = true;
	}
	if (w->ctl.n == 0) {
		sem_warp_done(m, w);
		bits_clear(w->active, w->nw);
		w->idx_ok = false;
		return;
	}
	if (popped)
		w->entered = true;
	int32_t k = w->ctl.n - 1;
	w->pc = ent(w, k)->pc;
	if (!bits_eq(w->active, ent_mask(w, k), w->nw))
		sem_set_active(w, ent_mask(w, k));
}

static void go(Machine *m, Warp *w, int32_t from, int32_t to)
{
	sem_take_edge(m, w, from, to, w->active);
	ent(w, w->ctl.n - 1)->pc = to;
	settle(m, w);
}

static bool rule_branch(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	uint64_t *jmp = m->step_active + w->nw, *fall = m->step_active + 2 * w->nw;
	if (!sem_split(m, w, pc, ins, jmp, fall))
		return false;
	int32_t L = ins->target;
	bool none_fall = bits_empty(fall, w->nw);
	if (none_fall || bits_empty(jmp, w->nw)) {
		model_uniform_go(m, w, pc, ins, none_fall, rule);
	} else {
		*rule = RULE_BD;
		int32_t R = cfg_ipdom_pc(m->cfg, pc);
		if (R < 0) /* in a function, the exit is its return: reconverge after the call */
			R = sem_return_point(m, w);
		sem_take_edge(m, w, pc, pc + 1, w->active);
		IpdomEntry *top = ent(w, w->ctl.n - 1);
		if (R != top->rpc)
			top->pc = R; /* its threads wait at R; a new level starts */
		else
			w->ctl.n--; /* the entry below already waits at R */
		/* the side pushed last runs first */
		const uint64_t *first_mask = m->opt.taken_first ? fall : jmp;
		int32_t first_pc = m->opt.taken_first ? pc + 1 : L;
		const uint64_t *second_mask = m->opt.taken_first ? jmp : fall;
		int32_t second_pc = m->opt.taken_first ? L : pc + 1;
		if (first_pc != R)
			ipdom_push(m, w, first_pc, R, first_mask);
		if (second_pc != R)
			ipdom_push(m, w, second_pc, R, second_mask);
		w->entered = true;
		settle(m, w);
	}
	return true;
}

/* stop and exit alike: the executing threads leave every entry. */
static bool rule_finish(Machine *m, Warp *w, int32_t pc, bool stop, Rule *rule)
{
	(void)pc;
	model_finish_lanes(m, w, stop, rule);
	settle(m, w);
	return true;
}

/* ---- reading the stack ---------------------------------------------------------- */

static const CtlField fields[] = {
	{"pc", "pc", .is_set = false}, {"rpc", "reconvergence pc", .is_set = false}, {"mask", "mask", .is_set = true},
};

static void view(const Warp *w, int32_t k, CtlView *v)
{
	v->pc[0] = ent(w, k)->pc;
	v->pc[1] = ent(w, k)->rpc;
	v->set[2] = ent_mask(w, k);
}

/* Below the top entry: the sibling path (deferred), or the entry waiting at
** the reconvergence point. */
static void pending(const Warp *w, uint64_t *deferred, int32_t *resume_pc, uint64_t *waiting, int32_t *wait_pc)
{
	int32_t n = w->ctl.n;
	if (n < 2)
		return;
	const IpdomEntry *top = ent(w, n - 1), *e = ent(w, n - 2);
	const uint64_t *mask = ent_mask(w, n - 2);
	if (e->rpc == top->rpc && e->pc != e->rpc) {
		bits_copy(deferred, mask, w->nw);
		*resume_pc = e->pc;
	} else if (e->pc == top->rpc) {
		bits_copy(waiting, mask, w->nw);
		bits_andnot(waiting, w->active, w->nw);
		*wait_pc = e->pc;
	}
}

/* The topmost entry holding the lane says where it goes on: an entry at the
** reconvergence point of the one above it waits there. */
static CtlWait lane_held(const Warp *w, int32_t l, int32_t *pc)
{
	for (int32_t k = w->ctl.n - 1; k >= 0; k--)
		if (bit_get(ent_mask(w, k), l)) {
			*pc = ent(w, k)->pc;
			bool waits = k + 1 < w->ctl.n && ent(w, k + 1)->rpc == ent(w, k)->pc;
			return waits ? CTL_WAITING : CTL_DEFERRED;
		}
	return CTL_NOT_HELD;
}

const Model model_ipdom = {
	.name = "ipdom",
	.summary = "the hardware SIMT stack: (pc, reconvergence pc, mask), reconvergence at the "
	           "immediate post-dominator, syncs ignored",
	.stack_name = "SIMT stack",
	.fields = fields,
	.nfields = 3,
	.pushed_by = -1,
	.rec_size = sizeof(IpdomEntry),
	.nmask = 1,
	.path_choice = true,
	.alt_doc = "side, 1: taken first",
	.cohorts = true,
	.uniform_branch_go = true,
	.uniform_branch = model_uniform_go,
	.start = start,
	.branch = rule_branch,
	.sync = model_sync_nop,
	.finish = rule_finish,
	.go = go,
	.view = view,
	.pending = pending,
	.lane_held = lane_held,
};
