/*
** ana.c — the coefficient lattice C (Table 3.6 of seed 001), the classes,
** printing, the dispatch to the solvers (ana_simple.c, ana_poly.c), the list
** of variables a report shows and the dependence graph as Graphviz.
**
** Arithmetic on coefficients is exact (Num: int64 with an mpz slow path).
** A product or sum whose result would exceed num_max_bits cannot be
** represented; it becomes ⊥ ("no information"), which is always sound.
*/
#include "ana.h"

#include <stdlib.h>
#include <string.h>

/* ---- the coefficient lattice C ------------------------------------------ */

Coef coef_top(void) { return (Coef){.kind = COEF_TOP, .n = NUM_I(0)}; }
Coef coef_bot(void) { return (Coef){.kind = COEF_BOT, .n = NUM_I(0)}; }
Coef coef_int(Num n) { return (Coef){.kind = COEF_INT, .n = n}; }

Coef coef_copy(Coef a)
{
	if (a.kind != COEF_INT)
		return (Coef){.kind = a.kind, .n = NUM_I(0)};
	return coef_int(num_copy(a.n));
}

void coef_free(Coef *a)
{
	if (a->n.z) /* small values own nothing: no call on the solver's hot path */
		num_free(&a->n);
	a->n.i = 0;
	a->kind = COEF_TOP;
}

bool coef_eq(Coef a, Coef b)
{
	if (a.kind != b.kind)
		return false;
	return a.kind != COEF_INT || num_eq(a.n, b.n);
}

bool coef_is_zero(Coef a) { return a.kind == COEF_INT && num_is_zero(a.n); }

/* ∧: ⊤ ∧ x = x, c ∧ c = c, c ∧ c' = ⊥ (c ≠ c'), ⊥ ∧ x = ⊥ */
Coef coef_meet(Coef a, Coef b)
{
	if (a.kind == COEF_TOP)
		return coef_copy(b);
	if (b.kind == COEF_TOP)
		return coef_copy(a);
	if (a.kind == COEF_BOT || b.kind == COEF_BOT || !num_eq(a.n, b.n))
		return coef_bot();
	return coef_copy(a);
}

/* Table 3.6 leaves ⊤ out of + and × (strict programs never reach it); we
** give ⊤ for a ⊤ operand, so that an unevaluated value stays unevaluated. */
Coef coef_add(Coef a, Coef b)
{
	if (a.kind == COEF_TOP || b.kind == COEF_TOP)
		return coef_top();
	if (a.kind == COEF_BOT || b.kind == COEF_BOT)
		return coef_bot();
	Num r;
	if (num_binop(BIN_ADD, a.n, b.n, &r) != NUM_OK)
		return coef_bot(); /* beyond num_max_bits */
	return coef_int(r);
}

Coef coef_mul(Coef a, Coef b)
{
	if (a.kind == COEF_TOP || b.kind == COEF_TOP)
		return coef_top();
	if (coef_is_zero(a) || coef_is_zero(b))
		return coef_int(NUM_I(0)); /* 0 × ⊥ = ⊥ × 0 = 0 */
	if (a.kind == COEF_BOT || b.kind == COEF_BOT)
		return coef_bot();
	Num r;
	if (num_binop(BIN_MUL, a.n, b.n, &r) != NUM_OK)
		return coef_bot();
	return coef_int(r);
}

Coef coef_neg(Coef a)
{
	if (a.kind != COEF_INT)
		return (Coef){.kind = a.kind, .n = NUM_I(0)};
	Num r;
	if (num_unop(UN_NEG, a.n, &r) != NUM_OK)
		return coef_bot();
	return coef_int(r);
}

void coef_print(Buf *b, Coef a, bool ascii)
{
	switch (a.kind) {
	case COEF_TOP: buf_puts(b, ascii ? "top" : "⊤"); break;
	case COEF_BOT: buf_puts(b, ascii ? "bot" : "⊥"); break;
	default: num_buf(b, a.n); break;
	}
}

/* ---- classes ----------------------------------------------------------- */

/* ORDER VarClass */
static const char *const class_names[CLASS__COUNT] = {
	"undefined", "constant", "uniform", "constant-affine", "affine", "polynomial", "divergent",
};

const char *ana_class_name(VarClass c)
{
	return (unsigned)c < CLASS__COUNT ? class_names[c] : "?";
}

/* ---- def-use lists ------------------------------------------------------- */

const Opnd *ana_operand(const Ins *ins, int32_t k)
{
	/* a, b, c that are operands (not NONE, not a nested γ), then the rest */
#define FIXED(o)                                                                            \
	if ((o).kind != OPND_NONE && (o).kind != OPND_GATE && k-- == 0)                         \
		return &(o);
	FIXED(ins->a)
	FIXED(ins->b)
	FIXED(ins->c)
#undef FIXED
	if (ins->op != OP_GAMMA)
		return ins->args && k < ins->nargs ? &ins->args[k] : NULL;
	/* a γ tree's nodes (at most 3·IR_GATE_MAX_DEPTH·… operands, few):
	** skip the gate operands, whose nodes are listed themselves */
	for (int32_t j = 0; ins->args && j < ins->nargs; j++) {
		if (ins->args[j].kind == OPND_GATE)
			continue;
		if (k-- == 0)
			return &ins->args[j];
	}
	return NULL;
}

/* Calls f(var) once per distinct variable the instruction reads. Operand
** lists are short except for μ/φ, where a small dedup by "last seen" is
** enough: `seen` holds, per variable, the last pc that reported it. */
void ana_uses_build(const Program *p, AnaUses *u)
{
	int32_t nv = p->nvars;
	int32_t *seen = xmalloc(((size_t)nv + 1) * sizeof *seen);
	for (int32_t v = 0; v < nv; v++)
		seen[v] = -1;
	u->start = xcalloc((size_t)nv + 2, sizeof *u->start);
	int32_t *fill = NULL;
	/* pass 0 counts the uses of each variable, pass 1 files them */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			for (int32_t v = 0; v < nv; v++)
				u->start[v + 1] += u->start[v];
			size_t total = (size_t)u->start[nv];
			u->pc = xmalloc((total ? total : 1) * sizeof *u->pc);
			fill = xmalloc(((size_t)nv + 1) * sizeof *fill);
			for (int32_t v = 0; v < nv; v++) {
				fill[v] = u->start[v];
				seen[v] = -1;
			}
		}
		for (int32_t pc = 0; pc < p->nins; pc++) {
			const Ins *ins = &p->ins[pc];
			const Opnd *o;
			for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
				if (o->kind != OPND_VAR || o->var < 0 || o->var >= nv || seen[o->var] == pc)
					continue;
				seen[o->var] = pc;
				if (pass == 0)
					u->start[o->var + 1]++;
				else
					u->pc[fill[o->var]++] = pc;
			}
		}
	}
	free(fill);
	free(seen);
}

void ana_uses_free(AnaUses *u)
{
	free(u->start);
	free(u->pc);
	u->start = u->pc = NULL;
}

/* ---- running ------------------------------------------------------------- */

AnaResult *ana_run(const Program *gsa, const AnaOptions *o)
{
	/* degree: N ≥ 0; beyond 65535 we refuse (the value arrays are
	** nvars × (N + 1) coefficients and a product costs O(N²)) */
	if (!gsa || !o || (o->domain == ANA_POLY && (o->degree < 0 || o->degree > 65535)))
		return NULL;
	AnaResult *r = xcalloc(1, sizeof *r);
	r->prog = gsa;
	r->opt = *o;
	r->nvars = gsa->nvars;
	r->cls = xcalloc((size_t)gsa->nvars + 1, sizeof *r->cls);
	r->branch_divergent = xcalloc((size_t)gsa->nins + 1, sizeof *r->branch_divergent);
	if (o->domain != ANA_DATA_ONLY)
		ana_ctl_build(gsa, &r->ctl);
	if (o->domain == ANA_POLY)
		ana_poly_solve(r);
	else
		ana_simple_solve(r);
	return r;
}

void ana_free(AnaResult *r)
{
	if (!r)
		return;
	if (r->coef) {
		size_t n = (size_t)r->nvars * (size_t)(r->opt.degree + 1);
		for (size_t i = 0; i < n; i++)
			coef_free(&r->coef[i]);
		free(r->coef);
	}
	free(r->cls);
	free(r->branch_divergent);
	ana_ctl_free(&r->ctl);
	free(r);
}

/* ---- printing -------------------------------------------------------------- */

/* A polynomial is printed piece by piece into a small line (one buf_putn
** per variable of a report, not one call per piece). */
typedef struct PolyLine {
	Buf *b;
	char s[192];
	size_t n;
} PolyLine;

static void pl_flush(PolyLine *l)
{
	buf_putn(l->b, l->s, l->n);
	l->n = 0;
}

static void pl_put(PolyLine *l, const char *s, size_t n)
{
	if (l->n + n > sizeof l->s) {
		pl_flush(l);
		if (n > sizeof l->s) {
			buf_putn(l->b, s, n);
			return;
		}
	}
	for (size_t i = 0; i < n; i++) /* short pieces: cheaper than memcpy */
		l->s[l->n + i] = s[i];
	l->n += n;
}

static void pl_str(PolyLine *l, const char *s)
{
	pl_put(l, s, strlen(s));
}

static void pl_int(PolyLine *l, uint64_t u, bool neg)
{
	char tmp[24];
	size_t n = sizeof tmp;
	do
		tmp[--n] = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (neg)
		tmp[--n] = '-';
	pl_put(l, tmp + n, sizeof tmp - n);
}

static void put_superscript(PolyLine *l, int32_t k)
{
	static const char *const sup[10] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
	char digits[16];
	int n = 0;
	do {
		digits[n++] = (char)('0' + k % 10);
		k /= 10;
	} while (k > 0 && n < 15);
	while (n > 0) {
		pl_str(l, sup[digits[--n] - '0']);
	}
}

static void pl_coef(PolyLine *l, Coef a, bool ascii)
{
	if (a.kind == COEF_TOP)
		pl_str(l, ascii ? "top" : "⊤");
	else if (a.kind == COEF_BOT)
		pl_str(l, ascii ? "bot" : "⊥");
	else if (!a.n.z)
		pl_int(l, a.n.i < 0 ? -(uint64_t)a.n.i : (uint64_t)a.n.i, a.n.i < 0);
	else {
		pl_flush(l);
		coef_print(l->b, a, ascii);
	}
}

/* a_n·T^n + … + a_0 from coefficients stored a_0 first */
static void print_poly(Buf *b, const Coef *a, int32_t n, bool ascii)
{
	PolyLine l; /* l.s is written before it is read */
	l.b = b;
	l.n = 0;
	for (int32_t k = n; k >= 0; k--) {
		pl_coef(&l, a[k], ascii);
		if (k >= 1)
			pl_str(&l, ascii ? "*T" : "·T");
		if (k >= 2) {
			if (ascii) {
				pl_str(&l, "^");
				pl_int(&l, (uint64_t)k, false);
			} else
				put_superscript(&l, k);
		}
		if (k > 0)
			pl_str(&l, " + ");
	}
	pl_flush(&l);
}

void ana_print_value(Buf *b, const AnaResult *r, int32_t var, bool ascii)
{
	if (r->opt.domain != ANA_POLY) {
		VarClass c = r->cls[var];
		buf_puts(b, c == CLASS_UNDEFINED ? (ascii ? "top" : "⊤") : c == CLASS_DIVERGENT ? "D" : "U");
		return;
	}
	print_poly(b, ana_coef(r, var, 0), r->opt.degree, ascii);
}

static int cmp_param(const void *x, const void *y, const Program *p)
{
	const Var *a = &p->vars[*(const int32_t *)x], *b = &p->vars[*(const int32_t *)y];
	if (a->loc.line != b->loc.line)
		return a->loc.line < b->loc.line ? -1 : 1;
	if (a->loc.off != b->loc.off) /* on one line: the column's order */
		return a->loc.off < b->loc.off ? -1 : 1;
	int32_t i = *(const int32_t *)x, j = *(const int32_t *)y;
	return (i > j) - (i < j);
}

int32_t ana_listed_vars(const Program *p, int32_t **out)
{
	int32_t nv = p->nvars, n = 0;
	int32_t *list = xmalloc(((size_t)nv + 1) * sizeof *list);
	bool *listed = xcalloc((size_t)nv + 1, sizeof *listed);
	/* parameters in declaration order (insertion sort by location: few) */
	for (int32_t v = 0; v < nv; v++) {
		if (!p->vars[v].is_param)
			continue;
		int32_t j = n++;
		list[j] = v;
		while (j > 0 && cmp_param(&list[j - 1], &list[j], p) > 0) {
			int32_t t = list[j - 1];
			list[j - 1] = list[j];
			list[j] = t;
			j--;
		}
		listed[v] = true;
	}
	for (int32_t pc = 0; pc < p->nins; pc++) {
		int32_t d = p->ins[pc].dst;
		if (d >= 0 && d < nv && !listed[d]) {
			listed[d] = true;
			list[n++] = d;
		}
	}
	free(listed);
	*out = list;
	return n;
}

/* ---- Graphviz ----------------------------------------------------------------- */

static void dot_escaped(Buf *b, const char *s);

static void dot_id(Buf *b, const char *s)
{
	buf_putc(b, '"');
	dot_escaped(b, s);
	buf_putc(b, '"');
}

/* The fill of a node: the simple domains mark D grey (Figure 3.7); a poly
** result marks the class `divergent` grey and the values that depend on T
** with known coefficients (constant-affine, affine, polynomial) light grey. */
static const char *dot_fill(const AnaResult *r, VarClass c)
{
	if (c == CLASS_DIVERGENT)
		return "gray";
	if (c == CLASS_CONSTANT_AFFINE || c == CLASS_AFFINE || c == CLASS_POLYNOMIAL)
		return "lightgray";
	(void)r;
	return NULL;
}

static VarClass special_class(const AnaResult *r, Special s)
{
	bool is_t = s == SPEC_TID || s == SPEC_LANEID;
	if (r->opt.domain != ANA_POLY)
		return is_t ? CLASS_DIVERGENT : CLASS_UNIFORM;
	if (!is_t || r->opt.degree == 0)
		return is_t ? CLASS_DIVERGENT : CLASS_UNIFORM;
	return s == SPEC_TID ? CLASS_CONSTANT_AFFINE : CLASS_AFFINE;
}

/* The fixed value of a special variable (ana_poly.c), printed. */
static void special_value(Buf *b, const AnaResult *r, Special s)
{
	int32_t n = r->opt.degree;
	Coef *a = xcalloc((size_t)n + 1, sizeof *a);
	bool t = s == SPEC_TID || s == SPEC_LANEID;
	for (int32_t k = 0; k <= n; k++)
		a[k] = n == 0 || (k == 0 && s != SPEC_TID) ? coef_bot() : coef_int(NUM_I(t && k == 1));
	print_poly(b, a, n, false);
	free(a); /* small integers and ⊥ only: nothing else to free */
}

static void dot_escaped(Buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_putc(b, '\\');
		buf_putc(b, *s);
	}
}

static void dot_node(Buf *b, const char *name, const char *value, const char *fill, bool box)
{
	buf_puts(b, "  ");
	dot_id(b, name);
	if (!box && !value && !fill) {
		buf_puts(b, ";\n");
		return;
	}
	buf_puts(b, " [");
	const char *sep = "";
	if (box) {
		buf_puts(b, "shape=box");
		sep = ", ";
	}
	if (value) { /* two lines: the name, the abstract value */
		buf_printf(b, "%slabel=\"", sep);
		dot_escaped(b, name);
		buf_puts(b, "\\n");
		dot_escaped(b, value);
		buf_putc(b, '"');
		sep = ", ";
	}
	if (fill)
		buf_printf(b, "%sstyle=filled, fillcolor=%s", sep, fill);
	buf_puts(b, "];\n");
}

void ana_print_dot(Buf *b, const Program *p, const AnaResult *r)
{
	int32_t nv = p->nvars;
	buf_puts(b, "digraph dependences {\n  node [shape=ellipse];\n");
	bool spec_used[SPEC__COUNT] = {false};
	bool *shown = xcalloc((size_t)nv + 1, sizeof *shown);
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (ins->dst < 0)
			continue;
		const Opnd *o;
		for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
			if (o->kind == OPND_SPECIAL && o->special < SPEC__COUNT)
				spec_used[o->special] = true;
			else if (o->kind == OPND_VAR && o->var >= 0 && o->var < nv)
				shown[o->var] = true;
		}
	}
	for (int32_t s = 0; s < SPEC__COUNT; s++) {
		if (!spec_used[s])
			continue;
		Buf sv = {0};
		if (r && r->opt.domain == ANA_POLY)
			special_value(&sv, r, (Special)s);
		dot_node(b, ir_special_name((Special)s), r && r->opt.domain == ANA_POLY ? buf_str(&sv) : NULL,
		         r ? dot_fill(r, special_class(r, (Special)s)) : NULL, true);
		buf_free(&sv);
	}
	int32_t *list;
	int32_t n = ana_listed_vars(p, &list);
	for (int32_t i = 0; i < n; i++)
		shown[list[i]] = false; /* printed below, in the listed order */
	Buf val = {0};
	for (int32_t pass = 0; pass < 2; pass++) {
		int32_t cnt = pass == 0 ? n : nv;
		for (int32_t i = 0; i < cnt; i++) {
			int32_t v = pass == 0 ? list[i] : i;
			if (pass == 1 && !shown[v])
				continue; /* read only, never assigned: after the listed ones */
			const char *extra = NULL;
			if (r && r->opt.domain == ANA_POLY && v < r->nvars) {
				buf_reset(&val);
				ana_print_value(&val, r, v, false);
				extra = buf_str(&val);
			}
			dot_node(b, p->vars[v].name, extra, r && v < r->nvars ? dot_fill(r, r->cls[v]) : NULL, false);
		}
	}
	buf_free(&val);
	free(list);
	free(shown);
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (ins->dst < 0 || ins->dst >= nv)
			continue;
		const Opnd *o;
		for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
			if (o->kind != OPND_VAR && o->kind != OPND_SPECIAL)
				continue;
			/* one edge per source and instruction */
			bool dup = false;
			const Opnd *q;
			for (int32_t j = 0; j < k && (q = ana_operand(ins, j)) != NULL && !dup; j++)
				dup = q->kind == o->kind &&
				      (o->kind == OPND_VAR ? q->var == o->var : q->special == o->special);
			if (dup)
				continue;
			bool pred = (ins->op == OP_GAMMA || ins->op == OP_ETA) && o == &ins->a;
			buf_puts(b, "  ");
			dot_id(b, o->kind == OPND_VAR ? p->vars[o->var].name : ir_special_name((Special)o->special));
			buf_puts(b, " -> ");
			dot_id(b, p->vars[ins->dst].name);
			buf_puts(b, pred ? " [style=dashed];\n" : ";\n");
		}
	}
	buf_puts(b, "}\n");
}

/* ---- the shared worklist ------------------------------------------------ */

void ana_queue_init(AnaQueue *w, const Program *p)
{
	int32_t n = p->nins;
	*w = (AnaQueue){.p = p, .n = n};
	w->q = xmalloc(((size_t)n + 1) * sizeof *w->q);
	w->in = xcalloc((size_t)n + 1, sizeof *w->in);
	for (int32_t pc = 0; pc < n; pc++)
		if (p->ins[pc].dst >= 0) {
			w->q[w->count++] = pc;
			w->in[pc] = true;
		}
}

bool ana_queue_pop(AnaQueue *w, int32_t *pc)
{
	if (w->count == 0)
		return false;
	*pc = w->q[w->head];
	w->head = w->head + 1 == w->n ? 0 : w->head + 1;
	w->count--;
	w->in[*pc] = false;
	w->pops++;
	return true;
}

void ana_queue_readers(AnaQueue *w, const AnaUses *u, int32_t v)
{
	for (int32_t i = u->start[v]; i < u->start[v + 1]; i++) {
		int32_t q = u->pc[i];
		if (w->in[q] || w->p->ins[q].dst < 0)
			continue;
		w->in[q] = true;
		w->q[(w->head + w->count) % w->n] = q;
		w->count++;
	}
}

void ana_queue_push(AnaQueue *w, int32_t q)
{
	if (q < 0 || q >= w->n || w->in[q] || w->p->ins[q].dst < 0)
		return;
	w->in[q] = true;
	w->q[(w->head + w->count) % w->n] = q;
	w->count++;
}

void ana_queue_free(AnaQueue *w)
{
	free(w->q);
	free(w->in);
}
