/*
** test_sm_rf.c — the SM model's front end and operand delivery (src/sm/fetch.c,
** src/sm/opcoll.c, dual issue in src/sm/core.c) against the checkable
** expectations of ../notes/sm-model.md §6 (4's dual issue, 5, 8, 9), each
** numbered as there, with the configuration it needs set explicitly.
*/
#include "smlib.h"

/* A program: .threads T (warps of 32), `defs` once, then `body` n times
** with %d replaced by the copy's number, then stop. */
static char *repeat(int threads, const char *defs, const char *body, int n)
{
	Buf b = {0};
	buf_printf(&b, ".threads %d\n.warpsize 32\n.memory zero\n%s", threads, defs);
	for (int i = 0; i < n; i++) {
		buf_puts(&b, "       ");
		buf_printf(&b, body, i, i, i, i, i, i);
		buf_putc(&b, '\n');
	}
	buf_puts(&b, "       stop\n");
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

/* cycles_of, saying which program failed. */
static uint64_t cyc(const char *src, const SmConfig *c)
{
	Sim x = sim(src, c, NULL);
	cr_assert_eq(x.r->status, SM_OK, "status %s: %s\n%s", sm_status_name(x.r->status), buf_str(&x.r->why), src);
	uint64_t n = x.r->cycles;
	done(&x);
	return n;
}

/* Δcycles between n and 2n copies of body. */
static uint64_t slope(int threads, const char *defs, const char *body, int n, const SmConfig *c)
{
	char *a = repeat(threads, defs, body, n), *b = repeat(threads, defs, body, 2 * n);
	uint64_t ca = cyc(a, c), cb = cyc(b, c);
	free(a);
	free(b);
	return cb - ca;
}

/* x0 .. x16: registers 0 .. 16 (numbered by first definition). */
#define DEFS17                                                                                                  \
	"       x0 = tid\n       x1 = tid + 1\n       x2 = tid + 2\n       x3 = tid + 3\n       x4 = tid + 4\n" \
	"       x5 = tid + 5\n       x6 = tid + 6\n       x7 = tid + 7\n       x8 = tid + 8\n"                    \
	"       x9 = tid + 9\n       x10 = tid + 10\n       x11 = tid + 11\n       x12 = tid + 12\n"               \
	"       x13 = tid + 13\n       x14 = tid + 14\n       x15 = tid + 15\n       x16 = tid + 16\n"

/* One scheduler with one INT unit of II 1, 16 register banks. */
static SmConfig one_scheduler(void)
{
	SmConfig c = config();
	c.num_sched = 1;
	c.sub_core = false;
	c.num_int = 1;
	c.ii_int[SM_ADD] = 1;
	c.num_reg_banks = 16;
	c.reg_bank_use_warp_id = true;
	c.specialized_oc = false;
	c.oc_units_gen = 8;
	return c;
}

/* 8: register-bank conflicts (register_bank, arbiter_t::allocate_reads):
** with one read per bank per cycle, independent instructions reading two
** registers of one bank (0 and 16 of 16 banks) issue one per 2 cycles, one
** per cycle when the registers are in two banks (0 and 1) or are the same
** register (read once); with 2 reads per bank per cycle the conflict
** costs nothing. */
Test(sm_rf, e8_register_bank_conflicts)
{
	SmConfig c = one_scheduler();
	c.reg_file_port_throughput = 1;
	cr_expect_eq(slope(32, DEFS17, "y%d = x0 + x16", 50, &c), 100u, "same bank: 2 cycles an instruction");
	cr_expect_eq(slope(32, DEFS17, "y%d = x0 + x1", 50, &c), 50u, "two banks: 1");
	cr_expect_eq(slope(32, DEFS17, "y%d = x16 + x16", 50, &c), 50u, "one register read twice: 1");
	/* the warp id shifts the banks: warp 1's registers 0 and 16 conflict too,
	** and without it the mapping is the register's alone */
	c.reg_bank_use_warp_id = false;
	cr_expect_eq(slope(32, DEFS17, "y%d = x0 + x16", 50, &c), 100u);
	c.reg_file_port_throughput = 2;
	cr_expect_eq(slope(32, DEFS17, "y%d = x0 + x16", 50, &c), 50u, "2 ports: the conflict is hidden");
	/* the delay is the result's: a conflicting producer's consumer waits a
	** cycle more, and the report counts the reads that waited */
	c.reg_file_port_throughput = 1;
	char *p = repeat(32, DEFS17, "y%d = x0 + x16", 1);
	Sim x = sim(p, &c, NULL);
	cr_expect_eq(x.r->rf_conflict_reads, 1u);
	cr_expect_eq(x.r->rf_conflict_cycles, 1u);
	done(&x);
	free(p);
}

/* 8, sub-core: each scheduler reads its own slice of the banks, (reg +
** warp) mod (banks / schedulers): with 16 banks and 4 schedulers, registers
** 0 and 4 conflict, 0 and 16 too, 0 and 1 not. */
Test(sm_rf, e8_sub_core_bank_slices)
{
	SmConfig c = config();
	c.ii_int[SM_ADD] = 1;
	c.reg_file_port_throughput = 1;
	c.specialized_oc = false;
	c.oc_units_gen = 8;
	cr_expect_eq(slope(32, DEFS17, "y%d = x0 + x4", 50, &c), 100u);
	cr_expect_eq(slope(32, DEFS17, "y%d = x0 + x16", 50, &c), 100u);
	cr_expect_eq(slope(32, DEFS17, "y%d = x0 + x1", 50, &c), 50u);
}

/* 9: collector units (allocate_cu, dispatch_ready_cu): with one unit per
** scheduler and one read step a cycle, a unit is held 2 cycles (allocated,
** read, dispatched), so a scheduler issues at most every 2 cycles; cycles
** never grow with more units; the wait is counted as collector_busy and as
** GPGPU-Sim's Stall. */
Test(sm_rf, e9_collector_units)
{
	SmConfig c = config();
	c.ii_int[SM_ADD] = 1;
	c.reg_file_port_throughput = 1;
	c.specialized_oc = false;
	c.oc_units_gen = 4; /* one per scheduler */
	cr_expect_eq(slope(32, DEFS17, "y%d = x%d + 1", 8, &c), 16u, "1 unit: 2 cycles an instruction");
	c.oc_units_gen = 8;
	cr_expect_eq(slope(32, DEFS17, "y%d = x%d + 1", 8, &c), 8u, "2 units: 1");
	/* an instruction without register sources holds its unit one step */
	c.oc_units_gen = 4;
	cr_expect_eq(slope(32, "", "y%d = tid + %d", 50, &c), 50u);
	/* the stall is reported */
	char *p = repeat(32, DEFS17, "y%d = x%d + 1", 16);
	Sim x = sim(p, &c, NULL);
	cr_expect_gt(x.r->warps[0].cycles[WS_COLLECTOR], 10u);
	cr_expect_gt(x.r->stall, 10u);
	done(&x);
	free(p);
	/* monotone: a loop with register reads on 32 warps */
	const char *loop = ".threads 1024\n.warpsize 32\n       a = tid\n       b = tid + 1\n       i = 0\n"
	                   "l:     a = a + b\n       b = b ^ a\n       c = a & b\n       i = i + 1\n"
	                   "       p = i < 20\n       bnz p, l\n       sync\n       stop\n";
	uint64_t last = UINT64_MAX;
	for (int n = 4; n <= 32; n += 4) {
		c.oc_units_gen = n;
		uint64_t n_cyc = cyc(loop, &c);
		cr_expect_leq(n_cyc, last, "%d units: %llu cycles, more than with fewer", n, (unsigned long long)n_cyc);
		last = n_cyc;
	}
	/* specialized sets (Fermi): an integer instruction takes an SP unit,
	** then a generic one */
	c.oc_units_gen = 0;
	c.specialized_oc = true;
	c.oc_units_sp = 4;
	c.oc_units_sfu = c.oc_units_mem = 4;
	c.num_int = 0;
	cr_expect_eq(slope(32, DEFS17, "y%d = x%d + 1", 8, &c), 16u, "1 SP collector per scheduler");
	c.oc_units_gen = 4;
	cr_expect_eq(slope(32, DEFS17, "y%d = x%d + 1", 8, &c), 8u, "1 SP + 1 generic collector");
}

/* A configuration without a collector unit for a unit's instructions, or
** a sub-core split that does not divide, is an error, not a hang. */
Test(sm_rf, impossible_collectors_are_errors)
{
	SmConfig c = config();
	c.specialized_oc = false;
	c.oc_units_gen = 0;
	const char *src = ".threads 32\n       x = tid + 1\n       stop\n";
	expect_refused(src, &c, "no operand collector unit for INT instructions");
	c.oc_units_gen = 6; /* 4 schedulers */
	expect_refused(src, &c, "-gpgpu_operand_collector_num_units_gen 6 is not a multiple of the 4 schedulers");
}

static double warp_ipc(const char *src, const SmConfig *c, Sim *keep)
{
	Sim x = sim(src, c, NULL);
	cr_assert_eq(x.r->status, SM_OK);
	double ipc = (double)x.r->warp_insn / (double)x.r->cycles;
	if (keep)
		*keep = x;
	else
		done(&x);
	return ipc;
}

/* 4, dual issue (scheduler_unit::cycle): the SM's warp IPC never exceeds
** schedulers × -gpgpu_max_insn_issue_per_warp; integer-only work never
** exceeds INT units / II; adds mixed with shared loads (the LD/ST unit)
** rise above that bound, and with dual issue above the one-issue bound. A
** dependent pair never dual-issues; with -gpgpu_dual_issue_diff_exec_units
** two adds do not either. */
Test(sm_rf, e4_dual_issue)
{
	SmConfig c = one_scheduler();
	c.max_insn_issue_per_warp = 2;
	c.dual_issue_diff_exec_units = true;
	char *mix = repeat(32 * 4, "", "y%d = tid + %d\n       z%d = mem[tid]", 100);
	char *ints = repeat(32 * 4, "", "y%d = tid + %d", 200);
	Sim x;
	double ipc = warp_ipc(mix, &c, &x);
	cr_expect(ipc > 1.9 && ipc <= 2.0, "add + load, dual issue: IPC %.3f", ipc);
	cr_expect_gt(x.r->dual_issue, 180u);
	/* 19 still: a scheduler-cycle counts once, a dual issue under its first
	** instruction's lanes */
	cr_expect_eq(x.r->occupancy[32], x.r->single_issue + x.r->dual_issue);
	cr_expect_eq(x.r->stall + x.r->idle + x.r->scoreboard + x.r->occupancy[32], x.r->cycles * (uint64_t)c.num_sched);
	done(&x);
	ipc = warp_ipc(ints, &c, NULL);
	cr_expect(ipc > 0.95 && ipc <= 1.0, "adds only, 1 INT unit of II 1: IPC %.3f", ipc);
	/* two INT units: without the different-units rule two adds pair up */
	c.num_int = 2;
	ipc = warp_ipc(ints, &c, &x);
	cr_expect(ipc <= 1.0 + 1e-9, "diff_exec_units 1: IPC %.3f", ipc);
	cr_expect_eq(x.r->dual_issue, 0u);
	done(&x);
	c.dual_issue_diff_exec_units = false;
	ipc = warp_ipc(ints, &c, NULL);
	cr_expect(ipc > 1.9 && ipc <= 2.0, "diff_exec_units 0, 2 INT units: IPC %.3f", ipc);
	/* one issue per cycle: the mix is bounded by 1 */
	c.max_insn_issue_per_warp = 1;
	ipc = warp_ipc(mix, &c, &x);
	cr_expect(ipc <= 1.0 + 1e-9, "one issue a cycle: IPC %.3f", ipc);
	cr_expect_eq(x.r->dual_issue, 0u);
	done(&x);
	/* a dependent pair: the second waits for the first's result */
	c.max_insn_issue_per_warp = 2;
	char *dep = repeat(32, "", "y%d = tid + %d\n       z%d = mem[y%d]", 50);
	x = sim(dep, &c, NULL);
	cr_expect_eq(x.r->dual_issue, 0u, "dependent pairs dual-issued");
	done(&x);
	/* the functional result is the interpreter's either way: same steps */
	c = one_scheduler();
	uint64_t single_steps, dual_steps;
	x = sim(mix, &c, NULL);
	single_steps = x.r->warp_insn;
	done(&x);
	c.max_insn_issue_per_warp = 2;
	x = sim(mix, &c, NULL);
	dual_steps = x.r->warp_insn;
	done(&x);
	cr_expect_eq(single_steps, dual_steps);
	/* QV100: 4 schedulers, one issue each: integer work at 4 units / II 2 =
	** 2; with shared loads beside it (one LD/ST unit: 2 adds a load), above
	** 2; never above 4 */
	c = config();
	char *mix16 = repeat(32 * 16, "", "y%d = tid + %d\n       w%d = tid - %d\n       z%d = mem[tid]", 100);
	ipc = warp_ipc(mix16, &c, NULL);
	cr_expect(ipc > 2.0 && ipc <= 4.0, "QV100 add + load: IPC %.3f", ipc);
	c.max_insn_issue_per_warp = 2;
	ipc = warp_ipc(mix16, &c, NULL);
	cr_expect(ipc > 2.0 && ipc <= 8.0, "QV100 add + load, dual issue: IPC %.3f", ipc);
	free(mix);
	free(mix16);
	free(ints);
	free(dep);
}

/* The qv100 preset, read as a user's --config would be. */
static SmConfig preset(const char *name)
{
	SmConfig c;
	sm_config_default(&c);
	const char *text = sm_config_preset(name);
	Diags d;
	diag_init(&d, name, text, strlen(text));
	cr_assert(sm_config_read(&c, name, text, strlen(text), NULL, &d));
	diag_free(&d);
	return c;
}

/* Lanes per clock of a saturating loop: Δthread instructions / Δcycles
** between 40 and 80 trips (the fill and the drain cancel). */
static double lanes_per_clock(const char *op, const SmConfig *c)
{
	uint64_t cyc[2], ti[2];
	for (int k = 0; k < 2; k++) {
		Buf b = {0};
		buf_printf(&b, ".threads 2048\n.warpsize 32\n       a = tid\n       b = tid + 1\n       c = tid + 2\n"
		           "       d = tid + 3\n       i = 0\nl:     e = a %s 3\n       f = b %s 5\n       g = c %s 7\n"
		           "       h = d %s 9\n       e = a %s 11\n       f = b %s 13\n       g = c %s 15\n"
		           "       h = d %s 17\n       i = i + 1\n       p = i < %d\n       bnz p, l\n       stop\n",
		           op, op, op, op, op, op, op, op, k ? 80 : 40);
		Sim x = sim(buf_str(&b), c, NULL);
		cr_assert_eq(x.r->status, SM_OK);
		cyc[k] = x.r->cycles;
		ti[k] = x.r->thread_insn;
		done(&x);
		buf_free(&b);
	}
	return (double)(ti[1] - ti[0]) / (double)(cyc[1] - cyc[0]);
}

/* 5: a saturating integer kernel on the qv100 preset gives units × 32 / II
** = 4 × 32 / 2 = 64 lanes per clock per SM (TITAN V measured 63.4: the
** Accel-Sim tuner's MaxFlops_int32, note §1.3), fetch, control hazards,
** banks and collectors included; the same formula for the SFU (division,
** II 8): 16 (TITAN V fast sqrt: 15.98). The loop's compare and branch are
** integer instructions too, so the INT units stay the bound. */
Test(sm_rf, e5_unit_throughput_matches_hardware)
{
	SmConfig c = preset("qv100");
	double add = lanes_per_clock("+", &c);
	cr_expect(add > 63.4 * 0.99 && add <= 64.0 + 1e-9, "add: %.2f lanes/clk/SM", add);
	double div = lanes_per_clock("/", &c);
	/* per trip 8 divisions (SFU) and 3 integer instructions: the SFUs bound
	** it, 4 × 32 / 8 = 16 lanes a clock of divisions, so 16 × 11 / 8 in all */
	double want = 16.0 * 11 / 8;
	cr_expect(div > want * 0.99 && div <= want * 1.001, "division: %.2f lanes/clk/SM, want %.2f", div, want);
}

/* Fetch and the I-buffer (shader_core_ctx::fetch/decode, ibuffer_flush): a
** taken branch costs its warp one cycle more than a fall-through (the
** scheduler finds the hazard the next cycle, the refetch fills the
** I-buffer for the one after), counted as control_hazard; with
** -musimd_ibuffer 0 the loop costs what it did without a front end. */
Test(sm_rf, control_hazard_after_a_taken_branch)
{
	SmConfig c = one_scheduler();
	c.lat_int[SM_ADD] = 1;
	const char *fmt = ".threads 32\n       i = 0\nl:     a = tid + 1\n       b = tid + 2\n       i = i + 1\n"
	                  "       p = i < %d\n       bnz p, l\n       stop\n";
	uint64_t cyc[2][2];
	for (int on = 0; on < 2; on++) {
		c.ibuffer = on;
		for (int k = 0; k < 2; k++) {
			Buf b = {0};
			buf_printf(&b, fmt, k ? 200 : 100);
			Sim x = sim(buf_str(&b), &c, NULL);
			cyc[on][k] = x.r->cycles;
			if (on && k) {
				cr_expect_eq(x.r->iflushes, 199u, "one flush per taken branch");
				cr_expect_eq(x.r->warps[0].cycles[WS_CONTROL], 199u);
			}
			done(&x);
			buf_free(&b);
		}
	}
	cr_expect_eq(cyc[0][1] - cyc[0][0], 100u * 5, "no front end: 5 cycles a trip");
	cr_expect_eq(cyc[1][1] - cyc[1][0], 100u * 6, "I-buffer: 6 cycles a trip");
}

/* -gpgpu_inst_fetch_throughput: a fetch brings 2 instructions, so with one
** fetch a cycle straight-line code on 4 schedulers issues at most 2 a
** cycle (ibuffer_empty), with 4 fetches up to the schedulers' 4. */
Test(sm_rf, fetch_throughput_bounds_issue)
{
	SmConfig c = config();
	c.ii_int[SM_ADD] = 1;
	char *p = repeat(32 * 16, "", "y%d = tid + %d", 200);
	c.inst_fetch_throughput = 1;
	Sim x;
	double ipc = warp_ipc(p, &c, &x);
	cr_expect(ipc > 1.9 && ipc <= 2.0, "1 fetch a cycle: IPC %.3f", ipc);
	cr_expect_gt(x.r->warps[0].cycles[WS_IBUFFER], 100u);
	done(&x);
	c.inst_fetch_throughput = 4;
	ipc = warp_ipc(p, &c, NULL);
	cr_expect(ipc > 3.9 && ipc <= 4.0, "4 fetches a cycle: IPC %.3f", ipc);
	free(p);
}

/* -gpgpu_perfect_inst_const_cache 0: the first fetch from each 128-byte
** line (16 instructions) waits -musimd_icache_miss_latency more; the
** kernel's first line is fetched at launch. */
Test(sm_rf, icache_misses)
{
	SmConfig c = one_scheduler();
	char *p = repeat(32, "", "y%d = tid + %d", 63); /* 64 instructions: 4 lines */
	uint64_t perfect = cyc(p, &c);
	c.perfect_icache = false;
	c.icache_miss_latency = 100;
	Sim x = sim(p, &c, NULL);
	cr_expect_eq(x.r->imisses, 3u);
	cr_expect_eq(x.r->cycles, perfect + 3 * 100);
	done(&x);
	free(p);
}
