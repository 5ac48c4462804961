# explore under policies of the lab: Min-PC livelocks the spin lock, Lee does not
explore --model its:minpc,its:lee examples/spin_lock.simd
