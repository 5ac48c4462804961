/*
** cfg.c — control-flow graph of a μ-SIMD program (cfg.h).
**
** Everything here is near-linear in the size of the program and free of
** recursion, whatever the shape of the graph (10^6 instructions, 10^4
** nested loops, 10^5 branches into one block): dominators and
** post-dominators by Lengauer-Tarjan; dominance queries in O(1) by
** pre-order numbering of the two trees; natural loops (back edges u → h
** with h dominating u) and their nesting in one union-find pass.
*/
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

/* ---- construction ------------------------------------------------------ */

/* Depth-first walk over successor (forward) or predecessor lists: the
** post-order (whose reverse is Cfg.rpo), and the pre-order with the parent
** of every node in the depth-first spanning tree (Lengauer-Tarjan). */
typedef struct Walk {
	int32_t n;          /* number of nodes */
	int32_t *order;     /* post-order */
	int32_t norder;
	int32_t *num;       /* node → reverse post-order number, -1 unvisited */
	int32_t *pre;       /* pre-order (norder nodes) */
	int32_t *prenum;    /* node → pre-order number, -1 unvisited */
	int32_t *parent;    /* node → its parent in the spanning tree, -1 for the root */
} Walk;

static void walk(int32_t n, int32_t root, int32_t **adj, const int32_t *nadj, Walk *w)
{
	w->n = n;
	w->order = xmalloc((size_t)n * sizeof *w->order);
	w->norder = 0;
	w->num = xmalloc((size_t)n * sizeof *w->num);
	w->pre = xmalloc((size_t)n * sizeof *w->pre);
	w->prenum = xmalloc((size_t)n * sizeof *w->prenum);
	w->parent = xmalloc((size_t)n * sizeof *w->parent);
	for (int32_t i = 0; i < n; i++)
		w->num[i] = w->prenum[i] = w->parent[i] = -1;
	int32_t *stack = xmalloc((size_t)n * sizeof *stack);
	int32_t *next = xcalloc((size_t)n, sizeof *next);
	int32_t sp = 0, npre = 0;
	stack[sp++] = root;
	w->prenum[root] = npre;
	w->pre[npre++] = root;
	while (sp > 0) {
		int32_t v = stack[sp - 1];
		if (next[v] < nadj[v]) {
			int32_t s = adj[v][next[v]++];
			if (w->prenum[s] < 0) {
				w->prenum[s] = npre;
				w->pre[npre++] = s;
				w->parent[s] = v;
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
}

static void walk_free(Walk *w)
{
	free(w->order);
	free(w->num);
	free(w->pre);
	free(w->prenum);
	free(w->parent);
}

/* Lengauer-Tarjan's forest: eval with path compression, written with an
** explicit stack (the textbook recursion is as deep as the graph). */
typedef struct Forest {
	int32_t *semi;     /* node → pre-order number of its semi-dominator */
	int32_t *anc;      /* ancestor in the forest, -1 for a root */
	int32_t *label;    /* node of minimal semi on the compressed path */
	int32_t *stack;
} Forest;

static int32_t lt_eval(Forest *f, int32_t v)
{
	if (f->anc[v] < 0)
		return v;
	int32_t sp = 0, x = v;
	while (f->anc[f->anc[x]] >= 0) {
		f->stack[sp++] = x;
		x = f->anc[x];
	}
	while (sp > 0) {
		int32_t y = f->stack[--sp], a = f->anc[y];
		if (f->semi[f->label[a]] < f->semi[f->label[y]])
			f->label[y] = f->label[a];
		f->anc[y] = f->anc[a];
	}
	return f->label[v];
}

/* idom[] over the nodes reachable from root, given the walk from root and
** the incoming lists of this direction (Lengauer and Tarjan, "A fast
** algorithm for finding dominators in a flowgraph", 1979, the simple
** version: O(E log V) whatever the graph's shape). idom[root] = root,
** -1 for nodes the walk did not reach. */
static void dominators(int32_t n, int32_t root, const Walk *w, int32_t **in, const int32_t *nin,
                       int32_t *idom)
{
	Forest f;
	f.semi = xmalloc((size_t)n * sizeof *f.semi);
	f.anc = xmalloc((size_t)n * sizeof *f.anc);
	f.label = xmalloc((size_t)n * sizeof *f.label);
	f.stack = xmalloc((size_t)n * sizeof *f.stack);
	int32_t *bucket = xmalloc((size_t)n * sizeof *bucket); /* node → first node of its bucket */
	int32_t *bnext = xmalloc((size_t)n * sizeof *bnext);
	for (int32_t v = 0; v < n; v++) {
		idom[v] = -1;
		f.semi[v] = w->prenum[v];
		f.anc[v] = -1;
		f.label[v] = v;
		bucket[v] = -1;
	}
	int32_t npre = w->norder; /* every visited node is in both orders */
	for (int32_t i = npre - 1; i >= 1; i--) {
		int32_t x = w->pre[i], par = w->parent[x];
		for (int32_t j = 0; j < nin[x]; j++) {
			int32_t v = in[x][j];
			if (w->prenum[v] < 0)
				continue;
			int32_t u = lt_eval(&f, v);
			if (f.semi[u] < f.semi[x])
				f.semi[x] = f.semi[u];
		}
		int32_t s = w->pre[f.semi[x]];
		bnext[x] = bucket[s];
		bucket[s] = x;
		f.anc[x] = par; /* link */
		for (int32_t v = bucket[par]; v >= 0; v = bnext[v]) {
			int32_t u = lt_eval(&f, v);
			idom[v] = f.semi[u] < f.semi[v] ? u : par;
		}
		bucket[par] = -1;
	}
	for (int32_t i = 1; i < npre; i++) {
		int32_t x = w->pre[i];
		if (idom[x] != w->pre[f.semi[x]])
			idom[x] = idom[idom[x]];
	}
	idom[root] = root;
	free(f.semi);
	free(f.anc);
	free(f.label);
	free(f.stack);
	free(bucket);
	free(bnext);
}

/* Children of every node of a tree given by parent[] (-1: none), in
** ascending order: kids[off[v] .. off[v+1]-1]. */
static void tree_children(int32_t n, const int32_t *parent, int32_t root, int32_t **off, int32_t **kids)
{
	int32_t *o = xcalloc((size_t)n + 1, sizeof *o);
	for (int32_t v = 0; v < n; v++)
		if (v != root && parent[v] >= 0)
			o[parent[v] + 1]++;
	for (int32_t v = 0; v < n; v++)
		o[v + 1] += o[v];
	int32_t *k = xmalloc((size_t)(o[n] ? o[n] : 1) * sizeof *k);
	int32_t *fill = xmalloc((size_t)(n ? n : 1) * sizeof *fill);
	memcpy(fill, o, (size_t)n * sizeof *fill);
	for (int32_t v = 0; v < n; v++)
		if (v != root && parent[v] >= 0)
			k[fill[parent[v]]++] = v;
	free(fill);
	*off = o;
	*kids = k;
}

/* Pre-order of the tree below root, children ascending, without recursion:
** order[0..count-1] and, when wanted, each node's depth (root 0) and the
** last pre-order number of its subtree. Returns count. */
static int32_t tree_preorder(int32_t n, const int32_t *parent, int32_t root, int32_t *order,
                             int32_t *depth, int32_t *last)
{
	int32_t *off, *kids;
	tree_children(n, parent, root, &off, &kids);
	int32_t *stack = xmalloc((size_t)(n ? n : 1) * sizeof *stack);
	int32_t *next = xmalloc((size_t)(n ? n : 1) * sizeof *next);
	int32_t sp = 0, count = 0;
	stack[sp++] = root;
	next[root] = off[root];
	if (depth)
		depth[root] = 0;
	order[count++] = root;
	while (sp > 0) {
		int32_t v = stack[sp - 1];
		if (next[v] < off[v + 1]) {
			int32_t c = kids[next[v]++];
			if (depth)
				depth[c] = depth[v] + 1;
			next[c] = off[c];
			order[count++] = c;
			stack[sp++] = c;
		} else {
			if (last)
				last[v] = count - 1;
			sp--;
		}
	}
	free(stack);
	free(next);
	free(off);
	free(kids);
	return count;
}

/* Number the dominator tree (post = false) or the post-dominator tree. */
static void number_tree(Cfg *g, bool post)
{
	int32_t n = g->nblocks + 1, root = post ? g->nblocks : 0;
	int32_t *parent = xmalloc((size_t)n * sizeof *parent);
	int32_t *order = xmalloc((size_t)n * sizeof *order);
	int32_t *last = xmalloc((size_t)n * sizeof *last);
	for (int32_t b = 0; b < n; b++) {
		Block *bb = &g->blocks[b];
		parent[b] = post ? bb->ipdom : bb->idom;
		if (post)
			bb->pdom_pre = bb->pdom_last = -1;
		else
			bb->dom_pre = bb->dom_last = -1;
	}
	int32_t count = tree_preorder(n, parent, root, order, NULL, last);
	for (int32_t i = 0; i < count; i++) {
		Block *bb = &g->blocks[order[i]];
		if (post) {
			bb->pdom_pre = i;
			bb->pdom_last = last[order[i]];
		} else {
			bb->dom_pre = i;
			bb->dom_last = last[order[i]];
		}
	}
	free(parent);
	free(order);
	free(last);
}

/* Heavy-path decomposition of the dominator tree (cfg_dom_lca): each
** block's heavy child is its child with the largest subtree; the heavy
** paths are laid out top-down in Cfg.dom_path. Any path to the root
** crosses O(log blocks) heavy paths. */
static void heavy_paths(Cfg *g)
{
	int32_t nb = g->nblocks;
	int32_t *order = xmalloc((size_t)(nb ? nb : 1) * sizeof *order); /* dominator pre-order */
	int32_t *size = xcalloc((size_t)(nb ? nb : 1), sizeof *size);
	int32_t *heavy = xmalloc((size_t)(nb ? nb : 1) * sizeof *heavy);
	int32_t n = 0;
	for (int32_t b = 0; b < nb; b++) {
		Block *bb = &g->blocks[b];
		bb->dom_depth = bb->dom_head = bb->dom_hpos = -1;
		heavy[b] = -1;
		if (bb->dom_pre >= 0) {
			order[bb->dom_pre] = b;
			n++;
		}
	}
	g->blocks[nb].dom_depth = g->blocks[nb].dom_head = g->blocks[nb].dom_hpos = -1;
	for (int32_t i = n - 1; i >= 0; i--) {
		int32_t b = order[i], p = g->blocks[b].idom;
		size[b]++;
		if (p >= 0) {
			size[p] += size[b];
			if (heavy[p] < 0 || size[b] > size[heavy[p]] || (size[b] == size[heavy[p]] && b < heavy[p]))
				heavy[p] = b;
		}
	}
	g->dom_path = xmalloc((size_t)(n ? n : 1) * sizeof *g->dom_path);
	int32_t pos = 0;
	for (int32_t i = 0; i < n; i++) { /* parents first */
		int32_t b = order[i], p = g->blocks[b].idom;
		Block *bb = &g->blocks[b];
		bb->dom_depth = p >= 0 ? g->blocks[p].dom_depth + 1 : 0;
		if (p >= 0 && heavy[p] == b)
			continue; /* placed with its path's head */
		for (int32_t v = b; v >= 0; v = heavy[v]) {
			g->blocks[v].dom_head = b;
			g->blocks[v].dom_hpos = pos;
			g->dom_path[pos++] = v;
		}
	}
	free(order);
	free(size);
	free(heavy);
}

static int32_t uf_find(int32_t *uf, int32_t x)
{
	int32_t r = x;
	while (uf[r] != r)
		r = uf[r];
	while (uf[x] != r) {
		int32_t nx = uf[x];
		uf[x] = r;
		x = nx;
	}
	return r;
}

/* Natural loops, one per header, numbered in program order of their first
** back edge's source. The bodies and the nesting come from one pass over
** the headers, innermost first (descending dominator-tree pre-order: a
** header dominates the headers of the loops inside it), in the manner of
** Tarjan's and Havlak's loop-nesting algorithms: a loop's body is found
** backwards from its latches, and each inner loop found on the way is
** collapsed into its header (union-find), so every block is visited once
** per loop it is a direct member of and the whole is near-linear. */
static void find_loops(Cfg *g)
{
	int32_t nb = g->nblocks;
	int32_t *loop_of_header = xmalloc((size_t)nb * sizeof *loop_of_header);
	for (int32_t i = 0; i < nb; i++)
		loop_of_header[i] = -1;
	int32_t ncap = 0;
	int32_t *latch_cap = NULL;
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
				int32_t oldcap = ncap;
				VEC_GROW(g->loops, g->nloops, ncap);
				if (ncap != oldcap)
					latch_cap = xrealloc(latch_cap, (size_t)ncap * sizeof *latch_cap);
				li = g->nloops++;
				Loop *L = &g->loops[li];
				memset(L, 0, sizeof *L);
				L->header = h;
				L->parent = -1;
				latch_cap[li] = 0;
				loop_of_header[h] = li;
			}
			Loop *L = &g->loops[li];
			/* sources come in ascending order: a repeat is the last one */
			if (L->nlatches == 0 || L->latches[L->nlatches - 1] != u)
				VEC_PUSH(L->latches, L->nlatches, latch_cap[li], u);
		}
	}
	free(latch_cap);
	int32_t nl = g->nloops;
	if (nl == 0) {
		free(loop_of_header);
		for (int32_t b = 0; b <= nb; b++)
			g->blocks[b].loop_pos = -1;
		return;
	}

	/* headers by dominator-tree pre-order */
	int32_t *by_pre = xmalloc((size_t)nl * sizeof *by_pre);
	{
		int32_t *slot = xmalloc((size_t)(nb + 1) * sizeof *slot);
		for (int32_t i = 0; i <= nb; i++)
			slot[i] = -1;
		for (int32_t li = 0; li < nl; li++)
			slot[g->blocks[g->loops[li].header].dom_pre] = li;
		int32_t k = 0;
		for (int32_t i = 0; i <= nb; i++)
			if (slot[i] >= 0)
				by_pre[k++] = slot[i];
		free(slot);
	}

	int32_t *uf = xmalloc((size_t)nb * sizeof *uf);
	int32_t *seen = xmalloc((size_t)nb * sizeof *seen); /* loop whose walk reached the block */
	int32_t *work = xmalloc((size_t)nb * sizeof *work);
	for (int32_t i = 0; i < nb; i++) {
		uf[i] = i;
		seen[i] = -1;
	}
	int32_t *nown = xcalloc((size_t)nl, sizeof *nown);
	for (int32_t k = nl - 1; k >= 0; k--) { /* innermost first */
		int32_t li = by_pre[k];
		Loop *L = &g->loops[li];
		int32_t h = L->header, sp = 0;
		seen[h] = li;
		g->blocks[h].loop = li;
		nown[li]++;
		for (int32_t j = 0; j < L->nlatches; j++) {
			int32_t r = uf_find(uf, L->latches[j]);
			if (r != h && seen[r] != li) {
				seen[r] = li;
				work[sp++] = r;
			}
		}
		while (sp > 0) {
			int32_t y = work[--sp];
			int32_t inner = loop_of_header[y];
			if (inner >= 0) {
				g->loops[inner].parent = li; /* y is the header of a maximal inner loop */
			} else {
				g->blocks[y].loop = li;
				nown[li]++;
			}
			uf[y] = h;
			const Block *by = &g->blocks[y];
			for (int32_t j = 0; j < by->npred; j++) {
				int32_t q = by->pred[j];
				if (!g->blocks[q].reachable)
					continue;
				int32_t r = uf_find(uf, q);
				if (r != h && seen[r] != li) {
					seen[r] = li;
					work[sp++] = r;
				}
			}
		}
	}
	free(uf);
	free(seen);
	free(work);

	/* body sizes, innermost first */
	for (int32_t li = 0; li < nl; li++)
		g->loops[li].nblocks = g->loops[li].nown = nown[li];
	for (int32_t k = nl - 1; k >= 0; k--) {
		Loop *L = &g->loops[by_pre[k]];
		if (L->parent >= 0)
			g->loops[L->parent].nblocks += L->nblocks;
	}
	/* layout (Loop): each loop's offset within its parent's range (or among
	** the outermost loops), children in ascending order of their headers;
	** then absolute offsets, parents first */
	int32_t *start = xmalloc((size_t)nl * sizeof *start);
	int32_t *run = nown; /* per loop: where its next child goes, relative */
	int32_t total = 0;
	for (int32_t b = 0; b < nb; b++) {
		int32_t li = loop_of_header[b];
		if (li < 0)
			continue;
		int32_t par = g->loops[li].parent;
		if (par < 0) {
			start[li] = total;
			total += g->loops[li].nblocks;
		} else {
			start[li] = run[par];
			run[par] += g->loops[li].nblocks;
		}
	}
	for (int32_t k = 0; k < nl; k++) {
		int32_t li = by_pre[k];
		Loop *L = &g->loops[li];
		if (L->parent >= 0) {
			start[li] += start[L->parent];
			L->depth = g->loops[L->parent].depth + 1;
		} else {
			L->depth = 1;
		}
	}
	g->loop_body = xmalloc((size_t)total * sizeof *g->loop_body);
	for (int32_t li = 0; li < nl; li++) {
		g->loops[li].blocks = g->loop_body + start[li];
		run[li] = start[li];
	}
	for (int32_t b = 0; b <= nb; b++) {
		Block *bb = &g->blocks[b];
		bb->loop_pos = bb->loop >= 0 ? run[bb->loop]++ : -1;
		if (bb->loop >= 0)
			g->loop_body[bb->loop_pos] = b;
	}
	free(start);
	free(by_pre);
	free(nown);
	free(loop_of_header);
}

/* The loop depth of block b (0 outside loops). */
static int32_t depth_of(const Cfg *g, int32_t b)
{
	return b < g->nblocks && g->blocks[b].loop >= 0 ? g->loops[g->blocks[b].loop].depth : 0;
}

/* Thread-frontier priorities (Block.prio): a reverse post-order whose
** depth-first walk takes a block's successors shallowest loop first, so
** that a loop's exits finish before its body and come after all of it —
** a plain reverse post-order may put an exit before the rest of the body,
** which lets threads that left the loop run ahead of those still in it
** (Diamos et al. 2011, Figure 2(c)). */
static void priorities(Cfg *g)
{
	int32_t nb = g->nblocks;
	if (nb == 0)
		return;
	int32_t **succ = xmalloc(((size_t)nb + 1) * sizeof *succ), *nsucc = xcalloc((size_t)nb + 1, sizeof *nsucc);
	int32_t *store = xmalloc((2 * (size_t)nb + 1) * sizeof *store);
	for (int32_t b = 0; b < nb; b++) {
		const Block *bb = &g->blocks[b];
		succ[b] = store + 2 * b;
		for (int32_t k = 0; k < bb->nsucc; k++)
			if (bb->succ[k] < nb)
				succ[b][nsucc[b]++] = bb->succ[k];
		if (nsucc[b] == 2 && depth_of(g, succ[b][1]) < depth_of(g, succ[b][0])) {
			int32_t t = succ[b][0];
			succ[b][0] = succ[b][1];
			succ[b][1] = t;
		}
		/* a callee after the return point: the walk finishes it last, so
		** its blocks come before the return point in the priority order
		** (threads in a function run before those waiting after its call) */
		if (bb->callee >= 0)
			succ[b][nsucc[b]++] = bb->callee;
	}
	succ[nb] = store;
	for (int32_t b = 0; b < nb; b++)
		g->blocks[b].prio = -1;
	Walk w;
	walk(nb, 0, succ, nsucc, &w);
	for (int32_t k = w.norder - 1, r = 0; k >= 0; k--)
		g->blocks[w.order[k]].prio = r++;
	walk_free(&w);
	free(succ);
	free(nsucc);
	free(store);
}

/* Point succ/pred of the blocks a call enters or leaves at lists with the
** call edge added (block → its callee); returns the storage of those lists. */
static int32_t *with_calls(const Cfg *g, int32_t **succ, int32_t *nsucc, int32_t **pred, int32_t *npred)
{
	int32_t nb = g->nblocks, ncalls = 0;
	int32_t *extra = xcalloc((size_t)nb + 1, sizeof *extra); /* call edges into each block */
	for (int32_t b = 0; b < nb; b++)
		if (g->blocks[b].callee >= 0) {
			extra[g->blocks[b].callee]++;
			ncalls++;
		}
	int32_t *store = xmalloc(((size_t)3 * (size_t)ncalls + (size_t)2 * (size_t)nb + 1) * sizeof *store);
	int32_t *s = store;
	for (int32_t b = 0; b < nb; b++) {
		const Block *bb = &g->blocks[b];
		if (bb->callee >= 0) {
			memcpy(s, bb->succ, (size_t)bb->nsucc * sizeof *s);
			s[bb->nsucc] = bb->callee;
			succ[b] = s;
			nsucc[b] = bb->nsucc + 1;
			s += nsucc[b];
		}
		if (extra[b]) {
			memcpy(s, bb->pred, (size_t)bb->npred * sizeof *s);
			pred[b] = s;
			npred[b] = bb->npred;
			s += bb->npred + extra[b];
		}
	}
	for (int32_t b = 0; b < nb; b++)
		if (g->blocks[b].callee >= 0) {
			int32_t c = g->blocks[b].callee;
			pred[c][npred[c]++] = b;
		}
	free(extra);
	return store;
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
			g->blocks[b].callee = -1;
		}
		g->blocks[b].last = pc;
		g->block_of[pc] = b;
	}
	free(leader);
	Block *X = &g->blocks[nb];
	X->first = X->last = -1;
	X->idom = X->ipdom = X->loop = X->callee = -1;

	/* edges: a branch lists its fall-through successor first, then its
	** target; every list lives in edge_store (at most 2 successors a block,
	** predecessors counted first) */
	int32_t nedges = 0;
	g->edge_store = xmalloc((size_t)4 * (size_t)nb * sizeof *g->edge_store);
	int32_t *succ_store = g->edge_store, *pred_store = g->edge_store + 2 * (size_t)nb;
	for (b = 0; b < nb; b++) {
		Block *bb = &g->blocks[b];
		const Ins *last = &p->ins[bb->last];
		int32_t next = bb->last + 1 < n ? g->block_of[bb->last + 1] : -1;
		bb->succ = succ_store + 2 * (size_t)b;
		switch (last->op) {
		case OP_BZ:
		case OP_BNZ:
			if (next >= 0)
				bb->succ[bb->nsucc++] = next;
			if (last->target >= 0)
				bb->succ[bb->nsucc++] = g->block_of[last->target];
			break;
		case OP_JUMP:
			if (last->target >= 0)
				bb->succ[bb->nsucc++] = g->block_of[last->target];
			break;
		case OP_STOP:
		case OP_EXIT:
		case OP_RET:
			bb->succ[bb->nsucc++] = nb;
			break;
		case OP_CALL:
			if (last->target >= 0)
				bb->callee = g->block_of[last->target];
			if (next >= 0)
				bb->succ[bb->nsucc++] = next;
			break;
		default:
			if (next >= 0)
				bb->succ[bb->nsucc++] = next;
			break;
		}
		/* predecessors, program order, each once */
		for (int32_t k = 0; k < bb->nsucc; k++)
			if (k == 0 || bb->succ[k] != bb->succ[0]) {
				g->blocks[bb->succ[k]].npred++;
				nedges++;
			}
	}
	for (int32_t i = 0, off = 0; i <= nb; i++) {
		g->blocks[i].pred = pred_store + off;
		off += g->blocks[i].npred;
		g->blocks[i].npred = 0;
	}
	for (b = 0; b < nb; b++) {
		Block *bb = &g->blocks[b];
		for (int32_t k = 0; k < bb->nsucc; k++) {
			Block *bs = &g->blocks[bb->succ[k]];
			if (k > 0 && bb->succ[k] == bb->succ[0]) {
				bb->succ_phi[k] = bb->succ_phi[0];
				continue;
			}
			bb->succ_phi[k] = bs->npred;
			bs->pred[bs->npred++] = b;
		}
	}
	(void)nedges;

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
	/* calls: the forward walk and the dominators follow call edges too */
	int32_t *call_store = p->has_calls ? with_calls(g, succ, nsucc, pred, npred) : NULL;
	Walk fw;
	walk(nb + 1, 0, succ, nsucc, &fw);
	int32_t *idom = xmalloc((size_t)(nb + 1) * sizeof *idom);
	dominators(nb + 1, 0, &fw, pred, npred, idom);
	if (call_store) { /* back to the intraprocedural graph */
		free(call_store);
		for (int32_t i = 0; i <= nb; i++) {
			succ[i] = g->blocks[i].succ;
			nsucc[i] = g->blocks[i].nsucc;
			pred[i] = g->blocks[i].pred;
			npred[i] = g->blocks[i].npred;
		}
	}
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
	int32_t *xsucc = NULL; /* their successor lists with the exit added, 3 a block */
	for (b = 0; b < nb; b++)
		if (bw.num[b] < 0)
			VEC_PUSH(xin, nxin, xcap, b);
	if (nxin > 0) {
		/* the exit's predecessor list and the successor lists used by the
		** reverse walk (in reverse, the exit's "successors" are its preds) */
		int32_t *xp = xmalloc((size_t)(npred[nb] + nxin) * sizeof *xp);
		if (npred[nb] > 0)
			memcpy(xp, pred[nb], (size_t)npred[nb] * sizeof *xp);
		memcpy(xp + npred[nb], xin, (size_t)nxin * sizeof *xp);
		pred[nb] = xp;
		npred[nb] += nxin;
		xsucc = xmalloc((size_t)3 * (size_t)nxin * sizeof *xsucc);
		for (int32_t j = 0; j < nxin; j++) {
			int32_t v = xin[j], *s = xsucc + 3 * (size_t)j;
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
	if (nxin > 0)
		free(pred[nb]);
	free(xsucc);
	free(xin);
	free(idom);
	free(ipdom);
	free(succ);
	free(nsucc);
	free(pred);
	free(npred);

	number_tree(g, false);
	number_tree(g, true);
	heavy_paths(g);
	find_loops(g);
	priorities(g);

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
	for (b = 0; b < nb; b++)
		for (int32_t k = 0; k < g->blocks[b].nsucc; k++) {
			int32_t s = g->blocks[b].succ[k];
			g->blocks[b].feeds_gsa |= s >= 0 && s < nb && g->blocks[s].ngsa > 0;
		}
	return g;
}

void cfg_free(Cfg *g)
{
	if (!g)
		return;
	for (int32_t b = 0; b <= g->nblocks && g->blocks; b++)
		free(g->blocks[b].mu_index);
	for (int32_t l = 0; l < g->nloops; l++)
		free(g->loops[l].latches);
	free(g->loops);
	free(g->loop_body);
	free(g->edge_store);
	free(g->dom_path);
	free(g->blocks);
	free(g->block_of);
	free(g->rpo);
	free(g->func_entry);
	free(g->func_of);
	free(g->func_height);
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
	const Block *ba = &g->blocks[a], *bb = &g->blocks[b];
	if (!bb->reachable || ba->dom_pre < 0)
		return false;
	return ba->dom_pre <= bb->dom_pre && bb->dom_pre <= ba->dom_last;
}

bool cfg_postdominates(const Cfg *g, int32_t a, int32_t b)
{
	if (a == b || a == g->nblocks)
		return true;
	if (b == g->nblocks)
		return false;
	const Block *ba = &g->blocks[a], *bb = &g->blocks[b];
	if (ba->pdom_pre < 0 || bb->pdom_pre < 0)
		return false;
	return ba->pdom_pre <= bb->pdom_pre && bb->pdom_pre <= ba->pdom_last;
}

int32_t cfg_dom_lca(const Cfg *g, int32_t a, int32_t b)
{
	const Block *B = g->blocks;
	while (B[a].dom_head != B[b].dom_head) {
		if (B[B[a].dom_head].dom_depth > B[B[b].dom_head].dom_depth)
			a = B[B[a].dom_head].idom;
		else
			b = B[B[b].dom_head].idom;
	}
	return B[a].dom_depth < B[b].dom_depth ? a : b;
}

int32_t cfg_dom_ancestor(const Cfg *g, int32_t b, int32_t depth)
{
	const Block *B = g->blocks;
	while (B[B[b].dom_head].dom_depth > depth)
		b = B[B[b].dom_head].idom;
	return g->dom_path[B[b].dom_hpos - (B[b].dom_depth - depth)];
}

bool cfg_loop_contains(const Cfg *g, int32_t l, int32_t b)
{
	const Loop *L = &g->loops[l];
	int32_t pos = g->blocks[b].loop_pos, off = (int32_t)(L->blocks - g->loop_body);
	return pos >= off && pos < off + L->nblocks;
}

int32_t cfg_ipdom_pc(const Cfg *g, int32_t pc)
{
	int32_t r = g->blocks[g->block_of[pc]].ipdom;
	return (r < 0 || r >= g->nblocks) ? -1 : g->blocks[r].first;
}

int32_t cfg_phi_index(const Cfg *g, int32_t block, int32_t pred)
{
	if (pred < 0 || pred >= g->nblocks)
		return -1;
	const Block *q = &g->blocks[pred];
	for (int32_t k = 0; k < q->nsucc; k++)
		if (q->succ[k] == block)
			return q->succ_phi[k];
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

/* Numbers are written with buf_put_i64 rather than buf_printf: `cfg` on
** 10^6 instructions prints some 10^7 of them. */
static void put_num(Buf *out, const char *prefix, int64_t v)
{
	buf_puts(out, prefix);
	buf_put_i64(out, v);
}

static void print_block_name(Buf *out, const Cfg *g, int32_t b)
{
	if (b >= g->nblocks)
		buf_puts(out, "exit");
	else
		put_num(out, "B", b);
}

/* Columns of a table row: the width up to mark is known, so padding scans
** each character once (buf_pad rescans the line). */
typedef struct Row {
	size_t mark, width;
} Row;

static void row_pad(Buf *out, Row *r, size_t col)
{
	r->width += utf8_width(out->s + r->mark, out->len - r->mark);
	while (r->width < col) {
		buf_putc(out, ' ');
		r->width++;
	}
	r->mark = out->len;
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

/* Trees are indented two columns a level down to TREE_INDENT_CAP levels;
** deeper lines stay at that indentation and state their depth, so the
** output is linear in the number of blocks however deep the tree is. */
#define TREE_INDENT_CAP 16

static void print_tree(Buf *out, const Cfg *g, bool post)
{
	int32_t n = g->nblocks + 1, root = post ? g->nblocks : 0;
	int32_t *parent = xmalloc((size_t)n * sizeof *parent);
	int32_t *order = xmalloc((size_t)n * sizeof *order);
	int32_t *depth = xmalloc((size_t)n * sizeof *depth);
	for (int32_t b = 0; b < n; b++)
		parent[b] = post ? g->blocks[b].ipdom : g->blocks[b].idom;
	int32_t count = tree_preorder(n, parent, root, order, depth, NULL);
	for (int32_t i = 0; i < count; i++) {
		int32_t b = order[i], d = depth[b];
		static const char spaces[] = "                                  ";
		_Static_assert(sizeof spaces > 2 * (TREE_INDENT_CAP + 1), "indentation of the cap");
		buf_putn(out, spaces, 2 * (size_t)((d < TREE_INDENT_CAP ? d : TREE_INDENT_CAP) + 1));
		print_block_name(out, g, b);
		if (d > TREE_INDENT_CAP) {
			put_num(out, "  (depth ", d);
			buf_putc(out, ')');
		}
		buf_putc(out, '\n');
	}
	free(parent);
	free(order);
	free(depth);
}

/* A loop's body as its own blocks and its inner loops (an inner loop stands
** for all its blocks), in ascending order of block (an inner loop's:
** its header). The inner loops follow the own blocks in Loop.blocks. */
static void print_loop_body(Buf *out, const Cfg *g, const Loop *L)
{
	int32_t i = 0, pos = L->nown;
	bool first = true;
	while (i < L->nown || pos < L->nblocks) {
		int32_t inner = pos < L->nblocks ? g->blocks[L->blocks[pos]].loop : -1;
		if (!first)
			buf_putc(out, ' ');
		first = false;
		if (inner >= 0 && (i == L->nown || g->loops[inner].header < L->blocks[i])) {
			put_num(out, "L", inner);
			pos += g->loops[inner].nblocks;
		} else {
			print_block_name(out, g, L->blocks[i++]);
		}
	}
}

void cfg_print(Buf *out, const Program *p, const Cfg *g)
{
	buf_printf(out, "%d blocks (exit is the virtual exit)\n\n", g->nblocks);
	buf_puts(out, "block  instructions          lines    preds        succs        idom  ipdom  loop\n");
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bb = &g->blocks[b];
		Row row = {out->len, 0};
		print_block_name(out, g, b);
		row_pad(out, &row, 7);
		ir_print_where(out, p, bb->first);
		if (bb->last != bb->first) {
			buf_puts(out, " .. ");
			ir_print_where(out, p, bb->last);
		}
		row_pad(out, &row, 29);
		int32_t l0 = p->ins[bb->first].loc.line, l1 = p->ins[bb->last].loc.line;
		put_num(out, "", l0);
		if (l0 != l1)
			put_num(out, "-", l1);
		row_pad(out, &row, 38);
		print_block_list(out, g, bb->pred, bb->npred);
		row_pad(out, &row, 51);
		print_block_list(out, g, bb->succ, bb->nsucc);
		row_pad(out, &row, 64);
		if (bb->idom >= 0)
			print_block_name(out, g, bb->idom);
		else
			buf_puts(out, "-");
		row_pad(out, &row, 70);
		if (bb->ipdom >= 0)
			print_block_name(out, g, bb->ipdom);
		else
			buf_puts(out, "-");
		row_pad(out, &row, 77);
		if (bb->loop >= 0)
			put_num(out, "L", bb->loop);
		else
			buf_puts(out, "-");
		if (!bb->reachable)
			buf_puts(out, "  (unreachable)");
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
			else if (last->op == OP_CALL)
				buf_puts(out, "  (return point)");
			buf_putc(out, '\n');
		}
		if (bb->callee >= 0) { /* not an edge of the graph: the call enters a function */
			buf_puts(out, "  ");
			print_block_name(out, g, b);
			buf_puts(out, " => ");
			print_block_name(out, g, bb->callee);
			buf_puts(out, "  (call)\n");
		}
	}
	if (g->nfuncs > 1) {
		buf_puts(out, "\nfunctions (a call enters, its rets go back to the return point):\n");
		for (int32_t f = 0; f < g->nfuncs; f++) {
			buf_puts(out, "  ");
			cfg_print_func(out, p, g, f);
			buf_puts(out, ":");
			for (int32_t b = 0; b < g->nblocks; b++)
				if (g->func_of[b] == f) {
					buf_putc(out, ' ');
					print_block_name(out, g, b);
				}
			if (g->func_height)
				put_num(out, "  (calls nested below: ", g->func_height[f]);
			buf_puts(out, g->func_height ? ")\n" : "\n");
		}
	}

	buf_puts(out, "\ndominator tree:\n");
	print_tree(out, g, false);
	for (int32_t b = 1; b < g->nblocks; b++)
		if (!g->blocks[b].reachable) {
			buf_puts(out, "  ");
			print_block_name(out, g, b);
			buf_puts(out, " (unreachable)\n");
		}
	buf_puts(out, "\npost-dominator tree:\n");
	print_tree(out, g, true);

	buf_puts(out, "\nbranches (reconvergence point = immediate post-dominator):\n");
	bool any = false;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (!ir_is_branch(ins->op))
			continue;
		any = true;
		buf_puts(out, "  ");
		ir_print_where(out, p, pc);
		put_num(out, " (line ", ins->loc.line);
		buf_puts(out, "): ");
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
		put_num(out, "  L", l);
		buf_puts(out, "  header ");
		print_block_name(out, g, L->header);
		buf_puts(out, " (");
		ir_print_where(out, p, g->blocks[L->header].first);
		buf_puts(out, ")  body ");
		print_loop_body(out, g, L);
		buf_puts(out, "  latches ");
		print_block_list(out, g, L->latches, L->nlatches);
		put_num(out, "  depth ", L->depth);
		if (L->parent >= 0)
			put_num(out, "  parent L", L->parent);
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
		if (bb->callee >= 0) /* a call enters a function: dashed */
			buf_printf(out, "  B%d -> B%d [style=dashed, label=\"call\"];\n", b, bb->callee);
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
