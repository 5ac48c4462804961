/*
** test_parse.c — the front end: grammar/lexer.l, grammar/parser.y, src/ir.c
** (language.md §1-§4 and the parser-side checks of §5).
*/
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* ---- helpers ----------------------------------------------------------- */

typedef struct Parsed {
	Program *p;
	Diags d;
	char *src; /* Diags keeps a pointer to it */
	char *out; /* rendered diagnostics */
} Parsed;

static Parsed parse_n(const char *src, size_t len)
{
	Parsed r;
	r.src = xmalloc(len + 1);
	memcpy(r.src, src, len);
	r.src[len] = '\0';
	diag_init(&r.d, "t.simd", r.src, len);
	r.p = ir_parse("t.simd", r.src, len, &r.d);
	Buf b = {0};
	diag_render(&r.d, &b);
	r.out = buf_steal(&b);
	return r;
}

static Parsed parse(const char *src)
{
	return parse_n(src, strlen(src));
}

static void done(Parsed *r)
{
	ir_free(r->p);
	diag_free(&r->d);
	free(r->src);
	free(r->out);
}

/* Parse a program that must be clean. */
static Parsed ok(const char *src)
{
	Parsed r = parse(src);
	cr_assert_eq(r.d.nerrors, 0, "unexpected errors for:\n%s\n%s", src, r.out);
	return r;
}

/* The diagnostics of a program, rendered. */
static void expect_errors(const char *src, const char *want)
{
	Parsed r = parse(src);
	cr_expect_str_eq(r.out, want, "for:\n%s\ngot:\n%s\nwant:\n%s", src, r.out, want);
	done(&r);
}

static const char *var_name(const Program *p, int32_t v)
{
	cr_assert(v >= 0 && v < p->nvars, "bad variable index %d", v);
	return p->vars[v].name;
}

static void expect_var(const Program *p, const Opnd *o, const char *name)
{
	cr_assert_eq(o->kind, OPND_VAR, "operand kind %d, want a variable %s", o->kind, name);
	cr_expect_str_eq(var_name(p, o->var), name);
}

static void expect_lit(const Program *p, const Opnd *o, int64_t v)
{
	cr_assert_eq(o->kind, OPND_LIT, "operand kind %d, want literal %lld", o->kind, (long long)v);
	cr_expect(num_eq(ir_lit(p, o), NUM_I(v)), "literal %lld, want %lld", (long long)ir_lit(p, o).i, (long long)v);
}

static void expect_special(const Opnd *o, Special s)
{
	cr_assert_eq(o->kind, OPND_SPECIAL);
	cr_expect_eq(o->special, s);
}

static char *print_prog(const Program *p)
{
	Buf b = {0};
	ir_print(&b, p);
	return buf_steal(&b);
}

static char *print_ins(const Program *p, int32_t pc)
{
	Buf b = {0};
	ir_print_ins(&b, p, &p->ins[pc]);
	return buf_steal(&b);
}

static bool opnd_same(const Program *pa, const Opnd *a, const Program *pb, const Opnd *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case OPND_VAR: return strcmp(pa->vars[a->var].name, pb->vars[b->var].name) == 0;
	case OPND_LIT: return num_eq(ir_lit(pa, a), ir_lit(pb, b));
	case OPND_SPECIAL: return a->special == b->special;
	default: return true;
	}
}

/* Same instructions, compared by names (variable indices may differ). */
static void expect_same_program(const Program *a, const Program *b)
{
	cr_assert_eq(a->nins, b->nins);
	for (int32_t pc = 0; pc < a->nins; pc++) {
		const Ins *x = &a->ins[pc], *y = &b->ins[pc];
		cr_expect_eq(x->op, y->op, "pc %d", pc);
		cr_expect_eq(x->sub, y->sub, "pc %d", pc);
		cr_expect_eq(x->dst < 0, y->dst < 0, "pc %d", pc);
		if (x->dst >= 0 && y->dst >= 0)
			cr_expect_str_eq(a->vars[x->dst].name, b->vars[y->dst].name, "pc %d", pc);
		cr_expect(opnd_same(a, &x->a, b, &y->a), "pc %d: a", pc);
		cr_expect(opnd_same(a, &x->b, b, &y->b), "pc %d: b", pc);
		cr_expect(opnd_same(a, &x->c, b, &y->c), "pc %d: c", pc);
		cr_assert_eq(x->nargs, y->nargs, "pc %d", pc);
		for (int32_t i = 0; i < x->nargs; i++)
			cr_expect(opnd_same(a, &x->args[i], b, &y->args[i]), "pc %d: arg %d", pc, i);
		cr_expect_eq(x->target, y->target, "pc %d", pc);
		cr_expect_eq(x->group < 0, y->group < 0, "pc %d", pc);
		if (pc > 0)
			cr_expect_eq(x->group >= 0 && x->group == a->ins[pc - 1].group,
			             y->group >= 0 && y->group == b->ins[pc - 1].group, "pc %d", pc);
		const char *lx = ir_label_of(a, pc), *ly = ir_label_of(b, pc);
		cr_expect_eq(lx == NULL, ly == NULL, "pc %d", pc);
		if (lx && ly)
			cr_expect_str_eq(lx, ly, "pc %d", pc);
	}
	cr_expect_eq(a->threads, b->threads);
	cr_expect_eq(a->warpsize, b->warpsize);
	cr_expect_eq(a->memory_zero, b->memory_zero);
	cr_expect_eq(a->kernel == NULL, b->kernel == NULL);
	if (a->kernel && b->kernel)
		cr_expect_str_eq(a->kernel, b->kernel);
	cr_assert_eq(a->ndata, b->ndata);
	for (int32_t i = 0; i < a->ndata; i++) {
		cr_expect_eq(a->data[i].addr, b->data[i].addr);
		cr_expect_eq(a->data[i].count, b->data[i].count);
		cr_expect(num_eq(a->data[i].value, b->data[i].value));
	}
	for (int32_t i = 0; i < a->nvars; i++) {
		if (!a->vars[i].is_param)
			continue;
		int32_t j = ir_find_var(b, a->vars[i].name);
		cr_assert(j >= 0 && b->vars[j].is_param, "parameter %s", a->vars[i].name);
		cr_expect_eq(a->vars[i].has_value, b->vars[j].has_value);
		cr_expect(num_eq(a->vars[i].value, b->vars[j].value));
	}
}

/* parse → print → parse → print: same instructions, same text. */
static void round_trip(const char *src)
{
	Parsed a = ok(src);
	char *t1 = print_prog(a.p);
	Parsed b = ok(t1);
	char *t2 = print_prog(b.p);
	cr_expect_str_eq(t1, t2);
	expect_same_program(a.p, b.p);
	free(t1);
	free(t2);
	done(&a);
	done(&b);
}

static const char sum_triangle[] =
	".kernel sum_triangle\n"
	".threads 4\n"
	".param c = 4          # columns\n"
	".param v = 16         # output base address\n"
	".data 0: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"
	"l0:  s = 0\n"
	"l1:  d = 0\n"
	"l2:  i = tid\n"
	"l3:  x = tid + 1\n"
	"l4:  L = c * x\n"
	"l5:  p = i < L\n"
	"l6:  bz p, l15          # leave the loop where p == 0\n"
	"l7:  q = d % 2\n"
	"l8:  bz q, l11\n"
	"l9:  x = mem[i]\n"
	"l10: s = s + x\n"
	"l11: sync\n"
	"l12: d = d + 1\n"
	"l13: i = i + c\n"
	"l14: jump l5\n"
	"l15: sync\n"
	"l16: x = d - 1\n"
	"l17: y = v + x\n"
	"l18: mem[y] = s\n"
	"l19: stop\n";

/* seed-001-sampaio.md §5.3, verbatim (Unicode, `;` comments) */
static const char sum_triangle_gsa[] =
	"l0:  s0 = 0\n"
	"l1:  d0 = 0\n"
	"l2:  i0 = T_id\n"
	"l3:  x0 = T_id + 1\n"
	"l4:  L0 = c × x0\n"
	"l5:  [i1, s1, d1] = μ[(i0, s0, d0), (i2, s3, d2)]\n"
	"l6:  p0 = i1 < L0                 ; text prints \"p_0 = i_1 - L_0\"\n"
	"l7:  bz p0, l16                   ; Reading R: bnz p0, l16\n"
	"l8:  p1 = d1 % 2\n"
	"l9:  bz p1, l12                   ; text: \"bnz p_1, l_12\" (= Reading R)\n"
	"l10: x1 = ↓i1\n"
	"l11: s2 = s1 + x1\n"
	"l12: [s3] = γ(p1, s2, s1)         ; implicit sync\n"
	"l13: d2 = d1 + 1\n"
	"l14: i2 = i1 + c\n"
	"l15: jump l5\n"
	"l16: [s4, d3] = η[p0, (s1, d1)]   ; implicit sync (loop exit)\n"
	"l17: x2 = d3 - 1\n"
	"l18: x3 = v + x2\n"
	"l19: ↑x3 = s4\n"
	"l20: stop\n";

/* ---- whole programs ---------------------------------------------------- */

Test(parse, sum_triangle)
{
	Parsed r = ok(sum_triangle);
	Program *p = r.p;
	cr_assert_eq(p->nins, 20);
	cr_expect_str_eq(p->kernel, "sum_triangle");
	cr_expect_eq(p->threads, 4);
	cr_expect_eq(p->warpsize, 0);
	cr_expect(!p->memory_zero);
	cr_expect(!p->has_gsa);
	int32_t c = ir_find_var(p, "c"), v = ir_find_var(p, "v");
	cr_assert(c >= 0 && v >= 0);
	cr_expect(p->vars[c].is_param && p->vars[c].has_value && num_eq(p->vars[c].value, NUM_I(4)));
	cr_expect(p->vars[v].is_param && num_eq(p->vars[v].value, NUM_I(16)));
	cr_expect(!p->vars[ir_find_var(p, "s")].is_param);
	cr_assert_eq(p->ndata, 16);
	for (int i = 0; i < 16; i++) {
		cr_expect_eq(p->data[i].addr, i);
		cr_expect_eq(p->data[i].count, 1);
		cr_expect(num_eq(p->data[i].value, NUM_I(i)));
	}
	for (int32_t pc = 0; pc < 20; pc++) {
		char want[8];
		snprintf(want, sizeof want, "l%d", pc);
		cr_expect_str_eq(ir_label_of(p, pc), want);
		cr_expect_eq(p->labels[ir_find_label(p, want)].ins, pc);
		cr_expect_eq(p->ins[pc].loc.line, pc + 6);
	}
	cr_expect_eq(p->ins[6].op, OP_BZ);
	expect_var(p, &p->ins[6].a, "p");
	cr_expect_eq(p->ins[6].target, 15);
	cr_expect_eq(p->ins[8].target, 11);
	cr_expect_eq(p->ins[14].op, OP_JUMP);
	cr_expect_eq(p->ins[14].target, 5);
	cr_expect_eq(p->ins[2].op, OP_COPY);
	expect_special(&p->ins[2].a, SPEC_TID);
	cr_expect_eq(p->ins[3].op, OP_BINARY);
	cr_expect_eq(p->ins[3].sub, BIN_ADD);
	expect_special(&p->ins[3].a, SPEC_TID);
	expect_lit(p, &p->ins[3].b, 1);
	cr_expect_eq(p->ins[9].op, OP_LOAD);
	cr_expect_str_eq(var_name(p, p->ins[9].dst), "x");
	expect_var(p, &p->ins[9].a, "i");
	cr_expect_eq(p->ins[18].op, OP_STORE);
	expect_var(p, &p->ins[18].a, "y");
	expect_var(p, &p->ins[18].b, "s");
	cr_expect_eq(p->ins[19].op, OP_STOP);
	/* locations: statement after the label, destination, operands */
	cr_expect_eq(p->ins[10].loc.line, 16);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[10].loc.off), 6);
	cr_expect_eq(p->ins[10].loc.len, (int)strlen("s = s + x"));
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[10].dst_off), 6);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[10].b.off), 14);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[6].target_off), 12);
	done(&r);
}

Test(parse, sum_triangle_gsa_matrix)
{
	Parsed r = ok(sum_triangle_gsa);
	Program *p = r.p;
	cr_assert(p->has_gsa);
	cr_assert_eq(p->nins, 24); /* 21 statements, μ has 3 rows, η 2 */
	cr_expect_eq(p->ngroups, 3);
	/* l5: three μ rows, one group */
	const char *mu_dst[] = {"i1", "s1", "d1"}, *mu_in[] = {"i0", "s0", "d0"},
	           *mu_back[] = {"i2", "s3", "d2"};
	for (int i = 0; i < 3; i++) {
		const Ins *ins = &p->ins[5 + i];
		cr_expect_eq(ins->op, OP_MU);
		cr_expect_eq(ins->group, p->ins[5].group);
		cr_expect_str_eq(var_name(p, ins->dst), mu_dst[i]);
		cr_assert_eq(ins->nargs, 2);
		expect_var(p, &ins->args[0], mu_in[i]);
		expect_var(p, &ins->args[1], mu_back[i]);
		cr_expect_eq(ins->loc.line, 6);
	}
	cr_expect_str_eq(ir_label_of(p, 5), "l5");
	cr_expect_null(ir_label_of(p, 6));
	cr_expect_str_eq(ir_label_of(p, 8), "l6");
	/* l12: [s3] = γ(p1, s2, s1): a one-row group */
	int32_t g = p->labels[ir_find_label(p, "l12")].ins;
	cr_expect_eq(p->ins[g].op, OP_GAMMA);
	cr_expect_geq(p->ins[g].group, 0);
	cr_expect_neq(p->ins[g].group, p->ins[5].group);
	expect_var(p, &p->ins[g].a, "p1");
	expect_var(p, &p->ins[g].b, "s2");
	expect_var(p, &p->ins[g].c, "s1");
	/* l16: [s4, d3] = η[p0, (s1, d1)] */
	int32_t e = p->labels[ir_find_label(p, "l16")].ins;
	for (int i = 0; i < 2; i++) {
		const Ins *ins = &p->ins[e + i];
		cr_expect_eq(ins->op, OP_ETA);
		cr_expect_eq(ins->group, p->ins[e].group);
		cr_expect_str_eq(var_name(p, ins->dst), i ? "d3" : "s4");
		expect_var(p, &ins->a, "p0");
		expect_var(p, &ins->b, i ? "d1" : "s1");
	}
	cr_expect_eq(g, 14);
	cr_expect_eq(e, 18);
	cr_expect_eq(p->ins[9].op, OP_BZ); /* l7: bz p0, l16 */
	cr_expect_eq(p->ins[9].target, e);
	cr_expect_eq(p->ins[11].target, g); /* l9: bz p1, l12 */
	cr_expect_eq(p->ins[17].op, OP_JUMP); /* l15: jump l5 */
	cr_expect_eq(p->ins[17].target, 5);
	cr_expect_eq(p->ins[12].op, OP_LOAD); /* l10: x1 = ↓i1 */
	cr_expect_eq(p->ins[4].sub, BIN_MUL); /* l4: L0 = c × x0 */
	cr_expect_eq(p->ins[p->nins - 2].op, OP_STORE); /* l19: ↑x3 = s4 */
	done(&r);
}

/* ---- every form and alias (language.md §4) ------------------------------ */

struct form {
	char src[64];
	int op, sub;
	char print[48]; /* canonical form (ir_print_ins) */
};

ParameterizedTestParameters(parse, forms)
{
	static struct form forms[] = {
		/* 4.1 core */
		{"x = y", OP_COPY, 0, "x = y"},
		{"x = 7", OP_COPY, 0, "x = 7"},
		{"const(x, 5)", OP_COPY, 0, "x = 5"},
		{"const(x, -5)", OP_COPY, 0, "x = -5"},
		{"x = tid", OP_COPY, 0, "x = tid"},
		{"x = T_id", OP_COPY, 0, "x = tid"},
		{"x = Tid", OP_COPY, 0, "x = tid"},
		{"x = T_{id}", OP_COPY, 0, "x = tid"},
		{"x = laneid", OP_COPY, 0, "x = laneid"},
		{"x = warpid", OP_COPY, 0, "x = warpid"},
		{"x = ntid", OP_COPY, 0, "x = ntid"},
		{"x = nwarps", OP_COPY, 0, "x = nwarps"},
		{"x = warpsize", OP_COPY, 0, "x = warpsize"},
		{"x = a + b", OP_BINARY, BIN_ADD, "x = a + b"},
		{"x = a - b", OP_BINARY, BIN_SUB, "x = a - b"},
		{"x = a * b", OP_BINARY, BIN_MUL, "x = a * b"},
		{"x = a × b", OP_BINARY, BIN_MUL, "x = a * b"},
		{"x = a / b", OP_BINARY, BIN_DIV, "x = a / b"},
		{"x = a % b", OP_BINARY, BIN_MOD, "x = a % b"},
		{"x = a < b", OP_BINARY, BIN_LT, "x = a < b"},
		{"x = a <= b", OP_BINARY, BIN_LE, "x = a <= b"},
		{"x = a ≤ b", OP_BINARY, BIN_LE, "x = a <= b"},
		{"x = a > b", OP_BINARY, BIN_GT, "x = a > b"},
		{"x = a >= b", OP_BINARY, BIN_GE, "x = a >= b"},
		{"x = a ≥ b", OP_BINARY, BIN_GE, "x = a >= b"},
		{"x = a == b", OP_BINARY, BIN_EQ, "x = a == b"},
		{"x = a != b", OP_BINARY, BIN_NE, "x = a != b"},
		{"x = a ≠ b", OP_BINARY, BIN_NE, "x = a != b"},
		{"x = a & b", OP_BINARY, BIN_AND, "x = a & b"},
		{"x = a | b", OP_BINARY, BIN_OR, "x = a | b"},
		{"x = a ^ b", OP_BINARY, BIN_XOR, "x = a ^ b"},
		{"x = a << b", OP_BINARY, BIN_SHL, "x = a << b"},
		{"x = a >> b", OP_BINARY, BIN_SHR, "x = a >> b"},
		{"x = a && b", OP_BINARY, BIN_LAND, "x = a && b"},
		{"x = a || b", OP_BINARY, BIN_LOR, "x = a || b"},
		{"x = a+b", OP_BINARY, BIN_ADD, "x = a + b"},
		{"x = min(a, b)", OP_BINARY, BIN_MIN, "x = min(a, b)"},
		{"x = max(a, 3)", OP_BINARY, BIN_MAX, "x = max(a, 3)"},
		{"add(s, s, one)", OP_BINARY, BIN_ADD, "s = s + one"},
		{"sub(x, a, b)", OP_BINARY, BIN_SUB, "x = a - b"},
		{"mul(x, a, b)", OP_BINARY, BIN_MUL, "x = a * b"},
		{"div(x, a, b)", OP_BINARY, BIN_DIV, "x = a / b"},
		{"mod(x, a, b)", OP_BINARY, BIN_MOD, "x = a % b"},
		{"lt(x, a, b)", OP_BINARY, BIN_LT, "x = a < b"},
		{"le(x, a, b)", OP_BINARY, BIN_LE, "x = a <= b"},
		{"gt(x, a, b)", OP_BINARY, BIN_GT, "x = a > b"},
		{"ge(x, a, b)", OP_BINARY, BIN_GE, "x = a >= b"},
		{"eq(x, a, b)", OP_BINARY, BIN_EQ, "x = a == b"},
		{"ne(x, a, b)", OP_BINARY, BIN_NE, "x = a != b"},
		{"and(x, a, b)", OP_BINARY, BIN_AND, "x = a & b"},
		{"or(x, a, b)", OP_BINARY, BIN_OR, "x = a | b"},
		{"xor(x, a, b)", OP_BINARY, BIN_XOR, "x = a ^ b"},
		{"shl(x, a, b)", OP_BINARY, BIN_SHL, "x = a << b"},
		{"shr(x, a, b)", OP_BINARY, BIN_SHR, "x = a >> b"},
		{"land(x, a, b)", OP_BINARY, BIN_LAND, "x = a && b"},
		{"lor(x, a, b)", OP_BINARY, BIN_LOR, "x = a || b"},
		{"min(x, a, b)", OP_BINARY, BIN_MIN, "x = min(a, b)"},
		{"max(x, a, -1)", OP_BINARY, BIN_MAX, "x = max(a, -1)"},
		{"x = -a", OP_UNARY, UN_NEG, "x = -a"},
		{"x = !a", OP_UNARY, UN_NOT, "x = !a"},
		{"x = ~a", OP_UNARY, UN_BNOT, "x = ~a"},
		{"x = - 3", OP_UNARY, UN_NEG, "x = - 3"},
		{"x = mem[a]", OP_LOAD, 0, "x = mem[a]"},
		{"x = ↓a", OP_LOAD, 0, "x = mem[a]"},
		{"load(x, a)", OP_LOAD, 0, "x = mem[a]"},
		{"mem[a] = b", OP_STORE, 0, "mem[a] = b"},
		{"↑a = b", OP_STORE, 0, "mem[a] = b"},
		{"store(b, a)", OP_STORE, 0, "mem[a] = b"},
		{"x = atominc(a)", OP_ATOMINC, 0, "x = atominc(a)"},
		{"x ←a a + 1", OP_ATOMINC, 0, "x = atominc(a)"},
		{"x <-a a + 1", OP_ATOMINC, 0, "x = atominc(a)"},
		{"atominc(x, a)", OP_ATOMINC, 0, "x = atominc(a)"},
		{"bz v, L", OP_BZ, 0, "bz v, L"},
		{"bnz v, L", OP_BNZ, 0, "bnz v, L"},
		{"branch(v, L)", OP_BNZ, 0, "bnz v, L"},
		{"bz tid, L", OP_BZ, 0, "bz tid, L"},
		{"bnz 0, L", OP_BNZ, 0, "bnz 0, L"},
		{"jump L", OP_JUMP, 0, "jump L"},
		{"jmp L", OP_JUMP, 0, "jump L"},
		{"jump(L)", OP_JUMP, 0, "jump L"},
		{"sync", OP_SYNC, 0, "sync"},
		{"stop", OP_STOP, 0, "stop"},
		/* 4.2 extensions */
		{"x = local[a]", OP_LLOAD, 0, "x = local[a]"},
		{"x = ⇓a", OP_LLOAD, 0, "x = local[a]"},
		{"local[a] = b", OP_LSTORE, 0, "local[a] = b"},
		{"⇑a = b", OP_LSTORE, 0, "local[a] = b"},
		{"x = atomadd(a, b)", OP_ATOMADD, 0, "x = atomadd(a, b)"},
		{"x = atomcas(a, 0, 1)", OP_ATOMCAS, 0, "x = atomcas(a, 0, 1)"},
		{"x = atomexch(a, 0)", OP_ATOMEXCH, 0, "x = atomexch(a, 0)"},
		{"barrier", OP_BARRIER, 0, "barrier"},
		{"exit", OP_EXIT, 0, "exit"},
		/* 4.3 GSA, scalar */
		{"x = phi(a)", OP_PHI, 0, "x = phi(a)"},
		{"x = phi(a, b, c)", OP_PHI, 0, "x = phi(a, b, c)"},
		{"x = φ[a, b]", OP_PHI, 0, "x = phi(a, b)"},
		{"x = gamma(p, a, b)", OP_GAMMA, 0, "x = gamma(p, a, b)"},
		{"x = γ[p, a, 0]", OP_GAMMA, 0, "x = gamma(p, a, 0)"},
		{"x = mu(a, b)", OP_MU, 0, "x = mu(a, b)"},
		{"x = μ(a, b, c)", OP_MU, 0, "x = mu(a, b, c)"},
		{"x = µ[a, b]", OP_MU, 0, "x = mu(a, b)"}, /* U+00B5 micro sign */
		{"x = eta(p, a)", OP_ETA, 0, "x = eta(p, a)"},
		{"x = η[p, (a)]", OP_ETA, 0, "x = eta(p, a)"},
	};
	return cr_make_param_array(struct form, forms, sizeof forms / sizeof forms[0]);
}

ParameterizedTest(struct form *f, parse, forms)
{
	char src[128];
	snprintf(src, sizeof src, "L: %s\nstop\n", f->src);
	Parsed r = ok(src);
	cr_assert_eq(r.p->nins, 2, "%s", f->src);
	const Ins *ins = &r.p->ins[0];
	cr_expect_eq(ins->op, f->op, "%s: op %s", f->src, ir_op_name((Op)ins->op));
	cr_expect_eq(ins->sub, f->sub, "%s", f->src);
	cr_expect_eq(ins->group, -1);
	cr_expect_eq(ins->label, ir_find_label(r.p, "L"));
	char *s = print_ins(r.p, 0);
	cr_expect_str_eq(s, f->print, "%s", f->src);
	free(s);
	if (ins->op == OP_BZ || ins->op == OP_BNZ || ins->op == OP_JUMP)
		cr_expect_eq(ins->target, 0);
	done(&r);
}

Test(parse, operand_fields)
{
	Parsed r = ok("store(v, a)\n"
	              "x = atomcas(a, 1, tid)\n"
	              "y ←a T_id + 1\n"
	              "const(q, 0x1F)\n"
	              "z = γ(p, 1, -2)\n"
	              "w = phi(a, 3, laneid)\n"
	              "bz 5, end\n"
	              "end: stop\n");
	Program *p = r.p;
	expect_var(p, &p->ins[0].a, "a"); /* address */
	expect_var(p, &p->ins[0].b, "v"); /* value */
	expect_var(p, &p->ins[1].a, "a");
	expect_lit(p, &p->ins[1].b, 1);
	expect_special(&p->ins[1].c, SPEC_TID);
	cr_expect_eq(p->ins[2].op, OP_ATOMINC);
	expect_special(&p->ins[2].a, SPEC_TID);
	cr_expect_str_eq(var_name(p, p->ins[2].dst), "y");
	expect_lit(p, &p->ins[3].a, 31);
	expect_var(p, &p->ins[4].a, "p");
	expect_lit(p, &p->ins[4].b, 1);
	expect_lit(p, &p->ins[4].c, -2);
	cr_assert_eq(p->ins[5].nargs, 3);
	expect_var(p, &p->ins[5].args[0], "a");
	expect_lit(p, &p->ins[5].args[1], 3);
	expect_special(&p->ins[5].args[2], SPEC_LANEID);
	expect_lit(p, &p->ins[6].a, 5);
	cr_expect_eq(p->ins[6].target, 7);
	cr_expect_eq(p->ins[6].target_label, ir_find_label(p, "end"));
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[6].target_off), 7);
	/* operand locations */
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[1].c.off), 19);
	cr_expect_eq(p->ins[1].c.len, 3);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[4].c.off), 13); /* γ is one column */
	cr_expect_eq(p->ins[4].c.len, 2);
	done(&r);
}

/* The functional names are not reserved (§1). */
Test(parse, functional_names_are_identifiers)
{
	Parsed r = ok("add: add = le + or\n"
	              "le: add(le, add, or)\n"
	              "or: or = min(add, xor)\n"
	              "bz and, add\n"
	              "bnz lor, le\n"
	              "mod(mod, mod, mod)\n"
	              "jump or\n");
	Program *p = r.p;
	cr_assert_eq(p->nins, 7);
	cr_expect_eq(p->ins[0].op, OP_BINARY);
	cr_expect_str_eq(var_name(p, p->ins[0].dst), "add");
	expect_var(p, &p->ins[0].a, "le");
	expect_var(p, &p->ins[0].b, "or");
	cr_expect_eq(p->ins[1].op, OP_BINARY);
	cr_expect_eq(p->ins[1].sub, BIN_ADD);
	cr_expect_str_eq(var_name(p, p->ins[1].dst), "le");
	expect_var(p, &p->ins[1].a, "add");
	cr_expect_eq(p->ins[2].sub, BIN_MIN);
	expect_var(p, &p->ins[2].b, "xor");
	cr_expect_eq(p->ins[3].target, 0);
	cr_expect_eq(p->ins[4].target, 1);
	cr_expect_eq(p->ins[5].sub, BIN_MOD);
	cr_expect_eq(p->ins[6].target, 2);
	cr_expect_str_eq(ir_label_of(p, 2), "or");
	done(&r);
}

Test(parse, identifiers)
{
	Parsed r = ok("i_1 = d.3 + s'\nx = _a\nstop\n");
	expect_var(r.p, &r.p->ins[0].a, "d.3");
	expect_var(r.p, &r.p->ins[0].b, "s'");
	cr_expect_str_eq(var_name(r.p, r.p->ins[0].dst), "i_1");
	expect_var(r.p, &r.p->ins[1].a, "_a");
	done(&r);
}

/* `-3` is a literal where an operand is expected, else `-` is binary (§1). */
Test(parse, negative_literals)
{
	Parsed r = ok("x = a -3\n"
	              "x = -3\n"
	              "x = - 3\n"
	              "x = a - -3\n"
	              "x = 5-3\n"
	              "x = a-b\n"
	              "mem[-1] = -2\n"
	              "x = -0x10\n"
	              "x = a<-3\n"
	              "stop\n");
	Program *p = r.p;
	cr_expect_eq(p->ins[0].op, OP_BINARY);
	cr_expect_eq(p->ins[0].sub, BIN_SUB);
	expect_var(p, &p->ins[0].a, "a");
	expect_lit(p, &p->ins[0].b, 3);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[0].b.off), 8); /* the digits, after the sign */
	cr_expect_eq(p->ins[1].op, OP_COPY);
	expect_lit(p, &p->ins[1].a, -3);
	cr_expect_eq(p->ins[2].op, OP_UNARY);
	cr_expect_eq(p->ins[2].sub, UN_NEG);
	expect_lit(p, &p->ins[2].a, 3);
	cr_expect_eq(p->ins[3].sub, BIN_SUB);
	expect_lit(p, &p->ins[3].b, -3);
	cr_expect_eq(p->ins[4].sub, BIN_SUB);
	expect_lit(p, &p->ins[4].a, 5);
	expect_lit(p, &p->ins[4].b, 3);
	cr_expect_eq(p->ins[5].sub, BIN_SUB);
	expect_var(p, &p->ins[5].b, "b");
	cr_expect_eq(p->ins[6].op, OP_STORE);
	expect_lit(p, &p->ins[6].a, -1);
	expect_lit(p, &p->ins[6].b, -2);
	expect_lit(p, &p->ins[7].a, -16);
	cr_expect_eq(p->ins[8].sub, BIN_LT);
	expect_lit(p, &p->ins[8].b, -3);
	done(&r);
}

Test(parse, big_literals)
{
	Parsed r = ok("x = 123456789012345678901234567890\n"
	              "y = -0x10000000000000000\n"
	              "z = 9223372036854775807\n"
	              "w = -9223372036854775808\n"
	              "u = a -9223372036854775808\n"
	              "stop\n");
	Program *p = r.p;
	char *s = num_str(ir_lit(p, &p->ins[0].a));
	cr_expect_str_eq(s, "123456789012345678901234567890");
	free(s);
	cr_expect_not_null(ir_lit(p, &p->ins[0].a).z);
	s = num_str(ir_lit(p, &p->ins[1].a));
	cr_expect_str_eq(s, "-18446744073709551616");
	free(s);
	expect_lit(p, &p->ins[2].a, INT64_MAX);
	expect_lit(p, &p->ins[3].a, INT64_MIN);
	s = num_str(ir_lit(p, &p->ins[4].b)); /* the negation leaves int64 */
	cr_expect_str_eq(s, "9223372036854775808");
	free(s);
	char *t = print_prog(p);
	cr_expect(strstr(t, "x = 123456789012345678901234567890\n"), "%s", t);
	cr_expect(strstr(t, "u = a - 9223372036854775808\n"), "%s", t);
	free(t);
	done(&r);
}

Test(parse, literal_above_max_bits)
{
	uint64_t saved = num_max_bits;
	num_max_bits = 64;
	expect_errors("x = 0x1ffffffffffffffff\n"
	              "y = 0xffffffffffffffff\n"
	              "stop\n",
	              "t.simd:1:5: error: integer literal '0x1ffffffffffffffff' is too large (more than 64 bits)\n"
	              "    1 | x = 0x1ffffffffffffffff\n"
	              "      |     ^~~~~~~~~~~~~~~~~~~\n");
	num_max_bits = saved;
	/* a huge literal (10 MB) is refused before GMP converts it, at its
	** place, and the diagnostic shows a window of the line, not 10 MB */
	size_t n = 10u << 20;
	Buf src = {0};
	buf_puts(&src, "stop\nx = ");
	for (size_t i = 0; i < n; i++)
		buf_putc(&src, '7');
	buf_puts(&src, "\nstop\n");
	Parsed r = parse(buf_str(&src));
	cr_expect_eq(r.d.nerrors, 1);
	cr_expect(strstr(r.out, "t.simd:2:5: error: integer literal '7777"), "%.200s", r.out);
	cr_expect(strstr(r.out, "...' is too large (more than 1048576 bits)\n"
	                        "    2 | x = 7777"), "%.300s", r.out);
	cr_expect(strstr(r.out, "777...\n      |     ^~~~"), "%.600s", r.out);
	cr_expect_lt(strlen(r.out), 600, "%.1000s", r.out);
	done(&r);
	buf_free(&src);
}

/* A long line is cut around the caret, which stays under its column. */
Test(parse, long_line_window)
{
	Buf src = {0};
	buf_puts(&src, ".data 0:");
	for (int i = 0; i < 400; i++)
		buf_puts(&src, " 1");
	buf_puts(&src, " )");
	for (int i = 0; i < 400; i++)
		buf_puts(&src, " 2");
	buf_puts(&src, "\nstop\n");
	Parsed r = parse(buf_str(&src));
	cr_assert_eq(r.d.nerrors, 1, "%s", r.out);
	const char *line = strstr(r.out, "    1 | ...");
	const char *caret = strstr(r.out, "      |    ");
	cr_assert(line && caret, "%s", r.out);
	const char *paren = strchr(line, ')');
	const char *hat = strchr(caret, '^');
	cr_assert(paren && hat, "%s", r.out);
	cr_expect_eq(paren - line, hat - caret, "%s", r.out);
	cr_expect(strstr(line, "...\n"), "%s", r.out);
	cr_expect_lt(strlen(r.out), 500);
	done(&r);
	buf_free(&src);
}

/* ---- labels ------------------------------------------------------------ */

Test(parse, numeric_and_reserved_labels)
{
	Parsed r = ok("5: const(x, 1)\n"
	              "exit: branch(x, 5)\n"
	              "le: bz x, exit\n"
	              "stop: mem: phi: tid: jump le\n"
	              "7:\n"
	              "\n"
	              ".threads 2    # a directive between a label and its instruction\n"
	              "# a comment\n"
	              "bz x, 7\n"
	              "jump stop\n");
	Program *p = r.p;
	cr_assert_eq(p->nins, 6);
	cr_expect_eq(p->ins[1].target, 0);
	cr_expect_str_eq(ir_label_of(p, 0), "5");
	cr_expect_str_eq(ir_label_of(p, 1), "exit");
	cr_expect_eq(p->ins[2].target, 1);
	cr_expect_eq(p->ins[3].target, 2);
	cr_expect_str_eq(ir_label_of(p, 3), "stop"); /* the first of several */
	cr_expect_eq(p->labels[ir_find_label(p, "mem")].ins, 3);
	cr_expect_eq(p->labels[ir_find_label(p, "phi")].ins, 3);
	cr_expect_eq(p->labels[ir_find_label(p, "tid")].ins, 3);
	cr_expect_str_eq(ir_label_of(p, 4), "7");
	cr_expect_eq(p->ins[4].target, 4);
	cr_expect_eq(p->ins[5].target, 3);
	cr_expect_eq(p->threads, 2);
	Buf b = {0};
	ir_print_where(&b, p, 3);
	buf_putc(&b, ' ');
	ir_print_where(&b, p, 5);
	cr_expect_str_eq(buf_str(&b), "stop @10");
	buf_free(&b);
	done(&r);
}

Test(parse, layout)
{
	/* CRLF, tabs, no newline at the end, comments of every kind */
	Parsed r = ok("x = 1\r\n\ty = x + 2 // two\r\n\r\n; nothing\nz = y # why\nstop");
	cr_assert_eq(r.p->nins, 4);
	cr_expect_eq(r.p->ins[1].loc.line, 2);
	cr_expect_eq(diag_col(r.p->src, r.p->srclen, r.p->ins[1].loc.off), 9);
	cr_expect_eq(r.p->ins[3].loc.line, 6);
	done(&r);
	Parsed e = parse("");
	/* issue 16: even the empty file's error has its place */
	cr_expect_str_eq(e.out, "t.simd:1:1: error: the program has no instructions (the file is empty)\n"
	                        "    1 | \n"
	                        "      | ^\n");
	done(&e);
}

/* ---- directives (§2) --------------------------------------------------- */

Test(parse, directives)
{
	Parsed r = ok(".kernel k1\n"
	              ".threads 64\n"
	              ".warpsize 32\n"
	              ".memory zero\n"
	              "x = n + m\n"
	              ".param n = -5\n"
	              ".param m\n"
	              ".param big = 0x100000000000000000000\n"
	              ".data 100: 7 -8 0x9\n"
	              ".fill 4 3 -1\n"
	              ".fill 9 0 1\n"
	              ".data 5:\n"
	              "stop\n");
	Program *p = r.p;
	cr_expect_str_eq(p->kernel, "k1");
	cr_expect_eq(p->threads, 64);
	cr_expect_eq(p->warpsize, 32);
	cr_expect(p->memory_zero);
	int32_t n = ir_find_var(p, "n"), m = ir_find_var(p, "m"), big = ir_find_var(p, "big");
	cr_assert(n >= 0 && m >= 0 && big >= 0);
	cr_expect(p->vars[n].is_param && p->vars[n].has_value && num_eq(p->vars[n].value, NUM_I(-5)));
	cr_expect_eq(p->vars[n].loc.line, 6); /* the declaration */
	cr_expect(p->vars[m].is_param && !p->vars[m].has_value);
	cr_expect_not_null(p->vars[big].value.z);
	cr_expect(!p->vars[ir_find_var(p, "x")].is_param);
	cr_assert_eq(p->ndata, 4);
	cr_expect_eq(p->data[0].addr, 100);
	cr_expect(num_eq(p->data[1].value, NUM_I(-8)));
	cr_expect_eq(p->data[2].addr, 102);
	cr_expect(num_eq(p->data[2].value, NUM_I(9)));
	cr_expect_eq(p->data[3].addr, 4);
	cr_expect_eq(p->data[3].count, 3);
	cr_expect(num_eq(p->data[3].value, NUM_I(-1)));
	char *t = print_prog(p);
	cr_expect_str_eq(t, ".kernel k1\n"
	                    ".threads 64\n"
	                    ".warpsize 32\n"
	                    ".memory zero\n"
	                    ".param n = -5\n"
	                    ".param m\n"
	                    ".param big = 1208925819614629174706176\n"
	                    ".data 100: 7 -8 9\n"
	                    ".fill 4 3 -1\n"
	                    "\n"
	                    "x = n + m\n"
	                    "stop\n");
	free(t);
	done(&r);
}

Test(parse, directive_errors)
{
	expect_errors(".threads 0\n"
	              ".warpsize -1\n"
	              ".param n = 1\n"
	              ".param n\n"
	              ".data -1: 3\n"
	              ".fill 5 -1 0\n"
	              ".memory lazy\n"
	              ".frobnicate 3\n"
	              ".fill 9223372036854775807 2 0\n"
	              ".data 9223372036854775806: 1 2 3\n"
	              ".param tid\n"
	              ".threads x\n"
	              "stop\n",
	              "t.simd:1:10: error: invalid .threads value: must be an integer from 1 to 2147483647\n"
	              "    1 | .threads 0\n"
	              "      |          ^\n"
	              "t.simd:2:11: error: invalid .warpsize value: must be an integer from 1 to 2147483647\n"
	              "    2 | .warpsize -1\n"
	              "      |           ^~\n"
	              "t.simd:4:8: error: parameter 'n' declared twice\n"
	              "    4 | .param n\n"
	              "      |        ^\n"
	              "t.simd:3:8: note: 'n' first declared here\n"
	              "    3 | .param n = 1\n"
	              "      |        ^\n"
	              "t.simd:5:7: error: invalid address: must be an integer from 0 to 9223372036854775807\n"
	              "    5 | .data -1: 3\n"
	              "      |       ^~\n"
	              "t.simd:6:9: error: invalid .fill count: must be a non-negative integer\n"
	              "    6 | .fill 5 -1 0\n"
	              "      |         ^~\n"
	              "t.simd:7:9: error: unknown memory mode 'lazy', expecting 'strict' or 'zero'\n"
	              "    7 | .memory lazy\n"
	              "      |         ^~~~\n"
	              "t.simd:8:1: error: unknown directive '.frobnicate'\n"
	              "    8 | .frobnicate 3\n"
	              "      | ^~~~~~~~~~~\n"
	              "t.simd:9:27: error: invalid .fill count: the cells run past the largest address\n"
	              "    9 | .fill 9223372036854775807 2 0\n"
	              "      |                           ^\n"
	              "t.simd:10:32: error: this .data runs past the largest address\n"
	              "   10 | .data 9223372036854775806: 1 2 3\n"
	              "      |                                ^\n"
	              "t.simd:11:8: error: 'tid' is a special variable, not a parameter name\n"
	              "   11 | .param tid\n"
	              "      |        ^~~\n"
	              "t.simd:12:10: error: syntax error, unexpected identifier 'x', expecting integer\n"
	              "   12 | .threads x\n"
	              "      |          ^\n");
}

/* ---- printer ----------------------------------------------------------- */

Test(parse, round_trip_sum_triangle)
{
	round_trip(sum_triangle);
	Parsed r = ok(sum_triangle);
	char *t = print_prog(r.p);
	cr_expect(strstr(t, "l10: s = s + x\n"), "%s", t);
	cr_expect(strstr(t, "l6:  bz p, l15\n"), "%s", t);
	done(&r);
	free(t);
}

Test(parse, round_trip_gsa)
{
	round_trip(sum_triangle_gsa);
	Parsed r = ok(sum_triangle_gsa);
	char *t = print_prog(r.p);
	cr_expect(strstr(t, "l5:  [i1, s1, d1] = mu((i0, s0, d0), (i2, s3, d2))\n"), "%s", t);
	cr_expect(strstr(t, "l12: [s3] = gamma(p1, s2, s1)\n"), "%s", t);
	cr_expect(strstr(t, "l16: [s4, d3] = eta(p0, (s1, d1))\n"), "%s", t);
	cr_expect(strstr(t, "l19: mem[x3] = s4\n"), "%s", t);
	done(&r);
	free(t);
}

Test(parse, round_trip_forms)
{
	round_trip(".kernel all\n.warpsize 2\n.param k = 3\n.fill 0 8 0\n.data 8: 1 2\n"
	           "a = -3\nb = - 3\nc = !-3\nd = a -3\ne = a - -3\nf = ~k\n"
	           "g = min(a, -1)\nmax(h, a, b)\nadd(i, i, 1)\nj = 1 << 70\n"
	           "const(q, 123456789012345678901234567890)\n"
	           "x1 = ↓a\n↑a = b\nx2 = ⇓a\n⇑a = b\nx3 ←a a + 1\nx4 = atomadd(a, 2)\n"
	           "x5 = atomcas(a, 0, tid)\nx6 = atomexch(a, laneid)\n"
	           "5: barrier\nsync\nbz warpid, 5\nbranch(-1, exit)\n"
	           "[u, v] = phi((a, b), (c, d), (e, f))\n"
	           "[w] = mu(a, b, c)\n"
	           "z = gamma(p, 1, 2)\n"
	           "exit: [y1, y2] = gamma(p, (a, b), (c, d))\n"
	           "y3 = eta(p, a)\n"
	           "jump 5\n");
	/* a program with no labels prints without indentation */
	round_trip("x = 1\nstop\n");
}

Test(parse, print_unlabelled_targets)
{
	/* a pass may build branches by pc, without labels */
	Program *p = ir_new("built", "", 0);
	Ins i0 = ir_ins_init(OP_COPY, LOC_NONE);
	i0.dst = ir_var(p, "x", 1, LOC_NONE);
	i0.a = ir_opnd_lit(p, NUM_I(1), LOC_NONE);
	ir_append(p, &i0);
	Ins i1 = ir_ins_init(OP_BNZ, LOC_NONE);
	i1.a = ir_opnd_var(0, LOC_NONE);
	i1.target = 0;
	ir_append(p, &i1);
	Ins i2 = ir_ins_init(OP_STOP, LOC_NONE);
	ir_append(p, &i2);
	Diags d;
	diag_init(&d, "built", "", 0);
	ir_finish(p, &d);
	cr_expect_eq(d.nerrors, 0);
	char *t = print_prog(p);
	cr_expect_str_eq(t, "__pc0: x = 1\n       bnz x, __pc0\n       stop\n");
	free(t);
	diag_free(&d);
	ir_free(p);
}

/* ---- errors, with their exact rendering -------------------------------- */

Test(parse, syntax_errors_all_reported)
{
	expect_errors("x = = 3\n"
	              "y = a +\n"
	              "ok = 1\n"
	              "bz x l1\n"
	              "l1: w = mem[3\n"
	              "x = a b\n"
	              "jump\n"
	              "x = foo(a, b)\n"
	              "add(x, a)\n"
	              "mem = 4\n"
	              ") x\n"
	              "l2: ]\n"
	              "stop\n",
	              "t.simd:1:5: error: syntax error, unexpected '=', expecting expression\n"
	              "    1 | x = = 3\n"
	              "      |     ^\n"
	              "t.simd:2:8: error: syntax error, unexpected end of line, expecting identifier or integer\n"
	              "    2 | y = a +\n"
	              "      |        ^\n"
	              "t.simd:4:6: error: syntax error, unexpected identifier 'l1', expecting ','\n"
	              "    4 | bz x l1\n"
	              "      |      ^~\n"
	              "t.simd:5:14: error: syntax error, unexpected end of line, expecting ']'\n"
	              "    5 | l1: w = mem[3\n"
	              "      |              ^\n"
	              "t.simd:6:7: error: syntax error, unexpected identifier 'b', expecting operator or end of line\n"
	              "    6 | x = a b\n"
	              "      |       ^\n"
	              "t.simd:7:5: error: syntax error, unexpected end of line, expecting label\n"
	              "    7 | jump\n"
	              "      |     ^\n"
	              "t.simd:8:8: error: syntax error, unexpected '(', expecting operator or end of line\n"
	              "    8 | x = foo(a, b)\n"
	              "      |        ^\n"
	              "t.simd:9:9: error: syntax error, unexpected ')', expecting ','\n"
	              "    9 | add(x, a)\n"
	              "      |         ^\n"
	              "t.simd:10:5: error: syntax error, unexpected '=', expecting ':' or '['\n"
	              "   10 | mem = 4\n"
	              "      |     ^\n"
	              "t.simd:11:1: error: syntax error, unexpected ')', expecting instruction, label or directive\n"
	              "   11 | ) x\n"
	              "      | ^\n"
	              "t.simd:12:5: error: syntax error, unexpected ']', expecting instruction or label\n"
	              "   12 | l2: ]\n"
	              "      |     ^\n");
}

Test(parse, syntax_error_at_end_without_newline)
{
	expect_errors("stop\nx = 1 +",
	              "t.simd:2:8: error: syntax error, unexpected end of line, expecting identifier or integer\n"
	              "    2 | x = 1 +\n"
	              "      |        ^\n");
}

/* Columns are computed from the text when a message is rendered (diag_col):
** tabs, UTF-8 continuation bytes and newlines move a column off its byte
** offset, and blanks belong to the token after them. */
Test(parse, columns_after_tabs_utf8_and_blanks)
{
	Parsed r = ok("x\f=\v1 \t+ 2\n"
	              "y = x \xe2\x89\xa4 3 # \xc3\xa9\t\xc3\xa9\n"
	              "# \xc3\xa9\tz\n"
	              "z\t=\t\xe2\x86\x93\tx\n"
	              "w \xe2\x86\x90" "a x + 1\n"
	              "stop\n");
	const Program *p = r.p;
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[0].dst_off), 1);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[0].a.off), 5);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[0].b.off), 11); /* the tab at column 7 ends at 9 */
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[1].b.off), 9);  /* '≤' is one column */
	cr_expect_eq(p->ins[1].b.off, 21);
	cr_expect_eq(p->ins[2].loc.line, 4);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[2].a.off), 25);
	cr_expect_eq(p->ins[2].a.len, 1);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[3].a.off), 6); /* '←a' is two columns */
	cr_expect_eq(p->ins[4].loc.line, 6);
	cr_expect_eq(diag_col(p->src, p->srclen, p->ins[4].loc.off), 1);
	done(&r);
	/* the end of a file that ends in a comment with a tab after UTF-8 */
	expect_errors("stop\nx = 1 + # \xc3\xa9\t",
	              "t.simd:2:17: error: syntax error, unexpected end of line, expecting identifier or integer\n"
	              "    2 | x = 1 + # \xc3\xa9\t\n"
	              "      |            \t^\n");
}

Test(parse, invalid_characters)
{
	static const char src[] = "x = 1 $ 2\n"
	                          "\ty = é\n"
	                          "z = 1\0\n"
	                          "w = \xff\n"
	                          "v = @ @ @\n"
	                          "u = 12ab\n"
	                          "stop\n";
	Parsed r = parse_n(src, sizeof src - 1);
	cr_expect_str_eq(r.out,
	                 "t.simd:1:7: error: invalid character '$'\n"
	                 "    1 | x = 1 $ 2\n"
	                 "      |       ^\n"
	                 "t.simd:2:13: error: invalid character 'é' (U+00E9)\n"
	                 "    2 | \ty = é\n"
	                 "      | \t    ^\n"
	                 "t.simd:3:6: error: invalid character U+0000\n"
	                 "    3 | z = 1 \n"
	                 "      |      ^\n"
	                 "t.simd:4:5: error: invalid byte 0xff (not UTF-8)\n"
	                 "    4 | w = \xff\n"
	                 "      |     ^\n"
	                 "t.simd:5:5: error: invalid character '@'\n"
	                 "    5 | v = @ @ @\n"
	                 "      |     ^\n"
	                 "t.simd:6:5: error: invalid integer literal '12ab'\n"
	                 "    6 | u = 12ab\n"
	                 "      |     ^~~~\n");
	cr_expect_eq(r.d.nerrors, 6);
	done(&r);
}

Test(parse, undefined_label)
{
	expect_errors("x = 1\n"
	              "bz x, nowhere\n"
	              "jump(5)\n",
	              "t.simd:2:7: error: undefined label 'nowhere'\n"
	              "    2 | bz x, nowhere\n"
	              "      |       ^~~~~~~\n"
	              "t.simd:3:6: error: undefined label '5'\n"
	              "    3 | jump(5)\n"
	              "      |      ^\n");
}

Test(parse, duplicate_label)
{
	expect_errors("top: x = 1\n"
	              "  top: stop\n",
	              "t.simd:2:3: error: duplicate label 'top'\n"
	              "    2 |   top: stop\n"
	              "      |   ^~~\n"
	              "t.simd:1:1: note: 'top' first defined here\n"
	              "    1 | top: x = 1\n"
	              "      | ^~~\n");
}

Test(parse, label_at_end_names_nothing)
{
	expect_errors("stop\nend:\n",
	              "t.simd:2:1: error: label 'end' names no instruction\n"
	              "    2 | end:\n"
	              "      | ^~~\n");
}

Test(parse, assign_special)
{
	expect_errors("tid = 1\n"
	              "x = 2\n"
	              "add(laneid, x, x)\n"
	              "[a, T_id] = mu((x, x), (x, x))\n"
	              "stop\n",
	              "t.simd:1:1: error: cannot assign to special variable 'tid'\n"
	              "    1 | tid = 1\n"
	              "      | ^~~\n"
	              "t.simd:3:5: error: cannot assign to special variable 'laneid'\n"
	              "    3 | add(laneid, x, x)\n"
	              "      |     ^~~~~~\n"
	              "t.simd:4:5: error: cannot assign to special variable 'tid'\n"
	              "    4 | [a, T_id] = mu((x, x), (x, x))\n"
	              "      |     ^~~~\n");
}

Test(parse, assign_parameter)
{
	/* the declaration may follow the assignment */
	expect_errors("n = 1\n"
	              "stop\n"
	              ".param n = 3\n",
	              "t.simd:1:1: error: cannot assign to parameter 'n'\n"
	              "    1 | n = 1\n"
	              "      | ^\n"
	              "t.simd:3:8: note: 'n' declared here\n"
	              "    3 | .param n = 3\n"
	              "      |        ^\n");
}

Test(parse, gsa_requires_ssa)
{
	expect_errors("x = 1\n"
	              "y = phi(x)\n"
	              "x = 2\n"
	              "[y2, x] = mu((x, x), (y, y))\n"
	              "stop\n",
	              "t.simd:3:1: error: 'x' is defined twice, but a program with GSA instructions must be in SSA form\n"
	              "    3 | x = 2\n"
	              "      | ^\n"
	              "t.simd:1:1: note: first definition of 'x'\n"
	              "    1 | x = 1\n"
	              "      | ^\n"
	              "t.simd:4:6: error: 'x' is defined twice, but a program with GSA instructions must be in SSA form\n"
	              "    4 | [y2, x] = mu((x, x), (y, y))\n"
	              "      |      ^\n"
	              "t.simd:1:1: note: first definition of 'x'\n"
	              "    1 | x = 1\n"
	              "      | ^\n");
	/* without GSA instructions, redefinition is fine */
	Parsed r = ok("x = 1\nx = 2\nstop\n");
	done(&r);
}

Test(parse, fall_off_the_end)
{
	expect_errors("x = 1\n"
	              "bz x, end\n"
	              "end: sync\n",
	              "t.simd:3:6: error: the program can fall off its end: the last instruction must be stop, exit, jump or ret\n"
	              "    3 | end: sync\n"
	              "      |      ^~~~\n");
	Parsed r = ok("l: x = 1\nexit\n");
	done(&r);
	r = ok("l: x = 1\njump l\n");
	done(&r);
}

Test(parse, gsa_arity_and_tuples)
{
	expect_errors("[a, b] = mu((x, y), (z))\n"
	              "[c, d] = μ[(x, y), z]\n"
	              "[e] = gamma(p, x)\n"
	              "[f, g] = gamma((p, q), (x, y), (z, w))\n"
	              "h = eta(p, (x, y))\n"
	              "i = mu(x)\n"
	              "j = eta(p, x, y)\n"
	              "k = phi[x, y)\n"
	              "stop\n",
	              "t.simd:1:21: error: expected a tuple of 2 operands (one per destination), found 1\n"
	              "    1 | [a, b] = mu((x, y), (z))\n"
	              "      |                     ^~~\n"
	              "t.simd:2:20: error: expected a tuple of 2 operands (one per destination), found a single operand\n"
	              "    2 | [c, d] = μ[(x, y), z]\n"
	              "      |                    ^\n"
	              "t.simd:3:7: error: gamma takes 3 operands (p, o1, o2), found 2\n"
	              "    3 | [e] = gamma(p, x)\n"
	              "      |       ^~~~~~~~~~~\n"
	              "t.simd:4:16: error: the predicate of gamma must be a single operand\n"
	              "    4 | [f, g] = gamma((p, q), (x, y), (z, w))\n"
	              "      |                ^~~~~~\n"
	              "t.simd:5:12: error: expected a single operand, found a tuple of 2\n"
	              "    5 | h = eta(p, (x, y))\n"
	              "      |            ^~~~~~\n"
	              "t.simd:6:5: error: mu takes at least 2 operands (entry, back edge), found 1\n"
	              "    6 | i = mu(x)\n"
	              "      |     ^~~~~\n"
	              "t.simd:7:5: error: eta takes 2 operands (p, o), found 3\n"
	              "    7 | j = eta(p, x, y)\n"
	              "      |     ^~~~~~~~~~~~\n"
	              "t.simd:8:13: error: syntax error, unexpected ')', expecting ',' or ']'\n"
	              "    8 | k = phi[x, y)\n"
	              "      |             ^\n");
}

Test(parse, atomic_increment_adds_one)
{
	expect_errors("x ←a y + 2\nstop\n",
	              "t.simd:1:10: error: the atomic increment adds 1 (use atomadd for other amounts)\n"
	              "    1 | x ←a y + 2\n"
	              "      |          ^\n");
}

Test(parse, broken_lines_are_dropped)
{
	/* a line with an error adds no instruction, even when a prefix of it
	** is a whole statement */
	Parsed r = parse("x = a + b * c\ny = 1 2\nl: stop\n");
	cr_expect_eq(r.d.nerrors, 2);
	cr_expect_eq(r.p->nins, 1);
	cr_expect_eq(r.p->ins[0].op, OP_STOP);
	done(&r);
}

/* ---- queries ----------------------------------------------------------- */

Test(parse, queries)
{
	cr_expect_str_eq(ir_special_name(SPEC_WARPSIZE), "warpsize");
	cr_expect_str_eq(ir_op_name(OP_COPY), "copy");
	cr_expect_str_eq(ir_op_name(OP_BARRIER), "barrier");
	cr_expect(ir_is_gsa(OP_ETA) && !ir_is_gsa(OP_COPY));
	cr_expect(ir_is_branch(OP_BZ) && ir_is_branch(OP_BNZ) && !ir_is_branch(OP_JUMP));
	cr_expect(ir_ends_block(OP_EXIT) && ir_ends_block(OP_JUMP) && !ir_ends_block(OP_SYNC));
	cr_expect(ir_is_atomic(OP_ATOMCAS) && !ir_is_atomic(OP_LOAD));
	Parsed r = ok("a: b: x = 1\nstop\n");
	cr_expect_str_eq(ir_label_of(r.p, 0), "a");
	cr_expect_null(ir_label_of(r.p, 1));
	cr_expect_eq(ir_find_label(r.p, "c"), -1);
	cr_expect_eq(ir_find_var(r.p, "y"), -1);
	done(&r);
}

/* Many names: the hash tables grow; nothing is quadratic. */
Test(parse, many_names)
{
	Buf b = {0};
	for (int i = 0; i < 20000; i++)
		buf_printf(&b, "l%d: v%d = v%d + %d\n", i, i, i / 2, i);
	buf_puts(&b, "bz v7, l19999\njump l0\n");
	Parsed r = ok(buf_str(&b));
	cr_expect_eq(r.p->nins, 20002);
	cr_expect_eq(r.p->nvars, 20000);
	cr_expect_eq(r.p->ins[20000].target, 19999);
	cr_expect_eq(ir_find_var(r.p, "v12345"), 12345);
	done(&r);
	buf_free(&b);
}

/* ---- did you mean ------------------------------------------------------ */

Test(suggest, distance)
{
	cr_expect_eq(str_distance("sync", 4, "sync", 4), 0);
	cr_expect_eq(str_distance("snyc", 4, "sync", 4), 1); /* a swap of neighbours */
	cr_expect_eq(str_distance("BZ", 2, "bz", 2), 0);     /* case is free */
	cr_expect_eq(str_distance("anaylze", 7, "analyze", 7), 1);
	cr_expect_eq(str_distance("", 0, "bnz", 3), 3);
	cr_expect_eq(str_distance("kitten", 6, "sitting", 7), 3);
	char long_word[SUGGEST_MAX_LEN + 2];
	memset(long_word, 'a', sizeof long_word);
	cr_expect_eq(str_distance(long_word, sizeof long_word, "a", 1), SIZE_MAX);
}

static char *suggested(const char *word, const char *const *words)
{
	Suggest g;
	suggest_init(&g, word, strlen(word));
	for (int i = 0; words[i]; i++)
		suggest_add(&g, words[i]);
	Buf b = {0};
	suggest_print(&g, &b, "--");
	return buf_steal(&b);
}

Test(suggest, closest)
{
	static const char *const opts[] = {"max-steps", "max-cells", "max-memory", "trace", "threads", "json", NULL};
	char *s = suggested("trcae", opts);
	cr_expect_str_eq(s, "did you mean '--trace'?");
	free(s);
	s = suggested("max", opts); /* a prefix of several: all of them */
	cr_expect_str_eq(s, "did you mean '--max-steps', '--max-cells' or '--max-memory'?");
	free(s);
	s = suggested("x", opts); /* nothing close: nothing said */
	cr_expect_str_eq(s, "");
	free(s);
	s = suggested("zzzzzzzzz", opts);
	cr_expect_str_eq(s, "");
	free(s);
	static const char *const models[] = {"sync", "ipdom", "mimd", NULL};
	s = suggested("simt", models); /* two letters of four: too far */
	cr_expect_str_eq(s, "");
	free(s);
}

Test(suggest, program_text)
{
	expect_errors(".thread 4\n"
	              "  snyc\n"
	              "  BZ x, l\n"
	              "l2: br x, l\n"
	              "  ad(y, x, 1)\n"
	              "  mme[x] = 1\n"
	              "  jump lop\n"
	              "loop: stop\n",
	              "t.simd:1:1: error: unknown directive '.thread'; did you mean '.threads'?\n"
	              "    1 | .thread 4\n"
	              "      | ^~~~~~~\n"
	              "t.simd:2:3: error: unknown instruction 'snyc'; did you mean 'sync'?\n"
	              "    2 |   snyc\n"
	              "      |   ^~~~\n"
	              "t.simd:3:3: error: unknown instruction 'BZ'; did you mean 'bz'?\n"
	              "    3 |   BZ x, l\n"
	              "      |   ^~\n"
	              "t.simd:4:5: error: unknown instruction 'br'; did you mean 'bz' or 'branch'?\n"
	              "    4 | l2: br x, l\n"
	              "      |     ^~\n"
	              "t.simd:5:3: error: unknown operation 'ad'; did you mean 'add' or 'and'?\n"
	              "    5 |   ad(y, x, 1)\n"
	              "      |   ^~\n"
	              "t.simd:6:3: error: unknown instruction 'mme'; did you mean 'mem'?\n"
	              "    6 |   mme[x] = 1\n"
	              "      |   ^~~\n"
	              "t.simd:7:8: error: undefined label 'lop'; did you mean 'loop'?\n"
	              "    7 |   jump lop\n"
	              "      |        ^~~\n");
	/* an identifier that is no near miss keeps the syntax error */
	expect_errors("x y\nstop\n",
	              "t.simd:1:3: error: syntax error, unexpected identifier 'y', expecting '=', ':', '(' or '<-a'\n"
	              "    1 | x y\n"
	              "      |   ^\n");
	/* an unknown operation is named even without a near miss */
	expect_errors("frob(y, 1, 2)\nstop\n",
	              "t.simd:1:1: error: unknown operation 'frob'\n"
	              "    1 | frob(y, 1, 2)\n"
	              "      | ^~~~\n");
}

/* Many undefined labels: each one is reported; only the first ones look
** for a near miss among the labels (so this stays linear). */
Test(suggest, many_undefined_labels)
{
	Buf b = {0};
	for (int i = 0; i < 20000; i++)
		buf_printf(&b, "l%d: jump m%d\n", i, i);
	buf_puts(&b, "stop\n");
	Parsed r = parse(buf_str(&b));
	cr_expect_eq(r.d.nerrors, 20000);
	cr_expect(strstr(r.out, "undefined label 'm0'; did you mean 'l0'?"), "%.300s", r.out);
	done(&r);
	buf_free(&b);
}

/* An error in the very first token does not end the parse: the lines
** after it are still checked. */
Test(parse, error_in_the_first_token)
{
	expect_errors("$ 4\nx y\nstop\n",
	              "t.simd:1:1: error: invalid character '$'\n"
	              "    1 | $ 4\n"
	              "      | ^\n"
	              "t.simd:2:3: error: syntax error, unexpected identifier 'y', expecting '=', ':', '(' or '<-a'\n"
	              "    2 | x y\n"
	              "      |   ^\n");
	Parsed r = parse(".frob\nx = 1\nstop\n");
	cr_expect_eq(r.d.nerrors, 1, "%s", r.out);
	cr_expect_eq(r.p->nins, 2);
	done(&r);
}

/* A kernel may be named by any word, a reserved one too. */
Test(parse, kernel_named_by_a_keyword)
{
	static const char *const names[] = {"sync", "bz", "tid", "mu", "load", "k1"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char src[64];
		snprintf(src, sizeof src, ".kernel %s\nstop\n", names[i]);
		Parsed r = ok(src);
		cr_expect_str_eq(r.p->kernel, names[i]);
		done(&r);
	}
	expect_errors(".kernel 5\nstop\n",
	              "t.simd:1:9: error: syntax error, unexpected integer '5', expecting name\n"
	              "    1 | .kernel 5\n"
	              "      |         ^\n");
}
