# data-only (Stratton) misses the sync dependence of d.3 (TC-DA-1): the oracle says so
analyze examples/sum_triangle.simd --domain data-only --verify=4
