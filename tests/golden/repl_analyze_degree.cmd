# one degree range for the CLI and the REPL: 0..64
repl --echo examples/if_else.simd
