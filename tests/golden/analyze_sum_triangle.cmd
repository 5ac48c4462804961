# seed 001 digest §5.5, degree-2 column; branches l6 divergent, l8 uniform
analyze examples/sum_triangle.simd
