# stride 32 words: a sector per lane, 32 lines a warp, all in one L1 bank (gl_mem resource_stall); a 4-line L1 with 2 MSHRs makes the loads wait (reservation fails, mshr_rc) and the second read miss again
sm tests/golden/sm_memory.simd --param s=32 --set -musimd_sigma=global --set -gpgpu_cache:dl1=S:1:128:4,L:T:m:L:L,A:2:8,16:0,32
