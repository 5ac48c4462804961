/*
** dbg.c — debugging sessions (dbg.h): stepping, reverse stepping by
** checkpoint and replay, breakpoints and watchpoints, all through sem_step.
*/
#include "dbg.h"

#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void dbg_stop_free(DbgStop *s)
{
	free(s->detail);
	s->detail = NULL;
}

/* ---- watchpoints ------------------------------------------------------------------ */

static void point_forget(DbgPoint *pt)
{
	for (int32_t i = 0; i < pt->nold; i++)
		num_free(&pt->old[i]);
	free(pt->old);
	free(pt->olddef);
	pt->old = NULL;
	pt->olddef = NULL;
	pt->nold = 0;
}

/* Remember what the watched thing holds now. */
static void point_snapshot(const Dbg *s, DbgPoint *pt)
{
	point_forget(pt);
	const Machine *m = s->m;
	if (pt->kind == POINT_WATCH_VAR) {
		pt->nold = m->nthreads;
		pt->old = xcalloc((size_t)pt->nold, sizeof *pt->old);
		pt->olddef = xcalloc((size_t)pt->nold, 1);
		for (int32_t t = 0; t < m->nthreads; t++) {
			Num v;
			if (sem_get(m, pt->var, t, &v)) {
				pt->olddef[t] = 1;
				pt->old[t] = num_copy(v);
			}
		}
	} else if (pt->kind == POINT_WATCH_MEM) {
		pt->nold = 1;
		pt->old = xcalloc(1, sizeof *pt->old);
		pt->olddef = xcalloc(1, 1);
		Num v;
		if (mem_get(&m->shared, pt->addr, &v)) {
			pt->olddef[0] = 1;
			pt->old[0] = num_copy(v);
		}
	}
}

static void snapshot_all(Dbg *s)
{
	for (int32_t i = 0; i < s->npoints; i++)
		point_snapshot(s, &s->points[i]);
}

static void put_value(Buf *b, bool def, Num v)
{
	if (def)
		num_buf(b, v);
	else
		buf_puts(b, "undef");
}

/* The watched thing's name, as a change report starts. */
static void put_watched(Buf *b, const Dbg *s, const DbgPoint *pt)
{
	if (pt->kind == POINT_WATCH_VAR)
		buf_printf(b, "%s: ", s->prog->vars[pt->var].name);
	else
		buf_printf(b, "mem[%lld]: ", (long long)pt->addr);
}

/* Compare slot k of pt (thread k, or the cell) with (def, v); on a change,
** describe it in b (the first eight), update the snapshot, count it. Nothing
** is formatted or allocated while nothing changes: this runs every step. */
static void slot_check(const Dbg *s, DbgPoint *pt, int32_t k, bool def, Num v, Buf *b, int32_t *changes)
{
	bool was = pt->olddef[k];
	if (was == def && (!def || num_eq(pt->old[k], v)))
		return;
	if (*changes == 0)
		put_watched(b, s, pt);
	if (*changes < 8) {
		buf_puts(b, *changes ? ", " : "");
		if (pt->kind == POINT_WATCH_VAR)
			buf_printf(b, "t%d ", k);
		put_value(b, was, pt->old[k]);
		buf_puts(b, " → ");
		put_value(b, def, v);
	}
	++*changes;
	num_free(&pt->old[k]);
	pt->olddef[k] = def;
	pt->old[k] = def ? num_copy(v) : (Num){0, NULL};
}

/* After warp w made a step: the first watchpoint whose value changed. */
static int32_t check_watches(Dbg *s, int32_t wi, char **detail)
{
	const Machine *m = s->m;
	const Warp *w = &m->warps[wi];
	for (int32_t i = 0; i < s->npoints; i++) {
		DbgPoint *pt = &s->points[i];
		Buf b = {0};
		int32_t changes = 0;
		Num v = {0, NULL};
		if (pt->kind == POINT_WATCH_VAR) {
			/* only the lanes of the warp that stepped can have changed */
			for (int32_t t = w->base; t < w->base + w->size; t++)
				slot_check(s, pt, t, sem_get(m, pt->var, t, &v), v, &b, &changes);
		} else if (pt->kind == POINT_WATCH_MEM) {
			slot_check(s, pt, 0, mem_get(&m->shared, pt->addr, &v), v, &b, &changes);
		}
		if (changes) {
			if (changes > 8)
				buf_printf(&b, ", ... (%d threads in all)", changes);
			pt->hits++;
			*detail = buf_steal(&b);
			return pt->id;
		}
	}
	return -1;
}

/* ---- checkpoints and history ------------------------------------------------------ */

/* Memory accounting: what the session keeps beside its machine (the
** checkpoints, the recorded schedule) is charged to the machine's
** --max-memory budget, so a long session stays within it: checkpoints are
** thinned before the budget is exceeded, and the machine stops at the
** limit counting them. */
static void charge(Dbg *s)
{
	if (s->m)
		s->m->outside_bytes = s->ckbytes + (uint64_t)s->caphist * sizeof *s->hist;
}

static void drop_checkpoint(Dbg *s, int32_t i)
{
	if (s->ck[i])
		s->ckbytes -= sem_bytes(s->ck[i]);
	sem_free(s->ck[i]);
	s->ck[i] = NULL;
}

static void drop_checkpoints_after(Dbg *s, uint64_t step)
{
	while (s->nck > 1 && s->ckstep[s->nck - 1] > step)
		drop_checkpoint(s, --s->nck);
	charge(s);
}

/* Keep every other checkpoint (the initial state stays) and double the
** interval. */
static void thin_checkpoints(Dbg *s)
{
	int32_t j = 1;
	for (int32_t i = 1; i < s->nck; i++) {
		if (s->ckstep[i] % (2 * s->interval) == 0) {
			s->ck[j] = s->ck[i];
			s->ckstep[j++] = s->ckstep[i];
		} else {
			drop_checkpoint(s, i);
		}
	}
	s->nck = j;
	s->interval *= 2;
	charge(s);
}

/* Whether a copy of `bytes` more fits the budget beside the machine and
** what the session keeps. */
static bool fits(const Dbg *s, uint64_t bytes)
{
	uint64_t used = sem_bytes(s->m) + s->m->outside_bytes;
	return used <= s->m->opt.max_memory && bytes <= s->m->opt.max_memory - used;
}

/* The first checkpoint interval: DBG_FIRST_INTERVAL steps, doubled until
** an interval's steps do DBG_CK_WORK times the work of one copy of the
** machine, a step counted as its warp's lanes plus DBG_STEP_LANES (its
** fixed part) and a copy as the bytes of the state. A small machine keeps a
** checkpoint every 64 steps; a big one spends about 1/DBG_CK_WORK of the
** run on copies at first (`continue` against `run`: bench/README.md). */
static uint64_t first_interval(const Machine *m)
{
	uint64_t want = DBG_CK_WORK * sem_bytes(m), per_step = (uint64_t)m->sched_warpsize + DBG_STEP_LANES;
	uint64_t interval = DBG_FIRST_INTERVAL;
	while (interval * per_step < want)
		interval *= 2;
	return interval;
}

/* Keep a clone every `interval` steps; when the table is full, or when the
** clone would not fit the memory budget, keep every other one and double
** the interval (without room even then, going back replays from the start). */
static void maybe_checkpoint(Dbg *s)
{
	uint64_t k = s->m->steps;
	if (k % s->interval != 0 || k <= s->ckstep[s->nck - 1])
		return;
	uint64_t cost = sem_bytes(s->m);
	while (s->nck == DBG_MAX_CHECKPOINTS + 1 || (s->nck > 1 && !fits(s, cost))) {
		thin_checkpoints(s);
		if (k % s->interval != 0)
			return;
	}
	if (!fits(s, cost))
		return;
	s->ck[s->nck] = sem_clone(s->m);
	s->ckbytes += cost;
	s->ckstep[s->nck++] = k;
	charge(s);
}

static void record(Dbg *s, uint64_t step, DbgChoice w)
{
	if (step >= s->caphist) {
		s->caphist = s->caphist ? 2 * s->caphist : 1024;
		s->hist = xrealloc(s->hist, (size_t)s->caphist * sizeof *s->hist);
		charge(s);
	}
	s->hist[step] = w;
	if (step + 1 > s->nhist)
		s->nhist = step + 1;
}

/* The initial state: a copy of the checkpoint, or built again when the
** copy did not fit the memory budget. */
static Machine *initial_state(const Dbg *s)
{
	if (s->ck[0])
		return sem_clone(s->ck[0]);
	Diags d;
	diag_init(&d, "", NULL, 0);
	Machine *m = sem_new(s->prog, &s->opt, &d); /* it was built once: it builds again */
	diag_free(&d);
	return m;
}

/* The state after `target` steps of the recorded schedule (target ≤ nhist),
** from the last checkpoint at or before `from` (the hook sees the steps
** after it); `outside` is charged to its budget beside what the session
** keeps. Stops early at an interrupt (when stoppable) or a failure. */
static Machine *rebuild(const Dbg *s, uint64_t from, uint64_t target, uint64_t outside, bool stoppable,
                        DbgStepHook hook, void *ctx)
{
	int32_t i = s->nck - 1;
	while (i > 0 && s->ckstep[i] > from)
		i--;
	Machine *m = i > 0 ? sem_clone(s->ck[i]) : initial_state(s);
	m->outside_bytes = s->ckbytes + (uint64_t)s->caphist * sizeof *s->hist + outside;
	StepInfo info;
	for (uint64_t k = s->ckstep[i]; k < target && m->status == SEM_RUNNING; k++) {
		if (stoppable && s->interrupt && *s->interrupt)
			break;
		int32_t w = DBG_CHOICE_WARP(s->hist[k]);
		sem_step_group(m, w, DBG_CHOICE_ALT(s->hist[k]), &info);
		sem_advance(m, w);
		if (hook)
			hook(ctx, m, &info);
	}
	return m;
}

/* ---- sessions --------------------------------------------------------------------- */

Dbg *dbg_new(const Program *p, const SemOptions *opt, Diags *d)
{
	Machine *m = sem_new(p, opt, d);
	if (!m)
		return NULL;
	Dbg *s = xcalloc(1, sizeof *s);
	s->prog = p;
	s->opt = *opt;
	s->m = m;
	s->ckstep[0] = 0;
	s->nck = 1;
	if (fits(s, sem_bytes(m))) { /* else the initial state is built again when needed */
		s->ck[0] = sem_clone(m);
		s->ckbytes = sem_bytes(m);
	}
	charge(s);
	s->interval = first_interval(s->m);
	s->forced_warp = -1;
	s->sched_cycle = -1;
	s->next_id = 1;
	return s;
}

void dbg_free(Dbg *s)
{
	if (!s)
		return;
	sem_free(s->m);
	for (int32_t i = 0; i < s->nck; i++)
		drop_checkpoint(s, i);
	for (int32_t i = 0; i < s->npoints; i++)
		point_forget(&s->points[i]);
	free(s->points);
	free(s->hist);
	free(s->sched);
	free(s);
}

void dbg_restart(Dbg *s)
{
	sem_free(s->m);
	s->m = NULL;
	drop_checkpoints_after(s, 0);
	s->m = initial_state(s);
	s->nhist = 0;
	s->interval = first_interval(s->m);
	s->failed_attempt = false;
	s->sched_on = s->sched != NULL;
	charge(s);
	snapshot_all(s);
}

/* The warp the followed schedule gives step k + 1, or -1. */
static DbgChoice sched_warp(const Dbg *s, uint64_t k)
{
	if (!s->sched_on)
		return -1;
	if (k < s->nsched)
		return s->sched[k];
	if (s->sched_cycle < 0 || (uint64_t)s->sched_cycle >= s->nsched)
		return -1;
	uint64_t c = s->nsched - (uint64_t)s->sched_cycle;
	return s->sched[(uint64_t)s->sched_cycle + (k - (uint64_t)s->sched_cycle) % c];
}

int32_t dbg_next_warp(const Dbg *s)
{
	const Machine *m = s->m;
	if (m->status != SEM_RUNNING)
		return -1;
	if (s->forced_warp >= 0)
		return s->forced_warp < m->nwarps && m->warps[s->forced_warp].status == WARP_RUN
		           ? s->forced_warp
		           : -1;
	if (m->steps < s->nhist)
		return DBG_CHOICE_WARP(s->hist[m->steps]); /* the recorded schedule */
	DbgChoice c = sched_warp(s, m->steps);
	if (c >= 0) {
		int32_t w = DBG_CHOICE_WARP(c);
		return w < m->nwarps && m->warps[w].status == WARP_RUN ? w : -1;
	}
	return sem_pick(m);
}

/* The alternative of the next step's choice (sem_step_group), or -1. */
static int32_t next_alt(const Dbg *s)
{
	const Machine *m = s->m;
	if (s->forced_warp >= 0)
		return -1;
	if (m->steps < s->nhist)
		return DBG_CHOICE_ALT(s->hist[m->steps]);
	DbgChoice c = sched_warp(s, m->steps);
	return c >= 0 ? DBG_CHOICE_ALT(c) : -1;
}

void dbg_set_schedule(Dbg *s, DbgChoice *warps, uint64_t n, int64_t cycle)
{
	free(s->sched);
	s->sched = warps;
	s->nsched = warps ? n : 0;
	s->sched_cycle = warps ? cycle : -1;
	s->forced_warp = -1;
	dbg_restart(s);
}

static DbgStop stop_of_status(const Machine *m, uint64_t steps)
{
	return (DbgStop){m->status == SEM_OK ? STOP_END : STOP_FAILED, -1, steps, NULL};
}

/* One step. Returns true when it was made and nothing asks to stop; else
** fills *stop. */
static bool step1(Dbg *s, DbgStepHook hook, void *ctx, DbgStop *stop)
{
	Machine *m = s->m;
	if (m->status != SEM_RUNNING) {
		*stop = stop_of_status(m, stop->steps);
		return false;
	}
	int32_t w = dbg_next_warp(s);
	if (w < 0 && s->forced_warp >= 0) {
		stop->kind = STOP_BLOCKED;
		stop->point = s->forced_warp;
		return false;
	}
	if (w < 0 && m->steps >= s->nhist && sched_warp(s, m->steps) >= 0) {
		stop->kind = STOP_BLOCKED; /* the schedule names a warp that cannot run */
		stop->point = DBG_CHOICE_WARP(sched_warp(s, m->steps));
		return false;
	}
	if (s->sched_on && m->steps >= s->nhist && w != DBG_CHOICE_WARP(sched_warp(s, m->steps)))
		s->sched_on = false; /* a forced warp leaves the schedule */
	if (w < 0) {
		sem_schedule(m); /* records the deadlock */
		s->failed_attempt = true;
		*stop = stop_of_status(m, stop->steps);
		return false;
	}
	int32_t alt = next_alt(s);
	if (m->steps < s->nhist && DBG_CHOICE_WARP(s->hist[m->steps]) != w) {
		/* a forced warp starts a new schedule from here: forget the recorded future */
		s->nhist = m->steps;
		drop_checkpoints_after(s, m->steps);
	}
	uint64_t before = m->steps;
	StepInfo info;
	sem_step_group(m, w, alt, &info);
	if (m->steps == before) {
		s->failed_attempt = true;
		*stop = stop_of_status(m, stop->steps); /* stuck: the state is unchanged */
		return false;
	}
	sem_advance(m, w);
	record(s, before, DBG_CHOICE(w, alt));
	maybe_checkpoint(s);
	stop->steps++;
	if (hook)
		hook(ctx, m, &info);
	char *detail = NULL;
	int32_t id = check_watches(s, w, &detail);
	if (id >= 0) {
		*stop = (DbgStop){STOP_WATCH, id, stop->steps, detail};
		return false;
	}
	if (m->status != SEM_RUNNING) {
		*stop = stop_of_status(m, stop->steps);
		return false;
	}
	return true;
}

/* Has the command's deadline passed? The clock is read only every so many
** steps or thread instructions (the first call of a command reads it). */
static bool past_deadline(Dbg *s)
{
	if (s->clock_countdown > 0) {
		s->clock_countdown--;
		return false;
	}
	/* about SEM_CLOCK_WORK thread instructions between two readings */
	uint64_t every = SEM_CLOCK_WORK / (uint64_t)s->m->nthreads;
	s->clock_countdown = every < 1 ? 1 : every > SEM_CLOCK_STEPS ? SEM_CLOCK_STEPS : every;
	return mono_seconds() >= s->deadline;
}

void dbg_set_deadline(Dbg *s, double seconds)
{
	s->deadline = seconds > 0 ? mono_seconds() + seconds : 0;
	s->clock_countdown = 0;
}

/* Before a step other than a command's first: a breakpoint at the warp that
** issues next, an interrupt, or the deadline. */
static bool must_stop(Dbg *s, DbgStop *stop)
{
	if (s->interrupt && *s->interrupt) {
		*s->interrupt = 0;
		stop->kind = STOP_INTERRUPT;
		return true;
	}
	if (s->deadline > 0 && past_deadline(s)) {
		stop->kind = STOP_TIME;
		return true;
	}
	int32_t w = dbg_next_warp(s);
	if (w < 0)
		return false;
	int32_t pc = s->m->warps[w].pc;
	for (int32_t i = 0; i < s->npoints; i++) {
		DbgPoint *pt = &s->points[i];
		if (pt->kind == POINT_BREAK && pt->pc == pc) {
			pt->hits++;
			stop->kind = STOP_BREAK;
			stop->point = pt->id;
			return true;
		}
	}
	return false;
}

DbgStop dbg_step(Dbg *s, uint64_t n, DbgStepHook hook, void *ctx)
{
	DbgStop stop = {STOP_DONE, -1, 0, NULL};
	for (uint64_t i = 0; i < n; i++) {
		if (i > 0 && must_stop(s, &stop))
			break;
		if (!step1(s, hook, ctx, &stop))
			break;
	}
	return stop;
}

static DbgStop run_on(Dbg *s, bool check_first, DbgStepHook hook, void *ctx)
{
	DbgStop stop = {STOP_DONE, -1, 0, NULL};
	for (bool first = true;; first = false) {
		if ((check_first || !first) && must_stop(s, &stop))
			break;
		if (!step1(s, hook, ctx, &stop))
			break;
	}
	return stop;
}

DbgStop dbg_continue(Dbg *s, DbgStepHook hook, void *ctx)
{
	return run_on(s, false, hook, ctx);
}

DbgStop dbg_run(Dbg *s, DbgStepHook hook, void *ctx)
{
	dbg_restart(s);
	return run_on(s, true, hook, ctx);
}

/* Has warp wi reconverged after the branch it issued with the threads in
** group (ipdom, mimd): at R with every one of them still live active. */
static bool reconverged(const Machine *m, int32_t wi, int32_t R, const uint64_t *group)
{
	const Warp *w = &m->warps[wi];
	if (w->status == WARP_DONE)
		return true;
	if (R < 0 || w->pc != R || w->status != WARP_RUN)
		return false;
	for (int32_t k = 0; k < w->nw; k++)
		if (group[k] & w->live[k] & ~w->active[k])
			return false;
	return true;
}

DbgStop dbg_next(Dbg *s, DbgStepHook hook, void *ctx)
{
	DbgStop stop = {STOP_DONE, -1, 0, NULL};
	int32_t wi = dbg_next_warp(s);
	if (wi < 0 || !ir_is_branch((Op)s->prog->ins[s->m->warps[wi].pc].op))
		return dbg_step(s, 1, hook, ctx);
	const Warp *w = &s->m->warps[wi];
	int32_t pc = w->pc;
	int32_t depth = sem_stack_depth(s->m, wi);
	const Model *md = s->m->model;
	int32_t R = md->reconvergence_pc ? md->reconvergence_pc(s->m, pc) : cfg_ipdom_pc(s->prog->cfg, pc);
	uint64_t *group = xmalloc((size_t)w->nw * sizeof *group);
	memcpy(group, w->active, (size_t)w->nw * sizeof *group);
	/* a model that nests regions in its stack (sync) says at which depth
	** the branch's region has ended; otherwise: back at the ipdom (or the
	** point the model reconverges at) */
	bool nested = md->region_depth != NULL;
	if (nested)
		depth = md->region_depth(w, pc);
	if (step1(s, hook, ctx, &stop)) {
		while (nested ? sem_stack_depth(s->m, wi) > depth && s->m->warps[wi].status != WARP_DONE
		              : !reconverged(s->m, wi, R, group)) {
			if (must_stop(s, &stop) || !step1(s, hook, ctx, &stop))
				break;
		}
	}
	free(group);
	return stop;
}

static void move_to(Dbg *s, uint64_t target)
{
	/* the current state goes first: the two never coexist */
	sem_free(s->m);
	s->m = rebuild(s, target, target, 0, false, NULL, NULL);
	s->failed_attempt = false;
	snapshot_all(s);
}

DbgStop dbg_back(Dbg *s, uint64_t n)
{
	uint64_t now = s->m->steps;
	bool failed = s->m->status != SEM_RUNNING && s->m->status != SEM_OK;
	/* an attempt that failed (stuck, step limit, deadlock) made no step: the
	** first step back undoes just the failure. A failure that came with a
	** step (a race under --races=error) is undone with the step. */
	if (failed && s->failed_attempt && n > 0)
		n--;
	else
		failed = false;
	uint64_t k = n < now ? n : now;
	if (k == 0 && !failed)
		return (DbgStop){STOP_START, -1, 0, NULL};
	move_to(s, now - k);
	return (DbgStop){now - k == 0 ? STOP_START : STOP_DONE, -1, k, NULL};
}

DbgStop dbg_goto(Dbg *s, uint64_t step, DbgStepHook hook, void *ctx)
{
	uint64_t now = s->m->steps;
	if (step < now || (step == now && s->m->status != SEM_RUNNING && step <= s->nhist)) {
		move_to(s, step);
		return (DbgStop){step == 0 ? STOP_START : STOP_DONE, -1, now - step, NULL};
	}
	if (step == now)
		return (DbgStop){STOP_DONE, -1, 0, NULL};
	return dbg_step(s, step - now, hook, ctx);
}

bool dbg_replay(const Dbg *s, uint64_t from, DbgStepHook hook, void *ctx)
{
	uint64_t to = s->m->steps;
	/* the copy replays beside the machine: it counts towards the budget */
	Machine *m = rebuild(s, from ? from - 1 : 0, to, sem_bytes(s->m), true, hook, ctx);
	bool all = m->steps == to;
	sem_free(m);
	return all;
}

/* ---- points ----------------------------------------------------------------------- */

static DbgPoint *new_point(Dbg *s, DbgPointKind kind)
{
	DbgPoint pt = {.id = s->next_id++, .kind = kind, .pc = -1, .var = -1};
	VEC_PUSH(s->points, s->npoints, s->cappoints, pt);
	return &s->points[s->npoints - 1];
}

int32_t dbg_break(Dbg *s, int32_t pc)
{
	DbgPoint *pt = new_point(s, POINT_BREAK);
	pt->pc = pc;
	return pt->id;
}

int32_t dbg_watch_var(Dbg *s, int32_t var)
{
	DbgPoint *pt = new_point(s, POINT_WATCH_VAR);
	pt->var = var;
	point_snapshot(s, pt);
	return pt->id;
}

int32_t dbg_watch_mem(Dbg *s, int64_t addr)
{
	DbgPoint *pt = new_point(s, POINT_WATCH_MEM);
	pt->addr = addr;
	point_snapshot(s, pt);
	return pt->id;
}

bool dbg_delete(Dbg *s, int32_t id)
{
	bool found = false;
	int32_t j = 0;
	for (int32_t i = 0; i < s->npoints; i++) {
		if (id < 0 || s->points[i].id == id) {
			point_forget(&s->points[i]);
			found = true;
		} else {
			s->points[j++] = s->points[i];
		}
	}
	s->npoints = j;
	return found;
}

const DbgPoint *dbg_point(const Dbg *s, int32_t id)
{
	for (int32_t i = 0; i < s->npoints; i++)
		if (s->points[i].id == id)
			return &s->points[i];
	return NULL;
}

/* ---- threads ---------------------------------------------------------------------- */

const char *dbg_thread_state_name(ThreadState st)
{
	static const char *const names[] = {"active", "deferred", "waiting", "at barrier", "done"};
	return names[st];
}

ThreadState dbg_thread_state(const Machine *m, int32_t t, int32_t *pc)
{
	int32_t wi = m->model->warps_of_one ? t : t / m->warpsize;
	const Warp *w = &m->warps[wi];
	int32_t l = t - w->base;
	*pc = -1;
	if (!bit_get(w->live, l))
		return THREAD_DONE;
	if (bit_get(w->active, l)) {
		*pc = w->pc;
		return w->status == WARP_BARRIER ? THREAD_BARRIER : THREAD_ACTIVE;
	}
	if (m->model->lane_held) {
		CtlWait held = m->model->lane_held(w, l, pc);
		if (held != CTL_NOT_HELD)
			return held == CTL_WAITING ? THREAD_WAITING : held == CTL_AT_BARRIER ? THREAD_BARRIER : THREAD_DEFERRED;
	}
	return w->status == WARP_BARRIER ? THREAD_BARRIER : THREAD_DONE;
}
