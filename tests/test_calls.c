/*
** test_calls.c — call and ret (musimd-lang(7), Functions): the static
** checks (recursion, unknown labels, ret in main, shared code), every
** model running calls (a divergent return included), the return stacks in
** the explorer's state, and the analyses of a program with calls (inlined).
*/
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "gsa.h"
#include "model.h"
#include "testlib.h"
#include "xform/xform.h"

/* The diagnostics of loading src, rendered; *nerrors their errors. */
static char *diagnose(const char *src, int *nerrors)
{
	size_t n = strlen(src);
	Diags d;
	diag_init(&d, "t.simd", src, n);
	Program *p = ir_load("t.simd", src, n, &d);
	Buf b = {0};
	diag_render(&d, &b);
	*nerrors = d.nerrors;
	ir_free(p);
	diag_free(&d);
	return buf_steal(&b);
}

static void expect_error(const char *src, const char *want)
{
	int n;
	char *out = diagnose(src, &n);
	cr_expect_gt(n, 0, "no error for:\n%s", src);
	cr_expect(strstr(out, want) != NULL, "for:\n%s\ngot:\n%s\nwant a line with: %s", src, out, want);
	free(out);
}

Test(calls, recursion_names_the_cycle_at_the_call)
{
	expect_error("    call f\n    stop\nf:  x = 1\n    call f\n    ret\n",
	             "t.simd:4:10: error: recursive call: f -> f (a function may not call itself");
	expect_error("    call f\n    stop\nf:  call g\n    ret\ng:  call f\n    ret\n",
	             "t.simd:5:10: error: recursive calls: f -> g -> f");
	expect_error("    call f\n    stop\nf:  call g\n    ret\ng:  call f\n    ret\n",
	             "t.simd:3:5: note: the call that enters the cycle's next function");
}

Test(calls, an_unknown_label_gets_a_did_you_mean)
{
	expect_error("    call fo\n    stop\nfoo: ret\n", "t.simd:1:10: error: undefined label 'fo'; did you mean 'foo'?");
}

Test(calls, ret_in_main_is_a_static_error)
{
	expect_error("    x = 1\n    ret\n", "t.simd:2:5: error: ret outside a function");
	/* reachable from the start through a branch, not only on the main path */
	expect_error("    bz tid, r\n    stop\nr:  ret\n", "t.simd:3:5: error: ret outside a function");
}

Test(calls, functions_do_not_share_code)
{
	expect_error("    call f\n    jump m\nf:  x = 1\nm:  stop\n    ret\n",
	             "error: this goes from the code of function 'f' into the code of main");
	expect_error("    call g\n    call f\n    stop\nf:  x = 1\ng:  y = 2\n    ret\n",
	             "function 'g' starts inside function 'f'");
	expect_error("l:  call l\n    stop\n", "call of the kernel's first instruction");
}

Test(calls, no_calls_in_gsa_programs)
{
	expect_error("    x = 1\n    call f\n    stop\nf:  y = phi(x)\n    ret\n",
	             "call in a program with GSA instructions");
}

Test(calls, the_call_graph_bounds_the_return_stacks)
{
	Prog t = load("    call f\n    call g\n    stop\nf:  call g\n    ret\ng:  call h\n    ret\nh:  ret\n");
	cr_expect_eq(t.g->nfuncs, 4);
	cr_expect_eq(t.g->max_call_depth, 3); /* main -> f -> g -> h */
	cr_expect_eq(cfg_func_at(t.g, 3), 1);
	/* a ret ends a block going to the exit; a call falls through to its return point */
	int32_t b = t.g->block_of[0];
	cr_expect_eq(t.g->blocks[b].nsucc, 1);
	cr_expect_eq(t.g->blocks[b].succ[0], t.g->block_of[1]);
	cr_expect_eq(t.g->blocks[b].callee, t.g->block_of[3]);
	cr_expect(t.g->blocks[t.g->block_of[3]].reachable);
	unload(&t);
}

/* ---- every model ------------------------------------------------------------------- */

/* Figure 3.1 with a sync in F (digest T4): the two threads meet in F under
** sync and the per-thread-pc models and return to different call sites. */
#define BOTH_CALL                                                                                          \
	".threads 4\n"                                                                                         \
	"    p = tid % 2\n"                                                                                    \
	"    bz p, else\n"                                                                                     \
	"    x = 1\n"                                                                                          \
	"    call F\n"                                                                                         \
	"    x = x + 10\n"                                                                                     \
	"    jump join\n"                                                                                      \
	"else: x = 2\n"                                                                                        \
	"    call F\n"                                                                                         \
	"    x = x + 20\n"                                                                                     \
	"join: sync\n"                                                                                         \
	"    s = x + y\n"                                                                                      \
	"    mem[tid] = s\n"                                                                                   \
	"    stop\n"                                                                                           \
	"F:  y = tid * 100\n"                                                                                  \
	"    sync\n"                                                                                           \
	"    y = y + x\n"                                                                                      \
	"    ret\n"

static Machine *run_under(const Program *p, const Model *md)
{
	SemOptions so = {0};
	so.model = md;
	so.max_steps = 10000;
	Diags d;
	diag_init(&d, "t.simd", p->src, p->srclen);
	Machine *m = sem_new(p, &so, &d);
	cr_assert_not_null(m);
	diag_free(&d);
	sem_run(m, NULL, NULL);
	return m;
}

Test(calls, every_model_runs_calls_and_a_divergent_return, .init = watchdog_120)
{
	Prog t = load(BOTH_CALL);
	static const int64_t want[4] = {0 + 2 + 2 + 20, 100 + 1 + 1 + 10, 200 + 2 + 2 + 20, 300 + 1 + 1 + 10};
	const Model *all[64];
	int n = 0;
	for (int i = 0; models[i]; i++)
		all[n++] = models[i];
	all[n++] = &model_tf_sandy;
	for (int32_t i = 0; i < its_policy_count() && n < 64; i += 7)
		all[n++] = its_policy_model(i);
	bool split[64] = {0};
	for (int k = 0; k < n; k++) {
		Machine *m = run_under(t.p, all[k]);
		cr_expect_eq(m->status, SEM_OK, "%s: %s", all[k]->name, m->err.msg ? m->err.msg : "");
		for (int64_t c = 0; c < 4 && m->status == SEM_OK; c++) {
			Num v;
			cr_assert(mem_get(&m->shared, c, &v), "%s: mem[%lld]", all[k]->name, (long long)c);
			cr_expect_eq(v.i, want[c], "%s: mem[%lld] = %lld", all[k]->name, (long long)c, (long long)v.i);
		}
		for (int32_t th = 0; th < 4; th++)
			cr_expect_eq(sem_ret_depth(m, th), 0, "%s: thread %d's return stack", all[k]->name, th);
		split[k] = m->rule_count[RULE_RS] > 0;
		sem_free(m);
	}
	/* the sync model merges the calls at F's sync, its:minpc by their pcs */
	cr_expect(split[0], "sync: no divergent return");
	for (int k = 0; k < n; k++)
		if (!strcmp(all[k]->name, "its:minpc"))
			cr_expect(split[k], "its:minpc: no divergent return");
	unload(&t);
}

/* ipdom: a branch whose post-dominator is the function's exit reconverges
** at the return point (seed 000 §5.1), not at the program's end. */
Test(calls, ipdom_reconverges_a_function_branch_at_the_return_point)
{
	Prog t = load(".threads 2\n"
	              "    call F\n"
	              "    z = 1\n"
	              "    stop\n"
	              "F:  bz tid, r\n"
	              "    y = 1\n"
	              "    ret\n"
	              "r:  y = 2\n"
	              "    ret\n");
	Machine *m = run_under(t.p, &model_ipdom);
	cr_expect_eq(m->status, SEM_OK);
	/* z = 1 and stop run once, with both threads */
	cr_expect_eq(m->thread_instructions, 2 + 2 + 1 + 1 + 1 + 1 + 2 + 2);
	cr_expect_eq(m->steps, 1 + 1 + 2 + 2 + 1 + 1);
	sem_free(m);
	unload(&t);
}

/* The return stacks are part of the state (explore.md §3): two states that
** differ only there pack differently, and unpacking restores them. */
Test(calls, return_stacks_are_part_of_the_packed_state)
{
	Prog t = load(".threads 2\n    call F\n    stop\nF:  call G\n    ret\nG:  x = 1\n    ret\n");
	Machine *m = run_under(t.p, &model_sync);
	cr_expect_eq(m->status, SEM_OK);
	sem_free(m);
	SemOptions so = {0};
	Diags d;
	diag_init(&d, "t.simd", t.p->src, t.p->srclen);
	Machine *a = sem_new(t.p, &so, &d);
	cr_assert_not_null(a);
	cr_expect_eq(a->ret_cap, 2);
	sem_step(a, 0, NULL); /* call F */
	sem_step(a, 0, NULL); /* call G */
	cr_expect_eq(sem_ret_depth(a, 1), 2);
	cr_expect_eq(sem_ret_pc(a, 1, 0), 1);
	cr_expect_eq(sem_ret_pc(a, 1, 1), 3);
	Machine *b = sem_clone(a);
	b->ret_stack[1 * b->ret_cap + 1] = 1; /* thread 1 would return elsewhere */
	Buf pa = {0}, pb = {0};
	sem_pack(a, &pa);
	sem_pack(b, &pb);
	cr_expect(pa.len != pb.len || memcmp(pa.s, pb.s, pa.len), "the return stacks are not packed");
	cr_expect(sem_unpack(b, pa.s, pa.len));
	cr_expect_eq(sem_ret_pc(b, 1, 1), 3);
	Buf t1 = {0};
	sem_print_ret_stack(&t1, b, 1);
	cr_expect_str_eq(buf_str(&t1), "[@3, @5]");
	buf_free(&t1);
	buf_free(&pa);
	buf_free(&pb);
	sem_free(a);
	sem_free(b);
	diag_free(&d);
	unload(&t);
}

/* The analyses read the program with its calls inlined: one CFG without
** calls, each instruction from the one it copies; the GSA form builds and
** the verdicts are per call site. */
Test(calls, the_analyses_read_the_calls_inlined)
{
	Prog t = load(BOTH_CALL);
	Diags d;
	diag_init(&d, "t.simd", t.p->src, t.p->srclen);
	int32_t n = 0, *origin = NULL;
	Program *q = xform_inline(t.p, &n, &origin, &d);
	cr_assert_not_null(q);
	cr_expect_eq(d.nerrors, 0);
	cr_expect(!q->has_calls);
	cr_expect_eq(n, q->nins);
	/* main's 13 instructions but its 2 calls, F's 4 twice, its rets jumps */
	cr_expect_eq(q->nins, 13 - 2 + 2 * 4);
	int copies = 0;
	for (int32_t pc = 0; pc < q->nins; pc++) {
		cr_expect(q->ins[pc].op != OP_CALL && q->ins[pc].op != OP_RET);
		cr_expect_eq(q->ins[pc].loc.line, t.p->ins[origin[pc]].loc.line);
		copies += origin[pc] == 13; /* F: y = tid * 100 */
	}
	cr_expect_eq(copies, 2);
	cr_expect_not_null(q->cfg);
	Program *g = gsa_build(q, &d);
	cr_expect_not_null(g, "the GSA form of the inlined program");
	if (g)
		ir_free(g);
	ir_free(q);
	free(origin);
	diag_free(&d);
	unload(&t);
}

Test(calls, inlining_has_a_size_limit)
{
	/* 8 levels of 10 calls each: 10^8 copies of the leaf */
	Buf b = {0};
	buf_puts(&b, "    call f0\n    stop\n");
	for (int i = 0; i < 8; i++) {
		buf_printf(&b, "f%d: x = %d\n", i, i);
		for (int k = 0; k < 10; k++)
			buf_printf(&b, "    call f%d\n", i + 1);
		buf_puts(&b, "    ret\n");
	}
	buf_puts(&b, "f8: ret\n");
	Prog t = load(buf_str(&b));
	Diags d;
	diag_init(&d, "t.simd", t.p->src, t.p->srclen);
	int32_t n = 0, *origin = NULL;
	cr_expect_null(xform_inline(t.p, &n, &origin, &d));
	cr_expect_eq(d.nerrors, 1);
	Buf out = {0};
	diag_render(&d, &out);
	cr_expect(strstr(buf_str(&out), "more than the limit of 1000000"), "%s", buf_str(&out));
	buf_free(&out);
	diag_free(&d);
	unload(&t);
	buf_free(&b);
}

/* "may be read before it is assigned" looks through calls: a variable a
** function assigns on every path to its rets (its own calls included) is
** assigned after the call; one it assigns on some paths only still warns. */
Test(calls, a_value_set_in_a_function_is_assigned_after_the_call)
{
	int n;
	char *out = diagnose(".threads 2\n"
	                     "    call F\n"       /* 2 */
	                     "    z = y + 1\n"    /* 3: y set on both of F's paths */
	                     "    z = w + 1\n"    /* 4: w on one path only */
	                     "    call H\n"
	                     "    z = v + u\n"    /* 6: v on both of H's paths, u on one */
	                     "    stop\n"
	                     "F:  p = tid & 1\n"
	                     "    bz p, e\n"
	                     "    y = tid\n"
	                     "    w = 1\n"
	                     "    call G\n"
	                     "    ret\n"
	                     "e:  y = 2\n"
	                     "    ret\n"
	                     "G:  v = 1\n"
	                     "    u = 1\n"
	                     "    ret\n"
	                     "H:  bnz z, h2\n"
	                     "    v = 2\n"
	                     "    ret\n"
	                     "h2: call G\n"
	                     "    ret\n",
	                     &n);
	cr_expect_eq(n, 0, "%s", out);
	cr_expect(strstr(out, "'y'") == NULL, "y is assigned by F on every path:\n%s", out);
	cr_expect(strstr(out, "'v'") == NULL, "v is assigned by H on every path (through G):\n%s", out);
	cr_expect(strstr(out, "t.simd:4:9: warning: variable 'w' may be read before it is assigned") != NULL, "%s", out);
	cr_expect(strstr(out, "t.simd:6:13: warning: variable 'u' may be read before it is assigned") != NULL, "%s", out);
	free(out);
}

/* PostDom at a divergent return (musimd(1), POLICIES): the ret (rule RS)
** pushes (the ret, the nearest common post-dominator of the return pcs or,
** at the caller's exit, the caller's return point, the level, the threads);
** the hook records the entries the RS step left. */
typedef struct RetEntries {
	int32_t ret_pc;         /* the ret whose entry is looked for */
	int32_t n;              /* RS steps seen */
	int32_t ipdom, level;   /* the entry's, -2 none */
	uint64_t threads;
} RetEntries;

static void look_for_ret_entry(void *ctx, const Machine *m, const StepInfo *s)
{
	RetEntries *r = ctx;
	if (s->rule != RULE_RS)
		return;
	r->n++;
	r->ipdom = r->level = -2;
	const Warp *w = &m->warps[s->warp];
	for (int32_t k = 0; k < w->ctl.n; k++) {
		if (strcmp(m->model->tables[m->model->table_of(w, k)].key, "postdom"))
			continue;
		CtlView v;
		m->model->view(w, k, &v);
		if (v.pc[0] == r->ret_pc) {
			r->ipdom = v.pc[1];
			r->level = v.pc[2];
			r->threads = v.set[3][0];
		}
	}
}

static RetEntries ret_entry_under(const char *src, const char *policy, int32_t ret_line)
{
	Prog t = load(src);
	RetEntries r = {.ret_pc = -1, .ipdom = -2, .level = -2};
	for (int32_t pc = 0; pc < t.p->nins; pc++)
		if (t.p->ins[pc].loc.line == ret_line)
			r.ret_pc = pc;
	cr_assert_geq(r.ret_pc, 0);
	SemOptions so = {0};
	so.model = model_find(policy);
	cr_assert_not_null(so.model, "%s", policy);
	Diags d;
	diag_init(&d, "t.simd", t.p->src, t.p->srclen);
	Machine *m = sem_new(t.p, &so, &d);
	cr_assert_not_null(m);
	diag_free(&d);
	cr_expect_eq(sem_run(m, look_for_ret_entry, &r), SEM_OK, "%s", m->err.msg ? m->err.msg : "");
	sem_free(m);
	unload(&t);
	return r;
}

Test(calls, postdom_pushes_an_entry_at_a_divergent_return)
{
	/* T4: the returns' common post-dominator is the join d (line 9) */
	static const char t4[] = ".threads 2\n"
	                         "    p = tid == 0\n"
	                         "    bz p, e\n"
	                         "    call F\n"
	                         "    x = 1\n"
	                         "    jump d\n"
	                         "e:  call F\n"
	                         "    x = 2\n"
	                         "d:  stop\n"      /* line 9, pc 7 */
	                         "F:  y = 1\n"
	                         "    ret\n";     /* line 11 */
	RetEntries r = ret_entry_under(t4, "its:postdom+maxsp", 11);
	cr_expect_eq(r.n, 1, "postdom+maxsp runs F once, with both threads");
	cr_expect_eq(r.ipdom, 7, "the entry's reconvergence point: %d", r.ipdom);
	cr_expect_eq(r.level, 0);
	cr_expect_eq(r.threads, 3u);
	/* both calls at the ends of G's sides: the common post-dominator is G's
	** exit, so the entry waits at G's return point (pc 1, line 3), level 1 */
	static const char exit_case[] = ".threads 2\n"
	                                "    call G\n"
	                                "    z = 1\n"   /* pc 1 */
	                                "    stop\n"
	                                "G:  p = tid == 0\n"
	                                "    bz p, e\n"
	                                "    call F\n"
	                                "    ret\n"
	                                "e:  call F\n"
	                                "    ret\n"
	                                "F:  y = 1\n"
	                                "    ret\n";  /* line 12 */
	r = ret_entry_under(exit_case, "its:postdom+maxsp", 12);
	cr_expect_eq(r.n, 1);
	cr_expect_eq(r.ipdom, 1, "at the caller's exit: its return point, got %d", r.ipdom);
	cr_expect_eq(r.level, 1);
	/* threads one level apart after the return (F called from main and from
	** G): no common point, no entry */
	static const char levels[] = ".threads 2\n"
	                             "    p = tid == 0\n"
	                             "    bz p, e\n"
	                             "    call F\n"
	                             "    jump d\n"
	                             "e:  call G\n"
	                             "d:  stop\n"
	                             "G:  call F\n"
	                             "    ret\n"
	                             "F:  y = 1\n"
	                             "    ret\n";  /* line 11 */
	r = ret_entry_under(levels, "its:postdom+maxsp", 11);
	cr_expect_eq(r.n, 1, "F runs once, with both threads");
	cr_expect_eq(r.ipdom, -2, "an entry for threads of two levels: ipdom %d", r.ipdom);
}
