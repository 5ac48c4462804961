run examples/if_else.simd --data 10=1,2,3
