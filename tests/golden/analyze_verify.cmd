# the oracle: 8 runs (1..8 threads); runs with more than 4 threads read beyond m and get stuck (not violations)
analyze examples/sum_triangle.simd --verify
