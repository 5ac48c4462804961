# a limit stops the search: unknown, exit 4 (never a verdict)
explore examples/spin_lock.simd --model mimd --max-states 50
