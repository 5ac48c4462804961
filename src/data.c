/*
** data.c — the data rules of μ-SIMD (Table 3.5 and the extensions; rule IT
** of Table 3.4; semantics.md §3, §4): arithmetic on an int64 fast path and an
** exact path, loads and stores of shared and local memory with the race
** report, atomics, and the GSA group of a block. Every instruction computes
** its results first and commits them only when no premise failed.
*/
#include "lanes.h"
#include "model.h"

#include <stdlib.h>
#include <string.h>

/* ---- data instructions: the int64 fast path -------------------------------- */

/* An operand as the lane loops see it: a row of values, or one value for
** all lanes. */
typedef struct Src {
	const int64_t *p;
	int64_t k;
} Src;

/* false when the operand holds big values in some lane (slow path) */
static bool src_of(const Machine *m, const Opnd *o, Src *s)
{
	switch (o->kind) {
	case OPND_VAR:
		if (m->nbig[o->var] > 0)
			return false;
		s->p = row(m, o->var);
		return true;
	case OPND_LIT:
		if (ir_lit(m->prog, o).z)
			return false;
		s->p = NULL;
		s->k = ir_lit(m->prog, o).i;
		return true;
	case OPND_SPECIAL:
		s->p = m->spec[o->special];
		s->k = s->p ? 0 : sem_special(m, (Special)o->special, 0);
		return true;
	default:
		s->p = NULL;
		s->k = 0;
		return true;
	}
}

/* Loop over the active lanes of a warp computing r from a and b with EXPR,
** which may OR a non-zero value into `bad` to send the instruction to the
** exact slow path. Dense warps (every lane active) get simple counted loops
** the compiler vectorises. */
#define LANE_LOOP2(EXPR)                                                           \
	do {                                                                           \
		if (dense) {                                                               \
			if (A.p && B.p) {                                                      \
				for (int32_t i = lo; i < hi; i++) {                                \
					int64_t a = A.p[i], b = B.p[i], r;                             \
					EXPR;                                                          \
					out[i] = r;                                                    \
				}                                                                  \
			} else if (A.p) {                                                      \
				const int64_t b = B.k;                                             \
				for (int32_t i = lo; i < hi; i++) {                                \
					int64_t a = A.p[i], r;                                         \
					EXPR;                                                          \
					out[i] = r;                                                    \
				}                                                                  \
			} else if (B.p) {                                                      \
				const int64_t a = A.k;                                             \
				for (int32_t i = lo; i < hi; i++) {                                \
					int64_t b = B.p[i], r;                                         \
					EXPR;                                                          \
					out[i] = r;                                                    \
				}                                                                  \
			} else {                                                               \
				const int64_t a = A.k, b = B.k;                                    \
				int64_t r;                                                         \
				EXPR;                                                              \
				for (int32_t i = lo; i < hi; i++)                                  \
					out[i] = r;                                                    \
			}                                                                      \
		} else {                                                                   \
			for (int32_t k = 0; k < n; k++) {                                      \
				int32_t i = idx[k];                                                \
				int64_t a = A.p ? A.p[i] : A.k, b = B.p ? B.p[i] : B.k, r;        \
				EXPR;                                                              \
				out[i] = r;                                                        \
			}                                                                      \
		}                                                                          \
	} while (0)

/* Function multi-versioning: the lane loops compiled for the machine's
** vector unit too (AVX2, AVX-512: 64-bit multiplies in vectors), the one
** that fits chosen when the program loads; the default build stays
** portable. Off under the sanitizers and where the compiler or the
** platform has no ifuncs. */
#if defined(__x86_64__) && defined(__linux__) && defined(__has_attribute) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(MUSIMD_NO_CLONES)
#if __has_attribute(target_clones)
#define LANE_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
#endif
#ifndef LANE_CLONES
#define LANE_CLONES
#endif

/* 64 bytes of 0 or 1 as the bits of a word (byte k, bit k): 8 bytes to
** 8 bits by a multiply. */
static inline uint64_t pack_bytes64(const uint8_t *z)
{
	uint64_t bits = 0;
	for (int32_t i = 0; i < 8; i++) {
		uint64_t x = 0; /* byte k at bits 8k */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		memcpy(&x, z + 8 * i, 8);
#else
		for (int32_t k = 0; k < 8; k++)
			x |= (uint64_t)z[8 * i + k] << (8 * k);
#endif
		bits |= ((x * 0x0102040810204080ull) >> 56) << (8 * i);
	}
	return bits;
}

/* The lanes of a word of 64 whose value is 0: the tests as bytes (a loop
** the vector unit runs), then packed. */
LANE_CLONES static uint64_t zero_lanes64(const int64_t *v)
{
	uint8_t z[64];
	for (int32_t b = 0; b < 64; b++)
		z[b] = v[b] == 0;
	return pack_bytes64(z);
}

/* The lanes of a word of 64 whose definedness byte is set. */
LANE_CLONES static uint64_t defined_lanes64(const uint8_t *d)
{
	uint8_t z[64];
	for (int32_t b = 0; b < 64; b++)
		z[b] = d[b] != 0;
	return pack_bytes64(z);
}

/* Whether variable v is assigned in the lanes of sel, nw words of the
** lanes from thread base on. */
static bool defined_in(const Machine *m, int32_t v, const uint64_t *sel, int32_t nw, int32_t base)
{
	if (m->ndef[v] == m->nthreads)
		return true;
	const uint8_t *df = defrow(m, v) + base;
	for (int32_t j = 0; j < nw; j++, df += 64) {
		uint64_t a = sel[j];
		if (a && (a & ~defined_lanes64(df))) /* past the warp's lanes: masked (SEM_ROW_PAD) */
			return false;
	}
	return true;
}

bool sem_all_defined(const Machine *m, const Warp *w, int32_t v)
{
	return defined_in(m, v, w->active, w->nw, w->base);
}

/* Returns false if some lane overflows int64 or fails (then nothing that
** matters was written: the caller recomputes exactly). */
LANE_CLONES static bool fast_binop(BinOp op, int64_t *out, Src A, Src B, bool dense, int32_t lo,
                       int32_t hi, const int32_t *idx, int32_t n)
{
	uint64_t bad = 0;
	switch (op) {
	case BIN_ADD:
		LANE_LOOP2(r = (int64_t)((uint64_t)a + (uint64_t)b);
		           bad |= (uint64_t)((a ^ r) & (b ^ r)) >> 63);
		break;
	case BIN_SUB:
		LANE_LOOP2(r = (int64_t)((uint64_t)a - (uint64_t)b);
		           bad |= (uint64_t)((a ^ b) & (a ^ r)) >> 63);
		break;
	case BIN_MUL: {
		/* factors of 32 bits (sign included) have a product within int64:
		** a vector multiply and a test of the factors; wider ones, the
		** exact test lane by lane (out is no operand: exec_arith) */
		uint64_t wide = 0;
		LANE_LOOP2(r = (int64_t)((uint64_t)a * (uint64_t)b);
		           wide |= ((uint64_t)a + (1ull << 31)) | ((uint64_t)b + (1ull << 31)));
		if (wide >> 32)
			LANE_LOOP2(bad |= (uint64_t)__builtin_mul_overflow(a, b, &r));
		break;
	}
	case BIN_DIV:
		LANE_LOOP2(int64_t d = (b == 0 || (b == -1 && a == INT64_MIN)) ? 1 : b;
		           bad |= (uint64_t)(d != b); r = a / d);
		break;
	case BIN_MOD:
		LANE_LOOP2(int64_t d = (b == 0 || b == -1) ? 1 : b;
		           bad |= (uint64_t)(b == 0); r = (b == -1) ? 0 : a % d);
		break;
	case BIN_LT: LANE_LOOP2(r = a < b); break;
	case BIN_LE: LANE_LOOP2(r = a <= b); break;
	case BIN_GT: LANE_LOOP2(r = a > b); break;
	case BIN_GE: LANE_LOOP2(r = a >= b); break;
	case BIN_EQ: LANE_LOOP2(r = a == b); break;
	case BIN_NE: LANE_LOOP2(r = a != b); break;
	case BIN_AND: LANE_LOOP2(r = a & b); break;
	case BIN_OR: LANE_LOOP2(r = a | b); break;
	case BIN_XOR: LANE_LOOP2(r = a ^ b); break;
	case BIN_SHL:
		LANE_LOOP2(int64_t s = (b < 0 || b > 62) ? 0 : b;
		           uint64_t u = (uint64_t)a << s; r = (int64_t)u;
		           bad |= (uint64_t)(s != b) | (uint64_t)((r >> s) != a));
		break;
	case BIN_SHR:
		/* arithmetic shift right is floor(a / 2^b) (gcc and clang shift
		** signed values arithmetically) */
		LANE_LOOP2(int64_t s = b < 0 ? 0 : (b > 63 ? 63 : b); bad |= (uint64_t)(b < 0);
		           r = a >> s);
		break;
	case BIN_LAND: LANE_LOOP2(r = (a != 0) & (b != 0)); break;
	case BIN_LOR: LANE_LOOP2(r = (a != 0) | (b != 0)); break;
	case BIN_MIN: LANE_LOOP2(r = a < b ? a : b); break;
	case BIN_MAX: LANE_LOOP2(r = a > b ? a : b); break;
	default: return false;
	}
	return bad == 0;
}

/* What a fast commit does besides the values: dst is an assigned int64
** in the active lanes of w, idx[0..n) (no big value left, defined). The
** definedness bytes are read 64 lanes at a time: after a variable's first
** assignments, most lanes were assigned before. */
static void commit_marks(Machine *m, Warp *w, const int32_t *idx, int32_t n, int32_t dst)
{
	if (m->nbig[dst] > 0)
		for (int32_t k = 0; k < n; k++) {
			__mpz_struct **z = &m->big[dst][idx[k]];
			if (*z) {
				drop_big(z, &m->big_bytes);
				m->nbig[dst]--;
			}
		}
	if (m->ndef[dst] < m->nthreads) {
		uint8_t *df = defrow(m, dst) + w->base;
		int32_t fresh = 0;
		for (int32_t j = 0; j < w->nw; j++, df += 64) {
			uint64_t a = w->active[j];
			if (a) /* past the warp's lanes: masked (SEM_ROW_PAD) */
				a &= ~defined_lanes64(df);
			fresh += bit_count(a); /* the lanes assigned now for the first time */
			for (; a; a &= a - 1)
				df[__builtin_ctzll(a)] = 1;
		}
		m->ndef[dst] += fresh;
		m->watch_changed |= fresh && dst == m->watch_var;
	}
}

/* After a fast computation: make the values the value of dst in every
** active lane, from src as a row (src[t] is thread t's: the destination
** row itself, or m->tmp) or, compact, in the lanes' order (src[k] is lane
** idx[k]'s). A watched destination (Machine.watch_var) reports a change. */
static void commit_values(Machine *m, Warp *w, int32_t dst, const int64_t *src, bool compact)
{
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	int64_t *d = row(m, dst);
	bool watched = dst == m->watch_var; /* (then src is not d: exec_arith) */
	uint64_t diff = 0;
	if (n == w->size) { /* dense: the lanes are the rows' base .. base+size-1 */
		const int64_t *from = compact ? src : src + w->base;
		size_t size = (size_t)n * sizeof *d;
		if (from != d + w->base) {
			if (MU_UNLIKELY(watched))
				diff = memcmp(d + w->base, from, size) != 0;
			memcpy(d + w->base, from, size);
		}
	} else if (compact) {
		if (MU_UNLIKELY(watched))
			for (int32_t k = 0; k < n; k++)
				diff |= (uint64_t)(d[idx[k]] ^ src[k]);
		for (int32_t k = 0; k < n; k++)
			d[idx[k]] = src[k];
	} else if (src != d) {
		if (MU_UNLIKELY(watched))
			for (int32_t k = 0; k < n; k++)
				diff |= (uint64_t)(d[idx[k]] ^ src[idx[k]]);
		for (int32_t k = 0; k < n; k++)
			d[idx[k]] = src[idx[k]];
	}
	m->watch_changed |= watched && diff != 0;
	commit_marks(m, w, idx, n, dst);
}

static void commit_fast(Machine *m, Warp *w, int32_t dst, const int64_t *out)
{
	commit_values(m, w, dst, out, false);
}

/* A word of 64 lanes: lane b of d takes s[b] where bit b of a is set. With
** AVX-512, eight masked loads and stores (inactive lanes neither read nor
** written); else a select under a byte mask the vector unit uses, which
** reads every lane of the word (rows end with SEM_ROW_PAD lanes, tmp too). */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(MUSIMD_NO_CLONES)
#include <immintrin.h>
#define BLEND_AVX512 1
__attribute__((target("avx512f"))) static void blend_word_avx512(int64_t *d, const int64_t *s, uint64_t a)
{
	for (int i = 0; i < 8; i++)
		_mm512_mask_storeu_epi64(d + 8 * i, (__mmask8)(a >> (8 * i)),
		                         _mm512_maskz_loadu_epi64((__mmask8)(a >> (8 * i)), s + 8 * i));
}
#endif

LANE_CLONES static void blend_word(int64_t *restrict d, const int64_t *restrict s, uint64_t a)
{
	uint8_t z[64];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (int32_t i = 0; i < 8; i++) {
		uint64_t x = (((a >> (8 * i)) & 0xff) * 0x0101010101010101ull) & 0x8040201008040201ull;
		memcpy(z + 8 * i, &x, 8); /* byte k: bit k of the chunk */
	}
#else
	for (int32_t b = 0; b < 64; b++)
		z[b] = (a >> b) & 1;
#endif
	for (int32_t b = 0; b < 64; b++)
		d[b] = z[b] ? s[b] : d[b];
}

/* The values of src (a row) made dst's in the active lanes of w by their
** mask, 64 lanes a word: for a warp whose active lanes are too many for a
** list to pay. dst holds no big value and is not watched (span_arith). */
static void blend_active(int64_t *restrict d, const int64_t *restrict s, const uint64_t *active, int32_t nw)
{
#ifdef BLEND_AVX512
	bool avx512 = __builtin_cpu_supports("avx512f");
#endif
	for (int32_t j = 0; j < nw; j++, d += 64, s += 64) {
		uint64_t a = active[j];
		if (a == ~0ull)
			memcpy(d, s, 64 * sizeof *d);
#ifdef BLEND_AVX512
		else if (a && avx512)
			blend_word_avx512(d, s, a);
#endif
		else if (a)
			blend_word(d, s, a);
	}
}

/* CT / AS / BP when some lanes of w are inactive but at least an eighth are
** active: the lane loop runs over every lane of the warp into m->tmp (the
** operators' expressions never trap: an inactive lane computes a value
** nobody keeps) and the active lanes take theirs by mask, with no list of
** lanes. An overflow, or a failure, in any lane sends the instruction to
** the lanes' list (an inactive lane's may be spurious). */
static bool span_arith(Machine *m, Warp *w, const Ins *ins, Src A, Src B)
{
	int32_t dst = ins->dst;
	if (w->size < 256 || m->nbig[dst] > 0 || dst == m->watch_var)
		return false;
	int32_t n = sem_active_count(w);
	if (n == w->size || n * 8 < w->size)
		return false; /* every lane (the dense loops), or few (their list) */
	int32_t lo = w->base, hi = w->base + w->size;
	const int64_t *src = A.p;
	if (ins->op == OP_UNARY) {
		BinOp op = ins->sub == UN_NEG ? BIN_SUB : ins->sub == UN_NOT ? BIN_EQ : BIN_XOR;
		Src Z = {NULL, ins->sub == UN_BNOT ? -1 : 0};
		if (!fast_binop(op, m->tmp, Z, A, true, lo, hi, NULL, 0))
			return false;
		src = m->tmp;
	} else if (ins->op == OP_BINARY) {
		if (!fast_binop((BinOp)ins->sub, m->tmp, A, B, true, lo, hi, NULL, 0))
			return false;
		src = m->tmp;
	} else if (!src) {
		return false; /* a copy of a constant */
	}
	int64_t *d = row(m, dst);
	if (src != d)
		blend_active(d + lo, src + lo, w->active, w->nw);
	commit_marks(m, w, NULL, 0, dst);
	return true;
}

/* ---- data instructions: the exact path -------------------------------------- */

static const char *binop_text(BinOp op)
{
	return num_binop_sym(op);
}

/* Compute dst = f(lane) for every active lane in lane order into m->res,
** then commit; on a failed premise nothing is committed. */
static bool exact_compute(Machine *m, Warp *w, int32_t pc, const Ins *ins)
{
	int32_t n = sem_lane_order(m, w);
	uint64_t more = 0; /* the values beyond int64 computed so far */
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		Num a = opnd_num(m, &ins->a, t), r;
		NumErr e = NUM_OK;
		if (ins->op == OP_COPY)
			r = num_copy(a);
		else if (ins->op == OP_UNARY)
			e = num_unop((UnOp)ins->sub, a, &r);
		else
			e = num_binop((BinOp)ins->sub, a, opnd_num(m, &ins->b, t), &r);
		if (e == NUM_OK && r.z && !budget_allows(m, more += num_bytes(r))) {
			/* 10^5 threads × 10^6-bit values: stop before they all exist */
			num_free(&r);
			for (int32_t j = 0; j < k; j++)
				num_free(&m->res[j]);
			sem_memory_limit(m, pc, w->id);
			return false;
		}
		if (e != NUM_OK) {
			for (int32_t j = 0; j < k; j++)
				num_free(&m->res[j]);
			Buf b = {0}; /* the operands, a million bits each at worst: their sizes */
			num_buf_brief(&b, a, NUM_BRIEF_DIGITS);
			if (ins->op == OP_BINARY) {
				buf_printf(&b, " %s ", binop_text((BinOp)ins->sub));
				num_buf_brief(&b, opnd_num(m, &ins->b, t), NUM_BRIEF_DIGITS);
			}
			char *what = buf_steal(&b);
			sem_error(m, SEM_STUCK, "BP", pc, w->id, &t, 1, "%s in thread %d (%s)", num_err_msg(e),
			          t, what);
			free(what);
			return false;
		}
		m->res[k] = r;
	}
	for (int32_t k = 0; k < n; k++)
		sem_set_lane(m, ins->dst, m->order[k], m->res[k]);
	return true;
}

/* CT / AS / BP and the unary operators. */
static bool exec_arith(Machine *m, Warp *w, int32_t pc, const Ins *ins)
{
	if (!sem_check_read(m, w, pc, &ins->a))
		return false;
	if (ins->op == OP_BINARY && !sem_check_read(m, w, pc, &ins->b))
		return false;
	Src A, B = {NULL, 0};
	if (src_of(m, &ins->a, &A) && (ins->op != OP_BINARY || src_of(m, &ins->b, &B))) {
		if (span_arith(m, w, ins, A, B))
			return true;
		int32_t n;
		const int32_t *idx = sem_active_list(m, w, &n);
		bool dense = n == w->size;
		int32_t lo = w->base, hi = w->base + w->size;
		int64_t *d = row(m, ins->dst);
		bool alias = (ins->a.kind == OPND_VAR && ins->a.var == ins->dst) ||
		             (ins->b.kind == OPND_VAR && ins->b.var == ins->dst);
		bool watched = ins->dst == m->watch_var; /* commit_fast compares the old row */
		if (ins->op == OP_COPY) {
			int64_t *out = watched ? m->tmp : d;
			if (A.p) {
				if (A.p != out) {
					if (dense)
						memcpy(out + lo, A.p + lo, (size_t)w->size * sizeof *out);
					else
						for (int32_t k = 0; k < n; k++)
							out[idx[k]] = A.p[idx[k]];
				}
			} else {
				for (int32_t k = 0; k < n; k++)
					out[idx[k]] = A.k;
			}
			commit_fast(m, w, ins->dst, out);
			return true;
		}
		if (ins->op == OP_UNARY) {
			/* as a binary operation with a constant: -a = 0 - a,
			** !a = (0 == a), ~a = -1 ^ a */
			BinOp op = ins->sub == UN_NEG ? BIN_SUB : ins->sub == UN_NOT ? BIN_EQ : BIN_XOR;
			Src Z = {NULL, ins->sub == UN_BNOT ? -1 : 0};
			int64_t *out = alias || watched ? m->tmp : d;
			if (fast_binop(op, out, Z, A, dense, lo, hi, idx, n)) {
				commit_fast(m, w, ins->dst, out);
				return true;
			}
		} else {
			BinOp op = (BinOp)ins->sub;
			bool may_fail = op == BIN_DIV || op == BIN_MOD || op == BIN_SHL || op == BIN_SHR;
			/* an operator that never sends a lane to the exact path may
			** overwrite its own operand (each lane reads before it writes) */
			bool exact_always = op == BIN_AND || op == BIN_OR || op == BIN_XOR ||
			                    (op >= BIN_LT && op <= BIN_NE) || op == BIN_LAND || op == BIN_LOR ||
			                    op == BIN_MIN || op == BIN_MAX;
			/* by a literal that cannot fail them: a shift right by b >= 0, a
			** division or remainder by b other than 0 and -1 */
			exact_always |= !B.p && ((op == BIN_SHR && B.k >= 0) ||
			                         ((op == BIN_DIV || op == BIN_MOD) && B.k != 0 && B.k != -1));
			int64_t *out = ((alias || may_fail) && !exact_always) || watched ? m->tmp : d;
			if (fast_binop(op, out, A, B, dense, lo, hi, idx, n)) {
				commit_fast(m, w, ins->dst, out);
				return true;
			}
		}
	}
	return exact_compute(m, w, pc, ins);
}

/* An address operand in thread t: a natural number that fits int64. */
static bool lane_addr(Machine *m, Warp *w, int32_t pc, const char *rule, const char *what, Num a,
                      int32_t t, int64_t *out)
{
	if (a.z || a.i < 0) {
		char *s = num_str(a);
		sem_error(m, SEM_STUCK, rule, pc, w->id, &t, 1, "%s address %s in thread %d is %s", what, s,
		          t, (a.z && mpz_sgn(a.z) > 0) ? "too large" : "negative");
		free(s);
		return false;
	}
	*out = a.i;
	return true;
}

static bool check_cells(Machine *m, Warp *w, int32_t pc, const char *rule, uint64_t fresh)
{
	uint64_t limit = m->opt.max_cells;
	if (m->cells + fresh <= limit)
		return true;
	sem_error(m, SEM_STUCK, "limit", pc, w->id, NULL, 0,
	          "memory limit reached: more than %llu initialised cells (--max-cells); rule %s",
	          (unsigned long long)limit, rule);
	return false;
}

Mem *sem_local_mem(Machine *m, int32_t t)
{
	if (!m->local[t]) {
		m->heap_bytes += sizeof(Mem);
		m->local[t] = xcalloc(1, sizeof(Mem));
		m->local[t]->last = -1;
	}
	return m->local[t];
}

/* The addresses (operand a) and values (operand b, when given) of the n
** lanes of m->order into m->addr and m->res, when they are all int64 and
** the addresses natural numbers; false otherwise (the lane-by-lane loop
** then reports what is wrong in lane order). */
static bool gather_int64(Machine *m, int32_t n, const Opnd *a, const Opnd *b)
{
	Src A, B = {NULL, 0};
	if (!src_of(m, a, &A) || (b && !src_of(m, b, &B)))
		return false;
	int64_t sign = 0;
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		int64_t x = A.p ? A.p[t] : A.k;
		m->addr[k] = x;
		sign |= x;
		if (b)
			m->res[k] = NUM_I(B.p ? B.p[t] : B.k);
	}
	return sign >= 0;
}

/* How far p[0..r) runs on from a by one: p[j] == a + j below the result
** (at least 1: p[0] is a), compared eight at a time (vectorised). */
LANE_CLONES static size_t run_from(const int64_t *p, size_t r, uint64_t a)
{
	size_t j = 1;
	for (; j + 8 <= r; j += 8) {
		uint64_t d = 0;
		for (size_t i = 0; i < 8; i++)
			d |= ((uint64_t)p[j + i] - (j + i)) ^ a;
		if (d)
			break;
	}
	while (j < r && (uint64_t)p[j] - j == a)
		j++;
	return j;
}

/* The lanes idx[k..e) from lane k whose addresses run on from a by one
** cell each, on a's page: the cells a .. a+(e-k)-1. */
static int32_t address_run(const int64_t *addr, const int32_t *idx, int32_t k, int32_t n, int64_t a)
{
	int32_t room = MEM_PAGE_SIZE - (int32_t)(a & (MEM_PAGE_SIZE - 1));
	int32_t r = n - k < room ? n - k : room; /* the longest the run can be */
	if (!addr)
		return k + 1;
	if (idx[k + r - 1] - idx[k] == r - 1) {
		/* consecutive lanes (idx ascends): their addresses side by side,
		** compared eight at a time (a loop the compiler vectorises) */
		return k + (int32_t)run_from(addr + idx[k], (size_t)r, (uint64_t)a);
	}
	int32_t e = k + 1;
	while (e - k < r && addr[idx[e]] == a + (e - k))
		e++;
	return e;
}

/* LD of shared memory when every address is an int64 natural number and
** every cell read holds an int64: the lanes in any order (a load has no
** order), a page looked up once per run of addresses on it. False when
** some lane needs the lane-by-lane rule (nothing changed then). */
static bool fast_load(Machine *m, Warp *w, const Ins *ins)
{
	Src A;
	if (!src_of(m, &ins->a, &A))
		return false;
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	int64_t *out = m->tmp, last_key = -1;
	const MemPage *pg = NULL;
	bool zero = m->prog->memory_zero, dense = false;
	for (int32_t k = 0; k < n; k++) {
		int32_t t = idx[k];
		int64_t a = A.p ? A.p[t] : A.k;
		if (a < 0)
			return false;
		if (a >> MEM_PAGE_BITS != last_key) {
			last_key = a >> MEM_PAGE_BITS;
			pg = mem_find_dense(&m->shared, last_key, &dense);
		}
		int32_t off = (int32_t)(a & (MEM_PAGE_SIZE - 1));
		if (dense && !(A.p && k + 1 < n && A.p[idx[k + 1]] == a + 1)) {
			out[t] = pg->val[off]; /* a page of int64s: no bit to read */
			continue;
		}
		if (A.p && k + 1 < n && off + 1 < MEM_PAGE_SIZE && A.p[idx[k + 1]] == a + 1 && pg &&
		    !(m->shared.nbig && pg->big)) {
			int32_t e = address_run(A.p, idx, k, n, a);
			if (dense || bits_count_range(pg->init, off, e - k) == e - k) {
				/* a run of consecutive cells that all hold int64s */
				if (idx[e - 1] - idx[k] == e - 1 - k) /* of consecutive lanes */
					memcpy(out + idx[k], pg->val + off, (size_t)(e - k) * sizeof *out);
				else
					for (int32_t j = k; j < e; j++)
						out[idx[j]] = pg->val[off + (j - k)];
				k = e - 1;
				continue;
			}
		}
		if (!pg || !bit_get(pg->init, off)) {
			if (!zero)
				return false;
			out[t] = 0;
		} else if (mem_big_at(&m->shared, pg, off)) {
			return false;
		} else {
			out[t] = pg->val[off];
		}
	}
	commit_fast(m, w, ins->dst, out);
	return true;
}

/* LD (shared) and the local-memory load. */
static bool exec_load(Machine *m, Warp *w, int32_t pc, const Ins *ins, bool local)
{
	if (!sem_check_read(m, w, pc, &ins->a))
		return false;
	if (!local && fast_load(m, w, ins))
		return true;
	int32_t n = sem_lane_order(m, w);
	uint64_t more = 0; /* the copies of values beyond int64 */
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		int64_t addr;
		Num v;
		bool ok = lane_addr(m, w, pc, "LD", local ? "local load" : "load", opnd_num(m, &ins->a, t),
		                    t, &addr);
		if (ok && !mem_get(local ? (m->local[t] ? m->local[t] : &(Mem){.last = -1}) : &m->shared,
		                   addr, &v)) {
			if (m->prog->memory_zero) {
				v = NUM_I(0);
			} else {
				sem_error(m, SEM_STUCK, "MM", pc, w->id, &t, 1,
				          "%s cell %lld is read in thread %d before it is initialised",
				          local ? "local" : "shared", (long long)addr, t);
				ok = false;
			}
		}
		if (ok && v.z && !budget_allows(m, more += num_bytes(v))) {
			sem_memory_limit(m, pc, w->id);
			ok = false;
		}
		if (!ok) {
			for (int32_t j = 0; j < k; j++)
				num_free(&m->res[j]);
			return false;
		}
		m->res[k] = num_copy(v);
	}
	for (int32_t k = 0; k < n; k++)
		sem_set_lane(m, ins->dst, m->order[k], m->res[k]);
	return true;
}

/* Race report: two PEs of one instruction storing different values to one
** cell (semantics.md §3). Uses an open-addressing table over the addresses. */
/* Memory accounting: the heap bytes of a race report. */
static uint64_t race_bytes(const Race *r)
{
	uint64_t b = sizeof *r + (uint64_t)r->n * (sizeof(int32_t) + sizeof(Num));
	for (int32_t i = 0; i < r->n; i++)
		b += num_bytes(r->values[i]);
	return b;
}


/* The open-addressing table of lanes by address of chain_cells and
** fast_scatter_store (Machine.hslot), emptied, with room for n lanes at
** most half full; its mask. */
static uint32_t lane_table(Machine *m, int32_t n)
{
	int32_t need = 16;
	while (need < 2 * n)
		need *= 2;
	if (m->nhslot < need) {
		free(m->hslot);
		m->hslot = xmalloc((size_t)need * sizeof *m->hslot);
		m->nhslot = need;
	}
	memset(m->hslot, 0xff, (size_t)need * sizeof *m->hslot); /* -1: empty */
	return (uint32_t)need - 1;
}

/* Chain the n lanes of m->order by the cell they address (m->addr), with
** an open-addressing table over the addresses: next[k] is the next lane
** (in lane order) on k's cell, or -1 (first_on_cell tells the first lane
** of each cell). Scratch of the machine
** (hslot, chain): nothing is allocated once it has grown. Returns whether
** two lanes share a cell. */
static bool chain_cells(Machine *m, int32_t n, int32_t **nextp)
{
	if (!m->chain)
		m->chain = xmalloc(2 * (size_t)m->nthreads * sizeof *m->chain);
	int32_t *next = m->chain, *lastk = m->chain + m->nthreads;
	*nextp = next;
	/* address runs: addresses that only grow (or only shrink) in lane order
	** are distinct; affine stores need no table */
	bool up = true, down = true;
	for (int32_t k = 1; k < n && (up || down); k++) {
		up &= m->addr[k] > m->addr[k - 1];
		down &= m->addr[k] < m->addr[k - 1];
	}
	if (up || down) {
		for (int32_t k = 0; k < n; k++) {
			next[k] = -1;
			lastk[k] = k;
		}
		return false;
	}
	uint32_t mask = lane_table(m, n);
	bool shared = false;
	for (int32_t k = 0; k < n; k++) {
		next[k] = -1;
		uint32_t h = mem_hash(m->addr[k]) & mask;
		while (m->hslot[h] >= 0 && m->addr[m->hslot[h]] != m->addr[k])
			h = (h + 1) & mask;
		if (m->hslot[h] < 0) {
			m->hslot[h] = k;
			lastk[k] = k;
		} else {
			int32_t f = m->hslot[h];
			next[lastk[f]] = k;
			lastk[f] = k;
			lastk[k] = -1; /* not the first on its cell */
			shared = true;
		}
	}
	return shared;
}

/* Whether lane k of the last chain_cells is the first on its cell (the
** first lanes keep their cell's last lane, the others -1). */
static bool first_on_cell(const Machine *m, int32_t k)
{
	return m->chain[m->nthreads + k] >= 0;
}

/* Takes back the race reports after the first `keep`. */
static void drop_races(Machine *m, int32_t keep)
{
	while (m->nraces > keep) {
		Race *r = &m->races[--m->nraces];
		m->heap_bytes -= race_bytes(r);
		sem_race_free(r);
	}
}

/* Returns false, with the reports of this store taken back, when they
** would not fit the memory budget. */
static bool find_races(Machine *m, Warp *w, int32_t pc, int32_t n)
{
	int32_t before = m->nraces;
	bool fits = true;
	int32_t *next;
	if (!chain_cells(m, n, &next))
		return true; /* every lane on a cell of its own */
	for (int32_t k = 0; k < n; k++) {
		if (next[k] < 0 || !first_on_cell(m, k))
			continue;
		bool differ = false;
		int32_t cnt = 0;
		for (int32_t j = k; j >= 0; j = next[j]) {
			cnt++;
			differ |= !num_eq(m->res[j], m->res[k]);
		}
		if (!differ)
			continue;
		Race r = {m->addr[k], pc, w->id, cnt, xmalloc((size_t)cnt * sizeof(int32_t)),
		          xmalloc((size_t)cnt * sizeof(Num))};
		int32_t c = 0;
		for (int32_t j = k; j >= 0; j = next[j]) {
			r.threads[c] = m->order[j];
			r.values[c] = num_copy(m->res[j]);
			c++;
		}
		if (!budget_allows(m, race_bytes(&r))) {
			sem_race_free(&r);
			fits = false;
			break;
		}
		m->heap_bytes += race_bytes(&r);
		VEC_PUSH(m->races, m->nraces, m->capraces, r);
	}
	if (!fits)
		drop_races(m, before);
	return fits;
}

static int key_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Before a store by the n lanes of m->order to the addresses m->addr, in
** one pass: the page of each lane's cell (m->cellpage, NULL when absent:
** the write needs no second lookup), the lanes whose cell is not
** initialised (returned; a cell two
** lanes store to counts twice), and, for the memory accounting, the bytes
** the store would allocate in *bytes: new pages, each once however many
** lanes store into it, tables of big values, and the copies of the values
** in m->res when with_values. Local memory: each lane has its own. */
static uint64_t store_plan(Machine *m, int32_t n, bool local, bool with_values, uint64_t *bytes)
{
	uint64_t fresh = 0, more = 0;
	int32_t nnew = 0; /* keys of absent shared pages, in m->tmp */
	int64_t last_big = -1, last_key = -1;
	const MemPage *last_pg = NULL; /* address runs: a page looked up once per run */
	bool dense = false;            /* last_pg's cells are all initialised (mem_dense) */
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		const Mem *mm = local ? m->local[t] : &m->shared;
		int64_t key = m->addr[k] >> MEM_PAGE_BITS;
		const MemPage *pg = last_pg;
		if (local || key != last_key) {
			if (local)
				pg = mm ? mem_find(mm, key) : NULL; /* (no page cache: dense stays false) */
			else
				pg = mem_find_dense(mm, key, &dense);
			last_pg = pg;
			last_key = key;
		}
		m->cellpage[k] = (MemPage *)pg;
		if (!dense) { /* (a page of int64s has no fresh cell and exists) */
			fresh += !(pg && bit_get(pg->init, (int32_t)(m->addr[k] & (MEM_PAGE_SIZE - 1))));
			if (local && !mm)
				more += sizeof(Mem);
			if (!pg && local)
				more += PAGE_BYTES;
			else if (!pg && (nnew == 0 || m->tmp[nnew - 1] != key)) /* neighbours share pages */
				m->tmp[nnew++] = key;
		}
		if (with_values && m->res[k].z) {
			more += num_bytes(m->res[k]);
			if (!(pg && pg->big) && key != last_big)
				more += PAGE_BIG_BYTES;
			last_big = key;
		}
	}
	if (nnew > 1) {
		qsort(m->tmp, (size_t)nnew, sizeof *m->tmp, key_cmp);
		int32_t j = 1;
		for (int32_t i = 1; i < nnew; i++)
			if (m->tmp[i] != m->tmp[j - 1])
				m->tmp[j++] = m->tmp[i];
		nnew = j;
	}
	*bytes = more + (uint64_t)nnew * PAGE_BYTES;
	return fresh;
}

/* store_plan's case when every lane's cell is on a page of int64s whose
** cells are all initialised (mem_dense): the pages in m->cellpage, and
** true; false (m->cellpage partly written) otherwise. Apart from
** store_plan because its loop is a third of store_plan's: histogram.simd's
** atomics run 9% faster with it. */
static bool dense_plan(Machine *m, int32_t n)
{
	int64_t last_key = -1;
	MemPage *pg = NULL;
	for (int32_t k = 0; k < n; k++) {
		int64_t key = m->addr[k] >> MEM_PAGE_BITS;
		if (key != last_key) {
			last_key = key;
			if (!(pg = mem_dense(&m->shared, key)))
				return false;
		}
		m->cellpage[k] = pg;
	}
	return true;
}

/* ---- the order of the lanes (rule TL; explore.md §1) ------------------------------------
** Rule TL runs the active PEs of a store or an atomic one after another in
** some order; `run` fixes it (--lane-order). Under explore --atomic-order
** any (SemOptions.atomic_any) the order is a choice of which only the
** distinct outcomes count. Lanes on different cells commute, so an outcome
** is one per cell that two lanes or more address: for a store, the value
** that stays in it (the last writer's: each distinct value once), for an
** atomic, each lane's result and the cell's final value (every order of
** its lanes is simulated and an order whose outcome was seen before is
** dropped: the losers of a failing atomcas collapse). Outcome 0 is the
** lane order itself; a step's outcomes are numbered in mixed radix over its
** cells, in lane order, the first cell's varying fastest; Machine.lane_choice
** (sem_step_group) picks one, and the lanes of each cell then take that
** cell's positions in the lane order in the outcome's order. The plan is
** kept (Machine.lane_orders) for the next steps from the same state, which
** try the step's other outcomes (the explorer). */

/* One lane's turn at an atomic (rule AT and the extensions) on a cell that
** holds old: thread t's result *r and, unless a failing atomcas writes
** nothing (*writes false), the cell's new value *nv; both owned. Nothing is
** allocated when it fails (a value beyond --max-bits). */
static NumErr atomic_lane(const Machine *m, const Ins *ins, int32_t t, Num old, Num *r, Num *nv, bool *writes)
{
	*writes = true;
	switch (ins->op) {
	case OP_ATOMINC: { /* rule AT: v and Σ(vx) := Σ(vx) + 1 */
		NumErr e = num_binop(BIN_ADD, old, NUM_I(1), nv);
		if (e == NUM_OK)
			*r = num_copy(*nv);
		return e;
	}
	case OP_ATOMADD: {
		NumErr e = num_binop(BIN_ADD, old, opnd_num(m, &ins->b, t), nv);
		if (e == NUM_OK)
			*r = num_copy(old);
		return e;
	}
	case OP_ATOMCAS:
		*r = num_copy(old);
		*writes = num_eq(old, opnd_num(m, &ins->b, t));
		*nv = *writes ? num_copy(opnd_num(m, &ins->c, t)) : NUM_I(0);
		return NUM_OK;
	default: /* OP_ATOMEXCH */
		*r = num_copy(old);
		*nv = num_copy(opnd_num(m, &ins->b, t));
		return NUM_OK;
	}
}

struct LaneOrders {
	Buf key, next_key;  /* the inputs the plan was made for (plan_key); scratch */
	int32_t cap;        /* lanes the arrays hold */
	int32_t ncells;     /* the cells two lanes or more address */
	int32_t *cstart;    /* cell c's lanes: positions in the lane order lane[cstart[c] .. cstart[c + 1]) */
	int32_t *lane;
	int32_t *nout;      /* per cell: its distinct outcomes */
	int64_t *ostart;    /* per cell: its outcomes from perm[ostart[c]] on: for a store, one
	                    ** entry each, the lane that stores last; for an atomic, an
	                    ** order of its lanes (indexes into them) each */
	int32_t *perm;
	int64_t nperm, capperm;
	int32_t norders;    /* the product of nout, 0: too many */
};

void sem_lane_orders_free(struct LaneOrders *lo)
{
	if (!lo)
		return;
	buf_free(&lo->key);
	buf_free(&lo->next_key);
	free(lo->cstart);
	free(lo->lane);
	free(lo->nout);
	free(lo->ostart);
	free(lo->perm);
	free(lo);
}

bool sem_order_matters(const Machine *m, const Warp *w)
{
	if (w->pc < 0 || w->pc >= m->prog->nins)
		return false;
	Op op = (Op)m->prog->ins[w->pc].op;
	return op == OP_STORE || ir_is_atomic(op);
}

void sem_no_such_order(Machine *m, Warp *w, int32_t pc, int32_t norders)
{
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	if (norders <= 1)
		sem_error(m, SEM_STUCK, "TL", pc, w->id, idx, n,
		          "the schedule asks for lane order %d of an instruction whose lanes' order makes no "
		          "difference (it has lane order 0 only)",
		          m->lane_choice);
	else
		sem_error(m, SEM_STUCK, "TL", pc, w->id, idx, n,
		          "the schedule asks for lane order %d of an instruction whose lanes' orders have %d "
		          "distinct outcomes (0 to %d)",
		          m->lane_choice, norders, norders - 1);
}

static void key_num(Buf *b, Num v)
{
	if (v.z) {
		buf_putc(b, 1);
		num_buf(b, v);
		buf_putc(b, 0);
	} else {
		buf_putc(b, 0);
		buf_putn(b, (const char *)&v.i, sizeof v.i);
	}
}

/* What the outcomes of the n lanes of m->order at ins depend on: per lane
** its thread, cell and value (a store) or operands and the cell's value (an
** atomic). */
static void plan_key(const Machine *m, Buf *b, int32_t pc, const Ins *ins, int32_t n, bool store)
{
	buf_reset(b);
	buf_putn(b, (const char *)&pc, sizeof pc);
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		buf_putn(b, (const char *)&t, sizeof t);
		buf_putn(b, (const char *)&m->addr[k], sizeof m->addr[k]);
		if (store) {
			key_num(b, m->res[k]);
			continue;
		}
		Num old;
		key_num(b, opnd_num(m, &ins->b, t));
		key_num(b, opnd_num(m, &ins->c, t));
		key_num(b, mem_get(&m->shared, m->addr[k], &old) ? old : NUM_I(0));
	}
}

static void push_perm(struct LaneOrders *lo, const int32_t *p, int32_t len)
{
	for (int32_t i = 0; i < len; i++)
		VEC_PUSH(lo->perm, lo->nperm, lo->capperm, p[i]);
}

/* The distinct outcomes of a cell seen so far, by their keys (key_num
** bytes), found by hash. */
typedef struct OutcomeSet {
	Buf arena;      /* outcome i's key: arena[off[i] .. off[i + 1]) */
	size_t *off;
	int32_t *table; /* outcome ids, -1: empty; tcap a power of two */
	int32_t n, tcap;
} OutcomeSet;

/* A set for at most max outcomes. */
static void set_init(OutcomeSet *o, int32_t max)
{
	o->arena = (Buf){0};
	o->n = 0;
	o->tcap = 4;
	while (o->tcap < 2 * max)
		o->tcap *= 2;
	o->table = xmalloc((size_t)o->tcap * sizeof *o->table);
	for (int32_t i = 0; i < o->tcap; i++)
		o->table[i] = -1;
	o->off = xmalloc(((size_t)max + 1) * sizeof *o->off);
	o->off[0] = 0;
}

/* Adds the outcome of key; false when it was there already. */
static bool set_add(OutcomeSet *o, const Buf *key)
{
	uint32_t mask = (uint32_t)o->tcap - 1, h = (uint32_t)sem_hash_bytes(key->s, key->len) & mask;
	for (; o->table[h] >= 0; h = (h + 1) & mask) {
		int32_t i = o->table[h];
		if (o->off[i + 1] - o->off[i] == key->len && !memcmp(o->arena.s + o->off[i], key->s, key->len))
			return false;
	}
	o->table[h] = o->n++;
	buf_putn(&o->arena, key->s, key->len);
	o->off[o->n] = o->arena.len;
	return true;
}

static void set_free(OutcomeSet *o)
{
	buf_free(&o->arena);
	free(o->off);
	free(o->table);
}

/* A store on cell c of lo: its distinct values, each kept as the last of
** the lanes that store it, from the last lane (the lane order's outcome)
** back. Returns how many, or -1 beyond SEM_MAX_ORDERS. */
static int32_t store_outcomes(const Machine *m, struct LaneOrders *lo, int32_t c)
{
	const int32_t *ln = &lo->lane[lo->cstart[c]];
	int32_t len = lo->cstart[c + 1] - lo->cstart[c];
	OutcomeSet seen;
	set_init(&seen, len < SEM_MAX_ORDERS ? len : SEM_MAX_ORDERS + 1);
	Buf key = {0};
	for (int32_t i = len - 1; i >= 0 && seen.n <= SEM_MAX_ORDERS; i--) {
		buf_reset(&key);
		key_num(&key, m->res[ln[i]]);
		if (set_add(&seen, &key))
			push_perm(lo, &i, 1);
	}
	int32_t count = seen.n <= SEM_MAX_ORDERS ? seen.n : -1;
	set_free(&seen);
	buf_free(&key);
	return count;
}

/* The next order of p[0..n) in lexicographic order; false after the last. */
static bool next_permutation(int32_t *p, int32_t n)
{
	int32_t i = n - 2;
	while (i >= 0 && p[i] > p[i + 1])
		i--;
	if (i < 0)
		return false;
	int32_t j = n - 1;
	while (p[j] < p[i])
		j--;
	int32_t t = p[i];
	p[i] = p[j];
	p[j] = t;
	for (int32_t a = i + 1, b = n - 1; a < b; a++, b--) {
		t = p[a];
		p[a] = p[b];
		p[b] = t;
	}
	return true;
}

/* An atomic on cell c of lo: every order of its lanes, from the lane order
** on, simulated; those whose outcome (each lane's result, the cell's final
** value; an order that fails, by the lanes up to the failure) is new are
** kept. Returns how many, or -1 beyond SEM_MAX_ORDER_LANES. */
static int32_t atomic_outcomes(const Machine *m, struct LaneOrders *lo, const Ins *ins, int32_t c)
{
	const int32_t *ln = &lo->lane[lo->cstart[c]];
	int32_t len = lo->cstart[c + 1] - lo->cstart[c];
	if (len > SEM_MAX_ORDER_LANES)
		return -1;
	Num old0;
	if (!mem_get(&m->shared, m->addr[ln[0]], &old0))
		old0 = NUM_I(0); /* .memory zero */
	int32_t p[SEM_MAX_ORDER_LANES], nperms = 1;
	for (int32_t i = 0; i < len; i++) {
		p[i] = i;
		nperms *= i + 1;
	}
	OutcomeSet seen;
	set_init(&seen, nperms);
	Buf key = {0};
	do {
		buf_reset(&key);
		Num r[SEM_MAX_ORDER_LANES], cur = num_copy(old0);
		int32_t i = 0;
		for (; i < len; i++) {
			Num nv;
			bool writes;
			if (atomic_lane(m, ins, m->order[ln[p[i]]], cur, &r[p[i]], &nv, &writes) != NUM_OK)
				break;
			if (writes) {
				num_free(&cur);
				cur = nv;
			}
		}
		if (i < len) { /* the order gets stuck at its lane i */
			buf_putc(&key, 2);
			buf_putn(&key, (const char *)p, (size_t)(i + 1) * sizeof *p);
			for (int32_t j = 0; j < i; j++)
				num_free(&r[p[j]]);
		} else {
			for (int32_t j = 0; j < len; j++) {
				key_num(&key, r[j]);
				num_free(&r[j]);
			}
			key_num(&key, cur);
		}
		num_free(&cur);
		if (set_add(&seen, &key))
			push_perm(lo, p, len);
	} while (next_permutation(p, len));
	int32_t count = seen.n;
	set_free(&seen);
	buf_free(&key);
	return count;
}

/* The plan of the n lanes of m->order at ins: their cells (addresses in
** m->addr) and each cell's outcomes. */
static void make_plan(Machine *m, struct LaneOrders *lo, const Ins *ins, int32_t n, bool store)
{
	if (lo->cap < n) {
		lo->cap = n;
		lo->cstart = xrealloc(lo->cstart, ((size_t)n + 1) * sizeof *lo->cstart);
		lo->lane = xrealloc(lo->lane, (size_t)n * sizeof *lo->lane);
		lo->nout = xrealloc(lo->nout, (size_t)n * sizeof *lo->nout);
		lo->ostart = xrealloc(lo->ostart, (size_t)n * sizeof *lo->ostart);
	}
	int32_t *next;
	chain_cells(m, n, &next);
	lo->ncells = 0;
	lo->nperm = 0;
	int32_t nl = 0;
	int64_t product = 1;
	for (int32_t k = 0; k < n && product > 0; k++) {
		if (next[k] < 0 || !first_on_cell(m, k))
			continue; /* a cell of one lane: one outcome */
		int32_t c = lo->ncells++;
		lo->cstart[c] = nl;
		for (int32_t j = k; j >= 0; j = next[j])
			lo->lane[nl++] = j;
		lo->cstart[c + 1] = nl;
		lo->ostart[c] = lo->nperm;
		int32_t cnt = store ? store_outcomes(m, lo, c) : atomic_outcomes(m, lo, ins, c);
		lo->nout[c] = cnt;
		product = cnt < 0 || product * cnt > SEM_MAX_ORDERS ? 0 : product * cnt;
	}
	lo->norders = (int32_t)product;
}

/* The lanes of m->order (and their m->addr, a store's m->res) in the order
** of outcome `choice` of the plan lo. */
static void apply_plan(Machine *m, const struct LaneOrders *lo, int32_t choice, int32_t n, bool store)
{
	int32_t *from = xmalloc((size_t)n * sizeof *from); /* position k takes the lane of from[k] */
	for (int32_t k = 0; k < n; k++)
		from[k] = k;
	for (int32_t c = 0; c < lo->ncells; c++) {
		int32_t o = choice % lo->nout[c];
		choice /= lo->nout[c];
		if (o == 0)
			continue; /* the lane order */
		const int32_t *ln = &lo->lane[lo->cstart[c]];
		int32_t len = lo->cstart[c + 1] - lo->cstart[c];
		if (store) { /* the lane order, with lane `last` moved to the end */
			int32_t last = lo->perm[lo->ostart[c] + o];
			for (int32_t i = 0, s = 0; i < len; i++)
				if (i != last)
					from[ln[s++]] = ln[i];
			from[ln[len - 1]] = ln[last];
		} else {
			const int32_t *p = &lo->perm[lo->ostart[c] + (int64_t)o * len];
			for (int32_t i = 0; i < len; i++)
				from[ln[i]] = ln[p[i]];
		}
	}
	int32_t *order = xmalloc((size_t)n * sizeof *order);
	int64_t *addr = xmalloc((size_t)n * sizeof *addr);
	Num *res = store ? xmalloc((size_t)n * sizeof *res) : NULL;
	memcpy(order, m->order, (size_t)n * sizeof *order);
	memcpy(addr, m->addr, (size_t)n * sizeof *addr);
	if (store)
		memcpy(res, m->res, (size_t)n * sizeof *res);
	for (int32_t k = 0; k < n; k++) {
		m->order[k] = order[from[k]];
		m->addr[k] = addr[from[k]];
		if (store)
			m->res[k] = res[from[k]];
	}
	free(from);
	free(order);
	free(addr);
	free(res);
}

/* Before a store to shared memory or an atomic runs its n lanes (m->order,
** their addresses in m->addr, a store's values in m->res): under
** --atomic-order any, or when sem_step_group asked for an outcome, the
** distinct outcomes of the lanes' order (m->norders), and the lanes in the
** order of the one asked for. False (the step is stuck) when the step has
** no such outcome or too many to find it. */
static bool choose_order(Machine *m, Warp *w, int32_t pc, const Ins *ins, int32_t n, bool store)
{
	if (!m->opt.atomic_any && m->lane_choice == 0)
		return true;
	if (n < 2) { /* one order */
		if (m->lane_choice == 0)
			return true;
		sem_no_such_order(m, w, pc, 1);
		return false;
	}
	struct LaneOrders *lo = m->lane_orders;
	if (!lo)
		lo = m->lane_orders = xcalloc(1, sizeof *lo);
	plan_key(m, &lo->next_key, pc, ins, n, store);
	if (lo->key.len != lo->next_key.len || memcmp(lo->key.s, lo->next_key.s, lo->key.len)) {
		Buf t = lo->key;
		lo->key = lo->next_key;
		lo->next_key = t;
		make_plan(m, lo, ins, n, store);
	}
	m->norders = lo->norders;
	if (m->lane_choice == 0)
		return true; /* the lane order (when there are too many, the caller is told: 0) */
	if (lo->norders == 0) {
		int32_t na;
		const int32_t *idx = sem_active_list(m, w, &na);
		sem_error(m, SEM_STUCK, "limit", pc, w->id, idx, na,
		          "too many lane orders to try: more than %d lanes of an atomic on one cell, or more "
		          "than %d distinct outcomes of one step (--atomic-order any)",
		          SEM_MAX_ORDER_LANES, SEM_MAX_ORDERS);
		return false;
	}
	if (m->lane_choice >= lo->norders) {
		sem_no_such_order(m, w, pc, lo->norders);
		return false;
	}
	apply_plan(m, lo, m->lane_choice, n, store);
	return true;
}

/* Lane k, on cell a, into the lane table (lane_table: slot, mask) and
** addr[k]; false when a lane already there is on cell a. */
static inline bool lane_table_put(int32_t *slot, uint32_t mask, int64_t *addr, int32_t k, int64_t a)
{
	uint32_t h = mem_hash(a) & mask;
	for (; slot[h] >= 0; h = (h + 1) & mask)
		if (addr[slot[h]] == a)
			return false;
	slot[h] = k;
	addr[k] = a;
	return true;
}

/* fast_scatter_store's case when every cell is on a page whose cells are all
** initialised (mem_dense; no value beyond int64 anywhere): one pass that
** writes as it checks, keeping each lane's old value (m->tmp); a second lane
** on a cell, or a cell on another page, puts the old values back and leaves
** it to the two passes. No cell is fresh: no budget to ask. The lanes go
** from the last: a store usually follows a load of its cells in lane order
** (read, modify, write), whose last lines are the likeliest still cached. */
static bool scatter_store_dense(Machine *m, const int32_t *idx, int32_t n, const Src *A, const Src *B)
{
	MemPage **pgs = m->cellpage;
	int64_t *addr = m->addr, *old = m->tmp;
	uint32_t mask = lane_table(m, n);
	int32_t *slot = m->hslot;
	int32_t k = 0;
	for (; k < n; k++) {
		int32_t t = idx[n - 1 - k];
		int64_t a = A->p[t];
		MemPage *pg = a < 0 ? NULL : mem_dense(&m->shared, a >> MEM_PAGE_BITS);
		if (!pg)
			break;
		if (!lane_table_put(slot, mask, addr, k, a))
			goto undo; /* two lanes on one cell */
		pgs[k] = pg;
		int64_t *cell = &pg->val[a & (MEM_PAGE_SIZE - 1)];
		old[k] = *cell;
		*cell = B->p ? B->p[t] : B->k;
	}
	if (k == n) {
		for (k = n - 1; k >= 0 && m->effects; k--)
			sem_record_store(m, addr[k]); /* in lane order */
		return true;
	}
undo:
	while (k-- > 0)
		pgs[k]->val[addr[k] & (MEM_PAGE_SIZE - 1)] = old[k];
	return false;
}

/* fast_store's case when the addresses are in no order (a hash, a
** permutation): on pages whose cells are all set, scatter_store_dense;
** else a lane at a time, in two passes. The check pass puts each lane in
** the lane table by address (two lanes on one cell: the general rule) and
** keeps its address and page (m->addr, m->cellpage); on a page whose cells
** are all initialised (mem_dense) no bit is read or written. False, with
** nothing changed, when some lane needs the general rule. */
static bool fast_scatter_store(Machine *m, const int32_t *idx, int32_t n, const Src *A, const Src *B)
{
	if (m->shared.cache && scatter_store_dense(m, idx, n, A, B))
		return true;
	MemPage **pgs = m->cellpage, *pg = NULL;
	int64_t *addr = m->addr;
	uint32_t mask = lane_table(m, n);
	int32_t *slot = m->hslot;
	uint64_t fresh = 0;
	int64_t last_key = -1;
	bool dense = false;
	for (int32_t k = 0; k < n; k++) {
		int64_t a = A->p[idx[k]];
		if (a < 0)
			return false;
		if (a >> MEM_PAGE_BITS != last_key) {
			last_key = a >> MEM_PAGE_BITS;
			if (!(pg = mem_find_dense(&m->shared, last_key, &dense)))
				return false;
		}
		if (!lane_table_put(slot, mask, addr, k, a))
			return false; /* two lanes on one cell */
		pgs[k] = pg;
		if (!dense) {
			int32_t off = (int32_t)(a & (MEM_PAGE_SIZE - 1));
			if (mem_big_at(&m->shared, pg, off))
				return false;
			fresh += !bit_get(pg->init, off);
		}
	}
	if (fresh && (m->cells + fresh > m->opt.max_cells || !budget_allows(m, 0)))
		return false; /* the general rule reports it */
	for (int32_t k = 0; k < n; k++) {
		int32_t off = (int32_t)(addr[k] & (MEM_PAGE_SIZE - 1));
		pgs[k]->val[off] = B->p ? B->p[idx[k]] : B->k;
		if (fresh)
			bit_set(pgs[k]->init, off);
		sem_record_store(m, addr[k]);
	}
	m->cells += fresh;
	return true;
}

/* ST to shared memory in two passes (check, then write) in the case that
** leaves the rule nothing to decide: int64 addresses strictly increasing or
** decreasing over the active lanes (no two lanes on one cell: no race, no
** order to choose), int64 values, every cell on a page that holds no value
** beyond int64. Absent pages are made in lane order, as the general rule
** makes them, after the same checks (--max-cells, then the budget for the
** pages: a page per key, the keys being monotonic too), so that a first
** store to fresh memory runs here too. False when some lane needs the
** general rule below; nothing changed then. */
static bool fast_store(Machine *m, Warp *w, const Ins *ins)
{
	if (m->opt.atomic_any || m->lane_choice != 0 || m->opt.lane_order == ORDER_RANDOM)
		return false; /* a choice of order, or the random order's draws */
	Src A, B;
	if (!src_of(m, &ins->a, &A) || !src_of(m, &ins->b, &B))
		return false;
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	if (n > 1 && !A.p)
		return false; /* every lane on one cell */
	/* check, by runs of lanes on consecutive cells of one page (an affine
	** store is a few runs: its cells' bits and values a range at a time) */
	uint64_t fresh = 0, nnew = 0;
	int64_t prev = -1, last_key = -1;
	int dir = 0;
	const MemPage *pg = NULL;
	for (int32_t k = 0, e; k < n; k = e) {
		int64_t a = A.p ? A.p[idx[k]] : A.k;
		if (a < 0)
			return false;
		if (k > 0) {
			int d = (a > prev) - (a < prev);
			if (d == 0 || (dir != 0 && d != dir))
				return fast_scatter_store(m, idx, n, &A, &B);
			dir = d;
		}
		e = address_run(A.p, idx, k, n, a);
		if (e - k > 1) { /* ascending within the run */
			if (dir < 0)
				return fast_scatter_store(m, idx, n, &A, &B);
			dir = 1;
		}
		prev = a + (e - k - 1);
		if (a >> MEM_PAGE_BITS != last_key) {
			last_key = a >> MEM_PAGE_BITS;
			pg = mem_find(&m->shared, last_key);
			nnew += !pg;
		}
		if (!pg) {
			fresh += (uint64_t)(e - k);
			continue;
		}
		int32_t off = (int32_t)(a & (MEM_PAGE_SIZE - 1));
		if (m->shared.nbig && pg->big)
			for (int32_t j = off; j < off + (e - k); j++)
				if (pg->big[j])
					return false;
		fresh += (uint64_t)(e - k - bits_count_range(pg->init, off, e - k));
	}
	if (fresh && (m->cells + fresh > m->opt.max_cells || !budget_allows(m, nnew * PAGE_BYTES)))
		return false; /* the general rule reports it */
	/* write */
	MemPage *wp = NULL;
	last_key = -1;
	for (int32_t k = 0, e; k < n; k = e) {
		int64_t a = A.p ? A.p[idx[k]] : A.k;
		e = address_run(A.p, idx, k, n, a);
		if (a >> MEM_PAGE_BITS != last_key) {
			last_key = a >> MEM_PAGE_BITS;
			wp = mem_page(&m->shared, last_key, &m->heap_bytes);
		}
		int32_t off = (int32_t)(a & (MEM_PAGE_SIZE - 1));
		int64_t *cell = wp->val + off;
		if (!B.p)
			for (int32_t j = k; j < e; j++)
				cell[j - k] = B.k;
		else if (idx[e - 1] - idx[k] == e - 1 - k) /* consecutive lanes */
			memcpy(cell, B.p + idx[k], (size_t)(e - k) * sizeof *cell);
		else
			for (int32_t j = k; j < e; j++)
				cell[j - k] = B.p[idx[j]];
		bits_set_range(wp->init, off, e - k);
		if (m->effects)
			for (int32_t j = k; j < e; j++)
				sem_record_store(m, a + (j - k));
	}
	m->cells += fresh;
	return true;
}

/* ST (shared) and the local-memory store. Stores happen in lane order: with
** the fixed ascending order the highest tid's value wins a race. */
static bool exec_store(Machine *m, Warp *w, int32_t pc, const Ins *ins, bool local)
{
	if (!sem_check_read(m, w, pc, &ins->a) || !sem_check_read(m, w, pc, &ins->b))
		return false;
	if (!local && fast_store(m, w, ins))
		return true;
	int32_t n = sem_lane_order(m, w);
	bool big = false; /* some value is beyond int64 */
	if (!gather_int64(m, n, &ins->a, &ins->b)) {
		for (int32_t k = 0; k < n; k++) {
			int32_t t = m->order[k];
			if (!lane_addr(m, w, pc, "ST", local ? "local store" : "store", opnd_num(m, &ins->a, t), t,
			               &m->addr[k]))
				return false;
			m->res[k] = opnd_num(m, &ins->b, t); /* borrowed */
			big |= m->res[k].z != NULL;
		}
	}
	if (!local && !choose_order(m, w, pc, ins, n, true))
		return false;
	uint64_t bytes;
	uint64_t fresh = store_plan(m, n, local, true, &bytes);
	if (!check_cells(m, w, pc, "ST", fresh))
		return false;
	if ((fresh || big) && !budget_allows(m, bytes)) {
		sem_memory_limit(m, pc, w->id);
		return false;
	}
	int32_t races_before = m->nraces;
	if (!local && n > 1 && !find_races(m, w, pc, n)) {
		sem_memory_limit(m, pc, w->id);
		return false;
	}
	if (w == &m->cohort && m->nraces > races_before) {
		/* lanes of a cohort's warps on one cell (sem.c): the steps one by
		** one see no race between warps, so they run one by one */
		drop_races(m, races_before);
		return false;
	}
	for (int32_t k = 0; k < n; k++) {
		int64_t a = m->addr[k];
		if (!local && !big) {
			/* int64 values into Σ: in the page store_plan found, or made */
			MemPage *pg = m->cellpage[k];
			if (!pg)
				pg = mem_page(&m->shared, a >> MEM_PAGE_BITS, &m->heap_bytes);
			int32_t off = (int32_t)(a & (MEM_PAGE_SIZE - 1));
			if (!mem_big_at(&m->shared, pg, off)) {
				if (!bit_get(pg->init, off)) {
					bit_set(pg->init, off);
					m->cells++;
				}
				pg->val[off] = m->res[k].i;
				sem_record_store(m, a);
				continue;
			}
		}
		Mem *mm = local ? sem_local_mem(m, m->order[k]) : &m->shared;
		Num v = m->res[k].z ? num_copy(m->res[k]) : m->res[k];
		m->cells += mem_put(mm, a, v, &m->big_bytes, &m->heap_bytes);
		if (!local)
			sem_record_store(m, a);
	}
	if (m->opt.races_error && m->nraces > races_before) {
		Race *r = &m->races[races_before];
		sem_error(m, SEM_STUCK, "TL", pc, w->id, r->threads, r->n,
		          "data race on shared cell %lld: %d threads store different values (--races=error)",
		          (long long)r->cell, r->n);
		return true; /* the instruction happened; the run stops after it */
	}
	return true;
}

/* AT and the extended atomics: the active PEs go one after another in lane
** order, each reading what the previous one wrote. */
static bool exec_atomic(Machine *m, Warp *w, int32_t pc, const Ins *ins)
{
	if (!sem_check_read(m, w, pc, &ins->a) || !sem_check_read(m, w, pc, &ins->b) ||
	    !sem_check_read(m, w, pc, &ins->c))
		return false;
	int32_t n = sem_lane_order(m, w);
	/* premises first: addresses, and Σ(address) defined */
	bool checked = gather_int64(m, n, &ins->a, NULL);
	for (int32_t k = 0; k < n && checked && !m->prog->memory_zero; k++) {
		Num old;
		checked = mem_get(&m->shared, m->addr[k], &old);
	}
	for (int32_t k = 0; k < n && !checked; k++) { /* lane by lane, to report what fails */
		int32_t t = m->order[k];
		if (!lane_addr(m, w, pc, "AT", "atomic", opnd_num(m, &ins->a, t), t, &m->addr[k]))
			return false;
		Num old;
		if (!m->prog->memory_zero && !mem_get(&m->shared, m->addr[k], &old)) {
			sem_error(m, SEM_STUCK, "MM", pc, w->id, &t, 1,
			          "shared cell %lld is used by an atomic in thread %d before it is initialised",
			          (long long)m->addr[k], t);
			return false;
		}
	}
	if (!choose_order(m, w, pc, ins, n, false))
		return false;
	/* the cells the atomic initialises: each uninitialised cell once (only
	** .memory zero has them; store_plan counts a cell once per lane) */
	uint64_t bytes = 0, fresh = 0;
	bool dense = dense_plan(m, n); /* every cell initialised, nothing to allocate */
	if (!dense)
		fresh = store_plan(m, n, false, false, &bytes);
	if (fresh) {
		int32_t *next;
		chain_cells(m, n, &next);
		fresh = 0;
		for (int32_t k = 0; k < n; k++) {
			Num old;
			fresh += first_on_cell(m, k) && !mem_get(&m->shared, m->addr[k], &old);
		}
	}
	if (!check_cells(m, w, pc, "AT", fresh))
		return false;
	if (fresh && !budget_allows(m, bytes)) {
		sem_memory_limit(m, pc, w->id);
		return false;
	}
	uint64_t more = 0; /* values beyond int64 (checked as they come, like --max-bits) */
	bool small = true;  /* every result fits int64: they go to m->tmp */
	Src B = {NULL, 0};
	bool add64 = ins->op == OP_ATOMINC || (ins->op == OP_ATOMADD && src_of(m, &ins->b, &B));
	if (ins->op == OP_ATOMINC)
		B.k = 1;
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		Num old, nv, r;
		if (add64) {
			/* AT and atomadd on int64, in the cell: the page store_plan
			** found, or made (an add always writes, so the page is needed) */
			MemPage *pg = m->cellpage[k];
			if (!pg)
				pg = mem_page(&m->shared, m->addr[k] >> MEM_PAGE_BITS, &m->heap_bytes);
			int32_t off = (int32_t)(m->addr[k] & (MEM_PAGE_SIZE - 1));
			bool init = dense || bit_get(pg->init, off);
			int64_t sum, o = init ? pg->val[off] : 0;
			if (!mem_big_at(&m->shared, pg, off) && !__builtin_add_overflow(o, B.p ? B.p[t] : B.k, &sum)) {
				pg->val[off] = sum;
				if (!init) {
					bit_set(pg->init, off);
					m->cells++;
				}
				sem_record_store(m, m->addr[k]);
				if (small) {
					m->tmp[t] = ins->op == OP_ATOMINC ? sum : o;
				} else {
					m->res[k] = NUM_I(ins->op == OP_ATOMINC ? sum : o);
				}
				continue;
			}
		}
		if (!mem_get(&m->shared, m->addr[k], &old))
			old = NUM_I(0); /* .memory zero */
		bool writes = true;
		NumErr e = atomic_lane(m, ins, t, old, &r, &nv, &writes);
		if (e != NUM_OK) {
			/* only a value beyond --max-bits gets here; earlier lanes have
			** run: report it, the state is as far as the atomic got */
			sem_error(m, SEM_STUCK, "AT", pc, w->id, &t, 1, "%s in thread %d", num_err_msg(e), t);
			for (int32_t j = 0; j < k && !small; j++)
				num_free(&m->res[j]);
			return false;
		}
		if ((nv.z || r.z) && !budget_allows(m, more += num_bytes(nv) + num_bytes(r))) {
			num_free(&nv);
			num_free(&r);
			sem_memory_limit(m, pc, w->id);
			for (int32_t j = 0; j < k && !small; j++)
				num_free(&m->res[j]);
			return false;
		}
		if (writes) { /* a failed atomcas writes nothing */
			m->cells += mem_put(&m->shared, m->addr[k], nv, &m->big_bytes, &m->heap_bytes);
			sem_record_store(m, m->addr[k]);
		}
		if (small && r.z) { /* from here on the results are kept as Nums */
			small = false;
			for (int32_t j = 0; j < k; j++)
				m->res[j] = NUM_I(m->tmp[m->order[j]]);
		}
		if (small)
			m->tmp[t] = r.i;
		else
			m->res[k] = r;
	}
	if (small) {
		commit_fast(m, w, ins->dst, m->tmp);
		return true;
	}
	for (int32_t k = 0; k < n; k++)
		sem_set_lane(m, ins->dst, m->order[k], m->res[k]);
	return true;
}

/* ---- GSA (semantics.md §4) ---------------------------------------------------- */

/* The operand GSA instruction ins (in block blk) copies in thread t:
** γ(p, o1, o2) o1 where p ≠ 0, else o2 (p itself when it is unassigned:
** the read that fails); η its value; μ/φ the operand of the edge t came by.
** NULL when t came by an edge the φ has no operand for. */
const Opnd *sem_gsa_operand(const Machine *m, const Ins *ins, int32_t blk, int32_t t)
{
	switch (ins->op) {
	case OP_GAMMA: {
		/* down the tree of nested γs: each node reads its predicate only
		** when the path of this PE reaches it (Tu & Padua's gate) */
		const Opnd *node = NULL;
		for (;;) {
			const Opnd *p = ir_gate_pred(ins, node);
			if (p->kind == OPND_VAR && !defrow(m, p->var)[t])
				return p;
			const Opnd *sel = ir_gate_side(ins, node, !num_is_zero(opnd_num(m, p, t)));
			if (sel->kind != OPND_GATE)
				return sel;
			node = sel;
		}
	}
	case OP_ETA: return &ins->b;
	case OP_MU:
	case OP_PHI: {
		int32_t from = m->from_block[t];
		int32_t ix = ins->op == OP_MU ? (from < 0 ? 0 : cfg_mu_index(m->cfg, blk, from))
		                              : (from < 0 ? -1 : cfg_phi_index(m->cfg, blk, from));
		return ix >= 0 && ix < ins->nargs ? &ins->args[ix] : NULL;
	}
	default: return NULL;
	}
}

/* The GSA instructions at the start of the block of pc run as one parallel
** copy (Appel): every PE computes every selected operand first, then all
** destinations are written. Operands are read lazily: γ reads its predicate
** and the chosen operand, μ and φ the operand of the edge the PE came by. */
/* The machine's scratch for a GSA group of count instructions over n lanes
** (Machine.gsa_scratch): grown, never shrunk, so a step allocates nothing. */
static void *gsa_scratch(Machine *m, int32_t count, int32_t n)
{
	size_t need = (size_t)count * (size_t)(n ? n : 1) * (sizeof(Num) + sizeof(bool));
	if (m->gsa_cap < need) {
		free(m->gsa_scratch);
		m->gsa_scratch = xmalloc(need);
		m->gsa_cap = need;
	}
	return m->gsa_scratch;
}

/* The definedness row of operand o, or NULL (a literal or special: always). */
static const uint8_t *def_of(const Machine *m, const Opnd *o)
{
	return o->kind == OPND_VAR ? defrow(m, o->var) : NULL;
}

/* gamma_row_int64 over consecutive lanes whose three operands are rows:
** branch-free (vectorised); false when a lane reads an unassigned value. */
LANE_CLONES static bool gamma_lanes(const int64_t *p, const int64_t *b, const int64_t *c, const uint8_t *pd,
                                    const uint8_t *bd, const uint8_t *cd, size_t n, int64_t *out)
{
	uint8_t ok = 1;
	for (size_t i = 0; i < n; i++) {
		bool one = p[i] != 0;
		ok &= pd[i] & (one ? bd[i] : cd[i]);
		out[i] = one ? b[i] : c[i];
	}
	return ok;
}

/* Whether every byte of d[0..n) is 1 (a definedness row; vectorised). */
LANE_CLONES static bool all_ones(const uint8_t *d, size_t n)
{
	uint8_t ok = 1;
	for (size_t i = 0; i < n; i++)
		ok &= d[i];
	return ok;
}

/* γ(p, o1, o2) without nested gates over the active lanes idx[0..n), when
** p and the operand each lane selects are assigned int64s: the values into
** out. False when a lane needs the general rule (a big value, an
** unassigned predicate or operand). */
static bool gamma_row_int64(const Machine *m, const Ins *ins, const int32_t *idx, int32_t n,
                            int64_t *out)
{
	Src P, B, C;
	if (!src_of(m, &ins->a, &P) || !src_of(m, &ins->b, &B) || !src_of(m, &ins->c, &C))
		return false;
	const uint8_t *pd = def_of(m, &ins->a), *bd = def_of(m, &ins->b), *cd = def_of(m, &ins->c);
	if (n > 0 && idx[n - 1] - idx[0] == n - 1 && P.p && B.p && C.p && pd && bd && cd) {
		size_t t = (size_t)idx[0]; /* consecutive lanes */
		return gamma_lanes(P.p + t, B.p + t, C.p + t, pd + t, bd + t, cd + t, (size_t)n, out);
	}
	for (int32_t k = 0; k < n; k++) {
		int32_t t = idx[k];
		if (pd && !pd[t])
			return false;
		bool one = (P.p ? P.p[t] : P.k) != 0;
		const uint8_t *d = one ? bd : cd;
		if (d && !d[t])
			return false;
		const Src *S = one ? &B : &C;
		out[k] = S->p ? S->p[t] : S->k;
	}
	return true;
}

/* The GSA group when every operand it copies is an assigned int64: per
** instruction a row of values (the active lanes', ascending), then every
** destination written (the parallel copy); a μ or φ looks its operand up
** once per run of lanes that came by the same edge. False when some lane
** needs the general rule below (nothing changed then). */
static bool gsa_group_int64(Machine *m, Warp *w, int32_t pc, int32_t count)
{
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	int64_t *val = gsa_scratch(m, count, n);
	int32_t blk = m->cfg->block_of[pc];
	for (int32_t j = 0; j < count; j++) {
		const Ins *ins = &m->prog->ins[pc + j];
		if (ins->op == OP_GAMMA && ins->nargs == 0) {
			if (!gamma_row_int64(m, ins, idx, n, val + (size_t)j * (size_t)n))
				return false;
			continue;
		}
		bool by_edge = ins->op == OP_MU || ins->op == OP_PHI;
		int64_t *out = val + (size_t)j * (size_t)n;
		/* by runs of lanes that select one operand (a μ's or φ's lanes
		** that came by one edge, an η's lanes; a nested γ's lane by lane):
		** its row, and its definedness row while some thread has not
		** assigned it */
		for (int32_t k = 0; k < n;) {
			int32_t from = m->from_block[idx[k]], end = k + 1;
			if (by_edge)
				while (end < n && m->from_block[idx[end]] == from)
					end++;
			else if (ins->op == OP_ETA)
				end = n; /* one operand for every lane */
			const Opnd *sel = sem_gsa_operand(m, ins, blk, idx[k]);
			Src S;
			if (!sel || !src_of(m, sel, &S))
				return false;
			const uint8_t *df = sel->kind == OPND_VAR && !sem_all_defined(m, w, sel->var) ? defrow(m, sel->var) : NULL;
			if (S.p && idx[end - 1] - idx[k] == end - 1 - k) { /* consecutive lanes */
				if (df && !all_ones(df + idx[k], (size_t)(end - k)))
					return false;
				memcpy(out + k, S.p + idx[k], (size_t)(end - k) * sizeof *out);
				k = end;
				continue;
			}
			for (; k < end; k++) {
				int32_t t = idx[k];
				if (df && !df[t])
					return false;
				out[k] = S.p ? S.p[t] : S.k;
			}
		}
	}
	for (int32_t j = 0; j < count; j++)
		commit_values(m, w, m->prog->ins[pc + j].dst, val + (size_t)j * (size_t)n, true);
	return true;
}

/* γ(p, b, c) over n consecutive lanes (operands as rows or constants). */
LANE_CLONES static void gamma_span(Src P, Src B, Src C, size_t n, int64_t *out)
{
	for (size_t i = 0; i < n; i++) {
		int64_t p = P.p ? P.p[i] : P.k, b = B.p ? B.p[i] : B.k, c = C.p ? C.p[i] : C.k;
		out[i] = p != 0 ? b : c;
	}
}

/* The lanes of a word of 64 whose int32 is v. */
LANE_CLONES static uint64_t equal_lanes64(const int32_t *x, int32_t v)
{
	uint8_t z[64];
	for (int32_t b = 0; b < 64; b++)
		z[b] = x[b] == v;
	return pack_bytes64(z);
}

/* Whether operand o is assigned in the lanes of sel (defined_in's). */
static bool assigned_in(const Machine *m, const Opnd *o, const uint64_t *sel, int32_t nw, int32_t base)
{
	return o->kind != OPND_VAR || defined_in(m, o->var, sel, nw, base);
}

/* Src of o shifted to the warp's first lane. */
static bool src_at(const Machine *m, const Opnd *o, int32_t base, Src *s)
{
	if (!src_of(m, o, s))
		return false;
	if (s->p)
		s->p += base;
	return true;
}

/* The GSA group over every lane of a warp of 32 lanes or more (a quarter or
** more of them active) by mask: per instruction a row over the warp's lanes
** (γ by a select the vector unit runs, η and a μ or φ a copy of the one
** operand every active lane selects), definedness checked by words, then
** every destination takes its active lanes' values (the parallel copy). No
** list of lanes is made. False, nothing changed, when some lane needs the
** lane-by-lane rules: a nested γ, a value beyond int64, an unassigned
** predicate or selected operand, active lanes of a μ or φ that came by
** different edges. */
static bool gsa_group_span(Machine *m, Warp *w, int32_t pc, int32_t count)
{
	int32_t size = w->size, nw = w->nw, lo = w->base;
	if (size < 32)
		return false;
	int32_t n = sem_active_count(w);
	if (n == 0 || n * 4 < size)
		return false;
	const uint64_t *act = w->active;
	int32_t blk = m->cfg->block_of[pc], t0 = lo + bits_next(act, size, 0, true);
	size_t stride = (size_t)nw * 64;
	/* count rows of nw words' lanes, then a word set (17 bytes a slot) */
	int64_t *val = gsa_scratch(m, count + 1, (int32_t)stride);
	uint64_t *sel = (uint64_t *)(val + (size_t)count * stride);
	for (int32_t j = 0; j < count; j++) {
		const Ins *ins = &m->prog->ins[pc + j];
		int64_t *out = val + (size_t)j * stride;
		if (m->nbig[ins->dst] > 0 || ins->dst == m->watch_var)
			return false;
		if (ins->op == OP_GAMMA) {
			Src P, B, C;
			if (ins->nargs != 0 || !src_at(m, &ins->a, lo, &P) || !src_at(m, &ins->b, lo, &B) ||
			    !src_at(m, &ins->c, lo, &C) || !assigned_in(m, &ins->a, act, nw, lo))
				return false;
			gamma_span(P, B, C, (size_t)size, out);
			for (int32_t k = 0; k < nw; k++) /* the lanes that select b */
				sel[k] = act[k] & (P.p ? ~zero_lanes64(P.p + 64 * k) : P.k ? ~0ull : 0);
			if (!assigned_in(m, &ins->b, sel, nw, lo))
				return false;
			for (int32_t k = 0; k < nw; k++)
				sel[k] = act[k] & ~sel[k];
			if (!assigned_in(m, &ins->c, sel, nw, lo))
				return false;
			continue;
		}
		if (ins->op == OP_MU || ins->op == OP_PHI) { /* every active lane by one edge */
			const int32_t *fb = m->from_block + lo;
			int32_t from = m->from_block[t0];
			for (int32_t k = 0; k < nw; k++) {
				uint64_t a = act[k];
				if (64 * k + 64 <= size) { /* a whole word of the warp's lanes */
					if (a & ~equal_lanes64(fb + 64 * k, from))
						return false;
					continue;
				}
				for (; a; a &= a - 1) /* its last, in part (from_block has no padding) */
					if (fb[64 * k + __builtin_ctzll(a)] != from)
						return false;
			}
		}
		const Opnd *o = sem_gsa_operand(m, ins, blk, t0);
		Src S;
		if (!o || !src_at(m, o, lo, &S) || !assigned_in(m, o, act, nw, lo))
			return false;
		if (S.p)
			memcpy(out, S.p, (size_t)size * sizeof *out);
		else
			for (int32_t i = 0; i < size; i++)
				out[i] = S.k;
	}
	for (int32_t j = 0; j < count; j++) {
		int32_t dst = m->prog->ins[pc + j].dst;
		blend_active(row(m, dst) + lo, val + (size_t)j * stride, act, nw);
		commit_marks(m, w, NULL, 0, dst);
	}
	return true;
}

bool sem_gsa_group(Machine *m, Warp *w, int32_t pc, int32_t count)
{
	if (gsa_group_span(m, w, pc, count) || gsa_group_int64(m, w, pc, count))
		return true;
	int32_t n = sem_lane_order(m, w);
	const Cfg *g = m->cfg;
	int32_t blk = g->block_of[pc];
	Num *res = gsa_scratch(m, count, n);
	bool *undef = (bool *)(res + (size_t)count * (size_t)(n ? n : 1));
	int32_t done = 0;
	uint64_t more = 0; /* the copies of values beyond int64 */
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		for (int32_t j = 0; j < count; j++) {
			const Ins *ins = &m->prog->ins[pc + j];
			const Opnd *sel = sem_gsa_operand(m, ins, blk, t);
			if (!sel) {
				sem_error(m, SEM_STUCK, "MV", pc + j, w->id, &t, 1,
				          "thread %d reached this phi by no edge it has an operand for", t);
				goto fail;
			}
			/* copying an unassigned value leaves the result unassigned (SSA's
			** undef): the error comes where an ordinary instruction reads it */
			undef[done] = sel->kind == OPND_VAR && !defrow(m, sel->var)[t];
			if (undef[done] && ir_gate_is_pred(ins, sel)) { /* a predicate of γ itself */
				sem_error(m, SEM_STUCK, "MV", pc + j, w->id, &t, 1,
				          "variable '%s' is read in thread %d before it is assigned",
				          m->prog->vars[sel->var].name, t);
				goto fail;
			}
			res[done] = undef[done] ? NUM_I(0) : num_copy(opnd_num(m, sel, t));
			done++;
			if (res[done - 1].z && !budget_allows(m, more += num_bytes(res[done - 1]))) {
				sem_memory_limit(m, pc + j, w->id);
				goto fail;
			}
		}
	}
	done = 0;
	for (int32_t k = 0; k < n; k++)
		for (int32_t j = 0; j < count; j++, done++) {
			if (undef[done])
				sem_unset_lane(m, m->prog->ins[pc + j].dst, m->order[k]);
			else
				sem_set_lane(m, m->prog->ins[pc + j].dst, m->order[k], res[done]);
		}
	return true;
fail:
	for (int32_t i = 0; i < done; i++)
		num_free(&res[i]);
	return false;
}

/* IT: a data instruction, or the GSA group of a block that is not an
** implicit sync (μ/φ only) or runs under a model without syncs. */
bool sem_rule_IT(Machine *m, Warp *w, int32_t pc, const Ins *ins)
{
	if (!sem_data_rule(m, w, pc, ins))
		return false;
	int32_t next = sem_data_next(m, pc, ins);
	m->model->go(m, w, next - 1, next);
	return true;
}

int32_t sem_data_next(const Machine *m, int32_t pc, const Ins *ins)
{
	bool gsa = ins->op == OP_PHI || ins->op == OP_GAMMA || ins->op == OP_MU || ins->op == OP_ETA;
	return pc + (gsa ? m->cfg->blocks[m->cfg->block_of[pc]].ngsa : 1);
}

bool sem_data_rule(Machine *m, Warp *w, int32_t pc, const Ins *ins)
{
	switch (ins->op) {
	case OP_COPY:
	case OP_UNARY:
	case OP_BINARY: return exec_arith(m, w, pc, ins);
	case OP_LOAD: return exec_load(m, w, pc, ins, false);
	case OP_LLOAD: return exec_load(m, w, pc, ins, true);
	case OP_STORE: return exec_store(m, w, pc, ins, false);
	case OP_LSTORE: return exec_store(m, w, pc, ins, true);
	case OP_ATOMINC:
	case OP_ATOMADD:
	case OP_ATOMCAS:
	case OP_ATOMEXCH: return exec_atomic(m, w, pc, ins);
	case OP_PHI:
	case OP_GAMMA:
	case OP_MU:
	case OP_ETA: return sem_gsa_group(m, w, pc, m->cfg->blocks[m->cfg->block_of[pc]].ngsa);
	default: return false;
	}
}

void sem_race_free(Race *r)
{
	for (int32_t i = 0; i < r->n; i++)
		num_free(&r->values[i]);
	free(r->values);
	free(r->threads);
}

/* split(Θ, v) = (Θ_f, Θ_j): the PEs that fall through and those that jump.
** bz jumps where v = 0 (Table 3.1); --bz-polarity=rules reads the rules of
** Table 3.4 literally (bz jumps where v ≠ 0); bnz is the mirror image. */
bool sem_split(Machine *m, Warp *w, int32_t pc, const Ins *ins, uint64_t *jump, uint64_t *fall)
{
	if (m->split_given) { /* made for a whole cohort at once (sem.c) */
		bits_extract(jump, m->cohort_split, w->base - m->cohort.base, w->size);
		for (int32_t j = 0; j < w->nw; j++) {
			jump[j] &= w->active[j];
			fall[j] = w->active[j] & ~jump[j];
		}
		return true;
	}
	if (!sem_check_read(m, w, pc, &ins->a))
		return false;
	bool jump_if_zero = (ins->op == OP_BZ) != m->opt.bz_rules;
	const Opnd *o = &ins->a;
	Src S;
	if (src_of(m, o, &S)) {
		/* int64 lanes: 64 tests per word of the lane set */
		for (int32_t j = 0; j < w->nw; j++) {
			uint64_t act = w->active[j], zero = 0;
			if (!act) {
				jump[j] = 0;
				continue;
			}
			if (!S.p) {
				zero = S.k == 0 ? ~0ull : 0;
			} else if (bit_count(act) < 16) {
				/* a few active lanes: test those (work in proportion to them) */
				const int64_t *v = S.p + w->base + j * 64;
				for (uint64_t a = act; a; a &= a - 1) {
					int b = __builtin_ctzll(a);
					zero |= (uint64_t)(v[b] == 0) << b;
				}
			} else {
				const int64_t *v = S.p + w->base + j * 64;
				zero = zero_lanes64(v); /* past the warp's lanes: masked (SEM_ROW_PAD) */
			}
			jump[j] = (jump_if_zero ? zero : ~zero) & act;
		}
	} else {
		bits_clear(jump, w->nw);
		int32_t n;
		const int32_t *idx = sem_active_list(m, w, &n);
		for (int32_t k = 0; k < n; k++) {
			int32_t t = idx[k];
			bool zero = num_is_zero(opnd_num(m, o, t));
			if (zero == jump_if_zero)
				bit_set(jump, t - w->base);
		}
	}
	bits_copy(fall, w->active, w->nw);
	bits_andnot(fall, jump, w->nw);
	return true;
}
