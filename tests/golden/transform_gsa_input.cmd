transform ssde examples/sum_triangle_gsa.simd
