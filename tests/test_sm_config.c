/*
** test_sm_config.c — the SM model's configuration (src/sm/config.c,
** presets.c; docs/sm-config.md): the gpgpusim.config syntax, every kind
** of value, --set, the three kinds of option names, bad values, the
** presets and the printer's round trip.
*/
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sm.h"

/* Read text over the default; the rendered diagnostics in *out (if given). */
static bool rd(SmConfig *c, const char *text, Buf *ignored, char **out)
{
	Diags d;
	diag_init(&d, "t.config", text, strlen(text));
	bool ok = sm_config_read(c, "t.config", text, strlen(text), ignored, &d);
	cr_expect_eq(ok, d.nerrors == 0, "the result says what the diagnostics say");
	Buf b = {0};
	diag_render(&d, &b);
	if (out)
		*out = buf_steal(&b);
	buf_free(&b);
	diag_free(&d);
	return ok;
}

/* Read text that must be fine. */
static void ok(SmConfig *c, const char *text)
{
	char *msg;
	bool r = rd(c, text, NULL, &msg);
	cr_assert(r, "%s: %s", text, msg);
	free(msg);
}

/* Read text that must fail with a message holding want (and caret, when
** given, as the caret line). */
static void fails(const char *text, const char *want, const char *caret)
{
	SmConfig c;
	sm_config_default(&c);
	char *msg;
	cr_expect_not(rd(&c, text, NULL, &msg), "%s was accepted", text);
	cr_expect(strstr(msg, want), "%s:\n%s\nhas no '%s'", text, msg, want);
	if (caret)
		cr_expect(strstr(msg, caret), "%s:\n%s\nhas no caret line '%s'", text, msg, caret);
	free(msg);
}

static char *printed(const SmConfig *c)
{
	Buf b = {0};
	sm_config_print(c, &b);
	return buf_steal(&b);
}

Test(sm_config, default_values)
{
	SmConfig c;
	sm_config_default(&c);
	cr_expect_eq(c.max_threads, 2048);
	cr_expect_eq(c.warp_size, 32);
	cr_expect_eq(c.registers, 65536);
	cr_expect_eq(c.num_sched, 4);
	cr_expect_str_eq(c.scheduler, "lrr");
	cr_expect_eq(c.lat_int[SM_ADD], 4);
	cr_expect_eq(c.lat_int[SM_SHFL], 21);
	cr_expect_eq(c.ii_int[SM_DIV], 8);
	cr_expect_eq(c.lat_sfu, 100);
	cr_expect_eq(c.smem_latency, 20);
	cr_expect(c.core_clock_mhz == 1132.0 && c.dram_clock_mhz == 850.0);
	cr_expect_eq(c.progress_window, 100000);
	cr_expect_eq(c.kernel_launch_latency, 5000);
	cr_expect_str_eq(c.reconvergence, "ipdom");
	cr_expect_not(c.taken_first);
	cr_expect(c.sub_core && c.deadlock_detect && !c.shmem_limited_broadcast);
}

Test(sm_config, value_kinds)
{
	SmConfig c;
	sm_config_default(&c);
	ok(&c, "-gpgpu_num_sched_per_core 2\n"                  /* int */
	       "-gpgpu_sub_core_model 0\n"                      /* bool */
	       "-gpgpu_max_cycle 123456789012\n"                /* int64 */
	       "-gpgpu_scheduler two_level_active:6:0:1\n"      /* string */
	       "-ptx_opcode_latency_int 1,2,3,4,5,6\n"          /* comma list */
	       "-gpgpu_shader_core_pipeline 1536:32\n"          /* colon forms */
	       "-gpgpu_clock_domains 1447.5:1447.0:1447.0:877.25\n"
	       "-musimd_reconvergence its\n"
	       "-musimd_path_order taken\n");
	cr_expect_eq(c.num_sched, 2);
	cr_expect_not(c.sub_core);
	cr_expect_eq(c.max_cycle, 123456789012);
	cr_expect_str_eq(c.scheduler, "two_level_active:6:0:1");
	for (int i = 0; i < SM_NOPCLASS; i++)
		cr_expect_eq(c.lat_int[i], i + 1);
	cr_expect_eq(c.max_threads, 1536);
	cr_expect(c.core_clock_mhz == 1447.5 && c.icnt_clock_mhz == 1447.0 && c.dram_clock_mhz == 877.25);
	cr_expect_str_eq(c.reconvergence, "its");
	cr_expect(c.taken_first);
	/* GPGPU-Sim 3.x's five classes: SHFL keeps its value */
	ok(&c, "-ptx_opcode_initiation_int 1,2,2,1,7");
	cr_expect_eq(c.ii_int[SM_DIV], 7);
	cr_expect_eq(c.ii_int[SM_SHFL], 4);
	/* the trace form sets the ADD entry of its class */
	ok(&c, "-trace_opcode_latency_initiation_int 6,3\n-trace_opcode_latency_initiation_sfu 21,8");
	cr_expect(c.lat_int[SM_ADD] == 6 && c.ii_int[SM_ADD] == 3 && c.lat_int[SM_MAX] == 2);
	cr_expect(c.lat_sfu == 21 && c.ii_sfu == 8);
	/* -gpgpu_simd_model: 1 the stack, 2 AWARE */
	ok(&c, "-gpgpu_simd_model 2");
	cr_expect_str_eq(c.reconvergence, "aware");
	ok(&c, "-gpgpu_simd_model 1");
	cr_expect_str_eq(c.reconvergence, "ipdom");
}

Test(sm_config, later_lines_win_comments_quotes)
{
	SmConfig c;
	sm_config_default(&c);
	ok(&c, "# a comment line\n"
	       "-gpgpu_smem_latency 30   # a trailing comment\n"
	       "\t-gpgpu_smem_latency   31\r\n"
	       "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
	       "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
	       "-gpgpu_scheduler \"gto\" -gpgpu_num_sched_per_core 3   # two on a line\n"
	       "-gpgpu_smem_latency=32\n");
	cr_expect_eq(c.smem_latency, 32);
	cr_expect_str_eq(c.scheduler, "gto");
	cr_expect_eq(c.num_sched, 3);
	/* a quoted value spanning lines: later lines are still counted */
	fails("-gpgpu_dram_timing_opt \"a\nb\nc\"\n-gpgpu_smem_latency x\n", "t.config:4:21: error:", NULL);
	fails("-gpgpu_dram_timing_opt \"nbk=16\n-gpgpu_smem_latency 3\n", "no closing '\"'", NULL);
}

Test(sm_config, set_overrides)
{
	SmConfig c;
	sm_config_default(&c);
	Diags d;
	const char *args[] = {"-gpgpu_scheduler=gto", "-gpgpu_num_sched_per_core 2", "-musimd_path_order=taken"};
	for (int i = 0; i < 3; i++) {
		diag_init(&d, "--set", args[i], strlen(args[i]));
		cr_expect(sm_config_set(&c, args[i], NULL, &d), "%s", args[i]);
		diag_free(&d);
	}
	cr_expect_str_eq(c.scheduler, "gto");
	cr_expect_eq(c.num_sched, 2);
	cr_expect(c.taken_first);
	/* one option, with a value, a known name */
	const char *bad[] = {"-gpgpu_scheduler", "-gpgpu_smem_latency=1 -gpgpu_num_sp_units=2", "",
	                     "-gpgpu_shader_ctaa=3", "-gpgpu_smem_latency=0"};
	const char *want[] = {"needs a value", "one option", "needs an option", "did you mean '-gpgpu_shader_cta'",
	                      "too small (at least 1)"};
	for (int i = 0; i < 5; i++) {
		diag_init(&d, "--set", bad[i], strlen(bad[i]));
		cr_expect_not(sm_config_set(&c, bad[i], NULL, &d), "%s", bad[i]);
		Buf b = {0};
		diag_render_options(&d, "musimd sm", &b);
		cr_expect(strstr(buf_str(&b), want[i]), "%s: %s", bad[i], buf_str(&b));
		buf_free(&b);
		diag_free(&d);
	}
	cr_expect_eq(c.smem_latency, 20, "a refused value leaves the option as it was");
}

Test(sm_config, unknown_names)
{
	/* file:line:col, the line, a caret under the name, the closest names */
	fails("-gpgpu_smem_latency 20\n  -gpgpu_shader_ctaa 32\n", "t.config:2:3: error: unknown option '-gpgpu_shader_ctaa'; did you mean '-gpgpu_shader_cta'?",
	      "   |   ^~~~~~~~~~~~~~~~~~\n");
	fails("-ptx_opcode_latency_intt 4\n", "did you mean '-ptx_opcode_latency_int'?", NULL);
	fails("-icnt_flitsize 40\n", "did you mean '-icnt_flit_size'?", NULL);  /* a known, unmodelled one */
	fails("-no_such_thing_at_all 1\n", "unknown option '-no_such_thing_at_all'\n", NULL);
	fails("gpgpu_smem_latency 20\n", "expected an option (-name value), not 'gpgpu_smem_latency'; did you mean '-gpgpu_smem_latency'?", NULL);
	fails("-gpgpu_smem_latency 20 30\n", "'30' after the value of -gpgpu_smem_latency", NULL);
	fails("- 3\n", "expected an option", NULL);
	/* every error is reported, not only the first */
	SmConfig c;
	sm_config_default(&c);
	char *msg;
	cr_expect_not(rd(&c, "-a 1\n-b 2\n-gpgpu_smem_latency 7\n-c 3\n", NULL, &msg));
	cr_expect(strstr(msg, ":1:1:") && strstr(msg, ":2:1:") && strstr(msg, ":4:1:"), "%s", msg);
	cr_expect_eq(c.smem_latency, 7, "the good lines are read");
	free(msg);
}

Test(sm_config, ignored_names)
{
	SmConfig c, d0;
	sm_config_default(&c);
	sm_config_default(&d0);
	Buf ign = {0};
	char *msg;
	cr_assert(rd(&c, "-icnt_flit_size 40\n-power_simulation_enabled 0\n-gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4\n"
	              "-icnt_flit_size 32\n-visualizer_enabled 0\n-gpgpu_perfect_mem 0\n",
	             &ign, &msg),
	          "%s", msg);
	free(msg);
	cr_expect_str_eq(buf_str(&ign),
	                 "-icnt_flit_size -power_simulation_enabled -gpgpu_cache:il1 -visualizer_enabled -gpgpu_perfect_mem");
	cr_expect_eq(memcmp(&c, &d0, sizeof c), 0, "ignored options change nothing");
	/* --set collects them the same way, once */
	Diags d;
	const char *arg = "-icnt_flit_size=8";
	diag_init(&d, "--set", arg, strlen(arg));
	cr_expect(sm_config_set(&c, arg, &ign, &d));
	diag_free(&d);
	cr_expect_str_eq(buf_str(&ign),
	                 "-icnt_flit_size -power_simulation_enabled -gpgpu_cache:il1 -visualizer_enabled -gpgpu_perfect_mem");
	buf_free(&ign);
	cr_expect_geq(sm_config_known_count(), 200, "the table of GPGPU-Sim names");
}

Test(sm_config, bad_values)
{
	fails("-gpgpu_smem_latency abc\n", "t.config:1:21: error: -gpgpu_smem_latency: 'abc' is not an integer", "^~~");
	fails("-ptx_opcode_latency_int 4,13,4\n", "expected 6 numbers ADD,MAX,MUL,MAD,DIV,SHFL (or the first 5), found 3", NULL);
	fails("-ptx_opcode_latency_int 4,13,4,5,145,21,7\n", "found 7", NULL);
	/* an element of a list: the caret under it */
	fails("-ptx_opcode_latency_int 4,13,-4,5,145,21\n", "-4 is too small (at least 1)", "   |                              ^~\n");
	fails("-ptx_opcode_initiation_int 2,2,0,2,8,4\n", "0 is too small (at least 1)", NULL);
	fails("-ptx_opcode_latency_int 4,,4,5,145,21\n", "a number is missing here", NULL);
	fails("-trace_opcode_latency_initiation_int 4\n", "expected LATENCY,INITIATION", NULL);
	fails("-trace_opcode_latency_initiation_sfu 4,0\n", "0 is too small", NULL);
	fails("-ptx_opcode_latency_sfu -3\n", "-3 is too small (at least 1)", NULL);
	fails("-gpgpu_shader_core_pipeline 2048:0\n", "0 is too small (at least 1)", NULL);
	fails("-gpgpu_shader_core_pipeline 2048\n", "expected THREADS:WARPSIZE", NULL);
	fails("-gpgpu_shader_core_pipeline 100:32\n", "100 threads are not a whole number of warps of 32", NULL);
	fails("-gpgpu_clock_domains 1132.0:1132.0:850.0\n", "expected CORE:ICNT:L2:DRAM", NULL);
	fails("-gpgpu_clock_domains 1132.0:x:1132.0:850.0\n", "'x' is not a number", NULL);
	fails("-gpgpu_clock_domains 0:1:1:1\n", "a clock must be positive", NULL);
	fails("-gpgpu_clock_domains nan:1:1:1\n", "'nan' is not a number", NULL);
	fails("-gpgpu_sub_core_model 2\n", "expected 0 or 1, not '2'", NULL);
	fails("-gpgpu_simd_model 3\n", "3 is too large (at most 2)", NULL);
	fails("-musimd_reconvergence ipdomm\n", "unknown reconvergence model 'ipdomm' (sync, ipdom, aware, mp, tf, mimd, its); did you mean 'ipdom'?", NULL);
	fails("-musimd_path_order nottaken\n", "expected 'fallthrough' or 'taken'", NULL);
	fails("-gpgpu_max_cycle 99999999999999999999\n", "is not an integer", NULL);
	fails("-gpgpu_num_sched_per_core 0\n", "0 is too small (at least 1)", NULL);
	fails("-gpgpu_num_sfu_units 0\n", "0 is too small (at least 1)", NULL);
	fails("-gpgpu_scheduler \"lrr gto\"\n", "expected a word", NULL);
	fails("-gpgpu_scheduler aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", "at most 63 characters", NULL);
	fails("-gpgpu_smem_latency\n-gpgpu_num_sp_units 2\n", "-gpgpu_smem_latency needs a value on its line", NULL);
	fails("-gpgpu_smem_latency \" 20\"\n", "is not an integer", NULL);
	/* a GPGPU-Sim 3.x config's five classes and int units 0 are fine */
	SmConfig c;
	sm_config_default(&c);
	ok(&c, "-gpgpu_num_int_units 0\n-gpgpu_num_dp_units 0\n-gpgpu_shader_core_pipeline 32:1\n");
	cr_expect(c.num_int == 0 && c.warp_size == 1);
}

Test(sm_config, default_is_the_qv100_preset)
{
	SmConfig dflt, c;
	sm_config_default(&dflt);
	/* over a configuration that differs from qv100 in every field the
	** preset must set them all */
	memset(&c, 0, sizeof c);
	c.max_threads = 64, c.warp_size = 8, c.registers = 1, c.max_cta = 1, c.num_sched = 9;
	strcpy(c.scheduler, "gto");
	c.max_insn_issue_per_warp = 2, c.dual_issue_diff_exec_units = false, c.sub_core = false;
	c.num_sp = c.num_int = c.num_sfu = c.num_dp = 7;
	for (int i = 0; i < SM_NOPCLASS; i++)
		c.lat_int[i] = c.ii_int[i] = 99;
	c.lat_sfu = c.ii_sfu = 99;
	c.smem_latency = c.shmem_num_banks = c.shmem_warp_parts = 99;
	c.shmem_limited_broadcast = true;
	c.num_reg_banks = c.reg_file_port_throughput = 99;
	c.core_clock_mhz = c.icnt_clock_mhz = c.l2_clock_mhz = c.dram_clock_mhz = 1.5;
	c.deadlock_detect = false;
	c.max_cycle = c.max_insn = c.progress_window = 99;
	strcpy(c.reconvergence, "its");
	c.taken_first = true;
	c.stage_overhead = 99;
	c.kernel_launch_latency = 99;
	c.reg_bank_use_warp_id = false, c.specialized_oc = true, c.ibuffer = false, c.perfect_icache = false;
	c.oc_units_gen = c.oc_units_sp = c.oc_units_int = c.oc_units_sfu = c.oc_units_mem = 99;
	c.inst_fetch_throughput = c.icache_miss_latency = 99;
	c.registers_per_block = c.cta_threads = c.regs_per_thread = c.reg_alloc_unit = 99;
	c.aware_timeout = 99;
	c.sigma_global = true, c.coalesce_arch = 99;
	c.l1 = c.l2 = (SmCacheConfig){.nsets = 99};
	c.l1_latency = c.l1_banks = c.l1_banks_byte_interleaving = c.n_mem = c.n_sub_partition = 9;
	c.l2_rop_latency = c.dram_latency = 99;
	c.gmem_skip_l1d = true, c.local_mem_map = false;
	ok(&c, sm_config_preset("qv100"));
	char *a = printed(&dflt), *b = printed(&c);
	cr_expect_str_eq(a, b);
	cr_expect_eq(memcmp(&dflt, &c, sizeof c), 0, "sm_config_default and the qv100 preset differ");
	free(a);
	free(b);
}

Test(sm_config, presets_load_and_print_round_trip)
{
	int n = 0;
	for (int i = 0; sm_presets[i]; i++, n++) {
		const char *text = sm_config_preset(sm_presets[i]);
		cr_assert_not_null(text, "%s", sm_presets[i]);
		SmConfig c, r;
		sm_config_default(&c);
		Buf ign = {0};
		char *msg;
		cr_expect(rd(&c, text, &ign, &msg), "preset %s: %s", sm_presets[i], msg);
		free(msg);
		buf_free(&ign);
		/* what sm_config_print writes reads back to the same configuration */
		char *p = printed(&c);
		memset(&r, 0, sizeof r);
		ok(&r, p);
		cr_expect_eq(memcmp(&c, &r, sizeof c), 0, "%s: print/read round trip:\n%s", sm_presets[i], p);
		char *q = printed(&r);
		cr_expect_str_eq(p, q);
		free(p);
		free(q);
	}
	cr_expect_eq(n, 4);
	cr_expect_null(sm_config_preset("qv1000"));
	SmConfig a, b;
	sm_config_default(&a);
	SmConfig g;
	sm_config_default(&g);
	ok(&g, sm_config_preset("gtx480"));
	cr_expect(g.num_sched == 2 && !strcmp(g.scheduler, "gto") && g.num_int == 0 && g.max_threads == 1536);
	ok(&a, sm_config_preset("c2050-aware"));
	cr_expect_str_eq(a.reconvergence, "aware");
	cr_expect(a.core_clock_mhz == 575.0 && a.registers == 32768);
	sm_config_default(&b);
	ok(&b, sm_config_preset("qv100-hw"));
	cr_expect(b.lat_int[SM_ADD] == 4 && b.lat_sfu == 21 && b.smem_latency == 27);
	/* an odd clock and every printed line round-trip too */
	ok(&b, "-gpgpu_clock_domains 0.1:1e-300:123456.789:3\n-gpgpu_max_insn 9223372036854775807\n");
	char *p = printed(&b);
	memset(&a, 0, sizeof a);
	ok(&a, p);
	cr_expect_eq(memcmp(&a, &b, sizeof a), 0, "%s", p);
	free(p);
}

Test(sm_config, print_writes_every_modelled_option)
{
	SmConfig c;
	sm_config_default(&c);
	char *p = printed(&c);
	int lines = 0;
	for (const char *s = p; *s; s++)
		lines += *s == '\n';
	int n = sm_config_option_count(), aliases = 0;
	for (int i = 0; i < n; i++) {
		const char *name = sm_config_option_name(i);
		Buf line = {0};
		buf_printf(&line, "%s ", name);
		bool alias = !strcmp(name, "-gpgpu_simd_model") || !strncmp(name, "-trace_", 7) ||
		             !strcmp(name, "-gmem_skip_L1D") || !strcmp(name, "-rop_latency"); /* 3.x spellings */
		aliases += alias;
		cr_expect_eq(strstr(p, buf_str(&line)) != NULL, !alias, "%s", name);
		buf_free(&line);
	}
	cr_expect_eq(lines, n - aliases);
	cr_expect_null(sm_config_option_name(n));
	free(p);
}

/* docs/sm-config.md documents every modelled option. */
Test(sm_config, documented)
{
	size_t len;
	char *doc = read_file(MUSIMD_SOURCE_ROOT "/docs/sm-config.md", &len);
	cr_assert_not_null(doc);
	for (int i = 0; i < sm_config_option_count(); i++) {
		Buf w = {0};
		buf_printf(&w, "`%s`", sm_config_option_name(i));
		cr_expect(strstr(doc, buf_str(&w)), "docs/sm-config.md does not mention %s", buf_str(&w));
		buf_free(&w);
	}
	for (int i = 0; sm_presets[i]; i++) {
		Buf w = {0};
		buf_printf(&w, "`%s`", sm_presets[i]);
		cr_expect(strstr(doc, buf_str(&w)), "docs/sm-config.md does not mention the preset %s", sm_presets[i]);
		buf_free(&w);
	}
	Buf w = {0};
	buf_printf(&w, "%d names", sm_config_known_count());
	cr_expect(strstr(doc, buf_str(&w)), "docs/sm-config.md does not give the count '%s'", buf_str(&w));
	buf_free(&w);
	free(doc);
}

/* Only the first unknown names get a "did you mean" (each looks at every
** name): a text of many unknown names stays linear. */
Test(sm_config, suggestions_bounded)
{
	Buf t = {0};
	for (int i = 0; i < 40; i++)
		buf_puts(&t, "-gpgpu_shader_ctaa 1\n");
	SmConfig c;
	sm_config_default(&c);
	char *msg;
	cr_expect_not(rd(&c, buf_str(&t), NULL, &msg));
	int n = 0;
	for (const char *s = msg; (s = strstr(s, "did you mean")); s++)
		n++;
	cr_expect_eq(n, 32, "%d suggestions", n);
	cr_expect(strstr(msg, "t.config:40:1: error: unknown option '-gpgpu_shader_ctaa'\n"), "%s", msg);
	free(msg);
	buf_free(&t);
}
