run examples/sum_triangle.simd --param c=2 --threads 2 --quiet
