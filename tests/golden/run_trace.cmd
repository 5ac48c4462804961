run examples/sum_triangle.simd --trace --quiet
