/*
** testlib.c — shared helpers of the unit tests (testlib.h).
*/
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "testlib.h"

Prog load(const char *src)
{
	Prog r;
	size_t n = strlen(src);
	r.src = xstrdup(src);
	diag_init(&r.d, "t.simd", r.src, n);
	r.p = ir_load("t.simd", r.src, n, &r.d);
	if (r.d.nerrors > 0 || !r.p->cfg) {
		Buf b = {0};
		diag_render(&r.d, &b);
		cr_assert_fail("program does not load:\n%s\n%s", src, buf_str(&b));
	}
	r.g = r.p->cfg;
	return r;
}

void unload(Prog *r)
{
	/* ir_free also frees the Cfg ir_load attached (the Program owns it) */
	ir_free(r->p);
	diag_free(&r->d);
	free(r->src);
}
