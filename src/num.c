/*
** num.c — exact ℤ arithmetic: the slow path behind num.h's int64 helpers.
**
** Semantics (language.md §4.1): `/` and `%` truncate toward zero (C99),
** `<<` multiplies by 2^b, `>>` is floor(a / 2^b), bitwise operators act on
** the infinite two's-complement form (which is what mpz_and/ior/xor do),
** comparisons and logical operators yield 1 or 0.
*/
#include "num.h"

#include <stdlib.h>
#include <string.h>

uint64_t num_max_bits = NUM_DEFAULT_MAX_BITS;

/* ORDER BINOP */
static const char *const binop_names[BIN__COUNT] = {
	"add", "sub", "mul", "div", "mod",
	"lt", "le", "gt", "ge", "eq", "ne",
	"and", "or", "xor", "shl", "shr",
	"land", "lor", "min", "max",
};
static const char *const binop_syms[BIN__COUNT] = {
	"+", "-", "*", "/", "%",
	"<", "<=", ">", ">=", "==", "!=",
	"&", "|", "^", "<<", ">>",
	"&&", "||", "min", "max",
};

const char *num_binop_name(BinOp op)
{
	return (unsigned)op < BIN__COUNT ? binop_names[op] : "?";
}

const char *num_binop_sym(BinOp op)
{
	return (unsigned)op < BIN__COUNT ? binop_syms[op] : "?";
}

const char *num_unop_sym(UnOp op)
{
	switch (op) {
	case UN_NEG: return "-";
	case UN_NOT: return "!";
	case UN_BNOT: return "~";
	default: return "?";
	}
}

const char *num_err_msg(NumErr e)
{
	switch (e) {
	case NUM_OK: return "no error";
	case NUM_EDIV0: return "division by zero";
	case NUM_ENEGSHIFT: return "negative shift count";
	case NUM_ETOOBIG: return "value too large (see --max-bits)";
	}
	return "?";
}


/* A small pool of initialised mpz values: lanes that stay beyond int64 keep
** reusing limbs instead of going through malloc, mpz_init and mpz_clear for
** every result (GMP manual, "Efficiency": "a language interpreter might want
** to keep a free list or stack of initialized variables ready for use"). */
#define POOL_MAX 1024
static __mpz_struct *pool[POOL_MAX];
static int npool;

static __mpz_struct *mpz_new(void)
{
	if (npool > 0)
		return pool[--npool];
	__mpz_struct *z = xmalloc(sizeof *z);
	mpz_init(z);
	return z;
}

static void mpz_release(__mpz_struct *z)
{
	/* keep modest values only: a pooled giant would pin its memory */
	if (npool < POOL_MAX && z->_mp_alloc <= 64) {
		pool[npool++] = z;
		return;
	}
	mpz_clear(z);
	free(z);
}

void num_free(Num *a)
{
	if (a->z) {
		mpz_release(a->z);
		a->z = NULL;
	}
	a->i = 0;
}

Num num_copy(Num a)
{
	if (!a.z)
		return a;
	Num r = {0, mpz_new()};
	mpz_set(r.z, a.z);
	return r;
}

bool num_fits64(Num a)
{
	return a.z == NULL;
}

/* Canonical Num of z (z is copied). Portable: no assumption on sizeof(long). */
Num num_from_mpz(const mpz_t z)
{
	if (mpz_sgn(z) == 0)
		return NUM_I(0);
#if GMP_NUMB_BITS >= 64 && GMP_NAIL_BITS == 0
	if (mpz_size(z) == 1) {
		uint64_t u = (uint64_t)mpz_getlimbn(z, 0);
		if (mpz_sgn(z) > 0 && u <= (uint64_t)INT64_MAX)
			return NUM_I((int64_t)u);
		if (mpz_sgn(z) < 0 && u <= (uint64_t)INT64_MAX + 1)
			return NUM_I((int64_t)(0 - u));
	}
#endif
	size_t bits = mpz_sizeinbase(z, 2);
	if (bits <= 63) {
		uint64_t u = 0;
		mpz_export(&u, NULL, -1, sizeof u, 0, 0, z);
		return NUM_I(mpz_sgn(z) < 0 ? -(int64_t)u : (int64_t)u);
	}
	if (bits == 64 && mpz_sgn(z) < 0 && mpz_scan1(z, 0) == 63)
		return NUM_I(INT64_MIN);
	Num r = {0, mpz_new()};
	mpz_set(r.z, z);
	return r;
}

void num_to_mpz(mpz_t dst, Num a)
{
	if (a.z) {
		mpz_set(dst, a.z);
		return;
	}
	uint64_t u = a.i < 0 ? (uint64_t)0 - (uint64_t)a.i : (uint64_t)a.i;
	mpz_import(dst, 1, -1, sizeof u, 0, 0, &u);
	if (a.i < 0)
		mpz_neg(dst, dst);
}

bool num_parse(const char *s, size_t len, Num *out)
{
	*out = NUM_I(0);
	size_t i = 0;
	bool neg = false;
	if (i < len && s[i] == '-') {
		neg = true;
		i++;
	}
	int base = 10;
	if (i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i >= len)
		return false;
	if (base == 10 && len - i <= 18) { /* below 10^18: no overflow checks */
		int64_t v = 0;
		for (size_t k = i; k < len; k++) {
			if (s[k] < '0' || s[k] > '9')
				return false;
			v = v * 10 + (s[k] - '0');
		}
		*out = NUM_I(neg ? -v : v);
		return true;
	}
	for (size_t k = i; k < len; k++) {
		char c = s[k];
		bool ok = (c >= '0' && c <= '9') ||
		          (base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
		if (!ok)
			return false;
	}
	/* fast path: accumulate in uint64 while it cannot overflow */
	uint64_t acc = 0;
	bool small = true;
	for (size_t k = i; k < len && small; k++) {
		char c = s[k];
		unsigned d = (c <= '9') ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
		if (acc > (UINT64_MAX - d) / (unsigned)base)
			small = false;
		else
			acc = acc * (unsigned)base + d;
	}
	if (small && (acc <= (uint64_t)INT64_MAX || (neg && acc == (uint64_t)INT64_MAX + 1))) {
		*out = NUM_I(neg ? (int64_t)(0 - acc) : (int64_t)acc);
		return true;
	}
	char *tmp = xstrndup(s + i, len - i);
	mpz_t z;
	mpz_init(z);
	int rc = mpz_set_str(z, tmp, base);
	free(tmp);
	if (rc != 0) {
		mpz_clear(z);
		return false;
	}
	if (neg)
		mpz_neg(z, z);
	*out = num_from_mpz(z);
	mpz_clear(z);
	return true;
}

int num_cmp(Num a, Num b)
{
	if (!a.z && !b.z)
		return (a.i > b.i) - (a.i < b.i);
	/* a canonical big value lies outside int64, so its sign decides */
	if (!a.z)
		return -mpz_sgn(b.z);
	if (!b.z)
		return mpz_sgn(a.z);
	int c = mpz_cmp(a.z, b.z);
	return (c > 0) - (c < 0);
}

bool num_eq(Num a, Num b)
{
	return num_cmp(a, b) == 0;
}

/* Canonical Num owning z: z itself when the value leaves int64. */
static Num num_from_mpz_steal(__mpz_struct *z)
{
	size_t n = mpz_size(z);
	if (n > 0 && (uint64_t)(n - 1) * GMP_NUMB_BITS >= 64) {
		Num r = {0, z}; /* |z| >= 2^64: beyond int64 */
		return r;
	}
	Num r = num_from_mpz(z);
	if (r.z) {
		/* 64 bits that do not fit int64: keep z rather than the copy */
		mpz_release(r.z);
		r.z = z;
		return r;
	}
	mpz_release(z);
	return r;
}

/* A read-only mpz view of a (no allocation for small values). */
static mpz_srcptr view(Num a, mpz_ptr tmp, mp_limb_t *limb)
{
	if (a.z)
		return a.z;
#if GMP_NUMB_BITS >= 64 && GMP_NAIL_BITS == 0
	uint64_t u = a.i < 0 ? (uint64_t)0 - (uint64_t)a.i : (uint64_t)a.i;
	*limb = (mp_limb_t)u;
	return mpz_roinit_n(tmp, limb, a.i < 0 ? -1 : (a.i > 0 ? 1 : 0));
#else
	(void)limb;
	mpz_init(tmp);
	num_to_mpz(tmp, a);
	return tmp;
#endif
}

static void view_done(mpz_srcptr v, mpz_ptr tmp)
{
#if GMP_NUMB_BITS >= 64 && GMP_NAIL_BITS == 0
	(void)v;
	(void)tmp;
#else
	if (v == tmp)
		mpz_clear(tmp);
#endif
}

/* The limb count answers the common case without mpz_sizeinbase. */
static bool too_big(const mpz_t z)
{
	if ((uint64_t)mpz_size(z) * GMP_NUMB_BITS <= num_max_bits)
		return false;
	return mpz_sizeinbase(z, 2) > num_max_bits;
}

/* Shift counts are bounded by num_max_bits; anything larger cannot give a
** representable result except 0 / -1 for right shifts. */
NumErr num_binop(BinOp op, Num a, Num b, Num *r)
{
	*r = NUM_I(0);
	if (!a.z && !b.z) {
		int64_t x;
		int rc = num_binop64(op, a.i, b.i, &x);
		if (rc == NUM_OK) {
			*r = NUM_I(x);
			return NUM_OK;
		}
		if (rc > 0)
			return (NumErr)rc;
		/* falls through to the exact path */
	}
	switch (op) {
	case BIN_LT: *r = NUM_I(num_cmp(a, b) < 0); return NUM_OK;
	case BIN_LE: *r = NUM_I(num_cmp(a, b) <= 0); return NUM_OK;
	case BIN_GT: *r = NUM_I(num_cmp(a, b) > 0); return NUM_OK;
	case BIN_GE: *r = NUM_I(num_cmp(a, b) >= 0); return NUM_OK;
	case BIN_EQ: *r = NUM_I(num_cmp(a, b) == 0); return NUM_OK;
	case BIN_NE: *r = NUM_I(num_cmp(a, b) != 0); return NUM_OK;
	case BIN_LAND: *r = NUM_I(!num_is_zero(a) && !num_is_zero(b)); return NUM_OK;
	case BIN_LOR: *r = NUM_I(!num_is_zero(a) || !num_is_zero(b)); return NUM_OK;
	case BIN_MIN: *r = num_copy(num_cmp(a, b) <= 0 ? a : b); return NUM_OK;
	case BIN_MAX: *r = num_copy(num_cmp(a, b) >= 0 ? a : b); return NUM_OK;
	default: break;
	}
	if ((op == BIN_DIV || op == BIN_MOD) && num_is_zero(b))
		return NUM_EDIV0;
	if ((op == BIN_SHL || op == BIN_SHR) && num_cmp(b, NUM_I(0)) < 0)
		return NUM_ENEGSHIFT;

	mpz_t xt, yt;
	mp_limb_t xl, yl;
	mpz_srcptr x = view(a, xt, &xl), y = view(b, yt, &yl);
	__mpz_struct *z = mpz_new();
	mpz_set_ui(z, 0); /* pooled values hold stale data */
	NumErr err = NUM_OK;
	switch (op) {
	case BIN_ADD: mpz_add(z, x, y); break;
	case BIN_SUB: mpz_sub(z, x, y); break;
	case BIN_MUL:
		/* 0 · y = 0 whatever the size of y (y may be a literal beyond a
		** lowered limit); mpz_sizeinbase(0) = 1 would not say so */
		if (mpz_sgn(x) == 0 || mpz_sgn(y) == 0)
			break;
		if ((uint64_t)(mpz_size(x) + mpz_size(y)) * GMP_NUMB_BITS > num_max_bits &&
		    mpz_sizeinbase(x, 2) + mpz_sizeinbase(y, 2) > num_max_bits + 1)
			err = NUM_ETOOBIG;
		else
			mpz_mul(z, x, y);
		break;
	case BIN_DIV: mpz_tdiv_q(z, x, y); break;
	case BIN_MOD: mpz_tdiv_r(z, x, y); break;
	case BIN_AND: mpz_and(z, x, y); break;
	case BIN_OR: mpz_ior(z, x, y); break;
	case BIN_XOR: mpz_xor(z, x, y); break;
	case BIN_SHL:
		if (mpz_sgn(x) == 0)
			break;
		/* bitsize(x·2^y) = bitsize(x) + y; compared without forming the
		** sum, which wraps around for y near ULONG_MAX */
		if (!mpz_fits_ulong_p(y) || mpz_sizeinbase(x, 2) > num_max_bits ||
		    mpz_get_ui(y) > num_max_bits - mpz_sizeinbase(x, 2))
			err = NUM_ETOOBIG;
		else
			mpz_mul_2exp(z, x, mpz_get_ui(y));
		break;
	case BIN_SHR:
		if (!mpz_fits_ulong_p(y) || mpz_get_ui(y) >= (uint64_t)mpz_size(x) * GMP_NUMB_BITS)
			mpz_set_si(z, mpz_sgn(x) < 0 ? -1 : 0); /* floor of a tiny fraction */
		else
			mpz_fdiv_q_2exp(z, x, mpz_get_ui(y));
		break;
	default: err = NUM_ETOOBIG; break;
	}
	if (err == NUM_OK && too_big(z))
		err = NUM_ETOOBIG;
	view_done(x, xt);
	view_done(y, yt);
	if (err != NUM_OK) {
		mpz_release(z);
		return err;
	}
	*r = num_from_mpz_steal(z);
	return NUM_OK;
}

NumErr num_unop(UnOp op, Num a, Num *r)
{
	*r = NUM_I(0);
	if (!a.z) {
		int64_t x;
		if (num_unop64(op, a.i, &x) == NUM_OK) {
			*r = NUM_I(x);
			return NUM_OK;
		}
	}
	if (op == UN_NOT) {
		*r = NUM_I(num_is_zero(a));
		return NUM_OK;
	}
	__mpz_struct *x = mpz_new();
	num_to_mpz(x, a);
	if (op == UN_NEG)
		mpz_neg(x, x);
	else
		mpz_com(x, x); /* ~a = -a - 1 */
	*r = num_from_mpz_steal(x);
	return NUM_OK;
}

void num_buf(Buf *b, Num a)
{
	if (!a.z) {
		buf_put_i64(b, a.i);
		return;
	}
	char *s = mpz_get_str(NULL, 10, a.z);
	buf_puts(b, s);
	void (*freefn)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &freefn);
	freefn(s, strlen(s) + 1);
}

void num_buf_brief(Buf *b, Num a, size_t digits)
{
	if (!a.z || mpz_sizeinbase(a.z, 10) <= digits) { /* sizeinbase: exact or one more */
		num_buf(b, a);
		return;
	}
	Buf all = {0};
	num_buf(&all, a);
	size_t sign = all.len > 0 && buf_str(&all)[0] == '-';
	size_t n = all.len - sign;
	if (n <= digits)
		buf_puts(b, buf_str(&all));
	else
		buf_printf(b, "%.*s…(%zu digits)", (int)(sign + (digits > 12 ? 12 : digits)), buf_str(&all), n);
	buf_free(&all);
}

char *num_str(Num a)
{
	Buf b = {0};
	num_buf(&b, a);
	return buf_steal(&b);
}
