# step numbers of 6 digits and long labels in the REPL step lines and grid
repl --echo tests/golden/long_labels.simd
