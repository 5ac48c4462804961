repl --echo --threads 2 --model ipdom --param c=2 examples/sum_triangle.simd
