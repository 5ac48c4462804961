# a CTA that does not fit on the SM: the limit, and what to set
sm examples/sum_triangle.simd --threads 4096 --warpsize 32
