/*
** smlib.h — what the SM model's test files share: a QV100-like
** configuration with the latencies the expectations of sm-model.md §6
** name, set explicitly, and running a program on it.
*/
#ifndef MUSIMD_SMLIB_H
#define MUSIMD_SMLIB_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "sm/sm.h"
#include "testlib.h"

/* A QV100-like SM with the latencies the expectations name. */
static inline SmConfig config(void)
{
	SmConfig c;
	sm_config_default(&c);
	c.num_sched = 4;
	c.sub_core = true;
	c.num_int = 4;
	c.num_sfu = 4;
	c.max_insn_issue_per_warp = 1;
	int lat[SM_NOPCLASS] = {4, 13, 4, 5, 145, 21}, ii[SM_NOPCLASS] = {2, 2, 2, 2, 8, 4};
	memcpy(c.lat_int, lat, sizeof lat);
	memcpy(c.ii_int, ii, sizeof ii);
	c.smem_latency = 20;
	c.stage_overhead = 0;
	c.deadlock_detect = true;
	c.progress_window = 100000;
	c.max_cycle = 0;
	c.max_insn = 0;
	snprintf(c.scheduler, sizeof c.scheduler, "lrr");
	snprintf(c.reconvergence, sizeof c.reconvergence, "ipdom");
	c.taken_first = false;
	return c;
}

typedef struct Sim {
	Prog t;
	SmCode *code;
	SmResult *r;
} Sim;

static inline Sim sim(const char *src, const SmConfig *c, const SemOptions *so)
{
	Sim x = {.t = load(src)};
	Diags d;
	diag_init(&d, "t.simd", x.t.src, strlen(x.t.src));
	x.code = lower(x.t.p, &d);
	cr_assert(x.code, "lower failed");
	SemOptions o = so ? *so : (SemOptions){0};
	x.r = sm_run(x.code, c, &o, &d);
	if (!x.r) {
		Buf b = {0};
		diag_render(&d, &b);
		cr_assert_fail("sm_run failed: %s", buf_str(&b));
	}
	diag_free(&d);
	return x;
}

static inline void done(Sim *x)
{
	sm_result_free(x->r);
	lower_free(x->code);
	unload(&x->t);
}

/* N adds, dependent (each reads the previous) or independent (each reads
** tid), in one warp of 32, then stop. */
static inline char *adds(int n, bool dependent, int threads)
{
	Buf b = {0};
	buf_printf(&b, ".threads %d\n       x = tid\n", threads);
	for (int i = 0; i < n; i++)
		buf_printf(&b, dependent ? "       x = x + 1\n" : "       y%d = tid + 1\n", i);
	buf_puts(&b, "       stop\n");
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

static inline uint64_t cycles_of(const char *src, const SmConfig *c)
{
	Sim x = sim(src, c, NULL);
	cr_assert_eq(x.r->status, SM_OK, "status %s", sm_status_name(x.r->status));
	uint64_t n = x.r->cycles;
	done(&x);
	return n;
}

/* src on c is refused: sm_run gives no result, and its diagnostics say
** `says`. */
static inline void expect_refused(const char *src, const SmConfig *c, const char *says)
{
	Prog t = load(src);
	Diags d;
	diag_init(&d, "t.simd", t.src, strlen(t.src));
	SmCode *code = lower(t.p, &d);
	cr_assert(code);
	SmResult *r = sm_run(code, c, &(SemOptions){0}, &d);
	cr_expect_null(r);
	Buf b = {0};
	diag_render(&d, &b);
	cr_expect(strstr(buf_str(&b), says), "%s", buf_str(&b));
	buf_free(&b);
	sm_result_free(r);
	diag_free(&d);
	lower_free(code);
	unload(&t);
}

#endif
