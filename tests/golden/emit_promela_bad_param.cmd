# a --param that names no parameter: a usage error, as for run
emit-promela examples/spin_lock.simd --param nosuch=1
