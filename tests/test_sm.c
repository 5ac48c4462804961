/*
** test_sm.c — the SM model (src/sm/, src/lower.c) against the checkable
** expectations of ../notes/sm-model.md §6, each numbered as there, with
** the configuration it needs set explicitly (so the tests do not depend
** on the default preset's values).
*/
#include "smlib.h"

/* Test 20's if/else: one warp of 32, `tid < 16`, ten independent
** instructions a side, a jump over the else, and a sync at the join or not. */
static void if_else_src(Buf *src, bool sync)
{
	buf_puts(src, ".threads 32\n       p = tid < 16\n       bz p, else\n");
	for (int i = 0; i < 10; i++)
		buf_printf(src, "       a%d = tid + %d\n", i, i);
	buf_puts(src, "       jump join\n");
	for (int i = 0; i < 10; i++)
		buf_printf(src, "%s b%d = tid - %d\n", i == 0 ? "else:  " : "       ", i, i);
	buf_puts(src, sync ? "join:  sync\n       stop\n" : "join:  stop\n");
}

/* 1: a dependent chain of N adds costs N × L (the configured latency is
** the dependent-issue latency, decision 2): the slope between N and 2N. */
Test(sm, e1_dependent_chain_costs_n_times_latency)
{
	SmConfig c = config();
	for (int L = 2; L <= 16; L *= 2) { /* L >= II (2): else the unit's interval bounds the chain */
		c.lat_int[SM_ADD] = L;
		char *a = adds(50, true, 32), *b = adds(100, true, 32);
		uint64_t ca = cycles_of(a, &c), cb = cycles_of(b, &c);
		cr_expect_eq(cb - ca, 50u * (uint64_t)L, "L=%d: slope %llu", L, (unsigned long long)(cb - ca));
		free(a);
		free(b);
	}
}

/* 2: independent adds in one warp cost the initiation interval each (the
** warp's scheduler issues one per cycle at most). */
Test(sm, e2_independent_instructions_cost_the_initiation_interval)
{
	SmConfig c = config();
	for (int ii = 1; ii <= 4; ii++) {
		c.ii_int[SM_ADD] = ii;
		char *a = adds(50, false, 32), *b = adds(100, false, 32);
		uint64_t ca = cycles_of(a, &c), cb = cycles_of(b, &c);
		cr_expect_eq(cb - ca, 50u * (uint64_t)ii, "II=%d: slope %llu", ii, (unsigned long long)(cb - ca));
		free(a);
		free(b);
	}
}

/* 3: K warps on one scheduler, each a dependent chain: warp IPC =
** min(K/L, 1/II); issue saturates once K >= L/II. 18: with one warp per
** scheduler (4 schedulers, 4 warps) the SM IPC is 4/L. */
Test(sm, e3_e18_latency_hiding_by_warps)
{
	SmConfig c = config();
	c.num_sched = 1;
	c.sub_core = false;
	c.num_int = 1;
	c.lat_int[SM_ADD] = 8;
	c.ii_int[SM_ADD] = 2;
	for (int k = 1; k <= 8; k *= 2) {
		char *s = adds(400, true, 32 * k);
		Buf src = {0};
		buf_printf(&src, ".warpsize 32\n%s", s);
		Sim x = sim(buf_str(&src), &c, NULL);
		double ipc = (double)x.r->warp_insn / (double)x.r->cycles;
		double want = k / 8.0 < 0.5 ? k / 8.0 : 0.5;
		cr_expect(ipc > want * 0.99 && ipc < want * 1.01, "K=%d: warp IPC %.4f, want %.4f", k, ipc, want);
		done(&x);
		buf_free(&src);
		free(s);
	}
	/* 18: four schedulers, a warp each, L = 4: SM warp IPC 1.0 */
	c = config();
	char *s = adds(400, true, 128);
	Buf src = {0};
	buf_printf(&src, ".warpsize 32\n%s", s);
	Sim x = sim(buf_str(&src), &c, NULL);
	double ipc = (double)x.r->warp_insn / (double)x.r->cycles;
	cr_expect(ipc > 0.99 && ipc < 1.01, "4 schedulers × 1 warp: IPC %.4f", ipc);
	done(&x);
	/* ... and on one scheduler with its one unit (4 warps, II = 2): 0.5 */
	c.num_sched = 1;
	c.sub_core = false;
	c.num_int = 1;
	x = sim(buf_str(&src), &c, NULL);
	ipc = (double)x.r->warp_insn / (double)x.r->cycles;
	cr_expect(ipc > 0.99 * 0.5 && ipc < 0.5 * 1.01, "1 scheduler × 4 warps: IPC %.4f", ipc);
	done(&x);
	buf_free(&src);
	free(s);
}

/* 4: the SM's warp IPC never exceeds the schedulers' issue bound, nor
** integer work units / II (4 units, II 2: 2 per cycle), however many warps. */
Test(sm, e4_issue_bound)
{
	SmConfig c = config();
	char *s = adds(200, false, 32 * 16);
	Buf src = {0};
	buf_printf(&src, ".warpsize 32\n%s", s);
	Sim x = sim(buf_str(&src), &c, NULL);
	double ipc = (double)x.r->warp_insn / (double)x.r->cycles;
	cr_expect(ipc <= 2.0 + 1e-9, "warp IPC %.4f above 4 units / II 2", ipc);
	cr_expect(ipc > 1.9, "warp IPC %.4f: the INT units should saturate", ipc);
	done(&x);
	buf_free(&src);
	free(s);
}

/* 6: a chain of N dependent divisions runs on the SFU at the DIV latency
** (QV100: 145) per link. */
Test(sm, e6_division_chain_on_the_sfu)
{
	SmConfig c = config();
	const char *fmt = ".threads 32\n       x = tid + 1000000\n%s       stop\n";
	Buf a = {0}, b = {0}, la = {0}, lb = {0};
	for (int i = 0; i < 10; i++)
		buf_puts(&la, "       x = x / 1\n");
	for (int i = 0; i < 20; i++)
		buf_puts(&lb, "       x = x / 1\n");
	buf_printf(&a, fmt, buf_str(&la));
	buf_printf(&b, fmt, buf_str(&lb));
	uint64_t ca = cycles_of(buf_str(&a), &c), cb = cycles_of(buf_str(&b), &c);
	cr_expect_eq(cb - ca, 10u * 145u, "slope %llu", (unsigned long long)(cb - ca));
	buf_free(&a);
	buf_free(&b);
	buf_free(&la);
	buf_free(&lb);
}

/* 19: every scheduler-cycle is counted once: Stall + W0_Idle +
** W0_Scoreboard + Σ Wk = schedulers × gpu_sim_cycle; and per warp, its
** states add up to the cycles. */
Test(sm, e19_stall_accounting_conserves)
{
	SmConfig c = config();
	const char *progs[] = {SUM_TRIANGLE, ".threads 32\n       x = tid\n       y = x * x\n       z = y / 3\n"
	                                     "       mem[tid] = z\n       w = mem[tid]\n       stop\n"};
	for (int k = 0; k < 2; k++) {
		Buf src = {0};
		buf_printf(&src, "%s%s", k == 0 ? ".threads 8\n.warpsize 4\n.param c = 2\n.param v = 16\n.memory zero\n" : "", progs[k]);
		Sim x = sim(buf_str(&src), &c, NULL);
		cr_assert_eq(x.r->status, SM_OK);
		uint64_t sum = x.r->stall + x.r->idle + x.r->scoreboard;
		for (int32_t i = 1; i <= x.r->warpsize; i++)
			sum += x.r->occupancy[i];
		cr_expect_eq(sum, (uint64_t)c.num_sched * x.r->cycles, "program %d", k);
		for (int32_t w = 0; w < x.r->nwarps; w++) {
			uint64_t ws = 0;
			for (int s = 0; s < WS__COUNT; s++)
				ws += x.r->warps[w].cycles[s];
			cr_expect_eq(ws, x.r->cycles, "warp %d", w);
		}
		done(&x);
		buf_free(&src);
	}
}

/* 20 and 30: if/else on tid < 16 in one warp of 32, then-length a and
** else-length b (independent instructions, a jump over the else, a sync at
** the join): issued = 1 + 1 + a + 1 + b + 1 (+ the branch's operand and
** stop), thread instructions and SIMD efficiency as the note derives. */
Test(sm, e20_e30_if_else_cost)
{
	SmConfig c = config();
	Buf src = {0};
	if_else_src(&src, true);
	Sim x = sim(buf_str(&src), &c, NULL);
	cr_assert_eq(x.r->status, SM_OK);
	/* p, bz, 10 then + jump, 10 else, sync, stop */
	cr_expect_eq(x.r->warp_insn, 1u + 1 + 10 + 1 + 10 + 1 + 1);
	cr_expect_eq(x.r->thread_insn, 32u + 32 + 16 * 11 + 16 * 10 + 32 + 32);
	cr_expect_eq(x.r->occupancy[16], 21u);
	cr_expect_eq(x.r->occupancy[32], 4u);
	/* 30: gpu_ipc = warp_ipc × 32 × SIMD efficiency */
	double eff = (double)x.r->thread_insn / (32.0 * (double)x.r->warp_insn);
	double gpu_ipc = (double)x.r->thread_insn / (double)x.r->cycles;
	double warp_ipc = (double)x.r->warp_insn / (double)x.r->cycles;
	cr_expect(gpu_ipc > warp_ipc * 32 * eff * 0.999999 && gpu_ipc < warp_ipc * 32 * eff * 1.000001);
	done(&x);
	buf_free(&src);
}

/* 21: for every example that runs to its end, the issue count is the
** interpreter's step count, and the final shared memory, variables and
** SIMD efficiency are the interpreter's, under ipdom and sync. */
Test(sm, e21_issue_count_is_the_interpreters_steps, .init = watchdog_600)
{
	int n = 0, compared = 0;
	char **files = example_files(&n);
	const char *model_names_[] = {"ipdom", "sync"};
	for (int i = 0; i < n; i++) {
		const char *path = files[i];
		size_t len = 0;
		char *src = read_file(path, &len);
		cr_assert(src);
		Diags d;
		diag_init(&d, path, src, len);
		Program *p = ir_load(path, src, len, &d);
		if (d.nerrors || p->has_gsa) {
			ir_free(p);
			diag_free(&d);
			free(src);
			continue;
		}
		SmCode *code = lower(p, &d);
		for (int k = 0; k < 2; k++) {
			SemOptions so = {.model = model_find(model_names_[k])};
			Machine *m = sem_new(p, &so, &d);
			cr_assert(m);
			sem_run(m, NULL, NULL);
			if (m->status != SEM_OK) {
				sem_free(m);
				continue;
			}
			SmConfig c = config();
			SmResult *r = sm_run(code, &c, &so, &d);
			cr_assert(r);
			cr_expect_eq(r->status, SM_OK, "%s under %s: %s", files[i], model_names_[k], sm_status_name(r->status));
			cr_expect_eq(r->warp_insn, m->steps, "%s under %s: %llu issued, %llu steps", files[i],
			             model_names_[k], (unsigned long long)r->warp_insn, (unsigned long long)m->steps);
			cr_expect_eq(r->thread_insn, m->thread_instructions, "%s", files[i]);
			Buf a = {0}, b = {0};
			sem_pack(m, &a);
			sem_pack(r->m, &b);
			cr_expect(a.len == b.len && !memcmp(buf_str(&a), buf_str(&b), a.len),
			          "%s under %s: the final state differs from the interpreter's", files[i], model_names_[k]);
			buf_free(&a);
			buf_free(&b);
			compared++;
			sm_result_free(r);
			sem_free(m);
		}
		lower_free(code);
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	free_names(files, n);
	cr_expect_geq(compared, 40, "only %d runs compared", compared);
}

/* 22: thread t iterates t + 1 times, 32 threads, a body of B instructions:
** the body issues 32·B times with 528·B thread instructions. */
Test(sm, e22_divergent_loop)
{
	SmConfig c = config();
	const int B = 3;
	Buf src = {0};
	buf_puts(&src, ".threads 32\n       i = 0\nloop:  ");
	for (int k = 0; k < B; k++)
		buf_printf(&src, "%sv%d = i + %d\n", k ? "       " : "", k, k);
	buf_puts(&src, "       i = i + 1\n       q = i <= tid\n       bnz q, loop\n       sync\n       stop\n");
	Sim x = sim(buf_str(&src), &c, NULL);
	cr_assert_eq(x.r->status, SM_OK);
	/* per trip: B body + i + q + bnz = B + 3 warp instructions; 32 trips */
	cr_expect_eq(x.r->warp_insn, 1u + 32u * (B + 3) + 2);
	cr_expect_eq(x.r->thread_insn, 32u + 528u * (B + 3) + 64);
	cr_expect_leq(x.r->m->max_depth, 2);
	done(&x);
	buf_free(&src);
}

/* 25: the divergent barrier (T4) under ipdom: nothing commits after both
** sides wait, and the commit watchdog reports a deadlock at the first
** 50 000-cycle check after the last commit. Under AWARE (the BL bit) it
** completes. */
Test(sm, e25_divergent_barrier_and_the_commit_watchdog)
{
	SmConfig c = config();
	const char *src = ".threads 4\nl0: p = tid % 2\nl1: bz p, l5\nl2: mem[tid] = 1\nl3: barrier\nl4: jump l7\n"
	                  "l5: mem[tid] = 2\nl6: barrier\nl7: sync\nl8: stop\n";
	Sim x = sim(src, &c, NULL);
	cr_expect_eq(x.r->status, SM_DEADLOCK);
	cr_expect_geq(x.r->cycles, x.r->last_commit + 50000);
	cr_expect_leq(x.r->cycles, x.r->last_commit + 100000);
	cr_expect_eq(x.r->cycles % 50000, 0);
	done(&x);
	SemOptions so = {.model = model_find("aware")};
	x = sim(src, &c, &so);
	cr_expect_eq(x.r->status, SM_OK);
	done(&x);
}

/* 26: the spin lock (T1) under ipdom keeps committing (the commit watchdog
** never fires) and the progress watchdog reports a livelock naming the
** spinning pc and lanes; under AWARE with the delayed point, AWARE with a
** timeout of 10, its and mimd it completes with the counter = threads;
** with warps of one thread it completes under ipdom. */
Test(sm, e26_spin_lock_livelock_and_its_cures)
{
	SmConfig c = config();
	const char *src = ".threads 4\n.data 0: 0 0\nlock: old = atomcas(0, 0, 1)\n      bnz old, lock\n      sync\n"
	                  "      x = mem[1]\n      x = x + 1\n      mem[1] = x\n      r = atomexch(0, 0)\n      stop\n";
	Sim x = sim(src, &c, NULL);
	cr_expect_eq(x.r->status, SM_LIVELOCK);
	cr_expect_gt(x.r->warp_insn, 1000u, "it kept issuing");
	const char *why = buf_str(&x.r->why);
	cr_expect(strstr(why, "warp 0 spins at") && strstr(why, "lock") && strstr(why, "with threads {1-3}") &&
	              strstr(why, "threads {0} wait for them"),
	          "%s", why);
	done(&x);
	struct {
		const char *model, *delay;
		int64_t timeout;
		int32_t warpsize;
	} cures[] = {{"aware", "@4:@10", 0, 0}, {"aware", NULL, 10, 0}, {"its", NULL, 0, 0}, {"mimd", NULL, 0, 0},
	             {"ipdom", NULL, 0, 1}};
	for (size_t k = 0; k < sizeof cures / sizeof *cures; k++) {
		SemOptions so = {.model = model_find(cures[k].model), .aware_delay = cures[k].delay,
		                 .aware_timeout = cures[k].timeout, .warpsize = cures[k].warpsize};
		x = sim(src, &c, &so);
		cr_expect_eq(x.r->status, SM_OK, "%s: %s", cures[k].model, sm_status_name(x.r->status));
		Num v;
		cr_expect(mem_get(&x.r->m->shared, 1, &v) && !v.z && v.i == 4, "%s: the counter", cures[k].model);
		done(&x);
	}
}

/* 32: the same program and configuration give byte-identical statistics. */
Test(sm, e32_determinism)
{
	SmConfig c = config();
	Buf a = {0}, b = {0};
	for (int k = 0; k < 2; k++) {
		Sim x = sim(".threads 64\n.warpsize 16\n.param c = 3\n" SUM_TRIANGLE, &c, NULL);
		Json j;
		json_init(&j, k ? &b : &a);
		sm_report_json(&j, x.r, &c);
		done(&x);
	}
	cr_expect(a.len == b.len && !memcmp(buf_str(&a), buf_str(&b), a.len));
	buf_free(&a);
	buf_free(&b);
}

/* GTO against LRR: with identical ALU-only warps the cycle counts are
** equal (16, second half). */
Test(sm, e16_lrr_and_gto_agree_on_identical_alu_warps)
{
	SmConfig c = config();
	char *s = adds(100, true, 32 * 8);
	Buf src = {0};
	buf_printf(&src, ".warpsize 32\n%s", s);
	uint64_t lrr = cycles_of(buf_str(&src), &c);
	snprintf(c.scheduler, sizeof c.scheduler, "gto");
	uint64_t gto = cycles_of(buf_str(&src), &c);
	cr_expect_eq(lrr, gto);
	buf_free(&src);
	free(s);
}

/* Lowering: registers by first definition, op classes, units. */
Test(sm, lowering)
{
	Prog t = load(".param n = 3\n       x = tid * n\n       y = x / 2\n       z = min(x, y)\n       mem[x] = z\n"
	              "       w = mem[y]\n       bz w, end\n       x = x + 1\nend:   stop\n");
	Diags d;
	diag_init(&d, "t.simd", t.src, strlen(t.src));
	SmCode *c = lower(t.p, &d);
	cr_assert(c);
	cr_expect_eq(c->nregs, 4); /* x y z w; n is a parameter */
	cr_expect_eq(c->ins[0].oclass, SM_MUL);
	cr_expect_eq(c->ins[0].nsrc, 0, "tid and n are not registers the scoreboard tracks");
	cr_expect_eq(c->ins[1].unit, UNIT_SFU);
	cr_expect_eq(c->ins[2].oclass, SM_MAX);
	cr_expect_eq(c->ins[3].unit, UNIT_MEM);
	cr_expect_eq(c->ins[3].nsrc, 2);
	cr_expect_eq(c->ins[3].dst, -1);
	cr_expect(c->ins[5].control);
	cr_expect_eq(c->ins[5].rpc, 7);
	lower_free(c);
	diag_free(&d);
	unload(&t);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* 10: a warp's 32-lane shared load with word stride s costs gcd(s, 32)
** LD/ST cycles (bank = word mod 32), counted as gcd − 1 bank-conflict
** cycles, and its result comes as much later; all lanes reading one word
** is a broadcast: 1. */
Test(sm, e10_shared_memory_bank_conflicts)
{
	SmConfig c = config();
	c.shmem_num_banks = 32;
	c.shmem_warp_parts = 1;
	c.shmem_limited_broadcast = false;
	uint64_t base = 0;
	for (int s = 0; s <= 32; s++) {
		Buf src = {0};
		buf_printf(&src, ".threads 32\n.memory zero\n       a = tid * %d\n       x = mem[a]\n       y = x + 1\n"
		           "       stop\n", s);
		Sim x = sim(buf_str(&src), &c, NULL);
		cr_assert_eq(x.r->status, SM_OK);
		uint64_t want = s == 0 ? 1 : gcd((uint64_t)s, 32);
		cr_expect_eq(x.r->bank_conflict_cycles, want - 1, "stride %d: %llu conflict cycles", s,
		             (unsigned long long)x.r->bank_conflict_cycles);
		if (s == 1)
			base = x.r->cycles;
		if (s > 1)
			cr_expect_eq(x.r->cycles, base + want - 1, "stride %d: the use waits for the slower load", s);
		done(&x);
		buf_free(&src);
	}
}

/* 12: v = atominc(c) by 32 lanes on one cell keeps the LD/ST unit 32
** cycles and returns 1..32 in lane order; on 32 cells in 32 banks, 1. The
** memory is the interpreter's. */
Test(sm, e12_atomic_serialisation)
{
	SmConfig c = config();
	Sim x = sim(".threads 32\n.memory zero\n       v = atominc(0)\n       stop\n", &c, NULL);
	cr_assert_eq(x.r->status, SM_OK);
	cr_expect_eq(x.r->bank_conflict_cycles, 31u);
	Num v;
	cr_expect(mem_get(&x.r->m->shared, 0, &v) && !v.z && v.i == 32);
	for (int32_t t = 0; t < 32; t++) {
		Num lane;
		cr_expect(sem_get(x.r->m, ir_find_var(x.t.p, "v"), t, &lane) && lane.i == t + 1, "lane %d", t);
	}
	done(&x);
	x = sim(".threads 32\n.memory zero\n       v = atominc(tid)\n       stop\n", &c, NULL);
	cr_expect_eq(x.r->bank_conflict_cycles, 0u);
	done(&x);
}

/* 29: GTO starvation. One scheduler; warps 0..18 (the older) spin on a
** flag in shared memory, warp 19 (the youngest) sets it. The spinners
** alone keep the scheduler busy while each waits for its load, so greedy
** then oldest never reaches warp 19: the progress watchdog reports a
** livelock (oldest-first too); loose round robin reaches it and ends, and
** so do GTO with its ages rotated every 500 cycles and GLRR (ElTantawy's
** remedies, seed 004 §1.5). */
Test(sm, e29_gto_starvation)
{
	SmConfig c = config();
	c.num_sched = 1;
	c.sub_core = false;
	const char *src = ".warpsize 32\n.threads 640\n.memory zero\n       w = warpid\n       p = w == 19\n"
	                  "       bnz p, setter\nspin:  f = mem[0]\n       q = f == 0\n       bnz q, spin\n"
	                  "       jump end\nsetter: x = 1\n       mem[0] = x\nend:   sync\n       stop\n";
	const char *scheds[] = {"gto", "old", "lrr", "gto_rotate:500", "glrr"};
	for (int k = 0; k < 5; k++) {
		snprintf(c.scheduler, sizeof c.scheduler, "%s", scheds[k]);
		Sim x = sim(src, &c, NULL);
		cr_expect_eq(x.r->status, k < 2 ? SM_LIVELOCK : SM_OK, "%s: %s", scheds[k], sm_status_name(x.r->status));
		if (k < 2)
			cr_expect_leq(x.r->warps[19].warp_insn, 3u, "%s: warp 19 issued past its branch", scheds[k]);
		done(&x);
	}
}

/* 7: -musimd_gpgpusim_stage_overhead k adds k cycles per dependent link
** and nothing to independent instructions (they wait for no result). */
Test(sm, e7_stage_overhead_knob)
{
	SmConfig c = config();
	char *dep = adds(50, true, 32), *ind = adds(50, false, 32);
	uint64_t d0 = cycles_of(dep, &c), i0 = cycles_of(ind, &c);
	c.stage_overhead = 3;
	uint64_t d3 = cycles_of(dep, &c), i3 = cycles_of(ind, &c);
	/* the 50 links, and the drain of the last result */
	cr_expect_eq(d3 - d0, 50u * 3 + 3, "dependent: %llu more", (unsigned long long)(d3 - d0));
	cr_expect_eq(i3 - i0, 3u, "independent: %llu more (the drain only)", (unsigned long long)(i3 - i0));
	free(dep);
	free(ind);
}

/* The pcs a run issues, in order (sm_run_traced's hook). */
typedef struct Issued {
	int32_t pc[256];
	int32_t n;
} Issued;

static void record_issue(void *ctx, int64_t cycle, int32_t sched, const Machine *m, const StepInfo *s)
{
	(void)cycle, (void)sched, (void)m;
	Issued *r = ctx;
	if (r->n < 256)
		r->pc[r->n++] = s->pc;
}

/* 23: in test 20's if/else, -musimd_path_order taken runs the taken side
** (bz's target: the else side) first, as GPGPU-Sim does (it pushes the
** not-taken entry first); fallthrough runs the then side first; with
** latency-free sides of equal length the cycle counts are equal. */
Test(sm, e23_path_order)
{
	Buf src = {0};
	if_else_src(&src, false);
	uint64_t cycles[2];
	for (int taken = 0; taken < 2; taken++) {
		SmConfig c = config();
		c.taken_first = taken;
		Prog t = load(buf_str(&src));
		Diags d;
		diag_init(&d, "t.simd", t.src, strlen(t.src));
		SmCode *code = lower(t.p, &d);
		cr_assert(code);
		Issued is = {.n = 0};
		SmResult *r = sm_run_traced(code, &c, &(SemOptions){0}, record_issue, &is, &d);
		cr_assert(r && r->status == SM_OK);
		cr_assert_gt(is.n, 2);
		cr_expect_eq(is.pc[1], 1, "the branch issues second");
		int32_t then_pc = 2, else_pc = 2 + 10 + 1; /* a0; b0 after the 10 a's and the jump */
		cr_expect_eq(is.pc[2], taken ? else_pc : then_pc, "taken_first=%d: pc %d after the branch", taken,
		             is.pc[2]);
		cycles[taken] = r->cycles;
		sm_result_free(r);
		lower_free(code);
		diag_free(&d);
		unload(&t);
	}
	cr_expect_eq(cycles[0], cycles[1], "cycles %llu vs %llu", (unsigned long long)cycles[0],
	             (unsigned long long)cycles[1]);
	buf_free(&src);
}

/* What test 27 watches of AWARE's tables after each issue of warp 0. */
typedef struct AwareLog {
	int64_t cycle[512];
	int32_t nst[512];       /* ST entries */
	uint64_t rec[512], pend[512]; /* the RT entry's masks (4 threads: one word), 0 without one */
	uint64_t last_st[512];  /* the mask of the ST entry with the highest slot */
	int32_t n;
} AwareLog;

static int32_t field_index(const CtlTable *t, const char *key)
{
	for (int32_t i = 0; i < t->nfields; i++)
		if (!strcmp(t->fields[i].key, key))
			return i;
	cr_assert_fail("no field %s", key);
	return -1;
}

static void log_aware(void *ctx, int64_t cycle, int32_t sched, const Machine *m, const StepInfo *s)
{
	(void)sched, (void)s;
	AwareLog *g = ctx;
	if (g->n == 512)
		return;
	const Model *md = m->model;
	const Warp *w = &m->warps[0];
	int32_t i = g->n++, slot = field_index(&md->tables[0], "slot"), mask = field_index(&md->tables[0], "mask");
	int32_t rec = field_index(&md->tables[1], "reconvergence"), pend = field_index(&md->tables[1], "pending");
	g->cycle[i] = cycle;
	g->nst[i] = 0;
	g->rec[i] = g->pend[i] = 0;
	int32_t best = -1;
	for (int32_t k = 0; k < w->ctl.n; k++) {
		CtlView v;
		md->view(w, k, &v);
		if (md->table_of(w, k) == 1) {
			g->rec[i] = v.set[rec][0];
			g->pend[i] = v.set[pend][0];
		} else {
			g->nst[i]++;
			if (v.pc[slot] > best) {
				best = v.pc[slot];
				g->last_st[i] = v.set[mask][0];
			}
		}
	}
}

/* 27: AWARE with TIMEOUT = T cycles (-gpgpu_simd_rec_time_out) and no
** delayed reconvergence on the spin lock (T1): T cycles after the last
** update of the RT entry's pending mask, the ST gains a split of the
** threads that arrived and the entry's mask drops to the pending ones
** (Fig. 5.5's before and after) — at the warp's first issue from then on,
** and not before. */
Test(sm, e27_aware_timeout_in_cycles)
{
	char path[512];
	snprintf(path, sizeof path, "%s/spin_lock.simd", examples_dir());
	size_t len = 0;
	char *src = read_file(path, &len);
	cr_assert(src);
	for (int64_t T = 10; T <= 1000; T *= 10) {
		SmConfig c = config();
		snprintf(c.reconvergence, sizeof c.reconvergence, "aware");
		c.aware_timeout = T;
		Prog t = load(src);
		Diags d;
		diag_init(&d, "t.simd", t.src, strlen(t.src));
		SmCode *code = lower(t.p, &d);
		AwareLog *g = calloc(1, sizeof *g);
		SmResult *r = sm_run_traced(code, &c, &(SemOptions){0}, log_aware, g, &d);
		cr_assert(r);
		cr_expect_eq(r->status, SM_OK, "T=%lld: %s", (long long)T, sm_status_name(r->status));
		int timeouts = 0;
		int64_t update = -1; /* the cycle of the last pending-mask update */
		for (int32_t i = 1; i < g->n; i++) {
			if (g->pend[i] != g->pend[i - 1] || (g->rec[i] && !g->rec[i - 1])) {
				update = g->cycle[i];
				continue;
			}
			bool timed_out = g->rec[i - 1] && g->rec[i] == g->pend[i] && g->rec[i - 1] != g->pend[i - 1];
			if (timed_out) {
				timeouts++;
				cr_expect_geq(g->cycle[i], update + T, "T=%lld: timed out at %lld, update at %lld", (long long)T,
				              (long long)g->cycle[i], (long long)update);
				cr_expect_lt(g->cycle[i - 1], update + T, "T=%lld: an issue at %lld did not time out",
				             (long long)T, (long long)g->cycle[i - 1]);
				cr_expect_eq(g->nst[i], g->nst[i - 1] + 1, "T=%lld: the ST gains a split", (long long)T);
				cr_expect_eq(g->last_st[i] & ~g->last_st[i - 1], g->rec[i - 1] & ~g->pend[i - 1],
				             "T=%lld: the new split holds the arrived threads", (long long)T);
			} else if (g->rec[i - 1] && g->rec[i] != g->pend[i]) {
				cr_expect_lt(g->cycle[i], update + T, "T=%lld: no timeout at %lld (update at %lld)", (long long)T,
				             (long long)g->cycle[i], (long long)update);
			}
		}
		cr_expect_eq(timeouts, 3, "T=%lld: %d timeouts (one per winner but the last)", (long long)T, timeouts);
		Num v;
		cr_expect(mem_get(&r->m->shared, 1, &v) && !v.z && v.i == 4, "T=%lld: the counter", (long long)T);
		free(g);
		sm_result_free(r);
		lower_free(code);
		diag_free(&d);
		unload(&t);
	}
	free(src);
}

/* The labelled instructions a run issues, in order: "A C B ..." */
typedef struct Labels {
	Buf b;
} Labels;

static void record_label(void *ctx, int64_t cycle, int32_t sched, const Machine *m, const StepInfo *s)
{
	(void)cycle, (void)sched;
	Labels *l = ctx;
	const char *name = ir_label_of(m->prog, s->pc);
	if (name)
		buf_printf(&l->b, "%s%s", l->b.len ? " " : "", name);
}

/* 24: Fig. 5.2's nested divergence (laid out as tests/test_aware.c has it,
** whose tables that test checks step by step) runs under AWARE on the SM
** in the figure's order C, B, E, D, F, G — the splits in FIFO order —
** where the IPDOM stack runs C, E, D, F, B, G (depth first); with no
** synchronisation the issue count is IPDOM's (only the order changes), and
** the SM's issues are the interpreter's steps one for one. */
Test(sm, e24_aware_nested_divergence_order)
{
	static const char fig52[] = FIG_5_2;
	const char *order[] = {"A C B E D F G", "A C E D F B G"};
	const char *model[] = {"aware", "ipdom"};
	uint64_t issued[2];
	for (int k = 0; k < 2; k++) {
		SmConfig c = config();
		Prog t = load(fig52);
		Diags d;
		diag_init(&d, "t.simd", t.src, strlen(t.src));
		SmCode *code = lower(t.p, &d);
		Labels l = {{0}};
		SemOptions so = {.model = model_find(model[k])};
		SmResult *r = sm_run_traced(code, &c, &so, record_label, &l, &d);
		cr_assert(r && r->status == SM_OK);
		cr_expect_str_eq(buf_str(&l.b), order[k], "%s", model[k]);
		issued[k] = r->warp_insn;
		/* the interpreter, step for step */
		Machine *m = sem_new(t.p, &so, &d);
		sem_run(m, NULL, NULL);
		cr_expect_eq(m->steps, r->warp_insn, "%s: %llu steps, %llu issues", model[k], (unsigned long long)m->steps,
		             (unsigned long long)r->warp_insn);
		sem_free(m);
		buf_free(&l.b);
		sm_result_free(r);
		lower_free(code);
		diag_free(&d);
		unload(&t);
	}
	cr_expect_eq(issued[0], issued[1], "AWARE %llu issues, IPDOM %llu", (unsigned long long)issued[0],
	             (unsigned long long)issued[1]);
}

static void count_bd(void *ctx, int64_t cycle, int32_t sched, const Machine *m, const StepInfo *s)
{
	(void)cycle, (void)sched, (void)m;
	*(int *)ctx += s->rule == RULE_BD;
}

/* 24, the cost: with the thesis's ST insert of 1 cycle (seed 004 §5.3;
** -musimd_aware_st_insert) AWARE's cycles grow by at most 1 per divergent
** branch, by at most N with an insert of N cycles (it overlaps the branch's
** refetch), and by some when N exceeds that; the issues do not change, and
** neither does IPDOM, which has no ST. */
Test(sm, e24_aware_st_insert_cost)
{
	static const char fig52[] = FIG_5_2;
	const char *model[] = {"aware", "ipdom"};
	for (int k = 0; k < 2; k++) {
		int64_t cycles[3];
		uint64_t issues[3];
		int nbd = 0;
		const int insert[3] = {0, 1, 5};
		for (int i = 0; i < 3; i++) {
			SmConfig c = config();
			c.aware_st_insert = insert[i];
			Prog t = load(fig52);
			Diags d;
			diag_init(&d, "t.simd", t.src, strlen(t.src));
			SmCode *code = lower(t.p, &d);
			SemOptions so = {.model = model_find(model[k])};
			int bd = 0;
			SmResult *r = sm_run_traced(code, &c, &so, count_bd, &bd, &d);
			cr_assert(r && r->status == SM_OK);
			cycles[i] = (int64_t)r->cycles;
			issues[i] = r->warp_insn;
			nbd = bd;
			sm_result_free(r);
			lower_free(code);
			diag_free(&d);
			unload(&t);
		}
		cr_assert_eq(nbd, 2, "%s: Figure 5.2 has two divergent branches", model[k]);
		for (int i = 1; i < 3; i++) {
			cr_expect_eq(issues[i], issues[0], "%s", model[k]);
			cr_expect(cycles[i] >= cycles[0] && cycles[i] - cycles[0] <= (int64_t)insert[i] * nbd,
			          "%s, insert %d: %lld cycles against %lld", model[k], insert[i], (long long)cycles[i],
			          (long long)cycles[0]);
		}
		if (k == 0)
			cr_expect_gt(cycles[2], cycles[0], "an insert of 5 cycles shows");
		else
			cr_expect_eq(cycles[2], cycles[0], "IPDOM has no ST");
	}
}

/* A preset's configuration. */
static SmConfig preset(const char *name)
{
	SmConfig c;
	sm_config_default(&c);
	const char *text = sm_config_preset(name);
	cr_assert(text, "no preset %s", name);
	Buf ignored = {0};
	Diags d;
	diag_init(&d, name, text, strlen(text));
	cr_assert(sm_config_read(&c, name, text, strlen(text), &ignored, &d));
	diag_free(&d);
	buf_free(&ignored);
	return c;
}

/* 31: occupancy, GPGPU-Sim's max_cta. QV100 (65536 registers, 2048
** threads): 64 registers per thread fit 32 warps (50 %), 32 fit 64. The
** Fermi preset (32768 registers, 1536 threads): full occupancy needs at
** most 21 registers per thread when they are counted one by one (32768 /
** 1536 = 21.3), and at most 20 with GPGPU-Sim's rounding up to a multiple
** of 4 — which is Sampaio's "at most 20". */
Test(sm, e31_occupancy)
{
	SmConfig q = preset("qv100");
	SmOccupancy o;
	for (int cta = 64; cta <= 1024; cta *= 2) {
		cr_assert(sm_occupancy(&q, cta, 64, &o));
		cr_expect_eq(o.ctas * cta / 32, 32, "CTA %d, 64 registers: %d warps", cta, o.ctas * cta / 32);
		cr_expect(o.limited_by & SM_LIMIT_REGS);
		cr_assert(sm_occupancy(&q, cta, 32, &o));
		cr_expect_eq(o.ctas * cta / 32, 64, "CTA %d, 32 registers: %d warps", cta, o.ctas * cta / 32);
	}
	SmConfig f = preset("gtx480");
	int cta_sizes[] = {192, 256, 512};
	for (int unit = 1; unit <= 4; unit += 3) {
		f.reg_alloc_unit = unit;
		for (size_t k = 0; k < sizeof cta_sizes / sizeof *cta_sizes; k++) {
			int most = 0;
			for (int regs = 1; regs <= 63; regs++) {
				cr_assert(sm_occupancy(&f, cta_sizes[k], regs, &o));
				if (o.ctas * cta_sizes[k] == 1536)
					most = regs;
			}
			cr_expect_eq(most, unit == 1 ? 21 : 20, "unit %d, CTA %d: full occupancy up to %d registers", unit,
			             cta_sizes[k], most);
		}
	}
	/* a CTA that fits nowhere */
	cr_expect(!sm_occupancy(&q, 1024, 255, &o));
	cr_expect_eq(o.ctas, 0);
}

/* CTAs in waves: 8 CTAs of one warp, each a dependent chain, with room
** for 2 at a time take 4 waves, about 4 times as long as with room for all
** 8; later CTAs wait not resident; the final state is the interpreter's. */
Test(sm, ctas_run_in_waves)
{
	Buf src = {0};
	buf_puts(&src, ".threads 256\n.warpsize 32\n       x = tid\n");
	for (int i = 0; i < 200; i++)
		buf_puts(&src, "       x = x + 1\n");
	buf_puts(&src, "       mem[tid] = x\n       stop\n");
	SmConfig c = config();
	c.cta_threads = 32;
	c.max_cta = 8;
	Sim all = sim(buf_str(&src), &c, NULL);
	c.max_cta = 2;
	Sim two = sim(buf_str(&src), &c, NULL);
	cr_assert_eq(all.r->status, SM_OK);
	cr_assert_eq(two.r->status, SM_OK);
	cr_expect_eq(all.r->ncta, 8);
	cr_expect_eq(two.r->occupancy_limit.ctas, 2);
	cr_expect(two.r->occupancy_limit.limited_by & SM_LIMIT_CTAS);
	double ratio = (double)two.r->cycles / (double)all.r->cycles;
	cr_expect(ratio > 3.8 && ratio < 4.2, "%llu vs %llu cycles", (unsigned long long)two.r->cycles,
	          (unsigned long long)all.r->cycles);
	cr_expect_eq(all.r->warps[7].cycles[WS_NOT_RESIDENT], 0u);
	cr_expect_gt(two.r->warps[7].cycles[WS_NOT_RESIDENT], 3 * 200 * 4u, "the last CTA waits three waves");
	cr_expect_eq(two.r->warps[0].cycles[WS_NOT_RESIDENT], 0u);
	cr_expect_eq(two.r->warp_insn, all.r->warp_insn);
	for (int64_t t = 0; t < 256; t++) {
		Num a, b;
		cr_assert(mem_get(&all.r->m->shared, t, &a) && mem_get(&two.r->m->shared, t, &b));
		cr_expect(!a.z && !b.z && a.i == t + 200 && b.i == a.i);
	}
	/* achieved occupancy: 8 of 64 warps' worth of threads at first, 2 in waves */
	cr_expect(all.r->achieved_occupancy > 0.9 * 256.0 / 2048 && all.r->achieved_occupancy <= 256.0 / 2048);
	cr_expect(two.r->achieved_occupancy > 0.9 * 64.0 / 2048 && two.r->achieved_occupancy <= 64.0 / 2048);
	done(&all);
	done(&two);
	buf_free(&src);
}

/* A kernel-wide barrier with CTAs that cannot all be resident never
** completes: the commit watchdog says why. */
Test(sm, barrier_across_waiting_ctas_deadlocks)
{
	SmConfig c = config();
	c.cta_threads = 32;
	c.max_cta = 1;
	Sim x = sim(".threads 64\n.warpsize 32\n       barrier\n       stop\n", &c, NULL);
	cr_expect_eq(x.r->status, SM_DEADLOCK);
	const char *why = buf_str(&x.r->why);
	cr_expect(strstr(why, "1 of 2 CTAs wait for room on the SM (1 fit at once)"), "%s", why);
	done(&x);
	c.max_cta = 2;
	x = sim(".threads 64\n.warpsize 32\n       barrier\n       stop\n", &c, NULL);
	cr_expect_eq(x.r->status, SM_OK);
	done(&x);
}

/* A CTA that does not fit, or cuts a warp in two: an error that says why. */
Test(sm, ctas_that_cannot_run)
{
	SmConfig c = config();
	struct {
		int32_t threads, cta, regs;
		const char *says;
	} bad[] = {{4096, 0, 0, "a CTA of 4096 threads does not fit on the SM: it needs 4096 threads"},
	           {64, 48, 0, "-musimd_cta_threads 48 is not a multiple of the program's warp size 32"},
	           {1024, 0, 255, "it needs 262144 registers (1024 threads × 256"}};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		c.cta_threads = bad[k].cta;
		c.regs_per_thread = bad[k].regs;
		char src[64];
		snprintf(src, sizeof src, ".threads %d\n.warpsize 32\n       stop\n", (int)bad[k].threads);
		expect_refused(src, &c, bad[k].says);
	}
}

/* MaxLive, the registers occupancy counts: the most variables live at one
** point of the lowered program (liveness across blocks and round loops;
** parameters and special variables take none). */
Test(sm, lowering_max_live)
{
	struct {
		const char *src;
		int32_t regs, maxlive;
	} t[] = {
		{"a = 1\nb = 2\nc = a + b\nd = c + a\nmem[0] = d\nstop\n", 4, 2},
		/* k lives through the loop: with i and p, three */
		{"k = 5\ni = 0\nL: i = i + 1\np = i < 10\nbnz p, L\nmem[0] = k\nstop\n", 3, 3},
		/* a dead result still takes a register for an instant */
		{".param n = 3\nx = tid + n\ny = x * 2\nz = y\nstop\n", 3, 1},
		/* live on one path only: b is live into the join from the left */
		{"a = tid\nb = a + 1\nbz a, R\nc = b + a\nmem[0] = c\nR: mem[1] = b\nstop\n", 3, 2},
	};
	for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
		Prog p = load(t[k].src);
		Diags d;
		diag_init(&d, "t.simd", p.src, strlen(p.src));
		SmCode *code = lower(p.p, &d);
		cr_assert(code);
		cr_expect_eq(code->nregs, t[k].regs, "%zu: %d registers", k, (int)code->nregs);
		cr_expect_eq(code->maxlive, t[k].maxlive, "%zu: MaxLive %d", k, (int)code->maxlive);
		lower_free(code);
		diag_free(&d);
		unload(&p);
	}
}

/* The cycle of every issue and its pc (sm_run_traced's hook). */
typedef struct Timeline {
	int64_t cycle[256];
	int32_t pc[256];
	int32_t n;
} Timeline;

static void record_timeline(void *ctx, int64_t cycle, int32_t sched, const Machine *m, const StepInfo *s)
{
	(void)sched, (void)m;
	Timeline *t = ctx;
	if (t->n < 256) {
		t->cycle[t->n] = cycle;
		t->pc[t->n++] = s->pc;
	}
}

static Timeline timeline(const char *src, const SmConfig *c, const char *model)
{
	Prog t = load(src);
	Diags d;
	diag_init(&d, "t.simd", t.src, strlen(t.src));
	SmCode *code = lower(t.p, &d);
	cr_assert(code);
	Timeline tl = {.n = 0};
	SemOptions so = {.model = model_find(model)};
	SmResult *r = sm_run_traced(code, c, &so, record_timeline, &tl, &d);
	cr_assert(r && r->status == SM_OK, "%s", model);
	sm_result_free(r);
	lower_free(code);
	diag_free(&d);
	unload(&t);
	return tl;
}

/* The issue cycle of the first issue of pc, or -1. */
static int64_t issued_at(const Timeline *t, int32_t pc)
{
	for (int32_t i = 0; i < t->n; i++)
		if (t->pc[i] == pc)
			return t->cycle[i];
	return -1;
}

/* 33: Fig. 7.2 / 7.4. One warp of 4 on one scheduler, a dependent-issue
** latency of 2, blocks of two instructions whose second depends on the
** first: the single-path stack (ipdom; AWARE too, which switches splits
** only at branches) leaves 2 idle issue slots between A and the end, one in
** each side, where MP fills them with the other side; MP interleaves B
** and C. Fig. 7.6: MP's per-lane scoreboard lets I2 (else side) issue
** while I1 (then side) waits for R0, and I3 issue when its own lanes' R1
** is written — before I1's write of R1 in the other lanes completes. */
Test(sm, e33_multi_path)
{
	SmConfig c = config();
	c.num_sched = 1;
	c.sub_core = false;
	c.num_int = 4;
	c.lat_int[SM_ADD] = 2;
	c.ii_int[SM_ADD] = 1;
	c.ibuffer = false; /* the figure has no fetch stage: the refetch after the branch to C and the jump to D
	                   ** would add an idle slot each under the single-path stack (sm/fetch.c) */
	const char *fig72 = ".threads 4\n"
	                    "A:  p = tid & 1\n"
	                    "    q = tid + 1\n"
	                    "    bnz p, C\n"
	                    "B:  b1 = q + 1\n"
	                    "    b2 = b1 + 1\n"
	                    "D:  d1 = tid + 2\n"
	                    "    d2 = tid + 3\n"
	                    "    stop\n"
	                    "C:  c1 = q + 2\n"
	                    "    c2 = c1 + 1\n"
	                    "    jump D\n";
	const char *models[] = {"ipdom", "aware", "mp"};
	int64_t want_idle[] = {2, 2, 0};
	for (int k = 0; k < 3; k++) {
		Timeline t = timeline(fig72, &c, models[k]);
		int64_t idle = t.cycle[t.n - 1] - t.cycle[0] + 1 - t.n;
		cr_expect_eq(idle, want_idle[k], "%s: %lld idle issue cycles", models[k], (long long)idle);
		if (k == 2) { /* B, C, B, C */
			int64_t b1 = issued_at(&t, 3), b2 = issued_at(&t, 4), c1 = issued_at(&t, 8), c2 = issued_at(&t, 9);
			cr_expect(b1 < c1 && c1 < b2 && b2 < c2, "MP interleaves: B %lld %lld, C %lld %lld", (long long)b1,
			          (long long)b2, (long long)c1, (long long)c2);
		}
	}
	/* Fig. 7.6, shared loads of latency 20 */
	const char *fig76 = ".threads 4\n"
	                    ".data 0: 5 6 7 8 9 2\n"
	                    "I0: r0 = mem[5]\n"
	                    "    p = tid & 1\n"
	                    "    bnz p, E\n"
	                    "I1: r1 = mem[r0]\n"
	                    "    jump J\n"
	                    "E:  r1 = mem[4]\n"
	                    "I3: r4 = r0 + r1\n"
	                    "J:  stop\n";
	c.smem_latency = 20;
	Timeline t = timeline(fig76, &c, "mp");
	int64_t i0 = issued_at(&t, 0), i1 = issued_at(&t, 3), i2 = issued_at(&t, 5), i3 = issued_at(&t, 6);
	cr_expect_lt(i2, i1, "I2 issues while I1 waits for R0 (steps 1-2)");
	cr_expect_eq(i1, i0 + 20, "I1 issues when R0 is written back (steps 4-5)");
	cr_expect_eq(i3, i2 + 20, "I3 waits for its own lanes' R1 only (step 6)");
	cr_expect_lt(i3, i1 + 20, "... not for I1's write of R1 in the other lanes");
}

/* 16, first part: LRR against GTO on load-then-compute. One scheduler
** issuing to the SM's four INT units (one issue a cycle, t = 1), K = 8
** warps, each looping over {a shared load of latency Lm = 100; C = 8
** instructions that read it; the loop's own 3}: C' = 11. Under LRR the
** warps move in lock step, all load, all wait, all compute:
** Lm + K·C'·t a round. GTO runs the oldest warp until it waits, so one
** warp's load overlaps the others' compute: at least max(K·C'·t, Lm + C'·t)
** (sm-model.md's first-order model; the loop's i -> p -> bnz chain adds to
** it). The slope per round is read between 20 and 40 rounds. (Where one
** INT unit of II = 2 is the bottleneck instead, GTO's greed delays each
** warp's loop tail behind another warp's body and LRR is faster: 180
** against 261 cycles a round; the expectation is about hiding latency.) */
static char *load_then_compute(int rounds)
{
	Buf b = {0};
	buf_printf(&b, ".threads 256\n.warpsize 32\n.memory zero\n       i = 0\nloop:  v = mem[tid]\n");
	for (int j = 0; j < 8; j++)
		buf_printf(&b, "       y%d = v + %d\n", j, j);
	buf_printf(&b, "       i = i + 1\n       p = i < %d\n       bnz p, loop\n       stop\n", rounds);
	return buf_steal(&b);
}

Test(sm, e16_gto_hides_load_latency_that_lrr_waits_for)
{
	SmConfig c = config();
	c.num_sched = 1;
	c.sigma_global = false;
	c.smem_latency = 100;
	uint64_t slope[2];
	const char *scheds[2] = {"lrr", "gto"};
	for (int s = 0; s < 2; s++) {
		snprintf(c.scheduler, sizeof c.scheduler, "%s", scheds[s]);
		char *a = load_then_compute(20), *b = load_then_compute(40);
		slope[s] = (cycles_of(b, &c) - cycles_of(a, &c)) / 20;
		free(a);
		free(b);
	}
	const uint64_t K = 8, C = 11, t = 1, Lm = 100;
	uint64_t lrr = Lm + K * C * t, gto_bound = K * C * t > Lm + C * t ? K * C * t : Lm + C * t;
	cr_expect_lt(slope[1], slope[0], "gto %llu cycles a round, lrr %llu", (unsigned long long)slope[1],
	             (unsigned long long)slope[0]);
	cr_expect(slope[0] * 20 >= lrr * 19 && slope[0] * 20 <= lrr * 21, "lrr %llu a round, model %llu",
	          (unsigned long long)slope[0], (unsigned long long)lrr);
	cr_expect_geq(slope[1], gto_bound, "gto %llu a round, bound %llu", (unsigned long long)slope[1],
	              (unsigned long long)gto_bound);
}

/* 6, second part: K warps on one scheduler with its one SFU (II = 8), each a
** chain of N dependent divisions, take N × max(145, 8K) cycles: the SFU
** saturates once K ≥ 145 / 8, that is from K = 19. The slope per division
** is read between N = 10 and N = 20. */
Test(sm, e6_division_chains_saturate_the_sfu_from_19_warps)
{
	SmConfig c = config();
	c.num_sched = 1;
	c.num_sfu = 1;
	const int ks[] = {1, 8, 18, 19, 24, 32};
	for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
		int K = ks[i];
		uint64_t cyc[2];
		for (int j = 0; j < 2; j++) {
			Buf src = {0};
			buf_printf(&src, ".threads %d\n.warpsize 32\n       x = tid + 1000000\n", 32 * K);
			for (int d = 0; d < 10 * (j + 1); d++)
				buf_puts(&src, "       x = x / 1\n");
			buf_puts(&src, "       stop\n");
			cyc[j] = cycles_of(buf_str(&src), &c);
			buf_free(&src);
		}
		uint64_t slope = (cyc[1] - cyc[0]) / 10, want = 8u * (uint64_t)K > 145u ? 8u * (uint64_t)K : 145u;
		cr_expect(slope * 100 >= want * 98 && slope * 100 <= want * 102, "K = %d: %llu cycles a division, want %llu",
		          K, (unsigned long long)slope, (unsigned long long)want);
	}
}
