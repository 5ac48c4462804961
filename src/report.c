/*
** report.c — formatting runs (report.h).
*/
#include "report.h"

#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A list of thread ids, ascending, as sem_print_set writes sets: runs of
** five or more consecutive ids as "a..b", so that 65536 threads take a
** few characters. */
static void print_threads(Buf *b, const int32_t *t, int32_t n)
{
	buf_putc(b, '{');
	for (int32_t i = 0; i < n;) {
		int32_t j = i;
		while (j + 1 < n && t[j + 1] == t[j] + 1)
			j++;
		if (i)
			buf_putc(b, ',');
		if (j - i >= 4) {
			buf_printf(b, "%d..%d", t[i], t[j]);
			i = j + 1;
		} else {
			buf_printf(b, "%d", t[i]);
			i++;
		}
	}
	buf_putc(b, '}');
}

static const char *where(Buf *tmp, const Program *p, int32_t pc)
{
	buf_reset(tmp);
	if (pc < 0)
		buf_puts(tmp, "exit");
	else
		ir_print_where(tmp, p, pc);
	return buf_str(tmp);
}

/* ---- columns ------------------------------------------------------------------ */

static int32_t digits(uint64_t v)
{
	int32_t n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static int32_t max32(int32_t a, int32_t b)
{
	return a > b ? a : b;
}

/* Pad the current line to col, with at least gap spaces: a cell wider
** than its column pushes the rest of its line, never into it. */
static void pad_gap(Buf *b, size_t col, size_t gap)
{
	size_t start = b->len;
	while (start > 0 && b->s[start - 1] != '\n')
		start--;
	size_t w = utf8_width(b->s + start, b->len - start);
	for (size_t k = 0; k < gap || w + k < col; k++)
		buf_putc(b, ' ');
}

/* Instructions wider than this push their line instead of widening the
** columns of all the others (a GSA matrix row can be very long). */
#define REPORT_INS_MAX 48

void report_cols(ReportCols *c, const Machine *m, uint64_t last)
{
	const Program *p = m->prog;
	c->prefix = 0;
	c->step = max32(5, digits(last));
	c->warp = m->nwarps > 1 ? digits((uint64_t)(m->nwarps - 1)) : 0;
	c->where = 2;
	c->ins = c->where_ins = 0;
	Buf tmp = {0};
	for (int32_t pc = 0; pc < p->nins; pc++) {
		buf_reset(&tmp);
		ir_print_where(&tmp, p, pc); /* a label, or "@LINE" */
		int32_t w = (int32_t)utf8_width(tmp.s, tmp.len);
		c->where = max32(c->where, w);
		buf_reset(&tmp);
		ir_print_ins(&tmp, p, &p->ins[pc]);
		int32_t i = (int32_t)utf8_width(tmp.s, tmp.len);
		if (i > REPORT_INS_MAX)
			i = REPORT_INS_MAX;
		c->ins = max32(c->ins, i);
		c->where_ins = max32(c->where_ins, w + 2 + i);
	}
	buf_free(&tmp);
}

/* ---- trace --------------------------------------------------------------------- */

/* "   15  [w1  ]l6: bz p, l15          BD   " */
static void step_head(Buf *b, Buf *tmp, const ReportCols *c, const Machine *m, const StepInfo *s)
{
	const Program *p = m->prog;
	buf_printf(b, "%*llu", (int)c->step, (unsigned long long)s->step);
	if (c->warp)
		buf_printf(b, "  w%-*d", (int)c->warp, s->warp);
	buf_puts(b, "  ");
	buf_puts(b, where(tmp, p, s->pc));
	buf_puts(b, ": ");
	buf_reset(tmp);
	ir_print_ins(tmp, p, &p->ins[s->pc]);
	buf_puts(b, buf_str(tmp));
	/* rule column: after the widest "where: instruction" (at least 29
	** columns, which the papers' examples fit in) */
	int32_t head = c->prefix + c->step + 2 + (c->warp ? 3 + c->warp : 0);
	pad_gap(b, (size_t)(head + max32(c->where_ins + 1, 29)), 1);
	buf_printf(b, "%-3s  ", sem_rule_name(s->rule));
}

/* After a store or an atomic whose lanes ran in another order than the
** lane order (explore --atomic-order any, a schedule's alternative):
** "  lanes 1,0 (order 1 of 2)". */
static void lane_order_note(Buf *b, const StepInfo *s)
{
	if (s->order <= 0)
		return;
	buf_puts(b, "  lanes ");
	for (int32_t k = 0; k < s->nactive; k++)
		buf_printf(b, k ? ",%d" : "%d", s->lanes[k]);
	buf_printf(b, " (order %d of %d)", s->order, s->norders);
}

void report_step_line(Buf *b, const ReportCols *c, const Machine *m, const StepInfo *s)
{
	const Program *p = m->prog;
	Buf tmp = {0};
	step_head(b, &tmp, c, m, s);
	const Warp *w = &m->warps[s->warp];
	size_t nw = (size_t)w->nw;
	if (w->status == WARP_DONE) {
		buf_puts(b, "warp done\n");
		buf_free(&tmp);
		return;
	}
	buf_puts(b, "active ");
	sem_print_set(b, m, s->warp, w->active);
	if (m->model->pending) {
		/* who else the model holds back: the other side of a branch, and
		** lanes waiting at a reconvergence point */
		uint64_t *deferred = xcalloc(2 * nw, sizeof *deferred), *waiting = deferred + nw;
		int32_t resume_pc = -1, wait_pc = -1;
		m->model->pending(w, deferred, &resume_pc, waiting, &wait_pc);
		if (!bits_empty(deferred, w->nw)) {
			buf_puts(b, "  deferred ");
			sem_print_set(b, m, s->warp, deferred);
			buf_printf(b, " → %s", where(&tmp, p, resume_pc));
		}
		if (!bits_empty(waiting, w->nw)) {
			buf_puts(b, "  waiting ");
			sem_print_set(b, m, s->warp, waiting);
			buf_printf(b, " at %s", where(&tmp, p, wait_pc));
		}
		free(deferred);
	}
	if (w->status == WARP_BARRIER)
		buf_puts(b, "  (waits at the barrier)");
	lane_order_note(b, s);
	buf_putc(b, '\n');
	buf_free(&tmp);
}

static void trace_ret_stacks(Buf *b, const Machine *m, const StepInfo *s);

void report_trace_line(Buf *b, const ReportCols *c, const Machine *m, const StepInfo *s)
{
	const Program *p = m->prog;
	Buf tmp = {0};
	step_head(b, &tmp, c, m, s);
	buf_puts(b, "Θ ");
	sem_print_set(b, m, s->warp, s->active);
	buf_puts(b, "  Π ");
	sem_print_stack(b, m, s->warp);
	const Warp *w = &m->warps[s->warp];
	if (w->status == WARP_RUN) {
		buf_puts(b, "  → ");
		buf_puts(b, where(&tmp, p, w->pc));
	} else if (w->status == WARP_DONE) {
		buf_puts(b, "  (warp done)");
	} else {
		buf_puts(b, "  (waits at the barrier)");
	}
	trace_ret_stacks(b, m, s);
	lane_order_note(b, s);
	buf_putc(b, '\n');
	buf_free(&tmp);
}

static void json_set(Json *j, const Machine *m, int32_t wi, const uint64_t *set)
{
	const Warp *w = &m->warps[wi];
	json_ranges(j, set, w->size, w->base);
}

static void json_where(Json *j, Buf *tmp, const Program *p, int32_t pc)
{
	if (pc < 0) {
		json_null(j); /* the virtual exit */
		return;
	}
	buf_reset(tmp);
	ir_print_where(tmp, p, pc);
	json_str(j, buf_str(tmp));
}

/* "stack": warp wi's stack, top first, at most SEM_STACK_SHOWN nodes, as
** sem_print_stack (a full stack per trace step would be quadratic when Π
** grows in a loop); then "stack_depth" when the stack was cut. A model of
** several tables (aware, at most a record per lane and table) gives every
** record, as stored, each with its "table". */
static void json_stack(Json *j, Buf *tmp, const Machine *m, int32_t wi)
{
	const Warp *w = &m->warps[wi];
	const Program *p = m->prog;
	json_key(j, "stack");
	json_arr(j);
	const Model *md = m->model;
	/* a stack top first; tables (bounded by the lanes) in full, as stored */
	bool tables = md->ntables > 0;
	for (int32_t i = 0; i < w->ctl.n && (tables || i < SEM_STACK_SHOWN); i++) {
		int32_t k = tables ? i : w->ctl.n - 1 - i;
		CtlView v;
		md->view(w, k, &v);
		json_obj(j);
		const CtlField *fields = md->fields;
		int32_t nfields = md->nfields;
		if (tables) { /* a record of one of the tables */
			const CtlTable *tab = &md->tables[md->table_of(w, k)];
			json_key(j, "table");
			json_str(j, tab->key);
			fields = tab->fields;
			nfields = tab->nfields;
		}
		for (int32_t f = 0; f < nfields; f++) {
			json_key_plain(j, fields[f].key, strlen(fields[f].key));
			if (fields[f].is_set)
				json_set(j, m, wi, v.set[f]);
			else if (fields[f].is_num && v.pc[f] < 0)
				json_null(j);
			else if (fields[f].is_num)
				json_int(j, v.pc[f]);
			else
				json_where(j, tmp, p, v.pc[f]);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	int32_t depth = sem_stack_depth(m, wi);
	if (depth > SEM_STACK_SHOWN && !tables) {
		json_key(j, "stack_depth");
		json_int(j, depth);
	}
}

/* ---- return stacks after a call or a return ------------------------------------ */

/* Did the step change return stacks (rules CL, RT, RS)? */
static bool ret_changed(const StepInfo *s)
{
	return s->rule == RULE_CL || s->rule == RULE_RT || s->rule == RULE_RS;
}

static bool same_ret_stack(const Machine *m, int32_t t, int32_t u)
{
	int32_t d = sem_ret_depth(m, t);
	if (d != sem_ret_depth(m, u))
		return false;
	for (int32_t k = 0; k < d; k++)
		if (sem_ret_pc(m, t, k) != sem_ret_pc(m, u, k))
			return false;
	return true;
}

/* The next group of the lanes in rest (warp wi) whose return stacks are
** equal, moved from rest to group; false when rest is empty. */
static bool ret_group(const Machine *m, int32_t wi, uint64_t *rest, uint64_t *group)
{
	const Warp *w = &m->warps[wi];
	int32_t first = -1;
	bits_clear(group, w->nw);
	BitIter it = bits_iter(rest, w->nw);
	for (int32_t l; (l = bits_iter_next(&it)) >= 0;) {
		if (first < 0)
			first = l;
		if (same_ret_stack(m, w->base + first, w->base + l))
			bit_set(group, l);
	}
	bits_andnot(rest, group, w->nw);
	return first >= 0;
}

/* "  R {0} [@16], {1} [@20]": after a call or a return, the return stacks
** (bottom first) of the threads that took it, threads with equal stacks
** together. */
static void trace_ret_stacks(Buf *b, const Machine *m, const StepInfo *s)
{
	if (!ret_changed(s) || s->nactive == 0)
		return;
	const Warp *w = &m->warps[s->warp];
	uint64_t *rest = xcalloc(2 * (size_t)w->nw, sizeof *rest), *group = rest + w->nw;
	bits_copy(rest, s->active, w->nw);
	buf_puts(b, "  R ");
	for (bool first = true; ret_group(m, s->warp, rest, group); first = false) {
		if (!first)
			buf_puts(b, ", ");
		sem_print_set(b, m, s->warp, group);
		buf_putc(b, ' ');
		sem_print_ret_stack(b, m, w->base + bits_next(group, w->size, 0, true));
	}
	free(rest);
}

/* "return_stacks": [{"threads": [...], "stack": ["@16"]}, ...], as
** trace_ret_stacks. */
static void json_ret_stacks(Json *j, Buf *tmp, const Machine *m, const StepInfo *s)
{
	if (!ret_changed(s) || s->nactive == 0)
		return;
	const Warp *w = &m->warps[s->warp];
	uint64_t *rest = xcalloc(2 * (size_t)w->nw, sizeof *rest), *group = rest + w->nw;
	bits_copy(rest, s->active, w->nw);
	json_key(j, "return_stacks");
	json_arr(j);
	while (ret_group(m, s->warp, rest, group)) {
		int32_t t = w->base + bits_next(group, w->size, 0, true);
		json_obj(j);
		json_key(j, "threads");
		json_set(j, m, s->warp, group);
		json_key(j, "stack");
		json_arr(j);
		for (int32_t k = 0; k < sem_ret_depth(m, t); k++)
			json_where(j, tmp, m->prog, sem_ret_pc(m, t, k));
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	free(rest);
}

void report_json_trace_begin(Json *j)
{
	json_obj(j);
	json_key(j, "trace");
	json_arr(j);
}

void report_trace_json(Json *j, const Machine *m, const StepInfo *s)
{
	report_trace_json_at(j, m, s, -1, -1);
}

void report_trace_json_at(Json *j, const Machine *m, const StepInfo *s, int64_t cycle, int32_t sched)
{
	const Program *p = m->prog;
	/* one step per line, inside the "trace" array of the result object */
	buf_puts(j->b, j->need_comma[j->depth] ? ",\n    " : "\n    ");
	j->need_comma[j->depth] = true;
	Json o;
	json_init(&o, j->b);
	o.depth = 2; /* nested: keep it on one line */
	o.need_comma[2] = false;
	buf_putc(o.b, '{');
	if (cycle >= 0) {
		json_key(&o, "cycle");
		json_int(&o, cycle);
		json_key(&o, "scheduler");
		json_int(&o, sched);
	}
	json_key(&o, "step");
	json_int(&o, (int64_t)s->step);
	json_key(&o, "warp");
	json_int(&o, s->warp);
	json_key(&o, "label");
	json_str(&o, ir_label_of(p, s->pc));
	json_key(&o, "pc");
	json_int(&o, s->pc);
	json_key(&o, "line");
	json_int(&o, p->ins[s->pc].loc.line);
	json_key(&o, "rule");
	json_str(&o, sem_rule_name(s->rule));
	json_key(&o, "active");
	json_set(&o, m, s->warp, s->active);
	Buf tmp = {0};
	json_stack(&o, &tmp, m, s->warp);
	json_ret_stacks(&o, &tmp, m, s);
	buf_free(&tmp);
	if (s->order > 0) { /* the lanes ran in another order than the lane order */
		json_key(&o, "lane_order");
		json_arr(&o);
		for (int32_t k = 0; k < s->nactive; k++)
			json_int(&o, s->lanes[k]);
		json_arr_end(&o);
	}
	buf_putc(o.b, '}');
}

/* ---- grid ------------------------------------------------------------------------- */

static int grid_col(const Machine *m)
{
	int w = 2;
	char tmp[32];
	int n = snprintf(tmp, sizeof tmp, "t%d", m->nthreads - 1);
	return n + 1 > w ? n + 1 : w;
}

/* Where the instruction and the thread columns of the grid start. */
static size_t grid_ins_col(const ReportCols *c)
{
	return (size_t)(c->step + 2 + max32(c->where + 2, 8));
}

static size_t grid_threads_col(const ReportCols *c)
{
	return grid_ins_col(c) + (size_t)max32(c->ins + 2, 29);
}

void report_grid_header(Buf *b, const ReportCols *c, const Machine *m)
{
	buf_printf(b, "%*s  where", (int)c->step, "step");
	pad_gap(b, grid_ins_col(c), 2);
	buf_puts(b, "instruction");
	pad_gap(b, grid_threads_col(c), 1);
	int cw = grid_col(m);
	for (int32_t t = 0; t < m->nthreads; t++) {
		char tmp[32];
		snprintf(tmp, sizeof tmp, "t%d", t);
		for (int k = (int)strlen(tmp); k < cw; k++)
			buf_putc(b, ' ');
		buf_puts(b, tmp);
	}
	buf_puts(b, "  rule\n");
}

void report_grid_row(Buf *b, const ReportCols *c, const Machine *m, const StepInfo *s)
{
	const Program *p = m->prog;
	const Warp *w = &m->warps[s->warp];
	Buf tmp = {0};
	buf_printf(b, "%*llu  ", (int)c->step, (unsigned long long)s->step);
	buf_puts(b, where(&tmp, p, s->pc));
	pad_gap(b, grid_ins_col(c), 2);
	buf_reset(&tmp);
	ir_print_ins(&tmp, p, &p->ins[s->pc]);
	buf_puts(b, buf_str(&tmp));
	pad_gap(b, grid_threads_col(c), 1);
	int cw = grid_col(m);
	for (int32_t t = 0; t < m->nthreads; t++) {
		int32_t l = t - w->base;
		bool on = l >= 0 && l < w->size && bit_get(s->active, l);
		for (int k = 1; k < cw; k++)
			buf_putc(b, ' ');
		buf_puts(b, on ? "✓" : "•");
	}
	buf_printf(b, "  %s\n", sem_rule_name(s->rule));
	buf_free(&tmp);
}

/* ---- final state ------------------------------------------------------------------- */

typedef struct CellRun {
	Buf *b;
	const char *name; /* "Σ" or "local" */
	int64_t start, last; /* the run's first and last address (last + 1 can overflow) */
	Buf vals;
	bool open;
	int64_t rows, max_rows, cells_left_out;
} CellRun;

static void run_flush(CellRun *r)
{
	if (!r->open)
		return;
	if (r->max_rows && r->rows >= r->max_rows) {
		r->cells_left_out += r->last - r->start + 1; /* at most 16 */
		buf_reset(&r->vals);
		r->open = false;
		return;
	}
	r->rows++;
	if (r->last == r->start)
		buf_printf(r->b, "  %s[%lld] = %s\n", r->name, (long long)r->start, buf_str(&r->vals));
	else
		buf_printf(r->b, "  %s[%lld..%lld] = %s\n", r->name, (long long)r->start,
		           (long long)r->last, buf_str(&r->vals));
	buf_reset(&r->vals);
	r->open = false;
}

static void run_cell(void *ctx, int64_t addr, Num v)
{
	CellRun *r = ctx;
	/* rows of consecutive cells, broken at multiples of 16 like a hex dump */
	if (r->open && (r->last == INT64_MAX || addr != r->last + 1 || addr % 16 == 0))
		run_flush(r);
	if (!r->open) {
		r->open = true;
		r->start = addr;
	} else {
		buf_putc(&r->vals, ' ');
	}
	num_buf(&r->vals, v);
	r->last = addr;
}

static void print_cells(Buf *b, const Mem *mem, const char *name, bool all)
{
	CellRun r = {b, name, 0, 0, {0}, false, 0, all ? 0 : REPORT_TEXT_LIMIT, 0};
	mem_each(mem, run_cell, &r);
	run_flush(&r);
	buf_free(&r.vals);
	if (r.cells_left_out)
		buf_printf(b, "  ... %lld more cells of %s (--all shows them)\n", (long long)r.cells_left_out, name);
}

/* Variables a thread assigned, in declaration order (not parameters). */
static bool var_listed(const Machine *m, int32_t v)
{
	return !m->prog->vars[v].is_param && m->ndef[v] > 0;
}

static void print_profile(Buf *b, const Machine *m)
{
	const Program *p = m->prog;
	const Cfg *g = m->cfg;
	Buf tmp = {0};
	/* columns as wide as their widest entry */
	int32_t ww = 6, lw = 4, vw = 6, dw = 11;
	for (int32_t pc = 0; pc < p->nins; pc++)
		if (ir_is_branch(p->ins[pc].op)) {
			ww = max32(ww, (int32_t)strlen(where(&tmp, p, pc)));
			lw = max32(lw, digits((uint64_t)p->ins[pc].loc.line));
			vw = max32(vw, digits(m->visits[pc]));
			dw = max32(dw, digits(m->divergences[pc]));
		}
	buf_puts(b, "divergence profile (seed 003 ch. 4: per conditional branch):\n");
	buf_printf(b, "  %-*s  %*s  %*s  %*s\n", (int)ww, "branch", (int)lw, "line", (int)vw, "visits",
	           (int)dw, "divergences");
	bool any = false;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		if (!ir_is_branch(p->ins[pc].op))
			continue;
		any = true;
		buf_printf(b, "  %-*s  %*d  %*llu  %*llu\n", (int)ww, where(&tmp, p, pc), (int)lw,
		           p->ins[pc].loc.line, (int)vw, (unsigned long long)m->visits[pc], (int)dw,
		           (unsigned long long)m->divergences[pc]);
	}
	if (!any)
		buf_puts(b, "  (no conditional branches)\n");
	buf_puts(b, "block executions (by a warp):\n");
	int32_t bw = max32(4, 1 + digits((uint64_t)(g->nblocks ? g->nblocks - 1 : 0)));
	uint64_t total = 0;
	ww = 3;
	for (int32_t blk = 0; blk < g->nblocks; blk++) {
		total += m->block_execs[blk];
		ww = max32(ww, (int32_t)strlen(where(&tmp, p, g->blocks[blk].first)));
	}
	for (int32_t blk = 0; blk < g->nblocks; blk++) {
		char id[16];
		snprintf(id, sizeof id, "B%d", (int)blk);
		buf_printf(b, "  %-*s  %-*s  %llu\n", (int)bw, id, (int)ww, where(&tmp, p, g->blocks[blk].first),
		           (unsigned long long)m->block_execs[blk]);
	}
	buf_printf(b, "  %-*s  %llu\n", (int)(bw + 2 + ww), "total", (unsigned long long)total);
	buf_free(&tmp);
}

static double efficiency(const Machine *m)
{
	double width = m->model->warps_of_one ? 1.0 : (double)m->warpsize;
	return m->steps ? (double)m->thread_instructions / ((double)m->steps * width) : 0.0;
}

void report_measures(Buf *b, const Machine *m)
{
	buf_printf(b, "%llu steps, %llu thread instructions, SIMD efficiency %.3f, max stack depth %d, "
	              "%d race%s\n",
	           (unsigned long long)m->steps, (unsigned long long)m->thread_instructions,
	           efficiency(m), m->max_depth, m->nraces, m->nraces == 1 ? "" : "s");
}

void report_rule_counts(Buf *b, const Machine *m)
{
	buf_puts(b, "rules:");
	for (int r = 0; r < RULE__COUNT; r++)
		if (m->rule_count[r])
			buf_printf(b, " %s %llu", sem_rule_name((Rule)r), (unsigned long long)m->rule_count[r]);
	if (m->steps == 0)
		buf_puts(b, " none");
	buf_putc(b, '\n');
}

void report_shape(Buf *b, const Machine *m)
{
	buf_printf(b, "%d thread%s", m->nthreads, m->nthreads == 1 ? "" : "s");
	int32_t nw = (m->nthreads + m->warpsize - 1) / m->warpsize;
	if (m->model->warps_of_one)
		buf_printf(b, ", each its own warp");
	else
		buf_printf(b, " in %d warp%s of %d", nw, nw == 1 ? "" : "s", m->warpsize);
}

void report_run_text(Buf *b, const Machine *m, bool profile, bool state, bool all)
{
	const Program *p = m->prog;
	buf_printf(b, "%s: %s (model %s, ", p->path, sem_status_name(m->status), sem_model_name(m->opt.model));
	report_shape(b, m);
	buf_puts(b, ")\n");
	if (state) {
		print_cells(b, &m->shared, "Σ", all);
		int32_t shown = all || m->nthreads <= REPORT_TEXT_LIMIT ? m->nthreads : REPORT_TEXT_LIMIT;
		for (int32_t v = 0; v < m->nvars; v++) {
			if (!var_listed(m, v))
				continue;
			buf_printf(b, "  %s =", p->vars[v].name);
			for (int32_t t = 0; t < shown; t++) {
				Num x;
				buf_putc(b, ' ');
				if (sem_get(m, v, t, &x))
					num_buf(b, x);
				else
					buf_putc(b, '-');
			}
			if (shown < m->nthreads)
				buf_printf(b, " ... (threads %d..%d: --all)", shown, m->nthreads - 1);
			buf_putc(b, '\n');
		}
		for (int32_t t = 0; t < shown; t++)
			if (m->local[t] && m->local[t]->npages > 0) {
				char name[48];
				snprintf(name, sizeof name, "t%d: local", t);
				print_cells(b, m->local[t], name, all);
			}
	}
	report_measures(b, m);
	report_rule_counts(b, m);
	if (profile)
		print_profile(b, m);
}

typedef struct JsonCells {
	Json *j;
} JsonCells;

static void json_cell(void *ctx, int64_t addr, Num v)
{
	Json *j = ((JsonCells *)ctx)->j;
	char key[32];
	snprintf(key, sizeof key, "%lld", (long long)addr);
	json_key(j, key);
	json_num(j, v);
}

/* run's "error": null, or the rule, message, where, threads and stack. */
static void json_run_error(Json *j, const Machine *m)
{
	const Program *p = m->prog;
	if (m->status == SEM_OK || m->status == SEM_RUNNING) {
		json_null(j);
	} else {
		json_obj(j);
		json_key(j, "rule");
		json_str(j, m->err.rule);
		json_key(j, "message");
		json_str(j, m->err.msg);
		json_key(j, "label");
		json_str(j, m->err.pc >= 0 ? ir_label_of(p, m->err.pc) : NULL);
		json_key(j, "line");
		if (m->err.pc >= 0)
			json_int(j, p->ins[m->err.pc].loc.line);
		else
			json_null(j);
		json_key(j, "threads");
		json_arr(j);
		for (int32_t i = 0; i < m->err.nthreads; i++)
			json_int(j, m->err.threads[i]);
		json_arr_end(j);
		json_key(j, "warp");
		json_int(j, m->err.warp);
		/* a failed step changes nothing, so the warp's stack now is its
		** stack when the run stopped (m->err.stack renders the same) */
		if (m->err.warp >= 0) {
			Buf tmp = {0};
			json_stack(j, &tmp, m, m->err.warp);
			buf_free(&tmp);
		} else {
			json_key(j, "stack");
			json_null(j);
		}
		json_obj_end(j);
	}
}

void report_run_json(Json *j, const Machine *m, const TraceEnd *trace)
{
	const Program *p = m->prog;
	if (trace) {
		/* close the streamed "trace" array: its last step, then "]" on its own line */
		if (j->need_comma[j->depth])
			buf_puts(j->b, "\n  ");
		json_arr_end(j);
		json_key(j, "trace_complete");
		json_bool(j, trace->complete);
		json_key(j, "trace_limit");
		if (trace->limit)
			json_int(j, (int64_t)trace->limit);
		else
			json_null(j);
	} else {
		json_obj(j);
	}
	json_key(j, "file");
	json_str(j, p->path);
	json_key(j, "status");
	json_str(j, sem_status_name(m->status));
	json_key(j, "error");
	json_run_error(j, m);
	json_key(j, "threads");
	json_int(j, m->nthreads);
	json_key(j, "warpsize");
	json_int(j, m->warpsize);
	json_key(j, "model");
	json_str(j, sem_model_name(m->opt.model));
	json_key(j, "steps");
	json_int(j, (int64_t)m->steps);
	json_key(j, "thread_instructions");
	json_int(j, (int64_t)m->thread_instructions);
	json_key(j, "simd_efficiency");
	json_real(j, efficiency(m));
	json_key(j, "max_stack_depth");
	json_int(j, m->max_depth);
	json_key(j, "shared");
	json_obj(j);
	JsonCells jc = {j};
	mem_each(&m->shared, json_cell, &jc);
	json_obj_end(j);
	json_key(j, "vars");
	json_arr(j);
	for (int32_t t = 0; t < m->nthreads; t++) {
		json_obj(j);
		json_key(j, "tid");
		json_int(j, t);
		json_key(j, "values");
		json_obj(j);
		for (int32_t v = 0; v < m->nvars; v++) {
			Num x;
			if (p->vars[v].is_param || !sem_get(m, v, t, &x))
				continue;
			json_key(j, p->vars[v].name);
			json_num(j, x);
		}
		json_obj_end(j);
		if (sem_ret_depth(m, t) > 0) { /* the return stack, bottom first (calls) */
			json_key(j, "return_stack");
			json_arr(j);
			for (int32_t k = 0; k < sem_ret_depth(m, t); k++) {
				Buf w = {0};
				ir_print_where(&w, p, sem_ret_pc(m, t, k));
				json_str(j, buf_str(&w));
				buf_free(&w);
			}
			json_arr_end(j);
		}
		if (m->local[t] && m->local[t]->npages > 0) {
			json_key(j, "local");
			json_obj(j);
			mem_each(m->local[t], json_cell, &jc);
			json_obj_end(j);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "profile");
	json_arr(j);
	for (int32_t pc = 0; pc < p->nins; pc++) {
		if (!ir_is_branch(p->ins[pc].op))
			continue;
		json_obj(j);
		json_key(j, "label");
		json_str(j, ir_label_of(p, pc));
		json_key(j, "line");
		json_int(j, p->ins[pc].loc.line);
		json_key(j, "visits");
		json_int(j, (int64_t)m->visits[pc]);
		json_key(j, "divergences");
		json_int(j, (int64_t)m->divergences[pc]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "blocks");
	json_arr(j);
	for (int32_t blk = 0; blk < m->cfg->nblocks; blk++) {
		json_obj(j);
		json_key(j, "block");
		json_int(j, blk);
		json_key(j, "label");
		json_str(j, ir_label_of(p, m->cfg->blocks[blk].first));
		json_key(j, "line");
		json_int(j, p->ins[m->cfg->blocks[blk].first].loc.line);
		json_key(j, "executions");
		json_int(j, (int64_t)m->block_execs[blk]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "rules");
	json_obj(j);
	for (int r = 0; r < RULE__COUNT; r++) {
		json_key(j, sem_rule_name((Rule)r));
		json_int(j, (int64_t)m->rule_count[r]);
	}
	json_obj_end(j);
	json_key(j, "races");
	json_arr(j);
	for (int32_t i = 0; i < m->nraces; i++) {
		const Race *r = &m->races[i];
		json_obj(j);
		json_key(j, "cell");
		json_int(j, r->cell);
		json_key(j, "threads");
		json_arr(j);
		for (int32_t k = 0; k < r->n; k++)
			json_int(j, r->threads[k]);
		json_arr_end(j);
		json_key(j, "values");
		json_arr(j);
		for (int32_t k = 0; k < r->n; k++)
			json_num(j, r->values[k]);
		json_arr_end(j);
		json_key(j, "label");
		json_str(j, ir_label_of(p, r->pc));
		json_key(j, "line");
		json_int(j, p->ins[r->pc].loc.line);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* ---- errors -------------------------------------------------------------------------- */

void report_error(Buf *b, const Machine *m)
{
	const Program *p = m->prog;
	const RunError *e = &m->err;
	if (m->status == SEM_OK || m->status == SEM_RUNNING)
		return;
	Buf msg = {0};
	const char *what = m->status == SEM_LIMIT ? "step limit" : sem_status_name(m->status);
	buf_printf(&msg, "%s (rule %s): %s", what, e->rule, e->msg);
	Loc loc = e->pc >= 0 ? p->ins[e->pc].loc : LOC_NONE;
	diag_render_one(b, p->path, p->src, p->srclen, SEV_ERROR, loc, buf_str(&msg));
	buf_reset(&msg);
	if (e->warp >= 0) {
		if (m->nwarps > 1 || m->model->warps_of_one)
			buf_printf(&msg, "warp %d", e->warp);
		if (e->nthreads > 0) {
			buf_puts(&msg, msg.len ? ", threads " : "threads ");
			print_threads(&msg, e->threads, e->nthreads);
		}
		if (e->stack) {
			buf_puts(&msg, msg.len ? "; stack " : "stack ");
			buf_puts(&msg, e->stack);
		}
		if (msg.len)
			diag_render_head(b, p->path, p->src, p->srclen, SEV_NOTE, loc, buf_str(&msg));
	}
	buf_free(&msg);
}

void report_races(Buf *b, const Machine *m)
{
	const Program *p = m->prog;
	for (int32_t i = 0; i < m->nraces; i++) {
		const Race *r = &m->races[i];
		Buf msg = {0};
		buf_printf(&msg, "data race on shared cell %lld: threads ", (long long)r->cell);
		print_threads(&msg, r->threads, r->n);
		buf_puts(&msg, " store ");
		for (int32_t k = 0; k < r->n; k++) {
			if (k)
				buf_putc(&msg, ',');
			num_buf(&msg, r->values[k]);
		}
		buf_printf(&msg, " (in %s lane order; thread %d's value remains)",
		           m->opt.lane_order == ORDER_ASCENDING    ? "ascending"
		           : m->opt.lane_order == ORDER_DESCENDING ? "descending"
		                                                   : "random",
		           r->threads[r->n - 1]);
		diag_render_one(b, p->path, p->src, p->srclen, SEV_WARNING, p->ins[r->pc].loc, buf_str(&msg));
		buf_free(&msg);
	}
}

/* ---- divergence analyses ----------------------------------------------------------- */

/* Spaces from display column cur to col (in one piece: a report has a line
** per variable); returns the new column. */
static size_t pad_to(Buf *b, size_t cur, size_t col)
{
	static const char spaces[] = "                                ";
	while (cur < col) {
		size_t k = col - cur < sizeof spaces - 1 ? col - cur : sizeof spaces - 1;
		buf_putn(b, spaces, k);
		cur += k;
	}
	return cur;
}

/* Do variables x and y print the same value? */
static bool same_value(const AnaResult *r, int32_t x, int32_t y)
{
	if (r->opt.domain != ANA_POLY)
		return r->cls[x] == r->cls[y];
	for (int32_t k = 0; k <= r->opt.degree; k++)
		if (!coef_eq(*ana_coef(r, x, k), *ana_coef(r, y, k)))
			return false;
	return true;
}

void report_analysis_text(Buf *b, const Program *g, const AnaResult *r, bool ascii)
{
	report_analysis_text_to(b, g, r, ascii, NULL);
}

void report_analysis_text_to(Buf *b, const Program *g, const AnaResult *r, bool ascii, const Sink *sink)
{
	int32_t *vars = NULL;
	int32_t n = ana_listed_vars(g, &vars);
	size_t w = 4;
	for (int32_t i = 0; i < n; i++)
		if (strlen(g->vars[vars[i]].name) > w)
			w = strlen(g->vars[vars[i]].name);
	int32_t prev_var = -1;
	Buf val = {0}; /* the value printed for prev_var */
	for (int32_t i = 0; i < n; i++) {
		size_t start = b->len; /* the line's start: O(1) after a newline */
		while (start > 0 && b->s[start - 1] != '\n')
			start--;
		buf_putn(b, "  ", 2);
		buf_puts(b, g->vars[vars[i]].name);
		size_t col = pad_to(b, utf8_width(b->s + start, b->len - start), w + 4);
		const char *cls = ana_class_name(r->cls[vars[i]]);
		buf_puts(b, cls);
		pad_to(b, col + strlen(cls), w + 4 + 17); /* class names are ASCII */
		/* runs of variables share a value (⊥ … ⊥ for the divergent ones):
		** the previous line's text is copied rather than printed again */
		if (prev_var < 0 || !same_value(r, prev_var, vars[i])) {
			buf_reset(&val);
			ana_print_value(&val, r, vars[i], ascii);
		}
		prev_var = vars[i];
		buf_putn(b, val.s, val.len);
		buf_putc(b, '\n');
		sink_line(b, sink);
	}
	buf_free(&val);
	free(vars);
	/* the branches' columns: as wide as their widest label and instruction */
	size_t lw = w, iw = 22;
	Buf tmp = {0};
	for (int32_t pc = 0; pc < g->nins; pc++)
		if (ir_is_branch((Op)g->ins[pc].op)) {
			buf_reset(&tmp);
			ir_print_where(&tmp, g, pc);
			lw = tmp.len > lw ? tmp.len : lw;
			buf_reset(&tmp);
			ir_print_ins(&tmp, g, &g->ins[pc]);
			iw = tmp.len > iw ? tmp.len : iw;
		}
	buf_free(&tmp);
	bool any = false;
	for (int32_t pc = 0; pc < g->nins; pc++) {
		const Ins *ins = &g->ins[pc];
		if (!ir_is_branch((Op)ins->op))
			continue;
		if (!any)
			buf_puts(b, "branches:\n");
		any = true;
		buf_puts(b, "  ");
		ir_print_where(b, g, pc);
		pad_gap(b, lw + 4, 2);
		ir_print_ins(b, g, ins);
		pad_gap(b, lw + 4 + iw + 2, 2);
		buf_puts(b, r->branch_divergent[pc] ? "divergent\n" : "uniform\n");
		sink_line(b, sink);
	}
}

/* ---- explore (cli.md) ----------------------------------------------------------------- */

/* Replay the counterexample of r from a fresh machine of p under so, with
** each step shown by show(ctx, m, info). Returns the machine at the end
** (the caller frees it) and, for a livelock, compares the state at the
** cycle's start with the state after the cycle. *ok: the replay ends as the
** verdict says (a deadlock: a stuck step or nothing can step; a livelock:
** back in the state where the cycle began). */
static Machine *replay(const Program *p, const SemOptions *so, const ExploreResult *r,
                       void (*show)(void *ctx, const Machine *m, const StepInfo *s, int32_t i), void *ctx,
                       bool *ok)
{
	SemOptions o = *so;
	o.max_steps = UINT64_MAX;
	o.max_thread_instructions = UINT64_MAX;
	o.deadline = 0;
	Diags d;
	diag_init(&d, p->path, NULL, 0);
	Machine *m = sem_new(p, &o, &d);
	diag_free(&d);
	*ok = false;
	if (!m)
		return NULL;
	Buf at_cycle = {0}, now = {0};
	bool stuck = false;
	for (int32_t i = 0; i < r->ntrace; i++) {
		if (i == r->cycle_start)
			sem_pack(m, &at_cycle);
		StepInfo info;
		uint64_t before = m->steps;
		sem_step_group(m, r->trace[i], r->groups ? r->groups[i] : -1, &info);
		if (m->steps == before) {
			stuck = i + 1 == r->ntrace;
			break;
		}
		show(ctx, m, &info, i);
		if (m->status != SEM_RUNNING) {
			stuck = i + 1 == r->ntrace && m->status != SEM_OK;
			break;
		}
	}
	if (r->verdict == EXPLORE_DEADLOCK) {
		bool none = m->status == SEM_RUNNING;
		for (int32_t w = 0; w < m->nwarps && none; w++)
			none = m->warps[w].status != WARP_RUN;
		*ok = stuck || none;
	} else if (r->verdict == EXPLORE_LIVELOCK && r->cycle_start >= 0 && r->ntrace > r->cycle_start) {
		sem_pack(m, &now);
		*ok = m->status == SEM_RUNNING && now.len == at_cycle.len && !memcmp(now.s, at_cycle.s, now.len);
	}
	buf_free(&at_cycle);
	buf_free(&now);
	return m;
}

typedef struct TraceText {
	Buf *b;
	ReportCols cols;
	int32_t cycle_start;
} TraceText;

static void show_text(void *ctx, const Machine *m, const StepInfo *s, int32_t i)
{
	TraceText *t = ctx;
	if (i == t->cycle_start)
		buf_puts(t->b, "  -- the cycle: --\n");
	report_trace_line(t->b, &t->cols, m, s);
}

bool report_explore_trace(Buf *b, const Program *p, const SemOptions *so, const ExploreResult *r)
{
	TraceText t = {b, {0}, r->cycle_start};
	{
		SemOptions o = *so;
		Diags d;
		diag_init(&d, p->path, NULL, 0);
		Machine *m0 = sem_new(p, &o, &d);
		diag_free(&d);
		if (!m0)
			return false;
		report_cols(&t.cols, m0, (uint64_t)r->ntrace + 1);
		sem_free(m0);
	}
	bool ok;
	Machine *m = replay(p, so, r, show_text, &t, &ok);
	if (!m)
		return false;
	if (r->verdict == EXPLORE_DEADLOCK) {
		if (m->status != SEM_RUNNING && m->status != SEM_OK)
			report_error(b, m);
		else
			buf_puts(b, "  then no warp can step, and some threads have not finished\n");
	}
	sem_free(m);
	return ok;
}

typedef struct TraceJson {
	Json *j;
} TraceJson;

static void show_json(void *ctx, const Machine *m, const StepInfo *s, int32_t i)
{
	(void)i;
	TraceJson *t = ctx;
	report_trace_json(t->j, m, s);
}

bool report_explore_counterexample_json(Json *j, const Program *p, const SemOptions *so, const ExploreResult *r)
{
	json_obj(j);
	json_key(j, "steps");
	json_arr(j);
	TraceJson t = {j};
	bool ok;
	Machine *m = replay(p, so, r, show_json, &t, &ok);
	json_arr_end(j);
	json_key(j, "cycle_start");
	if (r->cycle_start >= 0)
		json_int(j, r->cycle_start);
	else
		json_null(j);
	json_key(j, "error");
	if (m && r->verdict == EXPLORE_DEADLOCK)
		json_run_error(j, m);
	else
		json_null(j);
	json_obj_end(j);
	sem_free(m);
	return ok;
}
