/*
** test_num.c — the ℤ layer (src/num.c): int64 fast path, GMP fallback,
** and the boundaries between them.
**
** Semantics under test: language.md §4.1 — `/` and `%` truncate toward
** zero, `a << b = a·2^b`, `a >> b = floor(a / 2^b)`, negative shift count
** and division by zero are errors, bitwise operators act on the infinite
** two's-complement form, comparisons and logical operators yield 1 / 0.
** Every Num is freed: the suite runs under LeakSanitizer.
*/
#include <criterion/criterion.h>

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* ---- helpers ------------------------------------------------------------ */

/* Parse a literal that must be valid. */
static Num P(const char *s)
{
	Num n;
	cr_assert(num_parse(s, strlen(s), &n), "num_parse rejected \"%s\"", s);
	return n;
}

/* ±2^k + d as a Num. */
static Num pow2(int sign, unsigned long k, long d)
{
	mpz_t z;
	mpz_init(z);
	mpz_setbit(z, k);
	if (sign < 0)
		mpz_neg(z, z);
	if (d >= 0)
		mpz_add_ui(z, z, (unsigned long)d);
	else
		mpz_sub_ui(z, z, (unsigned long)-d);
	Num n = num_from_mpz(z);
	mpz_clear(z);
	return n;
}

/* The representation is canonical: z != NULL iff the value is outside int64.
** The bounds are built from text so the check does not depend on num.c. */
static bool in_int64(const mpz_t z)
{
	mpz_t lo, hi;
	mpz_init_set_str(lo, "-9223372036854775808", 10);
	mpz_init_set_str(hi, "9223372036854775807", 10);
	bool in = mpz_cmp(z, lo) >= 0 && mpz_cmp(z, hi) <= 0;
	mpz_clear(lo);
	mpz_clear(hi);
	return in;
}

static void assert_canon(Num n)
{
	if (n.z)
		cr_assert(!in_int64(n.z), "big Num holds an int64 value (not canonical)");
	cr_assert_eq(num_fits64(n), n.z == NULL);
}

static void assert_str(Num n, const char *want)
{
	char *s = num_str(n);
	cr_assert_str_eq(s, want);
	free(s);
	assert_canon(n);
}

/* a op b == want (decimal text), and the result is canonical. */
static void check_bin(BinOp op, Num a, Num b, const char *want)
{
	Num r;
	NumErr e = num_binop(op, a, b, &r);
	cr_assert_eq(e, NUM_OK, "%s: unexpected error %s", num_binop_name(op), num_err_msg(e));
	char *s = num_str(r);
	cr_assert_str_eq(s, want, "%s: got %s, want %s", num_binop_name(op), s, want);
	free(s);
	assert_canon(r);
	num_free(&r);
}

/* Same with text operands. */
static void check_bin_s(BinOp op, const char *as, const char *bs, const char *want)
{
	Num a = P(as), b = P(bs);
	check_bin(op, a, b, want);
	num_free(&a);
	num_free(&b);
}

static void check_bin_err(BinOp op, Num a, Num b, NumErr want)
{
	Num r = NUM_I(42);
	NumErr e = num_binop(op, a, b, &r);
	cr_assert_eq(e, want, "%s: got error %d, want %d", num_binop_name(op), (int)e, (int)want);
	cr_assert(num_is_zero(r), "%s: result not 0 on error", num_binop_name(op));
	cr_assert_null(r.z);
}

static void check_bin_err_s(BinOp op, const char *as, const char *bs, NumErr want)
{
	Num a = P(as), b = P(bs);
	check_bin_err(op, a, b, want);
	num_free(&a);
	num_free(&b);
}

static void check_un_s(UnOp op, const char *as, const char *want)
{
	Num a = P(as), r;
	cr_assert_eq(num_unop(op, a, &r), NUM_OK);
	assert_str(r, want);
	num_free(&r);
	num_free(&a);
}

#define MIN_S "-9223372036854775808"
#define MAX_S "9223372036854775807"
#define P63_S "9223372036854775808"   /* 2^63 */
#define M63_1_S "-9223372036854775809" /* -2^63 - 1 */
#define P64_S "18446744073709551616"  /* 2^64 */
#define M64_S "-18446744073709551616" /* -2^64 */

/* ---- boundaries of int64 ------------------------------------------------ */

Test(num, int64_max_plus_one_leaves_int64)
{
	Num r;
	cr_assert_eq(num_binop(BIN_ADD, NUM_I(INT64_MAX), NUM_I(1), &r), NUM_OK);
	cr_assert(!num_fits64(r));
	char *s = num_str(r);
	cr_assert_str_eq(s, "9223372036854775808");
	free(s);
	num_free(&r);
}

Test(num, add_sub_boundaries)
{
	check_bin_s(BIN_SUB, MIN_S, "1", M63_1_S);
	check_bin_s(BIN_ADD, MIN_S, "-1", M63_1_S);
	check_bin_s(BIN_SUB, MAX_S, "-1", P63_S);
	check_bin_s(BIN_ADD, MAX_S, MAX_S, "18446744073709551614");
	check_bin_s(BIN_ADD, MIN_S, MIN_S, "-18446744073709551616");
	check_bin_s(BIN_SUB, "0", MIN_S, P63_S);
	check_bin_s(BIN_SUB, "-1", MIN_S, MAX_S);
	check_bin_s(BIN_ADD, MAX_S, MIN_S, "-1");
	/* big operands whose result comes back into int64 */
	check_bin_s(BIN_SUB, P63_S, "1", MAX_S);
	check_bin_s(BIN_ADD, M63_1_S, "1", MIN_S);
	check_bin_s(BIN_ADD, P63_S, M63_1_S, "-1");
	check_bin_s(BIN_SUB, P64_S, P64_S, "0");
	check_bin_s(BIN_ADD, P64_S, M64_S, "0");
	check_bin_s(BIN_SUB, P64_S, "9223372036854775809", MAX_S);

	int64_t x;
	cr_assert_eq(num_binop64(BIN_ADD, INT64_MAX, 1, &x), -1);
	cr_assert_eq(num_binop64(BIN_SUB, INT64_MIN, 1, &x), -1);
	cr_assert_eq(num_binop64(BIN_SUB, 0, INT64_MIN, &x), -1);
	cr_assert_eq(num_binop64(BIN_SUB, -1, INT64_MIN, &x), NUM_OK);
	cr_assert_eq(x, INT64_MAX);
}

Test(num, back_into_int64_is_canonical)
{
	Num a = P(P63_S), r;
	cr_assert(!num_fits64(a));
	cr_assert_eq(num_binop(BIN_SUB, a, NUM_I(1), &r), NUM_OK);
	cr_assert(num_fits64(r));
	cr_assert_null(r.z);
	cr_assert_eq(r.i, INT64_MAX);
	num_free(&a);

	Num big = pow2(1, 70, 0);
	cr_assert_eq(num_binop(BIN_DIV, big, pow2(1, 10, 0), &r), NUM_OK);
	cr_assert_null(r.z);
	cr_assert_eq(r.i, (int64_t)1 << 60);
	cr_assert_eq(num_binop(BIN_SHR, big, NUM_I(10), &r), NUM_OK);
	cr_assert_null(r.z);
	cr_assert_eq(r.i, (int64_t)1 << 60);
	cr_assert_eq(num_binop(BIN_MOD, big, NUM_I(1000), &r), NUM_OK);
	cr_assert_null(r.z);
	cr_assert_eq(r.i, 424); /* 2^70 = 1180591620717411303424 */
	cr_assert_eq(num_binop(BIN_AND, big, NUM_I(0xff), &r), NUM_OK);
	cr_assert_null(r.z);
	cr_assert_eq(r.i, 0);
	Num b5 = pow2(1, 70, 5);
	cr_assert_eq(num_binop(BIN_XOR, b5, big, &r), NUM_OK);
	cr_assert_null(r.z);
	cr_assert_eq(r.i, 5);
	cr_assert_eq(num_binop(BIN_MUL, big, NUM_I(0), &r), NUM_OK);
	cr_assert_null(r.z);
	cr_assert_eq(r.i, 0);
	num_free(&b5);
	num_free(&big);
}

Test(num, from_to_mpz_roundtrip)
{
	static const char *const vals[] = {
		"0", "1", "-1", MAX_S, MIN_S, P63_S, M63_1_S, "4611686018427387904",
		"-4611686018427387904", P64_S, M64_S, "18446744073709551615",
		"-18446744073709551615", "1000000000000000000000000000000",
		"-1000000000000000000000000000000",
	};
	for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
		mpz_t z, back;
		mpz_init_set_str(z, vals[k], 10);
		mpz_init(back);
		Num n = num_from_mpz(z);
		cr_assert_eq(num_fits64(n), in_int64(z), "%s", vals[k]);
		assert_str(n, vals[k]);
		num_to_mpz(back, n);
		cr_assert_eq(mpz_cmp(z, back), 0, "%s", vals[k]);
		Num p = P(vals[k]);
		cr_assert(num_eq(n, p), "%s", vals[k]);
		Num c = num_copy(n);
		num_free(&n);
		assert_str(c, vals[k]); /* the copy is independent of the original */
		num_free(&c);
		num_free(&p);
		mpz_clear(z);
		mpz_clear(back);
	}
}

Test(num, neg_and_unary_boundaries)
{
	check_un_s(UN_NEG, MIN_S, P63_S);
	check_un_s(UN_NEG, P63_S, MIN_S);
	check_un_s(UN_NEG, MAX_S, "-9223372036854775807");
	check_un_s(UN_NEG, M63_1_S, "9223372036854775809");
	check_un_s(UN_NEG, "0", "0");
	check_un_s(UN_BNOT, MIN_S, MAX_S);
	check_un_s(UN_BNOT, MAX_S, MIN_S);
	check_un_s(UN_BNOT, P63_S, M63_1_S);
	check_un_s(UN_BNOT, M63_1_S, P63_S);
	check_un_s(UN_BNOT, "0", "-1");
	check_un_s(UN_BNOT, "-1", "0");
	check_un_s(UN_NOT, "0", "1");
	check_un_s(UN_NOT, "5", "0");
	check_un_s(UN_NOT, MIN_S, "0");
	check_un_s(UN_NOT, P63_S, "0");
	check_un_s(UN_NOT, M64_S, "0");

	int64_t x;
	cr_assert_eq(num_unop64(UN_NEG, INT64_MIN, &x), -1);
	cr_assert_eq(num_unop64(UN_NEG, INT64_MAX, &x), NUM_OK);
	cr_assert_eq(x, -INT64_MAX);
	cr_assert_eq(num_unop64(UN_BNOT, INT64_MIN, &x), NUM_OK);
	cr_assert_eq(x, INT64_MAX);
}

Test(num, mul_boundaries)
{
	check_bin_s(BIN_MUL, "3037000499", "3037000499", "9223372030926249001");
	check_bin_s(BIN_MUL, "3037000500", "3037000500", "9223372037000250000");
	check_bin_s(BIN_MUL, "-3037000500", "3037000500", "-9223372037000250000");
	check_bin_s(BIN_MUL, "-3037000499", "-3037000499", "9223372030926249001");
	check_bin_s(BIN_MUL, MIN_S, "-1", P63_S);
	check_bin_s(BIN_MUL, "-1", MIN_S, P63_S);
	check_bin_s(BIN_MUL, MIN_S, "1", MIN_S);
	check_bin_s(BIN_MUL, "4294967296", "2147483648", P63_S);   /* 2^32·2^31 */
	check_bin_s(BIN_MUL, "-4294967296", "2147483648", MIN_S);  /* fits */
	check_bin_s(BIN_MUL, "4294967296", "-2147483648", MIN_S);
	check_bin_s(BIN_MUL, MIN_S, MIN_S, "85070591730234615865843651857942052864");
	check_bin_s(BIN_MUL, MAX_S, MIN_S, "-85070591730234615856620279821087277056");
	/* big × small back into int64 */
	check_bin_s(BIN_MUL, P63_S, "-1", MIN_S);
	check_bin_s(BIN_MUL, P63_S, "1", P63_S);
	check_bin_s(BIN_MUL, P64_S, "0", "0");
	check_bin_s(BIN_MUL, "0", M64_S, "0");

	int64_t x;
	cr_assert_eq(num_binop64(BIN_MUL, 3037000499, 3037000499, &x), NUM_OK);
	cr_assert_eq(x, INT64_C(9223372030926249001));
	cr_assert_eq(num_binop64(BIN_MUL, 3037000500, 3037000500, &x), -1);
	cr_assert_eq(num_binop64(BIN_MUL, INT64_MIN, -1, &x), -1);
	cr_assert_eq(num_binop64(BIN_MUL, INT64_MIN, 1, &x), NUM_OK);
	cr_assert_eq(x, INT64_MIN);
}

/* ---- division and remainder --------------------------------------------- */

Test(num, div_mod_int64_boundaries)
{
	check_bin_s(BIN_DIV, MIN_S, "-1", P63_S);
	check_bin_s(BIN_MOD, MIN_S, "-1", "0");
	check_bin_s(BIN_DIV, MIN_S, "1", MIN_S);
	check_bin_s(BIN_DIV, MIN_S, MIN_S, "1");
	check_bin_s(BIN_MOD, MIN_S, MIN_S, "0");
	check_bin_s(BIN_DIV, MIN_S, MAX_S, "-1");
	check_bin_s(BIN_MOD, MIN_S, MAX_S, "-1");
	check_bin_s(BIN_DIV, MAX_S, MIN_S, "0");
	check_bin_s(BIN_MOD, MAX_S, MIN_S, MAX_S);
	check_bin_s(BIN_DIV, P63_S, "-1", MIN_S);
	check_bin_s(BIN_MOD, P63_S, "-1", "0");
	check_bin_s(BIN_DIV, P63_S, "2", "4611686018427387904");
	check_bin_s(BIN_DIV, MIN_S, P63_S, "-1");
	check_bin_s(BIN_MOD, MIN_S, P63_S, "0");
	check_bin_s(BIN_DIV, MAX_S, P63_S, "0");
	check_bin_s(BIN_MOD, MAX_S, P63_S, MAX_S);
	check_bin_s(BIN_MOD, "-9223372036854775807", P63_S, "-9223372036854775807");

	int64_t x = 7;
	cr_assert_eq(num_binop64(BIN_DIV, INT64_MIN, -1, &x), -1);
	cr_assert_eq(num_binop64(BIN_MOD, INT64_MIN, -1, &x), NUM_OK);
	cr_assert_eq(x, 0);
}

Test(num, div_mod_signs_small)
{
	static const struct { int64_t a, b, q, r; } t[] = {
		{7, 2, 3, 1},     {-7, 2, -3, -1}, {7, -2, -3, 1}, {-7, -2, 3, -1},
		{6, 3, 2, 0},     {-6, 3, -2, 0},  {6, -3, -2, 0}, {-6, -3, 2, 0},
		{1, 2, 0, 1},     {-1, 2, 0, -1},  {1, -2, 0, 1},  {-1, -2, 0, -1},
		{0, 5, 0, 0},     {0, -5, 0, 0},   {5, 1, 5, 0},   {-5, -1, 5, 0},
		{INT64_MAX, 2, INT64_MAX / 2, 1}, {INT64_MIN, 2, INT64_MIN / 2, 0},
		{INT64_MIN + 1, -2, (INT64_MIN + 1) / -2, -1},
	};
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		Num q, r;
		cr_assert_eq(num_binop(BIN_DIV, NUM_I(t[k].a), NUM_I(t[k].b), &q), NUM_OK);
		cr_assert_eq(num_binop(BIN_MOD, NUM_I(t[k].a), NUM_I(t[k].b), &r), NUM_OK);
		cr_assert_null(q.z);
		cr_assert_null(r.z);
		cr_assert_eq(q.i, t[k].q, "%lld / %lld = %lld, want %lld", (long long)t[k].a,
		             (long long)t[k].b, (long long)q.i, (long long)t[k].q);
		cr_assert_eq(r.i, t[k].r, "%lld %% %lld = %lld, want %lld", (long long)t[k].a,
		             (long long)t[k].b, (long long)r.i, (long long)t[k].r);
	}
}

Test(num, div_mod_signs_big)
{
	/* the -7 / 2 table scaled by 10^30: quotient unchanged, remainder scaled */
	const char *E30 = "1000000000000000000000000000000";
	check_bin_s(BIN_DIV, "7000000000000000000000000000000", "2000000000000000000000000000000", "3");
	check_bin_s(BIN_DIV, "-7000000000000000000000000000000", "2000000000000000000000000000000", "-3");
	check_bin_s(BIN_DIV, "7000000000000000000000000000000", "-2000000000000000000000000000000", "-3");
	check_bin_s(BIN_DIV, "-7000000000000000000000000000000", "-2000000000000000000000000000000", "3");
	check_bin_s(BIN_MOD, "7000000000000000000000000000000", "2000000000000000000000000000000", E30);
	check_bin_s(BIN_MOD, "-7000000000000000000000000000000", "2000000000000000000000000000000", "-1000000000000000000000000000000");
	check_bin_s(BIN_MOD, "7000000000000000000000000000000", "-2000000000000000000000000000000", E30);
	check_bin_s(BIN_MOD, "-7000000000000000000000000000000", "-2000000000000000000000000000000", "-1000000000000000000000000000000");
	/* big / small */
	check_bin_s(BIN_DIV, "-1000000000000000000000000000001", "2", "-500000000000000000000000000000");
	check_bin_s(BIN_MOD, "-1000000000000000000000000000001", "2", "-1");
	check_bin_s(BIN_DIV, "1000000000000000000000000000001", "-2", "-500000000000000000000000000000");
	check_bin_s(BIN_MOD, "1000000000000000000000000000001", "-2", "1");
	/* small / big: |a| < |b| gives q = 0, r = a */
	check_bin_s(BIN_DIV, "-7", E30, "0");
	check_bin_s(BIN_MOD, "-7", E30, "-7");
	check_bin_s(BIN_MOD, "7", "-1000000000000000000000000000000", "7");

	/* every sign combination against mpz_tdiv_q / mpz_tdiv_r, plus the
	** defining identity a = q·b + r with |r| < |b| and sign(r) = sign(a) */
	static const char *const mags[][2] = {
		{"1000000000000000000000000000007", "1000000000000003"},
		{"1000000000000000000000000000007", "7"},
		{"7", "1000000000000000000000000000007"},
		{"1000000000000000000000000000007", "1000000000000000000000000000007"},
		{"123456789012345678901234567890123456789", "98765432109876543210987"},
		{P63_S, "3"},
		{"9223372036854775807", P63_S},
	};
	for (size_t k = 0; k < sizeof mags / sizeof mags[0]; k++) {
		for (int sa = -1; sa <= 1; sa += 2) {
			for (int sb = -1; sb <= 1; sb += 2) {
				mpz_t a, b, q, r, nq, nr, chk;
				mpz_init_set_str(a, mags[k][0], 10);
				mpz_init_set_str(b, mags[k][1], 10);
				if (sa < 0) mpz_neg(a, a);
				if (sb < 0) mpz_neg(b, b);
				mpz_inits(q, r, nq, nr, chk, NULL);
				mpz_tdiv_q(q, a, b);
				mpz_tdiv_r(r, a, b);
				Num na = num_from_mpz(a), nb = num_from_mpz(b), Q, R;
				cr_assert_eq(num_binop(BIN_DIV, na, nb, &Q), NUM_OK);
				cr_assert_eq(num_binop(BIN_MOD, na, nb, &R), NUM_OK);
				assert_canon(Q);
				assert_canon(R);
				num_to_mpz(nq, Q);
				num_to_mpz(nr, R);
				cr_assert_eq(mpz_cmp(nq, q), 0, "div case %zu signs %d %d", k, sa, sb);
				cr_assert_eq(mpz_cmp(nr, r), 0, "mod case %zu signs %d %d", k, sa, sb);
				mpz_mul(chk, nq, b);
				mpz_add(chk, chk, nr);
				cr_assert_eq(mpz_cmp(chk, a), 0);
				cr_assert(mpz_cmpabs(nr, b) < 0);
				cr_assert(mpz_sgn(nr) == 0 || mpz_sgn(nr) == mpz_sgn(a));
				num_free(&na);
				num_free(&nb);
				num_free(&Q);
				num_free(&R);
				mpz_clears(a, b, q, r, nq, nr, chk, NULL);
			}
		}
	}
}

Test(num, div_mod_by_zero)
{
	static const char *const as[] = {"0", "1", "-1", MIN_S, MAX_S, P63_S, M64_S,
	                                  "1000000000000000000000000000000"};
	for (size_t k = 0; k < sizeof as / sizeof as[0]; k++) {
		check_bin_err_s(BIN_DIV, as[k], "0", NUM_EDIV0);
		check_bin_err_s(BIN_MOD, as[k], "0", NUM_EDIV0);
	}
	int64_t x;
	cr_assert_eq(num_binop64(BIN_DIV, 5, 0, &x), NUM_EDIV0);
	cr_assert_eq(num_binop64(BIN_MOD, INT64_MIN, 0, &x), NUM_EDIV0);
	cr_assert_str_eq(num_err_msg(NUM_EDIV0), "division by zero");
}

/* ---- shifts ------------------------------------------------------------- */

Test(num, shl_overflow)
{
	check_bin_s(BIN_SHL, "1", "62", "4611686018427387904");
	check_bin_s(BIN_SHL, "1", "63", P63_S);
	check_bin_s(BIN_SHL, "-1", "63", MIN_S);
	check_bin_s(BIN_SHL, "-1", "62", "-4611686018427387904");
	check_bin_s(BIN_SHL, "3", "62", "13835058055282163712");
	check_bin_s(BIN_SHL, "-3", "62", "-13835058055282163712");
	check_bin_s(BIN_SHL, "-2", "62", MIN_S);
	check_bin_s(BIN_SHL, "2", "62", P63_S);
	check_bin_s(BIN_SHL, "1", "64", P64_S);
	check_bin_s(BIN_SHL, "-1", "64", M64_S);
	check_bin_s(BIN_SHL, MIN_S, "1", M64_S);
	check_bin_s(BIN_SHL, MAX_S, "0", MAX_S);
	check_bin_s(BIN_SHL, P63_S, "0", P63_S);
	check_bin_s(BIN_SHL, "1", "200",
	            "1606938044258990275541962092341162602522202993782792835301376");
	check_bin_s(BIN_SHL, P63_S, "1", P64_S);
	check_bin_s(BIN_SHL, "0", "1000000", "0");
	check_bin_s(BIN_SHL, "0", "1000000000000000000000000000000", "0");

	int64_t x;
	cr_assert_eq(num_binop64(BIN_SHL, 1, 62, &x), NUM_OK);
	cr_assert_eq(x, INT64_C(1) << 62);
	cr_assert_eq(num_binop64(BIN_SHL, 1, 63, &x), -1);
	cr_assert_eq(num_binop64(BIN_SHL, 3, 62, &x), -1);
	cr_assert_eq(num_binop64(BIN_SHL, -2, 62, &x), NUM_OK);
	cr_assert_eq(x, INT64_MIN);
	/* -1 << 63 = -2^63 fits: the fast path must not report "leaves int64" */
	cr_assert_eq(num_binop64(BIN_SHL, -1, 63, &x), NUM_OK);
	cr_assert_eq(x, INT64_MIN);
	cr_assert_eq(num_binop64(BIN_SHL, -1, 64, &x), -1);
	cr_assert_eq(num_binop64(BIN_SHL, 0, INT64_MAX, &x), NUM_OK);
	cr_assert_eq(x, 0);
}

Test(num, shl_huge_count_is_too_big)
{
	/* counts far beyond num_max_bits, including ones near ULONG_MAX where
	** count + bitsize(a) wraps around in unsigned arithmetic */
	check_bin_err_s(BIN_SHL, "1", "18446744073709551615", NUM_ETOOBIG);
	check_bin_err_s(BIN_SHL, "3", "18446744073709551615", NUM_ETOOBIG);
	check_bin_err_s(BIN_SHL, "3", "18446744073709551614", NUM_ETOOBIG);
	check_bin_err_s(BIN_SHL, P63_S, "18446744073709551600", NUM_ETOOBIG);
	check_bin_err_s(BIN_SHL, "1", P63_S, NUM_ETOOBIG);
	check_bin_err_s(BIN_SHL, "-1", MAX_S, NUM_ETOOBIG);
	check_bin_err_s(BIN_SHL, "1", P64_S, NUM_ETOOBIG);
	check_bin_err_s(BIN_SHL, "-5", "100000000000000000000000000", NUM_ETOOBIG);
	check_bin_s(BIN_SHL, "0", "18446744073709551615", "0");
}

Test(num, shr_floor)
{
	check_bin_s(BIN_SHR, "-1", "1", "-1");
	check_bin_s(BIN_SHR, "-5", "1", "-3");
	check_bin_s(BIN_SHR, "5", "1", "2");
	check_bin_s(BIN_SHR, "-4", "1", "-2");
	check_bin_s(BIN_SHR, "-4", "2", "-1");
	check_bin_s(BIN_SHR, "-4", "3", "-1");
	check_bin_s(BIN_SHR, "7", "0", "7");
	check_bin_s(BIN_SHR, "-7", "0", "-7");
	check_bin_s(BIN_SHR, MIN_S, "62", "-2");
	check_bin_s(BIN_SHR, MIN_S, "63", "-1");
	check_bin_s(BIN_SHR, MIN_S, "64", "-1");
	check_bin_s(BIN_SHR, MAX_S, "62", "1");
	check_bin_s(BIN_SHR, MAX_S, "63", "0");
	check_bin_s(BIN_SHR, "-1", "1000", "-1");
	check_bin_s(BIN_SHR, "1", "1000", "0");
	check_bin_s(BIN_SHR, "-1", MAX_S, "-1");
	/* big operands */
	check_bin_s(BIN_SHR, "-1267650600228229401496703205376", "99", "-2");  /* -2^100 >> 99 */
	check_bin_s(BIN_SHR, "-1267650600228229401496703205377", "99", "-3");  /* (-2^100-1) >> 99 */
	check_bin_s(BIN_SHR, "1267650600228229401496703205376", "99", "2");
	check_bin_s(BIN_SHR, "1267650600228229401496703205377", "99", "2");
	check_bin_s(BIN_SHR, "-1267650600228229401496703205376", "100", "-1");
	check_bin_s(BIN_SHR, "-1267650600228229401496703205376", "101", "-1");
	check_bin_s(BIN_SHR, "1267650600228229401496703205376", "101", "0");
	check_bin_s(BIN_SHR, P63_S, "1", "4611686018427387904");
	check_bin_s(BIN_SHR, M63_1_S, "1", "-4611686018427387905");
	check_bin_s(BIN_SHR, M64_S, "1", MIN_S);
	check_bin_s(BIN_SHR, "-36893488147419103232", "1", M64_S); /* big result */
	/* huge counts */
	check_bin_s(BIN_SHR, "5", "1000000000000000000000000000000", "0");
	check_bin_s(BIN_SHR, "-5", "1000000000000000000000000000000", "-1");
	check_bin_s(BIN_SHR, "1267650600228229401496703205376", P64_S, "0");
	check_bin_s(BIN_SHR, "-1267650600228229401496703205376", P64_S, "-1");
	check_bin_s(BIN_SHR, "-1267650600228229401496703205376", "18446744073709551615", "-1");
	check_bin_s(BIN_SHR, "0", P64_S, "0");

	int64_t x;
	cr_assert_eq(num_binop64(BIN_SHR, -5, 1, &x), NUM_OK);
	cr_assert_eq(x, -3);
	cr_assert_eq(num_binop64(BIN_SHR, INT64_MIN, 200, &x), NUM_OK);
	cr_assert_eq(x, -1);
	cr_assert_eq(num_binop64(BIN_SHR, INT64_MAX, INT64_MAX, &x), NUM_OK);
	cr_assert_eq(x, 0);
}

Test(num, shift_negative_count)
{
	static const char *const as[] = {"0", "1", "-1", MIN_S, P63_S, M64_S};
	static const char *const bs[] = {"-1", MIN_S, M63_1_S, "-1000000000000000000000000000000"};
	for (size_t i = 0; i < sizeof as / sizeof as[0]; i++) {
		for (size_t j = 0; j < sizeof bs / sizeof bs[0]; j++) {
			check_bin_err_s(BIN_SHL, as[i], bs[j], NUM_ENEGSHIFT);
			check_bin_err_s(BIN_SHR, as[i], bs[j], NUM_ENEGSHIFT);
		}
	}
	int64_t x;
	cr_assert_eq(num_binop64(BIN_SHL, 0, -1, &x), NUM_ENEGSHIFT);
	cr_assert_eq(num_binop64(BIN_SHR, 5, INT64_MIN, &x), NUM_ENEGSHIFT);
	cr_assert_str_eq(num_err_msg(NUM_ENEGSHIFT), "negative shift count");
}

/* ---- bitwise ------------------------------------------------------------ */

Test(num, bitwise_small_negatives)
{
	check_bin_s(BIN_AND, "-1", "12345", "12345");
	check_bin_s(BIN_AND, "-1", MIN_S, MIN_S);
	check_bin_s(BIN_AND, "-6", "3", "2");
	check_bin_s(BIN_OR, "-6", "3", "-5");
	check_bin_s(BIN_XOR, "-6", "3", "-7");
	check_bin_s(BIN_XOR, "6", "-3", "-5");
	check_bin_s(BIN_AND, "-6", "-3", "-8");
	check_bin_s(BIN_OR, "-6", "-3", "-1");
	check_bin_s(BIN_XOR, "-1", MIN_S, MAX_S);
	check_bin_s(BIN_OR, MIN_S, MAX_S, "-1");
	check_un_s(UN_BNOT, "0", "-1");
	check_un_s(UN_BNOT, "5", "-6");

	static const int64_t v[] = {0, 1, -1, 3, -6, 0x5555, -0x5556, INT64_MAX, INT64_MIN,
	                            INT64_MIN + 1, -(INT64_C(1) << 62)};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		for (size_t j = 0; j < sizeof v / sizeof v[0]; j++) {
			Num r;
			cr_assert_eq(num_binop(BIN_AND, NUM_I(v[i]), NUM_I(v[j]), &r), NUM_OK);
			cr_assert_eq(r.i, v[i] & v[j]);
			cr_assert_eq(num_binop(BIN_OR, NUM_I(v[i]), NUM_I(v[j]), &r), NUM_OK);
			cr_assert_eq(r.i, v[i] | v[j]);
			cr_assert_eq(num_binop(BIN_XOR, NUM_I(v[i]), NUM_I(v[j]), &r), NUM_OK);
			cr_assert_eq(r.i, v[i] ^ v[j]);
		}
	}
}

Test(num, bitwise_big)
{
	const char *P70 = "1180591620717411303424";   /* 2^70 */
	const char *M70 = "-1180591620717411303424";
	check_un_s(UN_BNOT, M70, "1180591620717411303423");
	check_un_s(UN_BNOT, P70, "-1180591620717411303425");
	check_bin_s(BIN_AND, "-1", P70, P70);
	check_bin_s(BIN_AND, M70, "1180591620717411303423", "0");
	check_bin_s(BIN_OR, M70, "1", "-1180591620717411303423");
	check_bin_s(BIN_XOR, P70, "-1", "-1180591620717411303425");
	check_bin_s(BIN_AND, "18446744073709551621", "-4", "18446744073709551620"); /* (2^64+5) & -4 */
	check_bin_s(BIN_AND, M64_S, MAX_S, "0");
	check_bin_s(BIN_AND, M64_S, "-1", M64_S);
	check_bin_s(BIN_OR, M64_S, MAX_S, "-9223372036854775809");
	check_bin_s(BIN_XOR, M63_1_S, "-1", P63_S);
	check_bin_s(BIN_AND, M63_1_S, MIN_S, M64_S);
	check_bin_s(BIN_AND, M70, "-1", M70);
	check_bin_s(BIN_OR, M70, P70, "-1180591620717411303424");
	check_bin_s(BIN_XOR, M70, P70, "-2361183241434822606848"); /* -2^71 */
	check_bin_s(BIN_AND, P63_S, MIN_S, P63_S); /* 2^63 & -2^63 = 2^63 */

	/* against mpz_and / mpz_ior / mpz_xor / mpz_com on mixed-sign values */
	static const char *const vals[] = {
		"0", "-1", "1", "-6", "3", MIN_S, MAX_S, P63_S, M63_1_S, P64_S, M64_S,
		"1180591620717411303424", "-1180591620717411303424", "-1180591620717411303425",
		"-123456789012345678901234567890", "98765432109876543210",
	};
	const size_t n = sizeof vals / sizeof vals[0];
	for (size_t i = 0; i < n; i++) {
		mpz_t a, b, want, got;
		mpz_init_set_str(a, vals[i], 10);
		mpz_inits(b, want, got, NULL);
		Num na = num_from_mpz(a), r;
		cr_assert_eq(num_unop(UN_BNOT, na, &r), NUM_OK);
		mpz_com(want, a);
		num_to_mpz(got, r);
		cr_assert_eq(mpz_cmp(want, got), 0, "~%s", vals[i]);
		assert_canon(r);
		num_free(&r);
		for (size_t j = 0; j < n; j++) {
			mpz_set_str(b, vals[j], 10);
			Num nb = num_from_mpz(b);
			for (int k = 0; k < 3; k++) {
				BinOp op = k == 0 ? BIN_AND : k == 1 ? BIN_OR : BIN_XOR;
				cr_assert_eq(num_binop(op, na, nb, &r), NUM_OK);
				if (k == 0) mpz_and(want, a, b);
				else if (k == 1) mpz_ior(want, a, b);
				else mpz_xor(want, a, b);
				num_to_mpz(got, r);
				cr_assert_eq(mpz_cmp(want, got), 0, "%s %s %s", vals[i], num_binop_sym(op), vals[j]);
				assert_canon(r);
				num_free(&r);
			}
			num_free(&nb);
		}
		num_free(&na);
		mpz_clears(a, b, want, got, NULL);
	}
}

/* ---- comparisons and logical operators ---------------------------------- */

Test(num, compare_and_logical_mixed)
{
	/* strictly increasing */
	static const char *const vals[] = {
		"-1267650600228229401496703205376", M63_1_S, MIN_S, "-9223372036854775807", "-1",
		"0", "1", MAX_S, P63_S, P64_S, "1267650600228229401496703205376",
	};
	const size_t n = sizeof vals / sizeof vals[0];
	const size_t zero = 5;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			Num a = P(vals[i]), b = P(vals[j]);
			Num b2 = P(vals[j]); /* equal value, distinct allocation */
			int want_cmp = (i > j) - (i < j);
			cr_assert_eq(num_cmp(a, b), want_cmp, "cmp %s %s", vals[i], vals[j]);
			cr_assert_eq(num_cmp(b, b2), 0);
			cr_assert(num_eq(b, b2));
			cr_assert_eq(num_eq(a, b), i == j);
			static const BinOp ops[] = {BIN_LT, BIN_LE, BIN_GT, BIN_GE, BIN_EQ, BIN_NE,
			                            BIN_LAND, BIN_LOR};
			const bool want[] = {i < j, i <= j, i > j, i >= j, i == j, i != j,
			                     i != zero && j != zero, i != zero || j != zero};
			for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
				Num r = NUM_I(7);
				cr_assert_eq(num_binop(ops[k], a, b, &r), NUM_OK);
				cr_assert_null(r.z);
				cr_assert_eq(r.i, (int64_t)want[k], "%s %s %s = %lld", vals[i],
				             num_binop_sym(ops[k]), vals[j], (long long)r.i);
			}
			Num mn, mx;
			cr_assert_eq(num_binop(BIN_MIN, a, b, &mn), NUM_OK);
			cr_assert_eq(num_binop(BIN_MAX, a, b, &mx), NUM_OK);
			assert_str(mn, vals[i < j ? i : j]);
			assert_str(mx, vals[i > j ? i : j]);
			/* min/max return fresh values: freeing them leaves a, b intact */
			num_free(&mn);
			num_free(&mx);
			cr_assert_eq(num_cmp(a, b), want_cmp);
			num_free(&a);
			num_free(&b);
			num_free(&b2);
		}
	}
}

/* ---- parsing and formatting ---------------------------------------------- */

static void parse_ok(const char *s, const char *want)
{
	Num n = NUM_I(99);
	cr_assert(num_parse(s, strlen(s), &n), "rejected \"%s\"", s);
	char *t = num_str(n);
	cr_assert_str_eq(t, want, "parse \"%s\" = %s, want %s", s, t, want);
	free(t);
	assert_canon(n);
	num_free(&n);
}

static void parse_bad(const char *s, size_t len)
{
	Num n = NUM_I(99);
	cr_assert(!num_parse(s, len, &n), "accepted \"%.*s\"", (int)len, s);
	cr_assert(num_is_zero(n));
	cr_assert_null(n.z);
}

Test(num, parse_decimal_hex_negative)
{
	parse_ok("0", "0");
	parse_ok("-0", "0");
	parse_ok("7", "7");
	parse_ok("-7", "-7");
	parse_ok("000123", "123");
	parse_ok("0x0", "0");
	parse_ok("0x10", "16");
	parse_ok("0X10", "16");
	parse_ok("0xff", "255");
	parse_ok("0xFF", "255");
	parse_ok("0XdeadBEEF", "3735928559");
	parse_ok("-0x10", "-16");
	parse_ok("-0XaB", "-171");
	parse_ok("0", "0");
	/* int64 boundaries */
	parse_ok(MAX_S, MAX_S);
	parse_ok(MIN_S, MIN_S);
	parse_ok(P63_S, P63_S);
	parse_ok(M63_1_S, M63_1_S);
	parse_ok("-9223372036854775807", "-9223372036854775807");
	parse_ok("0x7fffffffffffffff", MAX_S);
	parse_ok("0x8000000000000000", P63_S);
	parse_ok("-0x8000000000000000", MIN_S);
	parse_ok("-0x8000000000000001", M63_1_S);
	parse_ok("0xFFFFFFFFFFFFFFFF", "18446744073709551615");
	parse_ok("18446744073709551615", "18446744073709551615");
	parse_ok("0x10000000000000000", P64_S);
	parse_ok("18446744073709551616", P64_S);
	parse_ok("-18446744073709551616", M64_S);
	parse_ok("00000000000000000000000000000000000000042", "42");
	parse_ok("-0x000000000000000000000000000000000000002A", "-42");
	parse_ok("1000000000000000000000000000000", "1000000000000000000000000000000");
	parse_ok("-0xABCDEFabcdef0123456789", "-207698821434737221603518345");

	Num n;
	cr_assert(num_parse(MIN_S, strlen(MIN_S), &n));
	cr_assert_null(n.z);
	cr_assert_eq(n.i, INT64_MIN);
	cr_assert(num_parse(P63_S, strlen(P63_S), &n));
	cr_assert_not_null(n.z);
	num_free(&n);
	/* only len characters are read */
	cr_assert(num_parse("123abc", 3, &n));
	cr_assert_eq(n.i, 123);
	cr_assert(num_parse("0x1g", 3, &n));
	cr_assert_eq(n.i, 1);
}

Test(num, parse_rejections)
{
	static const char *const bad[] = {
		"", "-", "0x", "0X", "-0x", "12a", "--1", " 1", "1 ", "+1", "0xg", "0x-1",
		"1e5", "x1", "0x0x1", "1-", "-+1", "0b101", "1.0", "ff", "0xff_ff",
		"123456789012345678901234567890x", "-0x1234567890abcdef1234567890abcdefg",
		"99999999999999999999999999999999 ",
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
		parse_bad(bad[k], strlen(bad[k]));
	parse_bad("12", 0);
	parse_bad("-5", 1);
	parse_bad("0x5", 2);
	parse_bad("1\0", 2);
}

Test(num, format_small_and_big)
{
	assert_str(NUM_I(0), "0");
	assert_str(NUM_I(-1), "-1");
	assert_str(NUM_I(42), "42");
	assert_str(NUM_I(INT64_MIN), MIN_S);
	assert_str(NUM_I(INT64_MAX), MAX_S);
	Num a = pow2(1, 63, 0), b = pow2(-1, 63, -1), c = pow2(-1, 100, 0);
	assert_str(a, P63_S);
	assert_str(b, M63_1_S);
	assert_str(c, "-1267650600228229401496703205376");

	/* num_buf appends */
	Buf buf = {0};
	buf_puts(&buf, "x=");
	num_buf(&buf, NUM_I(-5));
	buf_puts(&buf, " y=");
	num_buf(&buf, c);
	buf_puts(&buf, " z=");
	num_buf(&buf, NUM_I(INT64_MIN));
	cr_assert_str_eq(buf_str(&buf),
	                 "x=-5 y=-1267650600228229401496703205376 z=-9223372036854775808");
	buf_free(&buf);

	/* formatting and parsing are inverse */
	Num bigs[] = {a, b, c};
	for (size_t k = 0; k < 3; k++) {
		char *s = num_str(bigs[k]);
		Num back = P(s);
		cr_assert(num_eq(back, bigs[k]));
		num_free(&back);
		free(s);
	}
	num_free(&a);
	num_free(&b);
	num_free(&c);
}

/* ---- num_max_bits ------------------------------------------------------- */

static uint64_t saved_max_bits;
static void save_max_bits(void) { saved_max_bits = num_max_bits; }
static void restore_max_bits(void) { num_max_bits = saved_max_bits; }

Test(num, max_bits_limit, .init = save_max_bits, .fini = restore_max_bits)
{
	cr_assert_eq(num_max_bits, NUM_DEFAULT_MAX_BITS);
	num_max_bits = 64;
	Num p40 = pow2(1, 40, 0), p30 = pow2(1, 30, 0), p63 = pow2(1, 63, 0);
	Num m63 = pow2(-1, 63, -1);
	check_bin_err(BIN_MUL, p40, p40, NUM_ETOOBIG);               /* 81 bits */
	check_bin(BIN_MUL, p30, p30, "1152921504606846976");         /* 61 bits */
	check_bin(BIN_MUL, p63, NUM_I(-1), MIN_S);
	check_bin(BIN_MUL, NUM_I(INT64_MAX), NUM_I(2), "18446744073709551614"); /* 64 bits */
	check_bin_err(BIN_MUL, NUM_I(INT64_MAX), NUM_I(4), NUM_ETOOBIG);        /* 65 bits */
	check_bin_err(BIN_MUL, p63, p63, NUM_ETOOBIG);
	check_bin(BIN_SHL, NUM_I(1), NUM_I(63), P63_S);              /* 64 bits */
	check_bin_err(BIN_SHL, NUM_I(1), NUM_I(64), NUM_ETOOBIG);    /* 65 bits */
	check_bin_err(BIN_SHL, NUM_I(-1), NUM_I(100), NUM_ETOOBIG);
	check_bin_err(BIN_SHL, p63, NUM_I(1), NUM_ETOOBIG);
	check_bin(BIN_SHL, NUM_I(0), NUM_I(1000), "0");
	check_bin_err(BIN_ADD, p63, p63, NUM_ETOOBIG);               /* 2^64: 65 bits */
	check_bin_err(BIN_SUB, m63, p63, NUM_ETOOBIG);
	check_bin(BIN_ADD, p63, NUM_I(1), "9223372036854775809");
	check_bin(BIN_SHR, p63, NUM_I(1), "4611686018427387904");
	num_max_bits = 8;
	check_bin_err(BIN_MUL, NUM_I(3037000500), NUM_I(3037000500), NUM_ETOOBIG);
	num_free(&p40);
	num_free(&p30);
	num_free(&p63);
	num_free(&m63);
}

Test(num, max_bits_zero_times_oversized, .init = save_max_bits, .fini = restore_max_bits)
{
	/* a literal may be larger than a lowered limit; multiplying it by 0
	** does not grow anything (as 0 << n and x - x do not) */
	Num big = pow2(1, 200, 0), r;
	num_max_bits = 64;
	check_bin(BIN_MUL, big, NUM_I(0), "0");
	check_bin(BIN_MUL, NUM_I(0), big, "0");
	check_bin(BIN_SUB, big, big, "0");
	check_bin(BIN_SHL, NUM_I(0), big, "0");
	cr_assert_eq(num_binop(BIN_MUL, big, NUM_I(1), &r), NUM_ETOOBIG);
	num_free(&big);
}

/* ---- names -------------------------------------------------------------- */

Test(num, names_and_messages)
{
	static const char *const names[BIN__COUNT] = {
		"add", "sub", "mul", "div", "mod", "lt", "le", "gt", "ge", "eq", "ne",
		"and", "or", "xor", "shl", "shr", "land", "lor", "min", "max",
	};
	static const char *const syms[BIN__COUNT] = {
		"+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=",
		"&", "|", "^", "<<", ">>", "&&", "||", "min", "max",
	};
	for (int op = 0; op < BIN__COUNT; op++) {
		cr_assert_str_eq(num_binop_name((BinOp)op), names[op]);
		cr_assert_str_eq(num_binop_sym((BinOp)op), syms[op]);
	}
	cr_assert_str_eq(num_binop_name(BIN__COUNT), "?");
	cr_assert_str_eq(num_binop_sym(BIN__COUNT), "?");
	cr_assert_str_eq(num_unop_sym(UN_NEG), "-");
	cr_assert_str_eq(num_unop_sym(UN_NOT), "!");
	cr_assert_str_eq(num_unop_sym(UN_BNOT), "~");
	cr_assert_str_eq(num_unop_sym(UN__COUNT), "?");
	cr_assert_str_eq(num_err_msg(NUM_OK), "no error");
	cr_assert_not_null(strstr(num_err_msg(NUM_ETOOBIG), "max-bits"));
}

/* ---- randomized property test against GMP -------------------------------- */

static uint64_t rng = UINT64_C(0x9E3779B97F4A7C15);

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void set_i64(mpz_t z, int64_t v)
{
	/* via text: independent of num.c and of sizeof(long) */
	char s[32];
	snprintf(s, sizeof s, "%lld", (long long)v);
	mpz_set_str(z, s, 10);
}

/* An operand near the int64 boundaries and beyond. */
static void gen(mpz_t z, int depth)
{
	long d = (long)(xorshift() % 7) - 3;
	int neg = (int)(xorshift() & 1);
	switch (xorshift() % 10) {
	case 0: /* small */
		mpz_set_si(z, (long)(xorshift() % 41) - 20);
		return;
	case 1: /* any int64 */
		set_i64(z, (int64_t)xorshift());
		return;
	case 2: { /* ±2^k ± d around 2^62..2^64 */
		static const unsigned long ks[] = {31, 32, 62, 63, 63, 63, 64, 64, 65};
		mpz_set_ui(z, 0);
		mpz_setbit(z, ks[xorshift() % (sizeof ks / sizeof ks[0])]);
		break;
	}
	case 3: /* INT64_MAX / INT64_MIN ± d */
		set_i64(z, neg ? INT64_MIN : INT64_MAX);
		neg = 0;
		break;
	case 4: /* 2..4 random limbs */
		mpz_set_ui(z, 0);
		for (unsigned n = 2 + (unsigned)(xorshift() % 3); n > 0; n--) {
			uint64_t u = xorshift();
			mpz_mul_2exp(z, z, 64);
			mpz_t t;
			mpz_init(t);
			mpz_import(t, 1, -1, sizeof u, 0, 0, &u);
			mpz_add(z, z, t);
			mpz_clear(t);
		}
		mpz_fdiv_q_2exp(z, z, xorshift() % 128);
		break;
	case 5: /* product of two operands */
		if (depth == 0) {
			mpz_t t;
			mpz_init(t);
			gen(z, 1);
			gen(t, 1);
			mpz_mul(z, z, t);
			mpz_clear(t);
			return;
		}
		mpz_set_si(z, d);
		return;
	case 6: /* around sqrt(2^63) */
		mpz_set_ui(z, 3037000499UL + (unsigned long)(xorshift() % 3));
		break;
	case 7: /* 10^30-sized */
		mpz_ui_pow_ui(z, 10, 18 + xorshift() % 14);
		break;
	case 8: /* a shift-count-sized value */
		mpz_set_ui(z, xorshift() % 140);
		break;
	default: /* ±2^k ± d for a larger k */
		mpz_set_ui(z, 0);
		mpz_setbit(z, 60 + xorshift() % 80);
		break;
	}
	if (d >= 0)
		mpz_add_ui(z, z, (unsigned long)d);
	else
		mpz_sub_ui(z, z, (unsigned long)-d);
	if (neg)
		mpz_neg(z, z);
}

/* The reference: language.md §4.1 computed directly with GMP. */
static NumErr ref_binop(BinOp op, const mpz_t a, const mpz_t b, mpz_t r)
{
	mpz_set_ui(r, 0);
	switch (op) {
	case BIN_ADD: mpz_add(r, a, b); break;
	case BIN_SUB: mpz_sub(r, a, b); break;
	case BIN_MUL: mpz_mul(r, a, b); break;
	case BIN_DIV:
		if (mpz_sgn(b) == 0) return NUM_EDIV0;
		mpz_tdiv_q(r, a, b);
		break;
	case BIN_MOD:
		if (mpz_sgn(b) == 0) return NUM_EDIV0;
		mpz_tdiv_r(r, a, b);
		break;
	case BIN_LT: mpz_set_ui(r, mpz_cmp(a, b) < 0); break;
	case BIN_LE: mpz_set_ui(r, mpz_cmp(a, b) <= 0); break;
	case BIN_GT: mpz_set_ui(r, mpz_cmp(a, b) > 0); break;
	case BIN_GE: mpz_set_ui(r, mpz_cmp(a, b) >= 0); break;
	case BIN_EQ: mpz_set_ui(r, mpz_cmp(a, b) == 0); break;
	case BIN_NE: mpz_set_ui(r, mpz_cmp(a, b) != 0); break;
	case BIN_AND: mpz_and(r, a, b); break;
	case BIN_OR: mpz_ior(r, a, b); break;
	case BIN_XOR: mpz_xor(r, a, b); break;
	case BIN_SHL:
		if (mpz_sgn(b) < 0) return NUM_ENEGSHIFT;
		if (mpz_sgn(a) == 0) break;
		/* bitsize(a·2^b) = bitsize(a) + b */
		if (mpz_cmp_ui(b, (unsigned long)num_max_bits) > 0 ||
		    mpz_sizeinbase(a, 2) + mpz_get_ui(b) > num_max_bits)
			return NUM_ETOOBIG;
		mpz_mul_2exp(r, a, mpz_get_ui(b));
		break;
	case BIN_SHR:
		if (mpz_sgn(b) < 0) return NUM_ENEGSHIFT;
		if (mpz_cmp_ui(b, (unsigned long)mpz_sizeinbase(a, 2)) >= 0) {
			mpz_set_si(r, mpz_sgn(a) < 0 ? -1 : 0);
		} else { /* floor division by 2^b, via mpz_fdiv_q */
			mpz_t p;
			mpz_init(p);
			mpz_setbit(p, mpz_get_ui(b));
			mpz_fdiv_q(r, a, p);
			mpz_clear(p);
		}
		break;
	case BIN_LAND: mpz_set_ui(r, mpz_sgn(a) != 0 && mpz_sgn(b) != 0); break;
	case BIN_LOR: mpz_set_ui(r, mpz_sgn(a) != 0 || mpz_sgn(b) != 0); break;
	case BIN_MIN: mpz_set(r, mpz_cmp(a, b) <= 0 ? a : b); break;
	case BIN_MAX: mpz_set(r, mpz_cmp(a, b) >= 0 ? a : b); break;
	default: cr_assert_fail("bad op"); break;
	}
	if (mpz_sizeinbase(r, 2) > num_max_bits) {
		mpz_set_ui(r, 0);
		return NUM_ETOOBIG;
	}
	return NUM_OK;
}

static int64_t get_i64(const mpz_t z)
{
	char *s = mpz_get_str(NULL, 10, z);
	long long v = strtoll(s, NULL, 10);
	void (*freefn)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &freefn);
	freefn(s, strlen(s) + 1);
	return (int64_t)v;
}

static void fail_case(const char *what, const char *opname, const mpz_t a, const mpz_t b,
                      int got_err, int want_err)
{
	char *as = mpz_get_str(NULL, 10, a), *bs = mpz_get_str(NULL, 10, b);
	cr_assert_fail("%s: %s(%s, %s): err %d, want %d", what, opname, as, bs, got_err, want_err);
}

static void check_pair(const mpz_t a, const mpz_t b)
{
	Num na = num_from_mpz(a), nb = num_from_mpz(b);
	mpz_t want, got;
	mpz_inits(want, got, NULL);
	for (int op = 0; op < BIN__COUNT; op++) {
		const char *name = num_binop_name((BinOp)op);
		NumErr we = ref_binop((BinOp)op, a, b, want);
		Num r = NUM_I(42);
		NumErr e = num_binop((BinOp)op, na, nb, &r);
		if (e != we)
			fail_case("num_binop error", name, a, b, (int)e, (int)we);
		if (e != NUM_OK) {
			if (!num_is_zero(r) || r.z)
				fail_case("result not 0 on error", name, a, b, (int)e, (int)we);
		} else {
			num_to_mpz(got, r);
			if (mpz_cmp(got, want) != 0)
				fail_case("num_binop value", name, a, b, (int)e, (int)we);
			if ((r.z == NULL) != in_int64(want))
				fail_case("not canonical", name, a, b, (int)e, (int)we);
		}
		num_free(&r);

		if (!na.z && !nb.z) {
			int64_t x = 42;
			int rc = num_binop64((BinOp)op, na.i, nb.i, &x);
			if (rc == NUM_OK) {
				if (we != NUM_OK || !in_int64(want) || x != get_i64(want))
					fail_case("num_binop64 value", name, a, b, rc, (int)we);
			} else if (rc == -1) {
				/* only when the exact result leaves int64 */
				if (!(we == NUM_ETOOBIG || (we == NUM_OK && !in_int64(want))))
					fail_case("num_binop64 -1 on an int64 result", name, a, b, rc, (int)we);
			} else if (rc != (int)we) {
				fail_case("num_binop64 error", name, a, b, rc, (int)we);
			}
		}
	}
	num_free(&na);
	num_free(&nb);
	mpz_clears(want, got, NULL);
}

static void check_unops(const mpz_t a)
{
	Num na = num_from_mpz(a);
	mpz_t want, got;
	mpz_inits(want, got, NULL);
	for (int op = 0; op < UN__COUNT; op++) {
		if (op == UN_NEG) mpz_neg(want, a);
		else if (op == UN_NOT) mpz_set_ui(want, mpz_sgn(a) == 0);
		else mpz_com(want, a);
		Num r;
		cr_assert_eq(num_unop((UnOp)op, na, &r), NUM_OK);
		num_to_mpz(got, r);
		if (mpz_cmp(got, want) != 0 || (r.z == NULL) != in_int64(want))
			fail_case("num_unop", num_unop_sym((UnOp)op), a, a, 0, 0);
		num_free(&r);
		if (!na.z) {
			int64_t x;
			int rc = num_unop64((UnOp)op, na.i, &x);
			if (rc == NUM_OK ? (!in_int64(want) || x != get_i64(want))
			                 : (rc != -1 || in_int64(want)))
				fail_case("num_unop64", num_unop_sym((UnOp)op), a, a, rc, 0);
		}
	}
	num_free(&na);
	mpz_clears(want, got, NULL);
}

Test(num, random_binop_against_gmp)
{
	mpz_t a, b, s;
	mpz_inits(a, b, s, NULL);
	for (int k = 0; k < 4000; k++) {
		gen(a, 0);
		gen(b, 0);
		check_pair(a, b);
		check_pair(b, a);
		check_unops(a);
		/* the same left operand with a shift-sized right one */
		mpz_set_si(s, (long)(xorshift() % 150) - 5);
		check_pair(a, s);
	}
	mpz_clears(a, b, s, NULL);
}

/* Exhaustive over a small set of boundary values: every pair, every op. */
Test(num, boundary_pairs_against_gmp)
{
	static const char *const vals[] = {
		"0", "1", "-1", "2", "-2", "3", "-3", "62", "63", "64", "65",
		"3037000499", "3037000500", "-3037000500", "4294967296", "-4294967296",
		"2147483648", "4611686018427387904", "-4611686018427387904",
		"9223372036854775806", MAX_S, P63_S, "9223372036854775809",
		"-9223372036854775807", MIN_S, M63_1_S, "-9223372036854775810",
		"18446744073709551615", P64_S, "-18446744073709551615", M64_S,
		"85070591730234615865843651857942052864", "-1000000000000000000000000000000",
	};
	const size_t n = sizeof vals / sizeof vals[0];
	mpz_t a, b;
	mpz_inits(a, b, NULL);
	for (size_t i = 0; i < n; i++) {
		mpz_set_str(a, vals[i], 10);
		check_unops(a);
		for (size_t j = 0; j < n; j++) {
			mpz_set_str(b, vals[j], 10);
			check_pair(a, b);
		}
	}
	mpz_clears(a, b, NULL);
}
