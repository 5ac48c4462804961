/*
** args.h — the machine settings a user types: parameter values and initial
** shared memory, as `musimd run`/`analyze --verify` options (--param,
** --data) and as the REPL's `param`/`data` commands. Parsed in one place;
** a SemArgs owns what it holds and lends it to SemOptions.
*/
#ifndef MUSIMD_ARGS_H
#define MUSIMD_ARGS_H

#include "ana.h"
#include "sem.h"

/* --max-memory's largest value, in MiB */
#define ARGS_MAX_MEMORY_MIB (1LL << 40)

typedef struct SemArgs {
	ParamSetting *params; /* names owned */
	int32_t nparams, capparams;
	MemInit *data;
	int32_t ndata, capdata;
	char *aware_delay; /* --aware-delay, the entries given so far joined by commas */
} SemArgs;

/* NAME=INT (a parameter given again takes the new value). NULL, or what is
** wrong as a message starting with `what` ("--param needs NAME=INT, ..."). */
const char *args_param(SemArgs *a, const char *what, const char *arg);
/* ADDR=INT[,INT...]: the cells from ADDR on, after the earlier ones. NULL, or
** what is wrong (then nothing is added). */
const char *args_data(SemArgs *a, const char *what, const char *arg);
/* The degree of the polynomial analysis, 0..ANA_MAX_DEGREE (`analyze
** --degree` and the REPL's `analyze`): NULL, or what is wrong. */
const char *args_degree(const char *what, const char *text, int32_t *degree);
/* --max-memory MiB (run, analyze --verify, repl; the REPL's `set
** max-memory`) as bytes: NULL, or what is wrong. */
const char *args_max_memory(const char *what, const char *text, uint64_t *bytes);
/* --max-time SECONDS (run, analyze --verify, explore, sm; the REPL's `set
** max-time`): a positive number of seconds up to 10^9, fractions allowed.
** NULL, or what is wrong. */
const char *args_max_time(const char *what, const char *text, double *secs);
/* --max-thread-instructions N (run, analyze --verify, sm): N from 1 up.
** NULL, or what is wrong. */
const char *args_max_work(const char *what, const char *text, uint64_t *n);
/* --aware-delay BRANCH:POINT[,...] (repeatable: the entries add up; the
** REPL's `set aware-delay`); "off" forgets them. The program checks them
** (sem_new). */
void args_aware_delay(SemArgs *a, const char *arg);
/* --aware-timeout T|any|off: T from 1 to ARGS_MAX_TIMEOUT steps, any
** (SEM_TIMEOUT_ANY), off (0). NULL, or what is wrong. */
#define ARGS_MAX_TIMEOUT 1000000000LL
const char *args_aware_timeout(const char *what, const char *text, int64_t *timeout);
void args_drop_param(SemArgs *a, int32_t i);
void args_clear_data(SemArgs *a);
/* o's params and data are a's (borrowed while a lives). */
void args_lend(const SemArgs *a, SemOptions *o);
void args_free(SemArgs *a);

#endif
