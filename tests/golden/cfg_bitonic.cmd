cfg examples/bitonic.simd
