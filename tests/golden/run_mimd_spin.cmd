run examples/spin_lock.simd --model mimd --quiet
