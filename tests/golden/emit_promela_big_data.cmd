# an initial value outside int32 in a cell the model holds: exit 3 at the .data
emit-promela tests/golden/promela_big_data.simd
