analyze --json=1 examples/if_else.simd
