# a --param the program does not declare is a usage error, with a suggestion
repl --param cc=2 examples/sum_triangle.simd
