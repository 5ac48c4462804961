# analyze reads the program from standard input too
analyze -
