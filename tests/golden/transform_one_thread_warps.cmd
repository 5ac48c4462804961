transform ssde examples/spin_lock_warps.simd
