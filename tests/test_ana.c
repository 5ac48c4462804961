/*
** test_ana.c — the divergence analyses (src/ana.c, ana_simple.c, ana_poly.c)
** against /work/shared/spec/analyses.md §2–§3 and the digests: seed 001
** §5.5, §5.6, §4.6 and §11.6 T8–T13, T16; seed 003 §3 TC-DA-1..4.
**
** Abstract values are compared as strings of coefficients, highest degree
** first as the papers' tables write them: "0,1,bot" is 0·T² + 1·T + ⊥.
** Every program loaded here also goes through consistency(): the
** reachability and worklist solvers of the simple analysis (and of the
** data-only variant) must give identical classes and branch verdicts, and
** Corollary 1 (T16) must hold at degrees 1 and 2: simple U ⇒ constant or
** uniform.
*/
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ana.h"
#include "gsa.h"
#include "testlib.h"

/* ---- helpers -------------------------------------------------------------------- */

static AnaOptions simple_opt(AnaDomain d, bool worklist)
{
	AnaOptions o;
	memset(&o, 0, sizeof o);
	o.domain = d;
	o.worklist = worklist;
	return o;
}

static AnaOptions poly_opt(int32_t degree)
{
	AnaOptions o;
	memset(&o, 0, sizeof o);
	o.domain = ANA_POLY;
	o.degree = degree;
	return o;
}

static AnaResult *run(const Program *p, AnaOptions o)
{
	AnaResult *r = ana_run(p, &o);
	cr_assert_not_null(r, "ana_run failed");
	return r;
}

static AnaResult *run_simple(const Program *p) { return run(p, simple_opt(ANA_SIMPLE, false)); }
static AnaResult *run_poly(const Program *p, int32_t degree) { return run(p, poly_opt(degree)); }

static int32_t var(const Program *p, const char *name)
{
	int32_t v = ir_find_var(p, name);
	cr_assert(v >= 0, "no variable %s", name);
	return v;
}

static int32_t pc_of(const Program *p, const char *label)
{
	int32_t l = ir_find_label(p, label);
	cr_assert(l >= 0, "no label %s", label);
	return p->labels[l].ins;
}

/* "a_n,...,a_0" with "bot"/"top" (malloc'd) */
static char *coeffs(const AnaResult *r, int32_t v)
{
	Buf b = {0};
	for (int32_t k = r->opt.degree; k >= 0; k--) {
		coef_print(&b, *ana_coef(r, v, k), true);
		if (k > 0)
			buf_putc(&b, ',');
	}
	return buf_steal(&b);
}

#define EXPECT_COEFFS(r, name, want)                                                          \
	do {                                                                                      \
		char *got_ = coeffs((r), var((r)->prog, (name)));                                     \
		cr_expect_str_eq(got_, (want), "%s at degree %d: got (%s), want (%s)", (name),        \
		                 (int)(r)->opt.degree, got_, (want));                                 \
		free(got_);                                                                           \
	} while (0)

#define EXPECT_CLASS(r, name, want)                                                           \
	do {                                                                                      \
		VarClass got_ = (r)->cls[var((r)->prog, (name))];                                     \
		cr_expect_eq(got_, (want), "%s: class %s, want %s", (name), ana_class_name(got_),     \
		             ana_class_name(want));                                                   \
	} while (0)

/* simple domains: "U", "D" or "top" */
#define EXPECT_SIMPLE(r, name, want)                                                          \
	do {                                                                                      \
		Buf b_ = {0};                                                                         \
		ana_print_value(&b_, (r), var((r)->prog, (name)), true);                              \
		cr_expect_str_eq(buf_str(&b_), (want), "%s: %s, want %s", (name), buf_str(&b_),       \
		                 (want));                                                             \
		buf_free(&b_);                                                                        \
	} while (0)

#define EXPECT_BRANCH(r, label, want)                                                         \
	cr_expect_eq((r)->branch_divergent[pc_of((r)->prog, (label))], (want),                    \
	             "branch at %s: divergent should be %d", (label), (int)(want))

/* The two simple solvers agree (per domain), and Corollary 1 holds at
** degrees 1 and 2 (T16). Returns the number of simple-U variables checked. */
static int32_t consistency(const Program *p, const char *what)
{
	for (int d = 0; d < 2; d++) {
		AnaDomain dom = d == 0 ? ANA_SIMPLE : ANA_DATA_ONLY;
		AnaResult *a = run(p, simple_opt(dom, false));
		AnaResult *b = run(p, simple_opt(dom, true));
		for (int32_t v = 0; v < p->nvars; v++)
			cr_expect_eq(a->cls[v], b->cls[v], "%s (%s): %s is %s by reachability, %s by the worklist",
			             what, d ? "data-only" : "simple", p->vars[v].name, ana_class_name(a->cls[v]),
			             ana_class_name(b->cls[v]));
		for (int32_t pc = 0; pc < p->nins; pc++)
			cr_expect_eq(a->branch_divergent[pc], b->branch_divergent[pc],
			             "%s (%s): the solvers disagree on the branch at pc %d", what,
			             d ? "data-only" : "simple", (int)pc);
		ana_free(a);
		ana_free(b);
	}
	AnaResult *s = run_simple(p);
	int32_t checked = 0;
	for (int32_t deg = 1; deg <= 2; deg++) {
		AnaResult *q = run_poly(p, deg);
		for (int32_t v = 0; v < p->nvars; v++) {
			if (s->cls[v] != CLASS_UNIFORM)
				continue;
			checked++;
			cr_expect(q->cls[v] == CLASS_CONSTANT || q->cls[v] == CLASS_UNIFORM,
			          "%s: Corollary 1: %s is U in the simple analysis but %s at degree %d", what,
			          p->vars[v].name, ana_class_name(q->cls[v]), (int)deg);
		}
		for (int32_t pc = 0; pc < p->nins; pc++)
			if (ir_is_branch((Op)p->ins[pc].op) && !s->branch_divergent[pc])
				cr_expect(!q->branch_divergent[pc], "%s: Corollary 1: branch at pc %d", what, (int)pc);
		ana_free(q);
	}
	ana_free(s);
	return checked;
}

static Prog load_checked(const char *src, const char *what)
{
	Prog pr = load(src);
	consistency(pr.p, what);
	return pr;
}

/* ---- T12: Table 3.6 ----------------------------------------------------------------- */

static Coef I(int64_t x) { return coef_int(NUM_I(x)); }

static void expect_coef(Coef got, Coef want, const char *what)
{
	Buf g = {0}, w = {0};
	coef_print(&g, got, false);
	coef_print(&w, want, false);
	cr_expect(coef_eq(got, want), "%s = %s, want %s", what, buf_str(&g), buf_str(&w));
	buf_free(&g);
	buf_free(&w);
}

/* T12 (seed 001 §11.6, Table 3.6 transcribed in §4.1): ⊤∧x = x; 3∧3 = 3;
** 3∧4 = ⊥; 3∧⊥ = ⊥; 0×⊥ = 0; ⊥×0 = 0; 3×⊥ = ⊥; 3×4 = 12; 3+4 = 7; 3+⊥ = ⊥;
** ⊥+⊥ = ⊥. */
Test(ana_coef, table_3_6)
{
	Coef top = coef_top(), bot = coef_bot();
	expect_coef(coef_meet(top, I(5)), I(5), "⊤∧5");
	expect_coef(coef_meet(I(5), top), I(5), "5∧⊤");
	expect_coef(coef_meet(top, bot), bot, "⊤∧⊥");
	expect_coef(coef_meet(top, top), top, "⊤∧⊤");
	expect_coef(coef_meet(I(3), I(3)), I(3), "3∧3");
	expect_coef(coef_meet(I(3), I(4)), bot, "3∧4");
	expect_coef(coef_meet(I(3), bot), bot, "3∧⊥");
	expect_coef(coef_meet(bot, I(3)), bot, "⊥∧3");
	expect_coef(coef_mul(I(0), bot), I(0), "0×⊥");
	expect_coef(coef_mul(bot, I(0)), I(0), "⊥×0");
	expect_coef(coef_mul(I(3), bot), bot, "3×⊥");
	expect_coef(coef_mul(bot, bot), bot, "⊥×⊥");
	expect_coef(coef_mul(I(3), I(4)), I(12), "3×4");
	expect_coef(coef_mul(I(0), I(4)), I(0), "0×4");
	expect_coef(coef_add(I(3), I(4)), I(7), "3+4");
	expect_coef(coef_add(I(3), bot), bot, "3+⊥");
	expect_coef(coef_add(bot, bot), bot, "⊥+⊥");
	expect_coef(coef_neg(I(3)), I(-3), "-3");
	expect_coef(coef_neg(bot), bot, "-⊥");
	cr_expect(coef_is_zero(I(0)) && !coef_is_zero(I(1)) && !coef_is_zero(bot) && !coef_is_zero(top));
	cr_expect(!coef_eq(I(0), bot) && !coef_eq(top, bot) && coef_eq(bot, bot));
	Buf b = {0};
	coef_print(&b, top, false);
	coef_print(&b, bot, false);
	coef_print(&b, I(-7), false);
	coef_print(&b, top, true);
	coef_print(&b, bot, true);
	cr_expect_str_eq(buf_str(&b), "⊤⊥-7topbot");
	buf_free(&b);
}

/* Coefficients are arbitrary-precision (analyses.md §3). */
Test(ana_coef, bignum)
{
	Num big;
	cr_assert(num_parse("9223372036854775807", 19, &big));
	Coef a = coef_int(big);
	Coef s = coef_add(a, I(1));
	Coef m = coef_mul(s, s);
	Buf b = {0};
	coef_print(&b, s, true);
	buf_putc(&b, ' ');
	coef_print(&b, m, true);
	cr_expect_str_eq(buf_str(&b), "9223372036854775808 85070591730234615865843651857942052864");
	Coef c = coef_copy(m);
	cr_expect(coef_eq(c, m));
	Coef neg = coef_neg(m);
	Coef back = coef_add(m, neg);
	cr_expect(coef_is_zero(back));
	coef_free(&neg);
	buf_free(&b);
	coef_free(&a);
	coef_free(&s);
	coef_free(&m);
	coef_free(&c);
	coef_free(&back);
}

Test(ana_coef, class_names)
{
	cr_expect_str_eq(ana_class_name(CLASS_UNDEFINED), "undefined");
	cr_expect_str_eq(ana_class_name(CLASS_CONSTANT), "constant");
	cr_expect_str_eq(ana_class_name(CLASS_UNIFORM), "uniform");
	cr_expect_str_eq(ana_class_name(CLASS_CONSTANT_AFFINE), "constant-affine");
	cr_expect_str_eq(ana_class_name(CLASS_AFFINE), "affine");
	cr_expect_str_eq(ana_class_name(CLASS_POLYNOMIAL), "polynomial");
	cr_expect_str_eq(ana_class_name(CLASS_DIVERGENT), "divergent");
}

/* ---- T13: the rules of Figure 3.8, one line each ---------------------------------- */

/* T13 (seed 001 §11.6), c a parameter. The γs stand at the joins of an
** if-then on pu (uniform) and on s (divergent). */
#define T13_PROG \
	".param c\n" \
	"      v = 3 * tid\n" \
	"      w = v + 5\n" \
	"      x = w * 2\n" \
	"      y = x * tid\n" \
	"      z = x * c\n" \
	"      u = x * 0\n" \
	"      q = 7 % 2\n" \
	"      r = c % 2\n" \
	"      s = tid % 2\n" \
	"      l1 = ↓c\n" \
	"      l2 = ↓tid\n" \
	"      a = tid + c\n" \
	"      b = tid + 7\n" \
	"      e = a - b\n" \
	"      t5 = tid + 5\n" \
	"      t2 = 2 * tid\n" \
	"      pu = c < 3\n" \
	"b1:   bz pu, j1\n" \
	"      k1 = 1\n" \
	"j1:   g1 = γ(pu, tid, t5)\n" \
	"      g2 = γ(pu, tid, t2)\n" \
	"b2:   bz s, j2\n" \
	"      k2 = 1\n" \
	"j2:   g3 = γ(s, tid, t5)\n" \
	"      at = atominc(c)\n" \
	"      stop\n"

Test(ana_t13, degree1)
{
	Prog pr = load_checked(T13_PROG, "T13");
	AnaResult *r = run_poly(pr.p, 1);
	EXPECT_COEFFS(r, "v", "3,0");     /* TIDA */
	EXPECT_COEFFS(r, "w", "3,5");     /* SUMA */
	EXPECT_COEFFS(r, "x", "6,10");    /* MLCA */
	EXPECT_COEFFS(r, "y", "bot,bot"); /* MLVA */
	EXPECT_COEFFS(r, "z", "bot,bot"); /* MLCA with 6×⊥ */
	EXPECT_COEFFS(r, "u", "0,0");     /* MLCA, 0 annihilates */
	EXPECT_COEFFS(r, "q", "0,1");     /* GBZA */
	EXPECT_COEFFS(r, "r", "0,bot");
	EXPECT_COEFFS(r, "s", "bot,bot"); /* GBNA as "not both zero" */
	EXPECT_COEFFS(r, "l1", "0,bot");  /* LDUA */
	EXPECT_COEFFS(r, "l2", "bot,bot"); /* LDDA */
	EXPECT_COEFFS(r, "a", "1,bot");
	EXPECT_COEFFS(r, "b", "1,7");
	EXPECT_COEFFS(r, "e", "0,bot");   /* A3 (default: coefficient-wise) */
	EXPECT_COEFFS(r, "pu", "0,bot");
	EXPECT_COEFFS(r, "g1", "1,bot");  /* GAMA */
	EXPECT_COEFFS(r, "g2", "bot,0");
	EXPECT_COEFFS(r, "g3", "bot,bot"); /* PDVA */
	EXPECT_COEFFS(r, "at", "bot,bot"); /* ATMA */
	EXPECT_CLASS(r, "v", CLASS_CONSTANT_AFFINE);
	EXPECT_CLASS(r, "a", CLASS_AFFINE);
	EXPECT_CLASS(r, "g2", CLASS_DIVERGENT); /* (⊥, 0) is divergent in degree 1 */
	EXPECT_CLASS(r, "u", CLASS_CONSTANT);
	EXPECT_CLASS(r, "r", CLASS_UNIFORM);
	EXPECT_BRANCH(r, "b1", false);
	EXPECT_BRANCH(r, "b2", true);
	ana_free(r);
	/* the literal rule for subtraction: e = a − b is GBNA */
	AnaOptions o = poly_opt(1);
	o.sub_generic = true;
	r = run(pr.p, o);
	EXPECT_COEFFS(r, "e", "bot,bot");
	ana_free(r);
	unload(&pr);
}

Test(ana_t13, degree2)
{
	Prog pr = load(T13_PROG);
	AnaResult *r = run_poly(pr.p, 2);
	EXPECT_COEFFS(r, "v", "0,3,0");
	EXPECT_COEFFS(r, "w", "0,3,5");
	EXPECT_COEFFS(r, "x", "0,6,10");
	EXPECT_COEFFS(r, "y", "6,10,0"); /* a product of two affine values fits in degree 2 */
	EXPECT_COEFFS(r, "z", "0,bot,bot");
	EXPECT_COEFFS(r, "u", "0,0,0");
	EXPECT_COEFFS(r, "q", "0,0,1");
	EXPECT_COEFFS(r, "r", "0,0,bot");
	EXPECT_COEFFS(r, "s", "bot,bot,bot");
	EXPECT_COEFFS(r, "l1", "0,0,bot");
	EXPECT_COEFFS(r, "l2", "bot,bot,bot");
	EXPECT_COEFFS(r, "a", "0,1,bot");
	EXPECT_COEFFS(r, "b", "0,1,7");
	EXPECT_COEFFS(r, "e", "0,0,bot");
	EXPECT_COEFFS(r, "pu", "0,0,bot");
	EXPECT_COEFFS(r, "g1", "0,1,bot");
	EXPECT_COEFFS(r, "g2", "0,bot,0"); /* affine only in degree 2 */
	EXPECT_COEFFS(r, "g3", "bot,bot,bot");
	EXPECT_COEFFS(r, "at", "bot,bot,bot");
	EXPECT_CLASS(r, "y", CLASS_POLYNOMIAL);
	EXPECT_CLASS(r, "g2", CLASS_AFFINE);
	EXPECT_CLASS(r, "z", CLASS_AFFINE);
	ana_free(r);
	unload(&pr);
}

/* T13's simple column: u = x × 0 is D (GBZD meets the operands: the affine
** analysis is more precise there); the uniform ones are those that read only
** c and literals. Branches: pu uniform, s divergent. */
Test(ana_t13, simple)
{
	Prog pr = load(T13_PROG);
	AnaResult *r = run_simple(pr.p);
	static const char *const D[] = {"v", "w", "x", "y", "z", "u", "s", "l2", "a", "b", "e",
	                                "t5", "t2", "g1", "g2", "g3", "at"};
	static const char *const U[] = {"c", "q", "r", "l1", "pu", "k1", "k2"};
	for (size_t i = 0; i < sizeof D / sizeof *D; i++)
		EXPECT_SIMPLE(r, D[i], "D");
	for (size_t i = 0; i < sizeof U / sizeof *U; i++)
		EXPECT_SIMPLE(r, U[i], "U");
	EXPECT_BRANCH(r, "b1", false);
	EXPECT_BRANCH(r, "b2", true);
	ana_free(r);
	unload(&pr);
}

/* ---- T8, T9: the GSA sumTriangle (seed 001 §5.5) ------------------------------------- */

/* SUM_TRIANGLE_GSA is examples/sum_triangle_gsa.simd (digest §5.3); the
** parameters are c and v (m is the address 0, not a parameter here). */
static const struct {
	const char *var, *simple, *deg1, *deg2;
} sum_triangle_table[] = {
	/* digest §5.5, all three columns, every variable */
	{"c", "U", "0,bot", "0,0,bot"},
	{"v", "U", "0,bot", "0,0,bot"},
	{"s0", "U", "0,0", "0,0,0"},
	{"d0", "U", "0,0", "0,0,0"},
	{"i0", "D", "1,0", "0,1,0"},
	{"x0", "D", "1,1", "0,1,1"},
	{"L0", "D", "bot,bot", "0,bot,bot"},
	{"i1", "D", "1,bot", "0,1,bot"},
	{"i2", "D", "1,bot", "0,1,bot"},
	{"d1", "U", "0,bot", "0,0,bot"},
	{"d2", "U", "0,bot", "0,0,bot"},
	{"p0", "D", "bot,bot", "bot,bot,bot"},
	{"p1", "U", "0,bot", "0,0,bot"},
	{"x1", "D", "bot,bot", "bot,bot,bot"},
	{"s1", "D", "bot,bot", "bot,bot,bot"},
	{"s2", "D", "bot,bot", "bot,bot,bot"},
	{"s3", "D", "bot,bot", "bot,bot,bot"},
	{"s4", "D", "bot,bot", "bot,bot,bot"},
	{"d3", "D", "bot,bot", "bot,bot,bot"},
	{"x2", "D", "bot,bot", "bot,bot,bot"},
	{"x3", "D", "bot,bot", "bot,bot,bot"},
};

/* T8: the simple column (U: s0, d0, d1, d2, p1 and the parameters; D: every
** other); from the text: d1 U, p1 U (so `bz p1` cannot diverge), p0 D, d3 D. */
Test(ana_sum_triangle, t8_simple)
{
	Prog pr = load_checked(SUM_TRIANGLE_GSA, "sumTriangle");
	for (int w = 0; w < 2; w++) {
		AnaResult *r = run(pr.p, simple_opt(ANA_SIMPLE, w));
		for (size_t i = 0; i < sizeof sum_triangle_table / sizeof *sum_triangle_table; i++)
			EXPECT_SIMPLE(r, sum_triangle_table[i].var, sum_triangle_table[i].simple);
		EXPECT_BRANCH(r, "l7", true);
		EXPECT_BRANCH(r, "l9", false);
		cr_expect(r->iterations > 0);
		ana_free(r);
	}
	unload(&pr);
}

/* T9: the degree-1 and degree-2 columns; from Figure 2.2: L = 0T²+⊥T+⊥,
** d_in = 0T²+0T+⊥, d_out = ⊥T²+⊥T+⊥. CMPA makes no difference here (i1 − L0
** is not uniform). */
Test(ana_sum_triangle, t9_affine)
{
	Prog pr = load(SUM_TRIANGLE_GSA);
	for (int cmp = 0; cmp < 2; cmp++) {
		for (int32_t deg = 1; deg <= 2; deg++) {
			AnaOptions o = poly_opt(deg);
			o.no_cmp_rule = cmp;
			AnaResult *r = run(pr.p, o);
			for (size_t i = 0; i < sizeof sum_triangle_table / sizeof *sum_triangle_table; i++)
				EXPECT_COEFFS(r, sum_triangle_table[i].var,
				              deg == 1 ? sum_triangle_table[i].deg1 : sum_triangle_table[i].deg2);
			EXPECT_BRANCH(r, "l7", true);
			EXPECT_BRANCH(r, "l9", false);
			ana_free(r);
		}
	}
	AnaResult *r = run_poly(pr.p, 2);
	EXPECT_CLASS(r, "d1", CLASS_UNIFORM);
	EXPECT_CLASS(r, "s0", CLASS_CONSTANT);
	EXPECT_CLASS(r, "x0", CLASS_CONSTANT_AFFINE);
	EXPECT_CLASS(r, "i1", CLASS_AFFINE);
	EXPECT_CLASS(r, "L0", CLASS_AFFINE); /* (0, ⊥, ⊥): Theorem 3 */
	EXPECT_CLASS(r, "d3", CLASS_DIVERGENT);
	Buf b = {0};
	ana_print_value(&b, r, var(pr.p, "L0"), false);
	cr_expect_str_eq(buf_str(&b), "0·T² + ⊥·T + ⊥");
	buf_reset(&b);
	ana_print_value(&b, r, var(pr.p, "d1"), false);
	cr_expect_str_eq(buf_str(&b), "0·T² + 0·T + ⊥");
	buf_reset(&b);
	ana_print_value(&b, r, var(pr.p, "d3"), false);
	cr_expect_str_eq(buf_str(&b), "⊥·T² + ⊥·T + ⊥");
	buf_reset(&b);
	ana_print_value(&b, r, var(pr.p, "i0"), true);
	cr_expect_str_eq(buf_str(&b), "0*T^2 + 1*T + 0");
	buf_free(&b);
	ana_free(r);
	r = run_poly(pr.p, 1);
	EXPECT_CLASS(r, "L0", CLASS_DIVERGENT);
	EXPECT_CLASS(r, "i1", CLASS_AFFINE);
	b = (Buf){0};
	ana_print_value(&b, r, var(pr.p, "i1"), false);
	cr_expect_str_eq(buf_str(&b), "1·T + ⊥");
	buf_free(&b);
	ana_free(r);
	unload(&pr);
}

/* ---- T10: avgSquare in GSA (seed 001 §5.6) ------------------------------------------ */

#define AVG_SQUARE_GSA \
	".param c = 4\n" \
	".param v = 16\n" \
	"      d0 = 0\n" \
	"      s0 = 0\n" \
	"      t0 = c × c\n" \
	"      N0 = tid + t0\n" \
	"      i0 = tid\n" \
	"loop: [i1, s1, d1] = μ[(i0, s0, d0), (i2, s2, d2)]\n" \
	"      p0 = i1 < N0\n" \
	"test: bz p0, exit\n" \
	"      x1 = ↓i1\n" \
	"      s2 = s1 + x1\n" \
	"      d2 = d1 + 1\n" \
	"      i2 = i1 + c\n" \
	"      jump loop\n" \
	"exit: [s3, d3] = η[p0, (s1, d1)]\n" \
	"      x2 = s3 / d3\n" \
	"      x3 = v + tid\n" \
	"      ↑x3 = x2\n" \
	"      stop\n"

/* T10: degree 2 without CMPA: i = N = (0,1,⊥), d1 = (0,0,⊥), p0 = d3 =
** (⊥,⊥,⊥); with CMPA: p0 = d3 = (0,0,⊥) (Figure 2.2's Sec. 3.5 column).
** The other values follow from the rules: t0 = c×c (0,0,⊥), i0 = tid,
** s* read ↓i1 (divergent address), x2 = s3/d3, x3 = v + tid. */
Test(ana_avg_square, t10_degree2)
{
	Prog pr = load_checked(AVG_SQUARE_GSA, "avgSquare");
	for (int cmp = 0; cmp < 2; cmp++) {
		AnaOptions o = poly_opt(2);
		o.no_cmp_rule = !cmp;
		AnaResult *r = run(pr.p, o);
		const char *pd = cmp ? "0,0,bot" : "bot,bot,bot";
		EXPECT_COEFFS(r, "t0", "0,0,bot");
		EXPECT_COEFFS(r, "N0", "0,1,bot");
		EXPECT_COEFFS(r, "i0", "0,1,0");
		EXPECT_COEFFS(r, "i1", "0,1,bot");
		EXPECT_COEFFS(r, "i2", "0,1,bot");
		EXPECT_COEFFS(r, "d0", "0,0,0");
		EXPECT_COEFFS(r, "d1", "0,0,bot");
		EXPECT_COEFFS(r, "d2", "0,0,bot");
		EXPECT_COEFFS(r, "p0", pd);
		EXPECT_COEFFS(r, "d3", pd);
		EXPECT_COEFFS(r, "s1", "bot,bot,bot");
		EXPECT_COEFFS(r, "s3", "bot,bot,bot");
		EXPECT_COEFFS(r, "x2", "bot,bot,bot");
		EXPECT_COEFFS(r, "x3", "0,1,bot");
		EXPECT_BRANCH(r, "test", !cmp); /* CMPA proves the loop uniform */
		ana_free(r);
	}
	unload(&pr);
}

/* T10, simple: d1 U, d3 D, i/N D (and t0, d2 U; p0, s* D). */
Test(ana_avg_square, t10_simple)
{
	Prog pr = load(AVG_SQUARE_GSA);
	AnaResult *r = run_simple(pr.p);
	EXPECT_SIMPLE(r, "d1", "U");
	EXPECT_SIMPLE(r, "d2", "U");
	EXPECT_SIMPLE(r, "t0", "U");
	EXPECT_SIMPLE(r, "d3", "D");
	EXPECT_SIMPLE(r, "N0", "D");
	EXPECT_SIMPLE(r, "i0", "D");
	EXPECT_SIMPLE(r, "i1", "D");
	EXPECT_SIMPLE(r, "i2", "D");
	EXPECT_SIMPLE(r, "p0", "D");
	EXPECT_SIMPLE(r, "s3", "D");
	EXPECT_BRANCH(r, "test", true);
	ana_free(r);
	unload(&pr);
}

/* ---- the example files ------------------------------------------------------------------ */

typedef struct Loaded {
	Program *p;
	Diags d;
	char *src;
} Loaded;

/* Load an example; false when it has errors (then nothing to free). */
static bool load_file(const char *path, Loaded *out)
{
	size_t len;
	out->src = read_file(path, &len);
	cr_assert_not_null(out->src, "cannot read %s", path);
	diag_init(&out->d, path, out->src, len);
	out->p = ir_load(path, out->src, len, &out->d);
	if (out->d.nerrors > 0 || !out->p->cfg) {
		ir_free(out->p);
		diag_free(&out->d);
		free(out->src);
		return false;
	}
	out->p = inline_calls(out->p); /* as `analyze` reads it */
	return true;
}

static void unload_file(Loaded *l)
{
	ir_free(l->p);
	diag_free(&l->d);
	free(l->src);
}

static Loaded load_example(const char *name)
{
	Buf path = {0};
	buf_printf(&path, "%s/%s", examples_dir(), name);
	Loaded l;
	cr_assert(load_file(buf_str(&path), &l), "%s does not load", buf_str(&path));
	buf_free(&path);
	return l;
}

/* Issue 9's user trial: a short-circuit with a shared else block and a loop
** counter read after a loop with a break. The merged value is divergent in
** every domain and solver (a γ on the inner predicate alone, or no η, made
** it uniform); inside the loop i stays uniform. */
static Program *gsa_of_example(const char *name, Loaded *l)
{
	*l = load_example(name);
	Diags d;
	diag_init(&d, name, "", 0);
	Program *g = gsa_build(l->p, &d);
	cr_assert(g && d.nerrors == 0, "%s: no GSA form", name);
	diag_free(&d);
	return g;
}

Test(ana_unstructured, user_trial_divergent_in_every_domain)
{
	static const struct {
		const char *file, *merged, *inside, *uniform_branch, *divergent_branch;
	} cases[] = {
		{"short_circuit.simd", "y.2", "y.0", "c2.0", "c1.0"},
		{"break_loop.simd", "i.3", "i.1", "p.0", "q.0"},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		Loaded l;
		Program *g = gsa_of_example(cases[c].file, &l);
		for (int solver = 0; solver < 2; solver++) {
			AnaResult *r = run(g, simple_opt(ANA_SIMPLE, solver == 1));
			EXPECT_SIMPLE(r, cases[c].merged, "D");
			EXPECT_SIMPLE(r, cases[c].inside, "U");
			ana_free(r);
		}
		for (int32_t deg = 0; deg <= 3; deg++) {
			AnaResult *r = run_poly(g, deg);
			EXPECT_CLASS(r, cases[c].merged, CLASS_DIVERGENT);
			if (deg == 0) { /* constant propagation: only constants are not ⊥ */
				ana_free(r);
				continue;
			}
			cr_expect(r->cls[var(g, cases[c].inside)] == CLASS_CONSTANT ||
			          r->cls[var(g, cases[c].inside)] == CLASS_UNIFORM,
			          "%s: %s at degree %d", cases[c].file, cases[c].inside, (int)deg);
			for (int32_t pc = 0; pc < g->nins; pc++) {
				const Ins *ins = &g->ins[pc];
				if (!ir_is_branch((Op)ins->op) || ins->a.kind != OPND_VAR)
					continue;
				const char *pn = g->vars[ins->a.var].name;
				if (!strcmp(pn, cases[c].divergent_branch))
					cr_expect(r->branch_divergent[pc], "%s: branch on %s", cases[c].file, pn);
				if (!strcmp(pn, cases[c].uniform_branch))
					cr_expect(!r->branch_divergent[pc], "%s: branch on %s", cases[c].file, pn);
			}
			ana_free(r);
		}
		ir_free(g);
		unload_file(&l);
	}
}

/* η after a loop with a divergent break is divergent even where its own
** exit test is uniform (temporal divergence, docs/analyses.md): the loop's
** exit branches decide when each thread leaves. */
Test(ana_unstructured, eta_temporal_divergence)
{
	Loaded l;
	Program *g = gsa_of_example("break_loop.simd", &l);
	AnaResult *r = run_poly(g, 2);
	EXPECT_CLASS(r, "i.4", CLASS_DIVERGENT); /* η on the loop test p.0, uniform */
	EXPECT_CLASS(r, "i.5", CLASS_DIVERGENT); /* η on the break's test q.0 */
	ana_free(r);
	ir_free(g);
	unload_file(&l);
}

/* The class of the value stored by the program's first store. */
static VarClass stored_class(const Program *g, const AnaResult *r)
{
	for (int32_t pc = 0; pc < g->nins; pc++)
		if (g->ins[pc].op == OP_STORE && g->ins[pc].b.kind == OPND_VAR)
			return r->cls[g->ins[pc].b.var];
	cr_assert_fail("no store of a variable");
	return CLASS_DIVERGENT;
}

/* Temporal divergence as LLVM's cycles with divergent exit: the read of i
** at the uniform exit of the inner loop is inside the outer loop. A
** divergent break that leaves (and reconverges after) the outer loop too
** never brings its threads back to that read, so i stays uniform there;
** a divergent branch that reconverges inside the outer loop makes it
** divergent. */
Test(ana_unstructured, eta_outermost_exited_loop)
{
	static const struct {
		const char *target; /* where the divergent break goes */
		VarClass want;
	} cases[] = {{"done", CLASS_UNIFORM}, {"next", CLASS_DIVERGENT}};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		Buf src = {0};
		buf_printf(&src,
		           "        j = 0\n"
		           "outer:  i = 0\n"
		           "inner:  i = i + 1\n"
		           "        q = tid == 2\n"
		           "        bnz q, %s\n"
		           "        p = i < 3\n"
		           "        bnz p, inner\n"
		           "        mem[tid] = i\n"
		           "next:   j = j + 1\n"
		           "        r = j < 2\n"
		           "        bnz r, outer\n"
		           "done:   stop\n",
		           cases[c].target);
		Prog pr = load(buf_str(&src));
		Diags d;
		diag_init(&d, "t.simd", "", 0);
		Program *g = gsa_build(pr.p, &d);
		cr_assert(g && d.nerrors == 0, "break to %s: no GSA form", cases[c].target);
		for (int32_t deg = 1; deg <= 2; deg++) {
			AnaResult *r = run_poly(g, deg);
			VarClass got = stored_class(g, r);
			cr_expect(got == cases[c].want || (cases[c].want == CLASS_UNIFORM && got == CLASS_CONSTANT),
			          "break to %s, degree %d: the stored i is %s", cases[c].target, (int)deg,
			          ana_class_name(got));
			ana_free(r);
		}
		AnaResult *r = run_simple(g);
		cr_expect((stored_class(g, r) == CLASS_DIVERGENT) == (cases[c].want == CLASS_DIVERGENT),
		          "break to %s, --domain simple: the stored i is %s", cases[c].target,
		          ana_class_name(stored_class(g, r)));
		ana_free(r);
		ir_free(g);
		diag_free(&d);
		unload(&pr);
		buf_free(&src);
	}
}

/* T11 (seed 001 §4.6, Figure 3.10's table; examples/row_init.simd):
** degree 1: n (0,⊥), i0 (⊥,0), i1 (⊥,⊥), i2 (⊥,⊥), k (⊥,⊥);
** degree 2: n (0,0,⊥), i0 (0,⊥,0), i1 (0,⊥,⊥), i2 (0,⊥,⊥), k (0,⊥,⊥). */
Test(ana_row_init, t11)
{
	Loaded l = load_example("row_init.simd");
	consistency(l.p, "row_init");
	AnaResult *r = run_poly(l.p, 1);
	EXPECT_COEFFS(r, "n", "0,bot");
	EXPECT_COEFFS(r, "i0", "bot,0");
	EXPECT_COEFFS(r, "i1", "bot,bot");
	EXPECT_COEFFS(r, "i2", "bot,bot");
	EXPECT_COEFFS(r, "k", "bot,bot");
	EXPECT_CLASS(r, "i0", CLASS_DIVERGENT);
	EXPECT_CLASS(r, "i1", CLASS_DIVERGENT);
	ana_free(r);
	r = run_poly(l.p, 2);
	EXPECT_COEFFS(r, "n", "0,0,bot");
	EXPECT_COEFFS(r, "i0", "0,bot,0");
	EXPECT_COEFFS(r, "i1", "0,bot,bot");
	EXPECT_COEFFS(r, "i2", "0,bot,bot");
	EXPECT_COEFFS(r, "k", "0,bot,bot");
	/* "the degree-two analysis finds that the highest coefficient of any of
	** these variables is zero; thus flagging them as affine" */
	EXPECT_CLASS(r, "i0", CLASS_AFFINE);
	EXPECT_CLASS(r, "i1", CLASS_AFFINE);
	EXPECT_CLASS(r, "i2", CLASS_AFFINE);
	EXPECT_CLASS(r, "k", CLASS_AFFINE);
	EXPECT_CLASS(r, "one", CLASS_CONSTANT);
	/* i1 < k: the difference (0,⊥,⊥) is not uniform, so the branch is
	** reported divergent although it never diverges at run time */
	EXPECT_BRANCH(r, "test", true);
	ana_free(r);
	unload_file(&l);
}

/* T16 and the solver agreement on every example that loads; T16 only on
** those with GSA instructions (the others are not in GSA form). */
Test(ana_examples, solvers_agree_and_corollary1)
{
	int nfiles;
	char **files = example_files(&nfiles);
	int loaded = 0, gsa = 0;
	int32_t uniform_checked = 0;
	for (int f = 0; f < nfiles; f++) {
		const char *name = strrchr(files[f], '/') ? strrchr(files[f], '/') + 1 : files[f];
		Loaded l;
		if (!load_file(files[f], &l))
			continue;
		if (example_irreducible(files[f])) { /* no GSA form (test_gsa checks the refusal) */
			unload_file(&l);
			continue;
		}
		loaded++;
		/* every example, converted to GSA (analyses.md §1) as `analyze` does */
		Diags gd;
		diag_init(&gd, files[f], l.p->src, l.p->srclen);
		Program *g = gsa_build(l.p, &gd);
		cr_assert(g && gd.nerrors == 0, "%s: no GSA form", name);
		diag_free(&gd);
		for (int d = 0; d < 2; d++) {
			AnaDomain dom = d ? ANA_DATA_ONLY : ANA_SIMPLE;
			AnaResult *a = run(g, simple_opt(dom, false));
			AnaResult *b = run(g, simple_opt(dom, true));
			for (int32_t v = 0; v < g->nvars; v++)
				cr_expect_eq(a->cls[v], b->cls[v], "%s: solvers disagree on %s", name, g->vars[v].name);
			for (int32_t pc = 0; pc < g->nins; pc++)
				cr_expect_eq(a->branch_divergent[pc], b->branch_divergent[pc],
				             "%s: solvers disagree on the branch at %d", name, (int)pc);
			ana_free(a);
			ana_free(b);
		}
		gsa++;
		uniform_checked += consistency(g, name);
		ir_free(g);
		unload_file(&l);
	}
	free_names(files, nfiles);
	cr_expect_geq(loaded, 15, "only %d examples loaded", loaded);
	cr_expect_eq(gsa, loaded, "only %d of %d examples converted", gsa, loaded);
	cr_expect_gt(uniform_checked, 0);
}

/* ---- seed 003 §3: TC-DA-1 .. TC-DA-4 ----------------------------------------------------- */

/* TC-DA-1: the pattern of Coutinho's Figures 5.1–5.4 in GSA. The if-else on
** pred = y > 0 joins at x3 = γ(pred, x1, x2) (x1 where pred ≠ 0, the
** fall-through of `bz`). */
#define TC_DA_1(Y) \
	Y \
	"      pred = y > 0\n" \
	"br:   bz pred, else\n" \
	"      x1 = 1\n" \
	"      jump join\n" \
	"else: x2 = 2\n" \
	"join: x3 = γ(pred, x1, x2)\n" \
	"      a = x3 + 1\n" \
	"      stop\n"

/* y = tid: pred, x3 and a divergent; x1, x2 (constants) not. The data-only
** analysis (Stratton) makes x3 and a wrongly uniform: it misses the
** synchronisation dependence on pred. */
Test(ana_tc_da, tc_da_1_divergent)
{
	Prog pr = load_checked(TC_DA_1("      y = tid\n"), "TC-DA-1");
	for (int w = 0; w < 2; w++) {
		AnaResult *r = run(pr.p, simple_opt(ANA_SIMPLE, w));
		EXPECT_SIMPLE(r, "pred", "D");
		EXPECT_SIMPLE(r, "x3", "D");
		EXPECT_SIMPLE(r, "a", "D");
		EXPECT_SIMPLE(r, "x1", "U");
		EXPECT_SIMPLE(r, "x2", "U");
		EXPECT_BRANCH(r, "br", true);
		ana_free(r);
		r = run(pr.p, simple_opt(ANA_DATA_ONLY, w));
		EXPECT_SIMPLE(r, "pred", "D");
		EXPECT_SIMPLE(r, "x3", "U"); /* wrong, on purpose */
		EXPECT_SIMPLE(r, "a", "U");
		EXPECT_SIMPLE(r, "x1", "U");
		ana_free(r);
	}
	AnaResult *r = run_poly(pr.p, 2);
	EXPECT_COEFFS(r, "pred", "bot,bot,bot"); /* tid > 0: CMPA needs tid − 0 uniform */
	EXPECT_COEFFS(r, "x3", "bot,bot,bot");   /* PDVA */
	EXPECT_COEFFS(r, "a", "bot,bot,bot");
	EXPECT_COEFFS(r, "x1", "0,0,1");
	EXPECT_BRANCH(r, "br", true);
	ana_free(r);
	unload(&pr);
}

/* y a kernel argument, or a constant: everything uniform, the branch too. */
Test(ana_tc_da, tc_da_1_uniform)
{
	const char *srcs[] = {TC_DA_1(".param y\n"), TC_DA_1("      y = 5\n")};
	for (int i = 0; i < 2; i++) {
		Prog pr = load_checked(srcs[i], "TC-DA-1 uniform");
		AnaResult *r = run_simple(pr.p);
		EXPECT_SIMPLE(r, "pred", "U");
		EXPECT_SIMPLE(r, "x3", "U");
		EXPECT_SIMPLE(r, "a", "U");
		EXPECT_BRANCH(r, "br", false);
		ana_free(r);
		r = run_poly(pr.p, 1);
		/* y = 5: pred folds to 1, then γ meets 1 and 2 (the rules do not prune
		** the dead side); y a parameter: 0·T + ⊥ throughout */
		EXPECT_COEFFS(r, "pred", i ? "0,1" : "0,bot");
		EXPECT_COEFFS(r, "x3", "0,bot");
		EXPECT_COEFFS(r, "a", "0,bot");
		EXPECT_BRANCH(r, "br", false);
		ana_free(r);
		unload(&pr);
	}
}

/* TC-DA-2: the seeds. atominc of a uniform address is divergent; a shared
** load of a uniform address is uniform, of tid + k divergent; constants
** uniform. Local loads and the other atomics are divergent too. */
Test(ana_tc_da, tc_da_2_seeds)
{
	Prog pr = load_checked(".param z\n"
	                       "      v = atominc(z)\n"
	                       "      k = 10\n"
	                       "      l = mem[z]\n"
	                       "      a = tid + k\n"
	                       "      m = mem[a]\n"
	                       "      ll = local[z]\n"
	                       "      o1 = atomadd(z, k)\n"
	                       "      o2 = atomcas(z, k, k)\n"
	                       "      o3 = atomexch(z, k)\n"
	                       "      w = warpid + ntid\n"
	                       "      w2 = nwarps * warpsize\n"
	                       "      ln = laneid\n"
	                       "      lc = mem[k]\n"
	                       "      stop\n",
	                       "TC-DA-2");
	AnaResult *r = run_simple(pr.p);
	static const char *const D[] = {"v", "a", "m", "ll", "o1", "o2", "o3", "ln"};
	static const char *const U[] = {"z", "k", "l", "w", "w2", "lc"};
	for (size_t i = 0; i < sizeof D / sizeof *D; i++)
		EXPECT_SIMPLE(r, D[i], "D");
	for (size_t i = 0; i < sizeof U / sizeof *U; i++)
		EXPECT_SIMPLE(r, U[i], "U");
	ana_free(r);
	r = run_poly(pr.p, 1);
	EXPECT_COEFFS(r, "v", "bot,bot");
	EXPECT_COEFFS(r, "k", "0,10");
	EXPECT_COEFFS(r, "l", "0,bot");
	EXPECT_COEFFS(r, "lc", "0,bot"); /* LDUA: a constant address still gives an unknown value */
	EXPECT_COEFFS(r, "a", "1,10");
	EXPECT_COEFFS(r, "m", "bot,bot");
	EXPECT_COEFFS(r, "ll", "bot,bot");
	EXPECT_COEFFS(r, "o1", "bot,bot");
	EXPECT_COEFFS(r, "o2", "bot,bot");
	EXPECT_COEFFS(r, "o3", "bot,bot");
	EXPECT_COEFFS(r, "w", "0,bot");
	EXPECT_COEFFS(r, "w2", "0,bot");
	EXPECT_COEFFS(r, "ln", "1,bot"); /* laneid = 1·T + ⊥ */
	EXPECT_CLASS(r, "ln", CLASS_AFFINE);
	EXPECT_CLASS(r, "a", CLASS_CONSTANT_AFFINE);
	ana_free(r);
	unload(&pr);
}

/* TC-DA-3: the loop pattern of Coutinho's Figure 5.5 (a constructed
** analogue). j1 is loop-carried and uniform (j2 = j1 × j1) inside a loop
** bounded by tid; the branch on it inside the loop is uniform; the η at the
** exit (the live-range split j' = φ(j), p0) is divergent, and so is a
** branch on it after the loop. */
#define TC_DA_3 \
	".param n = 4\n" \
	".param base = 100\n" \
	"       j0 = 2\n" \
	"       i0 = tid\n" \
	"loop:  [i1, j1] = μ[(i0, j0), (i2, j2)]\n" \
	"       p0 = i1 < n\n" \
	"exitb: bz p0, exit\n" \
	"       j2 = j1 * j1\n" \
	"       q = j1 > 100\n" \
	"inner: bz q, skip\n" \
	"       mem[base] = j2\n" \
	"skip:  sync\n" \
	"       i2 = i1 + 1\n" \
	"       jump loop\n" \
	"exit:  j3 = η(p0, j1)\n" \
	"       r = j3 > 100\n" \
	"after: bz r, done\n" \
	"       mem[base] = j3\n" \
	"done:  sync\n" \
	"       stop\n"

Test(ana_tc_da, tc_da_3_loop)
{
	Prog pr = load_checked(TC_DA_3, "TC-DA-3");
	for (int w = 0; w < 2; w++) {
		AnaResult *r = run(pr.p, simple_opt(ANA_SIMPLE, w));
		EXPECT_SIMPLE(r, "j1", "U");
		EXPECT_SIMPLE(r, "j2", "U");
		EXPECT_SIMPLE(r, "q", "U");
		EXPECT_SIMPLE(r, "p0", "D");
		EXPECT_SIMPLE(r, "j3", "D");
		EXPECT_SIMPLE(r, "r", "D");
		EXPECT_BRANCH(r, "inner", false);
		EXPECT_BRANCH(r, "exitb", true);
		EXPECT_BRANCH(r, "after", true);
		ana_free(r);
	}
	AnaResult *r = run_poly(pr.p, 2);
	EXPECT_COEFFS(r, "j1", "0,0,bot"); /* μ(2, 4): 2 ∧ 4 = ⊥ */
	EXPECT_COEFFS(r, "j2", "0,0,bot");
	EXPECT_COEFFS(r, "q", "0,0,bot");
	EXPECT_COEFFS(r, "i1", "0,1,bot");
	EXPECT_COEFFS(r, "p0", "bot,bot,bot");
	EXPECT_COEFFS(r, "j3", "bot,bot,bot");
	EXPECT_BRANCH(r, "inner", false);
	EXPECT_BRANCH(r, "exitb", true);
	EXPECT_BRANCH(r, "after", true);
	ana_free(r);
	unload(&pr);
}

/* TC-DA-4: Coutinho's §7.4 false positive,
**   for (i = tid; i < max; i += ntid) { j = 0; …; j++; }
** with j read after the loop (through the η). The simple analysis reports
** the η result j4 divergent: a false positive when max is a multiple of
** ntid (every thread runs the same number of iterations; the profiler sees
** no divergence on `bz q`).
** The polynomial analysis says the same, at every degree: i1 = μ(tid, i1 +
** ntid) is 0·T² + 1·T + ⊥, so `i1 < max` has the non-uniform difference
** 1·T + ⊥ and CMPA cannot apply; p is all ⊥ and PDVA makes j4 all ⊥. Proving
** j4 uniform would need the trip count (max a multiple of ntid), which no
** rule of Figure 3.8 sees. Inside the loop j1 = μ(0, 1) is uniform (0·T + ⊥). */
#define TC_DA_4 \
	".param lim = 8\n" \
	".param out = 100\n" \
	"       j0 = 0\n" \
	"       i0 = tid\n" \
	"loop:  [i1, j1] = μ[(i0, j0), (i2, j3)]\n" \
	"       p = i1 < lim\n" \
	"       bz p, exit\n" \
	"       j2 = 0\n" \
	"       j3 = j2 + 1\n" \
	"       i2 = i1 + ntid\n" \
	"       jump loop\n" \
	"exit:  j4 = η(p, j1)\n" \
	"       q = j4 > 0\n" \
	"br:    bz q, done\n" \
	"       mem[out] = j4\n" \
	"done:  sync\n" \
	"       stop\n"

Test(ana_tc_da, tc_da_4_false_positive)
{
	Prog pr = load_checked(TC_DA_4, "TC-DA-4");
	AnaResult *r = run_simple(pr.p);
	EXPECT_SIMPLE(r, "j1", "U");
	EXPECT_SIMPLE(r, "j3", "U");
	EXPECT_SIMPLE(r, "j4", "D"); /* the documented false positive */
	EXPECT_SIMPLE(r, "q", "D");
	EXPECT_BRANCH(r, "br", true);
	ana_free(r);
	for (int32_t deg = 1; deg <= 3; deg++) {
		r = run_poly(pr.p, deg);
		EXPECT_CLASS(r, "i1", CLASS_AFFINE);
		EXPECT_CLASS(r, "p", CLASS_DIVERGENT);
		EXPECT_CLASS(r, "j1", CLASS_UNIFORM);
		EXPECT_CLASS(r, "j4", CLASS_DIVERGENT);
		EXPECT_BRANCH(r, "br", true);
		ana_free(r);
	}
	r = run_poly(pr.p, 2);
	EXPECT_COEFFS(r, "i1", "0,1,bot");
	EXPECT_COEFFS(r, "j1", "0,0,bot");
	EXPECT_COEFFS(r, "j4", "bot,bot,bot");
	ana_free(r);
	unload(&pr);
}

/* ---- degrees 0 and 3 ---------------------------------------------------------------------- */

/* Degree 0 is constant propagation (seed 001 §4.6; analyses.md §3): ⊥
** means "not a constant", the classes are constant and divergent only. The
** constants below are what a (non-conditional) constant propagation
** computes: γ and μ meet their operands. */
Test(ana_degree, zero_is_constant_propagation)
{
	Prog pr = load_checked(".param c\n"
	                       "      a = 3\n"
	                       "      b = a * 4\n"
	                       "      d = b - 2\n"
	                       "      e = c + 1\n"
	                       "      t = tid + 1\n"
	                       "      z = t * 0\n"
	                       "      p = a < 5\n"
	                       "br:   bz p, else\n"
	                       "      x1 = d\n"
	                       "      y1 = 1\n"
	                       "      jump join\n"
	                       "else: x2 = 10\n"
	                       "      y2 = 2\n"
	                       "join: x = γ(p, x1, x2)\n"
	                       "      y = γ(p, y1, y2)\n"
	                       "      i0 = 0\n"
	                       "loop: i1 = μ(i0, i2)\n"
	                       "      i2 = i1 + 1\n"
	                       "      k = i1 < 10\n"
	                       "lb:   bnz k, loop\n"
	                       "      stop\n",
	                       "degree 0");
	AnaResult *r = run_poly(pr.p, 0);
	EXPECT_COEFFS(r, "a", "3");
	EXPECT_COEFFS(r, "b", "12");
	EXPECT_COEFFS(r, "d", "10");
	EXPECT_COEFFS(r, "e", "bot");
	EXPECT_COEFFS(r, "t", "bot");
	EXPECT_COEFFS(r, "z", "0"); /* 0 × ⊥ = 0 */
	EXPECT_COEFFS(r, "p", "1");
	EXPECT_COEFFS(r, "x", "10");
	EXPECT_COEFFS(r, "y", "bot");
	EXPECT_COEFFS(r, "i1", "bot");
	EXPECT_COEFFS(r, "i2", "bot");
	EXPECT_COEFFS(r, "k", "bot");
	EXPECT_CLASS(r, "x", CLASS_CONSTANT);
	EXPECT_CLASS(r, "e", CLASS_DIVERGENT);
	EXPECT_CLASS(r, "c", CLASS_DIVERGENT);
	EXPECT_BRANCH(r, "br", false);
	EXPECT_BRANCH(r, "lb", true);
	for (int32_t v = 0; v < pr.p->nvars; v++)
		cr_expect(r->cls[v] == CLASS_CONSTANT || r->cls[v] == CLASS_DIVERGENT, "%s is %s at degree 0",
		          pr.p->vars[v].name, ana_class_name(r->cls[v]));
	Buf b = {0};
	ana_print_value(&b, r, var(pr.p, "b"), false);
	buf_putc(&b, ' ');
	ana_print_value(&b, r, var(pr.p, "e"), false);
	buf_putc(&b, ' ');
	ana_print_value(&b, r, var(pr.p, "e"), true);
	cr_expect_str_eq(buf_str(&b), "12 ⊥ bot");
	buf_free(&b);
	ana_free(r);
	unload(&pr);
}

/* x = tid·tid·tid: 1·T³ at degree ≥ 3 (class polynomial); beyond degree 2
** the product has the non-zero term T³, so all ⊥ at degree 2. */
Test(ana_degree, cubic)
{
	Prog pr = load_checked("      t2 = tid * tid\n"
	                       "      x = t2 * tid\n"
	                       "      y = x - t2\n"
	                       "      stop\n",
	                       "cubic");
	AnaResult *r = run_poly(pr.p, 3);
	EXPECT_COEFFS(r, "t2", "0,1,0,0");
	EXPECT_COEFFS(r, "x", "1,0,0,0");
	EXPECT_COEFFS(r, "y", "1,-1,0,0");
	EXPECT_CLASS(r, "x", CLASS_POLYNOMIAL);
	EXPECT_CLASS(r, "t2", CLASS_POLYNOMIAL);
	Buf b = {0};
	ana_print_value(&b, r, var(pr.p, "x"), false);
	cr_expect_str_eq(buf_str(&b), "1·T³ + 0·T² + 0·T + 0");
	buf_reset(&b);
	ana_print_value(&b, r, var(pr.p, "y"), true);
	cr_expect_str_eq(buf_str(&b), "1*T^3 + -1*T^2 + 0*T + 0");
	buf_free(&b);
	ana_free(r);
	r = run_poly(pr.p, 4);
	EXPECT_COEFFS(r, "x", "0,1,0,0,0");
	EXPECT_CLASS(r, "x", CLASS_POLYNOMIAL);
	ana_free(r);
	r = run_poly(pr.p, 2);
	EXPECT_COEFFS(r, "t2", "1,0,0");
	EXPECT_COEFFS(r, "x", "bot,bot,bot");
	EXPECT_CLASS(r, "x", CLASS_DIVERGENT);
	EXPECT_CLASS(r, "t2", CLASS_POLYNOMIAL);
	ana_free(r);
	r = run_poly(pr.p, 1);
	EXPECT_COEFFS(r, "t2", "bot,bot");
	ana_free(r);
	unload(&pr);
}

/* Superscripts beyond 9 (T¹⁰). */
Test(ana_print, superscripts)
{
	Prog pr = load("      x = tid\n      stop\n");
	AnaResult *r = run_poly(pr.p, 11);
	Buf b = {0};
	ana_print_value(&b, r, var(pr.p, "x"), false);
	cr_expect_str_eq(buf_str(&b), "0·T¹¹ + 0·T¹⁰ + 0·T⁹ + 0·T⁸ + 0·T⁷ + 0·T⁶ + 0·T⁵ + 0·T⁴ + 0·T³ + "
	                              "0·T² + 1·T + 0");
	buf_reset(&b);
	ana_print_value(&b, r, var(pr.p, "x"), true);
	cr_expect(strncmp(buf_str(&b), "0*T^11 + 0*T^10 + 0*T^9 + ", 26) == 0, "%s", buf_str(&b));
	buf_free(&b);
	ana_free(r);
	r = run_simple(pr.p);
	b = (Buf){0};
	ana_print_value(&b, r, var(pr.p, "x"), false);
	cr_expect_str_eq(buf_str(&b), "D");
	buf_free(&b);
	cr_expect_null(r->coef);
	ana_free(r);
	unload(&pr);
}

/* ---- the decisions of analyses.md §3 ---------------------------------------------------- */

Test(ana_rules, decisions)
{
	Prog pr = load_checked(".param c\n"
	                  "      n = -tid\n"
	                  "      z = n + tid\n"
	                  "      dz = 5 / 0\n"
	                  "      mz = c % 0\n"
	                  "      sh = 1 << -1\n"
	                  "      ok = 1 << 70\n"
	                  "      lt = 3 < 5\n"
	                  "      t1 = tid + 1\n"
	                  "      cm = tid < t1\n"
	                  "      ce = tid == tid\n"
	                  "      cu = c >= 2\n"
	                  "      an = tid && c\n"
	                  "      mn = min(c, 3)\n"
	                  "      mx = max(tid, 3)\n"
	                  "      bn = ~c\n"
	                  "      bt = !tid\n"
	                  "      neg = -c\n"
	                  "      stop\n",
	                  "decisions");
	AnaResult *r = run_poly(pr.p, 1);
	EXPECT_COEFFS(r, "n", "-1,0");
	EXPECT_COEFFS(r, "z", "0,0");
	EXPECT_CLASS(r, "z", CLASS_CONSTANT);
	EXPECT_COEFFS(r, "dz", "0,bot");
	EXPECT_COEFFS(r, "mz", "0,bot");
	EXPECT_COEFFS(r, "sh", "0,bot");
	EXPECT_COEFFS(r, "ok", "0,1180591620717411303424");
	EXPECT_COEFFS(r, "lt", "0,1");
	EXPECT_COEFFS(r, "cm", "0,bot"); /* CMPA: the difference is the constant -1, not folded */
	EXPECT_COEFFS(r, "ce", "0,bot");
	EXPECT_COEFFS(r, "cu", "0,bot");
	EXPECT_COEFFS(r, "an", "bot,bot"); /* && is not covered by CMPA */
	EXPECT_COEFFS(r, "mn", "0,bot");
	EXPECT_COEFFS(r, "mx", "bot,bot");
	EXPECT_COEFFS(r, "bn", "0,bot");
	EXPECT_COEFFS(r, "bt", "bot,bot");
	EXPECT_COEFFS(r, "neg", "0,bot");
	ana_free(r);
	AnaOptions o = poly_opt(1);
	o.no_cmp_rule = true;
	o.sub_generic = true;
	r = run(pr.p, o);
	EXPECT_COEFFS(r, "n", "bot,bot"); /* generic unary operator */
	EXPECT_COEFFS(r, "z", "bot,bot");
	EXPECT_COEFFS(r, "lt", "0,1");
	EXPECT_COEFFS(r, "cm", "bot,bot");
	EXPECT_COEFFS(r, "ce", "bot,bot");
	EXPECT_COEFFS(r, "cu", "0,bot");
	EXPECT_COEFFS(r, "neg", "0,bot");
	ana_free(r);
	unload(&pr);
}

/* A variable no path assigns is ⊤: what reads it (other than μ/γ, which
** meet) stays ⊤, class `undefined`, in every domain and both solvers. */
Test(ana_rules, undefined)
{
	Prog pr = load_checked("      x = u + 1\n"
	                       "      t = tid * u\n"
	                       "      k = 1\n"
	                       "      a = atominc(u)\n"
	                       "br:   bz x, next\n"
	                       "      k2 = 2\n"
	                       "next: g = γ(x, k, k2)\n"
	                       "      h = γ(k, u, k)\n"
	                       "      stop\n",
	                       "undefined");
	for (int w = 0; w < 2; w++) {
		AnaResult *r = run(pr.p, simple_opt(ANA_SIMPLE, w));
		EXPECT_CLASS(r, "u", CLASS_UNDEFINED);
		EXPECT_CLASS(r, "x", CLASS_UNDEFINED);
		EXPECT_CLASS(r, "t", CLASS_UNDEFINED);
		EXPECT_CLASS(r, "g", CLASS_UNDEFINED); /* its predicate is ⊤: it waits */
		EXPECT_CLASS(r, "h", CLASS_UNIFORM);   /* ⊤ ∧ U = U */
		EXPECT_CLASS(r, "a", CLASS_DIVERGENT); /* a seed */
		EXPECT_SIMPLE(r, "x", "top");
		EXPECT_BRANCH(r, "br", true); /* ⊤ is not uniform */
		ana_free(r);
	}
	AnaResult *r = run_poly(pr.p, 2);
	EXPECT_COEFFS(r, "x", "top,top,top");
	EXPECT_COEFFS(r, "t", "top,top,top");
	EXPECT_COEFFS(r, "g", "top,top,top");
	EXPECT_COEFFS(r, "h", "0,0,1");
	EXPECT_CLASS(r, "x", CLASS_UNDEFINED);
	EXPECT_CLASS(r, "h", CLASS_CONSTANT);
	EXPECT_BRANCH(r, "br", true);
	ana_free(r);
	unload(&pr);
}

/* A plain φ is gated by the branches that choose its edge (sync
** dependence, docs/analyses.md §2): uniform when they are, divergent when
** one of them is, whatever its operands. */
Test(ana_rules, plain_phi)
{
	Prog pr = load_checked("      k = 1\n"
	                       "      c = 2\n"
	                       "      bz k, b\n"
	                       "      jump j\n"
	                       "b:    k2 = 3\n"
	                       "j:    x = φ(k, k2)\n"
	                       "      y = x + 1\n"
	                       "      stop\n",
	                       "phi");
	AnaResult *r = run_simple(pr.p);
	EXPECT_SIMPLE(r, "x", "U");
	EXPECT_SIMPLE(r, "y", "U");
	EXPECT_SIMPLE(r, "k", "U");
	ana_free(r);
	r = run_poly(pr.p, 1);
	EXPECT_COEFFS(r, "x", "0,bot");
	EXPECT_COEFFS(r, "y", "0,bot");
	ana_free(r);
	unload(&pr);

	pr = load_checked("      k = tid % 2\n"
	                  "      c = 3\n"
	                  "      bz k, b\n"
	                  "      jump j\n"
	                  "b:    k2 = 3\n"
	                  "j:    x = φ(c, c)\n"
	                  "      y = φ(k, k2)\n"
	                  "      stop\n",
	                  "phi, divergent branch");
	r = run_simple(pr.p);
	EXPECT_SIMPLE(r, "x", "U"); /* one value on both edges */
	EXPECT_SIMPLE(r, "y", "D");
	ana_free(r);
	r = run_poly(pr.p, 1);
	EXPECT_COEFFS(r, "x", "0,3");
	EXPECT_COEFFS(r, "y", "bot,bot");
	ana_free(r);
	unload(&pr);
}

Test(ana_rules, bad_options)
{
	Prog pr = load("      x = 1\n      stop\n");
	AnaOptions o = poly_opt(-1);
	cr_expect_null(ana_run(pr.p, &o));
	unload(&pr);
}

/* ---- listing and Graphviz --------------------------------------------------------------- */

Test(ana_print, listed_vars)
{
	Prog pr = load(".param v = 16\n.param c = 4\n"
	               "      b = c + 1\n"
	               "      a = b + u\n"
	               "      stop\n");
	int32_t *list;
	int32_t n = ana_listed_vars(pr.p, &list);
	Buf b = {0};
	for (int32_t i = 0; i < n; i++)
		buf_printf(&b, "%s ", pr.p->vars[list[i]].name);
	cr_expect_str_eq(buf_str(&b), "v c b a "); /* u is read, never assigned: not listed */
	buf_free(&b);
	free(list);
	unload(&pr);
}

/* Figure 3.7: the slice of sumTriangle that makes p1 and d3, grey = D. */
Test(ana_print, dot)
{
	Prog pr = load(SUM_TRIANGLE_GSA);
	AnaResult *r = run_simple(pr.p);
	Buf b = {0};
	ana_print_dot(&b, pr.p, r);
	const char *s = buf_str(&b);
	cr_expect(strncmp(s, "digraph", 7) == 0);
	cr_expect_not_null(strstr(s, "\"d3\" [style=filled, fillcolor=gray];"), "%s", s);
	cr_expect_not_null(strstr(s, "\"tid\" [shape=box, style=filled, fillcolor=gray];"), "%s", s);
	cr_expect_not_null(strstr(s, "\"d1\";"), "%s", s); /* uniform: not filled */
	cr_expect_not_null(strstr(s, "\"p0\" -> \"d3\" [style=dashed];"), "%s", s);
	cr_expect_not_null(strstr(s, "\"d1\" -> \"d3\";"), "%s", s);
	cr_expect_not_null(strstr(s, "\"d1\" -> \"p1\";"), "%s", s);
	cr_expect_not_null(strstr(s, "\"d2\" -> \"d1\";"), "%s", s);
	cr_expect_null(strstr(s, "\"p0\" -> \"d1\""), "no predicate edge into μ"); /* μ has none */
	cr_expect(s[strlen(s) - 2] == '}');
	buf_free(&b);
	ana_free(r);
	r = run_poly(pr.p, 2);
	ana_print_dot(&b, pr.p, r);
	s = buf_str(&b);
	cr_expect_not_null(strstr(s, "\"d3\" [label=\"d3\\n⊥·T² + ⊥·T + ⊥\", style=filled, fillcolor=gray];"),
	                   "%s", s);
	cr_expect_not_null(strstr(s, "\"i1\" [label=\"i1\\n0·T² + 1·T + ⊥\", style=filled, fillcolor=lightgray];"),
	                   "%s", s);
	cr_expect_not_null(strstr(s, "\"d1\" [label=\"d1\\n0·T² + 0·T + ⊥\"];"), "%s", s);
	buf_free(&b);
	ana_free(r);
	unload(&pr);
}

/* ---- performance: linear in practice ------------------------------------------------------ */

/* A loop of ~10^5 instructions whose μ value changes three times (⊤, the
** entry constant, ⊥) and a chain that reads it: every analysis takes a
** number of solver iterations linear in the program (the time itself is
** measured in bench/, never asserted here: a loaded machine made this test
** fail on a wall clock). */
Test(ana_perf, hundred_thousand_instructions, .init = watchdog_60)
{
	enum { N = 100000 };
	Buf src = {0};
	buf_puts(&src, ".param c\n      a0 = tid\n      z0 = 1\nloop: [m, w] = μ[(a0, z0), (v99999, w2)]\n");
	buf_puts(&src, "      v0 = m + c\n      w2 = w * 2\n");
	static const char *const ops[] = {"+", "*", "-", "+"};
	for (int i = 1; i < N; i++) {
		if (i % 4 == 1)
			buf_printf(&src, "      v%d = v%d %s c\n", i, i - 1, ops[i % 4]);
		else if (i % 4 == 3)
			buf_printf(&src, "      v%d = v%d %s tid\n", i, i - 1, ops[i % 4]);
		else
			buf_printf(&src, "      v%d = v%d %s %d\n", i, i - 1, ops[i % 4], i % 7);
	}
	buf_puts(&src, "      p = v99999 < c\n      bnz p, loop\n      stop\n");
	Prog pr = load(buf_str(&src));
	buf_free(&src);
	cr_assert_geq(pr.p->nins, N);
	AnaOptions opts[] = {simple_opt(ANA_SIMPLE, false), simple_opt(ANA_SIMPLE, true),
	                     simple_opt(ANA_DATA_ONLY, false), poly_opt(1), poly_opt(2), poly_opt(0)};
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
		AnaResult *r = run(pr.p, opts[i]);
		cr_expect_lt(r->iterations, (uint64_t)20 * (uint64_t)N, "analysis %zu: %llu iterations", i,
		             (unsigned long long)r->iterations);
		/* w = μ(1, w × 2): uniform, not a constant (degree 0: "not a constant") */
		EXPECT_CLASS(r, "w", opts[i].domain == ANA_POLY && opts[i].degree == 0 ? CLASS_DIVERGENT : CLASS_UNIFORM);
		ana_free(r);
	}
	consistency(pr.p, "10^5 instructions");
	unload(&pr);
}

/* ---- random programs: the solvers agree, Corollary 1 holds ----------------------------- */

/* The analyses are flow-insensitive: they read the instructions and their
** operands only, so random single-definition programs built with the IR
** builder (no control flow to validate) exercise every rule, including
** cycles without μ, γ/η whose predicate is D and whose operands are ⊤, and
** variables no instruction assigns. */
static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33) % n;
}

static Opnd random_opnd(Program *p, int32_t nv)
{
	uint32_t k = rnd(10);
	if (k < 6)
		return ir_opnd_var((int32_t)rnd((uint32_t)nv), LOC_NONE);
	if (k < 8)
		return ir_opnd_lit(p, NUM_I((int64_t)rnd(7) - 2), LOC_NONE);
	return ir_opnd_special((Special)rnd(SPEC__COUNT), LOC_NONE);
}

static Program *random_program(int32_t nv, int32_t nins)
{
	Program *p = ir_new("random", "", 0);
	for (int32_t v = 0; v < nv; v++) {
		char name[16];
		snprintf(name, sizeof name, "v%d", (int)v);
		ir_var(p, name, strlen(name), LOC_NONE);
	}
	for (int32_t v = 0; v < 3 && v < nv; v++)
		p->vars[v].is_param = true;
	/* a random subset of the other variables gets one definition each */
	int32_t *order = xmalloc((size_t)nv * sizeof *order);
	for (int32_t v = 0; v < nv; v++)
		order[v] = v;
	for (int32_t v = nv - 1; v > 0; v--) {
		int32_t j = (int32_t)rnd((uint32_t)v + 1), t = order[v];
		order[v] = order[j];
		order[j] = t;
	}
	int32_t made = 0;
	for (int32_t i = 0; i < nv && made < nins; i++) {
		int32_t d = order[i];
		if (d < 3)
			continue;
		static const Op ops[] = {OP_COPY, OP_UNARY, OP_BINARY, OP_BINARY, OP_BINARY, OP_BINARY, OP_LOAD,
		                         OP_LLOAD, OP_ATOMINC, OP_ATOMADD, OP_PHI, OP_GAMMA, OP_GAMMA, OP_MU,
		                         OP_MU, OP_MU, OP_ETA, OP_ETA};
		Op op = ops[rnd(sizeof ops / sizeof *ops)];
		Ins ins = ir_ins_init(op, LOC_NONE);
		ins.dst = d;
		switch (op) {
		case OP_COPY:
		case OP_LOAD:
		case OP_LLOAD:
		case OP_ATOMINC: ins.a = random_opnd(p, nv); break;
		case OP_UNARY:
			ins.sub = (uint8_t)rnd(UN__COUNT);
			ins.a = random_opnd(p, nv);
			break;
		case OP_BINARY: {
			/* mostly + − × and comparisons, the operators with their own rules */
			static const BinOp bops[] = {BIN_ADD, BIN_ADD, BIN_SUB, BIN_MUL, BIN_MUL, BIN_LT, BIN_EQ,
			                             BIN_DIV, BIN_MOD, BIN_SHL, BIN_AND, BIN_MAX};
			ins.sub = (uint8_t)bops[rnd(sizeof bops / sizeof *bops)];
			ins.a = random_opnd(p, nv);
			ins.b = random_opnd(p, nv);
			break;
		}
		case OP_ATOMADD:
		case OP_ETA:
			ins.a = random_opnd(p, nv);
			ins.b = random_opnd(p, nv);
			break;
		case OP_GAMMA:
			ins.a = random_opnd(p, nv);
			ins.b = random_opnd(p, nv);
			ins.c = random_opnd(p, nv);
			break;
		default: /* μ, φ */
			ins.nargs = 1 + (int32_t)rnd(3);
			ins.args = xmalloc((size_t)ins.nargs * sizeof *ins.args);
			for (int32_t k = 0; k < ins.nargs; k++)
				ins.args[k] = random_opnd(p, nv);
			break;
		}
		ir_append(p, &ins);
		made++;
		if (rnd(6) == 0) { /* a branch on something */
			Ins br = ir_ins_init(OP_BZ, LOC_NONE);
			br.a = random_opnd(p, nv);
			ir_append(p, &br);
		}
	}
	free(order);
	return p;
}

Test(ana_random, solvers_agree_and_corollary1, .init = watchdog_120)
{
	rng_state = 20130901;
	int32_t checked = 0;
	for (int iter = 0; iter < 600; iter++) {
		int32_t nv = 6 + (int32_t)rnd(40);
		Program *p = random_program(nv, nv - 3 - (int32_t)rnd(4));
		char what[32];
		snprintf(what, sizeof what, "random program %d", iter);
		checked += consistency(p, what);
		for (int32_t deg = 0; deg <= 3; deg += 3) { /* degrees 0 and 3 must not crash either */
			AnaOptions o = poly_opt(deg);
			o.sub_generic = iter & 1;
			o.no_cmp_rule = iter & 2;
			AnaResult *r = run(p, o);
			ana_free(r);
		}
		ir_free(p);
	}
	cr_expect_gt(checked, 1000, "only %d uniform variables checked", (int)checked);
}
