/*
** gen.c — random well-structured μ-SIMD programs (gen.h, analyses.md §4).
**
** Shapes (nested up to max_depth, loops at most GEN_MAX_LOOPS deep):
**
**   if-then          p = C          if-then-else     p = C
**                    bz p, J                         bz p, E
**                    ...                             ...
**                 J: sync                            jump J
**                                                 E: ...
**                                                 J: sync
**   (bnz instead of bz now and then; the predicate may be a source variable)
**
**   while            i = I          count-down       i = I        (I >= 0)
**                 H: p = i < N                    H: bz i, X
**                    bz p, X                         ...
**                    ...                             i = i - 1
**                    i = i + 1                       jump H
**                    jump H                       X: sync
**                 X: sync
**
**   do-while         i = I          do-while (bnz)   i = I
**                 H: ...                          H: ...
**                    i = i + 1                       i = i + 1
**                    p = i < N                       p = i < N
**                    bz p, X                         bnz p, H
**                    jump H                          sync
**                 X: sync
**
** with I in [-1, 3] and N in [0, 3] (a literal or `v & 3`, `tid % 4`, ...),
** so a loop runs at most 4 times whatever the thread count, warp size and
** parameter values. A construct that ends a body is followed by the sync of
** the enclosing construct: several branches reconverging at one point get
** one sync each, innermost first.
**
** Variables: data variables x0..x{n-1} (all initialised at the start), one
** predicate p<d> per nesting level (assigned just before its branch), one
** counter i<l> and bound n<l> per loop level (the body never assigns them),
** and `ad` for addresses (assigned just before each access). Every read
** therefore follows an assignment on every path.
**
** Values stay bounded: the generator tracks an upper bound on the bit length
** of every data variable (the maximum over the paths at a join) and turns
** an operation whose result could exceed GEN_CAP bits into a `%` or `&` by a
** literal; at the end of a loop body every variable whose bound grew beyond
** the one assumed at the loop head is reduced (`x = x & 1023`), so the
** bounds hold in every iteration. Divisors are non-zero literals or
** `y | 1` (odd, hence non-zero); shift counts are small literals.
** Memory: random accesses go to a window of 32 cells (`ad = e & 31`, plus an
** optional parameter base); the program ends by storing some variables to a
** race-free region from address 64 on (one row per thread), then `stop`;
** with no_memory there is no memory access at all.
**
** GenOptions: size, max_depth and nvars 0 mean the defaults (40, 3, 6);
** a negative max_depth generates straight-line code. max_depth is clamped to
** GEN_MAX_DEPTH and nvars to [1, 64], so recursion stays shallow.
*/
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	GEN_MAX_DEPTH = 32,
	GEN_MAX_LOOPS = 3,  /* loops nested at most this deep: <= 4^3 iterations */
	GEN_MAX_VARS = 64,
	GEN_CAP = 48,       /* bit-length bound of every data variable */
	GEN_HEAD = 16,      /* bound assumed at a loop head */
	GEN_STORE = 32,     /* values stored to memory stay below this */
	GEN_MEMBITS = 44,   /* bound of a loaded value or an atomic's result */
	GEN_OUT = 64,       /* first address of the output region */
};

typedef struct Gen {
	Buf *b;
	uint64_t rng;
	int32_t size, depth, nv;
	bool mem, atom, loops;
	int32_t *bits;      /* per data variable: |x| < 2^bits */
	int32_t ninit;      /* data variables readable (during initialisation) */
	int32_t emitted;    /* instructions so far */
	int32_t nlab;
	int32_t nloops;     /* loops enclosing the current point */
	int32_t nparams;
	int64_t pval[2];
	bool base;          /* the window starts at parameter `base` */
	char pend[96];      /* labels for the next instruction */
	size_t npend;
} Gen;

typedef struct Op {
	char s[24];
	int32_t bits;
	int32_t var;        /* data variable, or -1 */
	bool lit;
	int64_t val;        /* when lit */
} Op;

/* ---- randomness (splitmix64: deterministic on every platform) ---------------- */

static uint64_t next(Gen *g)
{
	uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1. */
static int32_t rnd(Gen *g, int32_t n)
{
	if (n <= 1)
		return 0;
	return (int32_t)(((next(g) >> 32) * (uint64_t)n) >> 32);
}

static int32_t range(Gen *g, int32_t lo, int32_t hi)
{
	return lo + rnd(g, hi - lo + 1);
}

static bool chance(Gen *g, int32_t pct)
{
	return rnd(g, 100) < pct;
}

static int32_t imax(int32_t a, int32_t b)
{
	return a > b ? a : b;
}

static int32_t imin(int32_t a, int32_t b)
{
	return a < b ? a : b;
}

static int32_t bitlen(int64_t v)
{
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	int32_t n = 0;
	while (u) {
		n++;
		u >>= 1;
	}
	return n;
}

/* ---- emission ------------------------------------------------------------------ */

static int32_t new_label(Gen *g)
{
	return ++g->nlab;
}

/* Attach label L to the next instruction. */
static void pend_label(Gen *g, int32_t l)
{
	int n = snprintf(g->pend + g->npend, sizeof g->pend - g->npend, "L%d: ", (int)l);
	if (n > 0 && (size_t)n < sizeof g->pend - g->npend)
		g->npend += (size_t)n;
}

static void emit(Gen *g, const char *fmt, ...) MU_PRINTF(2, 3);

static void emit(Gen *g, const char *fmt, ...)
{
	if (g->npend) {
		buf_putn(g->b, g->pend, g->npend);
		g->npend = 0;
	}
	buf_pad(g->b, 8);
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(g->b, fmt, ap);
	va_end(ap);
	buf_putc(g->b, '\n');
	g->emitted++;
}

/* ---- operands ------------------------------------------------------------------- */

static Op op_var(Gen *g, int32_t k)
{
	Op o = {.var = k, .bits = g->bits[k]};
	snprintf(o.s, sizeof o.s, "x%d", (int)k);
	return o;
}

static Op op_lit(int64_t v)
{
	Op o = {.var = -1, .lit = true, .val = v, .bits = bitlen(v)};
	snprintf(o.s, sizeof o.s, "%lld", (long long)v);
	return o;
}

static Op op_name(const char *name, int32_t bits)
{
	Op o = {.var = -1, .bits = bits};
	snprintf(o.s, sizeof o.s, "%s", name);
	return o;
}

static Op op_rand_lit(Gen *g)
{
	int32_t r = rnd(g, 100);
	if (r < 70)
		return op_lit(range(g, -4, 9));
	if (r < 90)
		return op_lit(range(g, -100, 100));
	return op_lit(range(g, 0, 1000));
}

/* A random operand; thread-dependent ones (tid, laneid) with probability tpct
** on top of the ordinary mix. */
static Op operand(Gen *g, bool allow_lit, int32_t tpct)
{
	if (tpct && chance(g, tpct))
		return chance(g, 75) ? op_name("tid", 7) : op_name("laneid", 7);
	for (;;) {
		int32_t r = rnd(g, 100);
		if (r < 46) {
			if (g->ninit > 0)
				return op_var(g, rnd(g, g->ninit));
		} else if (r < 61) {
			if (allow_lit)
				return op_rand_lit(g);
		} else if (r < 71) {
			return op_name("tid", 7);
		} else if (r < 76) {
			return op_name("laneid", 7);
		} else if (r < 79) {
			return op_name("ntid", 7);
		} else if (r < 82) {
			return op_name("warpid", 7);
		} else if (r < 83) {
			return chance(g, 50) ? op_name("nwarps", 7) : op_name("warpsize", 7);
		} else if (r < 91) {
			int32_t k = rnd(g, g->nparams);
			char name[16];
			snprintf(name, sizeof name, "c%d", (int)k);
			return op_name(name, bitlen(g->pval[k]));
		} else if (g->nloops > 0) {
			char name[16];
			snprintf(name, sizeof name, "i%d", (int)rnd(g, g->nloops));
			return op_name(name, 3);
		}
	}
}

/* A small non-zero literal divisor. */
static Op op_divisor(Gen *g)
{
	int32_t d = range(g, 1, 9);
	return op_lit(chance(g, 25) ? -d : d);
}

/* ---- simple statements ------------------------------------------------------------ */

/* every operator, arithmetic more often than the rest */
static const char *const binops[] = {
	"+", "+", "+", "+", "-", "-", "-", "*", "*", "*", "/", "%",
	"<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "<<", ">>", "&&", "||",
};
enum { NBINOPS = sizeof binops / sizeof binops[0] };

/* x<dst> = a OP b, with the guards of the file comment. */
static void st_binary(Gen *g, int32_t dst, int32_t tpct)
{
	const char *op = binops[rnd(g, NBINOPS)];
	Op a = operand(g, true, tpct), b = operand(g, true, 0);
	int32_t bits;
	if (!strcmp(op, "+") || !strcmp(op, "-")) {
		bits = imax(a.bits, b.bits) + 1;
	} else if (!strcmp(op, "*")) {
		if (a.bits + b.bits > GEN_CAP)
			b = op_lit(range(g, -3, 3));
		bits = a.bits + b.bits;
	} else if (!strcmp(op, "/") || !strcmp(op, "%")) {
		if (b.lit || a.var == dst || chance(g, 50)) {
			b = op_divisor(g);
		} else {
			/* an odd, hence non-zero, divisor computed into the destination */
			emit(g, "x%d = %s | 1", (int)dst, b.s);
			g->bits[dst] = b.bits + 1;
			b = op_var(g, dst);
		}
		bits = op[0] == '/' ? a.bits : imin(a.bits, b.bits);
	} else if (!strcmp(op, "<<")) {
		b = op_lit(range(g, 0, 4));
		bits = a.bits + (int32_t)b.val;
	} else if (!strcmp(op, ">>")) {
		b = op_lit(range(g, 0, 8));
		bits = a.bits;
	} else if (!strcmp(op, "&") && b.lit && b.val >= 0) {
		bits = b.bits;
	} else if (!strcmp(op, "&") || !strcmp(op, "|") || !strcmp(op, "^")) {
		bits = imax(a.bits, b.bits) + 1;
	} else {
		bits = 1; /* comparisons, && and || */
	}
	if (bits > GEN_CAP) {
		/* would grow too much: reduce instead */
		if (chance(g, 50)) {
			op = "%";
			b = op_lit(range(g, 2, 1000));
		} else {
			op = "&";
			b = op_lit(range(g, 1, 4095));
		}
		bits = b.bits;
	}
	emit(g, "x%d = %s %s %s", (int)dst, a.s, op, b.s);
	g->bits[dst] = bits;
}

static void st_assign(Gen *g, int32_t dst)
{
	int32_t r = rnd(g, 100);
	if (r < 70) {
		st_binary(g, dst, 0);
	} else if (r < 80) {
		Op a = operand(g, false, 0);
		int32_t u = rnd(g, 3);
		emit(g, "x%d = %s%s", (int)dst, u == 0 ? "-" : u == 1 ? "!" : "~", a.s);
		g->bits[dst] = u == 1 ? 1 : a.bits + (u == 2);
	} else if (r < 88) {
		Op a = operand(g, true, 0);
		emit(g, "x%d = %s", (int)dst, a.s);
		g->bits[dst] = a.bits;
	} else {
		Op a = operand(g, true, 0), b = operand(g, true, 0);
		emit(g, "x%d = %s(%s, %s)", (int)dst, chance(g, 50) ? "min" : "max", a.s, b.s);
		g->bits[dst] = imax(a.bits, b.bits);
	}
}

/* ad = an address in the window */
static void st_address(Gen *g)
{
	if (chance(g, 70)) {
		Op a = operand(g, false, 40);
		emit(g, "ad = %s & 31", a.s);
	} else {
		static const char *const ops[] = {"+", "-", "^", "*"};
		Op a = operand(g, true, 20), b = operand(g, true, 0);
		const char *op = ops[rnd(g, 4)];
		if (!strcmp(op, "*") && a.bits + b.bits > GEN_CAP)
			op = "+";
		emit(g, "ad = %s %s %s", a.s, op, b.s);
		emit(g, "ad = ad & 31");
	}
	if (g->base)
		emit(g, "ad = ad + base");
}

/* A value to store: below GEN_STORE bits. */
static Op storable(Gen *g)
{
	Op v = operand(g, true, 0);
	if (v.bits > GEN_STORE)
		v = chance(g, 50) ? op_name("tid", 7) : op_rand_lit(g);
	return v;
}

static void st_memory(Gen *g)
{
	int32_t dst = rnd(g, g->nv);
	int32_t r = rnd(g, 100);
	if (!g->atom && r >= 55)
		r = rnd(g, 55);
	st_address(g);
	if (r < 30) {
		emit(g, "x%d = mem[ad]", (int)dst);
		g->bits[dst] = GEN_MEMBITS;
	} else if (r < 55) {
		Op v = storable(g);
		emit(g, "mem[ad] = %s", v.s);
	} else if (r < 70) {
		emit(g, "x%d = atominc(ad)", (int)dst);
		g->bits[dst] = GEN_MEMBITS;
	} else if (r < 84) {
		Op v = storable(g);
		emit(g, "x%d = atomadd(ad, %s)", (int)dst, v.s);
		g->bits[dst] = GEN_MEMBITS;
	} else if (r < 94) {
		Op v = storable(g);
		emit(g, "x%d = atomexch(ad, %s)", (int)dst, v.s);
		g->bits[dst] = GEN_MEMBITS;
	} else {
		Op c = storable(g), v = storable(g);
		emit(g, "x%d = atomcas(ad, %s, %s)", (int)dst, c.s, v.s);
		g->bits[dst] = GEN_MEMBITS;
	}
}

static void st_simple(Gen *g)
{
	if (g->mem && chance(g, 25))
		st_memory(g);
	else
		st_assign(g, rnd(g, g->nv));
}

/* ---- control flow ------------------------------------------------------------------ */

static void gen_block(Gen *g, int32_t depth, int32_t budget);

/* Compute the predicate of a branch at nesting level lvl into name
** (p<lvl>, or a data variable read directly). Mostly thread-dependent. */
static void predicate(Gen *g, int32_t lvl, char *name, size_t n)
{
	int32_t r = rnd(g, 100);
	if (r < 10) {
		snprintf(name, n, "x%d", (int)rnd(g, g->nv));
		return;
	}
	snprintf(name, n, "p%d", (int)lvl);
	if (r < 65) {
		static const char *const cmps[] = {"<", "<=", ">", ">=", "==", "!="};
		Op a = operand(g, false, 45), b = operand(g, true, 0);
		emit(g, "%s = %s %s %s", name, a.s, cmps[rnd(g, 6)], b.s);
	} else if (r < 80) {
		Op a = operand(g, false, 45);
		if (chance(g, 50))
			emit(g, "%s = %s & %d", name, a.s, (int)range(g, 1, 7));
		else
			emit(g, "%s = %s %% %d", name, a.s, (int)range(g, 2, 4));
	} else if (r < 90) {
		Op a = operand(g, false, 45), b = operand(g, false, 0);
		emit(g, "%s = %s %s %s", name, a.s, chance(g, 50) ? "&&" : "||", b.s);
	} else {
		Op a = operand(g, false, 45);
		emit(g, "%s = %s", name, a.s);
	}
}

/* Bounds at a join: the maximum over the paths. */
static void bits_join(Gen *g, const int32_t *other)
{
	for (int32_t k = 0; k < g->nv; k++)
		g->bits[k] = imax(g->bits[k], other[k]);
}

static int32_t body_budget(Gen *g, int32_t rem, int32_t cap)
{
	return 1 + rnd(g, imax(1, imin(rem, cap)));
}

static void gen_if(Gen *g, int32_t depth, int32_t rem, bool with_else)
{
	char p[16];
	predicate(g, depth, p, sizeof p);
	int32_t cap = imax(4, g->size / 3);
	int32_t e = new_label(g), j = with_else ? new_label(g) : e;
	emit(g, "%s %s, L%d", chance(g, 80) ? "bz" : "bnz", p, (int)e);
	int32_t *saved = xmalloc((size_t)g->nv * sizeof *saved);
	memcpy(saved, g->bits, (size_t)g->nv * sizeof *saved);
	if (with_else) {
		int32_t then_b = body_budget(g, rem / 2, cap);
		int32_t else_b = body_budget(g, rem / 2, cap);
		gen_block(g, depth + 1, then_b);
		emit(g, "jump L%d", (int)j);
		int32_t *after_then = xmalloc((size_t)g->nv * sizeof *after_then);
		memcpy(after_then, g->bits, (size_t)g->nv * sizeof *after_then);
		memcpy(g->bits, saved, (size_t)g->nv * sizeof *saved);
		pend_label(g, e);
		gen_block(g, depth + 1, else_b);
		bits_join(g, after_then);
		free(after_then);
	} else {
		gen_block(g, depth + 1, body_budget(g, rem, cap));
		bits_join(g, saved);
	}
	pend_label(g, j);
	emit(g, "sync");
	free(saved);
}

/* Loop counter start: a value in [-1, 3] ([0, 3] when nonneg). */
static void counter_init(Gen *g, int32_t l, bool nonneg)
{
	int32_t r = rnd(g, nonneg ? 8 : 9);
	switch (r) {
	case 0: emit(g, "i%d = tid %% 3", (int)l); break;
	case 1: emit(g, "i%d = laneid & 1", (int)l); break;
	case 2: emit(g, "i%d = x%d & 3", (int)l, (int)rnd(g, g->nv)); break;
	case 3: emit(g, "i%d = x%d & 1", (int)l, (int)rnd(g, g->nv)); break;
	case 4: emit(g, "i%d = warpid %% 2", (int)l); break;
	case 5: emit(g, "i%d = c%d & 1", (int)l, (int)rnd(g, g->nparams)); break;
	case 6: emit(g, "i%d = ntid %% 3", (int)l); break;
	case 7: emit(g, "i%d = %d", (int)l, (int)range(g, 0, 2)); break;
	default: emit(g, "i%d = -1", (int)l); break;
	}
}

/* Loop bound: a literal in [0, 3] or n<l> computed in [0, 3]; its text in s. */
static void loop_bound(Gen *g, int32_t l, char *s, size_t n)
{
	int32_t r = rnd(g, 7);
	if (r < 2) {
		snprintf(s, n, "%d", (int)range(g, 1, 3));
		return;
	}
	switch (r) {
	case 2: emit(g, "n%d = tid %% 4", (int)l); break;
	case 3: emit(g, "n%d = x%d & 3", (int)l, (int)rnd(g, g->nv)); break;
	case 4: emit(g, "n%d = laneid %% 3", (int)l); break;
	case 5: emit(g, "n%d = c%d & 3", (int)l, (int)rnd(g, g->nparams)); break;
	default: emit(g, "n%d = ntid %% 4", (int)l); break;
	}
	snprintf(s, n, "n%d", (int)l);
}

/* Reduce the variables whose bound grew beyond the one assumed at the head. */
static void loop_reduce(Gen *g, const int32_t *head)
{
	for (int32_t k = 0; k < g->nv; k++) {
		if (g->bits[k] <= head[k])
			continue;
		if (chance(g, 50))
			emit(g, "x%d = x%d & %d", (int)k, (int)k, (int)range(g, 1, 1023));
		else
			emit(g, "x%d = x%d %% %d", (int)k, (int)k, (int)range(g, 2, 1000));
		g->bits[k] = 10;
	}
}

static void gen_loop(Gen *g, int32_t depth, int32_t rem)
{
	int32_t l = g->nloops;
	int32_t kind = rnd(g, 100);
	kind = kind < 40 ? 0 : kind < 60 ? 1 : kind < 85 ? 2 : 3;
	char bound[16] = "";
	counter_init(g, l, kind == 1);
	if (kind != 1)
		loop_bound(g, l, bound, sizeof bound);
	/* bounds assumed at the head (every iteration starts within them) */
	int32_t *head = xmalloc((size_t)g->nv * sizeof *head);
	for (int32_t k = 0; k < g->nv; k++)
		head[k] = g->bits[k] = imax(g->bits[k], GEN_HEAD);
	int32_t body = body_budget(g, rem, imin(32, imax(4, g->size / 4)));
	int32_t h = new_label(g), x = kind == 3 ? 0 : new_label(g);
	pend_label(g, h);
	if (kind == 0) {
		emit(g, "p%d = i%d < %s", (int)depth, (int)l, bound);
		emit(g, "bz p%d, L%d", (int)depth, (int)x);
	} else if (kind == 1) {
		emit(g, "bz i%d, L%d", (int)l, (int)x);
	}
	g->nloops++;
	gen_block(g, depth + 1, body);
	g->nloops--;
	loop_reduce(g, head);
	emit(g, "i%d = i%d %s 1", (int)l, (int)l, kind == 1 ? "-" : "+");
	if (kind == 0 || kind == 1) {
		emit(g, "jump L%d", (int)h);
		pend_label(g, x);
		emit(g, "sync");
	} else if (kind == 2) {
		emit(g, "p%d = i%d < %s", (int)depth, (int)l, bound);
		emit(g, "bz p%d, L%d", (int)depth, (int)x);
		emit(g, "jump L%d", (int)h);
		pend_label(g, x);
		emit(g, "sync");
	} else {
		emit(g, "p%d = i%d < %s", (int)depth, (int)l, bound);
		emit(g, "bnz p%d, L%d", (int)depth, (int)h);
		emit(g, "sync");
	}
	memcpy(g->bits, head, (size_t)g->nv * sizeof *head);
	free(head);
}

/* Statements and constructs until about budget instructions (at least one). */
static void gen_block(Gen *g, int32_t depth, int32_t budget)
{
	int32_t start = g->emitted;
	do {
		int32_t rem = budget - (g->emitted - start);
		if (depth < g->depth && rem >= 4 && chance(g, 30)) {
			int32_t r = rnd(g, 100);
			if (g->loops && g->nloops < GEN_MAX_LOOPS && r < 35)
				gen_loop(g, depth, rem - 6);
			else if (r < 70)
				gen_if(g, depth, rem - 3, false);
			else
				gen_if(g, depth, rem - 5, true);
		} else {
			st_simple(g);
		}
	} while (g->emitted - start < budget);
}

/* ---- the program ---------------------------------------------------------------------- */

void gen_program(Buf *b, const GenOptions *o)
{
	Gen g;
	memset(&g, 0, sizeof g);
	g.b = b;
	g.rng = o->seed;
	g.size = o->size > 0 ? o->size : 40;
	g.depth = o->max_depth == 0 ? 3 : o->max_depth < 0 ? 0 : imin(o->max_depth, GEN_MAX_DEPTH);
	g.nv = o->nvars > 0 ? imin(o->nvars, GEN_MAX_VARS) : 6;
	g.mem = !o->no_memory;
	g.atom = g.mem && !o->no_atomics;
	g.loops = !o->no_loops;
	g.bits = xcalloc((size_t)g.nv, sizeof *g.bits);

	buf_printf(b, "# musimd gen --seed %llu --size %d --depth %d --vars %d%s%s%s\n",
		(unsigned long long)o->seed, (int)g.size, (int)g.depth, (int)g.nv,
		o->no_memory ? " --no-memory" : "", o->no_atomics ? " --no-atomics" : "",
		o->no_loops ? " --no-loops" : "");
	if (g.mem)
		buf_puts(b, ".memory zero\n");
	g.nparams = 1 + rnd(&g, 2);
	for (int32_t k = 0; k < g.nparams; k++) {
		g.pval[k] = chance(&g, 80) ? range(&g, 1, 20) : range(&g, -8, 100);
		buf_printf(b, ".param c%d = %lld\n", (int)k, (long long)g.pval[k]);
	}
	if (g.mem && chance(&g, 30)) {
		g.base = true;
		buf_puts(b, ".param base = 32\n");
	}

	/* every data variable is assigned first */
	for (int32_t k = 0; k < g.nv; k++) {
		g.ninit = k;
		if (k > 0 && chance(&g, 60)) {
			st_binary(&g, k, 30);
		} else {
			Op a = operand(&g, true, 40);
			emit(&g, "x%d = %s", (int)k, a.s);
			g.bits[k] = a.bits;
		}
	}
	g.ninit = g.nv;

	int32_t nout = g.mem ? imax(1, imin(g.nv, g.size / 10)) : 0;
	int32_t body = imax(1, g.size - g.nv - 2 * nout - 2);
	gen_block(&g, 0, body);

	/* the result: a race-free row per thread from address GEN_OUT on */
	if (nout > 0) {
		emit(&g, "ad = tid * %d", (int)nout);
		emit(&g, "ad = ad + %d", GEN_OUT);
	}
	for (int32_t k = 0; k < nout; k++) {
		if (k > 0)
			emit(&g, "ad = ad + 1");
		emit(&g, "mem[ad] = x%d", (int)k);
	}
	emit(&g, "stop");
	free(g.bits);
}
