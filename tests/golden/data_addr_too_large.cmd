run examples/if_else.simd --data 9223372036854775808=1
