# the explorer's timeout choice has no meaning on the SM, which counts cycles
sm examples/spin_lock.simd --model aware --aware-timeout any
