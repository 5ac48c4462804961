/*
** policy.c — the reconvergence policy lab: the per-thread-pc heuristics of
** Brandão 2013 (seed 000 digest §3-§6, checklist §12.1) as `its:NAME`
** models. Every thread has its own pc; before a fetch the policy names one
** pc and the threads at it that may issue run the instruction together
** (the "opportunistic merge" of §3), so threads meet whenever their pcs do.
** By default the policy decides at block boundaries only (after a branch, a
** jump, a fall into the next block, a stop, a barrier), the chosen threads
** running the rest of their block together, as the thesis measures it; the
** `@ins` variants decide before every instruction (§3: "does not change the
** synchronization capability", but it changes who runs next).
**
** The function level of MaxFun/MinFun is a thread's call depth (its
** return stack's depth, sem.h) and its stack pointer, as the distance from
** the stack base, is the same depth counted in activation records of one
** unit each (μ-SIMD has no frames of their own size): so MinSP-MinPC keys
** as MaxFun-MinPC v1 (the thesis: "equivalent if all activation records
** had equal size"), v2 and v3 as v1, and MaxSP-MinPC as MinFun-MinPC; on a
** program without calls every depth is 0 and they all schedule as minpc.
** Lee's function-level grouping (the released Lee.cpp): a call pushes a
** level whose participants are the calling threads; only they may issue,
** and one that returns waits until every participant has returned.
**
** One table, policies[] (POLICIES below), gives every policy's name, its
** kind and parameters, and its help line; model_find, the help texts, the
** REPL's words and the JSON names all come from it.
**
** The control state (explore.md §3: equal states pack equal) is records of
** int32 fields, one lane set each:
**   thread records, one per lane, in lane order: pc (-1 finished), waiting
**     at a barrier, call depth, stack size, Lee's future bit, and Long's
**     fetch history buffer (FHB) of S block-start pcs, a ring (-1 empty);
**   the warp record: a cursor (the round robins) and a lane set (Long's and
**     LongestPathP's queue of groups still to serve, rr-eq's served set);
**   LongestPath's block priorities, one record per block (constants);
**   PostDom's stack of unreconverged divergences (branch, its immediate
**     post-dominator, the function level, the threads still expected there),
**     or RD's per-pc (pc, counter, last mask), sorted by pc, or Lee's
**     function levels (the depth, the participants).
*/
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum PolKind { P_KEY, P_LEE, P_LONG, P_POSTDOM, P_LONGEST, P_RR_EQ, P_RR_THREAD, P_RD } PolKind;
/* the lexicographic keys of §4.1-§4.3, §5.1's helpers */
typedef enum Key { K_MINPC, K_MINSP, K_MAXFUN1, K_MAXFUN2, K_MAXFUN3, K_MAXSP, K_MINFUN, K_RB, K_LONG } Key;
/* Long's variants (§4.4, §4.5); LongestPath's (§5.3) */
typedef enum LongVar { L_PLAIN, L_MINPC, L_MINSP, L_IRB } LongVar;
typedef enum PathVar { LP_MINPC, LP_PARALLEL } PathVar;

struct ItsPolicy {
	Model model;      /* first: m->model points at the policy */
	const char *key;  /* the name without "its:" */
	uint8_t kind;     /* PolKind */
	uint8_t sub;      /* Key (P_KEY, the PostDom helper), LongVar, PathVar */
	int16_t arg[3];   /* FHB size (Long, PostDom+Long); RD: hysteresis, threshold, decrement */
	bool calls;       /* orders by the call depth or the stack: minpc until calls exist */
	bool every;       /* decides before every instruction (@ins, Long-IRB) */
};
typedef struct ItsPolicy ItsPolicy;

/* ---- the records ------------------------------------------------------------------- */

enum { REC_THREAD, REC_WARP, REC_PRIO, REC_PDOM, REC_RD, REC_LEVEL };
/* fields of a thread record */
enum { T_KIND, T_PC, T_WAITS, T_LEVEL, T_STACK, T_FUTURE, T_HEAD, T_FHB };
/* of the warp record */
enum { W_KIND, W_CURSOR };
/* of a priority record */
enum { PR_KIND, PR_BLOCK, PR_VALUE };
/* of a PostDom entry */
enum { PD_KIND, PD_BRANCH, PD_IPDOM, PD_LEVEL };
/* of an RD entry */
enum { RD_KIND, RD_PC, RD_COUNT };
/* of one of Lee's function levels */
enum { LV_KIND, LV_DEPTH };

#define REC_FIELDS(fhb) ((uint16_t)((T_FHB + (fhb)) * sizeof(int32_t)))

static int32_t *rec(const Warp *w, int32_t k) { return ctl_rec(w, k); }
static uint64_t *rmask(const Warp *w, int32_t k) { return ctl_mask(w, k, 0); }
static const ItsPolicy *pol(const Machine *m) { return (const ItsPolicy *)m->model; }
static int32_t warp_rec(const Warp *w) { return w->size; }
static bool uses_prio(const ItsPolicy *P) { return P->kind == P_LONGEST; }
/* the first record after the fixed ones (PostDom's entries, RD's) */
static int32_t dyn_first(const Machine *m, const Warp *w)
{
	return w->size + 1 + (uses_prio(pol(m)) ? m->cfg->nblocks : 0);
}
static int32_t fhb_size(const ItsPolicy *P)
{
	return P->kind == P_LONG || (P->kind == P_POSTDOM && P->sub == K_LONG) ? P->arg[0] : 0;
}

static int32_t tpc(const Warp *w, int32_t l) { return rec(w, l)[T_PC]; }
static bool can_issue(const Warp *w, int32_t l) { return rec(w, l)[T_PC] >= 0 && !rec(w, l)[T_WAITS]; }
/* The call depth and the stack size of thread l (kept in its record as the
** machine's return stack moves: track_depth). */
static int32_t level_of(const Warp *w, int32_t l) { return rec(w, l)[T_LEVEL]; }
static int32_t stack_of(const Warp *w, int32_t l) { return rec(w, l)[T_STACK]; }

/* The threads in moved made a call or a return: their level and stack
** follow their return stacks (one unit per activation record). */
static void track_depth(const Machine *m, Warp *w, const uint64_t *moved)
{
	if (!m->ret_cap)
		return;
	BitIter it = bits_iter(moved, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
		rec(w, l)[T_LEVEL] = rec(w, l)[T_STACK] = sem_ret_depth(m, w->base + l);
}

/* ---- longest paths (§5.3) ---------------------------------------------------------- */

/* How many path extensions the exact search may make for one program; beyond
** it the priorities fall back to the reverse post-order (Block.prio), like
** the thesis's edge-covering tree for large cyclic graphs. */
#define LONGEST_BUDGET 200000

/* The length in edges of the longest simple path from every block to the
** virtual exit, by exhaustive depth-first search over simple paths with an
** explicit stack (the thesis's brute force); false when the budget ran out. */
static bool longest_paths(const Cfg *g, int32_t *out)
{
	int32_t n = g->nblocks;
	int32_t *path = xmalloc((size_t)(n + 1) * sizeof *path);
	int32_t *next = xmalloc((size_t)(n + 1) * sizeof *next);
	int32_t *len = xmalloc((size_t)(n + 1) * sizeof *len);
	bool *on = xcalloc((size_t)n + 1, sizeof *on);
	long budget = LONGEST_BUDGET;
	bool ok = true;
	for (int32_t b = 0; b < n && ok; b++) {
		out[b] = -1;
		if (!g->blocks[b].reachable)
			continue;
		int32_t top = 0;
		path[0] = b, next[0] = 0, len[0] = 0, on[b] = true;
		while (top >= 0) {
			int32_t u = path[top];
			if (u == n) {
				if (len[top] > out[b])
					out[b] = len[top];
				on[u] = false;
				top--;
				continue;
			}
			const Block *bl = &g->blocks[u];
			if (next[top] >= bl->nsucc) {
				on[u] = false;
				top--;
				continue;
			}
			int32_t s = bl->succ[next[top]++];
			if (on[s])
				continue;
			if (--budget < 0) {
				ok = false;
				for (; top >= 0; top--)
					on[path[top]] = false;
				break;
			}
			top++;
			path[top] = s, next[top] = 0, len[top] = len[top - 1] + 1, on[s] = true;
		}
	}
	free(path), free(next), free(len), free(on);
	return ok;
}

static void decide(Machine *m, Warp *w);

/* ---- starting ------------------------------------------------------------------------ */

static void start(Machine *m, Warp *w)
{
	const ItsPolicy *P = pol(m);
	int32_t S = fhb_size(P);
	for (int32_t l = 0; l < w->size; l++) {
		int32_t k = ctl_push(m, w);
		int32_t *r = rec(w, k);
		r[T_KIND] = REC_THREAD;
		r[T_PC] = 0;
		for (int32_t i = 0; i < S; i++)
			r[T_FHB + i] = -1;
	}
	int32_t k = ctl_push(m, w);
	rec(w, k)[W_KIND] = REC_WARP;
	if (uses_prio(P)) {
		const Cfg *g = m->cfg;
		int32_t *lp = xmalloc((size_t)g->nblocks * sizeof *lp + 1);
		bool exact = longest_paths(g, lp);
		for (int32_t b = 0; b < g->nblocks; b++) {
			int32_t j = ctl_push(m, w);
			rec(w, j)[PR_KIND] = REC_PRIO;
			rec(w, j)[PR_BLOCK] = b;
			int32_t rank = g->blocks[b].prio;
			rec(w, j)[PR_VALUE] = exact ? lp[b] : rank >= 0 ? g->nblocks - rank : -1;
		}
		free(lp);
	}
	decide(m, w);
}

/* ---- choosing ------------------------------------------------------------------------ */

typedef struct Choice {
	int64_t k[3];
} Choice;

static bool choice_less(const Choice *a, const Choice *b)
{
	for (int i = 0; i < 3; i++)
		if (a->k[i] != b->k[i])
			return a->k[i] < b->k[i];
	return false;
}

/* The key of §4.1-§4.3 (smaller first) of thread l. The stack grows down:
** a smaller stack pointer is a larger stack. */
static Choice key_of(const Warp *w, int32_t l, Key key)
{
	int64_t pc = tpc(w, l), lv = level_of(w, l), st = stack_of(w, l);
	switch (key) {
	case K_MINSP: return (Choice){{-st, pc, 0}};
	case K_MAXFUN1: return (Choice){{-lv, pc, 0}};
	case K_MAXFUN2: return (Choice){{-lv, st, pc}};
	case K_MAXFUN3: return (Choice){{-lv, -st, pc}};
	case K_MAXSP: return (Choice){{st, pc, 0}};
	case K_MINFUN: return (Choice){{lv, pc, 0}};
	default: return (Choice){{pc, 0, 0}};
	}
}

/* The lane of scope whose key is least (ties: the lowest lane), or -1. */
static int32_t least(const Warp *w, const uint64_t *scope, Key key)
{
	int32_t best = -1;
	Choice bk = {{0, 0, 0}};
	BitIter it = bits_iter(scope, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
		Choice c = key_of(w, l, key);
		if (best < 0 || choice_less(&c, &bk))
			best = l, bk = c;
	}
	return best;
}

/* The first lane of set at or after cursor, wrapping; -1 when set is empty. */
static int32_t rotate(const Warp *w, const uint64_t *set, int32_t cursor)
{
	int32_t l = cursor < w->size ? bits_next(set, w->size, cursor, true) : w->size;
	if (l == w->size)
		l = bits_next(set, w->size, 0, true);
	return l < w->size ? l : -1;
}

static bool fhb_has(const Warp *w, int32_t l, int32_t S, int32_t pc)
{
	const int32_t *r = rec(w, l);
	for (int32_t i = 0; i < S; i++)
		if (r[T_FHB + i] == pc)
			return true;
	return false;
}

static void fhb_push(Warp *w, int32_t l, int32_t S, int32_t pc)
{
	if (S <= 0)
		return;
	int32_t *r = rec(w, l);
	r[T_FHB + r[T_HEAD]] = pc;
	r[T_HEAD] = (r[T_HEAD] + 1) % S;
}

/* Long's priority of thread l (§4.4): the other live threads whose FHB holds
** the block l is at. */
static int32_t long_prio(const Warp *w, int32_t l, int32_t S)
{
	int32_t n = 0;
	for (int32_t i = 0; i < w->size; i++)
		n += i != l && tpc(w, i) >= 0 && fhb_has(w, i, S, tpc(w, l));
	return n;
}

/* The threads of scope with the largest Long priority, into out. */
static void long_best(const Warp *w, const uint64_t *scope, int32_t S, uint64_t *out)
{
	int32_t best = -1;
	bits_clear(out, w->nw);
	BitIter it = bits_iter(scope, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
		int32_t p = long_prio(w, l, S);
		if (p > best) {
			best = p;
			bits_clear(out, w->nw);
		}
		if (p == best)
			bit_set(out, l);
	}
}

static int32_t prio_of(const Machine *m, const Warp *w, int32_t pc)
{
	return rec(w, w->size + 1 + m->cfg->block_of[pc])[PR_VALUE];
}

/* The queue of groups still to serve (Long, LongestPathP): refilled with
** fill when none of its threads can issue; serves the group of the thread
** rotate or least picks. Returns the lane picked. */
static int32_t serve_queue(const Machine *m, Warp *w, const uint64_t *scope, int32_t S, bool by_pc)
{
	int32_t wr = warp_rec(w);
	uint64_t *q = rmask(w, wr);
	for (int32_t i = 0; i < w->nw; i++)
		q[i] &= scope[i];
	if (bits_empty(q, w->nw)) {
		if (S > 0) {
			long_best(w, scope, S, q);
		} else { /* LongestPathP: the groups of the largest (level, priority) */
			int64_t best = INT64_MIN;
			BitIter it = bits_iter(scope, w->nw);
			for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
				int64_t v = (int64_t)level_of(w, l) << 32 | (uint32_t)prio_of(m, w, tpc(w, l));
				if (v > best) {
					best = v;
					bits_clear(q, w->nw);
				}
				if (v == best)
					bit_set(q, l);
			}
		}
	}
	int32_t j = by_pc ? least(w, q, K_MINPC) : rotate(w, q, rec(w, wr)[W_CURSOR]);
	rec(w, wr)[W_CURSOR] = j + 1;
	return j;
}

/* rr-eq (§6.4): the next thread not served in this round, from the cursor;
** the round starts again when every thread of scope has been served. */
static int32_t serve_round(Warp *w, const uint64_t *scope, uint64_t *tmp)
{
	int32_t wr = warp_rec(w);
	bits_copy(tmp, scope, w->nw);
	bits_andnot(tmp, rmask(w, wr), w->nw);
	if (bits_empty(tmp, w->nw)) {
		bits_clear(rmask(w, wr), w->nw);
		bits_copy(tmp, scope, w->nw);
	}
	int32_t j = rotate(w, tmp, rec(w, wr)[W_CURSOR]);
	rec(w, wr)[W_CURSOR] = j + 1;
	return j;
}

/* RD's entry for pc (§6.1), or -1. */
static int32_t rd_find(const Machine *m, const Warp *w, int32_t pc)
{
	for (int32_t k = dyn_first(m, w); k < w->ctl.n; k++)
		if (rec(w, k)[RD_PC] == pc)
			return k;
	return -1;
}

static int32_t rd_count(const Machine *m, const Warp *w, int32_t pc)
{
	int32_t k = rd_find(m, w, pc);
	return k < 0 ? 0 : rec(w, k)[RD_COUNT];
}

/* RD-MinSP-MinPC (§6.1): the candidates are the threads whose pc missed
** reconvergence at most hysteresis times more than the least, or all of
** them once that least reaches the threshold; MinSP-MinPC among them. */
static int32_t rd_pick(const Machine *m, const Warp *w, const uint64_t *scope, uint64_t *tmp)
{
	const ItsPolicy *P = pol(m);
	int32_t lo = INT32_MAX;
	BitIter it = bits_iter(scope, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
		int32_t c = rd_count(m, w, tpc(w, l));
		if (c < lo)
			lo = c;
	}
	bits_copy(tmp, scope, w->nw);
	if (lo < P->arg[1]) {
		it = bits_iter(scope, w->nw);
		for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
			if (rd_count(m, w, tpc(w, l)) > lo + P->arg[0])
				bit_clear(tmp, l);
	}
	return least(w, tmp, K_MINSP);
}

/* After RD chose the threads `act` at pc: a disjoint mask is a missed
** reconvergence (counter + 1); with decrement an equal one takes one off. */
static void rd_update(Machine *m, Warp *w, int32_t pc, const uint64_t *act)
{
	const ItsPolicy *P = pol(m);
	int32_t k = rd_find(m, w, pc);
	if (k < 0) { /* a new entry: mask all ones, counter 0; kept sorted by pc */
		k = ctl_push(m, w);
		rec(w, k)[RD_KIND] = REC_RD;
		rec(w, k)[RD_PC] = pc;
		for (int32_t l = 0; l < w->size; l++)
			bit_set(rmask(w, k), l);
		uint64_t *tmp = m->step_active + 2 * w->nw;
		for (; k > dyn_first(m, w) && rec(w, k - 1)[RD_PC] > pc; k--) {
			int32_t t[3];
			memcpy(t, rec(w, k - 1), sizeof t);
			memcpy(rec(w, k - 1), rec(w, k), sizeof t);
			memcpy(rec(w, k), t, sizeof t);
			bits_copy(tmp, rmask(w, k - 1), w->nw);
			bits_copy(rmask(w, k - 1), rmask(w, k), w->nw);
			bits_copy(rmask(w, k), tmp, w->nw);
		}
	}
	int32_t *r = rec(w, k);
	bool disjoint = true;
	for (int32_t i = 0; i < w->nw; i++)
		disjoint &= !(rmask(w, k)[i] & act[i]);
	if (disjoint)
		r[RD_COUNT]++;
	else if (P->arg[2] && bits_eq(rmask(w, k), act, w->nw) && r[RD_COUNT] > 0)
		r[RD_COUNT]--;
	bits_copy(rmask(w, k), act, w->nw);
}

/* The top PostDom entry's threads still expected (§5.1 step 2), or NULL. */
static const uint64_t *pdom_top(const Machine *m, const Warp *w)
{
	return w->ctl.n > dyn_first(m, w) ? rmask(w, w->ctl.n - 1) : NULL;
}

/* Lee's function-level grouping: the innermost level's participants that
** have not returned from it may issue (levels whose participants have all
** returned or finished go); none of them can issue (a barrier): all of
** cand. The result is cand or tmp. */
static uint64_t *lee_scope(Machine *m, Warp *w, uint64_t *cand, uint64_t *tmp)
{
	int32_t first = dyn_first(m, w);
	while (w->ctl.n > first) {
		int32_t k = w->ctl.n - 1, depth = rec(w, k)[LV_DEPTH];
		uint64_t *part = rmask(w, k);
		for (int32_t l = 0; l < w->size; l++) /* returned or finished: no longer held */
			if (bit_get(part, l) && (tpc(w, l) < 0 || level_of(w, l) < depth))
				bit_clear(part, l);
		if (!bits_empty(part, w->nw))
			break;
		w->ctl.n--;
	}
	if (w->ctl.n == first)
		return cand;
	const uint64_t *part = rmask(w, w->ctl.n - 1);
	for (int32_t i = 0; i < w->nw; i++)
		tmp[i] = cand[i] & part[i];
	return bits_empty(tmp, w->nw) ? cand : tmp;
}

/* Pick the threads to issue now: their pc and lanes (w->pc, Θ), or the
** warp waits at the barrier or is done. */
static void decide(Machine *m, Warp *w)
{
	const ItsPolicy *P = pol(m);
	uint64_t *cand = m->step_active + w->nw, *tmp = m->step_active + 2 * w->nw;
	bits_clear(cand, w->nw);
	bool waiting = false;
	for (int32_t l = 0; l < w->size; l++) {
		if (can_issue(w, l))
			bit_set(cand, l);
		waiting |= tpc(w, l) >= 0 && rec(w, l)[T_WAITS];
	}
	if (bits_empty(cand, w->nw)) {
		bits_clear(w->active, w->nw);
		w->idx_ok = false;
		w->pc = -1;
		if (waiting)
			sem_warp_status(m, w, WARP_BARRIER);
		else
			sem_warp_done(m, w);
		return;
	}
	/* the threads the policy chooses among: PostDom's top entry */
	uint64_t *scope = cand;
	if (P->kind == P_POSTDOM) {
		const uint64_t *top = pdom_top(m, w);
		if (top) {
			bits_copy(tmp, cand, w->nw);
			for (int32_t i = 0; i < w->nw; i++)
				tmp[i] &= top[i];
			if (!bits_empty(tmp, w->nw))
				scope = tmp;
		}
	}
	int32_t S = fhb_size(P), j = -1;
	uint64_t pick[8];
	uint64_t *best = w->nw <= 8 ? pick : xmalloc((size_t)w->nw * sizeof *best);
	Key key = (Key)P->sub;
	switch ((PolKind)P->kind) {
	case P_KEY: j = least(w, scope, key); break;
	case P_LEE: {
		scope = lee_scope(m, w, scope, tmp);
		bits_copy(best, scope, w->nw);
		for (int32_t l = 0; l < w->size; l++)
			if (rec(w, l)[T_FUTURE])
				bit_clear(best, l);
		if (bits_empty(best, w->nw)) { /* the current list is empty: swap */
			for (int32_t l = 0; l < w->size; l++)
				rec(w, l)[T_FUTURE] = 0;
			bits_copy(best, scope, w->nw);
		}
		j = least(w, best, K_MINPC);
		break;
	}
	case P_LONG:
		if (P->sub == L_MINPC || P->sub == L_MINSP) {
			long_best(w, scope, S, best);
			j = least(w, best, P->sub == L_MINPC ? K_MINPC : K_MINSP);
		} else {
			j = serve_queue(m, w, scope, S, false);
		}
		break;
	case P_POSTDOM:
		if (key == K_RB)
			j = serve_round(w, scope, best);
		else if (key == K_LONG)
			j = serve_queue(m, w, scope, S, false);
		else
			j = least(w, scope, key);
		break;
	case P_LONGEST:
		if (P->sub == LP_PARALLEL) {
			j = serve_queue(m, w, scope, 0, true);
		} else {
			Choice bk = {{0, 0, 0}};
			BitIter it = bits_iter(scope, w->nw);
			for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
				/* (function level desc, priority desc, pc asc) */
				Choice c = {{-(int64_t)level_of(w, l), -(int64_t)prio_of(m, w, tpc(w, l)), tpc(w, l)}};
				if (j < 0 || choice_less(&c, &bk))
					j = l, bk = c;
			}
		}
		break;
	case P_RR_EQ: j = serve_round(w, scope, best); break;
	case P_RR_THREAD: {
		int32_t wr = warp_rec(w);
		j = rotate(w, scope, rec(w, wr)[W_CURSOR]);
		rec(w, wr)[W_CURSOR] = j + 1;
		break;
	}
	case P_RD: j = rd_pick(m, w, scope, best); break;
	}
	if (best != pick)
		free(best);
	int32_t pc = tpc(w, j);
	/* the opportunistic merge: every thread at that pc that may issue */
	uint64_t *nact = m->step_active + w->nw; /* cand is not needed any more */
	if (P->kind == P_RR_THREAD) {
		bits_clear(nact, w->nw);
		bit_set(nact, j);
	} else {
		for (int32_t l = 0; l < w->size; l++)
			if (can_issue(w, l) && tpc(w, l) == pc)
				bit_set(nact, l);
			else
				bit_clear(nact, l);
	}
	if (P->kind == P_RR_EQ || (P->kind == P_POSTDOM && key == K_RB))
		bits_or(rmask(w, warp_rec(w)), nact, w->nw); /* served */
	if (P->kind == P_LONG || (P->kind == P_POSTDOM && key == K_LONG) || P->kind == P_LONGEST) {
		uint64_t *q = rmask(w, warp_rec(w));
		if (P->kind != P_LONG || P->sub == L_PLAIN || P->sub == L_IRB)
			bits_andnot(q, nact, w->nw);
		BitIter it = bits_iter(nact, w->nw);
		for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
			fhb_push(w, l, S, pc);
	}
	if (P->kind == P_RD)
		rd_update(m, w, pc, nact);
	if (w->pc != pc || !bits_eq(w->active, nact, w->nw))
		w->entered = true;
	w->pc = pc;
	sem_set_active(w, nact);
}

/* ---- after a step ---------------------------------------------------------------------- */

/* PostDom (§5.1): the threads in moved that arrived at the immediate
** post-dominator of an entry that expects them leave it (and wait there
** while the entry has other threads); empty entries go. */
static void pdom_arrivals(Machine *m, Warp *w, const uint64_t *moved)
{
	int32_t first = dyn_first(m, w);
	BitIter it = bits_iter(moved, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
		for (int32_t k = first; k < w->ctl.n; k++) {
			const int32_t *e = rec(w, k);
			if ((tpc(w, l) < 0 || e[PD_IPDOM] == tpc(w, l)) && e[PD_LEVEL] >= level_of(w, l))
				bit_clear(rmask(w, k), l);
		}
	int32_t out = first;
	for (int32_t k = first; k < w->ctl.n; k++) {
		if (bits_empty(rmask(w, k), w->nw))
			continue;
		if (out != k) {
			memcpy(rec(w, out), rec(w, k), w->ctl.rec_size);
			bits_copy(rmask(w, out), rmask(w, k), w->nw);
		}
		out++;
	}
	w->ctl.n = out;
}

/* PostDom: a divergence at pc pushes (pc, the reconvergence point ipdom,
** level, Θ) unless the same divergence is already on the stack at this
** level (a loop's test). */
static void pdom_push_at(Machine *m, Warp *w, int32_t pc, int32_t ipdom, const uint64_t *theta, int32_t level)
{
	int32_t first = dyn_first(m, w);
	for (int32_t k = w->ctl.n - 1; k >= first; k--) {
		const int32_t *e = rec(w, k);
		if (e[PD_LEVEL] < level)
			break;
		if (e[PD_BRANCH] == pc)
			return;
	}
	int32_t k = ctl_push(m, w);
	int32_t *e = rec(w, k);
	e[PD_KIND] = REC_PDOM;
	e[PD_BRANCH] = pc;
	e[PD_IPDOM] = ipdom;
	e[PD_LEVEL] = level;
	bits_copy(rmask(w, k), theta, w->nw);
}

/* A divergent branch at pc: its immediate post-dominator, or at the
** function's exit the instruction after its call (§5.1). */
static void pdom_push(Machine *m, Warp *w, int32_t pc, const uint64_t *theta, int32_t level)
{
	int32_t ipdom = cfg_ipdom_pc(m->cfg, pc);
	if (ipdom < 0)
		ipdom = sem_return_point(m, w);
	pdom_push_at(m, w, pc, ipdom, theta, level);
}

/* A divergent return (rule RS) at pc, its threads (w->active) back at their
** return pcs, one call level up (musimd-lang(7), Functions, PostDom): the
** digest's rule for an indirect call, a divergence that reconverges where
** the control flow does, applied to the return. When the threads are at one
** level, the entry (pc, the nearest common post-dominator of their return
** pcs — at the caller's exit, the instruction after the caller's call, if
** they agree on it — level, the threads) is pushed; threads at different
** levels (a function called from two functions), or with no common point,
** push nothing. */
static void pdom_push_ret(Machine *m, Warp *w, int32_t pc)
{
	const Cfg *g = m->cfg;
	int32_t level = -1, b = -1;
	BitIter it = bits_iter(w->active, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
		if (level >= 0 && level_of(w, l) != level)
			return;
		level = level_of(w, l);
		int32_t x = g->block_of[tpc(w, l)];
		if (b < 0)
			b = x;
		while (b < g->nblocks && !cfg_postdominates(g, b, x))
			b = g->blocks[b].ipdom;
	}
	if (level < 0)
		return;
	int32_t ipdom = b < g->nblocks ? g->blocks[b].first : sem_return_point(m, w);
	if (ipdom >= 0)
		pdom_push_at(m, w, pc, ipdom, w->active, level);
}

/* The threads in moved went from `from` to their new pcs: Lee's lists and
** PostDom's arrivals follow. */
static void after_move(Machine *m, Warp *w, int32_t from, const uint64_t *moved)
{
	const ItsPolicy *P = pol(m);
	/* a call or a return is no backward jump: Lee's lists stay (§4.6) */
	bool call_ret = from >= 0 && from < m->prog->nins &&
	                (m->prog->ins[from].op == OP_CALL || m->prog->ins[from].op == OP_RET);
	if (P->kind == P_LEE && !call_ret) {
		BitIter it = bits_iter(moved, w->nw);
		for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
			rec(w, l)[T_FUTURE] = tpc(w, l) >= 0 && tpc(w, l) < from;
	}
	if (P->kind == P_POSTDOM)
		pdom_arrivals(m, w, moved);
}

/* Is `to` the next instruction of from's block (no decision at block
** boundaries)? */
static bool same_block(const Machine *m, int32_t from, int32_t to)
{
	const Cfg *g = m->cfg;
	return to == from + 1 && to < m->prog->nins && g->block_of[to] == g->block_of[from];
}

/* The issuing threads go on inside their block: they keep issuing, with any
** other thread that may issue at the same pc (after a barrier's release). */
static void continue_block(Machine *m, Warp *w, int32_t to)
{
	if (pol(m)->kind != P_RR_THREAD)
		for (int32_t l = 0; l < w->size; l++)
			if (can_issue(w, l) && tpc(w, l) == to && !bit_get(w->active, l)) {
				bit_set(w->active, l);
				w->idx_ok = false;
				w->entered = true;
			}
	w->pc = to;
}

/* Lee: a call pushes a level of the calling threads (lee_scope). */
static void lee_push_level(Machine *m, Warp *w, const uint64_t *callers)
{
	int32_t k = ctl_push(m, w);
	rec(w, k)[LV_KIND] = REC_LEVEL;
	rec(w, k)[LV_DEPTH] = level_of(w, bits_next(callers, w->size, 0, true));
	bits_copy(rmask(w, k), callers, w->nw);
}

static void go(Machine *m, Warp *w, int32_t from, int32_t to)
{
	sem_take_edge(m, w, from, to, w->active);
	BitIter it = bits_iter(w->active, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
		rec(w, l)[T_PC] = to;
	uint64_t *moved = m->step_active + 2 * w->nw;
	bits_copy(moved, w->active, w->nw);
	Op op = from >= 0 && from < m->prog->nins ? (Op)m->prog->ins[from].op : OP_COPY;
	if (op == OP_CALL || op == OP_RET) {
		track_depth(m, w, moved);
		if (op == OP_CALL && pol(m)->kind == P_LEE && !bits_empty(moved, w->nw))
			lee_push_level(m, w, moved);
	}
	after_move(m, w, from, moved);
	if (!pol(m)->every && same_block(m, from, to))
		continue_block(m, w, to);
	else
		decide(m, w);
}

static bool branch(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	uint64_t *jmp, *fall;
	int split = model_branch_split(m, w, pc, ins, rule, &jmp, &fall);
	if (split != 0)
		return split > 0;
	int32_t L = ins->target;
	BitIter it = bits_iter(w->active, w->nw);
	int32_t level = 0;
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
		rec(w, l)[T_PC] = bit_get(jmp, l) ? L : pc + 1;
		level = level_of(w, l);
	}
	if (pol(m)->kind == P_POSTDOM)
		pdom_push(m, w, pc, w->active, level);
	uint64_t *moved = m->step_active + 2 * w->nw;
	bits_copy(moved, w->active, w->nw);
	after_move(m, w, pc, moved);
	decide(m, w);
	return true;
}

/* A ret to several pcs (rule RS): every thread goes to its own return pc,
** and the policy decides, as after a branch (PostDom: pdom_push_ret). */
static bool ret_split(Machine *m, Warp *w, int32_t pc, Rule *rule)
{
	(void)rule;
	uint64_t *rest = m->step_active + w->nw, *group = m->step_active + 2 * w->nw;
	bits_copy(rest, w->active, w->nw);
	int32_t to;
	while (sem_ret_group(m, w, rest, &to, group)) {
		sem_take_edge(m, w, pc, to, group);
		BitIter it = bits_iter(group, w->nw);
		for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
			rec(w, l)[T_PC] = to;
	}
	uint64_t *moved = m->step_active + 2 * w->nw;
	bits_copy(moved, w->active, w->nw);
	track_depth(m, w, moved);
	if (pol(m)->kind == P_POSTDOM)
		pdom_push_ret(m, w, pc);
	after_move(m, w, pc, moved);
	decide(m, w);
	return true;
}

static bool finish(Machine *m, Warp *w, int32_t pc, bool stop, Rule *rule)
{
	*rule = stop ? RULE_SF : RULE_EX;
	uint64_t *gone = m->step_active + w->nw;
	bits_copy(gone, w->active, w->nw);
	sem_finish_threads(m, w, gone);
	BitIter it = bits_iter(gone, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
		rec(w, l)[T_PC] = -1;
	uint64_t *moved = m->step_active + 2 * w->nw;
	bits_copy(moved, gone, w->nw);
	after_move(m, w, pc, moved);
	decide(m, w);
	return true;
}

/* The issuing threads arrive at the barrier and wait; the others go on. */
static void barrier(Machine *m, Warp *w, int32_t pc)
{
	(void)pc;
	BitIter it = bits_iter(w->active, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
		rec(w, l)[T_WAITS] = 1;
	decide(m, w);
}

static void release(Machine *m, Warp *w)
{
	sem_warp_status(m, w, WARP_RUN);
	uint64_t *moved = m->step_active + 2 * w->nw;
	bits_clear(moved, w->nw);
	for (int32_t l = 0; l < w->size; l++)
		if (tpc(w, l) >= 0 && rec(w, l)[T_WAITS]) {
			bit_set(moved, l);
			rec(w, l)[T_WAITS] = 0;
		}
	/* each waiting pc's threads take their edge on */
	BitIter it = bits_iter(moved, w->nw);
	uint64_t *one = m->step_active + w->nw;
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
		bits_clear(one, w->nw);
		bit_set(one, l);
		sem_take_edge(m, w, tpc(w, l), tpc(w, l) + 1, one);
		rec(w, l)[T_PC]++;
	}
	w->pc = -1;
	decide(m, w);
}

/* ---- reading the state ------------------------------------------------------------- */

static const CtlField thread_fields[] = {
	{"pc", "pc", .is_set = false},
	{"waits", "waits", .is_num = true},
	{"level", "level", .is_num = true, .detail = true},
	{"stack", "stack", .is_num = true, .detail = true},
	{"lane", "lane", .is_num = true},
};
static const CtlField warp_fields[] = {
	{"cursor", "cursor", .is_num = true},
	{"queue", "queue", .is_set = true},
};
static const CtlField prio_fields[] = {
	{"block", "block", .is_num = true, .detail = true},
	{"priority", "priority", .is_num = true, .detail = true},
};
static const CtlField pdom_fields[] = {
	{"branch", "branch", .is_set = false},
	{"pdom", "pdom", .is_set = false},
	{"level", "level", .is_num = true},
	{"expected", "expected", .is_set = true},
};
static const CtlField rd_fields[] = {
	{"pc", "pc", .is_set = false},
	{"missed", "missed", .is_num = true},
	{"mask", "mask", .is_set = true},
};

static const CtlField level_fields[] = {
	{"depth", "depth", .is_num = true},
	{"participants", "participants", .is_set = true},
};

static const CtlTable tables[] = {
	{"threads", "threads", "threads", thread_fields, 5, -1},
	{"warp", "warp", "policy state", warp_fields, 2, -1},
	{"priorities", "prio", "block priorities (longest path to the exit)", prio_fields, 2, -1},
	{"postdom", "pdom", "unreconverged divergences", pdom_fields, 4, -1},
	{"rd", "rd", "missed reconvergences per pc", rd_fields, 3, -1},
	{"levels", "lvl", "function levels (Lee's grouping)", level_fields, 2, -1},
};

static int32_t table_of(const Warp *w, int32_t k) { return rec(w, k)[0]; }

static void view(const Warp *w, int32_t k, CtlView *v)
{
	const int32_t *r = rec(w, k);
	memset(v, 0, sizeof *v);
	switch (r[0]) {
	case REC_THREAD:
		v->pc[0] = r[T_PC];
		v->pc[1] = r[T_WAITS];
		v->pc[2] = r[T_LEVEL];
		v->pc[3] = r[T_STACK];
		v->pc[4] = k;
		break;
	case REC_WARP:
		v->pc[0] = r[W_CURSOR];
		v->set[1] = rmask(w, k);
		break;
	case REC_PRIO:
		v->pc[0] = r[PR_BLOCK];
		v->pc[1] = r[PR_VALUE];
		break;
	case REC_PDOM:
		v->pc[0] = r[PD_BRANCH];
		v->pc[1] = r[PD_IPDOM];
		v->pc[2] = r[PD_LEVEL];
		v->set[3] = rmask(w, k);
		break;
	case REC_LEVEL:
		v->pc[0] = r[LV_DEPTH];
		v->set[1] = rmask(w, k);
		break;
	default:
		v->pc[0] = r[RD_PC];
		v->pc[1] = r[RD_COUNT];
		v->set[2] = rmask(w, k);
		break;
	}
}

/* The threads that may issue but do not now are deferred (at the lowest such
** pc); those at a barrier wait there. */
static void pending(const Warp *w, uint64_t *deferred, int32_t *resume_pc, uint64_t *waiting, int32_t *wait_pc)
{
	for (int32_t l = 0; l < w->size; l++) {
		int32_t pc = tpc(w, l);
		if (pc < 0 || bit_get(w->active, l))
			continue;
		if (rec(w, l)[T_WAITS]) {
			bit_set(waiting, l);
			if (*wait_pc < 0)
				*wait_pc = pc;
		} else {
			bit_set(deferred, l);
			if (*resume_pc < 0 || pc < *resume_pc)
				*resume_pc = pc;
		}
	}
}

static CtlWait lane_held(const Warp *w, int32_t l, int32_t *pc)
{
	if (l >= w->size || tpc(w, l) < 0 || bit_get(w->active, l))
		return CTL_NOT_HELD;
	*pc = tpc(w, l);
	return rec(w, l)[T_WAITS] ? CTL_WAITING : CTL_DEFERRED;
}

/* ---- the table ---------------------------------------------------------------------------- */

#define S_MINPC "Min-PC (Quinn 1988): the threads at the smallest pc"
#define S_MINSP                                                                                            \
	"MinSP-MinPC (Collange): the deepest stack (smallest stack pointer: the return stack's depth, a "    \
	"unit per activation record), then the smallest pc"
#define S_MAXFUN1 "MaxFun-MinPC v1: the most activation records (the call depth), then the smallest pc"
#define S_MAXFUN2                                                                                          \
	"MaxFun-MinPC v2: the most activation records, then the largest stack pointer (smallest frames), "   \
	"then the smallest pc (frames of one unit: as v1)"
#define S_MAXFUN3                                                                                          \
	"MaxFun-MinPC v3: the most activation records, then the smallest stack pointer, then the smallest "  \
	"pc (frames of one unit: as v1)"
#define S_MAXSP "MaxSP-MinPC: the largest stack pointer (shallowest stack), then the smallest pc"
#define S_MINFUN "MinFun-MinPC: the fewest activation records (the call depth), then the smallest pc"
#define S_LEE                                                                                              \
	"Lee et al. 2011: the smallest pc among the current list; a thread whose pc goes back moves to the " \
	"future list; the lists swap when the current one is empty; a call's threads run alone until all "  \
	"have returned (function-level grouping)"
#define S_LONG                                                                                             \
	"Long et al. 2010 with an FHB of S block starts: priority = the other threads whose FHB holds my "  \
	"block; the groups of the highest priority run a block each in thread order"
#define S_LONG_MINPC "Long-MinPC: Long's priority, then the smallest pc, recounted at every block"
#define S_LONG_MINSP "Long-MinSP-MinPC: Long's priority, then MinSP-MinPC, recounted at every block"
#define S_LONG_IRB "Long-IRB: Long with every instruction in the FHB and a decision before every instruction"
#define S_PDOM(h)                                                                                          \
	"PostDom with the " h " helper: a divergent branch's threads wait at its immediate post-dominator "  \
	"for each other; the helper chooses among the threads of the innermost divergence"
#define S_LP1                                                                                              \
	"LongestPath1 (thread frontiers): the block with the longest simple path to the exit, then the "     \
	"smallest pc"
#define S_LPP "LongestPathP: the blocks with the longest path to the exit, one block each in turn"
#define S_RR_EQ "Round-Robin-Eq: the next thread not yet served this round, with every thread at its pc"
#define S_RR_THREAD "Round-Robin: one thread per fetch, in turn (a MIMD machine: DLP 1)"
#define S_RD                                                                                               \
	"RD-MinSP-MinPC (h:t:d): MinSP-MinPC among the threads whose pc missed reconvergence at most h "     \
	"times more than the least (all once the least reaches t; d: y decrements on a met reconvergence)"

#define FHB_SIZES(X, NAME, KIND, SUB, SUM)                                                                 \
	X(NAME ":2", KIND, SUB, 2, 0, 0, false, SUM) X(NAME ":4", KIND, SUB, 4, 0, 0, false, SUM)            \
	X(NAME ":8", KIND, SUB, 8, 0, 0, false, SUM) X(NAME ":16", KIND, SUB, 16, 0, 0, false, SUM)          \
	X(NAME ":32", KIND, SUB, 32, 0, 0, false, SUM) X(NAME ":64", KIND, SUB, 64, 0, 0, false, SUM)        \
	X(NAME ":128", KIND, SUB, 128, 0, 0, false, SUM)

/* ORDER POLICIES: X(name, kind, sub, arg0, arg1, arg2, calls, summary) */
#define POLICIES(X)                                                                                        \
	X("minpc", P_KEY, K_MINPC, 0, 0, 0, false, S_MINPC)                                                    \
	X("minsp-minpc", P_KEY, K_MINSP, 0, 0, 0, true, S_MINSP)                                               \
	X("maxfun-minpc1", P_KEY, K_MAXFUN1, 0, 0, 0, true, S_MAXFUN1)                                         \
	X("maxfun-minpc2", P_KEY, K_MAXFUN2, 0, 0, 0, true, S_MAXFUN2)                                         \
	X("maxfun-minpc3", P_KEY, K_MAXFUN3, 0, 0, 0, true, S_MAXFUN3)                                         \
	X("maxsp-minpc", P_KEY, K_MAXSP, 0, 0, 0, true, S_MAXSP)                                               \
	X("minfun-minpc", P_KEY, K_MINFUN, 0, 0, 0, true, S_MINFUN)                                            \
	X("lee", P_LEE, 0, 0, 0, 0, false, S_LEE)                                                              \
	FHB_SIZES(X, "long", P_LONG, L_PLAIN, S_LONG)                                                          \
	FHB_SIZES(X, "long-minpc", P_LONG, L_MINPC, S_LONG_MINPC)                                              \
	FHB_SIZES(X, "long-minsp", P_LONG, L_MINSP, S_LONG_MINSP)                                              \
	FHB_SIZES(X, "long-irb", P_LONG, L_IRB, S_LONG_IRB)                                                    \
	X("postdom+minpc", P_POSTDOM, K_MINPC, 0, 0, 0, false, S_PDOM("Min-PC"))                               \
	X("postdom+minsp", P_POSTDOM, K_MINSP, 0, 0, 0, true, S_PDOM("MinSP-MinPC"))                           \
	X("postdom+maxsp", P_POSTDOM, K_MAXSP, 0, 0, 0, true, S_PDOM("MaxSP-MinPC"))                           \
	X("postdom+maxfun", P_POSTDOM, K_MAXFUN1, 0, 0, 0, true, S_PDOM("MaxFun-MinPC"))                       \
	X("postdom+minfun", P_POSTDOM, K_MINFUN, 0, 0, 0, true, S_PDOM("MinFun-MinPC"))                        \
	X("postdom+rb", P_POSTDOM, K_RB, 0, 0, 0, false, S_PDOM("round-robin (Round-Robin-Eq)"))               \
	FHB_SIZES(X, "postdom+long", P_POSTDOM, K_LONG, S_PDOM("Long (FHB of S)"))                             \
	X("longestpath1", P_LONGEST, LP_MINPC, 0, 0, 0, false, S_LP1)                                          \
	X("longestpathp", P_LONGEST, LP_PARALLEL, 0, 0, 0, false, S_LPP)                                       \
	X("rr-eq", P_RR_EQ, 0, 0, 0, 0, false, S_RR_EQ)                                                        \
	X("rr-thread", P_RR_THREAD, 0, 0, 0, 0, false, S_RR_THREAD)                                            \
	X("rd-minsp:2:1:n", P_RD, 0, 2, 1, 0, true, S_RD)                                                      \
	X("rd-minsp:4:0:n", P_RD, 0, 4, 0, 0, true, S_RD)                                                      \
	X("rd-minsp:4:1:n", P_RD, 0, 4, 1, 0, true, S_RD)                                                      \
	X("rd-minsp:8:1:y", P_RD, 0, 8, 1, 1, true, S_RD)

#define POLICY_MODEL(NAME, KIND, SUB, A0, A1, A2, CALLS, SUM, EVERY, SUFFIX)                               \
	{.model = {.name = "its:" NAME SUFFIX,                                                                 \
	           .summary = SUM,                                                                             \
	           .stack_name = "policy state",                                                               \
	           .pushed_by = -1,                                                                            \
	           .rec_size = REC_FIELDS(((KIND) == P_LONG || ((KIND) == P_POSTDOM && (int)(SUB) == (int)K_LONG)) ? (A0) : 0), \
	           .nmask = 1,                                                                                 \
	           .lane_pcs = true,                                                                           \
	           .tables = tables,                                                                           \
	           .ntables = 6,                                                                               \
	           .table_of = table_of,                                                                       \
	           .start = start,                                                                             \
	           .branch = branch,                                                                           \
	           .sync = model_sync_nop,                                                                     \
	           .finish = finish,                                                                           \
	           .go = go,                                                                                   \
	           .ret_split = ret_split,                                                                     \
	           .barrier = barrier,                                                                         \
	           .release = release,                                                                         \
	           .view = view,                                                                               \
	           .pending = pending,                                                                         \
	           .lane_held = lane_held},                                                                    \
	 .key = NAME SUFFIX,                                                                                   \
	 .kind = KIND,                                                                                         \
	 .sub = SUB,                                                                                           \
	 .arg = {A0, A1, A2},                                                                                  \
	 .calls = CALLS,                                                                                       \
	 .every = (EVERY) || ((KIND) == P_LONG && (int)(SUB) == (int)L_IRB)},
#define AS_BLOCK(NAME, KIND, SUB, A0, A1, A2, CALLS, SUM) \
	POLICY_MODEL(NAME, KIND, SUB, A0, A1, A2, CALLS, SUM, false, "")
#define AS_INS(NAME, KIND, SUB, A0, A1, A2, CALLS, SUM) \
	POLICY_MODEL(NAME, KIND, SUB, A0, A1, A2, CALLS, SUM, true, "@ins")
#define AS_NAME(NAME, KIND, SUB, A0, A1, A2, CALLS, SUM) "its:" NAME,
#define AS_NAME_INS(NAME, KIND, SUB, A0, A1, A2, CALLS, SUM) "its:" NAME "@ins",

static const ItsPolicy policies[] = {POLICIES(AS_BLOCK) POLICIES(AS_INS)};
#define NPOLICIES ((int32_t)(sizeof policies / sizeof *policies))
const char *const its_policy_names[] = {POLICIES(AS_NAME) POLICIES(AS_NAME_INS) NULL};
_Static_assert(sizeof its_policy_names / sizeof *its_policy_names == sizeof policies / sizeof *policies + 1,
               "its_policy_names: one per policy");

int32_t its_policy_count(void) { return NPOLICIES; }

const Model *its_policy_model(int32_t i)
{
	return i >= 0 && i < NPOLICIES ? &policies[i].model : NULL;
}

const Model *its_policy_find(const char *name)
{
	for (int32_t i = 0; i < NPOLICIES; i++)
		if (!strcmp(policies[i].model.name, name))
			return &policies[i].model;
	return NULL;
}

const char *its_policy_key(const Model *md)
{
	for (int32_t i = 0; i < NPOLICIES; i++)
		if (&policies[i].model == md)
			return policies[i].key;
	if (md && !strncmp(md->name, "its:", 4))
		return md->name + 4;
	return md ? md->name : "sync";
}

bool its_policy_uses_calls(const Model *md)
{
	for (int32_t i = 0; i < NPOLICIES; i++)
		if (&policies[i].model == md)
			return policies[i].calls;
	return false;
}

/* One help line per family: the names (sizes folded into S), the summary
** wrapped at width. */
void its_policy_help(Buf *b, int indent, int width)
{
	for (int32_t i = 0; i < NPOLICIES / 2; i++) {
		const ItsPolicy *P = &policies[i];
		if (i > 0 && !strcmp(policies[i - 1].model.summary, P->model.summary) &&
		    policies[i - 1].kind == P->kind && policies[i - 1].sub == P->sub)
			continue; /* the family's first line names it */
		char name[64];
		const char *colon = strchr(P->key, ':');
		if (P->kind == P_RD)
			snprintf(name, sizeof name, "rd-minsp:H:T:D");
		else if (colon)
			snprintf(name, sizeof name, "%.*s:S", (int)(colon - P->key), P->key);
		else
			snprintf(name, sizeof name, "%s", P->key);
		Buf sum = {0};
		buf_puts(&sum, P->model.summary);
		if (colon && P->kind != P_RD)
			buf_puts(&sum, " (S: 2 4 8 16 32 64 128)");
		if (P->kind == P_RD)
			buf_puts(&sum, " (the thesis's four: 2:1:n 4:0:n 4:1:n 8:1:y)");
		model_help_line(b, indent, 17, width, name, buf_str(&sum));
		buf_free(&sum);
	}
}
