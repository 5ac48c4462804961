/*
** fuzz_run.c — libFuzzer target for the interpreter and the reporters
** (fuzz/README.md).
**
** The input is a μ-SIMD source file. When it loads cleanly it runs under
** small limits: at most 16 threads (and lanes per warp), 3000 steps,
** 100000 memory cells, 64 MiB of state, 4096-bit integers. The model, the lane order, the
** paper readings (bz polarity, strict push, path order), races as errors
** and the tracing hook are chosen by bits of a hash of the input. The
** final state is formatted with every reporter into a Buf. Hitting the
** step limit, getting stuck or deadlocking is a normal outcome; a crash, a
** sanitizer report, a timeout or a memory blow-up is a bug.
**
** A program in plain form then runs on the SM model (musimd sm) with the
** same options: when both finish, the SM must have issued exactly the
** interpreter's steps and reach its final state (sm-model.md, decision 1);
** a difference aborts.
**
** Built into the libFuzzer binary fuzz_run (-Dfuzz=true), and into
** fuzz-replay with the entry point renamed (-DLLVMFuzzerTestOneInput=...).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report.h"
#include "sm/sm.h"

#define MAX_THREADS 16

/* FNV-1a, then a final mix so that every bit depends on every byte. */
static uint64_t hash_bytes(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

typedef struct Trace {
	ReportCols cols;
	Buf line, json, grid;
	Json j; /* writes into json */
	uint64_t steps;
} Trace;

/* Format every step with each per-step reporter (the buffers are reset
** often). Trace lines print at most 16 stack nodes since b6f2a00; before,
** a divergent loop under the sync model grew Π by a node per iteration and
** tracing 3000 steps formatted 50 MB (10 s under ASan):
** regress/harness_trace_deep_stack.simd. */
static void trace_hook(void *ctx, const Machine *m, const StepInfo *s)
{
	Trace *t = ctx;
	report_trace_line(&t->line, &t->cols, m, s);
	report_trace_json(&t->j, m, s);
	report_grid_row(&t->grid, &t->cols, m, s);
	if (++t->steps % 64 == 0) {
		buf_reset(&t->line);
		buf_reset(&t->json);
		buf_reset(&t->grid);
	}
}

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

	uint64_t h = hash_bytes(data, size);
	SemOptions so = {0};
	so.model = models[h % MODEL_COUNT];
	h /= MODEL_COUNT;
	so.lane_order = (LaneOrder)(h % 3);
	h /= 3;
	so.bz_rules = h & 1;
	so.strict_push = h & 2;
	so.taken_first = h & 4;
	so.races_error = h & 8;
	bool trace = h & 16;
	bool profile = h & 32;
	bool all = h & 64;
	h >>= 7;
	so.seed = h;
	int32_t threads = p->threads > 0 ? p->threads : 4;
	so.threads = threads < MAX_THREADS ? threads : MAX_THREADS;
	if (p->warpsize > 0)
		so.warpsize = p->warpsize < MAX_THREADS ? p->warpsize : MAX_THREADS;
	so.max_steps = 3000;
	so.max_cells = 100000;
	so.max_memory = 64u << 20;

	diag_init(&d, "fuzz.simd", NULL, 0);
	Machine *m = sem_new(p, &so, &d);
	if (m) {
		Trace t = {0};
		json_init(&t.j, &t.json);
		if (trace) {
			report_cols(&t.cols, m, so.max_steps);
			report_grid_header(&t.grid, &t.cols, m);
			report_json_trace_begin(&t.j);
		}
		sem_run(m, trace ? trace_hook : NULL, &t);
		Buf b = {0};
		report_races(&b, m);
		report_error(&b, m);
		report_run_text(&b, m, profile, true, all);
		TraceEnd te = {0, true};
		if (!trace)
			json_init(&t.j, &b);
		report_run_json(&t.j, m, trace ? &te : NULL);
		buf_free(&b);
		buf_free(&t.line);
		buf_free(&t.json);
		buf_free(&t.grid);
		if (!p->has_gsa) {
			SmCode *code = lower(p, &d);
			SmConfig c;
			sm_config_default(&c);
			c.max_cycle = 400000;
			c.progress_window = 20000;
			c.num_sched = (int32_t)(h % 4) + 1;
			if (m->nwarps > 1 && (h >> 2) % 2) { /* CTAs of one or two warps, one or two resident */
				c.cta_threads = m->warpsize * (int32_t)(1 + (h >> 3) % 2);
				c.max_cta = (int32_t)(1 + (h >> 4) % 2);
			}
			SmResult *r = code ? sm_run(code, &c, &so, &d) : NULL;
			if (r && r->status == SM_OK && m->status == SEM_OK) {
				Buf x = {0}, y = {0};
				sem_pack(m, &x);
				sem_pack(r->m, &y);
				if (r->warp_insn != m->steps || x.len != y.len || memcmp(buf_str(&x), buf_str(&y), x.len))
					abort(); /* the SM model is not the interpreter */
				buf_free(&x);
				buf_free(&y);
			}
			if (r) {
				Buf out = {0};
				Json j;
				json_init(&j, &out);
				sm_report_json(&j, r, &c);
				sm_report_text(&out, r, &c);
				buf_free(&out);
			}
			sm_result_free(r);
			lower_free(code);
		}
		sem_free(m);
	}
	diag_free(&d);
done:
	ir_free(p);
	num_max_bits = saved_bits;
	return 0;
}
