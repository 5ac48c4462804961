/*
** gen.c — random μ-SIMD programs, well-structured or with the control flow of
** real kernels (gen.h, analyses.md §4).
**
** Structured shapes (nested up to max_depth, loops at most GEN_MAX_LOOPS deep):
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
** Unstructured mode (GenOptions.unstructured): the control flow of real
** kernels, which no sync stack can match, so there is no sync at all; the
** program terminates under the ipdom and mimd models (not under sync). Its
** CFG is reducible: every backward edge goes to the header of an enclosing
** loop, every other edge forwards. Shapes:
**
**   short circuit    if (a && (b || c)) T else E: one branch per test, the
**                    tests p<d>, p<d>_1, ... jumping into the shared targets
**                       p = A               p_1 = B
**                       bz p, E             bnz p_1, T'
**                       p_2 = C
**                       bz p_2, E
**                    T': ... jump J     E: ...     J: ...
**   if-else chain    if (C1) A else if (C2) B else D: every arm jumps to one
**                    join (three or more edges into one block)
**   jump statement   if (COND) break / continue / return, the condition
**                    short-circuit, its branches jumping to the target itself
**   guarded tail     if (COND) { S; break / continue / return } [else { S }]
**   return           `exit` or `stop` in the threads that take it, maybe
**                    after storing their results, or a jump to the epilogue
**                    (the results and the final `stop`)
**
** and four kinds of loop, each with an optional second exit block X2 (a
** loop that breaks to X2 and ends normally at X: two exit blocks):
**
**   for              i = I          while            i = I
**                 H: p = i < N                    H: p = i < N
**                    bz p, X                         bz p, X
**                    ...                             i = i + 1
**                 C: i = i + 1                       ...
**                    jump H                          jump H
**   (continue jumps to C)           (continue jumps to H: several back edges)
**
**   do-while         i = I          mid-test         i = I
**                 H: i = i + 1                    H: i = i + 1
**                    ...                             ...   (no continue here)
**                 C: p = i < N                       p = i > N
**                    bnz p, H                        bnz p, X
**   (or bz p, X; jump H;                             ...
**    continue jumps to C)                            jump H
**
**   after            X: ... jump J  X2: ...  J: ...     (x<k> = i<l> now and then)
**
** Inside a loop a break goes to X or X2 of the innermost loop or of an
** enclosing one (out of the inner and the outer loop at once), a continue to
** C or H of any enclosing loop (from an inner loop: the next iteration of the
** outer one), a return anywhere. Every iteration increments the counter
** before any continue can skip the test (hence none before a mid-test), so a
** loop runs at most 5 times. Bounds: a continue reduces the variables to the
** bounds of its loop's head first, as the end of the body does; the bounds
** at an exit block are the maximum over the edges into it.
**
** Deterministic mode (GenOptions.deterministic, either shape): a result no
** schedule can change. No atomics; memory is a read-only input (cells 0..31,
** `.data`) and one row of GEN_ROW cells per thread from address 64 on
** (`rw = tid * 16 + 64`): loads from the input or from the thread's own row,
** stores to its own row only (scratch cells 0..7, the results from 8 on), so
** no cell is written by one thread and read or written by another, and the
** final memory is the same under every model, warp size, lane order and
** interleaving. Unstructured programs use the rows for their results too;
** without the flag their loads, stores and atomics go to the window as above.
** An unstructured program declares `.warpsize 2..4` half of the time.
**
** Calls (GenOptions.calls, either shape): 1 to GEN_MAX_FUNCS functions
** f0, f1, ... written after main's final stop, generated last first (each
** may call only those after it: an acyclic call graph), then main, which
** ends by calling every function no call reaches yet. A function's body has
** the program's shape; its loops count with i<3(f+1)+l>, n<...> so that a
** call inside a loop leaves the caller's counters alone (the predicates
** p<d>, `ad` and the variables of a test are assigned just before their
** use, so sharing them is harmless). A call is an ordinary statement now and
** then, and in half of the if-then-elses both sides start by calling one
** function (its threads meet in it under the per-thread-pc models and
** return to different pcs). Bounds: every function assumes GEN_HEAD on entry
** and keeps it at its returns (a call reduces the variables first, as the
** end of a loop body does; a return reduces them to those bounds), so the
** bounds after a call are GEN_HEAD. An unstructured function's early
** returns are `ret` in the threads that take them, a jump to its epilogue,
** or exit / stop.
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
	GEN_MAX_FUNCS = 3,  /* --calls: 1 to 3 functions */
	GEN_MAX_DEPTH = 32,
	GEN_MAX_LOOPS = 3,  /* loops nested at most this deep: <= 4^3 iterations */
	GEN_MAX_VARS = 64,
	GEN_CAP = 48,       /* bit-length bound of every data variable */
	GEN_HEAD = 16,      /* bound assumed at a loop head */
	GEN_STORE = 32,     /* values stored to memory stay below this */
	GEN_MEMBITS = 44,   /* bound of a loaded value or an atomic's result */
	GEN_OUT = 64,       /* first address of the output region */
	GEN_INPUT = 32,     /* deterministic mode: read-only input cells 0..31 */
	GEN_SCRATCH = 8,    /* row cells 0..7: loads and stores of the thread */
	GEN_ROW = 16,       /* row width: scratch, then the results (at most 8) */
};

/* A loop of the unstructured generator enclosing the current point: where
** break, continue and the second exit jump, and the bit-length bounds the
** jumps must respect (see the file comment). */
typedef struct ULoop {
	int32_t head_label, cont_label, exit_label, exit2_label; /* exit2_label 0: none */
	bool cont_ok;       /* a continue may jump to cont_label from here */
	bool exit2_used;
	int32_t *head;      /* bounds assumed at the head */
	int32_t *exit;      /* at the exit block: the maximum over the edges into it */
	int32_t *exit2;
} ULoop;

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
	Buf pend;           /* labels for the next instruction */
	/* unstructured mode */
	bool unstructured;
	bool det;           /* memory accesses that no schedule can change */
	bool rows;          /* per-thread rows at rw (unstructured or det) */
	int32_t nout;       /* variables stored to the row at the end */
	int32_t ret;        /* label of the epilogue (early returns jump there) */
	ULoop uloop[GEN_MAX_LOOPS]; /* enclosing loops, outermost first */
	bool *used;         /* per label: a branch or jump goes there */
	int32_t capused;
	/* calls (GenOptions.calls) */
	bool calls;
	int32_t nfuncs;     /* functions f0..f{nfuncs-1} */
	int32_t func;       /* the function being generated, -1 main */
	int32_t loff;       /* its loop counters are i<loff + l>, n<loff + l> */
	uint32_t *callees;  /* per function (then main, at nfuncs): the functions it calls, a bit each */
	int32_t *fhead;     /* bounds every function assumes on entry and keeps at its return */
	Buf *funcs;         /* their texts, written after main's final stop */
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
	buf_printf(&g->pend, "L%d: ", (int)l);
}

/* A branch or jump to label l: returns l for the format, and records that
** the label is needed. */
static int target(Gen *g, int32_t l)
{
	if (l >= g->capused) {
		int32_t cap = imax(64, 2 * l);
		g->used = xrealloc(g->used, (size_t)cap * sizeof *g->used);
		memset(g->used + g->capused, 0, (size_t)(cap - g->capused) * sizeof *g->used);
		g->capused = cap;
	}
	g->used[l] = true;
	return (int)l;
}

/* pend_label for a forward label, when some branch or jump goes there. */
static void pend_target(Gen *g, int32_t l)
{
	if (l < g->capused && g->used[l])
		pend_label(g, l);
}

static void emit(Gen *g, const char *fmt, ...) MU_PRINTF(2, 3);

static void emit(Gen *g, const char *fmt, ...)
{
	if (g->pend.len) {
		buf_putn(g->b, buf_str(&g->pend), g->pend.len);
		buf_reset(&g->pend);
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
			snprintf(name, sizeof name, "i%d", (int)(rnd(g, g->nloops) + g->loff));
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

/* Deterministic mode: loads from the input (never written) or from the
** thread's own row, stores to the thread's own row, no atomics. */
static void st_memory_det(Gen *g)
{
	int32_t dst = rnd(g, g->nv);
	int32_t r = rnd(g, 100);
	Op a = operand(g, false, 40);
	if (r < 40) {
		emit(g, "ad = %s & %d", a.s, GEN_INPUT - 1);
		emit(g, "x%d = mem[ad]", (int)dst);
		g->bits[dst] = GEN_MEMBITS;
		return;
	}
	emit(g, "ad = %s & %d", a.s, GEN_SCRATCH - 1);
	emit(g, "ad = ad + rw");
	if (r < 65) {
		emit(g, "x%d = mem[ad]", (int)dst);
		g->bits[dst] = GEN_MEMBITS;
	} else {
		Op v = storable(g);
		emit(g, "mem[ad] = %s", v.s);
	}
}

static void st_simple(Gen *g)
{
	if (g->mem && chance(g, 25)) {
		if (g->det)
			st_memory_det(g);
		else
			st_memory(g);
	} else {
		st_assign(g, rnd(g, g->nv));
	}
}

static void loop_reduce(Gen *g, const int32_t *head);

/* `call f<f>`, the variables brought first within the bounds the function
** assumes on entry, which it keeps at its returns. */
static void emit_call(Gen *g, int32_t f)
{
	loop_reduce(g, g->fhead);
	emit(g, "call f%d", (int)f);
	g->callees[g->func >= 0 ? g->func : g->nfuncs] |= 1u << f;
	memcpy(g->bits, g->fhead, (size_t)g->nv * sizeof *g->bits);
}

/* The function both sides of an if-then-else call first (-1: none, and
** always without calls): their threads can meet in it and return to
** different pcs (rule RS) under the per-thread-pc models. */
static int32_t both_sides_call(Gen *g)
{
	if (!g->calls || g->func + 1 >= g->nfuncs || !chance(g, 50))
		return -1;
	return range(g, g->func + 1, g->nfuncs - 1);
}

/* A call of a function after the current one (so the call graph is
** acyclic): the variables are brought within the bounds the function
** assumes on entry, which it keeps at its returns. Without such a function
** (the last one), a simple statement. */
static void st_call(Gen *g)
{
	if (g->func + 1 >= g->nfuncs) {
		st_simple(g);
		return;
	}
	emit_call(g, range(g, g->func + 1, g->nfuncs - 1));
}

/* A statement: with calls, now and then a call. */
static void st_any(Gen *g)
{
	if (g->calls && chance(g, 12))
		st_call(g);
	else
		st_simple(g);
}

/* ---- control flow ------------------------------------------------------------------ */

static void gen_block(Gen *g, int32_t depth, int32_t budget);

/* Compute the predicate of a branch into pname and put the name of the
** variable to test in name (pname, or now and then a data variable read
** directly). Mostly thread-dependent. */
static void predicate(Gen *g, const char *pname, char *name, size_t n)
{
	int32_t r = rnd(g, 100);
	if (r < 10) {
		snprintf(name, n, "x%d", (int)rnd(g, g->nv));
		return;
	}
	snprintf(name, n, "%s", pname);
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
static void defs_join(Gen *g, const int32_t *other)
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
	char pname[16], p[16];
	snprintf(pname, sizeof pname, "p%d", (int)depth);
	predicate(g, pname, p, sizeof p);
	int32_t cap = imax(4, g->size / 3);
	int32_t e = new_label(g), j = with_else ? new_label(g) : e;
	emit(g, "%s %s, L%d", chance(g, 80) ? "bz" : "bnz", p, (int)e);
	int32_t *saved = xmalloc((size_t)g->nv * sizeof *saved);
	memcpy(saved, g->bits, (size_t)g->nv * sizeof *saved);
	if (with_else) {
		int32_t then_b = body_budget(g, rem / 2, cap);
		int32_t else_b = body_budget(g, rem / 2, cap);
		int32_t both = both_sides_call(g);
		if (both >= 0)
			emit_call(g, both);
		gen_block(g, depth + 1, then_b);
		emit(g, "jump L%d", (int)j);
		int32_t *after_then = xmalloc((size_t)g->nv * sizeof *after_then);
		memcpy(after_then, g->bits, (size_t)g->nv * sizeof *after_then);
		memcpy(g->bits, saved, (size_t)g->nv * sizeof *saved);
		pend_label(g, e);
		if (both >= 0)
			emit_call(g, both);
		gen_block(g, depth + 1, else_b);
		defs_join(g, after_then);
		free(after_then);
	} else {
		gen_block(g, depth + 1, body_budget(g, rem, cap));
		defs_join(g, saved);
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
	int32_t l = g->nloops, ln = l + g->loff; /* ln: the counter's name */
	int32_t kind = rnd(g, 100);
	kind = kind < 40 ? 0 : kind < 60 ? 1 : kind < 85 ? 2 : 3;
	char bound[16] = "";
	counter_init(g, ln, kind == 1);
	if (kind != 1)
		loop_bound(g, ln, bound, sizeof bound);
	/* bounds assumed at the head (every iteration starts within them) */
	int32_t *head = xmalloc((size_t)g->nv * sizeof *head);
	for (int32_t k = 0; k < g->nv; k++)
		head[k] = g->bits[k] = imax(g->bits[k], GEN_HEAD);
	int32_t body = body_budget(g, rem, imin(32, imax(4, g->size / 4)));
	int32_t h = new_label(g), x = kind == 3 ? 0 : new_label(g);
	pend_label(g, h);
	if (kind == 0) {
		emit(g, "p%d = i%d < %s", (int)depth, (int)ln, bound);
		emit(g, "bz p%d, L%d", (int)depth, (int)x);
	} else if (kind == 1) {
		emit(g, "bz i%d, L%d", (int)ln, (int)x);
	}
	g->nloops++;
	gen_block(g, depth + 1, body);
	g->nloops--;
	loop_reduce(g, head);
	emit(g, "i%d = i%d %s 1", (int)ln, (int)ln, kind == 1 ? "-" : "+");
	if (kind == 0 || kind == 1) {
		emit(g, "jump L%d", (int)h);
		pend_label(g, x);
		emit(g, "sync");
	} else if (kind == 2) {
		emit(g, "p%d = i%d < %s", (int)depth, (int)ln, bound);
		emit(g, "bz p%d, L%d", (int)depth, (int)x);
		emit(g, "jump L%d", (int)h);
		pend_label(g, x);
		emit(g, "sync");
	} else {
		emit(g, "p%d = i%d < %s", (int)depth, (int)ln, bound);
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
			st_any(g);
		}
	} while (g->emitted - start < budget);
}

/* ---- unstructured control flow (GenOptions.unstructured) ------------------------------ */

static void ug_block(Gen *g, int32_t depth, int32_t budget);

static int32_t *defs_copy(const Gen *g)
{
	int32_t *c = xmalloc((size_t)g->nv * sizeof *c);
	memcpy(c, g->bits, (size_t)g->nv * sizeof *c);
	return c;
}

/* The results of the thread, x0..x{nout-1}, to its row (after the scratch cells). */
static void emit_output(Gen *g)
{
	for (int32_t k = 0; k < g->nout; k++) {
		if (k == 0)
			emit(g, "ad = rw + %d", GEN_SCRATCH);
		else
			emit(g, "ad = ad + 1");
		emit(g, "mem[ad] = x%d", (int)k);
	}
}

/* Where a jump statement goes. */
typedef enum JumpKind { J_BREAK, J_BREAK2, J_CONTINUE, J_RETURN } JumpKind;

typedef struct Target {
	JumpKind kind;
	int32_t loop;       /* index into uloop (break, continue) */
	int32_t label;
} Target;

/* A random target from here: break, the second exit or continue of an
** enclosing loop (mostly the innermost), or an early return. */
static Target pick_target(Gen *g)
{
	Target t = {.kind = J_RETURN, .loop = -1, .label = g->ret};
	if (g->nloops == 0 || chance(g, 20))
		return t;
	int32_t k = g->nloops - 1;
	if (k > 0 && chance(g, 50))
		k = rnd(g, k);
	const ULoop *u = &g->uloop[k];
	int32_t r = rnd(g, 100);
	t.loop = k;
	if (r < 35 && u->cont_ok) {
		t.kind = J_CONTINUE;
		t.label = u->cont_label;
	} else if (r < 65 && u->exit2_label) {
		t.kind = J_BREAK2;
		t.label = u->exit2_label;
	} else {
		t.kind = J_BREAK;
		t.label = u->exit_label;
	}
	return t;
}

/* Code before control leaves for t: a continue brings the bounds back to
** those of the loop head (every iteration starts within them). */
static void before_jump(Gen *g, Target t)
{
	if (t.kind == J_CONTINUE)
		loop_reduce(g, g->uloop[t.loop].head);
	else if (t.kind == J_RETURN && g->func >= 0) /* a function's return keeps its bounds */
		loop_reduce(g, g->fhead);
}

/* Control leaves for t with the current bounds: the exit block's bounds are
** the maximum over its edges. */
static void after_jump(Gen *g, Target t)
{
	if (t.kind == J_BREAK || t.kind == J_BREAK2) {
		ULoop *u = &g->uloop[t.loop];
		int32_t *e = t.kind == J_BREAK ? u->exit : u->exit2;
		for (int32_t k = 0; k < g->nv; k++)
			e[k] = imax(e[k], g->bits[k]);
		u->exit2_used |= t.kind == J_BREAK2;
	}
}

/* Nesting of a condition: one test, or && / || of tests, or of those. */
static int32_t cond_nest(Gen *g)
{
	int32_t r = rnd(g, 100);
	return r < 45 ? 0 : r < 85 ? 1 : 2;
}

/* Short-circuit code (C's && and ||) for a random condition of nesting nest:
** one branch per test, control reaches label t where the condition holds and
** f where it does not, and the code falls through to t when fall_true, to f
** otherwise. The tests are p<lvl>, p<lvl>_1, p<lvl>_2, ... (*leaf counts). */
static void ug_cond(Gen *g, int32_t lvl, int32_t nest, int32_t t, int32_t f, bool fall_true,
	int32_t *leaf)
{
	if (nest == 0) {
		char pname[24], p[24];
		if (*leaf == 0)
			snprintf(pname, sizeof pname, "p%d", (int)lvl);
		else
			snprintf(pname, sizeof pname, "p%d_%d", (int)lvl, (int)*leaf);
		(*leaf)++;
		predicate(g, pname, p, sizeof p);
		if (fall_true)
			emit(g, "bz %s, L%d", p, target(g, f));
		else
			emit(g, "bnz %s, L%d", p, target(g, t));
		return;
	}
	bool and = chance(g, 50);
	int32_t n = nest == 1 ? range(g, 2, 3) : 2;
	for (int32_t k = 0; k < n; k++) {
		int32_t sub = nest > 1 && chance(g, 60) ? nest - 1 : 0;
		if (k == n - 1) {
			ug_cond(g, lvl, sub, t, f, fall_true, leaf);
			break;
		}
		/* the next operand starts at `next`: where an && operand holds and
		** where an || operand does not */
		int32_t next = new_label(g);
		if (and)
			ug_cond(g, lvl, sub, next, f, true, leaf);
		else
			ug_cond(g, lvl, sub, t, next, false, leaf);
		pend_target(g, next);
	}
}

/* `if (COND) goto t` without a body: the condition's branches jump to t. */
static void ug_jump(Gen *g, int32_t depth, Target t)
{
	before_jump(g, t);
	int32_t j = new_label(g), leaf = 0;
	ug_cond(g, depth, cond_nest(g), t.label, j, false, &leaf);
	after_jump(g, t);
	pend_target(g, j);
}

/* The unconditional end of a then-part that leaves: break, continue, or an
** early return (exit or stop, maybe after storing the results, or a jump to
** the epilogue). */
static void ug_tail(Gen *g, Target t)
{
	before_jump(g, t);
	if (t.kind != J_RETURN) {
		emit(g, "jump L%d", target(g, t.label));
		after_jump(g, t);
		return;
	}
	int32_t r = rnd(g, 100);
	if (r < 25) {
		emit(g, "jump L%d", target(g, t.label));
		return;
	}
	if (g->func >= 0 && r < 75) { /* an early return from a function */
		emit(g, "ret");
		return;
	}
	if (chance(g, 50))
		emit_output(g);
	emit(g, r < 70 ? "exit" : "stop");
}

/* if-then or if-then-else on a short-circuit condition; with a tail, the
** then-part ends by leaving (so control reaches the join from the else side
** only). */
static void ug_if(Gen *g, int32_t depth, int32_t rem, bool with_else, const Target *tail)
{
	int32_t cap = imax(4, g->size / 3);
	int32_t t = new_label(g), f = new_label(g), leaf = 0;
	ug_cond(g, depth, cond_nest(g), t, f, true, &leaf);
	pend_target(g, t);
	int32_t *saved = defs_copy(g);
	int32_t then_b = body_budget(g, with_else ? rem / 2 : rem, cap);
	int32_t else_b = with_else ? body_budget(g, rem / 2, cap) : 0;
	int32_t both = with_else ? both_sides_call(g) : -1;
	if (both >= 0)
		emit_call(g, both);
	ug_block(g, depth + 1, then_b);
	if (tail) {
		ug_tail(g, *tail);
		memcpy(g->bits, saved, (size_t)g->nv * sizeof *saved);
		pend_target(g, f);
		if (both >= 0)
			emit_call(g, both);
		if (with_else)
			ug_block(g, depth + 1, else_b);
	} else if (with_else) {
		int32_t j = new_label(g);
		emit(g, "jump L%d", target(g, j));
		int32_t *after_then = defs_copy(g);
		memcpy(g->bits, saved, (size_t)g->nv * sizeof *saved);
		pend_target(g, f);
		if (both >= 0)
			emit_call(g, both);
		ug_block(g, depth + 1, else_b);
		defs_join(g, after_then);
		free(after_then);
		pend_target(g, j);
	} else {
		defs_join(g, saved);
		pend_target(g, f);
	}
	free(saved);
}

/* if / else if / ... / else: every arm jumps to one join. */
static void ug_chain(Gen *g, int32_t depth, int32_t rem)
{
	int32_t cap = imax(4, g->size / 4);
	int32_t arms = range(g, 2, 3), j = new_label(g), leaf = 0;
	bool with_else = chance(g, 60);
	int32_t *saved = defs_copy(g), *joined = defs_copy(g);
	for (int32_t a = 0; a < arms; a++) {
		int32_t t = new_label(g), f = new_label(g);
		ug_cond(g, depth, cond_nest(g), t, f, true, &leaf);
		pend_target(g, t);
		ug_block(g, depth + 1, body_budget(g, rem / (arms + 1), cap));
		emit(g, "jump L%d", target(g, j));
		defs_join(g, joined);
		memcpy(joined, g->bits, (size_t)g->nv * sizeof *joined);
		memcpy(g->bits, saved, (size_t)g->nv * sizeof *saved);
		pend_target(g, f);
	}
	if (with_else)
		ug_block(g, depth + 1, body_budget(g, rem / (arms + 1), cap));
	defs_join(g, joined);
	pend_target(g, j);
	free(saved);
	free(joined);
}

/* A loop of one of four kinds (file comment), maybe with a second exit
** block; its body may break, continue and return. */
static void ug_loop(Gen *g, int32_t depth, int32_t rem)
{
	int32_t l = g->nloops, ln = l + g->loff; /* ln: the counter's name */
	int32_t kind = rnd(g, 4);
	char bound[16];
	counter_init(g, ln, false);
	loop_bound(g, ln, bound, sizeof bound);
	ULoop *u = &g->uloop[l];
	u->head = xmalloc((size_t)g->nv * sizeof *u->head);
	u->exit = xcalloc((size_t)g->nv, sizeof *u->exit);
	u->exit2 = xcalloc((size_t)g->nv, sizeof *u->exit2);
	for (int32_t k = 0; k < g->nv; k++)
		u->head[k] = g->bits[k] = imax(g->bits[k], GEN_HEAD);
	u->head_label = new_label(g);
	u->exit_label = new_label(g);
	u->exit2_label = chance(g, 35) ? new_label(g) : 0;
	u->cont_label = kind == 0 || kind == 2 ? new_label(g) : u->head_label;
	u->cont_ok = kind != 3;
	u->exit2_used = false;
	Target brk = {.kind = J_BREAK, .loop = l, .label = u->exit_label};
	int32_t body = body_budget(g, rem, imin(32, imax(4, g->size / 4)));

	pend_label(g, u->head_label);
	if (kind <= 1) {
		emit(g, "p%d = i%d < %s", (int)depth, (int)ln, bound);
		emit(g, "bz p%d, L%d", (int)depth, target(g, u->exit_label));
		after_jump(g, brk);
	}
	if (kind >= 1)
		emit(g, "i%d = i%d + 1", (int)ln, (int)ln);
	g->nloops++;
	if (kind == 3) {
		/* the exit test in the middle; no continue before it, which would skip it */
		int32_t first = 1 + rnd(g, imax(1, body / 2));
		ug_block(g, depth + 1, first);
		emit(g, "p%d = i%d > %s", (int)depth, (int)ln, bound);
		emit(g, "bnz p%d, L%d", (int)depth, target(g, u->exit_label));
		after_jump(g, brk);
		u->cont_ok = true;
		ug_block(g, depth + 1, imax(1, body - first));
	} else {
		ug_block(g, depth + 1, body);
	}
	if (u->exit2_label && !u->exit2_used) {
		Target t = {.kind = J_BREAK2, .loop = l, .label = u->exit2_label};
		ug_jump(g, depth + 1, t);
	}
	g->nloops--;
	loop_reduce(g, u->head);
	if (kind == 0) {
		pend_target(g, u->cont_label);
		emit(g, "i%d = i%d + 1", (int)ln, (int)ln);
		emit(g, "jump L%d", target(g, u->head_label));
	} else if (kind == 2) {
		pend_target(g, u->cont_label);
		emit(g, "p%d = i%d < %s", (int)depth, (int)ln, bound);
		if (chance(g, 50)) {
			emit(g, "bnz p%d, L%d", (int)depth, target(g, u->head_label));
		} else {
			emit(g, "bz p%d, L%d", (int)depth, target(g, u->exit_label));
			emit(g, "jump L%d", target(g, u->head_label));
		}
		after_jump(g, brk);
	} else {
		emit(g, "jump L%d", target(g, u->head_label));
	}

	/* after the loop: the exit blocks, and now and then the counter (its
	** value leaving the loop differs between threads) */
	pend_target(g, u->exit_label);
	memcpy(g->bits, u->exit, (size_t)g->nv * sizeof *g->bits);
	if (chance(g, 30)) {
		int32_t k = rnd(g, g->nv);
		emit(g, "x%d = i%d", (int)k, (int)ln);
		g->bits[k] = 3;
	}
	if (u->exit2_label) {
		int32_t j = new_label(g);
		for (int32_t n = range(g, 1, 2); n > 0; n--)
			st_simple(g);
		emit(g, "jump L%d", target(g, j));
		int32_t *after = defs_copy(g);
		memcpy(g->bits, u->exit2, (size_t)g->nv * sizeof *g->bits);
		pend_target(g, u->exit2_label);
		for (int32_t n = range(g, 1, 2); n > 0; n--)
			st_simple(g);
		defs_join(g, after);
		free(after);
		pend_target(g, j);
	}
	free(u->head);
	free(u->exit);
	free(u->exit2);
	memset(u, 0, sizeof *u);
}

/* Statements and constructs until about budget instructions (at least one). */
static void ug_block(Gen *g, int32_t depth, int32_t budget)
{
	int32_t start = g->emitted;
	do {
		int32_t rem = budget - (g->emitted - start);
		int32_t r = rnd(g, 100);
		int32_t jumps = g->depth == 0 ? 0 : g->nloops > 0 ? 14 : 3;
		bool nest = depth < g->depth && rem >= 4;
		if (nest && r < 30) {
			int32_t c = rnd(g, 100);
			if (g->loops && g->nloops < GEN_MAX_LOOPS && c < 35) {
				ug_loop(g, depth, rem - 6);
			} else if (c < 55) {
				ug_if(g, depth, rem - 3, false, NULL);
			} else if (c < 70) {
				ug_if(g, depth, rem - 5, true, NULL);
			} else if (c < 82) {
				ug_chain(g, depth, rem - 8);
			} else {
				Target t = pick_target(g);
				ug_if(g, depth, rem - 4, chance(g, 30), &t);
			}
		} else if (r >= 30 && r < 30 + jumps) {
			ug_jump(g, depth, pick_target(g));
		} else {
			st_any(g);
		}
	} while (g->emitted - start < budget);
}

/* ---- the program ---------------------------------------------------------------------- */

/* ---- concurrent programs ---------------------------------------------------------- */

/* Memory: locks at 0 and 1, counters at 2 and 3, flags at 4 and 5, the
** ticket lock's next ticket at 6 and the ticket served at 7. */

static uint64_t conc_rnd(uint64_t *s, uint64_t n)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (z ^ (z >> 31)) % n;
}

/* critical section: counter C += 1 */
static void conc_critical(Buf *b, int k, int c)
{
	buf_printf(b, "    c%d = mem[%d]\n    c%d = c%d + 1\n    mem[%d] = c%d\n", k, c, k, k, c, k);
}

static void conc_pattern(Buf *b, uint64_t *rng, int k, int32_t threads)
{
	int lock = (int)conc_rnd(rng, 2), ctr = 2 + (int)conc_rnd(rng, 2), flag = 4 + (int)conc_rnd(rng, 2);
	switch (conc_rnd(rng, 8)) {
	case 0: /* NVCC's spin lock: while (atomicCAS(&l, 0, 1) != 0); critical; release */
		buf_printf(b, "lk%d: o%d = atomcas(%d, 0, 1)\n    bnz o%d, lk%d\n    sync\n", k, k, lock, k, k);
		conc_critical(b, k, ctr);
		buf_printf(b, "    r%d = atomexch(%d, 0)\n", k, lock);
		break;
	case 1: /* the SIMT-safe lock (seed 004 Figure 3.6): the winner releases in the loop */
		buf_printf(b, "    d%d = 0\nsl%d: bnz d%d, se%d\n    o%d = atomcas(%d, 0, 1)\n    bnz o%d, sj%d\n", k, k,
		           k, k, k, lock, k, k);
		conc_critical(b, k, ctr);
		buf_printf(b, "    r%d = atomexch(%d, 0)\n    d%d = 1\nsj%d: sync\n    jump sl%d\nse%d: sync\n", k, lock, k, k,
		           k, k);
		break;
	case 2: { /* a flag one thread sets and the others wait for */
		int setter = (int)conc_rnd(rng, (uint64_t)threads);
		buf_printf(b, "    p%d = tid == %d\n    bz p%d, fw%d\n    mem[%d] = 1\n    jump fj%d\n", k, setter, k, k, flag, k);
		buf_printf(b, "fw%d: f%d = mem[%d]\n    bz f%d, fw%d\nfj%d: sync\n", k, k, flag, k, k, k);
		break;
	}
	case 3: /* a ticket lock */
		buf_printf(b, "    t%d = atominc(6)\n    t%d = t%d - 1\ntw%d: n%d = mem[7]\n    x%d = n%d != t%d\n"
		              "    bnz x%d, tw%d\n    sync\n", k, k, k, k, k, k, k, k, k, k);
		conc_critical(b, k, ctr);
		buf_printf(b, "    n%d = atominc(7)\n", k);
		break;
	case 4: /* an atomic counter */
		buf_printf(b, "    a%d = atomadd(%d, 1)\n", k, ctr);
		break;
	case 5: /* a barrier every thread reaches */
		buf_printf(b, "    mem[tid] = %d\n    barrier\n", k);
		break;
	case 6: /* two locks taken in thread-dependent orders (a MIMD deadlock when they cross) */
		buf_printf(b, "    la%d = tid %% 2\n    lb%d = 1 - la%d\n", k, k, k);
		buf_printf(b, "ta%d: o%d = atomcas(la%d, 0, 1)\n    bnz o%d, ta%d\n    sync\n", k, k, k, k, k);
		buf_printf(b, "tb%d: q%d = atomcas(lb%d, 0, 1)\n    bnz q%d, tb%d\n    sync\n", k, k, k, k, k);
		conc_critical(b, k, ctr);
		buf_printf(b, "    r%d = atomexch(lb%d, 0)\n    r%d = atomexch(la%d, 0)\n", k, k, k, k);
		break;
	default: /* a barrier on each side of a divergent branch */
		buf_printf(b, "    q%d = tid %% 2\n    bz q%d, be%d\n    barrier\n    jump bj%d\nbe%d: barrier\nbj%d: sync\n", k,
		           k, k, k, k, k);
		break;
	}
}

static void gen_concurrent(Buf *b, const GenOptions *o)
{
	uint64_t rng = o->seed * 0x2545F4914F6CDD1Dull + 7;
	int32_t threads = 2 + (int32_t)conc_rnd(&rng, 2);
	int32_t warpsize = (int32_t)conc_rnd(&rng, 3);
	warpsize = warpsize == 0 ? 1 : warpsize == 1 ? 2 : threads;
	buf_printf(b, "# musimd gen --seed %llu --concurrent\n.threads %d\n.warpsize %d\n.memory zero\n",
	           (unsigned long long)o->seed, (int)threads, (int)warpsize);
	int n = 1 + (int)conc_rnd(&rng, 3);
	for (int k = 0; k < n; k++) {
		if (conc_rnd(&rng, 4) == 0) {
			/* inside a divergent branch: only some threads run it */
			buf_printf(b, "    g%d = tid %% 2\n    bz g%d, gs%d\n", k, k, k);
			conc_pattern(b, &rng, k, threads);
			buf_printf(b, "gs%d: sync\n", k);
		} else {
			conc_pattern(b, &rng, k, threads);
		}
	}
	buf_puts(b, "    stop\n");
}

/* A body of main or of a function, about budget instructions, of the
** program's shape; an unstructured one's early returns jump to its end. */
static void gen_body(Gen *g, int32_t budget)
{
	if (g->unstructured) {
		g->ret = new_label(g);
		ug_block(g, 0, budget);
		pend_target(g, g->ret);
	} else {
		gen_block(g, 0, budget);
	}
}

/* Function f's text (GenOptions.calls), about budget instructions, into
** out: `f<f>:`, a body of the program's shape whose loops have counters of
** their own, then the variables brought back within the entry bounds and
** `ret`. An unstructured body may also return early (`ret` in the threads
** that take it: a divergent return), exit or stop. */
static void gen_function(Gen *g, int32_t f, int32_t budget, Buf *out)
{
	Buf *b = g->b;
	g->b = out;
	g->func = f;
	g->loff = (f + 1) * GEN_MAX_LOOPS;
	memcpy(g->bits, g->fhead, (size_t)g->nv * sizeof *g->bits);
	buf_printf(&g->pend, "f%d: ", (int)f);
	gen_body(g, budget);
	loop_reduce(g, g->fhead);
	emit(g, "ret");
	g->b = b;
	g->func = -1;
	g->loff = 0;
}

/* The functions (GenOptions.calls), generated last first so that each one
** may call those after it; then main, which ends by calling each function
** that no call reaches yet (every function is reached: no unreachable
** code). */
static void gen_with_calls(Gen *g, int32_t body)
{
	g->nfuncs = 1 + rnd(g, GEN_MAX_FUNCS);
	g->callees = xcalloc((size_t)g->nfuncs + 1, sizeof *g->callees);
	g->fhead = xmalloc((size_t)g->nv * sizeof *g->fhead);
	for (int32_t k = 0; k < g->nv; k++)
		g->fhead[k] = GEN_HEAD;
	int32_t fbudget = imax(3, body / (g->nfuncs + 2));
	Buf *text = xcalloc((size_t)g->nfuncs, sizeof *text);
	for (int32_t f = g->nfuncs - 1; f >= 0; f--)
		gen_function(g, f, fbudget, &text[f]);
	int32_t mbody = imax(1, body - g->nfuncs * fbudget);
	gen_body(g, mbody);
	uint32_t reached = 0;
	for (int32_t f = 0; f < g->nfuncs; f++) {
		if (!(g->callees[g->nfuncs] & 1u << f) && !(reached & 1u << f)) {
			emit_call(g, f);
		}
		reached |= g->callees[f];
	}
	g->funcs = text;
}

void gen_program(Buf *b, const GenOptions *o)
{
	if (o->concurrent) {
		gen_concurrent(b, o);
		return;
	}
	Gen g;
	memset(&g, 0, sizeof g);
	g.b = b;
	g.rng = o->seed;
	g.size = o->size > 0 ? o->size : 40;
	g.depth = o->max_depth == 0 ? 3 : o->max_depth < 0 ? 0 : imin(o->max_depth, GEN_MAX_DEPTH);
	g.nv = o->nvars > 0 ? imin(o->nvars, GEN_MAX_VARS) : 6;
	g.mem = !o->no_memory;
	g.det = o->deterministic;
	g.atom = g.mem && !o->no_atomics && !g.det;
	g.loops = !o->no_loops;
	g.unstructured = o->unstructured;
	g.rows = g.mem && (g.unstructured || g.det);
	g.bits = xcalloc((size_t)g.nv, sizeof *g.bits);
	g.calls = o->calls;
	g.func = -1;

	buf_printf(b, "# musimd gen --seed %llu --size %d --depth %d --vars %d%s%s%s%s%s%s\n",
		(unsigned long long)o->seed, (int)g.size, (int)g.depth, (int)g.nv,
		o->unstructured ? " --unstructured" : "", o->deterministic ? " --deterministic" : "",
		o->no_memory ? " --no-memory" : "", o->no_atomics ? " --no-atomics" : "",
		o->no_loops ? " --no-loops" : "", o->calls ? " --calls" : "");
	if (g.mem)
		buf_puts(b, ".memory zero\n");
	if (g.unstructured && chance(&g, 50))
		buf_printf(b, ".warpsize %d\n", (int)range(&g, 2, 4));
	g.nparams = 1 + rnd(&g, 2);
	for (int32_t k = 0; k < g.nparams; k++) {
		g.pval[k] = chance(&g, 80) ? range(&g, 1, 20) : range(&g, -8, 100);
		buf_printf(b, ".param c%d = %lld\n", (int)k, (long long)g.pval[k]);
	}
	if (g.mem && !g.det && chance(&g, 30)) {
		g.base = true;
		buf_puts(b, ".param base = 32\n");
	}
	if (g.mem && g.det) {
		/* the input: read, never written */
		buf_puts(b, ".data 0:");
		for (int32_t k = 0; k < GEN_INPUT; k++)
			buf_printf(b, " %d", (int)range(&g, -20, 200));
		buf_putc(b, '\n');
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

	if (g.rows) {
		/* the thread's row: scratch cells, then the results */
		g.nout = imax(1, imin(imin(g.nv, g.size / 10), GEN_ROW - GEN_SCRATCH));
		emit(&g, "rw = tid * %d", GEN_ROW);
		emit(&g, "rw = rw + %d", GEN_OUT);
	} else if (g.mem) {
		g.nout = imax(1, imin(g.nv, g.size / 10));
	}
	int32_t body = imax(1, g.size - g.nv - 2 * g.nout - 2);
	if (g.calls) {
		gen_with_calls(&g, body);
	} else {
		gen_body(&g, body);
	}

	if (g.rows) {
		emit_output(&g);
	} else if (g.nout > 0) {
		/* the result: a race-free row per thread from address GEN_OUT on */
		emit(&g, "ad = tid * %d", (int)g.nout);
		emit(&g, "ad = ad + %d", GEN_OUT);
		for (int32_t k = 0; k < g.nout; k++) {
			if (k > 0)
				emit(&g, "ad = ad + 1");
			emit(&g, "mem[ad] = x%d", (int)k);
		}
	}
	emit(&g, "stop");
	for (int32_t f = 0; f < g.nfuncs; f++) {
		buf_putn(b, buf_str(&g.funcs[f]), g.funcs[f].len);
		buf_free(&g.funcs[f]);
	}
	free(g.funcs);
	free(g.callees);
	free(g.fhead);
	free(g.bits);
	buf_free(&g.pend);
	free(g.used);
}
