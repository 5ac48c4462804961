/*
** test_report.c — the output writers: JSON sets of threads as ranges
** (src/json.c), the text columns of traces, grids and profiles
** (src/report.c).
*/
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "testlib.h"

static char *ranges(const uint64_t *set, int32_t n, int64_t base)
{
	Buf b = {0};
	Json j;
	json_init(&j, &b);
	j.depth = 2; /* a nested value: no line breaks */
	json_ranges(&j, set, n, base);
	return buf_steal(&b);
}

static void expect_ranges(const uint64_t *set, int32_t n, int64_t base, const char *want)
{
	char *got = ranges(set, n, base);
	cr_expect_str_eq(got, want);
	free(got);
}

Test(json, ranges)
{
	uint64_t none[2] = {0, 0};
	expect_ranges(none, 128, 0, "[]");
	uint64_t all[2] = {~0ull, ~0ull};
	expect_ranges(all, 128, 0, "[[0, 127]]");
	expect_ranges(all, 100, 0, "[[0, 99]]"); /* bits past n do not count */
	expect_ranges(all, 1, 7, "[[7, 7]]");
	uint64_t some[1] = {0x27}; /* {0,1,2,5} */
	expect_ranges(some, 8, 0, "[[0, 2], [5, 5]]");
	expect_ranges(some, 8, 1024, "[[1024, 1026], [1029, 1029]]");
	/* runs across a word boundary, and ending on one */
	uint64_t cross[3] = {1ull << 63, 1, ~0ull};
	expect_ranges(cross, 192, 0, "[[63, 64], [128, 191]]");
	uint64_t alt[1] = {0x5555555555555555ull};
	char *s = ranges(alt, 64, 0);
	cr_expect(!strncmp(s, "[[0, 0], [2, 2], [4, 4], ", 25), "%s", s);
	cr_expect(strstr(s, ", [62, 62]]") && s[strlen(s) - 1] == ']', "%s", s);
	free(s);
}

/* Thousands of ranges (the local chunk is written out as it fills). */
Test(json, many_ranges)
{
	int32_t n = 1 << 16;
	uint64_t *set = calloc((size_t)n / 64, sizeof *set);
	for (int32_t l = 0; l < n; l += 2)
		set[l >> 6] |= 1ull << (l & 63);
	char *s = ranges(set, n, 0);
	Buf want = {0};
	buf_putc(&want, '[');
	for (int32_t l = 0; l < n; l += 2)
		buf_printf(&want, "%s[%d, %d]", l ? ", " : "", l, l);
	buf_putc(&want, ']');
	cr_expect_str_eq(s, buf_str(&want));
	buf_free(&want);
	free(s);
	free(set);
}

Test(json, integers)
{
	Buf b = {0};
	Json j;
	json_init(&j, &b);
	json_arr(&j);
	static const int64_t v[] = {0, 9, 10, 99, 100, -1, -100, 1234567, INT64_MAX, INT64_MIN};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		json_int(&j, v[i]);
	json_arr_end(&j);
	cr_expect_str_eq(buf_str(&b), "[\n  0,\n  9,\n  10,\n  99,\n  100,\n  -1,\n  -100,\n  1234567,\n"
	                              "  9223372036854775807,\n  -9223372036854775808\n]\n");
	buf_free(&b);
}

/* ---- text columns ------------------------------------------------------ */

typedef struct Lines {
	ReportCols cols;
	uint64_t from, to; /* the steps captured */
	char *trace[8], *grid[8];
	Rule rule[8];
	int n;
} Lines;

static void capture(void *ctx, const Machine *m, const StepInfo *s)
{
	Lines *l = ctx;
	if (s->step < l->from || s->step > l->to || l->n == 8)
		return;
	Buf b = {0};
	report_trace_line(&b, &l->cols, m, s);
	l->trace[l->n] = buf_steal(&b);
	report_grid_row(&b, &l->cols, m, s);
	l->grid[l->n] = buf_steal(&b);
	l->rule[l->n++] = s->rule;
}

/* Where the column after the step number starts (the label). */
static int after_step(const char *s)
{
	int i = 0;
	while (s[i] == ' ')
		i++;
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	while (s[i] == ' ')
		i++;
	return i;
}

/* The display column where needle starts in s, or -1. */
static int col_of(const char *s, const char *needle)
{
	const char *at = strstr(s, needle);
	return at ? (int)utf8_width(s, (size_t)(at - s)) : -1;
}

/* Steps 99998..100002 of a loop with long labels, laid out as run does
** with its default limits: the rule column and the grid's thread columns
** stay put across the step numbers' fifth and sixth digit and whatever
** the label. */
Test(report, columns_do_not_overflow)
{
	Prog r = load(".threads 4\n"
	              ".param n = 30000\n"
	              "                i = 0\n"
	              "loop_header:    p = i < n\n"
	              "loop_exit_test: bz p, loop_exit_point\n"
	              "                i = i + 1\n"
	              "                jump loop_header\n"
	              "loop_exit_point: sync\n"
	              "                stop\n");
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	SemOptions so = {0};
	Machine *m = sem_new(r.p, &so, &d);
	cr_assert_not_null(m);
	Lines l = {.from = 99998, .to = 100003};
	report_cols(&l.cols, m, 100000); /* run: the trace limit bounds the steps shown */
	sem_run(m, capture, &l);
	cr_assert_eq(l.n, 6);
	int rule_col = -1, tick_col = -1, label_col = after_step(l.trace[0]);
	for (int i = 0; i < l.n; i++) {
		char rule[8];
		snprintf(rule, sizeof rule, " %s ", sem_rule_name(l.rule[i]));
		int c = col_of(l.trace[i], rule);
		cr_assert(c > 0, "%s", l.trace[i]);
		if (rule_col < 0)
			rule_col = c;
		cr_expect_eq(c, rule_col, "rule column moved:\n%s\n%s", l.trace[0], l.trace[i]);
		int t = col_of(l.grid[i], "✓");
		if (tick_col < 0)
			tick_col = t;
		cr_expect_eq(t, tick_col, "grid columns moved:\n%s\n%s", l.grid[0], l.grid[i]);
		cr_expect_eq(after_step(l.trace[i]), label_col, "label column moved:\n%s\n%s", l.trace[0], l.trace[i]);
		cr_expect_eq(after_step(l.grid[i]), label_col, "label column moved:\n%s\n%s", l.trace[0], l.grid[i]);
	}
	cr_expect(strstr(l.trace[1], " 99999  ") && strstr(l.trace[2], "100000  "), "%s%s", l.trace[1], l.trace[2]);
	for (int i = 0; i < l.n; i++) {
		free(l.trace[i]);
		free(l.grid[i]);
	}
	sem_free(m);
	diag_free(&d);
	unload(&r);
}
