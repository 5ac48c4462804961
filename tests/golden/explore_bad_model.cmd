explore examples/spin_lock.simd --model simt
