/*
** bows.c — BOWS, back-off warp spinning, with DDOS, the dynamic detection
** of spinning (ElTantawy's thesis chapter 6, HPCA 2018; seed 004 §6; the
** author's fork mimd_to_simt 1f3f1d8, BOWS_DDOS, where the thesis leaves a
** detail open). -gpgpu_scheduler bows:INNER, INNER one of lrr, gto, old,
** gto_rotate:N, glrr.
**
** DDOS. Per warp, path and value history registers record the
** predicate-setting instructions (PTX setp) the profiled thread (the first
** active one, kept while it stays active) executes: the pc, and its two
** source values, each hashed. μ-SIMD's setp is a compare (== != < <= > >=)
** and a conditional branch whose condition is not only ever a compare's
** result (PTX would set its predicate with setp.ne x, 0: the values x, 0).
** The warp is spinning once the entries repeat with a period p in both
** histories, p consecutive times (the match pointer, Remaining Matches);
** a mismatch ends it. A warp in the spinning state that executes a
** backward branch raises the branch's confidence in the SM's SIB
** prediction table; at the threshold t the branch is a confirmed
** spin-inducing branch (SIB). A warp not spinning lowers an unconfirmed
** branch's confidence.
**
** BOWS. A warp that executes a confirmed SIB is backed off: its scheduler
** tries it only after every warp that is not (the inner policy's order,
** greedy warp included, then the backed-off warps first in first out),
** and it may issue only once its pending back-off delay is 0. When it
** issues, it leaves the backed-off state and the delay is loaded with the
** back-off delay limit: fixed, or adapted every window of T cycles
** (thesis Fig. 6.4: +250 when SIB executions exceed 5% of the warp
** instructions, -500 when instructions per SIB execution fall below 80% of
** the previous window's; clamped to [b, 10 b]).
*/
#include "bows.h"

#include <stdlib.h>
#include <string.h>

#include "core.h"

#define NEVER INT64_MAX

/* The adaptive limit's constants (thesis Fig. 6.4). */
#define DELAY_STEP 250
#define FRAC1 0.05
#define FRAC2 0.8
#define MAX_FACTOR 10

/* ---- DDOS -------------------------------------------------------------- */

DdosParams ddos_params(const SmConfig *c)
{
	return (DdosParams){c->ddos_path_bits, c->ddos_path_len, c->ddos_value_bits, c->ddos_value_len, c->ddos_hash};
}

uint64_t ddos_hash(uint64_t x, int32_t bits, int32_t hash)
{
	uint64_t mask = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1, h = x & mask;
	if (hash == 1)
		for (int32_t i = bits; i < 64; i += bits)
			h ^= (x >> i) & mask;
	return h;
}

void ddos_history_init(DdosHistory *h, const DdosParams *p)
{
	memset(h, 0, sizeof *h);
	h->path = xcalloc((size_t)p->path_len, sizeof *h->path);
	h->value = xcalloc((size_t)p->value_len, sizeof *h->value);
	h->target = -1;
}

void ddos_history_free(DdosHistory *h)
{
	free(h->path);
	free(h->value);
}

void ddos_history_clear(DdosHistory *h, const DdosParams *p)
{
	memset(h->path, 0, (size_t)p->path_len * sizeof *h->path);
	memset(h->value, 0, (size_t)p->value_len * sizeof *h->value);
	h->front_path = h->front_value = h->matches = 0;
	h->target = -1;
	h->potential = h->spinning = false;
}

/* The entry the match pointer names: the one front − 1 insertions older
** than the newest (none, 0, before the first). */
static uint64_t entry(const uint64_t *hist, int32_t front)
{
	return front >= 1 ? hist[front - 1] : 0;
}

bool ddos_insert(DdosHistory *h, const DdosParams *p, int32_t pc, int64_t v1, int64_t v2)
{
	int32_t k = p->value_bits / 2;
	memmove(h->path + 1, h->path, (size_t)(p->path_len - 1) * sizeof *h->path);
	memmove(h->value + 1, h->value, (size_t)(p->value_len - 1) * sizeof *h->value);
	h->path[0] = ddos_hash((uint64_t)(uint32_t)pc, p->path_bits, p->hash);
	h->value[0] = ddos_hash((uint64_t)v1, k, p->hash) << k | ddos_hash((uint64_t)v2, k, p->hash);
	if (!h->potential) { /* the match pointer moves on while no period is being confirmed */
		h->front_path = (h->front_path + 1) % p->path_len;
		h->front_value = (h->front_value + 1) % p->value_len;
	}
	if (h->front_path < 2)
		return h->spinning;
	if (h->path[0] == entry(h->path, h->front_path) && h->value[0] == entry(h->value, h->front_value)) {
		h->potential = true;
		if (!h->spinning) {
			h->target = h->front_path - 1;
			if (++h->matches == h->target)
				h->spinning = true;
		}
	} else if (h->potential) { /* a mismatch in path or value: start again */
		h->potential = h->spinning = false;
		h->matches = 0;
		h->target = -1;
		h->front_path = h->front_value = 0;
	}
	return h->spinning;
}

static SibEntry *sib_find(SibTable *t, int32_t pc)
{
	for (int32_t i = 0; i < t->n; i++)
		if (t->e[i].pc == pc)
			return &t->e[i];
	return NULL;
}

bool sibpt_confirmed(const SibTable *t, int32_t pc)
{
	for (int32_t i = 0; i < t->n; i++)
		if (t->e[i].pc == pc)
			return t->e[i].confirmed;
	return false;
}

bool sibpt_update(SibTable *t, int32_t pc, bool spinning)
{
	SibEntry *e = sib_find(t, pc);
	if (!spinning) { /* decay: protects against aliasing that accumulates */
		if (e && !e->confirmed && e->confidence > 0)
			e->confidence--;
		return false;
	}
	if (!e) {
		if (t->n < SM_SIBPT_SIZE) {
			e = &t->e[t->n++];
		} else { /* full: replace the unconfirmed entry of least confidence (musimd's choice) */
			for (int32_t i = 0; i < t->n; i++)
				if (!t->e[i].confirmed && (!e || t->e[i].confidence < e->confidence))
					e = &t->e[i];
			if (!e)
				return false;
		}
		*e = (SibEntry){pc, 0, false};
	}
	if (e->confirmed)
		return false;
	if (++e->confidence >= t->threshold) {
		e->confirmed = true;
		return true;
	}
	return false;
}

/* ---- BOWS -------------------------------------------------------------- */

enum { SETP_NONE, SETP_COMPARE, SETP_BRANCH };

typedef struct Bows {
	const WarpSched *inner;
	DdosParams p;
	SibTable sibpt;
	DdosHistory *hist;   /* per warp */
	uint8_t *setp;       /* per pc: SETP_* */
	bool *backward;      /* per pc: a branch or jump to itself or before it */
	/* per warp: backed off, its place in the backed-off FIFO, the cycle of
	** the SIB that backed it off, and when its pending delay reaches 0 */
	bool *backed;
	uint64_t *seq;
	int64_t *sib_at, *delay_end;
	uint64_t next_seq;
	int32_t *tmp;
	/* the back-off delay limit and its windows */
	int64_t limit;
	int64_t window;                  /* the window the counts are for */
	uint64_t total, sibs;            /* this window: warp instructions, SIB executions */
	uint64_t prev_total, prev_sibs;  /* the previous window's */
} Bows;

/* total / sibs < FRAC2 × prev_total / prev_sibs, a window without SIB
** executions having an infinite ratio (0 / 0: none, never less). */
static bool ratio_fell(uint64_t total, uint64_t sibs, uint64_t prev_total, uint64_t prev_sibs)
{
	if ((sibs == 0 && total == 0) || (prev_sibs == 0 && prev_total == 0) || sibs == 0)
		return false;
	if (prev_sibs == 0)
		return true;
	return (double)total / (double)sibs < FRAC2 * ((double)prev_total / (double)prev_sibs);
}

/* Close the windows that ended before cycle now (thesis Fig. 6.4). */
static void adapt(Bows *b, const SmConfig *cfg, int64_t now)
{
	int64_t w = now / cfg->bows_window;
	for (int pass = 0; b->window < w && pass < 2; pass++) { /* after two, empty windows change nothing */
		if (cfg->bows_backoff_mode == 3) {
			if ((double)b->sibs > FRAC1 * (double)b->total)
				b->limit += DELAY_STEP;
			if (ratio_fell(b->total, b->sibs, b->prev_total, b->prev_sibs))
				b->limit -= 2 * DELAY_STEP;
			int64_t lo = cfg->bows_delay, hi = (int64_t)MAX_FACTOR * cfg->bows_delay;
			b->limit = b->limit < lo ? lo : b->limit > hi ? hi : b->limit;
		}
		b->prev_total = b->total;
		b->prev_sibs = b->sibs;
		b->total = b->sibs = 0;
		b->window++;
	}
	b->window = w;
}

/* The inner policy's order without the backed-off warps, then those in
** the order they backed off. */
static int32_t order_bows(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	Bows *b = c->sched_state;
	int32_t k = b->inner->order(c, s, w, n, b->tmp), j = 0;
	for (int32_t i = 0; i < k; i++)
		if (!b->backed[b->tmp[i]])
			out[j++] = b->tmp[i];
	int32_t first = j;
	for (int32_t i = 0; i < k; i++) {
		int32_t x = b->tmp[i];
		if (!b->backed[x])
			continue;
		int32_t at = j++;
		while (at > first && b->seq[out[at - 1]] > b->seq[x]) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = x;
	}
	return j;
}

/* An operand's value in thread t (0 unset; the low 64 bits of a larger one). */
static int64_t opnd_value(const Machine *m, const Opnd *o, int32_t t)
{
	Num n = NUM_I(0);
	if (o->kind == OPND_VAR)
		sem_get(m, o->var, t, &n);
	else if (o->kind == OPND_SPECIAL)
		return sem_special(m, (Special)o->special, t);
	else if (o->kind == OPND_LIT)
		n = ir_lit(m->prog, o);
	return n.z ? (int64_t)mpz_get_ui(n.z) : n.i;
}

/* The profiled thread's setp into warp w's histories. */
static void profile(Bows *b, const Machine *m, int32_t w, const Ins *ins, int kind)
{
	const Warp *W = &m->warps[w];
	DdosHistory *h = &b->hist[w];
	if (!bit_get(W->active, h->profiled)) { /* the profiled thread left: the first active, afresh */
		BitIter it = bits_iter(W->active, W->nw);
		int32_t l = bits_iter_next(&it);
		if (l < 0 || l >= W->size)
			return;
		h->profiled = l;
		ddos_history_clear(h, &b->p);
	}
	int32_t t = W->base + h->profiled;
	int64_t v1 = opnd_value(m, &ins->a, t), v2 = kind == SETP_COMPARE ? opnd_value(m, &ins->b, t) : 0;
	ddos_insert(h, &b->p, W->pc, v1, v2);
}

static void on_issue_bows(SmCore *c, int32_t s, int32_t w)
{
	(void)s;
	Bows *b = c->sched_state;
	const SmConfig *cfg = c->cfg;
	const Machine *m = c->m;
	SmResult *r = c->result;
	int32_t pc = m->warps[w].pc;
	adapt(b, cfg, c->now);
	b->total++;
	if (b->backed[w]) { /* its next instruction: back to normal, the delay loaded */
		b->backed[w] = false;
		if (c->not_before[w] > b->sib_at[w] + 1)
			r->backoff_cycles += (uint64_t)(c->not_before[w] - b->sib_at[w] - 1);
		c->not_before[w] = 0;
		b->delay_end[w] = cfg->bows_backoff_mode == 1 ? 0 : c->now + b->limit;
	}
	if (b->setp[pc] != SETP_NONE)
		profile(b, m, w, &m->prog->ins[pc], b->setp[pc]);
	if (!b->backward[pc])
		return;
	if (sibpt_confirmed(&b->sibpt, pc)) { /* a SIB: back off */
		b->backed[w] = true;
		b->seq[w] = ++b->next_seq;
		b->sib_at[w] = c->now;
		c->not_before[w] = b->delay_end[w];
		r->sib_executions++;
		b->sibs++;
	} else if (sibpt_update(&b->sibpt, pc, b->hist[w].spinning) && r->nsibs < SM_SIBPT_SIZE) {
		r->sib_pc[r->nsibs] = pc;
		r->sib_confirmed_at[r->nsibs++] = (uint64_t)c->now;
	}
}

static void fini_bows(SmCore *c)
{
	Bows *b = c->sched_state;
	SmResult *r = c->result;
	int64_t end = (int64_t)r->cycles;
	for (int32_t w = 0; w < c->m->nwarps; w++) {
		if (b->backed[w]) { /* still waiting at the end */
			int64_t until = c->not_before[w] < end ? c->not_before[w] : end;
			if (until > b->sib_at[w] + 1)
				r->backoff_cycles += (uint64_t)(until - b->sib_at[w] - 1);
		}
		ddos_history_free(&b->hist[w]);
	}
	r->delay_limit = b->limit;
	free(b->hist);
	free(b->setp);
	free(b->backward);
	free(b->backed);
	free(b->seq);
	free(b->sib_at);
	free(b->delay_end);
	free(b->tmp);
	free(c->not_before);
	c->not_before = NULL;
	free(b);
	c->sched_state = NULL;
}

static bool is_compare(const Ins *ins)
{
	return ins->op == OP_BINARY && ins->sub >= BIN_LT && ins->sub <= BIN_NE;
}

/* Which instructions are setps, which branches go backward. */
static void classify(Bows *b, const Program *p)
{
	bool *only_compares = xmalloc((size_t)p->nvars + 1);
	for (int32_t v = 0; v < p->nvars; v++)
		only_compares[v] = false;
	bool *defined = xcalloc((size_t)p->nvars + 1, 1);
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (ins->dst < 0)
			continue;
		only_compares[ins->dst] = (defined[ins->dst] ? only_compares[ins->dst] : true) && is_compare(ins);
		defined[ins->dst] = true;
	}
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		bool cond = ins->op == OP_BZ || ins->op == OP_BNZ;
		if (is_compare(ins))
			b->setp[pc] = SETP_COMPARE;
		else if (cond && !(ins->a.kind == OPND_VAR && only_compares[ins->a.var]))
			b->setp[pc] = SETP_BRANCH;
		b->backward[pc] = (cond || ins->op == OP_JUMP) && ins->target >= 0 && ins->target <= pc;
	}
	free(only_compares);
	free(defined);
}

static bool init_bows(SmCore *c, const char *args, Buf *why)
{
	if (!args || !*args) {
		buf_puts(why, "-gpgpu_scheduler bows: expected bows:INNER, INNER the policy BOWS deprioritises "
		              "spinning warps in (lrr, gto, old, gto_rotate:N, glrr; the thesis: gto_rotate:50000)");
		return false;
	}
	const WarpSched *inner = warp_sched_plain(c, args, why);
	c->sched = &sched_bows;
	if (!inner)
		return false;
	const SmConfig *cfg = c->cfg;
	const Program *p = c->m->prog;
	int32_t nw = c->m->nwarps;
	Bows *b = xcalloc(1, sizeof *b);
	b->inner = inner;
	b->p = ddos_params(cfg);
	b->sibpt.threshold = cfg->ddos_threshold;
	b->hist = xmalloc(((size_t)nw + 1) * sizeof *b->hist);
	for (int32_t w = 0; w < nw; w++)
		ddos_history_init(&b->hist[w], &b->p);
	b->setp = xcalloc((size_t)p->nins + 1, 1);
	b->backward = xcalloc((size_t)p->nins + 1, sizeof *b->backward);
	classify(b, p);
	b->backed = xcalloc((size_t)nw + 1, sizeof *b->backed);
	b->seq = xcalloc((size_t)nw + 1, sizeof *b->seq);
	b->sib_at = xcalloc((size_t)nw + 1, sizeof *b->sib_at);
	b->delay_end = xcalloc((size_t)nw + 1, sizeof *b->delay_end);
	b->tmp = xmalloc(((size_t)c->per + 1) * sizeof *b->tmp);
	b->limit = cfg->bows_backoff_mode == 1 ? 0 : cfg->bows_delay;
	c->not_before = xcalloc((size_t)nw + 1, sizeof *c->not_before);
	c->sched_state = b;
	c->result->bows = true;
	c->result->backed_off = xcalloc((size_t)nw + 1, sizeof *c->result->backed_off);
	c->result->delay_limit = b->limit;
	return true;
}

const WarpSched sched_bows = {"bows",
                              "back-off warp spinning: warps DDOS finds spinning go after the others and wait a "
                              "back-off delay (ElTantawy's)",
                              "INNER", "the policy it deprioritises in (lrr, gto, old, gto_rotate:N, glrr)", order_bows,
                              NULL, init_bows, fini_bows, on_issue_bows, NULL, NULL, WS_ROTATION_CALL};
