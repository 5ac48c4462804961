run tests/golden/interp_atomics.simd --max-cells 3
