/*
** fuzz_explore.c — libFuzzer target for the explorer (explore.h) and its
** reports (fuzz/README.md).
**
** The input is a μ-SIMD source file. When it loads cleanly it is explored
** under a model, path order (both included), bz polarity and atomic order
** (ascending or any) chosen by a hash of the input, with at most 4 threads
** (and lanes per warp), 2000 states, 64 MiB for the search and 4096-bit
** integers; a counterexample is replayed and formatted (text and JSON), and
** must replay to its verdict. Reaching a limit is a normal outcome; a
** crash, a sanitizer report, a timeout, a memory blow-up or a
** counterexample that does not replay is a bug.
**
** Built into the libFuzzer binary fuzz_explore (-Dfuzz=true), and into
** fuzz-replay with the entry point renamed (-DLLVMFuzzerTestOneInput=...).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report.h"

#define MAX_THREADS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t saved_bits = num_max_bits;
	num_max_bits = 4096;
	Diags d;
	diag_init(&d, "fuzz.simd", (const char *)data, size);
	d.max_errors = 100;
	Program *p = ir_load("fuzz.simd", (const char *)data, size, &d);
	bool clean = d.nerrors == 0 && p->cfg;
	diag_free(&d);
	if (!clean)
		goto done;
	uint64_t h = sem_hash_bytes(data, size);
	ExploreOptions o = {0};
	o.sem.model = models[h % MODEL_COUNT];
	h /= MODEL_COUNT;
	o.sem.taken_first = h & 1;
	o.sem.bz_rules = h & 2;
	o.sem.atomic_any = h & 4; /* --atomic-order any */
	o.path_order_both = h & 8;
	int32_t threads = p->threads > 0 ? p->threads : 2;
	o.sem.threads = threads < MAX_THREADS ? threads : MAX_THREADS;
	if (p->warpsize > 0)
		o.sem.warpsize = p->warpsize < MAX_THREADS ? p->warpsize : MAX_THREADS;
	o.sem.max_cells = 10000;
	o.sem.max_memory = 16u << 20;
	o.max_states = 2000;
	o.max_memory = 64u << 20;
	diag_init(&d, "fuzz.simd", NULL, 0);
	ExploreResult *r = explore_run(p, &o, &d);
	if (r && (r->verdict == EXPLORE_DEADLOCK || r->verdict == EXPLORE_LIVELOCK)) {
		Buf b = {0};
		bool ok = report_explore_trace(&b, p, &o.sem, r);
		Json j;
		json_init(&j, &b);
		ok &= report_explore_counterexample_json(&j, p, &o.sem, r);
		buf_free(&b);
		if (!ok) {
			fprintf(stderr, "fuzz_explore: the %s counterexample does not replay\n",
			        explore_verdict_name(r->verdict));
			abort();
		}
	}
	explore_free(r);
	diag_free(&d);
done:
	ir_free(p);
	num_max_bits = saved_bits;
	return 0;
}
