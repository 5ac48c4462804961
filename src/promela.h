/*
** promela.h — `musimd emit-promela` (explore.md §5): a program under the
** mimd model as a Promela model, so that SPIN can decide, for the same
** program and configuration as `musimd explore --model mimd`, whether every
** thread finishes on every fair run.
**
** The model: one process per thread, the variables as process-local ints,
** Σ as a global array over the cells the program can touch (bounded by an
** interval analysis of the addresses), local memory as an array per process,
** one instruction as one step (atomics as atomic { } blocks), the barrier as
** a counter of the live threads that wait, a stuck step as a failing
** assertion on `stuck`, a value outside int32 as a failing assertion on
** `int32_overflow`, and termination as `ltl terminates { <> (nfin == NT) }`.
** musimd(1) (emit-promela) gives the SPIN commands and how their answers
** read as the explorer's verdicts; docs/semantics.md says why.
*/
#ifndef MUSIMD_PROMELA_H
#define MUSIMD_PROMELA_H

#include "sem.h"

/* SPIN runs at most 255 processes: init and one per thread. */
#define PML_MAX_THREADS 254
/* Cells of Σ plus local cells of all threads the model may hold. */
#define PML_MAX_CELLS 65536

typedef enum PmlStatus {
	PML_OK,           /* the model is in b */
	PML_SETTINGS,     /* the options do not fit the program (--param naming no parameter, ...):
	                  ** errors without a location in d, as `run` reports them */
	PML_UNEXPORTABLE, /* the program cannot be modelled: errors in d (a literal or value
	                  ** outside int32, addresses that cannot be bounded, too many threads) */
} PmlStatus;

/* Append the Promela model of p (validated: p->cfg set) to b. Of opt only
** the machine is read: threads, warpsize, params and data, as `run` takes
** them; the model is always mimd. */
PmlStatus promela_emit(Buf *b, const Program *p, const SemOptions *opt, Diags *d);

#endif
