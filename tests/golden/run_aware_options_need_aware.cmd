# the aware options under another model: a usage error
run examples/spin_lock.simd --model ipdom --aware-timeout 3
