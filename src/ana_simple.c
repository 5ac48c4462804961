/*
** ana_simple.c — the simple divergence analysis (seed 001 §3.4, Figure 3.6;
** analyses.md §2) and its data-only variant (no predicate edges γ/η → v).
**
** Lattice ⊤ < U < D, encoded 0 < 1 < 2 so that the meet ∧ is max.
** Rules, per instruction defining v (every non-seed rule is GBZD's meet):
**   seeds     atomics, local loads (ATMD), a plain φ left by the user (its
**             controlling branch was not found): D, whatever the operands;
**   operands  tid, laneid: D (TIDD); warpid, ntid, nwarps, warpsize,
**             literals (CNTD), parameters: U;
**   copy, unary, binary, shared load (ASGD, GBZD): ⊤ while some operand is
**             ⊤ (the instruction waits, as in ana_poly.c), else the meet;
**   μ         (RMUD) the meet of the operands, ⊤ the identity;
**   γ, η      predicate ⊤: ⊤ (wait); predicate D: D (PDVD); predicate U:
**             the meet of the operands (GAMD, ETAD). Data-only: the meet of
**             the value operands, the predicate ignored.
** A variable still ⊤ at the fixpoint is `undefined`.
**
** Two solvers, which must agree (tests/test_ana.c checks it):
** - reachability (the default, seed 001 §3.4): D = the variables reachable
**   from the seeds in the dependence graph (an edge u → v when the
**   instruction defining v reads u; predicate edges for γ/η, none for μ).
**   The ⊤ of the rules is a gate on that search: a node is entered only once
**   its instruction "fires" (is no longer ⊤): an ordinary instruction when
**   all the variables it reads are defined, μ when one is, γ/η when the
**   predicate is defined and either it is D or a value operand is defined.
**   In a program where every read variable is assigned the gate is open
**   everywhere and this is plain BFS. Each variable is queued at most twice
**   (once when defined, once when D).
** - worklist (opt.worklist): chaotic iteration of the rules above over a
**   worklist of instructions, with def-use lists.
** A variable defined by several instructions (not GSA; not expected) gets
** the meet of their results in both solvers.
*/
#include "ana.h"

#include <stdlib.h>
#include <string.h>

enum { S_TOP = 0, S_U = 1, S_D = 2 };

static bool is_seed(const Ins *ins)
{
	return ir_is_atomic((Op)ins->op) || ins->op == OP_LLOAD;
}

static uint8_t special_val(uint8_t s)
{
	return (s == SPEC_TID || s == SPEC_LANEID) ? S_D : S_U;
}

static uint8_t opnd_val(const uint8_t *val, const Opnd *o)
{
	switch (o->kind) {
	case OPND_VAR: return val[o->var];
	case OPND_SPECIAL: return special_val(o->special);
	default: return S_U; /* literal */
	}
}

static inline uint8_t meet(uint8_t a, uint8_t b) { return a > b ? a : b; }

/* ---- the worklist solver ----------------------------------------------------- */

static uint8_t eval(const Ins *ins, const uint8_t *val, bool data_only)
{
	if (is_seed(ins))
		return S_D;
	switch (ins->op) {
	case OP_MU:
	case OP_PHI: {
		uint8_t r = S_TOP;
		for (int32_t k = 0; k < ins->nargs; k++)
			r = meet(r, opnd_val(val, &ins->args[k]));
		return r;
	}
	case OP_GAMMA:
	case OP_ETA: {
		/* the values' meet; the predicates (γ: every node of its tree):
		** any ⊤ waits, any D makes it D (PDVD) */
		uint8_t r = S_TOP, p = S_U;
		const Opnd *o;
		for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
			uint8_t x = opnd_val(val, o);
			if (!ir_gate_is_pred(ins, o))
				r = meet(r, x);
			else if (x == S_TOP || p == S_TOP)
				p = S_TOP;
			else
				p = meet(p, x);
		}
		if (data_only)
			return r;
		if (p == S_TOP)
			return S_TOP;
		return p == S_D ? S_D : r;
	}
	default: {
		uint8_t r = S_U;
		const Opnd *o;
		for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
			uint8_t x = opnd_val(val, o);
			if (x == S_TOP)
				return S_TOP;
			r = meet(r, x);
		}
		return r;
	}
	}
}

typedef struct WlCtx {
	const uint8_t *val;
	AnaQueue *wq;
} WlCtx;

static bool wl_pred_div(void *ctx, const Opnd *o) { return opnd_val(((WlCtx *)ctx)->val, o) == S_D; }
static void wl_gated(void *ctx, int32_t pc) { ana_queue_push(((WlCtx *)ctx)->wq, pc); }

static void solve_worklist(AnaResult *r, uint8_t *val, const AnaUses *u)
{
	const Program *p = r->prog;
	bool data_only = r->opt.domain == ANA_DATA_ONLY;
	AnaQueue wq;
	ana_queue_init(&wq, p);
	WlCtx cc = {val, &wq};
	ana_ctl_update(&r->ctl, p, -1, wl_pred_div, &cc, wl_gated);
	int32_t pc;
	while (ana_queue_pop(&wq, &pc)) {
		const Ins *ins = &p->ins[pc];
		int32_t d = ins->dst;
		uint8_t x = eval(ins, val, data_only);
		if (x != S_TOP && ana_ctl_gated(&r->ctl, pc))
			x = S_D; /* a divergent control set (ana_ctl.c) */
		uint8_t nv = meet(val[d], x);
		if (nv == val[d])
			continue;
		val[d] = nv;
		ana_queue_readers(&wq, u, d);
		ana_ctl_update(&r->ctl, p, d, wl_pred_div, &cc, wl_gated);
	}
	r->iterations = wq.pops;
	ana_queue_free(&wq);
}

/* ---- the reachability solver ------------------------------------------------- */

typedef struct Reach {
	const Program *p;
	const AnaUses *u;
	AnaCtl *ctl;
	bool data_only;
	bool *def;    /* per variable: not ⊤ */
	bool *div;    /* per variable: D */
	bool *fired;  /* per instruction: no longer ⊤ */
	int32_t *queue; /* variables whose state changed (≤ 2 entries each) */
	int32_t qhead, qtail;
	uint64_t visited;
} Reach;

static bool opnd_def(const Reach *s, const Opnd *o) { return o->kind != OPND_VAR || s->def[o->var]; }
static bool opnd_div(const Reach *s, const Opnd *o)
{
	return o->kind == OPND_VAR ? s->div[o->var] : o->kind == OPND_SPECIAL && special_val(o->special) == S_D;
}

static void enqueue(Reach *s, int32_t v) { s->queue[s->qtail++] = v; }

/* Does instruction pc fire, given the current definedness? */
static bool fires(const Reach *s, const Ins *ins)
{
	if (is_seed(ins))
		return true;
	switch (ins->op) {
	case OP_MU:
	case OP_PHI:
		for (int32_t k = 0; k < ins->nargs; k++)
			if (opnd_def(s, &ins->args[k]))
				return true;
		return false;
	case OP_GAMMA:
	case OP_ETA: {
		bool vals = false, preds = true, div = false;
		const Opnd *o;
		for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
			if (!ir_gate_is_pred(ins, o))
				vals |= opnd_def(s, o);
			else {
				preds &= opnd_def(s, o);
				div |= opnd_div(s, o);
			}
		}
		if (s->data_only)
			return vals;
		return preds && (div || vals);
	}
	default: {
		const Opnd *o;
		for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++)
			if (!opnd_def(s, o))
				return false;
		return true;
	}
	}
}

/* Is an edge from a D operand into this (fired) instruction? The operands
** that are edges: all of them, except γ/η's predicate in data-only mode. */
static bool reads_div(const Reach *s, int32_t pc, const Ins *ins)
{
	if (is_seed(ins) || ana_ctl_gated(s->ctl, pc))
		return true;
	const Opnd *o;
	for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
		if (s->data_only && ir_gate_is_pred(ins, o))
			continue;
		if (opnd_div(s, o))
			return true;
	}
	return false;
}

/* Look at instruction pc again after one of its operands changed. */
static void visit(Reach *s, int32_t pc)
{
	const Ins *ins = &s->p->ins[pc];
	int32_t d = ins->dst;
	if (d < 0)
		return;
	if (!s->fired[pc]) {
		if (!fires(s, ins))
			return;
		s->fired[pc] = true;
		if (!s->def[d]) {
			s->def[d] = true;
			enqueue(s, d);
		}
	}
	if (!s->div[d] && reads_div(s, pc, ins)) {
		s->div[d] = true;
		enqueue(s, d);
	}
}

static bool reach_pred_div(void *ctx, const Opnd *o) { return opnd_div(ctx, o); }
static void reach_gated(void *ctx, int32_t pc) { visit(ctx, pc); }

static void solve_reach(AnaResult *r, uint8_t *val, const AnaUses *u)
{
	const Program *p = r->prog;
	int32_t nv = p->nvars;
	Reach s = {
		.p = p,
		.u = u,
		.ctl = &r->ctl,
		.data_only = r->opt.domain == ANA_DATA_ONLY,
		.def = xcalloc((size_t)nv + 1, sizeof(bool)),
		.div = xcalloc((size_t)nv + 1, sizeof(bool)),
		.fired = xcalloc((size_t)p->nins + 1, sizeof(bool)),
		.queue = xmalloc(2 * ((size_t)nv + 1) * sizeof(int32_t)),
	};
	for (int32_t v = 0; v < nv; v++) {
		if (p->vars[v].is_param) {
			s.def[v] = true;
			enqueue(&s, v);
		}
	}
	/* the sources: seeds, instructions reading only literals, specials and
	** parameters (tid → v is an edge from a source node); control sets on
	** tid or laneid */
	ana_ctl_update(s.ctl, p, -1, reach_pred_div, &s, reach_gated);
	for (int32_t pc = 0; pc < p->nins; pc++)
		visit(&s, pc);
	while (s.qhead < s.qtail) {
		int32_t v = s.queue[s.qhead++];
		s.visited++;
		for (int32_t i = u->start[v]; i < u->start[v + 1]; i++)
			visit(&s, u->pc[i]);
		if (s.div[v]) /* an edge into the control sets v is a predicate of */
			ana_ctl_update(s.ctl, p, v, reach_pred_div, &s, reach_gated);
	}
	for (int32_t v = 0; v < nv; v++)
		val[v] = s.div[v] ? S_D : s.def[v] ? S_U : S_TOP;
	r->iterations = s.visited;
	free(s.def);
	free(s.div);
	free(s.fired);
	free(s.queue);
}

void ana_simple_solve(AnaResult *r)
{
	const Program *p = r->prog;
	int32_t nv = p->nvars;
	uint8_t *val = xcalloc((size_t)nv + 1, 1);
	for (int32_t v = 0; v < nv; v++)
		if (p->vars[v].is_param)
			val[v] = S_U;
	AnaUses u;
	ana_uses_build(p, &u);
	if (r->opt.worklist)
		solve_worklist(r, val, &u);
	else
		solve_reach(r, val, &u);
	for (int32_t v = 0; v < nv; v++)
		r->cls[v] = val[v] == S_D ? CLASS_DIVERGENT : val[v] == S_U ? CLASS_UNIFORM : CLASS_UNDEFINED;
	/* a branch may diverge when its predicate is not U (⊤ included: such a
	** branch reads a variable no path assigns) */
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (ir_is_branch((Op)ins->op))
			r->branch_divergent[pc] = opnd_val(val, &ins->a) != S_U || ana_read_divergent(r, pc, -1);
	}
	ana_uses_free(&u);
	free(val);
}
