/*
** testlib.c — shared helpers of the unit tests (testlib.h).
*/
#include <criterion/criterion.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "mem.h"
#include "sem.h"
#include "xform/xform.h"

#define WATCHDOG_DEF(n) \
	void watchdog_##n(void) \
	{ \
		alarm(n); \
	}
WATCHDOGS(WATCHDOG_DEF)

/* Load the text src (owned by the result) named path; the test fails with
** the diagnostics when it has errors. */
static Prog load_named(const char *path, char *src, size_t n)
{
	Prog r;
	r.src = src;
	diag_init(&r.d, path, r.src, n);
	r.p = ir_load(path, r.src, n, &r.d);
	if (r.d.nerrors > 0 || !r.p->cfg) {
		Buf b = {0};
		diag_render(&r.d, &b);
		cr_assert_fail("%s does not load:\n%s\n%s", path, src, buf_str(&b));
	}
	r.g = r.p->cfg;
	return r;
}

Prog load(const char *src)
{
	return load_named("t.simd", xstrdup(src), strlen(src));
}

Prog load_path(const char *path)
{
	size_t n = 0;
	char *src = read_file(path, &n);
	cr_assert_not_null(src, "cannot read %s", path);
	return load_named(path, src, n);
}

Program *inline_calls(Program *p)
{
	if (!p->has_calls)
		return p;
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	int32_t n = 0, *origin = NULL;
	Program *q = xform_inline(p, &n, &origin, &d);
	cr_assert(q && d.nerrors == 0, "%s: the calls do not inline", p->path);
	free(origin);
	diag_free(&d);
	ir_free(p);
	return q;
}

bool example_has_calls(const char *path)
{
	size_t len = 0;
	char *src = read_file(path, &len);
	cr_assert_not_null(src, "%s", path);
	Diags d;
	diag_init(&d, path, src, len);
	Program *p = ir_parse(path, src, len, &d);
	bool calls = p->has_calls;
	ir_free(p);
	diag_free(&d);
	free(src);
	return calls;
}

bool example_irreducible(const char *path)
{
	static const char *const irreducible[] = {"policy_scs_trace.simd"};
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	for (size_t i = 0; i < sizeof irreducible / sizeof *irreducible; i++)
		if (!strcmp(name, irreducible[i]))
			return true;
	return false;
}

void unload(Prog *r)
{
	/* ir_free also frees the Cfg ir_load attached (the Program owns it) */
	ir_free(r->p);
	diag_free(&r->d);
	free(r->src);
}

const char *examples_dir(void)
{
	return MUSIMD_SOURCE_ROOT "/examples";
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **example_files(int *n)
{
	DIR *d = opendir(examples_dir());
	cr_assert(d != NULL, "cannot open %s", examples_dir());
	char **v = NULL;
	int len = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		if (l > 5 && !strcmp(e->d_name + l - 5, ".simd")) {
			Buf b = {0};
			buf_printf(&b, "%s/%s", examples_dir(), e->d_name);
			VEC_PUSH(v, len, cap, buf_steal(&b));
		}
	}
	closedir(d);
	qsort(v, (size_t)len, sizeof *v, cmp_names);
	*n = len;
	return v;
}

void free_names(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void cell_text(void *ctx, int64_t addr, Num v)
{
	char *s = num_str(v);
	buf_printf(ctx, "%lld=%s ", (long long)addr, s);
	free(s);
}

char *values_text(const Machine *m, bool vars, bool sigma)
{
	Buf b = {0};
	for (int32_t v = 0; vars && v < m->prog->nvars; v++)
		for (int32_t t = 0; t < m->nthreads; t++) {
			Num x;
			if (!sem_get(m, v, t, &x)) {
				buf_puts(&b, "- ");
				continue;
			}
			char *s = num_str(x);
			buf_printf(&b, "%s ", s);
			free(s);
		}
	if (sigma)
		mem_each(&m->shared, cell_text, &b);
	return buf_steal(&b);
}
