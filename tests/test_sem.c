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

#include "sem.h"

#define TH(t) (1ull << (t))
#define ALL4 0xFull
#define NONE 0ull

/* ---- loading and running ------------------------------------------------------ */

typedef struct Prog {
	Program *p;
	Diags d;
	char *src;
} Prog;

static Prog load(const char *src)
{
	Prog r;
	size_t n = strlen(src);
	r.src = xstrdup(src);
	diag_init(&r.d, "t.simd", r.src, n);
	r.p = ir_load("t.simd", r.src, n, &r.d);
	if (r.d.nerrors > 0 || !r.p->cfg) {
		Buf b = {0};
		diag_render(&r.d, &b);
		cr_assert_fail("program does not load:\n%s\n%s", src, buf_str(&b));
	}
	return r;
}

static void unload(Prog *r)
{
	/* ir_free does not free the Cfg that ir_load attached (reported); free
	** it here and clear the pointer so that a fixed ir_free stays correct. */
	cfg_free(r->p->cfg);
	r->p->cfg = NULL;
	ir_free(r->p);
	diag_free(&r->d);
	free(r->src);
}

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

/* Node k from the top of warp w's Π. */
static void expect_node(const Machine *m, int w, int k, int32_t lid, uint64_t done, int32_t lnext,
                        uint64_t todo, int line)
{
	const Warp *wp = &m->warps[w];
	int32_t i = wp->nnodes - 1 - k;
	cr_assert(i >= 0, "line %d: no node %d from the top (depth %d)", line, k, wp->nnodes);
	uint64_t d = wp->nodebits[(size_t)(2 * i) * (size_t)wp->nw];
	uint64_t t = wp->nodebits[(size_t)(2 * i + 1) * (size_t)wp->nw];
	cr_expect(wp->nodes[i].lid == lid && d == done && wp->nodes[i].lnext == lnext && t == todo,
	          "line %d: node %d = (%d, %#llx, %d, %#llx), want (%d, %#llx, %d, %#llx)", line, k,
	          wp->nodes[i].lid, (unsigned long long)d, wp->nodes[i].lnext, (unsigned long long)t, lid,
	          (unsigned long long)done, lnext, (unsigned long long)todo);
}
#define NODE(m, k, lid, done, lnext, todo) expect_node(m, 0, k, lid, done, lnext, todo, __LINE__)

/* ipdom entry k from the top: (pc, rpc, mask). */
static void expect_ent(const Machine *m, int k, int32_t pc, int32_t rpc, uint64_t mask, int line)
{
	const Warp *wp = &m->warps[0];
	int32_t i = wp->nents - 1 - k;
	cr_assert(i >= 0, "line %d: no entry %d from the top (depth %d)", line, k, wp->nents);
	uint64_t b = wp->entbits[(size_t)i * (size_t)wp->nw];
	cr_expect(wp->ents[i].pc == pc && wp->ents[i].rpc == rpc && b == mask,
	          "line %d: entry %d = (%d, %d, %#llx), want (%d, %d, %#llx)", line, k, wp->ents[i].pc,
	          wp->ents[i].rpc, (unsigned long long)b, pc, rpc, (unsigned long long)mask);
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

typedef struct Snap {
	int32_t pc[4], nnodes[4], nents[4];
	uint64_t active[4], live[4];
	SyncNode nodes[4][16];
	uint64_t nodebits[4][32];
	IpdomEntry ents[4][16];
	uint64_t entbits[4][16];
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
		cr_assert(wp->nw == 1 && wp->nnodes <= 16 && wp->nents <= 16);
		s.pc[w] = wp->pc;
		s.nnodes[w] = wp->nnodes;
		s.nents[w] = wp->nents;
		s.active[w] = wp->active[0];
		s.live[w] = wp->live[0];
		if (wp->nnodes) {
			memcpy(s.nodes[w], wp->nodes, (size_t)wp->nnodes * sizeof *wp->nodes);
			memcpy(s.nodebits[w], wp->nodebits, (size_t)wp->nnodes * 2 * sizeof(uint64_t));
		}
		if (wp->nents) {
			memcpy(s.ents[w], wp->ents, (size_t)wp->nents * sizeof *wp->ents);
			memcpy(s.entbits[w], wp->entbits, (size_t)wp->nents * sizeof(uint64_t));
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
		cr_expect_eq(wp->nnodes, s->nnodes[w], "line %d: warp %d Π depth changed", line, w);
		cr_expect_eq(wp->nents, s->nents[w], "line %d: warp %d SIMT stack changed", line, w);
		for (int k = 0; k < wp->nnodes && k < s->nnodes[w]; k++) {
			cr_expect(wp->nodes[k].lid == s->nodes[w][k].lid && wp->nodes[k].lnext == s->nodes[w][k].lnext,
			          "line %d: node %d changed", line, k);
			cr_expect(wp->nodebits[2 * k] == s->nodebits[w][2 * k] &&
			              wp->nodebits[2 * k + 1] == s->nodebits[w][2 * k + 1],
			          "line %d: node %d sets changed", line, k);
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
