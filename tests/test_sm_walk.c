/*
** test_sm_walk.c — the shortcuts of the schedulers' walk (sm/core.c: the
** walk by classes, answers recalled from a warp's last look, the policies'
** orders as rotations) are speedups only: every run is the one a walk that
** asks every warp, in the order the policy's `order` writes out, gives
** (SmConfig.walk_every_warp): the same issues in the same cycles by the
** same schedulers, the same statistics to the last per-warp stall cycle,
** the same final state (issue 13, deliverable 7).
*/
#include "gen.h"
#include "smlib.h"

/* A trace of the run: cycle, scheduler, warp and pc of every issue. */
static void trace_issue(void *ctx, int64_t cycle, int32_t sched, const Machine *m, const StepInfo *s)
{
	(void)m;
	buf_printf(ctx, "%lld %d %d %d %d\n", (long long)cycle, (int)sched, (int)s->warp, (int)s->pc, (int)s->nactive);
}

/* The run of p on c as text: the JSON report and the issues. */
static char *run_text(const Program *p, const SmConfig *c, const SemOptions *so)
{
	Diags d;
	diag_init(&d, "t.simd", "", 0);
	SmCode *code = lower(p, &d);
	Buf b = {0};
	if (!code) {
		buf_puts(&b, "(not lowered)");
	} else {
		SmResult *r = sm_run_traced(code, c, so, trace_issue, &b, &d);
		if (r) {
			Json j;
			json_init(&j, &b);
			sm_report_json(&j, r, c);
		} else {
			buf_puts(&b, "(refused)");
		}
		sm_result_free(r);
		lower_free(code);
	}
	diag_free(&d);
	return buf_steal(&b);
}

typedef struct Variant {
	const char *what;
	void (*set)(SmConfig *c);
} Variant;

static void v_lrr(SmConfig *c) { snprintf(c->scheduler, sizeof c->scheduler, "lrr"); }
static void v_gto(SmConfig *c) { snprintf(c->scheduler, sizeof c->scheduler, "gto"); }
static void v_old(SmConfig *c) { snprintf(c->scheduler, sizeof c->scheduler, "old"); }
static void v_glrr(SmConfig *c) { snprintf(c->scheduler, sizeof c->scheduler, "glrr"); }
static void v_gto_rotate(SmConfig *c) { snprintf(c->scheduler, sizeof c->scheduler, "gto_rotate:7"); }
static void v_two_level(SmConfig *c) { snprintf(c->scheduler, sizeof c->scheduler, "two_level_active:2:0:1"); }
static void v_bows(SmConfig *c) { snprintf(c->scheduler, sizeof c->scheduler, "bows:gto"); }
static void v_one_sched(SmConfig *c) { c->num_sched = 1; }
static void v_shared_units(SmConfig *c)
{
	c->num_sched = 2;
	c->sub_core = false;
	c->num_int = 0; /* Fermi: integer ops on the SP units */
	c->num_sp = 2;
	v_gto(c);
}
static void v_dual(SmConfig *c)
{
	c->max_insn_issue_per_warp = 2;
	c->dual_issue_diff_exec_units = false;
}
static void v_front_end(SmConfig *c)
{
	c->perfect_icache = false;
	c->inst_fetch_throughput = 1;
	c->reg_file_port_throughput = 1;
	c->oc_units_gen = 4;
	v_glrr(c);
}
static void v_global(SmConfig *c)
{
	c->sigma_global = true;
	v_old(c);
}
static void v_st_insert(SmConfig *c)
{
	c->aware_st_insert = 3; /* under aware: a divergent branch holds the warp */
	c->inst_fetch_throughput = 1; /* while it waits for its refetch */
	v_gto(c);
}
static void v_ctas(SmConfig *c)
{
	c->cta_threads = 32;
	c->max_cta = 2;
	v_gto_rotate(c);
}

static const Variant variants[] = {
	{"lrr", v_lrr},       {"gto", v_gto},           {"old", v_old},
	{"glrr", v_glrr},     {"gto_rotate:7", v_gto_rotate}, {"two_level_active", v_two_level},
	{"bows:gto", v_bows}, {"1 scheduler", v_one_sched}, {"2 schedulers sharing units", v_shared_units},
	{"dual issue", v_dual}, {"I-cache misses, 1 read port", v_front_end}, {"global memory", v_global},
	{"CTAs of 32, 2 resident", v_ctas}, {"AWARE's ST insert", v_st_insert},
};

/* p under every variant, both walks; how many runs were compared. */
static int compare_walks(const char *what, const Program *p, const SemOptions *so)
{
	int n = 0;
	for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
		SmConfig c = config();
		c.progress_window = 2000; /* the spin loops end soon */
		variants[v].set(&c);
		char *fast = run_text(p, &c, so);
		c.walk_every_warp = true;
		char *every = run_text(p, &c, so);
		cr_expect_str_eq(fast, every, "%s, %s: the walk's shortcuts changed the run", what, variants[v].what);
		n += strcmp(fast, "(refused)") != 0 && strcmp(fast, "(not lowered)") != 0;
		free(fast);
		free(every);
	}
	return n;
}

/* Every example under ipdom and aware, and under ipdom again as 64 threads
** in warps of 8 (many get stuck reading cells their data leaves unset:
** a walk in which the machine stops). */
Test(sm_walk, examples_run_as_when_every_warp_is_asked, .init = watchdog_600)
{
	int n = 0, runs = 0;
	char **files = example_files(&n);
	for (int i = 0; i < n; i++) {
		size_t len = 0;
		char *src = read_file(files[i], &len);
		cr_assert(src);
		Diags d;
		diag_init(&d, files[i], src, len);
		Program *p = ir_load(files[i], src, len, &d);
		if (!d.nerrors && !p->has_gsa) {
			SemOptions so = {.max_steps = 20000};
			runs += compare_walks(files[i], p, &so);
			so.model = &model_aware;
			runs += compare_walks(files[i], p, &so);
			so = (SemOptions){.max_steps = 20000, .model = &model_ipdom, .threads = 64, .warpsize = 8};
			runs += compare_walks(files[i], p, &so);
		}
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	free_names(files, n);
	cr_expect_geq(runs, 800, "only %d runs compared", runs);
}

/* Random programs (musimd gen), in warps of 8 and 32: loops, branches,
** memory, atomics. */
Test(sm_walk, random_programs_run_as_when_every_warp_is_asked, .init = watchdog_600)
{
	int runs = 0;
	for (uint64_t seed = 1; seed <= 24; seed++) {
		GenOptions o;
		memset(&o, 0, sizeof o);
		o.seed = seed;
		o.size = 30 + (int32_t)(seed % 4) * 10;
		o.max_depth = 1 + (int32_t)(seed % 3);
		o.nvars = 4 + (int32_t)(seed % 5);
		o.unstructured = seed % 4 == 0;
		Buf b = {0};
		buf_printf(&b, ".threads %d\n.warpsize %d\n", seed % 2 ? 256 : 96, seed % 3 ? 32 : 8);
		gen_program(&b, &o);
		Diags d;
		diag_init(&d, "gen.simd", buf_str(&b), b.len);
		Program *p = ir_load("gen.simd", buf_str(&b), b.len, &d);
		cr_assert(!d.nerrors, "seed %llu: %s", (unsigned long long)seed, buf_str(&b));
		char what[32];
		snprintf(what, sizeof what, "gen seed %llu", (unsigned long long)seed);
		SemOptions so = {.max_steps = 20000};
		runs += compare_walks(what, p, &so);
		ir_free(p);
		diag_free(&d);
		buf_free(&b);
	}
	cr_expect_geq(runs, 250, "only %d runs compared", runs);
}

/* Thread-dependent trip counts (bench/interp/divergent.simd with r = 1):
** a divergent branch whenever a lane leaves the loop, which under aware
** with its ST insert holds the warp while it waits for its refetch. */
Test(sm_walk, divergent_exits_under_aware_run_as_when_every_warp_is_asked, .init = watchdog_120)
{
	Prog t = load(".threads 512\n.warpsize 32\n"
	              "       acc = 0\n       m = tid % 64\n       lim = m * 1\n       i = 0\n"
	              "loop:  p = i < lim\n       bz p, done\n       q = i & 1\n       bz q, odd\n"
	              "       s = i & 2\n       bz s, inner\n       acc = acc + i\n       jump join2\n"
	              "inner: acc = acc + 3\njoin2: sync\n       jump join1\nodd:   acc = acc ^ i\n"
	              "join1: sync\n       i = i + 1\n       jump loop\ndone:  sync\n       mem[tid] = acc\n       stop\n");
	SemOptions so = {.model = &model_aware};
	cr_expect_eq(compare_walks("divergent exits, aware", t.p, &so), (int)(sizeof variants / sizeof *variants));
	so.model = &model_ipdom;
	cr_expect_eq(compare_walks("divergent exits, ipdom", t.p, &so), (int)(sizeof variants / sizeof *variants));
	unload(&t);
}

/* The look ahead at an issue (look_ahead): with one INT unit of initiation
** interval 2 per scheduler, the walk after an issue finds the unit busy
** and its warps' looks were taken at their issues; shared-memory loads
** (another unit) between the integer operations make that walk issue a
** warp before it reaches the one looked at, whose look is undone
** (tent_resolve); unequal trip counts leave warps at a barrier and finish
** them at different times. Every policy, both walks. */
Test(sm_walk, looks_taken_at_issue_run_as_when_every_warp_is_asked, .init = watchdog_120)
{
	Prog t = load(".threads 512\n.warpsize 32\n"
	              "       a = tid\n       mem[tid] = a\n       barrier\n"
	              "       b = tid + 1\n       n = tid % 7\n       n = n + 5\n       i = 0\n"
	              "loop:  a = a + 3\n       b = b ^ a\n       c = mem[i]\n       a = a & 65535\n"
	              "       b = b + c\n       i = i + 1\n       p = i < n\n       bnz p, loop\n"
	              "       sync\n       barrier\n       e = a + b\n       mem[tid] = e\n       stop\n");
	SemOptions so = {0};
	cr_expect_eq(compare_walks("looks taken at issue", t.p, &so), (int)(sizeof variants / sizeof *variants));
	unload(&t);
}
