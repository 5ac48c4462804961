/*
** model.c — the table of reconvergence models and the control stack every
** model keeps its records in (model.h).
*/
#include "model.h"

#include <stdlib.h>
#include <string.h>

/* ORDER MODELS: models[] and model_names[] list the same models. */
const Model *const models[] = {&model_sync,    &model_ipdom, &model_mimd, &model_its_rr,
                               &model_its_any, &model_aware, &model_mp,   &model_tf, NULL};
const char *const model_names[] = {"sync", "ipdom", "mimd", "its:rr", "its:any", "aware", "mp", "tf", NULL};
_Static_assert(sizeof models / sizeof *models == MODEL_COUNT + 1, "MODEL_COUNT: the entries of models[]");
_Static_assert(sizeof model_names / sizeof *model_names == MODEL_COUNT + 1, "model_names: one per model");

void model_words(const char **words, const char *const *extra, bool variants)
{
	int n = 0;
	for (; model_names[n]; n++)
		words[n] = model_names[n];
	for (int i = 0; extra && extra[i] && n < MODEL_WORDS - 4; i++)
		words[n++] = extra[i];
	if (variants) {
		words[n++] = model_tf_sandy.name;
		words[n++] = model_tf_layout.name;
		words[n++] = "its:POLICY (musimd policies --help)";
	}
	words[n] = NULL;
}

const Model *model_find(const char *name)
{
	for (int i = 0; models[i]; i++)
		if (!strcmp(models[i]->name, name))
			return models[i];
	if (!strcmp(name, "its"))
		return &model_its_rr;
	if (!strcmp(name, "tf:sandy"))
		return &model_tf_sandy;
	if (!strcmp(name, "tf:layout"))
		return &model_tf_layout;
	return its_policy_find(name);
}

void model_help_line(Buf *b, int indent, int namew, int width, const char *name, const char *summary)
{
	int start = indent + namew + 1; /* the summaries' column */
	buf_printf(b, "%*s%-*s", indent, "", namew, name);
	int col = start - 1;
	for (const char *s = summary; *s;) {
		size_t w = strcspn(s, " ");
		if (col > start - 1 && col + 1 + (int)w > width) {
			buf_printf(b, "\n%*s", start, "");
			col = start;
		} else {
			buf_putc(b, ' ');
			col++;
		}
		buf_putn(b, s, w);
		col += (int)w;
		s += w;
		while (*s == ' ')
			s++;
	}
	buf_putc(b, '\n');
}

void model_help(Buf *b, int indent, int width, bool policies)
{
	for (int i = 0; models[i]; i++)
		model_help_line(b, indent, 8, width, models[i]->name, models[i]->summary);
	if (!policies)
		return;
	model_help_line(b, indent, 8, width, model_tf_sandy.name, model_tf_sandy.summary);
	model_help_line(b, indent, 8, width, model_tf_layout.name, model_tf_layout.summary);
	model_help_line(b, indent, 8, width, "its:P",
	                "a policy P of the per-thread-pc lab (Brandão's heuristics: minpc, lee, long:8, "
	                "postdom+minpc, ...; musimd policies --help lists them)");
}

const char *sem_model_name(const Model *model)
{
	return (model ? model : &model_sync)->name;
}

/* Heap bytes of one slot (for the --max-memory budget: a program without
** syncs can grow Π by a node per iteration). */
static uint64_t slot_bytes(const Warp *w)
{
	return w->ctl.rec_size + (uint64_t)w->ctl.nmask * (uint64_t)w->nw * sizeof(uint64_t);
}

void ctl_reserve(Machine *m, Warp *w, int32_t n)
{
	CtlStack *c = &w->ctl;
	while (c->cap < n) {
		int32_t grow = c->cap ? c->cap : 4;
		m->stack_bytes += (uint64_t)grow * slot_bytes(w);
		c->cap += grow;
		c->recs = xrealloc(c->recs, (size_t)c->cap * c->rec_size);
		c->masks = xrealloc(c->masks, (size_t)c->cap * c->nmask * (size_t)w->nw * sizeof *c->masks);
	}
}

bool model_uniform_go(Machine *m, Warp *w, int32_t pc, const Ins *ins, bool jump, Rule *rule)
{
	*rule = jump ? RULE_BT : RULE_BF;
	m->model->go(m, w, pc, jump ? ins->target : pc + 1);
	return true;
}

uint64_t model_go_along_cohort(Machine *m, const int32_t *warps, int32_t k, int32_t from, int32_t to)
{
	uint64_t entered = 0;
	bool enters = sem_enters_block(m, from, to), kept = enters && sem_edge_kept(m, from);
	for (int32_t i = 0; i < k; i++) {
		Warp *w = &m->warps[warps[i]];
		entered += w->entered;
		w->entered = enters; /* sem_take_edge's, without its tests per warp */
		if (kept)
			sem_keep_edge(m, w, from, w->active);
		w->pc = to;
	}
	return entered;
}

bool model_sync_nop(Machine *m, Warp *w, int32_t pc, int32_t ngsa, Rule *rule)
{
	(void)ngsa;
	*rule = RULE_NOP;
	m->model->go(m, w, pc, pc + 1);
	return true;
}

int32_t ctl_push(Machine *m, Warp *w)
{
	CtlStack *c = &w->ctl;
	ctl_reserve(m, w, c->n + 1);
	int32_t k = c->n++;
	memset(ctl_rec(w, k), 0, c->rec_size);
	if (c->nmask)
		bits_clear(ctl_mask(w, k, 0), c->nmask * w->nw);
	return k;
}

void model_finish_lanes(Machine *m, Warp *w, bool stop, Rule *rule)
{
	*rule = stop ? RULE_SF : RULE_EX;
	uint64_t *gone = m->step_active + w->nw;
	bits_copy(gone, w->active, w->nw);
	sem_finish_threads(m, w, gone);
	for (int32_t k = 0; k < w->ctl.n; k++)
		bits_andnot(ctl_mask(w, k, 0), gone, w->nw);
}

int model_branch_split(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule, uint64_t **jmp,
                       uint64_t **fall)
{
	*jmp = m->step_active + w->nw;
	*fall = m->step_active + 2 * w->nw;
	if (!sem_split(m, w, pc, ins, *jmp, *fall))
		return -1;
	bool none_jump = bits_empty(*jmp, w->nw), none_fall = bits_empty(*fall, w->nw);
	if (!none_jump && !none_fall) {
		*rule = RULE_BD;
		sem_take_edge(m, w, pc, pc + 1, *fall);
		sem_take_edge(m, w, pc, ins->target, *jmp);
		return 0;
	}
	bool taken = none_fall && !none_jump;
	*rule = taken ? RULE_BT : RULE_BF;
	m->model->go(m, w, pc, taken ? ins->target : pc + 1);
	return 1;
}
