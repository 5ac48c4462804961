/*
** test_explore.c — the explorer (explore.h) on the patterns of seed 004
** §2 and explore.md §3, with the verdicts derived by hand below each
** program; every counterexample is replayed through sem_step and must end
** as its verdict says.
*/
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "explore.h"
#include "model.h"

static Program *load_src(const char *src)
{
	Diags d;
	diag_init(&d, "t.simd", src, strlen(src));
	Program *p = ir_load("t.simd", src, strlen(src), &d);
	cr_assert_eq(d.nerrors, 0, "the program does not load");
	diag_free(&d);
	return p;
}

/* Replay r's schedule through the ordinary step function: a deadlock ends
** stuck or with no warp able to step; a livelock's cycle returns to the
** state where it began. */
static void expect_replays(const Program *p, const SemOptions *so, const ExploreResult *r)
{
	SemOptions o = *so;
	o.max_steps = UINT64_MAX;
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	Machine *m = sem_new(p, &o, &d);
	cr_assert_not_null(m);
	Buf at = {0}, end = {0};
	bool stuck = false;
	for (int32_t i = 0; i < r->ntrace; i++) {
		if (i == r->cycle_start)
			sem_pack(m, &at);
		cr_assert(m->warps[r->trace[i]].status == WARP_RUN, "step %d: warp %d cannot step", i, r->trace[i]);
		uint64_t before = m->steps;
		sem_step_group(m, r->trace[i], r->groups ? r->groups[i] : -1, NULL);
		if (m->steps == before) {
			cr_assert_eq(i, r->ntrace - 1, "a stuck step before the end of the schedule");
			stuck = true;
		}
	}
	if (r->verdict == EXPLORE_DEADLOCK) {
		bool none = m->status == SEM_RUNNING;
		for (int32_t w = 0; w < m->nwarps; w++)
			none &= m->warps[w].status != WARP_RUN;
		cr_expect(stuck || m->status == SEM_DEADLOCK || none, "the deadlock schedule does not deadlock");
	} else if (r->verdict == EXPLORE_LIVELOCK) {
		cr_assert(r->cycle_start >= 0 && r->cycle_start < r->ntrace, "a livelock without a cycle");
		sem_pack(m, &end);
		cr_expect(end.len == at.len && memcmp(end.s, at.s, at.len) == 0, "the cycle does not close");
	}
	buf_free(&at);
	buf_free(&end);
	sem_free(m);
	diag_free(&d);
}

static ExploreResult *explore(const Program *p, const Model *md, int32_t threads, int32_t warpsize,
                              uint64_t max_states)
{
	ExploreOptions o = {0};
	o.sem.model = md;
	o.sem.threads = threads;
	o.sem.warpsize = warpsize;
	o.max_states = max_states;
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	ExploreResult *r = explore_run(p, &o, &d);
	cr_assert_not_null(r);
	diag_free(&d);
	expect_replays(p, &o.sem, r);
	return r;
}

#define EXPECT_VERDICT(r, v, what)                                                                   \
	cr_expect_eq((r)->verdict, (v), "%s: %s, want %s", what, explore_verdict_name((r)->verdict), \
	             explore_verdict_name(v))

/* while (atomicCAS(&m, 0, 1) != 0); counter++; atomicExch(&m, 0) */
static const char spin_lock[] = ".data 0: 0 0\n"
                                "lock: old = atomcas(0, 0, 1)\n"
                                "      bnz old, lock\n"
                                "      sync\n"
                                "      c = mem[1]\n"
                                "      c = c + 1\n"
                                "      mem[1] = c\n"
                                "      r = atomexch(0, 0)\n"
                                "      stop\n";

Test(explore, spin_lock_in_one_warp_livelocks_under_the_stacks_and_terminates_fair_under_mimd)
{
	Program *p = load_src(spin_lock);
	/* sync: the winner parks at the loop's sync (SS) and never releases the
	** lock; the losers spin in a cycle of the one warp: fair, and no final
	** state is reachable from it */
	ExploreResult *r = explore(p, &model_sync, 2, 2, 0);
	EXPECT_VERDICT(r, EXPLORE_LIVELOCK, "sync");
	cr_expect(r->doomed);
	cr_expect_eq(r->cycle_start, 3, "prefix: atomcas, bnz (BD), sync (SS)");
	cr_expect_eq(r->ntrace - r->cycle_start, 2, "cycle: atomcas, bnz");
	explore_free(r);
	/* ipdom: the winner waits at the ipdom of the loop branch, the same */
	r = explore(p, &model_ipdom, 2, 2, 0);
	EXPECT_VERDICT(r, EXPLORE_LIVELOCK, "ipdom");
	cr_expect(r->doomed);
	explore_free(r);
	/* mimd: a spinner may spin for ever only while the holder, enabled all
	** along, never steps: unfair; every fair schedule finishes */
	r = explore(p, &model_mimd, 2, 2, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES_FAIR, "mimd");
	cr_expect_eq(r->ntrace, 0);
	explore_free(r);
	/* with each thread in its own warp the stacks do not matter */
	r = explore(p, &model_sync, 2, 1, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES_FAIR, "sync, warps of one");
	explore_free(r);
	/* one thread alone: no cycle at all */
	r = explore(p, &model_ipdom, 1, 1, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES, "one thread");
	explore_free(r);
	ir_free(p);
}

Test(explore, divergent_barrier_deadlocks_under_the_stacks_only)
{
	Program *p = load_src("l0: p = tid % 2\n"
	                      "l1: bz p, l5\n"
	                      "l2: mem[tid] = 1\n"
	                      "l3: barrier\n"
	                      "l4: jump l7\n"
	                      "l5: mem[tid] = 2\n"
	                      "l6: barrier\n"
	                      "l7: sync\n"
	                      "l8: stop\n");
	ExploreResult *r = explore(p, &model_sync, 4, 4, 0);
	EXPECT_VERDICT(r, EXPLORE_DEADLOCK, "sync");
	/* l0, l1 (BD), l2, then the barrier step that gets stuck (rule BAR) */
	cr_expect_eq(r->ntrace, 4);
	explore_free(r);
	r = explore(p, &model_ipdom, 4, 4, 0);
	EXPECT_VERDICT(r, EXPLORE_DEADLOCK, "ipdom");
	explore_free(r);
	r = explore(p, &model_mimd, 4, 4, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES, "mimd");
	explore_free(r);
	ir_free(p);
}

Test(explore, barrier_in_uniform_flow_terminates_under_every_model)
{
	Program *p = load_src("mem[tid] = tid\n"
	                      "barrier\n"
	                      "x = tid + 1\n"
	                      "x = x % 4\n"
	                      "y = mem[x]\n"
	                      "stop\n");
	for (int k = 0; models[k]; k++) {
		ExploreResult *r = explore(p, models[k], 4, 2, 0);
		EXPECT_VERDICT(r, EXPLORE_TERMINATES, models[k]->name);
		explore_free(r);
	}
	ir_free(p);
}

Test(explore, an_unconditional_loop_livelocks_under_every_model)
{
	Program *p = load_src("top: x = tid\n"
	                      "jump top\n");
	for (int k = 0; models[k]; k++) {
		ExploreResult *r = explore(p, models[k], 2, 2, 0);
		EXPECT_VERDICT(r, EXPLORE_LIVELOCK, models[k]->name);
		cr_expect(r->doomed, "%s: nothing can finish", models[k]->name);
		explore_free(r);
	}
	ir_free(p);
}

Test(explore, locks_taken_in_opposite_orders_livelock_under_mimd)
{
	/* thread 0 takes lock 0 then lock 1, thread 1 lock 1 then lock 0; each
	** spins on its second lock while holding its first: both spinners stay
	** enabled and step in the cycle, a fair run that never ends (other
	** schedules, where one thread takes both locks first, finish) */
	Program *p = load_src(".data 0: 0 0\n"
	                      "    a = tid\n"
	                      "    b = 1 - tid\n"
	                      "l1: o = atomcas(a, 0, 1)\n"
	                      "    bnz o, l1\n"
	                      "l2: q = atomcas(b, 0, 1)\n"
	                      "    bnz q, l2\n"
	                      "    r = atomexch(b, 0)\n"
	                      "    r = atomexch(a, 0)\n"
	                      "    stop\n");
	ExploreResult *r = explore(p, &model_mimd, 2, 1, 0);
	EXPECT_VERDICT(r, EXPLORE_LIVELOCK, "mimd");
	/* once each holds its first lock, neither can ever get the second */
	cr_expect(r->doomed);
	explore_free(r);
	ir_free(p);
}

Test(explore, a_tid_dependent_loop_terminates)
{
	Program *p = load_src("    i = tid\n"
	                      "top: bz i, out\n"
	                      "    i = i - 1\n"
	                      "    jump top\n"
	                      "out: sync\n"
	                      "    stop\n");
	for (int k = 0; models[k]; k++) {
		ExploreResult *r = explore(p, models[k], 3, 3, 0);
		EXPECT_VERDICT(r, EXPLORE_TERMINATES, models[k]->name);
		explore_free(r);
	}
	ir_free(p);
}

Test(explore, a_state_limit_gives_unknown_not_a_verdict)
{
	Program *p = load_src(spin_lock);
	ExploreResult *r = explore(p, &model_mimd, 3, 1, 10);
	EXPECT_VERDICT(r, EXPLORE_UNKNOWN, "10 states");
	cr_expect_str_eq(r->limit, "states");
	cr_expect_leq(r->states, 10);
	explore_free(r);
	ir_free(p);
}

Test(explore, a_stuck_step_is_a_deadlock_with_the_step_last)
{
	/* stop with a branch's node on Π: rule SF has no case (sync only) */
	Program *p = load_src("p = tid % 2\n"
	                      "bz p, out\n"
	                      "x = 1\n"
	                      "out: stop\n");
	ExploreResult *r = explore(p, &model_sync, 2, 2, 0);
	EXPECT_VERDICT(r, EXPLORE_DEADLOCK, "sync");
	cr_expect_eq(r->ntrace, 4, "p, bz (BD), x, then stop gets stuck");
	explore_free(r);
	r = explore(p, &model_ipdom, 2, 2, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES, "ipdom");
	explore_free(r);
	ir_free(p);
}

Test(explore, its_any_spin_lock_terminates_fair_and_its_rr_terminates)
{
	/* independent thread scheduling: the lock holder's group keeps its own
	** pc and issues while the loser spins. Under `any` a schedule may spin
	** for ever, but the holder stays able to issue: unfair; `rr` is one
	** fair schedule, and it ends */
	Program *p = load_src(spin_lock);
	ExploreResult *r = explore(p, &model_its_any, 2, 2, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES_FAIR, "its:any");
	explore_free(r);
	r = explore(p, &model_its_rr, 2, 2, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES, "its:rr");
	explore_free(r);
	r = explore(p, &model_its_any, 3, 3, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES_FAIR, "its:any, 3 threads");
	explore_free(r);
	ir_free(p);
}

Test(explore, its_completes_a_barrier_reached_in_divergent_code)
{
	/* each group arrives at its own barrier and waits there; the barrier
	** completes when every thread has arrived at one (semantics.md §6) */
	Program *p = load_src("l0: p = tid % 2\n"
	                      "l1: bz p, l5\n"
	                      "l2: mem[tid] = 1\n"
	                      "l3: barrier\n"
	                      "l4: jump l7\n"
	                      "l5: mem[tid] = 2\n"
	                      "l6: barrier\n"
	                      "l7: sync\n"
	                      "l8: stop\n");
	ExploreResult *r = explore(p, &model_its_any, 4, 4, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES, "its:any");
	explore_free(r);
	r = explore(p, &model_its_rr, 4, 2, 0);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES, "its:rr, two warps");
	explore_free(r);
	ir_free(p);
}

Test(explore, its_any_counterexamples_replay_with_their_groups)
{
	Program *p = load_src("top: x = tid\n"
	                      "p = x % 2\n"
	                      "bz p, top\n"
	                      "stop\n");
	/* the even threads loop for ever, the odd ones stop: a fair cycle of the
	** even group once the odd group has finished (not doomed before) */
	ExploreResult *r = explore(p, &model_its_any, 2, 2, 0);
	EXPECT_VERDICT(r, EXPLORE_LIVELOCK, "its:any");
	cr_expect_not_null(r->groups, "its:any schedules carry their groups");
	explore_free(r);
	ir_free(p);
}

/* ---- partial-order reduction: the same verdicts with and without ------------------ */

#include "gen.h"
#include "testlib.h"

/* Explore p under md with and without reduction; when the full search ends
** within its bound, both verdicts (and doomed) must agree. Returns whether
** they were compared. */
static bool same_with_and_without_reduction(const Program *p, const Model *md, int32_t threads,
                                            int32_t warpsize, const char *what)
{
	ExploreOptions o = {0};
	o.sem.model = md;
	o.sem.threads = threads;
	o.sem.warpsize = warpsize;
	o.max_states = 5000; /* the reduced graph is a subgraph: never larger */
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	o.no_reduction = true;
	ExploreResult *full = explore_run(p, &o, &d);
	o.no_reduction = false;
	ExploreResult *red = explore_run(p, &o, &d);
	diag_free(&d);
	cr_assert(full && red, "%s: not explored", what);
	bool compared = full->verdict != EXPLORE_UNKNOWN;
	if (compared) {
		cr_expect_eq(red->verdict, full->verdict, "%s under %s: %s with reduction, %s without", what, md->name,
		             explore_verdict_name(red->verdict), explore_verdict_name(full->verdict));
		cr_expect_eq(red->doomed, full->doomed, "%s under %s: doomed differs", what, md->name);
		cr_expect_leq(red->states, full->states, "%s under %s: the reduction adds states", what, md->name);
		expect_replays(p, &o.sem, red);
	}
	explore_free(full);
	explore_free(red);
	return compared;
}

Test(explore, reduction_keeps_the_verdicts_of_every_example, .timeout = 600)
{
	int nf;
	char **files = example_files(&nf);
	int compared = 0;
	for (int f = 0; f < nf; f++) {
		size_t len;
		char *src = read_file(files[f], &len);
		cr_assert_not_null(src);
		Prog r = load(src);
		free(src);
		for (int k = 0; models[k]; k++)
			compared += same_with_and_without_reduction(r.p, models[k], 0, 0, files[f]);
		unload(&r);
	}
	free_names(files, nf);
	cr_expect_gt(compared, 50, "only %d searches compared", compared);
}

Test(explore, reduction_keeps_the_verdicts_of_random_programs, .timeout = 600)
{
	int compared = 0;
	for (uint64_t seed = 1; seed <= 80; seed++) {
		GenOptions go = {.seed = seed, .size = 14, .max_depth = 2, .nvars = 3, .unstructured = seed % 2 == 0};
		Buf b = {0};
		gen_program(&b, &go);
		Prog r = load(buf_str(&b));
		buf_free(&b);
		char what[32];
		snprintf(what, sizeof what, "gen seed %llu", (unsigned long long)seed);
		for (int k = 0; models[k]; k++)
			compared += same_with_and_without_reduction(r.p, models[k], 3, (int32_t)(1 + seed % 3), what);
		unload(&r);
	}
	cr_expect_gt(compared, 200, "only %d searches compared", compared);
}

Test(explore, path_order_both_finds_what_either_order_can_do)
{
	/* thread 1 waits for a flag thread 0 sets on the other side of a
	** divergent branch: the hardware stack hangs when the waiter's side
	** (the fall-through) runs first, not when the signaller's does */
	Program *p = load_src(".data 0: 0\n"
	                      "    p = tid == 0\n"
	                      "    bnz p, signal\n"
	                      "wait: f = mem[0]\n"
	                      "    bz f, wait\n"
	                      "    jump done\n"
	                      "signal: mem[0] = 1\n"
	                      "done: sync\n"
	                      "    stop\n");
	ExploreOptions o = {0};
	o.sem.model = &model_ipdom;
	o.sem.threads = 2;
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	ExploreResult *r = explore_run(p, &o, &d);
	EXPECT_VERDICT(r, EXPLORE_LIVELOCK, "fall-through first");
	expect_replays(p, &o.sem, r);
	explore_free(r);
	o.sem.taken_first = true;
	r = explore_run(p, &o, &d);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES, "taken first");
	explore_free(r);
	o.path_order_both = true;
	r = explore_run(p, &o, &d);
	EXPECT_VERDICT(r, EXPLORE_LIVELOCK, "both");
	cr_expect_not_null(r->groups, "the sides taken are part of the schedule");
	expect_replays(p, &o.sem, r);
	explore_free(r);
	diag_free(&d);
	ir_free(p);
}

Test(explore, reduction_keeps_the_verdicts_of_random_concurrent_programs, .timeout = 600)
{
	/* locks, flags, tickets, atomics and barriers (gen --concurrent) */
	int compared = 0;
	for (uint64_t seed = 1; seed <= 60; seed++) {
		GenOptions go = {.seed = seed, .concurrent = true};
		Buf b = {0};
		gen_program(&b, &go);
		Prog r = load(buf_str(&b));
		buf_free(&b);
		char what[48];
		snprintf(what, sizeof what, "gen --concurrent --seed %llu", (unsigned long long)seed);
		for (int k = 0; models[k]; k++)
			compared += same_with_and_without_reduction(r.p, models[k], 0, 0, what);
		unload(&r);
	}
	cr_expect_gt(compared, 200, "only %d searches compared", compared);
}
