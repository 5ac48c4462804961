# gdb abbreviations: st is step (the table lists them), a unique prefix is enough
repl --echo examples/if_else.simd
