run examples/two_warps.simd --trace
