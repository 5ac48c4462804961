run examples/does_not_exist.simd
