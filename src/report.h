/*
** report.h — how a run is shown: the final state and measures (text and
** JSON, cli.md), one trace line per step, the ✓/• grid of seed 001
** Figure 3.4, the divergence profile, and run-time errors in GNU style.
** Everything is formatted into a Buf; main.c and repl.c print it.
*/
#ifndef MUSIMD_REPORT_H
#define MUSIMD_REPORT_H

#include "ana.h"
#include "json.h"
#include "sem.h"

/* One trace line: step, warp, where, instruction, rule, Θ, stack after. */
void report_trace_line(Buf *b, const Machine *m, const StepInfo *s);
/* The same step as one JSON object (for run --trace --json). */
void report_trace_json(Buf *b, const Machine *m, const StepInfo *s);

/* The ✓/• grid: a row per step, a column per thread (✓: the thread was in
** Θ when the step began). */
void report_grid_header(Buf *b, const Machine *m);
void report_grid_row(Buf *b, const Machine *m, const StepInfo *s);

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
/* cli.md "run --json"; trace is a rendered JSON array or NULL. */
void report_run_json(Buf *b, const Machine *m, const char *trace);

/* The run-time error (stuck, step limit, deadlock) as a GNU diagnostic with
** the source line, then notes naming the threads and the stack. */
void report_error(Buf *b, const Machine *m);
/* One warning per data race. */
void report_races(Buf *b, const Machine *m);

/* One step as the REPL shows it: step, [warp,] where, instruction, the
** rule, then the warp afterwards: its active set and what waits on the
** top of its stack ("deferred {0} → l15", "waiting {3} at l15"). */
void report_step_line(Buf *b, const Machine *m, const StepInfo *s);

/* analyze's text report (cli.md): a line per listed variable (class and
** abstract value), then a line per conditional branch. */
void report_analysis_text(Buf *b, const Program *g, const AnaResult *r, bool ascii);

#endif
