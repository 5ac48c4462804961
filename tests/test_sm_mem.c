/*
** test_sm_mem.c — the SM's memory system (src/sm/ldst.c): shared-memory
** latency, coalescing, the L1/L2/DRAM hierarchy and local memory, against
** the expectations of ../notes/sm-model.md §6 (numbered as there), and the
** mechanisms behind them (MSHRs, pending hits, write policies, the cache
** strings). Every configuration value a test relies on is set here.
*/
#include "smlib.h"

#include "mem.h"

/* config() with a small, fast hierarchy: an L1 of one set of 4 lines, an
** L2 of 2 sets × 4 ways in one sub-partition; L1 20, L2 +100, DRAM 200 DRAM
** cycles at half the core clock (400 core cycles). */
static SmConfig mem_config(void)
{
	SmConfig c = config();
	Diags d;
	const char *const sets[] = {
		"-gpgpu_cache:dl1=S:1:128:4,L:T:m:L:L,A:64:8,16:0,32",
		"-gpgpu_cache:dl2=S:2:128:4,L:B:m:L:L,A:64:4,4:0,32",
		"-gpgpu_clock_domains=1000.0:1000.0:1000.0:500.0",
		"-gpgpu_n_mem=1",
		"-gpgpu_n_sub_partition_per_mchannel=1",
		"-gpgpu_l1_latency=20",
		"-gpgpu_l2_rop_latency=100",
		"-dram_latency=200",
		"-gpgpu_l1_banks=4",
		"-gpgpu_l1_banks_byte_interleaving=32",
		"-gpgpu_coalesce_arch=70",
		"-gpgpu_gmem_skip_L1D=0",
		"-gpgpu_local_mem_map=1",
		"-musimd_sigma=global",
	};
	for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
		diag_init(&d, "--set", sets[i], strlen(sets[i]));
		cr_assert(sm_config_set(&c, sets[i], NULL, &d), "%s", sets[i]);
		diag_free(&d);
	}
	return c;
}

/* A single-thread pointer chase over k lines (line i's first word points
** to line i+1's, the last to the first), n dependent loads, unrolled. */
static char *chase(int k, int n, int threads)
{
	Buf b = {0};
	buf_printf(&b, ".threads %d\n.memory zero\n", threads);
	for (int i = 0; i < k; i++)
		buf_printf(&b, ".data %d: %d\n", i * 32, ((i + 1) % k) * 32);
	buf_puts(&b, "       p = 0\n");
	for (int i = 0; i < n; i++)
		buf_puts(&b, "       p = mem[p]\n");
	buf_puts(&b, "       stop\n");
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

/* The same chase as a loop of n iterations (for footprints too large to
** unroll over). */
static char *chase_loop(int k, int n)
{
	Buf b = {0};
	buf_printf(&b, ".threads 1\n.memory zero\n");
	for (int i = 0; i < k; i++)
		buf_printf(&b, ".data %d: %d\n", i * 32, ((i + 1) % k) * 32);
	buf_printf(&b, "       p = 0\n       i = 0\nloop:  p = mem[p]\n       i = i + 1\n       c = i < %d\n"
	               "       bnz c, loop\n       stop\n", n);
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

static uint64_t slope(char *(*make)(int, int, int), int k, int n, int threads, const SmConfig *c)
{
	char *a = make(k, n, threads), *b = make(k, 2 * n, threads);
	uint64_t ca = cycles_of(a, c), cb = cycles_of(b, c);
	free(a);
	free(b);
	return cb - ca;
}

/* 11: a dependent chain of N shared loads (a pointer chase; every lane
** reads word 0, a broadcast) has slope N × -gpgpu_smem_latency (QV100 file
** 20, qv100-hw 27, hardware 23-27: sm-model.md §3, §6). */
Test(sm_mem, e11_shared_load_chain_costs_n_times_smem_latency)
{
	SmConfig c = config();
	c.sigma_global = false;
	const int lat[] = {20, 27, 3};
	for (size_t i = 0; i < sizeof lat / sizeof *lat; i++) {
		c.smem_latency = lat[i];
		uint64_t s = slope(chase, 1, 50, 32, &c);
		cr_expect_eq(s, 50u * (uint64_t)lat[i], "smem_latency %d: slope %llu", lat[i], (unsigned long long)s);
	}
	/* the chase through shared memory never touches the L1 */
	char *p = chase(4, 10, 32);
	Sim x = sim(p, &c, NULL);
	cr_expect_eq(x.r->mem.l1.accesses, 0u);
	cr_expect_eq(x.r->mem.shmem_insn, 10u * 32u);
	done(&x);
	free(p);
}

static Sim load_pattern(const char *addr, const SmConfig *c)
{
	Buf src = {0};
	buf_printf(&src, ".threads 32\n.memory zero\n       a = %s\n       x = mem[a]\n       stop\n", addr);
	Sim x = sim(buf_str(&src), c, NULL);
	cr_assert_eq(x.r->status, SM_OK);
	buf_free(&src);
	return x;
}

/* 13: coalescing (-gpgpu_coalesce_arch 70, Volta: 128-byte lines of 4 ×
** 32-byte sectors; NVIDIA developer forum, sm-model.md §3 and §6): 32 lanes
** on consecutive 4-byte words touch 1 line = 4 sectors; stride 32 words,
** 32 lines = 32 sectors; a broadcast, 1 sector. The 4 sectors of a line go
** to the 4 L1 banks in one cycle; 32 sectors at the same offset of 32
** lines meet in one bank: 32 cycles, 31 of them bank-conflict stalls;
** 32 sectors round the 4 banks (stride 8 words), 8 cycles. */
Test(sm_mem, e13_coalescing_counts_sectors)
{
	SmConfig c = mem_config();
	struct {
		const char *addr;
		uint64_t sectors, stall;
	} cases[] = {
		{"tid", 4, 0}, {"tid * 32", 32, 31}, {"0", 1, 0}, {"tid * 2", 8, 1}, {"tid * 8", 32, 7}, {"tid + 4", 5, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		Sim x = load_pattern(cases[i].addr, &c);
		cr_expect_eq(x.r->mem.transactions[SM_G_LD], cases[i].sectors, "mem[%s]: %llu sectors", cases[i].addr,
		             (unsigned long long)x.r->mem.transactions[SM_G_LD]);
		cr_expect_eq(x.r->mem.l1.accesses, cases[i].sectors, "mem[%s]: L1 accesses", cases[i].addr);
		cr_expect_eq(x.r->mem.resource_stall + x.r->mem.coal_stall, cases[i].stall, "mem[%s]: %llu + %llu stalls",
		             cases[i].addr, (unsigned long long)x.r->mem.resource_stall,
		             (unsigned long long)x.r->mem.coal_stall);
		cr_expect_eq(x.r->mem.load_insn, 32u);
		done(&x);
	}
	/* Fermi's rules (arch 20): one transaction per 128-byte segment */
	c.coalesce_arch = 20;
	Sim x = load_pattern("tid", &c);
	cr_expect_eq(x.r->mem.transactions[SM_G_LD], 1u);
	done(&x);
	x = load_pattern("tid * 32", &c);
	cr_expect_eq(x.r->mem.transactions[SM_G_LD], 32u);
	done(&x);
	/* a broadcast atomic serialises at the L2: one transaction per lane */
	c.coalesce_arch = 70;
	x = sim(".threads 32\n.memory zero\n       v = atominc(0)\n       stop\n", &c, NULL);
	cr_expect_eq(x.r->mem.atomic_transactions, 32u);
	Num v;
	cr_expect(mem_get(&x.r->m->shared, 0, &v) && v.i == 32, "the interpreter's value");
	done(&x);
	x = sim(".threads 32\n.memory zero\n       v = atominc(tid)\n       stop\n", &c, NULL);
	cr_expect_eq(x.r->mem.atomic_transactions, 4u);
	done(&x);
}

/* 14: hierarchy plateaus (sm-model.md §6; V100 hardware: 30 → 214 → 430
** cycles, gpu-benches): a pointer chase's slope per load is the L1 latency
** while its footprint fits the L1, the L2's once it exceeds the L1, and
** DRAM's once it exceeds the L2 too. Small caches keep it fast: L1 4 lines
** (LRU: a cycle over 5 misses every time), L2 8 lines in 2 sets of 4
** (lines alternate between the sets: 10 lines are 5 a set, all missing). */
Test(sm_mem, e14_hierarchy_plateaus)
{
	SmConfig c = mem_config();
	const uint64_t l1 = 20, l2 = 20 + 100, dram = 20 + 100 + 200 * 1000 / 500;
	struct {
		int lines;
		uint64_t per_load;
	} cases[] = {{1, l1}, {4, l1}, {5, l2}, {8, l2}, {10, dram}, {16, dram}};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		uint64_t s = slope(chase, cases[i].lines, 64, 1, &c);
		cr_expect_eq(s, 64u * cases[i].per_load, "%d lines: %llu per load, want %llu", cases[i].lines,
		             (unsigned long long)(s / 64), (unsigned long long)cases[i].per_load);
	}
	/* qv100-hw's latencies (the TITAN V microbenchmarks, sm-model.md §3: L1
	** 33.7, L2 211, DRAM 313 cycles) on the same small caches: 33 / 211 /
	** 211 + round(77 × 1132 / 850) = 314 */
	SmConfig h;
	sm_config_default(&h);
	const char *hw = sm_config_preset("qv100-hw");
	Diags d;
	diag_init(&d, "qv100-hw", hw, strlen(hw));
	cr_assert(sm_config_read(&h, "qv100-hw", hw, strlen(hw), NULL, &d));
	diag_free(&d);
	h.sigma_global = true;
	h.l1 = c.l1;
	h.l2 = c.l2;
	h.n_mem = h.n_sub_partition = 1;
	cr_expect_eq(slope(chase, 4, 64, 1, &h), 64u * 33u);
	cr_expect_eq(slope(chase, 8, 64, 1, &h), 64u * 211u);
	cr_expect_eq(slope(chase, 16, 64, 1, &h), 64u * 314u);
	/* the statistics say why: a chase within the L2 misses the L1 every
	** time and hits the L2 after its first round */
	char *p = chase(8, 64, 1);
	Sim x = sim(p, &c, NULL);
	cr_expect_eq(x.r->mem.l1.accesses, 64u);
	cr_expect_eq(x.r->mem.l1.misses, 64u);
	cr_expect_eq(x.r->mem.l2.accesses, 64u);
	cr_expect_eq(x.r->mem.l2.misses, 8u, "cold misses only");
	cr_expect_eq(x.r->mem.dram_accesses, 8u);
	done(&x);
	free(p);
}

/* 14 on the default (QV100) sizes: a 32 KB L1 (S:4:128:64) holds a 16 KB
** footprint, not a 64 KB one, which the 6 MB L2 does: 20, then 20 + 160. */
Test(sm_mem, e14_hierarchy_plateaus_qv100_sizes)
{
	SmConfig c = config();
	c.sigma_global = true;
	c.l1_latency = 20;
	c.l2_rop_latency = 160;
	struct {
		int lines;
		uint64_t per_load;
	} cases[] = {{128, 20}, {512, 180}};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int k = cases[i].lines;
		char *a = chase_loop(k, 2 * k), *b = chase_loop(k, 4 * k);
		uint64_t ca = cycles_of(a, &c), cb = cycles_of(b, &c);
		cr_expect_eq(cb - ca, 2u * (uint64_t)k * cases[i].per_load, "%d lines: %.2f per load", k,
		             (double)(cb - ca) / (2.0 * k));
		free(a);
		free(b);
	}
}

/* 15: local memory interleaving (-gpgpu_local_mem_map; Sampaio, seed 001
** §6.1): a warp's spill of one 4-byte variable to local memory is 4
** sectors, one line; the same uniform value spilled to its warp's shared
** slot is 1 word, with no bank conflict (a 32-fold smaller footprint). */
Test(sm_mem, e15_local_spill_is_one_line_shared_slot_one_word)
{
	SmConfig c = mem_config();
	c.sigma_global = false;
	Sim x = sim(".threads 32\n.memory zero\n       v = 7\n       local[0] = v\n       w = local[0]\n       stop\n", &c,
	            NULL);
	cr_assert_eq(x.r->status, SM_OK);
	cr_expect_eq(x.r->mem.transactions[SM_L_ST], 4u, "the spill: 4 sectors");
	cr_expect_eq(x.r->mem.transactions[SM_L_LD], 4u, "the reload: 4 sectors");
	cr_expect_eq(x.r->mem.l1.accesses, 8u);
	cr_expect_eq(x.r->mem.l1.misses, 4u, "the spill misses (write-allocated, written whole)");
	cr_expect_eq(x.r->mem.requests[SM_L_LD], 0u, "the reload hits: nothing goes to the L2");
	cr_expect_eq(x.r->mem.requests[SM_L_ST], 4u, "write-through (T): the spill goes on to the L2");
	cr_expect_eq(x.r->mem.resource_stall + x.r->mem.coal_stall, 0u, "one line: 4 banks, one cycle");
	done(&x);
	/* the same value in the warp's shared slot (the slot's address is uniform) */
	x = sim(".threads 32\n.memory zero\n       v = 7\n       s = warpid\n       mem[s] = v\n       w = mem[s]\n"
	        "       stop\n", &c, NULL);
	cr_assert_eq(x.r->status, SM_OK);
	int cells = 0;
	for (int64_t a = 0; a < 64; a++) {
		Num v;
		cells += mem_get(&x.r->m->shared, a, &v);
	}
	cr_expect_eq(cells, 1, "one word");
	cr_expect_eq(x.r->bank_conflict_cycles, 0u);
	cr_expect_eq(x.r->mem.l1.accesses, 0u);
	done(&x);
	/* two warps' copies of one local word are two lines; a second local
	** word is another line per warp */
	x = sim(".threads 64\n.memory zero\n       v = 7\n       local[0] = v\n       local[1] = v\n       stop\n", &c, NULL);
	cr_expect_eq(x.r->mem.transactions[SM_L_ST], 16u);
	done(&x);
}

/* MSHRs: with one entry, independent misses to different lines queue for
** it (reservation fails, the LD/ST unit held: structural stalls for the
** other loads); with enough entries they overlap. */
Test(sm_mem, mshr_entries_limit_outstanding_misses)
{
	SmConfig c = mem_config();
	const char *src = ".threads 1\n.memory zero\n       a = mem[0]\n       b = mem[32]\n       d = mem[64]\n"
	                  "       e = mem[96]\n       stop\n";
	uint64_t many = cycles_of(src, &c);
	c.l1.mshr_entries = 1;
	Sim x = sim(src, &c, NULL);
	cr_expect_geq(x.r->cycles, many + 3 * 400, "1 MSHR: %llu cycles vs %llu", (unsigned long long)x.r->cycles,
	              (unsigned long long)many);
	cr_expect_gt(x.r->mem.l1.reservation_fails, 0u);
	cr_expect_eq(x.r->mem.mshr_stall[SM_G_LD], x.r->mem.l1.reservation_fails);
	done(&x);
	/* merging: a second load of the same line while it is fetched is a
	** pending hit, ready when the fill is */
	c.l1.mshr_entries = 4;
	x = sim(".threads 1\n.memory zero\n       a = mem[0]\n       b = mem[1]\n       stop\n", &c, NULL);
	cr_expect_eq(x.r->mem.l1.misses, 1u);
	cr_expect_eq(x.r->mem.l1.pending_hits, 1u);
	done(&x);
	/* ... up to the entry's merges: then the next waits for the fill */
	c.l1.mshr_max_merge = 1;
	x = sim(".threads 1\n.memory zero\n       a = mem[0]\n       b = mem[1]\n       stop\n", &c, NULL);
	cr_expect_eq(x.r->mem.l1.pending_hits, 0u);
	cr_expect_gt(x.r->mem.l1.reservation_fails, 0u);
	done(&x);
}

/* The L1's write policy: write-back keeps a store in the L1, write-through
** sends it on; a skip-L1 configuration sends global loads to the L2 but
** keeps local memory cached (Sampaio's -dlcm=cg). */
Test(sm_mem, write_policy_and_skip_l1)
{
	SmConfig c = mem_config();
	const char *src = ".threads 32\n.memory zero\n       mem[tid] = tid\n       x = mem[tid]\n       stop\n";
	Sim x = sim(src, &c, NULL);
	cr_expect_eq(x.r->mem.requests[SM_G_ST], 4u, "write-through");
	cr_expect_eq(x.r->mem.requests[SM_G_LD], 0u, "written whole: the load hits");
	done(&x);
	c.l1.write = 'B';
	x = sim(src, &c, NULL);
	cr_expect_eq(x.r->mem.requests[SM_G_ST], 0u, "write-back");
	done(&x);
	c.l1.write = 'T';
	c.l1.write_alloc = 'N';
	x = sim(src, &c, NULL);
	cr_expect_eq(x.r->mem.requests[SM_G_LD], 4u, "no write allocation: the load misses");
	done(&x);
	c.l1.write_alloc = 'L';
	c.gmem_skip_l1d = true;
	x = sim(".threads 32\n.memory zero\n       x = mem[tid]\n       local[0] = x\n       y = local[0]\n       stop\n", &c,
	        NULL);
	cr_expect_eq(x.r->mem.l1.accesses, 8u, "only the local accesses use the L1");
	cr_expect_eq(x.r->mem.requests[SM_G_LD], 4u);
	cr_expect_eq(x.r->mem.requests[SM_L_LD], 0u);
	done(&x);
}

/* -musimd_sigma decides timing only: the final memory is the
** interpreter's either way. */
Test(sm_mem, sigma_global_keeps_the_semantics)
{
	const char *src = ".threads 64\n.memory zero\n       a = tid % 7\n       v = atominc(a)\n       b = tid + 100\n"
	                  "       mem[b] = v\n"
	                  "       local[2] = v\n       w = local[2]\n       x = mem[w]\n       stop\n";
	SmConfig c = mem_config();
	c.sigma_global = false;
	Sim a = sim(src, &c, NULL);
	c.sigma_global = true;
	Sim b = sim(src, &c, NULL);
	cr_assert(a.r->status == SM_OK && b.r->status == SM_OK);
	cr_expect_neq(a.r->cycles, b.r->cycles);
	for (int64_t k = 0; k < 200; k++) {
		Num va, vb;
		bool ha = mem_get(&a.r->m->shared, k, &va), hb = mem_get(&b.r->m->shared, k, &vb);
		cr_expect(ha == hb && (!ha || va.i == vb.i), "cell %lld", (long long)k);
	}
	done(&a);
	done(&b);
}

static void cache_fails(const char *arg, const char *want)
{
	SmConfig c;
	sm_config_default(&c);
	Diags d;
	diag_init(&d, "--set", arg, strlen(arg));
	cr_expect_not(sm_config_set(&c, arg, NULL, &d), "%s accepted", arg);
	Buf b = {0};
	diag_render(&d, &b);
	cr_expect(strstr(buf_str(&b), want), "%s: %s", arg, buf_str(&b));
	buf_free(&b);
	diag_free(&d);
}

/* The cache strings: GPGPU-Sim's syntax, its refusals, a diagnostic that
** names the option and the field. */
Test(sm_mem, cache_strings)
{
	SmConfig c;
	sm_config_default(&c);
	cr_expect(c.l1.enabled && c.l1.sectored && c.l1.nsets == 4 && c.l1.line == 128 && c.l1.assoc == 64);
	cr_expect(c.l1.repl == 'L' && c.l1.write == 'T' && c.l1.alloc == 'm' && c.l1.write_alloc == 'L');
	cr_expect(c.l1.mshr_type == 'A' && c.l1.mshr_entries == 512 && c.l1.mshr_max_merge == 8);
	cr_expect(c.l2.nsets == 32 && c.l2.assoc == 24 && c.l2.write == 'B' && c.l2.set_index == 'P');
	cache_fails("-gpgpu_cache:dl1=S:4:128:64", "-gpgpu_cache:dl1: expected [N|S:]nsets:line:assoc,");
	cache_fails("-gpgpu_cache:dl1=S:4:64:64,L:T:m:L:L,A:512:8", "a sectored cache has 128-byte lines");
	cache_fails("-gpgpu_cache:dl1=S:4:96:64,L:T:m:L:L,A:512:8", "not a power of two");
	cache_fails("-gpgpu_cache:dl1=Q:4:128:64,L:T:m:L:L,A:512:8", "the cache type (N normal, S sectored) is one of NS, not 'Q'");
	cache_fails("-gpgpu_cache:dl1=S:4:128:64,Z:T:m:L:L,A:512:8", "replacement policy (L LRU, F FIFO)");
	cache_fails("-gpgpu_cache:dl1=S:4:128:64,L:T:m:L,A:512:8", "expected repl:write:alloc:write_alloc:set_index");
	cache_fails("-gpgpu_cache:dl2=S:4:128:64,L:B:f:N:L,A:512:8", "a write-back cache (B) must allocate on miss");
	cache_fails("-gpgpu_cache:dl1=S:4:128:64,L:T:f:L:L,A:512:8", "write-allocate L needs allocation on miss");
	cache_fails("-gpgpu_cache:dl1=S:4:128:64,L:T:m:L:L,F:512:8", "MSHR type F needs the miss_queue:result_fifo group");
	cache_fails("-gpgpu_cache:dl1=S:4:128:64,L:T:m:L:L,A:0:8", "0 is too small (at least 1)");
	cache_fails("-gpgpu_cache:dl1=S:4:128:64,L:T:m:L:L,A:512:8,16:0,48", "does not divide the line");
	cache_fails("-musimd_sigma=local", "expected 'shared' or 'global'");
	cache_fails("-gpgpu_coalesce_arch=12", "12 is too small (at least 13)");
	/* a 3.x string (no type letter) is a normal cache; "none" disables it;
	** printed, both read back the same */
	const char *ok[] = {"-gpgpu_cache:dl1=32:128:4,L:L:m:N:H,A:32:8,8", "-gpgpu_cache:dl1=none",
	                    "-gpgpu_cache:dl1=N:32:128:4,L:L:m:N:H,S:64:8,8"};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		Diags d;
		diag_init(&d, "--set", ok[i], strlen(ok[i]));
		cr_assert(sm_config_set(&c, ok[i], NULL, &d), "%s", ok[i]);
		diag_free(&d);
		Buf b = {0};
		sm_config_print(&c, &b);
		SmConfig back;
		memset(&back, 0, sizeof back);
		diag_init(&d, "p", buf_str(&b), b.len);
		cr_assert(sm_config_read(&back, "p", buf_str(&b), b.len, NULL, &d));
		diag_free(&d);
		cr_expect_eq(memcmp(&back.l1, &c.l1, sizeof c.l1), 0, "%s", ok[i]);
		buf_free(&b);
	}
	cr_expect_not(c.l1.sectored);
	/* an L2 the model will not build: an error from sm_run, not a crash */
	sm_config_default(&c);
	c.l2.nsets = 1 << 20;
	c.l2.assoc = 64;
	expect_refused(".threads 1\n       stop\n", &c, "-gpgpu_n_mem");
}
