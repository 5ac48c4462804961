/*
** lower.c — μ-SIMD to SM code (lower.h). Registers: each variable gets
** one, numbered in the order of first definition in the program text
** (the note's "naive numbering"; a register allocator will take its
** place). Parameters and special variables are uniform registers the SM
** model never waits for (constant and special registers). Op classes as
** GPGPU-Sim's -ptx_opcode_latency_int: + - compares, bit operations, !,
** copies and control are ADD; min/max MAX; * MUL; / and % DIV, on the SFU.
*/
#include "lower.h"

#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "sm/sm.h"

const char *lower_unit_name(SmUnit u)
{
	static const char *const names[UNIT__COUNT] = {"INT", "SFU", "MEM"};
	return u < UNIT__COUNT ? names[u] : "?";
}

static void add_src(SmIns *s, const SmCode *c, const Opnd *o)
{
	if (o->kind != OPND_VAR)
		return;
	int32_t r = c->reg_of[o->var];
	if (r < 0)
		return; /* a parameter: uniform, never written */
	for (int32_t i = 0; i < s->nsrc; i++)
		if (s->src[i] == r)
			return; /* read once (GPGPU-Sim reads a duplicate source once) */
	if (s->nsrc < LOWER_MAX_SRC)
		s->src[s->nsrc++] = r;
}

static void classify(SmIns *s, const Ins *ins)
{
	s->unit = UNIT_INT;
	s->oclass = SM_ADD;
	switch ((Op)ins->op) {
	case OP_BINARY:
		if (ins->sub == BIN_MUL)
			s->oclass = SM_MUL;
		else if (ins->sub == BIN_MIN || ins->sub == BIN_MAX)
			s->oclass = SM_MAX;
		else if (ins->sub == BIN_DIV || ins->sub == BIN_MOD) {
			s->oclass = SM_DIV;
			s->unit = UNIT_SFU;
		}
		break;
	case OP_LOAD: case OP_STORE: case OP_LLOAD: case OP_LSTORE:
	case OP_ATOMINC: case OP_ATOMADD: case OP_ATOMCAS: case OP_ATOMEXCH:
		s->unit = UNIT_MEM;
		break;
	case OP_BZ: case OP_BNZ: case OP_JUMP: case OP_SYNC: case OP_STOP: case OP_EXIT: case OP_BARRIER:
		s->control = true;
		break;
	default:
		break;
	}
}

/* (variable, block) pairs grouped by their first member (a counting sort). */
typedef struct Pairs {
	int32_t *key, *val, n, cap;
} Pairs;

static void pair_add(Pairs *s, int32_t key, int32_t val)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->key = xrealloc(s->key, (size_t)s->cap * sizeof *s->key);
		s->val = xrealloc(s->val, (size_t)s->cap * sizeof *s->val);
	}
	s->key[s->n] = key;
	s->val[s->n++] = val;
}

/* start[k] .. start[k+1]: the vals of key k, in out. */
static void pair_group(const Pairs *s, int32_t nkeys, int32_t *start, int32_t *out)
{
	memset(start, 0, ((size_t)nkeys + 2) * sizeof *start);
	for (int32_t i = 0; i < s->n; i++)
		start[s->key[i] + 2]++;
	for (int32_t k = 0; k < nkeys; k++)
		start[k + 2] += start[k + 1];
	for (int32_t i = 0; i < s->n; i++)
		out[start[s->key[i] + 1]++] = s->val[i];
}

static int32_t reg_var(const SmCode *c, const Opnd *o)
{
	return o->kind == OPND_VAR && c->reg_of[o->var] >= 0 ? o->var : -1;
}

/* MaxLive: the most variables live at one point, the registers an
** allocator needs without spilling (occupancy counts these, not the naive
** numbering). Liveness by path exploration, variable by variable, from
** each upward-exposed use back to the definitions: linear in the program
** plus the live ranges, no iteration over all variables × all blocks. */
static void span(const SmCode *c, int32_t v, int32_t lo, int32_t hi)
{
	int32_t r = c->reg_of[v];
	if (lo < c->live_lo[r])
		c->live_lo[r] = lo;
	if (hi > c->live_hi[r])
		c->live_hi[r] = hi;
}

static int32_t max_live(const Program *p, const SmCode *c)
{
	const Cfg *g = p->cfg;
	int32_t nb = g->nblocks, nv = p->nvars, best = 0;
	Pairs uses = {0}, defs = {0}, out = {0};
	int32_t *stamp = xcalloc((size_t)nv + 1, sizeof *stamp);
	for (int32_t b = 0; b < nb; b++) { /* upward-exposed uses and definitions, per block */
		for (int32_t pc = g->blocks[b].first; pc <= g->blocks[b].last; pc++) {
			const Ins *ins = &p->ins[pc];
			const Opnd *o[3] = {&ins->a, &ins->b, &ins->c};
			for (int k = 0; k < 3; k++) {
				int32_t v = reg_var(c, o[k]);
				if (v >= 0)
					span(c, v, pc, pc);
				if (v >= 0 && stamp[v] != b + 1)
					pair_add(&uses, v, b);
			}
			if (ins->dst >= 0 && c->reg_of[ins->dst] >= 0)
				span(c, ins->dst, pc, pc);
			if (ins->dst >= 0 && c->reg_of[ins->dst] >= 0 && stamp[ins->dst] != b + 1) {
				stamp[ins->dst] = b + 1;
				pair_add(&defs, ins->dst, b);
			}
		}
	}
	int32_t *ustart = xmalloc(((size_t)nv + 2) * sizeof *ustart), *dstart = xmalloc(((size_t)nv + 2) * sizeof *dstart);
	int32_t *ub = xmalloc(((size_t)uses.n + 1) * sizeof *ub), *db = xmalloc(((size_t)defs.n + 1) * sizeof *db);
	pair_group(&uses, nv, ustart, ub);
	pair_group(&defs, nv, dstart, db);
	int32_t *def_mark = xcalloc((size_t)nb + 1, sizeof *def_mark), *in_mark = xcalloc((size_t)nb + 1, sizeof *in_mark);
	int32_t *out_mark = xcalloc((size_t)nb + 1, sizeof *out_mark), *work = xmalloc(((size_t)nb + 1) * sizeof *work);
	for (int32_t v = 0; v < nv; v++) {
		int32_t st = v + 1, nw = 0;
		for (int32_t i = dstart[v]; i < dstart[v + 1]; i++)
			def_mark[db[i]] = st;
		for (int32_t i = ustart[v]; i < ustart[v + 1]; i++)
			if (in_mark[ub[i]] != st) {
				in_mark[ub[i]] = st;
				work[nw++] = ub[i];
			}
		while (nw > 0) {
			const Block *B = &g->blocks[work[--nw]];
			span(c, v, B->first, B->last); /* live in: the whole block, conservatively */
			for (int32_t k = 0; k < B->npred; k++) {
				int32_t q = B->pred[k];
				if (out_mark[q] != st) {
					out_mark[q] = st;
					pair_add(&out, q, v);
					span(c, v, g->blocks[q].first, g->blocks[q].last);
				}
				if (def_mark[q] != st && in_mark[q] != st) {
					in_mark[q] = st;
					work[nw++] = q;
				}
			}
		}
	}
	int32_t *ostart = xmalloc(((size_t)nb + 2) * sizeof *ostart), *ov = xmalloc(((size_t)out.n + 1) * sizeof *ov);
	pair_group(&out, nb, ostart, ov);
	memset(stamp, 0, ((size_t)nv + 1) * sizeof *stamp);
	for (int32_t b = 0; b < nb; b++) { /* each block backward from its live-out set */
		int32_t st = b + 1, live = ostart[b + 1] - ostart[b];
		for (int32_t i = ostart[b]; i < ostart[b + 1]; i++)
			stamp[ov[i]] = st;
		if (live > best)
			best = live;
		for (int32_t pc = g->blocks[b].last; pc >= g->blocks[b].first; pc--) {
			const Ins *ins = &p->ins[pc];
			if (ins->dst >= 0 && c->reg_of[ins->dst] >= 0) {
				if (stamp[ins->dst] == st) {
					stamp[ins->dst] = 0;
					live--;
				} else if (live + 1 > best) {
					best = live + 1; /* a dead result still takes a register */
				}
			}
			const Opnd *o[3] = {&ins->a, &ins->b, &ins->c};
			for (int k = 0; k < 3; k++) {
				int32_t v = reg_var(c, o[k]);
				if (v >= 0 && stamp[v] != st) {
					stamp[v] = st;
					live++;
				}
			}
			if (live > best)
				best = live;
		}
	}
	free(uses.key), free(uses.val), free(defs.key), free(defs.val), free(out.key), free(out.val);
	free(stamp), free(ustart), free(dstart), free(ub), free(db), free(def_mark), free(in_mark), free(out_mark);
	free(work), free(ostart), free(ov);
	return best;
}

SmCode *lower(const Program *p, Diags *d)
{
	if (p->has_gsa) {
		diag_error(d, LOC_NONE, "the SM model runs programs in plain form, not in GSA form (%s)", p->path);
		return NULL;
	}
	SmCode *c = xcalloc(1, sizeof *c);
	c->prog = p;
	c->nins = p->nins;
	c->ins = xcalloc((size_t)p->nins + 1, sizeof *c->ins);
	c->reg_of = xmalloc(((size_t)p->nvars + 1) * sizeof *c->reg_of);
	for (int32_t v = 0; v < p->nvars; v++)
		c->reg_of[v] = -1;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		int32_t v = p->ins[pc].dst;
		if (v >= 0 && c->reg_of[v] < 0)
			c->reg_of[v] = c->nregs++;
	}
	c->live_lo = xmalloc(((size_t)c->nregs + 1) * sizeof *c->live_lo);
	c->live_hi = xmalloc(((size_t)c->nregs + 1) * sizeof *c->live_hi);
	for (int32_t r = 0; r < c->nregs; r++) {
		c->live_lo[r] = INT32_MAX;
		c->live_hi[r] = -1;
	}
	const Cfg *g = p->cfg;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		SmIns *s = &c->ins[pc];
		classify(s, ins);
		s->dst = ins->dst >= 0 ? c->reg_of[ins->dst] : -1;
		add_src(s, c, &ins->a);
		add_src(s, c, &ins->b);
		add_src(s, c, &ins->c);
		s->rpc = ir_is_branch((Op)ins->op) && g ? cfg_ipdom_pc(g, pc) : -1;
	}
	c->maxlive = g ? max_live(p, c) : c->nregs;
	return c;
}

void lower_free(SmCode *c)
{
	if (!c)
		return;
	free(c->ins);
	free(c->reg_of);
	free(c->live_lo);
	free(c->live_hi);
	free(c);
}
