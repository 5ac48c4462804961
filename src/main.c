/*
** main.c — the musimd command line (musimd(1)): subcommands parse their
** options, call the library and print what it returns. The only other
** place that prints or exits is the REPL.
*/
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ana.h"
#include "args.h"
#include "cfg.h"
#include "deadlock.h"
#include "xform/xform.h"
#include "frontier.h"
#include "gen.h"
#include "gsa.h"
#include "llvm.h"
#include "promela.h"
#include "verify.h"
#include "json.h"
#include "lab.h"
#include "repl.h"
#include "report.h"
#include "sem.h"
#include "syncs.h"
#include "sm/sm.h"

#ifndef MUSIMD_VERSION
#define MUSIMD_VERSION "0.1.0"
#endif

/* Exit status (musimd(1) EXIT STATUS) */
enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_INPUT = 3, EXIT_INCOMPLETE = 4 };

static void out(const Buf *b)
{
	fwrite(buf_str(b), 1, b->len, stdout);
}

/* A Sink to standard output. */
static void write_out(const Buf *b, void *ctx)
{
	(void)ctx;
	out(b);
}

static const Sink to_stdout = {write_out, NULL};

static void err(const Buf *b)
{
	fwrite(buf_str(b), 1, b->len, stderr);
}

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "musimd%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'musimd %s%s--help' for more information.\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

/* An option cmd does not know: a usage error that names the closest of its
** long options (all of them when arg is an ambiguous prefix, which
** getopt_long rejects). */
static int unknown_option(const char *cmd, const char *arg, const struct option *opts)
{
	Buf b = {0};
	if (arg[0] == '-' && arg[1] == '-' && arg[2]) {
		const char *name = arg + 2;
		size_t len = strcspn(name, "=");
		int prefixed = 0;
		const struct option *match = NULL;
		Suggest g;
		suggest_init(&g, name, len);
		for (const struct option *o = opts; o->name; o++) {
			suggest_add(&g, o->name);
			if (!strncmp(o->name, name, len)) {
				prefixed++;
				match = o;
			}
		}
		if (prefixed == 1 && name[len] == '=' && match->has_arg == no_argument) {
			buf_free(&b);
			return usage_error(cmd, "option '--%s' takes no argument", match->name);
		}
		buf_printf(&b, prefixed > 1 ? "ambiguous option '%.*s'" : "unknown option '%.*s'",
		           (int)(name + len - arg), arg);
		if (g.n)
			buf_puts(&b, "; ");
		suggest_print(&g, &b, "--");
	} else {
		buf_printf(&b, "unknown option '%s'", arg);
	}
	int status = usage_error(cmd, "%s", buf_str(&b));
	buf_free(&b);
	return status;
}

/* Load and validate a program; diagnostics to stderr. Returns NULL (and the
** diagnostics) on input errors. */
static Program *load(const char *file, bool quiet_warnings, int *status)
{
	size_t len = 0;
	const char *path = file_display_name(file); /* "-" is <stdin> */
	char *src = read_file(file, &len);
	if (!src) {
		fprintf(stderr, "%s: error: cannot read the file: %s\n", path, read_file_error(errno));
		*status = EXIT_INPUT;
		return NULL;
	}
	Diags d;
	diag_init(&d, path, src, len);
	d.max_errors = 100;
	Program *p = ir_load_owned(path, src, len, &d); /* p keeps src */
	if (d.nerrors > 0 || !quiet_warnings) {
		d.src = p->src;
		d.srclen = p->srclen;
		Buf b = {0};
		diag_render(&d, &b);
		err(&b);
		buf_free(&b);
	}
	bool bad = d.nerrors > 0;
	diag_free(&d);
	if (bad) {
		ir_free(p);
		*status = EXIT_INPUT;
		return NULL;
	}
	return p;
}

/* The program the analyses read (musimd-lang(7), Functions): p with its
** calls inlined, or p itself without calls; NULL (p freed, *status
** EXIT_INPUT) when the inlined program would be too large. */
static Program *inline_calls(Program *p, int *status)
{
	if (!p || !p->has_calls)
		return p;
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	int32_t n = 0, *origin = NULL;
	Program *q = xform_inline(p, &n, &origin, &d);
	free(origin);
	if (d.nerrors > 0) {
		Buf b = {0};
		diag_render(&d, &b);
		err(&b);
		buf_free(&b);
	}
	diag_free(&d);
	ir_free(p);
	if (!q)
		*status = EXIT_INPUT;
	return q;
}

/* load, then the calls inlined: what the analyses read. */
static Program *load_inlined(const char *file, bool quiet_warnings, int *status)
{
	return inline_calls(load(file, quiet_warnings, status), status);
}

/* In a subcommand's option loop: the usage error, then `done:`. */
#define CMD "run"
#define USAGE(...)                                                                          \
	do {                                                                                     \
		status = usage_error(CMD, __VA_ARGS__);                                              \
		goto done;                                                                           \
	} while (0)

/* ---- musimd run ---------------------------------------------------------------------- */

static const char run_help[] =
	"Usage: musimd run FILE [options]\n"
	"Run a μ-SIMD program with the big-step semantics of Sampaio 2013 (Tables\n"
	"3.2-3.5, errata corrected: musimd-lang(7) SEMANTICS, docs/semantics.md) and\n"
	"print the final state and the measures.\n"
	"\n"
	"Machine:\n"
	"  --threads N             number of threads (default .threads, else 4)\n"
	"  --warpsize N            threads per warp (default .warpsize, else all the\n"
	"                          threads in one warp)\n"
	"  --param NAME=INT        value of a .param (repeatable)\n"
	"  --data ADDR=INT[,INT..] initial shared memory from ADDR on (repeatable)\n"
	"  --model M               reconvergence model (default sync; its is its:rr):\n";
/* ... then one line per model (model_help), then: */
static const char run_help_tail[] =
	"  --path-order fallthrough-first|taken-first\n"
	"                          ipdom: which side of a divergent branch runs first\n"
	"  --aware-delay BRANCH:POINT[,BRANCH:POINT...]\n"
	"                          aware: delayed reconvergence points, each a LABEL or\n"
	"                          @LINE (BRANCH: an instruction of the block the branch\n"
	"                          ends; POINT must post-dominate it); repeatable\n"
	"  --aware-timeout T|any   aware: a reconvergence point some threads reached\n"
	"                          gives up after T steps of its warp without an\n"
	"                          arrival (any: only when a schedule chooses it)\n"
	"Paper readings:\n"
	"  --bz-polarity mnemonic|rules\n"
	"                          bz jumps where v = 0 (mnemonic, default) or where\n"
	"                          v != 0 (Table 3.4 read literally)\n"
	"  --strict-push           push exactly as printed in Table 3.3 (gets stuck on a\n"
	"                          branch inside the else part of a divergent branch)\n"
	"  --lane-order ascending|descending|random, --seed N\n"
	"                          order in which the active PEs perform a store or an\n"
	"                          atomic (rule TL)\n"
	"Limits:\n"
	"  --races warn|error      a data race is a warning (default) or stops the run\n"
	"  --max-steps N           stop after N warp instructions (default 10000000)\n"
	"  --max-thread-instructions N\n"
	"                          stop after N thread instructions, the active threads\n"
	"                          of every step summed (default 10000000000: wide warps\n"
	"                          reach it long before the step limit)\n"
	"  --max-time SECONDS      stop when the run has taken this long (fractions\n"
	"                          allowed; default none): status time-limit, exit 4\n"
	"  --max-cells N           at most N initialised memory cells (default 67108864)\n"
	"  --max-memory MiB        at most this much memory for the state: lane tables,\n"
	"                          memory cells, values beyond int64 (default 2048)\n"
	"  --max-bits N            at most N bits per integer value (default 1048576)\n"
	"Output:\n"
	"  --trace                 one line per step: step, instruction, rule fired (SF\n"
	"                          BT BF BD SS SP JP IT, and EX exit, BAR barrier\n"
	"                          arrival, NOP sync ignored by the model), Θ at the\n"
	"                          start, the stack after\n"
	"  --grid                  the ✓/• grid of Figure 3.4: one row per step, one\n"
	"                          column per thread\n"
	"  --trace-limit N         --trace and --grid show at most N steps (default\n"
	"                          100000; 0: every step); the run goes on to its end,\n"
	"                          and the exit status is 4 when the limit cut the trace\n"
	"  --profile               per conditional branch: visits and divergences; and\n"
	"                          how often a warp executed each basic block\n"
	"  --quiet                 no final state, only the status and the measures\n"
	"  --all                   print every thread's values and every memory row (the\n"
	"                          text output stops at 64 of each and says so; --json\n"
	"                          always has everything)\n"
	"  --json                  the result as JSON (musimd(1) OUTPUT); with --trace,\n"
	"                          the steps come first, under \"trace\"\n"
	"\n"
	"Exit status: 0 the program finished, 1 it got stuck, hit the step or the work\n"
	"limit, raced under --races=error or deadlocked, 2 usage error, 3 unreadable or\n"
	"invalid file, 4 inconclusive: --max-time stopped the run, or it finished but\n"
	"--trace-limit cut the trace or the grid short.\n";

/* What run's step hook needs: the output asked for, and the trace limit. */
typedef struct RunCtx {
	bool trace, grid, json;
	uint64_t limit;  /* steps traced at most; 0: all */
	uint64_t traced; /* steps traced so far */
	bool cut;        /* the limit cut the trace short */
	ReportCols cols; /* text: the columns of the trace and the grid */
	Buf line;        /* text lines, or JSON not yet written out */
	Json j;          /* --json --trace: the result object the trace streams into */
	bool cols_ready; /* sm: cols computed (at the first issue) */
} RunCtx;

/* JSON is written out in pieces of about this size. */
#define RUN_JSON_CHUNK (1 << 16)

/* A step for --trace/--grid: cycle >= 0 is the cycle and sched the warp
** scheduler of an SM issue (`musimd sm --trace`). */
static void trace_step(RunCtx *c, const Machine *m, const StepInfo *s, int64_t cycle, int32_t sched)
{
	if (c->cut || (c->json && !c->trace))
		return;
	if (c->limit && c->traced == c->limit) {
		c->cut = true;
		if (!c->json) {
			buf_reset(&c->line);
			buf_printf(&c->line, "... the trace stops after %llu steps (--trace-limit); the run goes on\n",
			           (unsigned long long)c->limit);
			out(&c->line);
		}
		return;
	}
	c->traced++;
	if (c->json) {
		report_trace_json_at(&c->j, m, s, cycle, sched);
		if (c->line.len >= RUN_JSON_CHUNK) {
			out(&c->line);
			buf_reset(&c->line);
		}
		return;
	}
	buf_reset(&c->line);
	if (cycle >= 0) {
		if (!c->cols_ready) { /* the machine exists from the first issue on */
			report_cols(&c->cols, m, c->limit ? c->limit : m->opt.max_steps);
			c->cols.prefix = 10;
		}
		c->cols_ready = true;
		buf_printf(&c->line, "%8lld  ", (long long)cycle);
	}
	if (c->trace)
		report_trace_line(&c->line, &c->cols, m, s);
	if (c->grid)
		report_grid_row(&c->line, &c->cols, m, s);
	out(&c->line);
}

static void run_hook(void *vctx, const Machine *m, const StepInfo *s)
{
	trace_step(vctx, m, s, -1, -1);
}

static void sm_hook(void *vctx, int64_t cycle, int32_t sched, const Machine *m, const StepInfo *s)
{
	trace_step(vctx, m, s, cycle, sched);
}

/* Index of arg among words (NULL-terminated), or -1 with msg set to
** "OPT must be a, b or c, not 'ARG'". */
static int choice(const char *opt, const char *arg, const char *const *words, char *msg, size_t len)
{
	int n = 0;
	while (words[n])
		n++;
	for (int i = 0; i < n; i++)
		if (!strcmp(arg, words[i]))
			return i;
	Buf b = {0};
	buf_printf(&b, "%s must be ", opt);
	for (int i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", words[i]);
	buf_printf(&b, ", not '%.100s'", arg);
	Suggest g;
	suggest_init(&g, arg, strlen(arg));
	for (int i = 0; i < n; i++)
		suggest_add(&g, words[i]);
	if (g.n)
		buf_puts(&b, "; ");
	suggest_print(&g, &b, "");
	snprintf(msg, len, "%s", buf_str(&b));
	buf_free(&b);
	return -1;
}

/* --model NAME of run, trace, ...: the message for a NAME model_find does
** not know, naming every model (tf's variants and the policies too), with
** a did-you-mean, into msg. */
static void bad_model(const char *name, char *msg, size_t len)
{
	const char *words[MODEL_WORDS];
	model_words(words, NULL, true);
	choice("--model", name, words, msg, len);
}

/* lhs := the index of optarg among the words (NULL-terminated), or a usage error. */
#define CHOICE_IN(opt, lhs, words)                                                          \
	do {                                                                                     \
		char msg_[256];                                                                      \
		int i_ = choice(opt, optarg, words, msg_, sizeof msg_);                              \
		if (i_ < 0)                                                                          \
			USAGE("%s", msg_);                                                               \
		lhs = i_;                                                                            \
	} while (0)
#define CHOICE(opt, lhs, ...)                                                               \
	do {                                                                                     \
		static const char *const words_[] = {__VA_ARGS__, NULL};                             \
		CHOICE_IN(opt, lhs, words_);                                                         \
	} while (0)

/* The machine a program runs on, as `run` and `emit-promela` take it:
** --threads ('t'), --warpsize ('w'), --param ('p'), --data ('d'). NULL, or
** what is wrong (in msg, or args.c's message). */
static const char *machine_option(int c, const char *arg, SemOptions *so, SemArgs *sa, char *msg,
                                  size_t len)
{
	long long v;
	switch (c) {
	case 't':
		if (!str_to_ll(arg, 1, SEM_MAX_THREADS, &v)) {
			snprintf(msg, len, "--threads needs a number from 1 to 4194304, not '%s'", arg);
			return msg;
		}
		so->threads = (int32_t)v;
		return NULL;
	case 'w':
		if (!str_to_ll(arg, 1, SEM_MAX_THREADS, &v)) {
			snprintf(msg, len, "--warpsize needs a positive number, not '%s'", arg);
			return msg;
		}
		so->warpsize = (int32_t)v;
		return NULL;
	case 'p': return args_param(sa, "--param", arg);
	case 'y': args_aware_delay(sa, arg); return NULL;
	case 'Y': return args_aware_timeout("--aware-timeout", arg, &so->aware_timeout);
	default: return args_data(sa, "--data", arg);
	}
}

/* --max-thread-instructions ('W') and --max-time ('X'): the work and the
** time a run may take. The deadline counts from now, the command's start. */
static const char *limit_option(int c, const char *arg, SemOptions *so)
{
	if (c == 'W')
		return args_max_work("--max-thread-instructions", arg, &so->max_thread_instructions);
	double secs;
	const char *bad = args_max_time("--max-time", arg, &secs);
	if (!bad)
		so->deadline = mono_seconds() + secs;
	return bad;
}

/* The aware model's options need it among the models asked for. */
static bool aware_options_apply(const SemOptions *so, const SemArgs *sa, bool aware)
{
	return aware || (!sa->aware_delay && so->aware_timeout == 0);
}

/* What sem_new (or the explorer) found wrong with the options: a place of
** the program (--aware-delay) as FILE:LINE:COL with the source line, the
** rest as "musimd CMD: MESSAGE". */
static void print_option_diags(const char *cmd, const Program *p, Diags *d)
{
	Buf b = {0}, prefix = {0};
	buf_printf(&prefix, "musimd %s", cmd);
	d->path = p->path;
	d->src = p->src;
	d->srclen = p->srclen;
	diag_render_options(d, buf_str(&prefix), &b);
	err(&b);
	buf_free(&b);
	buf_free(&prefix);
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"threads", required_argument, NULL, 't'},
		{"warpsize", required_argument, NULL, 'w'},
		{"param", required_argument, NULL, 'p'},
		{"data", required_argument, NULL, 'd'},
		{"model", required_argument, NULL, 'm'},
		{"path-order", required_argument, NULL, 'o'},
		{"aware-delay", required_argument, NULL, 'y'},
		{"aware-timeout", required_argument, NULL, 'Y'},
		{"bz-polarity", required_argument, NULL, 'z'},
		{"strict-push", no_argument, NULL, 'S'},
		{"lane-order", required_argument, NULL, 'l'},
		{"seed", required_argument, NULL, 's'},
		{"races", required_argument, NULL, 'r'},
		{"max-steps", required_argument, NULL, 'M'},
		{"max-thread-instructions", required_argument, NULL, 'W'},
		{"max-time", required_argument, NULL, 'X'},
		{"max-cells", required_argument, NULL, 'C'},
		{"max-memory", required_argument, NULL, 'R'},
		{"max-bits", required_argument, NULL, 'B'},
		{"trace", no_argument, NULL, 'T'},
		{"grid", no_argument, NULL, 'G'},
		{"trace-limit", required_argument, NULL, 'L'},
		{"profile", no_argument, NULL, 'P'},
		{"quiet", no_argument, NULL, 'q'},
		{"all", no_argument, NULL, 'a'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	SemOptions so = {0};
	RunCtx ctx = {.limit = 100000};
	bool profile = false, quiet = false, all = false;
	SemArgs sa = {0}; /* --param, --data */
	int status = EXIT_OK;
	long long v;
	char msg[512];
	int c;
	optind = 1;
	opterr = 0;
	const char *file = NULL;
	int nfiles = 0;
	/* "-" first: file names come back as 1, so options may follow them */
	while ((c = getopt_long(argc, argv, "-:h", opts, NULL)) != -1) {
		switch (c) {
		case 1:
			file = optarg;
			nfiles++;
			break;
		case 't':
		case 'w':
		case 'p':
		case 'd':
		case 'y':
		case 'Y': {
			const char *bad = machine_option(c, optarg, &so, &sa, msg, sizeof msg);
			if (bad)
				USAGE("%s", bad);
			break;
		}
		case 'm': {
			so.model = model_find(optarg); /* "its" is its:rr */
			if (!so.model) {
				char msg[512];
				bad_model(optarg, msg, sizeof msg);
				USAGE("%s", msg);
			}
			break;
		}
		case 'o':
			CHOICE("--path-order", so.taken_first, "fallthrough-first", "taken-first");
			break;
		case 'z':
			CHOICE("--bz-polarity", so.bz_rules, "mnemonic", "rules");
			break;
		case 'S': so.strict_push = true; break;
		case 'l':
			CHOICE("--lane-order", so.lane_order, "ascending", "descending", "random"); /* ORDER LaneOrder */
			break;
		case 's':
			if (!str_to_ll(optarg, 0, LLONG_MAX, &v))
				USAGE("--seed needs a non-negative number, not '%s'", optarg);
			so.seed = (uint64_t)v;
			break;
		case 'r':
			CHOICE("--races", so.races_error, "warn", "error");
			break;
		case 'M':
			if (!str_to_ll(optarg, 1, LLONG_MAX, &v))
				USAGE("--max-steps needs a positive number, not '%s'", optarg);
			so.max_steps = (uint64_t)v;
			break;
		case 'W':
		case 'X': {
			const char *bad = limit_option(c, optarg, &so);
			if (bad)
				USAGE("%s", bad);
			break;
		}
		case 'C':
			if (!str_to_ll(optarg, 1, LLONG_MAX, &v))
				USAGE("--max-cells needs a positive number, not '%s'", optarg);
			so.max_cells = (uint64_t)v;
			break;
		case 'R':
		{
			const char *bad = args_max_memory("--max-memory", optarg, &so.max_memory);
			if (bad)
				USAGE("%s", bad);
		}
			break;
		case 'B':
			if (!str_to_ll(optarg, 128, 1LL << 32, &v))
				USAGE("--max-bits needs a number from 128 to 4294967296, not '%s'",
				                   optarg);
			num_max_bits = (uint64_t)v;
			break;
		case 'T': ctx.trace = true; break;
		case 'L':
			if (!str_to_ll(optarg, 0, LLONG_MAX, &v))
				USAGE("--trace-limit needs a number of steps (0: no limit), not '%s'", optarg);
			ctx.limit = (uint64_t)v;
			break;
		case 'G': ctx.grid = true; break;
		case 'P': profile = true; break;
		case 'q': quiet = true; break;
		case 'a': all = true; break;
		case 'j': ctx.json = true; break;
		case 'h': {
			Buf h = {0};
			buf_puts(&h, run_help);
			model_help(&h, 4, 79, true);
			buf_puts(&h, run_help_tail);
			out(&h);
			buf_free(&h);
			goto done;
		}
		case ':': USAGE("option '%s' needs an argument", argv[optind - 1]);
		default: status = unknown_option(CMD, argv[optind - 1], opts); goto done;
		}
	}
	for (; optind < argc; optind++, nfiles++) /* after "--" */
		file = argv[optind];
	if (nfiles != 1)
		USAGE(nfiles ? "takes one FILE, got %s" : "needs a FILE%s", nfiles ? "several" : "");
	if (!aware_options_apply(&so, &sa, so.model == &model_aware))
		USAGE("--aware-delay and --aware-timeout are options of --model aware%s", "");
	args_lend(&sa, &so);

	Program *p = load(file, false, &status);
	if (p) {
		Diags d;
		diag_init(&d, file, NULL, 0);
		Machine *m = sem_new(p, &so, &d);
		if (!m) {
			print_option_diags("run", p, &d);
			status = EXIT_USAGE;
		} else {
			uint64_t last = m->opt.max_steps; /* the largest step number shown */
			if (ctx.limit && ctx.limit < last)
				last = ctx.limit;
			if ((ctx.trace || ctx.grid) && !ctx.json)
				report_cols(&ctx.cols, m, last);
			if (ctx.grid && !ctx.json) {
				Buf h = {0};
				report_grid_header(&h, &ctx.cols, m);
				out(&h);
				buf_free(&h);
			}
			json_init(&ctx.j, &ctx.line);
			if (ctx.json && ctx.trace)
				report_json_trace_begin(&ctx.j);
			sem_run(m, (ctx.trace || ctx.grid) ? run_hook : NULL, &ctx);
			Buf b = {0};
			report_races(&b, m);
			report_error(&b, m);
			if (ctx.cut)
				buf_printf(&b, "musimd run: warning: the %s stops after %llu of %llu steps "
				           "(--trace-limit %llu; 0 shows every step); the result is complete\n",
				           ctx.trace ? "trace" : "grid", (unsigned long long)ctx.limit,
				           (unsigned long long)m->steps, (unsigned long long)ctx.limit);
			err(&b);
			buf_free(&b);
			if (ctx.json) {
				TraceEnd te = {ctx.limit, !ctx.cut};
				report_run_json(&ctx.j, m, ctx.trace ? &te : NULL);
			} else {
				buf_reset(&ctx.line);
				report_run_text(&ctx.line, m, profile, !quiet, all);
			}
			out(&ctx.line);
			status = m->status == SEM_TIME_LIMIT ? EXIT_INCOMPLETE
			         : m->status != SEM_OK      ? EXIT_FAILED
			         : ctx.cut                  ? EXIT_INCOMPLETE
			                                    : EXIT_OK;
			sem_free(m);
		}
		diag_free(&d);
		ir_free(p);
	}
done:
	buf_free(&ctx.line);
	args_free(&sa);
	return status;
}

/* ---- musimd check -------------------------------------------------------------------- */

static const char check_help[] =
	"Usage: musimd check FILE... [--json]\n"
	"Parse and validate every FILE (musimd-lang(7): Basic blocks and validation)\n"
	"and print all diagnostics, GNU style, with the source line and a caret; warn\n"
	"where a run under --model sync can get stuck (a stop reached with a branch's\n"
	"node on the stack, a sync no branch reaches, a stack that grows in a loop)\n"
	"and say where the sync belongs or why none fits (musimd syncs FILE places\n"
	"them). With --json, one object per file:\n"
	"{\"file\", \"ok\", \"errors\", \"warnings\", \"diagnostics\": [{\"severity\", \"line\",\n"
	"\"column\", \"message\"}]}.\n"
	"\n"
	"Exit status: 0 every file is valid (warnings allowed), 2 usage error,\n"
	"3 some file is unreadable or invalid.\n";

static int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {{"json", 0, NULL, 0}, {"help", 0, NULL, 0}, {NULL, 0, NULL, 0}};
	bool json = false;
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(check_help, stdout);
			return EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1])
			return unknown_option("check", argv[i], opts);
		else
			nfiles++;
	}
	if (!nfiles)
		return usage_error("check", "needs at least one FILE%s", "");
	int status = EXIT_OK;
	Buf b = {0};
	Json j;
	json_init(&j, &b);
	if (json)
		json_arr(&j);
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1])
			continue;
		const char *path = file_display_name(argv[i]);
		size_t len = 0;
		char *src = read_file(argv[i], &len);
		Diags d;
		diag_init(&d, path, src, len);
		d.max_errors = 100;
		Program *p = NULL;
		if (!src)
			diag_error(&d, LOC_NONE, "cannot read the file: %s", read_file_error(errno));
		else
			p = ir_load(path, src, len, &d);
		if (d.nerrors == 0 && p && p->cfg) {
			/* where a run under --model sync can get stuck, and where the syncs belong */
			syncs_check(p, &d, 16);
			diag_sort(&d);
		}
		if (d.nerrors > 0)
			status = EXIT_INPUT;
		if (json) {
			json_obj(&j);
			json_key(&j, "file");
			json_str(&j, path);
			json_key(&j, "ok");
			json_bool(&j, d.nerrors == 0);
			json_key(&j, "errors");
			json_int(&j, d.nerrors);
			json_key(&j, "warnings");
			json_int(&j, d.nwarnings);
			json_key(&j, "diagnostics");
			json_arr(&j);
			for (int k = 0; k < d.n; k++) {
				json_obj(&j);
				json_key(&j, "severity");
				json_str(&j, d.v[k].sev == SEV_ERROR ? "error" : d.v[k].sev == SEV_WARNING ? "warning" : "note");
				json_key(&j, "line");
				json_int(&j, d.v[k].loc.line);
				json_key(&j, "column");
				json_int(&j, diag_col(d.src, d.srclen, d.v[k].loc.off));
				json_key(&j, "message");
				json_str(&j, d.v[k].msg);
				json_obj_end(&j);
			}
			json_arr_end(&j);
			json_obj_end(&j);
		} else {
			Buf e = {0};
			diag_render(&d, &e);
			err(&e);
			buf_free(&e);
			if (d.nerrors == 0)
				printf("%s: ok (%d instruction%s%s%s)\n", path, p->nins, p->nins == 1 ? "" : "s",
				       d.nwarnings ? ", warnings: " : "", d.nwarnings ? "see above" : "");
		}
		diag_free(&d);
		ir_free(p);
		free(src);
	}
	if (json) {
		json_arr_end(&j);
		out(&b);
	}
	buf_free(&b);
	return status;
}

/* ---- musimd cfg ------------------------------------------------------------------------ */

static const char cfg_help[] =
	"Usage: musimd cfg FILE [--dot | --frontiers[=rpo|layout]]\n"
	"Print the basic blocks (musimd-lang(7)), the edges, the dominator and\n"
	"post-dominator trees (post-dominance with a virtual exit), the immediate\n"
	"post-dominator of every conditional branch (its reconvergence point) and the\n"
	"natural loops. With --dot, a Graphviz digraph (edges labelled fall-through and\n"
	"taken; dotted: the reconvergence point of each branch).\n"
	"With --frontiers, the thread frontiers of Diamos et al. (MICRO 2011,\n"
	"Algorithm 1) instead: the block priorities (reverse post-order, the paper's;\n"
	"=layout: program order), each block's frontier (the blocks where threads of\n"
	"the warp may wait while it runs; every conditional branch counts as\n"
	"divergent), the re-convergence checks (edges into a block of the source's\n"
	"frontier) and their count against the branches' post-dominators.\n"
	"\n"
	"Exit status: 0 ok, 2 usage error, 3 unreadable or invalid file.\n";

static int cmd_cfg(int argc, char **argv)
{
	static const struct option opts[] = {{"dot", 0, NULL, 0}, {"frontiers", 2, NULL, 0}, {"help", 0, NULL, 0},
	                                     {NULL, 0, NULL, 0}};
	static const char *const orders[] = {"rpo", "layout", NULL};
	bool dot = false;
	int frontiers = -1; /* a FrontierOrder, or -1: none */
	const char *file = NULL;
	int nfiles = 0;
	char msg[256];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dot"))
			dot = true;
		else if (!strcmp(argv[i], "--frontiers"))
			frontiers = FRONTIER_RPO;
		else if (!strncmp(argv[i], "--frontiers=", 12)) {
			frontiers = choice("--frontiers", argv[i] + 12, orders, msg, sizeof msg);
			if (frontiers < 0)
				return usage_error("cfg", "%s", msg);
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(cfg_help, stdout);
			return EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1])
			return unknown_option("cfg", argv[i], opts);
		else {
			file = argv[i];
			nfiles++;
		}
	}
	if (nfiles != 1)
		return usage_error("cfg", nfiles ? "takes one FILE, got %s" : "needs a FILE%s",
		                   nfiles ? "several" : "");
	if (dot && frontiers >= 0)
		return usage_error("cfg", "--dot draws the graph; --frontiers prints the thread frontiers: one %s",
		                   "or the other");
	int status = EXIT_OK;
	Program *p = load(file, true, &status);
	if (!p)
		return status;
	Buf b = {0};
	if (frontiers >= 0) {
		Frontiers *f = frontiers_build(p->cfg, (FrontierOrder)frontiers);
		frontiers_print(&b, p, p->cfg, f);
		frontiers_free(f);
	} else if (dot)
		cfg_print_dot(&b, p, p->cfg);
	else
		cfg_print(&b, p, p->cfg);
	out(&b);
	buf_free(&b);
	ir_free(p);
	return EXIT_OK;
}

/* ---- GSA form: musimd gsa, and the conversion analyze/emit-llvm start from ----------- */

/* The GSA form of p: p itself converted by gsa_build (musimd-analysis(7)).
** Conversion errors go to stderr. p is consumed (see to_gsa_keep). */
static Program *to_gsa_keep(Program *p, int *status, bool keep);
static Program *to_gsa(Program *p, int *status)
{
	return to_gsa_keep(p, status, false);
}

/* ... or kept when keep (then the caller frees p, unless p is the result:
** a program already in GSA form is analysed as written). */
static Program *to_gsa_keep(Program *p, int *status, bool keep)
{
	if (p->has_gsa) /* already GSA: analysed as written */
		return p;
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	/* p is freed next: its memory is reused for g */
	Program *g = keep ? gsa_build(p, &d) : gsa_build_dropping(p, &d);
	if (!g || d.nerrors > 0) {
		Buf b = {0};
		diag_render(&d, &b);
		err(&b);
		buf_free(&b);
		if (g)
			ir_free(g);
		g = NULL;
		*status = EXIT_INPUT;
	}
	diag_free(&d);
	if (!keep)
		ir_free(p);
	return g;
}

/* ---- musimd gsa ------------------------------------------------------------------------- */

static const char gsa_help[] =
	"Usage: musimd gsa FILE\n"
	"Print the gated-SSA form of a program (musimd-analysis(7), Sampaio 2013 §3.3):\n"
	"variables renamed x.0, x.1, ... in definition order (the papers' d0, d1, ...);\n"
	"μ at loop headers (entry\n"
	"operand first); γ(p, o1, o2) at the reconvergence point of every if-then(-else),\n"
	"o1 being the value where p != 0; η(p, o) at loop exits for values defined in the\n"
	"loop and used after it. A block that starts with γ or η is an implicit sync, so\n"
	"the syncs they replace disappear; where several branches reconverge at one\n"
	"point there is one γ block per branch, innermost first. A merge of a variable\n"
	"never assigned on some path reads x.undef there (assigned nowhere). The output\n"
	"re-parses, and with one warp it leaves the same shared memory as the input.\n"
	"A join whose syncs do not match its branches keeps a plain φ (which the\n"
	"analyses treat as divergent); a program already in GSA form is printed as\n"
	"written, user-written φs included.\n"
	"\n"
	"Exit status: 0 ok, 2 usage error, 3 unreadable or invalid file.\n";

/* Commands that take one FILE and --help (the caller took its other
** options out of argv; opts names them all, for did-you-mean): returns the
** file or NULL with *status set (usage error or --help). */
static const char *one_file(const char *cmd, const char *help, const struct option *opts, int argc,
                            char **argv, int *status)
{
	const char *file = NULL;
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(help, stdout);
			*status = EXIT_OK;
			return NULL;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			*status = unknown_option(cmd, argv[i], opts);
			return NULL;
		}
		file = argv[i];
		nfiles++;
	}
	if (nfiles != 1) {
		*status = usage_error(cmd, nfiles ? "takes one FILE, got %s" : "needs a FILE%s",
		                      nfiles ? "several" : "");
		return NULL;
	}
	return file;
}

static int cmd_gsa(int argc, char **argv)
{
	int status = EXIT_OK;
	static const struct option opts[] = {{"help", 0, NULL, 0}, {NULL, 0, NULL, 0}};
	const char *file = one_file("gsa", gsa_help, opts, argc, argv, &status);
	if (!file)
		return status;
	Program *p = load_inlined(file, true, &status);
	if (!p)
		return status;
	Program *g = to_gsa(p, &status);
	if (!g)
		return status;
	Buf b = {0};
	ir_print_to(&b, g, &to_stdout);
	out(&b);
	buf_free(&b);
	ir_free(g);
	return EXIT_OK;
}

/* ---- musimd syncs ----------------------------------------------------------------------- */

static const char syncs_help[] =
	"Usage: musimd syncs FILE\n"
	"Print FILE with its syncs placed so that it runs under --model sync as it\n"
	"does under --model ipdom: every sync of the program is dropped and each\n"
	"branch gets one at its reconvergence point (its immediate post-dominator),\n"
	"in a join block of its own, innermost first where several branches\n"
	"reconverge at one point (syncN labels); when a branch reconverges only at\n"
	"the end, stops become exits (which resume the deferred threads). Where no\n"
	"placement can do that it says why, and exits 3: a loop with several exits\n"
	"(a break), a target two branches share (a short-circuit: write the shared\n"
	"block once per branch), an irreducible CFG. musimd check FILE warns where\n"
	"a run under --model sync can get stuck.\n"
	"\n"
	"Exit status: 0 placed, 2 usage error, 3 unreadable or invalid input, or no\n"
	"placement possible.\n";

static int cmd_syncs(int argc, char **argv)
{
	int status = EXIT_OK;
	static const struct option opts[] = {{"help", 0, NULL, 0}, {NULL, 0, NULL, 0}};
	const char *file = one_file("syncs", syncs_help, opts, argc, argv, &status);
	if (!file)
		return status;
	Program *p = load_inlined(file, true, &status);
	if (!p)
		return status;
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	Buf b = {0};
	if (gsa_place_syncs(p, &b, &d))
		out(&b);
	else
		status = EXIT_INPUT;
	Buf e = {0};
	diag_render(&d, &e);
	err(&e);
	buf_free(&e);
	buf_free(&b);
	diag_free(&d);
	ir_free(p);
	return status;
}

/* ---- musimd explore ------------------------------------------------------------------- */

#undef CMD
#define CMD "explore"

static const char explore_help[] =
	"Usage: musimd explore FILE... [options]\n"
	"Explore every schedule of each FILE under each model asked for and say\n"
	"whether it terminates, and if not how: a deadlock (a state where some thread\n"
	"is unfinished and nothing can step, or a step that gets stuck) or a livelock\n"
	"(a fair schedule that runs for ever; doomed when no schedule can finish from\n"
	"it), with a shortest counterexample shown as run --trace shows it: for a\n"
	"livelock the shortest schedule into the cycle, then the cycle. A verdict\n"
	"under sync, ipdom, its or aware is SIMT-induced when the program terminates\n"
	"under mimd. Fairness is weak fairness over warps (threads under mimd; groups\n"
	"under its:any, where the explorer tries every group a warp could issue; under\n"
	"aware with a timeout, a timeout that could fire all along eventually does).\n"
	"\n"
	"  --model M[,M...]     the models, or all (default: sync,ipdom,mimd; its is\n"
	"                       its:rr; also its:POLICY, e.g. its:minpc, its:lee):\n";
/* ... then one line per model (model_help), then: */
static const char explore_help_tail[] =
	"  --threads N, --warpsize N, --param NAME=INT, --data ADDR:V[,V...]\n"
	"                       as for run\n"
	"  --path-order fallthrough-first|taken-first|both\n"
	"                       ipdom: which side of a divergent branch runs first\n"
	"                       (both: each, a choice of the explorer)\n"
	"  --atomic-order ascending|any\n"
	"                       the order of the lanes of an atomic, or of a store\n"
	"                       whose lanes write one cell: ascending tid (default)\n"
	"                       or any, a choice of the explorer (each distinct\n"
	"                       outcome once)\n"
	"  --aware-delay BRANCH:POINT[,...]\n"
	"                       aware: delayed reconvergence points, as for run\n"
	"  --aware-timeout T|any\n"
	"                       aware: a reconvergence point some threads reached may\n"
	"                       give up waiting, at any step: a choice of the explorer\n"
	"                       that a fair schedule takes (T does not matter here)\n"
	"  --max-states N       at most N states per model (default 10000000)\n"
	"  --max-memory MiB     memory for one search (default 4096)\n"
	"  --max-time SECONDS   time for one search (default: no limit)\n"
	"  --no-reduction       explore every interleaving: without it a warp's step\n"
	"                       that no other warp can see (no shared memory, atomic,\n"
	"                       barrier, stop or exit) is not interleaved with the\n"
	"                       others (partial-order reduction; same verdicts, far\n"
	"                       fewer states; a deadlock's schedule is then the\n"
	"                       shortest the reduction keeps)\n"
	"  --json               one JSON object per file (an array for several)\n"
	"Choices explored: which warp steps next (every thread is a warp under mimd),\n"
	"under its:any which group of it, with --path-order both under ipdom which\n"
	"side of a divergent branch runs first, with --atomic-order any the order\n"
	"of the lanes at an atomic or a colliding store, and with --aware-timeout\n"
	"under aware whether a reconvergence gives up first. A policy of the\n"
	"per-thread-pc lab (its:POLICY, musimd policies --help) picks the group\n"
	"itself: only the warps are choices.\n"
	"\n"
	"Exit status: 0 every search ended in terminates or terminates-fair, 1 some\n"
	"model deadlocks or livelocks, 2 usage error, 3 unreadable or invalid input,\n"
	"4 a limit stopped a search before its verdict (unknown).\n";

/* --model of explore, --verify-model of analyze: a comma-separated list of
** model names (its is its:rr), or all; bit i: models[i]. On a bad name, the
** message (with a did-you-mean) in msg. */
static bool model_list_arg(const char *opt, const char *arg, unsigned *out, char *msg, size_t len)
{
	static const char *const more[] = {"its", "all", NULL};
	const char *words[MODEL_WORDS];
	model_words(words, more, false);
	unsigned m = 0;
	for (const char *s = arg;;) {
		size_t k = strcspn(s, ",");
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)(k < 63 ? k : 63), s);
		int i = choice(opt, name, words, msg, len);
		if (i < 0)
			return false;
		const Model *md = i < MODEL_COUNT ? models[i] : model_find(words[i]); /* its; all: NULL */
		for (int j = 0; models[j]; j++)
			if (!md || models[j] == md) /* all: every model */
				m |= 1u << j;
		if (!s[k])
			break;
		s += k + 1;
	}
	*out = m;
	return true;
}

/* A command's --help: head, one line per model (model_help), tail. */
static void help_with_models(const char *head, const char *tail, bool policies)
{
	Buf h = {0};
	buf_puts(&h, head);
	model_help(&h, 4, 79, policies);
	buf_puts(&h, tail);
	out(&h);
	buf_free(&h);
}

/* explore --model: at most this many models in one run */
#define EXPLORE_MAX_MODELS 32

typedef struct ExploreCli {
	ExploreOptions eo;
	const Model *models[EXPLORE_MAX_MODELS]; /* in the order given; all: models[] */
	int nmodels;
	bool json, progress;
	bool args;          /* --param or --data given */
} ExploreCli;

/* explore --model LIST: the models of LIST (a name of models[], its, all
** for every one of models[], or its:POLICY), each once, in the order given. */
static bool explore_models_arg(const char *arg, ExploreCli *x, char *msg, size_t len)
{
	x->nmodels = 0;
	for (const char *s = arg;;) {
		size_t k = strcspn(s, ",");
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)(k < 63 ? k : 63), s);
		const Model *one = strcmp(name, "all") ? model_find(name) : NULL;
		if (strcmp(name, "all") && !one) {
			if (!strncmp(name, "its:", 4)) { /* a policy (musimd policies --help) */
				Buf e = {0};
				buf_printf(&e, "--model: no policy '%s' (musimd policies --help lists them)", name);
				Suggest g;
				suggest_init(&g, name, strlen(name));
				for (int i = 0; its_policy_names[i]; i++)
					suggest_add(&g, its_policy_names[i]);
				if (g.n)
					buf_puts(&e, "; ");
				suggest_print(&g, &e, "");
				snprintf(msg, len, "%s", buf_str(&e));
				buf_free(&e);
				return false;
			}
			static const char *const more[] = {"its", "all", NULL};
			const char *words[MODEL_WORDS];
			model_words(words, more, true);
			choice("--model", name, words, msg, len); /* the message, with a did-you-mean */
			return false;
		}
		for (int j = 0; one ? j == 0 : models[j] != NULL; j++) {
			const Model *md = one ? one : models[j];
			bool seen = false;
			for (int i = 0; i < x->nmodels; i++)
				seen |= x->models[i] == md;
			if (seen)
				continue;
			if (x->nmodels == EXPLORE_MAX_MODELS) {
				snprintf(msg, len, "--model lists more than %d models", EXPLORE_MAX_MODELS);
				return false;
			}
			x->models[x->nmodels++] = md;
		}
		if (!s[k])
			break;
		s += k + 1;
	}
	return true;
}

/* What the alternative K of a schedule's step W.K is under md (musimd(1),
** sem_step_group). */
static const char *alternative_hint(const Model *md, bool atomic_any)
{
	if (!atomic_any && md->alt_doc)
		return md->alt_doc;
	if (md->choose)
		return atomic_any ? "K, K = g + n × o: the group g among the n that can issue, o the lanes' order"
		                  : "group";
	if (md->path_choice)
		return atomic_any ? "K: at a branch the side run first (1: taken first), elsewhere the lanes' order"
		                  : "side, 1: taken first";
	return "order: the lanes' order at a store or an atomic, 0 ascending";
}

/* A counterexample's schedule under md as `musimd repl --schedule` reads it:
** W.K, K the alternative of sem_step_group; under a model without groups or
** sides a K of 0 (the lane order) is left out. */
static void put_schedule(Buf *b, const ExploreResult *r, const Model *md)
{
	for (int32_t i = 0; i < r->ntrace; i++) {
		if (i)
			buf_putc(b, i == r->cycle_start ? '/' : ',');
		buf_put_i64(b, r->trace[i]);
		if (r->groups && (r->groups[i] || md->choose || md->path_choice)) {
			buf_putc(b, '.');
			buf_put_i64(b, r->groups[i]);
		}
	}
}

static void explore_progress(void *ctx, const ExploreProgress *p)
{
	const char *model = ctx;
	fprintf(stderr, "\r%s: %llu states, %.0f states/s, %llu queued, depth %llu, %llu MiB   ", model,
	        (unsigned long long)p->states, p->seconds > 0 ? (double)p->states / p->seconds : 0.0,
	        (unsigned long long)p->queued, (unsigned long long)p->depth,
	        (unsigned long long)(p->bytes >> 20));
}

/* A verdict that does not terminate. */
static bool explore_fails(ExploreVerdict v)
{
	return v == EXPLORE_DEADLOCK || v == EXPLORE_LIVELOCK;
}

/* "true"/"false"/null: SIMT-induced against mimd's verdict (mi: mimd's
** result, or NULL when mimd was not explored). */
static int simt_induced(const Model *md, const ExploreResult *r, const ExploreResult *mi)
{
	if (md->warps_of_one || !mi || mi->verdict == EXPLORE_UNKNOWN)
		return -1;
	return explore_fails(r->verdict) && !explore_fails(mi->verdict);
}

static int explore_file(const char *file, ExploreCli *x, Json *j, Buf *text)
{
	int status = EXIT_OK;
	Program *p = load(file, true, &status);
	if (!p)
		return status;
	ExploreResult *res[EXPLORE_MAX_MODELS] = {0};
	const ExploreResult *mimd = NULL;
	int32_t threads = 0, warpsize = 0;
	Diags d;
	diag_init(&d, file, NULL, 0);
	for (int k = 0; k < x->nmodels; k++) {
		ExploreOptions eo = x->eo;
		eo.sem.model = x->models[k];
		if (x->progress) {
			eo.progress = explore_progress;
			eo.progress_ctx = (void *)x->models[k]->name;
		}
		res[k] = explore_run(p, &eo, &d);
		if (x->progress)
			fputs("\r\033[K", stderr);
		if (!res[k]) {
			print_option_diags("explore", p, &d);
			status = EXIT_USAGE;
			goto done;
		}
		if (x->models[k]->warps_of_one)
			mimd = res[k];
	}
	{
		Machine *m = sem_new(p, &x->eo.sem, &d);
		if (m) {
			threads = m->nthreads;
			warpsize = m->warpsize;
			if (!x->json) {
				buf_printf(text, "%s: ", p->path);
				report_shape(text, m);
				buf_putc(text, '\n');
			}
			sem_free(m);
		}
	}
	if (x->json) {
		json_obj(j);
		json_key(j, "file");
		json_str(j, p->path);
		json_key(j, "threads");
		json_int(j, threads);
		json_key(j, "warpsize");
		json_int(j, warpsize);
		json_key(j, "results");
		json_arr(j);
	}
	for (int k = 0; k < x->nmodels; k++) {
		const ExploreResult *r = res[k];
		if (!r)
			continue;
		const Model *md = x->models[k];
		int simt = simt_induced(md, r, mimd);
		if (explore_fails(r->verdict) && status == EXIT_OK)
			status = EXIT_FAILED;
		if (r->verdict == EXPLORE_UNKNOWN && status != EXIT_FAILED)
			status = EXIT_INCOMPLETE;
		ExploreOptions eo = x->eo;
		eo.sem.model = md;
		if (x->json) {
			json_obj(j);
			json_key(j, "model");
			json_str(j, md->name);
			json_key(j, "options");
			json_obj(j);
			json_key(j, "path_order");
			json_str(j, !md->path_choice ? NULL
			            : x->eo.path_order_both ? "both"
			            : eo.sem.taken_first ? "taken-first" : "fallthrough-first");
			json_key(j, "atomic_order");
			json_str(j, x->eo.sem.atomic_any ? "any" : "ascending");
			if (md == &model_aware) {
				json_key(j, "aware_delay");
				json_str(j, eo.sem.aware_delay);
				json_key(j, "aware_timeout");
				json_str(j, eo.sem.aware_timeout ? "any" : NULL);
			}
			json_obj_end(j);
			json_key(j, "verdict");
			json_str(j, explore_verdict_name(r->verdict));
			json_key(j, "doomed");
			json_bool(j, r->doomed);
			json_key(j, "simt_induced");
			if (simt < 0)
				json_null(j);
			else
				json_bool(j, simt);
			json_key(j, "states");
			json_int(j, (int64_t)r->states);
			json_key(j, "transitions");
			json_int(j, (int64_t)r->transitions);
			json_key(j, "depth");
			json_int(j, (int64_t)r->depth);
			json_key(j, "seconds");
			json_real(j, r->seconds);
			json_key(j, "memory");
			json_int(j, (int64_t)r->bytes);
			json_key(j, "bytes_per_state");
			json_real(j, r->states ? (double)r->state_bytes / (double)r->states : 0.0);
			json_key(j, "limit");
			json_str(j, r->limit);
			if (explore_fails(r->verdict)) {
				json_key(j, "schedule");
				Buf sched = {0};
				put_schedule(&sched, r, md);
				json_str(j, buf_str(&sched));
				buf_free(&sched);
				json_key(j, "counterexample");
				if (!report_explore_counterexample_json(j, p, &eo.sem, r)) {
					fprintf(stderr, "musimd explore: internal error: the %s counterexample of %s under %s "
					                "does not replay to its verdict\n",
					        explore_verdict_name(r->verdict), p->path, md->name);
					status = EXIT_FAILED;
				}
			} else {
				json_key(j, "schedule");
				json_null(j);
				json_key(j, "counterexample");
				json_null(j);
			}
			json_obj_end(j);
			continue;
		}
		buf_printf(text, "  %-7s %s", md->name, explore_verdict_name(r->verdict));
		if (r->verdict == EXPLORE_UNKNOWN && !strcmp(r->limit, "lane-orders"))
			buf_printf(text, " (the lane-orders limit was reached: a store or an atomic whose lanes' orders "
			                 "have more than %d distinct outcomes, or an atomic with more than %d lanes on one cell)",
			           SEM_MAX_ORDERS, SEM_MAX_ORDER_LANES);
		else if (r->verdict == EXPLORE_UNKNOWN)
			buf_printf(text, " (the %s limit was reached)", r->limit);
		else if (simt > 0 || r->doomed)
			buf_printf(text, " (%s%s%s)", simt > 0 ? "SIMT-induced" : "", simt > 0 && r->doomed ? ", " : "",
			           r->doomed ? "doomed" : "");
		buf_printf(text, "   %llu states, %llu transitions", (unsigned long long)r->states,
		           (unsigned long long)r->transitions);
		if (r->verdict == EXPLORE_DEADLOCK)
			buf_printf(text, "   shortest: %d steps", r->ntrace);
		else if (r->verdict == EXPLORE_LIVELOCK)
			buf_printf(text, "   shortest: %d steps, then a cycle of %d", r->cycle_start,
			           r->ntrace - r->cycle_start);
		buf_putc(text, '\n');
	}
	if (x->json) {
		json_arr_end(j);
		json_obj_end(j);
	} else {
		for (int k = 0; k < x->nmodels; k++) {
			const ExploreResult *r = res[k];
			if (!r || !explore_fails(r->verdict))
				continue;
			ExploreOptions eo = x->eo;
			eo.sem.model = x->models[k];
			buf_printf(text, "\n%s under %s: %s\n", p->path, x->models[k]->name,
			           r->verdict == EXPLORE_DEADLOCK ? "a shortest schedule to the deadlock"
			                                          : "a shortest schedule into the cycle, then the cycle");
			if (!report_explore_trace(text, p, &eo.sem, r)) {
				fprintf(stderr, "musimd explore: internal error: the %s counterexample of %s under %s "
				                "does not replay to its verdict\n",
				        explore_verdict_name(r->verdict), p->path, x->models[k]->name);
				status = EXIT_FAILED;
			}
			bool alternatives = r->groups && (x->models[k]->choose || x->models[k]->path_choice);
			for (int32_t i = 0; r->groups && i < r->ntrace; i++)
				alternatives |= r->groups[i] != 0;
			if (alternatives)
				buf_printf(text, "  (each step is warp.%s)\n", alternative_hint(x->models[k], x->eo.sem.atomic_any));
			buf_printf(text, "  to step through it: musimd repl --model %s --threads %d --warpsize %d",
			           x->models[k]->name, threads, warpsize);
			if (x->models[k] == &model_aware && eo.sem.aware_delay)
				buf_printf(text, " --aware-delay %s", eo.sem.aware_delay);
			if (x->models[k] == &model_aware && eo.sem.aware_timeout)
				buf_puts(text, " --aware-timeout any");
			buf_puts(text, " --schedule ");
			put_schedule(text, r, x->models[k]);
			buf_printf(text, " %s%s\n", file, x->args ? "  (with the same --param and --data)" : "");
		}
	}
done:
	for (int k = 0; k < EXPLORE_MAX_MODELS; k++)
		explore_free(res[k]);
	diag_free(&d);
	ir_free(p);
	return status;
}

static int cmd_explore(int argc, char **argv)
{
	static const struct option opts[] = {
		{"model", required_argument, NULL, 'm'},
		{"threads", required_argument, NULL, 't'},
		{"warpsize", required_argument, NULL, 'w'},
		{"param", required_argument, NULL, 'p'},
		{"data", required_argument, NULL, 'd'},
		{"path-order", required_argument, NULL, 'o'},
		{"aware-delay", required_argument, NULL, 'y'},
		{"aware-timeout", required_argument, NULL, 'Y'},
		{"atomic-order", required_argument, NULL, 'a'},
		{"max-states", required_argument, NULL, 'S'},
		{"max-memory", required_argument, NULL, 'R'},
		{"max-time", required_argument, NULL, 'T'},
		{"no-reduction", no_argument, NULL, 'n'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	/* the default of cli.md: the stacks against mimd */
	ExploreCli x = {.models = {&model_sync, &model_ipdom, &model_mimd}, .nmodels = 3};
	SemArgs sa = {0};
	int status = EXIT_OK;
	long long v;
	int c;
	optind = 1;
	opterr = 0;
	const char **files = xmalloc((size_t)argc * sizeof *files);
	int nfiles = 0;
	while ((c = getopt_long(argc, argv, "-:h", opts, NULL)) != -1) {
		switch (c) {
		case 1: files[nfiles++] = optarg; break;
		case 'm':
			{
				char msg[512];
				if (!explore_models_arg(optarg, &x, msg, sizeof msg))
					USAGE("%s", msg);
			}
			break;
		case 't':
		case 'w':
		case 'p':
		case 'd':
		case 'y':
		case 'Y': {
			char msg[200];
			const char *bad = machine_option(c, optarg, &x.eo.sem, &sa, msg, sizeof msg);
			if (bad)
				USAGE("%s", bad);
			x.args |= c == 'p' || c == 'd';
			/* explore.md §2: in the explorer the timeout is a choice */
			if (c == 'Y' && x.eo.sem.aware_timeout)
				x.eo.sem.aware_timeout = SEM_TIMEOUT_ANY;
			break;
		}
		case 'o': {
			int po;
			CHOICE("--path-order", po, "fallthrough-first", "taken-first", "both");
			x.eo.sem.taken_first = po == 1;
			x.eo.path_order_both = po == 2;
			break;
		}
		case 'a': {
			int ao;
			CHOICE("--atomic-order", ao, "ascending", "any");
			x.eo.sem.atomic_any = ao == 1;
			break;
		}
		case 'S':
			if (!str_to_ll(optarg, 1, LLONG_MAX, &v))
				USAGE("--max-states needs a positive number, not '%s'", optarg);
			x.eo.max_states = (uint64_t)v;
			break;
		case 'R': {
			const char *bad = args_max_memory("--max-memory", optarg, &x.eo.max_memory);
			if (bad)
				USAGE("%s", bad);
			break;
		}
		case 'T': {
			char *end;
			errno = 0;
			double t = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(t > 0) || t > 1e9)
				USAGE("--max-time needs a positive number of seconds, not '%s'", optarg);
			x.eo.max_time = t;
			break;
		}
		case 'n': x.eo.no_reduction = true; break;
		case 'j': x.json = true; break;
		case 'h': help_with_models(explore_help, explore_help_tail, true); goto done;
		case ':': USAGE("option '%s' needs an argument", argv[optind - 1]);
		default: status = unknown_option(CMD, argv[optind - 1], opts); goto done;
		}
	}
	for (; optind < argc; optind++)
		files[nfiles++] = argv[optind];
	if (nfiles == 0)
		USAGE("needs a FILE%s", "");
	bool aware = false;
	for (int k = 0; k < x.nmodels; k++)
		aware |= x.models[k] == &model_aware;
	if (!aware_options_apply(&x.eo.sem, &sa, aware))
		USAGE("--aware-delay and --aware-timeout are options of --model aware%s", "");
	args_lend(&sa, &x.eo.sem);
	x.progress = !x.json && isatty(2);
	Buf b = {0};
	Json j;
	json_init(&j, &b);
	if (x.json && nfiles > 1)
		json_arr(&j);
	for (int i = 0; i < nfiles; i++) {
		if (!x.json && i > 0)
			buf_putc(&b, '\n');
		int st = explore_file(files[i], &x, &j, &b);
		/* the worst: usage/input errors, then a failed program, then unknown */
		if (st == EXIT_USAGE || st == EXIT_INPUT || (st == EXIT_FAILED && status != EXIT_USAGE && status != EXIT_INPUT) ||
		    (st == EXIT_INCOMPLETE && status == EXIT_OK))
			status = st;
		out(&b);
		buf_reset(&b);
	}
	if (x.json && nfiles > 1)
		json_arr_end(&j);
	if (x.json)
		buf_putc(&b, '\n');
	out(&b);
	buf_free(&b);
done:
	free(files);
	args_free(&sa);
	return status;
}

/* ---- musimd deadlock --------------------------------------------------------------------- */

static const char deadlock_help[] =
	"Usage: musimd deadlock FILE... [options]\n"
	"Find the loops that may deadlock a SIMT machine, statically: ElTantawy's\n"
	"Algorithm 1 (musimd-analysis(7)). A loop is suspected when its exit\n"
	"condition depends (through data and control dependence) on a shared-memory read\n"
	"inside the loop and a store or atomic that may write that cell is reachable\n"
	"from the loop's reconvergence point before a barrier, or lies on a path\n"
	"parallel to the loop: a thread of the same warp cannot run it while others\n"
	"spin. Each loop is listed with how far it got through the filters (the\n"
	"thesis's Table 3.2 funnel) and why. The detector is conservative (it may\n"
	"suspect a loop that cannot deadlock) and assumes what the thesis does: the\n"
	"program terminates under mimd and its barriers are not divergent; musimd\n"
	"explore decides exactly. The program is analysed in GSA form (musimd gsa).\n"
	"\n"
	"  --threads N, --warpsize N\n"
	"                       what a warp is (default the program's .threads,\n"
	"                       else 4, and .warpsize, else one warp): with one\n"
	"                       thread per warp nothing is SIMT-induced\n"
	"  --divergence         refine with musimd's divergence analysis (affine,\n"
	"                       checked by the oracle under every model): no thread\n"
	"                       waits after a loop whose exit conditions are uniform\n"
	"                       (its reachable writes do not count: the thesis's\n"
	"                       remedy for its __all() false detection), and a\n"
	"                       uniform branch puts no write on a path parallel to\n"
	"                       a loop; without it, Algorithm 1 as published\n"
	"  --json               one JSON object per file (an array for several)\n"
	"\n"
	"Exit status: 0 no loop suspected, 1 some loop suspected, 2 usage error,\n"
	"3 unreadable or invalid input (the other files are still analysed).\n";

typedef struct DeadlockCli {
	int32_t threads, warpsize; /* 0: the program's */
	bool json;
	bool divergence; /* --divergence: refine with the affine divergence analysis */
	int32_t files, loops, memory, loopread, suspected, files_suspected;
} DeadlockCli;

/* The user's statement that instruction pc of p comes from. */
static void print_stmt(Buf *b, const Program *p, int32_t pc)
{
	const Loc *l = &p->ins[pc].loc;
	if (l->off >= 0 && (size_t)l->off + (size_t)l->len <= p->srclen && l->len > 0)
		buf_putn(b, p->src + l->off, (size_t)l->len);
	else
		ir_print_ins(b, p, &p->ins[pc]);
}

static int32_t line_of(const Program *p, int32_t pc)
{
	return pc >= 0 && pc < p->nins ? p->ins[pc].loc.line : 0;
}

/* The first instruction of the block at pc that is not γ/μ/η/φ (the user's). */
static int32_t user_pc(const Program *p, int32_t pc)
{
	while (pc >= 0 && pc + 1 < p->nins && ir_is_gsa((Op)p->ins[pc].op))
		pc++;
	return pc;
}

static const char *const dl_why[] = {
	[DL_NOT_MEMORY] = "not suspected: its exit conditions do not depend on shared memory",
	[DL_NO_LOOP_READ] = "not suspected: its exit conditions depend only on shared reads outside it",
	[DL_NOT_REDEFINED] = ("not suspected: no store or atomic that may redefine what it reads is "
	                      "reachable from its reconvergence point or parallel to it"),
	[DL_SUSPECTED] = "potential SIMT-induced deadlock",
};

/* one_lane: every warp has one thread (the stage is what the loop would be
** with more). */
static void deadlock_text(Buf *b, const Program *g, const DlResult *r, bool one_lane)
{
	for (int32_t i = 0; i < r->nloops; i++) {
		const DlLoop *L = &r->loops[i];
		int32_t h = user_pc(g, L->header_pc);
		const char *name = ir_label_of(g, L->header_pc);
		buf_printf(b, "  loop %s%s(line %d): %s\n", name ? name : "", name ? " " : "", (int)line_of(g, h),
		           one_lane && L->stage == DL_SUSPECTED
		               ? "not suspected: its warp has one thread (with more, a potential SIMT-induced "
		                 "deadlock)"
		               : dl_why[L->stage]);
		if (L->stage == DL_NOT_MEMORY)
			continue;
		for (int32_t k = 0; k < L->nexit; k++) {
			buf_printf(b, "    exit condition  line %-5d ", (int)line_of(g, L->exit_conds[k]));
			print_stmt(b, g, L->exit_conds[k]);
			buf_putc(b, '\n');
		}
		for (int32_t k = 0; k < L->nreads; k++) {
			buf_printf(b, "    shared read     line %-5d ", (int)line_of(g, L->reads[k]));
			print_stmt(b, g, L->reads[k]);
			buf_putc(b, '\n');
		}
		for (int32_t k = 0; k < L->nwrites; k++) {
			const DlWrite *w = &L->writes[k];
			buf_printf(b, "    may redefine it line %-5d ", (int)line_of(g, w->pc));
			print_stmt(b, g, w->pc);
			if (w->where == DL_REACHABLE)
				buf_printf(b, "  (reachable from the loop's reconvergence point, line %d)\n",
				           (int)line_of(g, user_pc(g, L->rpc)));
			else
				buf_printf(b, "  (parallel to the loop: the other side of the branch at line %d)\n",
				           (int)line_of(g, w->branch_pc));
		}
	}
	buf_printf(b, "  %d loop%s: ", (int)r->nloops, r->nloops == 1 ? "" : "s");
	if (r->ndivergent < r->nloops)
		buf_printf(b, "%d with divergent exits, ", (int)r->ndivergent);
	buf_printf(b, "%d with exits on shared memory, %d on a shared read in the loop, %d suspected\n",
	           (int)r->nmemory, (int)r->nloopread, (int)r->nsuspected);
}

static void json_line_stmt(Json *j, const Program *g, int32_t pc)
{
	json_key(j, "line");
	json_int(j, line_of(g, pc));
	json_key(j, "statement");
	Buf s = {0};
	print_stmt(&s, g, pc);
	json_str(j, buf_str(&s));
	buf_free(&s);
}

static void deadlock_json(Json *j, const Program *g, const DlResult *r, bool one_lane)
{
	json_key(j, "loops");
	json_arr(j);
	for (int32_t i = 0; i < r->nloops; i++) {
		const DlLoop *L = &r->loops[i];
		json_obj(j);
		json_key(j, "label");
		json_str(j, ir_label_of(g, L->header_pc));
		json_key(j, "line");
		json_int(j, line_of(g, user_pc(g, L->header_pc)));
		json_key(j, "stage");
		json_str(j, dl_stage_name(L->stage));
		json_key(j, "suspected");
		json_bool(j, L->stage == DL_SUSPECTED && !one_lane);
		json_key(j, "reconvergence_line");
		if (L->rpc >= 0)
			json_int(j, line_of(g, user_pc(g, L->rpc)));
		else
			json_null(j);
		json_key(j, "exit_conditions");
		json_arr(j);
		for (int32_t k = 0; k < L->nexit; k++) {
			json_obj(j);
			json_line_stmt(j, g, L->exit_conds[k]);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_key(j, "shared_reads");
		json_arr(j);
		for (int32_t k = 0; k < L->nreads; k++) {
			json_obj(j);
			json_line_stmt(j, g, L->reads[k]);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_key(j, "redefining_writes");
		json_arr(j);
		for (int32_t k = 0; k < L->nwrites; k++) {
			const DlWrite *w = &L->writes[k];
			json_obj(j);
			json_line_stmt(j, g, w->pc);
			json_key(j, "read_line");
			json_int(j, line_of(g, w->read_pc));
			json_key(j, "where");
			json_str(j, w->where == DL_REACHABLE ? "reachable" : "parallel");
			json_key(j, "branch_line");
			if (w->where == DL_PARALLEL)
				json_int(j, line_of(g, w->branch_pc));
			else
				json_null(j);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "funnel");
	json_obj(j);
	json_key(j, "loops");
	json_int(j, r->nloops);
	json_key(j, "divergent_exit");
	json_int(j, r->ndivergent);
	json_key(j, "memory_dependent");
	json_int(j, r->nmemory);
	json_key(j, "shared_read_in_loop");
	json_int(j, r->nloopread);
	json_key(j, "suspected");
	json_int(j, r->nsuspected);
	json_obj_end(j);
}

static int deadlock_file(const char *file, DeadlockCli *x, Json *j, Buf *b)
{
	int status = EXIT_OK;
	Program *p = load_inlined(file, true, &status);
	if (!p)
		return status;
	WarpShape shape = ir_warp_shape(p, x->threads, x->warpsize);
	int64_t threads = shape.threads, warpsize = shape.warpsize, lanes = warpsize; /* lanes: threads in the fullest warp */
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	DlResult *r = dl_run(p, x->divergence, &d);
	if (!r) {
		Buf e = {0};
		diag_render(&d, &e);
		err(&e);
		buf_free(&e);
		diag_free(&d);
		ir_free(p);
		return EXIT_INPUT;
	}
	diag_free(&d);
	if (lanes < 2) /* no two threads share a warp: no loop waits for a sibling */
		r->nsuspected = 0;
	x->files++;
	x->loops += r->nloops;
	x->memory += r->nmemory;
	x->loopread += r->nloopread;
	x->suspected += r->nsuspected;
	x->files_suspected += r->nsuspected > 0;
	if (x->json) {
		json_obj(j);
		json_key(j, "file");
		json_str(j, p->path);
		json_key(j, "threads");
		json_int(j, threads);
		json_key(j, "warpsize");
		json_int(j, warpsize);
		deadlock_json(j, p, r, lanes < 2);
		json_obj_end(j);
	} else {
		if (x->files > 1)
			buf_putc(b, '\n');
		buf_printf(b, "%s: %d thread%s, warps of %d", p->path, (int)threads, threads == 1 ? "" : "s",
		           (int)warpsize);
		if (lanes < 2)
			buf_puts(b, ": every warp has one thread, so no loop can wait for a sibling");
		buf_putc(b, '\n');
		deadlock_text(b, p, r, lanes < 2);
	}
	status = r->nsuspected > 0 ? EXIT_FAILED : EXIT_OK;
	dl_free(r);
	ir_free(p);
	return status;
}

#undef CMD
#define CMD "deadlock"
static int cmd_deadlock(int argc, char **argv)
{
	static const struct option opts[] = {
		{"threads", required_argument, NULL, 't'},
		{"warpsize", required_argument, NULL, 'w'},
		{"divergence", no_argument, NULL, 'D'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	DeadlockCli x = {0};
	int status = EXIT_OK;
	long long v;
	int c;
	optind = 1;
	opterr = 0;
	const char **files = xmalloc((size_t)argc * sizeof *files);
	int nfiles = 0;
	while ((c = getopt_long(argc, argv, "-:h", opts, NULL)) != -1) {
		switch (c) {
		case 1: files[nfiles++] = optarg; break;
		case 't':
		case 'w':
			if (!str_to_ll(optarg, 1, SEM_MAX_THREADS, &v))
				USAGE(c == 't' ? "--threads needs a number from 1 on, not '%s'"
				               : "--warpsize needs a number from 1 on, not '%s'",
				      optarg);
			*(c == 't' ? &x.threads : &x.warpsize) = (int32_t)v;
			break;
		case 'D': x.divergence = true; break;
		case 'j': x.json = true; break;
		case 'h': fputs(deadlock_help, stdout); goto done;
		case ':': USAGE("option '%s' needs an argument", argv[optind - 1]);
		default: status = unknown_option(CMD, argv[optind - 1], opts); goto done;
		}
	}
	for (; optind < argc; optind++)
		files[nfiles++] = argv[optind];
	if (nfiles == 0)
		USAGE("needs a FILE%s", "");
	Buf b = {0};
	Json j;
	json_init(&j, &b);
	if (x.json && nfiles > 1)
		json_arr(&j);
	for (int i = 0; i < nfiles; i++) {
		int st = deadlock_file(files[i], &x, &j, &b);
		if (st == EXIT_INPUT || (st == EXIT_FAILED && status == EXIT_OK))
			status = st;
		out(&b);
		buf_reset(&b);
	}
	if (x.json && nfiles > 1)
		json_arr_end(&j);
	if (x.json)
		buf_putc(&b, '\n');
	else if (nfiles > 1) {
		buf_printf(&b, "\n%d files", nfiles);
		if (x.files < nfiles)
			buf_printf(&b, " (%d unreadable or invalid)", nfiles - (int)x.files);
		buf_printf(&b, ": %d loops, %d with exits on shared memory, %d on a shared read in the loop, "
		           "%d suspected (in %d file%s)\n",
		           (int)x.loops, (int)x.memory, (int)x.loopread, (int)x.suspected, (int)x.files_suspected,
		           x.files_suspected == 1 ? "" : "s");
	}
	out(&b);
	buf_free(&b);
done:
	free(files);
	return status;
}

/* ---- musimd sm ------------------------------------------------------------------------- */

static const char sm_help[] =
	"Usage: musimd sm FILE [options]\n"
	"Run a μ-SIMD program on a cycle-level model of one streaming multiprocessor\n"
	"(musimd(1) SM MODEL): warp schedulers, a scoreboard, function units of\n"
	"latency and initiation interval per opcode class, the reconvergence model as\n"
	"the divergence hardware; each instruction executes at issue through the same\n"
	"step as `musimd run`. Prints GPGPU-Sim's statistics (gpu_sim_cycle,\n"
	"gpu_sim_insn, gpu_ipc, the Warp Occupancy Distribution) and per-warp stall\n"
	"causes. The threads are one CTA, or CTAs of -musimd_cta_threads, as many\n"
	"resident as threads, registers and -gpgpu_shader_cta allow (GPGPU-Sim's\n"
	"max_cta). Shared memory has bank conflicts; local memory (and mem[] with\n"
	"--set -musimd_sigma=global) is coalesced into sectors through a sectored L1\n"
	"with MSHRs, a fixed-latency L2 and DRAM (L1D_/L2_total_cache_* statistics).\n"
	"Fetch fills an I-buffer per warp (a taken branch flushes it), operand\n"
	"collectors read banked registers, -gpgpu_max_insn_issue_per_warp 2 dual\n"
	"issues. Partial: no interconnect or DRAM timing, no register allocator\n"
	"(registers are the variables; occupancy counts the program's MaxLive).\n"
	"\n"
	"Options:\n"
	"  --config NAME|FILE   a preset (qv100, the default, ...) or a gpgpusim.config\n"
	"                       file: `-option value` lines as GPGPU-Sim reads them\n"
	"  --set -OPTION=VALUE  override one option (repeatable), e.g.\n"
	"                       --set -gpgpu_scheduler=gto --set -gpgpu_num_sched_per_core=1\n"
	"                       (schedulers: lrr, gto, old, gto_rotate:N, glrr,\n"
	"                       two_level_active:N:0:1, bows:INNER)\n"
	"  --print-config       print the configuration in effect and exit\n"
	"  --sweep OPTION=V1,V2,...\n"
	"                       run once per value of a GPGPU-Sim option (or threads)\n"
	"                       and print a table; twice: every combination\n"
	"  --plot FILE.svg      with --sweep: plot --metric (warp_ipc, gpu_ipc, cycles,\n"
	"                       simd_efficiency; default warp_ipc) against the first\n"
	"                       option, a line per value of the second\n"
	"  --model M            the reconvergence hardware (-musimd_reconvergence):\n"
	"                       ipdom (default), sync, aware, mp (a ready split issues:\n"
	"                       a per-lane scoreboard), tf, mimd, its\n"
	"  --threads N, --warpsize N, --param NAME=INT, --data ADDR=INT[,INT...],\n"
	"  --aware-delay BRANCH:POINT, --aware-timeout T\n"
	"                       as for run\n"
	"  --max-steps N        stop after N warp instructions (default 10000000, as run)\n"
	"  --trace              a line per issue: the cycle, then the step as run --trace\n"
	"                       shows it (the rule, Θ, the model's state)\n"
	"  --trace-limit N      --trace shows at most N issues (default 100000; 0: all)\n"
	"  --max-thread-instructions N, --max-time SECONDS\n"
	"                       the work and time limits, as for run (with --sweep,\n"
	"                       --max-time bounds the whole sweep)\n"
	"  --json               the statistics and the final state as one JSON object\n"
	"                       (with --trace: its \"trace\" array first, an object per\n"
	"                       issue with \"cycle\" and \"scheduler\")\n"
	"\n"
	"Exit status: 0 the program finished, 1 a watchdog stopped it (deadlock:\n"
	"nothing committed for 50 000 cycles; livelock: instructions commit but no\n"
	"register, memory cell, thread or barrier changes for -musimd_progress_window\n"
	"cycles) or no rule applies, 2 usage error, 3 unreadable or invalid input, 4\n"
	"-gpgpu_max_cycle, -gpgpu_max_insn, --max-steps, --max-thread-instructions or\n"
	"--max-time reached, or --trace-limit cut the trace short.\n";

#undef CMD
#define CMD "sm"
static int cmd_sm(int argc, char **argv)
{
	static const struct option opts[] = {
		{"config", required_argument, NULL, 'c'},
		{"set", required_argument, NULL, 'e'},
		{"print-config", no_argument, NULL, 'P'},
		{"sweep", required_argument, NULL, 'W'},
		{"plot", required_argument, NULL, 'O'},
		{"metric", required_argument, NULL, 'E'},
		{"model", required_argument, NULL, 'm'},
		{"threads", required_argument, NULL, 't'},
		{"warpsize", required_argument, NULL, 'w'},
		{"param", required_argument, NULL, 'p'},
		{"data", required_argument, NULL, 'd'},
		{"aware-delay", required_argument, NULL, 'y'},
		{"aware-timeout", required_argument, NULL, 'Y'},
		{"max-steps", required_argument, NULL, 'M'},
		{"trace", no_argument, NULL, 'T'},
		{"trace-limit", required_argument, NULL, 'L'},
		{"max-thread-instructions", required_argument, NULL, 'I'},
		{"max-time", required_argument, NULL, 'X'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	SemOptions so = {0};
	SemArgs sa = {0};
	RunCtx ctx = {.limit = 100000};
	int status = EXIT_OK;
	long long v;
	char msg[512];
	int c;
	optind = 1;
	opterr = 0;
	const char *file = NULL, *config = NULL, *plot = NULL;
	int nfiles = 0, nsets = 0, nax = 0, metric = 0;
	SmSweepAxis ax[2] = {{0}};
	SmSweepRow *rows = NULL;
	int nrows = 0;
	bool json = false, print_config = false;
	const char **sets = xmalloc((size_t)argc * sizeof *sets);
	SmConfig cfg;
	Buf ignored = {0}, b = {0};
	Diags d;
	diag_init(&d, "", "", 0);
	Program *p = NULL;
	SmCode *code = NULL;
	SmResult *r = NULL;
	char *text = NULL;
	while ((c = getopt_long(argc, argv, "-:h", opts, NULL)) != -1) {
		switch (c) {
		case 1:
			file = optarg;
			nfiles++;
			break;
		case 'c': config = optarg; break;
		case 'e': sets[nsets++] = optarg; break;
		case 'P': print_config = true; break;
		case 'W': {
			const char *eq = strchr(optarg, '=');
			if (nax == 2)
				USAGE("--sweep is given at most twice (a table of two options), not %s", "three times");
			if (!eq || eq == optarg || !eq[1])
				USAGE("--sweep needs OPTION=V1,V2,... (a GPGPU-Sim option such as -gpgpu_scheduler, or "
				      "threads), not '%s'", optarg);
			SmSweepAxis *a = &ax[nax++];
			a->name = xstrndup(optarg, (size_t)(eq - optarg));
			for (const char *v = eq + 1; *v;) {
				size_t len = strcspn(v, ",");
				if (len == 0)
					USAGE("--sweep: an empty value in '%s'", optarg);
				a->values = xrealloc(a->values, ((size_t)a->n + 1) * sizeof *a->values);
				a->values[a->n++] = xstrndup(v, len);
				v += len + (v[len] == ',');
			}
			if (!strcmp(a->name, "threads"))
				for (int i = 0; i < a->n; i++)
					if (!str_to_ll(a->values[i], 1, SEM_MAX_THREADS, &v))
						USAGE("--sweep threads=...: '%s' is not a number of threads", a->values[i]);
			break;
		}
		case 'O': plot = optarg; break;
		case 'E': CHOICE_IN("--metric", metric, sm_sweep_metrics); break;
		case 'j': json = true; break;
		case 'T': ctx.trace = true; break;
		case 'L':
			if (!str_to_ll(optarg, 0, LLONG_MAX, &v))
				USAGE("--trace-limit needs a number of steps (0: no limit), not '%s'", optarg);
			ctx.limit = (uint64_t)v;
			break;
		case 'm':
			so.model = model_find(optarg);
			if (!so.model) {
				char msg[512];
				bad_model(optarg, msg, sizeof msg);
				USAGE("%s", msg);
			}
			break;
		case 't':
		case 'w':
		case 'p':
		case 'd':
		case 'y':
		case 'Y': {
			const char *bad = machine_option(c, optarg, &so, &sa, msg, sizeof msg);
			if (bad)
				USAGE("%s", bad);
			break;
		}
		case 'M':
			if (!str_to_ll(optarg, 1, LLONG_MAX, &v))
				USAGE("--max-steps needs a positive number, not '%s'", optarg);
			so.max_steps = (uint64_t)v;
			break;
		case 'I':
		case 'X': {
			const char *bad = limit_option(c == 'I' ? 'W' : c, optarg, &so);
			if (bad)
				USAGE("%s", bad);
			break;
		}
		case 'h': fputs(sm_help, stdout); goto done;
		case ':': USAGE("option '%s' needs an argument", argv[optind - 1]);
		default: status = unknown_option(CMD, argv[optind - 1], opts); goto done;
		}
	}
	if (so.aware_timeout == SEM_TIMEOUT_ANY)
		USAGE("--aware-timeout any is a choice of the explorer; the SM model counts a number of cycles%s", "");
	/* the configuration: the default, a preset or a file, then --set */
	sm_config_default(&cfg);
	if (config) {
		const char *preset = sm_config_preset(config);
		size_t len = 0;
		if (!preset) {
			text = read_file(config, &len);
			if (!text) {
				fprintf(stderr, "musimd sm: %s: cannot read the configuration: %s (presets:", config,
				        read_file_error(errno));
				for (int i = 0; sm_presets[i]; i++)
					fprintf(stderr, " %s", sm_presets[i]);
				fputs(")\n", stderr);
				status = EXIT_INPUT;
				goto done;
			}
		}
		diag_free(&d);
		diag_init(&d, config, preset ? preset : text, preset ? strlen(preset) : len);
		if (!sm_config_read(&cfg, config, preset ? preset : text, preset ? strlen(preset) : len, &ignored, &d)) {
			diag_render(&d, &b);
			err(&b);
			status = EXIT_INPUT;
			goto done;
		}
	}
	for (int i = 0; i < nsets; i++) {
		diag_free(&d);
		diag_init(&d, "--set", sets[i], strlen(sets[i]));
		if (!sm_config_set(&cfg, sets[i], &ignored, &d)) {
			diag_render_options(&d, "musimd sm", &b);
			err(&b);
			status = EXIT_USAGE;
			goto done;
		}
	}
	if (ignored.len && !(config && sm_config_preset(config) && nsets == 0)) /* a preset's are documented */
		fprintf(stderr, "musimd sm: note: GPGPU-Sim options the model does not use (accepted, ignored): %s\n",
		        buf_str(&ignored));
	if (print_config) {
		sm_config_print(&cfg, &b);
		out(&b);
		goto done;
	}
	if (nfiles != 1)
		USAGE(nfiles ? "takes one FILE, got %s" : "needs a FILE%s", nfiles ? "several" : "");
	p = load_inlined(file, false, &status);
	if (!p)
		goto done;
	diag_free(&d);
	diag_init(&d, p->path, p->src, p->srclen);
	code = lower(p, &d);
	args_lend(&sa, &so);
	so.aware_delay = sa.aware_delay;
	if (!code) {
		print_option_diags(CMD, p, &d);
		status = EXIT_INPUT;
		goto done;
	}
	if (nax > 0) {
		if (!sm_sweep(code, &cfg, &so, ax, nax, &rows, &nrows, &d)) {
			print_option_diags(CMD, p, &d);
			status = EXIT_INPUT;
			goto done;
		}
		sm_sweep_table(&b, ax, nax, rows, nrows);
		out(&b);
		if (plot) {
			Buf svg = {0};
			sm_sweep_svg(&svg, ax, nax, rows, nrows, metric);
			FILE *f = fopen(plot, "w");
			bool ok = f && fwrite(buf_str(&svg), 1, svg.len, f) == svg.len;
			if (f && fclose(f) != 0)
				ok = false;
			buf_free(&svg);
			if (!ok) {
				fprintf(stderr, "musimd sm: cannot write %s: %s\n", plot, strerror(errno));
				status = EXIT_INPUT;
				goto done;
			}
		}
		for (int i = 0; i < nrows; i++)
			if (rows[i].status != SM_OK)
				status = rows[i].status == SM_CYCLE_LIMIT || rows[i].status == SM_INSN_LIMIT ||
				                 rows[i].status == SM_STEP_LIMIT || rows[i].status == SM_TIME_LIMIT
				             ? (status == EXIT_OK ? EXIT_INCOMPLETE : status)
				             : EXIT_FAILED;
		goto done;
	}
	if (plot)
		USAGE("--plot draws a --sweep%s", "");
	if (ctx.trace && nax > 0)
		USAGE("--trace traces one run, not a --sweep%s", "");
	ctx.json = json;
	json_init(&ctx.j, &ctx.line);
	if (ctx.trace && json)
		report_json_trace_begin(&ctx.j); /* the trace streams ahead of the statistics */
	r = code ? sm_run_traced(code, &cfg, &so, ctx.trace ? sm_hook : NULL, &ctx, &d) : NULL;
	if (!r) {
		print_option_diags(CMD, p, &d);
		status = EXIT_INPUT;
		goto done;
	}
	if (json) {
		if (ctx.trace) {
			json_arr_end(&ctx.j);
			json_key(&ctx.j, "trace_complete");
			json_bool(&ctx.j, !ctx.cut);
			sm_report_json_keys(&ctx.j, r, &cfg);
			json_obj_end(&ctx.j);
			out(&ctx.line);
		} else {
			Json j;
			json_init(&j, &b);
			sm_report_json(&j, r, &cfg);
		}
		buf_putc(&b, '\n');
	} else {
		if (ctx.cut)
			buf_printf(&b, "\n");
		sm_report_text(&b, r, &cfg);
	}
	out(&b);
	if (ctx.cut)
		fprintf(stderr, "musimd sm: warning: the trace stops after %llu of %llu issues (--trace-limit %llu; 0 "
		        "shows every issue); the statistics are complete\n", (unsigned long long)ctx.limit,
		        (unsigned long long)r->warp_insn, (unsigned long long)ctx.limit);
	status = r->status == SM_OK ? (ctx.cut ? EXIT_INCOMPLETE : EXIT_OK)
	         : r->status == SM_CYCLE_LIMIT || r->status == SM_INSN_LIMIT || r->status == SM_STEP_LIMIT ||
	                       r->status == SM_TIME_LIMIT
	                 ? EXIT_INCOMPLETE
	                                                                      : EXIT_FAILED;
done:
	for (int a = 0; a < nax; a++) {
		for (int i = 0; i < ax[a].n; i++)
			free(ax[a].values[i]);
		free(ax[a].values);
		free((char *)ax[a].name);
	}
	free(rows);
	sm_result_free(r);
	lower_free(code);
	ir_free(p);
	free(text);
	free(sets);
	buf_free(&ignored);
	buf_free(&b);
	buf_free(&ctx.line);
	diag_free(&d);
	args_free(&sa);
	return status;
}

/* ---- musimd transform -------------------------------------------------------------------- */

static const char transform_help[] =
	"Usage: musimd transform NAME FILE [options]\n"
	"Print FILE transformed, as a program musimd reads again, with a comment\n"
	"header saying what changed. The transformations:\n";
/* ... then one line per transformation (xforms[]), then: */
static const char transform_help_tail[] =
	"\n"
	"  --threads N, --warpsize N\n"
	"                       what a warp is (default the program's .threads,\n"
	"                       else 4, and .warpsize, else one warp): with one\n"
	"                       thread per warp nothing is SIMT-induced\n"
	"  --divergence         ssde: detect with musimd deadlock --divergence\n"
	"  --delays             ssde: print, instead, the delayed reconvergence points\n"
	"                       of Algorithm 5 for the hardware cure, in the form\n"
	"                       --aware-delay takes (--model aware), on one line\n"
	"\n"
	"ssde (ElTantawy's thesis, chapter 4): each loop that musimd deadlock\n"
	"suspects (and each loop enclosing one whose safe point lies outside it,\n"
	"Algorithm 3) reconverges at its safe point (Algorithms 2, 3): the earliest\n"
	"post-dominator after the writes that may release the spinning threads. A\n"
	"switch block is put there, the loop's back edges go to it through a\n"
	"trampoline that sets its case, and it jumps back to the loop's header:\n"
	"on a SIMT stack the threads that iterate wait there for those that left\n"
	"(Algorithm 4). Meant for the hardware stack (ipdom), which ignores\n"
	"syncs; the program's syncs are kept (musimd syncs places new ones).\n"
	"\n"
	"Exit status: 0 ok, 1 the result still needs the transformation (ssde: still\n"
	"suspected after 8 rounds; printed with a warning), 2 usage error,\n"
	"3 unreadable or invalid input, or a program the transformation does not\n"
	"take (GSA form, irreducible).\n";

#undef CMD
#define CMD "transform"
static int cmd_transform(int argc, char **argv)
{
	static const struct option opts[] = {
		{"threads", required_argument, NULL, 't'},
		{"warpsize", required_argument, NULL, 'w'},
		{"divergence", no_argument, NULL, 'D'},
		{"delays", no_argument, NULL, 'A'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	XformOptions xo = {0};
	int status = EXIT_OK;
	long long v;
	int c;
	optind = 1;
	opterr = 0;
	const char *args[2] = {NULL, NULL};
	int nargs = 0;
	while ((c = getopt_long(argc, argv, "-:h", opts, NULL)) != -1) {
		switch (c) {
		case 1:
			if (nargs == 2)
				USAGE("takes a NAME and one FILE, got %s", "more");
			args[nargs++] = optarg;
			break;
		case 't':
		case 'w':
			if (!str_to_ll(optarg, 1, SEM_MAX_THREADS, &v))
				USAGE(c == 't' ? "--threads needs a number from 1 on, not '%s'"
				               : "--warpsize needs a number from 1 on, not '%s'",
				      optarg);
			*(c == 't' ? &xo.threads : &xo.warpsize) = (int32_t)v;
			break;
		case 'D': xo.divergence = true; break;
		case 'A': xo.delays = true; break;
		case 'h': {
			Buf h = {0};
			buf_puts(&h, transform_help);
			for (int i = 0; xforms[i]; i++)
				buf_printf(&h, "  %-8s %s\n", xforms[i]->name, xforms[i]->summary);
			buf_puts(&h, transform_help_tail);
			out(&h);
			buf_free(&h);
			goto done;
		}
		case ':': USAGE("option '%s' needs an argument", argv[optind - 1]);
		default: status = unknown_option(CMD, argv[optind - 1], opts); goto done;
		}
	}
	for (; optind < argc; optind++) {
		if (nargs == 2)
			USAGE("takes a NAME and one FILE, got %s", "more");
		args[nargs++] = argv[optind];
	}
	if (nargs < 2)
		USAGE(nargs ? "needs a FILE after the NAME%s" : "needs a NAME (ssde) and a FILE%s", "");
	const Xform *xf = xform_find(args[0]);
	if (!xf) {
		const char *names[8] = {NULL};
		for (int i = 0; xforms[i] && i < 7; i++)
			names[i] = xforms[i]->name;
		char msg[256];
		choice("the transformation", args[0], names, msg, sizeof msg);
		USAGE("%s", msg);
	}
	Program *p = load(args[1], true, &status);
	if (xf != &xform_inline_calls) /* ssde reads the program as the analyses do */
		p = inline_calls(p, &status);
	if (!p)
		goto done;
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	Buf b = {0};
	XformResult res = {0};
	bool ok = xf->run(p, &xo, &b, &res, &d);
	if (d.n > 0) {
		Buf e = {0};
		diag_render(&d, &e);
		err(&e);
		buf_free(&e);
	}
	if (!ok) {
		status = EXIT_INPUT;
	} else {
		out(&b);
		if (res.incomplete) /* printed, but the work is not done */
			status = EXIT_FAILED;
	}
	buf_free(&b);
	diag_free(&d);
	ir_free(p);
done:
	return status;
}

/* ---- musimd emit-llvm -------------------------------------------------------------------- */

static const char llvm_help[] =
	"Usage: musimd emit-llvm FILE [--target amdgpu|nvptx]\n"
	"Print the program (converted to GSA first) as an LLVM 16 IR kernel, so that\n"
	"LLVM's uniformity analysis can be compared with musimd's:\n"
	"  opt-16 -passes='print<uniformity>' -disable-output FILE.ll\n"
	"tid becomes the work-item id intrinsic, parameters kernel arguments, shared\n"
	"memory an array in the workgroup address space, atomics atomicrmw/cmpxchg,\n"
	"γ/μ/η phi nodes; values are i64 (the export is for analysis, not for running:\n"
	"μ-SIMD's integers are unbounded). Blocks are named after labels. bench/\n"
	"llvm_compare.py lists where the two analyses disagree.\n"
	"\n"
	"Exit status: 0 ok, 2 usage error, 3 unreadable, invalid or unexportable file.\n";

static int cmd_emit_llvm(int argc, char **argv)
{
	LlvmTarget target = LLVM_AMDGPU;
	char **rest = xmalloc((size_t)argc * sizeof *rest);
	int nrest = 0;
	rest[nrest++] = argv[0];
	int status = EXIT_OK;
	for (int i = 1; i < argc; i++) {
		const char *t = NULL;
		if (!strcmp(argv[i], "--target")) {
			if (i + 1 >= argc) {
				free(rest);
				return usage_error("emit-llvm", "--target needs amdgpu or nvptx%s", "");
			}
			t = argv[++i];
		} else if (!strncmp(argv[i], "--target=", 9))
			t = argv[i] + 9;
		else {
			rest[nrest++] = argv[i];
			continue;
		}
		static const char *const targets[] = {"amdgpu", "nvptx", NULL};
		char msg[256];
		int k = choice("--target", t, targets, msg, sizeof msg);
		if (k < 0) {
			free(rest);
			return usage_error("emit-llvm", "%s", msg);
		}
		target = k == 0 ? LLVM_AMDGPU : LLVM_NVPTX;
	}
	static const struct option opts[] = {{"target", 1, NULL, 0}, {"help", 0, NULL, 0}, {NULL, 0, NULL, 0}};
	const char *file = one_file("emit-llvm", llvm_help, opts, nrest, rest, &status);
	free(rest);
	if (!file)
		return status;
	Program *p = load_inlined(file, true, &status);
	if (!p)
		return status;
	Program *g = to_gsa(p, &status);
	if (!g)
		return status;
	Buf b = {0};
	Diags d;
	diag_init(&d, g->path, g->src, g->srclen);
	if (llvm_emit(&b, g, target, &d) && d.nerrors == 0)
		out(&b);
	else
		status = EXIT_INPUT;
	Buf e = {0};
	diag_render(&d, &e);
	err(&e);
	buf_free(&e);
	diag_free(&d);
	buf_free(&b);
	ir_free(g);
	return status;
}

/* ---- musimd emit-promela ------------------------------------------------------------------ */

static const char promela_help[] =
	"Usage: musimd emit-promela FILE [options]\n"
	"Print the program under the mimd model (every thread its own warp) as a\n"
	"Promela model for SPIN, so that SPIN decides what `musimd explore --model mimd`\n"
	"decides: every thread a process; shared memory an array over the cells the\n"
	"program can touch (an interval analysis bounds the addresses); atomics atomic\n"
	"{ } blocks; the barrier counting the live threads; a stuck step the failing\n"
	"assertion !(stuck); termination `ltl terminates { <> (nfin == NT) }`. Values\n"
	"are int32: a literal or an initial value outside int32 is an error, and an\n"
	"overflow at run time fails the assertion !(int32_overflow) (then SPIN gives no\n"
	"verdict). The model's header gives the SPIN commands (musimd(1)):\n"
	"  spin -a M.pml && cc -O2 -DNOCLAIM -o pan pan.c && ./pan -m1000000\n"
	"                          \"assertion violated !(stuck)\": deadlock\n"
	"  cc -O2 -o pan pan.c && ./pan -a -f -m1000000\n"
	"                          \"acceptance cycle\": livelock\n"
	"  ./pan -a -m1000000      \"acceptance cycle\": terminates-fair, else terminates\n"
	"\n"
	"Machine (as for run):\n"
	"  --threads N             number of threads (default .threads, else 4); at most\n"
	"                          254: SPIN runs 255 processes\n"
	"  --warpsize N            threads per warp, for laneid and warpid (default\n"
	"                          .warpsize, else all the threads in one warp)\n"
	"  --param NAME=INT        value of a .param (repeatable)\n"
	"  --data ADDR=INT[,INT..] initial shared memory from ADDR on (repeatable)\n"
	"\n"
	"Exit status: 0 ok, 2 usage error (also a --param naming no parameter), 3\n"
	"unreadable or invalid file, or a program the model cannot hold: a literal or\n"
	"value outside int32, addresses that cannot be bounded, too many threads.\n";

#undef CMD
#define CMD "emit-promela"
static int cmd_emit_promela(int argc, char **argv)
{
	static const struct option opts[] = {
		{"threads", required_argument, NULL, 't'}, {"warpsize", required_argument, NULL, 'w'},
		{"param", required_argument, NULL, 'p'},   {"data", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
	};
	SemOptions so = {0};
	SemArgs sa = {0};
	int status = EXIT_OK, c, nfiles = 0;
	char msg[512];
	const char *file = NULL;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "-:h", opts, NULL)) != -1) {
		switch (c) {
		case 1:
			file = optarg;
			nfiles++;
			break;
		case 't':
		case 'w':
		case 'p':
		case 'd': {
			const char *bad = machine_option(c, optarg, &so, &sa, msg, sizeof msg);
			if (bad)
				USAGE("%s", bad);
			break;
		}
		case 'h': fputs(promela_help, stdout); goto done;
		case ':': USAGE("option '%s' needs an argument", argv[optind - 1]);
		default: status = unknown_option(CMD, argv[optind - 1], opts); goto done;
		}
	}
	for (; optind < argc; optind++, nfiles++) /* after "--" */
		file = argv[optind];
	if (nfiles != 1)
		USAGE(nfiles ? "takes one FILE, got %s" : "needs a FILE%s", nfiles ? "several" : "");
	args_lend(&sa, &so);
	Program *p = load_inlined(file, true, &status);
	if (!p)
		goto done;
	Diags d;
	diag_init(&d, p->path, p->src, p->srclen);
	Buf b = {0};
	PmlStatus ps = promela_emit(&b, p, &so, &d);
	if (ps == PML_OK) {
		out(&b);
	} else if (ps == PML_SETTINGS) {
		for (int i = 0; i < d.n; i++)
			fprintf(stderr, "musimd emit-promela: %s\n", d.v[i].msg);
		status = EXIT_USAGE;
	} else {
		Buf e = {0};
		diag_render(&d, &e);
		err(&e);
		buf_free(&e);
		status = EXIT_INPUT;
	}
	buf_free(&b);
	diag_free(&d);
	ir_free(p);
done:
	args_free(&sa);
	return status;
}
#undef CMD
#define CMD "run"

/* ---- musimd gen -------------------------------------------------------------------------- */

static const char gen_help[] =
	"Usage: musimd gen [--seed N] [--size N] [--depth N] [--vars N] [--unstructured]\n"
	"                  [--deterministic] [--no-memory] [--no-atomics] [--no-loops]\n"
	"                  [--calls] [--concurrent]\n"
	"Print a random well-structured μ-SIMD program (plain, not GSA): nested\n"
	"if-then, if-then-else and loops with thread-dependent trip counts, arithmetic\n"
	"on tid, laneid, parameters and literals, loads, stores and atomics on a small\n"
	"window of shared memory. It terminates and never gets stuck under the sync\n"
	"model for any thread count. The property tests (tests/property.py), the LLVM\n"
	"comparison and the analysis benchmarks (bench/) use it.\n"
	"  --seed N     the program is a function of the seed and the options (default 1)\n"
	"  --size N     about N instructions (default 40)\n"
	"  --depth N    nesting of branches and loops (default 3, at most 32)\n"
	"  --vars N     source variables (default 6, at most 64)\n"
	"  --unstructured\n"
	"               the control flow of real kernels instead: break, continue,\n"
	"               short-circuit && and ||, early exit and stop, loops with several\n"
	"               exits, nested loops left from the inner loop; reducible, no\n"
	"               syncs: it terminates under the ipdom and mimd models (not sync)\n"
	"  --deterministic\n"
	"               no atomics; each thread stores only to its own row of memory and\n"
	"               loads from it or from read-only input, so the final memory is the\n"
	"               same under every model and schedule\n"
	"  --no-memory, --no-atomics, --no-loops\n"
	"               leave out loads and stores, atomics, loops\n"
	"  --calls      functions too: 1 to 3 of them after main's stop, each of the\n"
	"               program's shape, called from main and from one another without\n"
	"               recursion, sometimes from both sides of a branch (threads of\n"
	"               different calls then return to different pcs under the\n"
	"               per-thread-pc models); unstructured ones may return early\n"
	"               (a ret in the threads that take it)\n"
	"  --concurrent threads that wait for one another instead (2 or 3 threads in\n"
	"               warps of 1, 2 or all): spin locks, the SIMT-safe lock, flags,\n"
	"               ticket locks, atomic counters, two locks in thread-dependent\n"
	"               orders, barriers in uniform and divergent code, some inside a\n"
	"               divergent branch; they may deadlock or\n"
	"               livelock (the explorer's property tests; --size, --depth and\n"
	"               --vars do not apply)\n"
	"\n"
	"Exit status: 0 ok, 2 usage error.\n";

static int cmd_gen(int argc, char **argv)
{
	static const struct option opts[] = {
		{"seed", 1, NULL, 0}, {"size", 1, NULL, 0}, {"depth", 1, NULL, 0}, {"vars", 1, NULL, 0},
		{"no-memory", 0, NULL, 0}, {"no-atomics", 0, NULL, 0}, {"no-loops", 0, NULL, 0},
		{"unstructured", 0, NULL, 0}, {"deterministic", 0, NULL, 0}, {"concurrent", 0, NULL, 0},
		{"calls", 0, NULL, 0}, {"help", 0, NULL, 0}, {NULL, 0, NULL, 0},
	};
	GenOptions o = {.seed = 1, .size = 40, .max_depth = 3, .nvars = 6};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		long long v;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(gen_help, stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--no-memory"))
			o.no_memory = true;
		else if (!strcmp(a, "--no-atomics"))
			o.no_atomics = true;
		else if (!strcmp(a, "--no-loops"))
			o.no_loops = true;
		else if (!strcmp(a, "--unstructured"))
			o.unstructured = true;
		else if (!strcmp(a, "--deterministic"))
			o.deterministic = true;
		else if (!strcmp(a, "--concurrent"))
			o.concurrent = true;
		else if (!strcmp(a, "--calls"))
			o.calls = true;
		else {
			/* --seed, --size, --depth, --vars: N as the next argument or after '=' */
			char name[16];
			const char *eq = strchr(a, '=');
			size_t len = eq ? (size_t)(eq - a) : strlen(a);
			snprintf(name, sizeof name, "%.*s", (int)len, a);
			if (len >= sizeof name || (strcmp(name, "--seed") && strcmp(name, "--size") &&
			                           strcmp(name, "--depth") && strcmp(name, "--vars")))
				return a[0] == '-' ? unknown_option("gen", a, opts)
				                   : usage_error("gen", "unknown argument '%s'", a);
			if (!eq && i + 1 >= argc)
				return usage_error("gen", "%s needs a number", a);
			const char *n = eq ? eq + 1 : argv[++i];
			a = name;
			bool seed = !strcmp(a, "--seed");
			if (!str_to_ll(n, seed ? 0 : 1, seed ? LLONG_MAX : 10000000, &v))
				return usage_error("gen", "not a suitable number: '%s'", n);
			if (seed)
				o.seed = (uint64_t)v;
			else if (!strcmp(a, "--size"))
				o.size = (int32_t)v;
			else if (!strcmp(a, "--depth"))
				o.max_depth = (int32_t)v; /* gen.c caps it at 32 */
			else
				o.nvars = (int32_t)v; /* gen.c caps it at 64 */
		}
	}
	Buf b = {0};
	gen_program(&b, &o);
	out(&b);
	buf_free(&b);
	return EXIT_OK;
}

/* ---- musimd analyze ------------------------------------------------------------------------ */

static const char analyze_help[] =
	"Usage: musimd analyze FILE... [options]\n"
	"Divergence analyses of Sampaio 2013 (musimd-analysis(7)) on the GSA form of each\n"
	"program (converted first when needed: musimd gsa FILE shows it). Prints, for\n"
	"every variable, its class and abstract value, e.g.\n"
	"  d.2   uniform   0·T² + 0·T + ⊥\n"
	"then every conditional branch: label, predicate, uniform or divergent. With\n"
	"several files, a summary in the manner of Sampaio 2013 chapter 5 follows.\n"
	"\n"
	"Domains:\n"
	"  --domain simple|affine|data-only\n"
	"                     simple: Figure 3.6 (uniform/divergent); affine (default):\n"
	"                     Figure 3.8 generalised to polynomials of degree N in the\n"
	"                     thread id T; data-only: Figure 3.6 without the predicate\n"
	"                     edges of γ/η (Stratton's variance analysis), unsound on\n"
	"                     purpose: it misses synchronisation dependences\n"
	"  --degree N         polynomial degree, 0 to 64 (default 2, the paper's default;\n"
	"                     1 is the affine analysis, 0 constant propagation); the\n"
	"                     work grows with the square of N\n"
	"  --sub-rule coefficient|generic\n"
	"                     subtraction and unary minus exact coefficient-wise (default)\n"
	"                     or as any other operator\n"
	"  --no-cmp-rule      comparisons as any other operator (the printed Figure 3.8);\n"
	"                     by default o1 < o2 is uniform when o1 - o2 is\n"
	"  --solver reach|worklist\n"
	"                     simple domains: graph reachability (default) or a worklist\n"
	"                     over the rules (they agree; tests check it)\n"
	"Oracle:\n"
	"  --verify[=K]       run each program with 1..K threads (default 8) and with its\n"
	"                     own .threads (the program's warp size, else one warp) under\n"
	"                     each model and check every verdict against the semantics\n"
	"                     (musimd-analysis(7) ORACLE); also Corollary 1 (simple U =>\n"
	"                     affine uniform). Runs the program does not finish are listed\n"
	"                     with the reason and not checked. Exit 1 on a violation, and\n"
	"                     when no run finished: nothing was verified\n"
	"  --verify-model M[,M...]\n"
	"                     the models, or all (default: all, skipping the models\n"
	"                     under which the program never finishes; its is its:rr):\n";
/* ... then one line per model (model_help), then: */
static const char analyze_help_tail[] =
	"  --param NAME=INT, --data ADDR=INT[,INT...], --max-steps N,\n"
	"  --max-thread-instructions N\n"
	"                     inputs and limits of each of the oracle's runs (as run's)\n"
	"  --max-time SECONDS the oracle stops when the command has taken this long:\n"
	"                     exit 4 (inconclusive) unless it found a violation before\n"
	"Output:\n"
	"  --dot              the dependence graph (Figure 3.7) as Graphviz, divergent\n"
	"                     variables grey (one file)\n"
	"  --ascii            write 0*T^2 + 1*T + bot instead of 0·T² + 1·T + ⊥\n"
	"  --summary          only the summary of the files (with --json, one object:\n"
	"                     musimd(1) OUTPUT)\n"
	"  --time             to stderr: time to load, to convert to GSA, to analyse\n"
	"  --json             JSON (musimd(1) OUTPUT); an array with several files\n"
	"\n"
	"Exit status: 0 ok, 1 the oracle found a violation or verified nothing, 2 usage\n"
	"error, 3 some file is unreadable or invalid (the other files are still analysed),\n"
	"4 --max-time stopped the oracle before a verdict.\n";

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Did the oracle fail: a violation, a GSA form that did not finish where
** the program did under a hardware model (a construction bug), a model
** asked for by name under which no run finished, or nothing verified? */
static bool verify_fails(const VerifyResult *vr, unsigned asked)
{
	if (vr->nv > 0 || !vr->verified)
		return true;
	for (int32_t i = 0; i < vr->nmodels; i++) {
		const VerifyModel *vm = &vr->models[i];
		if (asked && vm->finished == 0)
			return true;
		for (int32_t k = 0; k < vm->nun; k++)
			if (vm->un[k].gsa_only && !vm->model->honours_sync)
				return true;
	}
	return false;
}

/* analyze --verify on a terminal: how far the oracle is and, at this pace,
** how long the rest takes (a run that goes to its step limit can take
** seconds: K in the hundreds takes hours, and --max-time bounds it). */
typedef struct VerifyMeter {
	double last; /* seconds of the last line, or 0 */
} VerifyMeter;

static void verify_progress(void *ctx, const VerifyProgress *p)
{
	VerifyMeter *vm = ctx;
	if (p->run == 0 || p->seconds - vm->last < 1.0)
		return;
	vm->last = p->seconds;
	double left = p->seconds / p->run * (p->total - p->run);
	fprintf(stderr, "\rverify: run %d of %d (%s, %d threads), %.0f s; about %.0f %s more at this pace "
	        "(--max-time bounds it)   ",
	        (int)p->run + 1, (int)p->total, sem_model_name(p->model), (int)p->threads, p->seconds,
	        left >= 7200 ? left / 3600 : left >= 120 ? left / 60 : left,
	        left >= 7200 ? "h" : left >= 120 ? "min" : "s");
}

/* verify's text: the thread counts, per model what ran and why runs did
** not finish, the violations, and a plain "nothing verified" when so. */
static void report_verify(Buf *b, const VerifyResult *vr, unsigned asked)
{
	buf_puts(b, "verify: threads ");
	int32_t last = vr->ncounts - 1;
	if (vr->ncounts > 0)
		buf_printf(b, "1..%d", (int)vr->counts[last > 0 && vr->counts[last] != last + 1 ? last - 1 : last]);
	if (last > 0 && vr->counts[last] != last + 1)
		buf_printf(b, " and %d (.threads)", (int)vr->counts[last]);
	buf_printf(b, "; %d run%s, %llu reads checked, %d violation%s\n", (int)vr->runs, vr->runs == 1 ? "" : "s",
	           (unsigned long long)vr->reads, (int)vr->nv, vr->nv == 1 ? "" : "s");
	int width = 0; /* the names' column */
	for (int32_t i = 0; i < vr->nmodels; i++)
		if ((int)strlen(sem_model_name(vr->models[i].model)) > width)
			width = (int)strlen(sem_model_name(vr->models[i].model));
	for (int32_t i = 0; i < vr->nmodels; i++) {
		const VerifyModel *vm = &vr->models[i];
		buf_printf(b, "  %-*s ", width, sem_model_name(vm->model));
		if (!vm->applicable)
			buf_printf(b, "not checked: the program finishes no run under it%s\n",
			           asked ? "" : " (skipped)");
		else
			buf_printf(b, "%d run%s finished and checked, %llu reads\n", (int)vm->finished,
			           vm->finished == 1 ? "" : "s", (unsigned long long)vm->reads);
		for (int32_t k = 0; k < vm->nun;) {
			/* runs that stopped for the same reason, on one line */
			const VerifyUnfinished *u = &vm->un[k];
			int32_t e = k + 1;
			while (e < vm->nun && vm->un[e].gsa_only == u->gsa_only && !strcmp(vm->un[e].status, u->status) &&
			       !strcmp(vm->un[e].msg ? vm->un[e].msg : "", u->msg ? u->msg : ""))
				e++;
			if (e - k == 1)
				buf_printf(b, "    %d thread%s: ", (int)u->threads, u->threads == 1 ? "" : "s");
			else if (vm->un[e - 1].threads - u->threads == e - k - 1)
				buf_printf(b, "    %d..%d threads: ", (int)u->threads, (int)vm->un[e - 1].threads);
			else {
				buf_puts(b, "    threads ");
				for (int32_t i = k; i < e; i++)
					buf_printf(b, "%s%d", i > k ? "," : "", (int)vm->un[i].threads);
				buf_puts(b, ": ");
			}
			buf_printf(b, "%s%s%s%s: %s\n", u->gsa_only ? "the GSA form " : "", u->status,
			           u->rule ? ", rule " : "", u->rule ? u->rule : "", u->msg ? u->msg : "");
			k = e;
			if (u->gsa_only)
				buf_puts(b, vm->model->honours_sync
				                ? "      (the program finished: its syncs are not where the GSA form's "
				                  "implicit syncs are; not a violation)\n"
				                : "      (the program finished: the GSA construction is wrong here)\n");
		}
	}
	for (int32_t i = 0; i < vr->nv; i++)
		buf_printf(b, "  violation: %s\n", vr->v[i].msg);
	if (vr->timed_out)
		buf_puts(b, "inconclusive: the time limit (--max-time) stopped a run; the runs after it "
		            "were not made\n");
	else if (!vr->verified)
		buf_puts(b, "nothing verified: no run finished under the models asked for\n");
}

typedef struct Tally {
	int32_t files, failed;
	int32_t vars, cls[CLASS__COUNT];
	int32_t branches, uniform_branches;
	int32_t violations, runs;
	bool timed_out; /* --max-time stopped the oracle in some file */
} Tally;

/* "domain" and, for the polynomial domain, "degree". */
static void print_domain_json(Json *j, const AnaOptions *o)
{
	json_key(j, "domain");
	json_str(j, o->domain == ANA_SIMPLE ? "simple" : o->domain == ANA_DATA_ONLY ? "data-only" : "affine");
	if (o->domain == ANA_POLY) {
		json_key(j, "degree");
		json_int(j, o->degree);
	}
}

static void print_analysis_json(Json *j, const Program *g, const AnaResult *r, const VerifyResult *vr)
{
	json_obj(j);
	json_key(j, "file");
	json_str(j, g->path);
	print_domain_json(j, &r->opt);
	json_key(j, "variables");
	json_arr(j);
	int32_t *vars = NULL;
	int32_t n = ana_listed_vars(g, &vars);
	Buf t = {0};
	for (int32_t i = 0; i < n; i++) {
		int32_t v = vars[i];
		json_obj(j);
		json_key(j, "name");
		json_str(j, g->vars[v].name);
		json_key(j, "class");
		json_str(j, ana_class_name(r->cls[v]));
		if (r->coef) {
			json_key(j, "coeffs");
			json_arr(j);
			for (int32_t k = r->opt.degree; k >= 0; k--) {
				buf_reset(&t);
				coef_print(&t, *ana_coef(r, v, k), true);
				json_str(j, buf_str(&t));
			}
			json_arr_end(j);
		}
		json_obj_end(j);
	}
	free(vars);
	json_arr_end(j);
	json_key(j, "branches");
	json_arr(j);
	for (int32_t pc = 0; pc < g->nins; pc++) {
		const Ins *ins = &g->ins[pc];
		if (!ir_is_branch((Op)ins->op))
			continue;
		json_obj(j);
		json_key(j, "label");
		json_str(j, ir_label_of(g, pc));
		json_key(j, "line");
		json_int(j, ins->loc.line);
		json_key(j, "predicate");
		buf_reset(&t);
		ir_print_opnd(&t, g, &ins->a);
		json_str(j, buf_str(&t));
		json_key(j, "divergent");
		json_bool(j, r->branch_divergent[pc]);
		json_obj_end(j);
	}
	json_arr_end(j);
	if (vr) {
		json_key(j, "verify");
		json_obj(j);
		json_key(j, "runs");
		json_int(j, vr->runs);
		json_key(j, "unfinished");
		json_int(j, vr->stuck);
		json_key(j, "reads");
		json_int(j, (int64_t)vr->reads);
		json_key(j, "verified");
		json_bool(j, vr->verified);
		json_key(j, "limit"); /* what made the verdict inconclusive, like explore's */
		json_str(j, vr->timed_out ? "time" : NULL);
		json_key(j, "threads");
		json_arr(j);
		for (int32_t i = 0; i < vr->ncounts; i++)
			json_int(j, vr->counts[i]);
		json_arr_end(j);
		json_key(j, "models");
		json_arr(j);
		for (int32_t i = 0; i < vr->nmodels; i++) {
			const VerifyModel *vm = &vr->models[i];
			json_obj(j);
			json_key(j, "model");
			json_str(j, sem_model_name(vm->model));
			json_key(j, "runs");
			json_int(j, vm->runs);
			json_key(j, "finished");
			json_int(j, vm->finished);
			json_key(j, "reads");
			json_int(j, (int64_t)vm->reads);
			json_key(j, "applicable");
			json_bool(j, vm->applicable);
			json_key(j, "unfinished");
			json_arr(j);
			for (int32_t k = 0; k < vm->nun; k++) {
				const VerifyUnfinished *u = &vm->un[k];
				json_obj(j);
				json_key(j, "threads");
				json_int(j, u->threads);
				json_key(j, "status");
				json_str(j, u->status);
				json_key(j, "rule");
				json_str(j, u->rule);
				json_key(j, "message");
				json_str(j, u->msg);
				json_key(j, "gsa_only");
				json_bool(j, u->gsa_only);
				json_obj_end(j);
			}
			json_arr_end(j);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_key(j, "violations");
		json_arr(j);
		for (int32_t i = 0; i < vr->nv; i++) {
			const Violation *x = &vr->v[i];
			json_obj(j);
			json_key(j, "message");
			json_str(j, x->msg);
			json_key(j, "label");
			json_str(j, x->pc >= 0 ? ir_label_of(g, x->pc) : NULL);
			json_key(j, "line");
			if (x->pc >= 0)
				json_int(j, g->ins[x->pc].loc.line);
			else
				json_null(j);
			json_key(j, "variable");
			json_str(j, x->var >= 0 ? g->vars[x->var].name : NULL);
			json_key(j, "threads");
			json_arr(j);
			for (int32_t k = 0; k < x->n; k++)
				json_int(j, x->threads[k]);
			json_arr_end(j);
			json_key(j, "values");
			json_arr(j);
			for (int32_t k = 0; x->values && k < x->n; k++)
				json_num(j, x->values[k]);
			json_arr_end(j);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_obj_end(j);
	buf_free(&t);
}

/* analyze --json --summary: the summary's counts as one object (musimd(1)
** OUTPUT); the classes are those the text summary lists. */
static void print_summary_json(Json *j, const Tally *tl, const AnaOptions *ao, bool verify)
{
	json_obj(j);
	json_key(j, "files");
	json_int(j, tl->files);
	json_key(j, "failed");
	json_int(j, tl->failed);
	print_domain_json(j, ao);
	json_key(j, "variables");
	json_int(j, tl->vars);
	json_key(j, "classes");
	json_obj(j);
	for (int k = 0; k < CLASS__COUNT; k++) {
		if (ao->domain != ANA_POLY && k != CLASS_UNIFORM && k != CLASS_DIVERGENT && !tl->cls[k])
			continue;
		json_key(j, ana_class_name((VarClass)k));
		json_int(j, tl->cls[k]);
	}
	json_obj_end(j);
	json_key(j, "branches");
	json_int(j, tl->branches);
	json_key(j, "uniform_branches");
	json_int(j, tl->uniform_branches);
	if (verify) {
		json_key(j, "verify");
		json_obj(j);
		json_key(j, "runs");
		json_int(j, tl->runs);
		json_key(j, "violations");
		json_int(j, tl->violations);
		json_key(j, "limit");
		json_str(j, tl->timed_out ? "time" : NULL);
		json_obj_end(j);
	}
	json_obj_end(j);
}

static int cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
		{"domain", required_argument, NULL, 'D'},
		{"degree", required_argument, NULL, 'n'},
		{"sub-rule", required_argument, NULL, 's'},
		{"no-cmp-rule", no_argument, NULL, 'c'},
		{"solver", required_argument, NULL, 'S'},
		{"verify", optional_argument, NULL, 'v'},
		{"verify-model", required_argument, NULL, 'V'},
		{"param", required_argument, NULL, 'p'},
		{"data", required_argument, NULL, 'd'},
		{"max-steps", required_argument, NULL, 'M'},
		{"max-thread-instructions", required_argument, NULL, 'W'},
		{"max-time", required_argument, NULL, 'X'},
		{"dot", no_argument, NULL, 'g'},
		{"ascii", no_argument, NULL, 'a'},
		{"summary", no_argument, NULL, 'u'},
		{"time", no_argument, NULL, 'T'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	AnaOptions ao = {.domain = ANA_POLY, .degree = 2};
	VerifyOptions vo = {.max_threads = 8};
	bool verify = false, dot = false, ascii = false, json = false, summary_only = false, timing = false;
	SemArgs sa = {0}; /* --param, --data */
	const char **files = NULL;
	int32_t nfiles = 0, capfiles = 0;
	int status = EXIT_OK;
	long long v;
	int c;
	optind = 1;
	opterr = 0;
#undef CMD
#define CMD "analyze"
	while ((c = getopt_long(argc, argv, "-:h", opts, NULL)) != -1) {
		switch (c) {
		case 1: VEC_PUSH(files, nfiles, capfiles, optarg); break;
		case 'D':
		{
			int d;
			CHOICE("--domain", d, "simple", "affine", "data-only");
			ao.domain = d == 0 ? ANA_SIMPLE : d == 1 ? ANA_POLY : ANA_DATA_ONLY;
		}
			break;
		case 'n':
		{
			const char *bad = args_degree("--degree", optarg, &ao.degree);
			if (bad)
				USAGE("%s", bad);
		}
			break;
		case 's':
			CHOICE("--sub-rule", ao.sub_generic, "coefficient", "generic");
			break;
		case 'c': ao.no_cmp_rule = true; break;
		case 'S':
			CHOICE("--solver", ao.worklist, "reach", "worklist");
			break;
		case 'v':
			verify = true;
			if (optarg && !str_to_ll(optarg, 1, 1024, &v))
				USAGE("--verify=K needs K from 1 to 1024, not '%s'", optarg);
			if (optarg)
				vo.max_threads = (int32_t)v;
			break;
		case 'V':
			{
				char msg[512];
				if (!model_list_arg("--verify-model", optarg, &vo.models, msg, sizeof msg))
					USAGE("%s", msg);
			}
			verify = true;
			break;
		case 'p':
		case 'd': {
			const char *bad = c == 'p' ? args_param(&sa, "--param", optarg) : args_data(&sa, "--data", optarg);
			if (bad)
				USAGE("%s", bad);
			break;
		}
		case 'M':
			if (!str_to_ll(optarg, 1, LLONG_MAX, &v))
				USAGE("--max-steps needs a positive number, not '%s'", optarg);
			vo.sem.max_steps = (uint64_t)v;
			break;
		case 'W':
		case 'X': {
			const char *bad = limit_option(c, optarg, &vo.sem);
			if (bad)
				USAGE("%s", bad);
			break;
		}
		case 'g': dot = true; break;
		case 'a': ascii = true; break;
		case 'u': summary_only = true; break;
		case 'T': timing = true; break;
		case 'j': json = true; break;
		case 'h': help_with_models(analyze_help, analyze_help_tail, false); goto done;
		case ':': USAGE("option '%s' needs an argument", argv[optind - 1]);
		default: status = unknown_option(CMD, argv[optind - 1], opts); goto done;
		}
	}
	for (; optind < argc; optind++) /* after "--" */
		VEC_PUSH(files, nfiles, capfiles, argv[optind]);
	if (nfiles == 0)
		USAGE("needs a FILE%s", "");
	if (dot && nfiles != 1)
		USAGE("--dot takes one FILE%s", "");
	args_lend(&sa, &vo.sem);
	Tally tl = {0};
	Buf b = {0};
	Json j;
	json_init(&j, &b);
	if (json && nfiles > 1 && !summary_only)
		json_arr(&j);
	for (int32_t f = 0; f < nfiles; f++) {
		int st = EXIT_OK;
		double t0 = now_ms();
		Program *p = load_inlined(files[f], true, &st);
		double t1 = now_ms();
		int32_t nins0 = p ? p->nins : 0;
		Program *g = p ? to_gsa_keep(p, &st, true) : NULL;
		double t2 = now_ms();
		if (!g) {
			ir_free(p);
			tl.failed++;
			status = EXIT_INPUT;
			continue;
		}
		tl.files++;
		AnaResult *r = ana_run(g, &ao);
		double t3 = now_ms();
		if (timing)
			fprintf(stderr, "%s: %d instructions, %d in GSA form; load %.1f ms, GSA %.1f ms, "
			        "analysis %.1f ms\n", files[f], (int)nins0, (int)g->nins, t1 - t0, t2 - t1, t3 - t2);
		VerifyResult *vr = NULL;
		if (verify) {
			Diags d;
			diag_init(&d, g->path, g->src, g->srclen);
			vo.orig = p->has_gsa ? NULL : p;
			VerifyMeter meter = {0};
			if (!json && isatty(2)) {
				vo.progress = verify_progress;
				vo.progress_ctx = &meter;
			}
			vr = verify_run(g, r, &vo, &d);
			if (meter.last > 0)
				fputs("\r\033[K", stderr);
			if (vr && ao.domain == ANA_POLY) {
				AnaOptions so = ao;
				so.domain = ANA_SIMPLE;
				AnaResult *rs = ana_run(g, &so);
				verify_corollary1(rs, r, vr);
				ana_free(rs);
			}
			Buf e = {0};
			diag_render(&d, &e);
			err(&e);
			buf_free(&e);
			if (!vr && status == EXIT_OK)
				status = EXIT_USAGE;
			diag_free(&d);
		}
		if (dot)
			ana_print_dot(&b, g, r);
		else if (json && !summary_only)
			print_analysis_json(&j, g, r, vr);
		else if (!summary_only) {
			if (nfiles > 1 || verify)
				buf_printf(&b, "%s:\n", g->path);
			report_analysis_text_to(&b, g, r, ascii, &to_stdout);
			if (vr)
				report_verify(&b, vr, vo.models);
			if (nfiles > 1)
				buf_putc(&b, '\n');
		}
		int32_t *vars = NULL;
		int32_t n = ana_listed_vars(g, &vars);
		for (int32_t i = 0; i < n; i++)
			tl.cls[r->cls[vars[i]]]++;
		tl.vars += n;
		free(vars);
		for (int32_t pc = 0; pc < g->nins; pc++)
			if (ir_is_branch((Op)g->ins[pc].op)) {
				tl.branches++;
				tl.uniform_branches += !r->branch_divergent[pc];
			}
		if (vr) {
			tl.violations += vr->nv;
			tl.runs += vr->runs;
			tl.timed_out |= vr->timed_out;
			/* a violation found in time is a verdict; a run cut by --max-time is not */
			if (vr->nv == 0 && vr->timed_out) {
				if (status == EXIT_OK)
					status = EXIT_INCOMPLETE;
			} else if (verify_fails(vr, vo.models) && (status == EXIT_OK || status == EXIT_INCOMPLETE))
				status = EXIT_FAILED;
		}
		verify_free(vr);
		ana_free(r);
		if (g != p)
			ir_free(p);
		ir_free(g);
		out(&b);
		buf_reset(&b);
	}
	if (json && nfiles > 1 && !summary_only)
		json_arr_end(&j);
	if (json && !dot && summary_only)
		print_summary_json(&j, &tl, &ao, verify);
	if (!json && !dot && (nfiles > 1 || summary_only)) {
		buf_printf(&b, "summary: %d file%s analysed", (int)tl.files, tl.files == 1 ? "" : "s");
		if (tl.failed)
			buf_printf(&b, ", %d not (errors above)", (int)tl.failed);
		buf_printf(&b, "; %d variables:\n", (int)tl.vars);
		for (int k = 0; k < CLASS__COUNT; k++) {
			if (ao.domain != ANA_POLY && k != CLASS_UNIFORM && k != CLASS_DIVERGENT && !tl.cls[k])
				continue;
			buf_printf(&b, "  %-16s %6d  %5.1f%%\n", ana_class_name((VarClass)k), (int)tl.cls[k],
			           tl.vars ? 100.0 * tl.cls[k] / tl.vars : 0.0);
		}
		buf_printf(&b, "  branches: %d uniform of %d (%.1f%%)\n", (int)tl.uniform_branches,
		           (int)tl.branches, tl.branches ? 100.0 * tl.uniform_branches / tl.branches : 0.0);
		if (verify)
			buf_printf(&b, "  verify: %d runs, %d violation%s%s\n", (int)tl.runs, (int)tl.violations,
			           tl.violations == 1 ? "" : "s",
			           tl.timed_out ? "; inconclusive (--max-time stopped the oracle)" : "");
	}
	out(&b);
	buf_free(&b);
done:
	free(files);
	args_free(&sa);
	return status;
}

/* ---- musimd policies ------------------------------------------------------------------ */

static const char policies_help[] =
	"Usage: musimd policies FILE... [--policy P,...|all] [--fetch-units F] [options]\n"
	"Run every FILE under every policy and measure it as Brandão 2013 measures his\n"
	"scheduling heuristics (seed 000 §1.4) and Diamos 2011 its models: fetches (warp\n"
	"instructions, zero-lane ones too), thread instructions, DLP = thread\n"
	"instructions / fetches, cycles with F fetch units (a cycle ends when F fetches\n"
	"are in it or a thread in it issues again), TLP = fetches / cycles, throughput\n"
	"= thread instructions / cycles, activity factor = DLP / warp width, block\n"
	"executions, execute-identical fetches, memory accesses (uniform, affine,\n"
	"scattered, with log2 distance bins in --json). Then, for several files, the\n"
	"tables of DLP and throughput, policies × files (the thesis's Tables 5.3, 5.4).\n"
	"\n"
	"Policies (--model its:NAME of run, explore's --model aside):\n";
/* ... then one line per policy family (its_policy_help), then: */
static const char policies_help_tail[] =
	"  Each NAME decides at block boundaries; NAME@ins decides before every\n"
	"  instruction. Any other model (rr = its:rr, ipdom, tf, tf:sandy, tf:layout,\n"
	"  mimd, ...) may be named too. Not implemented: Distance and the Greedy\n"
	"  Oracle of §6 (the digest gives their state but not enough of their\n"
	"  learning rules, and the oracle reads a trace's future), the Structured-CFG\n"
	"  scheme (not evaluated in the thesis). The call depth and the stack pointer\n"
	"  are the return stack's depth (call, ret): on a program without calls they\n"
	"  stay 0, so every policy ordering by them schedules as its pc rule does.\n"
	"\n"
	"Options:\n"
	"  --policy P,...|all      the policies (default: every family once, FHB size 8;\n"
	"                          all: every policy, both decision points)\n"
	"  --fetch-units F         fetch units per cycle (default 0: one per thread)\n"
	"  --threads N, --warpsize N, --param NAME=INT, --data ADDR=INT[,INT..]\n"
	"                          the machine, as for run\n"
	"  --max-steps N           stop a run after N warp instructions (default 1000000:\n"
	"                          a policy that starves a thread spins until then)\n"
	"  --explore               also the explorer's verdict under each policy\n"
	"                          (terminates, deadlock, livelock: musimd(1) explore)\n"
	"  --max-states N          the explorer's state limit (default 10000000)\n"
	"  --format text|markdown|csv|json, --json\n"
	"                          the table's form (JSON: an array of {\"file\",\n"
	"                          \"policy\", \"fetches\", \"thread_instructions\", \"dlp\",\n"
	"                          \"tlp\", \"throughput\", \"activity\", ...})\n"
	"  --svg FILE              also write a bar chart of DLP per policy to FILE\n"
	"\n"
	"Exit status: 0 every run finished, 1 some run did not (stuck, step limit,\n"
	"deadlock: its status is in the table), 2 usage error, 3 unreadable or invalid\n"
	"file.\n";

#undef CMD
#define CMD "policies"

static int cmd_policies(int argc, char **argv)
{
	static const struct option opts[] = {
		{"policy", required_argument, NULL, 'P'},
		{"fetch-units", required_argument, NULL, 'F'},
		{"threads", required_argument, NULL, 't'},
		{"warpsize", required_argument, NULL, 'w'},
		{"param", required_argument, NULL, 'p'},
		{"data", required_argument, NULL, 'd'},
		{"max-steps", required_argument, NULL, 'M'},
		{"explore", no_argument, NULL, 'E'},
		{"max-states", required_argument, NULL, 'S'},
		{"format", required_argument, NULL, 'f'},
		{"json", no_argument, NULL, 'j'},
		{"svg", required_argument, NULL, 'g'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	LabOptions lo = {.sem.max_steps = 1000000};
	SemArgs sa = {0};
	int status = EXIT_OK, format = 0;
	const char *policy_arg = NULL, *svg = NULL;
	const char **files = xmalloc((size_t)argc * sizeof *files);
	int nfiles = 0;
	const Model **pols = NULL;
	int32_t npols = 0;
	LabRow *rows = NULL;
	int32_t nrows = 0;
	long long v;
	char msg[512];
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "-:h", opts, NULL)) != -1) {
		switch (c) {
		case 1: files[nfiles++] = optarg; break;
		case 'P': policy_arg = optarg; break;
		case 'F':
			if (!str_to_ll(optarg, 0, SEM_MAX_THREADS, &v))
				USAGE("--fetch-units needs a number from 0 (one per thread) to 4194304, not '%s'", optarg);
			lo.fetch_units = (int32_t)v;
			break;
		case 't':
		case 'w':
		case 'p':
		case 'd': {
			const char *bad = machine_option(c, optarg, &lo.sem, &sa, msg, sizeof msg);
			if (bad)
				USAGE("%s", bad);
			break;
		}
		case 'M':
			if (!str_to_ll(optarg, 1, LLONG_MAX, &v))
				USAGE("--max-steps needs a positive number, not '%s'", optarg);
			lo.sem.max_steps = (uint64_t)v;
			break;
		case 'E': lo.explore = true; break;
		case 'S':
			if (!str_to_ll(optarg, 1, LLONG_MAX, &v))
				USAGE("--max-states needs a positive number, not '%s'", optarg);
			lo.max_states = (uint64_t)v;
			break;
		case 'f': CHOICE("--format", format, "text", "markdown", "csv", "json"); break;
		case 'j': format = 3; break;
		case 'g': svg = optarg; break;
		case 'h': {
			Buf h = {0};
			buf_puts(&h, policies_help);
			its_policy_help(&h, 2, 79);
			buf_puts(&h, policies_help_tail);
			out(&h);
			buf_free(&h);
			goto done;
		}
		case ':': USAGE("option '%s' needs an argument", argv[optind - 1]);
		default: status = unknown_option(CMD, argv[optind - 1], opts); goto done;
		}
	}
	for (; optind < argc; optind++) /* after "--" */
		files[nfiles++] = argv[optind];
	if (!nfiles)
		USAGE("needs at least one FILE%s", "");
	/* the policies: a list of names, or all */
	int32_t cap = its_policy_count() + MODEL_COUNT + 2;
	pols = xmalloc((size_t)cap * sizeof *pols);
	if (!policy_arg)
		npols = lab_default_policies(pols, cap);
	else if (!strcmp(policy_arg, "all"))
		npols = lab_all_policies(pols, cap);
	else
		for (const char *s = policy_arg;;) {
			size_t k = strcspn(s, ",");
			char name[96];
			snprintf(name, sizeof name, "%.*s", (int)(k < 95 ? k : 95), s);
			const Model *md = lab_policy_find(name);
			if (!md) {
				/* the closest of the policies and the models */
				Buf e = {0};
				buf_printf(&e, "unknown policy '%.100s'", name);
				Suggest g;
				suggest_init(&g, name, strlen(name));
				for (int i = 0; its_policy_names[i]; i++)
					suggest_add(&g, its_policy_names[i] + 4);
				for (int i = 0; model_names[i]; i++)
					suggest_add(&g, model_names[i]);
				suggest_add(&g, "tf:sandy");
				suggest_add(&g, "tf:layout");
				if (g.n)
					buf_puts(&e, "; ");
				suggest_print(&g, &e, "");
				buf_puts(&e, " (--help lists the policies)");
				snprintf(msg, sizeof msg, "%s", buf_str(&e));
				buf_free(&e);
				USAGE("%s", msg);
			}
			if (npols < cap)
				pols[npols++] = md;
			if (!s[k])
				break;
			s += k + 1;
		}
	args_lend(&sa, &lo.sem);
	rows = xcalloc((size_t)nfiles * (size_t)npols + 1, sizeof *rows);
	for (int f = 0; f < nfiles && status != EXIT_USAGE; f++) {
		int st = EXIT_OK;
		Program *p = load(files[f], true, &st);
		if (!p) {
			status = st;
			continue;
		}
		Diags d;
		diag_init(&d, files[f], NULL, 0);
		for (int32_t k = 0; k < npols; k++) {
			LabRow *r = &rows[nrows];
			if (!lab_run(p, pols[k], &lo, r, &d)) {
				print_option_diags(CMD, p, &d);
				lab_row_free(r);
				memset(r, 0, sizeof *r);
				status = EXIT_USAGE;
				break;
			}
			nrows++;
			if (r->status != SEM_OK && status == EXIT_OK)
				status = EXIT_FAILED;
		}
		diag_free(&d);
		ir_free(p);
	}
	if (status != EXIT_USAGE && nrows > 0) {
		Buf b = {0};
		if (format == 2)
			lab_table_csv(&b, rows, nrows);
		else if (format == 3)
			lab_table_json(&b, rows, nrows);
		else
			lab_table_text(&b, rows, nrows, format == 1);
		out(&b);
		if (svg) {
			buf_reset(&b);
			lab_chart_svg(&b, rows, nrows);
			FILE *fp = fopen(svg, "w");
			if (!fp || fwrite(buf_str(&b), 1, b.len, fp) != b.len) {
				fprintf(stderr, "musimd policies: cannot write %s: %s\n", svg, strerror(errno));
				status = EXIT_INPUT;
			}
			if (fp)
				fclose(fp);
		}
		buf_free(&b);
	}
done:
	for (int32_t i = 0; i < nrows; i++)
		lab_row_free(&rows[i]);
	free(rows);
	free(pols);
	free(files);
	args_free(&sa);
	return status;
}

/* ---- top level ------------------------------------------------------------------------- */

static const char main_help[] =
	"Usage: musimd COMMAND [ARGS]\n"
	"A workbench for the formal semantics of SIMD/SIMT execution: μ-SIMD programs\n"
	"(Sampaio 2013, Coutinho 2011) run with the papers' big-step semantics, and\n"
	"analysed with their divergence analyses.\n"
	"\n"
	"Commands:\n"
	"  run FILE          run a program; --trace shows the rule fired at every step\n"
	"  check FILE...     parse and validate programs, print every diagnostic\n"
	"  cfg FILE          basic blocks, dominators, post-dominators, loops (--dot)\n"
	"  gsa FILE          the gated-SSA form (μ, γ, η) the analyses run on\n"
	"  syncs FILE        the program with syncs placed for the sync model\n"
	"  analyze FILE...   divergence analyses: simple, affine, degree-n polynomial;\n"
	"                    --verify checks every verdict against the semantics\n"
	"  emit-llvm FILE    the program as an LLVM 16 GPU kernel, for comparing with\n"
	"                    opt-16 -passes='print<uniformity>'\n"
	"  emit-promela FILE the program under mimd as a Promela model, for SPIN\n"
	"  gen               a random well-structured program (property tests, benches)\n"
	"  repl [FILE]       step a program one rule at a time: break, watch, print,\n"
	"                    info stack, back (gdb-like; musimd-repl(1))\n"
	"  explore FILE...   every schedule: deadlocks and livelocks (SIMT-induced or\n"
	"                    not) with shortest counterexamples\n"
	"  deadlock FILE...  the loops that may deadlock a SIMT machine, found\n"
	"                    statically (ElTantawy's Algorithm 1)\n"
	"  transform ssde FILE\n"
	"                    remove them: the loops reconverge at safe points (SSDE)\n"
	"  policies FILE...  a table of programs × reconvergence policies: fetches, DLP,\n"
	"                    TLP, throughput, activity (Brandão's heuristics, its:NAME)\n"
	"  sm FILE           cycles, IPC and stall causes on a model of one streaming\n"
	"                    multiprocessor configured like GPGPU-Sim (partial: no\n"
	"                    caches or register banks yet)\n"
	"\n"
	"'musimd help COMMAND' (or 'musimd COMMAND --help') describes a command; 'musimd\n"
	"--version' prints the version. Manuals: musimd(1), musimd-repl(1), the language\n"
	"musimd-lang(7), the analyses musimd-analysis(7); decisions: docs/ (sources).\n"
	"Exit status: 0 success, 1 the program under study failed, 2 usage error,\n"
	"3 unreadable or invalid input, 4 a search stopped by a limit (explore).\n";

/* The subcommands; `musimd help NAME` is `musimd NAME --help`. */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{"run", cmd_run},         {"check", cmd_check},     {"cfg", cmd_cfg},
	{"gsa", cmd_gsa},         {"syncs", cmd_syncs},     {"analyze", cmd_analyze},
	{"emit-llvm", cmd_emit_llvm}, {"emit-promela", cmd_emit_promela},
	{"gen", cmd_gen},         {"repl", repl_main},       {"explore", cmd_explore},
	{"deadlock", cmd_deadlock}, {"transform", cmd_transform}, {"sm", cmd_sm},
	{"policies", cmd_policies},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* A word that names no command: a usage error with the closest names. */
static int unknown_command(const char *word)
{
	Buf b = {0};
	buf_printf(&b, "unknown command '%s'", word);
	Suggest g;
	suggest_init(&g, word, strlen(word));
	for (size_t i = 0; i < NCOMMANDS; i++)
		suggest_add(&g, commands[i].name);
	suggest_add(&g, "help");
	if (g.n)
		buf_puts(&b, "; ");
	suggest_print(&g, &b, "");
	int status = usage_error(NULL, "%s", buf_str(&b));
	buf_free(&b);
	return status;
}

int main(int argc, char **argv)
{
	mem_setup();
	if (argc < 2) {
		fputs(main_help, stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	bool help = !strcmp(cmd, "help");
	if (help && argc > 2) { /* help COMMAND */
		cmd = argv[2];
		if (argc > 3)
			return usage_error(NULL, "help takes one COMMAND, got %s", "several");
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(main_help, stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("musimd %s\n", MUSIMD_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(cmd, commands[i].name))
			continue;
		if (help) {
			static char help_opt[] = "--help";
			char *args[] = {argv[2], help_opt, NULL};
			return commands[i].fn(2, args);
		}
		return commands[i].fn(argc - 1, argv + 1);
	}
	static const struct option opts[] = {{"help", 0, NULL, 0}, {"version", 0, NULL, 0}, {NULL, 0, NULL, 0}};
	return cmd[0] == '-' ? unknown_option(NULL, cmd, opts) : unknown_command(cmd);
}
