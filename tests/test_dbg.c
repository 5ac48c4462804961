/*
** test_dbg.c — debugging sessions (src/dbg.c): going back restores exactly
** the states passed through, checkpoints stay bounded, `next` stops at the
** reconvergence point each model defines, breakpoints stop before their
** instruction, watchpoints after a change, a forced warp is honoured.
**
** States are compared by a fingerprint of everything the semantics reads
** or writes: every lane's value and definedness, each warp's pc, Θ, live
** set, status and stack, shared memory, and the measures.
*/
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "dbg.h"
#include "testlib.h"

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static void mem_fp(void *ctx, int64_t addr, Num v)
{
	uint64_t *h = ctx;
	*h = mix(*h, (uint64_t)addr);
	*h = mix(*h, v.z ? mpz_get_ui(v.z) ^ 0xb16ull : (uint64_t)v.i);
}

static uint64_t fingerprint(const Machine *m)
{
	uint64_t h = mix(0, m->steps);
	h = mix(h, m->thread_instructions);
	h = mix(h, (uint64_t)m->status);
	h = mix(h, (uint64_t)m->cursor); /* the round robin goes on from here */
	for (int r = 0; r < RULE__COUNT; r++)
		h = mix(h, m->rule_count[r]);
	for (int32_t v = 0; v < m->nvars; v++)
		for (int32_t t = 0; t < m->nthreads; t++) {
			Num x;
			bool def = sem_get(m, v, t, &x);
			h = mix(h, def);
			if (def)
				h = mix(h, x.z ? mpz_get_ui(x.z) ^ 0xb16ull : (uint64_t)x.i);
		}
	for (int32_t wi = 0; wi < m->nwarps; wi++) {
		const Warp *w = &m->warps[wi];
		h = mix(h, (uint64_t)w->pc);
		h = mix(h, (uint64_t)w->status);
		for (int32_t k = 0; k < w->nw; k++) {
			h = mix(h, w->active[k]);
			h = mix(h, w->live[k]);
		}
		/* the model's control stack, as the bytes of its records and sets */
		h = mix(h, (uint64_t)w->ctl.n);
		for (size_t k = 0; k < (size_t)w->ctl.n * w->ctl.rec_size; k++)
			h = mix(h, w->ctl.recs[k]);
		for (size_t k = 0; k < (size_t)w->ctl.n * w->ctl.nmask * (size_t)w->nw; k++)
			h = mix(h, w->ctl.masks[k]);
	}
	mem_each(&m->shared, mem_fp, &h);
	return h;
}

/* Spinning examples (spin_lock) end at the step limit: keep it small so
** that walking them back step by step stays cheap. */
static uint64_t max_steps = 3000;

static Dbg *session(const Prog *r, const Model *model)
{
	SemOptions o = {0};
	o.model = model;
	o.max_steps = max_steps;
	Diags d;
	diag_init(&d, "test", "", 0);
	Dbg *s = dbg_new(r->p, &o, &d);
	diag_free(&d);
	cr_assert(s);
	return s;
}

/* Step the session to the end, one step at a time, recording the
** fingerprint after each step (fp[0]: the initial state). */
static uint64_t *walk(Dbg *s, uint64_t *n)
{
	uint64_t cap = 64, k = 0;
	uint64_t *fp = malloc(cap * sizeof *fp);
	fp[k++] = fingerprint(s->m);
	while (s->m->status == SEM_RUNNING) {
		DbgStop st = dbg_step(s, 1, NULL, NULL);
		if (st.steps == 0)
			break;
		if (k == cap)
			fp = realloc(fp, (cap *= 2) * sizeof *fp);
		fp[k++] = fingerprint(s->m);
		cr_assert_eq(s->m->steps, k - 1);
	}
	*n = k;
	return fp;
}

/* The state after k steps, by a fresh machine and the round-robin
** scheduler (independent of the session's checkpoints): its fingerprint,
** and its status in *st. */
static uint64_t fresh_run(const Prog *r, const Model *model, uint64_t k, SemStatus *st)
{
	Dbg *s = session(r, model);
	Machine *m = s->m;
	while (m->steps < k && m->status == SEM_RUNNING) {
		int32_t w = sem_schedule(m);
		if (w < 0)
			break;
		sem_step(m, w, NULL);
		sem_advance(m, w);
	}
	uint64_t h = fingerprint(m);
	*st = m->status;
	dbg_free(s);
	return h;
}

static uint64_t fresh_fingerprint(const Prog *r, const Model *model, uint64_t k)
{
	SemStatus st;
	return fresh_run(r, model, k, &st);
}

static SemStatus fresh_status(const Prog *r, const Model *model, uint64_t k)
{
	SemStatus st;
	fresh_run(r, model, k, &st);
	return st;
}

Test(dbg, back_and_goto_restore_every_state_of_every_example)
{
	int nf;
	char **files = example_files(&nf);
	int checked = 0;
	for (int f = 0; f < nf; f++) {
		Prog r = load_path(files[f]);
		for (int mi = 0; mi < 3; mi++) {
			Dbg *s = session(&r, models[mi]);
			uint64_t n;
			uint64_t *fp = walk(s, &n);
			uint64_t end = n - 1; /* steps made */
			uint64_t final_fp = fingerprint(s->m);
			/* from a failed attempt (stuck, step limit, deadlock), the first
			** step back returns to the state before it, at the same step;
			** whether the failure came with a step, a fresh machine says */
			bool attempt_failed = s->m->status != SEM_OK && fresh_status(&r, models[mi], end) == SEM_RUNNING;
			if (attempt_failed) {
				dbg_back(s, 1);
				cr_assert_eq(s->m->steps, end, "%s", files[f]);
				cr_assert_eq(s->m->status, SEM_RUNNING, "%s", files[f]);
				cr_assert_eq(fingerprint(s->m), fp[end], "%s", files[f]);
			}
			/* one step back at a time, down to the start */
			for (uint64_t k = end; k > 0; k--) {
				dbg_back(s, 1);
				cr_assert_eq(s->m->steps, k - 1, "%s", files[f]);
				cr_assert_eq(fingerprint(s->m), fp[k - 1], "%s model %d: back to step %llu", files[f],
				             mi, (unsigned long long)(k - 1));
			}
			/* jumps both ways */
			for (uint64_t k = 0; k <= end; k += 1 + end / 7) {
				dbg_goto(s, k, NULL, NULL);
				cr_assert_eq(fingerprint(s->m), fp[k], "%s model %d: goto %llu", files[f], mi,
				             (unsigned long long)k);
				cr_assert_eq(fp[k], fresh_fingerprint(&r, models[mi], k), "%s: a fresh run differs", files[f]);
			}
			/* forwards again along the recorded schedule: the same end */
			dbg_goto(s, 0, NULL, NULL);
			DbgStop st = dbg_continue(s, NULL, NULL);
			cr_assert_eq(st.steps, end, "%s model %d", files[f], mi);
			if (s->m->status == SEM_OK)
				cr_assert_eq(fingerprint(s->m), final_fp, "%s model %d", files[f], mi);
			free(fp);
			dbg_free(s);
			checked++;
		}
		unload(&r);
	}
	cr_assert_eq(checked, 3 * nf);
	free_names(files, nf);
}

/* The first checkpoint interval (dbg.c, first_interval): the least power of
** two from DBG_FIRST_INTERVAL whose steps do DBG_CK_WORK times the work of
** a copy, for a machine of 2 threads and one of 1024 in one warp. */
Test(dbg, the_first_checkpoint_interval_follows_the_cost_of_a_copy)
{
	static const char *const srcs[] = {".threads 2\n x = tid\n stop\n", ".threads 1024\n x = tid\n stop\n"};
	for (int i = 0; i < 2; i++) {
		Prog r = load(srcs[i]);
		Dbg *s = session(&r, &model_sync);
		uint64_t per_step = (uint64_t)s->m->sched_warpsize + DBG_STEP_LANES, want = DBG_CK_WORK * sem_bytes(s->m);
		cr_expect_geq(s->interval * per_step, want);
		cr_expect(s->interval == DBG_FIRST_INTERVAL || s->interval / 2 * per_step < want);
		cr_expect_eq(s->interval & (s->interval - 1), 0);
		if (i == 1)
			cr_expect_geq(s->interval, 1024u);
		dbg_free(s);
		unload(&r);
	}
}

Test(dbg, checkpoints_stay_bounded_on_a_long_run)
{
	/* two threads loop 4000 times: about 24000 steps, beyond
	** DBG_MAX_CHECKPOINTS × the first interval (256 for this machine) */
	Prog r = load(".threads 2\n"
	              "       i = 0\n"
	              "loop:  p = i < 4000\n"
	              "       bz p, done\n"
	              "       x = i * 7\n"
	              "       y = x % 5\n"
	              "       i = i + 1\n"
	              "       jump loop\n"
	              "done:  sync\n"
	              "       mem[tid] = i\n"
	              "       stop\n");
	max_steps = 100000;
	Dbg *s = session(&r, &model_sync);
	uint64_t first = s->interval;
	cr_assert_geq(first, (uint64_t)DBG_FIRST_INTERVAL);
	cr_assert_leq(first, 256u, "a small machine checkpoints often");
	DbgStop st = dbg_continue(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_END);
	uint64_t end = s->m->steps;
	cr_assert_gt(end, 20000u);
	cr_assert_leq(s->nck, DBG_MAX_CHECKPOINTS + 1);
	/* thinning keeps every other checkpoint, not none: going back stays cheap */
	cr_assert_geq(s->nck, DBG_MAX_CHECKPOINTS / 2);
	cr_assert_geq(s->ckstep[s->nck - 1] + 2 * s->interval, end);
	cr_assert_gt(s->interval, first, "the checkpoints were never thinned");
	for (int i = 1; i < s->nck; i++)
		cr_assert_lt(s->ckstep[i - 1], s->ckstep[i]);
	static const uint64_t targets[] = {1, 63, 64, 65, 4095, 4097, 10001, 20000};
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		dbg_goto(s, targets[i], NULL, NULL);
		cr_assert_eq(s->m->steps, targets[i]);
		cr_assert_eq(fingerprint(s->m), fresh_fingerprint(&r, &model_sync, targets[i]), "step %llu",
		             (unsigned long long)targets[i]);
	}
	dbg_goto(s, end, NULL, NULL);
	cr_assert_eq(s->m->status, SEM_OK);
	dbg_free(s);
	unload(&r);
}

static int32_t pc_of(const Prog *r, const char *label)
{
	int32_t l = ir_find_label(r->p, label);
	cr_assert_geq(l, 0, "no label %s", label);
	return r->p->labels[l].ins;
}

static Prog sum_triangle(void)
{
	return load(".threads 4\n.param c = 4\n.param v = 16\n"
	            ".data 0: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n" SUM_TRIANGLE);
}

Test(dbg, next_runs_the_loop_region_to_its_reconvergence)
{
	Prog r = sum_triangle();
	/* sync: the node (l6, ., l15, .) the first visit pushes pops at the SP of
	** l15 (step 45 of Figure 3.4's walk): the warp is then at l16, Π = [] */
	Dbg *s = session(&r, &model_sync);
	dbg_step(s, 6, NULL, NULL);
	cr_assert_eq(s->m->warps[0].pc, pc_of(&r, "l6"));
	DbgStop st = dbg_next(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_DONE);
	cr_assert_eq(s->m->steps, 45u);
	cr_assert_eq(s->m->warps[0].pc, pc_of(&r, "l16"));
	cr_assert_eq(s->m->warps[0].ctl.n, 0);
	/* a later visit merges into the same node: its region ends there too */
	dbg_goto(s, 14, NULL, NULL);
	cr_assert_eq(s->m->warps[0].pc, pc_of(&r, "l6"));
	dbg_next(s, NULL, NULL);
	cr_assert_eq(s->m->steps, 45u);
	/* the inner branch l8 (uniform) reconverges at its own sync l11: next
	** ends right after the SP there */
	dbg_goto(s, 8, NULL, NULL);
	cr_assert_eq(s->m->warps[0].pc, pc_of(&r, "l8"));
	dbg_next(s, NULL, NULL);
	cr_assert_eq(s->m->warps[0].pc, pc_of(&r, "l12"));
	cr_assert_eq(s->m->warps[0].ctl.n, 1);
	/* not a branch: one step */
	uint64_t before = s->m->steps;
	dbg_next(s, NULL, NULL);
	cr_assert_eq(s->m->steps, before + 1);
	dbg_free(s);

	/* ipdom: the loop branch reconverges at its immediate post-dominator
	** l15, where every thread arrives */
	s = session(&r, &model_ipdom);
	dbg_step(s, 6, NULL, NULL);
	dbg_next(s, NULL, NULL);
	cr_assert_eq(s->m->warps[0].pc, pc_of(&r, "l15"));
	cr_assert_eq(s->m->warps[0].active[0], 0xfull);
	dbg_free(s);

	/* mimd: the warp of thread 0 alone (chosen with `warp 0`), to l15 */
	s = session(&r, &model_mimd);
	s->forced_warp = 0;
	while (s->m->warps[0].pc != pc_of(&r, "l6"))
		dbg_step(s, 1, NULL, NULL);
	cr_assert_eq(dbg_next_warp(s), 0);
	dbg_next(s, NULL, NULL);
	cr_assert_eq(s->m->warps[0].pc, pc_of(&r, "l15"));
	dbg_free(s);
	unload(&r);
}

Test(dbg, breakpoints_stop_before_their_instruction)
{
	Prog r = sum_triangle();
	Dbg *s = session(&r, &model_sync);
	int32_t id = dbg_break(s, pc_of(&r, "l6"));
	uint64_t at[5];
	for (int i = 0; i < 5; i++) {
		DbgStop st = dbg_continue(s, NULL, NULL);
		cr_assert_eq(st.kind, STOP_BREAK);
		cr_assert_eq(st.point, id);
		cr_assert_eq(s->m->warps[0].pc, pc_of(&r, "l6"));
		at[i] = s->m->steps;
	}
	/* the five visits of l6 in Figure 3.4: before steps 7, 15, 25, 33, 43 */
	cr_assert_eq(at[0], 6u);
	cr_assert_eq(at[1], 14u);
	cr_assert_eq(at[2], 24u);
	cr_assert_eq(at[3], 32u);
	cr_assert_eq(at[4], 42u);
	cr_assert_eq(dbg_continue(s, NULL, NULL).kind, STOP_END);
	cr_assert_eq(dbg_point(s, id)->hits, 5u);
	cr_assert(dbg_delete(s, id));
	cr_assert(!dbg_delete(s, id));
	dbg_free(s);
	unload(&r);
}

Test(dbg, watchpoints_stop_after_a_change)
{
	Prog r = sum_triangle();
	Dbg *s = session(&r, &model_sync);
	int32_t id = dbg_watch_var(s, ir_find_var(r.p, "s"));
	/* l0 assigns s in every thread: undef → 0 */
	DbgStop st = dbg_continue(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_WATCH);
	cr_assert_eq(st.point, id);
	cr_assert_eq(s->m->steps, 1u);
	cr_assert_str_eq(st.detail, "s: t0 undef → 0, t1 undef → 0, t2 undef → 0, t3 undef → 0");
	dbg_stop_free(&st);
	/* the next change is l10 in the second iteration (step 19): t1..t3 add
	** m[4], m[5], m[6]; t0 has left the loop */
	st = dbg_continue(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_WATCH);
	cr_assert_eq(s->m->steps, 19u);
	cr_assert_str_eq(st.detail, "s: t1 0 → 5, t2 0 → 6, t3 0 → 7");
	dbg_stop_free(&st);
	dbg_delete(s, -1);
	/* a cell: v[3] = Σ[19] gets 22 at l18 */
	id = dbg_watch_mem(s, 19);
	st = dbg_continue(s, NULL, NULL);
	cr_assert_eq(st.kind, STOP_WATCH);
	cr_assert_str_eq(st.detail, "mem[19]: undef → 22");
	dbg_stop_free(&st);
	dbg_free(s);
	unload(&r);
}

Test(dbg, thread_states_at_the_sync_of_figure_3_4)
{
	Prog r = sum_triangle();
	Dbg *s = session(&r, &model_sync);
	int32_t pc;
	/* after step 15 (BD at l6): t0 deferred to l15 */
	dbg_step(s, 15, NULL, NULL);
	cr_assert_eq(dbg_thread_state(s->m, 0, &pc), THREAD_DEFERRED);
	cr_assert_eq(pc, pc_of(&r, "l15"));
	cr_assert_eq(dbg_thread_state(s->m, 1, &pc), THREAD_ACTIVE);
	/* after step 44 (SS at l15): t3 waits in Θ_done, t0..t2 run */
	dbg_goto(s, 44, NULL, NULL);
	cr_assert_eq(dbg_thread_state(s->m, 3, &pc), THREAD_WAITING);
	cr_assert_eq(pc, pc_of(&r, "l15"));
	for (int t = 0; t < 3; t++)
		cr_assert_eq(dbg_thread_state(s->m, t, &pc), THREAD_ACTIVE);
	dbg_continue(s, NULL, NULL);
	cr_assert_eq(dbg_thread_state(s->m, 2, &pc), THREAD_DONE);
	dbg_free(s);
	unload(&r);
}

Test(dbg, a_forced_warp_issues_until_it_cannot)
{
	Prog r = load(".threads 8\n.warpsize 4\n"
	              "x = tid\n"
	              "barrier\n"
	              "y = x + 1\n"
	              "stop\n");
	Dbg *s = session(&r, &model_sync);
	s->forced_warp = 1;
	DbgStop st = dbg_step(s, 5, NULL, NULL);
	/* warp 1: x = tid, then its arrival at the barrier; then it must wait */
	cr_assert_eq(st.kind, STOP_BLOCKED);
	cr_assert_eq(st.steps, 2u);
	cr_assert_eq(s->hist[0], 1);
	cr_assert_eq(s->hist[1], 1);
	cr_assert_eq(s->m->warps[0].pc, 0);
	/* going back and choosing warp 0 forgets the recorded future */
	dbg_back(s, 2);
	s->forced_warp = 0;
	dbg_step(s, 1, NULL, NULL);
	cr_assert_eq(s->nhist, 1u);
	cr_assert_eq(s->hist[0], 0);
	s->forced_warp = -1;
	cr_assert_eq(dbg_continue(s, NULL, NULL).kind, STOP_END);
	dbg_free(s);
	unload(&r);
}
