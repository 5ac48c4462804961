# seed 004 §2.2: the spin lock of one warp livelocks under the stacks (SIMT-induced), not under mimd
explore examples/spin_lock.simd --threads 2
