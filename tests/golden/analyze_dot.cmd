# Figure 3.7: the dependence graph, divergent variables grey
analyze examples/sum_triangle.simd --domain simple --dot
