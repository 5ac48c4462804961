# a literal outside int32: exit 3 at the literal
emit-promela tests/golden/promela_big_literal.simd
