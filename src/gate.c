/*
** gate.c — gating functions of joins (gate.h): the decision DAG of the
** edges into a join block, by one depth-first walk with an explicit stack
** over the acyclic region between the join's immediate dominator and it.
*/
#include "gate.h"

#include <stdlib.h>
#include <string.h>

enum { ST_NEW = 0, ST_OPEN = 1, ST_DONE = 2 };

void gate_init(GateWalk *w, const Program *p, const Cfg *g)
{
	memset(w, 0, sizeof *w);
	w->p = p;
	w->g = g;
	size_t nb = (size_t)g->nblocks + 1;
	w->stamp = xcalloc(nb, sizeof *w->stamp);
	w->state = xcalloc(nb, sizeof *w->state);
	w->val = xcalloc(nb, sizeof *w->val);
}

void gate_free(GateWalk *w)
{
	free(w->stamp);
	free(w->state);
	free(w->val);
	free(w->br);
	free(w->t);
	free(w->f);
	free(w->ht);
	free(w->stk);
	free(w->stki);
	free(w->tmp);
	memset(w, 0, sizeof *w);
}

int32_t gate_succ(const Program *p, const Cfg *g, int32_t blk, bool nonzero)
{
	const Ins *last = &p->ins[g->blocks[blk].last];
	bool jump = last->op == OP_BZ ? !nonzero : nonzero; /* bz jumps where p = 0 */
	return g->blocks[blk].nsucc < 2 ? 0 : jump ? 1 : 0;
}

/* ---- hash-consed nodes ----------------------------------------------------- */

static uint32_t node_hash(int32_t br, int32_t t, int32_t f)
{
	uint64_t h = (uint64_t)(uint32_t)br * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)(uint32_t)t * 0xc2b2ae3d27d4eb4full + (h >> 29);
	h ^= (uint64_t)(uint32_t)f * 0x165667b19e3779f9ull + (h >> 31);
	return (uint32_t)(h ^ (h >> 32));
}

static void ht_insert(GateWalk *w, int32_t k)
{
	uint32_t mask = (uint32_t)w->htcap - 1;
	uint32_t i = node_hash(w->br[k], w->t[k], w->f[k]) & mask;
	while (w->ht[i])
		i = (i + 1) & mask;
	w->ht[i] = k + 1;
}

static void ht_grow(GateWalk *w)
{
	free(w->ht);
	w->htcap = w->htcap ? 2 * w->htcap : 64;
	w->ht = xcalloc((size_t)w->htcap, sizeof *w->ht);
	for (int32_t k = 0; k < w->nnodes; k++)
		ht_insert(w, k);
}

/* gate(br, t, f), simplified and shared. */
static int32_t mk(GateWalk *w, int32_t br, int32_t t, int32_t f)
{
	if (t == f || f == GATE_BOT)
		return t;
	if (t == GATE_BOT)
		return f;
	if (2 * (w->nnodes + 1) > w->htcap)
		ht_grow(w);
	uint32_t mask = (uint32_t)w->htcap - 1;
	for (uint32_t i = node_hash(br, t, f) & mask; w->ht[i]; i = (i + 1) & mask) {
		int32_t k = w->ht[i] - 1;
		if (w->br[k] == br && w->t[k] == t && w->f[k] == f)
			return GATE_NODE(k);
	}
	if (w->nnodes == w->capnodes) {
		w->capnodes = w->capnodes ? 2 * w->capnodes : 32;
		w->br = xrealloc(w->br, (size_t)w->capnodes * sizeof *w->br);
		w->t = xrealloc(w->t, (size_t)w->capnodes * sizeof *w->t);
		w->f = xrealloc(w->f, (size_t)w->capnodes * sizeof *w->f);
	}
	int32_t k = w->nnodes++;
	w->br[k] = br;
	w->t[k] = t;
	w->f[k] = f;
	ht_insert(w, k);
	return GATE_NODE(k);
}

static void reset_nodes(GateWalk *w)
{
	w->nnodes = 0;
	if (w->ht)
		memset(w->ht, 0, (size_t)w->htcap * sizeof *w->ht);
}

/* ---- the walk ------------------------------------------------------------------ */

typedef struct Walk {
	GateWalk *w;
	int32_t J, D, loop;
	const int32_t *leaf;
} Walk;

static bool in_loop(const Cfg *g, int32_t blk, int32_t loop)
{
	return cfg_loop_contains(g, loop, blk);
}

static bool is_branch_block(const GateWalk *w, int32_t X)
{
	const Block *b = &w->g->blocks[X];
	return ir_is_branch((Op)w->p->ins[b->last].op) && b->nsucc == 2;
}

/* The skip of gate.h: X's ipdom Y comes before J on every path from X. */
static bool skip_target(const Walk *k, int32_t X, int32_t *Y)
{
	const Cfg *g = k->w->g;
	int32_t y = g->blocks[X].ipdom;
	if (y < 0 || y >= g->nblocks || y == k->J || cfg_postdominates(g, y, k->J))
		return false;
	*Y = y;
	return true;
}

/* The value carried by the edge X → S when it is known without walking
** S (a leaf or ⊥); else *walk = S. */
static int32_t edge_value(const Walk *k, int32_t X, int32_t S, bool skip, int32_t *walk)
{
	const Cfg *g = k->w->g;
	*walk = -1;
	if (!skip && S == k->J) {
		int32_t j = cfg_phi_index(g, k->J, X);
		return j >= 0 ? k->leaf[j] : GATE_BOT;
	}
	if (S < 0 || S >= g->nblocks || S == k->J)
		return GATE_BOT;
	if (cfg_dominates(g, S, X) || !cfg_dominates(g, k->D, S))
		return GATE_BOT; /* a back edge, or out of D's region: another instance */
	if (k->loop >= 0 && !in_loop(g, S, k->loop))
		return GATE_BOT;
	*walk = S;
	return GATE_BOT;
}

static void push(GateWalk *w, int32_t *sp, int32_t X)
{
	if (*sp == w->capstk) {
		w->capstk = w->capstk ? 2 * w->capstk : 64;
		w->stk = xrealloc(w->stk, (size_t)w->capstk * sizeof *w->stk);
		w->stki = xrealloc(w->stki, (size_t)w->capstk * sizeof *w->stki);
	}
	w->stk[*sp] = X;
	w->stki[*sp] = 0;
	(*sp)++;
	w->stamp[X] = w->cur;
	w->state[X] = ST_OPEN;
}

static int32_t state_of(const GateWalk *w, int32_t X)
{
	return w->stamp[X] == w->cur ? w->state[X] : ST_NEW;
}

/* The value of edge i of X once its target is walked. */
static int32_t edge_final(const Walk *k, int32_t X, int32_t S, bool skip)
{
	int32_t walk;
	int32_t v = edge_value(k, X, S, skip, &walk);
	if (walk < 0)
		return v;
	return state_of(k->w, walk) == ST_DONE ? k->w->val[walk] : GATE_BOT;
}

int32_t gate_build(GateWalk *w, int32_t J, int32_t D, const int32_t *leaf, int32_t loop,
                   int32_t max_nodes)
{
	const Cfg *g = w->g;
	Walk k = {.w = w, .J = J, .D = D, .loop = loop, .leaf = leaf};
	reset_nodes(w);
	w->cur++;
	int32_t sp = 0;
	push(w, &sp, D);
	while (sp > 0) {
		int32_t X = w->stk[sp - 1];
		int32_t Y = -1;
		bool skip = X != D || D != J ? skip_target(&k, X, &Y) : false;
		const Block *b = &g->blocks[X];
		int32_t nedges = skip ? 1 : b->nsucc;
		bool pushed = false;
		while (w->stki[sp - 1] < nedges) {
			int32_t i = w->stki[sp - 1]++;
			int32_t S = skip ? Y : b->succ[i];
			int32_t walk;
			edge_value(&k, X, S, skip, &walk);
			if (walk >= 0 && state_of(w, walk) == ST_NEW) {
				push(w, &sp, walk);
				pushed = true;
				break;
			}
			/* ST_OPEN would be a cycle: impossible without back edges; it
			** reads as ⊥ in edge_final */
		}
		if (pushed)
			continue;
		int32_t v;
		if (skip)
			v = edge_final(&k, X, Y, true);
		else if (is_branch_block(w, X)) {
			int32_t nz = gate_succ(w->p, g, X, true), z = gate_succ(w->p, g, X, false);
			v = mk(w, X, edge_final(&k, X, b->succ[nz], false), edge_final(&k, X, b->succ[z], false));
		} else
			v = b->nsucc > 0 ? edge_final(&k, X, b->succ[0], false) : GATE_BOT;
		w->state[X] = ST_DONE;
		w->val[X] = v;
		sp--;
		if (w->nnodes > max_nodes)
			return GATE_TOO_BIG;
	}
	return w->val[D];
}

/* ---- using a DAG ------------------------------------------------------------------ */

static void grow_tmp(GateWalk *w, int32_t n)
{
	if (n > w->captmp) {
		w->captmp = n;
		w->tmp = xrealloc(w->tmp, (size_t)n * sizeof *w->tmp);
	}
}

int32_t gate_relabel(GateWalk *w, int32_t root, const int32_t *map)
{
	if (!GATE_IS_NODE(root))
		return root >= 0 ? map[root] : root;
	int32_t n = GATE_NODE_INDEX(root) + 1; /* children come before parents */
	grow_tmp(w, n);
	for (int32_t i = 0; i < n; i++) {
		int32_t t = w->t[i], f = w->f[i];
		t = GATE_IS_NODE(t) ? w->tmp[GATE_NODE_INDEX(t)] : t >= 0 ? map[t] : t;
		f = GATE_IS_NODE(f) ? w->tmp[GATE_NODE_INDEX(f)] : f >= 0 ? map[f] : f;
		w->tmp[i] = mk(w, w->br[i], t, f);
	}
	return w->tmp[n - 1];
}

int32_t gate_tree_size(GateWalk *w, int32_t root, int32_t limit)
{
	if (!GATE_IS_NODE(root))
		return 1;
	int32_t n = GATE_NODE_INDEX(root) + 1;
	grow_tmp(w, n);
	for (int32_t i = 0; i < n; i++) {
		int64_t s = 1;
		int32_t kids[2] = {w->t[i], w->f[i]};
		for (int j = 0; j < 2; j++)
			s += GATE_IS_NODE(kids[j]) ? w->tmp[GATE_NODE_INDEX(kids[j])] : 1;
		w->tmp[i] = s > limit ? limit : (int32_t)s;
	}
	return w->tmp[n - 1];
}

void gate_branches(GateWalk *w, int32_t root, int32_t **out, int32_t *nout, int32_t *cap)
{
	if (!GATE_IS_NODE(root))
		return;
	int32_t n = GATE_NODE_INDEX(root) + 1;
	grow_tmp(w, n);
	memset(w->tmp, 0, (size_t)n * sizeof *w->tmp);
	w->tmp[n - 1] = 1;
	for (int32_t i = n - 1; i >= 0; i--) { /* parents before children */
		if (!w->tmp[i])
			continue;
		VEC_PUSH(*out, *nout, *cap, w->br[i]);
		if (GATE_IS_NODE(w->t[i]))
			w->tmp[GATE_NODE_INDEX(w->t[i])] = 1;
		if (GATE_IS_NODE(w->f[i]))
			w->tmp[GATE_NODE_INDEX(w->f[i])] = 1;
	}
}
