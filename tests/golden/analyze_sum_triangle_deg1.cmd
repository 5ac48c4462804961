# seed 001 digest §5.5, degree-1 column
analyze examples/sum_triangle.simd --degree 1
