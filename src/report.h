/*
** report.h — how a run is shown: the final state and measures (text and
** JSON, cli.md), one trace line per step, the ✓/• grid of seed 001
** Figure 3.4, the divergence profile, and run-time errors in GNU style.
** Everything is formatted into a Buf; main.c and repl.c print it.
*/
#ifndef MUSIMD_REPORT_H
#define MUSIMD_REPORT_H

#include "ana.h"
#include "explore.h"
#include "json.h"
#include "sem.h"

/* The widths of the text columns of a run's steps (trace lines, grid rows,
** the REPL's step lines), measured once (linear in the program) so that
** no column overflows: the step numbers up to last (the largest step the
** caller will show, e.g. the step limit), the widest label or "@LINE",
** the widest instruction (up to a cap: a longer one pushes its line), and
** the widest "where: instruction" of a trace line. */
typedef struct ReportCols {
	int32_t step, warp, where, ins, where_ins;
	int32_t prefix; /* columns the caller writes before the step number (sm: the cycle); 0 */
} ReportCols;
void report_cols(ReportCols *c, const Machine *m, uint64_t last);

/* One trace line: step, warp, where, instruction, rule, Θ, stack after. */
void report_trace_line(Buf *b, const ReportCols *c, const Machine *m, const StepInfo *s);

/* run --json --trace streams the trace, which can be large (one object per
** step), ahead of the rest, which is known only at the end:
** report_json_trace_begin opens the result object and its "trace" array,
** report_trace_json appends a step (the caller may write out and reset j's
** buffer between steps), and report_run_json closes the array, says whether
** the trace is complete, and writes the other keys. Sets of threads are
** ranges, [[first, last], ...]. */
typedef struct TraceEnd {
	uint64_t limit; /* the trace's step limit; 0: none */
	bool complete;  /* false: the limit cut the trace short */
} TraceEnd;
void report_json_trace_begin(Json *j);
void report_trace_json(Json *j, const Machine *m, const StepInfo *s);
/* The same with the cycle and the warp scheduler of an issue first (`musimd
** sm --json --trace`). */
void report_trace_json_at(Json *j, const Machine *m, const StepInfo *s, int64_t cycle, int32_t sched);

/* The ✓/• grid: a row per step, a column per thread (✓: the thread was in
** Θ when the step began). */
void report_grid_header(Buf *b, const ReportCols *c, const Machine *m);
void report_grid_row(Buf *b, const ReportCols *c, const Machine *m, const StepInfo *s);

/* "4 threads in 1 warp of 4", "8 threads, each its own warp" (mimd). */
void report_shape(Buf *b, const Machine *m);

/* Final state (Σ cells written or initialised, each thread's variables,
** local memory) and the measures of semantics.md §7; with profile, the
** divergence map (visits and divergences per branch) and block executions. */
void report_run_text(Buf *b, const Machine *m, bool profile, bool state, bool all);
/* Without `all`, text output shows at most this many threads per variable
** and this many rows of memory, and says what it left out. */
#define REPORT_TEXT_LIMIT 64
/* The measures of semantics.md §7 (steps, thread instructions, SIMD
** efficiency, stack depth, races), one line; then how often each rule
** fired ("rules: BT 2 BF 2 ..."), one line. */
void report_measures(Buf *b, const Machine *m);
void report_rule_counts(Buf *b, const Machine *m);
/* run --json (musimd(1) OUTPUT): the whole object, or with trace the rest
** of the object report_json_trace_begin opened. */
void report_run_json(Json *j, const Machine *m, const TraceEnd *trace);

/* The run-time error (stuck, step limit, deadlock) as a GNU diagnostic with
** the source line, then notes naming the threads and the stack. */
void report_error(Buf *b, const Machine *m);
/* One warning per data race. */
void report_races(Buf *b, const Machine *m);

/* One step as the REPL shows it: step, [warp,] where, instruction, the
** rule, then the warp afterwards: its active set and what waits on the
** top of its stack ("deferred {0} → l15", "waiting {3} at l15"). */
void report_step_line(Buf *b, const ReportCols *c, const Machine *m, const StepInfo *s);

/* analyze's text report (cli.md): a line per listed variable (class and
** abstract value), then a line per conditional branch. */
void report_analysis_text(Buf *b, const Program *g, const AnaResult *r, bool ascii);
/* The same, written out as it goes (Sink, util.h). */
void report_analysis_text_to(Buf *b, const Program *g, const AnaResult *r, bool ascii, const Sink *sink);

/* explore: the counterexample of r (deadlock, livelock), replayed from the
** initial state through sem_step, one trace line per step (the cycle
** marked; a deadlock ends with its error). JSON: the "counterexample"
** object of cli.md. Both return false when the replay does not end as the
** verdict says (an internal error the caller reports). */
bool report_explore_trace(Buf *b, const Program *p, const SemOptions *so, const ExploreResult *r);
bool report_explore_counterexample_json(Json *j, const Program *p, const SemOptions *so,
                                        const ExploreResult *r);

#endif
