run examples/barrier_divergent.simd --trace --quiet
