# every construct: parameters, local memory, strict memory, the atomics, barrier, exit
emit-promela tests/golden/promela_features.simd
