# --trace-limit cuts the trace (exit 4), the statistics stay complete
sm examples/spin_lock.simd --model aware --aware-timeout 10 --trace --trace-limit 2 --json
