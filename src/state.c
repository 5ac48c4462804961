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

/* Integers as zigzag LEB128: the values of small kernels take a byte or two. */
static void put_var(Buf *b, int64_t x)
{
	uint64_t u = ((uint64_t)x << 1) ^ (uint64_t)(x >> 63);
	char tmp[10];
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
