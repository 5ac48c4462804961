explore examples/spin_lock.simd --path-order both
