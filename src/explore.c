/*
** explore.c — the state graph of one program under one model, searched
** breadth first (explore.md §3, §4; explore.h).
**
** A state is stored as its canonical bytes (sem_pack) in an arena and found
** again through an open-addressing table of their hashes; states are
** numbered in the order they are found, so that expanding them in that
** order is the breadth-first search, and each keeps the state and the warp
** it was first reached from: the path back is a shortest schedule. Only
** the bytes are kept: expanding a state unpacks it (sem_unpack) into the one
** working machine before each choice and steps it. The choices of
** explore.md §1 this search enumerates: the warp (under mimd every thread),
** under its:any the group, with --path-order both the side a branch runs
** first, and with --atomic-order any each distinct outcome of the order of
** the lanes at a store or an atomic: the step in the lane order reports
** how many there are (StepInfo.norders), and each other one is a further
** alternative of the same choice (sem_step_group); under aware with a
** timeout, whether a reconvergence gives up first (the model's choose;
** choice_key labels it).
**
** Partial-order reduction (local_step): a state where some warp's only
** choice is a step no other warp can see is expanded by that step alone
** when it leads to a new state (the cycle proviso). Such a step is enabled
** until taken and commutes with every other step, so every deadlock, final
** state and fair run from the state survives with it first: the verdicts
** are those of the full graph (tests/test_explore.c compares them).
**
** The search stops at the first deadlock (a state where some thread is
** unfinished and no warp can step, or a step that gets stuck): breadth first,
** it is a shortest one. Otherwise, once the graph is complete, its strongly
** connected components (Tarjan's algorithm, with an explicit stack) decide
** between termination and a livelock: a component with an internal edge is
** fair when every warp enabled in all of its states labels one of its edges
** (weak fairness); a fair component is a livelock, reported with a shortest
** prefix to it and a fair cycle through it, `doomed` when no final state is
** reachable from it.
*/
#include "explore.h"

#include "model.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *explore_verdict_name(ExploreVerdict v)
{
	switch (v) {
	case EXPLORE_TERMINATES: return "terminates";
	case EXPLORE_TERMINATES_FAIR: return "terminates-fair";
	case EXPLORE_DEADLOCK: return "deadlock";
	case EXPLORE_LIVELOCK: return "livelock";
	case EXPLORE_UNKNOWN: return "unknown";
	}
	return "?";
}

typedef struct I32s {
	int32_t *v;
	int64_t n, cap;
} I32s;

static void push32(I32s *a, int32_t x) { VEC_PUSH(a->v, a->n, a->cap, x); }


typedef struct Graph {
	int32_t n, cap;            /* states */
	uint64_t *off;             /* state i's bytes: arena[off[i] .. off[i] + len[i]) */
	uint32_t *len;
	uint64_t *hash;
	int32_t *parent, *via, *viag, *depth; /* via: the warp, viag: the group (its:any) */
	bool *final;               /* every thread finished (SEM_OK) */
	int64_t *en_start;         /* what can step in state i: labels en.v[en_start[i] .. en_start[i + 1]) */
	I32s en;
	/* Fairness is over labels: the warps, or under a model whose groups are
	** choices, the pairs (warp, pc of the group), numbered densely. */
	bool groups;
	int64_t *lkey;             /* label id → (warp << 32 | pc) */
	int32_t nlabels, caplabels;
	int32_t *ltable;           /* open addressing: label ids by key, -1 empty */
	uint32_t ltcap;
	Buf arena;
	int32_t *table;            /* state ids by hash, -1 empty; tcap a power of two */
	uint32_t tcap;
	I32s efrom, eto, elabel;   /* transitions */
	I32s ewarp, egroup;        /* the choice each made */
	Buf scratch;
} Graph;

static uint64_t graph_bytes(const Graph *g)
{
	return (uint64_t)g->cap * (sizeof *g->off + sizeof *g->len + sizeof *g->hash + 3 * sizeof(int32_t) +
	                           sizeof *g->final + sizeof *g->en_start + sizeof *g->viag) +
	       (uint64_t)g->tcap * sizeof *g->table + g->arena.cap +
	       (uint64_t)(g->en.cap + g->efrom.cap + g->eto.cap + g->elabel.cap + g->ewarp.cap + g->egroup.cap) *
	           sizeof(int32_t) +
	       (uint64_t)g->caplabels * sizeof *g->lkey + (uint64_t)g->ltcap * sizeof *g->ltable;
}

static void table_grow(Graph *g)
{
	uint32_t cap = g->tcap ? 2 * g->tcap : 1024;
	free(g->table);
	g->table = xmalloc((size_t)cap * sizeof *g->table);
	for (uint32_t i = 0; i < cap; i++)
		g->table[i] = -1;
	g->tcap = cap;
	for (int32_t s = 0; s < g->n; s++) {
		uint32_t h = (uint32_t)g->hash[s] & (cap - 1);
		while (g->table[h] >= 0)
			h = (h + 1) & (cap - 1);
		g->table[h] = s;
	}
}

/* The state whose bytes are g->scratch, or -1; *slot is where it would go. */
static int32_t find(const Graph *g, uint64_t hash, uint32_t *slot)
{
	const char *bytes = g->scratch.s;
	size_t n = g->scratch.len;
	uint32_t mask = g->tcap - 1;
	for (uint32_t h = (uint32_t)hash & mask;; h = (h + 1) & mask) {
		int32_t s = g->table[h];
		if (s < 0) {
			*slot = h;
			return -1;
		}
		if (g->hash[s] == hash && g->len[s] == n && memcmp(g->arena.s + g->off[s], bytes, n) == 0)
			return s;
	}
}

/* Add the state packed in g->scratch, reached from parent by warp via. */
static int32_t add_state(Graph *g, uint64_t hash, uint32_t slot, int32_t parent, int32_t via, int32_t viag)
{
	if (g->n == g->cap) {
		int32_t cap = g->cap ? 2 * g->cap : 256;
		g->off = xrealloc(g->off, (size_t)cap * sizeof *g->off);
		g->len = xrealloc(g->len, (size_t)cap * sizeof *g->len);
		g->hash = xrealloc(g->hash, (size_t)cap * sizeof *g->hash);
		g->parent = xrealloc(g->parent, (size_t)cap * sizeof *g->parent);
		g->via = xrealloc(g->via, (size_t)cap * sizeof *g->via);
		g->viag = xrealloc(g->viag, (size_t)cap * sizeof *g->viag);
		g->depth = xrealloc(g->depth, (size_t)cap * sizeof *g->depth);
		g->final = xrealloc(g->final, (size_t)cap * sizeof *g->final);
		g->en_start = xrealloc(g->en_start, ((size_t)cap + 1) * sizeof *g->en_start);
		g->cap = cap;
	}
	int32_t s = g->n++;
	g->off[s] = g->arena.len;
	g->len[s] = (uint32_t)g->scratch.len;
	buf_putn(&g->arena, g->scratch.s, g->scratch.len);
	g->hash[s] = hash;
	g->parent[s] = parent;
	g->via[s] = via;
	g->viag[s] = viag;
	g->depth[s] = parent >= 0 ? g->depth[parent] + 1 : 0;
	g->final[s] = false;
	g->table[slot] = s;
	if ((uint64_t)g->n * 2 > g->tcap)
		table_grow(g);
	return s;
}

static void add_edge(Graph *g, int32_t from, int32_t to, int32_t label, int32_t warp, int32_t group)
{
	push32(&g->efrom, from);
	push32(&g->eto, to);
	push32(&g->elabel, label);
	push32(&g->ewarp, warp);
	push32(&g->egroup, group);
}

/* The dense id of the label (warp, pc): the warp itself unless groups are
** choices. */
static int32_t label_of(Graph *g, int32_t warp, int32_t pc)
{
	if (!g->groups)
		return warp;
	int64_t key = (int64_t)warp << 32 | (uint32_t)pc;
	if ((uint32_t)g->nlabels * 2 >= g->ltcap) {
		uint32_t cap = g->ltcap ? 2 * g->ltcap : 64;
		free(g->ltable);
		g->ltable = xmalloc((size_t)cap * sizeof *g->ltable);
		for (uint32_t i = 0; i < cap; i++)
			g->ltable[i] = -1;
		g->ltcap = cap;
		for (int32_t id = 0; id < g->nlabels; id++) {
			uint32_t h = (uint32_t)sem_hash_bytes(&g->lkey[id], sizeof *g->lkey) & (cap - 1);
			while (g->ltable[h] >= 0)
				h = (h + 1) & (cap - 1);
			g->ltable[h] = id;
		}
	}
	uint32_t mask = g->ltcap - 1;
	uint32_t h = (uint32_t)sem_hash_bytes(&key, sizeof key) & mask;
	for (; g->ltable[h] >= 0; h = (h + 1) & mask)
		if (g->lkey[g->ltable[h]] == key)
			return g->ltable[h];
	VEC_PUSH(g->lkey, g->nlabels, g->caplabels, key);
	g->ltable[h] = g->nlabels - 1;
	return g->nlabels - 1;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A schedule: the warp and the group of each step. */
typedef struct Sched {
	I32s warp, group;
} Sched;

static void sched_push(Sched *s, int32_t warp, int32_t group)
{
	push32(&s->warp, warp);
	push32(&s->group, group);
}

static void reverse_from(I32s *a, int64_t start)
{
	for (int64_t i = start, j = a->n - 1; i < j; i++, j--) {
		int32_t t = a->v[i];
		a->v[i] = a->v[j];
		a->v[j] = t;
	}
}

/* The schedule from the initial state to s, appended to out. */
static void path_to(const Graph *g, int32_t s, Sched *out)
{
	int64_t start = out->warp.n;
	for (int32_t x = s; g->parent[x] >= 0; x = g->parent[x])
		sched_push(out, g->via[x], g->viag[x]);
	reverse_from(&out->warp, start);
	reverse_from(&out->group, start);
}

/* ---- strongly connected components ---------------------------------------------- */

typedef struct Csr {
	int64_t *start;  /* edges of state s: e[start[s] .. start[s + 1]) */
	int64_t *e;      /* edge indexes */
} Csr;

static Csr csr_out(const Graph *g)
{
	Csr c;
	c.start = xcalloc((size_t)g->n + 2, sizeof *c.start);
	c.e = xmalloc(((size_t)g->efrom.n + 1) * sizeof *c.e);
	for (int64_t i = 0; i < g->efrom.n; i++)
		c.start[g->efrom.v[i] + 1]++;
	for (int32_t s = 0; s < g->n; s++)
		c.start[s + 1] += c.start[s];
	int64_t *fill = xmalloc(((size_t)g->n + 1) * sizeof *fill);
	memcpy(fill, c.start, ((size_t)g->n + 1) * sizeof *fill);
	for (int64_t i = 0; i < g->efrom.n; i++)
		c.e[fill[g->efrom.v[i]]++] = i;
	free(fill);
	return c;
}

static void csr_free(Csr *c)
{
	free(c->start);
	free(c->e);
}

/* Tarjan's algorithm without recursion: comp[s] is s's component, numbered
** in the order components complete; returns their number. */
static int32_t tarjan(const Graph *g, const Csr *c, int32_t *comp)
{
	int32_t n = g->n, ncomp = 0, counter = 0;
	int32_t *index = xmalloc(((size_t)n + 1) * sizeof *index);
	int32_t *low = xmalloc(((size_t)n + 1) * sizeof *low);
	bool *on = xcalloc((size_t)n + 1, sizeof *on);
	int32_t *stack = xmalloc(((size_t)n + 1) * sizeof *stack);
	int32_t *call = xmalloc(((size_t)n + 1) * sizeof *call);   /* DFS path */
	int64_t *next = xmalloc(((size_t)n + 1) * sizeof *next);   /* next edge to try */
	int32_t sp = 0, cp = 0;
	for (int32_t s = 0; s < n; s++)
		index[s] = -1;
	for (int32_t root = 0; root < n; root++) {
		if (index[root] >= 0)
			continue;
		call[cp++] = root;
		index[root] = low[root] = counter++;
		stack[sp++] = root;
		on[root] = true;
		next[root] = c->start[root];
		while (cp > 0) {
			int32_t v = call[cp - 1];
			if (next[v] < c->start[v + 1]) {
				int32_t w = g->eto.v[c->e[next[v]++]];
				if (index[w] < 0) {
					index[w] = low[w] = counter++;
					stack[sp++] = w;
					on[w] = true;
					next[w] = c->start[w];
					call[cp++] = w;
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			cp--;
			if (cp > 0 && low[v] < low[call[cp - 1]])
				low[call[cp - 1]] = low[v];
			if (low[v] == index[v]) {
				int32_t w;
				do {
					w = stack[--sp];
					on[w] = false;
					comp[w] = ncomp;
				} while (w != v);
				ncomp++;
			}
		}
	}
	free(index);
	free(low);
	free(on);
	free(stack);
	free(call);
	free(next);
	return ncomp;
}

/* Shortest path inside component k from s to a state satisfying goal (or,
** with warp >= 0, to the end of an edge labelled warp), appended to out;
** returns where it ends, or -1. */
static int32_t walk_in(const Graph *g, const Csr *c, const int32_t *comp, int32_t k, int32_t s, int32_t warp,
                       const bool *goal, Sched *out)
{
	int32_t n = g->n;
	int32_t *from = xmalloc(((size_t)n + 1) * sizeof *from);
	int64_t *by = xmalloc(((size_t)n + 1) * sizeof *by);
	for (int32_t x = 0; x < n; x++)
		from[x] = -2;
	int32_t *queue = xmalloc(((size_t)n + 1) * sizeof *queue);
	int32_t head = 0, tail = 0, end = -1;
	int64_t last_edge = -1;
	queue[tail++] = s;
	from[s] = -1;
	while (head < tail && end < 0) {
		int32_t v = queue[head++];
		if (warp < 0 && goal[v] && v != s) {
			end = v;
			break;
		}
		for (int64_t i = c->start[v]; i < c->start[v + 1]; i++) {
			int64_t e = c->e[i];
			int32_t w = g->eto.v[e];
			if (comp[w] != k)
				continue;
			if (warp >= 0 && g->elabel.v[e] == warp) {
				last_edge = e;
				end = w;
				break;
			}
			if (from[w] == -2) {
				from[w] = v;
				by[w] = e;
				queue[tail++] = w;
			}
		}
	}
	if (end >= 0) {
		/* the states from s to the edge's source (or to end), then the edge */
		int32_t stop = last_edge >= 0 ? g->efrom.v[last_edge] : end;
		int64_t start = out->warp.n;
		for (int32_t x = stop; x != s; x = from[x])
			sched_push(out, g->ewarp.v[by[x]], g->egroup.v[by[x]]);
		reverse_from(&out->warp, start);
		reverse_from(&out->group, start);
		if (last_edge >= 0)
			sched_push(out, g->ewarp.v[last_edge], g->egroup.v[last_edge]);
	}
	free(from);
	free(by);
	free(queue);
	return end;
}

/* A fair cycle through entry e of component k, into out: for every warp
** enabled somewhere in k, an edge it labels when it is enabled in every
** state of k, else a state where it is not enabled; then back to e. */
static void fair_cycle(const Graph *g, const Csr *c, const int32_t *comp, int32_t k, int32_t e,
                       const int32_t *always, const int32_t *somewhere, int32_t nwarps, Sched *out)
{
	bool *goal = xcalloc((size_t)g->n + 1, sizeof *goal);
	int32_t cur = e;
	int64_t begin = out->warp.n;
	for (int32_t w = 0; w < nwarps; w++) {
		if (!somewhere[w])
			continue;
		if (cur < 0)
			break; /* cannot happen in a strongly connected component */
		if (always[w]) {
			cur = walk_in(g, c, comp, k, cur, w, goal, out);
			continue;
		}
		/* a state of k where w is not enabled (cur may already be one) */
		bool here = true;
		for (int64_t i = g->en_start[cur]; i < g->en_start[cur + 1]; i++)
			if (g->en.v[i] == w)
				here = false;
		if (here)
			continue;
		memset(goal, 0, (size_t)g->n * sizeof *goal);
		for (int32_t x = 0; x < g->n; x++) {
			if (comp[x] != k)
				continue;
			bool en = false;
			for (int64_t i = g->en_start[x]; i < g->en_start[x + 1]; i++)
				en |= g->en.v[i] == w;
			goal[x] = !en;
		}
		cur = walk_in(g, c, comp, k, cur, -1, goal, out);
	}
	/* back to e: at least one step when nothing was taken yet */
	memset(goal, 0, (size_t)g->n * sizeof *goal);
	goal[e] = true;
	if (cur >= 0 && (cur != e || out->warp.n == begin)) {
		if (cur == e) {
			/* any edge of k out of e, then back */
			for (int64_t i = c->start[e]; i < c->start[e + 1]; i++)
				if (comp[g->eto.v[c->e[i]]] == k) {
					sched_push(out, g->ewarp.v[c->e[i]], g->egroup.v[c->e[i]]);
					cur = g->eto.v[c->e[i]];
					break;
				}
		}
		if (cur != e)
			walk_in(g, c, comp, k, cur, -1, goal, out);
	}
	free(goal);
}

/* The labels of component k's states members[from..to): always[l] when l
** can step in every one of them, somewhere[l] when in some (stamp: scratch
** of nlabels entries, all < 0 or stale). */
static void component_labels(const Graph *g, const int32_t *members, int32_t from, int32_t to, int32_t nlabels,
                             int32_t *always, int32_t *somewhere, int32_t *stamp)
{
	for (int32_t l = 0; l < nlabels; l++)
		always[l] = 0, somewhere[l] = 0, stamp[l] = -1;
	for (int32_t i = from; i < to; i++) {
		int32_t s = members[i];
		for (int64_t j = g->en_start[s]; j < g->en_start[s + 1]; j++) {
			int32_t l = g->en.v[j];
			if (stamp[l] == i)
				continue; /* listed twice (groups of one pc) */
			stamp[l] = i;
			somewhere[l] = 1;
			always[l]++; /* the states it is enabled in */
		}
	}
	for (int32_t l = 0; l < nlabels; l++)
		always[l] = always[l] == to - from;
}

/* After a complete search without deadlock: terminates, terminates-fair or
** livelock. */
static void judge_cycles(const Graph *g, int32_t nwarps, ExploreResult *r, Sched *trace)
{
	Csr c = csr_out(g);
	int32_t *comp = xmalloc(((size_t)g->n + 1) * sizeof *comp);
	int32_t ncomp = tarjan(g, &c, comp);
	/* which components have an internal edge */
	bool *cyclic = xcalloc((size_t)ncomp + 1, sizeof *cyclic);
	bool any_cycle = false;
	for (int64_t i = 0; i < g->efrom.n; i++)
		if (comp[g->efrom.v[i]] == comp[g->eto.v[i]]) {
			cyclic[comp[g->efrom.v[i]]] = true;
			any_cycle = true;
		}
	/* states from which a final state can be reached (backwards from them) */
	bool *can_end = xcalloc((size_t)g->n + 1, sizeof *can_end);
	{
		int64_t *rstart = xcalloc((size_t)g->n + 2, sizeof *rstart);
		int32_t *rsrc = xmalloc(((size_t)g->efrom.n + 1) * sizeof *rsrc);
		for (int64_t i = 0; i < g->efrom.n; i++)
			rstart[g->eto.v[i] + 1]++;
		for (int32_t s = 0; s < g->n; s++)
			rstart[s + 1] += rstart[s];
		int64_t *fill = xmalloc(((size_t)g->n + 1) * sizeof *fill);
		memcpy(fill, rstart, ((size_t)g->n + 1) * sizeof *fill);
		for (int64_t i = 0; i < g->efrom.n; i++)
			rsrc[fill[g->eto.v[i]]++] = g->efrom.v[i];
		free(fill);
		int32_t *queue = xmalloc(((size_t)g->n + 1) * sizeof *queue);
		int32_t head = 0, tail = 0;
		for (int32_t s = 0; s < g->n; s++)
			if (g->final[s]) {
				can_end[s] = true;
				queue[tail++] = s;
			}
		while (head < tail) {
			int32_t v = queue[head++];
			for (int64_t i = rstart[v]; i < rstart[v + 1]; i++)
				if (!can_end[rsrc[i]]) {
					can_end[rsrc[i]] = true;
					queue[tail++] = rsrc[i];
				}
		}
		free(queue);
		free(rstart);
		free(rsrc);
	}
	/* per cyclic component: fair? and its entry (the state found first) */
	int32_t *always = xmalloc(((size_t)nwarps + 1) * sizeof *always);
	int32_t *somewhere = xmalloc(((size_t)nwarps + 1) * sizeof *somewhere);
	int32_t *stamp = xmalloc(((size_t)nwarps + 1) * sizeof *stamp);
	bool *labels = xmalloc(((size_t)nwarps + 1) * sizeof *labels);
	int32_t *entry = xmalloc(((size_t)ncomp + 1) * sizeof *entry);
	for (int32_t k = 0; k < ncomp; k++)
		entry[k] = -1;
	for (int32_t s = 0; s < g->n; s++)
		if (entry[comp[s]] < 0 || g->depth[s] < g->depth[entry[comp[s]]])
			entry[comp[s]] = s;
	/* the members of each component, by counting sort */
	int32_t *mstart = xcalloc((size_t)ncomp + 2, sizeof *mstart);
	int32_t *members = xmalloc(((size_t)g->n + 1) * sizeof *members);
	for (int32_t s = 0; s < g->n; s++)
		mstart[comp[s] + 1]++;
	for (int32_t k = 0; k < ncomp; k++)
		mstart[k + 1] += mstart[k];
	{
		int32_t *fill = xmalloc(((size_t)ncomp + 1) * sizeof *fill);
		memcpy(fill, mstart, ((size_t)ncomp + 1) * sizeof *fill);
		for (int32_t s = 0; s < g->n; s++)
			members[fill[comp[s]]++] = s;
		free(fill);
	}
	int32_t best = -1;
	for (int32_t k = 0; k < ncomp; k++) {
		if (!cyclic[k])
			continue;
		component_labels(g, members, mstart[k], mstart[k + 1], nwarps, always, somewhere, stamp);
		for (int32_t w = 0; w < nwarps; w++)
			labels[w] = false;
		for (int32_t i = mstart[k]; i < mstart[k + 1]; i++) {
			int32_t s = members[i];
			for (int64_t j = c.start[s]; j < c.start[s + 1]; j++) {
				int64_t e = c.e[j];
				if (comp[g->eto.v[e]] == k)
					labels[g->elabel.v[e]] = true;
			}
		}
		bool fair = true;
		for (int32_t w = 0; w < nwarps; w++)
			if (always[w] && !labels[w])
				fair = false;
		if (fair && (best < 0 || g->depth[entry[k]] < g->depth[entry[best]]))
			best = k;
	}
	if (best >= 0) {
		r->verdict = EXPLORE_LIVELOCK;
		int32_t e = entry[best];
		r->doomed = !can_end[e];
		path_to(g, e, trace);
		r->cycle_start = (int32_t)trace->warp.n;
		component_labels(g, members, mstart[best], mstart[best + 1], nwarps, always, somewhere, stamp);
		fair_cycle(g, &c, comp, best, e, always, somewhere, nwarps, trace);
	} else {
		r->verdict = any_cycle ? EXPLORE_TERMINATES_FAIR : EXPLORE_TERMINATES;
	}
	free(always);
	free(somewhere);
	free(stamp);
	free(labels);
	free(entry);
	free(mstart);
	free(members);
	free(can_end);
	free(cyclic);
	free(comp);
	csr_free(&c);
}

/* ---- the search --------------------------------------------------------------------- */

static void graph_free(Graph *g)
{
	free(g->off);
	free(g->len);
	free(g->hash);
	free(g->parent);
	free(g->via);
	free(g->viag);
	free(g->depth);
	free(g->final);
	free(g->en_start);
	free(g->en.v);
	buf_free(&g->arena);
	free(g->table);
	free(g->efrom.v);
	free(g->eto.v);
	free(g->ewarp.v);
	free(g->egroup.v);
	free(g->elabel.v);
	free(g->lkey);
	free(g->ltable);
	buf_free(&g->scratch);
}

/* Partial-order reduction (explore.md §4): the next step of warp w is
** local when it reads and writes only w's own threads' variables and local
** memory, and w's control state: no other warp can see it, enable or
** disable it, and it commutes with their steps. Shared memory, atomics,
** barriers and stop/exit (which change who a barrier waits for) are not. */
static bool local_step(const Machine *m, const Warp *w)
{
	if (w->pc < 0 || w->pc >= m->prog->nins)
		return false;
	switch ((Op)m->prog->ins[w->pc].op) {
	case OP_LOAD:
	case OP_STORE:
	case OP_ATOMINC:
	case OP_ATOMADD:
	case OP_ATOMCAS:
	case OP_ATOMEXCH:
	case OP_BARRIER:
	case OP_STOP:
	case OP_EXIT: return false;
	default: return true;
	}
}

/* A state where some thread is unfinished and no warp can step. */
static bool stuck_state(const Machine *m)
{
	if (m->status == SEM_OK)
		return false;
	if (m->status != SEM_RUNNING)
		return true;
	for (int32_t w = 0; w < m->nwarps; w++)
		if (m->warps[w].status == WARP_RUN)
			return false;
	return true;
}

/* The step of alternative alt of warp w (sem_step_group: a group or the
** side run first, and the outcome of the lanes' order) from state s: unpack
** s into m and step. */
static void take_choice(const Graph *g, Machine *m, int32_t s, int32_t w, int32_t alt, StepInfo *info)
{
	if (!sem_unpack(m, g->arena.s + g->off[s], g->len[s]))
		abort(); /* bytes sem_pack wrote: cannot happen */
	sem_step_group(m, w, alt, info);
}

/* The choices of the state being expanded: per choice the warp, the group
** or side (before the lanes' order), how many of them sem_step_group's
** alternative counts, and the label for fairness. */
typedef struct Choices {
	I32s warp, side, radix, label;
} Choices;

/* The state m is in, packed in g->scratch (hash h, to go in slot), is new:
** add it, reached from s by alternative alt of warp w, and the transition.
** Sets the verdict and returns false when it is a deadlock. */
static bool new_state(Graph *g, const Machine *m, uint64_t h, uint32_t slot, int32_t s, int32_t w, int32_t alt,
                      int32_t label, ExploreResult *r, Sched *trace)
{
	r->transitions++;
	int32_t t = add_state(g, h, slot, s, w, alt);
	g->final[t] = m->status == SEM_OK;
	add_edge(g, s, t, label, w, alt);
	if (stuck_state(m)) {
		r->verdict = EXPLORE_DEADLOCK;
		path_to(g, t, trace);
		return false;
	}
	return true;
}

/* After the step of alternative alt of warp w from state s left m: the
** state it leads to, added when new, and the transition. Sets the verdict
** and returns false when the search ends here (a stuck step, a deadlock,
** a limit). */
static bool successor(Graph *g, const Machine *m, int32_t s, int32_t w, int32_t alt, int32_t label,
                      uint64_t max_states, ExploreResult *r, Sched *trace)
{
	if (m->status != SEM_RUNNING && m->status != SEM_OK) {
		/* a stuck step (an error of semantics.md §2), a divergent
		** barrier, or the state's memory limit */
		if (m->err.rule && !strcmp(m->err.rule, "limit")) {
			r->verdict = EXPLORE_UNKNOWN;
			r->limit = "memory";
		} else {
			r->verdict = EXPLORE_DEADLOCK;
			path_to(g, s, trace);
			sched_push(trace, w, alt);
		}
		return false;
	}
	buf_reset(&g->scratch);
	sem_pack(m, &g->scratch);
	uint32_t slot;
	uint64_t h = sem_hash_bytes(g->scratch.s, g->scratch.len);
	int32_t t = find(g, h, &slot);
	if (t >= 0) {
		r->transitions++;
		add_edge(g, s, t, label, w, alt);
		return true;
	}
	if ((uint64_t)g->n >= max_states) {
		r->transitions++;
		r->verdict = EXPLORE_UNKNOWN;
		r->limit = "states";
		return false;
	}
	return new_state(g, m, h, slot, s, w, alt, label, r, trace);
}

ExploreResult *explore_run(const Program *p, const ExploreOptions *o, Diags *d)
{
	SemOptions so = o->sem;
	so.max_steps = UINT64_MAX; /* the search bounds the work, not the path */
	so.max_thread_instructions = UINT64_MAX;
	so.deadline = 0; /* --max-time is the search's (ExploreOptions.max_time) */
	Machine *m0 = sem_new(p, &so, d);
	if (!m0)
		return NULL;
	uint64_t max_states = o->max_states ? o->max_states : EXPLORE_DEFAULT_MAX_STATES;
	uint64_t max_memory = o->max_memory ? o->max_memory : EXPLORE_DEFAULT_MAX_MEMORY;
	ExploreResult *r = xcalloc(1, sizeof *r);
	r->cycle_start = -1;
	int32_t nwarps = m0->nwarps;
	const Model *md = m0->model;
	Graph g = {.groups = md->ngroups != NULL};
	/* --path-order both: a branch's side is an alternative of the warp's choice */
	bool sides = o->path_order_both && md->path_choice && !g.groups;
	table_grow(&g);
	Sched trace = {0};
	double t0 = now(), last_report = t0;
	sem_pack(m0, &g.scratch);
	uint32_t slot;
	uint64_t h = sem_hash_bytes(g.scratch.s, g.scratch.len);
	find(&g, h, &slot);
	add_state(&g, h, slot, -1, -1, 0);
	g.final[0] = m0->status == SEM_OK;
	bool done = false;
	if (stuck_state(m0)) {
		r->verdict = EXPLORE_DEADLOCK;
		done = true;
	}
	Machine *m = m0; /* the working machine: each state is unpacked into it */
	Choices ch = {0};
	for (int32_t s = 0; s < g.n && !done; s++) {
		g.en_start[s] = g.en.n;
		if (g.final[s]) {
			g.en_start[s + 1] = g.en.n;
			continue;
		}
		if (!sem_unpack(m, g.arena.s + g.off[s], g.len[s]))
			abort(); /* bytes sem_pack wrote: cannot happen */
		/* the choices: every warp that can step, under a model whose groups
		** are choices every group of it, with --path-order both each side of
		** a branch (else the side the options say) */
		ch.warp.n = ch.side.n = ch.radix.n = ch.label.n = 0;
		int32_t ample = -1; /* a choice whose step is local, its warp's only one */
		for (int32_t w = 0; w < m->nwarps; w++) {
			if (m->warps[w].status != WARP_RUN)
				continue;
			int32_t radix = sem_alternatives(m, w), first = 0, ng = radix;
			if (!g.groups && !sides && radix == 2) {
				first = o->sem.taken_first;
				ng = 1;
			}
			if (ample < 0 && ng == 1 && !o->no_reduction && local_step(m, &m->warps[w]))
				ample = (int32_t)ch.warp.n;
			for (int32_t k = first; k < first + ng; k++) {
				push32(&ch.warp, w);
				push32(&ch.side, k);
				push32(&ch.radix, radix);
			}
		}
		/* what can step here, for fairness: every choice, reduced or not */
		for (int64_t i = 0; i < ch.warp.n; i++) {
			int32_t w = ch.warp.v[i];
			if (g.groups)
				md->choose(m, &m->warps[w], ch.side.v[i]);
			push32(&ch.label, label_of(&g, w, sem_choice_key(m, w, ch.side.v[i])));
			push32(&g.en, ch.label.v[i]);
		}
		/* the reduced expansion: the local step alone, when it leads to a new
		** state (the cycle proviso: a reduced step never closes a cycle) */
		bool reduced = false;
		if (ample >= 0) {
			int32_t w = ch.warp.v[ample], k = ch.side.v[ample];
			take_choice(&g, m, s, w, k, NULL);
			if (m->status == SEM_RUNNING || m->status == SEM_OK) {
				buf_reset(&g.scratch);
				sem_pack(m, &g.scratch);
				h = sem_hash_bytes(g.scratch.s, g.scratch.len);
				if (find(&g, h, &slot) < 0 && (uint64_t)g.n < max_states) {
					reduced = true;
					done = !new_state(&g, m, h, slot, s, w, k, ch.label.v[ample], r, &trace);
				}
			}
			/* else: expand every choice (a stuck step is found again there) */
		}
		/* the full expansion: every choice, and every distinct outcome of the
		** order of its lanes at a store or an atomic (--atomic-order any) */
		for (int64_t i = 0; i < ch.warp.n && !done && !reduced; i++) {
			int32_t w = ch.warp.v[i], radix = ch.radix.v[i];
			int32_t norders = 1;
			for (int32_t k = 0; k < norders && !done; k++) {
				int32_t alt = ch.side.v[i] + radix * k;
				StepInfo info;
				take_choice(&g, m, s, w, alt, &info);
				if (k == 0 && (m->status == SEM_RUNNING || m->status == SEM_OK)) {
					norders = info.norders;
					if (norders == 0 || (int64_t)radix * norders > INT32_MAX) {
						r->verdict = EXPLORE_UNKNOWN; /* too many to try */
						r->limit = "lane-orders";
						done = true;
						break;
					}
				}
				done = !successor(&g, m, s, w, alt, ch.label.v[i], max_states, r, &trace);
			}
		}
		g.en_start[s + 1] = g.en.n;
		if (done)
			break;
		if (graph_bytes(&g) > max_memory) {
			r->verdict = EXPLORE_UNKNOWN;
			r->limit = "memory";
			break;
		}
		if ((s & 255) == 0) {
			double t = now();
			if (o->max_time > 0 && t - t0 > o->max_time) {
				r->verdict = EXPLORE_UNKNOWN;
				r->limit = "time";
				break;
			}
			if (o->progress && t - last_report >= 1.0) {
				ExploreProgress pr = {(uint64_t)g.n, r->transitions, (uint64_t)(g.n - s - 1),
				                      (uint64_t)g.depth[s], graph_bytes(&g), t - t0};
				o->progress(o->progress_ctx, &pr);
				last_report = t;
			}
		}
	}
	sem_free(m);
	free(ch.warp.v);
	free(ch.side.v);
	free(ch.radix.v);
	free(ch.label.v);
	if (!done && r->verdict != EXPLORE_UNKNOWN) /* the whole graph is known */
		judge_cycles(&g, g.groups ? g.nlabels : nwarps, r, &trace);
	r->states = (uint64_t)g.n;
	for (int32_t s = 0; s < g.n; s++)
		if ((uint64_t)g.depth[s] > r->depth)
			r->depth = (uint64_t)g.depth[s];
	r->bytes = graph_bytes(&g);
	r->state_bytes = g.arena.len;
	r->seconds = now() - t0;
	r->trace = trace.warp.v;
	r->ntrace = (int32_t)trace.warp.n;
	if (g.groups || sides || o->sem.atomic_any)
		r->groups = trace.group.v;
	else
		free(trace.group.v);
	graph_free(&g);
	return r;
}

void explore_free(ExploreResult *r)
{
	if (!r)
		return;
	free(r->trace);
	free(r->groups);
	free(r);
}
