# one degree range for the CLI and the REPL: 0..1000
repl --echo examples/if_else.simd
