/*
** test_sem.c — the semantics of μ-SIMD (src/sem.c) against
** /work/shared/spec/semantics.md and the digests (seed 001 §1, §11.6 T1-T7;
** seed 003 §1, §8.2 TC-AUX-1/2, TC-SEM-1..9).
**
** Every expected value below is derived by hand from the rules; the
** derivation is written next to it. Conventions:
**   - programs label the instruction at pc k as "lk" where that helps;
**   - thread sets are bit masks over the lanes of a warp: TH(t) is lane t,
**     ALL4 the four threads of the papers' machine;
**   - a stack is written top first, as the papers do: (l_id, Θ_done, l_next, Θ_todo).
*/
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "model.h"
#include "sem.h"
#include "testlib.h"

#define TH(t) (1ull << (t))
#define ALL4 0xFull
#define NONE 0ull

/* ---- loading and running ------------------------------------------------------ */

static SemOptions opts(void)
{
	SemOptions o;
	memset(&o, 0, sizeof o);
	return o;
}

typedef struct Run {
	Prog pr;
	Machine *m;
} Run;

static Run start_with(const char *src, const SemOptions *o)
{
	Run r;
	r.pr = load(src);
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	r.m = sem_new(r.pr.p, o, &d);
	if (!r.m) {
		Buf b = {0};
		diag_render(&d, &b);
		cr_assert_fail("sem_new failed:\n%s", buf_str(&b));
	}
	diag_free(&d);
	return r;
}

static Run start(const char *src)
{
	SemOptions o = opts();
	return start_with(src, &o);
}

static void finish(Run *r)
{
	sem_free(r->m);
	unload(&r->pr);
}

static int32_t pc_of(const Program *p, const char *label)
{
	int32_t l = ir_find_label(p, label);
	cr_assert(l >= 0, "no label %s", label);
	return p->labels[l].ins;
}

/* ---- reading the state -------------------------------------------------------- */

static int32_t vix(const Machine *m, const char *name)
{
	int32_t v = ir_find_var(m->prog, name);
	cr_assert(v >= 0, "no variable %s", name);
	return v;
}

static bool has_var(const Machine *m, const char *name, int32_t t)
{
	Num x;
	return sem_get(m, vix(m, name), t, &x);
}

static int64_t var(const Machine *m, const char *name, int32_t t)
{
	Num x;
	cr_assert(sem_get(m, vix(m, name), t, &x), "%s unassigned in thread %d", name, t);
	cr_assert(x.z == NULL, "%s holds a big value in thread %d", name, t);
	return x.i;
}

static void expect_vars(const Machine *m, const char *name, const int64_t *want, int n, int line)
{
	for (int t = 0; t < n; t++) {
		Num x;
		bool ok = sem_get(m, vix(m, name), t, &x);
		cr_expect(ok, "line %d: %s unassigned in thread %d", line, name, t);
		if (!ok)
			continue;
		cr_expect(x.z == NULL, "line %d: %s is big in thread %d", line, name, t);
		cr_expect_eq(x.i, want[t], "line %d: %s = %lld in thread %d, want %lld", line, name,
		             (long long)x.i, t, (long long)want[t]);
	}
}
#define I64S(...) ((const int64_t[]){__VA_ARGS__})
#define NI64S(...) ((int)(sizeof(I64S(__VA_ARGS__)) / sizeof(int64_t)))
#define EXPECT_VARS(m, name, ...) expect_vars(m, name, I64S(__VA_ARGS__), NI64S(__VA_ARGS__), __LINE__)

/* The decimal text of a variable (any size). */
static void expect_var_str(const Machine *m, const char *name, int32_t t, const char *want, int line)
{
	Num x;
	bool ok = sem_get(m, vix(m, name), t, &x);
	cr_assert(ok, "line %d: %s unassigned in thread %d", line, name, t);
	char *s = num_str(x);
	cr_expect_str_eq(s, want, "line %d: %s = %s in thread %d, want %s", line, name, s, t, want);
	free(s);
}
#define EXPECT_STR(m, name, t, want) expect_var_str(m, name, t, want, __LINE__)

static bool is_big(const Machine *m, const char *name, int32_t t)
{
	Num x;
	cr_assert(sem_get(m, vix(m, name), t, &x), "%s unassigned in thread %d", name, t);
	return x.z != NULL;
}

static bool cell(const Machine *m, int64_t addr, int64_t *out)
{
	Num x;
	if (!mem_get(&m->shared, addr, &x))
		return false;
	cr_assert(x.z == NULL, "cell %lld is big", (long long)addr);
	*out = x.i;
	return true;
}

static void expect_mem(const Machine *m, int64_t base, const int64_t *want, int n, int line)
{
	for (int i = 0; i < n; i++) {
		int64_t v;
		bool ok = cell(m, base + i, &v);
		cr_expect(ok, "line %d: Σ[%lld] uninitialised", line, (long long)(base + i));
		if (ok)
			cr_expect_eq(v, want[i], "line %d: Σ[%lld] = %lld, want %lld", line, (long long)(base + i),
			             (long long)v, (long long)want[i]);
	}
}
#define EXPECT_MEM(m, base, ...) expect_mem(m, base, I64S(__VA_ARGS__), NI64S(__VA_ARGS__), __LINE__)

static void expect_no_cell(const Machine *m, int64_t addr, int line)
{
	Num x;
	cr_expect(!mem_get(&m->shared, addr, &x), "line %d: Σ[%lld] should be uninitialised", line,
	          (long long)addr);
}
#define EXPECT_NO_CELL(m, addr) expect_no_cell(m, addr, __LINE__)

/* Warp w: pc, Θ (one word: the tests use warps of at most 64 lanes), depth. */
static void expect_at(const Machine *m, int w, int32_t pc, uint64_t active, int32_t depth, int line)
{
	const Warp *wp = &m->warps[w];
	cr_expect_eq(wp->pc, pc, "line %d: pc %d, want %d", line, wp->pc, pc);
	cr_expect_eq(wp->active[0], active, "line %d: Θ = %#llx, want %#llx", line,
	             (unsigned long long)wp->active[0], (unsigned long long)active);
	int32_t d = sem_stack_depth(m, w);
	cr_expect_eq(d, depth, "line %d: stack depth %d, want %d", line, d, depth);
}
#define AT(m, pc, active, depth) expect_at(m, 0, pc, active, depth, __LINE__)
#define WAT(m, w, pc, active, depth) expect_at(m, w, pc, active, depth, __LINE__)

/* Node k from the top of warp w's Π, read through the model's view:
** (l_id, Θ_done, l_next, Θ_todo). */
static void expect_node(const Machine *m, int w, int k, int32_t lid, uint64_t done, int32_t lnext,
                        uint64_t todo, int line)
{
	const Warp *wp = &m->warps[w];
	cr_assert_eq(m->model, &model_sync, "line %d: not the sync model", line);
	int32_t i = wp->ctl.n - 1 - k;
	cr_assert(i >= 0, "line %d: no node %d from the top (depth %d)", line, k, wp->ctl.n);
	CtlView v;
	m->model->view(wp, i, &v);
	uint64_t d = v.set[1][0], t = v.set[3][0];
	cr_expect(v.pc[0] == lid && d == done && v.pc[2] == lnext && t == todo,
	          "line %d: node %d = (%d, %#llx, %d, %#llx), want (%d, %#llx, %d, %#llx)", line, k, v.pc[0],
	          (unsigned long long)d, v.pc[2], (unsigned long long)t, lid, (unsigned long long)done, lnext,
	          (unsigned long long)todo);
}
#define NODE(m, k, lid, done, lnext, todo) expect_node(m, 0, k, lid, done, lnext, todo, __LINE__)

/* ipdom entry k from the top: (pc, rpc, mask). */
static void expect_ent(const Machine *m, int k, int32_t pc, int32_t rpc, uint64_t mask, int line)
{
	const Warp *wp = &m->warps[0];
	cr_assert_eq(m->model, &model_ipdom, "line %d: not the ipdom model", line);
	int32_t i = wp->ctl.n - 1 - k;
	cr_assert(i >= 0, "line %d: no entry %d from the top (depth %d)", line, k, wp->ctl.n);
	CtlView v;
	m->model->view(wp, i, &v);
	uint64_t b = v.set[2][0];
	cr_expect(v.pc[0] == pc && v.pc[1] == rpc && b == mask,
	          "line %d: entry %d = (%d, %d, %#llx), want (%d, %d, %#llx)", line, k, v.pc[0], v.pc[1],
	          (unsigned long long)b, pc, rpc, (unsigned long long)mask);
}
#define ENT(m, k, pc, rpc, mask) expect_ent(m, k, pc, rpc, mask, __LINE__)

/* One step of warp w that must fire rule `want` at pc. */
static Rule do_step(Machine *m, int w, int32_t pc, Rule want, int line)
{
	StepInfo info;
	memset(&info, 0, sizeof info);
	uint64_t before = m->steps;
	sem_step(m, w, &info);
	cr_assert_eq(m->steps, before + 1, "line %d: no rule fired at pc %d: status %s, rule %s: %s", line,
	             m->warps[w].pc, sem_status_name(m->status), m->err.rule ? m->err.rule : "-",
	             m->err.msg ? m->err.msg : "");
	cr_expect_eq(info.pc, pc, "line %d: issued pc %d, want %d", line, info.pc, pc);
	cr_expect_eq(info.rule, want, "line %d: rule %s at pc %d, want %s", line, sem_rule_name(info.rule),
	             info.pc, sem_rule_name(want));
	return info.rule;
}
#define STEP(m, pc, rule) do_step(m, 0, pc, rule, __LINE__)
#define WSTEP(m, w, pc, rule) do_step(m, w, pc, rule, __LINE__)

/* Step warp 0 until it is about to issue pc (at most `limit` steps). */
static void run_to(Machine *m, int32_t pc, int limit)
{
	for (int i = 0; i < limit && m->warps[0].pc != pc; i++) {
		uint64_t before = m->steps;
		sem_step(m, 0, NULL);
		cr_assert_eq(m->steps, before + 1, "stuck before pc %d: %s", pc, m->err.msg ? m->err.msg : "");
	}
	cr_assert_eq(m->warps[0].pc, pc, "did not reach pc %d", pc);
}

static void expect_error(const Machine *m, SemStatus st, const char *rule, int32_t pc,
                         const int64_t *threads, int n, int line)
{
	cr_assert_eq(m->status, st, "line %d: status %s, want %s", line, sem_status_name(m->status),
	             sem_status_name(st));
	cr_assert(m->err.rule != NULL, "line %d: no rule named", line);
	cr_expect_str_eq(m->err.rule, rule, "line %d: rule %s, want %s (%s)", line, m->err.rule, rule,
	                 m->err.msg ? m->err.msg : "");
	cr_expect_eq(m->err.pc, pc, "line %d: error at pc %d, want %d", line, m->err.pc, pc);
	cr_expect_eq(m->err.nthreads, n, "line %d: %d threads named, want %d", line, m->err.nthreads, n);
	for (int i = 0; i < n && i < m->err.nthreads; i++)
		cr_expect_eq(m->err.threads[i], threads[i], "line %d: thread %d named is %d, want %lld", line, i,
		             m->err.threads[i], (long long)threads[i]);
}
#define EXPECT_ERR(m, st, rule, pc, ...) \
	expect_error(m, st, rule, pc, I64S(__VA_ARGS__), NI64S(__VA_ARGS__), __LINE__)

/* ---- snapshots: "a stuck step leaves the state unchanged" ---------------------- */

/* Warp state of at most 4 warps of one word, each control stack as its
** bytes (records and lane sets, at most 16 records). */
typedef struct Snap {
	int32_t pc[4], depth[4];
	uint64_t active[4], live[4];
	unsigned char recs[4][16 * 16];
	uint64_t masks[4][16 * 2];
	uint64_t steps, ti;
	size_t nval;
	int64_t *val;
	uint8_t *def;
	char *mem;
} Snap;

static void mem_text(void *ctx, int64_t addr, Num v)
{
	Buf *b = ctx;
	buf_printf(b, "%lld:", (long long)addr);
	num_buf(b, v);
	buf_putc(b, ' ');
}

static Snap snap_take(const Machine *m)
{
	Snap s;
	memset(&s, 0, sizeof s);
	cr_assert(m->nwarps <= 4);
	for (int w = 0; w < m->nwarps; w++) {
		const Warp *wp = &m->warps[w];
		cr_assert(wp->nw == 1 && wp->ctl.n <= 16 && wp->ctl.rec_size <= 16 && wp->ctl.nmask <= 2);
		s.pc[w] = wp->pc;
		s.depth[w] = wp->ctl.n;
		s.active[w] = wp->active[0];
		s.live[w] = wp->live[0];
		if (wp->ctl.n) {
			memcpy(s.recs[w], wp->ctl.recs, (size_t)wp->ctl.n * wp->ctl.rec_size);
			memcpy(s.masks[w], wp->ctl.masks, (size_t)wp->ctl.n * wp->ctl.nmask * sizeof(uint64_t));
		}
	}
	s.steps = m->steps;
	s.ti = m->thread_instructions;
	s.nval = (size_t)m->nvars * (size_t)m->nthreads;
	s.val = xmalloc(s.nval * sizeof *s.val + 1);
	s.def = xmalloc(s.nval + 1);
	memcpy(s.val, m->val, s.nval * sizeof *s.val);
	memcpy(s.def, m->def, s.nval);
	Buf b = {0};
	mem_each(&m->shared, mem_text, &b);
	s.mem = buf_steal(&b);
	return s;
}

static void snap_expect_same(const Snap *s, const Machine *m, int line)
{
	for (int w = 0; w < m->nwarps; w++) {
		const Warp *wp = &m->warps[w];
		cr_expect_eq(wp->pc, s->pc[w], "line %d: warp %d pc changed", line, w);
		cr_expect_eq(wp->active[0], s->active[w], "line %d: warp %d Θ changed", line, w);
		cr_expect_eq(wp->live[0], s->live[w], "line %d: warp %d live set changed", line, w);
		cr_expect_eq(wp->ctl.n, s->depth[w], "line %d: warp %d stack depth changed", line, w);
		if (wp->ctl.n == s->depth[w] && wp->ctl.n > 0) {
			cr_expect(memcmp(wp->ctl.recs, s->recs[w], (size_t)wp->ctl.n * wp->ctl.rec_size) == 0,
			          "line %d: warp %d stack records changed", line, w);
			cr_expect(memcmp(wp->ctl.masks, s->masks[w],
			                 (size_t)wp->ctl.n * wp->ctl.nmask * sizeof(uint64_t)) == 0,
			          "line %d: warp %d stack sets changed", line, w);
		}
	}
	cr_expect_eq(m->steps, s->steps, "line %d: a step was counted", line);
	cr_expect_eq(m->thread_instructions, s->ti, "line %d: thread instructions counted", line);
	cr_expect(memcmp(m->val, s->val, s->nval * sizeof *s->val) == 0, "line %d: some σ changed", line);
	cr_expect(memcmp(m->def, s->def, s->nval) == 0, "line %d: some σ domain changed", line);
	Buf b = {0};
	mem_each(&m->shared, mem_text, &b);
	cr_expect_str_eq(buf_str(&b), s->mem, "line %d: Σ changed", line);
	buf_free(&b);
}
#define EXPECT_SAME(s, m) snap_expect_same(s, m, __LINE__)

static void snap_free(Snap *s)
{
	free(s->val);
	free(s->def);
	free(s->mem);
}

/* A step that no rule can take: returns with the status set and no step counted. */
static void stuck_step(Machine *m, int w)
{
	uint64_t before = m->steps;
	sem_step(m, w, NULL);
	cr_expect_eq(m->steps, before, "a step was counted although no rule applies");
}

/* ---- a hook that records the steps of sem_run ---------------------------------- */

#define REC_MAX 512
typedef struct Rec {
	int n;
	int32_t warp[REC_MAX], pc[REC_MAX];
	Rule rule[REC_MAX];
	int32_t nactive[REC_MAX];
} Rec;

static void rec_hook(void *ctx, const Machine *m, const StepInfo *info)
{
	(void)m;
	Rec *r = ctx;
	if (r->n < REC_MAX) {
		r->warp[r->n] = info->warp;
		r->pc[r->n] = info->pc;
		r->rule[r->n] = info->rule;
		r->nactive[r->n] = info->nactive;
	}
	r->n++;
}

/* The rules fired at pc, in order, as "BF BD BD". */
static char *rules_at(const Rec *r, int32_t pc)
{
	Buf b = {0};
	for (int i = 0; i < r->n && i < REC_MAX; i++)
		if (r->pc[i] == pc)
			buf_printf(&b, "%s%s", b.len ? " " : "", sem_rule_name(r->rule[i]));
	return buf_steal(&b);
}

static void expect_rules_at(const Rec *r, int32_t pc, const char *want, int line)
{
	char *s = rules_at(r, pc);
	cr_expect_str_eq(s, want, "line %d: rules at pc %d: %s, want %s", line, pc, s, want);
	free(s);
}
#define EXPECT_RULES_AT(r, pc, want) expect_rules_at(r, pc, want, __LINE__)

/* =================================================================================
** §2 control rules
** ================================================================================= */

/* TC-AUX-1 / TC-SEM-1 / T4: split through a branch on p = tid & 1, both
** polarities, bz and bnz, with the exact state after every step. */
struct split_case {
	char op[4];     /* "bz" or "bnz" */
	bool rules;     /* --bz-polarity=rules */
	uint64_t jump;  /* Θ_j: the PEs that jump to l4 (deferred) */
	int64_t mem[4]; /* Σ[0..3] at the end */
};

ParameterizedTestParameters(sem, split_polarity)
{
	/* p = tid & 1 = 0 1 0 1, so split(Θ, p) = (Θ_0, Θ_n) = ({0,2}, {1,3})
	** (TC-AUX-1). Mnemonic polarity (default): bz jumps where p = 0, bnz where
	** p ≠ 0; the literal Table 3.4 reading swaps both (digest N1). The jumpers
	** run l4 (x = 20), the others l2 (x = 10). */
	static struct split_case cases[] = {
		{"bz", false, TH(0) | TH(2), {20, 10, 20, 10}},
		{"bz", true, TH(1) | TH(3), {10, 20, 10, 20}},
		{"bnz", false, TH(1) | TH(3), {10, 20, 10, 20}},
		{"bnz", true, TH(0) | TH(2), {20, 10, 20, 10}},
	};
	return cr_make_param_array(struct split_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct split_case *c, sem, split_polarity)
{
	char src[512];
	snprintf(src, sizeof src,
	         "l0: p = tid & 1\n"
	         "l1: %s p, l4\n"
	         "l2: x = 10\n"
	         "l3: jump l5\n"
	         "l4: x = 20\n"
	         "l5: sync\n"
	         "l6: mem[tid] = x\n"
	         "l7: stop\n",
	         c->op);
	SemOptions o = opts();
	o.bz_rules = c->rules;
	Run r = start_with(src, &o);
	Machine *m = r.m;
	uint64_t J = c->jump, F = ALL4 & ~J;
	AT(m, 0, ALL4, 0); /* initial state: Θ = all, Π = [], pc = first */
	STEP(m, 0, RULE_IT);
	AT(m, 1, ALL4, 0);
	EXPECT_VARS(m, "p", 0, 1, 0, 1);
	STEP(m, 1, RULE_BD); /* Θ := Θ_f; Π := push([], Θ_j, l1, l4) = [(l1, ∅, l4, Θ_j)] */
	AT(m, 2, F, 1);
	NODE(m, 0, 1, NONE, 4, J);
	STEP(m, 2, RULE_IT);
	AT(m, 3, F, 1);
	for (int t = 0; t < 4; t++) {
		if (F & TH(t))
			cr_expect_eq(var(m, "x", t), 10);
		else
			cr_expect(!has_var(m, "x", t), "x assigned in deferred thread %d", t);
	}
	STEP(m, 3, RULE_JP);
	AT(m, 5, F, 1);
	STEP(m, 5, RULE_SS); /* top (l1, ∅, l4, Θ_j): done := Θ_f, Θ := Θ_j, pc := l4 */
	AT(m, 4, J, 1);
	NODE(m, 0, 1, F, 4, NONE);
	STEP(m, 4, RULE_IT);
	AT(m, 5, J, 1);
	STEP(m, 5, RULE_SP); /* todo = ∅: pop, Θ := done ∪ Θ, pc := l6 */
	AT(m, 6, ALL4, 0);
	STEP(m, 6, RULE_IT);
	EXPECT_MEM(m, 0, c->mem[0], c->mem[1], c->mem[2], c->mem[3]);
	STEP(m, 7, RULE_SF);
	cr_expect_eq(m->status, SEM_OK);
	cr_expect_eq(m->warps[0].status, WARP_DONE);
	finish(&r);
}

/* Erratum N7 / P9: split reads v with the operand judgement, so a branch on
** tid itself works. bz tid jumps where tid = 0: Θ_j = {0}, Θ_f = {1,2,3}. */
Test(sem, branch_on_tid)
{
	Run r = start("l0: bz tid, l3\n"
	              "l1: x = 10\n"
	              "l2: jump l4\n"
	              "l3: x = 20\n"
	              "l4: sync\n"
	              "l5: mem[tid] = x\n"
	              "l6: stop\n");
	Machine *m = r.m;
	STEP(m, 0, RULE_BD);
	AT(m, 1, TH(1) | TH(2) | TH(3), 1);
	NODE(m, 0, 0, NONE, 3, TH(0));
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 20, 10, 10, 10);
	finish(&r);
}

/* Branches on a literal are uniform: BT or BF, and they push a node all the
** same (semantics.md §2, TC-SEM-2/3), which the sync pops with SP. */
struct lit_case {
	char br[24];  /* the branch instruction at l1 */
	bool rules;
	Rule rule;    /* BT: everyone to l4 (x = 20); BF: everyone to l2 (x = 10) */
	int32_t next; /* pc after the branch */
	int64_t x;
};

ParameterizedTestParameters(sem, branch_on_literal)
{
	static struct lit_case cases[] = {
		{"bz 0, l4", false, RULE_BT, 4, 20},      /* 0 = 0: all jump */
		{"bz 5, l4", false, RULE_BF, 2, 10},      /* 5 ≠ 0: nobody jumps */
		{"bnz 7, l4", false, RULE_BT, 4, 20},     /* TC-SEM-3 */
		{"bnz 0, l4", false, RULE_BF, 2, 10},     /* TC-SEM-2 */
		{"bz 0, l4", true, RULE_BF, 2, 10},       /* rules: bz jumps where v ≠ 0 */
		{"bnz 0, l4", true, RULE_BT, 4, 20},      /* rules: bnz jumps where v = 0 */
		{"branch(3, l4)", false, RULE_BT, 4, 20}, /* seed 003's branch(v, l) = bnz */
		{"bz -1, l4", false, RULE_BF, 2, 10},
	};
	return cr_make_param_array(struct lit_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct lit_case *c, sem, branch_on_literal)
{
	char src[512];
	snprintf(src, sizeof src,
	         "l0: x = 1\n"
	         "l1: %s\n"
	         "l2: x = 10\n"
	         "l3: jump l5\n"
	         "l4: x = 20\n"
	         "l5: sync\n"
	         "l6: mem[tid] = x\n"
	         "l7: stop\n",
	         c->br);
	SemOptions o = opts();
	o.bz_rules = c->rules;
	Run r = start_with(src, &o);
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, c->rule);
	AT(m, c->next, ALL4, 1);
	NODE(m, 0, 1, NONE, 4, NONE); /* push(Π, ∅, l1, l4) */
	run_to(m, 5, 10);
	STEP(m, 5, RULE_SP); /* Θ_todo = ∅ at once: pop */
	AT(m, 6, ALL4, 0);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, c->x, c->x, c->x, c->x);
	cr_expect_eq(m->visits[1], 1);
	cr_expect_eq(m->divergences[1], 0);
	finish(&r);
}

/* TC-AUX-2 (a)+(b), TC-SEM-4: a loop whose trip count depends on tid. The
** exit branch's node is created once (a) and every later visit merges the
** leaving PEs into it (b); the last PE leaves alone with BT, then SS resumes
** the deferred PEs at l_next = the sync itself, which fires SP.
** Thread t leaves when i = t + 1 (p = tid < i), after t + 1 iterations. */
Test(sem, push_merge_loop_exit)
{
	Run r = start("l0: i = 0\n"
	              "l1: s = 0\n"
	              "l2: p = tid < i\n"
	              "l3: bnz p, l7\n" /* leave the loop where tid < i */
	              "l4: s = s + 1\n"
	              "l5: i = i + 1\n"
	              "l6: jump l2\n"
	              "l7: sync\n"
	              "l8: mem[tid] = s\n"
	              "l9: stop\n");
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_IT);
	/* visit k of l3 (i = k): the leavers so far are {0..k-1} */
	static const Rule rule[4] = {RULE_BF, RULE_BD, RULE_BD, RULE_BD};
	for (int k = 0; k < 4; k++) {
		uint64_t gone = (1ull << k) - 1, active = ALL4 & ~gone;
		AT(m, 2, k == 0 ? ALL4 : ALL4 & ~((1ull << (k - 1)) - 1), k == 0 ? 0 : 1);
		STEP(m, 2, RULE_IT);
		STEP(m, 3, rule[k]);
		/* k = 0: push([], ∅, l3, l7) = [(l3, ∅, l7, ∅)]  (a fresh node)
		** k ≥ 1: the top is (l3, ∅, l7, T): merge to (l3, ∅, l7, T ∪ {k-1}) */
		AT(m, 4, active, 1);
		NODE(m, 0, 3, NONE, 7, gone);
		STEP(m, 4, RULE_IT);
		STEP(m, 5, RULE_IT);
		STEP(m, 6, RULE_JP);
	}
	/* i = 4: thread 3 is alone and jumps: BT, the node keeps {0,1,2} */
	STEP(m, 2, RULE_IT);
	STEP(m, 3, RULE_BT);
	AT(m, 7, TH(3), 1);
	NODE(m, 0, 3, NONE, 7, TH(0) | TH(1) | TH(2));
	/* The stack before the first sync is [(4, ∅, 8, {0,1,2})] in TC-SEM-4's numbering */
	STEP(m, 7, RULE_SS);
	AT(m, 7, TH(0) | TH(1) | TH(2), 1); /* l_next = l7, the sync itself */
	NODE(m, 0, 3, TH(3), 7, NONE);
	STEP(m, 7, RULE_SP);
	AT(m, 8, ALL4, 0);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 1, 2, 3, 4); /* TC-SEM-4: Σ = {0↦1, 1↦2, 2↦3, 3↦4} */
	cr_expect_eq(m->visits[3], 5);      /* TC-SEM-4 profile: 5 visits */
	cr_expect_eq(m->divergences[3], 3); /* 3 divergences */
	finish(&r);
}

/* TC-SEM-6 (seed 003 numbering, as μ-SIMD text). p = tid & 1; branch(p, 5)
** defers {1,3} to l5; the else part has a nested divergent branch on
** q = tid & 2 (t1: 0, t3: 2). */
static const char tc_sem_6[] = "0: one = 1\n"
                               "1: p = tid & one\n"
                               "2: branch(p, 5)\n"
                               "3: x = 10\n"
                               "4: jump(12)\n"
                               "5: two = 2\n"
                               "6: q = tid & two\n"
                               "7: branch(q, 10)\n"
                               "8: x = 30\n"
                               "9: jump(11)\n"
                               "10: x = 40\n"
                               "11: sync\n"
                               "12: sync\n"
                               "13: store(x, tid)\n"
                               "14: stop\n";

/* TC-AUX-2 (c): a different branch pushes a new node (generalised push:
** the top (2, {0,2}, 5, ∅) has Θ_done ≠ ∅ and is kept below). */
Test(sem, push_new_node_generalised)
{
	Run r = start(tc_sem_6);
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_IT);
	STEP(m, 2, RULE_BD); /* Θ_j = {1,3} (p ≠ 0) */
	AT(m, 3, TH(0) | TH(2), 1);
	NODE(m, 0, 2, NONE, 5, TH(1) | TH(3));
	STEP(m, 3, RULE_IT);
	STEP(m, 4, RULE_JP);
	STEP(m, 12, RULE_SS);
	AT(m, 5, TH(1) | TH(3), 1);
	NODE(m, 0, 2, TH(0) | TH(2), 5, NONE);
	STEP(m, 5, RULE_IT);
	STEP(m, 6, RULE_IT);
	STEP(m, 7, RULE_BD); /* q: t1 = 0 falls, t3 = 2 jumps */
	AT(m, 8, TH(1), 2);
	NODE(m, 0, 7, NONE, 10, TH(3));
	NODE(m, 1, 2, TH(0) | TH(2), 5, NONE);
	STEP(m, 8, RULE_IT);
	STEP(m, 9, RULE_JP);
	STEP(m, 11, RULE_SS);
	AT(m, 10, TH(3), 2);
	NODE(m, 0, 7, TH(1), 10, NONE);
	STEP(m, 10, RULE_IT);
	STEP(m, 11, RULE_SP);
	AT(m, 12, TH(1) | TH(3), 1);
	STEP(m, 12, RULE_SP);
	AT(m, 13, ALL4, 0);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 10, 30, 10, 40); /* TC-SEM-6 generalised */
	cr_expect_eq(m->visits[2], 1);
	cr_expect_eq(m->divergences[2], 1);
	cr_expect_eq(m->visits[7], 1);
	cr_expect_eq(m->divergences[7], 1);
	finish(&r);
}

/* T7 / TC-SEM-6 strict: the printed push has no equation for a top node with
** Θ_done ≠ ∅, so the nested branch at 7 is stuck, named BD (both sides are
** non-empty), with the active PEs {1,3}; the stuck step changes nothing. */
Test(sem, strict_push_stuck)
{
	SemOptions o = opts();
	o.strict_push = true;
	Run r = start_with(tc_sem_6, &o);
	Machine *m = r.m;
	run_to(m, 7, 20);
	AT(m, 7, TH(1) | TH(3), 1);
	Snap s = snap_take(m);
	stuck_step(m, 0);
	EXPECT_ERR(m, SEM_STUCK, "BD", 7, 1, 3);
	EXPECT_SAME(&s, m);
	NODE(m, 0, 2, TH(0) | TH(2), 5, NONE);
	/* a stuck machine stays stuck */
	cr_expect_eq(sem_step(m, 0, NULL), SEM_STUCK);
	EXPECT_SAME(&s, m);
	snap_free(&s);
	finish(&r);
}

/* T7 of seed 001 (with x = 0 first, "initial x = 0 everywhere"):
** p = tid < 2 = 1 1 0 0; bz p defers {2,3}; {0,1} set x = 1. In the else
** part q = tid % 2 (t2: 0, t3: 1); bz q defers {2} to l8 (the sync itself),
** t3 sets x = 2. Generalised: Σ = {0:1, 1:1, 2:0, 3:2}; strict: stuck at l6. */
static const char t7[] = "l0: x = 0\n"
                         "l1: p = tid < 2\n"
                         "l2: bz p, l5\n"
                         "l3: x = 1\n"
                         "l4: jump l10\n"
                         "l5: q = tid % 2\n"
                         "l6: bz q, l8\n"
                         "l7: x = 2\n"
                         "l8: sync\n"
                         "l9: jump l10\n"
                         "l10: sync\n"
                         "l11: mem[tid] = x\n"
                         "l12: stop\n";

Test(sem, t7_nested_else)
{
	Run r = start(t7);
	Rec rec = {0};
	cr_expect_eq(sem_run(r.m, rec_hook, &rec), SEM_OK);
	EXPECT_MEM(r.m, 0, 1, 1, 0, 2);
	/* l8: t3 arrives (SS, {2} resumes at l8 itself), then SP */
	EXPECT_RULES_AT(&rec, 8, "SS SP");
	EXPECT_RULES_AT(&rec, 10, "SS SP");
	finish(&r);

	SemOptions o = opts();
	o.strict_push = true;
	r = start_with(t7, &o);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	EXPECT_ERR(r.m, SEM_STUCK, "BD", 6, 2, 3);
	finish(&r);
}

/* Strict push works wherever the top's Θ_done is empty: a nested branch in
** the fall-through ("then") part pushes a new node on (l1, ∅, l9, {1,3}).
** p = tid & 1: bnz defers {1,3}; q = tid & 2 among {0,2}: t0 = 0 falls,
** t2 = 2 jumps. x: t0 30, t2 40, t1 t3 10. Also the loop of TC-SEM-4. */
Test(sem, strict_push_ok_when_done_empty)
{
	static const char src[] = "l0: p = tid & 1\n"
	                          "l1: bnz p, l9\n"
	                          "l2: q = tid & 2\n"
	                          "l3: bnz q, l6\n"
	                          "l4: x = 30\n"
	                          "l5: jump l7\n"
	                          "l6: x = 40\n"
	                          "l7: sync\n"
	                          "l8: jump l10\n"
	                          "l9: x = 10\n"
	                          "l10: sync\n"
	                          "l11: mem[tid] = x\n"
	                          "l12: stop\n";
	for (int strict = 0; strict < 2; strict++) {
		SemOptions o = opts();
		o.strict_push = strict;
		Run r = start_with(src, &o);
		Machine *m = r.m;
		run_to(m, 4, 10);
		AT(m, 4, TH(0), 2);
		NODE(m, 0, 3, NONE, 6, TH(2));
		NODE(m, 1, 1, NONE, 9, TH(1) | TH(3));
		cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK, "strict %d: %s", strict, m->err.msg ? m->err.msg : "");
		EXPECT_MEM(m, 0, 30, 10, 40, 10);
		finish(&r);
	}
	SemOptions o = opts();
	o.strict_push = true;
	Run r = start_with("i = 0\n"
	                   "l1: p = tid < i\n"
	                   "bnz p, l5\n"
	                   "i = i + 1\n"
	                   "jump l1\n"
	                   "l5: sync\n"
	                   "mem[tid] = i\n"
	                   "stop\n",
	                   &o);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_MEM(r.m, 0, 1, 2, 3, 4); /* thread t leaves when i = t + 1 */
	finish(&r);
}

/* SF with Π = []: the result (Θ, Σ). */
Test(sem, sf_ok)
{
	Run r = start("x = 1\nstop\n");
	STEP(r.m, 0, RULE_IT);
	STEP(r.m, 1, RULE_SF);
	cr_expect_eq(r.m->status, SEM_OK);
	cr_expect_eq(r.m->nlive, 0);
	finish(&r);
}

/* T6 (b): a uniform branch pushes (l1, ∅, l2, ∅) and nothing pops it: stop
** with Π ≠ [] is stuck (SF), naming the active PEs; the state is unchanged. */
Test(sem, sf_stuck_nonempty_stack)
{
	Run r = start("l0: p = 1\n"
	              "l1: bz p, l2\n"
	              "l2: stop\n");
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_BF);
	NODE(m, 0, 1, NONE, 2, NONE);
	Snap s = snap_take(m);
	stuck_step(m, 0);
	EXPECT_ERR(m, SEM_STUCK, "SF", 2, 0, 1, 2, 3);
	EXPECT_SAME(&s, m);
	cr_expect_eq(m->warps[0].status, WARP_RUN);
	snap_free(&s);
	finish(&r);
}

/* T6 (a) / TC-SEM-5: sync on an empty stack: no rule; named SP. */
Test(sem, sp_stuck_empty_stack)
{
	Run r = start("l0: sync\nl1: stop\n");
	Snap s = snap_take(r.m);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	EXPECT_ERR(r.m, SEM_STUCK, "SP", 0, 0, 1, 2, 3);
	EXPECT_SAME(&s, r.m);
	snap_free(&s);
	finish(&r);
}

/* TC-SEM-9: split(∅, v) = (∅, ∅); BT is the first rule, so an empty Θ at a
** branch jumps, pushing (l0, ∅, l2, ∅). Set Θ = ∅ by hand. A visit counts
** only with a non-empty Θ (semantics.md §7). */
Test(sem, empty_theta_takes_bt)
{
	Run r = start("l0: bnz tid, l2\n"
	              "l1: x = 1\n"
	              "l2: sync\n"
	              "l3: stop\n");
	Machine *m = r.m;
	m->warps[0].active[0] = 0;
	m->warps[0].idx_ok = false; /* the cached active list */
	STEP(m, 0, RULE_BT);
	AT(m, 2, NONE, 1);
	NODE(m, 0, 0, NONE, 2, NONE);
	cr_expect_eq(m->visits[0], 0);
	cr_expect_eq(m->thread_instructions, 0);
	STEP(m, 2, RULE_SP);
	AT(m, 3, NONE, 0);
	STEP(m, 3, RULE_SF);
	cr_expect_eq(m->status, SEM_OK);
	finish(&r);
}

/* ---- exit under the sync model (semantics.md §4) ---------------------------------- */

/* The executing PEs {1,3} exit; Θ is empty and the top node has Θ_todo =
** {0,2}: they resume at l_next = l3 (todo emptied, node kept), and the sync
** pops the node. */
Test(sem, exit_resumes_todo)
{
	Run r = start("l0: p = tid & 1\n"
	              "l1: bz p, l3\n" /* jump {0,2}, fall {1,3} */
	              "l2: exit\n"
	              "l3: sync\n"
	              "l4: mem[tid] = tid\n"
	              "l5: stop\n");
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_BD);
	AT(m, 2, TH(1) | TH(3), 1);
	STEP(m, 2, RULE_EX);
	AT(m, 3, TH(0) | TH(2), 1);
	NODE(m, 0, 1, NONE, 3, NONE);
	cr_expect_eq(m->nlive, 2);
	cr_expect_eq(m->warps[0].live[0], TH(0) | TH(2));
	STEP(m, 3, RULE_SP);
	AT(m, 4, TH(0) | TH(2), 0);
	STEP(m, 4, RULE_IT);
	STEP(m, 5, RULE_SF);
	cr_expect_eq(m->status, SEM_OK);
	EXPECT_MEM(m, 0, 0);
	EXPECT_MEM(m, 2, 2);
	EXPECT_NO_CELL(m, 1); /* the exited threads never stored */
	EXPECT_NO_CELL(m, 3);
	finish(&r);
}

/* Exit in the else part, after SS: Θ_todo = ∅ but Θ_done = {1,3} ≠ ∅, so
** they resume at the sync where they were parked (l6), which pops the node. */
Test(sem, exit_resumes_done_at_sync)
{
	Run r = start("l0: p = tid & 1\n"
	              "l1: bz p, l4\n" /* jump {0,2}, fall {1,3} */
	              "l2: x = 1\n"
	              "l3: jump l6\n"
	              "l4: x = 2\n"
	              "l5: exit\n"
	              "l6: sync\n"
	              "l7: mem[tid] = x\n"
	              "l8: stop\n");
	Machine *m = r.m;
	run_to(m, 6, 10);
	STEP(m, 6, RULE_SS);
	AT(m, 4, TH(0) | TH(2), 1);
	NODE(m, 0, 1, TH(1) | TH(3), 4, NONE);
	STEP(m, 4, RULE_IT);
	STEP(m, 5, RULE_EX);
	AT(m, 6, TH(1) | TH(3), 1); /* Θ := Θ_done at the sync where they wait */
	NODE(m, 0, 1, NONE, 4, NONE); /* Θ_done moved to Θ, Θ_todo empty */
	STEP(m, 6, RULE_SP);
	AT(m, 7, TH(1) | TH(3), 0);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 1, 1);
	EXPECT_MEM(m, 3, 1);
	EXPECT_NO_CELL(m, 0);
	EXPECT_NO_CELL(m, 2);
	finish(&r);
}

/* Exit with nothing deferred: the top node (l1, ∅, l3, ∅) is popped, the
** stack is empty, the warp is finished: the run is ok without any sync. */
Test(sem, exit_pops_and_finishes)
{
	Run r = start("l0: p = 1\n"
	              "l1: bz p, l3\n" /* p = 1: nobody jumps, BF */
	              "l2: exit\n"
	              "l3: sync\n"
	              "l4: stop\n");
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_BF);
	STEP(m, 2, RULE_EX);
	cr_expect_eq(m->status, SEM_OK);
	cr_expect_eq(m->warps[0].status, WARP_DONE);
	cr_expect_eq(m->warps[0].ctl.n, 0);
	cr_expect_eq(m->nlive, 0);
	cr_expect_eq(m->steps, 3);
	finish(&r);
}

/* "else pop and repeat": the top node (l3, ∅, l5, ∅) of a uniform inner
** branch is popped, the next one (l1, ∅, l6, {0,2}) has Θ_todo: they resume
** at l6. The sync at l5 is never executed. */
Test(sem, exit_pops_then_resumes_lower_node)
{
	Run r = start("l0: p = tid & 1\n"
	              "l1: bz p, l6\n" /* defer {0,2} */
	              "l2: q = 1\n"
	              "l3: bz q, l5\n" /* uniform BF for {1,3} */
	              "l4: exit\n"
	              "l5: sync\n"
	              "l6: sync\n"
	              "l7: mem[tid] = tid\n"
	              "l8: stop\n");
	Machine *m = r.m;
	Rec rec = {0};
	run_to(m, 4, 10);
	AT(m, 4, TH(1) | TH(3), 2);
	STEP(m, 4, RULE_EX);
	AT(m, 6, TH(0) | TH(2), 1);
	NODE(m, 0, 1, NONE, 6, NONE);
	cr_expect_eq(sem_run(m, rec_hook, &rec), SEM_OK);
	EXPECT_RULES_AT(&rec, 5, "");
	EXPECT_RULES_AT(&rec, 6, "SP");
	EXPECT_MEM(m, 0, 0);
	EXPECT_MEM(m, 2, 2);
	EXPECT_NO_CELL(m, 1);
	finish(&r);
}

/* After {1,3} exit, the live threads are {0,2} = Θ: the barrier completes. */
Test(sem, exit_then_barrier)
{
	Run r = start("l0: p = tid & 1\n"
	              "l1: bz p, l3\n"
	              "l2: exit\n"
	              "l3: sync\n"
	              "l4: barrier\n"
	              "l5: stop\n");
	Machine *m = r.m;
	run_to(m, 4, 10);
	STEP(m, 4, RULE_BAR);
	cr_expect_eq(m->warps[0].status, WARP_RUN); /* released at once */
	AT(m, 5, TH(0) | TH(2), 0);
	STEP(m, 5, RULE_SF);
	cr_expect_eq(m->status, SEM_OK);
	finish(&r);
}

/* ---- barrier (semantics.md §6) ------------------------------------------------------ */

/* One warp, everyone arrives: the arrival is a step (BAR), the release is free. */
Test(sem, barrier_single_warp)
{
	Run r = start("l0: barrier\nl1: stop\n");
	Machine *m = r.m;
	STEP(m, 0, RULE_BAR);
	AT(m, 1, ALL4, 0);
	cr_expect_eq(m->warps[0].status, WARP_RUN);
	cr_expect_eq(m->arrived, 0);
	STEP(m, 1, RULE_SF);
	cr_expect_eq(m->status, SEM_OK);
	cr_expect_eq(m->steps, 2);
	finish(&r);
}

/* barrier_divergent.simd: the odd threads reach the barrier at l3 while
** {0,2} wait on the stack: Θ ≠ live, a deadlock named BAR at l3 with the
** arriving threads; the state is unchanged. */
Test(sem, barrier_deadlock_divergent)
{
	Run r = start("l0: p = tid % 2\n"
	              "l1: bz p, l5\n"
	              "l2: mem[tid] = 1\n"
	              "l3: barrier\n"
	              "l4: jump l7\n"
	              "l5: mem[tid] = 2\n"
	              "l6: barrier\n"
	              "l7: sync\n"
	              "l8: stop\n");
	Machine *m = r.m;
	run_to(m, 3, 10);
	Snap s = snap_take(m);
	stuck_step(m, 0);
	EXPECT_ERR(m, SEM_DEADLOCK, "BAR", 3, 1, 3);
	EXPECT_SAME(&s, m);
	snap_free(&s);
	finish(&r);

	r = start("l0: p = tid % 2\n"
	          "l1: bz p, l5\n"
	          "l2: mem[tid] = 1\n"
	          "l3: barrier\n"
	          "l4: jump l7\n"
	          "l5: mem[tid] = 2\n"
	          "l6: barrier\n"
	          "l7: sync\n"
	          "l8: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_DEADLOCK);
	cr_expect_str_eq(r.m->err.rule, "BAR");
	finish(&r);
}

/* Two warps of two threads. Warp 0 arrives first and waits (not picked any
** more); warp 1's arrival completes the barrier and releases both. */
Test(sem, barrier_two_warps)
{
	static const char src[] = ".threads 4\n"
	                          ".warpsize 2\n"
	                          "l0: x = tid\n"
	                          "l1: barrier\n"
	                          "l2: stop\n";
	Run r = start(src);
	Machine *m = r.m;
	cr_expect_eq(m->nwarps, 2);
	WAT(m, 0, 0, TH(0) | TH(1), 0);
	WAT(m, 1, 0, TH(0) | TH(1), 0); /* lanes of warp 1 are threads 2, 3 */
	cr_expect_eq(m->warps[1].base, 2);
	WSTEP(m, 0, 0, RULE_IT);
	WSTEP(m, 0, 1, RULE_BAR);
	cr_expect_eq(m->warps[0].status, WARP_BARRIER);
	cr_expect_eq(m->arrived, 2);
	cr_expect_eq(m->warps[0].pc, 1);
	cr_expect_eq(sem_pick(m), 1); /* cursor 0, but warp 0 waits */
	uint64_t before = m->steps;
	sem_step(m, 0, NULL); /* a waiting warp does not step */
	cr_expect_eq(m->steps, before);
	WSTEP(m, 1, 0, RULE_IT);
	EXPECT_VARS(m, "x", 0, 1, 2, 3);
	WSTEP(m, 1, 1, RULE_BAR);
	cr_expect_eq(m->warps[0].status, WARP_RUN);
	cr_expect_eq(m->warps[1].status, WARP_RUN);
	cr_expect_eq(m->warps[0].pc, 2);
	cr_expect_eq(m->warps[1].pc, 2);
	cr_expect_eq(m->arrived, 0);
	finish(&r);

	/* the same with the round-robin scheduler */
	r = start(src);
	Rec rec = {0};
	cr_expect_eq(sem_run(r.m, rec_hook, &rec), SEM_OK);
	static const int32_t w[] = {0, 1, 0, 1, 0, 1}, pc[] = {0, 0, 1, 1, 2, 2};
	static const Rule rule[] = {RULE_IT, RULE_IT, RULE_BAR, RULE_BAR, RULE_SF, RULE_SF};
	cr_assert_eq(rec.n, 6);
	for (int i = 0; i < 6; i++)
		cr_expect(rec.warp[i] == w[i] && rec.pc[i] == pc[i] && rec.rule[i] == rule[i],
		          "step %d: warp %d pc %d %s", i + 1, rec.warp[i], rec.pc[i], sem_rule_name(rec.rule[i]));
	finish(&r);
}

/* A barrier completes when every live thread has arrived: warp 0 waits at
** l5; warp 1's exit at l3 leaves 2 live threads, all arrived: released.
** Round robin: w0 l0, w1 l0, w0 l1 (BT: w = 0 jumps), w1 l1 (BF), w0 l4 SP,
** w1 l2, w0 l5 BAR (waits), w1 l3 EX (done; releases w0), w0 l6 SF. */
Test(sem, barrier_released_by_exit)
{
	Run r = start(".threads 4\n"
	              ".warpsize 2\n"
	              "l0: w = warpid\n"
	              "l1: bz w, l4\n"
	              "l2: x = 1\n"
	              "l3: exit\n"
	              "l4: sync\n"
	              "l5: barrier\n"
	              "l6: stop\n");
	Rec rec = {0};
	cr_expect_eq(sem_run(r.m, rec_hook, &rec), SEM_OK);
	static const int32_t w[] = {0, 1, 0, 1, 0, 1, 0, 1, 0}, pc[] = {0, 0, 1, 1, 4, 2, 5, 3, 6};
	static const Rule rule[] = {RULE_IT, RULE_IT, RULE_BT, RULE_BF, RULE_SP,
	                            RULE_IT, RULE_BAR, RULE_EX, RULE_SF};
	cr_assert_eq(rec.n, 9);
	for (int i = 0; i < 9; i++)
		cr_expect(rec.warp[i] == w[i] && rec.pc[i] == pc[i] && rec.rule[i] == rule[i],
		          "step %d: warp %d pc %d %s", i + 1, rec.warp[i], rec.pc[i], sem_rule_name(rec.rule[i]));
	finish(&r);
}

/* ---- several warps: round robin (semantics.md §6) --------------------------------- */

/* Warp 0 (w = 0) jumps to the sync at once; warp 1 runs l2, l3 too. Round
** robin over 0, 1, skipping finished warps:
**   w0 l0 IT, w1 l0 IT, w0 l1 BT, w1 l1 BF, w0 l4 SP, w1 l2 IT, w0 l5 SF,
**   w1 l3 IT, w1 l4 SP, w1 l5 SF. */
Test(sem, round_robin_order)
{
	Run r = start(".threads 4\n"
	              ".warpsize 2\n"
	              "l0: w = warpid\n"
	              "l1: bz w, l4\n"
	              "l2: x = 1\n"
	              "l3: x = 2\n"
	              "l4: sync\n"
	              "l5: stop\n");
	Machine *m = r.m;
	cr_expect_eq(sem_pick(m), 0);
	m->cursor = 1;
	cr_expect_eq(sem_pick(m), 1);
	m->cursor = 0;
	Rec rec = {0};
	cr_expect_eq(sem_run(m, rec_hook, &rec), SEM_OK);
	static const int32_t w[] = {0, 1, 0, 1, 0, 1, 0, 1, 1, 1}, pc[] = {0, 0, 1, 1, 4, 2, 5, 3, 4, 5};
	static const Rule rule[] = {RULE_IT, RULE_IT, RULE_BT, RULE_BF, RULE_SP,
	                            RULE_IT, RULE_SF, RULE_IT, RULE_SP, RULE_SF};
	cr_assert_eq(rec.n, 10);
	for (int i = 0; i < 10; i++)
		cr_expect(rec.warp[i] == w[i] && rec.pc[i] == pc[i] && rec.rule[i] == rule[i],
		          "step %d: warp %d pc %d %s", i + 1, rec.warp[i], rec.pc[i], sem_rule_name(rec.rule[i]));
	cr_expect_eq(sem_pick(m), -1);
	EXPECT_VARS(m, "w", 0, 0, 1, 1);
	cr_expect(!has_var(m, "x", 0) && !has_var(m, "x", 1));
	cr_expect_eq(var(m, "x", 2), 2);
	cr_expect_eq(var(m, "x", 3), 2);
	finish(&r);
}

/* =================================================================================
** §3 data rules
** ================================================================================= */

/* CT / AS: literals, variables, tid, parameters and the special variables. */
Test(sem, copy_and_specials)
{
	Run r = start(".threads 4\n"
	              ".warpsize 2\n"
	              ".param k = 7\n"
	              "a = 5\n"
	              "b = a\n"
	              "c = tid\n"
	              "d = k\n"
	              "e = ntid\n"
	              "f = -3\n"
	              "const(g, 9)\n"
	              "h = laneid\n"
	              "i = warpid\n"
	              "j = nwarps\n"
	              "l = warpsize\n"
	              "n = T_id\n"
	              "stop\n");
	Machine *m = r.m;
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_VARS(m, "a", 5, 5, 5, 5);
	EXPECT_VARS(m, "b", 5, 5, 5, 5);
	EXPECT_VARS(m, "c", 0, 1, 2, 3);
	EXPECT_VARS(m, "d", 7, 7, 7, 7);
	EXPECT_VARS(m, "e", 4, 4, 4, 4);
	EXPECT_VARS(m, "f", -3, -3, -3, -3);
	EXPECT_VARS(m, "g", 9, 9, 9, 9);
	EXPECT_VARS(m, "h", 0, 1, 0, 1); /* t mod 2 */
	EXPECT_VARS(m, "i", 0, 0, 1, 1); /* t div 2 */
	EXPECT_VARS(m, "j", 2, 2, 2, 2);
	EXPECT_VARS(m, "l", 2, 2, 2, 2);
	EXPECT_VARS(m, "n", 0, 1, 2, 3);
	finish(&r);
}

/* BP and the unary operators (language.md §4.1), with a = tid - 2 = -2 -1 0 1. */
struct op_case {
	char stmt[40];
	int64_t r[4];
};

ParameterizedTestParameters(sem, operators)
{
	static struct op_case cases[] = {
		{"r = a + 3", {1, 2, 3, 4}},
		{"r = a - 3", {-5, -4, -3, -2}},
		{"r = a -3", {-5, -4, -3, -2}}, /* after an operand, - is the operator */
		{"r = a * -3", {6, 3, 0, -3}},
		{"r = a × 2", {-4, -2, 0, 2}},
		{"r = -7 / 2", {-3, -3, -3, -3}}, /* truncation toward zero */
		{"r = -7 % 2", {-1, -1, -1, -1}},
		{"r = 7 / -2", {-3, -3, -3, -3}},
		{"r = 7 % -2", {1, 1, 1, 1}},     /* the sign of the dividend */
		{"r = a / 2", {-1, 0, 0, 0}},
		{"r = a % 2", {0, -1, 0, 1}},
		{"r = a < 0", {1, 1, 0, 0}},
		{"r = a <= 0", {1, 1, 1, 0}},
		{"r = a > -1", {0, 0, 1, 1}},
		{"r = a >= -1", {0, 1, 1, 1}},
		{"r = a == 0", {0, 0, 1, 0}},
		{"r = a != 0", {1, 1, 0, 1}},
		{"r = a & 3", {2, 3, 0, 1}},      /* ...1110 & 011 = 010 */
		{"r = a | 4", {-2, -1, 4, 5}},
		{"r = a ^ 1", {-1, -2, 1, 0}},
		{"r = a << 2", {-8, -4, 0, 4}},
		{"r = a >> 1", {-1, -1, 0, 0}},   /* floor(a / 2) */
		{"r = -7 >> 1", {-4, -4, -4, -4}},
		{"r = a >> 70", {-1, -1, 0, 0}},
		{"r = a << 0", {-2, -1, 0, 1}},
		{"r = a && 1", {1, 1, 0, 1}},
		{"r = a && 0", {0, 0, 0, 0}},
		{"r = a || 0", {1, 1, 0, 1}},
		{"r = min(a, 0)", {-2, -1, 0, 0}},
		{"r = max(a, 0)", {0, 0, 0, 1}},
		{"r = -a", {2, 1, 0, -1}},
		{"r = !a", {0, 0, 1, 0}},
		{"r = ~a", {1, 0, -1, -2}},       /* ~x = -x - 1 */
		{"r = 0x10 + a", {14, 15, 16, 17}},
		{"r = a < tid", {1, 1, 1, 1}},
		{"add(r, a, 10)", {8, 9, 10, 11}},
		{"sub(r, 10, a)", {12, 11, 10, 9}},
		{"mul(r, a, a)", {4, 1, 0, 1}},
		{"div(r, a, -1)", {2, 1, 0, -1}},
		{"mod(r, 5, 3)", {2, 2, 2, 2}},
		{"lt(r, a, 0)", {1, 1, 0, 0}},
		{"le(r, a, 0)", {1, 1, 1, 0}},
		{"gt(r, a, 0)", {0, 0, 0, 1}},
		{"ge(r, a, 0)", {0, 0, 1, 1}},
		{"eq(r, a, -1)", {0, 1, 0, 0}},
		{"ne(r, a, -1)", {1, 0, 1, 1}},
		{"and(r, a, 1)", {0, 1, 0, 1}},
		{"or(r, a, 1)", {-1, -1, 1, 1}},  /* -2|1 = -1 */
		{"xor(r, a, a)", {0, 0, 0, 0}},
		{"shl(r, 3, 2)", {12, 12, 12, 12}},
		{"shr(r, a, 1)", {-1, -1, 0, 0}},
		{"land(r, a, tid)", {0, 1, 0, 1}},
		{"lor(r, a, 0)", {1, 1, 0, 1}},
		{"min(r, a, tid)", {-2, -1, 0, 1}},
		{"max(r, a, tid)", {0, 1, 2, 3}},
	};
	return cr_make_param_array(struct op_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct op_case *c, sem, operators)
{
	char src[256];
	snprintf(src, sizeof src, "a = tid - 2\n%s\nstop\n", c->stmt);
	Run r = start(src);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK, "%s: %s", c->stmt, r.m->err.msg ? r.m->err.msg : "");
	for (int t = 0; t < 4; t++)
		cr_expect_eq(var(r.m, "r", t), c->r[t], "%s in thread %d: %lld, want %lld", c->stmt, t,
		             (long long)var(r.m, "r", t), (long long)c->r[t]);
	finish(&r);
}

/* BP stuck: division / remainder by zero, negative shift count. x = tid & 1
** = 0 1 0 1 and y = x - 1 = -1 0 -1 0 fail in threads 0 and 2: the first in
** lane order is named (0 ascending, 2 descending); nothing is committed
** (r keeps 7), the pc stays at the instruction. */
struct bp_case {
	char stmt[24];
	LaneOrder order;
	int32_t thread;
};

ParameterizedTestParameters(sem, bp_stuck)
{
	static struct bp_case cases[] = {
		{"r = 10 / x", ORDER_ASCENDING, 0},  {"r = 10 / x", ORDER_DESCENDING, 2},
		{"r = 10 % x", ORDER_ASCENDING, 0},  {"r = 10 % x", ORDER_DESCENDING, 2},
		{"r = 1 << y", ORDER_ASCENDING, 0},  {"r = 1 >> y", ORDER_DESCENDING, 2},
		{"div(r, tid, x)", ORDER_ASCENDING, 0}, {"r = x / 0", ORDER_DESCENDING, 3},
	};
	return cr_make_param_array(struct bp_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct bp_case *c, sem, bp_stuck)
{
	char src[256];
	snprintf(src, sizeof src, "x = tid & 1\ny = x - 1\nr = 7\n%s\nstop\n", c->stmt);
	SemOptions o = opts();
	o.lane_order = c->order;
	Run r = start_with(src, &o);
	Machine *m = r.m;
	run_to(m, 3, 5);
	Snap s = snap_take(m);
	stuck_step(m, 0);
	EXPECT_ERR(m, SEM_STUCK, "BP", 3, c->thread);
	EXPECT_SAME(&s, m);
	EXPECT_VARS(m, "r", 7, 7, 7, 7);
	snap_free(&s);
	finish(&r);
}

/* Only the active PEs execute: the PEs with x = 0 are deferred by bz, the
** division by x runs in {1,3} only. They resume at the sync (l3). */
Test(sem, inactive_lanes_do_not_fail)
{
	Run r = start("l0: x = tid & 1\n"
	              "l1: bz x, l3\n"
	              "l2: r = 10 / x\n"
	              "l3: sync\n"
	              "l4: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	cr_expect(!has_var(r.m, "r", 0) && !has_var(r.m, "r", 2));
	cr_expect_eq(var(r.m, "r", 1), 10);
	cr_expect_eq(var(r.m, "r", 3), 10);
	finish(&r);
}

/* LD from an uninitialised cell: rule MM under .memory strict (the default),
** the first failing PE in lane order (cells 0, 2, 3 are uninitialised: t0
** ascending, t3 descending); 0 under .memory zero. */
Test(sem, load_uninitialised)
{
	static const char body[] = ".data 1: 5\n"
	                           "a = tid\n"
	                           "x = mem[a]\n"
	                           "stop\n";
	for (int desc = 0; desc < 2; desc++) {
		SemOptions o = opts();
		o.lane_order = desc ? ORDER_DESCENDING : ORDER_ASCENDING;
		Run r = start_with(body, &o);
		run_to(r.m, 1, 2);
		Snap s = snap_take(r.m);
		stuck_step(r.m, 0);
		EXPECT_ERR(r.m, SEM_STUCK, "MM", 1, desc ? 3 : 0);
		cr_expect(strstr(r.m->err.msg, "shared") != NULL, "%s", r.m->err.msg);
		EXPECT_SAME(&s, r.m);
		snap_free(&s);
		finish(&r);
	}
	Run r = start(".memory zero\n.data 1: 5\na = tid\nx = mem[a]\ny = ↓a\nload(z, a)\nstop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "x", 0, 5, 0, 0);
	EXPECT_VARS(r.m, "y", 0, 5, 0, 0);
	EXPECT_VARS(r.m, "z", 0, 5, 0, 0);
	EXPECT_NO_CELL(r.m, 0); /* reading does not initialise */
	finish(&r);
}

/* Negative addresses: rules LD / ST / AT (local memory too). a = 1 - tid =
** 1 0 -1 -2 fails in threads 2, 3: t2 ascending, t3 descending. Nothing is
** written before the failure is found (Σ[0], Σ[1] stay 0). */
struct addr_case {
	char stmt[28];
	char rule[4];
	LaneOrder order;
	int32_t thread;
};

ParameterizedTestParameters(sem, negative_address)
{
	static struct addr_case cases[] = {
		{"x = mem[a]", "LD", ORDER_ASCENDING, 2},
		{"x = mem[a]", "LD", ORDER_DESCENDING, 3},
		{"mem[a] = 1", "ST", ORDER_ASCENDING, 2},
		{"mem[a] = 1", "ST", ORDER_DESCENDING, 3},
		{"x = local[a]", "LD", ORDER_DESCENDING, 3}, /* ascending: t0 reads the uninitialised local[1] first (MM) */
		{"local[a] = 1", "ST", ORDER_DESCENDING, 3},
		{"x = atominc(a)", "AT", ORDER_ASCENDING, 2},
		{"x = atominc(a)", "AT", ORDER_DESCENDING, 3},
		{"x = atomadd(a, 1)", "AT", ORDER_ASCENDING, 2},
		{"x = atomcas(a, 0, 1)", "AT", ORDER_ASCENDING, 2},
		{"x = atomexch(a, 1)", "AT", ORDER_DESCENDING, 3},
	};
	return cr_make_param_array(struct addr_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct addr_case *c, sem, negative_address)
{
	char src[256];
	snprintf(src, sizeof src, ".data 0: 0 0\na = 1 - tid\n%s\nstop\n", c->stmt);
	SemOptions o = opts();
	o.lane_order = c->order;
	Run r = start_with(src, &o);
	run_to(r.m, 1, 2);
	Snap s = snap_take(r.m);
	stuck_step(r.m, 0);
	EXPECT_ERR(r.m, SEM_STUCK, c->rule, 1, c->thread);
	EXPECT_SAME(&s, r.m);
	EXPECT_MEM(r.m, 0, 0, 0);
	snap_free(&s);
	finish(&r);
}

/* ST in its spellings: mem[a] = v, ↑a = v, store(value, address). */
Test(sem, store)
{
	Run r = start("y = tid * 2\n"
	              "mem[tid] = y\n"
	              "a = tid + 4\n"
	              "↑a = tid\n"
	              "b = tid + 8\n"
	              "store(y, b)\n" /* value first, then address (seed 003) */
	              "mem[12] = 5\n"  /* four PEs, one value: not a race */
	              "stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_MEM(r.m, 0, 0, 2, 4, 6, 0, 1, 2, 3, 0, 2, 4, 6, 5);
	EXPECT_NO_CELL(r.m, 13);
	cr_expect_eq(r.m->nraces, 0);
	finish(&r);
}

/* AT (T5, TC-SEM-7): each PE reads what the previous one wrote and gets the
** NEW value. Ascending: v = 1 2 3 4; descending: t3 first, v = 4 3 2 1. */
Test(sem, atominc)
{
	Run r = start(".data 0: 0\n"
	              "l0: x = 0\n"
	              "l1: v <-a x + 1\n"
	              "l2: k = 10\n"
	              "l3: a = tid + k\n"
	              "l4: store(v, a)\n"
	              "l5: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "v", 1, 2, 3, 4);
	EXPECT_MEM(r.m, 0, 4);
	EXPECT_MEM(r.m, 10, 1, 2, 3, 4); /* Σ[10 + t] = t + 1 */
	finish(&r);

	SemOptions o = opts();
	o.lane_order = ORDER_DESCENDING;
	r = start_with(".data 0: 0\nv = atominc(0)\nw = atominc(0)\natominc(u, 0)\nstop\n", &o);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "v", 4, 3, 2, 1);
	EXPECT_VARS(r.m, "w", 8, 7, 6, 5);
	EXPECT_VARS(r.m, "u", 12, 11, 10, 9);
	EXPECT_MEM(r.m, 0, 12);
	cr_expect_eq(r.m->nraces, 0); /* atomics never race */
	finish(&r);
}

/* atomadd returns the OLD value: Σ[0] = 10; t0 adds 0 (old 10), t1 adds 1
** (old 10 → 11), t2 adds 2 (old 11 → 13), t3 adds 3 (old 13 → 16). */
Test(sem, atomadd)
{
	Run r = start(".data 0: 10\nv = atomadd(0, tid)\nstop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "v", 10, 10, 11, 13);
	EXPECT_MEM(r.m, 0, 16);
	finish(&r);
}

/* atomcas(a, cmp, new): old value; writes new only if Σ[a] = cmp.
** (1) cmp = 0, new = tid + 1: t0 succeeds (Σ = 1), t1..t3 fail: v = 0 1 1 1.
** (2) cmp = tid, new = tid + 1 ascending: everyone succeeds in turn:
**     v = 0 1 2 3, Σ = 4; descending: t3 (0 ≠ 3), t2, t1 fail, t0 succeeds:
**     v = 0 0 0 0, Σ = 1. */
Test(sem, atomcas)
{
	Run r = start(".data 0: 0\nn = tid + 1\nv = atomcas(0, 0, n)\nstop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "v", 0, 1, 1, 1);
	EXPECT_MEM(r.m, 0, 1);
	finish(&r);

	for (int desc = 0; desc < 2; desc++) {
		SemOptions o = opts();
		o.lane_order = desc ? ORDER_DESCENDING : ORDER_ASCENDING;
		r = start_with(".data 0: 0\nn = tid + 1\nv = atomcas(0, tid, n)\nstop\n", &o);
		cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
		if (desc) {
			EXPECT_VARS(r.m, "v", 0, 0, 0, 0);
			EXPECT_MEM(r.m, 0, 1);
		} else {
			EXPECT_VARS(r.m, "v", 0, 1, 2, 3);
			EXPECT_MEM(r.m, 0, 4);
		}
		finish(&r);
	}
}

/* "a failing atomcas writes nothing" (semantics.md §3): under .memory zero
** an uninitialised cell reads 0; cmp = 5 ≠ 0 fails in every PE, so cell 7
** must stay uninitialised (not be listed in the final Σ). */
Test(sem, atomcas_fail_writes_nothing)
{
	Run r = start(".memory zero\nv = atomcas(7, 5, 9)\nstop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "v", 0, 0, 0, 0);
	EXPECT_NO_CELL(r.m, 7);
	finish(&r);
}

/* atomexch returns the old value and stores the new: Σ[0] = 5; t0 → 0
** (old 5), t1 → 1 (old 0), t2 → 2 (old 1), t3 → 3 (old 2). */
Test(sem, atomexch)
{
	Run r = start(".data 0: 5\nv = atomexch(0, tid)\nstop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "v", 5, 0, 1, 2);
	EXPECT_MEM(r.m, 0, 3);
	finish(&r);
}

/* Local memory is per thread: the same address holds each thread's value;
** shared memory is untouched; local stores never race. */
Test(sem, local_memory_per_thread)
{
	Run r = start("local[0] = tid\n"
	              "y = tid * 10\n"
	              "⇑1 = y\n"
	              "a = local[0]\n"
	              "b = ⇓1\n"
	              "stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "a", 0, 1, 2, 3);
	EXPECT_VARS(r.m, "b", 0, 10, 20, 30);
	EXPECT_NO_CELL(r.m, 0);
	EXPECT_NO_CELL(r.m, 1);
	cr_expect_eq(r.m->nraces, 0);
	finish(&r);
}

/* Local loads of a cell never written: MM (strict), 0 (.memory zero governs
** local memory too). Thread 1 wrote local[0], thread 0 did not. */
Test(sem, local_uninitialised)
{
	static const char body[] = "l0: p = tid & 1\n"
	                           "l1: bz p, l3\n"
	                           "l2: local[0] = 9\n"
	                           "l3: sync\n"
	                           "l4: x = local[0]\n"
	                           "l5: stop\n";
	Run r = start(body);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	EXPECT_ERR(r.m, SEM_STUCK, "MM", 4, 0);
	cr_expect(strstr(r.m->err.msg, "local") != NULL, "%s", r.m->err.msg);
	finish(&r);
	char src[256];
	snprintf(src, sizeof src, ".memory zero\n%s", body);
	r = start(src);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "x", 0, 9, 0, 9);
	finish(&r);
}

/* MV: reading a variable no PE assigned. */
Test(sem, mv_unassigned)
{
	Run r = start("l0: y = x + 1\nl1: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	EXPECT_ERR(r.m, SEM_STUCK, "MV", 0, 0);
	cr_expect(strstr(r.m->err.msg, "'x'") != NULL, "%s", r.m->err.msg);
	finish(&r);
}

/* MV when only some PEs assigned x ({1,3} at l2): the first PE in lane order
** that lacks it is named: t0 ascending, t2 descending; y stays unassigned. */
Test(sem, mv_partial)
{
	static const char src[] = "l0: p = tid & 1\n"
	                          "l1: bz p, l3\n"
	                          "l2: x = 1\n"
	                          "l3: sync\n"
	                          "l4: y = x\n"
	                          "l5: stop\n";
	for (int desc = 0; desc < 2; desc++) {
		SemOptions o = opts();
		o.lane_order = desc ? ORDER_DESCENDING : ORDER_ASCENDING;
		Run r = start_with(src, &o);
		run_to(r.m, 4, 10);
		Snap s = snap_take(r.m);
		stuck_step(r.m, 0);
		EXPECT_ERR(r.m, SEM_STUCK, "MV", 4, desc ? 2 : 0);
		EXPECT_SAME(&s, r.m);
		snap_free(&s);
		finish(&r);
	}
}

/* A parameter without a value is an error only when read, and the message
** says how to give one (--param); a value given in the options is used. */
Test(sem, param_without_value)
{
	Run r = start(".param n\nl0: x = n + 1\nl1: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	EXPECT_ERR(r.m, SEM_STUCK, "MV", 0, 0);
	cr_expect(strstr(r.m->err.msg, "--param") != NULL, "%s", r.m->err.msg);
	finish(&r);

	r = start(".param n\nx = 1\nstop\n"); /* never read: fine */
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	finish(&r);

	SemOptions o = opts();
	ParamSetting ps[2] = {{"n", NUM_I(3)}, {"k", NUM_I(9)}};
	o.params = ps;
	o.nparams = 2;
	r = start_with(".param n\n.param k = 7\nx = n + 1\ny = k\nstop\n", &o);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "x", 4, 4, 4, 4);
	EXPECT_VARS(r.m, "y", 9, 9, 9, 9); /* the option overrides the default */
	finish(&r);

	/* naming something that is not a parameter is an option error */
	Prog pr = load("x = 1\nstop\n");
	ParamSetting bad = {"nope", NUM_I(1)};
	o = opts();
	o.params = &bad;
	o.nparams = 1;
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	Machine *m = sem_new(pr.p, &o, &d);
	cr_expect(m == NULL);
	cr_expect_eq(d.nerrors, 1);
	sem_free(m);
	diag_free(&d);
	unload(&pr);
}

/* ---- lane order and races (semantics.md §3) ------------------------------------------ */

static void expect_race(const Machine *m, int i, int64_t cell, int32_t pc, const int64_t *threads,
                        const int64_t *values, int n, int line)
{
	cr_assert(i < m->nraces, "line %d: no race %d (%d races)", line, i, m->nraces);
	const Race *r = &m->races[i];
	cr_expect_eq(r->cell, cell, "line %d: race on cell %lld, want %lld", line, (long long)r->cell,
	             (long long)cell);
	cr_expect_eq(r->pc, pc, "line %d: race at pc %d, want %d", line, r->pc, pc);
	cr_assert_eq(r->n, n, "line %d: %d threads in the race, want %d", line, r->n, n);
	for (int k = 0; k < n; k++) {
		cr_expect_eq(r->threads[k], threads[k], "line %d: thread %d is %d, want %lld", line, k,
		             r->threads[k], (long long)threads[k]);
		cr_expect(r->values[k].z == NULL && r->values[k].i == values[k],
		          "line %d: value %d is %lld, want %lld", line, k, (long long)r->values[k].i,
		          (long long)values[k]);
	}
}

/* mem[0] = tid: one race, reported once, threads and values in lane order;
** the last PE in lane order wins (3 ascending, 0 descending). */
Test(sem, race_lane_order)
{
	Run r = start("l0: mem[0] = tid\nl1: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	cr_expect_eq(r.m->nraces, 1);
	expect_race(r.m, 0, 0, 0, I64S(0, 1, 2, 3), I64S(0, 1, 2, 3), 4, __LINE__);
	EXPECT_MEM(r.m, 0, 3);
	finish(&r);

	SemOptions o = opts();
	o.lane_order = ORDER_DESCENDING;
	r = start_with("l0: mem[0] = tid\nl1: stop\n", &o);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	cr_expect_eq(r.m->nraces, 1);
	expect_race(r.m, 0, 0, 0, I64S(3, 2, 1, 0), I64S(3, 2, 1, 0), 4, __LINE__);
	EXPECT_MEM(r.m, 0, 0);
	finish(&r);
}

/* Random lane order: deterministic per seed (same seed, same order), a
** permutation of the lanes, the last in the order wins; over 20 seeds more
** than one order appears (all equal has probability 24^-19). */
Test(sem, race_random_order)
{
	int32_t first[20][4];
	int distinct = 0;
	for (int seed = 1; seed <= 20; seed++) {
		int32_t order[2][4];
		for (int rep = 0; rep < 2; rep++) {
			SemOptions o = opts();
			o.lane_order = ORDER_RANDOM;
			o.seed = (uint64_t)seed;
			Run r = start_with("mem[0] = tid\nstop\n", &o);
			cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
			cr_assert_eq(r.m->nraces, 1);
			const Race *rc = &r.m->races[0];
			cr_assert_eq(rc->n, 4);
			int seen = 0;
			for (int k = 0; k < 4; k++) {
				order[rep][k] = rc->threads[k];
				cr_expect(rc->values[k].i == rc->threads[k]); /* each stores its tid */
				seen |= 1 << rc->threads[k];
			}
			cr_expect_eq(seen, 0xF, "not a permutation");
			EXPECT_MEM(r.m, 0, order[rep][3]);
			finish(&r);
		}
		cr_expect(memcmp(order[0], order[1], sizeof order[0]) == 0, "seed %d not deterministic", seed);
		memcpy(first[seed - 1], order[0], sizeof order[0]);
		bool is_new = true;
		for (int j = 0; j < seed - 1; j++)
			if (memcmp(first[j], order[0], sizeof order[0]) == 0)
				is_new = false;
		distinct += is_new;
	}
	cr_expect_gt(distinct, 1);
}

/* One report per (instruction, cell): a = tid & 1 sends {0,2} to cell 0 and
** {1,3} to cell 1. Equal values are not a race: mem[b] = b with b = tid / 2
** stores 0, 0 to cell 10 and 1, 1 to cell 11 (b + 10). A race lists every
** PE that stored to the cell, including those with equal values. */
Test(sem, races_per_cell)
{
	Run r = start("l0: a = tid & 1\n"
	              "l1: mem[a] = tid\n"
	              "l2: b = tid / 2\n"
	              "l3: c = b + 10\n"
	              "l4: mem[c] = b\n"
	              "l5: d = tid / 3\n" /* 0 0 0 1 */
	              "l6: mem[20] = d\n"
	              "l7: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	cr_assert_eq(r.m->nraces, 3);
	int i0 = r.m->races[0].cell == 0 ? 0 : 1;
	expect_race(r.m, i0, 0, 1, I64S(0, 2), I64S(0, 2), 2, __LINE__);
	expect_race(r.m, 1 - i0, 1, 1, I64S(1, 3), I64S(1, 3), 2, __LINE__);
	expect_race(r.m, 2, 20, 6, I64S(0, 1, 2, 3), I64S(0, 0, 0, 1), 4, __LINE__);
	EXPECT_MEM(r.m, 0, 2, 3);
	EXPECT_MEM(r.m, 10, 0, 1);
	EXPECT_MEM(r.m, 20, 1);
	finish(&r);
}

/* A racing store executed twice (a uniform loop of two iterations) is
** reported twice: once per warp instruction. */
Test(sem, race_per_execution)
{
	Run r = start("l0: i = 0\n"
	              "l1: mem[0] = tid\n"
	              "l2: i = i + 1\n"
	              "l3: p = i < 2\n"
	              "l4: bnz p, l1\n"
	              "l5: sync\n"
	              "l6: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	cr_expect_eq(r.m->nraces, 2);
	for (int i = 0; i < r.m->nraces; i++)
		cr_expect(r.m->races[i].pc == 1 && r.m->races[i].cell == 0);
	finish(&r);
}

/* --races=error: status stuck, rule TL, after the whole instruction ran
** (Σ[0] = 3); the next instruction does not run. */
Test(sem, races_error)
{
	SemOptions o = opts();
	o.races_error = true;
	Run r = start_with("l0: mem[0] = tid\nl1: x = 1\nl2: stop\n", &o);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	EXPECT_ERR(r.m, SEM_STUCK, "TL", 0, 0, 1, 2, 3);
	EXPECT_MEM(r.m, 0, 3);
	cr_expect_eq(r.m->nraces, 1);
	cr_expect(!has_var(r.m, "x", 0));
	finish(&r);

	/* equal values: no race, no error */
	r = start_with("l0: mem[0] = 1\nl1: stop\n", &o);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	finish(&r);
}

/* ---- values beyond int64 (ℤ, language.md §1) ------------------------------------------- */

/* 2^62 · 4 = 2^64 leaves int64 in every lane; 2^64 / 8 = 2^61 comes back
** (and must be stored small: the representation is canonical). */
Test(sem, big_leave_and_return)
{
	Run r = start("l0: a = 1 << 62\n"
	              "l1: x = a * 4\n"
	              "l2: y = x / 8\n"
	              "l3: z = x - x\n"
	              "l4: w = x + tid\n"
	              "l5: q = w - x\n"
	              "l6: stop\n");
	Machine *m = r.m;
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	for (int t = 0; t < 4; t++) {
		EXPECT_STR(m, "x", t, "18446744073709551616");
		cr_expect(is_big(m, "x", t));
	}
	cr_expect_eq(m->nbig[vix(m, "x")], 4);
	EXPECT_VARS(m, "y", 2305843009213693952, 2305843009213693952, 2305843009213693952,
	            2305843009213693952);
	EXPECT_VARS(m, "z", 0, 0, 0, 0);
	EXPECT_STR(m, "w", 0, "18446744073709551616");
	EXPECT_STR(m, "w", 3, "18446744073709551619");
	EXPECT_VARS(m, "q", 0, 1, 2, 3);
	cr_expect_eq(m->nbig[vix(m, "y")], 0);
	cr_expect_eq(m->nbig[vix(m, "q")], 0);
	finish(&r);
}

/* Mixed lanes: x = tid · 2^62 = 0, 2^62 (small), 2^63, 3·2^62 (big). */
Test(sem, big_mixed_lanes)
{
	Run r = start("a = 1 << 62\n"
	              "x = tid * a\n"
	              "y = x / 2\n"
	              "z = x >> 62\n"
	              "stop\n");
	Machine *m = r.m;
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	cr_expect_eq(m->nbig[vix(m, "x")], 2);
	cr_expect(!is_big(m, "x", 1) && is_big(m, "x", 2));
	EXPECT_STR(m, "x", 2, "9223372036854775808");
	EXPECT_STR(m, "x", 3, "13835058055282163712");
	/* 0, 2^61, 2^62, 3·2^61 */
	EXPECT_VARS(m, "y", 0, 2305843009213693952, 4611686018427387904, 6917529027641081856);
	EXPECT_VARS(m, "z", 0, 1, 2, 3);
	finish(&r);
}

/* x = x · x in a loop, destination = both operands: x_k = (tid + 2)^(2^k).
** After 5 squarings: 2^32, 3^32 small; 4^32 = 2^64, 5^32 big. After 7:
** (tid + 2)^128 in every lane. */
Test(sem, big_square_in_loop)
{
	Run r = start("l0: x = tid + 2\n"
	              "l1: i = 0\n"
	              "l2: x = x * x\n"
	              "l3: i = i + 1\n"
	              "l4: p = i < 7\n"
	              "l5: bnz p, l2\n"
	              "l6: sync\n"
	              "l7: stop\n");
	Machine *m = r.m;
	int squarings = 0;
	while (squarings < 5) {
		if (m->warps[0].pc == 2)
			squarings++;
		sem_step(m, 0, NULL);
		cr_assert_eq(m->status, SEM_RUNNING);
	}
	EXPECT_STR(m, "x", 0, "4294967296");
	EXPECT_STR(m, "x", 1, "1853020188851841");
	EXPECT_STR(m, "x", 2, "18446744073709551616");
	EXPECT_STR(m, "x", 3, "23283064365386962890625");
	cr_expect_eq(m->nbig[vix(m, "x")], 2);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	for (int t = 0; t < 4; t++) {
		mpz_t want;
		mpz_init(want);
		mpz_ui_pow_ui(want, (unsigned long)t + 2, 128);
		char *ws = mpz_get_str(NULL, 10, want);
		EXPECT_STR(m, "x", t, ws);
		free(ws);
		mpz_clear(want);
	}
	finish(&r);
}

/* A small value written over a big one (the lane fast path must drop the
** big value), in the active lanes only: x = 2^64 everywhere, then x = tid
** in {1,3}; y = x + 1. */
Test(sem, big_overwritten_by_small)
{
	Run r = start("l0: a = 1 << 62\n"
	              "l1: x = a * 4\n"
	              "l2: p = tid & 1\n"
	              "l3: bz p, l5\n"
	              "l4: x = tid\n"
	              "l5: sync\n"
	              "l6: y = x + 1\n"
	              "l7: z = 5\n"
	              "l8: x = z\n"
	              "l9: stop\n");
	Machine *m = r.m;
	run_to(m, 6, 20);
	cr_expect_eq(m->nbig[vix(m, "x")], 2);
	EXPECT_STR(m, "x", 0, "18446744073709551616");
	EXPECT_STR(m, "x", 1, "1");
	EXPECT_STR(m, "x", 2, "18446744073709551616");
	EXPECT_STR(m, "x", 3, "3");
	cr_expect(!is_big(m, "x", 1));
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_STR(m, "y", 0, "18446744073709551617");
	EXPECT_STR(m, "y", 1, "2");
	EXPECT_STR(m, "y", 2, "18446744073709551617");
	EXPECT_STR(m, "y", 3, "4");
	EXPECT_VARS(m, "x", 5, 5, 5, 5);
	cr_expect_eq(m->nbig[vix(m, "x")], 0);
	finish(&r);
}

/* The edges of int64 in every operator of the fast path. */
Test(sem, int64_edges)
{
	Run r = start("a = -9223372036854775808\n"
	              "b = -a\n"        /* 2^63 */
	              "c = ~a\n"        /* 2^63 - 1 */
	              "d = a - 1\n"     /* -2^63 - 1 */
	              "e = a / -1\n"    /* 2^63 */
	              "f = a % -1\n"    /* 0 */
	              "g = 1 << 63\n"   /* 2^63 */
	              "h = -1 << 63\n"  /* -2^63 fits */
	              "k = b - 1\n"     /* back to 2^63 - 1 */
	              "n = g >> 1\n"    /* 2^62 */
	              "o = 9223372036854775807 + 1\n"
	              "q = a * -1\n"
	              "s = 0 - a\n"
	              "u = b + a\n"     /* 0 */
	              "stop\n");
	Machine *m = r.m;
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK, "%s", m->err.msg ? m->err.msg : "");
	EXPECT_STR(m, "b", 0, "9223372036854775808");
	EXPECT_STR(m, "c", 1, "9223372036854775807");
	EXPECT_STR(m, "d", 2, "-9223372036854775809");
	EXPECT_STR(m, "e", 3, "9223372036854775808");
	EXPECT_STR(m, "f", 0, "0");
	EXPECT_STR(m, "g", 1, "9223372036854775808");
	EXPECT_STR(m, "h", 2, "-9223372036854775808");
	EXPECT_STR(m, "k", 3, "9223372036854775807");
	EXPECT_STR(m, "n", 0, "4611686018427387904");
	EXPECT_STR(m, "o", 1, "9223372036854775808");
	EXPECT_STR(m, "q", 2, "9223372036854775808");
	EXPECT_STR(m, "s", 3, "9223372036854775808");
	EXPECT_STR(m, "u", 0, "0");
	static const char *const small[] = {"c", "f", "h", "k", "n", "u"};
	for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
		cr_expect(!is_big(m, small[i], 0), "%s should be stored as int64", small[i]);
	finish(&r);
}

/* =================================================================================
** §4 GSA
** ================================================================================= */

/* γ (matrix form, two rows at pc 5 and 6): the γ block is an implicit sync.
** {1,3} arrive first: SS resumes {0,2} at l4; their arrival fires SP, which
** also runs the whole group in one step: x3 = p ≠ 0 ? x1 : x2 = 20 10 20 10,
** y3 = 2 1 2 1, and continues after the group (pc 7). γ reads lazily: t0
** never assigned x1, which is not an error. */
Test(sem, gsa_gamma_implicit_sync)
{
	Run r = start("l0: p = tid & 1\n"
	              "l1: bz p, l4\n"
	              "l2: x1 = 10\n"
	              "l3: jump l5\n"
	              "l4: x2 = 20\n"
	              "l5: [x3, y3] = gamma(p, (x1, 1), (x2, 2))\n"
	              "mem[tid] = x3\n"
	              "a = tid + 4\n"
	              "mem[a] = y3\n"
	              "stop\n");
	Machine *m = r.m;
	cr_assert_eq(pc_of(r.pr.p, "l5"), 5);
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_BD);
	STEP(m, 2, RULE_IT);
	STEP(m, 3, RULE_JP);
	STEP(m, 5, RULE_SS);
	AT(m, 4, TH(0) | TH(2), 1);
	NODE(m, 0, 1, TH(1) | TH(3), 4, NONE);
	cr_expect(!has_var(m, "x3", 1)); /* the group has not run yet */
	STEP(m, 4, RULE_IT);
	STEP(m, 5, RULE_SP);
	AT(m, 7, ALL4, 0);
	EXPECT_VARS(m, "x3", 20, 10, 20, 10);
	EXPECT_VARS(m, "y3", 2, 1, 2, 1);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 20, 10, 20, 10, 2, 1, 2, 1);
	cr_expect_eq(m->rule_count[RULE_IT], 6); /* l0, l2, l4, and the three after the group */
	finish(&r);
}

/* A γ block reached by a uniform branch pops at once (SP). */
Test(sem, gsa_gamma_uniform)
{
	Run r = start("l0: p = 1\n"
	              "l1: bz p, l4\n"
	              "l2: x1 = 10\n"
	              "l3: jump l5\n"
	              "l4: x2 = 20\n"
	              "l5: x3 = gamma(p, x1, x2)\n"
	              "l6: stop\n");
	Rec rec = {0};
	cr_expect_eq(sem_run(r.m, rec_hook, &rec), SEM_OK);
	EXPECT_RULES_AT(&rec, 5, "SP");
	EXPECT_VARS(r.m, "x3", 10, 10, 10, 10);
	finish(&r);
}

/* μ and η in a loop where thread t leaves when i1 = t (p = i1 < tid):
** μ picks i0 on entry (from block 0) and i2 on the back edge; each
** μ execution is one IT. The η block is an implicit sync: SS resumes
** {0,1,2} at the η block itself (l_next), then SP runs η: n = each PE's own
** last i1 = 0 1 2 3. */
Test(sem, gsa_mu_eta_loop)
{
	Run r = start("l0: i0 = 0\n"
	              "l1: i1 = mu(i0, i2)\n"
	              "l2: p = i1 < tid\n"
	              "l3: bz p, l6\n" /* leave where p = 0 */
	              "l4: i2 = i1 + 1\n"
	              "l5: jump l1\n"
	              "l6: n = eta(p, i1)\n"
	              "l7: mem[tid] = n\n"
	              "l8: stop\n");
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_IT); /* entry: i1 := i0 */
	EXPECT_VARS(m, "i1", 0, 0, 0, 0);
	STEP(m, 2, RULE_IT);
	STEP(m, 3, RULE_BD); /* t0 leaves */
	NODE(m, 0, 3, NONE, 6, TH(0));
	STEP(m, 4, RULE_IT);
	STEP(m, 5, RULE_JP);
	STEP(m, 1, RULE_IT); /* back edge: i1 := i2 = 1 in {1,2,3} */
	EXPECT_VARS(m, "i1", 0, 1, 1, 1);
	run_to(m, 6, 30);
	AT(m, 6, TH(3), 1);
	NODE(m, 0, 3, NONE, 6, TH(0) | TH(1) | TH(2));
	STEP(m, 6, RULE_SS);
	AT(m, 6, TH(0) | TH(1) | TH(2), 1);
	cr_expect(!has_var(m, "n", 3));
	STEP(m, 6, RULE_SP);
	AT(m, 7, ALL4, 0);
	EXPECT_VARS(m, "n", 0, 1, 2, 3);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 0, 1, 2, 3);
	finish(&r);
}

/* μ at the program's first block: the entry operand (the literal 0) is used
** when the warp starts there, the back-edge operand afterwards:
** i1 = 0, 1, 2; i2 = 1, 2, 3; p = i2 < 3 falls through when i2 = 3. */
Test(sem, gsa_mu_in_entry_block)
{
	Run r = start("l0: i1 = mu(0, i2)\n"
	              "l1: i2 = i1 + 1\n"
	              "l2: p = i2 < 3\n"
	              "l3: bnz p, l0\n"
	              "l4: sync\n"
	              "l5: mem[tid] = i2\n"
	              "l6: stop\n");
	Rec rec = {0};
	cr_expect_eq(sem_run(r.m, rec_hook, &rec), SEM_OK);
	EXPECT_MEM(r.m, 0, 3, 3, 3, 3);
	EXPECT_RULES_AT(&rec, 3, "BT BT BF");
	EXPECT_RULES_AT(&rec, 0, "IT IT IT");
	finish(&r);
}

/* φ picks by predecessor (preds of the l5 block in program order: the
** l2-l3 block, then l4). φ is not an implicit sync: each group runs it on
** arrival (IT), then the explicit sync joins them. */
Test(sem, gsa_phi)
{
	Run r = start("l0: p = tid & 1\n"
	              "l1: bz p, l4\n"
	              "l2: x1 = 10\n"
	              "l3: jump l5\n"
	              "l4: x2 = 20\n"
	              "l5: x3 = phi(x1, x2)\n"
	              "l6: sync\n"
	              "l7: mem[tid] = x3\n"
	              "l8: stop\n");
	Machine *m = r.m;
	run_to(m, 5, 10);
	STEP(m, 5, RULE_IT);
	cr_expect_eq(var(m, "x3", 1), 10);
	cr_expect(!has_var(m, "x3", 0));
	STEP(m, 6, RULE_SS);
	STEP(m, 4, RULE_IT);
	STEP(m, 5, RULE_IT);
	EXPECT_VARS(m, "x3", 20, 10, 20, 10);
	STEP(m, 6, RULE_SP);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 20, 10, 20, 10);
	finish(&r);
}

/* T2: sumTriangle in GSA form (seed 001 §5.3, examples/sum_triangle_gsa.simd):
** Σ[16..19] = 0 5 6 22, d3 = 1 2 3 4, s4 = 0 5 6 22; the loop branch at l7
** fires BF BD BD BD BT (t0 leaves at the 2nd visit ... t3 alone at the 5th),
** the η block at l16 fires SS then SP; the μ group (3 rows) is one step. */
Test(sem, gsa_sum_triangle)
{
	Run r = start(".threads 4\n"
	              ".data 0: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n" SUM_TRIANGLE_GSA);
	Rec rec = {0};
	const Program *p = r.pr.p;
	cr_expect_eq(sem_run(r.m, rec_hook, &rec), SEM_OK);
	EXPECT_MEM(r.m, 16, 0, 5, 6, 22);
	EXPECT_VARS(r.m, "d3", 1, 2, 3, 4);
	EXPECT_VARS(r.m, "s4", 0, 5, 6, 22);
	EXPECT_RULES_AT(&rec, pc_of(p, "l7"), "BF BD BD BD BT");
	EXPECT_RULES_AT(&rec, pc_of(p, "l16"), "SS SP");
	EXPECT_RULES_AT(&rec, pc_of(p, "l5") + 1, ""); /* the μ rows after the first never issue */
	cr_expect_eq(r.m->visits[pc_of(p, "l7")], 5);
	cr_expect_eq(r.m->divergences[pc_of(p, "l7")], 3);
	cr_expect_eq(r.m->visits[pc_of(p, "l9")], 4);
	cr_expect_eq(r.m->divergences[pc_of(p, "l9")], 0);
	finish(&r);
}

/* T1 / language.md §6: the plain sumTriangle. */
Test(sem, sum_triangle)
{
	Run r = start(".threads 4\n"
	              ".param c = 4\n"
	              ".param v = 16\n"
	              ".data 0: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"
	              SUM_TRIANGLE);
	Rec rec = {0};
	cr_expect_eq(sem_run(r.m, rec_hook, &rec), SEM_OK);
	EXPECT_MEM(r.m, 16, 0, 5, 6, 22);
	EXPECT_MEM(r.m, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	EXPECT_VARS(r.m, "d", 1, 2, 3, 4);
	EXPECT_RULES_AT(&rec, 6, "BF BD BD BD BT");
	EXPECT_RULES_AT(&rec, 15, "SS SP");
	finish(&r);
}

/* =================================================================================
** §5 models
** ================================================================================= */

static const char if_else[] = "l0: p = tid & 1\n"
                              "l1: bz p, l4\n" /* jump {0,2}, fall {1,3} */
                              "l2: x = 10\n"
                              "l3: jump l5\n"
                              "l4: x = 20\n"
                              "l5: sync\n"
                              "l6: mem[tid] = x\n"
                              "l7: stop\n";

/* ipdom, fall-through first: the branch at l1 has R = l5 (B3). The top
** (0 → now 1, exit, all) gets pc R, then the jump side (l4, l5, {0,2}) and
** the fall-through side (l2, l5, {1,3}) are pushed; the last pushed runs.
** Entries pop for free when their pc reaches their rpc. */
Test(sem, ipdom_if_else_fallthrough_first)
{
	SemOptions o = opts();
	o.model = &model_ipdom;
	Run r = start_with(if_else, &o);
	Machine *m = r.m;
	ENT(m, 0, 0, -1, ALL4);
	STEP(m, 0, RULE_IT);
	ENT(m, 0, 1, -1, ALL4);
	STEP(m, 1, RULE_BD);
	AT(m, 2, TH(1) | TH(3), 3);
	ENT(m, 0, 2, 5, TH(1) | TH(3));
	ENT(m, 1, 4, 5, TH(0) | TH(2));
	ENT(m, 2, 5, -1, ALL4);
	STEP(m, 2, RULE_IT);
	ENT(m, 0, 3, 5, TH(1) | TH(3));
	STEP(m, 3, RULE_JP); /* pc 5 = rpc: popped */
	AT(m, 4, TH(0) | TH(2), 2);
	ENT(m, 0, 4, 5, TH(0) | TH(2));
	STEP(m, 4, RULE_IT); /* popped: the entry below waits at l5 */
	AT(m, 5, ALL4, 1);
	ENT(m, 0, 5, -1, ALL4);
	STEP(m, 5, RULE_NOP); /* sync is a no-op, but a step */
	AT(m, 6, ALL4, 1);
	STEP(m, 6, RULE_IT);
	STEP(m, 7, RULE_SF);
	cr_expect_eq(m->status, SEM_OK);
	cr_expect_eq(m->warps[0].ctl.n, 0);
	EXPECT_MEM(m, 0, 20, 10, 20, 10);
	finish(&r);
}

/* ipdom, taken first (NVIDIA): the fall-through side is pushed first. */
Test(sem, ipdom_if_else_taken_first)
{
	SemOptions o = opts();
	o.model = &model_ipdom;
	o.taken_first = true;
	Run r = start_with(if_else, &o);
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_BD);
	AT(m, 4, TH(0) | TH(2), 3);
	ENT(m, 0, 4, 5, TH(0) | TH(2));
	ENT(m, 1, 2, 5, TH(1) | TH(3));
	ENT(m, 2, 5, -1, ALL4);
	STEP(m, 4, RULE_IT);
	AT(m, 2, TH(1) | TH(3), 2);
	STEP(m, 2, RULE_IT);
	STEP(m, 3, RULE_JP);
	AT(m, 5, ALL4, 1);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 20, 10, 20, 10);
	finish(&r);
}

/* ipdom, if-then: the jump target is R itself, so only the fall-through
** side is pushed. */
Test(sem, ipdom_if_then)
{
	SemOptions o = opts();
	o.model = &model_ipdom;
	Run r = start_with("l0: p = tid & 1\n"
	                   "l1: bz p, l3\n"
	                   "l2: x = 10\n"
	                   "l3: sync\n"
	                   "l4: stop\n",
	                   &o);
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_BD);
	AT(m, 2, TH(1) | TH(3), 2);
	ENT(m, 0, 2, 3, TH(1) | TH(3));
	ENT(m, 1, 3, -1, ALL4);
	STEP(m, 2, RULE_IT);
	AT(m, 3, ALL4, 1);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	finish(&r);
}

/* ipdom, divergent loop (TC-SEM-4's program): the exit branch's R = l7 equals
** the top's rpc after the first divergence, so the top is popped and the
** remaining side pushed: the stack never grows beyond 2. */
Test(sem, ipdom_loop_does_not_grow)
{
	SemOptions o = opts();
	o.model = &model_ipdom;
	Run r = start_with("l0: i = 0\n"
	                   "l1: s = 0\n"
	                   "l2: p = tid < i\n"
	                   "l3: bnz p, l7\n"
	                   "l4: s = s + 1\n"
	                   "l5: i = i + 1\n"
	                   "l6: jump l2\n"
	                   "l7: sync\n"
	                   "l8: mem[tid] = s\n"
	                   "l9: stop\n",
	                   &o);
	Machine *m = r.m;
	run_to(m, 3, 10);
	STEP(m, 3, RULE_BF); /* i = 0: uniform, moves the top's pc */
	AT(m, 4, ALL4, 1);
	ENT(m, 0, 4, -1, ALL4);
	for (int k = 1; k <= 3; k++) {
		run_to(m, 3, 10);
		STEP(m, 3, RULE_BD); /* t(k-1) leaves */
		uint64_t stay = ALL4 & ~((1ull << k) - 1);
		AT(m, 4, stay, 2);
		ENT(m, 0, 4, 7, stay);
		ENT(m, 1, 7, -1, ALL4);
	}
	run_to(m, 3, 10);
	STEP(m, 3, RULE_BT); /* t3 alone leaves: its entry reaches R and pops */
	AT(m, 7, ALL4, 1);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 1, 2, 3, 4);
	cr_expect_eq(m->max_depth, 2);
	finish(&r);
}

/* ipdom, exit: both sides' ipdom is the virtual exit (R = -1 = the top's
** rpc), so the top is replaced by the two sides. exit removes {1,3} from
** every entry; the emptied entry pops and {0,2} run on. */
Test(sem, ipdom_exit)
{
	SemOptions o = opts();
	o.model = &model_ipdom;
	Run r = start_with("l0: p = tid & 1\n"
	                   "l1: bz p, l4\n"
	                   "l2: x = 1\n"
	                   "l3: exit\n"
	                   "l4: x = 2\n"
	                   "l5: mem[tid] = x\n"
	                   "l6: stop\n",
	                   &o);
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_BD);
	AT(m, 2, TH(1) | TH(3), 2);
	ENT(m, 0, 2, -1, TH(1) | TH(3));
	ENT(m, 1, 4, -1, TH(0) | TH(2));
	STEP(m, 2, RULE_IT);
	STEP(m, 3, RULE_EX);
	AT(m, 4, TH(0) | TH(2), 1);
	ENT(m, 0, 4, -1, TH(0) | TH(2));
	cr_expect_eq(m->nlive, 2);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 2);
	EXPECT_MEM(m, 2, 2);
	EXPECT_NO_CELL(m, 1);
	EXPECT_NO_CELL(m, 3);
	finish(&r);
}

/* ipdom on the unstructured CFG of Diamos et al. (examples/unstructured.simd):
** every branch's R is the exit block; T0: BB1 BB3 BB4 BB5, T1: BB1 BB2,
** T2: BB1 BB2 BB3 BB5, T3: BB1 BB2 BB3 BB4. By hand: BB1 all; BB2 {1,2,3};
** BB3 {2,3} (T1 drops to the Exit entry); BB4 {3}; BB5 {2}; then the
** deferred {0}: BB3, BB4, BB5; Exit once: 1+1+2+2+2+1 = 9 block executions.
** The sync model gets stuck at stop (no sync pops the nodes). */
static const char unstructured[] = ".threads 4\n"
                                   "bb1:   c1 = tid == 0\n"
                                   "       bnz c1, bb3\n"
                                   "bb2:   c2 = tid == 1\n"
                                   "       bnz c2, exit\n"
                                   "bb3:   c3 = tid == 2\n"
                                   "       bnz c3, bb5\n"
                                   "bb4:   c4 = tid == 3\n"
                                   "       bnz c4, exit\n"
                                   "bb5:   seen5 = 1\n"
                                   "exit:  stop\n";

Test(sem, ipdom_unstructured_blocks)
{
	for (int taken = 0; taken < 2; taken++) {
		SemOptions o = opts();
		o.model = &model_ipdom;
		o.taken_first = taken;
		Run r = start_with(unstructured, &o);
		Machine *m = r.m;
		cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
		const Cfg *g = m->cfg;
		cr_assert_eq(g->nblocks, 6);
		uint64_t total = 0;
		for (int b = 0; b < 6; b++)
			total += m->block_execs[b];
		cr_expect_eq(total, 9, "taken-first %d: %llu block executions", taken, (unsigned long long)total);
		if (!taken) {
			static const uint64_t want[6] = {1, 1, 2, 2, 2, 1};
			for (int b = 0; b < 6; b++)
				cr_expect_eq(m->block_execs[b], want[b], "block %d: %llu", b,
				             (unsigned long long)m->block_execs[b]);
		}
		cr_expect(has_var(m, "seen5", 0) && !has_var(m, "seen5", 1) && has_var(m, "seen5", 2) &&
		          !has_var(m, "seen5", 3));
		finish(&r);
	}
	Run r = start(unstructured);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	cr_expect_str_eq(r.m->err.rule, "SF");
	cr_expect_eq(r.m->err.pc, 9);
	finish(&r);
}

/* The spin lock (examples/spin_lock.simd): under mimd every thread is a warp
** of one without a stack and the threads interleave round robin, so the lock
** holder releases it and every thread gets in: Σ = 0 4. The first 8 steps:
** w0..w3 try the CAS (t0 wins), then w0 falls out of the loop (BF) while
** w1..w3 jump back (BT). Under sync (and ipdom) the winner waits at the
** loop's sync for threads that never get the lock: the step limit. */
static const char spin_lock[] = ".threads 4\n"
                                ".data 0: 0 0\n"
                                "lock:  old = atomcas(0, 0, 1)\n"
                                "       bnz old, lock\n"
                                "       sync\n"
                                "       c = mem[1]\n"
                                "       c = c + 1\n"
                                "       mem[1] = c\n"
                                "       r = atomexch(0, 0)\n"
                                "       stop\n";

Test(sem, mimd_spin_lock)
{
	SemOptions o = opts();
	o.model = &model_mimd;
	Run r = start_with(spin_lock, &o);
	Machine *m = r.m;
	cr_expect_eq(m->nwarps, 4);
	cr_expect_eq(m->warps[2].base, 2);
	cr_expect_eq(m->warps[2].size, 1);
	Rec rec = {0};
	cr_expect_eq(sem_run(m, rec_hook, &rec), SEM_OK);
	EXPECT_MEM(m, 0, 0, 4);
	static const Rule rule[8] = {RULE_IT, RULE_IT, RULE_IT, RULE_IT, RULE_BF, RULE_BT, RULE_BT, RULE_BT};
	cr_assert_geq(rec.n, 8);
	for (int i = 0; i < 8; i++)
		cr_expect(rec.warp[i] == i % 4 && rec.rule[i] == rule[i] && rec.nactive[i] == 1,
		          "step %d: warp %d %s", i + 1, rec.warp[i], sem_rule_name(rec.rule[i]));
	EXPECT_VARS(m, "c", 1, 2, 3, 4); /* t0 first; then the others in round-robin order */
	finish(&r);

	for (int model = 0; model < 2; model++) {
		o = opts();
		o.model = model ? &model_ipdom : &model_sync;
		o.max_steps = 5000;
		r = start_with(spin_lock, &o);
		cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_LIMIT);
		cr_expect_str_eq(r.m->err.rule, "limit");
		cr_expect_eq(r.m->steps, 5000);
		finish(&r);
	}
}

/* mimd: sync is a no-op step; branches just jump. */
Test(sem, mimd_if_else)
{
	SemOptions o = opts();
	o.model = &model_mimd;
	Run r = start_with(if_else, &o);
	Rec rec = {0};
	cr_expect_eq(sem_run(r.m, rec_hook, &rec), SEM_OK);
	EXPECT_MEM(r.m, 0, 20, 10, 20, 10);
	EXPECT_RULES_AT(&rec, 1, "BT BF BT BF"); /* t0, t2 jump (p = 0) */
	EXPECT_RULES_AT(&rec, 5, "NOP NOP NOP NOP");
	cr_expect_eq(r.m->max_depth, 0);
	finish(&r);
}

/* =================================================================================
** §7 measures
** ================================================================================= */

/* if_else (sync model), counted by hand from the trace of split_polarity:
** steps IT l0, BD l1, IT l2, JP l3, SS l5, IT l4, SP l5, IT l6, SF l7 = 9;
** |Θ| at the start of each: 4 4 2 2 2 2 2 4 4 = 26 thread instructions;
** the branch: 1 visit, 1 divergence; blocks B0 [l0,l1], B1 [l2,l3], B2 [l4],
** B3 [l5..l7]: B3 is entered twice (by {1,3} through the jump, by {0,2}
** falling through from l4; SP continues inside it), the others once;
** maximum depth 1. */
Test(sem, measures_if_else)
{
	Run r = start(if_else);
	Machine *m = r.m;
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	cr_expect_eq(m->steps, 9);
	cr_expect_eq(m->thread_instructions, 26);
	cr_expect_eq(m->visits[1], 1);
	cr_expect_eq(m->divergences[1], 1);
	static const uint64_t blocks[4] = {1, 1, 1, 2};
	cr_assert_eq(m->cfg->nblocks, 4);
	for (int b = 0; b < 4; b++)
		cr_expect_eq(m->block_execs[b], blocks[b], "block %d: %llu", b, (unsigned long long)m->block_execs[b]);
	cr_expect_eq(m->max_depth, 1);
	cr_expect_eq(m->rule_count[RULE_IT], 4);
	cr_expect_eq(m->rule_count[RULE_BD], 1);
	cr_expect_eq(m->rule_count[RULE_JP], 1);
	cr_expect_eq(m->rule_count[RULE_SS], 1);
	cr_expect_eq(m->rule_count[RULE_SP], 1);
	cr_expect_eq(m->rule_count[RULE_SF], 1);
	finish(&r);
}

/* TC-SEM-4's loop, counted by hand:
**   l0, l1: 2 steps × 4 threads = 8
**   i = 0: l2 l3(BF) l4 l5 l6 with 4 threads: 5 steps, 20
**   i = 1: l2 l3(BD) with 4, l4 l5 l6 with 3: 5 steps, 17
**   i = 2: l2 l3 with 3, then 2: 5 steps, 12
**   i = 3: l2 l3 with 2, then 1: 5 steps, 7
**   i = 4: l2 l3(BT) with 1: 2 steps, 2
**   l7 SS with {3}: 1; l7 SP with {0,1,2}: 3; l8, l9 with 4: 8
** steps 2 + 20 + 2 + 4 = 28; thread instructions 8+20+17+12+7+2+12 = 78.
** Blocks B0 [l0,l1] 1; B1 [l2,l3] 5 (one per visit); B2 [l4..l6] 4;
** B3 [l7..l9] 2 (BT enters it, SS re-enters it at l_next = l7).
** Rules: IT 16, JP 4, BF 1, BD 3, BT 1, SS 1, SP 1, SF 1. */
Test(sem, measures_loop)
{
	Run r = start("l0: i = 0\n"
	              "l1: s = 0\n"
	              "l2: p = tid < i\n"
	              "l3: bnz p, l7\n"
	              "l4: s = s + 1\n"
	              "l5: i = i + 1\n"
	              "l6: jump l2\n"
	              "l7: sync\n"
	              "l8: mem[tid] = s\n"
	              "l9: stop\n");
	Machine *m = r.m;
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	cr_expect_eq(m->steps, 28);
	cr_expect_eq(m->thread_instructions, 78);
	cr_expect_eq(m->visits[3], 5);
	cr_expect_eq(m->divergences[3], 3);
	static const uint64_t blocks[4] = {1, 5, 4, 2};
	cr_assert_eq(m->cfg->nblocks, 4);
	for (int b = 0; b < 4; b++)
		cr_expect_eq(m->block_execs[b], blocks[b], "block %d: %llu", b, (unsigned long long)m->block_execs[b]);
	cr_expect_eq(m->max_depth, 1);
	static const uint64_t rules[RULE__COUNT] = {
		[RULE_IT] = 16, [RULE_JP] = 4, [RULE_BF] = 1, [RULE_BD] = 3,
		[RULE_BT] = 1,  [RULE_SS] = 1, [RULE_SP] = 1, [RULE_SF] = 1,
	};
	for (int k = 0; k < RULE__COUNT; k++)
		cr_expect_eq(m->rule_count[k], rules[k], "rule %s fired %llu times, want %llu",
		             sem_rule_name((Rule)k), (unsigned long long)m->rule_count[k],
		             (unsigned long long)rules[k]);
	finish(&r);
}

/* ipdom on if_else (trace in ipdom_if_else_fallthrough_first): steps IT BD
** IT JP IT NOP IT SF = 8 (pops are free); thread instructions 4 4 2 2 2 4 4 4
** = 26; depth 3 after the branch; each block entered once (B3 once: {0,2}
** and {1,3} meet in the waiting entry before it runs). */
Test(sem, measures_ipdom)
{
	SemOptions o = opts();
	o.model = &model_ipdom;
	Run r = start_with(if_else, &o);
	Machine *m = r.m;
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	cr_expect_eq(m->steps, 8);
	cr_expect_eq(m->thread_instructions, 26);
	cr_expect_eq(m->max_depth, 3);
	cr_expect_eq(m->visits[1], 1);
	cr_expect_eq(m->divergences[1], 1);
	cr_expect_eq(m->rule_count[RULE_NOP], 1);
	for (int b = 0; b < 4; b++)
		cr_expect_eq(m->block_execs[b], 1, "block %d: %llu", b, (unsigned long long)m->block_execs[b]);
	finish(&r);
}

/* =================================================================================
** sem_clone
** ================================================================================= */

/* A clone taken after the branch runs to the end on its own; the original
** is where it was, then reaches the same result. */
Test(sem, clone_independent)
{
	Run r = start(if_else);
	Machine *m = r.m;
	STEP(m, 0, RULE_IT);
	STEP(m, 1, RULE_BD);
	Machine *c = sem_clone(m);
	cr_expect_eq(sem_run(c, NULL, NULL), SEM_OK);
	EXPECT_MEM(c, 0, 20, 10, 20, 10);
	cr_expect_eq(c->steps, 9);
	/* the original is untouched */
	cr_expect_eq(m->status, SEM_RUNNING);
	AT(m, 2, TH(1) | TH(3), 1);
	NODE(m, 0, 1, NONE, 4, TH(0) | TH(2));
	cr_expect_eq(m->steps, 2);
	for (int t = 0; t < 4; t++)
		cr_expect(!has_var(m, "x", t));
	EXPECT_NO_CELL(m, 0);
	cr_expect_eq(m->visits[1], 1);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_MEM(m, 0, 20, 10, 20, 10);
	cr_expect_eq(m->steps, 9);
	sem_free(c);
	finish(&r);
}

/* Deep copy: big values, local memory, races, stack nodes and the error
** state survive freeing the original (ASan catches shared pointers). */
Test(sem, clone_deep)
{
	Run r = start("l0: a = 1 << 62\n"
	              "l1: x = a * 4\n"
	              "l2: local[0] = tid\n"
	              "l3: mem[0] = tid\n"
	              "l4: p = tid & 1\n"
	              "l5: bz p, l7\n"
	              "l6: y = x + 1\n"
	              "l7: sync\n"
	              "l8: z = local[0]\n"
	              "l9: stop\n");
	run_to(r.m, 6, 10);
	Machine *c = sem_clone(r.m);
	sem_free(r.m);
	r.m = NULL;
	cr_expect_eq(sem_run(c, NULL, NULL), SEM_OK);
	EXPECT_STR(c, "x", 0, "18446744073709551616");
	EXPECT_STR(c, "y", 1, "18446744073709551617");
	cr_expect(!has_var(c, "y", 0));
	EXPECT_VARS(c, "z", 0, 1, 2, 3);
	cr_assert_eq(c->nraces, 1);
	cr_expect_eq(c->races[0].values[3].i, 3);
	EXPECT_MEM(c, 0, 3);
	Machine *c2 = sem_clone(c);
	sem_free(c);
	EXPECT_VARS(c2, "z", 0, 1, 2, 3);
	cr_expect_eq(c2->races[0].threads[2], 2);
	sem_free(c2);
	unload(&r.pr);
}

/* The random lane order's state is part of the machine: a clone replays the
** same order as the original. A stuck state clones with its error. */
Test(sem, clone_random_and_error)
{
	SemOptions o = opts();
	o.lane_order = ORDER_RANDOM;
	o.seed = 42;
	Run r = start_with("mem[0] = tid\nmem[1] = tid\ny = 1 / 0\nstop\n", &o);
	Machine *c = sem_clone(r.m);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	cr_expect_eq(sem_run(c, NULL, NULL), SEM_STUCK);
	cr_assert(r.m->nraces == 2 && c->nraces == 2);
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 4; k++)
			cr_expect_eq(r.m->races[i].threads[k], c->races[i].threads[k]);
	Machine *c2 = sem_clone(c);
	sem_free(c);
	cr_expect_str_eq(c2->err.rule, "BP");
	cr_expect(c2->err.msg != NULL && strstr(c2->err.msg, "division") != NULL);
	cr_expect_eq(c2->err.nthreads, 1);
	sem_free(c2);
	finish(&r);
}

/* =================================================================================
** more corners: aliasing, sparse lanes, atomics on fresh cells, GSA stuck
** states, partial warps, addresses beyond int64
** ================================================================================= */

/* The destination is also an operand, for every kind of lane operation. */
Test(sem, alias_destination)
{
	Run r = start("x = tid - 2\n"
	              "x = -x\n"     /* 2 1 0 -1 */
	              "y = tid\n"
	              "y = ~y\n"     /* -1 -2 -3 -4 */
	              "z = tid\n"
	              "z = !z\n"     /* 1 0 0 0 */
	              "w = tid + 1\n"
	              "w = w << w\n" /* 1·2, 2·4, 3·8, 4·16 */
	              "v = tid + 1\n"
	              "v = 12 / v\n" /* 12 6 4 3 */
	              "u = tid + 1\n"
	              "u = u % 2\n"  /* 1 0 1 0 */
	              "s = tid\n"
	              "s = s * s\n"  /* 0 1 4 9 */
	              "t = tid\n"
	              "t = min(t, 2)\n"
	              "stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "x", 2, 1, 0, -1);
	EXPECT_VARS(r.m, "y", -1, -2, -3, -4);
	EXPECT_VARS(r.m, "z", 1, 0, 0, 0);
	EXPECT_VARS(r.m, "w", 2, 8, 24, 64);
	EXPECT_VARS(r.m, "v", 12, 6, 4, 3);
	EXPECT_VARS(r.m, "u", 1, 0, 1, 0);
	EXPECT_VARS(r.m, "s", 0, 1, 4, 9);
	EXPECT_VARS(r.m, "t", 0, 1, 2, 2);
	finish(&r);
}

/* x = x · x seven times in the active lanes {1,3} only: 11^128 and 13^128;
** the inactive lanes keep 10 and 12 (small). Then x - x = 0 everywhere. */
Test(sem, big_sparse_alias)
{
	Run r = start("l0: x = tid + 10\n"
	              "l1: p = tid & 1\n"
	              "l2: bz p, l10\n"
	              "x = x * x\n"
	              "x = x * x\n"
	              "x = x * x\n"
	              "x = x * x\n"
	              "x = x * x\n"
	              "x = x * x\n"
	              "x = x * x\n"
	              "l10: sync\n"
	              "y = x - x\n"
	              "stop\n");
	Machine *m = r.m;
	cr_assert_eq(pc_of(r.pr.p, "l10"), 10);
	run_to(m, 11, 20);
	EXPECT_STR(m, "x", 0, "10");
	EXPECT_STR(m, "x", 2, "12");
	cr_expect(!is_big(m, "x", 0) && !is_big(m, "x", 2));
	for (int t = 1; t < 4; t += 2) {
		mpz_t want;
		mpz_init(want);
		mpz_ui_pow_ui(want, (unsigned long)t + 10, 128);
		char *ws = mpz_get_str(NULL, 10, want);
		EXPECT_STR(m, "x", t, ws);
		free(ws);
		mpz_clear(want);
	}
	cr_expect_eq(m->nbig[vix(m, "x")], 2);
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_VARS(m, "y", 0, 0, 0, 0);
	finish(&r);
}

/* AT's premise Σ ⊢ c_x = c: an atomic on an uninitialised cell is stuck (MM)
** under .memory strict and starts from 0 under .memory zero. */
Test(sem, atomic_on_fresh_cell)
{
	Run r = start("l0: v = atominc(5)\nl1: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	EXPECT_ERR(r.m, SEM_STUCK, "MM", 0, 0);
	EXPECT_NO_CELL(r.m, 5);
	finish(&r);
	r = start(".memory zero\nv = atominc(5)\nw = atomadd(6, tid)\nstop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_VARS(r.m, "v", 1, 2, 3, 4);
	EXPECT_VARS(r.m, "w", 0, 0, 1, 3); /* old values: 0, 0+0, 0+0+1, 0+0+1+2 */
	EXPECT_MEM(r.m, 5, 4, 6);
	finish(&r);
}

/* γ copies what it selects, unassigned included (SSA's undef): every lane
** selects the operand its path did not assign, so x3 is unassigned in all
** four (consecutive lanes: the vectorised γ must see it too), and reading
** it is the error. */
Test(sem, gsa_gamma_of_an_unassigned_operand_is_unassigned)
{
	Run r = start("l0: p = tid & 1\n"
	              "l1: bz p, l4\n"
	              "l2: x1 = 10\n"
	              "l3: jump l5\n"
	              "l4: x2 = 20\n"
	              "l5: x3 = gamma(p, x2, x1)\n"
	              "l6: y = x3 + 1\n"
	              "l7: stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	cr_expect_eq(r.m->err.pc, 6);
	cr_expect(strstr(r.m->err.msg, "'x3'") != NULL, "%s", r.m->err.msg);
	for (int t = 0; t < 4; t++)
		cr_expect(!has_var(r.m, "x3", t), "thread %d", t);
	finish(&r);
}

/* A GSA group that fails at an implicit sync (γ reads its predicate q,
** which {0,2} never assigned: MV, thread 0) leaves the state as it was
** before SP: Θ = {0,2}, the node still on the stack, pc at the γ block. */
Test(sem, gsa_stuck_keeps_state)
{
	Run r = start("l0: p = tid & 1\n"
	              "l1: bz p, l4\n"
	              "l2: q = 1\n"
	              "l3: jump l5\n"
	              "l4: x2 = 20\n"
	              "l5: x3 = gamma(q, p, x2)\n"
	              "l6: stop\n");
	Machine *m = r.m;
	run_to(m, 5, 10);
	STEP(m, 5, RULE_SS);
	STEP(m, 4, RULE_IT);
	AT(m, 5, TH(0) | TH(2), 1);
	Snap s = snap_take(m);
	stuck_step(m, 0);
	EXPECT_ERR(m, SEM_STUCK, "MV", 5, 0);
	cr_expect(strstr(m->err.msg, "'q'") != NULL, "%s", m->err.msg);
	EXPECT_SAME(&s, m);
	NODE(m, 0, 1, TH(1) | TH(3), 4, NONE);
	for (int t = 0; t < 4; t++)
		cr_expect(!has_var(m, "x3", t));
	snap_free(&s);
	finish(&r);
}

/* Three threads in warps of two: the last warp has one lane. */
Test(sem, partial_last_warp)
{
	Run r = start(".threads 3\n"
	              ".warpsize 2\n"
	              "a = laneid\n"
	              "b = warpid\n"
	              "c = nwarps\n"
	              "barrier\n"
	              "mem[tid] = a\n"
	              "stop\n");
	Machine *m = r.m;
	cr_expect_eq(m->nwarps, 2);
	cr_expect_eq(m->warps[1].base, 2);
	cr_expect_eq(m->warps[1].size, 1);
	cr_expect_eq(m->warps[1].active[0], TH(0));
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_OK);
	EXPECT_VARS(m, "a", 0, 1, 0);
	EXPECT_VARS(m, "b", 0, 0, 1);
	EXPECT_VARS(m, "c", 2, 2, 2);
	EXPECT_MEM(m, 0, 0, 1, 0);
	finish(&r);
}

/* The divergent barrier under the other models: ipdom deadlocks at l3 like
** sync ({0,2} wait in the entry below); mimd completes: Σ = 2 1 2 1. */
Test(sem, barrier_divergent_models)
{
	static const char src[] = "l0: p = tid % 2\n"
	                          "l1: bz p, l5\n"
	                          "l2: mem[tid] = 1\n"
	                          "l3: barrier\n"
	                          "l4: jump l7\n"
	                          "l5: mem[tid] = 2\n"
	                          "l6: barrier\n"
	                          "l7: sync\n"
	                          "l8: stop\n";
	SemOptions o = opts();
	o.model = &model_ipdom;
	Run r = start_with(src, &o);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_DEADLOCK);
	EXPECT_ERR(r.m, SEM_DEADLOCK, "BAR", 3, 1, 3);
	finish(&r);
	o.model = &model_mimd;
	r = start_with(src, &o);
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_OK);
	EXPECT_MEM(r.m, 0, 2, 1, 2, 1);
	finish(&r);
}

/* A clone of an ipdom machine owns its SIMT stack. */
Test(sem, clone_ipdom)
{
	SemOptions o = opts();
	o.model = &model_ipdom;
	Run r = start_with(if_else, &o);
	STEP(r.m, 0, RULE_IT);
	STEP(r.m, 1, RULE_BD);
	Machine *c = sem_clone(r.m);
	STEP(r.m, 2, RULE_IT);
	STEP(r.m, 3, RULE_JP); /* pops an entry of the original only */
	cr_expect_eq(c->warps[0].ctl.n, 3);
	sem_free(r.m);
	r.m = NULL;
	ENT(c, 0, 2, 5, TH(1) | TH(3));
	ENT(c, 2, 5, -1, ALL4);
	cr_expect_eq(sem_run(c, NULL, NULL), SEM_OK);
	EXPECT_MEM(c, 0, 20, 10, 20, 10);
	cr_expect_eq(c->steps, 8);
	sem_free(c);
	unload(&r.pr);
}

/* Σ is a partial map ℕ → ℤ (semantics.md §1): any natural number is an
** address, and only a negative one is stuck (rules LD/ST/AT). */
/* Addresses are naturals that fit int64 (docs/semantics.md, "Data"): a
** larger one is an error of the same rule as a negative one, and the
** stuck store changes nothing. */
Test(sem, address_beyond_int64)
{
	Run r = start("a = 1 << 64\n"
	              "mem[a] = 5\n"
	              "x = mem[a]\n"
	              "stop\n");
	cr_expect_eq(sem_run(r.m, NULL, NULL), SEM_STUCK);
	cr_expect_str_eq(r.m->err.rule, "ST");
	cr_expect(strstr(r.m->err.msg, "too large") != NULL, "%s", r.m->err.msg);
	cr_expect_eq(r.m->err.pc, 1);
	cr_expect_eq(r.m->shared.npages, 0);
	finish(&r);
}

/* ---- the two-pass store (data.c, fast_store) ------------------------------------
** A store whose lanes' addresses only grow or only shrink, onto pages that
** exist, runs in two passes; the random lane order always takes the general
** rule. Both must leave the same Σ, the same count of initialised cells, and
** stop at --max-cells at the same step: cells fresh and not (a second store
** over the first, a page with a value beyond int64), addresses up and down,
** a uniform address and lanes sharing cells with one value (the general
** rule), a page missing. Addresses in no order (fast_scatter_store): onto
** fresh cells and set ones, across pages, onto a big value, two lanes on
** one cell found midway (the general rule, its race). */
static void mem_line(void *ctx, int64_t addr, Num v)
{
	char *s = num_str(v);
	buf_printf(ctx, "%lld=%s ", (long long)addr, s);
	free(s);
}

static char *store_outcome(const char *src, LaneOrder order, uint64_t max_cells)
{
	SemOptions o = opts();
	o.lane_order = order;
	o.seed = 7;
	o.max_cells = max_cells;
	Run r = start_with(src, &o);
	sem_run(r.m, NULL, NULL);
	Buf b = {0};
	buf_printf(&b, "%s cells %llu steps %llu races %d: ", sem_status_name(r.m->status),
	           (unsigned long long)r.m->cells, (unsigned long long)r.m->steps, r.m->nraces);
	mem_each(&r.m->shared, mem_line, &b);
	if (r.m->status != SEM_OK)
		buf_printf(&b, "| %s at pc %d", r.m->err.rule, r.m->err.pc);
	finish(&r);
	return buf_steal(&b);
}

/* Arithmetic in a warp of 1024 with some lanes inactive runs over all its
** lanes and commits the active ones by mask (data.c, span_arith): it leaves
** what warps of one thread leave. Active lanes of a third, of two thirds,
** of all but one; an overflow in active lanes (the exact path), and in
** inactive lanes only (spurious: the lanes' list); unary operators, copies,
** a first assignment in some lanes. */
Test(sem, arithmetic_over_a_partly_active_warp_leaves_what_warps_of_one_leave)
{
	const char *body =
		".threads 1024\n"
		" x = tid * 3\n"
		" h = tid % 2\n"
		" h = h * 9223372036854775000\n" /* odd lanes near the top of int64 */
		" p = tid % 3\n"
		" bz p, third\n"                  /* two thirds go on */
		" y = x + 5\n z = -x\n c = x\n n = !p\n"
		" e = tid & 1\n"
		" bz e, even\n"                   /* the odd ones: h + 1000 overflows */
		" o = h + 1000\n"
		"even: sync\n"
		" q = 1 - e\n"
		" bz q, odd\n"                   /* the even ones: their h is 0, the odd lanes' not */
		" s = h + 1000\n"
		"odd: sync\n"
		"third: sync\n"
		" r = tid != 1023\n"
		" bz r, last\n"
		" x = x * x\n y = ~x\n"
		"last: sync\n"
		" stop\n";
	char *text[2];
	for (int i = 0; i < 2; i++) {
		char src[1024];
		snprintf(src, sizeof src, ".warpsize %d\n%s", i ? 1 : 1024, body);
		Run r = start(src);
		sem_run(r.m, NULL, NULL);
		cr_assert_eq(r.m->status, SEM_OK, "warp size %d: %s", i ? 1 : 1024, r.m->err.msg);
		text[i] = values_text(r.m, true, false);
		finish(&r);
	}
	cr_expect_str_eq(text[0], text[1]);
	free(text[0]);
	free(text[1]);
}

/* Loads by runs of consecutive cells (data.c, fast_load): across pages,
** reaching cells never written (0 under .memory zero, else MM names the
** first such thread), and around a page that holds a big value. */
Test(sem, loads_by_runs_of_cells_read_every_lane)
{
	const char *body = " x = tid * 3\n mem[tid] = x\n a = tid + 5\n v = mem[a]\n b = 599 - tid\n w = mem[b]\n stop\n";
	char src[256];
	snprintf(src, sizeof src, ".threads 600\n.memory zero\n%s", body);
	Run r = start(src);
	sem_run(r.m, NULL, NULL);
	cr_assert_eq(r.m->status, SEM_OK);
	for (int32_t t = 0; t < 600; t++) {
		cr_expect_eq(var(r.m, "v", t), t + 5 < 600 ? 3 * (t + 5) : 0, "thread %d", t);
		cr_expect_eq(var(r.m, "w", t), 3 * (599 - t), "thread %d", t);
	}
	finish(&r);
	snprintf(src, sizeof src, ".threads 600\n%s", body);
	r = start(src);
	sem_run(r.m, NULL, NULL);
	cr_expect_eq(r.m->status, SEM_STUCK);
	cr_expect_str_eq(r.m->err.rule, "MM");
	cr_expect(strstr(r.m->err.msg, "cell 600 is read in thread 595") != NULL, "%s", r.m->err.msg);
	finish(&r);
	r = start(".threads 300\n mem[tid] = tid\n mem[7] = 99999999999999999999\n a = tid + 1\n a = a % 300\n"
	          " v = mem[a]\n stop\n");
	sem_run(r.m, NULL, NULL);
	cr_assert_eq(r.m->status, SEM_OK);
	for (int32_t t = 0; t < 300; t++)
		if (t != 6)
			cr_expect_eq(var(r.m, "v", t), (t + 1) % 300, "thread %d", t);
	Num big;
	cr_assert(sem_get(r.m, vix(r.m, "v"), 6, &big));
	char *text = num_str(big);
	cr_expect_str_eq(text, "99999999999999999999");
	free(text);
	finish(&r);
}

/* Memory's page cache (mem.c: direct-mapped by key, made at MEM_CACHE_AT
** pages): pages whose keys share a slot, looked up in every order, absent
** ones, a clone (which starts without one), and the accounting back to 0. */
Test(sem, the_page_cache_finds_every_page)
{
	Mem mem = {.last = -1}, copy;
	uint64_t big = 0, bytes = 0;
	const int64_t n = 1000; /* keys 3k: slot 3k mod 256, four or so pages a slot */
	for (int64_t k = 0; k < n; k++)
		mem_put(&mem, 3 * k * MEM_PAGE_SIZE + k % 7, NUM_I(k), &big, &bytes);
	cr_assert(mem.cache != NULL);
	for (int round = 0; round < 2; round++)
		for (int64_t i = 0; i < n; i++) {
			int64_t k = round ? n - 1 - i : (i * 389) % n; /* down, then scattered */
			Num v;
			cr_assert(mem_get(&mem, 3 * k * MEM_PAGE_SIZE + k % 7, &v), "page %lld", (long long)k);
			cr_expect_eq(v.i, k);
			cr_expect(!mem_get(&mem, 3 * k * MEM_PAGE_SIZE + k % 7 + 1, &v));
			cr_expect(!mem_get(&mem, (3 * k + 1) * MEM_PAGE_SIZE, &v)); /* a page never made */
		}
	mem_clone(&copy, &mem);
	cr_expect(copy.cache == NULL);
	for (int64_t k = 0; k < n; k += 7) {
		Num v;
		cr_assert(mem_get(&copy, 3 * k * MEM_PAGE_SIZE + k % 7, &v));
		cr_expect_eq(v.i, k);
		mem_put(&copy, 3 * k * MEM_PAGE_SIZE + k % 7, NUM_I(-k), &big, &bytes);
	}
	for (int64_t k = 0; k < n; k += 7) {
		Num v;
		cr_assert(mem_get(&mem, 3 * k * MEM_PAGE_SIZE + k % 7, &v));
		cr_expect_eq(v.i, k, "the clone's store reached the original");
	}
	mem_free(&copy);
	mem_clear(&mem, &big, &bytes);
	cr_expect_eq(bytes, 0);
}

/* Dense pages (mem_dense: every cell initialised, no value beyond int64
** anywhere): a page is dense once its last cell is set, whether its slot
** was filled before or after; never while a cell is missing, nor while any
** page holds a big value. */
Test(sem, a_page_is_dense_when_every_cell_is_set)
{
	Mem mem = {.last = -1};
	uint64_t big = 0, bytes = 0;
	for (int64_t k = 0; k < 6; k++) /* six pages: a cache */
		mem_put(&mem, k * MEM_PAGE_SIZE, NUM_I(k), &big, &bytes);
	cr_assert(mem.cache != NULL);
	for (int64_t a = 1; a < MEM_PAGE_SIZE; a++) {
		cr_expect(mem_dense(&mem, 0) == NULL, "cell %lld missing", (long long)a);
		mem_put(&mem, a, NUM_I(a), &big, &bytes);
	}
	cr_expect(mem_dense(&mem, 0) == mem_find(&mem, 0));
	cr_expect(mem_dense(&mem, 1) == NULL);
	cr_expect(mem_dense(&mem, 7) == NULL, "a page that does not exist");
	for (int64_t a = 2 * MEM_PAGE_SIZE; a < 3 * MEM_PAGE_SIZE; a++)
		mem_put(&mem, a, NUM_I(a), &big, &bytes);
	cr_expect(mem_dense(&mem, 2) != NULL);
	mpz_t z;
	mpz_init_set_str(z, "99999999999999999999", 10);
	Num v = num_copy((Num){0, z});
	mpz_clear(z);
	mem_put(&mem, 5 * MEM_PAGE_SIZE + 3, v, &big, &bytes);
	cr_expect(mem_dense(&mem, 0) == NULL, "a big value somewhere");
	mem_clear(&mem, &big, &bytes);
	cr_expect_eq(bytes, 0);
	cr_expect_eq(big, 0);
}

/* Lane 0 stores to cell 10, lanes 1..5 to cells 6..10: a descent, then a
** run of consecutive cells back onto lane 0's. The addresses are not
** monotonic, so the general rule stores them: in ascending lane order the
** highest tid's value wins, and the race on cell 10 is recorded. */
Test(sem, a_run_back_onto_an_earlier_lanes_cell_is_a_race)
{
	Run r = start(".threads 6\n.memory zero\n mem[tid] = 0\n mem[10] = 0\n z = tid == 0\n z = z * 5\n"
	              " a = tid + 5\n a = a + z\n mem[a] = tid\n stop\n");
	sem_run(r.m, NULL, NULL);
	cr_assert_eq(r.m->status, SEM_OK);
	cr_expect_eq(r.m->nraces, 1);
	cr_expect_eq(r.m->races[0].cell, 10);
	Num v;
	cr_assert(mem_get(&r.m->shared, 10, &v));
	cr_expect_eq(v.i, 5);
	finish(&r);
}

Test(sem, the_two_pass_store_leaves_what_the_general_rule_leaves)
{
	static const char *const progs[] = {
		".threads 8\n.memory zero\n mem[tid] = tid\n a = 20 - tid\n mem[a] = 7\n mem[tid] = a\n stop\n",
		".threads 8\n.data 0: 5 5 5 5\n a = tid * 3\n mem[a] = tid\n b = 300 - a\n mem[b] = 1\n mem[b] = b\n stop\n",
		".threads 8\n.data 0: 1 2\n mem[1] = 99999999999999999999\n mem[tid] = tid\n stop\n",
		".threads 8\n.memory zero\n mem[5] = 3\n x = tid % 3\n mem[x] = x\n stop\n", /* no race */
		".threads 70\n a = tid * 7\n mem[a] = tid\n mem[a] = a\n stop\n",
		/* runs of consecutive cells: across pages, onto cells some of which
		** hold values, one holding a big value, a run then a descent */
		".threads 600\n.data 250: 1 2 3\n mem[tid] = tid\n a = tid + 100\n mem[a] = 1\n mem[a] = a\n stop\n",
		".threads 300\n.memory zero\n mem[tid] = 0\n mem[200] = 99999999999999999999\n mem[tid] = tid\n stop\n",
		".threads 8\n.memory zero\n mem[tid] = 0\n mem[60] = 0\n p = tid < 4\n a = p * 50\n b = a + tid\n mem[b] = 1\n"
		" c = 7 - tid\n mem[c] = c\n stop\n",
		".threads 520\n.data 0: 1\n.data 300: 1\n.data 700: 1\n mem[tid] = 0\n a = tid * 2\n mem[a] = tid\n"
		" b = a + 1\n mem[b] = b\n stop\n",
		/* runs of consecutive cells by lanes that are not consecutive (the
		** odd ones), loaded and stored */
		".threads 600\n.memory zero\n mem[tid] = 0\n p = tid % 2\n bz p, skip\n a = tid / 2\n b = a + 1\n"
		" v = mem[b]\n v = v + tid\n mem[a] = v\nskip: sync\n stop\n",
		/* addresses in no order: a permutation of set cells, then of cells
		** on a page made by the general rule, stored over again */
		".threads 64\n.memory zero\n mem[tid] = 0\n a = tid * 37\n a = a % 64\n mem[a] = tid\n b = tid * 5\n"
		" b = b % 64\n b = b + 300\n mem[b] = b\n c = 363 - tid\n c = c * 3\n c = c % 64\n c = c + 300\n"
		" mem[c] = tid\n stop\n",
		/* two lanes on one cell after twelve that are not (a race) */
		".threads 16\n.memory zero\n mem[tid] = 0\n a = tid * 7\n a = a % 13\n mem[a] = tid\n mem[a] = 1\n"
		" a = tid * 3\n a = a % 16\n mem[a] = tid\n stop\n",
		/* onto a big value */
		".threads 16\n.memory zero\n mem[tid] = 0\n mem[5] = 99999999999999999999\n a = tid * 7\n a = a % 16\n"
		" mem[a] = tid\n stop\n",
		/* on a page whose cells are all set (one pass, data.c, from the
		** last lane; four pages: a page cache): a permutation; two lanes on one cell after 251 were
		** written; a negative address in lane 100 after 155 were written (the
		** general rule stores nothing: their old values are back) */
		".threads 256\n.memory zero\n.data 1000: 1\n.data 2000: 1\n.data 3000: 1\n mem[tid] = 1\n a = tid * 37\n a = a % 256\n mem[a] = tid\n stop\n",
		".threads 256\n.memory zero\n.data 1000: 1\n.data 2000: 1\n.data 3000: 1\n mem[tid] = 1\n a = tid * 7\n a = a % 251\n mem[a] = tid\n mem[a] = 1\n stop\n",
		".threads 256\n.memory zero\n.data 1000: 1\n.data 2000: 1\n.data 3000: 1\n mem[tid] = 1\n z = tid == 100\n z = z * 1000\n a = tid * 37\n a = a % 256\n"
		" a = a - z\n mem[a] = tid\n stop\n",
		/* fresh cells across two pages that exist (--max-cells) */
		".threads 32\n.memory zero\n mem[0] = 1\n mem[300] = 1\n a = tid * 11\n a = a % 64\n b = tid % 2\n"
		" b = b * 256\n a = a + b\n mem[a] = tid\n stop\n",
	};
	for (size_t i = 0; i < sizeof progs / sizeof *progs; i++)
		for (uint64_t cells = 0; cells <= 12; cells += 6) {
			char *fast = store_outcome(progs[i], ORDER_ASCENDING, cells);
			char *down = store_outcome(progs[i], ORDER_DESCENDING, cells);
			char *general = store_outcome(progs[i], ORDER_RANDOM, cells);
			cr_expect_str_eq(fast, general, "%s (max cells %llu)", progs[i], (unsigned long long)cells);
			cr_expect_str_eq(down, general, "%s (max cells %llu)", progs[i], (unsigned long long)cells);
			free(fast);
			free(down);
			free(general);
		}
}
