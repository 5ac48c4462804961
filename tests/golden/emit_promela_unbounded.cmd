# addresses the interval analysis cannot bound (d counts the loop's trips): exit 3 at the access
emit-promela examples/sum_triangle.simd
