/*
** ldst.c — the LD/ST unit and the memory hierarchy behind it (sm-model.md
** §1.5, §5 "L1 / global", "L2 / DRAM", decision 3; docs/sm-config.md):
**
** - shared memory: 32 banks of 4-byte words, the cost of a warp's access is
**   its worst bank's distinct words (bank_cost, §1.5), the latency
**   -gpgpu_smem_latency. μ-SIMD's mem[] lives there by default
**   (-musimd_sigma shared: the papers' Σ is shared by all PEs).
** - global (mem[] under -musimd_sigma global) and local memory (local[o],
**   per thread, always cached): the warp's lane addresses coalesce into
**   transactions as GPGPU-Sim's -gpgpu_coalesce_arch does (>= 40, Maxwell
**   to Volta: one per distinct 32-byte sector; below, one per 128-byte
**   segment); local word o of thread t is at word o × T + t
**   (-gpgpu_local_mem_map: a warp's copies of one local word are
**   consecutive, one 128-byte line for 32 lanes). The transactions enter
**   the L1 (-gpgpu_cache:dl1) through its banks (-gpgpu_l1_banks, as many a
**   cycle as there are banks, one per bank: more hold the LD/ST unit,
**   GPGPU-Sim's coal_stall and resource_stall) and reach its tags
**   -gpgpu_l1_latency cycles later. A hit's data is there then; a miss
**   fetches only its missing sectors, holding an MSHR (-gpgpu_cache:dl1's
**   entries and merges, per line or per sector by its MSHR type) and a
**   line until the fill: with none free the LD/ST unit waits (a
**   reservation fail, gpgpu_stall_shd_mem[..][mshr_rc]). A request that
**   leaves the SM (a miss, a write-through, a global atomic, an access
**   that skips the L1) finds the L2 -gpgpu_l2_rop_latency cycles after it
**   left the L1's tags, and DRAM -dram_latency DRAM cycles (scaled by the
**   clocks) after an L2 miss. The L2 is -gpgpu_cache:dl2 per memory
**   sub-partition, times -gpgpu_n_mem × -gpgpu_n_sub_partition_per_mchannel
**   sub-partitions, lines interleaved across them.
**
** Not modelled: the interconnect, DRAM timing and bandwidth, the L2's
** MSHRs and queues (fixed latency), set-index hashing (linear), write-back
** traffic of evicted dirty lines, the fetch of a write-allocated sector
** (a sector a store writes whole is valid; one written in part is fetched
** at its next read, GPGPU-Sim's lazy fetch on read), the adaptive L1/shared
** carve-out. Functional execution stays at issue (decision 1): the
** hierarchy only decides when a result is ready.
*/
#include "ldst.h"

#include <stdlib.h>
#include <string.h>

#define NEVER INT64_MAX
/* Word addresses: 62 bits of the cell's index, bit 63 for local memory
** (a space of its own). A 32-byte unit (a sector) is a key >> 3. */
#define WORD_MASK ((UINT64_C(1) << 62) - 1)
#define LOCAL_SPACE (UINT64_C(1) << 63)

typedef enum Space { SP_NONE, SP_SHARED, SP_GLOBAL, SP_LOCAL } Space;

typedef struct BankWord {
	int64_t bank, word;
} BankWord;

/* One 32-byte unit a warp part touches: the words written, and for an
** atomic the most lanes on one word (they serialise). */
typedef struct Unit {
	uint64_t unit;
	uint32_t words;
	int32_t mult;
} Unit;

/* A coalesced transaction: units [first, first + n) of the unit list. */
typedef struct Trans {
	int32_t first, n, reps;
} Trans;

typedef struct Cache {
	const SmCacheConfig *cfg;
	int64_t nsets;
	int32_t assoc, nsec;
	int32_t line_shift;    /* log2 words per line */
	int32_t gran_shift;    /* log2 words per sector (a whole line when not sectored) */
	uint64_t *tag;         /* per way: line + 1; 0 invalid */
	uint64_t *stamp;       /* per way: last use (LRU) or allocation (FIFO) */
	int64_t *ready;        /* per way × sector: when its data is there; NEVER: absent */
	uint32_t *words;       /* L1: per way × sector, words stores wrote while it was absent */
	int32_t *mshr;         /* L1: per way × sector, the MSHR entry of its pending fill */
	uint64_t clock;
} Cache;

typedef struct Mshr {
	int64_t release;       /* the cycle its last fill arrives: free from then */
	int32_t merged;        /* requests it holds */
} Mshr;

struct LdSt {
	const SmConfig *cfg;
	/* the prepared access */
	Space space;
	bool store, atomic;
	int32_t size;          /* the warp's lanes */
	int32_t nactive;
	int32_t n;             /* lanes with an address */
	int64_t *addr;         /* per lane with an address: the address operand's value */
	int32_t *lane, *thread;
	uint64_t *keys;
	BankWord *bw;
	Unit *units;
	Trans *tr;
	int32_t nunits, ntr;
	/* the hierarchy, made at its first use */
	bool built;
	Cache l1, l2;
	Mshr *mshrs;
	int32_t nmshr, cursor;
	int64_t dram;          /* DRAM latency in core cycles */
	int64_t local_stride;
};

#define MAX_LINES (INT64_C(1) << 22)

bool ldst_check(const SmConfig *c, Diags *d)
{
	int64_t lines = (int64_t)c->l2.nsets * c->l2.assoc * c->n_mem * c->n_sub_partition;
	if (c->l2.enabled && lines > MAX_LINES) {
		diag_error(d, LOC_NONE,
		           "the L2 has %lld lines (-gpgpu_cache:dl2 %d sets × %d ways per sub-partition × -gpgpu_n_mem %d × "
		           "-gpgpu_n_sub_partition_per_mchannel %d): the model takes at most %lld",
		           (long long)lines, c->l2.nsets, c->l2.assoc, c->n_mem, c->n_sub_partition, (long long)MAX_LINES);
		return false;
	}
	return true;
}

LdSt *ldst_new(const SmConfig *c, const Machine *m)
{
	LdSt *u = xcalloc(1, sizeof *u);
	u->cfg = c;
	int32_t maxsize = 1;
	for (int32_t w = 0; w < m->nwarps; w++)
		if (m->warps[w].size > maxsize)
			maxsize = m->warps[w].size;
	size_t n = (size_t)maxsize;
	u->addr = xmalloc(n * sizeof *u->addr);
	u->lane = xmalloc(n * sizeof *u->lane);
	u->thread = xmalloc(n * sizeof *u->thread);
	u->keys = xmalloc(n * sizeof *u->keys);
	u->bw = xmalloc(n * sizeof *u->bw);
	u->units = xmalloc(n * sizeof *u->units);
	u->tr = xmalloc(n * sizeof *u->tr);
	u->local_stride = c->local_mem_map ? m->nthreads : c->max_threads;
	if (u->local_stride < 1)
		u->local_stride = 1;
	return u;
}

static void cache_free(Cache *c)
{
	free(c->tag);
	free(c->stamp);
	free(c->ready);
	free(c->words);
	free(c->mshr);
}

void ldst_free(LdSt *u)
{
	if (!u)
		return;
	free(u->addr);
	free(u->lane);
	free(u->thread);
	free(u->keys);
	free(u->bw);
	free(u->units);
	free(u->tr);
	cache_free(&u->l1);
	cache_free(&u->l2);
	free(u->mshrs);
	free(u);
}

static int32_t log2i(int64_t v)
{
	int32_t s = 0;
	while (((int64_t)1 << (s + 1)) <= v)
		s++;
	return s;
}

static void cache_init(Cache *c, const SmCacheConfig *k, int64_t nsets, bool l1)
{
	c->cfg = k;
	c->nsets = nsets > 0 ? nsets : 1;
	c->assoc = k->assoc > 0 ? k->assoc : 1;
	c->nsec = k->sectored ? 4 : 1;
	c->line_shift = log2i(k->line / 4);
	c->gran_shift = k->sectored ? 3 : c->line_shift;
	size_t ways = (size_t)c->nsets * (size_t)c->assoc, secs = ways * (size_t)c->nsec;
	c->tag = xcalloc(ways, sizeof *c->tag);
	c->stamp = xcalloc(ways, sizeof *c->stamp);
	c->ready = xmalloc(secs * sizeof *c->ready);
	for (size_t i = 0; i < secs; i++)
		c->ready[i] = NEVER;
	if (l1) {
		c->words = xcalloc(secs, sizeof *c->words);
		c->mshr = xmalloc(secs * sizeof *c->mshr);
		for (size_t i = 0; i < secs; i++)
			c->mshr[i] = -1;
	}
}

static void build(LdSt *u)
{
	const SmConfig *k = u->cfg;
	if (k->l1.enabled) {
		cache_init(&u->l1, &k->l1, k->l1.nsets, true);
		u->nmshr = k->l1.mshr_entries > 0 ? k->l1.mshr_entries : 1;
		u->mshrs = xcalloc((size_t)u->nmshr, sizeof *u->mshrs);
	}
	if (k->l2.enabled) {
		int64_t parts = (int64_t)(k->n_mem > 0 ? k->n_mem : 1) * (k->n_sub_partition > 0 ? k->n_sub_partition : 1);
		cache_init(&u->l2, &k->l2, (int64_t)k->l2.nsets * parts, false);
	}
	double ratio = k->dram_clock_mhz > 0 ? k->core_clock_mhz / k->dram_clock_mhz : 1.0;
	u->dram = (int64_t)((double)k->dram_latency * ratio + 0.5);
	u->built = true;
}

/* ---- preparing an access ------------------------------------------------ */

void ldst_prepare(LdSt *u, const Machine *m, const Warp *W, const Ins *ins)
{
	const SmConfig *cfg = u->cfg;
	u->atomic = ir_is_atomic((Op)ins->op);
	u->store = ins->op == OP_STORE || ins->op == OP_LSTORE;
	if (ins->op == OP_LLOAD || ins->op == OP_LSTORE)
		u->space = SP_LOCAL;
	else if (ins->op == OP_LOAD || ins->op == OP_STORE || u->atomic)
		u->space = cfg->sigma_global ? SP_GLOBAL : SP_SHARED;
	else
		u->space = SP_NONE;
	u->size = W->size;
	u->n = u->nactive = 0;
	if (u->space == SP_NONE)
		return;
	const Opnd *a = &ins->a;
	for (int32_t l = 0; l < W->size; l++) {
		if (!bit_get(W->active, l))
			continue;
		u->nactive++;
		int32_t t = W->base + l;
		int64_t addr;
		if (a->kind == OPND_VAR) {
			if (m->nbig[a->var] > 0 && m->big[a->var] && m->big[a->var][t])
				continue; /* beyond int64: no address the hierarchy can place */
			addr = m->val[(size_t)a->var * (size_t)m->nthreads + (size_t)t];
		} else if (a->kind == OPND_SPECIAL) {
			addr = sem_special(m, (Special)a->special, t);
		} else {
			Num v = ir_lit(m->prog, a);
			if (v.z)
				continue;
			addr = v.i;
		}
		u->addr[u->n] = addr;
		u->lane[u->n] = l;
		u->thread[u->n] = t;
		u->n++;
	}
}

void ldst_prepare_spill(LdSt *u, const Warp *W, const uint64_t *lanes, bool local, bool store, int64_t addr)
{
	u->atomic = false;
	u->store = store;
	u->space = local ? SP_LOCAL : SP_SHARED;
	u->size = W->size;
	u->n = u->nactive = 0;
	for (int32_t l = 0; l < W->size; l++) {
		if (!bit_get(lanes, l))
			continue;
		u->nactive++;
		u->addr[u->n] = addr;
		u->lane[u->n] = l;
		u->thread[u->n] = W->base + l;
		u->n++;
	}
}

/* ---- shared memory ------------------------------------------------------ */

static int cmp_bank_word(const void *a, const void *b)
{
	const BankWord *x = a, *y = b;
	if (x->bank != y->bank)
		return x->bank < y->bank ? -1 : 1;
	return (x->word > y->word) - (x->word < y->word);
}

/* Cycles the LD/ST unit spends on a shared-memory access (sm-model.md
** §1.5, GPGPU-Sim's shared-memory bank conflicts): Σ's cells are 4-byte
** words in bank (address mod banks); per part of the warp
** (-gpgpu_shmem_warp_parts) the most distinct words any bank serves (one
** word read by many lanes is a broadcast; with
** -gpgpu_shmem_limited_broadcast only one such word per access is free),
** summed over the parts. An atomic serialises the lanes that meet in a
** bank, words alike or not. Addresses beyond int64 cost nothing. */
static int32_t bank_cost(LdSt *u)
{
	const SmConfig *cfg = u->cfg;
	int64_t banks = cfg->shmem_num_banks > 0 ? cfg->shmem_num_banks : 1;
	int32_t parts = cfg->shmem_warp_parts > 0 ? cfg->shmem_warp_parts : 1;
	int32_t per = (u->size + parts - 1) / parts;
	int32_t cost = 0;
	for (int32_t part = 0, i = 0; part < parts; part++) {
		int32_t n = 0;
		for (; i < u->n && u->lane[i] < (part + 1) * per; i++) {
			int64_t bank = ((u->addr[i] % banks) + banks) % banks;
			/* an atomic's lanes all count: each its own "word" */
			u->bw[n] = (BankWord){bank, u->atomic ? (int64_t)n : u->addr[i]};
			n++;
		}
		if (n == 0)
			continue;
		qsort(u->bw, (size_t)n, sizeof *u->bw, cmp_bank_word);
		int32_t worst = 0, run = 0, broadcasts = 0;
		for (int32_t k = 0; k < n; k++) {
			bool same_bank = k > 0 && u->bw[k].bank == u->bw[k - 1].bank;
			if (same_bank && u->bw[k].word == u->bw[k - 1].word) {
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

/* ---- coalescing --------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The lanes' word addresses into units and transactions, per part of the
** warp (GPGPU-Sim's mem_warp_parts is -gpgpu_shmem_warp_parts), in address
** order as GPGPU-Sim's coalescer sends them. */
static void coalesce(LdSt *u)
{
	const SmConfig *cfg = u->cfg;
	int32_t parts = cfg->shmem_warp_parts > 0 ? cfg->shmem_warp_parts : 1;
	int32_t per = (u->size + parts - 1) / parts;
	int32_t seg_shift = cfg->coalesce_arch >= 40 ? 0 : 2; /* units per transaction: 1 sector, or 128 bytes */
	u->nunits = u->ntr = 0;
	for (int32_t i = 0; i < u->n; i++) {
		uint64_t w = u->space == SP_LOCAL
		                 ? (((uint64_t)u->addr[i] * (uint64_t)u->local_stride + (uint64_t)u->thread[i]) & WORD_MASK) |
		                       LOCAL_SPACE
		                 : (uint64_t)u->addr[i] & WORD_MASK;
		u->keys[i] = w;
	}
	for (int32_t part = 0, i = 0; part < parts; part++) {
		int32_t start = i;
		while (i < u->n && u->lane[i] < (part + 1) * per)
			i++;
		if (i == start)
			continue;
		qsort(u->keys + start, (size_t)(i - start), sizeof *u->keys, cmp_u64);
		int32_t first_unit = u->nunits;
		for (int32_t k = start, run = 0; k < i; k++) {
			uint64_t unit = u->keys[k] >> 3;
			run = k > start && u->keys[k] == u->keys[k - 1] ? run + 1 : 1;
			if (u->nunits == first_unit || u->units[u->nunits - 1].unit != unit)
				u->units[u->nunits++] = (Unit){unit, 0, 0};
			Unit *un = &u->units[u->nunits - 1];
			un->words |= UINT32_C(1) << (u->keys[k] & 7);
			if (run > un->mult)
				un->mult = run;
		}
		for (int32_t k = first_unit; k < u->nunits; k++) {
			if (k == first_unit || (u->units[k].unit >> seg_shift) != (u->units[k - 1].unit >> seg_shift))
				u->tr[u->ntr++] = (Trans){k, 0, 0};
			Trans *t = &u->tr[u->ntr - 1];
			t->n++;
			/* an atomic: lanes on one word go in transactions of their own */
			int32_t reps = u->atomic ? u->units[k].mult : 1;
			if (reps > t->reps)
				t->reps = reps;
		}
	}
}

/* ---- caches ------------------------------------------------------------- */

static int32_t cache_find(const Cache *c, uint64_t line)
{
	size_t base = (size_t)(line % (uint64_t)c->nsets) * (size_t)c->assoc;
	for (int32_t i = 0; i < c->assoc; i++)
		if (c->tag[base + (size_t)i] == line + 1)
			return (int32_t)(base + (size_t)i);
	return -1;
}

static bool way_pending(const Cache *c, int32_t w, int64_t T)
{
	for (int32_t s = 0; s < c->nsec; s++) {
		int64_t r = c->ready[(size_t)w * (size_t)c->nsec + (size_t)s];
		if (r != NEVER && r > T)
			return true;
	}
	return false;
}

/* The way line replaces at T: an invalid one, else the least recently used
** (or first allocated) of those with no fill pending when reserve (else of
** all); -1 when every way waits for a fill, *until the first that ends. */
static int32_t cache_victim(const Cache *c, uint64_t line, int64_t T, bool reserve, int64_t *until)
{
	size_t base = (size_t)(line % (uint64_t)c->nsets) * (size_t)c->assoc;
	int32_t best = -1;
	*until = NEVER;
	for (int32_t i = 0; i < c->assoc; i++) {
		int32_t w = (int32_t)(base + (size_t)i);
		if (!c->tag[w])
			return w;
		if (reserve && way_pending(c, w, T)) {
			for (int32_t s = 0; s < c->nsec; s++) {
				int64_t r = c->ready[(size_t)w * (size_t)c->nsec + (size_t)s];
				if (r != NEVER && r > T && r < *until)
					*until = r; /* the way is free once its last fill came; the first fill bounds it below */
			}
			continue;
		}
		if (best < 0 || c->stamp[w] < c->stamp[best])
			best = w;
	}
	return best;
}

static void cache_fill_line(Cache *c, int32_t w, uint64_t line)
{
	c->tag[w] = line + 1;
	c->stamp[w] = ++c->clock;
	for (int32_t s = 0; s < c->nsec; s++) {
		size_t i = (size_t)w * (size_t)c->nsec + (size_t)s;
		c->ready[i] = NEVER;
		if (c->words)
			c->words[i] = 0;
		if (c->mshr)
			c->mshr[i] = -1;
	}
}

static void cache_touch(Cache *c, int32_t w)
{
	if (c->cfg->repl != 'F')
		c->stamp[w] = ++c->clock;
}

static uint64_t line_of(const Cache *c, uint64_t unit)
{
	return unit >> (c->line_shift - 3);
}

static int32_t sector_of(const Cache *c, uint64_t unit)
{
	return c->nsec > 1 ? (int32_t)(unit & 3) : 0;
}

/* One request to the L2 for units [u0, u0 + n) that left the L1's tags at
** T: when its data is back (a write's is never waited for). */
static int64_t l2_request(LdSt *u, uint64_t u0, int32_t n, int64_t T, bool write, SmResult *r)
{
	SmCacheStats *st = &r->mem.l2;
	int64_t T2 = T + u->cfg->l2_rop_latency, at = T2;
	st->accesses++;
	if (!u->cfg->l2.enabled) { /* no L2: every request goes to DRAM */
		st->misses++;
		r->mem.dram_accesses += !write;
		return write ? T2 : T2 + u->dram;
	}
	Cache *c = &u->l2;
	bool miss = false, pending = false;
	for (int32_t k = 0; k < n; k++) {
		uint64_t unit = u0 + (uint64_t)k, line = line_of(c, unit);
		int32_t s = sector_of(c, unit);
		int32_t w = cache_find(c, line);
		int64_t until;
		if (w < 0) {
			w = cache_victim(c, line, T2, false, &until);
			cache_fill_line(c, w, line);
		} else {
			cache_touch(c, w);
		}
		int64_t *rd = &c->ready[(size_t)w * (size_t)c->nsec + (size_t)s];
		if (*rd == NEVER) {
			miss = true;
			*rd = write ? T2 : T2 + u->dram; /* a write-back L2 keeps what is written */
		} else if (*rd > T2) {
			pending = true;
		}
		if (*rd > at)
			at = *rd;
	}
	if (miss) {
		st->misses++;
		r->mem.dram_accesses += !write;
	} else if (pending) {
		st->pending_hits++;
	}
	return at;
}

/* A free MSHR entry at T, or -1 and *until when one frees. */
static int32_t mshr_free(LdSt *u, int64_t T, int64_t *until)
{
	*until = NEVER;
	for (int32_t k = 0; k < u->nmshr; k++) {
		int32_t e = (u->cursor + k) % u->nmshr;
		if (u->mshrs[e].release <= T) {
			u->cursor = e;
			return e;
		}
		if (u->mshrs[e].release < *until)
			*until = u->mshrs[e].release;
	}
	return -1;
}

/* The MSHR entry of line's pending fill (its way w), or -1. */
static int32_t line_entry(const Cache *c, int32_t w, int64_t T)
{
	for (int32_t s = 0; s < c->nsec; s++) {
		size_t i = (size_t)w * (size_t)c->nsec + (size_t)s;
		if (c->ready[i] != NEVER && c->ready[i] > T && c->mshr[i] >= 0)
			return c->mshr[i];
	}
	return -1;
}

static uint64_t trans_unit(const LdSt *u, const Trans *t, int32_t k)
{
	return u->units[t->first + k].unit;
}

/* A load transaction at the L1's tags at T: when its data is there
** (*at); the cycle it was accepted (later than T when it had to wait for
** an MSHR, a merge slot or a line). */
static int64_t l1_load(LdSt *u, const Trans *t, int64_t T, int type, SmResult *r, int64_t *at)
{
	Cache *c = &u->l1;
	const SmCacheConfig *k = c->cfg;
	bool by_sector = k->mshr_type == 'S' || k->mshr_type == 'T';
	bool reserve = k->alloc == 'm'; /* allocate on miss: the line is held until its fill */
	for (;;) {
		int64_t until = NEVER, v;
		bool miss = false, pending = false, stuck = false;
		int32_t need = 0; /* new MSHR entries */
		uint64_t last_line = UINT64_MAX;
		int32_t last_sec = -1;
		for (int32_t g = 0; g < t->n; g++) {
			uint64_t unit = trans_unit(u, t, g), line = line_of(c, unit);
			int32_t s = sector_of(c, unit);
			if (line == last_line && s == last_sec)
				continue; /* the same sector (a line, unsectored) */
			bool new_line = line != last_line;
			last_line = line;
			last_sec = s;
			int32_t w = cache_find(c, line);
			int64_t rd = w >= 0 ? c->ready[(size_t)w * (size_t)c->nsec + (size_t)s] : NEVER;
			if (rd <= T)
				continue;
			if (rd != NEVER) {
				pending = true;
				int32_t e = c->mshr[(size_t)w * (size_t)c->nsec + (size_t)s];
				if (e >= 0 && u->mshrs[e].merged >= k->mshr_max_merge) {
					stuck = true;
					if (u->mshrs[e].release < until)
						until = u->mshrs[e].release;
				}
				continue;
			}
			miss = true;
			if (w < 0 && cache_victim(c, line, T, reserve, &v) < 0) {
				stuck = true;
				if (v < until)
					until = v;
			}
			int32_t e = w >= 0 && !by_sector ? line_entry(c, w, T) : -1;
			if (e >= 0) {
				if (u->mshrs[e].merged >= k->mshr_max_merge) {
					stuck = true;
					if (u->mshrs[e].release < until)
						until = u->mshrs[e].release;
				}
			} else if (by_sector || new_line) {
				need++;
			}
		}
		if (need > 0) {
			/* enough free entries? else wait for the next to free */
			int32_t freeable = 0;
			for (int32_t k2 = 0; k2 < u->nmshr && freeable < need; k2++)
				freeable += u->mshrs[(u->cursor + k2) % u->nmshr].release <= T;
			if (freeable < need) {
				stuck = true;
				for (int32_t e = 0; e < u->nmshr; e++)
					if (u->mshrs[e].release > T && u->mshrs[e].release < until)
						until = u->mshrs[e].release;
			}
		}
		if (stuck && until != NEVER && until > T) {
			r->mem.l1.reservation_fails += (uint64_t)(until - T);
			r->mem.mshr_stall[type] += (uint64_t)(until - T);
			T = until;
			continue;
		}
		/* accepted: allocate, merge, fetch */
		SmCacheStats *st = &r->mem.l1;
		st->accesses++;
		if (miss)
			st->misses++;
		else if (pending)
			st->pending_hits++;
		int64_t done = T;
		bool requested = false;
		last_line = UINT64_MAX;
		last_sec = -1;
		for (int32_t g = 0; g < t->n; g++) {
			uint64_t unit = trans_unit(u, t, g), line = line_of(c, unit);
			int32_t s = sector_of(c, unit);
			if (line == last_line && s == last_sec)
				continue;
			last_line = line;
			last_sec = s;
			int32_t w = cache_find(c, line);
			if (w < 0) {
				w = cache_victim(c, line, T, reserve, &v);
				if (w < 0) /* taken by this transaction's other line */
					w = cache_victim(c, line, T, false, &v);
				cache_fill_line(c, w, line);
			} else {
				cache_touch(c, w);
			}
			size_t i = (size_t)w * (size_t)c->nsec + (size_t)s;
			if (c->ready[i] <= T)
				continue; /* a hit: there at T */
			if (c->ready[i] != NEVER) { /* a pending hit: merged into the fill's entry */
				if (c->mshr[i] >= 0)
					u->mshrs[c->mshr[i]].merged++;
				if (c->ready[i] > done)
					done = c->ready[i];
				continue;
			}
			/* a miss: fetch the sector (the line, unsectored) from the L2 */
			int32_t nunits = 1 << (c->gran_shift - 3);
			uint64_t u0 = ((line << c->line_shift) | ((uint64_t)s << c->gran_shift)) >> 3;
			if (!requested)
				r->mem.requests[type]++;
			requested = true;
			int64_t F = l2_request(u, u0, nunits, T, false, r);
			int32_t e = !by_sector ? line_entry(c, w, T) : -1;
			if (e >= 0 && u->mshrs[e].merged < k->mshr_max_merge) {
				u->mshrs[e].merged++;
			} else {
				e = mshr_free(u, T, &v);
				if (e >= 0)
					u->mshrs[e] = (Mshr){T, 1};
			}
			if (e >= 0 && u->mshrs[e].release < F)
				u->mshrs[e].release = F;
			c->ready[i] = F;
			c->words[i] = 0;
			c->mshr[i] = e;
			if (F > done)
				done = F;
		}
		*at = done;
		return T;
	}
}

/* A store transaction at the L1's tags at T (write policy and write
** allocation of -gpgpu_cache:dl1); true when it goes on to the L2. */
static bool l1_store(LdSt *u, const Trans *t, int64_t T, SmResult *r)
{
	Cache *c = &u->l1;
	const SmCacheConfig *k = c->cfg;
	bool write_back = k->write == 'B' || (k->write == 'L' && u->space == SP_LOCAL);
	bool through = !write_back;
	int64_t v;
	bool miss = false, uncached = false;
	r->mem.l1.accesses++;
	for (int32_t g = 0; g < t->n; g++) {
		const Unit *un = &u->units[t->first + g];
		uint64_t line = line_of(c, un->unit);
		int32_t s = sector_of(c, un->unit);
		int32_t w = cache_find(c, line);
		if (k->write == 'R') { /* a read-only cache: the store passes it by */
			uncached = true;
			continue;
		}
		if (w >= 0 && k->write == 'E') { /* write-evict */
			c->tag[w] = 0;
			uncached = true;
			continue;
		}
		if (w < 0) {
			miss = true;
			if (k->write_alloc != 'N')
				w = cache_victim(c, line, T, k->alloc == 'm', &v);
			if (w < 0) { /* no write allocation, or nothing to allocate now: not cached */
				uncached = true;
				continue;
			}
			cache_fill_line(c, w, line);
		} else {
			cache_touch(c, w);
		}
		size_t i = (size_t)w * (size_t)c->nsec + (size_t)s;
		if (c->ready[i] != NEVER)
			continue; /* there or on its way: the written words are merged */
		miss = true;
		/* the words of the sector this unit covers (a line, unsectored) */
		int32_t gw = 1 << c->gran_shift;
		int32_t shift = (int32_t)((un->unit << 3) & (uint64_t)(gw - 1));
		c->words[i] |= un->words << shift;
		uint32_t full = gw >= 32 ? UINT32_MAX : (UINT32_C(1) << gw) - 1;
		if (c->words[i] == full)
			c->ready[i] = T; /* written whole: valid without a fetch */
	}
	if (miss)
		r->mem.l1.misses++;
	return through || uncached;
}

/* ---- one access --------------------------------------------------------- */

LdStCost ldst_access(LdSt *u, int64_t now, SmResult *r)
{
	const SmConfig *cfg = u->cfg;
	LdStCost cost = {1, 0};
	SmMemStats *ms = &r->mem;
	if (u->space == SP_NONE) {
		cost.latency = cfg->smem_latency;
		return cost;
	}
	if (u->space == SP_SHARED) {
		int32_t n = bank_cost(u);
		ms->shmem_insn += (uint64_t)u->nactive;
		r->bank_conflict_cycles += (uint64_t)(n - 1);
		/* a bank conflict holds the LD/ST unit (dispatch delay) and delays the result */
		cost.busy = n;
		cost.latency = cfg->smem_latency + n - 1;
		return cost;
	}
	if (!u->built)
		build(u);
	coalesce(u);
	int type = u->space == SP_LOCAL ? (u->store ? SM_L_ST : SM_L_LD) : (u->store ? SM_G_ST : SM_G_LD);
	if (u->store)
		ms->store_insn += (uint64_t)u->nactive;
	else
		ms->load_insn += (uint64_t)u->nactive;
	bool use_l1 = cfg->l1.enabled && !u->atomic && !(u->space == SP_GLOBAL && cfg->gmem_skip_l1d);
	int32_t width = use_l1 && cfg->l1_banks > 0 ? cfg->l1_banks : 1;
	int64_t interleave = cfg->l1_banks_byte_interleaving > 0 ? cfg->l1_banks_byte_interleaving : 32;
	int64_t round = 0, shift = 0, done = now + cfg->l1_latency;
	uint64_t used = 0;
	int32_t inround = 0;
	for (int32_t i = 0; i < u->ntr; i++) {
		const Trans *t = &u->tr[i];
		if (u->atomic)
			ms->atomic_transactions += (uint64_t)t->reps;
		else
			ms->transactions[type]++;
		for (int32_t rep = 0; rep < t->reps; rep++) {
			uint64_t unit = trans_unit(u, t, 0);
			int32_t bank = use_l1 ? (int32_t)(((unit << 5) / (uint64_t)interleave) % (uint64_t)width) : 0;
			if (inround == width || (used >> bank & 1)) {
				/* the next cycle: a bank conflict (GPGPU-Sim's BK_CONF, printed as
				** resource_stall), or more accesses than banks (COAL_STALL) */
				if (used >> bank & 1)
					ms->resource_stall++;
				else
					ms->coal_stall++;
				round++;
				used = 0;
				inround = 0;
			}
			used |= UINT64_C(1) << bank;
			inround++;
			int64_t T = now + round + shift + cfg->l1_latency; /* at the L1's tags, or leaving the SM */
			int64_t at = T;
			if (use_l1 && !u->store) {
				int64_t T1 = l1_load(u, t, T, type, r, &at);
				shift += T1 - T;
			} else if (use_l1) {
				if (l1_store(u, t, T, r)) {
					ms->requests[type]++;
					l2_request(u, trans_unit(u, t, 0),
					           (int32_t)(trans_unit(u, t, t->n - 1) - trans_unit(u, t, 0) + 1), T, true, r);
				}
			} else {
				ms->requests[u->atomic ? SM_G_LD : type]++;
				at = l2_request(u, trans_unit(u, t, 0), (int32_t)(trans_unit(u, t, t->n - 1) - trans_unit(u, t, 0) + 1),
				                T, u->store, r);
			}
			if (at > done)
				done = at;
		}
	}
	cost.busy = (int32_t)(round + shift + 1);
	cost.latency = done - now;
	return cost;
}
