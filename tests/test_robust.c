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
Test(robust, diag_sort_is_n_log_n, .timeout = 20)
{
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	enum { N = 200000 };
	for (int i = N; i > 0; i--) {
		diag_warning(&d, ((Loc){i / 2 + 1, 1, 0, 0}), "w%d", i);
		diag_note(&d, ((Loc){1, 1, 0, 0}), "n%d", i);
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
		diag_error(&d, ((Loc){i + 1, 1, 0, 0}), "e%d", i);
		diag_note(&d, ((Loc){1, 1, 0, 0}), "note of e%d", i);
	}
	diag_warning(&d, ((Loc){20, 1, 0, 0}), "a warning");
	diag_note(&d, ((Loc){1, 1, 0, 0}), "note of the warning");
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
