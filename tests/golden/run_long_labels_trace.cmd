# the trace and the grid size their columns to the labels and instructions
run tests/golden/long_labels.simd --trace --grid --quiet --trace-limit 8
