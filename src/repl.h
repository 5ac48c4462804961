/*
** repl.h — `musimd repl`: the interactive stepper (musimd-repl(1)).
*/
#ifndef MUSIMD_REPL_H
#define MUSIMD_REPL_H

/* Runs the REPL with the command line of `musimd repl` (argv[0] is
** "repl"); returns the exit status. */
int repl_main(int argc, char **argv);

#endif
