# a misspelt place in --aware-delay: a usage error before the session starts, with a did-you-mean
repl --model aware --aware-delay lok:@16 examples/spin_lock.simd
