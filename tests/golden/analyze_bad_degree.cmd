analyze --degree x examples/sum_triangle.simd
