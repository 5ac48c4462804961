repl --echo examples/stuck_sync.simd
