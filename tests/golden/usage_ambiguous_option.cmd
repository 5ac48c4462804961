# a prefix of several options: all of them
run examples/if_else.simd --max=5
