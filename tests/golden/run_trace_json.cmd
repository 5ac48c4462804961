run examples/if_else_coutinho.simd --json --trace
