# SPIN runs at most 255 processes: exit 3
emit-promela examples/spin_lock.simd --threads 300
