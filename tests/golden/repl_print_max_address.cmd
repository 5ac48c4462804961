# the largest address: printing it ends
repl --echo examples/if_else.simd
