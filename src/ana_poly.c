/*
** ana_poly.c — the divergence analysis with polynomial constraints of
** degree N (seed 001 §3.5, Figure 3.8 for N = 1; analyses.md §3).
**
** A value is a_N·T^N + … + a_1·T + a_0, coefficients in C = ℤ ∪ {⊤, ⊥}
** (Table 3.6, ana.c), stored a_0 first. Every variable starts all-⊤; a
** value is either all-⊤ (not evaluated yet) or has no ⊤ coefficient, since
** only μ and γ combine a ⊤ operand (with the meet, whose identity it is).
**
** Operands: a literal c is 0·T + c (CNTA); tid 1·T + 0 (TIDA/ASGA);
** laneid 1·T + ⊥; warpid, ntid, nwarps, warpsize and parameters 0·T + ⊥.
** At degree 0 a polynomial of degree 1 does not fit: tid and laneid are ⊥.
**
** Rules, per instruction defining v ("uniform" = a_k = 0 for all k ≥ 1):
**   atomics, local loads (ATMA), a plain φ left by the user: all ⊥;
**   copy (ASGA): the operand;
**   +  (SUMA): coefficient-wise +;
**   −  coefficient-wise (A3) unless opt.sub_generic (then generic ⊕);
**   unary − : exact coefficient-wise negation unless opt.sub_generic;
**   ×  (MLCA generalised): c_k = Σ_{i+j=k} a_i × b_j with Table 3.6's ×
**      and +; if some a_i × b_j with i + j > N is not the integer 0, all ⊥
**      (MLVA generalised);
**   <, <=, >, >=, ==, != : GBZA when both operands are uniform (so two
**      constants fold to 0 or 1); else, unless opt.no_cmp_rule, CMPA: when
**      o1 − o2 (coefficient-wise) is uniform the result is 0·T + ⊥ — not
**      folded, even when o1 − o2 is a known constant; else GBNA (all ⊥);
**   every other operator (/ % & | ^ << >> && || min max, unary ! ~):
**      GBZA/GUZA when the operands are uniform: 0·T + (a_0 ⊕ b_0) — ⊥ if
**      either a_0 is ⊥; else GBNA/GUNA: all ⊥;
**   shared load ↓a (LDUA/LDDA): a uniform ⇒ 0·T + ⊥, else all ⊥;
**   μ (RMUA): the meet of the operands;
**   γ(p, o1, o2), η(p, o): p ⊤: wait; p uniform: o1 ∧ o2 / o (GAMA,
**      ETAA); p not uniform: all ⊥ (PDVA).
** Every instruction but μ and γ waits (stays ⊤) while an operand is ⊤.
**
** Folding (a_0 ⊕ b_0 on integers, num_binop): a division or remainder by
** zero, a negative shift count, or a result beyond num_max_bits gives a_0 =
** ⊥, that is 0·T + ⊥. (A5: ⊥; taking the coefficient ⊥ rather than an
** all-⊥ value keeps the transfer function monotone: during the iteration
** `s / d` may be folded while d is still the constant 0 of the loop entry,
** and must only move down when d becomes 0·T + ⊥. At run time the
** operation is an error, so no value is unsound.)
**
** Solver: chaotic iteration with a worklist of instructions (pc order
** first) and def-use lists; a variable's new value is met with its old
** one, which changes nothing for a single definition (transfer functions
** are monotone) and makes a non-GSA input (several definitions) terminate
** too. Each coefficient can only move ⊤ → c → ⊥, so every instruction is
** re-evaluated O(N) times.
*/
#include "ana.h"

#include <stdlib.h>
#include <string.h>

typedef struct Poly {
	AnaResult *r;
	const Program *p;
	int32_t n;      /* degree */
	int32_t w;      /* n + 1 coefficients per value */
	Coef *val;      /* = r->coef */
	Coef *spec;     /* SPEC__COUNT fixed values */
	Coef *lit[3];   /* scratch values for literal operands */
	Coef *out;      /* the instruction's result */
} Poly;

/* ---- values --------------------------------------------------------------- */

static void vset(Coef *dst, Coef c) /* frees what dst held, takes c */
{
	coef_free(dst);
	*dst = c;
}

static void all_bot(const Poly *s, Coef *v)
{
	for (int32_t k = 0; k < s->w; k++)
		vset(&v[k], coef_bot());
}

static void all_top(const Poly *s, Coef *v)
{
	for (int32_t k = 0; k < s->w; k++)
		vset(&v[k], coef_top());
}

/* 0·T^n + … + 0·T + a0 (takes a0) */
static void set_uniform(const Poly *s, Coef *v, Coef a0)
{
	vset(&v[0], a0);
	for (int32_t k = 1; k < s->w; k++)
		vset(&v[k], coef_int(NUM_I(0)));
}

static void vcopy(const Poly *s, Coef *dst, const Coef *src)
{
	for (int32_t k = 0; k < s->w; k++)
		vset(&dst[k], coef_copy(src[k]));
}

static bool has_top(const Poly *s, const Coef *v)
{
	for (int32_t k = 0; k < s->w; k++)
		if (v[k].kind == COEF_TOP)
			return true;
	return false;
}

static bool is_uniform(const Poly *s, const Coef *v)
{
	for (int32_t k = 1; k < s->w; k++)
		if (!coef_is_zero(v[k]))
			return false;
	return true;
}

/* a − b on coefficients */
static Coef coef_sub(Coef a, Coef b)
{
	Coef nb = coef_neg(b);
	Coef r = coef_add(a, nb);
	coef_free(&nb);
	return r;
}

/* a_0 ⊕ b_0: ⊥ when either is ⊥ or the operation has no result */
static Coef fold2(BinOp op, Coef a, Coef b)
{
	if (a.kind != COEF_INT || b.kind != COEF_INT)
		return coef_bot();
	Num r;
	if (num_binop(op, a.n, b.n, &r) != NUM_OK)
		return coef_bot();
	return coef_int(r);
}

static Coef fold1(UnOp op, Coef a)
{
	if (a.kind != COEF_INT)
		return coef_bot();
	Num r;
	if (num_unop(op, a.n, &r) != NUM_OK)
		return coef_bot();
	return coef_int(r);
}

/* ---- operands ----------------------------------------------------------------- */

static void init_specials(Poly *s)
{
	s->spec = xcalloc((size_t)SPEC__COUNT * (size_t)s->w, sizeof *s->spec);
	for (int32_t sp = 0; sp < SPEC__COUNT; sp++) {
		Coef *v = &s->spec[sp * s->w];
		bool t = sp == SPEC_TID || sp == SPEC_LANEID;
		if (t && s->n == 0) {
			all_bot(s, v);
			continue;
		}
		set_uniform(s, v, sp == SPEC_TID ? coef_int(NUM_I(0)) : coef_bot());
		if (t)
			vset(&v[1], coef_int(NUM_I(1)));
	}
}

/* The value of operand o; slot (0..2) is the scratch a literal uses. */
static const Coef *opnd(Poly *s, const Opnd *o, int slot)
{
	switch (o->kind) {
	case OPND_VAR: return &s->val[(size_t)o->var * (size_t)s->w];
	case OPND_SPECIAL: return &s->spec[(size_t)o->special * (size_t)s->w];
	default: set_uniform(s, s->lit[slot], coef_int(num_copy(ir_lit(s->p, o)))); return s->lit[slot];
	}
}

/* ---- transfer functions ------------------------------------------------------- */

static void poly_mul(Poly *s, Coef *out, const Coef *a, const Coef *b)
{
	int32_t n = s->n;
	/* beyond degree n: every a_i × b_j with i + j > n must be the integer 0 */
	for (int32_t i = 1; i <= n; i++) {
		if (coef_is_zero(a[i]))
			continue;
		for (int32_t j = n - i + 1; j <= n; j++) {
			Coef c = coef_mul(a[i], b[j]);
			bool zero = coef_is_zero(c);
			coef_free(&c);
			if (!zero) {
				all_bot(s, out);
				return;
			}
		}
	}
	for (int32_t k = 0; k <= n; k++) {
		Coef sum = coef_int(NUM_I(0));
		for (int32_t i = 0; i <= k; i++) {
			Coef c = coef_mul(a[i], b[k - i]);
			Coef t = coef_add(sum, c);
			coef_free(&c);
			coef_free(&sum);
			sum = t;
		}
		vset(&out[k], sum);
	}
}

static bool is_cmp(BinOp op) { return op >= BIN_LT && op <= BIN_NE; }

static void eval_binary(Poly *s, const Ins *ins, Coef *out, const Coef *a, const Coef *b)
{
	BinOp op = (BinOp)ins->sub;
	const AnaOptions *o = &s->r->opt;
	if (op == BIN_ADD || (op == BIN_SUB && !o->sub_generic)) {
		for (int32_t k = 0; k < s->w; k++)
			vset(&out[k], op == BIN_ADD ? coef_add(a[k], b[k]) : coef_sub(a[k], b[k]));
		return;
	}
	if (op == BIN_MUL) {
		poly_mul(s, out, a, b);
		return;
	}
	if (is_uniform(s, a) && is_uniform(s, b)) { /* GBZA */
		set_uniform(s, out, fold2(op, a[0], b[0]));
		return;
	}
	if (is_cmp(op) && !o->no_cmp_rule) { /* CMPA */
		bool uni = true;
		for (int32_t k = 1; k < s->w && uni; k++) {
			Coef d = coef_sub(a[k], b[k]);
			uni = coef_is_zero(d);
			coef_free(&d);
		}
		if (uni) {
			set_uniform(s, out, coef_bot());
			return;
		}
	}
	all_bot(s, out); /* GBNA */
}

/* Evaluate the instruction into s->out (all-⊤ when it waits). */
static void eval(Poly *s, const Ins *ins)
{
	Coef *out = s->out;
	switch (ins->op) {
	case OP_PHI:
	case OP_MU: {
		/* the meet of the operands; the sync set of its block (ana_ctl.c)
		** makes it divergent when a branch that chooses the edge is (a φ,
		** a μ with several back edges) */
		all_top(s, out);
		for (int32_t i = 0; i < ins->nargs; i++) {
			const Coef *x = opnd(s, &ins->args[i], 0);
			for (int32_t k = 0; k < s->w; k++)
				vset(&out[k], coef_meet(out[k], x[k]));
		}
		return;
	}
	case OP_LLOAD:
	case OP_ATOMINC:
	case OP_ATOMADD:
	case OP_ATOMCAS:
	case OP_ATOMEXCH:
		all_bot(s, out);
		return;
	case OP_GAMMA: {
		/* the predicates of the tree first: GAMA needs them all uniform,
		** PDVA fires on any that is not; ⊤ waits */
		const Opnd *o;
		bool div = false;
		for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
			if (!ir_gate_is_pred(ins, o))
				continue;
			const Coef *p = opnd(s, o, 0);
			if (has_top(s, p)) {
				all_top(s, out);
				return;
			}
			div |= !is_uniform(s, p);
		}
		if (div) { /* PDVA */
			all_bot(s, out);
			return;
		}
		all_top(s, out); /* GAMA: the meet of the values, ⊤ its identity */
		for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
			if (ir_gate_is_pred(ins, o))
				continue;
			const Coef *x = opnd(s, o, 1);
			for (int32_t j = 0; j < s->w; j++)
				vset(&out[j], coef_meet(out[j], x[j]));
		}
		return;
	}
	case OP_ETA: {
		const Coef *p = opnd(s, &ins->a, 0);
		if (has_top(s, p)) {
			all_top(s, out);
			return;
		}
		if (!is_uniform(s, p)) { /* PDVA */
			all_bot(s, out);
			return;
		}
		vcopy(s, out, opnd(s, &ins->b, 1)); /* ETAA */
		return;
	}
	default:
		break;
	}
	/* the rest wait while an operand is ⊤ */
	const Coef *v[3] = {NULL, NULL, NULL};
	const Opnd *o;
	int32_t nops = 0;
	for (int32_t k = 0; k < 3 && (o = ana_operand(ins, k)) != NULL; k++) {
		v[k] = opnd(s, o, k);
		if (has_top(s, v[k])) {
			all_top(s, out);
			return;
		}
		nops++;
	}
	switch (ins->op) {
	case OP_COPY:
		vcopy(s, out, v[0]);
		return;
	case OP_UNARY:
		if (ins->sub == UN_NEG && !s->r->opt.sub_generic) {
			for (int32_t k = 0; k < s->w; k++)
				vset(&out[k], coef_neg(v[0][k]));
		} else if (is_uniform(s, v[0])) { /* GUZA */
			set_uniform(s, out, fold1((UnOp)ins->sub, v[0][0]));
		} else { /* GUNA */
			all_bot(s, out);
		}
		return;
	case OP_BINARY:
		if (nops == 2) {
			eval_binary(s, ins, out, v[0], v[1]);
			return;
		}
		break;
	case OP_LOAD: /* LDUA / LDDA */
		if (is_uniform(s, v[0]))
			set_uniform(s, out, coef_bot());
		else
			all_bot(s, out);
		return;
	default:
		break;
	}
	all_bot(s, out); /* an instruction we do not know defining a variable */
}

/* ---- classes ------------------------------------------------------------------- */

static VarClass classify(const Poly *s, const Coef *a)
{
	int32_t n = s->n;
	if (has_top(s, a))
		return CLASS_UNDEFINED;
	if (a[n].kind == COEF_BOT)
		return CLASS_DIVERGENT;
	if (is_uniform(s, a))
		return a[0].kind == COEF_INT ? CLASS_CONSTANT : CLASS_UNIFORM;
	for (int32_t k = 2; k <= n; k++)
		if (!coef_is_zero(a[k]))
			return CLASS_POLYNOMIAL;
	/* a_1 ≠ 0 here */
	if (a[1].kind == COEF_INT && a[0].kind == COEF_INT)
		return CLASS_CONSTANT_AFFINE;
	return CLASS_AFFINE;
}

/* ---- the solver ------------------------------------------------------------------ */

typedef struct CtlCtx {
	Poly *s;
	AnaQueue *wq;
} CtlCtx;

/* A control set's predicate diverges when its value is known and not uniform. */
static bool pred_div(void *ctx, const Opnd *o)
{
	Poly *s = ((CtlCtx *)ctx)->s;
	const Coef *p = opnd(s, o, 0);
	return !has_top(s, p) && !is_uniform(s, p);
}

static void gated(void *ctx, int32_t pc)
{
	ana_queue_push(((CtlCtx *)ctx)->wq, pc);
}

void ana_poly_solve(AnaResult *r)
{
	const Program *p = r->prog;
	Poly s = {.r = r, .p = p, .n = r->opt.degree, .w = r->opt.degree + 1};
	int32_t nv = p->nvars, w = s.w;
	size_t ncoef = (size_t)nv * (size_t)w;
	r->coef = xcalloc(ncoef ? ncoef : 1, sizeof *r->coef); /* all ⊤ (COEF_TOP = 0) */
	s.val = r->coef;
	init_specials(&s);
	Coef *scratch = xcalloc((size_t)4 * (size_t)w, sizeof *scratch);
	s.lit[0] = scratch;
	s.lit[1] = scratch + w;
	s.lit[2] = scratch + 2 * w;
	s.out = scratch + 3 * w;
	for (int32_t v = 0; v < nv; v++)
		if (p->vars[v].is_param)
			set_uniform(&s, &s.val[(size_t)v * (size_t)w], coef_bot());

	AnaUses u;
	ana_uses_build(p, &u);
	AnaQueue wq;
	ana_queue_init(&wq, p);
	CtlCtx cc = {&s, &wq};
	ana_ctl_update(&r->ctl, p, -1, pred_div, &cc, gated);
	int32_t pc;
	while (ana_queue_pop(&wq, &pc)) {
		const Ins *ins = &p->ins[pc];
		int32_t d = ins->dst;
		eval(&s, ins);
		if (ana_ctl_gated(&r->ctl, pc) && !has_top(&s, s.out))
			all_bot(&s, s.out); /* a divergent control set: ⊥ (as PDVA) */
		Coef *dv = &s.val[(size_t)d * (size_t)w];
		/* new = old ∧ result (= result for a single definition) */
		bool changed = false;
		for (int32_t k = 0; k < w; k++) {
			Coef m = coef_meet(dv[k], s.out[k]);
			if (!coef_eq(m, dv[k])) {
				vset(&dv[k], m);
				changed = true;
			} else {
				coef_free(&m);
			}
		}
		if (changed) {
			ana_queue_readers(&wq, &u, d);
			ana_ctl_update(&r->ctl, p, d, pred_div, &cc, gated);
		}
	}
	r->iterations = wq.pops;
	ana_queue_free(&wq);

	for (int32_t v = 0; v < nv; v++)
		r->cls[v] = classify(&s, &s.val[(size_t)v * (size_t)w]);
	/* a branch may diverge when its predicate is not constant/uniform (a ⊤
	** predicate included: no path assigns what it reads) */
	for (pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (!ir_is_branch((Op)ins->op))
			continue;
		const Coef *pv = opnd(&s, &ins->a, 0);
		VarClass c = classify(&s, pv);
		r->branch_divergent[pc] = (c != CLASS_CONSTANT && c != CLASS_UNIFORM) ||
		                          ana_read_divergent(r, pc, -1);
	}

	ana_uses_free(&u);
	for (int32_t i = 0; i < 4 * w; i++)
		coef_free(&scratch[i]);
	free(scratch);
	for (int32_t i = 0; i < SPEC__COUNT * w; i++)
		coef_free(&s.spec[i]);
	free(s.spec);
}
