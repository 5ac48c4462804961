run tests/golden/interp_sched.simd --warpsize 2 --model mimd --trace --json
