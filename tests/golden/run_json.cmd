run examples/if_else.simd --json
