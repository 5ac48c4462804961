# columns as wide as their content: a million threads
repl --echo --threads 1000000 tests/golden/repl_columns.simd
