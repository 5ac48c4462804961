/*
** main.c — the musimd command line (cli.md): subcommands parse their
** options, call the library and print what it returns. The only other
** place that prints or exits is the REPL.
*/
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "json.h"
#include "report.h"
#include "sem.h"

#ifndef MUSIMD_VERSION
#define MUSIMD_VERSION "0.1.0"
#endif

/* Exit status (cli.md) */
enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_INPUT = 3 };

static void out(const Buf *b)
{
	fwrite(buf_str(b), 1, b->len, stdout);
}

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

/* A decimal integer in [lo, hi]. */
static bool parse_int(const char *s, long long lo, long long hi, long long *v)
{
	if (!s || !*s)
		return false;
	errno = 0;
	char *end;
	long long x = strtoll(s, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}

/* Load and validate a program; diagnostics to stderr. Returns NULL (and the
** diagnostics) on input errors. */
static Program *load(const char *path, bool quiet_warnings, int *status)
{
	size_t len = 0;
	char *src = read_file(path, &len);
	if (!src) {
		fprintf(stderr, "%s: error: cannot read the file: %s\n", path, strerror(errno));
		*status = EXIT_INPUT;
		return NULL;
	}
	Diags d;
	diag_init(&d, path, src, len);
	d.max_errors = 100;
	Program *p = ir_load(path, src, len, &d);
	free(src);
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

#define USAGE(...)                                                                          \
	do {                                                                                     \
		status = usage_error("run", __VA_ARGS__);                                            \
		goto done;                                                                           \
	} while (0)

/* ---- musimd run ---------------------------------------------------------------------- */

static const char run_help[] =
	"Usage: musimd run FILE [options]\n"
	"Run a μ-SIMD program with the big-step semantics of Sampaio 2013 (Tables\n"
	"3.2-3.5, errata corrected: docs/semantics.md) and print the final state and\n"
	"the measures.\n"
	"\n"
	"Machine:\n"
	"  --threads N             number of threads (default .threads, else 4)\n"
	"  --warpsize N            threads per warp (default .warpsize, else all in one warp)\n"
	"  --param NAME=INT        value of a .param (repeatable)\n"
	"  --data ADDR=INT[,INT..] initial shared memory from ADDR on (repeatable)\n"
	"  --model sync|ipdom|mimd reconvergence model (default sync: the papers' rules;\n"
	"                          ipdom: hardware SIMT stack; mimd: every thread its own warp)\n"
	"  --path-order fallthrough-first|taken-first\n"
	"                          ipdom: which side of a divergent branch runs first\n"
	"Paper readings:\n"
	"  --bz-polarity mnemonic|rules\n"
	"                          bz jumps where v = 0 (mnemonic, default) or where v != 0\n"
	"                          (Table 3.4 read literally)\n"
	"  --strict-push           push exactly as printed in Table 3.3 (gets stuck on a\n"
	"                          branch inside the else part of a divergent branch)\n"
	"  --lane-order ascending|descending|random, --seed N\n"
	"                          order in which the active PEs perform a store or an atomic\n"
	"                          (rule TL)\n"
	"Limits:\n"
	"  --races warn|error      a data race is a warning (default) or stops the run\n"
	"  --max-steps N           stop after N warp instructions (default 10000000)\n"
	"  --max-cells N           at most N initialised memory cells (default 67108864)\n"
	"  --max-memory MiB        at most this much memory for the state: lane tables,\n"
	"                          memory cells, values beyond int64 (default 2048)\n"
	"  --max-bits N            at most N bits per integer value (default 1048576)\n"
	"Output:\n"
	"  --trace                 one line per step: step, instruction, rule fired (SF BT BF\n"
	"                          BD SS SP JP IT, and EX exit, BAR barrier arrival, NOP sync\n"
	"                          ignored by the model), Θ at the start, the stack after\n"
	"  --grid                  the ✓/• grid of Figure 3.4: one row per step, one column\n"
	"                          per thread\n"
	"  --profile               per conditional branch: visits and divergences; and how\n"
	"                          often a warp executed each basic block\n"
	"  --quiet                 no final state, only the status and the measures\n"
	"  --all                   print every thread's values and every memory row (the\n"
	"                          text output stops at 64 of each and says so; --json\n"
	"                          always has everything)\n"
	"  --json                  the result as JSON (cli.md)\n"
	"\n"
	"Exit status: 0 the program finished, 1 it got stuck, hit the step limit, raced\n"
	"under --races=error or deadlocked, 2 usage error, 3 unreadable or invalid file.\n";

typedef struct RunCtx {
	bool trace, grid, json;
	Buf line;
	Buf trace_json;
	uint64_t ntrace;
} RunCtx;

static void run_hook(void *vctx, const Machine *m, const StepInfo *s)
{
	RunCtx *c = vctx;
	if (c->json) {
		if (c->trace) {
			buf_puts(&c->trace_json, c->ntrace++ ? ",\n    " : "\n    ");
			report_trace_json(&c->trace_json, m, s);
		}
		return;
	}
	buf_reset(&c->line);
	if (c->trace)
		report_trace_line(&c->line, m, s);
	if (c->grid)
		report_grid_row(&c->line, m, s);
	out(&c->line);
}

static bool parse_num_arg(const char *s, Num *v)
{
	return num_parse(s, strlen(s), v);
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
		{"bz-polarity", required_argument, NULL, 'z'},
		{"strict-push", no_argument, NULL, 'S'},
		{"lane-order", required_argument, NULL, 'l'},
		{"seed", required_argument, NULL, 's'},
		{"races", required_argument, NULL, 'r'},
		{"max-steps", required_argument, NULL, 'M'},
		{"max-cells", required_argument, NULL, 'C'},
		{"max-memory", required_argument, NULL, 'R'},
		{"max-bits", required_argument, NULL, 'B'},
		{"trace", no_argument, NULL, 'T'},
		{"grid", no_argument, NULL, 'G'},
		{"profile", no_argument, NULL, 'P'},
		{"quiet", no_argument, NULL, 'q'},
		{"all", no_argument, NULL, 'a'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	SemOptions so = {0};
	RunCtx ctx = {0};
	bool profile = false, quiet = false, all = false;
	ParamSetting *params = NULL;
	int32_t nparams = 0, capparams = 0;
	MemInit *data = NULL;
	int32_t ndata = 0, capdata = 0;
	int status = EXIT_OK;
	long long v;
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
			if (!parse_int(optarg, 1, SEM_MAX_THREADS, &v))
				USAGE("--threads needs a number from 1 to 4194304, not '%s'", optarg);
			so.threads = (int32_t)v;
			break;
		case 'w':
			if (!parse_int(optarg, 1, SEM_MAX_THREADS, &v))
				USAGE("--warpsize needs a positive number, not '%s'", optarg);
			so.warpsize = (int32_t)v;
			break;
		case 'p': {
			char *eq = strchr(optarg, '=');
			Num val;
			if (!eq || eq == optarg || !parse_num_arg(eq + 1, &val))
				USAGE("--param needs NAME=INT, not '%s'", optarg);
			*eq = 0;
			ParamSetting ps = {optarg, val};
			VEC_PUSH(params, nparams, capparams, ps);
			break;
		}
		case 'd': {
			char *eq = strchr(optarg, '=');
			if (!eq || !parse_int(optarg == eq ? "" : (*eq = 0, optarg), 0, LLONG_MAX, &v))
				USAGE("--data needs ADDR=INT[,INT...], not '%s'", optarg);
			int64_t addr = v;
			for (char *s = eq + 1;; addr++) {
				char *comma = strchr(s, ',');
				if (comma)
					*comma = 0;
				Num val;
				if (!parse_num_arg(s, &val))
					USAGE("--data: '%s' is not an integer", s);
				MemInit mi = {addr, 1, val, LOC_NONE};
				VEC_PUSH(data, ndata, capdata, mi);
				if (!comma)
					break;
				s = comma + 1;
			}
			break;
		}
		case 'm':
			if (!strcmp(optarg, "sync"))
				so.model = MODEL_SYNC;
			else if (!strcmp(optarg, "ipdom"))
				so.model = MODEL_IPDOM;
			else if (!strcmp(optarg, "mimd"))
				so.model = MODEL_MIMD;
			else
				USAGE("--model must be sync, ipdom or mimd, not '%s'", optarg);
			break;
		case 'o':
			if (!strcmp(optarg, "fallthrough-first"))
				so.taken_first = false;
			else if (!strcmp(optarg, "taken-first"))
				so.taken_first = true;
			else
				USAGE("--path-order must be fallthrough-first or taken-first, not '%s'",
				                   optarg);
			break;
		case 'z':
			if (!strcmp(optarg, "mnemonic"))
				so.bz_rules = false;
			else if (!strcmp(optarg, "rules"))
				so.bz_rules = true;
			else
				USAGE("--bz-polarity must be mnemonic or rules, not '%s'", optarg);
			break;
		case 'S': so.strict_push = true; break;
		case 'l':
			if (!strcmp(optarg, "ascending"))
				so.lane_order = ORDER_ASCENDING;
			else if (!strcmp(optarg, "descending"))
				so.lane_order = ORDER_DESCENDING;
			else if (!strcmp(optarg, "random"))
				so.lane_order = ORDER_RANDOM;
			else
				USAGE("--lane-order must be ascending, descending or random, not '%s'",
				                   optarg);
			break;
		case 's':
			if (!parse_int(optarg, 0, LLONG_MAX, &v))
				USAGE("--seed needs a non-negative number, not '%s'", optarg);
			so.seed = (uint64_t)v;
			break;
		case 'r':
			if (!strcmp(optarg, "warn"))
				so.races_error = false;
			else if (!strcmp(optarg, "error"))
				so.races_error = true;
			else
				USAGE("--races must be warn or error, not '%s'", optarg);
			break;
		case 'M':
			if (!parse_int(optarg, 1, LLONG_MAX, &v))
				USAGE("--max-steps needs a positive number, not '%s'", optarg);
			so.max_steps = (uint64_t)v;
			break;
		case 'C':
			if (!parse_int(optarg, 1, LLONG_MAX, &v))
				USAGE("--max-cells needs a positive number, not '%s'", optarg);
			so.max_cells = (uint64_t)v;
			break;
		case 'R':
			if (!parse_int(optarg, 1, 1LL << 40, &v))
				USAGE("--max-memory needs a positive number of MiB, not '%s'", optarg);
			so.max_memory = (uint64_t)v << 20;
			break;
		case 'B':
			if (!parse_int(optarg, 128, 1LL << 32, &v))
				USAGE("--max-bits needs a number from 128 to 4294967296, not '%s'",
				                   optarg);
			num_max_bits = (uint64_t)v;
			break;
		case 'T': ctx.trace = true; break;
		case 'G': ctx.grid = true; break;
		case 'P': profile = true; break;
		case 'q': quiet = true; break;
		case 'a': all = true; break;
		case 'j': ctx.json = true; break;
		case 'h': fputs(run_help, stdout); goto done;
		case ':': USAGE("option '%s' needs an argument", argv[optind - 1]);
		default: USAGE("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (nfiles != 1)
		USAGE(nfiles ? "takes one FILE, got %s" : "needs a FILE%s", nfiles ? "several" : "");
	so.params = params;
	so.nparams = nparams;
	so.data = data;
	so.ndata = ndata;

	Program *p = load(file, false, &status);
	if (p) {
		Diags d;
		diag_init(&d, file, NULL, 0);
		Machine *m = sem_new(p, &so, &d);
		if (!m) {
			for (int i = 0; i < d.n; i++)
				fprintf(stderr, "musimd run: %s\n", d.v[i].msg);
			status = EXIT_USAGE;
		} else {
			if (ctx.grid && !ctx.json) {
				Buf h = {0};
				report_grid_header(&h, m);
				out(&h);
				buf_free(&h);
			}
			sem_run(m, (ctx.trace || ctx.grid) ? run_hook : NULL, &ctx);
			Buf b = {0};
			report_races(&b, m);
			report_error(&b, m);
			err(&b);
			buf_reset(&b);
			if (ctx.json) {
				if (ctx.trace)
					buf_puts(&ctx.trace_json, ctx.ntrace ? "\n  ]" : "]");
				Buf t = {0};
				if (ctx.trace) {
					buf_puts(&t, "[");
					buf_puts(&t, buf_str(&ctx.trace_json));
				}
				report_run_json(&b, m, ctx.trace ? buf_str(&t) : NULL);
				buf_free(&t);
			} else {
				report_run_text(&b, m, profile, !quiet, all);
			}
			out(&b);
			buf_free(&b);
			status = m->status == SEM_OK ? EXIT_OK : EXIT_FAILED;
			sem_free(m);
		}
		diag_free(&d);
		ir_free(p);
	}
done:
	buf_free(&ctx.line);
	buf_free(&ctx.trace_json);
	for (int32_t i = 0; i < nparams; i++)
		num_free(&params[i].value);
	free(params);
	for (int32_t i = 0; i < ndata; i++)
		num_free(&data[i].value);
	free(data);
	return status;
}

/* ---- musimd check -------------------------------------------------------------------- */

static const char check_help[] =
	"Usage: musimd check FILE... [--json]\n"
	"Parse and validate every FILE (language.md §5) and print all diagnostics,\n"
	"GNU style, with the source line and a caret. With --json, one object per file:\n"
	"{\"file\", \"ok\", \"errors\", \"warnings\", \"diagnostics\": [{\"severity\", \"line\",\n"
	"\"column\", \"message\"}]}.\n"
	"\n"
	"Exit status: 0 every file is valid (warnings allowed), 2 usage error,\n"
	"3 some file is unreadable or invalid.\n";

static int cmd_check(int argc, char **argv)
{
	bool json = false;
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(check_help, stdout);
			return EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("check", "unknown option '%s'", argv[i]);
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
		const char *path = argv[i];
		size_t len = 0;
		char *src = read_file(path, &len);
		Diags d;
		diag_init(&d, path, src, len);
		d.max_errors = 100;
		Program *p = NULL;
		if (!src)
			diag_error(&d, LOC_NONE, "cannot read the file: %s", strerror(errno));
		else
			p = ir_load(path, src, len, &d);
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
				json_int(&j, d.v[k].loc.col);
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
	"Usage: musimd cfg FILE [--dot]\n"
	"Print the basic blocks (language.md §4.3), the edges, the dominator and\n"
	"post-dominator trees (post-dominance with a virtual exit), the immediate\n"
	"post-dominator of every conditional branch (its reconvergence point) and the\n"
	"natural loops. With --dot, a Graphviz digraph (edges labelled fall-through and\n"
	"taken; dotted: the reconvergence point of each branch).\n"
	"\n"
	"Exit status: 0 ok, 2 usage error, 3 unreadable or invalid file.\n";

static int cmd_cfg(int argc, char **argv)
{
	bool dot = false;
	const char *file = NULL;
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dot"))
			dot = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(cfg_help, stdout);
			return EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("cfg", "unknown option '%s'", argv[i]);
		else {
			file = argv[i];
			nfiles++;
		}
	}
	if (nfiles != 1)
		return usage_error("cfg", nfiles ? "takes one FILE, got %s" : "needs a FILE%s",
		                   nfiles ? "several" : "");
	int status = EXIT_OK;
	Program *p = load(file, true, &status);
	if (!p)
		return status;
	Buf b = {0};
	if (dot)
		cfg_print_dot(&b, p, p->cfg);
	else
		cfg_print(&b, p, p->cfg);
	out(&b);
	buf_free(&b);
	ir_free(p);
	return EXIT_OK;
}

/* ---- top level ------------------------------------------------------------------------- */

static const char main_help[] =
	"Usage: musimd COMMAND [ARGS]\n"
	"A workbench for the formal semantics of SIMD/SIMT execution: μ-SIMD programs\n"
	"(Sampaio 2013, Coutinho 2011) run with the papers' big-step semantics.\n"
	"\n"
	"Commands:\n"
	"  run FILE        run a program; --trace shows each rule (SF BT BF BD SS SP JP IT)\n"
	"  check FILE...   parse and validate programs, print every diagnostic\n"
	"  cfg FILE        basic blocks, dominators, post-dominators, loops (--dot)\n"
	"\n"
	"Not in this version yet: gsa, analyze (divergence analyses), repl, the schedule\n"
	"explorer and the SM model.\n"
	"\n"
	"'musimd COMMAND --help' describes a command; 'musimd --version' prints the version.\n"
	"Exit status: 0 success, 1 the program under study failed, 2 usage error,\n"
	"3 unreadable or invalid input.\n";

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(main_help, stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(main_help, stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("musimd %s\n", MUSIMD_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "cfg"))
		return cmd_cfg(argc - 1, argv + 1);
	if (!strcmp(cmd, "gsa") || !strcmp(cmd, "analyze") || !strcmp(cmd, "repl")) {
		fprintf(stderr, "musimd: '%s' is not in this version yet\n", cmd);
		return EXIT_USAGE;
	}
	return usage_error(NULL, "unknown command '%s'", cmd);
}
