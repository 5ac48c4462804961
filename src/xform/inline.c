/*
** inline.c — calls inlined (musimd-lang(7), Functions): the program
** every analysis consumer reads (gsa, analyze, emit-llvm, emit-promela,
** syncs, deadlock, sm, transform), one CFG without calls, and `musimd
** transform inline`.
**
** An instance of function f is a copy of f's region (calls.c) in ascending
** pc order — a fall-through stays inside a region, so the copy keeps every
** fall-through — with its branch targets mapped into the copy, each `ret`
** a jump to the instruction after the call, and each `call g` replaced by
** an instance of g (a jump to g's entry first when the entry is not the
** region's first pc). Main is instance 0. Code that no region reaches
** (unreachable) is left out. No recursion (calls.c), so this terminates;
** the size is computed first (a function's size: its region plus its
** callees' sizes), and a program that would grow beyond INLINE_MAX_INS
** instructions is refused with a message. The walk keeps an explicit
** stack of the instances being copied (no recursion in C either).
**
** Every instruction of the result keeps the source location of the one it
** copies (diagnostics and reports name the original lines); `origin` maps
** its pc to that instruction's pc.
*/
#include "xform.h"

#include "cfg.h"

#include <stdlib.h>
#include <string.h>

typedef struct Frame {
	int32_t f;        /* the function */
	int32_t id;       /* the instance's number (main 0, then in order) */
	int32_t pos;      /* next index into its region */
	int32_t *map;     /* region index → new pc (-1: not yet) */
	int32_t *rets;    /* new pcs of its rets' jumps, patched to the continuation */
	int32_t nrets, caprets;
} Frame;

typedef struct Fixup {
	int32_t pc;       /* new pc of a branch or jump */
	int32_t frame;    /* depth of its instance's frame */
	int32_t target;   /* the old target */
} Fixup;

static Opnd copy_opnd(Program *q, const Program *p, const Opnd *o)
{
	Opnd c = *o;
	if (o->kind == OPND_LIT) {
		VEC_PUSH(q->lits, q->nlits, q->caplits, num_copy(p->lits[o->lit]));
		c.lit = q->nlits - 1;
	}
	return c;
}

static void copy_directives(Program *q, const Program *p)
{
	q->kernel = p->kernel ? xstrdup(p->kernel) : NULL;
	q->threads = p->threads;
	q->warpsize = p->warpsize;
	q->memory_zero = p->memory_zero;
	for (int32_t v = 0; v < p->nvars; v++) {
		const Var *var = &p->vars[v];
		int32_t u = ir_var(q, var->name, strlen(var->name), var->loc);
		q->vars[u].is_param = var->is_param;
		q->vars[u].has_value = var->has_value;
		q->vars[u].value = var->has_value ? num_copy(var->value) : NUM_I(0);
	}
	for (int32_t i = 0; i < p->ndata; i++)
		ir_add_data(q, p->data[i].addr, p->data[i].count, num_copy(p->data[i].value), p->data[i].loc);
}

/* The instructions of the result: saturating, functions by height. */
static int64_t inlined_size(const Program *p, const Cfg *g, const int32_t *roff, const int32_t *rlist)
{
	int32_t nf = g->nfuncs;
	int64_t *size = xcalloc((size_t)nf, sizeof *size);
	int32_t *order = xmalloc((size_t)nf * sizeof *order);
	for (int32_t f = 0; f < nf; f++)
		order[f] = f;
	/* by height, ascending (insertion: functions are few) */
	for (int32_t i = 1; i < nf; i++)
		for (int32_t j = i; j > 0 && g->func_height[order[j]] < g->func_height[order[j - 1]]; j--) {
			int32_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int32_t i = 0; i < nf; i++) {
		int32_t f = order[i];
		int64_t s = roff[f + 1] - roff[f];
		if (s > 0 && rlist[roff[f]] != g->func_entry[f])
			s++;
		for (int32_t k = roff[f]; k < roff[f + 1]; k++) {
			const Ins *ins = &p->ins[rlist[k]];
			if (ins->op == OP_CALL) {
				int32_t c = cfg_func_at(g, ins->target);
				s += size[c] - 1;
				if (s > INT32_MAX)
					s = INT32_MAX;
			}
		}
		size[f] = s;
	}
	int64_t total = size[0];
	free(size);
	free(order);
	return total;
}

/* Every target of the result gets a label (the GSA construction names
** targets by label), and so does every copy of a labelled instruction: its
** label and the copy's instance, "F.2"; a target without one "__pcN". */
static void name_targets(Program *q, const Program *p, const int32_t *origin, const int32_t *inst)
{
	bool *target = xcalloc((size_t)q->nins + 1, sizeof *target);
	for (int32_t pc = 0; pc < q->nins; pc++)
		if (ir_has_target((Op)q->ins[pc].op) && q->ins[pc].target >= 0)
			target[q->ins[pc].target] = true;
	Buf name = {0};
	for (int32_t pc = 0; pc < q->nins; pc++) {
		const char *l = ir_label_of(p, origin[pc]);
		if (q->ins[pc].label >= 0 || (!target[pc] && (!l || inst[pc] == 0)))
			continue;
		name.len = 0;
		if (l)
			buf_printf(&name, "%s.%d", l, (int)inst[pc]);
		else
			buf_printf(&name, "__pc%d", (int)pc);
		while (ir_find_label(q, buf_str(&name)) >= 0) /* a user's label of that name */
			buf_putc(&name, '_');
		int32_t k = ir_label(q, buf_str(&name), name.len, q->ins[pc].loc);
		q->labels[k].ins = pc;
		q->ins[pc].label = k;
	}
	buf_free(&name);
	free(target);
}

Program *xform_inline(const Program *p, int32_t *nins_out, int32_t **origin_out, Diags *d)
{
	const Cfg *g = p->cfg;
	int32_t n = p->nins, nf = g->nfuncs;
	/* the regions as lists of pcs, ascending, by function */
	int32_t *roff = xcalloc((size_t)nf + 1, sizeof *roff);
	int32_t *ridx = xmalloc(((size_t)n + 1) * sizeof *ridx);
	for (int32_t pc = 0; pc < n; pc++) {
		int32_t f = g->func_of[g->block_of[pc]];
		if (f >= 0)
			roff[f + 1]++;
	}
	for (int32_t f = 0; f < nf; f++)
		roff[f + 1] += roff[f];
	int32_t *rlist = xmalloc(((size_t)roff[nf] + 1) * sizeof *rlist);
	int32_t *fill = xmalloc((size_t)nf * sizeof *fill);
	memcpy(fill, roff, (size_t)nf * sizeof *fill);
	for (int32_t pc = 0; pc < n; pc++) {
		int32_t f = g->func_of[g->block_of[pc]];
		ridx[pc] = -1;
		if (f >= 0) {
			ridx[pc] = fill[f] - roff[f];
			rlist[fill[f]++] = pc;
		}
	}
	free(fill);
	int64_t total = inlined_size(p, g, roff, rlist);
	if (total > INLINE_MAX_INS) {
		diag_error(d, LOC_NONE,
		           "inlining the calls would make %lld instructions, more than the limit of %d: the "
		           "analyses read programs with their calls inlined (musimd-lang(7), Functions)",
		           (long long)total, INLINE_MAX_INS);
		free(roff), free(ridx), free(rlist);
		return NULL;
	}

	Program *q = ir_new(p->path, p->src, p->srclen);
	copy_directives(q, p);
	ir_reserve(q, (int32_t)total, 0);
	int32_t *origin = xmalloc(((size_t)total + 1) * sizeof *origin);
	int32_t *inst = xmalloc(((size_t)total + 1) * sizeof *inst), ninst = 0; /* per pc: its instance */
	Frame *fr = xmalloc(((size_t)g->max_call_depth + 1) * sizeof *fr);
	Fixup *fix = NULL;
	int32_t nfix = 0, capfix = 0, top = 0;
	/* main's labels name their instructions in the result too */
	int32_t *label_at = xmalloc(((size_t)n + 1) * sizeof *label_at);
	for (int32_t pc = 0; pc < n; pc++)
		label_at[pc] = -1;
	for (int32_t i = p->nlabels - 1; i >= 0; i--)
		if (p->labels[i].ins >= 0 && p->labels[i].ins < n)
			label_at[p->labels[i].ins] = i;

	fr[0] = (Frame){0, 0, 0, NULL, NULL, 0, 0};
	fr[0].map = xmalloc(((size_t)(roff[1] - roff[0]) + 1) * sizeof(int32_t));
	while (top >= 0) {
		Frame *F = &fr[top];
		int32_t len = roff[F->f + 1] - roff[F->f];
		if (F->pos == len) { /* the instance is done: its rets go on after it */
			for (int32_t i = 0; i < F->nrets; i++)
				q->ins[F->rets[i]].target = q->nins;
			for (; nfix > 0 && fix[nfix - 1].frame == top; nfix--) {
				const Fixup *x = &fix[nfix - 1];
				q->ins[x->pc].target = F->map[ridx[x->target]];
			}
			free(F->map);
			free(F->rets);
			top--;
			continue;
		}
		int32_t pc = rlist[roff[F->f] + F->pos];
		const Ins *ins = &p->ins[pc];
		F->map[F->pos++] = q->nins;
		if (ins->op == OP_CALL) { /* an instance of the callee, here */
			int32_t c = cfg_func_at(g, ins->target);
			Frame *C = &fr[++top];
			*C = (Frame){c, ++ninst, 0, NULL, NULL, 0, 0};
			C->map = xmalloc(((size_t)(roff[c + 1] - roff[c]) + 1) * sizeof(int32_t));
			if (rlist[roff[c]] != ins->target) {
				Ins j = ir_ins_init(OP_JUMP, ins->loc);
				ir_set_target_loc(&j, ir_target_loc(ins));
				origin[q->nins] = pc;
				inst[q->nins] = C->id;
				VEC_PUSH(fix, nfix, capfix, ((Fixup){ir_append(q, &j), top, ins->target}));
			}
			continue;
		}
		Ins c = *ins;
		c.label = -1;
		c.target_label = -1;
		c.a = copy_opnd(q, p, &ins->a);
		c.b = copy_opnd(q, p, &ins->b);
		c.c = copy_opnd(q, p, &ins->c);
		if (ins->nargs > 0) {
			c.args = xmalloc((size_t)ins->nargs * sizeof *c.args);
			for (int32_t k = 0; k < ins->nargs; k++)
				c.args[k] = copy_opnd(q, p, &ins->args[k]);
		}
		if (ins->op == OP_RET) {
			c.op = OP_JUMP;
			c.target = -1;
		}
		if (top == 0 && label_at[pc] >= 0) {
			const Label *l = &p->labels[label_at[pc]];
			ir_define_label(q, ir_label(q, l->name, strlen(l->name), l->loc), l->loc, d);
		}
		origin[q->nins] = pc;
		inst[q->nins] = F->id;
		int32_t at = ir_append(q, &c);
		if (ins->op == OP_RET)
			VEC_PUSH(F->rets, F->nrets, F->caprets, at);
		else if (ir_has_target((Op)ins->op) && ins->target >= 0)
			VEC_PUSH(fix, nfix, capfix, ((Fixup){at, top, ins->target}));
	}
	name_targets(q, p, origin, inst);
	free(inst);
	free(fix);
	free(fr);
	free(label_at);
	free(roff), free(ridx), free(rlist);
	ir_finish(q, d);
	q->cfg = cfg_build(q);
	calls_build(q, q->cfg, d);
	*nins_out = q->nins;
	*origin_out = origin;
	return q;
}

static bool run_inline(const Program *p, const XformOptions *o, Buf *out, XformResult *res, Diags *d)
{
	(void)o;
	int32_t n = 0, *origin = NULL;
	Program *q = p->has_calls ? xform_inline(p, &n, &origin, d) : NULL;
	if (p->has_calls && !q)
		return false;
	int32_t calls = 0;
	for (int32_t pc = 0; pc < p->nins; pc++)
		calls += p->ins[pc].op == OP_CALL;
	buf_printf(out, "# musimd transform inline: %d call%s inlined (musimd-lang(7), Functions)\n", calls,
	           calls == 1 ? "" : "s");
	ir_print(out, q ? q : p);
	res->changes = calls;
	if (q)
		ir_free(q);
	free(origin);
	return true;
}

const Xform xform_inline_calls = {
	.name = "inline",
	.summary = "calls inlined: each call replaced by a copy of its function, each ret by a jump "
	           "back (the program every analysis reads)",
	.run = run_inline,
};
