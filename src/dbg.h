/*
** dbg.h — a debugging session over the one step function: the state the
** REPL (repl.c) drives and the unit tests drive the same way.
**
** A session owns a machine and remembers the schedule it went through (the
** warp of every step) plus checkpoints (clones of the machine every so many
** steps), so it can go back to any earlier step: it restores the nearest
** checkpoint and replays the recorded warps with sem_step — the semantics
** is deterministic given the state and the warp, so the replayed states are
** the ones passed through. The first interval between checkpoints is
** sized to the machine (dbg.c, first_interval). Checkpoints are thinned as
** a run grows (at most
** DBG_MAX_CHECKPOINTS), so memory stays bounded and going back costs at
** most one checkpoint interval of steps. The checkpoints and the recorded
** schedule count against the machine's --max-memory budget
** (Machine.outside_bytes): they are thinned before it is exceeded.
**
** Stepping stops at breakpoints (before the instruction at a label or line
** issues) and watchpoints (after a step that changed a variable in some
** thread, or a memory cell). Nothing here prints: stops come back as
** values, with their detail rendered into strings.
*/
#ifndef MUSIMD_DBG_H
#define MUSIMD_DBG_H

#include <signal.h>

#include "sem.h"

#define DBG_MAX_CHECKPOINTS 64
#define DBG_FIRST_INTERVAL 64
#define DBG_CK_WORK 16      /* an interval's work against one checkpoint's copy */
#define DBG_STEP_LANES 256  /* a step's fixed part, in lanes */

typedef enum DbgPointKind { POINT_BREAK, POINT_WATCH_VAR, POINT_WATCH_MEM } DbgPointKind;

/* A breakpoint or watchpoint, numbered like gdb's (one sequence for both). */
typedef struct DbgPoint {
	int32_t id;
	DbgPointKind kind;
	int32_t pc;    /* POINT_BREAK */
	int32_t var;   /* POINT_WATCH_VAR */
	int64_t addr;  /* POINT_WATCH_MEM */
	uint64_t hits;
	/* what the watched thing held at the last stop (per thread for a variable) */
	Num *old;
	uint8_t *olddef;
	int32_t nold;
} DbgPoint;

typedef enum DbgStopKind {
	STOP_DONE,      /* the requested steps were made */
	STOP_END,       /* every warp finished (SEM_OK) */
	STOP_FAILED,    /* stuck, step limit, deadlock: the machine holds the error */
	STOP_BREAK,     /* at a breakpoint, before its instruction */
	STOP_WATCH,     /* a watched variable or cell changed */
	STOP_INTERRUPT, /* *interrupt was set (Ctrl-C) */
	STOP_START,     /* going back reached the initial state */
	STOP_BLOCKED,   /* the chosen warp (forced or scheduled; in point) cannot run */
	STOP_TIME,      /* the command's deadline (Dbg.deadline) passed: the state is
	                ** kept and can go on, it did not fail */
} DbgStopKind;

typedef struct DbgStop {
	DbgStopKind kind;
	int32_t point;   /* STOP_BREAK, STOP_WATCH: the point's id */
	uint64_t steps;  /* steps made (or undone) by the command */
	char *detail;    /* STOP_WATCH: "d: t1 1 → 2, t2 ..." (owned, may be NULL) */
} DbgStop;

void dbg_stop_free(DbgStop *s);

/* An entry of a schedule (Dbg.hist, Dbg.sched): the warp (below bit 23),
** and above it the alternative of its choice plus one (sem_step_group: the
** group under its:any, the side run first under ipdom --path-order both,
** and the outcome of the lanes' order, which takes up to 31 bits; 0: none). */
typedef int64_t DbgChoice;
#define DBG_CHOICE(w, alt) ((DbgChoice)(w) + ((DbgChoice)(alt) + 1) * ((DbgChoice)1 << 23))
#define DBG_CHOICE_WARP(c) ((int32_t)((c) & ((1 << 23) - 1)))
#define DBG_CHOICE_ALT(c) ((int32_t)(((c) >> 23) - 1))

typedef struct Dbg {
	const Program *prog;
	SemOptions opt;           /* params/data borrowed from the caller */
	Machine *m;               /* the current state */
	/* the schedule so far: hist[i] is the warp that made step i + 1 (with
	** its alternative, DBG_CHOICE); entries beyond m->steps are the
	** recorded future after going back */
	DbgChoice *hist;
	uint64_t nhist, caphist;
	/* clones of the machine at steps ckstep[i] (ck[0] is the initial state) */
	Machine *ck[DBG_MAX_CHECKPOINTS + 1];
	uint64_t ckstep[DBG_MAX_CHECKPOINTS + 1];
	int32_t nck;
	uint64_t ckbytes;         /* sem_bytes of the checkpoints */
	uint64_t interval;        /* steps between checkpoints */
	bool failed_attempt;      /* the machine failed on a step it did not make */
	int32_t forced_warp;      /* -1: the round-robin scheduler picks */
	/* a schedule to follow (musimd explore's counterexamples): the warp of
	** step k + 1 is sched[k]; past its end, sched[sched_cycle ..] again and
	** again when sched_cycle >= 0; sched_on until a step leaves it */
	DbgChoice *sched;
	uint64_t nsched;
	int64_t sched_cycle;
	bool sched_on;
	DbgPoint *points;
	int32_t npoints, cappoints, next_id;
	volatile sig_atomic_t *interrupt; /* set asynchronously to stop a long command */
	/* mono_seconds() at which a command stops (STOP_TIME; dbg_set_deadline),
	** 0: never; the clock is read about every SEM_CLOCK_WORK thread
	** instructions (at most every SEM_CLOCK_STEPS steps) */
	double deadline;
	uint64_t clock_countdown; /* must_stop calls before the next clock reading */
} Dbg;

/* A session on p (which must have a cfg) with options opt; NULL and
** diagnostics in d when the machine cannot be built. */
Dbg *dbg_new(const Program *p, const SemOptions *opt, Diags *d);
void dbg_free(Dbg *s);
/* Back to the initial state; breakpoints and watchpoints stay. */
void dbg_restart(Dbg *s);

/* The warp the next step issues from: the forced one, else the recorded
** or followed schedule's, else the scheduler's choice; -1 when none can run. */
int32_t dbg_next_warp(const Dbg *s);

/* Follow a schedule from the start (takes warps, n DBG_CHOICE entries; cycle: the
** index where a cycle repeated for ever begins, or -1); NULL: none, the
** round-robin scheduler. The session restarts. */
void dbg_set_schedule(Dbg *s, DbgChoice *warps, uint64_t n, int64_t cycle);

/* Up to n warp instructions (one at a time through sem_step); info, when
** not NULL, gets each step (call it with the machine after that step). */
typedef void (*DbgStepHook)(void *ctx, const Machine *m, const StepInfo *info);
DbgStop dbg_step(Dbg *s, uint64_t n, DbgStepHook hook, void *ctx);
/* One step, or, at a conditional branch, the whole region up to its
** reconvergence point: under sync the pop of the node the branch pushed
** (SP); under ipdom and mimd the arrival of the warp at the branch's
** immediate post-dominator with the threads that took the branch. */
DbgStop dbg_next(Dbg *s, DbgStepHook hook, void *ctx);
/* Until a breakpoint, a watchpoint, the end or a failure. */
DbgStop dbg_continue(Dbg *s, DbgStepHook hook, void *ctx);
/* From the initial state (dbg_restart) until a breakpoint (one at the
** first instruction included), a watchpoint, the end or a failure. */
DbgStop dbg_run(Dbg *s, DbgStepHook hook, void *ctx);
/* n steps back (replaying from a checkpoint); STOP_START at step 0. From a
** failed state (stuck, step limit, deadlock) the first step back is to the
** state before the failed instruction, with the same step count. */
DbgStop dbg_back(Dbg *s, uint64_t n);
/* To the state after exactly `step` steps (back, or forward along the
** recorded schedule and then the scheduler). */
DbgStop dbg_goto(Dbg *s, uint64_t step, DbgStepHook hook, void *ctx);
/* Replay the steps so far on a copy, from the last checkpoint before step
** `from`, calling hook for each (the grid, the trace so far; the hook sees
** the steps before `from` back to that checkpoint too); the session is not
** changed. False when the replay stopped early: an interrupt, or the copy
** would exceed the memory budget beside the session. */
bool dbg_replay(const Dbg *s, uint64_t from, DbgStepHook hook, void *ctx);

/* The next command stops after `seconds` (STOP_TIME; the REPL's `set
** max-time`); 0: no limit. Call before each command. */
void dbg_set_deadline(Dbg *s, double seconds);

/* Points. Returns the new id. */
int32_t dbg_break(Dbg *s, int32_t pc);
int32_t dbg_watch_var(Dbg *s, int32_t var);
int32_t dbg_watch_mem(Dbg *s, int64_t addr);
/* Delete point id (false if there is none); id < 0 deletes all. */
bool dbg_delete(Dbg *s, int32_t id);
const DbgPoint *dbg_point(const Dbg *s, int32_t id);

/* Where a thread is, for `print` and `info threads`. */
typedef enum ThreadState {
	THREAD_ACTIVE,   /* in Θ of its warp */
	THREAD_DEFERRED, /* in Θ_todo of a node (sync) / a waiting SIMT-stack entry (ipdom) */
	THREAD_WAITING,  /* in Θ_done of a node: arrived at the sync, waits for the others
	                 ** (ipdom: in the entry waiting at the reconvergence point) */
	THREAD_BARRIER,  /* its warp waits at the barrier */
	THREAD_DONE,     /* finished (stop) or exited */
} ThreadState;
const char *dbg_thread_state_name(ThreadState s); /* "active", "deferred", ... */
/* The state of thread t and the pc it will resume at (-1: none or the exit). */
ThreadState dbg_thread_state(const Machine *m, int32_t t, int32_t *pc);

#endif
