/*
** test_aware.c — the aware model (model/aware.c; ElTantawy 2018, chapter
** 5, seed 004 digest §5): its tables read through the model's views, the
** special cases of §5.3, the FIFO, the barrier's BL bit, the timeout with a
** count and as a choice of the explorer, and --aware-delay's checks. The
** expected tables are the thesis's figures, worked by hand.
*/
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "explore.h"
#include "model.h"
#include "report.h"
#include "testlib.h"

static SemOptions aware_options(int32_t threads, const char *delay, int64_t timeout)
{
	SemOptions so = {0};
	so.model = &model_aware;
	so.threads = threads;
	so.aware_delay = delay;
	so.aware_timeout = timeout;
	return so;
}

static Machine *machine(const Program *p, int32_t threads, const char *delay, int64_t timeout)
{
	SemOptions so = aware_options(threads, delay, timeout);
	Diags d;
	diag_init(&d, "a.simd", NULL, 0);
	Machine *m = sem_new(p, &so, &d);
	cr_assert_not_null(m, "%s", d.n ? d.v[0].msg : "");
	diag_free(&d);
	return m;
}

static void steps(Machine *m, int n)
{
	for (int i = 0; i < n; i++) {
		uint64_t before = m->steps;
		sem_step(m, 0, NULL);
		cr_assert_eq(m->steps, before + 1, "step %d did not happen: %s", i, m->err.msg ? m->err.msg : "");
	}
}

/* Warp 0's tables in the thesis's notation, from the views: the ST by
** slot "PC,RPC,mask" joined by "; ", then " | ", then the RT by index
** "PC,RPC,rec,pend"; pcs as labels ("-" for ⊥), masks as bit strings. */
static char *tables(const Machine *m)
{
	const Model *md = m->model;
	const Warp *w = &m->warps[0];
	Buf b = {0};
	for (int32_t t = 0; t < 2; t++) {
		if (t)
			buf_puts(&b, " | ");
		bool first = true;
		for (int32_t k = 0; k < w->ctl.n; k++) {
			if (md->table_of(w, k) != t)
				continue;
			CtlView v;
			md->view(w, k, &v);
			const CtlTable *tab = &md->tables[t];
			if (!first)
				buf_puts(&b, "; ");
			first = false;
			bool f1 = true;
			for (int32_t i = 0; i < tab->nfields; i++) {
				const CtlField *f = &tab->fields[i];
				if (f->is_num)
					continue;
				if (!f1)
					buf_putc(&b, ',');
				f1 = false;
				if (f->is_set)
					sem_print_bits(&b, m, 0, v.set[i]);
				else if (v.pc[i] < 0)
					buf_putc(&b, '-');
				else
					ir_print_where(&b, m->prog, v.pc[i]);
			}
		}
	}
	return buf_steal(&b);
}

/* The number field called key of the record at the FIFO's front, or of the
** RT entry at index 0. */
static int32_t field(const Machine *m, int32_t table, int32_t k_in_table, const char *key)
{
	const Model *md = m->model;
	const Warp *w = &m->warps[0];
	for (int32_t k = 0, n = 0; k < w->ctl.n; k++) {
		if (md->table_of(w, k) != table || n++ != k_in_table)
			continue;
		CtlView v;
		md->view(w, k, &v);
		for (int32_t i = 0; i < md->tables[table].nfields; i++)
			if (!strcmp(md->tables[table].fields[i].key, key))
				return v.pc[i];
	}
	cr_assert_fail("no record %d in table %d", k_in_table, table);
	return -1;
}

#define EXPECT_TABLES(m, want)                                                                         \
	do {                                                                                               \
		char *got_ = tables(m);                                                                        \
		cr_expect_str_eq(got_, want);                                                                  \
		free(got_);                                                                                    \
	} while (0)

static const char fig52[] = FIG_5_2;

Test(aware, nested_divergence_gives_the_tables_of_figure_5_2)
{
	Prog rp = load(fig52);
	Program *p = rp.p;
	Machine *m = machine(p, 4, NULL, 0);
	EXPECT_TABLES(m, "A,-,1111 | ");
	steps(m, 3); /* after BR^A: C (not taken) first in the FIFO */
	EXPECT_TABLES(m, "B,G,0101; C,G,1010 | G,-,1111,1111");
	cr_expect_eq(field(m, 0, 1, "fifo"), 0, "C is at the front");
	steps(m, 3); /* after BR^C: D in C's freed slot, FIFO B, E, D */
	EXPECT_TABLES(m, "B,G,0101; D,F,0010; E,F,1000 | G,-,1111,1111; F,G,1010,1010");
	cr_expect_eq(field(m, 0, 0, "fifo"), 0);
	cr_expect_eq(field(m, 0, 1, "fifo"), 2);
	cr_expect_eq(field(m, 0, 2, "fifo"), 1);
	cr_expect_eq(field(m, 0, 1, "rindex"), 1, "D reconverges at RT entry 1, F");
	cr_expect_eq(field(m, 1, 1, "rindex"), 0, "F's next point out is G, RT entry 0");
	steps(m, 1); /* B0101 reaches G */
	EXPECT_TABLES(m, "D,F,0010; E,F,1000 | G,-,1111,1010; F,G,1010,1010");
	steps(m, 2); /* E1000 reaches F */
	EXPECT_TABLES(m, "D,F,0010 | G,-,1111,1010; F,G,1010,0010");
	steps(m, 1); /* D0010 reaches F: F moves to the ST, in the first free slot */
	EXPECT_TABLES(m, "F,G,1010 | G,-,1111,1010");
	cr_expect_eq(field(m, 0, 0, "slot"), 0);
	steps(m, 2); /* F1010 reaches G */
	EXPECT_TABLES(m, "G,-,1111 | ");
	steps(m, 2);
	cr_expect_eq(m->status, SEM_OK);
	sem_free(m);
	unload(&rp);
}

Test(aware, the_special_cases_add_no_entries)
{
	/* an if without an else (the taken side is at the point: arrived at
	** once), a branch that does not diverge, and a loop whose back edge
	** shares the split's own point */
	Prog rp = load(".threads 4\n"
	                      "    c = tid < 2\n"
	                      "    bz c, R\n"
	                      "    x = 1\n"
	                      "R:  u = 0\n"
	                      "    bnz u, R2\n"
	                      "R2: i = tid\n"
	                      "L:  i = i - 1\n"
	                      "    bnz i, L\n"
	                      "    stop\n");
	Program *p = rp.p;
	Machine *m = machine(p, 4, NULL, 0);
	steps(m, 2);
	/* case 1: the threads at R (2, 3) have arrived, only the others split */
	EXPECT_TABLES(m, "@4,R,0011 | R,-,1111,0011");
	steps(m, 1);
	EXPECT_TABLES(m, "R,-,1111 | ");
	steps(m, 2);
	/* case 2: no divergence, no RT entry */
	EXPECT_TABLES(m, "R2,-,1111 | ");
	steps(m, 3); /* i = 0 1 2 3 → -1 0 1 2: thread 1 leaves the loop */
	EXPECT_TABLES(m, "L,@10,1101 | @10,-,1111,1101");
	steps(m, 2);
	/* case 3: thread 2 leaves at the same point, which is the split's own: no new entry */
	EXPECT_TABLES(m, "L,@10,1001 | @10,-,1111,1001");
	sem_free(m);
	unload(&rp);
}

static const char spin[] = ".threads 4\n"
                           ".data 0: 0 0\n"
                           "B:  old = atomcas(0, 0, 1)\n"
                           "    bnz old, B\n"
                           "C:  sync\n"
                           "    c = mem[1]\n"
                           "    c = c + 1\n"
                           "    mem[1] = c\n"
                           "    r = atomexch(0, 0)\n"
                           "C2: stop\n";

Test(aware, a_delayed_point_lets_the_spin_lock_finish)
{
	Prog rp = load(spin);
	Program *p = rp.p;
	Machine *m = machine(p, 4, "B:C2", 0);
	steps(m, 2); /* Figure 5.4, with thread 0 the winner (ascending lane order) */
	EXPECT_TABLES(m, "B,C2,1110; C,C2,0001 | C2,-,1111,1111");
	cr_expect_eq(field(m, 0, 1, "fifo"), 0, "the loop exit, not taken, runs first");
	sem_run(m, NULL, NULL);
	cr_expect_eq(m->status, SEM_OK, "%s", m->err.msg ? m->err.msg : "");
	sem_free(m);
	/* without the delay the winner waits at C for ever */
	m = machine(p, 4, NULL, 0);
	m->opt.max_steps = 3000;
	cr_expect_eq(sem_run(m, NULL, NULL), SEM_LIMIT);
	sem_free(m);
	unload(&rp);
}

Test(aware, a_reconvergence_times_out_after_T_steps_without_an_arrival)
{
	Prog rp = load(spin);
	Program *p = rp.p;
	for (int64_t T = 1; T <= 4; T++) {
		Machine *m = machine(p, 4, NULL, T);
		steps(m, 2); /* thread 0 has arrived at C (special case 1) */
		EXPECT_TABLES(m, "B,C,1110 | C,-,1111,1110");
		cr_expect_eq(field(m, 1, 0, "delay"), 0);
		steps(m, (int)T - 1); /* T - 1 steps without an arrival: still waiting */
		cr_expect_eq(field(m, 1, 0, "delay"), T - 1);
		char *before = tables(m);
		cr_expect(strstr(before, "| C,-,1111,1110") && !strstr(before, "0001"), "T = %lld: %s", (long long)T,
		          before);
		free(before);
		steps(m, 1);
		/* Figure 5.5: the arrived thread goes on alone, the entry waits for the rest */
		char *got = tables(m);
		cr_expect(strstr(got, "C,-,0001") && strstr(got, "| C,-,1110,1110"), "T = %lld: %s", (long long)T, got);
		free(got);
		sem_run(m, NULL, NULL);
		cr_expect_eq(m->status, SEM_OK, "T = %lld", (long long)T);
		sem_free(m);
	}
	unload(&rp);
}

Test(aware, a_timeout_of_any_is_a_choice_that_changes_nothing_until_the_step)
{
	Prog rp = load(spin);
	Program *p = rp.p;
	Machine *m = machine(p, 4, NULL, SEM_TIMEOUT_ANY);
	const Model *md = m->model;
	cr_expect_eq(md->ngroups(&m->warps[0]), 1, "nobody has arrived: no timeout");
	steps(m, 2);
	cr_assert_eq(md->ngroups(&m->warps[0]), 2, "the entry at C can time out");
	cr_expect_neq(sem_choice_key(m, 0, 1), sem_choice_key(m, 0, 0), "a timeout is a label of its own");
	Buf a = {0}, b = {0};
	sem_pack(m, &a);
	md->choose(m, &m->warps[0], 1);
	sem_pack(m, &b);
	cr_expect(a.len == b.len && !memcmp(a.s, b.s, a.len), "choose changed the state");
	/* run never fires it: the winner waits */
	md->choose(m, &m->warps[0], 0);
	steps(m, 10);
	EXPECT_TABLES(m, "B,C,1110 | C,-,1111,1110");
	/* the schedule's alternative 1 fires it before the step */
	sem_step_group(m, 0, 1, NULL);
	char *got = tables(m);
	cr_expect(strstr(got, "C,-,0001") != NULL, "%s", got);
	free(got);
	buf_free(&a);
	buf_free(&b);
	sem_free(m);
	unload(&rp);
}

Test(aware, a_divergent_barrier_blocks_each_split_until_all_arrive)
{
	Prog rp = load(".threads 4\n"
	                      "    p = tid % 2\n"
	                      "    bz p, C\n"
	                      "B:  mem[tid] = 1\n"
	                      "    barrier\n"
	                      "    jump D\n"
	                      "C:  mem[tid] = 2\n"
	                      "    barrier\n"
	                      "D:  r = mem[0]\n"
	                      "    stop\n");
	Program *p = rp.p;
	Machine *m = machine(p, 4, NULL, 0);
	steps(m, 4); /* B's split reaches its barrier: BL, past it, at the tail */
	cr_expect_eq(m->warps[0].status, WARP_RUN, "the other split runs");
	cr_expect_eq(field(m, 0, 1, "bl"), 1);
	cr_expect_eq(field(m, 0, 1, "fifo"), 1);
	EXPECT_TABLES(m, "C,D,0101; @6,D,1010 | D,-,1111,1111");
	steps(m, 2); /* C's split arrives too: the barrier completes */
	cr_expect_eq(field(m, 0, 0, "bl"), 0);
	sem_run(m, NULL, NULL);
	cr_expect_eq(m->status, SEM_OK, "%s", m->err.msg ? m->err.msg : "");
	sem_free(m);
	/* a barrier only one side reaches: the other side waits at the point */
	Prog rq = load(".threads 4\n"
	                      "    p = tid % 2\n"
	                      "    bz p, D\n"
	                      "    barrier\n"
	                      "D:  stop\n");
	Program *q = rq.p;
	m = machine(q, 4, NULL, 0);
	steps(m, 3);
	cr_expect_eq(m->warps[0].status, WARP_BARRIER);
	cr_expect_eq(sem_schedule(m), -1);
	cr_expect_eq(m->status, SEM_DEADLOCK);
	sem_free(m);
	unload(&rq);
	unload(&rp);
}

static const char *delay_error(const Program *p, const char *spec)
{
	static char msg[512];
	SemOptions so = aware_options(0, spec, 0);
	Diags d;
	diag_init(&d, "a.simd", NULL, 0);
	Machine *m = sem_new(p, &so, &d);
	snprintf(msg, sizeof msg, "%s", d.n ? d.v[0].msg : "");
	cr_expect_eq(m == NULL, d.nerrors > 0);
	sem_free(m);
	diag_free(&d);
	return msg;
}

Test(aware, delayed_points_are_checked_against_the_program)
{
	Prog rp = load(spin);
	Program *p = rp.p;
	cr_expect_str_eq(delay_error(p, "B:C2"), "");
	cr_expect_str_eq(delay_error(p, "@4:@10"), "", "@LINE names the branch or the point");
	cr_expect(strstr(delay_error(p, "BB:C2"), "did you mean 'B'?"), "%s", delay_error(p, "BB:C2"));
	cr_expect(strstr(delay_error(p, "B:C3"), "'C2'"), "%s", delay_error(p, "B:C3"));
	cr_expect(strstr(delay_error(p, "C:C2"), "not a conditional branch"), "%s", delay_error(p, "C:C2"));
	cr_expect(strstr(delay_error(p, "B:B"), "must post-dominate"));
	cr_expect(strstr(delay_error(p, "B:C2,B:C"), "twice"));
	cr_expect(strstr(delay_error(p, "B"), "BRANCH:POINT"));
	cr_expect(strstr(delay_error(p, "B:@99"), "line 99"));
	unload(&rp);
}

static ExploreResult *explore_aware(const Program *p, int32_t threads, const char *delay, int64_t timeout)
{
	ExploreOptions o = {0};
	o.sem = aware_options(threads, delay, timeout);
	Diags d;
	diag_init(&d, "a.simd", NULL, 0);
	ExploreResult *r = explore_run(p, &o, &d);
	cr_assert_not_null(r);
	diag_free(&d);
	return r;
}

Test(aware, the_explorer_takes_a_timeout_that_stays_possible)
{
	Prog rp = load(spin);
	Program *p = rp.p;
	ExploreResult *r = explore_aware(p, 3, NULL, 0);
	cr_expect_eq(r->verdict, EXPLORE_LIVELOCK, "no cure: %s", explore_verdict_name(r->verdict));
	explore_free(r);
	r = explore_aware(p, 3, "B:C2", 0);
	cr_expect_eq(r->verdict, EXPLORE_TERMINATES, "delayed: %s", explore_verdict_name(r->verdict));
	explore_free(r);
	/* spinning while the winner's timeout is never taken is unfair */
	r = explore_aware(p, 3, NULL, SEM_TIMEOUT_ANY);
	cr_expect_eq(r->verdict, EXPLORE_TERMINATES_FAIR, "timeout any: %s", explore_verdict_name(r->verdict));
	explore_free(r);
	/* with a count, the timing is exact and part of the state: one schedule */
	r = explore_aware(p, 3, NULL, 2);
	cr_expect_eq(r->verdict, EXPLORE_TERMINATES, "timeout 2: %s", explore_verdict_name(r->verdict));
	explore_free(r);
	unload(&rp);
}

Test(aware, a_livelock_only_a_timeout_reaches_replays_with_its_choice)
{
	/* thread 0 waits at R for thread 1, which sets the flag before R; a
	** timeout lets thread 0 read the flag too early and spin for ever */
	Prog rp = load(".threads 2\n"
	                      ".data 0: 0\n"
	                      "    q = tid == 0\n"
	                      "    bnz q, R\n"
	                      "    x = 0\n"
	                      "    bz x, S\n"
	                      "S:  mem[0] = 1\n"
	                      "R:  sync\n"
	                      "    f = mem[0]\n"
	                      "    bz f, loop\n"
	                      "    stop\n"
	                      "loop: jump loop\n");
	Program *p = rp.p;
	ExploreResult *r = explore_aware(p, 2, NULL, 0);
	cr_expect_eq(r->verdict, EXPLORE_TERMINATES);
	explore_free(r);
	r = explore_aware(p, 2, NULL, SEM_TIMEOUT_ANY);
	cr_assert_eq(r->verdict, EXPLORE_LIVELOCK, "%s", explore_verdict_name(r->verdict));
	cr_assert_not_null(r->groups);
	bool timed_out = false;
	for (int32_t i = 0; i < r->ntrace; i++)
		timed_out |= r->groups[i] >= 1;
	cr_expect(timed_out, "the schedule takes a timeout");
	SemOptions so = aware_options(2, NULL, SEM_TIMEOUT_ANY);
	Buf b = {0};
	cr_expect(report_explore_trace(&b, p, &so, r), "the counterexample replays:\n%s", buf_str(&b));
	buf_free(&b);
	explore_free(r);
	unload(&rp);
}
