# a --param value outside int32: exit 3
emit-promela tests/golden/promela_features.simd --param base=5000000000
