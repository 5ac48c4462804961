/*
** cfg.c — control-flow graph of a μ-SIMD program (cfg.h).
**
** Dominators and post-dominators use the iterative algorithm of Cooper,
** Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001) over a
** reverse post-order; it is near-linear on the reducible graphs programs
** have. Natural loops come from back edges (u → h with h dominating u).
*/
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

/* ---- construction ------------------------------------------------------ */

static void add_edge(Cfg *g, int32_t from, int32_t to)
{
	Block *b = &g->blocks[from];
	b->succ = xrealloc(b->succ, (size_t)(b->nsucc + 1) * sizeof *b->succ);
	b->succ[b->nsucc++] = to;
}

/* Depth-first post-order over successor (forward) or predecessor lists. */
typedef struct Walk {
	int32_t n;          /* number of nodes */
	int32_t *order;     /* post-order */
	int32_t norder;
	int32_t *num;       /* node → reverse post-order number, -1 unvisited */
} Walk;

static void walk(int32_t n, int32_t root, int32_t **adj, const int32_t *nadj, Walk *w)
{
	w->n = n;
	w->order = xmalloc((size_t)n * sizeof *w->order);
	w->norder = 0;
	w->num = xmalloc((size_t)n * sizeof *w->num);
	for (int32_t i = 0; i < n; i++)
		w->num[i] = -1;
	int32_t *stack = xmalloc((size_t)n * sizeof *stack);
	int32_t *next = xcalloc((size_t)n, sizeof *next);
	bool *seen = xcalloc((size_t)n, sizeof *seen);
	int32_t sp = 0;
	stack[sp++] = root;
	seen[root] = true;
	while (sp > 0) {
		int32_t v = stack[sp - 1];
		if (next[v] < nadj[v]) {
			int32_t s = adj[v][next[v]++];
			if (!seen[s]) {
				seen[s] = true;
				stack[sp++] = s;
			}
		} else {
			w->order[w->norder++] = v;
			sp--;
		}
	}
	for (int32_t i = 0; i < w->norder; i++)
		w->num[w->order[i]] = w->norder - 1 - i;
	free(stack);
	free(next);
	free(seen);
}

static void walk_free(Walk *w)
{
	free(w->order);
	free(w->num);
}

static int32_t intersect(const int32_t *idom, const int32_t *rpon, int32_t a, int32_t b)
{
	while (a != b) {
		while (rpon[a] > rpon[b])
			a = idom[a];
		while (rpon[b] > rpon[a])
			b = idom[b];
	}
	return a;
}

/* Cooper-Harvey-Kennedy: idom[] over nodes reachable from root in the graph
** given by preds (the "incoming" lists for this direction). */
static void dominators(int32_t n, int32_t root, const Walk *w, int32_t **in, const int32_t *nin,
                       int32_t *idom)
{
	for (int32_t i = 0; i < n; i++)
		idom[i] = -1;
	idom[root] = root;
	bool changed = true;
	while (changed) {
		changed = false;
		for (int32_t k = w->norder - 1; k >= 0; k--) { /* reverse post-order */
			int32_t v = w->order[k];
			if (v == root)
				continue;
			int32_t nd = -1;
			for (int32_t j = 0; j < nin[v]; j++) {
				int32_t p = in[v][j];
				if (w->num[p] < 0 || idom[p] < 0)
					continue;
				nd = nd < 0 ? p : intersect(idom, w->num, p, nd);
			}
			if (nd != idom[v]) {
				idom[v] = nd;
				changed = true;
			}
		}
	}
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static void find_loops(Cfg *g)
{
	int32_t nb = g->nblocks;
	int32_t *loop_of_header = xmalloc((size_t)nb * sizeof *loop_of_header);
	for (int32_t i = 0; i < nb; i++)
		loop_of_header[i] = -1;
	bool *in = xcalloc((size_t)nb, sizeof *in);
	int32_t *work = xmalloc((size_t)nb * sizeof *work);
	int32_t ncap = 0;
	/* back edges, visited in program order of their sources */
	for (int32_t u = 0; u < nb; u++) {
		Block *bu = &g->blocks[u];
		if (!bu->reachable)
			continue;
		for (int32_t k = 0; k < bu->nsucc; k++) {
			int32_t h = bu->succ[k];
			if (h >= nb || !cfg_dominates(g, h, u))
				continue;
			int32_t li = loop_of_header[h];
			if (li < 0) {
				VEC_GROW(g->loops, g->nloops, ncap);
				li = g->nloops++;
				Loop *L = &g->loops[li];
				memset(L, 0, sizeof *L);
				L->header = h;
				L->parent = -1;
				loop_of_header[h] = li;
			}
			Loop *L = &g->loops[li];
			bool dup = false;
			for (int32_t j = 0; j < L->nlatches; j++)
				dup |= L->latches[j] == u;
			if (!dup) {
				L->latches = xrealloc(L->latches, (size_t)(L->nlatches + 1) * sizeof(int32_t));
				L->latches[L->nlatches++] = u;
			}
		}
	}
	/* bodies: backwards from the latches, stopping at the header */
	for (int32_t li = 0; li < g->nloops; li++) {
		Loop *L = &g->loops[li];
		memset(in, 0, (size_t)nb * sizeof *in);
		in[L->header] = true;
		int32_t sp = 0;
		for (int32_t j = 0; j < L->nlatches; j++)
			if (!in[L->latches[j]]) {
				in[L->latches[j]] = true;
				work[sp++] = L->latches[j];
			}
		while (sp > 0) {
			Block *b = &g->blocks[work[--sp]];
			for (int32_t j = 0; j < b->npred; j++) {
				int32_t p = b->pred[j];
				if (!in[p] && g->blocks[p].reachable) {
					in[p] = true;
					work[sp++] = p;
				}
			}
		}
		for (int32_t i = 0; i < nb; i++)
			if (in[i]) {
				L->blocks = xrealloc(L->blocks, (size_t)(L->nblocks + 1) * sizeof(int32_t));
				L->blocks[L->nblocks++] = i;
			}
	}
	/* nesting: the parent is the smallest other loop containing the header */
	for (int32_t li = 0; li < g->nloops; li++) {
		Loop *L = &g->loops[li];
		int32_t best = -1;
		for (int32_t lj = 0; lj < g->nloops; lj++) {
			if (lj == li)
				continue;
			Loop *M = &g->loops[lj];
			if (M->nblocks <= L->nblocks && !(M->nblocks == L->nblocks && lj > li))
				continue;
			if (!bsearch(&L->header, M->blocks, (size_t)M->nblocks, sizeof(int32_t), cmp_i32))
				continue;
			if (best < 0 || M->nblocks < g->loops[best].nblocks)
				best = lj;
		}
		L->parent = best;
	}
	/* innermost loop of each block */
	for (int32_t li = 0; li < g->nloops; li++) {
		Loop *L = &g->loops[li];
		for (int32_t j = 0; j < L->nblocks; j++) {
			Block *b = &g->blocks[L->blocks[j]];
			if (b->loop < 0 || g->loops[b->loop].nblocks > L->nblocks)
				b->loop = li;
		}
	}
	free(loop_of_header);
	free(in);
	free(work);
}

Cfg *cfg_build(const Program *p)
{
	Cfg *g = xcalloc(1, sizeof *g);
	int32_t n = p->nins;
	g->block_of = xmalloc((size_t)(n ? n : 1) * sizeof *g->block_of);
	if (n == 0)
		return g;

	/* leaders (language.md §4.3) */
	bool *leader = xcalloc((size_t)n, sizeof *leader);
	leader[0] = true;
	for (int32_t pc = 0; pc < n; pc++) {
		const Ins *ins = &p->ins[pc];
		if (ins->target >= 0 && ins->target < n)
			leader[ins->target] = true;
		if (ir_ends_block(ins->op) && pc + 1 < n)
			leader[pc + 1] = true;
	}
	int32_t nb = 0;
	for (int32_t pc = 0; pc < n; pc++)
		nb += leader[pc];
	g->nblocks = nb;
	g->blocks = xcalloc((size_t)nb + 1, sizeof *g->blocks); /* + virtual exit */
	int32_t b = -1;
	for (int32_t pc = 0; pc < n; pc++) {
		if (leader[pc]) {
			b++;
			g->blocks[b].first = pc;
			g->blocks[b].idom = g->blocks[b].ipdom = -1;
			g->blocks[b].loop = -1;
		}
		g->blocks[b].last = pc;
		g->block_of[pc] = b;
	}
	free(leader);
	Block *X = &g->blocks[nb];
	X->first = X->last = -1;
	X->idom = X->ipdom = X->loop = -1;

	/* edges: a branch lists its fall-through successor first, then its target */
	for (b = 0; b < nb; b++) {
		const Ins *last = &p->ins[g->blocks[b].last];
		int32_t next = g->blocks[b].last + 1 < n ? g->block_of[g->blocks[b].last + 1] : -1;
		switch (last->op) {
		case OP_BZ:
		case OP_BNZ:
			if (next >= 0)
				add_edge(g, b, next);
			if (last->target >= 0)
				add_edge(g, b, g->block_of[last->target]);
			break;
		case OP_JUMP:
			if (last->target >= 0)
				add_edge(g, b, g->block_of[last->target]);
			break;
		case OP_STOP:
		case OP_EXIT:
			add_edge(g, b, nb);
			break;
		default:
			if (next >= 0)
				add_edge(g, b, next);
			break;
		}
	}
	/* predecessors, program order, each once */
	for (b = 0; b < nb; b++)
		for (int32_t k = 0; k < g->blocks[b].nsucc; k++) {
			int32_t s = g->blocks[b].succ[k];
			Block *bs = &g->blocks[s];
			if (bs->npred > 0 && bs->pred[bs->npred - 1] == b)
				continue;
			bs->pred = xrealloc(bs->pred, (size_t)(bs->npred + 1) * sizeof(int32_t));
			bs->pred[bs->npred++] = b;
		}

	/* forward walk and dominators */
	int32_t **succ = xmalloc((size_t)(nb + 1) * sizeof *succ);
	int32_t *nsucc = xmalloc((size_t)(nb + 1) * sizeof *nsucc);
	int32_t **pred = xmalloc((size_t)(nb + 1) * sizeof *pred);
	int32_t *npred = xmalloc((size_t)(nb + 1) * sizeof *npred);
	for (int32_t i = 0; i <= nb; i++) {
		succ[i] = g->blocks[i].succ;
		nsucc[i] = g->blocks[i].nsucc;
		pred[i] = g->blocks[i].pred;
		npred[i] = g->blocks[i].npred;
	}
	Walk fw;
	walk(nb + 1, 0, succ, nsucc, &fw);
	int32_t *idom = xmalloc((size_t)(nb + 1) * sizeof *idom);
	dominators(nb + 1, 0, &fw, pred, npred, idom);
	g->rpo = xmalloc((size_t)(nb + 1) * sizeof *g->rpo);
	for (int32_t k = fw.norder - 1; k >= 0; k--)
		if (fw.order[k] < nb)
			g->rpo[g->nrpo++] = fw.order[k];
	for (b = 0; b < nb; b++) {
		g->blocks[b].reachable = fw.num[b] >= 0;
		g->blocks[b].idom = (b == 0 || idom[b] < 0) ? -1 : idom[b];
	}
	walk_free(&fw);

	/* post-dominators: reverse graph rooted at the virtual exit; blocks that
	** cannot reach it (endless loops, falling off the end) get an edge to it */
	Walk bw;
	walk(nb + 1, nb, pred, npred, &bw);
	int32_t *xin = NULL; /* extra predecessors of the exit */
	int32_t nxin = 0, xcap = 0;
	for (b = 0; b < nb; b++)
		if (bw.num[b] < 0)
			VEC_PUSH(xin, nxin, xcap, b);
	if (nxin > 0) {
		/* rebuild the exit's predecessor list and the successor lists used
		** by the reverse walk (the exit's "successors" in reverse are its preds) */
		int32_t *xp = xmalloc((size_t)(npred[nb] + nxin) * sizeof *xp);
		if (npred[nb] > 0)
			memcpy(xp, pred[nb], (size_t)npred[nb] * sizeof *xp);
		memcpy(xp + npred[nb], xin, (size_t)nxin * sizeof *xp);
		pred[nb] = xp;
		npred[nb] += nxin;
		for (int32_t j = 0; j < nxin; j++) {
			int32_t v = xin[j];
			int32_t *s = xmalloc((size_t)(nsucc[v] + 1) * sizeof *s);
			memcpy(s, succ[v], (size_t)nsucc[v] * sizeof *s);
			s[nsucc[v]] = nb;
			succ[v] = s;
			nsucc[v]++;
		}
		walk_free(&bw);
		walk(nb + 1, nb, pred, npred, &bw);
	}
	int32_t *ipdom = xmalloc((size_t)(nb + 1) * sizeof *ipdom);
	dominators(nb + 1, nb, &bw, succ, nsucc, ipdom);
	for (b = 0; b < nb; b++)
		g->blocks[b].ipdom = ipdom[b];
	walk_free(&bw);
	if (nxin > 0) {
		free(pred[nb]);
		for (int32_t j = 0; j < nxin; j++)
			free(succ[xin[j]]);
	}
	free(xin);
	free(idom);
	free(ipdom);
	free(succ);
	free(nsucc);
	free(pred);
	free(npred);

	find_loops(g);

	/* GSA groups and μ operand selection */
	for (b = 0; b < nb; b++) {
		Block *bb = &g->blocks[b];
		for (int32_t pc = bb->first; pc <= bb->last && ir_is_gsa(p->ins[pc].op); pc++) {
			bb->ngsa++;
			Op op = p->ins[pc].op;
			if (op == OP_GAMMA || op == OP_ETA)
				bb->implicit_sync = true;
		}
		/* μ operand of each incoming edge: every block with a back edge
		** gets the table, whether or not it holds a μ */
		bool header = false;
		for (int32_t j = 0; j < bb->npred && !header; j++)
			header = g->blocks[bb->pred[j]].reachable && bb->reachable &&
			         cfg_dominates(g, b, bb->pred[j]);
		if (header) {
			bb->mu_index = xmalloc((size_t)bb->npred * sizeof(int32_t));
			int32_t k = 0;
			for (int32_t j = 0; j < bb->npred; j++) {
				int32_t q = bb->pred[j];
				bool back = g->blocks[q].reachable && bb->reachable && cfg_dominates(g, b, q);
				bb->mu_index[j] = back ? ++k : 0;
			}
		}
	}
	return g;
}

void cfg_free(Cfg *g)
{
	if (!g)
		return;
	for (int32_t b = 0; b <= g->nblocks && g->blocks; b++) {
		free(g->blocks[b].succ);
		free(g->blocks[b].pred);
		free(g->blocks[b].mu_index);
	}
	for (int32_t l = 0; l < g->nloops; l++) {
		free(g->loops[l].blocks);
		free(g->loops[l].latches);
	}
	free(g->loops);
	free(g->blocks);
	free(g->block_of);
	free(g->rpo);
	free(g);
}

/* ---- queries ----------------------------------------------------------- */

bool cfg_is_block_start(const Cfg *g, int32_t pc)
{
	if (pc < 0 || g->nblocks == 0 || pc > g->blocks[g->nblocks - 1].last)
		return false; /* beyond the program (a finished warp) */
	return g->blocks[g->block_of[pc]].first == pc;
}

bool cfg_dominates(const Cfg *g, int32_t a, int32_t b)
{
	if (a == b)
		return true;
	if (!g->blocks[b].reachable)
		return false;
	for (int32_t v = g->blocks[b].idom; v >= 0; v = g->blocks[v].idom)
		if (v == a)
			return true;
	return false;
}

bool cfg_postdominates(const Cfg *g, int32_t a, int32_t b)
{
	if (a == b || a == g->nblocks)
		return true;
	for (int32_t v = b < g->nblocks ? g->blocks[b].ipdom : -1; v >= 0 && v != g->nblocks;
	     v = g->blocks[v].ipdom)
		if (v == a)
			return true;
	return false;
}

int32_t cfg_ipdom_pc(const Cfg *g, int32_t pc)
{
	int32_t r = g->blocks[g->block_of[pc]].ipdom;
	return (r < 0 || r >= g->nblocks) ? -1 : g->blocks[r].first;
}

int32_t cfg_phi_index(const Cfg *g, int32_t block, int32_t pred)
{
	const Block *b = &g->blocks[block];
	for (int32_t j = 0; j < b->npred; j++)
		if (b->pred[j] == pred)
			return j;
	return -1;
}

int32_t cfg_mu_index(const Cfg *g, int32_t block, int32_t pred)
{
	const Block *b = &g->blocks[block];
	int32_t j = cfg_phi_index(g, block, pred);
	if (j < 0 || !b->mu_index)
		return 0;
	return b->mu_index[j];
}

int32_t cfg_mu_arity(const Cfg *g, int32_t block)
{
	const Block *b = &g->blocks[block];
	int32_t k = 0;
	for (int32_t j = 0; b->mu_index && j < b->npred; j++)
		k += b->mu_index[j] > 0;
	return 1 + k;
}

/* ---- printing ---------------------------------------------------------- */

static void print_block_name(Buf *out, const Cfg *g, int32_t b)
{
	if (b >= g->nblocks)
		buf_puts(out, "exit");
	else
		buf_printf(out, "B%d", b);
}

static void print_block_list(Buf *out, const Cfg *g, const int32_t *v, int32_t n)
{
	if (n == 0)
		buf_puts(out, "-");
	for (int32_t i = 0; i < n; i++) {
		if (i)
			buf_putc(out, ' ');
		print_block_name(out, g, v[i]);
	}
}

static void print_tree(Buf *out, const Cfg *g, bool post, int32_t root, int depth)
{
	for (int i = 0; i < depth; i++)
		buf_puts(out, "  ");
	buf_puts(out, "  ");
	print_block_name(out, g, root);
	buf_putc(out, '\n');
	for (int32_t b = 0; b < g->nblocks; b++) {
		int32_t parent = post ? g->blocks[b].ipdom : g->blocks[b].idom;
		if (parent == root && b != root)
			print_tree(out, g, post, b, depth + 1);
	}
}

void cfg_print(Buf *out, const Program *p, const Cfg *g)
{
	buf_printf(out, "%d blocks (exit is the virtual exit)\n\n", g->nblocks);
	buf_puts(out, "block  instructions          lines    preds        succs        idom  ipdom  loop\n");
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bb = &g->blocks[b];
		size_t start = out->len;
		print_block_name(out, g, b);
		buf_pad(out, 7);
		ir_print_where(out, p, bb->first);
		if (bb->last != bb->first) {
			buf_puts(out, " .. ");
			ir_print_where(out, p, bb->last);
		}
		buf_pad(out, 29);
		int32_t l0 = p->ins[bb->first].loc.line, l1 = p->ins[bb->last].loc.line;
		if (l0 == l1)
			buf_printf(out, "%d", l0);
		else
			buf_printf(out, "%d-%d", l0, l1);
		buf_pad(out, 38);
		print_block_list(out, g, bb->pred, bb->npred);
		buf_pad(out, 51);
		print_block_list(out, g, bb->succ, bb->nsucc);
		buf_pad(out, 64);
		if (bb->idom >= 0)
			print_block_name(out, g, bb->idom);
		else
			buf_puts(out, "-");
		buf_pad(out, 70);
		if (bb->ipdom >= 0)
			print_block_name(out, g, bb->ipdom);
		else
			buf_puts(out, "-");
		buf_pad(out, 77);
		if (bb->loop >= 0)
			buf_printf(out, "L%d", bb->loop);
		else
			buf_puts(out, "-");
		if (!bb->reachable)
			buf_puts(out, "  (unreachable)");
		(void)start;
		buf_putc(out, '\n');
	}

	buf_puts(out, "\nedges:\n");
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bb = &g->blocks[b];
		const Ins *last = &p->ins[bb->last];
		for (int32_t k = 0; k < bb->nsucc; k++) {
			buf_puts(out, "  ");
			print_block_name(out, g, b);
			buf_puts(out, " -> ");
			print_block_name(out, g, bb->succ[k]);
			if (ir_is_branch(last->op))
				buf_puts(out, k == 0 && bb->nsucc == 2 ? "  (fall-through)" : "  (taken)");
			else if (bb->succ[k] == g->nblocks)
				buf_printf(out, "  (%s)", ir_op_name(last->op));
			buf_putc(out, '\n');
		}
	}

	buf_puts(out, "\ndominator tree:\n");
	print_tree(out, g, false, 0, 0);
	for (int32_t b = 1; b < g->nblocks; b++)
		if (!g->blocks[b].reachable) {
			buf_puts(out, "  ");
			print_block_name(out, g, b);
			buf_puts(out, " (unreachable)\n");
		}
	buf_puts(out, "\npost-dominator tree:\n");
	print_tree(out, g, true, g->nblocks, 0);

	buf_puts(out, "\nbranches (reconvergence point = immediate post-dominator):\n");
	bool any = false;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (!ir_is_branch(ins->op))
			continue;
		any = true;
		buf_puts(out, "  ");
		ir_print_where(out, p, pc);
		buf_printf(out, " (line %d): ", ins->loc.line);
		ir_print_ins(out, p, ins);
		int32_t r = g->blocks[g->block_of[pc]].ipdom;
		buf_puts(out, "  ->  ipdom ");
		print_block_name(out, g, r < 0 ? g->nblocks : r);
		if (r >= 0 && r < g->nblocks) {
			buf_puts(out, " (");
			ir_print_where(out, p, g->blocks[r].first);
			buf_puts(out, ")");
		}
		buf_putc(out, '\n');
	}
	if (!any)
		buf_puts(out, "  (none)\n");

	buf_puts(out, "\nloops:\n");
	if (g->nloops == 0)
		buf_puts(out, "  (none)\n");
	for (int32_t l = 0; l < g->nloops; l++) {
		const Loop *L = &g->loops[l];
		int depth = 1;
		for (int32_t q = L->parent; q >= 0; q = g->loops[q].parent)
			depth++;
		buf_printf(out, "  L%d  header ", l);
		print_block_name(out, g, L->header);
		buf_puts(out, " (");
		ir_print_where(out, p, g->blocks[L->header].first);
		buf_puts(out, ")  body ");
		print_block_list(out, g, L->blocks, L->nblocks);
		buf_puts(out, "  latches ");
		print_block_list(out, g, L->latches, L->nlatches);
		buf_printf(out, "  depth %d", depth);
		if (L->parent >= 0)
			buf_printf(out, "  parent L%d", L->parent);
		buf_putc(out, '\n');
	}
}

/* DOT record labels: escape what records and strings treat specially. */
static void dot_escape(Buf *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\"\\{}|<>", *s))
			buf_putc(out, '\\');
		buf_putc(out, *s);
	}
}

void cfg_print_dot(Buf *out, const Program *p, const Cfg *g)
{
	buf_puts(out, "digraph \"");
	dot_escape(out, p->kernel ? p->kernel : p->path);
	buf_puts(out, "\" {\n  node [shape=box, fontname=\"monospace\"];\n");
	buf_puts(out, "  entry [shape=Mdiamond, label=\"entry\"];\n");
	buf_puts(out, "  exit [shape=Mdiamond, label=\"exit\"];\n");
	if (g->nblocks > 0)
		buf_puts(out, "  entry -> B0;\n");
	Buf line = {0};
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bb = &g->blocks[b];
		buf_printf(out, "  B%d [label=\"B%d\\l", b, b);
		for (int32_t pc = bb->first; pc <= bb->last; pc++) {
			buf_reset(&line);
			const char *lab = ir_label_of(p, pc);
			if (lab)
				buf_printf(&line, "%s: ", lab);
			ir_print_ins(&line, p, &p->ins[pc]);
			buf_puts(out, "  ");
			dot_escape(out, buf_str(&line));
			buf_puts(out, "\\l");
		}
		buf_puts(out, "\"");
		if (!bb->reachable)
			buf_puts(out, ", style=dashed");
		if (bb->implicit_sync)
			buf_puts(out, ", color=blue");
		buf_puts(out, "];\n");
	}
	buf_free(&line);
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bb = &g->blocks[b];
		const Ins *last = &p->ins[bb->last];
		for (int32_t k = 0; k < bb->nsucc; k++) {
			buf_printf(out, "  B%d -> ", b);
			if (bb->succ[k] >= g->nblocks)
				buf_puts(out, "exit");
			else
				buf_printf(out, "B%d", bb->succ[k]);
			if (ir_is_branch(last->op) && bb->nsucc == 2)
				buf_puts(out, k == 0 ? " [label=\"fall-through\"]" : " [label=\"taken\"]");
			else if (ir_is_branch(last->op))
				buf_puts(out, " [label=\"fall-through/taken\"]");
			buf_puts(out, ";\n");
		}
		/* the reconvergence point of a branch, dotted */
		if (ir_is_branch(last->op) && bb->ipdom >= 0) {
			buf_printf(out, "  B%d -> ", b);
			if (bb->ipdom >= g->nblocks)
				buf_puts(out, "exit");
			else
				buf_printf(out, "B%d", bb->ipdom);
			buf_puts(out, " [style=dotted, color=gray, constraint=false, label=\"ipdom\"];\n");
		}
	}
	buf_puts(out, "}\n");
}
