# the spin lock of ElTantawy's Figure 3.3 with two threads, as a Promela model
emit-promela examples/spin_lock.simd --threads 2
