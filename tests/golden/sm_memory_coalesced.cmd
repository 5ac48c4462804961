# the memory hierarchy's statistics: Σ in global memory, consecutive words (4 sectors a warp, L1 hits on the second read), a local spill and reload (one line a warp, hits)
sm tests/golden/sm_memory.simd --set -musimd_sigma=global
