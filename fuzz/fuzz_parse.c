/*
** fuzz_parse.c — libFuzzer target for the front end (fuzz/README.md).
**
** The input is a μ-SIMD source file. ir_load parses, builds the CFG and
** validates it; the diagnostics are rendered (to fuzz the renderer). When
** the program is clean, it is printed with ir_print and the printed text
** is loaded again: it must load without errors, with the same validation
** warnings, the same number of instructions and variables, and print
** identically (the printer is canonical and re-parsable,
** ir.h). Any difference is a bug: the harness prints both texts and
** aborts. The thread frontiers (cfg --frontiers) are built and printed
** too: a frontier holds only blocks of lower priority than its own.
**
** Built into the libFuzzer binary fuzz_parse (-Dfuzz=true), and into
** fuzz-replay with the entry point renamed (-DLLVMFuzzerTestOneInput=...).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontier.h"
#include "ir.h"

static Program *load(const char *path, const char *src, size_t len, Diags *d)
{
	diag_init(d, path, src, len);
	d->max_errors = 100;
	Program *p = ir_load(path, src, len, d);
	/* render against the Program's copy, as main.c does */
	d->src = p->src;
	d->srclen = p->srclen;
	Buf r = {0};
	diag_render(d, &r);
	buf_free(&r);
	return p;
}

static void dump_diags(const char *title, const Diags *d)
{
	Buf r = {0};
	diag_render(d, &r);
	fprintf(stderr, "---- %s ----\n%s", title, buf_str(&r));
	buf_free(&r);
}

/* The warnings that printing must keep: those of validation. The
** directives' "given twice" warnings go away, as the printer writes each
** directive once. */
static bool kept_warning(const Diag *g)
{
	return g->sev == SEV_WARNING && !strstr(g->msg, "given twice");
}

static int cmp_msg(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The kept warnings' messages, sorted (the printer may reorder operands:
** store(v, a) prints as mem[a] = v, so the order of warnings may change). */
static char **kept_messages(const Diags *d, int *n)
{
	char **v = xmalloc(((size_t)d->n + 1) * sizeof *v);
	*n = 0;
	for (int i = 0; i < d->n; i++)
		if (kept_warning(&d->v[i]))
			v[(*n)++] = d->v[i].msg;
	qsort(v, (size_t)*n, sizeof *v, cmp_msg);
	return v;
}

/* The same kept warnings, with the same messages. */
static bool same_warnings(const Diags *a, const Diags *b)
{
	int na, nb;
	char **va = kept_messages(a, &na), **vb = kept_messages(b, &nb);
	bool same = na == nb;
	for (int i = 0; same && i < na; i++)
		same = strcmp(va[i], vb[i]) == 0;
	free(va);
	free(vb);
	return same;
}

MU_NORETURN static void fail(const char *why, const Buf *first, const Buf *second, const Diags *d2)
{
	fprintf(stderr, "fuzz_parse: %s\n---- first print ----\n%s", why, buf_str(first));
	if (second)
		fprintf(stderr, "---- second print ----\n%s", buf_str(second));
	if (d2)
		dump_diags("diagnostics of the re-parse", d2);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t saved_bits = num_max_bits;
	num_max_bits = 4096; /* keep literal conversions cheap */

	Diags d;
	Program *p = load("fuzz.simd", (const char *)data, size, &d);
	if (d.nerrors == 0) {
		if (!p->cfg)
			abort(); /* ir_load promises a CFG after a clean load */
		for (int by = FRONTIER_RPO; by <= FRONTIER_LAYOUT; by++) { /* cfg --frontiers */
			Frontiers *f = frontiers_build(p->cfg, (FrontierOrder)by);
			Buf fb = {0};
			frontiers_print(&fb, p, p->cfg, f);
			for (int32_t b = 0; b < p->cfg->nblocks; b++) /* a frontier never holds its own block */
				for (int32_t i = f->start[b]; i < f->start[b + 1]; i++)
					if (f->set[i] == b || f->rank[f->set[i]] <= f->rank[b])
						abort();
			buf_free(&fb);
			frontiers_free(f);
		}
		Buf first = {0};
		ir_print(&first, p);
		Diags d2;
		Program *q = load("printed.simd", first.s ? first.s : "", first.len, &d2);
		if (d2.nerrors != 0)
			fail("the printed program does not load", &first, NULL, &d2);
		if (!same_warnings(&d, &d2)) {
			dump_diags("diagnostics of the input", &d);
			fail("the printed program has different warnings", &first, NULL, &d2);
		}
		if (q->nins != p->nins || q->nvars != p->nvars)
			fail("the printed program has a different shape", &first, NULL, &d2);
		Buf second = {0};
		ir_print(&second, q);
		if (first.len != second.len || memcmp(buf_str(&first), buf_str(&second), first.len) != 0)
			fail("printing the printed program gives a different text", &first, &second, NULL);
		/* the per-instruction printers too */
		Buf ins = {0};
		for (int32_t pc = 0; pc < q->nins; pc++) {
			ir_print_where(&ins, q, pc);
			ir_print_ins(&ins, q, &q->ins[pc]);
		}
		buf_free(&ins);
		buf_free(&first);
		buf_free(&second);
		diag_free(&d2);
		ir_free(q);
	}
	diag_free(&d);
	ir_free(p);

	num_max_bits = saved_bits;
	return 0;
}
