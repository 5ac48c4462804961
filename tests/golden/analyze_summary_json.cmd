# --json --summary: the summary as one object (it was dropped)
analyze --json --summary examples/sum_triangle.simd examples/avg_square.simd examples/row_init.simd
