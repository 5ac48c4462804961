/*
** mimd.c — every thread is a warp of one and there is no stack: the
** reference for termination (explore.md §2). Syncs are ignored (NOP).
*/
#include "model.h"

/* A warp of one never diverges: BT or BF. */
static bool rule_branch(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	uint64_t *jmp = m->step_active + w->nw, *fall = m->step_active + 2 * w->nw;
	if (!sem_split(m, w, pc, ins, jmp, fall))
		return false;
	return model_uniform_go(m, w, pc, ins, !bits_empty(jmp, w->nw), rule);
}

static bool rule_finish(Machine *m, Warp *w, int32_t pc, bool stop, Rule *rule)
{
	(void)pc;
	*rule = stop ? RULE_SF : RULE_EX;
	sem_finish_threads(m, w, w->live);
	sem_warp_done(m, w);
	return true;
}

const Model model_mimd = {
	.name = "mimd",
	.summary = "every thread its own warp: no reconvergence, the reference for termination",
	.stack_name = NULL,
	.pushed_by = -1,
	.warps_of_one = true,
	.cohorts = true,
	.uniform_branch_go = true,
	.uniform_branch = model_uniform_go,
	.branch = rule_branch,
	.sync = model_sync_nop,
	.finish = rule_finish,
	.go = model_go_along,
	.go_cohort = model_go_along_cohort,
};
