/*
** fuzz_gsa.c — libFuzzer target for the GSA construction, the sync
** checker and placer, and the divergence analyses (fuzz/README.md).
**
** The input is a μ-SIMD source file. When it loads cleanly:
**   - syncs_check and gsa_place_syncs run (no crash; a placed program
**     must load without errors);
**   - gsa_build converts it (an irreducible CFG is refused with an error,
**     which is fine); the GSA program, printed, must load again without
**     errors and with as many instructions;
**   - the analyses run on it (--domain simple and the affine domain of
**     degree 2), and the soundness oracle checks them on small runs
**     (threads 1..3, every model but sync, 2000 steps): a violation — a value
**     called uniform that two threads saw differently — aborts, as does
**     a break of Corollary 1. Runs that do not finish are not checked;
**   - Algorithm 1 (musimd deadlock) runs on it, as published and with
**     the affine verdicts: its funnel narrows, and the refinement only
**     removes suspicions.
** A crash, a sanitizer report, a timeout or an abort is a bug.
**
** Built into the libFuzzer binary fuzz_gsa (-Dfuzz=true), and into
** fuzz-replay with the entry point renamed (-DLLVMFuzzerTestOneInput=...).
*/
#include <stdio.h>
#include <stdlib.h>

#include "deadlock.h"
#include "gsa.h"
#include "syncs.h"
#include "verify.h"

static Program *load(const char *path, const char *src, size_t len, Diags *d)
{
	diag_init(d, path, src, len);
	d->max_errors = 100;
	return ir_load(path, src, len, d);
}

MU_NORETURN static void fail(const char *why, const Program *p, const Buf *text)
{
	fprintf(stderr, "fuzz_gsa: %s\n---- program ----\n%.*s\n", why, (int)p->srclen, p->src);
	if (text)
		fprintf(stderr, "---- derived text ----\n%s", buf_str(text));
	abort();
}

/* The placed program must load; it need not be clean of warnings. */
static void check_syncs(const Program *p)
{
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	syncs_check(p, &d, 8);
	diag_free(&d);

	diag_init(&d, p->path, p->src, p->srclen);
	Buf out = {0};
	if (gsa_place_syncs(p, &out, &d)) {
		Diags d2;
		Program *q = load("placed.simd", buf_str(&out), out.len, &d2);
		if (d2.nerrors != 0)
			fail("the program with syncs placed does not load", p, &out);
		ir_free(q);
		diag_free(&d2);
	}
	buf_free(&out);
	diag_free(&d);
}

/* Analyse g and check the verdicts on small runs of g (and of p first). */
static void check_analyses(const Program *p, const Program *g)
{
	AnaOptions simple = {.domain = ANA_SIMPLE}, affine = {.domain = ANA_POLY, .degree = 2};
	AnaResult *rs = ana_run(g, &simple), *ra = ana_run(g, &affine);
	VerifyOptions vo = {.max_threads = 3, .models = VERIFY_ALL & ~VERIFY_SYNC, .orig = p,
	                    .max_reads = 100000};
	vo.sem.max_steps = 2000;
	vo.sem.max_cells = 100000;
	vo.sem.max_memory = 64u << 20;
	AnaResult *rr[2] = {rs, ra};
	for (int i = 0; i < 2; i++) {
		Diags d;
		diag_init(&d, g->path, g->src, g->srclen);
		VerifyResult *v = verify_run(g, rr[i], &vo, &d);
		if (v && v->nv > 0) {
			fprintf(stderr, "fuzz_gsa: %s\n", v->v[0].msg);
			fail("the soundness oracle found a violation", p, NULL);
		}
		if (v && i == 1 && verify_corollary1(rs, ra, v) > 0)
			fail("Corollary 1 does not hold", p, NULL);
		verify_free(v);
		diag_free(&d);
	}
	DlResult *plain = dl_detect(p, g, NULL), *refined = dl_detect(p, g, ra->branch_divergent);
	if (plain->nloops != refined->nloops || plain->nsuspected > plain->nloopread ||
	    plain->nloopread > plain->nmemory || plain->nmemory > plain->nloops)
		fail("Algorithm 1's funnel does not narrow", p, NULL);
	for (int32_t l = 0; l < plain->nloops; l++)
		if (refined->loops[l].stage > plain->loops[l].stage)
			fail("the divergence refinement added a suspicion", p, NULL);
	dl_free(plain);
	dl_free(refined);
	ana_free(rs);
	ana_free(ra);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t saved_bits = num_max_bits;
	num_max_bits = 4096;

	Diags d;
	Program *p = load("fuzz.simd", (const char *)data, size, &d);
	bool clean = d.nerrors == 0 && p->cfg;
	diag_free(&d);
	if (clean) {
		if (!p->has_gsa)
			check_syncs(p);
		diag_init(&d, p->path, p->src, p->srclen);
		Program *g = gsa_build(p, &d);
		diag_free(&d);
		if (g) {
			Buf text = {0};
			ir_print(&text, g);
			Diags d2;
			Program *q = load("gsa.simd", buf_str(&text), text.len, &d2);
			if (d2.nerrors != 0 || q->nins != g->nins)
				fail("the printed GSA program does not load as it was", p, &text);
			ir_free(q);
			diag_free(&d2);
			buf_free(&text);
			check_analyses(p, g);
			ir_free(g);
		}
	}
	ir_free(p);
	num_max_bits = saved_bits;
	return 0;
}
