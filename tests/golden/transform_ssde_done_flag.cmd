transform ssde examples/done_flag.simd
