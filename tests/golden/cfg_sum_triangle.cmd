cfg examples/sum_triangle.simd
