# a misspelt option: usage error with the closest one
emit-promela examples/spin_lock.simd --therads 2
