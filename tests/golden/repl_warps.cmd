repl --echo examples/two_warps.simd
