check --jsn examples/if_else.simd
