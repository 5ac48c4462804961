# a misspelt policy: usage error with a did-you-mean
explore --model its:minpx examples/spin_lock.simd
