/*
** deadlock.c — ElTantawy's Algorithm 1 (seed 004 §3.3) and the safe
** reconvergence points of Algorithms 2 and 3 (§4.2), see deadlock.h.
**
** The loops, the sets and the results are the program's own (its CFG is
** what a SIMT stack runs); the slices are taken in its GSA form, where
** every variable has one definition, and mapped back by the user's
** statement each instruction comes from. For each natural loop L:
** 1. ExitConds(L): the conditional branches in L with a successor outside
**    L; R, the reconvergence point of Exits(L): the nearest common
**    post-dominator of those successors.
** 2. The backward slice of ExitConds(L) through data dependence (each
**    variable operand to its one definition: μ, γ and η operands and γ's
**    predicates included) and control dependence (the branches a block is
**    control dependent on: post-dominance, Ferrante et al.). Its loads and
**    atomics are the shared reads the exits depend on; ShrdReads(L) are
**    those inside L.
** 3. A block is reachable from L when a path from R reaches it without
**    crossing a barrier (R's own instructions count, the instructions of a
**    block up to its first barrier count, and the walk stops there). A
**    block is parallel to L when some conditional branch, reconverging at
**    R_B, has all of L on the paths from one of its sides to R_B and the
**    block on the paths from the other side (such a branch reaches L's
**    header and R_B strictly post-dominates the header, which is how the
**    candidates are found); those branches are ParaBrSet(L, block).
** 4. ShrdWrites(L): stores and atomics in reachable or parallel blocks;
**    RedefWrites(L): those that may alias a read of ShrdReads(L). Two
**    addresses alias unless both are known constants (a literal, or a
**    variable whose definition copies one) and differ.
** 5. Algorithm 2: a suspected loop's safe point post-dominates R, each
**    redefining write (strictly after it), the branches on the paths from
**    R to a reachable one, and ParaBrSet of a parallel one; Algorithm 3
**    then settles nested and consecutive loops.
** With a divergence analysis's verdicts (deadlock.h), nothing is reachable
** from a loop whose exits are uniform, and uniform branches make nothing
** parallel.
*/
#include "deadlock.h"

#include "ana.h"
#include "cfg.h"
#include "gsa.h"

#include <stdlib.h>
#include <string.h>

const char *dl_stage_name(DlStage s)
{
	switch (s) {
	case DL_NOT_MEMORY: return "not-memory";
	case DL_NO_LOOP_READ: return "no-loop-read";
	case DL_NOT_REDEFINED: return "not-redefined";
	case DL_SUSPECTED: return "suspected";
	}
	return "?";
}

typedef struct IV {
	int32_t *v;
	int32_t n, cap;
} IV;

static void iv_push(IV *a, int32_t x) { VEC_PUSH(a->v, a->n, a->cap, x); }

typedef struct Ctx {
	const Program *p;  /* the program: loops, sets and results are its */
	const Cfg *g;
	const Program *sp; /* its GSA form (p itself when p is GSA): the slices */
	const Cfg *sg;
	int32_t *to_s, *to_p; /* pc of p → pc of sp, and back (-1: none) */
	int32_t *def_of;   /* variable of sp → the pc defining it, or -1 */
	int32_t *cd_start, *cd; /* block of sp → the branch pcs it is control dependent on (CSR) */
	uint32_t *seen;    /* per pc of sp: the stamp of the last slice that reached it */
	uint32_t *bseen;   /* per block of p: the stamp of the last walk that reached it */
	uint32_t stamp;
	IV work;           /* worklists */
	int32_t *reach_upto; /* per block: the last pc reachable from R, or -1 */
	int32_t *par_head;   /* per block: the first of the branches making it parallel, or -1 */
	IV par_br, par_next; /* ... a list: a branch pc, the next entry */
	uint8_t *side;     /* per block: in P_{T→R_B} (1), in P_{NT→R_B} (2) */
	const bool *divergent; /* per pc of sp: the branch may diverge (NULL: every branch may) */
} Ctx;

static bool is_shared_read(Op op) { return op == OP_LOAD || ir_is_atomic(op); }
static bool is_shared_write(Op op) { return op == OP_STORE || ir_is_atomic(op); }

static int32_t branch_of(const Program *p, const Cfg *g, int32_t b)
{
	const Block *blk = &g->blocks[b];
	return blk->nsucc == 2 && ir_is_branch((Op)p->ins[blk->last].op) ? blk->last : -1;
}

static int32_t branch_pc(const Ctx *c, int32_t b) { return branch_of(c->p, c->g, b); }

/* May the branch at pc of p diverge (the divergence verdicts, mapped)? */
static bool may_diverge(const Ctx *c, int32_t pc)
{
	return !c->divergent || c->to_s[pc] < 0 || c->divergent[c->to_s[pc]];
}

typedef struct OffPc {
	int32_t off, pc;
} OffPc;

static int cmp_off(const void *a, const void *b)
{
	const OffPc *x = a, *y = b;
	return x->off != y->off ? (x->off > y->off) - (x->off < y->off) : (x->pc > y->pc) - (x->pc < y->pc);
}

/* Match the instructions of p and of its GSA form by the statement of the
** user's file they come from (gsa.c keeps the locations) and their
** operation: the branches, loads, stores and atomics are all matched. */
static void build_maps(Ctx *c)
{
	const Program *p = c->p, *sp = c->sp;
	c->to_s = xmalloc(((size_t)p->nins + 1) * sizeof *c->to_s);
	c->to_p = xmalloc(((size_t)sp->nins + 1) * sizeof *c->to_p);
	for (int32_t i = 0; i < sp->nins; i++)
		c->to_p[i] = sp == p ? i : -1;
	for (int32_t i = 0; i < p->nins; i++)
		c->to_s[i] = sp == p ? i : -1;
	if (sp == p)
		return;
	OffPc *ord = xmalloc(((size_t)sp->nins + 1) * sizeof *ord);
	int32_t n = 0;
	for (int32_t i = 0; i < sp->nins; i++)
		if (!ir_is_gsa((Op)sp->ins[i].op))
			ord[n++] = (OffPc){sp->ins[i].loc.off, i};
	qsort(ord, (size_t)n, sizeof *ord, cmp_off);
	for (int32_t pc = 0; pc < p->nins; pc++) {
		int32_t off = p->ins[pc].loc.off, lo = 0, hi = n;
		while (lo < hi) { /* the first entry at or after off */
			int32_t mid = lo + (hi - lo) / 2;
			if (ord[mid].off < off)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (int32_t k = lo; k < n && ord[k].off == off; k++)
			if (sp->ins[ord[k].pc].op == p->ins[pc].op && c->to_p[ord[k].pc] < 0) {
				c->to_s[pc] = ord[k].pc;
				c->to_p[ord[k].pc] = pc;
				break;
			}
	}
	free(ord);
}

/* Control dependence in sp: for each edge B → S of a conditional branch,
** the blocks from S up the post-dominator tree to ipdom(B), exclusive. */
static void control_dependence(Ctx *c)
{
	const Cfg *g = c->sg;
	IV keys = {0}, vals = {0};
	for (int32_t b = 0; b < g->nblocks; b++) {
		int32_t br = branch_of(c->sp, g, b);
		if (br < 0)
			continue;
		int32_t stop = g->blocks[b].ipdom;
		for (int32_t k = 0; k < 2; k++)
			for (int32_t y = g->blocks[b].succ[k]; y != stop && y < g->nblocks; y = g->blocks[y].ipdom) {
				iv_push(&keys, y);
				iv_push(&vals, br);
			}
	}
	c->cd_start = xcalloc((size_t)g->nblocks + 2, sizeof *c->cd_start);
	c->cd = xmalloc(((size_t)keys.n + 1) * sizeof *c->cd);
	for (int32_t i = 0; i < keys.n; i++)
		c->cd_start[keys.v[i] + 1]++;
	for (int32_t b = 0; b < g->nblocks; b++)
		c->cd_start[b + 1] += c->cd_start[b];
	int32_t *fill = xmalloc(((size_t)g->nblocks + 1) * sizeof *fill);
	memcpy(fill, c->cd_start, ((size_t)g->nblocks + 1) * sizeof *fill);
	for (int32_t i = 0; i < keys.n; i++)
		c->cd[fill[keys.v[i]]++] = vals.v[i];
	free(fill);
	free(keys.v);
	free(vals.v);
}

static void slice_add(Ctx *c, int32_t pc)
{
	if (pc < 0 || c->seen[pc] == c->stamp)
		return;
	c->seen[pc] = c->stamp;
	iv_push(&c->work, pc);
}

static void slice_add_var(Ctx *c, const Opnd *o)
{
	if (o->kind == OPND_VAR)
		slice_add(c, c->def_of[o->var]);
}

/* The backward slice (in sp) of L's exit conditions: the shared reads it
** reaches, as pcs of p, into out. An exit condition with no counterpart
** in sp (none is known) would make the slice unknown: every shared read
** then counts. */
static void slice(Ctx *c, const DlLoop *L, IV *out)
{
	c->stamp++;
	c->work.n = 0;
	bool unknown = false;
	for (int32_t i = 0; i < L->nexit; i++) {
		unknown |= c->to_s[L->exit_conds[i]] < 0;
		slice_add(c, c->to_s[L->exit_conds[i]]);
	}
	if (unknown) {
		for (int32_t pc = 0; pc < c->p->nins; pc++)
			if (is_shared_read((Op)c->p->ins[pc].op))
				iv_push(out, pc);
		return;
	}
	while (c->work.n > 0) {
		int32_t pc = c->work.v[--c->work.n];
		const Ins *ins = &c->sp->ins[pc];
		if (is_shared_read((Op)ins->op) && ins->dst >= 0 && c->to_p[pc] >= 0)
			iv_push(out, c->to_p[pc]);
		slice_add_var(c, &ins->a);
		slice_add_var(c, &ins->b);
		slice_add_var(c, &ins->c);
		for (int32_t k = 0; k < ins->nargs; k++)
			slice_add_var(c, &ins->args[k]);
		int32_t b = c->sg->block_of[pc];
		for (int32_t k = c->cd_start[b]; k < c->cd_start[b + 1]; k++)
			slice_add(c, c->cd[k]);
	}
}

/* Nearest common post-dominator of blocks a and b (the virtual exit at worst). */
static int32_t pdom_lca(const Cfg *g, int32_t a, int32_t b)
{
	while (a < g->nblocks && !cfg_postdominates(g, a, b))
		a = g->blocks[a].ipdom;
	return a;
}

/* ExitConds(L) and the reconvergence point of Exits(L) (a block). */
static int32_t exits(Ctx *c, int32_t l, IV *conds)
{
	const Cfg *g = c->g;
	const Loop *lp = &g->loops[l];
	int32_t R = -1;
	for (int32_t i = 0; i < lp->nblocks; i++) {
		int32_t b = lp->blocks[i];
		const Block *blk = &g->blocks[b];
		bool leaves = false;
		for (int32_t k = 0; k < blk->nsucc; k++) {
			int32_t s = blk->succ[k];
			if (s < g->nblocks && cfg_loop_contains(g, l, s))
				continue;
			leaves = true;
			R = R < 0 ? s : pdom_lca(g, R, s);
		}
		if (leaves && branch_pc(c, b) >= 0)
			iv_push(conds, blk->last);
	}
	return R < 0 ? g->nblocks : R; /* a loop without exits reconverges nowhere */
}

/* The blocks reachable from R without crossing a barrier: reach_upto[b]
** is the last pc of b the walk reaches (-1: none). */
static void reachable(Ctx *c, int32_t R)
{
	const Cfg *g = c->g;
	for (int32_t b = 0; b < g->nblocks; b++)
		c->reach_upto[b] = -1;
	if (R >= g->nblocks)
		return;
	c->stamp++;
	c->work.n = 0;
	c->bseen[R] = c->stamp;
	iv_push(&c->work, R);
	while (c->work.n > 0) {
		int32_t b = c->work.v[--c->work.n];
		const Block *blk = &g->blocks[b];
		int32_t pc = blk->first;
		while (pc <= blk->last && c->p->ins[pc].op != OP_BARRIER)
			pc++;
		c->reach_upto[b] = pc - 1;
		if (pc <= blk->last)
			continue; /* a barrier: the paths beyond it are not followed */
		for (int32_t k = 0; k < blk->nsucc; k++) {
			int32_t s = blk->succ[k];
			if (s < g->nblocks && c->bseen[s] != c->stamp) {
				c->bseen[s] = c->stamp;
				iv_push(&c->work, s);
			}
		}
	}
}

/* Mark with bit the blocks on paths from x to R (R excluded): P_{x→R}. */
static void paths_to(Ctx *c, int32_t x, int32_t R, uint8_t bit, IV *marked)
{
	const Cfg *g = c->g;
	c->stamp++;
	c->work.n = 0;
	if (x == R || x >= g->nblocks)
		return;
	c->bseen[x] = c->stamp;
	iv_push(&c->work, x);
	while (c->work.n > 0) {
		int32_t b = c->work.v[--c->work.n];
		if (!c->side[b])
			iv_push(marked, b);
		c->side[b] |= bit;
		const Block *blk = &g->blocks[b];
		for (int32_t k = 0; k < blk->nsucc; k++) {
			int32_t s = blk->succ[k];
			if (s != R && s < g->nblocks && c->bseen[s] != c->stamp) {
				c->bseen[s] = c->stamp;
				iv_push(&c->work, s);
			}
		}
	}
}

static void par_add(Ctx *c, int32_t b, int32_t br)
{
	iv_push(&c->par_br, br);
	iv_push(&c->par_next, c->par_head[b]);
	c->par_head[b] = c->par_br.n - 1;
}

/* The blocks parallel to loop l, each with ParaBrSet(L, b) (par_head). */
static void parallel_to(Ctx *c, int32_t l)
{
	const Cfg *g = c->g;
	const Loop *lp = &g->loops[l];
	int32_t h = lp->header;
	for (int32_t b = 0; b < g->nblocks; b++)
		c->par_head[b] = -1;
	c->par_br.n = c->par_next.n = 0;
	/* the candidates: branch blocks that reach the header */
	IV cand = {0}, marked = {0};
	c->stamp++;
	c->work.n = 0;
	c->bseen[h] = c->stamp;
	iv_push(&c->work, h);
	while (c->work.n > 0) {
		int32_t b = c->work.v[--c->work.n];
		if (branch_pc(c, b) >= 0)
			iv_push(&cand, b);
		for (int32_t k = 0; k < g->blocks[b].npred; k++) {
			int32_t q = g->blocks[b].pred[k];
			if (c->bseen[q] != c->stamp) {
				c->bseen[q] = c->stamp;
				iv_push(&c->work, q);
			}
		}
	}
	for (int32_t i = 0; i < cand.n; i++) {
		int32_t B = cand.v[i];
		int32_t RB = g->blocks[B].ipdom;
		if (RB == h || !cfg_postdominates(g, RB, h))
			continue;
		if (!may_diverge(c, g->blocks[B].last))
			continue; /* a uniform branch sends a whole warp one way */
		/* succ[0] is the fall-through (not taken), succ[1] the target */
		marked.n = 0;
		paths_to(c, g->blocks[B].succ[1], RB, 1, &marked);
		paths_to(c, g->blocks[B].succ[0], RB, 2, &marked);
		for (uint8_t bit = 1; bit <= 2; bit++) {
			bool holds = true;
			for (int32_t k = 0; k < lp->nblocks && holds; k++)
				holds = (c->side[lp->blocks[k]] & bit) != 0;
			if (!holds)
				continue;
			uint8_t other = bit == 1 ? 2 : 1;
			for (int32_t k = 0; k < marked.n; k++)
				if (c->side[marked.v[k]] & other)
					par_add(c, marked.v[k], g->blocks[B].last);
		}
		for (int32_t k = 0; k < marked.n; k++)
			c->side[marked.v[k]] = 0;
	}
	free(cand.v);
	free(marked.v);
}

/* A constant address: a literal, or a variable whose definition (in sp)
** copies one. */
static bool const_addr(const Ctx *c, int32_t pc, int64_t *out)
{
	const Program *sp = c->sp;
	if (c->to_s[pc] < 0)
		return false;
	const Opnd *o = &sp->ins[c->to_s[pc]].a;
	for (int hops = 0; hops < 8; hops++) {
		if (o->kind == OPND_LIT) {
			Num v = ir_lit(sp, o);
			if (v.z)
				return false;
			*out = v.i;
			return true;
		}
		if (o->kind != OPND_VAR || c->def_of[o->var] < 0)
			return false;
		const Ins *d = &sp->ins[c->def_of[o->var]];
		if (d->op != OP_COPY)
			return false;
		o = &d->a;
	}
	return false;
}

static bool may_alias(const Ctx *c, int32_t r, int32_t w)
{
	int64_t x, y;
	return !(const_addr(c, r, &x) && const_addr(c, w, &y) && x != y);
}

static void redef_writes(Ctx *c, DlLoop *L)
{
	const Program *p = c->p;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		if (!is_shared_write((Op)p->ins[pc].op))
			continue;
		int32_t b = c->g->block_of[pc];
		DlWhere where;
		if (c->reach_upto[b] >= pc)
			where = DL_REACHABLE;
		else if (c->par_head[b] >= 0)
			where = DL_PARALLEL;
		else
			continue;
		for (int32_t i = 0; i < L->nreads; i++) {
			if (!may_alias(c, L->reads[i], pc))
				continue;
			L->writes = xrealloc(L->writes, ((size_t)L->nwrites + 1) * sizeof *L->writes);
			L->writes[L->nwrites++] = (DlWrite){pc, L->reads[i], where,
			                                    where == DL_PARALLEL ? c->par_br.v[c->par_head[b]] : -1};
			break;
		}
	}
}

/* ---- Algorithms 2 and 3: safe reconvergence points ----------------------- */

/* The nearest instruction that post-dominates both a and b (pcs; nins is
** the end of the program). */
static int32_t ipdom_ins(const Ctx *c, int32_t a, int32_t b)
{
	const Cfg *g = c->g;
	int32_t end = c->p->nins;
	if (a >= end || b >= end)
		return end;
	int32_t A = g->block_of[a], B = g->block_of[b];
	if (A == B)
		return a > b ? a : b;
	if (cfg_postdominates(g, A, B))
		return a;
	if (cfg_postdominates(g, B, A))
		return b;
	int32_t C = pdom_lca(g, A, B);
	return C < g->nblocks ? g->blocks[C].first : end;
}

/* Where the branch at pc reconverges: the start of its block's immediate
** post-dominator. */
static int32_t region_end(const Ctx *c, int32_t pc)
{
	int32_t R = c->g->blocks[c->g->block_of[pc]].ipdom;
	return R < c->g->nblocks ? c->g->blocks[R].first : c->p->nins;
}

/* Algorithm 2 for loop L (the sets of Algorithm 1 computed for it): the
** safe point post-dominates the exits, each redefining write (strictly:
** the write runs before the point), and the branches on the paths from
** the exits' reconvergence point to a reachable write (ReachBrSet) or
** making a write parallel (ParaBrSet). */
static int32_t safe_point(Ctx *c, const DlLoop *L, bool reachable_only)
{
	const Cfg *g = c->g;
	int32_t S = L->rpc >= 0 ? L->rpc : c->p->nins;
	for (int32_t i = 0; i < L->nwrites; i++) {
		int32_t w = L->writes[i].pc, wb = g->block_of[w];
		if (reachable_only && c->reach_upto[wb] < w)
			continue;
		S = ipdom_ins(c, S, w + 1);
		if (c->reach_upto[wb] >= w) {
			/* ReachBrSet: the branches on the paths from R to wb, the blocks
			** walked from R that reach wb. A path may pass R again: around
			** an enclosing loop, a write of a later iteration counts with
			** the loop's branches (BH-ST's SafePDom is after the outer
			** loop, Fig. 4.1b; Radiosity's the do-while's exit, 4.1a) */
			c->stamp++;
			c->work.n = 0;
			c->bseen[wb] = c->stamp;
			iv_push(&c->work, wb);
			while (c->work.n > 0) {
				int32_t b = c->work.v[--c->work.n];
				if (b != wb && branch_pc(c, b) >= 0)
					S = ipdom_ins(c, S, region_end(c, g->blocks[b].last));
				for (int32_t k = 0; k < g->blocks[b].npred; k++) {
					int32_t q = g->blocks[b].pred[k];
					if (c->bseen[q] != c->stamp && c->reach_upto[q] == g->blocks[q].last) {
						c->bseen[q] = c->stamp;
						iv_push(&c->work, q);
					}
				}
			}
		}
		for (int32_t k = reachable_only ? -1 : c->par_head[wb]; k >= 0; k = c->par_next.v[k])
			S = ipdom_ins(c, S, region_end(c, c->par_br.v[k]));
	}
	return S;
}

/* Do all of loop l's blocks lie on the paths from loop m's exits to the
** point S? */
static bool loop_between(Ctx *c, int32_t l, int32_t m, int32_t S)
{
	const Cfg *g = c->g;
	const Loop *lm = &g->loops[m], *ll = &g->loops[l];
	int32_t stop = S < c->p->nins ? g->block_of[S] : g->nblocks;
	IV marked = {0};
	for (int32_t i = 0; i < lm->nblocks; i++) {
		const Block *blk = &g->blocks[lm->blocks[i]];
		for (int32_t k = 0; k < blk->nsucc; k++) {
			int32_t s = blk->succ[k];
			if (s < g->nblocks && !cfg_loop_contains(g, m, s) && !c->side[s])
				paths_to(c, s, stop, 1, &marked);
		}
	}
	bool all = true;
	for (int32_t k = 0; k < ll->nblocks && all; k++)
		all = c->side[ll->blocks[k]] != 0;
	for (int32_t k = 0; k < marked.n; k++)
		c->side[marked.v[k]] = 0;
	free(marked.v);
	return all;
}

/* Algorithm 3: a loop's safe point must post-dominate the safe points of
** the loops between its exits and it; a loop enclosing a transformed loop
** whose safe point leaves it is moved too, and transformed. (The thesis
** transforms it only when its own exits depend on shared memory; but the
** inner loop's new edge to a switch outside is an exit of the enclosing
** loop, one that depends on the inner loop's shared read, and a switch
** outside that jumps back into the inner loop would enter the enclosing
** loop in its middle: an irreducible result, §4.4.) Iterated to a
** fixpoint, which the end of the program bounds (the points only move
** down the post-dominator tree). */
static void resolve_conflicts(Ctx *c, DlResult *r)
{
	const Cfg *g = c->g;
	for (bool converged = false; !converged;) {
		converged = true;
		for (int32_t m = 0; m < r->nloops; m++) {
			DlLoop *M = &r->loops[m];
			int32_t before = M->safe_pc;
			for (int32_t l = 0; l < r->nloops; l++) {
				DlLoop *L = &r->loops[l];
				if (l == m)
					continue;
				if (M->ssde) {
					if (loop_between(c, l, m, M->safe_pc)) {
						M->safe_pc = ipdom_ins(c, M->safe_pc, L->safe_pc);
						if (L->ssde && L->safe_pc != M->safe_pc) {
							/* L spins while M's threads are between M's exit
							** and M's safe point (a lock taken inside
							** another): one switch for both, as aliasing
							** gives the thesis for nested locks (T10) */
							L->safe_pc = ipdom_ins(c, L->safe_pc, M->safe_pc);
							converged = false;
						}
					}
				} else if (L->ssde && cfg_loop_contains(g, m, g->loops[l].header) &&
				           (L->safe_pc >= c->p->nins || !cfg_loop_contains(g, m, g->block_of[L->safe_pc]))) {
					if (!M->ssde) {
						M->ssde = true;
						M->by_conflict = true;
					}
					M->safe_pc = ipdom_ins(c, M->safe_pc, L->safe_pc);
				}
			}
			converged &= M->safe_pc == before;
		}
	}
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

DlResult *dl_detect(const Program *p, const Program *gsa, const bool *branch_divergent)
{
	const Cfg *g = p->cfg;
	DlResult *r = xcalloc(1, sizeof *r);
	Ctx c = {.p = p, .g = g, .sp = gsa, .sg = gsa->cfg, .divergent = branch_divergent};
	build_maps(&c);
	c.def_of = xmalloc(((size_t)gsa->nvars + 1) * sizeof *c.def_of);
	for (int32_t v = 0; v < gsa->nvars; v++)
		c.def_of[v] = -1;
	for (int32_t pc = 0; pc < gsa->nins; pc++)
		if (gsa->ins[pc].dst >= 0)
			c.def_of[gsa->ins[pc].dst] = pc;
	control_dependence(&c);
	c.seen = xcalloc((size_t)gsa->nins + 1, sizeof *c.seen);
	c.bseen = xcalloc((size_t)g->nblocks + 1, sizeof *c.bseen);
	c.reach_upto = xmalloc(((size_t)g->nblocks + 1) * sizeof *c.reach_upto);
	c.par_head = xmalloc(((size_t)g->nblocks + 1) * sizeof *c.par_head);
	c.side = xcalloc((size_t)g->nblocks + 1, 1);
	r->loops = xcalloc((size_t)g->nloops + 1, sizeof *r->loops);
	IV conds = {0}, reads = {0};
	for (int32_t l = 0; l < g->nloops; l++) {
		DlLoop *L = &r->loops[r->nloops++];
		L->loop = l;
		L->header_pc = g->blocks[g->loops[l].header].first;
		conds.n = 0;
		int32_t R = exits(&c, l, &conds);
		L->rpc = R < g->nblocks ? g->blocks[R].first : -1;
		L->safe_pc = L->aware_pc = R < g->nblocks ? L->rpc : p->nins;
		L->nexit = conds.n;
		L->exit_conds = xmalloc(((size_t)conds.n + 1) * sizeof *L->exit_conds);
		if (conds.n > 0) /* a loop left only by jumps, or never, has none */
			memcpy(L->exit_conds, conds.v, (size_t)conds.n * sizeof *conds.v);
		bool may_split = false;
		for (int32_t i = 0; i < L->nexit && !may_split; i++)
			may_split = may_diverge(&c, L->exit_conds[i]);
		r->ndivergent += may_split;
		reads.n = 0;
		slice(&c, L, &reads);
		L->stage = DL_NOT_MEMORY;
		if (reads.n == 0)
			continue;
		r->nmemory++;
		L->stage = DL_NO_LOOP_READ;
		L->reads = xmalloc((size_t)reads.n * sizeof *L->reads);
		for (int32_t i = 0; i < reads.n; i++)
			if (cfg_loop_contains(g, l, g->block_of[reads.v[i]]))
				L->reads[L->nreads++] = reads.v[i];
		if (L->nreads == 0)
			continue;
		qsort(L->reads, (size_t)L->nreads, sizeof *L->reads, cmp_i32);
		r->nloopread++;
		L->stage = DL_NOT_REDEFINED;
		reachable(&c, may_split ? R : g->nblocks); /* a uniform exit: nobody waits at R */
		parallel_to(&c, l);
		redef_writes(&c, L);
		if (L->nwrites > 0) {
			L->stage = DL_SUSPECTED;
			L->ssde = true;
			r->nsuspected++;
			L->safe_pc = safe_point(&c, L, false);
			L->aware_pc = safe_point(&c, L, true);
		}
	}
	resolve_conflicts(&c, r);
	free(conds.v);
	free(reads.v);
	free(c.to_s);
	free(c.to_p);
	free(c.def_of);
	free(c.cd_start);
	free(c.cd);
	free(c.seen);
	free(c.bseen);
	free(c.reach_upto);
	free(c.par_head);
	free(c.par_br.v);
	free(c.par_next.v);
	free(c.side);
	free(c.work.v);
	return r;
}

DlResult *dl_run(const Program *p, bool divergence, Diags *d)
{
	Program *gsa = p->has_gsa ? (Program *)p : gsa_build(p, d);
	if (!gsa || d->nerrors > 0) {
		if (gsa != p)
			ir_free(gsa);
		return NULL;
	}
	AnaResult *ar = NULL;
	if (divergence) {
		AnaOptions ao = {.domain = ANA_POLY, .degree = 1};
		ar = ana_run(gsa, &ao);
	}
	DlResult *r = dl_detect(p, gsa, ar ? ar->branch_divergent : NULL);
	ana_free(ar);
	if (gsa != p)
		ir_free(gsa);
	return r;
}

/* ---- Algorithm 5: AWARE's delayed reconvergence points ------------------- */

int32_t *dl_aware_points(const Program *p, const DlResult *r)
{
	const Cfg *g = p->cfg;
	Ctx c = {.p = p, .g = g};
	c.bseen = xcalloc((size_t)g->nblocks + 1, sizeof *c.bseen);
	c.side = xcalloc((size_t)g->nblocks + 1, 1);
	int32_t *S = xmalloc(((size_t)p->nins + 1) * sizeof *S);
	for (int32_t pc = 0; pc < p->nins; pc++)
		S[pc] = ir_is_branch((Op)p->ins[pc].op) && pc == g->blocks[g->block_of[pc]].last ? region_end(&c, pc) : -1;
	/* the exit branches of the loops that may deadlock: simplified Algorithm 2 */
	for (int32_t i = 0; i < r->nloops; i++)
		if (r->loops[i].stage == DL_SUSPECTED)
			for (int32_t k = 0; k < r->loops[i].nexit; k++)
				S[r->loops[i].exit_conds[k]] = ipdom_ins(&c, S[r->loops[i].exit_conds[k]], r->loops[i].aware_pc);
	/* a branch's point post-dominates the points of the branches between its
	** successors and it; to a fixpoint (the points only move down) */
	IV marked = {0};
	for (bool converged = false; !converged;) {
		converged = true;
		for (int32_t pc = 0; pc < p->nins; pc++) {
			if (S[pc] < 0)
				continue;
			int32_t before = S[pc], B = g->block_of[pc];
			int32_t stop = S[pc] < p->nins ? g->block_of[S[pc]] : g->nblocks;
			marked.n = 0;
			for (int32_t k = 0; k < g->blocks[B].nsucc; k++)
				paths_to(&c, g->blocks[B].succ[k], stop, 1, &marked);
			for (int32_t k = 0; k < marked.n; k++) {
				int32_t b = marked.v[k], br = branch_pc(&c, b);
				if (br >= 0 && br != pc && S[br] >= 0)
					S[pc] = ipdom_ins(&c, S[pc], S[br]);
				c.side[b] = 0;
			}
			converged &= S[pc] == before;
		}
	}
	/* only the points that moved */
	for (int32_t pc = 0; pc < p->nins; pc++)
		if (S[pc] >= 0 && S[pc] == region_end(&c, pc))
			S[pc] = -1;
	free(marked.v);
	free(c.bseen);
	free(c.side);
	free(c.work.v);
	return S;
}

void dl_free(DlResult *r)
{
	if (!r)
		return;
	for (int32_t i = 0; i < r->nloops; i++) {
		free(r->loops[i].exit_conds);
		free(r->loops[i].reads);
		free(r->loops[i].writes);
	}
	free(r->loops);
	free(r);
}
