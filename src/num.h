/*
** num.h — the integers of μ-SIMD: mathematical ℤ (language.md §4.1).
**
** A Num is an int64 when the value fits, otherwise a heap mpz_t. The
** representation is canonical: z != NULL only for values outside
** [INT64_MIN, INT64_MAX], so equal values have equal representations and
** the int64 fast path can test `z == NULL` alone.
**
** The interpreter keeps lanes as two parallel arrays (int64_t v[], mpz
** pointer z[]) — the structure-of-arrays form of Num — and uses the inline
** helpers below in its loops; num.c is the slow path.
*/
#ifndef MUSIMD_NUM_H
#define MUSIMD_NUM_H

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "util.h"

typedef struct Num {
	int64_t i;       /* the value when z == NULL */
	__mpz_struct *z; /* heap value outside int64, else NULL */
} Num;

#define NUM_I(x) ((Num){.i = (x), .z = NULL})

/* Upper bound on the size of a value, in bits: a program whose values grow
** beyond it (x = x * x in a loop) gets a BP error instead of exhausting
** memory. Changeable at run time (run --max-bits). */
extern uint64_t num_max_bits;
#define NUM_DEFAULT_MAX_BITS (1u << 20)

/* Binary operators of language.md §4.1. The order is ORDER BINOP: keep
** num_binop_name, num_binop_sym and the parser's tables in step. */
typedef enum BinOp {
	BIN_ADD, BIN_SUB, BIN_MUL, BIN_DIV, BIN_MOD,
	BIN_LT, BIN_LE, BIN_GT, BIN_GE, BIN_EQ, BIN_NE,
	BIN_AND, BIN_OR, BIN_XOR, BIN_SHL, BIN_SHR,
	BIN_LAND, BIN_LOR, BIN_MIN, BIN_MAX,
	BIN__COUNT
} BinOp;

typedef enum UnOp { UN_NEG, UN_NOT, UN_BNOT, UN__COUNT } UnOp;

/* Why an operation has no result (rule BP cannot apply). */
typedef enum NumErr {
	NUM_OK = 0,
	NUM_EDIV0,     /* division or remainder by zero */
	NUM_ENEGSHIFT, /* negative shift count */
	NUM_ETOOBIG,   /* result would exceed num_max_bits */
} NumErr;

const char *num_binop_name(BinOp op); /* functional name: "add", "lt", ... */
const char *num_binop_sym(BinOp op);  /* infix symbol: "+", "<", ...; "min"/"max" for those */
const char *num_unop_sym(UnOp op);    /* "-", "!", "~" */
const char *num_err_msg(NumErr e);    /* "division by zero", ... */

/* Ownership: a Num with z != NULL owns its mpz. Functions returning a Num
** return a fresh value the caller must num_free (no-op for small values). */
void num_free(Num *a);
Num num_copy(Num a);
Num num_from_mpz(const mpz_t z); /* canonicalises */
void num_to_mpz(mpz_t dst, Num a); /* dst initialised by the caller */
bool num_fits64(Num a);

/* Parse a literal: optional '-', then decimal digits or 0x/0X hex digits.
** Returns false (and leaves *out = 0) if s is not such a literal. */
bool num_parse(const char *s, size_t len, Num *out);

int num_cmp(Num a, Num b);
bool num_eq(Num a, Num b);
static inline bool num_is_zero(Num a) { return a.z == NULL && a.i == 0; }

/* Exact ℤ arithmetic. On error *r is 0 and the error is returned. */
NumErr num_binop(BinOp op, Num a, Num b, Num *r);
NumErr num_unop(UnOp op, Num a, Num *r);

/* Decimal text. */
void num_buf(Buf *b, Num a);
char *num_str(Num a); /* malloc'd */
/* a in decimal when it has at most `digits` digits, else its leading digits,
** an ellipsis and its size: "-123456789012…(30103 digits)" (messages about
** values of a million bits stay short). */
void num_buf_brief(Buf *b, Num a, size_t digits);
#define NUM_BRIEF_DIGITS 40

/* ---- int64 fast path (used by the interpreter's lane loops) ----------- */

/* Compute a op b in int64. Returns NUM_OK with *r set, or a NumErr for a
** real error, or -1 when the exact result does not fit in int64 (then the
** caller must use num_binop). */
static inline int num_binop64(BinOp op, int64_t a, int64_t b, int64_t *r)
{
	switch (op) {
	case BIN_ADD: return __builtin_add_overflow(a, b, r) ? -1 : NUM_OK;
	case BIN_SUB: return __builtin_sub_overflow(a, b, r) ? -1 : NUM_OK;
	case BIN_MUL: return __builtin_mul_overflow(a, b, r) ? -1 : NUM_OK;
	case BIN_DIV:
		if (b == 0) return NUM_EDIV0;
		if (a == INT64_MIN && b == -1) return -1;
		*r = a / b; /* C truncates toward zero, as language.md requires */
		return NUM_OK;
	case BIN_MOD:
		if (b == 0) return NUM_EDIV0;
		*r = (b == -1) ? 0 : a % b;
		return NUM_OK;
	case BIN_LT: *r = a < b; return NUM_OK;
	case BIN_LE: *r = a <= b; return NUM_OK;
	case BIN_GT: *r = a > b; return NUM_OK;
	case BIN_GE: *r = a >= b; return NUM_OK;
	case BIN_EQ: *r = a == b; return NUM_OK;
	case BIN_NE: *r = a != b; return NUM_OK;
	case BIN_AND: *r = a & b; return NUM_OK;
	case BIN_OR: *r = a | b; return NUM_OK;
	case BIN_XOR: *r = a ^ b; return NUM_OK;
	case BIN_SHL:
		if (b < 0) return NUM_ENEGSHIFT;
		if (a == 0) { *r = 0; return NUM_OK; }
		if (b >= 63) {
			if (a == -1 && b == 63) { *r = INT64_MIN; return NUM_OK; } /* -2^63 fits */
			return -1;
		}
		{
			/* a·2^b fits iff shifting back restores a */
			int64_t s = (int64_t)((uint64_t)a << b);
			if ((s >> b) != a) return -1; /* arithmetic shift: gcc/clang */
			*r = s;
		}
		return NUM_OK;
	case BIN_SHR:
		if (b < 0) return NUM_ENEGSHIFT;
		if (b >= 63) { *r = a < 0 ? -1 : 0; return NUM_OK; }
		*r = a >= 0 ? (a >> b) : ~(~a >> b); /* floor(a / 2^b) */
		return NUM_OK;
	case BIN_LAND: *r = (a != 0) && (b != 0); return NUM_OK;
	case BIN_LOR: *r = (a != 0) || (b != 0); return NUM_OK;
	case BIN_MIN: *r = a < b ? a : b; return NUM_OK;
	case BIN_MAX: *r = a > b ? a : b; return NUM_OK;
	default: return -1;
	}
}

static inline int num_unop64(UnOp op, int64_t a, int64_t *r)
{
	switch (op) {
	case UN_NEG:
		if (a == INT64_MIN) return -1;
		*r = -a;
		return NUM_OK;
	case UN_NOT: *r = a == 0; return NUM_OK;
	case UN_BNOT: *r = ~a; return NUM_OK;
	default: return -1;
	}
}

#endif
