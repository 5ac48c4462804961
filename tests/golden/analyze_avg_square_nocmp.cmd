# T10 without the comparison rule: p0 = d3 = ⊥·T² + ⊥·T + ⊥
analyze examples/avg_square.simd --no-cmp-rule --ascii
