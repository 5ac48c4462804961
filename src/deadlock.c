/*
** deadlock.c — ElTantawy's Algorithm 1 (seed 004 §3.3), see deadlock.h.
**
** For each natural loop L of the GSA program:
** 1. ExitConds(L): the conditional branches in L with a successor outside
**    L; Exits(L): those successors (and the targets of jumps out of L).
** 2. The backward slice of ExitConds(L) through data dependence (each
**    variable operand to its one definition: μ, γ and η operands and γ's
**    predicates included) and control dependence (the branches a block is
**    control dependent on: post-dominance, Ferrante et al.). Its loads and
**    atomics are the shared reads the exits depend on; ShrdReads(L) are
**    those inside L.
** 3. R, the reconvergence point of Exits(L): their nearest common
**    post-dominator. A block is reachable from L when a path from R reaches
**    it without crossing a barrier (R's own instructions count, the
**    instructions of a block up to its first barrier count, and the walk
**    stops there). A block is parallel to L when some conditional branch,
**    reconverging at R_B, has all of L on the paths from one of its sides
**    to R_B and the block on the paths from the other side (such a branch
**    reaches L's header and R_B strictly post-dominates the header, which
**    is how the candidates are found).
** 4. ShrdWrites(L): stores and atomics in reachable or parallel blocks;
**    RedefWrites(L): those that may alias a read of ShrdReads(L). Two
**    addresses alias unless both are known constants (a literal, or a
**    variable whose definition copies one) and differ.
** With a divergence analysis's verdicts (deadlock.h), nothing is reachable
** from a loop whose exits are uniform, and uniform branches make nothing
** parallel.
*/
#include "deadlock.h"

#include "cfg.h"

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
	const Program *p;
	const Cfg *g;
	int32_t *def_of;   /* variable → the pc defining it, or -1 */
	int32_t *cd_start, *cd; /* block → the branch pcs it is control dependent on (CSR) */
	uint32_t *seen;    /* per pc: the stamp of the last slice that reached it */
	uint32_t *bseen;   /* per block: the stamp of the last walk that reached it */
	uint32_t stamp;
	IV work;           /* worklists */
	int32_t *reach_upto; /* per block: the last pc reachable from R, or -1 */
	int32_t *parallel;   /* per block: a branch making it parallel to L, or -1 */
	uint8_t *side;     /* per block: in P_{T→R_B} (1), in P_{NT→R_B} (2) */
	const bool *divergent; /* per pc: the branch may diverge (NULL: every branch may) */
} Ctx;

static bool is_shared_read(Op op) { return op == OP_LOAD || ir_is_atomic(op); }
static bool is_shared_write(Op op) { return op == OP_STORE || ir_is_atomic(op); }

static int32_t branch_pc(const Ctx *c, int32_t b)
{
	const Block *blk = &c->g->blocks[b];
	return blk->nsucc == 2 && ir_is_branch((Op)c->p->ins[blk->last].op) ? blk->last : -1;
}

/* Control dependence: for each edge B → S of a conditional branch, the
** blocks from S up the post-dominator tree to ipdom(B), exclusive. */
static void control_dependence(Ctx *c)
{
	const Cfg *g = c->g;
	IV keys = {0}, vals = {0};
	for (int32_t b = 0; b < g->nblocks; b++) {
		int32_t br = branch_pc(c, b);
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

/* The backward slice of L's exit conditions: its shared reads into out
** (program order is not needed; each once). */
static void slice(Ctx *c, const DlLoop *L, IV *out)
{
	c->stamp++;
	c->work.n = 0;
	for (int32_t i = 0; i < L->nexit; i++)
		slice_add(c, L->exit_conds[i]);
	while (c->work.n > 0) {
		int32_t pc = c->work.v[--c->work.n];
		const Ins *ins = &c->p->ins[pc];
		if (is_shared_read((Op)ins->op) && ins->dst >= 0)
			iv_push(out, pc);
		slice_add_var(c, &ins->a);
		slice_add_var(c, &ins->b);
		slice_add_var(c, &ins->c);
		for (int32_t k = 0; k < ins->nargs; k++)
			slice_add_var(c, &ins->args[k]);
		int32_t b = c->g->block_of[pc];
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

/* The blocks parallel to loop l: parallel[b] = a branch of ParaBrSet(L, b). */
static void parallel_to(Ctx *c, int32_t l)
{
	const Cfg *g = c->g;
	const Loop *lp = &g->loops[l];
	int32_t h = lp->header;
	for (int32_t b = 0; b < g->nblocks; b++)
		c->parallel[b] = -1;
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
		if (c->divergent && !c->divergent[g->blocks[B].last])
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
				if ((c->side[marked.v[k]] & other) && c->parallel[marked.v[k]] < 0)
					c->parallel[marked.v[k]] = g->blocks[B].last;
		}
		for (int32_t k = 0; k < marked.n; k++)
			c->side[marked.v[k]] = 0;
	}
	free(cand.v);
	free(marked.v);
}

/* A constant address: a literal, or a variable whose definition copies one. */
static bool const_addr(const Ctx *c, const Opnd *o, int64_t *out)
{
	for (int hops = 0; hops < 8; hops++) {
		if (o->kind == OPND_LIT) {
			Num v = ir_lit(c->p, o);
			if (v.z)
				return false;
			*out = v.i;
			return true;
		}
		if (o->kind != OPND_VAR || c->def_of[o->var] < 0)
			return false;
		const Ins *d = &c->p->ins[c->def_of[o->var]];
		if (d->op != OP_COPY)
			return false;
		o = &d->a;
	}
	return false;
}

static bool may_alias(const Ctx *c, int32_t r, int32_t w)
{
	int64_t x, y;
	return !(const_addr(c, &c->p->ins[r].a, &x) && const_addr(c, &c->p->ins[w].a, &y) && x != y);
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
		else if (c->parallel[b] >= 0)
			where = DL_PARALLEL;
		else
			continue;
		for (int32_t i = 0; i < L->nreads; i++) {
			if (!may_alias(c, L->reads[i], pc))
				continue;
			L->writes = xrealloc(L->writes, ((size_t)L->nwrites + 1) * sizeof *L->writes);
			L->writes[L->nwrites++] =
				(DlWrite){pc, L->reads[i], where, where == DL_PARALLEL ? c->parallel[b] : -1};
			break;
		}
	}
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

DlResult *dl_detect(const Program *p, const bool *branch_divergent)
{
	const Cfg *g = p->cfg;
	DlResult *r = xcalloc(1, sizeof *r);
	Ctx c = {.p = p, .g = g, .divergent = branch_divergent};
	c.def_of = xmalloc(((size_t)p->nvars + 1) * sizeof *c.def_of);
	for (int32_t v = 0; v < p->nvars; v++)
		c.def_of[v] = -1;
	for (int32_t pc = 0; pc < p->nins; pc++)
		if (p->ins[pc].dst >= 0)
			c.def_of[p->ins[pc].dst] = pc;
	control_dependence(&c);
	c.seen = xcalloc((size_t)p->nins + 1, sizeof *c.seen);
	c.bseen = xcalloc((size_t)g->nblocks + 1, sizeof *c.bseen);
	c.reach_upto = xmalloc(((size_t)g->nblocks + 1) * sizeof *c.reach_upto);
	c.parallel = xmalloc(((size_t)g->nblocks + 1) * sizeof *c.parallel);
	c.side = xcalloc((size_t)g->nblocks + 1, 1);
	r->loops = xcalloc((size_t)g->nloops + 1, sizeof *r->loops);
	IV conds = {0}, reads = {0};
	for (int32_t l = 0; l < g->nloops; l++) {
		DlLoop *L = &r->loops[r->nloops++];
		L->header_pc = g->blocks[g->loops[l].header].first;
		conds.n = 0;
		int32_t R = exits(&c, l, &conds);
		L->rpc = R < g->nblocks ? g->blocks[R].first : -1;
		L->nexit = conds.n;
		L->exit_conds = xmalloc(((size_t)conds.n + 1) * sizeof *L->exit_conds);
		if (conds.n > 0) /* a loop left only by jumps, or never, has none */
			memcpy(L->exit_conds, conds.v, (size_t)conds.n * sizeof *conds.v);
		bool may_split = branch_divergent == NULL;
		for (int32_t i = 0; i < L->nexit && !may_split; i++)
			may_split = branch_divergent[L->exit_conds[i]];
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
			r->nsuspected++;
		}
	}
	free(conds.v);
	free(reads.v);
	free(c.def_of);
	free(c.cd_start);
	free(c.cd);
	free(c.seen);
	free(c.bseen);
	free(c.reach_upto);
	free(c.parallel);
	free(c.side);
	free(c.work.v);
	return r;
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
