/*
** verify.c — the soundness oracle (analyses.md §4; the design is in
** verify.h).
**
** For k = 1..K threads the program runs under each model with the
** round-robin scheduler of sem_run, but driven from here: before each step
** the oracle looks at the instruction the picked warp is about to execute
** and checks the values of the variables it will read (the state is
** unchanged until sem_step, so the values read are exactly those of
** sem_get now); after the step it reads the step's effects (StepInfo.edges,
** .stores: what sem.c records as it moves threads and writes cells) rather
** than re-deriving them from the rule.
**
** Under a model whose warps issue together (sync, ipdom), reads are
** checked at once, over the PEs of one warp instruction:
** - an ordinary instruction: every active PE of the warp (lanes where the
**   variable is unassigned are skipped: the run gets stuck there anyway);
** - a GSA group (a μ/φ block's IT step, or the SP step of an implicit sync
**   with Θ_done ∪ Θ): per group of PEs with the same (from_block,
**   edge_step), edge_step[t] being the step at which t last took a control
**   edge: the step's edges, which BT, BF, BD (both sides: the deferred PEs
**   keep that step), JP, IT and SP into a new block, and a barrier's
**   release take. SS and the resumption after an exit take no edge.
**
** Under a model whose threads have pcs of their own (mimd, its), the
** threads of a warp read at different steps: each read is kept with the
** thread's dynamic instance (the iteration count of every loop it is in,
** counted at the edges it takes into a header) and the reads of one
** (pc, variable, warp, instance) are checked together at the end of the
** run. A thread whose load may have seen another's store since the first
** read of that instance is not checked any more (a race).
**
** The check of variable v over PEs (t, x_t):
** - simple domains: class uniform/constant ⇒ all x_t equal;
** - polynomial domain: nothing when a_n = ⊥ (divergent) or v is undefined
**   (⊤ somewhere); else let U be the ⊥ coefficients (all below n). U = ∅:
**   x_t = Σ a_k t^k exactly. U = {0}: x_t − Σ_{k≥1} a_k t^k the same in
**   every PE. Otherwise the linear system Σ_{k∈U} c_k t^k = x_t − Σ_{k∉U} a_k
**   t^k (one row per PE) is solved exactly over ℚ by incremental Gauss–Jordan
**   elimination: an inconsistent system is a violation; a consistent system
**   of full rank has one solution, which must be integral (coefficients are
**   in ℤ); an under-determined consistent system is accepted even though an
**   integral solution might not exist (deciding that is a lattice problem;
**   the next read with more PEs usually determines the system anyway).
**
** `reads` counts warp-level checks: one per (instruction operand or GSA
** read, variable, group of PEs) with at least one PE assigned.
** Violations are recorded once per (pc, variable): a read that goes wrong in
** every iteration and every thread count is reported at its first
** occurrence (smallest thread count, earliest step), up to max_violations.
*/
#include "verify.h"

#include <stdlib.h>
#include <string.h>

#define SHOWN_THREADS 16 /* threads listed in a message */

typedef struct GKey {
	int32_t from;
	int32_t t;
	uint64_t step;
} GKey;

typedef struct Ctx {
	const Program *p;
	const Cfg *g;
	const AnaResult *r;
	VerifyResult *res;
	int32_t maxv;
	Machine *m;
	int32_t deg;          /* poly degree, -1 for the simple domains */
	/* per run */
	uint64_t *edge_step;  /* per thread */
	/* scratch, grown to the largest run */
	int32_t cap;          /* threads the buffers hold */
	int32_t *tids, *grp, *sb, *sc;
	GKey *keys;
	int64_t *y64;         /* residuals of the fast path */
	int32_t *ct;          /* a check: the PEs assigned, and their values (borrowed) */
	Num *cx;
	uint64_t *bits;
	int32_t capw;         /* words of bits */
	/* exact arithmetic */
	mpz_t *ry;            /* residuals, cap of them */
	int32_t nry;
	mpz_t *cz;            /* known coefficients, deg + 1 */
	mpz_t acc, tmp, t2, t3;
	mpq_t *mat;           /* basis rows (deg) and a working row, each deg + 1 wide */
	int32_t *piv;
	mpq_t q, f;
	uint64_t model_reads; /* reads checked under the current model */
	struct Inst *inst;    /* the instance oracle's state (run_one_instances) */
} Ctx;

/* ---- small helpers ------------------------------------------------------- */

/* The tids of the lanes in s, ascending, into out; returns how many. */
static int32_t list_set(const Warp *w, const uint64_t *s, int32_t *out)
{
	return bits_list(s, w->nw, w->base, out);
}

static void grow_threads(Ctx *c, int32_t n, int32_t nw)
{
	if (n > c->cap) {
		size_t sz = (size_t)n;
		c->tids = xrealloc(c->tids, sz * sizeof *c->tids);
		c->grp = xrealloc(c->grp, sz * sizeof *c->grp);
		c->sb = xrealloc(c->sb, sz * sizeof *c->sb);
		c->sc = xrealloc(c->sc, sz * sizeof *c->sc);
		c->keys = xrealloc(c->keys, sz * sizeof *c->keys);
		c->ct = xrealloc(c->ct, sz * sizeof *c->ct);
		c->y64 = xrealloc(c->y64, sz * sizeof *c->y64);
		c->cx = xrealloc(c->cx, sz * sizeof *c->cx);
		c->cap = n;
	}
	if (nw > c->capw) {
		c->bits = xrealloc(c->bits, (size_t)nw * sizeof *c->bits);
		c->capw = nw;
	}
}

static void grow_ry(Ctx *c, int32_t n)
{
	if (n <= c->nry)
		return;
	c->ry = xrealloc(c->ry, (size_t)n * sizeof *c->ry);
	for (int32_t i = c->nry; i < n; i++)
		mpz_init(c->ry[i]);
	c->nry = n;
}

/* ---- violations ------------------------------------------------------------ */

static bool seen(const VerifyResult *res, int32_t pc, int32_t var)
{
	for (int32_t i = 0; i < res->nv; i++)
		if (res->v[i].pc == pc && res->v[i].var == var)
			return true;
	return false;
}

static Violation *add_violation(VerifyResult *res)
{
	if (res->nv == res->capv) {
		res->capv = res->capv ? 2 * res->capv : 8;
		res->v = xrealloc(res->v, (size_t)res->capv * sizeof *res->v);
	}
	Violation *v = &res->v[res->nv++];
	memset(v, 0, sizeof *v);
	return v;
}

static void print_list_head(Buf *b, const int32_t *t, int32_t n)
{
	buf_puts(b, n == 1 ? "thread " : "threads ");
	for (int32_t i = 0; i < n && i < SHOWN_THREADS; i++)
		buf_printf(b, "%s%d", i ? ", " : "", t[i]);
	if (n > SHOWN_THREADS)
		buf_printf(b, ", … (%d more)", n - SHOWN_THREADS);
}

static void print_values(Buf *b, const Num *x, int32_t n)
{
	for (int32_t i = 0; i < n && i < SHOWN_THREADS; i++) {
		if (i)
			buf_puts(b, ", ");
		num_buf(b, x[i]);
	}
	if (n > SHOWN_THREADS)
		buf_puts(b, ", …");
}

/* Where pc is: its label or line; a row of a matrix GSA statement is named
** after the statement (its first row carries the label). */
static void print_where(Buf *b, const Program *p, int32_t pc)
{
	if (pc >= 0 && pc < p->nins && p->ins[pc].group >= 0)
		while (pc > 0 && p->ins[pc - 1].group == p->ins[pc].group)
			pc--;
	ir_print_where(b, p, pc);
}

/* A read of v at pc over the c->ct/c->cx PEs (cnt of them) went wrong. */
static void read_violation(Ctx *c, int32_t pc, int32_t v, int32_t cnt, const char *why)
{
	VerifyResult *res = c->res;
	if (res->nv >= c->maxv || seen(res, pc, v))
		return;
	Violation *x = add_violation(res);
	x->pc = pc;
	x->var = v;
	x->nthreads = c->m->nthreads;
	x->n = cnt;
	x->threads = xmalloc((size_t)cnt * sizeof *x->threads);
	x->values = xmalloc((size_t)cnt * sizeof *x->values);
	for (int32_t i = 0; i < cnt; i++) {
		x->threads[i] = c->ct[i];
		x->values[i] = num_copy(c->cx[i]);
	}
	Buf b = {0};
	print_where(&b, c->p, pc);
	buf_printf(&b, ": %s read as %s (", c->p->vars[v].name, ana_class_name(c->r->cls[v]));
	ana_print_value(&b, c->r, v, false);
	buf_puts(&b, ") but ");
	print_list_head(&b, c->ct, cnt);
	buf_puts(&b, cnt == 1 ? " sees " : " see ");
	print_values(&b, c->cx, cnt);
	buf_printf(&b, " (%d thread%s)", c->m->nthreads, c->m->nthreads == 1 ? "" : "s");
	if (why && *why)
		buf_printf(&b, "; %s", why);
	x->msg = buf_steal(&b);
}

/* ---- the check of one read ------------------------------------------------- */

static void check_values(Ctx *c, int32_t pc, int32_t v, int32_t cnt);

static void poly_load(Ctx *c)
{
	int32_t n = c->deg + 1;
	c->cz = xmalloc((size_t)n * sizeof *c->cz);
	for (int32_t k = 0; k < n; k++)
		mpz_init(c->cz[k]);
	size_t nq = (size_t)n * (size_t)(n + 1);
	c->mat = xmalloc(nq * sizeof *c->mat);
	for (size_t i = 0; i < nq; i++)
		mpq_init(c->mat[i]);
	c->piv = xmalloc((size_t)n * sizeof *c->piv);
	mpq_init(c->q);
	mpq_init(c->f);
}

static void poly_free(Ctx *c)
{
	if (!c->cz)
		return;
	int32_t n = c->deg + 1;
	for (int32_t k = 0; k < n; k++)
		mpz_clear(c->cz[k]);
	free(c->cz);
	size_t nq = (size_t)n * (size_t)(n + 1);
	for (size_t i = 0; i < nq; i++)
		mpq_clear(c->mat[i]);
	free(c->mat);
	free(c->piv);
	mpq_clear(c->q);
	mpq_clear(c->f);
}

/* Do values of the unknown coefficients (exponents u[0..nu-1]) fit every
** (t, y) of the cnt PEs? Incremental Gauss–Jordan over ℚ: the basis rows
** are kept reduced (pivot 1, zero in every other row's pivot column).
** Returns true when they fit, else false with the reason in why. */
static bool solve_fit(Ctx *c, const int32_t *u, int32_t nu, int32_t cnt, Buf *why)
{
	int32_t w = nu + 1; /* columns: the unknowns, then the right-hand side */
	mpq_t *work = c->mat + (size_t)nu * (size_t)w;
	int32_t rank = 0;
	for (int32_t i = 0; i < cnt; i++) {
		for (int32_t j = 0; j < nu; j++) {
			mpz_ui_pow_ui(c->tmp, (unsigned long)c->ct[i], (unsigned long)u[j]);
			mpq_set_z(work[j], c->tmp);
		}
		mpq_set_z(work[nu], c->ry[i]);
		/* reduce by the basis */
		for (int32_t r = 0; r < rank; r++) {
			mpq_t *row = c->mat + (size_t)r * (size_t)w;
			int32_t p = c->piv[r];
			if (mpq_sgn(work[p]) == 0)
				continue;
			mpq_set(c->q, work[p]);
			for (int32_t j = 0; j < w; j++) {
				if (mpq_sgn(row[j]) == 0)
					continue;
				mpq_mul(c->f, c->q, row[j]);
				mpq_sub(work[j], work[j], c->f);
			}
		}
		int32_t p = -1;
		for (int32_t j = 0; j < nu && p < 0; j++)
			if (mpq_sgn(work[j]) != 0)
				p = j;
		if (p < 0) {
			if (mpq_sgn(work[nu]) != 0) {
				buf_puts(why, "no values of the ⊥ coefficients fit");
				return false;
			}
			continue; /* redundant */
		}
		/* normalise and add to the basis, clearing column p elsewhere */
		mpq_t *row = c->mat + (size_t)rank * (size_t)w;
		mpq_set(c->q, work[p]);
		for (int32_t j = 0; j < w; j++)
			mpq_div(row[j], work[j], c->q);
		for (int32_t r = 0; r < rank; r++) {
			mpq_t *o = c->mat + (size_t)r * (size_t)w;
			if (mpq_sgn(o[p]) == 0)
				continue;
			mpq_set(c->q, o[p]);
			for (int32_t j = 0; j < w; j++) {
				if (mpq_sgn(row[j]) == 0)
					continue;
				mpq_mul(c->f, c->q, row[j]);
				mpq_sub(o[j], o[j], c->f);
			}
		}
		c->piv[rank++] = p;
	}
	if (rank < nu)
		return true; /* under-determined and consistent: accepted (see the file comment) */
	/* the unique solution must be integral */
	bool integral = true;
	for (int32_t r = 0; r < rank; r++)
		if (mpz_cmp_ui(mpq_denref(c->mat[(size_t)r * (size_t)w + (size_t)nu]), 1) != 0)
			integral = false;
	if (integral)
		return true;
	buf_puts(why, "the ⊥ coefficients would have to be ");
	for (int32_t j = 0; j < nu; j++) {
		for (int32_t r = 0; r < rank; r++) {
			if (c->piv[r] != j)
				continue;
			char *s = mpq_get_str(NULL, 10, c->mat[(size_t)r * (size_t)w + (size_t)nu]);
			buf_printf(why, "%sa_%d = %s", j ? ", " : "", u[j], s);
			void (*freefn)(void *, size_t);
			mp_get_memory_functions(NULL, NULL, &freefn);
			freefn(s, strlen(s) + 1);
		}
	}
	buf_puts(why, ", not integers");
	return false;
}

/* Fast path, one unknown a_e (e ≥ 1): a_e·t^e = y_t. Rows with t = 0 need
** y = 0; the others need y_t / t^e to be one and the same integer (checked
** by cross-multiplication against the first such row). */
static bool fits_one(Ctx *c, int32_t e, int32_t cnt)
{
	int32_t r = -1;
	for (int32_t i = 0; i < cnt; i++) {
		if (c->ct[i] == 0) {
			if (mpz_sgn(c->ry[i]) != 0)
				return false;
			continue;
		}
		mpz_ui_pow_ui(c->tmp, (unsigned long)c->ct[i], (unsigned long)e);
		if (r < 0) {
			r = i;
			if (!mpz_divisible_p(c->ry[i], c->tmp))
				return false;
			mpz_set(c->t2, c->tmp); /* t_r^e */
			continue;
		}
		mpz_mul(c->tmp, c->tmp, c->ry[r]);  /* t_i^e · y_r */
		mpz_mul(c->t3, c->t2, c->ry[i]);    /* t_r^e · y_i */
		if (mpz_cmp(c->tmp, c->t3) != 0)
			return false;
	}
	return true;
}

/* Fast path, a_0 and a_1 unknown: the points (t, y_t) lie on one line
** (cross-multiplication against the first two rows) of integral slope;
** a single row is under-determined. */
static bool fits_affine(Ctx *c, int32_t cnt)
{
	if (cnt < 2)
		return true;
	long t0 = c->ct[0], dt = (long)c->ct[1] - t0;
	mpz_sub(c->t2, c->ry[1], c->ry[0]); /* Δy */
	for (int32_t k = 2; k < cnt; k++) {
		mpz_sub(c->tmp, c->ry[k], c->ry[0]);
		mpz_mul_si(c->tmp, c->tmp, dt);
		mpz_mul_si(c->t3, c->t2, (long)c->ct[k] - t0);
		if (mpz_cmp(c->tmp, c->t3) != 0)
			return false;
	}
	return mpz_divisible_ui_p(c->t2, (unsigned long)(dt < 0 ? -dt : dt)) != 0;
}

/* The fast path of poly_fit in int64/int128, for values and known
** coefficients within int64: true when the PEs fit. False means "not
** shown here" (overflow, a case it does not handle, or a misfit), and
** the exact path decides. */
static bool fits_small(Ctx *c, int32_t v, int32_t cnt, const int32_t *U, int32_t nu)
{
	const AnaResult *r = c->r;
	int32_t n = c->deg;
	if (nu > 2 || (nu == 2 && (U[0] != 0 || U[1] != 1)))
		return false;
	for (int32_t k = 0; k <= n; k++) {
		const Coef *a = ana_coef(r, v, k);
		if (a->kind == COEF_INT && a->n.z)
			return false;
	}
	int64_t *y = c->y64;
	for (int32_t i = 0; i < cnt; i++) {
		if (c->cx[i].z)
			return false;
		int64_t acc = 0, t = c->ct[i];
		for (int32_t k = n; k >= 0; k--) {
			if (__builtin_mul_overflow(acc, t, &acc))
				return false;
			const Coef *a = ana_coef(r, v, k);
			if (a->kind == COEF_INT && __builtin_add_overflow(acc, a->n.i, &acc))
				return false;
		}
		if (__builtin_sub_overflow(c->cx[i].i, acc, &y[i]))
			return false;
	}
	if (nu == 0) {
		for (int32_t i = 0; i < cnt; i++)
			if (y[i] != 0)
				return false;
		return true;
	}
	if (nu == 1 && U[0] == 0) {
		for (int32_t i = 1; i < cnt; i++)
			if (y[i] != y[0])
				return false;
		return true;
	}
	if (nu == 1) {
		/* a_e·t^e = y_t: one integer ratio for the rows with t ≠ 0 */
		int32_t rr = -1;
		__int128 pr = 0;
		for (int32_t i = 0; i < cnt; i++) {
			if (c->ct[i] == 0) {
				if (y[i] != 0)
					return false;
				continue;
			}
			int64_t p = 1;
			for (int32_t k = 0; k < U[0]; k++)
				if (__builtin_mul_overflow(p, (int64_t)c->ct[i], &p))
					return false;
			if (rr < 0) {
				rr = i;
				pr = p;
				if (y[i] % p != 0)
					return false;
				continue;
			}
			if ((__int128)p * y[rr] != pr * y[i])
				return false;
		}
		return true;
	}
	/* a_0 + a_1·t = y_t */
	if (cnt < 2)
		return true;
	int64_t t0 = c->ct[0], dt = (int64_t)c->ct[1] - t0;
	__int128 dy = (__int128)y[1] - y[0];
	for (int32_t k = 2; k < cnt; k++)
		if (((__int128)y[k] - y[0]) * dt != dy * ((int64_t)c->ct[k] - t0))
			return false;
	return dy % dt == 0;
}

/* The polynomial check of v over the c->ct/c->cx PEs. */
static bool poly_fit(Ctx *c, int32_t v, int32_t cnt, Buf *why)
{
	const AnaResult *r = c->r;
	int32_t n = c->deg;
	int32_t u[64], nu = 0;
	int32_t *ubig = NULL;
	int32_t *U = u;
	if (n + 1 > 64)
		U = ubig = xmalloc((size_t)(n + 1) * sizeof *ubig);
	for (int32_t k = 0; k <= n; k++)
		if (ana_coef(r, v, k)->kind != COEF_INT)
			U[nu++] = k;
	if (fits_small(c, v, cnt, U, nu)) {
		free(ubig);
		return true;
	}
	for (int32_t k = 0; k <= n; k++) {
		const Coef *a = ana_coef(r, v, k);
		if (a->kind == COEF_INT)
			num_to_mpz(c->cz[k], a->n);
	}
	grow_ry(c, cnt);
	/* residuals: y_t = x_t − Σ_{known k} a_k t^k */
	for (int32_t i = 0; i < cnt; i++) {
		mpz_set_ui(c->acc, 0);
		int32_t j = nu - 1;
		for (int32_t k = n; k >= 0; k--) {
			mpz_mul_si(c->acc, c->acc, (long)c->ct[i]);
			if (j >= 0 && U[j] == k)
				j--;
			else
				mpz_add(c->acc, c->acc, c->cz[k]);
		}
		num_to_mpz(c->ry[i], c->cx[i]);
		mpz_sub(c->ry[i], c->ry[i], c->acc);
	}
	bool ok = true;
	if (nu == 0) {
		for (int32_t i = 0; i < cnt && ok; i++) {
			if (mpz_sgn(c->ry[i]) == 0)
				continue;
			ok = false;
			num_to_mpz(c->tmp, c->cx[i]);
			mpz_sub(c->tmp, c->tmp, c->ry[i]);
			char *s = mpz_get_str(NULL, 10, c->tmp);
			buf_printf(why, "thread %d should see %s", c->ct[i], s);
			void (*freefn)(void *, size_t);
			mp_get_memory_functions(NULL, NULL, &freefn);
			freefn(s, strlen(s) + 1);
		}
	} else if (nu == 1 && U[0] == 0) {
		for (int32_t i = 1; i < cnt && ok; i++)
			if (mpz_cmp(c->ry[i], c->ry[0]) != 0)
				ok = false;
		if (!ok)
			buf_puts(why, "no value of a_0 fits");
	} else if ((nu == 1 && fits_one(c, U[0], cnt)) || (nu == 2 && U[0] == 0 && U[1] == 1 && fits_affine(c, cnt))) {
		ok = true; /* the fast paths only accept: a failure is decided (and explained) below */
	} else {
		ok = solve_fit(c, U, nu, cnt, why);
	}
	free(ubig);
	return ok;
}

/* Does the analysis claim something about the read of v at pc that a run
** can contradict? Not for divergent (⊥ top coefficient) or undefined
** values, nor for a read after a loop with divergent exits. */
static bool claims(const Ctx *c, int32_t pc, int32_t v)
{
	const AnaResult *r = c->r;
	if (v < 0 || v >= r->nvars)
		return false;
	VarClass cls = r->cls[v];
	if (cls == CLASS_DIVERGENT || cls == CLASS_UNDEFINED || ana_read_divergent(r, pc, v))
		return false;
	if (r->coef != NULL && c->deg >= 0) {
		const Coef *top = ana_coef(r, v, c->deg);
		if (top->kind != COEF_INT)
			return false; /* ⊥: no information (⊤: undefined) */
		for (int32_t k = 0; k < c->deg; k++)
			if (ana_coef(r, v, k)->kind == COEF_TOP)
				return false;
		return true;
	}
	return cls == CLASS_UNIFORM || cls == CLASS_CONSTANT;
}

/* Check the read of v at pc by the PEs tids[0..n-1]. */
static void check_read(Ctx *c, int32_t pc, int32_t v, const int32_t *tids, int32_t n)
{
	if (!claims(c, pc, v))
		return;
	int32_t cnt = 0;
	for (int32_t i = 0; i < n; i++) {
		Num x;
		if (!sem_get(c->m, v, tids[i], &x))
			continue;
		c->ct[cnt] = tids[i];
		c->cx[cnt++] = x;
	}
	check_values(c, pc, v, cnt);
}

/* The check of v's class against the values c->cx of the PEs c->ct. */
static void check_values(Ctx *c, int32_t pc, int32_t v, int32_t cnt)
{
	if (cnt == 0)
		return;
	bool poly = c->r->coef != NULL && c->deg >= 0;
	c->res->reads++;
	c->model_reads++;
	if (!poly) {
		for (int32_t i = 1; i < cnt; i++)
			if (!num_eq(c->cx[i], c->cx[0])) {
				read_violation(c, pc, v, cnt, NULL);
				return;
			}
		return;
	}
	Buf why = {0};
	if (!poly_fit(c, v, cnt, &why))
		read_violation(c, pc, v, cnt, buf_str(&why));
	buf_free(&why);
}

/* ---- the reads of one step ----------------------------------------------- */

static int cmp_key(const void *a, const void *b)
{
	const GKey *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	return (x->t > y->t) - (x->t < y->t);
}

/* The value of a γ predicate in thread t: false when it is unassigned. */
static bool gate_value(const Machine *m, const Opnd *p, int32_t t, bool *nonzero)
{
	Num x;
	switch (p->kind) {
	case OPND_VAR:
		if (!sem_get(m, p->var, t, &x))
			return false;
		*nonzero = !num_is_zero(x);
		return true;
	case OPND_LIT: *nonzero = !num_is_zero(ir_lit(m->prog, p)); return true;
	case OPND_SPECIAL: *nonzero = sem_special(m, (Special)p->special, t) != 0; return true;
	default: return false;
	}
}

/* The reads of γ's tree by the PEs grp[0..ng-1]: each node's predicate by
** the PEs whose path reaches it, each value by the PEs that select it
** (semantics.md §4: γ reads lazily). The PEs are partitioned down the tree
** in c->sc, with an explicit stack (a tree has at most 1 + nargs/3 nodes). */
static void gamma_reads(Ctx *c, int32_t pc, const Ins *ins, const int32_t *grp, int32_t ng)
{
	typedef struct Seg {
		const Opnd *gate;
		int32_t lo, hi;
	} Seg;
	int32_t cap = 2 + ins->nargs / 3 * 2 + 2;
	Seg *st = xmalloc((size_t)cap * sizeof *st);
	int32_t *buf = c->sc, *tmp = c->sb;
	memcpy(buf, grp, (size_t)ng * sizeof *buf);
	int32_t sp = 0;
	st[sp++] = (Seg){NULL, 0, ng};
	while (sp > 0) {
		Seg g = st[--sp];
		const Opnd *pred = ir_gate_pred(ins, g.gate);
		if (pred->kind == OPND_VAR)
			check_read(c, pc, pred->var, buf + g.lo, g.hi - g.lo);
		/* where the predicate is non-zero first, then zero; unassigned: stuck there */
		int32_t nz = 0, n = 0;
		for (int32_t i = g.lo; i < g.hi; i++) {
			bool v;
			if (gate_value(c->m, pred, buf[i], &v) && v)
				tmp[n++] = buf[i];
		}
		nz = n;
		for (int32_t i = g.lo; i < g.hi; i++) {
			bool v;
			if (gate_value(c->m, pred, buf[i], &v) && !v)
				tmp[n++] = buf[i];
		}
		memcpy(buf + g.lo, tmp, (size_t)n * sizeof *buf);
		int32_t seg[2][2] = {{g.lo, g.lo + nz}, {g.lo + nz, g.lo + n}};
		for (int side = 0; side < 2; side++) {
			if (seg[side][1] == seg[side][0])
				continue;
			const Opnd *sel = ir_gate_side(ins, g.gate, side == 0);
			if (sel->kind == OPND_GATE && sp < cap)
				st[sp++] = (Seg){sel, seg[side][0], seg[side][1]};
			else if (sel->kind == OPND_VAR)
				check_read(c, pc, sel->var, buf + seg[side][0], seg[side][1] - seg[side][0]);
		}
	}
	free(st);
}

/* The GSA group pc..pc+count-1 executed by the PEs tids[0..n-1]. */
static void gsa_reads(Ctx *c, int32_t pc, int32_t count, const int32_t *tids, int32_t n)
{
	const Machine *m = c->m;
	int32_t blk = c->g->block_of[pc];
	for (int32_t i = 0; i < n; i++)
		c->keys[i] = (GKey){m->from_block[tids[i]], tids[i], c->edge_step[tids[i]]};
	qsort(c->keys, (size_t)n, sizeof *c->keys, cmp_key);
	for (int32_t s = 0; s < n;) {
		int32_t e = s + 1;
		while (e < n && c->keys[e].from == c->keys[s].from && c->keys[e].step == c->keys[s].step)
			e++;
		int32_t ng = e - s;
		for (int32_t i = 0; i < ng; i++)
			c->grp[i] = c->keys[s + i].t;
		for (int32_t j = 0; j < count; j++) {
			const Ins *ins = &c->p->ins[pc + j];
			if (ins->op == OP_GAMMA) {
				gamma_reads(c, pc + j, ins, c->grp, ng);
				continue;
			}
			/* μ/φ: the operand of the group's edge; η its value */
			const Opnd *first = NULL;
			int32_t nb = 0;
			for (int32_t i = 0; i < ng; i++) {
				int32_t t = c->grp[i];
				const Opnd *o = sem_gsa_operand(m, ins, blk, t);
				if (!o)
					continue;
				if (!first || o == first) {
					first = o;
					c->sb[nb++] = t;
				}
			}
			if (nb && first->kind == OPND_VAR)
				check_read(c, pc + j, first->var, c->sb, nb);
		}
		s = e;
	}
}

/* Before warp wi steps: check what it will read. */
static void pre_step(Ctx *c, int32_t wi)
{
	const Machine *m = c->m;
	const Warp *w = &m->warps[wi];
	int32_t pc = w->pc;
	if (pc < 0 || pc >= c->p->nins)
		return;
	const Ins *ins = &c->p->ins[pc];
	const Block *blk = &c->g->blocks[c->g->block_of[pc]];
	if (m->model->honours_sync && blk->implicit_sync && pc == blk->first) {
		/* the group runs only if the model says this step runs it (sync: SP,
		** then with Θ ∪ Θ_done) */
		if (blk->ngsa <= 0 || !m->model->gsa_lanes || !m->model->gsa_lanes(w, c->bits))
			return;
		int32_t n = list_set(w, c->bits, c->tids);
		gsa_reads(c, pc, blk->ngsa, c->tids, n);
		return;
	}
	if (ir_is_gsa(ins->op)) {
		/* a μ/φ block: the group is one IT step over Θ */
		int32_t n = list_set(w, w->active, c->tids);
		gsa_reads(c, pc, blk->ngsa, c->tids, n);
		return;
	}
	/* an ordinary instruction: each variable operand once, over Θ */
	int32_t vars[3];
	int32_t nv = 0;
	const Opnd *ops[3] = {&ins->a, &ins->b, &ins->c};
	for (int32_t i = 0; i < 3; i++)
		if (ops[i]->kind == OPND_VAR)
			vars[nv++] = ops[i]->var;
	if (nv == 0 && ins->nargs == 0)
		return;
	int32_t n = list_set(w, w->active, c->tids);
	if (n == 0)
		return;
	for (int32_t i = 0; i < nv; i++) {
		bool dup = false;
		for (int32_t j = 0; j < i; j++)
			dup |= vars[j] == vars[i];
		if (!dup)
			check_read(c, pc, vars[i], c->tids, n);
	}
	for (int32_t k = 0; k < ins->nargs; k++) {
		if (ins->args[k].kind != OPND_VAR)
			continue;
		int32_t v = ins->args[k].var;
		bool dup = false;
		for (int32_t j = 0; j < nv; j++)
			dup |= vars[j] == v;
		for (int32_t j = 0; j < k; j++)
			dup |= ins->args[j].kind == OPND_VAR && ins->args[j].var == v;
		if (!dup)
			check_read(c, pc, v, c->tids, n);
	}
}

static void mark_edge(Ctx *c, const Warp *w, const uint64_t *set, uint64_t step)
{
	BitIter it = bits_iter(set, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
		c->edge_step[w->base + l] = step;
}

static void bd_violation(Ctx *c, const Warp *w, const StepInfo *info)
{
	VerifyResult *res = c->res;
	int32_t pc = info->pc;
	if (res->nv >= c->maxv || seen(res, pc, -1))
		return;
	const Ins *ins = &c->p->ins[pc];
	/* the deferred PEs: Θ at the start of the step minus the fall-through Θ */
	for (int32_t j = 0; j < w->nw; j++)
		c->bits[j] = info->active[j] & ~w->active[j];
	Violation *x = add_violation(res);
	x->pc = pc;
	x->var = -1;
	x->nthreads = c->m->nthreads;
	x->threads = xmalloc((size_t)w->size * sizeof *x->threads);
	x->n = list_set(w, info->active, x->threads);
	x->values = NULL;
	Buf b = {0};
	ir_print_where(&b, c->p, pc);
	buf_puts(&b, ": branch on ");
	ir_print_opnd(&b, c->p, &ins->a);
	buf_puts(&b, " classified uniform fired BD (threads ");
	sem_print_set(&b, c->m, w->id, c->bits);
	buf_printf(&b, " deferred, %d thread%s)", c->m->nthreads, c->m->nthreads == 1 ? "" : "s");
	x->msg = buf_steal(&b);
}

/* After warp wi stepped: the PEs that took an edge (the step's effects,
** a barrier's release included); BD on a uniform branch. */
static void post_step(Ctx *c, int32_t wi, const StepInfo *info)
{
	const Machine *m = c->m;
	if (info->rule == RULE_BD && c->r->branch_divergent && !c->r->branch_divergent[info->pc])
		bd_violation(c, &m->warps[wi], info);
	for (int32_t i = 0; i < info->nedges; i++)
		mark_edge(c, &m->warps[info->edges[i].warp], info->edges[i].lanes, info->step);
}

/* ---- mimd and its: reads matched by dynamic instance ---------------------- */

typedef struct MRead {
	int32_t pc, var, warp, tid;
	uint64_t inst;        /* the iteration vector's hash */
	Num value;            /* owned */
} MRead;

typedef struct Slot {
	uint64_t key, val;
} Slot;

/* An open-addressing map of 64-bit keys (key 0 is never used: keys are
** hashes or'ed with 1). */
typedef struct Map {
	Slot *s;
	size_t cap, n;
} Map;

static uint64_t *map_at(Map *mp, uint64_t key, bool insert)
{
	if (insert && 2 * (mp->n + 1) > mp->cap) {
		Map old = *mp;
		mp->cap = old.cap ? 2 * old.cap : 1024;
		mp->s = xcalloc(mp->cap, sizeof *mp->s);
		mp->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.s[i].key)
				*map_at(mp, old.s[i].key, true) = old.s[i].val;
		free(old.s);
	}
	if (!mp->cap)
		return NULL;
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 7) & (mp->cap - 1);
	while (mp->s[i].key && mp->s[i].key != key)
		i = (i + 1) & (mp->cap - 1);
	if (mp->s[i].key == key)
		return &mp->s[i].val;
	if (!insert)
		return NULL;
	mp->s[i].key = key;
	mp->n++;
	return &mp->s[i].val;
}

typedef struct Inst {
	int32_t *header_loop;    /* per block: the loop it heads, or -1 */
	int32_t **lp, **lc;      /* per thread: the loops it is in, and the back edges taken */
	int32_t *ln, *lcap;
	MRead *rd;
	size_t nrd, caprd, max;
	bool overflow;
	bool *off;               /* per thread: not checked any more (a racy load) */
	int32_t noff;
	Map first_load;          /* (load, instance) → step of its first read */
	Map last_store;          /* cell → step of its last store */
} Inst;

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t instance(const Inst *md, int32_t t)
{
	uint64_t h = 0x84222325cbf29ce4ull;
	for (int32_t i = 0; i < md->ln[t]; i++)
		h = mix(mix(h, (uint64_t)md->lp[t][i]), (uint64_t)md->lc[t][i]);
	return h;
}

/* Thread t enters block b: leave the loops b is not in; a header counts a
** back edge, or starts its loop's count. */
static void inst_enter(Inst *md, const Cfg *g, int32_t t, int32_t b)
{
	while (md->ln[t] > 0) {
		int32_t l = md->lp[t][md->ln[t] - 1];
		bool in = false;
		for (int32_t k = g->blocks[b].loop; k >= 0 && !in; k = g->loops[k].parent)
			in = k == l;
		if (in)
			break;
		md->ln[t]--;
	}
	int32_t l = md->header_loop[b];
	if (l < 0)
		return;
	if (md->ln[t] > 0 && md->lp[t][md->ln[t] - 1] == l) {
		md->lc[t][md->ln[t] - 1]++;
		return;
	}
	if (md->ln[t] == md->lcap[t]) {
		md->lcap[t] = md->lcap[t] ? 2 * md->lcap[t] : 4;
		md->lp[t] = xrealloc(md->lp[t], (size_t)md->lcap[t] * sizeof **md->lp);
		md->lc[t] = xrealloc(md->lc[t], (size_t)md->lcap[t] * sizeof **md->lc);
	}
	md->lp[t][md->ln[t]] = l;
	md->lc[t][md->ln[t]] = 0;
	md->ln[t]++;
}

/* Keep thread t's read of v at pc for the check at the end of the run. */
static void inst_read(Ctx *c, int32_t pc, int32_t v, int32_t t)
{
	Inst *md = c->inst;
	Num x;
	if (md->off[t] || md->overflow || !claims(c, pc, v) || !sem_get(c->m, v, t, &x))
		return;
	if (md->nrd == md->max) {
		md->overflow = true;
		return;
	}
	MRead r = {pc, v, t / c->m->warpsize, t, instance(md, t), num_copy(x)};
	VEC_PUSH(md->rd, md->nrd, md->caprd, r);
}

static bool opnd_cell(const Machine *m, const Opnd *o, int32_t t, int64_t *cell)
{
	Num x;
	if (o->kind == OPND_LIT)
		x = ir_lit(m->prog, o);
	else if (o->kind == OPND_SPECIAL)
		x = NUM_I(sem_special(m, (Special)o->special, t));
	else if (o->kind != OPND_VAR || !sem_get(m, o->var, t, &x))
		return false;
	if (x.z || x.i < 0)
		return false;
	*cell = x.i;
	return true;
}

/* Before thread t steps at pc: keep what it will read. */
static void inst_pre_thread(Ctx *c, int32_t t, int32_t pc)
{
	Inst *md = c->inst;
	const Machine *m = c->m;
	const Ins *ins = &c->p->ins[pc];
	const Block *blk = &c->g->blocks[c->g->block_of[pc]];
	if (ir_is_gsa(ins->op)) {
		for (int32_t j = 0; j < blk->ngsa; j++) {
			const Ins *gi = &c->p->ins[pc + j];
			/* γ: the predicates on the thread's path, then its value */
			const Opnd *at = NULL;
			while (gi->op == OP_GAMMA) {
				const Opnd *p = ir_gate_pred(gi, at);
				bool nz;
				if (p->kind == OPND_VAR)
					inst_read(c, pc + j, p->var, t);
				if (!gate_value(m, p, t, &nz))
					break;
				at = ir_gate_side(gi, at, nz);
				if (at->kind != OPND_GATE) {
					if (at->kind == OPND_VAR)
						inst_read(c, pc + j, at->var, t);
					break;
				}
			}
			if (gi->op != OP_GAMMA) {
				const Opnd *o = sem_gsa_operand(m, gi, c->g->block_of[pc], t);
				if (o && o->kind == OPND_VAR)
					inst_read(c, pc + j, o->var, t);
			}
		}
		return;
	}
	const Opnd *o;
	for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++)
		if (o->kind == OPND_VAR)
			inst_read(c, pc, o->var, t);
	int64_t cell;
	if (ins->op == OP_LOAD && opnd_cell(m, &ins->a, t, &cell)) {
		/* a store to the cell since the instance's first read: a race */
		uint64_t key = mix(mix(instance(md, t), (uint64_t)pc), (uint64_t)(t / m->warpsize)) | 1;
		uint64_t *first = map_at(&md->first_load, key, false);
		uint64_t *st = map_at(&md->last_store, (uint64_t)cell * 2 + 1, false);
		if (!first)
			*map_at(&md->first_load, key, true) = m->steps + 1;
		else if (st && *st > *first && !md->off[t]) {
			md->off[t] = true;
			md->noff++;
		}
	}
}

/* Before warp wi steps: every thread that issues (one under mimd, the
** issuing group under its) keeps what it will read. */
static void inst_pre(Ctx *c, int32_t wi)
{
	const Warp *w = &c->m->warps[wi];
	if (w->pc < 0 || w->pc >= c->p->nins)
		return;
	BitIter it = bits_iter(w->active, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;)
		inst_pre_thread(c, w->base + l, w->pc);
}

/* Where lane l of w is now: the pc of its group (its) or of the warp. */
static int32_t lane_pc(const Machine *m, const Warp *w, int32_t l)
{
	if (bit_get(w->active, l))
		return w->pc;
	int32_t pc = -1;
	if (m->model->lane_held && m->model->lane_held(w, l, &pc) == CTL_NOT_HELD)
		pc = -1;
	return pc;
}

/* After a step (its effects): the cells it wrote, and the threads that
** entered a block (a loop header counts an iteration). */
static void inst_post(Ctx *c, const StepInfo *info)
{
	Inst *md = c->inst;
	const Machine *m = c->m;
	for (int32_t i = 0; i < info->nstores; i++)
		*map_at(&md->last_store, (uint64_t)info->stores[i] * 2 + 1, true) = m->steps;
	for (int32_t i = 0; i < info->nedges; i++) {
		const Warp *w = &m->warps[info->edges[i].warp];
		BitIter it = bits_iter(info->edges[i].lanes, w->nw);
		for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
			int32_t pc = lane_pc(m, w, l);
			if (pc >= 0 && pc < c->p->nins)
				inst_enter(md, c->g, w->base + l, c->g->block_of[pc]);
		}
	}
}

static int cmp_mread(const void *a, const void *b)
{
	const MRead *x = a, *y = b;
#define CMP(f)                                                                               \
	if (x->f != y->f)                                                                        \
		return x->f < y->f ? -1 : 1;
	CMP(pc)
	CMP(var)
	CMP(warp)
	CMP(inst)
	CMP(tid)
#undef CMP
	return 0;
}

/* The reads kept, grouped by instance, against the analysis. */
static void inst_check(Ctx *c)
{
	Inst *md = c->inst;
	if (md->nrd > 0)
		qsort(md->rd, md->nrd, sizeof *md->rd, cmp_mread);
	for (size_t i = 0; i < md->nrd;) {
		size_t e = i + 1;
		while (e < md->nrd && md->rd[e].pc == md->rd[i].pc && md->rd[e].var == md->rd[i].var &&
		       md->rd[e].warp == md->rd[i].warp && md->rd[e].inst == md->rd[i].inst)
			e++;
		int32_t cnt = 0;
		for (size_t k = i; k < e; k++) {
			/* one read per thread (an instruction may name v twice) */
			if (cnt > 0 && c->ct[cnt - 1] == md->rd[k].tid)
				continue;
			c->ct[cnt] = md->rd[k].tid;
			c->cx[cnt++] = md->rd[k].value;
		}
		check_values(c, md->rd[i].pc, md->rd[i].var, cnt);
		i = e;
	}
}

static void inst_free(Inst *md, int32_t n)
{
	for (size_t i = 0; i < md->nrd; i++)
		num_free(&md->rd[i].value);
	free(md->rd);
	for (int32_t t = 0; t < n; t++) {
		free(md->lp[t]);
		free(md->lc[t]);
	}
	free(md->lp);
	free(md->lc);
	free(md->ln);
	free(md->lcap);
	free(md->off);
	free(md->header_loop);
	free(md->first_load.s);
	free(md->last_store.s);
}

/* ---- the driver ------------------------------------------------------------ */

/* One run under a model whose warps issue together (sync, ipdom): the
** warp-synchronous oracle. */
static void run_one(Ctx *c)
{
	Machine *m = c->m;
	grow_threads(c, m->nthreads, bits_words(m->sched_warpsize));
	c->edge_step = xcalloc((size_t)m->nthreads, sizeof *c->edge_step);
	m->effects = true;
	StepInfo info;
	while (m->status == SEM_RUNNING) {
		int32_t w = sem_schedule(m);
		if (w < 0)
			break;
		pre_step(c, w);
		uint64_t before = m->steps;
		sem_step(m, w, &info);
		if (m->steps > before) {
			sem_advance(m, w);
			post_step(c, w, &info);
		}
	}
	free(c->edge_step);
	c->edge_step = NULL;
}

/* One run under a model whose threads have pcs of their own (mimd, its):
** reads kept per dynamic instance, checked at the end. Returns false when the oracle ran out of room for the reads. */
static bool run_one_instances(Ctx *c, uint64_t max_reads)
{
	Machine *m = c->m;
	const Cfg *g = c->g;
	int32_t n = m->nthreads;
	grow_threads(c, n, 1);
	Inst md = {0};
	md.max = max_reads;
	md.lp = xcalloc((size_t)n, sizeof *md.lp);
	md.lc = xcalloc((size_t)n, sizeof *md.lc);
	md.ln = xcalloc((size_t)n, sizeof *md.ln);
	md.lcap = xcalloc((size_t)n, sizeof *md.lcap);
	md.off = xcalloc((size_t)n, sizeof *md.off);
	md.header_loop = xmalloc(((size_t)g->nblocks + 1) * sizeof *md.header_loop);
	for (int32_t b = 0; b <= g->nblocks; b++)
		md.header_loop[b] = -1;
	for (int32_t l = 0; l < g->nloops; l++)
		md.header_loop[g->loops[l].header] = l;
	c->inst = &md;
	m->effects = true;
	if (g->nblocks > 0)
		for (int32_t t = 0; t < n; t++)
			inst_enter(&md, g, t, 0);
	StepInfo info;
	while (m->status == SEM_RUNNING && !md.overflow) {
		int32_t w = sem_schedule(m);
		if (w < 0)
			break;
		inst_pre(c, w);
		uint64_t before = m->steps;
		sem_step(m, w, &info);
		if (m->steps > before) {
			sem_advance(m, w);
			inst_post(c, &info);
		}
	}
	bool ok = !md.overflow;
	if (ok && m->status == SEM_OK)
		inst_check(c);
	c->inst = NULL;
	inst_free(&md, n);
	return ok;
}

static VerifyUnfinished *add_unfinished(VerifyModel *vm, int32_t threads, const char *status)
{
	VEC_GROW(vm->un, vm->nun, vm->capun);
	VerifyUnfinished *u = &vm->un[vm->nun++];
	memset(u, 0, sizeof *u);
	u->threads = threads;
	u->status = status;
	return u;
}

/* The reason a run did not finish, with where (the user's line). */
static void describe(VerifyUnfinished *u, const Machine *m)
{
	const Program *p = m->prog;
	Buf b = {0};
	if (m->err.pc >= 0 && m->err.pc < p->nins) {
		ir_print_where(&b, p, m->err.pc);
		buf_printf(&b, " (line %d): ", (int)p->ins[m->err.pc].loc.line);
	}
	buf_puts(&b, m->err.msg ? m->err.msg : sem_status_name(m->status));
	u->rule = m->err.rule ? xstrdup(m->err.rule) : NULL;
	u->msg = buf_steal(&b);
}

VerifyResult *verify_run(const Program *gsa, const AnaResult *r, const VerifyOptions *o, Diags *d)
{
	VerifyResult *res = xcalloc(1, sizeof *res);
	Ctx c = {0};
	c.p = gsa;
	c.g = gsa->cfg;
	c.r = r;
	c.res = res;
	c.maxv = o->max_violations > 0 ? o->max_violations : 100;
	c.deg = r->coef ? r->opt.degree : -1;
	mpz_init(c.acc);
	mpz_init(c.tmp);
	mpz_init(c.t2);
	mpz_init(c.t3);
	if (c.deg >= 0)
		poly_load(&c);
	/* thread counts: 1..K, and the program's own .threads */
	int32_t K = o->max_threads > 0 ? o->max_threads : 8;
	const Program *src = o->orig ? o->orig : gsa;
	int32_t own = o->sem.threads > 0 ? o->sem.threads : src->threads;
	res->counts = xmalloc(((size_t)K + 2) * sizeof *res->counts);
	for (int32_t k = 1; k <= K; k++)
		res->counts[res->ncounts++] = k;
	if (own > K)
		res->counts[res->ncounts++] = own;
	unsigned want = o->models ? o->models : VERIFY_ALL;
	uint64_t max_reads = o->max_reads ? o->max_reads : 4000000;
	bool failed = false;
	VerifyProgress pr = {0, 0, NULL, 0, 0};
	for (int mi = 0; models[mi]; mi++)
		pr.total += (want & (1u << mi)) ? res->ncounts : 0;
	double t0 = o->progress ? mono_seconds() : 0;
	for (int mi = 0; models[mi] && !failed && !res->timed_out; mi++) {
		if (!(want & (1u << mi)))
			continue;
		const Model *model = models[mi];
		VerifyModel *vm = &res->models[res->nmodels++];
		vm->model = model;
		c.model_reads = 0;
		for (int32_t i = 0; i < res->ncounts && !failed && !res->timed_out; i++) {
			int32_t k = res->counts[i];
			if (o->progress) {
				pr.model = model;
				pr.threads = k;
				pr.seconds = mono_seconds() - t0;
				o->progress(o->progress_ctx, &pr);
				pr.run++;
			}
			SemOptions so = o->sem;
			so.model = model;
			so.threads = k;
			/* the program itself first under sync, where the GSA form's implicit syncs may
			** run where the program's syncs do not: a run it cannot finish says nothing
			** (under ipdom and mimd the two behave alike: the program runs only when the
			** GSA form does not finish, to tell which failed) */
			if (o->orig && model->honours_sync) {
				Machine *pm = sem_new(o->orig, &so, d);
				if (!pm) {
					failed = true;
					break;
				}
				sem_run(pm, NULL, NULL);
				if (pm->status != SEM_OK) {
					res->timed_out = pm->status == SEM_TIME_LIMIT;
					vm->runs++;
					res->runs++;
					res->stuck++;
					describe(add_unfinished(vm, k, sem_status_name(pm->status)), pm);
					sem_free(pm);
					continue;
				}
				sem_free(pm);
			}
			Machine *m = sem_new(gsa, &so, d);
			if (!m) {
				failed = true;
				break;
			}
			c.m = m;
			vm->runs++;
			res->runs++;
			bool ok = true;
			if (model->warps_of_one || model->lane_pcs)
				ok = run_one_instances(&c, max_reads);
			else
				run_one(&c);
			if (!ok) {
				res->stuck++;
				VerifyUnfinished *u = add_unfinished(vm, k, "oracle-limit");
				Buf b = {0};
				buf_printf(&b, "not checked: the oracle keeps at most %llu reads of a run under %s",
				           (unsigned long long)max_reads, model->name);
				u->msg = buf_steal(&b);
			} else if (m->status != SEM_OK) {
				res->stuck++;
				res->timed_out = m->status == SEM_TIME_LIMIT;
				Machine *pm = NULL;
				if (o->orig && !model->honours_sync && (pm = sem_new(o->orig, &so, d)) != NULL)
					sem_run(pm, NULL, NULL);
				bool gsa_only = pm ? pm->status == SEM_OK : o->orig != NULL && model->honours_sync;
				VerifyUnfinished *u = add_unfinished(vm, k, sem_status_name((pm && !gsa_only ? pm : m)->status));
				describe(u, pm && !gsa_only ? pm : m);
				u->gsa_only = gsa_only;
				sem_free(pm);
			} else {
				vm->finished++;
			}
			sem_free(m);
			c.m = NULL;
		}
		vm->reads = c.model_reads;
		vm->applicable = vm->finished > 0;
		for (int32_t i = 0; i < vm->nun && !vm->applicable; i++)
			vm->applicable = vm->un[i].gsa_only;
		res->verified |= vm->finished > 0;
	}
	if (failed) {
		verify_free(res);
		res = NULL;
	}
	poly_free(&c);
	for (int32_t i = 0; i < c.nry; i++)
		mpz_clear(c.ry[i]);
	free(c.ry);
	mpz_clear(c.acc);
	mpz_clear(c.tmp);
	mpz_clear(c.t2);
	mpz_clear(c.t3);
	free(c.tids);
	free(c.grp);
	free(c.sb);
	free(c.sc);
	free(c.keys);
	free(c.ct);
	free(c.y64);
	free(c.cx);
	free(c.bits);
	return res;
}

void verify_free(VerifyResult *v)
{
	if (!v)
		return;
	for (int32_t i = 0; i < v->nv; i++) {
		Violation *x = &v->v[i];
		if (x->values)
			for (int32_t j = 0; j < x->n; j++)
				num_free(&x->values[j]);
		free(x->values);
		free(x->threads);
		free(x->msg);
	}
	free(v->v);
	for (int32_t i = 0; i < v->nmodels; i++) {
		VerifyModel *vm = &v->models[i];
		for (int32_t k = 0; k < vm->nun; k++) {
			free(vm->un[k].rule);
			free(vm->un[k].msg);
		}
		free(vm->un);
	}
	free(v->counts);
	free(v);
}

/* ---- Corollary 1 --------------------------------------------------------------- */

int32_t verify_corollary1(const AnaResult *simple, const AnaResult *poly, VerifyResult *out)
{
	int32_t n = simple->nvars < poly->nvars ? simple->nvars : poly->nvars;
	const Program *p = simple->prog ? simple->prog : poly->prog;
	int32_t found = 0;
	for (int32_t v = 0; v < n; v++) {
		VarClass s = simple->cls[v], q = poly->cls[v];
		if (s != CLASS_UNIFORM && s != CLASS_CONSTANT)
			continue;
		/* undefined (⊤) lies below uniform: no disagreement */
		if (q == CLASS_UNIFORM || q == CLASS_CONSTANT || q == CLASS_UNDEFINED)
			continue;
		found++;
		Violation *x = add_violation(out);
		x->pc = -1;
		x->var = v;
		Buf b = {0};
		buf_printf(&b, "%s is %s in the simple analysis but %s (", p ? p->vars[v].name : "?",
		           ana_class_name(s), ana_class_name(q));
		ana_print_value(&b, poly, v, false);
		buf_printf(&b, ") in the degree-%d analysis (Corollary 1)", poly->opt.degree);
		x->msg = buf_steal(&b);
	}
	return found;
}
