# --sweep: the same program over two options (threads and the warp scheduler), one row per combination; latency hiding saturates at 2 warp instructions a cycle
sm bench/sm_chains.simd --sweep threads=32,64,256,512 --sweep -gpgpu_scheduler=lrr,gto
