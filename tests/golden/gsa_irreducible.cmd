# an irreducible CFG: exit 3, the cycle and its entries
gsa tests/golden/irreducible.simd
