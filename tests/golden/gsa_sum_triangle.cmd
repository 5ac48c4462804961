# Sampaio 2013 Figure 3.5 from Figure 3.4: the paper's names s0..s4, d0..d3
gsa examples/sum_triangle.simd
