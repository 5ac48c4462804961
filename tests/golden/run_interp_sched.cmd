run tests/golden/interp_sched.simd --warpsize 1 --trace
