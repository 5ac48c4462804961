# T10: with the comparison rule, p0 and d3 are 0·T² + 0·T + ⊥ (Figure 2.2)
analyze examples/avg_square.simd
