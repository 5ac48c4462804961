/*
** core.c — one SM, cycle by cycle (sm-model.md §1.1 and decisions 1-5):
** each cycle every warp scheduler (warps i ≡ s mod schedulers) tries its
** warps in its policy's order and issues the first that is ready: not at a
** barrier or finished, every register it reads or writes ready (the
** scoreboard: a result is ready `latency` cycles after its producer
** issued — the configured latency is the dependent-issue latency users
** measure, decision 2), and a unit of its kind free (a unit accepts one
** instruction per initiation interval). An issue executes the instruction
** at once through the step function (sem_step, decision 1): the model's
** control rules pick the lanes, the data rules compute, so the issue
** count and the final state are the interpreter's. Cycles in which nothing
** can issue are skipped to the next one where something can, and their
** stall counters are advanced in bulk (decision 3).
**
** Two watchdogs (decision 5): GPGPU-Sim's commit watchdog (every 50 000
** cycles: nothing issued since the last check is a deadlock, the divergent
** barrier's case), and the progress watchdog (-musimd_progress_window
** cycles without a change of the architectural state — a register lane, a
** memory cell, a thread's end, a barrier arrival — while instructions issue
** is a livelock, the SIMT spin lock's case, which GPGPU-Sim never sees).
**
** Not modelled yet (the issue's later steps): fetch and the I-buffer
** (perfect), register banks and operand collectors, shared-memory bank
** conflicts and the L1 (every memory instruction takes the LD/ST unit one
** cycle and -gpgpu_smem_latency), dual issue, several CTAs.
*/
#include "core.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"

#define SM_WATCHDOG_PERIOD 50000 /* GPGPU-Sim's deadlock check (gpu-sim.cc) */
#define NEVER INT64_MAX

const char *sm_status_name(SmStatus s)
{
	static const char *const n[] = {"ok", "deadlock", "livelock", "stuck", "cycle-limit", "insn-limit", "step-limit",
	                                 "time-limit"};
	return (unsigned)s < sizeof n / sizeof *n ? n[s] : "?";
}

const char *sm_warp_state_name(SmWarpState s)
{
	static const char *const n[WS__COUNT] = {"issued", "not_selected", "scoreboard", "structural", "barrier",
	                                         "finished"};
	return (unsigned)s < WS__COUNT ? n[s] : "?";
}

/* ---- units and timing -------------------------------------------------- */

static int32_t unit_latency(const SmConfig *c, const SmIns *s)
{
	int32_t l;
	switch ((SmUnit)s->unit) {
	case UNIT_MEM: l = c->smem_latency; break;
	case UNIT_SFU: l = c->lat_int[SM_DIV]; break;
	default: l = c->lat_int[s->oclass]; break;
	}
	return l + c->stage_overhead;
}

static int32_t unit_interval(const SmConfig *c, const SmIns *s)
{
	switch ((SmUnit)s->unit) {
	case UNIT_MEM: return 1;
	case UNIT_SFU: return c->ii_int[SM_DIV];
	default: return c->ii_int[s->oclass];
	}
}

static int32_t units_of(const SmConfig *c, SmUnit u, int32_t npools)
{
	int32_t n;
	switch (u) {
	case UNIT_INT: n = c->num_int > 0 ? c->num_int : c->num_sp; break; /* Fermi, Pascal: all on SP */
	case UNIT_SFU: n = c->num_sfu; break;
	default: return 1; /* one LD/ST unit per SM, shared by the schedulers */
	}
	n = npools > 1 ? n / npools : n;
	return n > 0 ? n : 1;
}

static UnitPool *pool_of(const SmCore *c, int32_t s, SmUnit u)
{
	int32_t p = u == UNIT_MEM || c->npools == 1 ? 0 : s;
	return &c->pools[p * UNIT__COUNT + u];
}

/* The unit of the pool that is free first. */
static int32_t first_free(const UnitPool *p)
{
	int32_t best = 0;
	for (int32_t i = 1; i < p->n; i++)
		if (p->free_at[i] < p->free_at[best])
			best = i;
	return best;
}

/* ---- the watchdogs' view of a step ------------------------------------- */

typedef struct Progress {
	int64_t last;            /* cycle of the last change of the architectural state */
	/* what issued since then, per warp: up to SPIN_PCS distinct pcs */
	int32_t *pcs;            /* nwarps × SPIN_PCS, -1 empty */
	uint64_t *lanes;         /* nwarps × nw: the lanes active at the warp's last issue */
	int32_t nw;
	/* scratch: the destination's lanes before a step */
	int64_t *val;
	uint8_t *def;
} Progress;

#define SPIN_PCS 8

static void progress_reset(Progress *g, int32_t nwarps, int64_t now)
{
	g->last = now;
	for (int32_t i = 0; i < nwarps * SPIN_PCS; i++)
		g->pcs[i] = -1;
}

static void progress_note(Progress *g, int32_t w, int32_t pc, const uint64_t *active)
{
	int32_t *p = &g->pcs[w * SPIN_PCS];
	for (int32_t i = 0; i < SPIN_PCS; i++) {
		if (p[i] == pc)
			break;
		if (p[i] < 0) {
			p[i] = pc;
			break;
		}
	}
	memcpy(&g->lanes[(size_t)w * g->nw], active, (size_t)g->nw * sizeof *active);
}

typedef struct BankWord {
	int64_t bank, word;
} BankWord;

/* ---- one run ----------------------------------------------------------- */

typedef struct Run {
	SmCore c;
	SmResult *r;
	Progress g;
	int32_t *order;      /* a scheduler's warps in policy order */
	/* per warp, its state since st_since (until st_until for a hazard,
	** after which it was ready: see note_state) */
	SmWarpState *st;
	int64_t *st_since, *st_until;
	int32_t *category;   /* per scheduler, this cycle: -1 issued, else 0 stall, 1 scoreboard, 2 idle */
	int32_t *issued_k;   /* per scheduler: active lanes of its issue */
	bool committed;      /* an issue since the last commit-watchdog check */
	int32_t pos;         /* the issuing warp's position in its scheduler's list */
	/* A scheduler that found none of its warps ready sleeps until the
	** first of their hazards clears: nothing another scheduler does can
	** make one ready sooner (it can only keep a shared unit busy longer),
	** except a barrier's release, which starts a new epoch. */
	int64_t *sleep_until;
	int32_t *sleep_cat;
	uint64_t *sleep_epoch;
	uint64_t epoch;
	BankWord *keys;      /* scratch: a part's (bank, word) pairs, sorted */
	int32_t first;       /* the scheduler that goes first this cycle: now mod schedulers */
	int64_t drain;       /* the last cycle an issued instruction completes */
} Run;

/* Can warp w of scheduler s issue now? WS_ISSUED when it can; else why
** not, and *when the cycle it may (NEVER: not by waiting). */
static SmWarpState warp_ready(const Run *x, int32_t w, int32_t s, int64_t *when)
{
	const SmCore *c = &x->c;
	const Warp *W = &c->m->warps[w];
	*when = NEVER;
	if (W->status == WARP_DONE)
		return WS_FINISHED;
	if (W->status == WARP_BARRIER)
		return WS_BARRIER;
	const SmIns *si = &c->code->ins[W->pc];
	if (c->ready_pc[w] != W->pc) { /* the scoreboard's answer for this instruction, once */
		const int64_t *ready = &c->reg_ready[(size_t)w * (size_t)c->code->nregs];
		int64_t t = 0;
		for (int32_t i = 0; i < si->nsrc; i++)
			if (ready[si->src[i]] > t)
				t = ready[si->src[i]];
		if (si->dst >= 0 && ready[si->dst] > t) /* WAW */
			t = ready[si->dst];
		c->ready_pc[w] = W->pc;
		c->ready_at[w] = t;
	}
	if (c->ready_at[w] > c->now) {
		*when = c->ready_at[w];
		return WS_SCOREBOARD;
	}
	const UnitPool *p = pool_of(c, s, (SmUnit)si->unit);
	int64_t f = p->free_at[first_free(p)];
	if (f > c->now) {
		*when = f;
		return WS_STRUCTURAL;
	}
	return WS_ISSUED;
}

/* Did the step change the destination's lanes? (before: saved by save_dst) */
static bool dst_changed(const Run *x, const Warp *W, int32_t v)
{
	const Machine *m = x->c.m;
	if (m->nbig[v] > 0)
		return true; /* values beyond int64: counted as a change */
	size_t base = (size_t)v * (size_t)m->nthreads + (size_t)W->base;
	return memcmp(x->g.val, &m->val[base], (size_t)W->size * sizeof *x->g.val) != 0 ||
	       memcmp(x->g.def, &m->def[base], (size_t)W->size) != 0;
}

static void save_dst(Run *x, const Warp *W, int32_t v)
{
	const Machine *m = x->c.m;
	size_t base = (size_t)v * (size_t)m->nthreads + (size_t)W->base;
	memcpy(x->g.val, &m->val[base], (size_t)W->size * sizeof *x->g.val);
	memcpy(x->g.def, &m->def[base], (size_t)W->size);
}

static int cmp_bank_word(const void *a, const void *b)
{
	const BankWord *x = a, *y = b;
	if (x->bank != y->bank)
		return x->bank < y->bank ? -1 : 1;
	return (x->word > y->word) - (x->word < y->word);
}

/* Cycles the LD/ST unit spends on a shared-memory access of warp W
** (sm-model.md §1.5, GPGPU-Sim's shared-memory bank conflicts): the
** address operand's value in each active lane, read at issue as the
** address generation does; Σ's cells are 4-byte words in bank
** (address mod banks); per part of the warp (-gpgpu_shmem_warp_parts) the
** most distinct words any bank serves (one word read by many lanes is a
** broadcast; with -gpgpu_shmem_limited_broadcast only one such word per
** access is free), summed over the parts. An atomic serialises the lanes
** that meet in a bank, words alike or not. Local memory (per thread,
** interleaved) and addresses beyond int64 cost one cycle. */
static int32_t bank_cost(Run *x, const Warp *W, const Ins *ins)
{
	const Machine *m = x->c.m;
	const SmConfig *cfg = x->c.cfg;
	bool atomic = ir_is_atomic((Op)ins->op);
	if (ins->op != OP_LOAD && ins->op != OP_STORE && !atomic)
		return 1;
	const Opnd *a = &ins->a;
	int64_t banks = cfg->shmem_num_banks > 0 ? cfg->shmem_num_banks : 1;
	int32_t parts = cfg->shmem_warp_parts > 0 ? cfg->shmem_warp_parts : 1;
	int32_t per = (W->size + parts - 1) / parts;
	int32_t cost = 0;
	for (int32_t part = 0; part < parts; part++) {
		int32_t n = 0;
		for (int32_t l = part * per; l < W->size && l < (part + 1) * per; l++) {
			if (!bit_get(W->active, l))
				continue;
			int32_t t = W->base + l;
			int64_t addr;
			if (a->kind == OPND_VAR) {
				if (m->nbig[a->var] > 0 && m->big[a->var] && m->big[a->var][t])
					continue;
				addr = m->val[(size_t)a->var * (size_t)m->nthreads + (size_t)t];
			} else if (a->kind == OPND_SPECIAL) {
				addr = sem_special(m, (Special)a->special, t);
			} else {
				Num v = ir_lit(m->prog, a);
				if (v.z)
					continue;
				addr = v.i;
			}
			int64_t bank = ((addr % banks) + banks) % banks;
			/* an atomic's lanes all count: each its own "word" */
			x->keys[n] = (BankWord){bank, atomic ? (int64_t)n : addr};
			n++;
		}
		if (n == 0)
			continue;
		qsort(x->keys, (size_t)n, sizeof *x->keys, cmp_bank_word);
		int32_t worst = 0, run = 0, broadcasts = 0;
		for (int32_t i = 0; i < n; i++) {
			bool same_bank = i > 0 && x->keys[i].bank == x->keys[i - 1].bank;
			if (same_bank && x->keys[i].word == x->keys[i - 1].word) {
				broadcasts++; /* another lane reads the same word */
				continue;
			}
			run = same_bank ? run + 1 : 1;
			if (run > worst)
				worst = run;
		}
		if (cfg->shmem_limited_broadcast && broadcasts > 1)
			worst += broadcasts - 1; /* only one broadcast word is free */
		cost += worst;
	}
	return cost > 0 ? cost : 1;
}

/* Issue warp w's instruction: false when no rule applied (the machine is
** stuck or deadlocked now) and nothing issued. */
static bool issue(Run *x, int32_t w, int32_t s)
{
	SmCore *c = &x->c;
	Machine *m = c->m;
	Warp *W = &m->warps[w];
	int32_t pc = W->pc;
	const SmIns *si = &c->code->ins[pc];
	const Ins *ins = &m->prog->ins[pc];
	if (ins->dst >= 0)
		save_dst(x, W, ins->dst);
	int32_t cost = si->unit == UNIT_MEM ? bank_cost(x, W, ins) : 1;
	int32_t nlive = m->nlive;
	uint64_t steps = m->steps;
	StepInfo info;
	sem_step(m, w, &info);
	SmResult *r = x->r;
	if (m->steps == steps)
		return false; /* no rule applied (stuck, a barrier that cannot complete): not an issue */
	r->warp_insn++;
	r->thread_insn += (uint64_t)info.nactive;
	r->warps[w].warp_insn++;
	r->warps[w].thread_insn += (uint64_t)info.nactive;
	x->issued_k[s] = info.nactive < r->warpsize ? info.nactive : r->warpsize;
	/* a bank conflict holds the LD/ST unit (dispatch delay) and delays the result */
	int64_t lat = unit_latency(c->cfg, si) + cost - 1;
	if (si->dst >= 0)
		c->reg_ready[(size_t)w * (size_t)c->code->nregs + (size_t)si->dst] = c->now + lat;
	UnitPool *p = pool_of(c, s, (SmUnit)si->unit);
	p->free_at[first_free(p)] = c->now + unit_interval(c->cfg, si) + cost - 1;
	r->bank_conflict_cycles += (uint64_t)(cost - 1);
	if (c->now + lat > x->drain)
		x->drain = c->now + lat;
	c->last_issued[s] = w;
	c->last_pos[s] = x->pos;
	c->ready_pc[w] = -1; /* its next instruction (even at the same pc: a loop of one) */
	r->last_commit = (uint64_t)c->now;
	x->committed = true;
	if (info.rule == RULE_BAR)
		x->epoch++; /* a release may make waiting warps ready */
	bool changed = info.nstores > 0 || m->nlive != nlive || info.rule == RULE_BAR ||
	               (ins->dst >= 0 && dst_changed(x, W, ins->dst));
	if (changed)
		progress_reset(&x->g, m->nwarps, c->now);
	else
		progress_note(&x->g, w, pc, info.active);
	return true;
}

/* Threads as {0-31,40}: runs of consecutive threads as ranges. */
static void put_lanes(Buf *b, const uint64_t *set, int32_t nw, int32_t base)
{
	BitIter it = bits_iter(set, nw);
	int32_t first = -1, last = -1;
	bool any = false;
	buf_putc(b, '{');
	for (int32_t i;;) {
		i = bits_iter_next(&it);
		if (i >= 0 && i == last + 1 && first >= 0) {
			last = i;
			continue;
		}
		if (first >= 0) {
			buf_printf(b, "%s%d", any ? "," : "", (int)(base + first));
			if (last > first)
				buf_printf(b, "%s%d", last == first + 1 ? "," : "-", (int)(base + last));
			any = true;
		}
		if (i < 0)
			break;
		first = last = i;
	}
	buf_putc(b, '}');
}

/* A place of the program (ir_print_where), or the virtual exit. */
static void put_pc(Buf *b, const Program *p, int32_t pc)
{
	if (pc < 0 || pc >= p->nins)
		buf_puts(b, "the end");
	else
		ir_print_where(b, p, pc);
}

/* The progress watchdog's report: the warps that kept issuing, their pcs
** and lanes, and whom their model holds back. */
static void explain_livelock(Run *x)
{
	const Machine *m = x->c.m;
	const Program *p = m->prog;
	Buf *b = &x->r->why;
	buf_printf(b, "no register, memory cell, thread end or barrier arrival changed in %lld cycles",
	           (long long)(x->c.now - x->g.last));
	uint64_t *def = xcalloc(2 * (size_t)x->g.nw + 2, sizeof *def), *wait = def + x->g.nw + 1;
	for (int32_t w = 0; w < m->nwarps; w++) {
		const int32_t *pcs = &x->g.pcs[w * SPIN_PCS];
		if (pcs[0] < 0)
			continue;
		const Warp *W = &m->warps[w];
		buf_printf(b, "\n  warp %d spins at ", (int)w);
		for (int32_t i = 0; i < SPIN_PCS && pcs[i] >= 0; i++) {
			if (i)
				buf_puts(b, ", ");
			put_pc(b, p, pcs[i]);
		}
		buf_puts(b, " with threads ");
		put_lanes(b, &x->g.lanes[(size_t)w * x->g.nw], W->nw, W->base);
		if (m->model->pending) {
			int32_t resume = -1, at = -1;
			bits_clear(def, W->nw);
			bits_clear(wait, W->nw);
			m->model->pending(W, def, &resume, wait, &at);
			if (!bits_empty(wait, W->nw)) {
				buf_puts(b, "; threads ");
				put_lanes(b, wait, W->nw, W->base);
				buf_puts(b, " wait for them at ");
				put_pc(b, p, at);
			}
			if (!bits_empty(def, W->nw)) {
				buf_puts(b, "; threads ");
				put_lanes(b, def, W->nw, W->base);
				buf_puts(b, " are deferred to ");
				put_pc(b, p, resume);
			}
		}
	}
	free(def);
}

static void explain_deadlock(Run *x, int64_t since)
{
	const Machine *m = x->c.m;
	Buf *b = &x->r->why;
	buf_printf(b, "nothing committed since cycle %lld (checked every %d cycles)", (long long)since,
	           SM_WATCHDOG_PERIOD);
	if (m->status == SEM_DEADLOCK && m->err.msg)
		buf_printf(b, ": %s", m->err.msg);
	int32_t nbar = 0;
	for (int32_t w = 0; w < m->nwarps; w++)
		nbar += m->warps[w].status == WARP_BARRIER;
	if (nbar)
		buf_printf(b, "\n  %d warp%s wait at a barrier (%d of %d threads arrived)", (int)nbar,
		           nbar == 1 ? "" : "s", (int)m->arrived, (int)m->nlive);
}

static bool setup(Run *x, const SmCode *code, const SmConfig *cfg, const SemOptions *so, Diags *d)
{
	SemOptions o = *so;
	if (!o.model)
		o.model = model_find(cfg->reconvergence);
	if (!o.model) {
		diag_error(d, LOC_NONE, "unknown reconvergence model '%s' (-musimd_reconvergence)", cfg->reconvergence);
		return false;
	}
	o.taken_first = o.taken_first || cfg->taken_first;
	int64_t sched_param = 0;
	const WarpSched *ws = warp_sched_find(cfg->scheduler, &sched_param);
	if (!ws) {
		size_t len = strcspn(cfg->scheduler, ":");
		for (int32_t i = 0; warp_scheds[i]; i++)
			if (strlen(warp_scheds[i]->name) == len && !strncmp(warp_scheds[i]->name, cfg->scheduler, len)) {
				if (warp_scheds[i]->param)
					diag_error(d, LOC_NONE, "-gpgpu_scheduler %s: %s takes %s:N, N %s (a positive number)",
					           cfg->scheduler, warp_scheds[i]->name, warp_scheds[i]->name, warp_scheds[i]->param);
				else
					diag_error(d, LOC_NONE, "-gpgpu_scheduler %s: %s takes no number", cfg->scheduler,
					           warp_scheds[i]->name);
				return false;
			}
		Buf names = {0};
		Suggest g;
		suggest_init(&g, cfg->scheduler, len);
		for (int32_t i = 0; warp_scheds[i]; i++) {
			buf_printf(&names, "%s%s%s", i ? ", " : "", warp_scheds[i]->name, warp_scheds[i]->param ? ":N" : "");
			suggest_add(&g, warp_scheds[i]->name);
		}
		Buf hint = {0};
		if (g.n)
			buf_puts(&hint, "; ");
		suggest_print(&g, &hint, "");
		diag_error(d, LOC_NONE, "unknown warp scheduler '%s' (-gpgpu_scheduler; the SM model has %s)%s",
		           cfg->scheduler, buf_str(&names), buf_str(&hint));
		buf_free(&names);
		buf_free(&hint);
		return false;
	}
	Machine *m = sem_new(code->prog, &o, d);
	if (!m)
		return false;
	SmCore *c = &x->c;
	c->code = code;
	c->cfg = cfg;
	c->sched = ws;
	c->sched_param = sched_param;
	c->m = m;
	c->nsched = cfg->num_sched > 0 ? cfg->num_sched : 1;
	c->per = m->nwarps / c->nsched + 1;
	c->sched_warps = xmalloc((size_t)c->nsched * (size_t)c->per * sizeof *c->sched_warps);
	c->sched_nwarps = xcalloc((size_t)c->nsched, sizeof *c->sched_nwarps);
	c->last_issued = xmalloc((size_t)c->nsched * sizeof *c->last_issued);
	c->last_pos = xmalloc((size_t)c->nsched * sizeof *c->last_pos);
	for (int32_t s = 0; s < c->nsched; s++)
		c->last_issued[s] = c->last_pos[s] = -1;
	for (int32_t w = 0; w < m->nwarps; w++) {
		int32_t s = w % c->nsched; /* GPGPU-Sim's create_schedulers */
		c->sched_warps[s * c->per + c->sched_nwarps[s]++] = w;
	}
	c->reg_ready = xcalloc((size_t)m->nwarps * (size_t)code->nregs + 1, sizeof *c->reg_ready);
	c->ready_pc = xmalloc(((size_t)m->nwarps + 1) * sizeof *c->ready_pc);
	c->ready_at = xcalloc((size_t)m->nwarps + 1, sizeof *c->ready_at);
	for (int32_t w = 0; w < m->nwarps; w++)
		c->ready_pc[w] = -1;
	c->npools = cfg->sub_core ? c->nsched : 1;
	c->pools = xcalloc((size_t)c->npools * UNIT__COUNT, sizeof *c->pools);
	for (int32_t p = 0; p < c->npools; p++)
		for (int32_t u = 0; u < UNIT__COUNT; u++) {
			UnitPool *up = &c->pools[p * UNIT__COUNT + u];
			up->n = units_of(cfg, (SmUnit)u, c->npools);
			up->free_at = xcalloc((size_t)up->n, sizeof *up->free_at);
		}
	SmResult *r = x->r;
	r->m = m;
	r->sched_name = ws->name;
	r->warpsize = m->sched_warpsize > 0 ? m->sched_warpsize : 1;
	r->occupancy = xcalloc((size_t)r->warpsize + 1, sizeof *r->occupancy);
	r->nwarps = m->nwarps;
	r->warps = xcalloc((size_t)m->nwarps + 1, sizeof *r->warps);
	x->order = xmalloc(((size_t)c->per + 1) * sizeof *x->order);
	x->st = xcalloc((size_t)m->nwarps + 1, sizeof *x->st);
	x->st_since = xcalloc((size_t)m->nwarps + 1, sizeof *x->st_since);
	x->st_until = xmalloc(((size_t)m->nwarps + 1) * sizeof *x->st_until);
	for (int32_t w = 0; w < m->nwarps; w++) {
		x->st[w] = WS_NOT_SELECTED; /* until first looked at: ready */
		x->st_until[w] = NEVER;
	}
	x->category = xmalloc((size_t)c->nsched * sizeof *x->category);
	x->issued_k = xmalloc((size_t)c->nsched * sizeof *x->issued_k);
	x->sleep_until = xcalloc((size_t)c->nsched, sizeof *x->sleep_until);
	x->sleep_cat = xcalloc((size_t)c->nsched, sizeof *x->sleep_cat);
	x->sleep_epoch = xcalloc((size_t)c->nsched, sizeof *x->sleep_epoch);
	x->epoch = 1;
	int32_t maxnw = 1, maxsize = 1;
	for (int32_t w = 0; w < m->nwarps; w++) {
		if (m->warps[w].nw > maxnw)
			maxnw = m->warps[w].nw;
		if (m->warps[w].size > maxsize)
			maxsize = m->warps[w].size;
	}
	x->g.nw = maxnw;
	x->g.pcs = xmalloc((size_t)m->nwarps * SPIN_PCS * sizeof *x->g.pcs + 1);
	x->g.lanes = xcalloc((size_t)m->nwarps * (size_t)maxnw + 1, sizeof *x->g.lanes);
	x->g.val = xmalloc((size_t)maxsize * sizeof *x->g.val);
	x->g.def = xmalloc((size_t)maxsize);
	x->keys = xmalloc((size_t)maxsize * sizeof *x->keys);
	progress_reset(&x->g, m->nwarps, 0);
	return true;
}

/* Per-warp stall causes, as intervals: a scheduler stops looking at its
** warps once one issues (as GPGPU-Sim's does), so a warp is not looked at
** every cycle. Between two looks its state is the last one seen; a hazard
** (scoreboard, structural) lasts until the cycle it clears, known when it
** was seen, and after that the warp was ready while its scheduler issued
** others: not selected. (Exact in every cycle in which its scheduler did
** not issue: then it looked at all its warps.) */
static void close_state(Run *x, int32_t w, int64_t now)
{
	SmWarpStats *ws = &x->r->warps[w];
	SmWarpState st = x->st[w];
	int64_t since = x->st_since[w], until = x->st_until[w];
	if ((st == WS_SCOREBOARD || st == WS_STRUCTURAL) && until < now) {
		ws->cycles[st] += (uint64_t)(until - since);
		ws->cycles[WS_NOT_SELECTED] += (uint64_t)(now - until);
	} else {
		ws->cycles[st] += (uint64_t)(now - since);
	}
}

static void note_state(Run *x, int32_t w, SmWarpState st, int64_t until)
{
	int64_t now = x->c.now;
	if (st != x->st[w]) {
		close_state(x, w, now);
		x->st[w] = st;
		x->st_since[w] = now;
	}
	x->st_until[w] = until;
}

/* After warp w issued at now: that cycle, then the hazard its next
** instruction waits for (or ready). */
static void note_issue(Run *x, int32_t w)
{
	int64_t now = x->c.now;
	close_state(x, w, now);
	x->r->warps[w].cycles[WS_ISSUED]++;
	const Warp *W = &x->c.m->warps[w];
	x->st_since[w] = now + 1;
	x->st_until[w] = NEVER;
	x->st[w] = W->status == WARP_DONE ? WS_FINISHED : W->status == WARP_BARRIER ? WS_BARRIER : WS_NOT_SELECTED;
}

/* One cycle's decisions: each scheduler issues its first ready warp. The
** earliest cycle at which a warp may issue, when none did (NEVER: none). */
static int64_t cycle(Run *x)
{
	SmCore *c = &x->c;
	int64_t next = NEVER;
	int32_t s = x->first; /* GPGPU-Sim rotates the first scheduler, one per cycle */
	for (int32_t k = 0; k < c->nsched; k++, s = s + 1 == c->nsched ? 0 : s + 1) {
		if (c->now < x->sleep_until[s] && x->sleep_epoch[s] == x->epoch) {
			x->category[s] = x->sleep_cat[s];
			if (x->sleep_until[s] < next)
				next = x->sleep_until[s];
			continue;
		}
		int32_t n = c->sched_nwarps[s];
		const int32_t *list = &c->sched_warps[s * c->per];
		int32_t at = 0;
		if (c->sched->rotation) {
			at = c->sched->rotation(c, s, n);
		} else {
			c->sched->order(c, s, list, n, x->order);
			list = x->order;
		}
		int32_t chosen = -1;
		int64_t mine = NEVER;
		bool structural = false, scoreboard = false;
		for (int32_t i = 0; i < n && chosen < 0; i++, at = at + 1 == n ? 0 : at + 1) {
			int32_t w = list[at];
			int64_t when = NEVER;
			/* a machine stopped at a barrier that cannot complete: its warps wait there */
			SmWarpState st = c->m->status == SEM_RUNNING    ? warp_ready(x, w, s, &when)
			                 : c->m->status == SEM_DEADLOCK ? WS_BARRIER
			                                                : WS_FINISHED;
			if (st == WS_ISSUED) {
				x->pos = w / c->nsched; /* warps are dealt round the schedulers */
				if (issue(x, w, s)) {
					chosen = w;
					note_issue(x, w);
					break;
				}
				st = c->m->status == SEM_DEADLOCK ? WS_BARRIER : WS_FINISHED; /* the machine stopped */
			}
			structural |= st == WS_STRUCTURAL;
			scoreboard |= st == WS_SCOREBOARD;
			if (when < mine)
				mine = when;
			note_state(x, w, st, when);
		}
		x->category[s] = chosen >= 0 ? -1 : structural ? 0 : scoreboard ? 1 : 2;
		if (chosen < 0) {
			x->sleep_until[s] = mine;
			x->sleep_cat[s] = x->category[s];
			x->sleep_epoch[s] = x->epoch;
			if (mine < next)
				next = mine;
		}
	}
	return next;
}

static void count(Run *x, int64_t span)
{
	SmResult *r = x->r;
	const SmCore *c = &x->c;
	for (int32_t s = 0; s < c->nsched; s++) {
		switch (x->category[s]) {
		case -1: r->occupancy[x->issued_k[s] > 0 ? x->issued_k[s] : 0] += (uint64_t)span; break;
		case 0: r->stall += (uint64_t)span; break;
		case 1: r->scoreboard += (uint64_t)span; break;
		default: r->idle += (uint64_t)span; break;
		}
	}
}

static void run(Run *x)
{
	SmCore *c = &x->c;
	SmResult *r = x->r;
	const SmConfig *cfg = c->cfg;
	Machine *m = c->m;
	int64_t check = SM_WATCHDOG_PERIOD; /* the commit watchdog's next check */
	for (;;) {
		if (m->status == SEM_OK) {
			r->status = SM_OK;
			break;
		}
		if (m->status == SEM_LIMIT) { /* --max-steps: warp instructions, as run counts steps */
			r->status = SM_STEP_LIMIT;
			break;
		}
		if (m->status == SEM_TIME_LIMIT) { /* --max-time: the machine read the clock */
			r->status = SM_TIME_LIMIT;
			break;
		}
		if (m->status == SEM_STUCK) {
			r->status = SM_STUCK;
			if (m->err.msg)
				buf_puts(&r->why, m->err.msg);
			break;
		}
		uint64_t before = r->warp_insn;
		int64_t next = cycle(x);
		if (m->status != SEM_RUNNING && m->status != SEM_DEADLOCK) {
			count(x, 1); /* finished, stuck or at the step limit: said at the top */
			c->now++;
			continue;
		}
		int64_t span = 1;
		if (r->warp_insn == before && m->status != SEM_OK) {
			/* nothing issued: nothing changes until next */
			int64_t until = next;
			if (cfg->deadlock_detect && check < until)
				until = check;
			if (cfg->max_cycle > 0 && cfg->max_cycle < until)
				until = cfg->max_cycle;
			if (until == NEVER) { /* no watchdog: nothing will ever issue */
				count(x, 1);
				c->now++;
				r->status = SM_DEADLOCK;
				explain_deadlock(x, (int64_t)r->last_commit);
				break;
			}
			span = until - c->now;
			if (span < 1)
				span = 1;
		}
		count(x, span);
		c->now += span;
		x->first = (int32_t)((x->first + span) % c->nsched);
		if (c->now >= check) {
			/* a check (at most one per span: a span stops at the next check) */
			check += SM_WATCHDOG_PERIOD;
			if (cfg->deadlock_detect && !x->committed) {
				r->status = SM_DEADLOCK;
				explain_deadlock(x, (int64_t)r->last_commit);
				break;
			}
			x->committed = false;
		}
		if (cfg->progress_window > 0 && c->now - x->g.last >= cfg->progress_window && m->status == SEM_RUNNING &&
		    r->warp_insn > 0) {
			r->status = SM_LIVELOCK;
			explain_livelock(x);
			break;
		}
		if (cfg->max_cycle > 0 && c->now >= cfg->max_cycle) {
			r->status = SM_CYCLE_LIMIT;
			break;
		}
		if (cfg->max_insn > 0 && r->thread_insn >= (uint64_t)cfg->max_insn) {
			r->status = SM_INSN_LIMIT;
			break;
		}
	}
	/* the kernel ends when its last instruction completes: the schedulers
	** idle meanwhile (every scheduler-cycle is counted once, expectation 19) */
	r->cycles = (uint64_t)c->now;
	if (r->status == SM_OK && x->drain > c->now) {
		for (int32_t s = 0; s < c->nsched; s++)
			x->category[s] = 2;
		count(x, x->drain - c->now);
		r->cycles = (uint64_t)x->drain;
	}
	for (int32_t w = 0; w < m->nwarps; w++)
		close_state(x, w, (int64_t)r->cycles);
}

static void run_free(Run *x)
{
	SmCore *c = &x->c;
	free(c->sched_warps);
	free(c->sched_nwarps);
	free(c->last_issued);
	free(c->last_pos);
	free(c->reg_ready);
	free(c->ready_pc);
	free(c->ready_at);
	for (int32_t p = 0; c->pools && p < c->npools * UNIT__COUNT; p++)
		free(c->pools[p].free_at);
	free(c->pools);
	free(x->order);
	free(x->st);
	free(x->st_since);
	free(x->st_until);
	free(x->category);
	free(x->issued_k);
	free(x->sleep_until);
	free(x->sleep_cat);
	free(x->sleep_epoch);
	free(x->g.pcs);
	free(x->g.lanes);
	free(x->g.val);
	free(x->g.def);
	free(x->keys);
}

SmResult *sm_run(const SmCode *code, const SmConfig *cfg, const SemOptions *so, Diags *d)
{
	Run x = {0};
	x.r = xcalloc(1, sizeof *x.r);
	if (!setup(&x, code, cfg, so, d)) {
		run_free(&x);
		sm_result_free(x.r);
		return NULL;
	}
	run(&x);
	run_free(&x);
	return x.r;
}

void sm_result_free(SmResult *r)
{
	if (!r)
		return;
	sem_free(r->m);
	free(r->occupancy);
	free(r->warps);
	buf_free(&r->why);
	free(r);
}
