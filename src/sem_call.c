/*
** sem_call.c — the rules of `call` and `ret` (musimd-lang(7),
** "Functions"; docs/semantics.md): every thread has a return stack of its
** own, part of the machine state.
**
**   CL  call L: every active thread pushes pc + 1, the warp goes to L
**       (the model's go, as a jump);
**   RT  ret: every active thread pops its return stack; when they all
**       return to one pc r, the warp goes there (the model's go);
**   RS  ret whose active threads return to different pcs: a divergence
**       with one side per return pc, which the model places (ret_split):
**       sync pushes a node per extra side (they reconverge at the next
**       syncs, as the sides of a branch do), the per-thread-pc models
**       (its, the policies, tf, tf:sandy) give each side its own pc.
**
** The return stacks never overflow (their size is the program's longest
** chain of calls, the call graph being acyclic) and are never empty at a
** ret (no ret is reachable in main: calls.c decides both statically); the
** run-time checks below guard the invariant.
*/
#include "model.h"

static int32_t *ret_slot(Machine *m, int32_t t)
{
	return m->ret_stack + (size_t)t * (size_t)m->ret_cap;
}

bool sem_rule_call(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	for (int32_t i = 0; i < n; i++)
		if (m->ret_depth[idx[i]] >= m->ret_cap) {
			sem_error(m, SEM_STUCK, "CL", pc, w->id, idx + i, 1,
			          "return stack overflow (%d calls deep): the call graph has a cycle",
			          m->ret_cap);
			return false;
		}
	for (int32_t i = 0; i < n; i++) {
		int32_t t = idx[i];
		ret_slot(m, t)[m->ret_depth[t]++] = pc + 1;
	}
	*rule = RULE_CL;
	m->model->go(m, w, pc, ins->target);
	return true;
}

bool sem_rule_ret(Machine *m, Warp *w, int32_t pc, Rule *rule)
{
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	bool same = true;
	for (int32_t i = 0; i < n; i++) {
		int32_t t = idx[i];
		if (sem_ret_depth(m, t) == 0) {
			sem_error(m, SEM_STUCK, "RT", pc, w->id, idx + i, 1,
			          "ret with an empty return stack: the thread is not in a function");
			return false;
		}
		m->ret_to[t] = ret_slot(m, t)[m->ret_depth[t] - 1];
		same = same && m->ret_to[t] == m->ret_to[idx[0]];
	}
	if (!same && !m->model->ret_split) {
		Buf b = {0};
		buf_puts(&b, "the active threads return to different pcs:");
		for (int32_t i = 0; i < n && i < 8; i++) {
			buf_printf(&b, " %d to ", idx[i]);
			ir_print_where(&b, m->prog, m->ret_to[idx[i]]);
		}
		sem_error(m, SEM_STUCK, "RS", pc, w->id, idx, n,
		          "%s%s; the %s model never groups threads of different calls (an internal error)",
		          buf_str(&b), n > 8 ? " ..." : "", m->model->name);
		buf_free(&b);
		return false;
	}
	for (int32_t i = 0; i < n; i++)
		m->ret_depth[idx[i]]--;
	if (same) {
		*rule = RULE_RT;
		/* no active thread (tf:sandy's zero-lane blocks): the model ignores the target */
		m->model->go(m, w, pc, n ? m->ret_to[idx[0]] : pc + 1);
		return true;
	}
	*rule = RULE_RS;
	return m->model->ret_split(m, w, pc, rule);
}

bool sem_ret_group(const Machine *m, const Warp *w, uint64_t *rest, int32_t *to, uint64_t *group)
{
	int32_t best = -1;
	BitIter it = bits_iter(rest, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
		int32_t r = m->ret_to[w->base + l];
		if (best < 0 || r < best)
			best = r;
	}
	if (best < 0)
		return false;
	bits_clear(group, w->nw);
	it = bits_iter(rest, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
		if (m->ret_to[w->base + l] == best)
			bit_set(group, l);
	bits_andnot(rest, group, w->nw);
	*to = best;
	return true;
}

int32_t sem_return_point(const Machine *m, const Warp *w)
{
	if (!m->ret_cap)
		return -1;
	int32_t r = -1;
	BitIter it = bits_iter(w->active, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
		int32_t t = w->base + l, d = m->ret_depth[t];
		if (d == 0)
			return -1;
		int32_t x = sem_ret_pc(m, t, d - 1);
		if (r >= 0 && x != r)
			return -1;
		r = x;
	}
	return r;
}

void sem_print_ret_stack(Buf *b, const Machine *m, int32_t t)
{
	buf_putc(b, '[');
	for (int32_t k = 0; k < sem_ret_depth(m, t); k++) {
		if (k)
			buf_puts(b, ", ");
		ir_print_where(b, m->prog, sem_ret_pc(m, t, k));
	}
	buf_putc(b, ']');
}
