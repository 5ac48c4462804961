# --aware-delay with a misspelt label: did you mean, exit 2
run examples/spin_lock.simd --model aware --aware-delay lok:@16
