run tests/golden/addr_past_int64.simd
