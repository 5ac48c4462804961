# seed 004 §2.2 (T4): a barrier in divergent code deadlocks under every SIMT model
explore examples/barrier_divergent.simd
