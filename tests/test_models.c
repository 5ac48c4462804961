/*
** test_models.c — the models[] table (model.h) and what every model must
** do alike: the same table everywhere, the hooks a model cannot do without,
** and the conformance of the data rules (a race-free structured program
** leaves the same Σ under every model).
*/
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "testlib.h"

Test(models, table_names_and_find_agree)
{
	int n = 0;
	for (int i = 0; models[i]; i++, n++) {
		const Model *md = models[i];
		cr_assert_not_null(model_names[i], "model_names is shorter than models");
		cr_expect_str_eq(md->name, model_names[i], "ORDER MODELS: entry %d", i);
		cr_expect_eq(model_find(md->name), md, "model_find(%s)", md->name);
		cr_expect_str_eq(sem_model_name(md), md->name);
		cr_expect(md->summary && *md->summary, "%s: a summary for the help", md->name);
		cr_expect(md->branch && md->sync && md->finish && md->go, "%s: a control rule is missing", md->name);
		cr_expect(md->nfields <= CTL_MAX_FIELDS, "%s: too many fields", md->name);
		if (md->nfields > 0) {
			cr_expect(md->view != NULL, "%s: a stack without a view", md->name);
			cr_expect(md->stack_name != NULL, "%s: a stack without a name", md->name);
			cr_expect(md->pushed_by < md->nfields, "%s: pushed_by out of range", md->name);
			if (md->pushed_by >= 0)
				cr_expect(!md->fields[md->pushed_by].is_set, "%s: pushed_by names a set", md->name);
		}
	}
	cr_expect_eq(n, MODEL_COUNT);
	cr_expect_null(model_names[n]);
	cr_expect_null(model_find("simt"));
	cr_expect_str_eq(sem_model_name(NULL), "sync"); /* the default */
}

static void mem_text(void *ctx, int64_t addr, Num v)
{
	Buf *b = ctx;
	buf_printf(b, "%lld:", (long long)addr);
	num_buf(b, v);
	buf_putc(b, ' ');
}

/* Σ after a run of src under md with t threads in warps of w. */
static char *final_memory(const char *src, const Model *md, int32_t t, int32_t w)
{
	Diags d;
	diag_init(&d, "conf.simd", src, strlen(src));
	Program *p = ir_load("conf.simd", src, strlen(src), &d);
	cr_assert_eq(d.nerrors, 0, "the program does not load");
	SemOptions so = {0};
	so.model = md;
	so.threads = t;
	so.warpsize = w;
	Machine *m = sem_new(p, &so, &d);
	cr_assert_not_null(m);
	cr_assert_eq(sem_run(m, NULL, NULL), SEM_OK, "%s: %s", md->name, m->err.msg ? m->err.msg : "");
	Buf b = {0};
	mem_each(&m->shared, mem_text, &b);
	sem_free(m);
	ir_free(p);
	diag_free(&d);
	return buf_steal(&b);
}

Test(models, a_race_free_structured_program_leaves_the_same_memory_under_every_model)
{
	/* nested divergent branches and a tid-dependent loop, each thread writing its own cell */
	static const char src[] = ".memory zero\n"
	                          "    s = 0\n"
	                          "    i = tid\n"
	                          "top: bz i, out\n"
	                          "    p = tid & 1\n"
	                          "    bz p, even\n"
	                          "    s = s + i\n"
	                          "    jump join\n"
	                          "even: d = 2 * i\n"
	                          "    s = s + d\n"
	                          "join: sync\n"
	                          "    i = i - 1\n"
	                          "    jump top\n"
	                          "out: sync\n"
	                          "    mem[tid] = s\n"
	                          "    stop\n";
	const int32_t shapes[][2] = {{1, 1}, {5, 4}, {8, 8}, {70, 64}};
	for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
		char *want = final_memory(src, models[0], shapes[k][0], shapes[k][1]);
		cr_expect(strlen(want) > 0);
		for (int i = 1; models[i]; i++) {
			char *got = final_memory(src, models[i], shapes[k][0], shapes[k][1]);
			cr_expect_str_eq(got, want, "%s vs %s, %d threads in warps of %d", models[i]->name,
			                 models[0]->name, shapes[k][0], shapes[k][1]);
			free(got);
		}
		free(want);
	}
}

Test(models, its_runs_the_spin_lock_of_one_warp_to_the_end)
{
	/* seed 004 §2.2: under independent thread scheduling the lock holder
	** goes on while the others spin; the stacks deadlock (explore) */
	static const char src[] = ".data 0: 0 0\n"
	                          "lock: old = atomcas(0, 0, 1)\n"
	                          "      bnz old, lock\n"
	                          "      sync\n"
	                          "      c = mem[1]\n"
	                          "      c = c + 1\n"
	                          "      mem[1] = c\n"
	                          "      r = atomexch(0, 0)\n"
	                          "      stop\n";
	char *got = final_memory(src, &model_its_rr, 4, 4);
	cr_expect_str_eq(got, "0:0 1:4 ");
	free(got);
	cr_expect_eq(model_find("its"), &model_its_rr, "its is its:rr");
}

Test(models, the_help_lists_every_model_of_the_table)
{
	Buf b = {0};
	model_help(&b, 4, 79, true);
	cr_expect(strstr(buf_str(&b), "    its:P    a policy P") != NULL, "no help line for the policies");
	for (int i = 0; models[i]; i++) {
		char line[64];
		snprintf(line, sizeof line, "    %-8s ", models[i]->name);
		cr_expect(strstr(buf_str(&b), line) != NULL, "no help line for %s", models[i]->name);
	}
	/* wrapped at 79 columns */
	for (const char *s = buf_str(&b); *s;) {
		size_t n = strcspn(s, "\n");
		cr_expect_leq(utf8_width(s, n), 79, "a help line of %zu columns", utf8_width(s, n));
		s += n + (s[n] != 0);
	}
	buf_free(&b);
}

/* The step's effects (StepInfo.edges, .stores) under every model: each
** thread takes the same edges (the branch, the jump or the fall into the
** join, the barrier's release into `after`, the branch out of it), and
** every store is reported. */
Test(models, every_model_reports_the_same_edges_and_stores)
{
	static const char src[] = ".memory zero\n"
	                          "    p = tid < 1\n"
	                          "    bz p, other\n"
	                          "    mem[tid] = 1\n"
	                          "    jump join\n"
	                          "other: mem[tid] = 2\n"
	                          "join: sync\n"
	                          "    barrier\n"
	                          "after: r = atomadd(8, 1)\n"
	                          "    q = 0\n"
	                          "    bnz q, after\n"
	                          "    sync\n"
	                          "    stop\n";
	Diags d;
	diag_init(&d, "fx.simd", src, strlen(src));
	Program *p = ir_load("fx.simd", src, strlen(src), &d);
	cr_assert_eq(d.nerrors, 0);
	for (int i = 0; models[i]; i++) {
		SemOptions so = {0};
		so.model = models[i];
		so.threads = 4;
		so.warpsize = 2;
		Machine *m = sem_new(p, &so, &d);
		cr_assert_not_null(m);
		m->effects = true;
		int32_t edges[4] = {0}, stores[16] = {0};
		StepInfo info;
		while (m->status == SEM_RUNNING) {
			int32_t w = sem_schedule(m);
			if (w < 0)
				break;
			sem_step(m, w, &info);
			sem_advance(m, w);
			for (int32_t e = 0; e < info.nedges; e++) {
				const Warp *x = &m->warps[info.edges[e].warp];
				for (int32_t l = 0; l < x->size; l++)
					edges[x->base + l] += bit_get(info.edges[e].lanes, l);
			}
			for (int32_t s = 0; s < info.nstores; s++) {
				cr_assert(info.stores[s] >= 0 && info.stores[s] < 16);
				stores[info.stores[s]]++;
			}
		}
		cr_assert_eq(m->status, SEM_OK, "%s: %s", models[i]->name, m->err.msg ? m->err.msg : "");
		for (int32_t t = 0; t < 4; t++)
			cr_expect_eq(edges[t], 4, "%s: thread %d took %d edges", models[i]->name, t, edges[t]);
		for (int32_t c = 0; c < 4; c++)
			cr_expect_eq(stores[c], 1, "%s: cell %d stored %d times", models[i]->name, c, stores[c]);
		cr_expect_eq(stores[8], 4, "%s: the atomic wrote cell 8 %d times", models[i]->name, stores[8]);
		sem_free(m);
	}
	ir_free(p);
	diag_free(&d);
}

/* Σ (text) and the status of a run of the example at path under md (at
** most max_steps steps); *races: races were seen. */
static char *example_memory(const char *path, const Model *md, SemStatus *status, bool *races)
{
	size_t len = 0;
	char *src = read_file(path, &len);
	cr_assert_not_null(src, "%s", path);
	Diags d;
	diag_init(&d, path, src, len);
	Program *p = ir_load(path, src, len, &d);
	cr_assert_eq(d.nerrors, 0, "%s does not load", path);
	SemOptions so = {0};
	so.model = md;
	so.max_steps = 20000;
	Machine *m = sem_new(p, &so, &d);
	cr_assert_not_null(m, "%s", path);
	*status = sem_run(m, NULL, NULL);
	*races = m->nraces > 0;
	Buf b = {0};
	mem_each(&m->shared, mem_text, &b);
	sem_free(m);
	ir_free(p);
	diag_free(&d);
	free(src);
	return buf_steal(&b);
}

/* Every example that a model finishes without a race leaves the same Σ
** under every model that finishes it; aware finishes every example ipdom
** does (it reconverges where ipdom does, and only waits less). */
Test(models, the_examples_leave_the_same_memory_under_every_model_that_finishes_them)
{
	int n;
	char **files = example_files(&n);
	int compared = 0;
	for (int f = 0; f < n; f++) {
		char *want = NULL;
		const char *by = NULL;
		SemStatus ipdom = SEM_RUNNING, aware = SEM_RUNNING;
		for (int i = 0; models[i]; i++) {
			SemStatus st;
			bool races;
			char *got = example_memory(files[f], models[i], &st, &races);
			if (models[i] == &model_ipdom)
				ipdom = st;
			if (models[i] == &model_aware)
				aware = st;
			if (st == SEM_OK && !races) {
				if (!want) {
					want = got;
					by = models[i]->name;
					continue;
				}
				cr_expect_str_eq(got, want, "%s: %s vs %s", files[f], models[i]->name, by);
				compared++;
			}
			free(got);
		}
		if (ipdom == SEM_OK)
			cr_expect_eq(aware, SEM_OK, "%s: ipdom finishes it, aware ends %s", files[f], sem_status_name(aware));
		free(want);
	}
	cr_expect_gt(compared, 50);
	free_names(files, n);
}

/* Thread frontiers "perform identically to the best existing method for
** structured control flow" (Diamos et al. 2011; digest §11.2 D2): on the
** papers' structured examples tf issues exactly ipdom's steps and thread
** instructions, and on Figure 1 it saves the three blocks ipdom repeats. */
Test(models, thread_frontiers_match_ipdom_on_structured_code)
{
	const char *structured[] = {"if_else.simd", "nested_else.simd", "sum_triangle.simd", "tid_loop.simd",
	                            "avg_square.simd", "uniform_true.simd", "uniform_false.simd"};
	for (size_t k = 0; k < sizeof structured / sizeof *structured; k++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", examples_dir(), structured[k]);
		size_t len = 0;
		char *src = read_file(path, &len);
		cr_assert(src, "%s", path);
		Prog t = load(src);
		uint64_t steps[2], insns[2];
		const Model *md[2] = {&model_ipdom, &model_tf};
		for (int i = 0; i < 2; i++) {
			Diags d;
			diag_init(&d, path, src, len);
			SemOptions so = {.model = md[i], .threads = 4};
			Machine *m = sem_new(t.p, &so, &d);
			cr_assert(m);
			sem_run(m, NULL, NULL);
			steps[i] = m->steps;
			insns[i] = m->thread_instructions;
			sem_free(m);
			diag_free(&d);
		}
		cr_expect_eq(steps[1], steps[0], "%s: tf %llu steps, ipdom %llu", structured[k],
		             (unsigned long long)steps[1], (unsigned long long)steps[0]);
		cr_expect_eq(insns[1], insns[0], "%s: thread instructions", structured[k]);
		unload(&t);
		free(src);
	}
}

/* The JSON keys of the models' control state are written without escapes
** (report.c: json_key_plain): each must be a plain name. */
static bool plain_name(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_'))
			return false;
	return true;
}

static void expect_plain_keys(const Model *md)
{
	for (int32_t f = 0; f < md->nfields; f++)
		cr_expect(plain_name(md->fields[f].key), "%s: '%s'", md->name, md->fields[f].key);
	for (int32_t t = 0; t < md->ntables; t++)
		for (int32_t f = 0; f < md->tables[t].nfields; f++)
			cr_expect(plain_name(md->tables[t].fields[f].key), "%s: '%s'", md->name,
			          md->tables[t].fields[f].key);
}

Test(models, control_state_keys_are_plain_names)
{
	for (int i = 0; models[i]; i++)
		expect_plain_keys(models[i]);
	for (int32_t i = 0; i < its_policy_count(); i++)
		expect_plain_keys(its_policy_model(i));
}
