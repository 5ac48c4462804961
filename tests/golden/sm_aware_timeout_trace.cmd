# AWARE's timed-out reconvergence counts cycles on the SM (Fig. 5.5): the
# winner, waiting at the loop exit, goes on alone 10 cycles after the last
# arrival; the trace shows the ST and RT tables after every issue
sm examples/spin_lock.simd --model aware --set -gpgpu_simd_rec_time_out=10 --trace
