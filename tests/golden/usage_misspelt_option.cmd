run examples/if_else.simd --trcae
