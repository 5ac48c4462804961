/*
** repl.h — `musimd repl`: the interactive stepper (musimd-repl(1)).
*/
#ifndef MUSIMD_REPL_H
#define MUSIMD_REPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Runs the REPL with the command line of `musimd repl` (argv[0] is
** "repl"); returns the exit status. */
int repl_main(int argc, char **argv);

/* ---- a session without a terminal (the fuzz target fuzz/fuzz_repl.c) ---------- */

/* Ceilings a confined session keeps whatever its commands ask (0: none):
** a command asking for more fails with a message. */
typedef struct ReplLimits {
	uint64_t max_steps;   /* `set max-steps`, and the default */
	uint64_t max_memory;  /* `set max-memory` (bytes), and the default */
	int32_t max_threads;  /* `threads`, and the program's .threads */
	bool no_files;        /* `load` and `reload` read no file */
} ReplLimits;

typedef struct Repl Repl;

Repl *repl_new(const ReplLimits *lim);
void repl_free(Repl *r);
/* Load a program from text (named `name` in messages); false on errors
** (the diagnostics are in the output). */
bool repl_load_source(Repl *r, const char *name, const char *src, size_t len);
/* Run one command line (an empty one repeats the last step, next, continue
** or back); false once the session has ended (quit). */
bool repl_exec(Repl *r, const char *line);
/* Move what the session printed so far to out. */
void repl_take_output(Repl *r, Buf *out);

#endif
