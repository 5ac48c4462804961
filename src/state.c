/*
** state.c — what a state of the machine is (explore.md §3): its canonical
** bytes. Two machines of one shape are in the same state exactly when
** sem_pack writes the same bytes: the assigned lanes and their values, the
** edge each thread entered its block by (φ/μ programs), Σ and the local
** memories in address order, per warp its pc, status, Θ, live set and the
** model's control stack, and the barrier's count. Left out: the measures,
** caches, scratch, the round-robin cursor and error texts.
*/
#include "sem.h"

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

/* The initialised cells, ascending, then their count. */
static void put_mem(Buf *b, const Mem *mem)
{
	CellCount c = {b, 0};
	if (mem)
		mem_each(mem, put_cell, &c);
	put_i64(b, c.n);
}

void sem_pack(const Machine *m, Buf *b)
{
	for (int32_t v = 0; v < m->nvars; v++)
		for (int32_t t = 0; t < m->nthreads; t++) {
			Num x;
			if (!sem_get(m, v, t, &x)) {
				buf_putc(b, 2); /* unassigned */
				continue;
			}
			put_num(b, x);
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
