/*
** test_lab.c — the policy lab (lab.h, model/policy.c): the cycle packing
** rule and the memory classifier against the digest's tests T11 and T12,
** the policy table, and equivalences the digest states (T9: RD with
** threshold 0 is MinSP-MinPC, schedule for schedule; T10: Round-Robin
** issues one thread at a time) or that hold on programs without calls (every
** policy keyed by the stack or the call depth schedules as Min-PC).
*/
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "testlib.h"

/* seed 000 digest T11: `1 2 1 2 3 2 2 2 3` packs into (1 2)(1 2 3)(2)(2)(2 3) */
static uint64_t pack(const int32_t *seq, int n, int32_t nthreads, int32_t F)
{
	LabCycles c;
	lab_cycles_init(&c, nthreads, F);
	for (int i = 0; i < n; i++)
		lab_cycles_add(&c, &seq[i], 1);
	uint64_t cycles = lab_cycles_total(&c);
	lab_cycles_free(&c);
	return cycles;
}

Test(lab, cycle_packing_of_t11)
{
	static const int32_t seq[] = {1, 2, 1, 2, 3, 2, 2, 2, 3};
	cr_expect_eq(pack(seq, 9, 4, 3), 5);
	cr_expect_eq(pack(seq, 9, 4, 4), 5);
	cr_expect_eq(pack(seq, 9, 4, 0), 5, "F = 0 is one unit per thread");
	cr_expect_eq(pack(seq, 9, 4, 1), 9, "one fetch unit: pure SIMD");
	cr_expect_eq(pack(seq, 9, 4, 2), 5, "(1 2)(1 2)(3 2)(2)(2 3)");
	static const int32_t three[] = {1, 2, 3, 1};
	cr_expect_eq(pack(three, 4, 4, 2), 2, "(1 2)(3 1): F fetches fill a cycle");
	cr_expect_eq(pack(seq, 0, 4, 2), 0);
}

Test(lab, a_group_shares_its_cycle_and_a_thread_issues_once_per_cycle)
{
	LabCycles c;
	lab_cycles_init(&c, 4, 2);
	int32_t ab[] = {0, 1}, cd[] = {2, 3};
	lab_cycles_add(&c, ab, 2);
	lab_cycles_add(&c, cd, 2); /* the diamond's two sides in one cycle */
	cr_expect_eq(lab_cycles_total(&c), 1);
	lab_cycles_add(&c, ab, 2);
	cr_expect_eq(lab_cycles_total(&c), 2);
	lab_cycles_free(&c);
}

static LabAccess classify(const int32_t *t, const int64_t *a, int n, int *bin)
{
	int32_t b;
	LabAccess r = lab_classify(t, a, n, &b);
	*bin = b;
	return r;
}

Test(lab, memory_classes_of_t12)
{
	int32_t t3[] = {0, 1, 2}, t02[] = {0, 2}, t1[] = {1};
	int bin;
	int64_t u[] = {100, 100, 100};
	cr_expect_eq(classify(t3, u, 3, &bin), LAB_UNIFORM);
	int64_t one[] = {100};
	cr_expect_eq(classify(t1, one, 1, &bin), LAB_UNIFORM);
	int64_t aff[] = {100, 108, 116};
	cr_expect_eq(classify(t3, aff, 3, &bin), LAB_AFFINE);
	cr_expect_eq(bin, 3);
	int64_t aff2[] = {100, 116};
	cr_expect_eq(classify(t02, aff2, 2, &bin), LAB_AFFINE);
	cr_expect_eq(bin, 3, "d = 16 / 2 = 8");
	int64_t down[] = {116, 108, 100};
	cr_expect_eq(classify(t3, down, 3, &bin), LAB_SCATTERED);
	cr_expect_eq(bin, 4);
	int64_t sc[] = {100, 104, 200};
	cr_expect_eq(classify(t3, sc, 3, &bin), LAB_SCATTERED);
	cr_expect_eq(bin, 6);
	int64_t stack[] = {5, ((int64_t)1 << 23) + 5, ((int64_t)2 << 23) + 5};
	cr_expect_eq(classify(t3, stack, 3, &bin), LAB_AFFINE);
	cr_expect_eq(bin, 23);
	int64_t wide[] = {INT64_MIN, INT64_MAX};
	cr_expect_eq(classify(t02, wide, 2, &bin), LAB_AFFINE, "no overflow");
	int64_t far[] = {INT64_MAX, INT64_MIN};
	cr_expect_eq(classify(t02, far, 2, &bin), LAB_SCATTERED);
	cr_expect_eq(bin, 63);
}

Test(lab, the_policy_table)
{
	int32_t n = its_policy_count();
	cr_expect_gt(n, 100);
	for (int32_t i = 0; i < n; i++) {
		const Model *md = its_policy_model(i);
		cr_assert_not_null(md);
		cr_assert_not_null(its_policy_names[i]);
		cr_expect_str_eq(md->name, its_policy_names[i], "ORDER POLICIES: %d", i);
		cr_expect_eq(model_find(md->name), md, "model_find(%s)", md->name);
		cr_expect_eq(lab_policy_find(md->name + 4), md, "without its: %s", md->name);
		cr_expect(md->summary && *md->summary);
		cr_expect(md->lane_pcs);
		for (int32_t k = 0; k < n; k++)
			if (k != i)
				cr_expect(strcmp(md->name, its_policy_names[k]), "%s twice", md->name);
	}
	cr_expect_null(its_policy_names[n]);
	cr_expect_null(model_find("its:maxpc"));
	cr_expect_eq(lab_policy_find("rr"), &model_its_rr);
	cr_expect_eq(lab_policy_find("tf:sandy"), &model_tf_sandy);
	cr_expect_str_eq(its_policy_key(model_find("its:long:8@ins")), "long:8@ins");
	cr_expect(its_policy_uses_calls(model_find("its:minsp-minpc")));
	cr_expect(!its_policy_uses_calls(model_find("its:minpc")));
}

/* The run of the example at path under md as text: a line per step, its
** warp, pc and active lanes; *status its end. */
static char *schedule(const char *path, const Model *md, SemStatus *status, int32_t *most)
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
	so.max_steps = 3000;
	Machine *m = sem_new(p, &so, &d);
	cr_assert_not_null(m, "%s", path);
	Buf b = {0};
	StepInfo info;
	*most = 0;
	while (m->status == SEM_RUNNING) {
		int32_t w = sem_schedule(m);
		if (w < 0)
			break;
		uint64_t before = m->steps;
		sem_step(m, w, &info);
		if (m->steps == before)
			break;
		sem_advance(m, w);
		buf_printf(&b, "%d %d ", info.warp, info.pc);
		sem_print_set(&b, m, info.warp, info.active);
		buf_putc(&b, '\n');
		if (info.nactive > *most)
			*most = info.nactive;
	}
	*status = m->status;
	sem_free(m);
	ir_free(p);
	diag_free(&d);
	free(src);
	return buf_steal(&b);
}

/* Every example (without_calls: those without a call): the schedules of a
** and b are the same, step for step. */
static void same_schedules_of(const char *a, const char *b, bool without_calls)
{
	int n = 0;
	char **files = example_files(&n);
	for (int f = 0; f < n; f++) {
		if (without_calls && example_has_calls(files[f]))
			continue;
		SemStatus sa, sb;
		int32_t ma, mb;
		char *x = schedule(files[f], model_find(a), &sa, &ma);
		char *y = schedule(files[f], model_find(b), &sb, &mb);
		cr_expect_eq(sa, sb, "%s: %s and %s end differently", files[f], a, b);
		cr_expect_str_eq(x, y, "%s: %s and %s schedule differently", files[f], a, b);
		free(x);
		free(y);
	}
	free_names(files, n);
}

static void same_schedules(const char *a, const char *b)
{
	same_schedules_of(a, b, false);
}

Test(lab, rd_with_threshold_0_is_minsp_minpc, .init = watchdog_240)
{
	same_schedules("its:minsp-minpc", "its:rd-minsp:4:0:n"); /* digest T9 */
}

/* Without calls every thread's call depth and stack are 0: the keys that
** order by them end at the pc (policy.c, musimd(1) POLICIES). */
Test(lab, without_calls_the_stack_and_function_keys_are_minpc, .init = watchdog_240)
{
	static const char *const twins[] = {"its:minsp-minpc", "its:maxfun-minpc1", "its:maxfun-minpc2",
	                                    "its:maxfun-minpc3", "its:maxsp-minpc", "its:minfun-minpc"};
	for (size_t i = 0; i < sizeof twins / sizeof *twins; i++)
		same_schedules_of("its:minpc", twins[i], true);
}

/* With calls they are keys of their own: on Figure 3.4 with its function
** (digest T3) MinSP-MinPC and MaxFun-MinPC run the called function first,
** Min-PC the caller's other thread; MaxSP-MinPC and MinFun-MinPC the
** shallower thread, as Min-PC does there. Frames of one unit: MinSP is
** MaxFun v1, and MaxSP MinFun (policy.c). */
Test(lab, with_calls_the_stack_and_function_keys_are_their_own, .init = watchdog_120)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/policy_if_no_else_call.simd", examples_dir());
	SemStatus s;
	int32_t most;
	char *minpc = schedule(path, model_find("its:minpc"), &s, &most);
	cr_expect_eq(s, SEM_OK);
	static const char *const deep[] = {"its:minsp-minpc", "its:maxfun-minpc1", "its:maxfun-minpc2",
	                                   "its:maxfun-minpc3"};
	char *first = schedule(path, model_find(deep[0]), &s, &most);
	cr_expect_str_neq(first, minpc, "%s schedules as minpc", deep[0]);
	for (size_t i = 1; i < sizeof deep / sizeof *deep; i++) {
		char *x = schedule(path, model_find(deep[i]), &s, &most);
		cr_expect_str_eq(x, first, "%s and %s", deep[i], deep[0]);
		free(x);
	}
	char *maxsp = schedule(path, model_find("its:maxsp-minpc"), &s, &most);
	char *minfun = schedule(path, model_find("its:minfun-minpc"), &s, &most);
	cr_expect_str_eq(maxsp, minfun);
	cr_expect_str_neq(maxsp, first);
	free(minpc), free(first), free(maxsp), free(minfun);
}

Test(lab, round_robin_issues_one_thread_at_a_time, .init = watchdog_120)
{
	int n = 0;
	char **files = example_files(&n);
	for (int f = 0; f < n; f++) {
		SemStatus s;
		int32_t most;
		free(schedule(files[f], model_find("its:rr-thread"), &s, &most));
		cr_expect_leq(most, 1, "%s: %d threads in a fetch", files[f], most); /* digest T10: DLP 1 */
	}
	free_names(files, n);
}

/* --svg: a bar per program and policy, as tall as its DLP on a common
** scale, and the file names escaped as XML text. */
Test(lab, the_dlp_chart)
{
	LabRow rows[2] = {{.file = "a<&>.simd", .model = model_find("its:minpc"), .dlp = 1.5},
	                  {.file = "a<&>.simd", .model = model_find("its:lee"), .dlp = 3.0}};
	cr_assert(rows[0].model && rows[1].model);
	Buf b = {0};
	lab_chart_svg(&b, rows, 2);
	const char *s = buf_str(&b);
	cr_expect(strncmp(s, "<svg ", 5) == 0 && strstr(s, "</svg>\n") != NULL);
	cr_expect(strstr(s, "a&lt;&amp;&gt;.simd") != NULL && strstr(s, "a<&>") == NULL, "%s", s);
	int h[2], k = 0;
	for (const char *r = s; k < 2 && (r = strstr(r, "<rect ")) != NULL; r++) {
		int x, y, w, hh;
		if (sscanf(r, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"", &x, &y, &w, &hh) == 4 &&
		    strstr(r, "<title>") && strstr(r, "<title>") < strstr(r, "</rect>"))
			h[k++] = hh;
	}
	cr_assert_eq(k, 2, "two bars");
	cr_expect(h[0] > 0 && abs(2 * h[0] - h[1]) <= 1, "DLP 1.5 and 3.0 as bars of %d and %d", h[0], h[1]);
	buf_free(&b);
}
