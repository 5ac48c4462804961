/*
** test_promela.c — the Promela export (src/promela.c, promela.h).
**
** What the model holds: Σ as an array over exactly the cells the interval
** analysis of the addresses bounds (masks, remainders, tid, parameters,
** loop counters bounded by the comparison their branch tests, values an
** outer loop changes, negative addresses checked as stuck), the assigned
** flags only where a read may find a variable unassigned, the initialised
** flags only where a read may find a cell uninitialised, a run-time check
** only where the operands' bounds do not settle it; and the errors: a
** literal or parameter outside int32, addresses that cannot be bounded
** (at the access), more threads than SPIN's processes, a --param naming
** no parameter. Every example exports or is refused with a diagnostic.
** SPIN's verdicts on the models are tests/promela_spin.py's.
*/
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "promela.h"
#include "testlib.h"

typedef struct Export {
	PmlStatus st;
	char *model;
	Diags d;
	const char *src; /* the program (for the columns of d) */
} Export;

static Export export_opts(const char *src, const SemOptions *o)
{
	Prog r = load(src);
	Export e;
	Buf b = {0};
	diag_init(&e.d, "t.simd", NULL, 0);
	e.st = promela_emit(&b, r.p, o, &e.d);
	e.model = buf_steal(&b);
	e.src = src;
	unload(&r);
	return e;
}

static Export export(const char *src)
{
	SemOptions o = {0};
	return export_opts(src, &o);
}

static void drop(Export *e)
{
	free(e->model);
	diag_free(&e->d);
}

static bool has(const Export *e, const char *text)
{
	return strstr(e->model, text) != NULL;
}

/* The model holds Σ[lo..hi]. */
static void assert_sigma(const Export *e, long lo, long hi)
{
	char want[128];
	snprintf(want, sizeof want, "int sigma[%ld];", hi - lo + 1);
	cr_assert(has(e, want), "want %s in:\n%s", want, e->model);
	snprintf(want, sizeof want, "/* Σ[%ld..%ld]", lo, hi);
	cr_assert(has(e, want), "want %s in:\n%s", want, e->model);
}

Test(promela, mask_bounds_the_addresses)
{
	Export e = export(".threads 2\n.memory zero\n"
	                  "x = tid * 1000\nad = x & 31\nad = ad + 8\nmem[ad] = 1\nstop\n");
	cr_assert_eq(e.st, PML_OK);
	assert_sigma(&e, 8, 39);
	cr_assert(!has(&e, "sigma_ok"), ".memory zero needs no initialised flags");
	drop(&e);
}

Test(promela, loop_counter_bounded_by_its_branch)
{
	/* i < 10 on the edge into the body: i in 0..9 there, whatever widening
	** made of the header */
	Export e = export(".threads 2\n.memory zero\n"
	                  "       i = tid\n"
	                  "loop:  p = i < 10\n"
	                  "       bz p, out\n"
	                  "       mem[i] = 1\n"
	                  "       i = i + 2\n"
	                  "       jump loop\n"
	                  "out:   stop\n");
	cr_assert_eq(e.st, PML_OK);
	assert_sigma(&e, 0, 9);
	drop(&e);
}

Test(promela, outer_loop_value_keeps_its_bounds_inside)
{
	/* k takes 2 and 4 in the outer loop; the inner loop does not change
	** it, and the address tid ^ j stays below 4 (bitonic.simd's shape) */
	Export e = export(".threads 4\n.data 0: 4 3 2 1\n"
	                  "       k = 2\n"
	                  "kloop: pk = k <= 4\n"
	                  "       bz pk, kdone\n"
	                  "       j = k / 2\n"
	                  "jloop: pj = j > 0\n"
	                  "       bz pj, jdone\n"
	                  "       x = tid ^ j\n"
	                  "       a = mem[x]\n"
	                  "       j = j / 2\n"
	                  "       jump jloop\n"
	                  "jdone: k = k * 2\n"
	                  "       jump kloop\n"
	                  "kdone: stop\n");
	cr_assert_eq(e.st, PML_OK);
	assert_sigma(&e, 0, 3);
	cr_assert(!has(&e, "sigma_ok"), "every cell is initialised: no flags");
	drop(&e);
}

Test(promela, comparison_that_overwrites_its_operand_refines_nothing)
{
	/* p = p > 50 tests the old p: the new one (0 or 1) is not above 50 */
	Export e = export(".threads 1\n.memory zero\n"
	                  "      p = 100\n"
	                  "      p = p > 50\n"
	                  "      bz p, out\n"
	                  "      mem[p] = 1\n"
	                  "out:  stop\n");
	cr_assert_eq(e.st, PML_OK);
	assert_sigma(&e, 1, 1);
	drop(&e);
}

Test(promela, negative_address_is_a_stuck_step)
{
	Export e = export(".threads 2\n.memory zero\nad = tid - 1\nmem[ad] = 1\nstop\n");
	cr_assert_eq(e.st, PML_OK);
	assert_sigma(&e, 0, 0);
	cr_assert(has(&e, "require(v_ad >= 0) /* ST: negative address */"), "%s", e.model);
	drop(&e);
}

Test(promela, unbounded_address_is_refused_at_the_access)
{
	Export e = export(".threads 2\n.memory zero\n"
	                  "       i = 0\n"
	                  "loop:  mem[i] = 1\n"
	                  "       i = i + 1\n"
	                  "       jump loop\n");
	cr_assert_eq(e.st, PML_UNEXPORTABLE);
	cr_assert_geq(e.d.nerrors, 1);
	cr_assert_eq(e.d.v[0].loc.line, 4);
	cr_assert_eq(diag_col(e.src, strlen(e.src), e.d.v[0].loc.off), 12, "the caret on the address operand");
	cr_assert(strstr(e.d.v[0].msg, "cannot bound the shared addresses"), "%s", e.d.v[0].msg);
	cr_assert_str_empty(e.model);
	drop(&e);
}

Test(promela, literal_outside_int32)
{
	Export e = export(".threads 2\nx = tid + 2147483648\nstop\n");
	cr_assert_eq(e.st, PML_UNEXPORTABLE);
	cr_assert_eq(e.d.nerrors, 1);
	cr_assert_eq(e.d.v[0].loc.line, 2);
	cr_assert_eq(diag_col(e.src, strlen(e.src), e.d.v[0].loc.off), 11);
	cr_assert(strstr(e.d.v[0].msg, "2147483648 is outside int32"), "%s", e.d.v[0].msg);
	drop(&e);
	/* the extremes of int32 are fine */
	e = export(".threads 2\nx = tid + 2147483647\ny = -2147483648\nstop\n");
	cr_assert_eq(e.st, PML_OK);
	cr_assert(has(&e, "v_y = INT32_MIN"), "%s", e.model);
	drop(&e);
}

Test(promela, parameter_outside_int32_only_when_read)
{
	Export e = export(".threads 2\n.param big = 5000000000\nx = tid\nstop\n");
	cr_assert_eq(e.st, PML_OK, "an unread parameter does not matter");
	drop(&e);
	e = export(".threads 2\n.param big = 5000000000\nx = tid + big\nstop\n");
	cr_assert_eq(e.st, PML_UNEXPORTABLE);
	cr_assert_eq(e.d.v[0].loc.line, 2, "at the declaration");
	drop(&e);
}

Test(promela, threads_and_settings)
{
	SemOptions o = {.threads = PML_MAX_THREADS};
	Export e = export_opts("x = tid\nstop\n", &o);
	cr_assert_eq(e.st, PML_OK);
	cr_assert(has(&e, "run thread(253)"));
	drop(&e);
	o.threads = PML_MAX_THREADS + 1;
	e = export_opts("x = tid\nstop\n", &o);
	cr_assert_eq(e.st, PML_UNEXPORTABLE);
	cr_assert(strstr(e.d.v[0].msg, "at most 254 threads"), "%s", e.d.v[0].msg);
	drop(&e);
	ParamSetting ps = {"nosuch", NUM_I(1)};
	SemOptions q = {.params = &ps, .nparams = 1};
	e = export_opts("x = tid\nstop\n", &q);
	cr_assert_eq(e.st, PML_SETTINGS);
	drop(&e);
}

Test(promela, assigned_flags_only_where_a_read_may_find_none)
{
	/* x is assigned before every read; y only on one side of the branch */
	Export e = export(".threads 2\n"
	                  "       x = tid\n"
	                  "       bz x, skip\n"
	                  "       y = 1\n"
	                  "skip:  z = y + x\n"
	                  "       stop\n");
	cr_assert_eq(e.st, PML_OK);
	cr_assert(has(&e, "bit d_y;"), "%s", e.model);
	cr_assert(has(&e, "require(d_y)"), "%s", e.model);
	cr_assert(!has(&e, "d_x"), "%s", e.model);
	drop(&e);
}

Test(promela, checks_only_where_the_bounds_leave_them_open)
{
	Export e = export(".threads 4\n.param n = 3\n"
	                  "a = tid * 10\n"      /* bounded: no check */
	                  "b = a * a\n"         /* a variable: checked */
	                  "c = b / n\n"         /* n is 3: no zero check, no overflow */
	                  "d = b % tid\n"       /* tid may be 0: checked */
	                  "e = b >> 2\n"        /* a small constant count */
	                  "stop\n");
	cr_assert_eq(e.st, PML_OK);
	cr_assert(has(&e, "v_a = tid * 10;"), "%s", e.model);
	cr_assert(has(&e, "fits_int32(MUL_OK(v_a, v_a))"), "%s", e.model);
	cr_assert(has(&e, "v_c = v_b / 3 };") || has(&e, "v_c = v_b / 3;"), "%s", e.model);
	cr_assert(has(&e, "require(tid != 0) /* BP: division by zero */"), "%s", e.model);
	cr_assert(has(&e, "v_e = v_b >> 2"), "%s", e.model);
	drop(&e);
}

Test(promela, strict_memory_flags_only_where_needed)
{
	/* Σ[0] initialised, Σ[1] not: the load of Σ[tid] checks, the atomic on
	** Σ[0] does not */
	Export e = export(".threads 2\n.data 0: 5\n"
	                  "x = mem[tid]\n"
	                  "y = atominc(0)\n"
	                  "stop\n");
	cr_assert_eq(e.st, PML_OK);
	cr_assert(has(&e, "require(sigma_ok[tid]) /* MM: uninitialised */; v_x = sigma[tid]"), "%s", e.model);
	cr_assert(has(&e, "atomic { fits_int32(sigma[0] != INT32_MAX)"), "%s", e.model);
	cr_assert(has(&e, "sigma[0] = 5; sigma_ok[0] = 1"), "%s", e.model);
	drop(&e);
}

Test(promela, every_example_exports_or_says_why)
{
	int n;
	char **files = example_files(&n);
	int ok = 0;
	for (int i = 0; i < n; i++) {
		size_t len;
		char *src = read_file(files[i], &len);
		cr_assert(src != NULL);
		Diags d;
		diag_init(&d, files[i], src, len);
		Program *p = ir_load(files[i], src, len, &d);
		cr_assert_eq(d.nerrors, 0, "%s", files[i]);
		Buf b = {0};
		SemOptions o = {0};
		PmlStatus st = promela_emit(&b, p, &o, &d);
		if (st == PML_OK) {
			ok++;
			cr_assert(strstr(buf_str(&b), "ltl terminates { <> (nfin == NT) }"), "%s", files[i]);
		} else {
			cr_assert_eq(st, PML_UNEXPORTABLE, "%s", files[i]);
			cr_assert_gt(d.nerrors, 0, "%s: refused without a diagnostic", files[i]);
		}
		buf_free(&b);
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	cr_assert_geq(ok, n - 3, "only %d of %d examples export", ok, n);
	free_names(files, n);
}
