run examples/tid_loop.simd --profile
