/*
** cta.c — CTAs on the SM (sm-model.md §5 "SM resources", expectation 31):
** how many fit at once (GPGPU-Sim's max_cta: threads, registers, the CTA
** limit), and launching them as earlier ones finish, as
** shader_core_ctx::issue_block2core does.
**
** A μ-SIMD program is one kernel; -musimd_cta_threads cuts its threads
** into CTAs of that many consecutive threads (0: one CTA of them all, the
** papers' machine). A resident CTA holds a contiguous range of the SM's
** hardware thread ids, its size padded to the warp size, first fit as
** find_available_hwtid does; a warp's hardware slot (its first id / lanes
** per warp) decides its scheduler, slot mod schedulers, which for one CTA
** is GPGPU-Sim's create_schedulers dealing (warp i to scheduler i mod n).
** A CTA leaves when all its warps have finished, and the next CTA in
** order takes its place in the same cycle.
**
** μ-SIMD's `barrier` waits for every live thread of the kernel: with CTAs
** that cannot all be resident it never completes (a grid-wide barrier
** needs a cooperative launch on real GPUs too), and the commit watchdog
** says so.
*/
#include <stdlib.h>
#include <string.h>

#include "core.h"

static int32_t round_up(int32_t v, int32_t unit)
{
	return unit > 1 ? (v + unit - 1) / unit * unit : v;
}

bool sm_occupancy(const SmConfig *c, int32_t cta_threads, int32_t regs, SmOccupancy *o)
{
	memset(o, 0, sizeof *o);
	int32_t ws = c->warp_size > 0 ? c->warp_size : 1;
	o->padded = round_up(cta_threads, ws);
	o->regs = round_up(regs, c->reg_alloc_unit);
	o->by_threads = c->max_threads / o->padded;
	/* GPGPU-Sim: registers / (padded CTA × ((regs + 3) & ~3)); none used: no limit */
	int64_t per_cta = (int64_t)o->padded * o->regs;
	o->by_regs = per_cta > 0 ? (int32_t)(c->registers / per_cta) : INT32_MAX;
	if (c->registers_per_block > 0 && per_cta > c->registers_per_block)
		o->by_regs = 0; /* -gpgpu_registers_per_block: one CTA's own limit */
	o->by_cta = c->max_cta;
	o->ctas = o->by_threads;
	if (o->by_regs < o->ctas)
		o->ctas = o->by_regs;
	if (o->by_cta < o->ctas)
		o->ctas = o->by_cta;
	o->limited_by = (o->ctas == o->by_threads ? SM_LIMIT_THREADS : 0) | (o->ctas == o->by_regs ? SM_LIMIT_REGS : 0) |
	                (o->ctas == o->by_cta ? SM_LIMIT_CTAS : 0);
	return o->ctas > 0;
}

const char *const sm_limit_names[] = {"threads", "regs", "cta_limit", NULL};

bool cta_setup(SmCore *c, SmResult *r, Diags *d)
{
	const SmConfig *cfg = c->cfg;
	const Machine *m = c->m;
	int32_t cta = cfg->cta_threads > 0 && cfg->cta_threads < m->nthreads ? cfg->cta_threads : m->nthreads;
	if (cta % m->warpsize != 0) {
		diag_error(d, LOC_NONE,
		           "-musimd_cta_threads %d is not a multiple of the program's warp size %d: a warp would lie in two "
		           "CTAs",
		           (int)cta, (int)m->warpsize);
		return false;
	}
	int32_t regs = cfg->regs_per_thread > 0 ? cfg->regs_per_thread : c->code->maxlive;
	SmOccupancy *o = &r->occupancy_limit;
	if (!sm_occupancy(cfg, cta, regs, o)) {
		Buf why = {0};
		if (o->by_threads == 0)
			buf_printf(&why, "%d threads (padded to warps) where the SM has %d (-gpgpu_shader_core_pipeline)",
			           (int)o->padded, (int)cfg->max_threads);
		else
			buf_printf(&why, "%lld registers (%d threads × %d, -musimd_reg_alloc_unit %d) where the SM has %d%s",
			           (long long)o->padded * o->regs, (int)o->padded, (int)o->regs, (int)cfg->reg_alloc_unit,
			           (int)(cfg->registers_per_block > 0 && cfg->registers_per_block < cfg->registers
			                     ? cfg->registers_per_block
			                     : cfg->registers),
			           cfg->registers_per_block > 0 && cfg->registers_per_block < cfg->registers
			               ? " per CTA (-gpgpu_registers_per_block)"
			               : " (-gpgpu_shader_registers)");
		diag_error(d, LOC_NONE, "a CTA of %d threads does not fit on the SM: it needs %s; set -musimd_cta_threads %s",
		           (int)cta, buf_str(&why),
		           cfg->cta_threads > 0 ? "lower" : "to run the kernel as several CTAs");
		buf_free(&why);
		return false;
	}
	c->cta_threads = cta;
	c->ncta = (m->nthreads + cta - 1) / cta;
	c->next_cta = 0;
	c->hw_threads = cfg->max_threads;
	c->hw_busy = xcalloc((size_t)c->hw_threads + 1, 1);
	c->cta_hw = xmalloc((size_t)c->ncta * sizeof *c->cta_hw);
	c->cta_live = xcalloc((size_t)c->ncta, sizeof *c->cta_live);
	c->pos_of = xmalloc(((size_t)m->nwarps + 1) * sizeof *c->pos_of);
	c->sched_of = xmalloc(((size_t)m->nwarps + 1) * sizeof *c->sched_of);
	for (int32_t i = 0; i < c->ncta; i++)
		c->cta_hw[i] = -1;
	for (int32_t w = 0; w < m->nwarps; w++)
		c->pos_of[w] = c->sched_of[w] = -1;
	r->cta_threads = cta;
	r->ncta = c->ncta;
	return true;
}

void cta_free(SmCore *c)
{
	free(c->hw_busy);
	free(c->cta_hw);
	free(c->cta_live);
	free(c->pos_of);
	free(c->sched_of);
}

/* The area under the curve of live resident threads over cycles, up to now
** (the achieved occupancy's numerator). */
static void occupancy_note(SmCore *c)
{
	c->occ_area += (double)c->live_threads * (double)(c->now - c->occ_since);
	c->occ_since = c->now;
}

static void cta_leave(SmCore *c, SmResult *r, int32_t k);

/* The first hardware thread id of a free run of n, or -1. */
static int32_t find_hw(const SmCore *c, int32_t n)
{
	for (int32_t i = 0, run = 0; i < c->hw_threads; i++) {
		run = c->hw_busy[i] ? 0 : run + 1;
		if (run == n)
			return i - n + 1;
	}
	return -1;
}

/* The warps of CTA k: [*first, *end). Warps are consecutive threads and a
** CTA is a multiple of the warp size (mimd: of one thread). */
static void cta_warps(const SmCore *c, int32_t k, int32_t *first, int32_t *end)
{
	const Machine *m = c->m;
	int32_t per = m->sched_warpsize > 0 ? c->cta_threads / m->sched_warpsize : 1;
	*first = k * per;
	*end = *first + per < m->nwarps ? *first + per : m->nwarps;
}

int32_t cta_launch(SmCore *c, SmResult *r)
{
	const Machine *m = c->m;
	int32_t launched = 0;
	while (c->next_cta < c->ncta && c->resident < r->occupancy_limit.ctas) {
		int32_t k = c->next_cta;
		int32_t hw = find_hw(c, r->occupancy_limit.padded);
		if (hw < 0)
			break;
		memset(c->hw_busy + hw, 1, (size_t)r->occupancy_limit.padded);
		c->cta_hw[k] = hw;
		c->resident++;
		c->next_cta++;
		int32_t first, end, ws = m->sched_warpsize > 0 ? m->sched_warpsize : 1;
		cta_warps(c, k, &first, &end);
		for (int32_t w = first; w < end; w++) {
			const Warp *W = &m->warps[w];
			int32_t slot = (hw + (W->base - k * c->cta_threads)) / ws;
			int32_t s = slot % c->nsched;
			c->sched_of[w] = s;
			c->pos_of[w] = c->sched_nwarps[s];
			c->sched_warps[s * c->per + c->sched_nwarps[s]++] = w;
			if (W->status != WARP_DONE) {
				c->cta_live[k]++;
				occupancy_note(c);
				c->live_threads += W->size;
			}
			launched++;
		}
		c->launched = end;
		if (c->cta_live[k] == 0) /* nothing to run (no live thread): it leaves at once */
			cta_leave(c, r, k);
	}
	return launched;
}

/* Take warp w out of its scheduler's list, keeping the others' order and
** the round robin's place. */
static void unlist(SmCore *c, int32_t w)
{
	int32_t s = c->sched_of[w], at = c->pos_of[w];
	int32_t *list = &c->sched_warps[s * c->per];
	int32_t n = --c->sched_nwarps[s];
	for (int32_t i = at; i < n; i++) {
		list[i] = list[i + 1];
		c->pos_of[list[i]] = i;
	}
	if (c->last_pos[s] >= at)
		c->last_pos[s]--; /* the next to try stays the warp after the last to issue */
	if (c->last_issued[s] == w)
		c->last_issued[s] = -1;
	c->pos_of[w] = -1;
}

/* CTA k leaves: its threads' ids are free, its warps leave their lists. */
static void cta_leave(SmCore *c, SmResult *r, int32_t k)
{
	int32_t first, end;
	cta_warps(c, k, &first, &end);
	for (int32_t v = first; v < end; v++)
		if (c->pos_of[v] >= 0)
			unlist(c, v);
	memset(c->hw_busy + c->cta_hw[k], 0, (size_t)r->occupancy_limit.padded);
	c->cta_hw[k] = -1;
	c->resident--;
}

void cta_warp_done(SmCore *c, SmResult *r, int32_t w)
{
	const Warp *W = &c->m->warps[w];
	int32_t k = W->base / c->cta_threads;
	occupancy_note(c);
	c->live_threads -= W->size;
	if (--c->cta_live[k] == 0)
		cta_leave(c, r, k);
}

void cta_finish(SmCore *c, SmResult *r)
{
	occupancy_note(c);
	r->achieved_occupancy =
		r->cycles > 0 ? c->occ_area / ((double)r->cycles * (double)(c->hw_threads > 0 ? c->hw_threads : 1)) : 0;
}
