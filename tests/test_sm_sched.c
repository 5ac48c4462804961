/*
** test_sm_sched.c — the SM model's warp schedulers beyond LRR and GTO
** (src/sm/sched.c, src/sm/bows.c): GPGPU-Sim's two_level_active,
** ElTantawy's GLRR, and BOWS with DDOS, against the expectations of
** ../notes/sm-model.md §6 (17, 28), each numbered as there, and the
** thesis's own examples (seed 004 §6.3, Fig. 6.6).
*/
#include "smlib.h"

#include "sm/bows.h"
#include "sm/core.h"

/* A file of the source tree, its text. */
static char *source(const char *rel)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", MUSIMD_SOURCE_ROOT, rel);
	size_t len;
	char *s = read_file(path, &len);
	cr_assert(s, "cannot read %s", path);
	return s;
}

/* src with the first occurrence of from replaced by to. */
static char *replaced(const char *src, const char *from, const char *to)
{
	const char *at = strstr(src, from);
	cr_assert(at, "'%s' not in the program", from);
	Buf b = {0};
	buf_putn(&b, src, (size_t)(at - src));
	buf_puts(&b, to);
	buf_puts(&b, at + strlen(from));
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

static void set_sched(SmConfig *c, const char *name)
{
	snprintf(c->scheduler, sizeof c->scheduler, "%s", name);
}

/* ---- the policies' orders ---------------------------------------------- */

static const WarpSched *sched_named(const char *name)
{
	for (int i = 0; warp_scheds[i]; i++)
		if (!strcmp(warp_scheds[i]->name, name))
			return warp_scheds[i];
	cr_assert_fail("no scheduler %s", name);
	return NULL;
}

/* GLRR (ElTantawy; the AWARE fork's order_glrr): the last warp first, then
** round robin from the one after it — against LRR (last warp last) and
** GTO (then oldest first). */
Test(sm_sched, glrr_order)
{
	int32_t warps[5] = {0, 1, 2, 3, 4}, out[5], last_issued = 2, last_pos = 2, pos_of[5] = {0, 1, 2, 3, 4};
	SmCore c = {0};
	c.last_issued = &last_issued;
	c.last_pos = &last_pos;
	c.pos_of = pos_of;
	struct {
		const char *name;
		int32_t want[5];
	} t[] = {{"glrr", {2, 3, 4, 0, 1}}, {"lrr", {3, 4, 0, 1, 2}}, {"gto", {2, 0, 1, 3, 4}}};
	for (int k = 0; k < 3; k++) {
		const WarpSched *ws = sched_named(t[k].name);
		cr_assert_eq(ws->order(&c, 0, warps, 5, out), 5);
		for (int i = 0; i < 5; i++)
			cr_expect_eq(out[i], t[k].want[i], "%s: position %d is warp %d", t[k].name, i, out[i]);
		if (ws->rotation) { /* the walk the core takes gives the same order: the greedy warp, then the rotation */
			int32_t g = ws->greedy ? ws->greedy(&c, 0) : -1, at = ws->rotation(&c, 0, 5), walked[5], m = 0;
			if (g >= 0)
				walked[m++] = warps[g];
			for (int i = 0; i < 5; i++)
				if ((at + i) % 5 != g)
					walked[m++] = warps[(at + i) % 5];
			for (int i = 0; i < 5; i++)
				cr_expect_eq(walked[i], t[k].want[i], "%s: the walk's position %d is warp %d", t[k].name, i,
				             walked[i]);
		}
	}
	last_issued = last_pos = -1; /* nothing issued yet: index order */
	cr_assert_eq(sched_named("glrr")->order(&c, 0, warps, 5, out), 5);
	for (int i = 0; i < 5; i++)
		cr_expect_eq(out[i], i);
}

/* The c2050-aware preset runs GLRR, as the thesis's Table 5.3 and the
** fork's AWARE test configurations (-gpgpu_scheduler glrr) do. */
Test(sm_sched, c2050_aware_preset_runs_glrr)
{
	SmConfig c;
	sm_config_default(&c);
	Diags d;
	const char *text = sm_config_preset("c2050-aware");
	diag_init(&d, "c2050-aware", text, strlen(text));
	Buf ignored = {0};
	cr_assert(sm_config_read(&c, "c2050-aware", text, strlen(text), &ignored, &d));
	cr_expect_str_eq(c.scheduler, "glrr");
	buf_free(&ignored);
	diag_free(&d);
}

/* ---- two_level_active --------------------------------------------------- */

/* 17: with no long-latency loads (global, local or param) and N at least
** the warps per scheduler, two_level_active:N:0:1 gives exactly LRR's
** cycle count: nothing is ever demoted but finished warps, which move to
** the back without changing the others' round-robin order. */
Test(sm_sched, e17_two_level_identity)
{
	char *chains = source("bench/sm_chains.simd"), *alu = adds(60, true, 32 * 12);
	const char *shared = ".warpsize 32\n.threads 512\n.memory zero\n       i = 0\nloop:  a = tid % 64\n"
	                     "       v = mem[a]\n       v = v + tid\n       mem[a] = v\n       i = i + 1\n"
	                     "       p = i < 20\n       bnz p, loop\n       sync\n       stop\n";
	const char *progs[] = {chains, alu, shared};
	for (int k = 0; k < 3; k++)
		for (int ns = 1; ns <= 4; ns *= 2) {
			SmConfig c = config();
			c.num_sched = ns;
			c.sub_core = ns > 1;
			Sim x = sim(progs[k], &c, NULL);
			cr_assert_eq(x.r->status, SM_OK);
			uint64_t lrr = x.r->cycles;
			int32_t per = (x.r->nwarps + ns - 1) / ns;
			done(&x);
			for (int32_t n = per; n <= per + 3; n += 3) {
				char name[64];
				snprintf(name, sizeof name, "two_level_active:%d:0:1", (int)n);
				set_sched(&c, name);
				uint64_t two = cycles_of(progs[k], &c);
				cr_expect_eq(two, lrr, "program %d, %d schedulers, %s: %llu cycles, lrr %llu", k, ns, name,
				             (unsigned long long)two, (unsigned long long)lrr);
			}
		}
	free(chains);
	free(alu);
}

/* Two-level's point (GPGPU-Sim's islongop): a warp waiting for a local
** load is demoted and a pending warp promoted, so local loads overlap
** across the active sets; a shared load of the same latency is not long
** and demotes nothing, so only the first N warps run until they finish. */
Test(sm_sched, two_level_demotes_on_long_latency_loads)
{
	SmConfig c = config();
	c.num_sched = 1;
	c.sub_core = false;
	const char *tmpl = ".warpsize 32\n.threads 256\n.memory zero\n       local[0] = tid\n       i = 0\n"
	                   "loop:  v = %s[0]\n       v = v + 1\n       v = v + 1\n       v = v + 1\n       i = i + 1\n"
	                   "       p = i < 10\n       bnz p, loop\n       sync\n       stop\n";
	char lsrc[512], ssrc[512];
	snprintf(lsrc, sizeof lsrc, tmpl, "local");
	snprintf(ssrc, sizeof ssrc, tmpl, "mem");
	uint64_t lrr_l = cycles_of(lsrc, &c), lrr_s = cycles_of(ssrc, &c);
	cr_expect_eq(lrr_l, lrr_s, "under lrr a local and a shared load cost the same");
	set_sched(&c, "two_level_active:2:0:1");
	uint64_t two_l = cycles_of(lsrc, &c), two_s = cycles_of(ssrc, &c);
	cr_expect_lt(two_l, two_s, "local (demoted) %llu vs shared %llu", (unsigned long long)two_l,
	             (unsigned long long)two_s);
	cr_expect_gt(two_s, lrr_s, "2 active warps of 8 hide less latency than lrr");
}

Test(sm_sched, bad_scheduler_arguments)
{
	SmConfig c = config();
	const char *bad[] = {"two_level_active", "two_level_active:4", "two_level_active:4:2:1", "two_level_active:0:0:1",
	                     "bows", "bows:", "bows:bows:gto", "bows:two_level_active:4:0:1", "bows:gtoo",
	                     "glrr:3", "gto_rotate"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		set_sched(&c, bad[i]);
		Prog t = load(".threads 32\n       x = tid\n       stop\n");
		Diags d;
		diag_init(&d, "t.simd", t.src, strlen(t.src));
		SmCode *code = lower(t.p, &d);
		SemOptions o = {0};
		SmResult *r = sm_run(code, &c, &o, &d);
		cr_expect_null(r, "%s accepted", bad[i]);
		cr_expect(d.n > 0 && strstr(d.v[0].msg, "-gpgpu_scheduler"), "%s: %s", bad[i], d.n ? d.v[0].msg : "");
		sm_result_free(r);
		lower_free(code);
		diag_free(&d);
		unload(&t);
	}
}

/* ---- DDOS (seed 004 §6.3) ----------------------------------------------- */

/* 28, third bullet: the Fig. 6.6a sequence (the hashtable's busy wait; the
** profiled thread keeps failing: the setp at 0x038 sees %r15 = 1 and 0, the
** one at 0x090 %r21 = 0 and 0), MODULO hashing, m = k = 4, l = 8: the
** warp is spinning after the 4th insertion (match pointer 2, remaining
** matches 1 then 0, as the figure's table), and with t = 4 the backward
** branch at 0x098 is confirmed at its 4th spinning execution. Step 5: the
** profiled thread wins, the value mismatches, the warp stops spinning.
** pcs are instruction indexes: 0x038 / 8 = 7, 0x090 / 8 = 18, 0x098 / 8 = 19. */
Test(sm_sched, e28_ddos_fig_6_6a_confirms_after_4)
{
	DdosParams p = {4, 8, 8, 8, 0};
	DdosHistory h;
	ddos_history_init(&h, &p);
	cr_expect_eq(ddos_hash(7, 4, 0), 0x7);
	cr_expect_eq(ddos_hash(18, 4, 0), 0x2);
	cr_expect(!ddos_insert(&h, &p, 7, 1, 0), "1a");
	cr_expect(!ddos_insert(&h, &p, 18, 0, 0), "2a");
	cr_expect_eq(h.front_path - 1, 1, "match pointer 1 after 2 insertions");
	cr_expect(!ddos_insert(&h, &p, 7, 1, 0), "3");
	cr_expect_eq(h.front_path - 1, 2, "match pointer 2");
	cr_expect_eq(h.target - h.matches, 1, "first match: one remaining");
	cr_expect(ddos_insert(&h, &p, 18, 0, 0), "4: spinning");
	cr_expect_eq(h.target - h.matches, 0);
	SibTable t = {.threshold = 4};
	for (int k = 1; k <= 4; k++) {
		cr_expect(!sibpt_confirmed(&t, 19));
		cr_expect_eq(sibpt_update(&t, 19, h.spinning), k == 4, "spinning execution %d", k);
		ddos_insert(&h, &p, 7, 1, 0); /* the loop goes on failing: still spinning */
		cr_expect(ddos_insert(&h, &p, 18, 0, 0));
	}
	cr_expect(sibpt_confirmed(&t, 19));
	cr_expect(!ddos_insert(&h, &p, 7, 0, 0), "5: the CAS succeeded, the value differs");
	cr_expect(!h.spinning && !h.potential && h.front_path == 0);
	ddos_history_free(&h);
}

/* A non-spinning warp lowers an unconfirmed branch's confidence (decay). */
Test(sm_sched, ddos_sibpt_decays)
{
	SibTable t = {.threshold = 4};
	sibpt_update(&t, 5, true);
	sibpt_update(&t, 5, true);
	sibpt_update(&t, 5, false);
	sibpt_update(&t, 5, true);
	cr_expect(!sibpt_update(&t, 5, true), "2 - 1 + 2 = 3 < 4");
	cr_expect(sibpt_update(&t, 5, true));
	sibpt_update(&t, 5, false); /* a confirmed SIB stays */
	cr_expect(sibpt_confirmed(&t, 5));
}

/* 28, third bullet: the Fig. 6.6c counted loop (k-means: setp.lt %r20, %r15
** at 0x058 with %r20 the induction variable) never spins, under MODULO
** m = k = 4 and under the chosen XOR m = k = 8; so its backward branch is
** never confirmed. */
Test(sm_sched, e28_ddos_fig_6_6c_never)
{
	DdosParams ps[2] = {{4, 8, 8, 8, 0}, {8, 8, 16, 8, 1}};
	for (int k = 0; k < 2; k++) {
		DdosHistory h;
		ddos_history_init(&h, &ps[k]);
		SibTable t = {.threshold = 4};
		for (int64_t i = 1; i <= 1000; i++) {
			cr_expect(!ddos_insert(&h, &ps[k], 11, i, 1000), "%s: spinning at iteration %lld",
			          k ? "XOR" : "MODULO", (long long)i);
			cr_expect(!sibpt_update(&t, 12, h.spinning));
		}
		cr_expect(!sibpt_confirmed(&t, 12));
		ddos_history_free(&h);
	}
}

/* The XOR hash folds the bits: PC[m-1:0] xor PC[2m-1:m] xor ... */
Test(sm_sched, ddos_xor_hash)
{
	cr_expect_eq(ddos_hash(0x1234, 4, 1), 0x1 ^ 0x2 ^ 0x3 ^ 0x4);
	cr_expect_eq(ddos_hash(0x1234, 4, 0), 0x4);
	cr_expect_eq(ddos_hash(0x10, 4, 1), 0x1, "MODULO would alias 0x10 with 0");
}

/* ---- BOWS (seed 004 §6.2) ----------------------------------------------- */

/* 28, first bullet: without spin loops bows:gto (DDOS: XOR, m = k = 8)
** gives exactly GTO's cycle count and confirms no SIB: counted loops,
** divergent loops, branches, barriers. */
Test(sm_sched, e28_bows_neutral_without_spinning)
{
	/* files run with 256 threads in warps of 32; two loops of their own:
	** a countdown branching on the counter itself (a setp of x, 0), and a
	** walk over memory whose loads change every iteration */
	const char *files[] = {"bench/sm_chains.simd",     "examples/tid_loop.simd",       "examples/if_else.simd",
	                       "examples/nested_else.simd", "examples/barrier_uniform.simd", "examples/short_circuit.simd",
	                       "examples/sum_triangle.simd"};
	const char *own[] = {".threads 256\n.warpsize 32\n       i = 40\n       x = tid\nloop:  x = x * 3\n"
	                     "       x = x % 1000\n       i = i - 1\n       bnz i, loop\n       sync\n       stop\n",
	                     ".threads 256\n.warpsize 32\n.memory zero\n       a = tid\n       s = 0\n"
	                     "loop:  v = mem[a]\n       s = s + v\n       a = a + 7\n       mem[a] = s\n       p = a < 1000\n"
	                     "       bnz p, loop\n       sync\n       stop\n"};
	int nf = (int)(sizeof files / sizeof *files), no = (int)(sizeof own / sizeof *own);
	for (int i = 0; i < nf + no; i++) {
		char *src = i < nf ? source(files[i]) : xstrdup(own[i - nf]);
		const char *name = i < nf ? files[i] : own[i - nf];
		SemOptions o = {.threads = i < nf ? 256 : 0, .warpsize = i < nf ? 32 : 0};
		for (int ns = 1; ns <= 4; ns *= 4) {
			SmConfig c = config();
			c.num_sched = ns;
			set_sched(&c, "gto");
			Sim g = sim(src, &c, &o);
			set_sched(&c, "bows:gto");
			Sim b = sim(src, &c, &o);
			cr_expect_eq(b.r->status, g.r->status, "%s", name);
			cr_expect_eq(b.r->cycles, g.r->cycles, "%s, %d schedulers: bows:gto %llu cycles, gto %llu", name, ns,
			             (unsigned long long)b.r->cycles, (unsigned long long)g.r->cycles);
			cr_expect_eq(b.r->warp_insn, g.r->warp_insn, "%s", name);
			cr_expect_eq(b.r->nsibs, 0, "%s: a SIB confirmed", name);
			cr_expect_eq(b.r->sib_executions, 0u);
			done(&g);
			done(&b);
		}
		free(src);
	}
}

/* The HT kernel (bench/sm_hashtable.simd: 8 warps, a done-flag lock per
** bucket) with 16 buckets on 2 schedulers (the thesis's GTX480 has 2). */
static Sim run_ht(const char *sched, int mode, int delay)
{
	char *src = source("bench/sm_hashtable.simd"), *ht = replaced(src, "buckets = 4", "buckets = 16");
	SmConfig c = config();
	c.num_sched = 2;
	set_sched(&c, sched);
	c.bows_backoff_mode = mode;
	c.bows_delay = delay;
	Sim x = sim(ht, &c, NULL);
	cr_assert_eq(x.r->status, SM_OK, "%s: %s", sched, sm_status_name(x.r->status));
	free(src);
	free(ht);
	return x;
}

/* 28, second bullet: on the HT-style kernel BOWS executes strictly fewer
** dynamic instructions and lock attempts (and failures) than GTO: DDOS
** confirms the loop's backward branch, and the spinning warps back off.
** Every thread's node is in its bucket's chain either way. */
Test(sm_sched, e28_bows_fewer_instructions_and_lock_attempts)
{
	Sim g = run_ht("gto", 3, 1000), b = run_ht("bows:gto", 3, 1000);
	cr_expect_lt(b.r->warp_insn, g.r->warp_insn, "bows %llu, gto %llu warp instructions",
	             (unsigned long long)b.r->warp_insn, (unsigned long long)g.r->warp_insn);
	cr_expect_lt(b.r->lock_attempts, g.r->lock_attempts, "bows %llu, gto %llu lock attempts",
	             (unsigned long long)b.r->lock_attempts, (unsigned long long)g.r->lock_attempts);
	cr_expect_lt(b.r->lock_failures, g.r->lock_failures);
	cr_expect_eq(g.r->lock_attempts - g.r->lock_failures, 256u, "one successful acquire per thread");
	cr_expect_eq(b.r->lock_attempts - b.r->lock_failures, 256u);
	cr_expect_eq(b.r->nsibs, 1);
	cr_expect(b.r->sib_executions > 0 && b.r->backoff_cycles > 0);
	const Program *p = b.r->m->prog;
	cr_expect_eq(p->ins[b.r->sib_pc[0]].op, OP_BZ, "the SIB is the loop's `bz done, try`");
	done(&g);
	done(&b);
}

/* The back-off delay: none under mode 1 (BOWS only deprioritises); under
** a fixed delay the per-warp backed_off cycles (those in which the delay
** alone held a warp: no data or structural hazard) are part of it. */
Test(sm_sched, bows_backoff_delay)
{
	Sim n = run_ht("bows:gto", 1, 1000), f = run_ht("bows:gto", 2, 200);
	cr_expect_eq(n.r->backoff_cycles, 0u);
	cr_expect_eq(n.r->delay_limit, 0);
	cr_expect_gt(f.r->backoff_cycles, 0u);
	cr_expect_eq(f.r->delay_limit, 200);
	uint64_t sum = 0;
	for (int32_t w = 0; w < f.r->nwarps; w++)
		sum += f.r->backed_off[w];
	cr_expect_gt(sum, 0u);
	cr_expect_leq(sum, f.r->backoff_cycles);
	done(&n);
	done(&f);
}

/* The adaptive limit (thesis Fig. 6.4): on the HT kernel SIB executions
** are far above 5% of the instructions, so the limit climbs from b to the
** 10 b ceiling. */
Test(sm_sched, bows_adaptive_limit)
{
	Sim a = run_ht("bows:gto", 3, 100);
	cr_expect_gt(a.r->delay_limit, 100);
	cr_expect_leq(a.r->delay_limit, 1000);
	done(&a);
}
