/*
** promela.c — `musimd emit-promela` (promela.h; explore.md §5): the
** program under the mimd model as a Promela model for SPIN.
**
** The mapping, line by line of musimd-lang(7):
**
**   thread t             process thread(t), run by init (SPIN: at most 255 processes)
**   variable x           int v_x, local to the process
**   x unassigned (MV)    bit d_x, only for a variable that some read may find
**                        unassigned (no definition dominates the read) or that
**                        a GSA copy defines or copies
**   tid laneid warpid    the parameter tid, tid % WARPSIZE, tid / WARPSIZE
**   ntid nwarps warpsize the numbers; a parameter its value
**   Σ                    int sigma[N] over Σ[base..base+N-1], the cells an
**                        interval analysis of the addresses finds the program
**                        can touch; bit sigma_ok[N] under .memory strict when a
**                        read may find one of them uninitialised (rule MM)
**   local memory         int lmem[N] in each process; bit lmem_ok[N] under strict
**   an instruction       one step: atomic { premises; effect } (atomics too)
**   bz/bnz/jump          if/goto; sync: skip (a no-op step under mimd)
**   φ/μ                  int came_from: the block the thread came from
**   barrier              nbar (threads waiting) and bwait[t]: it completes when
**                        every live thread waits (semantics.md §6)
**   stop/exit            nfin++, which may complete the barrier for the others
**   a stuck step         require(c): stuck = !(c); assert(!stuck)
**   a value beyond int32 fits_int32(c): int32_overflow = !(c); assert(!int32_overflow)
**   termination          ltl terminates { <> (nfin == NT) }, checked with pan -a (-f)
**
** The two analyses here serve the model only: which variables need an
** assigned flag (a walk of the dominator tree), and the interval of every
** address (flow-sensitive, over the variables the addresses depend on;
** values clamped to int32, since the model stops any run that leaves it;
** the comparisons the branches test refine the intervals on their edges;
** widening at the targets of retreating edges, per variable after three
** changes, then three narrowing sweeps).
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "promela.h"
#include "model.h"

#define I32_MIN ((int64_t)INT32_MIN)
#define I32_MAX ((int64_t)INT32_MAX)

/* ---- intervals of int32 values ------------------------------------------------- */

/* [lo, hi]; lo > hi: no value (unassigned, or no run gets here). */
typedef struct Itv {
	int64_t lo, hi;
} Itv;

static const Itv ITV_NONE = {1, 0};
static const Itv ITV_ALL = {INT32_MIN, INT32_MAX};

static inline bool itv_empty(Itv a) { return a.lo > a.hi; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* [lo, hi] ∩ int32: a value outside int32 stops the model's run
** (fits_int32), so it never reaches a later instruction. */
static Itv itv(int64_t lo, int64_t hi)
{
	return (Itv){max64(lo, I32_MIN), min64(hi, I32_MAX)};
}

static Itv itv_hull(Itv a, Itv b)
{
	if (itv_empty(a))
		return b;
	if (itv_empty(b))
		return a;
	return (Itv){min64(a.lo, b.lo), max64(a.hi, b.hi)};
}

static Itv itv_meet(Itv a, Itv b)
{
	return (Itv){max64(a.lo, b.lo), min64(a.hi, b.hi)};
}

/* The hull of up to four candidate values (the extremes of a monotone
** operation lie at the corners). */
static Itv itv_of4(int64_t a, int64_t b, int64_t c, int64_t d)
{
	return itv(min64(min64(a, b), min64(c, d)), max64(max64(a, b), max64(c, d)));
}

/* 2^k - 1 for the smallest k with 2^k - 1 >= x (x >= 0). */
static int64_t mask_above(int64_t x)
{
	int64_t m = 0;
	while (m < x)
		m = 2 * m + 1;
	return m;
}

static Itv itv_div(Itv a, Itv b)
{
	Itv r = ITV_NONE;
	Itv parts[2] = {{b.lo, min64(b.hi, -1)}, {max64(b.lo, 1), b.hi}}; /* 0 is stuck (BP) */
	for (int k = 0; k < 2; k++) {
		Itv q = parts[k];
		if (!itv_empty(q))
			r = itv_hull(r, itv_of4(a.lo / q.lo, a.lo / q.hi, a.hi / q.lo, a.hi / q.hi));
	}
	return r;
}

static Itv itv_mod(Itv a, Itv b)
{
	if (b.lo == 0 && b.hi == 0)
		return ITV_NONE;
	int64_t m = max64(llabs(b.lo), llabs(b.hi)) - 1; /* |a % b| < |b| and has a's sign */
	return itv(a.lo >= 0 ? 0 : max64(a.lo, -m), a.hi <= 0 ? 0 : min64(a.hi, m));
}

static Itv itv_binop(BinOp op, Itv a, Itv b)
{
	if (itv_empty(a) || itv_empty(b))
		return ITV_NONE;
	switch (op) {
	case BIN_ADD: return itv(a.lo + b.lo, a.hi + b.hi);
	case BIN_SUB: return itv(a.lo - b.hi, a.hi - b.lo);
	case BIN_MUL: return itv_of4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi);
	case BIN_DIV: return itv_div(a, b);
	case BIN_MOD: return itv_mod(a, b);
	case BIN_AND:
		if (a.lo >= 0 || b.lo >= 0)
			return itv(0, a.lo >= 0 && b.lo >= 0 ? min64(a.hi, b.hi) : a.lo >= 0 ? a.hi : b.hi);
		return ITV_ALL;
	case BIN_OR:
	case BIN_XOR:
		return a.lo >= 0 && b.lo >= 0 ? itv(0, mask_above(max64(a.hi, b.hi))) : ITV_ALL;
	case BIN_SHL: {
		Itv s = itv(max64(b.lo, 0), b.hi); /* a negative count is stuck (BP) */
		if (itv_empty(s))
			return ITV_NONE;
		if (s.hi > 31)
			return a.lo == 0 && a.hi == 0 ? a : ITV_ALL;
		int64_t lo = (int64_t)1 << s.lo, hi = (int64_t)1 << s.hi;
		return itv_of4(a.lo * lo, a.lo * hi, a.hi * lo, a.hi * hi);
	}
	case BIN_SHR: {
		Itv s = itv(max64(b.lo, 0), min64(b.hi, 63));
		if (itv_empty(s))
			return ITV_NONE;
		return itv_of4(a.lo >> s.lo, a.lo >> s.hi, a.hi >> s.lo, a.hi >> s.hi);
	}
	case BIN_MIN: return itv(min64(a.lo, b.lo), min64(a.hi, b.hi));
	case BIN_MAX: return itv(max64(a.lo, b.lo), max64(a.hi, b.hi));
	default: return itv(0, 1); /* comparisons, && and || */
	}
}

static Itv itv_unop(UnOp op, Itv a)
{
	if (itv_empty(a))
		return ITV_NONE;
	switch (op) {
	case UN_NEG: return itv(-a.hi, -a.lo);
	case UN_BNOT: return itv(~a.hi, ~a.lo);
	default: return itv(0, 1);
	}
}

/* ---- the export's context -------------------------------------------------------- */

/* A memory as an array: cells base .. base+n-1. */
typedef struct Space {
	int64_t base, n;
	bool okbits; /* per-cell initialised flags (.memory strict) */
} Space;

enum { SHARED, LOCAL };

typedef struct Pml {
	const Program *p;
	const Cfg *g;
	Diags *d;
	int32_t nthreads, warpsize, nwarps;
	int64_t *pval;   /* per variable: a parameter's value ... */
	bool *pset;      /* ... when it has one */
	bool *pread;     /* per variable: some instruction reads it */
	char **name;     /* per variable: its Promela name (NULL for parameters) */
	bool *defbit;    /* per variable: carries an assigned flag */
	Itv *addr;       /* per pc: the interval of a memory instruction's address */
	Space space[2];  /* Σ and local memory */
	uint8_t *sh_init; /* per cell of Σ's array: initialised at the start */
	int64_t *sh_val;  /* ... with this value */
	int64_t *sh_sum;  /* prefix sums of sh_init (n + 1) */
	bool barrier;    /* the program has a barrier */
	bool edges;      /* φ or μ: the process remembers the block it came from */
	int32_t ntemps;  /* scratch values t_k a parallel copy or an atomic needs ... */
	int32_t ndtemps; /* ... and assigned flags td_k */
} Pml;

/* (key, value) pairs as lists per key (a variable and the pcs defining it,
** a block and its children): the values of key v are
** at[first[v] .. first[v + 1] - 1], in the order given. */
typedef struct Csr {
	int32_t *first, *at;
} Csr;

typedef struct Pair {
	int32_t key, val;
} Pair;

static void csr_build(Csr *c, int32_t nkeys, const Pair *pairs, int32_t n)
{
	c->first = xcalloc((size_t)nkeys + 2, sizeof *c->first);
	c->at = xmalloc(((size_t)n + 1) * sizeof *c->at);
	for (int32_t i = 0; i < n; i++)
		c->first[pairs[i].key + 1]++;
	for (int32_t v = 0; v < nkeys; v++)
		c->first[v + 1] += c->first[v];
	int32_t *fill = xmalloc(((size_t)nkeys + 1) * sizeof *fill);
	memcpy(fill, c->first, ((size_t)nkeys + 1) * sizeof *fill);
	for (int32_t i = 0; i < n; i++)
		c->at[fill[pairs[i].key]++] = pairs[i].val;
	free(fill);
}

static void csr_free(Csr *c)
{
	free(c->first);
	free(c->at);
}

static bool is_param(const Pml *P, const Opnd *o)
{
	return o->kind == OPND_VAR && P->p->vars[o->var].is_param;
}

/* The values a constant-like operand can take (literal, parameter, special
** variable), for checks that need no run time; false for a variable. */
static bool opnd_bounds(const Pml *P, const Opnd *o, Itv *out)
{
	switch (o->kind) {
	case OPND_LIT: *out = (Itv){ir_lit(P->p, o).i, ir_lit(P->p, o).i}; return true;
	case OPND_VAR:
		if (!P->p->vars[o->var].is_param || !P->pset[o->var])
			return false;
		*out = (Itv){P->pval[o->var], P->pval[o->var]};
		return true;
	case OPND_SPECIAL:
		switch ((Special)o->special) {
		case SPEC_TID: *out = (Itv){0, P->nthreads - 1}; return true;
		case SPEC_LANEID: *out = (Itv){0, min64(P->warpsize, P->nthreads) - 1}; return true;
		case SPEC_WARPID: *out = (Itv){0, P->nwarps - 1}; return true;
		case SPEC_NTID: *out = (Itv){P->nthreads, P->nthreads}; return true;
		case SPEC_NWARPS: *out = (Itv){P->nwarps, P->nwarps}; return true;
		case SPEC_WARPSIZE: *out = (Itv){P->warpsize, P->warpsize}; return true;
		default: return false;
		}
	default: return false;
	}
}

/* The memory an instruction touches, or -1. */
static int space_of(Op op)
{
	switch (op) {
	case OP_LOAD:
	case OP_STORE:
	case OP_ATOMINC:
	case OP_ATOMADD:
	case OP_ATOMCAS:
	case OP_ATOMEXCH: return SHARED;
	case OP_LLOAD:
	case OP_LSTORE: return LOCAL;
	default: return -1;
	}
}

/* The operands an ordinary instruction reads (premise MV), in the order
** the semantics checks them; GSA instructions read lazily (see below). */
static int32_t ins_reads(const Ins *ins, const Opnd *out[3])
{
	switch ((Op)ins->op) {
	case OP_COPY:
	case OP_UNARY:
	case OP_LOAD:
	case OP_LLOAD:
	case OP_ATOMINC:
	case OP_BZ:
	case OP_BNZ: out[0] = &ins->a; return 1;
	case OP_BINARY:
	case OP_STORE:
	case OP_LSTORE:
	case OP_ATOMADD:
	case OP_ATOMEXCH: out[0] = &ins->a, out[1] = &ins->b; return 2;
	case OP_ATOMCAS: out[0] = &ins->a, out[1] = &ins->b, out[2] = &ins->c; return 3;
	default: return 0;
	}
}

/* Visit the operands a GSA instruction may copy (not γ's predicates). */
typedef void (*OpndVisit)(void *ctx, const Opnd *o);
static void each_gsa_value(const Ins *ins, OpndVisit f, void *ctx)
{
	switch ((Op)ins->op) {
	case OP_PHI:
	case OP_MU:
		for (int32_t k = 0; k < ins->nargs; k++)
			f(ctx, &ins->args[k]);
		break;
	case OP_GAMMA:
		if (ins->b.kind != OPND_GATE)
			f(ctx, &ins->b);
		if (ins->c.kind != OPND_GATE)
			f(ctx, &ins->c);
		for (int32_t k = 0; k < ins->nargs; k++)
			if (ins->args[k].kind != OPND_GATE && !ir_gate_is_pred(ins, &ins->args[k]))
				f(ctx, &ins->args[k]);
		break;
	case OP_ETA: f(ctx, &ins->b); break;
	default: break;
	}
}

/* ---- values that must fit int32 ---------------------------------------------------- */

static bool fits32(Num v)
{
	return !v.z && v.i >= I32_MIN && v.i <= I32_MAX;
}

static void check_literal(Pml *P, const Ins *ins, const Opnd *o)
{
	if (o->kind != OPND_LIT || fits32(ir_lit(P->p, o)))
		return;
	Buf t = {0};
	num_buf(&t, ir_lit(P->p, o));
	diag_error(P->d, ir_opnd_loc(ins, o),
	           "the literal %.40s%s is outside int32: Promela's int cannot hold it "
	           "(emit-promela models every value as an int32)",
	           buf_str(&t), t.len > 40 ? "..." : "");
	buf_free(&t);
}

/* Every literal fits int32; the parameters the program reads have values
** that fit (m: the initial machine, whose σ holds them as `run` sets them). */
static void check_values(Pml *P, const Machine *m, const SemOptions *opt)
{
	const Program *p = P->p;
	bool *used = P->pread;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		const Opnd *abc[3] = {&ins->a, &ins->b, &ins->c};
		for (int k = 0; k < 3; k++) {
			check_literal(P, ins, abc[k]);
			if (abc[k]->kind == OPND_VAR)
				used[abc[k]->var] = true;
		}
		for (int32_t k = 0; k < ins->nargs; k++) {
			check_literal(P, ins, &ins->args[k]);
			if (ins->args[k].kind == OPND_VAR)
				used[ins->args[k].var] = true;
		}
	}
	for (int32_t v = 0; v < p->nvars; v++) {
		Num val;
		if (!p->vars[v].is_param || !(P->pset[v] = sem_get(m, v, 0, &val)))
			continue;
		if (fits32(val)) {
			P->pval[v] = val.i;
			continue;
		}
		if (!used[v])
			continue;
		const char *given = NULL;
		for (int32_t i = 0; i < opt->nparams; i++)
			if (!strcmp(opt->params[i].name, p->vars[v].name))
				given = "--param";
		diag_error(P->d, given ? LOC_NONE : p->vars[v].loc,
		           "the value of parameter '%s'%s is outside int32: Promela's int cannot hold it",
		           p->vars[v].name, given ? " (--param)" : "");
	}
}

/* ---- which variables need an assigned flag --------------------------------------- */

/* A read needs no flag when a definition dominates it: every path from the
** start assigns the variable first (a definition that is a GSA copy does
** not count: it may copy an unassigned value). Walk the dominator tree
** counting the definitions on the path from the entry. Variables that GSA
** instructions define or copy always carry the flag. */
static void mark_gsa_operand(void *ctx, const Opnd *o)
{
	Pml *P = ctx;
	if (o->kind == OPND_VAR && !P->p->vars[o->var].is_param)
		P->defbit[o->var] = true;
}

static void note_read(Pml *P, const int32_t *count, const Opnd *o)
{
	if (o->kind == OPND_VAR && !P->p->vars[o->var].is_param && count[o->var] == 0)
		P->defbit[o->var] = true;
}

/* Enter (step +1) or leave (-1) block b of the walk. */
static void walk_block(Pml *P, int32_t *count, int32_t b, int step)
{
	const Block *bb = &P->g->blocks[b];
	for (int32_t pc = bb->first; pc <= bb->last; pc++) {
		const Ins *ins = &P->p->ins[pc];
		if (step > 0) {
			const Opnd *r[3];
			int32_t n = ins_reads(ins, r);
			for (int32_t k = 0; k < n; k++)
				note_read(P, count, r[k]);
			if (ins->op == OP_GAMMA) { /* γ's predicates are read */
				note_read(P, count, &ins->a);
				for (int32_t k = 0; k < ins->nargs; k++)
					if (ir_gate_is_pred(ins, &ins->args[k]))
						note_read(P, count, &ins->args[k]);
			}
		}
		if (ins->dst >= 0 && !ir_is_gsa((Op)ins->op))
			count[ins->dst] += step;
	}
}

static void find_defbits(Pml *P)
{
	const Program *p = P->p;
	const Cfg *g = P->g;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (ir_is_gsa((Op)ins->op)) {
			P->defbit[ins->dst] = true;
			each_gsa_value(ins, mark_gsa_operand, P);
		}
	}
	/* the dominator tree's children */
	int32_t nb = g->nblocks;
	Pair *edges = xmalloc(((size_t)nb + 1) * sizeof *edges);
	int32_t ne = 0;
	for (int32_t b = 0; b < nb; b++)
		if (g->blocks[b].reachable && g->blocks[b].idom >= 0)
			edges[ne++] = (Pair){g->blocks[b].idom, b};
	Csr kids;
	csr_build(&kids, nb, edges, ne);
	free(edges);
	/* depth first, iteratively: ~b on the stack leaves block b */
	int32_t *count = xcalloc((size_t)p->nvars + 1, sizeof *count);
	int32_t *stack = xmalloc(2 * ((size_t)nb + 1) * sizeof *stack);
	int32_t top = 0;
	if (nb > 0 && g->blocks[0].reachable)
		stack[top++] = 0;
	while (top > 0) {
		int32_t b = stack[--top];
		if (b < 0) {
			walk_block(P, count, ~b, -1);
			continue;
		}
		walk_block(P, count, b, +1);
		stack[top++] = ~b;
		for (int32_t k = kids.first[b]; k < kids.first[b + 1]; k++)
			stack[top++] = kids.at[k];
	}
	free(stack);
	free(count);
	csr_free(&kids);
}

/* ---- bounding the addresses: an interval analysis --------------------------------- */

static bool is_comparison(BinOp op)
{
	return op >= BIN_LT && op <= BIN_NE;
}

/* The analysis tracks the variables addresses depend on (the slice): the
** address operands, what their definitions read, the values stored in a
** memory some tracked variable loads from, and what tracked variables are
** compared with (for the branch refinement). State: an interval per slice
** variable at the start of each block; Σ and local memory each one
** interval for all cells (what they can hold). */
typedef struct Range {
	Pml *P;
	int32_t *slot;       /* variable → slice index, -1 */
	int32_t nslot;
	int32_t *work;       /* slice worklist (variables) */
	int32_t nwork;
	bool need_mem[2];    /* a tracked variable loads from Σ / local memory */
	Csr defs;            /* the pcs defining each variable */
	Csr cmps;            /* the comparisons reading each variable */
	Itv *in;             /* nblocks × nslot */
	bool *reached, *dirty;
	bool *widen_at;      /* a target of a retreating edge: every cycle has one */
	Itv *next;           /* narrowing: the block starts being recomputed, else NULL */
	bool *next_reached;
	uint8_t *grown;      /* per block and variable: how often its interval grew */
	Itv mem[2];          /* what the memories can hold */
	Itv wrote[2];        /* what the instructions store, this round */
} Range;

/* The definitions of every variable, and the comparisons reading it. */
static void build_lists(Range *R)
{
	const Program *p = R->P->p;
	Pair *defs = xmalloc(((size_t)p->nins + 1) * sizeof *defs);
	Pair *cmps = xmalloc((2 * (size_t)p->nins + 1) * sizeof *cmps);
	int32_t nd = 0, nc = 0;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (ins->dst >= 0)
			defs[nd++] = (Pair){ins->dst, pc};
		if (ins->op != OP_BINARY || !is_comparison((BinOp)ins->sub))
			continue;
		if (ins->a.kind == OPND_VAR)
			cmps[nc++] = (Pair){ins->a.var, pc};
		if (ins->b.kind == OPND_VAR && !(ins->a.kind == OPND_VAR && ins->a.var == ins->b.var))
			cmps[nc++] = (Pair){ins->b.var, pc};
	}
	csr_build(&R->defs, p->nvars, defs, nd);
	csr_build(&R->cmps, p->nvars, cmps, nc);
	free(defs);
	free(cmps);
}

static void slice_add(Range *R, const Opnd *o)
{
	if (o->kind != OPND_VAR || R->P->p->vars[o->var].is_param || R->slot[o->var] >= 0)
		return;
	R->slot[o->var] = R->nslot++;
	R->work[R->nwork++] = o->var;
}

static void slice_add_visit(void *ctx, const Opnd *o)
{
	slice_add(ctx, o);
}

/* A tracked variable loads from memory s: what any instruction stores
** there matters. */
static void slice_need_mem(Range *R, int s)
{
	if (R->need_mem[s])
		return;
	R->need_mem[s] = true;
	const Program *p = R->P->p;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (space_of((Op)ins->op) != s)
			continue;
		switch ((Op)ins->op) {
		case OP_STORE:
		case OP_LSTORE:
		case OP_ATOMADD:
		case OP_ATOMEXCH: slice_add(R, &ins->b); break;
		case OP_ATOMCAS: slice_add(R, &ins->c); break;
		default: break;
		}
	}
}

static void build_slice(Range *R)
{
	const Program *p = R->P->p;
	for (int32_t pc = 0; pc < p->nins; pc++)
		if (space_of((Op)p->ins[pc].op) >= 0)
			slice_add(R, &p->ins[pc].a);
	while (R->nwork > 0) {
		int32_t v = R->work[--R->nwork];
		for (int32_t k = R->defs.first[v]; k < R->defs.first[v + 1]; k++) {
			const Ins *ins = &p->ins[R->defs.at[k]];
			int s = space_of((Op)ins->op);
			if (s >= 0) {
				slice_need_mem(R, s);
			} else if (ir_is_gsa((Op)ins->op)) {
				each_gsa_value(ins, slice_add_visit, R);
			} else {
				const Opnd *r[3];
				int32_t n = ins_reads(ins, r);
				for (int32_t j = 0; j < n; j++)
					slice_add(R, r[j]);
			}
		}
		for (int32_t k = R->cmps.first[v]; k < R->cmps.first[v + 1]; k++) {
			const Ins *ins = &p->ins[R->cmps.at[k]];
			slice_add(R, &ins->a);
			slice_add(R, &ins->b);
		}
	}
}

static Itv opnd_itv(const Range *R, const Itv *s, const Opnd *o)
{
	Itv k;
	if (opnd_bounds(R->P, o, &k))
		return k;
	if (o->kind != OPND_VAR)
		return ITV_ALL;
	if (R->P->p->vars[o->var].is_param)
		return ITV_NONE; /* no value: reading it is stuck */
	return R->slot[o->var] >= 0 ? s[R->slot[o->var]] : ITV_ALL;
}

/* What a load from memory sp reads: what it holds, and 0 from a cell never
** written under .memory zero. */
static Itv mem_read(const Range *R, int sp)
{
	Itv m = R->mem[sp];
	return R->P->p->memory_zero ? itv_hull(m, (Itv){0, 0}) : m;
}

typedef struct GammaHull {
	const Range *R;
	const Itv *s;
	Itv acc;
} GammaHull;

static void gsa_hull_visit(void *ctx, const Opnd *o)
{
	GammaHull *h = ctx;
	h->acc = itv_hull(h->acc, opnd_itv(h->R, h->s, o));
}

/* The value instruction ins gives its destination, and what it stores. */
static Itv transfer_value(Range *R, const Itv *s, const Ins *ins, int32_t pc)
{
	int sp = space_of((Op)ins->op);
	Itv a = opnd_itv(R, s, &ins->a);
	if (sp >= 0)
		R->P->addr[pc] = itv_hull(R->P->addr[pc], a);
	switch ((Op)ins->op) {
	case OP_COPY: return a;
	case OP_UNARY: return itv_unop((UnOp)ins->sub, a);
	case OP_BINARY: return itv_binop((BinOp)ins->sub, a, opnd_itv(R, s, &ins->b));
	case OP_LOAD:
	case OP_LLOAD: return itv_empty(a) ? ITV_NONE : mem_read(R, sp);
	case OP_STORE:
	case OP_LSTORE:
		if (!itv_empty(a))
			R->wrote[sp] = itv_hull(R->wrote[sp], opnd_itv(R, s, &ins->b));
		return ITV_NONE;
	case OP_ATOMINC:
	case OP_ATOMADD:
	case OP_ATOMCAS:
	case OP_ATOMEXCH: {
		Itv old = itv_empty(a) ? ITV_NONE : mem_read(R, SHARED), nw;
		if (ins->op == OP_ATOMINC)
			nw = itv_binop(BIN_ADD, old, (Itv){1, 1});
		else if (ins->op == OP_ATOMADD)
			nw = itv_binop(BIN_ADD, old, opnd_itv(R, s, &ins->b));
		else
			nw = itv_empty(old) ? ITV_NONE : opnd_itv(R, s, ins->op == OP_ATOMCAS ? &ins->c : &ins->b);
		R->wrote[SHARED] = itv_hull(R->wrote[SHARED], nw);
		return ins->op == OP_ATOMINC ? nw : old;
	}
	case OP_PHI:
	case OP_MU:
	case OP_GAMMA:
	case OP_ETA: {
		GammaHull h = {R, s, ITV_NONE};
		each_gsa_value(ins, gsa_hull_visit, &h);
		return h.acc;
	}
	default: return ITV_NONE;
	}
}

/* Run block b on state s (nslot intervals). The GSA group at its start is
** one parallel copy: every result is computed before any is written. */
static void transfer_block(Range *R, int32_t b, Itv *s, Itv *tmp)
{
	const Block *bb = &R->P->g->blocks[b];
	const Program *p = R->P->p;
	int32_t ngsa = bb->ngsa;
	for (int32_t k = 0; k < ngsa; k++)
		tmp[k] = transfer_value(R, s, &p->ins[bb->first + k], bb->first + k);
	for (int32_t k = 0; k < ngsa; k++) {
		int32_t dst = p->ins[bb->first + k].dst;
		if (R->slot[dst] >= 0)
			s[R->slot[dst]] = tmp[k];
	}
	for (int32_t pc = bb->first + ngsa; pc <= bb->last; pc++) {
		const Ins *ins = &p->ins[pc];
		Itv r = transfer_value(R, s, ins, pc);
		if (ins->dst >= 0 && R->slot[ins->dst] >= 0)
			s[R->slot[ins->dst]] = r;
	}
}

/* Narrow the tracked operand o of comparison cmp: o REL other holds (for
** the value o had then: not when the comparison overwrote it). */
static void refine_rel(const Range *R, Itv *s, const Ins *cmp, const Opnd *o, BinOp rel, Itv other)
{
	if (o->kind != OPND_VAR || o->var == cmp->dst || R->slot[o->var] < 0 || itv_empty(other))
		return;
	Itv *x = &s[R->slot[o->var]];
	switch (rel) {
	case BIN_LT: x->hi = min64(x->hi, other.hi - 1); break;
	case BIN_LE: x->hi = min64(x->hi, other.hi); break;
	case BIN_GT: x->lo = max64(x->lo, other.lo + 1); break;
	case BIN_GE: x->lo = max64(x->lo, other.lo); break;
	case BIN_EQ: *x = itv_meet(*x, other); break;
	case BIN_NE:
		if (other.lo == other.hi && x->lo == other.lo)
			x->lo++;
		else if (other.lo == other.hi && x->hi == other.lo)
			x->hi--;
		break;
	default: break;
	}
}

/* s, the state at the end of block b, on the edge where its branch jumps
** (jump) or falls through. False when no run takes that edge. */
static bool refine_edge(const Range *R, int32_t b, Itv *s, bool jump)
{
	const Program *p = R->P->p;
	const Block *bb = &R->P->g->blocks[b];
	const Ins *br = &p->ins[bb->last];
	if (!ir_is_branch((Op)br->op) || br->a.kind != OPND_VAR || is_param(R->P, &br->a))
		return true;
	bool nonzero = (br->op == OP_BNZ) == jump; /* mimd reads bz as the mnemonic says */
	int32_t c = br->a.var;
	if (R->slot[c] >= 0) {
		Itv *x = &s[R->slot[c]];
		Itv before = *x;
		if (!nonzero)
			*x = itv_meet(*x, (Itv){0, 0});
		else if (x->lo == 0)
			x->lo = 1;
		else if (x->hi == 0)
			x->hi = -1;
		if (itv_empty(*x) && !itv_empty(before))
			return false;
	}
	/* c = x REL y in this block, with x and y unchanged up to the branch */
	int32_t at = -1;
	for (int32_t pc = bb->last - 1; pc >= bb->first && at < 0; pc--)
		if (p->ins[pc].dst == c)
			at = pc;
	if (at < 0)
		return true;
	const Ins *cmp = &p->ins[at];
	if (cmp->op != OP_BINARY || !is_comparison((BinOp)cmp->sub))
		return true;
	for (int32_t pc = at + 1; pc < bb->last; pc++) {
		int32_t dv = p->ins[pc].dst;
		if (dv >= 0 && ((cmp->a.kind == OPND_VAR && cmp->a.var == dv) ||
		                (cmp->b.kind == OPND_VAR && cmp->b.var == dv)))
			return true;
	}
	static const BinOp negate[] = {[BIN_LT] = BIN_GE, [BIN_LE] = BIN_GT, [BIN_GT] = BIN_LE,
	                               [BIN_GE] = BIN_LT, [BIN_EQ] = BIN_NE, [BIN_NE] = BIN_EQ};
	static const BinOp mirror[] = {[BIN_LT] = BIN_GT, [BIN_LE] = BIN_GE, [BIN_GT] = BIN_LT,
	                               [BIN_GE] = BIN_LE, [BIN_EQ] = BIN_EQ, [BIN_NE] = BIN_NE};
	BinOp rel = nonzero ? (BinOp)cmp->sub : negate[cmp->sub];
	Itv xa = opnd_itv(R, s, &cmp->a), xb = opnd_itv(R, s, &cmp->b);
	refine_rel(R, s, cmp, &cmp->a, rel, xb);
	refine_rel(R, s, cmp, &cmp->b, mirror[rel], xa);
	for (int k = 0; k < 2; k++) {
		const Opnd *o = k == 0 ? &cmp->a : &cmp->b;
		Itv was = k == 0 ? xa : xb;
		if (o->kind == OPND_VAR && R->slot[o->var] >= 0 && itv_empty(s[R->slot[o->var]]) &&
		    !itv_empty(was))
			return false;
	}
	return true;
}

/* Join the edge state e into the start of block t. At a widening point,
** a variable whose interval has grown three times there goes, on the side
** that still moves, to the end of int32 (delayed per variable, so that a
** value an outer loop changes a few times keeps its bounds inside). */
static void join_into(Range *R, int32_t t, const Itv *e)
{
	size_t at = (size_t)t * (size_t)R->nslot;
	Itv *in = R->in + at;
	uint8_t *grown = R->grown + at;
	bool changed = !R->reached[t];
	for (int32_t k = 0; k < R->nslot; k++) {
		Itv old = in[k], nw = R->reached[t] ? itv_hull(old, e[k]) : e[k];
		if (nw.lo == old.lo && nw.hi == old.hi)
			continue;
		if (R->widen_at[t] && grown[k] >= 3 && !itv_empty(old)) {
			if (nw.lo < old.lo)
				nw.lo = I32_MIN;
			if (nw.hi > old.hi)
				nw.hi = I32_MAX;
		}
		in[k] = nw;
		grown[k] += grown[k] < 255;
		changed = true;
	}
	R->reached[t] = true;
	if (changed)
		R->dirty[t] = true;
}

/* The edge state e into block t while narrowing: joined into next. */
static void narrow_into(Range *R, int32_t t, const Itv *e)
{
	Itv *nx = R->next + (size_t)t * (size_t)R->nslot;
	for (int32_t k = 0; k < R->nslot; k++)
		nx[k] = R->next_reached[t] ? itv_hull(nx[k], e[k]) : e[k];
	R->next_reached[t] = true;
}

/* Run block b from its start state and pass the state of each outgoing
** edge on. s, e: nslot intervals; tmp: the largest GSA group. */
static void propagate(Range *R, int32_t b, Itv *s, Itv *e, Itv *tmp)
{
	const Cfg *g = R->P->g;
	size_t ns = (size_t)R->nslot;
	memcpy(s, R->in + (size_t)b * ns, ns * sizeof *s);
	transfer_block(R, b, s, tmp);
	const Block *bb = &g->blocks[b];
	for (int32_t k = 0; k < bb->nsucc; k++) {
		if (bb->succ[k] >= g->nblocks)
			continue;
		memcpy(e, s, ns * sizeof *e);
		if (!refine_edge(R, b, e, bb->nsucc == 2 && k == 1))
			continue;
		if (R->next)
			narrow_into(R, bb->succ[k], e);
		else
			join_into(R, bb->succ[k], e);
	}
}

/* One fixpoint over the blocks, in reverse post-order sweeps (with
** widening); then, with next set, descending sweeps that recompute every
** block's start from its predecessors (narrowing: what widening gave away
** that the branches' refinements bound again). */
static void range_sweeps(Range *R, int narrowing)
{
	const Cfg *g = R->P->g;
	size_t ns = (size_t)R->nslot, nb = (size_t)g->nblocks;
	Itv *s = xmalloc((ns + 1) * sizeof *s), *e = xmalloc((ns + 1) * sizeof *e);
	int32_t maxgsa = 1;
	for (int32_t b = 0; b < g->nblocks; b++)
		maxgsa = g->blocks[b].ngsa > maxgsa ? g->blocks[b].ngsa : maxgsa;
	Itv *tmp = xmalloc((size_t)maxgsa * sizeof *tmp);
	for (bool any = true; any;) {
		any = false;
		for (int32_t i = 0; i < g->nrpo; i++) {
			int32_t b = g->rpo[i];
			if (R->dirty[b]) {
				R->dirty[b] = false;
				any = true;
				propagate(R, b, s, e, tmp);
			}
		}
	}
	for (int k = 0; k < narrowing; k++) {
		R->next = xmalloc((nb * ns + 1) * sizeof *R->next);
		R->next_reached = xcalloc(nb + 1, sizeof *R->next_reached);
		for (size_t i = 0; i < nb * ns; i++)
			R->next[i] = ITV_NONE;
		if (nb > 0 && R->reached[0])
			R->next_reached[0] = true; /* the start: nothing assigned yet (ITV_NONE) */
		if (k == narrowing - 1)
			for (int32_t pc = 0; pc < R->P->p->nins; pc++)
				R->P->addr[pc] = ITV_NONE; /* the last sweep gives the addresses */
		for (int32_t i = 0; i < g->nrpo; i++)
			if (R->reached[g->rpo[i]])
				propagate(R, g->rpo[i], s, e, tmp);
		free(R->in);
		free(R->reached);
		R->in = R->next;
		R->reached = R->next_reached;
		R->next = NULL;
		R->next_reached = NULL;
	}
	free(tmp);
	free(e);
	free(s);
}

/* The initial contents of Σ: hull of the .data and --data values (clamped
** to int32: a value beyond it in a cell the model holds is an error). */
static Itv initial_shared(const Program *p, const SemOptions *opt)
{
	Itv r = ITV_NONE;
	for (int k = 0; k < 2; k++) {
		const MemInit *v = k == 0 ? p->data : opt->data;
		int32_t n = k == 0 ? p->ndata : opt->ndata;
		for (int32_t i = 0; i < n; i++) {
			Num x = v[i].value;
			int64_t y = x.z ? (mpz_sgn(x.z) < 0 ? I32_MIN : I32_MAX) : max64(I32_MIN, min64(x.i, I32_MAX));
			if (v[i].count > 0)
				r = itv_hull(r, (Itv){y, y});
		}
	}
	return r;
}

/* Too many blocks × tracked variables for the analysis' tables. */
#define PML_MAX_RANGE_CELLS ((size_t)1 << 22)

/* Fill P->addr: the interval of every memory instruction's address. False
** (with an error) when the program is too large for the analysis. */
static bool bound_addresses(Pml *P, const SemOptions *opt)
{
	const Program *p = P->p;
	const Cfg *g = P->g;
	Range R = {.P = P};
	R.slot = xmalloc(((size_t)p->nvars + 1) * sizeof *R.slot);
	for (int32_t v = 0; v < p->nvars; v++)
		R.slot[v] = -1;
	R.work = xmalloc(((size_t)p->nvars + 1) * sizeof *R.work);
	build_lists(&R);
	build_slice(&R);
	bool ok = true;
	size_t ns = (size_t)R.nslot, nb = (size_t)g->nblocks;
	for (int32_t pc = 0; pc < p->nins; pc++)
		P->addr[pc] = ITV_NONE;
	if (ns > 0 && nb > PML_MAX_RANGE_CELLS / ns) {
		diag_error(P->d, LOC_NONE,
		           "too large to bound its addresses: %zu blocks × %zu variables the addresses depend "
		           "on (emit-promela's interval analysis handles at most %zu)",
		           nb, ns, PML_MAX_RANGE_CELLS);
		ok = false;
		goto done;
	}
	R.in = xmalloc((nb * ns + 1) * sizeof *R.in);
	for (size_t i = 0; i < nb * ns; i++)
		R.in[i] = ITV_NONE;
	R.reached = xcalloc(nb + 1, sizeof *R.reached);
	R.dirty = xcalloc(nb + 1, sizeof *R.dirty);
	R.grown = xcalloc(nb * ns + 1, 1);
	R.widen_at = xcalloc(nb + 1, sizeof *R.widen_at);
	int32_t *order = xmalloc((nb + 1) * sizeof *order);
	for (int32_t i = 0; i < g->nrpo; i++)
		order[g->rpo[i]] = i;
	for (int32_t i = 0; i < g->nrpo; i++) {
		const Block *bb = &g->blocks[g->rpo[i]];
		for (int32_t k = 0; k < bb->nsucc; k++)
			if (bb->succ[k] < g->nblocks && order[bb->succ[k]] <= i)
				R.widen_at[bb->succ[k]] = true;
	}
	free(order);
	R.mem[SHARED] = itv_hull(initial_shared(p, opt), ITV_NONE);
	R.mem[LOCAL] = ITV_NONE;
	if (nb > 0 && g->blocks[0].reachable) {
		R.reached[0] = R.dirty[0] = true;
	}
	/* rounds: a fixpoint over the blocks with the memories fixed, until
	** what the stores write is in what the memories hold (widened after
	** two rounds) */
	for (int round = 0;; round++) {
		for (int32_t pc = 0; pc < p->nins; pc++)
			P->addr[pc] = ITV_NONE;
		R.wrote[SHARED] = R.wrote[LOCAL] = ITV_NONE;
		range_sweeps(&R, 0);
		bool grew = false;
		for (int sp = 0; sp < 2; sp++) {
			Itv old = R.mem[sp], nw = itv_hull(old, R.wrote[sp]);
			if (nw.lo == old.lo && nw.hi == old.hi)
				continue;
			if (round >= 2 && !itv_empty(old))
				nw = (Itv){nw.lo < old.lo ? I32_MIN : old.lo, nw.hi > old.hi ? I32_MAX : old.hi};
			R.mem[sp] = nw;
			grew = true;
		}
		if (!grew)
			break;
		for (size_t b = 0; b < nb; b++)
			R.dirty[b] = R.reached[b];
	}
	range_sweeps(&R, 3);
done:
	free(R.in);
	free(R.reached);
	free(R.dirty);
	free(R.grown);
	free(R.widen_at);
	csr_free(&R.defs);
	csr_free(&R.cmps);
	free(R.work);
	free(R.slot);
	return ok;
}

/* ---- the memories as arrays ---------------------------------------------------------- */

/* The cells of memory sp an access at pc can touch: its address interval
** without the negative addresses (those are stuck). */
static Itv cells_of(const Pml *P, int32_t pc)
{
	return itv(max64(P->addr[pc].lo, 0), P->addr[pc].hi);
}

/* Each memory's array: the hull of the cells its accesses can touch; at
** most PML_MAX_CELLS cells in all (Σ, and local memory once per thread). */
static bool size_spaces(Pml *P)
{
	const Program *p = P->p;
	Itv hull[2] = {ITV_NONE, ITV_NONE};
	int32_t widest[2] = {-1, -1}; /* the access with the most cells */
	for (int32_t pc = 0; pc < p->nins; pc++) {
		int sp = space_of((Op)p->ins[pc].op);
		Itv a = sp < 0 ? ITV_NONE : cells_of(P, pc);
		if (itv_empty(a))
			continue;
		hull[sp] = itv_hull(hull[sp], a);
		Itv w = widest[sp] < 0 ? ITV_NONE : cells_of(P, widest[sp]);
		if (widest[sp] < 0 || a.hi - a.lo > w.hi - w.lo)
			widest[sp] = pc;
	}
	for (int sp = 0; sp < 2; sp++) {
		P->space[sp].base = itv_empty(hull[sp]) ? 0 : hull[sp].lo;
		P->space[sp].n = itv_empty(hull[sp]) ? 0 : hull[sp].hi - hull[sp].lo + 1;
	}
	int64_t shared = P->space[SHARED].n, local = P->space[LOCAL].n * P->nthreads;
	if (shared + local <= PML_MAX_CELLS)
		return true;
	int sp = shared >= local ? SHARED : LOCAL;
	const Ins *ins = &p->ins[widest[sp]];
	Itv a = cells_of(P, widest[sp]);
	diag_error(P->d, ir_opnd_loc(ins, &ins->a),
	           "cannot bound the %s addresses of this access: they may range from %lld to %lld, "
	           "more than the %d cells the model holds (emit-promela models %s as an array "
	           "of the cells the program can touch)",
	           sp == SHARED ? "shared" : "local", (long long)a.lo, (long long)a.hi, PML_MAX_CELLS,
	           sp == SHARED ? "Σ" : "each thread's local memory");
	diag_note(P->d, ir_opnd_loc(ins, &ins->a),
	          "the bounds come from literals, tid, laneid, parameters, masks (x & 31), "
	          "remainders and the comparisons the branches on the way test; a loop counter "
	          "used as an address is bounded by the comparison of its loop's branch");
	return false;
}

/* Where the initial value of shared cell a comes from, for a diagnostic. */
static Loc data_loc(const Program *p, const SemOptions *opt, int64_t a, bool *option)
{
	for (int32_t i = opt->ndata - 1; i >= 0; i--)
		if (a >= opt->data[i].addr && a - opt->data[i].addr < opt->data[i].count) {
			*option = true;
			return LOC_NONE;
		}
	*option = false;
	for (int32_t i = p->ndata - 1; i >= 0; i--)
		if (a >= p->data[i].addr && a - p->data[i].addr < p->data[i].count)
			return p->data[i].loc;
	return LOC_NONE;
}

/* Are all of Σ's cells an access at pc can touch initialised from the start? */
static bool known_initialised(const Pml *P, int32_t pc)
{
	const Space *s = &P->space[SHARED];
	Itv a = P->addr[pc];
	if (itv_empty(a))
		return true;
	int64_t lo = max64(a.lo, s->base) - s->base, hi = a.hi - s->base;
	return P->sh_sum[hi + 1] - P->sh_sum[lo] == hi - lo + 1;
}

/* The initial contents of Σ's array, from the machine `run` starts with. */
static bool shared_cells(Pml *P, const Machine *m, const SemOptions *opt)
{
	Space *s = &P->space[SHARED];
	size_t n = (size_t)s->n;
	P->sh_init = xcalloc(n + 1, 1);
	P->sh_val = xcalloc(n + 1, sizeof *P->sh_val);
	P->sh_sum = xcalloc(n + 2, sizeof *P->sh_sum);
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		Num v;
		int64_t a = s->base + (int64_t)i;
		P->sh_init[i] = mem_get(&m->shared, a, &v);
		if (P->sh_init[i] && !fits32(v) && ok) {
			bool option;
			Loc loc = data_loc(P->p, opt, a, &option);
			diag_error(P->d, loc, "the initial value of shared cell %lld%s is outside int32: "
			           "Promela's int cannot hold it", (long long)a, option ? " (--data)" : "");
			ok = false;
		}
		P->sh_val[i] = P->sh_init[i] && fits32(v) ? v.i : 0;
		P->sh_sum[i + 1] = P->sh_sum[i] + P->sh_init[i];
	}
	/* initialised flags (.memory strict) only where a read may find a cell
	** never written: local memory starts empty */
	for (int32_t pc = 0; pc < P->p->nins && !P->p->memory_zero; pc++) {
		Op op = (Op)P->p->ins[pc].op;
		if (op == OP_LLOAD)
			P->space[LOCAL].okbits = true;
		else if ((op == OP_LOAD || ir_is_atomic(op)) && !known_initialised(P, pc))
			s->okbits = true;
	}
	return ok;
}

/* ---- printing Promela ---------------------------------------------------------------- */


typedef struct NameKey {
	const char *name;
	int32_t var;
} NameKey;

static int namekey_cmp(const void *x, const void *y)
{
	const NameKey *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->var > b->var) - (a->var < b->var);
}

/* v_NAME, with '.' as '_' and '\'' as "_q"; two variables whose names map
** to the same text both become v<index>_NAME (no v_ name has a digit
** after the v). */
static void make_names(Pml *P)
{
	const Program *p = P->p;
	NameKey *keys = xmalloc(((size_t)p->nvars + 1) * sizeof *keys);
	int32_t n = 0;
	for (int32_t v = 0; v < p->nvars; v++) {
		if (p->vars[v].is_param)
			continue;
		Buf b = {0};
		buf_puts(&b, "v_");
		for (const char *c = p->vars[v].name; *c; c++) {
			if (*c == '.')
				buf_putc(&b, '_');
			else if (*c == '\'')
				buf_puts(&b, "_q");
			else
				buf_putc(&b, *c);
		}
		P->name[v] = buf_steal(&b);
		keys[n++] = (NameKey){P->name[v], v};
	}
	qsort(keys, (size_t)n, sizeof *keys, namekey_cmp);
	for (int32_t i = 0; i < n;) {
		int32_t j = i + 1;
		while (j < n && !strcmp(keys[j].name, keys[i].name))
			j++;
		for (int32_t k = i; j - i > 1 && k < j; k++) {
			int32_t v = keys[k].var;
			Buf b = {0};
			buf_printf(&b, "v%d%s", (int)v, P->name[v] + 1);
			free(P->name[v]);
			P->name[v] = buf_steal(&b);
		}
		i = j;
	}
	free(keys);
}

static void put_num(Buf *b, int64_t v)
{
	if (v == I32_MIN)
		buf_puts(b, "INT32_MIN");
	else if (v < 0)
		buf_printf(b, "(%lld)", (long long)v);
	else
		buf_put_i64(b, v);
}

/* An operand as a Promela expression. */
static void put_opnd(const Pml *P, Buf *b, const Opnd *o)
{
	switch (o->kind) {
	case OPND_LIT: put_num(b, ir_lit(P->p, o).i); return;
	case OPND_VAR:
		if (P->p->vars[o->var].is_param)
			put_num(b, P->pset[o->var] ? P->pval[o->var] : 0);
		else
			buf_puts(b, P->name[o->var]);
		return;
	case OPND_SPECIAL: break;
	default: buf_puts(b, "0"); return;
	}
	bool one_warp = P->warpsize >= P->nthreads;
	switch ((Special)o->special) {
	case SPEC_TID: buf_puts(b, "tid"); break;
	case SPEC_LANEID:
		if (one_warp)
			buf_puts(b, "tid");
		else
			buf_printf(b, "(tid %% %d)", (int)P->warpsize);
		break;
	case SPEC_WARPID:
		if (one_warp)
			buf_puts(b, "0");
		else
			buf_printf(b, "(tid / %d)", (int)P->warpsize);
		break;
	case SPEC_NTID: buf_puts(b, "NT"); break;
	case SPEC_NWARPS: buf_put_i64(b, P->nwarps); break;
	case SPEC_WARPSIZE: buf_put_i64(b, P->warpsize); break;
	default: buf_puts(b, "0"); break;
	}
}

/* Whether operand o holds a value, as a Promela expression. */
static void put_assigned(const Pml *P, Buf *b, const Opnd *o)
{
	if (o->kind != OPND_VAR)
		buf_puts(b, "1");
	else if (P->p->vars[o->var].is_param)
		buf_puts(b, P->pset[o->var] ? "1" : "0");
	else if (P->defbit[o->var])
		buf_printf(b, "d%s", P->name[o->var] + 1);
	else
		buf_puts(b, "1");
}

/* An expression over an instruction's operands: %a, %b, %c stand for them. */
static void put_expr(const Pml *P, Buf *out, const char *fmt, const Ins *ins)
{
	for (const char *f = fmt; *f; f++) {
		if (*f == '%' && (f[1] == 'a' || f[1] == 'b' || f[1] == 'c')) {
			put_opnd(P, out, f[1] == 'a' ? &ins->a : f[1] == 'b' ? &ins->b : &ins->c);
			f++;
		} else {
			buf_putc(out, *f);
		}
	}
}

/* The statements of one instruction, "; " between them. */
typedef struct Stmts {
	Buf s;
	int32_t n;
} Stmts;

static Buf *st_next(Stmts *st)
{
	if (st->n++)
		buf_puts(&st->s, "; ");
	return &st->s;
}

static void st_expr(const Pml *P, Stmts *st, const char *fmt, const Ins *ins)
{
	put_expr(P, st_next(st), fmt, ins);
}

/* Premise MV: operand o holds a value. */
static void st_read(const Pml *P, Stmts *st, const Opnd *o)
{
	if (o->kind != OPND_VAR)
		return;
	const Var *v = &P->p->vars[o->var];
	if (v->is_param && !P->pset[o->var])
		buf_printf(st_next(st), "require(false) /* MV: parameter %s has no value */", v->name);
	else if (!v->is_param && P->defbit[o->var])
		buf_printf(st_next(st), "require(d%s)", P->name[o->var] + 1);
}

static void st_reads(const Pml *P, Stmts *st, const Ins *ins)
{
	const Opnd *r[3];
	int32_t n = ins_reads(ins, r);
	for (int32_t k = 0; k < n; k++)
		st_read(P, st, r[k]);
}

/* dst := the expression e (it is assigned now). */
static void st_assign(const Pml *P, Stmts *st, int32_t dst, const char *e)
{
	buf_printf(st_next(st), "%s = %s", P->name[dst], e);
	if (P->defbit[dst])
		buf_printf(st_next(st), "d%s = 1", P->name[dst] + 1);
}

static void st_assign_expr(const Pml *P, Stmts *st, const char *fmt, const Ins *ins)
{
	Buf e = {0};
	put_expr(P, &e, fmt, ins);
	st_assign(P, st, ins->dst, buf_str(&e));
	buf_free(&e);
}

/* Is every value of a op b within int32 (both bounded)? */
static bool fits_statically(BinOp op, Itv a, Itv b)
{
	int64_t lo, hi;
	switch (op) {
	case BIN_ADD: lo = a.lo + b.lo, hi = a.hi + b.hi; break;
	case BIN_SUB: lo = a.lo - b.hi, hi = a.hi - b.lo; break;
	case BIN_MUL: {
		int64_t c[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
		lo = min64(min64(c[0], c[1]), min64(c[2], c[3]));
		hi = max64(max64(c[0], c[1]), max64(c[2], c[3]));
		break;
	}
	case BIN_DIV: return a.lo > I32_MIN || b.lo > -1 || b.hi < -1;
	case BIN_SHL:
		if (b.lo < 0 || b.hi > 31)
			return a.lo == 0 && a.hi == 0;
		lo = min64(a.lo * ((int64_t)1 << b.lo), a.lo * ((int64_t)1 << b.hi));
		hi = max64(a.hi * ((int64_t)1 << b.lo), a.hi * ((int64_t)1 << b.hi));
		break;
	default: return true;
	}
	return lo >= I32_MIN && hi <= I32_MAX;
}

static const char *binop_expr(BinOp op)
{
	switch (op) {
	case BIN_ADD: return "%a + %b";
	case BIN_SUB: return "%a - %b";
	case BIN_MUL: return "%a * %b";
	case BIN_DIV: return "%a / %b";
	case BIN_MOD: return "(%b == -1 -> 0 : %a % %b)";
	case BIN_LT: return "(%a < %b)";
	case BIN_LE: return "(%a <= %b)";
	case BIN_GT: return "(%a > %b)";
	case BIN_GE: return "(%a >= %b)";
	case BIN_EQ: return "(%a == %b)";
	case BIN_NE: return "(%a != %b)";
	case BIN_AND: return "%a & %b";
	case BIN_OR: return "%a | %b";
	case BIN_XOR: return "%a ^ %b";
	case BIN_SHL: return "(%a == 0 -> 0 : %a << %b)";
	case BIN_SHR: return "(%b >= 31 -> (%a < 0 -> -1 : 0) : %a >> %b)";
	case BIN_LAND: return "(%a != 0 && %b != 0)";
	case BIN_LOR: return "(%a != 0 || %b != 0)";
	case BIN_MIN: return "(%a < %b -> %a : %b)";
	case BIN_MAX: return "(%a > %b -> %a : %b)";
	default: return "0";
	}
}

/* Rule BP's premises, the int32 check, then the value; what the bounds of
** constant operands settle is not checked at run time. */
static void st_binary(const Pml *P, Stmts *st, const Ins *ins)
{
	static const char *const check[BIN__COUNT] = {
		[BIN_ADD] = "fits_int32(ADD_OK(%a, %b))", [BIN_SUB] = "fits_int32(SUB_OK(%a, %b))",
		[BIN_MUL] = "fits_int32(MUL_OK(%a, %b))", [BIN_DIV] = "fits_int32(DIV_OK(%a, %b))",
		[BIN_SHL] = "fits_int32(SHL_OK(%a, %b))",
	};
	BinOp op = (BinOp)ins->sub;
	Itv a, b;
	bool ka = opnd_bounds(P, &ins->a, &a), kb = opnd_bounds(P, &ins->b, &b);
	if ((op == BIN_DIV || op == BIN_MOD) && !(kb && (b.lo > 0 || b.hi < 0)))
		st_expr(P, st, "require(%b != 0) /* BP: division by zero */", ins);
	if ((op == BIN_SHL || op == BIN_SHR) && !(kb && b.lo >= 0))
		st_expr(P, st, "require(%b >= 0) /* BP: negative shift count */", ins);
	if (check[op] && !(ka && kb && fits_statically(op, a, b)) &&
	    !(op == BIN_DIV && ((ka && a.lo > I32_MIN) || (kb && (b.lo > -1 || b.hi < -1)))))
		st_expr(P, st, check[op], ins);
	const char *e = binop_expr(op);
	if (op == BIN_MOD && kb && (b.lo > -1 || b.hi < -1))
		e = "%a % %b"; /* no INT32_MIN % -1 */
	if (op == BIN_SHL && kb && b.hi <= 31)
		e = "%a << %b";
	if (op == BIN_SHR && kb && b.hi < 31)
		e = "%a >> %b";
	st_assign_expr(P, st, e, ins);
}

static void st_unary(const Pml *P, Stmts *st, const Ins *ins)
{
	switch ((UnOp)ins->sub) {
	case UN_NEG: {
		Itv a;
		if (!opnd_bounds(P, &ins->a, &a) || a.lo == I32_MIN)
			st_expr(P, st, "fits_int32(%a != INT32_MIN)", ins);
		st_assign_expr(P, st, "-%a", ins);
		break;
	}
	case UN_NOT: st_assign_expr(P, st, "(%a == 0)", ins); break;
	default: st_assign_expr(P, st, "~%a", ins); break;
	}
}

/* The element of memory sp that address operand a names, and its
** initialised flag (flag). */
static void put_cell(const Pml *P, Buf *b, int sp, const Opnd *a, bool flag)
{
	buf_puts(b, sp == SHARED ? (flag ? "sigma_ok[" : "sigma[") : (flag ? "lmem_ok[" : "lmem["));
	Itv k;
	if (a->kind != OPND_SPECIAL && opnd_bounds(P, a, &k)) {
		buf_put_i64(b, k.lo - P->space[sp].base); /* a literal or a parameter */
	} else {
		put_opnd(P, b, a);
		if (P->space[sp].base)
			buf_printf(b, " - %lld", (long long)P->space[sp].base);
	}
	buf_putc(b, ']');
}

/* The premises of an access (rules LD ST AT: a negative address; MM: a
** read of a cell that may be uninitialised). False when no address can
** reach the access: the step cannot happen (it is never reached, or its
** address is unassigned, which st_read has required already). */
static bool st_access(const Pml *P, Stmts *st, int32_t pc, bool reads)
{
	const Ins *ins = &P->p->ins[pc];
	int sp = space_of((Op)ins->op);
	const char *rule = ins->op == OP_LOAD || ins->op == OP_LLOAD    ? "LD"
	                   : ins->op == OP_STORE || ins->op == OP_LSTORE ? "ST"
	                                                                 : "AT";
	if (itv_empty(P->addr[pc])) {
		buf_printf(st_next(st), "require(false) /* %s: no address reaches this access */", rule);
		return false;
	}
	if (P->addr[pc].lo < 0) {
		st_expr(P, st, "require(%a >= 0)", ins);
		buf_printf(&st->s, " /* %s: negative address */", rule);
	}
	if (reads && P->space[sp].okbits && (sp == LOCAL || !known_initialised(P, pc))) {
		Buf *b = st_next(st);
		buf_puts(b, "require(");
		put_cell(P, b, sp, &ins->a, true);
		buf_puts(b, ") /* MM: uninitialised */");
	}
	return true;
}

static void st_load(const Pml *P, Stmts *st, int32_t pc)
{
	const Ins *ins = &P->p->ins[pc];
	if (!st_access(P, st, pc, true))
		return;
	Buf e = {0};
	put_cell(P, &e, space_of((Op)ins->op), &ins->a, false);
	st_assign(P, st, ins->dst, buf_str(&e));
	buf_free(&e);
}

static void st_store(const Pml *P, Stmts *st, int32_t pc)
{
	const Ins *ins = &P->p->ins[pc];
	int sp = space_of((Op)ins->op);
	if (!st_access(P, st, pc, false))
		return;
	Buf *b = st_next(st);
	put_cell(P, b, sp, &ins->a, false);
	buf_puts(b, " = ");
	put_opnd(P, b, &ins->b);
	if (P->space[sp].okbits) {
		b = st_next(st);
		put_cell(P, b, sp, &ins->a, true);
		buf_puts(b, " = 1");
	}
}

/* Does an operand of ins name its destination? */
static bool dst_is_read(const Ins *ins)
{
	const Opnd *r[3];
	int32_t n = ins_reads(ins, r);
	for (int32_t k = 0; k < n; k++)
		if (r[k]->kind == OPND_VAR && r[k]->var == ins->dst)
			return true;
	return false;
}

/* The atomics: the destination is written last, its value computed from
** the operands as they were (atomexch keeps the old value in t_0 when the
** destination is also an operand). Under .memory strict the cell must be
** initialised, even for a failing atomcas. */
static void st_atomic(Pml *P, Stmts *st, int32_t pc)
{
	const Ins *ins = &P->p->ins[pc];
	if (!st_access(P, st, pc, true))
		return;
	Buf cell = {0}, e = {0};
	put_cell(P, &cell, SHARED, &ins->a, false);
	const char *c = buf_str(&cell);
	switch ((Op)ins->op) {
	case OP_ATOMINC:
		buf_printf(st_next(st), "fits_int32(%s != INT32_MAX)", c);
		buf_printf(st_next(st), "%s = %s + 1", c, c);
		st_assign(P, st, ins->dst, c);
		break;
	case OP_ATOMADD: {
		Buf *b = st_next(st);
		buf_printf(b, "fits_int32(ADD_OK(%s, ", c);
		put_opnd(P, b, &ins->b);
		buf_puts(b, "))");
		b = st_next(st);
		buf_printf(b, "%s = %s + ", c, c);
		put_opnd(P, b, &ins->b);
		buf_printf(&e, "%s - ", c); /* the old value */
		put_opnd(P, &e, &ins->b);
		st_assign(P, st, ins->dst, buf_str(&e));
		break;
	}
	case OP_ATOMCAS: {
		/* a failing atomcas writes nothing; either way dst := the old value */
		Buf *b = st_next(st);
		buf_printf(b, "if :: %s == ", c);
		put_opnd(P, b, &ins->b);
		buf_printf(b, " -> %s = ", c);
		put_opnd(P, b, &ins->c);
		Stmts yes = {.n = 1}, no = {0};
		st_assign_expr(P, &yes, "%b", ins);
		st_assign(P, &no, ins->dst, c);
		buf_printf(&st->s, "%s :: else -> %s fi", buf_str(&yes.s), buf_str(&no.s));
		buf_free(&yes.s);
		buf_free(&no.s);
		break;
	}
	default: /* OP_ATOMEXCH */
		if (dst_is_read(ins)) {
			if (P->ntemps < 1)
				P->ntemps = 1;
			buf_printf(st_next(st), "t_0 = %s", c);
			Buf *b = st_next(st);
			buf_printf(b, "%s = ", c);
			put_opnd(P, b, &ins->b);
			st_assign(P, st, ins->dst, "t_0");
			buf_puts(st_next(st), "t_0 = 0");
		} else {
			st_assign(P, st, ins->dst, c);
			Buf *b = st_next(st);
			buf_printf(b, "%s = ", c);
			put_opnd(P, b, &ins->b);
		}
		break;
	}
	buf_free(&e);
	buf_free(&cell);
}

/* ---- the GSA group at a block start: one parallel copy (semantics.md §4) --------- */

/* Where a selected operand goes: the destination (value and assigned flag)
** or, when the copy is not sequential, the temporaries t_k/td_k. */
typedef struct CopyDest {
	Buf val, def;
} CopyDest;

static void st_copy(const Pml *P, Buf *b, const CopyDest *k, const Opnd *o)
{
	buf_printf(b, "%s = ", buf_str(&k->val));
	put_opnd(P, b, o);
	buf_printf(b, "; %s = ", buf_str(&k->def));
	put_assigned(P, b, o);
}

/* γ's tree of gates: a predicate is read (MV) only where the path reaches
** it. Nesting is bounded by the parser (IR_GATE_MAX_DEPTH). */
static void st_gate(const Pml *P, Buf *b, const Ins *ins, const Opnd *node, const CopyDest *k, int depth)
{
	const Opnd *pred = ir_gate_pred(ins, node);
	Stmts pre = {0};
	st_read(P, &pre, pred);
	if (pre.n)
		buf_printf(b, "%s; ", buf_str(&pre.s));
	buf_free(&pre.s);
	buf_puts(b, "if :: ");
	put_opnd(P, b, pred);
	buf_puts(b, " != 0 -> ");
	for (int side = 1; side >= 0; side--) {
		const Opnd *o = ir_gate_side(ins, node, side);
		if (o->kind == OPND_GATE && depth < IR_GATE_MAX_DEPTH)
			st_gate(P, b, ins, o, k, depth + 1);
		else
			st_copy(P, b, k, o);
		buf_puts(b, side ? " :: else -> " : " fi");
	}
}

/* φ and μ take the operand of the edge the thread came by (came_from). */
static void st_edge_select(const Pml *P, Buf *b, const Ins *ins, int32_t blk, const CopyDest *k)
{
	const Block *bb = &P->g->blocks[blk];
	buf_puts(b, "if");
	for (int32_t j = 0; j < bb->npred; j++) {
		int32_t from = bb->pred[j];
		int32_t ix = ins->op == OP_MU ? cfg_mu_index(P->g, blk, from) : cfg_phi_index(P->g, blk, from);
		if (ins->op == OP_MU && ix == 0)
			continue; /* the entry operand: the else branch */
		buf_printf(b, " :: came_from == %d -> ", (int)from);
		if (ix >= 0 && ix < ins->nargs)
			st_copy(P, b, k, &ins->args[ix]);
		else
			buf_puts(b, "require(false) /* MV: no operand for this edge */");
	}
	if (ins->op == OP_MU && ins->nargs > 0) {
		buf_puts(b, " :: else -> ");
		st_copy(P, b, k, &ins->args[0]);
	} else {
		buf_puts(b, " :: else -> require(false) /* MV: no operand for this edge */");
	}
	buf_puts(b, " fi");
}

/* Does some instruction of the group read a destination written before it
** (then the copy goes through temporaries)? mark: scratch, zero, per variable. */
static bool group_conflicts(const Pml *P, int32_t first, int32_t count, uint8_t *mark)
{
	bool conflict = false;
	for (int32_t j = 0; j < count && !conflict; j++) {
		const Ins *ins = &P->p->ins[first + j];
		const Opnd *abc[3] = {&ins->a, &ins->b, &ins->c};
		for (int k = 0; k < 3; k++)
			conflict |= abc[k]->kind == OPND_VAR && mark[abc[k]->var];
		for (int32_t k = 0; k < ins->nargs; k++)
			conflict |= ins->args[k].kind == OPND_VAR && mark[ins->args[k].var];
		mark[ins->dst] = 1;
	}
	for (int32_t j = 0; j < count; j++)
		mark[P->p->ins[first + j].dst] = 0;
	return conflict;
}

static void st_gsa_group(Pml *P, Stmts *st, int32_t first, int32_t count, uint8_t *mark)
{
	int32_t blk = P->g->block_of[first];
	bool temps = group_conflicts(P, first, count, mark);
	if (temps && P->ntemps < count)
		P->ntemps = count;
	if (temps && P->ndtemps < count)
		P->ndtemps = count;
	for (int32_t j = 0; j < count; j++) {
		const Ins *ins = &P->p->ins[first + j];
		CopyDest k = {0};
		if (temps) {
			buf_printf(&k.val, "t_%d", (int)j);
			buf_printf(&k.def, "td_%d", (int)j);
		} else {
			buf_puts(&k.val, P->name[ins->dst]);
			buf_printf(&k.def, "d%s", P->name[ins->dst] + 1);
		}
		Buf *b = st_next(st);
		switch ((Op)ins->op) {
		case OP_GAMMA: st_gate(P, b, ins, NULL, &k, 0); break;
		case OP_ETA: st_copy(P, b, &k, &ins->b); break;
		default: st_edge_select(P, b, ins, blk, &k); break;
		}
		buf_free(&k.val);
		buf_free(&k.def);
	}
	for (int32_t j = 0; temps && j < count; j++) {
		const char *n = P->name[P->p->ins[first + j].dst];
		buf_printf(st_next(st), "%s = t_%d; d%s = td_%d", n, (int)j, n + 1, (int)j);
	}
	for (int32_t j = 0; temps && j < count; j++)
		buf_printf(st_next(st), "t_%d = 0; td_%d = 0", (int)j, (int)j);
}

/* ---- the model ------------------------------------------------------------------------- */

/* Text inside a comment: never its end. */
static void put_comment_text(Buf *b, const char *text)
{
	for (const char *c = text; *c; c++) {
		buf_putc(b, *c);
		if (c[0] == '*' && c[1] == '/')
			buf_putc(b, ' ');
	}
}

/* The instruction at pc as a comment: its line, label and text. */
static void put_source(const Pml *P, Buf *b, int32_t pc)
{
	const Ins *ins = &P->p->ins[pc];
	Buf t = {0};
	const char *label = ir_label_of(P->p, pc);
	if (label)
		buf_printf(&t, "%s: ", label);
	ir_print_ins(&t, P->p, ins);
	buf_printf(b, "\t/* %d  ", (int)ins->loc.line);
	put_comment_text(b, buf_str(&t));
	buf_puts(b, " */\n");
	buf_free(&t);
}

/* One instruction (or the GSA group at a block start) as Promela
** statements; returns how many instructions it took. The statements of
** a data instruction form one step (atomic); a branch's premise, edge and
** jump are local, so they need not. */
static int32_t emit_ins(Pml *P, Buf *out, int32_t pc, const bool *target, uint8_t *mark)
{
	const Program *p = P->p;
	const Ins *ins = &p->ins[pc];
	int32_t blk = P->g->block_of[pc];
	const Block *bb = &P->g->blocks[blk];
	int32_t count = pc == bb->first && bb->ngsa > 0 ? bb->ngsa : 1;
	for (int32_t k = 0; k < count; k++)
		put_source(P, out, pc + k);
	Stmts st = {0};
	bool step = true; /* wrap several statements into one step */
	switch ((Op)ins->op) {
	case OP_COPY: st_read(P, &st, &ins->a); st_assign_expr(P, &st, "%a", ins); break;
	case OP_UNARY: st_read(P, &st, &ins->a); st_unary(P, &st, ins); break;
	case OP_BINARY: st_reads(P, &st, ins); st_binary(P, &st, ins); break;
	case OP_LOAD:
	case OP_LLOAD: st_reads(P, &st, ins); st_load(P, &st, pc); break;
	case OP_STORE:
	case OP_LSTORE: st_reads(P, &st, ins); st_store(P, &st, pc); break;
	case OP_ATOMINC:
	case OP_ATOMADD:
	case OP_ATOMCAS:
	case OP_ATOMEXCH: st_reads(P, &st, ins); st_atomic(P, &st, pc); break;
	case OP_PHI:
	case OP_GAMMA:
	case OP_MU:
	case OP_ETA: st_gsa_group(P, &st, pc, count, mark); break;
	case OP_BZ:
	case OP_BNZ:
		step = false;
		st_read(P, &st, &ins->a);
		if (P->edges)
			buf_printf(st_next(&st), "came_from = %d", (int)blk);
		st_expr(P, &st, ins->op == OP_BZ ? "if :: %a == 0" : "if :: %a != 0", ins);
		buf_printf(&st.s, " -> goto L%d :: else -> skip fi", (int)ins->target);
		break;
	case OP_JUMP:
		step = false;
		if (P->edges)
			buf_printf(st_next(&st), "came_from = %d", (int)blk);
		buf_printf(st_next(&st), "goto L%d", (int)ins->target);
		break;
	case OP_SYNC: buf_puts(st_next(&st), "skip /* a no-op under mimd */"); break;
	case OP_STOP:
	case OP_EXIT: buf_puts(st_next(&st), "goto fin"); break;
	case OP_BARRIER:
		step = false;
		buf_puts(st_next(&st), "atomic { nbar++; bwait[tid] = 1; "
		                       "if :: nbar == NT - nfin -> release_barrier() :: else -> skip fi }");
		buf_puts(st_next(&st), "(bwait[tid] == 0) /* until the barrier completes */");
		break;
	default: buf_puts(st_next(&st), "skip"); break;
	}
	if (target[pc])
		buf_printf(out, "L%d:", (int)pc);
	/* an atomic is one indivisible step even as a single if (guard, then effect) */
	if (step && (st.n > 1 || ir_is_atomic((Op)ins->op) || ir_is_gsa((Op)ins->op)))
		buf_printf(out, "\tatomic { %s };\n", buf_str(&st.s));
	else
		buf_printf(out, "\t%s;\n", buf_str(&st.s));
	buf_free(&st.s);
	/* falling through into the next block: remember the edge (φ, μ) */
	int32_t last = pc + count - 1;
	if (P->edges && last == bb->last && !ir_ends_block((Op)p->ins[last].op))
		buf_printf(out, "\tcame_from = %d;\n", (int)blk);
	return count;
}

/* Statements, "; " between them, in lines of about 72 columns after indent. */
typedef struct Lines {
	Buf *out;
	const char *indent;
	size_t col;
} Lines;

static void line_stmt(Lines *l, const char *text)
{
	size_t n = strlen(text);
	if (l->col > 0 && l->col + n > 72) {
		buf_puts(l->out, ";\n");
		l->col = 0;
	} else if (l->col > 0) {
		buf_puts(l->out, "; ");
		l->col += 2;
	}
	if (l->col == 0) {
		buf_puts(l->out, l->indent);
		l->col = 8 * strlen(l->indent);
	}
	buf_puts(l->out, text);
	l->col += n;
}

/* The declarations in a comma list, wrapped. */
static void put_decls(Buf *b, const char *type, const char *const *names, int32_t n, const char *prefix)
{
	size_t col = 0;
	for (int32_t i = 0; i < n; i++) {
		if (i == 0 || col > 64) {
			if (i)
				buf_puts(b, ";\n");
			buf_printf(b, "\t%s ", type);
			col = 8 + strlen(type);
		} else {
			buf_puts(b, ", ");
			col += 2;
		}
		buf_printf(b, "%s%s", prefix, names[i]);
		col += strlen(prefix) + strlen(names[i]);
	}
	if (n)
		buf_puts(b, ";\n");
}

static void emit_proctype(Pml *P, Buf *out)
{
	const Program *p = P->p;
	Buf body = {0};
	bool *target = xcalloc((size_t)p->nins + 1, sizeof *target);
	uint8_t *mark = xcalloc((size_t)p->nvars + 1, 1);
	for (int32_t pc = 0; pc < p->nins; pc++)
		if (p->ins[pc].target >= 0)
			target[p->ins[pc].target] = true;
	for (int32_t pc = 0; pc < p->nins;)
		pc += emit_ins(P, &body, pc, target, mark);
	if (P->barrier)
		buf_puts(&body, "fin:\tatomic { nfin++; "
		                "if :: nbar > 0 && nbar == NT - nfin -> release_barrier() :: else -> skip fi }\n");
	else
		buf_puts(&body, "fin:\tnfin++\n");
	free(mark);
	free(target);

	buf_puts(out, "proctype thread(byte tid)\n{\n");
	const char **vars = xmalloc(((size_t)p->nvars + 1) * sizeof *vars), **bits = xmalloc(((size_t)p->nvars + 1) * sizeof *bits);
	int32_t nvars = 0, nbits = 0;
	for (int32_t v = 0; v < p->nvars; v++) {
		if (p->vars[v].is_param)
			continue;
		vars[nvars++] = P->name[v];
		if (P->defbit[v])
			bits[nbits++] = P->name[v] + 1;
	}
	put_decls(out, "int", vars, nvars, "");
	put_decls(out, "bit", bits, nbits, "d");
	free(vars);
	free(bits);
	if (P->edges)
		buf_puts(out, "\tint came_from = -1;     /* the block this thread came from (φ, μ) */\n");
	const Space *lo = &P->space[LOCAL];
	if (lo->n) {
		buf_printf(out, "\tint lmem[%lld];", (long long)lo->n);
		buf_pad(out, 24);
		buf_printf(out, "/* local[%lld..%lld] */\n", (long long)lo->base, (long long)(lo->base + lo->n - 1));
		if (lo->okbits) {
			buf_printf(out, "\tbit lmem_ok[%lld];", (long long)lo->n);
			buf_pad(out, 24);
			buf_puts(out, "/* initialised (rule MM) */\n");
		}
	}
	/* scratch (parallel copies, atomexch), 0 between steps */
	for (int32_t k = 0; k < P->ntemps; k++)
		buf_printf(out, "%st_%d", k ? ", " : "\tint ", (int)k);
	for (int32_t k = 0; k < P->ndtemps; k++)
		buf_printf(out, "%std_%d", k ? ", " : ";\n\tbit ", (int)k);
	if (P->ntemps)
		buf_puts(out, ";  /* scratch, 0 between steps */\n");
	buf_putc(out, '\n');
	buf_puts(out, buf_str(&body));
	buf_puts(out, "}\n");
	buf_free(&body);
}

/* Bytes of SPIN's state vector, roughly (pan's default holds 1024). */
static int64_t vector_bytes(const Pml *P)
{
	int64_t perproc = 8 + 4 * (int64_t)(P->edges + P->ntemps) + P->ndtemps + 5 * P->space[LOCAL].n;
	for (int32_t v = 0; v < P->p->nvars; v++)
		if (!P->p->vars[v].is_param)
			perproc += 4 + P->defbit[v];
	return 16 + 5 * P->space[SHARED].n + (P->barrier ? 1 + P->nthreads : 0) +
	       (int64_t)P->nthreads * perproc;
}

static void emit_header(const Pml *P, Buf *out)
{
	const Program *p = P->p;
	Buf cc = {0};
	int64_t vec = vector_bytes(P);
	buf_puts(&cc, "cc -O2");
	/* pan -f tracks at most 4 * NFAIR - 2 processes: the threads, init and
	** the never claim */
	int32_t nfair = (P->nthreads + 4 + 3) / 4;
	if (nfair > 2)
		buf_printf(&cc, " -DNFAIR=%d", (int)nfair);
	if (vec > 1000) {
		int64_t size = 1024;
		while (size < 2 * vec)
			size *= 2;
		buf_printf(&cc, " -DVECTORSZ=%lld", (long long)size);
	}
	buf_puts(out, "/*\n** ");
	put_comment_text(out, p->path);
	buf_printf(out,
	           " under the mimd model (musimd-lang(7)), as musimd emit-promela\n"
	           "** writes it: %d thread%s, each thread a process; warp size %d for laneid\n"
	           "** and warpid.",
	           (int)P->nthreads, P->nthreads == 1 ? "" : "s", (int)P->warpsize);
	bool first = true;
	for (int32_t v = 0; v < p->nvars; v++)
		if (p->vars[v].is_param && P->pread[v]) {
			buf_printf(out, "%s %s = ", first ? " Parameters:" : ",", p->vars[v].name);
			if (P->pset[v])
				buf_put_i64(out, P->pval[v]);
			else
				buf_puts(out, "(none)");
			first = false;
		}
	if (!first)
		buf_putc(out, '.');
	buf_printf(out,
	           "\n**\n"
	           "** The verdict of `musimd explore --model mimd`, from SPIN (this model in M.pml):\n"
	           "**   spin -a M.pml && %s -DNOCLAIM -o pan pan.c && ./pan -m1000000\n"
	           "**     \"assertion violated !(stuck)\": deadlock (a step no rule allows);\n"
	           "**     \"!(int32_overflow)\": a value outside int32, no verdict; else go on:\n"
	           "**   %s -o pan pan.c && ./pan -a -f -m1000000\n"
	           "**     \"acceptance cycle\": livelock (a fair run on which some thread never ends)\n"
	           "**   ./pan -a -m1000000\n"
	           "**     \"acceptance cycle\": terminates-fair (only unfair runs are endless);\n"
	           "**     \"errors: 0\": terminates\n"
	           "*/\n",
	           buf_str(&cc), buf_str(&cc));
	buf_free(&cc);
}

static void emit_globals(const Pml *P, Buf *out)
{
	buf_printf(out,
	           "\n#define NT %d  /* threads */\n"
	           "#define INT32_MAX 2147483647\n"
	           "#define INT32_MIN (-2147483647 - 1)\n"
	           "/* the checks: a step no rule allows; a value Promela's int cannot hold */\n"
	           "#define require(c) stuck = !(c); assert(!stuck)\n"
	           "#define fits_int32(c) int32_overflow = !(c); assert(!int32_overflow)\n"
	           "#define ADD_OK(a, b) ((b) >= 0 -> (a) <= INT32_MAX - (b) : (a) >= INT32_MIN - (b))\n"
	           "#define SUB_OK(a, b) ((b) >= 0 -> (a) >= INT32_MIN + (b) : (a) <= INT32_MAX + (b))\n"
	           "#define MUL_OK(a, b) ((a) == 0 || (b) == 0 || ((a) > 0 -> \\\n"
	           "\t((b) > 0 -> (a) <= INT32_MAX / (b) : (b) >= INT32_MIN / (a)) : \\\n"
	           "\t((b) > 0 -> (a) >= INT32_MIN / (b) : (a) >= INT32_MAX / (b))))\n"
	           "#define DIV_OK(a, b) ((a) != INT32_MIN || (b) != -1)\n"
	           "#define SHL_OK(a, b) ((a) == 0 || ((b) <= 31 && (a) >= (INT32_MIN >> (b)) && \\\n"
	           "\t(a) <= (INT32_MAX >> (b))))\n"
	           "\n"
	           "bit stuck;           /* set by a stuck step: musimd explore's deadlock */\n"
	           "bit int32_overflow;  /* set by a value outside int32 */\n"
	           "byte nfin;           /* threads that have finished (stop, exit) */\n",
	           (int)P->nthreads);
	const Space *sh = &P->space[SHARED];
	if (sh->n) {
		buf_printf(out, "int sigma[%lld];", (long long)sh->n);
		buf_pad(out, 21);
		buf_printf(out, "/* Σ[%lld..%lld], the cells the program can touch */\n", (long long)sh->base,
		           (long long)(sh->base + sh->n - 1));
		if (sh->okbits) {
			buf_printf(out, "bit sigma_ok[%lld];", (long long)sh->n);
			buf_pad(out, 21);
			buf_puts(out, "/* initialised (rule MM) */\n");
		}
	}
	if (P->barrier) {
		buf_puts(out, "byte nbar;           /* threads waiting at the barrier */\n"
		              "bit bwait[NT];       /* thread t waits at the barrier */\n"
		              "\n/* every live thread waits (semantics.md §6): all go on */\n"
		              "inline release_barrier()\n{\n");
		Lines l = {out, "\t", 0};
		line_stmt(&l, "nbar = 0");
		char t[32];
		for (int32_t k = 0; k < P->nthreads; k++) {
			snprintf(t, sizeof t, "bwait[%d] = 0", (int)k);
			line_stmt(&l, t);
		}
		buf_puts(out, "\n}\n");
	}
	buf_putc(out, '\n');
}

static void emit_init(const Pml *P, Buf *out)
{
	const Space *sh = &P->space[SHARED];
	buf_puts(out, "\ninit\n{\n\tatomic {\n");
	Lines l = {out, "\t\t", 0};
	char t[64];
	for (int64_t i = 0; i < sh->n; i++) {
		if (P->sh_init[i] && P->sh_val[i] != 0) {
			Buf c = {0};
			buf_printf(&c, "sigma[%lld] = ", (long long)i);
			put_num(&c, P->sh_val[i]);
			line_stmt(&l, buf_str(&c));
			buf_free(&c);
		}
		if (P->sh_init[i] && sh->okbits) {
			snprintf(t, sizeof t, "sigma_ok[%lld] = 1", (long long)i);
			line_stmt(&l, t);
		}
	}
	if (l.col > 0) { /* the processes on lines of their own */
		buf_puts(out, ";\n");
		l.col = 0;
	}
	for (int32_t k = 0; k < P->nthreads; k++) {
		snprintf(t, sizeof t, "run thread(%d)", (int)k);
		line_stmt(&l, t);
	}
	buf_puts(out, "\n\t}\n}\n\n"
	              "/* every thread finishes: with pan -a, on every run (-f: every fair run) */\n"
	              "ltl terminates { <> (nfin == NT) }\n");
}

PmlStatus promela_emit(Buf *b, const Program *p, const SemOptions *opt, Diags *d)
{
	int errs = d->nerrors;
	/* the threads as `run` counts them, before the machine is built for them */
	int64_t threads = ir_warp_shape(p, opt->threads, opt->warpsize).threads;
	if (threads > PML_MAX_THREADS) {
		diag_error(d, LOC_NONE,
		           "%lld threads: SPIN runs at most 255 processes, so emit-promela models at most "
		           "%d threads (--threads)", (long long)threads, PML_MAX_THREADS);
		return PML_UNEXPORTABLE;
	}
	SemOptions so = *opt;
	so.model = &model_mimd;
	Machine *m = sem_new(p, &so, d);
	if (!m)
		return PML_SETTINGS;
	Pml P = {.p = p, .g = p->cfg, .d = d};
	P.nthreads = (int32_t)sem_special(m, SPEC_NTID, 0);
	P.warpsize = (int32_t)sem_special(m, SPEC_WARPSIZE, 0);
	P.nwarps = (int32_t)sem_special(m, SPEC_NWARPS, 0);
	size_t nv = (size_t)p->nvars + 1;
	P.pval = xcalloc(nv, sizeof *P.pval);
	P.pset = xcalloc(nv, sizeof *P.pset);
	P.pread = xcalloc(nv, sizeof *P.pread);
	P.name = xcalloc(nv, sizeof *P.name);
	P.defbit = xcalloc(nv, sizeof *P.defbit);
	P.addr = xcalloc((size_t)p->nins + 1, sizeof *P.addr);
	for (int32_t pc = 0; pc < p->nins; pc++) {
		P.barrier |= p->ins[pc].op == OP_BARRIER;
		P.edges |= p->ins[pc].op == OP_PHI || p->ins[pc].op == OP_MU;
	}
	check_values(&P, m, opt);
	if (d->nerrors == errs) {
		find_defbits(&P);
		if (bound_addresses(&P, opt) && size_spaces(&P) && shared_cells(&P, m, opt)) {
			make_names(&P);
			Buf procs = {0};
			emit_proctype(&P, &procs); /* first: it counts the temporaries */
			emit_header(&P, b);
			emit_globals(&P, b);
			buf_puts(b, buf_str(&procs));
			emit_init(&P, b);
			buf_free(&procs);
		}
	}
	for (int32_t v = 0; v < p->nvars; v++)
		free(P.name[v]);
	free(P.name);
	free(P.pval);
	free(P.pset);
	free(P.pread);
	free(P.defbit);
	free(P.addr);
	free(P.sh_init);
	free(P.sh_val);
	free(P.sh_sum);
	sem_free(m);
	return d->nerrors > errs ? PML_UNEXPORTABLE : PML_OK;
}
