deadlock examples/spin_lock.simd --warpsize 0
