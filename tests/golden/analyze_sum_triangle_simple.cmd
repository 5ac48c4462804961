# seed 001 digest §5.5, simple column (T8): d1, d2, p1 (here q.0) uniform
analyze examples/sum_triangle.simd --domain simple
