/*
** state.c — what a state of the machine is (explore.md §3): its canonical
** bytes. Two machines of one shape are in the same state exactly when
** sem_pack writes the same bytes: the assigned lanes and their values, the
** edge each thread entered its block by (φ/μ programs), Σ and the local
** memories in address order, per warp its pc, status, Θ, live set and the
** model's control stack, and the barrier's count. Left out: the measures,
** caches, scratch, the round-robin cursor and error texts.
*/
#include "model.h"
#include "sem.h"

#include <stdlib.h>
#include <string.h>

static void put_i64(Buf *b, int64_t x) { buf_putn(b, (const char *)&x, sizeof x); }
static void put_i32(Buf *b, int32_t x) { buf_putn(b, (const char *)&x, sizeof x); }

/* A value: int64 (tag 0) or sign and limbs (tag 1). */
static void put_num(Buf *b, Num v)
{
	if (!v.z) {
		buf_putc(b, 0);
		put_i64(b, v.i);
		return;
	}
	buf_putc(b, 1);
	put_i32(b, v.z->_mp_size);
	int32_t n = v.z->_mp_size < 0 ? -v.z->_mp_size : v.z->_mp_size;
	buf_putn(b, (const char *)v.z->_mp_d, (size_t)n * sizeof(mp_limb_t));
}

typedef struct CellCount {
	Buf *b;
	int64_t n;
} CellCount;

static void put_cell(void *ctx, int64_t addr, Num v)
{
	CellCount *c = ctx;
	put_i64(c->b, addr);
	put_num(c->b, v);
	c->n++;
}

/* The count of the initialised cells, then the cells, ascending. */
static void put_mem(Buf *b, const Mem *mem)
{
	size_t at = b->len;
	put_i64(b, 0);
	CellCount c = {b, 0};
	if (mem)
		mem_each(mem, put_cell, &c);
	memcpy(b->s + at, &c.n, sizeof c.n);
}

void sem_pack(const Machine *m, Buf *b)
{
	size_t nt = (size_t)m->nthreads;
	for (int32_t v = 0; v < m->nvars; v++) {
		const uint8_t *def = m->def + (size_t)v * nt;
		const int64_t *val = m->val + (size_t)v * nt;
		if (m->nbig[v] == 0) {
			/* int64 lanes: the assigned bits, then their values */
			buf_putc(b, 0);
			buf_putn(b, (const char *)def, nt);
			for (size_t t = 0; t < nt; t++)
				if (def[t])
					put_i64(b, val[t]);
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
		buf_putn(b, (const char *)m->from_block, (size_t)m->nthreads * sizeof *m->from_block);
	put_mem(b, &m->shared);
	for (int32_t t = 0; t < m->nthreads; t++)
		put_mem(b, m->local[t]);
	for (int32_t i = 0; i < m->nwarps; i++) {
		const Warp *w = &m->warps[i];
		put_i32(b, w->pc);
		buf_putc(b, (char)w->status);
		buf_putn(b, (const char *)w->active, (size_t)w->nw * sizeof *w->active);
		buf_putn(b, (const char *)w->live, (size_t)w->nw * sizeof *w->live);
		put_i32(b, w->ctl.n);
		buf_putn(b, (const char *)w->ctl.recs, (size_t)w->ctl.n * w->ctl.rec_size);
		buf_putn(b, (const char *)w->ctl.masks, (size_t)w->ctl.n * w->ctl.nmask * (size_t)w->nw * sizeof(uint64_t));
	}
	put_i32(b, m->arrived);
	buf_putc(b, (char)m->status);
	if (m->opt.lane_order == ORDER_RANDOM)
		put_i64(b, (int64_t)m->rng);
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

static int64_t get_i64(Reader *r)
{
	int64_t x;
	take(r, &x, sizeof x);
	return x;
}

static int32_t get_i32(Reader *r)
{
	int32_t x;
	take(r, &x, sizeof x);
	return x;
}

static int get_byte(Reader *r)
{
	unsigned char c;
	take(r, &c, 1);
	return c;
}

/* A value written by put_num (tag already read). */
static Num get_num(Reader *r, int tag)
{
	if (tag == 0)
		return NUM_I(get_i64(r));
	int32_t size = get_i32(r);
	int32_t n = size < 0 ? -size : size;
	if (r->bad || tag != 1 || n <= 0 || (size_t)(r->end - r->p) < (size_t)n * sizeof(mp_limb_t)) {
		r->bad = true;
		return NUM_I(0);
	}
	Num v = {0, xmalloc(sizeof *v.z)};
	mpz_init2(v.z, (mp_bitcnt_t)n * GMP_NUMB_BITS);
	memcpy(v.z->_mp_d, r->p, (size_t)n * sizeof(mp_limb_t));
	v.z->_mp_size = size;
	r->p += (size_t)n * sizeof(mp_limb_t);
	return v;
}

/* Cells written by put_mem: their count, then (addr, value)... */
static void get_mem(Reader *r, Machine *m, int32_t t)
{
	int64_t n = get_i64(r);
	if (n < 0 || (uint64_t)n > (uint64_t)(r->end - r->p))
		r->bad = true;
	for (int64_t i = 0; i < n && !r->bad; i++) {
		int64_t addr = get_i64(r);
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
	for (int32_t v = 0; v < m->nvars && !r.bad; v++) {
		int form = get_byte(&r);
		if (form == 0) {
			/* int64 lanes: drop the big values the machine holds, then copy */
			if (m->nbig[v] > 0)
				for (int32_t t = 0; t < m->nthreads; t++)
					sem_unset_lane(m, v, t);
			uint8_t *def = m->def + (size_t)v * nt;
			int64_t *val = m->val + (size_t)v * nt;
			take(&r, def, nt);
			int32_t n = 0;
			for (size_t t = 0; t < nt && !r.bad; t++)
				if (def[t]) {
					val[t] = get_i64(&r);
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
		take(&r, m->from_block, (size_t)m->nthreads * sizeof *m->from_block);
	mem_clear(&m->shared, &m->big_bytes, &m->heap_bytes);
	for (int32_t t = 0; t < m->nthreads; t++)
		if (m->local[t])
			mem_clear(m->local[t], &m->big_bytes, &m->heap_bytes);
	m->cells = 0;
	get_mem(&r, m, -1);
	for (int32_t t = 0; t < m->nthreads && !r.bad; t++) {
		/* an empty local memory packs as a count of 0: leave it uncreated */
		Reader peek = r;
		if (get_i64(&peek) == 0 && !peek.bad) {
			r = peek;
			continue;
		}
		get_mem(&r, m, t);
	}
	m->nlive = 0;
	m->nwarps_done = 0;
	for (int32_t i = 0; i < m->nwarps && !r.bad; i++) {
		Warp *w = &m->warps[i];
		w->pc = get_i32(&r);
		w->status = (WarpStatus)get_byte(&r);
		take(&r, w->active, (size_t)w->nw * sizeof *w->active);
		take(&r, w->live, (size_t)w->nw * sizeof *w->live);
		int32_t n = get_i32(&r);
		if (r.bad || n < 0 || n > (int32_t)((size_t)(r.end - r.p) / (w->ctl.rec_size ? w->ctl.rec_size : 1))) {
			r.bad = true;
			break;
		}
		ctl_reserve(m, w, n);
		w->ctl.n = n;
		take(&r, w->ctl.recs, (size_t)n * w->ctl.rec_size);
		take(&r, w->ctl.masks, (size_t)n * w->ctl.nmask * (size_t)w->nw * sizeof(uint64_t));
		w->idx_ok = false;
		m->nlive += bits_count(w->live, w->nw);
		m->nwarps_done += w->status == WARP_DONE;
	}
	m->arrived = get_i32(&r);
	m->status = (SemStatus)get_byte(&r);
	if (m->opt.lane_order == ORDER_RANDOM)
		m->rng = (uint64_t)get_i64(&r);
	free(m->err.msg);
	free(m->err.threads);
	free(m->err.stack);
	memset(&m->err, 0, sizeof m->err);
	return !r.bad && r.p == r.end;
}
