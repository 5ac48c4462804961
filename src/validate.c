/*
** validate.c — the checks of language.md §5 that need the control-flow
** graph, and ir_load, the whole front end (parse → CFG → validate).
**
** Errors: a GSA instruction that is not at the start of a basic block, a φ
** whose operand count differs from the number of predecessors, a μ whose
** operand count differs from 1 + the number of back edges.
** Warnings: unreachable code; a variable that may be read before it is
** assigned (check_reads: a sparse must-be-assigned analysis).
*/
#include "bits.h"
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

static void check_gsa_placement(const Program *p, const Cfg *g, Diags *d)
{
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (!ir_is_gsa(ins->op))
			continue;
		int32_t b = g->block_of[pc];
		const Block *bb = &g->blocks[b];
		if (pc >= bb->first + bb->ngsa) {
			diag_error(d, ins->loc,
			           "%s must stand at the start of a basic block (a block starts at a "
			           "branch or jump target and after bz, bnz, jump, stop and exit)",
			           ir_op_name(ins->op));
			continue;
		}
		if (ins->op == OP_PHI && ins->nargs != bb->npred)
			diag_error(d, ins->loc, "phi has %d operand%s but its block has %d predecessor%s",
			           ins->nargs, ins->nargs == 1 ? "" : "s", bb->npred, bb->npred == 1 ? "" : "s");
		if (ins->op == OP_MU) {
			int32_t want = cfg_mu_arity(g, b);
			if (want == 1)
				diag_error(d, ins->loc,
				           "mu outside a loop header: no edge into this block comes from a block "
				           "it dominates");
			else if (ins->nargs != want)
				diag_error(d, ins->loc,
				           "mu has %d operands but this loop header needs %d (the entry value, "
				           "then one per back edge)",
				           ins->nargs, want);
		}
	}
}

/* ---- may a variable be read before it is assigned? ------------------------------ */

/* A read of v may see v unassigned when some path from the program's start
** to it passes no assignment of v (parameters are assigned on entry). The
** check is sparse, per read, in two steps, so that it takes time and space
** near-linear in the program, however many variables and blocks it has:
**
**  1. a walk of the dominator tree, counting per variable the assignments
**     in the blocks above, settles every read that an assignment dominates
**     (an assignment earlier in its block, or in a dominating block);
**  2. for each variable, its other reads in program traversal order: a
**     search backwards from the read's block, through blocks that do not
**     assign v, reaching the entry block means a path without assignment.
**     Blocks a variable's earlier searches explored are not explored again
**     (they cannot reach the entry), so each variable costs at most the
**     blocks where it is live without a dominating assignment.
**
** As before, one warning per variable, at its first such read in the
** order: blocks in reverse post-order; in a block the μ/φ operands of its
** incoming edges first (by instruction, then predecessor; the entry value
** of a μ in the first block last), then the instructions' operands. μ/φ
** operands are read at the end of the predecessor their edge comes from;
** of γ and η only the predicate is read on every path; the GSA group at
** the start of a block assigns its destinations together, after it.
**
** Calls: a `call` assigns the variables its function assigns on every path
** from its entry to a `ret` (call_summaries, the functions' own calls
** included), so a value a function sets is assigned after the call. The
** graph has no edge from a `ret` back to the caller, so a search from a
** read inside a function stops at the function's entry: such reads do not
** warn (whether the caller assigned the variable before the call is not
** looked at). */

typedef struct Read {
	const Opnd *o;
	int32_t var;
	int32_t from;      /* the search starts at this block's entry */
	int32_t rpo;       /* position of the block the read belongs to, in reverse post-order */
	int32_t pc;        /* instruction (edge reads: the μ/φ) */
	int32_t sub;       /* 0: μ/φ operand on an edge, 1: an instruction's operand */
	int32_t seq;       /* order within (rpo, sub, pc): predecessor or operand */
	bool certain;      /* read on entry (the first block's μ): unassigned unless a parameter */
} Read;

static int cmp_read_order(const Read *a, const Read *b)
{
	if (a->rpo != b->rpo)
		return a->rpo < b->rpo ? -1 : 1;
	if (a->sub != b->sub)
		return a->sub < b->sub ? -1 : 1;
	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static int cmp_read_var(const void *pa, const void *pb)
{
	const Read *a = pa, *b = pb;
	if (a->var != b->var)
		return a->var < b->var ? -1 : 1;
	return cmp_read_order(a, b);
}

typedef struct Vars {
	int32_t *v;
	int32_t n, cap;
} Vars;

/* Per function f, the variables assigned on every path from its entry to
** a `ret` (a function that never returns: all of them), as nwords-word bit
** sets at f * nwords: a forward must-analysis over each function's blocks,
** callees first (ascending Cfg.func_height), a call adding its callee's
** set. NULL for a program without calls or whose calls are in error. */
static uint64_t *call_summaries(const Program *p, const Cfg *g, int32_t nwords)
{
	if (!p->has_calls || g->nfuncs <= 1 || !g->func_height || !g->func_of)
		return NULL;
	int32_t nf = g->nfuncs, nb = g->nblocks;
	size_t w = (size_t)nwords;
	uint64_t *sum = xmalloc((size_t)nf * w * sizeof *sum);
	memset(sum, 0xff, (size_t)nf * w * sizeof *sum);
	uint64_t *out = xmalloc((size_t)nb * w * sizeof *out), *in = xmalloc(w * sizeof *in);
	int32_t *order = xmalloc((size_t)nf * sizeof *order);
	for (int32_t f = 0; f < nf; f++)
		order[f] = f;
	for (int32_t i = 1; i < nf; i++) /* insertion sort by height: nf is small */
		for (int32_t j = i; j > 0 && g->func_height[order[j - 1]] > g->func_height[order[j]]; j--) {
			int32_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int32_t i = 0; i < nf; i++) {
		int32_t f = order[i];
		if (f == 0)
			continue;
		int32_t entry = g->block_of[g->func_entry[f]];
		for (int32_t k = 0; k < g->nrpo; k++)
			if (g->func_of[g->rpo[k]] == f)
				memset(out + (size_t)g->rpo[k] * w, 0xff, w * sizeof *out);
		for (bool changed = true; changed;) {
			changed = false;
			for (int32_t k = 0; k < g->nrpo; k++) {
				int32_t b = g->rpo[k];
				if (g->func_of[b] != f)
					continue;
				const Block *bb = &g->blocks[b];
				if (b == entry) {
					memset(in, 0, w * sizeof *in);
				} else {
					memset(in, 0xff, w * sizeof *in);
					for (int32_t j = 0; j < bb->npred; j++)
						if (g->blocks[bb->pred[j]].reachable)
							for (size_t x = 0; x < w; x++)
								in[x] &= out[(size_t)bb->pred[j] * w + x];
				}
				for (int32_t pc = bb->first; pc <= bb->last; pc++)
					if (p->ins[pc].dst >= 0)
						bit_set(in, p->ins[pc].dst);
				if (bb->callee >= 0 && g->func_of[bb->callee] > 0)
					for (size_t x = 0; x < w; x++)
						in[x] |= sum[(size_t)g->func_of[bb->callee] * w + x];
				if (memcmp(in, out + (size_t)b * w, w * sizeof *in)) {
					memcpy(out + (size_t)b * w, in, w * sizeof *in);
					changed = true;
				}
			}
		}
		for (int32_t k = 0; k < g->nrpo; k++) {
			int32_t b = g->rpo[k];
			if (g->func_of[b] == f && p->ins[g->blocks[b].last].op == OP_RET)
				for (size_t x = 0; x < w; x++)
					sum[(size_t)f * w + x] &= out[(size_t)b * w + x];
		}
	}
	free(order);
	free(in);
	free(out);
	return sum;
}

typedef struct Reads {
	const Program *p;
	const Cfg *g;
	const uint64_t *sum; /* call_summaries, or NULL */
	int32_t nwords;
	int32_t *above;    /* per variable: assigning blocks among the dominators walked */
	int32_t *here;     /* per variable: the block that has assigned it so far, in the walk */
	int32_t *rpo_of;   /* block → position in reverse post-order */
	Read *r;
	int32_t n, cap;
} Reads;

/* The function the call at pc (in block b) enters, when its summary is
** known; else 0. */
static int32_t call_func(const Reads *R, int32_t b, int32_t pc)
{
	if (!R->sum || R->p->ins[pc].op != OP_CALL || R->g->blocks[b].callee < 0)
		return 0;
	return R->g->func_of[R->g->blocks[b].callee];
}

/* Step 1 for one read: keep it unless an assignment dominates it. */
static void note_read(Reads *R, const Opnd *o, int32_t blk, int32_t from, int32_t rpo_blk, int32_t pc,
                      int32_t sub, int32_t seq, bool certain)
{
	if (o->kind != OPND_VAR)
		return;
	int32_t v = o->var;
	if (R->p->vars[v].is_param)
		return;
	if (!certain && (R->above[v] > 0 || R->here[v] == blk))
		return;
	Read x = {o, v, from, R->rpo_of[rpo_blk], pc, sub, seq, certain};
	VEC_PUSH(R->r, R->n, R->cap, x);
}

/* The μ/φ operands read on the edges out of block q (whose assignments are
** all made by then: R->here marks them). */
static void note_edge_reads(Reads *R, int32_t q)
{
	const Cfg *g = R->g;
	const Block *bq = &g->blocks[q];
	for (int32_t k = 0; k < bq->nsucc; k++) {
		int32_t s = bq->succ[k];
		if (s >= g->nblocks || (k == 1 && s == bq->succ[0]))
			continue;
		const Block *bs = &g->blocks[s];
		int32_t j = bq->succ_phi[k];
		for (int32_t pc = bs->first; pc < bs->first + bs->ngsa; pc++) {
			const Ins *ins = &R->p->ins[pc];
			if (ins->op != OP_MU && ins->op != OP_PHI)
				continue;
			int32_t ix = ins->op == OP_PHI ? j : bs->mu_index ? bs->mu_index[j] : 0;
			if (ix < ins->nargs)
				note_read(R, &ins->args[ix], q, q, s, pc, 0, j, false);
		}
	}
}

/* Step 1 for block b: its own reads, then its assignments (counted for the
** blocks it dominates), then the reads on its outgoing edges. The
** variables b assigns are pushed on defs (each once). */
static void note_block_reads(Reads *R, int32_t b, Vars *defs)
{
	const Program *p = R->p;
	const Block *bb = &R->g->blocks[b];
	int32_t gend = bb->first + bb->ngsa - 1;
	if (b == 0)
		for (int32_t pc = bb->first; pc <= gend; pc++)
			if (p->ins[pc].op == OP_MU && p->ins[pc].nargs > 0)
				note_read(R, &p->ins[pc].args[0], b, b, b, pc, 0, bb->npred, true);
	for (int32_t pc = bb->first; pc <= bb->last; pc++) {
		const Ins *ins = &p->ins[pc];
		if (!ir_is_gsa(ins->op)) {
			note_read(R, &ins->a, b, b, b, pc, 1, 0, false);
			note_read(R, &ins->b, b, b, b, pc, 1, 1, false);
			note_read(R, &ins->c, b, b, b, pc, 1, 2, false);
		} else if (ins->op == OP_GAMMA || ins->op == OP_ETA) {
			note_read(R, &ins->a, b, b, b, pc, 1, 0, false);
		}
		if (ins->dst >= 0 && pc > gend && R->here[ins->dst] != b) {
			R->here[ins->dst] = b;
			VEC_PUSH(defs->v, defs->n, defs->cap, ins->dst);
		}
		int32_t f = call_func(R, b, pc);
		if (f > 0) {
			BitIter it = bits_iter(R->sum + (size_t)f * (size_t)R->nwords, R->nwords);
			for (int32_t v; (v = bits_iter_next(&it)) >= 0 && v < R->p->nvars;)
				if (R->here[v] != b) {
					R->here[v] = b;
					VEC_PUSH(defs->v, defs->n, defs->cap, v);
				}
		}
		if (pc == gend)
			for (int32_t j = bb->first; j <= gend; j++) {
				int32_t v = p->ins[j].dst;
				if (v >= 0 && R->here[v] != b) {
					R->here[v] = b;
					VEC_PUSH(defs->v, defs->n, defs->cap, v);
				}
			}
	}
	note_edge_reads(R, b);
}

/* Step 1: the dominator tree in pre-order (Block.dom_pre), keeping the
** counts of the blocks on the path from the root. */
static void collect_reads(Reads *R)
{
	const Cfg *g = R->g;
	int32_t nb = g->nblocks;
	int32_t *order = xmalloc((size_t)nb * sizeof *order);
	int32_t norder = 0;
	for (int32_t b = 0; b < nb; b++)
		if (g->blocks[b].dom_pre >= 0 && g->blocks[b].dom_pre < nb) {
			order[g->blocks[b].dom_pre] = b;
			norder++;
		}
	Vars defs = {0};         /* variables assigned by the open blocks, block after block */
	int32_t *open = xmalloc((size_t)nb * sizeof *open);   /* open blocks (the path) */
	int32_t *mark = xmalloc((size_t)nb * sizeof *mark);   /* where each one's defs start */
	int32_t nopen = 0;
	for (int32_t i = 0; i < norder; i++) {
		int32_t b = order[i];
		while (nopen > 0 && g->blocks[open[nopen - 1]].dom_last < i) {
			nopen--;
			while (defs.n > mark[nopen])
				R->above[defs.v[--defs.n]]--;
		}
		mark[nopen] = defs.n;
		open[nopen++] = b;
		note_block_reads(R, b, &defs);
		for (int32_t k = mark[nopen - 1]; k < defs.n; k++)
			R->above[defs.v[k]]++;
	}
	free(defs.v);
	free(open);
	free(mark);
	free(order);
}

/* Step 2: the assigning blocks of v (reachable ones, in dominator-tree
** pre-order), marked in assigns[] with v; seen[] marks with v the blocks
** v's searches explored. */
typedef struct Defs {
	const int32_t *blk;
	int32_t n;
	int32_t v;
	const int32_t *assigns;
	int32_t *seen, *stack;
} Defs;

/* The lowest strict dominator of y whose dominator subtree holds an
** assignment of v, or -1: the deepest of y's nearest common dominators with
** the assigning blocks, which is reached with the assigning blocks next to
** y in pre-order. */
static int32_t assigned_below(const Cfg *g, const Defs *D, int32_t y)
{
	int32_t pre = g->blocks[y].dom_pre, lo = 0, hi = D->n;
	while (lo < hi) { /* first assigning block after y in pre-order */
		int32_t mid = lo + (hi - lo) / 2;
		if (g->blocks[D->blk[mid]].dom_pre <= pre)
			lo = mid + 1;
		else
			hi = mid;
	}
	int32_t best = -1;
	for (int32_t k = lo - 1; k <= lo; k++) {
		if (k < 0 || k >= D->n)
			continue;
		int32_t c = cfg_dom_lca(g, y, D->blk[k]);
		if (best < 0 || g->blocks[c].dom_depth > g->blocks[best].dom_depth)
			best = c;
	}
	if (best == y) /* an assignment in y's own subtree */
		best = g->blocks[y].idom;
	return best;
}

/* Step 2 for one read of v: does a path from the program's start reach the
** read's block without passing an assignment of v? A search backwards,
** through blocks that do not assign v, that jumps up the dominator tree:
** when no block dominated by c assigns v, every path to a block y below c
** reaches c with v as unassigned as it reaches y, so the search goes on from
** c, the highest such dominator of y (under the lowest dominator a whose
** subtree assigns v; if a itself assigns v, v is assigned at y). So each
** search step costs O(log blocks), and the blocks a variable's search
** visits are the predecessors of dominator subtrees free of its
** assignments that border on them: the search follows no long path on
** which nothing happens to v. */
static bool unassigned_path(const Cfg *g, const Read *x, Defs *D)
{
	int32_t v = D->v, sp = 0;
	if (D->seen[x->from] == v)
		return false;
	D->seen[x->from] = v;
	D->stack[sp++] = x->from;
	while (sp > 0) {
		int32_t y = D->stack[--sp];
		if (y == 0)
			return true;
		int32_t a = assigned_below(g, D, y);
		if (a < 0)
			return true; /* nothing above y assigns v: y's dominators lead from the entry */
		if (D->assigns[a] == v)
			continue;    /* a dominates y and assigns v */
		int32_t c = cfg_dom_ancestor(g, y, g->blocks[a].dom_depth + 1);
		if (c != y) {
			if (D->seen[c] == v)
				continue;
			D->seen[c] = v;
		}
		const Block *bc = &g->blocks[c];
		for (int32_t j = 0; j < bc->npred; j++) {
			int32_t q = bc->pred[j];
			if (!g->blocks[q].reachable || D->assigns[q] == v || D->seen[q] == v)
				continue;
			if (q == 0)
				return true;
			D->seen[q] = v;
			D->stack[sp++] = q;
		}
	}
	return false;
}

/* check_reads' count-then-fill of the assigning blocks: block blk assigns v. */
static void add_assigning(int32_t v, int32_t blk, int pass, int32_t *last, int32_t *aoff, int32_t *ablk,
                          int32_t *fill)
{
	if (v < 0 || last[v] == blk)
		return;
	last[v] = blk;
	if (pass == 0)
		aoff[v + 1]++;
	else
		ablk[fill[v]++] = blk;
}

static void check_reads(const Program *p, const Cfg *g, Diags *d, bool calls_ok)
{
	int32_t nv = p->nvars, nb = g->nblocks;
	if (nv == 0 || nb == 0)
		return;
	Reads R = {.p = p, .g = g, .nwords = (nv + 63) / 64};
	uint64_t *sum = calls_ok ? call_summaries(p, g, R.nwords) : NULL;
	R.sum = sum;
	R.above = xcalloc((size_t)nv, sizeof *R.above);
	R.here = xmalloc((size_t)nv * sizeof *R.here);
	for (int32_t v = 0; v < nv; v++)
		R.here[v] = -1;
	R.rpo_of = xmalloc((size_t)nb * sizeof *R.rpo_of);
	for (int32_t k = 0; k < g->nrpo; k++)
		R.rpo_of[g->rpo[k]] = k;
	collect_reads(&R);

	/* per variable: whether anything assigns it, and its reachable assigning
	** blocks in dominator-tree pre-order, each once (CSR) */
	bool *assigned = xcalloc((size_t)nv, sizeof *assigned);
	int32_t *aoff = xcalloc((size_t)nv + 1, sizeof *aoff);
	int32_t *last = xmalloc((size_t)nv * sizeof *last);
	int32_t *order = xmalloc((size_t)nb * sizeof *order);
	int32_t norder = 0;
	for (int32_t b = 0; b < nb; b++)
		if (g->blocks[b].dom_pre >= 0) {
			order[g->blocks[b].dom_pre] = b;
			norder++;
		}
	for (int32_t pc = 0; pc < p->nins; pc++)
		if (p->ins[pc].dst >= 0)
			assigned[p->ins[pc].dst] = true;
	/* count, then fill */
	int32_t *fill = NULL, *ablk = NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (int32_t v = 0; v < nv; v++)
			last[v] = -1;
		for (int32_t i = 0; i < norder; i++) {
			const Block *bb = &g->blocks[order[i]];
			for (int32_t pc = bb->first; pc <= bb->last; pc++) {
				add_assigning(p->ins[pc].dst, order[i], pass, last, aoff, ablk, fill);
				int32_t f = call_func(&R, order[i], pc);
				if (f > 0) {
					BitIter it = bits_iter(sum + (size_t)f * (size_t)R.nwords, R.nwords);
					for (int32_t v; (v = bits_iter_next(&it)) >= 0 && v < nv;) {
						assigned[v] = true;
						add_assigning(v, order[i], pass, last, aoff, ablk, fill);
					}
				}
			}
		}
		if (pass == 0) {
			for (int32_t v = 0; v < nv; v++)
				aoff[v + 1] += aoff[v];
			ablk = xmalloc((size_t)(aoff[nv] ? aoff[nv] : 1) * sizeof *ablk);
			fill = xmalloc((size_t)nv * sizeof *fill);
			memcpy(fill, aoff, (size_t)nv * sizeof *fill);
		}
	}
	free(fill);
	free(last);
	free(order);

	if (R.n > 1) /* R.r is NULL without reads: qsort(NULL, 0) is undefined */
		qsort(R.r, (size_t)R.n, sizeof *R.r, cmp_read_var);
	int32_t *assigns = xmalloc((size_t)nb * sizeof *assigns);
	Defs D = {.assigns = assigns};
	D.seen = xmalloc((size_t)nb * sizeof *D.seen);
	D.stack = xmalloc((size_t)nb * sizeof *D.stack);
	for (int32_t b = 0; b < nb; b++)
		assigns[b] = D.seen[b] = -1;
	for (int32_t i = 0; i < R.n;) {
		int32_t v = R.r[i].var, end = i;
		while (end < R.n && R.r[end].var == v)
			end++;
		D.blk = ablk + aoff[v];
		D.n = aoff[v + 1] - aoff[v];
		D.v = v;
		for (int32_t k = 0; k < D.n; k++)
			assigns[D.blk[k]] = v;
		for (int32_t k = i; k < end; k++) {
			const Read *x = &R.r[k];
			if (assigned[v] && !x->certain && !unassigned_path(g, x, &D))
				continue;
			/* (ir_load sorts the diagnostics by position) */
			if (!assigned[v])
				diag_warning(d, ir_opnd_loc(&p->ins[x->pc], x->o),
				             "variable '%s' is never assigned: reading it is an error at run time (rule MV)",
				             p->vars[v].name);
			else
				diag_warning(d, ir_opnd_loc(&p->ins[x->pc], x->o), "variable '%s' may be read before it is assigned",
				             p->vars[v].name);
			break;
		}
		i = end;
	}
	free(assigns);
	free(D.seen);
	free(D.stack);
	free(assigned);
	free(aoff);
	free(ablk);
	free(R.r);
	free(R.above);
	free(R.here);
	free(R.rpo_of);
	free(sum);
}

static void check_unreachable(const Program *p, const Cfg *g, Diags *d)
{
	for (int32_t b = 0; b < g->nblocks; b++)
		if (!g->blocks[b].reachable)
			diag_warning(d, p->ins[g->blocks[b].first].loc, "unreachable code");
}

Program *ir_load(const char *path, const char *src, size_t len, Diags *d)
{
	char *copy = xmalloc(len + 2);
	if (len)
		memcpy(copy, src, len);
	return ir_load_owned(path, copy, len, d);
}

Program *ir_load_owned(const char *path, char *src, size_t len, Diags *d)
{
	int errs = d->nerrors;
	Program *p = ir_parse_owned(path, src, len, d);
	if (d->nerrors > errs || p->nins == 0) {
		diag_sort(d);
		return p;
	}
	Cfg *g = cfg_build(p);
	calls_build(p, g, d);
	if (p->has_gsa && p->has_calls)
		for (int32_t pc = 0; pc < p->nins; pc++)
			if (p->ins[pc].op == OP_CALL || p->ins[pc].op == OP_RET) {
				diag_error(d, p->ins[pc].loc,
				           "%s in a program with GSA instructions: GSA form has no calls (musimd gsa "
				           "inlines them)",
				           ir_op_name(p->ins[pc].op));
				break;
			}
	check_gsa_placement(p, g, d);
	check_unreachable(p, g, d);
	check_reads(p, g, d, d->nerrors == errs);
	diag_sort(d);
	if (d->nerrors > errs) {
		cfg_free(g);
		return p;
	}
	p->cfg = g;
	return p;
}
