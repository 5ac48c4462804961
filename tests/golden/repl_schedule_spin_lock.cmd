# replay the explorer's livelock of the spin lock (seed 004 §2.2): step into the cycle, look at the parked winner, go back
repl --echo --model sync --threads 2 --schedule 0,0,0/0,0 examples/spin_lock.simd
