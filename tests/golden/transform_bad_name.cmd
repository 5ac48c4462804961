transform ssd examples/spin_lock.simd
