repl --echo examples/if_else.simd
