run examples/sum_triangle.simd
