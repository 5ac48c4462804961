repl --ehco examples/if_else.simd
