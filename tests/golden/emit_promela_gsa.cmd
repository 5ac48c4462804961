# a GSA program: μ (a parallel copy that swaps: temporaries), γ
emit-promela tests/golden/promela_gsa.simd
