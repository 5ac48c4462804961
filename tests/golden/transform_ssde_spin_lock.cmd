transform ssde examples/spin_lock.simd
