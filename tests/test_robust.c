/*
** test_robust.c — hostile inputs (issue 9, item 9): diagnostics sorted in
** O(n log n) and capped with their notes, labels defined many times, and
** memory accounted as it is allocated so that --max-memory stops a run at
** once.
*/
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "dbg.h"
#include "testlib.h"

/* ---- diagnostics ------------------------------------------------------------------ */

/* 200 000 warnings in reverse order, each with a note: an insertion sort
** takes minutes, the sort must take well under a second. Ties keep their
** order, and every note stays after its warning. */
Test(robust, diag_sort_is_n_log_n, .init = watchdog_20)
{
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	enum { N = 200000 };
	for (int i = N; i > 0; i--) {
		diag_warning(&d, ((Loc){i / 2 + 1, 0, 0}), "w%d", i);
		diag_note(&d, ((Loc){1, 0, 0}), "n%d", i);
	}
	diag_sort(&d);
	cr_assert_eq(d.n, 2 * N);
	for (int k = 0; k < N; k++) {
		const Diag *w = &d.v[2 * k], *n = &d.v[2 * k + 1];
		cr_assert_eq(w->sev, SEV_WARNING);
		cr_assert_eq(n->sev, SEV_NOTE);
		cr_assert_str_eq(n->msg + 1, w->msg + 1, "note %s after %s", n->msg, w->msg);
		if (k > 0) {
			const Diag *prev = &d.v[2 * k - 2];
			cr_assert_leq(prev->loc.line, w->loc.line);
			/* equal lines: the order they were added in (w(2j+1) before w(2j)) */
			if (prev->loc.line == w->loc.line)
				cr_assert_gt(atoi(prev->msg + 1), atoi(w->msg + 1));
		}
	}
	diag_free(&d);
}

/* Past max_errors an error is counted, not kept, and so are its notes. */
Test(robust, notes_go_with_dropped_errors)
{
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	d.max_errors = 2;
	for (int i = 0; i < 10; i++) {
		diag_error(&d, ((Loc){i + 1, 0, 0}), "e%d", i);
		diag_note(&d, ((Loc){1, 0, 0}), "note of e%d", i);
	}
	diag_warning(&d, ((Loc){20, 0, 0}), "a warning");
	diag_note(&d, ((Loc){1, 0, 0}), "note of the warning");
	cr_assert_eq(d.nerrors, 10);
	cr_assert_eq(d.n, 6, "2 errors + 2 notes + the warning and its note, got %d", d.n);
	cr_assert_str_eq(d.v[5].msg, "note of the warning");
	Buf b = {0};
	diag_render(&d, &b);
	cr_assert(strstr(buf_str(&b), "too many errors; 8 more not shown"), "%s", buf_str(&b));
	buf_free(&b);
	diag_free(&d);
}

/* A label defined 40 000 times: one error, the first definition, three
** more, and a count; 100 errors at most for other programs, notes included. */
Test(robust, duplicate_labels_capped)
{
	Buf src = {0};
	buf_puts(&src, ".threads 2\n");
	for (int i = 0; i < 40000; i++)
		buf_puts(&src, "l: x = 1\n");
	buf_puts(&src, "stop\n");
	Diags d;
	diag_init(&d, "t.simd", src.s, src.len);
	d.max_errors = 100;
	Program *p = ir_load("t.simd", src.s, src.len, &d);
	cr_assert_eq(d.nerrors, 1);
	cr_assert_eq(d.n, 6, "%d diagnostics", d.n);
	cr_assert_str_eq(d.v[0].msg, "duplicate label 'l' (defined 40000 times)");
	cr_assert_eq(d.v[0].loc.line, 3);
	cr_assert_str_eq(d.v[1].msg, "'l' first defined here");
	cr_assert_eq(d.v[1].loc.line, 2);
	for (int k = 2; k < 5; k++) {
		cr_assert_str_eq(d.v[k].msg, "'l' defined again here");
		cr_assert_eq(d.v[k].loc.line, k + 2);
	}
	cr_assert_str_eq(d.v[5].msg, "... and 39995 more definitions of 'l'");
	ir_free(p);
	diag_free(&d);

	/* 40 000 labels defined twice: 100 errors, each with its one note */
	buf_reset(&src);
	for (int i = 0; i < 40000; i++)
		buf_printf(&src, "a%d: x = 1\na%d: x = 2\n", i, i);
	buf_puts(&src, "stop\n");
	diag_init(&d, "t.simd", src.s, src.len);
	d.max_errors = 100;
	p = ir_load("t.simd", src.s, src.len, &d);
	cr_assert_eq(d.nerrors, 40000);
	cr_assert_eq(d.n, 200, "%d diagnostics kept", d.n);
	cr_assert_str_eq(d.v[0].msg, "duplicate label 'a0'");
	cr_assert_eq(d.v[0].loc.line, 2);
	cr_assert_str_eq(d.v[1].msg, "'a0' first defined here");
	ir_free(p);
	diag_free(&d);
	buf_free(&src);
}

/* ---- memory accounting ------------------------------------------------------------ */

static Machine *machine(const Prog *r, int32_t threads, uint64_t max_mib, Diags *d)
{
	SemOptions o = {0};
	o.threads = threads;
	o.max_memory = max_mib << 20;
	diag_init(d, "t.simd", NULL, 0);
	return sem_new(r->p, &o, d);
}

/* Run src (loaded into *r) with `threads` threads and a limit of max_mib
** MiB: it must stop at the memory limit, within it. The machine is left
** for more checks (sem_free it, unload *r). */
static Machine *run_to_memory_limit(Prog *r, const char *src, int32_t threads, uint64_t max_mib)
{
	*r = load(src);
	Diags d;
	Machine *m = machine(r, threads, max_mib, &d);
	cr_assert(m);
	diag_free(&d);
	sem_run(m, NULL, NULL);
	cr_assert_eq(m->status, SEM_STUCK, "status %s", sem_status_name(m->status));
	cr_assert_str_eq(m->err.rule, "limit", "%s", m->err.msg);
	cr_assert(strstr(m->err.msg, "memory limit"), "%s", m->err.msg);
	cr_assert_leq(sem_bytes(m), max_mib << 20, "%llu bytes counted", (unsigned long long)sem_bytes(m));
	return m;
}

/* One cell per 256-cell page: each store pays a page (about 2 KiB), so 1 MiB
** is reached within a few hundred pages, not 116 000 (9 bytes a cell). */
Test(robust, sparse_stores_pay_their_pages)
{
	Prog r;
	Machine *m = run_to_memory_limit(&r,
	                                 "i = 0\n"
	                                 "l1: a = i * 8192\n"
	                                 "a = a + tid\n"
	                                 "a = a * 256\n"
	                                 "mem[a] = i\n"
	                                 "i = i + 1\n"
	                                 "jump l1\n",
	                                 32, 1);
	cr_assert_lt(m->cells, 1000, "%llu cells before the limit", (unsigned long long)m->cells);
	sem_free(m);
	unload(&r);
}

/* Values beyond int64 in every lane: the instruction that would allocate
** past the limit stops before it changes anything (not after the step). */
Test(robust, big_values_stop_before_the_limit)
{
	Prog r;
	Machine *m = run_to_memory_limit(&r, "x = 1 << 62\nl1: x = x * x\njump l1\n", 1000, 4);
	cr_assert_eq(m->warps[0].pc, 1, "stopped at the multiplication");
	sem_free(m);
	unload(&r);
}

/* Race reports accumulate in a loop: they count too. */
Test(robust, race_reports_count)
{
	Prog r;
	Machine *m = run_to_memory_limit(&r, "l0: mem[0] = tid\njump l0\n", 64, 1);
	cr_assert_gt(m->nraces, 100);
	sem_free(m);
	unload(&r);
}

/* A parameter beyond int64 is copied per thread, a .fill value per cell:
** the initial state is refused before anything is allocated. */
Test(robust, initial_state_counts_params_and_memory)
{
	Buf src = {0};
	buf_puts(&src, ".param p = 1");
	for (int i = 0; i < 30000; i++) /* about 10^5 bits */
		buf_putc(&src, '0');
	buf_puts(&src, "\nx = p\nstop\n");
	Prog r = load(buf_str(&src));
	Diags d;
	cr_assert_null(machine(&r, 10000, 64, &d)); /* 10^4 copies of 12 KiB */
	cr_assert_eq(d.nerrors, 1);
	cr_assert(strstr(d.v[0].msg, "parameters beyond int64: 1"), "%s", d.v[0].msg);
	cr_assert(strstr(d.v[0].msg, "--max-memory"), "%s", d.v[0].msg);
	diag_free(&d);
	Machine *m = machine(&r, 1000, 64, &d); /* 1000 copies fit */
	cr_assert(m);
	sem_free(m);
	diag_free(&d);
	unload(&r);

	buf_reset(&src);
	buf_puts(&src, ".fill 0 10000 1");
	for (int i = 0; i < 30000; i++)
		buf_putc(&src, '0');
	buf_puts(&src, "\nstop\n");
	r = load(buf_str(&src));
	cr_assert_null(machine(&r, 4, 64, &d));
	cr_assert(strstr(d.v[0].msg, "initial memory: 1"), "%s", d.v[0].msg);
	diag_free(&d);
	unload(&r);
	buf_free(&src);
}

/* A session with 64 MiB over two threads that loop `iters` times beside
** `cells` initialised cells. */
static Dbg *fill_session(Prog *r, int cells, int iters, Diags *d)
{
	char src[256];
	snprintf(src, sizeof src,
	         ".threads 2\n.fill 0 %d 7\ni = 0\nl1: i = i + 1\np = i < %d\nbnz p, l1\nsync\n"
	         "mem[tid] = i\nstop\n",
	         cells, iters);
	*r = load(src);
	SemOptions o = {0};
	o.max_memory = (uint64_t)64 << 20;
	diag_init(d, "t.simd", NULL, 0);
	Dbg *s = dbg_new(r->p, &o, d);
	cr_assert(s);
	return s;
}

/* A REPL session over a big initial memory: the checkpoints are charged to
** the budget and thinned, so the session stays within it however long it
** runs (65 copies of 16 MiB before), and going back still works. */
Test(robust, checkpoints_within_the_budget)
{
	Prog r;
	Diags d;
	Dbg *s = fill_session(&r, 2000000, 20000, &d);
	cr_assert(s->ck[0], "the initial copy fits");
	DbgStop st = dbg_continue(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_END, "%s", s->m->err.msg ? s->m->err.msg : "");
	uint64_t end = s->m->steps;
	cr_assert_gt(end, 50000);
	cr_assert_leq(sem_bytes(s->m) + s->m->outside_bytes, s->m->opt.max_memory);
	cr_assert_eq(s->m->outside_bytes, s->ckbytes + (uint64_t)s->caphist * sizeof *s->hist);
	cr_assert_lt(s->nck, 4, "%d checkpoints of 16 MiB in 64 MiB", s->nck);
	dbg_goto(s, 1234, NULL, NULL);
	cr_assert_eq(s->m->steps, 1234);
	Num v;
	cr_assert(sem_get(s->m, ir_find_var(r.p, "i"), 0, &v));
	dbg_goto(s, end, NULL, NULL);
	cr_assert_eq(s->m->status, SEM_OK);
	dbg_free(s);
	diag_free(&d);
	unload(&r);
}

/* When even the copy of the initial state does not fit, it is built again
** whenever the session needs it. */
Test(robust, initial_state_rebuilt_when_its_copy_does_not_fit)
{
	Prog r;
	Diags d;
	Dbg *s = fill_session(&r, 5000000, 300, &d);
	cr_assert_null(s->ck[0], "a 41 MiB state has no room for its copy in 64 MiB");
	DbgStop st = dbg_continue(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_END);
	uint64_t end = s->m->steps;
	dbg_back(s, 100);
	cr_assert_eq(s->m->steps, end - 100);
	Num v;
	cr_assert(mem_get(&s->m->shared, 4999999, &v));
	cr_assert_eq(v.i, 7);
	dbg_restart(s);
	cr_assert_eq(s->m->steps, 0);
	cr_assert(mem_get(&s->m->shared, 0, &v));
	dbg_free(s);
	diag_free(&d);
	unload(&r);
}
