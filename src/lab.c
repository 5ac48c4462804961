/*
** lab.c — the policy lab's measures and tables (lab.h).
*/
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* ---- cycles (§1.4) ------------------------------------------------------------------ */

void lab_cycles_init(LabCycles *c, int32_t nthreads, int32_t fetch_units)
{
	c->F = fetch_units > 0 ? fetch_units : nthreads > 0 ? nthreads : 1;
	c->nthreads = nthreads;
	c->mark = xcalloc((size_t)nthreads + 1, sizeof *c->mark);
	c->cycle = 1;
	c->placed = 0;
}

void lab_cycles_add(LabCycles *c, const int32_t *threads, int32_t n)
{
	bool again = c->placed == c->F;
	for (int32_t i = 0; i < n && !again; i++)
		again = c->mark[threads[i]] == c->cycle;
	if (again) {
		c->cycle++;
		c->placed = 0;
	}
	for (int32_t i = 0; i < n; i++)
		c->mark[threads[i]] = c->cycle;
	c->placed++;
}

uint64_t lab_cycles_total(const LabCycles *c)
{
	return c->cycle - 1 + (c->placed > 0);
}

void lab_cycles_free(LabCycles *c)
{
	free(c->mark);
	c->mark = NULL;
}

/* ---- memory accesses (§8.5) ------------------------------------------------------------- */

static int32_t log2_floor(uint64_t x)
{
	return x ? 63 - __builtin_clzll(x) : 0;
}

LabAccess lab_classify(const int32_t *tids, const int64_t *addrs, int32_t n, int32_t *bin)
{
	*bin = 0;
	bool same = true;
	for (int32_t i = 1; i < n && same; i++)
		same = addrs[i] == addrs[0];
	if (same)
		return LAB_UNIFORM;
	if (addrs[1] > addrs[0] && tids[1] > tids[0]) {
		int64_t d = (int64_t)(((uint64_t)addrs[1] - (uint64_t)addrs[0]) / (uint64_t)(tids[1] - tids[0]));
		bool affine = d > 0;
		for (int32_t i = 2; i < n && affine; i++)
			affine = (uint64_t)addrs[i] == (uint64_t)addrs[0] + (uint64_t)(tids[i] - tids[0]) * (uint64_t)d;
		if (affine) {
			*bin = log2_floor((uint64_t)d);
			return LAB_AFFINE;
		}
	}
	int64_t lo = addrs[0], hi = addrs[0];
	for (int32_t i = 1; i < n; i++) {
		if (addrs[i] < lo)
			lo = addrs[i];
		if (addrs[i] > hi)
			hi = addrs[i];
	}
	*bin = log2_floor((uint64_t)hi - (uint64_t)lo);
	return LAB_SCATTERED;
}

const char *lab_access_name(LabAccess a)
{
	static const char *const names[] = {"uniform", "affine", "scattered"};
	return names[a];
}

/* ---- one run ------------------------------------------------------------------------ */

/* Per-thread locals live in per-thread stacks spaced this far apart, as the
** thesis remaps stack accesses (§7.3): a local at the same offset in every
** thread is then affine with distance 2^23. */
#define LAB_LOCAL_STRIDE ((int64_t)1 << 23)

/* The value of operand o in thread t, false when it has none that fits
** int64 (unassigned, a big value, no operand). */
static bool opnd_value(const Machine *m, const Opnd *o, int32_t t, int64_t *out)
{
	Num v;
	switch (o->kind) {
	case OPND_VAR:
		if (!sem_get(m, o->var, t, &v) || !num_fits64(v))
			return false;
		*out = v.i;
		return true;
	case OPND_SPECIAL: *out = sem_special(m, (Special)o->special, t); return true;
	case OPND_LIT:
		v = ir_lit(m->prog, o);
		if (!num_fits64(v))
			return false;
		*out = v.i;
		return true;
	default: return false;
	}
}

/* Do the threads (n of them) read equal values of o? A literal is; an
** operand without a small value in some thread is taken as not equal. */
static bool opnd_uniform(const Machine *m, const Opnd *o, const int32_t *threads, int32_t n)
{
	if (o->kind != OPND_VAR && o->kind != OPND_SPECIAL)
		return true;
	if (o->kind == OPND_VAR) { /* values beyond int64 compare as numbers */
		Num v0;
		if (!sem_get(m, o->var, threads[0], &v0))
			return false;
		for (int32_t i = 1; i < n; i++) {
			Num v;
			if (!sem_get(m, o->var, threads[i], &v) || !num_eq(v, v0))
				return false;
		}
		return true;
	}
	int64_t v0 = sem_special(m, (Special)o->special, threads[0]);
	for (int32_t i = 1; i < n; i++)
		if (sem_special(m, (Special)o->special, threads[i]) != v0)
			return false;
	return true;
}

/* Execute-identical (§1.2, §8.4): every register the instruction reads holds
** the same value in all the active threads (one thread: always). φ and μ
** read the operand of the edge each thread came by. */
static bool execute_identical(const Machine *m, const Ins *ins, int32_t pc, const int32_t *threads, int32_t n)
{
	if (n <= 1)
		return true;
	if (ins->op == OP_PHI || ins->op == OP_MU) {
		int32_t blk = m->cfg->block_of[pc];
		const Opnd *o0 = sem_gsa_operand(m, ins, blk, threads[0]);
		int64_t v0 = 0, v = 0;
		if (!o0 || !opnd_value(m, o0, threads[0], &v0))
			return false;
		for (int32_t i = 1; i < n; i++) {
			const Opnd *o = sem_gsa_operand(m, ins, blk, threads[i]);
			if (!o || !opnd_value(m, o, threads[i], &v) || v != v0)
				return false;
		}
		return true;
	}
	if (!opnd_uniform(m, &ins->a, threads, n) || !opnd_uniform(m, &ins->b, threads, n) ||
	    !opnd_uniform(m, &ins->c, threads, n))
		return false;
	if (ins->op == OP_GAMMA)
		for (int32_t k = 0; k < ins->nargs; k++)
			if (!opnd_uniform(m, &ins->args[k], threads, n))
				return false;
	return true;
}

static bool is_memory(Op op, bool *local)
{
	*local = op == OP_LLOAD || op == OP_LSTORE;
	return op == OP_LOAD || op == OP_STORE || *local || ir_is_atomic(op);
}

typedef struct Observer {
	LabRow *row;
	LabCycles cyc;
	int32_t *threads;  /* the active threads of a step, global ids */
	int64_t *addrs;
	/* what observe saw before the step */
	bool identical;
	int32_t nbefore;
	int access, bin;   /* LabAccess, or -1: no memory access */
} Observer;

/* Before warp wi's step: what the instruction reads, while it is unchanged. */
static void observe(Observer *ob, const Machine *m, int32_t wi)
{
	const Warp *w = &m->warps[wi];
	int32_t n = bits_list(w->active, w->nw, w->base, ob->threads);
	ob->identical = false;
	ob->nbefore = n;
	ob->access = -1;
	if (w->pc < 0 || w->pc >= m->prog->nins || n == 0)
		return;
	const Ins *ins = &m->prog->ins[w->pc];
	ob->identical = execute_identical(m, ins, w->pc, ob->threads, n);
	bool local;
	if (!is_memory((Op)ins->op, &local))
		return;
	for (int32_t i = 0; i < n; i++) {
		int64_t a;
		if (!opnd_value(m, &ins->a, ob->threads[i], &a))
			return; /* the step gets stuck, or the address is beyond int64 */
		ob->addrs[i] = local ? ob->threads[i] * LAB_LOCAL_STRIDE + a : a;
	}
	ob->access = (int)lab_classify(ob->threads, ob->addrs, n, &ob->bin);
}

/* After the step: the fetch, its group of threads, what observe saw. */
static void account(Observer *ob, const Machine *m, const StepInfo *s)
{
	LabRow *r = ob->row;
	const Warp *w = &m->warps[s->warp];
	int32_t n = bits_list(s->active, w->nw, w->base, ob->threads);
	if (n <= r->width)
		r->hist[n]++;
	r->zero_lane += n == 0;
	if (ob->identical && n == ob->nbefore) {
		r->identical++;
		r->ident_hist[n]++;
	}
	if (ob->access >= 0) {
		r->access[ob->access]++;
		if (ob->access == LAB_AFFINE)
			r->affine_bins[ob->bin]++;
		else if (ob->access == LAB_SCATTERED)
			r->scattered_bins[ob->bin]++;
	}
	lab_cycles_add(&ob->cyc, ob->threads, n);
}

bool lab_run(const Program *p, const Model *md, const LabOptions *o, LabRow *row, Diags *d)
{
	SemOptions so = o->sem;
	so.model = md;
	Machine *m = sem_new(p, &so, d);
	if (!m)
		return false;
	row->file = xstrdup(p->path);
	row->model = md;
	row->threads = m->nthreads;
	row->width = m->sched_warpsize;
	row->hist = xcalloc((size_t)row->width + 1, sizeof *row->hist);
	row->ident_hist = xcalloc((size_t)row->width + 1, sizeof *row->ident_hist);
	Observer ob = {.row = row,
	               .threads = xmalloc((size_t)m->nthreads * sizeof(int32_t) + 1),
	               .addrs = xmalloc((size_t)m->nthreads * sizeof(int64_t) + 1)};
	lab_cycles_init(&ob.cyc, m->nthreads, o->fetch_units);
	StepInfo info;
	while (m->status == SEM_RUNNING) {
		int32_t wi = sem_schedule(m);
		if (wi < 0)
			break;
		uint64_t before = m->steps;
		observe(&ob, m, wi);
		sem_step(m, wi, &info);
		if (m->steps == before)
			continue;
		sem_advance(m, wi);
		account(&ob, m, &info);
	}
	row->status = m->status;
	if (m->status != SEM_OK && m->err.msg)
		row->error = xstrdup(m->err.msg);
	row->fetches = m->steps;
	row->thread_instructions = m->thread_instructions;
	row->cycles = lab_cycles_total(&ob.cyc);
	for (int32_t b = 0; b < m->cfg->nblocks; b++)
		row->blocks += m->block_execs[b];
	row->dlp = row->fetches ? (double)row->thread_instructions / (double)row->fetches : 0;
	row->tlp = row->cycles ? (double)row->fetches / (double)row->cycles : 0;
	row->throughput = row->cycles ? (double)row->thread_instructions / (double)row->cycles : 0;
	row->activity = row->fetches ? (double)row->thread_instructions / ((double)row->fetches * row->width) : 0;
	lab_cycles_free(&ob.cyc);
	free(ob.threads);
	free(ob.addrs);
	sem_free(m);
	if (o->explore) {
		ExploreOptions eo = {.sem = so, .max_states = o->max_states};
		eo.sem.deadline = 0;
		ExploreResult *res = explore_run(p, &eo, d);
		if (!res)
			return false;
		row->explored = true;
		row->verdict = res->verdict;
		row->states = res->states;
		explore_free(res);
	}
	return true;
}

void lab_row_free(LabRow *row)
{
	free(row->file);
	free(row->error);
	free(row->hist);
	free(row->ident_hist);
}

/* ---- the policies --------------------------------------------------------------------- */

const Model *lab_policy_find(const char *name)
{
	if (!strcmp(name, "rr"))
		return &model_its_rr;
	if (strncmp(name, "its:", 4) && strcmp(name, "its")) {
		char buf[96];
		snprintf(buf, sizeof buf, "its:%s", name);
		const Model *md = its_policy_find(buf);
		if (md)
			return md;
	}
	return model_find(name);
}

static int32_t add_policy(const Model **out, int32_t n, int32_t cap, const Model *md)
{
	if (md && n < cap)
		out[n++] = md;
	return n;
}

int32_t lab_default_policies(const Model **out, int32_t cap)
{
	int32_t n = 0;
	for (int32_t i = 0; its_policy_names[i]; i++) {
		const char *name = its_policy_names[i];
		if (strstr(name, "@ins"))
			continue;
		const char *colon = strchr(name + 4, ':');
		if (colon && strcmp(colon, ":8") && strncmp(name, "its:rd-minsp", 12))
			continue; /* Long's FHB: size 8 only */
		n = add_policy(out, n, cap, its_policy_model(i));
	}
	return add_policy(out, n, cap, &model_its_rr);
}

int32_t lab_all_policies(const Model **out, int32_t cap)
{
	int32_t n = 0;
	for (int32_t i = 0; its_policy_names[i]; i++)
		n = add_policy(out, n, cap, its_policy_model(i));
	return add_policy(out, n, cap, &model_its_rr);
}

/* ---- tables ---------------------------------------------------------------------------- */

static const char *status_word(const LabRow *r)
{
	return sem_status_name(r->status);
}

/* The distinct files of the rows, in order (rows are file-major). */
static int32_t count_files(const LabRow *rows, int32_t n)
{
	int32_t k = 0;
	for (int32_t i = 0; i < n; i++)
		k += i == 0 || strcmp(rows[i].file, rows[i - 1].file) != 0;
	return k;
}

static void grouped(const uint64_t *bins, uint64_t *g)
{
	static const int lo[LAB_GROUPS + 1] = {0, 4, 8, 16, 32, LAB_BINS};
	for (int k = 0; k < LAB_GROUPS; k++) {
		g[k] = 0;
		for (int i = lo[k]; i < lo[k + 1]; i++)
			g[k] += bins[i];
	}
}

static void cell(Buf *b, bool md, int width, const char *s, bool left)
{
	if (md)
		buf_printf(b, "| %s ", s);
	else if (left)
		buf_printf(b, "%-*s  ", width, s);
	else
		buf_printf(b, "%*s  ", width, s);
}

static void row_end(Buf *b, bool md)
{
	if (md)
		buf_puts(b, "|");
	while (b->len > 0 && buf_str(b)[b->len - 1] == ' ')
		b->len--;
	buf_putc(b, '\n');
}

void lab_table_text(Buf *b, const LabRow *rows, int32_t n, bool md)
{
	static const char *const head[] = {"policy", "status", "fetches", "thread-ins", "DLP", "TLP",
	                                   "throughput", "activity", "blocks", "identical", "uniform",
	                                   "affine", "scattered", "verdict"};
	int ncol = 13 + (n > 0 && rows[0].explored);
	int pw = 6;
	for (int32_t i = 0; i < n; i++) {
		int l = (int)strlen(its_policy_key(rows[i].model));
		if (l > pw)
			pw = l;
	}
	for (int32_t i = 0; i < n; i++) {
		const LabRow *r = &rows[i];
		if (i == 0 || strcmp(r->file, rows[i - 1].file)) {
			if (i > 0)
				buf_putc(b, '\n');
			buf_printf(b, md ? "### %s (%d threads, warps of %d)\n\n" : "%s (%d threads, warps of %d):\n",
			           r->file, r->threads, r->width);
			for (int c = 0; c < ncol; c++)
				cell(b, md, c == 0 ? pw : c == 1 ? 10 : c == 13 ? 15 : 10, head[c], c < 2 || c == 13);
			row_end(b, md);
			if (md) {
				for (int c = 0; c < ncol; c++)
					buf_puts(b, c < 2 || c == 13 ? "|---" : "|--:");
				buf_puts(b, "|\n");
			}
		}
		char v[13][32];
		snprintf(v[0], 32, "%s", its_policy_key(r->model));
		snprintf(v[1], 32, "%s", status_word(r));
		snprintf(v[2], 32, "%llu", (unsigned long long)r->fetches);
		snprintf(v[3], 32, "%llu", (unsigned long long)r->thread_instructions);
		snprintf(v[4], 32, "%.2f", r->dlp);
		snprintf(v[5], 32, "%.2f", r->tlp);
		snprintf(v[6], 32, "%.2f", r->throughput);
		snprintf(v[7], 32, "%.3f", r->activity);
		snprintf(v[8], 32, "%llu", (unsigned long long)r->blocks);
		snprintf(v[9], 32, "%llu", (unsigned long long)r->identical);
		for (int k = 0; k < 3; k++)
			snprintf(v[10 + k], 32, "%llu", (unsigned long long)r->access[k]);
		for (int c = 0; c < 13; c++)
			cell(b, md, c == 0 ? pw : 10, v[c], c < 2);
		if (ncol > 13)
			cell(b, md, 15, r->explored ? explore_verdict_name(r->verdict) : "-", true);
		row_end(b, md);
	}
	int32_t nf = count_files(rows, n);
	if (nf < 2 || n % nf)
		return;
	/* Tables 5.3 and 5.4: policies × files, the mean last */
	int32_t np = n / nf;
	for (int t = 0; t < 2; t++) {
		buf_printf(b, md ? "\n### %s\n\n" : "\n%s:\n", t == 0 ? "DLP (Table 5.3)" : "Throughput (Table 5.4)");
		cell(b, md, pw, "policy", true);
		int fw[64];
		for (int32_t f = 0; f < nf; f++) {
			const char *name = rows[f * np].file, *slash = strrchr(name, '/');
			int l = (int)strlen(slash ? slash + 1 : name);
			fw[f % 64] = l > 6 ? l : 6;
			cell(b, md, fw[f % 64], slash ? slash + 1 : name, false);
		}
		cell(b, md, 6, "avg", false);
		row_end(b, md);
		if (md) {
			buf_puts(b, "|---");
			for (int32_t f = 0; f <= nf; f++)
				buf_puts(b, "|--:");
			buf_puts(b, "|\n");
		}
		for (int32_t k = 0; k < np; k++) {
			cell(b, md, pw, its_policy_key(rows[k].model), true);
			double sum = 0;
			for (int32_t f = 0; f < nf; f++) {
				const LabRow *r = &rows[f * np + k];
				double x = t == 0 ? r->dlp : r->throughput;
				char s[32];
				snprintf(s, sizeof s, "%.2f%s", x, r->status == SEM_OK ? "" : "*");
				cell(b, md, fw[f % 64], s, false);
				sum += x;
			}
			char s[32];
			snprintf(s, sizeof s, "%.2f", sum / nf);
			cell(b, md, 6, s, false);
			row_end(b, md);
		}
	}
	buf_puts(b, md ? "\n\\* the run did not finish (its status above)\n"
	               : "(* the run did not finish: its status above)\n");
}

static void csv_field(Buf *b, const char *s)
{
	if (strpbrk(s, ",\"\n")) {
		buf_putc(b, '"');
		for (; *s; s++) {
			if (*s == '"')
				buf_putc(b, '"');
			buf_putc(b, *s);
		}
		buf_putc(b, '"');
	} else {
		buf_puts(b, s);
	}
}

void lab_table_csv(Buf *b, const LabRow *rows, int32_t n)
{
	bool ex = n > 0 && rows[0].explored;
	buf_puts(b, "file,policy,status,threads,fetches,thread_instructions,cycles,dlp,tlp,throughput,activity,"
	            "blocks,zero_lane,execute_identical,uniform,affine,scattered");
	buf_puts(b, ex ? ",verdict\n" : "\n");
	for (int32_t i = 0; i < n; i++) {
		const LabRow *r = &rows[i];
		csv_field(b, r->file);
		buf_putc(b, ',');
		csv_field(b, its_policy_key(r->model));
		buf_printf(b, ",%s,%d,%llu,%llu,%llu,%.4f,%.4f,%.4f,%.4f,%llu,%llu,%llu,%llu,%llu,%llu", status_word(r),
		           r->threads, (unsigned long long)r->fetches, (unsigned long long)r->thread_instructions,
		           (unsigned long long)r->cycles, r->dlp, r->tlp, r->throughput, r->activity,
		           (unsigned long long)r->blocks, (unsigned long long)r->zero_lane,
		           (unsigned long long)r->identical, (unsigned long long)r->access[0],
		           (unsigned long long)r->access[1], (unsigned long long)r->access[2]);
		if (ex)
			buf_printf(b, ",%s", explore_verdict_name(r->verdict));
		buf_putc(b, '\n');
	}
}

static void json_u64s(Json *j, const uint64_t *v, int32_t n)
{
	json_arr(j);
	for (int32_t i = 0; i < n; i++)
		json_int(j, (int64_t)v[i]);
	json_arr_end(j);
}

static void json_count(Json *j, const char *k, uint64_t v)
{
	json_key(j, k);
	json_int(j, (int64_t)v);
}

static void json_ratio(Json *j, const char *k, double v)
{
	json_key(j, k);
	json_real(j, (double)(int64_t)(v * 1e6 + 0.5) / 1e6); /* v >= 0: six decimals */
}

void lab_table_json(Buf *b, const LabRow *rows, int32_t n)
{
	Json j;
	json_init(&j, b);
	json_arr(&j);
	for (int32_t i = 0; i < n; i++) {
		const LabRow *r = &rows[i];
		json_obj(&j);
		json_key(&j, "file");
		json_str(&j, r->file);
		json_key(&j, "policy");
		json_str(&j, its_policy_key(r->model));
		json_key(&j, "model");
		json_str(&j, r->model->name);
		json_key(&j, "status");
		json_str(&j, status_word(r));
		json_key(&j, "error");
		json_str(&j, r->error);
		json_count(&j, "threads", (uint64_t)r->threads);
		json_count(&j, "width", (uint64_t)r->width);
		json_count(&j, "fetches", r->fetches);
		json_count(&j, "thread_instructions", r->thread_instructions);
		json_count(&j, "cycles", r->cycles);
		json_ratio(&j, "dlp", r->dlp);
		json_ratio(&j, "tlp", r->tlp);
		json_ratio(&j, "throughput", r->throughput);
		json_ratio(&j, "activity", r->activity);
		json_count(&j, "blocks", r->blocks);
		json_count(&j, "zero_lane", r->zero_lane);
		json_count(&j, "execute_identical", r->identical);
		json_key(&j, "active_histogram");
		json_u64s(&j, r->hist, r->width + 1);
		json_key(&j, "identical_histogram");
		json_u64s(&j, r->ident_hist, r->width + 1);
		json_key(&j, "memory");
		json_obj(&j);
		for (int k = 0; k < 3; k++)
			json_count(&j, lab_access_name((LabAccess)k), r->access[k]);
		uint64_t g[LAB_GROUPS];
		json_key(&j, "affine_bins");
		json_u64s(&j, r->affine_bins, LAB_BINS);
		json_key(&j, "scattered_bins");
		json_u64s(&j, r->scattered_bins, LAB_BINS);
		grouped(r->affine_bins, g);
		json_key(&j, "affine_groups");
		json_u64s(&j, g, LAB_GROUPS);
		grouped(r->scattered_bins, g);
		json_key(&j, "scattered_groups");
		json_u64s(&j, g, LAB_GROUPS);
		json_obj_end(&j);
		if (r->explored) {
			json_key(&j, "verdict");
			json_str(&j, explore_verdict_name(r->verdict));
			json_count(&j, "states", r->states);
		}
		json_obj_end(&j);
	}
	json_arr_end(&j);
	buf_putc(b, '\n');
}

/* ---- the chart --------------------------------------------------------------------------- */

void lab_chart_svg(Buf *b, const LabRow *rows, int32_t n)
{
	static const char *const colours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
	int32_t nf = count_files(rows, n);
	int32_t np = nf ? n / nf : 0;
	double top = 1;
	for (int32_t i = 0; i < n; i++)
		if (rows[i].dlp > top)
			top = rows[i].dlp;
	top = (double)(int64_t)top + (top > (double)(int64_t)top);
	int bw = 14, gap = 12, left = 50, plot_h = 240, base = 30 + plot_h;
	int gw = nf * bw + gap;
	int width = left + np * gw + 20, height = base + 150 + 18 * nf;
	buf_printf(b,
	           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
	           "font-size=\"11\">\n",
	           width, height);
	buf_printf(b, "<text x=\"%d\" y=\"18\" font-size=\"14\">DLP per policy (thread instructions / fetches)</text>\n",
	           left);
	for (int t = 0; t <= (int)top; t++) {
		int y = base - (int)(plot_h * t / top);
		buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", left, y, width - 10, y);
		buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n", left - 6, y + 4, t);
	}
	for (int32_t k = 0; k < np; k++) {
		int x0 = left + k * gw + gap / 2;
		for (int32_t f = 0; f < nf; f++) {
			const LabRow *r = &rows[f * np + k];
			int h = (int)(plot_h * r->dlp / top + 0.5);
			buf_printf(b,
			           "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
			           x0 + f * bw, base - h, bw - 2, h, colours[f % 10]);
			buf_put_xml(b, r->file);
			buf_printf(b, " under %s: DLP %.2f</title></rect>\n", its_policy_key(r->model), r->dlp);
		}
		int cx = x0 + nf * bw / 2;
		buf_printf(b, "<text transform=\"translate(%d,%d) rotate(-60)\" text-anchor=\"end\">", cx, base + 12);
		buf_put_xml(b, its_policy_key(rows[k].model));
		buf_puts(b, "</text>\n");
	}
	for (int32_t f = 0; f < nf; f++) {
		int y = base + 140 + 18 * f;
		buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", left, y - 10,
		           colours[f % 10]);
		buf_printf(b, "<text x=\"%d\" y=\"%d\">", left + 18, y);
		buf_put_xml(b, rows[f * np].file);
		buf_puts(b, "</text>\n");
	}
	buf_puts(b, "</svg>\n");
}
