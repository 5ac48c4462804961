# long branch labels: the label, instruction and verdict columns stay apart
analyze tests/golden/long_labels.simd
