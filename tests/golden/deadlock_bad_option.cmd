deadlock examples/spin_lock.simd --threds 2
