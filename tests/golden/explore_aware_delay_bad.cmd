# --aware-delay names a block that does not end with a conditional branch: the place, the source line, exit 2
explore examples/spin_lock.simd --model aware --aware-delay lock:@16,@12:@16
