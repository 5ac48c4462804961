cfg examples/if_else.simd --dot
