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

/* Explore p under md with threads in warps of warpsize (at most max_states
** states, 0: the default; --atomic-order any when atomic_any), and replay
** the counterexample. */
static ExploreResult *explore_with(const Program *p, const Model *md, int32_t threads, int32_t warpsize,
                                   uint64_t max_states, bool atomic_any)
{
	ExploreOptions o = {0};
	o.sem.model = md;
	o.sem.threads = threads;
	o.sem.warpsize = warpsize;
	o.sem.atomic_any = atomic_any;
	o.max_states = max_states;
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	ExploreResult *r = explore_run(p, &o, &d);
	cr_assert_not_null(r);
	diag_free(&d);
	expect_replays(p, &o.sem, r);
	return r;
}

static ExploreResult *explore(const Program *p, const Model *md, int32_t threads, int32_t warpsize,
                              uint64_t max_states)
{
	return explore_with(p, md, threads, warpsize, max_states, false);
}

static ExploreResult *explore_any(const Program *p, const Model *md, int32_t threads, int32_t warpsize)
{
	return explore_with(p, md, threads, warpsize, 0, true);
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
                                            int32_t warpsize, bool atomic_any, const char *what)
{
	ExploreOptions o = {0};
	o.sem.model = md;
	o.sem.threads = threads;
	o.sem.warpsize = warpsize;
	o.sem.atomic_any = atomic_any;
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

/* Every example under every model, with and without reduction (explore's
** --atomic-order any or not): how many searches were compared. */
static int reduction_on_examples(bool atomic_any)
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
			compared += same_with_and_without_reduction(r.p, models[k], 0, 0, atomic_any, files[f]);
		unload(&r);
	}
	free_names(files, nf);
	return compared;
}

/* The same on the random concurrent programs of seeds 1 .. n (gen --concurrent:
** locks, flags, tickets, atomics and barriers). */
static int reduction_on_concurrent(uint64_t n, bool atomic_any)
{
	int compared = 0;
	for (uint64_t seed = 1; seed <= n; seed++) {
		GenOptions go = {.seed = seed, .concurrent = true};
		Buf b = {0};
		gen_program(&b, &go);
		Prog r = load(buf_str(&b));
		buf_free(&b);
		char what[48];
		snprintf(what, sizeof what, "gen --concurrent --seed %llu", (unsigned long long)seed);
		for (int k = 0; models[k]; k++)
			compared += same_with_and_without_reduction(r.p, models[k], 0, 0, atomic_any, what);
		unload(&r);
	}
	return compared;
}

Test(explore, reduction_keeps_the_verdicts_of_every_example, .init = watchdog_600)
{
	int compared = reduction_on_examples(false);
	cr_expect_gt(compared, 50, "only %d searches compared", compared);
}

Test(explore, reduction_keeps_the_verdicts_of_random_programs, .init = watchdog_600)
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
			compared += same_with_and_without_reduction(r.p, models[k], 3, (int32_t)(1 + seed % 3), false, what);
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

Test(explore, reduction_keeps_the_verdicts_of_random_concurrent_programs, .init = watchdog_600)
{
	int compared = reduction_on_concurrent(60, false);
	cr_expect_gt(compared, 200, "only %d searches compared", compared);
}

/* ---- --atomic-order any (explore.md §1) --------------------------------------------- */

/* The distinct outcomes of the lanes' order of the instruction of src
** that one warp of `threads` issues after `before` steps (StepInfo.norders),
** and a check that each outcome leads to its own state and that there is no
** outcome beyond them. */
static int32_t step_orders(const char *src, int32_t threads, int32_t before)
{
	Program *p = load_src(src);
	SemOptions so = {.threads = threads, .atomic_any = true};
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	Machine *m0 = sem_new(p, &so, &d);
	cr_assert_not_null(m0);
	StepInfo info;
	for (int32_t i = 0; i < before; i++)
		sem_step(m0, 0, NULL);
	uint64_t steps0 = m0->steps;
	Machine *m = sem_clone(m0);
	sem_step(m, 0, &info);
	cr_assert_eq(m->status, SEM_RUNNING);
	int32_t n = info.norders;
	sem_free(m);
	Buf *seen = xcalloc((size_t)n + 1, sizeof *seen);
	for (int32_t k = 0; k < n; k++) {
		m = sem_clone(m0);
		sem_step_group(m, 0, k, &info);
		cr_assert_eq(m->steps, steps0 + 1, "outcome %d does not step", k);
		cr_expect_eq(info.order, k);
		sem_pack(m, &seen[k]);
		for (int32_t j = 0; j < k; j++)
			cr_expect(seen[j].len != seen[k].len || memcmp(seen[j].s, seen[k].s, seen[k].len),
			          "outcomes %d and %d leave the same state", j, k);
		sem_free(m);
	}
	/* one beyond: the step is stuck (rule TL), nothing changed */
	m = sem_clone(m0);
	sem_step_group(m, 0, n, &info);
	cr_expect_eq(m->status, SEM_STUCK);
	cr_expect_str_eq(m->err.rule, "TL");
	cr_expect_eq(m->steps, steps0);
	sem_free(m);
	/* without --atomic-order any the order is no choice */
	so.atomic_any = false;
	m = sem_new(p, &so, &d);
	for (int32_t i = 0; i <= before; i++)
		sem_step(m, 0, &info);
	cr_expect_eq(info.norders, 1);
	sem_free(m);
	for (int32_t k = 0; k < n; k++)
		buf_free(&seen[k]);
	free(seen);
	sem_free(m0);
	diag_free(&d);
	ir_free(p);
	return n;
}

Test(explore, atomic_order_any_counts_distinct_outcomes)
{
	/* a failing atomcas writes nothing: only the winner matters, the
	** losers' order does not (explore.md §1): 3 of the 3! orders */
	cr_expect_eq(step_orders(".data 0: 0\nold = atomcas(0, 0, 1)\nstop\n", 3, 0), 3);
	/* every lane of an atomadd reads what the ones before it added: 3! */
	cr_expect_eq(step_orders(".data 0: 0\nold = atomadd(0, tid)\nstop\n", 3, 0), 6);
	/* lanes 0 and 1 add 0 and lane 2 adds 1: lane 2 reads 0 whatever the
	** order, and each of the others 0 or 1 by whether it goes after lane
	** 2: 4 of the 6 orders */
	cr_expect_eq(step_orders(".data 0: 0\nx = tid / 2\nold = atomadd(0, x)\nstop\n", 3, 1), 4);
	cr_expect_eq(step_orders(".data 0: 0\nold = atominc(0)\nstop\n", 4, 0), 24);
	/* atomexch of one value: each lane reads 0 or that value, by whether
	** it goes first */
	cr_expect_eq(step_orders(".data 0: 0\nold = atomexch(0, 1)\nstop\n", 3, 0), 3);
	/* a store of 3 lanes with 2 distinct values: the value that stays */
	cr_expect_eq(step_orders("x = tid / 2\nmem[0] = x\nstop\n", 3, 1), 2);
	/* equal values collide without a race: one outcome */
	cr_expect_eq(step_orders("mem[0] = 7\nstop\n", 3, 0), 1);
	/* lanes on different cells commute: cells 0 and 1 with 2 lanes each,
	** an atominc on each: 2 × 2 */
	cr_expect_eq(step_orders(".data 0: 0 0\na = tid % 2\nold = atominc(a)\nstop\n", 4, 1), 4);
	/* no collision at all */
	cr_expect_eq(step_orders("mem[tid] = 1\nstop\n", 4, 0), 1);
}

/* A leader elected by an atomicExch, then the lanes take turns: a follower
** waits for the leader's flag (examples/leader_flag.simd). Ascending, lane
** 0 leads and in its turn, the first, sets the flag; when lane 1 goes
** first at the atomic, lane 0 spins in its turn while lane 1 waits for the
** turn to end. */
static const char leader_by_atomic[] = ".data 0: 0 0\n"
                                       "       old = atomexch(0, 1)\n"
                                       "       i = 0\n"
                                       "turn:  p = laneid == i\n"
                                       "       bz p, next\n"
                                       "       bnz old, wait\n"
                                       "       mem[1] = 1\n"
                                       "       jump done\n"
                                       "wait:  f = mem[1]\n"
                                       "       bz f, wait\n"
                                       "       sync\n"
                                       "done:  sync\n"
                                       "next:  sync\n"
                                       "       i = i + 1\n"
                                       "       q = i < 2\n"
                                       "       bnz q, turn\n"
                                       "       sync\n"
                                       "       stop\n";

/* The same elected by a store whose lanes collide (the last writer's lane
** leads; ascending, lane 1), with the turns from lane 1 down. */
static const char leader_by_store[] = ".data 0: 0 0\n"
                                      "       mem[0] = laneid\n"
                                      "       w = mem[0]\n"
                                      "       lead = laneid == w\n"
                                      "       i = 1\n"
                                      "turn:  p = laneid == i\n"
                                      "       bz p, next\n"
                                      "       bz lead, wait\n"
                                      "       mem[1] = 1\n"
                                      "       jump done\n"
                                      "wait:  f = mem[1]\n"
                                      "       bz f, wait\n"
                                      "       sync\n"
                                      "done:  sync\n"
                                      "next:  sync\n"
                                      "       i = i - 1\n"
                                      "       q = i >= 0\n"
                                      "       bnz q, turn\n"
                                      "       sync\n"
                                      "       stop\n";

Test(explore, atomic_order_any_finds_the_livelock_the_ascending_order_hides)
{
	const char *const srcs[] = {leader_by_atomic, leader_by_store};
	for (int i = 0; i < 2; i++) {
		Program *p = load_src(srcs[i]);
		const Model *simt[] = {&model_sync, &model_ipdom};
		for (int k = 0; k < 2; k++) {
			ExploreResult *r = explore(p, simt[k], 2, 2, 0);
			EXPECT_VERDICT(r, EXPLORE_TERMINATES, simt[k]->name);
			explore_free(r);
			r = explore_any(p, simt[k], 2, 2);
			EXPECT_VERDICT(r, EXPLORE_LIVELOCK, simt[k]->name);
			cr_expect(r->doomed);
			/* the first step is the election, its lanes in the other order */
			cr_assert_not_null(r->groups, "the lanes' orders are part of the schedule");
			cr_expect_eq(r->groups[0], 1, "%s: the election's lane order %d, want 1", simt[k]->name,
			             r->groups[0]);
			explore_free(r);
		}
		/* a warp of one thread has one lane order */
		ExploreResult *r = explore_any(p, &model_mimd, 2, 2);
		EXPECT_VERDICT(r, EXPLORE_TERMINATES_FAIR, "mimd");
		explore_free(r);
		ir_free(p);
	}
}

Test(explore, atomic_order_any_past_its_bounds_is_unknown)
{
	/* 9 lanes of an atominc on one cell: 9! orders, more than the explorer
	** simulates; 16 lanes on 4 cells: 24^4 outcomes */
	Program *p = load_src(".data 0: 0 0 0 0\nx = atominc(0)\nstop\n");
	ExploreResult *r = explore_any(p, &model_sync, 9, 9);
	EXPECT_VERDICT(r, EXPLORE_UNKNOWN, "9 lanes");
	cr_expect_str_eq(r->limit, "lane-orders");
	explore_free(r);
	r = explore_any(p, &model_sync, SEM_MAX_ORDER_LANES, SEM_MAX_ORDER_LANES);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES, "8 lanes: 8! outcomes, each explored");
	explore_free(r);
	ir_free(p);
	p = load_src(".data 0: 0 0 0 0\na = tid % 4\nx = atominc(a)\nstop\n");
	r = explore_any(p, &model_ipdom, 16, 16);
	EXPECT_VERDICT(r, EXPLORE_UNKNOWN, "16 lanes on 4 cells");
	cr_expect_str_eq(r->limit, "lane-orders");
	explore_free(r);
	r = explore_any(p, &model_ipdom, 12, 12);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES, "12 lanes on 4 cells: 6^4 outcomes");
	cr_expect_eq(r->states, 1 + 1 + 1296 + 1296, "the initial state, a, the 6^4 outcomes, stop");
	explore_free(r);
	ir_free(p);
}

Test(explore, reduction_keeps_the_verdicts_with_atomic_order_any, .init = watchdog_600)
{
	int compared = reduction_on_examples(true) + reduction_on_concurrent(30, true);
	cr_expect_gt(compared, 150, "only %d searches compared", compared);
}

Test(explore, atomic_order_any_schedules_replay_with_sides_and_groups)
{
	/* the alternative of a step packs the side (ipdom) or the group
	** (its:any) with the lanes' order: g + n × o (sem_step_group) */
	Program *p = load_src(leader_by_atomic);
	ExploreOptions o = {0};
	o.sem.threads = 2;
	o.sem.atomic_any = true;
	Diags d;
	diag_init(&d, "t.simd", NULL, 0);
	o.sem.model = &model_ipdom;
	for (int po = 0; po < 3; po++) { /* fall-through first, taken first, both */
		o.sem.taken_first = po == 1;
		o.path_order_both = po == 2;
		ExploreResult *r = explore_run(p, &o, &d);
		EXPECT_VERDICT(r, EXPLORE_LIVELOCK, "ipdom");
		cr_assert_not_null(r->groups);
		cr_expect_eq(r->groups[0], 1, "the atomic, not a branch: the lanes' order 1");
		/* the loop's branch (step 4) under taken first: side 1, order 0 */
		cr_expect_eq(r->groups[3], po == 1, "path order %d: the branch's alternative %d", po, r->groups[3]);
		expect_replays(p, &o.sem, r);
		explore_free(r);
	}
	o.sem.taken_first = false;
	o.path_order_both = false;
	o.sem.model = &model_its_any;
	ExploreResult *r = explore_run(p, &o, &d);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES_FAIR, "its:any");
	explore_free(r);
	ir_free(p);
	/* its:any with two groups at an atomic: the even lanes spin on a lock
	** the odd ones take in a group of their own */
	p = load_src(spin_lock);
	o.max_states = 0;
	r = explore_run(p, &o, &d);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES_FAIR, "its:any spin lock");
	explore_free(r);
	o.sem.threads = 3;
	o.sem.model = &model_sync;
	r = explore_run(p, &o, &d);
	EXPECT_VERDICT(r, EXPLORE_LIVELOCK, "sync spin lock, 3 lanes, any winner");
	expect_replays(p, &o.sem, r);
	explore_free(r);
	ir_free(p);
	/* its:any: thread 2 forms a group of its own while threads 0 and 1
	** elect a leader; only lane 0 sets the flag when it leads, so when lane
	** 1 goes first lane 0 spins for ever: the step of the atomic is the
	** group of the two lanes plus 2 × order 1 */
	p = load_src(".data 0: 0 0\n"
	             "       p = tid == 2\n"
	             "       bnz p, other\n"
	             "       old = atomexch(0, 1)\n"
	             "       bz old, lead\n"
	             "spin:  f = mem[1]\n"
	             "       bz f, spin\n"
	             "       jump end\n"
	             "lead:  bnz tid, end\n"
	             "       mem[1] = 1\n"
	             "       jump end\n"
	             "other: x = 1\n"
	             "end:   stop\n");
	o.sem.model = &model_its_any;
	o.sem.atomic_any = false;
	r = explore_run(p, &o, &d);
	EXPECT_VERDICT(r, EXPLORE_TERMINATES_FAIR, "its:any, ascending: lane 0 leads");
	explore_free(r);
	o.sem.atomic_any = true;
	r = explore_run(p, &o, &d);
	EXPECT_VERDICT(r, EXPLORE_LIVELOCK, "its:any, any order");
	bool packed = false;
	for (int32_t i = 0; r->groups && i < r->ntrace; i++)
		packed |= r->groups[i] >= 2;
	cr_expect(packed, "no step with a group and a lanes' order");
	expect_replays(p, &o.sem, r);
	explore_free(r);
	diag_free(&d);
	ir_free(p);
}
