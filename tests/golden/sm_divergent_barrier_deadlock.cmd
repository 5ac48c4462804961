# the SM model: the divergent barrier commits nothing more; GPGPU-Sim's commit watchdog (every 50 000 cycles) reports the deadlock
sm examples/barrier_divergent.simd
