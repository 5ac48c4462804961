/*
** bits.h — lane sets: bitsets over the lanes of one warp, nw 64-bit words
** (bit i is lane i of the warp). The one place that knows how a set is laid
** out: the semantics, every reconvergence model, the debugger, the oracle
** and the printers go through these helpers.
*/
#ifndef MUSIMD_BITS_H
#define MUSIMD_BITS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Words needed for n lanes. */
static inline int32_t bits_words(int32_t n) { return (n + 63) / 64; }

static inline bool bit_get(const uint64_t *s, int32_t i) { return (s[i >> 6] >> (i & 63)) & 1; }
static inline void bit_set(uint64_t *s, int32_t i) { s[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *s, int32_t i) { s[i >> 6] &= ~(1ull << (i & 63)); }

/* The bits set in x. Without the popcnt instruction (the portable x86-64
** baseline) gcc calls libgcc's table-driven __popcountdi2; the SWAR sum
** inline is several times faster there. */
static inline int32_t bit_count(uint64_t x)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
	return __builtin_popcountll(x);
#else
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (int32_t)((x * 0x0101010101010101ull) >> 56);
#endif
}

static inline int32_t bits_count(const uint64_t *s, int32_t nw)
{
	int32_t c = 0;
	for (int32_t i = 0; i < nw; i++)
		c += bit_count(s[i]);
	return c;
}

/* d = the n bits of s from bit off on (s readable one word past them) */
static inline void bits_extract(uint64_t *d, const uint64_t *s, int32_t off, int32_t n)
{
	int32_t nw = bits_words(n), sh = off & 63;
	const uint64_t *p = s + (off >> 6);
	for (int32_t j = 0; j < nw; j++)
		d[j] = sh ? (p[j] >> sh) | (p[j + 1] << (64 - sh)) : p[j];
	if (n & 63)
		d[nw - 1] &= (1ull << (n & 63)) - 1;
}

/* The word of bits lo .. lo+n-1 of word j's range (0 < n): the mask of
** s's bits [lo, lo+n) that fall in word j, for range loops. */
static inline uint64_t bits_range_mask(int32_t lo, int32_t n, int32_t j)
{
	int64_t a = lo - (int64_t)j * 64, b = a + n; /* [a, b) in the word's bit numbers */
	uint64_t m = a <= 0 ? ~0ull : a >= 64 ? 0 : ~0ull << a;
	return b >= 64 ? m : b <= 0 ? 0 : m & ((1ull << b) - 1);
}

/* How many of bits [lo, lo+n) of s are set. */
static inline int32_t bits_count_range(const uint64_t *s, int32_t lo, int32_t n)
{
	int32_t c = 0;
	for (int32_t j = lo >> 6; j <= (lo + n - 1) >> 6; j++)
		c += bit_count(s[j] & bits_range_mask(lo, n, j));
	return c;
}

/* Sets bits [lo, lo+n) of s. */
static inline void bits_set_range(uint64_t *s, int32_t lo, int32_t n)
{
	for (int32_t j = lo >> 6; j <= (lo + n - 1) >> 6; j++)
		s[j] |= bits_range_mask(lo, n, j);
}

static inline bool bits_empty(const uint64_t *s, int32_t nw)
{
	for (int32_t i = 0; i < nw; i++)
		if (s[i])
			return false;
	return true;
}

static inline bool bits_eq(const uint64_t *a, const uint64_t *b, int32_t nw)
{
	uint64_t d = 0; /* warps are a word or a few: no call to memcmp */
	for (int32_t i = 0; i < nw; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

static inline void bits_copy(uint64_t *d, const uint64_t *s, int32_t nw)
{
	if (nw == 1) /* warps of up to 64: no call */
		d[0] = s[0];
	else
		memcpy(d, s, (size_t)nw * sizeof *d);
}
static inline void bits_clear(uint64_t *d, int32_t nw) { memset(d, 0, (size_t)nw * sizeof *d); }

static inline void bits_or(uint64_t *d, const uint64_t *s, int32_t nw)
{
	for (int32_t i = 0; i < nw; i++)
		d[i] |= s[i];
}

static inline void bits_andnot(uint64_t *d, const uint64_t *s, int32_t nw)
{
	for (int32_t i = 0; i < nw; i++)
		d[i] &= ~s[i];
}

/* Iteration over the set bits, ascending, a word at a time:
**     BitIter it = bits_iter(s, nw);
**     for (int32_t i; (i = bits_iter_next(&it)) >= 0;) ...
** The set must not change during the walk (the current word is copied). */
typedef struct BitIter {
	const uint64_t *s;
	int32_t nw, j;
	uint64_t x;
} BitIter;

static inline BitIter bits_iter(const uint64_t *s, int32_t nw)
{
	return (BitIter){s, nw, 0, nw > 0 ? s[0] : 0};
}

static inline int32_t bits_iter_next(BitIter *it)
{
	while (!it->x) {
		if (++it->j >= it->nw)
			return -1;
		it->x = it->s[it->j];
	}
	int32_t i = it->j * 64 + __builtin_ctzll(it->x);
	it->x &= it->x - 1;
	return i;
}

/* The set bits of s, ascending, as base + bit into out; returns how many. */
static inline int32_t bits_list(const uint64_t *s, int32_t nw, int32_t base, int32_t *out)
{
	int32_t n = 0;
	BitIter it = bits_iter(s, nw);
	for (int32_t i; (i = bits_iter_next(&it)) >= 0;)
		out[n++] = base + i;
	return n;
}

/* The first set bit of s at or after l (< n), else n; with want false, the
** first clear bit. */
static inline int32_t bits_next(const uint64_t *s, int32_t n, int32_t l, bool want)
{
	while (l < n) {
		uint64_t w = s[l >> 6];
		if (!want)
			w = ~w;
		w &= ~0ull << (l & 63);
		if (w) {
			int32_t k = (l & ~63) + __builtin_ctzll(w);
			return k < n ? k : n;
		}
		l = (l & ~63) + 64;
	}
	return n;
}

#endif
