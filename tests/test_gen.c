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
*/
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Run under model with the given threads and warp size (0: one warp). */
static SemStatus run(const Program *p, Model model, int32_t threads, int32_t warpsize, char **err)
{
	SemOptions o;
	memset(&o, 0, sizeof o);
	o.model = model;
	o.threads = threads;
	o.warpsize = warpsize ? warpsize : threads;
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	Machine *m = sem_new(p, &o, &d);
	cr_assert(m, "sem_new failed");
	diag_free(&d);
	SemStatus s = sem_run(m, NULL, NULL);
	*err = NULL;
	if (s != SEM_OK) {
		Buf b = {0};
		buf_printf(&b, "%s: rule %s: %s", sem_status_name(s), m->err.rule ? m->err.rule : "?",
			m->err.msg ? m->err.msg : "");
		*err = buf_steal(&b);
	}
	sem_free(m);
	return s;
}

static void check_runs(const char *src, const Program *p, uint64_t seed, Model model,
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
			check_runs(src, r.p, seed, MODEL_SYNC, t, 0);
			check_runs(src, r.p, seed, MODEL_IPDOM, t, 0);
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
		check_runs(src, r.p, seed, MODEL_SYNC, 7, 2);
		check_runs(src, r.p, seed, MODEL_SYNC, 12, 5);
		check_runs(src, r.p, seed, MODEL_IPDOM, 9, 4);
		check_runs(src, r.p, seed, MODEL_MIMD, 6, 3);
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
		check_runs(src, r.p, seed, MODEL_SYNC, 64, 0);
		check_runs(src, r.p, seed, MODEL_SYNC, 64, 32);
		check_runs(src, r.p, seed, MODEL_IPDOM, 33, 0);
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

Test(gen, options_obeyed)
{
	for (uint64_t seed = 1; seed <= 40; seed++) {
		GenOptions o = {.seed = seed, .size = 200, .no_memory = true, .no_loops = true};
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

		GenOptions a = {.seed = seed, .size = 200, .no_atomics = true};
		src = gen_text(&a);
		cr_expect(!strstr(src, "= atom"), "seed %llu: an atomic", (unsigned long long)seed);
		free(src);

		GenOptions v = {.seed = seed, .size = 100, .nvars = 2};
		src = gen_text(&v);
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
		check_runs(src, r.p, seed, MODEL_SYNC, 5, 0);
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

/* Benchmark size: 10^5 instructions in well under a second, valid, and it runs. */
Test(gen, large)
{
	GenOptions o = {.seed = 42, .size = 100000};
	clock_t t0 = clock();
	char *src = gen_text(&o);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	cr_expect(secs < 1.0, "generation took %.3f s", secs);
	Prog r = load_clean(src, 42);
	cr_expect(r.p->nins >= 95000 && r.p->nins <= 115000, "size 10^5, got %d", (int)r.p->nins);
	check_runs(src, r.p, 42, MODEL_SYNC, 4, 0);
	unload(&r);
	free(src);
}
