/*
** test_sm.c — the SM model (src/sm/, src/lower.c) against the checkable
** expectations of ../notes/sm-model.md §6, each numbered as there, with
** the configuration it needs set explicitly (so the tests do not depend
** on the default preset's values).
*/
#include "smlib.h"

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
	buf_puts(&src, ".threads 32\n       p = tid < 16\n       bz p, else\n");
	for (int i = 0; i < 10; i++)
		buf_printf(&src, "       a%d = tid + %d\n", i, i);
	buf_puts(&src, "       jump join\n");
	for (int i = 0; i < 10; i++)
		buf_printf(&src, "%s b%d = tid - %d\n", i == 0 ? "else:  " : "       ", i, i);
	buf_puts(&src, "join:  sync\n       stop\n");
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
** so does GTO with its ages rotated every 500 cycles (ElTantawy's remedy). */
Test(sm, e29_gto_starvation)
{
	SmConfig c = config();
	c.num_sched = 1;
	c.sub_core = false;
	const char *src = ".warpsize 32\n.threads 640\n.memory zero\n       w = warpid\n       p = w == 19\n"
	                  "       bnz p, setter\nspin:  f = mem[0]\n       q = f == 0\n       bnz q, spin\n"
	                  "       jump end\nsetter: x = 1\n       mem[0] = x\nend:   sync\n       stop\n";
	const char *scheds[] = {"gto", "old", "lrr", "gto_rotate:500"};
	for (int k = 0; k < 4; k++) {
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
