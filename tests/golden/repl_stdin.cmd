# the program from standard input: the commands would come from the terminal; without one the session ends
repl --echo -
