# T11 (Figure 3.10), degree 1: i0 (⊥, 0), i1 i2 k (⊥, ⊥)
analyze examples/row_init.simd --degree 1 --json
