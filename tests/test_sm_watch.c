/*
** test_sm_watch.c — the progress watchdog's view of a step (sm/core.c:
** dst_changed): the SM no longer copies a warp's destination lanes before
** each step and compares them after; the step tells, through the watch on
** one variable (Machine.watch_var, watch_changed: commit_fast and the lane
** writes of the data rules). Here the step's answer is compared with that
** copy and comparison (the destination's int64 lanes and their definedness
** over the warp's lanes) at every step of every example under several
** models, of random programs, and of programs whose values leave int64,
** whose copies of unassigned values unassign, whose atomics fail.
*/
#include "gen.h"
#include "gsa.h"
#include "smlib.h"

/* p run by sem_step in round robin, the watch on each step's destination,
** compared with a copy of it; how many steps wrote a destination. */
static int64_t compare_watch(const char *what, const Program *p, const SemOptions *so, int64_t *changed)
{
	Diags d;
	diag_init(&d, "t.simd", "", 0);
	Machine *m = sem_new(p, so, &d);
	diag_free(&d);
	if (!m)
		return 0;
	int64_t n = 0;
	size_t nt = (size_t)m->nthreads;
	int64_t *val = xmalloc((nt + 1) * sizeof *val);
	uint8_t *def = xmalloc(nt + 1);
	while (m->status == SEM_RUNNING) {
		int32_t w = sem_schedule(m);
		if (w < 0)
			break;
		const Warp *W = &m->warps[w];
		int32_t pc = W->pc;
		int32_t v = pc >= 0 && pc < p->nins ? p->ins[pc].dst : -1;
		size_t base = (size_t)v * nt + (size_t)W->base, size = (size_t)W->size;
		if (v >= 0) {
			memcpy(val, &m->val[base], size * sizeof *val);
			memcpy(def, &m->def[base], size);
		}
		m->watch_var = v;
		m->watch_changed = false;
		uint64_t steps = m->steps;
		StepInfo info;
		sem_step(m, w, &info);
		m->watch_var = -1;
		sem_advance(m, w);
		if (v < 0 || m->steps == steps)
			continue;
		bool copy = memcmp(val, &m->val[base], size * sizeof *val) != 0 || memcmp(def, &m->def[base], size) != 0;
		cr_expect_eq(m->watch_changed, copy, "%s: step %llu (warp %d, pc %d): the step says %s, the copy %s", what,
		             (unsigned long long)m->steps, (int)w, (int)pc, m->watch_changed ? "changed" : "unchanged",
		             copy ? "changed" : "unchanged");
		if (m->watch_changed != copy) /* (one report per run) */
			break;
		n++;
		*changed += copy;
	}
	free(val);
	free(def);
	sem_free(m);
	return n;
}

/* The same on p's GSA form (μ, φ, γ, η groups), when it has one. */
static int64_t compare_watch_gsa(const char *what, const Program *p, const SemOptions *so, int64_t *changed)
{
	Diags d;
	diag_init(&d, "t.simd", "", 0);
	Program *g = gsa_build(p, &d);
	diag_free(&d);
	if (!g)
		return 0;
	char w[320];
	snprintf(w, sizeof w, "%s, GSA form", what);
	int64_t n = compare_watch(w, g, so, changed);
	ir_free(g);
	return n;
}

Test(sm_watch, every_example_under_every_model, .init = watchdog_600)
{
	static const Model *const ms[] = {&model_ipdom, &model_sync, &model_aware, &model_mp, &model_tf, &model_its_rr,
	                                  &model_mimd};
	int n = 0;
	int64_t steps = 0, changed = 0;
	char **files = example_files(&n);
	for (int i = 0; i < n; i++) {
		Prog t = load_path(files[i]);
		for (size_t k = 0; k < sizeof ms / sizeof *ms; k++) {
			SemOptions so = {.max_steps = 5000, .model = ms[k]};
			char what[300];
			snprintf(what, sizeof what, "%s under %s", files[i], ms[k]->name);
			steps += compare_watch(what, t.p, &so, &changed);
		}
		SemOptions so = {.max_steps = 5000, .model = &model_ipdom};
		steps += compare_watch_gsa(files[i], t.p, &so, &changed);
		unload(&t);
	}
	free_names(files, n);
	cr_expect_geq(steps, 20000, "only %lld steps compared", (long long)steps);
	cr_expect(changed > 0 && changed < steps, "%lld of %lld steps changed their destination", (long long)changed,
	          (long long)steps);
}

Test(sm_watch, random_programs, .init = watchdog_240)
{
	int64_t steps = 0, changed = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		GenOptions o;
		memset(&o, 0, sizeof o);
		o.seed = seed;
		o.size = 30 + (int32_t)(seed % 4) * 10;
		o.max_depth = 1 + (int32_t)(seed % 3);
		o.nvars = 3 + (int32_t)(seed % 5);
		o.unstructured = seed % 4 == 0;
		Buf b = {0};
		buf_printf(&b, ".threads %d\n.warpsize %d\n", seed % 2 ? 96 : 40, seed % 3 ? 32 : 8);
		gen_program(&b, &o);
		Prog t = load(buf_str(&b));
		char what[64];
		snprintf(what, sizeof what, "gen seed %llu", (unsigned long long)seed);
		SemOptions so = {.max_steps = 5000, .model = seed % 2 ? &model_ipdom : &model_aware};
		steps += compare_watch(what, t.p, &so, &changed);
		steps += compare_watch_gsa(what, t.p, &so, &changed);
		unload(&t);
		buf_free(&b);
	}
	cr_expect_geq(steps, 2000, "only %lld steps compared", (long long)steps);
	cr_expect(changed > 0 && changed < steps, "%lld of %lld steps changed their destination", (long long)changed,
	          (long long)steps);
}

/* The paths beside the fast one: values beyond int64 (the exact rule, and
** back to int64), a copy onto itself, a write of the same values, lanes
** assigned for the first time, a failed compare-and-swap, loads, a φ that
** copies an unassigned value (its destination unassigned again). */
Test(sm_watch, exact_paths, .init = watchdog_60)
{
	static const char *const srcs[] = {
		".threads 40\n.warpsize 8\n"
		"       x = 1 << 62\n       y = x * 4\n       y = y * 1\n       z = y / 4\n       z = z + 0\n"
		"       y = y - y\n       y = y + 0\n       x = x\n       p = tid % 3\n       bz p, skip\n"
		"       u = tid\n       u = u & 7\nskip:  sync\n       u = tid\n       u = u | 0\n"
		"       w = 0 - tid\n       w = -w\n       w = ~w\n       w = ~w\n       stop\n",
		".threads 64\n.warpsize 32\n"
		"       v = tid % 4\n       mem[tid] = v\n       a = mem[tid]\n       a = mem[tid]\n       c = atomcas(0, 7, 1)\n"
		"       c = atomcas(0, 7, 1)\n       d = atomadd(1, 0)\n       d = atomadd(1, 0)\n"
		"       e = atomexch(2, 5)\n       e = atomexch(2, 5)\n       stop\n",
		/* (in GSA form: x.0 = mu(x.undef, x.1) copies an unassigned x) */
		".threads 8\n       i = 0\n       x = 5\nh:     p = i < 2\n       bz p, e\n       y = i * 2\n"
		"       x = x + 0\n       i = i + 1\n       jump h\ne:     sync\n       mem[tid] = x\n"
		"       q = tid < 3\n       bz q, f\n       z = 1\nf:     sync\n       j = 0\n"
		"g:     r = j < 2\n       bz r, k\n       u = j + z\n       j = j + 1\n       jump g\n"
		"k:     sync\n       stop\n",
	};
	int64_t steps = 0, changed = 0;
	for (size_t i = 0; i < sizeof srcs / sizeof *srcs; i++) {
		Prog t = load(srcs[i]);
		SemOptions so = {.max_steps = 5000};
		steps += compare_watch(srcs[i], t.p, &so, &changed);
		steps += compare_watch_gsa(srcs[i], t.p, &so, &changed);
		unload(&t);
	}
	cr_expect_geq(steps, 20, "only %lld steps compared", (long long)steps);
	cr_expect(changed > 0 && changed < steps, "%lld of %lld steps changed their destination", (long long)changed,
	          (long long)steps);
}

/* The lane writes themselves (sem_set_lane, sem_unset_lane: the exact
** rules' and the GSA groups' commits): a change of value or definedness
** of the watched variable, and only of it. */
Test(sm_watch, lane_writes)
{
	Prog t = load(".threads 4\n       x = tid\n       y = 1\n       stop\n");
	Diags d;
	diag_init(&d, "t.simd", "", 0);
	SemOptions so = {0};
	Machine *m = sem_new(t.p, &so, &d);
	cr_assert(m);
	int32_t x = 0, y = 1;
	cr_assert_str_eq(t.p->vars[x].name, "x");
	cr_assert_str_eq(t.p->vars[y].name, "y");
	static const struct {
		int32_t v;
		int op; /* 0 set to val, 1 unset */
		int64_t val;
		bool changed;
	} steps[] = {
		{0, 0, 7, true},  /* unassigned → 7 */
		{0, 0, 7, false}, /* 7 → 7 */
		{0, 0, 8, true},  /* 7 → 8 */
		{1, 0, 8, false}, /* y: not watched */
		{1, 1, 0, false},
		{0, 1, 0, true},  /* 8 → unassigned */
		{0, 1, 0, false}, /* unassigned → unassigned */
	};
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
		m->watch_var = x;
		m->watch_changed = false;
		if (steps[i].op == 0)
			sem_set_lane(m, steps[i].v, 2, NUM_I(steps[i].val));
		else
			sem_unset_lane(m, steps[i].v, 2);
		cr_expect_eq(m->watch_changed, steps[i].changed, "write %zu", i);
	}
	m->watch_var = -1;
	sem_free(m);
	diag_free(&d);
	unload(&t);
}
