# Diamos et al. 2011, Figure 1: the thread frontiers of Algorithm 1
cfg examples/unstructured.simd --frontiers
