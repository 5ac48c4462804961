/*
** test_limits.c — issue 16: limits that bound the work (the deadline and
** the thread-instruction budget of the step function, the debugger's
** per-command deadline, the oracle's deadline) and the robustness defects
** of its list (brief "value too large" operands, the memory dump at
** address INT64_MAX, JSON strings of file names that are not UTF-8, the
** empty file's place).
*/
#include <criterion/criterion.h>

#include <limits.h>
#include <signal.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "ir.h"
#include "json.h"
#include "model.h"
#include "num.h"
#include "report.h"
#include "testlib.h"
#include "verify.h"

#define LOOP ".threads 8\n       x = tid\ntop:   x = 1 - x\n       jump top\n"

static Machine *machine(Prog *r, const SemOptions *o)
{
	Machine *m = sem_new(r->p, o, &r->d);
	cr_assert_not_null(m);
	return m;
}

/* A deadline already passed stops the first step, as time-limit, not as a
** failure of the program. */
Test(limits, deadline_passed_stops_the_first_step)
{
	Prog r = load(LOOP);
	SemOptions o = {.deadline = mono_seconds() - 1};
	Machine *m = machine(&r, &o);
	cr_assert_eq(sem_run(m, NULL, NULL), SEM_TIME_LIMIT);
	cr_assert_eq(m->steps, 0);
	cr_assert_str_eq(sem_status_name(m->status), "time-limit");
	cr_assert_str_eq(m->err.rule, "limit");
	cr_assert(strstr(m->err.msg, "--max-time"), "%s", m->err.msg);
	sem_free(m);
	unload(&r);
}

/* A deadline far away changes nothing: the step limit ends the run where it
** would without one (the clock is read between the checks, the limit is
** exact). */
Test(limits, deadline_far_away_keeps_the_step_limit_exact)
{
	Prog r = load(LOOP);
	SemOptions o = {.max_steps = 3 * SEM_CLOCK_STEPS + 7, .deadline = mono_seconds() + 3600};
	Machine *m = machine(&r, &o);
	cr_assert_eq(sem_run(m, NULL, NULL), SEM_LIMIT);
	cr_assert_eq(m->steps, 3 * SEM_CLOCK_STEPS + 7);
	sem_free(m);
	unload(&r);
}

/* The thread-instruction budget: 8 threads, 100 of them stop after 13 steps
** (the step that reaches the budget is made). */
Test(limits, thread_instruction_budget)
{
	Prog r = load(LOOP);
	SemOptions o = {.max_thread_instructions = 100};
	Machine *m = machine(&r, &o);
	cr_assert_eq(sem_run(m, NULL, NULL), SEM_LIMIT);
	cr_assert_eq(m->thread_instructions, 104);
	cr_assert_eq(m->steps, 13);
	cr_assert(strstr(m->err.msg, "--max-thread-instructions"), "%s", m->err.msg);
	sem_free(m);
	/* the default is there without asking */
	SemOptions d = {0};
	m = machine(&r, &d);
	cr_assert_eq(m->opt.max_thread_instructions, SEM_DEFAULT_MAX_THREAD_INSTRUCTIONS);
	sem_free(m);
	unload(&r);
}

/* The debugger's deadline stops a command without failing the machine, and
** the next command goes on from there. */
Test(limits, dbg_deadline_stops_continue_and_keeps_the_state)
{
	Prog r = load(LOOP);
	SemOptions o = {0};
	Dbg *s = dbg_new(r.p, &o, &r.d);
	cr_assert_not_null(s);
	dbg_set_deadline(s, 1e-9);
	DbgStop st = dbg_continue(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_TIME);
	cr_assert_eq(s->m->status, SEM_RUNNING);
	uint64_t at = s->m->steps;
	cr_assert_gt(at, 0);
	dbg_stop_free(&st);
	dbg_set_deadline(s, 1e-9);
	st = dbg_continue(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_TIME);
	cr_assert_gt(s->m->steps, at);
	dbg_stop_free(&st);
	/* without a deadline, continue goes to the step limit */
	dbg_set_deadline(s, 0);
	st = dbg_continue(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_FAILED);
	cr_assert_eq(s->m->status, SEM_LIMIT);
	dbg_stop_free(&st);
	dbg_free(s);
	unload(&r);
}

/* The oracle stops at the deadline and says the verdict is inconclusive;
** it says how far it is before each run. */
static void count_progress(void *ctx, const VerifyProgress *p)
{
	int *n = ctx;
	cr_assert_eq(p->run, *n);
	cr_assert_gt(p->total, p->run);
	(*n)++;
}

Test(limits, verify_deadline_and_progress)
{
	Prog r = load(".threads 2\nx = tid + 1\ny = x * 2\nstop\n");
	AnaOptions ao = {.domain = ANA_POLY, .degree = 2};
	AnaResult *a = ana_run(r.p, &ao);
	int calls = 0;
	VerifyOptions vo = {.max_threads = 3, .progress = count_progress, .progress_ctx = &calls};
	VerifyResult *v = verify_run(r.p, a, &vo, &r.d);
	cr_assert_not_null(v);
	cr_assert(!v->timed_out);
	cr_assert_eq(calls, v->runs);
	cr_assert_eq(calls, 3 * MODEL_COUNT);
	verify_free(v);
	vo.progress = NULL;
	vo.sem.deadline = mono_seconds() - 1;
	v = verify_run(r.p, a, &vo, &r.d);
	cr_assert_not_null(v);
	cr_assert(v->timed_out);
	cr_assert_eq(v->runs, 1, "the runs after the deadline are not made");
	verify_free(v);
	ana_free(a);
	unload(&r);
}

/* Item 2: an operand of a million bits is reported by its size and leading
** digits, not in full. */
Test(limits, value_too_large_message_is_brief)
{
	Prog r = load(".threads 1\nx = 1 << 100000\ny = x * x\nz = y * y\nstop\n");
	SemOptions o = {0};
	uint64_t old = num_max_bits;
	num_max_bits = 300000;
	Machine *m = machine(&r, &o);
	sem_run(m, NULL, NULL);
	num_max_bits = old;
	cr_assert_eq(m->status, SEM_STUCK);
	cr_assert(strstr(m->err.msg, "value too large"), "%s", m->err.msg);
	cr_assert_lt(strlen(m->err.msg), 300, "%zu bytes", strlen(m->err.msg));
	cr_assert(strstr(m->err.msg, "(60206 digits) * "), "%s", m->err.msg);
	sem_free(m);
	unload(&r);
	/* values within int64 are short: always in full */
	Buf b = {0};
	num_buf_brief(&b, NUM_I(-12345), 3);
	cr_assert_str_eq(buf_str(&b), "-12345");
	buf_free(&b);
}

/* Item 3: a cell at INT64_MAX (and its neighbour) in the final state's dump
** (UBSan: signed overflow in the row's next address). */
Test(limits, memory_dump_at_int64_max)
{
	Prog r = load(".threads 1\n.data 9223372036854775806: 5 6\nstop\n");
	SemOptions o = {0};
	Machine *m = machine(&r, &o);
	cr_assert_eq(sem_run(m, NULL, NULL), SEM_OK);
	Buf b = {0};
	report_run_text(&b, m, false, true, true);
	cr_assert(strstr(buf_str(&b), "[9223372036854775806..9223372036854775807] = 5 6"), "%s", buf_str(&b));
	buf_free(&b);
	sem_free(m);
	unload(&r);
}

/* Item 4: bytes that are not UTF-8 in a JSON string come out as escapes
** (Python's surrogateescape), valid UTF-8 as it is. */
Test(limits, json_escapes_bytes_that_are_not_utf8)
{
	Buf b = {0};
	json_escape(&b, "a\xff" "b\xc3\xa9" "\xc3" "x\xed\xa0\x80" "\xf0\x9f\x98\x80" "\xc0\xaf");
	cr_assert_str_eq(buf_str(&b),
	                 "\"a\\udcffb\xc3\xa9\\udcc3x\\udced\\udca0\\udc80\xf0\x9f\x98\x80\\udcc0\\udcaf\"");
	buf_free(&b);
}

/* Item 5: the empty file's error has a line and a column. */
Test(limits, empty_file_error_has_a_place)
{
	Diags d;
	diag_init(&d, "empty.simd", "", 0);
	Program *p = ir_load("empty.simd", "", 0, &d);
	cr_assert_eq(d.nerrors, 1);
	Buf b = {0};
	diag_render(&d, &b);
	cr_assert(!strncmp(buf_str(&b), "empty.simd:1:1: error: the program has no instructions (the file is empty)",
	                   strlen("empty.simd:1:1: error: the program has no instructions (the file is empty)")),
	          "%s", buf_str(&b));
	buf_free(&b);
	if (p)
		ir_free(p);
	diag_free(&d);
}

/* The unit tests' own hang guard (testlib.h: watchdog_N instead of
** Criterion's .timeout): a test that hangs ends by SIGALRM. */
Test(limits, watchdog_ends_a_test_that_hangs, .init = watchdog_1, .signal = SIGALRM)
{
	for (;;)
		pause();
}
