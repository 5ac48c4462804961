/*
** state.c — what a state of the machine is (semantics.md §1, explore.md §3):
** building the initial one (sem_new), copying and freeing it, and its
** canonical bytes. Two machines of one shape are in the same state exactly
** when sem_pack writes the same bytes: the assigned lanes and their values,
** the edge each thread entered its block by (φ/μ programs), Σ and the local
** memories in address order, per warp its pc, status, Θ, live set and the
** model's control stack, and the barrier's count. Left out: the measures,
** caches, scratch, the round-robin cursor and error texts. sem_unpack is
** sem_pack's inverse: the explorer keeps states as bytes only.
*/
#include "lanes.h"
#include "model.h"
#include "sem.h"

#include <stdlib.h>
#include <string.h>

/* ---- construction ------------------------------------------------------------------- */

static void add_init(Machine *m, int64_t addr, int64_t count, Num v)
{
	for (int64_t i = 0; i < count; i++)
		m->cells += mem_put(&m->shared, addr + i, num_copy(v), &m->big_bytes, &m->heap_bytes);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* Memory accounting: at most what count cells from one initialisation
** cost (their pages, and the copies of a value beyond int64). */
static uint64_t init_bytes(int64_t count, Num v)
{
	uint64_t c = (uint64_t)count;
	uint64_t pages = c < 2 ? c : c / MEM_PAGE_SIZE + 2 < c ? c / MEM_PAGE_SIZE + 2 : c;
	uint64_t b = sat_mul(pages, PAGE_BYTES);
	if (v.z)
		b = sat_add(b, sat_add(sat_mul(pages, PAGE_BIG_BYTES), sat_mul(c, num_bytes(v))));
	return b;
}

Machine *sem_new(const Program *p, const SemOptions *opt, Diags *d)
{
	int errs = d->nerrors;
	WarpShape shape = ir_warp_shape(p, opt->threads, opt->warpsize);
	int64_t nthreads = shape.threads, ws = shape.warpsize;
	if (nthreads > SEM_MAX_THREADS)
		diag_error(d, LOC_NONE, "too many threads: %lld (at most %d)", (long long)nthreads,
		           SEM_MAX_THREADS);
	if (!p->cfg)
		diag_error(d, LOC_NONE, "the program has not been validated");
	/* parameter settings must name parameters */
	for (int32_t i = 0; i < opt->nparams; i++) {
		int32_t v = ir_find_var(p, opt->params[i].name);
		if (v < 0 || !p->vars[v].is_param)
			diag_error(d, LOC_NONE, "'%s' is not a parameter of %s (declare it with .param)",
			           opt->params[i].name, p->path);
	}
	/* delayed reconvergence points must be places of the program */
	int32_t *aware_rpc = NULL;
	if (opt->aware_delay && p->cfg) {
		aware_rpc = xmalloc(((size_t)p->nins + 1) * sizeof *aware_rpc);
		aware_resolve_delays(p, opt->aware_delay, aware_rpc, d);
	}
	uint64_t max_cells = opt->max_cells ? opt->max_cells : SEM_DEFAULT_MAX_CELLS;
	/* saturating sums: each count may be up to INT64_MAX, three of them wrap */
	uint64_t want = 0;
	for (int32_t i = 0; i < p->ndata; i++)
		want = sat_add(want, (uint64_t)p->data[i].count);
	for (int32_t i = 0; i < opt->ndata; i++)
		want = sat_add(want, (uint64_t)opt->data[i].count);
	if (want > max_cells)
		diag_error(d, LOC_NONE, "initial memory of %llu cells exceeds the limit of %llu (--max-cells)",
		           (unsigned long long)want, (unsigned long long)max_cells);
	/* the lane tables: a value and an assigned flag per variable and thread;
	** and per thread the rows beside them: the scratch of the data rules
	** (tmp, res, order, addr, chain, cellpage: 52 bytes), from_block, the
	** local-memory pointer, the rows of tid/laneid/warpid (up to 24), the
	** cohorts' (about 9; sem.c); per instruction the counts (visits,
	** divergences, a block's executions) and AWARE's reconvergence pcs or
	** the strips' runs (sem.c), never both */
	uint64_t max_mem = opt->max_memory ? opt->max_memory : SEM_DEFAULT_MAX_MEMORY;
	uint64_t fixed = (uint64_t)nthreads * ((uint64_t)p->nvars * 9 + 104) + (uint64_t)p->nins * 32 +
	                 SEM_ROW_PAD * (9 + 4 * 8); /* the rows' padding (values, tid/laneid/warpid, tmp) */
	/* the return stacks: a depth, a scratch pc and the slots per thread */
	int32_t ret_cap = p->has_calls && p->cfg ? p->cfg->max_call_depth : 0;
	if (ret_cap)
		fixed += (uint64_t)nthreads * ((uint64_t)ret_cap + 2) * sizeof(int32_t);
	/* memory accounting: the initial memory and the parameters beyond
	** int64 (a copy per thread) count before anything is allocated */
	uint64_t init = 0, params = 0;
	for (int32_t i = 0; i < p->ndata; i++)
		init = sat_add(init, init_bytes(p->data[i].count, p->data[i].value));
	for (int32_t i = 0; i < opt->ndata; i++)
		init = sat_add(init, init_bytes(opt->data[i].count, opt->data[i].value));
	for (int32_t v = 0; v < p->nvars; v++) {
		const Num *val = p->vars[v].is_param && p->vars[v].has_value ? &p->vars[v].value : NULL;
		for (int32_t i = 0; i < opt->nparams; i++)
			if (!strcmp(opt->params[i].name, p->vars[v].name))
				val = &opt->params[i].value;
		if (val && val->z)
			params = sat_add(params, sat_mul((uint64_t)nthreads, num_bytes(*val) + sizeof(void *)));
	}
	uint64_t need = sat_add(fixed, sat_add(init, params));
	if (nthreads <= SEM_MAX_THREADS && need > max_mem)
		diag_error(d, LOC_NONE,
		           "the initial state needs %llu MiB (%lld threads × %d variables: %llu MiB, "
		           "initial memory: %llu MiB, parameters beyond int64: %llu MiB), more than the "
		           "limit of %llu MiB (--max-memory)",
		           (unsigned long long)(need >> 20), (long long)nthreads, p->nvars,
		           (unsigned long long)(fixed >> 20), (unsigned long long)(init >> 20),
		           (unsigned long long)(params >> 20), (unsigned long long)(max_mem >> 20));
	if (d->nerrors > errs) {
		free(aware_rpc);
		return NULL;
	}

	Machine *m = xcalloc(1, sizeof *m);
	m->watch_var = -1;
	m->aware_rpc = aware_rpc;
	m->prog = p;
	m->cfg = p->cfg;
	m->opt = *opt;
	m->model = opt->model ? opt->model : &model_sync;
	/* the limits, resolved once: the step function reads m->opt directly */
	m->opt.max_steps = opt->max_steps ? opt->max_steps : SEM_DEFAULT_MAX_STEPS;
	m->opt.max_thread_instructions =
		opt->max_thread_instructions ? opt->max_thread_instructions : SEM_DEFAULT_MAX_THREAD_INSTRUCTIONS;
	/* check_steps and check_work are 0: the first step sets them (limits_allow in sem.c) */
	m->opt.max_cells = max_cells;
	m->opt.max_memory = max_mem;
	m->nthreads = (int32_t)nthreads;
	m->warpsize = (int32_t)ws;
	m->sched_warpsize = m->model->warps_of_one ? 1 : m->warpsize;
	m->nwarps = (m->nthreads + m->sched_warpsize - 1) / m->sched_warpsize;
	m->nvars = p->nvars;
	m->fixed_bytes = fixed;
	size_t n = (size_t)m->nthreads, nv = (size_t)(p->nvars ? p->nvars : 1);
	m->val = xcalloc_rows(nv * n + SEM_ROW_PAD, sizeof *m->val);
	m->big = xcalloc(nv, sizeof *m->big);
	m->nbig = xcalloc(nv, sizeof *m->nbig);
	m->def = xcalloc_rows(nv * n + SEM_ROW_PAD, sizeof *m->def);
	m->ndef = xcalloc(nv, sizeof *m->ndef);
	/* rows of tid, laneid, warpid for the lane loops, only for those the
	** program reads (sem_special computes the others): a thread costs
	** little before its first step */
	bool used[SPEC__COUNT] = {0};
	for (int32_t i = 0; i < p->nins; i++) {
		const Ins *ins = &p->ins[i];
		const Opnd *ops[3] = {&ins->a, &ins->b, &ins->c};
		for (int k = 0; k < 3 + ins->nargs; k++) {
			const Opnd *o = k < 3 ? ops[k] : &ins->args[k - 3];
			if (o->kind == OPND_SPECIAL)
				used[o->special] = true;
		}
	}
	for (int sp = SPEC_TID; sp <= SPEC_WARPID; sp++) {
		if (!used[sp])
			continue;
		int64_t *r = xcalloc_rows(n + SEM_ROW_PAD, sizeof(int64_t));
		for (size_t t = 0; t < n; t++)
			r[t] = sem_special(m, (Special)sp, (int32_t)t); /* computed: no row yet */
		m->spec[sp] = r;
	}
	m->from_block = xmalloc(n * sizeof *m->from_block);
	for (size_t t = 0; t < n; t++)
		m->from_block[t] = -1;
	m->ret_cap = ret_cap;
	if (ret_cap) {
		m->ret_depth = xcalloc(n, sizeof *m->ret_depth);
		m->ret_stack = xmalloc(n * (size_t)ret_cap * sizeof *m->ret_stack);
		m->ret_to = xmalloc(n * sizeof *m->ret_to);
	}
	for (int32_t i = 0; i < p->nins && !m->track_edges; i++)
		m->track_edges = p->ins[i].op == OP_MU || p->ins[i].op == OP_PHI;
	m->shared.last = -1;
	m->local = xcalloc(n, sizeof *m->local);
	m->nlive = m->nthreads;
	m->status = SEM_RUNNING;
	m->err.pc = -1;
	m->err.warp = -1;
	m->visits = xcalloc((size_t)p->nins + 1, sizeof *m->visits);
	m->divergences = xcalloc((size_t)p->nins + 1, sizeof *m->divergences);
	m->block_execs = xcalloc((size_t)m->cfg->nblocks + 1, sizeof *m->block_execs);
	/* the scratch rows (tmp, res, order, addr) come with the first step
	** (sem_step): copies kept for going back never step */
	m->rng = opt->seed ^ 0x5DEECE66Dull;

	/* parameters: the same value in every σ */
	for (int32_t v = 0; v < p->nvars; v++) {
		const Var *var = &p->vars[v];
		if (!var->is_param)
			continue;
		const Num *val = var->has_value ? &var->value : NULL;
		for (int32_t i = 0; i < opt->nparams; i++)
			if (strcmp(opt->params[i].name, var->name) == 0)
				val = &opt->params[i].value;
		if (!val)
			continue; /* an error only if read (rule MV) */
		if (!val->z) { /* a row of one int64 */
			int64_t *r = m->val + (size_t)v * n;
			for (size_t t = 0; t < n; t++)
				r[t] = val->i;
			memset(m->def + (size_t)v * n, 1, n);
			m->ndef[v] = (int32_t)n;
			continue;
		}
		for (size_t t = 0; t < n; t++)
			sem_set_lane(m, v, (int32_t)t, num_copy(*val));
	}
	for (int32_t i = 0; i < p->ndata; i++)
		add_init(m, p->data[i].addr, p->data[i].count, p->data[i].value);
	for (int32_t i = 0; i < opt->ndata; i++)
		add_init(m, opt->data[i].addr, opt->data[i].count, opt->data[i].value);

	/* warps: consecutive threads; each starts with Θ = its threads, Π = [] */
	int32_t sws = m->sched_warpsize;
	int32_t maxnw = bits_words(sws);
	m->step_active = xcalloc((size_t)maxnw * 3, sizeof *m->step_active);
	m->warps = xcalloc((size_t)m->nwarps, sizeof *m->warps);
	m->warp_sets = xcalloc((size_t)m->nwarps * 2 * (size_t)maxnw, sizeof *m->warp_sets);
	m->warp_idx = xmalloc(n * sizeof *m->warp_idx);
	m->runnable = xcalloc((size_t)bits_words(m->nwarps), sizeof *m->runnable);
	m->runnable_sum = xcalloc((size_t)bits_words(bits_words(m->nwarps)), sizeof *m->runnable_sum);
	for (int32_t i = 0; i < m->nwarps; i++) {
		Warp *w = &m->warps[i];
		w->id = i;
		w->base = i * sws;
		w->size = m->nthreads - w->base < sws ? m->nthreads - w->base : sws;
		w->nw = bits_words(w->size);
		w->active = m->warp_sets + (size_t)i * 2 * (size_t)maxnw;
		w->live = w->active + maxnw;
		for (int32_t l = 0; l < w->size; l++)
			bit_set(w->live, l);
		bits_copy(w->active, w->live, w->nw);
		w->idx = m->warp_idx + w->base;
		w->status = WARP_RUN;
		w->entered = true;
		w->pc = 0;
		w->ctl.rec_size = m->model->rec_size;
		w->ctl.nmask = m->model->nmask;
		if (m->model->start)
			m->model->start(m, w);
	}
	sem_ready_reset(m);
	return m;
}


void sem_free(Machine *m)
{
	if (!m)
		return;
	for (int32_t v = 0; v < m->nvars; v++)
		if (m->big[v]) {
			for (int32_t t = 0; t < m->nthreads; t++)
				if (m->big[v][t]) {
					mpz_clear(m->big[v][t]);
					free(m->big[v][t]);
				}
			free(m->big[v]);
		}
	free(m->big);
	xfree_rows(m->val);
	free(m->nbig);
	xfree_rows(m->def);
	free(m->ndef);
	for (int s = 0; s < SPEC__COUNT; s++)
		xfree_rows(m->spec[s]);
	free(m->from_block);
	free(m->ret_depth);
	free(m->ret_stack);
	free(m->ret_to);
	free(m->aware_rpc);
	mem_free(&m->shared);
	for (int32_t t = 0; t < m->nthreads; t++)
		if (m->local[t]) {
			mem_free(m->local[t]);
			free(m->local[t]);
		}
	free(m->local);
	for (int32_t i = 0; i < m->nwarps; i++) {
		Warp *w = &m->warps[i];
		free(w->ctl.recs);
		free(w->ctl.masks);
	}
	free(m->warps);
	free(m->warp_sets);
	free(m->warp_idx);
	free(m->runnable);
	free(m->runnable_sum);
	free(m->err.msg);
	free(m->err.threads);
	free(m->err.stack);
	free(m->visits);
	free(m->divergences);
	free(m->block_execs);
	for (int32_t i = 0; i < m->nraces; i++)
		sem_race_free(&m->races[i]);
	free(m->races);
	free(m->step_active);
	xfree_rows(m->tmp);
	free(m->res);
	free(m->order);
	free(m->addr);
	free(m->cellpage);
	free(m->hslot);
	free(m->chain);
	free(m->gsa_scratch);
	free(m->cohort.active);
	free(m->cohort.idx);
	free(m->cohort_warps);
	free(m->straight);
	free(m->cohort_split);
	free(m->fx_edge);
	free(m->fx_lanes);
	free(m->fx_cell);
	sem_lane_orders_free(m->lane_orders);
	free(m);
}

static void *dup_mem(const void *p, size_t n)
{
	if (!p)
		return NULL;
	void *q = xmalloc(n ? n : 1);
	memcpy(q, p, n);
	return q;
}

/* dup_mem for what xcalloc_rows made. */
static void *dup_rows(const void *p, size_t n)
{
	if (!p)
		return NULL;
	void *q = xmalloc_rows(n ? n : 1, 1);
	memcpy(q, p, n);
	return q;
}

Machine *sem_clone(const Machine *s)
{
	Machine *m = xmalloc(sizeof *m);
	*m = *s;
	size_t n = (size_t)s->nthreads, nv = (size_t)(s->nvars ? s->nvars : 1);
	m->val = dup_rows(s->val, (nv * n + SEM_ROW_PAD) * sizeof *m->val);
	m->big = xcalloc(nv, sizeof *m->big);
	for (int32_t v = 0; v < s->nvars; v++)
		if (s->big[v]) {
			m->big[v] = xcalloc(n, sizeof *m->big[v]);
			for (size_t t = 0; t < n; t++)
				if (s->big[v][t])
					m->big[v][t] = num_copy((Num){0, s->big[v][t]}).z;
		}
	m->nbig = dup_mem(s->nbig, nv * sizeof *m->nbig);
	m->def = dup_rows(s->def, (nv * n + SEM_ROW_PAD) * sizeof *m->def);
	m->ndef = dup_mem(s->ndef, nv * sizeof *m->ndef);
	for (int sp = 0; sp < SPEC__COUNT; sp++)
		m->spec[sp] = dup_rows(s->spec[sp], s->spec[sp] ? (n + SEM_ROW_PAD) * sizeof(int64_t) : 0);
	m->from_block = dup_mem(s->from_block, n * sizeof *m->from_block);
	m->ret_depth = dup_mem(s->ret_depth, n * sizeof *m->ret_depth);
	m->ret_stack = dup_mem(s->ret_stack, n * (size_t)s->ret_cap * sizeof *m->ret_stack);
	m->ret_to = dup_mem(s->ret_to, n * sizeof *m->ret_to);
	m->aware_rpc = dup_mem(s->aware_rpc, ((size_t)s->prog->nins + 1) * sizeof *m->aware_rpc);
	mem_clone(&m->shared, &s->shared);
	m->local = xcalloc(n, sizeof *m->local);
	for (size_t t = 0; t < n; t++)
		if (s->local[t]) {
			m->local[t] = xmalloc(sizeof(Mem));
			mem_clone(m->local[t], s->local[t]);
		}
	m->warps = dup_mem(s->warps, (size_t)s->nwarps * sizeof *m->warps);
	m->warp_sets = dup_mem(s->warp_sets, (size_t)s->nwarps * 2 * (size_t)bits_words(s->sched_warpsize) *
	                                         sizeof *m->warp_sets);
	m->warp_idx = dup_mem(s->warp_idx, n * sizeof *m->warp_idx);
	m->runnable = dup_mem(s->runnable, (size_t)bits_words(s->nwarps) * sizeof *m->runnable);
	m->runnable_sum = dup_mem(s->runnable_sum, (size_t)bits_words(bits_words(s->nwarps)) * sizeof *m->runnable_sum);
	for (int32_t i = 0; i < s->nwarps; i++) {
		Warp *w = &m->warps[i];
		const Warp *sw = &s->warps[i];
		size_t nw = (size_t)sw->nw * sizeof(uint64_t);
		w->active = m->warp_sets + (sw->active - s->warp_sets);
		w->live = m->warp_sets + (sw->live - s->warp_sets);
		w->ctl.recs = dup_mem(sw->ctl.recs, (size_t)sw->ctl.cap * sw->ctl.rec_size);
		w->ctl.masks = dup_mem(sw->ctl.masks, (size_t)sw->ctl.cap * sw->ctl.nmask * nw);
		w->idx = m->warp_idx + (sw->idx - s->warp_idx);
	}
	m->err.msg = s->err.msg ? xstrdup(s->err.msg) : NULL;
	m->err.threads = dup_mem(s->err.threads, (size_t)s->err.nthreads * sizeof(int32_t));
	m->err.stack = s->err.stack ? xstrdup(s->err.stack) : NULL;
	m->visits = dup_mem(s->visits, ((size_t)s->prog->nins + 1) * sizeof *m->visits);
	m->divergences = dup_mem(s->divergences, ((size_t)s->prog->nins + 1) * sizeof *m->divergences);
	m->block_execs = dup_mem(s->block_execs, ((size_t)s->cfg->nblocks + 1) * sizeof *m->block_execs);
	m->races = dup_mem(s->races, (size_t)s->capraces * sizeof *m->races);
	for (int32_t i = 0; i < s->nraces; i++) {
		Race *r = &m->races[i];
		r->threads = dup_mem(s->races[i].threads, (size_t)r->n * sizeof(int32_t));
		r->values = xmalloc((size_t)r->n * sizeof(Num));
		for (int32_t j = 0; j < r->n; j++)
			r->values[j] = num_copy(s->races[i].values[j]);
	}
	int32_t maxnw = bits_words(s->sched_warpsize);
	m->step_active = dup_mem(s->step_active, (size_t)maxnw * 3 * sizeof(uint64_t));
	m->tmp = NULL; /* the scratch rows: with the first step (sem_step) */
	m->cohort = (Warp){0}; /* and the cohort's: with the first cohort (sem_run) */
	m->cohort_warps = NULL;
	m->cohort_split = NULL;
	m->straight = NULL; /* and the strips': with the first try */
	m->kept_k = 0;
	m->lazy_k = 0;
	m->kept_union = false;
	m->res = NULL;
	m->order = NULL;
	m->addr = NULL;
	m->cellpage = NULL;
	m->hslot = NULL;
	m->nhslot = 0;
	m->chain = NULL;
	m->gsa_scratch = NULL;
	m->gsa_cap = 0;
	/* the effects' scratch is the original's */
	m->fx_edge = NULL;
	m->fx_lanes = NULL;
	m->fx_cell = NULL;
	m->fx_nedge = m->fx_capedge = m->fx_ncell = m->fx_capcell = 0;
	m->lane_orders = NULL;
	return m;
}

/* Integers as zigzag LEB128: the values of small kernels take a byte or two. */
static void put_var(Buf *b, int64_t x)
{
	uint64_t u = ((uint64_t)x << 1) ^ (uint64_t)(x >> 63);
	char tmp[16]; /* 10 bytes at most; 16: what buf_putn's short copy may read */
	int n = 0;
	do {
		unsigned char c = u & 0x7f;
		u >>= 7;
		tmp[n++] = (char)(c | (u ? 0x80 : 0));
	} while (u);
	buf_putn(b, tmp, (size_t)n);
}

/* A lane set of size lanes: (size + 7) / 8 bytes, lane 0 in bit 0. */
static void put_lanes(Buf *b, const uint64_t *set, int32_t size)
{
	for (int32_t j = 0; j * 64 < size; j++) {
		uint64_t w = set[j];
		int32_t nbytes = (size - j * 64 >= 64 ? 64 : size - j * 64 + 7) / 8;
		for (int32_t k = 0; k < nbytes; k++)
			buf_putc(b, (char)(w >> (8 * k)));
	}
}

/* A value beyond int64 (tag 1): sign and size, then the limbs; else tag 0
** and the integer. */
static void put_num(Buf *b, Num v)
{
	if (!v.z) {
		buf_putc(b, 0);
		put_var(b, v.i);
		return;
	}
	buf_putc(b, 1);
	put_var(b, v.z->_mp_size);
	int32_t n = v.z->_mp_size < 0 ? -v.z->_mp_size : v.z->_mp_size;
	buf_putn(b, (const char *)v.z->_mp_d, (size_t)n * sizeof(mp_limb_t));
}

typedef struct CellPut {
	Buf *b;
	int64_t n, last;
} CellPut;

static void put_cell(void *ctx, int64_t addr, Num v)
{
	CellPut *c = ctx;
	put_var(c->b, addr - c->last); /* ascending: the gap */
	c->last = addr;
	put_num(c->b, v);
	c->n++;
}

static int64_t count_cells(const Mem *mem)
{
	int64_t n = 0;
	for (int32_t p = 0; mem && p < mem->npages; p++)
		n += bits_count(mem->pages[p]->init, MEM_PAGE_SIZE / 64);
	return n;
}

/* The count of the initialised cells, then the cells, ascending. */
static void put_mem(Buf *b, const Mem *mem)
{
	int64_t n = count_cells(mem);
	put_var(b, n);
	CellPut c = {b, 0, 0};
	if (n)
		mem_each(mem, put_cell, &c);
}

void sem_pack(const Machine *m, Buf *b)
{
	size_t nt = (size_t)m->nthreads;
	uint64_t bits[4];
	for (int32_t v = 0; v < m->nvars; v++) {
		const uint8_t *def = m->def + (size_t)v * nt;
		const int64_t *val = m->val + (size_t)v * nt;
		if (m->nbig[v] == 0) {
			/* int64 lanes: the assigned lanes as bits, then their values */
			buf_putc(b, 0);
			for (size_t t0 = 0; t0 < nt; t0 += 256) {
				size_t n = nt - t0 < 256 ? nt - t0 : 256;
				memset(bits, 0, sizeof bits);
				for (size_t t = 0; t < n; t++)
					bits[t >> 6] |= (uint64_t)(def[t0 + t] != 0) << (t & 63);
				put_lanes(b, bits, (int32_t)n);
			}
			for (size_t t = 0; t < nt; t++)
				if (def[t])
					put_var(b, val[t]);
			continue;
		}
		buf_putc(b, 1);
		for (int32_t t = 0; t < m->nthreads; t++) {
			Num x;
			if (!sem_get(m, v, t, &x)) {
				buf_putc(b, 2); /* unassigned */
				continue;
			}
			put_num(b, x);
		}
	}
	if (m->track_edges)
		for (size_t t = 0; t < nt; t++)
			put_var(b, m->from_block[t]);
	for (size_t t = 0; m->ret_cap && t < nt; t++) { /* the return stacks */
		put_var(b, m->ret_depth[t]);
		for (int32_t k = 0; k < m->ret_depth[t]; k++)
			put_var(b, sem_ret_pc(m, (int32_t)t, k));
	}
	put_mem(b, &m->shared);
	for (int32_t t = 0; t < m->nthreads; t++)
		put_mem(b, m->local[t]);
	for (int32_t i = 0; i < m->nwarps; i++) {
		const Warp *w = &m->warps[i];
		put_var(b, w->pc);
		buf_putc(b, (char)w->status);
		put_lanes(b, w->active, w->size);
		put_lanes(b, w->live, w->size);
		put_var(b, w->ctl.n);
		/* the records are int32 fields (model.h) */
		const int32_t *rec = (const int32_t *)(const void *)w->ctl.recs;
		for (size_t k = 0; k < (size_t)w->ctl.n * w->ctl.rec_size / sizeof(int32_t); k++)
			put_var(b, rec[k]);
		for (int32_t k = 0; k < w->ctl.n * w->ctl.nmask; k++)
			put_lanes(b, w->ctl.masks + (size_t)k * (size_t)w->nw, w->size);
	}
	put_var(b, m->arrived);
	buf_putc(b, (char)m->status);
	if (m->opt.lane_order == ORDER_RANDOM)
		put_var(b, (int64_t)m->rng);
}

uint64_t sem_hash_bytes(const void *p, size_t n)
{
	/* FNV-1a over 64-bit words, then a final mix (splitmix64) */
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ull ^ n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

/* ---- unpacking ---------------------------------------------------------------------- */

typedef struct Reader {
	const unsigned char *p, *end;
	bool bad;
} Reader;

static void take(Reader *r, void *out, size_t n)
{
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		memset(out, 0, n);
		return;
	}
	memcpy(out, r->p, n);
	r->p += n;
}

static int get_byte(Reader *r)
{
	unsigned char c;
	take(r, &c, 1);
	return c;
}

static int64_t get_var(Reader *r)
{
	uint64_t u = 0;
	for (int shift = 0;; shift += 7) {
		if (r->p >= r->end || shift > 63) {
			r->bad = true;
			return 0;
		}
		unsigned char c = *r->p++;
		u |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			break;
	}
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static void get_lanes(Reader *r, uint64_t *set, int32_t size)
{
	for (int32_t j = 0; j * 64 < size; j++) {
		int32_t nbytes = (size - j * 64 >= 64 ? 64 : size - j * 64 + 7) / 8;
		uint64_t w = 0;
		for (int32_t k = 0; k < nbytes; k++)
			w |= (uint64_t)get_byte(r) << (8 * k);
		set[j] = w;
	}
}

/* A value written by put_num (tag already read). */
static Num get_num(Reader *r, int tag)
{
	if (tag == 0)
		return NUM_I(get_var(r));
	int64_t size = get_var(r);
	int64_t n = size < 0 ? -size : size;
	if (r->bad || tag != 1 || n <= 0 || n > INT32_MAX ||
	    (size_t)(r->end - r->p) < (size_t)n * sizeof(mp_limb_t)) {
		r->bad = true;
		return NUM_I(0);
	}
	Num v = {0, xmalloc(sizeof *v.z)};
	mpz_init2(v.z, (mp_bitcnt_t)n * GMP_NUMB_BITS);
	memcpy(v.z->_mp_d, r->p, (size_t)n * sizeof(mp_limb_t));
	v.z->_mp_size = (int)size;
	r->p += (size_t)n * sizeof(mp_limb_t);
	return v;
}

/* Cells written by put_mem: their count, then (gap, value)... */
static void get_mem(Reader *r, Machine *m, int32_t t)
{
	int64_t n = get_var(r);
	if (n < 0 || (uint64_t)n > (uint64_t)(r->end - r->p))
		r->bad = true;
	int64_t addr = 0;
	for (int64_t i = 0; i < n && !r->bad; i++) {
		addr += get_var(r);
		int tag = get_byte(r);
		Num v = get_num(r, tag);
		if (r->bad) {
			num_free(&v);
			return;
		}
		sem_put_cell(m, t < 0 ? &m->shared : sem_local_mem(m, t), addr, v);
	}
}

bool sem_unpack(Machine *m, const void *p, size_t len)
{
	Reader r = {p, (const unsigned char *)p + len, false};
	size_t nt = (size_t)m->nthreads;
	uint64_t bits[4];
	for (int32_t v = 0; v < m->nvars && !r.bad; v++) {
		int form = get_byte(&r);
		if (form == 0) {
			/* int64 lanes: drop the big values the machine holds, then copy */
			if (m->nbig[v] > 0)
				for (int32_t t = 0; t < m->nthreads; t++)
					sem_unset_lane(m, v, t);
			uint8_t *def = m->def + (size_t)v * nt;
			int64_t *val = m->val + (size_t)v * nt;
			for (size_t t0 = 0; t0 < nt; t0 += 256) {
				size_t n = nt - t0 < 256 ? nt - t0 : 256;
				get_lanes(&r, bits, (int32_t)n);
				for (size_t t = 0; t < n; t++)
					def[t0 + t] = (uint8_t)((bits[t >> 6] >> (t & 63)) & 1);
			}
			int32_t n = 0;
			for (size_t t = 0; t < nt && !r.bad; t++)
				if (def[t]) {
					val[t] = get_var(&r);
					n++;
				}
			m->ndef[v] = n;
			continue;
		}
		if (form != 1) {
			r.bad = true;
			break;
		}
		for (int32_t t = 0; t < m->nthreads && !r.bad; t++) {
			int tag = get_byte(&r);
			if (tag == 2) {
				sem_unset_lane(m, v, t);
				continue;
			}
			Num x = get_num(&r, tag);
			if (r.bad) {
				num_free(&x);
				break;
			}
			sem_set_lane(m, v, t, x);
		}
	}
	if (m->track_edges)
		for (size_t t = 0; t < nt; t++)
			m->from_block[t] = (int32_t)get_var(&r);
	for (size_t t = 0; m->ret_cap && t < nt && !r.bad; t++) {
		int64_t depth = get_var(&r);
		if (depth < 0 || depth > m->ret_cap) {
			r.bad = true;
			break;
		}
		m->ret_depth[t] = (int32_t)depth;
		for (int32_t k = 0; k < depth; k++)
			m->ret_stack[t * (size_t)m->ret_cap + (size_t)k] = (int32_t)get_var(&r);
	}
	mem_clear(&m->shared, &m->big_bytes, &m->heap_bytes);
	for (int32_t t = 0; t < m->nthreads; t++)
		if (m->local[t])
			mem_clear(m->local[t], &m->big_bytes, &m->heap_bytes);
	m->cells = 0;
	get_mem(&r, m, -1);
	for (int32_t t = 0; t < m->nthreads && !r.bad; t++) {
		/* an empty local memory packs as a count of 0: leave it uncreated */
		if (r.p < r.end && *r.p == 0) {
			r.p++;
			continue;
		}
		get_mem(&r, m, t);
	}
	m->nlive = 0;
	m->nwarps_done = 0;
	for (int32_t i = 0; i < m->nwarps && !r.bad; i++) {
		Warp *w = &m->warps[i];
		w->pc = (int32_t)get_var(&r);
		w->status = (WarpStatus)get_byte(&r);
		get_lanes(&r, w->active, w->size);
		get_lanes(&r, w->live, w->size);
		int64_t n = get_var(&r);
		if (r.bad || n < 0 || n > (int64_t)(r.end - r.p)) {
			r.bad = true;
			break;
		}
		ctl_reserve(m, w, (int32_t)n);
		w->ctl.n = (int32_t)n;
		int32_t *rec = (int32_t *)(void *)w->ctl.recs;
		for (size_t k = 0; k < (size_t)n * w->ctl.rec_size / sizeof(int32_t); k++)
			rec[k] = (int32_t)get_var(&r);
		for (int32_t k = 0; k < w->ctl.n * w->ctl.nmask; k++)
			get_lanes(&r, w->ctl.masks + (size_t)k * (size_t)w->nw, w->size);
		w->idx_ok = false;
		m->nlive += bits_count(w->live, w->nw);
		m->nwarps_done += w->status == WARP_DONE;
	}
	sem_ready_reset(m);
	m->arrived = (int32_t)get_var(&r);
	m->status = (SemStatus)get_byte(&r);
	if (m->opt.lane_order == ORDER_RANDOM)
		m->rng = (uint64_t)get_var(&r);
	free(m->err.msg);
	free(m->err.threads);
	free(m->err.stack);
	memset(&m->err, 0, sizeof m->err);
	return !r.bad && r.p == r.end;
}
