# run --trace under aware: the splits table in FIFO order (PC, RPC, mask, R-Index), then the reconvergence table (index, PC, RPC, reconvergence mask, pending mask, R-Index)
run examples/spin_lock.simd --model aware --aware-delay lock:@16 --threads 2 --trace
