run tests/golden/interp_atomics.simd --all
