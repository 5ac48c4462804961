# batch: one summary in the manner of Sampaio 2013 chapter 5
analyze examples/sum_triangle.simd examples/avg_square.simd examples/row_init.simd examples/bitonic.simd --summary
