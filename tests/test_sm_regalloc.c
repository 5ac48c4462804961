/*
** test_sm_regalloc.c — register allocation with spilling (src/sm/regalloc.c):
** every allocator gives the interpreter's results with spills that really
** happen, and sm-model.md expectation 34 (Sampaio's two regimes, seed 001
** §6-§7) on tests/spill_affine.simd.
*/
#include "gen.h"
#include "sm/regalloc.h"
#include "smlib.h"

static const RaKind kinds[] = {RA_LINEAR, RA_REMAT, RA_DIVERGENT, RA_AFFINE};

/* Totals over the runs of one allocator. */
typedef struct Tally {
	uint64_t spill_insn, local, shared, remats;
	int runs;
} Tally;

/* Run p under allocator k with budget regs on c and compare the final
** state with the interpreter's (ipdom); false when the interpreter does
** not finish it. */
static bool same_as_run(const char *what, const Program *p, const SmConfig *base, RaKind k, int regs, Tally *t)
{
	Diags d;
	diag_init(&d, what, NULL, 0);
	SemOptions so = {.model = model_find("ipdom")};
	Machine *m = sem_new(p, &so, &d);
	cr_assert(m, "%s", what);
	sem_run(m, NULL, NULL);
	if (m->status != SEM_OK) {
		sem_free(m);
		diag_free(&d);
		return false;
	}
	SmCode *code = lower(p, &d);
	cr_assert(code);
	SmConfig c = *base;
	c.regalloc = k;
	c.max_regs = regs;
	SmResult *r = sm_run(code, &c, &so, &d);
	cr_assert(r, "%s: %s", what, regallocs[k].name);
	cr_expect_eq(r->status, SM_OK, "%s under %s: %s", what, regallocs[k].name, sm_status_name(r->status));
	/* the spill code issues as instructions of its own; the rest are the interpreter's steps */
	cr_expect_eq(r->warp_insn, m->steps + r->spill_insn, "%s under %s", what, regallocs[k].name);
	cr_expect_leq(r->ra_regs, regs, "%s under %s: %d registers", what, regallocs[k].name, r->ra_regs);
	Buf a = {0}, b = {0};
	sem_pack(m, &a);
	sem_pack(r->m, &b);
	cr_expect(a.len == b.len && !memcmp(buf_str(&a), buf_str(&b), a.len),
	          "%s under %s: the final state differs from the interpreter's", what, regallocs[k].name);
	buf_free(&a);
	buf_free(&b);
	t->spill_insn += r->spill_insn;
	t->local += r->spill_loads + r->spill_stores;
	t->shared += r->shared_spill_loads + r->shared_spill_stores;
	t->remats += r->remats;
	t->runs++;
	sm_result_free(r);
	lower_free(code);
	sem_free(m);
	diag_free(&d);
	return true;
}

static void spills_happened(const Tally *t)
{
	for (int i = 0; i < 4; i++) {
		cr_expect_gt(t[i].runs, 0);
		cr_expect_gt(t[i].spill_insn, 0, "%s: no spill code", regallocs[kinds[i]].name);
		cr_expect_gt(t[i].local, 0, "%s: no local spills", regallocs[kinds[i]].name);
	}
	cr_expect_eq(t[0].shared + t[0].remats, 0, "linear scan has no rewriting");
	cr_expect_gt(t[1].remats, 0, "remat rematerialised nothing");
	cr_expect_eq(t[1].shared, 0);
	cr_expect_gt(t[2].shared, 0, "divergent shared nothing");
	cr_expect_eq(t[2].remats, 0);
	cr_expect_gt(t[3].shared, 0, "affine shared nothing");
	cr_expect_gt(t[3].remats, 0, "affine rematerialised nothing");
}

/* Every example the interpreter finishes, and tests/spill_affine.simd,
** under every allocator with 4
** registers (2 allocatable, 2 scratch; 1 and the base for divergent and
** affine): the interpreter's final state, and spills of every kind. */
Test(sm_regalloc, examples_give_the_interpreters_results, .init = watchdog_600)
{
	int n = 0;
	char **files = example_files(&n);
	files = xrealloc(files, ((size_t)n + 1) * sizeof *files); /* and the spill-heavy kernel */
	files[n++] = xstrdup(MUSIMD_SOURCE_ROOT "/tests/spill_affine.simd");
	Tally t[4] = {0};
	SmConfig c = config();
	for (int i = 0; i < n; i++) {
		size_t len = 0;
		char *src = read_file(files[i], &len);
		cr_assert(src);
		Diags d;
		diag_init(&d, files[i], src, len);
		Program *p = ir_load(files[i], src, len, &d);
		if (!d.nerrors && !p->has_gsa)
			for (int k = 0; k < 4; k++)
				same_as_run(files[i], p, &c, kinds[k], 4, &t[k]);
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	free_names(files, n);
	cr_expect_geq(t[0].runs, 25, "only %d examples compared", t[0].runs);
	spills_happened(t);
}

/* Random programs (musimd gen, results no schedule changes), 3 and 4
** registers: the interpreter's final state. */
Test(sm_regalloc, random_programs_give_the_interpreters_results, .init = watchdog_600)
{
	Tally t[4] = {0};
	SmConfig c = config();
	for (uint64_t seed = 1; seed <= 40; seed++) {
		GenOptions o;
		memset(&o, 0, sizeof o);
		o.seed = seed;
		o.size = 30 + (int32_t)(seed % 5) * 10;
		o.max_depth = 1 + (int32_t)(seed % 3);
		o.nvars = 4 + (int32_t)(seed % 5);
		o.deterministic = true;
		o.unstructured = seed % 4 == 0;
		Buf b = {0};
		gen_program(&b, &o);
		Diags d;
		diag_init(&d, "gen.simd", buf_str(&b), b.len);
		Program *p = ir_load("gen.simd", buf_str(&b), b.len, &d);
		cr_assert(!d.nerrors, "seed %llu", (unsigned long long)seed);
		char what[32];
		snprintf(what, sizeof what, "gen seed %llu", (unsigned long long)seed);
		for (int k = 0; k < 4; k++)
			same_as_run(what, p, &c, kinds[k], 4 + (int)(seed % 2), &t[k]);
		ir_free(p);
		diag_free(&d);
		buf_free(&b);
	}
	cr_expect_geq(t[0].runs, 20, "only %d programs compared", t[0].runs);
	for (int i = 0; i < 4; i++)
		cr_expect_gt(t[i].spill_insn, 0, "%s: no spill code", regallocs[kinds[i]].name);
}

/* The options: names from regallocs[], did-you-mean, the budget. */
Test(sm_regalloc, options)
{
	SmConfig c;
	sm_config_default(&c);
	cr_expect_eq(c.regalloc, RA_NONE);
	cr_expect_eq(c.max_regs, 0);
	Diags d;
	const char *good = "-musimd_regalloc=affine";
	diag_init(&d, "--set", good, strlen(good));
	cr_expect(sm_config_set(&c, good, NULL, &d));
	cr_expect_eq(c.regalloc, RA_AFFINE);
	diag_free(&d);
	const char *bad = "-musimd_regalloc=divergnt";
	diag_init(&d, "--set", bad, strlen(bad));
	cr_expect_not(sm_config_set(&c, bad, NULL, &d));
	Buf b = {0};
	diag_render_options(&d, "musimd sm", &b);
	cr_expect(strstr(buf_str(&b), "did you mean 'divergent'"), "%s", buf_str(&b));
	cr_expect(strstr(buf_str(&b), "linear, remat, divergent, affine"), "%s", buf_str(&b));
	buf_free(&b);
	diag_free(&d);
	/* too small a budget for the spill code: an error, no run */
	Sim x = {.t = load(".threads 32\n x = tid\n y = x + 1\n z = x + y\n w = z + x\n v = w + y\n mem[tid] = v\n stop\n")};
	diag_init(&d, "t.simd", x.t.src, strlen(x.t.src));
	SmCode *code = lower(x.t.p, &d);
	c = config();
	c.regalloc = RA_DIVERGENT;
	c.max_regs = 2;
	SemOptions so = {0};
	cr_expect_null(sm_run(code, &c, &so, &d));
	Buf e = {0};
	diag_render(&d, &e);
	cr_expect(strstr(buf_str(&e), "too few"), "%s", buf_str(&e));
	buf_free(&e);
	lower_free(code);
	diag_free(&d);
	unload(&x.t);
}

/* Cycles of tests/spill_affine.simd under allocator k (its budget:
** Sampaio's 9 or 8) on c; its spill counters into *r_out. */
static uint64_t kernel_cycles(const SmConfig *base, RaKind k, SmResult *out)
{
	size_t len = 0;
	char *src = read_file(MUSIMD_SOURCE_ROOT "/tests/spill_affine.simd", &len);
	cr_assert(src);
	Diags d;
	diag_init(&d, "spill_affine.simd", src, len);
	Program *p = ir_load("spill_affine.simd", src, len, &d);
	cr_assert(!d.nerrors);
	SmCode *code = lower(p, &d);
	SmConfig c = *base;
	c.regalloc = k;
	c.max_regs = 0;
	SemOptions so = {0};
	SmResult *r = sm_run(code, &c, &so, &d);
	cr_assert(r);
	cr_assert_eq(r->status, SM_OK);
	uint64_t cyc = r->cycles;
	*out = *r;
	out->m = NULL, out->occupancy = NULL, out->warps = NULL, out->backed_off = NULL, out->why = (Buf){0};
	sm_result_free(r);
	lower_free(code);
	ir_free(p);
	diag_free(&d);
	free(src);
	return cyc;
}

/* 34 (a): local memory misses in L1 (one 128-byte line of L1, a miss
** ≈ 100 × the 20-cycle hit, shared memory as fast as a hit):
** cycles(affine) ≤ cycles(divergent) ≤ cycles(remat) ≤ cycles(linear). */
Test(sm_regalloc, e34a_spills_missing_in_l1_favour_affine, .init = watchdog_600)
{
	SmConfig c = config();
	Diags d;
	diag_init(&d, "--set", NULL, 0);
	cr_assert(sm_config_set(&c, "-gpgpu_cache:dl1=S:1:128:1,L:T:m:L:L,A:512:8,16:0,32", NULL, &d));
	diag_free(&d);
	c.l1_latency = 20;
	c.smem_latency = 20;
	c.l2_rop_latency = 1980; /* a miss: 20 + 1980 cycles */
	SmResult r[4];
	uint64_t cyc[4];
	for (int i = 0; i < 4; i++)
		cyc[i] = kernel_cycles(&c, kinds[i], &r[i]);
	cr_expect_gt(r[0].spill_loads, 0);
	cr_expect_gt(r[2].shared_spill_loads, 0);
	cr_expect_gt(r[3].shared_spill_loads, r[2].shared_spill_loads, "affine shares more (rule iv)");
	cr_expect_leq(cyc[3], cyc[2], "affine %llu > divergent %llu", (unsigned long long)cyc[3], (unsigned long long)cyc[2]);
	cr_expect_leq(cyc[2], cyc[1], "divergent %llu > remat %llu", (unsigned long long)cyc[2], (unsigned long long)cyc[1]);
	cr_expect_leq(cyc[1], cyc[0], "remat %llu > linear %llu", (unsigned long long)cyc[1], (unsigned long long)cyc[0]);
	cr_expect_lt(cyc[3], cyc[0], "affine gains nothing");
}

/* 34 (b): a large L1 in which local memory always hits, as fast as shared
** memory: rule (iv)'s 3 instructions per access make affine slower than
** linear scan (Sampaio's reason ii). */
Test(sm_regalloc, e34b_spills_hitting_in_l1_make_affine_slower)
{
	SmConfig c = config(); /* QV100's 32 KB L1 */
	c.l1_latency = 20;
	c.smem_latency = 20;
	SmResult lin, aff;
	uint64_t l = kernel_cycles(&c, RA_LINEAR, &lin), a = kernel_cycles(&c, RA_AFFINE, &aff);
	cr_expect_gt(aff.shared_spill_loads, 0);
	cr_expect_gt(aff.spill_insn, lin.spill_insn, "rule (iv) costs more instructions");
	cr_expect_gt(a, l, "affine %llu <= linear %llu", (unsigned long long)a, (unsigned long long)l);
}
