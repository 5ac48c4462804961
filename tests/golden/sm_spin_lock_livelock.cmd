# the SM model: the spin lock under ipdom keeps issuing; the progress watchdog reports a SIMT livelock naming the spinning pcs, the threads and the one waiting
sm examples/spin_lock.simd
