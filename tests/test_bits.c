/*
** test_bits.c — the lane-set helpers (bits.h), at word boundaries.
*/
#include <criterion/criterion.h>

#include "bits.h"

/* A set of 130 lanes (3 words) with the lanes of want[] set. */
static void make(uint64_t s[3], const int32_t *want, int32_t n)
{
	bits_clear(s, 3);
	for (int32_t i = 0; i < n; i++)
		bit_set(s, want[i]);
}

Test(bits, set_get_clear_count)
{
	uint64_t s[3];
	const int32_t lanes[] = {0, 63, 64, 127, 129};
	make(s, lanes, 5);
	cr_expect_eq(bits_count(s, 3), 5);
	for (int32_t i = 0; i < 130; i++) {
		bool in = i == 0 || i == 63 || i == 64 || i == 127 || i == 129;
		cr_expect_eq(bit_get(s, i), in, "lane %d", (int)i);
	}
	bit_clear(s, 63);
	cr_expect_not(bit_get(s, 63));
	cr_expect(bit_get(s, 64));
	cr_expect_eq(bits_count(s, 3), 4);
	cr_expect_eq(bits_words(0), 0);
	cr_expect_eq(bits_words(64), 1);
	cr_expect_eq(bits_words(65), 2);
}

Test(bits, iter_and_list_ascending_across_words)
{
	uint64_t s[3];
	const int32_t lanes[] = {129, 1, 64, 63, 100};
	make(s, lanes, 5);
	const int32_t want[] = {1, 63, 64, 100, 129};
	BitIter it = bits_iter(s, 3);
	int32_t k = 0;
	for (int32_t i; (i = bits_iter_next(&it)) >= 0; k++) {
		cr_assert_lt(k, 5);
		cr_expect_eq(i, want[k], "element %d: %d, want %d", (int)k, (int)i, (int)want[k]);
	}
	cr_expect_eq(k, 5);
	int32_t out[5];
	cr_assert_eq(bits_list(s, 3, 1000, out), 5);
	for (int32_t i = 0; i < 5; i++)
		cr_expect_eq(out[i], 1000 + want[i]);
	/* the empty set and a set of no words */
	bits_clear(s, 3);
	it = bits_iter(s, 3);
	cr_expect_eq(bits_iter_next(&it), -1);
	it = bits_iter(s, 0);
	cr_expect_eq(bits_iter_next(&it), -1);
	cr_expect(bits_empty(s, 3));
}

Test(bits, next_set_and_clear)
{
	uint64_t s[3];
	const int32_t lanes[] = {5, 64, 65, 66};
	make(s, lanes, 4);
	cr_expect_eq(bits_next(s, 130, 0, true), 5);
	cr_expect_eq(bits_next(s, 130, 6, true), 64);
	cr_expect_eq(bits_next(s, 130, 67, true), 130);
	cr_expect_eq(bits_next(s, 130, 64, false), 67);
	cr_expect_eq(bits_next(s, 130, 5, false), 6);
	/* a clear bit past n is not found */
	uint64_t full[2] = {~0ull, ~0ull};
	cr_expect_eq(bits_next(full, 100, 0, false), 100);
}

Test(bits, or_andnot_eq)
{
	uint64_t a[3], b[3], c[3];
	const int32_t la[] = {1, 70}, lb[] = {70, 128};
	make(a, la, 2);
	make(b, lb, 2);
	bits_copy(c, a, 3);
	cr_expect(bits_eq(c, a, 3));
	bits_or(c, b, 3);
	cr_expect_eq(bits_count(c, 3), 3);
	bits_andnot(c, a, 3);
	cr_expect_eq(bits_count(c, 3), 1);
	cr_expect(bit_get(c, 128));
	cr_expect_not(bits_eq(c, a, 3));
}
