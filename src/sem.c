/*
** sem.c — the semantics of μ-SIMD: the one step function, for every model.
**
** Reading guide (semantics.md section → where):
**   §1 state ................ sem_new (machine), mem.c (Σ)
**   §2 control rules ........ model/sync.c: split (sem_split here), push,
**                             BT/BF/BD, SS/SP, SF; JP is the model's go
**   §3 data rules ........... rule_IT and the exec_* functions (CT/AS, BP,
**                             LD, ST, AT and the extensions), lane order (TL)
**   §4 GSA, exit ............ sem_gsa_group; exit in each model
**   §5 models ............... model/ipdom.c (hardware SIMT stack),
**                             model/mimd.c (warps of one); model.h
**   §6 warps, barrier ....... rule_barrier, release_barrier, sem_pick
**   §7 measures ............. sem_step
** sem_step runs the data rules and the barrier and calls the machine's model
** (model.h) for everything else. Stuck states never change the state: every
** instruction computes its results first and commits them only when no rule
** premise failed; sem_step restores Θ and the pc when a rule fails.
*/
#include "sem.h"

#include "model.h"

#include <stdlib.h>
#include <string.h>

/* ---- names --------------------------------------------------------------- */

/* ORDER RULE */
static const char *const rule_names[RULE__COUNT] = {
	"SF", "BT", "BF", "BD", "SS", "SP", "JP", "IT", "EX", "BAR", "NOP",
};

const char *sem_rule_name(Rule r)
{
	return (unsigned)r < RULE__COUNT ? rule_names[r] : "?";
}

const char *sem_status_name(SemStatus s)
{
	switch (s) {
	case SEM_RUNNING: return "running";
	case SEM_OK: return "ok";
	case SEM_STUCK: return "stuck";
	case SEM_LIMIT: return "step-limit";
	case SEM_DEADLOCK: return "deadlock";
	}
	return "?";
}

/* ---- errors ---------------------------------------------------------------- */

void sem_error(Machine *m, SemStatus st, const char *rule, int32_t pc, int32_t w, const int32_t *threads,
               int32_t nthreads, const char *fmt, ...)
{
	m->status = st;
	RunError *e = &m->err;
	e->rule = rule;
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	free(e->msg);
	e->msg = buf_steal(&b);
	e->pc = pc;
	e->warp = w;
	free(e->threads);
	e->threads = NULL;
	e->nthreads = nthreads;
	if (nthreads > 0) {
		e->threads = xmalloc((size_t)nthreads * sizeof *e->threads);
		memcpy(e->threads, threads, (size_t)nthreads * sizeof *e->threads);
	}
	free(e->stack);
	e->stack = NULL;
	if (w >= 0) {
		sem_print_stack(&b, m, w);
		e->stack = buf_steal(&b);
	}
}

/* ---- the memory budget (--max-memory) -------------------------------------------
** Everything that grows with the input or the run is counted as it is
** allocated: the lane tables (fixed_bytes), values beyond int64, stacks,
** memory pages, race reports, and what the machine's owner keeps beside it
** (outside_bytes). An instruction that would allocate past the limit stops
** before it changes anything, with rule "limit", like any failed premise. */

static inline uint64_t num_bytes(Num v)
{
	return v.z ? zbytes(v.z) : 0;
}

uint64_t sem_bytes(const Machine *m)
{
	return m->fixed_bytes + m->big_bytes + m->stack_bytes + m->heap_bytes;
}

/* Can `more` bytes be allocated? (saturating: more may be huge) */
static inline bool budget_allows(const Machine *m, uint64_t more)
{
	uint64_t used = sem_bytes(m) + m->outside_bytes;
	return used <= m->opt.max_memory && more <= m->opt.max_memory - used;
}

static void memory_limit(Machine *m, int32_t pc, int32_t w)
{
	sem_error(m, SEM_STUCK, "limit", pc, w, NULL, 0,
	          "memory limit: the state needs more than %llu MiB (--max-memory counts the lane "
	          "tables, memory pages of 256 cells, values beyond int64, sync stacks and race "
	          "reports)%s",
	          (unsigned long long)(m->opt.max_memory >> 20),
	          m->outside_bytes ? "; the copies kept for going back count too" : "");
}

/* ---- lanes ------------------------------------------------------------------ */

static inline int64_t *row(const Machine *m, int32_t v)
{
	return m->val + (size_t)v * (size_t)m->nthreads;
}

static inline uint8_t *defrow(const Machine *m, int32_t v)
{
	return m->def + (size_t)v * (size_t)m->nthreads;
}

static inline Num lane_num(const Machine *m, int32_t v, int32_t t)
{
	return (Num){row(m, v)[t], m->big[v] ? m->big[v][t] : NULL};
}

bool sem_get(const Machine *m, int32_t v, int32_t t, Num *out)
{
	if (!defrow(m, v)[t]) {
		*out = NUM_I(0);
		return false;
	}
	*out = lane_num(m, v, t);
	return true;
}

int64_t sem_special(const Machine *m, Special s, int32_t t)
{
	if (m->spec[s])
		return m->spec[s][t];
	switch (s) {
	case SPEC_NTID: return m->nthreads;
	case SPEC_NWARPS: return (m->nthreads + m->warpsize - 1) / m->warpsize;
	case SPEC_WARPSIZE: return m->warpsize;
	default: return 0;
	}
}

/* The value an operand has in thread t (borrowed). The caller has checked
** that a variable operand is assigned in t. */
static inline Num opnd_num(const Machine *m, const Opnd *o, int32_t t)
{
	switch (o->kind) {
	case OPND_VAR: return lane_num(m, o->var, t);
	case OPND_LIT: return ir_lit(m->prog, o);
	case OPND_SPECIAL:
		return NUM_I(sem_special(m, o->special, t));
	default: return NUM_I(0);
	}
}

/* Give variable v in thread t the value r (ownership of r passes). */
static void lane_set(Machine *m, int32_t v, int32_t t, Num r);
static void lane_unset(Machine *m, int32_t v, int32_t t);

void sem_set_lane(Machine *m, int32_t v, int32_t t, Num value)
{
	lane_set(m, v, t, value);
}

void sem_unset_lane(Machine *m, int32_t v, int32_t t)
{
	lane_unset(m, v, t);
}

/* Σ (or local memory) cell addr := value (owned); the cell counters and
** the budget follow. */
void sem_put_cell(Machine *m, Mem *mem, int64_t addr, Num value)
{
	m->cells += mem_put(mem, addr, value, &m->big_bytes, &m->heap_bytes);
}

/* Thread t's local memory (created empty when it has none). */
Mem *sem_local_mem(Machine *m, int32_t t);

static void lane_set(Machine *m, int32_t v, int32_t t, Num r)
{
	size_t n = (size_t)m->nthreads;
	if (m->big[v] && m->big[v][t]) {
		drop_big(&m->big[v][t], &m->big_bytes);
		m->nbig[v]--;
	}
	if (r.z) {
		if (!m->big[v]) {
			m->heap_bytes += (uint64_t)n * sizeof *m->big[v];
			m->big[v] = xcalloc(n, sizeof *m->big[v]);
		}
		m->big[v][t] = r.z;
		m->big_bytes += zbytes(r.z);
		m->nbig[v]++;
		row(m, v)[t] = 0;
	} else {
		row(m, v)[t] = r.i;
	}
	uint8_t *d = defrow(m, v);
	if (!d[t]) {
		d[t] = 1;
		m->ndef[v]++;
	}
}

/* Thread t's variable v becomes unassigned again (a GSA copy of an
** unassigned value, semantics.md §4). */
static void lane_unset(Machine *m, int32_t v, int32_t t)
{
	if (m->big[v] && m->big[v][t]) {
		drop_big(&m->big[v][t], &m->big_bytes);
		m->nbig[v]--;
	}
	uint8_t *d = defrow(m, v);
	if (d[t]) {
		d[t] = 0;
		m->ndef[v]--;
	}
}

/* Active threads of warp w, ascending (cached). */
const int32_t *sem_active_list(Machine *m, Warp *w, int32_t *n)
{
	(void)m;
	if (!w->idx_ok) {
		w->nidx = bits_list(w->active, w->nw, w->base, w->idx);
		w->idx_ok = true;
	}
	*n = w->nidx;
	return w->idx;
}

void sem_set_active(Warp *w, const uint64_t *s)
{
	bits_copy(w->active, s, w->nw);
	w->idx_ok = false;
}

static uint64_t rng_next(uint64_t *s)
{
	/* splitmix64 */
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Rule TL threads Σ through the active PEs one at a time; musimd fixes the
** order (--lane-order). Fills m->order, returns the count. */
static int32_t lane_order(Machine *m, Warp *w)
{
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	switch (m->opt.lane_order) {
	case ORDER_ASCENDING:
		memcpy(m->order, idx, (size_t)n * sizeof *idx);
		break;
	case ORDER_DESCENDING:
		for (int32_t k = 0; k < n; k++)
			m->order[k] = idx[n - 1 - k];
		break;
	case ORDER_RANDOM:
		memcpy(m->order, idx, (size_t)n * sizeof *idx);
		for (int32_t k = n - 1; k > 0; k--) {
			int32_t j = (int32_t)(rng_next(&m->rng) % (uint64_t)(k + 1));
			int32_t t = m->order[k];
			m->order[k] = m->order[j];
			m->order[j] = t;
		}
		break;
	}
	return n;
}

static bool is_param(const Machine *m, int32_t v)
{
	return m->prog->vars[v].is_param;
}

/* Premise of MV: every active PE has the variable. Reports the first PE in
** lane order that does not. */
static bool check_read(Machine *m, Warp *w, int32_t pc, const Opnd *o)
{
	if (o->kind != OPND_VAR || m->ndef[o->var] == m->nthreads)
		return true;
	const uint8_t *d = defrow(m, o->var);
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	bool all = true;
	for (int32_t k = 0; k < n && all; k++)
		all = d[idx[k]];
	if (all)
		return true;
	n = lane_order(m, w);
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		if (d[t])
			continue;
		const char *name = m->prog->vars[o->var].name;
		if (is_param(m, o->var))
			sem_error(m, SEM_STUCK, "MV", pc, w->id, &t, 1,
			          "parameter '%s' has no value (give one with --param %s=INT)", name, name);
		else
			sem_error(m, SEM_STUCK, "MV", pc, w->id, &t, 1,
			          "variable '%s' is read in thread %d before it is assigned", name, t);
		break;
	}
	return false;
}

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

/* Returns false if some lane overflows int64 or fails (then nothing that
** matters was written: the caller recomputes exactly). */
static bool fast_binop(BinOp op, int64_t *restrict out, Src A, Src B, bool dense, int32_t lo,
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
	case BIN_MUL:
		LANE_LOOP2(bad |= (uint64_t)__builtin_mul_overflow(a, b, &r));
		break;
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

/* After a fast computation into out[] (the destination row or m->tmp):
** make out the value of dst in every active lane. */
static void commit_fast(Machine *m, Warp *w, int32_t dst, const int64_t *out)
{
	int32_t n;
	const int32_t *idx = sem_active_list(m, w, &n);
	bool dense = n == w->size;
	int64_t *d = row(m, dst);
	if (out != d) {
		if (dense)
			memcpy(d + w->base, out + w->base, (size_t)w->size * sizeof *d);
		else
			for (int32_t k = 0; k < n; k++)
				d[idx[k]] = out[idx[k]];
	}
	if (m->nbig[dst] > 0)
		for (int32_t k = 0; k < n; k++) {
			__mpz_struct **z = &m->big[dst][idx[k]];
			if (*z) {
				drop_big(z, &m->big_bytes);
				m->nbig[dst]--;
			}
		}
	if (m->ndef[dst] < m->nthreads) {
		uint8_t *df = defrow(m, dst);
		for (int32_t k = 0; k < n; k++)
			if (!df[idx[k]]) {
				df[idx[k]] = 1;
				m->ndef[dst]++;
			}
	}
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
	int32_t n = lane_order(m, w);
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
			memory_limit(m, pc, w->id);
			return false;
		}
		if (e != NUM_OK) {
			for (int32_t j = 0; j < k; j++)
				num_free(&m->res[j]);
			Buf b = {0};
			num_buf(&b, a);
			if (ins->op == OP_BINARY) {
				buf_printf(&b, " %s ", binop_text((BinOp)ins->sub));
				num_buf(&b, opnd_num(m, &ins->b, t));
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
		lane_set(m, ins->dst, m->order[k], m->res[k]);
	return true;
}

/* CT / AS / BP and the unary operators. */
static bool exec_arith(Machine *m, Warp *w, int32_t pc, const Ins *ins)
{
	if (!check_read(m, w, pc, &ins->a))
		return false;
	if (ins->op == OP_BINARY && !check_read(m, w, pc, &ins->b))
		return false;
	Src A, B = {NULL, 0};
	if (src_of(m, &ins->a, &A) && (ins->op != OP_BINARY || src_of(m, &ins->b, &B))) {
		int32_t n;
		const int32_t *idx = sem_active_list(m, w, &n);
		bool dense = n == w->size;
		int32_t lo = w->base, hi = w->base + w->size;
		int64_t *d = row(m, ins->dst);
		bool alias = (ins->a.kind == OPND_VAR && ins->a.var == ins->dst) ||
		             (ins->b.kind == OPND_VAR && ins->b.var == ins->dst);
		if (ins->op == OP_COPY) {
			int64_t *out = d;
			if (A.p) {
				if (A.p != d) {
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
			commit_fast(m, w, ins->dst, d);
			return true;
		}
		if (ins->op == OP_UNARY) {
			/* as a binary operation with a constant: -a = 0 - a,
			** !a = (0 == a), ~a = -1 ^ a */
			BinOp op = ins->sub == UN_NEG ? BIN_SUB : ins->sub == UN_NOT ? BIN_EQ : BIN_XOR;
			Src Z = {NULL, ins->sub == UN_BNOT ? -1 : 0};
			int64_t *out = alias ? m->tmp : d;
			if (fast_binop(op, out, Z, A, dense, lo, hi, idx, n)) {
				commit_fast(m, w, ins->dst, out);
				return true;
			}
		} else {
			BinOp op = (BinOp)ins->sub;
			bool may_fail = op == BIN_DIV || op == BIN_MOD || op == BIN_SHL || op == BIN_SHR;
			int64_t *out = (alias || may_fail) ? m->tmp : d;
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

/* LD (shared) and the local-memory load. */
static bool exec_load(Machine *m, Warp *w, int32_t pc, const Ins *ins, bool local)
{
	if (!check_read(m, w, pc, &ins->a))
		return false;
	int32_t n = lane_order(m, w);
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
			memory_limit(m, pc, w->id);
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
		lane_set(m, ins->dst, m->order[k], m->res[k]);
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

static void race_free(Race *r);

/* Returns false, with the reports of this store taken back, when they
** would not fit the memory budget. */
static bool find_races(Machine *m, Warp *w, int32_t pc, int32_t n)
{
	int32_t need = 16;
	while (need < 2 * n)
		need *= 2;
	if (m->nhslot < need) {
		free(m->hslot);
		m->hslot = xmalloc((size_t)need * sizeof *m->hslot);
		m->nhslot = need;
	}
	int32_t ns = need;
	for (int32_t i = 0; i < ns; i++)
		m->hslot[i] = -1;
	/* chain lanes with equal addresses: next[k] is the next lane (in lane
	** order) storing to the same cell, first[] marks the first of a cell */
	int32_t before = m->nraces;
	bool fits = true;
	int32_t *next = xmalloc((size_t)n * sizeof *next);
	bool *first = xcalloc((size_t)n, sizeof *first);
	int32_t *lastk = xmalloc((size_t)n * sizeof *lastk);
	for (int32_t k = 0; k < n; k++) {
		next[k] = -1;
		uint32_t h = mem_hash(m->addr[k]) & (uint32_t)(ns - 1);
		while (m->hslot[h] >= 0 && m->addr[m->hslot[h]] != m->addr[k])
			h = (h + 1) & (uint32_t)(ns - 1);
		if (m->hslot[h] < 0) {
			m->hslot[h] = k;
			first[k] = true;
			lastk[k] = k;
		} else {
			int32_t f = m->hslot[h];
			next[lastk[f]] = k;
			lastk[f] = k;
		}
	}
	for (int32_t k = 0; k < n; k++) {
		if (!first[k] || next[k] < 0)
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
			race_free(&r);
			fits = false;
			break;
		}
		m->heap_bytes += race_bytes(&r);
		VEC_PUSH(m->races, m->nraces, m->capraces, r);
	}
	free(next);
	free(first);
	free(lastk);
	if (!fits)
		while (m->nraces > before) {
			Race *r = &m->races[--m->nraces];
			m->heap_bytes -= race_bytes(r);
			race_free(r);
		}
	return fits;
}

static int key_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Before a store by the n lanes of m->order to the addresses m->addr, in
** one pass: the lanes whose cell is not initialised (returned; a cell two
** lanes store to counts twice), and, for the memory accounting, the bytes
** the store would allocate in *bytes: new pages, each once however many
** lanes store into it, tables of big values, and the copies of the values
** in m->res when with_values. Local memory: each lane has its own. */
static uint64_t store_plan(Machine *m, int32_t n, bool local, bool with_values, uint64_t *bytes)
{
	uint64_t fresh = 0, more = 0;
	int32_t nnew = 0; /* keys of absent shared pages, in m->tmp */
	int64_t last_big = -1;
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		const Mem *mm = local ? m->local[t] : &m->shared;
		int64_t key = m->addr[k] >> MEM_PAGE_BITS;
		const MemPage *pg = mm ? mem_find(mm, key) : NULL;
		fresh += !(pg && bit_get(pg->init, (int32_t)(m->addr[k] & (MEM_PAGE_SIZE - 1))));
		if (local && !mm)
			more += sizeof(Mem);
		if (!pg && local)
			more += PAGE_BYTES;
		else if (!pg && (nnew == 0 || m->tmp[nnew - 1] != key)) /* neighbours share pages */
			m->tmp[nnew++] = key;
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

/* ST (shared) and the local-memory store. Stores happen in lane order: with
** the fixed ascending order the highest tid's value wins a race. */
static bool exec_store(Machine *m, Warp *w, int32_t pc, const Ins *ins, bool local)
{
	if (!check_read(m, w, pc, &ins->a) || !check_read(m, w, pc, &ins->b))
		return false;
	int32_t n = lane_order(m, w);
	bool big = false; /* some value is beyond int64 */
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		if (!lane_addr(m, w, pc, "ST", local ? "local store" : "store", opnd_num(m, &ins->a, t), t,
		               &m->addr[k]))
			return false;
		m->res[k] = opnd_num(m, &ins->b, t); /* borrowed */
		big |= m->res[k].z != NULL;
	}
	uint64_t bytes;
	uint64_t fresh = store_plan(m, n, local, true, &bytes);
	if (!check_cells(m, w, pc, "ST", fresh))
		return false;
	if ((fresh || big) && !budget_allows(m, bytes)) {
		memory_limit(m, pc, w->id);
		return false;
	}
	int32_t races_before = m->nraces;
	if (!local && n > 1 && !find_races(m, w, pc, n)) {
		memory_limit(m, pc, w->id);
		return false;
	}
	for (int32_t k = 0; k < n; k++) {
		Mem *mm = local ? sem_local_mem(m, m->order[k]) : &m->shared;
		m->cells += mem_put(mm, m->addr[k], num_copy(m->res[k]), &m->big_bytes, &m->heap_bytes);
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
	if (!check_read(m, w, pc, &ins->a) || !check_read(m, w, pc, &ins->b) ||
	    !check_read(m, w, pc, &ins->c))
		return false;
	int32_t n = lane_order(m, w);
	/* premises first: addresses, and Σ(address) defined */
	for (int32_t k = 0; k < n; k++) {
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
	uint64_t fresh = 0;
	for (int32_t k = 0; k < n; k++) {
		Num old;
		bool seen = mem_get(&m->shared, m->addr[k], &old);
		for (int32_t j = 0; j < k && !seen; j++)
			seen = m->addr[j] == m->addr[k];
		fresh += !seen;
	}
	if (!check_cells(m, w, pc, "AT", fresh))
		return false;
	uint64_t bytes;
	store_plan(m, n, false, false, &bytes);
	if (fresh && !budget_allows(m, bytes)) {
		memory_limit(m, pc, w->id);
		return false;
	}
	uint64_t more = 0; /* values beyond int64 (checked as they come, like --max-bits) */
	for (int32_t k = 0; k < n; k++) {
		int32_t t = m->order[k];
		Num old;
		if (!mem_get(&m->shared, m->addr[k], &old))
			old = NUM_I(0); /* .memory zero */
		Num nv, r;
		NumErr e = NUM_OK;
		switch (ins->op) {
		case OP_ATOMINC: /* rule AT: v and Σ(vx) := Σ(vx) + 1 */
			e = num_binop(BIN_ADD, old, NUM_I(1), &nv);
			r = num_copy(nv);
			break;
		case OP_ATOMADD:
			e = num_binop(BIN_ADD, old, opnd_num(m, &ins->b, t), &nv);
			r = num_copy(old);
			break;
		case OP_ATOMCAS:
			r = num_copy(old);
			if (!num_eq(old, opnd_num(m, &ins->b, t))) {
				m->res[k] = r; /* a failed CAS writes nothing */
				continue;
			}
			nv = num_copy(opnd_num(m, &ins->c, t));
			break;
		default: /* OP_ATOMEXCH */
			r = num_copy(old);
			nv = num_copy(opnd_num(m, &ins->b, t));
			break;
		}
		if (e == NUM_OK && (nv.z || r.z) && !budget_allows(m, more += num_bytes(nv) + num_bytes(r))) {
			num_free(&nv);
			num_free(&r);
			memory_limit(m, pc, w->id);
			for (int32_t j = 0; j < k; j++)
				num_free(&m->res[j]);
			return false;
		}
		if (e != NUM_OK) {
			/* only a value beyond --max-bits gets here; earlier lanes have
			** run: report it, the state is as far as the atomic got */
			sem_error(m, SEM_STUCK, "AT", pc, w->id, &t, 1, "%s in thread %d", num_err_msg(e), t);
			for (int32_t j = 0; j < k; j++)
				num_free(&m->res[j]);
			return false;
		}
		m->cells += mem_put(&m->shared, m->addr[k], nv, &m->big_bytes, &m->heap_bytes);
		m->res[k] = r;
	}
	for (int32_t k = 0; k < n; k++)
		lane_set(m, ins->dst, m->order[k], m->res[k]);
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
bool sem_gsa_group(Machine *m, Warp *w, int32_t pc, int32_t count)
{
	int32_t n = lane_order(m, w);
	const Cfg *g = m->cfg;
	int32_t blk = g->block_of[pc];
	Num *res = xmalloc((size_t)count * (size_t)(n ? n : 1) * sizeof *res);
	bool *undef = xmalloc((size_t)count * (size_t)(n ? n : 1) * sizeof *undef);
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
				memory_limit(m, pc + j, w->id);
				goto fail;
			}
		}
	}
	done = 0;
	for (int32_t k = 0; k < n; k++)
		for (int32_t j = 0; j < count; j++, done++) {
			if (undef[done])
				lane_unset(m, m->prog->ins[pc + j].dst, m->order[k]);
			else
				lane_set(m, m->prog->ins[pc + j].dst, m->order[k], res[done]);
		}
	free(res);
	free(undef);
	return true;
fail:
	for (int32_t i = 0; i < done; i++)
		num_free(&res[i]);
	free(res);
	free(undef);
	return false;
}

/* ---- control: moving a warp ---------------------------------------------------- */

/* The PEs in movers leave the block of from_pc for to_pc: they remember
** the edge (for φ/μ) and the warp starts a new block execution. */
void sem_take_edge(Machine *m, Warp *w, int32_t from_pc, int32_t to_pc, const uint64_t *movers)
{
	if (!cfg_is_block_start(m->cfg, to_pc) && to_pc == from_pc + 1)
		return;
	w->entered = true;
	if (!m->track_edges || !movers)
		return;
	int32_t blk = m->cfg->block_of[from_pc];
	BitIter it = bits_iter(movers, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
		m->from_block[w->base + l] = blk;
}

/* split(Θ, v) = (Θ_f, Θ_j): the PEs that fall through and those that jump.
** bz jumps where v = 0 (Table 3.1); --bz-polarity=rules reads the rules of
** Table 3.4 literally (bz jumps where v ≠ 0); bnz is the mirror image. */
bool sem_split(Machine *m, Warp *w, int32_t pc, const Ins *ins, uint64_t *jump, uint64_t *fall)
{
	if (!check_read(m, w, pc, &ins->a))
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
			} else {
				const int64_t *v = S.p + w->base + j * 64;
				int32_t lim = w->size - j * 64 < 64 ? w->size - j * 64 : 64;
				for (int32_t b = 0; b < lim; b++)
					zero |= (uint64_t)(v[b] == 0) << b;
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


void sem_finish_threads(Machine *m, Warp *w, const uint64_t *gone)
{
	int32_t c = bits_count(gone, w->nw);
	bits_andnot(w->live, gone, w->nw);
	m->nlive -= c;
}

void sem_warp_done(Machine *m, Warp *w)
{
	w->status = WARP_DONE;
	m->nwarps_done++;
}

/* ---- barrier (language.md §4.2, semantics.md §6) -------------------------------- */

static void release_barrier(Machine *m)
{
	for (int32_t i = 0; i < m->nwarps; i++) {
		Warp *w = &m->warps[i];
		if (w->status != WARP_BARRIER)
			continue;
		if (m->model->release) {
			m->model->release(m, w);
			continue;
		}
		w->status = WARP_RUN;
		int32_t pc = w->pc;
		m->model->go(m, w, pc, pc + 1);
	}
	m->arrived = 0;
}

static void check_barrier(Machine *m)
{
	if (m->arrived > 0 && m->arrived == m->nlive)
		release_barrier(m);
}

static bool rule_barrier(Machine *m, Warp *w, int32_t pc)
{
	if (!bits_eq(w->active, w->live, w->nw)) {
		uint64_t *waiting = m->step_active + w->nw;
		bits_copy(waiting, w->live, w->nw);
		bits_andnot(waiting, w->active, w->nw);
		Buf a = {0}, b = {0};
		sem_print_set(&a, m, w->id, w->active);
		sem_print_set(&b, m, w->id, waiting);
		int32_t n;
		const int32_t *idx = sem_active_list(m, w, &n);
		sem_error(m, SEM_DEADLOCK, "BAR", pc, w->id, idx, n,
		          "barrier reached by threads %s of warp %d while threads %s of that warp wait for "
		          "them to reconverge: the barrier can never complete",
		          buf_str(&a), w->id, buf_str(&b));
		buf_free(&a);
		buf_free(&b);
		return false;
	}
	w->status = WARP_BARRIER;
	m->arrived += bits_count(w->active, w->nw);
	return true;
}

/* ---- the step function ------------------------------------------------------------ */

/* IT: a data instruction, or the GSA group of a block that is not an
** implicit sync (μ/φ only) or runs under a model without syncs. */
static bool rule_IT(Machine *m, Warp *w, int32_t pc, const Ins *ins)
{
	int32_t next = pc + 1;
	bool ok;
	switch (ins->op) {
	case OP_COPY:
	case OP_UNARY:
	case OP_BINARY: ok = exec_arith(m, w, pc, ins); break;
	case OP_LOAD: ok = exec_load(m, w, pc, ins, false); break;
	case OP_LLOAD: ok = exec_load(m, w, pc, ins, true); break;
	case OP_STORE: ok = exec_store(m, w, pc, ins, false); break;
	case OP_LSTORE: ok = exec_store(m, w, pc, ins, true); break;
	case OP_ATOMINC:
	case OP_ATOMADD:
	case OP_ATOMCAS:
	case OP_ATOMEXCH: ok = exec_atomic(m, w, pc, ins); break;
	case OP_PHI:
	case OP_GAMMA:
	case OP_MU:
	case OP_ETA: {
		int32_t cnt = m->cfg->blocks[m->cfg->block_of[pc]].ngsa;
		ok = sem_gsa_group(m, w, pc, cnt);
		next = pc + cnt;
		break;
	}
	default: ok = false; break;
	}
	if (!ok)
		return false;
	m->model->go(m, w, next - 1, next);
	return true;
}

/* One instruction under the machine's model: the data rules and the
** barrier here, control through the model (model.h). */
static bool step_ins(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule)
{
	const Model *md = m->model;
	const Block *blk = &m->cfg->blocks[m->cfg->block_of[pc]];
	if (md->honours_sync && blk->implicit_sync && pc == blk->first)
		return md->sync(m, w, pc, blk->ngsa, rule);
	switch (ins->op) {
	case OP_STOP:
	case OP_EXIT: return md->finish(m, w, pc, ins->op == OP_STOP, rule);
	case OP_BZ:
	case OP_BNZ: return md->branch(m, w, pc, ins, rule);
	case OP_JUMP:
		*rule = RULE_JP;
		md->go(m, w, pc, ins->target);
		return true;
	case OP_SYNC: return md->sync(m, w, pc, 0, rule);
	case OP_BARRIER:
		if (md->barrier)
			return md->barrier(m, w, pc, rule);
		*rule = RULE_BAR;
		return rule_barrier(m, w, pc);
	default: *rule = RULE_IT; return rule_IT(m, w, pc, ins);
	}
}

SemStatus sem_step(Machine *m, int32_t wi, StepInfo *info)
{
	if (m->status != SEM_RUNNING || wi < 0 || wi >= m->nwarps)
		return m->status;
	Warp *w = &m->warps[wi];
	if (w->status != WARP_RUN)
		return m->status;
	uint64_t limit = m->opt.max_steps;
	int32_t pc = w->pc;
	if (m->steps >= limit) {
		int32_t n;
		const int32_t *idx = sem_active_list(m, w, &n);
		sem_error(m, SEM_LIMIT, "limit", pc, wi, idx, n,
		          "step limit of %llu warp instructions reached (--max-steps): the big-step "
		          "relation has no derivation for a run that does not end",
		          (unsigned long long)limit);
		return m->status;
	}
	if (pc < 0 || pc >= m->prog->nins) {
		sem_error(m, SEM_STUCK, "IT", -1, wi, NULL, 0, "warp %d fell off the end of the program", wi);
		return m->status;
	}
	const Ins *ins = &m->prog->ins[pc];
	bits_copy(m->step_active, w->active, w->nw);
	int32_t nactive = w->idx_ok ? w->nidx : bits_count(w->active, w->nw);
	bool entered = w->entered;
	w->entered = false;

	Rule rule = RULE_IT;
	bool ok = step_ins(m, w, pc, ins, &rule);
	if (!ok) {
		/* no rule fired: the state is unchanged */
		w->entered = entered;
		bits_copy(w->active, m->step_active, w->nw);
		w->idx_ok = false;
		w->pc = pc;
		return m->status;
	}
	/* semantics.md §7 */
	m->steps++;
	m->thread_instructions += (uint64_t)nactive;
	m->rule_count[rule]++;
	if (entered)
		m->block_execs[m->cfg->block_of[pc]]++;
	if (ir_is_branch(ins->op) && nactive > 0) {
		m->visits[pc]++;
		if (rule == RULE_BD)
			m->divergences[pc]++;
	}
	int32_t depth = sem_stack_depth(m, wi);
	if (depth > m->max_depth)
		m->max_depth = depth;
	if (info) {
		info->step = m->steps;
		info->warp = wi;
		info->pc = pc;
		info->rule = rule;
		info->active = m->step_active;
		info->nactive = nactive;
	}
	/* what the instructions did not check before allocating: the stacks */
	if (MU_UNLIKELY(!budget_allows(m, 0)) && m->status == SEM_RUNNING) {
		memory_limit(m, pc, wi);
		return m->status;
	}
	/* an arrival, or threads that stopped or exited, may complete the barrier */
	check_barrier(m);
	if (m->status == SEM_RUNNING && m->nwarps_done == m->nwarps)
		m->status = SEM_OK;
	return m->status;
}

SemStatus sem_step_group(Machine *m, int32_t wi, int32_t group, StepInfo *info)
{
	if (m->model->choose && m->status == SEM_RUNNING && wi >= 0 && wi < m->nwarps &&
	    m->warps[wi].status == WARP_RUN && group >= 0 && group < m->model->ngroups(&m->warps[wi]))
		m->model->choose(m, &m->warps[wi], group);
	return sem_step(m, wi, info);
}

int32_t sem_pick(const Machine *m)
{
	if (m->status != SEM_RUNNING)
		return -1;
	for (int32_t k = 0; k < m->nwarps; k++) {
		int32_t w = (m->cursor + k) % m->nwarps;
		if (m->warps[w].status == WARP_RUN)
			return w;
	}
	return -1;
}

void sem_advance(Machine *m, int32_t w)
{
	m->cursor = (w + 1) % m->nwarps;
}

int32_t sem_schedule(Machine *m)
{
	int32_t w = sem_pick(m);
	if (w < 0 && m->status == SEM_RUNNING)
		/* cannot happen while the barrier rules hold; report rather than spin */
		sem_error(m, SEM_DEADLOCK, "BAR", -1, -1, NULL, 0,
		          "no warp can run and the program has not finished");
	return w;
}

SemStatus sem_run(Machine *m, SemHook hook, void *ctx)
{
	StepInfo info;
	while (m->status == SEM_RUNNING) {
		int32_t w = sem_schedule(m);
		if (w < 0)
			break;
		uint64_t before = m->steps;
		sem_step(m, w, &info);
		if (m->steps > before) {
			sem_advance(m, w);
			if (hook)
				hook(ctx, m, &info);
		}
	}
	return m->status;
}

/* ---- construction ------------------------------------------------------------------- */

static void add_init(Machine *m, int64_t addr, int64_t count, Num v)
{
	for (int64_t i = 0; i < count; i++)
		m->cells += mem_put(&m->shared, addr + i, num_copy(v), &m->big_bytes, &m->heap_bytes);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* Memory accounting: at most what count cells from one initialisation
** cost (their pages, and the copies of a value beyond int64). */
static uint64_t init_bytes(int64_t count, Num v)
{
	uint64_t c = (uint64_t)count;
	uint64_t pages = c < 2 ? c : c / MEM_PAGE_SIZE + 2 < c ? c / MEM_PAGE_SIZE + 2 : c;
	uint64_t b = sat_mul(pages, PAGE_BYTES);
	if (v.z)
		b = sat_add(b, sat_add(sat_mul(pages, PAGE_BIG_BYTES), sat_mul(c, num_bytes(v))));
	return b;
}

Machine *sem_new(const Program *p, const SemOptions *opt, Diags *d)
{
	int errs = d->nerrors;
	int64_t nthreads = opt->threads > 0 ? opt->threads : p->threads > 0 ? p->threads : 4;
	int64_t ws = opt->warpsize > 0 ? opt->warpsize : p->warpsize > 0 ? p->warpsize : nthreads;
	if (nthreads > SEM_MAX_THREADS)
		diag_error(d, LOC_NONE, "too many threads: %lld (at most %d)", (long long)nthreads,
		           SEM_MAX_THREADS);
	if (ws > nthreads)
		ws = nthreads;
	if (!p->cfg)
		diag_error(d, LOC_NONE, "the program has not been validated");
	/* parameter settings must name parameters */
	for (int32_t i = 0; i < opt->nparams; i++) {
		int32_t v = ir_find_var(p, opt->params[i].name);
		if (v < 0 || !p->vars[v].is_param)
			diag_error(d, LOC_NONE, "'%s' is not a parameter of %s (declare it with .param)",
			           opt->params[i].name, p->path);
	}
	uint64_t max_cells = opt->max_cells ? opt->max_cells : SEM_DEFAULT_MAX_CELLS;
	/* saturating sums: each count may be up to INT64_MAX, three of them wrap */
	uint64_t want = 0;
	for (int32_t i = 0; i < p->ndata; i++)
		want = sat_add(want, (uint64_t)p->data[i].count);
	for (int32_t i = 0; i < opt->ndata; i++)
		want = sat_add(want, (uint64_t)opt->data[i].count);
	if (want > max_cells)
		diag_error(d, LOC_NONE, "initial memory of %llu cells exceeds the limit of %llu (--max-cells)",
		           (unsigned long long)want, (unsigned long long)max_cells);
	/* the lane tables: a value and an assigned flag per variable and thread */
	uint64_t max_mem = opt->max_memory ? opt->max_memory : SEM_DEFAULT_MAX_MEMORY;
	uint64_t fixed = (uint64_t)nthreads * ((uint64_t)p->nvars * 9 + 64) + (uint64_t)p->nins * 32;
	/* memory accounting: the initial memory and the parameters beyond
	** int64 (a copy per thread) count before anything is allocated */
	uint64_t init = 0, params = 0;
	for (int32_t i = 0; i < p->ndata; i++)
		init = sat_add(init, init_bytes(p->data[i].count, p->data[i].value));
	for (int32_t i = 0; i < opt->ndata; i++)
		init = sat_add(init, init_bytes(opt->data[i].count, opt->data[i].value));
	for (int32_t v = 0; v < p->nvars; v++) {
		const Num *val = p->vars[v].is_param && p->vars[v].has_value ? &p->vars[v].value : NULL;
		for (int32_t i = 0; i < opt->nparams; i++)
			if (!strcmp(opt->params[i].name, p->vars[v].name))
				val = &opt->params[i].value;
		if (val && val->z)
			params = sat_add(params, sat_mul((uint64_t)nthreads, num_bytes(*val) + sizeof(void *)));
	}
	uint64_t need = sat_add(fixed, sat_add(init, params));
	if (nthreads <= SEM_MAX_THREADS && need > max_mem)
		diag_error(d, LOC_NONE,
		           "the initial state needs %llu MiB (%lld threads × %d variables: %llu MiB, "
		           "initial memory: %llu MiB, parameters beyond int64: %llu MiB), more than the "
		           "limit of %llu MiB (--max-memory)",
		           (unsigned long long)(need >> 20), (long long)nthreads, p->nvars,
		           (unsigned long long)(fixed >> 20), (unsigned long long)(init >> 20),
		           (unsigned long long)(params >> 20), (unsigned long long)(max_mem >> 20));
	if (d->nerrors > errs)
		return NULL;

	Machine *m = xcalloc(1, sizeof *m);
	m->prog = p;
	m->cfg = p->cfg;
	m->opt = *opt;
	m->model = opt->model ? opt->model : &model_sync;
	/* the limits, resolved once: the step function reads m->opt directly */
	m->opt.max_steps = opt->max_steps ? opt->max_steps : SEM_DEFAULT_MAX_STEPS;
	m->opt.max_cells = max_cells;
	m->opt.max_memory = max_mem;
	m->nthreads = (int32_t)nthreads;
	m->warpsize = (int32_t)ws;
	m->sched_warpsize = m->model->warps_of_one ? 1 : m->warpsize;
	m->nwarps = (m->nthreads + m->sched_warpsize - 1) / m->sched_warpsize;
	m->nvars = p->nvars;
	m->fixed_bytes = fixed;
	size_t n = (size_t)m->nthreads, nv = (size_t)(p->nvars ? p->nvars : 1);
	m->val = xcalloc(nv * n, sizeof *m->val);
	m->big = xcalloc(nv, sizeof *m->big);
	m->nbig = xcalloc(nv, sizeof *m->nbig);
	m->def = xcalloc(nv * n, sizeof *m->def);
	m->ndef = xcalloc(nv, sizeof *m->ndef);
	m->spec[SPEC_TID] = xmalloc(n * sizeof(int64_t));
	m->spec[SPEC_LANEID] = xmalloc(n * sizeof(int64_t));
	m->spec[SPEC_WARPID] = xmalloc(n * sizeof(int64_t));
	for (size_t t = 0; t < n; t++) {
		m->spec[SPEC_TID][t] = (int64_t)t;
		m->spec[SPEC_LANEID][t] = (int64_t)t % m->warpsize;
		m->spec[SPEC_WARPID][t] = (int64_t)t / m->warpsize;
	}
	m->from_block = xmalloc(n * sizeof *m->from_block);
	for (size_t t = 0; t < n; t++)
		m->from_block[t] = -1;
	for (int32_t i = 0; i < p->nins && !m->track_edges; i++)
		m->track_edges = p->ins[i].op == OP_MU || p->ins[i].op == OP_PHI;
	m->shared.last = -1;
	m->local = xcalloc(n, sizeof *m->local);
	m->nlive = m->nthreads;
	m->status = SEM_RUNNING;
	m->err.pc = -1;
	m->err.warp = -1;
	m->visits = xcalloc((size_t)p->nins + 1, sizeof *m->visits);
	m->divergences = xcalloc((size_t)p->nins + 1, sizeof *m->divergences);
	m->block_execs = xcalloc((size_t)m->cfg->nblocks + 1, sizeof *m->block_execs);
	m->tmp = xcalloc(n, sizeof *m->tmp);
	m->res = xcalloc(n, sizeof *m->res);
	m->order = xcalloc(n, sizeof *m->order);
	m->addr = xcalloc(n, sizeof *m->addr);
	m->rng = opt->seed ^ 0x5DEECE66Dull;

	/* parameters: the same value in every σ */
	for (int32_t v = 0; v < p->nvars; v++) {
		const Var *var = &p->vars[v];
		if (!var->is_param)
			continue;
		const Num *val = var->has_value ? &var->value : NULL;
		for (int32_t i = 0; i < opt->nparams; i++)
			if (strcmp(opt->params[i].name, var->name) == 0)
				val = &opt->params[i].value;
		if (!val)
			continue; /* an error only if read (rule MV) */
		for (size_t t = 0; t < n; t++)
			lane_set(m, v, (int32_t)t, num_copy(*val));
	}
	for (int32_t i = 0; i < p->ndata; i++)
		add_init(m, p->data[i].addr, p->data[i].count, p->data[i].value);
	for (int32_t i = 0; i < opt->ndata; i++)
		add_init(m, opt->data[i].addr, opt->data[i].count, opt->data[i].value);

	/* warps: consecutive threads; each starts with Θ = its threads, Π = [] */
	int32_t sws = m->sched_warpsize;
	int32_t maxnw = bits_words(sws);
	m->step_active = xcalloc((size_t)maxnw * 3, sizeof *m->step_active);
	m->warps = xcalloc((size_t)m->nwarps, sizeof *m->warps);
	for (int32_t i = 0; i < m->nwarps; i++) {
		Warp *w = &m->warps[i];
		w->id = i;
		w->base = i * sws;
		w->size = m->nthreads - w->base < sws ? m->nthreads - w->base : sws;
		w->nw = bits_words(w->size);
		w->active = xcalloc((size_t)w->nw, sizeof *w->active);
		w->live = xcalloc((size_t)w->nw, sizeof *w->live);
		for (int32_t l = 0; l < w->size; l++)
			bit_set(w->live, l);
		bits_copy(w->active, w->live, w->nw);
		w->idx = xmalloc((size_t)w->size * sizeof *w->idx);
		w->status = WARP_RUN;
		w->entered = true;
		w->pc = 0;
		w->ctl.rec_size = m->model->rec_size;
		w->ctl.nmask = m->model->nmask;
		if (m->model->start)
			m->model->start(m, w);
	}
	return m;
}

static void race_free(Race *r)
{
	for (int32_t i = 0; i < r->n; i++)
		num_free(&r->values[i]);
	free(r->values);
	free(r->threads);
}

void sem_free(Machine *m)
{
	if (!m)
		return;
	for (int32_t v = 0; v < m->nvars; v++)
		if (m->big[v]) {
			for (int32_t t = 0; t < m->nthreads; t++)
				if (m->big[v][t]) {
					mpz_clear(m->big[v][t]);
					free(m->big[v][t]);
				}
			free(m->big[v]);
		}
	free(m->big);
	free(m->val);
	free(m->nbig);
	free(m->def);
	free(m->ndef);
	for (int s = 0; s < SPEC__COUNT; s++)
		free(m->spec[s]);
	free(m->from_block);
	mem_free(&m->shared);
	for (int32_t t = 0; t < m->nthreads; t++)
		if (m->local[t]) {
			mem_free(m->local[t]);
			free(m->local[t]);
		}
	free(m->local);
	for (int32_t i = 0; i < m->nwarps; i++) {
		Warp *w = &m->warps[i];
		free(w->active);
		free(w->live);
		free(w->ctl.recs);
		free(w->ctl.masks);
		free(w->idx);
	}
	free(m->warps);
	free(m->err.msg);
	free(m->err.threads);
	free(m->err.stack);
	free(m->visits);
	free(m->divergences);
	free(m->block_execs);
	for (int32_t i = 0; i < m->nraces; i++)
		race_free(&m->races[i]);
	free(m->races);
	free(m->step_active);
	free(m->tmp);
	free(m->res);
	free(m->order);
	free(m->addr);
	free(m->hslot);
	free(m);
}

static void *dup_mem(const void *p, size_t n)
{
	if (!p)
		return NULL;
	void *q = xmalloc(n ? n : 1);
	memcpy(q, p, n);
	return q;
}

Machine *sem_clone(const Machine *s)
{
	Machine *m = xmalloc(sizeof *m);
	*m = *s;
	size_t n = (size_t)s->nthreads, nv = (size_t)(s->nvars ? s->nvars : 1);
	m->val = dup_mem(s->val, nv * n * sizeof *m->val);
	m->big = xcalloc(nv, sizeof *m->big);
	for (int32_t v = 0; v < s->nvars; v++)
		if (s->big[v]) {
			m->big[v] = xcalloc(n, sizeof *m->big[v]);
			for (size_t t = 0; t < n; t++)
				if (s->big[v][t])
					m->big[v][t] = num_copy((Num){0, s->big[v][t]}).z;
		}
	m->nbig = dup_mem(s->nbig, nv * sizeof *m->nbig);
	m->def = dup_mem(s->def, nv * n * sizeof *m->def);
	m->ndef = dup_mem(s->ndef, nv * sizeof *m->ndef);
	for (int sp = 0; sp < SPEC__COUNT; sp++)
		m->spec[sp] = dup_mem(s->spec[sp], s->spec[sp] ? n * sizeof(int64_t) : 0);
	m->from_block = dup_mem(s->from_block, n * sizeof *m->from_block);
	mem_clone(&m->shared, &s->shared);
	m->local = xcalloc(n, sizeof *m->local);
	for (size_t t = 0; t < n; t++)
		if (s->local[t]) {
			m->local[t] = xmalloc(sizeof(Mem));
			mem_clone(m->local[t], s->local[t]);
		}
	m->warps = dup_mem(s->warps, (size_t)s->nwarps * sizeof *m->warps);
	for (int32_t i = 0; i < s->nwarps; i++) {
		Warp *w = &m->warps[i];
		const Warp *sw = &s->warps[i];
		size_t nw = (size_t)sw->nw * sizeof(uint64_t);
		w->active = dup_mem(sw->active, nw);
		w->live = dup_mem(sw->live, nw);
		w->ctl.recs = dup_mem(sw->ctl.recs, (size_t)sw->ctl.cap * sw->ctl.rec_size);
		w->ctl.masks = dup_mem(sw->ctl.masks, (size_t)sw->ctl.cap * sw->ctl.nmask * nw);
		w->idx = dup_mem(sw->idx, (size_t)sw->size * sizeof *w->idx);
	}
	m->err.msg = s->err.msg ? xstrdup(s->err.msg) : NULL;
	m->err.threads = dup_mem(s->err.threads, (size_t)s->err.nthreads * sizeof(int32_t));
	m->err.stack = s->err.stack ? xstrdup(s->err.stack) : NULL;
	m->visits = dup_mem(s->visits, ((size_t)s->prog->nins + 1) * sizeof *m->visits);
	m->divergences = dup_mem(s->divergences, ((size_t)s->prog->nins + 1) * sizeof *m->divergences);
	m->block_execs = dup_mem(s->block_execs, ((size_t)s->cfg->nblocks + 1) * sizeof *m->block_execs);
	m->races = dup_mem(s->races, (size_t)s->capraces * sizeof *m->races);
	for (int32_t i = 0; i < s->nraces; i++) {
		Race *r = &m->races[i];
		r->threads = dup_mem(s->races[i].threads, (size_t)r->n * sizeof(int32_t));
		r->values = xmalloc((size_t)r->n * sizeof(Num));
		for (int32_t j = 0; j < r->n; j++)
			r->values[j] = num_copy(s->races[i].values[j]);
	}
	int32_t maxnw = bits_words(s->sched_warpsize);
	m->step_active = dup_mem(s->step_active, (size_t)maxnw * 3 * sizeof(uint64_t));
	m->tmp = xcalloc(n, sizeof *m->tmp);
	m->res = xcalloc(n, sizeof *m->res);
	m->order = xcalloc(n, sizeof *m->order);
	m->addr = xcalloc(n, sizeof *m->addr);
	m->hslot = NULL;
	m->nhslot = 0;
	return m;
}

/* ---- printing -------------------------------------------------------------------------- */

int32_t sem_stack_depth(const Machine *m, int32_t w)
{
	return m->warps[w].ctl.n;
}

void sem_print_set(Buf *b, const Machine *m, int32_t wi, const uint64_t *set)
{
	const Warp *w = &m->warps[wi];
	if (bits_empty(set, w->nw)) {
		buf_puts(b, "∅");
		return;
	}
	buf_putc(b, '{');
	bool first = true;
	for (int32_t l = 0; l < w->size;) {
		if (!bit_get(set, l)) {
			l++;
			continue;
		}
		int32_t e = l;
		while (e + 1 < w->size && bit_get(set, e + 1))
			e++;
		if (!first)
			buf_putc(b, ',');
		first = false;
		if (e - l + 1 >= 5) {
			buf_printf(b, "%d..%d", w->base + l, w->base + e);
		} else {
			for (int32_t k = l; k <= e; k++)
				buf_printf(b, k == l ? "%d" : ",%d", w->base + k);
		}
		l = e + 1;
	}
	buf_putc(b, '}');
}

static void print_pc(Buf *b, const Machine *m, int32_t pc)
{
	if (pc < 0)
		buf_puts(b, "⊥"); /* the virtual exit: no label can be spelt so */
	else
		ir_print_where(b, m->prog, pc);
}

void sem_print_stack(Buf *b, const Machine *m, int32_t wi)
{
	const Warp *w = &m->warps[wi];
	const Model *md = m->model;
	if (w->ctl.n == 0)
		buf_puts(b, "[]");
	for (int32_t k = w->ctl.n - 1; k >= 0; k--) {
		if (k < w->ctl.n - SEM_STACK_SHOWN) {
			buf_printf(b, "... (%d more)", k + 1);
			break;
		}
		CtlView v;
		md->view(w, k, &v);
		buf_putc(b, '(');
		for (int32_t i = 0; i < md->nfields; i++) {
			if (i)
				buf_puts(b, ", ");
			if (md->fields[i].is_set)
				sem_print_set(b, m, wi, v.set[i]);
			else
				print_pc(b, m, v.pc[i]);
		}
		buf_puts(b, k ? ") : " : ")");
	}
}
