/*
** regalloc.c — register allocation with spilling (regalloc.h; seed 001
** §6-§7, sm-model.md §2.2).
**
** Linear scan (Poletto & Sarkar 1999) over the live intervals lower.c
** computes (one per variable: the naive numbering's register): intervals in
** order of their start; when all registers are taken, the interval that
** ends last is spilled. Without spills every register of the budget is
** allocatable; with spills two are scratch registers that carry a spilled
** operand from its reload to its use (a third spilled operand of one
** instruction, atomcas's, shares the first's), and the divergent and
** affine allocators keep one more for the warp's shared-memory base, as
** Sampaio's experiments do (9 registers, 8 allocatable ones plus the base).
**
** All four allocators spill the same way (Sampaio: "the same policy to
** assign variables to registers and to compute spilling costs") and then
** rewrite the spill code by Figure 4.3, each by the rules it has:
** (i) v = c and (iii) v = c1·tid + c2 are rebuilt at every use and never
** stored (remat, affine); (ii) a uniform v is stored once per warp in
** shared memory (divergent, affine); (iv) v = c·tid + x stores x there and
** is rebuilt by a shared load, a conversion of tid and a multiply-add, and
** stored by a conversion, a multiply-add and a shared store: 3
** instructions each (affine). Everything else goes to per-thread local
** memory. The abstract values come from the divergence analyses on the
** program's GSA form: a source variable takes the meet of its versions.
** A value shared by the warp must stay the warp's: only variables with one
** definition (the other versions are gates), uniform in every version, and
** read nowhere after a loop that threads left at different iterations
** (ana_read_divergent) are shared (the digest's §6.6 pitfall).
*/
#include "regalloc.h"

#include <stdlib.h>
#include <string.h>

#include "ana.h"
#include "gsa.h"
#include "sm.h"

const RaInfo regallocs[RA__COUNT] = {
	[RA_NONE] = {"none", "one register per variable, no spills (the lowering's numbering)", 0, false, false, false, false},
	[RA_LINEAR] = {"linear", "linear scan, spills to per-thread local memory (Poletto & Sarkar)", 9, false, false, false,
	               false},
	[RA_REMAT] = {"remat", "linear scan; constants and c1*tid + c2 rematerialised (rules i, iii)", 9, false, true, false,
	              false},
	[RA_DIVERGENT] = {"divergent", "linear scan; uniform values spilled once per warp to shared memory (rule ii)", 8,
	                  true, false, true, false},
	[RA_AFFINE] = {"affine", "linear scan; rules i-iv: remat, uniform and c*tid + x spills in shared memory", 8, true,
	               true, true, true},
};

int ra_find(const char *name, size_t len)
{
	for (int k = 0; k < RA__COUNT; k++)
		if (strlen(regallocs[k].name) == len && !memcmp(regallocs[k].name, name, len))
			return k;
	return -1;
}

/* ---- what the analyses say about a source variable ---------------------- */

typedef struct VarFacts {
	Coef a1, a0;      /* the meet of its versions' affine values */
	bool divergent;   /* the simple analysis: a version is divergent */
	bool read_div;    /* a read after a loop left at different iterations */
	int32_t ndefs;    /* versions defined by real instructions (not gates) */
} VarFacts;

/* The source variable of a GSA version x.N / x.undef (a parameter keeps its name). */
static int32_t source_var(const Program *p, const Program *g, int32_t gv)
{
	const char *nm = g->vars[gv].name, *dot = strrchr(nm, '.');
	if (!dot)
		return ir_find_var(p, nm);
	char *base = xstrndup(nm, (size_t)(dot - nm));
	int32_t v = ir_find_var(p, base);
	free(base);
	return v;
}

static void meet_into(Coef *acc, const Coef *x)
{
	Coef m = coef_meet(*acc, *x);
	coef_free(acc);
	*acc = m;
}

/* Facts per source variable; false (facts as for divergent variables) when
** the program has no GSA form (its control flow is not structured). */
static bool gather(const Program *p, RaKind kind, VarFacts *f, Diags *d)
{
	for (int32_t v = 0; v < p->nvars; v++)
		f[v] = (VarFacts){.a1 = coef_top(), .a0 = coef_top()};
	if (kind == RA_LINEAR)
		return true;
	Diags gd;
	diag_init(&gd, p->path, NULL, 0);
	Program *g = gsa_build(p, &gd);
	bool ok = g && gd.nerrors == 0;
	diag_free(&gd);
	if (!ok) {
		ir_free(g);
		diag_warning(d, LOC_NONE, "-musimd_regalloc %s: the program has no GSA form, so no divergence analysis: "
		             "every spill goes to local memory", regallocs[kind].name);
		for (int32_t v = 0; v < p->nvars; v++)
			f[v].divergent = true;
		return false;
	}
	AnaOptions so = {.domain = ANA_SIMPLE}, po = {.domain = ANA_POLY, .degree = 1};
	AnaResult *rs = ana_run(g, &so), *rp = ana_run(g, &po);
	int32_t *src = xmalloc(((size_t)g->nvars + 1) * sizeof *src);
	for (int32_t gv = 0; gv < g->nvars; gv++)
		src[gv] = source_var(p, g, gv);
	for (int32_t pc = 0; pc < g->nins; pc++) {
		const Ins *ins = &g->ins[pc];
		for (int32_t k = 0;; k++) {
			const Opnd *o = ana_operand(ins, k);
			if (!o)
				break;
			if (o->kind == OPND_VAR && src[o->var] >= 0 && ana_read_divergent(rs, pc, o->var))
				f[src[o->var]].read_div = true;
		}
		int32_t gv = ins->dst;
		if (gv < 0 || src[gv] < 0)
			continue;
		VarFacts *x = &f[src[gv]];
		x->ndefs += !ir_is_gsa((Op)ins->op);
		VarClass c = rs->cls[gv];
		x->divergent |= c != CLASS_UNDEFINED && c != CLASS_CONSTANT && c != CLASS_UNIFORM;
		if (rp->cls[gv] != CLASS_UNDEFINED) {
			meet_into(&x->a1, ana_coef(rp, gv, 1));
			meet_into(&x->a0, ana_coef(rp, gv, 0));
		}
	}
	free(src);
	ana_free(rs);
	ana_free(rp);
	ir_free(g);
	return true;
}

/* Where a spilled variable goes under allocator kind (Figure 4.3). */
static void place(RaVar *rv, const VarFacts *f, const RaInfo *a)
{
	bool c1 = f->a1.kind == COEF_INT, c0 = f->a0.kind == COEF_INT;
	bool owned = f->ndefs <= 1 && !f->read_div; /* the warp's value: safe to share (§6.6) */
	rv->home = RH_LOCAL;
	if (a->remat && c1 && c0) {
		rv->home = coef_is_zero(f->a1) ? RH_CONST : RH_REMAT;
		rv->c1 = num_copy(f->a1.n);
		rv->c0 = num_copy(f->a0.n);
	} else if (a->affine && c1 && owned) {
		rv->home = coef_is_zero(f->a1) ? RH_SHARED : RH_AFFINE;
		rv->c1 = num_copy(f->a1.n);
	} else if (a->shared && !a->affine && !f->divergent && owned) {
		rv->home = RH_SHARED;
	}
}

/* ---- linear scan -------------------------------------------------------- */

/* Registers for the naive registers' intervals, R of them: phys[r] (-1:
** spilled). The number spilled. */
static int32_t linear_scan(const SmCode *c, int32_t R, int32_t *phys)
{
	int32_t n = c->nregs, spilled = 0;
	int32_t *order = xmalloc(((size_t)n + 1) * sizeof *order), *start = xcalloc((size_t)c->nins + 2, sizeof *start);
	int32_t m = 0;
	for (int32_t r = 0; r < n; r++) /* by start: a counting sort over the pcs */
		if (c->live_hi[r] >= 0)
			start[c->live_lo[r] + 1]++;
	for (int32_t pc = 0; pc < c->nins; pc++)
		start[pc + 1] += start[pc];
	for (int32_t r = 0; r < n; r++) {
		phys[r] = -1;
		if (c->live_hi[r] >= 0)
			order[start[c->live_lo[r]]++] = r, m++;
	}
	int32_t *active = xmalloc(((size_t)R + 1) * sizeof *active), na = 0; /* by end, ascending */
	int32_t *free_regs = xmalloc(((size_t)R + 1) * sizeof *free_regs), nf = 0;
	for (int32_t k = R - 1; k >= 0; k--)
		free_regs[nf++] = k;
	for (int32_t i = 0; i < m; i++) {
		int32_t r = order[i], lo = c->live_lo[r], hi = c->live_hi[r];
		int32_t gone = 0; /* expire the intervals that ended before this one starts */
		while (gone < na && c->live_hi[active[gone]] < lo)
			free_regs[nf++] = phys[active[gone++]];
		memmove(active, active + gone, (size_t)(na - gone) * sizeof *active);
		na -= gone;
		if (na == R) {
			if (na > 0 && c->live_hi[active[na - 1]] > hi) { /* the one that ends last gives its register */
				int32_t victim = active[--na];
				phys[r] = phys[victim];
				phys[victim] = -1;
			} else {
				spilled++;
				continue;
			}
			spilled++;
		} else {
			phys[r] = free_regs[--nf];
		}
		int32_t at = na;
		while (at > 0 && c->live_hi[active[at - 1]] > hi)
			at--;
		memmove(active + at + 1, active + at, (size_t)(na - at) * sizeof *active);
		active[at] = r;
		na++;
	}
	free(order), free(start), free(active), free(free_regs);
	return spilled;
}

/* ---- the spill code ----------------------------------------------------- */

typedef struct Emit {
	SpillOp *v;
	int32_t n, cap;
} Emit;

static void emit(Emit *e, SpillOpKind kind, SpillRole role, int oclass, int32_t dst, int32_t s0, int32_t s1,
                 int32_t slot)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 64;
		e->v = xrealloc(e->v, (size_t)e->cap * sizeof *e->v);
	}
	SpillOp *o = &e->v[e->n++];
	memset(o, 0, sizeof *o);
	o->kind = (uint8_t)kind;
	o->role = (uint8_t)role;
	o->slot = slot;
	o->ins.unit = kind == SO_ALU ? UNIT_INT : UNIT_MEM;
	o->ins.oclass = (uint8_t)oclass;
	o->ins.dst = dst;
	o->ins.rpc = -1;
	if (s0 >= 0)
		o->ins.src[o->ins.nsrc++] = s0;
	if (s1 >= 0 && s1 != s0)
		o->ins.src[o->ins.nsrc++] = s1;
}

/* The reload of v into register r (Figure 4.3's load sequences). */
static void emit_reload(Emit *e, const RaVar *v, int32_t r, int32_t base)
{
	switch ((RaHome)v->home) {
	case RH_LOCAL:
		emit(e, SO_LD_LOCAL, SR_RELOAD, SM_ADD, r, -1, -1, v->slot);
		break;
	case RH_SHARED:
		emit(e, SO_LD_SHARED, SR_RELOAD, SM_ADD, r, base, -1, v->slot);
		break;
	case RH_CONST:
		emit(e, SO_ALU, SR_REMAT, SM_ADD, r, -1, -1, -1);
		break;
	case RH_REMAT: /* tid converted (no register waits on it), then c1·tid + c2 */
		emit(e, SO_ALU, SR_REMAT, SM_ADD, -1, -1, -1, -1);
		emit(e, SO_ALU, SR_EXTRA, SM_MAD, r, -1, -1, -1);
		break;
	case RH_AFFINE: /* x from the warp's slot, tid converted, c·tid + x */
		emit(e, SO_LD_SHARED, SR_RELOAD, SM_ADD, r, base, -1, v->slot);
		emit(e, SO_ALU, SR_EXTRA, SM_ADD, -1, -1, -1, -1);
		emit(e, SO_ALU, SR_EXTRA, SM_MAD, r, r, -1, -1);
		break;
	case RH_REG:
		break;
	}
}

/* The store of v from register r (t: a scratch register for x). */
static void emit_store(Emit *e, const RaVar *v, int32_t r, int32_t t, int32_t base)
{
	switch ((RaHome)v->home) {
	case RH_LOCAL:
		emit(e, SO_ST_LOCAL, SR_STORE, SM_ADD, -1, r, -1, v->slot);
		break;
	case RH_SHARED:
		emit(e, SO_ST_SHARED, SR_STORE, SM_ADD, -1, r, base, v->slot);
		break;
	case RH_AFFINE: /* x = v - c·tid, stored */
		emit(e, SO_ALU, SR_EXTRA, SM_ADD, -1, -1, -1, -1);
		emit(e, SO_ALU, SR_EXTRA, SM_MAD, t, r, -1, -1);
		emit(e, SO_ST_SHARED, SR_STORE, SM_ADD, -1, t, base, v->slot);
		break;
	default: /* rematerialised: never stored */
		break;
	}
}

static int32_t opnd_var(const SmCode *c, const Opnd *o)
{
	return o->kind == OPND_VAR && c->reg_of[o->var] >= 0 ? o->var : -1;
}

SmAlloc *regalloc_build(const SmCode *c, RaKind kind, int32_t budget, Diags *d)
{
	const Program *p = c->prog;
	const RaInfo *ai = &regallocs[kind];
	if (budget <= 0)
		budget = ai->budget;
	int32_t reserve = ai->base ? 1 : 0;
	if (budget - reserve < 1) {
		diag_error(d, LOC_NONE, "-musimd_max_regs %d is too few for -musimd_regalloc %s: it needs at least %d",
		           (int)budget, ai->name, (int)(reserve + 1));
		return NULL;
	}
	if (!p->cfg) {
		diag_error(d, LOC_NONE, "-musimd_regalloc %s needs the program's control-flow graph", ai->name);
		return NULL;
	}
	int32_t *phys = xmalloc(((size_t)c->nregs + 1) * sizeof *phys);
	int32_t R = budget - reserve, nspill = linear_scan(c, R, phys);
	if (nspill > 0) { /* two registers become scratch registers for the spilled operands */
		R -= 2;
		if (R < 0) {
			free(phys);
			diag_error(d, LOC_NONE,
			           "-musimd_max_regs %d is too few for -musimd_regalloc %s: with spills it needs at least %d "
			           "(2 scratch registers%s)",
			           (int)budget, ai->name, (int)(reserve + 2), reserve ? " and the warp's shared-memory base" : "");
			return NULL;
		}
		nspill = linear_scan(c, R, phys);
	}
	SmAlloc *a = xcalloc(1, sizeof *a);
	a->kind = kind;
	a->budget = budget;
	a->var = xcalloc((size_t)p->nvars + 1, sizeof *a->var);
	VarFacts *f = xcalloc((size_t)p->nvars + 1, sizeof *f);
	gather(p, kind, f, d);
	int32_t top = 0;
	for (int32_t r = 0; r < c->nregs; r++)
		if (phys[r] + 1 > top)
			top = phys[r] + 1;
	int32_t s0 = top, s1 = top + 1, base = nspill > 0 ? top + 2 : top;
	for (int32_t v = 0; v < p->nvars; v++) {
		RaVar *rv = &a->var[v];
		int32_t r = c->reg_of[v];
		if (r < 0 || phys[r] >= 0) {
			rv->home = RH_REG;
			continue;
		}
		place(rv, &f[v], ai);
		a->spilled++;
		if (rv->home == RH_LOCAL)
			rv->slot = a->nlocal++;
		else if (rv->home == RH_SHARED || rv->home == RH_AFFINE)
			rv->slot = a->nshared++;
	}
	for (int32_t v = 0; v < p->nvars; v++)
		coef_free(&f[v].a1), coef_free(&f[v].a0);
	free(f);
	/* the allocated code and its spill code */
	SmCode *k = &a->code;
	*k = *c;
	k->ins = xmalloc(((size_t)c->nins + 1) * sizeof *k->ins);
	k->reg_of = NULL, k->live_lo = k->live_hi = NULL; /* the naive numbering's, not this code's */
	k->nregs = base + reserve;
	k->maxlive = k->nregs > 0 ? k->nregs : 1;
	a->pre = xmalloc(((size_t)c->nins + 1) * sizeof *a->pre);
	a->post = xmalloc(((size_t)c->nins + 1) * sizeof *a->post);
	Emit pre = {0}, post = {0};
	for (int32_t pc = 0; pc < c->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		SmIns *s = &k->ins[pc];
		*s = c->ins[pc];
		s->nsrc = 0;
		a->pre[pc] = pre.n;
		a->post[pc] = post.n;
		const Opnd *o[3] = {&ins->a, &ins->b, &ins->c};
		int32_t seen[3], nseen = 0, nsp = 0;
		for (int q = 0; q < 3; q++) {
			int32_t v = opnd_var(c, o[q]);
			bool dup = false;
			for (int32_t i = 0; i < nseen; i++)
				dup |= seen[i] == v;
			if (v < 0 || dup)
				continue;
			seen[nseen++] = v;
			int32_t r = phys[c->reg_of[v]];
			if (r < 0) {
				r = nsp++ % 2 ? s1 : s0;
				emit_reload(&pre, &a->var[v], r, base);
			}
			bool in = false;
			for (int32_t i = 0; i < s->nsrc; i++)
				in |= s->src[i] == r;
			if (!in && s->nsrc < LOWER_MAX_SRC)
				s->src[s->nsrc++] = r;
		}
		if (ins->dst >= 0 && c->reg_of[ins->dst] >= 0) {
			int32_t r = phys[c->reg_of[ins->dst]];
			s->dst = r >= 0 ? r : s0;
			if (r < 0)
				emit_store(&post, &a->var[ins->dst], s0, s1, base);
		}
	}
	a->pre[c->nins] = pre.n;
	a->post[c->nins] = post.n;
	/* one array: the stores after the reloads */
	a->ops = xmalloc(((size_t)pre.n + (size_t)post.n + 1) * sizeof *a->ops);
	if (pre.n)
		memcpy(a->ops, pre.v, (size_t)pre.n * sizeof *a->ops);
	if (post.n)
		memcpy(a->ops + pre.n, post.v, (size_t)post.n * sizeof *a->ops);
	for (int32_t pc = 0; pc <= c->nins; pc++)
		a->post[pc] += pre.n;
	free(pre.v), free(post.v);
	if (ai->base && a->nshared > 0) { /* the warp's base: warpid converted, times its region (Sampaio's setup code) */
		Emit e = {0};
		emit(&e, SO_ALU, SR_SETUP, SM_ADD, base, -1, -1, -1);
		emit(&e, SO_ALU, SR_SETUP, SM_MUL, base, base, -1, -1);
		memcpy(a->setup, e.v, 2 * sizeof *e.v);
		a->nsetup = 2;
		free(e.v);
	}
	free(phys);
	return a;
}

void regalloc_free(SmAlloc *a)
{
	if (!a)
		return;
	for (int32_t v = 0; v < a->code.prog->nvars; v++)
		num_free(&a->var[v].c1), num_free(&a->var[v].c0);
	free(a->var);
	free(a->code.ins);
	free(a->pre);
	free(a->post);
	free(a->ops);
	free(a);
}

/* ---- executing it ------------------------------------------------------- */

/* Spill memory: its own words (a spill never aliases the program's local[]
** or mem[]), at these word addresses for the hierarchy's timing. */
#define SPILL_LOCAL_BASE (INT64_C(1) << 36)
#define SPILL_SHARED_BASE (INT64_C(1) << 36)

struct SpillRun {
	const SmAlloc *a;
	int32_t nthreads, nwarps, nw;
	Num *local;          /* nlocal × nthreads */
	uint8_t *local_set;
	Num *shared;         /* nwarps × nshared */
	uint8_t *shared_set;
	int32_t *setup_i, *pre_i, *post_pc, *post_i; /* per warp: where it is in the spill code */
	uint64_t *post_lanes; /* per warp: the lanes of the instruction whose stores are due */
};

SpillRun *spill_new(const SmAlloc *a, const Machine *m)
{
	SpillRun *s = xcalloc(1, sizeof *s);
	s->a = a;
	s->nthreads = m->nthreads;
	s->nwarps = m->nwarps;
	s->nw = 1;
	for (int32_t w = 0; w < m->nwarps; w++)
		if (m->warps[w].nw > s->nw)
			s->nw = m->warps[w].nw;
	size_t nl = (size_t)a->nlocal * (size_t)m->nthreads, ns = (size_t)a->nshared * (size_t)m->nwarps;
	s->local = xcalloc(nl + 1, sizeof *s->local);
	s->local_set = xcalloc(nl + 1, 1);
	s->shared = xcalloc(ns + 1, sizeof *s->shared);
	s->shared_set = xcalloc(ns + 1, 1);
	size_t nwp = (size_t)m->nwarps + 1;
	s->setup_i = xcalloc(nwp, sizeof *s->setup_i);
	s->pre_i = xcalloc(nwp, sizeof *s->pre_i);
	s->post_pc = xmalloc(nwp * sizeof *s->post_pc);
	s->post_i = xcalloc(nwp, sizeof *s->post_i);
	for (int32_t w = 0; w < m->nwarps; w++)
		s->post_pc[w] = -1;
	s->post_lanes = xcalloc(nwp * (size_t)s->nw, sizeof *s->post_lanes);
	return s;
}

void spill_free(SpillRun *s)
{
	if (!s)
		return;
	size_t nl = (size_t)s->a->nlocal * (size_t)s->nthreads, ns = (size_t)s->a->nshared * (size_t)s->nwarps;
	for (size_t i = 0; i < nl; i++)
		num_free(&s->local[i]);
	for (size_t i = 0; i < ns; i++)
		num_free(&s->shared[i]);
	free(s->local), free(s->local_set), free(s->shared), free(s->shared_set);
	free(s->setup_i), free(s->pre_i), free(s->post_pc), free(s->post_i), free(s->post_lanes);
	free(s);
}

const SpillOp *spill_next(const SpillRun *s, const Warp *W, int32_t w)
{
	const SmAlloc *a = s->a;
	if (s->setup_i[w] < a->nsetup)
		return &a->setup[s->setup_i[w]];
	if (s->post_pc[w] >= 0)
		return &a->ops[a->post[s->post_pc[w]] + s->post_i[w]];
	int32_t pc = W->pc;
	if (pc >= 0 && pc < a->code.nins && s->pre_i[w] < a->pre[pc + 1] - a->pre[pc])
		return &a->ops[a->pre[pc] + s->pre_i[w]];
	return NULL;
}

const uint64_t *spill_lanes(const SpillRun *s, const Warp *W, int32_t w)
{
	if (s->setup_i[w] >= s->a->nsetup && s->post_pc[w] >= 0)
		return &s->post_lanes[(size_t)w * (size_t)s->nw];
	return W->active;
}

void spill_issued(SpillRun *s, int32_t w)
{
	const SmAlloc *a = s->a;
	if (s->setup_i[w] < a->nsetup) {
		s->setup_i[w]++;
	} else if (s->post_pc[w] >= 0) {
		int32_t pc = s->post_pc[w];
		if (++s->post_i[w] >= a->post[pc + 1] - a->post[pc])
			s->post_pc[w] = -1, s->post_i[w] = 0;
	} else {
		s->pre_i[w]++;
	}
}

/* c1·tid + c0 of thread t (NULL c1: c0), into *out (owned). */
static bool affine_value(const Machine *m, Num c1, Num c0, int32_t t, Num *out)
{
	Num prod = NUM_I(0);
	if (num_binop(BIN_MUL, c1, NUM_I(sem_special(m, SPEC_TID, t)), &prod) != NUM_OK)
		return false;
	NumErr e = num_binop(BIN_ADD, prod, c0, out);
	num_free(&prod);
	return e == NUM_OK;
}

void spill_reload(SpillRun *s, Machine *m, const Warp *W)
{
	const SmAlloc *a = s->a;
	if (W->pc < 0 || W->pc >= a->code.nins || a->pre[W->pc] == a->pre[W->pc + 1])
		return; /* nothing of it spilled */
	const Ins *ins = &m->prog->ins[W->pc];
	const Opnd *o[3] = {&ins->a, &ins->b, &ins->c};
	int32_t w = (int32_t)(W - m->warps);
	for (int q = 0; q < 3; q++) {
		if (o[q]->kind != OPND_VAR)
			continue;
		int32_t v = o[q]->var;
		const RaVar *rv = &a->var[v];
		if (rv->home == RH_REG || (q > 0 && o[q - 1]->kind == OPND_VAR && o[q - 1]->var == v) ||
		    (q > 1 && o[0]->kind == OPND_VAR && o[0]->var == v))
			continue;
		for (int32_t l = 0; l < W->size; l++) {
			if (!bit_get(W->active, l))
				continue;
			int32_t t = W->base + l;
			Num cur, val = NUM_I(0);
			if (!sem_get(m, v, t, &cur))
				continue; /* unassigned: the step reports it */
			size_t li = (size_t)rv->slot * (size_t)s->nthreads + (size_t)t;
			size_t si = (size_t)w * (size_t)a->nshared + (size_t)rv->slot;
			bool ok = true;
			switch ((RaHome)rv->home) {
			case RH_LOCAL:
				ok = s->local_set[li];
				if (ok)
					val = num_copy(s->local[li]);
				break;
			case RH_SHARED:
				ok = s->shared_set[si];
				if (ok)
					val = num_copy(s->shared[si]);
				break;
			case RH_CONST:
				val = num_copy(rv->c0);
				break;
			case RH_REMAT:
				ok = affine_value(m, rv->c1, rv->c0, t, &val);
				break;
			case RH_AFFINE:
				ok = s->shared_set[si] && affine_value(m, rv->c1, s->shared[si], t, &val);
				break;
			case RH_REG:
				ok = false;
				break;
			}
			if (ok)
				sem_set_lane(m, v, t, val);
		}
	}
}

void spill_stored(SpillRun *s, const Machine *m, int32_t w, int32_t pc, const uint64_t *active)
{
	const SmAlloc *a = s->a;
	s->pre_i[w] = 0;
	int32_t v = m->prog->ins[pc].dst;
	if (v < 0 || a->var[v].home == RH_REG)
		return;
	const RaVar *rv = &a->var[v];
	const Warp *W = &m->warps[w];
	for (int32_t l = 0; l < W->size; l++) {
		if (!bit_get(active, l))
			continue;
		int32_t t = W->base + l;
		Num cur;
		if (!sem_get(m, v, t, &cur))
			continue;
		size_t li = (size_t)rv->slot * (size_t)s->nthreads + (size_t)t;
		size_t si = (size_t)w * (size_t)a->nshared + (size_t)rv->slot;
		if (rv->home == RH_LOCAL) {
			num_free(&s->local[li]);
			s->local[li] = num_copy(cur);
			s->local_set[li] = 1;
		} else if (rv->home == RH_SHARED) { /* every lane writes the word: the last one's stays */
			num_free(&s->shared[si]);
			s->shared[si] = num_copy(cur);
			s->shared_set[si] = 1;
		} else if (rv->home == RH_AFFINE) { /* x = v - c·tid */
			Num neg = NUM_I(0), x = NUM_I(0);
			if (num_unop(UN_NEG, rv->c1, &neg) == NUM_OK && affine_value(m, neg, cur, t, &x)) {
				num_free(&s->shared[si]);
				s->shared[si] = x;
				s->shared_set[si] = 1;
			}
			num_free(&neg);
		}
	}
	if (a->post[pc + 1] > a->post[pc]) {
		s->post_pc[w] = pc;
		s->post_i[w] = 0;
		memcpy(&s->post_lanes[(size_t)w * (size_t)s->nw], active, (size_t)W->nw * sizeof *active);
	}
}

int64_t spill_address(const SpillRun *s, const SpillOp *op, int32_t w)
{
	if (op->kind == SO_LD_LOCAL || op->kind == SO_ST_LOCAL)
		return SPILL_LOCAL_BASE + op->slot;
	return SPILL_SHARED_BASE + (int64_t)w * s->a->nshared + op->slot;
}
