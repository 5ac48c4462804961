deadlock examples/spin_lock.simd --json
