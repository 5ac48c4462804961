run examples/spin_lock.simd --max-steps 60 --trace --quiet
