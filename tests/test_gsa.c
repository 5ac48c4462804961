/*
** test_gsa.c — the GSA construction (analyses.md §1): the shape of the
** output on the paper's programs and on each kind of reconvergence, and
** the check by execution: a program and its GSA form leave the same Σ
** (and status) for 1..8 threads, on every example and on random programs.
*/
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "gen.h"
#include "gsa.h"
#include "sem.h"
#include "testlib.h"

/* The GSA form of a loaded program; fails the test on errors. */
static Program *gsa_of(const Program *p)
{
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	Program *g = gsa_build(p, &d);
	if (!g || d.nerrors > 0) {
		Buf b = {0};
		diag_render(&d, &b);
		cr_assert_fail("no GSA form for %s:\n%s", p->path, buf_str(&b));
	}
	diag_free(&d);
	return g;
}

static char *gsa_text(const Program *p)
{
	Program *g = gsa_of(p);
	Buf b = {0};
	ir_print(&b, g);
	ir_free(g);
	return buf_steal(&b);
}

static void collect(void *ctx, int64_t addr, Num value)
{
	Buf *b = ctx;
	buf_printf(b, "%lld:", (long long)addr);
	num_buf(b, value);
	buf_putc(b, ' ');
}

/* Status and Σ after a run with `threads` threads, as text. */
static char *outcome_model(const Program *p, int32_t threads, const Model *model)
{
	SemOptions o = {.threads = threads, .max_steps = 200000, .model = model};
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	Machine *m = sem_new(p, &o, &d);
	cr_assert(m != NULL, "sem_new failed for %s", p->path);
	SemStatus st = sem_run(m, NULL, NULL);
	Buf b = {0};
	buf_printf(&b, "%s | ", sem_status_name(st));
	mem_each(&m->shared, collect, &b);
	sem_free(m);
	diag_free(&d);
	return buf_steal(&b);
}

/* The round trip: same status and Σ for 1..8 threads. Returns the number
** of thread counts that agreed (all 8, or the test has failed). */
static char *outcome(const Program *p, int32_t threads)
{
	return outcome_model(p, threads, &model_sync);
}

static int same_outcomes(const Program *p, const Program *g)
{
	int ok = 0;
	for (int32_t t = 1; t <= 8; t++) {
		char *a = outcome(p, t), *b = outcome(g, t);
		cr_expect_str_eq(a, b, "%s with %d threads: plain and GSA differ", p->path, (int)t);
		ok += !strcmp(a, b);
		free(a);
		free(b);
	}
	return ok;
}

static int round_trip_src(const char *src)
{
	Prog r = load(src);
	Program *g = gsa_of(r.p);
	int ok = same_outcomes(r.p, g);
	ir_free(g);
	unload(&r);
	return ok;
}

static bool contains(const char *text, const char *line)
{
	return strstr(text, line) != NULL;
}

#define EXPECT_HAS(text, s) cr_expect(contains((text), (s)), "missing `%s` in:\n%s", (s), (text))
#define EXPECT_LACKS(text, s) cr_expect(!contains((text), (s)), "unexpected `%s` in:\n%s", (s), (text))

/* Seed 001 Figure 3.5 from Figure 3.4 (digest §5.3): μ at the loop header
** l5 for i, s, d; γ for s at the inner branch's sync l11 (its predicate
** q, the digest's p1); η for s and d at the loop exit l15; the versions are
** the paper's: s0 … s4, d0 … d3, i0 … i2. */
Test(gsa, sum_triangle_is_figure_3_5)
{
	Prog r = load(".param c = 4\n.param v = 16\n" SUM_TRIANGLE);
	char *t = gsa_text(r.p);
	EXPECT_HAS(t, "l5:  s.1 = mu(s.0, s.3)");
	EXPECT_HAS(t, "d.1 = mu(d.0, d.2)");
	EXPECT_HAS(t, "i.1 = mu(i.0, i.2)");
	EXPECT_HAS(t, "p.0 = i.1 < L.0");
	EXPECT_HAS(t, "l11: s.3 = gamma(q.0, s.2, s.1)");
	EXPECT_HAS(t, "l15: s.4 = eta(p.0, s.1)");
	EXPECT_HAS(t, "d.3 = eta(p.0, d.1)");
	EXPECT_HAS(t, "x.2 = d.3 - 1");
	EXPECT_HAS(t, "mem[y.0] = s.4");
	/* γ and η are implicit syncs: the syncs they replace are gone */
	EXPECT_LACKS(t, "sync");
	free(t);
	unload(&r);
}

/* avgSquare (digest §5.6): η for s and d at the loop exit, no γ. */
Test(gsa, avg_square)
{
	Prog r = load(".param c = 4\n.param m = 0\n.param v = 16\n"
	              "d = 0\ns = 0\nt0 = c * c\nN = tid + t0\ni = tid\n"
	              "l5: p = i < N\nbz p, l13\na = m + i\nx = mem[a]\ns = s + x\nd = d + 1\n"
	              "i = i + c\njump l5\nl13: sync\nr = s / d\na = v + tid\nmem[a] = r\nstop\n");
	char *t = gsa_text(r.p);
	EXPECT_HAS(t, "l13: d.3 = eta(p.0, d.1)");
	EXPECT_HAS(t, "s.3 = eta(p.0, s.1)");
	EXPECT_HAS(t, "r.0 = s.3 / d.3");
	EXPECT_LACKS(t, "gamma");
	free(t);
	unload(&r);
}

/* If-then-else: γ(p, o1, o2) with o1 the value where p ≠ 0. bz jumps where
** p = 0, so o1 is the fall-through side's value; bnz the other way round. */
Test(gsa, gamma_polarity)
{
	const char *bz = "p = tid % 2\nbz p, e\nx = 10\njump j\ne: x = 20\nj: sync\nmem[tid] = x\nstop\n";
	Prog r = load(bz);
	char *t = gsa_text(r.p);
	EXPECT_HAS(t, "j: x.2 = gamma(p.0, x.0, x.1)");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(bz), 8);

	const char *bnz = "p = tid % 2\nbnz p, e\nx = 10\njump j\ne: x = 20\nj: sync\nmem[tid] = x\nstop\n";
	r = load(bnz);
	t = gsa_text(r.p);
	EXPECT_HAS(t, "j: x.2 = gamma(p.0, x.1, x.0)");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(bnz), 8);

	/* if-then: the branch's own edge brings the old value */
	const char *ifthen = "x = 1\np = tid < 2\nbz p, j\nx = 2\nj: sync\nmem[tid] = x\nstop\n";
	r = load(ifthen);
	t = gsa_text(r.p);
	EXPECT_HAS(t, "j: x.2 = gamma(p.0, x.1, x.0)");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(ifthen), 8);
}

/* Two branches reconverging at one point (consecutive syncs in the plain
** form): one γ block per branch, innermost first, each its own sync. */
Test(gsa, shared_reconvergence_point)
{
	const char *src = "x = 0\n"
	                  "a = tid < 3\n"
	                  "bz a, j2\n"
	                  "b = tid % 2\n"
	                  "bz b, j\n"
	                  "x = 5\n"
	                  "j: sync\n"
	                  "j2: sync\n"
	                  "mem[tid] = x\n"
	                  "stop\n";
	Prog r = load(src);
	char *t = gsa_text(r.p);
	/* inner γ on b first, then the outer one on a, which selects the inner result */
	const char *in = strstr(t, "j:  x.2 = gamma(b.0, x.1, x.0)");
	const char *out = strstr(t, "j2: x.3 = gamma(a.0, x.2, x.0)");
	cr_expect(in && out && in < out, "inner γ before the outer one:\n%s", t);
	EXPECT_LACKS(t, "sync");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(src), 8);

	/* with both branches jumping to the first sync (a short-circuit `a && b`),
	** the outer branch's deferred threads would cross both syncs: the
	** semantics gets stuck (SP on an empty stack) when the outer branch
	** diverges, and so does the GSA form, whose γ composes both predicates
	** (Tu & Padua's gate) and replaces the first sync */
	const char *bad = "x = 0\na = tid < 3\nbz a, j\nb = tid % 2\nbz b, j\nx = 5\nj: sync\nsync\n"
	                  "mem[tid] = x\nstop\n";
	r = load(bad);
	t = gsa_text(r.p);
	EXPECT_HAS(t, "j: x.2 = gamma(a.0, gamma(b.0, x.1, x.0), x.0)\n   sync\n   mem[tid] = x.2");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(bad), 8);
}

/* Three branches with one immediate post-dominator, two of them disjoint
** (one in each side of the outer if-then-else): a tree of join blocks. */
Test(gsa, join_tree)
{
	const char *src = "x = 0\n"
	                  "a = tid < 4\n"
	                  "bz a, else\n"
	                  "c = tid % 2\n"
	                  "bz c, j\n"
	                  "x = 1\n"
	                  "jump j\n"
	                  "else: d = tid % 3\n"
	                  "bz d, j\n"
	                  "x = 2\n"
	                  "j: sync\n"
	                  "sync\n"
	                  "mem[tid] = x\n"
	                  "stop\n";
	Prog r = load(src);
	char *t = gsa_text(r.p);
	EXPECT_HAS(t, "x.3 = gamma(c.0, x.1, x.0)");
	EXPECT_HAS(t, "x.4 = gamma(d.0, x.2, x.0)");
	EXPECT_HAS(t, "x.5 = gamma(a.0, x.3, x.4)");
	EXPECT_LACKS(t, "sync");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(src), 8);
}

/* A bottom-tested loop (the branch jumps back): μ at the top, η after it. */
Test(gsa, do_while)
{
	const char *src = "i = tid\nn = 0\n"
	                  "top: n = n + 1\n"
	                  "i = i + 1\n"
	                  "p = i < 5\n"
	                  "bnz p, top\n"
	                  "sync\n"
	                  "mem[tid] = n\n"
	                  "stop\n";
	Prog r = load(src);
	char *t = gsa_text(r.p);
	EXPECT_HAS(t, "n.1 = mu(n.0, n.2)");
	EXPECT_HAS(t, "n.3 = eta(p.0, n.2)");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(src), 8);
}

/* A loop whose body ends with an if-then reconverging just before the
** back jump, and a loop nested in a loop. */
Test(gsa, nested_loops_and_ifs)
{
	const char *src = "s = 0\ni = 0\n"
	                  "h1: p = i < 3\n"
	                  "bz p, x1\n"
	                  "j = tid\n"
	                  "h2: q = j < 4\n"
	                  "bz q, x2\n"
	                  "r = j % 2\n"
	                  "bz r, k\n"
	                  "s = s + j\n"
	                  "k: sync\n"
	                  "j = j + 1\n"
	                  "jump h2\n"
	                  "x2: sync\n"
	                  "i = i + 1\n"
	                  "jump h1\n"
	                  "x1: sync\n"
	                  "mem[tid] = s\n"
	                  "stop\n";
	Prog r = load(src);
	char *t = gsa_text(r.p);
	EXPECT_HAS(t, "= eta(q.0, s.");
	EXPECT_HAS(t, "= eta(p.0, s.");
	EXPECT_HAS(t, "= gamma(r.0, s.");
	EXPECT_LACKS(t, "phi");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(src), 8);
}

/* A variable assigned only inside a loop and read after it: the μ's entry
** operand is x.undef, which no instruction assigns; the GSA copy of it
** stays unassigned, so the program behaves as the original. */
Test(gsa, never_assigned_on_entry)
{
	const char *src = "i = 0\n"
	                  "h: p = i < 2\n"
	                  "bz p, e\n"
	                  "x = i * 2\n"
	                  "i = i + 1\n"
	                  "jump h\n"
	                  "e: sync\n"
	                  "mem[tid] = x\n"
	                  "stop\n";
	Prog r = load(src);
	char *t = gsa_text(r.p);
	EXPECT_HAS(t, "x.0 = mu(x.undef, x.1)");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(src), 8);
	/* a loop that runs zero times: both fail reading x, at the store */
	const char *zero = "i = 0\nh: p = i < 0\nbz p, e\nx = i * 2\ni = i + 1\njump h\ne: sync\nmem[tid] = x\nstop\n";
	r = load(zero);
	Program *g = gsa_of(r.p);
	char *a = outcome(g, 4);
	cr_expect(strncmp(a, "stuck", 5) == 0, "%s", a);
	free(a);
	cr_expect_eq(same_outcomes(r.p, g), 8);
	ir_free(g);
	unload(&r);
}

/* A join whose syncs do not stand at the immediate post-dominator (here
** after an instruction of its own) cannot be gated: the merge stays a plain
** φ, which the analyses treat as divergent, and the sync stays. */
Test(gsa, ungated_join_falls_back_to_phi)
{
	const char *src = "x = 0\np = tid < 2\nbz p, l\nx = 1\nl: y = 2\nsync\nz = x + y\nmem[tid] = z\nstop\n";
	Prog r = load(src);
	char *t = gsa_text(r.p);
	EXPECT_HAS(t, "l: x.2 = phi(x.0, x.1)");
	EXPECT_HAS(t, "sync");
	free(t);
	unload(&r);
	cr_expect_eq(round_trip_src(src), 8);
}

/* A program already in GSA form is copied; converting twice changes nothing. */
Test(gsa, idempotent)
{
	Prog r = load(".param c = 4\n.param v = 16\n" SUM_TRIANGLE);
	char *once = gsa_text(r.p);
	Prog r2 = load(once);
	char *twice = gsa_text(r2.p);
	cr_expect_str_eq(once, twice);
	free(once);
	free(twice);
	unload(&r2);
	unload(&r);
}

/* Issue 9's user trial. The short-circuit's γ composes both predicates,
** innermost inside; the loop with a break gets one η block per exit edge and
** a γ on the loop test joining them. Both GSA forms run like the programs
** under ipdom and mimd (the sync model gets stuck on both, as the programs
** do). */
Test(gsa, short_circuit_and_break)
{
	static const char *const files[] = {"short_circuit.simd", "break_loop.simd", "unstructured.simd"};
	static const char *const want[][3] = {
		{"join: y.2 = gamma(c1.0, gamma(c2.0, y.0, y.1), y.1)", "      sync\n      mem[tid] = y.2", NULL},
		{"exit1: i.4 = eta(p.0, i.1)", "exit2: i.5 = eta(q.0, i.1)", "done:  i.3 = gamma(p.0, i.5, i.4)"},
		{NULL, NULL, NULL},
	};
	for (size_t f = 0; f < 3; f++) {
		Buf path = {0};
		buf_printf(&path, "%s/%s", examples_dir(), files[f]);
		size_t len = 0;
		char *src = read_file(buf_str(&path), &len);
		cr_assert(src);
		Prog r = load(src);
		Program *g = gsa_of(r.p);
		Buf t = {0};
		ir_print(&t, g);
		for (int k = 0; k < 3; k++)
			if (want[f][k])
				EXPECT_HAS(buf_str(&t), want[f][k]);
		for (int32_t th = 1; th <= 8; th++)
			for (const Model *const *md = (const Model *const[]){&model_ipdom, &model_mimd, NULL}; *md; md++) {
				char *a = outcome_model(r.p, th, *md), *b = outcome_model(g, th, *md);
				cr_expect_str_eq(a, b, "%s, %d threads, model %s", files[f], (int)th, (*md)->name);
				free(a);
				free(b);
			}
		buf_free(&t);
		buf_free(&path);
		ir_free(g);
		unload(&r);
		free(src);
	}
}

/* A program already in SSA form keeps its names (x.1 is not renamed
** x.1.0); the η the construction adds takes the next free suffix. */
Test(gsa, ssa_input_keeps_names)
{
	const char *src = "i.0 = 0\n"
	                  "h: p.1 = tid < 2\n"
	                  "bz p.1, out\n"
	                  "jump h\n"
	                  "out: sync\n"
	                  "x.1 = p.1 + 1\n"
	                  "mem[tid] = x.1\n"
	                  "stop\n";
	Prog r = load(src);
	char *t = gsa_text(r.p);
	EXPECT_HAS(t, "x.1 = p.2 + 1");
	EXPECT_HAS(t, "p.2 = eta(p.1, p.1)");
	EXPECT_LACKS(t, "x.1.0");
	EXPECT_LACKS(t, "i.0.0");
	free(t);
	unload(&r);
}

/* musimd syncs: where it places the syncs, the program runs under the sync
** model as it does under ipdom (status and Σ), on every example it
** accepts and on random structured programs stripped of their syncs; it
** refuses the loop with a break and the short-circuit, naming why. */
static int placed_like_ipdom(const char *src, const char *what)
{
	Prog r = load(src);
	Diags d;
	diag_init(&d, what, "", 0);
	Buf b = {0};
	int ok = -1;
	if (gsa_place_syncs(r.p, &b, &d)) {
		Prog s = load(buf_str(&b));
		ok = 0;
		for (int32_t th = 1; th <= 8; th++) {
			char *a = outcome_model(r.p, th, &model_ipdom), *c = outcome_model(s.p, th, &model_sync);
			cr_expect_str_eq(a, c, "%s, %d threads: ipdom vs syncs placed under sync\n%s", what, (int)th,
			                 buf_str(&b));
			ok += !strcmp(a, c);
			free(a);
			free(c);
		}
		unload(&s);
	}
	buf_free(&b);
	diag_free(&d);
	unload(&r);
	return ok;
}

Test(gsa, syncs_placed_run_like_ipdom, .init = watchdog_120)
{
	int n = 0, placed = 0;
	char **files = example_files(&n);
	for (int i = 0; i < n; i++) {
		size_t len = 0;
		char *src = read_file(files[i], &len);
		int k = placed_like_ipdom(src, files[i]);
		placed += k >= 0;
		if (k >= 0)
			cr_expect_eq(k, 8, "%s", files[i]);
		free(src);
	}
	free_names(files, n);
	cr_expect_geq(placed, 15, "syncs placed in only %d examples", placed);
	for (uint64_t seed = 1; seed <= 40; seed++) {
		GenOptions o = {.seed = seed, .size = 30, .max_depth = 3, .nvars = 4, .no_atomics = true};
		Buf b = {0}, stripped = {0};
		gen_program(&b, &o);
		/* drop the generator's syncs: musimd syncs must find their places */
		for (const char *line = buf_str(&b); *line;) {
			const char *end = strchr(line, '\n');
			size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
			const char *sy = strstr(line, "sync");
			if (sy && sy < line + len)
				buf_putn(&stripped, line, (size_t)(sy - line)), buf_puts(&stripped, "x0 = x0\n");
			else
				buf_putn(&stripped, line, len);
			line += len;
		}
		cr_expect_eq(placed_like_ipdom(buf_str(&stripped), "gen"), 8, "seed %llu", (unsigned long long)seed);
		buf_free(&b);
		buf_free(&stripped);
	}
	/* refused, with the reason */
	static const char *const refused[][2] = {
		{"break_loop.simd", "several exit edges"}, {"short_circuit.simd", "shared target"}};
	for (int i = 0; i < 2; i++) {
		Buf path = {0};
		buf_printf(&path, "%s/%s", examples_dir(), refused[i][0]);
		size_t len = 0;
		char *src = read_file(buf_str(&path), &len);
		Prog r = load(src);
		Diags d;
		diag_init(&d, refused[i][0], src, len);
		Buf b = {0};
		cr_expect(!gsa_place_syncs(r.p, &b, &d), "%s placed", refused[i][0]);
		cr_expect(d.nerrors == 1 && strstr(d.v[0].msg, refused[i][1]), "%s: %s", refused[i][0],
		          d.n ? d.v[0].msg : "no message");
		buf_free(&b);
		diag_free(&d);
		unload(&r);
		free(src);
		buf_free(&path);
	}
}

/* The examples with an irreducible CFG have no GSA form, with the reason,
** and are the only ones (the tests over every example skip them). */
Test(gsa, irreducible_examples_are_refused)
{
	int n = 0, refused = 0;
	char **files = example_files(&n);
	for (int i = 0; i < n; i++) {
		size_t len = 0;
		char *src = read_file(files[i], &len);
		Diags d;
		diag_init(&d, files[i], src, len);
		Program *p = ir_load(files[i], src, len, &d);
		cr_assert(d.nerrors == 0 && p->cfg, "%s does not load", files[i]);
		p = inline_calls(p);
		Program *g = gsa_build(p, &d);
		bool irreducible = !g && d.nerrors == 1 && strstr(d.v[0].msg, "irreducible");
		cr_expect_eq(irreducible, example_irreducible(files[i]), "%s: %s", files[i],
		             d.nerrors ? d.v[0].msg : "a GSA form");
		refused += irreducible;
		ir_free(g);
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	free_names(files, n);
	cr_expect_eq(refused, 1);
}

/* Every example: same status and Σ for 1..8 threads. */
Test(gsa, examples_round_trip, .init = watchdog_120)
{
	int n = 0;
	char **files = example_files(&n);
	cr_assert(n >= 20, "only %d examples", n);
	for (int i = 0; i < n; i++) {
		if (example_irreducible(files[i]))
			continue; /* refused: irreducible_examples_are_refused */
		size_t len = 0;
		char *src = read_file(files[i], &len);
		cr_assert(src != NULL);
		Diags d;
		diag_init(&d, files[i], src, len);
		Program *p = ir_load(files[i], src, len, &d);
		cr_assert(d.nerrors == 0 && p->cfg, "%s does not load", files[i]);
		p = inline_calls(p); /* the GSA form of a program with calls: inlined */
		Program *g = gsa_of(p);
		cr_expect_eq(same_outcomes(p, g), 8, "%s", files[i]);
		ir_free(g);
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	free_names(files, n);
}

/* Random well-structured programs (gen.h): same status and Σ, 1..8 threads. */
Test(gsa, random_round_trip, .init = watchdog_240)
{
	for (uint64_t seed = 1; seed <= 120; seed++) {
		GenOptions o = {.seed = seed, .size = 20 + (int32_t)(seed % 7) * 15, .max_depth = 3, .nvars = 5};
		Buf b = {0};
		gen_program(&b, &o);
		Prog r = load(buf_str(&b));
		Program *g = gsa_of(r.p);
		cr_expect_eq(same_outcomes(r.p, g), 8, "seed %llu:\n%s", (unsigned long long)seed, buf_str(&b));
		ir_free(g);
		unload(&r);
		buf_free(&b);
	}
}

/* gsa_build makes its programs directly, as the parser would make them from
** the text `musimd gsa` prints: the result must be that text re-parsed, field
** for field (variables and labels in the same order, nested γs laid out the
** same way), or the analyses of `musimd analyze FILE` and of its printed GSA
** form would differ. */
static void expect_reparsed_equal(const Program *g, const char *what)
{
	Buf b = {0};
	ir_print(&b, g);
	Diags d;
	diag_init(&d, g->path, b.s, b.len);
	Program *h = ir_load(g->path, b.s, b.len, &d);
	cr_assert(d.nerrors == 0 && h->cfg, "%s: the GSA text does not load", what);
	cr_assert_eq(g->nins, h->nins, "%s", what);
	cr_assert_eq(g->nvars, h->nvars, "%s", what);
	cr_assert_eq(g->nlabels, h->nlabels, "%s", what);
	cr_assert_eq(g->ndata, h->ndata, "%s", what);
	cr_expect(g->has_gsa == h->has_gsa && g->threads == h->threads && g->warpsize == h->warpsize &&
	          g->memory_zero == h->memory_zero && !g->kernel == !h->kernel, "%s", what);
	for (int32_t v = 0; v < g->nvars; v++) {
		cr_expect_str_eq(g->vars[v].name, h->vars[v].name, "%s: variable %d", what, (int)v);
		cr_expect(g->vars[v].is_param == h->vars[v].is_param && g->vars[v].has_value == h->vars[v].has_value &&
		          num_eq(g->vars[v].value, h->vars[v].value), "%s: variable %s", what, g->vars[v].name);
	}
	for (int32_t l = 0; l < g->nlabels; l++) {
		cr_expect_str_eq(g->labels[l].name, h->labels[l].name, "%s: label %d", what, (int)l);
		cr_expect_eq(g->labels[l].ins, h->labels[l].ins, "%s: label %s", what, g->labels[l].name);
	}
	for (int32_t i = 0; i < g->ndata; i++)
		cr_expect(g->data[i].addr == h->data[i].addr && g->data[i].count == h->data[i].count &&
		          num_eq(g->data[i].value, h->data[i].value), "%s: data %d", what, (int)i);
	for (int32_t pc = 0; pc < g->nins; pc++) {
		const Ins *x = &g->ins[pc], *y = &h->ins[pc];
		cr_assert(x->op == y->op && x->sub == y->sub && x->dst == y->dst && x->nargs == y->nargs &&
		          x->target == y->target && x->target_label == y->target_label && x->label == y->label &&
		          x->group == y->group, "%s: instruction %d", what, (int)pc);
		const Opnd *ox[3] = {&x->a, &x->b, &x->c}, *oy[3] = {&y->a, &y->b, &y->c};
		for (int32_t k = 0; k < 3 + x->nargs; k++) {
			const Opnd *s = k < 3 ? ox[k] : &x->args[k - 3], *t = k < 3 ? oy[k] : &y->args[k - 3];
			cr_assert(s->kind == t->kind && s->var == t->var && s->special == t->special &&
			          (s->kind != OPND_LIT || num_eq(ir_lit(g, s), ir_lit(h, t))),
			          "%s: instruction %d, operand %d", what, (int)pc, (int)k);
		}
	}
	cr_expect_eq(g->cfg->nblocks, h->cfg->nblocks, "%s", what);
	ir_free(h);
	diag_free(&d);
	buf_free(&b);
}

Test(gsa, built_as_parsed, .init = watchdog_120)
{
	int n = 0;
	char **files = example_files(&n);
	for (int i = 0; i < n; i++) {
		if (example_irreducible(files[i]))
			continue; /* refused: irreducible_examples_are_refused */
		size_t len = 0;
		char *src = read_file(files[i], &len);
		Diags d;
		diag_init(&d, files[i], src, len);
		Program *p = ir_load(files[i], src, len, &d);
		cr_assert(d.nerrors == 0 && p->cfg, "%s does not load", files[i]);
		p = inline_calls(p); /* the GSA form of a program with calls: inlined */
		Program *g = gsa_of(p);
		expect_reparsed_equal(g, files[i]);
		ir_free(g);
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	free_names(files, n);
	for (uint64_t seed = 1; seed <= 80; seed++) {
		GenOptions o = {.seed = seed, .size = 40 + (int32_t)(seed % 5) * 20, .max_depth = 4, .nvars = 5,
		                .unstructured = seed % 2 == 0};
		Buf b = {0};
		gen_program(&b, &o);
		Prog r = load(buf_str(&b));
		Program *g = gsa_of(r.p);
		char what[64];
		snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
		expect_reparsed_equal(g, what);
		ir_free(g);
		unload(&r);
		buf_free(&b);
	}
}
