run examples/sum_triangle.simd --grid --quiet
