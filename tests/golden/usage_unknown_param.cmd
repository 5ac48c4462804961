run examples/sum_triangle.simd --param nope=3
