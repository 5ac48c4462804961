/*
** calls.c — the functions of a program with `call` and `ret`
** (musimd-lang(7), Functions): their regions in the intraprocedural
** graph, the call graph, and the checks that make every run's return
** stacks bounded and never empty at a ret:
**
**  - a function is the code reachable from its entry (a call target)
**    without following calls, up to its rets; main is the code reachable
**    from pc 0 the same way. Regions must be disjoint: a jump from one
**    function into another's code (or main's) is an error, so every
**    instruction belongs to one function and a group of threads at one
**    pc is in one function;
**  - no ret in main's region: a thread there has an empty return stack,
**    so a run can never pop an empty one (decided statically);
**  - no recursion: a cycle of the call graph is an error naming the
**    cycle. So the longest chain of calls bounds every return stack.
*/
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

int32_t cfg_func_at(const Cfg *g, int32_t pc)
{
	for (int32_t f = 0; f < g->nfuncs; f++)
		if (g->func_entry[f] == pc)
			return f;
	return -1;
}

void cfg_print_func(Buf *b, const Program *p, const Cfg *g, int32_t f)
{
	if (f == 0)
		buf_puts(b, "main");
	else if (ir_label_of(p, g->func_entry[f]))
		buf_puts(b, ir_label_of(p, g->func_entry[f]));
	else
		ir_print_where(b, p, g->func_entry[f]);
}

static int cmp_i32(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
	return (a > b) - (a < b);
}

/* The regions: a breadth-first walk of the intraprocedural graph from each
** function's entry. A block another function already owns is reported once
** per function. */
static void regions(const Program *p, Cfg *g, Diags *d)
{
	int32_t nb = g->nblocks;
	int32_t *queue = xmalloc((size_t)nb * sizeof *queue);
	for (int32_t f = 0; f < g->nfuncs; f++) {
		int32_t e = g->block_of[g->func_entry[f]];
		if (g->func_of[e] >= 0) {
			Buf a = {0}, o = {0};
			cfg_print_func(&a, p, g, f);
			cfg_print_func(&o, p, g, g->func_of[e]);
			diag_error(d, p->ins[g->func_entry[f]].loc,
			           "function '%s' starts inside %s%s%s: a function must not share code with main or "
			           "another function",
			           buf_str(&a), g->func_of[e] ? "function '" : "", buf_str(&o), g->func_of[e] ? "'" : "");
			buf_free(&a);
			buf_free(&o);
			continue;
		}
		int32_t head = 0, tail = 0;
		g->func_of[e] = f;
		queue[tail++] = e;
		bool reported = false;
		while (head < tail) {
			const Block *bb = &g->blocks[queue[head++]];
			for (int32_t k = 0; k < bb->nsucc; k++) {
				int32_t s = bb->succ[k];
				if (s >= nb || g->func_of[s] == f)
					continue;
				if (g->func_of[s] < 0) {
					g->func_of[s] = f;
					queue[tail++] = s;
				} else if (!reported) {
					reported = true;
					Buf a = {0}, o = {0};
					cfg_print_func(&a, p, g, f);
					cfg_print_func(&o, p, g, g->func_of[s]);
					diag_error(d, p->ins[bb->last].loc,
					           "this goes from the code of %s%s%s into the code of %s%s%s: a function "
					           "must not share code with main or another function (a function is "
					           "the code reachable from its entry without following calls, up to "
					           "its rets)",
					           f ? "function '" : "", buf_str(&a), f ? "'" : "",
					           g->func_of[s] ? "function '" : "", buf_str(&o), g->func_of[s] ? "'" : "");
					buf_free(&a);
					buf_free(&o);
				}
			}
		}
	}
	free(queue);
}

/* A cycle of the call graph, found as a back edge u → v of the walk: the
** calls on the walk's stack from v to u, then u's call of v. */
static void report_cycle(const Program *p, const Cfg *g, const int32_t *stack_fn, const int32_t *stack_call,
                         int32_t from, int32_t top, int32_t call_pc, Diags *d)
{
	Buf cyc = {0};
	for (int32_t i = from; i <= top; i++) {
		cfg_print_func(&cyc, p, g, stack_fn[i]);
		buf_puts(&cyc, " -> ");
	}
	cfg_print_func(&cyc, p, g, stack_fn[from]);
	const Ins *ins = &p->ins[call_pc];
	Loc at = ir_target_loc(ins);
	if (at.off < 0)
		at = ins->loc;
	if (from == top)
		diag_error(d, at, "recursive call: %s (a function may not call itself, directly or not: "
		                  "μ-SIMD has no recursion)",
		           buf_str(&cyc));
	else
		diag_error(d, at, "recursive calls: %s (a function may not call itself, directly or not: "
		                  "μ-SIMD has no recursion)",
		           buf_str(&cyc));
	for (int32_t i = from + 1; i <= top; i++)
		diag_note(d, p->ins[stack_call[i]].loc, "the call that enters the cycle's next function");
	buf_free(&cyc);
}

void calls_build(const Program *p, Cfg *g, Diags *d)
{
	int32_t nb = g->nblocks;
	g->func_of = xmalloc(((size_t)nb + 1) * sizeof *g->func_of);
	for (int32_t b = 0; b <= nb; b++)
		g->func_of[b] = -1;
	/* the functions: main, then the call targets ascending */
	int32_t n = 0, cap = 0, *entry = NULL;
	VEC_PUSH(entry, n, cap, 0);
	for (int32_t pc = 0; pc < p->nins; pc++)
		if (p->ins[pc].op == OP_CALL && p->ins[pc].target > 0)
			VEC_PUSH(entry, n, cap, p->ins[pc].target);
	qsort(entry + 1, (size_t)n - 1, sizeof *entry, cmp_i32);
	int32_t u = n > 1 ? 2 : n;
	for (int32_t i = 2; i < n; i++)
		if (entry[i] != entry[u - 1])
			entry[u++] = entry[i];
	g->nfuncs = u;
	g->func_entry = entry;
	if (nb == 0)
		return;
	int32_t errs = d->nerrors;
	for (int32_t pc = 0; pc < p->nins; pc++)
		if (p->ins[pc].op == OP_CALL && p->ins[pc].target == 0)
			diag_error(d, ir_target_loc(&p->ins[pc]),
			           "call of the kernel's first instruction: main is not a function (it has no "
			           "ret)");
	regions(p, g, d);
	for (int32_t b = 0; b < nb; b++) {
		const Ins *last = &p->ins[g->blocks[b].last];
		if (g->func_of[b] == 0 && last->op == OP_RET)
			diag_error(d, last->loc,
			           "ret outside a function: it is reachable from the kernel's start without a "
			           "call, where the return stack is empty");
	}
	if (d->nerrors > errs)
		return;

	/* the call graph (CSR: the calls of each function, in program order) */
	int32_t nf = g->nfuncs;
	int32_t *off = xcalloc((size_t)nf + 1, sizeof *off);
	for (int32_t b = 0; b < nb; b++)
		if (g->blocks[b].callee >= 0 && g->func_of[b] >= 0)
			off[g->func_of[b] + 1]++;
	for (int32_t f = 0; f < nf; f++)
		off[f + 1] += off[f];
	int32_t *fill = xmalloc((size_t)nf * sizeof *fill);
	memcpy(fill, off, (size_t)nf * sizeof *fill);
	int32_t *callee = xmalloc(((size_t)off[nf] + 1) * sizeof *callee);
	int32_t *call_pc = xmalloc(((size_t)off[nf] + 1) * sizeof *call_pc);
	for (int32_t b = 0; b < nb; b++)
		if (g->blocks[b].callee >= 0 && g->func_of[b] >= 0) {
			int32_t f = g->func_of[b], k = fill[f]++;
			callee[k] = g->func_of[g->blocks[b].callee];
			call_pc[k] = g->blocks[b].last;
		}

	/* depth-first walk without recursion: a call of a function still on the
	** walk's stack closes a cycle; otherwise the finishing order lists every
	** function after its callees, and the heights (the longest chain of
	** calls below a function) follow in that order */
	uint8_t *colour = xcalloc((size_t)nf, 1); /* 0 new, 1 on the stack, 2 done */
	int32_t *height = xcalloc((size_t)nf, sizeof *height);
	int32_t *stack_fn = xmalloc((size_t)nf * sizeof *stack_fn);
	int32_t *stack_call = xmalloc((size_t)nf * sizeof *stack_call);
	int32_t *next = xmalloc((size_t)nf * sizeof *next);
	bool cyclic = false;
	for (int32_t root = 0; root < nf && !cyclic; root++) {
		if (colour[root])
			continue;
		int32_t top = 0;
		stack_fn[0] = root, stack_call[0] = -1, next[root] = off[root], colour[root] = 1;
		while (top >= 0 && !cyclic) {
			int32_t f = stack_fn[top];
			if (next[f] == off[f + 1]) {
				colour[f] = 2;
				for (int32_t k = off[f]; k < off[f + 1]; k++)
					if (height[callee[k]] + 1 > height[f])
						height[f] = height[callee[k]] + 1;
				if (height[f] > g->max_call_depth)
					g->max_call_depth = height[f];
				top--;
				continue;
			}
			int32_t k = next[f]++, c = callee[k];
			if (colour[c] == 1) {
				int32_t from = top;
				while (stack_fn[from] != c)
					from--;
				report_cycle(p, g, stack_fn, stack_call, from, top, call_pc[k], d);
				cyclic = true;
			} else if (colour[c] == 0) {
				top++;
				stack_fn[top] = c, stack_call[top] = call_pc[k], next[c] = off[c], colour[c] = 1;
			}
		}
	}
	free(colour);
	if (cyclic)
		free(height);
	else
		g->func_height = height;
	free(stack_fn);
	free(stack_call);
	free(next);
	free(off);
	free(fill);
	free(callee);
	free(call_pc);
}
