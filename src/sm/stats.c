/*
** stats.c — the SM model's statistics under GPGPU-Sim's names and units
** (sm-model.md §1.8): gpu_sim_cycle, gpu_sim_insn (thread instructions),
** gpu_ipc (thread instructions per cycle), the Warp Occupancy Distribution
** (Stall, W0_Idle, W0_Scoreboard, W1..W32 per scheduler-cycle); and
** musimd's warp_insn, warp_ipc, SIMD efficiency and per-warp stall causes.
*/
#include "sm.h"

#include "report.h"

#include <stdio.h>
#include <string.h>

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static double simd_efficiency(const SmResult *r)
{
	return ratio(r->thread_insn, r->warp_insn * (uint64_t)r->warpsize);
}

/* The front end's and operand delivery's counters, named as reported
** (single_issue_nums and dual_issue_nums are GPGPU-Sim's). */
typedef struct Counter {
	const char *name;
	uint64_t n;
} Counter;

#define NFRONT 7

static void front_end(const SmResult *r, Counter *c)
{
	const Counter all[NFRONT] = {
		{"single_issue_nums", r->single_issue},      {"dual_issue_nums", r->dual_issue},
		{"rf_bank_conflict_cycles", r->rf_conflict_cycles}, {"rf_bank_conflict_reads", r->rf_conflict_reads},
		{"inst_fetches", r->ifetches},                {"inst_cache_misses", r->imisses},
		{"ibuffer_flushes", r->iflushes},
	};
	memcpy(c, all, sizeof all);
}

/* Register allocation's spill code (sm/regalloc.c), warp instructions by
** what they are; the names are the JSON keys. */
#define NSPILL 9

static void spill_counters(const SmResult *r, Counter *c)
{
	const Counter all[NSPILL] = {
		{"regalloc_regs", (uint64_t)r->ra_regs},        {"regalloc_spilled_vars", (uint64_t)r->ra_spilled},
		{"spill_insn", r->spill_insn},                  {"spill_loads", r->spill_loads},
		{"spill_stores", r->spill_stores},              {"shared_spill_loads", r->shared_spill_loads},
		{"shared_spill_stores", r->shared_spill_stores}, {"remats", r->remats},
		{"spill_setup_insn", r->spill_setup},
	};
	memcpy(c, all, sizeof all);
}

/* The CTAs and how many fit at once, as GPGPU-Sim prints its max_cta
** ("CTA/core = N, limited by: regs"), and the achieved occupancy. */
static void occupancy_text(Buf *b, const SmResult *r)
{
	const SmOccupancy *o = &r->occupancy_limit;
	buf_printf(b, "ctas = %d of %d threads (%d registers per thread); CTA/core = %d, limited by: ", (int)r->ncta,
	           (int)r->cta_threads, (int)o->regs, (int)o->ctas);
	for (int i = 0, any = 0; sm_limit_names[i]; i++)
		if (o->limited_by & (1u << i))
			buf_printf(b, "%s%s", any++ ? " " : "", sm_limit_names[i]);
	buf_printf(b, "\ngpu_occupancy = %.4f%%\n", 100.0 * r->achieved_occupancy);
}

static void occupancy_json(Json *j, const SmResult *r)
{
	const SmOccupancy *o = &r->occupancy_limit;
	json_key(j, "gpu_occupancy");
	json_real(j, r->achieved_occupancy);
	json_key(j, "ctas");
	json_obj(j);
	json_key(j, "count");
	json_int(j, r->ncta);
	json_key(j, "threads");
	json_int(j, r->cta_threads);
	json_key(j, "regs_per_thread");
	json_int(j, o->regs);
	json_key(j, "cta_per_core");
	json_int(j, o->ctas);
	json_key(j, "limited_by");
	json_arr(j);
	for (int i = 0; sm_limit_names[i]; i++)
		if (o->limited_by & (1u << i))
			json_str(j, sm_limit_names[i]);
	json_arr_end(j);
	json_obj_end(j);
}

/* BOWS and DDOS (sm/bows.c): the spin-inducing branches DDOS confirmed,
** the back-offs and the delay they imposed. */
static void bows_text(Buf *b, const SmResult *r)
{
	const Program *p = r->m->prog;
	buf_printf(b, "ddos_sibs_confirmed = %d\n", (int)r->nsibs);
	for (int32_t i = 0; i < r->nsibs; i++) {
		buf_puts(b, "ddos_sib = ");
		ir_print_where(b, p, r->sib_pc[i]);
		buf_printf(b, ", confirmed at cycle %llu\n", (unsigned long long)r->sib_confirmed_at[i]);
	}
	buf_printf(b, "bows_sib_executions = %llu\n", (unsigned long long)r->sib_executions);
	buf_printf(b, "bows_backoff_cycles = %llu\n", (unsigned long long)r->backoff_cycles);
	buf_printf(b, "bows_delay_limit = %lld\n", (long long)r->delay_limit);
}

static void bows_json(Json *j, const SmResult *r)
{
	const Program *p = r->m->prog;
	json_key(j, "bows");
	json_obj(j);
	json_key(j, "sibs");
	json_arr(j);
	for (int32_t i = 0; i < r->nsibs; i++) {
		Buf where = {0};
		ir_print_where(&where, p, r->sib_pc[i]);
		json_obj(j);
		json_key(j, "pc");
		json_int(j, r->sib_pc[i]);
		json_key(j, "where");
		json_str(j, buf_str(&where));
		json_key(j, "confirmed_at");
		json_int(j, (int64_t)r->sib_confirmed_at[i]);
		json_obj_end(j);
		buf_free(&where);
	}
	json_arr_end(j);
	json_key(j, "sib_executions");
	json_int(j, (int64_t)r->sib_executions);
	json_key(j, "backoff_cycles");
	json_int(j, (int64_t)r->backoff_cycles);
	json_key(j, "delay_limit");
	json_int(j, r->delay_limit);
	json_obj_end(j);
}

/* ---- the memory hierarchy's statistics (sm/ldst.c) ---------------------- */

static const char *const access_names[SM_NACCESS] = {"g_mem_ld", "g_mem_st", "l_mem_ld", "l_mem_st"};
/* nvprof's names of the coalesced transactions */
static const char *const transaction_names[SM_NACCESS] = {"gld_transactions", "gst_transactions",
                                                         "local_load_transactions", "local_store_transactions"};

static uint64_t mem_stall_cycles(const SmResult *r)
{
	const SmMemStats *m = &r->mem;
	uint64_t n = r->bank_conflict_cycles + m->resource_stall + m->coal_stall;
	for (int k = 0; k < SM_NACCESS; k++)
		n += m->mshr_stall[k];
	return n;
}

/* One value of the memory statistics, named as GPGPU-Sim prints it. */
typedef struct MemStat {
	const char *name;
	uint64_t v;
} MemStat;

static int mem_stats(const SmResult *r, MemStat *out)
{
	const SmMemStats *m = &r->mem;
	int n = 0;
	out[n++] = (MemStat){"gpgpu_n_load_insn", m->load_insn};
	out[n++] = (MemStat){"gpgpu_n_store_insn", m->store_insn};
	out[n++] = (MemStat){"gpgpu_n_shmem_insn", m->shmem_insn};
	out[n++] = (MemStat){"gpgpu_n_mem_read_local", m->requests[SM_L_LD]};
	out[n++] = (MemStat){"gpgpu_n_mem_write_local", m->requests[SM_L_ST]};
	out[n++] = (MemStat){"gpgpu_n_mem_read_global", m->requests[SM_G_LD]};
	out[n++] = (MemStat){"gpgpu_n_mem_write_global", m->requests[SM_G_ST]};
	for (int k = 0; k < SM_NACCESS; k++)
		out[n++] = (MemStat){transaction_names[k], m->transactions[k]};
	out[n++] = (MemStat){"atomic_transactions", m->atomic_transactions};
	out[n++] = (MemStat){"gpgpu_n_stall_shd_mem", mem_stall_cycles(r)};
	out[n++] = (MemStat){"gpgpu_stall_shd_mem[gl_mem][resource_stall]", m->resource_stall};
	out[n++] = (MemStat){"gpgpu_stall_shd_mem[gl_mem][coal_stall]", m->coal_stall};
	return n;
}

/* A cache's counts, GPGPU-Sim's NAME_total_cache_* (the miss rate, a
** ratio, apart). */
static const char *const cache_counts[] = {"accesses", "misses", "pending_hits", "reservation_fails"};

static uint64_t cache_count(const SmCacheStats *c, int i)
{
	const uint64_t v[] = {c->accesses, c->misses, c->pending_hits, c->reservation_fails};
	return v[i];
}

static void cache_text(Buf *b, const char *name, const SmCacheStats *c)
{
	for (int i = 0; i < 4; i++) {
		buf_printf(b, "%s_total_cache_%s = %llu\n", name, cache_counts[i], (unsigned long long)cache_count(c, i));
		if (i == 1 && c->accesses > 0) /* as GPGPU-Sim: no rate without accesses */
			buf_printf(b, "%s_total_cache_miss_rate = %.4f\n", name, ratio(c->misses, c->accesses));
	}
}

/* The memory hierarchy's lines: printed when the program went through the
** L1 or to the L2 (local memory, or mem[] under -musimd_sigma global). */
static void mem_text(Buf *b, const SmResult *r)
{
	const SmMemStats *m = &r->mem;
	if (m->load_insn + m->store_insn + m->atomic_transactions == 0)
		return;
	MemStat st[32];
	int n = mem_stats(r, st);
	for (int i = 0; i < n; i++)
		buf_printf(b, "%s = %llu\n", st[i].name, (unsigned long long)st[i].v);
	for (int k = 0; k < SM_NACCESS; k++)
		buf_printf(b, "gpgpu_stall_shd_mem[%s][mshr_rc] = %llu\n", access_names[k],
		           (unsigned long long)m->mshr_stall[k]);
	cache_text(b, "L1D", &m->l1);
	cache_text(b, "L2", &m->l2);
	buf_printf(b, "total dram reads = %llu\n", (unsigned long long)m->dram_accesses);
}

static void cache_json(Json *j, const char *name, const SmCacheStats *c)
{
	char key[64];
	for (int i = 0; i < 4; i++) {
		snprintf(key, sizeof key, "%s_total_cache_%s", name, cache_counts[i]);
		json_key(j, key);
		json_int(j, (int64_t)cache_count(c, i));
		if (i == 1) {
			snprintf(key, sizeof key, "%s_total_cache_miss_rate", name);
			json_key(j, key);
			json_real(j, ratio(c->misses, c->accesses));
		}
	}
}

static void mem_json(Json *j, const SmResult *r)
{
	const SmMemStats *m = &r->mem;
	MemStat st[32];
	int n = mem_stats(r, st);
	json_key(j, "memory");
	json_obj(j);
	for (int i = 0; i < n; i++) {
		json_key(j, st[i].name);
		json_int(j, (int64_t)st[i].v);
	}
	json_key(j, "gpgpu_stall_shd_mem[s_mem][bk_conf]");
	json_int(j, (int64_t)r->bank_conflict_cycles);
	for (int k = 0; k < SM_NACCESS; k++) {
		char key[64];
		snprintf(key, sizeof key, "gpgpu_stall_shd_mem[%s][mshr_rc]", access_names[k]);
		json_key(j, key);
		json_int(j, (int64_t)m->mshr_stall[k]);
	}
	cache_json(j, "L1D", &m->l1);
	cache_json(j, "L2", &m->l2);
	json_key(j, "total_dram_reads");
	json_int(j, (int64_t)m->dram_accesses);
	json_obj_end(j);
}

void sm_report_text(Buf *b, const SmResult *r, const SmConfig *c)
{
	const Machine *m = r->m;
	buf_printf(b, "%s: %s (model %s, scheduler %s, %d scheduler%s, ", m->prog->path, sm_status_name(r->status),
	           sem_model_name(m->model), c->scheduler, (int)c->num_sched, c->num_sched == 1 ? "" : "s");
	report_shape(b, m);
	buf_puts(b, ")\n");
	if (r->why.len) {
		buf_putn(b, buf_str(&r->why), r->why.len);
		buf_putc(b, '\n');
	}
	buf_printf(b, "gpu_sim_cycle = %llu\n", (unsigned long long)r->cycles);
	buf_printf(b, "gpu_sim_insn = %llu\n", (unsigned long long)r->thread_insn);
	buf_printf(b, "warp_insn = %llu\n", (unsigned long long)r->warp_insn);
	buf_printf(b, "gpu_ipc = %.4f\n", ratio(r->thread_insn, r->cycles));
	buf_printf(b, "warp_ipc = %.4f\n", ratio(r->warp_insn, r->cycles));
	buf_printf(b, "simd_efficiency = %.4f\n", simd_efficiency(r));
	buf_printf(b, "gpgpu_stall_shd_mem[s_mem][bk_conf] = %llu\n", (unsigned long long)r->bank_conflict_cycles);
	/* the front end and operand delivery (sm/fetch.c, sm/opcoll.c) */
	Counter fe[NFRONT];
	front_end(r, fe);
	for (int i = 0; i < NFRONT; i++)
		buf_printf(b, "%s = %llu\n", fe[i].name, (unsigned long long)fe[i].n);
	occupancy_text(b, r);
	if (r->ra_name) {
		Counter sp[NSPILL];
		spill_counters(r, sp);
		buf_printf(b, "regalloc = %s (%d local, %d shared spill slots)\n", r->ra_name, (int)r->ra_local_slots,
		           (int)r->ra_shared_slots);
		for (int i = 0; i < NSPILL; i++)
			buf_printf(b, "%s = %llu\n", sp[i].name, (unsigned long long)sp[i].n);
	}
	if (r->lock_attempts) {
		buf_printf(b, "lock_attempts = %llu\n", (unsigned long long)r->lock_attempts);
		buf_printf(b, "lock_failures = %llu\n", (unsigned long long)r->lock_failures);
	}
	if (r->bows)
		bows_text(b, r);
	mem_text(b, r);
	buf_puts(b, "Warp Occupancy Distribution:\n");
	buf_printf(b, "Stall:%llu\tW0_Idle:%llu\tW0_Scoreboard:%llu", (unsigned long long)r->stall,
	           (unsigned long long)r->idle, (unsigned long long)r->scoreboard);
	for (int32_t k = 1; k <= r->warpsize; k++)
		buf_printf(b, "\tW%d:%llu", (int)k, (unsigned long long)r->occupancy[k]);
	buf_putc(b, '\n');
	buf_puts(b, "warp  warp_insn  thread_insn");
	for (int32_t s = 0; s < WS__COUNT; s++)
		buf_printf(b, "  %s", sm_warp_state_name((SmWarpState)s));
	if (r->bows)
		buf_printf(b, "  %s", sm_warp_state_name(WS_BACKED_OFF));
	buf_putc(b, '\n');
	for (int32_t w = 0; w < r->nwarps; w++) {
		const SmWarpStats *ws = &r->warps[w];
		buf_printf(b, "%4d  %9llu  %11llu", (int)w, (unsigned long long)ws->warp_insn,
		           (unsigned long long)ws->thread_insn);
		for (int32_t s = 0; s < WS__COUNT; s++) {
			int width = (int)strlen(sm_warp_state_name((SmWarpState)s));
			buf_printf(b, "  %*llu", width, (unsigned long long)ws->cycles[s]);
		}
		if (r->bows)
			buf_printf(b, "  %*llu", (int)strlen(sm_warp_state_name(WS_BACKED_OFF)),
			           (unsigned long long)r->backed_off[w]);
		buf_putc(b, '\n');
	}
}

void sm_report_json(Json *j, const SmResult *r, const SmConfig *c)
{
	json_obj(j);
	sm_report_json_keys(j, r, c);
	json_obj_end(j);
}

void sm_report_json_keys(Json *j, const SmResult *r, const SmConfig *c)
{
	const Machine *m = r->m;
	json_key(j, "file");
	json_str(j, m->prog->path);
	json_key(j, "status");
	json_str(j, sm_status_name(r->status));
	json_key(j, "why");
	json_str(j, r->why.len ? buf_str(&r->why) : NULL);
	json_key(j, "model");
	json_str(j, sem_model_name(m->model));
	json_key(j, "scheduler");
	json_str(j, c->scheduler);
	json_key(j, "num_sched");
	json_int(j, c->num_sched);
	json_key(j, "gpu_sim_cycle");
	json_int(j, (int64_t)r->cycles);
	json_key(j, "gpu_sim_insn");
	json_int(j, (int64_t)r->thread_insn);
	json_key(j, "warp_insn");
	json_int(j, (int64_t)r->warp_insn);
	json_key(j, "gpu_ipc");
	json_real(j, ratio(r->thread_insn, r->cycles));
	json_key(j, "warp_ipc");
	json_real(j, ratio(r->warp_insn, r->cycles));
	json_key(j, "simd_efficiency");
	json_real(j, simd_efficiency(r));
	json_key(j, "bank_conflict_cycles");
	json_int(j, (int64_t)r->bank_conflict_cycles);
	/* the front end and operand delivery (sm/fetch.c, sm/opcoll.c) */
	Counter fe[NFRONT];
	front_end(r, fe);
	for (int i = 0; i < NFRONT; i++) {
		json_key(j, fe[i].name);
		json_int(j, (int64_t)fe[i].n);
	}
	occupancy_json(j, r);
	if (r->ra_name) {
		Counter sp[NSPILL];
		spill_counters(r, sp);
		json_key(j, "regalloc");
		json_obj(j);
		json_key(j, "allocator");
		json_str(j, r->ra_name);
		json_key(j, "local_slots");
		json_int(j, r->ra_local_slots);
		json_key(j, "shared_slots");
		json_int(j, r->ra_shared_slots);
		for (int i = 0; i < NSPILL; i++) {
			json_key(j, sp[i].name);
			json_int(j, (int64_t)sp[i].n);
		}
		json_obj_end(j);
	}
	json_key(j, "lock_attempts");
	json_int(j, (int64_t)r->lock_attempts);
	json_key(j, "lock_failures");
	json_int(j, (int64_t)r->lock_failures);
	if (r->bows)
		bows_json(j, r);
	mem_json(j, r);
	json_key(j, "stalls");
	json_obj(j);
	json_key(j, "Stall");
	json_int(j, (int64_t)r->stall);
	json_key(j, "W0_Idle");
	json_int(j, (int64_t)r->idle);
	json_key(j, "W0_Scoreboard");
	json_int(j, (int64_t)r->scoreboard);
	json_obj_end(j);
	json_key(j, "warp_occupancy"); /* W1 .. Wwarpsize */
	json_arr(j);
	for (int32_t k = 1; k <= r->warpsize; k++)
		json_int(j, (int64_t)r->occupancy[k]);
	json_arr_end(j);
	json_key(j, "warps");
	json_arr(j);
	for (int32_t w = 0; w < r->nwarps; w++) {
		const SmWarpStats *ws = &r->warps[w];
		json_obj(j);
		json_key(j, "warp_insn");
		json_int(j, (int64_t)ws->warp_insn);
		json_key(j, "thread_insn");
		json_int(j, (int64_t)ws->thread_insn);
		json_key(j, "cycles");
		json_obj(j);
		for (int32_t s = 0; s < WS__COUNT; s++) {
			json_key(j, sm_warp_state_name((SmWarpState)s));
			json_int(j, (int64_t)ws->cycles[s]);
		}
		if (r->bows) {
			json_key(j, sm_warp_state_name(WS_BACKED_OFF));
			json_int(j, (int64_t)r->backed_off[w]);
		}
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "machine"); /* the final state, as `musimd run --json` prints it */
	report_run_json(j, m, NULL);
}
