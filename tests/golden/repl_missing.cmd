repl examples/nosuchfile.simd
