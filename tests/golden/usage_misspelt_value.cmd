run examples/if_else.simd --model ipdm
