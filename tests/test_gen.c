/*
** test_gen.c — the random program generator (src/gen.c, gen.h).
**
** What gen.h promises, checked on many seeds: the text loads with no error
** and no warning (every variable assigned before it is read, no unreachable
** code), and runs to the end (status ok: terminates, never divides by zero,
** never gets stuck) under model sync and model ipdom for 1..8 threads in one
** warp, and with several warps; the same seed gives the same text; the
** options are obeyed; a program of 10^5 instructions is generated quickly
** and validates.
**
** Unstructured mode (--unstructured): the programs load cleanly, have no
** sync, have a reducible CFG, and run to the end under ipdom and mimd for
** 1..8 threads with the warp size they pick; every shape of the file comment
** of gen.c shows up, found in the CFG (loops with several exits, several back
** edges, breaks out of two loops, short-circuit branches sharing a target,
** ...). Deterministic mode (--deterministic): no cell is written by one
** thread and read or written by another, and the final memory is the same
** under every model and schedule (while without the flag it is not).
*/
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model.h"
#include "gen.h"
#include "sem.h"
#include "testlib.h"

static char *gen_text(const GenOptions *o)
{
	Buf b = {0};
	gen_program(&b, o);
	return buf_steal(&b);
}

/* Options varied by seed: sizes 10..400, depths 1..5, 1..10 variables,
** now and then without memory, atomics or loops. */
static GenOptions varied(uint64_t seed)
{
	GenOptions o;
	memset(&o, 0, sizeof o);
	o.seed = seed;
	o.size = 10 + (int32_t)((seed * 37) % 391);
	o.max_depth = 1 + (int32_t)(seed % 5);
	o.nvars = 1 + (int32_t)((seed / 5) % 10);
	o.no_memory = seed % 11 == 3;
	o.no_atomics = seed % 7 == 2;
	o.no_loops = seed % 13 == 5;
	return o;
}

/* Load src; it must have no error and no warning. */
static Prog load_clean(const char *src, uint64_t seed)
{
	Prog r = load(src);
	if (r.d.nwarnings > 0) {
		Buf b = {0};
		diag_render(&r.d, &b);
		cr_assert_fail("seed %llu: warnings:\n%s\n%s", (unsigned long long)seed, buf_str(&b), src);
	}
	return r;
}

/* A machine for p (warpsize 0: one warp; -1: the program's .warpsize). */
static Machine *machine(const Program *p, const SemOptions *base, const Model *model, int32_t threads,
	int32_t warpsize)
{
	SemOptions o;
	if (base)
		o = *base;
	else
		memset(&o, 0, sizeof o);
	o.model = model;
	o.threads = threads;
	o.warpsize = warpsize > 0 ? warpsize : warpsize == 0 ? threads : 0;
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	Machine *m = sem_new(p, &o, &d);
	cr_assert(m, "sem_new failed");
	diag_free(&d);
	return m;
}

/* Run under model with the given threads and warp size (machine()). */
/* gen.c keeps every value below 2^48 (GEN_CAP); a little margin. */
static bool bounded(Num v)
{
	return !v.z && v.i > -(INT64_C(1) << 50) && v.i < (INT64_C(1) << 50);
}

static void check_cell(void *ctx, int64_t addr, Num value)
{
	(void)addr;
	*(bool *)ctx &= bounded(value);
}

/* Whether every variable and every cell holds a bounded value. */
static bool values_bounded(const Machine *m)
{
	bool ok = true;
	for (int32_t v = 0; v < m->nvars; v++) {
		for (int32_t t = 0; t < m->nthreads; t++) {
			Num x;
			if (sem_get(m, v, t, &x))
				ok &= bounded(x);
		}
	}
	mem_each(&m->shared, check_cell, &ok);
	return ok;
}

/* Run; *err says why the run did not end with status ok or left an
** unbounded value. */
static SemStatus run(const Program *p, const Model *model, int32_t threads, int32_t warpsize, char **err)
{
	Machine *m = machine(p, NULL, model, threads, warpsize);
	SemStatus s = sem_run(m, NULL, NULL);
	*err = NULL;
	if (s == SEM_OK && !values_bounded(m)) {
		*err = xstrdup("a value beyond 2^50");
		s = SEM_STUCK;
	} else if (s != SEM_OK) {
		Buf b = {0};
		buf_printf(&b, "%s: rule %s: %s", sem_status_name(s), m->err.rule ? m->err.rule : "?",
			m->err.msg ? m->err.msg : "");
		*err = buf_steal(&b);
	}
	sem_free(m);
	return s;
}

static void check_runs(const char *src, const Program *p, uint64_t seed, const Model *model,
	int32_t threads, int32_t warpsize)
{
	char *err;
	SemStatus s = run(p, model, threads, warpsize, &err);
	if (s != SEM_OK) {
		cr_assert_fail("seed %llu, model %s, %d threads, warp size %d: %s\n%s",
			(unsigned long long)seed, sem_model_name(model), (int)threads, (int)warpsize, err,
			src);
	}
}

/* 1000 seeds: load cleanly, run to the end under sync and ipdom, 1..8 threads. */
Test(gen, valid_and_terminates)
{
	for (uint64_t seed = 1; seed <= 1000; seed++) {
		GenOptions o = varied(seed);
		char *src = gen_text(&o);
		Prog r = load_clean(src, seed);
		for (int32_t t = 1; t <= 8; t++) {
			check_runs(src, r.p, seed, &model_sync, t, 0);
			check_runs(src, r.p, seed, &model_ipdom, t, 0);
		}
		unload(&r);
		free(src);
	}
}

/* Several warps (laneid, warpid, nwarps differ) and the MIMD model. */
Test(gen, several_warps_and_mimd)
{
	for (uint64_t seed = 1000; seed < 1100; seed++) {
		GenOptions o = varied(seed);
		char *src = gen_text(&o);
		Prog r = load_clean(src, seed);
		check_runs(src, r.p, seed, &model_sync, 7, 2);
		check_runs(src, r.p, seed, &model_sync, 12, 5);
		check_runs(src, r.p, seed, &model_ipdom, 9, 4);
		check_runs(src, r.p, seed, &model_mimd, 6, 3);
		unload(&r);
		free(src);
	}
}

/* Thread counts up to 64 (the loops' trip counts do not grow with it). */
Test(gen, many_threads)
{
	for (uint64_t seed = 2000; seed < 2030; seed++) {
		GenOptions o = varied(seed);
		char *src = gen_text(&o);
		Prog r = load_clean(src, seed);
		check_runs(src, r.p, seed, &model_sync, 64, 0);
		check_runs(src, r.p, seed, &model_sync, 64, 32);
		check_runs(src, r.p, seed, &model_ipdom, 33, 0);
		unload(&r);
		free(src);
	}
}

Test(gen, deterministic)
{
	char *prev = NULL;
	int32_t same_as_prev = 0;
	for (uint64_t seed = 0; seed < 100; seed++) {
		GenOptions o = {.seed = seed, .size = 60};
		char *a = gen_text(&o), *b = gen_text(&o);
		cr_assert_str_eq(a, b, "seed %llu gives two texts", (unsigned long long)seed);
		/* the header names the seed: compare the rest */
		if (prev && !strcmp(strchr(prev, '\n'), strchr(a, '\n')))
			same_as_prev++;
		free(prev);
		free(b);
		prev = a;
	}
	free(prev);
	cr_expect_leq(same_as_prev, 1, "%d seeds gave the text of the previous seed", (int)same_as_prev);
}

/* Seeds differing in one bit give different programs. */
Test(gen, seeds_spread)
{
	GenOptions a = {.seed = 0x8000000000000000ull, .size = 40};
	GenOptions b = {.seed = 0, .size = 40};
	char *sa = gen_text(&a), *sb = gen_text(&b);
	cr_expect(strcmp(strchr(sa, '\n'), strchr(sb, '\n')) != 0);
	free(sa);
	free(sb);
}

static int32_t count(const char *s, const char *needle)
{
	int32_t n = 0;
	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

Test(gen, defaults)
{
	GenOptions o = {.seed = 7};
	char *src = gen_text(&o);
	Prog r = load_clean(src, 7);
	cr_expect(r.p->nins >= 30 && r.p->nins <= 60, "default size 40, got %d", (int)r.p->nins);
	cr_expect(strstr(src, "x5 ="), "six variables by default");
	cr_expect(!strstr(src, "x6 ="));
	unload(&r);
	free(src);
}

/* --no-memory, --no-loops and --no-atomics, in either shape. */
static void check_options(uint64_t seed, bool unstructured)
{
	GenOptions o = {.seed = seed, .size = 200, .no_memory = true, .no_loops = true,
		.unstructured = unstructured};
	char *src = gen_text(&o);
	Prog r = load_clean(src, seed);
	cr_expect(!strstr(src, "mem[") && !strstr(src, "= atom"), "seed %llu: memory used", (unsigned long long)seed);
	cr_expect(!strstr(src, "i0 ="), "seed %llu: a loop", (unsigned long long)seed);
	for (int32_t pc = 0; pc < r.p->nins; pc++) {
		const Ins *in = &r.p->ins[pc];
		if (in->target >= 0)
			cr_expect(in->target > pc, "seed %llu: backward jump at %d", (unsigned long long)seed, (int)pc);
	}
	unload(&r);
	free(src);

	GenOptions a = {.seed = seed, .size = 200, .no_atomics = true, .unstructured = unstructured};
	src = gen_text(&a);
	cr_expect(!strstr(src, "= atom"), "seed %llu: an atomic", (unsigned long long)seed);
	free(src);
}

Test(gen, options_obeyed)
{
	for (uint64_t seed = 1; seed <= 40; seed++) {
		check_options(seed, false);
		GenOptions v = {.seed = seed, .size = 100, .nvars = 2};
		char *src = gen_text(&v);
		cr_expect(strstr(src, "x1 =") && !strstr(src, "x2"), "seed %llu: two variables", (unsigned long long)seed);
		free(src);
	}
}

/* Negative max_depth: straight-line code; a huge one is clamped. */
Test(gen, depth_bounds)
{
	GenOptions o = {.seed = 3, .size = 300, .max_depth = -1};
	char *src = gen_text(&o);
	cr_expect(!strstr(src, "bz") && !strstr(src, "sync") && !strstr(src, "jump"));
	free(src);
	int32_t deepest = 0, consecutive = 0;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		GenOptions d = {.seed = seed, .size = 3000, .max_depth = 1000000};
		src = gen_text(&d);
		Prog r = load_clean(src, seed);
		/* nesting depth = the largest number of pending syncs along the text */
		int32_t open = 0;
		for (int32_t pc = 0; pc < r.p->nins; pc++) {
			const Ins *in = &r.p->ins[pc];
			if (in->op == OP_BZ || in->op == OP_BNZ)
				open++;
			else if (in->op == OP_SYNC)
				open--;
			if (open > deepest)
				deepest = open;
			if (in->op == OP_SYNC && pc + 1 < r.p->nins && r.p->ins[pc + 1].op == OP_SYNC)
				consecutive++;
		}
		cr_expect_eq(open, 0);
		check_runs(src, r.p, seed, &model_sync, 5, 0);
		unload(&r);
		free(src);
	}
	cr_expect(deepest > 5, "deep nesting expected, got %d", (int)deepest);
	cr_expect(deepest <= 40, "depth not clamped: %d", (int)deepest);
	cr_expect(consecutive > 20, "branches reconverging at one point: %d", (int)consecutive);
}

/* Every shape of gen.c shows up in a few programs. */
Test(gen, shapes)
{
	Buf all = {0};
	for (uint64_t seed = 1; seed <= 30; seed++) {
		GenOptions o = {.seed = seed, .size = 300};
		gen_program(&all, &o);
	}
	const char *s = buf_str(&all);
	const char *want[] = {"bz p", "bnz p", "jump L", ":     sync", "sync\nL", "< n", "bz i",
		"i0 = i0 - 1", "i1 = i1 + 1", "i2 = ", "mem[ad] = ", "= mem[ad]", "atominc(ad)",
		"atomadd(ad,", "atomexch(ad,", "atomcas(ad,", " / ", " % ", " << ", " >> ", " * ",
		"min(", "max(", "= -", "= !", "= ~", "laneid", "warpid", "ntid", "c1", "| 1", "&& ", "|| "};
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
		cr_expect(strstr(s, want[k]), "no \"%s\" in 30 programs", want[k]);
	cr_expect(count(s, "L") > 100);
	buf_free(&all);
}

/* Benchmark size: 10^5 instructions in well under a second, valid, and it
** runs under model with 4 threads (warp size as machine()). */
static void check_large(const GenOptions *o, int32_t max_ins, const Model *model, int32_t warpsize)
{
	clock_t t0 = clock();
	char *src = gen_text(o);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	cr_expect(secs < 1.0, "generation took %.3f s", secs);
	Prog r = load_clean(src, o->seed);
	cr_expect(r.p->nins >= 95000 && r.p->nins <= max_ins, "size 10^5, got %d", (int)r.p->nins);
	check_runs(src, r.p, o->seed, model, 4, warpsize);
	unload(&r);
	free(src);
}

Test(gen, large)
{
	GenOptions o = {.seed = 42, .size = 100000};
	check_large(&o, 115000, &model_sync, 0);
}

/* ---- unstructured and deterministic programs ---------------------------------------- */

/* Options varied by seed for --unstructured: as varied(), deterministic for
** odd seeds. */
static GenOptions varied_unstructured(uint64_t seed)
{
	GenOptions o = varied(seed);
	o.unstructured = true;
	o.deterministic = seed % 2 == 1;
	return o;
}

/* Every retreating edge (to a block not after it in reverse post-order)
** goes to a block that dominates its source: the CFG is reducible. */
static bool reducible(const Cfg *g, char *why, size_t n)
{
	int32_t *order = xmalloc((size_t)g->nblocks * sizeof *order);
	for (int32_t b = 0; b < g->nblocks; b++)
		order[b] = -1;
	for (int32_t k = 0; k < g->nrpo; k++)
		order[g->rpo[k]] = k;
	bool ok = true;
	for (int32_t k = 0; k < g->nrpo && ok; k++) {
		int32_t u = g->rpo[k];
		for (int32_t s = 0; s < g->blocks[u].nsucc; s++) {
			int32_t v = g->blocks[u].succ[s];
			if (v < g->nblocks && order[v] <= k && !cfg_dominates(g, v, u)) {
				snprintf(why, n, "edge B%d -> B%d retreats to a block that does not dominate it",
					(int)u, (int)v);
				ok = false;
			}
		}
	}
	free(order);
	return ok;
}

/* Load cleanly, no sync, reducible; run to the end under ipdom and mimd
** with 1..8 threads and the program's warp size. */
static void check_unstructured(const GenOptions *o, int32_t max_threads)
{
	char *src = gen_text(o);
	Prog r = load_clean(src, o->seed);
	char why[128];
	cr_assert(reducible(r.g, why, sizeof why), "seed %llu: %s\n%s", (unsigned long long)o->seed, why, src);
	for (int32_t pc = 0; pc < r.p->nins; pc++)
		cr_assert(r.p->ins[pc].op != OP_SYNC, "seed %llu: a sync\n%s", (unsigned long long)o->seed, src);
	for (int32_t t = 1; t <= max_threads; t++) {
		check_runs(src, r.p, o->seed, &model_ipdom, t, -1);
		check_runs(src, r.p, o->seed, &model_mimd, t, -1);
	}
	unload(&r);
	free(src);
}

Test(gen, unstructured_valid_and_terminates)
{
	for (uint64_t seed = 1; seed <= 600; seed++) {
		GenOptions o = varied_unstructured(seed);
		check_unstructured(&o, 8);
	}
}

/* Larger and deeper programs, more threads, other warp sizes. */
Test(gen, unstructured_large_and_wide)
{
	for (uint64_t seed = 5000; seed < 5040; seed++) {
		GenOptions o = {.seed = seed, .size = 1500, .max_depth = 6, .nvars = 8,
			.unstructured = true, .deterministic = seed % 2 == 0};
		char *src = gen_text(&o);
		Prog r = load_clean(src, seed);
		check_runs(src, r.p, seed, &model_ipdom, 8, -1);
		check_runs(src, r.p, seed, &model_ipdom, 37, 32);
		check_runs(src, r.p, seed, &model_ipdom, 13, 5);
		check_runs(src, r.p, seed, &model_mimd, 9, -1);
		unload(&r);
		free(src);
	}
}

/* The shapes of the file comment of gen.c, found in the CFG. */
typedef enum Shape {
	SH_BREAK,          /* a loop left from a block other than its header and its latches
	                   ** (and than the test of a do-while before a lone jump back) */
	SH_EXITS_SAME,     /* two exit edges of a loop into one block */
	SH_EXITS_DIFF,     /* exit edges of a loop into two different blocks */
	SH_BACK_EDGES,     /* a loop with several back edges (continue to the header) */
	SH_BREAK_OUTER,    /* an edge from an inner loop out of the enclosing loop too */
	SH_CONTINUE_OUTER, /* a break-like edge (as SH_BREAK) from an inner loop to the header
	                   ** or a latch of the outer one */
	SH_RETURN_IN_LOOP, /* exit or stop inside a loop */
	SH_EXIT,           /* exit */
	SH_STOP_EARLY,     /* a stop that is not the last instruction */
	SH_SHORT_CIRCUIT,  /* a branch whose successor branches to a common target */
	SH_SHARED_JOIN,    /* a block (not a loop header) with three or more predecessors */
	SH_HIDDEN_JOIN,    /* a join that is the immediate post-dominator of no branch */
	SH_NESTED_LOOPS,
	SH__COUNT
} Shape;

static const char *const shape_names[SH__COUNT] = {
	"break", "loop exits into one block", "loop exits into different blocks",
	"several back edges", "break out of the outer loop", "continue of the outer loop",
	"return inside a loop", "exit", "stop before the end", "short circuit",
	"join of three or more edges", "join that is no branch's ipdom", "nested loops",
};

static bool is_branch_block(const Program *p, const Cfg *g, int32_t b)
{
	uint8_t op = p->ins[g->blocks[b].last].op;
	return op == OP_BZ || op == OP_BNZ;
}

static void find_shapes(const Program *p, const Cfg *g, bool *seen)
{
	int32_t nb = g->nblocks;
	bool *body = xmalloc((size_t)nb * sizeof *body);
	bool *parent = xmalloc((size_t)nb * sizeof *parent);
	int32_t *hits = xmalloc((size_t)nb * sizeof *hits);
	for (int32_t l = 0; l < g->nloops; l++) {
		const Loop *L = &g->loops[l];
		memset(body, 0, (size_t)nb * sizeof *body);
		memset(parent, 0, (size_t)nb * sizeof *parent);
		memset(hits, 0, (size_t)nb * sizeof *hits);
		for (int32_t k = 0; k < L->nblocks; k++)
			body[L->blocks[k]] = true;
		if (L->parent >= 0) {
			seen[SH_NESTED_LOOPS] = true;
			const Loop *P = &g->loops[L->parent];
			for (int32_t k = 0; k < P->nblocks; k++)
				parent[P->blocks[k]] = true;
		}
		seen[SH_BACK_EDGES] |= L->nlatches >= 2;
		int32_t targets = 0;
		for (int32_t k = 0; k < L->nblocks; k++) {
			int32_t b = L->blocks[k];
			const Block *B = &g->blocks[b];
			bool latch = false, test = false;
			for (int32_t j = 0; j < L->nlatches; j++) {
				const Block *T = &g->blocks[L->latches[j]];
				latch |= L->latches[j] == b;
				for (int32_t s = 0; s < B->nsucc; s++)
					test |= B->succ[s] == L->latches[j] && T->first == T->last;
			}
			for (int32_t s = 0; s < B->nsucc; s++) {
				int32_t t = B->succ[s];
				if (t >= nb || body[t])
					continue;
				targets += hits[t]++ == 0;
				uint8_t tlast = p->ins[g->blocks[t].last].op;
				seen[SH_EXITS_SAME] |= hits[t] >= 2;
				bool brk = b != L->header && !latch && !test;
				seen[SH_BREAK] |= brk;
				seen[SH_BREAK_OUTER] |= L->parent >= 0 && !parent[t];
				if (L->parent >= 0) {
					const Loop *P = &g->loops[L->parent];
					bool cont = t == P->header;
					for (int32_t j = 0; j < P->nlatches; j++)
						cont |= t == P->latches[j];
					seen[SH_CONTINUE_OUTER] |= cont && brk;
				}
				/* the natural loop leaves out blocks that cannot return to the header */
				seen[SH_RETURN_IN_LOOP] |= tlast == OP_EXIT ||
					(tlast == OP_STOP && g->blocks[t].last + 1 < p->nins);
			}
		}
		seen[SH_EXITS_DIFF] |= targets >= 2;
	}
	bool *is_ipdom = xcalloc((size_t)nb + 1, sizeof *is_ipdom);
	for (int32_t b = 0; b < nb; b++)
		if (g->blocks[b].reachable && is_branch_block(p, g, b))
			is_ipdom[g->blocks[b].ipdom] = true;
	for (int32_t b = 0; b < nb; b++) {
		const Block *B = &g->blocks[b];
		if (!B->reachable)
			continue;
		bool header = false;
		for (int32_t l = 0; l < g->nloops; l++)
			header |= g->loops[l].header == b;
		seen[SH_SHARED_JOIN] |= B->npred >= 3 && !header;
		seen[SH_HIDDEN_JOIN] |= B->npred >= 2 && !header && !is_ipdom[b];
		if (!is_branch_block(p, g, b))
			continue;
		for (int32_t s = 0; s < B->nsucc; s++) {
			int32_t c = B->succ[s];
			if (c >= nb || c == b || !is_branch_block(p, g, c))
				continue;
			for (int32_t i = 0; i < B->nsucc; i++)
				for (int32_t j = 0; j < g->blocks[c].nsucc; j++)
					seen[SH_SHORT_CIRCUIT] |= B->succ[i] != c && B->succ[i] == g->blocks[c].succ[j];
		}
	}
	for (int32_t pc = 0; pc < p->nins; pc++) {
		seen[SH_EXIT] |= p->ins[pc].op == OP_EXIT;
		seen[SH_STOP_EARLY] |= p->ins[pc].op == OP_STOP && pc + 1 < p->nins;
	}
	free(is_ipdom);
	free(body);
	free(parent);
	free(hits);
}

Test(gen, unstructured_shapes)
{
	bool seen[SH__COUNT] = {0};
	Buf all = {0};
	for (uint64_t seed = 1; seed <= 40; seed++) {
		GenOptions o = {.seed = seed, .size = 200, .unstructured = true};
		char *src = gen_text(&o);
		Prog r = load_clean(src, seed);
		find_shapes(r.p, r.g, seen);
		buf_puts(&all, src);
		unload(&r);
		free(src);
	}
	for (int32_t k = 0; k < SH__COUNT; k++)
		cr_expect(seen[k], "no %s in 40 unstructured programs", shape_names[k]);
	/* what the text shows: tests of one condition, the counter read after its
	** loop, several warps, results stored before an early return */
	const char *s = buf_str(&all);
	const char *want[] = {"p1_1 = ", "p0_2 = ", ".warpsize ", "= i0\n", "= i1\n", "atomadd(", "\n        exit\n"};
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
		cr_expect(strstr(s, want[k]), "no \"%s\" in 40 unstructured programs", want[k]);
	cr_expect(count(s, "ad = rw + 8\n") > 50, "results stored before early returns: %d",
		(int)count(s, "ad = rw + 8\n") - 40);
	buf_free(&all);
}

/* The structured generator makes none of these shapes (it is the control). */
Test(gen, structured_has_no_unstructured_shapes)
{
	bool seen[SH__COUNT] = {0};
	for (uint64_t seed = 1; seed <= 40; seed++) {
		GenOptions o = {.seed = seed, .size = 200};
		char *src = gen_text(&o);
		Prog r = load_clean(src, seed);
		find_shapes(r.p, r.g, seen);
		unload(&r);
		free(src);
	}
	const Shape none[] = {SH_BREAK, SH_EXITS_DIFF, SH_BACK_EDGES, SH_BREAK_OUTER, SH_CONTINUE_OUTER,
		SH_RETURN_IN_LOOP, SH_EXIT, SH_STOP_EARLY, SH_SHORT_CIRCUIT, SH_SHARED_JOIN};
	for (size_t k = 0; k < sizeof none / sizeof none[0]; k++)
		cr_expect(!seen[none[k]], "structured program with %s", shape_names[none[k]]);
	cr_expect(seen[SH_NESTED_LOOPS]);
}

Test(gen, unstructured_options)
{
	for (uint64_t seed = 1; seed <= 40; seed++) {
		check_options(seed, true);
		GenOptions d = {.seed = seed, .size = 200, .unstructured = true, .deterministic = true};
		char *s1 = gen_text(&d), *s2 = gen_text(&d);
		cr_expect_str_eq(s1, s2, "seed %llu gives two texts", (unsigned long long)seed);
		cr_expect(!strstr(s1, "= atom"), "seed %llu: an atomic", (unsigned long long)seed);
		cr_expect(strstr(s1, "--unstructured --deterministic\n"), "the header names the flags");
		free(s1);
		free(s2);
	}
	/* straight-line code at depth -1 */
	GenOptions o = {.seed = 3, .size = 300, .max_depth = -1, .unstructured = true};
	char *src = gen_text(&o);
	cr_expect(!strstr(src, "bz") && !strstr(src, "jump") && !strstr(src, "exit"));
	free(src);
}

/* ---- the deterministic contract -------------------------------------------------------- */

/* Per cell: the threads that stored to it and that loaded from it. */
typedef struct Access {
	int32_t nthreads;
	int64_t ncells;
	int32_t *writer;    /* per cell: -1 none, -2 several, else the thread */
	int32_t *reader;    /* per cell: likewise */
	bool atomic;
} Access;

static int64_t operand_value(const Machine *m, const Opnd *o, int32_t t)
{
	Num v = {0};
	if (o->kind == OPND_LIT)
		return ir_lit(m->prog, o).i;
	if (o->kind == OPND_SPECIAL)
		return sem_special(m, (Special)o->special, t);
	cr_assert(o->kind == OPND_VAR && sem_get(m, o->var, t, &v) && !v.z);
	return v.i;
}

static void note(int32_t *who, int32_t t)
{
	*who = *who == -1 || *who == t ? t : -2;
}

static void record_access(void *ctx, const Machine *m, const StepInfo *info)
{
	Access *a = ctx;
	const Ins *in = &m->prog->ins[info->pc];
	if (in->op >= OP_ATOMINC && in->op <= OP_ATOMEXCH)
		a->atomic = true;
	if (in->op != OP_LOAD && in->op != OP_STORE)
		return;
	const Warp *w = &m->warps[info->warp];
	for (int32_t lane = 0; lane < w->size; lane++) {
		if (!(info->active[lane / 64] >> (lane % 64) & 1))
			continue;
		int32_t t = w->base + lane;
		int64_t cell = operand_value(m, &in->a, t);
		cr_assert(cell >= 0 && cell < a->ncells, "cell %lld", (long long)cell);
		note(in->op == OP_STORE ? &a->writer[cell] : &a->reader[cell], t);
	}
}

/* Run under the options, recording the accesses; the final memory into mem. */
static SemStatus run_recording(const Program *p, const SemOptions *o, const Model *model, int32_t threads,
	Access *acc, Buf *mem);

static void print_cell(void *ctx, int64_t addr, Num value)
{
	buf_printf(ctx, "%lld=", (long long)addr);
	num_buf(ctx, value);
	buf_putc(ctx, ' ');
}

static SemStatus run_recording(const Program *p, const SemOptions *o, const Model *model, int32_t threads,
	Access *acc, Buf *mem)
{
	Machine *m = machine(p, o, model, threads, -1);
	SemStatus s = sem_run(m, acc ? record_access : NULL, acc);
	buf_reset(mem);
	mem_each(&m->shared, print_cell, mem);
	sem_free(m);
	return s;
}

/* No cell is stored to by one thread and loaded or stored by another. */
static bool contract_holds(const Access *a, char *why, size_t n)
{
	if (a->atomic) {
		snprintf(why, n, "an atomic");
		return false;
	}
	for (int64_t c = 0; c < a->ncells; c++) {
		int32_t w = a->writer[c], r = a->reader[c];
		if (w == -2 || (w >= 0 && r != -1 && r != w)) {
			snprintf(why, n, "cell %lld: written by %s %d, read by %d", (long long)c,
				w == -2 ? "several threads, e.g." : "thread", (int)w, (int)r);
			return false;
		}
	}
	return true;
}

enum { ACCESS_CELLS = 64 + 16 * 64 };

enum { DIFFER = 1, BROKEN = 2 };

/* Runs src under the schedules below for 1..8 threads: DIFFER when the final
** memory differs between them, BROKEN when a run breaks the contract of
** --deterministic (why says how). */
static int32_t schedules(const char *src, uint64_t seed, bool structured, char *why, size_t nwhy)
{
	Prog r = load_clean(src, seed);
	Access acc = {.ncells = ACCESS_CELLS};
	acc.writer = xmalloc(ACCESS_CELLS * sizeof *acc.writer);
	acc.reader = xmalloc(ACCESS_CELLS * sizeof *acc.reader);
	Buf first = {0}, other = {0};
	int32_t res = 0;
	for (int32_t t = 1; t <= 8 && res != (DIFFER | BROKEN); t++) {
		/* ipdom both ways and in three lane orders, mimd, and sync for structured programs */
		SemOptions o[6];
		const Model *model[6];
		memset(o, 0, sizeof o);
		int32_t n = 0;
		model[n++] = &model_ipdom;
		model[n] = &model_ipdom;
		o[n++].taken_first = true;
		model[n] = &model_ipdom;
		o[n++].lane_order = ORDER_DESCENDING;
		model[n] = &model_ipdom;
		o[n].lane_order = ORDER_RANDOM;
		o[n++].seed = seed;
		model[n++] = &model_mimd;
		if (structured)
			model[n++] = &model_sync;
		for (int32_t k = 0; k < n; k++) {
			for (int32_t c = 0; c < ACCESS_CELLS; c++)
				acc.writer[c] = acc.reader[c] = -1;
			acc.atomic = false;
			SemStatus s = run_recording(r.p, &o[k], model[k], t, &acc, k == 0 ? &first : &other);
			cr_assert_eq(s, SEM_OK, "seed %llu, %d threads: %s", (unsigned long long)seed, (int)t, sem_status_name(s));
			char broken[128];
			if (!(res & BROKEN) && !contract_holds(&acc, broken, sizeof broken)) {
				snprintf(why, nwhy, "%s, %d threads: %s", sem_model_name(model[k]), (int)t, broken);
				res |= BROKEN;
			}
			if (k > 0 && strcmp(buf_str(&first), buf_str(&other)))
				res |= DIFFER;
		}
	}
	buf_free(&first);
	buf_free(&other);
	free(acc.writer);
	free(acc.reader);
	unload(&r);
	return res;
}

Test(gen, deterministic_same_memory_under_every_schedule)
{
	for (uint64_t seed = 1; seed <= 150; seed++) {
		GenOptions o = varied(seed);
		o.unstructured = seed % 3 != 0;
		o.deterministic = true;
		char *src = gen_text(&o);
		char why[256] = "";
		int32_t res = schedules(src, seed, !o.unstructured, why, sizeof why);
		cr_expect(!(res & BROKEN), "seed %llu: %s\n%s", (unsigned long long)seed, why, src);
		cr_expect(!(res & DIFFER), "seed %llu: the final memory depends on the schedule\n%s",
			(unsigned long long)seed, src);
		free(src);
	}
}

/* Without --deterministic the checks above do find differences and accesses
** that break the contract. */
Test(gen, nondeterministic_programs_differ)
{
	int32_t differ = 0, broken = 0;
	for (uint64_t seed = 1; seed <= 60; seed++) {
		GenOptions o = varied(seed);
		o.unstructured = true;
		o.no_memory = false;
		char *src = gen_text(&o);
		char why[256];
		int32_t res = schedules(src, seed, false, why, sizeof why);
		differ += (res & DIFFER) != 0;
		broken += (res & BROKEN) != 0;
		free(src);
	}
	cr_expect(differ >= 15, "only %d of 60 programs without --deterministic depend on the schedule", (int)differ);
	cr_expect(broken >= 30, "only %d of 60 programs without --deterministic share cells", (int)broken);
}

Test(gen, unstructured_large)
{
	GenOptions o = {.seed = 42, .size = 100000, .unstructured = true};
	check_large(&o, 125000, &model_ipdom, -1);
}

/* --calls: the programs load cleanly (no recursion: that is a load error;
** every function called, nothing unreachable) and run to the end with
** bounded values under every model — the main ones, tf:sandy and every
** policy of the lab — structured ones under sync too; across the seeds,
** threads of different calls meet in a function and return to different
** pcs (rule RS) under Min-PC, and unstructured functions return early. */
Test(gen, calls_valid_and_terminate_under_every_model)
{
	int32_t rs = 0, early = 0, nested = 0;
	for (uint64_t seed = 1; seed <= 160; seed++) {
		bool unstructured = seed % 2 == 0;
		GenOptions o = unstructured ? varied_unstructured(seed) : varied(seed);
		o.calls = true;
		char *src = gen_text(&o);
		Prog r = load_clean(src, seed);
		cr_assert(r.p->has_calls && r.g->nfuncs >= 2, "seed %llu: no function\n%s", (unsigned long long)seed, src);
		for (int32_t f = 1; f < r.g->nfuncs; f++)
			nested += r.g->func_height[f] > 0;
		/* a ret that is not its function's last instruction: an early return */
		for (int32_t pc = 0; pc + 1 < r.p->nins; pc++)
			early += r.p->ins[pc].op == OP_RET && cfg_func_at(r.g, pc + 1) < 0 &&
			         r.g->func_of[r.g->block_of[pc + 1]] == r.g->func_of[r.g->block_of[pc]];
		int32_t t = 1 + (int32_t)(seed % 8);
		for (int i = 0; models[i]; i++)
			if (!(unstructured && models[i] == &model_sync))
				check_runs(src, r.p, seed, models[i], t, -1);
		check_runs(src, r.p, seed, &model_tf_sandy, t, -1);
		for (int32_t i = 0; i < its_policy_count(); i++)
			check_runs(src, r.p, seed, its_policy_model(i), t, -1);
		Machine *m = machine(r.p, NULL, its_policy_model(0), 8, 0);
		sem_run(m, NULL, NULL);
		rs += m->rule_count[RULE_RS] > 0;
		sem_free(m);
		unload(&r);
		free(src);
	}
	cr_expect_gt(rs, 5, "divergent returns (rule RS under %s) in %d programs only",
	             sem_model_name(its_policy_model(0)), (int)rs);
	cr_expect_gt(early, 5, "early returns in %d functions only", (int)early);
	cr_expect_gt(nested, 5, "functions calling functions: %d only", (int)nested);
}

/* Without --calls nothing changes (no call, no ret); with it, the first
** line says so and the same seed gives the same text. */
Test(gen, calls_only_with_the_option)
{
	for (uint64_t seed = 1; seed <= 50; seed++) {
		GenOptions o = varied(seed);
		o.unstructured = seed % 2 == 0;
		char *plain = gen_text(&o);
		cr_expect(strstr(plain, "call ") == NULL && strstr(plain, " ret\n") == NULL, "seed %llu:\n%s",
		          (unsigned long long)seed, plain);
		o.calls = true;
		char *a = gen_text(&o), *b = gen_text(&o);
		cr_expect_str_eq(a, b);
		cr_expect(strstr(a, " --calls\n") != NULL && strstr(a, "call f0") != NULL, "seed %llu:\n%s",
		          (unsigned long long)seed, a);
		free(plain);
		free(a);
		free(b);
	}
}
