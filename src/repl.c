/*
** repl.c — `musimd repl`: a gdb-like stepper over a debugging session
** (dbg.h), which drives the one step function. This file reads command
** lines (libedit when stdin is a terminal, plain lines otherwise), parses
** them, and prints; everything it shows of the machine is formatted by
** report.c or read through sem.h/dbg.h. Like main.c it may print; it never
** exits: errors in commands are one-line messages and the session goes on.
*/
#include "repl.h"

#include "model.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef MUSIMD_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

#include "ana.h"
#include "args.h"
#include "dbg.h"
#include "gsa.h"
#include "report.h"
#include "sem.h"

#ifndef MUSIMD_VERSION
#define MUSIMD_VERSION "0.1.0"
#endif

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_INPUT = 3 };

#define PROMPT "(musimd) "

/* What a breakpoint or watchpoint was asked for, so `reload` and option
** changes (which build a new session) can set it again. */
typedef struct PointSpec {
	int32_t id;
	bool watch;
	char *text; /* "l6", "26", "d", "mem[16]" */
} PointSpec;

struct Repl {
	char *path;        /* the loaded file (or <stdin>), NULL before `load` */
	bool no_file;      /* the program was not read from a file: no `reload` */
	ReplLimits lim;
	Program *prog;
	Dbg *dbg;
	SemOptions opt;    /* threads, warpsize, model, paper readings, limits */
	SemArgs sa;        /* param, data */
	DbgChoice *sched;  /* `schedule`: the warps to follow (musimd explore's counterexamples) */
	uint64_t nsched;
	int64_t sched_cycle; /* where the repeated cycle begins, or -1 */
	PointSpec *specs;
	int32_t nspecs, capspecs;
	bool echo;         /* scripted: print each command after the prompt */
	bool to_stdout;    /* musimd repl: the output goes to stdout as it comes */
	bool interactive;  /* stdin is a terminal */
	bool trace;        /* `set trace on`: next/continue print every step */
	double max_time;   /* `set max-time`: seconds a stepping command may take, 0 none */
	bool failed;       /* a command failed (the exit status of a script) */
	bool quit;
	char *last;        /* the last command an empty line repeats */
	Buf out;
};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* What the session said so far, to stdout (`musimd repl`; a session of
** repl_new keeps it for repl_take_output). */
static void flush(Repl *r)
{
	if (!r->to_stdout)
		return;
	fwrite(buf_str(&r->out), 1, r->out.len, stdout);
	fflush(stdout);
	buf_reset(&r->out);
}

static void say(Repl *r, const char *fmt, ...) MU_PRINTF(2, 3);
static void say(Repl *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&r->out, fmt, ap);
	va_end(ap);
}

/* A command failed: one line, and the session goes on. Returns false so
** handlers can `return fail(...)`. */
static bool fail(Repl *r, const char *fmt, ...) MU_PRINTF(2, 3);
static bool fail(Repl *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_puts(&r->out, "error: ");
	buf_vprintf(&r->out, fmt, ap);
	buf_putc(&r->out, '\n');
	va_end(ap);
	r->failed = true;
	return false;
}

/* ---- words and numbers ------------------------------------------------------------ */

/* The words of `analyze` (those of `model` are model_names, model.h). */
static const char *const domains[] = {"simple", "affine", "data-only", NULL};

/* "; did you mean 'x'?" for w among words (NULL-terminated), appended to b. */
static void suggest_among(Buf *b, const char *w, const char *const *words)
{
	Suggest g;
	suggest_init(&g, w, strlen(w));
	for (; *words; words++)
		suggest_add(&g, *words);
	if (g.n)
		buf_puts(b, "; ");
	suggest_print(&g, b, "");
}

/* fail() with what fmt says, then "; did you mean ...?" for w among words. */
static bool fail_among(Repl *r, const char *w, const char *const *words, const char *fmt, ...) MU_PRINTF(4, 5);
static bool fail_among(Repl *r, const char *w, const char *const *words, const char *fmt, ...)
{
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (w)
		suggest_among(&b, w, words);
	fail(r, "%s", buf_str(&b));
	buf_free(&b);
	return false;
}

/* The same for a misspelt name of the program: a label (labels), or a
** variable (and, with specials, a special variable). */
static int label_cmp(const void *x, const void *y)
{
	const Label *a = *(const Label *const *)x, *b = *(const Label *const *)y;
	return a->ins != b->ins ? (a->ins > b->ins) - (a->ins < b->ins) : (a->loc.off > b->loc.off) - (a->loc.off < b->loc.off);
}

static void suggest_name(Buf *b, const Program *p, const char *w, bool labels, bool specials)
{
	Suggest g;
	suggest_init(&g, w, strlen(w));
	if (labels) { /* in the order of the program */
		const Label **v = xmalloc(((size_t)p->nlabels + 1) * sizeof *v);
		int32_t n = 0;
		for (int32_t i = 0; i < p->nlabels; i++)
			if (p->labels[i].ins >= 0)
				v[n++] = &p->labels[i];
		qsort(v, (size_t)n, sizeof *v, label_cmp);
		for (int32_t i = 0; i < n; i++)
			suggest_add(&g, v[i]->name);
		free(v);
	}
	if (!labels)
		for (int32_t i = 0; i < p->nvars; i++)
			suggest_add(&g, p->vars[i].name);
	for (int sp = 0; specials && sp < SPEC__COUNT; sp++)
		suggest_add(&g, ir_special_name((Special)sp));
	if (g.n)
		buf_puts(b, "; ");
	suggest_print(&g, b, "");
}


/* The next blank-separated word of *s (NUL-terminated in place), or NULL. */
static char *word(char **s)
{
	char *p = *s;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p) {
		*s = p;
		return NULL;
	}
	char *w = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = 0;
	*s = p;
	return w;
}

/* Decimal digits of n ≥ 0 (column widths). */
static int digits(uint64_t n)
{
	int d = 1;
	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* An optional count argument (default 1). */
static bool count_arg(Repl *r, char *args, const char *cmd, uint64_t *n)
{
	char *w = word(&args);
	long long v = 1;
	if (w && !str_to_ll(w, 1, LLONG_MAX, &v))
		return fail(r, "%s takes a positive count, not '%s'", cmd, w);
	if (word(&args))
		return fail(r, "%s takes at most one count", cmd);
	*n = (uint64_t)v;
	return true;
}

/* ---- loading and sessions --------------------------------------------------------- */

static bool need_program(Repl *r)
{
	if (r->dbg)
		return true;
	return fail(r, "no program loaded: use 'load FILE'");
}

static void put_where(Repl *r, int32_t pc)
{
	if (pc < 0)
		buf_puts(&r->out, "exit");
	else
		ir_print_where(&r->out, r->prog, pc);
}

static void put_ins(Repl *r, int32_t pc)
{
	put_where(r, pc);
	if (pc >= 0) {
		buf_puts(&r->out, ": ");
		ir_print_ins(&r->out, r->prog, &r->prog->ins[pc]);
	}
}

/* "=> l7: q = d % 2": the instruction the next step issues. */
static void show_next(Repl *r)
{
	const Machine *m = r->dbg->m;
	if (m->status != SEM_RUNNING)
		return;
	int32_t w = dbg_next_warp(r->dbg);
	if (w < 0) {
		say(r, "(warp %d cannot run: use 'warp auto')\n", r->dbg->forced_warp);
		return;
	}
	buf_puts(&r->out, "=> ");
	if (m->nwarps > 1)
		say(r, "w%d ", w);
	put_ins(r, m->warps[w].pc);
	buf_putc(&r->out, '\n');
}

static void describe_session(Repl *r)
{
	const Machine *m = r->dbg->m;
	say(r, "%s: ", r->path);
	report_shape(&r->out, m);
	say(r, ", model %s\n", sem_model_name(m->opt.model));
}

static bool set_point(Repl *r, const char *text, bool watch, bool quiet);

/* A new session for the loaded program with the current options, described
** after `intro`; the points are set again. Keeps the old session when the
** options are bad. */
static bool new_session(Repl *r, const char *intro)
{
	/* parameters set for another program do not carry over */
	for (int32_t i = r->sa.nparams - 1; i >= 0; i--) {
		int32_t x = ir_find_var(r->prog, r->sa.params[i].name);
		if (x >= 0 && r->prog->vars[x].is_param)
			continue;
		say(r, "param %s dropped: %s has no such parameter\n", r->sa.params[i].name, r->path);
		args_drop_param(&r->sa, i);
	}
	SemOptions o = r->opt;
	args_lend(&r->sa, &o);
	int64_t nt = ir_warp_shape(r->prog, o.threads, o.warpsize).threads;
	if (r->lim.max_threads && nt > r->lim.max_threads)
		return fail(r, "%lld threads: this session runs at most %d", (long long)nt, r->lim.max_threads);
	Diags d;
	diag_init(&d, r->prog->path, r->prog->src, r->prog->srclen);
	Dbg *s = dbg_new(r->prog, &o, &d);
	if (!s) {
		diag_render(&d, &r->out);
		diag_free(&d);
		r->failed = true;
		return false;
	}
	diag_free(&d);
	Dbg *old = r->dbg;
	r->dbg = s;
	s->interrupt = &interrupted;
	if (r->sched) {
		DbgChoice *copy = xmalloc((size_t)r->nsched * sizeof *copy);
		memcpy(copy, r->sched, (size_t)r->nsched * sizeof *copy);
		dbg_set_schedule(s, copy, r->nsched, r->sched_cycle);
	}
	if (old)
		s->forced_warp = old->forced_warp < s->m->nwarps ? old->forced_warp : -1;
	dbg_free(old);
	/* the points again, with their numbers */
	int32_t next = s->next_id;
	int32_t j = 0;
	for (int32_t i = 0; i < r->nspecs; i++) {
		PointSpec ps = r->specs[i];
		s->next_id = ps.id;
		if (set_point(r, ps.text, ps.watch, true)) {
			r->specs[j++] = ps;
			if (ps.id + 1 > next)
				next = ps.id + 1;
		} else {
			say(r, "deleted %s %d (%s): not in this program\n", ps.watch ? "watchpoint" : "breakpoint",
			    ps.id, ps.text);
			free(ps.text);
		}
	}
	r->nspecs = j;
	s->next_id = next;
	say(r, "%s", intro);
	describe_session(r);
	return true;
}

/* Parse and validate a program text; the diagnostics go to the output.
** NULL when it has errors. */
static Program *parse_source(Repl *r, const char *name, const char *src, size_t len)
{
	Diags d;
	diag_init(&d, name, src, len);
	d.max_errors = 20;
	Program *p = ir_load(name, src, len, &d);
	d.src = p->src;
	d.srclen = p->srclen;
	diag_render(&d, &r->out);
	bool bad = d.nerrors > 0;
	diag_free(&d);
	if (bad) {
		ir_free(p);
		r->failed = true;
		return NULL;
	}
	return p;
}

/* Make p (read from `name`; a file unless no_file) the session's program,
** in a new session; the previous program stays when that fails. */
static bool install(Repl *r, Program *p, const char *name, bool no_file)
{
	Program *oldp = r->prog;
	Dbg *olds = r->dbg;
	char *oldpath = r->path;
	bool old_no_file = r->no_file;
	r->prog = p;
	r->dbg = NULL;
	r->path = xstrdup(name);
	r->no_file = no_file;
	if (!new_session(r, "")) {
		ir_free(p);
		free(r->path);
		r->prog = oldp;
		r->dbg = olds;
		r->path = oldpath;
		r->no_file = old_no_file;
		return false;
	}
	dbg_free(olds);
	ir_free(oldp);
	free(oldpath);
	show_next(r);
	return true;
}

static bool load_file(Repl *r, const char *path)
{
	if (r->lim.no_files)
		return fail(r, "this session reads no files");
	if (!strcmp(path, "-"))
		return fail(r, "load -: standard input holds the commands (give the program on the command "
		               "line: musimd repl -)");
	size_t len = 0;
	char *src = read_file(path, &len);
	if (!src)
		return fail(r, "%s: cannot read the file: %s", path, read_file_error(errno));
	Program *p = parse_source(r, path, src, len);
	free(src);
	return p && install(r, p, path, false);
}

/* ---- printing the stops ----------------------------------------------------------- */

typedef struct StepCtx {
	Repl *r;
	uint64_t print;   /* how many steps to print */
	uint64_t printed;
	ReportCols cols;  /* measured at the first line printed */
} StepCtx;

static void step_hook(void *ctx, const Machine *m, const StepInfo *info)
{
	StepCtx *c = ctx;
	if (c->printed >= c->print)
		return;
	if (!c->cols.step) /* wide enough for this step; a longer number pushes its line */
		report_cols(&c->cols, m, info->step);
	c->printed++;
	report_step_line(&c->r->out, &c->cols, m, info);
	if (c->r->out.len > (1u << 16))
		flush(c->r);
}

static const char *failure_phrase(SemStatus st)
{
	return st == SEM_LIMIT ? "reached the step limit" : st == SEM_DEADLOCK ? "deadlocked" : "is stuck";
}

static void show_stop(Repl *r, DbgStop st, bool moved_quietly)
{
	const Machine *m = r->dbg->m;
	if (moved_quietly && st.steps)
		say(r, "(%llu step%s)\n", (unsigned long long)st.steps, st.steps == 1 ? "" : "s");
	switch (st.kind) {
	case STOP_DONE:
		break;
	case STOP_BREAK: {
		const DbgPoint *pt = dbg_point(r->dbg, st.point);
		say(r, "Breakpoint %d at ", st.point);
		put_where(r, pt ? pt->pc : -1);
		say(r, ", before step %llu\n", (unsigned long long)m->steps + 1);
		break;
	}
	case STOP_WATCH:
		say(r, "Watchpoint %d: %s\n", st.point, st.detail ? st.detail : "");
		break;
	case STOP_END:
		say(r, "The program finished: every warp reached stop (SF) after %llu steps.\n",
		    (unsigned long long)m->steps);
		report_measures(&r->out, m);
		report_rule_counts(&r->out, m);
		break;
	case STOP_FAILED:
		say(r, "The program %s after %llu steps; the state is kept for inspection "
		       "('back' steps back, 'run' starts again):\n",
		    failure_phrase(m->status), (unsigned long long)m->steps);
		report_error(&r->out, m);
		if (m->status == SEM_LIMIT)
			say(r, "('set max-steps N' raises the limit)\n");
		break;
	case STOP_INTERRUPT:
		say(r, "Interrupted after %llu step%s.\n", (unsigned long long)st.steps, st.steps == 1 ? "" : "s");
		break;
	case STOP_TIME:
		say(r, "Stopped by the time limit (set max-time %g) after %llu step%s; the state is kept: "
		       "'continue' goes on.\n",
		    r->max_time, (unsigned long long)st.steps, st.steps == 1 ? "" : "s");
		break;
	case STOP_START:
		say(r, "At the start (step 0).\n");
		break;
	case STOP_BLOCKED: {
		int32_t w = st.point;
		if (w < 0 || w >= m->nwarps)
			say(r, "the schedule names warp %d, which does not exist (warps 0 to %d); 'schedule off' "
			       "lets the scheduler pick\n", w, m->nwarps - 1);
		else
			say(r, "warp %d cannot run: it %s; %s\n", w,
			    m->warps[w].status == WARP_DONE ? "has finished" : "waits at the barrier",
			    r->dbg->forced_warp >= 0 ? "'warp auto' lets the scheduler pick"
			                             : "'schedule off' lets the scheduler pick");
		dbg_stop_free(&st);
		return;
	}
	}
	show_next(r);
	dbg_stop_free(&st);
}

/* ---- commands: running ------------------------------------------------------------ */

static bool cmd_load(Repl *r, char *args)
{
	char *f = word(&args);
	if (!f)
		return fail(r, "load needs a FILE");
	if (word(&args))
		return fail(r, "load takes one FILE");
	return load_file(r, f);
}

static bool cmd_reload(Repl *r, char *args)
{
	(void)args;
	if (!r->path)
		return fail(r, "no program loaded: use 'load FILE'");
	if (r->no_file)
		return fail(r, "%s was not read from a file: there is nothing to read again", r->path);
	char *path = xstrdup(r->path);
	bool ok = load_file(r, path);
	free(path);
	return ok;
}

static bool cmd_start(Repl *r, char *args)
{
	(void)args;
	if (!need_program(r))
		return false;
	dbg_restart(r->dbg);
	say(r, "At the start (step 0).\n");
	show_next(r);
	return true;
}

static bool cmd_run(Repl *r, char *args)
{
	(void)args;
	if (!need_program(r))
		return false;
	StepCtx c = {r, r->trace ? UINT64_MAX : 0, 0, {0}};
	dbg_set_deadline(r->dbg, r->max_time);
	show_stop(r, dbg_run(r->dbg, step_hook, &c), !r->trace);
	return true;
}

static bool moving(Repl *r)
{
	if (!need_program(r))
		return false;
	const Machine *m = r->dbg->m;
	if (m->status == SEM_OK)
		return fail(r, "the program has finished: 'run' or 'start' starts it again, 'back' steps back");
	if (m->status != SEM_RUNNING)
		return fail(r, "the program %s (rule %s): 'back' steps back, 'run' starts again",
		            failure_phrase(m->status), m->err.rule ? m->err.rule : "?");
	return true;
}

static bool cmd_step(Repl *r, char *args)
{
	uint64_t n;
	if (!count_arg(r, args, "step", &n) || !moving(r))
		return false;
	StepCtx c = {r, UINT64_MAX, 0, {0}};
	dbg_set_deadline(r->dbg, r->max_time);
	show_stop(r, dbg_step(r->dbg, n, step_hook, &c), false);
	return true;
}

static bool cmd_next(Repl *r, char *args)
{
	uint64_t n;
	if (!count_arg(r, args, "next", &n) || !moving(r))
		return false;
	uint64_t start = r->dbg->m->steps;
	dbg_set_deadline(r->dbg, r->max_time); /* one deadline for the whole command */
	for (uint64_t i = 0;; i++) {
		/* the branch's own step, then the rest of its region quietly */
		uint64_t before = r->dbg->m->steps;
		StepCtx c = {r, r->trace ? UINT64_MAX : 1, 0, {0}};
		DbgStop st = dbg_next(r->dbg, step_hook, &c);
		uint64_t made = r->dbg->m->steps - before;
		if (made > c.printed)
			say(r, "  ... %llu more step%s\n", (unsigned long long)(made - c.printed),
			    made - c.printed == 1 ? "" : "s");
		if (st.kind == STOP_DONE && interrupted) { /* between two regions */
			interrupted = 0;
			st.kind = STOP_INTERRUPT;
		}
		if (st.kind != STOP_DONE || i + 1 == n) {
			st.steps = r->dbg->m->steps - start; /* the whole command's */
			show_stop(r, st, false);
			return true;
		}
		dbg_stop_free(&st);
	}
}

static bool cmd_continue(Repl *r, char *args)
{
	if (word(&args))
		return fail(r, "continue takes no argument");
	if (!moving(r))
		return false;
	StepCtx c = {r, r->trace ? UINT64_MAX : 0, 0, {0}};
	dbg_set_deadline(r->dbg, r->max_time);
	show_stop(r, dbg_continue(r->dbg, step_hook, &c), !r->trace);
	return true;
}

static bool cmd_back(Repl *r, char *args)
{
	uint64_t n;
	if (!count_arg(r, args, "back", &n) || !need_program(r))
		return false;
	SemStatus was = r->dbg->m->status;
	uint64_t at = r->dbg->m->steps;
	DbgStop st = dbg_back(r->dbg, n);
	if (was != SEM_RUNNING && was != SEM_OK && r->dbg->m->steps == at) {
		say(r, "Back to step %llu, before the instruction that failed.\n",
		    (unsigned long long)r->dbg->m->steps);
		show_next(r);
		return true;
	}
	if (st.kind == STOP_START && st.steps == 0) {
		say(r, "At the start (step 0): there is nothing to step back over.\n");
		show_next(r);
		return true;
	}
	say(r, "Back %llu step%s, to step %llu.\n", (unsigned long long)st.steps, st.steps == 1 ? "" : "s",
	    (unsigned long long)r->dbg->m->steps);
	st.kind = STOP_DONE;
	show_stop(r, st, false);
	return true;
}

static bool cmd_goto(Repl *r, char *args)
{
	char *w = word(&args);
	long long v;
	if (!w || !str_to_ll(w, 0, LLONG_MAX, &v) || word(&args))
		return fail(r, "goto needs a step number (0 is the initial state)");
	if (!need_program(r))
		return false;
	StepCtx c = {r, 0, 0, {0}};
	dbg_set_deadline(r->dbg, r->max_time);
	DbgStop st = dbg_goto(r->dbg, (uint64_t)v, step_hook, &c);
	say(r, "At step %llu.\n", (unsigned long long)r->dbg->m->steps);
	if (st.kind == STOP_START || st.kind == STOP_DONE)
		st.kind = STOP_DONE;
	show_stop(r, st, false);
	return true;
}

/* "W,W,.../W,..." (musimd explore's schedules): the warps, each with an
** alternative after a '.' (W.K, sem_step_group: its:any's group, the side
** run first under ipdom --path-order both, the outcome of the lanes' order
** under --atomic-order any, aware's timeout), and after a '/' a cycle
** repeated for ever. */
static bool parse_schedule(Repl *r, const char *text, DbgChoice **out, uint64_t *n, int64_t *cycle)
{
	DbgChoice *v = NULL;
	uint64_t len = 0, cap = 0;
	*cycle = -1;
	const char *s = text;
	for (;;) {
		char num[24];
		size_t k = strcspn(s, ",/");
		long long w, alt = -1;
		char *dot = NULL;
		bool ok = k > 0 && k < sizeof num;
		if (ok) {
			memcpy(num, s, k);
			num[k] = 0;
			dot = strchr(num, '.');
			if (dot)
				*dot = 0;
			ok = str_to_ll(num, 0, SEM_MAX_THREADS - 1, &w) && (!dot || str_to_ll(dot + 1, 0, INT32_MAX, &alt));
		}
		if (!ok) {
			free(v);
			return fail(r, "schedule needs warp numbers (W, or W.K with the alternative K) separated by "
			               "commas, with a '/' before the cycle (as musimd explore prints them), not '%s'",
			            text);
		}
		VEC_PUSH(v, len, cap, DBG_CHOICE(w, alt));
		s += k;
		if (*s == '/') {
			if (*cycle >= 0) {
				free(v);
				return fail(r, "schedule has one cycle: one '/' at most, in '%s'", text);
			}
			*cycle = (int64_t)len;
		}
		if (!*s)
			break;
		s++;
	}
	if (*cycle == (int64_t)len) {
		free(v);
		return fail(r, "schedule: the cycle after '/' is empty in '%s'", text);
	}
	*out = v;
	*n = len;
	return true;
}

static void say_schedule(Repl *r)
{
	if (!r->sched) {
		say(r, "No schedule: the round-robin scheduler picks the warp of each step.\n");
		return;
	}
	say(r, "Steps follow the schedule ");
	for (uint64_t i = 0; i < r->nsched; i++) {
		say(r, "%s%d", i == 0 ? "" : (int64_t)i == r->sched_cycle ? "/" : ",", DBG_CHOICE_WARP(r->sched[i]));
		if (DBG_CHOICE_ALT(r->sched[i]) >= 0)
			say(r, ".%d", DBG_CHOICE_ALT(r->sched[i]));
	}
	say(r, r->sched_cycle >= 0 ? " (the cycle after '/' repeated for ever)\n" : "\n");
}

static bool cmd_schedule(Repl *r, char *args)
{
	char *w = word(&args);
	if (!w) {
		say_schedule(r);
		return true;
	}
	DbgChoice *v = NULL;
	uint64_t n = 0;
	int64_t cycle = -1;
	if (strcmp(w, "off") && !parse_schedule(r, w, &v, &n, &cycle))
		return false;
	free(r->sched);
	r->sched = v;
	r->nsched = n;
	r->sched_cycle = cycle;
	if (r->dbg) {
		DbgChoice *copy = NULL;
		if (v) {
			copy = xmalloc((size_t)n * sizeof *copy);
			memcpy(copy, v, (size_t)n * sizeof *copy);
		}
		dbg_set_schedule(r->dbg, copy, n, cycle);
	}
	say_schedule(r);
	if (r->dbg)
		say(r, "At the start (step 0).\n");
	return true;
}

static bool cmd_warp(Repl *r, char *args)
{
	char *w = word(&args);
	if (!need_program(r))
		return false;
	if (!w) {
		if (r->dbg->forced_warp < 0)
			say(r, "The round-robin scheduler picks the warp of each step.\n");
		else
			say(r, "Steps issue from warp %d.\n", r->dbg->forced_warp);
		return true;
	}
	if (!strcmp(w, "auto")) {
		r->dbg->forced_warp = -1;
		say(r, "The round-robin scheduler picks the warp of each step.\n");
		show_next(r);
		return true;
	}
	long long v;
	if (!str_to_ll(w, 0, r->dbg->m->nwarps - 1, &v))
		return fail(r, "warp needs 'auto' or a warp number from 0 to %d", r->dbg->m->nwarps - 1);
	r->dbg->forced_warp = (int32_t)v;
	say(r, "Steps issue from warp %lld until 'warp auto'.\n", v);
	show_next(r);
	return true;
}

/* ---- commands: points ------------------------------------------------------------- */

/* A LABEL of the program → its pc; -1, unless quiet with a message: what
** `cmd` takes, and a label the text may be a misspelling of. */
static int32_t find_label_pc(Repl *r, const char *text, const char *cmd, bool quiet)
{
	const Program *p = r->prog;
	int32_t l = ir_find_label(p, text);
	if (l >= 0 && p->labels[l].ins >= 0)
		return p->labels[l].ins;
	if (!quiet) {
		Buf b = {0};
		suggest_name(&b, p, text, true, false);
		fail(r, "%s takes a LABEL or a LINE number: %s has no label '%s'%s", cmd, r->path, text, buf_str(&b));
		buf_free(&b);
	}
	return -1;
}

/* A breakpoint's LABEL or LINE → pc (a line: its first instruction on or
** after it); -1, unless quiet with a message. */
static int32_t resolve_location(Repl *r, const char *text, bool quiet)
{
	const Program *p = r->prog;
	long long line;
	if (str_to_ll(text, 1, INT_MAX, &line)) {
		for (int32_t pc = 0; pc < p->nins; pc++)
			if (p->ins[pc].loc.line >= line)
				return pc;
		if (!quiet)
			fail(r, "no instruction at or after line %lld (the last is on line %d)", line,
			     p->ins[p->nins - 1].loc.line);
		return -1;
	}
	return find_label_pc(r, text, "break", quiet);
}

/* "mem[A]" → A */
static bool parse_cell(const char *text, int64_t *a, int64_t *b)
{
	if (strncmp(text, "mem[", 4))
		return false;
	char *end;
	errno = 0;
	long long x = strtoll(text + 4, &end, 10);
	if (errno || end == text + 4 || x < 0)
		return false;
	long long y = x;
	if (end[0] == '.' && end[1] == '.') {
		char *s = end + 2;
		y = strtoll(s, &end, 10);
		if (errno || end == s || y < x)
			return false;
	}
	if (strcmp(end, "]"))
		return false;
	*a = x;
	if (b)
		*b = y;
	else if (y != x)
		return false;
	return true;
}

static bool set_point(Repl *r, const char *text, bool watch, bool quiet)
{
	Dbg *s = r->dbg;
	int32_t id;
	if (!watch) {
		int32_t pc = resolve_location(r, text, quiet);
		if (pc < 0)
			return false;
		id = dbg_break(s, pc);
		if (!quiet) {
			say(r, "Breakpoint %d at ", id);
			put_ins(r, pc);
			say(r, " (line %d)\n", r->prog->ins[pc].loc.line);
		}
	} else {
		int64_t a;
		if (parse_cell(text, &a, NULL)) {
			id = dbg_watch_mem(s, a);
		} else {
			int32_t v = ir_find_var(r->prog, text);
			if (v < 0) {
				if (!quiet) {
					Buf b = {0};
					suggest_name(&b, r->prog, text, false, false);
					fail(r, "watch takes a variable or mem[ADDR]: %s has no variable '%s'%s", r->path, text,
					     buf_str(&b));
					buf_free(&b);
				}
				return false;
			}
			id = dbg_watch_var(s, v);
		}
		if (!quiet)
			say(r, "Watchpoint %d: %s\n", id, text);
	}
	if (!quiet) {
		PointSpec ps = {id, watch, xstrdup(text)};
		VEC_PUSH(r->specs, r->nspecs, r->capspecs, ps);
	}
	return true;
}

static bool cmd_break(Repl *r, char *args)
{
	if (!need_program(r))
		return false;
	char *w = word(&args);
	if (word(&args))
		return fail(r, "break takes one LABEL or LINE");
	if (!w) {
		/* gdb: where the program is now */
		int32_t wi = dbg_next_warp(r->dbg);
		if (wi < 0)
			return fail(r, "break needs a LABEL or LINE (no warp can run)");
		char line[32];
		snprintf(line, sizeof line, "%d", r->prog->ins[r->dbg->m->warps[wi].pc].loc.line);
		return set_point(r, line, false, false);
	}
	return set_point(r, w, false, false);
}

static bool cmd_watch(Repl *r, char *args)
{
	if (!need_program(r))
		return false;
	char *w = word(&args);
	if (!w || word(&args))
		return fail(r, "watch takes one VAR or mem[ADDR]");
	return set_point(r, w, true, false);
}

static bool cmd_delete(Repl *r, char *args)
{
	if (!need_program(r))
		return false;
	char *w = word(&args);
	if (!w) {
		dbg_delete(r->dbg, -1);
		for (int32_t i = 0; i < r->nspecs; i++)
			free(r->specs[i].text);
		r->nspecs = 0;
		say(r, "Deleted every breakpoint and watchpoint.\n");
		return true;
	}
	bool ok = true;
	for (; w; w = word(&args)) {
		long long id;
		if (!str_to_ll(w, 1, INT_MAX, &id) || !dbg_delete(r->dbg, (int32_t)id)) {
			ok = fail(r, "no breakpoint or watchpoint %s", w);
			continue;
		}
		for (int32_t i = 0; i < r->nspecs; i++)
			if (r->specs[i].id == id) {
				free(r->specs[i].text);
				r->specs[i] = r->specs[--r->nspecs];
				break;
			}
		say(r, "Deleted %lld.\n", id);
	}
	return ok;
}

/* ---- commands: looking at the state ----------------------------------------------- */

static const char state_mark[] = {'*', '~', '=', '#', ' '};

typedef struct Item {
	const char *name;
	int32_t var;     /* >= 0: a variable */
	int32_t special; /* >= 0: a special variable */
} Item;

static bool item_value(const Machine *m, const Item *it, int32_t t, Buf *b)
{
	if (it->var >= 0) {
		Num v;
		if (!sem_get(m, it->var, t, &v))
			return false;
		num_buf(b, v);
		return true;
	}
	int64_t x = sem_special(m, (Special)it->special, t);
	buf_printf(b, "%lld", (long long)x);
	return true;
}

static bool uniform_item(const Repl *r, const Item *it)
{
	if (it->var >= 0)
		return r->prog->vars[it->var].is_param;
	return it->special == SPEC_NTID || it->special == SPEC_NWARPS || it->special == SPEC_WARPSIZE;
}

/* A table: a column per thread (16 at most per block), a row per item,
** each value followed by the thread's mark. */
static void print_table(Repl *r, const Item *items, int32_t n, int32_t lo, int32_t hi)
{
	const Machine *m = r->dbg->m;
	int32_t nt = hi - lo; /* threads lo .. hi-1; cell and marks are indexed from lo */
	char **cell = xcalloc((size_t)n * (size_t)nt, sizeof *cell);
	size_t namew = 4;
	for (int32_t i = 0; i < n; i++)
		if (strlen(items[i].name) > namew)
			namew = strlen(items[i].name);
	Buf v = {0};
	size_t colw = 3;
	for (int32_t i = 0; i < n; i++)
		for (int32_t t = 0; t < nt; t++) {
			buf_reset(&v);
			if (!item_value(m, &items[i], lo + t, &v))
				buf_putc(&v, '-');
			cell[(size_t)i * (size_t)nt + (size_t)t] = xstrdup(buf_str(&v));
			if (v.len + 1 > colw)
				colw = v.len + 1;
		}
	/* the header "t1000" must fit the column too */
	if ((size_t)digits((uint64_t)hi - 1) + 1 > colw + 2)
		colw = (size_t)digits((uint64_t)hi - 1) - 1;
	bool used[5] = {0};
	char *marks = xmalloc((size_t)nt);
	for (int32_t t = 0; t < nt; t++) {
		int32_t pc;
		ThreadState st = dbg_thread_state(m, lo + t, &pc);
		marks[t] = state_mark[st];
		used[st] = true;
	}
	int32_t per = 16;
	if ((size_t)per * (colw + 2) > 96)
		per = (int32_t)(96 / (colw + 2));
	if (per < 1)
		per = 1;
	for (int32_t t0 = 0; t0 < nt; t0 += per) {
		int32_t t1 = t0 + per < nt ? t0 + per : nt;
		for (size_t k = 0; k < namew; k++)
			buf_putc(&r->out, ' ');
		for (int32_t t = t0; t < t1; t++) {
			char h[24];
			snprintf(h, sizeof h, "t%d", lo + t);
			for (size_t k = strlen(h); k < colw + 2; k++)
				buf_putc(&r->out, ' ');
			buf_puts(&r->out, h);
			if (t + 1 < t1)
				buf_putc(&r->out, ' ');
		}
		buf_putc(&r->out, '\n');
		for (int32_t i = 0; i < n; i++) {
			buf_puts(&r->out, items[i].name);
			for (size_t k = strlen(items[i].name); k < namew; k++)
				buf_putc(&r->out, ' ');
			for (int32_t t = t0; t < t1; t++) {
				const char *c = cell[(size_t)i * (size_t)nt + (size_t)t];
				for (size_t k = utf8_width(c, strlen(c)); k < colw + 2; k++)
					buf_putc(&r->out, ' ');
				buf_puts(&r->out, c);
				buf_putc(&r->out, marks[t]);
			}
			while (r->out.len && r->out.s[r->out.len - 1] == ' ')
				r->out.s[--r->out.len] = 0;
			buf_putc(&r->out, '\n');
		}
	}
	static const char *const legend[] = {"* active", "~ deferred", "= waiting to reconverge",
	                                     "# at the barrier", "no mark: finished"};
	buf_putc(&r->out, '(');
	bool first = true;
	for (int k = 0; k < 5; k++)
		if (used[k]) {
			buf_puts(&r->out, first ? "" : ", ");
			buf_puts(&r->out, legend[k]);
			first = false;
		}
	buf_puts(&r->out, ")\n");
	for (size_t k = 0; k < (size_t)n * (size_t)nt; k++)
		free(cell[k]);
	free(cell);
	free(marks);
	buf_free(&v);
}

static bool print_cells(Repl *r, int64_t a, int64_t b)
{
	if (b - a >= 4096)
		return fail(r, "print shows at most 4096 cells at a time");
	say(r, a == b ? "mem[%lld] =" : "mem[%lld..%lld] =", (long long)a, (long long)b);
	/* counted, not `x <= b`: b may be the largest address */
	for (int64_t i = 0; i <= b - a; i++) {
		Num v;
		buf_putc(&r->out, ' ');
		if (mem_get(&r->dbg->m->shared, a + i, &v))
			num_buf(&r->out, v);
		else
			buf_putc(&r->out, '-');
	}
	buf_putc(&r->out, '\n');
	return true;
}

/* "@T" or "@T..U": the threads print shows. */
static bool parse_threads(const char *w, int64_t *lo, int64_t *hi)
{
	char *end;
	errno = 0;
	long long a = strtoll(w + 1, &end, 10), b = a;
	if (errno || end == w + 1 || a < 0)
		return false;
	if (end[0] == '.' && end[1] == '.') {
		const char *s = end + 2;
		b = strtoll(s, &end, 10);
		if (errno || end == s || b < a)
			return false;
	}
	*lo = a;
	*hi = b;
	return !*end;
}

/* print shows this many threads unless @T..U chooses others */
#define PRINT_THREADS 64

static bool cmd_print(Repl *r, char *args)
{
	if (!need_program(r))
		return false;
	Item *items = NULL;
	int32_t n = 0, cap = 0;
	bool ok = true;
	int32_t nt = r->dbg->m->nthreads;
	int64_t lo = 0, hi = (nt < PRINT_THREADS ? nt : PRINT_THREADS) - 1;
	bool chosen = false;
	char *w = word(&args);
	if (!w)
		return fail(r, "print needs a VAR... or mem[A] or mem[A..B]");
	for (; w; w = word(&args)) {
		int64_t a, b;
		if (w[0] == '@') {
			if (!parse_threads(w, &lo, &hi) || hi >= nt) {
				free(items);
				return fail(r, "'%s': threads are chosen as @T or @FROM..TO, from 0 to %d", w, nt - 1);
			}
			chosen = true;
			continue;
		}
		if (!strncmp(w, "mem[", 4)) {
			if (!parse_cell(w, &a, &b)) {
				ok = fail(r, "'%s': memory is printed as mem[ADDR] or mem[FROM..TO], addresses from 0 to %lld", w,
				          LLONG_MAX);
				continue;
			}
			print_cells(r, a, b);
			continue;
		}
		Item it = {w, ir_find_var(r->prog, w), -1};
		for (int sp = 0; it.var < 0 && sp < SPEC__COUNT; sp++)
			if (!strcmp(w, ir_special_name((Special)sp)))
				it.special = sp;
		if (it.var < 0 && it.special < 0) {
			Buf b = {0};
			suggest_name(&b, r->prog, w, false, true);
			ok = fail(r, "no variable '%s'%s", w, buf_str(&b));
			buf_free(&b);
			continue;
		}
		if (uniform_item(r, &it)) {
			Buf v = {0};
			if (!item_value(r->dbg->m, &it, 0, &v))
				buf_putc(&v, '-');
			say(r, "%s = %s (%s)\n", w, buf_str(&v), it.var >= 0 ? "parameter" : "the same in every thread");
			buf_free(&v);
			continue;
		}
		VEC_PUSH(items, n, cap, it);
	}
	if (n) {
		if (hi - lo + 1 > 4096) {
			free(items);
			return fail(r, "print shows at most 4096 threads at a time");
		}
		print_table(r, items, n, (int32_t)lo, (int32_t)hi + 1);
		if (!chosen && hi + 1 < nt)
			say(r, "(threads 0 to %lld of %d: 'print VAR @FROM..TO' shows others)\n", (long long)hi, nt);
	}
	free(items);
	return ok;
}

static void put_pc(Repl *r, int32_t pc)
{
	if (pc < 0)
		buf_puts(&r->out, "⊥"); /* the virtual exit, as in the stacks */
	else
		ir_print_where(&r->out, r->prog, pc);
}

static void info_tables_of(Repl *r, int32_t wi);

static void info_stack_of(Repl *r, int32_t wi)
{
	const Machine *m = r->dbg->m;
	const Warp *w = &m->warps[wi];
	const Model *md = m->model;
	if (md->ntables > 0) {
		info_tables_of(r, wi);
		return;
	}
	say(r, "warp %d: %s, top first: (", wi, md->stack_name);
	for (int32_t i = 0; i < md->nfields; i++)
		say(r, "%s%s", i ? ", " : "", md->fields[i].label);
	say(r, ")%s\n", w->ctl.n ? "" : " = []");
	for (int32_t k = w->ctl.n - 1; k >= 0; k--) {
		CtlView v;
		md->view(w, k, &v);
		say(r, "  %d  (", k);
		for (int32_t i = 0; i < md->nfields; i++) {
			if (i)
				buf_puts(&r->out, ", ");
			if (md->fields[i].is_set)
				sem_print_set(&r->out, m, wi, v.set[i]);
			else
				put_pc(r, v.pc[i]);
		}
		buf_putc(&r->out, ')');
		if (md->pushed_by >= 0) {
			buf_puts(&r->out, "   pushed by ");
			put_ins(r, v.pc[md->pushed_by]);
		}
		buf_putc(&r->out, '\n');
	}
}

/* A model of several tables (aware): each as a table with a header row,
** its records as stored (the splits table by slot, as ElTantawy draws it). */
static void info_tables_of(Repl *r, int32_t wi)
{
	const Machine *m = r->dbg->m;
	const Warp *w = &m->warps[wi];
	const Model *md = m->model;
	for (int32_t t = 0; t < md->ntables; t++) {
		const CtlTable *tab = &md->tables[t];
		int32_t nf = tab->nfields, nrows = 0;
		for (int32_t k = 0; k < w->ctl.n; k++)
			nrows += md->table_of(w, k) == t;
		say(r, "warp %d: %s %s%s\n", wi, tab->title, tab->name, nrows ? "" : " = []");
		if (!nrows)
			continue;
		/* the cells, then the columns as wide as their widest */
		Buf *cell = xcalloc((size_t)(nrows + 1) * (size_t)nf, sizeof *cell);
		for (int32_t i = 0; i < nf; i++)
			buf_puts(&cell[i], tab->fields[i].label);
		for (int32_t k = 0, row = 1; k < w->ctl.n; k++) {
			if (md->table_of(w, k) != t)
				continue;
			CtlView v;
			md->view(w, k, &v);
			for (int32_t i = 0; i < nf; i++)
				sem_print_field(&cell[row * nf + i], m, wi, &tab->fields[i], &v, i);
			row++;
		}
		size_t width[CTL_MAX_FIELDS] = {0};
		for (int32_t c = 0; c < (nrows + 1) * nf; c++) {
			size_t cw = utf8_width(buf_str(&cell[c]), cell[c].len);
			if (cw > width[c % nf])
				width[c % nf] = cw;
		}
		for (int32_t row = 0; row <= nrows; row++) {
			buf_puts(&r->out, " ");
			for (int32_t i = 0; i < nf; i++) {
				const Buf *c = &cell[row * nf + i];
				buf_printf(&r->out, " %s", buf_str(c));
				if (i + 1 < nf)
					buf_printf(&r->out, "%*s", (int)(width[i] - utf8_width(buf_str(c), c->len) + 1), "");
			}
			buf_putc(&r->out, '\n');
		}
		for (int32_t c = 0; c < (nrows + 1) * nf; c++)
			buf_free(&cell[c]);
		free(cell);
	}
}

static bool info_stack(Repl *r, char *args)
{
	const Machine *m = r->dbg->m;
	char *w = word(&args);
	if (m->model->nfields == 0 && m->model->ntables == 0)
		return say(r, "Model %s has no stack: every thread is its own warp and runs alone.\n",
		           m->model->name), true;
	if (w) {
		long long v;
		if (!str_to_ll(w, 0, m->nwarps - 1, &v))
			return fail(r, "info stack takes a warp number from 0 to %d", m->nwarps - 1);
		info_stack_of(r, (int32_t)v);
		return true;
	}
	if (m->nwarps == 1) {
		info_stack_of(r, 0);
		return true;
	}
	int32_t next = dbg_next_warp(r->dbg);
	for (int32_t wi = 0; wi < m->nwarps; wi++)
		if (m->nwarps <= 8 || wi == next)
			info_stack_of(r, wi);
	if (m->nwarps > 8)
		say(r, "(%d warps: 'info stack W' shows warp W)\n", m->nwarps);
	return true;
}

static bool info_threads(Repl *r, char *args)
{
	const Machine *m = r->dbg->m;
	char *w = word(&args);
	bool all = w && !strcmp(w, "all");
	if (w && !all)
		return fail(r, "info threads takes 'all' or nothing");
	int32_t shown = all || m->nthreads <= 64 ? m->nthreads : 64;
	/* columns as wide as their widest entry */
	int tw = 1 + digits((uint64_t)m->nthreads - 1), ww = digits((uint64_t)m->nwarps - 1),
	    lw = digits((uint64_t)m->sched_warpsize - 1);
	tw = tw < 6 ? 6 : tw;
	ww = ww < 4 ? 4 : ww;
	lw = lw < 4 ? 4 : lw;
	say(r, "%-*s  %-*s  %-*s  %-10s  at\n", tw, "thread", ww, "warp", lw, "lane", "state");
	for (int32_t t = 0; t < shown; t++) {
		int32_t pc;
		ThreadState st = dbg_thread_state(m, t, &pc);
		int32_t wi = m->model->warps_of_one ? t : t / m->warpsize;
		char name[16];
		snprintf(name, sizeof name, "t%d", t);
		say(r, "%-*s  %-*d  %-*d  %s", tw, name, ww, wi, lw, t - m->warps[wi].base, dbg_thread_state_name(st));
		if (st != THREAD_DONE) {
			say(r, "%*s", (int)(12 - strlen(dbg_thread_state_name(st))), "");
			put_ins(r, pc);
			if (sem_ret_depth(m, t) > 0) { /* calls: where it returns, bottom first */
				buf_puts(&r->out, "  returns to ");
				sem_print_ret_stack(&r->out, m, t);
			}
		}
		buf_putc(&r->out, '\n');
	}
	if (shown < m->nthreads)
		say(r, "... (%d more: 'info threads all')\n", m->nthreads - shown);
	return true;
}

static bool info_warps(Repl *r, char *args)
{
	(void)args;
	const Machine *m = r->dbg->m;
	int32_t next = dbg_next_warp(r->dbg);
	int32_t shown = m->nwarps <= 64 ? m->nwarps : 64;
	int ww = 1 + digits((uint64_t)m->nwarps - 1), tw = 2 * digits((uint64_t)m->nthreads - 1) + 2;
	for (int32_t wi = 0; wi < shown; wi++) {
		const Warp *w = &m->warps[wi];
		char name[16], range[48];
		snprintf(name, sizeof name, "w%d", wi);
		snprintf(range, sizeof range, "%d..%d", w->base, w->base + w->size - 1);
		say(r, "%s %-*s  threads %-*s  ", wi == next ? "=>" : "  ", ww, name, tw, range);
		if (w->status == WARP_DONE) {
			say(r, "done\n");
			continue;
		}
		say(r, "%s at ", w->status == WARP_BARRIER ? "waits" : "runs");
		put_ins(r, w->pc);
		buf_puts(&r->out, "  active ");
		sem_print_set(&r->out, m, wi, w->active);
		say(r, "  stack depth %d\n", sem_stack_depth(m, wi));
	}
	if (shown < m->nwarps)
		say(r, "... (%d more warps)\n", m->nwarps - shown);
	return true;
}

static bool info_rules(Repl *r, char *args)
{
	(void)args;
	static const char *const what[RULE__COUNT] = {
		"stop: the warp ends (Π = [])",
		"branch: every active PE jumps; push",
		"branch: every active PE falls through; push",
		"branch: divergent; push the PEs that jump, run the others",
		"sync: switch to the deferred PEs (Θ_todo)",
		"sync: pop and merge Θ_done",
		"jump",
		"any other instruction: the data rules",
		"exit (extension)",
		"arrival at a barrier (extension)",
		"sync ignored by the model",
		"call: push the return pc, enter the function (extension)",
		"ret: every active thread returns to one pc (extension)",
		"ret: the threads return to different pcs, a divergence (extension)",
	};
	const Machine *m = r->dbg->m;
	int cw = 8;
	for (int k = 0; k < RULE__COUNT; k++)
		if (digits(m->rule_count[k]) > cw)
			cw = digits(m->rule_count[k]);
	for (int k = 0; k < RULE__COUNT; k++)
		if (k <= RULE_IT || m->rule_count[k])
			say(r, "%-4s %*llu  %s\n", sem_rule_name((Rule)k), cw, (unsigned long long)m->rule_count[k], what[k]);
	report_measures(&r->out, m);
	return true;
}

static bool info_breakpoints(Repl *r, char *args)
{
	(void)args;
	const Dbg *s = r->dbg;
	if (s->npoints == 0)
		return say(r, "No breakpoints or watchpoints.\n"), true;
	int iw = 3;
	for (int32_t i = 0; i < s->npoints; i++)
		if (digits((uint64_t)s->points[i].id) > iw)
			iw = digits((uint64_t)s->points[i].id);
	for (int32_t i = 0; i < s->npoints; i++) {
		const DbgPoint *pt = &s->points[i];
		say(r, "%-*d ", iw, pt->id);
		if (pt->kind == POINT_BREAK) {
			buf_puts(&r->out, "breakpoint  ");
			put_ins(r, pt->pc);
			say(r, " (line %d)", r->prog->ins[pt->pc].loc.line);
		} else if (pt->kind == POINT_WATCH_VAR) {
			say(r, "watchpoint  %s", r->prog->vars[pt->var].name);
		} else {
			say(r, "watchpoint  mem[%lld]", (long long)pt->addr);
		}
		say(r, "  hit %llu time%s\n", (unsigned long long)pt->hits, pt->hits == 1 ? "" : "s");
	}
	return true;
}

static bool info_program(Repl *r, char *args)
{
	(void)args;
	const Machine *m = r->dbg->m;
	describe_session(r);
	say(r, "status %s after %llu steps", sem_status_name(m->status), (unsigned long long)m->steps);
	if (r->dbg->nhist > m->steps)
		say(r, " (%llu more recorded: 'goto %llu')", (unsigned long long)(r->dbg->nhist - m->steps),
		    (unsigned long long)r->dbg->nhist);
	buf_putc(&r->out, '\n');
	if (r->dbg->forced_warp >= 0)
		say(r, "steps issue from warp %d ('warp auto' to undo)\n", r->dbg->forced_warp);
	report_measures(&r->out, m);
	return true;
}

typedef bool (*CmdFn)(Repl *r, char *args);

typedef struct Sub {
	const char *name;
	CmdFn fn;
	const char *help;
} Sub;

static const Sub info_subs[] = {
	{"stack", info_stack, "the synchronisation stack of each warp: nodes (l_id, Θ_done, l_next, Θ_todo), top first (ipdom: entries (pc, rpc, mask)); 'info stack W' for warp W"},
	{"threads", info_threads, "each thread: its warp, lane, state (active, deferred, waiting, at barrier, done) and where it goes on; 'all' past 64 threads"},
	{"warps", info_warps, "each warp: its threads, status, next instruction, active set, stack depth (=> marks the warp that issues next)"},
	{"rules", info_rules, "how often each rule fired (SF BT BF BD SS SP JP IT, and EX BAR NOP), then the measures"},
	{"breakpoints", info_breakpoints, "the breakpoints and watchpoints, with their hit counts"},
	{"program", info_program, "the file, threads, warps, model, status, steps so far and the measures"},
	{NULL, NULL, NULL},
};

/* Two columns, the first as wide as its widest entry (up to max: a wider
** entry puts its text on the next line). */
static void two_columns(Buf *out, const char *const *left, const char *const *right, int32_t n, size_t indent,
                        size_t max)
{
	size_t col = 0;
	for (int32_t i = 0; i < n; i++) {
		size_t w = utf8_width(left[i], strlen(left[i]));
		if (w <= max && w > col)
			col = w;
	}
	for (int32_t i = 0; i < n; i++) {
		size_t w = utf8_width(left[i], strlen(left[i]));
		buf_printf(out, "%*s%s", (int)indent, "", left[i]);
		if (w > col)
			buf_printf(out, "\n%*s", (int)(indent + col), "");
		else
			buf_printf(out, "%*s", (int)(col - w), "");
		buf_printf(out, "  %s\n", right[i]);
	}
}

static void list_info_subs(Repl *r)
{
	const char *left[16], *right[16];
	int32_t n = 0;
	char names[16][32];
	for (const Sub *s = info_subs; s->name && n < 16; s++, n++) {
		snprintf(names[n], sizeof names[n], "info %s", s->name);
		left[n] = names[n];
		right[n] = s->help;
	}
	two_columns(&r->out, left, right, n, 2, 40);
}

static const Sub *find_sub(const Sub *subs, const char *w, int *nmatch)
{
	const Sub *hit = NULL;
	*nmatch = 0;
	for (const Sub *s = subs; s->name; s++) {
		if (!strcmp(s->name, w)) {
			*nmatch = 1;
			return s;
		}
		if (!strncmp(s->name, w, strlen(w))) {
			hit = s;
			++*nmatch;
		}
	}
	return *nmatch == 1 ? hit : NULL;
}

static bool cmd_info(Repl *r, char *args)
{
	char *w = word(&args);
	if (!w) {
		say(r, "info takes one of:\n");
		list_info_subs(r);
		return true;
	}
	int nm;
	const Sub *s = find_sub(info_subs, w, &nm);
	if (!s) {
		const char *names[16];
		int n = 0;
		for (const Sub *k = info_subs; k->name && n < 15; k++)
			names[n++] = k->name;
		names[n] = NULL;
		return fail_among(r, nm ? NULL : w, names,
		                  "%s info subcommand '%s': try stack, threads, warps, rules, breakpoints or program",
		                  nm ? "ambiguous" : "unknown", w);
	}
	if (!need_program(r))
		return false;
	return s->fn(r, args);
}

/* ---- commands: the program text, the grid, the analyses --------------------------- */

static bool cmd_list(Repl *r, char *args)
{
	if (!need_program(r))
		return false;
	const Program *p = r->prog;
	char *w = word(&args);
	if (word(&args))
		return fail(r, "list takes one LABEL or LINE number");
	int32_t next = dbg_next_warp(r->dbg);
	int32_t cur = next >= 0 ? r->dbg->m->warps[next].pc : -1;
	/* the source lines, numbered */
	int32_t nlines = 0;
	for (size_t i = 0; i < p->srclen; i++)
		nlines += p->src[i] == '\n';
	if (p->srclen && p->src[p->srclen - 1] != '\n')
		nlines++;
	int32_t center = cur >= 0 ? p->ins[cur].loc.line : 1;
	if (w) {
		long long line;
		if (str_to_ll(w, LLONG_MIN, LLONG_MAX, &line)) {
			if (line < 1 || line > nlines)
				return fail(r, "%s has lines 1 to %d: there is no line %lld", r->path, nlines, line);
			center = (int32_t)line;
		} else {
			int32_t pc = find_label_pc(r, w, "list", false);
			if (pc < 0)
				return false;
			center = p->ins[pc].loc.line;
		}
	}
	int32_t from = 1, to = nlines;
	if (nlines > 60 || w) {
		from = center - 10 > 1 ? center - 10 : 1;
		to = from + 20 < nlines ? from + 20 : nlines;
	}
	int width = digits((uint64_t)to) > 4 ? digits((uint64_t)to) : 4;
	int32_t curline = cur >= 0 ? p->ins[cur].loc.line : -1;
	const char *s = p->src;
	for (int32_t line = 1; line <= to && s < p->src + p->srclen; line++) {
		const char *e = memchr(s, '\n', (size_t)(p->src + p->srclen - s));
		if (!e)
			e = p->src + p->srclen;
		if (line >= from) {
			bool bp = false;
			for (int32_t i = 0; i < r->dbg->npoints; i++) {
				const DbgPoint *pt = &r->dbg->points[i];
				bp |= pt->kind == POINT_BREAK && p->ins[pt->pc].loc.line == line;
			}
			say(r, "%s%c %*d  %.*s\n", line == curline ? "=>" : "  ", bp ? 'b' : ' ', width, line, (int)(e - s), s);
		}
		s = e + 1;
	}
	return true;
}

typedef struct GridCtx {
	Repl *r;
	uint64_t from; /* first step shown */
	ReportCols cols;
} GridCtx;

static void grid_hook(void *ctx, const Machine *m, const StepInfo *info)
{
	GridCtx *g = ctx;
	if (info->step >= g->from)
		report_grid_row(&g->r->out, &g->cols, m, info);
	if (g->r->out.len > (1u << 16))
		flush(g->r);
}

static bool cmd_grid(Repl *r, char *args)
{
	if (!need_program(r))
		return false;
	/* the last GRID_ROWS steps unless asked for more: a long run has millions */
	enum { GRID_ROWS = 200 };
	uint64_t steps = r->dbg->m->steps, n = GRID_ROWS;
	char *w = word(&args);
	long long v;
	if (w && (!str_to_ll(w, 1, LLONG_MAX, &v) || word(&args)))
		return fail(r, "grid takes the number of last steps to show");
	if (w)
		n = (uint64_t)v;
	if (steps == 0)
		return say(r, "No steps yet.\n"), true;
	GridCtx g = {r, steps - (n < steps ? n : steps) + 1, {0}};
	report_cols(&g.cols, r->dbg->m, steps);
	report_grid_header(&r->out, &g.cols, r->dbg->m);
	if (!dbg_replay(r->dbg, g.from, grid_hook, &g))
		return fail(r, "the grid stopped early: %s", interrupted ? "interrupted" : "the replay would exceed the memory limit");
	return true;
}

static bool cmd_analyze(Repl *r, char *args)
{
	if (!need_program(r))
		return false;
	AnaOptions o = {.domain = ANA_POLY, .degree = 2};
	char *w;
	while ((w = word(&args))) {
		if (!strcmp(w, "simple"))
			o.domain = ANA_SIMPLE;
		else if (!strcmp(w, "affine"))
			o.domain = ANA_POLY;
		else if (!strcmp(w, "data-only"))
			o.domain = ANA_DATA_ONLY;
		else if (strspn(w, "0123456789-+") == strlen(w)) {
			const char *bad = args_degree("analyze's DEGREE", w, &o.degree); /* the CLI's check */
			if (bad)
				return fail(r, "%s", bad);
		} else {
			return fail_among(r, w, domains,
			                  "analyze takes simple, affine (default) or data-only, and a DEGREE (default 2)");
		}
	}
	Program *g = r->prog;
	Program *made = NULL;
	if (!g->has_gsa) {
		Diags d;
		diag_init(&d, g->path, g->src, g->srclen);
		made = gsa_build(g, &d);
		if (!made || d.nerrors) {
			diag_render(&d, &r->out);
			diag_free(&d);
			if (made)
				ir_free(made);
			return fail(r, "the program has no GSA form, so it cannot be analysed");
		}
		diag_free(&d);
		g = made;
		say(r, "The analyses run on the GSA form ('musimd gsa %s'):\n", r->path);
	}
	AnaResult *res = ana_run(g, &o);
	report_analysis_text(&r->out, g, res, false);
	/* what the run so far saw at the same branches (by label) */
	const Machine *m = r->dbg->m;
	bool header = false;
	for (int32_t pc = 0; pc < r->prog->nins; pc++) {
		if (!ir_is_branch((Op)r->prog->ins[pc].op) || m->visits[pc] == 0)
			continue;
		if (!header)
			say(r, "this run so far (%llu steps):\n", (unsigned long long)m->steps);
		header = true;
		buf_puts(&r->out, "  ");
		put_where(r, pc);
		say(r, "  visited %llu time%s, diverged %llu", (unsigned long long)m->visits[pc],
		    m->visits[pc] == 1 ? "" : "s", (unsigned long long)m->divergences[pc]);
		const char *label = ir_label_of(r->prog, pc);
		int32_t l = label ? ir_find_label(g, label) : -1;
		int32_t gpc = l >= 0 ? g->labels[l].ins : -1;
		if (gpc >= 0 && m->divergences[pc] > 0 && !res->branch_divergent[gpc])
			say(r, "  -- classified uniform: the analysis is unsound here!");
		buf_putc(&r->out, '\n');
	}
	ana_free(res);
	if (made)
		ir_free(made);
	return true;
}

/* ---- commands: options (each starts the program again) ---------------------------- */

static bool restart_with_options(Repl *r)
{
	if (!r->prog)
		return true;
	if (!new_session(r, "Restarted: "))
		return false;
	show_next(r);
	return true;
}

/* threads N / warpsize N: 0 means the program's directive. */
static bool set_count(Repl *r, char *args, const char *name, int32_t *field)
{
	char *w = word(&args);
	long long v;
	if (!w || !str_to_ll(w, 0, SEM_MAX_THREADS, &v) || word(&args))
		return fail(r, "%s needs a count from 1 to %d (0: the program's .%s)", name, SEM_MAX_THREADS, name);
	int32_t old = *field;
	*field = (int32_t)v;
	if (!restart_with_options(r)) {
		*field = old;
		return false;
	}
	return true;
}

static bool cmd_threads(Repl *r, char *args)
{
	return set_count(r, args, "threads", &r->opt.threads);
}

static bool cmd_warpsize(Repl *r, char *args)
{
	return set_count(r, args, "warpsize", &r->opt.warpsize);
}

/* Index of w among words, or -1 after a message. */
static int pick_word(Repl *r, const char *what, const char *w, const char *const *words)
{
	for (int i = 0; w && words[i]; i++)
		if (!strcmp(w, words[i]))
			return i;
	Buf b = {0};
	for (int i = 0; words[i]; i++)
		buf_printf(&b, "%s%s", i == 0 ? "" : words[i + 1] ? ", " : " or ", words[i]);
	fail_among(r, w, words, "%s takes %s", what, buf_str(&b));
	buf_free(&b);
	return -1;
}

static bool cmd_model(Repl *r, char *args)
{
	char *w = word(&args);
	if (!w && r->dbg)
		return say(r, "model %s\n", sem_model_name(r->opt.model)), true;
	const Model *md = w ? model_find(w) : NULL; /* "its" is its:rr; no word and no program: the list */
	if (!md) {
		/* every name model_find knows: tf's variants and the policies too */
		const char *words[MODEL_WORDS];
		model_words(words, NULL, true);
		int i = pick_word(r, "model", w, words);
		if (i < 0 || i >= MODEL_COUNT)
			return false;
		md = models[i];
	}
	const Model *old = r->opt.model;
	r->opt.model = md;
	if (!restart_with_options(r)) {
		r->opt.model = old;
		return false;
	}
	return true;
}

/* Whether p declares the parameter name; if not, says so in b (with a
** parameter it may be a misspelling of). */
static bool is_param(const Program *p, const char *name, Buf *b)
{
	int32_t x = ir_find_var(p, name);
	if (x >= 0 && p->vars[x].is_param)
		return true;
	Suggest g;
	suggest_init(&g, name, strlen(name));
	for (int32_t i = 0; i < p->nvars; i++)
		if (p->vars[i].is_param)
			suggest_add(&g, p->vars[i].name);
	buf_printf(b, "'%s' is not a parameter of %s", name, p->path);
	if (g.n)
		buf_puts(b, "; ");
	suggest_print(&g, b, "");
	return false;
}

static bool cmd_param(Repl *r, char *args)
{
	char *w = word(&args);
	if (!w || word(&args))
		return fail(r, "param needs NAME=INT");
	char *eq = strchr(w, '=');
	if (r->prog && eq) {
		*eq = 0;
		Buf b = {0};
		if (!is_param(r->prog, w, &b)) {
			fail(r, "%s", buf_str(&b));
			buf_free(&b);
			return false;
		}
		*eq = '=';
	}
	const char *bad = args_param(&r->sa, "param", w);
	if (bad)
		return fail(r, "%s", bad);
	return restart_with_options(r);
}

static bool cmd_data(Repl *r, char *args)
{
	char *w = word(&args);
	if (!w || word(&args))
		return fail(r, "data needs ADDR=INT[,INT...] or 'clear'");
	if (!strcmp(w, "clear"))
		args_clear_data(&r->sa);
	else {
		const char *bad = args_data(&r->sa, "data", w);
		if (bad)
			return fail(r, "%s", bad);
	}
	return restart_with_options(r);
}

static bool set_onoff(Repl *r, const char *name, const char *w, bool *flag)
{
	static const char *const onoff[] = {"on", "off", NULL};
	int i = pick_word(r, name, w, onoff);
	if (i < 0)
		return false;
	*flag = i == 0;
	return true;
}

static const char *const setting_names[] = {"trace",       "bz-polarity",   "strict-push", "lane-order",
                                            "seed",        "max-steps",     "max-memory",  "max-time",
                                            "aware-delay", "aware-timeout", NULL};

static bool cmd_set(Repl *r, char *args)
{
	char *what = word(&args);
	char *w = word(&args);
	if (!what) {
		say(r, "threads %d, warpsize %d (0: the program's .threads, .warpsize), model %s\n", r->opt.threads,
		    r->opt.warpsize, sem_model_name(r->opt.model));
		say(r, "bz-polarity %s, strict-push %s, lane-order %s, seed %llu, trace %s\n",
		    r->opt.bz_rules ? "rules" : "mnemonic", r->opt.strict_push ? "on" : "off",
		    r->opt.lane_order == ORDER_ASCENDING    ? "ascending"
		    : r->opt.lane_order == ORDER_DESCENDING ? "descending"
		                                            : "random",
		    (unsigned long long)r->opt.seed, r->trace ? "on" : "off");
		say(r, "max-steps %llu, max-memory %llu MiB, max-time ",
		    (unsigned long long)(r->opt.max_steps ? r->opt.max_steps : SEM_DEFAULT_MAX_STEPS),
		    (unsigned long long)((r->opt.max_memory ? r->opt.max_memory : SEM_DEFAULT_MAX_MEMORY) >> 20));
		if (r->max_time > 0)
			say(r, "%g s\n", r->max_time);
		else
			say(r, "off\n");
		if (r->opt.model == &model_aware || r->sa.aware_delay || r->opt.aware_timeout) {
			say(r, "aware-delay %s, aware-timeout ", r->sa.aware_delay ? r->sa.aware_delay : "off");
			if (r->opt.aware_timeout > 0)
				say(r, "%lld\n", (long long)r->opt.aware_timeout);
			else
				say(r, "%s\n", r->opt.aware_timeout ? "any" : "off");
		}
		for (int32_t i = 0; i < r->sa.nparams; i++) {
			say(r, "param %s=", r->sa.params[i].name);
			num_buf(&r->out, r->sa.params[i].value);
			buf_putc(&r->out, '\n');
		}
		return true;
	}
	if (word(&args))
		return fail(r, "set takes one NAME and one VALUE");
	SemOptions old = r->opt;
	long long v;
	if (!strcmp(what, "trace"))
		return set_onoff(r, "set trace", w, &r->trace);
	if (!strcmp(what, "max-time")) { /* the next commands' (dbg_set_deadline): no new session */
		double secs = 0;
		if (!w || (strcmp(w, "off") && !str_to_seconds(w, &secs)))
			return fail(r, "set max-time needs a positive number of seconds (at most 1e9) or 'off'%s%s%s",
			            w ? ", not '" : "", w ? w : "", w ? "'" : "");
		r->max_time = secs;
		return true;
	}
	if (!strcmp(what, "bz-polarity")) {
		static const char *const pol[] = {"mnemonic", "rules", NULL};
		int i = pick_word(r, "set bz-polarity", w, pol);
		if (i < 0)
			return false;
		r->opt.bz_rules = i == 1;
	} else if (!strcmp(what, "strict-push")) {
		if (!set_onoff(r, "set strict-push", w, &r->opt.strict_push))
			return false;
	} else if (!strcmp(what, "lane-order")) {
		static const char *const ord[] = {"ascending", "descending", "random", NULL};
		int i = pick_word(r, "set lane-order", w, ord);
		if (i < 0)
			return false;
		r->opt.lane_order = (LaneOrder)i;
	} else if (!strcmp(what, "seed")) {
		if (!str_to_ll(w, 0, LLONG_MAX, &v))
			return fail(r, "set seed needs a number");
		r->opt.seed = (uint64_t)v;
	} else if (!strcmp(what, "max-steps")) {
		if (!str_to_ll(w, 1, LLONG_MAX, &v))
			return fail(r, "set max-steps needs a positive number");
		if (r->lim.max_steps && (uint64_t)v > r->lim.max_steps)
			return fail(r, "this session takes at most %llu steps", (unsigned long long)r->lim.max_steps);
		r->opt.max_steps = (uint64_t)v;
	} else if (!strcmp(what, "max-memory")) {
		uint64_t bytes = 0;
		const char *bad = w ? args_max_memory("set max-memory", w, &bytes) : "set max-memory needs a number of MiB";
		if (bad)
			return fail(r, "%s", bad);
		if (r->lim.max_memory && bytes > r->lim.max_memory)
			return fail(r, "this session takes at most %llu MiB", (unsigned long long)(r->lim.max_memory >> 20));
		r->opt.max_memory = bytes;
	} else if (!strcmp(what, "aware-timeout")) {
		const char *bad = w ? args_aware_timeout("set aware-timeout", w, &r->opt.aware_timeout)
		                    : "set aware-timeout needs a number of steps, 'any' or 'off'";
		if (bad)
			return fail(r, "%s", bad);
	} else if (!strcmp(what, "aware-delay")) {
		if (!w)
			return fail(r, "set aware-delay needs BRANCH:POINT[,BRANCH:POINT...] or 'off'");
		char *saved = r->sa.aware_delay ? xstrdup(r->sa.aware_delay) : NULL;
		args_aware_delay(&r->sa, w);
		if (!restart_with_options(r)) { /* the program said why */
			free(r->sa.aware_delay);
			r->sa.aware_delay = saved;
			return false;
		}
		free(saved);
		return true;
	} else {
		return fail_among(r, what, setting_names,
		                  "set takes trace, bz-polarity, strict-push, lane-order, seed, max-steps, "
		                  "max-memory, max-time, aware-delay or aware-timeout");
	}
	if (!restart_with_options(r)) {
		r->opt = old;
		return false;
	}
	return true;
}

static bool cmd_quit(Repl *r, char *args)
{
	(void)args;
	r->quit = true;
	return true;
}

static bool cmd_help(Repl *r, char *args);

/* ---- the command table ------------------------------------------------------------ */

/* What a command's first argument is, for Tab completion. */
typedef enum ArgKind {
	ARG_NONE,
	ARG_COMMAND,  /* help */
	ARG_FILE,     /* load */
	ARG_LOCATION, /* break, list: labels */
	ARG_VALUE,    /* print: variables, special variables, mem[ */
	ARG_WATCHED,  /* watch: variables, mem[ */
	ARG_INFO,     /* info's subcommands */
	ARG_MODEL,
	ARG_DOMAIN,   /* analyze */
	ARG_PARAM,    /* param: the program's parameters */
	ARG_SETTING,  /* set */
} ArgKind;

/* The command table is the one source of the command names: lookup,
** `help`, completion and musimd-repl(1) follow it. A command is named by
** its name, by one of its abbreviations (gdb's: s and st for step, n, c,
** b, p, ...), or by a prefix of its name that starts no other command's. */
typedef struct Cmd {
	const char *name;
	const char *abbrev; /* blank-separated abbreviations, or NULL */
	CmdFn fn;
	bool repeat;        /* an empty line repeats it */
	ArgKind arg;
	const char *usage, *summary, *help;
} Cmd;

static const Cmd cmds[] = {
	{"load", NULL, cmd_load, false, ARG_FILE, "load FILE", "load a program (the session starts at step 0)",
	 "Parse and validate FILE; on errors the diagnostics are shown and the previous program stays.\n"
	 "Breakpoints and watchpoints are kept where the new program has their label, line or variable."},
	{"reload", NULL, cmd_reload, false, ARG_NONE, "reload", "load the same file again (after editing it)", NULL},
	{"run", "r", cmd_run, false, ARG_NONE, "run", "start again from step 0 and continue",
	 "Runs from the initial state until a breakpoint, a watchpoint, the end, or a failure\n"
	 "(stuck state, step limit, deadlock). Ctrl-C interrupts a long run."},
	{"start", NULL, cmd_start, false, ARG_NONE, "start", "go back to step 0 without running", NULL},
	{"step", "s st", cmd_step, true, ARG_NONE, "step [N]", "N warp instructions (default 1), printing the rule of each",
	 "Each step is one warp instruction: the line shows the step number, [the warp,] the\n"
	 "instruction, the rule that fired (SF BT BF BD SS SP JP IT; EX BAR NOP for the extensions),\n"
	 "then the warp afterwards: its active set, and the top of its stack: the deferred PEs and\n"
	 "where they resume (\"deferred {0} → l15\"), the PEs waiting at a sync (\"waiting {3} at l15\").\n"
	 "Stops early at a breakpoint, a watchpoint, the end or a failure."},
	{"next", "n", cmd_next, true, ARG_NONE, "next [N]", "one step, or a whole divergent region at a branch",
	 "At a conditional branch, runs until the region it opens has reconverged: under the sync\n"
	 "model until the node the branch pushed is popped (SP), under ipdom and mimd until the warp\n"
	 "reaches the branch's immediate post-dominator with all the threads that took the branch.\n"
	 "Prints the branch's step and counts the others; 'set trace on' prints them all.\n"
	 "Anywhere else it is 'step'."},
	{"continue", "c", cmd_continue, true, ARG_NONE, "continue", "run until a breakpoint, a watchpoint, the end or a failure", NULL},
	{"back", NULL, cmd_back, true, ARG_NONE, "back [N]", "step N warp instructions backwards (default 1)",
	 "The REPL records the warp of every step and keeps checkpoints of the state, so it can go back\n"
	 "to any earlier step exactly (it replays the recorded steps from the nearest checkpoint).\n"
	 "Stepping forwards again follows the recorded schedule unless 'warp N' chooses another."},
	{"goto", NULL, cmd_goto, false, ARG_NONE, "goto STEP", "go to the state after STEP steps (backwards or forwards)", NULL},
	{"schedule", NULL, cmd_schedule, false, ARG_NONE, "schedule [LIST|off]",
	 "follow a schedule: W,W,.../W,... (explore's counterexamples)",
	 "The warp of each step, in order, as musimd explore prints a counterexample, each with the\n"
	 "alternative explore chose after a dot (W.K: under its:any the group, under ipdom at a branch\n"
	 "the side run first, with --atomic-order any the lanes' order; musimd-repl(1)); the warps after\n"
	 "a '/' are a cycle, repeated for ever (a livelock). The session starts again at step 0 and\n"
	 "step, next, continue and run follow the schedule; back and goto work as usual. A step that\n"
	 "'warp N' issues from another warp leaves the schedule; 'schedule off' gives the choice back\n"
	 "to the round-robin scheduler; 'schedule' shows it."},
	{"warp", NULL, cmd_warp, false, ARG_NONE, "warp [N|auto]", "issue the next steps from warp N (your own schedule)",
	 "With several warps the round-robin scheduler picks the warp of each step; 'warp N' makes the\n"
	 "following steps issue from warp N (until it finishes or waits at the barrier), 'warp auto'\n"
	 "gives the choice back. Choosing a warp other than the recorded one discards the recorded\n"
	 "future of 'back'."},
	{"break", "b", cmd_break, false, ARG_LOCATION, "break [LABEL|LINE]", "stop before the instruction at LABEL or LINE",
	 "A breakpoint stops 'continue', 'next', 'run' and 'step N' before a warp issues the instruction\n"
	 "(a LINE means the first instruction on or after it). Without an argument: where the program is."},
	{"watch", NULL, cmd_watch, false, ARG_WATCHED, "watch VAR|mem[ADDR]", "stop when VAR changes in any thread, or the cell changes",
	 "After each step the watched variable is compared in every thread of the warp that stepped\n"
	 "(a cell of shared memory: its value); a change stops the command and shows old → new values."},
	{"delete", "d", cmd_delete, false, ARG_NONE, "delete [N...]", "delete breakpoints/watchpoints N, or all of them", NULL},
	{"print", "p", cmd_print, false, ARG_VALUE, "print VAR...|mem[A]|mem[A..B] [@T..U]", "values per thread, or memory cells",
	 "One column per thread, a row per variable; each value is marked with the thread's state:\n"
	 "* active, ~ deferred (in a Θ_todo), = waiting to reconverge (in a Θ_done), # at the barrier, no\n"
	 "mark: finished. '-' is a value never assigned. Parameters and tid, laneid, warpid, ntid,\n"
	 "nwarps, warpsize can be printed too. mem[A..B] prints shared memory ('-': uninitialised).\n"
	 "The first 64 threads are shown; @T or @FROM..TO among the words chooses others."},
	{"info", "i", cmd_info, false, ARG_INFO, "info stack|threads|warps|rules|breakpoints|program", "the machine state", NULL},
	{"list", "l", cmd_list, false, ARG_LOCATION, "list [LABEL|LINE]", "the program text, => at the next instruction, b at breakpoints", NULL},
	{"grid", NULL, cmd_grid, false, ARG_NONE, "grid [N]", "the ✓/• grid of Figure 3.4 for the last N steps (default 200)",
	 "A row per step, a column per thread: ✓ when the thread was active in the step, • when not.\n"
	 "The rows are replayed from the nearest checkpoint; Ctrl-C interrupts a long grid."},
	{"analyze", NULL, cmd_analyze, false, ARG_DOMAIN, "analyze [simple|affine|data-only] [DEGREE]",
	 "the divergence verdicts, and what this run saw at each branch",
	 "Runs the analysis (default affine of degree 2, as 'musimd analyze'; DEGREE from 0 to 64)\n"
	 "on the program's GSA form, then lists for each branch the run has visited how often it\n"
	 "diverged so far, and says so if a branch classified uniform diverged."},
	{"threads", NULL, cmd_threads, false, ARG_NONE, "threads N", "run with N threads (starts again; 0: the program's .threads)", NULL},
	{"warpsize", NULL, cmd_warpsize, false, ARG_NONE, "warpsize N", "warps of N threads (starts again; 0: the program's .warpsize)", NULL},
	{"model", NULL, cmd_model, false, ARG_MODEL, "model M", "the reconvergence model (starts again; its is its:rr)",
	 NULL /* the models' table: model_help */},
	{"param", NULL, cmd_param, false, ARG_PARAM, "param NAME=INT", "set a parameter (starts again)",
	 "Loading another program drops the parameters it does not declare."},
	{"data", NULL, cmd_data, false, ARG_NONE, "data ADDR=INT[,INT...]|clear", "initial shared memory from ADDR on (starts again)",
	 "The cells are set after the program's .data; settings accumulate until 'data clear'."},
	{"set", NULL, cmd_set, false, ARG_SETTING, "set [NAME VALUE]",
	 "options: trace, bz-polarity, strict-push, lane-order, seed, max-steps, max-memory, max-time, "
	 "aware-delay, aware-timeout",
	 "set trace on|off          next/continue/run print every step\n"
	 "set bz-polarity mnemonic|rules, set strict-push on|off   the papers' readings (starts again)\n"
	 "set lane-order ascending|descending|random, set seed N   the order of rule TL (starts again)\n"
	 "set max-steps N           the step limit (starts again)\n"
	 "set max-memory MiB        the memory limit: the state and the copies kept for 'back' (starts again)\n"
	 "set max-time SECONDS|off  run, continue, next, step and goto stop after this long; the state is\n"
	 "                          kept and 'continue' goes on (default off; Ctrl-C interrupts too)\n"
	 "set aware-delay BRANCH:POINT[,...]|off   model aware: delayed reconvergence points, each a\n"
	 "                          LABEL or @LINE; they add up until 'off' (starts again)\n"
	 "set aware-timeout T|any|off   model aware: a reconvergence gives up after T steps without an\n"
	 "                          arrival; any: when the schedule's W.K chooses it (starts again)\n"
	 "Without arguments: the current settings."},
	{"help", "h", cmd_help, false, ARG_COMMAND, "help [COMMAND]", "the commands, or one command in detail", NULL},
	{"quit", "q", cmd_quit, false, ARG_NONE, "quit", "leave (so does end of input)", NULL},
	{NULL, NULL, NULL, false, ARG_NONE, NULL, NULL, NULL},
};

/* Whether w is one of the blank-separated words of list. */
static bool in_list(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, " ");
		if (k == n && !strncmp(p, w, n))
			return true;
		p += k + (p[k] == ' ');
	}
	return false;
}

/* The command w names (find_cmd's rule in the comment on Cmd); NULL with
** *nmatch the number of commands w is a prefix of (0: none, ≥ 2: ambiguous). */
static const Cmd *find_cmd(const char *w, int *nmatch)
{
	const Cmd *hit = NULL;
	*nmatch = 0;
	for (const Cmd *c = cmds; c->name; c++)
		if (!strcmp(c->name, w) || in_list(c->abbrev, w)) {
			*nmatch = 1;
			return c;
		}
	for (const Cmd *c = cmds; c->name; c++)
		if (!strncmp(c->name, w, strlen(w))) {
			hit = c;
			++*nmatch;
		}
	return *nmatch == 1 ? hit : NULL;
}

/* The command w names, or NULL after a message (unknown, with a
** suggestion, or ambiguous with the candidates). */
static const Cmd *lookup_cmd(Repl *r, const char *w)
{
	int nm;
	const Cmd *c = find_cmd(w, &nm);
	if (c)
		return c;
	Buf b = {0};
	if (!nm) {
		Suggest g;
		suggest_init(&g, w, strlen(w));
		for (const Cmd *k = cmds; k->name; k++)
			suggest_add(&g, k->name);
		if (suggest_print(&g, &b, ""))
			buf_puts(&b, " ");
		fail(r, "unknown command '%s': %s'help' lists the commands", w, buf_str(&b));
	} else {
		for (const Cmd *k = cmds; k->name; k++)
			if (!strncmp(k->name, w, strlen(w)))
				buf_printf(&b, "%s%s", b.len ? ", " : "", k->name);
		fail(r, "ambiguous command '%s': %s", w, buf_str(&b));
	}
	buf_free(&b);
	return NULL;
}

/* "step [N] (s, st)": a command's usage and its abbreviations. */
static void put_usage(Buf *b, const Cmd *c)
{
	buf_puts(b, c->usage);
	if (!c->abbrev)
		return;
	buf_puts(b, " (");
	for (const char *p = c->abbrev; *p; p++)
		buf_puts(b, *p == ' ' ? ", " : (char[]){*p, 0});
	buf_putc(b, ')');
}

static bool cmd_help(Repl *r, char *args)
{
	char *w = word(&args);
	if (!w) {
		say(r, "Commands (a unique prefix is enough; an empty line repeats step, next, continue, back):\n");
		int32_t n = 0;
		for (const Cmd *c = cmds; c->name; c++)
			n++;
		const char **left = xmalloc((size_t)n * sizeof *left), **right = xmalloc((size_t)n * sizeof *right);
		Buf *u = xcalloc((size_t)n, sizeof *u);
		for (int32_t i = 0; i < n; i++) {
			put_usage(&u[i], &cmds[i]);
			left[i] = buf_str(&u[i]);
			right[i] = cmds[i].summary;
		}
		two_columns(&r->out, left, right, n, 2, 40);
		for (int32_t i = 0; i < n; i++)
			buf_free(&u[i]);
		free(u);
		free(left);
		free(right);
		say(r, "'help COMMAND' says more; man musimd-repl has it all.\n");
		return true;
	}
	const Cmd *c = lookup_cmd(r, w);
	if (!c)
		return false;
	put_usage(&r->out, c);
	say(r, "\n%s.\n", c->summary);
	if (c->help)
		say(r, "%s\n", c->help);
	if (c->fn == cmd_info)
		list_info_subs(r);
	if (c->fn == cmd_model)
		model_help(&r->out, 2, 79, true);
	return true;
}

/* Run one command line; returns whether it may be repeated by an empty line. */
static bool exec_line(Repl *r, char *line)
{
	char *rest = line;
	char *w = word(&rest);
	if (!w || w[0] == '#')
		return false;
	const Cmd *c = lookup_cmd(r, w);
	return c && c->fn(r, rest) && c->repeat;
}

/* ---- completion ------------------------------------------------------------------- */

#ifdef MUSIMD_HAVE_LIBEDIT
/* The words Tab offers for the argument of command c (for the first word of
** the line: c == NULL, the commands), pushed with add(ctx, word). */
static void completions(const Repl *r, const Cmd *c, void (*add)(void *ctx, const char *w), void *ctx)
{
	const Program *p = r->prog;
	if (!c) {
		for (const Cmd *k = cmds; k->name; k++)
			add(ctx, k->name);
		return;
	}
	switch (c->arg) {
	case ARG_COMMAND:
		for (const Cmd *k = cmds; k->name; k++)
			add(ctx, k->name);
		break;
	case ARG_INFO:
		for (const Sub *s = info_subs; s->name; s++)
			add(ctx, s->name);
		break;
	case ARG_MODEL:
	case ARG_DOMAIN:
	case ARG_SETTING: {
		const char *const *words = c->arg == ARG_MODEL ? model_names : c->arg == ARG_DOMAIN ? domains : setting_names;
		for (int i = 0; words[i]; i++)
			add(ctx, words[i]);
		for (int i = 0; c->arg == ARG_MODEL && its_policy_names[i]; i++)
			add(ctx, its_policy_names[i]); /* the policy lab's its:NAME */
		break;
	}
	case ARG_LOCATION:
		for (int32_t k = 0; p && k < p->nlabels; k++)
			if (p->labels[k].ins >= 0)
				add(ctx, p->labels[k].name);
		break;
	case ARG_PARAM:
		for (int32_t k = 0; p && k < p->nvars; k++)
			if (p->vars[k].is_param)
				add(ctx, p->vars[k].name);
		break;
	case ARG_VALUE:
	case ARG_WATCHED:
		for (int32_t k = 0; p && k < p->nvars; k++)
			add(ctx, p->vars[k].name);
		if (c->arg == ARG_VALUE)
			for (int sp = 0; sp < SPEC__COUNT; sp++)
				add(ctx, ir_special_name((Special)sp));
		add(ctx, "mem[");
		break;
	case ARG_FILE:
	case ARG_NONE:
		break;
	}
}

static Repl *completing; /* the session completion looks at (libedit passes no context) */

static const char **cands;
static int32_t ncands, capcands;

static void add_cand(void *ctx, const char *w)
{
	(void)ctx;
	VEC_PUSH(cands, ncands, capcands, w);
}

static char *cand_gen(const char *text, int state)
{
	static int32_t i;
	if (state == 0)
		i = 0;
	size_t len = strlen(text);
	while (i < ncands) {
		const char *w = cands[i++];
		if (!strncmp(w, text, len))
			return strdup(w); /* libedit frees it with free() */
	}
	return NULL;
}

static char **complete(const char *text, int start, int end)
{
	(void)end;
	/* the first word of the line, when text is not it */
	int i = 0;
	while (rl_line_buffer[i] == ' ')
		i++;
	char first[32];
	int j = 0;
	while (rl_line_buffer[i] && rl_line_buffer[i] != ' ' && j < 31 && i < start)
		first[j++] = rl_line_buffer[i++];
	first[j] = 0;
	bool at_first = true;
	for (int k = 0; k < start; k++)
		if (rl_line_buffer[k] != ' ')
			at_first = false;
	/* only the first argument is completed */
	while (rl_line_buffer[i] == ' ')
		i++;
	bool second = !at_first && i == start;
	int nm;
	const Cmd *c = at_first ? NULL : find_cmd(first, &nm);
	rl_attempted_completion_over = 1;
	if (c && c->arg == ARG_FILE && second) {
		rl_attempted_completion_over = 0; /* libedit's file names */
		return NULL;
	}
	ncands = 0;
	if (at_first || (c && second))
		completions(completing, c, add_cand, NULL);
	return ncands ? rl_completion_matches(text, cand_gen) : NULL;
}
#endif

/* ---- reading lines ---------------------------------------------------------------- */

#ifdef MUSIMD_HAVE_LIBEDIT
/* libedit reads the terminal through this: a Ctrl-C (SIGINT, our handler)
** ends the line being edited, so the prompt starts afresh as in gdb. */
static int getc_interruptible(FILE *f)
{
	(void)f;
	unsigned char c;
	for (;;) {
		if (interrupted) /* Ctrl-C came before the read began */
			return EOF;
		ssize_t n = read(STDIN_FILENO, &c, 1);
		if (n == 1)
			return c;
		if (n < 0 && errno == EINTR) {
			if (interrupted)
				return EOF;
			continue;
		}
		return EOF;
	}
}
#endif

/* The next line without its newline (owned), or NULL at the end of input. */
static char *read_line(Repl *r)
{
#ifdef MUSIMD_HAVE_LIBEDIT
	if (r->interactive) {
		for (;;) {
			interrupted = 0;
			char *l = readline(PROMPT);
			if (l || !interrupted)
				return l;
			putchar('\n'); /* Ctrl-C at the prompt: a fresh line */
		}
	}
#endif
	if (r->interactive) {
		fputs(PROMPT, stdout);
		fflush(stdout);
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) < 0 && errno == EINTR && interrupted) {
		/* Ctrl-C at a plain prompt (a build without libedit): a fresh one */
		interrupted = 0;
		clearerr(stdin);
		fputs("\n" PROMPT, stdout);
		fflush(stdout);
	}
	if (n < 0) {
		free(line);
		return NULL;
	}
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = 0;
	return line;
}

/* ---- musimd repl ------------------------------------------------------------------ */

static const char repl_usage[] =
	"Usage: musimd repl [options] [FILE]\n"
	"Step a μ-SIMD program one rule at a time, gdb style: step, next, continue, back,\n"
	"break, watch, print, info stack|threads|warps|rules, grid, analyze, help, quit.\n"
	"Reads commands from stdin; on a terminal with line editing, history and tab\n"
	"completion, otherwise line by line with no prompt, so sessions can be scripted:\n"
	"  printf 'break l6\\nrun\\ninfo stack\\n' | musimd repl examples/sum_triangle.simd\n"
	"FILE '-' is read from standard input; the commands then come from the terminal.\n"
	"\n"
	"Options (the REPL commands of the same names change them later):\n"
	"  --threads N, --warpsize N    override .threads / .warpsize\n"
	"  --model M                    reconvergence model: sync (default), ipdom, mimd,\n"
	"                               its (its:rr), its:any, aware\n"
	"  --aware-delay BRANCH:POINT[,...], --aware-timeout T|any\n"
	"                               model aware: delayed reconvergence points, timeout\n"
	"  --param NAME=INT             parameter value (repeatable)\n"
	"  --data ADDR=INT[,INT...]     shared memory from ADDR on (repeatable)\n"
	"  --max-steps N                step limit (default 10^7)\n"
	"  --max-memory MiB             memory limit of the state and the copies kept for\n"
	"                               going back (default 2048)\n"
	"  --max-time SECONDS           each stepping command (run, continue, next, step,\n"
	"                               goto) stops after this long (default: no limit)\n"
	"  --schedule W,W,.../W,...     follow a schedule (musimd explore's counterexamples)\n"
	"  --echo                       print each command after the prompt (for transcripts)\n"
	"  -q, --quiet                  no greeting on a terminal\n"
	"\n"
	"Everything the REPL says goes to stdout, errors in commands included ('error: ...').\n"
	"Exit status: 0; 1 if a command failed while reading a script (stdin not a\n"
	"terminal); 2 usage error; 3 FILE unreadable or invalid in a script.\n"
	"See musimd-repl(1).\n";

/* ---- sessions as values ----------------------------------------------------------- */

Repl *repl_new(const ReplLimits *lim)
{
	Repl *r = xcalloc(1, sizeof *r);
	if (lim) {
		r->lim = *lim;
		r->opt.max_steps = lim->max_steps;
		r->opt.max_memory = lim->max_memory;
	}
	return r;
}

void repl_free(Repl *r)
{
	if (!r)
		return;
	dbg_free(r->dbg);
	if (r->prog)
		ir_free(r->prog);
	free(r->path);
	args_free(&r->sa);
	free(r->sched);
	for (int32_t i = 0; i < r->nspecs; i++)
		free(r->specs[i].text);
	free(r->specs);
	free(r->last);
	buf_free(&r->out);
	free(r);
}

bool repl_load_source(Repl *r, const char *name, const char *src, size_t len)
{
	Program *p = parse_source(r, name, src, len);
	return p && install(r, p, name, true);
}

bool repl_exec(Repl *r, const char *line)
{
	if (r->quit)
		return false;
	while (*line == ' ' || *line == '\t')
		line++;
	char *s = xstrdup(line);
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
	if (r->echo)
		say(r, PROMPT "%s\n", s);
	if (*s == '#') { /* a comment: nothing runs, the repeat stays */
		free(s);
		return true;
	}
	/* an empty line repeats the last repeatable command */
	bool fresh = *s != 0;
	char *cmd = fresh ? s : r->last ? xstrdup(r->last) : NULL;
	if (!fresh)
		free(s);
	if (cmd) {
		char *copy = xstrdup(cmd); /* exec_line cuts it into words */
		bool repeat = exec_line(r, copy);
		free(copy);
		if (fresh) { /* a new command replaces the one an empty line repeats */
			free(r->last);
			r->last = repeat ? cmd : NULL;
			if (!repeat)
				free(cmd);
		} else {
			free(cmd);
		}
	}
	return !r->quit;
}

void repl_take_output(Repl *r, Buf *out)
{
	buf_putn(out, buf_str(&r->out), r->out.len);
	buf_reset(&r->out);
}

/* ---- musimd repl ------------------------------------------------------------------ */

/* A command-line option as the REPL command it stands for. */
static bool option_command(Repl *r, const char *cmd, const char *arg)
{
	char *line = xmalloc(strlen(cmd) + strlen(arg) + 2);
	sprintf(line, "%s %s", cmd, arg);
	exec_line(r, line);
	free(line);
	return !r->failed;
}

static int usage(Repl *r, const char *fmt, ...) MU_PRINTF(2, 3);
static int usage(Repl *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("musimd repl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\nTry 'musimd repl --help'.\n", stderr);
	va_end(ap);
	repl_free(r);
	return EXIT_USAGE;
}

/* The program of `musimd repl FILE`, parsed; NULL with *status set. The
** parameters given by --param must be the program's (a usage error). */
static Program *startup_program(Repl *r, const char *file, int *status)
{
	const char *name = file_display_name(file);
	size_t len = 0;
	char *src = read_file(file, &len);
	if (!src) {
		fail(r, "%s: cannot read the file: %s", name, read_file_error(errno));
		*status = EXIT_INPUT;
		return NULL;
	}
	Program *p = parse_source(r, name, src, len);
	free(src);
	if (!p) {
		*status = EXIT_INPUT;
		return NULL;
	}
	if (r->sa.aware_delay) { /* the places must be the program's */
		Diags d;
		diag_init(&d, p->path, p->src, p->srclen);
		int32_t *rpc = xmalloc(((size_t)p->nins + 1) * sizeof *rpc);
		bool ok = aware_resolve_delays(p, r->sa.aware_delay, rpc, &d);
		free(rpc);
		if (!ok) {
			Buf b = {0};
			diag_render_options(&d, "musimd repl", &b);
			fprintf(stderr, "%sTry 'musimd repl --help'.\n", buf_str(&b));
			buf_free(&b);
			diag_free(&d);
			ir_free(p);
			*status = EXIT_USAGE;
			return NULL;
		}
		diag_free(&d);
	}
	for (int32_t i = 0; i < r->sa.nparams; i++) {
		Buf b = {0};
		if (!is_param(p, r->sa.params[i].name, &b)) {
			fprintf(stderr, "musimd repl: --param %s: %s\nTry 'musimd repl --help'.\n", r->sa.params[i].name,
			        buf_str(&b));
			buf_free(&b);
			ir_free(p);
			*status = EXIT_USAGE;
			return NULL;
		}
	}
	return p;
}

/* After `musimd repl -` read the program from standard input, the commands
** come from the terminal, if there is one. */
static void commands_from_terminal(void)
{
	if (isatty(STDIN_FILENO))
		return;
	int fd = open("/dev/tty", O_RDONLY);
	if (fd < 0)
		return; /* no terminal: standard input is at its end, the session ends */
	dup2(fd, STDIN_FILENO);
	close(fd);
	clearerr(stdin);
}

int repl_main(int argc, char **argv)
{
	Repl *r = repl_new(NULL);
	r->to_stdout = true;
	const char *file = NULL;
	bool quiet = false;
	int status = EXIT_OK;
	static const char *const with_arg[][2] = {
		{"--threads", "threads"}, {"--warpsize", "warpsize"}, {"--model", "model"},
		{"--param", "param"},     {"--data", "data"},         {"--max-steps", "set max-steps"},
		{"--max-memory", "set max-memory"}, {"--max-time", "set max-time"}, {"--schedule", "schedule"},
		{"--aware-delay", "set aware-delay"}, {"--aware-timeout", "set aware-timeout"},
	};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool known = false;
		for (size_t k = 0; k < sizeof with_arg / sizeof *with_arg && !known; k++) {
			size_t n = strlen(with_arg[k][0]);
			if (strncmp(a, with_arg[k][0], n) || (a[n] && a[n] != '='))
				continue;
			known = true;
			const char *v = a[n] == '=' ? a + n + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!v)
				return usage(r, "%s needs a value", a);
			if (!option_command(r, with_arg[k][1], v)) {
				const char *msg = buf_str(&r->out);
				if (!strncmp(msg, "error: ", 7))
					msg += 7;
				size_t len = strlen(msg);
				return usage(r, "%s %s: %.*s", with_arg[k][0], v, (int)(len && msg[len - 1] == '\n' ? len - 1 : len),
				             msg);
			}
		}
		if (known)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(repl_usage, stdout);
			repl_free(r);
			return EXIT_OK;
		} else if (!strcmp(a, "--echo")) {
			r->echo = true;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = true;
		} else if (a[0] == '-' && a[1]) {
			Suggest g;
			size_t n = strcspn(a, "=");
			suggest_init(&g, a, n);
			for (size_t k = 0; k < sizeof with_arg / sizeof *with_arg; k++)
				suggest_add(&g, with_arg[k][0]);
			static const char *const flags[] = {"--echo", "--quiet", "--help"};
			for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
				suggest_add(&g, flags[k]);
			Buf b = {0};
			if (g.n)
				buf_puts(&b, "; ");
			suggest_print(&g, &b, "");
			fprintf(stderr, "musimd repl: unknown option '%s'%s\nTry 'musimd repl --help'.\n", a, buf_str(&b));
			buf_free(&b);
			repl_free(r);
			return EXIT_USAGE;
		} else if (file) {
			return usage(r, "takes one FILE");
		} else {
			file = a;
		}
	}
	buf_reset(&r->out);
	Program *p = NULL;
	if (file) {
		p = startup_program(r, file, &status);
		if (!p && status == EXIT_USAGE) {
			repl_free(r);
			return status;
		}
		if (!strcmp(file, "-"))
			commands_from_terminal();
	}
	r->interactive = isatty(STDIN_FILENO);
	if (r->interactive) {
		/* Ctrl-C interrupts a command or the line being edited; a script
		** (stdin not a terminal) keeps the default: Ctrl-C ends it */
		struct sigaction sa = {0};
		sa.sa_handler = on_sigint;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
	}
#ifdef MUSIMD_HAVE_LIBEDIT
	completing = r;
	if (r->interactive) {
		rl_readline_name = "musimd";
		rl_catch_signals = 0; /* our SIGINT handler, and getc_interruptible */
		rl_getc_function = getc_interruptible;
		rl_attempted_completion_function = complete;
		stifle_history(1000);
	}
#endif
	if (r->interactive && !quiet) {
		Buf greet = {0};
		buf_printf(&greet, "musimd repl %s: 'help' lists the commands, 'quit' leaves.\n", MUSIMD_VERSION);
		fputs(buf_str(&greet), stdout);
		buf_free(&greet);
	}
	if (file) {
		if (r->echo)
			fprintf(stdout, PROMPT "load %s\n", file);
		if (!p || !install(r, p, file_display_name(file), !strcmp(file, "-"))) {
			if (!r->interactive) {
				flush(r);
				repl_free(r);
				return EXIT_INPUT;
			}
		}
	}
	flush(r);
	while (!r->quit) {
		char *line = read_line(r);
		if (!line) {
			if (r->interactive)
				putchar('\n');
			break;
		}
#ifdef MUSIMD_HAVE_LIBEDIT
		if (r->interactive && line[strspn(line, " \t")])
			add_history(line + strspn(line, " \t"));
#endif
		repl_exec(r, line);
		free(line);
		flush(r);
	}
	flush(r);
	if (r->failed && !r->interactive)
		status = EXIT_FAILED;
	repl_free(r);
	return status;
}
