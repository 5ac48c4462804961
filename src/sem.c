/*
** sem.c — the semantics of μ-SIMD: the one step function, for every model.
**
** Reading guide (semantics.md section → where):
**   §1 state ................ state.c (sem_new, sem_clone, sem_pack), mem.c (Σ)
**   §2 control rules ........ model/sync.c: push, BT/BF/BD, SS/SP, SF (split:
**                             sem_split in data.c); JP is the model's go
**   §3 data rules ........... data.c: sem_rule_IT and the exec_* functions
**                             (CT/AS, BP, LD, ST, AT and the extensions),
**                             lane order (TL, here)
**   §4 GSA, exit ............ data.c: sem_gsa_group; exit in each model
**   §5 models ............... model/ipdom.c (hardware SIMT stack),
**                             model/mimd.c (warps of one), model/its.c; model.h
**   §6 warps, barrier ....... here: rule_barrier, release_barrier, sem_pick
**   §7 measures ............. here: sem_step
** sem_step runs the data rules (data.c) and the barrier and calls the
** machine's model (model.h) for everything else. Stuck states never change
** the state: every instruction computes its results first and commits them
** only when no rule premise failed; sem_step restores Θ and the pc when a
** rule fails.
*/
#include "sem.h"

#include "lanes.h"
#include "model.h"

#include <stdlib.h>
#include <string.h>

/* ---- names --------------------------------------------------------------- */

/* ORDER RULE */
static const char *const rule_names[RULE__COUNT] = {
	"SF", "BT", "BF", "BD", "SS", "SP", "JP", "IT", "EX", "BAR", "NOP", "CL", "RT", "RS",
};

const char *sem_rule_name(Rule r)
{
	return (unsigned)r < RULE__COUNT ? rule_names[r] : "?";
}

const char *sem_status_name(SemStatus s)
{
	switch (s) {
	case SEM_RUNNING: return "running";
	case SEM_OK: return "ok";
	case SEM_STUCK: return "stuck";
	case SEM_LIMIT: return "step-limit";
	case SEM_DEADLOCK: return "deadlock";
	case SEM_TIME_LIMIT: return "time-limit";
	}
	return "?";
}

/* ---- errors ---------------------------------------------------------------- */

void sem_error(Machine *m, SemStatus st, const char *rule, int32_t pc, int32_t w, const int32_t *threads,
               int32_t nthreads, const char *fmt, ...)
{
	m->status = st;
	RunError *e = &m->err;
	e->rule = rule;
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	free(e->msg);
	e->msg = buf_steal(&b);
	e->pc = pc;
	e->warp = w;
	free(e->threads);
	e->threads = NULL;
	e->nthreads = nthreads;
	if (nthreads > 0) {
		e->threads = xmalloc((size_t)nthreads * sizeof *e->threads);
		memcpy(e->threads, threads, (size_t)nthreads * sizeof *e->threads);
	}
	free(e->stack);
	e->stack = NULL;
	if (w >= 0) {
		sem_print_stack(&b, m, w);
		e->stack = buf_steal(&b);
	}
}

/* ---- the memory budget (--max-memory) -------------------------------------------
** Everything that grows with the input or the run is counted as it is
** allocated: the lane tables (fixed_bytes), values beyond int64, stacks,
** memory pages, race reports, and what the machine's owner keeps beside it
** (outside_bytes). An instruction that would allocate past the limit stops
** before it changes anything, with rule "limit", like any failed premise. */




void sem_memory_limit(Machine *m, int32_t pc, int32_t w)
{
	sem_error(m, SEM_STUCK, "limit", pc, w, NULL, 0,
	          "memory limit: the state needs more than %llu MiB (--max-memory counts the lane "
	          "tables, memory pages of 256 cells, values beyond int64, sync stacks and race "
	          "reports)%s",
	          (unsigned long long)(m->opt.max_memory >> 20),
	          m->outside_bytes ? "; the copies kept for going back count too" : "");
}

/* ---- lanes ------------------------------------------------------------------ */




bool sem_get(const Machine *m, int32_t v, int32_t t, Num *out)
{
	if (!defrow(m, v)[t]) {
		*out = NUM_I(0);
		return false;
	}
	*out = lane_num(m, v, t);
	return true;
}

int64_t sem_special(const Machine *m, Special s, int32_t t)
{
	if (m->spec[s])
		return m->spec[s][t];
	switch (s) {
	case SPEC_TID: return t;
	case SPEC_LANEID: return t % m->warpsize;
	case SPEC_WARPID: return t / m->warpsize;
	case SPEC_NTID: return m->nthreads;
	case SPEC_NWARPS: return (m->nthreads + m->warpsize - 1) / m->warpsize;
	case SPEC_WARPSIZE: return m->warpsize;
	default: return 0;
	}
}


/* Give variable v in thread t the value r (ownership of r passes). */
static void lane_set(Machine *m, int32_t v, int32_t t, Num r);
static void lane_unset(Machine *m, int32_t v, int32_t t);

void sem_set_lane(Machine *m, int32_t v, int32_t t, Num value)
{
	lane_set(m, v, t, value);
}

void sem_unset_lane(Machine *m, int32_t v, int32_t t)
{
	lane_unset(m, v, t);
}

/* Σ (or local memory) cell addr := value (owned); the cell counters and
** the budget follow. */
void sem_put_cell(Machine *m, Mem *mem, int64_t addr, Num value)
{
	m->cells += mem_put(mem, addr, value, &m->big_bytes, &m->heap_bytes);
}

/* Thread t's local memory (created empty when it has none). */
Mem *sem_local_mem(Machine *m, int32_t t);

static void lane_set(Machine *m, int32_t v, int32_t t, Num r)
{
	size_t n = (size_t)m->nthreads;
	if (MU_UNLIKELY(v == m->watch_var))
		m->watch_changed |= !defrow(m, v)[t] || row(m, v)[t] != (r.z ? 0 : r.i);
	if (m->big[v] && m->big[v][t]) {
		drop_big(&m->big[v][t], &m->big_bytes);
		m->nbig[v]--;
	}
	if (r.z) {
		if (!m->big[v]) {
			m->heap_bytes += (uint64_t)n * sizeof *m->big[v];
			m->big[v] = xcalloc(n, sizeof *m->big[v]);
		}
		m->big[v][t] = r.z;
		m->big_bytes += zbytes(r.z);
		m->nbig[v]++;
		row(m, v)[t] = 0;
	} else {
		row(m, v)[t] = r.i;
	}
	uint8_t *d = defrow(m, v);
	if (!d[t]) {
		d[t] = 1;
		m->ndef[v]++;
	}
}

/* Thread t's variable v becomes unassigned again (a GSA copy of an
** unassigned value, semantics.md §4). */
static void lane_unset(Machine *m, int32_t v, int32_t t)
{
	if (m->big[v] && m->big[v][t]) {
		drop_big(&m->big[v][t], &m->big_bytes);
		m->nbig[v]--;
	}
	uint8_t *d = defrow(m, v);
	if (d[t]) {
		m->watch_changed |= v == m->watch_var;
		d[t] = 0;
		m->ndef[v]--;
	}
}

/* Active threads of warp w, ascending (cached). */
const int32_t *sem_active_list(Machine *m, Warp *w, int32_t *n)
{
	(void)m;
	if (!w->idx_ok) {
		w->nidx = bits_list(w->active, w->nw, w->base, w->idx);
		w->idx_ok = true;
	}
	*n = w->nidx;
	return w->idx;
}

void sem_set_active(Warp *w, const uint64_t *s)
{
	bits_copy(w->active, s, w->nw);
	w->idx_ok = false;
}

static uint64_t rng_next(uint64_t *s)
{
	/* splitmix64 */
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Rule TL threads Σ through the active PEs one at a time; musimd fixes the
** order (--lane-order). Fills m->order, returns the count. */
int32_t sem_lane_order(Machine *m, Warp *w)
{
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	switch (m->opt.lane_order) {
	case ORDER_ASCENDING:
		memcpy(m->order, idx, (size_t)n * sizeof *idx);
		break;
	case ORDER_DESCENDING:
		for (int32_t k = 0; k < n; k++)
			m->order[k] = idx[n - 1 - k];
		break;
	case ORDER_RANDOM:
		memcpy(m->order, idx, (size_t)n * sizeof *idx);
		for (int32_t k = n - 1; k > 0; k--) {
			int32_t j = (int32_t)(rng_next(&m->rng) % (uint64_t)(k + 1));
			int32_t t = m->order[k];
			m->order[k] = m->order[j];
			m->order[j] = t;
		}
		break;
	}
	return n;
}

static bool is_param(const Machine *m, int32_t v)
{
	return m->prog->vars[v].is_param;
}

/* Premise of MV: every active PE has the variable. Reports the first PE in
** lane order that does not. */
bool sem_check_read(Machine *m, Warp *w, int32_t pc, const Opnd *o)
{
	if (o->kind != OPND_VAR || sem_all_defined(m, w, o->var))
		return true;
	const uint8_t *d = defrow(m, o->var);
	int32_t n = sem_lane_order(m, w);
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		if (d[t])
			continue;
		const char *name = m->prog->vars[o->var].name;
		if (is_param(m, o->var))
			sem_error(m, SEM_STUCK, "MV", pc, w->id, &t, 1,
			          "parameter '%s' has no value (give one with --param %s=INT)", name, name);
		else
			sem_error(m, SEM_STUCK, "MV", pc, w->id, &t, 1,
			          "variable '%s' is read in thread %d before it is assigned", name, t);
		break;
	}
	return false;
}

/* ---- control: moving a warp ---------------------------------------------------- */

/* ---- the step's effects (StepInfo.edges, .stores) ------------------------------ */

static void record_edge(Machine *m, const Warp *w, int32_t blk, const uint64_t *movers)
{
	int32_t nw = bits_words(m->sched_warpsize);
	if (m->fx_nedge == m->fx_capedge) {
		m->fx_capedge = m->fx_capedge ? 2 * m->fx_capedge : 4;
		m->fx_edge = xrealloc(m->fx_edge, (size_t)m->fx_capedge * sizeof *m->fx_edge);
		m->fx_lanes = xrealloc(m->fx_lanes, (size_t)m->fx_capedge * (size_t)nw * sizeof *m->fx_lanes);
	}
	int32_t i = m->fx_nedge++;
	m->fx_edge[i] = (SemEdge){w->id, blk, NULL}; /* lanes: at the end of the step */
	bits_copy(m->fx_lanes + (size_t)i * (size_t)nw, movers, w->nw);
}

/* sem_take_edge's part for an edge that is kept (model.h): the PEs in
** movers remember the edge (for φ/μ). */
void sem_keep_edge(Machine *m, Warp *w, int32_t from_pc, const uint64_t *movers)
{
	int32_t blk = m->cfg->block_of[from_pc];
	if (m->effects)
		record_edge(m, w, blk, movers);
	/* only a GSA group at a block's start reads the edge (data.c, the
	** oracle's gsa_reads): edges into blocks without one need not be kept
	** (the deferred PEs of a BD under sync take theirs here too, to a
	** successor of the same block; sem_edge_kept) */
	if (!m->track_edges || !m->cfg->blocks[blk].feeds_gsa)
		return;
	int32_t *fb = m->from_block + w->base;
	for (int32_t j = 0; j < w->nw; j++, fb += 64) {
		uint64_t a = movers[j];
		if (a == ~0ull) { /* a full word of lanes: a loop the compiler vectorises */
			for (int32_t l = 0; l < 64; l++)
				fb[l] = blk;
			continue;
		}
		while (a) { /* by runs of lanes (the usual case: one run a word) */
			int32_t b = __builtin_ctzll(a);
			uint64_t rest = ~a >> b;
			int32_t e = rest ? b + __builtin_ctzll(rest) : 64;
			for (int32_t l = b; l < e; l++)
				fb[l] = blk;
			a = e < 64 ? a & (~0ull << e) : 0;
		}
	}
}

void sem_finish_threads(Machine *m, Warp *w, const uint64_t *gone)
{
	int32_t c = bits_count(gone, w->nw);
	bits_andnot(w->live, gone, w->nw);
	m->nlive -= c;
}

void sem_warp_done(Machine *m, Warp *w)
{
	sem_warp_status(m, w, WARP_DONE);
	m->nwarps_done++;
}

/* ---- the scheduler's ready set --------------------------------------------------
** A bit per warp that can run, and a summary bit per word of those, so that
** the round robin finds the next runnable warp in O(nwarps / 4096) words
** however many warps have finished or wait (a lone straggler among 16 384
** warps costs what one warp costs). */

void sem_ready_reset(Machine *m)
{
	int32_t nwords = bits_words(m->nwarps);
	bits_clear(m->runnable, nwords);
	bits_clear(m->runnable_sum, bits_words(nwords));
	for (int32_t i = 0; i < m->nwarps; i++)
		if (m->warps[i].status == WARP_RUN)
			sem_warp_status(m, &m->warps[i], WARP_RUN);
}

/* The first runnable warp from warp `from` on (no wrapping), or -1. */
static int32_t next_runnable(const Machine *m, int32_t from)
{
	int32_t nwords = bits_words(m->nwarps), word = from >> 6;
	if (word >= nwords)
		return -1;
	uint64_t b = m->runnable[word] & (~0ull << (from & 63));
	if (b)
		return word * 64 + __builtin_ctzll(b);
	for (int32_t next = word + 1, s = next >> 6; next < nwords; s++, next = s * 64) {
		uint64_t sb = m->runnable_sum[s] & (~0ull << (next & 63));
		if (sb) {
			int32_t wd = s * 64 + __builtin_ctzll(sb);
			return wd * 64 + __builtin_ctzll(m->runnable[wd]);
		}
	}
	return -1;
}

/* ---- barrier (language.md §4.2, semantics.md §6) -------------------------------- */

static void release_barrier(Machine *m)
{
	for (int32_t i = 0; i < m->nwarps; i++) {
		Warp *w = &m->warps[i];
		if (w->status != WARP_BARRIER)
			continue;
		if (m->model->release) {
			m->model->release(m, w);
			continue;
		}
		sem_warp_status(m, w, WARP_RUN);
		int32_t pc = w->pc;
		if (m->model->go_cohort) /* go is go along (Model.go_cohort): inline */
			model_go_along(m, w, pc, pc + 1);
		else
			m->model->go(m, w, pc, pc + 1);
	}
	m->arrived = 0;
}

static void check_barrier(Machine *m)
{
	if (m->arrived > 0 && m->arrived == m->nlive)
		release_barrier(m);
}

/* BAR's premise: every live thread of the warp reached the barrier. */
static inline bool barrier_premise(const Warp *w)
{
	return bits_eq(w->active, w->live, w->nw);
}

/* The premise, or the deadlock reported. */
static bool rule_barrier(Machine *m, Warp *w, int32_t pc)
{
	if (!barrier_premise(w)) {
		uint64_t *waiting = m->step_active + w->nw;
		bits_copy(waiting, w->live, w->nw);
		bits_andnot(waiting, w->active, w->nw);
		Buf a = {0}, b = {0};
		sem_print_set(&a, m, w->id, w->active);
		sem_print_set(&b, m, w->id, waiting);
		int32_t n;
		const int32_t *idx = sem_active_list(m, w, &n);
		sem_error(m, SEM_DEADLOCK, "BAR", pc, w->id, idx, n,
		          "barrier reached by threads %s of warp %d while threads %s of that warp wait for "
		          "them to reconverge: the barrier can never complete",
		          buf_str(&a), w->id, buf_str(&b));
		buf_free(&a);
		buf_free(&b);
		return false;
	}
	return true;
}

/* BAR: the warp waits; its arriving threads count toward the release
** (semantics.md §6: the release counts every arrival). */
static void arrive(Machine *m, Warp *w, int32_t arriving)
{
	sem_warp_status(m, w, WARP_BARRIER);
	m->arrived += arriving;
}

/* ---- the step function ------------------------------------------------------------ */


/* One instruction under the machine's model: the data rules and the
** barrier here, control through the model (model.h). */
static bool step_ins(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	const Model *md = m->model;
	const Block *blk = &m->cfg->blocks[m->cfg->block_of[pc]];
	if (md->honours_sync && blk->implicit_sync && pc == blk->first)
		return md->sync(m, w, pc, blk->ngsa, rule);
	switch (ins->op) {
	case OP_STOP:
	case OP_EXIT: return md->finish(m, w, pc, ins->op == OP_STOP, rule);
	case OP_BZ:
	case OP_BNZ: return md->branch(m, w, pc, ins, rule);
	case OP_JUMP:
		*rule = RULE_JP;
		md->go(m, w, pc, ins->target);
		return true;
	case OP_SYNC: return md->sync(m, w, pc, 0, rule);
	case OP_CALL: return sem_rule_call(m, w, pc, ins, rule);
	case OP_RET: return sem_rule_ret(m, w, pc, rule);
	case OP_BARRIER: {
		*rule = RULE_BAR;
		int32_t arriving = bits_count(w->active, w->nw);
		if (md->barrier) {
			md->barrier(m, w, pc); /* the model parks the arriving group */
			m->arrived += arriving;
		} else if (rule_barrier(m, w, pc)) {
			arrive(m, w, arriving);
		} else {
			return false;
		}
		return true;
	}
	default: *rule = RULE_IT; return sem_rule_IT(m, w, pc, ins);
	}
}

/* The limits on the work of a run (--max-steps, --max-thread-instructions,
** --max-time), read when sem_step reaches m->check_steps or m->check_work:
** records the one reached and returns false, or sets the next check. The
** clock is read only when a deadline is set. */
static bool limits_allow(Machine *m, Warp *w, int32_t pc)
{
	const SemOptions *o = &m->opt;
	int32_t n;
	if (m->steps >= o->max_steps) {
		const int32_t *idx = sem_active_list(m, w, &n);
		sem_error(m, SEM_LIMIT, "limit", pc, w->id, idx, n,
		          "step limit of %llu warp instructions reached (--max-steps): the big-step "
		          "relation has no derivation for a run that does not end",
		          (unsigned long long)o->max_steps);
		return false;
	}
	if (m->thread_instructions >= o->max_thread_instructions) {
		const int32_t *idx = sem_active_list(m, w, &n);
		sem_error(m, SEM_LIMIT, "limit", pc, w->id, idx, n,
		          "work limit of %llu thread instructions reached after %llu steps "
		          "(--max-thread-instructions): the big-step relation has no derivation for a "
		          "run that does not end",
		          (unsigned long long)o->max_thread_instructions, (unsigned long long)m->steps);
		return false;
	}
	if (o->deadline > 0 && mono_seconds() >= o->deadline) {
		const int32_t *idx = sem_active_list(m, w, &n);
		sem_error(m, SEM_TIME_LIMIT, "limit", pc, w->id, idx, n,
		          "time limit reached after %llu steps and %llu thread instructions (--max-time): "
		          "the run is unfinished, not failed",
		          (unsigned long long)m->steps, (unsigned long long)m->thread_instructions);
		return false;
	}
	m->check_steps = o->max_steps;
	m->check_work = o->max_thread_instructions;
	if (o->deadline > 0) {
		if (o->max_steps - m->steps > SEM_CLOCK_STEPS)
			m->check_steps = m->steps + SEM_CLOCK_STEPS;
		if (o->max_thread_instructions - m->thread_instructions > SEM_CLOCK_WORK)
			m->check_work = m->thread_instructions + SEM_CLOCK_WORK;
	}
	return true;
}

/* semantics.md §7: what a step of warp w that issued ins at pc counts. */
static inline void count_step(Machine *m, int32_t pc, const Ins *ins, Rule rule,
                              int32_t nactive, bool entered)
{
	m->steps++;
	m->thread_instructions += (uint64_t)nactive;
	m->rule_count[rule]++;
	if (entered)
		m->block_execs[m->cfg->block_of[pc]]++;
	if (ir_is_branch(ins->op) && nactive > 0) {
		m->visits[pc]++;
		if (rule == RULE_BD)
			m->divergences[pc]++;
	}
}

/* The scratch rows of the data rules, made with the first step (copies
** kept for going back never step). */
static void make_scratch(Machine *m)
{
	size_t n = (size_t)m->nthreads;
	m->tmp = xcalloc_rows(n + SEM_ROW_PAD, sizeof *m->tmp); /* a blend reads words of 64 lanes */
	m->res = xmalloc(n * sizeof *m->res);
	m->order = xmalloc(n * sizeof *m->order);
	m->addr = xmalloc(n * sizeof *m->addr);
	m->cellpage = xmalloc(n * sizeof *m->cellpage);
}

/* The step of warp w at pc, whose Θ has nactive threads: the rule under
** the model, then what §7 counts and what a step may complete (the budget,
** the barrier, the end). False when no rule fired (the state is
** unchanged). sem_step and the cohorts' warps (sem_run) step through here. */
static bool fire(Machine *m, Warp *w, int32_t pc, const Ins *ins, int32_t nactive, Rule *rule)
{
	bits_copy(m->step_active, w->active, w->nw);
	bool entered = w->entered;
	w->entered = false;
	m->norders = 1; /* a store or an atomic says otherwise (data.c) */
	bool ok = step_ins(m, w, pc, ins, rule);
	m->model_alt = 0; /* taken by the step, or dropped with a stuck one */
	if (!ok) {
		/* no rule fired: the state is unchanged */
		w->entered = entered;
		bits_copy(w->active, m->step_active, w->nw);
		w->idx_ok = false;
		w->pc = pc;
		return false;
	}
	count_step(m, pc, ins, *rule, nactive, entered);
	if (w->ctl.n > m->max_depth) /* sem_stack_depth */
		m->max_depth = w->ctl.n;
	/* what the instructions did not check before allocating: the stacks */
	if (MU_UNLIKELY(!budget_allows(m, 0)) && m->status == SEM_RUNNING) {
		sem_memory_limit(m, pc, w->id);
	} else {
		/* an arrival, or threads that stopped or exited, may complete the barrier */
		check_barrier(m);
		if (m->status == SEM_RUNNING && m->nwarps_done == m->nwarps)
			m->status = SEM_OK;
	}
	return true;
}

SemStatus sem_step(Machine *m, int32_t wi, StepInfo *info)
{
	if (m->status != SEM_RUNNING || wi < 0 || wi >= m->nwarps)
		return m->status;
	Warp *w = &m->warps[wi];
	if (w->status != WARP_RUN)
		return m->status;
	int32_t pc = w->pc;
	/* one comparison pair per step: the limits themselves only now and then */
	if (MU_UNLIKELY(m->steps >= m->check_steps || m->thread_instructions >= m->check_work) &&
	    !limits_allow(m, w, pc))
		return m->status;
	if (pc < 0 || pc >= m->prog->nins) {
		sem_error(m, SEM_STUCK, "IT", -1, wi, NULL, 0, "warp %d fell off the end of the program", wi);
		return m->status;
	}
	const Ins *ins = &m->prog->ins[pc];
	if (MU_UNLIKELY(!m->tmp))
		make_scratch(m);
	m->fx_nedge = m->fx_ncell = 0;
	int32_t nactive = sem_active_count(w);
	Rule rule = RULE_IT;
	if (!fire(m, w, pc, ins, nactive, &rule))
		return m->status;
	if (info) {
		info->step = m->steps;
		info->warp = wi;
		info->pc = pc;
		info->rule = rule;
		info->active = m->step_active;
		info->nactive = nactive;
		int32_t nw = bits_words(m->sched_warpsize);
		for (int32_t i = 0; i < m->fx_nedge; i++)
			m->fx_edge[i].lanes = m->fx_lanes + (size_t)i * (size_t)nw;
		info->edges = m->fx_edge;
		info->nedges = m->fx_nedge;
		info->stores = m->fx_cell;
		info->nstores = m->fx_ncell;
		info->norders = m->norders;
		info->order = m->lane_choice;
		info->lanes = m->order;
	}
	return m->status;
}

int32_t sem_alternatives(const Machine *m, int32_t wi)
{
	const Warp *w = &m->warps[wi];
	if (m->model->choose) {
		int32_t n = m->model->ngroups(w);
		return n > 1 ? n : 1;
	}
	if (m->model->path_choice && w->pc >= 0 && w->pc < m->prog->nins && ir_is_branch((Op)m->prog->ins[w->pc].op))
		return 2;
	return 1;
}

SemStatus sem_step_group(Machine *m, int32_t wi, int32_t alt, StepInfo *info)
{
	if (alt >= 0 && m->status == SEM_RUNNING && wi >= 0 && wi < m->nwarps && m->warps[wi].status == WARP_RUN) {
		Warp *w = &m->warps[wi];
		int32_t n = sem_alternatives(m, wi);
		if (m->model->choose)
			m->model->choose(m, w, alt % n);
		else if (n == 2)
			m->opt.taken_first = alt % n == 1;
		m->lane_choice = alt / n;
		if (m->lane_choice > 0 && !sem_order_matters(m, w)) {
			sem_no_such_order(m, w, w->pc, 1);
			m->lane_choice = 0;
			return m->status;
		}
	}
	SemStatus st = sem_step(m, wi, info);
	m->lane_choice = 0;
	return st;
}

int32_t sem_choice_key(const Machine *m, int32_t wi, int32_t alt)
{
	const Warp *w = &m->warps[wi];
	return m->model->choice_key ? m->model->choice_key(w, alt) : w->pc;
}

int32_t sem_pick(const Machine *m)
{
	if (m->status != SEM_RUNNING)
		return -1;
	int32_t w = next_runnable(m, m->cursor);
	return w >= 0 ? w : next_runnable(m, 0);
}

void sem_advance(Machine *m, int32_t w)
{
	m->cursor = w + 1 < m->nwarps ? w + 1 : 0;
}

int32_t sem_schedule(Machine *m)
{
	int32_t w = sem_pick(m);
	if (w < 0 && m->status == SEM_RUNNING)
		/* cannot happen while the barrier rules hold; report rather than spin */
		sem_error(m, SEM_DEADLOCK, "BAR", -1, -1, NULL, 0,
		          "no warp can run and the program has not finished");
	return w;
}

/* ---- cohorts: the round robin's next steps as one --------------------------------
** semantics.md §6: run moves warps 0, 1, ... one instruction each. When the
** warps it runs next all stand at one instruction that is a data instruction
** (arithmetic, a copy, a load or a store, a μ/φ/γ/η group that is no
** implicit sync), a branch, a jump, a sync the model ignores or a barrier,
** their steps do not see each other: a data rule or a branch's split reads
** and writes its warp's lanes only, and Σ, which a load only reads and
** stores to cells of their own do not share; the model's control rules
** touch that warp alone (Model.cohorts). So sem_run, when no hook watches
** the steps one by one, runs them together: the data rule, or the branch's
** split, once over the union of their lanes (the lane loops run over all of
** them: 1024 warps of one are one vector), then each warp's step through
** fire, the path sem_step takes (a data step's rule is then the model's go
** alone: cohort_moves). A data rule or a split that
** fails changes nothing (data.c commits only when no premise failed), nor
** does a store whose warps share a cell with different values (their steps
** one by one see no race): the cohort is dropped and its warps step alone,
** so that an error is reported as sem_step reports it. */

typedef enum CohortKind { COHORT_NONE, COHORT_DATA, COHORT_BRANCH, COHORT_MOVE, COHORT_BARRIER } CohortKind;

static CohortKind cohort_kind(const Machine *m, int32_t pc)
{
	const Block *blk = &m->cfg->blocks[m->cfg->block_of[pc]];
	if (m->model->honours_sync && blk->implicit_sync && pc == blk->first)
		return COHORT_NONE; /* rules SS/SP */
	switch (m->prog->ins[pc].op) {
	case OP_COPY:
	case OP_UNARY:
	case OP_BINARY:
	case OP_LOAD:
	case OP_LLOAD:
	case OP_STORE:  /* dropped when two of the warps store to one cell (data.c) */
	case OP_LSTORE:
	case OP_PHI:
	case OP_GAMMA:
	case OP_MU:
	case OP_ETA: return COHORT_DATA;
	case OP_BZ:
	case OP_BNZ: return COHORT_BRANCH;
	case OP_JUMP: return COHORT_MOVE;
	case OP_SYNC: return m->model->honours_sync ? COHORT_NONE : COHORT_MOVE;
	case OP_BARRIER: return m->model->barrier ? COHORT_NONE : COHORT_BARRIER;
	default: return COHORT_NONE;
	}
}

/* The threads a cohort spans at most: its union's lane list and the rows'
** parts it reads and writes stay in the caches (2^20 threads in warps of
** 1024 ran 15% slower in cohorts of all of them). */
#define COHORT_MAX_SPAN 16384

/* A union of lanes costs in proportion to them, a step in proportion to
** the warps: with more than this many active lanes per warp, steps one by
** one (whose lists of active threads stay made) are cheaper. Since a
** partly active union runs its lanes by mask (data.c, span_arith), warps
** of 32 to 128 running half their lanes are 13-19% faster in cohorts
** (divergent.simd); warps of 1024 in cohorts were 6% slower at 2^16
** threads. */
#define COHORT_LANES 128

/* The runnable warp after w (sem_pick's next choice, not wrapping), or -1;
** first the neighbour, the usual case. */
static inline int32_t next_after(const Machine *m, int32_t w)
{
	int32_t n = w + 1;
	if (n < m->nwarps && (m->runnable[n >> 6] >> (n & 63)) & 1)
		return n;
	return next_runnable(m, n);
}

/* The active lanes of the cohort's k warps, summed once per cohort
** (Machine.cohort_nlanes: kept with a kept cohort). */
static void count_lanes(Machine *m, int32_t k)
{
	const int32_t *nact = m->cohort_warps + m->nwarps;
	int64_t n = 0;
	for (int32_t i = 0; i < k; i++)
		n += nact[i];
	m->cohort_nlanes = n;
}

/* The warps of the cohort that starts at warp `first`, into
** m->cohort_warps, with their active threads' counts after them (at
** m->cohort_warps + nwarps): first and the runnable warps after it (the
** round robin's order, not wrapping) at the same pc, as long as none of
** their steps reaches a check of the limits (limits_allow), and, when the
** step has a lanes' part, they have at most COHORT_LANES active lanes a
** warp. Returns how many. */
static int32_t cohort_members(Machine *m, int32_t first, int32_t pc, bool lanes, bool *all)
{
	int32_t k = 0, *nact = m->cohort_warps + m->nwarps, w;
	uint64_t work = m->thread_instructions;
	for (w = first; w >= 0 && m->warps[w].pc == pc; w = next_after(m, w)) {
		if (m->steps + (uint64_t)k >= m->check_steps || work >= m->check_work ||
		    m->warps[w].base + m->warps[w].size - m->warps[first].base > COHORT_MAX_SPAN)
			break;
		nact[k] = sem_active_count(&m->warps[w]);
		if (lanes && work + (uint64_t)nact[k] - m->thread_instructions > COHORT_LANES * (uint64_t)(k + 1))
			break; /* too many lanes for a union (COHORT_LANES) */
		work += (uint64_t)nact[k];
		m->cohort_warps[k++] = w;
	}
	*all = w < 0 && next_runnable(m, 0) == first;
	return k;
}

/* The kept cohort (Machine.kept_k) when it is the one that starts at warp
** `first`, standing at pc: its warps were every runnable warp and a data
** step or a move (whose go under Model.go_cohort moves every warp to one
** pc and changes no Θ, no warp's status) took them all to pc, so
** cohort_members would find them again; only the limits may now stop it
** earlier (then it is found anew). Returns its warps, or 0. */
static int32_t kept_cohort(const Machine *m, int32_t first, int32_t pc)
{
	if (m->kept_k == 0 || first != m->kept_first || pc != m->kept_pc)
		return 0;
	int32_t k = m->kept_k;
	if (m->steps + (uint64_t)k >= m->check_steps ||
	    m->thread_instructions + (uint64_t)m->cohort_nlanes >= m->check_work)
		return 0;
	return k;
}

/* The cohort's k warps as one: their active lanes over the span of their
** threads. */
static Warp *cohort_warp(Machine *m, int32_t k)
{
	Warp *c = &m->cohort;
	const Warp *w0 = &m->warps[m->cohort_warps[0]], *wl = &m->warps[m->cohort_warps[k - 1]];
	c->id = w0->id;
	c->pc = w0->pc;
	c->base = w0->base;
	c->size = wl->base + wl->size - w0->base;
	c->nw = bits_words(c->size);
	int32_t n = (int32_t)m->cohort_nlanes;
	if (n == c->size) { /* every thread of the span: dense */
		memset(c->active, 0xff, (size_t)c->nw * sizeof *c->active);
		if (c->size & 63)
			c->active[c->nw - 1] = (1ull << (c->size & 63)) - 1;
		for (int32_t j = 0; j < n; j++)
			c->idx[j] = c->base + j;
		c->nidx = n;
		c->idx_ok = true;
		return c;
	}
	/* the warps' words moved to their place in the span; the list of
	** lanes made when a rule asks for it (sem_active_list): a union run
	** by mask (data.c, span_arith) never does */
	bits_clear(c->active, c->nw);
	for (int32_t i = 0; i < k; i++) {
		const Warp *w = &m->warps[m->cohort_warps[i]];
		int32_t off = w->base - c->base, sh = off & 63;
		uint64_t *d = c->active + (off >> 6);
		for (int32_t j = 0; j < w->nw; j++) {
			uint64_t a = w->active[j];
			d[j] |= a << sh;
			if (sh && a >> (64 - sh))
				d[j + 1] |= a >> (64 - sh);
		}
	}
	c->idx_ok = false;
	return c;
}

/* A failed rule recorded an error the cohort does not keep. */
static void drop_error(Machine *m)
{
	RunError *e = &m->err;
	free(e->msg);
	free(e->threads);
	free(e->stack);
	*e = (RunError){.pc = -1, .warp = -1};
	m->status = SEM_RUNNING;
}

/* The lanes' part of the cohort's step: the data rule, or the branch's
** split (into m->cohort_split, read by sem_split), once over the union of
** the k warps' lanes. False: it failed and changed nothing. */
static bool cohort_lanes(Machine *m, CohortKind kind, int32_t k, int32_t pc, const Ins *ins)
{
	if (kind != COHORT_DATA && kind != COHORT_BRANCH)
		return true; /* no lanes' part */
	Warp *c = m->kept_union ? &m->cohort : cohort_warp(m, k);
	c->pc = pc;
	m->kept_union = true;
	if (kind == COHORT_DATA)
		return sem_data_rule(m, c, pc, ins);
	int32_t nw = bits_words(m->nthreads) + 1;
	return sem_split(m, c, pc, ins, m->cohort_split, m->cohort_split + nw);
}

/* Which way all of warp w's active lanes go in the cohort's split: 1 they
** jump, 0 they fall, -1 both ways (a divergence: the model's rule). */
static int32_t uniform_side(Machine *m, const Warp *w)
{
	uint64_t *jump = m->step_active + w->nw;
	bits_extract(jump, m->cohort_split, w->base - m->cohort.base, w->size);
	bool all = true, none = true;
	for (int32_t j = 0; j < w->nw; j++) {
		uint64_t a = w->active[j], t = jump[j] & a;
		all &= t == a;
		none &= t == 0;
	}
	return none ? 0 : all ? 1 : -1;
}

/* Which way all the lanes of the cohort's union go in its split: 1 jump,
** 0 fall, -1 both (each warp then its own way: uniform_side). */
static int32_t union_side(const Machine *m)
{
	const Warp *c = &m->cohort;
	const uint64_t *jump = m->cohort_split;
	bool all = true, none = true;
	for (int32_t j = 0; j < c->nw; j++) {
		all &= jump[j] == c->active[j];
		none &= jump[j] == 0;
	}
	return none ? 0 : all ? 1 : -1;
}

/* Which way every lane of the cohort's branch goes, when all go one way
** and the model's rule for it is go alone (Model.uniform_branch_go): 1
** they jump, 0 they fall; else -1 (a warp with no active lane takes
** the model's own rule). One pass over the union's words, not the warps. */
static int32_t cohort_side(const Machine *m, int32_t k)
{
	if (!m->model->uniform_branch_go)
		return -1;
	const int32_t *nact = m->cohort_warps + m->nwarps;
	for (int32_t i = 0; i < k; i++)
		if (nact[i] == 0)
			return -1;
	return union_side(m);
}

/* The cohort's warps step one after another through fire, as sem_step
** steps them, with the lanes' part already done (Machine.split_given); a
** uniform branch whose rule is go alone (Model.uniform_branch) is that
** rule without the split, and a barrier whose
** premise holds the arrival alone, the release checked after the last
** (fire checks it after each). Returns how many
** stepped: fewer than k when a rule failed (the run stops there). *same:
** every warp's rule was go alone to one pc (the cohort is then still one). */
static int32_t cohort_steps(Machine *m, CohortKind kind, int32_t k, int32_t pc, const Ins *ins, bool *same)
{
	const Model *md = m->model;
	const int32_t *nact = m->cohort_warps + m->nwarps;
	bool quick = kind == COHORT_BRANCH && md->uniform_branch;
	int32_t i = 0, first_side = -1, all_side = quick ? union_side(m) : -1;
	bool arrived = false;
	Rule rule;
	*same = quick;
	for (; i < k && m->status == SEM_RUNNING; i++) {
		Warp *w = &m->warps[m->cohort_warps[i]];
		if (kind == COHORT_BARRIER && barrier_premise(w)) {
			/* BAR's premise holds: the arrival alone (no release before the
			** last warp: the cohort's later warps have not arrived) */
			arrive(m, w, nact[i]);
			count_step(m, pc, ins, RULE_BAR, nact[i], w->entered);
			w->entered = false;
			arrived = true;
			*same = false;
			continue;
		}
		int32_t side = !quick || nact[i] == 0 ? -1 : all_side >= 0 ? all_side : uniform_side(m, w);
		bool entered = w->entered;
		w->entered = false;
		if (side >= 0 && md->uniform_branch(m, w, pc, ins, side, &rule)) {
			count_step(m, pc, ins, rule, nact[i], entered);
			*same &= first_side < 0 || side == first_side;
			first_side = side;
			continue;
		}
		w->entered = entered;
		*same = false;
		if (!fire(m, w, pc, ins, nact[i], &rule))
			break;
	}
	if (arrived)
		check_barrier(m); /* what fire checks after each step */
	return i;
}

/* The same for a data instruction (its rule done), a jump or an ignored
** sync, whose rule is the model's go alone: it cannot fail, allocates
** nothing, pushes no record and completes nothing, so what fire checks
** after it is left out (a third of a warp of one's step). */
static void cohort_moves(Machine *m, int32_t k, int32_t pc, Rule rule, int32_t from, int32_t to, bool lazy)
{
	const Model *md = m->model;
	uint64_t entered = 0;
	if (lazy) { /* go_cohort's writes left for flush_lazy (lazy_move) */
		m->lazy_k = k;
		m->lazy_pc = to;
	} else if (md->go_cohort) {
		entered = md->go_cohort(m, m->cohort_warps, k, from, to);
	} else {
		for (int32_t i = 0; i < k; i++) {
			Warp *w = &m->warps[m->cohort_warps[i]];
			entered += w->entered;
			w->entered = false;
			md->go(m, w, from, to);
		}
	}
	/* count_step for the k steps at once (no branch among them) */
	m->steps += (uint64_t)k;
	m->thread_instructions += (uint64_t)m->cohort_nlanes;
	m->rule_count[rule] += (uint64_t)k;
	m->block_execs[m->cfg->block_of[pc]] += entered;
	m->kept_clear = !sem_enters_block(m, from, to); /* go cleared or set every `entered` */
}

/* Writes the pc of the kept cohort's moves that were not written
** (Machine.lazy_k) into its warps. */
static void flush_lazy(Machine *m)
{
	for (int32_t i = 0; i < m->lazy_k; i++)
		m->warps[m->cohort_warps[i]].pc = m->lazy_pc;
	m->lazy_k = 0;
}

/* Whether the kept cohort's next step, a data step or a move from `from`
** to `to`, may leave its warps' pcs unwritten (Machine.lazy_k): go along
** (Model.go_cohort) to the next instruction of the same block sets each
** warp's pc and clears its `entered`, already clear (kept_clear). */
static bool lazy_move(const Machine *m, bool kept, CohortKind kind, int32_t from, int32_t to)
{
	return kept && m->kept_clear && m->model->go_cohort && (kind == COHORT_DATA || kind == COHORT_MOVE) &&
	       to == from + 1 && !sem_enters_block(m, from, to);
}

/* The cohorts' rows (Machine.cohort), made with the first cohort. */
static void make_cohort(Machine *m)
{
	int32_t nw = bits_words(m->nthreads) + 1;
	m->cohort_warps = xmalloc(2 * (size_t)m->nwarps * sizeof *m->cohort_warps);
	m->cohort.active = xcalloc((size_t)nw, sizeof *m->cohort.active);
	m->cohort.idx = xmalloc((size_t)m->nthreads * sizeof *m->cohort.idx);
	m->cohort_split = xcalloc(2 * (size_t)nw, sizeof *m->cohort_split);
}

/* Runs the cohort that starts at warp `first` (sem_pick's choice) and
** returns true, or returns false when there is none of two warps or more:
** then sem_step runs `first` alone. */
static bool run_cohort(Machine *m, int32_t first)
{
	if (m->lazy_k && first != m->kept_first)
		flush_lazy(m);
	int32_t pc = m->lazy_k ? m->lazy_pc : m->warps[first].pc;
	if (m->steps < m->cohort_after || m->opt.lane_order == ORDER_RANDOM || m->opt.atomic_any ||
	    m->effects || pc < 0 || pc >= m->prog->nins)
		return false;
	CohortKind kind = cohort_kind(m, pc);
	if (kind == COHORT_NONE)
		return false;
	if (MU_UNLIKELY(!m->cohort_warps))
		make_cohort(m);
	if (MU_UNLIKELY(!m->tmp))
		make_scratch(m);
	bool all = false;
	int32_t k = kept_cohort(m, first, pc);
	bool kept = k > 0;
	if (k == 0) {
		flush_lazy(m);
		m->kept_union = false;
		k = cohort_members(m, first, pc, kind == COHORT_DATA || kind == COHORT_BRANCH, &all);
		count_lanes(m, k);
	} else {
		all = true;
	}
	m->kept_k = 0;
	if (k < 2)
		return false;
	const Ins *ins = &m->prog->ins[pc];
	bool jump = ins->op == OP_JUMP;
	int32_t to = kind == COHORT_DATA ? sem_data_next(m, pc, ins) : jump ? ins->target : pc + 1;
	int32_t from = kind == COHORT_DATA ? to - 1 : pc;
	bool lazy = lazy_move(m, kept, kind, from, to);
	if (!lazy)
		flush_lazy(m);
	if (!cohort_lanes(m, kind, k, pc, ins)) {
		drop_error(m);
		m->cohort_after = m->steps + (uint64_t)k; /* these warps step alone */
		return false;
	}
	m->cohort_steps += (uint64_t)k;
	m->norders = 1;
	m->model_alt = 0;
	int32_t side = kind == COHORT_BRANCH ? cohort_side(m, k) : -1;
	if (kind == COHORT_DATA || kind == COHORT_MOVE || side >= 0) {
		Rule rule = kind == COHORT_DATA ? RULE_IT : jump ? RULE_JP : RULE_NOP;
		if (side >= 0) { /* model_uniform_go's rule and move, for every warp at once */
			rule = side ? RULE_BT : RULE_BF;
			to = side ? ins->target : pc + 1;
			m->visits[pc] += (uint64_t)k; /* count_step's for a branch */
		}
		cohort_moves(m, k, pc, rule, from, to, lazy);
		if (all && m->model->go_cohort) { /* still every runnable warp, all at `to` */
			m->kept_k = k;
			m->kept_first = first;
			m->kept_pc = to;
		}
	} else {
		m->kept_clear = false;
		m->split_given = kind == COHORT_BRANCH;
		bool same;
		int32_t waiting = m->arrived; /* threads at the barrier before the cohort */
		int32_t done = cohort_steps(m, kind, k, pc, ins, &same);
		m->split_given = false;
		if (done < k)
			return true; /* the run stops here */
		/* a barrier the cohort's warps alone reached and released: the
		** release moved them all on by go (release_barrier), which under
		** the models with go_cohort is go along (one pc, Θ unchanged) */
		same |= kind == COHORT_BARRIER && waiting == 0 && m->arrived == 0 && !m->model->release;
		if (same && all && m->model->go_cohort) { /* every warp moved by go, to one pc */
			m->kept_k = k;
			m->kept_first = first;
			m->kept_pc = m->warps[first].pc;
		}
	}
	sem_advance(m, m->cohort_warps[k - 1]);
	return true;
}

/* ---- strips: straight data steps of every warp, a strip of lanes at a time ------------
** semantics.md §6: run moves warps 0, 1, ... one instruction each. When
** every runnable warp stands at pc and pc starts k >= 2 data instructions
** of one block that can neither fail nor leave it — arithmetic and copies
** whose operators cannot fail on int64 operands (division and remainder
** only by a literal other than 0 and -1, a right shift only by a literal of
** 0 or more, no left shift), every variable the run reads before writing it
** assigned in every active lane, the values beyond int64 the run may make
** (bounded by bit widths) within the budget — the
** round robin's next k rounds are these k steps of every warp; each reads
** and writes its warp's lanes only, none fails, and nothing else steps in
** between. So sem_run runs the k instructions over a strip of warps (the
** data rule over their union of lanes, as a cohort's) while the strip's
** rows are in the cache, strip after strip, then moves every warp on by k:
** the state the k rounds one by one leave. With 2^20 threads the rounds
** one by one stream every row through memory once an instruction (lcg.simd
** at 2^18 and 2^20 threads: 0.8x the time with strips; bench/README.md). */

#define STRIP_MIN_LANES 32768 /* fewer: the rows stay in the cache (L2) anyway */
#define STRIP_LANES 4096      /* a strip's span of threads: its rows' parts in L2 */
#define STRIP_MAX_RUN 64      /* instructions of a run taken at once */
#define STRIP_MAX_BITS 4096   /* values the run may make, in bits (else no strips) */

/* Whether data instruction ins cannot fail on int64 operands that are
** assigned (its exact path at worst makes a value beyond int64). */
static bool cannot_fail(const Program *p, const Ins *ins)
{
	const Opnd *ops[2] = {&ins->a, &ins->b};
	int32_t nops = ins->op == OP_BINARY ? 2 : ins->op == OP_COPY || ins->op == OP_UNARY ? 1 : 0;
	if (nops == 0)
		return false;
	for (int32_t o = 0; o < nops; o++)
		if (!(ops[o]->kind == OPND_VAR || ops[o]->kind == OPND_SPECIAL ||
		      (ops[o]->kind == OPND_LIT && !ir_lit(p, ops[o]).z)))
			return false;
	if (ins->op != OP_BINARY)
		return true;
	int64_t b = ins->b.kind == OPND_LIT ? ir_lit(p, &ins->b).i : 0;
	switch ((BinOp)ins->sub) {
	case BIN_SHL: return false;
	case BIN_SHR: return ins->b.kind == OPND_LIT && b >= 0;
	case BIN_DIV:
	case BIN_MOD: return ins->b.kind == OPND_LIT && b != 0 && b != -1;
	default: return true;
	}
}

/* How many data instructions from pc on a strip may run (Machine.straight,
** made once): cannot_fail, each followed by one of its block. */
static int32_t straight_run(Machine *m, int32_t pc)
{
	if (MU_UNLIKELY(!m->straight)) {
		/* (within the per-instruction bytes sem_new counts) */
		const Program *p = m->prog;
		const int32_t *block_of = m->cfg->block_of;
		m->straight = xmalloc(((size_t)p->nins + 1) * sizeof *m->straight);
		m->straight[p->nins] = 0;
		for (int32_t i = p->nins - 1; i >= 0; i--)
			m->straight[i] = i + 1 < p->nins && block_of[i + 1] == block_of[i] && cannot_fail(p, &p->ins[i])
			                     ? 1 + m->straight[i + 1]
			                     : 0;
	}
	return m->straight[pc];
}

/* Bits (sign included) of ins's result from those of its operands. */
static int32_t result_bits(const Ins *ins, int32_t a, int32_t b)
{
	int32_t max = a > b ? a : b;
	if (ins->op == OP_COPY)
		return a;
	if (ins->op == OP_UNARY)
		return ins->sub == UN_NOT ? 1 : a + 1;
	switch ((BinOp)ins->sub) {
	case BIN_ADD:
	case BIN_SUB: return max + 1;
	case BIN_MUL: return a + b;
	case BIN_DIV:
	case BIN_SHR: return a;
	case BIN_MOD: return a < b ? a : b;
	case BIN_AND:
	case BIN_OR:
	case BIN_XOR:
	case BIN_MIN:
	case BIN_MAX: return max;
	default: return 1; /* comparisons, && and || */
	}
}

/* Whether variable v is assigned in every active lane of the runnable warps. */
static bool assigned_everywhere(const Machine *m, int32_t v)
{
	if (m->ndef[v] == m->nthreads)
		return true;
	for (int32_t w = next_runnable(m, 0); w >= 0; w = next_runnable(m, w + 1))
		if (!sem_all_defined(m, &m->warps[w], v))
			return false;
	return true;
}

/* Whether the k instructions from pc (straight_run's) may run by strips over
** `lanes` active lanes: none writes the watched variable; each variable read
** before the run writes it holds no value beyond int64 and is assigned in
** every active lane; and the values beyond int64 the run may make — every
** instruction's result in every lane, none freed, a table per variable —
** fit the budget, so that its exact path cannot stop it. */
static bool strip_ready(Machine *m, int32_t pc, int32_t k, int64_t lanes)
{
	const Program *p = m->prog;
	int32_t dst[STRIP_MAX_RUN], bits[STRIP_MAX_RUN];
	uint64_t bytes = 0;
	for (int32_t j = 0; j < k; j++) {
		const Ins *ins = &p->ins[pc + j];
		if (ins->dst == m->watch_var)
			return false;
		const Opnd *ops[2] = {&ins->a, &ins->b};
		int32_t b[2] = {64, 64};
		for (int32_t o = 0; o < (ins->op == OP_BINARY ? 2 : 1); o++) {
			if (ops[o]->kind != OPND_VAR)
				continue;
			int32_t v = ops[o]->var, i = j - 1;
			while (i >= 0 && dst[i] != v)
				i--;
			if (i >= 0)
				b[o] = bits[i];
			else if (m->nbig[v] > 0 || !assigned_everywhere(m, v))
				return false;
		}
		dst[j] = ins->dst;
		bits[j] = result_bits(ins, b[0], b[1]);
		if (bits[j] > STRIP_MAX_BITS || (uint64_t)bits[j] > num_max_bits)
			return false;
		if (bits[j] > 64) {
			uint64_t limbs = (uint64_t)(bits[j] + 63) / 64 + 2;
			bytes += (uint64_t)lanes * (2 * limbs * sizeof(mp_limb_t) + sizeof(__mpz_struct));
			if (!m->big[ins->dst])
				bytes += (uint64_t)m->nthreads * sizeof *m->big[ins->dst];
		}
	}
	return budget_allows(m, bytes);
}

/* The k instructions from pc for the kc warps in m->cohort_warps (their
** active counts after them): each one's data rule over their union of
** lanes, then the k steps of each warp as a cohort's moves (cohort_moves:
** the model's go along and count_step's counts). False when a rule failed. */
static bool run_strip(Machine *m, int32_t kc, int32_t pc, int32_t k)
{
	count_lanes(m, kc);
	Warp *c = cohort_warp(m, kc);
	for (int32_t j = 0; j < k; j++) {
		c->pc = pc + j;
		if (!sem_data_rule(m, c, pc + j, &m->prog->ins[pc + j]))
			return false;
	}
	for (int32_t j = 0; j < k; j++)
		cohort_moves(m, kc, pc + j, RULE_IT, pc + j, pc + j + 1, false);
	m->cohort_steps += (uint64_t)k * (uint64_t)kc;
	m->strip_steps += (uint64_t)k * (uint64_t)kc;
	return true;
}

/* sem_run's strips (above), when warp `first`, the first runnable warp,
** stands at the start of a straight run: true when they ran it for every
** runnable warp. */
static bool run_strips(Machine *m, int32_t first)
{
	if (m->nthreads < STRIP_MIN_LANES || !m->model->go_cohort || m->steps < m->cohort_after ||
	    m->opt.lane_order == ORDER_RANDOM || m->opt.atomic_any || m->effects)
		return false;
	if (m->lazy_k && first != m->kept_first)
		flush_lazy(m);
	int32_t pc = m->lazy_k ? m->lazy_pc : m->warps[first].pc;
	if (pc < 0 || pc >= m->prog->nins || cohort_kind(m, pc) != COHORT_DATA)
		return false;
	int32_t k = straight_run(m, pc);
	if (k < 2 || next_runnable(m, 0) != first)
		return false; /* not the start of a round */
	if (k > STRIP_MAX_RUN)
		k = STRIP_MAX_RUN;
	flush_lazy(m);
	int64_t lanes = 0;
	int32_t nrun = 0, last = first;
	for (int32_t w = first; w >= 0; w = next_runnable(m, w + 1)) {
		if (m->warps[w].pc != pc)
			return false;
		lanes += sem_active_count(&m->warps[w]);
		nrun++;
		last = w;
	}
	if (lanes < STRIP_MIN_LANES || m->steps + (uint64_t)k * (uint64_t)nrun >= m->check_steps ||
	    m->thread_instructions + (uint64_t)k * (uint64_t)lanes >= m->check_work || !strip_ready(m, pc, k, lanes))
		return false;
	if (MU_UNLIKELY(!m->cohort_warps))
		make_cohort(m);
	if (MU_UNLIKELY(!m->tmp))
		make_scratch(m);
	m->kept_k = 0;
	m->kept_union = false;
	m->norders = 1;
	m->model_alt = 0;
	/* strip after strip of warps spanning up to STRIP_LANES threads */
	int32_t *nact = m->cohort_warps + m->nwarps, kc = 0;
	for (int32_t w = first; w >= 0; w = next_runnable(m, w + 1)) {
		const Warp *wp = &m->warps[w];
		if (kc > 0 && wp->base + wp->size - m->warps[m->cohort_warps[0]].base > STRIP_LANES) {
			if (!run_strip(m, kc, pc, k))
				return true; /* cannot happen (strip_ready): the rule's error stops the run */
			kc = 0;
		}
		nact[kc] = sem_active_count(&m->warps[w]);
		m->cohort_warps[kc++] = w;
	}
	if (!run_strip(m, kc, pc, k))
		return true;
	sem_advance(m, last); /* the round robin's next pick: first again */
	return true;
}

SemStatus sem_run(Machine *m, SemHook hook, void *ctx)
{
	StepInfo info;
	bool cohorts = !hook && m->model->cohorts && m->nwarps > 1;
	m->kept_k = 0; /* the state may have changed since the last run */
	m->kept_union = false;
	while (m->status == SEM_RUNNING) {
		int32_t w = sem_schedule(m);
		if (w < 0)
			break;
		if (cohorts && (run_strips(m, w) || run_cohort(m, w)))
			continue;
		flush_lazy(m);
		m->kept_k = 0; /* a step alone may change anything */
		m->kept_union = false;
		uint64_t before = m->steps;
		sem_step(m, w, &info);
		if (m->steps > before) {
			sem_advance(m, w);
			if (hook)
				hook(ctx, m, &info);
		}
	}
	flush_lazy(m); /* (a guard: every way out of the loop above has flushed) */
	return m->status;
}

/* ---- printing -------------------------------------------------------------------------- */

int32_t sem_stack_depth(const Machine *m, int32_t w)
{
	return m->warps[w].ctl.n;
}

void sem_print_set(Buf *b, const Machine *m, int32_t wi, const uint64_t *set)
{
	const Warp *w = &m->warps[wi];
	if (bits_empty(set, w->nw)) {
		buf_puts(b, "∅");
		return;
	}
	buf_putc(b, '{');
	bool first = true;
	for (int32_t l = 0; l < w->size;) {
		if (!bit_get(set, l)) {
			l++;
			continue;
		}
		int32_t e = l;
		while (e + 1 < w->size && bit_get(set, e + 1))
			e++;
		if (!first)
			buf_putc(b, ',');
		first = false;
		if (e - l + 1 >= 5) {
			buf_printf(b, "%d..%d", w->base + l, w->base + e);
		} else {
			for (int32_t k = l; k <= e; k++)
				buf_printf(b, k == l ? "%d" : ",%d", w->base + k);
		}
		l = e + 1;
	}
	buf_putc(b, '}');
}

static void print_pc(Buf *b, const Machine *m, int32_t pc)
{
	if (pc < 0)
		buf_puts(b, "⊥"); /* the virtual exit: no label can be spelt so */
	else
		ir_print_where(b, m->prog, pc);
}

/* Field i of a record: a pc, a number, or a set. */
static void print_field(Buf *b, const Machine *m, int32_t wi, const CtlField *f, const CtlView *v, int32_t i)
{
	if (f->is_set && f->bits)
		sem_print_bits(b, m, wi, v->set[i]);
	else if (f->is_set)
		sem_print_set(b, m, wi, v->set[i]);
	else if (f->is_num && v->pc[i] < 0)
		buf_putc(b, '-');
	else if (f->is_num)
		buf_printf(b, "%d", (int)v->pc[i]);
	else
		print_pc(b, m, v->pc[i]);
}

/* "(f1, f2, ...)": the fields of the one-line form. */
static void print_record(Buf *b, const Machine *m, int32_t wi, const CtlField *fields, int32_t nfields, int32_t k)
{
	CtlView v;
	m->model->view(&m->warps[wi], k, &v);
	buf_putc(b, '(');
	bool first = true;
	for (int32_t i = 0; i < nfields; i++) {
		if (fields[i].detail)
			continue;
		if (!first)
			buf_puts(b, ", ");
		first = false;
		print_field(b, m, wi, &fields[i], &v, i);
	}
	buf_putc(b, ')');
}

/* A model of several tables: "ST (…) : (…)  RT []", each table in its
** order (order_by), at most SEM_STACK_SHOWN records each. */
static void print_tables(Buf *b, const Machine *m, int32_t wi)
{
	const Warp *w = &m->warps[wi];
	const Model *md = m->model;
	for (int32_t t = 0; t < md->ntables; t++) {
		const CtlTable *tab = &md->tables[t];
		buf_printf(b, "%s%s ", t ? "  " : "", tab->name);
		int32_t shown = 0, n = 0;
		for (int32_t k = 0; k < w->ctl.n; k++)
			n += md->table_of(w, k) == t;
		/* the records in order: by the order_by field (distinct, from 0), else stored */
		for (int32_t pos = 0; pos < n && shown < n; pos++) {
			int32_t k = -1;
			for (int32_t j = 0, seen = 0; j < w->ctl.n && k < 0; j++) {
				if (md->table_of(w, j) != t)
					continue;
				if (tab->order_by >= 0) {
					CtlView v;
					md->view(w, j, &v);
					if (v.pc[tab->order_by] == pos)
						k = j;
				} else if (seen++ == pos) {
					k = j;
				}
			}
			if (k < 0)
				continue;
			if (shown == SEM_STACK_SHOWN) {
				buf_printf(b, " : ... (%d more)", n - shown);
				break;
			}
			if (shown++)
				buf_puts(b, " : ");
			print_record(b, m, wi, tab->fields, tab->nfields, k);
		}
		if (n == 0)
			buf_puts(b, "[]");
	}
}

void sem_print_stack(Buf *b, const Machine *m, int32_t wi)
{
	const Warp *w = &m->warps[wi];
	const Model *md = m->model;
	if (md->ntables > 0) {
		print_tables(b, m, wi);
		return;
	}
	if (w->ctl.n == 0)
		buf_puts(b, "[]");
	for (int32_t k = w->ctl.n - 1; k >= 0; k--) {
		if (k < w->ctl.n - SEM_STACK_SHOWN) {
			buf_printf(b, "... (%d more)", k + 1);
			break;
		}
		print_record(b, m, wi, md->fields, md->nfields, k);
		if (k)
			buf_puts(b, " : ");
	}
}

void sem_print_bits(Buf *b, const Machine *m, int32_t wi, const uint64_t *set)
{
	const Warp *w = &m->warps[wi];
	for (int32_t l = w->size - 1; l >= 0; l--)
		buf_putc(b, bit_get(set, l) ? '1' : '0');
}

void sem_print_field(Buf *b, const Machine *m, int32_t wi, const CtlField *f, const CtlView *v, int32_t i)
{
	print_field(b, m, wi, f, v, i);
}
