repl --echo examples/sum_triangle.simd
