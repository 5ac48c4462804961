/*
** fetch.c — instruction fetch and the per-warp I-buffer (opcoll.h;
** docs/sm-config.md "Fetch and the I-buffer"), after GPGPU-Sim's
** shader_core_ctx::fetch and ::decode and shd_warp_t's I-buffer
** (accel-sim/gpgpu-sim_distribution dev 667834cf, shader.cc, shader.h):
**   - a warp's I-buffer has 2 entries (IBUFFER_SIZE); fetch serves a warp
**     whose I-buffer is empty, 16 bytes — 2 instructions of 8 bytes, 1 at
**     the end of a 128-byte line — and decode puts them in its I-buffer;
**   - the fetch and decode pair runs -gpgpu_inst_fetch_throughput times a
**     cycle, a warp each time;
**   - scheduler_unit::cycle: when the I-buffer's pc is not the warp's next
**     pc (the SIMT stack's top, after a branch went elsewhere), the
**     scheduler flushes it (ibuffer_flush) and the warp waits for a
**     refetch: the control hazard;
**   - -gpgpu_perfect_inst_const_cache 1 makes every fetch hit the L1I.
** What musimd models: a fetch granted in cycle c fills the I-buffer for
** cycle c + 1; fetches are granted in the order warps ask (GPGPU-Sim
** scans the warps round robin), at most -gpgpu_inst_fetch_throughput a
** cycle. A warp asks when its I-buffer runs empty in straight-line code
** — in the cycle of the issue that emptied it, so a fetch that keeps up
** costs nothing — and after an issue that moved its pc elsewhere (a taken
** branch, a jump, a split's switch) in the next cycle, the one in which
** GPGPU-Sim's scheduler finds the hazard: 2 cycles from the branch to the
** next issue. Without a perfect L1I, the first fetch from a 128-byte line
** waits -musimd_icache_miss_latency cycles more (later fetches from it
** hit; one waiting for the same fill waits with it).
*/
#include "opcoll.h"

#include <stdlib.h>

#define IBUFFER_SIZE 2
#define LINE_INS 16 /* 128-byte L1I lines of 8-byte instructions */

/* Grant warp w a fetch of pc at cycle `at` or the first cycle after with
** a fetch left; cause: why the warp waits for it. */
static void request(Fetch *f, int32_t w, int32_t pc, int64_t at, SmWarpState cause)
{
	if (f->slot_cycle < at) {
		f->slot_cycle = at;
		f->slot_used = 0;
	}
	if (f->slot_used == f->per_cycle) {
		f->slot_cycle++;
		f->slot_used = 0;
	}
	f->slot_used++;
	int64_t ready = f->slot_cycle + 1;
	if (!f->perfect) {
		int64_t *line = &f->line_ready[pc / LINE_INS];
		if (*line == 0) {
			*line = ready + f->miss_latency;
			f->misses++;
		}
		if (*line > ready)
			ready = *line;
	}
	f->fetches++;
	f->pc[w] = pc;
	f->n[w] = (int8_t)(pc % LINE_INS == LINE_INS - 1 || pc + 1 >= f->nins ? 1 : IBUFFER_SIZE);
	f->ready[w] = ready;
	f->cause[w] = (uint8_t)cause;
}

void fetch_init(Fetch *f, const SmConfig *c, int32_t nwarps, int32_t nins)
{
	*f = (Fetch){0};
	f->on = c->ibuffer;
	f->per_cycle = c->inst_fetch_throughput > 0 ? c->inst_fetch_throughput : 1;
	f->perfect = c->perfect_icache;
	f->miss_latency = c->icache_miss_latency;
	f->nins = nins;
	if (!f->on)
		return;
	f->pc = xmalloc(((size_t)nwarps + 1) * sizeof *f->pc);
	f->n = xcalloc((size_t)nwarps + 1, sizeof *f->n);
	f->ready = xcalloc((size_t)nwarps + 1, sizeof *f->ready);
	f->cause = xcalloc((size_t)nwarps + 1, sizeof *f->cause);
	f->line_ready = xcalloc((size_t)nins / LINE_INS + 1, sizeof *f->line_ready);
	/* the first fetch is part of the launch (-gpgpu_kernel_launch_latency,
	** reported apart from gpu_sim_cycle): every warp starts at cycle 0
	** with its I-buffer filled at pc 0, and pc 0's line is in the L1I */
	for (int32_t w = 0; w < nwarps; w++) {
		f->pc[w] = 0;
		f->n[w] = (int8_t)(nins > 1 ? IBUFFER_SIZE : 1);
	}
	f->slot_cycle = -1;
	f->line_ready[0] = 1; /* (any cycle <= the first fetch's: 0 would mean never asked for) */
}

void fetch_free(Fetch *f)
{
	free(f->pc);
	free(f->n);
	free(f->ready);
	free(f->cause);
	free(f->line_ready);
	*f = (Fetch){0};
}

void fetch_flush(Fetch *f, int32_t w, int32_t pc, int64_t now)
{
	/* the warp's pc moved without an issue of its own (a model's timeout
	** switched splits): the scheduler finds it now */
	f->flushes++;
	request(f, w, pc, now + 1, WS_CONTROL);
}

void fetch_refill(Fetch *f, int32_t w, int32_t pc, int32_t next, int64_t now)
{
	if (next < 0) {
		f->pc[w] = -1; /* finished: nothing more to fetch */
		return;
	}
	if (next == pc + 1) { /* empty: refilled this cycle, after the issue stage */
		request(f, w, next, now, WS_IBUFFER);
		return;
	}
	/* a control hazard: found, flushed and refetched in the next cycle */
	f->flushes++;
	request(f, w, next, now + 1, WS_CONTROL);
}
