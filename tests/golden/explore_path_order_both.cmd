# --path-order both: the side a divergent branch runs first is a choice of the explorer (ipdom)
explore examples/spin_lock.simd --path-order both --model ipdom --threads 2
