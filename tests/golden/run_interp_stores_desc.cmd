run tests/golden/interp_stores.simd --all --lane-order descending --races error
