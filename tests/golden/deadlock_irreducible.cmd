deadlock tests/golden/irreducible.simd
