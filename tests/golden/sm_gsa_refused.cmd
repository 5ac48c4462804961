# the SM model runs the plain form
sm examples/sum_triangle_gsa.simd
