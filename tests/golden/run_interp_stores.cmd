run tests/golden/interp_stores.simd --all
