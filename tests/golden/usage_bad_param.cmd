run examples/sum_triangle.simd --param c
