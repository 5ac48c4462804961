/*
** test_cohort.c — sem_run's cohorts (sem.c): the round robin's next steps
** at one instruction run as one must give exactly what the steps one by one
** give.
**
** A run with a hook steps warp by warp (sem_step); the same run without a
** hook takes cohorts. Both must end in the same state (sem_pack: lanes, Σ,
** stacks, pcs), status, error (message, pc, warp, threads) and measures
** (steps, thread instructions, rules, visits, divergences, block executions,
** depth, races), on every example and its GSA form, under sync, ipdom and
** mimd, with warps of 1, 2, 4 and the program's; on random structured,
** unstructured and GSA programs; and where a cohort's rule fails in its
** middle (the error must name the first warp that fails, as steps one by
** one do) or a limit falls inside a cohort. Each group checks that cohorts
** did run (Machine.cohort_steps), so that it compares something.
*/
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gsa.h"
#include "model.h"
#include "sem.h"
#include "testlib.h"

static void no_hook(void *ctx, const Machine *m, const StepInfo *info)
{
	(void)ctx;
	(void)m;
	(void)info;
}

/* What a run ended with, as text: equal texts, equal runs. */
static char *outcome(Machine *m)
{
	Buf b = {0};
	buf_printf(&b, "status %s steps %llu work %llu depth %d races %d\n", sem_status_name(m->status),
	           (unsigned long long)m->steps, (unsigned long long)m->thread_instructions, m->max_depth,
	           m->nraces);
	for (int r = 0; r < RULE__COUNT; r++)
		buf_printf(&b, "%s %llu ", sem_rule_name((Rule)r), (unsigned long long)m->rule_count[r]);
	for (int32_t pc = 0; pc < m->prog->nins; pc++)
		if (m->visits[pc] || m->divergences[pc])
			buf_printf(&b, "\npc %d visits %llu divergences %llu", pc, (unsigned long long)m->visits[pc],
			           (unsigned long long)m->divergences[pc]);
	for (int32_t k = 0; k < m->cfg->nblocks; k++)
		buf_printf(&b, " b%d:%llu", k, (unsigned long long)m->block_execs[k]);
	if (m->status != SEM_OK && m->status != SEM_RUNNING) {
		const RunError *e = &m->err;
		buf_printf(&b, "\nerror %s pc %d warp %d: %s; threads", e->rule, e->pc, e->warp, e->msg ? e->msg : "");
		for (int32_t i = 0; i < e->nthreads; i++)
			buf_printf(&b, " %d", e->threads[i]);
		buf_printf(&b, "; stack %s", e->stack ? e->stack : "");
	}
	buf_printf(&b, "\nstate ");
	Buf st = {0};
	sem_pack(m, &st);
	buf_printf(&b, "%016llx/%zu", (unsigned long long)sem_hash_bytes(st.s, st.len), st.len);
	buf_free(&st);
	return buf_steal(&b);
}

static uint64_t last_strip_steps; /* same_both_ways's run's (Machine.strip_steps) */

/* Runs p both ways under opt and compares; returns the cohort steps taken. */
static uint64_t same_both_ways(const Program *p, const SemOptions *opt, const char *what)
{
	Diags d;
	diag_init(&d, "t.simd", "", 0);
	Machine *one = sem_new(p, opt, &d), *coh = sem_new(p, opt, &d);
	diag_free(&d);
	if (!one || !coh) { /* options the program refuses (too many threads, ...) */
		sem_free(one);
		sem_free(coh);
		return 0;
	}
	sem_run(one, no_hook, NULL);
	sem_run(coh, NULL, NULL);
	cr_assert_eq(one->cohort_steps, 0, "%s: a run with a hook took cohorts", what);
	char *a = outcome(one), *b = outcome(coh);
	cr_expect_str_eq(b, a, "%s: cohorts (first) differ from single steps (second)", what);
	uint64_t n = coh->cohort_steps;
	last_strip_steps = coh->strip_steps;
	free(a);
	free(b);
	sem_free(one);
	sem_free(coh);
	return n;
}

static const Model *const cohort_models[] = {&model_sync, &model_ipdom, &model_mimd, NULL};

/* Every model with cohorts, warps of 1, 2, 4 and the program's own. */
static uint64_t all_ways(const Program *p, const char *what, uint64_t max_steps)
{
	static const int32_t warpsizes[] = {0, 1, 2, 4};
	uint64_t n = 0;
	for (int i = 0; cohort_models[i]; i++)
		for (size_t j = 0; j < sizeof warpsizes / sizeof *warpsizes; j++) {
			SemOptions o = {0};
			o.model = cohort_models[i];
			o.warpsize = warpsizes[j];
			o.max_steps = max_steps;
			Buf b = {0};
			buf_printf(&b, "%s, model %s, warpsize %d", what, cohort_models[i]->name, warpsizes[j]);
			n += same_both_ways(p, &o, buf_str(&b));
			buf_free(&b);
		}
	return n;
}

Test(cohort, the_examples_and_their_gsa_forms_end_as_with_single_steps, .init = watchdog_240)
{
	int n;
	char **files = example_files(&n);
	uint64_t plain = 0, gsa = 0;
	for (int f = 0; f < n; f++) {
		Prog r = load_path(files[f]);
		plain += all_ways(r.p, files[f], 20000);
		Diags d;
		diag_init(&d, files[f], r.src, strlen(r.src));
		Program *g = gsa_build(r.p, &d);
		if (g && d.nerrors == 0 && g->cfg) {
			Buf b = {0};
			buf_printf(&b, "%s (gsa)", files[f]);
			gsa += all_ways(g, buf_str(&b), 20000);
			buf_free(&b);
		}
		ir_free(g);
		diag_free(&d);
		unload(&r);
	}
	free_names(files, n);
	cr_expect_gt(plain, 1000, "the examples took %llu cohort steps", (unsigned long long)plain);
	cr_expect_gt(gsa, 1000, "their GSA forms took %llu cohort steps", (unsigned long long)gsa);
}

static void random_programs(bool unstructured, bool as_gsa, bool calls, int count)
{
	uint64_t total = 0;
	for (int s = 1; s <= count; s++) {
		GenOptions o = {0};
		o.seed = (uint64_t)s * 7919u + (unstructured ? 1 : 0);
		o.size = 20 + s % 60;
		o.unstructured = unstructured;
		o.calls = calls;
		Buf b = {0};
		gen_program(&b, &o);
		Prog r = load(buf_str(&b));
		Program *p = r.p, *g = NULL;
		Diags d;
		diag_init(&d, "t.simd", r.src, strlen(r.src));
		if (as_gsa) {
			g = gsa_build(r.p, &d);
			cr_assert(g && d.nerrors == 0, "seed %d: no GSA form", s);
			p = g;
		}
		static const int32_t threads[] = {5, 16};
		for (int t = 0; t < 2; t++) {
			Buf what = {0};
			buf_printf(&what, "seed %d (%s%s%s), %d threads\n%s", s, unstructured ? "unstructured" : "structured",
			           as_gsa ? ", gsa" : "", calls ? ", calls" : "", threads[t], buf_str(&b));
			for (int i = 0; cohort_models[i]; i++) {
				if (unstructured && cohort_models[i] == &model_sync)
					continue; /* its programs have no sync (gen.h) */
				SemOptions so = {0};
				so.model = cohort_models[i];
				so.threads = threads[t];
				so.warpsize = 1 + s % 4;
				so.max_steps = 50000;
				total += same_both_ways(p, &so, buf_str(&what));
			}
			buf_free(&what);
		}
		ir_free(g);
		diag_free(&d);
		unload(&r);
		buf_free(&b);
	}
	cr_expect_gt(total, 1000, "random programs took %llu cohort steps", (unsigned long long)total);
}

Test(cohort, random_structured_programs, .init = watchdog_120) { random_programs(false, false, false, 60); }
Test(cohort, random_unstructured_programs, .init = watchdog_120) { random_programs(true, false, false, 60); }
Test(cohort, random_programs_in_gsa_form, .init = watchdog_120) { random_programs(false, true, false, 40); }
/* gen --calls: calls and returns (from both sides of a branch, early ones) */
Test(cohort, random_programs_with_calls, .init = watchdog_120)
{
	random_programs(false, false, true, 30);
	random_programs(true, false, true, 30);
}

/* A load that fails in thread 5 of 8 warps of one at one pc: the cohort's
** rule fails, and the error must be the one steps one by one report (thread
** 5, its warp), after threads 0..4 made that step. The same for a division
** by zero, a read of an unassigned variable and a branch on one. */
Test(cohort, a_rule_that_fails_inside_a_cohort_is_reported_as_single_steps_report_it)
{
	static const char *const progs[] = {
		".data 0: 0 1 2 3 4\n.threads 8\n y = mem[tid]\n stop\n",                /* cells 0..4 only */
		".threads 8\n d = tid - 5\n y = 7 / d\n stop\n",                        /* BP in thread 5 */
		".threads 8\n p = tid == 5\n bnz p, L\n z = 1\nL: y = z + 1\n stop\n", /* MV in thread 5 */
		".threads 8\n p = tid == 5\n bnz p, L\n z = 1\nL: bz z, M\nM: stop\n",  /* a branch on it */
	};
	for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
		Buf b = {0};
		buf_printf(&b, "%s", progs[i]);
		Prog r = load(buf_str(&b));
		for (int k = 0; cohort_models[k]; k++) {
			SemOptions o = {0};
			o.model = cohort_models[k];
			o.warpsize = 1;
			Diags d;
			diag_init(&d, "t.simd", "", 0);
			Machine *m = sem_new(r.p, &o, &d);
			cr_assert_not_null(m);
			sem_run(m, NULL, NULL);
			cr_expect_eq(m->status, SEM_STUCK, "%s", buf_str(&b));
			cr_expect(m->err.nthreads >= 1 && m->err.threads[0] == 5,
			          "%s: model %s: the error names thread %d", buf_str(&b), cohort_models[k]->name,
			          m->err.nthreads ? m->err.threads[0] : -1);
			sem_free(m);
			diag_free(&d);
			same_both_ways(r.p, &o, buf_str(&b));
		}
		unload(&r);
		buf_free(&b);
	}
}

/* --max-steps and --max-thread-instructions falling inside what would be a
** cohort: the run stops at exactly the step where single steps stop. */
Test(cohort, limits_inside_a_cohort_stop_where_single_steps_stop)
{
	Prog r = load(".threads 64\nL: x = tid + 1\n y = x * 3\n jump L\n");
	uint64_t cohorts = 0;
	for (int k = 0; cohort_models[k]; k++)
		for (uint64_t lim = 1; lim < 300; lim += 37) {
			SemOptions o = {0};
			o.model = cohort_models[k];
			o.warpsize = 2;
			o.max_steps = lim;
			cohorts += same_both_ways(r.p, &o, "max steps");
			o.max_steps = 0;
			o.max_thread_instructions = lim * 3;
			cohorts += same_both_ways(r.p, &o, "max thread instructions");
		}
	cr_expect_gt(cohorts, 100);
	unload(&r);
}

/* Stores of a cohort's warps to one cell: one by one, the warps see no race
** between them (and the last one's value stays), so the cohort must not
** report one; races inside a warp are reported as its own step reports
** them. Stores to cells of their own run as one. */
Test(cohort, stores_to_one_cell_from_several_warps_are_no_race)
{
	static const char *const progs[] = {
		".threads 8\n mem[0] = tid\n stop\n",
		".threads 8\n x = tid / 2\n mem[x] = tid\n stop\n",
		".threads 8\n x = tid % 3\n mem[x] = tid\n mem[tid] = x\n local[0] = tid\n y = local[0]\n stop\n",
	};
	uint64_t cohorts = 0;
	for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
		Prog r = load(progs[i]);
		for (int k = 0; cohort_models[k]; k++)
			for (int32_t ws = 1; ws <= 4; ws *= 2) {
				SemOptions o = {0};
				o.model = cohort_models[k];
				o.warpsize = ws;
				cohorts += same_both_ways(r.p, &o, progs[i]);
				o.races_error = true;
				cohorts += same_both_ways(r.p, &o, progs[i]);
			}
		unload(&r);
	}
	cr_expect_gt(cohorts, 50);
	/* warps of one storing their tid to cell 0: no race, thread 7's value */
	Prog r = load(progs[0]);
	SemOptions o = {0};
	o.model = &model_mimd;
	Diags d;
	diag_init(&d, "t.simd", "", 0);
	Machine *m = sem_new(r.p, &o, &d);
	sem_run(m, NULL, NULL);
	Num v;
	cr_expect(m->status == SEM_OK && m->nraces == 0);
	cr_expect(mem_get(&m->shared, 0, &v) && !v.z && v.i == 7);
	sem_free(m);
	diag_free(&d);
	unload(&r);
}

/* Barriers: arrivals of a cohort's warps one after another, the last one
** releasing them; a warp that reaches the barrier with deferred threads
** (a deadlock) stops the run at its own arrival; and the random concurrent
** programs of gen.h (locks, flags, atomics, barriers in uniform and
** divergent code). */
Test(cohort, barriers_and_concurrent_programs, .init = watchdog_120)
{
	static const char *const progs[] = {
		".threads 16\n.memory zero\n i = 0\nL: p = i < 3\n bz p, E\n mem[tid] = i\n barrier\n"
		" a = tid + 1\n a = a % 16\n v = mem[a]\n mem[a] = v\n barrier\n i = i + 1\n jump L\nE: stop\n",
		".threads 16\n p = tid < 9\n bz p, E\n barrier\nE: sync\n stop\n",
	};
	uint64_t cohorts = 0;
	for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
		Prog r = load(progs[i]);
		cohorts += all_ways(r.p, progs[i], 0);
		unload(&r);
	}
	for (int s = 1; s <= 60; s++) {
		GenOptions o = {0};
		o.seed = (uint64_t)s;
		o.concurrent = true;
		Buf b = {0};
		gen_program(&b, &o);
		Prog r = load(buf_str(&b));
		cohorts += all_ways(r.p, buf_str(&b), 3000);
		unload(&r);
		buf_free(&b);
	}
	cr_expect_gt(cohorts, 1000);
}

/* Strips (sem.c, run_strips): from 32768 threads on, straight runs of
** arithmetic run a strip of warps at a time, then every warp moves on; the
** state must be the round robin's. Runs of every kind of operator, by
** literals and special variables; values beyond int64 made inside a run
** (later runs that read them take no strip); warps partly active; an
** operand unassigned in some lanes (no strip: the rule reports it as
** steps one by one do); the step limit near a run; a memory budget too
** small for what a run may make; warps of one (mimd, warp size 1). */
Test(cohort, strips_end_as_single_steps, .init = watchdog_240)
{
	static const struct {
		const char *src;
		int32_t warpsize;
		uint64_t max_steps, max_memory;
		bool strips_sync, strips_mimd; /* some run took a strip (under ipdom, none may) */
	} cases[] = {
		{".threads 32768\n x = tid\n acc = 0\n i = 0\nL: p = i < 3\n bz p, done\n x = x * 1103515245\n"
		 " x = x + 12345\n x = x & 0x7fffffff\n y = x >> 16\n acc = acc + y\n q = acc / 7\n r = acc % 5\n"
		 " s = -r\n t = !s\n u = ~t\n v = min(u, q)\n w = max(v, laneid)\n z = w == warpid\n c = z\n"
		 " i = i + 1\n jump L\ndone: mem[tid] = acc\n stop\n",
		 1024, 0, 0, true, true},
		/* values beyond int64 from the third round on */
		{".threads 32768\n x = tid + 3037000000\n i = 0\nL: p = i < 4\n bz p, done\n x = x * x\n y = x - 1\n"
		 " i = i + 1\n jump L\ndone: stop\n",
		 256, 0, 0, true, true},
		/* a third of the lanes inactive, then a run over the others (under
		** mimd the threads that skip are ahead: no round finds all at one pc) */
		{".threads 40000\n x = tid * 3\n p = tid % 3\n bz p, skip\n y = x + 5\n z = y * y\n w = z - x\n"
		 "skip: sync\n a = x + 1\n b = a * 2\n stop\n",
		 1024, 0, 0, true, false},
		/* y unassigned in lane 7 of every warp (all warps alike, in step): no
		** strip reads it; MV in thread 7 as steps report it */
		{".threads 32768\n p = laneid == 7\n bnz p, L\n y = tid\nL: sync\n z = tid + 1\n a = y + z\n b = a * 2\n"
		 " stop\n",
		 1024, 0, 0, false, false},
		/* the step limit: strips stop short of it, steps reach it (under
		** mimd a round of 32768 steps is past it: no strip) */
		{".threads 32768\nL: x = tid + 1\n y = x * 3\n z = y - x\n jump L\n", 1024, 1000, 0, true, false},
		{".threads 32768\nL: x = tid + 1\n y = x * 3\n z = y - x\n jump L\n", 1024, 700, 0, true, false},
		/* a budget too small for the values beyond int64 a run may make:
		** no strip, and the exact path stops the run where steps stop it */
		{".threads 32768\n x = tid + 4611686018427387904\n y = x * x\n z = y * y\n stop\n", 1024, 0, 8 << 20,
		 false, false},
		/* a shift by a variable takes no strip: negative in thread 0; */
		{".threads 32768\n x = tid\n y = laneid - 1000\n z = x + 1\n s = z << y\n w = s + 1\n stop\n", 1024, 0, 0,
		 true, true},
		{".threads 32768\n x = tid\n y = laneid - 1000\n z = x + 1\n s = z >> y\n w = s + 1\n stop\n", 1024, 0, 0,
		 true, true},
		/* nor a division by one: 0 in thread 1000 */
		{".threads 32768\n x = tid\n y = laneid - 1000\n z = x + 1\n s = z / y\n w = s + 1\n stop\n", 1024, 0, 0,
		 true, true},
		{".threads 32768\n x = tid\n y = laneid - 1000\n z = x + 1\n s = z % y\n w = s + 1\n stop\n", 1024, 0, 0,
		 true, true},
		/* warps of one */
		{".threads 32768\n x = tid\n y = x * 7\n z = y + x\n w = z >> 1\n stop\n", 1, 0, 0, true, true},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		Prog r = load(cases[i].src);
		for (int k = 0; cohort_models[k]; k++) {
			SemOptions o = {0};
			o.model = cohort_models[k];
			o.warpsize = cases[i].warpsize;
			o.max_steps = cases[i].max_steps;
			o.max_memory = cases[i].max_memory;
			Buf b = {0};
			buf_printf(&b, "case %zu, model %s", i, cohort_models[k]->name);
			same_both_ways(r.p, &o, buf_str(&b));
			bool want = cohort_models[k] == &model_sync   ? cases[i].strips_sync
			            : cohort_models[k] == &model_mimd ? cases[i].strips_mimd
			                                              : false;
			cr_expect_eq(last_strip_steps > 0, want, "%s: %llu steps in strips", buf_str(&b),
			             (unsigned long long)last_strip_steps);
			buf_free(&b);
		}
		unload(&r);
	}
}

/* Random structured programs at 32768 threads (warps of 1024 and of 256
** under sync, warps of one under mimd): strips run wherever every warp
** stands at the start of a straight run, and the state must be the round
** robin's wherever the program goes (loads, stores, atomics, branches,
** limits). */
Test(cohort, random_programs_by_strips, .init = watchdog_240)
{
	uint64_t strips = 0;
	for (int s = 1; s <= 24; s++) {
		GenOptions o = {0};
		o.seed = (uint64_t)s * 104729u;
		o.size = 20 + s % 40;
		Buf b = {0};
		gen_program(&b, &o);
		Prog r = load(buf_str(&b));
		static const struct {
			const Model *model;
			int32_t warpsize;
			uint64_t max_steps;
		} ways[] = {{&model_sync, 1024, 20000}, {&model_sync, 256, 40000}, {&model_mimd, 0, 400000}};
		for (size_t i = 0; i < sizeof ways / sizeof *ways; i++) {
			SemOptions so = {0};
			so.model = ways[i].model;
			so.threads = 32768;
			so.warpsize = ways[i].warpsize;
			so.max_steps = ways[i].max_steps;
			Buf what = {0};
			buf_printf(&what, "seed %d, model %s, warpsize %d\n%s", s, ways[i].model->name, ways[i].warpsize,
			           buf_str(&b));
			same_both_ways(r.p, &so, buf_str(&what));
			strips += last_strip_steps;
			buf_free(&what);
		}
		unload(&r);
		buf_free(&b);
	}
	cr_expect_gt(strips, 1000, "random programs took %llu steps in strips", (unsigned long long)strips);
}

/* Runs p under sync with `threads` threads in warps of ws; the values (or
** Σ alone) as text, or NULL when the run did not end well. */
static char *end_text(const Program *p, const Model *model, int32_t threads, int32_t ws, bool sigma_only)
{
	SemOptions so = {0};
	so.model = model;
	so.threads = threads;
	so.warpsize = ws;
	so.max_steps = 200000;
	Diags d;
	diag_init(&d, "t.simd", "", 0);
	Machine *m = sem_new(p, &so, &d);
	diag_free(&d);
	cr_assert_not_null(m);
	sem_run(m, NULL, NULL);
	char *text = m->status != SEM_OK ? NULL : values_text(m, !sigma_only, true);
	sem_free(m);
	return text;
}

/* The GSA group by mask (data.c, gsa_group_span: warps of 32 lanes or more)
** leaves what the rules lane by lane leave: random deterministic programs
** (a result no schedule can change, written to Σ), 128 threads in warps of
** 64, their GSA form against their plain form, structured ones under sync
** and unstructured ones under ipdom (lanes reach a μ or φ by different
** edges); and γs whose selected operand some active lanes never assigned
** (their result unassigned there), in warps of 64 (and 100 threads in
** warps of 50) against warps of one. */
Test(cohort, gsa_groups_by_mask_leave_what_the_rules_lane_by_lane_leave, .init = watchdog_120)
{
	static const char *const directed[] = {
		/* γ(p.0, y.0, y.undef) at L: unassigned where p is 0 */
		".threads 128\n p = tid % 3\n bz p, L\n y = tid * 2\nL: sync\n q = p == 0\n bz q, M\n y = 5\n"
		"M: sync\n mem[tid] = y\n stop\n",
		/* the same with the branch the other way: γ(p.0, y.undef, y.0) */
		".threads 128\n p = tid % 3\n bnz p, L\n y = tid * 2\nL: sync\n q = p != 0\n bz q, M\n y = 5\n"
		"M: sync\n mem[tid] = y\n stop\n",
		/* under ipdom: threads 0..69 reach the loop's φ by the branch (its
		** operand assigned in every thread), the others by the fall (one row
		** each), then all by the back edge */
		".threads 128\n i = 0\n n = 0\n p = tid >= 70\n bz p, H\n i = 5\nH: i = i + 1\n n = n + 1\n c = i < 10\n"
		" bnz c, H\n mem[tid] = n\n stop\n",
	};
	int ndirected = (int)(sizeof directed / sizeof *directed);
	int compared = 0;
	for (int s = -ndirected; s <= 60; s++) {
		GenOptions o = {0};
		o.seed = (uint64_t)s * 6007u;
		o.size = 20 + s % 50;
		o.deterministic = true;
		o.unstructured = s > 30;
		Buf b = {0};
		if (s < 0)
			buf_puts(&b, directed[s + ndirected]);
		else
			gen_program(&b, &o);
		Prog r = load(buf_str(&b));
		Diags d;
		diag_init(&d, "t.simd", r.src, strlen(r.src));
		Program *g = gsa_build(r.p, &d);
		cr_assert(g && d.nerrors == 0, "seed %d: no GSA form", s);
		const Model *md = o.unstructured || s == -1 ? &model_ipdom : &model_sync;
		char *a = end_text(g, md, 128, 64, s >= 0),
		     *c = s >= 0 ? end_text(r.p, md, 128, 64, true) : end_text(g, md, 128, 1, false);
		if (a && c) {
			cr_expect_str_eq(a, c, "seed %d: the GSA form in warps of 64 (first) differs\n%s", s, buf_str(&b));
			compared++;
		}
		if (s < 0) { /* 100 threads in warps of 50: words of the lanes only in part */
			char *e = end_text(g, md, 100, 50, false), *one = end_text(g, md, 100, 1, false);
			cr_expect(e && one && !strcmp(e, one), "directed program %d: warps of 50 differ", s + ndirected);
			free(e);
			free(one);
		}
		cr_expect(s >= 0 || (a && c), "directed program %d ended badly", s + ndirected);
		free(a);
		free(c);
		ir_free(g);
		diag_free(&d);
		unload(&r);
		buf_free(&b);
	}
	cr_expect_gt(compared, 30, "%d programs compared", compared);
}
